// The shifted int8 GEMM (kernels.h, gemm_u7i8_nt) with WebAssembly relaxed SIMD, built on its own
// into relaxed_gemm.wasm by clang-19 + wasm-ld-19 (CMakeLists.txt): a module holding a
// single relaxed instruction fails to compile where relaxed SIMD is missing, so the engine stays
// SIMD128 and the worker plugs this module in where the browser validates it. It imports the
// engine's memory and works on the engine's own buffers; it has no data, no globals and no stack
// of its own (everything lives in locals), so it never writes outside C.
//
//   C[M,N] = float(Σ_k U[m,k]·B[n,k] − zero[m]·b_sums[n]) · (a_scale[m]·b_scale[n]) + bias[n]
//
// i32x4.relaxed_dot_i8x16_i7x16_add_s(b, u, acc): lane i += Σ_{j<4} b[4i+j]·u[4i+j]: 16 multiply-adds
// an instruction, twice SIMD128's i32x4.dot_i16x8_s. U (the "i7" operand) is always 0..127, where
// every implementation gives the same exact result (x86's pmaddubsw pairs reach at most
// 2·127·128 = 32512, below its int16 saturation).
//
// Blocking as gemm_int8.cpp: 2 rows of U × 4 rows of B → 8 accumulators, the N loop outermost.
// A block with fewer than 4 columns repeats its last B row in the missing lanes and stores only
// the columns it has. K tails (K % 16) are summed in scalar. The epilogue is gemm_int8.cpp's
// (a multiply, then an add; no fused multiply-add), so the results are bit-identical to the
// engine's SIMD128 gemm_u7i8_nt.

#include <stdint.h>
#include <wasm_simd128.h>

#define INLINE static inline __attribute__((always_inline))

// [a0 a1 a2 a3] … [d0 d1 d2 d3] (int32) → [Σa Σb Σc Σd]
//   ab = [a0 b0 a1 b1] + [a2 b2 a3 b3] = [a02 b02 a13 b13]      cd likewise
//   [a02 b02 c02 d02] + [a13 b13 c13 d13] = [a b c d]
INLINE v128_t reduce4(v128_t a, v128_t b, v128_t c, v128_t d) {
  const v128_t ab = wasm_i32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
  const v128_t cd = wasm_i32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
  return wasm_i32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}

INLINE v128_t dot(v128_t acc, const int8_t* b, const uint8_t* u) {
  return wasm_i32x4_relaxed_dot_i8x16_i7x16_add(wasm_v128_load(b), wasm_v128_load(u), acc);
}

// Lane j of a 4-column vector from an array, the last column repeated past `cols`.
INLINE v128_t lanes_i32(const int32_t* p, int cols) {
  return wasm_i32x4_make(p[0], p[cols > 1 ? 1 : 0], p[cols > 2 ? 2 : 0], p[cols > 3 ? 3 : 0]);
}
INLINE v128_t lanes_f32(const float* p, int cols) {
  return wasm_f32x4_make(p[0], p[cols > 1 ? 1 : 0], p[cols > 2 ? 2 : 0], p[cols > 3 ? 3 : 0]);
}

// One row of the block's epilogue: sums (4 columns) → C[0..cols).
INLINE void finish_row(v128_t sums, int32_t zero, v128_t b_sums, float a_scale, v128_t b_scale, v128_t bias, float* c,
                       int cols) {
  const v128_t exact = wasm_i32x4_sub(sums, wasm_i32x4_mul(wasm_i32x4_splat(zero), b_sums));
  const v128_t scale = wasm_f32x4_mul(wasm_f32x4_splat(a_scale), b_scale);
  const v128_t out = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(exact), scale), bias);
  if (cols == 4) {
    wasm_v128_store(c, out);
    return;
  }
  c[0] = wasm_f32x4_extract_lane(out, 0);
  if (cols > 1) c[1] = wasm_f32x4_extract_lane(out, 1);
  if (cols > 2) c[2] = wasm_f32x4_extract_lane(out, 2);
}

