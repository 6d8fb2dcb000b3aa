// What a user sets for the linear SVM, described once (core/options.hpp):
// C, the loss, the coordinate selection, the threads and the dual solver's
// Options. The bindings read these through params_options(); C++ callers may
// fill the struct directly and pass its parts to one_vs_rest (fit.hpp).
#pragma once

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../core/options.hpp"
#include "dual_cd.hpp"
#include "loss.hpp"

namespace budgetsvm::linear {

enum class SelectionType { uniform, shrinking, avsf, auto_ };

/// The regulariser: 1/2 ||w||^2 (the dual solvers) or ||w||_1 (l1_cdn.hpp,
/// squared hinge only).
enum class Penalty { l2, l1 };

/// How several classes are trained: one-vs-rest binary problems, or
/// Crammer and Singer's joint problem (crammer_singer.hpp).
enum class MultiClass { ovr, crammer_singer };

struct Params {
  double C = 1.0;
  LossType loss = LossType::squared_hinge;
  SelectionType selection = SelectionType::auto_;
  Penalty penalty = Penalty::l2;
  MultiClass multi_class = MultiClass::ovr;
  int n_jobs = 1;
  Options cd{};
};

inline const std::vector<Option<Params>>& params_options() {
  static const std::vector<Option<Params>> registry = [] {
    using P = Params;
    std::vector<Option<P>> r;
    r.push_back(real_option<P>("C", &P::C, RealRange::positive(), "regularisation: the bound of the dual variables"));
    r.push_back(choice_option<P>("loss", &P::loss,
                                 NameTable<LossType>{
                                     {"squared_hinge", LossType::squared_hinge}, {"hinge", LossType::hinge}},
                                 "the loss: max(0, 1 - y f)^2 or max(0, 1 - y f)"));
    r.push_back(choice_option<P>("penalty", &P::penalty,
                                 NameTable<Penalty>{{"l2", Penalty::l2}, {"l1", Penalty::l1}},
                                 "the regulariser: 1/2 ||w||^2 (dual coordinate descent) or ||w||_1 "
                                 "(primal coordinate descent, squared hinge only)"));
    r.push_back(choice_option<P>("multi_class", &P::multi_class,
                                 NameTable<MultiClass>{{"ovr", MultiClass::ovr},
                                                       {"crammer_singer", MultiClass::crammer_singer}},
                                 "several classes: one-vs-rest problems, or Crammer and Singer's joint problem "
                                 "(loss, penalty and selection are then not used)"));
    r.push_back(choice_option<P>("selection", &P::selection,
                                 NameTable<SelectionType>{
                                     {"auto", SelectionType::auto_}, {"avsf", SelectionType::avsf},
                                     {"shrinking", SelectionType::shrinking}, {"uniform", SelectionType::uniform}},
                                 "coordinate selection: adaptive (AVSF), LIBLINEAR's shrinking, uniform, or auto"));
    r.push_back(int_option<P>("n_jobs", &P::n_jobs, 1, "threads (one-vs-rest problems in parallel)"));
    r.push_back(real_option<P>("tol", [](auto& p) -> auto& { return p.cd.tol; }, RealRange::positive(),
                               "stop when the largest projected gradient is below tol"));
    r.push_back(int_option<P>("max_iter", [](auto& p) -> auto& { return p.cd.max_iter; }, 0,
                              "most sweeps over the data (0: no limit)"));
    r.push_back(real_option<P>("bias_scale", [](auto& p) -> auto& { return p.cd.bias_scale; },
                               RealRange::non_negative(), "value of the constant feature (0: no intercept)"));
    r.push_back(int_option<P>("seed", [](auto& p) -> auto& { return p.cd.seed; }, 0, "seed of the sweep order"));
    r.push_back(int_option<P>("auto_switch_sweeps", [](auto& p) -> auto& { return p.cd.auto_switch_sweeps; }, 1,
                              "selection='auto': sweeps of shrinking before AVSF takes over"));
    r.push_back(real_option<P>("auto_min_feature_ratio", [](auto& p) -> auto& { return p.cd.auto_min_feature_ratio; },
                               RealRange::non_negative(),
                               "selection='auto': AVSF only where n_features >= this ratio x n_samples"));
    r.push_back(bool_option<P>("merge_duplicates", [](auto& p) -> auto& { return p.cd.merge_duplicates; },
                               "solve every group of equal rows with equal labels as one dual variable"));
    r.push_back(int_option<P>("merge_min_copies", [](auto& p) -> auto& { return p.cd.merge_min_copies; }, 0,
                              "without merge_duplicates, hinge loss: merge the groups of at least this many equal rows (0: none)"));
    return r;
  }();
  return registry;
}

}  // namespace budgetsvm::linear
