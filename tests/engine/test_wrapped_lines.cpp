// Hard-wrapped lines: a line break inside a sentence is read as a space (text/segmenter.h) and
// written back into the translation at the aligned place (text/passes.h place_line_breaks).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "text/passes.h"
#include "text/segmenter.h"

using namespace nmt;

namespace {

std::vector<std::string> sentences(std::string_view text, std::string_view lang = "en") {
  std::vector<std::string> out;
  for (const TextPiece& p : segment_text(text, lang))
    if (p.is_sentence) out.emplace_back(text.substr(p.begin, p.end - p.begin));
  return out;
}

using Lines = std::vector<std::string>;

// `target`'s words as its tokens (" word" spans, as the tokenizer's are).
std::vector<std::pair<size_t, size_t>> word_spans(const std::string& target) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (size_t i = 0; i < target.size();) {
    size_t end = target.find(' ', i + 1);
    if (end == std::string::npos) end = target.size();
    spans.emplace_back(i, end);
    i = end;
  }
  return spans;
}

}  // namespace

TEST_CASE("a line break inside a sentence of a hard-wrapped paragraph is read as a space") {
  // a line that ends on a word no sentence ends on, or a long one, before a small letter
  CHECK(sentences("I will send the\ninvitation tomorrow.") == Lines{"I will send the\ninvitation tomorrow."});
  CHECK(sentences("Ich schicke dir morgen die\neinladung.", "de") == Lines{"Ich schicke dir morgen die\neinladung."});
  CHECK(sentences("Submarines are ships designed to travel underwater for days,\r\nand remain there.") ==
        Lines{"Submarines are ships designed to travel underwater for days,\r\nand remain there."});
  CHECK(sentences("In the beginning of the war they mostly travelled on top\nof the sea. Then radar came.") ==
        Lines{"In the beginning of the war they mostly travelled on top\nof the sea.", "Then radar came."});
  // a capital after a word no sentence ends on
  CHECK(sentences("Wir fahren morgen mit dem\nZug nach Berlin.", "de") == Lines{"Wir fahren morgen mit dem\nZug nach Berlin."});
  CHECK(sentences("I went to the\nStation") == Lines{"I went to the\nStation"});
  CHECK(sentences("Dear Anna,\n  thank you for the\nflowers.") == Lines{"Dear Anna,\n  thank you for the\nflowers."});
  // the break itself stays in the text: the pieces still give it back
  const std::string text = "We met at the\nstation. It rained.\n\nThen we left.";
  std::string joined;
  for (const TextPiece& p : segment_text(text, "en")) joined += text.substr(p.begin, p.end - p.begin);
  CHECK(joined == text);
}

TEST_CASE("lines that are no wrapped sentence stay apart") {
  CHECK(sentences("The house is small.\nit was cheap though") == Lines{"The house is small.", "it was cheap though"});
  CHECK(sentences("The list:\nred apples and\ngreen pears").front() == "The list:");
  CHECK(sentences("buy some milk\nfeed the cat\ncall mom") == Lines{"buy some milk", "feed the cat", "call mom"});
  CHECK(sentences("I went to the shop\nStation road") == Lines{"I went to the shop", "Station road"});  // a capital
  CHECK(sentences("This sentence is long enough to be a wrapped one\nNext line").size() == 2);
  CHECK(sentences("I went to the\n3 shops") == Lines{"I went to the", "3 shops"});      // a digit
  CHECK(sentences("I went to the\n\nstation") == Lines{"I went to the", "station"});    // a blank line
  CHECK(sentences("apples\nand pears") == Lines{"apples", "and pears"});                 // a line of one word
  CHECK(sentences("- buy some milk for the\n- feed the cat").size() == 2);
  CHECK(sentences("- buy some milk for the\n  kids and the cat").size() == 2);            // a list item
  CHECK(sentences("## Getting started with the\napp").size() == 2);                        // a heading
  CHECK(sentences("> quoted text goes on with the\nnext line").size() == 2);               // a quote
  CHECK(sentences("    int value = the\n    other value").size() == 2);                   // indented code
  CHECK(sentences("set the value of x = 1 and the\nrest").size() == 2);                   // code
  CHECK(sentences("| cell one | the\nnext row |").size() >= 2);                           // a table
  CHECK(sentences("a name\tand the\nvalue").size() == 3);                                  // a pasted table's cells
  CHECK(sentences("I went to the\n    station").size() == 2);                               // indented: code
  CHECK(sentences("a) first we go to the\nb) then we go home").size() == 2);               // a list item
  // a list of lines that each look wrapped stays a list past 400 bytes
  std::string list;
  for (int k = 0; k < 40; ++k) list += "the house is small and it is in the\n";
  size_t longest = 0;
  for (const std::string& s : sentences(list)) longest = std::max(longest, s.size());
  CHECK(longest < 450);
}

