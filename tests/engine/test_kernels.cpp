// Kernel tests: every fast kernel against its scalar twin in nmt::kernels::ref, on sizes from 1 to
// a few SIMD widths (so every main loop, tail and edge block runs), with strided operands, and
// with sentinel padding after every output to catch writes past the end. The same file runs
// natively (AVX2 / AVX-512) and in node (SIMD128), so each ISA's leaves are checked.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/kernels.h"

namespace k = nmt::kernels;

namespace {

constexpr float kSentinel = -12345.5f;
constexpr int kPad = 64;  // sentinel elements after each output

// xorshift32: deterministic and identical on every platform.
struct Rng {
  uint32_t s = 0x9E3779B9u;
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 8) * (1.0f / 16777216.0f); }
  int8_t i8() { return int8_t(int(next() >> 24) - 128); }  // full range [-128, 127]
};

std::vector<float> random_floats(Rng& rng, size_t n, float lo = -1.0f, float hi = 1.0f) {
  std::vector<float> v(n);
  for (float& x : v) x = rng.uniform(lo, hi);
  return v;
}

// A [rows, ld] output buffer whose columns >= cols and whole tail are sentinels.
std::vector<float> sentinel_buffer(int rows, int ld) { return std::vector<float>(size_t(rows) * ld + kPad, kSentinel); }

// Everything outside the [rows, cols] window of a [rows, ld] buffer must still be the sentinel.
void check_untouched(const std::vector<float>& c, int rows, int cols, int ld) {
  for (size_t i = 0; i < c.size(); ++i) {
    const bool inside = i < size_t(rows) * ld && int(i % ld) < cols;
    if (!inside && c[i] != kSentinel) {
      FAIL("wrote outside the output at element " << i);
      return;
    }
  }
}

const int kMs[] = {1, 2, 3, 5};
const int kNs[] = {1, 7, 9, 17, 33};
const int kKs[] = {1, 3, 15, 16, 17, 31, 64, 100};

}  // namespace

// The worked example from "The Attention Mechanism from Scratch" (machinelearningmastery.com),
// computed with our kernels: Q/K/V projections (gemm_f32_nn), scores Q·K^T (gemm_f32_nt), softmax, × V.
TEST_CASE("kernels: worked attention example") {
  const float words[4 * 3] = {1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1};  // [4 words, 3]
  const float W_Q[3 * 3] = {2, 0, 2, 2, 0, 0, 2, 1, 2};             // numpy seed 42 randint(3)
  const float W_K[3 * 3] = {2, 2, 2, 0, 2, 1, 0, 1, 1};
  const float W_V[3 * 3] = {1, 1, 0, 0, 1, 1, 0, 0, 0};
  float Q[4 * 3], K[4 * 3], V[4 * 3], scores[4 * 4], attention[4 * 3];
  k::gemm_f32_nn(words, 3, W_Q, 3, Q, 3, 4, 3, 3);
  k::gemm_f32_nn(words, 3, W_K, 3, K, 3, 4, 3, 3);
  k::gemm_f32_nn(words, 3, W_V, 3, V, 3, 4, 3, 3);
  k::gemm_f32_nt(Q, 3, K, 3, nullptr, scores, 4, 4, 4, 3);  // Q · K^T
  for (float& s : scores) s /= std::sqrt(3.0f);
  k::softmax_rows(scores, 4, 4);
  k::gemm_f32_nn(scores, 4, V, 3, attention, 3, 4, 3, 4);
  const float expected[4 * 3] = {0.98522025f, 1.74174051f, 0.75652026f, 0.90965265f, 1.40965265f, 0.5f,
                                 0.99851226f, 1.75849334f, 0.75998108f, 0.99560386f, 1.90407309f, 0.90846923f};
  for (int i = 0; i < 12; ++i) CHECK(std::fabs(attention[i] - expected[i]) <= 1e-6f);
}

