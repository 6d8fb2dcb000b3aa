// Tests of the linear dual coordinate descent (budgetsvm/linear): the
// solution's KKT conditions and dual objective computed from scratch, every
// policy and loss against each other, dense == CSR, the bias coordinate
// against an explicitly appended column, all-zero rows, one-vs-rest threads.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "budgetsvm/core/data_view.hpp"
#include "budgetsvm/core/random.hpp"
#include "budgetsvm/linear/params.hpp"
#include "budgetsvm/linear/fit.hpp"
#include "check.hpp"
#include "field_tables.hpp"

using namespace budgetsvm;
using namespace budgetsvm::linear;

namespace {

// A sparse-ish binary problem with a few all-zero rows, as dense and CSR.
struct Problem {
  Index n, d;
  std::vector<double> dense;  // row-major
  std::vector<double> values;
  std::vector<std::int32_t> indices, indptr;
  std::vector<double> y, C;

  Problem(Index n_, Index d_, std::uint64_t seed, double c, bool zero_rows = true) : n(n_), d(d_) {
    Random rng(seed);
    std::vector<double> truth(static_cast<std::size_t>(d));
    for (auto& t : truth) t = rng.uniform() * 2 - 1;
    dense.assign(static_cast<std::size_t>(n * d), 0.0);
    indptr.push_back(0);
    for (Index i = 0; i < n; ++i) {
      double score = 0.0;
      const bool zero = zero_rows && i % 17 == 3;
      for (Index j = d - 1; j >= 0; --j) {  // unsorted CSR indices
        if (zero || rng.uniform() < 0.5) continue;
        const double v = rng.uniform() * 2 - 1;
        dense[static_cast<std::size_t>(i * d + j)] = v;
        values.push_back(v);
        indices.push_back(static_cast<std::int32_t>(j));
        score += v * truth[static_cast<std::size_t>(j)];
      }
      indptr.push_back(static_cast<std::int32_t>(values.size()));
      const double noise = rng.uniform() - 0.5;
      y.push_back(score + 0.3 * noise >= 0 ? 1.0 : -1.0);
      C.push_back(c * (1.0 + 0.5 * static_cast<double>(i % 3)));  // per-sample C
    }
  }
  DenseView<double, Eigen::RowMajor> dense_view() const { return {dense.data(), n, d}; }
  CsrView<double, std::int32_t> csr_view() const {
    return {values.data(), indices.data(), indptr.data(), n, d};
  }
  double x(Index i, Index j) const { return dense[static_cast<std::size_t>(i * d + j)]; }
};

// Independent check of a solution: w from alpha, exact gradients, max KKT
// violation and the dual objective, all from the definitions.
struct Check {
  double violation = 0.0, objective = 0.0, w_error = 0.0;
};

Check check_solution(const Problem& P, const Result& r, bool squared, double s) {
  Check c;
  std::vector<double> w(static_cast<std::size_t>(P.d + 1), 0.0);
  double sum_alpha = 0.0, sum_d = 0.0;
  for (Index i = 0; i < P.n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const double a = r.alpha[k];
    sum_alpha += a;
    if (squared && P.C[k] > 0) sum_d += a * a * 0.5 / P.C[k];
    for (Index j = 0; j < P.d; ++j) w[static_cast<std::size_t>(j)] += a * P.y[k] * P.x(i, j);
    w[static_cast<std::size_t>(P.d)] += a * P.y[k] * s;
  }
  double ww = 0.0;
  for (std::size_t j = 0; j < w.size(); ++j) {
    ww += w[j] * w[j];
    c.w_error = std::max(c.w_error, std::fabs(w[j] - r.w[j]));
  }
  c.objective = sum_alpha - 0.5 * ww - 0.5 * sum_d;
  for (Index i = 0; i < P.n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    double m = s * w[static_cast<std::size_t>(P.d)];
    for (Index j = 0; j < P.d; ++j) m += w[static_cast<std::size_t>(j)] * P.x(i, j);
    const double a = r.alpha[k];
    const double U = squared ? std::numeric_limits<double>::infinity() : P.C[k];
    const double G = P.y[k] * m - 1.0 + (squared ? a * 0.5 / P.C[k] : 0.0);
    double pg = G;
    if (a <= 0) pg = std::min(G, 0.0);
    else if (a >= U) pg = std::max(G, 0.0);
    if (a < -1e-15 || a > U + 1e-12) pg = std::numeric_limits<double>::infinity();
    c.violation = std::max(c.violation, std::fabs(pg));
  }
  return c;
}

template <class View>
Result run(SelectionType sel, LossType loss, const View& X, const Problem& P, double tol,
           double s = 0.0, std::int64_t max_iter = 0) {
  Options o;
  o.tol = tol;
  o.bias_scale = s;
  o.seed = 7;
  o.max_iter = max_iter;
  RunControl control;
  return solve(loss, sel, X, P.y.data(), P.C.data(), o, control);
}

const SelectionType kSelections[] = {SelectionType::uniform, SelectionType::shrinking,
                                     SelectionType::avsf, SelectionType::auto_};

}  // namespace

