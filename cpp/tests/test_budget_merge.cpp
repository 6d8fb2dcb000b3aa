// Tests of the merge sub-problem (budget/merge.hpp) against brute force and
// the golden values in tests/fixtures/merge_golden.csv (written by make_merge_golden.py).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#if !defined(__GLIBCXX__) || defined(_GLIBCXX_HAS_GTHREADS)
#include <thread>
#endif
#include <vector>

#include "budgetsvm/budget/merge.hpp"
#include "budgetsvm/core/random.hpp"
#include "check.hpp"

#ifndef BUDGETSVM_TESTDATA_DIR  // set by cpp/tests/CMakeLists.txt
#define BUDGETSVM_TESTDATA_DIR "tests/fixtures"
#endif

using namespace budgetsvm;
using namespace budgetsvm::merge;

namespace {

// g evaluated directly from kernel powers (std::pow), not through merge_g.
double g_direct(double m, double kappa, double h) {
  return m * std::pow(kappa, (1 - h) * (1 - h)) + (1 - m) * std::pow(kappa, h * h);
}

// min over h of WD on a fine grid, refined by a local grid around the best.
double brute_wd(double m, double kappa) {
  const int n = 20000;
  double best = -1, best_h = 0;
  for (int i = 0; i <= n; ++i) {
    const double h = static_cast<double>(i) / n;
    const double g = g_direct(m, kappa, h);
    if (g > best) best = g, best_h = h;
  }
  for (int i = -1000; i <= 1000; ++i) {
    const double h = std::clamp(best_h + i * 1e-7, 0.0, 1.0);
    best = std::max(best, g_direct(m, kappa, h));
  }
  return m * m + (1 - m) * (1 - m) + 2 * m * (1 - m) * kappa - best * best;
}

// WD of the merge actually applied with h (exact formula).
double wd_at(double m, double kappa, double h) {
  const double g = g_direct(m, kappa, h);
  return m * m + (1 - m) * (1 - m) + 2 * m * (1 - m) * kappa - g * g;
}

struct Golden {
  double m, kappa, h, g, wd;
};

std::vector<Golden> read_golden() {
  std::vector<Golden> rows;
  std::ifstream in(std::string(BUDGETSVM_TESTDATA_DIR) + "/merge_golden.csv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 'm') continue;
    std::stringstream ss(line);
    Golden r{};
    char comma;
    ss >> r.m >> comma >> r.kappa >> comma >> r.h >> comma >> r.g >> comma >> r.wd;
    rows.push_back(r);
  }
  return rows;
}

// (m, kappa) test points: a grid that includes the bimodal corner
// kappa < e^-2, m near 1/2, and the edges.
std::vector<std::pair<double, double>> test_points() {
  std::vector<std::pair<double, double>> pts;
  const double ms[] = {0.0, 0.01, 0.05, 0.13, 0.27, 0.4, 0.47, 0.499, 0.5, 0.501, 0.53, 0.66, 0.8, 0.95, 0.99, 1.0};
  const double ks[] = {0.0, 1e-6, 0.001, 0.01, 0.05, 0.1, 0.1353, 0.14, 0.2, 0.37, 0.5, 0.75, 0.9, 0.99, 1.0};
  for (double m : ms)
    for (double k : ks) pts.emplace_back(m, k);
  return pts;
}

}  // namespace

TEST_CASE("solve_global finds the global maximum of g (brute force)") {
  for (auto [m, kappa] : test_points()) {
    const Solution s = solve_global(m, kappa);
    CHECK_CLOSE(s.wd, brute_wd(m, kappa), 1e-9);
  }
}

TEST_CASE("the shared coarse powers are merge_g's own values, bit for bit") {
  // The lookup table's build takes the coarse grid's kappa^(h^2) once per
  // kappa (CoarsePowers); the table must be the one per-cell evaluation makes.
  for (const double kappa : {0.0, 1e-300, 1e-9, 0.0025, 0.135, 0.5, 0.9975}) {
    const double lk = safe_log(kappa);
    const CoarsePowers powers(lk);
    for (const double m : {0.0, 1e-6, 0.1, 0.3, 0.4999, 0.5}) {
      for (int i = 1; i < kCoarseGrid; ++i) {
        const double shared = m * powers.p[kCoarseGrid - i] + (1.0 - m) * powers.p[i];
        CHECK(shared == merge_g(m, lk, static_cast<double>(i) / kCoarseGrid));
      }
    }
  }
}

