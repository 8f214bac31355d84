// Tests of the alignment read-out (engine/text/word_alignment.h: next_step_rows, readout_links,
// read_alignment, symmetrize) on hand-made attention matrices: the shift to the next step's row,
// one-to-many links from the source side, punctuation kept with punctuation, symmetrization, and
// bad input. How right the read-out is on real translations is measured by `npm run bench:align`
// and guarded by tests/web/align.test.mjs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "text/word_alignment.h"

using namespace nmt;

namespace {
using Links = std::vector<std::pair<int, int>>;
}

TEST_CASE("next_step_rows reads each token's row one step late") {
  // 3 steps x 2 columns: the step that produced token k is row k.
  const std::vector<float> rows = {1, 2, 3, 4, 5, 6};
  CHECK(next_step_rows(rows.data(), 3, 3, 2) == std::vector<float>{3, 4, 5, 6, 5, 6});  // last: no later row
  CHECK(next_step_rows(rows.data(), 3, 2, 2) == std::vector<float>{3, 4, 5, 6});
  CHECK(next_step_rows(rows.data(), 1, 3, 2) == std::vector<float>{1, 2, 0, 0, 0, 0});  // rows missing: zero
  CHECK(next_step_rows(nullptr, 3, 3, 2).empty());
  CHECK(next_step_rows(rows.data(), 3, 0, 2).empty());
  CHECK(next_step_rows(rows.data(), -1, 3, 2).empty());
}

TEST_CASE("readout_links: row argmax, one-to-many from the source side, punctuation with punctuation") {
  // source "trocknet aus ." (2 words + "."), target "dries up when ." (3 words + ".")
  const std::vector<bool> source_punct = {false, false, true};
  const std::vector<bool> target_punct = {false, false, false, true};
  // clang-format off
  const std::vector<float> m = {
      // trocknet aus   .
      0.90f, 0.05f, 0.05f,   // dries
      0.60f, 0.30f, 0.10f,   // up: argmax "trocknet"; "aus" is the target word it attends most (0.30)
      0.20f, 0.02f, 0.78f,   // when: most on ".", but a word links only to a word
      0.90f, 0.06f, 0.04f,   // "." : its only punctuation candidate has 0.04 < 0.05: unaligned
  };
  // clang-format on
  const Links links = readout_links(m, target_punct, source_punct);
  CHECK(links == Links{{0, 0}, {1, 0}, {1, 1}, {2, 0}});

  AlignmentReadout strict;
  strict.column_min = 0.5f;  // "aus" (0.30) no longer linked from the source side
  strict.punctuation_min = 0.0f;  // "." links to "." however weakly
  CHECK(readout_links(m, target_punct, source_punct, strict) == Links{{0, 0}, {1, 0}, {2, 0}, {3, 2}});

  // a compound: "dog" and "racetrack" both attend to "Hunderennbahn"
  const std::vector<float> compound = {0.9f, 0.1f, 0.95f, 0.05f, 0.3f, 0.7f};
  CHECK(readout_links(compound, {false, false, true}, {false, true}) == Links{{0, 0}, {1, 0}, {2, 1}});
  // all-zero rows and a matrix of the wrong size give nothing
  CHECK(readout_links(std::vector<float>(6, 0.0f), {false, false, true}, {false, true}).empty());
  CHECK(readout_links({0.5f}, {false, false}, {false, true}).empty());
  CHECK(readout_links({}, {}, {}).empty());
}

TEST_CASE("read_alignment pools tokens into words and reads the shifted rows") {
  // Source "Das Haus." tokens: ▁Das ▁Haus . </s>; target "The house." tokens: ▁The ▁house . </s>
  const std::string source = "Das Haus.", target = "The house.";
  const std::vector<Span> src = {{0, 3}, {3, 8}, {8, 9}, {9, 9}};
  const std::vector<Span> tgt = {{0, 3}, {3, 9}, {9, 10}, {10, 10}};
  // Rows as recorded, one per step: row k produced target token k; the read-out uses row k + 1.
  // clang-format off
  const std::vector<float> steps = {
      // Das  Haus  .     </s>
      0.1f, 0.8f, 0.1f, 0.0f,   // step producing ▁The (looks ahead at "Haus": the lag)
      0.9f, 0.1f, 0.0f, 0.0f,   // input ▁The
      0.0f, 0.9f, 0.1f, 0.0f,   // input ▁house
      0.0f, 0.1f, 0.8f, 0.1f,   // input .
  };
  // clang-format on
  const std::vector<float> shifted = next_step_rows(steps.data(), 4, 4, 4);
  const WordAlignment a = read_alignment(source, src, target, tgt, shifted.data(), 4, 4);
  REQUIRE(a.target_words.size() == 3);
  REQUIRE(a.source_words.size() == 3);
  CHECK(a.links == Links{{0, 0}, {1, 1}, {2, 2}});
  CHECK(a.matrix[0 * 3 + 0] == doctest::Approx(0.9f));
  // unshifted, the same read-out shows the lag: "The" -> "Haus"
  CHECK(read_alignment(source, src, target, tgt, steps.data(), 4, 4).links.front() == std::make_pair(0, 1));
  // no attention: words, a zero matrix, no links
  const WordAlignment none = read_alignment(source, src, target, tgt, nullptr, 4, 4);
  CHECK(none.target_words.size() == 3);
  CHECK(none.links.empty());
}

