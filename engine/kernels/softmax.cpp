// Row softmax, in place: x = exp(x - max) / Σ exp(x - max); and the row log-sum-exp,
// max + log Σ exp(x - max), which normalizes a row of logits without writing it (greedy search).
//
// exp is our own polynomial rather than xsimd::exp: in wasm xsimd's exp goes through SSE's
// float→int conversion, which Emscripten emulates one lane at a time (slower than scalar
// std::exp). This one uses only add/mul/shift, which map 1:1 onto SIMD128 (measured in node:
// softmax 3.2× faster than with std::exp or xsimd::exp), and the same code runs natively, so
// native tests cover the wasm arithmetic. Row tails are run through a W-wide buffer
// padded with -INFINITY (which exponentiates to exactly 0), so every element sees the same exp.

#include <algorithm>
#include <cmath>
#include "kernels/simd.h"

#include "kernels/kernels.h"

namespace nmt::kernels {
namespace {

using Batch = xsimd::batch<float>;
using IBatch = xsimd::batch<int32_t>;
constexpr int W = int(Batch::size);

// e^x for x ≤ 0 (softmax arguments), ≤ 1.3 ulp with FMA (measured); x < -87 (including -INFINITY) gives exactly 0.
// Cody-Waite: x = n·ln2 + r, |r| ≤ ln2/2, e^x = 2^n · P(r), with P the Cephes degree-7 fit.
// n is rounded with the 1.5·2^23 trick; 2^n is built in the exponent field:
//   bits(t = x·log2e + 1.5·2^23) = 0x4B400000 + n   →   bits(2^n) = (n + 127) << 23
Batch exp_nonpositive(Batch x) {
  const Batch xc = simd::max(x, Batch(-87.0f));
  const Batch t = xsimd::fma(xc, Batch(1.44269504088896341f), Batch(12582912.0f));
  const Batch n = t - Batch(12582912.0f);
  Batch r = xsimd::fnma(n, Batch(0.693359375f), xc);  // xc - n·ln2, ln2 split hi + lo
  r = xsimd::fnma(n, Batch(-2.12194440e-4f), r);
  Batch p(1.9875691500e-4f);
  p = xsimd::fma(p, r, Batch(1.3981999507e-3f));
  p = xsimd::fma(p, r, Batch(8.3334519073e-3f));
  p = xsimd::fma(p, r, Batch(4.1665795894e-2f));
  p = xsimd::fma(p, r, Batch(1.6666665459e-1f));
  p = xsimd::fma(p, r, Batch(5.0000001201e-1f));
  const Batch y = xsimd::fma(p, r * r, r + Batch(1.0f));
  const IBatch e = (xsimd::bitwise_cast<IBatch>(t) + IBatch(127 - 0x4B400000)) << 23;
  return simd::zero_where(x < Batch(-87.0f), y * xsimd::bitwise_cast<Batch>(e));
}

// The row's maximum (simd::max_over); `pad` gets the tail (N % W elements) padded with -INFINITY.
float row_max(const float* x, int N, float* pad) {
  const int full = N - N % W;
  std::fill(pad, pad + W, -INFINITY);
  std::copy(x + full, x + N, pad);
  alignas(64) float lanes[W];
  simd::max_over(Batch::load_aligned(pad), x, size_t(full)).store_aligned(lanes);
  return *std::max_element(lanes, lanes + W);
}

void softmax_row(float* x, int N) {
  const int full = N - N % W;
  const int tail = N - full;
  alignas(64) float pad[W];  // the tail, padded with -INFINITY
  const float max = row_max(x, N, pad);
  if (max == -INFINITY) {  // fully masked row: zeros rather than NaN
    std::fill(x, x + N, 0.0f);
    return;
  }

  const Batch vm(max);
  Batch vsum(0.0f);
  for (int n = 0; n < full; n += W) {
    const Batch e = exp_nonpositive(Batch::load_unaligned(x + n) - vm);
    e.store_unaligned(x + n);
    vsum += e;
  }
  const Batch e = exp_nonpositive(Batch::load_aligned(pad) - vm);
  vsum += e;  // padding lanes are exactly 0
  e.store_aligned(pad);
  std::copy(pad, pad + tail, x + full);

  const float sum = xsimd::hadd(vsum);
  const Batch vs(sum);
  for (int n = 0; n < full; n += W) (Batch::load_unaligned(x + n) / vs).store_unaligned(x + n);
  for (int n = full; n < N; ++n) x[n] /= sum;
}

float logsumexp_row(const float* x, int N) {
  const int full = N - N % W;
  alignas(64) float pad[W];
  const float max = row_max(x, N, pad);
  if (max == -INFINITY) return -INFINITY;
  const Batch vm(max);
  Batch vsum = exp_nonpositive(Batch::load_aligned(pad) - vm);  // padding lanes are exactly 0
  // Four independent exps per iteration, added to vsum in the same order as one at a time (so
  // the same sum): the polynomial is a long dependency chain, and V8 overlaps unrolled chains
  // better (measured in node, 4 × 8000 logits: ~117 → ~80 us with 1 → 4 per iteration).
  int n = 0;
  for (; n + 4 * W <= full; n += 4 * W) {
    const Batch e0 = exp_nonpositive(Batch::load_unaligned(x + n) - vm);
    const Batch e1 = exp_nonpositive(Batch::load_unaligned(x + n + W) - vm);
    const Batch e2 = exp_nonpositive(Batch::load_unaligned(x + n + 2 * W) - vm);
    const Batch e3 = exp_nonpositive(Batch::load_unaligned(x + n + 3 * W) - vm);
    vsum += e0;
    vsum += e1;
    vsum += e2;
    vsum += e3;
  }
  for (; n < full; n += W) vsum += exp_nonpositive(Batch::load_unaligned(x + n) - vm);
  return max + std::log(xsimd::hadd(vsum));
}

}  // namespace

void softmax_rows(float* X, int M, int N) {
  for (int m = 0; m < M; ++m) softmax_row(X + size_t(m) * N, N);
}

void logsumexp_rows(const float* X, int M, int N, float* out) {
  for (int m = 0; m < M; ++m) out[m] = logsumexp_row(X + size_t(m) * N, N);
}

}  // namespace nmt::kernels
