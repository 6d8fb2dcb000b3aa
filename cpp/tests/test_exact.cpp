// Tests of the exact kernel SVM: working set selection against brute force,
// the two-variable step against a 1-D search, the ALFPGM sub-problem against
// a brute-force active-set enumeration, and the full solvers' KKT
// conditions and objectives (ALFPGM against SMO, both against an explicit
// kernel matrix).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/LU>

#include "budgetsvm/core/random.hpp"
#include "budgetsvm/exact/fit.hpp"
#include "budgetsvm/exact/ovo.hpp"
#include "budgetsvm/exact/simd_subproblem.hpp"
#include "check.hpp"
#include "field_tables.hpp"

using namespace budgetsvm;
using namespace budgetsvm::exact;

namespace {

using DenseRM = DenseView<double, Eigen::RowMajor>;

struct Problem {
  Index n, d;
  std::vector<double> X, y;
  Kernel kernel{KernelType::rbf, 0.5, 0.0, 3};

  Problem(Index rows, Index cols, std::uint64_t seed, double overlap = 0.8) : n(rows), d(cols) {
    Random rng(seed);
    X.resize(static_cast<std::size_t>(n * d));
    y.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
      const double label = rng.uniform() < 0.4 ? 1.0 : -1.0;
      y[static_cast<std::size_t>(i)] = label;
      for (Index j = 0; j < d; ++j)
        X[static_cast<std::size_t>(i * d + j)] = (rng.uniform() * 2.0 - 1.0) * 1.5 + (j == 0 ? overlap * label : 0.0);
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
  Eigen::MatrixXd Q() const {
    Eigen::MatrixXd q(n, n);
    for (Index a = 0; a < n; ++a)
      for (Index b = 0; b < n; ++b) q(a, b) = y[static_cast<std::size_t>(a)] * y[static_cast<std::size_t>(b)] * k(a, b);
    return q;
  }
};

// Independent KKT check from alpha alone: gradient by the explicit Q.
double kkt_gap(const Problem& P, const std::vector<double>& alpha, double C_pos, double C_neg) {
  const Eigen::MatrixXd Q = P.Q();
  const Eigen::Map<const Eigen::VectorXd> a(alpha.data(), P.n);
  const Eigen::VectorXd G = Q * a - Eigen::VectorXd::Ones(P.n);
  double up = -INFINITY, low = INFINITY;
  for (Index t = 0; t < P.n; ++t) {
    const double yt = P.y[static_cast<std::size_t>(t)], C = yt > 0 ? C_pos : C_neg, q = -yt * G[t];
    const bool at_lo = a[t] <= 0.0, at_hi = a[t] >= C;
    if (yt > 0 ? !at_hi : !at_lo) up = std::max(up, q);
    if (yt > 0 ? !at_lo : !at_hi) low = std::min(low, q);
  }
  return up - low;
}

// The solvers keep the gradient from float kernel columns (as LIBSVM does):
// against the exact double Q, the gap may exceed tol by float rounding of
// sum_s a_s K_ts, a few 1e-7 relative per term.
double float_slack(const std::vector<double>& alpha) {
  double s = 0.0;
  for (double a : alpha) s += a;
  return 1e-6 * s;
}

double dual_objective(const Problem& P, const std::vector<double>& alpha) {
  const Eigen::Map<const Eigen::VectorXd> a(alpha.data(), P.n);
  return 0.5 * a.dot(P.Q() * a) - a.sum();
}

ExactSettings settings_for(ExactSolver solver, double C, double tol) {
  ExactSettings s;
  s.C = C;
  s.tol = tol;
  s.solver = solver;
  s.cache_mb = 1.0;
  s.alfpgm.pairs = 8;
  return s;
}

// A state at a random feasible-box point (y^T a = 0 is not needed for the
// selection rules) with its exact gradient.
struct RandomState {
  Problem P;
  ViewKernelSource<DenseRM> source;
  KernelCache cache;
  DualState state;
  RandomState(Index n, std::uint64_t seed, int jobs = 1, double cache_bytes = 1e6)
      : P(n, 3, seed),
        source(P.view(), P.kernel, {}, jobs),
        cache(source, cache_bytes, 4),
        state(cache, P.y, 1.0, 2.0, jobs) {
    Random rng(seed + 100);
    std::vector<Index> all;
    std::vector<double> values;
    for (Index t = 0; t < n; ++t) {
      all.push_back(t);
      const double u = rng.uniform();
      const double C = P.y[static_cast<std::size_t>(t)] > 0 ? 1.0 : 2.0;
      values.push_back(u < 0.3 ? 0.0 : u < 0.5 ? C : C * rng.uniform());
    }
    // Move in blocks of columns (fits the cache).
    for (Index start = 0; start < n; start += 4) {
      std::vector<Index> B;
      std::vector<double> v;
      for (Index t = start; t < std::min(n, start + 4); ++t) {
        B.push_back(t);
        v.push_back(values[static_cast<std::size_t>(t)]);
      }
      std::vector<const float*> cols;
      state.fetch_active(B, cols);
      state.move(B, v, cols);
    }
  }
};

}  // namespace

TEST_CASE("dual state: the kept gradient equals Q a - e") {
  RandomState R(30, 1);
  const Eigen::Map<const Eigen::VectorXd> a(R.state.alpha().data(), 30);
  const Eigen::VectorXd G = R.P.Q() * a - Eigen::VectorXd::Ones(30);
  for (Index t = 0; t < 30; ++t) CHECK_CLOSE(R.state.G(t), G[t], 1e-5);
}

TEST_CASE("dual state: G and G_bar after moves while shrunk, and unshrink, equal brute force") {
  // Bound changes while places are shrunk leave G_bar's share of those
  // places to unshrink (DualState::apply_pending_bar); moves to and from
  // the upper bound, some of them undone, across several shrinks.
  int shrunk_rounds = 0;
  for (std::uint64_t seed : {2u, 5u, 11u}) {
    for (int jobs : {1, 2}) {
      RandomState R(400, seed, jobs, 64e6);
      DualState& s = R.state;
      RunControl control;
      Random rng(seed + 7);
      // From the optimum (y^T a as the random start has it) many bound
      // variables shrink; the moves below then change bounds while shrunk.
      CHECK(solve_smo(s, 1e-3, 1000000, true, control).converged);
      for (int phase = 0; phase < 3; ++phase) {
        s.shrink(1e-3, control);
        for (int m = 0; m < 12 && s.shrunk(); ++m) {
          ++shrunk_rounds;
          std::vector<Index> B;
          std::vector<double> v;
          const std::vector<Index>& active = s.active();
          for (int k = 0; k < 6; ++k) {
            const Index t = active[static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(active.size())))];
            if (std::find(B.begin(), B.end(), t) != B.end()) continue;
            const double u = rng.uniform();
            B.push_back(t);
            v.push_back(u < 0.4 ? s.upper(t) : u < 0.6 ? 0.0 : u < 0.8 ? s.upper(t) * rng.uniform() : s.alpha(t));
          }
          std::vector<const float*> cols;
          s.fetch_active(B, cols);
          s.move(B, v, cols);
        }
      }
      s.unshrink(control);
      CHECK(!s.shrunk());
      const Index n = s.n();
      const Eigen::Map<const Eigen::VectorXd> a(s.alpha().data(), n);
      const Eigen::MatrixXd Q = R.P.Q();
      const Eigen::VectorXd G = Q * a - Eigen::VectorXd::Ones(n);
      for (Index t = 0; t < n; ++t) {
        double bar = 0.0;
        for (Index u = 0; u < n; ++u)
          if (s.at_upper(u)) bar += s.upper(u) * Q(t, u);
        CHECK_CLOSE(s.G(t), G[t], 1e-4);
        CHECK_CLOSE(s.G_bar(t), bar, 1e-4);
      }
    }
  }
  CHECK(shrunk_rounds > 0);
}

TEST_CASE("second-order WSS: same pair as brute force") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RandomState R(25, seed);
    const DualState& s = R.state;
    std::vector<Index> all;
    for (Index t = 0; t < 25; ++t) all.push_back(t);
    // Brute force over all (i, j) of the rule.
    Index bi = -1;
    double qmax = -INFINITY;
    for (Index t = 0; t < 25; ++t)
      if (s.in_up(t) && s.q(t) > qmax) {
        qmax = s.q(t);
        bi = t;
      }
    Index bj = -1;
    double best = INFINITY;
    for (Index t = 0; t < 25; ++t) {
      if (!s.in_low(t) || s.q(t) >= qmax) continue;
      double a = R.P.k(bi, bi) + R.P.k(t, t) - 2.0 * R.P.k(bi, t);
      if (a <= 0) a = kTau;
      const double gain = -(qmax - s.q(t)) * (qmax - s.q(t)) / a;
      if (gain < best - 1e-9) {
        best = gain;
        bj = t;
      }
    }
    std::vector<const float*> cols;
    std::vector<Index> one(1);
    const PairChoice c = second_order_pair(s, all, 1e-3, [&](Index i) {
      one[0] = i;
      R.state.fetch_active(one, cols);
      return cols[0];
    });
    CHECK(c.i == bi);
    CHECK(c.j == bj);
    // pWSS with one pair and no limit is the same rule.
    std::vector<char> used(25, 0);
    const WorkingSet ws = select_pairs(s, all, 1, 0, 1e-3, used, [&](const std::vector<Index>& l, std::vector<const float*>& o) {
      R.state.fetch_active(l, o);
    });
    CHECK(ws.first.size() == 1 && ws.first[0] == bi && ws.second[0] == bj);
    CHECK(std::all_of(used.begin(), used.end(), [](char u) { return u == 0; }));
  }
}

