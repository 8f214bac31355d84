// Reranking the n best translations with the reverse model; see rerank.h.
#include "search/rerank.h"

#include <algorithm>
#include <cmath>

#include "kernels/kernels.h"

namespace nmt {

std::vector<float> reverse_log_probs(const Transformer& reverse, const std::vector<std::vector<int>>& candidates,
                                     const std::vector<const std::vector<int>*>& sources) {
  const ModelConfig& c = reverse.config();
  const size_t rows = candidates.size();
  std::vector<float> out(rows, 0.0f);
  if (rows == 0) return out;

  // The candidates are the reverse model's sources: without a trailing eos, cut to max_length - 1, then eos.
  std::vector<std::vector<int>> encoded;
  for (const auto& y : candidates) {
    std::vector<int> ids(y.begin(), y.end());
    if (!ids.empty() && ids.back() == c.eos_id) ids.pop_back();
    if (ids.size() > size_t(c.max_length - 1)) ids.resize(size_t(c.max_length - 1));
    ids.push_back(c.eos_id);
    encoded.push_back(std::move(ids));
  }
  const EncoderOutput enc = reverse.encode(encoded);

  // Teacher forcing: row i reads bos, x_0, x_1, ... and scores x_0, x_1, ..., eos.
  int steps = 0;
  for (const auto* x : sources) steps = std::max(steps, std::min(int(x->size()), c.max_length));
  std::vector<int> row_sentence(rows);
  for (size_t i = 0; i < rows; ++i) row_sentence[i] = int(i);
  DecoderState st = reverse.start(enc, row_sentence, steps);
  std::vector<int> inputs(rows, c.bos_id);
  std::vector<float> logits(rows * size_t(c.vocab_size));
  for (int t = 0; t < steps; ++t) {
    reverse.step(enc, st, inputs.data(), logits.data());
    kernels::softmax_rows(logits.data(), int(rows), c.vocab_size);
    for (size_t i = 0; i < rows; ++i) {
      const std::vector<int>& x = *sources[i];
      const int n = std::min(int(x.size()), c.max_length);
      if (t < n) {
        const float p = logits[i * size_t(c.vocab_size) + size_t(x[size_t(t)])];
        out[i] += std::log(std::max(p, 1e-30f));
      }
      inputs[i] = t < n ? x[size_t(t)] : c.pad_id;  // past its end a row's input no longer matters
    }
  }
  return out;
}

std::vector<Hypothesis> rerank(const Transformer& reverse, std::vector<std::vector<Hypothesis>> nbest,
                               const std::vector<std::vector<int>>& sources, float weight, float alpha) {
  std::vector<std::vector<int>> candidates;
  std::vector<const std::vector<int>*> candidate_source;
  for (size_t s = 0; s < nbest.size(); ++s)
    for (const Hypothesis& h : nbest[s]) {
      candidates.push_back(h.tokens);
      candidate_source.push_back(&sources[s]);
    }
  const std::vector<float> back = reverse_log_probs(reverse, candidates, candidate_source);

  std::vector<Hypothesis> out(nbest.size());
  size_t k = 0;
  for (size_t s = 0; s < nbest.size(); ++s) {
    const float norm = length_penalty(int(sources[s].size()), alpha);
    int best = -1;
    float best_score = -INFINITY;
    for (size_t i = 0; i < nbest[s].size(); ++i, ++k) {
      const float score = nbest[s][i].score + weight * back[k] / norm;
      if (best < 0 || score > best_score) best = int(i), best_score = score;
    }
    if (best >= 0) {
      out[s] = std::move(nbest[s][size_t(best)]);
      out[s].score = best_score;
    }
  }
  return out;
}

}  // namespace nmt
