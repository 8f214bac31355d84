// SentencePiece's text normalizer, re-implemented to give byte-identical output: at each input
// position take the longest user-defined symbol (kept verbatim), else the longest rule of the
// precompiled charsmap (a darts-clone double array over UTF-8 keys whose values index a blob of
// NUL-terminated replacement strings, e.g. nmt_nfkc), else the character itself (an invalid UTF-8
// byte becomes U+FFFD). Around that it applies the whitespace options: drop leading, trailing and
// repeated spaces, prepend the dummy "▁", and write spaces as "▁". Alongside the normalized text it
// records, for every normalized byte, the offset in the original input it came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "tokenizer/byte_trie.h"

namespace nmt {

struct NormalizerSpec {
  std::string precompiled_charsmap;  // empty: no character rules (identity)
  bool add_dummy_prefix = true;
  bool remove_extra_whitespaces = true;
  bool escape_whitespaces = true;
};

class Normalizer {
 public:
  // user_symbols: the model's USER_DEFINED pieces, which bypass normalization.
  static Result<Normalizer> create(const NormalizerSpec& spec,
                                   const std::vector<std::string>& user_symbols);

  // normalized: the text the unigram lattice runs over. norm_to_orig has normalized->size() + 1
  // entries: norm_to_orig[i] = input offset of the chunk that produced normalized byte i, and the
  // last entry is the input offset where the normalized text ends (trailing spaces excluded).
  void normalize(std::string_view input, std::string* normalized,
                 std::vector<size_t>* norm_to_orig) const;

 private:
  // One normalization step at the start of `input`: (replacement text, input bytes consumed).
  std::pair<std::string_view, size_t> normalize_prefix(std::string_view input) const;
  // Longest charsmap rule prefixing `input`: its length (0 if none) and replacement via *out.
  size_t charsmap_match(std::string_view input, std::string_view* out) const;

  NormalizerSpec spec_;
  std::vector<uint32_t> units_;  // darts-clone double array
  std::string replacements_;     // NUL-terminated replacement strings the units' values index
  ByteTrie user_symbols_;
};

}  // namespace nmt
