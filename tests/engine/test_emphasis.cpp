// Tests of Markdown emphasis kept through translation (engine/text/emphasis.h): which marks are
// found, what the model reads, where each mark goes by the alignment, and translate() keeping every
// mark (fixture model).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "text/emphasis.h"
#include "text/verbatim.h"
#include "translator.h"

using namespace nmt;

namespace {

// The marks of `text` as "text|marked text" ("**|Note:"), in order.
std::vector<std::string> marks_of(const std::string& text) {
  std::vector<std::string> out;
  for (const EmphasisMark& m : find_emphasis(text, verbatim_spans(text)))
    out.push_back(text.substr(m.begin, m.end - m.begin) + "|" + text.substr(m.marks_begin, m.marks_end - m.marks_begin));
  return out;
}

// `target` with the marks of `source` placed by a hand-made alignment: links[t] = the source word
// of target word t (-1: none).
std::string placed(const std::string& source, const std::string& target, const std::vector<int>& links,
                   size_t fixed = 0) {
  WordAlignment a;
  a.source_words = find_words(source);
  a.target_words = find_words(target);
  REQUIRE(links.size() == a.target_words.size());
  for (size_t t = 0; t < links.size(); ++t)
    if (links[t] >= 0) a.links.emplace_back(int(t), links[t]);
  std::string out = target;
  const auto marks = find_emphasis(source, verbatim_spans(source));
  const auto where = place_emphasis(source, marks, a, target, fixed);
  for (auto p = where.rbegin(); p != where.rend(); ++p) out.insert(p->first, p->second);
  return out;
}

}  // namespace

TEST_CASE("find_emphasis: pairs of *, **, ***, _, __ and ~~ around text") {
  using V = std::vector<std::string>;
  CHECK(marks_of("This is **very** important.") == V{"**|very", "**|very"});
  CHECK(marks_of("**Note:** Save often.") == V{"**|Note:", "**|Note:"});
  CHECK(marks_of("The _quick_ fox and the *lazy dog*.") == V{"_|quick", "_|quick", "*|lazy dog", "*|lazy dog"});
  CHECK(marks_of("__Tip:__ and ~~old~~ and ***both***") ==
        V{"__|Tip:", "__|Tip:", "~~|old", "~~|old", "***|both", "***|both"});
  CHECK(marks_of("(*see below*)") == V{"*|see below", "*|see below"});
  CHECK(marks_of("„*Nein*“, sagte er.") == V{"*|Nein", "*|Nein"});
  CHECK(marks_of("the result of **RESOLVE**(x)") == V{"**|RESOLVE", "**|RESOLVE"});  // before a bracket
  CHECK(marks_of("they _**must be**_ kept") == V{"_|**must be**", "**|must be", "**|must be", "_|**must be**"});
  CHECK(marks_of("between **nmt_nfkc** and") == V{"**|nmt_nfkc", "**|nmt_nfkc"});  // bold code: the code is copied
  // nested: each pair with its own
  CHECK(marks_of("**a *b* c**") == V{"**|a *b* c", "*|b", "*|b", "**|a *b* c"});
}

TEST_CASE("find_emphasis: a mark alone counts only at the sentence's start or end") {
  using V = std::vector<std::string>;
  CHECK(marks_of("*This is one.") == V{"*|This is one."});    // the paragraph's opening mark
  CHECK(marks_of("This is two.*") == V{"*|This is two."});    // and its closing one
  CHECK(marks_of("A *lone mark inside").empty());
  CHECK(marks_of("Price*: see the footnote").empty());
}

TEST_CASE("find_emphasis: what is not emphasis") {
  CHECK(marks_of("2 * 3 = 6 and 4*5").empty());           // arithmetic
  CHECK(marks_of("* First item").empty());                // a list item
  CHECK(marks_of("snake_case_name and a_b").empty());     // "_" inside a word
  CHECK(marks_of("** and ** and **** and ~5 km").empty());  // no text, too long a run, "about"
  CHECK(marks_of("Call __init__ first.").empty());        // a Python name (text/verbatim.h)
  CHECK(marks_of("See `**not bold**` and https://x.org/_a_").empty());  // code, an address
  CHECK(marks_of("a *one\ntwo* b").empty());               // not across lines
  CHECK(marks_of("").empty());
}