TEST_CASE("every method is within its tolerance of the brute-force WD") {
  for (auto [m, kappa] : test_points()) {
    const double ref = brute_wd(m, kappa);
    const Solution gss = solve(Method::gss, m, kappa, 0.01);
    const Solution lh = solve(Method::lookup_h, m, kappa);
    const Solution lw = solve(Method::lookup_wd, m, kappa);
    CHECK_CLOSE(gss.wd, ref, 5e-4);
    CHECK_CLOSE(wd_at(m, kappa, gss.h), gss.wd, 1e-12);
    CHECK_CLOSE(lh.wd, ref, 5e-4);
    if (std::fabs(lw.wd - ref) > 5e-5) std::printf("  lookup-wd off at m=%g kappa=%g\n", m, kappa);
    CHECK_CLOSE(lw.wd, ref, 5e-5);
    // the merge lookup-wd applies (its h) is as good as lookup-h's
    CHECK_CLOSE(wd_at(m, kappa, lw.h), ref, 5e-4);
    // nothing beats the global minimum (beyond rounding)
    CHECK(gss.wd >= ref - 1e-12);
    CHECK(lh.wd >= ref - 1e-12);
  }
}

TEST_CASE("golden values (tests/fixtures/merge_golden.csv)") {
  const auto rows = read_golden();
  CHECK(rows.size() > 300);  // the fixture is part of the repository: never absent
  double worst_gss = 0, worst_h = 0, worst_wd = 0;
  for (const auto& r : rows) {
    worst_gss = std::max(worst_gss, std::fabs(solve(Method::gss, r.m, r.kappa).wd - r.wd));
    worst_h = std::max(worst_h, std::fabs(solve(Method::lookup_h, r.m, r.kappa).wd - r.wd));
    worst_wd = std::max(worst_wd, std::fabs(solve(Method::lookup_wd, r.m, r.kappa).wd - r.wd));
    CHECK_CLOSE(solve_global(r.m, r.kappa).wd, r.wd, 1e-9);
  }
  std::printf("  worst |WD - golden|: gss %.2e, lookup-h %.2e, lookup-wd %.2e\n", worst_gss, worst_h, worst_wd);
  CHECK(worst_gss <= 5e-4);
  CHECK(worst_h <= 5e-4);
  CHECK(worst_wd <= 5e-5);
}

TEST_CASE("symmetry: h(1-m) = 1 - h(m), WD(1-m) = WD(m); the jump at m = 1/2") {
  const auto& t = lookup_table(400);
  for (auto [m, kappa] : test_points()) {
    // (at m = 1/2 itself both h* and 1 - h* are optimal in the bimodal corner)
    if (m != 0.5) CHECK_CLOSE(t.h(1 - m, kappa), 1 - t.h(m, kappa), 1e-12);
    CHECK_CLOSE(t.wd(1 - m, kappa), t.wd(m, kappa), 1e-12);
  }
  // bimodal corner: h* is near 0 just below m = 1/2 and near 1 just above
  CHECK(t.h(0.499, 0.05) < 0.5);
  CHECK(t.h(0.501, 0.05) > 0.5);
}

