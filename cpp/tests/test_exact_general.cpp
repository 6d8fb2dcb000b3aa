// Tests of the general dual (dual_state.hpp's reset_problem, general.hpp):
// the start's gradient and G_bar against an explicit kernel matrix, SMO
// and the nu path on epsilon-SVR / nu-SVC problems against brute-force KKT
// conditions and their equality constraints, and the C-SVC special case
// (p = -1, a0 = 0) giving the C-SVC path's alpha bit for bit.
#include <cmath>
#include <cstdint>
#include <vector>

#include "budgetsvm/core/random.hpp"
#include "budgetsvm/exact/fit.hpp"
#include "budgetsvm/exact/general.hpp"
#include "check.hpp"

using namespace budgetsvm;
using namespace budgetsvm::exact;

namespace {

using DenseRM = DenseView<double, Eigen::RowMajor>;

struct Data {
  Index n, d;
  std::vector<double> X, z;
  Kernel kernel{KernelType::rbf, 0.5, 0.0, 3};
  Data(Index rows, Index cols, std::uint64_t seed) : n(rows), d(cols) {
    Random rng(seed);
    X.resize(static_cast<std::size_t>(n * d));
    z.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
      double s = 0.0;
      for (Index j = 0; j < d; ++j) {
        const double v = rng.uniform() * 2.0 - 1.0;
        X[static_cast<std::size_t>(i * d + j)] = v;
        s += v * (j + 1);
      }
      z[static_cast<std::size_t>(i)] = std::sin(s) + 0.1 * (rng.uniform() - 0.5);
    }
  }
  DenseRM view() const { return DenseRM(X.data(), n, d); }
  double k(Index a, Index b) const {
    double dot = 0.0, na = 0.0, nb = 0.0;
    for (Index j = 0; j < d; ++j) {
      const double u = X[static_cast<std::size_t>(a * d + j)], v = X[static_cast<std::size_t>(b * d + j)];
      dot += u * v;
      na += u * u;
      nb += v * v;
    }
    return kernel.from_dot(dot, na, nb);
  }
};

/// Q over positions (rows[t] the row of position t).
Eigen::MatrixXd Q_of(const Data& D, const std::vector<Index>& rows, const std::vector<double>& y) {
  const Index m = static_cast<Index>(rows.size());
  Eigen::MatrixXd Q(m, m);
  for (Index a = 0; a < m; ++a)
    for (Index b = 0; b < m; ++b)
      Q(a, b) = y[static_cast<std::size_t>(a)] * y[static_cast<std::size_t>(b)] *
                D.k(rows[static_cast<std::size_t>(a)], rows[static_cast<std::size_t>(b)]);
  return Q;
}

/// The largest KKT violation from alpha alone (G by the explicit Q); per
/// label on the nu path.
double kkt_gap(const Eigen::MatrixXd& Q, const DualProblem& P, const std::vector<double>& alpha) {
  const Index m = static_cast<Index>(alpha.size());
  const Eigen::Map<const Eigen::VectorXd> a(alpha.data(), m);
  const Eigen::Map<const Eigen::VectorXd> p(P.p.data(), m);
  const Eigen::VectorXd G = Q * a + p;
  double up[2] = {-INFINITY, -INFINITY}, low[2] = {INFINITY, INFINITY};
  for (Index t = 0; t < m; ++t) {
    const double yt = P.y[static_cast<std::size_t>(t)], C = P.upper[static_cast<std::size_t>(t)], q = -yt * G[t];
    const int l = P.nu && yt < 0 ? 1 : 0;
    if (in_up_set(yt, a[t], C)) up[l] = std::max(up[l], q);
    if (in_low_set(yt, a[t], C)) low[l] = std::min(low[l], q);
  }
  return std::max(up[0] - low[0], up[1] - low[1]);
}

/// epsilon-SVR on the rows of D: 2n positions, the rows twice.
DualProblem svr_problem(const Data& D, double C, double eps, std::vector<Index>& rows) {
  DualProblem P;
  rows.clear();
  for (int copy = 0; copy < 2; ++copy)
    for (Index i = 0; i < D.n; ++i) {
      rows.push_back(i);
      const double z = D.z[static_cast<std::size_t>(i)];
      P.y.push_back(copy == 0 ? 1.0 : -1.0);
      P.p.push_back(copy == 0 ? eps - z : eps + z);
      P.upper.push_back(C);
    }
  return P;
}

}  // namespace

TEST_CASE("general dual: the start's gradient is p + Q a0 and G_bar sums the bound variables") {
  const Data D(40, 3, 1);
  std::vector<Index> rows;
  DualProblem P = svr_problem(D, 1.0, 0.1, rows);
  Random rng(3);
  P.alpha0.resize(P.y.size());
  for (double& a : P.alpha0) {
    const double u = rng.uniform();
    a = u < 0.3 ? 0.0 : u < 0.6 ? 1.0 : rng.uniform();
  }
  ViewKernelSource<DenseRM> source(D.view(), D.kernel, rows, 1);
  KernelCache cache(source, 16e6, 4);
  DualState s(cache, P.y, 1.0, 1.0);
  RunControl control;
  s.reset_problem(P.y, P.upper, P.p, P.alpha0, control);
  const Eigen::MatrixXd Q = Q_of(D, rows, P.y);
  const Index m = static_cast<Index>(rows.size());
  const Eigen::Map<const Eigen::VectorXd> a(P.alpha0.data(), m);
  const Eigen::VectorXd G = Q * a + Eigen::Map<const Eigen::VectorXd>(P.p.data(), m);
  double delta = 0.0;
  for (Index t = 0; t < m; ++t) {
    double bar = 0.0;
    for (Index u = 0; u < m; ++u)
      if (P.alpha0[static_cast<std::size_t>(u)] >= 1.0) bar += Q(t, u);
    CHECK_CLOSE(s.G(t), G[t], 1e-5);
    CHECK_CLOSE(s.G_bar(t), bar, 1e-5);
    delta += P.y[static_cast<std::size_t>(t)] * a[t];
  }
  CHECK_CLOSE(s.delta(), delta, 1e-12);
  CHECK_CLOSE(s.objective(), 0.5 * a.dot(Q * a) + a.dot(Eigen::Map<const Eigen::VectorXd>(P.p.data(), m)), 1e-4);
  P.alpha0[0] = 2.0;  // outside its box
  CHECK_THROWS(s.reset_problem(P.y, P.upper, P.p, P.alpha0, control), std::invalid_argument);
}

