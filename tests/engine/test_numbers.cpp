// Tests of numbers a translation must keep (engine/text/numbers.h): which spans are numbers, which
// the translation lacks, how they are written in the target language, and the translator's second
// pass never losing a number the first one kept (fixture model).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "text/number_labels.h"
#include "text/numbers.h"
#include "text/verbatim.h"
#include "translator.h"

using namespace nmt;

namespace {

std::vector<std::string> numbers(std::string_view text, std::string_view language = "en", const ByteSpans& skip = {}) {
  std::vector<std::string> out;
  for (auto [b, e] : find_numbers(text, language, false, skip)) out.emplace_back(text.substr(b, e - b));
  return out;
}

std::vector<size_t> missing(std::string_view source, std::string_view target, std::string_view language = "en",
                            std::string_view target_language = "de") {
  return missing_numbers(source, find_numbers(source, language, false), target, target_language);
}

std::string localized(std::string_view text, std::string_view from, std::string_view to) {
  return localize_numbers(text, find_numbers(text, from, false), from, to);
}

}  // namespace

TEST_CASE("find_numbers: digit runs with their separators, not words, ordinals or addresses") {
  using V = std::vector<std::string>;
  CHECK(numbers("It cost $1,234.56 at 20:25 on 1.10.2020, 0,5774% more.") == V{"1,234.56", "20:25", "1.10.2020", "0,5774"});
  CHECK(numbers("Call 555-0199 or (030) 12 34.") == V{"555", "0199", "030", "12", "34"});
  // a phone number's groups are no thousands (written "+1.800.555 0199" in German)
  CHECK(numbers("Call +1 800 555 0199 or 1 800 555 0199; 55 000 people") == V{"1", "800", "555", "0199", "1", "800", "555", "0199", "55 000"});
  CHECK(numbers("The G7 met; MP3s and 1990er, COVID-19.") == V{"19"});  // words of their own
  // an English ordinal is a number to keep, not one before a letter or a hyphen
  CHECK(numbers("the 2nd, 21st and 3rd; 1stly, a 3rd-party app") == V{"2", "21", "3"});
  CHECK(numbers("am 2nd", "de").empty());
  CHECK(numbers("Ende 2014. Danach 3.") == V{"2014", "3"});  // a sentence's full stop is not part of it
  CHECK(numbers("am 7. Oktober, im 2. Weltkrieg, 1990. Das", "de") == V{"7", "2", "1990"});  // German ordinals too
  CHECK(numbers("am 7. Oktober", "en") == V{"7"});
  const std::string text = "See www.site2024.de/page/12 or 12 pages.";
  CHECK(numbers(text, "en", verbatim_spans(text)) == V{"12"});
  CHECK(numbers("").empty());
  CHECK(numbers("1.,2 3..4 5,").size() == 5);  // a separator joins digits only when one sits on each side
  CHECK(find_numbers("the 1990s and 2nd", "en", true).size() == 2);  // a target's numbers: every one
  // a date is one number, with '/' too; not a fraction, nor a longer run
  CHECK(numbers("on 12/03/2025, 1/2 or 24/7, 3/4/25, 1.10.20 and 2.4.1") ==
        V{"12/03/2025", "1", "2", "24", "7", "3/4/25", "1.10.20", "2.4.1"});
  CHECK(numbers("12/03/2025/7 and 1/2/345") == V{"12", "03", "2025", "7", "1", "2", "345"});
  // a number against a unit of measure is a quantity: it was left out, so never checked nor localized
  CHECK(numbers("It weighs 3.5kg, runs at 2.5GHz and 120km/h; 5kgs, 4K, 5G, 2x") == V{"3.5", "2.5", "120"});
  CHECK(numbers("Open 8am until 10pm, 9AM-5PM; ampere, 5amp") == V{"8", "10", "9", "5"});
}

TEST_CASE("missing_numbers: the same digits, one target number each; hours 12 apart count") {
  using V = std::vector<size_t>;
  CHECK(missing("Mit 50.000 Besuchern", "With 50,000 visitors").empty());
  CHECK(missing("Mit 50.000 Besuchern", "With 5,000 visitors") == V{0});
  // a negative number stays negative ("-5–-10" came out "-5-10": -5 to 10)
  CHECK(missing("from -5 to -10 or -5\xE2\x80\x93-10", "von -5 bis -10 oder -5-10") == V{3});
  CHECK(missing("from -5 to -10", "von -5 bis 10") == V{1});
  CHECK(missing("pages 5-10, (-3)", "Seiten 5-10, (-3)").empty());
  CHECK(missing("at \xE2\x88\x92" "7 degrees", "bei 7 Grad").empty());  // (U+2212: pass_through's to copy)
  CHECK(minus_sign_before("a -5", 3) == 1);
  CHECK(minus_sign_before("a \xE2\x88\x92" "5", 5) == 3);
  CHECK(minus_sign_before("5-10", 2) == 0);
  CHECK(minus_sign_before("COVID-19", 6) == 0);
  CHECK(missing("2014 sind 214.000 Personen", "In 2014, 000 people") == V{1});
  CHECK(missing("Er erhält mit 630 Millionen 130 Millionen mehr", "He receives 630 million more") == V{1});
  CHECK(missing("Call 555-0199.", "Rufen Sie 55-0199 an.") == V{0});
  CHECK(missing("um 19 Uhr und 20:25 Uhr", "at 7 p.m. and 8:25 p.m.").empty());
  CHECK(missing("at 7 p.m.", "um 19 Uhr").empty());
  CHECK(missing("um 5 Uhr und um 17 Uhr", "at 5:00 and at 5.00 p.m.").empty());  // a full hour with minutes
  CHECK(missing("um 5 Uhr", "at 500") == V{0});  // only as a time
  CHECK(missing("30 Leute", "30:00") == V{0});  // only an hour
  CHECK(missing("6:2 6:2", "6:2") == V{1});  // each target number answers for one source number
  CHECK(missing("2 Mädchen und 3 Jungen, 1 Tag", "Two girls and three boys, one day", "de", "en").empty());
  CHECK(missing("2 blond girls, 1 day, 12 boys", "Zwei blonde Mädchen, einen Tag, zwölf Jungen").empty());
  CHECK(missing("2 girls and 2 boys", "zwei Mädchen und Jungen") == V{1});  // one word each
  CHECK(missing("13 girls", "dreizehn Mädchen") == V{0});  // words only up to twelve
  CHECK(missing("Im Jahr 1990", "In 1990s").empty());
  CHECK(missing("No numbers here.", "Keine Zahlen.").empty());
  CHECK(missing("99 and 123", "") == V{0, 1});
  // a date keeps the form of a date, either separator
  CHECK(missing("am 12.03.2025", "on 12.03.2025").empty());
  CHECK(missing("am 12.03.2025", "on 12/03/2025").empty());
  CHECK(missing("am 12.03.2025", "on 12,03,2025") == V{0});
  CHECK(missing("on 12/03/2025", "am 12.03/2025") == V{0});
  CHECK(missing("on 12/03/2025", "am 12/2025 03") == V{0});
}

TEST_CASE("english_ordinal_suffix: by the last two digits, whatever comes before them") {
  CHECK(std::string(nmt::english_ordinal_suffix("1")) == "st");
  CHECK(std::string(nmt::english_ordinal_suffix("21")) == "st");
  CHECK(std::string(nmt::english_ordinal_suffix("22")) == "nd");
  CHECK(std::string(nmt::english_ordinal_suffix("103")) == "rd");
  for (const char* teen : {"11", "12", "13", "111", "10", "4", "100"}) CHECK(std::string(nmt::english_ordinal_suffix(teen)) == "th");
  // a minus sign before the digits (U+2212: not a digit) is no tens digit
  CHECK(std::string(nmt::english_ordinal_suffix("\xE2\x88\x92" "3")) == "rd");
  CHECK(std::string(nmt::english_ordinal_suffix("-2")) == "nd");
}

