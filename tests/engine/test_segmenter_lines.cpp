// Lines that go on with a sentence (text/segmenter.h continues_a_line) and the lower-case start of
// their translation (text/casing.h continued_start).
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "text/casing.h"
#include "text/segmenter.h"

using namespace nmt;

namespace {

// For each sentence of `text`: whether it goes on from an earlier line.
std::vector<bool> continuing(std::string_view text) {
  const std::vector<TextPiece> pieces = segment_text(text, "en");
  std::vector<bool> out;
  for (size_t p = 0; p < pieces.size(); ++p)
    if (pieces[p].is_sentence) out.push_back(continues_a_line(text, pieces, p));
  return out;
}

std::string started(std::string_view source, std::string target, std::string_view to) {
  for (const TextEdit& e : continued_start(source, target, to)) target.replace(e.at, e.length, e.text);
  return target;
}

}  // namespace

TEST_CASE("continues_a_line: a small letter after a line break, the sentence before without its end") {
  CHECK(continuing("the list:\nred apples\ngreen pears") == std::vector<bool>{false, true, true});
  CHECK(continuing("I went to the store\nand bought some milk.") == std::vector<bool>{false, true});
  CHECK(continuing("I went to the store\r\n  (and bought milk)") == std::vector<bool>{false, true});
  // a sentence that ended, a capital, a digit, a cell or an item on the same line: no
  CHECK(continuing("It rained.\nwe stayed home.") == std::vector<bool>{false, false});
  CHECK(continuing("\"It rained!\"\nwe stayed home.") == std::vector<bool>{false, false});
  CHECK(continuing("the list\nRed apples") == std::vector<bool>{false, false});
  CHECK(continuing("the list\n3 apples") == std::vector<bool>{false, false});
  CHECK(continuing("red\tgreen") == std::vector<bool>{false, false});
  CHECK(continuing("home » news") == std::vector<bool>{false, false});
  CHECK(continuing("the list") == std::vector<bool>{false});
}

TEST_CASE("continued_start: the translation of such a line starts small where the target language allows") {
  // into English, any first word but "I" and a name the source writes so
  CHECK(started("und kaufte Milch", "And bought milk", "en") == "and bought milk");
  CHECK(started("rote Äpfel und", "Red apples and", "en") == "red apples and");
  CHECK(started("ich auch", "I too", "en") == "I too");
  CHECK(started("fuhren nach Berlin", "Berlin was the goal", "en") == "Berlin was the goal");
  CHECK(started("nach iPhone", "IPhone", "en") == "IPhone");  // (a capital inside: not this rule's)
  // into German, only a word German never capitalizes inside a sentence
  CHECK(started("but nobody came.", "Aber niemand kam.", "de") == "aber niemand kam.");
  CHECK(started("the meeting was cancelled", "Das Treffen wurde abgesagt", "de") == "das Treffen wurde abgesagt");
  CHECK(started("apples and pears", "Äpfel und Birnen", "de") == "Äpfel und Birnen");
  CHECK(started("red apples", "Rote Äpfel", "de") == "Rote Äpfel");
  // a source that starts with a capital or with no letter, a target in capitals: nothing
  CHECK(started("And bought milk", "And bought milk", "en") == "And bought milk");
  CHECK(started("42 apples", "42 Äpfel", "de") == "42 Äpfel");
  CHECK(started("and NASA", "NASA", "en") == "NASA");
  CHECK(started("\"but nobody came\"", "\u201EAber niemand kam\u201C", "de") == "\u201Eaber niemand kam\u201C");
}
