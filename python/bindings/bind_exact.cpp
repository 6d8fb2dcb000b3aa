// Bindings of the exact kernel SVM (ALFPGM / SMO): translation only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "budgetsvm/core/kernel_options.hpp"
#include "budgetsvm/exact/fit.hpp"
#include "budgetsvm/exact/general.hpp"
#include "budgetsvm/exact/ovo.hpp"
#include "data.hpp"
#include "fields.hpp"
#include "options.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

/// The exact family's options from a fit's params. kernel="precomputed" is
/// not a kernel function (X is then the kernel matrix): it sets
/// `precomputed` and is left out of the options read.
exact::Params exact_params(const py::dict& params, bool& precomputed) {
  py::dict kernel_params = params;
  precomputed = false;
  if (params.contains("kernel") && py::isinstance<py::str>(params["kernel"]) &&
      params["kernel"].cast<std::string>() == "precomputed") {
    precomputed = true;
    kernel_params = py::reinterpret_steal<py::dict>(PyDict_Copy(params.ptr()));  // a copy, not an alias
    PyDict_DelItemString(kernel_params.ptr(), "kernel");
  }
  return read_options(exact::params_options(), kernel_params, "exact");
}

/// X as a precomputed kernel matrix: a square C-contiguous float64 array
/// (kept by the caller while its data is read).
py::array kernel_matrix_arg(const py::object& X) {
  auto K = X.cast<py::array>();
  if (K.ndim() != 2 || !has_dtype(K, 'f', 8) || !(K.flags() & py::array::c_style))
    throw py::type_error("a precomputed kernel must be a C-contiguous float64 2-D array");
  require(K.shape(0) == K.shape(1), "a precomputed kernel matrix must be square");
  return K;
}

py::dict py_fit_exact(py::object X, py::array_t<double, py::array::c_style | py::array::forcecast> y,
                      py::dict params, py::object rows, double weight_pos, double weight_neg,
                      py::object sample_weight) {
  bool precomputed = false;
  exact::Params p = exact_params(params, precomputed);
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
    const py::array K = kernel_matrix_arg(X);
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
  return to_dict(std::move(result));
}

py::dict dual_result_dict(exact::DualResult&& r);
std::vector<Index> index_vector(const py::object& a, const char* name);
std::vector<double> double_vector(const py::object& a);

// The general dual (exact/general.hpp) on the rows `rows` of X (a row may
// appear twice: epsilon-SVR's two copies), one y, bound, p and start per
// position; nu: the two-constraint path.
py::dict py_fit_exact_dual(py::object X, py::object rows, py::object y, py::object upper, py::object p,
                           py::object alpha0, py::dict params, bool nu) {
  bool precomputed = false;
  exact::Params prm = exact_params(params, precomputed);
  exact::ExactSettings& s = prm.settings;
  s.validate();
  const std::vector<Index> subset = index_vector(rows, "rows");
  require(!subset.empty(), "rows must not be empty");
  exact::DualProblem problem;
  problem.y = double_vector(y);
  problem.upper = double_vector(upper);
  problem.p = double_vector(p);
  if (!alpha0.is_none()) problem.alpha0 = double_vector(alpha0);
  problem.nu = nu;
  const int n_jobs = s.n_jobs;
  RunControl control = python_run_control();
  exact::DualResult result;
  if (precomputed) {
    const py::array K = kernel_matrix_arg(X);
    const Index n_total = K.shape(0);
    for (Index r : subset) require(r >= 0 && r < n_total, "rows index out of range");
    const double* data = array_data<double>(K);
    py::gil_scoped_release release;  // K and the arrays are kept alive by the caller
    PrecomputedKernelSource source(data, n_total, subset);
    result = exact::solve_dual(source, problem, s, control);
  } else {
    const Kernel kernel = prm.kernel;
    kernel.validate();
    result = visit_data(X, [&](const auto& view) {
      for (Index r : subset) require(r >= 0 && r < view.rows(), "rows index out of range");
      py::gil_scoped_release release;  // the view points into arrays the caller keeps alive
      ViewKernelSource<std::decay_t<decltype(view)>> source(view, kernel, subset, n_jobs);
      return exact::solve_dual(source, problem, s, control);
    });
  }
  return dual_result_dict(std::move(result));
}

py::dict dual_result_dict(exact::DualResult&& r) {
  py::dict d;
  d["solver"] = exact::solver_name(r.solver);
  d["alpha"] = py::array_t<double>(static_cast<py::ssize_t>(r.alpha.size()), r.alpha.data());
  d["rho"] = r.rho;
  d["r"] = r.r;
  d["objective"] = r.objective;
  d["iterations"] = r.iterations;
  d["status"] = r.converged ? "converged" : "max_iter_reached";
  d["max_violation"] = r.max_violation;
  d["seconds"] = r.seconds;
  d["polished"] = r.polished;
  d["kernel_columns_computed"] = exact::ExactReport::kernel_columns(r.cache.kernel_evaluations,
                                                                    static_cast<std::int64_t>(r.alpha.size()));
  return d;
}

