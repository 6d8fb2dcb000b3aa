// A fitted model that predicts: budgetsvm::Model.
//
// One type for every estimator family. A kernel model (SVC, NuSVC,
// BudgetedSVC, SVR, NuSVR, OneClassSVM, BudgetedSVR, BudgetedOneClassSVM)
// is an expansion f(x) = sum_j k(x, z_j) coef(j, :) + intercept over
// support vectors z_j stored as trained (dense or CSR, float32 or float64,
// on the training columns); a linear model (LinearSVC) is
// f(x) = W x + intercept. The outputs become class indices by one of three
// rules: one-vs-one votes (SVC and NuSVC, LIBSVM's pairs: a positive value
// votes for the pair's first class, ties to the lowest index), sign (two
// classes, positive means class 1; the one-class families' classes are -1
// and +1, so a positive value is an inlier as in LIBSVM) or argmax (first
// maximum); a regression model's one output is the prediction itself (the
// rule `value`: predict_values). Decision values come
// from the same kernel_expansion the Python estimators call, so a model
// loaded in C++ predicts as the Python estimator it was saved from.
//
// Wide sparse training data is trained on its used columns (the Python
// layer's UsedColumns): a query row is then read on those columns, and for
// the Gaussian kernel its squared norm outside them r^2 multiplies the
// expansion by exp(-gamma r^2) (exact: those columns are zero in every
// support vector).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../core/data_view.hpp"
#include "../core/expansion.hpp"
#include "../core/parallel.hpp"
#include "../exact/ovo.hpp"
#include "format.hpp"

namespace budgetsvm {

enum class ModelFamily {
  svc = 1,
  linear_svc = 2,
  budgeted_svc = 3,
  svr = 4,
  nu_svr = 5,
  nu_svc = 6,
  one_class_svm = 7,
  budgeted_svr = 8,
  budgeted_one_class_svm = 9,
};
enum class DecisionRule { ovo = 1, sign = 2, argmax = 3, value = 4 };

/// The highest family and rule codes this version reads.
inline constexpr unsigned kLastFamily = 9, kLastRule = 4;

/// SVC and NuSVC: LIBSVM's one-vs-one layout (dual_coef, n_support).
inline bool ovo_family(ModelFamily f) { return f == ModelFamily::svc || f == ModelFamily::nu_svc; }
/// The regressors: one output, the prediction; no classes.
inline bool regression_family(ModelFamily f) {
  return f == ModelFamily::svr || f == ModelFamily::nu_svr || f == ModelFamily::budgeted_svr;
}
/// The novelty detectors: one output, its sign the class -1 or +1.
inline bool one_class_family(ModelFamily f) {
  return f == ModelFamily::one_class_svm || f == ModelFamily::budgeted_one_class_svm;
}

/// Support vectors as stored: dense row-major or CSR (int64 indices), in
/// float32 or float64. visit(f) calls f with the matching data view.
struct SupportVectors {
  bool sparse = false;
  bool single = false;  // float32 values
  Index rows = 0, cols = 0;
  std::vector<double> values64;
  std::vector<float> values32;
  std::vector<std::int64_t> indices, indptr;

  template <class F>
  decltype(auto) visit(F&& f) const {
    if (sparse) {
      if (single) return f(CsrView<float, std::int64_t>(values32.data(), indices.data(), indptr.data(), rows, cols));
      return f(CsrView<double, std::int64_t>(values64.data(), indices.data(), indptr.data(), rows, cols));
    }
    if (single) return f(DenseView<float, Eigen::RowMajor>(values32.data(), rows, cols));
    return f(DenseView<double, Eigen::RowMajor>(values64.data(), rows, cols));
  }
};

/// The rows of a view read on the training columns only: column j of X is
/// column column_map[j] of the result, or dropped when that is -1.
template <class View>
class RestrictedRows {
 public:
  RestrictedRows(const View& X, const std::vector<Index>& column_map, Index width)
      : X_(X), map_(column_map), width_(width) {}
  Index rows() const { return X_.rows(); }
  Index cols() const { return width_; }
  bool single_precision() const { return std::is_same_v<typename View::Scalar, float>; }
  void copy_row(Index i, double* out) const {
    std::fill(out, out + width_, 0.0);
    X_.for_each(i, [&](Index j, double v) {
      if (map_[static_cast<std::size_t>(j)] >= 0) out[map_[static_cast<std::size_t>(j)]] = v;
    });
  }
  double squared_norm(Index i) const {
    double s = 0.0;
    X_.for_each(i, [&](Index j, double v) {
      if (map_[static_cast<std::size_t>(j)] >= 0) s += v * v;
    });
    return s;
  }
  /// The squared norm of row i outside the training columns.
  double outside_norm(Index i) const {
    double s = 0.0;
    X_.for_each(i, [&](Index j, double v) {
      if (map_[static_cast<std::size_t>(j)] < 0) s += v * v;
    });
    return s;
  }