TEST_CASE("pWSS: p pairs equal brute-force repeated selection with removal") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RandomState R(40, seed);
    const DualState& s = R.state;
    const double tol = 1e-3;
    for (Index limit : {Index{0}, Index{5}}) {
      const int p = 4;
      std::vector<Index> all;
      for (Index t = 0; t < 40; ++t) all.push_back(t);
      // Naive reference: i candidates = the top p of I_up by q (ties: lower
      // index); pair k takes the k-th of them unless already used, and its
      // j from the remaining I_low (the `limit` smallest q among unused).
      std::vector<Index> up;
      for (Index t : all)
        if (s.in_up(t)) up.push_back(t);
      std::stable_sort(up.begin(), up.end(), [&](Index a, Index b) { return s.q(a) > s.q(b); });
      up.resize(std::min<std::size_t>(up.size(), p));
      std::vector<Index> low;
      for (Index t : all)
        if (s.in_low(t)) low.push_back(t);
      std::stable_sort(low.begin(), low.end(), [&](Index a, Index b) { return s.q(a) < s.q(b); });
      std::vector<char> taken(40, 0);
      std::vector<Index> ref_i, ref_j;
      for (Index i : up) {
        if (taken[static_cast<std::size_t>(i)]) continue;
        Index bj = -1;
        double best = INFINITY;
        std::size_t checked = 0;
        for (Index t : low) {
          if (limit > 0 && checked >= static_cast<std::size_t>(limit)) break;
          if (taken[static_cast<std::size_t>(t)] || t == i) continue;
          ++checked;
          const double b = s.q(i) - s.q(t);
          if (b <= (ref_i.empty() ? 0.0 : tol)) continue;
          double a = R.P.k(i, i) + R.P.k(t, t) - 2.0 * R.P.k(i, t);
          if (a <= 0) a = kTau;
          if (-b * b / a < best - 1e-9) {
            best = -b * b / a;
            bj = t;
          }
        }
        if (bj < 0) continue;
        taken[static_cast<std::size_t>(i)] = taken[static_cast<std::size_t>(bj)] = 1;
        ref_i.push_back(i);
        ref_j.push_back(bj);
      }
      std::vector<char> used(40, 0);
      const WorkingSet ws = select_pairs(s, all, p, limit, tol, used, [&](const std::vector<Index>& l, std::vector<const float*>& o) {
        R.state.fetch_active(l, o);
      });
      CHECK(ws.first == ref_i);
      CHECK(ws.second == ref_j);
      CHECK(!ws.empty());
    }
  }
}

TEST_CASE("pWSS: the j searches pick the pairs of the sequential rule, for any n_jobs") {
  // The sequential rule of select_pairs without a limit, written plainly on
  // the same float columns: i = the top p of I_up by q; each unused i takes
  // the free I_low candidate of largest b^2 / a (b > 0, then b > tol once a
  // pair is chosen; ties: the lower index). p = 150 makes many i share their
  // best partners.
  // n = 6000 gives the j searches more candidates than kPipelineFrom, so
  // that two or more jobs walk the pairs on two threads (pipelined_walk).
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Index n = seed <= 2 ? 1500 : 6000;
    for (int p : {8, 32, 150}) {
      std::vector<std::vector<Index>> got_i, got_j;
      for (int jobs : {1, 2, 3}) {
        RandomState R(n, seed, jobs, 64e6);
        const DualState& s = R.state;
        const double tol = 1e-3;
        std::vector<Index> all;
        for (Index t = 0; t < s.n(); ++t) all.push_back(t);
        std::vector<char> used(static_cast<std::size_t>(s.n()), 0);
        const WorkingSet ws = select_pairs(s, all, p, 0, tol, used, [&](const std::vector<Index>& l, std::vector<const float*>& o) {
          R.state.fetch_active(l, o);
        });
        CHECK(std::all_of(used.begin(), used.end(), [](char u) { return u == 0; }));
        got_i.push_back(ws.first);
        got_j.push_back(ws.second);
        if (jobs != 1) continue;
        std::vector<Index> up;
        for (Index t : all)
          if (s.in_up(t)) up.push_back(t);
        std::stable_sort(up.begin(), up.end(), [&](Index a, Index b) { return s.q(a) > s.q(b); });
        up.resize(std::min<std::size_t>(up.size(), static_cast<std::size_t>(p)));
        std::vector<char> taken(static_cast<std::size_t>(s.n()), 0), gone(static_cast<std::size_t>(s.n()), 0);
        std::vector<Index> ref_i, ref_j;
        std::vector<const float*> cols;
        for (Index i : up) {
          if (taken[static_cast<std::size_t>(i)]) continue;
          R.state.fetch_active({i}, cols);
          Index bj = -1;
          double best = 0.0;
          for (Index t : all) {
            if (!s.in_low(t) || gone[static_cast<std::size_t>(t)]) continue;
            const double b = s.q(i) - s.q(t);
            if (!(b > (ref_i.empty() ? 0.0 : tol))) continue;
            const double gain = b * b / pair_curvature(s.diag(i), s.diag(t), static_cast<double>(cols[0][s.where(t)]));
            if (gain > best) {
              best = gain;
              bj = t;
            }
          }
          if (bj < 0) continue;
          taken[static_cast<std::size_t>(i)] = taken[static_cast<std::size_t>(bj)] = 1;
          gone[static_cast<std::size_t>(bj)] = 1;
          ref_i.push_back(i);
          ref_j.push_back(bj);
        }
        CHECK(ws.first == ref_i);
        CHECK(ws.second == ref_j);
        CHECK(ws.first.size() > static_cast<std::size_t>(p) / 2);
      }
      for (std::size_t k = 1; k < got_i.size(); ++k) {
        CHECK(got_i[0] == got_i[k]);
        CHECK(got_j[0] == got_j[k]);
      }
    }
  }
}

TEST_CASE("pWSS: the candidate scan gives the same lists on any number of threads") {
  // Against the plain rule: I_up members by descending q (ties: the lower
  // index), the first keep_up of them; I_low members in candidate order.
  // Candidates: a shuffled subset, so candidate order is not index order.
  RandomState R(700, 5);
  const DualState& s = R.state;
  Random rng(17);
  std::vector<Index> candidates;
  for (Index t = 0; t < s.n(); ++t)
    if (rng.below(5) != 0) candidates.push_back(t);
  rng.shuffle(candidates);
  std::vector<std::pair<double, Index>> up, low;
  Violation v;
  for (Index t : candidates) {
    if (s.in_up(t)) {
      up.emplace_back(-s.q(t), t);
      v.up_max = std::max(v.up_max, s.q(t));
    }
    if (s.in_low(t)) {
      low.emplace_back(s.q(t), t);
      v.low_min = std::min(v.low_min, s.q(t));
    }
  }
  std::sort(up.begin(), up.end());
  for (std::size_t keep : {std::size_t{1}, std::size_t{8}, std::size_t{150}, candidates.size()}) {
    const std::vector<std::pair<double, Index>> want_up(up.begin(), up.begin() + static_cast<std::ptrdiff_t>(std::min(keep, up.size())));
    for (int threads : {1, 2, 3}) {
      CandidateScan scan;
      scan.scan(s, candidates, keep, threads);
      CHECK(scan.up == want_up);
      CHECK(scan.low == low);
      CHECK(scan.violation.up_max == v.up_max && scan.violation.low_min == v.low_min);
    }
  }
  CandidateScan none;
  none.scan(s, std::vector<Index>{}, 4, 2);
  CHECK(none.up.empty() && none.low.empty() && none.violation.gap() < 0.0);
}

TEST_CASE("two-variable step: the minimum of the dual along the feasible segment") {
  Random rng(3);
  for (int trial = 0; trial < 2000; ++trial) {
    const double yi = rng.below(2) ? 1.0 : -1.0, yj = rng.below(2) ? 1.0 : -1.0;
    const double Ci = 0.5 + rng.uniform() * 2, Cj = 0.5 + rng.uniform() * 2;
    const double ai = rng.below(4) == 0 ? 0.0 : rng.uniform() * Ci;
    const double aj = rng.below(4) == 0 ? Cj : rng.uniform() * Cj;
    const double Kii = 0.2 + rng.uniform(), Kjj = 0.2 + rng.uniform();
    double Kij = (rng.uniform() * 2 - 1) * std::sqrt(Kii * Kjj);
    if (trial % 10 == 0) Kij = std::sqrt(Kii * Kjj) * (trial % 20 == 0 ? 1.0 : 1.2);  // a <= 0 cases
    const double Gi = rng.uniform() * 4 - 2, Gj = rng.uniform() * 4 - 2;
    const PairStep s = two_variable_step(yi, yj, ai, aj, Ci, Cj, Gi, Gj, Kii, Kjj, Kij);
    // Feasible and y-sum preserving.
    CHECK(s.alpha_i >= 0.0 && s.alpha_i <= Ci && s.alpha_j >= 0.0 && s.alpha_j <= Cj);
    CHECK_CLOSE(yi * s.alpha_i + yj * s.alpha_j, yi * ai + yj * aj, 1e-12);
    // Objective along d: phi(t) = -b t + a t^2 / 2, linear (to the bound)
    // where a <= 0.
    const double b = -yi * Gi + yj * Gj;
    double a = Kii + Kjj - 2 * Kij;
    if (a <= 0) a = 0.0;
    const double room_i = yi > 0 ? Ci - ai : ai, room_j = yj > 0 ? aj : Cj - aj;
    const double tmax = std::min(room_i, room_j);
    const double t = yi * (s.alpha_i - ai);
    const auto phi = [&](double u) { return -b * u + 0.5 * a * u * u; };
    double best = phi(0.0);
    for (int k = 1; k <= 2000; ++k) best = std::min(best, phi(tmax * k / 2000.0));
    best = std::min(best, phi(a > 0 ? std::clamp(b / a, 0.0, tmax) : tmax));
    CHECK(phi(t) <= best + 1e-9 * (1 + std::fabs(best)));
    CHECK(t >= -1e-15);
  }
}

