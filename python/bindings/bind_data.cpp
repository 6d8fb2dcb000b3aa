// Bindings of the shared data pieces: kernel matrices, entry moments (for
// gamma="scale"), the finiteness check and the svmlight parser.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <cmath>
#include <functional>
#include <memory>
#include <variant>

#include "budgetsvm/core/kernel.hpp"
#include "budgetsvm/core/kernel_options.hpp"
#include "budgetsvm/io/svmlight.hpp"
#include "data.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

py::array_t<double> py_kernel_matrix(py::object X, py::object Y, const std::string& kernel_name,
                                     double gamma, int degree, double coef0) {
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
      kernel_matrix(kernel, x_view, y, Eigen::Map<MatrixXd>(out_ptr, nx, ny), control);
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
    if constexpr (std::decay_t<decltype(view)>::is_sparse) {
      bool finite = true;
      for (Index i = 0; i < view.rows() && finite; ++i)
        view.for_each(i, [&](Index, double v) { finite = finite && std::isfinite(v); });
      return finite;
    } else {
      return view.matrix().allFinite();
    }
  });
}

// Both parser precisions behind one Python class.
class PySvmlightParser {
 public:
  PySvmlightParser(bool float32, bool zero_based) {
    if (float32)
      parser_ = SvmlightParser<float>(zero_based);
    else
      parser_ = SvmlightParser<double>(zero_based);
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
          const bool fits = static_cast<std::int64_t>(p.indices.size()) <= INT32_MAX && columns <= INT32_MAX;
          py::object indices, indptr;
          if (fits) {
            indices = to_numpy(narrow(p.indices));
            indptr = to_numpy(narrow(p.indptr));
          } else {
            indices = to_numpy(std::move(p.indices));
            indptr = to_numpy(std::move(p.indptr));
          }
          py::object values = to_numpy(std::move(p.values));
          return py::make_tuple(values, indices, indptr, to_numpy(std::move(p.labels)), columns);
        },
        parser_);
  }

 private:
  static std::vector<std::int32_t> narrow(std::vector<std::int64_t>& wide) {
    std::vector<std::int32_t> out(wide.begin(), wide.end());
    std::vector<std::int64_t>().swap(wide);
    return out;
  }
  std::variant<SvmlightParser<double>, SvmlightParser<float>> parser_{SvmlightParser<double>()};
};

}  // namespace

void register_data(py::module_& m) {
  m.def("kernel_matrix", &py_kernel_matrix, py::arg("X"), py::arg("Y"), py::arg("kernel"),
        py::arg("gamma"), py::arg("degree"), py::arg("coef0"));
  m.def("decision_function", &py_decision_function, py::arg("X"), py::arg("SV"), py::arg("coef"),
        py::arg("kernel"), py::arg("gamma"), py::arg("degree"), py::arg("coef0"), py::arg("n_jobs") = 1,
        "K(X, SV) @ coef, computed in blocks with the GIL released");
  m.def("entry_moments", &py_entry_moments, py::arg("X"),
        "(sum, sum of squares, count, sum of squared deviations from the mean) over all entries of X, implicit "
        "zeros included; the last by a second pass");
  m.def("all_finite", &py_all_finite, py::arg("X"));
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
  py::class_<PySvmlightParser>(m, "SvmlightParser")
      .def(py::init<bool, bool>(), py::arg("float32"), py::arg("zero_based"))
      .def("feed", &PySvmlightParser::feed, py::arg("chunk"))
      .def("finish", &PySvmlightParser::finish);
}

}  // namespace budgetsvm::python