TEST_CASE("missing_numbers: an English ordinal needs a German one (\"1st place\" came out \"einen Platz\")") {
  using I = std::vector<size_t>;
  CHECK(missing("She won 1st place.", "Sie gewann einen Platz.") == I{0});
  CHECK(missing("It was the 3rd time.", "Es war die 3 Uhrzeit.") == I{0});
  CHECK(missing("the 21st century", "das 21 Jahrhundert") == I{0});
  CHECK(missing("She won 1st place.", "Sie gewann den 1. Platz.").empty());
  CHECK(missing("She won 1st place.", "Sie gewann den ersten Platz.").empty());
  CHECK(missing("He came 2nd.", "Er wurde Zweiter.").empty());
  CHECK(missing("the 21st century", "das einundzwanzigste Jahrhundert").empty());
  CHECK(missing("the 3rd and 4th floors", "der dritte und 4. Stock").empty());
  CHECK(missing("on 1st Avenue", "auf der 1st Avenue").empty());  // copied
  CHECK(missing("He came 1st.", "Er kam als 1.").empty());       // the sentence's end
  CHECK(missing("the 3rd time", "das 3.5 Mal") == I{0});
  CHECK(missing("the 3rd time", "the 3 time", "en", "en").empty());  // only into German
}

TEST_CASE("missing_numbers: a German ordinal needs its digits or its word in English (\"Die 3. Auflage\" came out \"The edition\")") {
  using I = std::vector<size_t>;
  const auto lost = [](std::string_view source, std::string_view target) { return missing(source, target, "de", "en"); };
  CHECK(lost("Die 3. Auflage erschien 2019.", "The edition appeared in 2019.") == I{0});
  CHECK(lost("Er ist der 3. Sohn.", "He's the son.") == I{0});
  CHECK(lost("Die 3. Auflage erschien 2019.", "The 3rd edition appeared in 2019.").empty());
  CHECK(lost("Die 3. Auflage erschien 2019.", "The third edition appeared in 2019.").empty());
  CHECK(lost("Im 2. Weltkrieg", "In World War II").empty());
  CHECK(lost("Im 20. Jahrhundert", "In the twentieth century").empty());
  CHECK(lost("am 7. Oktober", "on October 7").empty());
  CHECK(lost("Das war sein 1. Tor.", "That was his first goal.").empty());
  CHECK(lost("im August, am 8. Tag", "in August, on the day") == I{0});  // a month is no ordinal word
}

TEST_CASE("missing_numbers: a number the source never had, written against or as one of its numbers") {
  using V = std::vector<size_t>;
  // "2020–2021" came out "2020-20-2021": the "20" is neither number, both are garbled
  CHECK(missing("The project ran from 2020\u20132021.", "Das Projekt lief von 2020-20-2021.") == V{0, 1});
  CHECK(missing("pages 3-5", "Seiten 3-5-7") == V{1});
  // a year the source has once, written twice: the second is the model's
  CHECK(missing("The 2019\u20132020 academic year starts in September.",
                "Das Akademiejahr 2019\u20132020 startet im September 2019.") == V{0});
  // a lost number garbled is that number lost, not another's ("2022" -> "20222")
  CHECK(missing("Results from 2021\u20132022", "Ergebnisse von 2021\u201320222") == V{1});
  // the second year of a range written short or in full is the same year
  CHECK(missing("In the 2020\u20132021 school year", "Im Schuljahr 2020\u201321").empty());
  CHECK(missing("The 2020-21 season", "Die Saison 2020\u20132021").empty());
  CHECK(missing("in 2020 and 2021", "2020 und 21") == V{1});  // (no range: no short year)
  CHECK(missing("from 1998\u20132102", "von 1998\u201302") == V{1});  // (another century: no short year)
  // what the source says otherwise is no invented number
  CHECK(missing("Sales rose by twenty-five percent in 2020.", "Der Umsatz stieg 2020 um 25 Prozent.").empty());
  CHECK(missing("Der Umsatz stieg um zwanzig Prozent, 2020.", "Sales rose 20-2020.", "de", "en").empty());
  CHECK(missing("im 3. Quartal, 1990er, achtundvierzig", "in Q3 2-1990, 48", "de", "en").empty());
  CHECK(missing("the 3rd time in the 90s, 2-3 times", "das 3. Mal in den 1990-2-3 Jahren").empty());
  CHECK(missing("at 5 p.m. in 2024", "um 17 Uhr 2024").empty());
  CHECK(missing("in the sixties, at noon, 2024", "in den 60er Jahren, 1960-2024, 12:00").empty());
  CHECK(missing("in March 2024", "im 03/2024").empty());
  // a number on its own the source lacks says nothing about the source's numbers
  CHECK(missing("Covid cases rose in 2021.", "Die Covid-19-F\u00e4lle stiegen 2021.").empty());
  CHECK(missing("The 2020 season", "Die Saison 2020, 2021") == V{0});
}

TEST_CASE("missing_numbers: a decimal or a time that lost its separator has changed (\"9.30 Uhr\" -> \"930\")") {
  using V = std::vector<size_t>;
  CHECK(missing("Die Sitzung dauert von 9.30 bis 11.45 Uhr.", "The meeting lasts from 930 to 11.45.", "de", "en") == V{0});
  CHECK(missing("Es sind 3,5 Prozent.", "It is 35 percent.", "de", "en") == V{0});
  CHECK(missing("at 20:25", "um 2025") == V{0});
  CHECK(missing("am 12.03.2025", "on 12032025", "de", "en") == V{0});
  // thousands may go, any separator may change
  CHECK(missing("Es kamen 1.000 Menschen, 2.500.000 Euro.", "1000 people came, 2500000 euros.", "de", "en").empty());
  CHECK(missing("von 9.30 bis 11.45 Uhr, 3,5 Prozent", "from 9:30 to 11:45, 3.5 percent", "de", "en").empty());
  CHECK(missing("at 9.30 p.m.", "um 21.30 Uhr").empty());
}

TEST_CASE("missing_numbers: an amount given a currency the source never names has changed") {
  using V = std::vector<size_t>;
  // "The fine was increased from £100 to £150." came out "von 100 £ bis 150 £ Euro"
  CHECK(missing("from \u00a3100 to \u00a3150.", "von 100 \u00a3 bis 150 \u00a3 Euro.") == V{1});
  CHECK(missing("It costs 20 dollars.", "Es kostet 20 Euro.") == V{0});
  CHECK(missing("It costs 20.", "Es kostet 20 $.") == V{0});
  CHECK(missing("It costs 20.", "Es kostet $ 20.") == V{0});
  CHECK(missing("a loss of 2.5 billion", "ein Verlust von 2,5 Milliarden Euro") == V{0});
  // the source's own currency, or none
  CHECK(missing("It costs $20 (\u20ac18).", "Es kostet 20 $ (18 Euro).").empty());
  CHECK(missing("It costs \u00a3150.", "Es kostet 150 Pfund.").empty());
  CHECK(missing("It weighs 5 pounds.", "Es wiegt 5 Pfund.").empty());
  CHECK(missing("20 people paid $5.", "20 Menschen zahlten 5 Dollar.").empty());
}

