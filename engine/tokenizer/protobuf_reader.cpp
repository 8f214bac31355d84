// Protobuf wire-format reader (see protobuf_reader.h). A field is a varint key
// (field_number << 3 | wire_type) followed by a payload whose size the wire type decides: a varint,
// 8 or 4 little-endian bytes, or a varint length and that many bytes. Every read is bounds-checked.
#include "tokenizer/protobuf_reader.h"

#include <cstring>

namespace nmt {
namespace pb {

float Field::as_float() const {
  const uint32_t bits = static_cast<uint32_t>(varint);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

bool Reader::fail(const char* what) {
  error_ = what;
  p_ = end_;  // poison: later calls return false
  return false;
}

bool Reader::read_varint(uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p_ == end_) return fail("truncated varint");
    const uint8_t b = *p_++;
    result |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return fail("varint longer than 10 bytes");
}

bool Reader::next(Field* field) {
  if (p_ == end_) return false;
  uint64_t key;
  if (!read_varint(&key)) return false;
  const uint64_t number = key >> 3;
  if (number == 0 || number > 0x1FFFFFFF) return fail("invalid field number");
  *field = Field();
  field->number = static_cast<uint32_t>(number);
  field->wire_type = static_cast<int>(key & 7);
  const size_t left = static_cast<size_t>(end_ - p_);
  switch (field->wire_type) {
    case kVarint:
      return read_varint(&field->varint);
    case kFixed64:
      if (left < 8) return fail("truncated 64-bit field");
      for (int i = 7; i >= 0; --i) field->varint = (field->varint << 8) | p_[i];
      p_ += 8;
      return true;
    case kFixed32:
      if (left < 4) return fail("truncated 32-bit field");
      for (int i = 3; i >= 0; --i) field->varint = (field->varint << 8) | p_[i];
      p_ += 4;
      return true;
    case kLengthDelimited: {
      uint64_t len;
      if (!read_varint(&len)) return false;
      if (len > static_cast<uint64_t>(end_ - p_)) return fail("length-delimited field runs past the end");
      field->bytes = std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(len));
      p_ += len;
      return true;
    }
    default:
      return fail("unsupported wire type (groups or garbage)");
  }
}

}  // namespace pb
}  // namespace nmt
