// Small element-wise kernels: relu, add, row argmax (greedy decoding over the vocabulary) and block
// maxima (the beam's top-k).

#include <algorithm>
#include <cmath>

#include "kernels/simd.h"

#include "kernels/kernels.h"

namespace nmt::kernels {
namespace {

using Batch = xsimd::batch<float>;
constexpr size_t W = Batch::size;

}  // namespace

void relu(float* X, size_t n) {
  const Batch zero(0.0f);
  size_t i = 0;
  for (; i + W <= n; i += W) simd::max(Batch::load_unaligned(X + i), zero).store_unaligned(X + i);
  for (; i < n; ++i) X[i] = X[i] > 0.0f ? X[i] : 0.0f;
}

void add(const float* a, const float* b, float* y, size_t n) {
  size_t i = 0;
  for (; i + W <= n; i += W) (Batch::load_unaligned(a + i) + Batch::load_unaligned(b + i)).store_unaligned(y + i);
  for (; i < n; ++i) y[i] = a[i] + b[i];
}

// Two passes: a vector max over the row, then the first index holding it (found a vector at a
// time, then scalar inside the first matching vector). Two passes make "first on ties" trivial.
// A row whose max is NaN (no element compares equal) yields 0.
void argmax_rows(const float* X, int M, int N, int* out) {
  const size_t n_full = size_t(N) - size_t(N) % W;
  for (int m = 0; m < M; ++m) {
    if (N <= 0) {
      out[m] = 0;
      continue;
    }
    const float* x = X + size_t(m) * N;
    float max = x[0];
    if (n_full > 0) {
      alignas(64) float lanes[W];
      simd::max_over(Batch::load_unaligned(x), x + W, n_full - W).store_aligned(lanes);
      for (size_t l = 0; l < W; ++l) max = lanes[l] > max ? lanes[l] : max;
    }
    for (size_t i = n_full; i < size_t(N); ++i) max = x[i] > max ? x[i] : max;

    const Batch vm(max);
    size_t i = 0;
    while (i < n_full && xsimd::none(Batch::load_unaligned(x + i) == vm)) i += W;
    while (i < size_t(N) && !(x[i] == max)) ++i;
    out[m] = i < size_t(N) ? int(i) : 0;
  }
}

// Whole blocks whose size is a multiple of W: a vector max, then its lanes; the rest in scalar.
void block_max(const float* X, int N, int block, float* out) {
  for (int b = 0, start = 0; start < N; ++b, start += block) {
    const int end = std::min(N, start + block);
    float m = -INFINITY;
    int n = start;
    if (block % int(W) == 0 && end - start == block) {
      Batch vmax = Batch::load_unaligned(X + n);
      for (n += int(W); n < end; n += int(W)) vmax = simd::max(vmax, Batch::load_unaligned(X + n));
      alignas(64) float lanes[W];
      vmax.store_aligned(lanes);
      for (size_t l = 0; l < W; ++l) m = lanes[l] > m ? lanes[l] : m;
    }
    for (; n < end; ++n) m = X[n] > m ? X[n] : m;
    out[b] = m;
  }
}

}  // namespace nmt::kernels
