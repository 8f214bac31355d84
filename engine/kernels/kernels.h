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
void softmax_rows(float* X, int M, int N);
void logsumexp_rows(const float* X, int M, int N, float* out);
void layer_norm_rows(const float* X, const float* gamma, const float* beta, float* Y, int M, int N, float eps);
void relu(float* X, size_t n);
void add(const float* a, const float* b, float* y, size_t n);
void argmax_rows(const float* X, int M, int N, int* out);
void block_max(const float* X, int N, int block, float* out);

}  // namespace nmt::kernels::ref
