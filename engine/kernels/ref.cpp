// Scalar reference kernels: the maths of kernels.h written as the plainest loops, in float32 like
// PyTorch. They are the oracle for the tests and the baseline for the benchmark, so they stay
// naive on purpose (no blocking, no tricks); the fast kernels must agree with them.
#include <algorithm>
#include <cmath>

#include "kernels/kernels.h"

namespace nmt::kernels::ref {

void gemm_f32_nt(const float* A, int lda, const float* B, int ldb, const float* bias, float* C, int ldc, int M, int N,
                 int K) {
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      float sum = 0.0f;
      for (int k = 0; k < K; ++k) sum += A[size_t(m) * lda + k] * B[size_t(n) * ldb + k];
      C[size_t(m) * ldc + n] = sum + (bias ? bias[n] : 0.0f);
    }
  }
}

void gemm_f32_nn(const float* A, int lda, const float* B, int ldb, float* C, int ldc, int M, int N, int K) {
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      float sum = 0.0f;
      for (int k = 0; k < K; ++k) sum += A[size_t(m) * lda + k] * B[size_t(k) * ldb + n];
      C[size_t(m) * ldc + n] = sum;
    }
  }
}

void quantize_rows(const float* X, int8_t* Q, float* scale, int M, int K) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * K;
    float max_abs = 0.0f;
    for (int k = 0; k < K; ++k) max_abs = std::max(max_abs, std::fabs(x[k]));
    const float s = std::max(max_abs, 1e-12f) / 127.0f;
    scale[m] = s;
    for (int k = 0; k < K; ++k) {
      const float q = std::nearbyint(x[k] / s);  // default rounding mode: half to even
      Q[size_t(m) * K + k] = int8_t(std::min(127.0f, std::max(-127.0f, q)));
    }
  }
}

void gemm_i8_nt(const int8_t* A, const float* a_scale, const int8_t* B, const float* b_scale, const float* bias,
                float* C, int M, int N, int K) {
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      int32_t sum = 0;
      for (int k = 0; k < K; ++k) sum += int32_t(A[size_t(m) * K + k]) * int32_t(B[size_t(n) * K + k]);
      C[size_t(m) * N + n] = float(sum) * (a_scale[m] * b_scale[n]) + (bias ? bias[n] : 0.0f);
    }
  }
}

void quantize_rows_u7(const float* X, uint8_t* U, float* scale, int32_t* zero, int M, int K) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * K;
    float lo = 0.0f, hi = 0.0f;
    for (int k = 0; k < K; ++k) lo = std::min(lo, x[k]), hi = std::max(hi, x[k]);
    const float range = hi - lo;  // ±inf past float's limits
    const float s = std::isfinite(range) ? std::max(range, 1e-12f) / 127.0f : hi / 127.0f - lo / 127.0f;
    const int32_t z = int32_t(std::min(127.0f, std::nearbyint(-lo / s)));
    scale[m] = s;
    zero[m] = z;
    for (int k = 0; k < K; ++k) {
      const float q = std::min(float(127 - z), std::max(float(-z), std::nearbyint(x[k] / s)));
      U[size_t(m) * K + k] = uint8_t(int(q) + z);
    }
  }
}

void row_sums_i8(const int8_t* B, int N, int K, int32_t* sums) {
  for (int n = 0; n < N; ++n) {
    int32_t sum = 0;
    for (int k = 0; k < K; ++k) sum += B[size_t(n) * K + k];
    sums[n] = sum;
  }
}

void gemm_u7i8_nt(const uint8_t* U, const float* a_scale, const int32_t* zero, const int8_t* B, const float* b_scale,
                  const int32_t* b_sums, const float* bias, float* C, int M, int N, int K) {
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      int32_t sum = 0;
      for (int k = 0; k < K; ++k) sum += int32_t(U[size_t(m) * K + k]) * int32_t(B[size_t(n) * K + k]);
      sum -= zero[m] * b_sums[n];
      C[size_t(m) * N + n] = float(sum) * (a_scale[m] * b_scale[n]) + (bias ? bias[n] : 0.0f);
    }
  }
}

void softmax_rows(float* X, int M, int N) {
  for (int m = 0; m < M; ++m) {
    float* x = X + size_t(m) * N;
    float max = -INFINITY;
    for (int n = 0; n < N; ++n) max = std::max(max, x[n]);
    if (max == -INFINITY) {  // fully masked row: zeros rather than NaN
      for (int n = 0; n < N; ++n) x[n] = 0.0f;
      continue;
    }
    float sum = 0.0f;
    for (int n = 0; n < N; ++n) sum += (x[n] = std::exp(x[n] - max));
    for (int n = 0; n < N; ++n) x[n] /= sum;
  }
}

void logsumexp_rows(const float* X, int M, int N, float* out) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * N;
    float max = -INFINITY;
    for (int n = 0; n < N; ++n) max = std::max(max, x[n]);
    if (max == -INFINITY) {
      out[m] = -INFINITY;
      continue;
    }
    float sum = 0.0f;
    for (int n = 0; n < N; ++n) sum += std::exp(x[n] - max);
    out[m] = max + std::log(sum);
  }
}

void layer_norm_rows(const float* X, const float* gamma, const float* beta, float* Y, int M, int N, float eps) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * N;
    float* y = Y + size_t(m) * N;
    float mean = 0.0f;
    for (int n = 0; n < N; ++n) mean += x[n];
    mean /= float(N);
    float var = 0.0f;
    for (int n = 0; n < N; ++n) var += (x[n] - mean) * (x[n] - mean);
    var /= float(N);
    const float rstd = 1.0f / std::sqrt(var + eps);
    for (int n = 0; n < N; ++n) y[n] = (x[n] - mean) * rstd * gamma[n] + beta[n];
  }
}

void relu(float* X, size_t n) {
  for (size_t i = 0; i < n; ++i) X[i] = std::max(X[i], 0.0f);
}

void add(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] + b[i];
}

void argmax_rows(const float* X, int M, int N, int* out) {
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * N;
    int best = 0;
    for (int n = 1; n < N; ++n)
      if (x[n] > x[best]) best = n;
    out[m] = best;
  }
}

void block_max(const float* X, int N, int block, float* out) {
  for (int b = 0; b * block < N; ++b) {
    float m = -INFINITY;
    for (int n = b * block; n < std::min(N, (b + 1) * block); ++n) m = X[n] > m ? X[n] : m;
    out[b] = m;
  }
}

}  // namespace nmt::kernels::ref
