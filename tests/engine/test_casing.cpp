// Tests of sentences in capitals and Title Case (engine/text/casing.h): the case mappings keep every
// length, which sentences count as shouted or title-cased, how a word list recases them, and what the
// translator does with them (fixture model: the translation of the recased sentence, in capitals).
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "model_bytes.h"
#include "text/casing.h"
#include "text/utf8.h"
#include "translator.h"
#include "translator_internal.h"

using namespace nmt;

TEST_CASE("case mappings: Latin, Greek, Cyrillic; every length kept") {
  CHECK(to_lower_same_length("THE House, 42!") == "the house, 42!");
  CHECK(to_upper_same_length("the house, 42!") == "THE HOUSE, 42!");
  CHECK(to_lower_same_length("ÄÖÜ ÀÉÎ Ÿ ĞŁŒ") == "äöü àéî ÿ ğłœ");
  CHECK(to_upper_same_length("äöü àéî ÿ ğłœ") == "ÄÖÜ ÀÉÎ Ÿ ĞŁŒ");
  CHECK(to_upper_same_length("straße µ × ÷") == "STRASSE µ × ÷");  // ß in capitals is SS, of its length ("STRAßE" was written)
  CHECK(to_upper_same_length("Maße, ßß") == "MASSE, SSSS");
  CHECK(to_lower_same_length("ΑΘΗΝΑ ΣΟΦΙΑ") == "αθηνα σοφια");
  CHECK(to_upper_same_length("σοφίας") == "ΣΟΦΊΑΣ");              // final sigma too
  CHECK(to_lower_same_length("МОСКВА ЁЖ") == "москва ёж");
  CHECK(to_upper_same_length("москва ёж") == "МОСКВА ЁЖ");
  CHECK(to_lower_same_length("İSTANBUL") == "İstanbul");  // dotted I: its lower case is two characters
  // any bytes, valid or not: same length, and invalid bytes untouched
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string s(size_t(rng() % 24), '\0');
    for (char& c : s) c = char(rng() % 256);
    const std::string lower = to_lower_same_length(s), upper = to_upper_same_length(s);
    REQUIRE(lower.size() == s.size());
    REQUIRE(upper.size() == s.size());
    if (is_valid_utf8(s)) CHECK(to_upper_same_length(lower) == to_upper_same_length(s));
  }
}

TEST_CASE("sentence_case: capitals, Title Case, and ordinary sentences with acronyms and names") {
  CHECK(sentence_case("THE MEETING IS CANCELLED.", "en") == SentenceCase::upper);
  CHECK(sentence_case("I LOVE YOU", "en") == SentenceCase::upper);
  CHECK(sentence_case("WARNING: DO NOT OPEN THE DOOR (see page 3).", "en") == SentenceCase::upper);
  CHECK(sentence_case("ACHTUNG: TÜR NICHT ÖFFNEN!", "de") == SentenceCase::upper);
  CHECK(sentence_case("Economists Expect Interest Rates To Rise Again", "en") == SentenceCase::title);
  CHECK(sentence_case("Die Europäische Zentralbank Erhöht Die Zinsen", "de") == SentenceCase::normal);  // English only
  CHECK(sentence_case("Die Kirschenzeit ist von Juni bis Juli.", "de") == SentenceCase::normal);
  CHECK(sentence_case("DIE SITZUNG IST ABGESAGT.", "de") == SentenceCase::upper);
  CHECK(sentence_case("The house is small.", "en") == SentenceCase::normal);
  CHECK(sentence_case("NASA and the EU signed it in the USA.", "en") == SentenceCase::normal);
  CHECK(sentence_case("WARNING: do not open the door.", "en") == SentenceCase::normal);
  CHECK(sentence_case("Die Kinder spielen im Garten.", "de") == SentenceCase::normal);
  CHECK(sentence_case("Hello World", "en") == SentenceCase::normal);  // too short to tell
  CHECK(sentence_case("OK", "en") == SentenceCase::normal);
  // one word in capitals: a heading or a call ("ACHTUNG!" came out "NOTING!", "EINSTELLUNGEN"
  // "STRINGS"), unless it is short or has no vowel, as abbreviations are
  CHECK(sentence_case("ACHTUNG!", "de") == SentenceCase::upper);
  CHECK(sentence_case("EINSTELLUNGEN", "de") == SentenceCase::upper);
  CHECK(sentence_case("SETTINGS", "en") == SentenceCase::upper);
  // of four letters too ("NEWS" came out "NEWENN", "KING" "ZEICHEN"); the word list keeps "NASA" so
  CHECK(sentence_case("NEWS", "en") == SentenceCase::upper);
  CHECK(sentence_case("KING!", "en") == SentenceCase::upper);
  CHECK(sentence_case("NASA", "en") == SentenceCase::upper);
  CHECK(Truecaser::from_list("NASA\n").recase("NASA", SentenceCase::upper) == "NASA");
  CHECK(sentence_case("USA", "en") == SentenceCase::normal);
  CHECK(sentence_case("HTML", "en") == SentenceCase::normal);
  CHECK(sentence_case("HTTPS", "en") == SentenceCase::normal);
  CHECK(sentence_case("USA 2024", "en") == SentenceCase::normal);
  CHECK(sentence_case("Das ist WICHTIG.", "de") == SentenceCase::normal);
  CHECK(sentence_case("", "en") == SentenceCase::normal);
  CHECK(sentence_case("東京 2020 😀", "en") == SentenceCase::normal);
  // all lower case, as chat and search boxes write it
  CHECK(sentence_case("i dont know what youre talking about", "en") == SentenceCase::lower);
  CHECK(sentence_case("wir treffen uns morgen in berlin.", "de") == SentenceCase::lower);
  // one or two words in lower case, as typed to look a word up ("bahnhof", "setz dich")
  CHECK(sentence_case("ok thanks", "en") == SentenceCase::fragment);
  CHECK(sentence_case("bahnhof", "de") == SentenceCase::fragment);
  CHECK(sentence_case("a", "en") == SentenceCase::normal);  // no word of two letters
  CHECK(sentence_case("Bahnhof", "de") == SentenceCase::normal);
  CHECK(sentence_case("i think so, Tom", "en") == SentenceCase::normal);  // one capital: written with care
  CHECK(sentence_case("<img src=x onerror=alert(1)>", "en") == SentenceCase::normal);  // markup, not prose
  CHECK(sentence_case("for (int i = 0; i < n; ++i) sum += x;", "en") == SentenceCase::normal);
}

