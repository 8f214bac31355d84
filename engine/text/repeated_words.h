// Takes out the repeats of a word the model wrote twice or more in a row in a translation.
// Why: a small model under a beam sometimes writes a word again right after itself ("Fernando
// Alonso Alonso", "ein winzig druckbares druckbares Chip", "temporarily temporarily"): in 7 of 997
// flores-dev translations en→de and 5 de→en, ten times as often as a word is doubled in human news
// text (0.07% of lines, mostly typos and names like "Bora Bora").
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

// The edits, last first, that erase a word's repeats where the target writes a word of four or
// more letters twice or more in a row, one space apart ("Ende Ende Ende" -> "Ende"), unless the
// source itself has a word written twice in a row (then the repetition may be meant: "very very",
// "Bora Bora") or the word is "that" ("I know that that is true"). Repeats that start in the first
// `fixed` bytes (a forced prefix) stay.
std::vector<TextEdit> repeated_words(std::string_view source, std::string_view target, size_t fixed = 0);

}  // namespace nmt