 private:
  const View& X_;
  const std::vector<Index>& map_;
  Index width_;
};

class Model {
 public:
  ModelFamily family = ModelFamily::budgeted_svc;
  DecisionRule rule = DecisionRule::sign;
  Kernel kernel;
  Index n_features = 0;
  /// The class labels as text; label_numbers too when they are numbers.
  std::vector<std::string> label_text;
  std::vector<double> label_numbers;
  SupportVectors sv;
  std::vector<std::int64_t> used_columns;  // the training columns, when `restricted`
  bool restricted = false;                 // trained on used_columns (maybe none), not all columns
  MatrixXd coef;                            // kernel models: n_sv x n_outputs
  MatrixXd weights;                         // linear models: n_outputs x n_features
  std::vector<double> intercept;            // n_outputs
  // SVC and NuSVC only: LIBSVM's layout, from which coef is derived (kept to write back)
  MatrixXd dual_coef;                       // (n_classes - 1) x n_sv
  std::vector<std::int64_t> n_support;      // per class
  // SVC and BudgetedSVC: Platt's sigmoid per class pair (may be empty; kept to write back)
  std::vector<double> prob_a, prob_b;
  // BudgetedSVR: the centring mean of the targets, part of intercept (may be empty; kept to write back)
  std::vector<double> y_offset;
  /// The labels as stored (their number type, or strings), and the file's
  /// other sections (attributes the Python estimators report), kept to
  /// write back unchanged.
  model_format::Array classes;
  std::vector<model_format::Section> extra;

  const std::vector<std::string>& labels() const { return label_text; }
  Index n_classes() const { return static_cast<Index>(label_text.size()); }
  Index n_outputs() const { return static_cast<Index>(intercept.size()); }

  /// out (X.rows() x n_outputs()) = the model's decision values: LIBSVM's
  /// one-vs-one values for SVC, the estimator's decision_function for the
  /// others. X must have n_features columns.
  template <class View>
  void decision_function(const View& X, Eigen::Ref<MatrixXd> out, int n_threads = 1) const {
    require(X.cols() == n_features, "X has " + std::to_string(X.cols()) + " features, but the model expects " +
                                        std::to_string(n_features));
    require(out.rows() == X.rows() && out.cols() == n_outputs(), "decision_function: output has the wrong shape");
    RunControl control;
    if (family == ModelFamily::linear_svc) {
      linear_decision(X, out, n_threads, control);
    } else if (sv.rows == 0) {
      out.setZero();
    } else if (ovo_family(family) && n_classes() > 2) {
      svc_pairs(X, out, n_threads, control);  // with the intercepts
      return;
    } else if (!restricted) {
      sv.visit([&](const auto& S) { kernel_expansion(kernel, X, S, coef, out, n_threads, control); });
    } else {
      restricted_decision(X, out, n_threads, control);
    }
    for (Index c = 0; c < out.cols(); ++c) out.col(c).array() += intercept[static_cast<std::size_t>(c)];
  }

  /// out[i] = the class index of row i (an index into labels()); a
  /// regression model has no classes (predict_values).
  template <class View>
  void predict(const View& X, int* out, int n_threads = 1) const {
    require(rule != DecisionRule::value, "a regression model predicts values, not classes: call predict_values");
    MatrixXd dec(X.rows(), n_outputs());
    decision_function(X, dec, n_threads);
    for (Index i = 0; i < X.rows(); ++i) out[i] = class_of(dec.row(i));
  }

  template <class View>
  std::vector<int> predict(const View& X, int n_threads = 1) const {
    std::vector<int> out(static_cast<std::size_t>(X.rows()));
    predict(X, out.data(), n_threads);
    return out;
  }

  /// A regression model's predictions (its one decision value per row).
  template <class View>
  std::vector<double> predict_values(const View& X, int n_threads = 1) const {
    require(rule == DecisionRule::value, "predict_values needs a regression model; a classifier predicts classes");
    MatrixXd dec(X.rows(), 1);
    decision_function(X, dec, n_threads);
    return std::vector<double>(dec.data(), dec.data() + dec.rows());
  }

  /// The class index that one row of decision values means (-1 for a
  /// regression model).
  int class_of(const Eigen::Ref<const Eigen::RowVectorXd>& d) const {
    if (rule == DecisionRule::value) return -1;  // a regression model: no class
    if (rule == DecisionRule::sign) return d[0] > 0.0 ? 1 : 0;
    if (rule == DecisionRule::argmax) {
      Index best = 0;
      for (Index c = 1; c < d.size(); ++c)
        if (d[c] > d[best]) best = c;
      return static_cast<int>(best);
    }
    std::vector<int> votes(static_cast<std::size_t>(n_classes()), 0);
    Index p = 0;
    for (Index i = 0; i < n_classes(); ++i)
      for (Index j = i + 1; j < n_classes(); ++j) ++votes[static_cast<std::size_t>(d[p++] > 0.0 ? i : j)];
    return static_cast<int>(std::max_element(votes.begin(), votes.end()) - votes.begin());
  }

