// Selection policies of the linear dual coordinate descent: which coordinate
// to step on next, when to shrink, when to stop. Each policy is a small
// strategy type with one function
//   template <class State> static Stats run(State&, const Options&, Random&, RunControl&);
// that owns its sweep loop and calls the shared step of dual_cd.hpp, so no
// policy flag is tested in a hot loop.
//
// - Uniform:   random-order sweeps over all variables, no shrinking; stops
//              when max PG - min PG <= tol over a sweep, the range taken to
//              include 0 (see below).
// - Shrinking: the paper's Algorithm 2 = liblinear's solver with shrinking:
//              variables at a bound whose gradient pushes against it harder
//              than the previous sweep's extreme projected gradients leave
//              the active set; stop when max PG - min PG <= tol over the
//              active set, then one unshrunk sweep must confirm.
// - Avsf:      the paper's Algorithms 3-5: each sweep is a schedule of n
//              indices drawn in proportion to preferences p_i in [1/20, 20]
//              (Algorithm 4), preferences follow the gain of each step
//              relative to a fading average (Algorithm 5, c = 1/5); stop
//              when the sweep's max KKT violation < tol on a sweep that
//              started from uniform preferences (canstop; docs/linear.md).
//
// Where we differ from liblinear: its test PGmax - PGmin <= tol can hold
// while every PG is far from 0 (all equal: equal rows with opposite labels
// gave max |PG| = 2); taking the range over the PGs and 0 means a converged
// run has max |PG| <= tol, and is the same test whenever some PG has each
// sign or is 0 (any variable at a bound, pushed outwards).
// Where we differ from the paper: the gain reference Delta_ref can be 0 when
// the first sweep moved nothing (we then restart its estimate instead of
// dividing by 0); the schedule recomputes sum p each sweep (no drift), and a
// rounding shortfall of Algorithm 4 is filled with uniformly drawn indices.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dual_cd.hpp"

namespace budgetsvm::linear {

namespace detail {
inline void shuffle_prefix(std::vector<Index>& v, std::size_t size, Random& rng) {
  for (std::size_t i = 0; i + 1 < size; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng.below(size - i));
    std::swap(v[i], v[j]);
  }
}
constexpr double kInf = std::numeric_limits<double>::infinity();

/// One index of a sweep, as every rule starts it: i = order[s] of the m
/// indices visited, the rows of the indices two and four ahead prefetched,
/// the run polled, and i's gradient G and projected gradient PG.
struct Visit {
  Index i;
  double G, PG;
};
template <class State>
inline Visit visit(State& state, const std::vector<Index>& order, std::size_t s, std::size_t m,
                   RunControl& control) {
  const Index i = order[s];
  if (s + 4 < m) state.prefetch_sample(order[s + 4]);
  if (s + 2 < m) state.prefetch_row(order[s + 2]);
  control.poll();
  const double G = state.gradient(i);
  return {i, G, state.projected(i, G)};
}
}  // namespace detail

struct Uniform {
  template <class State>
  static Stats run(State& state, const Options& options, Random& rng, RunControl& control) {
    Stats stats;
    std::vector<Index> order = state.eligible();
    for (;;) {
      detail::shuffle_prefix(order, order.size(), rng);
      double pg_max = -detail::kInf, pg_min = detail::kInf;
      const std::size_t m = order.size();
      for (std::size_t s = 0; s < m; ++s) {
        const auto [i, G, PG] = detail::visit(state, order, s, m, control);
        pg_max = std::max(pg_max, PG);
        pg_min = std::min(pg_min, PG);
        state.step(i, G, PG);
      }
      stats.steps += static_cast<std::int64_t>(order.size());
      stats.kkt_violation = std::max({0.0, pg_max, -pg_min});  // = max |PG|
      if (std::max(pg_max, 0.0) - std::min(pg_min, 0.0) <= options.tol || order.empty()) {
        ++stats.sweeps;
        return stats;
      }
      if (sweep_limit_reached(options, stats)) return stats;
    }
  }
};

struct Shrinking {
  template <class State>
  static Stats run(State& state, const Options& options, Random& rng, RunControl& control) {
    Stats stats;
    std::vector<Index> active = state.eligible();
    const std::size_t all = active.size();
    std::size_t active_size = all;
    double pg_max_old = detail::kInf, pg_min_old = -detail::kInf;
    for (;;) {
      detail::shuffle_prefix(active, active_size, rng);
      double pg_max = -detail::kInf, pg_min = detail::kInf;
      const bool full = active_size == all;
      std::size_t visited = 0;
      for (std::size_t s = 0; s < active_size;) {
        ++visited;
        const auto [i, G, PG] = detail::visit(state, active, s, active_size, control);
        // Shrink: at a bound and pushed against it harder than last sweep's
        // extreme projected gradients (PG == 0 exactly when at a bound and
        // pushed outwards).
        if (PG == 0.0 && ((G > pg_max_old && G > 0.0) || (G < pg_min_old && G < 0.0))) {
          std::swap(active[s], active[--active_size]);
          continue;
        }
        pg_max = std::max(pg_max, PG);
        pg_min = std::min(pg_min, PG);
        state.step(i, G, PG);
        ++s;
      }
      stats.steps += static_cast<std::int64_t>(visited);
      if (full) stats.kkt_violation = std::max({0.0, pg_max, -pg_min});  // = max |PG|
      if (std::max(pg_max, 0.0) - std::min(pg_min, 0.0) <= options.tol || active_size == 0) {
        if (active_size == all) {
          ++stats.sweeps;
          return stats;
        }
        active_size = all;  // unshrink and confirm with a full sweep
        pg_max_old = detail::kInf;
        pg_min_old = -detail::kInf;
        if (sweep_limit_reached(options, stats)) return stats;
        continue;
      }
      pg_max_old = pg_max <= 0.0 ? detail::kInf : pg_max;
      pg_min_old = pg_min >= 0.0 ? -detail::kInf : pg_min;
      if (sweep_limit_reached(options, stats)) return stats;
    }
  }
};

