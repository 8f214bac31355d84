// Which unknown pieces of the source make one run (text/pass_through.h): a piece written as
// something else (a glossary term) is a run of its own.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "text/pass_through.h"

using namespace nmt;

TEST_CASE("pass_through_unknown: a glossary term's piece never joins the emoji beside it") {
  // 'Send the invoice 😀 today.' came out 'Schicken Sie heute Rechnung.': the term's piece and the
  // emoji's made one run (across the lone "▁"), written as the term alone
  const int unk = 0;
  const std::string source = "a T \xF0\x9F\x98\x80 b";  // "a T 😀 b", T a glossary term
  const std::vector<Token> toks = {{5, "\xE2\x96\x81" "a", 0, 1}, {unk, "<unk>", 1, 3}, {3, "\xE2\x96\x81", 3, 4},
                                   {unk, "<unk>", 4, 8}, {6, "\xE2\x96\x81" "b", 8, 10}};
  std::string target = "x \xE2\x81\x87 y";  // "x ⁇ y"
  std::vector<std::pair<size_t, size_t>> spans = {{0, 1}, {1, 5}, {5, 7}};
  const std::vector<float> attention = {0.9f, 0.0f, 0.0f, 0.0f, 0.1f, 0.0f,   // "x" looks at a
                                        0.0f, 0.9f, 0.0f, 0.1f, 0.0f, 0.0f,   // " ⁇" at the term
                                        0.0f, 0.0f, 0.0f, 0.1f, 0.9f, 0.0f};  // " y" at b
  pass_through_unknown(source, toks, unk, {5, unk, 6}, attention, target, spans, 0, {}, {{2, "Term"}});
  CHECK(target == "x Term \xF0\x9F\x98\x80 y");

  // the emoji first, the term after it: the same
  const std::string source2 = "a \xF0\x9F\x98\x80 T b";  // "a 😀 T b"
  const std::vector<Token> toks2 = {{5, "\xE2\x96\x81" "a", 0, 1}, {3, "\xE2\x96\x81", 1, 2}, {unk, "<unk>", 2, 6},
                                    {unk, "<unk>", 6, 8}, {6, "\xE2\x96\x81" "b", 8, 10}};
  std::string target2 = "x \xE2\x81\x87 y";
  std::vector<std::pair<size_t, size_t>> spans2 = {{0, 1}, {1, 5}, {5, 7}};
  const std::vector<float> attention2 = {0.9f, 0.0f, 0.0f, 0.0f, 0.1f, 0.0f,   //
                                         0.0f, 0.0f, 0.0f, 0.9f, 0.1f, 0.0f,   // " ⁇" at the term
                                         0.0f, 0.0f, 0.0f, 0.1f, 0.9f, 0.0f};  //
  pass_through_unknown(source2, toks2, unk, {5, unk, 6}, attention2, target2, spans2, 0, {}, {{7, "Term"}});
  CHECK(target2.find("Term") != std::string::npos);
  CHECK(target2.find("\xF0\x9F\x98\x80") != std::string::npos);
  CHECK(target2.find("T b") == std::string::npos);
}

TEST_CASE("pass_through_unknown: no space before the final mark where the model wrote a lone one") {
  // 'Open https://example.org/a_b?x=1 and run `npm install` now.' came out '... Sie jetzt .': the
  // model wrote a lone "▁" (an unknown piece begun and left out) before its full stop
  const int unk = 0;
  const std::string source = "a \xF0\x9F\x98\x80 b.";  // "a 😀 b."
  const std::vector<Token> toks = {{5, "\xE2\x96\x81" "a", 0, 1}, {unk, "<unk>", 1, 6}, {6, "\xE2\x96\x81" "b", 6, 8},
                                   {9, ".", 8, 9}};
  const auto run = [&](const std::string& src) {
    std::string target = "x \xE2\x81\x87 y .";  // "x ⁇ y" "▁" "."
    std::vector<std::pair<size_t, size_t>> spans = {{0, 1}, {1, 5}, {5, 7}, {7, 8}, {8, 9}};
    std::vector<float> attention(5 * 5, 0.0f);
    for (size_t t = 0; t < 5; ++t) attention[t * 5 + std::min<size_t>(t, 3)] = 1.0f;
    pass_through_unknown(src, toks, unk, {5, unk, 6, 3, 9}, attention, target, spans);
    return target;
  };
  CHECK(run(source) == "x \xF0\x9F\x98\x80 y.");
  CHECK(run("a \xF0\x9F\x98\x80 b .") == "x \xF0\x9F\x98\x80 y .");  // the source's own " ." stays
}
