// Tests of invisible format characters hidden from the model (engine/text/format_characters.h).
#include <doctest/doctest.h>

#include <string>

#include "text/format_characters.h"

using namespace nmt;

namespace {

// `text` with each U+0001 (what the model is not shown) written as "#", to read in a check.
std::string hidden(const std::string& text) {
  std::string out = without_format_characters(text);
  REQUIRE(out.size() == text.size());
  for (char& c : out)
    if (c == '\x01') c = '#';
  return out;
}

}  // namespace

TEST_CASE("format characters: a soft hyphen, word joiner and BOM are never read, wherever they are") {
  CHECK(hidden("The beau\u00ADti\u00ADful house") == "The beau##ti##ful house");
  CHECK(hidden("beau\u2060tiful") == "beau###tiful");
  CHECK(hidden("\uFEFFThe house") == "###The house");
  CHECK(hidden("Haus \u00AD Hof") == "Haus ## Hof");
  CHECK(hidden("The house is small.") == "The house is small.");
}

TEST_CASE("format characters: zero-width spaces and joiners go inside a word only") {
  CHECK(hidden("beau\u200Bti\u200Bful") == "beau###ti###ful");
  CHECK(hidden("Auf\u200Clage") == "Auf###lage");
  CHECK(hidden("Stra\u200D\u00DFe") == "Stra###\u00DFe");  // a run of them, before a letter outside ASCII
  CHECK(hidden("Seite\u200E3") == "Seite###3");
  // between words and marks they read as before (the tokenizer's space)
  CHECK(hidden("house\u200B is") == "house\u200B is");
  CHECK(hidden("end.\u200BNext") == "end.\u200BNext");
  // a joiner between emoji makes one emoji; a zero-width space between Thai words separates them
  CHECK(hidden("I love \U0001F469\u200D\U0001F4BB.") == "I love \U0001F469\u200D\U0001F4BB.");
  CHECK(hidden("\u0E2A\u0E27\u200B\u0E14\u0E35") == "\u0E2A\u0E27\u200B\u0E14\u0E35");
  // a soft hyphen and a zero-width space in one run inside a word: both go
  CHECK(hidden("ab\u00AD\u200Bcd") == "ab#####cd");
}
