// Tests of German gender-inclusive forms read as the feminine ones (engine/text/gender_forms.h).
#include <doctest/doctest.h>

#include <string>

#include "text/gender_forms.h"

using namespace nmt;

namespace {

// What the model reads, with the deleted bytes left out (the normalizer deletes U+0001).
std::string read(const std::string& text, const std::vector<std::pair<size_t, size_t>>& skip = {}) {
  const std::string shown = read_gender_forms(text, skip);
  REQUIRE(shown.size() == text.size());
  std::string out;
  for (char c : shown)
    if (c != '\x01') out += c;
  return out;
}

}  // namespace

TEST_CASE("read_gender_forms: the gender sign goes, the feminine form stays") {
  CHECK(read("Liebe Kolleg*innen, die Mitarbeiter_innen und Lehrer:innen") ==
        "Liebe Kolleginnen, die Mitarbeiterinnen und Lehrerinnen");
  CHECK(read("Die KundInnen, Bürger/-innen und Lehrer/innen") == "Die Kundinnen, Bürgerinnen und Lehrerinnen");
  CHECK(read("Jede*r Lehrer*in sucht eine*n Entwickler:in.") == "Jeder Lehrerin sucht einen Entwicklerin.");
  CHECK(read("die Ärzt*innen und Nicht-Mitarbeiter:innen") == "die Ärztinnen und Nicht-Mitarbeiterinnen");
}

TEST_CASE("read_gender_forms: everything else as it is") {
  for (const std::string text :
       {"Um 10:30 in Berlin", "x*in + y", "2*in", "LinkedIn und Berlin", "Die Innenstadt, innen und außen",
        "?citysurplus:in Aufruhr", "Lehrer*innenzimmer", "a/b und und/oder", "Hinweis: in Kürze", "DIE LEHRER*INNEN", ""})
    CHECK(read(text) == text);
  // not right after a name copied as it is (a span of `skip`)
  CHECK(read("?city_surplus:in", {{1, 13}}) == "?city_surplus:in");
}
