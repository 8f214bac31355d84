// The int8 GEMMs of kernels.h with WebAssembly relaxed SIMD, built on their own into
// relaxed_gemm.wasm by clang-19 + wasm-ld-19 (CMakeLists.txt): a module holding a single relaxed
// instruction fails to compile where relaxed SIMD is missing, so the engine stays SIMD128 and the
// worker plugs this module in where the browser validates it. It imports the engine's memory and
// works on the engine's own buffers; it has no data, no globals and no stack of its own
// (everything lives in locals), so it never writes outside C. Two exports:
//
//   gemm_u7i8_nt (the shifted 7-bit scheme: every Linear, the relaxed default):
//     C[M,N] = float(Σ_k U[m,k]·B[n,k] − zero[m]·b_sums[n]) · (a_scale[m]·b_scale[n]) + bias[n]
//   gemm_i8_nt (the 8-bit scheme: the output projection of the `mixed` scheme, setSimd('relaxed-mixed')),
//   A in −127..127 and B's row sums given:
//     C[M,N] = float(Σ_k A[m,k]·B[n,k]) · (a_scale[m]·b_scale[n]) + bias[n]
//
// i32x4.relaxed_dot_i8x16_i7x16_add_s(b, u, acc): lane i += Σ_{j<4} b[4i+j]·u[4i+j]: 16 multiply-adds
// an instruction, twice SIMD128's i32x4.dot_i16x8_s. The "i7" operand u is always 0..127, where
// every implementation gives the same exact result (x86's pmaddubsw pairs reach at most
// 2·127·128 = 32512, below its int16 saturation). An 8-bit activation does not fit in it, so
// gemm_i8_nt feeds each one in as two 7-bit parts that add up to a + 127 (split8) and takes
// 127·b_sums back out: exact, so its results equal gemm_i8_nt's bit for bit.
//
// Blocking as gemm_int8.cpp: 2 rows of A × 4 rows of B → 8 accumulators (3 × 4 → 12 for the 7-bit
// rows of the encoder, dot_block3), the N loop outermost.
// A block with fewer than 4 columns repeats its last B row in the missing lanes and stores only
// the columns it has. K tails (K % 16) are summed in scalar. The epilogue is gemm_int8.cpp's
// (a multiply, then an add; no fused multiply-add), so the results are bit-identical to the
// engine's SIMD128 kernels.

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

