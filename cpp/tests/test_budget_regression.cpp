// Tests of regression and novelty detection on a budget (budget/regression.hpp):
// the merge of signed coefficients against brute force, BSCA's SVR
// coordinate step against a brute-force 1-D maximisation, and small runs of
// the solvers against exact solutions.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "budgetsvm/budget/bsca.hpp"
#include "budgetsvm/budget/maintenance.hpp"
#include "budgetsvm/budget/merge.hpp"
#include "budgetsvm/budget/regression.hpp"
#include "budgetsvm/core/random.hpp"
#include "check.hpp"

using namespace budgetsvm;
using namespace budgetsvm::budget;

namespace {

using Dense = DenseView<double, Eigen::RowMajor>;

MatrixXd random_matrix(Index n, Index d, std::uint64_t seed) {
  Random rng(seed);
  MatrixXd X(n, d);
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) X(i, k) = rng.uniform() * 2.0 - 1.0;
  return X;
}

double rbf(const Eigen::Vector2d& u, const Eigen::Vector2d& v, double gamma) {
  return std::exp(-gamma * (u - v).squaredNorm());
}

// min over z = h a + (1 - h) b (h on a grid of 4000) and beta_z (a grid of
// 4000 around the best value for that z) of ||beta_a phi(a) + beta_b phi(b) - beta_z phi(z)||^2.
double brute_merge_error(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double ba, double bb, double gamma) {
  const double kab = rbf(a, b, gamma);
  const double base = ba * ba + bb * bb + 2.0 * ba * bb * kab;
  const double lo = std::min(0.0, 1.5 * (ba + bb)), hi = std::max(0.0, 1.5 * (ba + bb));
  double best = std::numeric_limits<double>::infinity();
  const int grid = 4000;
  for (int i = 0; i <= grid; ++i) {
    const double h = static_cast<double>(i) / grid;
    const Eigen::Vector2d z = h * a + (1.0 - h) * b;
    const double p = ba * rbf(a, z, gamma) + bb * rbf(b, z, gamma);  // <w, phi(z)>
    for (int j = 0; j <= grid; ++j) {
      const double bz = lo + (hi - lo) * j / grid;
      best = std::min(best, base - 2.0 * bz * p + bz * bz);
    }
  }
  return best;
}

}  // namespace

TEST_CASE("signed coefficients: a same-sign pair of either sign merges to the brute-force optimum") {
  const Index d = 2;
  const double gamma = 1.3;
  for (const double sign : {1.0, -1.0}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const MatrixXd X = random_matrix(3, d, 40 + seed);
      ViewRows<Dense> rows(Dense(X.data(), 3, d));
      // slot 0 has the least |beta|; its only same-sign partner is slot 1;
      // slot 2 (the other sign) must never be its partner.
      const double betas[3] = {sign * 0.3, sign * (0.5 + 0.3 * static_cast<double>(seed)), -sign * 0.35};
      for (int method = 0; method < 2; ++method) {
        BudgetModel model(d, 2, 1, Kernel{KernelType::rbf, gamma, 0.0, 3});
        SampleRow row;
        for (Index i = 0; i < 3; ++i) {
          rows.load(i, row);
          model.add(row, &betas[i]);
        }
        Counters counters;
        if (method == 0) {
          MergeMaintenance<merge::GssSolver> merger(model, merge::GssSolver{1e-10});
          merger.reduce(model, counters, nullptr);
        } else {
          MergeMaintenance<merge::LookupWdSolver> merger(model, merge::LookupWdSolver{&merge::lookup_table(400)});
          merger.reduce(model, counters, nullptr);
        }
        CHECK(counters.merges == 1);
        CHECK(model.size() == 2);
        // slot 0 now holds the merged (beta_z, z); slot 1 the opposite-sign SV (moved from slot 2)
        Eigen::Vector2d z, x2;
        for (Index k = 0; k < d; ++k) z[k] = model.feature(0, k), x2[k] = model.feature(1, k);
        CHECK_CLOSE((x2 - X.row(2).transpose()).norm(), 0.0, 1e-12);
        CHECK_CLOSE(model.beta(1), betas[2], 1e-12);
        const double bz = model.beta(0);
        CHECK(bz * sign > 0.0);  // the merged coefficient keeps the pair's sign
        const Eigen::Vector2d a = X.row(0).transpose(), b = X.row(1).transpose();
        const double ba = betas[0], bb = betas[1];
        const double err = ba * ba + bb * bb + bz * bz + 2 * ba * bb * rbf(a, b, gamma) -
                           2 * bz * (ba * rbf(a, z, gamma) + bb * rbf(b, z, gamma));
        const double brute = brute_merge_error(a, b, ba, bb, gamma);
        // the grids resolve the optimum to ~1e-6 of the pair's weight squared;
        // the lookup table interpolates h* (its WD error ~1e-5)
        const double tol = (method == 0 ? 2e-6 : 5e-5) * (ba + bb) * (ba + bb);
        CHECK(err >= brute - tol);
        CHECK(err <= brute + tol);
        // z on the segment between a and b
        const double h = (z - b).dot(a - b) / (a - b).squaredNorm();
        CHECK(h >= -1e-12 && h <= 1.0 + 1e-12);
        CHECK_CLOSE((h * a + (1 - h) * b - z).norm(), 0.0, 1e-12);
      }
    }
  }
}

