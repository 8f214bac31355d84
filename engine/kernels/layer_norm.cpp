// Row layer norm as torch.nn.LayerNorm: two passes (mean, then the biased variance of x - mean,
// which is stable where E[x²] - mean² is not), then y = (x - mean)·rstd·gamma + beta. Each output
// element is written after its input element is last read, so Y may alias X.
#include <cmath>
#include <xsimd/xsimd.hpp>

#include "kernels/kernels.h"

namespace nmt::kernels {
namespace {

using Batch = xsimd::batch<float>;
constexpr int W = int(Batch::size);

}  // namespace

void layer_norm_rows(const float* X, const float* gamma, const float* beta, float* Y, int M, int N, float eps) {
  const int full = N - N % W;
  for (int m = 0; m < M; ++m) {
    const float* x = X + size_t(m) * N;
    float* y = Y + size_t(m) * N;

    Batch vsum(0.0f);
    for (int n = 0; n < full; n += W) vsum += Batch::load_unaligned(x + n);
    float sum = xsimd::hadd(vsum);
    for (int n = full; n < N; ++n) sum += x[n];
    const float mean = sum / float(N);

    const Batch vmean(mean);
    Batch vsq(0.0f);
    for (int n = 0; n < full; n += W) {
      const Batch d = Batch::load_unaligned(x + n) - vmean;
      vsq = xsimd::fma(d, d, vsq);
    }
    float sq = xsimd::hadd(vsq);
    for (int n = full; n < N; ++n) sq += (x[n] - mean) * (x[n] - mean);
    const float rstd = 1.0f / std::sqrt(sq / float(N) + eps);

    const Batch vrstd(rstd);
    for (int n = 0; n < full; n += W) {
      const Batch d = (Batch::load_unaligned(x + n) - vmean) * vrstd;
      xsimd::fma(d, Batch::load_unaligned(gamma + n), Batch::load_unaligned(beta + n)).store_unaligned(y + n);
    }
    for (int n = full; n < N; ++n) y[n] = (x[n] - mean) * rstd * gamma[n] + beta[n];
  }
}

}  // namespace nmt::kernels
