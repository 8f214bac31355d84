// int8 GEMM with exact int32 sums: C = float(A·B^T) * (a_scale[m]·b_scale[n]) + bias[n].
//
// One blocked algorithm (`dot_block`) written once over a tiny per-ISA `Leaves` interface:
//   Wide   widen(const int8_t*)      load kStep int8 and sign-extend them to int16
//   Acc    madd(Acc, Wide, Wide)     acc += pairwise int16 products summed into int32 lanes
//   void   reduce4(a, b, c, d, out)  out[0..4] = lane sums of four accumulators
// Leaves exist for AVX-512BW (+VNNI), AVX2, WebAssembly SIMD128 and plain C++. Widening to int16
// first (instead of u8×s8 `maddubs`) keeps every product exact for any int8 value including -128,
// and `madd` (s16×s16 pairs → s32) cannot overflow.
//
// Blocking: 2 rows of A × 4 rows of B → 8 accumulators. Per K step the 2 widened A vectors are
// reused 4 times and each widened B vector twice. In wasm this is the shape measured fastest in
// V8 (~13 live vectors before it spills; see engine/BUILDING.md), and widening with load8x8 (one
// instruction) beats extend_low/high in Chromium. The N loop is outermost so the 4 B rows stay
// in L1 while all of A streams past. K tails (K not a multiple of kStep) are summed in scalar
// after the lane reduction, so any K is exact.
//
// Native run-time dispatch: the portable x86-64 build (AVX2) compiles this file a second time
// with AVX-512BW + VNNI (gemm_int8_avx512.cpp defines NMT_GEMM_ISA = avx512 and includes it), and
// the public functions at the end pick that copy where the CPU has both (__builtin_cpu_supports).
// Both copies compute the same exact int32 sums and the same epilogue, so results are identical.
// No standard-library code here: an inline std:: function compiled with AVX-512 in the second copy
// could be the one the linker keeps for both.

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__AVX2__)
#include <immintrin.h>
#endif

#include "kernels/kernels.h"
#include "kernels/unroll.h"

#ifndef NMT_GEMM_ISA
#define NMT_GEMM_ISA base  // this file's own flags: AVX2 (or -march=native) natively, SIMD128 in wasm
#endif

namespace nmt::kernels {
namespace NMT_GEMM_ISA {

#if defined(__wasm_simd128__)

struct Leaves {
  using Wide = v128_t;  // 8 × int16
  using Acc = v128_t;   // 4 × int32
  static constexpr int kStep = 8;
  static Acc zero() { return wasm_i32x4_splat(0); }
  static Wide widen(const int8_t* p) { return wasm_i16x8_load8x8(p); }
  // i32x4.dot_i16x8_s: lane i = a[2i]·b[2i] + a[2i+1]·b[2i+1]
  static Acc madd(Acc acc, Wide a, Wide b) { return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(a, b)); }
  // Transpose-and-add:
  //   ab = [a0 b0 a1 b1] + [a2 b2 a3 b3] = [a02 b02 a13 b13]      cd likewise
  //   [a02 b02 c02 d02] + [a13 b13 c13 d13] = [a b c d]
  static void reduce4(Acc a, Acc b, Acc c, Acc d, int32_t out[4]) {
    const v128_t ab = wasm_i32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
    const v128_t cd = wasm_i32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
    const v128_t s = wasm_i32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
    wasm_v128_store(out, s);
  }
};

#elif defined(__AVX2__)

// [a0..a7], [b0..b7], [c..], [d..] (int32) → [Σa Σb Σc Σd]
//   hadd(a,b)       = [a01 a23 b01 b23 | a45 a67 b45 b67]   (hadd works within 128-bit halves)
//   hadd(ab,cd)     = [a0-3 b0-3 c0-3 d0-3 | a4-7 b4-7 c4-7 d4-7]
//   low half + high half = [Σa Σb Σc Σd]
inline void reduce4_avx2(__m256i a, __m256i b, __m256i c, __m256i d, int32_t out[4]) {
  const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
  const __m128i s = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), s);
}

