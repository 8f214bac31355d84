// libFuzzer harness: the model loader (engine/model/model_file.h, Translator::load) on corrupt
// model files, with and without a valid checksum. Input: byte 0 picks the mode.
//   0-63     raw: the rest is the whole model file (the length and CRC checks stop most of these)
//   64-159   header: the rest is a JSON header; the file is rebuilt around it with the fixture's
//            tensor data (tests/fixtures/tiny-shortlist.nmt: tiny.nmt with a lexical shortlist), with
//            the right length and CRC, so mutations reach the JSON, config, tensor-table and semantic checks
//   160-255  patch: the rest is 5-byte records (u32 offset, u8 xor) applied to tiny-shortlist.nmt,
//            then the CRC is fixed: corrupt weights, scales, shortlist, tokenizer and header bytes in place
// A model that loads is then used: a short translation with alignments, greedy and beam 2, with
// and without its shortlist.
// Checked: no crash or sanitizer report; a refusal has a message; a loaded model translates.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/aligned_buffer.h"
#include "fuzz_common.h"
#include "model/model_file.h"
#include "translator.h"

namespace {

struct Fixture {
  std::string file;      // tiny-shortlist.nmt as it is
  std::string tensors;   // its bytes from data_start to the end
};

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture x;
    x.file = fuzz::read_fixture("tiny-shortlist.nmt");
    uint32_t header_bytes = 0;
    std::memcpy(&header_bytes, x.file.data() + 12, 4);
    const size_t data_start = (32 + size_t(header_bytes) + 63) / 64 * 64;
    x.tensors = x.file.substr(data_start);
    return x;
  }();
  return f;
}

void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

void fix_length_and_crc(nmt::AlignedBuffer& b) {
  const uint64_t n = b.size();
  put_u32(b.data() + 16, uint32_t(n));
  put_u32(b.data() + 20, uint32_t(n >> 32));
  put_u32(b.data() + 24, nmt::crc32(b.data() + 32, b.size() - 32));
}

void try_load(nmt::AlignedBuffer bytes) {
  auto loaded = nmt::Translator::load(std::move(bytes));
  if (!loaded) {
    FUZZ_CHECK(!loaded.error().empty());
    return;
  }
  const nmt::Translator& t = *loaded.value();
  (void)t.info_json();
  for (int beam : {1, 2, -1, -2}) {
    nmt::TranslateOptions options;
    options.beam_size = beam < 0 ? -beam : beam;
    options.shortlist = beam < 0;
    options.alignments = true;
    auto r = t.translate("The house is small. Hello!", options);
    FUZZ_CHECK(r);
    (void)nmt::to_json(r.value(), options);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const uint8_t* rest = data + 1;
  const size_t n = size - 1;
  const Fixture& fx = fixture();
  if (mode < 64) {
    nmt::AlignedBuffer b = nmt::AlignedBuffer::allocate(n);
    if (n) std::memcpy(b.data(), rest, n);
    try_load(std::move(b));
  } else if (mode < 160) {
    const size_t data_start = (32 + n + 63) / 64 * 64;
    nmt::AlignedBuffer b = nmt::AlignedBuffer::allocate(data_start + fx.tensors.size());
    std::memset(b.data(), 0, data_start);
    std::memcpy(b.data(), "NMTMODEL", 8);
    put_u32(b.data() + 8, 1);
    put_u32(b.data() + 12, uint32_t(n));
    if (n) std::memcpy(b.data() + 32, rest, n);
    std::memcpy(b.data() + data_start, fx.tensors.data(), fx.tensors.size());
    fix_length_and_crc(b);
    try_load(std::move(b));
  } else {
    nmt::AlignedBuffer b = nmt::AlignedBuffer::allocate(fx.file.size());
    std::memcpy(b.data(), fx.file.data(), fx.file.size());
    for (size_t i = 0; i + 5 <= n; i += 5) {
      const uint32_t offset = uint32_t(rest[i] | rest[i + 1] << 8 | rest[i + 2] << 16 | uint32_t(rest[i + 3]) << 24);
      b.data()[offset % b.size()] ^= rest[i + 4];
    }
    put_u32(b.data() + 24, nmt::crc32(b.data() + 32, b.size() - 32));
    try_load(std::move(b));
  }
  return 0;
}
