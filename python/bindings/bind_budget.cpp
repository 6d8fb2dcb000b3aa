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
#include "budgetsvm/budget/mix.hpp"
#include "budgetsvm/budget/regression.hpp"
#include "budgetsvm/core/simd.hpp"
#include "data.hpp"
#include "fields.hpp"
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

/// A float64 matrix argument (copied into Eigen; models are small).
MatrixXd matrix_arg(const py::handle& obj, const char* name) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 2) throw py::type_error(std::string(name) + " must be a 2-D float64 array");
  MatrixXd M(a.shape(0), a.shape(1));
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    for (py::ssize_t j = 0; j < a.shape(1); ++j) M(i, j) = a.at(i, j);
  require(M.allFinite(), std::string(name) + " must be finite");
  return M;
}

std::vector<double> vector_arg(const py::handle& obj) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 1) throw py::type_error("intercept must be a 1-D float64 array");
  return std::vector<double>(a.data(), a.data() + a.shape(0));
}

/// The model a run continues (Start), read from a dict with keys
/// support_vectors, dual_coef, intercept, steps, n_ref, n.
struct StartArg {
  MatrixXd sv, coef;
  budget::Start start;
};

void read_start(const py::dict& d, StartArg& out) {
  out.sv = matrix_arg(d["support_vectors"], "support_vectors");
  out.coef = matrix_arg(d["dual_coef"], "dual_coef");
  require(out.sv.rows() == out.coef.rows(), "support_vectors and dual_coef have different numbers of rows");
  out.start.support_vectors = &out.sv;
  out.start.dual_coef = &out.coef;
  out.start.intercept = vector_arg(d["intercept"]);
  out.start.steps = d["steps"].cast<long long>();
  out.start.n_ref = d["n_ref"].cast<double>();
  out.start.n = d["n"].cast<double>();
}

/// A 1-D float64 array argument `name` of n entries, held by `keep`.
const double* float64_arg(const py::object& obj, const std::string& name, Index n,
                          py::array_t<double, py::array::c_style>& keep) {
  py::array w = obj;
  if (!(w.dtype().kind() == 'f' && w.itemsize() == 8) || w.ndim() != 1)
    throw py::type_error(name + " must be a 1-D float64 array");
  keep = py::array_t<double, py::array::c_style>::ensure(w);
  if (!keep) throw py::type_error(name + " must be a contiguous float64 array");
  require(keep.shape(0) == n, name + " has " + std::to_string(keep.shape(0)) + " entries but y has " +
                                  std::to_string(n));
  return keep.data();
}

/// Sample weights of n rows, or nullptr for None.
const double* weight_arg(const py::object& obj, Index n, py::array_t<double, py::array::c_style>& keep) {
  return obj.is_none() ? nullptr : float64_arg(obj, "sample_weight", n, keep);
}

/// Class indices: a 1-D int32 array.
py::array_t<std::int32_t, py::array::c_style> labels_arg(const py::array& y_obj) {
  if (!(y_obj.dtype().kind() == 'i' && y_obj.itemsize() == 4) || y_obj.ndim() != 1)
    throw py::type_error("y must be a 1-D int32 array of class indices");
  auto y = py::array_t<std::int32_t, py::array::c_style>::ensure(y_obj);
  if (!y) throw py::type_error("y must be a contiguous int32 array");
  return y;
}

py::dict py_fit_budgeted(py::object X, py::array y_obj, int n_classes, py::dict params_dict,
                         py::object callback, py::object sample_weight, py::object start_obj) {
  const budget::Params params = params_from_dict(params_dict);
  require(n_classes >= 2, "n_classes must be at least 2");
  const auto y = labels_arg(y_obj);
  const bool has_callback = !callback.is_none();
  if (has_callback && !PyCallable_Check(callback.ptr())) throw py::type_error("callback must be callable or None");

  budget::EpochCallback on_epoch;
  if (has_callback) {
    on_epoch = [&callback](const EpochStats& s) -> bool {
      py::gil_scoped_acquire gil;  // called from the calling thread between epochs
      py::object answer = callback(to_dict(s));
      return !answer.is_none() && PyObject_IsTrue(answer.ptr()) == 1;
    };
  }
  RunControl control = python_run_control();
  StartArg start;
  if (!start_obj.is_none()) read_start(start_obj.cast<py::dict>(), start);
  const std::int32_t* labels = y.data();
  const Index n_labels = y.shape(0);
  py::array_t<double, py::array::c_style> weights;
  const double* weight = weight_arg(sample_weight, n_labels, weights);

  budget::Result result = visit_data(X, [&](const auto& view) -> budget::Result {
    require(n_labels == view.rows(), "y has " + std::to_string(n_labels) + " entries but X has " +
                                         std::to_string(view.rows()) + " rows");
    // Safe without the GIL: the view and labels point into arrays that the
    // caller's X and y keep alive for the whole call; the callback and the
    // Ctrl-C poll take the GIL back themselves.
    py::gil_scoped_release release;
    budget::ViewRows<std::decay_t<decltype(view)>> rows(view, params.kernel.type == KernelType::rbf);
    return budget::fit(rows, labels, weight, n_classes, params, on_epoch, control, start.start);
  });
  return to_dict(std::move(result));
}