#if defined(__AVX512BW__)
struct Leaves {
  using Wide = __m512i;  // 32 × int16
  using Acc = __m512i;   // 16 × int32
  static constexpr int kStep = 32;
  static Acc zero() { return _mm512_setzero_si512(); }
  static Wide widen(const int8_t* p) {
    return _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static Acc madd(Acc acc, Wide a, Wide b) {
#if defined(__AVX512VNNI__)
    return _mm512_dpwssd_epi32(acc, a, b);  // fused madd + add
#else
    return _mm512_add_epi32(acc, _mm512_madd_epi16(a, b));
#endif
  }
  // Fold each 512-bit accumulator to 256 bits (low + high half), then reduce as AVX2.
  static __m256i fold(__m512i x) {
    return _mm256_add_epi32(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64(x, 1));
  }
  static void reduce4(Acc a, Acc b, Acc c, Acc d, int32_t out[4]) {
    reduce4_avx2(fold(a), fold(b), fold(c), fold(d), out);
  }
};
#else
struct Leaves {
  using Wide = __m256i;  // 16 × int16
  using Acc = __m256i;   // 8 × int32
  static constexpr int kStep = 16;
  static Acc zero() { return _mm256_setzero_si256(); }
  static Wide widen(const int8_t* p) {
    return _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  // vpmaddwd: lane i = a[2i]·b[2i] + a[2i+1]·b[2i+1]
  static Acc madd(Acc acc, Wide a, Wide b) { return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b)); }
  static void reduce4(Acc a, Acc b, Acc c, Acc d, int32_t out[4]) { reduce4_avx2(a, b, c, d, out); }
};
#endif

#else  // portable C++: one "lane", the compiler may auto-vectorize

struct Leaves {
  using Wide = int32_t;
  using Acc = int32_t;
  static constexpr int kStep = 1;
  static Acc zero() { return 0; }
  static Wide widen(const int8_t* p) { return *p; }
  static Acc madd(Acc acc, Wide a, Wide b) { return acc + a * b; }
  static void reduce4(Acc a, Acc b, Acc c, Acc d, int32_t out[4]) { out[0] = a, out[1] = b, out[2] = c, out[3] = d; }
};

#endif

constexpr int kRows = 2;  // MR: rows of A per block
constexpr int kCols = 4;  // NR: rows of B per block (reduce4 works on 4)

// sums[i][j] = Σ_k A[i,k]·B[j,k] for i < MR, j < NR (entries j ≥ NR are left 0).
template <int MR, int NR>
void dot_block(const int8_t* A, const int8_t* B, int K, int32_t sums[MR][kCols]) {
  using L = Leaves;
  typename L::Acc acc[MR][kCols];
  NMT_UNROLL for (int i = 0; i < MR; ++i) {
    NMT_UNROLL for (int j = 0; j < kCols; ++j) acc[i][j] = L::zero();
  }
  int k = 0;
  // One row of A (the decoder's step with one hypothesis): two K steps per iteration halve the
  // loop overhead, ~10% faster in V8 (unrolling by 4, or 2 rows by 2, measured slower). Integer
  // sums are exact in any order.
  if constexpr (MR == 1) {
    for (; k + 2 * L::kStep <= K; k += 2 * L::kStep) {
      NMT_UNROLL for (int u = 0; u < 2; ++u) {
        const typename L::Wide a = L::widen(A + k + u * L::kStep);
        NMT_UNROLL for (int j = 0; j < NR; ++j) acc[0][j] = L::madd(acc[0][j], a, L::widen(B + size_t(j) * K + k + u * L::kStep));
      }
    }
  }
  for (; k + L::kStep <= K; k += L::kStep) {
    typename L::Wide a[MR];
    NMT_UNROLL for (int i = 0; i < MR; ++i) a[i] = L::widen(A + size_t(i) * K + k);
    NMT_UNROLL for (int j = 0; j < NR; ++j) {
      const typename L::Wide b = L::widen(B + size_t(j) * K + k);
      NMT_UNROLL for (int i = 0; i < MR; ++i) acc[i][j] = L::madd(acc[i][j], a[i], b);
    }
  }
  NMT_UNROLL for (int i = 0; i < MR; ++i) L::reduce4(acc[i][0], acc[i][1], acc[i][2], acc[i][3], sums[i]);
  for (; k < K; ++k) {  // K tail, exact in int32
    for (int i = 0; i < MR; ++i) {
      for (int j = 0; j < NR; ++j) sums[i][j] += int32_t(A[size_t(i) * K + k]) * int32_t(B[size_t(j) * K + k]);
    }
  }
}