TEST_CASE("sentence_case: a heading of two or three words in Title Case, a small word capitalized too") {
  // "Contact Us" came out "Kontakt Us", "About Us" "Über Us", "Sign In" "Unterschreiben"
  CHECK(sentence_case("Contact Us", "en") == SentenceCase::title);
  CHECK(sentence_case("About Us", "en") == SentenceCase::title);
  CHECK(sentence_case("Sign In", "en") == SentenceCase::title);
  CHECK(sentence_case("Terms Of Service", "en") == SentenceCase::title);
  CHECK(sentence_case("Log Out now", "en") == SentenceCase::normal);  // not every word capitalized
  // no small word capitalized after the first: a name, or too short to tell
  CHECK(sentence_case("Privacy Policy", "en") == SentenceCase::normal);
  CHECK(sentence_case("Angela Merkel", "en") == SentenceCase::normal);
  CHECK(sentence_case("In Berlin", "en") == SentenceCase::normal);
  CHECK(sentence_case("Hello World", "en") == SentenceCase::normal);
  CHECK(sentence_case("Über Uns", "de") == SentenceCase::normal);  // German capitalizes its nouns
  CHECK(sentence_case("Sign In Now To See Your Orders And Your Invoices", "en") == SentenceCase::title);  // (4 words and more: as before)
  const Truecaser tc = Truecaser::from_list("Berlin\n");
  CHECK(tc.recase("Contact Us", SentenceCase::title) == "Contact us");
  CHECK(tc.recase("Terms Of Service", SentenceCase::title) == "Terms of service");
}

TEST_CASE("sentence_case: the words of addresses and code do not count") {
  // "USE THE max_retries SETTING" was no sentence in capitals (3 of 5 words): it came out as written
  CHECK(sentence_case("USE THE max_retries SETTING", "en") == SentenceCase::upper);
  CHECK(sentence_case("OPEN package.json AND SAVE IT", "en") == SentenceCase::upper);
  CHECK(sentence_case("see https://EXAMPLE.COM for more", "en") == SentenceCase::lower);
  CHECK(sentence_case("Use the max_retries setting", "en") == SentenceCase::normal);
  CHECK(sentence_case("USE `git status` NOW", "en") == SentenceCase::upper);
}

