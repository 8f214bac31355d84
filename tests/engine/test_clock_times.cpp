// Tests of clock times a translation must keep (engine/text/clock_times.h): English p.m. hours on
// the German 24-hour clock, and German times written the English way with a.m. and p.m.
#include <doctest/doctest.h>

#include <string>

#include "text/clock_times.h"

using namespace nmt;

namespace {

using EditsFn = std::vector<TextEdit> (*)(std::string_view, std::string_view, std::string_view, std::string_view, size_t);

std::string edited(EditsFn edits, const std::string& source, std::string target, const std::string& from,
                   const std::string& to, size_t keep = 0) {
  for (const TextEdit& edit : edits(source, target, from, to, keep)) target.replace(edit.at, edit.length, edit.text);
  return target;
}

}  // namespace

TEST_CASE("evening_hours: an English p.m. hour the German translation wrote as a morning one goes 12 up") {
  auto fixed = [](std::string source, std::string target, std::string from = "en", std::string to = "de", size_t keep = 0) {
    return edited(evening_hours, source, target, from, to, keep);
  };
  CHECK(fixed("We close at 11 pm.", "Wir schließen um 11 Uhr.") == "Wir schließen um 23 Uhr.");
  CHECK(fixed("It begins at 7:30 p.m.", "Es beginnt um 7:30 Uhr.") == "Es beginnt um 19:30 Uhr.");
  CHECK(fixed("It opens at 9 a.m. and closes at 6 p.m.", "Es öffnet um 9 Uhr und schließt um 6 Uhr.") ==
        "Es öffnet um 9 Uhr und schließt um 18 Uhr.");  // a.m. stays
  CHECK(fixed("At 6 PM on 6 March", "Am 6. März um 6 Uhr") == "Am 6. März um 18 Uhr");  // the time, not the date
  CHECK(fixed("at 3 p.m.", "um 15 Uhr") == "um 15 Uhr");  // written right: nothing to do
  CHECK(fixed("at 6 p.m.", "um 6 Uhr abends") == "um 6 Uhr abends");  // the time of day said in words
  CHECK(fixed("at 12 p.m.", "um 12 Uhr") == "um 12 Uhr");  // noon
  CHECK(fixed("6 people at 6 pm", "6 Personen") == "6 Personen");  // not a time
  CHECK(fixed("at 6 p.m.", "um 6 Uhr", "en", "de", 8) == "um 6 Uhr");  // in a forced prefix
  CHECK(fixed("um 6 Uhr", "at 6 p.m.", "de", "en") == "at 6 p.m.");  // English to German only
  CHECK(fixed("The 6pmX model", "Das 6 Uhr Modell") == "Das 6 Uhr Modell");  // "pm" inside a word
  CHECK(fixed("from 1 to 2 pm", "von 1 bis 2 Uhr") == "von 13 bis 14 Uhr");  // a range ending in p.m.
  CHECK(fixed("from 10am to 4pm", "von 10 Uhr bis 4 Uhr") == "von 10 Uhr bis 16 Uhr");
  CHECK(fixed("from 11 to 2 pm", "von 11 bis 2 Uhr") == "von 11 bis 14 Uhr");  // 11 before 2 p.m. is a.m.
  CHECK(fixed("at about 8.00 PM", "gegen 800 Uhr") == "gegen 20 Uhr");  // the model's garbled form
  // minutes the model wrote as a decimal or ran into the hour stay: "3,45 Uhr" was "15 Uhr"
  CHECK(fixed("at 3:45 pm.", "um 3,45 Uhr.") == "um 15:45 Uhr.");
  CHECK(fixed("at 7.30pm", "um 730 Uhr") == "um 19.30 Uhr");
}

