// The "shifted" 7-bit int8 scheme of the relaxed-SIMD GEMM (kernels.h): which scheme the int8
// Linears use, the weights' row sums, and the choice of GEMM (its quantizer, quantize_rows_u7, is
// in quantize.cpp beside the 8-bit one).
//
// Why 7 bits: relaxed SIMD's i32x4.relaxed_dot_i8x16_i7x16_add_s multiplies signed int8 weights
// by an "i7" operand whose result is implementation-defined when that operand's top bit is set
// (x86 engines read it unsigned, ARM signed). Activations in 0..127 are the same number either
// way, so every browser computes the same sums. The zero point's product is taken back out with
// the weights' row sums, precomputed at load time:
//   Σ_k w[k]·(q[k] + zero) − zero·Σ_k w[k] = Σ_k w[k]·q[k]          (exact in int32)
// Each row's 128 levels cover its own range [min(0, min x), max(0, max x)] with 0 exact (the zero
// point); a ReLU's output gets zero 0 and all 7 bits, the resolution the 8-bit scheme gives it.
// Measured on the six dev sets, int8 greedy and beam 4, against exact8 (scripts/bench-relaxed-bleu.mjs):
// these asymmetric rows in every Linear (`shifted7`, the relaxed-SIMD default) moved BLEU by
// −0.11..+0.12, and by −0.14..+0.17 with the output projection kept on 8 bits (`mixed`); the
// symmetric rows tried first (−63..63 around 64) by −0.21..+0.18 everywhere and −0.32..+0.28 mixed.

#include <cstdlib>
#include <cstring>

#include "kernels/kernels.h"

namespace nmt::kernels {

// gemm_int8.cpp: the blocked int8 GEMM with the zero-point correction.
void gemm_u7i8_builtin(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B,
                       const float* b_scale, const int32_t* b_sums, const float* bias, float* C, int M, int N, int K);

namespace {

Int8Scheme initial_scheme() {
#if defined(__EMSCRIPTEN__)
  return Int8Scheme::exact8;  // the worker turns mixed on with the relaxed kernel (Module.setSimd)
#else
  const char* env = std::getenv("NMT_INT8_SCHEME");
  if (env && std::strcmp(env, "shifted7") == 0) return Int8Scheme::shifted7;
  if (env && std::strcmp(env, "mixed") == 0) return Int8Scheme::mixed;
  return Int8Scheme::exact8;
#endif
}

Int8Scheme g_scheme = initial_scheme();
U7GemmFn g_u7_gemm = nullptr;
I8GemmFn g_i8_gemm = nullptr;

}  // namespace

Int8Scheme int8_scheme() { return g_scheme; }
void set_int8_scheme(Int8Scheme scheme) { g_scheme = scheme; }
Int8Scheme int8_scheme_for(bool output_projection) {
  if (g_scheme == Int8Scheme::mixed) return output_projection ? Int8Scheme::exact8 : Int8Scheme::shifted7;
  return g_scheme;
}
void set_u7_gemm(U7GemmFn fn) { g_u7_gemm = fn; }
void set_i8_gemm(I8GemmFn fn) { g_i8_gemm = fn; }

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

// The 8-bit scheme's GEMM with the weights' row sums at hand: the relaxed module's exact 8-bit
// kernel needs them (it feeds each activation in as two 7-bit halves of a + 127; gemm_relaxed.c).
void gemm_i8_nt_sums(const int8_t* A, const float* a_scale, const int8_t* B, const float* b_scale,
                     const int32_t* b_sums, const float* bias, float* C, int M, int N, int K) {
  if (g_i8_gemm && b_sums)
    g_i8_gemm(A, a_scale, B, b_scale, b_sums, bias, C, M, N, K);
  else
    gemm_i8_nt(A, a_scale, B, b_scale, bias, C, M, N, K);
}

}  // namespace nmt::kernels