TEST_CASE("kernels: gemm_f32_nt matches the reference (odd shapes, strides, bias)") {
  Rng rng;
  for (int M : kMs)
    for (int N : kNs)
      for (int K : kKs)
        for (int strided = 0; strided < 2; ++strided)
          for (int with_bias = 0; with_bias < 2; ++with_bias) {
            const int lda = K + 3 * strided, ldb = K + 5 * strided, ldc = N + 2 * strided;
            const std::vector<float> A = random_floats(rng, size_t(M) * lda);
            const std::vector<float> B = random_floats(rng, size_t(N) * ldb);
            const std::vector<float> bias = random_floats(rng, N);
            const float* b = with_bias ? bias.data() : nullptr;
            std::vector<float> C = sentinel_buffer(M, ldc), R = sentinel_buffer(M, ldc);
            k::gemm_f32_nt(A.data(), lda, B.data(), ldb, b, C.data(), ldc, M, N, K);
            k::ref::gemm_f32_nt(A.data(), lda, B.data(), ldb, b, R.data(), ldc, M, N, K);
            INFO("M=", M, " N=", N, " K=", K, " strided=", strided, " bias=", with_bias);
            for (int m = 0; m < M; ++m)
              for (int n = 0; n < N; ++n) {
                float mag = b ? std::fabs(b[n]) : 0.0f;  // error scale: Σ|a·b|
                for (int t = 0; t < K; ++t) mag += std::fabs(A[size_t(m) * lda + t] * B[size_t(n) * ldb + t]);
                REQUIRE(std::fabs(C[size_t(m) * ldc + n] - R[size_t(m) * ldc + n]) <= 1e-5f * mag + 1e-7f);
              }
            check_untouched(C, M, N, ldc);
          }
}

TEST_CASE("kernels: gemm_f32_nt on the model's shapes") {
  Rng rng;
  const int shapes[][3] = {{1, 1024, 256}, {4, 256, 1024}, {8, 300, 256}, {3, 64, 64}};
  for (const auto& s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    const std::vector<float> A = random_floats(rng, size_t(M) * K), B = random_floats(rng, size_t(N) * K);
    const std::vector<float> bias = random_floats(rng, N);
    std::vector<float> C = sentinel_buffer(M, N), R = sentinel_buffer(M, N);
    k::gemm_f32_nt(A.data(), K, B.data(), K, bias.data(), C.data(), N, M, N, K);
    k::ref::gemm_f32_nt(A.data(), K, B.data(), K, bias.data(), R.data(), N, M, N, K);
    for (int i = 0; i < M * N; ++i) REQUIRE(std::fabs(C[i] - R[i]) <= 1e-4f);
    check_untouched(C, M, N, N);
  }
}

TEST_CASE("kernels: gemm_f32_nn matches the reference (odd shapes, strides)") {
  Rng rng;
  for (int M : kMs)
    for (int N : kNs)
      for (int K : kKs)
        for (int strided = 0; strided < 2; ++strided) {
          const int lda = K + 3 * strided, ldb = N + 5 * strided, ldc = N + 2 * strided;
          const std::vector<float> A = random_floats(rng, size_t(M) * lda);
          const std::vector<float> B = random_floats(rng, size_t(K) * ldb);
          std::vector<float> C = sentinel_buffer(M, ldc), R = sentinel_buffer(M, ldc);
          k::gemm_f32_nn(A.data(), lda, B.data(), ldb, C.data(), ldc, M, N, K);
          k::ref::gemm_f32_nn(A.data(), lda, B.data(), ldb, R.data(), ldc, M, N, K);
          INFO("M=", M, " N=", N, " K=", K, " strided=", strided);
          for (int m = 0; m < M; ++m)
            for (int n = 0; n < N; ++n) {
              float mag = 0.0f;
              for (int t = 0; t < K; ++t) mag += std::fabs(A[size_t(m) * lda + t] * B[size_t(t) * ldb + n]);
              REQUIRE(std::fabs(C[size_t(m) * ldc + n] - R[size_t(m) * ldc + n]) <= 1e-5f * mag + 1e-7f);
            }
          check_untouched(C, M, N, ldc);
        }
}

