// Quotation marks in a translation: sets the straight double quotes of a German translation as
// German „...“ where they pair up, takes out a lone quotation mark the model invented, and the
// quotes it set around copied code.
// Why: German prints „quotes“ (low opening, high closing); the en→de model writes the English
// straight ones ("...") in two thirds of the flores-dev sentences with a quotation, where the
// references (and every German publisher) have „...“.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
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

// The edit that takes out the one double quotation mark of a translation whose source has no
// quotation mark (" „ “ ” « », ‘ ‚ ‹ › or an opening '): the model invents one now and then, a lone quote that opens nothing ("„Das ist
// Haus groß" for "The house is big", a glossary term masked), which the German marks would make
// „. A space it leaves doubled, or before a mark, goes with it. Two or more (a pair: the model may
// quote a name the source set in single quotes) stay; so does one in the first `fixed` bytes.
std::vector<TextEdit> invented_quotation_mark(std::string_view source, std::string_view target, size_t fixed = 0);

// The edits, last first, that take out quotation marks the model set around a copy of the source's
// code (`copies`: bytes of the target that copy `source_spans` of the source starting with a
// backtick; passes.h's verbatim_copies) where the source has none around it: the model learned the
// German manual pages' »quotes« for code ("Use the `--force` flag" -> "Verwenden Sie » `--force`«").
// An opening mark (» „ “ " «) right before the copy, a space between them allowed, and a closing
// one (« “ ” " ») right after it both go, with the space; one of them alone stays. Not in the first
// `fixed` bytes.
std::vector<TextEdit> quotes_around_code(std::string_view source, const std::vector<std::pair<size_t, size_t>>& source_spans,
                                         std::string_view target, const std::vector<std::pair<size_t, size_t>>& copies,
                                         size_t fixed = 0);

}  // namespace nmt