TEST_CASE("two-variable step: zero curvature goes to the bound, however far") {
  // Coincident points (K_ii = K_jj = K_ij): the dual is linear along d.
  for (double C : {1.0, 1e6, 1e300}) {
    const PairStep s = two_variable_step(1.0, -1.0, 0.0, 0.0, C, C, -1.0, -1.0, 1.0, 1.0, 1.0);
    CHECK(s.alpha_i == C);
    CHECK(s.alpha_j == C);
    // Unequal rooms: the nearer bound stops the step.
    const PairStep t = two_variable_step(1.0, 1.0, 0.0, 0.5 * C, C, C, -2.0, -1.0, 4.0, 4.0, 4.0);
    CHECK(t.alpha_i == 0.5 * C);
    CHECK(t.alpha_j == 0.0);
  }
  // The cache's float curvature decides when it says "flat": the gradient
  // update will not see any curvature, so a Newton step b / a would crawl.
  const double d = 0.7;  // float(0.7) < 0.7: the double curvature is > 0
  const double Kf = static_cast<double>(static_cast<float>(d));
  const PairStep f = two_variable_step(1.0, -1.0, 0.0, 0.0, 1e300, 1e300, -1.0, -1.0, d, d, Kf, 0.0);
  CHECK(f.alpha_i == 1e300);
  // A concave direction (non-PSD kernel) also ends at the bound.
  const PairStep c = two_variable_step(1.0, -1.0, 0.0, 0.0, 1e9, 1e9, -1.0, -1.0, 1.0, 1.0, 2.0);
  CHECK(c.alpha_i == 1e9);
}

TEST_CASE("ALFPGM sub-problem: flat pair directions are stepped to the bound") {
  // Q of two coincident points with opposite labels (K = 1): the sub-problem
  // is linear along a_0 = a_1 and improves until the box bound.
  MatrixXd Q(2, 2);
  Q << 1.0, -1.0, -1.0, 1.0;
  VectorXd chi = VectorXd::Constant(2, -1.0), y(2), a = VectorXd::Zero(2);
  y << 1.0, -1.0;
  for (double C : {1.0, 1e300}) {
    const VectorXd u = VectorXd::Constant(2, C);
    a.setZero();
    const SubproblemReport r = solve_subproblem(Q, chi, y, u, 0.0, a, SubproblemSettings{});
    CHECK(a[0] == C);
    CHECK(a[1] == C);
    CHECK(r.inner_iterations <= 10);
    a.setZero();
    const SubproblemReport s = solve_subproblem_smo(Q, chi, y, u, a, 1e-3);
    CHECK(a[0] == C);
    CHECK(a[1] == C);
    CHECK(s.inner_iterations == 1);
  }
}

namespace {

// Brute force of min 1/2 a'Qa + chi'a, y'a = c, 0 <= a <= u for tiny m:
// every assignment of variables to {lower, upper, free}, the free ones by
// the KKT system of the equality-constrained QP.
double brute_force_subproblem(const Eigen::MatrixXd& Q, const Eigen::VectorXd& chi, const Eigen::VectorXd& y,
                              const Eigen::VectorXd& u, double c) {
  const Index m = Q.rows();
  double best = INFINITY;
  Index combos = 1;
  for (Index k = 0; k < m; ++k) combos *= 3;
  for (Index code = 0; code < combos; ++code) {
    Eigen::VectorXd a = Eigen::VectorXd::Zero(m);
    std::vector<Index> free;
    Index z = code;
    for (Index k = 0; k < m; ++k, z /= 3) {
      if (z % 3 == 1) a[k] = u[k];
      if (z % 3 == 2) free.push_back(k);
    }
    const Index f = static_cast<Index>(free.size());
    if (f > 0) {
      Eigen::MatrixXd A = Eigen::MatrixXd::Zero(f + 1, f + 1);
      Eigen::VectorXd rhs(f + 1);
      double fixed_sum = c;
      for (Index k = 0; k < m; ++k)
        if (std::find(free.begin(), free.end(), k) == free.end()) fixed_sum -= y[k] * a[k];
      for (Index r = 0; r < f; ++r) {
        for (Index s = 0; s < f; ++s) A(r, s) = Q(free[r], free[s]);
        A(r, f) = -y[free[r]];
        A(f, r) = y[free[r]];
        double lin = chi[free[r]];
        for (Index k = 0; k < m; ++k)
          if (std::find(free.begin(), free.end(), k) == free.end()) lin += Q(free[r], k) * a[k];
        rhs[r] = -lin;
      }
      rhs[f] = fixed_sum;
      const Eigen::VectorXd sol = A.fullPivLu().solve(rhs);
      if (!((A * sol - rhs).norm() < 1e-8)) continue;
      for (Index r = 0; r < f; ++r) a[free[r]] = sol[r];
    }
    bool feasible = std::fabs(y.dot(a) - c) < 1e-9;
    for (Index k = 0; k < m; ++k) feasible = feasible && a[k] >= -1e-12 && a[k] <= u[k] + 1e-12;
    if (feasible) best = std::min(best, 0.5 * a.dot(Q * a) + chi.dot(a));
  }
  return best;
}

}  // namespace

TEST_CASE("ALFPGM sub-problem, FPGM and SMO: optimum of brute-force active-set enumeration") {
  Random rng(17);
  for (int trial = 0; trial < 60; ++trial) {
    const Index m = 2 + static_cast<Index>(rng.below(5));  // 2..6
    Eigen::MatrixXd F(m, m + 1);
    for (Index r = 0; r < m; ++r)
      for (Index c = 0; c <= m; ++c) F(r, c) = rng.uniform() * 2 - 1;
    Eigen::VectorXd y(m), u(m), chi(m), a(m);
    for (Index k = 0; k < m; ++k) {
      y[k] = rng.below(2) ? 1.0 : -1.0;
      u[k] = 0.5 + rng.uniform() * 3;
      chi[k] = rng.uniform() * 4 - 2;
      a[k] = rng.uniform() * u[k];
    }
    if (trial % 3 == 0) y.setOnes();  // one class only in B
    const Eigen::MatrixXd Q = (trial % 4 == 0) ? Eigen::MatrixXd(F.leftCols(1) * F.leftCols(1).transpose())  // rank 1
                                               : Eigen::MatrixXd(F * F.transpose());
    const double c = y.dot(a);
    const double reference = brute_force_subproblem(Q, chi, y, u, c);
    SubproblemSettings settings;
    settings.eps = 1e-8;
    settings.max_inner = 20000;
    const Eigen::VectorXd start = a;
    const SubproblemReport report = solve_subproblem(Q, chi, y, u, c, a, settings);
    const double value = 0.5 * a.dot(Q * a) + chi.dot(a);
    CHECK(value <= reference + 1e-6 * (1 + std::fabs(reference)));
    CHECK(value >= reference - 1e-9 * (1 + std::fabs(reference)));
    CHECK_CLOSE(y.dot(a), c, 1e-12);
    for (Index k = 0; k < m; ++k) CHECK(a[k] >= 0.0 && a[k] <= u[k]);
    CHECK(report.lipschitz > 0.0);
    // The SMO steps from the same start: the same optimum, the gap below eps.
    VectorXd b = start;
    const SubproblemReport smo = solve_subproblem_smo(Q, chi, y, u, b, 1e-10);
    const double smo_value = 0.5 * b.dot(Q * b) + chi.dot(b);
    CHECK(smo.final_violation < 1e-10);
    CHECK(smo_value <= reference + 1e-9 * (1 + std::fabs(reference)));
    CHECK(smo_value >= reference - 1e-9 * (1 + std::fabs(reference)));
    CHECK_CLOSE(y.dot(b), c, 1e-12);
    for (Index k = 0; k < m; ++k) CHECK(b[k] >= 0.0 && b[k] <= u[k]);
  }
}

