// Forced target prefixes: "translate this sentence, but start the translation with this text".
//
// The prefix is encoded with the target SentencePiece model and the search is forced through its
// pieces (SearchOptions::forced), then continues as greedy or beam search would. The translation's
// text starts with the prefix exactly as given, whatever the tokenizer does to it:
//   - a prefix ending inside a word ("Das Gebä") is not forced through its last word's pieces
//     ("▁Geb" "ä", which the model would never have written for "Gebäude"): the model spells that
//     word's text in the pieces it likes, each step allowed only the pieces that go on spelling it
//     or finish it ("▁Gebäude", or "▁Geb" then "äude", ...: "token healing"). The same for any
//     prefix ending in a letter or digit ("Das Haus" may become "Das Hauses"), since the model
//     cannot know whether the word was finished;
//   - a prefix ending in whitespace ("Das ") requires the next piece to start a word ("▁...");
//   - a prefix ending in punctuation is forced through all its pieces;
//   - what normalization changes (repeated spaces, compatibility characters, unknown characters)
//     is what the model sees, but the output keeps the prefix's own text: prefixed_decode() puts it
//     verbatim in front of what the rest of the tokens spell.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "search/beam_search.h"
#include "tokenizer/sentencepiece.h"

namespace nmt {

struct TargetPrefix {
  std::string text;     // the prefix as given
  ForcedTokens forced;  // what the search is forced through (both empty for an empty prefix)
  // [forced.tokens] each forced token's bytes in `text` (the tokenizer's offsets)
  std::vector<std::pair<size_t, size_t>> spans;
  // Where the word left to the model to spell (the healed one) starts in `text`; text.size() if none.
  size_t heal_begin = 0;
  // What the forced tokens and the start of the next token spell for `text` in the model's own
  // spelling (decode()'s): every translation forced through this prefix starts with it.
  std::string model_text;
};

// The prefix `text` for the target tokenizer `tokenizer` (the rules above).
TargetPrefix make_target_prefix(const SentencePiece& tokenizer, std::string_view text);

// The text of target `ids` (without eos) that start with prefix.forced.tokens: the prefix verbatim,
// then what the rest of the ids spell after it. With `spans`, (*spans)[i] is ids[i]'s bytes in it
// (non-decreasing, within the text), as SentencePiece::decode gives them.
std::string prefixed_decode(const TargetPrefix& prefix, const SentencePiece& tokenizer, const std::vector<int>& ids,
                            std::vector<std::pair<size_t, size_t>>* spans = nullptr);

}  // namespace nmt