/// A 1-D int64 array as Index values.
std::vector<Index> index_vector(const py::object& a, const char* name) {
  auto arr = a.cast<py::array>();
  if (arr.ndim() != 1 || !(arr.dtype().kind() == 'i' && arr.itemsize() == 8))
    throw py::type_error(std::string(name) + " must be a 1-D int64 array");
  auto typed = arr.cast<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>();
  return std::vector<Index>(typed.data(), typed.data() + typed.size());
}

std::vector<double> double_vector(const py::object& a) {
  return a.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>().cast<std::vector<double>>();
}

// Every pair of a one-vs-one problem, solved in C++ on its own rows
// (exact/ovo.hpp), laid out as LIBSVM lays it out.
py::dict py_fit_exact_ovo(py::object X, py::object class_rows, py::object class_start, py::dict params,
                          py::object class_weight, py::object sample_weight, py::object on_pair, double nu) {
  bool precomputed = false;
  exact::Params p = exact_params(params, precomputed);
  p.settings.nu = nu;
  exact::ClassRows classes{index_vector(class_rows, "class_rows"), index_vector(class_start, "class_start")};
  const std::vector<double> weights = double_vector(class_weight);
  std::vector<double> per_row;
  if (!sample_weight.is_none()) per_row = double_vector(sample_weight);
  const int n_jobs = p.settings.n_jobs;
  exact::PairCallback callback;
  if (!on_pair.is_none())
    callback = [&on_pair](Index pair, const exact::PairReport& r) {
      py::gil_scoped_acquire gil;
      on_pair(pair, exact::solver_name(r.solver), r.iterations, r.objective, r.seconds, r.converged);
    };
  RunControl control = python_run_control();
  exact::OvoResult result;
  if (precomputed) {
    const py::array K = kernel_matrix_arg(X);
    const Index n_total = K.shape(0);
    const double* data = array_data<double>(K);
    py::gil_scoped_release release;  // K and the arrays are kept alive by the caller
    PrecomputedKernelSource source(data, n_total, {});
    result = exact::fit_ovo(source, n_total, classes, weights, per_row, p.settings, control, callback);
  } else {
    const Kernel kernel = p.kernel;
    kernel.validate();
    result = visit_data(X, [&](const auto& view) {
      using View = std::decay_t<decltype(view)>;
      py::gil_scoped_release release;  // the view points into arrays the caller keeps alive
      ViewKernelSource<View> source(view, kernel, {}, n_jobs);  // its rows set pair by pair
      return exact::fit_ovo(source, view.rows(), classes, weights, per_row, p.settings, control, callback);
    });
  }
  // The arrays handed over without copies: k (k - 1) / 2 pairs are millions for thousands of classes.
  return to_dict(std::move(result));
}