TEST_CASE("signed coefficients: opposite signs are never merged (removal when no partner has the sign)") {
  const Index d = 2;
  const MatrixXd X = random_matrix(3, d, 7);
  ViewRows<Dense> rows(Dense(X.data(), 3, d));
  const double betas[3] = {-0.1, 0.5, 0.7};  // the least |beta| has no same-sign partner
  BudgetModel model(d, 2, 1, Kernel{KernelType::rbf, 1.0, 0.0, 3});
  SampleRow row;
  for (Index i = 0; i < 3; ++i) {
    rows.load(i, row);
    model.add(row, &betas[i]);
  }
  Counters counters;
  MergeMaintenance<merge::LookupWdSolver> merger(model, merge::LookupWdSolver{&merge::lookup_table(400)});
  merger.reduce(model, counters, nullptr);
  CHECK(counters.merges == 0);
  CHECK(counters.removals == 1);
  CHECK(model.size() == 2);
  for (Index j = 0; j < 2; ++j) CHECK(model.beta(j) > 0.0);
}

TEST_CASE("the SVR coordinate step maximises the 1-D dual piece (brute force)") {
  Random rng(5);
  for (int trial = 0; trial < 400; ++trial) {
    const double q = 0.2 + 2.0 * rng.uniform();
    const double C = 0.05 + 3.0 * rng.uniform();
    const double beta = (2.0 * rng.uniform() - 1.0) * C;
    const double r = (2.0 * rng.uniform() - 1.0) * 4.0;
    const double eps = trial % 5 == 0 ? 0.0 : 1.5 * rng.uniform();
    auto value = [&](double b) { return -0.5 * q * (b - beta) * (b - beta) + r * (b - beta) - eps * std::fabs(b); };
    const double step = svr_coordinate_step(beta, r, q, eps, C);
    CHECK(step >= -C && step <= C);
    // brute force: a grid of 200001 points on [-C, C], then a finer one around the best
    const int n = 200000;
    double best_b = -C, best = value(-C);
    for (int i = 0; i <= n; ++i) {
      const double b = -C + 2.0 * C * i / n;
      if (value(b) > best) best = value(b), best_b = b;
    }
    const double width = 2.0 * C / n;
    for (int i = -1000; i <= 1000; ++i) {
      const double b = std::clamp(best_b + width * i / 1000.0, -C, C);
      if (value(b) > best) best = value(b), best_b = b;
    }
    CHECK(value(step) >= best - 1e-12);
    CHECK_CLOSE(step, best_b, 1e-6 * C + 1e-9);
  }
}

namespace {

// y = sin(3 x0) + 0.5 x1 on [-1, 1]^2, n rows.
struct Problem {
  MatrixXd X;
  std::vector<double> z;
};

Problem smooth_problem(Index n, std::uint64_t seed) {
  Problem p{random_matrix(n, 2, seed), std::vector<double>(static_cast<std::size_t>(n))};
  for (Index i = 0; i < n; ++i) p.z[static_cast<std::size_t>(i)] = std::sin(3.0 * p.X(i, 0)) + 0.5 * p.X(i, 1);
  return p;
}

// The epsilon-SVR dual objective z^T beta - eps |beta|_1 - 1/2 beta^T K beta of a
// model whose support vectors are training rows (B >= n, no maintenance) with
// coefficients beta; rows not in the model have beta 0. Also checks the box.
double svr_dual(const Problem& p, const Result& r, double eps, double gamma, double C, bool* in_box) {
  const Index n = p.X.rows(), m = r.support_vectors.rows();
  std::vector<double> beta(static_cast<std::size_t>(n), 0.0);
  for (Index j = 0; j < m; ++j) {
    Index found = -1;
    for (Index i = 0; i < n && found < 0; ++i)
      if ((p.X.row(i) - r.support_vectors.row(j)).norm() < 1e-12) found = i;
    if (found < 0) return std::numeric_limits<double>::quiet_NaN();
    beta[static_cast<std::size_t>(found)] += r.dual_coef(j, 0);
  }
  *in_box = true;
  double value = 0.0;
  for (Index i = 0; i < n; ++i) {
    const double bi = beta[static_cast<std::size_t>(i)];
    *in_box = *in_box && std::fabs(bi) <= C * (1.0 + 1e-9);
    value += p.z[static_cast<std::size_t>(i)] * bi - eps * std::fabs(bi);
    for (Index j = 0; j < n; ++j)
      value -= 0.5 * bi * beta[static_cast<std::size_t>(j)] *
               std::exp(-gamma * (p.X.row(i) - p.X.row(j)).squaredNorm());
  }
  return value;
}

}  // namespace

