// Numbers a translation must keep (numbers.h).
#include "text/numbers.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <tuple>

#include "text/utf8.h"

namespace nmt {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }
bool separator(char c) { return c == '.' || c == ',' || c == ':' || c == '\''; }

// The length in bytes of a group of thousands written with a space that starts at `at` (0: none): " ddd"
// not followed by a digit or another separator and digit ("55 000 Fässer"; not "12 100" in "um 12
// 1000"); the space may be a thin or no-break one ("1\u2009000\u2009000", "55\u202F000", "8\u00A0840").
size_t space_group(std::string_view text, size_t at) {
  size_t space = 0;
  if (at < text.size() && text[at] == ' ') space = 1;
  else if (text.compare(at, 2, "\xC2\xA0") == 0) space = 2;  // U+00A0
  else if (text.compare(at, 3, "\xE2\x80\x89") == 0 || text.compare(at, 3, "\xE2\x80\xAF") == 0 ||
           text.compare(at, 3, "\xE2\x80\x87") == 0)  // U+2009, U+202F, U+2007
    space = 3;
  const size_t end = at + space + 3;
  if (space == 0 || end > text.size()) return 0;
  for (size_t k = at + space; k < end; ++k)
    if (!digit(text[k])) return 0;
  const bool more = end < text.size() && (digit(text[end]) || (separator(text[end]) && end + 1 < text.size() && digit(text[end + 1])));
  return more ? 0 : end - at;
}

// The character before byte `at` (0 at the start).
char32_t char_before(std::string_view text, size_t at) {
  if (at == 0) return 0;
  size_t start = at - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  char32_t cp = 0;
  decode_utf8(text, start, cp);
  return cp;
}

char32_t char_at(std::string_view text, size_t at) {
  char32_t cp = 0;
  if (at < text.size()) decode_utf8(text, at, cp);
  return cp;
}


// Whether a unit of measure (or a half of the day) written against the number starts at `at` and
// ends a word there ("3.5kg", "2,5GHz", "120km/h", "9am"): a quantity, unlike the number in a name or an ordinal ("G7", "2nd").
bool unit_after(std::string_view text, size_t at) {
  static constexpr std::string_view kUnits[] = {
      "mm", "cm", "dm", "m", "km", "mg", "g", "kg", "ml", "cl", "dl", "l", "ms", "min", "h", "mph", "kW", "MW", "GW",
      "kWh", "MWh", "Wh", "W", "V", "kV", "mV", "mA", "mAh", "Hz", "kHz", "MHz", "GHz", "kB", "KB", "MB", "GB", "TB",
      "Mbit", "Gbit", "px", "pt", "am", "pm", "AM", "PM", "bn"};  // ("€3.2bn": a billion)
  size_t end = at;
  while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
  if (end == at || is_letter(char_at(text, end))) return false;  // ("5kgs", "2ndä")
  return std::find(std::begin(kUnits), std::end(kUnits), text.substr(at, end - at)) != std::end(kUnits);
}

}  // namespace

size_t english_ordinal_ending(std::string_view text, size_t at) {
  if (at + 2 > text.size()) return 0;
  const std::string_view s = text.substr(at, 2);
  if (s != "st" && s != "nd" && s != "rd" && s != "th") return 0;
  if (at + 2 < text.size() && (is_letter(char_at(text, at + 2)) || text[at + 2] == '-')) return 0;
  return 2;
}

namespace {

// A German ordinal: "2. Weltkrieg", "am 7. Oktober" (one or two digits, ". ", a word).
bool german_ordinal(std::string_view text, size_t begin, size_t end) {
  return end - begin <= 2 && end + 2 < text.size() && text[end] == '.' && text[end + 1] == ' ' &&
         is_letter(char_at(text, end + 2));
}

}  // namespace

bool is_german_ordinal(std::string_view text, size_t begin, size_t end) { return german_ordinal(text, begin, end); }