// The dequantizing epilogue of one entry: sum · scale + bias, a multiply then an add, rounded the
// same way in every block shape and as the wasm build rounds it. CMakeLists.txt compiles this file
// with -ffp-contract=off: left to itself GCC fused the two into an FMA in some loops and not in
// others (vectorized 2-row blocks vs the odd last row), so a sentence decoded differently alone
// and in a batch (3 of 100 flores lines, greedy, natively).
inline float epilogue(int32_t sum, float scale, float bias) { return float(sum) * scale + bias; }

// One MR×NR block of C: integer dot products, the shifted scheme's zero-point correction
// (a_zero/b_sums, nullptr for plain int8: sum −= zero[i]·b_sums[j], exact in int32), then the
// dequantizing epilogue.
template <int MR, int NR>
void block(const int8_t* A, const float* a_scale, const int32_t* a_zero, const int8_t* B, const float* b_scale,
           const int32_t* b_sums, const float* bias, float* C, int N, int K) {
  int32_t sums[MR][kCols];
  dot_block<MR, NR>(A, B, K, sums);
  if (a_zero) {
    for (int i = 0; i < MR; ++i) {
      for (int j = 0; j < NR; ++j) sums[i][j] -= a_zero[i] * b_sums[j];
    }
  }
#if defined(__wasm_simd128__)
  // A full block's epilogue as 4 lanes: the same operations (wasm has no fused multiply-add that
  // a compiler could contract the scalar form into), so the same results; measured ~7% faster at
  // M = 4 in node.
  if constexpr (NR == 4) {
    const v128_t bs = wasm_v128_load(b_scale);
    const v128_t b = bias ? wasm_v128_load(bias) : wasm_f32x4_splat(0.0f);
    for (int i = 0; i < MR; ++i) {
      const v128_t scale = wasm_f32x4_mul(wasm_f32x4_splat(a_scale[i]), bs);
      const v128_t c = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_v128_load(sums[i])), scale), b);
      wasm_v128_store(C + size_t(i) * N, c);
    }
    return;
  }
#endif
  for (int i = 0; i < MR; ++i) {
    for (int j = 0; j < NR; ++j) {
      C[size_t(i) * N + j] = epilogue(sums[i][j], a_scale[i] * b_scale[j], bias ? bias[j] : 0.0f);
    }
  }
}

template <int MR>
void block_cols(int cols, const int8_t* A, const float* a_scale, const int32_t* a_zero, const int8_t* B,
                const float* b_scale, const int32_t* b_sums, const float* bias, float* C, int N, int K) {
  static_assert(kCols == 4, "update the switch");
  switch (cols) {
    case 4: block<MR, 4>(A, a_scale, a_zero, B, b_scale, b_sums, bias, C, N, K); break;
    case 3: block<MR, 3>(A, a_scale, a_zero, B, b_scale, b_sums, bias, C, N, K); break;
    case 2: block<MR, 2>(A, a_scale, a_zero, B, b_scale, b_sums, bias, C, N, K); break;
    default: block<MR, 1>(A, a_scale, a_zero, B, b_scale, b_sums, bias, C, N, K); break;
  }
}