TEST_CASE("evening_hours: one hour twice, a.m. and p.m. (\"at 8 am and 8 pm\" gave 20 to the first 8)") {
  auto fixed = [](std::string source, std::string target, size_t keep = 0) {
    return edited(evening_hours, source, target, "en", "de", keep);
  };
  CHECK(fixed("The shop opens at 8 am and closes at 8 pm.", "Der Laden öffnet um 8 Uhr und schließt um acht Uhr.") ==
        "Der Laden öffnet um 8 Uhr und schließt um 20 Uhr.");
  CHECK(fixed("It opens at 8 am and closes at 8 pm.", "Es öffnet um 8 Uhr und schließt um 8 Uhr.") ==
        "Es öffnet um 8 Uhr und schließt um 20 Uhr.");
  CHECK(fixed("at 8 pm and at 8 am", "um 8 Uhr und um acht Uhr") == "um 20 Uhr und um acht Uhr");
  CHECK(fixed("We meet at 8 am and 8 pm.", "Wir treffen uns um acht und acht Uhr.") == "Wir treffen uns um acht und 20 Uhr.");
  // the target writes the hour once: as before, the one that reads as a time
  CHECK(fixed("at 8 am and 8 pm", "um 8 und 8 Uhr") == "um 8 und 20 Uhr");
  CHECK(fixed("at 8 am and 8 pm", "um 8 Uhr und 20 Uhr") == "um 8 Uhr und 20 Uhr");
  CHECK(fixed("at 8 am and 8 pm", "um 8 Uhr und um acht Uhr", 20) == "um 8 Uhr und um acht Uhr");  // a prefix
}

TEST_CASE("evening_hours: a p.m. hour the German translation wrote as a word (\"at 8 pm\" came out \"um acht Uhr\")") {
  auto fixed = [](std::string source, std::string target, size_t keep = 0) {
    return edited(evening_hours, source, target, "en", "de", keep);
  };
  CHECK(fixed("The shop closes at 8 pm.", "Der Laden schlie\u00dft um acht Uhr.") == "Der Laden schlie\u00dft um 20 Uhr.");
  CHECK(fixed("At 5 p.m. we met.", "F\u00fcnf Uhr trafen wir uns.") == "17 Uhr trafen wir uns.");
  CHECK(fixed("at 1 pm", "um ein Uhr") == "um 13 Uhr");
  // said otherwise, no time, another hour, in a prefix, written in digits: as it is
  CHECK(fixed("at 8 pm", "um acht Uhr abends") == "um acht Uhr abends");
  CHECK(fixed("Dinner at 8 PM, breakfast at eight.", "Abendessen um acht Uhr morgens.") == "Abendessen um acht Uhr morgens.");
  CHECK(fixed("at 8 pm", "um acht") == "um acht");
  CHECK(fixed("at 8 pm", "um achtzehn Uhr, Nacht Uhrzeit") == "um achtzehn Uhr, Nacht Uhrzeit");
  CHECK(fixed("at 8 pm", "um sieben Uhr") == "um sieben Uhr");
  CHECK(fixed("at 8 pm", "um acht Uhr", 5) == "um acht Uhr");
  CHECK(fixed("at 8 pm with eight guests", "um 20 Uhr mit acht G\u00e4sten") == "um 20 Uhr mit acht G\u00e4sten");
  CHECK(fixed("at 8:30 pm", "um acht Uhr") == "um acht Uhr");  // (minutes: not the word's time)
}

