// Tests of the numbers retry's clean-up of the model's second translation (engine/retries.h).
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "fixture_tokens.h"
#include "retries.h"

TEST_CASE("retries: a number the retry wrote right after an unknown piece, that the source never says, goes") {
  const nmt::SentencePiece& tok = fixture_tokenizer();
  const auto ids = fixture_ids;
  const auto join = joined;
  const int unk = tok.unk_id(), eos = tok.eos_id();
  const std::string source = "Der Check-in ist von 13 bis 22 Uhr m\xC3\xB6glich.";
  const std::vector<int> start = ids("The check-in is possible from 13 to"), stop = ids(".");
  const auto cleaned = [&](std::vector<int> tokens, std::string_view from = "") {
    nmt::Hypothesis h;
    h.tokens = std::move(tokens);
    for (size_t k = 0; k < h.tokens.size(); ++k) {
      h.token_log_probs.push_back(-float(k));
      h.attention.insert(h.attention.end(), {float(k), float(k)});  // two source tokens
    }
    nmt::drop_number_after_unknown(h, from.empty() ? std::string_view(source) : from, tok);
    REQUIRE(h.token_log_probs.size() == h.tokens.size());
    REQUIRE(h.attention.size() == 2 * h.tokens.size());
    return h;
  };
  // "from 13 to <unk> 15." (the model gave the copied 22 minutes of its own): the 15 goes, with its rows
  const std::vector<int> fifteen = ids(" 15");
  nmt::Hypothesis h = cleaned(join({start, {unk}, fifteen, stop, {eos}}));
  CHECK(h.tokens == join({start, {unk}, stop, {eos}}));
  CHECK(h.token_log_probs[start.size() + 1] == -float(start.size() + 1 + fifteen.size()));  // the "."'s row
  // glued to the unknown piece, or with minutes of its own ("15:30")
  CHECK(cleaned(join({start, {unk}, ids("15"), stop, {eos}})).tokens == join({start, {unk}, stop, {eos}}));
  CHECK(cleaned(join({start, {unk}, ids(" 15:30"), stop, {eos}})).tokens == join({start, {unk}, stop, {eos}}));
  // a number the source says, a word after the piece, a number further on, no unknown piece: stays
  const std::vector<int> kept[] = {
      join({start, {unk}, ids(" 13"), stop, {eos}}),
      join({start, {unk}, ids(" p.m. 15"), stop, {eos}}),
      join({start, ids(" 22 15"), stop, {eos}}),
  };
  for (const std::vector<int>& tokens : kept) CHECK(cleaned(tokens).tokens == tokens);
  const std::vector<int> amount = join({ids("It costs"), {unk}, ids(" 50"), stop, {eos}});
  CHECK(cleaned(amount, "Es kostet 50 \xE2\x82\xAC.").tokens == amount);  // the € sign's piece before the source's 50
}
