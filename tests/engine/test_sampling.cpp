// Sampling (option sample_top_k, search/sampling.h): the random stream and the top-k draw on their
// own, then on the fixture models: top-1 is greedy exactly, a seed reproduces its translation in
// any batch, the first token's frequencies over many seeds are the model's probabilities, sampling
// keeps a forced prefix and the shortlist, and a beam with sampling is an error.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "loaded_fixture.h"
#include "model_bytes.h"
#include "search/sampling.h"
#include "translator.h"
#include "translator_internal.h"

using namespace test_model_bytes;

namespace {

const std::vector<std::string> kSentences = {"Hello world.", "The house is small.", "It was a good day.",
                                             "A cat sat on the mat, and the dog slept.",
                                             "We will meet at the museum on Monday morning."};

nmt::TranslateOptions sampling(int top_k, int seed) {
  nmt::TranslateOptions o;
  o.beam_size = 1;
  o.sample_top_k = top_k;
  o.seed = seed;
  return o;
}

// The model's first-step probabilities for a source (ids without eos), over the whole vocabulary.
std::vector<double> first_step_probs(const nmt::Translator::Impl& m, const std::vector<int>& ids) {
  const std::vector<float> logits = first_step_logits(m, ids);
  const float top = *std::max_element(logits.begin(), logits.end());
  std::vector<double> p(logits.size());
  double total = 0.0;
  for (size_t v = 0; v < p.size(); ++v) total += p[v] = std::exp(double(logits[v]) - top);
  for (double& x : p) x /= total;
  return p;
}

// Token ids by falling probability (ties: lowest id).
std::vector<int> by_probability(const std::vector<double>& p) {
  std::vector<int> ids(p.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return p[size_t(a)] > p[size_t(b)]; });
  return ids;
}

}  // namespace

TEST_CASE("SplitMix64 is the published generator, and uniform() lies in [0, 1)") {
  nmt::SplitMix64 g(0);
  CHECK(g.next() == 0xE220A8397B1DCDAFull);  // SplitMix64's first output from state 0
  nmt::SplitMix64 a(12345), b(12345);
  for (int i = 0; i < 1000; ++i) {
    const double u = a.uniform();
    CHECK(u >= 0.0);
    CHECK(u < 1.0);
    CHECK(b.uniform() == u);  // the same seed, the same stream
  }
}

TEST_CASE("sentence_seed depends on the seed and on the source ids, in order") {
  CHECK(nmt::sentence_seed(0, {}) == 0x4D25767F9DCE13F5ull);  // FNV-1a 64 of four zero bytes
  CHECK(nmt::sentence_seed(1, {5, 6}) == nmt::sentence_seed(1, {5, 6}));
  CHECK(nmt::sentence_seed(1, {5, 6}) != nmt::sentence_seed(2, {5, 6}));
  CHECK(nmt::sentence_seed(1, {5, 6}) != nmt::sentence_seed(1, {6, 5}));
  CHECK(nmt::sentence_seed(1, {5, 6}) != nmt::sentence_seed(1, {5, 6, 3}));
  CHECK(nmt::sentence_seeds(7, {{1}, {2, 3}}) ==
        std::vector<uint64_t>{nmt::sentence_seed(7, {1}), nmt::sentence_seed(7, {2, 3})});
}

