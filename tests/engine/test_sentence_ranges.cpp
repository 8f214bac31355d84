// Translator::sentence_ranges: the sentences translate() reads. The WASM worker cuts a text between
// them and translates it a few sentences at a time (web/protocol.js sentenceGroups), to hand over
// finished sentences before the rest is done; that is only right if every piece of two sentences or
// more translates as it does inside the whole text.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "translator.h"

namespace {

const nmt::Translator& tiny() {
  static const auto loaded = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error()));
  return *loaded.value();
}

using Ranges = std::vector<std::pair<size_t, size_t>>;

Ranges source_ranges(const nmt::Translation& t) {
  Ranges r;
  for (const auto& s : t.sentences) r.emplace_back(s.source_begin, s.source_end);
  return r;
}

}  // namespace

TEST_CASE("sentence_ranges are the sentences translate() reads, as byte ranges of the text") {
  const nmt::Translator& t = tiny();
  const std::string text = "Hello world. How are you?\n\nFine, thanks. The house is small.\tA table.\n1. A list item.";
  const nmt::TranslateOptions options;
  const auto result = t.translate(text, options);
  REQUIRE(result.ok());
  const Ranges ranges = t.sentence_ranges(text);
  CHECK(ranges.size() == 6);
  CHECK(ranges == source_ranges(result.value()));
  CHECK(text.substr(ranges[0].first, ranges[0].second - ranges[0].first) == "Hello world.");
  CHECK(text.substr(ranges.back().first, ranges.back().second - ranges.back().first) == "A list item.");  // "1. " is a gap

  CHECK(t.sentence_ranges("").empty());
  CHECK(t.sentence_ranges(" \n\t ").empty());
  // a control character reads as a space, one byte for one: the ranges still index the text given
  const std::string controls = "Cats\x01sleep. Dogs bark.";
  CHECK(t.sentence_ranges(controls) == Ranges{{0, 11}, {12, 22}});
}

TEST_CASE("a text translated two sentences or more at a time, cut between its sentences, reads as the whole") {
  const nmt::Translator& t = tiny();
  // lines, sentences on one line, a fragment on its own line ("ok then", which alone would keep its
  // small letters), a menu's items and a list's number between sentences: ten sentences
  const std::string text =
      "The house is small.\nok then\nWe stayed at home and read. It was cold! Home » News » Sport\n"
      "2. The streets were empty. Where is the station? The end.";
  for (int beam : {1, 4}) {
    nmt::TranslateOptions options;
    options.beam_size = beam;
    options.alignments = true;
    const auto whole = t.translate(text, options);
    REQUIRE(whole.ok());
    const Ranges ranges = t.sentence_ranges(text);
    REQUIRE(ranges.size() == whole->sentences.size());
    REQUIRE(ranges.size() == 10);
    for (size_t size : {2, 3}) {
      CAPTURE(beam);
      CAPTURE(size);
      std::vector<nmt::SentenceTranslation> pieces;
      for (size_t i = 0; i < ranges.size();) {
        size_t last = std::min(ranges.size(), i + size) - 1;
        if (last + 2 == ranges.size()) ++last;  // never one sentence alone
        const size_t b = ranges[i].first, e = ranges[last].second;
        const auto part = t.translate(std::string_view(text).substr(b, e - b), options);
        REQUIRE(part.ok());
        for (const auto& s : part->sentences) pieces.push_back(s);
        i = last + 1;
      }
      REQUIRE(pieces.size() == whole->sentences.size());
      for (size_t k = 0; k < pieces.size(); ++k) {
        CAPTURE(whole->sentences[k].source);
        CHECK(pieces[k].source == whole->sentences[k].source);
        CHECK(pieces[k].target == whole->sentences[k].target);
        CHECK(pieces[k].target_ids == whole->sentences[k].target_ids);
        CHECK(pieces[k].words.links == whole->sentences[k].words.links);
      }
    }
  }
}
