// Finding web and e-mail addresses, code and identifiers (verbatim.h).
#include "text/verbatim.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "text/utf8.h"

namespace nmt {
namespace {

// Which of a set of spans overlaps a range, in log time (a sentence can hold thousands of spans):
// the spans by start, each with the furthest end of those up to it.
class SpanIndex {
 public:
  explicit SpanIndex(std::vector<std::pair<size_t, size_t>> spans) {
    std::sort(spans.begin(), spans.end());
    size_t furthest = 0;
    for (auto [b, e] : spans) {
      starts_.push_back(b);
      furthest_ends_.push_back(furthest = std::max(furthest, e));
    }
  }
  // Whether a span s has s.first < end and begin < s.second.
  bool overlaps(size_t begin, size_t end) const {
    const size_t before = size_t(std::lower_bound(starts_.begin(), starts_.end(), end) - starts_.begin());
    return before > 0 && furthest_ends_[before - 1] > begin;
  }

 private:
  std::vector<size_t> starts_, furthest_ends_;
};

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
  const SpanIndex urls(taken);
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
    if (urls.overlaps(at, at + 1)) continue;  // inside a web address
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
  const SpanIndex index(taken);
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
    if (!index.overlaps(begin, end) && end > start) out.emplace_back(start, end);
  }
}

// Hashtags and mentions ("#travel", "@anna"): at a word's start, "#" or "@" and a letter, then
// letters, digits and "_" (a mention also "." inside). The model translated them ("#berlin" ->
// "#Netz") or capitalized them ("@Anna"). Not "#1" nor "C#" nor an e-mail address (`taken`).
void find_handles(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken,  // sorted
                  std::vector<std::pair<size_t, size_t>>& out) {
  // a hashtag's letters may be any script's ("#München", "#café": the model wrote "#Münich")
  const auto letter_at = [&](size_t at, bool hashtag) -> size_t {
    if (ascii_alnum(text[at]) || text[at] == '_') return 1;
    if (!hashtag || static_cast<unsigned char>(text[at]) < 0x80) return 0;
    const Decoded d = decode_at(text, at);
    return is_letter(d.cp) || is_mark(d.cp) ? d.length : 0;
  };
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if ((text[i] != '#' && text[i] != '@') || !at_word_start(text, i)) continue;
    const bool hashtag = text[i] == '#';
    if (!ascii_alpha(text[i + 1]) && !(hashtag && letter_at(i + 1, true) > 1)) continue;
    size_t end = i + 1;
    for (size_t length; end < text.size(); end += length) {
      length = letter_at(end, hashtag);
      if (length == 0 && !hashtag && text[end] == '.' && end + 1 < text.size() && ascii_alnum(text[end + 1])) length = 1;
      if (length == 0) break;
    }
    if (text[i] == '#' && end < text.size() && text[end] == '#') ++end;  // an anonymized name: "#PRS_ORG#"
    // `taken` is sorted and its spans do not overlap: only the last one starting before `end` can
    auto after = std::lower_bound(taken.begin(), taken.end(), std::make_pair(end, size_t(0)));
    if (after == taken.begin() || std::prev(after)->second <= i) out.emplace_back(i, end);
    i = end;
  }
}

