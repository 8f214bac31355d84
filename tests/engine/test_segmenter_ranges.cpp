// segment_text (text/segmenter.h): a German range of ordinals before its month is one ordinal.
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

TEST_CASE("segment_text: a German range of ordinals before its month stays in its sentence") {
  // "Das Treffen ist am 3.–5. Mai." was cut after "5.", the month a sentence of its own
  CHECK(sentences_of("Das Treffen ist am 3.\xE2\x80\x93" "5. Mai.", "de") ==
        std::vector<std::string>{"Das Treffen ist am 3.\xE2\x80\x93" "5. Mai."});
  CHECK(sentences_of("Das Treffen ist am 3.-5. Mai. Dann fahren wir.", "de") ==
        std::vector<std::string>{"Das Treffen ist am 3.-5. Mai.", "Dann fahren wir."});
  CHECK(sentences_of("Geöffnet vom 10.-12. Juni.", "de").size() == 1);
  // before a word that starts a sentence it ends one, as a number's full stop does
  CHECK(sentences_of("Es waren 3-5. Die anderen kamen nicht.", "de").size() == 2);
}
