// The floor of batch prediction with a Gaussian kernel expansion, and how
// close budgetsvm's kernel_expansion (the path of every decision_function)
// comes to it.
//
//   predict_floor ROWS SUPPORT_VECTORS FEATURES [REPEATS] [THREADS]
//
// The floor of ROWS x SUPPORT_VECTORS kernel values of FEATURES features is
//
//   2 ROWS SV FEATURES / (the core's FMA peak)       the dot products
//   + ROWS SV x (seconds per vectorised exp)          the kernel values
//
// both measured here on this core: the FMA peak by a loop of independent
// fused multiply-adds held in registers (12 chains, more than latency x
// throughput), at the instruction set budgetsvm dispatches to; the exp by
// simd.hpp's rbf_from_dots over a block that stays in L1. The coefficient
// product (2 flops per kernel value) and the data movement are left out, so
// the floor is below what any implementation can reach. Random data, float64.
// Prints one JSON object; each time is the minimum over REPEATS (default 3).
// Built with -DBUDGETSVM_BUILD_BENCH=ON; not part of the shipped module.
#include <budgetsvm/budgetsvm.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

using budgetsvm::Index;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

#if defined(BUDGETSVM_SIMD_X86)
// Twelve chains with different starting values (equal ones would let the
// compiler compute one chain for all twelve).
#define FMA_CHAINS(V, FMA, SET1) \
  V a0 = SET1(1.0), a1 = SET1(1.1), a2 = SET1(1.2), a3 = SET1(1.3), a4 = SET1(1.4), a5 = SET1(1.5); \
  V a6 = SET1(1.6), a7 = SET1(1.7), a8 = SET1(1.8), a9 = SET1(1.9), a10 = SET1(2.0), a11 = SET1(2.1); \
  for (long t = 0; t < n; ++t) { \
    a0 = FMA(a0, x, y); a1 = FMA(a1, x, y); a2 = FMA(a2, x, y); a3 = FMA(a3, x, y); \
    a4 = FMA(a4, x, y); a5 = FMA(a5, x, y); a6 = FMA(a6, x, y); a7 = FMA(a7, x, y); \
    a8 = FMA(a8, x, y); a9 = FMA(a9, x, y); a10 = FMA(a10, x, y); a11 = FMA(a11, x, y); \
  }

BUDGETSVM_TARGET("avx512f") double fma_chains_avx512(long n) {
  const __m512d x = _mm512_set1_pd(0.999999), y = _mm512_set1_pd(1e-7);
  FMA_CHAINS(__m512d, _mm512_fmadd_pd, _mm512_set1_pd)
  double out[8];
  _mm512_storeu_pd(out, _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)),
                                      _mm512_add_pd(_mm512_add_pd(a4, a5), _mm512_add_pd(_mm512_add_pd(a6, a7),
                                      _mm512_add_pd(_mm512_add_pd(a8, a9), _mm512_add_pd(a10, a11))))));
  return out[0];
}

BUDGETSVM_TARGET("avx2,fma") double fma_chains_avx2(long n) {
  const __m256d x = _mm256_set1_pd(0.999999), y = _mm256_set1_pd(1e-7);
  FMA_CHAINS(__m256d, _mm256_fmadd_pd, _mm256_set1_pd)
  double out[4];
  _mm256_storeu_pd(out, _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)),
                                      _mm256_add_pd(_mm256_add_pd(a4, a5), _mm256_add_pd(_mm256_add_pd(a6, a7),
                                      _mm256_add_pd(_mm256_add_pd(a8, a9), _mm256_add_pd(a10, a11))))));
  return out[0];
}
#endif

