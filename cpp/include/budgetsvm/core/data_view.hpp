// Non-owning views of a training matrix, read in place from the caller's
// memory. Kernels, the linear solver and the budgeted solvers are templated
// on the view type (the exact solvers reach it through a kernel column
// source, exact/kernel_sources.hpp), so one code path serves dense (row- or
// column-major, float32 or float64) and CSR (float32/float64 values,
// int32/int64 indices) without converting the data.
//
// A view offers:
//   rows(), cols(), matrix()          an Eigen Map of the whole matrix
//   dot(i, w), axpy(a, i, w)          row i against a dense double vector
//   squared_norm(i), copy_row(i, out) row i as a dense double row
//   for_each(i, f)                    f(column, value) over stored entries
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "eigen.hpp"
#include "errors.hpp"

// A hint that `address` will be read soon (the solvers that visit rows in
// random order issue it a few steps ahead); nothing where unsupported.
#if defined(__GNUC__) || defined(__clang__)
#define BUDGETSVM_PREFETCH(address) __builtin_prefetch(static_cast<const void*>(address))
#else
#define BUDGETSVM_PREFETCH(address) ((void)(address))
#endif

namespace budgetsvm {

template <class ScalarT, int Order>
class DenseView {
  static_assert(std::is_same_v<ScalarT, float> || std::is_same_v<ScalarT, double>,
                "dense views hold float or double");

 public:
  using Scalar = ScalarT;
  using Storage = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Order>;
  using MapType = Eigen::Map<const Storage>;
  static constexpr bool is_sparse = false;
  static constexpr bool is_row_major = (Order == Eigen::RowMajor);

  DenseView(const Scalar* data, Index rows, Index cols) : data_(data), rows_(rows), cols_(cols) {
    require(rows >= 0 && cols >= 0, "matrix dimensions must be non-negative");
  }

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  MapType matrix() const { return MapType(data_, rows_, cols_); }
  auto row(Index i) const { return matrix().row(i); }

  double dot(Index i, const double* w) const {
    return row(i).template cast<double>().dot(Eigen::Map<const Eigen::RowVectorXd>(w, cols_));
  }
  void axpy(double a, Index i, double* w) const {
    Eigen::Map<Eigen::RowVectorXd>(w, cols_) += a * row(i).template cast<double>();
  }
  double squared_norm(Index i) const { return row(i).template cast<double>().squaredNorm(); }
  void copy_row(Index i, double* out) const {
    Eigen::Map<Eigen::RowVectorXd>(out, cols_) = row(i).template cast<double>();
  }
  Index row_nnz(Index) const { return cols_; }
  /// Memory hints for row i, two steps ahead (nothing: a dense row has no
  /// offset to read) and one step ahead (its first values; row-major only).
  void prefetch_offset(Index) const {}
  void prefetch_row(Index i) const {
    if constexpr (is_row_major) {
      const char* p = reinterpret_cast<const char*>(data_ + i * cols_);
      const Index bytes = std::min<Index>(cols_ * static_cast<Index>(sizeof(Scalar)), 256);
      for (Index b = 0; b < bytes; b += 64) BUDGETSVM_PREFETCH(p + b);
    }
  }
  /// Start of row i (row-major views only: its values are contiguous).
  const Scalar* row_data(Index i) const {
    static_assert(is_row_major, "row_data needs a row-major view");
    return data_ + i * cols_;
  }
  template <class F>
  void for_each(Index i, F&& f) const {
    const Index stride = is_row_major ? 1 : rows_;
    const Scalar* p = is_row_major ? data_ + i * cols_ : data_ + i;
    for (Index j = 0; j < cols_; ++j) f(j, static_cast<double>(p[j * stride]));
  }

 private:
  const Scalar* data_;
  Index rows_, cols_;
};

template <class ScalarT, class StorageIndexT>
class CsrView {
  static_assert(std::is_same_v<ScalarT, float> || std::is_same_v<ScalarT, double>,
                "CSR values are float or double");
  static_assert(std::is_same_v<StorageIndexT, std::int32_t> ||
                    std::is_same_v<StorageIndexT, std::int64_t>,
                "CSR indices are int32 or int64");

