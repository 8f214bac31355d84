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

}  // namespace

// The constants of exp_nonpositive, read from this table (not written as literals) once per row.
// In wasm a literal becomes a v128.const inside the loop, and V8 materializes each one with
// several instructions on every iteration; values loaded from a table the compiler cannot
// constant-fold stay in registers (measured in node: logsumexp over 4 × 8000 logits 155 → ~50 us).
// The values and the operations are unchanged, so the results are bit-identical.
struct ExpConstants {
  float lo = -87.0f;
  float log2e = 1.44269504088896341f;
  float magic = 12582912.0f;  // 1.5 · 2^23
  float ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;
  float p[6] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f,
                5.0000001201e-1f};
  float one = 1.0f;
  int32_t exponent_bias = 127 - 0x4B400000;
};

// External linkage and not const: the compiler must load it, so it cannot turn it back into literals.
extern ExpConstants g_exp_constants;
ExpConstants g_exp_constants;

namespace {

struct Exp {
  Batch lo, log2e, magic, ln2_hi, ln2_lo, p0, p1, p2, p3, p4, p5, one;
  IBatch exponent_bias;
  explicit Exp(const ExpConstants& c)
      : lo(c.lo), log2e(c.log2e), magic(c.magic), ln2_hi(c.ln2_hi), ln2_lo(c.ln2_lo), p0(c.p[0]), p1(c.p[1]),
        p2(c.p[2]), p3(c.p[3]), p4(c.p[4]), p5(c.p[5]), one(c.one), exponent_bias(c.exponent_bias) {}

  // e^x for x ≤ 0 (softmax arguments), ≤ 1.3 ulp with FMA (measured); x < -87 (including -INFINITY) gives exactly 0.
  // Cody-Waite: x = n·ln2 + r, |r| ≤ ln2/2, e^x = 2^n · P(r), with P the Cephes degree-7 fit.
  // n is rounded with the 1.5·2^23 trick; 2^n is built in the exponent field:
  //   bits(t = x·log2e + 1.5·2^23) = 0x4B400000 + n   →   bits(2^n) = (n + 127) << 23
  Batch operator()(Batch x) const {
    const Batch xc = xsimd::max(x, lo);
    const Batch t = xsimd::fma(xc, log2e, magic);
    const Batch n = t - magic;
    Batch r = xsimd::fnma(n, ln2_hi, xc);  // xc - n·ln2, ln2 split hi + lo
    r = xsimd::fnma(n, ln2_lo, r);
    Batch p = p0;
    p = xsimd::fma(p, r, p1);
    p = xsimd::fma(p, r, p2);
    p = xsimd::fma(p, r, p3);
    p = xsimd::fma(p, r, p4);
    p = xsimd::fma(p, r, p5);
    const Batch y = xsimd::fma(p, r * r, r + one);
    const IBatch e = (xsimd::bitwise_cast<IBatch>(t) + exponent_bias) << 23;
    return xsimd::select(x < lo, Batch(0.0f), y * xsimd::bitwise_cast<Batch>(e));
  }
};

// The row's maximum; `pad` gets the tail (N % W elements) padded with -INFINITY.
float row_max(const float* x, int N, float* pad) {
  const int full = N - N % W;
  std::fill(pad, pad + W, -INFINITY);
  std::copy(x + full, x + N, pad);
  Batch vmax = Batch::load_aligned(pad);
  for (int n = 0; n < full; n += W) vmax = xsimd::max(vmax, Batch::load_unaligned(x + n));
  alignas(64) float lanes[W];
  vmax.store_aligned(lanes);
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

  const Exp exp_nonpositive(g_exp_constants);
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
  const Exp exp_nonpositive(g_exp_constants);
  const Batch vm(max);
  Batch vsum = exp_nonpositive(Batch::load_aligned(pad) - vm);  // padding lanes are exactly 0
  int n = 0;
  for (; n + 2 * W <= full; n += 2 * W) {  // two independent exps per iteration, summed in order
    const Batch e0 = exp_nonpositive(Batch::load_unaligned(x + n) - vm);
    const Batch e1 = exp_nonpositive(Batch::load_unaligned(x + n + W) - vm);
    vsum += e0;
    vsum += e1;
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
