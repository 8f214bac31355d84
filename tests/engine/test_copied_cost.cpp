// What copied text costs: a sentence with nothing to translate (digits, punctuation, code) is
// copied, each token attending to itself. A long line of it is thousands of units, so a unit's
// tokens x tokens matrices must exist only where a result returns them. The peak memory itself is
// measured by scripts/bench-memory.mjs (--case engine-line) and bench-input-cost.mjs, not here.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "batching.h"
#include "loaded_fixture.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "units.h"

namespace {

using test_model_bytes::load_fixture;

std::vector<nmt::Unit> units_of(const nmt::Translator::Impl& m, const std::string& text) {
  const nmt::PassSwitches switches;
  const std::string language = m.file.source_language();
  const nmt::SourceReader reader{m.tokenizer, m.model.config(), language, switches, nullptr, nullptr, nullptr};
  return nmt::read_units(text, nmt::segment_text(text, language), reader);
}

std::string line_of(const std::string& part, size_t chars) {
  std::string s;
  while (s.size() < chars) s += part;
  return s;
}

}  // namespace

TEST_CASE("copied cost: a copied unit's hypothesis holds its attention only when the result returns alignments") {
  auto translator = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = translator->impl();
  const std::vector<nmt::Unit> units = units_of(m, line_of("(\"1\") ", 20000));  // one line, many chunks
  REQUIRE(units.size() > 10);
  for (bool alignments : {false, true}) {
    CAPTURE(alignments);
    nmt::TranslateOptions options;
    options.beam_size = 1;
    options.alignments = alignments;
    nmt::SearchOptions search = m.search_options(options);
    search.keep_attention = true;  // as translate() sets it for a text with unknown pieces
    const nmt::BatchRunner runner{m.model, nullptr, nullptr, options};
    nmt::Translation out;
    const std::vector<nmt::Hypothesis> hyps = nmt::translate_units(units, runner, search, out);
    REQUIRE(hyps.size() == units.size());
    for (size_t u = 0; u < units.size(); ++u) {
      REQUIRE(units[u].copied);
      CHECK(hyps[u].tokens == units[u].ids);
      const size_t n = units[u].ids.size();
      if (!alignments) {
        CHECK(hyps[u].attention.empty());
        continue;
      }
      REQUIRE(hyps[u].attention.size() == n * n);
      for (size_t r = 0; r < n; ++r)
        for (size_t c = 0; c < n; ++c) CHECK(hyps[u].attention[r * n + c] == (r == c ? 1.0f : 0.0f));
    }
  }
}

TEST_CASE("copied cost: the same text with and without alignments, for a long line of copied text") {
  auto translator = load_fixture("tiny.nmt");
  const std::string text = line_of("see (12) -- 3.5 ", 6000) + "\nThe house is small.\n" + line_of("\"1\" ", 3000);
  nmt::TranslateOptions plain, aligned;
  aligned.alignments = true;
  auto a = translator->translate(text, plain);
  auto b = translator->translate(text, aligned);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->text == b->text);
  REQUIRE(a->sentences.size() == b->sentences.size());
  for (const nmt::SentenceTranslation& s : a->sentences) CHECK(s.attention.empty());
}
