// Clock times a translation must keep (clock_times.h).
#include "text/clock_times.h"

#include <algorithm>
#include <cctype>

#include "text/dates.h"
#include "text/numbers.h"
#include "text/utf8.h"

namespace nmt {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

char32_t char_at(std::string_view text, size_t at) {
  char32_t cp = 0;
  if (at < text.size()) decode_utf8(text, at, cp);
  return cp;
}

char32_t char_before(std::string_view text, size_t at) {
  size_t start = at;
  while (start > 0 && (static_cast<unsigned char>(text[--start]) & 0xC0) == 0x80) {
  }
  return at == 0 ? 0 : char_at(text, start);
}

// Words before an English clock time that make a bare number one ("at 6", "until 9").
bool is_preposition(const std::string& word) {
  for (std::string_view p : {"at", "from", "until", "till", "by", "around", "about", "before", "after", "since",
                             "between", "to"})
    if (word == p) return true;
  return false;
}

// The hour of a clock time "H" or "H:MM" / "H.MM" (1-2 digits), or -1.
int clock_hour(std::string_view number) {
  size_t n = 0;
  while (n < number.size() && digit(number[n])) ++n;
  const bool minutes = n < number.size();
  if (n == 0 || n > 2 || (minutes && !(number.size() == n + 3 && (number[n] == ':' || number[n] == '.')))) return -1;
  return std::stoi(std::string(number.substr(0, n)));
}

// Whether "a.m." / "p.m." (or "am" / "pm", any case, not inside a word) follows byte `end`.
bool marked(std::string_view text, size_t end, char letter) {
  if (end < text.size() && text[end] == ' ') ++end;
  if (end + 2 > text.size() || std::tolower(static_cast<unsigned char>(text[end])) != letter) return false;
  const char next = static_cast<char>(std::tolower(static_cast<unsigned char>(text[end + 1])));
  if (next == '.') return end + 3 < text.size() && std::tolower(static_cast<unsigned char>(text[end + 2])) == 'm';
  return next == 'm' && !is_letter(char_at(text, end + 2));
}


// A clock time as written: "19", "7:30", "20.15", "05.00" (an hour of 1-2 digits, and minutes).
struct Clock {
  int hour = -1, minute = 0;
  bool minutes = false;
};

Clock read_clock(std::string_view number) {
  Clock c;
  size_t n = 0;
  while (n < number.size() && digit(number[n])) ++n;
  if (n == 0 || n > 2) return c;
  if (n < number.size()) {
    if (!(number.size() == n + 3 && (number[n] == ':' || number[n] == '.') && digit(number[n + 1]) && digit(number[n + 2])))
      return c;
    c.minutes = true;
    c.minute = std::stoi(std::string(number.substr(n + 1)));
    if (c.minute > 59) return c;
  }
  c.hour = std::stoi(std::string(number.substr(0, n)));
  return c;
}

// What follows an English clock number: its mark and where the mark ends.
enum class Mark { none, am, pm, oclock, uhr };
struct MarkAfter {
  Mark mark = Mark::none;
  size_t end;
};

MarkAfter mark_after(std::string_view text, size_t end) {
  MarkAfter m{Mark::none, end};
  if (marked(text, end, 'a') || marked(text, end, 'p')) {
    size_t at = end + (text[end] == ' ' ? 1 : 0);
    m.mark = std::tolower(static_cast<unsigned char>(text[at])) == 'a' ? Mark::am : Mark::pm;
    if (text[at + 1] == '.') {  // "p.m." (or "p.m" before a space or the end)
      at += 3;
      if (at < text.size() && text[at] == '.') ++at;
    } else {  // "pm"
      at += 2;
    }
    m.end = at;
    return m;
  }
  for (auto [word, mark] : {std::pair<std::string_view, Mark>{" o'clock", Mark::oclock},
                            {" o\xE2\x80\x99" "clock", Mark::oclock}, {" clock", Mark::oclock},
                            {" Uhr", Mark::uhr}})
    if (text.substr(end, word.size()) == word && !is_letter(char_at(text, end + word.size()))) {
      m.mark = mark;
      m.end = end + word.size();
    }
  return m;
}

// The words of up to `bytes` bytes of `text` before byte `at` (cut at a character's start).
std::vector<std::string> words_before(std::string_view text, size_t at, size_t bytes) {
  size_t start = at > bytes ? at - bytes : 0;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  return lower_words(text.substr(start, at - start));
}

bool contains_any(const std::vector<std::string>& words, std::initializer_list<std::string_view> parts) {
  for (const std::string& w : words)
    for (std::string_view p : parts)
      if (w.find(p) != std::string::npos) return true;
  return false;
}

// A German clock time of the source and the half of the day it means.
struct GermanTime {
  int hour, minute;  // 0-23, on the 24-hour clock
  bool minutes;
  bool range_start;  // "von 14 bis 16 Uhr": this is 14
  bool evening_said;  // "um 8 Uhr abends", "Sonntagabend um 8 Uhr"
  bool pm() const { return hour >= 12 || evening_said; }
  int hour12() const { return hour % 12 == 0 ? 12 : hour % 12; }
};

// Where a range goes on after its first hour: " bis ", "-", " und " ("zwischen 11 und 18 Uhr").
size_t range_joint(std::string_view text, size_t at, std::initializer_list<std::string_view> joints) {
  for (std::string_view j : joints)
    if (text.substr(at, j.size()) == j) return j.size();
  return 0;
}

std::vector<GermanTime> german_times(std::string_view source, const ByteSpans& numbers) {
  std::vector<GermanTime> out(numbers.size(), GermanTime{-1, 0, false, false, false});
  for (size_t k = numbers.size(); k-- > 0;) {
    auto [b, e] = numbers[k];
    const Clock c = read_clock(source.substr(b, e - b));
    if (c.hour < 0 || c.hour > 23) continue;
    size_t after = e;
    const bool uhr = source.substr(e, 4) == " Uhr" && !is_letter(char_at(source, e + 4));
    if (uhr) after = e + 4;
    bool range_start = false;
    if (k + 1 < numbers.size() && out[k + 1].hour >= 0) {
      const size_t joint = range_joint(source, after, {" bis ", " - ", "-", " \xE2\x80\x93 ", "\xE2\x80\x93", " und "});
      range_start = joint > 0 && after + joint == numbers[k + 1].first;
    }
    if (!uhr && !range_start) continue;
    GermanTime t{c.hour, c.minute, c.minutes, range_start, false};
    if (c.hour >= 1 && c.hour <= 11) {
      // the time of day in words: two words after the time ("8 Uhr abends") or three before it
      std::vector<std::string> near = words_before(source, b, 40);
      if (near.size() > 3) near.erase(near.begin(), near.end() - 3);
      std::vector<std::string> next = lower_words(source.substr(after, 40));
      if (next.size() > 2) next.resize(2);
      near.insert(near.end(), next.begin(), next.end());
      t.evening_said = contains_any(near, {"abend", "nachmittag"}) ||
                       (c.hour >= 6 && contains_any(near, {"nacht"})) || (c.hour <= 4 && contains_any(near, {"mittag"}));
      if (range_start && out[k + 1].evening_said && c.hour <= out[k + 1].hour) t.evening_said = true;
    }
    out[k] = t;
  }
  return out;
}

// Whether the first words of `next` say the evening ("8 Uhr abends"): the hour is already right.
bool evening_said(std::string_view next) {
  const std::vector<std::string> words = lower_words(next);
  const std::vector<std::string> evening = {"abends", "nachmittags", "nachts", "pm", "p"};
  for (size_t w = 0; w < words.size() && w < 3; ++w)
    if (std::find(evening.begin(), evening.end(), words[w]) != evening.end()) return true;
  return false;
}

size_t utf8_length(std::string_view text, size_t at) {
  char32_t cp = 0;
  return decode_utf8(text, at, cp);
}

// Where the German word for `hour` (1-11) stands before " Uhr" in `target` ("um acht Uhr", "Acht
// Uhr"), after the first `fixed` bytes; npos if nowhere.
size_t hour_word_before_uhr(std::string_view target, int hour, size_t fixed) {
  static constexpr std::string_view kWords[] = {"", "ein", "zwei", "drei", "vier", "f\xC3\xBCnf", "sechs", "sieben",
                                                "acht", "neun", "zehn", "elf"};
  if (hour < 1 || hour > 11) return std::string_view::npos;
  const std::string_view word = kWords[hour];
  for (size_t at = fixed; at + word.size() <= target.size(); ++at) {
    const char first = target[at];
    if (std::tolower(static_cast<unsigned char>(first)) != word[0] || target.compare(at + 1, word.size() - 1, word.substr(1)) != 0)
      continue;
    if ((at > 0 && is_letter(char_before(target, at))) || target.compare(at + word.size(), 4, " Uhr") != 0) continue;
    if (at + word.size() + 4 < target.size() && is_letter(char_at(target, at + word.size() + 4))) continue;  // "Uhrzeit"
    return at;
  }
  return std::string_view::npos;
}


// The hour (1-12) a word or number at word `w` of `words` says ("acht", "8", "eight"), or 0.
int spoken_hour(const std::vector<std::string>& words, size_t w) {
  static constexpr std::string_view kGerman[] = {"", "eins", "zwei", "drei", "vier", "f\xC3\xBCnf", "sechs",
                                                 "sieben", "acht", "neun", "zehn", "elf", "zw\xC3\xB6lf"};
  static constexpr std::string_view kEnglish[] = {"", "one", "two", "three", "four", "five", "six", "seven",
                                                  "eight", "nine", "ten", "eleven", "twelve"};
  if (w >= words.size()) return 0;
  for (int h = 1; h <= 12; ++h)
    if (words[w] == kGerman[h] || words[w] == kEnglish[h] || (h == 1 && words[w] == "ein")) return h;
  return 0;
}

// Words of `text` (letters or digits, lower case) with where each starts.
std::vector<std::pair<std::string, size_t>> words_at(std::string_view text) {
  std::vector<std::pair<std::string, size_t>> out;
  for (size_t i = 0; i < text.size();) {
    const char32_t cp = char_at(text, i);
    const size_t length = utf8_length(text, i);
    if (is_letter(cp) || digit(text[i])) {
      if (i == 0 || !(is_letter(char_before(text, i)) || digit(text[i - 1]))) out.emplace_back("", i);
      for (size_t k = i; k < i + length; ++k) out.back().first += char(std::tolower(static_cast<unsigned char>(text[k])));
    }
    i += length;
  }
  return out;
}

int hour_of(const std::string& word) {  // "8", "acht", "eight": 1-12, else 0
  if (!word.empty() && word.size() <= 2 && std::all_of(word.begin(), word.end(), digit)) {
    const int h = std::stoi(word);
    return h >= 1 && h <= 12 ? h : 0;
  }
  return spoken_hour({word}, 0);
}

// The German "halb acht" (7:30), "Viertel nach acht" (8:15), "Viertel vor acht" / "dreiviertel acht"
// (7:45) in `source`: the time's hour (1-12) and minutes, if there is exactly one.
std::pair<int, int> german_spoken_time(std::string_view source) {
  const auto words = words_at(source);
  std::pair<int, int> found{0, 0};
  int count = 0;
  for (size_t w = 0; w + 1 < words.size(); ++w) {
    const std::string& a = words[w].first;
    const bool viertel = a == "viertel" && w + 2 < words.size();
    const int hour = hour_of(words[w + (viertel ? 2 : 1)].first);
    if (hour == 0) continue;
    const int before = hour == 1 ? 12 : hour - 1;
    if (a == "halb") found = {before, 30}, ++count;
    else if (a == "dreiviertel") found = {before, 45}, ++count;
    else if (viertel && words[w + 1].first == "nach") found = {hour, 15}, ++count;
    else if (viertel && words[w + 1].first == "vor") found = {before, 45}, ++count;
  }
  return count == 1 ? found : std::pair<int, int>{0, 0};
}
}  // namespace

