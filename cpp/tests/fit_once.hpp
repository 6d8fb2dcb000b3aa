// budget::fit and budget::bsca_shard_round compiled once for all the C++
// tests (fit_once.cpp, a static library of the test build): each entry
// point instantiates every maintenance strategy and merge method, and each
// test file that called them directly compiled all of them again (most of
// the tests' build time under the sanitizers). The same arguments and
// results as the library's functions.
#pragma once

#include "budgetsvm/budget/params.hpp"
#include "budgetsvm/budget/rows.hpp"
#include "budgetsvm/core/control.hpp"

namespace budgetsvm::budget {
struct ShardRound;  // shards.hpp
}  // namespace budgetsvm::budget

namespace budgetsvm::test {

budget::Result fit_once(const budget::Rows& X, const int* y, const double* weight, int n_classes,
                        const budget::Params& params, const budget::EpochCallback& callback, RunControl& control,
                        const budget::Start& start = budget::Start{});

inline budget::Result fit_once(const budget::Rows& X, const int* y, int n_classes, const budget::Params& params,
                               const budget::EpochCallback& callback, RunControl& control) {
  return fit_once(X, y, nullptr, n_classes, params, callback, control);
}

budget::Result bsca_shard_round_once(const budget::Rows& X, const int* y, const double* weight,
                                     const budget::Params& params, const budget::Start& start,
                                     const budget::ShardRound& round, double* alpha, RunControl& control);

}  // namespace budgetsvm::test
