// Forced target prefixes (search/forced_prefix.h) and alternatives (search/alternatives.h), on the
// fixture model: the prefix is kept exactly (mid-word, trailing space, non-ASCII, characters the
// tokenizer changes), forcing the model's own tokens changes nothing, alignments and token
// probabilities cover the forced tokens, and the alternatives are ranked, consistent with
// translate() and include the model's own choice.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "search/forced_prefix.h"
#include "translator.h"
#include "translator_internal.h"

namespace {

std::unique_ptr<nmt::Translator> tiny() {
  auto t = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE_MESSAGE(t.ok(), t.error());
  return std::move(t.value());
}

const std::string kSpace = "\xE2\x96\x81";  // "▁"

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

nmt::TranslateOptions with(int beam, const std::string& prefix, bool alignments = true) {
  nmt::TranslateOptions o;
  o.beam_size = beam;
  o.prefix = prefix;
  o.alignments = alignments;
  return o;
}

const char* const kSource = "The weather is nice today.";

bool has_step(const std::vector<nmt::HealStep>& steps, int id) {
  return std::any_of(steps.begin(), steps.end(), [&](const nmt::HealStep& h) { return h.id == id; });
}

}  // namespace

TEST_CASE("make_target_prefix: the pieces to force and the constraint on the next one") {
  auto t = tiny();
  const nmt::SentencePiece& sp = t->impl().tokenizer;
  auto ids_of = [&](const std::string& text) {
    std::vector<int> ids;
    for (const nmt::Token& k : sp.encode(text)) ids.push_back(k.id);
    return ids;
  };
  auto all_start_with = [&](const std::vector<nmt::HealStep>& steps, const std::string& start) {
    return std::all_of(steps.begin(), steps.end(), [&](const nmt::HealStep& h) { return starts_with(sp.id_to_piece(h.id), start); });
  };
  auto has = [](const std::vector<nmt::HealStep>& steps, int id) {
    return std::any_of(steps.begin(), steps.end(), [&](const nmt::HealStep& h) { return h.id == id; });
  };

  SUBCASE("empty: nothing forced") {
    const nmt::TargetPrefix p = nmt::make_target_prefix(sp, "");
    CHECK(p.forced.tokens.empty());
    CHECK(p.forced.heal.empty());
  }
  SUBCASE("a trailing space: every piece forced, the next one starts a word") {
    const nmt::TargetPrefix p = nmt::make_target_prefix(sp, "Das ");
    CHECK(p.forced.tokens == ids_of("Das"));
    REQUIRE(p.forced.heal.size() == kSpace.size());
    CHECK(all_start_with(p.forced.heal[0], kSpace));
    CHECK(p.model_text == "Das ");
  }
  SUBCASE("ending in a letter: the last word is left to the model to spell, in any pieces") {
    for (const std::string text : {"Das Ha", "Das Gebä", "Grüße au"}) {
      CAPTURE(text);
      const nmt::TargetPrefix p = nmt::make_target_prefix(sp, text);
      const std::vector<nmt::Token> toks = sp.encode(text);
      size_t word = toks.size() - 1;  // the last word's first token
      while (word > 0 && !starts_with(toks[word].piece, kSpace)) --word;
      std::string heal;
      std::vector<int> rest;
      for (size_t i = 0; i < toks.size(); ++i) (i < word ? rest.push_back(toks[i].id) : void(heal += toks[i].piece));
      CHECK(p.forced.tokens == rest);
      REQUIRE(p.forced.heal.size() == heal.size());
      CHECK(p.heal_begin == toks[word].begin);
      CHECK(p.model_text == text);
      // the tokenizer's own pieces spell it, and so does any piece starting with the whole word
      size_t at = 0;
      for (size_t i = word; i < toks.size(); ++i) {
        CHECK(has(p.forced.heal[at], toks[i].id));
        at += toks[i].piece.size();
      }
      CHECK(all_start_with(p.forced.heal[0], kSpace));
      for (const auto& steps : p.forced.heal)
        CHECK(std::is_sorted(steps.begin(), steps.end(), [](const nmt::HealStep& a, const nmt::HealStep& b) { return a.id < b.id; }));
      for (const nmt::HealStep& h : p.forced.heal[0]) {  // each step spells part of the word or all of it
        const std::string& piece = sp.id_to_piece(h.id);
        CHECK((piece.size() >= heal.size() ? starts_with(piece, heal) : starts_with(heal, piece)));
        CHECK(size_t(h.bytes) == std::min(piece.size(), heal.size()));
      }
    }
  }
  SUBCASE("ending in punctuation: every piece forced, nothing constrained") {
    const nmt::TargetPrefix p = nmt::make_target_prefix(sp, "Das Haus,");
    CHECK(p.forced.tokens == ids_of("Das Haus,"));
    CHECK(p.forced.heal.empty());
    CHECK(p.heal_begin == std::string("Das Haus,").size());
  }
}