std::vector<TextEdit> evening_hours(std::string_view source, std::string_view target, std::string_view from,
                                    std::string_view to, size_t fixed) {
  std::vector<TextEdit> out;
  if (from != "en" || to != "de") return out;
  // the source's p.m. hours 1-11 ("6 p.m.", "7:30pm", "11 PM"), and the first hour of a range
  // that ends in one ("from 1 to 2 pm")
  const ByteSpans numbers = find_numbers(source, "", true);
  std::vector<bool> pm(numbers.size(), false), ranged(numbers.size(), false);
  for (size_t k = numbers.size(); k-- > 0;) {
    auto [b, e] = numbers[k];
    const int hour = clock_hour(source.substr(b, e - b));
    if (hour < 1 || hour > 11) continue;
    if (marked(source, e, 'p')) {
      pm[k] = true;
    } else if (!marked(source, e, 'a') && k + 1 < numbers.size() && pm[k + 1] &&
               hour <= clock_hour(source.substr(numbers[k + 1].first, numbers[k + 1].second - numbers[k + 1].first))) {
      const std::string_view between = source.substr(e, numbers[k + 1].first - e);
      for (std::string_view joint : {" to ", "-", " - ", "\xE2\x80\x93", " \xE2\x80\x93 ", " and "})
        if (between == joint) pm[k] = ranged[k] = true;
    }
  }
  const ByteSpans have = find_numbers(target, "", true);
  std::vector<bool> used(have.size(), false);
  std::vector<size_t> words_used;  // the hours written as words that were rewritten
  // where the source says one hour more than once, each with a.m. or p.m. ("at 8 am and 8 pm"), and the target writes it as
  // often, in digits or words ("um 8 Uhr und ... um acht Uhr"), the p.m. one is the target's in the
  // same place: not the first the target has
  const auto target_words = words_at(target);
  const auto same_place = [&](size_t k, std::string_view number) -> std::pair<long, size_t> {  // (have index or -1, word start)
    size_t nth = 0, count = 0;
    for (size_t j = 0; j < numbers.size(); ++j) {
      if (source.substr(numbers[j].first, numbers[j].second - numbers[j].first) != number) continue;
      if (!marked(source, numbers[j].second, 'a') && !marked(source, numbers[j].second, 'p')) return {-2, 0};  // ("6 PM on 6 March")
      count += 1, nth += j < k;
    }
    std::vector<std::pair<size_t, long>> places;  // (byte, have index or -1 for a word)
    for (size_t t = 0; t < have.size(); ++t)
      if (target.substr(have[t].first, have[t].second - have[t].first) == number) places.emplace_back(have[t].first, long(t));
    for (const auto& [word, at] : target_words)
      if (!digit(word[0]) && spoken_hour({word}, 0) == clock_hour(number)) places.emplace_back(at, -1);
    if (count < 2 || places.size() != count) return {-2, 0};
    std::sort(places.begin(), places.end());
    return {places[nth].second, places[nth].first};
  };
  for (size_t k = 0; k < numbers.size(); ++k) {
    if (!pm[k]) continue;
    const std::string_view number = source.substr(numbers[k].first, numbers[k].second - numbers[k].first);
    // written 12 up already ("at 8 am and 8 pm" -> "um 8 Uhr und 20 Uhr"): not another one too
    const std::string evening = std::to_string(clock_hour(number) + 12) + std::string(number.substr(std::min(number.find_first_not_of("0123456789"), number.size())));
    if (std::any_of(have.begin(), have.end(), [&](const auto& n) { return target.substr(n.first, n.second - n.first) == evening; }) &&
        source.find(evening) == std::string_view::npos)
      continue;
    if (const auto [t, word_at] = same_place(k, number); t != -2 && number.find_first_not_of("0123456789") == std::string_view::npos) {
      if (t >= 0 && !used[size_t(t)]) {
        used[size_t(t)] = true;
        const auto [tb, te] = have[size_t(t)];
        const std::string_view next = target.substr(te, 32);
        if (tb >= fixed && next.rfind(" Uhr", 0) == 0 && !evening_said(next))
          out.push_back({tb, te - tb, std::to_string(clock_hour(number) + 12)});
      } else if (t == -1 && word_at >= fixed && std::find(words_used.begin(), words_used.end(), word_at) == words_used.end()) {
        words_used.push_back(word_at);
        size_t end = word_at;
        while (end < target.size() && is_letter(char_at(target, end))) end += utf8_length(target, end);
        const bool uhr = target.compare(end, 4, " Uhr") == 0 && !is_letter(char_at(target, end + 4));
        const std::vector<std::string> next = uhr ? lower_words(target.substr(end + 4, 24)) : std::vector<std::string>{};
        const bool morning = !next.empty() && (next[0] == "morgens" || next[0] == "vormittags" || next[0] == "fr\xC3\xBCh");
        if (uhr && !evening_said(target.substr(end, 32)) && !morning)
          out.push_back({word_at, end - word_at, std::to_string(clock_hour(number) + 12)});
      }
      continue;
    }
    const bool digits_written = std::any_of(have.begin(), have.end(), [&](const auto& n) {
      return digits_of(target.substr(n.first, n.second - n.first)) == digits_of(number);
    });
    if (!digits_written && number.find_first_not_of("0123456789") == std::string_view::npos) {
      // the hour written as a word ("at 8 pm" -> "um acht Uhr"): its digits, 12 up ("um 20 Uhr")
      if (const size_t at = hour_word_before_uhr(target, clock_hour(number), fixed);
          at != std::string_view::npos && std::find(words_used.begin(), words_used.end(), at) == words_used.end()) {
        size_t end = at;
        while (end < target.size() && is_letter(char_at(target, end))) end += utf8_length(target, end);
        words_used.push_back(at);
        const std::vector<std::string> next = lower_words(target.substr(end + 4, 24));  // (after " Uhr")
        const bool morning = !next.empty() && (next[0] == "morgens" || next[0] == "vormittags" || next[0] == "fr\xC3\xBCh");
        if (!evening_said(target.substr(end, 32)) && !morning)
          out.push_back({at, end - at, std::to_string(clock_hour(number) + 12)});
      }
      continue;
    }
    for (size_t t = 0; t < have.size(); ++t) {
      auto [tb, te] = have[t];
      if (used[t] || tb < fixed || digits_of(target.substr(tb, te - tb)) != digits_of(number)) continue;
      const std::string_view written = target.substr(tb, te - tb);
      const bool with_minutes = written.size() > 2 && (written[written.size() - 3] == ':' || written[written.size() - 3] == '.');
      const std::string_view next = target.substr(te, 32);
      // a time, not "6 Personen": " Uhr" or minutes, or the start of the range ("von 1 bis 2 Uhr")
      const bool range_start = ranged[k] && (next.rfind(" bis ", 0) == 0 || next.rfind("-", 0) == 0 ||
                                             next.rfind(" - ", 0) == 0 || next.rfind(" und ", 0) == 0 ||
                                             next.rfind("\xE2\x80\x93", 0) == 0);
      if (!with_minutes && !range_start && next.rfind(" Uhr", 0) != 0) continue;
      used[t] = true;
      if (!evening_said(next)) {
        std::string hour = std::to_string(clock_hour(number) + 12);
        // minutes the model wrote otherwise ("3:45 pm" -> "3,45 Uhr") come back as the source writes them
        const std::string_view minutes = number.substr(std::min(number.find_first_not_of("0123456789"), number.size()));
        if (!with_minutes && !minutes.empty() && digits_of(minutes) != "00") hour += minutes;
        out.push_back({tb, written.size() - (with_minutes ? 3 : 0), hour});
      }
      break;
    }
  }
  // "half past seven" is 7:30, which German says "halb acht": the model wrote "halb sieben"
  const auto source_words = words_at(source);
  for (size_t w = 0; w + 1 < source_words.size(); ++w) {
    if (source_words[w].first != "half") continue;
    const size_t at_hour = w + (source_words[w + 1].first == "past" ? 2 : 1);
    const int hour = at_hour < source_words.size() ? hour_of(source_words[at_hour].first) : 0;
    if (hour == 0) continue;
    for (size_t t = 0; t + 1 < target_words.size(); ++t) {
      if (target_words[t].first != "halb" || hour_of(target_words[t + 1].first) != hour || target_words[t + 1].second < fixed) continue;
      static constexpr std::string_view kHours[] = {"", "eins", "zwei", "drei", "vier", "f\xC3\xBCnf", "sechs",
                                                    "sieben", "acht", "neun", "zehn", "elf", "zw\xC3\xB6lf"};
      const int next = hour % 12 + 1;
      const std::string& written = target_words[t + 1].first;
      const bool in_digits = digit(written[0]);
      size_t length = 0;  // the word's bytes as written
      for (size_t k = target_words[t + 1].second; k < target.size() && (is_letter(char_at(target, k)) || digit(target[k]));)
        length += utf8_length(target, k), k += utf8_length(target, k);
      out.push_back({target_words[t + 1].second, length, in_digits ? std::to_string(next) : std::string(kHours[next])});
      break;
    }
  }
  // "at 9.30 a.m." came out "um 21.30 Uhr": a morning hour the model put 12 up goes back
  const auto hour_digits = [](std::string_view number) { return std::min(number.find_first_not_of("0123456789"), number.size()); };
  for (auto [b, e] : numbers) {
    const std::string_view number = source.substr(b, e - b);
    const int hour = clock_hour(number);
    if (hour < 1 || hour > 11 || !marked(source, e, 'a')) continue;
    const bool also_pm = std::any_of(numbers.begin(), numbers.end(), [&](const std::pair<size_t, size_t>& n) {
      return clock_hour(source.substr(n.first, n.second - n.first)) == hour && marked(source, n.second, 'p');
    });
    if (also_pm) continue;
    for (auto [tb, te] : have) {
      const std::string_view written = target.substr(tb, te - tb);
      const bool same_minutes = digits_of(written.substr(hour_digits(written))) == digits_of(number.substr(hour_digits(number)));
      if (tb < fixed || clock_hour(written) != hour + 12 || !same_minutes) continue;
      const std::string_view next = target.substr(te, 32);
      const bool time = next.rfind(" Uhr", 0) == 0 || next.rfind(" bis ", 0) == 0 || next.rfind("-", 0) == 0 ||
                        next.rfind("\xE2\x80\x93", 0) == 0;
      if (hour_digits(written) == written.size() && !time) continue;  // "21 Personen"
      if (!evening_said(next)) out.push_back({tb, hour_digits(written), std::to_string(hour)});
      break;
    }
  }
  // "at 4.15 p.m." came out "um Uhr 4.15" (the retry's copy after the word): "Uhr" goes after the time
  for (auto [tb, te] : have) {
    if (tb < fixed + 4 || target.compare(tb - 4, 4, "Uhr ") != 0 || clock_hour(target.substr(tb, te - tb)) < 0 ||
        target.compare(te, 4, " Uhr") == 0)
      continue;
    size_t word = tb - 5;  // the word before "Uhr": a preposition of time
    if (tb < 6 || target[word] != ' ') continue;
    while (word > 0 && target[word - 1] != ' ') --word;
    const std::string_view before = target.substr(word, tb - 5 - word);
    if (before != "um" && before != "gegen" && before != "ab" && before != "bis" && before != "von") continue;
    out.push_back({tb - 4, 4, ""});
    out.push_back({te, 0, " Uhr"});
  }
  std::sort(out.begin(), out.end(), [](const TextEdit& x, const TextEdit& y) { return x.at > y.at; });
  out.erase(std::unique(out.begin(), out.end(), [](const TextEdit& x, const TextEdit& y) { return x.at == y.at; }), out.end());
  return out;
}


