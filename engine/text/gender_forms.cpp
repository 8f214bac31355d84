// German gender-inclusive forms read as the feminine form (gender_forms.h).
#include "text/gender_forms.h"

#include "text/utf8.h"

namespace nmt {
namespace {

bool small_letter(std::string_view text, size_t end) {  // the letter before byte `end` is a small one
  if (end == 0) return false;
  size_t start = end - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  char32_t cp;
  decode_utf8(text, start, cp);
  return is_letter(cp) && !is_upper(cp);
}

// Whether the word that ends at byte `end` starts with a capital.
bool noun_before(std::string_view text, size_t end) {
  size_t start = end;
  while (start > 0) {
    size_t k = start - 1;
    while (k > 0 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80) --k;
    char32_t cp;
    decode_utf8(text, k, cp);
    if (!is_letter(cp) && cp != '-') break;
    start = k;
  }
  return start < end && is_upper(decode_at(text, start).cp);
}

// The length of "in" or "innen" at `at` when it ends the word there (no letter after it), else 0;
// with `article`, also a pronoun's or article's one-letter ending ("jede*r", "ein*e", "eine*n").
size_t ending_at(std::string_view text, size_t at, bool article) {
  for (std::string_view ending : {std::string_view("innen"), std::string_view("in"), std::string_view("r"),
                                  std::string_view("e"), std::string_view("n"), std::string_view("m"), std::string_view("s")}) {
    if (ending.size() == 1 && !article) continue;
    if (text.compare(at, ending.size(), ending) != 0) continue;
    const size_t after = at + ending.size();
    if (after < text.size() && is_letter(decode_at(text, after).cp)) continue;
    return ending.size();
  }
  return 0;
}

}  // namespace

std::string read_gender_forms(std::string_view text, const std::vector<std::pair<size_t, size_t>>& skip) {
  std::string out(text);
  size_t next_skip = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    while (next_skip < skip.size() && skip[next_skip].second < i) ++next_skip;
    if (next_skip < skip.size() && skip[next_skip].first < i && i <= skip[next_skip].second) continue;  // "city_surplus:in"
    if ((c == '*' || c == '_' || c == ':' || c == '/') && small_letter(text, i)) {
      size_t sign = 1;
      if (c == '/' && i + 1 < text.size() && text[i + 1] == '-') sign = 2;  // "Lehrer/-innen"
      const size_t ending = ending_at(text, i + sign, c != '/');
      // "in" and "innen" end a noun, which German writes with a capital ("?citysurplus:in" is none)
      if (ending > 1 && !noun_before(text, i)) continue;
      if (ending > 0)
        for (size_t k = i; k < i + sign; ++k) out[k] = '\x01';
    } else if (c == 'I' && small_letter(text, i) && text.compare(i, 5, "Innen") == 0 &&
               (i + 5 == text.size() || !is_letter(decode_at(text, i + 5).cp))) {
      out[i] = 'i';  // "KundInnen"
    }
  }
  return out;
}

}  // namespace nmt
