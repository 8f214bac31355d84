// Dates with a month's name (see dates.h): found by the month's name, then a day beside it.
#include "text/dates.h"

#include <algorithm>
#include <cstring>

namespace nmt {

namespace {

struct MonthName {
  const char* name;
  int month;
};

// The twelve full names first, in order (write_named_date), then other spellings and short forms
// ("Sept." before "Sep.").
constexpr MonthName kEnglishMonths[] = {
    {"January", 1}, {"February", 2}, {"March", 3}, {"April", 4}, {"May", 5}, {"June", 6}, {"July", 7},
    {"August", 8}, {"September", 9}, {"October", 10}, {"November", 11}, {"December", 12},
    {"Jan.", 1}, {"Feb.", 2}, {"Mar.", 3}, {"Apr.", 4}, {"Jun.", 6}, {"Jul.", 7}, {"Aug.", 8},
    {"Sept.", 9}, {"Sep.", 9}, {"Oct.", 10}, {"Nov.", 11}, {"Dec.", 12},
};
constexpr MonthName kGermanMonths[] = {
    {"Januar", 1}, {"Februar", 2}, {"M\xC3\xA4rz", 3}, {"April", 4}, {"Mai", 5},
    {"Juni", 6}, {"Juli", 7}, {"August", 8}, {"September", 9}, {"Oktober", 10}, {"November", 11},
    {"Dezember", 12}, {"J\xC3\xA4nner", 1}, {"Jan.", 1}, {"Feb.", 2}, {"M\xC3\xA4r.", 3}, {"Apr.", 4}, {"Jun.", 6}, {"Jul.", 7},
    {"Aug.", 8}, {"Sept.", 9}, {"Sep.", 9}, {"Okt.", 10}, {"Nov.", 11}, {"Dez.", 12},
};

bool german(std::string_view language) { return language.substr(0, 2) == "de"; }

bool is_digit_at(std::string_view s, size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }
// An ASCII letter, or a byte of a multi-byte character (ä, é: letters of a word here).
bool is_letter_byte(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u >= 0x80;
}
bool word_char_at(std::string_view s, size_t i) { return i < s.size() && (is_letter_byte(s[i]) || is_digit_at(s, i)); }

// A month's name starting at `at` as a word of its own: its length (0 if none) and its month.
size_t month_at(std::string_view text, size_t at, bool de, int& month) {
  if (at > 0 && word_char_at(text, at - 1)) return 0;
  const MonthName* list = de ? kGermanMonths : kEnglishMonths;
  const size_t count = de ? std::size(kGermanMonths) : std::size(kEnglishMonths);
  for (size_t k = 0; k < count; ++k) {
    const size_t n = std::strlen(list[k].name);
    if (text.compare(at, n, list[k].name) != 0) continue;
    if (list[k].name[n - 1] != '.' && word_char_at(text, at + n)) continue;  // "Maine", "Junior"
    month = list[k].month;
    return n;
  }
  return 0;
}

constexpr std::string_view kEnDash = "\xE2\x80\x93";
bool en_dash_at(std::string_view text, size_t at) { return text.compare(at, kEnDash.size(), kEnDash) == 0; }

// English ordinal suffixes after a day: "3rd", "21st" ("3rd–5th").
size_t ordinal_suffix(std::string_view text, size_t at) {
  for (const char* s : {"st", "nd", "rd", "th"})
    if (text.compare(at, 2, s) == 0 && (!word_char_at(text, at + 2) || en_dash_at(text, at + 2))) return 2;
  return 0;
}

// A day (1-31, one or two digits, no digit on either side; an en dash may: "3–5") at `at`: its
// value and length, else 0.
int day_at(std::string_view text, size_t at, size_t& length) {
  const bool dash_before = at >= kEnDash.size() && en_dash_at(text, at - kEnDash.size());
  if (!is_digit_at(text, at) ||
      (at > 0 && !dash_before && (word_char_at(text, at - 1) || text[at - 1] == '.' || text[at - 1] == ',')))
    return 0;
  size_t n = is_digit_at(text, at + 1) ? 2 : 1;
  const bool time_or_decimal = at + n < text.size() && (text[at + n] == ':' || text[at + n] == '.' || text[at + n] == ',') &&
                               is_digit_at(text, at + n + 1);  // "October 3:30 p.m.", "May 3.5"
  if (is_digit_at(text, at + n) || time_or_decimal ||
      (word_char_at(text, at + n) && !en_dash_at(text, at + n) && ordinal_suffix(text, at + n) == 0))
    return 0;  // "4x"
  const int day = n == 1 ? text[at] - '0' : (text[at] - '0') * 10 + (text[at + 1] - '0');
  if (day < 1 || day > 31) return 0;
  length = n;
  return day;
}

size_t spaces(std::string_view text, size_t at) {
  size_t n = 0;
  while (at + n < text.size() && text[at + n] == ' ') ++n;
  return n;
}

// A year after a date: " 2023" or ", 2023" (1000-2999, four digits alone): its length, else 0.
size_t year_after(std::string_view text, size_t at, int& year) {
  size_t i = at;
  if (i < text.size() && text[i] == ',') ++i;
  const size_t s = spaces(text, i);
  if (s == 0) return 0;
  i += s;
  if (!is_digit_at(text, i) || !is_digit_at(text, i + 3) || is_digit_at(text, i + 4) || word_char_at(text, i + 4)) return 0;
  for (size_t k = 0; k < 4; ++k)
    if (!is_digit_at(text, i + k)) return 0;
  const int y = std::stoi(std::string(text.substr(i, 4)));
  if (y < 1000 || y > 2999) return 0;
  year = y;
  return i + 4 - at;
}

// The length of the dash that joins a range of days at `at` ("–", "-"; German also " bis "), else 0.
size_t range_join(std::string_view text, size_t at, bool de) {
  if (en_dash_at(text, at)) return kEnDash.size();
  if (at < text.size() && text[at] == '-') return 1;
  return de && text.compare(at, 5, " bis ") == 0 ? 5 : 0;
}

// The first day of a range whose last day `last` starts at `at` ("3–5", German "3.–5.", "3. bis 5."):
// where it starts (not before `floor`) and its value, else 0.
int first_day_before(std::string_view text, size_t at, size_t floor, bool de, int last, size_t& start) {
  for (size_t join : {size_t(1), kEnDash.size(), size_t(5)}) {
    if (at < join + 2 || range_join(text, at - join, de) != join) continue;
    size_t e = at - join;
    if (de && e > 0 && text[e - 1] == '.') --e;
    else if (de && join == 5) continue;  // "3. bis 5."
    for (size_t b : {e - 1, e >= 2 ? e - 2 : e - 1}) {
      size_t length = 0;
      const int day = b >= floor ? day_at(text, b, length) : 0;
      if (day != 0 && b + length == e && day < last) {
        start = b;
        return day;
      }
    }
  }
  return 0;
}

// The first of two days joined by "and" / "und" whose second `last` starts at `at` ("2 and 3",
// "2nd and 3rd", German "2. und 3."): where it starts (not before `floor`) and its value, else 0.
// English may put a comma before "and" where a list leads up to the two ("1, 2, and 3"): `comma`
// says it did.
int first_of_two_days(std::string_view text, size_t at, size_t floor, bool de, int last, size_t& start, bool& comma) {
  const std::string_view join = de ? " und " : " and ";
  comma = false;
  if (at < join.size() + 1 || text.compare(at - join.size(), join.size(), join) != 0) return 0;
  size_t e = at - join.size();
  if (!de && e >= 2 && text[e - 1] == ',') {
    --e;
    comma = true;
  }
  if (de) {
    if (text[e - 1] != '.') return 0;
    --e;
  } else if (e >= 2 && ordinal_suffix(text, e - 2)) {
    e -= 2;
  }
  for (size_t b : {e - 1, e >= 2 ? e - 2 : e - 1}) {
    size_t length = 0;
    const int day = b >= floor && b < e ? day_at(text, b, length) : 0;
    if (day != 0 && b + length == e && day < last) {
      start = b;
      return day;
    }
  }
  return 0;
}

// Where a month's name may start after a day that ends at `e`: past German's '.' or an English
// ordinal suffix, then spaces and an English "of " ("3. Oktober", "3rd of October"); npos where a
// German day lacks its '.'.
size_t end_of_day(std::string_view target, size_t e, bool de) {
  if (de) {
    if (e >= target.size() || target[e] != '.') return std::string_view::npos;
    ++e;
  } else {
    e += ordinal_suffix(target, e);
  }
  e += spaces(target, e);
  if (!de && target.compare(e, 3, "of ") == 0) e += 3;
  return e;
}

// The days of a list joined by ", " that end right before byte `at` ("1., " of "1., 2. und 3. Mai";
// "1, " or "1st, " in English), each lower than the next, not before `floor`: in order, with where
// the first starts (`start`; `at` when none).
std::vector<int> days_listed_before(std::string_view text, size_t at, size_t floor, bool de, int next, size_t& start) {
  std::vector<int> days;
  start = at;
  while (start >= floor + 3 && text.compare(start - 2, 2, ", ") == 0) {
    size_t e = start - 2;
    if (de) {
      if (text[e - 1] != '.') break;
      --e;
    } else if (e >= 3 && ordinal_suffix(text, e - 2)) {
      e -= 2;
    }
    int day = 0;
    size_t b = e;
    for (size_t from : {e - 1, e >= 2 ? e - 2 : e - 1}) {
      size_t length = 0;
      const int d = from >= floor && from < e ? day_at(text, from, length) : 0;
      if (d != 0 && from + length == e && d < next) {
        day = d, b = from;
        break;
      }
    }
    if (day == 0) break;
    days.insert(days.begin(), day);
    next = day;
    start = b;
  }
  return days;
}

// Whether what follows an English "June 2 and 3" at `at` lets it be two days ("and 3 people" is no
// day): the end, a mark, a year, or a word that begins no noun phrase of its own.
bool ends_two_days(std::string_view text, size_t at) {
  if (at >= text.size() || text[at] != ' ') return !word_char_at(text, at);
  if (!word_char_at(text, at + 1)) return true;
  size_t e = at + 1;
  while (e < text.size() && is_letter_byte(text[e])) ++e;
  const std::string_view word = text.substr(at + 1, e - at - 1);
  for (const char* w : {"in", "at", "and", "or", "from", "to", "for", "on", "this", "next", "last", "only", "will", "were", "are", "is", "was"})
    if (word == w) return true;
  return false;
}

// Whether `target` writes the two days of `date` joined next to the month's name: "June 2 and 3",
// "2 and 3 June", "2nd and 3rd of June", German "2. und 3. Juni".
bool two_days_joined(std::string_view target, const NamedDate& date, bool de) {
  const std::string_view join = de ? " und " : " and ";
  for (size_t p = target.find(join); p != std::string_view::npos; p = target.find(join, p + 1)) {
    size_t second = p + join.size(), length = 0, first_start = 0;
    bool comma = false;
    if (day_at(target, second, length) != date.last_day) continue;
    if (first_of_two_days(target, second, 0, de, date.last_day, first_start, comma) != date.day) continue;
    if (comma && date.listed.empty()) continue;  // ("2, and 3 May" joins no list)
    if (!date.listed.empty()) {  // "1, 2 and 3": the list's days right before
      size_t list_start = 0;
      if (days_listed_before(target, first_start, 0, de, date.day, list_start) != date.listed) continue;
      first_start = list_start;
    }
    const size_t m = end_of_day(target, second + length, de);
    if (m == std::string_view::npos) continue;
    int month = 0;
    if (target[m - 1] == ' ' && month_at(target, m, de, month) && month == date.month) return true;
    if (de || first_start < 2 || target[first_start - 1] != ' ') continue;
    for (size_t n = 3; n <= 10 && n + 1 <= first_start; ++n)
      if (month_at(target, first_start - 1 - n, false, month) == n && month == date.month) return true;
  }
  return false;
}

}  // namespace

std::vector<NamedDate> find_named_dates(std::string_view text, std::string_view language) {
  const bool de = german(language);
  std::vector<NamedDate> out;
  for (size_t at = 0; at < text.size(); ++at) {
    if (!out.empty() && at < out.back().end) continue;
    int month = 0;
    const size_t name = month_at(text, at, de, month);
    if (name == 0) continue;
    const size_t after = at + name;
    NamedDate d;
    d.month = month;
    size_t length = 0;
    // A day before the name: "3. Oktober" (German), "3 October" / "3rd October" (English), not
    // one that ends the date before ("Feb. 30 Sept. 30").
    const size_t floor = out.empty() ? 0 : out.back().end;
    size_t start = at;
    if (de) {
      if (at >= 3 && text[at - 1] == ' ' && text[at - 2] == '.') {
        const size_t b = at >= 4 && is_digit_at(text, at - 4) ? at - 4 : at - 3;
        if (b >= floor && (d.day = day_at(text, b, length)) != 0 && b + length == at - 2) start = b;
        else d.day = 0;
      }
    } else {
      for (size_t b = std::max(floor, at >= 6 ? at - 6 : 0); b + 2 <= at && d.day == 0; ++b) {
        int day = day_at(text, b, length);
        if (day == 0) continue;
        const size_t e = b + length + ordinal_suffix(text, b + length);
        if (e < at && spaces(text, e) == at - e) d.day = day, start = b;
      }
    }
    if (d.day != 0) {  // "3–5 May", "3.–5. Mai"
      size_t first_start = 0;
      bool comma = false;
      if (const int first = first_day_before(text, start, floor, de, d.day, first_start)) {
        d.last_day = d.day;
        d.day = first;
        start = first_start;
      } else if (const int first_of_two = first_of_two_days(text, start, floor, de, d.day, first_start, comma);
                 first_of_two != 0) {
        size_t list_start = first_start;  // "1., 2. und 3. Mai", "1, 2, and 3 May"
        std::vector<int> listed = days_listed_before(text, first_start, floor, de, first_of_two, list_start);
        if (!comma || !listed.empty()) {
          d.last_day = d.day;  // "2. und 3. Juni", "2 and 3 June"
          d.day = first_of_two;
          d.two_days = true;
          d.listed = std::move(listed);
          start = list_start;
        }
      }
    }
    // a short name's period that ends the date may be the sentence's too ("on 1 Jan."): left out
    size_t end = after;
    if (d.day == 0 && !de) {  // English: "October 3", "Oct. 3rd"
      const size_t s = spaces(text, after);
      if (s > 0 && (d.day = day_at(text, after + s, length)) != 0) {
        end = after + s + length + ordinal_suffix(text, after + s + length);
        size_t last_length = 0;  // "May 3–5"
        const size_t join = range_join(text, end, false);
        const int last = join ? day_at(text, end + join, last_length) : 0;
        if (last > d.day) {
          d.last_day = last;
          end += join + last_length + ordinal_suffix(text, end + join + last_length);
        } else {  // "June 2 and 3", "May 1, 2 and 3"
          std::vector<int> days = {d.day};
          size_t list_end = end;
          for (int next = 0; text.compare(list_end, 2, ", ") == 0 && (next = day_at(text, list_end + 2, last_length)) > days.back();) {
            days.push_back(next);
            list_end += 2 + last_length + ordinal_suffix(text, list_end + 2 + last_length);
          }
          const size_t join = text.compare(list_end, 5, " and ") == 0 ? 5
                              : days.size() > 1 && text.compare(list_end, 6, ", and ") == 0 ? 6  // ("May 1, 2, and 3")
                                                                                            : 0;
          const int second = join ? day_at(text, list_end + join, last_length) : 0;
          const size_t second_end = list_end + join + last_length + (second ? ordinal_suffix(text, list_end + join + last_length) : 0);
          int year = 0;
          if (second > days.back() && (ends_two_days(text, second_end) || year_after(text, second_end, year))) {
            d.day = days.back();
            days.pop_back();
            d.listed = days;
            d.last_day = second;
            d.two_days = true;
            end = second_end;
          }
        }
      }
    }
    if (d.day == 0) continue;
    end += year_after(text, end, d.year);
    // "May 4 people come?": the verb, where nothing but the day says it is a date
    const bool first_word = text.find_first_not_of(" \"'(", 0) == at;
    if (!de && month == 5 && name == 3 && start == at && d.year == 0 && first_word) continue;
    if (end == after && text[end - 1] == '.') --end;
    d.begin = start;
    d.end = end;
    out.push_back(d);
    at = end - 1;
  }
  return out;
}

bool names_a_month(std::string_view text, std::string_view language) {
  int month = 0;
  for (size_t at = 0; at < text.size(); ++at)
    if (month_at(text, at, german(language), month)) return true;
  return false;
}

std::string write_named_date(const NamedDate& date, std::string_view language) {
  const bool de = german(language);
  const char* name = (de ? kGermanMonths : kEnglishMonths)[date.month - 1].name;
  std::string out;
  const std::string last = date.last_day ? std::string(kEnDash) + std::to_string(date.last_day) : "";
  if (date.two_days) {
    std::string first;
    for (int day : date.listed) first += std::to_string(day) + (de ? "., " : ", ");
    first += std::to_string(date.day);
    const std::string second = std::to_string(date.last_day);
    out = de ? first + ". und " + second + ". " + name : std::string(name) + " " + first + " and " + second;
    if (date.year) out += (de ? " " : ", ") + std::to_string(date.year);
    return out;
  }
  if (de) {
    out = std::to_string(date.day) + (date.last_day ? "." + last : "") + ". " + name;
    if (date.year) out += " " + std::to_string(date.year);
  } else {
    out = std::string(name) + " " + std::to_string(date.day) + last;
    if (date.year) out += ", " + std::to_string(date.year);
  }
  return out;
}

bool has_named_date(std::string_view target, const NamedDate& date, std::string_view language) {
  const bool de = german(language);
  if (date.year) {
    const std::string year = std::to_string(date.year);
    bool found = false;
    for (size_t at = target.find(year); at != std::string_view::npos && !found; at = target.find(year, at + 1))
      found = !is_digit_at(target, at + 4) && !(at > 0 && is_digit_at(target, at - 1));
    if (!found) return false;
  }
  if (date.two_days) {  // each day a date of its own, or all joined by the name
    NamedDate one = date;
    one.two_days = false;
    one.last_day = 0;
    one.listed.clear();
    std::vector<int> days = date.listed;
    days.push_back(date.day);
    days.push_back(date.last_day);
    const bool each = std::all_of(days.begin(), days.end(), [&](int day) {
      one.day = day;
      return has_named_date(target, one, language);
    });
    return each || two_days_joined(target, date, de);
  }
  if (date.last_day) {  // the first day after the name ("May 3–5") or the last before it ("3–5 May", "3.–5. Mai")
    NamedDate first = date, last = date;
    first.last_day = last.last_day = 0;
    last.day = date.last_day;
    const auto written = [&](int day) {
      const std::string digits = std::to_string(day);
      for (size_t at = target.find(digits); at != std::string_view::npos; at = target.find(digits, at + 1))
        if (!is_digit_at(target, at + digits.size()) && !(at > 0 && is_digit_at(target, at - 1))) return true;
      return false;
    };
    // German "3.5. Mai" for an English "3–5 May": the ranges pass (numbers.h range_dashes) writes the dash
    const std::string joined = std::to_string(date.day) + "." + std::to_string(date.last_day) + ". ";
    for (size_t at = target.find(joined); de && at != std::string_view::npos; at = target.find(joined, at + 1)) {
      int month = 0;
      if (!(at > 0 && (is_digit_at(target, at - 1) || target[at - 1] == '.')) &&
          month_at(target, at + joined.size(), true, month) && month == date.month)
        return true;
    }
    return ((!de && has_named_date(target, first, language)) || has_named_date(target, last, language)) &&
           written(date.day) && written(date.last_day);
  }
  for (size_t at = 0; at < target.size(); ++at) {
    int month = 0;
    const size_t name = month_at(target, at, de, month);
    if (name == 0 || month != date.month) continue;
    // English: the day after the name ("October 3") or before it ("3 October", "3rd of October");
    // German only before it, with its period ("3. Oktober": "Oktober 3" is the English order)
    const size_t s = spaces(target, at + name);
    size_t length = 0;
    if (!de && s > 0 && day_at(target, at + name + s, length) == date.day) return true;
    for (size_t b = at >= 10 ? at - 10 : 0; b < at; ++b) {
      if (day_at(target, b, length) == date.day && end_of_day(target, b + length, de) == at) return true;
    }
  }
  return false;
}

}  // namespace nmt