namespace {

// Whether `s` is digit groups in the form 1-3 digits (not starting with 0), then groups of 3 after
// `thousands`, then optionally `decimal` and digits ("1,234.56" with ',' and '.'); at least one
// thousands group.
bool grouped(std::string_view s, char thousands, char decimal) {
  if (!s.empty() && s[0] == '0') return false;  // no amount: a phone number ("030.123.456"), a code
  size_t i = 0;
  while (i < s.size() && digit(s[i])) ++i;
  if (i == 0 || i > 3) return false;
  int groups = 0;
  while (i < s.size() && s[i] == thousands) {
    size_t j = i + 1;
    while (j < s.size() && digit(s[j])) ++j;
    if (j - i - 1 != 3) return false;
    i = j;
    ++groups;
  }
  if (groups == 0) return false;
  if (i == s.size()) return true;
  if (s[i] != decimal) return false;
  size_t j = i + 1;
  while (j < s.size() && digit(s[j])) ++j;
  return j > i + 1 && j == s.size();
}

// The length of the date written at `at` ("12/03/2025", "1.10.20": day or month, day or month, year
// of 2 or 4 digits, one separator, '.' or '/'), or 0 when none is.
size_t date_length(std::string_view text, size_t at) {
  size_t i = at;
  auto digits = [&](size_t lo, size_t hi) {
    size_t n = 0;
    while (i < text.size() && digit(text[i]) && n < hi) ++i, ++n;
    return n >= lo && !(i < text.size() && digit(text[i]));
  };
  if (at > 0 && (digit(text[at - 1]) || ((text[at - 1] == '.' || text[at - 1] == '/') && at > 1 && digit(text[at - 2]))))
    return 0;  // inside a longer run ("1.12.03.2025")
  if (!digits(1, 2) || i >= text.size() || (text[i] != '.' && text[i] != '/')) return 0;
  const char sep = text[i++];
  if (!digits(1, 2) || i >= text.size() || text[i] != sep) return 0;
  ++i;
  const size_t year = i;
  if (!digits(2, 4) || i - year == 3) return 0;
  if (i + 1 < text.size() && (separator(text[i]) || text[i] == '/') && digit(text[i + 1])) return 0;  // "1.2.3.4"
  return i - at;
}

bool is_date(std::string_view number) { return !number.empty() && date_length(number, 0) == number.size(); }

// Whether `s` is digits, `decimal`, digits ("9,5").
bool decimal_number(std::string_view s, char decimal) {
  const size_t at = s.find(decimal);
  if (at == std::string_view::npos || at == 0 || at + 1 == s.size()) return false;
  return std::all_of(s.begin(), s.begin() + long(at), digit) && std::all_of(s.begin() + long(at) + 1, s.end(), digit);
}

// The source number's digits as a clock 12 hours away would write them ("19" -> "7", "20:25" ->
// "825"), or "" when it is not an hour.
std::vector<std::string> hour_shifted(std::string_view number) {
  size_t i = 0;
  while (i < number.size() && digit(number[i])) ++i;
  if (i == 0 || i > 2) return {};
  const bool minutes = i < number.size();
  if (minutes && !((number[i] == ':' || number[i] == '.') && number.size() == i + 3 && digit(number[i + 1]) &&
                   digit(number[i + 2])))
    return {};
  const int hour = std::stoi(std::string(number.substr(0, i)));
  const std::string rest = minutes ? std::string(number.substr(i + 1)) : "";
  std::vector<std::string> out;
  for (int h : {hour + 12, hour - 12})
    if (h >= 0 && h <= 24 && hour <= 24) out.push_back(std::to_string(h) + rest);
  return out;
}

// Numbers up to twelve as words ("zwei Mädchen" for "2 girls"): each language's forms, lower case.
const std::vector<std::vector<std::string_view>>& number_words(std::string_view language) {
  static const std::vector<std::vector<std::string_view>> en = {
      {"zero"}, {"one"}, {"two"}, {"three"}, {"four"}, {"five"}, {"six"}, {"seven"}, {"eight"}, {"nine"}, {"ten"},
      {"eleven"}, {"twelve"}};
  static const std::vector<std::vector<std::string_view>> de = {
      {"null"}, {"ein", "eine", "einen", "einem", "einer", "eines", "eins"}, {"zwei"}, {"drei"}, {"vier"},
      {"f\xC3\xBCnf"}, {"sechs"}, {"sieben"}, {"acht"}, {"neun"}, {"zehn"}, {"elf"}, {"zw\xC3\xB6lf"}};
  static const std::vector<std::vector<std::string_view>> none;
  return language == "en" ? en : language == "de" ? de : none;
}

// The values a word of `text` may stand for as digits in a translation ("twenty" 20, "zwanzigsten"
// 20, "nineties" 90 and 1990, "March" 3, "noon" 12, "Viertel" 4), English and German; -1 none.
std::vector<long> word_values(const std::string& w) {
  static const std::pair<const char*, long> kWords[] = {
      {"zero", 0}, {"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}, {"six", 6}, {"seven", 7},
      {"eight", 8}, {"nine", 9}, {"ten", 10}, {"eleven", 11}, {"twelve", 12}, {"thirteen", 13}, {"fourteen", 14},
      {"fifteen", 15}, {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18}, {"nineteen", 19}, {"twenty", 20},
      {"thirty", 30}, {"forty", 40}, {"fifty", 50}, {"sixty", 60}, {"seventy", 70}, {"eighty", 80}, {"ninety", 90},
      {"hundred", 100}, {"thousand", 1000}, {"first", 1}, {"second", 2}, {"third", 3}, {"fifth", 5}, {"eighth", 8},
      {"ninth", 9}, {"twelfth", 12}, {"once", 1}, {"twice", 2}, {"thrice", 3}, {"half", 2}, {"halves", 2},
      {"quarter", 4}, {"quarters", 4}, {"thirds", 3}, {"dozen", 12}, {"dozens", 12}, {"noon", 12}, {"midday", 12},
      {"midnight", 0}, {"midnight", 12}, {"midnight", 24}, {"pair", 2}, {"couple", 2}, {"both", 2}, {"decade", 10},
      {"century", 100}, {"null", 0}, {"ein", 1}, {"eine", 1}, {"einen", 1}, {"einem", 1}, {"einer", 1}, {"eines", 1},
      {"eins", 1}, {"zwei", 2}, {"drei", 3}, {"vier", 4}, {"f\xC3\xBCnf", 5}, {"sechs", 6}, {"sieben", 7},
      {"acht", 8}, {"neun", 9}, {"zehn", 10}, {"elf", 11}, {"zw\xC3\xB6lf", 12}, {"sechzehn", 16}, {"siebzehn", 17},
      {"zwanzig", 20}, {"drei\xC3\x9Fig", 30}, {"dreissig", 30}, {"sechzig", 60}, {"siebzig", 70}, {"hundert", 100},
      {"tausend", 1000}, {"halb", 2}, {"halbe", 2}, {"halben", 2}, {"h\xC3\xA4lfte", 2}, {"viertel", 4},
      {"drittel", 3}, {"dutzend", 12}, {"mittag", 12}, {"mittags", 12}, {"mitternacht", 0}, {"mitternacht", 12},
      {"mitternacht", 24}, {"paar", 2}, {"beide", 2}, {"beiden", 2}, {"jahrzehnt", 10}, {"jahrhundert", 100},
      {"january", 1}, {"february", 2}, {"march", 3}, {"april", 4}, {"may", 5}, {"june", 6}, {"july", 7},
      {"august", 8}, {"september", 9}, {"october", 10}, {"november", 11}, {"december", 12}, {"jan", 1}, {"feb", 2},
      {"mar", 3}, {"apr", 4}, {"jun", 6}, {"jul", 7}, {"aug", 8}, {"sep", 9}, {"sept", 9}, {"oct", 10}, {"nov", 11},
      {"dec", 12}, {"januar", 1}, {"j\xC3\xA4nner", 1}, {"februar", 2}, {"m\xC3\xA4rz", 3}, {"mai", 5}, {"juni", 6},
      {"juli", 7}, {"oktober", 10}, {"dezember", 12}, {"okt", 10}, {"dez", 12}};
  std::vector<long> out;
  for (const auto& [word, value] : kWords)
    if (w == word) out.push_back(value);
  if (!out.empty()) return out;
  // "fourth", "twentieth", "sixties": a number word with an ordinal or decade ending
  for (std::string_view ending : {"ieth", "th", "ies", "s"})
    if (w.size() > ending.size() + 2 && w.compare(w.size() - ending.size(), ending.size(), ending) == 0) {
      std::string stem = w.substr(0, w.size() - ending.size());
      if (ending == "ieth" || ending == "ies") stem += "y";
      for (const auto& [word, value] : kWords)
        if (stem == word && value >= 4 && value <= 1000) out.push_back(value);
      if (ending == "ies" && !out.empty()) out.push_back(1900 + out.front());  // "the sixties": 1960s
      if (!out.empty()) return out;
    }
  // German: "fünfundzwanzig", "zweihundert", "dreitausend", "zwanzigsten", "zweimal", "Neunziger"
  std::string stem = w;
  for (std::string_view ending : {"sten", "ster", "stes", "stem", "ste", "ten", "ter", "tes", "tem", "te", "ern", "er", "mal"})
    if (stem.size() > ending.size() + 1 && stem.compare(stem.size() - ending.size(), ending.size(), ending) == 0) {
      stem.resize(stem.size() - ending.size());
      if (ending == "er" || ending == "ern") {
        const std::vector<long> tens = word_values(stem);
        if (tens.size() == 1 && tens[0] >= 20 && tens[0] <= 90 && tens[0] % 10 == 0) return {tens[0], 1900 + tens[0]};
        return {};
      }
      break;
    }
  if (stem == "erst") return {1};
  if (stem == "dritt") return {3};
  if (stem == "sieb") return {7};
  if (stem == "ach") return {8};
  for (const auto& [word, value] : kWords)
    if (stem == word && stem != w) return {value};
  const auto split = [&](std::string_view at, long scale) -> std::vector<long> {
    const size_t k = stem.find(at);
    if (k == std::string::npos) return {};
    const std::string left = stem.substr(0, k), right = stem.substr(k + at.size());
    const std::vector<long> l = left.empty() ? std::vector<long>{1} : word_values(left);
    const std::vector<long> r = right.empty() ? std::vector<long>{0} : word_values(right);
    if (l.size() != 1 || r.size() != 1 || l[0] < 1 || l[0] >= scale || r[0] >= scale) return {};
    return {l[0] * scale + r[0]};
  };
  if (std::vector<long> v = split("tausend", 1000); !v.empty()) return v;
  if (std::vector<long> v = split("hundert", 100); !v.empty()) return v;
  const size_t und = stem.find("und");
  if (und != std::string::npos && und > 0) {
    const std::vector<long> unit = word_values(stem.substr(0, und)), tens = word_values(stem.substr(und + 3));
    if (unit.size() == 1 && tens.size() == 1 && unit[0] >= 1 && unit[0] <= 9 && tens[0] >= 20 && tens[0] <= 90 && tens[0] % 10 == 0)
      return {tens[0] + unit[0]};
  }
  if (stem.size() > 4 && stem.compare(stem.size() - 3, 3, "zig") == 0) {  // "vierzig", "achtzig"
    const std::vector<long> unit = word_values(stem.substr(0, stem.size() - 3));
    if (unit.size() == 1 && unit[0] >= 4 && unit[0] <= 9) return {unit[0] * 10};
  }
  if (stem.size() > 5 && stem.compare(stem.size() - 4, 4, "zehn") == 0) {  // "dreizehn", "neunzehn"
    const std::vector<long> unit = word_values(stem.substr(0, stem.size() - 4));
    if (unit.size() == 1 && unit[0] >= 3 && unit[0] <= 9) return {10 + unit[0]};
  }
  return {};
}

// The value of a German ordinal word ("erste", "dritten", "zwanzigster", "einundzwanzigste"), or 0.
long german_ordinal_word(std::string w) {
  bool ending = false;
  for (std::string_view e : {"en", "er", "es", "em", "e"})
    if (w.size() > e.size() + 2 && w.compare(w.size() - e.size(), e.size(), e) == 0) {
      w.resize(w.size() - e.size());
      ending = true;
      break;
    }
  if (w == "erst") return 1;
  if (w == "zweit") return 2;
  if (w == "dritt") return 3;
  if (w == "siebt" || w == "siebent") return 7;
  if (w == "acht") return ending ? 8 : 0;  // ("acht" alone is the number)
  if (w.size() < 4 || w.back() != 't') return 0;
  // "viert", "neunzehnt": 4-19 and "t"; "zwanzigst", "hundertst": 20 and up and "st"
  const std::vector<long> small = word_values(w.substr(0, w.size() - 1));
  if (small.size() == 1 && small[0] >= 4 && small[0] <= 19) return small[0];
  if (w[w.size() - 2] != 's') return 0;
  const std::vector<long> large = word_values(w.substr(0, w.size() - 2));
  return large.size() == 1 && large[0] >= 20 ? large[0] : 0;
}

// The value of an English ordinal word ("first", "third", "twentieth") or a Roman numeral up to
// 39 ("World War II", "Henry VIII"; lower case, as lower_words gives them), or 0.
long english_ordinal_word(const std::string& w) {
  const bool roman = !w.empty() && w.size() <= 6 && w.find_first_not_of("ivx") == std::string::npos;
  if (roman) {
    long value = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      const long digit = w[i] == 'x' ? 10 : w[i] == 'v' ? 5 : 1;
      const long next = i + 1 < w.size() ? (w[i + 1] == 'x' ? 10 : w[i + 1] == 'v' ? 5 : 1) : 0;
      value += digit < next ? -digit : digit;
    }
    return value > 0 && value < 40 ? value : 0;
  }
  if (w.size() < 4 || w == "august") return 0;
  const std::string ending = w.substr(w.size() - 2);
  if (ending != "st" && ending != "nd" && ending != "rd" && ending != "th") return 0;
  const std::vector<long> values = word_values(w);
  return values.size() == 1 ? values[0] : 0;
}

// The digits a translation may write for what `source` says with words, or as a number written
// another way: its numbers' digits (words too: "3rd" 3, "1990s" 1990), the words' values ("twenty
// five" 20, 5 and 25; "zwei Millionen" 2), a decade's year ("the 90s" 1990), an hour 12 hours away
// ("5 p.m." 17).
std::vector<std::string> digits_said(std::string_view source) {
  std::vector<std::string> out;
  for (auto [b, e] : find_numbers(source, "", true)) {
    const std::string_view number = source.substr(b, e - b);
    const std::string digits = digits_of(number);
    out.push_back(digits);
    for (const std::string& h : hour_shifted(number)) out.push_back(digits_of(h));
    if (digits.size() == 2) for (const char* century : {"19", "20"}) out.push_back(century + digits);  // "the 90s"
  }
  long previous = -1;
  for (const std::string& w : lower_words(source)) {
    const std::vector<long> values = word_values(w);
    for (long v : values) {
      out.push_back(std::to_string(v));
      if (v >= 1 && v <= 9) out.push_back("0" + std::to_string(v));  // a month: "03"
      if (previous >= 20 && previous <= 90 && previous % 10 == 0 && v >= 1 && v <= 9) out.push_back(std::to_string(previous + v));
      if (previous >= 1 && previous <= 99 && (v == 100 || v == 1000)) out.push_back(std::to_string(previous * v));
    }
    previous = values.size() == 1 ? values[0] : -1;
  }
  return out;
}



// The currency whose sign is written right before `begin` or right after `end` of a number, one
// space between allowed ("$5", "£ 3", "10 €"), or nullptr.
const Currency* currency_of(std::string_view text, size_t begin, size_t end) {
  for (const Currency& c : currencies()) {
    const size_t n = c.sign.size();
    for (size_t gap : {size_t(0), size_t(1)}) {
      const bool spaced_before = gap == 0 || (begin >= 1 && text[begin - 1] == ' ');
      if (spaced_before && begin >= n + gap && text.substr(begin - gap - n, n) == c.sign) return &c;
      const bool spaced_after = gap == 0 || (end < text.size() && text[end] == ' ');
      if (spaced_after && end + gap + n <= text.size() && text.substr(end + gap, n) == c.sign) return &c;
    }
  }
  return nullptr;
}

// Whether `text` holds the currency's sign or one of its names (once is enough: "$21 million to $22
// million" -> "21 bis 22 Millionen Dollar").
bool names(const Currency& c, std::string_view text) {
  if (text.find(c.sign) != std::string_view::npos) return true;
  const std::vector<std::string> words = lower_words(text);
  return std::any_of(words.begin(), words.end(),
                     [&](const std::string& w) { return std::find(c.names.begin(), c.names.end(), w) != c.names.end(); });
}

// Whether the number at `at` names rather than counts: a version, chapter or model number after a
// word for one ("version 3.11", "Kapitel 3.2") or, in English, after a name ("Python 3.11", "iOS
// 17.1", "Section 4.1"; not a sentence's first word, a month or a currency code: "In 1.5 hours",
// "March 1.5 million", "EUR 1.5 million", nor before "million" or "%": "Foundation 1.5 billion").
// German writes these with a dot too.
bool is_label(std::string_view text, size_t at, size_t end, std::string_view from) {
  if (at < 3 || text[at - 1] != ' ') return false;
  size_t b = at - 1;
  while (b > 0 && std::isalnum(static_cast<unsigned char>(text[b - 1]))) --b;
  const std::string_view word = text.substr(b, at - 1 - b);
  if (word.size() < 2) return false;
  std::string lower(word);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  static const char* const kLabelWords[] = {"version", "release", "chapter", "section", "kapitel", "abschnitt"};
  for (const char* w : kLabelWords)
    if (lower == w) return true;
  const bool name = std::isupper(static_cast<unsigned char>(word[0])) || std::isupper(static_cast<unsigned char>(word[1]));
  if (from != "en" || !name) return false;  // ("iOS": a capital second)
  size_t before = b;
  while (before > 0 && text[before - 1] == ' ') --before;
  if (before == 0 || std::strchr(".!?:;\"'(", text[before - 1])) return false;  // the sentence's first word
  static const char* const kNotNames[] = {"january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december", "monday", "tuesday",
                                          "wednesday", "thursday", "friday", "saturday", "sunday", "eur", "usd",
                                          "gbp", "chf", "jpy", "cny", "cad", "aud", "rs", "rmb"};
  for (const char* w : kNotNames)
    if (lower == w) return false;
  const bool code = word.size() == 3 && std::all_of(word.begin(), word.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); });
  if (code) return false;  // "ISK 8.3", "RMB 7.0": currencies
  // an amount after all: "Foundation 1.5 billion", "Johor 41.7%"
  size_t n = end;
  while (n < text.size() && text[n] == ' ') ++n;
  if (n < text.size() && text[n] == '%') return false;
  static const char* const kAmounts[] = {"million", "billion", "trillion", "thousand", "percent", "per", "points", "bn", "m"};
  for (const char* w : kAmounts) {
    const size_t len = std::strlen(w);
    if (text.substr(n, len) == w && (n + len == text.size() || !std::isalpha(static_cast<unsigned char>(text[n + len]))))
      return false;
  }
  return true;
}