  /// SVC: coef (n_sv x n_pairs) from dual_coef in LIBSVM's layout: pair
  /// (i, j) weighs class i's support vectors by row j - 1 and class j's by
  /// row i. Two classes only: more go through exact::ovo_scores from
  /// dual_coef (svc_pairs), never this n_sv x n_pairs matrix.
  void derive_pair_coef() {
    const Index k = n_classes();
    if (k > 2) {
      coef.resize(0, 0);
      return;
    }
    std::vector<Index> start(static_cast<std::size_t>(k) + 1, 0);
    for (Index c = 0; c < k; ++c)
      start[static_cast<std::size_t>(c) + 1] = start[static_cast<std::size_t>(c)] + n_support[static_cast<std::size_t>(c)];
    coef = MatrixXd::Zero(dual_coef.cols(), k * (k - 1) / 2);
    Index p = 0;
    for (Index i = 0; i < k; ++i)
      for (Index j = i + 1; j < k; ++j, ++p) {
        for (Index s = start[static_cast<std::size_t>(i)]; s < start[static_cast<std::size_t>(i) + 1]; ++s)
          coef(s, p) = dual_coef(j - 1, s);
        for (Index s = start[static_cast<std::size_t>(j)]; s < start[static_cast<std::size_t>(j) + 1]; ++s)
          coef(s, p) = dual_coef(i, s);
      }
  }

 private:
  /// SVC with more than two classes: each pair from its two classes'
  /// support vectors (exact/ovo.hpp, as the Python SVC computes them).
  template <class View>
  void svc_pairs(const View& X, Eigen::Ref<MatrixXd> out, int n_threads, RunControl& control) const {
    const std::vector<Index> counts(n_support.begin(), n_support.end());
    const exact::OvoCoef m(dual_coef.data(), counts, intercept.data());
    MatrixXd values(X.rows(), n_outputs());
    exact::OvoTargets targets;
    targets.values = values.data();
    if (!restricted) {
      sv.visit([&](const auto& S) {
        exact::ovo_scores(kernel, X, S, m, exact::OvoOutput::values, targets, n_threads, control);
      });
    } else {
      std::vector<Index> map(static_cast<std::size_t>(n_features), -1);
      for (std::size_t k = 0; k < used_columns.size(); ++k)
        map[static_cast<std::size_t>(used_columns[k])] = static_cast<Index>(k);
      const RestrictedRows<View> R(X, map, sv.cols);
      std::vector<double> scale;  // restricted_decision's factor, before the intercept
      if (kernel.type == KernelType::rbf)
        for (Index i = 0; i < X.rows(); ++i) scale.push_back(std::exp(-kernel.gamma * R.outside_norm(i)));
      sv.visit([&](const auto& S) {
        exact::ovo_scores(kernel, R, S, m, exact::OvoOutput::values, targets, n_threads, control,
                          scale.empty() ? nullptr : scale.data());
      });
    }
    out = values;
  }

  template <class View>
  void linear_decision(const View& X, Eigen::Ref<MatrixXd> out, int n_threads, RunControl& control) const {
    const Index n = X.rows();
    const int parts = static_cast<int>(std::clamp<Index>(n / 1024, 1, std::max(n_threads, 1)));
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> W = weights;
    parallel_ranges(n, parts, control, [&](Index begin, Index end, RunControl&) {
      for (Index i = begin; i < end; ++i)
        for (Index c = 0; c < W.rows(); ++c) out(i, c) = X.dot(i, W.row(c).data());
    });
  }

  template <class View>
  void restricted_decision(const View& X, Eigen::Ref<MatrixXd> out, int n_threads, RunControl& control) const {
    std::vector<Index> map(static_cast<std::size_t>(n_features), -1);
    for (std::size_t k = 0; k < used_columns.size(); ++k) map[static_cast<std::size_t>(used_columns[k])] = static_cast<Index>(k);
    const RestrictedRows<View> R(X, map, sv.cols);
    sv.visit([&](const auto& S) { kernel_expansion(kernel, R, S, coef, out, n_threads, control); });
    if (kernel.type != KernelType::rbf) return;
    for (Index i = 0; i < X.rows(); ++i) out.row(i) *= std::exp(-kernel.gamma * R.outside_norm(i));
  }
};

}  // namespace budgetsvm