TEST_CASE("symmetrize keeps what both directions say, grow_diag adds neighbours") {
  WordAlignment forward, reverse;
  forward.source_words = {{0, 1}, {2, 3}, {4, 5}};                  // 3 source words
  forward.target_words = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}};  // 5 target words
  reverse.source_words = forward.target_words;
  reverse.target_words = forward.source_words;
  forward.links = {{0, 0}, {1, 1}, {2, 1}, {4, 0}};  // (target, source)
  reverse.links = {{0, 0}, {1, 1}, {2, 4}};          // (source, target) of the reverse model
  CHECK(symmetrize(forward, reverse).links == Links{{0, 0}, {1, 1}});
  // grow-diag: (2,1) neighbours the kept (1,1) and aligns target 2, not yet aligned; (4,0) and
  // (4,2) neighbour no kept link
  CHECK(symmetrize(forward, reverse, Symmetrization::grow_diag).links == Links{{0, 0}, {1, 1}, {2, 1}});
  // grown diagonally too, one link after another: with (3,2) in the union it joins via (2,1),
  // and then (4,2) via (3,2)
  forward.links.push_back({3, 2});
  CHECK(symmetrize(forward, reverse, Symmetrization::grow_diag).links ==
        Links{{0, 0}, {1, 1}, {2, 1}, {3, 2}, {4, 2}});
  // texts that do not match: forward unchanged
  WordAlignment other = reverse;
  other.target_words.pop_back();
  CHECK(symmetrize(forward, other).links == forward.links);
  // links out of range are ignored
  reverse.links.push_back({7, -2});
  CHECK(symmetrize(forward, reverse).links == Links{{0, 0}, {1, 1}});
}

namespace {
// A word alignment of `source` and `target` whose every target word attends only to source word 0
// (as a run shown as one unknown piece sends all its attention to one of its words).
WordAlignment all_on_first(const std::string& source, const std::string& target) {
  WordAlignment w;
  w.source_words = find_words(source);
  w.target_words = find_words(target);
  w.matrix.assign(w.target_words.size() * w.source_words.size(), 0.0f);
  for (size_t t = 0; t < w.target_words.size(); ++t) {
    w.matrix[t * w.source_words.size()] = 1.0f;
    w.links.emplace_back(int(t), 0);
  }
  return w;
}

std::string word(const std::string& text, const Span& s) { return text.substr(s.begin, s.end - s.begin); }

// Each link as "target word=source word".
std::vector<std::string> linked_words(const WordAlignment& w, const std::string& source, const std::string& target) {
  std::vector<std::string> out;
  for (auto [t, s] : w.links) out.push_back(word(target, w.target_words[size_t(t)]) + "=" + word(source, w.source_words[size_t(s)]));
  return out;
}
}  // namespace

TEST_CASE("align_copies: a copied address links word for word, a rewritten date by text and kind") {
  const std::string source = "See https://a.org/x now on May 3, 2023.";
  const std::string target = "Siehe https://a.org/x jetzt am 3. Mai 2023.";
  WordAlignment w = all_on_first(source, target);
  const size_t url = source.find("https"), date = source.find("May");
  align_copies({{url, 15, "https://a.org/x"}, {date, 11, "3. Mai 2023"}}, source, target, w);
  const std::vector<std::string> links = linked_words(w, source, target);
  const std::vector<std::string> expected = {"Siehe=See", "https=https", ":=:", "/=/", "/=/", "a=a", ".=.", "org=org", "/=/",
                                             "x=x", "jetzt=See", "am=See", "3=3", ".=,", "Mai=May", "2023=2023", ".=See"};
  CHECK(links == expected);
  // each copied word's row is its link: the page's soft highlight says the same
  const size_t cols = w.source_words.size();
  for (auto [t, s] : w.links)
    if (word(target, w.target_words[size_t(t)]) == "org") CHECK(w.matrix[size_t(t) * cols + size_t(s)] == 1.0f);
  // the second "/" of the address is the source's second "/", not its first
  CHECK(std::count(links.begin(), links.end(), "/=/") == 3);
}

