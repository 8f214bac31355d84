// The test tokenizer (tests/fixtures/spm.model) and the token ids of short texts, for tests that
// write a hypothesis's tokens by hand (the retries' clean-up steps).
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/sentencepiece.h"

inline const nmt::SentencePiece& fixture_tokenizer() {
  static const nmt::Result<nmt::SentencePiece> loaded = [] {
    std::ifstream f(NMT_FIXTURES "/spm.model", std::ios::binary);
    const std::string bytes(std::istreambuf_iterator<char>(f), {});
    return nmt::SentencePiece::load(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }();
  REQUIRE(loaded.ok());
  return loaded.value();
}

// The ids `text` encodes to with the test tokenizer.
inline std::vector<int> fixture_ids(std::string_view text) {
  std::vector<int> out;
  for (const nmt::Token& t : fixture_tokenizer().encode(text)) out.push_back(t.id);
  return out;
}

// The parts one after another.
inline std::vector<int> joined(const std::vector<std::vector<int>>& parts) {
  std::vector<int> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
