// Bindings of the C++ model files (model/io.hpp): used by the tests that
// check Python-written files load and predict the same in C++, and the
// reverse (a file C++ wrote, loaded in Python).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "budgetsvm/model/io.hpp"
#include "data.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

/// (decision values, class indices, labels) of X under the model in `path`.
py::tuple py_model_predict(const std::string& path, py::object X, int n_jobs) {
  const Model model = load_model(path);
  const Index n = visit_data(X, [](const auto& v) { return v.rows(); });
  py::array_t<double> dec({n, model.n_outputs()});
  py::array_t<int> index(n);
  auto* dec_ptr = dec.mutable_data();
  auto* index_ptr = index.mutable_data();
  visit_data(X, [&](const auto& view) {
    py::gil_scoped_release release;  // X is kept alive by the caller
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> out(dec_ptr, n, model.n_outputs());
    MatrixXd d(n, model.n_outputs());
    model.decision_function(view, d, n_jobs);
    out = d;
    for (Index i = 0; i < n; ++i) index_ptr[i] = model.class_of(d.row(i));
  });
  return py::make_tuple(dec, index, model.labels());
}

}  // namespace

void register_model(py::module_& m) {
  m.def("model_predict", &py_model_predict, py::arg("path"), py::arg("X"), py::arg("n_jobs") = 1,
        "(decision values, class indices, labels) of X under the model file at path, computed by the C++ "
        "budgetsvm::Model");
  m.def(
      "model_resave", [](const std::string& source, const std::string& target) { save_model(load_model(source), target); },
      py::arg("source"), py::arg("target"), "Loads a model file in C++ and saves it again with the C++ writer");
}

}  // namespace budgetsvm::python
