// libFuzzer harness: the SentencePiece tokenizer (engine/tokenizer/) on arbitrary bytes.
// Input: byte 0 picks the mode.
//   0-199  encode the rest as text with the shipped vocabulary (tests/fixtures/spm.model), decode
//          the ids back; then decode the rest read as 16-bit ids (out-of-range ids included)
//   200-   parse the rest as a SentencePiece ModelProto (SentencePiece::load); if it loads, encode
//          and decode a few strings with it
// Checked: ids in range; token spans within the input, in order and contiguous; decode gives valid
// UTF-8 and spans that lie in its output, in order.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_common.h"
#include "tokenizer/sentencepiece.h"

namespace {

void check_encode(const nmt::SentencePiece& spm, std::string_view text) {
  const std::vector<nmt::Token> tokens = spm.encode(text);
  std::vector<int> ids;
  size_t previous_end = tokens.empty() ? 0 : tokens.front().begin;
  for (const nmt::Token& t : tokens) {
    FUZZ_CHECK(t.id >= 0 && t.id < spm.vocab_size());
    FUZZ_CHECK(t.begin <= t.end && t.end <= text.size());
    FUZZ_CHECK(t.begin == previous_end);  // contiguous (offset rule in sentencepiece.h)
    FUZZ_CHECK(!t.piece.empty());
    previous_end = t.end;
    ids.push_back(t.id);
  }
  std::vector<std::pair<size_t, size_t>> spans;
  const std::string decoded = spm.decode(ids, &spans);
  FUZZ_CHECK(fuzz::valid_utf8(decoded));
  FUZZ_CHECK(spans.size() == ids.size());
  size_t at = 0;
  for (const auto& [b, e] : spans) {
    FUZZ_CHECK(b <= e && e <= decoded.size());
    if (b < e) {
      FUZZ_CHECK(b >= at);
      at = e;
    }
  }
}

void check_decode(const nmt::SentencePiece& spm, const std::vector<int>& ids) {
  std::vector<std::pair<size_t, size_t>> spans;
  const std::string decoded = spm.decode(ids, &spans);
  FUZZ_CHECK(fuzz::valid_utf8(decoded));
  FUZZ_CHECK(spans.size() == ids.size());
  for (const auto& [b, e] : spans) FUZZ_CHECK(b <= e && e <= decoded.size());
  for (int id : ids) (void)spm.id_to_piece(id);
}

const nmt::SentencePiece& shipped() {
  static const nmt::SentencePiece spm = [] {
    const std::string bytes = fuzz::read_fixture("spm.model");
    auto loaded = nmt::SentencePiece::load(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    FUZZ_CHECK(loaded);
    return std::move(loaded.value());
  }();
  return spm;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const uint8_t* rest = data + 1;
  const size_t n = size - 1;
  if (mode < 200) {
    const nmt::SentencePiece& spm = shipped();
    check_encode(spm, std::string_view(reinterpret_cast<const char*>(rest), n));
    std::vector<int> ids;
    for (size_t i = 0; i + 1 < n; i += 2) ids.push_back(int16_t(rest[i] | rest[i + 1] << 8) * (mode % 2 ? 1 : 3));
    check_decode(spm, ids);
    return 0;
  }
  auto loaded = nmt::SentencePiece::load(rest, n);
  if (!loaded) {
    FUZZ_CHECK(!loaded.error().empty());
    return 0;
  }
  const nmt::SentencePiece& spm = loaded.value();
  for (const char* text : {"", " ", "Hello world.", "  Das ist \xEF\xAC\x82ow  \xE2\x80\x8B gut!\t\n", "\xF0\x9F\x98\x80 \xFF\xFE x"})
    check_encode(spm, text);
  check_decode(spm, {-1, 0, 1, 2, 3, spm.vocab_size() - 1, spm.vocab_size(), 1 << 30});
  return 0;
}
