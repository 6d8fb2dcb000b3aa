// Bindings of the shared data pieces: kernel matrices, entry moments (for
// gamma="scale"), the finiteness check and the svmlight parser.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <variant>

#include "budgetsvm/core/kernel.hpp"
#include "budgetsvm/core/kernel_options.hpp"
#include "budgetsvm/io/svmlight.hpp"
#include "data.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

py::array_t<double> py_kernel_matrix(py::object X, py::object Y, const std::string& kernel_name,
                                     double gamma, int degree, double coef0, int n_threads) {
  Kernel kernel{from_name(kernel_names(), kernel_name, "kernel"), gamma, coef0, degree};
  kernel.validate();
  const auto shape_of = [](const py::object& A) {
    return visit_data(A, [](const auto& v) { return std::pair<Index, Index>(v.rows(), v.cols()); });
  };
  const auto [nx, dx] = shape_of(X);
  const auto [ny, dy] = shape_of(Y);
  require(dx == dy, "X has " + std::to_string(dx) + " features but Y has " + std::to_string(dy));
  py::array_t<double> out({nx, ny});
  auto* out_ptr = out.mutable_data();
  RunControl control = python_run_control();  // built under the GIL, used without it
  visit_data(Y, [&](const auto& y_view) {
    ErasedRows y(y_view);
    visit_data(X, [&](const auto& x_view) {
      py::gil_scoped_release release;  // views point into arrays that X and Y keep alive
      kernel_matrix(kernel, x_view, y, Eigen::Map<MatrixXd>(out_ptr, nx, ny), n_threads, control);
    });
  });
  return out;
}

py::tuple py_entry_moments(py::object X) {
  const auto m = visit_data(X, [](const auto& view) {
    py::gil_scoped_release release;
    return entry_moments(view);
  });
  return py::make_tuple(m.sum, m.sum_of_squares, m.count, m.centred_sum_of_squares);
}

py::array_t<double> py_decision_function(py::object X, py::object SV, const Eigen::Ref<const MatrixXd>& coef,
                                          const std::string& kernel_name, double gamma, int degree,
                                          double coef0, int n_jobs) {
  Kernel kernel{from_name(kernel_names(), kernel_name, "kernel"), gamma, coef0, degree};
  const Index n = visit_data(X, [](const auto& v) { return v.rows(); });
  py::array_t<double> out({n, static_cast<Index>(coef.cols())});
  auto* out_ptr = out.mutable_data();
  RunControl control = python_run_control();
  visit_data(X, [&](const auto& x_view) {
    ErasedRows x(x_view);
    visit_data(SV, [&](const auto& sv_view) {
      py::gil_scoped_release release;  // X, SV and coef are kept alive by the caller
      kernel_expansion(kernel, x, sv_view, coef, Eigen::Map<MatrixXd>(out_ptr, n, coef.cols()), n_jobs,
                       control);
    });
  });
  return out;
}

bool py_all_finite(py::object X) {
  return visit_data(X, [](const auto& view) {
    py::gil_scoped_release release;
    if constexpr (std::decay_t<decltype(view)>::is_sparse) {  // the rows' stored values, one contiguous block
      const auto m = view.matrix();
      const auto begin = m.outerIndexPtr()[0], end = m.outerIndexPtr()[view.rows()];
      return all_finite_values(m.valuePtr() + begin, static_cast<std::size_t>(end - begin));
    } else {  // one contiguous block, in either storage order
      return all_finite_values(view.matrix().data(), static_cast<std::size_t>(view.rows() * view.cols()));
    }
  });
}

// Both parser precisions behind one Python class.
class PySvmlightParser {
 public:
  PySvmlightParser(bool float32, bool zero_based, std::optional<std::int64_t> n_features,
                   std::int64_t max_line_bytes, bool drop_extra_columns) {
    if (n_features && *n_features < 1) throw std::invalid_argument("n_features must be positive");
    if (max_line_bytes < 1) throw std::invalid_argument("max_line_bytes must be positive");
    const std::int64_t limit = n_features.value_or(SvmlightParser<double>::kNoLimit);
    const auto line = static_cast<std::size_t>(max_line_bytes);
    const ExtraColumns extra = drop_extra_columns ? ExtraColumns::drop : ExtraColumns::error;
    if (float32)
      parser_ = SvmlightParser<float>(zero_based, limit, line, extra);
    else
      parser_ = SvmlightParser<double>(zero_based, limit, line, extra);
    column_limit_ = n_features;
  }

  void feed(const py::bytes& chunk) {
    char* data = nullptr;
    py::ssize_t size = 0;
    if (PyBytes_AsStringAndSize(chunk.ptr(), &data, &size) != 0) throw py::error_already_set();
    py::gil_scoped_release release;  // the bytes object is held by the caller
    std::visit([&](auto& p) { p.feed(data, static_cast<std::size_t>(size)); }, parser_);
  }

  /// Ends the input and returns (values, indices, indptr, labels, n_columns
  /// seen). Index arrays are int32 when every index and offset fits.
  py::tuple finish() {
    return std::visit(
        [](auto& p) -> py::tuple {
          p.finish();
          const std::int64_t columns = p.columns_seen();
          auto [values, indices, indptr] = csr_arrays(p.values, p.indices, p.indptr, columns);
          return py::make_tuple(values, indices, indptr, to_numpy(std::move(p.labels)), columns);
        },
        parser_);
  }

  /// Parses a last line without a newline; rows stay for take().
  void end() {
    std::visit([](auto& p) { p.finish(); }, parser_);
  }