TEST_CASE("english_clock_times: a German clock time goes into English with the right half of the day") {
  auto fixed = [](std::string source, std::string target, std::string from = "de", std::string to = "en", size_t keep = 0) {
    return edited(english_clock_times, source, target, from, to, keep);
  };
  // the model's guesses, as measured on German news
  CHECK(fixed("Wir treffen uns um 8 Uhr am Bahnhof.", "We meet at the station at 8 p.m.") == "We meet at the station at 8 a.m.");
  CHECK(fixed("Um 6 Uhr waren 3.000 Menschen dort.", "At 6:00 p.m., 3,000 people were there.") ==
        "At 6:00 a.m., 3,000 people were there.");
  CHECK(fixed("Die Abstimmung findet um 12.00 Uhr statt.", "The vote takes place at 12:00 a.m.") ==
        "The vote takes place at 12:00 p.m.");
  CHECK(fixed("Er kam gegen 13 Uhr.", "He came at about 13 p.m.") == "He came at about 1 p.m.");
  CHECK(fixed("Am Freitag (18.30 Uhr) spielt er.", "On Friday (18:30 p.m.) he plays.") == "On Friday (6:30 p.m.) he plays.");
  CHECK(fixed("Der Zug fährt um 19:30 Uhr ab.", "The train leaves at 7:30.") == "The train leaves at 7:30 p.m.");
  CHECK(fixed("Der Zug fährt um 19:30 Uhr ab.", "The train leaves at 7:30 today") == "The train leaves at 7:30 p.m. today");
  CHECK(fixed("Es begann um 20.15 Uhr.", "It started at 20.15 p.m.") == "It started at 8:15 p.m.");
  CHECK(fixed("gegen 00.20 Uhr", "at 00.20 p.m.") == "at 12:20 a.m.");
  CHECK(fixed("um 19 Uhr", "at 19 Uhr") == "at 7 p.m.");
  CHECK(fixed("um 19 Uhr", "at 7 o'clock") == "at 7 p.m.");
  // ranges: one mark where both hours share the half of the day, else one each
  CHECK(fixed("Gehandelt wird von 14 bis 16 Uhr.", "Trade is from 14 to 16 p.m.") == "Trade is from 2 to 4 p.m.");
  CHECK(fixed("zwischen 11 und 18 Uhr", "between 11 and 6 p.m.") == "between 11 a.m. and 6 p.m.");
  CHECK(fixed("von 10 Uhr bis 16 Uhr", "from 10 to 16") == "from 10 a.m. to 4 p.m.");
  CHECK(fixed("Mo-Fr 9-18 Uhr", "Mon-Fri 9-18.") == "Mon-Fri 9 a.m.-6 p.m.");  // the end of a range without a mark
  // the time of day said in words
  CHECK(fixed("um 8 Uhr abends", "at 8 a.m.") == "at 8 p.m.");
  CHECK(fixed("Am Sonntagabend um 8 Uhr", "On Sunday evening at 8 a.m.") == "On Sunday evening at 8 p.m.");
  CHECK(fixed("um 3 Uhr nachts", "at 3 p.m.") == "at 3 a.m.");
  CHECK(fixed("um 19 Uhr", "at 7 o'clock in the evening") == "at 7 o'clock in the evening");
  // right, or said the German way without a mark: nothing to do
  CHECK(fixed("um 21 Uhr", "at 9 p.m.") == "at 9 p.m.");
  CHECK(fixed("um 9.30 Uhr", "at 9:30") == "at 9:30");
  CHECK(fixed("um 7 Uhr", "at 7 o'clock") == "at 7 o'clock");
  CHECK(fixed("um 9 Uhr", "at 9 a.m.") == "at 9 a.m.");
  // not a time, in a forced prefix, or another direction
  CHECK(fixed("6 Personen kamen um 6 Uhr", "6 people came") == "6 people came");
  CHECK(fixed("Sie gewann 6:1 um 18 Uhr", "She won 6:1 at 6 p.m.") == "She won 6:1 at 6 p.m.");
  CHECK(fixed("um 9 Uhr", "at 9 p.m.", "de", "en", 10) == "at 9 p.m.");
  CHECK(fixed("at 9 a.m.", "um 9 Uhr", "en", "de") == "um 9 Uhr");
  CHECK(fixed("um 25 Uhr", "at 25 p.m.") == "at 25 p.m.");  // no such hour
  CHECK(fixed("um 9 Uhr", "at 9 pm") == "at 9 a.m.");
  CHECK(fixed("um 9 Uhr", "at 9pm.") == "at 9 a.m.");
}

