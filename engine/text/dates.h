// Dates written with a month's name ("October 3, 2023", "3 October 2023", "am 3. Oktober 2023"):
// finds them in a text, writes them the other language's way, and checks whether a translation has
// one. The translator translates a sentence that lost a date again with the date shown to the model
// as an unknown piece, then written as the target language writes dates (retries.cpp
// retry_numbers, text/pass_through.h).
// Why: the model drops such dates or changes the day: of 155 German dates in news sentences the
// de→en model left 15 out of its translation ("am 24. Juli" gone, "23. Juli" -> "July 22"), and the
// number check did not see it (a German day is an ordinal, "3.", which the target writes its own way).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nmt {

struct NamedDate {
  size_t begin = 0, end = 0;  // bytes of the date in its text
  int day = 0;                // 1-31 (a range's first day)
  int last_day = 0;           // a range's last day ("3–5 May", "3.–5. Mai", "May 3–5"); 0: one day
  bool two_days = false;      // day and last_day are two days, not a range ("2. und 3. Juni", "June 2 and 3")
  std::vector<int> listed;    // with two_days: the days of a list before them ("1., 2. und 3. Mai": 1)
  int month = 0;              // 1-12
  int year = 0;               // 0: none written
};

// The dates of `text` in `language` ("en": "October 3, 2023", "Oct. 3", "October 3rd", "3 October
// 2023"; "de": "3. Oktober 2023", "3. Okt."): a month's name (written with its capital) next to a
// day of 1-31, and the year (4 digits) where one follows; or next to a range of days joined by a
// dash ("May 3–5, 2024", "3–5 May", "3.–5. Mai", German "3. bis 5. Mai"), the first day the lower;
// or next to two days joined by "and" / "und" ("June 2 and 3", "2 and 3 June", "2. und 3. Juni"),
// commas before them joining more ("May 1, 2 and 3", "1., 2. und 3. Mai").
std::vector<NamedDate> find_named_dates(std::string_view text, std::string_view language);

// Whether `text` (in `language`) has a month's name (written with its capital: "May" counts, "may"
// does not): a translation's date whose month its source never names was made up ("He was born on
// the 4th." -> "am 4. Dezember"; retries.cpp).
bool names_a_month(std::string_view text, std::string_view language);

// The date as `language` writes it: "October 3, 2023" / "October 3" in English, "3. Oktober 2023" /
// "3. Oktober" in German; a range "May 3–5, 2024" / "3.–5. Mai 2024"; two days "June 2 and 3" /
// "2. und 3. Juni"; a list "May 1, 2 and 3" / "1., 2. und 3. Mai".
std::string write_named_date(const NamedDate& date, std::string_view language);

// Whether `target` (in `language`) has the date: the month's name (or its short form) with the day
// next to it (English "October 3", "3 October", "3rd of October"; German "3. Oktober" only), and the
// year where the date has one; a range's first day after the name or its last before it, and both
// days written; two days each as a date, or joined next to the name ("June 2 and 3", "2nd and 3rd
// of June", "2. und 3. Juni"; not "2. and June 3"), a list's days before them too, joined by
// commas ("May 1, 2 and 3", "1st, 2nd and 3rd of May", "1., 2. und 3. Mai"; not "1., 2 and 3 May").
bool has_named_date(std::string_view target, const NamedDate& date, std::string_view language);

}  // namespace nmt
