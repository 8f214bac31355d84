// What a long input costs: a sentence longer than the model can take is cut into chunks, and what
// each chunk carries or costs must not grow with the whole sentence (else a 1 MB line of dots,
// numbers or addresses costs chunks x sentence: quadratic in time or memory). The time is measured
// by scripts/bench-input-cost.mjs (npm run bench:input-cost), not here.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "loaded_fixture.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "units.h"

namespace {

using test_model_bytes::load_fixture;
using test_model_bytes::units_of;

}  // namespace

TEST_CASE("input cost: a chunk of a long sentence keeps no copy of the whole sentence's masked spans") {
  auto translator = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = translator->impl();
  // 3,000 e-mail addresses in one sentence: each is masked, and the sentence is many chunks
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "mail user" + std::to_string(i) + "@example.org and ";
  text += "more.";
  const std::vector<nmt::Unit> units = units_of(m, text);
  REQUIRE(units.size() > 10);
  size_t spans = 0;
  for (const nmt::Unit& u : units) spans += u.masked.size();
  CHECK(spans <= 3000);  // at most the sentence's own spans (chunks: none), not chunks x spans
}

TEST_CASE("input cost: a sentence short enough for the model keeps its masked spans for a retry") {
  auto translator = load_fixture("tiny.nmt");
  const std::vector<nmt::Unit> units = units_of(translator->impl(), "Write to a@example.org or b@example.org.");
  REQUIRE(units.size() == 1);
  CHECK(units[0].masked.size() == 2);
}

TEST_CASE("input cost: a long unbroken line is read into many chunks that cover it in order") {
  auto translator = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = translator->impl();
  // (how long the reading takes, 8x the line against once: scripts/bench-input-cost.mjs)
  for (const std::string part : {".", "(\"1\") "}) {
    CAPTURE(part);
    std::string text;
    while (text.size() < 256000) text += part;
    const std::vector<nmt::Unit> units = units_of(m, text);
    REQUIRE(units.size() > 100);
    size_t at = 0;
    for (const nmt::Unit& u : units) {
      CHECK(u.begin >= at);
      CHECK(u.end > u.begin);
      CHECK(u.masked.empty());  // a chunk: no copy of the sentence's spans
      at = u.end;
    }
    CHECK(text.find_first_not_of(" ", at) == std::string::npos);  // nothing after the last chunk but spaces
  }
}