TEST_CASE("TopKSampler: the k largest, renormalized; u picks the point of their cumulative distribution") {
  nmt::TopKSampler s;
  // weights exp(logit): 1, 3, 0, 2
  const float logits[] = {0.0f, std::log(3.0f), -INFINITY, std::log(2.0f)};
  for (double u : {0.0, 0.5, 0.999999}) CHECK(s.draw(logits, 4, 1, u) == 1);  // top-1: the argmax
  // top-2: tokens 1 (3/5) and 3 (2/5)
  CHECK(s.draw(logits, 4, 2, 0.0) == 1);
  CHECK(s.draw(logits, 4, 2, 0.59) == 1);
  CHECK(s.draw(logits, 4, 2, 0.61) == 3);
  CHECK(s.draw(logits, 4, 2, 0.999999) == 3);
  // k >= n: all of them (1/6, 3/6, 0, 2/6); -inf is never drawn
  for (int k : {4, 1000}) {
    CHECK(s.draw(logits, 4, k, 0.1) == 0);
    CHECK(s.draw(logits, 4, k, 0.5) == 1);
    CHECK(s.draw(logits, 4, k, 0.67) == 3);
    CHECK(s.draw(logits, 4, k, 0.999999) == 3);
  }
  // ties at the k-th place: the lower index stays
  const float equal[] = {1.0f, 1.0f, 1.0f};
  CHECK(s.draw(equal, 3, 1, 0.9) == 0);
  CHECK(s.draw(equal, 3, 2, 0.9) == 1);
  CHECK(s.draw(equal, 3, 2, 0.1) == 0);
  // candidates in index order (the 3 largest of 4: tokens 1, 2 and 3)
  const float four[] = {1.0f, 3.0f, 2.0f, 4.0f};
  CHECK(s.draw(four, 4, 3, 0.0) == 1);
  const float w1 = std::exp(3.0f - 4.0f), w2 = std::exp(2.0f - 4.0f), total = w1 + w2 + 1.0f;
  CHECK(s.draw(four, 4, 3, 0.999 * w1 / total) == 1);
  CHECK(s.draw(four, 4, 3, 1.001 * w1 / total) == 2);
  CHECK(s.draw(four, 4, 3, 1.001 * (w1 + w2) / total) == 3);
}

TEST_CASE("sample_top_k 1 is greedy exactly: tokens and log-probabilities, batched, on every fixture model") {
  for (const std::string name : {"tiny.nmt", "tiny-f32.nmt", "tiny-post-f32.nmt"}) {
    CAPTURE(name);
    auto t = load_fixture(name);
    const nmt::Translator::Impl& m = t->impl();
    std::vector<std::vector<int>> sources;
    for (const std::string& s : kSentences) sources.push_back(source_ids(m, s));
    nmt::TranslateOptions greedy;
    greedy.beam_size = 1;
    const auto want = m.translate_ids(sources, m.search_options(greedy));
    for (int seed : {0, 99}) {
      const auto got = m.translate_ids(sources, m.search_options(sampling(1, seed)));
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i].tokens == want[i].tokens);
        CHECK(got[i].token_log_probs == want[i].token_log_probs);
        CHECK(got[i].log_prob == want[i].log_prob);
      }
    }
    // and through translate(), also with the shortlist and with a forced prefix
    const std::string text = "The house is small. It was a good day.";
    CHECK(t->translate(text, sampling(1, 5))->text == t->translate(text, greedy)->text);
  }
  auto t = load_fixture("tiny-shortlist.nmt");
  nmt::TranslateOptions greedy;
  greedy.beam_size = 1;
  greedy.shortlist = true;
  nmt::TranslateOptions top1 = sampling(1, 3);
  top1.shortlist = true;
  for (const std::string& s : kSentences) CHECK(t->translate(s, top1)->text == t->translate(s, greedy)->text);
  greedy.prefix = top1.prefix = "Das Ha";
  CHECK(t->translate(kSentences[1], top1)->text == t->translate(kSentences[1], greedy)->text);
}