// Σ_k of rows r of U against 4 rows of B, for `rows` = 1 or 2 (a constant once inlined).
INLINE void dot_block(int rows, const uint8_t* u0, const uint8_t* u1, const int8_t* b0, const int8_t* b1,
                      const int8_t* b2, const int8_t* b3, int K, v128_t* s0, v128_t* s1) {
  v128_t a00 = wasm_i32x4_splat(0), a01 = a00, a02 = a00, a03 = a00;
  v128_t a10 = a00, a11 = a00, a12 = a00, a13 = a00;
  int k = 0;
  for (; k + 16 <= K; k += 16) {
    a00 = dot(a00, b0 + k, u0 + k), a01 = dot(a01, b1 + k, u0 + k);
    a02 = dot(a02, b2 + k, u0 + k), a03 = dot(a03, b3 + k, u0 + k);
    if (rows == 2) {
      a10 = dot(a10, b0 + k, u1 + k), a11 = dot(a11, b1 + k, u1 + k);
      a12 = dot(a12, b2 + k, u1 + k), a13 = dot(a13, b3 + k, u1 + k);
    }
  }
  int32_t t00 = 0, t01 = 0, t02 = 0, t03 = 0, t10 = 0, t11 = 0, t12 = 0, t13 = 0;
  for (; k < K; ++k) {  // K tail, exact in int32
    t00 += b0[k] * u0[k], t01 += b1[k] * u0[k], t02 += b2[k] * u0[k], t03 += b3[k] * u0[k];
    if (rows == 2) t10 += b0[k] * u1[k], t11 += b1[k] * u1[k], t12 += b2[k] * u1[k], t13 += b3[k] * u1[k];
  }
  *s0 = wasm_i32x4_add(reduce4(a00, a01, a02, a03), wasm_i32x4_make(t00, t01, t02, t03));
  if (rows == 2) *s1 = wasm_i32x4_add(reduce4(a10, a11, a12, a13), wasm_i32x4_make(t10, t11, t12, t13));
}

INLINE void block(int rows, const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B,
                  const float* b_scale, const int32_t* b_sums, const float* bias, float* C, int N, int K, int cols) {
  const int8_t* b0 = B;
  const int8_t* b1 = B + (cols > 1 ? K : 0);
  const int8_t* b2 = B + (cols > 2 ? 2 * K : 0);
  const int8_t* b3 = B + (cols > 3 ? 3 * K : 0);
  v128_t s0, s1;
  dot_block(rows, U, U + K, b0, b1, b2, b3, K, &s0, &s1);
  const v128_t sums = lanes_i32(b_sums, cols), scale = lanes_f32(b_scale, cols);
  const v128_t b = bias ? lanes_f32(bias, cols) : wasm_f32x4_splat(0.0f);
  finish_row(s0, zero[0], sums, a_scale[0], scale, b, C, cols);
  if (rows == 2) finish_row(s1, zero[1], sums, a_scale[1], scale, b, C + N, cols);
}

__attribute__((export_name("gemm_u7i8_nt"))) void gemm_u7i8_nt(const uint8_t* U, const float* a_scale,
                                                               const int32_t* zero, const int8_t* B,
                                                               const float* b_scale, const int32_t* b_sums,
                                                               const float* bias, float* C, int M, int N, int K) {
  for (int n = 0; n < N; n += 4) {
    const int cols = N - n < 4 ? N - n : 4;
    const int8_t* Bn = B + (long)n * K;
    const float* bias_n = bias ? bias + n : 0;
    int m = 0;
    for (; m + 2 <= M; m += 2)
      block(2, U + (long)m * K, a_scale + m, zero + m, Bn, b_scale + n, b_sums + n, bias_n, C + (long)m * N + n, N, K,
            cols);
    if (m < M)
      block(1, U + (long)m * K, a_scale + m, zero + m, Bn, b_scale + n, b_sums + n, bias_n, C + (long)m * N + n, N, K,
            cols);
  }
}