TEST_CASE("sentences read in groups (the JS module's) join their lines as in the whole text") {
  const std::string text =
      "Every year nearly 1.5 million herbivores travel towards the southern plains. They cross the\n"
      "Mara River from the northern hills for the rains. And then back\n"
      "north through the west, once again crossing the river after the rains in April.\n"
      "We walked home. it was late\n"
      "and dark.";
  std::vector<TextPiece> whole;
  for (const TextPiece& p : segment_text(text, "en"))
    if (p.is_sentence) whole.push_back(p);
  REQUIRE(whole.size() == 5);
  CHECK(text.substr(whole[2].begin, whole[2].end - whole[2].begin).find("back\nnorth") != std::string::npos);
  for (size_t from = 0; from < whole.size(); ++from)
    for (size_t to = from; to < whole.size() && to < from + 3; ++to) {
      const std::string group = text.substr(whole[from].begin, whole[to].end - whole[from].begin);
      std::vector<std::pair<size_t, size_t>> got, want;
      for (const TextPiece& p : segment_text(group, "en"))
        if (p.is_sentence) got.emplace_back(p.begin + whole[from].begin, p.end + whole[from].begin);
      for (size_t k = from; k <= to; ++k) want.emplace_back(whole[k].begin, whole[k].end);
      CHECK(got == want);
    }
}

TEST_CASE("place_line_breaks: each of the source's line breaks before the target word aligned to the word after it") {
  // no attention (alternatives, a stand-in): where the break stands in the source, in proportion
  TargetSentence s;
  s.source = "I will send the\ninvitation tomorrow.";
  s.target = "Ich werde die Einladung morgen schicken.";
  s.spans = word_spans(s.target);
  place_line_breaks(s);
  CHECK(s.target == "Ich werde die\nEinladung morgen schicken.");
  CHECK(s.spans.back().second == s.target.size());

  // with attention: before the word said by "invitation", wherever the model put it
  const std::string source = "I will send the\ninvitation tomorrow.";
  std::vector<Token> tokens;
  const std::vector<std::pair<size_t, size_t>> source_words = {{0, 1}, {1, 6}, {6, 11}, {11, 15}, {15, 26}, {26, 35}, {35, 36}};
  for (auto [b, e] : source_words) tokens.push_back({0, std::string(source.substr(b, e - b)), b, e});
  const std::string target = "Ich werde morgen die Einladung schicken.";
  const std::vector<int> ids = {1, 2, 3, 4, 5, 6, 7};
  // target word -> the source word it says: Ich I, werde will, morgen tomorrow, die the, Einladung invitation, schicken send, . .
  const std::vector<int> says = {0, 1, 5, 3, 4, 2, 6};
  const int cols = int(tokens.size()) + 1, rows = int(ids.size()) + 1;
  std::vector<float> attention(size_t(rows) * size_t(cols), 0.0f);
  for (size_t t = 0; t < says.size(); ++t) attention[t * size_t(cols) + size_t(says[t])] = 1.0f;
  attention[says.size() * size_t(cols) + size_t(cols - 1)] = 1.0f;  // (eos)
  const std::vector<std::pair<size_t, size_t>> dropped;
  const Rewrites rewrites;
  const std::vector<EmphasisMark> emphasis;
  const DecodedSentence decoded{tokens, 0, ids, attention, true, source, dropped, rewrites, emphasis};
  TargetSentence a;
  a.source = source;
  a.target = target;
  a.spans = word_spans(target);
  a.decoded = &decoded;
  place_line_breaks(a);
  CHECK(a.target == "Ich werde morgen die\nEinladung schicken.");

  // the source's whitespace around the break is kept; as many breaks as the source, in order
  TargetSentence b;
  b.source = "we met at the \r\n  station and then went to the\nold\npark";
  b.target = "wir trafen uns am Bahnhof";
  b.spans = word_spans(b.target);
  place_line_breaks(b);
  CHECK(b.target.find(" \r\n  ") != std::string::npos);
  CHECK(std::count(b.target.begin(), b.target.end(), '\n') == 3);
  std::string words_only;  // the words as they were, one space between each
  for (char ch : b.target) words_only += (ch == '\r' || ch == '\n') ? ' ' : ch;
  for (size_t at; (at = words_only.find("  ")) != std::string::npos;) words_only.erase(at, 1);
  CHECK(words_only == "wir trafen uns am Bahnhof ");  // (the last break, with no space left, ends it)

  // a target with a line break of its own (a copy) is left as it is
  TargetSentence c;
  c.source = "the\nhouse";
  c.target = "the\nhouse";
  c.spans = word_spans(c.target);
  place_line_breaks(c);
  CHECK(c.target == "the\nhouse");
}