TEST_CASE("BSCA regression with B >= n climbs the SVR dual to its maximum (exact coordinate ascent)") {
  const Problem p = smooth_problem(60, 3);
  ViewRows<Dense> rows(Dense(p.X.data(), p.X.rows(), p.X.cols()), true);
  const double gamma = 2.0, C = 5.0, eps = 0.05;
  Params params;
  params.solver = Solver::bsca;
  params.budget = 200;
  params.C = C;
  params.kernel = Kernel{KernelType::rbf, gamma, 0.0, 3};
  params.seed = 1;
  RunControl control;
  bool in_box = false;
  double previous = -std::numeric_limits<double>::infinity();
  for (int epochs : {20, 200, 800}) {
    params.epochs = epochs;
    const Result r = fit_regression(rows, p.z.data(), eps, nullptr, params, {}, control);
    CHECK(r.totals.merges == 0 && r.totals.removals == 0);
    const double value = svr_dual(p, r, eps, gamma, C, &in_box);
    CHECK(in_box);
    CHECK(value >= previous - 1e-6);  // more epochs never worse (up to the averaging's noise)
    previous = value;
  }
  // Coordinate ascent with exact steps converges; the last two differ little.
  params.epochs = 1600;
  const Result r = fit_regression(rows, p.z.data(), eps, nullptr, params, {}, control);
  const double value = svr_dual(p, r, eps, gamma, C, &in_box);
  CHECK(std::fabs(value - previous) <= 1e-4 * std::fabs(value));
}

TEST_CASE("one-class BSGD: the fraction of training points with f < 0 follows nu") {
  const Index n = 2000;
  const MatrixXd X = random_matrix(n, 2, 11);
  ViewRows<Dense> rows(Dense(X.data(), n, 2), true);
  Params params;
  params.solver = Solver::bsgd;
  params.budget = 100;
  params.epochs = 5;
  params.kernel = Kernel{KernelType::rbf, 1.0, 0.0, 3};
  RunControl control;
  for (const double nu : {0.1, 0.3}) {
    const Result r = fit_one_class(rows, nu, nullptr, params, {}, control);
    CHECK(r.support_vectors.rows() <= 100);
    // the trained rho (intercept = -rho): the share of f(x_i) - rho < 0 near nu
    Index below = 0;
    for (Index i = 0; i < n; ++i) {
      double f = r.intercept[0];
      for (Index j = 0; j < r.support_vectors.rows(); ++j)
        f += r.dual_coef(j, 0) * std::exp(-(X.row(i) - r.support_vectors.row(j)).squaredNorm());
      below += f < 0.0 ? 1 : 0;
    }
    const double share = static_cast<double>(below) / static_cast<double>(n);
    CHECK(std::fabs(share - nu) <= 0.05);
  }
}

TEST_CASE("regression and one-class reject bad arguments") {
  const Problem p = smooth_problem(10, 2);
  ViewRows<Dense> rows(Dense(p.X.data(), p.X.rows(), p.X.cols()));
  Params params;
  RunControl control;
  bool threw = false;
  try {
    fit_regression(rows, p.z.data(), -0.1, nullptr, params, {}, control);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
  std::vector<double> z = p.z;
  z[3] = std::numeric_limits<double>::quiet_NaN();
  threw = false;
  try {
    fit_regression(rows, z.data(), 0.1, nullptr, params, {}, control);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
  params.solver = Solver::bsgd;
  for (const double nu : {0.0, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
    threw = false;
    try {
      fit_one_class(rows, nu, nullptr, params, {}, control);
    } catch (const std::invalid_argument&) {
      threw = true;
    }
    CHECK(threw);
  }
}

int main() { return budgetsvm::test::run_all(); }
