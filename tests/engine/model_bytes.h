// Model files as bytes, for the engine tests: reading fixtures, and rewriting a file's JSON header
// or adding tensors to it (with the length and CRC fixed up), to make good and broken variants.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model_file.h"

namespace test_model_bytes {

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  REQUIRE_MESSAGE(f.good(), "missing fixture " << path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

inline std::string fixture(const std::string& name) { return std::string(NMT_FIXTURES) + "/" + name; }

inline size_t data_start(size_t header_bytes) { return (32 + header_bytes + 63) / 64 * 64; }

inline nlohmann::json header_of(const std::vector<uint8_t>& file) {
  uint32_t header_bytes;
  std::memcpy(&header_bytes, &file[12], 4);
  return nlohmann::json::parse(file.begin() + 32, file.begin() + 32 + header_bytes);
}

// The file with its JSON header replaced by `h` and `extra` bytes appended to the tensor data
// (a valid length and checksum).
inline std::vector<uint8_t> with_header_text(const std::vector<uint8_t>& file, const std::string& h,
                                             const std::vector<uint8_t>& extra = {}) {
  uint32_t header_bytes;
  std::memcpy(&header_bytes, &file[12], 4);
  const size_t old_start = data_start(header_bytes), new_start = data_start(h.size());
  std::vector<uint8_t> out(new_start + file.size() - old_start, 0);
  std::memcpy(out.data(), file.data(), 32);
  uint32_t hb = uint32_t(h.size());
  std::memcpy(&out[12], &hb, 4);
  std::memcpy(&out[32], h.data(), h.size());
  std::memcpy(&out[new_start], &file[old_start], file.size() - old_start);
  out.insert(out.end(), extra.begin(), extra.end());
  uint64_t total = out.size();
  std::memcpy(&out[16], &total, 8);
  uint32_t crc = nmt::crc32(out.data() + 32, out.size() - 32);
  std::memcpy(&out[24], &crc, 4);
  return out;
}

struct NewTensor {
  std::string name, dtype;  // "u16", "u8", ...
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

// The file with these tensors added after its others (each 64-aligned).
inline std::vector<uint8_t> with_tensors(const std::vector<uint8_t>& file, const std::vector<NewTensor>& tensors) {
  nlohmann::json h = header_of(file);
  uint32_t header_bytes;
  std::memcpy(&header_bytes, &file[12], 4);
  const size_t data_bytes = file.size() - data_start(header_bytes);  // the tensor data, from its start
  std::vector<uint8_t> extra((data_bytes + 63) / 64 * 64 - data_bytes, 0);  // pad to the next tensor
  for (const NewTensor& t : tensors) {
    h["tensors"].push_back({{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape},
                            {"offset", data_bytes + extra.size()}, {"bytes", t.bytes.size()}});
    extra.insert(extra.end(), t.bytes.begin(), t.bytes.end());
    extra.resize((extra.size() + data_bytes + 63) / 64 * 64 - data_bytes, 0);
  }
  return with_header_text(file, h.dump(), extra);
}

inline std::vector<uint8_t> u16_bytes(const std::vector<int>& values) {
  std::vector<uint8_t> b;
  for (int v : values) {
    b.push_back(uint8_t(v & 0xff));
    b.push_back(uint8_t(v >> 8));
  }
  return b;
}

}  // namespace test_model_bytes
