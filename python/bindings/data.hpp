// Translation of Python data into C++ views: the one place where numpy
// buffers become budgetsvm::DenseView / CsrView. The Python layer has already
// validated and, where needed, converted (python/budgetsvm/_data.py); here we
// only check the contract and wrap the caller's memory: a training matrix is
// never copied (labels and per-sample weights, O(n), may be).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "budgetsvm/core/control.hpp"
#include "budgetsvm/core/data_view.hpp"

namespace budgetsvm::python {

namespace py = pybind11;

inline bool has_dtype(const py::array& a, char kind, py::ssize_t itemsize) {
  return a.dtype().kind() == kind && a.itemsize() == itemsize;
}

template <class T>
const T* array_data(const py::array& a) {
  return static_cast<const T*>(a.data());
}

template <class Index, class F>
decltype(auto) visit_csr(const py::array& values, const py::array& indices,
                         const py::array& indptr, Index rows, Index cols, F&& f) {
  auto with_index = [&](auto scalar) -> decltype(auto) {
    using Scalar = decltype(scalar);
    if (has_dtype(indices, 'i', 4))
      return f(CsrView<Scalar, std::int32_t>(array_data<Scalar>(values),
                                             array_data<std::int32_t>(indices),
                                             array_data<std::int32_t>(indptr), rows, cols));
    return f(CsrView<Scalar, std::int64_t>(array_data<Scalar>(values),
                                           array_data<std::int64_t>(indices),
                                           array_data<std::int64_t>(indptr), rows, cols));
  };
  if (has_dtype(values, 'f', 4)) return with_index(float{});
  return with_index(double{});
}

/// What is wrong with the structure of CSR index arrays, or "" when nothing
/// is: indptr starts at 0, never decreases and ends at nnz; every column
/// index lies in [0, cols). O(nnz), reads only; run before anything (scipy
/// included) indexes with them, so that malformed input is an error, never a
/// read or write out of bounds.
template <class I>
std::string csr_structure_error(const I* indices, const I* indptr, Index rows, Index cols, Index nnz) {
  if (indptr[0] != 0) return "indptr[0] is " + std::to_string(indptr[0]) + ", not 0";
  for (Index r = 0; r < rows; ++r)
    if (indptr[r + 1] < indptr[r])
      return "indptr decreases at row " + std::to_string(r) + " (" + std::to_string(indptr[r]) + " -> " +
             std::to_string(indptr[r + 1]) + ")";
  if (static_cast<Index>(indptr[rows]) != nnz)
    return "indptr ends at " + std::to_string(indptr[rows]) + " but there are " + std::to_string(nnz) + " stored values";
  for (Index q = 0; q < nnz; ++q)
    if (indices[q] < 0 || static_cast<Index>(indices[q]) >= cols)
      return "column index " + std::to_string(indices[q]) + " at position " + std::to_string(q) +
             " is outside [0, " + std::to_string(cols) + ")";
  return "";
}

/// The same for numpy index arrays of one integer type (int32 or int64).
inline std::string csr_structure_error(const py::array& indices, const py::array& indptr, Index rows, Index cols) {
  if (indptr.ndim() != 1 || indices.ndim() != 1) return "indices and indptr must be 1-D";
  if (indptr.size() != rows + 1)
    return "indptr has " + std::to_string(indptr.size()) + " entries for " + std::to_string(rows) + " rows";
  const auto contiguous = py::array::c_style;
  if (!(indices.flags() & contiguous) || !(indptr.flags() & contiguous)) return "index arrays must be contiguous";
  if (has_dtype(indices, 'i', 4) && has_dtype(indptr, 'i', 4))
    return csr_structure_error(array_data<std::int32_t>(indices), array_data<std::int32_t>(indptr), rows, cols,
                               static_cast<Index>(indices.size()));
  if (has_dtype(indices, 'i', 8) && has_dtype(indptr, 'i', 8))
    return csr_structure_error(array_data<std::int64_t>(indices), array_data<std::int64_t>(indptr), rows, cols,
                               static_cast<Index>(indices.size()));
  return "indices and indptr must both be int32 or both int64";
}

/// Calls f(view) with the view of X: a 2-D float32/float64 C- or
/// F-contiguous ndarray, or a tuple (data, indices, indptr, n_rows, n_cols)
/// describing a canonical CSR matrix with int32 or int64 indices. Anything
/// else is a TypeError (the Python layer converts before calling).
template <class F>
decltype(auto) visit_data(const py::handle& X, F&& f) {
  if (py::isinstance<py::tuple>(X)) {
    auto t = py::reinterpret_borrow<py::tuple>(X);
    if (t.size() != 5) throw py::type_error("CSR data must be (data, indices, indptr, n_rows, n_cols)");
    auto values = t[0].cast<py::array>();
    auto indices = t[1].cast<py::array>();
    auto indptr = t[2].cast<py::array>();
    const auto rows = t[3].cast<Index>();
    const auto cols = t[4].cast<Index>();
    const bool ok_values = has_dtype(values, 'f', 4) || has_dtype(values, 'f', 8);
    const bool ok_index = (has_dtype(indices, 'i', 4) && has_dtype(indptr, 'i', 4)) ||
                          (has_dtype(indices, 'i', 8) && has_dtype(indptr, 'i', 8));
    const auto contiguous = py::array::c_style;
    if (!ok_values || !ok_index || !(values.flags() & contiguous) ||
        !(indices.flags() & contiguous) || !(indptr.flags() & contiguous) ||
        indptr.size() != rows + 1 || values.size() < 0 || indices.size() != values.size())
      throw py::type_error("CSR buffers are not of a supported type or layout");
    const std::string problem = csr_structure_error(indices, indptr, rows, cols);
    if (!problem.empty()) throw std::invalid_argument("malformed CSR matrix: " + problem);
    return visit_csr(values, indices, indptr, rows, cols, std::forward<F>(f));
  }
  auto a = py::reinterpret_borrow<py::object>(X);
  if (!py::isinstance<py::array>(a)) throw py::type_error("expected a numpy array or CSR buffers");
  auto arr = a.cast<py::array>();
  if (arr.ndim() != 2) throw py::type_error("expected a 2-D array");
  const bool f32 = has_dtype(arr, 'f', 4);
  if (!f32 && !has_dtype(arr, 'f', 8)) throw py::type_error("expected float32 or float64 data");
  const Index rows = arr.shape(0), cols = arr.shape(1);
  const bool c_order = arr.flags() & py::array::c_style;
  const bool f_order = arr.flags() & py::array::f_style;
  if (!c_order && !f_order) throw py::type_error("expected a C- or F-contiguous array");
  if (f32) {
    if (c_order) return f(DenseView<float, Eigen::RowMajor>(array_data<float>(arr), rows, cols));
    return f(DenseView<float, Eigen::ColMajor>(array_data<float>(arr), rows, cols));
  }
  if (c_order) return f(DenseView<double, Eigen::RowMajor>(array_data<double>(arr), rows, cols));
  return f(DenseView<double, Eigen::ColMajor>(array_data<double>(arr), rows, cols));
}

/// A view seen through its rows only (rows, cols, copy_row, squared_norm), so
/// that a function of two views is instantiated once per type of the other
/// view, not once per pair of types.
class ErasedRows {
 public:
  template <class View>
  explicit ErasedRows(const View& X)
      : rows_(X.rows()),
        cols_(X.cols()),
        copy_([X](Index i, double* out) { X.copy_row(i, out); }),
        norm_([X](Index i) { return X.squared_norm(i); }),
        single_(std::is_same_v<typename View::Scalar, float>) {
    if constexpr (View::is_sparse) {
      nnz_ = X.nnz();
      row_nnz_ = [X](Index i) { return X.row_nnz(i); };
      entries_ = [X](Index i, Index* idx, double* val) { X.copy_entries(i, idx, val); };
    }
  }
  Index rows() const { return rows_; }
  bool single_precision() const { return single_; }
  Index cols() const { return cols_; }
  void copy_row(Index i, double* out) const { copy_(i, out); }
  double squared_norm(Index i) const { return norm_(i); }
  /// Sparse rows (CSR): their stored entries, as CsrView hands them out.
  bool sparse() const { return static_cast<bool>(entries_); }
  Index nnz() const { return nnz_; }
  Index row_nnz(Index i) const { return row_nnz_(i); }
  void copy_entries(Index i, Index* idx, double* val) const { entries_(i, idx, val); }

 private:
  Index rows_, cols_;
  std::function<void(Index, double*)> copy_;
  std::function<double(Index)> norm_;
  bool single_;
  Index nnz_ = 0;
  std::function<Index(Index)> row_nnz_;
  std::function<void(Index, Index*, double*)> entries_;
};

/// The run control of a call made from Python with the GIL released: polls
/// for Ctrl-C (signal handlers run on the main thread, under the GIL).
inline RunControl python_run_control() {
  return RunControl([] {
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
  });
}

/// Hands a std::vector's buffer to numpy without copying it.
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v) {
  auto* owner = new std::vector<T>(std::move(v));
  py::capsule free_when_done(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(static_cast<py::ssize_t>(owner->size()), owner->data(), free_when_done);
}

}  // namespace budgetsvm::python