TEST_CASE("ALFPGM sub-problem by SMO: a non-PSD block ends within its step bound, feasible") {
  // Q = -I + noise: concave in every pair direction, so every step goes to
  // a bound; the run must end (gap, no move or the step bound) at a point in
  // the box with y^T a unchanged.
  Random rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const Index m = 2 + static_cast<Index>(rng.below(40));
    MatrixXd Q = MatrixXd::Zero(m, m);
    for (Index r = 0; r < m; ++r)
      for (Index c = r; c < m; ++c) Q(r, c) = Q(c, r) = (r == c ? -1.0 : 0.0) + 0.3 * (rng.uniform() - 0.5);
    VectorXd y(m), u(m), chi(m), a(m);
    for (Index k = 0; k < m; ++k) {
      y[k] = rng.below(2) ? 1.0 : -1.0;
      u[k] = trial % 2 ? 1.0 : 1e6 * rng.uniform();
      chi[k] = rng.uniform() * 2 - 1;
      a[k] = rng.uniform() * u[k];
    }
    const double c = y.dot(a);
    const SubproblemReport r = solve_subproblem_smo(Q, chi, y, u, a, 1e-6);
    CHECK(r.inner_iterations <= std::max<std::int64_t>(10000, 20 * static_cast<std::int64_t>(m) * m));
    CHECK_CLOSE(y.dot(a), c, 1e-9 * (1.0 + std::fabs(c) + u.maxCoeff()));
    for (Index k = 0; k < m; ++k) CHECK(a[k] >= 0.0 && a[k] <= u[k]);
  }
}

TEST_CASE("ALFPGM sub-problem: Lipschitz bound is at least the largest eigenvalue") {
  Random rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const Index m = 3 + static_cast<Index>(rng.below(30));
    Eigen::MatrixXd F(m, m);
    for (Index r = 0; r < m; ++r)
      for (Index c = 0; c < m; ++c) F(r, c) = rng.uniform() * 2 - 1;
    const MatrixXd Q = F * F.transpose();
    // Reference: a long power iteration from a random start.
    Eigen::VectorXd v(m);
    for (Index k = 0; k < m; ++k) v[k] = rng.uniform() - 0.5;
    double lmax = 0.0;
    for (int it = 0; it < 5000; ++it) {
      const Eigen::VectorXd w = Q * v;
      lmax = v.dot(w) / v.dot(v);
      v = w.normalized();
    }
    const double bound = lipschitz_bound(Q, 20);
    CHECK(bound <= Q.cwiseAbs().rowwise().sum().maxCoeff() + 1e-12);
    // 20 power iterations with a 10% margin: above lambda_1 on these
    // matrices (FPGM doubles L if it ever is not).
    CHECK(bound >= 0.999 * lmax);
  }
}

TEST_CASE("ALFPGM: merging identical copies keeps y^T a and Q a, leaves one free copy") {
  // Rows 0-3 are one point (labels +, +, +, -), rows 4-5 another (+, +).
  Problem P(10, 3, 17);
  for (Index r : {1, 2, 3})
    for (Index j = 0; j < P.d; ++j) P.X[static_cast<std::size_t>(r * P.d + j)] = P.X[static_cast<std::size_t>(j)];
  for (Index j = 0; j < P.d; ++j) P.X[static_cast<std::size_t>(5 * P.d + j)] = P.X[static_cast<std::size_t>(4 * P.d + j)];
  P.y[0] = P.y[1] = P.y[2] = 1.0;
  P.y[3] = -1.0;
  P.y[4] = P.y[5] = 1.0;
  // Q as the solver builds it: from float kernel columns.
  ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
  std::vector<Index> all;
  for (Index t = 0; t < P.n; ++t) all.push_back(t);
  std::vector<std::vector<float>> cols(static_cast<std::size_t>(P.n), std::vector<float>(static_cast<std::size_t>(P.n)));
  std::vector<float*> out;
  for (auto& c : cols) out.push_back(c.data());
  source.compute(all, all.data(), P.n, out.data());
  MatrixXd Q(P.n, P.n);
  VectorXd y(P.n), u = VectorXd::Constant(P.n, 1.0);
  for (Index r = 0; r < P.n; ++r) {
    y[r] = P.y[static_cast<std::size_t>(r)];
    for (Index c = 0; c < P.n; ++c) Q(r, c) = P.y[static_cast<std::size_t>(r)] * P.y[static_cast<std::size_t>(c)] * cols[static_cast<std::size_t>(c)][static_cast<std::size_t>(r)];
  }
  VectorXd a(P.n);
  a << 0.3, 0.4, 0.5, 0.2, 0.0, 0.7, 0.1, 0.0, 1.0, 0.6;
  const VectorXd before = a;
  CHECK(merge_duplicates(Q, y, u, a) == 1);  // 0.3 + 0.4 + 0.5 -> 1, 0.2, 0; 0 + 0.7 -> 0.7, 0
  CHECK(a[0] == 1.0);
  CHECK_CLOSE(a[1], 0.2, 1e-15);
  CHECK(a[2] == 0.0);
  CHECK(a[3] == 0.2);  // the other label is another variable
  CHECK(a[4] == 0.7 && a[5] == 0.0);
  for (Index t = 6; t < P.n; ++t) CHECK(a[t] == before[t]);
  CHECK_CLOSE(y.dot(a), y.dot(before), 1e-14);
  const VectorXd d = Q * (a - before);
  CHECK(d.cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("exact solvers: repeated rows: ALFPGM leaves alpha on as few copies as SMO") {
  // Every row three times: the optimum is not unique; SMO keeps one copy of
  // most points, and so must ALFPGM (same objective, no more SVs).
  Problem base(60, 3, 5);
  Problem P = base;
  for (int copy = 0; copy < 2; ++copy) {
    P.X.insert(P.X.end(), base.X.begin(), base.X.end());
    P.y.insert(P.y.end(), base.y.begin(), base.y.end());
  }
  P.n = 3 * base.n;
  ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
  RunControl control;
  const auto count = [](const std::vector<double>& alpha) {
    return std::count_if(alpha.begin(), alpha.end(), [](double v) { return v > 0.0; });
  };
  const ExactResult smo = fit_exact(source, P.y, settings_for(ExactSolver::smo, 5.0, 1e-4), control);
  ExactSettings s = settings_for(ExactSolver::alfpgm, 5.0, 1e-4);
  s.alfpgm.pairs = 16;
  const ExactResult alf = fit_exact(source, P.y, s, control);
  CHECK(alf.converged && smo.converged);
  CHECK_CLOSE(alf.objective, smo.objective, 1e-4 * std::fabs(smo.objective));
  CHECK(count(alf.alpha) <= count(smo.alpha) + 3);
}

TEST_CASE("exact solvers: KKT at the optimum, same objective for SMO and ALFPGM") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Problem P(150, 4, seed);
    ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
    RunControl control;
    for (double C : {0.5, 20.0}) {
      const double tol = 1e-4;
      ExactSettings smo = settings_for(ExactSolver::smo, C, tol);
      const ExactResult a = fit_exact(source, P.y, smo, control);
      CHECK(a.converged);
      CHECK(kkt_gap(P, a.alpha, C, C) < tol + float_slack(a.alpha));
      CHECK_CLOSE(a.objective, dual_objective(P, a.alpha), 1e-6 * (1 + std::fabs(a.objective)));
      for (bool shrinking : {true, false}) {
        for (int pairs : {1, 4, 16}) {
          ExactSettings s = settings_for(ExactSolver::alfpgm, C, tol);
          s.alfpgm.pairs = pairs;
          s.alfpgm.subproblem = pairs == 4 ? Subproblem::fpgm : Subproblem::smo;
          s.shrinking = shrinking;
          const ExactResult b = fit_exact(source, P.y, s, control);
          CHECK(b.converged);
          CHECK(kkt_gap(P, b.alpha, C, C) < tol + float_slack(b.alpha));
          CHECK_CLOSE(b.objective, a.objective, 1e-4 * std::fabs(a.objective));
          CHECK_CLOSE(b.intercept, a.intercept, 2e-3 * (1 + std::fabs(a.intercept)));
          double ya = 0.0;
          for (Index t = 0; t < P.n; ++t) ya += P.y[static_cast<std::size_t>(t)] * b.alpha[static_cast<std::size_t>(t)];
          CHECK_CLOSE(ya, 0.0, 1e-9);
        }
      }
    }
  }
}

TEST_CASE("ALFPGM: the candidate scan made by the gradient update gives the rounds of its own pass") {
  // scan_in_move reads the next round's candidates range by range inside
  // DualState::move (NextScan); the solver's own list and scan (false) must
  // give the same working sets, hence the same alpha bit for bit and the
  // same rounds, with shrinking, the limiter's exclusions and its
  // re-admissions, on problems large enough for threaded moves and scans.
  for (std::uint64_t seed : {3u, 8u}) {
    Problem P(2500, 3, seed);
    for (int jobs : {1, 2, 3}) {
      ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, jobs);
      RunControl control;
      for (bool shrinking : {true, false}) {
        ExactSettings s = settings_for(ExactSolver::alfpgm, 10.0, 1e-3);
        s.alfpgm.pairs = 32;
        s.alfpgm.max_alpha_opt = 6;  // many exclusions and re-admissions
        s.shrinking = shrinking;
        s.n_jobs = jobs;
        s.cache_mb = 64.0;
        s.alfpgm.scan_in_move = false;
        const ExactResult own = fit_exact(source, P.y, s, control);
        s.alfpgm.scan_in_move = true;
        const ExactResult fused = fit_exact(source, P.y, s, control);
        CHECK(own.converged && fused.converged);
        CHECK(own.readmissions > 0);
        CHECK(fused.iterations == own.iterations);
        CHECK(fused.readmissions == own.readmissions);
        CHECK(fused.alpha == own.alpha);
        CHECK(fused.intercept == own.intercept);
      }
    }
  }
}

