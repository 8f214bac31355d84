// Per-row quantization of activations for the int8 GEMMs (kernels.h), one row quantizer for both
// schemes:
//   8-bit (quantize_rows), bit-exact with PyTorch:
//     scale = max(max|x|, 1e-12) / 127,  q = clamp(round_half_even(x / scale), -127, 127)
//   7-bit shifted (quantize_rows_u7, the relaxed-SIMD GEMM's operand; shifted.cpp says why),
//   asymmetric: the row's range [min(0, min x), max(0, max x)] in 128 levels, 0 exact:
//     scale = max(hi − lo, 1e-12) / 127,  zero = min(round_half_even(−lo / scale), 127)
//     q = clamp(round_half_even(x / scale), −zero, 127 − zero) + zero, in 0..127
// Division (not a multiply by 1/scale) because torch divides, and IEEE division is correctly rounded
// in every lane on every ISA, so SIMD and scalar agree exactly.
//
// Rounding + float→int without a float→int instruction (SSE's cvtps is emulated per lane in
// wasm): adding 1.5·2^23 to a float |q| ≤ 2^22 rounds it half-to-even to an integer, which then
// sits in the low mantissa bits:
//   bits(q + 12582912.0f) = 0x4B400000 + round(q)      (e.g. q = -2.5 → 0x4B3FFFFE = base - 2)
// so subtracting 0x4B400000 − zero gives round(q) + zero in one integer op.

#include <algorithm>
#include <cmath>
#include "kernels/simd.h"
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "kernels/kernels.h"

namespace nmt::kernels {
namespace {

using Batch = xsimd::batch<float>;
using IBatch = xsimd::batch<int32_t>;
constexpr int W = int(Batch::size);
constexpr float kMagic = 12582912.0f;  // 1.5 · 2^23
constexpr int32_t kMagicBits = 0x4B400000;

// {min(0, min x), max(0, max x)} of a row
void row_range(const float* x, int K, float* lo, float* hi) {
  Batch vlo(0.0f), vhi(0.0f);
  int k = 0;
  for (; k + W <= K; k += W) {
    const Batch v = Batch::load_unaligned(x + k);
    vlo = simd::min(vlo, v);
    vhi = simd::max(vhi, v);
  }
  alignas(64) float l[W], h[W];
  vlo.store_aligned(l);
  vhi.store_aligned(h);
  float a = 0.0f, b = 0.0f;
  for (int i = 0; i < W; ++i) a = std::min(a, l[i]), b = std::max(b, h[i]);
  for (; k < K; ++k) a = std::min(a, x[k]), b = std::max(b, x[k]);
  *lo = a;
  *hi = b;
}

// q[k] = clamp(round_half_even(x[k] / s), bottom, top) + zero, for results in -128..127 (the
// 7-bit rows' 0..127 are the same bytes read as int8 or uint8).
void quantize_row(const float* x, int8_t* q, float s, float bottom, float top, int32_t zero, int K) {
  const Batch vs(s), lo(bottom), hi(top), magic(kMagic);
  const IBatch offset(kMagicBits - zero);
  int k = 0;
#if defined(__wasm_simd128__)
  // 16 at a time, narrowed int32 → int16 → int8 with two SIMD128 narrows (values are already in
  // range, so their saturation never applies) and one store, instead of 16 byte stores.
  for (; k + 16 <= K; k += 16) {
    v128_t r[4];
    for (int v = 0; v < 4; ++v) {
      const Batch t = simd::min(simd::max(Batch::load_unaligned(x + k + 4 * v) / vs, lo), hi);
      r[v] = v128_t(__m128i(xsimd::bitwise_cast<IBatch>(t + magic) - offset));
    }
    wasm_v128_store(q + k, wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(r[0], r[1]), wasm_i16x8_narrow_i32x4(r[2], r[3])));
  }
#endif
  for (; k + W <= K; k += W) {
    const Batch t = simd::min(simd::max(Batch::load_unaligned(x + k) / vs, lo), hi);
    const IBatch r = xsimd::bitwise_cast<IBatch>(t + magic) - offset;
    alignas(64) int32_t lanes[W];
    r.store_aligned(lanes);
    for (int l = 0; l < W; ++l) q[k + l] = int8_t(lanes[l]);  // narrowing loop; compilers pack it
  }
  for (; k < K; ++k) q[k] = int8_t(int32_t(std::min(top, std::max(bottom, std::nearbyint(x[k] / s)))) + zero);
}

}  // namespace

void quantize_rows(const float* X, int8_t* Q, float* scale, int M, int K) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * K;
    float lo, hi;
    row_range(x, K, &lo, &hi);
    scale[m] = std::max(std::max(hi, -lo), 1e-12f) / 127.0f;  // max |x|
    quantize_row(x, Q + size_t(m) * K, scale[m], -127.0f, 127.0f, 0, K);
  }
}

// Rows without negative values (a ReLU's output) get zero = 0 and all 7 bits for 0..max, the same
// resolution the 8-bit scheme gives them; a signed row's 128 levels cover its own range, so a
// lopsided row (a LayerNorm's output often is) loses less than half its resolution. Where hi − lo
// overflows (rows near float's limits) the scale is hi/127 − lo/127.
void quantize_rows_u7(const float* X, uint8_t* U, float* scale, int32_t* zero, int M, int K) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * K;
    float lo, hi;
    row_range(x, K, &lo, &hi);
    const float range = hi - lo;  // ±inf past float's limits
    const float s = std::isfinite(range) ? std::max(range, 1e-12f) / 127.0f : hi / 127.0f - lo / 127.0f;
    const int32_t z = int32_t(std::min(127.0f, std::nearbyint(-lo / s)));
    scale[m] = s;
    zero[m] = z;
    quantize_row(x, reinterpret_cast<int8_t*>(U + size_t(m) * K), s, float(-z), float(127 - z), z, K);
  }
}

}  // namespace nmt::kernels