TEST_CASE("kernels: quantize_rows is exact, ties to even, zero rows") {
  SUBCASE("matches the reference bit for bit") {
    Rng rng;
    for (int M : kMs)
      for (int K : {1, 3, 15, 16, 17, 31, 33, 64, 100, 256}) {
        const std::vector<float> X = random_floats(rng, size_t(M) * K, -3.0f, 3.0f);
        std::vector<int8_t> Q(size_t(M) * K + kPad, 77), RQ(size_t(M) * K + kPad, 77);
        std::vector<float> s(M + kPad, kSentinel), rs(M + kPad, kSentinel);
        k::quantize_rows(X.data(), Q.data(), s.data(), M, K);
        k::ref::quantize_rows(X.data(), RQ.data(), rs.data(), M, K);
        INFO("M=", M, " K=", K);
        REQUIRE(Q == RQ);  // padding included: both must leave it at 77
        REQUIRE(s == rs);
      }
  }
  SUBCASE("halves round to even, in the vector body and in the tail") {
    // max |x| = 127 makes scale exactly 1, so x / scale = x: the ties are exact.
    const float ties[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 3.5f, 126.5f, -126.5f, 127.0f, 4.5f, -3.5f};
    const int expected[] = {0, 2, 2, 0, -2, -2, 4, 126, -126, 127, 4, -4};
    const int K = 37;  // 12 ties at the start and again at the end (the scalar tail on every ISA)
    std::vector<float> X(K, 0.25f);
    for (int i = 0; i < 12; ++i) X[i] = X[K - 12 + i] = ties[i];
    std::vector<int8_t> Q(K + kPad, 77);
    float scale[1 + 1] = {0.0f, kSentinel};
    k::quantize_rows(X.data(), Q.data(), scale, 1, K);
    CHECK(scale[0] == 1.0f);
    CHECK(scale[1] == kSentinel);
    for (int i = 0; i < 12; ++i) {
      CHECK(int(Q[i]) == expected[i]);
      CHECK(int(Q[K - 12 + i]) == expected[i]);
    }
    CHECK(int(Q[20]) == 0);  // 0.25 rounds to 0
    CHECK(int(Q[K]) == 77);
    // scale 2 (max 254): 5/2 = 2.5 → 2, 7/2 = 3.5 → 4, -5/2 → -2
    const float X2[5] = {254.0f, 5.0f, 7.0f, -5.0f, -254.0f};
    int8_t Q2[5];
    float s2;
    k::quantize_rows(X2, Q2, &s2, 1, 5);
    CHECK(s2 == 2.0f);
    CHECK(int(Q2[1]) == 2);
    CHECK(int(Q2[2]) == 4);
    CHECK(int(Q2[3]) == -2);
    CHECK(int(Q2[4]) == -127);
  }
  SUBCASE("zero rows: scale 1e-12/127, all zeros") {
    const int M = 3, K = 19;
    std::vector<float> X(size_t(M) * K, 0.0f);
    X[K + 4] = -0.0f;
    X[2 * K + 18] = 1.0f;  // row 2 is not zero
    std::vector<int8_t> Q(size_t(M) * K, 5);
    float scale[M];
    k::quantize_rows(X.data(), Q.data(), scale, M, K);
    CHECK(scale[0] == 1e-12f / 127.0f);
    CHECK(scale[1] == 1e-12f / 127.0f);
    CHECK(scale[2] == 1.0f / 127.0f);
    for (int i = 0; i < 2 * K; ++i) CHECK(int(Q[i]) == 0);
    CHECK(int(Q[2 * K + 18]) == 127);
  }
}

TEST_CASE("kernels: gemm_i8_nt sums are exact int32, dequantization as the reference") {
  Rng rng;
  auto run = [&](int M, int N, int K) {
    std::vector<int8_t> A(size_t(M) * K), B(size_t(N) * K);
    for (int8_t& a : A) a = rng.i8();
    for (int8_t& b : B) b = rng.i8();
    INFO("M=", M, " N=", N, " K=", K);
    // Unit scales, no bias: C must be exactly float(the integer dot product).
    const std::vector<float> ones(std::max(M, N), 1.0f);
    std::vector<float> C = sentinel_buffer(M, N);
    k::gemm_i8_nt(A.data(), ones.data(), B.data(), ones.data(), nullptr, C.data(), M, N, K);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        int64_t sum = 0;
        for (int t = 0; t < K; ++t) sum += int64_t(A[size_t(m) * K + t]) * B[size_t(n) * K + t];
        REQUIRE(C[size_t(m) * N + n] == float(sum));
      }
    check_untouched(C, M, N, N);
    // Real scales and bias: as the reference to 1e-6 relative.
    const std::vector<float> as = random_floats(rng, M, 1e-3f, 2e-2f), bs = random_floats(rng, N, 1e-3f, 2e-2f);
    const std::vector<float> bias = random_floats(rng, N);
    std::vector<float> D = sentinel_buffer(M, N), R = sentinel_buffer(M, N);
    k::gemm_i8_nt(A.data(), as.data(), B.data(), bs.data(), bias.data(), D.data(), M, N, K);
    k::ref::gemm_i8_nt(A.data(), as.data(), B.data(), bs.data(), bias.data(), R.data(), M, N, K);
    for (int i = 0; i < M * N; ++i) REQUIRE(std::fabs(D[i] - R[i]) <= 1e-6f * std::fabs(R[i]) + 1e-6f);
    check_untouched(D, M, N, N);
  };
  for (int M : kMs)
    for (int N : kNs)
      for (int K : kKs) run(M, N, K);
  run(4, 33, 256);
  run(3, 21, 1024);
  run(2, 5, 1031);  // odd K past every ISA's step
}

