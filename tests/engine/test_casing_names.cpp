// A name in capitals the model copied cut short (engine/text/casing.h cut_names), through the
// capitals pass as the translator runs it: the source's tokens as the tokenizer reads the recased
// sentence, the model's translation as its tokens span it.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "text/passes.h"

namespace {

struct Piece {
  std::string text;  // as the model read it ("▁Impress")
  size_t begin, end;  // bytes of the source (with the space before the word, as the tokenizer spans it)
};

// The capitals pass alone on `source` (read as `pieces`), whose translation the model wrote as
// `model`, one token a span of `spans`; `unknown`: the model wrote an unknown piece too.
std::string capitals(const std::string& source, const std::vector<Piece>& pieces, const std::string& model,
                     const std::vector<std::pair<size_t, size_t>>& spans, bool in_capitals = true, bool unknown = false) {
  std::vector<std::string> off;
  for (const nmt::Pass& p : nmt::passes())
    if (std::string(p.name) != "capitals") off.push_back(p.name);
  const int unk_id = 1;
  std::vector<nmt::Token> source_tokens;
  for (const Piece& p : pieces) source_tokens.push_back(nmt::Token{7, p.text, p.begin, p.end});
  std::vector<int> target_ids(spans.size(), 7);
  if (unknown) target_ids.back() = unk_id;
  const std::vector<float> attention;
  const std::vector<std::pair<size_t, size_t>> dropped;
  const nmt::Rewrites rewrites;
  const std::vector<nmt::EmphasisMark> emphasis;
  const nmt::DecodedSentence decoded{source_tokens, unk_id, target_ids, attention, true, "", dropped, rewrites, emphasis};
  nmt::TargetSentence t;
  t.source = source;
  t.from = "de";
  t.to = "en";
  t.target = model;
  t.spans = spans;
  t.in_capitals = in_capitals;
  t.decoded = &decoded;
  nmt::run_target_passes(t, nmt::PassSwitches(off, false, false, false));
  return t.target;
}

}  // namespace

TEST_CASE("capitals: a name the model copied cut short comes out whole") {
  // "IMPRESSUM", read as "Impressum", came out "Impress": the word's first piece, "um" no ending
  CHECK(capitals("IMPRESSUM", {{"▁Impress", 0, 7}, {"um", 7, 9}}, "Impress", {{0, 7}}) == "IMPRESSUM");
  CHECK(capitals("ZUM IMPRESSUM", {{"▁Zum", 0, 3}, {"▁im", 3, 6}, {"press", 6, 11}, {"um", 11, 13}}, "to impress",
                 {{0, 2}, {2, 5}, {5, 10}}) == "TO IMPRESSUM");
  // "SQLITE IS FAST", read as "SQLite is fast": a name (a capital inside), however the model cut it
  CHECK(capitals("SQLITE IS FAST", {{"▁SQL", 0, 3}, {"ite", 3, 6}, {"▁is", 6, 9}, {"▁fast", 9, 14}}, "SQLit ist schnell",
                 {{0, 3}, {3, 5}, {5, 9}, {9, 17}}) == "SQLITE IST SCHNELL");
  // the rest written as the source writes it, the tokens' spans kept
  CHECK(capitals("SQLITE", {{"▁SQL", 0, 3}, {"ite", 3, 6}}, "SQLit.", {{0, 3}, {3, 5}, {5, 6}}) == "SQLITE.");
}

TEST_CASE("capitals: a translation that starts like its source word stays") {
  // an ending or a doubled letter left off: the word translated ("Partner", "normal", "Stop")
  CHECK(capitals("PARTNERS", {{"▁Part", 0, 4}, {"ner", 4, 7}, {"s", 7, 8}}, "Partner", {{0, 4}, {4, 7}}) == "PARTNER");
  CHECK(capitals("NORMALE WERTE", {{"▁Normal", 0, 6}, {"e", 6, 7}, {"▁Werte", 7, 13}}, "Normal values",
                 {{0, 6}, {6, 13}}) == "NORMAL VALUES");
  CHECK(capitals("STOPP-PUNKT", {{"▁Stop", 0, 4}, {"p", 4, 5}, {"-", 5, 6}, {"Punkt", 6, 11}}, "Stop point",
                 {{0, 4}, {4, 10}}) == "STOP POINT");
  // the model's tokens are not the word's first pieces: a word of its own ("Asbest" for "asbestos")
  CHECK(capitals("ASBESTOS", {{"▁as", 0, 2}, {"be", 2, 4}, {"st", 4, 6}, {"os", 6, 8}}, "Asbest",
                 {{0, 1}, {1, 2}, {2, 4}, {4, 6}}) == "ASBEST");
  // a compound's first part, translated: more than 2 letters left ("Start page")
  CHECK(capitals("STARTSEITE", {{"▁Start", 0, 5}, {"seite", 5, 10}}, "Start page", {{0, 5}, {5, 10}}) == "START PAGE");
  // the whole word is there too; a sentence not in capitals; an unknown piece the model wrote
  CHECK(capitals("IMPRESSUM", {{"▁Impress", 0, 7}, {"um", 7, 9}}, "Impressum impress", {{0, 7}, {7, 9}, {9, 17}}) ==
        "IMPRESSUM IMPRESS");
  CHECK(capitals("Impressum", {{"▁Impress", 0, 7}, {"um", 7, 9}}, "Impress", {{0, 7}}, false) == "Impress");
  CHECK(capitals("IMPRESSUM", {{"▁Impress", 0, 7}, {"um", 7, 9}}, "Impress", {{0, 7}}, true, true) == "IMPRESS");
}