TEST_CASE("translate with a prefix: the translation starts with the prefix exactly") {
  auto t = tiny();
  const nmt::Translator::Impl& m = t->impl();
  const std::vector<std::string> prefixes = {
      "Das",            // a whole word, or the start of one
      "Das ",           // a trailing space: the next piece starts a word
      "Das Wet",        // ends mid-word
      "Grüße au",       // non-ASCII, mid-word
      "Heute,",         // punctuation
      "Ein  großes ",   // two spaces (the tokenizer collapses them)
      "ﬂ Ä 漢字 😀 x",  // a compatibility ligature, unknown characters and an emoji
  };
  for (int beam : {1, 4}) {
    for (const std::string& prefix : prefixes) {
      CAPTURE(beam);
      CAPTURE(prefix);
      auto r = t->translate(kSource, with(beam, prefix));
      REQUIRE_MESSAGE(r.ok(), r.error());
      REQUIRE(r->sentences.size() == 1);
      const nmt::SentenceTranslation& s = r->sentences[0];
      CHECK(starts_with(r->text, prefix));
      CHECK(starts_with(s.target, prefix));
      CHECK(s.target.size() > prefix.size());  // the model went on after it
      // the forced tokens are the translation's first tokens
      const nmt::TargetPrefix p = nmt::make_target_prefix(m.tokenizer, prefix);
      REQUIRE(s.target_ids.size() > p.forced.tokens.size());
      CHECK(std::equal(p.forced.tokens.begin(), p.forced.tokens.end(), s.target_ids.begin()));
      if (!p.forced.heal.empty()) {
        CHECK(has_step(p.forced.heal[0], s.target_ids[p.forced.tokens.size()]));
        // the pieces after the forced ones spell the healed text (the last word's, or the space's "▁")
        std::string heal = prefix.back() == ' ' ? kSpace : "";
        const std::vector<nmt::Token> toks = m.tokenizer.encode(prefix);
        if (heal.empty())
          for (size_t i = p.forced.tokens.size(); i < toks.size(); ++i) heal += toks[i].piece;
        REQUIRE(heal.size() == p.forced.heal.size());
        std::string spelled;
        for (size_t i = p.forced.tokens.size(); i < s.target_ids.size() && spelled.size() < heal.size(); ++i)
          spelled += m.tokenizer.id_to_piece(s.target_ids[i]);
        CHECK(starts_with(spelled, heal));
      }
      // confidence and alignments cover every token, the forced ones included
      REQUIRE(s.token_probs.size() == s.target_ids.size());
      for (float q : s.token_probs) CHECK((q > 0.0f && q <= 1.0f));
      REQUIRE(s.target_tokens.size() == s.target_ids.size());
      size_t last = 0;
      for (const nmt::TokenSpan& k : s.target_tokens) {
        CHECK(k.begin >= last);
        CHECK(k.begin <= k.end);
        CHECK(k.end <= s.target.size());
        last = k.begin;
      }
      CHECK(s.attention.size() == s.target_tokens.size() * s.source_tokens.size());
      CHECK(s.target_word_probs.size() == s.words.target_words.size());
      CHECK(!s.words.target_words.empty());
      const nlohmann::json j = nlohmann::json::parse(nmt::to_json(r.value(), with(beam, prefix)));
      CHECK(starts_with(j["sentences"][0]["target"].get<std::string>(), prefix));
    }
  }
}

TEST_CASE("forcing the model's own words changes nothing (greedy)") {
  // (A beam would change: forcing a token takes the beam's other hypotheses away.)
  auto t = tiny();
  const nmt::SentencePiece& sp = t->impl().tokenizer;
  for (int beam : {1}) {
    for (const char* source : {kSource, "Where is the station?", "Tom doesn't like cats."}) {
      CAPTURE(beam);
      CAPTURE(source);
      auto plain = t->translate(source, with(beam, "", false));
      REQUIRE(plain.ok());
      const nmt::SentenceTranslation& want = plain->sentences[0];
      // Every cut of the model's own text into a prefix (at spaces, and inside words) whose pieces
      // are the ones it wrote leads to the same translation.
      int tried = 0;
      for (size_t cut = 1; cut < want.target.size(); ++cut) {
        if ((uint8_t(want.target[cut]) & 0xC0) == 0x80) continue;  // inside a character
        const std::string prefix = want.target.substr(0, cut);
        const nmt::TargetPrefix p = nmt::make_target_prefix(sp, prefix);
        const size_t n = p.forced.tokens.size();
        if (n > want.target_ids.size() || !std::equal(p.forced.tokens.begin(), p.forced.tokens.end(), want.target_ids.begin()))
          continue;  // the tokenizer spells the prefix differently from how the model wrote it
        if (!p.forced.heal.empty() && (n == want.target_ids.size() || !has_step(p.forced.heal[0], want.target_ids[n])))
          continue;  // (the same for the piece after them)
        CAPTURE(prefix);
        auto forced = t->translate(source, with(beam, prefix, false));
        REQUIRE(forced.ok());
        CHECK(forced->text == plain->text);
        CHECK(forced->sentences[0].target_ids == want.target_ids);
        ++tried;
      }
      CHECK(tried > 0);
    }
  }
}