// A sentence must translate the same alone and in a batch: each row of C has to be bit-identical
// whatever M is and wherever the row sits (a 2-row block or the odd last row). Natively the
// compiler once fused the epilogue's multiply-add in some block shapes and not others, and 3 of
// 100 flores sentences decoded differently alone than batched.
TEST_CASE("kernels: gemm_i8_nt rows do not depend on the batch around them") {
  Rng rng;
  for (int N : {4, 5, 7, 33}) {
    const int M = 5, K = 100;
    std::vector<int8_t> A(size_t(M) * K), B(size_t(N) * K);
    for (int8_t& a : A) a = rng.i8();
    for (int8_t& b : B) b = rng.i8();
    const std::vector<float> as = random_floats(rng, M, 1e-3f, 2e-2f), bs = random_floats(rng, N, 1e-3f, 2e-2f);
    const std::vector<float> bias = random_floats(rng, N);
    std::vector<float> batched(size_t(M) * N);
    k::gemm_i8_nt(A.data(), as.data(), B.data(), bs.data(), bias.data(), batched.data(), M, N, K);
    for (int m = 0; m < M; ++m) {
      std::vector<float> alone(N);
      k::gemm_i8_nt(A.data() + size_t(m) * K, as.data() + m, B.data(), bs.data(), bias.data(), alone.data(), 1, N, K);
      for (int n = 0; n < N; ++n) {
        INFO("N=", N, " row ", m, " column ", n);
        REQUIRE(alone[n] == batched[size_t(m) * N + n]);  // bit-identical, not approximately
      }
    }
  }
}

TEST_CASE("kernels: gemm_i8_nt extreme values (-128 · -128 never saturates)") {
  const int M = 2, N = 5, K = 1031;
  std::vector<int8_t> A(size_t(M) * K, int8_t(-128)), B(size_t(N) * K, int8_t(-128));
  for (int t = 0; t < K; ++t) B[size_t(4) * K + t] = 127;
  const float ones[5] = {1, 1, 1, 1, 1};
  float C[M * N];
  k::gemm_i8_nt(A.data(), ones, B.data(), ones, nullptr, C, M, N, K);
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < 4; ++n) CHECK(C[m * N + n] == float(int64_t(K) * 16384));
    CHECK(C[m * N + 4] == float(int64_t(K) * -128 * 127));
  }
}

TEST_CASE("kernels: softmax_rows matches the reference, masks give exact zeros") {
  Rng rng;
  for (int M : kMs)
    for (int N : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100}) {
      std::vector<float> X = random_floats(rng, size_t(M) * N + kPad, -10.0f, 10.0f);
      for (size_t i = size_t(M) * N; i < X.size(); ++i) X[i] = kSentinel;
      for (size_t i = 0; i < size_t(M) * N; ++i)
        if (rng.next() % 4 == 0) X[i] = -INFINITY;
      if (M > 1)
        for (int n = 0; n < N; ++n) X[size_t(1) * N + n] = -INFINITY;  // a fully masked row
      std::vector<float> R = X;
      k::softmax_rows(X.data(), M, N);
      k::ref::softmax_rows(R.data(), M, N);
      INFO("M=", M, " N=", N);
      for (size_t i = 0; i < size_t(M) * N; ++i) {
        REQUIRE(std::fabs(X[i] - R[i]) <= 1e-5f * R[i] + 1e-12f);
        if (R[i] == 0.0f) REQUIRE(X[i] == 0.0f);
      }
      for (int m = 0; m < M; ++m) {
        float sum = 0.0f;
        for (int n = 0; n < N; ++n) sum += X[size_t(m) * N + n];
        if (sum != 0.0f) REQUIRE(sum == doctest::Approx(1.0f).epsilon(1e-5));
      }
      for (size_t i = size_t(M) * N; i < X.size(); ++i) REQUIRE(X[i] == kSentinel);
    }
}

TEST_CASE("kernels: softmax_rows over a wide range of exponents") {
  // Differences from the max from 0 down to -120: covers exp underflow (< -87 → 0 here, denormal in libm).
  const int N = 241;
  std::vector<float> X(N), R;
  for (int n = 0; n < N; ++n) X[n] = -0.5f * float(n);
  R = X;
  k::softmax_rows(X.data(), 1, N);
  k::ref::softmax_rows(R.data(), 1, N);
  for (int n = 0; n < N; ++n) CHECK(std::fabs(X[n] - R[n]) <= 1e-5f * R[n] + 1e-30f);
}

