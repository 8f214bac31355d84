// A minimal reader for the protobuf wire format, just enough to walk a SentencePiece ModelProto
// without the protobuf library: it yields (field number, wire type, payload) triples one at a
// time and checks every length against the buffer, so truncated or garbage bytes end in an error
// message rather than an out-of-bounds read. Nested messages are read by making a new reader over
// a length-delimited payload. Groups (wire types 3/4, long deprecated) are rejected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace nmt {
namespace pb {

enum WireType : int { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

struct Field {
  uint32_t number = 0;
  int wire_type = 0;
  uint64_t varint = 0;         // kVarint, kFixed64, kFixed32 (raw bits, little-endian decoded)
  std::string_view bytes;      // kLengthDelimited payload (points into the reader's buffer)

  int32_t as_int32() const { return static_cast<int32_t>(static_cast<uint32_t>(varint)); }
  bool as_bool() const { return varint != 0; }
  float as_float() const;      // kFixed32 reinterpreted as IEEE float
};

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  explicit Reader(std::string_view s)
      : Reader(reinterpret_cast<const uint8_t*>(s.data()), s.size()) {}

  // Reads the next field into *field. Returns false at the clean end of the buffer or on an error;
  // error() is empty in the first case and names the problem in the second.
  bool next(Field* field);
  const std::string& error() const { return error_; }

 private:
  bool read_varint(uint64_t* v);
  bool fail(const char* what);

  const uint8_t* p_;
  const uint8_t* end_;
  std::string error_;
};

}  // namespace pb
}  // namespace nmt