/// The epoch callback of a Python callable (or none).
budget::EpochCallback epoch_callback(const py::object& callback) {
  if (callback.is_none()) return {};
  if (!PyCallable_Check(callback.ptr())) throw py::type_error("callback must be callable or None");
  return [&callback](const EpochStats& s) -> bool {
    py::gil_scoped_acquire gil;  // called from the calling thread between epochs
    py::object answer = callback(to_dict(s));
    return !answer.is_none() && PyObject_IsTrue(answer.ptr()) == 1;
  };
}

/// Regression (solver BSGD or BSCA) or, with targets None, the nu one-class
/// machine (BSGD): regression.hpp.
py::dict py_fit_single_output(py::object X, py::object z_obj, double epsilon, double nu, py::dict params_dict,
                              py::object callback, py::object sample_weight, py::object start_obj) {
  const budget::Params params = params_from_dict(params_dict);
  const budget::EpochCallback on_epoch = epoch_callback(callback);
  RunControl control = python_run_control();
  StartArg start;
  if (!start_obj.is_none()) read_start(start_obj.cast<py::dict>(), start);
  const bool one_class = z_obj.is_none();
  budget::Result result = visit_data(X, [&](const auto& view) -> budget::Result {
    const Index n = view.rows();
    py::array_t<double, py::array::c_style> targets, weights;
    const double* z = one_class ? nullptr : float64_arg(z_obj, "y", n, targets);
    const double* weight = weight_arg(sample_weight, n, weights);
    // Safe without the GIL: the view, targets and weights point into arrays
    // kept alive for the whole call; the callback and the Ctrl-C poll take
    // the GIL back themselves.
    py::gil_scoped_release release;
    budget::ViewRows<std::decay_t<decltype(view)>> rows(view, params.kernel.type == KernelType::rbf);
    if (one_class) return budget::fit_one_class(rows, nu, weight, params, on_epoch, control, start.start);
    return budget::fit_regression(rows, z, epsilon, weight, params, on_epoch, control, start.start);
  });
  return to_dict(std::move(result));
}

py::dict py_bsca_shard_round(py::object X, py::array y_obj, py::dict params_dict, py::object start_obj,
                             py::array alpha_obj, double n, int first_epoch, int total_epochs,
                             py::object sample_weight) {
  const budget::Params params = params_from_dict(params_dict);
  const auto y = labels_arg(y_obj);
  const Index n_labels = y.shape(0);
  py::array_t<double, py::array::c_style> weights;
  const double* weight = weight_arg(sample_weight, n_labels, weights);
  py::array_t<double, py::array::c_style> alpha_in;
  const double* alpha_old = float64_arg(alpha_obj, "alpha", n_labels, alpha_in);
  // The updated dual variables go into a new array: the caller's stays as it was.
  py::array_t<double> alpha(static_cast<py::ssize_t>(n_labels));
  if (n_labels > 0) std::memcpy(alpha.mutable_data(), alpha_old, sizeof(double) * static_cast<std::size_t>(n_labels));
  StartArg start;
  if (!start_obj.is_none()) read_start(start_obj.cast<py::dict>(), start);
  budget::ShardRound round;
  round.n = n;
  round.first_epoch = first_epoch;
  round.total_epochs = total_epochs;
  RunControl control = python_run_control();
  const std::int32_t* labels = y.data();
  double* a = alpha.mutable_data();
  budget::Result result = visit_data(X, [&](const auto& view) -> budget::Result {
    require(n_labels == view.rows(), "y has " + std::to_string(n_labels) + " entries but X has " +
                                         std::to_string(view.rows()) + " rows");
    py::gil_scoped_release release;  // as in py_fit_budgeted: the arrays outlive the call
    budget::ViewRows<std::decay_t<decltype(view)>> rows(view, params.kernel.type == KernelType::rbf);
    return budget::bsca_shard_round(rows, labels, weight, params, start.start, round, a, control);
  });
  py::dict out = to_dict(std::move(result));
  out["alpha"] = alpha;
  return out;
}

