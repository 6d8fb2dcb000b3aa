// Tests of the budgeted step's maintenance paths: the kernel row of a support
// vector from its non-zero features (budget/model.hpp) and a merge that takes
// the new support vector's kernel row from the margin (budget/maintenance.hpp),
// against float64 naive loops and a brute-force partner search.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "budgetsvm/budget/maintenance.hpp"
#include "budgetsvm/budget/model.hpp"
#include "budgetsvm/core/random.hpp"
#include "budgetsvm/core/simd.hpp"
#include "check.hpp"
#include "csr_copy.hpp"

using namespace budgetsvm;
using namespace budgetsvm::budget;

namespace {

using Dense = DenseView<double, Eigen::RowMajor>;
using Csr = CsrView<double, std::int32_t>;

MatrixXd random_matrix(Index n, Index d, std::uint64_t seed, double density) {
  Random rng(seed);
  MatrixXd X(n, d);
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) X(i, k) = rng.uniform() < density ? rng.uniform() * 2 - 1 : 0.0;
  return X;
}

using test::CsrCopy;

double gauss(const MatrixXd& X, Index i, Index j, double gamma) {
  return std::exp(-gamma * (X.row(i) - X.row(j)).squaredNorm());
}

}  // namespace

TEST_CASE("kernel row of a support vector (sparse and dense, every level) equals float64 brute force") {
  const Index n = 45, d = 30;
  const double gamma = 0.2;
  const Kernel kernel{KernelType::rbf, gamma, 0.0, 3};
  for (double density : {0.1, 0.5, 1.0}) {
    const MatrixXd X = random_matrix(n, d, 7, density);
    const CsrCopy csr(X);
    ViewRows<Csr> sparse(csr.view(n, d));
    ViewRows<Dense> dense(Dense(X.data(), n, d));
    for (auto level : simd::supported_levels()) {
      BudgetModel model(d, n, 1, kernel, simd::kernels_for(level));
      SampleRow row;
      for (Index i = 0; i < n; ++i) {
        (i % 2 ? static_cast<const Rows&>(sparse) : static_cast<const Rows&>(dense)).load(i, row);
        const double beta = 1.0;
        model.add(row, &beta);
      }
      std::vector<double> out(static_cast<std::size_t>(model.capacity()));
      for (Index p : {Index{0}, Index{1}, Index{17}, n - 1}) {
        model.kernel_row_of_sv(p, out.data());
        for (Index j = 0; j < n; ++j) CHECK_CLOSE(out[static_cast<std::size_t>(j)], gauss(X, p, j, gamma), 1e-13);
      }
    }
  }
}

TEST_CASE("merge with the new support vector's row from the margin equals the computed row") {
  const Index d = 12, B = 30;
  const double gamma = 0.4;
  const Kernel kernel{KernelType::rbf, gamma, 0.0, 3};
  const merge::LookupWdSolver solver{&merge::lookup_table(merge::kDefaultGrid)};
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const MatrixXd X = random_matrix(B + 1, d, 40 + seed, 0.4);
    const CsrCopy csr(X);
    ViewRows<Csr> rows(csr.view(B + 1, d));
    for (bool newest_smallest : {true, false}) {
      BudgetModel fresh(d, B, 1, kernel), reused(d, B, 1, kernel);
      Random rng(seed);
      SampleRow row;
      std::vector<double> krow(static_cast<std::size_t>(fresh.capacity()));
      for (Index i = 0; i <= B; ++i) {
        rows.load(i, row);
        // the newest SV has the smallest |beta| (the usual case) or not
        double beta = (rng.uniform() < 0.7 ? 1.0 : -1.0) * (0.5 + rng.uniform());
        if (i == B) beta = newest_smallest ? 0.01 : 0.9;
        if (i == 3 && !newest_smallest) beta = 0.001;
        if (i == B) reused.kernel_row(row, krow.data());  // the step's margin row
        fresh.add(row, &beta, i);
        reused.add(row, &beta, i);
      }
      // a is not the newest: the given row must be ignored (NaN would show)
      if (!newest_smallest) std::fill(krow.begin(), krow.end(), std::numeric_limits<double>::quiet_NaN());
      MergeMaintenance<merge::LookupWdSolver> m1(fresh, solver), m2(reused, solver);
      Counters c1, c2;
      m1.reduce(fresh, c1, nullptr);
      m2.reduce(reused, c2, nullptr, krow.data());
      CHECK(c1.merges == 1 && c2.merges == 1);
      CHECK_CLOSE(c2.merge_degradation, c1.merge_degradation, 1e-12 * (1 + c1.merge_degradation));
      CHECK(fresh.size() == B && reused.size() == B);
      for (Index j = 0; j < B; ++j) {
        CHECK_CLOSE(reused.beta(j), fresh.beta(j), 1e-12);
        for (Index k = 0; k < d; ++k) CHECK_CLOSE(reused.feature(j, k), fresh.feature(j, k), 1e-12);
      }
      // and both merged the brute-force partner (float64 kernel values)
      const Index a = newest_smallest ? B : 3;
      std::vector<double> w(static_cast<std::size_t>(B + 1));
      double best = std::numeric_limits<double>::infinity();
      Index best_j = -1;
      Random rng2(seed);
      for (Index i = 0; i <= B; ++i) {
        double beta = (rng2.uniform() < 0.7 ? 1.0 : -1.0) * (0.5 + rng2.uniform());
        if (i == B) beta = newest_smallest ? 0.01 : 0.9;
        if (i == 3 && !newest_smallest) beta = 0.001;
        w[static_cast<std::size_t>(i)] = beta;
      }
      for (Index j = 0; j <= B; ++j) {
        if (j == a) continue;
        const double wa = w[static_cast<std::size_t>(a)], wj = w[static_cast<std::size_t>(j)];
        if (!(wa * wj > 0)) continue;
        const double s = wa + wj;
        const double cost = s * s * solver.table->wd(wa / s, gauss(X, a, j, gamma));
        if (cost < best) best = cost, best_j = j;
      }
      CHECK(best_j >= 0);
      CHECK_CLOSE(c1.merge_degradation, best, 1e-9 * (1 + best));
    }
  }
}