// (Alone and in a batch alike because the same random numbers meet the same logits: the fixture's
// logits do not depend on a sentence's row in the batch. engine/README.md, "Sampling", says where a
// model's may.)
TEST_CASE("a seed reproduces its samples, alone or in any batch; other seeds draw other translations") {
  auto t = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = t->impl();
  std::vector<std::vector<int>> sources;
  for (const std::string& s : kSentences) sources.push_back(source_ids(m, s));
  for (int k : {1000, 50, 5}) {  // 1000: the whole vocabulary
    CAPTURE(k);
    const nmt::SearchOptions o = m.search_options(sampling(k, 42));
    const auto batched = m.translate_ids(sources, o);
    std::vector<std::vector<int>> reversed(sources.rbegin(), sources.rend());
    const auto backwards = m.translate_ids(reversed, o);
    for (size_t i = 0; i < sources.size(); ++i) {
      CAPTURE(i);
      const auto alone = m.translate_ids({sources[i]}, o);
      CHECK(alone[0].tokens == batched[i].tokens);
      CHECK(m.translate_ids({sources[i]}, o)[0].tokens == alone[0].tokens);  // again: the same
      CHECK(backwards[sources.size() - 1 - i].tokens == batched[i].tokens);
      // each token's log-probability is the model's, and they add up to the hypothesis'
      const float sum = std::accumulate(batched[i].token_log_probs.begin(), batched[i].token_log_probs.end(), 0.0f);
      CHECK(batched[i].log_prob == doctest::Approx(sum).epsilon(1e-5));
      const std::vector<double> p = first_step_probs(m, sources[i]);
      CHECK(std::exp(batched[i].token_log_probs[0]) == doctest::Approx(p[size_t(batched[i].tokens[0])]).epsilon(1e-3));
    }
    // other seeds: some sentence comes out differently
    int differ = 0;
    for (int seed : {1, 2, 3}) {
      const auto other = m.translate_ids(sources, m.search_options(sampling(k, seed)));
      for (size_t i = 0; i < sources.size(); ++i) differ += other[i].tokens != batched[i].tokens;
    }
    CHECK(differ > 0);
  }
  // translate(): a sentence of a longer text (one batch) comes out as it does alone
  const nmt::TranslateOptions o = sampling(1000, 7);
  auto whole = t->translate(kSentences[1] + " " + kSentences[3] + " " + kSentences[0], o);
  REQUIRE(whole.ok());
  REQUIRE(whole->sentences.size() == 3);
  CHECK(whole->sentences[0].target == t->translate(kSentences[1], o)->text);
  CHECK(whole->sentences[1].target == t->translate(kSentences[3], o)->text);
  CHECK(whole->sentences[2].target == t->translate(kSentences[0], o)->text);
  CHECK(t->translate(kSentences[3], o)->text == t->translate(kSentences[3], o)->text);
}

TEST_CASE("over many seeds, the first token's frequencies are the model's probabilities (top-k renormalized)") {
  auto t = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = t->impl();
  const std::vector<int> ids = source_ids(m, kSentences[3]);
  const std::vector<double> p = first_step_probs(m, ids);
  const std::vector<int> order = by_probability(p);
  CAPTURE(p[size_t(order[0])]);
  CAPTURE(p[size_t(order[1])]);
  REQUIRE(p[size_t(order[0])] < 0.9);  // a spread distribution, or the test would prove little
  constexpr int kDraws = 2000;
  for (int k : {0 /* = the vocabulary */, 2}) {
    CAPTURE(k);
    const int top_k = k == 0 ? m.model.config().vocab_size : k;
    std::map<int, int> counts;
    for (int seed = 0; seed < kDraws; ++seed) {
      nmt::SearchOptions o = m.search_options(sampling(top_k, seed));
      o.max_length_ratio = 0.1f;  // a token or two: the first step is what counts
      o.max_length_offset = 0;
      const auto h = m.translate_ids({ids}, o);
      REQUIRE(!h[0].tokens.empty());
      ++counts[h[0].tokens[0]];
    }
    // k = 2: only the two most probable tokens, in proportion p1 : p2
    const double mass = k == 2 ? p[size_t(order[0])] + p[size_t(order[1])] : 1.0;
    if (k == 2) {
      CHECK(counts.size() <= 2);
      for (const auto& [token, n] : counts) CHECK((token == order[0] || token == order[1]));
    }
    for (int r = 0; r < (k == 2 ? 2 : 5); ++r) {
      const int token = order[size_t(r)];
      const double want = p[size_t(token)] / mass, got = double(counts[token]) / kDraws;
      const double sigma = std::sqrt(want * (1.0 - want) / kDraws);
      CAPTURE(r);
      CAPTURE(want);
      CAPTURE(got);
      CHECK(std::fabs(got - want) <= 5.0 * sigma + 1e-9);
    }
  }
}