TEST_CASE("Truecaser: usual forms from the list, lower case otherwise, a capital first; same length") {
  const Truecaser tc = Truecaser::from_list("Sitzung\nNASA\niPhone\nI\nMonday\n\n\xFF\xFE\n");
  CHECK(tc.size() == 5);  // the empty and the invalid line skipped
  auto up = [&](std::string_view s) {
    const std::string r = tc.recase(s, SentenceCase::upper);
    CHECK(r.size() == s.size());
    return r;
  };
  CHECK(up("THE SITZUNG AND NASA ON MONDAY.") == "The Sitzung and NASA on Monday.");
  CHECK(up("I LOVE MY IPHONE") == "I love my iPhone");
  CHECK(up("THE iPhone IS NEW") == "The iPhone is new");  // a word with lower case letters stays as written
  CHECK(up("\"ÄRGER\" IST ÜBERALL") == "\"Ärger\" ist überall");
  CHECK(tc.recase("Rates Expected To Rise On Monday", SentenceCase::title) == "Rates expected to rise on Monday");
  CHECK(tc.recase("A Nasa Team Buys An Iphone", SentenceCase::title) == "A NASA team buys an iPhone");
  CHECK(tc.recase("The HOUSE is small.", SentenceCase::normal) == "The HOUSE is small.");
  CHECK(tc.recase("i love my iphone on monday, sitzung at nasa", SentenceCase::lower) ==
        "I love my iPhone on Monday, Sitzung at NASA");
  CHECK(tc.recase("2 blond girls are sitting", SentenceCase::lower) == "2 blond girls are sitting");  // not "2 Blond"
  CHECK(tc.recase("3 MEN ARE HERE", SentenceCase::upper) == "3 men are here");
  // pairs: where a word's own form errs beside another ("new York", "dass Sie")
  const Truecaser de = Truecaser::from_list("Sie\nYork\nNew York\ndass sie\nsie nicht\n a b c \n");
  CHECK(de.size() == 5);  // three words and two pairs: a line of three words (or a space first) is none
  CHECK(de.recase("I LOVE NEW YORK", SentenceCase::upper) == "I love New York");
  CHECK(de.recase("ICH WEISS, DASS SIE NICHT KOMMT", SentenceCase::upper) == "Ich weiss, dass sie nicht kommt");
  CHECK(de.recase("KOMMEN SIE MORGEN?", SentenceCase::upper) == "Kommen Sie morgen?");
  CHECK(de.recase("NEW  YORK", SentenceCase::upper) == "New  York");  // two spaces: not the pair
  CHECK(tc.recase("\"hello there, friend\"", SentenceCase::lower) == "\"Hello there, friend\"");
  // a first word that is part of a path, a file or an address keeps its small letter (copied as written)
  CHECK(tc.recase("~/.bashrc ist gemeint.", SentenceCase::lower) == "~/.bashrc ist gemeint.");
  CHECK(tc.recase(".gitignore is important here", SentenceCase::lower) == ".gitignore is important here");
  CHECK(tc.recase("example.com is down again", SentenceCase::lower) == "example.com is down again");
  CHECK(tc.recase("(it's an e-mail, friend)", SentenceCase::lower) == "(It's an e-mail, friend)");
  CHECK(tc.recase("**hello** there, friend", SentenceCase::lower) == "**Hello** there, friend");
  // a fragment: its words' usual forms; a capital first only for two words ("cat" is not the name "Cat")
  CHECK(tc.recase("cat", SentenceCase::fragment) == "cat");
  CHECK(tc.recase("sitzung", SentenceCase::fragment) == "Sitzung");
  CHECK(tc.recase("see you", SentenceCase::fragment) == "See you");
  CHECK(Truecaser().recase("DIE SITZUNG IST ABGESAGT.", SentenceCase::upper) == "Die sitzung ist abgesagt.");
}

TEST_CASE("Truecaser: codes in a sentence in capitals are read as written") {
  // "DRINK MORE H2O EVERY DAY!" came out "TRINKEN SIE JEDEN TAG MEHR HA2O!" (read "h2o"), "USB-C
  // CABLES" "USB-KABELN" (read "usb-c")
  const Truecaser tc = Truecaser::from_list("USB\n");
  CHECK(tc.recase("DRINK MORE H2O EVERY DAY!", SentenceCase::upper) == "Drink more H2O every day!");
  CHECK(tc.recase("NEW: USB-C CABLES AND CO2 IN STOCK", SentenceCase::upper) == "New: USB-C cables and CO2 in stock");
  CHECK(tc.recase("H2SO4 AND MP3", SentenceCase::upper) == "H2SO4 and MP3");
  CHECK(tc.recase("THE NEW IPHONE 15 IS HERE", SentenceCase::upper) == "The new iphone 15 is here");
  CHECK(tc.recase("A USB-CABLE, A T-SHIRT", SentenceCase::upper) == "A USB-cable, a t-shirt");  // words, not codes
  CHECK(tc.recase("HIS 60TH GOAL IN THE 1970S, AN A1GP CAR", SentenceCase::upper) == "His 60th goal in the 1970s, an a1gp car");
}