TEST_CASE("align_copies: only whole words, in any letter case, the k-th copy for the k-th stretch") {
  const std::string source = "Call 45 or 45 in 1945.";
  const std::string target = "RUFEN SIE 1945 AN, 45 ODER 45.";
  WordAlignment w = all_on_first(source, target);
  const size_t first = source.find("45"), second = source.find("45", first + 1);
  align_copies({{first, 2, "45"}, {second, 2, "45"}}, source, target, w);
  const std::vector<std::string> links = linked_words(w, source, target);
  CHECK(std::find(links.begin(), links.end(), "1945=45") == links.end());  // not inside "1945"
  // target words 0..; "45" (5th) and "45" (7th) for the source's first and second "45"
  const int first_copy = 5, second_copy = 7;
  CHECK(word(target, w.target_words[first_copy]) == "45");
  CHECK(word(target, w.target_words[second_copy]) == "45");
  CHECK(std::find(w.links.begin(), w.links.end(), std::make_pair(first_copy, 1)) != w.links.end());
  CHECK(std::find(w.links.begin(), w.links.end(), std::make_pair(second_copy, 3)) != w.links.end());
  // a glossary term in capitals, other words: word for word
  const std::string s2 = "Use acme cloud today.", t2 = "NUTZEN SIE ZETA SKY HEUTE.";
  WordAlignment w2 = all_on_first(s2, t2);
  align_copies({{4, 10, "Zeta Sky"}}, s2, t2, w2);
  const std::vector<std::string> l2 = linked_words(w2, s2, t2);
  CHECK(std::find(l2.begin(), l2.end(), "ZETA=acme") != l2.end());
  CHECK(std::find(l2.begin(), l2.end(), "SKY=cloud") != l2.end());
}

TEST_CASE("align_written_words: a word outside every token links to the source word of its text") {
  const std::string source = "It costs $45 today.", target = "Es kostet heute 45 $.";
  WordAlignment w = all_on_first(source, target);
  // the tokens cover "Es kostet heute" and "."; "45 $" was written after decoding
  const std::vector<Span> tokens = {{0, 2}, {2, 9}, {9, 15}, {20, 21}};
  w.links.erase(std::remove_if(w.links.begin(), w.links.end(), [](const std::pair<int, int>& l) { return l.first == 3 || l.first == 4; }),
                w.links.end());
  align_written_words(source, target, tokens, w);
  const std::vector<std::string> links = linked_words(w, source, target);
  CHECK(std::find(links.begin(), links.end(), "45=45") != links.end());
  CHECK(std::find(links.begin(), links.end(), "$=$") != links.end());
  // a word a token holds keeps its own links
  CHECK(std::find(links.begin(), links.end(), "heute=It") != links.end());
}

TEST_CASE("find_words: styled letters and digits (\"𝐁𝐨𝐥𝐝\") are words, not one symbol each") {
  const std::string text = "𝐁𝐨𝐥𝐝 𝔉𝔯𝔞𝔨𝔱𝔲𝔯 𝟏𝟐.";
  std::vector<std::string> found;
  for (const Span& s : find_words(text)) found.push_back(word(text, s));
  CHECK(found == std::vector<std::string>{"𝐁𝐨𝐥𝐝", "𝔉𝔯𝔞𝔨𝔱𝔲𝔯", "𝟏𝟐", "."});
  // and they link with words, not as punctuation: "Fett" <- "𝐁𝐨𝐥𝐝"
  const std::string target = "Fett.";
  const std::vector<Span> src = {{0, 16}, {16, 45}, {45, 54}, {54, 55}, {55, 55}};  // 𝐁𝐨𝐥𝐝, ▁𝔉𝔯𝔞𝔨𝔱𝔲𝔯, ▁𝟏𝟐, ., </s>
  const std::vector<Span> tgt = {{0, 4}, {4, 5}, {5, 5}};
  // clang-format off
  const std::vector<float> att = {
      0.9f, 0.05f, 0.05f, 0.0f, 0.0f,
      0.0f, 0.0f,  0.0f,  1.0f, 0.0f,
      0.0f, 0.0f,  0.0f,  0.0f, 1.0f,
  };
  // clang-format on
  const WordAlignment a = read_alignment(text, src, target, tgt, att.data(), 3, 5);
  CHECK(a.links == Links{{0, 0}, {1, 3}});
}

