// segment_text (text/segmenter.h): a German ruler's number ("Ludwig XIV.") is read as an ordinal.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "text/segmenter.h"

namespace {

std::vector<std::string> sentences_of(std::string_view text, std::string_view lang) {
  std::vector<std::string> out;
  for (const nmt::TextPiece& p : nmt::segment_text(text, lang))
    if (p.is_sentence) out.emplace_back(text.substr(p.begin, p.end - p.begin));
  return out;
}

}  // namespace

TEST_CASE("segment_text: a German Roman numeral with its full stop is an ordinal, in capitals too") {
  // "LUDWIG XIV. WAR KÖNIG" was cut after "XIV.": "WAR KÖNIG" came out "KING"
  CHECK(sentences_of("LUDWIG XIV. WAR KÖNIG", "de") == std::vector<std::string>{"LUDWIG XIV. WAR KÖNIG"});
  CHECK(sentences_of("HEINRICH VIII. HATTE SECHS FRAUEN.", "de").size() == 1);
  CHECK(sentences_of("Papst Johannes XXIII. Starb 1963.", "de").size() == 1);
  // before a word that starts a sentence it ends one, as a number's full stop does
  CHECK(sentences_of("Das war Ludwig XIV. Er war König.", "de") ==
        std::vector<std::string>{"Das war Ludwig XIV.", "Er war König."});
  // no numeral: "CD", "MIX", a lone "I"; English keeps its rules
  CHECK(sentences_of("Ich kaufte eine CD. Morgen kommt sie.", "de").size() == 2);
  CHECK(sentences_of("Das ist ein MIX. Neue Songs.", "de").size() == 2);
  CHECK(sentences_of("King Louis XIV. He was king.", "en").size() == 2);
  CHECK(sentences_of("LOUIS XIV. WAS KING", "en").size() == 2);
}
