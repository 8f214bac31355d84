// The random stream and the top-k draw; see sampling.h.
#include "search/sampling.h"

#include <algorithm>
#include <cmath>

namespace nmt {

uint64_t SplitMix64::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }  // 2^53

namespace {

constexpr uint64_t kFnvOffset = 0xCBF29CE484222325ull, kFnvPrime = 0x100000001B3ull;

// FNV-1a over the 4 bytes of `value`, least significant first.
uint64_t fnv1a(uint64_t hash, uint32_t value) {
  for (int b = 0; b < 4; ++b) {
    hash ^= (value >> (8 * b)) & 0xFFu;
    hash *= kFnvPrime;
  }
  return hash;
}

}  // namespace

uint64_t sentence_seed(int seed, const std::vector<int>& source_ids) {
  uint64_t hash = fnv1a(kFnvOffset, uint32_t(seed));
  for (int id : source_ids) hash = fnv1a(hash, uint32_t(id));
  return hash;
}

std::vector<uint64_t> sentence_seeds(int seed, const std::vector<std::vector<int>>& sources) {
  std::vector<uint64_t> out;
  out.reserve(sources.size());
  for (const std::vector<int>& ids : sources) out.push_back(sentence_seed(seed, ids));
  return out;
}

int TopKSampler::draw(const float* logits, int n, int k, double u) {
  if (n <= 0) return 0;
  // The candidates, in index order: all n, or the k largest under the total order "larger value,
  // then lower index" (so which k does not depend on how the standard library breaks ties). Those
  // are found with a heap of the best k so far whose front is the worst of them (a better token
  // replaces it); then every token better than that worst one, and it, is a candidate.
  order_.clear();
  if (k >= n) {
    for (int i = 0; i < n; ++i) order_.push_back(i);
  } else {
    const auto better = [logits](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); };
    heap_.clear();
    for (int i = 0; i < n; ++i) {
      if (int(heap_.size()) < std::max(1, k)) {
        heap_.push_back(i);
        std::push_heap(heap_.begin(), heap_.end(), better);
      } else if (logits[i] > logits[heap_.front()]) {  // (a later index never wins a tie)
        std::pop_heap(heap_.begin(), heap_.end(), better);
        heap_.back() = i;
        std::push_heap(heap_.begin(), heap_.end(), better);
      }
    }
    const int worst = heap_.front();
    for (int i = 0; i < n; ++i)
      if (i == worst || better(i, worst)) order_.push_back(i);
  }
  float top = -INFINITY;
  for (int i : order_) top = std::max(top, logits[i]);
  if (top == -INFINITY) return order_[0];  // nothing allowed: cannot happen after constrain()
  // Weights relative to the largest (so exp cannot overflow), summed in double; the draw is the
  // first candidate whose cumulative weight passes u * total (never one of weight 0).
  weights_.resize(order_.size());
  double total = 0.0;
  for (size_t c = 0; c < order_.size(); ++c) total += weights_[c] = std::exp(double(logits[order_[c]]) - double(top));
  const double target = u * total;
  double sum = 0.0;
  int last = order_[0];
  for (size_t c = 0; c < order_.size(); ++c) {
    if (weights_[c] == 0.0) continue;
    sum += weights_[c];
    last = order_[c];
    if (sum > target) return last;
  }
  return last;  // (rounding: u * total at the very end)
}

}  // namespace nmt
