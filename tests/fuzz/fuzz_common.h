// Shared helpers for the libFuzzer harnesses (tests/fuzz/README.md): a check that aborts with a
// message (so libFuzzer saves the input as a crash), a strict UTF-8 validator independent of the
// engine's own decoder, and reading fixture files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#define FUZZ_CHECK(cond)                                                             \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                  \
    }                                                                                \
  } while (0)

namespace fuzz {

// Strict UTF-8 (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF). Returns false on
// the first invalid sequence; *utf16 (when given) gets the string's length in UTF-16 code units.
inline bool valid_utf8(std::string_view s, size_t* utf16 = nullptr) {
  size_t units = 0;
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    size_t n;
    uint32_t cp;
    if (b < 0x80) { n = 1; cp = b; }
    else if (b >= 0xC2 && b <= 0xDF) { n = 2; cp = b & 0x1F; }
    else if (b >= 0xE0 && b <= 0xEF) { n = 3; cp = b & 0x0F; }
    else if (b >= 0xF0 && b <= 0xF4) { n = 4; cp = b & 0x07; }
    else return false;
    if (i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      const unsigned char c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = cp << 6 | (c & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    units += cp >= 0x10000 ? 2 : 1;
    i += n;
  }
  if (utf16) *utf16 = units;
  return true;
}

inline bool is_char_boundary(std::string_view s, size_t pos) {
  return pos == 0 || pos >= s.size() || (static_cast<unsigned char>(s[pos]) & 0xC0) != 0x80;
}

inline std::string read_fixture(const std::string& name) {
  const std::string path = std::string(NMT_FIXTURES) + "/" + name;
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::abort();
  }
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace fuzz