TEST_CASE("exact solvers: class weights, shrinking off, tiny cache") {
  Problem P(120, 3, 9);
  ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
  RunControl control;
  for (ExactSolver solver : {ExactSolver::smo, ExactSolver::alfpgm}) {
    ExactSettings s = settings_for(solver, 3.0, 1e-4);
    s.weight_pos = 2.0;
    s.weight_neg = 0.5;
    s.cache_mb = 1e-6;  // the cache holds one working set only
    s.shrinking = solver == ExactSolver::smo;
    const ExactResult r = fit_exact(source, P.y, s, control);
    CHECK(r.converged);
    CHECK(kkt_gap(P, r.alpha, 6.0, 1.5) < 1e-4 + float_slack(r.alpha));
    for (Index t = 0; t < P.n; ++t)
      CHECK(r.alpha[static_cast<std::size_t>(t)] <= (P.y[static_cast<std::size_t>(t)] > 0 ? 6.0 : 1.5));
  }
}

TEST_CASE("exact solvers: an integer sample weight equals repeating the sample") {
  // Weight w on a row gives it the bound w C; the dual of the data with that
  // row repeated w times has the same optimum (the copies' alphas add up),
  // and a weight of 0 removes the row.
  Problem P(60, 3, 21);
  Problem R = P;  // row 0 three times, row 1 dropped
  R.X.insert(R.X.end(), P.X.begin(), P.X.begin() + P.d);
  R.X.insert(R.X.end(), P.X.begin(), P.X.begin() + P.d);
  R.y.push_back(P.y[0]);
  R.y.push_back(P.y[0]);
  R.X.erase(R.X.begin() + P.d, R.X.begin() + 2 * P.d);
  R.y.erase(R.y.begin() + 1);
  R.n = P.n + 1;
  std::vector<double> weights(static_cast<std::size_t>(P.n), 1.0);
  weights[0] = 3.0;
  weights[1] = 0.0;
  ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
  ViewKernelSource<DenseRM> repeated(R.view(), R.kernel, {}, 1);
  RunControl control;
  for (ExactSolver solver : {ExactSolver::smo, ExactSolver::alfpgm}) {
    ExactSettings s = settings_for(solver, 2.0, 1e-5);
    const ExactResult reference = fit_exact(repeated, R.y, s, control);
    s.sample_weight = weights;
    const ExactResult r = fit_exact(source, P.y, s, control);
    CHECK(r.converged && reference.converged);
    CHECK_CLOSE(r.objective, reference.objective, 1e-4 * std::fabs(reference.objective));
    CHECK_CLOSE(r.intercept, reference.intercept, 1e-3 * (1 + std::fabs(reference.intercept)));
    CHECK(r.alpha[1] == 0.0);
    CHECK(r.alpha[0] <= 6.0);
    s.sample_weight.assign(3, 1.0);  // wrong length
    CHECK_THROWS(fit_exact(source, P.y, s, control), std::invalid_argument);
    s.sample_weight.assign(static_cast<std::size_t>(P.n), -1.0);
    CHECK_THROWS(fit_exact(source, P.y, s, control), std::invalid_argument);
  }
}

TEST_CASE("exact solvers: non-PSD sigmoid kernel and duplicate points end") {
  Problem P(80, 3, 4);
  for (Index j = 0; j < P.d; ++j) P.X[static_cast<std::size_t>(1 * P.d + j)] = P.X[static_cast<std::size_t>(j)];
  P.y[1] = -P.y[0];  // a duplicate point with the other label
  P.kernel = Kernel{KernelType::sigmoid, 2.0, 1.0, 3};
  ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
  RunControl control;
  for (ExactSolver solver : {ExactSolver::smo, ExactSolver::alfpgm}) {
    ExactSettings s = settings_for(solver, 10.0, 1e-3);
    s.max_iter = 20000;
    const ExactResult r = fit_exact(source, P.y, s, control);
    CHECK(std::isfinite(r.objective) && std::isfinite(r.intercept));
    for (double v : r.alpha) CHECK(std::isfinite(v) && v >= 0.0 && v <= 10.0);
    CHECK(r.iterations <= 20000);
  }
}

TEST_CASE("exact solvers: iteration bound, bad settings and labels") {
  Problem P(100, 3, 2);
  ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
  RunControl control;
  ExactSettings s = settings_for(ExactSolver::smo, 10.0, 1e-6);
  s.max_iter = 3;
  const ExactResult r = fit_exact(source, P.y, s, control);
  CHECK(!r.converged);
  CHECK(r.iterations == 3);
  CHECK(iteration_bound(-1, 10) == 10000000);
  CHECK(iteration_bound(-1, 1000000) == 100000000);
  ExactSettings bad = s;
  bad.C = 0.0;
  CHECK_THROWS(fit_exact(source, P.y, bad, control), std::invalid_argument);
  bad = s;
  bad.tol = -1.0;
  CHECK_THROWS(fit_exact(source, P.y, bad, control), std::invalid_argument);
  bad = s;
  bad.alfpgm.pairs = 0;
  CHECK_THROWS(fit_exact(source, P.y, bad, control), std::invalid_argument);
  bad = s;
  bad.cache_mb = 0.0;
  CHECK_THROWS(fit_exact(source, P.y, bad, control), std::invalid_argument);
  std::vector<double> one_class(100, 1.0), wrong(100, 1.0), short_y(99, 1.0);
  wrong[3] = 0.5;
  CHECK_THROWS(fit_exact(source, one_class, s, control), std::invalid_argument);
  CHECK_THROWS(fit_exact(source, wrong, s, control), std::invalid_argument);
  CHECK_THROWS(fit_exact(source, short_y, s, control), std::invalid_argument);
}

TEST_CASE("exact solvers: a stop request ends the run") {
  Problem P(200, 3, 8);
  ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
  int calls = 0;
  RunControl control([&] { return ++calls > 1; }, 0.0);
  ExactSettings s = settings_for(ExactSolver::smo, 100.0, 1e-9);
  CHECK_THROWS(fit_exact(source, P.y, s, control), Interrupted);
}

TEST_CASE("exact solvers: auto resolves by the number of rows and reports the solver that ran") {
  CHECK(resolve_solver(ExactSolver::automatic, kAutoAlfpgmFrom - 1) == ExactSolver::smo);
  CHECK(resolve_solver(ExactSolver::automatic, kAutoAlfpgmFrom) == ExactSolver::alfpgm);
  CHECK(resolve_solver(ExactSolver::smo, 10 * kAutoAlfpgmFrom) == ExactSolver::smo);
  CHECK(resolve_solver(ExactSolver::alfpgm, 2) == ExactSolver::alfpgm);
  // rows too sparse to gather: SMO at any size; explicit choices as given
  CHECK(resolve_solver(ExactSolver::automatic, 10 * kAutoAlfpgmFrom, true) == ExactSolver::smo);
  CHECK(resolve_solver(ExactSolver::alfpgm, 10 * kAutoAlfpgmFrom, true) == ExactSolver::alfpgm);
  CHECK(ExactSettings{}.solver == ExactSolver::automatic);
  // a small problem: auto is SMO, step for step
  Problem P(60, 3, 41);
  const DenseRM view(P.X.data(), P.n, P.d);
  ViewKernelSource<DenseRM> source(view, P.kernel, {}, 1);
  RunControl control;
  const ExactResult a = fit_exact(source, P.y, settings_for(ExactSolver::automatic, 2.0, 1e-3), control);
  const ExactResult s = fit_exact(source, P.y, settings_for(ExactSolver::smo, 2.0, 1e-3), control);
  CHECK(a.solver == ExactSolver::smo && s.solver == ExactSolver::smo);
  CHECK(a.alpha == s.alpha);
  CHECK(a.iterations == s.iterations);
  const ExactResult f = fit_exact(source, P.y, settings_for(ExactSolver::alfpgm, 2.0, 1e-3), control);
  CHECK(f.solver == ExactSolver::alfpgm);
  CHECK(std::string(solver_name(a.solver)) == "smo" && std::string(solver_name(f.solver)) == "alfpgm");
}


TEST_CASE("ALFPGM polish: converged solutions land on the optimum of a tight SMO run") {
  // The polish solves the free variables' KKT equalities; the result must
  // agree with SMO run to a tolerance 10^6 times tighter, far closer than
  // the stopping tolerance 1e-3 alone guarantees.
  int polished = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Problem P(150, 4, seed);
    ViewKernelSource<DenseRM> source(P.view(), P.kernel, {}, 1);
    RunControl control;
    for (double C : {0.5, 20.0}) {
      const ExactResult ref = fit_exact(source, P.y, settings_for(ExactSolver::smo, C, 1e-9), control);
      const ExactResult r = fit_exact(source, P.y, settings_for(ExactSolver::alfpgm, C, 1e-3), control);
      CHECK(ref.converged && r.converged);
      if (!r.polished) continue;
      ++polished;
      for (Index t = 0; t < P.n; ++t)
        CHECK_CLOSE(r.alpha[static_cast<std::size_t>(t)], ref.alpha[static_cast<std::size_t>(t)], 1e-6 * C);
      CHECK_CLOSE(r.intercept, ref.intercept, 1e-6 * (1 + std::fabs(ref.intercept)));
      CHECK(r.max_violation < 1e-6);
    }
  }
  CHECK(polished >= 4);
}