/// Flops per second of fused multiply-adds at `level` (2 flops each); 0 for
/// levels without FMA (the floor is then not stated).
double fma_peak(budgetsvm::simd::Level level, int repeats, double& sink) {
  const long n = 20000000;
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t = Clock::now();
#if defined(BUDGETSVM_SIMD_X86)
    if (level == budgetsvm::simd::Level::avx512)
      sink += fma_chains_avx512(n);
    else if (level == budgetsvm::simd::Level::avx2)
      sink += fma_chains_avx2(n);
    else
      return 0.0;
#else
    (void)level;
    return 0.0;
#endif
    best = std::min(best, seconds_since(t));
  }
  const double lanes = level == budgetsvm::simd::Level::avx512 ? 8.0 : 4.0;
  return 2.0 * lanes * 12.0 * static_cast<double>(n) / best;
}

/// Seconds per kernel value of the vectorised exp (rbf_from_dots on a block in L1).
double exp_seconds(int repeats, double& sink) {
  const Index m = 512, passes = 20000;
  std::vector<double> dots(m), norms(m, 1.0), out(m);
  for (Index j = 0; j < m; ++j) dots[static_cast<std::size_t>(j)] = 0.5 - 1e-3 * static_cast<double>(j);
  const auto& simd = budgetsvm::simd::active_kernels();
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t = Clock::now();
    for (Index p = 0; p < passes; ++p) {
      simd.rbf_from_dots(dots.data(), norms.data(), 1.0 + 1e-9 * static_cast<double>(p), 0.1, m, out.data());
      sink += out[static_cast<std::size_t>(p % m)];
    }
    best = std::min(best, seconds_since(t));
  }
  return best / static_cast<double>(m * passes);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: predict_floor ROWS SUPPORT_VECTORS FEATURES [REPEATS] [THREADS]\n");
    return 2;
  }
  using namespace budgetsvm;
  const Index n = std::atol(argv[1]), m = std::atol(argv[2]), d = std::atol(argv[3]);
  const int repeats = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
  const int threads = argc > 5 ? std::max(1, std::atoi(argv[5])) : 1;
  if (n < 1 || m < 1 || d < 1) {
    std::fprintf(stderr, "predict_floor: ROWS, SUPPORT_VECTORS and FEATURES must be positive\n");
    return 2;
  }
  std::mt19937_64 rng(0);
  std::normal_distribution<double> normal;
  std::vector<double> X(static_cast<std::size_t>(n * d)), S(static_cast<std::size_t>(m * d));
  for (auto& v : X) v = normal(rng);
  for (auto& v : S) v = normal(rng);
  MatrixXd coef(m, 1);
  for (Index j = 0; j < m; ++j) coef(j, 0) = normal(rng);
  const DenseView<double, Eigen::RowMajor> Xv(X.data(), n, d), Sv(S.data(), m, d);
  const Kernel kernel{KernelType::rbf, 1.0 / static_cast<double>(d), 0.0, 3};
  MatrixXd out(n, 1);
  double sink = 0.0, measured = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t = Clock::now();
    kernel_expansion(kernel, Xv, Sv, coef, out, threads);
    measured = std::min(measured, seconds_since(t));
    sink += out(0, 0);
  }
  const auto level = simd::active_level();
  const double peak = fma_peak(level, repeats, sink), exp_s = exp_seconds(repeats, sink);
  const double values = static_cast<double>(n) * static_cast<double>(m);
  const double floor = peak > 0 ? 2.0 * values * static_cast<double>(d) / peak + values * exp_s : 0.0;
  std::printf("{\"rows\": %ld, \"support_vectors\": %ld, \"features\": %ld, \"threads\": %d, \"level\": \"%s\", "
              "\"fma_peak_gflops\": %.2f, \"exp_ns\": %.4f, \"floor_s\": %.5f, \"measured_s\": %.5f, "
              "\"ratio\": %.3f, \"sink\": %.6g}\n",
              static_cast<long>(n), static_cast<long>(m), static_cast<long>(d), threads, simd::level_name(level),
              peak / 1e9, exp_s * 1e9, floor, measured, floor > 0 ? measured / floor / threads : 0.0, sink);
  return 0;
}
