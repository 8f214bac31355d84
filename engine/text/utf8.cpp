// UTF-8 decoding, sanitizing, UTF-16 offsets and character classes (see utf8.h). Decoding follows
// the Unicode "maximal subpart" rule, the same one browsers' TextDecoder uses, so the U+FFFD count
// the engine produces matches what the page would show for the same bytes.
#include "text/utf8.h"

#include <algorithm>
#include <iterator>

namespace nmt {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

struct Range {
  char32_t lo, hi;
};

// Binary search in a sorted table of disjoint inclusive ranges.
template <size_t N>
bool in_ranges(const Range (&table)[N], char32_t cp) {
  const Range* it = std::upper_bound(std::begin(table), std::end(table), cp,
                                     [](char32_t c, const Range& r) { return c < r.lo; });
  return it != std::begin(table) && cp <= (it - 1)->hi;
}

// The tables below must be sorted and disjoint for in_ranges; checked at compile time.
template <size_t N>
constexpr bool sorted_disjoint(const Range (&table)[N]) {
  for (size_t i = 0; i < N; ++i) {
    if (table[i].lo > table[i].hi || (i > 0 && table[i - 1].hi >= table[i].lo)) return false;
  }
  return true;
}

constexpr Range kLetters[] = {
    {0x41, 0x5A},       {0x61, 0x7A},       {0xAA, 0xAA},       {0xB5, 0xB5},
    {0xBA, 0xBA},       {0xC0, 0xD6},       {0xD8, 0xF6},       {0xF8, 0x2C1},
    {0x2C6, 0x2D1},     {0x2E0, 0x2E4},     {0x2EC, 0x2EC},     {0x2EE, 0x2EE},
    {0x370, 0x374},     {0x376, 0x377},     {0x37A, 0x37D},     {0x37F, 0x37F},
    {0x386, 0x386},     {0x388, 0x3FF},     {0x400, 0x481},     {0x48A, 0x52F},
    {0x531, 0x556},     {0x559, 0x559},     {0x560, 0x588},     {0x5D0, 0x5EA},
    {0x5EF, 0x5F2},     {0x620, 0x64A},     {0x66E, 0x66F},     {0x671, 0x6D3},
    {0x6D5, 0x6D5},     {0x6E5, 0x6E6},     {0x6EE, 0x6EF},     {0x6FA, 0x6FC},
    {0x6FF, 0x6FF},     {0x710, 0x710},     {0x712, 0x72F},     {0x74D, 0x7A5},
    {0x7B1, 0x7B1},     {0x8A0, 0x8C9},     {0x900, 0x963},     {0x966, 0xDFF},  // Indic
    {0xE01, 0xE3A},     {0xE40, 0xE4E},     {0xE50, 0xE59},     {0xE81, 0xEDF},
    {0x1000, 0x1049},   {0x1050, 0x109F},   {0x10A0, 0x10FA},   {0x10FC, 0x10FF},
    {0x1100, 0x11FF},   {0x1200, 0x135F},   {0x13A0, 0x13FF},   {0x1780, 0x17D3},
    {0x1C80, 0x1C8F},   {0x1C90, 0x1CBF},   {0x1D00, 0x1DBF},   {0x1E00, 0x1EFF},
    {0x1F00, 0x1FBC},   {0x1FC2, 0x1FCC},   {0x1FD0, 0x1FDB},   {0x1FE0, 0x1FEC},
    {0x1FF2, 0x1FFC},   {0x2071, 0x2071},   {0x207F, 0x207F},   {0x2090, 0x209C},
    {0x2C00, 0x2CE4},   {0x2D00, 0x2D2D},   {0x2D30, 0x2D67},   {0x3041, 0x3096},
    {0x309D, 0x309F},   {0x30A1, 0x30FA},   {0x30FC, 0x30FF},   {0x3105, 0x312F},
    {0x3131, 0x318E},   {0x31F0, 0x31FF},   {0xA000, 0xA48C},   {0xA640, 0xA66E},
    {0xA67F, 0xA69D},   {0xA717, 0xA7FF},   {0xAB30, 0xAB6F},   {0xAC00, 0xD7A3},
    {0xFB00, 0xFB06},   {0xFB13, 0xFB17},   {0xFB1D, 0xFB28},   {0xFB2A, 0xFB4F},
    {0xFB50, 0xFD3D},   {0xFD50, 0xFDFB},   {0xFE70, 0xFEFC},   {0xFF21, 0xFF3A},
    {0xFF41, 0xFF5A},   {0xFF66, 0xFFDC},   {0x10400, 0x1044F},
};

constexpr Range kDigits[] = {
    {0x30, 0x39},   {0x660, 0x669}, {0x6F0, 0x6F9},   {0x966, 0x96F},
    {0x9E6, 0x9EF}, {0xE50, 0xE59}, {0xFF10, 0xFF19},
};

constexpr Range kMarks[] = {
    {0x300, 0x36F},     {0x483, 0x489},   {0x591, 0x5BD},   {0x5BF, 0x5BF},
    {0x5C1, 0x5C2},     {0x5C4, 0x5C5},   {0x5C7, 0x5C7},   {0x610, 0x61A},
    {0x64B, 0x65F},     {0x670, 0x670},   {0x6D6, 0x6DC},   {0x6DF, 0x6E4},
    {0x6E7, 0x6E8},     {0x6EA, 0x6ED},   {0x711, 0x711},   {0x730, 0x74A},
    {0x8CA, 0x8FF},     {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x20D0, 0x20FF},
    {0x2DE0, 0x2DFF},   {0x302A, 0x302F}, {0x3099, 0x309A}, {0xFE00, 0xFE0F},
    {0xFE20, 0xFE2F},   {0xE0100, 0xE01EF},
};

constexpr Range kCjk[] = {
    {0x3005, 0x3007},   {0x3021, 0x3029},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
    {0xF900, 0xFAFF},   {0x20000, 0x2FA1F}, {0x30000, 0x3134F},
};

constexpr Range kEmoji[] = {
    {0xA9, 0xA9},       {0xAE, 0xAE},       {0x203C, 0x203C},   {0x2049, 0x2049},
    {0x2122, 0x2122},   {0x2139, 0x2139},   {0x2194, 0x21AA},   {0x2300, 0x23FF},
    {0x24C2, 0x24C2},   {0x25AA, 0x25FE},   {0x2600, 0x27BF},   {0x2934, 0x2935},
    {0x2B00, 0x2BFF},   {0x3030, 0x3030},   {0x303D, 0x303D},   {0x3297, 0x3297},
    {0x3299, 0x3299},   {0x1F000, 0x1F3FA}, {0x1F400, 0x1FAFF},  // 1F3FB..1F3FF: skin tones
};

constexpr Range kCased[] = {
    {0x41, 0x24F},   {0x370, 0x3FF},   {0x400, 0x52F},   {0x531, 0x58F},
    {0x10A0, 0x10FF}, {0x1C80, 0x1CBF}, {0x1E00, 0x1FFF}, {0x2C00, 0x2C7F},
    {0xA640, 0xA69F}, {0xA720, 0xA7FF}, {0xFF21, 0xFF5A},
};

// Single upper-case letters that do not follow the even/odd patterns below.
constexpr Range kUpperMisc[] = {
    {0x181, 0x182}, {0x184, 0x184}, {0x186, 0x187}, {0x189, 0x18B}, {0x18E, 0x191},
    {0x193, 0x194}, {0x196, 0x198}, {0x19C, 0x19D}, {0x19F, 0x1A0}, {0x1A2, 0x1A2},
    {0x1A4, 0x1A4}, {0x1A6, 0x1A7}, {0x1A9, 0x1A9}, {0x1AC, 0x1AC}, {0x1AE, 0x1AF},
    {0x1B1, 0x1B3}, {0x1B5, 0x1B5}, {0x1B7, 0x1B8}, {0x1BC, 0x1BC}, {0x1C4, 0x1C5},
    {0x1C7, 0x1C8}, {0x1CA, 0x1CB}, {0x1F1, 0x1F2}, {0x1F4, 0x1F4}, {0x1F6, 0x1F7},
    {0x386, 0x386}, {0x388, 0x38A}, {0x38C, 0x38C}, {0x38E, 0x38F}, {0x391, 0x3A1},
    {0x3A3, 0x3AB}, {0x3D2, 0x3D4}, {0x400, 0x42F}, {0x4C0, 0x4C0}, {0x531, 0x556},
    {0x10A0, 0x10C5}, {0x1C90, 0x1CBF}, {0x1E9E, 0x1E9E}, {0x1F08, 0x1F0F}, {0x1F18, 0x1F1D},
    {0x1F28, 0x1F2F}, {0x1F38, 0x1F3F}, {0x1F48, 0x1F4D}, {0x1F59, 0x1F59}, {0x1F5B, 0x1F5B},
    {0x1F5D, 0x1F5D}, {0x1F5F, 0x1F5F}, {0x1F68, 0x1F6F}, {0x1F88, 0x1F8F}, {0x1F98, 0x1F9F},
    {0x1FA8, 0x1FAF}, {0x1FB8, 0x1FBC}, {0x1FC8, 0x1FCC}, {0x1FD8, 0x1FDB}, {0x1FE8, 0x1FEC},
    {0x1FF8, 0x1FFC}, {0xFF21, 0xFF3A},
};

// Blocks where upper and lower case alternate: upper case is the even (or odd) code point.
struct Alternating {
  char32_t lo, hi;
  bool upper_is_even;
};
constexpr Alternating kUpperAlternating[] = {
    {0x100, 0x137, true},  {0x139, 0x148, false}, {0x14A, 0x177, true},  {0x178, 0x178, true},
    {0x179, 0x17E, false}, {0x1CD, 0x1DC, false}, {0x1DE, 0x1EF, true},  {0x1F8, 0x21F, true},
    {0x222, 0x233, true},  {0x3D8, 0x3EF, true},  {0x460, 0x481, true},  {0x48A, 0x4BF, true},
    {0x4C1, 0x4CE, false}, {0x4D0, 0x52F, true},  {0x1E00, 0x1E95, true}, {0x1EA0, 0x1EFF, true},
};

static_assert(sorted_disjoint(kLetters) && sorted_disjoint(kDigits) && sorted_disjoint(kMarks) &&
              sorted_disjoint(kCjk) && sorted_disjoint(kEmoji) && sorted_disjoint(kCased) &&
              sorted_disjoint(kUpperMisc));

}  // namespace

