// Puts back the comma between two numbers that a translation turned into a full stop.
// Why: an address writes the house number, a comma and the postcode ("Friedrichstraße 12, 10115
// Berlin"), and both models turned that comma into a full stop ("Friedrichstraße 12. 10115 Berlin",
// "12. 10115 Berlin on Friedrichstrasse"), which reads as a German ordinal or the end of a sentence.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

// The edits (last first) that write "A, B" where the source has two whole numbers A and B with
// ", " between them and the target the same numbers with ". " between them. Only after the first
// `fixed` bytes (a forced prefix).
std::vector<TextEdit> number_commas(std::string_view source, std::string_view target, size_t fixed = 0);

}  // namespace nmt