TEST_CASE("kernels: logsumexp_rows matches the reference and the softmax, leaves X alone") {
  Rng rng;
  for (int M : kMs)
    for (int N : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 8000}) {
      std::vector<float> X = random_floats(rng, size_t(M) * N + kPad, -10.0f, 10.0f);
      for (size_t i = size_t(M) * N; i < X.size(); ++i) X[i] = kSentinel;
      for (size_t i = 0; i < size_t(M) * N; ++i)
        if (rng.next() % 4 == 0) X[i] = -INFINITY;
      X[0] = 1.0f;  // at least one finite value in row 0
      if (M > 1)
        for (int n = 0; n < N; ++n) X[size_t(1) * N + n] = -INFINITY;  // a fully masked row
      const std::vector<float> before = X;
      std::vector<float> got(M + 1, kSentinel), want(M);
      k::logsumexp_rows(X.data(), M, N, got.data());
      k::ref::logsumexp_rows(X.data(), M, N, want.data());
      std::vector<float> P = X;
      k::softmax_rows(P.data(), M, N);
      INFO("M=", M, " N=", N);
      for (int m = 0; m < M; ++m) {
        if (want[m] == -INFINITY) {
          REQUIRE(got[m] == -INFINITY);
          continue;
        }
        REQUIRE(got[m] == doctest::Approx(want[m]).epsilon(1e-5));
        // exp(x - lse) is the softmax
        for (int n = 0; n < N; ++n)
          REQUIRE(std::exp(X[size_t(m) * N + n] - got[m]) == doctest::Approx(P[size_t(m) * N + n]).epsilon(1e-4));
      }
      REQUIRE(got[M] == kSentinel);
      REQUIRE(X == before);  // (no NaN in X: -INFINITY compares equal)
    }
}

TEST_CASE("kernels: layer_norm_rows matches the reference, in place too") {
  Rng rng;
  for (int M : kMs)
    for (int N : {1, 2, 3, 7, 8, 9, 16, 17, 31, 33, 64, 100, 256}) {
      std::vector<float> X = random_floats(rng, size_t(M) * N, -2.0f, 2.0f);
      for (int n = 0; n < N; ++n) X[n] += 100.0f;  // a large mean: the two-pass variance must cope
      const std::vector<float> gamma = random_floats(rng, N, 0.5f, 1.5f), beta = random_floats(rng, N);
      std::vector<float> Y = sentinel_buffer(M, N), R = sentinel_buffer(M, N);
      k::layer_norm_rows(X.data(), gamma.data(), beta.data(), Y.data(), M, N, 1e-5f);
      k::ref::layer_norm_rows(X.data(), gamma.data(), beta.data(), R.data(), M, N, 1e-5f);
      INFO("M=", M, " N=", N);
      for (int i = 0; i < M * N; ++i) {
        // Row 0's mean of 100 costs float32 ~100·eps·√N in either summation order: looser there.
        const float tol = i < N ? 1e-4f : 1e-5f;
        REQUIRE(std::fabs(Y[i] - R[i]) <= tol * (1.0f + std::fabs(R[i])));
      }
      check_untouched(Y, M, N, N);
      k::layer_norm_rows(X.data(), gamma.data(), beta.data(), X.data(), M, N, 1e-5f);  // Y aliases X
      for (int i = 0; i < M * N; ++i) REQUIRE(X[i] == Y[i]);
    }
}

TEST_CASE("kernels: relu and add") {
  Rng rng;
  for (size_t n : {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 33, 100}) {
    std::vector<float> x = random_floats(rng, n + kPad), r = x;
    for (size_t i = n; i < x.size(); ++i) x[i] = r[i] = kSentinel;
    k::relu(x.data(), n);
    k::ref::relu(r.data(), n);
    REQUIRE(x == r);

    const std::vector<float> a = random_floats(rng, n), b = random_floats(rng, n);
    std::vector<float> y(n + kPad, kSentinel), ry(n + kPad, kSentinel);
    k::add(a.data(), b.data(), y.data(), n);
    k::ref::add(a.data(), b.data(), ry.data(), n);
    REQUIRE(y == ry);
    std::vector<float> a2 = a;
    k::add(a2.data(), b.data(), a2.data(), n);  // y aliases a
    for (size_t i = 0; i < n; ++i) REQUIRE(a2[i] == ry[i]);
  }
}