TEST_CASE("a prefix needs one sentence, and room after it") {
  auto t = tiny();
  auto two = t->translate("The weather is nice. Where is the station?", with(1, "Das"));
  REQUIRE(!two.ok());
  CHECK(two.error() == "a prefix needs exactly one sentence to translate (this text has 2)");
  auto none = t->translate("   ", with(1, "Das"));
  REQUIRE(!none.ok());
  CHECK(none.error() == "a prefix needs exactly one sentence to translate (this text has nothing to translate)");
  auto alt = t->alternatives("Hello. Bye.", with(1, ""));
  REQUIRE(!alt.ok());
  CHECK(alt.error() == "a prefix needs exactly one sentence to translate (this text has 2)");
  std::string long_prefix;
  for (int i = 0; i < 300; ++i) long_prefix += "Haus ";
  auto too_long = t->translate(kSource, with(1, long_prefix));
  REQUIRE(!too_long.ok());
  CHECK(starts_with(too_long.error(), "the prefix is too long: "));
  // without a prefix, any text translates as before
  CHECK(t->translate("The weather is nice. Where is the station?", with(1, "")).ok());
}

TEST_CASE("alternatives: ranked next words, consistent with translate(), the model's choice among them") {
  auto t = tiny();
  for (const char* source : {kSource, "Where is the station?", "I love you."}) {
    for (const std::string& prefix : {std::string(""), std::string("Das "), std::string("Ich habe "), std::string("Wo,")}) {
      CAPTURE(source);
      CAPTURE(prefix);
      nmt::TranslateOptions o = with(1, prefix, false);
      o.alternatives = 5;
      auto alts = t->alternatives(source, o);
      REQUIRE_MESSAGE(alts.ok(), alts.error());
      REQUIRE(alts->size() == 5);
      float total = 0.0f;
      for (size_t i = 0; i < alts->size(); ++i) {
        const nmt::Alternative& a = alts.value()[i];
        CAPTURE(a.word);
        CHECK((a.probability > 0.0f && a.probability <= 1.0f));
        if (i > 0) CHECK(a.probability <= alts.value()[i - 1].probability);
        CHECK(a.word.find_first_not_of(' ') != std::string::npos);
        for (size_t j = 0; j < i; ++j) CHECK(a.word != alts.value()[j].word);
        total += a.probability;
        // translating with prefix + word keeps the word whole when the prefix also takes the
        // boundary after it (a space or punctuation: what the page does)
        const bool boundary = !a.continuation.empty() && (a.continuation[0] == ' ' || std::ispunct(uint8_t(a.continuation[0])));
        const std::string next = prefix + a.word + (boundary ? a.continuation.substr(0, 1) : "");
        auto full = t->translate(source, with(1, next, false));
        REQUIRE(full.ok());
        CHECK(starts_with(full->sentences[0].target, next));
      }
      CHECK(total <= 1.0001f);
      // the model's own next word (greedy) is among them
      auto own = t->translate(source, with(1, prefix, false));
      REQUIRE(own.ok());
      const std::string rest = own->sentences[0].target.substr(prefix.size());
      CHECK(std::any_of(alts->begin(), alts->end(), [&](const nmt::Alternative& a) { return a.word + a.continuation == rest; }));
    }
  }
  SUBCASE("count and JSON") {
    nmt::TranslateOptions o = with(1, "", false);
    o.alternatives = 1;
    auto one = t->alternatives(kSource, o);
    REQUIRE(one.ok());
    CHECK(one->size() == 1);
    const nlohmann::json j = nlohmann::json::parse(nmt::to_json(one.value()));
    REQUIRE(j["alternatives"].size() == 1);
    CHECK(j["alternatives"][0]["word"] == one.value()[0].word);
    CHECK(j["alternatives"][0]["continuation"] == one.value()[0].continuation);
    CHECK(j["alternatives"][0]["probability"].get<double>() == doctest::Approx(one.value()[0].probability).epsilon(1e-3));
    o.alternatives = 0;
    auto bad = t->alternatives(kSource, o);
    REQUIRE(!bad.ok());
    CHECK(bad.error() == "alternatives must be an integer from 1 to 20 (got 0)");
  }
}
