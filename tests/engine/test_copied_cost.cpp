// What copied text costs: a sentence with nothing to translate (digits, punctuation, code) is
// copied, each token attending to itself. A long line of it is thousands of units, so a unit's
// tokens x tokens matrices must exist only where a result returns them, and the JSON leaves out
// what it can say in a word: the identity attention, a word attention that is 0 but at its links.
// Likewise a translated unit keeps the read-out head's rows (word alignments only) only for them.
// The peak memory itself is measured by scripts/bench-memory.mjs (--case engine-line) and
// bench-input-cost.mjs, not here.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "batching.h"
#include "loaded_fixture.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "units.h"

namespace {

using nlohmann::json;
using test_model_bytes::load_fixture;
using test_model_bytes::units_of;

// The units' hypotheses as translate() searches them for a text with unknown pieces.
std::vector<nmt::Hypothesis> hypotheses_of(const nmt::Translator::Impl& m, const std::vector<nmt::Unit>& units, int beam,
                                           bool alignments) {
  nmt::TranslateOptions options;
  options.beam_size = beam;
  options.alignments = alignments;
  nmt::SearchOptions search = m.search_options(options);
  search.keep_attention = true;  // as translate() sets it for a text with unknown pieces
  const nmt::BatchRunner runner{m.model, nullptr, nullptr, options};
  nmt::Translation out;
  return nmt::translate_units(units, runner, search, out);
}

std::string line_of(const std::string& part, size_t chars) {
  std::string s;
  while (s.size() < chars) s += part;
  return s;
}

double rounded(float x) { return std::round(double(x) * 1e5) / 1e5; }

}  // namespace