TEST_CASE("merged coefficient beta_z = s g(h) equals beta_a k(z_a, z) + beta_b k(z_b, z)") {
  // 1-D points, Gaussian kernel: check the geometry the formulas rest on.
  const double gamma = 0.7, xa = 0.3, xb = 1.9, ba = 0.4, bb = 1.1;
  const double kappa = std::exp(-gamma * (xa - xb) * (xa - xb));
  const double s = ba + bb, m = ba / s;
  const Solution sol = solve(Method::gss, m, kappa, 1e-8);
  const double z = sol.h * xa + (1 - sol.h) * xb;
  const double kaz = std::exp(-gamma * (xa - z) * (xa - z)), kbz = std::exp(-gamma * (xb - z) * (xb - z));
  const double beta_z = ba * kaz + bb * kbz;
  CHECK_CLOSE(beta_z, s * merge_g(m, std::log(kappa), sol.h), 1e-12);
  // ||Delta||^2 from kernel values directly
  const double delta2 = ba * ba + bb * bb + 2 * ba * bb * kappa - 2 * beta_z * (ba * kaz + bb * kbz) + beta_z * beta_z;
  CHECK_CLOSE(delta2, s * s * sol.wd, 1e-12);
  // and it is the minimum over z on a fine grid of the line
  double best = 1e300;
  for (int i = 0; i <= 100000; ++i) {
    const double zz = xa + (xb - xa) * i / 100000.0;
    const double p = ba * std::exp(-gamma * (xa - zz) * (xa - zz)) + bb * std::exp(-gamma * (xb - zz) * (xb - zz));
    best = std::min(best, ba * ba + bb * bb + 2 * ba * bb * kappa - p * p);
  }
  CHECK_CLOSE(delta2, best, 1e-9);
}

TEST_CASE("multi-class merge search vs brute force over h") {
  Random rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const int c = 3;
    double ba[3], bb[3];
    for (int k = 0; k < c; ++k) ba[k] = rng.uniform() * 2 - 1, bb[k] = rng.uniform() * 2 - 1;
    const double kappa = trial % 4 == 0 ? rng.uniform() * 0.1 : rng.uniform();
    double A = 0, C = 0, D = 0;
    for (int k = 0; k < c; ++k) A += ba[k] * ba[k], C += ba[k] * bb[k], D += bb[k] * bb[k];
    const auto [h, F] = solve_multiclass(A, C, D, kappa, 1e-4);
    double best = -1;
    for (int i = 0; i <= 20000; ++i) {
      const double hh = i / 20000.0;
      const double p = std::pow(kappa, (1 - hh) * (1 - hh)), q = std::pow(kappa, hh * hh);
      double f = 0;
      for (int k = 0; k < c; ++k) f += (ba[k] * p + bb[k] * q) * (ba[k] * p + bb[k] * q);
      best = std::max(best, f);
    }
    CHECK(F >= best - 1e-6 * (A + D));
    CHECK(h >= 0 && h <= 1);
  }
}

TEST_CASE("lookup tables are built once, thread-safely") {
  std::vector<const LookupTable*> seen(4, nullptr);
#if !defined(__GLIBCXX__) || defined(_GLIBCXX_HAS_GTHREADS)
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back([&seen, i] { seen[i] = &lookup_table(64); });
  for (auto& t : threads) t.join();
#else  // no std::thread (MinGW win32 threads)
  for (int i = 0; i < 4; ++i) seen[i] = &lookup_table(64);
#endif
  for (int i = 1; i < 4; ++i) CHECK(seen[i] == seen[0]);
  CHECK(seen[0]->grid() == 64);
  // a coarse table is less accurate but still sensible
  CHECK_CLOSE(seen[0]->wd(0.3, 0.6), solve_global(0.3, 0.6).wd, 1e-3);
}

TEST_CASE("the partner search's bound: kappa_cut never places a candidate above its own cost") {
  // For any (m, kappa) with m in (0, 1/2]: wd(m, kappa) / m^2 = r must not be
  // pruned by the cut of r (nor of anything above r); near the table's
  // nodes, its first row (m -> 0) and kappa = 0, 1 included.
  for (int grid : {2, 20, kDefaultGrid}) {
    const LookupTable& table = lookup_table(grid);
    Random rng(static_cast<std::uint64_t>(grid));
    for (int t = 0; t < 200000; ++t) {
      double m = 0.5 * rng.uniform(), kappa = rng.uniform();
      const double half = 0.5 * grid;
      if (t % 7 == 0) m = LookupTable::m_of_u(std::floor(rng.uniform() * half) / half);
      if (t % 11 == 0) kappa = std::floor(rng.uniform() * (grid + 1)) / grid;
      if (t % 13 == 0) m = 1e-6 * rng.uniform();
      if (!(m > 0.0)) continue;
      const double r = table.wd(m, kappa) / (m * m);
      CHECK(!table.kappa_below(kappa, table.kappa_cut(r * (1.0 + 1e-12))));
    }
    // The bound is not vacuous: far partners are pruned by a near one's cost.
    if (grid == kDefaultGrid) CHECK(table.kappa_below(0.5, table.kappa_cut(table.wd(0.5, 0.95) / 0.25)));
  }
}