int main() { return budgetsvm::test::run_all(); }

TEST_CASE("the pruned partner search (lookup-wd) picks the brute-force partner, ties included, every level") {
  // Models of up to 600 support vectors, near and far points, duplicated
  // coefficients and points (exact ties in cost): partner() must return the
  // first j of least s^2 wd(wa / s, kappa_j) over the same-sign j != a.
  const Kernel kernel{KernelType::rbf, 0.3, 0.0, 3};
  const merge::LookupWdSolver solver{&merge::lookup_table(merge::kDefaultGrid)};
  for (Index B : {2, 9, 64, 600}) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const Index d = 5;
      const MatrixXd X = random_matrix(B, d, 90 + seed + static_cast<std::uint64_t>(B), 1.0);
      for (auto level : simd::supported_levels()) {
        BudgetModel model(d, B, 1, kernel, simd::kernels_for(level));
        Random rng(seed);
        ViewRows<Dense> rows(Dense(X.data(), B, d));
        SampleRow row;
        std::vector<double> w(static_cast<std::size_t>(B));
        for (Index i = 0; i < B; ++i) {
          // every third point repeats an earlier one; coefficients repeat too
          rows.load(i % 3 == 2 && seed % 2 ? i / 2 : i, row);
          w[i] = (rng.uniform() < 0.6 ? 1.0 : -1.0) * (i % 4 == 1 ? 1.0 : 0.05 + rng.uniform());
          model.add(row, &w[i]);
        }
        MergeMaintenance<merge::LookupWdSolver> merger(model, solver);
        double least = HUGE_VAL;
        for (double v : w) least = std::min(least, std::fabs(v));
        for (Index a : {Index{0}, B / 2, B - 1}) {
          // a must carry the least |beta| (reduce's choice): a smaller one,
          // or (odd seeds) one tied with the least so far
          const double kept = w[a];
          w[a] = (kept > 0 ? 1.0 : -1.0) * (seed % 2 ? least : 0.01);
          model.coef()[a] = w[a];
          const auto [j, cost] = merger.partner(model, a);
          std::vector<double> k(static_cast<std::size_t>(model.capacity()));
          model.kernel_row_of_sv(a, k.data());
          Index best = -1;
          double best_cost = std::numeric_limits<double>::infinity(), second = best_cost;
          std::vector<double> costs(static_cast<std::size_t>(B), HUGE_VAL);
          for (Index c = 0; c < B; ++c) {
            if (c == a || !(w[c] * w[a] > 0.0)) continue;
            const double s = model.coef()[a] + model.coef()[c];
            costs[c] = s * s * solver.candidate(model.coef()[a] / s, std::clamp(k[c], 0.0, 1.0));
            if (costs[c] < best_cost) best_cost = costs[c], best = c;
          }
          for (Index c = 0; c < B; ++c) {
            if (c != best && costs[c] != best_cost) second = std::min(second, costs[c]);
          }
          // the scalar levels to the bit; the vector levels' costs may differ
          // in the last bits (budget/simd_merge.hpp): the same partner unless
          // another is that close, and exact ties resolve to the first
          if (level <= simd::Level::sse2 || best < 0) {
            CHECK(j == best);
            CHECK(cost == best_cost);
          } else {
            CHECK(std::fabs(cost - best_cost) <= 1e-12 * best_cost);
            if (second > best_cost * (1.0 + 1e-9)) CHECK(j == best);
            if (j != best) CHECK(std::fabs(costs[j] - best_cost) <= 1e-9 * best_cost);
          }
          w[a] = kept;
          model.coef()[a] = kept;
        }
      }
    }
  }
}