TEST_CASE("every policy and loss reaches a KKT point with the right objective") {
  Problem P(300, 12, 1, 1.0);
  for (bool squared : {false, true}) {
    const LossType loss = squared ? LossType::squared_hinge : LossType::hinge;
    double reference = std::numeric_limits<double>::quiet_NaN();
    for (SelectionType sel : kSelections) {
      for (double s : {0.0, 1.5}) {
        const Result r = run(sel, loss, P.csr_view(), P, 1e-8, s);
        const Check c = check_solution(P, r, squared, s);
        // The run's own KKT measure is taken as each index is visited; the
        // exact one at the end must be as small (to rounding).
        CHECK(c.violation < 1e-6);
        CHECK(c.w_error < 1e-9);
        CHECK_CLOSE(r.stats.dual_objective, c.objective, 1e-8 * std::fabs(c.objective));
        CHECK(r.stats.status == Status::converged);
        CHECK(r.stats.kkt_violation < 1e-6);
        if (s == 0.0) {
          if (std::isnan(reference)) reference = c.objective;
          CHECK_CLOSE(c.objective, reference, 1e-9 * std::fabs(reference));
        }
      }
    }
  }
}

TEST_CASE("auto hands over from shrinking to AVSF on wide data, and solves it") {
  Problem P(60, 40, 11, 10.0, /*zero_rows=*/false);  // d >= n/2: the AVSF branch
  for (bool squared : {false, true}) {
    Options o;
    o.tol = 1e-8;
    o.auto_switch_sweeps = 2;
    RunControl control;
    const LossType loss = squared ? LossType::squared_hinge : LossType::hinge;
    const Result r = solve(loss, SelectionType::auto_, P.csr_view(), P.y.data(), P.C.data(), o, control);
    CHECK(r.stats.sweeps > 2);
    CHECK(check_solution(P, r, squared, 0.0).violation < 1e-6);
    const Result s = run(SelectionType::shrinking, loss, P.csr_view(), P, 1e-8);
    CHECK_CLOSE(r.stats.dual_objective, s.stats.dual_objective, 1e-9 * std::fabs(s.stats.dual_objective));
  }
}

TEST_CASE("dense and CSR views give the same run") {
  Problem P(200, 9, 2, 3.0);
  for (SelectionType sel : kSelections) {
    const Result a = run(sel, LossType::hinge, P.dense_view(), P, 1e-4, 1.0);
    const Result b = run(sel, LossType::hinge, P.csr_view(), P, 1e-4, 1.0);
    CHECK(a.stats.steps == b.stats.steps);
    for (std::size_t j = 0; j < a.w.size(); ++j) CHECK_CLOSE(a.w[j], b.w[j], 1e-10);
  }
}

