// Models from the C++ training entry points, to predict with or to save:
// a BudgetedSVC model from budget::fit's Result, an SVC model from one
// binary exact fit (fit_exact's alpha on +1 / -1 labels), a LinearSVC model
// from linear::one_vs_rest. Each is laid out as the Python estimator of that
// family lays it out, so Python's load_model reads the saved file (a budget
// model also records the step counter and rows seen that Python's
// partial_fit continues from).
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../budget/params.hpp"
#include "../exact/fit.hpp"
#include "../linear/dual_cd.hpp"
#include "io.hpp"

namespace budgetsvm {

/// The class labels of a model, as numbers or as strings: unique and in
/// increasing order, as the estimators store them (class index c is the
/// c-th smallest label); other tables are std::invalid_argument.
class LabelTable {
 public:
  LabelTable(const std::vector<double>& numbers) {  // NOLINT(google-explicit-constructor): a table is its labels
    array_ = detail::model_io::doubles("classes", numbers.data(), numbers.size(), {numbers.size()});
  }
  LabelTable(const std::vector<std::string>& text) {  // NOLINT(google-explicit-constructor)
    array_ = detail::model_io::make_array("classes", model_format::Dtype::utf8, {text.size()});
    array_.strings = text;
  }
  const model_format::Array& array() const { return array_; }

 private:
  model_format::Array array_;
};

namespace detail::model_io {

inline void set_labels(Model& m, const LabelTable& labels, Index expected) {
  ArrayMap a{{"classes", labels.array()}};
  read_labels(m, a);
  require(m.n_classes() == expected, "the label table has " + std::to_string(m.n_classes()) + " labels; the fit has " +
                                         std::to_string(expected) + " classes");
}

inline SupportVectors dense_rows(const MatrixXd& rows) {
  SupportVectors sv;
  sv.rows = rows.rows();
  sv.cols = rows.cols();
  sv.values64.resize(static_cast<std::size_t>(rows.size()));
  for (Index i = 0; i < rows.rows(); ++i)
    for (Index j = 0; j < rows.cols(); ++j) sv.values64[static_cast<std::size_t>(i * rows.cols() + j)] = rows(i, j);
  return sv;
}

}  // namespace detail::model_io

/// A BudgetedSVC model from budget::fit (n_classes labels; binary results
/// have one output, positive meaning the second label).
inline Model model_from_budget(const budget::Result& r, const Kernel& kernel, Index n_features,
                               const LabelTable& labels) {
  Model m;
  m.family = ModelFamily::budgeted_svc;
  m.kernel = kernel;
  m.n_features = n_features;
  m.rule = r.n_outputs == 1 ? DecisionRule::sign : DecisionRule::argmax;
  detail::model_io::set_labels(m, labels, r.n_outputs == 1 ? 2 : r.n_outputs);
  require(r.support_vectors.rows() == 0 || r.support_vectors.cols() == n_features,
          "the support vectors do not have n_features columns");
  m.sv = detail::model_io::dense_rows(r.support_vectors);
  m.sv.cols = n_features;
  m.coef = r.dual_coef;
  m.intercept = r.intercept;
  m.classes = labels.array();
  // the state partial_fit continues from, as the Python estimator's t_ and n_samples_seen_
  char attrs[160];
  std::snprintf(attrs, sizeof attrs, "{\"attrs\": {\"t_\": %lld, \"n_samples_seen_\": %lld}}", r.steps_total,
                static_cast<long long>(std::llround(r.n_ref)));
  m.extra.push_back({"ATTR", false, attrs});
  return m;
}

/// An SVC model from a binary exact fit on the rows of X with labels y
/// (+1 / -1): labels = {label of +1, label of -1}, LIBSVM's pair order.
template <class View>
Model model_from_exact(const exact::ExactResult& r, const View& X, const std::vector<double>& y, const Kernel& kernel,
                       const LabelTable& labels) {
  require(static_cast<Index>(r.alpha.size()) == X.rows() && y.size() == r.alpha.size(),
          "alpha and y need one entry per row of X");
  Model m;
  m.family = ModelFamily::svc;
  m.rule = DecisionRule::ovo;
  m.kernel = kernel;
  m.n_features = X.cols();
  detail::model_io::set_labels(m, labels, 2);
  std::vector<Index> rows;
  std::vector<double> coef;
  m.n_support = {0, 0};
  for (double sign : {1.0, -1.0})
    for (std::size_t i = 0; i < r.alpha.size(); ++i)
      if (r.alpha[i] > 0.0 && y[i] == sign) {
        rows.push_back(static_cast<Index>(i));
        coef.push_back(r.alpha[i] * sign);
        ++m.n_support[sign > 0 ? 0 : 1];
      }
  MatrixXd sv;
  gather_rows(X, rows, sv);
  m.sv = detail::model_io::dense_rows(sv);
  m.sv.cols = X.cols();
  m.dual_coef = Eigen::Map<const MatrixXd>(coef.data(), 1, static_cast<Index>(coef.size()));
  m.intercept = {r.intercept};
  m.classes = labels.array();
  m.derive_pair_coef();
  return m;
}

/// A LinearSVC model from linear::one_vs_rest (w has n_features + 1
/// entries, the last the bias weight, scaled by bias_scale when
/// fit_intercept).
inline Model model_from_linear(const std::vector<linear::Result>& results, Index n_features, double bias_scale,
                               bool fit_intercept, const LabelTable& labels) {
  Model m;
  m.family = ModelFamily::linear_svc;
  m.kernel = Kernel{KernelType::linear, 1.0, 0.0, 3};
  m.n_features = n_features;
  const auto n_out = static_cast<Index>(results.size());
  m.rule = n_out == 1 ? DecisionRule::sign : DecisionRule::argmax;
  detail::model_io::set_labels(m, labels, n_out == 1 ? 2 : n_out);
  m.weights.resize(n_out, n_features);
  for (Index c = 0; c < n_out; ++c) {
    const auto& w = results[static_cast<std::size_t>(c)].w;
    require(static_cast<Index>(w.size()) == n_features + 1, "w must have n_features + 1 entries");
    for (Index j = 0; j < n_features; ++j) m.weights(c, j) = w[static_cast<std::size_t>(j)];
    m.intercept.push_back(fit_intercept ? w[static_cast<std::size_t>(n_features)] * bias_scale : 0.0);
  }
  m.classes = labels.array();
  return m;
}

}  // namespace budgetsvm