// Whether the number at [at, end) of `text` is a clock time: an hour (0-24), a dot or comma and two
// digits of minutes, followed by a.m., p.m., "Uhr" or "o'clock" ("9.00 a.m.", "7.30pm", "20,15 Uhr"; not
// "h": "2,45 h" is a duration).
bool clock_time(std::string_view text, size_t at, size_t end) {
  const std::string_view number = text.substr(at, end - at);
  const size_t sep = number.find_first_of(".,");
  if (sep == std::string_view::npos || sep == 0 || sep > 2 || number.size() != sep + 3) return false;
  if (std::stoi(std::string(number.substr(0, sep))) > 24 || number[sep + 1] > '5') return false;
  size_t n = end;
  if (n < text.size() && text[n] == ' ') ++n;
  std::string mark;
  while (n < text.size() && (std::isalpha(static_cast<unsigned char>(text[n])) || text[n] == '.' || text[n] == '\'')) mark += char(std::tolower(static_cast<unsigned char>(text[n++])));
  while (!mark.empty() && mark.back() == '.' && mark != "a.m." && mark != "p.m.") mark.pop_back();
  for (const char* m : {"a.m.", "p.m.", "am", "pm", "uhr", "o'clock"})
    if (mark == m) return true;
  return false;
}

}  // namespace

const std::vector<Currency>& currencies() {
  static const std::vector<Currency> all = {
      {"$", {"dollar", "dollars", "usd"}},
      {"\xE2\x82\xAC", {"euro", "euros", "eur"}},                      // €
      {"\xC2\xA3", {"pound", "pounds", "pfund", "sterling", "gbp"}},  // £
      {"\xC2\xA5", {"yen", "yuan"}},                                   // ¥
  };
  return all;
}

std::string digits_of(std::string_view number) {
  std::string d;
  for (char c : number)
    if (digit(c)) d += c;
  return d;
}