// acc + the relaxed dot of weights w and i7 operand u (0..127)
INLINE v128_t mad(v128_t acc, v128_t w, v128_t u) { return wasm_i32x4_relaxed_dot_i8x16_i7x16_add(w, u, acc); }
INLINE v128_t dot(v128_t acc, const int8_t* b, const uint8_t* u) {
  return mad(acc, wasm_v128_load(b), wasm_v128_load(u));
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

// The 8-bit kernel's two i7 operands for 16 values of a row of A, both 0..127 for any byte:
//   lo = min(a + 127 (wrapping), 127) as unsigned = 127 + min(a, 0)  for a ≥ −127
//   hi = max(a, 0)
// so lo + hi = a + 127 for every a in −127..127 (quantize_rows' range); a = −128 reads as 0.
INLINE void split8(v128_t a, v128_t* lo, v128_t* hi) {
  *lo = wasm_u8x16_min(wasm_i8x16_add(a, wasm_i8x16_splat(127)), wasm_i8x16_splat(127));
  *hi = wasm_i8x16_max(a, wasm_i8x16_splat(0));
}
INLINE int32_t split8_scalar(int8_t a) {  // lo + hi of one value, as split8 computes them
  const int32_t lo = (uint8_t)(a + 127) < 127 ? (uint8_t)(a + 127) : 127;
  return lo + (a > 0 ? a : 0);
}

// Σ_k of 1 or 2 rows of A against 4 rows of B (int32, into *s0 and *s1). `split` 0: A is U (0..127),
// the i7 operand as it is. `split` 1: A is int8 and every 16 bytes go in as lo and hi (split8), so
// the sums are Σ_k b·(a + 127). `rows` and `split` are constants once inlined.
//
// A relaxed dot's latency is several cycles, so one row's 4 dependent chains leave some of its
// throughput unused: with one row, a second set of 4 accumulators takes every other K step (split:
// the hi operand; Chromium, 1×256×1024: 118 → 143 GOP/s, the smaller shapes within the noise);
// with two rows the 8 chains of 2×4 suffice (split: lo then hi into the same accumulator). The
// sets are added before the lane reduction; integer sums are exact in any order.
INLINE void dot_block(int rows, int split, const uint8_t* a0, const uint8_t* a1, const int8_t* b0, const int8_t* b1,
                      const int8_t* b2, const int8_t* b3, int K, v128_t* s0, v128_t* s1) {
  v128_t x00 = wasm_i32x4_splat(0), x01 = x00, x02 = x00, x03 = x00;  // row 0
  v128_t x10 = x00, x11 = x00, x12 = x00, x13 = x00;                  // row 1, or row 0's second set
  int k = 0;
  if (rows == 1 && !split) {
    for (; k + 32 <= K; k += 32) {
      const uint8_t* u = a0 + k;
      x00 = dot(x00, b0 + k, u), x01 = dot(x01, b1 + k, u), x02 = dot(x02, b2 + k, u), x03 = dot(x03, b3 + k, u);
      u += 16;
      x10 = dot(x10, b0 + k + 16, u), x11 = dot(x11, b1 + k + 16, u);
      x12 = dot(x12, b2 + k + 16, u), x13 = dot(x13, b3 + k + 16, u);
    }
  }
  for (; k + 16 <= K; k += 16) {
    const v128_t w0 = wasm_v128_load(b0 + k), w1 = wasm_v128_load(b1 + k);
    const v128_t w2 = wasm_v128_load(b2 + k), w3 = wasm_v128_load(b3 + k);
    if (!split) {
      const v128_t u0 = wasm_v128_load(a0 + k);
      x00 = mad(x00, w0, u0), x01 = mad(x01, w1, u0);
      x02 = mad(x02, w2, u0), x03 = mad(x03, w3, u0);
      if (rows == 2) {
        const v128_t u1 = wasm_v128_load(a1 + k);
        x10 = mad(x10, w0, u1), x11 = mad(x11, w1, u1);
        x12 = mad(x12, w2, u1), x13 = mad(x13, w3, u1);
      }
    } else {
      v128_t lo0, hi0;
      split8(wasm_v128_load(a0 + k), &lo0, &hi0);
      if (rows == 1) {
        x00 = mad(x00, w0, lo0), x01 = mad(x01, w1, lo0);
        x02 = mad(x02, w2, lo0), x03 = mad(x03, w3, lo0);
        x10 = mad(x10, w0, hi0), x11 = mad(x11, w1, hi0);
        x12 = mad(x12, w2, hi0), x13 = mad(x13, w3, hi0);
      } else {
        v128_t lo1, hi1;
        split8(wasm_v128_load(a1 + k), &lo1, &hi1);
        x00 = mad(mad(x00, w0, lo0), w0, hi0), x01 = mad(mad(x01, w1, lo0), w1, hi0);
        x02 = mad(mad(x02, w2, lo0), w2, hi0), x03 = mad(mad(x03, w3, lo0), w3, hi0);
        x10 = mad(mad(x10, w0, lo1), w0, hi1), x11 = mad(mad(x11, w1, lo1), w1, hi1);
        x12 = mad(mad(x12, w2, lo1), w2, hi1), x13 = mad(mad(x13, w3, lo1), w3, hi1);
      }
    }
  }
  int32_t t00 = 0, t01 = 0, t02 = 0, t03 = 0, t10 = 0, t11 = 0, t12 = 0, t13 = 0;
  for (; k < K; ++k) {  // K tail, exact in int32
    const int32_t v0 = split ? split8_scalar((int8_t)a0[k]) : a0[k];
    t00 += b0[k] * v0, t01 += b1[k] * v0, t02 += b2[k] * v0, t03 += b3[k] * v0;
    if (rows == 2) {
      const int32_t v1 = split ? split8_scalar((int8_t)a1[k]) : a1[k];
      t10 += b0[k] * v1, t11 += b1[k] * v1, t12 += b2[k] * v1, t13 += b3[k] * v1;
    }
  }
  const v128_t tail0 = wasm_i32x4_make(t00, t01, t02, t03);
  if (rows == 1) {
    x00 = wasm_i32x4_add(x00, x10), x01 = wasm_i32x4_add(x01, x11);
    x02 = wasm_i32x4_add(x02, x12), x03 = wasm_i32x4_add(x03, x13);
  }
  *s0 = wasm_i32x4_add(reduce4(x00, x01, x02, x03), tail0);
  if (rows == 2) *s1 = wasm_i32x4_add(reduce4(x10, x11, x12, x13), wasm_i32x4_make(t10, t11, t12, t13));
}

// Σ_k of 3 rows of U (0..127) against 4 rows of B: 12 accumulators, for the encoder's many rows.
// A relaxed dot's latency leaves 2×4's 8 chains short of the instruction's throughput; 12 chains
// and 7 loads per 12 dots (2×4: 6 per 8) measured 5–10% faster in Chromium at K = 256 (M = 20..36,
// machine loaded), the same at K = 1024. Live: 12 accumulators + 3 rows + 1 weight vector, within
// the 16 vector registers V8 has on x64.
INLINE void dot_block3(const uint8_t* a, const int8_t* b0, const int8_t* b1, const int8_t* b2, const int8_t* b3,
                       int K, v128_t* s) {
  v128_t x00 = wasm_i32x4_splat(0), x01 = x00, x02 = x00, x03 = x00;
  v128_t x10 = x00, x11 = x00, x12 = x00, x13 = x00;
  v128_t x20 = x00, x21 = x00, x22 = x00, x23 = x00;
  const uint8_t *a0 = a, *a1 = a + K, *a2 = a + 2 * K;
  int k = 0;
  for (; k + 16 <= K; k += 16) {
    const v128_t u0 = wasm_v128_load(a0 + k), u1 = wasm_v128_load(a1 + k), u2 = wasm_v128_load(a2 + k);
    v128_t w = wasm_v128_load(b0 + k);
    x00 = mad(x00, w, u0), x10 = mad(x10, w, u1), x20 = mad(x20, w, u2);
    w = wasm_v128_load(b1 + k);
    x01 = mad(x01, w, u0), x11 = mad(x11, w, u1), x21 = mad(x21, w, u2);
    w = wasm_v128_load(b2 + k);
    x02 = mad(x02, w, u0), x12 = mad(x12, w, u1), x22 = mad(x22, w, u2);
    w = wasm_v128_load(b3 + k);
    x03 = mad(x03, w, u0), x13 = mad(x13, w, u1), x23 = mad(x23, w, u2);
  }
  const uint8_t* rows[3] = {a0, a1, a2};
  for (int r = 0; r < 3; ++r) {  // K tail, exact in int32
    int32_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
    for (int j = k; j < K; ++j) {
      const int32_t v = rows[r][j];
      t0 += b0[j] * v, t1 += b1[j] * v, t2 += b2[j] * v, t3 += b3[j] * v;
    }
    s[r] = wasm_i32x4_make(t0, t1, t2, t3);
  }
  s[0] = wasm_i32x4_add(reduce4(x00, x01, x02, x03), s[0]);
  s[1] = wasm_i32x4_add(reduce4(x10, x11, x12, x13), s[1]);
  s[2] = wasm_i32x4_add(reduce4(x20, x21, x22, x23), s[2]);
}

// 3 rows of U × up to 4 columns of C (the shifted 7-bit scheme only).
INLINE void block3(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B, const float* b_scale,
                   const int32_t* b_sums, const float* bias, float* C, int N, int K, int cols) {
  v128_t s[3];
  dot_block3(U, B, B + (cols > 1 ? K : 0), B + (cols > 2 ? 2 * K : 0), B + (cols > 3 ? 3 * K : 0), K, s);
  const v128_t sums = lanes_i32(b_sums, cols), scale = lanes_f32(b_scale, cols);
  const v128_t b = bias ? lanes_f32(bias, cols) : wasm_f32x4_splat(0.0f);
  for (int r = 0; r < 3; ++r) finish_row(s[r], zero[r], sums, a_scale[r], scale, b, C + (long)r * N, cols);
}

// One block of C: 1 or 2 rows × up to 4 columns. zero: the u7 rows' zero points, or NULL for the
// 8-bit kernel, whose sums hold 127·b_sums too (split8's lo + hi = a + 127).
INLINE void block(int rows, int split, const uint8_t* A, const float* a_scale, const int32_t* zero, const int8_t* B,
                  const float* b_scale, const int32_t* b_sums, const float* bias, float* C, int N, int K, int cols) {
  const int8_t* b0 = B;
  const int8_t* b1 = B + (cols > 1 ? K : 0);
  const int8_t* b2 = B + (cols > 2 ? 2 * K : 0);
  const int8_t* b3 = B + (cols > 3 ? 3 * K : 0);
  v128_t s0, s1;
  dot_block(rows, split, A, A + K, b0, b1, b2, b3, K, &s0, &s1);
  const v128_t sums = lanes_i32(b_sums, cols), scale = lanes_f32(b_scale, cols);
  const v128_t b = bias ? lanes_f32(bias, cols) : wasm_f32x4_splat(0.0f);
  finish_row(s0, split ? 127 : zero[0], sums, a_scale[0], scale, b, C, cols);
  if (rows == 2) finish_row(s1, split ? 127 : zero[1], sums, a_scale[1], scale, b, C + N, cols);
}

// Both exports: the N loop outermost (4 rows of B stay in L1 while A streams past), rows in threes
// (u7) or pairs.
INLINE void gemm(int split, const uint8_t* A, const float* a_scale, const int32_t* zero, const int8_t* B,
                 const float* b_scale, const int32_t* b_sums, const float* bias, float* C, int M, int N, int K) {
  for (int n = 0; n < N; n += 4) {
    const int cols = N - n < 4 ? N - n : 4;
    const int8_t* Bn = B + (long)n * K;
    const float* bias_n = bias ? bias + n : 0;
    int m = 0;
    if (!split)
      for (; m + 3 <= M; m += 3)
        block3(A + (long)m * K, a_scale + m, zero + m, Bn, b_scale + n, b_sums + n, bias_n, C + (long)m * N + n, N, K,
               cols);
    for (; m + 2 <= M; m += 2)
      block(2, split, A + (long)m * K, a_scale + m, split ? 0 : zero + m, Bn, b_scale + n, b_sums + n, bias_n,
            C + (long)m * N + n, N, K, cols);
    if (m < M)
      block(1, split, A + (long)m * K, a_scale + m, split ? 0 : zero + m, Bn, b_scale + n, b_sums + n, bias_n,
            C + (long)m * N + n, N, K, cols);
  }
}

// kernels.h's gemm_u7i8_nt: U in 0..127 with per-row zero points (the shifted 7-bit scheme).
__attribute__((export_name("gemm_u7i8_nt"))) void gemm_u7i8_nt(const uint8_t* U, const float* a_scale,
                                                               const int32_t* zero, const int8_t* B,
                                                               const float* b_scale, const int32_t* b_sums,
                                                               const float* bias, float* C, int M, int N, int K) {
  gemm(0, U, a_scale, zero, B, b_scale, b_sums, bias, C, M, N, K);
}

// kernels.h's gemm_i8_nt (8-bit activations in −127..127, as quantize_rows gives them), bit for bit,
// given B's row sums: Σ_k b·a = Σ_k b·lo + Σ_k b·hi − 127·b_sums. Two relaxed dots per 16 values,
// as many multiply-adds an instruction as SIMD128's dot_i16x8 but without widening B to int16:
// measured in Chromium (AVX-512 Xeon, loaded machine, best of 300 short runs) 74–94 GOP/s at
// M = 1 against SIMD128's 45–55 (1x8000x256, the greedy step's full-vocabulary logits: 74 vs
// 49), and 81–94 against 65–74 at M = 2..30 (4x8000x256, the beam's: 82 vs 70).
__attribute__((export_name("gemm_i8_nt"))) void gemm_i8_nt(const int8_t* A, const float* a_scale, const int8_t* B,
                                                           const float* b_scale, const int32_t* b_sums,
                                                           const float* bias, float* C, int M, int N, int K) {
  gemm(1, (const uint8_t*)A, a_scale, 0, B, b_scale, b_sums, bias, C, M, N, K);
}