TEST_CASE("the bias coordinate equals an appended constant column") {
  Problem P(150, 6, 3, 2.0, /*zero_rows=*/true);
  const double s = 0.7;
  Problem Q = P;  // dense copy with the column appended
  Q.d = P.d + 1;
  Q.dense.clear();
  for (Index i = 0; i < P.n; ++i) {
    for (Index j = 0; j < P.d; ++j) Q.dense.push_back(P.x(i, j));
    Q.dense.push_back(s);
  }
  for (bool squared : {false, true}) {
    const LossType loss = squared ? LossType::squared_hinge : LossType::hinge;
    const Result a = run(SelectionType::shrinking, loss, P.dense_view(), P, 1e-9, s);
    const Result b = run(SelectionType::shrinking, loss, Q.dense_view(), Q, 1e-9, 0.0);
    for (Index j = 0; j <= P.d; ++j)
      CHECK_CLOSE(a.w[static_cast<std::size_t>(j)], b.w[static_cast<std::size_t>(j)], 1e-6);
    CHECK_CLOSE(a.stats.dual_objective, b.stats.dual_objective, 1e-8 * std::fabs(b.stats.dual_objective));
  }
}

TEST_CASE("all-zero rows: alpha goes to C under the hinge loss, no division by zero") {
  Problem P(60, 5, 4, 0.5);
  for (SelectionType sel : kSelections) {
    const Result r = run(sel, LossType::hinge, P.csr_view(), P, 1e-6);
    for (Index i = 3; i < P.n; i += 17) {
      const auto k = static_cast<std::size_t>(i);
      CHECK(std::isfinite(r.alpha[k]));
      CHECK_CLOSE(r.alpha[k], P.C[k], 1e-15);
    }
    for (double v : r.w) CHECK(std::isfinite(v));
    // Squared hinge: Q_ii = 1/(2C) > 0 and alpha = 2C (g = 1 - alpha/(2C) = 0).
    const Result q = run(sel, LossType::squared_hinge, P.csr_view(), P, 1e-9);
    for (Index i = 3; i < P.n; i += 17)
      CHECK_CLOSE(q.alpha[static_cast<std::size_t>(i)], 2 * P.C[static_cast<std::size_t>(i)], 1e-8);
  }
}

TEST_CASE("samples with C_i = 0 are left out") {
  Problem P(100, 6, 5, 1.0);
  Problem Q = P;
  for (Index i = 0; i < P.n; i += 4) Q.C[static_cast<std::size_t>(i)] = 0.0;
  const Result r = run(SelectionType::avsf, LossType::squared_hinge, Q.csr_view(), Q, 1e-9);
  for (Index i = 0; i < P.n; i += 4) CHECK(r.alpha[static_cast<std::size_t>(i)] == 0.0);
  CHECK(check_solution(Q, r, true, 0.0).violation < 1e-6);
}

TEST_CASE("max_iter stops the run and says so") {
  Problem P(300, 12, 6, 100.0);
  const Result r = run(SelectionType::shrinking, LossType::hinge, P.csr_view(), P, 1e-12, 0.0, 3);
  CHECK(r.stats.status == Status::max_iter_reached);
  CHECK(r.stats.sweeps == 3);
}

TEST_CASE("bad arguments throw invalid_argument") {
  Problem P(20, 3, 7, 1.0);
  Options o;
  RunControl control;
  o.tol = 0.0;
  CHECK_THROWS(solve(LossType::hinge, SelectionType::avsf, P.csr_view(), P.y.data(), P.C.data(), o, control),
               std::invalid_argument);
  o.tol = 1e-3;
  std::vector<double> badC = P.C;
  badC[2] = -1.0;
  CHECK_THROWS(solve(LossType::hinge, SelectionType::avsf, P.csr_view(), P.y.data(), badC.data(), o, control),
               std::invalid_argument);
  Params p;
  CHECK_THROWS(find_option(params_options(), "selection", "linear").set(p, OptionValue(std::string("fast"))),
               std::invalid_argument);
  CHECK_THROWS(find_option(params_options(), "loss", "linear").set(p, OptionValue(std::string("log"))),
               std::invalid_argument);
}