// --- Emoticons ---------------------------------------------------------------------------------
// ":-)", ";)", ":D", "=(", ":'(", ":)))", "<3", "^_^", "xD" standing alone: the models read them as
// punctuation and letters and wrote what was left ("Tolle Nachrichten :-) wir" -> "Great news :-
// we", ":D" -> ":", ";)" -> ";"). Eyes, a nose and a mouth (repeated: ":)))"), or one of the few
// other forms, between whitespace (or the text's edges), a final . , ! or ? allowed after it.
size_t emoticon_length(std::string_view text, size_t i) {
  static constexpr std::string_view kOthers[] = {"<3", "</3", "^_^", "^^", "xD", "XD", "-_-", "T_T", "o_O", "O_o"};
  size_t end = 0;
  for (const std::string_view other : kOthers)
    if (text.compare(i, other.size(), other) == 0) end = std::max(end, i + other.size());
  if (end == 0 && i < text.size() && std::strchr(":;=", text[i]) && text[i] != '\0') {
    size_t k = i + 1;
    if (k < text.size() && std::strchr("-'^o", text[k]) && text[k] != '\0' && text[i] != '=') ++k;  // a nose, a tear
    const char mouth = k < text.size() ? text[k] : '\0';
    const bool round = mouth == ')' || mouth == '(';
    if (mouth != '\0' && std::strchr(round ? "()" : (text[i] == '=' ? "DPp" : "DPpOo3|/*]["), mouth)) {
      ++k;
      while (round && k < text.size() && text[k] == mouth) ++k;  // ":)))"
      end = k;
    }
  }
  if (end == 0) return 0;
  size_t after = end;
  if (after < text.size() && std::strchr(".,!?", text[after]) && text[after] != '\0') ++after;
  const bool alone = after >= text.size() || std::strchr(" \t\n\r\f\v", text[after]);
  return alone && text[after - 1] != '\0' ? end - i : 0;
}

void find_emoticons(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken,  // sorted
                    std::vector<std::pair<size_t, size_t>>& out) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && !std::strchr(" \t\n\r\f\v", text[i - 1])) continue;
    const size_t length = emoticon_length(text, i);
    if (length == 0) continue;
    auto after = std::lower_bound(taken.begin(), taken.end(), std::make_pair(i + length, size_t(0)));
    if (after == taken.begin() || std::prev(after)->second <= i) out.emplace_back(i, i + length);
    i += length - 1;
  }
}

// --- Letters in a style of their own: fullwidth and mathematical ------------------------------
// "ＡＢＣ", "１２３" (fullwidth forms) and "𝒳", "𝐁𝐨𝐥𝐝" (mathematical alphanumerics, used as bold or
// italic in plain text) are folded to plain letters by the tokenizer's NFKC normalization, so the
// model read "ABC" and wrote "ABC": the writer's choice of form was lost. Such a run is copied. So
// are superscripts and subscripts, fractions and the signs folded to letters, where the folding
// changes what is said: "mc²" came out "mc2", "½ cup" "1 2 cup", "H₂O" "H2O", "brand™" "MarkeTM".
bool styled_letter(char32_t cp) {
  return (cp >= 0xFF10 && cp <= 0xFF19) || (cp >= 0xFF21 && cp <= 0xFF3A) || (cp >= 0xFF41 && cp <= 0xFF5A) ||
         (cp >= 0x1D400 && cp <= 0x1D7FF) ||
         cp == 0xB2 || cp == 0xB3 || cp == 0xB9 || (cp >= 0x2070 && cp <= 0x209C) ||  // ² ³ ¹ ⁰-ₜ
         (cp >= 0xBC && cp <= 0xBE) || (cp >= 0x2150 && cp <= 0x215F) || cp == 0x2189 ||  // ¼ ½ ¾ ⅓ ...
         cp == 0x2122 || cp == 0x2120 || cp == 0x2116;  // ™ ℠ №
}

void find_styled_letters(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken,  // sorted
                         std::vector<std::pair<size_t, size_t>>& out) {
  for (size_t i = 0; i < text.size();) {
    Decoded d = decode_at(text, i);
    if (!styled_letter(d.cp)) {
      i += d.length;
      continue;
    }
    const size_t begin = i;
    while (i < text.size() && styled_letter((d = decode_at(text, i)).cp)) i += d.length;
    auto after = std::lower_bound(taken.begin(), taken.end(), std::make_pair(i, size_t(0)));
    if (after == taken.begin() || std::prev(after)->second <= begin) out.emplace_back(begin, i);
  }
}

