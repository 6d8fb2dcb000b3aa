// The scalar side of simd_merge.hpp: the WD table view, the bilinear
// interpolation the lookup table (merge.hpp) and the scalar cost pass
// share, and the merging of the vector levels' per-lane minima.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "../core/simd.hpp"

namespace budgetsvm::simd {

/// A view of a WD table: (half + 1) x (grid + 1) nodes, row-major, row i at
/// u = i / half, column c at kappa = c / grid.
struct WdGrid {
  const float* wd;
  int grid;
  int half;
};

namespace detail {

/// Bilinear interpolation of a node table at (m, kappa), m clamped to
/// [0, 1/2] and kappa to [0, 1] (no folding: the caller folds m).
template <class T>
inline double bilinear(const T* table, int grid, int half, double m, double kappa) {
  m = std::clamp(m, 0.0, 0.5);
  kappa = std::clamp(kappa, 0.0, 1.0);
  const double u = (1.0 - std::sqrt(std::max(0.0, 1.0 - 2.0 * m))) * half, v = kappa * grid;
  const int i = std::min(static_cast<int>(u), half - 1);
  const int j = std::min(static_cast<int>(v), grid - 1);
  const double fu = u - i, fv = v - j;
  const std::size_t cols = static_cast<std::size_t>(grid) + 1;
  const T* r0 = table + static_cast<std::size_t>(i) * cols + static_cast<std::size_t>(j);
  const T* r1 = r0 + cols;
  const double a = r0[0], b = r0[1], c = r1[0], d = r1[1];
  return (1.0 - fu) * ((1.0 - fv) * a + fv * b) + fu * ((1.0 - fv) * c + fv * d);
}

/// The interpolated WD at m, folded to m <= 1/2.
inline double wd_at(const WdGrid& t, double m, double kappa) {
  return bilinear(t.wd, t.grid, t.half, m > 0.5 ? 1.0 - m : m, kappa);
}

/// The first k of least cost[k] given per-lane minima (cost, k), lanes of
/// equal cost resolved to the smaller k.
inline Index first_least(const double* cost, const double* k, int lanes, double* best_cost) {
  double best = std::numeric_limits<double>::infinity(), best_k = -1.0;
  for (int l = 0; l < lanes; ++l) {
    if (k[l] >= 0.0 && (cost[l] < best || (cost[l] == best && k[l] < best_k))) best = cost[l], best_k = k[l];
  }
  *best_cost = best;
  return static_cast<Index>(best_k);
}

}  // namespace detail

namespace scalar {
inline Index least_merge_cost(const double* w, double wa, const double* kappa, const Index* idx, Index q,
                              const WdGrid& t, double* cost) {
  Index best = -1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (Index k = 0; k < q; ++k) {
    const Index j = idx[k];
    const double s = wa + w[j];
    const double c = s * s * detail::wd_at(t, wa / s, kappa[j]);
    if (c < best_cost) best_cost = c, best = k;
  }
  *cost = best_cost;
  return best;
}
}  // namespace scalar

}  // namespace budgetsvm::simd