TEST_CASE("kernels: argmax_rows picks the first maximum") {
  Rng rng;
  for (int M : kMs)
    for (int N : {1, 2, 3, 7, 8, 9, 16, 17, 33, 100, 8000}) {
      std::vector<float> X = random_floats(rng, size_t(M) * N);
      for (int m = 0; m < M; ++m) {  // plant ties: the same maximum at 1-3 places
        const int first = int(rng.next() % N);
        for (int c = 0; c < 3; ++c) X[size_t(m) * N + (c == 0 ? first : int(rng.next() % N))] = 2.0f;
      }
      std::vector<int> out(M + 4, -7), ref_out(M + 4, -7);
      k::argmax_rows(X.data(), M, N, out.data());
      k::ref::argmax_rows(X.data(), M, N, ref_out.data());
      INFO("M=", M, " N=", N);
      REQUIRE(out == ref_out);
    }
  const float tie_in_tail[] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 5, 5};
  int idx = -1;
  k::argmax_rows(tie_in_tail, 1, 19, &idx);
  CHECK(idx == 17);
  const float all_equal[] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
  k::argmax_rows(all_equal, 1, 18, &idx);
  CHECK(idx == 0);
}

TEST_CASE("kernels: block_max matches the reference (whole, partial and odd blocks, -inf)") {
  Rng rng;
  for (int N : {1, 3, 15, 16, 17, 31, 32, 33, 100, 8000})
    for (int block : {1, 4, 7, 16, 32, 64}) {
      std::vector<float> X = random_floats(rng, size_t(N), -30.0f, 30.0f);
      for (int i = 0; i < N; i += 5) X[size_t(i)] = -INFINITY;  // masked tokens
      const int blocks = (N + block - 1) / block;
      std::vector<float> out(size_t(blocks) + kPad, kSentinel), ref_out(size_t(blocks) + kPad, kSentinel);
      k::block_max(X.data(), N, block, out.data());
      k::ref::block_max(X.data(), N, block, ref_out.data());
      INFO("N=", N, " block=", block);
      REQUIRE(out == ref_out);
      for (int b = 0; b < blocks; ++b) {  // and it is the block's maximum
        const float m = *std::max_element(X.begin() + b * block, X.begin() + std::min(N, (b + 1) * block));
        REQUIRE(out[size_t(b)] == m);
      }
    }
  const float all_masked[] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY};
  float m = 0.0f;
  k::block_max(all_masked, 5, 8, &m);
  CHECK(m == -INFINITY);
}

// The shifted 7-bit scheme of the relaxed-SIMD GEMM (kernels.h). Its activations are relaxed
// SIMD's "i7" operand: their top bit must never be set, or browsers may compute different sums.
TEST_CASE("kernels: quantize_rows_u7 stays in 0..127 (the i7 operand's top bit is never set) and is the reference") {
  Rng rng;
  std::vector<std::vector<float>> rows;
  for (int K : {1, 3, 15, 16, 17, 64, 100, 256, 1024}) {
    rows.push_back(random_floats(rng, K));                 // signed: zero 64
    rows.push_back(random_floats(rng, K, 0.0f, 5.0f));     // a ReLU's output: zero 0
    rows.push_back(random_floats(rng, K, -1.0f, 10.0f));   // lopsided: a small zero point
    rows.push_back(random_floats(rng, K, -10.0f, 0.5f));   // the other way: a large one
    rows.push_back(random_floats(rng, K));
    for (float& v : rows.back()) v *= 3e38f;  // near float's limits
    rows.push_back(random_floats(rng, K, -1e-30f, 1e-30f));
    rows.push_back(std::vector<float>(size_t(K), 0.0f));
    rows.push_back(std::vector<float>(size_t(K), -2.5f));
    std::vector<float> ties = random_floats(rng, K);
    for (size_t i = 0; i < ties.size(); i += 2) ties[i] = (i % 4 ? 1.0f : -1.0f) * (0.5f + float(i % 63));  // x.5 ties
    rows.push_back(ties);
  }
  for (const std::vector<float>& x : rows) {
    const int K = int(x.size());
    INFO("K=", K, " x[0]=", x[0]);
    std::vector<uint8_t> U(size_t(K) + kPad, 0xEE), R(static_cast<size_t>(K));
    float s, rs;
    int32_t z, rz;
    k::quantize_rows_u7(x.data(), U.data(), &s, &z, 1, K);
    k::ref::quantize_rows_u7(x.data(), R.data(), &rs, &rz, 1, K);
    CHECK(s == rs);
    CHECK(z == rz);
    const bool nonnegative = *std::min_element(x.begin(), x.end()) >= 0.0f;
    CHECK(z >= 0);
    CHECK(z <= 127);
    if (nonnegative) CHECK(z == 0);
    for (int i = 0; i < K; ++i) {
      REQUIRE(U[size_t(i)] <= 127);
      REQUIRE(U[size_t(i)] == R[size_t(i)]);
      // dequantized within half a step of the input
      REQUIRE(std::fabs((float(U[size_t(i)]) - float(z)) * s - x[size_t(i)]) <= 0.5f * s * 1.0001f);
    }
    for (size_t i = size_t(K); i < U.size(); ++i) REQUIRE(U[i] == 0xEE);
  }
}