struct Avsf {
  static constexpr double c = 0.2;
  static constexpr double p_min = 1.0 / 20.0;
  static constexpr double p_max = 20.0;

  /// Algorithm 4: a schedule of n = |eligible| entries in which sample i
  /// appears floor(m) or floor(m) + 1 times, m = p_i (n - j) / N.
  template <class State>
  static void make_schedule(State& state, std::vector<Index>& schedule, Random& rng) {
    const std::vector<Index>& eligible = state.eligible();
    const std::size_t n = eligible.size();
    double N = 0.0;
    for (Index i : eligible) N += state.scratch(i);
    std::size_t j = 0;
    for (std::size_t k = 0; k < n && j < n; ++k) {
      const double p = state.scratch(eligible[k]);
      const double left = static_cast<double>(n - j);
      const double m = N > 0.0 ? std::min(left, p * left / N) : 0.0;
      auto count = static_cast<std::size_t>(m);
      if (rng.uniform() < m - static_cast<double>(count)) ++count;
      count = std::min(count, n - j);
      for (std::size_t r = 0; r < count; ++r) schedule[j++] = eligible[k];
      N -= p;
    }
    while (j < n) schedule[j++] = eligible[static_cast<std::size_t>(rng.below(n))];
  }

  template <class State>
  static Stats run(State& state, const Options& options, Random& rng, RunControl& control) {
    Stats stats;
    const std::vector<Index>& eligible = state.eligible();
    const std::size_t n = eligible.size();
    if (n == 0) {
      ++stats.sweeps;
      return stats;
    }
    // Preferences live in the state's per-sample scratch slot.
    for (Index i : eligible) state.scratch(i) = 1.0;
    std::vector<Index> schedule(n);
    const double rate = 1.0 / static_cast<double>(n);
    double gain_ref = 0.0;
    bool first = true, canstop = true;
    for (;;) {
      if (canstop) {
        // Uniform preferences: every index exactly once (Algorithm 4 would
        // give the same up to rounding; this makes the check sweep exact).
        schedule = eligible;
      } else {
        make_schedule(state, schedule, rng);
      }
      detail::shuffle_prefix(schedule, n, rng);
      double violation = 0.0;
      double first_sum = 0.0;
      for (std::size_t s = 0; s < n; ++s) {
        const auto [i, G, PG] = detail::visit(state, schedule, s, n, control);
        violation = std::max(violation, std::fabs(PG));
        const auto st = state.step(i, G, PG);
        if (first) {
          first_sum += st.gain;
        } else {
          double& pi = state.scratch(i);
          pi = std::min(p_max, std::max(p_min, pi * std::exp(c * (st.gain / gain_ref - 1.0))));
          gain_ref = (1.0 - rate) * gain_ref + rate * st.gain;
        }
      }
      stats.steps += static_cast<std::int64_t>(n);
      if (first) {
        gain_ref = first_sum * rate;
        first = !(gain_ref > 0.0);  // nothing moved: estimate again next sweep
      }
      stats.kkt_violation = violation;
      if (violation < options.tol) {
        if (canstop) {
          ++stats.sweeps;
          return stats;
        }
        for (Index i : eligible) state.scratch(i) = 1.0;
        canstop = true;
      } else {
        canstop = false;
      }
      if (sweep_limit_reached(options, stats)) return stats;
    }
  }
};

/// selection="auto", a rule derived from measurements (docs/linear.md;
/// bench/linear.py): AVSF lost to liblinear's shrinking at every C on
/// every data set with many more samples than features (d/n < 0.01; the
/// paper saw the same on its tall data set), where the
/// solution has few free variables that shrinking keeps in cache, and it
/// won at large C on the sparse text sets (d/n >= 1, as rcv1, news20, url
/// in the paper). Shrinking also wins on easy problems (small C), which
/// converge within a few dozen sweeps. So:
///   d < auto_min_feature_ratio * n  -> Shrinking throughout;
///   otherwise Shrinking for auto_switch_sweeps sweeps, then Avsf from the
///   point reached (alpha and w carry over; AVSF restarts its preferences).
struct Auto {
  template <class State>
  static Stats run(State& state, const Options& options, Random& rng, RunControl& control) {
    const double n = static_cast<double>(state.eligible().size());
    if (static_cast<double>(state.features()) < options.auto_min_feature_ratio * n)
      return Shrinking::run(state, options, rng, control);
    Options first = options;
    first.max_iter = options.max_iter > 0 ? std::min(options.max_iter, options.auto_switch_sweeps)
                                          : options.auto_switch_sweeps;
    if (first.max_iter <= 0) first.max_iter = 1;
    const Stats head = Shrinking::run(state, first, rng, control);
    if (head.status != Status::max_iter_reached ||
        (options.max_iter > 0 && head.sweeps >= options.max_iter))
      return head;
    Options rest = options;
    if (rest.max_iter > 0) rest.max_iter -= head.sweeps;
    Stats tail = Avsf::run(state, rest, rng, control);
    tail.sweeps += head.sweeps;
    tail.steps += head.steps;
    return tail;
  }
};

}  // namespace budgetsvm::linear
