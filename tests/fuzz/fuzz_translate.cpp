// libFuzzer harness: the whole translate() (and alternatives()) on the fixture model
// (tests/fixtures/tiny-shortlist.nmt: tiny.nmt with a lexical shortlist, so the option shortlist
// changes the search) with arbitrary text and options JSON.
// Input: byte 0 = n & 0x7f is the length of the options JSON that follows (bit 7: call
// alternatives() instead of translate()); the rest is the text (at most 2,000 bytes are used, so
// each run stays short).
// Checked: options that parse are within their table's ranges; translate succeeds unless a prefix
// is refused; the output is valid UTF-8; every sentence's source and target ranges lie in the
// cleaned input and the translation, in order, and are the sentence's own text; token
// probabilities are in [0, 1]; word alignments index existing words; to_json is valid JSON.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_common.h"
#include "options.h"
#include "translator.h"

namespace {

const nmt::Translator& model() {
  static const std::unique_ptr<nmt::Translator> t = [] {
    auto loaded = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny-shortlist.nmt");
    FUZZ_CHECK(loaded);
    return std::move(loaded.value());
  }();
  return *t;
}

void check_translation(const nmt::Translation& r, const nmt::TranslateOptions& options) {
  FUZZ_CHECK(fuzz::valid_utf8(r.source_text));
  FUZZ_CHECK(fuzz::valid_utf8(r.text));
  size_t source_at = 0, target_at = 0;
  for (const nmt::SentenceTranslation& s : r.sentences) {
    FUZZ_CHECK(s.source_begin >= source_at && s.source_begin <= s.source_end && s.source_end <= r.source_text.size());
    FUZZ_CHECK(s.target_begin >= target_at && s.target_begin <= s.target_end && s.target_end <= r.text.size());
    FUZZ_CHECK(r.source_text.compare(s.source_begin, s.source_end - s.source_begin, s.source) == 0);
    FUZZ_CHECK(r.text.compare(s.target_begin, s.target_end - s.target_begin, s.target) == 0);
    source_at = s.source_end;
    target_at = s.target_end;
    FUZZ_CHECK(s.token_probs.size() == s.target_ids.size());
    for (float p : s.token_probs) FUZZ_CHECK(p >= 0.f && p <= 1.f);
    FUZZ_CHECK(!std::isnan(s.score));
    if (!options.alignments) continue;
    FUZZ_CHECK(s.source_tokens.size() == s.source_ids.size() && s.target_tokens.size() == s.target_ids.size());
    FUZZ_CHECK(s.attention.size() == s.target_ids.size() * s.source_ids.size());
    for (const nmt::TokenSpan& t : s.source_tokens) FUZZ_CHECK(t.begin <= t.end && t.end <= s.source.size());
    for (const nmt::TokenSpan& t : s.target_tokens) FUZZ_CHECK(t.begin <= t.end && t.end <= s.target.size());
    const nmt::WordAlignment& w = s.words;
    FUZZ_CHECK(w.matrix.size() == w.target_words.size() * w.source_words.size());
    for (const auto& [tw, sw] : w.links)
      FUZZ_CHECK(tw >= 0 && size_t(tw) < w.target_words.size() && sw >= 0 && size_t(sw) < w.source_words.size());
    FUZZ_CHECK(s.target_word_probs.size() == w.target_words.size());
  }
  const std::string json = nmt::to_json(r, options);
  FUZZ_CHECK(nlohmann::json::accept(json));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool alternatives = data[0] & 0x80;
  const size_t options_bytes = std::min<size_t>(data[0] & 0x7f, size - 1);
  const std::string_view options_json(reinterpret_cast<const char*>(data + 1), options_bytes);
  std::string_view text(reinterpret_cast<const char*>(data + 1 + options_bytes), size - 1 - options_bytes);
  if (text.size() > 2000) text = text.substr(0, 2000);

  auto parsed = nmt::options_from_json(options_json);
  if (!parsed) {
    FUZZ_CHECK(!parsed.error().empty());
    return 0;
  }
  nmt::TranslateOptions options = parsed.value();
  FUZZ_CHECK(nmt::check_options(options).empty());
  const nmt::Translator& t = model();
  if (alternatives) {
    auto r = t.alternatives(text, options);
    if (r) {
      for (const nmt::Alternative& a : r.value()) FUZZ_CHECK(a.probability >= 0.f && a.probability <= 1.f);
      FUZZ_CHECK(nlohmann::json::accept(nmt::to_json(r.value())));
    }
    return 0;
  }
  auto r = t.translate(text, options);
  if (!r) {
    FUZZ_CHECK(!options.prefix.empty());  // only a prefix (one sentence, its length) can be refused
    return 0;
  }
  check_translation(r.value(), options);
  return 0;
}
