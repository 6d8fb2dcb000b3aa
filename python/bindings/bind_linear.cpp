// Bindings of the linear SVM solver (budgetsvm/linear): translation only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "budgetsvm/linear/fit.hpp"
#include "budgetsvm/linear/params.hpp"
#include "data.hpp"
#include "fields.hpp"
#include "options.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

py::tuple py_fit_linear(py::object X, py::array_t<int, py::array::c_style | py::array::forcecast> labels,
                        int n_classes, py::array_t<double, py::array::c_style | py::array::forcecast> class_weight,
                        py::array_t<double, py::array::c_style | py::array::forcecast> sample_weight,
                        py::dict params) {
  const linear::Params p = read_options(linear::params_options(), params, "linear");
  p.cd.validate();
  std::vector<int> label_vec(labels.data(), labels.data() + labels.size());
  std::vector<double> cw(class_weight.data(), class_weight.data() + class_weight.size());
  std::vector<double> sw(sample_weight.data(), sample_weight.data() + sample_weight.size());
  RunControl control = python_run_control();  // built under the GIL, used without it
  std::vector<linear::Result> results;
  Index n = 0, d = 0;
  visit_data(X, [&](const auto& view) {
    n = view.rows();
    d = view.cols();
    // Safe without the GIL: the view points into arrays that X keeps alive
    // (the caller holds X), and the solver touches no Python object; the
    // run control re-acquires the GIL only to check for Ctrl-C.
    py::gil_scoped_release release;
    if (p.multi_class == linear::MultiClass::crammer_singer)
      results = linear::crammer_singer(view, label_vec, n_classes, p.C, cw, sw, p.cd, control);
    else
      results = linear::one_vs_rest(view, label_vec, n_classes, p.C, cw, sw, p.loss, p.selection, p.cd, p.n_jobs,
                                    control, p.penalty);
  });
  const auto P = static_cast<py::ssize_t>(results.size());
  py::array_t<double> W({P, static_cast<py::ssize_t>(d + 1)});
  py::array_t<double> A({P, static_cast<py::ssize_t>(n)});
  auto w = W.mutable_unchecked<2>();
  auto a = A.mutable_unchecked<2>();
  py::list stats;
  for (py::ssize_t k = 0; k < P; ++k) {
    const auto& r = results[static_cast<std::size_t>(k)];
    for (py::ssize_t j = 0; j <= d; ++j) w(k, j) = r.w[static_cast<std::size_t>(j)];
    for (py::ssize_t i = 0; i < n; ++i) a(k, i) = r.alpha[static_cast<std::size_t>(i)];
    stats.append(to_dict(r.stats));
  }
  return py::make_tuple(W, A, stats);
}

}  // namespace

void register_linear(py::module_& m) {
  publish_fields<linear::Stats>("linear.Stats");
  m.def("fit_linear", &py_fit_linear, py::arg("X"), py::arg("labels"), py::arg("n_classes"),
        py::arg("class_weight"), py::arg("sample_weight"), py::arg("params"),
        "One-vs-rest linear SVM by dual coordinate descent: (W (P, d+1), alpha (P, n), stats); "
        "params: the options of options('linear')");
}

}  // namespace budgetsvm::python
