// Kernel benchmark: f32 GEMM (GFLOP/s) and int8 GEMM (GOP/s, 2 ops per multiply-add) on the
// model's Linear shapes, C[M,N] = A[M,K]·B[N,K]^T, each against its scalar reference measured in
// the same process. Times are the best per-call time over repeated batches, so a busy machine
// shows up as noise rather than as a slower kernel. Builds natively (CMake) and with emcc for node.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/kernels.h"

namespace k = nmt::kernels;

namespace {

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Best seconds per call of f: calibrate a batch of calls lasting ≥ 2 ms, then time batches for
// about `budget_s` (at least 3) and keep the fastest.
template <class F>
double seconds_per_call(F&& f, double budget_s) {
  f();  // warm caches and page in the buffers
  int calls = 1;
  for (;;) {
    const double t0 = now_s();
    for (int i = 0; i < calls; ++i) f();
    if (now_s() - t0 >= 2e-3 || calls >= (1 << 20)) break;
    calls *= 2;
  }
  double best = 1e30, spent = 0.0;
  for (int batch = 0; batch < 3 || spent < budget_s; ++batch) {
    const double t0 = now_s();
    for (int i = 0; i < calls; ++i) f();
    const double dt = now_s() - t0;
    best = std::min(best, dt / calls);
    spent += dt;
  }
  return best;
}

uint32_t g_rng = 12345u;
float next_float() {
  g_rng = g_rng * 1664525u + 1013904223u;
  return float(g_rng >> 8) / 16777216.0f - 0.5f;
}

constexpr double kFastBudget = 0.15, kRefBudget = 0.2;  // seconds of timing per kernel and shape
double g_checksum = 0.0;                                // keeps results observable

// f32 and int8 C[M,N] = A[M,K]·B[N,K]^T for every M × (N, K).
void bench_gemms(const std::vector<int>& Ms, const std::vector<std::array<int, 2>>& NKs) {
  std::printf("C[M,N] = A[M,K] . B[N,K]^T; best of repeated runs; x = speed-up over the scalar reference\n");
  std::printf("%4s %5s %5s | %9s %9s %7s | %9s %9s %7s\n", "M", "N", "K", "f32 GF/s", "ref", "x", "i8 GOP/s", "ref",
              "x");
  for (const auto& nk : NKs) {
    for (int M : Ms) {
      const int N = nk[0], K = nk[1];
      std::vector<float> A(size_t(M) * K), B(size_t(N) * K), bias(N), C(size_t(M) * N);
      for (float& x : A) x = next_float();
      for (float& x : B) x = next_float();
      for (float& x : bias) x = next_float();
      std::vector<int8_t> qA(A.size()), qB(B.size());
      std::vector<float> sA(M), sB(N);
      k::quantize_rows(A.data(), qA.data(), sA.data(), M, K);
      k::quantize_rows(B.data(), qB.data(), sB.data(), N, K);

      auto time = [&](double budget, auto&& f) {
        const double t = seconds_per_call(f, budget);
        g_checksum += C[0];
        return t;
      };
      const double f32 =
          time(kFastBudget, [&] { k::gemm_f32_nt(A.data(), K, B.data(), K, bias.data(), C.data(), N, M, N, K); });
      const double f32_ref =
          time(kRefBudget, [&] { k::ref::gemm_f32_nt(A.data(), K, B.data(), K, bias.data(), C.data(), N, M, N, K); });
      const double i8 = time(kFastBudget, [&] {
        k::gemm_i8_nt(qA.data(), sA.data(), qB.data(), sB.data(), bias.data(), C.data(), M, N, K);
      });
      const double i8_ref = time(kRefBudget, [&] {
        k::ref::gemm_i8_nt(qA.data(), sA.data(), qB.data(), sB.data(), bias.data(), C.data(), M, N, K);
      });
      const double ops = 2.0 * M * N * K;
      std::printf("%4d %5d %5d | %9.1f %9.2f %7.1f | %9.1f %9.2f %7.1f\n", M, N, K, ops / f32 * 1e-9,
                  ops / f32_ref * 1e-9, f32_ref / f32, ops / i8 * 1e-9, ops / i8_ref * 1e-9, i8_ref / i8);
      std::fflush(stdout);
    }
  }
}

// The row kernels around the GEMMs, on the activations of a 64-token batch (d_model 256, vocab 8000).
void bench_rows() {
  std::printf("\n%-34s | %9s %9s %7s\n", "row kernel", "us/call", "ref us", "x");
  const int T = 64, D = 256, V = 8000;
  std::vector<float> X(size_t(T) * V), Y(size_t(T) * V), gamma(D, 1.1f), beta(D, 0.1f), s(T);
  std::vector<int8_t> q(size_t(T) * V);
  std::vector<int> idx(T);
  for (float& x : X) x = 8.0f * next_float();
  auto row = [&](const char* name, auto&& fast, auto&& ref) {
    const double t = seconds_per_call(fast, kFastBudget), t_ref = seconds_per_call(ref, kRefBudget);
    std::printf("%-34s | %9.2f %9.2f %7.1f\n", name, t * 1e6, t_ref * 1e6, t_ref / t);
    g_checksum += Y[1] + q[1] + idx[1];
  };
  const size_t scores = size_t(4) * T * T;  // softmax works in place: each call re-copies its input
  row(
      "softmax_rows [4 heads x 64, 64]",
      [&] { std::copy(X.begin(), X.begin() + scores, Y.begin()), k::softmax_rows(Y.data(), 4 * T, T); },
      [&] { std::copy(X.begin(), X.begin() + scores, Y.begin()), k::ref::softmax_rows(Y.data(), 4 * T, T); });
  row(
      "layer_norm_rows [64, 256]",
      [&] { k::layer_norm_rows(X.data(), gamma.data(), beta.data(), Y.data(), T, D, 1e-5f); },
      [&] { k::ref::layer_norm_rows(X.data(), gamma.data(), beta.data(), Y.data(), T, D, 1e-5f); });
  row(
      "quantize_rows [64, 256]", [&] { k::quantize_rows(X.data(), q.data(), s.data(), T, D); },
      [&] { k::ref::quantize_rows(X.data(), q.data(), s.data(), T, D); });
  row(
      "argmax_rows [4, 8000]", [&] { k::argmax_rows(X.data(), 4, V, idx.data()); },
      [&] { k::ref::argmax_rows(X.data(), 4, V, idx.data()); });
  const size_t n = size_t(T) * 1024;  // an FFN hidden activation
  row(
      "relu + add [64 x 1024]", [&] { k::relu(Y.data(), n), k::add(X.data(), Y.data(), Y.data(), n); },
      [&] { k::ref::relu(Y.data(), n), k::ref::add(X.data(), Y.data(), Y.data(), n); });
}

}  // namespace

// Usage: bench_kernels            the model's GEMM shapes, then the row kernels
//        bench_kernels M N K      one GEMM shape
//        bench_kernels rows       the row kernels only
int main(int argc, char** argv) {
  if (argc == 4) {
    bench_gemms({std::atoi(argv[1])}, {{std::atoi(argv[2]), std::atoi(argv[3])}});
  } else {
    if (argc != 2 || std::string(argv[1]) != "rows")
      bench_gemms({1, 4, 16, 64}, {{{1024, 256}}, {{256, 1024}}, {{256, 256}}, {{8000, 256}}});
    bench_rows();
  }
  std::printf("(checksum %g)\n", g_checksum);
  return 0;
}
