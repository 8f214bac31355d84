// Reranking the n best translations with the reverse model; see rerank.h.
#include "search/rerank.h"

#include <algorithm>
#include <cmath>

#include "kernels/kernels.h"

namespace nmt {

namespace {

// Teacher forcing of the reverse model: candidates[i] (target ids as search produced them; a
// trailing eos ignored, cut to max_length - 1, then eos) are encoded, and the decoder reads bos,
// x_0, x_1, ... of sources[i] (with eos), all rows at once. on_step(t, state, probabilities) sees
// each step's softmaxed logits ([rows, vocab]) and cross-attention (state.cross_weights);
// encoded_lengths receives each candidate's encoded length.
template <typename OnStep>
void force_back(const Transformer& reverse, const std::vector<std::vector<int>>& candidates,
                const std::vector<const std::vector<int>*>& sources, std::vector<int>& encoded_lengths, OnStep on_step) {
  const ModelConfig& c = reverse.config();
  const size_t rows = candidates.size();
  if (rows == 0) return;
  std::vector<std::vector<int>> encoded;
  for (const auto& y : candidates) {
    std::vector<int> ids(y.begin(), y.end());
    if (!ids.empty() && ids.back() == c.eos_id) ids.pop_back();
    if (ids.size() > size_t(c.max_length - 1)) ids.resize(size_t(c.max_length - 1));
    ids.push_back(c.eos_id);
    encoded_lengths.push_back(int(ids.size()));
    encoded.push_back(std::move(ids));
  }
  const EncoderOutput enc = reverse.encode(encoded);

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
    on_step(t, st, enc, logits);
    for (size_t i = 0; i < rows; ++i) {
      const std::vector<int>& x = *sources[i];
      const int n = std::min(int(x.size()), c.max_length);
      inputs[i] = t < n ? x[size_t(t)] : c.pad_id;  // past its end a row's input no longer matters
    }
  }
}

}  // namespace

std::vector<float> reverse_log_probs(const Transformer& reverse, const std::vector<std::vector<int>>& candidates,
                                     const std::vector<const std::vector<int>*>& sources) {
  const ModelConfig& c = reverse.config();
  std::vector<float> out(candidates.size(), 0.0f);
  std::vector<int> lengths;
  // Teacher forcing: row i reads bos, x_0, x_1, ... and scores x_0, x_1, ..., eos.
  force_back(reverse, candidates, sources, lengths,
             [&](int t, const DecoderState&, const EncoderOutput&, const std::vector<float>& probs) {
               for (size_t i = 0; i < out.size(); ++i) {
                 const std::vector<int>& x = *sources[i];
                 const int n = std::min(int(x.size()), c.max_length);
                 if (t < n) {
                   const float p = probs[i * size_t(c.vocab_size) + size_t(x[size_t(t)])];
                   out[i] += std::log(std::max(p, 1e-30f));
                 }
               }
             });
  return out;
}

std::vector<std::vector<float>> reverse_readout(const Transformer& reverse, const std::vector<std::vector<int>>& candidates,
                                                const std::vector<const std::vector<int>*>& sources, int layer, int head) {
  const ModelConfig& c = reverse.config();
  layer = std::clamp(layer, 0, c.decoder_layers - 1);
  head = std::clamp(head, 0, c.n_heads - 1);
  std::vector<std::vector<float>> out(candidates.size());
  std::vector<int> lengths;
  force_back(reverse, candidates, sources, lengths,
             [&](int t, const DecoderState& st, const EncoderOutput& enc, const std::vector<float>&) {
               for (size_t i = 0; i < out.size(); ++i) {
                 if (t >= std::min(int(sources[i]->size()), c.max_length)) continue;
                 const float* w = &st.cross_weights[size_t(layer)][(i * size_t(c.n_heads) + size_t(head)) * size_t(enc.max_length)];
                 out[i].insert(out[i].end(), w, w + lengths[i]);
               }
             });
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