std::vector<std::string> lower_words(std::string_view text) {
  std::vector<std::string> words(1);
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const size_t length = decode_utf8(text, i, cp);
    if (is_letter(cp)) {
      for (size_t k = i; k < i + length; ++k)
        words.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
    } else if (!words.back().empty()) {
      words.emplace_back();
    }
    i += length;
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

ByteSpans find_numbers(std::string_view text, std::string_view language, bool words_too, const ByteSpans& skip) {
  ByteSpans out;
  for (size_t i = 0; i < text.size();) {
    if (!digit(text[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && (digit(text[j]) || (separator(text[j]) && j + 1 < text.size() && digit(text[j + 1]))))
      ++j;
    if (const size_t date = date_length(text, i)) j = std::max(j, i + date);  // "12/03/2025": one number
    // "55 000", "5 000 000"; not a phone number's groups: "0800 555 111", "030 123 456 78", "+1 800
    // 555 0199" (after a "+", or with another group of digits after them)
    const char32_t space_before = char_before(text, i);
    const size_t space_length = space_before == ' ' ? 1 : space_before == 0xA0 ? 2 : 3;
    const bool group_space = space_before == ' ' || space_before == 0xA0 || space_before == 0x2009 ||
                             space_before == 0x202F || space_before == 0x2007;
    const bool after_group = group_space && i > space_length && digit(text[i - space_length - 1]);
    const bool dialling_code = i >= 1 && text[i - 1] == '+';
    if (j - i <= 3 && text[i] != '0' && !after_group && !dialling_code &&
        std::all_of(text.begin() + long(i), text.begin() + long(j), digit)) {
      size_t grouped = j;
      for (size_t length; (length = space_group(text, grouped)) > 0;) grouped += length;
      if (!(grouped + 1 < text.size() && text[grouped] == ' ' && digit(text[grouped + 1]))) j = grouped;
    }
    const size_t begin = i;
    i = j;
    if (words_too) {
      out.emplace_back(begin, j);
      continue;
    }
    const bool ordinal = language == "en" && english_ordinal_ending(text, j) > 0;  // "1st", "21st"
    if (is_letter(char_before(text, begin)) || (is_letter(char_at(text, j)) && !unit_after(text, j) && !ordinal)) continue;  // "G7"
    const bool in_skip = std::any_of(skip.begin(), skip.end(), [&](const auto& s) { return begin < s.second && j > s.first; });
    if (!in_skip) out.emplace_back(begin, j);
  }
  return out;
}

size_t minus_sign_before(std::string_view text, size_t begin) {
  size_t sign = 0;
  if (begin >= 1 && text[begin - 1] == '-') sign = 1;
  else if (begin >= 3 && text.compare(begin - 3, 3, "\xE2\x88\x92") == 0) sign = 3;  // U+2212
  if (sign == 0) return 0;
  const char32_t before = char_before(text, begin - sign);  // not a range or a name ("5-10", "COVID-19")
  return is_letter(before) || is_digit(before) ? 0 : sign;
}

namespace {

// What the word right after a number at `end` of `text` multiplies it by or measures it in: 1000,
// 10^6, 10^9, 10^12 for a scale ("million", "Mio.", "Milliarden", "bn"; "billion" is 10^9 in English,
// 10^12 in German), -1 for meters, -2 for miles; 0 for anything else; kEitherMagnitude for "5m".
constexpr int kEitherMagnitude = -99;
int magnitude(std::string_view text, size_t end, bool german, bool hyphen_too = false) {
  size_t at = end;
  if (at < text.size() && (text[at] == ' ' || (hyphen_too && text[at] == '-'))) ++at;  // ("a $5-million fine")
  size_t word_end = at;
  while (word_end < text.size() && std::isalpha(static_cast<unsigned char>(text[word_end]))) ++word_end;
  if (word_end == at || (word_end < text.size() && static_cast<unsigned char>(text[word_end]) >= 0x80)) return 0;
  std::string word(text.substr(at, word_end - at));
  const bool spaced = at > end;
  if (word == "m" && !spaced) return kEitherMagnitude;  // "$5m": a million, or meters
  for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
  static const std::pair<const char*, int> kWords[] = {
      {"thousand", 1000}, {"tausend", 1000}, {"k", 1000}, {"million", 1000000}, {"millions", 1000000}, {"millionen", 1000000},
      {"mio", 1000000}, {"milliarde", 1000000000}, {"milliarden", 1000000000}, {"mrd", 1000000000},
      {"mr", 1000000000},  // (de->en writes "Mrd." as "Mr.": number_labels makes it "billion")
      {"bn", 1000000000}, {"trillion", 1000000000 + 1}, {"trillions", 1000000000 + 1}, {"billionen", 1000000000 + 1},
      {"m", -1}, {"meter", -1}, {"meters", -1}, {"metre", -1}, {"metres", -1}, {"metern", -1}, {"mile", -2},
      {"miles", -2}, {"meile", -2}, {"meilen", -2}};
  if (word == "billion" || word == "billions") return german ? 1000000000 + 1 : 1000000000;  // (+1: 10^12)
  for (const auto& [w, value] : kWords)
    if (word == w) return value;
  return 0;
}

// Whether `gap` joins a range's two ends: "-", "–" or "/", spaces around allowed.
bool range_dash(std::string_view gap) {
  while (!gap.empty() && gap.front() == ' ') gap.remove_prefix(1);
  while (!gap.empty() && gap.back() == ' ') gap.remove_suffix(1);
  return gap == "-" || gap == "\xE2\x80\x93" || gap == "/";
}

// Whether `gap` writes two numbers as one ("2020-20", "3.5", "12/"): a few dashes, slashes, dots,
// commas or colons, spaces around allowed.
bool joined(std::string_view gap) {
  while (!gap.empty() && gap.front() == ' ') gap.remove_prefix(1);
  while (!gap.empty() && gap.back() == ' ') gap.remove_suffix(1);
  if (gap.empty() || gap.size() > 4) return false;
  for (size_t i = 0; i < gap.size(); ++i) {
    if (gap.compare(i, 3, "\xE2\x80\x93") == 0 || gap.compare(i, 3, "\xE2\x80\x94") == 0) {
      i += 2;
      continue;
    }
    if (!std::strchr("-/.,:", gap[i])) return false;
  }
  return true;
}

// Whether the word "minus" (any case) stands right before the number at `begin` ("minus 10 Grad").
bool minus_word_before(std::string_view text, size_t begin) {
  if (begin < 6 || text[begin - 1] != ' ') return false;
  std::string word(text.substr(begin - 6, 5));
  for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
  return word == "minus" && (begin == 6 || !std::isalnum(static_cast<unsigned char>(text[begin - 7])));
}

// Whether `text` says a temperature is below zero in words ("10 below zero", "10 Grad unter null").
bool below_zero(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("below zero") != std::string::npos || lower.find("unter null") != std::string::npos;
}

}  // namespace

std::vector<size_t> missing_numbers(std::string_view source, const ByteSpans& numbers, std::string_view target,
                                    std::string_view target_language) {
  // a number after a '-' that makes it negative, or after the word "minus", stays negative
  const bool zero_said = below_zero(target);
  const auto negative_in_source = [&](size_t k) {
    return minus_sign_before(source, numbers[k].first) == 1 || (minus_word_before(source, numbers[k].first) && !zero_said);
  };
  std::vector<std::string> have, as_written;
  std::vector<bool> have_negative;
  ByteSpans at;  // each target number's bytes
  for (auto [b, e] : find_numbers(target, "", true)) {
    const std::string_view written = target.substr(b, e - b);
    // a score the source writes "1-0" and German "1:0": two numbers, as in the source
    const size_t colon = written.find(':');
    if (colon != std::string_view::npos && written.find(':', colon + 1) == std::string_view::npos) {
      const std::string a(written.substr(0, colon)), z(written.substr(colon + 1));
      if (source.find(a + "-" + z) != std::string_view::npos || source.find(a + "\xE2\x80\x93" + z) != std::string_view::npos) {
        for (const std::string& part : {a, z}) {
          as_written.push_back(part);
          have.push_back(digits_of(part));
          have_negative.push_back(false);
        }
        at.emplace_back(b, b + colon);
        at.emplace_back(b + colon + 1, e);
        continue;
      }
    }
    as_written.emplace_back(written);
    have.push_back(digits_of(as_written.back()));
    have_negative.push_back(minus_sign_before(target, b) > 0 || minus_word_before(target, b));
    at.emplace_back(b, e);
  }
  std::vector<bool> used(have.size(), false), found(numbers.size(), false);
  std::vector<size_t> owner(have.size(), numbers.size());  // the source number a target number answers for
  // a date stays a date: "12.03.2025" written "12,03,2025" or "12.03/2025" has lost it
  // a negative number stays negative: "-5–-10" written "-5-10" has lost the minus of the 10
  // a decimal or a time needs its separator: "9.30 bis 11.45 Uhr" written "930 to 11.45" has lost it
  // ("1.000" written "1000" has not)
  const auto needs_separator = [&](size_t k) {
    const std::string_view number = source.substr(numbers[k].first, numbers[k].second - numbers[k].first);
    for (size_t i = 0; i < number.size(); ++i) {
      if (digit(number[i]) || (number[i] != '.' && number[i] != ',' && number[i] != ':')) continue;
      size_t n = i + 1;
      while (n < number.size() && digit(number[n])) ++n;
      if (n - i - 1 != 3) return true;
    }
    return false;
  };
  const auto no_separator = [&](size_t t) { return std::all_of(as_written[t].begin(), as_written[t].end(), digit); };
  // a number written without separators may gain only thousands' ("8080" -> "8.080", not "80.80")
  const auto plain = [&](size_t k) {
    return std::all_of(source.begin() + long(numbers[k].first), source.begin() + long(numbers[k].second), digit);
  };
  const auto regrouped = [&](size_t t) {
    const std::string& w = as_written[t];
    return no_separator(t) || grouped(w, '.', '\0') || grouped(w, ',', '\0') || grouped(w, ' ', '\0') || grouped(w, '\'', '\0');
  };
  // an English ordinal stays one in German: "1st place" -> "1. Platz" (or "1st" copied), not "einen
  // Platz"; "the 3rd time" -> "das 3. Mal", not "die 3 Uhr"
  std::vector<bool> ordinal(numbers.size(), false), german_ordinal_in(numbers.size(), false);
  for (size_t k = 0; k < numbers.size(); ++k) {
    ordinal[k] = target_language == "de" && english_ordinal_ending(source, numbers[k].second) > 0;
    // a German ordinal into English: its digits ("3rd", "May 3"), or a word ("third", "World War II")
    german_ordinal_in[k] = target_language == "en" && german_ordinal(source, numbers[k].first, numbers[k].second);
  }
  const auto written_as_ordinal = [&](size_t t) {
    const size_t e = at[t].second;
    return (e < target.size() && target[e] == '.' && !(e + 1 < target.size() && digit(target[e + 1]))) ||
           english_ordinal_ending(target, e) > 0;
  };
  auto take = [&](size_t k, const std::string& digits, bool full_hour = false, bool date = false, bool negative = false) {
    const bool separated = needs_separator(k);
    for (size_t t = 0; t < have.size(); ++t)
      if (!used[t] && (!negative || have_negative[t]) && !(separated && no_separator(t)) &&
          (!ordinal[k] || written_as_ordinal(t)) &&
          (full_hour ? as_written[t] == digits + ":00" || as_written[t] == digits + ".00"
                     : have[t] == digits && (!date || is_date(as_written[t])) && (!plain(k) || regrouped(t)))) {
        used[t] = true;
        owner[t] = k;
        return true;
      }
    return false;
  };
  for (size_t k = 0; k < numbers.size(); ++k) {  // the same digits first, so an hour never takes another's match
    const std::string_view number = source.substr(numbers[k].first, numbers[k].second - numbers[k].first);
    // (a U+2212 minus is no piece of the vocabulary: the model writes the unknown piece for it, which
    // pass_through fills after this check; only a '-' can be checked here)
    found[k] = take(k, digits_of(number), false, is_date(number), negative_in_source(k));
  }
  // the second year of a range written short or in full ("2020–2021" -> "2020–21", "2019-20" ->
  // "2019–2020"): after a dash, right after the target number with the first year's digits
  for (size_t k = 1; k < numbers.size(); ++k) {
    const std::string first = digits_of(source.substr(numbers[k - 1].first, numbers[k - 1].second - numbers[k - 1].first));
    const std::string second = digits_of(source.substr(numbers[k].first, numbers[k].second - numbers[k].first));
    if (found[k] || first.size() != 4 || !range_dash(source.substr(numbers[k - 1].second, numbers[k].first - numbers[k - 1].second)))
      continue;
    const bool shortened = second.size() == 4 && second.compare(0, 2, first, 0, 2) == 0;  // "2021" written "21"
    const bool lengthened = second.size() == 2;                                          // "21" written "2021"
    if (!shortened && !lengthened) continue;
    const std::string written = shortened ? second.substr(2) : first.substr(0, 2) + second;
    for (size_t t = 1; t < have.size() && !found[k]; ++t)
      if (!used[t] && have[t] == written && have[t - 1] == first &&
          range_dash(target.substr(at[t - 1].second, at[t].first - at[t - 1].second))) {
        used[t] = true;
        owner[t] = k;
        found[k] = true;
      }
  }
  std::vector<std::string> words;  // read only when a number is still unaccounted for
  std::vector<bool> word_used;
  auto take_word = [&](std::string_view number) {
    const auto& names = number_words(target_language);
    const bool small = !number.empty() && number.size() <= 2 && std::all_of(number.begin(), number.end(), digit);
    if (!small || size_t(std::stoi(std::string(number))) >= names.size()) return false;
    if (words.empty()) {
      words = lower_words(target);
      word_used.assign(words.size(), false);
    }
    for (size_t w = 0; w < words.size(); ++w)
      for (std::string_view name : names[size_t(std::stoi(std::string(number)))])
        if (!word_used[w] && words[w] == name) {
          word_used[w] = true;
          return true;
        }
    return false;
  };
  auto take_ordinal_word = [&](std::string_view number) {
    if (number.size() > 3 || !std::all_of(number.begin(), number.end(), digit)) return false;
    if (words.empty()) {
      words = lower_words(target);
      word_used.assign(words.size(), false);
    }
    const long value = std::stol(std::string(number));
    for (size_t w = 0; w < words.size(); ++w)
      if (!word_used[w] && (target_language == "de" ? german_ordinal_word(words[w]) == value : english_ordinal_word(words[w]) == value)) {
        word_used[w] = true;
        return true;
      }
    return false;
  };
  std::vector<size_t> missing;
  for (size_t k = 0; k < numbers.size(); ++k) {
    if (found[k]) continue;
    if (negative_in_source(k)) {  // (no hour, no word for it)
      missing.push_back(k);
      continue;
    }
    const std::string_view number = source.substr(numbers[k].first, numbers[k].second - numbers[k].first);
    if (ordinal[k] || german_ordinal_in[k]) {  // or its word: "1st" -> "ersten", "3." -> "third", "II"
      if (!take_ordinal_word(number) && !(german_ordinal_in[k] && take_word(number))) missing.push_back(k);
      continue;
    }
    bool shifted = false;
    for (const std::string& d : hour_shifted(number))
      if (!shifted) shifted = take(k, d);
    const bool hour = !number.empty() && number.size() <= 2 && std::all_of(number.begin(), number.end(), digit) &&
                      std::stoi(std::string(number)) <= 24;
    if (hour && !shifted) {  // "um 5 Uhr" -> "at 5:00", "um 17 Uhr" -> "at 5.00 p.m."
      shifted = take(k, std::string(number), true);
      for (const std::string& d : hour_shifted(number))
        if (!shifted) shifted = take(k, d, true);
    }
    if (!shifted && !take_word(number)) missing.push_back(k);
  }
  // a number the source never had (or has fewer times): written against one of the source's numbers
  // ("2020–2021" -> "2020-20-2021"), that one is garbled too; with the digits of one ("The 2019–2020
  // academic year starts in September" -> "... im September 2019"), that one is
  std::vector<std::string> said;  // read only when a target number is left over
  std::vector<size_t> unexplained = missing;  // a number left over may be a lost one garbled ("2022" -> "20222")
  const auto garbled = [&](size_t t) {  // (one with some of its digits first)
    if (unexplained.empty()) return false;
    auto k = std::find_if(unexplained.begin(), unexplained.end(), [&](size_t n) {
      const std::string digits = digits_of(source.substr(numbers[n].first, numbers[n].second - numbers[n].first));
      return digits.find(have[t]) != std::string::npos || have[t].find(digits) != std::string::npos;
    });
    unexplained.erase(k == unexplained.end() ? unexplained.begin() : k);
    return true;
  };
  for (size_t t = 0; t < have.size(); ++t) {
    if (used[t] || garbled(t)) continue;
    if (said.empty()) said = digits_said(source);
    const bool whole_hour = as_written[t].size() > 3 && as_written[t].compare(as_written[t].size() - 3, 3, ":00") == 0;
    const std::string hour = whole_hour ? digits_of(as_written[t].substr(0, as_written[t].size() - 3)) : "";
    if (whole_hour && std::find(said.begin(), said.end(), hour) != said.end()) continue;
    if (std::count(said.begin(), said.end(), have[t]) >= std::count(have.begin(), have.end(), have[t])) continue;
    for (size_t n : {t - 1, t + 1}) {
      if (n >= have.size() || owner[n] == numbers.size()) continue;
      const size_t gap_begin = n < t ? at[n].second : at[t].second, gap_end = n < t ? at[t].first : at[n].first;
      if (joined(target.substr(gap_begin, gap_end - gap_begin))) missing.push_back(owner[n]);
    }
    for (size_t n = 0; n < have.size(); ++n)
      if (owner[n] != numbers.size() && have[n] == have[t]) missing.push_back(owner[n]);
  }
  // a number whose scale or unit the target changed ("after 200 m" -> "nach 200 Mio.", "300 m hoch" ->
  // "300 miles"): the word right after each, read in its own language ("billion" is a German
  // "Milliarde", a German "Billion" an English "trillion")
  const bool to_german = target_language == "de";
  for (size_t t = 0; t < have.size(); ++t) {
    if (owner[t] == numbers.size()) continue;
    const int was = magnitude(source, numbers[owner[t]].second, !to_german);
    const int is = magnitude(target, at[t].second, to_german, true);
    const bool scale_lost = was >= 1000 && is == 0;  // "1,5 Mrd. Euro" -> "1.5 Euro"
    if (((was != is && is != 0 && (was != 0 || is >= 1000)) || scale_lost) && was != kEitherMagnitude && is != kEitherMagnitude)
      missing.push_back(owner[t]);
  }
  // an amount the target gives a currency the source never names ("£150" -> "150 £ Euro"): changed
  for (size_t t = 0; t < have.size(); ++t) {
    if (owner[t] == numbers.size()) continue;
    std::vector<std::string> next = lower_words(target.substr(at[t].second, 40));
    static const char* const kScales[] = {"million", "millionen", "milliarde", "milliarden", "billion", "billionen",
                                          "mio", "mrd", "thousand", "tausend", "bn"};
    if (!next.empty() && std::find_if(std::begin(kScales), std::end(kScales), [&](const char* w) { return next[0] == w; }) != std::end(kScales))
      next.erase(next.begin());
    size_t before = at[t].first;
    if (before > 0 && target[before - 1] == ' ') --before;
    for (const Currency& c : currencies()) {
      if (names(c, source)) continue;
      const size_t after = at[t].second;
      const bool sign = target.compare(after, c.sign.size(), c.sign) == 0 ||
                        (after < target.size() && target[after] == ' ' && target.compare(after + 1, c.sign.size(), c.sign) == 0) ||
                        (before >= c.sign.size() && target.compare(before - c.sign.size(), c.sign.size(), c.sign) == 0);
      const bool name = !next.empty() && std::find(c.names.begin(), c.names.end(), next[0]) != c.names.end();
      if (sign || name) missing.push_back(owner[t]);
    }
  }
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  return missing;
}

namespace {

// The words of letters of the token (a run without spaces) that starts at `at` of `text`, after
// spaces, lower-cased ("US-Dollar" -> "us", "dollar"), and where the first of them ends.
std::pair<std::vector<std::string>, size_t> next_words(std::string_view text, size_t at) {
  while (at < text.size() && text[at] == ' ') ++at;
  size_t first_end = at, end = at;
  while (end < text.size() && text[end] != ' ') ++end;
  for (char32_t cp = 0; first_end < end;) {
    const size_t length = decode_utf8(text, first_end, cp);
    if (!is_letter(cp)) break;
    first_end += length;
  }
  return {lower_words(text.substr(at, end - at)), first_end};
}

// Whether the target number at [b, e) carries currency `c`: its sign just before it ("$25", "$ 25")
// or its sign or name just after it, a scale word between allowed ("25 $", "25 Dollar", "225
// Millionen Dollar"), or it begins a range whose other end has one after it ("21 bis 22 Millionen
// Dollar", "21-22 $"; not "5 or £7", where the sign is the 7's own). `numbers` are the target's numbers, in order.
bool carries(const Currency& c, std::string_view target, const ByteSpans& numbers, size_t k, bool after_only = false) {
  const auto [b, e] = numbers[k];
  const auto is_name = [&](const std::string& w) { return std::find(c.names.begin(), c.names.end(), w) != c.names.end(); };
  size_t before = b;
  if (before > 0 && target[before - 1] == ' ') --before;
  if (!after_only && before >= c.sign.size() && target.substr(before - c.sign.size(), c.sign.size()) == c.sign) return true;
  if (!after_only) {  // a name just before it: "USD 25", "EUR 10"
    size_t w = before;
    while (w > 0 && is_letter(char_before(target, w))) --w;
    if (w < before && is_name(lower_words(target.substr(w, before - w)).front())) return true;
  }
  size_t after = e;
  auto [words, end] = next_words(target, after);
  static const char* const kScales[] = {"million", "millionen", "billion", "billionen", "milliarde", "milliarden",
                                        "mio", "mrd", "thousand", "tausend"};
  if (!words.empty() && end > after &&
      std::find(std::begin(kScales), std::end(kScales), words.front()) != std::end(kScales)) {
    after = end;
    if (after < target.size() && target[after] == '.') ++after;
    std::tie(words, end) = next_words(target, after);
  }
  size_t sign_at = after;
  if (sign_at < target.size() && target[sign_at] == ' ') ++sign_at;
  if (target.substr(sign_at, c.sign.size()) == c.sign || std::any_of(words.begin(), words.end(), is_name)) return true;
  // a range: "-", "–", "bis", "to", "und", "and", "oder", "or" and the next number
  if (k + 1 >= numbers.size()) return false;
  std::string_view gap = target.substr(e, numbers[k + 1].first - e);
  while (!gap.empty() && (gap.front() == ' ' || gap.back() == ' ')) gap = gap.front() == ' ' ? gap.substr(1) : gap.substr(0, gap.size() - 1);
  for (size_t n = c.sign.size(); gap.size() >= n && gap.substr(gap.size() - n) == c.sign;) gap = gap.substr(0, gap.size() - n);
  while (!gap.empty() && gap.back() == ' ') gap.remove_suffix(1);
  static const char* const kJoins[] = {"-", "\xE2\x80\x93", "bis", "to", "und", "and", "oder", "or"};
  const bool joined = std::any_of(std::begin(kJoins), std::end(kJoins), [&](const char* j) { return gap == j; });
  return joined && carries(c, target, numbers, k + 1, true);  // (not "5 or £7": its own sign)
}

}  // namespace

std::vector<size_t> unpriced_numbers(std::string_view source, const ByteSpans& numbers, std::string_view target) {
  const ByteSpans have = find_numbers(target, "", true);
  std::vector<bool> taken(have.size(), false);  // the target amounts that were another's
  std::vector<size_t> missing;
  for (size_t k = 0; k < numbers.size(); ++k) {
    const Currency* c = currency_of(source, numbers[k].first, numbers[k].second);
    if (!c) continue;
    const std::string digits = digits_of(source.substr(numbers[k].first, numbers[k].second - numbers[k].first));
    // each amount needs its own sign or name where the target writes its digits; one written
    // otherwise ("fünf Dollar") needs the currency named somewhere
    bool written = false, priced = false;
    for (size_t t = 0; t < have.size() && !priced; ++t) {
      if (digits_of(target.substr(have[t].first, have[t].second - have[t].first)) != digits) continue;
      written = true;
      priced = !taken[t] && carries(*c, target, have, t);
      taken[t] = taken[t] || priced;  // ("$25, $25 and $25" -> "25, $25 und $25": one each)
    }
    if (written ? !priced : !names(*c, target)) missing.push_back(k);
  }
  return missing;
}

std::vector<std::pair<size_t, std::string>> currency_insertions(std::string_view source, const ByteSpans& numbers,
                                                               std::string_view target, std::string_view to,
                                                               size_t fixed) {
  std::vector<std::pair<size_t, std::string>> out;
  if (to != "en" && to != "de") return out;
  const std::vector<size_t> unpriced = unpriced_numbers(source, numbers, target);
  if (unpriced.empty()) return out;
  const ByteSpans have = find_numbers(target, "", true);
  std::vector<bool> used(have.size(), false);
  for (size_t k : unpriced) {
    const std::string digits = digits_of(source.substr(numbers[k].first, numbers[k].second - numbers[k].first));
    const Currency* c = currency_of(source, numbers[k].first, numbers[k].second);
    for (size_t t = 0; t < have.size(); ++t) {
      auto [b, e] = have[t];
      if (used[t] || b < fixed || digits_of(target.substr(b, e - b)) != digits || carries(*c, target, have, t)) continue;
      used[t] = true;
      const bool glued = is_letter(char_before(target, b));  // "kostet5,50": a space too
      const bool compound = e < target.size() && target[e] == '-';  // "230-a-share": before it
      if (to == "en" || compound) {
        // the second end of a range goes with the first: "15–20 €" -> "€15–20", not "15–€20"
        size_t gap = b;
        while (gap > 0 && target[gap - 1] == ' ') --gap;
        const size_t dash = gap >= 3 && target.compare(gap - 3, 3, "\xE2\x80\x93") == 0 ? 3 : gap >= 1 && target[gap - 1] == '-' ? 1 : 0;
        if (to == "en" && !glued && dash && t > 0 && b - gap <= 1) {
          size_t first_end = gap - dash;
          while (first_end > 0 && target[first_end - 1] == ' ') --first_end;
          if (have[t - 1].second == first_end && gap - dash - first_end <= 1 && !used[t - 1] && minus_sign_before(target, b) == 0) {
            // (where the first end has a sign, the range shares it: "€15–20")
            if (!currency_of(target, have[t - 1].first, have[t - 1].second)) out.emplace_back(have[t - 1].first, std::string(c->sign));
            break;
          }
        }
        out.emplace_back(b, std::string(glued ? " " : "") + std::string(c->sign));
        break;
      }
      if (glued) out.emplace_back(b, " ");
      size_t after = e;  // "225 Millionen $"
      for (std::string_view scale : {" Millionen", " Million", " Milliarden", " Milliarde", " Billionen", " Billion",
                                     " Mio.", " Mrd."})
        if (target.substr(e, scale.size()) == scale) {
          after = e + scale.size();
          break;
        }
      out.emplace_back(after, " " + std::string(c->sign));
      break;
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  return out;
}

std::vector<TextEdit> foreign_currencies(std::string_view source, const ByteSpans& numbers, std::string_view target,
                                         size_t fixed) {
  std::vector<TextEdit> edits;
  const ByteSpans have = find_numbers(target, "", true);
  std::vector<bool> used(have.size(), false);
  const auto foreign = [&](const Currency& c, const Currency& own) { return &c != &own && !names(c, source); };
  for (auto [sb, se] : numbers) {
    size_t scale_end = se;  // (the sign after a scale word: "1,2 Mrd. €", "225 Millionen $")
    if (magnitude(source, se, true) >= 1000) {
      scale_end = se + 1;
      while (scale_end < source.size() && (std::isalpha(static_cast<unsigned char>(source[scale_end])) || source[scale_end] == '.')) ++scale_end;
    }
    const Currency* own = currency_of(source, sb, se) ? currency_of(source, sb, se) : currency_of(source, sb, scale_end);
    if (!own) continue;
    const std::string digits = digits_of(source.substr(sb, se - sb));
    for (size_t t = 0; t < have.size(); ++t) {
      const auto [b, e] = have[t];
      if (used[t] || digits_of(target.substr(b, e - b)) != digits) continue;
      used[t] = true;
      if (b < fixed) break;
      // a sign right before the amount: another currency's becomes the source's ("$1.2 billion" for "1,2 Mrd. €")
      size_t before = b;
      if (before > 0 && target[before - 1] == ' ') --before;
      for (const Currency& c : currencies())
        if (foreign(c, *own) && before >= c.sign.size() && target.compare(before - c.sign.size(), c.sign.size(), c.sign) == 0 &&
            before - c.sign.size() >= fixed)
          edits.push_back({before - c.sign.size(), c.sign.size(), std::string(own->sign)});
      // a name after the amount (and its scale, and its own sign): another currency's goes ("2 Millionen £ Euro")
      size_t at = e, n = 0;
      const std::vector<std::string> after = lower_words(target.substr(e, 40));
      static const char* const kScales[] = {"million", "millionen", "milliarde", "milliarden", "billion", "billionen",
                                            "mio", "mrd", "thousand", "tausend", "bn"};
      if (!after.empty() && std::find_if(std::begin(kScales), std::end(kScales), [&](const char* w) { return after[0] == w; }) != std::end(kScales))
        n = 1;
      // the bytes of the word after the scale word (or the number), a sign of its own between allowed
      for (size_t k = 0; k <= n; ++k) {
        while (at < target.size() && target[at] == ' ') ++at;
        if (k == n) break;
        while (at < target.size() && (std::isalpha(static_cast<unsigned char>(target[at])) || target[at] == '.')) ++at;
      }
      if (target.compare(at, own->sign.size(), own->sign) == 0) {
        at += own->sign.size();
        while (at < target.size() && target[at] == ' ') ++at;
      }
      size_t word_end = at;
      while (word_end < target.size() && std::isalpha(static_cast<unsigned char>(target[word_end]))) ++word_end;
      std::string word(target.substr(at, word_end - at));
      for (char& ch : word) ch = char(std::tolower(static_cast<unsigned char>(ch)));
      for (const Currency& c : currencies())
        if (!word.empty() && foreign(c, *own) && std::find(c.names.begin(), c.names.end(), word) != c.names.end() &&
            at > 0 && target[at - 1] == ' ' && at - 1 >= fixed && (word_end == target.size() || !is_letter(char_at(target, word_end))))
          edits.push_back({at - 1, word_end - at + 1, ""});
      break;
    }
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& x, const TextEdit& y) { return x.at > y.at; });
  return edits;
}

bool adds_currency(std::string_view source, std::string_view target) {
  return std::any_of(currencies().begin(), currencies().end(),
                     [&](const Currency& c) { return names(c, target) && !names(c, source); });
}

std::string localize_numbers(std::string_view text, const ByteSpans& spans, std::string_view from, std::string_view to) {
  std::string out(text);
  const bool en_de = from == "en" && to == "de", de_en = from == "de" && to == "en";
  if (!en_de && !de_en) return out;
  const char thousands = en_de ? ',' : '.', decimal = en_de ? '.' : ',';
  for (auto [b, e] : spans) {
    if (e > out.size() || b >= e) continue;
    const std::string_view number = std::string_view(text).substr(b, e - b);
    if (number.find(' ') != std::string_view::npos) {  // "55 000": the target's thousands separator
      for (size_t k = b; k < e; ++k)
        if (out[k] == ' ') out[k] = decimal;
      continue;
    }
    if (!grouped(number, thousands, decimal) && !decimal_number(number, decimal)) continue;
    if (is_label(text, b, e, from)) continue;  // "Python 3.11" stays, "rose 3.5%" -> "3,5 %"
    if (clock_time(text, b, e)) continue;      // "at 9.00 a.m." -> "um 9.00 Uhr", not "9,00"
    for (size_t k = b; k < e; ++k)
      if (out[k] == thousands) out[k] = decimal;
      else if (out[k] == decimal) out[k] = thousands;
  }
  return out;
}

const char* english_ordinal_suffix(std::string_view digits) {
  const auto digit_from_end = [&](size_t k) {
    return k < digits.size() && digits[digits.size() - 1 - k] >= '0' && digits[digits.size() - 1 - k] <= '9'
               ? digits[digits.size() - 1 - k] - '0'
               : 0;
  };
  if (digit_from_end(1) == 1) return "th";  // "11th", "12th", "113th"
  const int last = digit_from_end(0);
  return last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
}

std::vector<TextEdit> english_ordinal_endings(std::string_view target, size_t fixed) {
  std::vector<TextEdit> edits;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  for (size_t i = 0; i + 2 < target.size(); ++i) {
    if (!digit(target[i]) || (i > 0 && (digit(target[i - 1]) || letter(target[i - 1])))) continue;
    size_t e = i;
    while (e < target.size() && digit(target[e])) ++e;
    const char* right = english_ordinal_suffix(target.substr(i, e - i));
    // an ending cut short ("his 3r victory" for "sein 3. Sieg"): "n" or "r" alone after the digits,
    // before a word (not "2n + 1")
    const bool cut = e + 2 < target.size() && (target[e] == 'n' || target[e] == 'r') && target[e] == right[0] &&
                     target[e + 1] == ' ' && letter(target[e + 2]) && e - i <= 9;
    if (cut && e >= fixed) {
      edits.push_back({e, 1, right});
      i = e;
      continue;
    }
    const std::string_view ending = target.substr(e, 2);
    const bool ordinal = ending == "st" || ending == "nd" || ending == "rd" || ending == "th";
    if (!ordinal || (e + 2 < target.size() && letter(target[e + 2])) || e - i > 9) {
      i = e;
      continue;
    }
    if (ending != right && e >= fixed) edits.push_back({e, 2, right});
    i = e;
  }
  std::reverse(edits.begin(), edits.end());  // last first, as the translator applies them
  return edits;
}

std::vector<TextEdit> approximate_marks(std::string_view source, std::string_view target, size_t fixed) {
  static constexpr std::string_view kSigns[] = {"$", "\xE2\x82\xAC", "\xC2\xA3", "\xC2\xA5"};  // $ € £ ¥
  // the number after a "~" at `at` of `text`: its [begin, end), or {0, 0}; `sign_at`: where a sign
  // between them begins (else the number's begin)
  const auto number_after = [](std::string_view text, size_t at, size_t& sign_at) -> std::pair<size_t, size_t> {
    size_t k = at + 1;
    if (k < text.size() && text[k] == ' ') ++k;
    sign_at = k;
    for (std::string_view sign : kSigns)
      if (text.compare(k, sign.size(), sign) == 0) {
        k += sign.size();
        break;
      }
    if (k >= text.size() || !digit(text[k])) return {0, 0};
    size_t e = k;
    while (e < text.size() && (digit(text[e]) || (separator(text[e]) && e + 1 < text.size() && digit(text[e + 1])))) ++e;
    return {k, e};
  };
  const auto spaced = [](std::string_view text, size_t at) {  // " ~ ": a "~" standing alone
    return at > 0 && text[at - 1] == ' ' && (at + 1 == text.size() || text[at + 1] == ' ');
  };
  std::vector<std::string> marked;  // the digits of the source's numbers after a "~"
  bool source_spaced = false;
  for (size_t at = source.find('~'); at != std::string_view::npos; at = source.find('~', at + 1)) {
    size_t sign_at = 0;
    const auto [b, e] = number_after(source, at, sign_at);
    if (b < e && (at == 0 || source[at - 1] == ' ' || source[at - 1] == '(')) marked.push_back(digits_of(source.substr(b, e - b)));
    else source_spaced |= spaced(source, at);
  }
  if (marked.empty()) return {};
  std::vector<TextEdit> edits;
  for (size_t at = target.find('~'); at != std::string_view::npos; at = target.find('~', at + 1)) {
    size_t sign_at = 0;
    const auto [b, e] = number_after(target, at, sign_at);
    if (b == e && at > fixed && spaced(target, at) && !source_spaced) edits.push_back({at - 1, 2, ""});  // "50 ~ Dollar"
  }
  const ByteSpans numbers = find_numbers(target, "", true);
  std::vector<bool> used(numbers.size(), false);
  for (const std::string& digits : marked)
    for (size_t t = 0; t < numbers.size(); ++t) {
      const auto [b, e] = numbers[t];
      if (used[t] || digits_of(target.substr(b, e - b)) != digits) continue;  // (one in a prefix counts, unchanged)
      used[t] = true;
      size_t start = b;  // before a sign written right before the number ("$50")
      for (std::string_view sign : kSigns)
        if (start >= sign.size() && target.compare(start - sign.size(), sign.size(), sign) == 0) {
          start -= sign.size();
          break;
        }
      const bool has_mark = (start >= 1 && target[start - 1] == '~') || (start >= 2 && target[start - 1] == ' ' && target[start - 2] == '~');
      if (!has_mark && start >= fixed) edits.push_back({start, 0, "~"});
      break;
    }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at > b.at; });  // last first
  return edits;
}

namespace {

// Whether the sentence speaks of a match or a game (where "2-3" is a score, not a range).
bool talks_of_a_match(std::string_view source) {
  static const char* const kWords[] = {
      "score", "scored", "won", "win", "wins", "beat", "beats", "lost", "lose", "loses", "draw", "drew", "match",
      "game", "final", "goal", "goals", "victory", "defeat", "half", "halftime", "led", "leads", "league", "cup",
      "spiel", "spiels", "gewann", "gewinnt", "siegte", "verlor", "verliert", "tor", "tore", "sieg", "niederlage",
      "endete", "halbzeit", "endstand", "stand", "unentschieden", "liga", "pokal", "finale", "führte", "führt"};
  for (const std::string& w : lower_words(source))
    for (const char* k : kWords)
      if (w == k) return true;
  return false;
}

// a >= b for two runs of ASCII digits of any length, compared as numbers without converting them
// (an en-dash range's ends are not bounded: "e0333…333–00" has a 24-digit one).
bool digits_at_least(std::string_view a, std::string_view b) {
  while (a.size() > 1 && a[0] == '0') a.remove_prefix(1);
  while (b.size() > 1 && b[0] == '0') b.remove_prefix(1);
  return a.size() != b.size() ? a.size() > b.size() : a >= b;
}

}  // namespace

std::vector<TextEdit> range_dashes(std::string_view source, std::string_view target, size_t fixed) {
  static constexpr std::string_view kEnDash = "\xE2\x80\x93";
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  // the source's ranges: "A", "B" and the dash between them
  struct Range {
    std::string a, b;
    std::string_view dash;
  };
  std::vector<Range> ranges;
  for (size_t at = 0; at < source.size(); ++at) {
    const std::string_view dash = source.compare(at, kEnDash.size(), kEnDash) == 0 ? kEnDash
                                  : source[at] == '-'                               ? std::string_view("-")
                                                                                    : std::string_view();
    if (dash.empty()) continue;
    size_t b = at, e = at + dash.size();
    while (b > 0 && digit(source[b - 1])) --b;
    while (e < source.size() && digit(source[e])) ++e;
    if (b == at || e == at + dash.size()) continue;
    // a hyphen inside a longer run is a code or a date, not a range ("555-0199-12", "2024-03-17")
    if (dash == "-" && ((b > 0 && (source[b - 1] == '-' || source[b - 1] == '.')) ||
                        (e < source.size() && source[e] == '-') || e - at - 1 > 3 || at - b > 3))
      continue;
    ranges.push_back({std::string(source.substr(b, at - b)), std::string(source.substr(at + dash.size(), e - at - dash.size())), dash});
  }
  std::vector<TextEdit> edits;
  const auto whole_at = [&](size_t at, size_t length) {  // no digit or separator and digit on either side
    const bool before = at > 0 && (digit(target[at - 1]) || (at > 1 && separator(target[at - 1]) && digit(target[at - 2])));
    const size_t end = at + length;
    const bool after = end < target.size() && (digit(target[end]) || (end + 1 < target.size() && separator(target[end]) && digit(target[end + 1])));
    return !before && !after && at >= fixed;
  };
  // two days written as one number ("3–5 May" -> "3.5. Mai", "3–5 hours" -> "3,5 Stunden"): the dash
  // goes back between them ("3.–5. Mai": a German range of days keeps both days' dots)
  for (const Range& r : ranges) {
    if (r.a.size() > 2 || r.b.size() > 2) continue;
    for (char written : {'.', ','}) {
      const std::string number = r.a + written + r.b;
      if (source.find(number) != std::string_view::npos) continue;
      for (size_t at = target.find(number); at != std::string_view::npos; at = target.find(number, at + 1)) {
        if (!whole_at(at, number.size())) continue;
        const size_t end = at + number.size();
        const bool days = written == '.' && end + 1 < target.size() && target[end] == '.' && target[end + 1] == ' ';
        edits.push_back({at + r.a.size(), 1, days ? "." + std::string(r.dash) : std::string(r.dash)});
      }
    }
  }
  // a range of years whose second the model wrote short ("2020–2021" -> "2020–21"): in full, as the
  // source writes it
  for (size_t at = 0; at < source.size(); ++at) {
    if (at > 0 && digit(source[at - 1])) continue;
    size_t e = at;
    while (e < source.size() && digit(source[e])) ++e;
    if (e - at != 4) continue;
    const std::string_view dash = source.compare(e, kEnDash.size(), kEnDash) == 0 ? kEnDash
                                  : e < source.size() && (source[e] == '-' || source[e] == '/') ? source.substr(e, 1)
                                                                                                : std::string_view();
    const size_t b = e + dash.size();
    if (dash.empty() || b + 4 > source.size() || (b + 4 < source.size() && digit(source[b + 4])) ||
        !std::all_of(source.begin() + long(b), source.begin() + long(b + 4), digit) || source.compare(at, 2, source, b, 2) != 0)
      continue;
    const std::string first(source.substr(at, 4)), second(source.substr(b, 4));
    for (std::string_view written : {kEnDash, std::string_view("-"), std::string_view("/")}) {
      const std::string short_range = first + std::string(written) + second.substr(2);
      for (size_t t = target.find(short_range); t != std::string_view::npos; t = target.find(short_range, t + 1))
        if (whole_at(t, short_range.size())) edits.push_back({t + short_range.size() - 2, 2, second});
    }
  }
  const bool sport = talks_of_a_match(source);
  for (const Range& r : ranges) {
    const auto fix = [&](char written) {  // the target's "A<written>B" -> "A<dash>B"
      const std::string range = r.a + written + r.b;
      if (written == ':' && source.find(range) != std::string_view::npos) return;  // the source's own "2:3"
      // a range goes up: "1-0" and "2-2" are scores, which German writes "1:0" (as it does any score
      // in a sentence about a match: "lost 1-3" -> "verlor 1:3")
      if (written == ':' && (sport || digits_at_least(r.a, r.b))) return;
      for (size_t at = target.find(range); at != std::string_view::npos; at = target.find(range, at + 1)) {
        const bool whole = (at == 0 || !digit(target[at - 1])) && (at + range.size() == target.size() || !digit(target[at + range.size()]));
        if (whole && at >= fixed) edits.push_back({at + r.a.size(), 1, std::string(r.dash)});
      }
    };
    if (r.dash == kEnDash) fix('-');
    fix(':');
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at > b.at; });  // last first
  edits.erase(std::unique(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at == b.at; }), edits.end());
  return edits;
}