TEST_CASE("one-vs-rest: threads give the same models as one thread") {
  Problem P(240, 8, 8, 1.0);
  std::vector<int> labels;
  for (Index i = 0; i < P.n; ++i) labels.push_back(static_cast<int>(i % 4));
  std::vector<double> cw{1.0, 2.0, 0.5, 1.0}, sw(static_cast<std::size_t>(P.n), 1.0);
  Options o;
  o.tol = 1e-6;
  o.bias_scale = 1.0;
  RunControl control;
  const auto one = one_vs_rest(P.csr_view(), labels, 4, 1.0, cw, sw, LossType::squared_hinge,
                               SelectionType::auto_, o, 1, control);
  const auto two = one_vs_rest(P.csr_view(), labels, 4, 1.0, cw, sw, LossType::squared_hinge,
                               SelectionType::auto_, o, 3, control);
  CHECK(one.size() == 4);
  CHECK(two.size() == 4);
  for (std::size_t k = 0; k < one.size(); ++k) {
    CHECK(one[k].stats.steps == two[k].stats.steps);
    for (std::size_t j = 0; j < one[k].w.size(); ++j) CHECK(one[k].w[j] == two[k].w[j]);
  }
  // Class weights scale the positive class of each problem only (liblinear):
  // problem 1 with weight 2 equals a binary run with C_i = 2 for class 1.
  Problem Q = P;
  for (Index i = 0; i < P.n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    Q.y[u] = labels[u] == 1 ? 1.0 : -1.0;
    Q.C[u] = labels[u] == 1 ? 2.0 : 1.0;
  }
  o.seed = 1;  // problem k is seeded with seed + k
  const Result r = solve(LossType::squared_hinge, SelectionType::auto_, Q.csr_view(), Q.y.data(),
                         Q.C.data(), o, control);
  for (std::size_t j = 0; j < r.w.size(); ++j) CHECK(r.w[j] == one[1].w[j]);
}

TEST_CASE("a stop request ends one-vs-rest with Interrupted") {
  Problem P(400, 10, 9, 1000.0);
  std::vector<int> labels;
  for (Index i = 0; i < P.n; ++i) labels.push_back(static_cast<int>(i % 3));
  std::vector<double> cw(3, 1.0), sw(static_cast<std::size_t>(P.n), 1.0);
  Options o;
  o.tol = 1e-14;
  RunControl stop([] { return true; }, 0.0);
  CHECK_THROWS(one_vs_rest(P.csr_view(), labels, 3, 1000.0, cw, sw, LossType::hinge,
                           SelectionType::uniform, o, 2, stop),
               Interrupted);
}