TEST_CASE("general dual: epsilon-SVR by SMO (shrinking) and ALFPGM meets the KKT conditions") {
  const Data D(150, 4, 2);
  std::vector<Index> rows;
  const DualProblem P = svr_problem(D, 2.0, 0.05, rows);
  const Eigen::MatrixXd Q = Q_of(D, rows, P.y);
  double objective[2];
  int k = 0;
  for (ExactSolver solver : {ExactSolver::smo, ExactSolver::alfpgm}) {
    ViewKernelSource<DenseRM> source(D.view(), D.kernel, rows, 1);
    ExactSettings settings;
    settings.tol = 1e-6;
    settings.solver = solver;
    settings.alfpgm.pairs = 8;
    RunControl control;
    const DualResult r = solve_dual(source, P, settings, control);
    CHECK(r.converged);
    CHECK(kkt_gap(Q, P, r.alpha) < 1e-4);  // float kernel cache: the explicit Q differs in the 7th digit
    double balance = 0.0;
    for (std::size_t t = 0; t < r.alpha.size(); ++t) balance += P.y[t] * r.alpha[t];
    CHECK_CLOSE(balance, 0.0, 1e-10);
    objective[k++] = r.objective;
  }
  CHECK_CLOSE(objective[0], objective[1], 1e-6 * std::fabs(objective[0]));
}

TEST_CASE("general dual: nu path keeps both sums and meets each label's KKT conditions") {
  const Data D(400, 3, 4);
  std::vector<double> y(static_cast<std::size_t>(D.n)), upper(static_cast<std::size_t>(D.n), 1.0);
  std::vector<Index> rows;
  for (Index i = 0; i < D.n; ++i) {
    y[static_cast<std::size_t>(i)] = D.z[static_cast<std::size_t>(i)] > 0 ? 1.0 : -1.0;
    rows.push_back(i);
  }
  const DualProblem P = nu_svc_problem(y, upper, 0.4);
  double start_sum[2] = {0.0, 0.0};
  for (std::size_t t = 0; t < y.size(); ++t) start_sum[y[t] > 0 ? 0 : 1] += P.alpha0[t];
  ViewKernelSource<DenseRM> source(D.view(), D.kernel, rows, 1);
  ExactSettings settings;
  settings.tol = 1e-6;
  RunControl control;
  DualResult r = solve_dual(source, P, settings, control);
  CHECK(r.converged);
  CHECK(kkt_gap(Q_of(D, rows, y), P, r.alpha) < 1e-4);
  double sum[2] = {0.0, 0.0};
  for (std::size_t t = 0; t < y.size(); ++t) sum[y[t] > 0 ? 0 : 1] += r.alpha[t];
  CHECK_CLOSE(sum[0], start_sum[0], 1e-9);
  CHECK_CLOSE(sum[1], start_sum[1], 1e-9);
  CHECK_CLOSE(start_sum[0], 0.4 * static_cast<double>(D.n) / 2.0, 1e-9);
  CHECK(r.r > 0.0);
  // shrinking per label (the default above) against none: the same optimum
  ViewKernelSource<DenseRM> plain(D.view(), D.kernel, rows, 1);
  settings.shrinking = false;
  const DualResult unshrunk = solve_dual(plain, P, settings, control);
  CHECK(unshrunk.converged);
  CHECK_CLOSE(unshrunk.objective, r.objective, 1e-6 * std::fabs(r.objective));
  CHECK_CLOSE(unshrunk.rho, r.rho, 1e-4);
  // an infeasible nu: more than the smaller class can hold
  std::vector<double> lopsided(y.size(), -1.0);
  lopsided[0] = 1.0;
  CHECK_THROWS(nu_svc_problem(lopsided, upper, 0.5), std::invalid_argument);
}

TEST_CASE("general dual: p = -1 from alpha = 0 gives the C-SVC path's alpha bit for bit") {
  const Data D(200, 3, 5);
  std::vector<double> y(static_cast<std::size_t>(D.n));
  for (Index i = 0; i < D.n; ++i) y[static_cast<std::size_t>(i)] = D.z[static_cast<std::size_t>(i)] > 0 ? 1.0 : -1.0;
  ExactSettings settings;
  settings.solver = ExactSolver::smo;
  settings.C = 3.0;
  RunControl control;
  ViewKernelSource<DenseRM> a(D.view(), D.kernel, {}, 1), b(D.view(), D.kernel, {}, 1);
  const ExactResult c_svc = fit_exact(a, y, settings, control);
  DualProblem P;
  P.y = y;
  P.upper.assign(y.size(), 3.0);
  P.p.assign(y.size(), -1.0);
  const DualResult general = solve_dual(b, P, settings, control);
  CHECK(c_svc.alpha == general.alpha);
  CHECK(c_svc.iterations == general.iterations);
  CHECK(c_svc.intercept == general.intercept);
  CHECK(c_svc.objective == general.objective);
}

int main() { return budgetsvm::test::run_all(); }
