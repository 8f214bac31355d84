// Alternatives: the words the model would put next after a target prefix, each with the rest of
// the sentence it leads to. What the page's word menu offers ("instead of this word: ...").
//
// A word is the piece the model would write next and the pieces that continue it, up to the next
// word boundary: a piece that starts a word ("▁..."), the end of the sentence, or punctuation after
// letters or digits. The most probable next pieces (after the prefix, search/forced_prefix.h) are
// each expanded into their word and then into the rest of the sentence by greedy search (all of
// them as one batch): the expansion takes the most probable piece at each step, so a word's
// probability is that of the pieces on its greedy path (summed over the pieces that spell the same
// word), and `continuation` is what greedy search writes after it. Ranked by probability; the
// model's own greedy choice is always in the list.
#pragma once

#include <functional>
#include <vector>

#include "model/transformer.h"
#include "search/alternative.h"
#include "search/beam_search.h"
#include "search/forced_prefix.h"
#include "tokenizer/sentencepiece.h"

namespace nmt {

// The `count` most probable next words after `prefix` for sentence 0 of `enc`, most probable first.
// `options` are the search's (their beam is not used: continuations are greedy). `rewrite`, if
// given, is applied to each candidate before words that read the same are counted as one: the
// caller's text edits (a word it empties is dropped).
std::vector<Alternative> next_words(const Transformer& model, const SentencePiece& tokenizer, const EncoderOutput& enc,
                                    const TargetPrefix& prefix, int count, const SearchOptions& options,
                                    const std::function<void(Alternative&)>& rewrite = nullptr);

}  // namespace nmt