size_t decode_utf8(std::string_view text, size_t pos, char32_t& cp) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char b0 = byte(pos);
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  // The lead byte fixes the length and the allowed range of the second byte; that range is what
  // rules out overlong forms, surrogates and values past U+10FFFF.
  size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  char32_t value = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2, value = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3, value = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4, value = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    cp = kReplacement;
    return 1;
  }
  for (size_t k = 1; k < length; ++k) {
    if (pos + k >= text.size()) {
      cp = kReplacement;
      return k;
    }
    const unsigned char b = byte(pos + k);
    if (b < lo || b > hi) {
      cp = kReplacement;
      return k;  // the offending byte starts the next sequence
    }
    lo = 0x80, hi = 0xBF;
    value = (value << 6) | (b & 0x3F);
  }
  cp = value;
  return length;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacement;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    char32_t cp;
    const size_t length = decode_utf8(text, i, cp);
    // An invalid sequence decodes as U+FFFD too, but only a real U+FFFD is these three bytes.
    if (cp == kReplacement && text.compare(i, length, "\xEF\xBF\xBD") != 0) return false;
    i += length;
  }
  return true;
}

std::string sanitize_utf8(std::string_view text) {
  // Every valid character keeps its UTF-16 length (a control becomes a space, one unit for one), so
  // offsets computed on the result index the caller's own string: no map back is needed.
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    char32_t cp;
    const size_t length = decode_utf8(text, i, cp);
    if (cp == kReplacement) {
      append_utf8(out, kReplacement);  // covers both a real U+FFFD and an invalid sequence
    } else if (is_control(cp) && cp != '\t' && !is_newline(cp)) {
      out += ' ';  // NUL, escape, DEL, C1...: a space, so "cat\0sleeps" stays two words
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

Utf16Offsets::Utf16Offsets(std::string_view utf8) : units_before_(utf8.size() + 1) {
  // Counted per lead byte, so even invalid bytes (one U+FFFD unit each) give a usable table.
  uint32_t units = 0, at_char_start = 0;
  for (size_t i = 0; i < utf8.size(); ++i) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    if (!is_continuation(b)) {
      at_char_start = units;
      units += b >= 0xF0 && b <= 0xF4 ? 2 : 1;  // 4-byte sequences are surrogate pairs in UTF-16
    }
    units_before_[i] = at_char_start;
  }
  units_before_[utf8.size()] = units;
}

size_t Utf16Offsets::operator()(size_t byte_offset) const {
  return units_before_[std::min(byte_offset, units_before_.size() - 1)];
}

bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

bool is_whitespace(char32_t cp) {
  return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

bool is_newline(char32_t cp) {
  return (cp >= 0x0A && cp <= 0x0D) || cp == 0x85 || cp == 0x2028 || cp == 0x2029;
}

bool is_letter(char32_t cp) { return in_ranges(kLetters, cp); }
bool is_digit(char32_t cp) { return in_ranges(kDigits, cp); }
bool is_mark(char32_t cp) { return in_ranges(kMarks, cp); }
bool is_cjk_ideograph(char32_t cp) { return in_ranges(kCjk, cp); }
bool is_emoji(char32_t cp) { return in_ranges(kEmoji, cp); }
bool has_case(char32_t cp) { return is_letter(cp) && in_ranges(kCased, cp); }

bool is_upper(char32_t cp) {
  if (cp < 0x80) return cp >= 'A' && cp <= 'Z';
  if (cp >= 0xC0 && cp <= 0xDE) return cp != 0xD7;
  for (const Alternating& block : kUpperAlternating) {
    if (cp >= block.lo && cp <= block.hi) return (cp % 2 == 0) == block.upper_is_even;
  }
  return in_ranges(kUpperMisc, cp);
}

}  // namespace nmt
