// No-break spaces the source writes between two words ("10\u00A0km", "Mr.\u00A0Smith", "§\u00A05",
// "5\u202F%", "20\u00A0°C") stay in the translation. The tokenizer reads them as spaces, and the
// model writes a plain space between its words, so "10 km" could break across two lines again.
// The space goes back where the translation keeps the two words side by side: two target words
// one plain space apart, linked by the model's attention to two source words that stand with that
// no-break space between them (and no other space, letter or digit: "Mr." + U+00A0 + "Smith"), of
// which at least one is written as in the source ("10 km", "Herr Smith"). Words the model moved
// apart, or a glossary's own term ("Zeta Sky" for "Acme\u00A0Cloud"), keep their plain space.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "text/text_edit.h"
#include "text/word_alignment.h"

namespace nmt {

struct TargetSentence;  // text/passes.h

// True for the spaces kept: the no-break space (U+00A0), the narrow no-break space (U+202F) and the
// figure space (U+2007).
bool is_no_break_space(char32_t cp);

// True if `text` holds one of them (the pass needs the sentence's attention then: translator.cpp keeps it).
bool has_no_break_space(std::string_view text);

// The edits that write the source's no-break spaces over the target's plain ones, by `words` (the
// word alignment of source and target: align_words' links; with no links, only two words both
// written as in the source count); none in the first `fixed` bytes.
std::vector<TextEdit> no_break_spaces(std::string_view source, std::string_view target, const WordAlignment& words,
                                      size_t fixed = 0);

// The pass: no_break_spaces by the sentence's attention (the alignment layer's, as emphasis_marks
// reads it); where none was kept, by the words as written alone. Nothing for a source without a
// no-break space.
void keep_no_break_spaces(TargetSentence& s);

}  // namespace nmt