TEST_CASE("missing_numbers: a number whose scale or unit the target changed") {
  using V = std::vector<size_t>;
  // "Turn left after 200 m." came out "Dreh nach 200 Mio." (200 million), "300 m hoch" "300 miles"
  CHECK(missing("Turn left after 200 m.", "Dreh nach 200 Mio.") == V{0});
  CHECK(missing("Der Turm ist 300 m hoch.", "The tower is 300 miles.", "de", "en") == V{0});
  CHECK(missing("worth $2.5 billion", "2,5 Billionen Dollar wert") == V{0});  // 10^12 in German
  CHECK(missing("2 Billionen Euro", "2 billion euros", "de", "en") == V{0});
  CHECK(missing("It has 5 rooms.", "Es hat 5 Millionen Zimmer.") == V{0});
  // the same scale or unit in either language's words, or none in the target: as it is
  CHECK(missing("worth $2.5 billion and 3 trillion", "2,5 Milliarden und 3 Billionen wert").empty());
  CHECK(missing("2,5 Mrd. Euro, 3,5 Mio. Einwohner, 40 Tausend", "2.5 billion euros, 3.5 million people, 40 thousand", "de", "en").empty());
  CHECK(missing("The firm made $5m, 200 m away, 5k.", "Die Firma machte 5 Millionen Dollar, 200 Meter entfernt, 5 Tausend.").empty());
}

TEST_CASE("missing_numbers: a number whose scale the target lost (\"1,5 Mrd. Euro\" came out \"1.5 Euro\")") {
  using V = std::vector<size_t>;
  CHECK(missing("3.5 million people", "3,5 Menschen") == V{0});
  CHECK(missing("Der Verlust betrug 1,5 Mrd. Euro.", "The loss was 1.5 euros.", "de", "en") == V{0});
  CHECK(missing("Die Schulden betragen 2 Billionen Euro.", "The debt is 2 euros.", "de", "en") == V{0});
  // the scale in either language, hyphenated, or as "Mr." (number_labels writes it "billion")
  CHECK(missing("a $5 million fine", "eine 5-Millionen-Dollar-Strafe").empty());
  CHECK(missing("Der Verlust betrug 1,5 Mrd. Euro.", "The loss was 1.5 Mr. Euro.", "de", "en").empty());
  CHECK(missing("3.5 million people and 200 m", "3,5 Millionen Menschen und 200 Meter").empty());
  CHECK(missing("200 m away", "200 entfernt").empty());  // (a unit lost is the model's word)
}

TEST_CASE("unpriced_numbers, currency_insertions, adds_currency: an amount keeps its currency, and gains no other") {
  using V = std::vector<size_t>;
  auto unpriced = [](std::string_view source, std::string_view target) {
    return unpriced_numbers(source, find_numbers(source, "en", false), target);
  };
  CHECK(unpriced("It was fined $5,000.", "Es wurde mit 5.000 $ bestraft.").empty());
  CHECK(unpriced("It was fined $5,000.", "Es wurde mit 5.000 Dollar bestraft.").empty());
  CHECK(unpriced("It was fined $5,000.", "Es wurde mit 5.000 US-Dollar bestraft.").empty());
  CHECK(unpriced("It was fined $5,000.", "Es wurde mit 5.000 bestraft.") == V{0});  // the sign is lost
  CHECK(missing("It was fined $5,000.", "Es wurde mit 5.000 bestraft.").empty());  // not the number
  CHECK(unpriced_numbers("Es kostet 5,50 \xE2\x82\xAC.", find_numbers("Es kostet 5,50 \xE2\x82\xAC.", "de", false),
                         "It costs 5.50 euros.").empty());
  CHECK(unpriced("$21 million to $22 million", "21 bis 22 Millionen Dollar").empty());  // once for both
  CHECK(unpriced("$5 or $10 and 3", "5 oder 10 und 3") == V{0, 1});
  CHECK(unpriced("$5 or 10 \xC2\xA3", "5 $ oder 10") == V{1});  // each currency on its own
  CHECK(unpriced("It costs 5 dollars.", "Es kostet 5.").empty());  // a name in the source is no sign
  CHECK(unpriced("10 \xE2\x82\xAC or \xC2\xA3 3", "10 \xE2\x82\xAC oder 3") == V{1});  // after the number, a space between
  // the same amount twice: each needs a sign of its own (the one sign counted for all three)
  CHECK(unpriced("Tickets cost $25, $25 and $25.", "Tickets kosten 25, $25 und $25.") == V{2});
  CHECK(unpriced("Tickets cost $25, $25 and $25.", "Tickets kosten 25 $, 25 $ und 25 $.").empty());

  auto restored = [](std::string source, std::string target, std::string from, std::string to, size_t fixed = 0) {
    for (const auto& [at, sign] : currency_insertions(source, find_numbers(source, from, false), target, to, fixed))
      target.insert(at, sign);
    return target;
  };
  CHECK(restored("It costs $5.50 and 20% more.", "Es kostet 5,50 und 20% mehr.", "en", "de") == "Es kostet 5,50 $ und 20% mehr.");
  CHECK(restored("It cost $5.50 more.", "Es kostet5,50 mehr.", "en", "de") == "Es kostet 5,50 $ mehr.");  // unglued
  CHECK(restored("about $225 million", "etwa 225 Millionen", "en", "de") == "etwa 225 Millionen $");
  CHECK(restored("$8.19 billion from $7.65 billion", "8,19 Milliarden von 7,65 Milliarden", "en", "de") ==
        "8,19 Milliarden $ von 7,65 Milliarden $");
  CHECK(restored("a $230-a-share bid", "ein 230-a-share-Gebot", "en", "de") == "ein $230-a-share-Gebot");
  CHECK(restored("Bitte spende 100,00 $ heute.", "Please donate 100.00 today.", "de", "en") == "Please donate $100.00 today.");
  CHECK(restored("Wir brauchen 10.000\xE2\x82\xAC mehr.", "We need more10,000.", "de", "en") ==
        "We need more \xE2\x82\xAC" "10,000.");
  CHECK(restored("It was fined $5,000.", "Es wurde mit 5.000 Dollar bestraft.", "en", "de") ==
        "Es wurde mit 5.000 Dollar bestraft.");  // named: nothing to do
  CHECK(restored("Tickets cost $25, $25 and $25.", "Tickets kosten 25, $25 und $25.", "en", "de") ==
        "Tickets kosten 25 $, $25 und $25.");  // by the amount without one
  CHECK(restored("It cost $12.", "Es kostet.", "en", "de") == "Es kostet.");  // no number to put it by
  CHECK(restored("It cost $12.", "Es kostet 12.", "en", "de", 11) == "Es kostet 12.");  // in a prefix: left
  CHECK(restored("It cost $12.", "Es kostet 12.", "en", "fr") == "Es kostet 12.");  // other languages: left
  CHECK(adds_currency("about $225 million", "etwa $225 Millionen Pfund"));  // a guessed currency
  CHECK_FALSE(adds_currency("about $225 million", "etwa 225 Millionen US-Dollar"));
  CHECK_FALSE(adds_currency("It weighs a pound.", "Es wiegt ein Pfund."));
}