TEST_CASE("Truecaser::from: the model file's list is used; none recases to lower case; a broken one is refused") {
  using namespace test_model_bytes;
  const std::vector<uint8_t> base = read_bytes(fixture("tiny.nmt"));
  const std::string list = "Haus\nHOUSE";
  const std::vector<uint8_t> list_bytes(list.begin(), list.end());
  const std::vector<uint8_t> good = with_tensors(base, {{"truecase.en", "u8", {int64_t(list.size())}, list_bytes},
                                                        {"truecase.de", "u8", {4}, {'H', 'a', 'u', 's'}}});
  auto with_list = Translator::load(good.data(), good.size());
  REQUIRE(with_list);
  const Translator::Impl& m = with_list.value()->impl();
  CHECK(m.source_case.size() == 2);
  CHECK(m.target_case.size() == 1);
  CHECK(m.source_case.recase("THE HOUSE IS SMALL.", SentenceCase::upper) == "The HOUSE is small.");
  auto without = Translator::load(base.data(), base.size());
  REQUIRE(without);
  CHECK(without.value()->impl().source_case.size() == 0);
  const std::vector<uint8_t> f32(8, 0);
  const std::vector<uint8_t> bad = with_tensors(base, {{"truecase.en", "f32", {2}, f32}});
  auto broken = Translator::load(bad.data(), bad.size());
  REQUIRE(!broken);
  CHECK(broken.error().find("truecase.en") != std::string::npos);
}

TEST_CASE("translate(): a sentence in capitals is translated recased and written in capitals (fixture model)") {
  auto loaded = Translator::load_file(test_model_bytes::fixture("tiny.nmt"));
  REQUIRE(loaded);
  const Translator& t = *loaded.value();
  TranslateOptions options;
  options.alignments = true;
  auto shouted = t.translate("THE HOUSE IS SMALL.", options);
  auto plain = t.translate("The house is small.", options);
  REQUIRE(shouted);
  REQUIRE(plain);
  CHECK(shouted->sentences[0].source_ids == plain->sentences[0].source_ids);  // what the model saw
  CHECK(shouted->text == to_upper_same_length(plain->text));
  CHECK(shouted->sentences[0].source == "THE HOUSE IS SMALL.");  // offsets and text stay the input's
  for (const TokenSpan& k : shouted->sentences[0].source_tokens) CHECK(k.end <= shouted->sentences[0].source.size());
  for (const TokenSpan& k : shouted->sentences[0].target_tokens) CHECK(k.end <= shouted->sentences[0].target.size());

  options.keep_case = true;
  auto kept = t.translate("THE HOUSE IS SMALL.", options);
  REQUIRE(kept);
  CHECK(kept->sentences[0].source_ids != plain->sentences[0].source_ids);

  // a prefix is kept as given; what the model writes after it is in capitals
  options.keep_case = false;
  const std::string first_word = plain->text.substr(0, plain->text.find(' ') + 1);
  options.prefix = to_upper_same_length(first_word);
  auto prefixed = t.translate("THE HOUSE IS SMALL.", options);
  REQUIRE(prefixed);
  CHECK(prefixed->text.rfind(options.prefix, 0) == 0);
  CHECK(prefixed->text == to_upper_same_length(prefixed->text));
  options.prefix = "x";
  auto lower_prefix = t.translate("THE HOUSE IS SMALL.", options);
  REQUIRE(lower_prefix);
  CHECK(lower_prefix->text[0] == 'x');

  // alternatives after a prefix come in capitals too
  options.prefix = to_upper_same_length(first_word);
  auto words = t.alternatives("THE HOUSE IS SMALL.", options);
  REQUIRE(words);
  REQUIRE(!words->empty());
  for (const Alternative& a : words.value()) {
    CHECK(a.word == to_upper_same_length(a.word));
    CHECK(a.continuation == to_upper_same_length(a.continuation));
  }
}

TEST_CASE("capitalized_start: a sentence that starts with a capital starts its translation with one") {
  auto start = [](const std::string& source, std::string target) {
    for (const nmt::TextEdit& edit : nmt::capitalized_start(source, target)) target.replace(edit.at, edit.length, edit.text);
    return target;
  };
  CHECK(start("Schätzungen reichen von 340 bis 500.", "estimates range from 340 to 500.") == "Estimates range from 340 to 500.");
  CHECK(start("About us", "\xC3\xBC" "ber uns") == "\xC3\x9C" "ber uns");  // über -> Über
  CHECK(start("\"Kaffee\" ist gut.", "\"coffee\" is good.") == "\"Coffee\" is good.");  // past quotes
  CHECK(start("Das iPhone ist neu.", "iPhone is new.") == "iPhone is new.");  // a capital inside the word
  CHECK(start("eBay verkauft.", "eBay sells.") == "eBay sells.");
  CHECK(start("the house", "das Haus") == "das Haus");  // the source starts in lower case
  CHECK(start("3 Leute kamen.", "three people came.") == "three people came.");  // nor with a capital
  CHECK(start("Hallo.", "42 is the answer.") == "42 is the answer.");
  CHECK(start("Hallo.", "").empty());
  CHECK(start("Hallo.", "Hello.") == "Hello.");
}
