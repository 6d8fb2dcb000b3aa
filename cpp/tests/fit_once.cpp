// See fit_once.hpp.
#include "fit_once.hpp"

#include "budgetsvm/budget/fit.hpp"

namespace budgetsvm::test {

budget::Result fit_once(const budget::Rows& X, const int* y, const double* weight, int n_classes,
                        const budget::Params& params, const budget::EpochCallback& callback, RunControl& control,
                        const budget::Start& start) {
  return budget::fit(X, y, weight, n_classes, params, callback, control, start);
}

budget::Result bsca_shard_round_once(const budget::Rows& X, const int* y, const double* weight,
                                     const budget::Params& params, const budget::Start& start,
                                     const budget::ShardRound& round, double* alpha, RunControl& control) {
  return budget::bsca_shard_round(X, y, weight, params, start, round, alpha, control);
}

}  // namespace budgetsvm::test
