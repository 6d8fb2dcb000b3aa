// Bindings of the exact kernel SVM (ALFPGM / SMO): translation only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "budgetsvm/exact/fit.hpp"
#include "data.hpp"
#include "options.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

py::dict py_fit_exact(py::object X, py::array_t<double, py::array::c_style | py::array::forcecast> y,
                      py::dict params, py::object rows, double weight_pos, double weight_neg,
                      py::object sample_weight) {
  // kernel="precomputed" is not a kernel function: X is the kernel matrix.
  py::dict kernel_params = params;
  bool precomputed = false;
  if (params.contains("kernel") && py::isinstance<py::str>(params["kernel"]) &&
      params["kernel"].cast<std::string>() == "precomputed") {
    precomputed = true;
    kernel_params = py::reinterpret_steal<py::dict>(PyDict_Copy(params.ptr()));  // a copy, not an alias
    PyDict_DelItemString(kernel_params.ptr(), "kernel");
  }
  exact::Params p = read_options(exact::params_options(), kernel_params, "exact");
  exact::ExactSettings& s = p.settings;
  s.weight_pos = weight_pos;
  s.weight_neg = weight_neg;
  // Per-sample multipliers of C (scikit-learn's sample_weight), one per used
  // row, in the order of `rows`.
  if (!sample_weight.is_none()) s.sample_weight = sample_weight.cast<std::vector<double>>();
  s.validate();
  const int n_jobs = s.n_jobs;

  std::vector<Index> subset;
  if (!rows.is_none()) {
    auto r = rows.cast<py::array>();
    if (r.ndim() != 1 || !(r.dtype().kind() == 'i' && r.itemsize() == 8))
      throw py::type_error("rows must be a 1-D int64 array");
    auto rr = r.cast<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>();
    require(rr.size() > 0, "rows must not be empty");
    subset.assign(rr.data(), rr.data() + rr.size());
  }
  if (y.ndim() != 1) throw py::type_error("y must be a 1-D array");
  std::vector<double> labels(y.data(), y.data() + y.size());

  RunControl control = python_run_control();
  exact::ExactResult result;
  if (precomputed) {
    auto K = X.cast<py::array>();
    if (K.ndim() != 2 || !has_dtype(K, 'f', 8) || !(K.flags() & py::array::c_style))
      throw py::type_error("a precomputed kernel must be a C-contiguous float64 2-D array");
    require(K.shape(0) == K.shape(1), "a precomputed kernel matrix must be square");
    const Index n_total = K.shape(0);
    for (Index r : subset) require(r >= 0 && r < n_total, "rows index out of range");
    const double* data = array_data<double>(K);
    {
      // The kernel matrix and y are kept alive by the caller's references;
      // the solver touches no Python object.
      py::gil_scoped_release release;
      PrecomputedKernelSource source(data, n_total, subset);
      result = exact::fit_exact(source, labels, s, control);
    }
  } else {
    const Kernel kernel = p.kernel;
    kernel.validate();
    result = visit_data(X, [&](const auto& view) {
      for (Index r : subset) require(r >= 0 && r < view.rows(), "rows index out of range");
      // The view points into arrays the caller keeps alive; no Python
      // object is touched until the GIL is re-acquired.
      py::gil_scoped_release release;
      ViewKernelSource<std::decay_t<decltype(view)>> source(view, kernel, subset, n_jobs);
      return exact::fit_exact(source, labels, s, control);
    });
  }
  py::dict out;
  out["solver"] = exact::solver_name(result.solver);
  out["alpha"] = to_numpy(std::move(result.alpha));
  out["intercept"] = result.intercept;
  out["objective"] = result.objective;
  out["iterations"] = result.iterations;
  out["status"] = result.converged ? "converged" : "max_iter_reached";
  out["max_violation"] = result.max_violation;
  out["cache_hits"] = result.cache.hits;
  out["cache_misses"] = result.cache.misses;
  out["kernel_columns_computed"] =
      static_cast<std::int64_t>(std::llround(result.cache.kernel_evaluations /
                                             static_cast<double>(std::max<std::size_t>(labels.size(), 1))));
  out["seconds"] = result.seconds;
  out["inner_iterations"] = result.inner_iterations;
  out["smo_fallbacks"] = result.smo_fallbacks;
  out["smo_handoff"] = result.smo_handoff;
  out["readmissions"] = result.readmissions;
  out["polished"] = result.polished;
  return out;
}

}  // namespace

void register_exact(py::module_& m) {
  m.def("fit_exact", &py_fit_exact, py::arg("X"), py::arg("y"), py::arg("params"),
        py::arg("rows") = py::none(), py::arg("weight_pos") = 1.0, py::arg("weight_neg") = 1.0,
        py::arg("sample_weight") = py::none(),
        "Binary C-SVC dual by ALFPGM or SMO (auto: by n); see budgetsvm/exact/fit.hpp.\n\n"
        "Returns a dict: solver (the one that ran), alpha, intercept (b = -rho), objective (1/2 a'Qa - e'a),\n"
        "iterations, status ('converged'|'max_iter_reached'), max_violation, cache_hits,\n"
        "cache_misses, kernel_columns_computed (kernel values / n), seconds,\n"
        "inner_iterations, smo_fallbacks, smo_handoff, readmissions, polished.");
}

}  // namespace budgetsvm::python
