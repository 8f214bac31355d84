// German quotation marks. German prints „quotes“ (low opening, high closing); the en→de model
// writes the English straight ones ("...") in two thirds of the flores-dev sentences with a
// quotation, where the references (and every German publisher) have „...“. The straight double
// quotes of a German translation are set as German ones where they pair up.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

// The edits, last first, that turn the target's straight double quotes (and English curly ones,
// “...”) into German „...“: an opening quote starts a word (at the start, after a space, a bracket,
// a dash, a slash or a colon), a closing one ends it (not followed by a letter or digit). The
// sentence may start inside a quotation or end inside one (a quotation of several sentences).
// Quotes that do not pair up that way (one inside a word, a quotation inside another) leave the
// text as it is: no edits. Quotes in the first `fixed` bytes (a forced prefix) are read but stay.
std::vector<TextEdit> german_quotation_marks(std::string_view target, size_t fixed = 0);

}  // namespace nmt
