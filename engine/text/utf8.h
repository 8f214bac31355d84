// UTF-8 basics for the text layer: decoding one code point at a time (invalid bytes come out as
// U+FFFD, never as an error), sanitizing untrusted input so nothing downstream sees broken text,
// mapping byte offsets to the UTF-16 indices JavaScript uses, and the small character classes the
// segmenter and the word finder share. The classes are hand-written ranges, not the full Unicode
// database: good enough for Latin, Greek, Cyrillic, Hebrew, Arabic, Indic, CJK and emoji.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nmt {

// Valid UTF-8 with invalid sequences replaced by U+FFFD and C0/C1 control characters other than tab
// and the line breaks (\n \r \v \f U+0085, which the segmenter reads as newlines) replaced by a
// space, so nothing downstream sees broken text. Valid input keeps its length in UTF-16 units, so
// offsets into the result are offsets into the caller's string.
std::string sanitize_utf8(std::string_view text);

// True when `text` is valid UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool is_valid_utf8(std::string_view text);

// Maps byte offsets of a valid UTF-8 string to UTF-16 code-unit offsets (what JavaScript string
// indices are). The text is not kept: the table is built once, lookups are O(1). An offset inside a
// character maps to that character's start; an offset past the end maps to the UTF-16 length.
class Utf16Offsets {
 public:
  explicit Utf16Offsets(std::string_view utf8);
  size_t operator()(size_t byte_offset) const;

 private:
  std::vector<uint32_t> units_before_;  // [byte] -> UTF-16 units before the character holding it
};

// Decodes the code point that starts at byte `pos` (< text.size()) into `cp` and returns its length
// in bytes, always >= 1. An invalid sequence gives U+FFFD and the length of its maximal invalid
// prefix (the WHATWG / Unicode "maximal subpart" rule), so callers always make progress.
size_t decode_utf8(std::string_view text, size_t pos, char32_t& cp);

// Appends `cp` encoded as UTF-8 (surrogates and values past U+10FFFF become U+FFFD).
void append_utf8(std::string& out, char32_t cp);

// One decoded character and its length in bytes (decode_utf8 as a value).
struct Decoded {
  char32_t cp;
  size_t length;
};
inline Decoded decode_at(std::string_view text, size_t pos) {
  Decoded d;
  d.length = decode_utf8(text, pos, d.cp);
  return d;
}

// Character classes (approximate, see the top of this file).
bool is_control(char32_t cp);     // C0, DEL and C1
bool is_whitespace(char32_t cp);   // spaces, tabs, newlines, no-break and typographic spaces
bool is_newline(char32_t cp);      // \n \r \v \f U+0085 U+2028 U+2029
bool is_letter(char32_t cp);       // letters of cased and caseless scripts (not CJK ideographs)
bool is_digit(char32_t cp);        // decimal digits of several scripts
bool is_mark(char32_t cp);         // combining marks (accents, Hebrew/Arabic points, Indic signs)
bool is_upper(char32_t cp);        // upper-case / title-case letters of Latin, Greek, Cyrillic
bool has_case(char32_t cp);        // the letter belongs to a script with upper and lower case
bool is_cjk_ideograph(char32_t cp);
bool is_emoji(char32_t cp);        // pictographs that start an emoji (not modifiers, not ZWJ)

}  // namespace nmt
