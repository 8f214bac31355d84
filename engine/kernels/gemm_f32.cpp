// f32 GEMMs on xsimd batches (AVX2/AVX-512 natively, SSE4.1 → SIMD128 in wasm).
//
// gemm_f32_nt (C = A·B^T, B in nn.Linear [out, in] layout) is a set of dot products along K. The
// output is tiled into MR×NR register blocks: per K step we load MR rows of A and NR rows of B and
// do MR·NR fused multiply-adds into MR·NR vector accumulators, then reduce each accumulator across
// lanes once at the end. 2×4 keeps 8 accumulators + 3 operands live, below the ~13 vectors V8
// can hold without spilling, and gives AVX2 enough independent FMAs to hide their latency.
// The N loop is outside the M loop so the NR rows of B stay in L1 while every row of A passes.
//
// gemm_f32_nn (C = A·B, used for attention weights × values) is axpy-shaped: each C row is a sum
// of B rows scaled by A's entries, vectorized along N with MR×NV accumulators (a broadcast of
// A[m,k] times NV vectors of B's row k).
//
// With one row of A (a decoder step's attention: one query) each accumulator is one dependent
// chain of adds, so both take more columns a block then (nt 8, nn 4 vectors): more chains in
// flight. Every output is still summed over K in the same order, so results do not change
// (Node, one head of 64 against 20..60 keys: nt 0.10-0.37 -> 0.09-0.27 us, nn 0.11-0.63 -> 0.07-0.26 us).
//
// K tails (dot products) and N tails (axpy) fall back to scalar loops.
#include <algorithm>

#include "kernels/kernels.h"
#include "kernels/simd.h"
#include "kernels/unroll.h"

