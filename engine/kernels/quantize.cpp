// Per-row symmetric int8 quantization of activations, bit-exact with PyTorch:
//   scale = max(max|x|, 1e-12) / 127,  q = clamp(round_half_even(x / scale), -127, 127).
// Division (not a multiply by 1/scale) because torch divides, and IEEE division is correctly rounded
// in every lane on every ISA, so SIMD and scalar agree exactly.
//
// Rounding + float→int without a float→int instruction (SSE's cvtps is emulated per lane in
// wasm): adding 1.5·2^23 to a float |q| ≤ 2^22 rounds it half-to-even to an integer, which then
// sits in the low mantissa bits:
//   bits(q + 12582912.0f) = 0x4B400000 + round(q)      (e.g. q = -2.5 → 0x4B3FFFFE = base - 2)

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

float max_abs(const float* x, int K) {
  Batch acc(0.0f);
  int k = 0;
  for (; k + W <= K; k += W) acc = xsimd::max(acc, xsimd::abs(Batch::load_unaligned(x + k)));
  alignas(64) float lanes[W];
  acc.store_aligned(lanes);
  float m = 0.0f;
  for (int l = 0; l < W; ++l) m = std::max(m, lanes[l]);
  for (; k < K; ++k) m = std::max(m, std::fabs(x[k]));
  return m;
}

}  // namespace

void quantize_rows(const float* X, int8_t* Q, float* scale, int M, int K) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * K;
    int8_t* q = Q + size_t(m) * K;
    const float s = std::max(max_abs(x, K), 1e-12f) / 127.0f;
    scale[m] = s;
    const Batch vs(s), lo(-127.0f), hi(127.0f), magic(kMagic);
    const IBatch magic_bits(kMagicBits);
    int k = 0;
#if defined(__wasm_simd128__)
    // 16 at a time, narrowed int32 → int16 → int8 with two SIMD128 narrows (values are already in
    // [-127, 127], so their saturation never applies) and one store, instead of 16 byte stores.
    for (; k + 16 <= K; k += 16) {
      v128_t r[4];
      for (int v = 0; v < 4; ++v) {
        const Batch t = xsimd::min(xsimd::max(Batch::load_unaligned(x + k + 4 * v) / vs, lo), hi);
        r[v] = v128_t(__m128i(xsimd::bitwise_cast<IBatch>(t + magic) - magic_bits));
      }
      wasm_v128_store(q + k, wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(r[0], r[1]), wasm_i16x8_narrow_i32x4(r[2], r[3])));
    }
#endif
    for (; k + W <= K; k += W) {
      const Batch t = xsimd::min(xsimd::max(Batch::load_unaligned(x + k) / vs, lo), hi);
      const IBatch r = xsimd::bitwise_cast<IBatch>(t + magic) - magic_bits;
      alignas(64) int32_t lanes[W];
      r.store_aligned(lanes);
      for (int l = 0; l < W; ++l) q[k + l] = int8_t(lanes[l]);  // narrowing loop; compilers pack it
    }
    for (; k < K; ++k) q[k] = int8_t(std::min(127.0f, std::max(-127.0f, std::nearbyint(x[k] / s))));
  }
}

}  // namespace nmt::kernels
