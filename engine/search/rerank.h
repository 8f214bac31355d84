// Reranking with the reverse model ("noisy channel"): a translation y of x is better when the model
// of the other direction can get x back from it. Beam search proposes each sentence's n best
// translations; each is scored again with log p(x | y) from the reverse model (teacher-forced, all
// candidates of a batch at once) and the best of
//     forward score + weight * log p(x | y) / ((5 + |x|) / 6)^alpha
// wins. On flores-dev this fixes translations that drop or invent content, which the forward score
// alone prefers when they are short (weights/EXPERIMENTS.md, "Decoding").
#pragma once

#include <vector>

#include "model/transformer.h"
#include "search/beam_search.h"

namespace nmt {

// log p(source | candidate) under `reverse` for each candidate: candidates[i] are target ids as
// search produced them (a trailing eos is ignored); source[i] is the source the candidate
// translates, with eos. All candidates run as one batch.
std::vector<float> reverse_log_probs(const Transformer& reverse, const std::vector<std::vector<int>>& candidates,
                                     const std::vector<const std::vector<int>*>& sources);

// The reverse model's read-out head (SearchOptions::readout_layer/head, clamped) reading each
// candidate back into its source, for symmetrized word alignments (text/word_alignment.h): the
// same teacher forcing as reverse_log_probs; out[i] is [sources[i]->size() rows (cut to
// max_length), candidate ids + eos columns], row k the step that produced source token k.
std::vector<std::vector<float>> reverse_readout(const Transformer& reverse, const std::vector<std::vector<int>>& candidates,
                                                const std::vector<const std::vector<int>*>& sources, int layer, int head);

// Picks, for every sentence, the candidate with the best combined score (see above). nbest[s] are
// sentence s's candidates (search_nbest), sources[s] its source ids with eos. Returns one
// hypothesis per sentence; its `score` becomes the combined score.
std::vector<Hypothesis> rerank(const Transformer& reverse, std::vector<std::vector<Hypothesis>> nbest,
                               const std::vector<std::vector<int>>& sources, float weight, float alpha);

}  // namespace nmt
