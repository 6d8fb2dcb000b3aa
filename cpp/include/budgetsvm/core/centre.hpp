// A common reference point for Gaussian kernel distances.
//
// The problem: ||x - z||^2 = |x|^2 + |z|^2 - 2 <x, z> cancels when the
// features sit far from the origin compared to their spread (1e6 + x): the
// three terms are huge, their difference small, and the rounding error of
// the dot product (relative to |x||z|) swamps it; in float32 arithmetic
// already at modest offsets, in double at large ones.
//
// The fix: distances do not change under translation, so we compute them
// for x - c and z - c with a reference point c near the data. Only the
// operand that is already a dense double block is shifted (a gathered block
// of rows, the budget model's support vectors); the other one, a view read
// in place (sparse, float32, ...), is not copied:
//
//   <x - c, z - c> = <x, z - c> - <c, z - c>,
//
// and <x, z - c> is only as large as |x| |z - c|. The squared norms are those
// of the shifted rows. c_k is the mean of feature k over the reference rows
// where that mean exceeds the feature's standard deviation, else 0: features
// near the origin keep exactly the arithmetic they had, and a sparse row gains
// only the few shifted features. When |c|^2 exceeds the total variance,
// products of float32 data must run in double (`far`): <x, z - c> in float
// would still carry an error relative to |x| ~ |c|.
#pragma once

#include <vector>

#include "data_view.hpp"

namespace budgetsvm {

struct Centre {
  VectorXd point;               // c: d values (0 outside `features`), or empty
  std::vector<Index> features;  // the k with c_k != 0, ascending
  bool far = false;             // |c|^2 > total variance of the reference rows

  bool active() const { return !features.empty(); }

