// Kernel functions and blocked kernel matrices.
//
//   linear   k(x, z) = <x, z>
//   rbf      k(x, z) = exp(-gamma ||x - z||^2)
//   poly     k(x, z) = (gamma <x, z> + coef0)^degree
//   sigmoid  k(x, z) = tanh(gamma <x, z> + coef0)
//
// Blocks are computed from one matrix product G = X Z^T, with
// ||x - z||^2 = ||x||^2 + ||z||^2 - 2 <x, z> (clamped at 0) for rbf, which is
// also how scikit-learn's pairwise kernels compute it.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "data_view.hpp"

namespace budgetsvm {

enum class KernelType { linear, rbf, poly, sigmoid };

inline KernelType kernel_type_from_name(const std::string& name) {
  if (name == "linear") return KernelType::linear;
  if (name == "rbf") return KernelType::rbf;
  if (name == "poly") return KernelType::poly;
  if (name == "sigmoid") return KernelType::sigmoid;
  throw std::invalid_argument("unknown kernel '" + name +
                              "'; expected one of 'linear', 'rbf', 'poly', 'sigmoid'");
}

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

  /// k(x, z) from <x, z>, ||x||^2 and ||z||^2.
  double from_dot(double dot, double sqnorm_x, double sqnorm_z) const {
    switch (type) {
      case KernelType::linear: return dot;
      case KernelType::rbf:
        return std::exp(-gamma * std::max(0.0, sqnorm_x + sqnorm_z - 2.0 * dot));
      case KernelType::poly: return std::pow(gamma * dot + coef0, degree);
      case KernelType::sigmoid: return std::tanh(gamma * dot + coef0);
    }
    return 0.0;
  }

  /// Turns a block of dot products G(r, c) = <x_r, z_c> into kernel values in
  /// place; the type switch sits outside the element loops.
  template <class Block>
  void apply(Block& G, const Eigen::Ref<const VectorXd>& sqnorm_x,
             const Eigen::Ref<const VectorXd>& sqnorm_z) const {
    switch (type) {
      case KernelType::linear: return;
      case KernelType::rbf:
        for (Index r = 0; r < G.rows(); ++r)
          for (Index c = 0; c < G.cols(); ++c)
            G(r, c) = std::exp(-gamma * std::max(0.0, sqnorm_x[r] + sqnorm_z[c] - 2.0 * G(r, c)));
        return;
      case KernelType::poly:
        G = (gamma * G.array() + coef0).pow(static_cast<double>(degree)).matrix();
        return;
      case KernelType::sigmoid:
        G = (gamma * G.array() + coef0).tanh().matrix();
        return;
    }
  }

  bool needs_norms() const { return type == KernelType::rbf; }
};

/// G = X Y^T for a data view X and a small dense double block Y. The product
/// runs in X's precision (no double copy of a float32 X), through Eigen's
/// dense or sparse-dense matrix product.
template <class View, class Out>
void dot_with_block(const View& X, const MatrixXd& Y, Out&& G) {
  using Scalar = typename View::Scalar;
  if constexpr (std::is_same_v<Scalar, double>) {
    G.noalias() = X.matrix() * Y.transpose();
  } else {
    const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Yf = Y.cast<float>();
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic> Gf = X.matrix() * Yf.transpose();
    G = Gf.template cast<double>();
  }
}

/// Number of rows of Y to densify at once: bounded so that a block of a
/// very wide sparse Y stays near 16 MB.
inline Index kernel_block_rows(Index n_cols) {
  const Index budget = Index{1} << 21;  // doubles per block
  return std::clamp<Index>(budget / std::max<Index>(n_cols, 1), 1, 512);
}

/// K(i, j) = k(x_i, y_j) for all rows of X and Y, written into out (row-major
/// X.rows() x Y.rows()). Y is densified one block of rows at a time.
template <class ViewX, class ViewY>
void kernel_matrix(const Kernel& kernel, const ViewX& X, const ViewY& Y,
                   Eigen::Ref<MatrixXd> out) {
  require(X.cols() == Y.cols(), "X and Y must have the same number of features");
  require(out.rows() == X.rows() && out.cols() == Y.rows(), "output has the wrong shape");
  kernel.validate();
  VectorXd norm_x, norm_y;
  if (kernel.needs_norms()) {
    norm_x = row_squared_norms(X);
    norm_y = row_squared_norms(Y);
  }
  const Index step = kernel_block_rows(Y.cols());
  MatrixXd Yb;
  MatrixXd G;
  std::vector<Index> rows;
  for (Index start = 0; start < Y.rows(); start += step) {
    const Index stop = std::min(Y.rows(), start + step);
    rows.resize(static_cast<std::size_t>(stop - start));
    for (Index j = start; j < stop; ++j) rows[static_cast<std::size_t>(j - start)] = j;
    gather_rows(Y, rows, Yb);
    G.resize(X.rows(), stop - start);
    dot_with_block(X, Yb, G);
    if (kernel.needs_norms())
      kernel.apply(G, norm_x, norm_y.segment(start, stop - start));
    else
      kernel.apply(G, VectorXd(), VectorXd());
    out.middleCols(start, stop - start) = G;
  }
}

/// out(i, :) = sum_j k(x_i, sv_j) coef(j, :) for every row of X: the decision
/// values of a kernel expansion. X is read through rows() / cols() /
/// copy_row() / squared_norm() only, in blocks; SV is any view. Row ranges of
/// X are split over n_threads threads.
template <class RowsX, class ViewSV>
void kernel_expansion(const Kernel& kernel, const RowsX& X, const ViewSV& SV,
                      const Eigen::Ref<const MatrixXd>& coef, Eigen::Ref<MatrixXd> out,
                      int n_threads = 1) {
  require(X.cols() == SV.cols(), "X and the support vectors must have the same number of features");
  require(coef.rows() == SV.rows(), "coef needs one row per support vector");
  require(out.rows() == X.rows() && out.cols() == coef.cols(), "output has the wrong shape");
  kernel.validate();
  const VectorXd norm_sv = kernel.needs_norms() ? row_squared_norms(SV) : VectorXd();
  const Index step = std::min<Index>(kernel_block_rows(X.cols()), 256);
  auto work = [&](Index begin, Index end) {
    MatrixXd Xb, G;
    VectorXd norm_x;
    std::vector<Index> rows;
    for (Index start = begin; start < end; start += step) {
      const Index stop = std::min(end, start + step);
      rows.resize(static_cast<std::size_t>(stop - start));
      for (Index i = start; i < stop; ++i) rows[static_cast<std::size_t>(i - start)] = i;
      gather_rows(X, rows, Xb);
      G.resize(SV.rows(), stop - start);
      dot_with_block(SV, Xb, G);
      if (kernel.needs_norms()) {
        norm_x = Xb.rowwise().squaredNorm();
        kernel.apply(G, norm_sv, norm_x);
      } else {
        kernel.apply(G, VectorXd(), VectorXd());
      }
      out.middleRows(start, stop - start).noalias() = G.transpose() * coef;
    }
  };
  const Index n = X.rows();
  const int threads = static_cast<int>(std::clamp<Index>(n / (4 * step), 1, std::max(n_threads, 1)));
  if (threads == 1) return work(0, n);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(work, n * t / threads, n * (t + 1) / threads);
  for (auto& thread : pool) thread.join();
}

}  // namespace budgetsvm
