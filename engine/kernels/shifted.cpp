// The "shifted" 7-bit int8 scheme of the relaxed-SIMD GEMM (kernels.h): activations quantized to
// unsigned 7 bits with a zero point, the weights' row sums, and the choice of GEMM.
//
// Why 7 bits: relaxed SIMD's i32x4.relaxed_dot_i8x16_i7x16_add_s multiplies signed int8 weights
// by an "i7" operand whose result is implementation-defined when that operand's top bit is set
// (x86 engines read it unsigned, ARM signed). Activations in 0..127 are the same number either
// way, so every browser computes the same sums. The zero point's product is taken back out with
// the weights' row sums, precomputed at load time:
//   Σ_k w[k]·(q[k] + zero) − zero·Σ_k w[k] = Σ_k w[k]·q[k]          (exact in int32)
// Rows without negative values (a ReLU's output) use zero = 0 and all 7 bits for 0..max, the same
// resolution the 8-bit symmetric scheme gives them; other rows get −63..63 around zero = 64.
//
// Rounding without a float→int instruction, as quantize.cpp: bits(t + 1.5·2^23) − 0x4B400000 =
// round_half_even(t) for |t| ≤ 2^22.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "kernels/simd.h"
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "kernels/kernels.h"

namespace nmt::kernels {

// gemm_int8.cpp: the blocked int8 GEMM with the zero-point correction.
void gemm_u7i8_builtin(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B,
                       const float* b_scale, const int32_t* b_sums, const float* bias, float* C, int M, int N, int K);

namespace {

using Batch = xsimd::batch<float>;
using IBatch = xsimd::batch<int32_t>;
constexpr int W = int(Batch::size);
constexpr float kMagic = 12582912.0f;  // 1.5 · 2^23
constexpr int32_t kMagicBits = 0x4B400000;

// {min(0, min x), max |x|} of a row
void row_range(const float* x, int K, float* lo, float* hi) {
  Batch vlo(0.0f), vhi(0.0f);
  int k = 0;
  for (; k + W <= K; k += W) {
    const Batch v = Batch::load_unaligned(x + k);
    vlo = xsimd::min(vlo, v);
    vhi = xsimd::max(vhi, xsimd::abs(v));
  }
  alignas(64) float l[W], h[W];
  vlo.store_aligned(l);
  vhi.store_aligned(h);
  float a = 0.0f, b = 0.0f;
  for (int i = 0; i < W; ++i) a = std::min(a, l[i]), b = std::max(b, h[i]);
  for (; k < K; ++k) a = std::min(a, x[k]), b = std::max(b, std::fabs(x[k]));
  *lo = a;
  *hi = b;
}

Int8Scheme initial_scheme() {
#if defined(__EMSCRIPTEN__)
  return Int8Scheme::exact8;  // the worker turns shifted7 on with the relaxed kernel
#else
  const char* env = std::getenv("NMT_INT8_SCHEME");
  return env && std::strcmp(env, "shifted7") == 0 ? Int8Scheme::shifted7 : Int8Scheme::exact8;
#endif
}

Int8Scheme g_scheme = initial_scheme();
U7GemmFn g_u7_gemm = nullptr;

}  // namespace

Int8Scheme int8_scheme() { return g_scheme; }
void set_int8_scheme(Int8Scheme scheme) { g_scheme = scheme; }
void set_u7_gemm(U7GemmFn fn) { g_u7_gemm = fn; }

void quantize_rows_u7(const float* X, uint8_t* U, float* scale, int32_t* zero, int M, int K) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * K;
    uint8_t* u = U + size_t(m) * K;
    float lo, hi;
    row_range(x, K, &lo, &hi);
    const bool unsigned_row = lo >= 0.0f;
    const float top = unsigned_row ? 127.0f : 63.0f, bottom = unsigned_row ? 0.0f : -63.0f;
    const int32_t z = unsigned_row ? 0 : 64;
    const float s = std::max(hi, 1e-12f) / top;
    scale[m] = s;
    zero[m] = z;
    const Batch vs(s), vlo(bottom), vhi(top), magic(kMagic);
    const IBatch offset(kMagicBits - z);
    int k = 0;
#if defined(__wasm_simd128__)
    // 16 at a time, narrowed int32 → int16 → uint8 with two SIMD128 narrows (the values are
    // already 0..127, so their saturation never applies) and one store, as quantize.cpp does.
    for (; k + 16 <= K; k += 16) {
      v128_t r[4];
      for (int v = 0; v < 4; ++v) {
        const Batch t = xsimd::min(xsimd::max(Batch::load_unaligned(x + k + 4 * v) / vs, vlo), vhi);
        r[v] = v128_t(__m128i(xsimd::bitwise_cast<IBatch>(t + magic) - offset));
      }
      wasm_v128_store(u + k, wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(r[0], r[1]), wasm_i16x8_narrow_i32x4(r[2], r[3])));
    }
#endif
    for (; k + W <= K; k += W) {
      const Batch t = xsimd::min(xsimd::max(Batch::load_unaligned(x + k) / vs, vlo), vhi);
      const IBatch r = xsimd::bitwise_cast<IBatch>(t + magic) - offset;
      alignas(64) int32_t lanes[W];
      r.store_aligned(lanes);
      for (int l = 0; l < W; ++l) u[k + l] = uint8_t(lanes[l]);  // 0..127
    }
    for (; k < K; ++k) u[k] = uint8_t(int(std::min(top, std::max(bottom, std::nearbyint(x[k] / s)))) + z);
  }
}

void row_sums_i8(const int8_t* B, int N, int K, int32_t* sums) {
  for (int n = 0; n < N; ++n) {
    const int8_t* b = B + size_t(n) * K;
    int32_t sum = 0;
    for (int k = 0; k < K; ++k) sum += b[k];  // vectorized by the compiler
    sums[n] = sum;
  }
}

void gemm_u7i8_nt(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B, const float* b_scale,
                  const int32_t* b_sums, const float* bias, float* C, int M, int N, int K) {
  (g_u7_gemm ? g_u7_gemm : gemm_u7i8_builtin)(U, a_scale, zero, B, b_scale, b_sums, bias, C, M, N, K);
}

}  // namespace nmt::kernels