// Both public GEMMs: a_zero/b_sums are nullptr for plain int8.
void gemm(const int8_t* A, const float* a_scale, const int32_t* a_zero, const int8_t* B, const float* b_scale,
          const int32_t* b_sums, const float* bias, float* C, int M, int N, int K) {
  static_assert(kRows == 2, "update the row dispatch");
  for (int n = 0; n < N; n += kCols) {
    const int cols = N - n < kCols ? N - n : kCols;
    const int8_t* Bn = B + size_t(n) * K;
    const int32_t* sums_n = b_sums ? b_sums + n : nullptr;
    const float* bias_n = bias ? bias + n : nullptr;
    int m = 0;
    for (; m + 2 <= M; m += 2)
      block_cols<2>(cols, A + size_t(m) * K, a_scale + m, a_zero ? a_zero + m : nullptr, Bn, b_scale + n, sums_n,
                    bias_n, C + size_t(m) * N + n, N, K);
    if (m < M)
      block_cols<1>(cols, A + size_t(m) * K, a_scale + m, a_zero ? a_zero + m : nullptr, Bn, b_scale + n, sums_n,
                    bias_n, C + size_t(m) * N + n, N, K);
  }
}

}  // namespace NMT_GEMM_ISA

#ifndef NMT_GEMM_SECOND_COPY  // the public functions, once

#if defined(NMT_AVX512_DISPATCH)
namespace avx512 {  // gemm_int8_avx512.cpp
void gemm(const int8_t* A, const float* a_scale, const int32_t* a_zero, const int8_t* B, const float* b_scale,
          const int32_t* b_sums, const float* bias, float* C, int M, int N, int K);
}
#endif

namespace {

using GemmFn = void (*)(const int8_t*, const float*, const int32_t*, const int8_t*, const float*, const int32_t*,
                        const float*, float*, int, int, int);
struct Isa {
  const char* name;
  GemmFn gemm;
  bool available;
};

#if defined(__wasm_simd128__)
constexpr const char* kBaseName = "simd128";
#elif defined(__AVX512BW__)
constexpr const char* kBaseName = "avx512bw";
#elif defined(__AVX2__)
constexpr const char* kBaseName = "avx2";
#else
constexpr const char* kBaseName = "scalar";
#endif

#if defined(NMT_AVX512_DISPATCH)
bool cpu_has_avx512vnni() { return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vnni"); }
const Isa kIsas[] = {{kBaseName, base::gemm, true}, {"avx512vnni", avx512::gemm, cpu_has_avx512vnni()}};
#else
const Isa kIsas[] = {{kBaseName, base::gemm, true}};
#endif
constexpr int kIsaCount = int(sizeof(kIsas) / sizeof(kIsas[0]));

// The best available: the last one the CPU runs.
int best_isa() {
  int best = 0;
  for (int i = 0; i < kIsaCount; ++i)
    if (kIsas[i].available) best = i;
  return best;
}
int g_isa = best_isa();

bool same(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

}  // namespace

const char* int8_isa() { return kIsas[g_isa].name; }
int int8_isa_count() { return kIsaCount; }
const char* int8_isa_name(int i) { return i >= 0 && i < kIsaCount && kIsas[i].available ? kIsas[i].name : nullptr; }
bool set_int8_isa(const char* name) {
  for (int i = 0; i < kIsaCount; ++i) {
    if (kIsas[i].available && same(kIsas[i].name, name)) {
      g_isa = i;
      return true;
    }
  }
  return false;
}

void gemm_i8_nt(const int8_t* A, const float* a_scale, const int8_t* B, const float* b_scale, const float* bias,
                float* C, int M, int N, int K) {
  kIsas[g_isa].gemm(A, a_scale, nullptr, B, b_scale, nullptr, bias, C, M, N, K);
}

// The built-in shifted GEMM (shifted.cpp chooses between it and an installed relaxed kernel):
// U's values are 0..127, so as int8 they are the same numbers.
void gemm_u7i8_builtin(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B,
                       const float* b_scale, const int32_t* b_sums, const float* bias, float* C, int M, int N, int K) {
  kIsas[g_isa].gemm(reinterpret_cast<const int8_t*>(U), a_scale, zero, B, b_scale, b_sums, bias, C, M, N, K);
}

#endif  // NMT_GEMM_SECOND_COPY

}  // namespace nmt::kernels