namespace nmt::kernels {
namespace {

using Batch = xsimd::batch<float>;
constexpr int W = int(Batch::size);

// ----- gemm_f32_nt -------------------------------------------------------------------------------

constexpr int kNtRows = 2;  // MR: rows of A per block
constexpr int kNtCols = 4;  // NR: rows of B (columns of C) per block
constexpr int kNtColsOneRow = 8;  // NR when A has one row (a decoder step's attention scores)

// C[0..MR, 0..NR] = A[0..MR, :] · B[0..NR, :]^T (+ bias[0..NR])
template <int MR, int NR>
void nt_block(const float* A, int lda, const float* B, int ldb, const float* bias, float* C, int ldc, int K) {
  Batch acc[MR][NR];
  NMT_UNROLL for (int i = 0; i < MR; ++i) {
    NMT_UNROLL for (int j = 0; j < NR; ++j) acc[i][j] = Batch(0.0f);
  }
  int k = 0;
  for (; k + W <= K; k += W) {
    Batch a[MR];
    NMT_UNROLL for (int i = 0; i < MR; ++i) a[i] = Batch::load_unaligned(A + size_t(i) * lda + k);
    NMT_UNROLL for (int j = 0; j < NR; ++j) {
      const Batch b = Batch::load_unaligned(B + size_t(j) * ldb + k);
      NMT_UNROLL for (int i = 0; i < MR; ++i) acc[i][j] = xsimd::fma(a[i], b, acc[i][j]);
    }
  }
  NMT_UNROLL for (int i = 0; i < MR; ++i) {
    NMT_UNROLL for (int j = 0; j < NR; ++j) {
      float sum = xsimd::hadd(acc[i][j]);
      for (int t = k; t < K; ++t) sum += A[size_t(i) * lda + t] * B[size_t(j) * ldb + t];
      C[size_t(i) * ldc + j] = sum + (bias ? bias[j] : 0.0f);
    }
  }
}

// Picks the template instance for a (rows ≤ MR, cols ≤ NR) edge block.
template <int MR>
void nt_block_cols(int cols, const float* A, int lda, const float* B, int ldb, const float* bias, float* C, int ldc,
                   int K) {
  static_assert(kNtCols == 4, "update the switch");
  switch (cols) {
    case 4: nt_block<MR, 4>(A, lda, B, ldb, bias, C, ldc, K); break;
    case 3: nt_block<MR, 3>(A, lda, B, ldb, bias, C, ldc, K); break;
    case 2: nt_block<MR, 2>(A, lda, B, ldb, bias, C, ldc, K); break;
    default: nt_block<MR, 1>(A, lda, B, ldb, bias, C, ldc, K); break;
  }
}

// ----- gemm_f32_nn -------------------------------------------------------------------------------

constexpr int kNnRows = 4;  // MR: rows of A (and C) per block
constexpr int kNnVecs = 2;  // NV: vectors of C columns per block
constexpr int kNnVecsOneRow = 4;  // NV when A has one row (a decoder step's weights × values)

// C[0..MR, 0..NV·W] = A[0..MR, :] · B[:, 0..NV·W]
template <int MR, int NV>
void nn_block(const float* A, int lda, const float* B, int ldb, float* C, int ldc, int K) {
  Batch acc[MR][NV];
  NMT_UNROLL for (int i = 0; i < MR; ++i) {
    NMT_UNROLL for (int v = 0; v < NV; ++v) acc[i][v] = Batch(0.0f);
  }
  for (int k = 0; k < K; ++k) {
    Batch b[NV];
    NMT_UNROLL for (int v = 0; v < NV; ++v) b[v] = Batch::load_unaligned(B + size_t(k) * ldb + v * W);
    NMT_UNROLL for (int i = 0; i < MR; ++i) {
      const Batch a(A[size_t(i) * lda + k]);
      NMT_UNROLL for (int v = 0; v < NV; ++v) acc[i][v] = xsimd::fma(a, b[v], acc[i][v]);
    }
  }
  NMT_UNROLL for (int i = 0; i < MR; ++i) {
    NMT_UNROLL for (int v = 0; v < NV; ++v) acc[i][v].store_unaligned(C + size_t(i) * ldc + v * W);
  }
}

template <int MR, int NV = kNnVecs>
void nn_rows(const float* A, int lda, const float* B, int ldb, float* C, int ldc, int N, int K) {
  int n = 0;
  for (; n + NV * W <= N; n += NV * W) nn_block<MR, NV>(A, lda, B + n, ldb, C + n, ldc, K);
  for (; n + kNnVecs * W <= N; n += kNnVecs * W) nn_block<MR, kNnVecs>(A, lda, B + n, ldb, C + n, ldc, K);
  for (; n + W <= N; n += W) nn_block<MR, 1>(A, lda, B + n, ldb, C + n, ldc, K);
  for (; n < N; ++n) {  // fewer than W columns left
    for (int i = 0; i < MR; ++i) {
      float sum = 0.0f;
      for (int k = 0; k < K; ++k) sum += A[size_t(i) * lda + k] * B[size_t(k) * ldb + n];
      C[size_t(i) * ldc + n] = sum;
    }
  }
}

}  // namespace

void gemm_f32_nt(const float* A, int lda, const float* B, int ldb, const float* bias, float* C, int ldc, int M, int N,
                 int K) {
  static_assert(kNtRows == 2, "update the row dispatch");
  int n = 0;
  if (M == 1)  // one row of A (a decoder step's attention scores): 8 sums in flight, not 4
    for (; n + kNtColsOneRow <= N; n += kNtColsOneRow)
      nt_block<1, kNtColsOneRow>(A, lda, B + size_t(n) * ldb, ldb, bias ? bias + n : nullptr, C + n, ldc, K);
  for (; n < N; n += kNtCols) {
    const int cols = std::min(kNtCols, N - n);
    const float* Bn = B + size_t(n) * ldb;
    const float* bias_n = bias ? bias + n : nullptr;
    int m = 0;
    for (; m + 2 <= M; m += 2)
      nt_block_cols<2>(cols, A + size_t(m) * lda, lda, Bn, ldb, bias_n, C + size_t(m) * ldc + n, ldc, K);
    if (m < M) nt_block_cols<1>(cols, A + size_t(m) * lda, lda, Bn, ldb, bias_n, C + size_t(m) * ldc + n, ldc, K);
  }
}

void gemm_f32_nn(const float* A, int lda, const float* B, int ldb, float* C, int ldc, int M, int N, int K) {
  static_assert(kNnRows == 4, "update the row dispatch");
  int m = 0;
  for (; m + 4 <= M; m += 4) nn_rows<4>(A + size_t(m) * lda, lda, B, ldb, C + size_t(m) * ldc, ldc, N, K);
  switch (M - m) {
    case 3: nn_rows<3>(A + size_t(m) * lda, lda, B, ldb, C + size_t(m) * ldc, ldc, N, K); break;
    case 2: nn_rows<2>(A + size_t(m) * lda, lda, B, ldb, C + size_t(m) * ldc, ldc, N, K); break;
    case 1: nn_rows<1, kNnVecsOneRow>(A + size_t(m) * lda, lda, B, ldb, C + size_t(m) * ldc, ldc, N, K); break;
    default: break;
  }
}

}  // namespace nmt::kernels