  /// z <- z - c for a dense row of d values.
  void shift(double* z) const {
    for (Index k : features) z[k] -= point[k];
  }
  /// Every row of S back to the data's coordinates (S.row(j) += c): models
  /// trained or reduced on shifted rows, exported.
  void unshift_rows(MatrixXd& S) const {
    if (active()) S.rowwise() += point.transpose();
  }
  /// x - c for a sparse row's `stored` entries (idx, val; room for stored +
  /// features.size()), in place: each stored value less c_k, then -c_k
  /// appended for each shifted feature the row does not store. `seen`:
  /// scratch of zeros (resized to d), left zero. Returns the entries held.
  Index shift_entries(Index* idx, double* val, Index stored, std::vector<char>& seen) const {
    if (!active()) return stored;
    seen.resize(static_cast<std::size_t>(point.size()), 0);
    for (Index e = 0; e < stored; ++e) {
      val[e] -= point[idx[e]];
      seen[static_cast<std::size_t>(idx[e])] = 1;
    }
    Index q = stored;
    for (Index k : features)
      if (!seen[static_cast<std::size_t>(k)]) idx[q] = k, val[q++] = -point[k];
    for (Index e = 0; e < stored; ++e) seen[static_cast<std::size_t>(idx[e])] = 0;
    return q;
  }
  /// <c, z> for a dense row of d values.
  double dot(const double* z) const {
    double s = 0.0;
    for (Index k : features) s += point[k] * z[k];
    return s;
  }
};

namespace detail {

/// c from per-feature means and variances (see the header comment).
inline Centre centre_from_moments(const VectorXd& mean, const VectorXd& var) {
  Centre c;
  double offset = 0.0;
  Index shifted = 0;
  for (Index k = 0; k < mean.size(); ++k) shifted += mean[k] * mean[k] > var[k];
  c.features.reserve(static_cast<std::size_t>(shifted));  // one allocation (small problems make many centres)
  for (Index k = 0; k < mean.size(); ++k)
    if (mean[k] * mean[k] > var[k]) {
      c.features.push_back(k);
      offset += mean[k] * mean[k];
    }
  if (c.features.empty()) return c;
  c.point = VectorXd::Zero(mean.size());
  for (Index k : c.features) c.point[k] = mean[k];
  c.far = offset > var.sum();
  return c;
}

}  // namespace detail

/// The reference point of rows `subset` of X (all rows when empty).
template <class View>
Centre choose_centre(const View& X, const std::vector<Index>& subset = {}) {
  const Index d = X.cols();
  const Index n = subset.empty() ? X.rows() : static_cast<Index>(subset.size());
  if (n == 0 || d == 0) return Centre{};
  auto row = [&](Index t) { return subset.empty() ? t : subset[static_cast<std::size_t>(t)]; };
  VectorXd mean = VectorXd::Zero(d), var = VectorXd::Zero(d), stored = VectorXd::Zero(d);
  for (Index t = 0; t < n; ++t)
    X.for_each(row(t), [&](Index k, double v) {
      mean[k] += v;
      stored[k] += 1.0;
    });
  mean /= static_cast<double>(n);
  for (Index t = 0; t < n; ++t)
    X.for_each(row(t), [&](Index k, double v) { var[k] += (v - mean[k]) * (v - mean[k]); });
  // The implicit zeros of a sparse view.
  var.array() += (static_cast<double>(n) - stored.array()) * mean.array().square();
  var /= static_cast<double>(n);
  return detail::centre_from_moments(mean, var);
}

/// The reference point of the rows of X and Y together, Y read through
/// copy_row (dense rows of moderate width): for a kernel matrix whose two
/// operands may lie apart, where a point near one of them only would leave
/// the other's distances to cancel.
template <class View, class Rows>
Centre choose_joint_centre(const View& X, const Rows& Y) {
  const Index d = X.cols(), n = X.rows() + Y.rows();
  if (n == 0 || d == 0) return Centre{};
  VectorXd mean = VectorXd::Zero(d), var = VectorXd::Zero(d), stored = VectorXd::Zero(d);
  std::vector<double> row(static_cast<std::size_t>(d));
  for (Index i = 0; i < X.rows(); ++i)
    X.for_each(i, [&](Index k, double v) {
      mean[k] += v;
      stored[k] += 1.0;
    });
  for (Index j = 0; j < Y.rows(); ++j) {
    Y.copy_row(j, row.data());
    for (Index k = 0; k < d; ++k) mean[k] += row[static_cast<std::size_t>(k)];
  }
  stored.array() += static_cast<double>(Y.rows());
  mean /= static_cast<double>(n);
  for (Index i = 0; i < X.rows(); ++i)
    X.for_each(i, [&](Index k, double v) { var[k] += (v - mean[k]) * (v - mean[k]); });
  for (Index j = 0; j < Y.rows(); ++j) {
    Y.copy_row(j, row.data());
    for (Index k = 0; k < d; ++k) {
      const double u = row[static_cast<std::size_t>(k)] - mean[k];
      var[k] += u * u;
    }
  }
  var.array() += (static_cast<double>(n) - stored.array()) * mean.array().square();
  var /= static_cast<double>(n);
  return detail::centre_from_moments(mean, var);
}

/// |x_i - c|^2 in double. `mark` is scratch (d zeros, left as zeros).
template <class View>
double centred_squared_norm(const View& X, Index i, const Centre& c, std::vector<char>& mark) {
  if (!c.active()) return X.squared_norm(i);
  double s = 0.0;
  if constexpr (View::is_sparse) {
    mark.resize(static_cast<std::size_t>(X.cols()), 0);
    X.for_each(i, [&](Index k, double v) {
      const double u = v - c.point[k];
      s += u * u;
      mark[static_cast<std::size_t>(k)] = 1;
    });
    for (Index k : c.features)  // the shifted features that row i does not store
      if (!mark[static_cast<std::size_t>(k)]) s += c.point[k] * c.point[k];
    X.for_each(i, [&](Index k, double) { mark[static_cast<std::size_t>(k)] = 0; });
  } else {
    X.for_each(i, [&](Index k, double v) {
      const double u = v - c.point[k];
      s += u * u;
    });
  }
  return s;
}

}  // namespace budgetsvm
