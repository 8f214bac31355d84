// The lexical shortlist (model/shortlist.h): the table a model file carries, the token set of a
// batch, a decoder step restricted to it, and translations with the `shortlist` option.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "loaded_fixture.h"
#include "model_bytes.h"
#include "translator.h"
#include "translator_internal.h"

using namespace test_model_bytes;

namespace {

// A table for a model of `vocab` tokens: `frequent`, and candidates[s] for the first sources.
std::vector<NewTensor> table(int vocab, const std::vector<int>& frequent, const std::vector<std::vector<int>>& candidates) {
  std::vector<uint8_t> counts(size_t(vocab), 0);
  std::vector<int> targets;
  for (size_t s = 0; s < candidates.size(); ++s) {
    counts[s] = uint8_t(candidates[s].size());
    targets.insert(targets.end(), candidates[s].begin(), candidates[s].end());
  }
  return {{"shortlist.frequent", "u16", {int64_t(frequent.size())}, u16_bytes(frequent)},
          {"shortlist.counts", "u8", {vocab}, counts},
          {"shortlist.targets", "u16", {int64_t(targets.size())}, u16_bytes(targets)}};
}

std::vector<int> all_ids(int vocab) {
  std::vector<int> ids(static_cast<size_t>(vocab));
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

// A translation's JSON less its timings (which differ from run to run).
nlohmann::json without_times(const std::string& json_text) {
  nlohmann::json j = nlohmann::json::parse(json_text);
  j["stats"].erase("ms");
  return j;
}

const std::vector<std::string> kSentences = {"Hello world.", "The house is small. It was a good day.",
                                             "A cat sat on the mat, and the dog slept."};

}  // namespace

TEST_CASE("shortlist table: read from the model file, the batch's tokens ascending with eos and the extras") {
  const auto base = read_bytes(fixture("tiny.nmt"));
  const int vocab = header_of(base)["config"]["vocab_size"];
  auto t = load_bytes(with_tensors(base, table(vocab, {5, 7}, {{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {20, 30}, {30, 40}})));
  const nmt::Translator::Impl& m = t->impl();
  REQUIRE(m.shortlist.has_value());
  CHECK(m.shortlist->frequent_count() == 2);
  const int eos = m.model.config().eos_id, unk = m.model.config().unk_id;
  std::vector<int> expect = {eos, unk, 5, 7, 20, 30};
  std::sort(expect.begin(), expect.end());
  CHECK(m.shortlist->tokens_for({{10, eos}}) == expect);
  expect = {eos, unk, 5, 7, 20, 30, 40, 999};
  std::sort(expect.begin(), expect.end());
  CHECK(m.shortlist->tokens_for({{10}, {11, 11}}, {999, 7}) == expect);
  CHECK(t->info_json().find("\"shortlist\":true") != std::string::npos);

  auto plain = load_bytes(base);
  CHECK_FALSE(plain->impl().shortlist.has_value());
  CHECK(plain->info_json().find("\"shortlist\":false") != std::string::npos);
  nmt::TranslateOptions on, off;
  on.shortlist = true;
  auto a = plain->translate("Hello world.", on), b = plain->translate("Hello world.", off);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.value().text == b.value().text);  // a model without a shortlist: the option has no effect
}

TEST_CASE("shortlist step: the listed tokens' logits are the full step's, every other is -inf (int8 and f32)") {
  for (const char* name : {"tiny.nmt", "tiny-f32.nmt"}) {
    CAPTURE(name);
    auto t = load_bytes(read_bytes(fixture(name)));
    const nmt::Transformer& model = t->impl().model;
    const int vocab = model.config().vocab_size;
    const nmt::EncoderOutput enc = model.encode({{10, 20, 30, model.config().eos_id}, {40, 50, model.config().eos_id}});
    std::vector<int> ids;
    for (int v = 0; v < vocab; v += 7) ids.push_back(v);
    for (const auto& rows_ids : {ids, all_ids(vocab)}) {
      const nmt::OutputRows rows = model.output_rows(rows_ids);
      nmt::DecoderState full = model.start(enc, {0, 1, 1}, 4), part = model.start(enc, {0, 1, 1}, 4);
      std::vector<float> lf(size_t(3) * vocab), lp(size_t(3) * vocab);
      std::vector<int> tokens = {2, 2, 2};
      for (int step = 0; step < 3; ++step) {
        model.step(enc, full, tokens.data(), lf.data());
        model.step(enc, part, tokens.data(), lp.data(), &rows);
        size_t listed = 0;
        for (int r = 0; r < 3; ++r)
          for (int v = 0; v < vocab; ++v) {
            const bool in = std::binary_search(rows_ids.begin(), rows_ids.end(), v);
            const float a = lf[size_t(r) * vocab + v], b = lp[size_t(r) * vocab + v];
            if (in) {
              listed += a == b;  // the same GEMM rows in the same order: bit-identical
            } else {
              CHECK(std::isinf(b));
              CHECK(b < 0);
            }
          }
        CHECK(listed == 3 * rows_ids.size());
        tokens = {100 + step, 200 + step, 300 + step};
      }
    }
  }
}

TEST_CASE("shortlist translation: the whole vocabulary gives the full search's output; a small list only its tokens") {
  const auto base = read_bytes(fixture("tiny.nmt"));
  const int vocab = header_of(base)["config"]["vocab_size"];
  auto plain = load_bytes(base);
  auto everything = load_bytes(with_tensors(base, table(vocab, all_ids(vocab), {})));
  for (int beam : {1, 4}) {
    CAPTURE(beam);
    nmt::TranslateOptions off, on;
    off.beam_size = on.beam_size = beam;
    off.alignments = on.alignments = true;
    on.shortlist = true;
    for (const std::string& text : kSentences) {
      auto a = plain->translate(text, off);
      auto b = everything->translate(text, on);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      CHECK(without_times(nmt::to_json(a.value(), off)) == without_times(nmt::to_json(b.value(), off)));
    }
  }

  // A small list: frequent = the 50 lowest ids (eos among them), and each source piece may give
  // itself and its neighbour. Every produced token must come from the batch's list.
  std::vector<std::vector<int>> candidates(static_cast<size_t>(vocab));
  for (int s = 50; s < vocab; ++s) candidates[size_t(s)] = {s, std::min(s + 1, vocab - 1)};
  std::vector<int> frequent(50);
  std::iota(frequent.begin(), frequent.end(), 0);
  auto small = load_bytes(with_tensors(base, table(vocab, frequent, candidates)));
  const nmt::Translator::Impl& m = small->impl();
  for (int beam : {1, 4}) {
    nmt::TranslateOptions o;
    o.beam_size = beam;
    for (const std::string& text : kSentences) {
      std::vector<int> ids;
      for (const nmt::Token& tok : m.tokenizer.encode(text)) ids.push_back(tok.id);
      std::vector<int> with_eos = ids;
      with_eos.push_back(m.model.config().eos_id);
      const std::vector<int> allowed = m.shortlist->tokens_for({with_eos});
      const nmt::OutputRows rows = m.model.output_rows(allowed);
      nmt::SearchOptions so = m.search_options(o);
      so.output_rows = &rows;
      const std::vector<nmt::Hypothesis> h = m.translate_ids({ids}, so);
      REQUIRE(h.size() == 1);
      REQUIRE_FALSE(h[0].tokens.empty());
      for (int tok : h[0].tokens) CHECK(std::binary_search(allowed.begin(), allowed.end(), tok));
      for (float lp : h[0].token_log_probs) CHECK(std::isfinite(lp));
      o.shortlist = true;
      CHECK(small->translate(text, o).ok());
      o.shortlist = false;
    }
  }
}

// The list is a batch's, so sentences sharing a batch would see each other's candidates: a
// sentence's translation would change with the text around it (or with how a document was cut
// into requests and workers). Under the shortlist each sentence is decoded over its own list.
TEST_CASE("shortlist translation: a sentence translates the same alone and among others") {
  const auto base = read_bytes(fixture("tiny.nmt"));
  const int vocab = header_of(base)["config"]["vocab_size"];
  std::vector<std::vector<int>> candidates(static_cast<size_t>(vocab));
  for (int s = 50; s < vocab; ++s) candidates[size_t(s)] = {s, std::min(s + 1, vocab - 1), (s * 7) % vocab};
  std::vector<int> frequent(50);
  std::iota(frequent.begin(), frequent.end(), 0);
  auto small = load_bytes(with_tensors(base, table(vocab, frequent, candidates)));
  std::string document;
  for (const std::string& text : kSentences) document += text + " ";
  for (int beam : {1, 4}) {
    CAPTURE(beam);
    nmt::TranslateOptions o;
    o.beam_size = beam;
    o.shortlist = true;
    auto together = small->translate(document, o);
    REQUIRE(together.ok());
    REQUIRE(together.value().sentences.size() == 4);
    for (const nmt::SentenceTranslation& s : together.value().sentences) {
      CAPTURE(s.source);
      auto alone = small->translate(s.source, o);
      REQUIRE(alone.ok());
      REQUIRE(alone.value().sentences.size() == 1);
      CHECK(alone.value().sentences[0].target_ids == s.target_ids);
      CHECK(alone.value().sentences[0].token_probs == s.token_probs);
    }
  }
}

TEST_CASE("shortlist with a forced prefix: the prefix's tokens are allowed even when the list lacks them") {
  const auto base = read_bytes(fixture("tiny.nmt"));
  const int vocab = header_of(base)["config"]["vocab_size"];
  auto t = load_bytes(with_tensors(base, table(vocab, {3}, {})));  // only eos, plus the prefix
  nmt::TranslateOptions o;
  o.shortlist = true;
  o.prefix = "Das Haus";
  auto r = t->translate("The house is small.", o);
  REQUIRE_MESSAGE(r.ok(), r.error());
  CHECK(r.value().text.rfind("Das Haus", 0) == 0);
  for (const auto& s : r.value().sentences)
    for (float p : s.token_probs) CHECK(std::isfinite(p));
}

TEST_CASE("a broken shortlist table is a load error that says what is wrong") {
  const auto base = read_bytes(fixture("tiny.nmt"));
  const int vocab = header_of(base)["config"]["vocab_size"];
  auto good = table(vocab, {5}, {{1, 2}});
  CHECK(load_error(with_tensors(base, good)).empty());

  auto outside = good;
  outside[0].bytes = u16_bytes({vocab});
  CHECK(load_error(with_tensors(base, outside)).find("outside the vocabulary") != std::string::npos);
  outside = good;
  outside[2].bytes = u16_bytes({1, 60000});
  CHECK(load_error(with_tensors(base, outside)).find("outside the vocabulary") != std::string::npos);

  auto mismatch = good;
  mismatch[1].bytes[0] = 3;  // says 3 candidates, there are 2
  CHECK(load_error(with_tensors(base, mismatch)).find("add up to 3") != std::string::npos);

  CHECK(load_error(with_tensors(base, {good[0], good[1]})).find("partial shortlist") != std::string::npos);

  auto wrong_type = good;
  wrong_type[1].dtype = "u16";
  wrong_type[1].bytes.resize(size_t(vocab) * 2, 0);
  CHECK(load_error(with_tensors(base, wrong_type)).find("shortlist.counts") != std::string::npos);
}