TEST_CASE("kernels: gemm_u7i8_nt removes the zero point exactly (= gemm_i8_nt on U - zero) and matches the reference") {
  Rng rng;
  auto run = [&](int M, int N, int K) {
    INFO("M=", M, " N=", N, " K=", K);
    std::vector<uint8_t> U(size_t(M) * K);
    std::vector<int8_t> B(size_t(N) * K), signed_u(U.size());
    std::vector<int32_t> zero(static_cast<size_t>(M)), sums(static_cast<size_t>(N)), ref_sums(static_cast<size_t>(N));
    for (int m = 0; m < M; ++m) zero[size_t(m)] = m % 3 == 1 ? 0 : int32_t(rng.next() >> 25);  // any zero point in 0..127
    for (size_t i = 0; i < U.size(); ++i) {
      U[i] = uint8_t(rng.next() >> 25);  // 0..127
      signed_u[i] = int8_t(int(U[i]) - zero[i / size_t(K)]);
    }
    for (int8_t& b : B) b = rng.i8();
    k::row_sums_i8(B.data(), N, K, sums.data());
    k::ref::row_sums_i8(B.data(), N, K, ref_sums.data());
    REQUIRE(sums == ref_sums);
    const std::vector<float> as = random_floats(rng, M, 1e-3f, 2e-2f), bs = random_floats(rng, N, 1e-3f, 2e-2f);
    const std::vector<float> bias = random_floats(rng, N);
    for (const float* b : {static_cast<const float*>(nullptr), bias.data()}) {
      std::vector<float> C = sentinel_buffer(M, N), E = sentinel_buffer(M, N), R = sentinel_buffer(M, N);
      k::gemm_u7i8_nt(U.data(), as.data(), zero.data(), B.data(), bs.data(), sums.data(), b, C.data(), M, N, K);
      k::gemm_i8_nt(signed_u.data(), as.data(), B.data(), bs.data(), b, E.data(), M, N, K);
      k::ref::gemm_u7i8_nt(U.data(), as.data(), zero.data(), B.data(), bs.data(), sums.data(), b, R.data(), M, N, K);
      for (int i = 0; i < M * N; ++i) {
        REQUIRE(C[size_t(i)] == E[size_t(i)]);
        REQUIRE(std::fabs(C[size_t(i)] - R[size_t(i)]) <= 1e-6f * std::fabs(R[size_t(i)]) + 1e-6f);
      }
      check_untouched(C, M, N, N);
    }
  };
  for (int M : kMs)
    for (int N : kNs)
      for (int K : kKs) run(M, N, K);
  run(4, 33, 256);
  run(2, 5, 1031);
}

// A scalar model of the relaxed module's exact 8-bit GEMM (kernels/gemm_relaxed.c, tested in the
// browsers by tests/web/relaxed-kernel.test.mjs): each activation fed in as two 7-bit operands
// lo = min(a + 127 wrapping, 127) and hi = max(a, 0), then 127·b_sums taken back out.
namespace {
void split8_model_gemm(const int8_t* A, const float* a_scale, const int8_t* B, const float* b_scale,
                       const int32_t* b_sums, const float* bias, float* C, int M, int N, int K) {
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      int32_t sum = 0;
      for (int k = 0; k < K; ++k) {
        const int8_t a = A[size_t(m) * K + k];
        const int32_t lo = std::min<int32_t>(uint8_t(a + 127), 127), hi = std::max<int32_t>(a, 0);
        REQUIRE(lo <= 127);  // the i7 operands' top bit is never set
        sum += int32_t(B[size_t(n) * K + k]) * lo + int32_t(B[size_t(n) * K + k]) * hi;
      }
      sum -= 127 * b_sums[n];
      volatile float product = float(sum) * (a_scale[m] * b_scale[n]);  // rounded, never fused with the add
      C[size_t(m) * N + n] = product + (bias ? bias[n] : 0.0f);
    }
  }
}
}  // namespace