TEST_CASE("equal rows are found in any index order, with stored zeros and repeated indices") {
  // rows: 0 = {0: 1, 2: 2}; 1 = same, reversed, with a stored zero at 1;
  // 2 = {2: 2, 0: 0.5, 0: 0.5} (repeated index sums to 1); 3 = {0: 1};
  // 4 = empty; 5 = {1: 0} (only a stored zero: equal to the empty row)
  const std::vector<double> values{1, 2, 2, 0, 1, 2, 0.5, 0.5, 1, 0};
  const std::vector<std::int32_t> indices{0, 2, 2, 1, 0, 2, 0, 0, 0, 1};
  const std::vector<std::int32_t> indptr{0, 2, 5, 8, 9, 9, 10};
  CsrView<double, std::int32_t> X(values.data(), indices.data(), indptr.data(), 6, 3);
  RunControl control;
  const auto first = first_copies(X, control);
  CHECK(first == (std::vector<Index>{0, 0, 0, 3, 4, 4}));
  // merging follows the labels: row 1 has the other label, row 2 joins row 0
  const std::vector<double> y{1, -1, 1, 1, -1, -1};
  std::vector<double> C{1, 2, 3, 4, 0, 5};
  const std::vector<double> original = C;
  const auto rep = representatives(first, y.data());
  CHECK(rep == (std::vector<Index>{0, 1, 0, 3, 4, 4}));
  CHECK(merge_copies(rep, C) == 2);
  CHECK(C == (std::vector<double>{4, 2, 0, 4, 5, 0}));
  std::vector<double> alpha{2, 1.5, 0, 4, 5, 0};  // a solution of the merged problem
  split_alpha(rep, original, C, alpha);
  CHECK_CLOSE(alpha[0], 0.5, 1e-15);  // 2 * 1/4
  CHECK_CLOSE(alpha[2], 1.5, 1e-15);  // 2 * 3/4
  CHECK(alpha[1] == 1.5);
  CHECK(alpha[3] == 4.0);             // at its bound: exactly C_i
  CHECK(alpha[4] == 0.0);             // C_4 = 0: nothing
  CHECK(alpha[5] == 5.0);             // the zero-C representative passes all to its copy
}

TEST_CASE("merging equal rows gives the unmerged optimum") {
  for (const bool squared : {false, true}) {
    Problem p(300, 8, 11, 0.8, true);  // every 17th row is all-zero: equal rows
    // repeat rows 0..59 once more with the same labels
    Problem q = p;
    for (Index i = 0; i < 60; ++i) {
      for (Index j = 0; j < p.d; ++j) q.dense.push_back(p.dense[static_cast<std::size_t>(i * p.d + j)]);
      q.y.push_back(p.y[static_cast<std::size_t>(i)]);
    }
    q.n = p.n + 60;
    DenseView<double, Eigen::RowMajor> X(q.dense.data(), q.n, q.d);
    std::vector<int> labels;
    for (double v : q.y) labels.push_back(v > 0 ? 1 : 0);
    Options merged, plain;
    merged.tol = plain.tol = 1e-6;
    merged.merge_duplicates = true;
    RunControl control;
    const std::vector<double> ones(static_cast<std::size_t>(q.n), 1.0), cw{1.0, 1.0};
    const auto loss = squared ? LossType::squared_hinge : LossType::hinge;
    const auto a = one_vs_rest(X, labels, 2, 0.8, cw, ones, loss, SelectionType::shrinking, merged, 1, control);
    const auto b = one_vs_rest(X, labels, 2, 0.8, cw, ones, loss, SelectionType::shrinking, plain, 1, control);
    CHECK(a[0].stats.merged_rows >= 60);
    CHECK(b[0].stats.merged_rows == 0);
    CHECK_CLOSE(a[0].stats.dual_objective, b[0].stats.dual_objective, 1e-6 * std::fabs(b[0].stats.dual_objective));
    for (std::size_t j = 0; j < a[0].w.size(); ++j) CHECK_CLOSE(a[0].w[j], b[0].w[j], 1e-3);
  }
}

TEST_CASE("field tables: every statistic of a run once, the status by its name") {
  const std::vector<std::string> names{"sweeps",        "steps",           "dual_objective", "kkt_violation",
                                       "primal_objective", "merged_rows", "status"};
  CHECK(field_names<Stats>() == names);
  for (const Status status : {Status::converged, Status::max_iter_reached}) {
    Stats s;
    s.status = status;
    std::string shown;
    Stats::for_each_field(s, [&](const char* name, const auto& value) {
      if constexpr (std::is_same_v<std::decay_t<decltype(value)>, const char*>)
        if (std::string(name) == "status") shown = value;
    });
    CHECK(shown == (status == Status::converged ? "converged" : "max_iter_reached"));
  }
}

int main() { return budgetsvm::test::run_all(); }
