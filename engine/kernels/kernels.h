// Compute kernels for the Transformer: f32 and int8 GEMMs, row quantization, softmax, log-sum-exp, layer norm,
// and the small element-wise ops. Every kernel has a plain scalar twin in `nmt::kernels::ref` with
// the same signature; tests compare the two on odd sizes, and the benchmark measures one against
// the other. Matrices are row-major; `lda/ldb/ldc` are row strides in elements, so a head's slice
// of a [T, d_model] matrix is used in place. Nothing here allocates or fails: sizes are trusted.
// The fast versions are vectorized with xsimd (AVX2 / AVX-512 natively, SSE4.1 mapped onto
// SIMD128 in WebAssembly); the int8 GEMM has hand-written AVX2, AVX-512BW and SIMD128 paths.
//
//   float C[M * N];
//   nmt::kernels::gemm_f32_nt(x, d_model, w, d_model, bias, C, N, M, N, d_model);  // y = x W^T + b
#pragma once

#include <cstddef>
#include <cstdint>

namespace nmt::kernels {

// C[M,N] = A[M,K] · B[N,K]^T (+ bias[N] if bias != nullptr). B in PyTorch nn.Linear layout [out, in].
void gemm_f32_nt(const float* A, int lda, const float* B, int ldb, const float* bias, float* C, int ldc, int M, int N,
                 int K);
// C[M,N] = A[M,K] · B[K,N]   (attention weights × values)
void gemm_f32_nn(const float* A, int lda, const float* B, int ldb, float* C, int ldc, int M, int N, int K);
// scale[m] = max(max_k |X[m,k]|, 1e-12f) / 127;  Q[m,k] = clamp(round_half_even(X[m,k] / scale[m]), -127, 127)
void quantize_rows(const float* X, int8_t* Q, float* scale, int M, int K);
// C[M,N] = float(Σ_k A[m,k]·B[n,k] in exact int32) * (a_scale[m] * b_scale[n]) + bias[n]; A,B,C contiguous.
void gemm_i8_nt(const int8_t* A, const float* a_scale, const int8_t* B, const float* b_scale, const float* bias,
                float* C, int M, int N, int K);
// The "shifted" 7-bit scheme of the relaxed-SIMD GEMM (kernels/gemm_relaxed.c; engine/BUILDING.md):
// activations as unsigned 7-bit U in 0..127 with a zero point, so that relaxed SIMD's i7 operand
// never has its top bit set and every browser computes the same sums. Per row m, asymmetric over
// the row's range with 0 exact: lo = min(0, min X[m,:]), hi = max(0, max X[m,:]),
//   scale[m] = max(hi - lo, 1e-12f) / 127  (hi/127 - lo/127 where hi - lo overflows)
//   zero[m] = min(round(-lo / scale[m]), 127),  U = clamp(round(X / scale), -zero, 127 - zero) + zero
// (round half to even; a ReLU's output gets zero 0 and all 7 bits, as the 8-bit scheme gives it.)
void quantize_rows_u7(const float* X, uint8_t* U, float* scale, int32_t* zero, int M, int K);
// sums[n] = Σ_k B[n,k]: the weights' row sums the shifted GEMM subtracts zero[m] times.
void row_sums_i8(const int8_t* B, int N, int K, int32_t* sums);
// C[M,N] = float(Σ_k U[m,k]·B[n,k] − zero[m]·b_sums[n] in exact int32) * (a_scale[m] * b_scale[n]) + bias[n]
// (= gemm_i8_nt on the signed values U − zero). Runs the relaxed-SIMD kernel when one is installed
// (set_u7_gemm), else the blocked int8 kernel.
void gemm_u7i8_nt(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B, const float* b_scale,
                  const int32_t* b_sums, const float* bias, float* C, int M, int N, int K);

// Which activation scheme the engine's int8 Linears use: `exact8` (quantize_rows + gemm_i8_nt,
// the default), `shifted7` (quantize_rows_u7 + gemm_u7i8_nt everywhere), or `mixed`: shifted7 in
// every Linear but the output projection, which keeps exact8. In WebAssembly the relaxed-SIMD
// kernels (set_u7_gemm, set_i8_gemm) come with `shifted7` (or `mixed`, to compare; both within
// ±0.2 BLEU of exact8, kernels/shifted.cpp); natively the environment variable
// NMT_INT8_SCHEME=shifted7|mixed selects one, to measure its accuracy.
enum class Int8Scheme { exact8, shifted7, mixed };
// The scheme a Linear uses: exact8 or shifted7 (`mixed` resolved by whether it is the output projection).
Int8Scheme int8_scheme_for(bool output_projection);
Int8Scheme int8_scheme();
void set_int8_scheme(Int8Scheme scheme);
// An external gemm_u7i8_nt (the relaxed-SIMD module in a browser), or nullptr for the built-in one.
using U7GemmFn = void (*)(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B,
                          const float* b_scale, const int32_t* b_sums, const float* bias, float* C, int M, int N, int K);
void set_u7_gemm(U7GemmFn fn);
// gemm_i8_nt given B's row sums (row_sums_i8), which an external kernel needs: the relaxed-SIMD
// module's exact 8-bit GEMM (set_i8_gemm; A in -127..127 as quantize_rows gives it) when one is
// installed and b_sums is not nullptr, else gemm_i8_nt. Same results either way, bit for bit.
void gemm_i8_nt_sums(const int8_t* A, const float* a_scale, const int8_t* B, const float* b_scale,
                     const int32_t* b_sums, const float* bias, float* C, int M, int N, int K);
using I8GemmFn = void (*)(const int8_t* A, const float* a_scale, const int8_t* B, const float* b_scale,
                          const int32_t* b_sums, const float* bias, float* C, int M, int N, int K);
void set_i8_gemm(I8GemmFn fn);
// The int8 GEMM's instruction set, chosen once at start-up (gemm_int8.cpp): the portable x86-64
// build also carries an AVX-512BW + VNNI copy, used where the CPU has both. Names: "avx2",
// "avx512vnni", "avx512bw" (a -march=native build), "simd128", "scalar". int8_isa_name(i) is
// nullptr for one this CPU lacks; set_int8_isa forces an available one (tests, benchmarks).
const char* int8_isa();
int int8_isa_count();
const char* int8_isa_name(int i);
bool set_int8_isa(const char* name);
// X[m,:] = exp(X[m,:] - max X[m,:]) / Σ exp(...), in place; -INFINITY gives 0 (a row of only -INFINITY gives 0s).
void softmax_rows(float* X, int M, int N);
// out[m] = log Σ_n exp(X[m,n]) = max + log Σ exp(X[m,:] - max) (a token's log-probability is its logit
// minus this); -INFINITY for a row of only -INFINITY.
void logsumexp_rows(const float* X, int M, int N, float* out);
// Y[m,:] = (X[m,:] - mean) / sqrt(var + eps) * gamma + beta, biased variance (torch.nn.LayerNorm). Y may alias X.
void layer_norm_rows(const float* X, const float* gamma, const float* beta, float* Y, int M, int N, float eps);
// X = max(X, 0)
void relu(float* X, size_t n);
// y = a + b; y may alias a or b
void add(const float* a, const float* b, float* y, size_t n);
// out[m] = argmax_n X[m,n], the first index on ties (greedy decoding).
void argmax_rows(const float* X, int M, int N, int* out);
// out[b] = max X[b·block .. min(N, (b+1)·block)) for b < ceil(N / block): lets the beam's top-k
// skip blocks that cannot hold a candidate. Input without NaN (max of -INFINITY only is -INFINITY).
void block_max(const float* X, int N, int block, float* out);

}  // namespace nmt::kernels