 public:
  using Scalar = ScalarT;
  using StorageIndex = StorageIndexT;
  using Storage = Eigen::SparseMatrix<Scalar, Eigen::RowMajor, StorageIndex>;
  using MapType = Eigen::Map<const Storage>;
  static constexpr bool is_sparse = true;
  static constexpr bool is_row_major = true;

  /// indptr has rows + 1 entries starting at 0; indices need not be sorted
  /// within a row but must not repeat (the Python layer guarantees both).
  CsrView(const Scalar* values, const StorageIndex* indices, const StorageIndex* indptr,
          Index rows, Index cols)
      : values_(values), indices_(indices), indptr_(indptr), rows_(rows), cols_(cols) {
    require(rows >= 0 && cols >= 0, "matrix dimensions must be non-negative");
  }

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  Index nnz() const { return static_cast<Index>(indptr_[rows_]); }
  MapType matrix() const {
    return MapType(rows_, cols_, nnz(), indptr_, indices_, values_);
  }
  Index row_nnz(Index i) const { return static_cast<Index>(indptr_[i + 1] - indptr_[i]); }
  /// Memory hints for row i: its offset two steps ahead, then (reading the
  /// offset) its first indices and values one step ahead.
  void prefetch_offset(Index i) const { BUDGETSVM_PREFETCH(indptr_ + i); }
  void prefetch_row(Index i) const {
    const auto k = indptr_[i], end = indptr_[i + 1];
    if (k == end) return;
    BUDGETSVM_PREFETCH(values_ + k);
    BUDGETSVM_PREFETCH(indices_ + k);
    constexpr auto per_line = static_cast<StorageIndex>(64 / sizeof(Scalar));
    if (end - k > per_line) BUDGETSVM_PREFETCH(values_ + k + per_line);
  }

  double dot(Index i, const double* w) const {
    double s = 0.0;
    for (auto k = indptr_[i]; k < indptr_[i + 1]; ++k)
      s += static_cast<double>(values_[k]) * w[indices_[k]];
    return s;
  }
  void axpy(double a, Index i, double* w) const {
    for (auto k = indptr_[i]; k < indptr_[i + 1]; ++k)
      w[indices_[k]] += a * static_cast<double>(values_[k]);
  }
  double squared_norm(Index i) const {
    double s = 0.0;
    for (auto k = indptr_[i]; k < indptr_[i + 1]; ++k) {
      const double v = static_cast<double>(values_[k]);
      s += v * v;
    }
    return s;
  }
  void copy_row(Index i, double* out) const {
    Eigen::Map<Eigen::RowVectorXd>(out, cols_).setZero();
    for (auto k = indptr_[i]; k < indptr_[i + 1]; ++k)
      out[indices_[k]] = static_cast<double>(values_[k]);
  }
  template <class F>
  void for_each(Index i, F&& f) const {
    for (auto k = indptr_[i]; k < indptr_[i + 1]; ++k)
      f(static_cast<Index>(indices_[k]), static_cast<double>(values_[k]));
  }
  /// Row i's stored entries into idx and val (row_nnz(i) of each).
  void copy_entries(Index i, Index* idx, double* val) const {
    const auto begin = indptr_[i], end = indptr_[i + 1];
    for (auto k = begin; k < end; ++k) {
      idx[k - begin] = static_cast<Index>(indices_[k]);
      val[k - begin] = static_cast<double>(values_[k]);
    }
  }

