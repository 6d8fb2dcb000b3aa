// Kernel functions (the kernel values of blocks of dot products; the
// kernel matrices and expansions built from them are in expansion.hpp).
//
//   linear   k(x, z) = <x, z>
//   rbf      k(x, z) = exp(-gamma ||x - z||^2)
//   poly     k(x, z) = (gamma <x, z> + coef0)^degree
//   sigmoid  k(x, z) = tanh(gamma <x, z> + coef0)
//
// Blocks of kernel values come from dot products G = X Z^T, with
// ||x - z||^2 = ||x||^2 + ||z||^2 - 2 <x, z> (clamped at 0) for rbf, as
// scikit-learn's pairwise kernels do. Our departure: that formula cancels for
// features far from the origin, so rbf distances are taken between points
// shifted by a common reference point (centre.hpp; docs/numerics.md), and
// float32 data that sits far from the origin is multiplied in double.
// Kernel::row_from_dots is the single place where dot products become kernel
// values (kernel_matrix, kernel_expansion, the exact solvers' column sources
// and the budget model all use it).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "centre.hpp"
#include "control.hpp"
#include "data_view.hpp"
#include "parallel.hpp"
#include "simd.hpp"

namespace budgetsvm {

enum class KernelType { linear, rbf, poly, sigmoid };

struct Kernel {
  KernelType type = KernelType::rbf;
  double gamma = 1.0;
  double coef0 = 0.0;
  int degree = 3;

  void validate() const {
    require(std::isfinite(gamma) && (type == KernelType::linear || gamma > 0.0),
            "gamma must be a positive finite number");
    require(std::isfinite(coef0), "coef0 must be finite");
    require(type != KernelType::poly || degree >= 0, "degree must be non-negative");
  }

  /// out[j] = k(x, z_j) from dots[j] = <x, z_j>, xnorm = |x|^2 and
  /// znorm[j] = |z_j|^2 (read for rbf only); out may alias dots. The one
  /// place where kernel values are made from dot products: the rbf
  /// exponential runs vectorised (simd.hpp), the distance clamped at 0.
  void row_from_dots(const simd::Kernels& simd, const double* dots, double xnorm, const double* znorm,
                     Index n, double* out) const {
    switch (type) {
      case KernelType::rbf: simd.rbf_from_dots(dots, znorm, xnorm, gamma, n, out); return;
      case KernelType::linear: break;
      case KernelType::poly:
        for (Index j = 0; j < n; ++j) out[j] = std::pow(gamma * dots[j] + coef0, degree);
        return;
      case KernelType::sigmoid:
        for (Index j = 0; j < n; ++j) out[j] = std::tanh(gamma * dots[j] + coef0);
        return;
    }
    if (out != dots) std::copy(dots, dots + n, out);
  }

  /// k(x, z) from <x, z>, ||x||^2 and ||z||^2.
  double from_dot(double dot, double sqnorm_x, double sqnorm_z) const {
    double out = 0.0;
    row_from_dots(simd::active_kernels(), &dot, sqnorm_x, &sqnorm_z, 1, &out);
    return out;
  }

  /// Turns a row-major block of dot products G(r, c) = <x_r, z_c> into
  /// kernel values in place, row by row.
  void apply(MatrixXd& G, const VectorXd& sqnorm_x, const VectorXd& sqnorm_z,
             const simd::Kernels& simd = simd::active_kernels()) const {
    if (type == KernelType::linear) return;
    for (Index r = 0; r < G.rows(); ++r)
      row_from_dots(simd, G.row(r).data(), needs_norms() ? sqnorm_x[r] : 0.0,
                    needs_norms() ? sqnorm_z.data() : nullptr, G.cols(), G.row(r).data());
  }

  bool needs_norms() const { return type == KernelType::rbf; }
};

/// G = X[begin : begin + count] Y^T for a data view X and a dense double
/// block Y. The product runs in X's precision (no double copy of a float32
/// X) unless `in_double`, through Eigen's dense or sparse-dense product.
template <class View, class Out>
void dot_with_block(const View& X, Index begin, Index count, const MatrixXd& Y, bool in_double, Out&& G) {
  using Scalar = typename View::Scalar;
  const auto Xr = X.matrix().middleRows(begin, count);
  if constexpr (std::is_same_v<Scalar, double>) {
    G.noalias() = Xr * Y.transpose();
  } else if (in_double) {
    G.noalias() = Xr.template cast<double>() * Y.transpose();
  } else {
    const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Yf = Y.cast<float>();
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic> Gf = Xr * Yf.transpose();
    G = Gf.template cast<double>();
  }
}

/// Number of rows of Y to densify at once: bounded so that a block of a
/// very wide sparse Y stays near 16 MB.
inline Index kernel_block_rows(Index n_cols) {
  const Index budget = Index{1} << 21;  // doubles per block
  return std::clamp<Index>(budget / std::max<Index>(n_cols, 1), 1, 512);
}

/// The rows of Y listed in `rows`, densified into Yb and shifted by the
/// centre c (centre.hpp); their squared norms (after the shift) into norms
/// and <c, y - c> into cdot (when c is active).
template <class RowsY>
void gather_shifted(const RowsY& Y, const std::vector<Index>& rows, const Centre& c, MatrixXd& Yb,
                    VectorXd& norms, VectorXd& cdot) {
  gather_rows(Y, rows, Yb);
  const Index m = Yb.rows();
  norms.resize(m);
  cdot.resize(m);
  for (Index r = 0; r < m; ++r) {
    if (c.active()) {
      c.shift(Yb.row(r).data());
      norms[r] = Yb.row(r).squaredNorm();
      cdot[r] = c.dot(Yb.row(r).data());
    } else {
      norms[r] = Y.squared_norm(rows[static_cast<std::size_t>(r)]);
    }
  }
}

/// The centre of view X for `kernel` (rbf only: other kernels are not
/// translation invariant) and the squared norms of X's rows after the shift.
template <class View>
Centre centre_for(const Kernel& kernel, const View& X, VectorXd& norms) {
  Centre c = kernel.needs_norms() ? choose_centre(X) : Centre{};
  if (kernel.needs_norms()) {
    std::vector<char> mark;
    norms.resize(X.rows());
    for (Index i = 0; i < X.rows(); ++i) norms[i] = centred_squared_norm(X, i, c, mark);
  }
  return c;
}

}  // namespace budgetsvm
