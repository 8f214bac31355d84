// Tests of German quotation marks (engine/text/quotes.h): straight and English curly quotes in a
// German translation set as „...“ where they pair up, left alone where they do not.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/quotes.h"

namespace {

std::string german(std::string target, size_t fixed = 0) {
  for (const nmt::TextEdit& edit : nmt::german_quotation_marks(target, fixed)) target.replace(edit.at, edit.length, edit.text);
  return target;
}

}  // namespace

TEST_CASE("german_quotation_marks: pairs of straight or English quotes become German ones") {
  CHECK(german("Er sagte: \"Ich bin müde.\"") == "Er sagte: „Ich bin müde.“");
  CHECK(german("\"Panama Papers\" ist ein Begriff.") == "„Panama Papers“ ist ein Begriff.");
  CHECK(german("Die Wörter \"Es\" und \"its\" sind anders.") == "Die Wörter „Es“ und „its“ sind anders.");
  CHECK(german("Die Nummer \"93\".") == "Die Nummer „93“.");
  CHECK(german("Er rief (\"Hilfe!\") laut.") == "Er rief („Hilfe!“) laut.");
  CHECK(german("Er sagte \xE2\x80\x9CJa\xE2\x80\x9D.") == "Er sagte „Ja“.");            // “Ja” (English curly)
  CHECK(german("Er sagte „Ja\" und \"Nein“.") == "Er sagte „Ja“ und „Nein“.");  // the model's mix
  CHECK(german("Schon richtig: „Ja“.") == "Schon richtig: „Ja“.");
  CHECK(german("Keine Anführungszeichen.") == "Keine Anführungszeichen.");
  CHECK(german("").empty());
}

TEST_CASE("german_quotation_marks: a quotation of several sentences opens in one and closes in another") {
  CHECK(german("Sie sagte: \"Ich bin müde.") == "Sie sagte: „Ich bin müde.");
  CHECK(german("Ich will schlafen.\"") == "Ich will schlafen.“");
  CHECK(german("Gute Nacht.\" Dann ging sie.") == "Gute Nacht.“ Dann ging sie.");
}

TEST_CASE("german_quotation_marks: quotes that do not pair up stay as they are") {
  CHECK(german("Es ist 5\" lang.") == "Es ist 5\" lang.");                    // an inch mark
  CHECK(german("Ein \"Wort\"chen und \"mehr\".") == "Ein \"Wort\"chen und \"mehr\".");  // inside a word
  CHECK(german("Er sagte „Ja „Nein“.") == "Er sagte „Ja „Nein“.");           // nested
  CHECK(german("a\"b") == "a\"b");
}

TEST_CASE("german_quotation_marks: a forced prefix is read but not changed") {
  const std::string prefix = "Er sagte: \"Ich";
  CHECK(german(prefix + " bin müde.\"", prefix.size()) == prefix + " bin müde.“");
  CHECK(german("Er sagte: „Ich bin müde.\"", 20) == "Er sagte: „Ich bin müde.“");
}

TEST_CASE("quotes_around_code: quotes the model set around copied code go, the source's stay") {
  using Spans = std::vector<std::pair<size_t, size_t>>;
  const auto unquoted = [](std::string_view source, const Spans& spans, std::string target, const Spans& copies, size_t fixed = 0) {
    for (const nmt::TextEdit& e : nmt::quotes_around_code(source, spans, target, copies, fixed)) target.replace(e.at, e.length, e.text);
    return target;
  };
  const std::string_view source = "Use the `--force` flag.";  // `--force` at [8, 17)
  CHECK(unquoted(source, {{8, 17}}, "Verwenden Sie \xC2\xBB `--force`\xC2\xAB nur.", {{17, 26}}) == "Verwenden Sie `--force` nur.");
  CHECK(unquoted(source, {{8, 17}}, "Nimm \xE2\x80\x9E`--force`\xE2\x80\x9C.", {{8, 17}}) == "Nimm `--force`.");
  CHECK(unquoted(source, {{8, 17}}, "Nimm \"`--force`\" jetzt", {{6, 15}}) == "Nimm `--force` jetzt");
  // one mark alone, quotes the source has around its code, an address, a forced prefix: as they are
  CHECK(unquoted(source, {{8, 17}}, "Nimm \xC2\xBB`--force` jetzt", {{7, 16}}) == "Nimm \xC2\xBB`--force` jetzt");
  CHECK(unquoted("Type \"`ls`\" now.", {{6, 10}}, "Tippe \xE2\x80\x9E`ls`\xE2\x80\x9C jetzt.", {{9, 13}}) ==
        "Tippe \xE2\x80\x9E`ls`\xE2\x80\x9C jetzt.");
  CHECK(unquoted("See example.com now.", {{4, 15}}, "Siehe \xC2\xBB" "example.com\xC2\xAB jetzt.", {{8, 19}}) ==
        "Siehe \xC2\xBB" "example.com\xC2\xAB jetzt.");
  CHECK(unquoted(source, {{8, 17}}, "Nimm \xE2\x80\x9E`--force`\xE2\x80\x9C.", {{8, 17}}, 6) == "Nimm \xE2\x80\x9E`--force`\xE2\x80\x9C.");
}
