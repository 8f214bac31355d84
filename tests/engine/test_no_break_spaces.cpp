// Tests of the source's no-break spaces kept in the translation (engine/text/no_break_spaces.h).
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "text/no_break_spaces.h"
#include "text/word_alignment.h"

using namespace nmt;

namespace {

const std::string kNbsp = "\xC2\xA0", kNarrowNbsp = "\xE2\x80\xAF";

// The target with no_break_spaces' edits applied; `links`: (target word, source word) by index of
// find_words (none: the words as written alone count).
std::string kept(const std::string& source, std::string target, std::vector<std::pair<int, int>> links, size_t fixed = 0) {
  const WordAlignment words{find_words(source), find_words(target), {}, std::move(links)};
  for (const TextEdit& e : no_break_spaces(source, target, words, fixed)) target.replace(e.at, e.length, e.text);
  return target;
}

}  // namespace

TEST_CASE("no_break_spaces: kept between two words the translation keeps side by side") {
  // Mr . Smith lives 10 km away .  ->  Herr Smith lebt 10 km weg .
  const std::string source = "Mr." + kNbsp + "Smith lives 10" + kNbsp + "km away.";
  const std::vector<std::pair<int, int>> links{{0, 0}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}};
  CHECK(kept(source, "Herr Smith lebt 10 km weg.", links) == "Herr" + kNbsp + "Smith lebt 10" + kNbsp + "km weg.");
  // the narrow no-break space and the figure space as written
  CHECK(kept("It is 5" + kNarrowNbsp + "% more.", "Es ist 5 % mehr.", {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}}) ==
        "Es ist 5" + kNarrowNbsp + "% mehr.");
  CHECK(kept("See \xC2\xA7\xE2\x80\x87" "5.", "Siehe \xC2\xA7 5.", {{0, 0}, {1, 1}, {2, 2}, {3, 3}}) ==
        "Siehe \xC2\xA7\xE2\x80\x87" "5.");
  // no attention: only two words both as written
  CHECK(kept(source, "Herr Smith lebt 10 km weg.", {}) == "Herr Smith lebt 10" + kNbsp + "km weg.");
}

TEST_CASE("no_break_spaces: not where the words were moved apart or written anew") {
  const std::string source = "He ran 10" + kNbsp + "km.";
  // "10 schnelle km": the two words are no longer side by side
  CHECK(kept(source, "Er lief 10 schnelle km.", {{0, 0}, {1, 1}, {2, 2}, {4, 3}, {5, 4}}) == "Er lief 10 schnelle km.");
  // the order turned ("km 10"): the first target word says the second source word
  CHECK(kept(source, "Er lief km 10.", {{0, 0}, {1, 1}, {2, 3}, {3, 2}, {4, 4}}) == "Er lief km 10.");
  // a glossary's own term for "Acme Cloud": neither word as written
  CHECK(kept("Use Acme" + kNbsp + "Cloud now.", "Nutzen Sie Zeta Sky jetzt.", {{0, 0}, {2, 1}, {3, 2}, {4, 3}, {5, 4}}) ==
        "Nutzen Sie Zeta Sky jetzt.");
  // an ordinary space between them in the source, or a word between them
  CHECK(kept("He ran 10 km.", "Er lief 10 km.", {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}) == "Er lief 10 km.");
  CHECK(kept("10" + kNbsp + "big km", "10 km", {{0, 0}, {1, 2}}) == "10 km");
  // a forced prefix stays as given
  CHECK(kept(source, "Er lief 10 km.", {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}, 12) == "Er lief 10 km.");
}
