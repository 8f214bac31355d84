// Tests of the letters an unknown piece takes from a source word (engine/text/pass_through.h
// letters_from_source), which end at a no-break space as at any other.
#include <doctest/doctest.h>

#include <string>

#include "text/pass_through.h"

using namespace nmt;

namespace {
const std::string kNbsp = "\xC2\xA0", kNarrowNbsp = "\xE2\x80\xAF";
}  // namespace

TEST_CASE("letters_from_source: never a no-break space from a source word") {
  // "20\u00A0°C" -> "20" <unk> "C": the source word "20" ends at the space; nothing to fill in
  // (the unknown piece then takes the source's "°", once), where the "\u00A0°" of a word read
  // across the space was written and the "°" inserted again ("20 °C °")
  const std::string unknown = "\xE2\x81\x87";
  std::string target = "It's 20" + unknown + "C.";
  CHECK(letters_from_source("Es sind 20" + kNbsp + "\xC2\xB0" "C.", target, 7, 7 + unknown.size()) == "");
  CHECK(letters_from_source("Es sind 20" + kNarrowNbsp + "\xC2\xB0" "C.", target, 7, 7 + unknown.size()) == "");
  // a letter inside a word still is ("Ky" <unk> "to" -> "ō")
  target = "Ky" + unknown + "to is old.";
  CHECK(letters_from_source("Ky\xC5\x8Dto ist alt.", target, 2, 2 + unknown.size()) == "\xC5\x8D");
}