py::dict py_mix_budgeted(py::list parts_obj, py::dict params_dict, bool one_vs_rest, const std::string& guard) {
  const budget::Params params = params_from_dict(params_dict);
  const auto path = choice_arg<budget::GuardPath>(guard,
                                                  {{"automatic", budget::GuardPath::automatic},
                                                   {"features", budget::GuardPath::features},
                                                   {"dot_products", budget::GuardPath::dot_products}},
                                                  "guard");
  std::vector<MatrixXd> sv(parts_obj.size()), coef(parts_obj.size());
  std::vector<budget::MixPart> parts;
  for (std::size_t k = 0; k < parts_obj.size(); ++k) {
    const py::dict d = parts_obj[k].cast<py::dict>();
    sv[k] = matrix_arg(d["support_vectors"], "support_vectors");
    coef[k] = matrix_arg(d["dual_coef"], "dual_coef");
    parts.push_back({&sv[k], &coef[k], vector_arg(d["intercept"]), d["weight"].cast<double>(),
                     d["steps"].cast<long long>()});
  }
  budget::Result result;
  {
    py::gil_scoped_release release;
    result = budget::mix(parts, params, one_vs_rest, path);
  }
  return to_dict(std::move(result));
}

}  // namespace

void register_budget(py::module_& m) {
  publish_fields<budget::Counters>("budget.Counters");
  publish_fields<budget::EpochStats>("budget.EpochStats");
  publish_fields<budget::Result>("budget.Result");
  m.def("merge_solution", &py_merge_solution, py::arg("m"), py::arg("kappa"),
        py::arg("method") = "lookup-wd", py::arg("eps") = 0.01, py::arg("grid") = merge::kDefaultGrid,
        "(h, wd) of the merge sub-problem for weight m and kernel value kappa");
  m.def("fit_budgeted", &py_fit_budgeted, py::arg("X"), py::arg("y"), py::arg("n_classes"),
        py::arg("params"), py::arg("callback") = py::none(), py::arg("sample_weight") = py::none(),
        py::arg("start") = py::none(),
        "Train BSGD or BSCA on a budget (continuing `start` when given); returns the model and statistics");
  m.def(
      "fit_budgeted_regression",
      [](py::object X, py::object y, double epsilon, py::dict params, py::object callback, py::object sample_weight,
         py::object start) {
        return py_fit_single_output(std::move(X), std::move(y), epsilon, 0.0, std::move(params), std::move(callback),
                                    std::move(sample_weight), std::move(start));
      },
      py::arg("X"), py::arg("y"), py::arg("epsilon"), py::arg("params"), py::arg("callback") = py::none(),
      py::arg("sample_weight") = py::none(), py::arg("start") = py::none(),
      "Train epsilon-SVR by BSGD or BSCA on a budget (float64 targets y); returns the model and statistics");
  m.def(
      "fit_budgeted_one_class",
      [](py::object X, double nu, py::dict params, py::object callback, py::object sample_weight, py::object start) {
        return py_fit_single_output(std::move(X), py::none(), 0.0, nu, std::move(params), std::move(callback),
                                    std::move(sample_weight), std::move(start));
      },
      py::arg("X"), py::arg("nu"), py::arg("params"), py::arg("callback") = py::none(),
      py::arg("sample_weight") = py::none(), py::arg("start") = py::none(),
      "Train the nu one-class machine by BSGD on a budget; the intercept is -rho of the last iterate");
  m.def("bsca_shard_round", &py_bsca_shard_round, py::arg("X"), py::arg("y"), py::arg("params"), py::arg("start"),
        py::arg("alpha"), py::arg("n"), py::arg("first_epoch"), py::arg("total_epochs"),
        py::arg("sample_weight") = py::none(),
        "One shard's epochs of sharded binary BSCA whose dual variables the caller keeps; returns the shard's "
        "model, statistics and its updated dual variables (alpha)");
  m.def("mix_budgeted", &py_mix_budgeted, py::arg("parts"), py::arg("params"), py::arg("one_vs_rest") = false,
        py::arg("guard") = "automatic",
        "The weighted average of budget models, merged back to the budget (`guard`: how the guard's inner products "
        "are made, 'automatic', 'features' or 'dot_products'; the same model either way)");
  m.def("simd_level", [] { return std::string(simd::level_name(simd::active_level())); },
        "The instruction set of the budgeted solvers' margin kernel in use");
}

}  // namespace budgetsvm::python