TEST_CASE("ALFPGM polish: LIBSVM's exact values on a separable six-point problem") {
  // Linear kernel; the optimum has alpha = 1/4 on points 1 and 3, b = 0.
  const std::vector<double> X = {-2, -1, -1, -1, -1, -2, 1, 1, 1, 2, 2, 1};
  const std::vector<double> y = {1, 1, 1, -1, -1, -1};
  const DenseRM view(X.data(), 6, 2);
  ViewKernelSource<DenseRM> source(view, Kernel{KernelType::linear, 1.0, 0.0, 3}, {}, 1);
  RunControl control;
  const ExactResult r = fit_exact(source, y, settings_for(ExactSolver::alfpgm, 1.0, 1e-3), control);
  CHECK(r.converged && r.polished);
  const std::vector<double> expected = {0, 0.25, 0, 0.25, 0, 0};
  CHECK(r.alpha == expected);
  CHECK(r.intercept == 0.0);
}

TEST_CASE("SIMD gradient update: every level gives the scalar loop's bits") {
  Random rng(91);
  for (std::size_t m : {0, 1, 3, 4, 5, 8, 9}) {
    for (Index len : {1, 3, 7, 8, 9, 31, 64, 67}) {
      const Index offset = 5;
      std::vector<std::vector<float>> store(m, std::vector<float>(static_cast<std::size_t>(offset + len + 3)));
      std::vector<const float*> cols;
      std::vector<double> coef;
      for (auto& col : store) {
        for (float& v : col) v = static_cast<float>(rng.uniform() * 2.0 - 1.0);
        cols.push_back(col.data());
        coef.push_back(rng.uniform() * 6.0 - 3.0);
      }
      std::vector<double> start(static_cast<std::size_t>(len) + 2);
      for (double& v : start) v = rng.uniform() - 0.5;
      std::vector<double> want = start;
      simd::scalar::add_scaled_columns(cols.data(), coef.data(), m, offset, len, want.data());
      for (auto level : simd::supported_levels()) {
        std::vector<double> got = start;
        simd::add_scaled_columns_for(level)(cols.data(), coef.data(), m, offset, len, got.data());
        CHECK(got == want);  // the two past len are untouched too
      }
    }
  }
}

TEST_CASE("SIMD j search: every level picks the plain pair_gain argmax (ties, tau, min_b, gathers)") {
  Random rng(17);
  for (Index n : {0, 1, 3, 4, 5, 7, 8, 9, 16, 37, 200}) {
    for (int variant = 0; variant < 4; ++variant) {
      const Index width = n + 11;
      std::vector<float> Ki(static_cast<std::size_t>(width));
      for (float& v : Ki) v = static_cast<float>(rng.uniform());
      std::vector<double> q(static_cast<std::size_t>(n)), diag(q.size());
      std::vector<Index> place(q.size());
      for (Index r = 0; r < n; ++r) {
        // variant 1: few distinct values (ties across lanes); 2: K_it = 1
        // with diag 1 (zero curvature: tau); 3: every b <= min_b
        q[r] = variant == 1 ? -static_cast<double>(rng.below(3)) : rng.uniform() * 2.0 - 1.5;
        diag[r] = 1.0;
        place[r] = static_cast<Index>(rng.below(static_cast<std::uint64_t>(width)));
        if (variant == 1) Ki[static_cast<std::size_t>(place[r])] = 0.5f;
        if (variant == 2 && r % 3 == 0) Ki[static_cast<std::size_t>(place[r])] = 1.0f;
      }
      const double qi = variant == 3 ? -5.0 : 0.4, Kii = 1.0;
      for (double min_b : {0.0, 1e-3}) {
        double best = 0.0;
        Index want = n;
        for (Index r = 0; r < n; ++r) {
          const double gain = pair_gain(qi, Kii, q[r], diag[r], static_cast<double>(Ki[place[r]]), min_b);
          if (gain > best) {
            best = gain;
            want = r;
          }
        }
        // The second: the first largest gain above 0 among the rest.
        double second_gain = 0.0;
        Index second = n;
        for (Index r = 0; r < n; ++r) {
          const double gain = pair_gain(qi, Kii, q[r], diag[r], static_cast<double>(Ki[place[r]]), min_b);
          if (r != want && gain > second_gain) {
            second_gain = gain;
            second = r;
          }
        }
        for (auto level : simd::supported_levels()) {
          CHECK(simd::best_partner_for(level)(q.data(), diag.data(), Ki.data(), place.data(), n, qi, Kii, min_b,
                                              kTau) == want);
          const auto two = simd::best_two_partners_for(level)(q.data(), diag.data(), Ki.data(), place.data(), n, qi,
                                                              Kii, min_b, kTau);
          CHECK(two.first == want);
          CHECK(two.second == second);
        }
      }
    }
  }
}

TEST_CASE("SIMD sub-problem steps: every level picks the plain rule's pair and updates the same bits") {
  // The plain rule of an SMO step on the sub-problem (the loop the kernels
  // replaced): i = the first largest -y_t G_t over I_up; over I_low, the
  // smallest q and j = the first largest b^2 / pair_curvature with b > 0.
  Random rng(23);
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (Index m : {1, 2, 3, 7, 8, 9, 16, 33, 64, 67}) {
    for (int variant = 0; variant < 4; ++variant) {
      std::vector<double> y(static_cast<std::size_t>(m)), a(y.size()), u(y.size()), G(y.size());
      MatrixXd K(m, m);
      for (Index r = 0; r < m; ++r)
        for (Index c = 0; c <= r; ++c) K(r, c) = K(c, r) = r == c ? 1.0 : rng.uniform();
      for (Index t = 0; t < m; ++t) {
        const std::size_t k = static_cast<std::size_t>(t);
        y[k] = rng.below(2) == 0 ? 1.0 : -1.0;
        u[k] = 1.0 + static_cast<double>(rng.below(2));
        const std::uint64_t where = rng.below(3);  // at 0, at the bound, free
        a[k] = where == 0 ? 0.0 : where == 1 ? u[k] : u[k] * rng.uniform();
        // variant 1: few distinct gradients (ties); 2: duplicate points (zero
        // curvature: tau); 3: every variable at 0 with y = +1 (I_low empty)
        G[k] = variant == 1 ? static_cast<double>(rng.below(3)) - 1.0 : rng.uniform() * 2.0 - 1.0;
        if (variant == 3) {
          y[k] = 1.0;
          a[k] = 0.0;
        }
      }
      if (variant == 2)
        for (Index t = 1; t < m; t += 2) {
          K.row(t) = K.row(t - 1);
          K.col(t) = K.col(t - 1);
          K(t, t) = K(t - 1, t - 1) = K(t, t - 1) = K(t - 1, t) = 1.0;
        }
      MatrixXd Q(m, m);
      for (Index r = 0; r < m; ++r)
        for (Index c = 0; c < m; ++c) Q(r, c) = y[static_cast<std::size_t>(r)] * y[static_cast<std::size_t>(c)] * K(r, c);
      const VectorXd diag = Q.diagonal();
      Index want_i = -1, want_j = -1;
      double q_max = -inf, q_min = inf, best = -inf;
      for (Index t = 0; t < m; ++t) {
        const std::size_t k = static_cast<std::size_t>(t);
        const bool up = y[k] > 0 ? a[k] < u[k] : a[k] > 0.0;
        if (up && -y[k] * G[k] > q_max) {
          q_max = -y[k] * G[k];
          want_i = t;
        }
      }
      if (want_i >= 0)
        for (Index t = 0; t < m; ++t) {
          const std::size_t k = static_cast<std::size_t>(t);
          const bool low = y[k] > 0 ? a[k] > 0.0 : a[k] < u[k];
          if (!low) continue;
          const double q = -y[k] * G[k];
          q_min = std::min(q_min, q);
          const double b = q_max - q;
          if (!(b > 0.0)) continue;
          const double gain =
              b * b / pair_curvature(Q(want_i, want_i), Q(t, t), y[static_cast<std::size_t>(want_i)] * y[k] * Q(want_i, t));
          if (gain > best) {
            best = gain;
            want_j = t;
          }
        }
      if (variant == 3) CHECK(want_j < 0);
      const double di = 0.3, dj = -0.7;
      const Index ui = m > 2 ? 2 : 0, uj = m - 1;
      std::vector<double> want_G = G;
      for (Index t = 0; t < m; ++t) want_G[static_cast<std::size_t>(t)] += Q(ui, t) * di + Q(uj, t) * dj;
      for (auto level : simd::supported_levels()) {
        const simd::SmoPair p =
            simd::smo_pair_for(level)(y.data(), a.data(), u.data(), G.data(), Q.data(), diag.data(), m, kTau);
        CHECK(p.i == want_i);
        CHECK(p.j == want_j);
        if (want_i >= 0) {
          CHECK(p.q_max == q_max);
          CHECK(p.q_min == q_min);
        }
        std::vector<double> got_G = G;
        simd::smo_update_for(level)(got_G.data(), Q.data() + ui * m, Q.data() + uj * m, di, dj, m);
        CHECK(got_G == want_G);
      }
    }
  }
}