// --- Identifiers: names from code, file names, paths --------------------------------------------
// A run of characters that can make up an identifier: ASCII letters and digits, non-ASCII letters
// (German file names), and _ $ # . / \ : ~ -. Split at hyphens below, so a compound around a
// name stays the model's ("VimRC-Dateien").
bool identifier_char(std::string_view text, size_t at, size_t& length) {
  const Decoded d = decode_at(text, at);
  length = d.length;
  if (d.cp < 0x80) return ascii_alnum(char(d.cp)) || std::strchr("_$#./\\:~-", char(d.cp));
  return is_letter(d.cp) || is_mark(d.cp);
}

bool ascii_lower(char c) { return c >= 'a' && c <= 'z'; }
bool ascii_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool name_char(char c) { return ascii_alnum(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }

// Whether `part` (no whitespace, no hyphen unless it is a path) reads as code rather than a word:
//   snake_case or SCREAMING_CASE ("max_connections", "NODE_ENV"), but not a German gender gap
//     ("Lehrer_innen");
//   a dotted name whose part after a dot starts in lower case and has 2+ characters ("package.json",
//     "child_process.fork", "example.com"), with 2+ name characters before that dot (not "z.B.",
//     "e.g", nor a stray "hatte.x" at a sentence's end), not starting with a capital: the models copy
//     names such as "Node.js" and "Amazon.com", and read them better as names (in news, masked
//     outlets' names were put in odd places: "Laut Spanien ... zu den Kiwi.com führenden Ländern");
//   lowerCamelCase with 2+ lower-case letters first ("getElementById", "maxRetries"; not "iPhone",
//     "eBay", "kWh", which the models know as names);
//   a name with "::" ("Acquire::http::SendAccept", "std::vector");
//   an environment variable ("$HOME") or a Python name such as "__init__" (not Markdown's bold);
//   a path ("/etc/apt/sources.list", "~/.config/app", "./run.sh", "C:\Users"), a hidden file or
//     folder (".bashrc", ".venv/bin/activate");
//   a commit's hash: 7 to 40 lower-case hexadecimal digits, letters and digits both ("a1b2c3d").
bool reads_as_code(std::string_view part) {
  const size_t n = part.size();
  bool letter = false;
  for (char c : part) letter |= ascii_alpha(c) || static_cast<unsigned char>(c) >= 0x80;
  if (!letter) return false;
  // a path
  if (n >= 3 && (part[0] == '/' || part.substr(0, 2) == "~/" || part.substr(0, 2) == "./" || part.substr(0, 3) == "../") &&
      std::count(part.begin(), part.end(), '/') >= 2)
    return true;
  if (n >= 3 && part.substr(0, 2) == "~/" && (name_char(part[2]) || part[2] == '.')) return true;  // "~/.toolrc", "~/Downloads"
  if (n >= 4 && ascii_alpha(part[0]) && part[1] == ':' && part[2] == '\\' && name_char(part[3])) return true;
  // a hidden file or folder: ".venv", ".bashrc", ".venv/bin/activate" (not ".NET", nor "-Dateien" after one)
  if (n >= 3 && part[0] == '.' && ascii_lower(part[1]) &&
      std::all_of(part.begin() + 1, part.end(), [](char c) { return ascii_lower(c) || std::isdigit(static_cast<unsigned char>(c)) || (c && std::strchr("_./", c)); }))
    return true;
  // a commit's hash: 7 to 40 hexadecimal digits in lower case, with both letters and digits ("a1b2c3d")
  if (n >= 7 && n <= 40 && std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f'); }) &&
      std::any_of(part.begin(), part.end(), ascii_alpha) && std::count_if(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) >= 2)
    return true;
  if (part[0] == '$' && n >= 3 && (ascii_alpha(part[1]) || part[1] == '_')) return true;
  if (n >= 5 && part.substr(0, 2) == "__" && part.substr(n - 2) == "__" && ascii_alpha(part[2]) &&
      std::all_of(part.begin(), part.end(), [](char c) { return ascii_alnum(c) || c == '_'; }))
    return true;  // "__init__"
  for (size_t k = 1; k + 1 < n; ++k) {
    const char c = part[k];
    if (c == '_' && ascii_alnum(part[k - 1]) && ascii_alnum(part[k + 1])) {
      const size_t last = part.rfind('_');
      std::string_view tail = part.substr(last + 1);
      while (!tail.empty() && !ascii_alnum(tail.back())) tail.remove_suffix(1);
      if (tail == "innen" || tail == "in" || tail == "Innen" || tail == "In") return false;  // "Lehrer_innen"
      return true;
    }
    if (c == '.' && k >= 2 && !ascii_upper(part[0]) && name_char(part[k - 1]) && name_char(part[k - 2]) && (ascii_lower(part[k + 1]) || part[k + 1] == '_')) {
      size_t e = k + 1;
      while (e < n && name_char(part[e])) ++e;
      const bool in_folder = part.find('/') < k;  // "src/prog.c": a one-letter ending is a file's too
      if (e - (k + 1) >= 2 || in_folder) return true;
    }
    if (c == ':' && part[k + 1] == ':' && ascii_alnum(part[k - 1]) && k + 2 < n && ascii_alpha(part[k + 2])) return true;
  }
  // a name that ends in a number: 3+ letters, then digits to the end ("Check24", "Windows11",
  // "Sonnenblume2024"; not "MP3", "G7", "H2O", which the models know)
  size_t letters = 0, letter_count = 0;
  for (Decoded d; letters < n && is_letter((d = decode_at(part, letters)).cp); letters += d.length) ++letter_count;
  if (letter_count >= 3 && letters < n &&
      std::all_of(part.begin() + long(letters), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return true;
  size_t lower = 0;
  while (lower < n && ascii_lower(part[lower])) ++lower;
  if (lower >= 2)
    for (size_t k = lower; k < n; ++k)
      if (ascii_upper(part[k]) && ascii_lower(part[k - 1])) {
        const std::string_view rest = part.substr(k);
        return !(rest == "In" || rest == "Innen");  // "bürgerInnen"
      }
  return false;
}

// Identifiers that no span of `taken` (sorted, not overlapping) holds: each whitespace-free run of identifier characters, cut at
// hyphens unless it is a path, trimmed of the punctuation after it; a run of hyphen-joined parts
// that read as code is one span ("my-app.js" stays whole only where "app.js" is: "my-" is left to
// the model, and the copied name joins it).
void find_identifiers(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken,
                      std::vector<std::pair<size_t, size_t>>& out) {
  size_t i = 0, length = 0;
  while (i < text.size()) {
    if (!identifier_char(text, i, length)) {
      i += length;
      continue;
    }
    const size_t begin = i;
    while (i < text.size() && identifier_char(text, i, length)) i += length;
    size_t end = i;
    while (end > begin && std::strchr(".,:;-", text[end - 1])) --end;  // the sentence's punctuation
    const std::string_view run = text.substr(begin, end - begin);
    if (run.empty()) continue;
    // `taken` is sorted and its spans do not overlap: only the last one starting before `end` can
    auto after = std::lower_bound(taken.begin(), taken.end(), std::make_pair(end, size_t(0)));
    if (after != taken.begin() && std::prev(after)->second > begin) continue;
    // (a dot after a bracket or a word's end is a file name's ending: "(final).docx")
    const bool dot_first = run[0] == '.' && at_word_start(text, begin);
    const bool path = run[0] == '/' || run[0] == '~' || dot_first || (run.size() > 2 && run[1] == ':');
    if (path && reads_as_code(run)) {
      // a Windows path goes on after a space where a folder name with one does ("C:\Program
      // Files\App\app.exe": the part after the space holds a "\" before its next space)
      while (run.size() > 2 && run[1] == ':' && run[2] == '\\' && end < text.size() && text[end] == ' ') {
        size_t next = end + 1;
        while (next < text.size() && identifier_char(text, next, length) && text[next] != '\\') next += length;
        if (next >= text.size() || text[next] != '\\' || next == end + 1) break;
        while (next < text.size() && identifier_char(text, next, length)) next += length;
        while (next > end && std::strchr(".,:;-", text[next - 1])) --next;
        end = i = next;
      }
      out.emplace_back(begin, end);
      continue;
    }
    const size_t first = out.size();
    for (size_t p = begin; p < end;) {
      size_t q = p;
      while (q < end && text[q] != '-') ++q;
      size_t b = p, e = q;
      while ((p > begin || !dot_first) && b < e && text[b] == '.') ++b;  // ".json" after a hyphen reads as a word's end
      // Markdown's italics around a name ("_packageURL_") are the emphasis' (text/emphasis.h), not
      // the name's; "__init__" stays a name
      size_t lead = 0, trail = 0;
      while (lead < 3 && b + lead < e && text[b + lead] == '_') ++lead;
      while (trail < 3 && e - trail > b + lead && text[e - trail - 1] == '_') ++trail;
      const auto python_name = [&] {  // "__init__", "__main__"
        if (lead != 2 || e - b <= 4 || !ascii_lower(text[b + 2])) return false;
        for (size_t k = b + 2; k < e - 2; ++k)
          if (!(ascii_lower(text[k]) || std::isdigit(static_cast<unsigned char>(text[k])) || text[k] == '_')) return false;
        return true;
      };
      if (lead > 0 && lead == trail && e - b > 2 * lead && !python_name()) b += lead, e -= trail;
      if (e > b && reads_as_code(text.substr(b, e - b))) {
        // a file name's parts before it in lower case go with it ("package-lock.json"), a German
        // compound's after it do not ("diff.gz-Datei")
        while (b > begin && text[b - 1] == '-' && b >= begin + 2) {
          size_t a = b - 1;
          while (a > begin && (ascii_lower(text[a - 1]) || std::isdigit(static_cast<unsigned char>(text[a - 1])))) --a;
          if (a == b - 1 || (a > begin && text[a - 1] != '-')) break;
          b = a;
        }
        // "a_b-c_d": one; and the parts taken back above may reach into the name before it
        // ("ext000-005000-www00012"): one span, never two that overlap
        if (out.size() > first && out.back().second + 1 >= b) b = std::min(b, out.back().first), out.pop_back();
        out.emplace_back(b, e);
      }
      p = q + 1;
    }
  }
}

// Codes of three or more digit groups joined by hyphens ("978-3-96-449970-4", "555-371-2323",
// "2023-10-03"; an ISBN's last group may be an X) that no span of `taken` holds: the models dropped
// or moved their hyphens ("978-396-449970-4"). Two groups are left to the number passes: a range or
// a score ("3-5", "1-0").
void find_digit_codes(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken,
                      std::vector<std::pair<size_t, size_t>>& out) {
  const auto digit = [&](size_t k) { return k < text.size() && std::isdigit(static_cast<unsigned char>(text[k])); };
  const SpanIndex index(taken);
  for (size_t i = 0; i < text.size(); ++i) {
    if (!digit(i) || (i > 0 && (ascii_alnum(text[i - 1]) || std::strchr("-./_", text[i - 1])))) continue;
    size_t end = i, groups = 0;
    while (digit(end)) {
      while (digit(end)) ++end;
      ++groups;
      if (end + 1 < text.size() && text[end] == '-' && (digit(end + 1) || ((text[end + 1] == 'X') && groups >= 2))) {
        if (text[end + 1] == 'X') {
          end += 2;
          ++groups;
          break;
        }
        ++end;
      } else {
        break;
      }
    }
    // (inside a longer name: "report_2024-03-12_v1.pdf" is one, copied whole as a name from code)
    const bool joined = end < text.size() && (ascii_alnum(text[end]) || std::strchr("-/_", text[end]));
    if (groups >= 3 && !joined && !index.overlaps(i, end)) out.emplace_back(i, end);
    i = end;
  }
}

// variant_codes (verbatim.h).
void find_variant_codes(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken,
                        std::vector<std::pair<size_t, size_t>>& out) {
  const auto capital = [&](size_t k) { return k < text.size() && text[k] >= 'A' && text[k] <= 'Z'; };
  const SpanIndex index(taken);
  for (size_t i = 0; i < text.size(); ++i) {
    if (!capital(i) || (i > 0 && (ascii_alnum(text[i - 1]) || std::strchr("-./_@#", text[i - 1])))) continue;
    size_t e = i;
    while (capital(e)) ++e;
    const size_t end = e + 2;
    const bool variant = e - i >= 2 && e < text.size() && text[e] == '-' && capital(e + 1) &&
                         (end == text.size() || !(ascii_alnum(text[end]) || text[end] == '_'));
    if (variant && !index.overlaps(i, end)) out.emplace_back(i, end);
    i = variant ? end : e;
  }
}

}  // namespace

std::vector<std::pair<size_t, size_t>> variant_codes(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken) {
  std::vector<std::pair<size_t, size_t>> codes;
  find_variant_codes(text, taken, codes);
  return codes;
}

std::vector<std::pair<size_t, size_t>> verbatim_spans(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> spans;
  find_web_addresses(text, spans);
  std::vector<std::pair<size_t, size_t>> emails;
  find_email_addresses(text, spans, emails);
  spans.insert(spans.end(), emails.begin(), emails.end());
  std::vector<std::pair<size_t, size_t>> runs;
  std::vector<std::pair<size_t, size_t>> code;
  find_code_spans(text, code);  // (in order, none overlapping)
  // An address inside code is part of the code; code that starts inside an address is not code. In one
  // pass over both in order: the addresses that start before a code span, less those inside code before it.
  std::sort(spans.begin(), spans.end());
  std::vector<bool> in_code(spans.size(), false);
  std::vector<std::pair<size_t, size_t>> kept;
  size_t next = 0, furthest_end = 0;  // of the addresses before the code span, not inside code
  for (auto c : code) {
    for (; next < spans.size() && spans[next].first < c.first; ++next)
      if (!in_code[next]) furthest_end = std::max(furthest_end, spans[next].second);
    if (furthest_end > c.first) continue;  // starts inside an address
    for (size_t k = next; k < spans.size() && spans[k].first < c.second; ++k) in_code[k] = true;
    kept.push_back(c);
  }
  for (size_t k = 0; k < spans.size(); ++k)
    if (!in_code[k]) kept.push_back(spans[k]);
  spans = std::move(kept);
  find_long_runs(text, spans, runs);
  spans.insert(spans.end(), runs.begin(), runs.end());
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<size_t, size_t>> handles;
  find_handles(text, spans, handles);
  spans.insert(spans.end(), handles.begin(), handles.end());
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<size_t, size_t>> emoticons;
  find_emoticons(text, spans, emoticons);
  spans.insert(spans.end(), emoticons.begin(), emoticons.end());
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<size_t, size_t>> styled;
  find_styled_letters(text, spans, styled);
  spans.insert(spans.end(), styled.begin(), styled.end());
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<size_t, size_t>> codes;
  find_digit_codes(text, spans, codes);
  spans.insert(spans.end(), codes.begin(), codes.end());
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<size_t, size_t>> identifiers;
  find_identifiers(text, spans, identifiers);
  spans.insert(spans.end(), identifiers.begin(), identifiers.end());
  std::sort(spans.begin(), spans.end());
  return spans;
}

size_t emoticon_at(std::string_view text, size_t i) {
  return i < text.size() && (i == 0 || std::strchr(" \t\n\r\f\v", text[i - 1])) ? emoticon_length(text, i) : 0;
}

std::vector<std::pair<size_t, size_t>> fenced_code_blocks(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> blocks;
  std::string_view fence;  // the open block's fence ("```" or "~~~"); empty outside a block
  size_t open_at = 0;
  for (size_t line = 0; line < text.size();) {
    size_t end = text.find('\n', line);
    end = end == std::string_view::npos ? text.size() : end + 1;
    size_t k = line;
    while (k < end && k - line < 3 && text[k] == ' ') ++k;
    const std::string_view rest = text.substr(k, end - k);
    const std::string_view starts = rest.substr(0, 3);
    if (fence.empty() && (starts == "```" || starts == "~~~")) {
      fence = starts;
      open_at = line;
    } else if (!fence.empty() && starts == fence) {
      blocks.emplace_back(open_at, end);
      fence = {};
    }
    line = end;
  }
  return blocks;
}

namespace {

struct Line {
  size_t begin, end;  // the line without its line break ("\r" included)
  size_t indent;      // columns of spaces and tabs before its first character
  size_t text;        // where its first character is (end: a blank line)
};

std::vector<Line> lines_of(std::string_view text) {
  std::vector<Line> lines;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    size_t k = at, columns = 0;
    for (; k < end && (text[k] == ' ' || text[k] == '\t'); ++k) columns = text[k] == '\t' ? columns / 4 * 4 + 4 : columns + 1;
    const bool blank = k == end || (text[k] == '\r' && k + 1 == end);
    lines.push_back({at, end, columns, blank ? end : k});
    at = end + 1;
  }
  return lines;
}

// The column where a list item's text starts when `line` starts one ("- ", "* ", "+ ", "1. ",
// "1) " after at most three spaces), else 0.
size_t list_item_text(std::string_view text, const Line& line) {
  if (line.text == line.end || line.indent > 3) return 0;
  size_t k = line.text;
  if (std::strchr("-*+", text[k]) && text[k] != '\0') {
    ++k;
  } else {
    while (k < line.end && k - line.text < 9 && text[k] >= '0' && text[k] <= '9') ++k;
    if (k == line.text || k >= line.end || (text[k] != '.' && text[k] != ')')) return 0;
    ++k;
  }
  if (k < line.end && text[k] != ' ' && text[k] != '\t') return 0;
  size_t spaces = 0;
  while (k < line.end && text[k] == ' ' && spaces < 4) ++k, ++spaces;
  return line.indent + (k - line.text);
}

// A line of code: symbols that prose seldom writes.
bool shows_code(std::string_view line) {
  static constexpr std::string_view kInside[] = {"()", "{}", "[]", "=>", "->", "::", "==", "!=", "&&", "||", " = ", "+=",
                                                 "</", "/>"};
  static constexpr std::string_view kFirst[] = {"$ ", "# ", "#!", "#include", "//", "/*", ">>> "};
  for (const std::string_view s : kInside)
    if (line.find(s) != std::string_view::npos) return true;
  for (const std::string_view s : kFirst)
    if (line.substr(0, s.size()) == s) return true;
  const char last = line.back();
  if (last == ';' || last == '{' || last == '}' || last == '\\' || last == '(' || (line.size() >= 2 && line.substr(line.size() - 2) == "):"))
    return true;
  for (size_t k = 1; k < line.size(); ++k) {
    if (line[k] == '(' && (ascii_alnum(line[k - 1]) || line[k - 1] == '_')) {  // "print(", "f(x)"; not "Kolleg(inn)en"
      const size_t close = line.find(')', k);
      if (close == std::string_view::npos || close + 1 == line.size() || !ascii_alpha(line[close + 1])) return true;
    }
    if (line[k] == '-' && line[k - 1] == ' ' && k + 1 < line.size() && (ascii_alpha(line[k + 1]) || line[k + 1] == '-'))
      return true;  // "-v", "--save-dev"
  }
  return false;
}

bool is_small(char32_t cp) { return is_letter(cp) && has_case(cp) && !is_upper(cp); }

enum class LineKind { code, prose, other };

// A line of prose starts with a capital and a small letter (after an opening quote) or ends as a
// sentence does; one that does both is prose whatever symbols it holds. Else a line that
// shows_code is code.
LineKind line_kind(std::string_view line) {
  size_t k = 0;
  while (k < line.size() && std::strchr("\"'(", line[k]) && line[k] != '\0') ++k;
  bool capital = false;
  if (k < line.size()) {
    const Decoded first = decode_at(line, k);
    capital = is_upper(first.cp) && k + first.length < line.size() && is_small(decode_at(line, k + first.length).cp);
  }
  size_t end = line.size();
  while (end > 0 && std::strchr("\"')", line[end - 1]) && line[end - 1] != '\0') --end;
  const bool sentence_end =
      (end > 0 && std::strchr(".!?", line[end - 1]) && line[end - 1] != '\0') || (end >= 3 && line.substr(end - 3, 3) == "\u2026");
  if (capital && sentence_end) return LineKind::prose;
  if (shows_code(line)) return LineKind::code;
  return capital || sentence_end ? LineKind::prose : LineKind::other;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> indented_code_blocks(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> blocks;
  const std::vector<Line> lines = lines_of(text);
  const std::vector<std::pair<size_t, size_t>> fenced = fenced_code_blocks(text);
  size_t fence = 0;
  bool may_start = true;       // after a blank line, a heading, a fenced block or at the text's start
  size_t list_text = 0;        // in a list: the column of its item's text; else 0
  std::string_view lead_in;    // the last line of text before
  for (size_t i = 0; i < lines.size(); ++i) {
    const Line& line = lines[i];
    while (fence < fenced.size() && fenced[fence].second <= line.begin) ++fence;
    if (fence < fenced.size() && fenced[fence].first <= line.begin) {  // inside a fenced block
      may_start = true;
      list_text = 0;
      lead_in = {};
      continue;
    }
    if (line.text == line.end) {
      may_start = true;
      continue;
    }
    const size_t code_indent = list_text + 4;
    if (line.indent >= code_indent && may_start) {
      size_t last = i, code = 0, prose = 0;
      for (size_t j = i; j < lines.size() && (lines[j].text == lines[j].end || lines[j].indent >= code_indent); ++j) {
        if (fence < fenced.size() && fenced[fence].first <= lines[j].begin) break;
        if (lines[j].text == lines[j].end) continue;
        last = j;
        std::string_view content = text.substr(lines[j].text, lines[j].end - lines[j].text);
        if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
        const LineKind kind = line_kind(content);
        code += kind == LineKind::code;
        prose += kind == LineKind::prose;
      }
      const bool after_colon = !lead_in.empty() && lead_in.back() == ':';
      if (code > prose || (prose == 0 && after_colon)) blocks.emplace_back(line.begin, lines[last].end);
      i = last;
      may_start = false;
      lead_in = {};
      continue;
    }
    const size_t item = list_item_text(text, line);
    if (item > 0) list_text = item;
    else if (may_start && line.indent < list_text) list_text = 0;  // a paragraph after the list
    std::string_view content = text.substr(line.text, line.end - line.text);
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    size_t hashes = 0;
    while (hashes < content.size() && content[hashes] == '#') ++hashes;
    may_start = line.indent < 4 && hashes >= 1 && hashes <= 6 && (hashes == content.size() || content[hashes] == ' ');
    lead_in = content;
  }
  return blocks;
}

std::vector<std::pair<size_t, size_t>> code_blocks(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> blocks = fenced_code_blocks(text);
  for (auto block : indented_code_blocks(text)) blocks.push_back(block);
  std::sort(blocks.begin(), blocks.end());
  return blocks;
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
