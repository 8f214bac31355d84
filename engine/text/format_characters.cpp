// Invisible format characters inside words, hidden from the model; see format_characters.h.
#include "text/format_characters.h"

#include "text/utf8.h"

namespace nmt {
namespace {

bool is_word_character(char32_t cp) { return has_case(cp) || is_mark(cp) || (cp >= '0' && cp <= '9'); }

bool is_any_format_character(char32_t cp) {
  return is_dropped_format_character(cp) || is_format_character_inside_words(cp);
}

}  // namespace

bool is_dropped_format_character(char32_t cp) {
  return cp == 0x00AD || (cp >= 0x2060 && cp <= 0x2064) || cp == 0xFEFF;
}

bool is_format_character_inside_words(char32_t cp) {
  return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

std::string without_format_characters(std::string_view sentence) {
  std::string out(sentence);
  char32_t before = 0;  // the last character that is no format character
  for (size_t i = 0; i < sentence.size();) {
    const Decoded d = decode_at(sentence, i);
    if (!is_any_format_character(d.cp)) {
      before = d.cp;
      i += d.length;
      continue;
    }
    size_t end = i;  // a run of format characters, and the character after it
    while (end < sentence.size() && is_any_format_character(decode_at(sentence, end).cp)) end += decode_at(sentence, end).length;
    const char32_t after = end < sentence.size() ? decode_at(sentence, end).cp : 0;
    const bool inside_word = is_word_character(before) && is_word_character(after);
    for (size_t k = i; k < end;) {
      const Decoded f = decode_at(sentence, k);
      if (is_dropped_format_character(f.cp) || inside_word) out.replace(k, f.length, f.length, '\x01');
      k += f.length;
    }
    i = end;
  }
  return out;
}

}  // namespace nmt
