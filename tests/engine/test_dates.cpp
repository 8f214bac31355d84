// Dates with a month's name (engine/text/dates.h): found in English and German text, written the
// other language's way, and looked for in a translation.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "text/dates.h"

using namespace nmt;

namespace {

// Each date found, as "text|day.month.year".
std::vector<std::string> dates(const std::string& text, const char* language) {
  std::vector<std::string> out;
  for (const NamedDate& d : find_named_dates(text, language))
    out.push_back(text.substr(d.begin, d.end - d.begin) + "|" + std::to_string(d.day) + "." + std::to_string(d.month) +
                  "." + std::to_string(d.year));
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("find_named_dates: English") {
  CHECK(dates("Published: October 3, 2023", "en") == Strings{"October 3, 2023|3.10.2023"});
  CHECK(dates("from January 23 through March 9.", "en") == Strings{"January 23|23.1.0", "March 9|9.3.0"});
  CHECK(dates("born 3 October 1990 and on the 21st May", "en") == Strings{"3 October 1990|3.10.1990", "21st May|21.5.0"});
  CHECK(dates("Oct. 3rd, 2023 and Sept. 30", "en") == Strings{"Oct. 3rd, 2023|3.10.2023", "Sept. 30|30.9.0"});
  CHECK(dates("Tuesday, June 19, 2018", "en") == Strings{"June 19, 2018|19.6.2018"});
  CHECK(dates("available on 1 Jan.", "en") == Strings{"1 Jan|1.1.0"});  // the period may end the sentence too
  CHECK(dates("Feb. 30 Sept. 30", "en") == Strings{"Feb. 30|30.2.0", "Sept. 30|30.9.0"});  // the second has no day before it
  // not dates: no day, lower case, a longer word, a day out of range, a bigger number
  CHECK(dates("in October 2023, may 4, Maine 4, Mayor 3, May 32, May 123, June 4th5", "en").empty());
  CHECK(dates("", "en").empty());
  CHECK(dates("May 4 people come?", "en").empty());  // the verb
  CHECK(dates("May 4, 2024 was a Saturday; on May 4 we met.", "en") == Strings{"May 4, 2024|4.5.2024", "May 4|4.5.0"});
}

TEST_CASE("find_named_dates: German") {
  CHECK(dates("am 24. Juli 16 Konten", "de") == Strings{"24. Juli|24.7.0"});  // "16" is not its year
  CHECK(dates("Was tut sich am heutigen 28. Juli 2020?", "de") == Strings{"28. Juli 2020|28.7.2020"});
  CHECK(dates("(30. Jänner bis 3. April) und 4. Okt. 2021", "de") ==
        Strings{"30. J\xC3\xA4nner|30.1.0", "3. April|3.4.0", "4. Okt. 2021|4.10.2021"});
  CHECK(dates("am 1. M\xC3\xA4rz", "de") == Strings{"1. M\xC3\xA4rz|1.3.0"});
  // not dates: an ordinal before another word, no period, "Mainz", a day glued to a number
  CHECK(dates("der 2. Weltkrieg, 3 Juli, 4. Mainz, 1.3. Mai", "de").empty());
}

TEST_CASE("write_named_date: each language's order") {
  NamedDate d;
  d.day = 3, d.month = 10, d.year = 2023;
  CHECK(write_named_date(d, "en") == "October 3, 2023");
  CHECK(write_named_date(d, "de") == "3. Oktober 2023");
  d.year = 0, d.month = 3;
  CHECK(write_named_date(d, "de") == "3. M\xC3\xA4rz");
  CHECK(write_named_date(d, "en") == "March 3");
}

TEST_CASE("has_named_date: the day beside the month's name, the year if the date has one") {
  NamedDate d;
  d.day = 24, d.month = 7;
  CHECK(has_named_date("blocked on July 24 16 accounts", d, "en"));
  CHECK(has_named_date("on 24 July", d, "en"));
  CHECK(has_named_date("on the 24th of July", d, "en"));
  CHECK(has_named_date("am 24. Juli", d, "de"));
  CHECK_FALSE(has_named_date("Twitter and Facebook blocked 16 accounts", d, "en"));
  CHECK_FALSE(has_named_date("on July 22 night", d, "en"));  // another day
  CHECK_FALSE(has_named_date("on July 124", d, "en"));
  CHECK_FALSE(has_named_date("am Juli 24", d, "de"));  // the English order in German
  // "am 24. Juli um 15:30 Uhr" came out "on July 24:30 p.m.": no day, a time
  CHECK_FALSE(has_named_date("on July 24:30 p.m.", d, "en"));
  CHECK_FALSE(has_named_date("on July 24.5", d, "en"));
  CHECK(has_named_date("on July 24, at 3:30 p.m.", d, "en"));
  CHECK_FALSE(has_named_date("am 24 Juli", d, "de"));
  d.year = 2020;
  CHECK(has_named_date("What's today's July 24, 2020?", d, "en"));
  CHECK_FALSE(has_named_date("What is today July 24?", d, "en"));
  CHECK_FALSE(has_named_date("July 24, 20201", d, "en"));
}

TEST_CASE("named dates: a range of days (\"May 3\u20135, 2024\" came out \"3\u20135, 2024\", the month lost)") {
  const auto range = [](const std::string& text, const char* language) {
    std::vector<std::string> out;
    for (const NamedDate& d : find_named_dates(text, language))
      out.push_back(text.substr(d.begin, d.end - d.begin) + "|" + std::to_string(d.day) + "-" + std::to_string(d.last_day) +
                    "." + std::to_string(d.month) + "." + std::to_string(d.year));
    return out;
  };
  CHECK(range("The festival runs May 3\u20135, 2024.", "en") == Strings{"May 3\u20135, 2024|3-5.5.2024"});
  CHECK(range("closed 24\u201326 December and Oct. 3rd\u20135th", "en") == Strings{"24\u201326 December|24-26.12.0", "Oct. 3rd\u20135th|3-5.10.0"});
  CHECK(range("on May 3-5 or 3-5 May", "en") == Strings{"May 3-5|3-5.5.0", "3-5 May|3-5.5.0"});
  CHECK(range("am 3.\u20135. Mai 2024, vom 12. bis 14. Juni, 7.-9. Juli", "de") ==
        Strings{"3.\u20135. Mai 2024|3-5.5.2024", "12. bis 14. Juni|12-14.6.0", "7.-9. Juli|7-9.7.0"});
  // one day: the range goes down, or the other number is no day
  CHECK(range("on May 5\u20133, 40\u20135 May, 3\u201340 May", "en") == Strings{"May 5|5-0.5.0", "5 May|5-0.5.0"});
  CHECK(range("vom 3. auf den 5. Mai", "de") == Strings{"5. Mai|5-0.5.0"});

  NamedDate d;
  d.day = 3, d.last_day = 5, d.month = 5, d.year = 2024;
  CHECK(write_named_date(d, "en") == "May 3\u20135, 2024");
  CHECK(write_named_date(d, "de") == "3.\u20135. Mai 2024");
  CHECK(has_named_date("vom 3.\u20135. Mai 2024", d, "de"));
  CHECK(has_named_date("vom 3. bis 5. Mai 2024", d, "de"));
  CHECK(has_named_date("from May 3\u20135, 2024", d, "en"));
  CHECK(has_named_date("from 3 to 5 May 2024", d, "en"));
  CHECK_FALSE(has_named_date("Das Festival l\u00e4uft 3\u20135, 2024.", d, "de"));  // the month lost
  CHECK_FALSE(has_named_date("am 5. Mai 2024", d, "de"));                        // a day lost
  CHECK(has_named_date("am 3.5. Mai 2024", d, "de"));  // (the ranges pass writes its dash: "3.–5. Mai")
  CHECK_FALSE(has_named_date("am 3.5. Juni 2024, 13.5. Mai", d, "de"));
  CHECK_FALSE(has_named_date("am 3.5. Mai 2023", d, "de"));
  CHECK_FALSE(has_named_date("on May 3, 2024", d, "en"));
}

TEST_CASE("named dates: two days joined by and (\"Am 2. und 3. Juni\" came out \"On 2. and June 3\")") {
  const auto two = [](const std::string& text, const char* language) {
    std::vector<std::string> out;
    for (const NamedDate& d : find_named_dates(text, language))
      out.push_back(text.substr(d.begin, d.end - d.begin) + "|" + std::to_string(d.day) + (d.two_days ? "+" : "-") +
                    std::to_string(d.last_day) + "." + std::to_string(d.month));
    return out;
  };
  CHECK(two("Am 2. und 3. Juni ist zu.", "de") == Strings{"2. und 3. Juni|2+3.6"});
  CHECK(two("on June 2 and 3, 2024 and 2nd and 3rd May", "en") == Strings{"June 2 and 3, 2024|2+3.6", "2nd and 3rd May|2+3.5"});
  CHECK(two("open June 2 and 3 in Paris.", "en") == Strings{"June 2 and 3|2+3.6"});
  // one day: the second is no day ("3 people"), or the days go down
  CHECK(two("on June 2 and 3 people came, am 5. und 3. Mai", "en") == Strings{"June 2|2-0.6"});
  CHECK(two("am 5. und 3. Mai", "de") == Strings{"3. Mai|3-0.5"});

  NamedDate d;
  d.day = 2, d.last_day = 3, d.two_days = true, d.month = 6;
  CHECK(write_named_date(d, "en") == "June 2 and 3");
  CHECK(write_named_date(d, "de") == "2. und 3. Juni");
  CHECK(has_named_date("On June 2 and 3 the store closed.", d, "en"));
  CHECK(has_named_date("on 2 and 3 June", d, "en"));
  CHECK(has_named_date("on the 2nd and 3rd of June", d, "en"));
  CHECK(has_named_date("on June 2 and June 3", d, "en"));
  CHECK(has_named_date("Am 2. und 3. Juni", d, "de"));
  CHECK_FALSE(has_named_date("On 2. and June 3", d, "en"));
  CHECK_FALSE(has_named_date("On the 2nd and June 3 the store closed.", d, "en"));
  CHECK_FALSE(has_named_date("Wir sind am 2. Juni offen.", d, "de"));  // a day lost
  d.year = 2024;
  CHECK(write_named_date(d, "en") == "June 2 and 3, 2024");
  CHECK(has_named_date("on June 2 and 3, 2024", d, "en"));
  CHECK_FALSE(has_named_date("on June 2 and 3", d, "en"));
}

TEST_CASE("named dates: three or more days in a list (\"Am 1., 2. und 3. Mai\" came out \"On 1., 2 and 3 May\")") {
  const auto dates = [](const std::string& text, const char* language) {
    std::vector<std::string> out;
    for (const NamedDate& d : find_named_dates(text, language)) {
      std::string days;
      for (int day : d.listed) days += std::to_string(day) + ",";
      out.push_back(text.substr(d.begin, d.end - d.begin) + "|" + days + std::to_string(d.day) + (d.two_days ? "+" : "-") +
                    std::to_string(d.last_day) + "." + std::to_string(d.month));
    }
    return out;
  };
  CHECK(dates("Am 1., 2. und 3. Mai ist zu.", "de") == Strings{"1., 2. und 3. Mai|1,2+3.5"});
  CHECK(dates("am 4., 5., 6. und 7. Juni", "de") == Strings{"4., 5., 6. und 7. Juni|4,5,6+7.6"});
  CHECK(dates("open May 1, 2 and 3 in Paris; 1st, 2nd and 3rd June", "en") ==
        Strings{"May 1, 2 and 3|1,2+3.5", "1st, 2nd and 3rd June|1,2+3.6"});
  CHECK(dates("on May 1, 2 and 3, 2024.", "en") == Strings{"May 1, 2 and 3, 2024|1,2+3.5"});
  CHECK(dates("on May 1, 2, and 3.", "en") == Strings{"May 1, 2, and 3|1,2+3.5"});  // a comma before "and"
  CHECK(dates("on May 1, and 3 more", "en") == Strings{"May 1|1-0.5"});
  // no list: a year after the comma, days that go down, a count after the last
  CHECK(dates("on May 1, 2024", "en") == Strings{"May 1, 2024|1-0.5"});
  CHECK(dates("am 3., 2. und 4. Mai", "de") == Strings{"2. und 4. Mai|2+4.5"});
  CHECK(dates("on May 1, 2 and 3 people came", "en") == Strings{"May 1|1-0.5"});

  NamedDate d;
  d.listed = {1}, d.day = 2, d.last_day = 3, d.two_days = true, d.month = 5;
  CHECK(write_named_date(d, "en") == "May 1, 2 and 3");
  CHECK(write_named_date(d, "de") == "1., 2. und 3. Mai");
  CHECK(has_named_date("The May 1, 2 and 3 is closed.", d, "en"));
  CHECK(has_named_date("on the 1st, 2nd and 3rd of May", d, "en"));
  CHECK(has_named_date("on 1, 2 and 3 May", d, "en"));
  CHECK(has_named_date("on May 1, May 2 and May 3", d, "en"));
  CHECK(has_named_date("Am 1., 2. und 3. Mai", d, "de"));
  CHECK_FALSE(has_named_date("On 1., 2 and 3 May is closed.", d, "en"));  // the 1st no English date
  CHECK_FALSE(has_named_date("On 2 and 3 May", d, "en"));                 // a day lost
  CHECK_FALSE(has_named_date("Am 2. und 3. Mai", d, "de"));
}

TEST_CASE("names_a_month: a month's name with its capital, in the text's language") {
  CHECK(names_a_month("I was born in May, on the 4th.", "en"));
  CHECK(names_a_month("on Oct. 3", "en"));
  CHECK(names_a_month("Er kam im Dezember.", "de"));
  CHECK_FALSE(names_a_month("He was born on the 4th.", "en"));
  CHECK_FALSE(names_a_month("You may come on the 4th.", "en"));  // the verb
  CHECK_FALSE(names_a_month("Maine and Junior", "en"));
  CHECK_FALSE(names_a_month("Er kam im Dezember.", "en"));
}

TEST_CASE("named dates: a list of days with a comma before \"and\" (a de->en \"May 1, 2, and 3\" was taken for a lost date)") {
  NamedDate d;
  d.listed = {1}, d.day = 2, d.last_day = 3, d.two_days = true, d.month = 5;
  CHECK(has_named_date("We are open on May 1, 2, and 3.", d, "en"));
  CHECK(has_named_date("on the 1st, 2nd, and 3rd of May", d, "en"));
  CHECK(has_named_date("on 1, 2, and 3 May", d, "en"));
  CHECK_FALSE(has_named_date("on 2, and 3 May", d, "en"));  // the 1st lost
  NamedDate two = d;
  two.listed.clear();
  CHECK_FALSE(has_named_date("on 5, and 3 May", two, "en"));
  CHECK(find_named_dates("on 1, 2, and 3 May", "en").size() == 1);
  CHECK(find_named_dates("on 1, 2, and 3 May", "en")[0].listed == std::vector<int>{1});
  CHECK(find_named_dates("on 1, 2, and 3 May", "en")[0].begin == 3);
  // no list before the comma: the last day alone
  CHECK(find_named_dates("Rooms 2, and 3 May rooms", "en").at(0).two_days == false);
}