 private:
  const Scalar* values_;
  const StorageIndex* indices_;
  const StorageIndex* indptr_;
  Index rows_, cols_;
};

/// True when none of the `count` values is NaN or infinite. Each value's
/// exponent bits are tested as an integer (all ones: not finite), which
/// compilers vectorise, unlike a floating-point comparison with its
/// unordered cases; a block at a time, stopping after the first block that
/// holds a non-finite value.
template <class Scalar>
bool all_finite_values(const Scalar* x, std::size_t count) {
  static_assert(std::is_same_v<Scalar, float> || std::is_same_v<Scalar, double>, "float or double values");
  using Bits = std::conditional_t<sizeof(Scalar) == 4, std::uint32_t, std::uint64_t>;
  constexpr Bits exponent = static_cast<Bits>(sizeof(Scalar) == 4 ? 0x7f800000ull : 0x7ff0000000000000ull);
  constexpr std::size_t kBlock = 4096;
  for (std::size_t start = 0; start < count; start += kBlock) {
    const std::size_t end = std::min(count, start + kBlock);
    Bits bad = 0;
    for (std::size_t k = start; k < end; ++k) {
      Bits b;
      std::memcpy(&b, x + k, sizeof b);
      bad |= static_cast<Bits>((b & exponent) == exponent);
    }
    if (bad != 0) return false;
  }
  return true;
}

/// Squared Euclidean norm of every row, in double precision.
template <class View>
VectorXd row_squared_norms(const View& X) {
  VectorXd norms(X.rows());
  for (Index i = 0; i < X.rows(); ++i) norms[i] = X.squared_norm(i);
  return norms;
}

/// max_i ||x_i||^2 in double precision: 0 for no rows, infinite when a
/// squared norm overflows, NaN when a row holds NaN (it sticks). The bound
/// the magnitude checks start from; one pass, no copy (a dense view a block
/// of rows at a time, so column-major data is read along its columns).
template <class View>
double largest_squared_row_norm(const View& X) {
  double largest = 0.0;
  const auto keep = [&largest](double s) {
    if (std::isnan(s) || s > largest) largest = s;
  };
  if constexpr (View::is_sparse) {
    for (Index i = 0; i < X.rows() && !std::isnan(largest); ++i) keep(X.squared_norm(i));
  } else {
    constexpr Index kBlock = 1024;
    VectorXd norms(kBlock);
    for (Index start = 0; start < X.rows() && !std::isnan(largest); start += kBlock) {
      const Index len = std::min(kBlock, X.rows() - start);
      const auto block = X.matrix().middleRows(start, len);
      if constexpr (View::is_row_major) {
        norms.head(len) = block.template cast<double>().rowwise().squaredNorm();
      } else {  // along the columns, each contiguous
        norms.head(len).setZero();
        for (Index j = 0; j < X.cols(); ++j)
          norms.head(len).array() += block.col(j).template cast<double>().array().square();
      }
      for (Index i = 0; i < len; ++i) keep(norms[i]);
    }
  }
  return largest;
}

/// Sum and sum of squares of all entries (implicit zeros included by
/// definition), in double precision: what gamma="scale" needs, without the
/// temporary copy that numpy's X.var() would allocate.
struct EntryMoments {
  double sum = 0.0;
  double sum_of_squares = 0.0;
  double count = 0.0;
  /// sum (x - mean)^2 by a second pass: sum_of_squares / count - mean^2
  /// cancels catastrophically for features offset far from 0 (1e8 + x).
  double centred_sum_of_squares = 0.0;
  double variance() const { return count == 0.0 ? 0.0 : centred_sum_of_squares / count; }
};

template <class View>
EntryMoments entry_moments(const View& X) {
  EntryMoments m;
  m.count = static_cast<double>(X.rows()) * static_cast<double>(X.cols());
  if constexpr (View::is_sparse) {
    double stored = 0.0;
    for (Index i = 0; i < X.rows(); ++i)
      X.for_each(i, [&](Index, double v) {
        m.sum += v;
        m.sum_of_squares += v * v;
        stored += 1.0;
      });
    const double mean = m.count > 0 ? m.sum / m.count : 0.0;
    for (Index i = 0; i < X.rows(); ++i)
      X.for_each(i, [&](Index, double v) { m.centred_sum_of_squares += (v - mean) * (v - mean); });
    m.centred_sum_of_squares += (m.count - stored) * mean * mean;  // the implicit zeros
  } else {
    m.sum = X.matrix().template cast<double>().sum();
    const double mean = m.count > 0 ? m.sum / m.count : 0.0;
    m.centred_sum_of_squares = (X.matrix().template cast<double>().array() - mean).square().sum();
    m.sum_of_squares = X.matrix().template cast<double>().array().square().sum();
  }
  return m;
}

/// Copies the listed rows of X into the rows of a dense double matrix.
template <class View, class IndexRange>
void gather_rows(const View& X, const IndexRange& rows, MatrixXd& out) {
  out.resize(static_cast<Index>(rows.size()), X.cols());
  Index r = 0;
  for (auto i : rows) X.copy_row(static_cast<Index>(i), out.row(r++).data());
}

}  // namespace budgetsvm
