// Tests of the blocked epochs (budget/block.hpp): every block size gives the
// steps of the unblocked epoch (a block of one row: each step's kernel row
// computed at that step), and the model does not depend on n_jobs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "budgetsvm/budget/block.hpp"
#include "budgetsvm/core/random.hpp"
#include "budget_params.hpp"
#include "check.hpp"
#include "fit_once.hpp"
#include "csr_copy.hpp"
#include "labelled_points.hpp"

using namespace budgetsvm;
using namespace budgetsvm::budget;

namespace {

using Dense = DenseView<double, Eigen::RowMajor>;
using Csr = CsrView<double, std::int32_t>;

// A noisy non-linear problem in 6 dimensions with `classes` classes (a
// tenth of the labels at random): with a budget of 25 nearly every step
// merges.
struct Noisy : test::LabelledPoints {
  Noisy(Index n, int classes, std::uint64_t seed, double density = 1.0)
      : LabelledPoints(n, 6, seed, [classes, density](Random& rng, auto& x) {
          for (Index k = 0; k < 6; ++k) x(k) = rng.uniform() < density ? 2 * rng.uniform() - 1 : 0.0;
          const double s = x(0) * x(1) + std::sin(3 * x(2)) + 0.5 * x(3);
          int c = classes == 2 ? (s > 0 ? 1 : 0) : static_cast<int>(std::clamp((s + 1.5) / 3.0, 0.0, 0.999) * classes);
          if (rng.uniform() < 0.1) c = static_cast<int>(rng.below(static_cast<std::uint64_t>(classes)));
          return c;
        }) {}
};

using test::CsrCopy;

/// The decision values of a result on the rows of X (float64 brute force).
MatrixXd decision(const Result& r, const MatrixXd& X, double gamma) {
  MatrixXd f(X.rows(), r.n_outputs);
  for (Index i = 0; i < X.rows(); ++i)
    for (int c = 0; c < r.n_outputs; ++c) {
      double s = r.intercept[static_cast<std::size_t>(c)];
      for (Index j = 0; j < r.support_vectors.rows(); ++j)
        s += r.dual_coef(j, c) * std::exp(-gamma * (r.support_vectors.row(j) - X.row(i)).squaredNorm());
      f(i, c) = s;
    }
  return f;
}

Result train(const Noisy& data, int classes, const Params& p, bool sparse, const std::vector<double>* weight = nullptr) {
  RunControl control;
  const double* w = weight ? weight->data() : nullptr;
  if (sparse) {
    const CsrCopy csr(data.X);
    ViewRows<Csr> rows(csr.view(data.X.rows(), data.X.cols()), true);
    return test::fit_once(rows, data.y.data(), w, classes, p, {}, control);
  }
  ViewRows<Dense> rows(Dense(data.X.data(), data.X.rows(), data.X.cols()), true);
  return test::fit_once(rows, data.y.data(), w, classes, p, {}, control);
}

/// A failed check with what it was about.
#define CHECK_FOR(what, cond)                                    \
  do {                                                           \
    if (!(cond)) std::printf("  for %s:\n", (what).c_str());     \
    CHECK(cond);                                                 \
  } while (0)

void check_same_steps(const Result& a, const Result& b, const MatrixXd& X, double gamma, const std::string& what) {
  CHECK_FOR(what, a.totals.steps == b.totals.steps);
  CHECK_FOR(what, a.totals.sv_added == b.totals.sv_added);
  CHECK_FOR(what, a.totals.merges == b.totals.merges);
  CHECK_FOR(what, a.totals.removals == b.totals.removals);
  CHECK_FOR(what, a.totals.projections == b.totals.projections);
  CHECK_FOR(what, a.support_vectors.rows() == b.support_vectors.rows());
  if (a.support_vectors.rows() != b.support_vectors.rows()) return;
  const MatrixXd fa = decision(a, X, gamma), fb = decision(b, X, gamma);
  const double scale = std::max(1.0, fa.cwiseAbs().maxCoeff());
  CHECK_FOR(what, (fa - fb).cwiseAbs().maxCoeff() <= 1e-9 * scale);
  if (std::getenv("BLOCKS_VERBOSE"))
    std::printf("%s: steps %lld added %lld merges %lld removals %lld projections %lld, diff %.3g of %.3g\n", what.c_str(),
                b.totals.steps, b.totals.sv_added, b.totals.merges, b.totals.removals, b.totals.projections,
                (fa - fb).cwiseAbs().maxCoeff(), scale);
}

struct Case {
  const char* name;
  Solver solver;
  int classes;
  Maintenance maintenance;
  bool sparse, intercept, weighted;
  int epochs;
  Index budget = 25;
};

}  // namespace