TEST_CASE("clock times said in words: \"halb acht\" is 7:30, \"half past seven\" is \"halb acht\"") {
  const auto de_en = [](std::string source, std::string target, size_t keep = 0) {
    return edited(english_clock_times, source, target, "de", "en", keep);
  };
  const auto en_de = [](std::string source, std::string target, size_t keep = 0) {
    return edited(evening_hours, source, target, "en", "de", keep);
  };
  // de->en "Der Zug fährt um halb acht ab." came out "The train leaves at 2:30."
  CHECK(de_en("Der Zug f\u00e4hrt um halb acht ab.", "The train leaves at 2:30.") == "The train leaves at 7:30.");
  CHECK(de_en("Um halb 8 geht es los.", "It starts at 2.30.") == "It starts at 7.30.");
  CHECK(de_en("um Viertel nach acht", "at 2:15") == "at 8:15");
  CHECK(de_en("um Viertel vor neun", "at 9:45") == "at 8:45");
  CHECK(de_en("um dreiviertel neun", "at 2:45") == "at 8:45");
  CHECK(de_en("um halb eins", "at 2:30") == "at 12:30");
  // right already (either clock), other minutes, two such times, no such time, a prefix: as it is
  CHECK(de_en("um halb acht", "at 7:30") == "at 7:30");
  CHECK(de_en("um halb acht", "at 19:30") == "at 19:30");
  CHECK(de_en("um halb acht", "at 2:15") == "at 2:15");
  CHECK(de_en("um halb acht oder halb neun", "at 2:30 or 3:30") == "at 2:30 or 3:30");
  CHECK(de_en("die Hälfte von acht", "half of 2:30") == "half of 2:30");
  CHECK(de_en("um halb acht", "at 2:30", 4) == "at 2:30");
  // en->de "half past seven" came out "halb sieben" (6:30)
  CHECK(en_de("We meet at half past seven.", "Wir treffen uns um halb sieben.") == "Wir treffen uns um halb acht.");
  CHECK(en_de("at half past 8", "um halb 8") == "um halb 9");
  CHECK(en_de("at half seven", "um Halb sieben") == "um Halb acht");  // (British: 7:30)
  CHECK(en_de("at half past twelve", "um halb zw\u00f6lf") == "um halb eins");
  CHECK(en_de("at half past seven", "um halb acht") == "um halb acht");
  CHECK(en_de("half of the 7 people", "die H\u00e4lfte der 7 Leute, halb 7") == "die H\u00e4lfte der 7 Leute, halb 7");
  CHECK(en_de("at half past seven", "um halb sieben", 9) == "um halb sieben");
}

TEST_CASE("english_clock_times: a date's day and a time made one number (\"am 3. Oktober um 15:30 Uhr\" -> \"October 3:30 p.m.\")") {
  auto fixed = [](std::string source, std::string target, std::string from = "de", std::string to = "en", size_t keep = 0) {
    return edited(english_clock_times, source, target, from, to, keep);
  };
  CHECK(fixed("Das Treffen ist am 3. Oktober um 15:30 Uhr.", "The meeting is on October 3:30 p.m.") ==
        "The meeting is on October 3 at 3:30 p.m.");
  CHECK(fixed("Das Treffen ist am 5. Oktober um 15:30 Uhr.", "The meeting is on October 5:30 p.m.") ==
        "The meeting is on October 5 at 3:30 p.m.");
  CHECK(fixed("Am 12. Mai 2025 um 9.45 Uhr ging es los.", "On May 12:45, 2025, it started.") ==
        "On May 12 at 9:45 a.m., 2025, it started.");
  // the day and the time apart, another day, other minutes, no date, English to German, a prefix
  CHECK(fixed("Das Treffen ist am 3. Oktober um 15:30 Uhr.", "The meeting is on October 3 at 3:30 p.m.") ==
        "The meeting is on October 3 at 3:30 p.m.");
  CHECK(fixed("Das Treffen ist am 3. Oktober um 15:30 Uhr.", "The meeting is on October 4:30 p.m.") ==
        "The meeting is on October 4:30 p.m.");
  CHECK(fixed("Das Treffen ist am 3. Oktober um 15:45 Uhr.", "The meeting is on October 3:30 p.m.") ==
        "The meeting is on October 3:30 p.m.");
  CHECK(fixed("Das Treffen ist im Oktober um 15:30 Uhr.", "The meeting is in October 3:30 p.m.") ==
        "The meeting is in October 3:30 p.m.");
  CHECK(fixed("Das Treffen ist am 3. Oktober um 15:30 Uhr.", "The meeting is on October 3:30 p.m.", "en", "de") ==
        "The meeting is on October 3:30 p.m.");
  CHECK(fixed("Das Treffen ist am 3. Oktober um 15:30 Uhr.", "The meeting is on October 3:30 p.m.", "de", "en", 24) ==
        "The meeting is on October 3:30 p.m.");
}

