// Sampling the next token instead of taking the most probable one (option sample_top_k): what
// back-translation wants (Edunov et al. 2018, "Understanding Back-Translation at Scale": sampled
// synthetic sources train better than greedy or beam ones).
//
// Reproducible everywhere: the random numbers come from SplitMix64 (below, not <random>, whose
// distributions differ between standard libraries), and each sentence has its own stream, seeded
// from the option `seed` and the sentence's source token ids (sentence_seed): the same numbers
// whatever else is in its batch, natively and in WASM alike. (The draws are then the same where
// the logits are bit for bit the same; engine/README.md says where they are not.)
#pragma once

#include <cstdint>
#include <vector>

namespace nmt {

// SplitMix64 (Steele, Lea & Flood 2014): a 64-bit counter scrambled into each output.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed = 0) : state_(seed) {}
  uint64_t next();
  // Uniform in [0, 1): the top 53 bits of next() over 2^53.
  double uniform();

 private:
  uint64_t state_;
};

// A sentence's stream seed: FNV-1a (64-bit) over `seed` and `source_ids` (each as 4 little-endian
// bytes), so it depends on the values only, not on the platform.
uint64_t sentence_seed(int seed, const std::vector<int>& source_ids);
// sentence_seed of every sentence of a batch.
std::vector<uint64_t> sentence_seeds(int seed, const std::vector<std::vector<int>>& sources);

// Draws from softmax(logits) (temperature 1) restricted to its k largest values.
class TopKSampler {
 public:
  // An index in [0, n): with probability exp(logits[i]) / (sum of exp over the candidates), where
  // the candidates are the k largest logits (ties: the lower index; k >= n: all n) and `u` (uniform
  // in [0, 1)) picks the point of their cumulative distribution, taken in index order. k = 1 is
  // the argmax (the lowest index among equals), whatever `u`.
  // -inf logits are never drawn while a candidate is finite.
  int draw(const float* logits, int n, int k, double u);

 private:
  std::vector<int> order_;       // candidate indices (scratch, reused from call to call)
  std::vector<int> heap_;        // the best k so far, the worst in front (scratch)
  std::vector<double> weights_;  // their exp(logit - largest logit)
};

}  // namespace nmt
