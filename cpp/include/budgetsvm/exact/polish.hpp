// Final polish of a converged exact SVM solution (dual_state.hpp).
//
// At the optimum every free variable t (0 < a_t < C_t) satisfies
// G_t = y_t rho, with y^T a = 0. When the solver has stopped at the KKT
// tolerance with the right free set F, the exact optimum on that face is
// the solution of the (|F| + 1) x (|F| + 1) linear system
//
//   Q_FF a_F - rho y_F = -p_F - G_bar_F,      y_F^T a_F = Delta - sum_{s at C_s} y_s C_s
//
// (C-SVC: p = -e, Delta = 0)
//
// (G_bar_F: the contribution of the variables at their upper bound; those
// at zero contribute nothing). ALFPGM solves its sub-problems iteratively,
// so its free alpha stop short of that point by about the tolerance, where
// SMO's analytic pair steps often land on it; the polish solves the system
// (full-pivoting LU, in double, on the cached single-precision kernel
// values the solver used) and keeps the result only if it is a better
// point: the matrix has full rank, every new a_F stays strictly inside its
// box, the maximal KKT violation over all n does not grow and the dual
// objective does not increase. Otherwise the solver's solution stands.
// It runs only when at most kPolishMaxFree variables are free and their
// columns fit the cache: its cost is |F| complete kernel columns (mostly
// cached already), an O(|F|^3) solve and an O(n |F|) gradient rebuild, small
// next to the solve that found F. This is our addition; LIBSVM has no such
// step.
#pragma once

#include <Eigen/LU>
#include <cmath>
#include <vector>

#include "dual_state.hpp"

namespace budgetsvm::exact {

inline constexpr Index kPolishMaxFree = 64;

/// Returns whether the solution was replaced by the polished one.
/// Needs every position active (the solvers end unshrunk).
inline bool polish_free_variables(DualState& s) {
  if (s.shrunk()) return false;
  const Index n = s.n();
  std::vector<Index> F;
  double fixed_sum = 0.0;  // sum over the variables at C of y_s C_s
  for (Index t = 0; t < n; ++t) {
    if (s.at_upper(t))
      fixed_sum += s.y(t) * s.upper(t);
    else if (!s.at_lower(t))
      F.push_back(t);
  }
  const Index m = static_cast<Index>(F.size());
  if (m == 0 || m > kPolishMaxFree || m > s.cache().capacity()) return false;
  std::vector<const float*> cols;
  s.cache().fetch(F, n, cols);  // complete columns, read at where(t)
  Eigen::MatrixXd M(m + 1, m + 1);
  Eigen::VectorXd rhs(m + 1);
  for (Index c = 0; c < m; ++c) {
    const Index tc = F[static_cast<std::size_t>(c)];
    for (Index r = 0; r < m; ++r) {
      const Index tr = F[static_cast<std::size_t>(r)];
      M(r, c) = s.y(tr) * s.y(tc) * static_cast<double>(cols[static_cast<std::size_t>(c)][s.where(tr)]);
    }
    M(m, c) = s.y(tc);
    M(c, m) = -s.y(tc);
    rhs[c] = -s.linear(tc) - s.G_bar(tc);
  }
  M(m, m) = 0.0;
  rhs[m] = s.delta() - fixed_sum;
  // float columns: the cached k(x_r, x_c) and k(x_c, x_r) may differ in the last bit
  M.topLeftCorner(m, m) = (0.5 * (M.topLeftCorner(m, m) + M.topLeftCorner(m, m).transpose())).eval();
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(M);
  if (!lu.isInvertible()) return false;
  const Eigen::VectorXd x = lu.solve(rhs);
  std::vector<double> values(static_cast<std::size_t>(m));
  for (Index k = 0; k < m; ++k) {
    const double v = x[k];
    if (!(v > 0.0 && v < s.upper(F[static_cast<std::size_t>(k)]))) return false;
    values[static_cast<std::size_t>(k)] = v;
  }
  std::vector<Index> all(static_cast<std::size_t>(n));
  for (Index t = 0; t < n; ++t) all[static_cast<std::size_t>(t)] = t;
  const double gap_before = s.violation(all).gap();
  const double objective_before = s.objective();
  const std::vector<double> alpha_before = s.alpha();
  const std::vector<double> G_before = s.gradient();
  s.assign_free(F, values, cols);
  const double gap_after = s.violation(all).gap();
  const double objective_after = s.objective();
  const double slack = 1e-12 * std::max(1.0, std::fabs(objective_before));
  if (gap_after <= gap_before && objective_after <= objective_before + slack) return true;
  s.restore(alpha_before, G_before);
  return false;
}

}  // namespace budgetsvm::exact