TEST_CASE("kernels: gemm_i8_nt_sums = gemm_i8_nt, with the split 8-bit kernel installed or not") {
  Rng rng;
  for (const auto& s : {std::array<int, 3>{1, 1, 1}, {1, 9, 33}, {2, 7, 64}, {4, 17, 256}, {5, 3, 1031}}) {
    const int M = s[0], N = s[1], K = s[2];
    INFO("M=", M, " N=", N, " K=", K);
    std::vector<int8_t> A(size_t(M) * K), B(size_t(N) * K);
    for (size_t i = 0; i < A.size(); ++i) A[i] = i % 5 == 0 ? int8_t(i % 2 ? 127 : -127) : std::max<int8_t>(rng.i8(), -127);
    for (int8_t& b : B) b = rng.i8();
    std::vector<int32_t> sums(static_cast<size_t>(N));
    k::row_sums_i8(B.data(), N, K, sums.data());
    const std::vector<float> as = random_floats(rng, M, 1e-3f, 2e-2f), bs = random_floats(rng, N, 1e-3f, 2e-2f);
    const std::vector<float> bias = random_floats(rng, N);
    std::vector<float> want = sentinel_buffer(M, N);
    k::gemm_i8_nt(A.data(), as.data(), B.data(), bs.data(), bias.data(), want.data(), M, N, K);
    for (bool installed : {false, true}) {
      k::set_i8_gemm(installed ? split8_model_gemm : nullptr);
      for (const int32_t* b_sums : {static_cast<const int32_t*>(nullptr), static_cast<const int32_t*>(sums.data())}) {
        std::vector<float> C = sentinel_buffer(M, N);
        k::gemm_i8_nt_sums(A.data(), as.data(), B.data(), bs.data(), b_sums, bias.data(), C.data(), M, N, K);
        for (int i = 0; i < M * N; ++i) REQUIRE(C[size_t(i)] == want[size_t(i)]);
        check_untouched(C, M, N, N);
      }
    }
    k::set_i8_gemm(nullptr);
  }
}

// The scheme each int8 Linear uses: `mixed` keeps the output projection on 8 bits (kernels.h).
TEST_CASE("kernels: int8_scheme_for resolves mixed to exact8 for the output projection only") {
  const k::Int8Scheme before = k::int8_scheme();
  for (k::Int8Scheme s : {k::Int8Scheme::exact8, k::Int8Scheme::shifted7}) {
    k::set_int8_scheme(s);
    CHECK(k::int8_scheme_for(true) == s);
    CHECK(k::int8_scheme_for(false) == s);
  }
  k::set_int8_scheme(k::Int8Scheme::mixed);
  CHECK(k::int8_scheme_for(true) == k::Int8Scheme::exact8);
  CHECK(k::int8_scheme_for(false) == k::Int8Scheme::shifted7);
  k::set_int8_scheme(before);
}

// Every int8 GEMM this CPU runs (the build's own, and natively the AVX-512 VNNI copy chosen at run
// time) against the reference, and bit-identical to each other.
TEST_CASE("kernels: every available int8 GEMM instruction set = the reference, and identical to each other") {
  const char* chosen = k::int8_isa();
  Rng rng;
  const int shapes[][3] = {{1, 1, 1}, {1, 9, 33}, {2, 7, 64}, {3, 17, 100}, {5, 33, 256}, {4, 5, 1031}, {1, 64, 1024}};
  for (const auto& s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    std::vector<int8_t> A(size_t(M) * K), B(size_t(N) * K);
    for (int8_t& a : A) a = rng.i8();
    for (int8_t& b : B) b = rng.i8();
    const std::vector<float> as = random_floats(rng, M, 1e-3f, 2e-2f), bs = random_floats(rng, N, 1e-3f, 2e-2f);
    const std::vector<float> bias = random_floats(rng, N);
    std::vector<float> R = sentinel_buffer(M, N), first;
    k::ref::gemm_i8_nt(A.data(), as.data(), B.data(), bs.data(), bias.data(), R.data(), M, N, K);
    for (int i = 0; i < k::int8_isa_count(); ++i) {
      const char* name = k::int8_isa_name(i);
      if (!name) continue;  // this CPU lacks it
      INFO("isa=", name, " M=", M, " N=", N, " K=", K);
      REQUIRE(k::set_int8_isa(name));
      CHECK(std::string(k::int8_isa()) == name);
      std::vector<float> C = sentinel_buffer(M, N);
      k::gemm_i8_nt(A.data(), as.data(), B.data(), bs.data(), bias.data(), C.data(), M, N, K);
      for (int j = 0; j < M * N; ++j) REQUIRE(std::fabs(C[size_t(j)] - R[size_t(j)]) <= 1e-6f * std::fabs(R[size_t(j)]) + 1e-6f);
      check_untouched(C, M, N, N);
      if (first.empty()) first = C;
      REQUIRE(C == first);
    }
  }
  CHECK_FALSE(k::set_int8_isa("sse2"));
  REQUIRE(k::set_int8_isa(chosen));
}