TEST_CASE("SIMD RBF columns in one pass: the bits of shift, rbf_from_dots and the float conversion") {
  Random rng(5);
  for (Index n : {1, 3, 4, 7, 8, 9, 33, 256}) {
    std::vector<double> dots(static_cast<std::size_t>(n)), norms(dots.size());
    for (Index r = 0; r < n; ++r) {
      norms[r] = rng.uniform() * 3.0;
      dots[r] = (rng.uniform() - 0.5) * 2.0 + (r % 5 == 0 ? 10.0 : 0.0);  // some distances clamp to 0
    }
    for (double shift : {0.0, 0.37}) {
      for (auto level : simd::supported_levels()) {
        const simd::RbfColumnToFloat fused = simd::rbf_column_to_float_for(level);
        if (!fused) continue;
        const simd::Kernels k = simd::kernels_for(level);
        std::vector<double> shifted(dots.size()), values(dots.size());
        for (Index r = 0; r < n; ++r) shifted[r] = dots[r] - shift;
        k.rbf_from_dots(shifted.data(), norms.data(), 1.7, 0.8, n, values.data());
        std::vector<float> got(static_cast<std::size_t>(n) + 1, -3.0f);
        fused(dots.data(), shift, norms.data(), 1.7, 0.8, n, got.data());
        for (Index r = 0; r < n; ++r) CHECK(got[r] == static_cast<float>(values[r]));
        CHECK(got[static_cast<std::size_t>(n)] == -3.0f);  // nothing written past n
      }
    }
  }
}

// A k-class problem for the one-vs-one tests: the class of row t is its
// label's index (4 classes of uneven sizes), the rows grouped by class.
struct Classes {
  Problem P;
  ClassRows rows;
  std::vector<Index> label;
  explicit Classes(std::uint64_t seed, Index k = 4, Index n = 70) : P(n, 3, seed) {
    Random rng(seed + 7);
    for (Index t = 0; t < P.n; ++t) label.push_back(std::min<Index>(k - 1, static_cast<Index>(rng.uniform() * k)));
    rows.start.assign(1, 0);
    for (Index c = 0; c < k; ++c) {
      for (Index t = 0; t < P.n; ++t)
        if (label[static_cast<std::size_t>(t)] == c) rows.rows.push_back(t);
      rows.start.push_back(static_cast<Index>(rows.rows.size()));
    }
  }
};

TEST_CASE("one-vs-one: each pair is the binary fit on its two classes' rows, laid out as LIBSVM") {
  // fit_ovo moves one source, cache and dual state from pair to pair
  // (ExactWorkspace): each pair must still be bit for bit a fresh fit_exact.
  for (const auto& [seed, solver] : {std::pair{2u, ExactSolver::smo}, std::pair{5u, ExactSolver::smo},
                                     std::pair{7u, ExactSolver::alfpgm}}) {
    const Classes D(seed);
    const Index k = D.rows.k();
    const std::vector<double> weight{1.0, 2.0, 0.5, 1.5};
    ViewKernelSource<DenseRM> source(D.P.view(), D.P.kernel, {}, 1);
    std::vector<Index> asked;  // the rows of the source while each pair was solved
    RunControl control;
    const ExactSettings s = settings_for(solver, 2.0, 1e-4);
    Index callbacks = 0;
    const OvoResult r = fit_ovo(source, D.P.n, D.rows, weight, {}, s, control, [&](Index p, const PairReport& rep) {
      CHECK(p == callbacks++);
      CHECK(rep.converged);
      asked.push_back(source.size());
    });
    CHECK(callbacks == 6 && static_cast<Index>(r.pairs.size()) == 6);
    CHECK(r.dual.rows() == k - 1 && r.dual.cols() == static_cast<Index>(r.support.size()));
    std::vector<Index> column(static_cast<std::size_t>(D.P.n), -1);
    for (std::size_t c = 0; c < r.support.size(); ++c) column[static_cast<std::size_t>(r.support[c])] = static_cast<Index>(c);
    std::vector<char> is_sv(static_cast<std::size_t>(D.P.n), 0);
    Index p = 0;
    for (Index i = 0; i < k; ++i)
      for (Index j = i + 1; j < k; ++j, ++p) {
        CHECK(asked[static_cast<std::size_t>(p)] == D.rows.count(i) + D.rows.count(j));  // the pair's rows, no more
        std::vector<Index> subset(D.rows.of(i), D.rows.of(i) + D.rows.count(i));
        subset.insert(subset.end(), D.rows.of(j), D.rows.of(j) + D.rows.count(j));
        std::vector<double> y(static_cast<std::size_t>(D.rows.count(i)), 1.0);
        y.resize(subset.size(), -1.0);
        ExactSettings b = s;
        b.weight_pos = weight[static_cast<std::size_t>(i)];
        b.weight_neg = weight[static_cast<std::size_t>(j)];
        ViewKernelSource<DenseRM> pair_source(D.P.view(), D.P.kernel, subset, 1);
        const ExactResult ref = fit_exact(pair_source, y, b, control);
        CHECK(r.pairs[static_cast<std::size_t>(p)].intercept == ref.intercept);
        CHECK(r.pairs[static_cast<std::size_t>(p)].iterations == ref.iterations);
        CHECK(r.pairs[static_cast<std::size_t>(p)].objective == ref.objective);
        CHECK(r.pairs[static_cast<std::size_t>(p)].solver == solver);
        for (std::size_t m = 0; m < subset.size(); ++m) {
          const double a = ref.alpha[m];
          const Index col = column[static_cast<std::size_t>(subset[m])];
          if (a > 0.0) {
            is_sv[static_cast<std::size_t>(subset[m])] = 1;
            CHECK(col >= 0);
          }
          if (col < 0) continue;
          // class i's coefficient in row j - 1, class j's (negative) in row i
          const double stored = static_cast<Index>(m) < D.rows.count(i) ? r.dual(j - 1, col) : r.dual(i, col);
          CHECK(stored == (static_cast<Index>(m) < D.rows.count(i) ? a : -a));
        }
      }
    // the support vectors: the rows with alpha > 0 in some pair, grouped by class, ascending
    Index expected = 0;
    for (Index t = 0; t < D.P.n; ++t) expected += is_sv[static_cast<std::size_t>(t)];
    CHECK(static_cast<Index>(r.support.size()) == expected);
    for (std::size_t c = 1; c < r.support.size(); ++c) {
      const Index a = r.support[c - 1], b = r.support[c];
      const Index la = D.label[static_cast<std::size_t>(a)], lb = D.label[static_cast<std::size_t>(b)];
      CHECK(la < lb || (la == lb && a < b));
    }
    for (Index c = 0; c < k; ++c) {
      Index count = 0;
      for (Index t : r.support) count += D.label[static_cast<std::size_t>(t)] == c;
      CHECK(r.n_support[static_cast<std::size_t>(c)] == count);
    }
  }
}

TEST_CASE("one-vs-one: bad class rows and weights are errors") {
  const Classes D(3);
  ViewKernelSource<DenseRM> source(D.P.view(), D.P.kernel, {}, 1);
  RunControl control;
  const ExactSettings s = settings_for(ExactSolver::smo, 1.0, 1e-3);
  const std::vector<double> ones(4, 1.0);
  ClassRows twice = D.rows;
  twice.rows[1] = twice.rows[0];
  CHECK_THROWS(fit_ovo(source, D.P.n, twice, ones, {}, s, control), std::invalid_argument);
  ClassRows empty = D.rows;
  empty.start[1] = 0;
  CHECK_THROWS(fit_ovo(source, D.P.n, empty, ones, {}, s, control), std::invalid_argument);
  CHECK_THROWS(fit_ovo(source, D.P.n, D.rows, {1.0, 1.0, 1.0}, {}, s, control), std::invalid_argument);
  CHECK_THROWS(fit_ovo(source, D.P.n, D.rows, {1.0, 1.0, -1.0, 1.0}, {}, s, control), std::invalid_argument);
  CHECK_THROWS(fit_ovo(source, D.P.n, D.rows, ones, std::vector<double>(3, 1.0), s, control), std::invalid_argument);
}

