// An edit the translator makes to a translation's text after decoding (a clock time rewritten,
// quotation marks set): functions in text/ return them, translator.cpp applies them with
// replace_at (text/pass_through.h), last first, so that each offset still holds.
#pragma once

#include <cstddef>
#include <string>

namespace nmt {

// Replace `length` bytes of the target at byte `at` with `text`.
struct TextEdit {
  size_t at, length;
  std::string text;
};

}  // namespace nmt