TEST_CASE("block sizes: the rows per block follow the budget") {
  CHECK(block_rows_for(500) == 124);
  CHECK(block_rows_for(2000) == 256);
  CHECK(block_rows_for(10) == 16);
  CHECK(block_rows_for(8000) == 64);
  CHECK(block_rows_for(8000, 7) == 7);
  CHECK(block_rows_for(Index{1} << 40) >= 16);
}

TEST_CASE("every block size takes the unblocked epoch's steps") {
  const Case cases[] = {
      {"bsgd binary merge", Solver::bsgd, 2, Maintenance::merge, false, false, false, 2},
      {"bsgd binary merge sparse intercept", Solver::bsgd, 2, Maintenance::merge, true, true, false, 2},
      {"bsgd 3 classes merge", Solver::bsgd, 3, Maintenance::merge, false, false, true, 2},
      {"bsgd binary removal", Solver::bsgd, 2, Maintenance::remove, false, false, false, 2},
      {"bsgd binary projection", Solver::bsgd, 2, Maintenance::project, false, false, false, 1},
      {"bsca one pass merge", Solver::bsca, 2, Maintenance::merge, false, false, false, 1},
      {"bsca 3 epochs merge sparse weighted", Solver::bsca, 2, Maintenance::merge, true, true, true, 3},
      {"bsca 3 classes merge", Solver::bsca, 3, Maintenance::merge, false, false, false, 2},
      {"bsca binary removal", Solver::bsca, 2, Maintenance::remove, false, false, false, 2},
      {"bsca binary projection", Solver::bsca, 2, Maintenance::project, false, true, false, 1},
      // copies whose alpha returns to 0 leave the model (the last slot moves)
      {"bsca 5 epochs, a large budget", Solver::bsca, 2, Maintenance::merge, false, false, false, 5, 300},
  };
  const double gamma = 0.5;
  for (const Case& c : cases) {
    const Noisy data(700, c.classes, 11, c.sparse ? 0.6 : 1.0);
    std::vector<double> weight(static_cast<std::size_t>(data.X.rows()));
    Random rng(5);
    for (double& w : weight) w = rng.uniform() < 0.05 ? 0.0 : 0.5 + rng.uniform();
    Params p = test::rbf_budget_params(c.solver, c.budget, gamma, c.epochs, 3);
    p.C = 5.0;
    p.maintenance = c.maintenance;
    p.fit_intercept = c.intercept;
    p.block_rows = 1;
    const Result reference = train(data, c.classes, p, c.sparse, c.weighted ? &weight : nullptr);
    CHECK(reference.totals.merges + reference.totals.removals + reference.totals.projections >
          reference.totals.steps / 10);
    for (Index b : {Index{2}, Index{7}, Index{16}, Index{100}, Index{5000}}) {
      p.block_rows = b;
      const Result blocked = train(data, c.classes, p, c.sparse, c.weighted ? &weight : nullptr);
      check_same_steps(reference, blocked, data.X, gamma, std::string(c.name) + ", block " + std::to_string(b));
    }
  }
}

TEST_CASE("the model does not depend on n_jobs") {
  const double gamma = 0.5;
  for (Solver solver : {Solver::bsgd, Solver::bsca}) {
    for (int classes : {2, 3}) {
      const Noisy data(3000, classes, 4);
      Params p = test::rbf_budget_params(solver, 300, gamma, 2, 9);
      p.C = 5.0;
      p.block_rows = 0;
      std::vector<Result> results;
      for (int jobs : {1, 2, 7}) {
        p.n_jobs = jobs;
        results.push_back(train(data, classes, p, false));
      }
      const std::string what = std::string(solver == Solver::bsgd ? "bsgd" : "bsca") + ", classes " +
                               std::to_string(classes);
      for (std::size_t k = 1; k < results.size(); ++k) {
        CHECK_FOR(what, results[k].support_vectors == results[0].support_vectors);
        CHECK_FOR(what, results[k].dual_coef == results[0].dual_coef);
        CHECK_FOR(what, results[k].intercept == results[0].intercept);
      }
    }
  }
}

int main() { return budgetsvm::test::run_all(); }