TEST_CASE("one-vs-one scores: brute-force pair sums, LIBSVM's votes, any thread count") {
  // 4 classes: the dense product; 12 (above kOvoDenseClasses): pair by pair
  for (const auto& [classes, rows] : {std::pair{Index{4}, Index{70}}, std::pair{Index{12}, Index{200}}}) {
    const Classes D(4, classes, rows);
    const Index k = D.rows.k(), pairs = ovo_pair_count(k);
    ViewKernelSource<DenseRM> source(D.P.view(), D.P.kernel, {}, 1);
    RunControl control;
    const OvoResult r = fit_ovo(source, D.P.n, D.rows, std::vector<double>(static_cast<std::size_t>(k), 1.0), {},
                                settings_for(ExactSolver::smo, 2.0, 1e-4), control);
    std::vector<double> intercept;
    intercept = r.pairs.intercept;
    const Index n_sv = static_cast<Index>(r.support.size());
    std::vector<double> sv;  // the support vectors' rows
    for (Index t : r.support)
      for (Index f = 0; f < D.P.d; ++f) sv.push_back(D.P.X[static_cast<std::size_t>(t * D.P.d + f)]);
    const DenseRM SV(sv.data(), n_sv, D.P.d);
    const OvoCoef coef(r.dual.data(), r.n_support, intercept.data());
    // every training row as a query (n = 70: one block), and against brute force
    std::vector<double> values(static_cast<std::size_t>(D.P.n * pairs)), again(values.size()), from_kernel(values.size());
    OvoTargets t;
    t.values = values.data();
    ovo_scores(D.P.kernel, D.P.view(), SV, coef, OvoOutput::values, t, 1, control);
    t.values = again.data();
    ovo_scores(D.P.kernel, D.P.view(), SV, coef, OvoOutput::values, t, 3, control);
    CHECK(values == again);
    std::vector<double> K(static_cast<std::size_t>(D.P.n * n_sv));
    for (Index q = 0; q < D.P.n; ++q)
      for (Index c = 0; c < n_sv; ++c) K[static_cast<std::size_t>(q * n_sv + c)] = D.P.k(q, r.support[static_cast<std::size_t>(c)]);
    t.values = from_kernel.data();
    ovo_scores_from_kernel(K.data(), D.P.n, coef, OvoOutput::values, t, 2, control);
    std::vector<Index> start{0};
    for (Index c : r.n_support) start.push_back(start.back() + c);
    std::vector<std::int64_t> predicted(static_cast<std::size_t>(D.P.n));
    t.classes = predicted.data();
    ovo_scores(D.P.kernel, D.P.view(), SV, coef, OvoOutput::predict, t, 2, control);
    std::vector<double> votes(static_cast<std::size_t>(D.P.n * k)), confidence(votes.size());
    t.votes = votes.data();
    t.confidence = confidence.data();
    ovo_scores(D.P.kernel, D.P.view(), SV, coef, OvoOutput::ovr, t, 1, control);
    Index right = 0;
    for (Index q = 0; q < D.P.n; ++q) {
      std::vector<int> wins(static_cast<std::size_t>(k), 0);
      std::vector<double> tally(static_cast<std::size_t>(k), 0.0), conf(static_cast<std::size_t>(k), 0.0);
      Index p = 0;
      for (Index i = 0; i < k; ++i)
        for (Index j = i + 1; j < k; ++j, ++p) {
          double f = intercept[static_cast<std::size_t>(p)];
          for (Index c = start[static_cast<std::size_t>(i)]; c < start[static_cast<std::size_t>(i) + 1]; ++c) f += K[static_cast<std::size_t>(q * n_sv + c)] * r.dual(j - 1, c);
          for (Index c = start[static_cast<std::size_t>(j)]; c < start[static_cast<std::size_t>(j) + 1]; ++c) f += K[static_cast<std::size_t>(q * n_sv + c)] * r.dual(i, c);
          const double got = values[static_cast<std::size_t>(q * pairs + p)];
          CHECK_CLOSE(got, f, 1e-12 * (1.0 + std::fabs(f)));
          CHECK_CLOSE(from_kernel[static_cast<std::size_t>(q * pairs + p)], f, 1e-12 * (1.0 + std::fabs(f)));
          ++wins[static_cast<std::size_t>(got > 0.0 ? i : j)];
          tally[static_cast<std::size_t>(got >= 0.0 ? i : j)] += 1.0;
          conf[static_cast<std::size_t>(i)] += got;
          conf[static_cast<std::size_t>(j)] -= got;
        }
      const Index best = static_cast<Index>(std::max_element(wins.begin(), wins.end()) - wins.begin());
      CHECK(predicted[static_cast<std::size_t>(q)] == best);
      right += best == D.label[static_cast<std::size_t>(q)];
      for (Index c = 0; c < k; ++c) {
        CHECK(votes[static_cast<std::size_t>(q * k + c)] == tally[static_cast<std::size_t>(c)]);
        CHECK(confidence[static_cast<std::size_t>(q * k + c)] == conf[static_cast<std::size_t>(c)]);
      }
    }
    CHECK(right > 2 * D.P.n / k);  // a fitted model: twice chance at least
  }
}

TEST_CASE("one-vs-one scores: a row's values do not depend on the other rows of the call") {
  const Classes D(6, 12, 200);
  ViewKernelSource<DenseRM> source(D.P.view(), D.P.kernel, {}, 1);
  RunControl control;
  const OvoResult r = fit_ovo(source, D.P.n, D.rows, std::vector<double>(12, 1.0), {},
                              settings_for(ExactSolver::smo, 1.0, 1e-3), control);
  std::vector<double> intercept;
  intercept = r.pairs.intercept;
  std::vector<double> sv;
  for (Index t : r.support)
    for (Index f = 0; f < D.P.d; ++f) sv.push_back(D.P.X[static_cast<std::size_t>(t * D.P.d + f)]);
  const DenseRM SV(sv.data(), static_cast<Index>(r.support.size()), D.P.d);
  const OvoCoef coef(r.dual.data(), r.n_support, intercept.data());
  const Index pairs = ovo_pair_count(12);
  std::vector<double> all(static_cast<std::size_t>(D.P.n * pairs)), one(static_cast<std::size_t>(pairs));
  OvoTargets t;
  t.values = all.data();
  ovo_scores(D.P.kernel, D.P.view(), SV, coef, OvoOutput::values, t, 2, control);
  for (Index q : {Index{0}, Index{33}, D.P.n - 1}) {
    const DenseRM row(D.P.X.data() + q * D.P.d, 1, D.P.d);
    t.values = one.data();
    ovo_scores(D.P.kernel, row, SV, coef, OvoOutput::values, t, 1, control);
    for (Index p = 0; p < pairs; ++p) CHECK(one[static_cast<std::size_t>(p)] == all[static_cast<std::size_t>(q * pairs + p)]);
  }
}

TEST_CASE("field tables: ExactResult's fields, the same per pair in PairReports, derived values as the members say") {
  const std::vector<std::string> binary{"solver", "alpha", "intercept", "objective", "iterations", "status",
                                        "max_violation", "cache_hits", "cache_misses", "kernel_columns_computed",
                                        "seconds", "inner_iterations", "smo_fallbacks", "smo_handoff",
                                        "readmissions", "polished"};
  CHECK(field_names<ExactResult>() == binary);
  // a pair reports what a binary fit does but alpha, converged for its status
  std::vector<std::string> per_pair;
  for (const auto& name : binary)
    if (name != "alpha") per_pair.push_back(name == "status" ? "converged" : name);
  CHECK(field_names<PairReports>() == per_pair);
  std::vector<std::string> ovo{"support", "n_support", "dual"};
  ovo.insert(ovo.end(), per_pair.begin(), per_pair.end());
  CHECK(field_names<OvoResult>() == ovo);
  CHECK(test::unique_names(field_names<OvoResult>()));
  CHECK(test::largest_unvisited_gap<OvoResult>() < alignof(OvoResult));

  const Classes D(2);
  RunControl control;
  const ExactSettings s = settings_for(ExactSolver::smo, 2.0, 1e-4);
  ViewKernelSource<DenseRM> source(D.P.view(), D.P.kernel, {}, 1);
  const OvoResult r = fit_ovo(source, D.P.n, D.rows, std::vector<double>(static_cast<std::size_t>(D.rows.k()), 1.0),
                              {}, s, control);
  const std::size_t pairs = r.pairs.size();
  CHECK(pairs == 6);
  std::size_t visited = 0;
  PairReports::for_each_field(r.pairs, [&](const char* name, const auto& column) {
    ++visited;
    CHECK(column.size() == pairs);
    if constexpr (std::is_same_v<std::decay_t<decltype(column)>, std::vector<std::int64_t>>)
      if (std::string(name) == "kernel_columns_computed")
        for (std::size_t q = 0; q < pairs; ++q)
          CHECK(column[q] == std::llround(r.pairs.kernel_evaluations[q] / static_cast<double>(r.pairs.rows[q])));
  });
  CHECK(visited == per_pair.size());

  // a binary fit: the table's derived values
  std::vector<Index> subset(D.rows.of(0), D.rows.of(0) + D.rows.count(0));
  subset.insert(subset.end(), D.rows.of(1), D.rows.of(1) + D.rows.count(1));
  std::vector<double> y(static_cast<std::size_t>(D.rows.count(0)), 1.0);
  y.resize(subset.size(), -1.0);
  ViewKernelSource<DenseRM> pair_source(D.P.view(), D.P.kernel, subset, 1);
  const ExactResult b = fit_exact(pair_source, y, s, control);
  std::vector<std::string> seen;
  ExactResult::for_each_field(b, [&](const char* name, const auto& value) {
    seen.emplace_back(name);
    using V = std::decay_t<decltype(value)>;
    const std::string key = name;
    if constexpr (std::is_same_v<V, const char*>) {
      if (key == "solver") CHECK(std::string(value) == "smo");
      if (key == "status") CHECK(std::string(value) == (b.converged ? "converged" : "max_iter_reached"));
    } else if constexpr (std::is_same_v<V, std::int64_t>) {
      if (key == "kernel_columns_computed")
        CHECK(value == std::llround(b.cache.kernel_evaluations / static_cast<double>(subset.size())));
      if (key == "cache_hits") CHECK(value == b.cache.hits);
      if (key == "cache_misses") CHECK(value == b.cache.misses);
    }
  });
  CHECK(seen == binary);
  CHECK(b.cache.kernel_evaluations > 0);
}

int main() { return budgetsvm::test::run_all(); }