TEST_CASE("sampling keeps a forced prefix and draws only the shortlist's tokens") {
  auto t = load_fixture("tiny-shortlist.nmt");
  const nmt::Translator::Impl& m = t->impl();
  REQUIRE(m.shortlist.has_value());
  const std::string source = kSentences[4];
  std::vector<int> ids = source_ids(m, source);
  ids.push_back(m.model.config().eos_id);
  const std::vector<int> listed = m.shortlist->tokens_for({ids});
  REQUIRE(int(listed.size()) < m.model.config().vocab_size);
  std::map<std::string, int> texts;
  for (int seed = 0; seed < 30; ++seed) {
    CAPTURE(seed);
    nmt::TranslateOptions o = sampling(1000, seed);
    o.shortlist = true;
    auto r = t->translate(source, o);
    REQUIRE(r.ok());
    ++texts[r->text];
    for (int id : r->sentences[0].target_ids) CHECK(std::binary_search(listed.begin(), listed.end(), id));
    o.shortlist = false;
    o.prefix = "Wir werden";
    auto prefixed = t->translate(source, o);
    REQUIRE(prefixed.ok());
    CHECK(prefixed->text.compare(0, o.prefix.size(), o.prefix) == 0);
    o.prefix = "Das Ha";  // mid-word: the pieces that go on spelling it are drawn from
    prefixed = t->translate(source, o);
    REQUIRE(prefixed.ok());
    CHECK(prefixed->text.compare(0, o.prefix.size(), o.prefix) == 0);
  }
  CHECK(texts.size() > 1);  // it did sample
}

TEST_CASE("a beam with sampling is an error naming both options; the options' ranges") {
  auto t = load_fixture("tiny.nmt");
  nmt::TranslateOptions o = sampling(5, 0);
  o.beam_size = 4;
  auto r = t->translate("Hello.", o);
  REQUIRE(!r.ok());
  CHECK(r.error() == "sample_top_k must be 0 unless beam is 1 (got sample_top_k 5 with beam 4)");
  CHECK(nmt::check_options(o) == r.error());
  CHECK(nmt::sampling_error(o, "--beam", "--sample-top-k") ==
        "--sample-top-k must be 0 unless --beam is 1 (got --sample-top-k 5 with --beam 4)");
  auto json = nmt::options_from_json(R"({"sample_top_k": 5})");  // the default beam is 4
  REQUIRE(json.ok());
  CHECK(t->translate("Hello.", json.value()).error() == r.error());
  o.sample_top_k = 0;  // a beam and a seed alone: fine (the seed is unused)
  o.seed = 12;
  CHECK(t->translate("Hello.", o).ok());
  auto error = [](const char* text) {
    auto e = nmt::options_from_json(text);
    CHECK(!e.ok());
    return e.ok() ? std::string() : e.error();
  };
  CHECK(error(R"({"sample_top_k": -1})") == "sample_top_k must be an integer from 0 to 1000000 (got -1)");
  CHECK(error(R"({"sample_top_k": 2.5})") == "sample_top_k must be an integer from 0 to 1000000 (got 2.5)");
  CHECK(error(R"({"seed": 2147483648})") == "seed must be an integer from 0 to 2147483647 (got 2147483648)");
  auto top = nmt::options_from_json(R"({"beam": 1, "sample_top_k": 1000000, "seed": 2147483647})");
  REQUIRE(top.ok());
  CHECK(top->seed == 2147483647);
  CHECK(t->translate("Hello.", top.value()).ok());
}
