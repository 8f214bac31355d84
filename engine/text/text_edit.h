// An edit the translator makes to a translation's text after decoding (a clock time rewritten,
// quotation marks set): functions in text/ return them, and text/passes.h apply_edits applies them,
// last first, so that each offset still holds.
#pragma once

#include <cstddef>
#include <string>

namespace nmt {

// Replace `length` bytes of the target at byte `at` with `text`; `outside`: insert `text` between
// tokens (a currency sign, a copied run), not into the token that holds byte `at`.
struct TextEdit {
  size_t at, length;
  std::string text;
  bool outside = false;
};

}  // namespace nmt