TEST_CASE("range_dashes: a range keeps the source's dash") {
  const auto fixed = [](const std::string& source, std::string target, size_t keep = 0) {
    for (const TextEdit& e : range_dashes(source, target, keep)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("in 3–5 business days", "in 3-5 Werktage") == "in 3–5 Werktage");
  CHECK(fixed("from 12–14 June, pages 3–5 and 3–5", "vom 12-14. Juni, Seiten 3-5 und 3-5") == "vom 12–14. Juni, Seiten 3–5 und 3–5");
  // a hyphen in the source, other digits, a range inside a longer number, a forced prefix: as they are
  CHECK(fixed("in 3-5 days", "in 3-5 Tagen") == "in 3-5 Tagen");
  CHECK(fixed("in 3–5 days", "in 13-50 Tagen, 3-4") == "in 13-50 Tagen, 3-4");
  CHECK(fixed("in 3–5 days", "in 3-5 Tagen", 5) == "in 3-5 Tagen");
  CHECK(fixed("Mon–Fri, –5, 5–", "Mo-Fr, -5, 5-") == "Mo-Fr, -5, 5-");
  // a range the model wrote as a score or ratio
  CHECK(fixed("will arrive in 2-3 days", "wird in 2:3 Tagen ankommen") == "wird in 2-3 Tagen ankommen");
  CHECK(fixed("in 3–5 business days", "in 3:5 Werktagen") == "in 3–5 Werktagen");
  CHECK(fixed("Es dauert 10-15 Minuten.", "It takes 10:15 minutes.") == "It takes 10-15 minutes.");
  // not where the source has the colon too, nor codes, dates, phone numbers
  CHECK(fixed("won 2:3 after 2-3 at half time", "gewann 2:3 nach 2:3") == "gewann 2:3 nach 2:3");
  CHECK(fixed("call 555-0199 on 2024-03-17", "ruf 555:0199 am 2024:03:17 an") == "ruf 555:0199 am 2024:03:17 an");
  CHECK(fixed("in 2-3 days", "in 12:30 Tagen") == "in 12:30 Tagen");
  // ends of any length, compared as numbers (a 24-digit end threw std::out_of_range: fuzz_text)
  const std::string big = "333333333333333333333333";
  CHECK(fixed("pages " + big + "–" + big + "4", "Seiten " + big + ":" + big + "4") == "Seiten " + big + "–" + big + "4");
  CHECK(fixed("pages " + big + "4–" + big, "Seiten " + big + "4:" + big) == "Seiten " + big + "4:" + big);  // goes down: a score
  CHECK(fixed("pages 007–12", "Seiten 007:12") == "Seiten 007–12");
  CHECK(fixed("pages 012–7", "Seiten 012:7") == "Seiten 012:7");
  CHECK(range_dashes("e0333333333333333333333333\u20130", "x").empty());
}

TEST_CASE("range_dashes: a range written as one number, and a year range written short") {
  const auto fixed = [](const std::string& source, std::string target, size_t keep = 0) {
    for (const TextEdit& e : range_dashes(source, target, keep)) target.replace(e.at, e.length, e.text);
    return target;
  };
  // "3–5 May" came out "3.5. Mai" (the third of May): a German range of days
  CHECK(fixed("The meeting is on 3\u20135 May 2024.", "Das Treffen ist am 3.5. Mai 2024.") == "Das Treffen ist am 3.\u20135. Mai 2024.");
  CHECK(fixed("It takes 3-5 hours.", "Es dauert 3,5 Stunden.") == "Es dauert 3-5 Stunden.");
  CHECK(fixed("Es dauert 3\u20135 Stunden.", "It takes 3.5 hours.") == "It takes 3\u20135 hours.");
  // not a number the source writes so too, nor a longer number, nor a prefix
  CHECK(fixed("3.5 or 3-5 hours", "3.5 oder 3.5 Stunden") == "3.5 oder 3.5 Stunden");
  CHECK(fixed("3-5 hours", "13.5 oder 3.55 oder 3.5.1") == "13.5 oder 3.55 oder 3.5.1");
  CHECK(fixed("3-5 hours", "Es 3.5 Stunden", 4) == "Es 3.5 Stunden");
  // "2020–2021" written "2020–21": the source's year
  CHECK(fixed("The 2019\u20132020 budget", "Das Budget 2019\u201320") == "Das Budget 2019\u20132020");
  CHECK(fixed("The 2019-2020 budget, 2019/2020", "Das Budget 2019-20, 2019/20") == "Das Budget 2019-2020, 2019/2020");
  CHECK(fixed("The 2019\u20132020 budget", "Das Budget 2019\u2013201 und 2019\u201320.5") == "Das Budget 2019\u2013201 und 2019\u201320.5");
  CHECK(fixed("from 1999\u20132000", "von 1999\u201300") == "von 1999\u201300");  // (another century: as written)
  CHECK(fixed("The 2019\u20132020 budget", "Das Budget 2019\u201320", 16) == "Das Budget 2019\u201320");
}

TEST_CASE("approximate_marks: the source's \"~\" stays on its number") {
  const auto fixed = [](const std::string& source, std::string target, size_t keep = 0) {
    for (const TextEdit& e : approximate_marks(source, target, keep)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("It costs ~$50.", "Es kostet 50 ~ Dollar.") == "Es kostet ~50 Dollar.");
  CHECK(fixed("The flight takes ~3 hours.", "Der Flug dauert 3 Stunden.") == "Der Flug dauert ~3 Stunden.");
  CHECK(fixed("It costs ~50 \u20AC, not ~ 60.", "It costs 50 \u20AC, not 60.") == "It costs ~50 \u20AC, not ~60.");
  CHECK(fixed("Das kostet ~50 Euro.", "It costs $50.") == "It costs ~$50.");
  CHECK(fixed("The file is ~2.5 MB.", "Die Datei ist 2,5 MB.") == "Die Datei ist ~2,5 MB.");
  // a mark already there, a "~" that is no mark, other digits, a forced prefix: as they are
  CHECK(fixed("about ~200 guests", "etwa ~200 G\u00E4ste") == "etwa ~200 G\u00E4ste");
  CHECK(fixed("Use ~/config or a ~ sign, and 3~4.", "Verwenden Sie ~/config oder ~ und 3 ~ 4.") ==
        "Verwenden Sie ~/config oder ~ und 3 ~ 4.");
  CHECK(fixed("~50 people", "60 Leute") == "60 Leute");
  CHECK(fixed("~50 people and ~ signs", "50 Leute und ~ Zeichen") == "~50 Leute und ~ Zeichen");
  CHECK(fixed("~50 people", "~50 Leute, 50 ~", 4) == "~50 Leute, 50");
  CHECK(fixed("~50 people", "50 Leute", 4) == "50 Leute");
}

TEST_CASE("number_labels: No. / Nr., p. / S., Fig. / Abb. before a number, the target's way") {
  const auto fixed = [](const std::string& source, std::string target, const char* from, const char* to, size_t keep = 0) {
    for (const TextEdit& e : number_labels(source, target, from, to, keep)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("Order No. 12345 has shipped.", "Order Nein. 12345 ist versandt.", "en", "de") == "Order Nr. 12345 ist versandt.");
  CHECK(fixed("Room no. 5 and p. 45", "Zimmer No. 5 und p. 45", "en", "de") == "Zimmer Nr. 5 und S. 45");
  CHECK(fixed("\"cosmonaut No. 11\"", "„cosmonaut Ne. 11“", "en", "de") == "„cosmonaut Nr. 11“");  // flores-dev
  CHECK(fixed("Bestellung Nr. 12345, S. 45, Abb. 2", "Order Nr. 12345, S. 45, Abb. 2", "de", "en") ==
        "Order No. 12345, p. 45, Fig. 2");
  // right already, another word before the number, no label in the source, other digits, a prefix
  CHECK(fixed("Order No. 5", "Bestellung Nr. 5", "en", "de") == "Bestellung Nr. 5");
  CHECK(fixed("invoice no. 2024-17", "keine Rechnung. 2024-17", "en", "de") == "keine Rechnung. 2024-17");
  CHECK(fixed("No, 5 of them.", "Nein, 5 davon.", "en", "de") == "Nein, 5 davon.");
  CHECK(fixed("Order No. 5", "Order Nein. 6", "en", "de") == "Order Nein. 6");
  CHECK(fixed("Order No. 5", "Order Nein. 5", "en", "de", 8) == "Order Nein. 5");
  CHECK(fixed("siehe s. 45", "see s. 45", "de", "en") == "see s. 45");
  CHECK(fixed("Order No. 5", "Order Nein. 5", "en", "fr") == "Order Nein. 5");
}

TEST_CASE("number_labels: no., No, nos., Abschn. and Kap. are labels too") {
  const auto fixed = [](const std::string& source, std::string target, const char* from, const char* to) {
    for (const TextEdit& e : number_labels(source, target, from, to)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("Order no. 12345 has shipped.", "Oder nein. 12345 ist versandt.", "en", "de") == "Oder Nr. 12345 ist versandt.");
  CHECK(fixed("See No 5 and nos. 3 and 4.", "Siehe Nein 5 und Nos. 3 und 4.", "en", "de") == "Siehe Nr. 5 und Nrn. 3 und 4.");
  CHECK(fixed("Siehe in Abschn. 3.2 die Details.", "See in distinct. 3.2 the details.", "de", "en") == "See in Sec. 3.2 the details.");
  CHECK(fixed("Lesen Sie Kap. 4.1 zuerst.", "Read Cape. 4.1 first.", "de", "en") == "Read Ch. 4.1 first.");
  CHECK(fixed("Read pp. 12-15 and Fig. 3.", "Lesen Sie pp. 12-15 und Abb. 3.", "en", "de") == "Lesen Sie S. 12-15 und Abb. 3.");
  CHECK(fixed("Siehe S. 12-15.", "See S. 12-15.", "de", "en") == "See p. 12-15.");
  CHECK(fixed("Siehe Abschn. 3.2 und Kap. 4.1.", "See Abschn. 3.2 and cap. 4.1.", "de", "en") == "See Sec. 3.2 and Ch. 4.1.");
  // right already, a word without a dot, an answer, no label in the source
  CHECK(fixed("Lesen Sie Kap. 4.1 zuerst.", "Read chapter 4.1 first.", "de", "en") == "Read chapter 4.1 first.");
  CHECK(fixed("No, 5 is wrong.", "Nein, 5 ist falsch.", "en", "de") == "Nein, 5 ist falsch.");
  CHECK(fixed("Er kam um 3.2 Uhr. 4.1 war weg.", "He came at 3.2 a.m. 4.1 was gone.", "de", "en") == "He came at 3.2 a.m. 4.1 was gone.");
  CHECK(fixed("See No 5.", "Siehe Nr. 5.", "en", "de") == "Siehe Nr. 5.");
}

TEST_CASE("number_labels: de->en, a German scale's abbreviation without its dot, the sign before the amount") {
  const auto fixed = [](const std::string& source, std::string target, const char* from = "de", const char* to = "en",
                        size_t keep = 0) {
    for (const TextEdit& e : number_labels(source, target, from, to, keep)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("Der Verlust beträgt 2,3 Mio. €.", "The loss is 2.3m. €.") == "The loss is €2.3 million.");
  CHECK(fixed("Es wurden 1,5 Mio. € investiert.", "It was invested 1.5 million. €") == "It was invested €1.5 million.");
  CHECK(fixed("Der Umsatz lag bei 3,2 Mrd. €.", "Revenue was at 3.2 bn €.") == "Revenue was at €3.2 billion.");
  CHECK(fixed("Das kostet 1,5 Mio. Euro.", "That costs 1.5 million. Euro.") == "That costs 1.5 million Euro.");
  CHECK(fixed("Der Verlust betrug 1,5 Mrd. Euro.", "The loss was 1.5 Mr. Euro.") == "The loss was 1.5 billion Euro.");
  // right already, the sentence's own dot, another scale, other digits, no abbreviation, en->de, a prefix
  CHECK(fixed("Das kostet 1,5 Mio. €.", "That costs €1.5 million.") == "That costs €1.5 million.");
  CHECK(fixed("Das kostet 1,5 Mio.", "That costs 1.5m.") == "That costs 1.5m.");
  CHECK(fixed("Das kostet 1,5 Mio. €.", "That costs 1.5 billion €.") == "That costs 1.5 billion €.");
  CHECK(fixed("Das kostet 1,5 Mio. €.", "That costs 2.5m. €.") == "That costs 2.5m. €.");
  CHECK(fixed("Das kostet 1,5 Millionen €.", "That costs 1.5 million €.") == "That costs 1.5 million €.");
  CHECK(fixed("It costs 1.5 Mio. €.", "Es kostet 1,5 Mio. €.", "en", "de") == "Es kostet 1,5 Mio. €.");
  CHECK(fixed("Das kostet 1,5 Mio. €.", "That costs 1.5m. €.", "de", "en", 15) == "That costs 1.5m. €.");
}

TEST_CASE("number_labels: a unit the model changed after a number is the source's (\"5.000 m\" came out \"5,000 minutes\")") {
  const auto fixed = [](const std::string& source, std::string target, const char* from, const char* to, size_t keep = 0) {
    for (const TextEdit& e : number_labels(source, target, from, to, keep)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("Die Strecke ist 5.000 m lang.", "The route is 5,000 minutes.", "de", "en") == "The route is 5,000 m.");
  CHECK(fixed("Die Strecke ist 5.000 m lang.", "The route is 5,000 million long.", "de", "en") == "The route is 5,000 m long.");
  CHECK(fixed("Der Turm ist 300 m hoch.", "The tower is 300 miles high.", "de", "en") == "The tower is 300 m high.");
  CHECK(fixed("Sie lief 10.000 m und 5 km.", "She ran 10,000 minutes and 5 miles.", "de", "en") == "She ran 10,000 m and 5 km.");
  CHECK(fixed("Turn after 200 m.", "Biegen Sie nach 200 Meilen ab.", "en", "de") == "Biegen Sie nach 200 m ab.");
  CHECK(fixed("It weighs 5 kg.", "Es wiegt 5 Pfund.", "en", "de") == "Es wiegt 5 kg.");
  CHECK(fixed("Nr. 5 und 300 m", "Nr 5 and 300 miles", "de", "en") == "No. 5 and 300 m");
  // right already, written out, money, other digits, another language, a prefix
  CHECK(fixed("Der Turm ist 300 m hoch.", "The tower is 300 m high.", "de", "en") == "The tower is 300 m high.");
  CHECK(fixed("Er lief 10 km.", "He ran 10 kilometres.", "de", "en") == "He ran 10 kilometres.");
  CHECK(fixed("It cost $5 m.", "Es kostete 5 Mio. $.", "en", "de") == "Es kostete 5 Mio. $.");
  CHECK(fixed("a population of 5 m people", "eine Bevölkerung von 5 Millionen Menschen", "en", "de") ==
        "eine Bevölkerung von 5 Millionen Menschen");
  CHECK(fixed("It is 5 m long and 30 minutes away.", "Es ist 5 m lang und 30 Minuten entfernt.", "en", "de") ==
        "Es ist 5 m lang und 30 Minuten entfernt.");
  CHECK(fixed("Der Turm ist 300 m hoch.", "The tower is 30 miles high.", "de", "en") == "The tower is 30 miles high.");
  CHECK(fixed("Der Turm ist 300 m hoch.", "The tower is 300 miles high.", "de", "fr") == "The tower is 300 miles high.");
  CHECK(fixed("Der Turm ist 300 m hoch.", "The tower is 300 miles high.", "de", "en", 20) == "The tower is 300 miles high.");
}

TEST_CASE("english_ordinal_endings: each ordinal its own ending") {
  const auto fixed = [](std::string text, size_t keep = 0) {
    for (const TextEdit& e : english_ordinal_endings(text, keep)) text.replace(e.at, e.length, e.text);
    return text;
  };
  CHECK(fixed("On October 3th, the 1th of May, the 11st, 12nd, 13rd, 22th, 101th and 111st.") ==
        "On October 3rd, the 1st of May, the 11th, 12th, 13th, 22nd, 101st and 111th.");
  CHECK(fixed("the 21st, 2nd, 3rd, 4th, 100th and 1000th stay") == "the 21st, 2nd, 3rd, 4th, 100th and 1000th stay");
  CHECK(fixed("3than, 1stop, A3rd, x1th, 3 th, 1.5th") == "3than, 1stop, A3rd, x1th, 3 th, 1.5th");  // words, names; "1.5th": 5th
  CHECK(fixed("the 3th", 7) == "the 3th");  // a forced prefix
  CHECK(fixed("").empty());
}

TEST_CASE("english_ordinal_endings: an ending cut short (\"sein 3. Sieg\" came out \"his 3r victory\")") {
  const auto fixed = [](std::string text, size_t keep = 0) {
    for (const TextEdit& e : english_ordinal_endings(text, keep)) text.replace(e.at, e.length, e.text);
    return text;
  };
  CHECK(fixed("It's his 3r victory, the 2n time, the 22n day.") == "It's his 3rd victory, the 2nd time, the 22nd day.");
  // another letter, a formula, not before a word, another number's ending, a prefix
  CHECK(fixed("2n + 1, 3r.") == "2n + 1, 3r.");
  CHECK(fixed("the 4n team, the 1r try") == "the 4n team, the 1r try");
  CHECK(fixed("his 3r victory", 8) == "his 3r victory");
}

TEST_CASE("localize_numbers: thousands and decimal separators swap between English and German") {
  CHECK(localized("$1,234.56 and 50,000 and 9.5 and 2019", "en", "de") == "$1.234,56 and 50.000 and 9,5 and 2019");
  CHECK(localized("1.234,56 Euro, 50.000 Besucher, 9,5 Prozent", "de", "en") == "1,234.56 Euro, 50,000 Besucher, 9.5 Prozent");
  // forms that say nothing about which separator is which stay as written
  CHECK(localized("am 1.10.2020 um 20:25, Version 1.2.3, 12,34,567", "de", "en") == "am 1.10.2020 um 20:25, Version 1.2.3, 12,34,567");
  CHECK(localized("1,5 and 1234,567.8", "en", "de") == "1,5 and 1234,567.8");
  CHECK(localized("9,5", "de", "fr") == "9,5");
  CHECK(localized("Call +1 800 555 0199 or 1 800 555 0199, not 55 000", "en", "de") ==
        "Call +1 800 555 0199 or 1 800 555 0199, not 55.000");  // a phone number's groups stay
  CHECK(localized("Rufen Sie 030.123.456 oder 0.123.456 an, 1.234.567", "de", "en") ==
        "Rufen Sie 030.123.456 oder 0.123.456 an, 1,234,567");  // no amount starts with 0 and a thousands group
  // labels name rather than count: a version or chapter after a name or a word for one
  CHECK(localized("Install Python 3.11, see Section 4.1 and version 2.0 on iOS 17.1.", "en", "de") ==
        "Install Python 3.11, see Section 4.1 and version 2.0 on iOS 17.1.");
  CHECK(localized("Siehe Kapitel 3,2.", "de", "en") == "Siehe Kapitel 3,2.");
  // amounts after a name, a month, a currency code or at the start stay amounts
  CHECK(localized("In 1.5 hours, Berlin 3.5 million, in March 2.5 tons, EUR 1.5, RMB 7.0, Apple 3.5%, Johor 4.2 percent", "en",
                  "de") == "In 1,5 hours, Berlin 3,5 million, in March 2,5 tons, EUR 1,5, RMB 7,0, Apple 3,5%, Johor 4,2 percent");
  CHECK(localized("Der Umsatz stieg 3,5 Prozent, Berlin 2,5", "de", "en") == "Der Umsatz stieg 3.5 Prozent, Berlin 2.5");
  // clock times keep their dot ("at 9.00 a.m." came out "um 9,00 Uhr")
  CHECK(localized("at 9.00 a.m., 7.30pm, 11.45 PM. and 9.00 o'clock, 9.50 hours, 9.5 h", "en", "de") ==
        "at 9.00 a.m., 7.30pm, 11.45 PM. and 9.00 o'clock, 9,50 hours, 9,5 h");
  CHECK(localized("um 20,15 Uhr; 2,45 h, 25,30 Uhr, 8,75 Uhr, 8,30 Uhrzeit", "de", "en") ==
        "um 20,15 Uhr; 2.45 h, 25.30 Uhr, 8.75 Uhr, 8.30 Uhrzeit");
  const std::string long_text(5000, '1');
  CHECK(localized(long_text, "en", "de") == long_text);
}

TEST_CASE("translate(): the number check never loses a number the first translation kept (fixture model)") {
  auto loaded = Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  const Translator& t = *loaded.value();
  const std::vector<std::string> texts = {
      "I have 3 cats and 12 dogs.", "It costs 1,234.56 dollars.", "Tom was born in 1990. He is 35.",
      "Call 555-0199 at 7:30.", "We met at www.site2024.de on 12.5.2020 with 40 people."};
  for (const std::string& text : texts) {
    for (bool alignments : {false, true}) {
      TranslateOptions raw;
      raw.raw_numbers = true;
      raw.alignments = alignments;
      TranslateOptions checked = raw;
      checked.raw_numbers = false;
      auto a = t.translate(text, raw), b = t.translate(text, checked);
      REQUIRE(a);
      REQUIRE(b);
      REQUIRE(a->sentences.size() == b->sentences.size());
      for (size_t s = 0; s < a->sentences.size(); ++s) {
        const std::string& source = a->sentences[s].source;
        const ByteSpans nums = find_numbers(source, "en", false, verbatim_spans(source));
        const auto lost_raw = missing_numbers(source, nums, a->sentences[s].target, "de");
        const auto lost_checked = missing_numbers(source, nums, b->sentences[s].target, "de");
        CAPTURE(source);
        CAPTURE(b->sentences[s].target);
        CHECK(lost_checked.size() <= lost_raw.size());
        for (size_t k : lost_checked)  // what the check still lacks, the model's own translation lacked too
          CHECK(std::find(lost_raw.begin(), lost_raw.end(), k) != lost_raw.end());
      }
    }
  }
}

TEST_CASE("localize_copied_numbers: a number the model copied as the source writes it, the target's way") {
  auto rewrite = [](std::string_view source, std::string target, std::string_view from, std::string_view to, size_t fixed = 0) {
    localize_copied_numbers(source, find_numbers(source, from, false), target, from, to, fixed);
    return target;
  };
  CHECK(rewrite("It costs $1,234.56 in 3.5 days.", "Es kostet 1,234.56 $ in 3,5 Tagen.", "en", "de") ==
        "Es kostet 1.234,56 $ in 3,5 Tagen.");
  CHECK(rewrite("Rund 100.000 Menschen, 2,5 Prozent", "Around 100.000 people, 2.5 percent", "de", "en") ==
        "Around 100,000 people, 2.5 percent");
  CHECK(rewrite("from 1,234,567 to 2,345,678", "von 1.234,567 bis 2.345.678", "en", "de") == "von 1.234.567 bis 2.345.678");
  // only numbers with the same digits and length; a forced prefix stays as given
  CHECK(rewrite("Rund 100.000 Menschen", "Around 100.0001 people", "de", "en") == "Around 100.0001 people");
  CHECK(rewrite("Rund 100.000 Menschen", "Around 100000 people", "de", "en") == "Around 100000 people");
  CHECK(rewrite("1,5 Mio. und 1,5 Mio.", "1,5 million and 1,5 million", "de", "en", 12) == "1,5 million and 1.5 million");
  CHECK(rewrite("Am 1.10.2020", "On 1.10.2020", "de", "en") == "On 1.10.2020");
  // a number the target writes as the source does, turned by the model: back as the source writes it
  CHECK(rewrite("Der Termin ist am 12.03. um 14 Uhr.", "The appointment is on 12,03 at 2 p.m.", "de", "en") ==
        "The appointment is on 12.03 at 2 p.m.");
  CHECK(rewrite("Am 15.04.2024 in Raum 1.23", "On 15,04,2024 in room 1,23", "de", "en") == "On 15.04.2024 in room 1.23");
  CHECK(rewrite("Due on 12/03/2024.", "Fällig am 12.03.2024.", "en", "de") == "Fällig am 12/03/2024.");  // (3 December?)
  CHECK(rewrite("Install Python 3.11 now.", "Installieren Sie Python 3,11 jetzt.", "en", "de") ==
        "Installieren Sie Python 3.11 jetzt.");
  // clock times are clock_times.h's; other digits stay
  CHECK(rewrite("at 10:30 and 3:30 pm", "um 10.30 und 15.30 Uhr", "en", "de") == "um 10.30 und 15.30 Uhr");
  CHECK(rewrite("am 12.03.", "on 12,04", "de", "en") == "on 12,04");
  CHECK(rewrite("Kurz nach 11.00 Uhr", "Shortly after 11:00", "de", "en") == "Shortly after 11:00");
  CHECK(rewrite("The store opens at 9.00 a.m.", "Der Laden \u00f6ffnet um 9,00 Uhr.", "en", "de") == "Der Laden \u00f6ffnet um 9.00 Uhr.");
  // against a unit of measure too
  CHECK(rewrite("It weighs 3.5kg and runs at 2.5GHz.", "Es wiegt 3.5kg und läuft mit 2.5GHz.", "en", "de") ==
        "Es wiegt 3,5kg und läuft mit 2,5GHz.");
  CHECK(rewrite("Die CPU hat 2,5GHz.", "The CPU has 2,5GHz.", "de", "en") == "The CPU has 2.5GHz.");
}

TEST_CASE("missing_numbers: a number written without separators gains only thousands' (\"port 8080\" came out \"Port 80.80\")") {
  using V = std::vector<size_t>;
  CHECK(missing("on port 8080.", "auf Port 80.80.") == V{0});
  CHECK(missing("in 2024 and 1990", "20.24 und 19,90") == V{0, 1});
  CHECK(missing("Room 101", "Raum 10.1") == V{0});
  CHECK(missing("on port 8080.", "auf Port 8080.").empty());
  CHECK(missing("about 8080 people", "etwa 8.080 Menschen").empty());
  CHECK(missing("50000 Besucher", "50,000 visitors", "de", "en").empty());
  CHECK(missing("50000 Besucher", "50 000 visitors", "de", "en").empty());
  CHECK(missing("um 19 Uhr", "at 7:00 p.m.", "de", "en").empty());  // (an hour may gain its minutes)
  CHECK(missing("Bayern won 2-1.", "Bayern gewann 2:1.").empty());
}

TEST_CASE("number_labels: de->en, a club's name keeps its ordinal (\"1. FC Köln\" came out \"1 FC Cologne\")") {
  const auto fixed = [](const std::string& source, std::string target, const char* from = "de", const char* to = "en") {
    for (const TextEdit& e : number_labels(source, target, from, to)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("Mit 1. FC Köln gewann er 2015.", "With 1 FC Cologne, he won in 2015.") == "With 1. FC Cologne, he won in 2015.");
  CHECK(fixed("Der 1. FC Union Berlin gewann.", "The 1, FC Union Berlin won.") == "The 1. FC Union Berlin won.");
  CHECK(fixed("Er spielt für den 1. FC Nürnberg.", "He plays for the 1st FC Nuremberg.") == "He plays for the 1. FC Nuremberg.");
  CHECK(fixed("gegen den 1. FSV Mainz 05", "against the 1st FSV Mainz 05") == "against the 1. FSV Mainz 05");
  // right already; no club after it in the source or the target; an ordinal before a word; en->de
  CHECK(fixed("Mit 1. FC Köln", "With 1. FC Cologne") == "With 1. FC Cologne");
  CHECK(fixed("Er wurde 1. beim Rennen.", "He became 1 in the race.") == "He became 1 in the race.");
  CHECK(fixed("Der 1. Mai ist frei.", "The 1 May is free.") == "The 1 May is free.");
  CHECK(fixed("Er kam 1. FC Köln zuvor.", "He came 1 before Cologne.") == "He came 1 before Cologne.");
  CHECK(fixed("Im 1. Stock", "On the 1st Floor") == "On the 1st Floor");
  CHECK(fixed("He plays for 1 FC Cologne.", "Er spielt für 1 FC Köln.", "en", "de") == "Er spielt für 1 FC Köln.");
}

TEST_CASE("number_labels: a percent sign the target's way (en->de wrote \"50%\"; German writes \"50 %\")") {
  const auto fixed = [](const std::string& source, std::string target, const char* from, const char* to, size_t keep = 0) {
    for (const TextEdit& e : number_labels(source, target, from, to, keep)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("Prices rose by 50%.", "Die Preise stiegen um 50%.", "en", "de") == "Die Preise stiegen um 50 %.");
  CHECK(fixed("from 5–10% to 12.5%", "von 5–10% auf 12,5%", "en", "de") == "von 5–10 % auf 12,5 %");
  CHECK(fixed("Die Quote sank auf 5,2 %.", "The rate fell to 5.2 %.", "de", "en") == "The rate fell to 5.2%.");
  // right already; in a word; no number before it; a forced prefix
  CHECK(fixed("It rose 50%.", "Es stieg um 50 %.", "en", "de") == "Es stieg um 50 %.");
  CHECK(fixed("It fell 5.2%.", "It fell 5.2%.", "de", "en") == "It fell 5.2%.");
  CHECK(fixed("a 50% solution", "eine 50%ige Lösung", "en", "de") == "eine 50%ige Lösung");
  CHECK(fixed("the 88% mark", "die 88%-Marke", "en", "de") == "die 88%-Marke");
  CHECK(fixed("100% sure", "zu % sicher", "en", "de") == "zu % sicher");
  CHECK(fixed("It rose 50%.", "Es stieg um 50%.", "en", "de", 14) == "Es stieg um 50%.");
  CHECK(fixed("100%", "100%", "en", "de") == "100%");  // no word: copied as it is
}

TEST_CASE("currency_insertions: de->en, a range's sign goes before its first end (\"15\u201320 \u20ac\" came out \"15\u2013\u20ac20\")") {
  const auto restored = [](const std::string& source, std::string target, const char* from = "de", const char* to = "en") {
    for (const auto& [at, sign] : currency_insertions(source, find_numbers(source, from, false), target, to))
      target.insert(at, sign);
    return target;
  };
  CHECK(restored("Tickets kosten 15\u201320 \u20ac.", "Tickets cost 15\u201320.") == "Tickets cost \u20ac15\u201320.");
  CHECK(restored("Tickets kosten 15-20 \u20ac.", "Tickets cost 15 - 20.") == "Tickets cost \u20ac15 - 20.");
  // each end its own sign; a first end that has one; no range; into German after the number
  CHECK(restored("von 15 \u20ac bis 20 \u20ac", "from 15\u201320") == "from \u20ac15\u2013\u20ac20");
  CHECK(restored("15\u201320 \u20ac", "\u20ac15\u201320") == "\u20ac15\u201320");
  CHECK(restored("Es kostet 20 \u20ac, Seite 15.", "It costs 20, page 15.") == "It costs \u20ac20, page 15.");
}

TEST_CASE("missing_numbers: a number after the word minus stays negative (\"fell to minus 10 degrees\" came out \"auf 10 Grad\")") {
  using V = std::vector<size_t>;
  CHECK(missing("Temperatures fell to minus 10 degrees.", "Die Temperaturen fielen auf 10 Grad.") == V{0});
  CHECK(missing("Es waren minus 5 Grad.", "It was 5 degrees.", "de", "en") == V{0});
  // a minus written either way, or below zero in words
  CHECK(missing("Temperatures fell to minus 10 degrees.", "Die Temperaturen fielen auf minus 10 Grad.").empty());
  CHECK(missing("Temperatures fell to minus 10 degrees.", "Die Temperaturen fielen auf -10 Grad.").empty());
  CHECK(missing("Es waren minus 5 Grad.", "It was 5 degrees below zero.", "de", "en").empty());
  CHECK(missing("Es waren Minus 5 Grad.", "It was minus 5 degrees.", "de", "en").empty());
  CHECK(missing("the Terminus 5 stop", "die Haltestelle Terminus 5").empty());  // (a word that ends in "minus")
}

TEST_CASE("find_numbers, currency_insertions: an amount written with \"bn\" is a number (\"Revenue was \u20ac3.2bn.\" lost its \u20ac)") {
  CHECK(numbers("Revenue was \u20ac3.2bn, up from $900m.") == std::vector<std::string>{"3.2", "900"});
  const auto restored = [](const std::string& source, std::string target) {
    for (const auto& [at, sign] : currency_insertions(source, find_numbers(source, "en", false), target, "de"))
      target.insert(at, sign);
    return target;
  };
  CHECK(restored("Revenue was \u20ac3.2bn.", "Der Umsatz war 3,2 Milliarden.") == "Der Umsatz war 3,2 Milliarden \u20ac.");
  CHECK(missing("Revenue was \u20ac3.2bn.", "Der Umsatz war 3,2 Milliarden \u20ac.").empty());
  CHECK(missing("Revenue was \u20ac3.2bn.", "Der Umsatz war 3,2 Millionen \u20ac.") == std::vector<size_t>{0});
}

TEST_CASE("number_labels: en->de, degrees Celsius apart from the number (\"3\u00b0C\" came out \"3\u00b0C\"; German writes \"3 \u00b0C\")") {
  const auto fixed = [](const std::string& source, std::string target, const char* from = "en", const char* to = "de") {
    for (const TextEdit& e : number_labels(source, target, from, to)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("The water is 3\u00b0C, at most 80\u00b0F.", "Das Wasser ist 3\u00b0C, h\u00f6chstens 80\u00b0F.") ==
        "Das Wasser ist 3 \u00b0C, h\u00f6chstens 80 \u00b0F.");
  // apart already, an angle, a word after it, into English
  CHECK(fixed("It is 3 \u00b0C.", "Es sind 3 \u00b0C.") == "Es sind 3 \u00b0C.");
  CHECK(fixed("a 90\u00b0 angle", "ein 90\u00b0-Winkel") == "ein 90\u00b0-Winkel");
  CHECK(fixed("at 5\u00b0Celsius", "bei 5\u00b0Celsius") == "bei 5\u00b0Celsius");
  CHECK(fixed("Es sind 3\u00b0C.", "It is 3\u00b0C.", "de", "en") == "It is 3\u00b0C.");
}

TEST_CASE("foreign_currencies: a currency the model gave an amount besides the source's goes (\"\u00a32 million\" came out \"2 Millionen \u00a3 Euro\")") {
  const auto fixed = [](const std::string& source, std::string target, const char* from, size_t keep = 0) {
    for (const TextEdit& e : foreign_currencies(source, find_numbers(source, from, false), target, keep))
      target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("The company lost \u00a32 million.", "Das Unternehmen verlor 2 Millionen \u00a3 Euro.", "en") ==
        "Das Unternehmen verlor 2 Millionen \u00a3.");
  CHECK(fixed("Revenue was \u20ac1.2 billion.", "Die Einnahmen waren \u20ac1,2 Milliarden Pfund.", "en") ==
        "Die Einnahmen waren \u20ac1,2 Milliarden.");
  CHECK(fixed("Der Umsatz lag bei 1,2 Mrd. \u20ac.", "Revenue was at $1.2 billion.", "de") == "Revenue was at \u20ac1.2 billion.");
  CHECK(fixed("from \u00a3100 to \u00a3150", "von 100 \u00a3 bis 150 \u00a3 Euro", "en") == "von 100 \u00a3 bis 150 \u00a3");
  // the source's own currency, one the source names too, no sign in the source, a prefix
  CHECK(fixed("It costs \u20ac5.", "Es kostet 5 Euro.", "en") == "Es kostet 5 Euro.");
  CHECK(fixed("It costs \u20ac5, about $6.", "Es kostet 5 \u20ac, etwa 6 Dollar.", "en") == "Es kostet 5 \u20ac, etwa 6 Dollar.");
  CHECK(fixed("It costs \u20ac5 or 6 dollars.", "Es kostet 5 Dollar.", "en") == "Es kostet 5 Dollar.");
  CHECK(fixed("It weighs 5 pounds.", "Es wiegt 5 Pfund.", "en") == "Es wiegt 5 Pfund.");
  CHECK(fixed("The company lost \u00a32 million.", "Das Unternehmen verlor 2 Millionen \u00a3 Euro.", "en", 40) ==
        "Das Unternehmen verlor 2 Millionen \u00a3 Euro.");
}

TEST_CASE("number_labels: de->en, the first of two ordinals gets its ending (\"Der 1. und 2. Preis\" came out \"The 1, and 2nd Price\")") {
  const auto fixed = [](const std::string& source, std::string target, size_t keep = 0) {
    for (const TextEdit& e : number_labels(source, target, "de", "en", keep)) target.replace(e.at, e.length, e.text);
    return target;
  };
  CHECK(fixed("Der 1. und 2. Preis gingen an Anna.", "The 1, and 2nd Price went to Anna.") == "The 1st and 2nd Price went to Anna.");
  CHECK(fixed("am 3. oder 4. Tag", "on the 3 or 4th day") == "on the 3rd or 4th day");
  // no ordinal in the source, the second no ordinal, a number that is no source ordinal, a prefix
  CHECK(fixed("Er kaufte 1 und 2 Karten.", "He bought 1, and 2nd tickets.") == "He bought 1, and 2nd tickets.");
  CHECK(fixed("Der 1. und 2. Preis", "The 1, and 2 prices") == "The 1, and 2 prices");
  CHECK(fixed("Der 1. und 2. Preis, 5 Euro", "The 1st and 2nd prize, 5, and 6th") == "The 1st and 2nd prize, 5, and 6th");
  CHECK(fixed("Der 1. und 2. Preis gingen an Anna.", "The 1, and 2nd Price went to Anna.", 6) == "The 1, and 2nd Price went to Anna.");
}