TEST_CASE("least_merge_cost of every level agrees with the table's costs (ties: the first)") {
  // Candidates j = idx[k] with the same sign as wa, |w_j| >= |wa|, kappa in
  // [0, 1] (exact 0 and 1, node values and near-duplicates included); the
  // scalar loop must give the first k of least s^2 wd(wa / s, kappa_j) to the
  // bit; the vector levels the same cost to 1e-12 (they may fuse a multiply
  // and an add) and the same k unless another candidate is that close.
  const LookupTable& table = lookup_table(kDefaultGrid);
  Random rng(77);
  for (Index q : {0, 1, 3, 4, 7, 8, 9, 16, 37, 250, 601}) {
    for (int trial = 0; trial < 20; ++trial) {
      const double wa = (trial % 2 ? -1.0 : 1.0) * (0.01 + rng.uniform());
      const Index n = q + 5;
      std::vector<double> w(static_cast<std::size_t>(n)), kappa(w.size());
      for (Index j = 0; j < n; ++j) {
        w[j] = wa * (1.0 + (j % 9 == 4 ? 0.0 : 3.0 * rng.uniform()));
        kappa[j] = j % 10 == 3 ? 0.0 : j % 10 == 6 ? 1.0 : j % 10 == 8 ? std::floor(rng.uniform() * 401) / 400
                                                                        : rng.uniform() * rng.uniform();
      }
      std::vector<Index> idx;  // a random increasing subset of size q
      for (Index j = 0; j < n && static_cast<Index>(idx.size()) < q; ++j) {
        if (n - j <= q - static_cast<Index>(idx.size()) || rng.uniform() < 0.8) idx.push_back(j);
      }
      // trial 3 mod 4: the least cost is attained twice (a duplicate later on)
      if (q >= 2 && trial % 4 == 3) {
        const Index p = idx[static_cast<std::size_t>(q / 3)], r = idx[static_cast<std::size_t>(q - 1)];
        w[p] = w[r] = wa * 1.0001;
        kappa[p] = kappa[r] = 0.999;
      }
      Index ref = -1;
      double ref_cost = HUGE_VAL;
      std::vector<double> costs(static_cast<std::size_t>(q));
      for (Index k = 0; k < q; ++k) {
        const Index j = idx[k];
        const double s = wa + w[j];
        costs[k] = s * s * table.wd(wa / s, kappa[j]);
        if (costs[k] < ref_cost) ref_cost = costs[k], ref = k;
      }
      double second = HUGE_VAL;  // the least cost of another candidate
      for (Index k = 0; k < q; ++k) {
        if (k != ref && costs[k] != ref_cost) second = std::min(second, costs[k]);
      }
      for (auto level : simd::supported_levels()) {
        double cost = -1.0;
        const Index k = simd::least_merge_cost_for(level)(w.data(), wa, kappa.data(), idx.data(), q,
                                                         table.wd_grid(), &cost);
        if (q == 0) {
          CHECK(k == -1);
          CHECK(cost == HUGE_VAL);
          continue;
        }
        CHECK(k >= 0 && k < q);
        if (level <= simd::Level::sse2) {
          CHECK(k == ref);
          CHECK(cost == ref_cost);
        } else {
          CHECK(std::fabs(cost - ref_cost) <= 1e-12 * ref_cost);
          if (second > ref_cost * (1.0 + 1e-9)) CHECK(k == ref);  // ties among duplicates: the first
        }
      }
    }
  }
}

TEST_CASE("bad input") {
  CHECK_THROWS(solve(Method::gss, -0.1, 0.5), std::invalid_argument);
  CHECK_THROWS(solve(Method::gss, 0.5, 1.5), std::invalid_argument);
  CHECK_THROWS(from_name(method_names(), "golden", "method"), std::invalid_argument);
  CHECK_THROWS(LookupTable(3), std::invalid_argument);
}

int main() { return budgetsvm::test::run_all(); }
