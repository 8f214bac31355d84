// The WASM module's translate() writes its JSON a sentence at a time (Translator::translate_json):
// each sentence is written as soon as it is made and let go, so a long text's result is held once,
// as its JSON. It must be the JSON to_json writes of translate()'s result, byte for byte (the
// timings aside). The memory itself is measured by scripts/bench-memory.mjs (--case engine-line).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "loaded_fixture.h"
#include "units.h"
#include "text/utf8.h"

namespace {

using nlohmann::json;
using test_model_bytes::load_fixture;

std::string line_of(const std::string& part, size_t chars) {
  std::string s;
  while (s.size() < chars) s += part;
  return s;
}

// The JSON without its timings (stats.ms), which differ from run to run.
std::string without_timings(const std::string& written) {
  json doc = json::parse(written);
  doc["stats"].erase("ms");
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The sentences' part of the JSON, as written: everything before the source text.
std::string sentences_part(const std::string& written) { return written.substr(0, written.find("],\"source_text\":")); }

}  // namespace

TEST_CASE("result memory: translate_json writes what to_json writes of translate(), byte for byte") {
  auto translator = load_fixture("tiny.nmt");
  // translated and copied sentences, characters of 2, 3 and 4 bytes (UTF-16 pairs) in the source
  // and in copied targets, a long line cut into chunks, gaps of blank lines and a list's number
  const std::string text = "Gr\xC3\xBC\xC3\x9F" "e aus K\xC3\xB6ln. The house is small.\n\n"
                           "\xF0\x9F\x98\x80 ... \xF0\x9F\x8E\x89\n1. \xE2\x82\xAC 12,50 \xF0\x9F\x98\x80 the end\n" +
                           line_of("(\"1\") \xF0\x9F\x98\x80 ", 4000) + "\n" + line_of("see x.org/a and ", 3000) + "\n  ";
  for (bool alignments : {false, true})
    for (bool all_heads : {false, true})
      for (int beam : {1, 2}) {
        if (all_heads && !alignments) continue;
        CAPTURE(alignments);
        CAPTURE(all_heads);
        CAPTURE(beam);
        nmt::TranslateOptions options;
        options.alignments = alignments;
        options.all_heads = all_heads;
        options.beam_size = beam;
        auto whole = translator->translate(text, options);
        REQUIRE(whole);
        REQUIRE(whole->sentences.size() > 20);
        const std::string expected = nmt::to_json(whole.value(), options);
        std::string written = "prefix:";  // appended to what the string holds
        CHECK(translator->translate_json(text, options, nullptr, written) == "");
        REQUIRE(written.rfind("prefix:", 0) == 0);
        written.erase(0, 7);
        CHECK(sentences_part(written) == sentences_part(expected));
        CHECK(without_timings(written) == without_timings(expected));
        // the ranges in UTF-16 units of the whole translation, as a table of all of it gives them
        const json doc = json::parse(written);
        const nmt::Utf16Offsets source16(whole->source_text), target16(whole->text);
        REQUIRE(doc["sentences"].size() == whole->sentences.size());
        for (size_t k = 0; k < whole->sentences.size(); ++k) {
          const nmt::SentenceTranslation& s = whole->sentences[k];
          CHECK(doc["sentences"][k]["target_range"] == json::array({target16(s.target_begin), target16(s.target_end)}));
          CHECK(doc["sentences"][k]["source_range"] == json::array({source16(s.source_begin), source16(s.source_end)}));
        }
      }
}

TEST_CASE("result memory: translate_json says why it failed and appends nothing") {
  auto translator = load_fixture("tiny.nmt");
  nmt::TranslateOptions bad;
  bad.beam_size = 0;  // out of range
  std::string written = "kept";
  CHECK(translator->translate_json("The house is small.", bad, nullptr, written) != "");
  CHECK(written == "kept");
  nmt::TranslateOptions prefixed;
  prefixed.prefix = "Das";
  const std::string why = translator->translate_json("One sentence. And another one.", prefixed, nullptr, written);
  CHECK(why.find("exactly one sentence") != std::string::npos);
  CHECK(written == "kept");
}

TEST_CASE("result memory: a long run of characters the vocabulary lacks is read in units of at most kChunkBytes") {
  // (each character is a word of the word alignment, whose matrices are words x words: one unit of
  // 32,000 such characters took gigabytes and aborted the WASM engine)
  auto translator = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = translator->impl();
  const std::string run = line_of("\xE4\xBD\xA0\xE5\xA5\xBD\xF0\x9F\x98\x80", 30000);  // 你好😀, no space
  for (const std::string& text : {run, "The house " + run + " is small."}) {
    const std::vector<nmt::Unit> units = test_model_bytes::units_of(m, text);
    REQUIRE(units.size() > 5);
    size_t covered = units.front().begin;
    for (const nmt::Unit& u : units) {
      CHECK(u.end - u.begin <= nmt::kChunkBytes);
      CHECK(u.begin == covered);  // one after another, the whole text
      covered = u.end;
    }
    CHECK(covered == text.size());
  }
  // and translated with alignments: the run comes back as it is, a few units' words at a time
  nmt::TranslateOptions options;
  options.alignments = true;
  options.beam_size = 1;
  auto r = translator->translate(run, options);
  REQUIRE(r);
  CHECK(r->text == run);
  for (const nmt::SentenceTranslation& s : r->sentences) {
    CHECK(s.copied);
    CHECK(s.words.source_words.size() <= nmt::kChunkBytes);
  }
}

TEST_CASE("result memory: the chunks of a long sentence with nothing to translate in them are copied, not run") {
  // (50,000 quotation marks around one word: the model ran 391 chunks of quotes for 141 s)
  auto translator = load_fixture("tiny.nmt");
  const nmt::Translator::Impl& m = translator->impl();
  const std::string quotes = line_of("\" ", 3000);
  const std::string text = quotes + "The house is small, " + quotes;
  const std::vector<nmt::Unit> units = test_model_bytes::units_of(m, text);
  REQUIRE(units.size() > 4);
  size_t translated = 0;
  for (const nmt::Unit& u : units) {
    const std::string chunk = text.substr(u.begin, u.end - u.begin);
    CAPTURE(chunk);
    const bool has_word = chunk.find_first_of("Thehousismal") != std::string::npos;
    CHECK(u.copied == !has_word);
    translated += has_word;
  }
  CHECK(translated >= 1);
  nmt::TranslateOptions options;
  options.beam_size = 1;
  auto r = translator->translate(text, options);
  REQUIRE(r);
  CHECK(r->text.substr(0, units[0].end) == text.substr(0, units[0].end));  // the first chunk copied as it is
}

TEST_CASE("result memory: a long line of copied text comes back as it is, chunk after chunk, without spaces added") {
  // (each chunk of 128 tokens was joined to the one before with a space besides its own: '("1") '
  // x 1,000 came back 99 characters longer)
  auto translator = load_fixture("tiny.nmt");
  nmt::TranslateOptions options;
  options.beam_size = 1;
  for (const std::string& part : {std::string("\" "), std::string("(\"1\") "), std::string("* * * | ")}) {
    const std::string text = line_of(part, 6000);
    auto r = translator->translate(text, options);
    REQUIRE(r);
    CHECK(r->sentences.size() > 10);
    CHECK(r->text == text);
    for (const nmt::SentenceTranslation& s : r->sentences) CHECK(r->text.substr(s.target_begin, s.target_end - s.target_begin) == s.target);
  }
}