// One-vs-one decision values, votes or one-vs-rest scores of the rows of X
// (exact/ovo.hpp); SV=None: X is the kernel matrix against the support
// vectors (n x n_SV, C-contiguous float64).
py::object py_ovo_scores(py::object X, py::object SV, py::array_t<double, py::array::c_style | py::array::forcecast> dual,
                         py::object n_support, py::array_t<double, py::array::c_style | py::array::forcecast> intercept,
                         const std::string& kernel_name, double gamma, int degree, double coef0, int n_jobs,
                         const std::string& output_name, py::object row_scale) {
  const auto output = choice_arg<exact::OvoOutput>(
      output_name, {{"values", exact::OvoOutput::values}, {"predict", exact::OvoOutput::predict},
                    {"ovr", exact::OvoOutput::ovr}}, "output");
  const std::vector<Index> counts = index_vector(n_support, "n_support");
  const exact::OvoCoef coef(dual.data(), counts, intercept.data());
  const Index k = coef.k(), pairs = exact::ovo_pair_count(k);
  require(dual.ndim() == 2 && dual.shape(0) == k - 1 && dual.shape(1) == coef.n_sv,
          "dual must be (n_classes - 1) x n_SV");
  require(intercept.ndim() == 1 && intercept.shape(0) == pairs, "intercept needs one value per class pair");
  const Index n = visit_data(X, [](const auto& v) { return v.rows(); });
  py::array_t<double, py::array::c_style | py::array::forcecast> scale;
  if (!row_scale.is_none()) {
    scale = row_scale.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
    require(scale.ndim() == 1 && scale.shape(0) == n, "row_scale needs one value per row");
  }
  const double* scale_ptr = row_scale.is_none() ? nullptr : scale.data();
  py::array_t<double> values, votes, confidence;
  py::array_t<std::int64_t> classes;
  exact::OvoTargets targets;
  if (output == exact::OvoOutput::values) {
    values = py::array_t<double>({n, pairs});
    targets.values = values.mutable_data();
  } else if (output == exact::OvoOutput::predict) {
    classes = py::array_t<std::int64_t>(n);
    targets.classes = classes.mutable_data();
  } else {
    votes = py::array_t<double>({n, k});
    confidence = py::array_t<double>({n, k});
    targets.votes = votes.mutable_data();
    targets.confidence = confidence.mutable_data();
  }
  RunControl control = python_run_control();
  if (SV.is_none()) {
    auto K = X.cast<py::array>();
    if (K.ndim() != 2 || !has_dtype(K, 'f', 8) || !(K.flags() & py::array::c_style) || K.shape(1) != coef.n_sv)
      throw py::type_error("a kernel matrix must be a C-contiguous float64 (n, n_SV) array");
    const double* data = array_data<double>(K);
    py::gil_scoped_release release;
    exact::ovo_scores_from_kernel(data, n, coef, output, targets, n_jobs, control, scale_ptr);
  } else {
    Kernel kernel{from_name(kernel_names(), kernel_name, "kernel"), gamma, coef0, degree};
    kernel.validate();
    visit_data(X, [&](const auto& x_view) {
      ErasedRows x(x_view);
      visit_data(SV, [&](const auto& sv_view) {
        py::gil_scoped_release release;  // X, SV and the coefficients are kept alive by the caller
        exact::ovo_scores(kernel, x, sv_view, coef, output, targets, n_jobs, control, scale_ptr);
      });
    });
  }
  if (output == exact::OvoOutput::values) return values;
  if (output == exact::OvoOutput::predict) return classes;
  return py::make_tuple(votes, confidence);
}

}  // namespace

void register_exact(py::module_& m) {
  publish_fields<exact::ExactResult>("exact.ExactResult");
  publish_fields<exact::PairReports>("exact.PairReports");
  publish_fields<exact::OvoResult>("exact.OvoResult");
  m.def("fit_exact_ovo", &py_fit_exact_ovo, py::arg("X"), py::arg("class_rows"), py::arg("class_start"),
        py::arg("params"), py::arg("class_weight"), py::arg("sample_weight") = py::none(),
        py::arg("on_pair") = py::none(), py::arg("nu") = 0.0,
        "One-vs-one C-SVC (nu > 0: nu-SVC pairs, exact/general.hpp): every pair of classes solved on its own rows (LIBSVM's order and layout); see\n"
        "budgetsvm/exact/ovo.hpp. class_rows: the training rows grouped by class (ascending within),\n"
        "class_start: the k + 1 offsets of the classes in it. on_pair(pair, solver, iterations, objective,\n"
        "seconds, converged) is called after each pair.\n\n"
        "Returns a dict: support (rows, grouped by class), n_support, dual ((k - 1) x n_SV), and per pair\n"
        "solver (0 alfpgm, 1 smo), intercept, objective, iterations, converged, max_violation, cache_hits,\n"
        "cache_misses, kernel_columns_computed, seconds, inner_iterations, smo_fallbacks, smo_handoff,\n"
        "readmissions, polished.");
  m.def("ovo_scores", &py_ovo_scores, py::arg("X"), py::arg("SV"), py::arg("dual"), py::arg("n_support"),
        py::arg("intercept"), py::arg("kernel"), py::arg("gamma"), py::arg("degree"), py::arg("coef0"),
        py::arg("n_jobs") = 1, py::arg("output") = "values", py::arg("row_scale") = py::none(),
        "One-vs-one scores of the rows of X (exact/ovo.hpp): output 'values' (n x pairs decision values),\n"
        "'predict' (int64 class index by LIBSVM's votes) or 'ovr' ((votes, confidence), n x k each).\n"
        "SV=None: X is the kernel matrix against the support vectors. row_scale multiplies each row's\n"
        "sums before the intercept.");

  m.def("fit_exact_dual", &py_fit_exact_dual, py::arg("X"), py::arg("rows"), py::arg("y"), py::arg("upper"),
        py::arg("p"), py::arg("alpha0"), py::arg("params"), py::arg("nu") = false,
        "The general dual min 1/2 a'Qa + p'a, 0 <= a <= upper, y'a fixed (nu: the sums of each label\n"
        "fixed) from the start alpha0 (None: 0), on the rows `rows` of X (int64, repeats allowed); see\n"
        "budgetsvm/exact/general.hpp.\n\n"
        "Returns a dict: solver, alpha, rho, r (nu path), objective, iterations, status, max_violation,\n"
        "seconds, polished, kernel_columns_computed.");
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