// Plain scalar loops computing exactly the maths in the comments above (ref.cpp).
namespace nmt::kernels::ref {

void gemm_f32_nt(const float* A, int lda, const float* B, int ldb, const float* bias, float* C, int ldc, int M, int N,
                 int K);
void gemm_f32_nn(const float* A, int lda, const float* B, int ldb, float* C, int ldc, int M, int N, int K);
void quantize_rows(const float* X, int8_t* Q, float* scale, int M, int K);
void gemm_i8_nt(const int8_t* A, const float* a_scale, const int8_t* B, const float* b_scale, const float* bias,
                float* C, int M, int N, int K);
void quantize_rows_u7(const float* X, uint8_t* U, float* scale, int32_t* zero, int M, int K);
void row_sums_i8(const int8_t* B, int N, int K, int32_t* sums);
void gemm_u7i8_nt(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B, const float* b_scale,
                  const int32_t* b_sums, const float* bias, float* C, int M, int N, int K);
void softmax_rows(float* X, int M, int N);
void logsumexp_rows(const float* X, int M, int N, float* out);
void layer_norm_rows(const float* X, const float* gamma, const float* beta, float* Y, int M, int N, float eps);
void relu(float* X, size_t n);
void add(const float* a, const float* b, float* y, size_t n);
void argmax_rows(const float* X, int M, int N, int* out);
void block_max(const float* X, int N, int block, float* out);

}  // namespace nmt::kernels::ref