TEST_CASE("blank_marks: same length, each mark byte U+0001 (the normalizer deletes it)") {
  const std::string text = "Das ist **sehr** wichtig.";
  const std::string shown = blank_marks(text, find_emphasis(text, {}));
  CHECK(shown.size() == text.size());
  CHECK(shown == std::string("Das ist \x01\x01sehr\x01\x01 wichtig."));
}

TEST_CASE("place_emphasis: next to the target words aligned with the marked ones") {
  // This(0) is(1) **(2,3) very(4) **(5,6) important(7) .(8)
  CHECK(placed("This is **very** important.", "Das ist sehr wichtig.", {0, 1, 4, 7, 8}) == "Das ist **sehr** wichtig.");
  // the marked words moved: the marks go with them
  CHECK(placed("I *really* like it.", "Es gefällt mir wirklich.", {5, 4, 0, 2, 6}) == "Es gefällt mir *wirklich*.");
  // marked words that became one target word, and punctuation inside the marks
  CHECK(placed("Read the **terms and conditions:** now", "Lies die Bedingungen: jetzt", {0, 1, 6, 7, 10}) ==
        "Lies die **Bedingungen:** jetzt");
  // a word copied over is found as written, wherever the attention strays
  CHECK(placed("Use *max_value* here.", "Verwenden Sie max_value hier.", {0, 2, 4, 4, 4, 6, 7}) ==
        "Verwenden Sie *max_value* hier.");
  // ... as a whole word only: "nfkc" inside the copied "nmt_nfkc" is not the second one's
  CHECK(placed("between **nmt_nfkc** and **nfkc**", "zwischen nmt_nfkc und Nfkc", {0, 3, 3, 5, 8, 11}) ==
        "zwischen **nmt_nfkc** und **Nfkc**");
  // punctuation inside the marks, beside the words in the translation
  CHECK(placed("A *42%* rise", "Ein Anstieg von 42%", {0, 4, 4, 2, 3}) == "Ein Anstieg von *42%*");
  // an article or preposition around the marked words is not theirs
  CHECK(placed("Click **Save**.", "Klicken Sie auf Speichern.", {0, 0, 3, 3, 6}) == "Klicken Sie auf **Speichern**.");
  CHECK(placed("Read *the rules*.", "Lies die Regeln.", {0, 2, 3, 5}) == "Lies *die Regeln*.");
  // two pairs side by side
  CHECK(placed("*a* *b*", "A B", {1, 4}) == "*A* *B*");
  // no target word linked: the words that the most attention... none here: the ends
  CHECK(placed("Das ist *sehr*.", "Very.", {-1, -1}) == "*Very.*");
  // a forced prefix keeps its bytes: a mark that would go inside it is left out
  CHECK(placed("This is **very** important.", "Das ist sehr wichtig.", {0, 1, 4, 7, 8}, 9) == "Das ist sehr** wichtig.");
}

TEST_CASE("translate(): every emphasis mark comes back once (fixture model)") {
  auto loaded = Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  const Translator& t = *loaded.value();
  const std::vector<std::string> texts = {"This is **very** important.", "**Note:** the _quick_ fox. *Also this.*",
                                          "*This is one. This is two.*", "~~old~~ new ***both***"};
  for (const std::string& text : texts)
    for (int beam : {1, 3})
      for (bool alignments : {false, true}) {
        TranslateOptions options;
        options.beam_size = beam;
        options.alignments = alignments;
        auto r = t.translate(text, options);
        REQUIRE(r);
        for (char c : {'*', '_', '~'}) {
          const auto in = std::count(text.begin(), text.end(), c), out = std::count(r->text.begin(), r->text.end(), c);
          INFO(text, " -> ", r->text);
          CHECK(in == out);
        }
        CHECK(r->text.find('\x01') == std::string::npos);
      }
}

TEST_CASE("emphasis on hostile 100,000-character inputs: linear, every mark placed") {
  // a quadratic path (each closing mark searching every open one, each run looking back for a
  // newline) would take minutes on these
  const std::vector<std::string> inputs = {
      [] { std::string s; while (s.size() < 50000) s += "*a "; while (s.size() < 100000) s += "b_ "; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "*a* _b_ **c** "; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "*a\n"; return s; }(),
      "*" + std::string(100000, 'x') + "*",
  };
  for (const std::string& text : inputs) {
    const auto marks = find_emphasis(text, {});
    WordAlignment a;
    a.source_words = find_words(text);
    a.target_words = find_words("x y");
    const auto where = place_emphasis(text, marks, a, "x y");
    CHECK(where.size() == marks.size());
    CHECK(blank_marks(text, marks).size() == text.size());
  }
}
