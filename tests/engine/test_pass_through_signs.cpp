// Currency signs the vocabulary cannot write (text/pass_through.h): the sign of an amount is not
// written where the translation names its currency, and is left to the currency pass (which puts
// it back by the amount) where that pass is on.
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include "text/pass_through.h"

using namespace nmt;

namespace {

const int kUnk = 0;
// "x €5 y": the tokenizer gives "€" the unknown piece, after a lone "▁"
const std::string kSource = "x \xE2\x82\xAC" "5 y";
const std::vector<Token> kTokens = {{5, "\xE2\x96\x81x", 0, 1}, {3, "\xE2\x96\x81", 1, 2}, {kUnk, "<unk>", 2, 5},
                                    {7, "5", 5, 6}, {8, "\xE2\x96\x81y", 6, 8}};

std::string pass(std::string target, std::vector<std::pair<size_t, size_t>> spans, const std::vector<int>& ids,
                 bool signs_by_amount) {
  std::vector<float> attention(ids.size() * (kTokens.size() + 1), 0.0f);  // each row on source token 0
  for (size_t t = 0; t < ids.size(); ++t) attention[t * (kTokens.size() + 1)] = 1.0f;
  pass_through_unknown(kSource, kTokens, kUnk, ids, attention, target, spans, 0, {}, {}, signs_by_amount);
  return target;
}

}  // namespace

TEST_CASE("pass_through_unknown: a currency sign is not written where the translation names the currency") {
  // "It costs €50." came out "Es kostet 50 € Euro."
  CHECK(pass("x 5 Euro y", {{0, 1}, {1, 3}, {3, 8}, {8, 10}}, {5, 7, 9, 8}, false) == "x 5 Euro y");
  CHECK(pass("x 5 euros y", {{0, 1}, {1, 3}, {3, 9}, {9, 11}}, {5, 7, 9, 8}, false) == "x 5 euros y");
  // the model wrote the sign itself ("€25 per play" for "25 € pro Stück")
  CHECK(pass("x \xE2\x82\xAC" "5 y", {{0, 1}, {1, 6}, {6, 8}}, {5, 7, 8}, false) == "x \xE2\x82\xAC" "5 y");
  // an unknown piece the model wrote for it goes, with no space left before a final mark
  CHECK(pass("x 5 Euro \xE2\x81\x87 .", {{0, 1}, {1, 3}, {3, 8}, {8, 12}, {12, 14}}, {5, 7, 9, kUnk, 10}, false) ==
        "x 5 Euro.");
}

TEST_CASE("pass_through_unknown: a lost currency sign goes back, by its amount where the currency pass is on") {
  // the translation never names it: written as any run, when no currency pass will
  CHECK(pass("x 5 y", {{0, 1}, {1, 3}, {3, 5}}, {5, 7, 8}, false).find("\xE2\x82\xAC") != std::string::npos);
  CHECK(pass("x 5 \xE2\x81\x87 y", {{0, 1}, {1, 3}, {3, 7}, {7, 9}}, {5, 7, kUnk, 8}, false) == "x 5 \xE2\x82\xAC y");
  // left to the currency pass, which places it by the amount ("1,5 Millionen €", not "1,5 € Millionen")
  CHECK(pass("x 5 y", {{0, 1}, {1, 3}, {3, 5}}, {5, 7, 8}, true) == "x 5 y");
  CHECK(pass("x 5 \xE2\x81\x87 .", {{0, 1}, {1, 3}, {3, 7}, {7, 9}}, {5, 7, kUnk, 10}, true) == "x 5.");
  // a sign that is no amount's ("€ sign") is copied as any run
  const std::string source = "the \xE2\x82\xAC sign";
  const std::vector<Token> tokens = {{5, "\xE2\x96\x81the", 0, 3}, {3, "\xE2\x96\x81", 3, 4}, {kUnk, "<unk>", 4, 7},
                                     {8, "\xE2\x96\x81sign", 7, 12}};
  std::string target = "das Zeichen";
  std::vector<std::pair<size_t, size_t>> spans = {{0, 3}, {3, 11}};
  pass_through_unknown(source, tokens, kUnk, {5, 8}, {}, target, spans, 0, {}, {}, true);
  CHECK(target.find("\xE2\x82\xAC") != std::string::npos);
}