TEST_CASE("english_clock_times: a time the source never says right after its own goes (\"um 4.15 Uhr\" -> \"at 4.15 2:30\")") {
  auto fixed = [](std::string source, std::string target, std::string from = "de", std::string to = "en", size_t keep = 0) {
    return edited(english_clock_times, source, target, from, to, keep);
  };
  CHECK(fixed("Der Zug f\u00e4hrt um 4.15 Uhr.", "The train leaves at 4.15 2:30.") == "The train leaves at 4.15.");
  CHECK(fixed("Der Zug f\u00e4hrt um 16.15 Uhr.", "The train leaves at 4:15 p.m. 2:30 p.m.") == "The train leaves at 4:15 p.m.");
  // both the source's ("Einlass um 19:30 Uhr, Beginn um 20 Uhr"), a number it says, apart, a prefix
  CHECK(fixed("Einlass ist um 19:30 Uhr, das Konzert beginnt um 20:15 Uhr.", "The concert begins at 8:15 p.m. 7:30 p.m.") ==
        "The concert begins at 8:15 p.m. 7:30 p.m.");
  CHECK(fixed("Um 4.15 Uhr kamen 2.30 Gäste.", "At 4.15 2.30 guests came.") == "At 4.15 2.30 guests came.");
  CHECK(fixed("Der Zug f\u00e4hrt um 4.15 Uhr.", "The train leaves at 4.15 and 2:30.") == "The train leaves at 4.15 and 2:30.");
  CHECK(fixed("Der Zug f\u00e4hrt um 4.15 Uhr.", "The train leaves at 4.15 2:30.", "de", "en", 25) == "The train leaves at 4.15 2:30.");
}

TEST_CASE("evening_hours: \"Uhr\" the model wrote before the time goes after it (\"at 4.15 p.m.\" -> \"um Uhr 4.15\")") {
  auto fixed = [](std::string source, std::string target, std::string from = "en", std::string to = "de", size_t keep = 0) {
    return edited(evening_hours, source, target, from, to, keep);
  };
  CHECK(fixed("The train leaves at 4.15 p.m.", "Der Zug f\u00e4hrt um Uhr 4.15.") == "Der Zug f\u00e4hrt um 16.15 Uhr.");
  CHECK(fixed("The train leaves at 9.30 a.m.", "Der Zug f\u00e4hrt gegen Uhr 9.30 ab.") == "Der Zug f\u00e4hrt gegen 9.30 Uhr ab.");
  // in its place already, another word before it, no time after it, a prefix
  CHECK(fixed("The train leaves at 9.30 a.m.", "Der Zug f\u00e4hrt um 9.30 Uhr ab.") == "Der Zug f\u00e4hrt um 9.30 Uhr ab.");
  CHECK(fixed("The clock shows 9.30.", "Die Uhr 9.30 zeigt es.") == "Die Uhr 9.30 zeigt es.");
  CHECK(fixed("at 9 a.m.", "um Uhr neun") == "um Uhr neun");
  CHECK(fixed("The train leaves at 9.30 a.m.", "Der Zug f\u00e4hrt um Uhr 9.30.", "en", "de", 22) == "Der Zug f\u00e4hrt um Uhr 9.30.");
}

TEST_CASE("evening_hours: an English a.m. hour the German translation put 12 up goes back (\"9.30 a.m.\" -> \"21.30 Uhr\")") {
  auto fixed = [](std::string source, std::string target, std::string from = "en", std::string to = "de", size_t keep = 0) {
    return edited(evening_hours, source, target, from, to, keep);
  };
  CHECK(fixed("The shop opens at 9.30 a.m.", "Der Laden \u00f6ffnet um 21.30 Uhr.") == "Der Laden \u00f6ffnet um 9.30 Uhr.");
  CHECK(fixed("We open at 8 am.", "Wir \u00f6ffnen um 20 Uhr.") == "Wir \u00f6ffnen um 8 Uhr.");
  CHECK(fixed("from 9 a.m. to 6 p.m.", "von 21 bis 6 Uhr") == "von 9 bis 18 Uhr");
  // right already, no time, the p.m. one too, a prefix
  CHECK(fixed("We open at 8 am.", "Wir \u00f6ffnen um 8 Uhr.") == "Wir \u00f6ffnen um 8 Uhr.");
  CHECK(fixed("At 8 am, 20 people came.", "Um 8 Uhr kamen 20 Leute.") == "Um 8 Uhr kamen 20 Leute.");
  CHECK(fixed("at 8 am and 8 pm", "um 20 Uhr und 20 Uhr") == "um 20 Uhr und 20 Uhr");  // (which is which: unknown)
  CHECK(fixed("We open at 8 am.", "Wir \u00f6ffnen um 20 Uhr.", "en", "de", 16) == "Wir \u00f6ffnen um 20 Uhr.");
}
