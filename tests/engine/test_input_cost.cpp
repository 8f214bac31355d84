// What a long input costs: a sentence longer than the model can take is cut into chunks, and what
// each chunk carries or costs must not grow with the whole sentence (else a 1 MB line of dots,
// numbers or addresses costs chunks x sentence: quadratic in time or memory).
#include <doctest/doctest.h>

#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

#include "loaded_fixture.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "units.h"

namespace {

using test_model_bytes::load_fixture;

// `text`'s units as translate() reads them (no casing, glossary or memory).
std::vector<nmt::Unit> units_of(const nmt::Translator::Impl& m, const std::string& text) {
  const nmt::PassSwitches switches;
  const std::string language = m.file.source_language();
  const nmt::SourceReader reader{m.tokenizer, m.model.config(), language, switches, nullptr, nullptr, nullptr};
  return nmt::read_units(text, nmt::segment_text(text, language), reader);
}

std::string repeated(const std::string& part, size_t times) {
  std::string s;
  for (size_t i = 0; i < times; ++i) s += part;
  return s;
}

// The least processor time of three readings of `text` into units, in seconds.
double reading_seconds(const nmt::Translator::Impl& m, const std::string& text) {
  double least = 1e9;
  for (int run = 0; run < 3; ++run) {
    const std::clock_t start = std::clock();
    const std::vector<nmt::Unit> units = units_of(m, text);
    least = std::min(least, double(std::clock() - start) / CLOCKS_PER_SEC);
    REQUIRE(!units.empty());
  }
  return least;
}

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

TEST_CASE("input cost: reading a long unbroken line into chunks grows linearly with its length") {
  auto translator = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = translator->impl();
  // one sentence of nothing to translate (copied) and one of numbers, each cut into many chunks;
  // eight times the length must cost about eight times as much (quadratic: sixty-four times)
  for (const std::string& part : {std::string("."), std::string("(\"1\") ")}) {
    CAPTURE(part);
    const std::string shorter = repeated(part, 32000 / part.size()), longer = repeated(part, 8 * 32000 / part.size());
    REQUIRE(units_of(m, longer).size() > 100);
    const double short_time = std::max(reading_seconds(m, shorter), 0.01), long_time = reading_seconds(m, longer);
    CAPTURE(short_time);
    CAPTURE(long_time);
    CHECK(long_time < 24 * short_time);
  }
}
