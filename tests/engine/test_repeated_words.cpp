// Tests of words the model wrote twice (engine/text/repeated_words.h).
#include <doctest/doctest.h>

#include <string>

#include "text/repeated_words.h"

namespace {

std::string once(const std::string& source, std::string target, size_t fixed = 0) {
  for (const nmt::TextEdit& edit : nmt::repeated_words(source, target, fixed)) target.replace(edit.at, edit.length, edit.text);
  return target;
}

}  // namespace

TEST_CASE("repeated_words: a word of four or more letters written twice or more in a row is written once") {
  CHECK(once("after a pit stop for Fernando Alonso", "nach einem Boxenstopp für Fernando Alonso Alonso und") ==
        "nach einem Boxenstopp für Fernando Alonso und");
  CHECK(once("a tiny printable chip", "ein winzig druckbares druckbares Chip") == "ein winzig druckbares Chip");
  CHECK(once("from late November", "vom November Ende Ende Ende bis Mai") == "vom November Ende bis Mai");
  CHECK(once("Elche (also known as elk)", "Elche (auch als Elk bekannt bekannt)") == "Elche (auch als Elk bekannt)");
  CHECK(once("x", "Zürich Zürich") == "Zürich");  // letters beyond ASCII
  CHECK(once("x", "die die Frau, der der Mann") == "die die Frau, der der Mann");  // short words: often grammatical
  CHECK(once("x", "I know that that is true.") == "I know that that is true.");
  CHECK(once("x", "Alonso, Alonso und alonso") == "Alonso, Alonso und alonso");  // not in a row, not the same
  CHECK(once("x", "Baden-Baden und Covid-19 19") == "Baden-Baden und Covid-19 19");
  CHECK(once("x", "").empty());
}

TEST_CASE("repeated_words: a source with a word written twice keeps the repetition") {
  CHECK(once("It is very very good.", "Es ist sehr sehr gut.") == "Es ist sehr sehr gut.");
  CHECK(once("We flew to Bora Bora.", "Wir flogen nach Bora Bora Bora.") == "Wir flogen nach Bora Bora Bora.");
}

TEST_CASE("repeated_words: a forced prefix is not changed") {
  const std::string target = "Fernando Alonso Alonso fuhr";
  CHECK(once("Fernando Alonso drove", target, 22) == target);  // the prefix holds both
  CHECK(once("Fernando Alonso drove", target, 15) == "Fernando Alonso fuhr");  // it ends after the first
}