TEST_CASE("copied cost: a copied unit's hypothesis holds no attention, with alignments or without") {
  // (its identity is built as its sentence is assembled, one unit at a time: a 1 MB line of
  // copied text is 5,209 units, whose identities held together were 347 MB)
  auto translator = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = translator->impl();
  const std::vector<nmt::Unit> units = units_of(m, line_of("(\"1\") ", 20000));  // one line, many chunks
  REQUIRE(units.size() > 10);
  for (bool alignments : {false, true}) {
    CAPTURE(alignments);
    const std::vector<nmt::Hypothesis> hyps = hypotheses_of(m, units, 1, alignments);
    REQUIRE(hyps.size() == units.size());
    for (size_t u = 0; u < units.size(); ++u) {
      REQUIRE(units[u].copied);
      CHECK(hyps[u].tokens == units[u].ids);
      CHECK(hyps[u].attention.empty());
      CHECK(hyps[u].heads.empty());
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

TEST_CASE("copied cost: the JSON leaves out a copied sentence's identity attention and link-only word attention, and says so") {
  auto translator = load_fixture("tiny.nmt");
  const std::string text = "The house is small.\n(\"1\") (\"2\") 12.5 -- 33\n* * *\n\xF0\x9F\x98\x80 ... \xF0\x9F\x8E\x89\n";
  for (bool all_heads : {false, true}) {
    CAPTURE(all_heads);
    nmt::TranslateOptions options;
    options.alignments = true;
    options.all_heads = all_heads;
    auto r = translator->translate(text, options);
    REQUIRE(r);
    const json doc = json::parse(nmt::to_json(r.value(), options));
    REQUIRE(doc["sentences"].size() == r->sentences.size());
    size_t copied = 0, from_links_count = 0;
    for (size_t k = 0; k < r->sentences.size(); ++k) {
      const nmt::SentenceTranslation& s = r->sentences[k];
      const json& j = doc["sentences"][k];
      CAPTURE(s.source);
      const size_t n = s.source_tokens.size();
      if (!s.copied) {  // a translated sentence: every matrix written out
        CHECK(j.contains("attention"));
        CHECK(j.contains("word_attention"));
        CHECK(!j.contains("identity_attention"));
        CHECK(!j.contains("word_attention_from_links"));
        continue;
      }
      ++copied;
      // each token copies itself: the identity, which the JSON names instead of writing it
      REQUIRE(s.target_tokens.size() == n);
      REQUIRE(s.attention.size() == n * n);
      for (size_t t = 0; t < n; ++t)
        for (size_t c = 0; c < n; ++c) CHECK(s.attention[t * n + c] == (t == c ? 1.0f : 0.0f));
      if (all_heads) {  // every layer's every head on the token itself
        const size_t per = size_t(r->decoder_layers) * size_t(r->n_heads);
        REQUIRE(s.heads.size() == n * per * n);
        for (size_t t = 0; t < n; ++t)
          for (size_t h = 0; h < per; ++h)
            for (size_t c = 0; c < n; ++c) CHECK(s.heads[(t * per + h) * n + c] == (t == c ? 1.0f : 0.0f));
      } else {
        CHECK(s.heads.empty());
      }
      if (all_heads) {  // the heatmap's request: written out, heads and all
        CHECK(!j.contains("identity_attention"));
        REQUIRE(j["attention"].size() == n);
        CHECK(j.contains("heads"));
      } else {
        CHECK(j.value("identity_attention", false));
        CHECK(!j.contains("attention"));
        CHECK(!j.contains("heads"));
      }
      // the word attention: left out when it is 0 but at the links (rebuilt from them, as the JS
      // module does, it is the matrix's numbers), else written out
      const size_t rows = s.words.target_words.size(), cols = s.words.source_words.size();
      std::vector<double> rebuilt(rows * cols, 0.0);
      for (const json& link : j["word_alignments"])
        rebuilt[link[0].get<size_t>() * cols + link[1].get<size_t>()] = link[2].get<double>();
      bool from_links = true;
      for (size_t c = 0; c < rows * cols; ++c) from_links = from_links && rebuilt[c] == rounded(s.words.matrix[c]);
      CHECK(j.value("word_attention_from_links", false) == from_links);
      CHECK(j.contains("word_attention") == !from_links);
      if (from_links) ++from_links_count;
    }
    CHECK(copied == 3);
    CHECK(from_links_count >= 2);
  }
}

TEST_CASE("copied cost: the JSON written a sentence at a time reads as one dump of the whole would write it") {
  auto translator = load_fixture("tiny.nmt");
  const std::string text = "Gr\xC3\xBC\xC3\x9F" "e aus K\xC3\xB6ln. \"Quoted\" \\ back\\slash.\n\n(1) 2 3\n" + line_of("x.org/a ", 3000);
  for (bool alignments : {false, true}) {
    nmt::TranslateOptions options;
    options.alignments = alignments;
    auto r = translator->translate(text, options);
    REQUIRE(r);
    const std::string written = nmt::to_json(r.value(), options);
    const json doc = json::parse(written);
    CHECK(doc.dump(-1, ' ', false, json::error_handler_t::replace) == written);
    CHECK(doc["text"] == r->text);
    CHECK(doc["source_text"] == r->source_text);
    CHECK(doc["sentences"].size() == r->sentences.size());
    CHECK(doc["stats"]["target_tokens"] == r->target_tokens);
  }
}

TEST_CASE("copied cost: a translated unit's hypothesis keeps the read-out head's rows only when the result returns alignments") {
  // (they serve the word alignments alone; a 1 MB line of e-mail addresses kept 121 MB of them)
  auto translator = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = translator->impl();
  const std::vector<nmt::Unit> units = units_of(m, line_of("mail user@example.org and ", 3000));
  REQUIRE(units.size() > 3);
  for (bool alignments : {false, true}) {
    CAPTURE(alignments);
    const std::vector<nmt::Hypothesis> hyps = hypotheses_of(m, units, 2, alignments);
    for (size_t u = 0; u < units.size(); ++u) {
      REQUIRE(!units[u].copied);
      CHECK(!hyps[u].attention.empty());  // (the pass-through placement reads it)
      CHECK(hyps[u].readout.empty() == !alignments);
    }
  }
}
