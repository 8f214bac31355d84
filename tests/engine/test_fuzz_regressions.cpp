// Regression tests for what the libFuzzer harnesses (tests/fuzz/) found in the whole translate();
// each input is also kept in tests/fuzz/corpus/<harness>/ so that every fuzz run replays it.
#include <doctest/doctest.h>

#include <string>

#include "translator.h"

TEST_CASE("fuzz regression: a sentence with no tokens has one source token per source id (</s>)") {
  auto loaded = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  for (bool alignments : {false, true}) {
    nmt::TranslateOptions options;
    options.alignments = alignments;
    options.beam_size = 2;
    // U+200B alone and two U+FFFD make sentences the tokenizer gives no pieces for.
    auto r = loaded.value()->translate("Hello.\n\xE2\x80\x8B\nThe house.\n\xEF\xBF\xBD\xEF\xBF\xBD\n", options);
    REQUIRE(r);
    REQUIRE(r->sentences.size() == 4);
    for (const nmt::SentenceTranslation& s : r->sentences) {
      CHECK(!s.source_ids.empty());
      CHECK(s.token_probs.size() == s.target_ids.size());
      if (!alignments) continue;
      CHECK(s.source_tokens.size() == s.source_ids.size());
      CHECK(s.target_tokens.size() == s.target_ids.size());
      CHECK(s.attention.size() == s.target_ids.size() * s.source_ids.size());
    }
    CHECK(r->sentences[1].source_ids.size() == 1);
    CHECK(r->sentences[1].target.empty());
  }
}