std::vector<TextEdit> english_clock_times(std::string_view source, std::string_view target, std::string_view from,
                                          std::string_view to, size_t fixed) {
  std::vector<TextEdit> out;
  if (from != "de" || to != "en") return out;
  const ByteSpans numbers = find_numbers(source, "", true);
  const std::vector<GermanTime> times = german_times(source, numbers);
  const ByteSpans have = find_numbers(target, "", true);
  std::vector<bool> used(have.size(), false), time_done(times.size(), false);
  // "am 3. Oktober um 15:30 Uhr" came out "on October 3:30 p.m.", "am 5. Oktober ..." "October 5:30":
  // the date's day and the time's minutes made one number right after the month's name; it becomes
  // the day, then the time ("October 3 at 3:30 p.m.")
  for (const NamedDate& date : find_named_dates(source, "de")) {
    if (date.last_day != 0) continue;
    NamedDate day_only = date;
    day_only.year = 0;
    const std::string month = write_named_date(day_only, "en").substr(0, write_named_date(day_only, "en").find(' ')) + " ";
    for (size_t t = 0; t < have.size(); ++t) {
      auto [tb, te] = have[t];
      const Clock c = read_clock(target.substr(tb, te - tb));
      if (used[t] || tb < fixed + month.size() || c.hour != date.day || !c.minutes ||
          target.compare(tb - month.size(), month.size(), month) != 0)
        continue;
      const auto time = std::find_if(times.begin(), times.end(), [&](const GermanTime& g) {
        return g.hour >= 0 && g.minutes && !g.range_start && g.minute == c.minute;
      });
      if (time == times.end() || time_done[size_t(time - times.begin())]) continue;
      const MarkAfter m = mark_after(target, te);
      std::string written = std::to_string(date.day) + " at " + std::to_string(time->hour12()) + ":" +
                            (time->minute < 10 ? "0" : "") + std::to_string(time->minute) + (time->pm() ? " p.m." : " a.m.");
      if (m.end < target.size() && target[m.end] == '.') written.pop_back();  // the sentence's full stop ends it
      out.push_back({tb, m.end - tb, written});
      used[t] = true;
      time_done[size_t(time - times.begin())] = true;
      break;
    }
  }
  size_t range_end_at = std::string_view::npos;  // where the target's range goes on ("9 a.m.-18")
  for (size_t k = 0; k < times.size(); ++k) {
    const GermanTime& time = times[k];
    if (time.hour < 0 || time_done[k]) continue;
    for (size_t t = 0; t < have.size(); ++t) {
      auto [tb, te] = have[t];
      if (used[t] || tb < fixed) continue;
      const Clock c = read_clock(target.substr(tb, te - tb));
      const bool same_minutes = c.minutes ? c.minute == time.minute : time.minute == 0;
      if (c.hour < 0 || !same_minutes || (c.hour != time.hour && c.hour != time.hour12())) continue;
      const MarkAfter m = mark_after(target, te);
      const size_t range = time.range_start ? range_joint(target, m.end, {" to ", " - ", "-", " \xE2\x80\x93 ",
                                                                         "\xE2\x80\x93", " and ", " until ", " till "})
                                            : 0;
      const std::vector<std::string> before = words_before(target, tb, 12);
      const bool after_preposition = tb > 0 && target[tb - 1] == ' ' && !before.empty() && is_preposition(before.back());
      // a time, not "6 people"
      if (m.mark == Mark::none && !c.minutes && range == 0 && !after_preposition && tb != range_end_at) continue;
      used[t] = true;
      range_end_at = range > 0 ? m.end + range : std::string_view::npos;
      // "2 to 4 p.m.": the first hour of a range in the same half as its end has no mark of its own;
      // "11 a.m. to 6 p.m." needs both
      const bool ranged = range > 0 && k + 1 < times.size() && times[k + 1].hour >= 0;
      const bool mark = !(ranged && times[k + 1].pm() == time.pm());
      // as written in the German way, without a mark ("at 9:30", "at 7 o'clock"): it says the same
      const bool evening_in_words =
          contains_any(lower_words(target.substr(m.end, 24)), {"evening", "afternoon", "night", "tonight"});
      const bool twelve_hour_reading = c.hour == time.hour12() && (time.hour == c.hour || evening_in_words);
      if ((m.mark == Mark::none || m.mark == Mark::oclock) && twelve_hour_reading && !(ranged && mark)) break;
      std::string written = std::to_string(time.hour12());
      if (c.minutes) written += ":" + std::string(time.minute < 10 ? "0" : "") + std::to_string(time.minute);
      size_t end = te;
      if (mark) {
        written += time.pm() ? " p.m." : " a.m.";
        end = m.end;
        if (end < target.size() && target[end] == '.') written.pop_back();  // the sentence's full stop ends it
      } else if (m.mark != Mark::none) {
        end = m.end;
      }
      if (target.substr(tb, end - tb) != written) out.push_back({tb, end - tb, written});
      break;
    }
  }
  // "um 4.15 Uhr" came out "at 4.15 2:30" (the retry's copy beside the model's own time): a clock
  // time right after one of the source's, one space between, that the source never says, goes
  for (size_t t = 0; t + 1 < have.size(); ++t) {
    const Clock c = read_clock(target.substr(have[t].first, have[t].second - have[t].first));
    const auto [nb, ne] = have[t + 1];
    const Clock next = read_clock(target.substr(nb, ne - nb));
    if (c.hour < 0 || !c.minutes || next.hour < 0 || !next.minutes) continue;
    const MarkAfter m = mark_after(target, have[t].second);
    if (m.end + 1 != nb || target[m.end] != ' ' || m.end < fixed) continue;
    const auto says = [&](const Clock& clock) {
      return std::any_of(times.begin(), times.end(), [&](const GermanTime& g) {
        return g.hour >= 0 && g.minute == clock.minute && (g.hour == clock.hour || g.hour12() == clock.hour);
      });
    };
    const std::string next_digits = digits_of(target.substr(nb, ne - nb));
    const bool said = std::any_of(numbers.begin(), numbers.end(), [&](const std::pair<size_t, size_t>& n) {
      return digits_of(source.substr(n.first, n.second - n.first)) == next_digits;
    });
    if (!says(c) || says(next) || said) continue;
    const size_t end = mark_after(target, ne).end;
    out.push_back({m.end, end - m.end, ""});
    ++t;
  }
  // "halb acht" is 7:30: the model wrote "2:30"; the one time with those minutes gets the hour
  const auto [hour, minute] = german_spoken_time(source);
  if (hour != 0 && out.empty()) {
    size_t count = 0, at = 0, length = 0;
    for (auto [tb, te] : have) {
      const Clock c = read_clock(target.substr(tb, te - tb));
      if (c.hour < 0 || !c.minutes || c.minute != minute) continue;
      ++count;
      at = tb;
      length = target.substr(tb, te - tb).find_first_of(":.");
      if (c.hour == hour || c.hour == hour + 12 || (hour == 12 && c.hour == 0)) count = 99;  // right already
    }
    if (count == 1 && at >= fixed) out.push_back({at, length, std::to_string(hour)});
  }
  std::sort(out.begin(), out.end(), [](const TextEdit& x, const TextEdit& y) { return x.at > y.at; });
  return out;
}

}  // namespace nmt
