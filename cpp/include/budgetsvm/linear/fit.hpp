// Training entry points of the linear SVM: one binary problem with a chosen
// loss and selection policy, and one-vs-rest multi-class training with the
// classes solved in parallel threads.
//
// One-vs-rest follows liblinear (and scikit-learn's LinearSVC): with two
// classes one problem is solved, class 1 positive, C_i = C w_{y_i} s_i;
// with K > 2 classes problem k has y_i = +1 for class k and -1 otherwise,
// C_i = C s_i w_k for the positives and C s_i for the rest (class weights
// scale the positive class only, as liblinear does), s_i = sample weight.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../core/data_view.hpp"
#include "../core/parallel.hpp"
#include "dual_cd.hpp"
#include "crammer_singer.hpp"
#include "duplicates.hpp"
#include "l1_cdn.hpp"
#include "loss.hpp"
#include "params.hpp"
#include "selection.hpp"

namespace budgetsvm::linear {

/// Solves one binary problem with the Selection policy and the Loss.
/// first (optional, duplicates.hpp's first_copies of X) names equal rows,
/// whose pairs with opposite labels get the flat step (dual_cd.hpp).
template <class Selection, class Loss, class View>
Result solve(const View& X, const double* y, const double* C, const Options& options,
             RunControl& control, const std::vector<Index>* first = nullptr) {
  options.validate();
  CdState<View> state(X, y, C, Loss{}, options);
  if (first && !first->empty()) state.set_partners(*first);
  Random rng(options.seed);
  Stats stats = Selection::run(state, options, rng, control);
  return std::move(state).result(stats);
}

template <class Loss, class View>
Result solve(SelectionType selection, const View& X, const double* y, const double* C,
             const Options& options, RunControl& control, const std::vector<Index>* first = nullptr) {
  switch (selection) {
    case SelectionType::uniform:
      return solve<Uniform, Loss>(X, y, C, options, control, first);
    case SelectionType::shrinking:
      return solve<Shrinking, Loss>(X, y, C, options, control, first);
    case SelectionType::avsf:
      return solve<Avsf, Loss>(X, y, C, options, control, first);
    case SelectionType::auto_:
      return solve<Auto, Loss>(X, y, C, options, control, first);
  }
  throw std::invalid_argument("unknown selection");
}

/// Solves one binary problem, dispatching on the loss and the policy.
template <class View>
Result solve(LossType loss, SelectionType selection, const View& X, const double* y,
             const double* C, const Options& options, RunControl& control,
             const std::vector<Index>* first = nullptr) {
  if (loss == LossType::hinge) return solve<Hinge>(selection, X, y, C, options, control, first);
  return solve<SquaredHinge>(selection, X, y, C, options, control, first);
}

/// Crammer and Singer's problem with C_i = C w_{y_i} s_i (class weight,
/// sample weight), K >= 2 classes: one Result per class.
template <class View>
std::vector<Result> crammer_singer(const View& X, const std::vector<int>& labels, int n_classes, double C,
                                   const std::vector<double>& class_weight, const std::vector<double>& sample_weight,
                                   const Options& options, RunControl& control) {
  const Index n = X.rows();
  require(n_classes >= 2, "crammer_singer needs at least two classes");
  require(static_cast<Index>(labels.size()) == n, "labels must have one entry per sample");
  require(static_cast<Index>(sample_weight.size()) == n, "sample_weight must have one entry per sample");
  require(static_cast<int>(class_weight.size()) == n_classes, "class_weight must have one entry per class");
  require(std::isfinite(C) && C > 0, "C must be a positive finite number");
  std::vector<double> Ci(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    require(labels[u] >= 0 && labels[u] < n_classes, "label index out of range");
    Ci[u] = C * class_weight[static_cast<std::size_t>(labels[u])] * sample_weight[u];
  }
  return solve_crammer_singer(X, labels, n_classes, Ci, options, control);
}

/// Whether any row can take the flat step (dual_cd.hpp): it needs
/// length x Q_ii > kFlatVisits |g|, impossible when every row has
/// 2 (C_i ||x~_i||^2 + 1/2) <= kFlatVisits (hinge: length <= C_i, |g| = 2;
/// squared hinge: length <= |g| / D_ii = 2 C_i |g|). Cheap (no allocation),
/// so that the search for equal rows is skipped where it cannot help.
template <class View>
bool flat_steps_possible(const View& X, double C, const std::vector<double>& class_weight,
                         const std::vector<double>& sample_weight, double bias_scale) {
  double cw = 0.0;
  for (double v : class_weight) cw = std::max(cw, v);
  for (Index i = 0; i < X.rows(); ++i) {
    const double Ci = C * cw * sample_weight[static_cast<std::size_t>(i)];
    if (2.0 * (Ci * (X.squared_norm(i) + bias_scale * bias_scale) + 0.5) > kFlatVisits) return true;
  }
  return false;
}

/// One-vs-rest over K >= 2 classes. labels[i] in [0, K); class_weight has
/// K entries, sample_weight n entries. Returns one Result per problem
/// (1 for K = 2, else K). Problems run on n_jobs threads (parallel.hpp; only
/// the calling thread polls `control`, where Ctrl-C must be checked).
template <class View>
std::vector<Result> one_vs_rest(const View& X, const std::vector<int>& labels, int n_classes,
                                double C, const std::vector<double>& class_weight,
                                const std::vector<double>& sample_weight, LossType loss,
                                SelectionType selection, const Options& options, int n_jobs,
                                RunControl& control, Penalty penalty = Penalty::l2) {
  const Index n = X.rows();
  require(n_classes >= 2, "one-vs-rest needs at least two classes");
  require(static_cast<Index>(labels.size()) == n, "labels must have one entry per sample");
  require(static_cast<Index>(sample_weight.size()) == n, "sample_weight must have one entry per sample");
  require(static_cast<int>(class_weight.size()) == n_classes, "class_weight must have one entry per class");
  require(std::isfinite(C) && C > 0, "C must be a positive finite number");
  options.validate();
  for (int label : labels) require(label >= 0 && label < n_classes, "label index out of range");
  const int n_problems = n_classes == 2 ? 1 : n_classes;
  std::vector<Result> results(static_cast<std::size_t>(n_problems));
  // Equal rows: merged when they share the label (if asked), paired for the
  // flat step when they do not (dual_cd.hpp).
  require(penalty == Penalty::l2 || loss == LossType::squared_hinge,
          "penalty='l1' needs the squared hinge loss");
  std::vector<Index> first;
  const Index min_copies = static_cast<Index>(options.smallest_merged_group(loss));
  if (penalty == Penalty::l2 && n > 1 && (min_copies > 0 || flat_steps_possible(X, C, class_weight, sample_weight, options.bias_scale)))
    first = first_copies(X, control);

  auto solve_problem = [&](int k, RunControl& ctl) {
    const int positive = n_classes == 2 ? 1 : k;
    std::vector<double> y(static_cast<std::size_t>(n)), Ci(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      const int label = labels[u];
      y[u] = label == positive ? 1.0 : -1.0;
      const double cw = (n_classes == 2 || label == positive) ? class_weight[static_cast<std::size_t>(label)] : 1.0;
      Ci[u] = C * cw * sample_weight[u];
    }
    Options opt = options;
    opt.seed = options.seed + static_cast<std::uint64_t>(k);
    if (penalty == Penalty::l1) {
      results[static_cast<std::size_t>(k)] = solve_l1_squared_hinge(X, y.data(), Ci.data(), opt, ctl);
      return;
    }
    std::vector<Index> rep;
    std::vector<double> merged;
    std::int64_t folded = 0;
    if (min_copies > 0 && !first.empty()) {
      rep = representatives(first, y.data(), min_copies);
      merged = Ci;
      folded = merge_copies(rep, merged);
    }
    Result& r = results[static_cast<std::size_t>(k)];
    r = solve(loss, selection, X, y.data(), folded > 0 ? merged.data() : Ci.data(), opt, ctl, &first);
    if (folded > 0) split_alpha(rep, Ci, merged, r.alpha);
    r.stats.merged_rows = folded;
  };

  parallel_tasks(n_problems, n_jobs, control,
                 [&](Index k, RunControl& ctl) { solve_problem(static_cast<int>(k), ctl); });
  return results;
}

}  // namespace budgetsvm::linear
