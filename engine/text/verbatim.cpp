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

// Code between backticks, as Markdown and chat write it: "`npm install`", "``a`b``". The opening
// run of backticks is not inside a word, the closing run is as long, on the same line, not followed
// by a letter or digit, and the code neither starts nor ends with a space. (Manual pages quote
// `like this' with an apostrophe: no closing backtick, so none of that is taken.)
void find_code_spans(std::string_view text, std::vector<std::pair<size_t, size_t>>& out) {
  size_t i = 0;
  while ((i = text.find('`', i)) != std::string_view::npos) {
    size_t open_end = i;
    while (open_end < text.size() && text[open_end] == '`') ++open_end;
    const size_t ticks = open_end - i;
    if (i > 0 && ascii_alnum(text[i - 1])) {
      i = open_end;
      continue;
    }
    size_t close = std::string_view::npos;
    for (size_t j = open_end; j < text.size() && text[j] != '\n';) {
      if (text[j] != '`') {
        ++j;
        continue;
      }
      size_t run_end = j;
      while (run_end < text.size() && text[run_end] == '`') ++run_end;
      if (run_end - j == ticks) {
        close = j;
        break;
      }
      j = run_end;
    }
    const size_t end = close == std::string_view::npos ? close : close + ticks;
    if (close == std::string_view::npos || close == open_end || text[open_end] == ' ' || text[close - 1] == ' ' ||
        (end < text.size() && ascii_alnum(text[end]))) {
      i = open_end;
      continue;
    }
    out.emplace_back(i, end);
    i = end;
  }
}

// Runs of more than kLongRun characters without whitespace that no address holds.
void find_long_runs(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken,
                    std::vector<std::pair<size_t, size_t>>& out) {
  size_t i = 0;
  while (i < text.size()) {
    Decoded d = decode_at(text, i);
    if (is_whitespace(d.cp) || is_control(d.cp)) {
      i += d.length;
      continue;
    }
    const size_t begin = i;
    size_t characters = 0;
    while (i < text.size()) {
      d = decode_at(text, i);
      if (is_whitespace(d.cp) || is_control(d.cp)) break;
      i += d.length;
      ++characters;
    }
    if (characters <= kLongRun) continue;
    size_t start = begin;  // an opening bracket or quote before it is the sentence's
    while (start < i) {
      const Decoded c = decode_at(text, start);
      if (c.cp >= 0x80 ? !(c.cp == U'«' || c.cp == U'»' || c.cp == U'„' || c.cp == U'“' || c.cp == U'‘' || c.cp == U'‚')
                       : !std::strchr("(<[{\"'", char(c.cp)))
        break;
      start += c.length;
    }
    const size_t end = trim_end(text, start, i);
    const bool overlaps = std::any_of(taken.begin(), taken.end(), [&](auto s) { return s.first < end && begin < s.second; });
    if (!overlaps && end > start) out.emplace_back(start, end);
  }
}

}  // namespace

std::vector<std::pair<size_t, size_t>> verbatim_spans(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> spans;
  find_web_addresses(text, spans);
  std::vector<std::pair<size_t, size_t>> emails;
  find_email_addresses(text, spans, emails);
  spans.insert(spans.end(), emails.begin(), emails.end());
  std::vector<std::pair<size_t, size_t>> runs;
  std::vector<std::pair<size_t, size_t>> code;
  find_code_spans(text, code);
  for (auto c : code)  // an address inside code is part of the code
    if (std::none_of(spans.begin(), spans.end(), [&](auto s) { return s.first < c.first && c.first < s.second; })) {
      spans.erase(std::remove_if(spans.begin(), spans.end(), [&](auto s) { return c.first <= s.first && s.first < c.second; }),
                  spans.end());
      spans.push_back(c);
    }
  find_long_runs(text, spans, runs);
  spans.insert(spans.end(), runs.begin(), runs.end());
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