void localize_copied_numbers(std::string_view source, const ByteSpans& numbers, std::string& target,
                             std::string_view from, std::string_view to, size_t fixed, const ByteSpans& keep) {
  const std::string written = localize_numbers(source, numbers, from, to);
  std::vector<std::pair<std::string, std::string_view>> forms;  // digits -> the target's way
  for (auto [b, e] : numbers) {
    const std::string_view number = source.substr(b, e - b);
    // the target's way differs, or it is the source's own and has a dot or comma that the model may
    // turn ("am 12.03." -> "on 12,03"; clock times are clock_times.h's), or it is a date, whose
    // order of day and month its separators say ("12/03/2024" is no "12.03.2024")
    if (written.compare(b, e - b, number) != 0 || number.find_first_of(".,") != std::string_view::npos || is_date(number))
      forms.emplace_back(digits_of(number), std::string_view(written).substr(b, e - b));
  }
  if (forms.empty()) return;
  for (const auto& span : find_numbers(target, "", true)) {
    const auto [b, e] = span;
    const auto kept = [&](const auto& k) { return span.first < k.second && k.first < span.second; };
    if (b < fixed || std::any_of(keep.begin(), keep.end(), kept)) continue;
    const std::string_view number = std::string_view(target).substr(b, e - b);
    const bool clock = number.find(':') != std::string_view::npos;  // "11.00 Uhr" -> "11:00": English's way
    for (const auto& [digits, as_target] : forms)
      if (number.size() == as_target.size() && number != as_target && digits_of(number) == digits &&
          !(clock && as_target.find(':') == std::string_view::npos)) {
        target.replace(b, e - b, as_target);
        break;
      }
  }
}

}  // namespace nmt
