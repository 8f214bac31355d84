// No text is lost to an empty translation: a sentence whose translation is made only of tokens that
// write nothing (eos, unk, a lone "▁": the shipped de->en model wrote "▁</s>" for "sehr") is
// translated again with none of them allowed first (SearchOptions::not_first). Checked here against
// the model's own first-step distribution on the fixture models: the search takes the best token
// outside not_first, keeps its probability under the model, with and without the lexical shortlist;
// tests/engine/test_cli_empty.py checks the shipped models.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "loaded_fixture.h"
#include "model_bytes.h"
#include "translator.h"
#include "translator_internal.h"

using namespace test_model_bytes;

namespace {

// The model's first-step log-probabilities for a source (ids without eos), over the whole vocabulary.
std::vector<float> first_step_log_probs(const nmt::Translator::Impl& m, const std::vector<int>& ids) {
  std::vector<float> logits = first_step_logits(m, ids);
  const float top = *std::max_element(logits.begin(), logits.end());
  double total = 0.0;
  for (float x : logits) total += std::exp(double(x) - top);
  const float lse = top + float(std::log(total));
  for (float& x : logits) x -= lse;
  return logits;
}

const std::vector<std::string> kSentences = {"Hello world.", "The house is small.", "It was a good day.", "very"};

}  // namespace

TEST_CASE("silent_tokens: eos, unk and the pieces that spell only spaces, ascending") {
  for (const char* name : {"tiny.nmt", "tiny-shortlist.nmt"}) {
    auto t = load_fixture(name);
    const nmt::Translator::Impl& m = t->impl();
    const std::vector<int>& silent = m.silent_tokens;
    CHECK(std::is_sorted(silent.begin(), silent.end()));
    CHECK(std::binary_search(silent.begin(), silent.end(), m.tokenizer.eos_id()));
    CHECK(std::binary_search(silent.begin(), silent.end(), m.tokenizer.unk_id()));
    for (int id = 0; id < m.tokenizer.vocab_size(); ++id) {
      const std::string& piece = m.tokenizer.id_to_piece(id);
      const bool spaces_only = !piece.empty() && piece.find_first_not_of("\xE2\x96\x81") == std::string::npos &&
                               piece.size() % 3 == 0;
      if (id == m.tokenizer.eos_id() || id == m.tokenizer.unk_id()) continue;
      CHECK_MESSAGE(std::binary_search(silent.begin(), silent.end(), id) == spaces_only, piece);
    }
  }
}

TEST_CASE("not_first: the first token is the model's best outside the list, with its own probability") {
  for (const char* name : {"tiny.nmt", "tiny-f32.nmt"}) {
    auto t = load_fixture(name);
    const nmt::Translator::Impl& m = t->impl();
    for (const std::string& sentence : kSentences) {
      const std::vector<int> ids = source_ids(m, sentence);
      const std::vector<float> lp = first_step_log_probs(m, ids);
      for (int beam : {1, 4}) {
        nmt::TranslateOptions o;
        o.beam_size = beam;
        nmt::SearchOptions s = m.search_options(o);
        const int unconstrained = m.translate_ids({ids}, s)[0].tokens.at(0);
        // forbid the token it started with, and every silent one
        s.not_first = m.silent_tokens;
        if (!std::binary_search(s.not_first.begin(), s.not_first.end(), unconstrained)) {
          s.not_first.push_back(unconstrained);
          std::sort(s.not_first.begin(), s.not_first.end());
        }
        const nmt::Hypothesis h = m.translate_ids({ids}, s)[0];
        INFO(name, " beam ", beam, ": ", sentence);
        REQUIRE(!h.tokens.empty());
        CHECK_FALSE(std::binary_search(s.not_first.begin(), s.not_first.end(), h.tokens[0]));
        CHECK(h.token_log_probs[0] == doctest::Approx(lp[size_t(h.tokens[0])]).epsilon(1e-3));
        if (beam == 1) {  // greedy: exactly the argmax outside the list
          int best = -1;
          for (int v = 0; v < int(lp.size()); ++v)
            if (!std::binary_search(s.not_first.begin(), s.not_first.end(), v) && (best < 0 || lp[size_t(v)] > lp[size_t(best)]))
              best = v;
          CHECK(h.tokens[0] == best);
        }
        // only the first token is constrained: later steps may end the translation
        CHECK(h.tokens.back() == m.model.config().eos_id);
      }
    }
  }
}

TEST_CASE("not_first holds under the lexical shortlist") {
  auto t = load_fixture("tiny-shortlist.nmt");
  const nmt::Translator::Impl& m = t->impl();
  REQUIRE(m.shortlist.has_value());
  for (const std::string& sentence : kSentences) {
    const std::vector<int> ids = source_ids(m, sentence);
    nmt::TranslateOptions o;
    o.shortlist = true;
    for (int beam : {1, 4}) {
      o.beam_size = beam;
      nmt::SearchOptions s = m.search_options(o);
      s.not_first = m.silent_tokens;
      std::vector<int> with_eos = ids;
      with_eos.push_back(m.model.config().eos_id);
      const nmt::OutputRows rows = m.model.output_rows(m.shortlist->tokens_for({with_eos}, {}));
      s.output_rows = &rows;
      const nmt::Hypothesis h = m.translate_ids({ids}, s)[0];
      INFO("beam ", beam, ": ", sentence);
      REQUIRE(!h.tokens.empty());
      CHECK_FALSE(std::binary_search(s.not_first.begin(), s.not_first.end(), h.tokens[0]));
      CHECK(std::binary_search(rows.ids.begin(), rows.ids.end(), h.tokens[0]));  // still one of the list
    }
  }
}