  /// Complete rows parsed and not yet taken.
  std::int64_t rows() const {
    return std::visit([](const auto& p) { return p.rows(); }, parser_);
  }

  /// One more than the largest 0-based column seen so far, dropped ones included.
  std::int64_t columns_seen() const {
    return std::visit([](const auto& p) { return p.columns_seen(); }, parser_);
  }

  /// Moves out the first min(max_rows, rows) complete rows as (values,
  /// indices, indptr, labels); int32 index arrays when n_features (or, without
  /// it, the columns seen so far) and the chunk's entries fit.
  py::tuple take(std::int64_t max_rows) {
    if (max_rows < 0) throw std::invalid_argument("max_rows must be non-negative");
    return std::visit(
        [&](auto& p) -> py::tuple {
          auto rows = p.take(max_rows);
          const std::int64_t columns = column_limit_.value_or(p.columns_seen());
          auto [values, indices, indptr] = csr_arrays(rows.values, rows.indices, rows.indptr, columns);
          return py::make_tuple(values, indices, indptr, to_numpy(std::move(rows.labels)));
        },
        parser_);
  }

 private:
  template <class Scalar>
  static std::tuple<py::object, py::object, py::object> csr_arrays(std::vector<Scalar>& values,
                                                                   std::vector<std::int64_t>& indices,
                                                                   std::vector<std::int64_t>& indptr,
                                                                   std::int64_t columns) {
    const bool fits = static_cast<std::int64_t>(indices.size()) <= INT32_MAX && columns <= INT32_MAX;
    py::object index_array, offset_array;
    if (fits) {
      index_array = to_numpy(narrow(indices));
      offset_array = to_numpy(narrow(indptr));
    } else {
      index_array = to_numpy(std::move(indices));
      offset_array = to_numpy(std::move(indptr));
    }
    return {to_numpy(std::move(values)), index_array, offset_array};
  }
  static std::vector<std::int32_t> narrow(std::vector<std::int64_t>& wide) {
    std::vector<std::int32_t> out(wide.begin(), wide.end());
    std::vector<std::int64_t>().swap(wide);
    return out;
  }
  std::variant<SvmlightParser<double>, SvmlightParser<float>> parser_{SvmlightParser<double>()};
  std::optional<std::int64_t> column_limit_;
};

}  // namespace

void register_data(py::module_& m) {
  m.def("kernel_matrix", &py_kernel_matrix, py::arg("X"), py::arg("Y"), py::arg("kernel"),
        py::arg("gamma"), py::arg("degree"), py::arg("coef0"), py::arg("n_jobs") = 1,
        "K(X, Y) in blocks over n_jobs threads with the GIL released");
  m.def("decision_function", &py_decision_function, py::arg("X"), py::arg("SV"), py::arg("coef"),
        py::arg("kernel"), py::arg("gamma"), py::arg("degree"), py::arg("coef0"), py::arg("n_jobs") = 1,
        "K(X, SV) @ coef, computed in blocks with the GIL released");
  m.def("entry_moments", &py_entry_moments, py::arg("X"),
        "(sum, sum of squares, count, sum of squared deviations from the mean) over all entries of X, implicit "
        "zeros included; the last by a second pass");
  m.def("all_finite", &py_all_finite, py::arg("X"));
  m.def(
      "largest_squared_row_norm",
      [](py::object X) {
        return visit_data(X, [](const auto& view) {
          py::gil_scoped_release release;  // X is kept alive by the caller
          return largest_squared_row_norm(view);
        });
      },
      py::arg("X"), "max_i ||x_i||^2 in float64 (inf when it overflows, 0 for no rows)");
  m.def(
      "check_csr",
      [](const py::array& indices, const py::array& indptr, Index rows, Index cols) {
        std::string problem;
        {
          py::gil_scoped_release release;  // reads the caller's arrays, which it keeps alive
          problem = csr_structure_error(indices, indptr, rows, cols);
        }
        if (!problem.empty()) throw std::invalid_argument("malformed CSR matrix: " + problem);
      },
      py::arg("indices"), py::arg("indptr"), py::arg("n_rows"), py::arg("n_cols"),
      "Raises ValueError when CSR index arrays are malformed (indptr not starting at 0, decreasing or "
      "not ending at nnz; a column index outside [0, n_cols)); O(nnz)");
  m.attr("SVMLIGHT_MAX_LINE_BYTES") = static_cast<std::int64_t>(kMaxLineBytes);
  py::class_<PySvmlightParser>(m, "SvmlightParser")
      .def(py::init<bool, bool, std::optional<std::int64_t>, std::int64_t, bool>(), py::arg("float32"),
           py::arg("zero_based"), py::arg("n_features") = py::none(),
           py::arg("max_line_bytes") = static_cast<std::int64_t>(kMaxLineBytes), py::arg("drop_extra_columns") = false,
           "max_line_bytes: a longer line is a ValueError naming it; drop_extra_columns: indices beyond n_features "
           "are checked and counted (columns_seen) but not kept, instead of an error")
      .def("feed", &PySvmlightParser::feed, py::arg("chunk"))
      .def("finish", &PySvmlightParser::finish)
      .def("end", &PySvmlightParser::end)
      .def_property_readonly("rows", &PySvmlightParser::rows)
      .def_property_readonly("columns_seen", &PySvmlightParser::columns_seen)
      .def("take", &PySvmlightParser::take, py::arg("max_rows"));
}

}  // namespace budgetsvm::python