TEST_CASE("align_copies: a stretch written as the source's own text, not as given, is still its copy") {
  const std::string source = "I like Acme Cloud.", target = "Ich mag Acme Cloud.";
  WordAlignment w = all_on_first(source, target);
  align_copies({{7, 10, "Zeta Sky"}}, source, target, w);
  const std::vector<std::string> links = linked_words(w, source, target);
  CHECK(std::find(links.begin(), links.end(), "Acme=Acme") != links.end());
  CHECK(std::find(links.begin(), links.end(), "Cloud=Cloud") != links.end());
  CHECK(std::find(links.begin(), links.end(), "Acme=I") == links.end());
}

TEST_CASE("align_written_words: in order, and marks the model never read though a token holds them") {
  // "Das ist **sehr** wichtig.": the opening marks went into the token " **sehr", the closing ones
  // outside every token; the model read the source's marks as nothing
  const std::string source = "This is **very** important.", target = "Das ist **sehr** wichtig.";
  WordAlignment w;
  w.source_words = find_words(source);  // This is * * very * * important .
  w.target_words = find_words(target);  // Das ist * * sehr * * wichtig .
  w.matrix.assign(w.target_words.size() * w.source_words.size(), 0.0f);
  w.links = {{0, 0}, {1, 1}, {4, 4}, {7, 7}, {8, 8}};
  const std::vector<Span> tokens = {{0, 3}, {3, 7}, {7, 14}, {16, 24}, {24, 25}};
  const std::vector<Span> marks = {{8, 10}, {14, 16}};
  align_written_words(source, target, tokens, w, marks);
  CHECK(w.links == Links{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 7}, {8, 8}});
  // without `marks`, the marks a token holds are the model's: left as they are
  WordAlignment model_only = w;
  model_only.links = {{0, 0}, {1, 1}, {4, 4}, {7, 7}, {8, 8}};
  align_written_words(source, target, tokens, model_only);
  CHECK(model_only.links == Links{{0, 0}, {1, 1}, {4, 4}, {5, 5}, {6, 6}, {7, 7}, {8, 8}});
}

TEST_CASE("align_mark_runs: a final \"???\" links mark for mark to the source's final \"???\"") {
  const std::string source = "Is it true???", target = "Stimmt das???";
  WordAlignment w;
  w.source_words = find_words(source);  // Is it true ? ? ?
  w.target_words = find_words(target);  // Stimmt das ? ? ?
  w.matrix.assign(w.target_words.size() * w.source_words.size(), 0.0f);
  // the model's "?" took the three marks the final marks pass wrote into its token
  w.links = {{0, 2}, {1, 1}, {2, 3}, {2, 4}, {2, 5}, {3, 3}, {4, 3}};
  align_mark_runs(source, target, w);
  CHECK(w.links == Links{{0, 2}, {1, 1}, {2, 3}, {3, 4}, {4, 5}});
  CHECK(w.matrix[3 * 6 + 4] == 1.0f);
  // runs that end no sentence are the model's (quotes written its own way): left as they are
  const std::string s2 = "\"\"\"Wow\"\" he said.", t2 = "\"\"Wow\"\"\" sagte er.";
  WordAlignment w2;
  w2.source_words = find_words(s2);
  w2.target_words = find_words(t2);
  w2.matrix.assign(w2.target_words.size() * w2.source_words.size(), 0.0f);
  w2.links = {{0, 0}, {1, 1}, {2, 3}};
  align_mark_runs(s2, t2, w2);
  CHECK(w2.links == Links{{0, 0}, {1, 1}, {2, 3}});
}

TEST_CASE("find_words: a word joiner or BOM ends no word; inside one it stays in the word") {
  const auto words_of = [](std::string_view s) {
    std::vector<std::string> out;
    for (const auto& w : find_words(s)) out.emplace_back(s.substr(w.begin, w.end - w.begin));
    return out;
  };
  // U+FEFF after a Hebrew letter, then a space: the word is the letter alone
  CHECK(words_of("\xD7\xA9\xEF\xBB\xBF x") == std::vector<std::string>{"\xD7\xA9", "x"});
  CHECK(words_of("end\xE2\x81\xA0") == std::vector<std::string>{"end"});           // word joiner at the end
  CHECK(words_of("be\xE2\x81\xA0gin it") == std::vector<std::string>{"be\xE2\x81\xA0gin", "it"});  // inside: one word
  CHECK(words_of("be\xC2\xAD") == std::vector<std::string>{"be\xC2\xAD"});          // a soft hyphen stays as before
}
