// Multi-core training of one problem: data shards with model mixing
// (docs/scale.md).
//
// Problem: one binary machine (or BSGD's multi-class model) is a sequence of
// steps, each reading the model the previous step wrote; threads cannot
// share that sequence without locking the model at every step.
//
// Algorithm (iterative parameter mixing): the rows are split once, by the
// seed, into `shards` parts of near-equal size. Every epoch is one round:
// each shard runs one epoch of the solver on its own rows, continuing the
// common model (start.hpp: the same model, step count and n = all rows),
// the shards in parallel threads; then mix.hpp averages the shard models,
// weighted by their rows, pairwise up a tree (mix_tree: the tree Dask
// mixes too), each mix merging the union of two back to B. The common model
// advances by the shards' mean step count per round, so one round of K
// shards counts as n / K steps of the sequential run: Pegasos' and the
// growing pass's iterate then keep their scale (each shard's model is the
// iterate for its n / K rows with the lambda of n rows, and their average
// is the mixture of K such iterates).
//
// The split follows `shards` as given, never the machine: the model depends
// on (seed, shards) only; `n_jobs` threads run the shards. A shard's
// classes may be one only; its solver handles that. The callback and
// Ctrl-C are served between rounds (Ctrl-C also inside them).
// Departure: BSCA's dual variables live for one round (each round is a
// continued growing pass over the shard's rows), and the instruments'
// objective and alpha counts are not recorded for sharded runs.
#pragma once

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include "../core/parallel.hpp"
#include "../core/random.hpp"
#include "../core/stopwatch.hpp"
#include "fit.hpp"
#include "mix.hpp"
#include "rows.hpp"

namespace budgetsvm::budget {

/// The rows `index` of another Rows (shifted by its centre, if any).
class SubsetRows final : public Rows {
 public:
  SubsetRows(const Rows& base, std::vector<Index> index) : base_(base), index_(std::move(index)) {
    rows_ = static_cast<Index>(index_.size());
    cols_ = base.cols();
    sqnorms_.resize(index_.size());
    for (std::size_t t = 0; t < index_.size(); ++t) sqnorms_[t] = base.sqnorm(index_[t]);
    centre_ = base.centre();
  }
  void load(Index i, SampleRow& out) const override { base_.load(index_[static_cast<std::size_t>(i)], out); }

 private:
  const Rows& base_;
  std::vector<Index> index_;
};

namespace detail {

/// The rows of one shard, its class indices and weights.
struct Shard {
  std::unique_ptr<SubsetRows> rows;
  std::vector<int> y;
  std::vector<double> weight;  // empty: all 1
};

inline std::vector<Shard> split_shards(const Rows& X, const int* y, const double* weight, Index shards,
                                       std::uint64_t seed) {
  std::vector<Index> order(static_cast<std::size_t>(X.rows()));
  std::iota(order.begin(), order.end(), Index{0});
  Random rng(seed);
  rng.shuffle(order);
  std::vector<Shard> out(static_cast<std::size_t>(shards));
  const Index n = X.rows();
  for (Index k = 0; k < shards; ++k) {
    const Index lo = n * k / shards, hi = n * (k + 1) / shards;
    std::vector<Index> index(order.begin() + lo, order.begin() + hi);
    std::sort(index.begin(), index.end());  // memory order within the shard
    Shard& s = out[static_cast<std::size_t>(k)];
    for (Index i : index) {
      s.y.push_back(y[i]);
      if (weight) s.weight.push_back(weight[i]);
    }
    s.rows = std::make_unique<SubsetRows>(X, std::move(index));
  }
  return out;
}

/// Sharded training (see the header comment); `fit` calls it when
/// params.shards > 1 and the problem is one machine's.
inline Result fit_sharded(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params,
                          const EpochCallback& callback, RunControl& control, const Start& start) {
  const Index n_shards = std::min<Index>(params.shards, X.rows());
  Random seeder(params.seed);
  std::vector<Shard> shards = split_shards(X, y, weight, n_shards, seeder.next());
  const double n = start.n > 0.0 ? start.n : static_cast<double>(X.rows());
  Params one = params;
  one.shards = 1;
  one.n_jobs = 1;
  one.epochs = 1;
  one.instruments = false;
  MatrixXd sv, coef;
  Start cur = start;
  if (cur.warm()) sv = *cur.support_vectors, coef = *cur.dual_coef;
  cur.n = n;
  Result result;
  result.n_outputs = n_classes == 2 ? 1 : n_classes;
  const Stopwatch timer;
  Counters totals;
  std::vector<Result> parts(static_cast<std::size_t>(n_shards));
  const int threads = static_cast<int>(std::max<Index>(1, std::min<Index>(params.n_jobs, n_shards)));
  for (int epoch = 1; epoch <= params.epochs; ++epoch) {
    if (epoch > 1 || start.warm()) cur.support_vectors = &sv, cur.dual_coef = &coef;
    std::vector<std::uint64_t> seeds(static_cast<std::size_t>(n_shards));
    for (auto& s : seeds) s = seeder.next() >> 1;  // the registry holds seeds in [0, 2^63)
    parallel_tasks(n_shards, threads, control, [&](Index k, RunControl& ctl) {
      const Shard& s = shards[static_cast<std::size_t>(k)];
      Params p = one;
      p.seed = seeds[static_cast<std::size_t>(k)];
      parts[static_cast<std::size_t>(k)] = fit(*s.rows, s.y.data(), s.weight.empty() ? nullptr : s.weight.data(),
                                               n_classes, p, EpochCallback{}, ctl, cur);
    });
    std::vector<MixPart> mixing;
    EpochStats stats;
    stats.epoch = epoch;
    for (Index k = 0; k < n_shards; ++k) {
      const Result& r = parts[static_cast<std::size_t>(k)];
      mixing.push_back({&r.support_vectors, &r.dual_coef, r.intercept,
                        static_cast<double>(shards[static_cast<std::size_t>(k)].rows->rows()), r.steps_total});
      totals += r.totals;
      stats.progressive_loss += r.history.empty() ? 0.0 : r.history.back().progressive_loss;
    }
    control.poll_now();
    Result mixed = mix_tree(mixing, params, false);
    totals += mixed.totals;
    sv = std::move(mixed.support_vectors);
    coef = std::move(mixed.dual_coef);
    cur.intercept = mixed.intercept;
    cur.steps = mixed.steps_total;
    cur.n_ref = n;
    stats.totals = totals;
    stats.n_support = sv.rows();
    stats.seconds = timer.seconds();
    if (end_epoch(result, stats, callback, control)) break;
  }
  result.support_vectors = sv;
  result.dual_coef = coef;
  result.intercept = cur.intercept;
  result.intercept.resize(static_cast<std::size_t>(result.n_outputs), 0.0);
  result.totals = totals;
  result.seconds = timer.seconds();
  result.steps_total = cur.steps;
  result.n_ref = n;
  for (const Result& r : parts) result.averaged += r.averaged;
  return result;
}

}  // namespace detail

}  // namespace budgetsvm::budget
