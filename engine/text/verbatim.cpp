// Finding web and e-mail addresses (verbatim.h).
#include "text/verbatim.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "text/utf8.h"

namespace nmt {
namespace {

bool ascii_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool ascii_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

bool starts_with_nocase(std::string_view text, size_t at, std::string_view prefix) {
  if (text.size() - at < prefix.size()) return false;
  for (size_t k = 0; k < prefix.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(text[at + k])) != prefix[k]) return false;
  return true;
}

// Whether an address may start at `at`: the start of the text, or after whitespace or an opening
// bracket or quote.
bool at_word_start(std::string_view text, size_t at) {
  if (at == 0) return true;
  const char c = text[at - 1];
  if (std::strchr(" \t\n\r\f\v(<[{\"'", c)) return true;
  size_t start = at - 1;  // a non-ASCII character before: whitespace or an opening quote
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  char32_t cp;
  decode_utf8(text, start, cp);
  return is_whitespace(cp) || cp == U'«' || cp == U'»' || cp == U'„' || cp == U'“' || cp == U'‘' || cp == U'‚';
}

// `end` moved back over punctuation that ends the sentence around the address (closing quotes
// included), and over closing brackets the address did not open.
size_t trim_end(std::string_view text, size_t begin, size_t end) {
  const char* closing = ")]}>";
  const char* opening = "([{<";
  long balance[4] = {0, 0, 0, 0};  // opened minus closed, per kind of bracket (counted once: linear time)
  for (size_t k = begin; k < end; ++k)
    for (int b = 0; b < 4; ++b) balance[b] += (text[k] == opening[b]) - (text[k] == closing[b]);
  while (end > begin) {
    const char c = text[end - 1];
    if (static_cast<unsigned char>(c) >= 0x80) {  // a closing quote or an ellipsis after the address
      size_t start = end - 1;
      while (start > begin && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
      char32_t cp;
      decode_utf8(text, start, cp);
      if (cp == U'“' || cp == U'”' || cp == U'«' || cp == U'»' || cp == U'‘' || cp == U'’' || cp == U'…') {
        end = start;
        continue;
      }
      break;
    }
    if (std::strchr(".,;:!?'\"", c)) {
      --end;
      continue;
    }
    const char* k = c != '\0' ? std::strchr(closing, c) : nullptr;
    if (k && balance[k - closing] < 0) {  // more closed than opened: not the address's
      ++balance[k - closing];
      --end;
      continue;
    }
    break;
  }
  return end;
}

void find_web_addresses(std::string_view text, std::vector<std::pair<size_t, size_t>>& out) {
  static constexpr std::string_view kStarts[] = {"https://", "http://", "ftp://", "www."};
  for (size_t i = 0; i < text.size(); ++i) {
    if (!at_word_start(text, i)) continue;
    size_t prefix = 0;
    for (std::string_view s : kStarts)
      if (starts_with_nocase(text, i, s)) prefix = s.size();
    if (!prefix) continue;
    size_t end = i;
    while (end < text.size()) {
      const Decoded d = decode_at(text, end);
      if (is_whitespace(d.cp) || is_control(d.cp)) break;
      end += d.length;
    }
    end = trim_end(text, i, end);
    if (end > i + prefix && ascii_alnum(text[i + prefix])) {
      out.emplace_back(i, end);
      i = end;
    }
  }
}

bool local_char(char c) { return ascii_alnum(c) || std::strchr("._%+-", c); }
bool domain_char(char c) { return ascii_alnum(c) || c == '.' || c == '-'; }

void find_email_addresses(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken,
                          std::vector<std::pair<size_t, size_t>>& out) {
  size_t after_last = 0;  // addresses do not overlap
  for (size_t at = text.find('@'); at != std::string_view::npos; at = text.find('@', at + 1)) {
    size_t b = at, e = at + 1;
    while (b > after_last && local_char(text[b - 1])) --b;
    while (b < at && text[b] == '.') ++b;
    while (e < text.size() && domain_char(text[e])) ++e;
    while (e > at + 1 && (text[e - 1] == '.' || text[e - 1] == '-')) --e;
    if (b == at || e == at + 1) continue;
    const std::string_view domain = text.substr(at + 1, e - at - 1);
    const size_t dot = domain.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || domain.size() - dot - 1 < 2) continue;
    if (!std::all_of(domain.begin() + long(dot) + 1, domain.end(), ascii_alpha)) continue;
    const bool inside_url = std::any_of(taken.begin(), taken.end(), [&](auto s) { return at >= s.first && at < s.second; });
    if (inside_url) continue;
    out.emplace_back(b, e);
    after_last = e;
  }
}

}  // namespace

std::vector<std::pair<size_t, size_t>> verbatim_spans(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> spans;
  find_web_addresses(text, spans);
  std::vector<std::pair<size_t, size_t>> emails;
  find_email_addresses(text, spans, emails);
  spans.insert(spans.end(), emails.begin(), emails.end());
  std::sort(spans.begin(), spans.end());
  return spans;
}

std::string mask_spans(std::string_view text, const std::vector<std::pair<size_t, size_t>>& spans) {
  std::string out(text);
  for (auto [b, e] : spans) {
    if (e > out.size() || e < b + 2) continue;
    // 3-byte U+E000, with one or two 2-byte U+07FF where the length is not a multiple of 3
    size_t at = b, left = e - b;
    for (; left % 3 != 0; left -= 2, at += 2) out.replace(at, 2, "\xDF\xBF");
    for (; left > 0; left -= 3, at += 3) out.replace(at, 3, "\xEE\x80\x80");
  }
  return out;
}

}  // namespace nmt
