// Bindings of the budgeted solvers (BSGD, BSCA), the merge sub-problem and
// the SIMD level in use. Translation only: the Python layer validates and
// fills every parameter; here we check the contract and call in.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "budgetsvm/budget/fit.hpp"
#include "budgetsvm/budget/merge.hpp"
#include "budgetsvm/core/simd.hpp"
#include "data.hpp"
#include "options.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

using budget::EpochStats;

py::tuple py_merge_solution(double m, double kappa, const std::string& method, double eps, int grid) {
  const auto kind = from_name(merge::method_names(), method, "method");
  merge::Solution s;
  {
    py::gil_scoped_release release;  // pure C++ (may build a lookup table once)
    s = merge::solve(kind, m, kappa, eps, grid);
  }
  return py::make_tuple(s.h, s.wd);
}

budget::Params params_from_dict(const py::dict& d) {
  const budget::Params p = read_options(budget::params_options(), d, "budgeted");
  p.validate();
  return p;
}

void put_counters(py::dict& d, const budget::Counters& c) {
  d["steps"] = c.steps;
  d["sv_added"] = c.sv_added;
  d["merges"] = c.merges;
  d["removals"] = c.removals;
  d["projections"] = c.projections;
  d["maintenance_seconds"] = c.maintenance_seconds;
  d["merge_degradation"] = c.merge_degradation;
  d["merge_partner_weight"] = c.merge_partner_weight;
}

py::dict stats_to_dict(const EpochStats& s) {
  py::dict d;
  d["epoch"] = s.epoch;
  put_counters(d, s.totals);
  d["n_support"] = s.n_support;
  d["seconds"] = s.seconds;
  d["objective"] = s.objective;
  d["sq_norm"] = s.sq_norm;
  d["progressive_loss"] = s.progressive_loss;
  d["alpha_zero"] = s.alpha_zero;
  d["alpha_bound"] = s.alpha_bound;
  d["alpha_free"] = s.alpha_free;
  return d;
}

py::array_t<double> to_array(const MatrixXd& M) {
  py::array_t<double> out({M.rows(), M.cols()});
  if (M.size() > 0) std::memcpy(out.mutable_data(), M.data(), sizeof(double) * static_cast<std::size_t>(M.size()));
  return out;
}

py::dict py_fit_budgeted(py::object X, py::array y_obj, int n_classes, py::dict params_dict,
                         py::object callback, py::object sample_weight) {
  const budget::Params params = params_from_dict(params_dict);
  require(n_classes >= 2, "n_classes must be at least 2");
  if (!(y_obj.dtype().kind() == 'i' && y_obj.itemsize() == 4) || y_obj.ndim() != 1)
    throw py::type_error("y must be a 1-D int32 array of class indices");
  auto y = py::array_t<std::int32_t, py::array::c_style>::ensure(y_obj);
  if (!y) throw py::type_error("y must be a contiguous int32 array");
  const bool has_callback = !callback.is_none();
  if (has_callback && !PyCallable_Check(callback.ptr())) throw py::type_error("callback must be callable or None");

  budget::EpochCallback on_epoch;
  if (has_callback) {
    on_epoch = [&callback](const EpochStats& s) -> bool {
      py::gil_scoped_acquire gil;  // called from the calling thread between epochs
      py::object answer = callback(stats_to_dict(s));
      return !answer.is_none() && PyObject_IsTrue(answer.ptr()) == 1;
    };
  }
  RunControl control = python_run_control();
  const std::int32_t* labels = y.data();
  const Index n_labels = y.shape(0);
  py::array_t<double, py::array::c_style> weights;
  const double* weight = nullptr;
  if (!sample_weight.is_none()) {
    py::array w = sample_weight;
    if (!(w.dtype().kind() == 'f' && w.itemsize() == 8) || w.ndim() != 1)
      throw py::type_error("sample_weight must be a 1-D float64 array");
    weights = py::array_t<double, py::array::c_style>::ensure(w);
    if (!weights) throw py::type_error("sample_weight must be a contiguous float64 array");
    require(weights.shape(0) == n_labels, "sample_weight has " + std::to_string(weights.shape(0)) +
                                              " entries but y has " + std::to_string(n_labels));
    weight = weights.data();
  }

  budget::Result result = visit_data(X, [&](const auto& view) -> budget::Result {
    require(n_labels == view.rows(), "y has " + std::to_string(n_labels) + " entries but X has " +
                                         std::to_string(view.rows()) + " rows");
    // Safe without the GIL: the view and labels point into arrays that the
    // caller's X and y keep alive for the whole call; the callback and the
    // Ctrl-C poll take the GIL back themselves.
    py::gil_scoped_release release;
    budget::ViewRows<std::decay_t<decltype(view)>> rows(view, params.kernel.type == KernelType::rbf);
    return budget::fit(rows, labels, weight, n_classes, params, on_epoch, control);
  });

  py::dict out;
  out["support_vectors"] = to_array(result.support_vectors);
  out["dual_coef"] = to_array(result.dual_coef);
  out["intercept"] = py::array_t<double>(static_cast<py::ssize_t>(result.intercept.size()), result.intercept.data());
  out["n_outputs"] = result.n_outputs;
  out["epochs_run"] = result.epochs_run;
  out["stopped_early"] = result.stopped_early;
  out["averaged"] = result.averaged;
  py::list history;
  for (const auto& s : result.history) history.append(stats_to_dict(s));
  out["history"] = history;
  put_counters(out, result.totals);
  out["seconds"] = result.seconds;
  return out;
}

}  // namespace

void register_budget(py::module_& m) {
  m.def("merge_solution", &py_merge_solution, py::arg("m"), py::arg("kappa"),
        py::arg("method") = "lookup-wd", py::arg("eps") = 0.01, py::arg("grid") = merge::kDefaultGrid,
        "(h, wd) of the merge sub-problem for weight m and kernel value kappa");
  m.def("fit_budgeted", &py_fit_budgeted, py::arg("X"), py::arg("y"), py::arg("n_classes"),
        py::arg("params"), py::arg("callback") = py::none(), py::arg("sample_weight") = py::none(),
        "Train BSGD or BSCA on a budget; returns the model and training statistics");
  m.def("simd_level", [] { return std::string(simd::level_name(simd::active_level())); },
        "The instruction set of the budgeted solvers' margin kernel in use");
}

}  // namespace budgetsvm::python
