// The number_separators pass (text/passes.h): a number the model wrote against the word before it,
// that the source never writes against a letter, gets its space.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/passes.h"

namespace {

std::string after_passes(std::string_view source, std::string target) {
  nmt::TargetSentence t;
  t.source = source;
  t.from = "en";
  t.to = "de";
  t.target = std::move(target);
  size_t begin = 0;  // one token per word, with the space before it
  for (size_t i = 1; i <= t.target.size(); ++i)
    if (i == t.target.size() || t.target[i] == ' ') {
      t.spans.emplace_back(begin, i);
      begin = i;
    }
  nmt::run_target_passes(t, nmt::PassSwitches());
  return t.target;
}

}  // namespace

TEST_CASE("number_separators: a number the model glued to the word before it gets its space") {
  // 'It costs $45 and $45 today.' came out 'Es kostet heute45 und 45 Dollar.'
  CHECK(after_passes("It costs $45 and $45 today.", "Es kostet heute45 und 45 Dollar.") ==
        "Es kostet heute 45 und 45 Dollar.");
  CHECK(after_passes("Wir kamen am 12 an.", "We arrived on Mai12.").find("Mai 12") != std::string::npos);
  // what the source writes against its letters stays so
  CHECK(after_passes("I use Windows11 and MP3 files.", "Ich benutze Windows11 und MP3-Dateien.") ==
        "Ich benutze Windows11 und MP3-Dateien.");
  CHECK(after_passes("Take the A4 road.", "Nimm die A4.") == "Nimm die A4.");
  // a number the source does not have is not the pass's
  CHECK(after_passes("It is cold.", "Es ist kalt2.") == "Es ist kalt2.");
}
