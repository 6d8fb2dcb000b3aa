// Working set selection for the exact kernel SVM dual (see dual_state.hpp).
//
// second_order_pair: WSS 2 of Fan, Chen and Lin (2005), "Working set selection
// using second order information", as in LIBSVM:
//   i = argmax_{t in I_up} q_t,
//   j = argmin_{t in I_low, q_t < q_i} -b_it^2 / a_it,
//   b_it = q_i - q_t > 0, a_it = K_ii + K_tt - 2 K_it (tau when <= 0).
//
// select_pairs (pWSS, Aregbesola and Griva 2022, section 3): p pairs by
// repeated second-order selection, each chosen pair's indices removed from
// the candidates before the next pair. The i of pair k is the k-th best
// remaining I_up candidate by q, so the i columns are fetched in one block.
// min_alpha_check (section 3.3) restricts the j search to that many I_low
// candidates with the smallest q (0 = no restriction, our default: a limit
// cost many more rounds; docs/exact.md). With no limit, the j search still
// scans only the I_low candidates whose q lies below the best i's q, which
// near the optimum are few.
// Columns are read at the place s.where(t) of position t (dual_state.hpp).
// Where we differ: pairs after the first must themselves violate the
// stopping rule (b_ij > tol); a pair that cannot does nothing for
// convergence but costs two kernel columns.
// The j searches depend on the pairs before them; each is vectorised
// (simd_exact.hpp, best_partner). With two or more jobs and enough
// candidates, two threads walk the pairs as a pipeline (pipelined_walk):
// pair k searches while pair k - 1 is still open and keeps its two best
// partners, so it needs pair k - 1's answer only to choose between them:
// the same pairs as the serial rule. Tried before and dropped
// (docs/exact.md): guessing every i's partner in parallel first (nearly
// every guess after the first pair's was taken by an earlier pair),
// ranking each i's best partners (cost more than the vectorised search),
// splitting one search over the threads (nothing measurable).
// The scan of the candidates for I_up and I_low (CandidateScan) is split
// over the threads too: ranges scanned apart, their lists merged in order.
// ALFPGM has the gradient update of the round before make it (NextScan):
// each range is scanned by the thread that has just updated its gradient.
//
// The MinMaxLimiter exclusions (section 3.2) are applied by the caller
// through the candidate list (see alfpgm.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <limits>
#include <utility>
#include <vector>

#include "../core/errors.hpp"
#include "../core/parallel.hpp"
#include "dual_state.hpp"
#include "simd_exact.hpp"

namespace budgetsvm::exact {

struct PairChoice {
  Index i = -1, j = -1;
  Violation violation;
};

/// The gain b^2 / a of pairing i (q_i, K_ii) with a low candidate t (q_t,
/// K_tt, K_it), b = q_i - q_t; 0 when b <= min_b. Every pWSS search uses it.
inline double pair_gain(double qi, double Kii, double qt, double Ktt, double Kit, double min_b) {
  return simd::scalar::partner_gain(qi, Kii, qt, Ktt, Kit, min_b, kTau);  // the kernels' formula
}

/// What second_order_pair's j search reads, one array per field in
/// candidate order (kept by the caller between iterations: no allocation).
struct PairScratch {
  std::vector<double> q, diag;  // q_t for I_low members, +inf for the others
  std::vector<Index> place;
};

/// Picks i over the candidates, then (column of i in hand) j. Returns
/// i = j = -1 when the candidates hold no violating pair (gap < tol).
template <class FetchColumn>
PairChoice second_order_pair(const DualState& s, const std::vector<Index>& candidates, double tol,
                             FetchColumn&& fetch_column, PairScratch& scratch) {
  // The state's arrays read directly, and I_up / I_low membership as
  // selects rather than branches (SMO spends much of its time here). The
  // scan for i also lays out what the j search reads, contiguous, for the
  // vectorised search (simd_exact.hpp).
  static const simd::BestPartner best_partner = simd::best_partner_for(simd::active_level());
  const DualState::Arrays v = s.arrays();
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::size_t n = candidates.size();
  scratch.q.resize(n);
  scratch.diag.resize(n);
  scratch.place.resize(n);
  double* lq = scratch.q.data();
  double* ld = scratch.diag.data();
  Index* lp = scratch.place.data();
  PairChoice choice;
  Index i = -1;
  double up_max = -inf, low_min = inf;
  for (std::size_t k = 0; k < n; ++k) {
    const Index t = candidates[k];
    const double y = v.y[t], a = v.alpha[t], C = v.upper[t];
    const double qt = -y * v.G[t];
    const double up_q = in_up_set(y, a, C) ? qt : -inf;
    if (up_q > up_max) {
      up_max = up_q;
      i = t;
    }
    const double low_q = in_low_set(y, a, C) ? qt : inf;
    low_min = std::min(low_min, low_q);
    lq[k] = low_q;
    ld[k] = v.diag[t];
    lp[k] = v.where[t];
  }
  choice.violation.up_max = up_max;
  choice.violation.low_min = low_min;
  if (i < 0 || choice.violation.gap() < tol) return choice;
  const float* Ki = fetch_column(i);
  const double qi = up_max, Kii = v.diag[i];
  // j = argmax over I_low with b = q_i - q_t > 0 of b^2 / a (the first of
  // equal gains): pair_gain's arithmetic; a non-member's b is -inf.
  const Index r = best_partner(lq, ld, Ki, lp, static_cast<Index>(n), qi, Kii, 0.0, kTau);
  if (r < static_cast<Index>(n)) {
    choice.i = i;
    choice.j = candidates[static_cast<std::size_t>(r)];
    return choice;
  }
  // No gain above 0 (b^2 underflows for b below 1e-154): the first t with
  // b > 0, as LIBSVM's search would take it.
  for (std::size_t k = 0; k < n; ++k)
    if (qi - lq[k] > 0.0) {
      choice.i = i;
      choice.j = candidates[k];
      break;
    }
  return choice;
}

template <class FetchColumn>
PairChoice second_order_pair(const DualState& s, const std::vector<Index>& candidates, double tol,
                             FetchColumn&& fetch_column) {
  PairScratch scratch;
  return second_order_pair(s, candidates, tol, std::forward<FetchColumn>(fetch_column), scratch);
}

struct WorkingSet {
  std::vector<Index> first, second;  // pair k is (first[k], second[k])
  Violation violation;               // over the candidates
  bool empty() const { return first.empty(); }
  std::vector<Index> indices() const {
    std::vector<Index> B(first);
    B.insert(B.end(), second.begin(), second.end());
    return B;
  }
};

/// The candidates' I_up members as (-q_t, t), only the `keep_up` first in that
/// order kept (sorted), and their I_low members as (q_t, t) in candidate
/// order; the violation over them.
struct CandidateScan {
  std::vector<std::pair<double, Index>> up, low;
  Violation violation;
  std::vector<CandidateScan> parts;  // the threaded scan's ranges (kept: their capacity is reused)

  /// The positions c[0..count) less those marked in `excluded` (nullable,
  /// indexed by position).
  void scan(const DualState& s, const Index* c, Index count, std::size_t keep_up, const char* excluded = nullptr) {
    up.clear();
    low.clear();
    violation = Violation{};
    for (Index k = 0; k < count; ++k) {
      const Index t = c[k];
      if (excluded && excluded[t]) continue;
      const double qt = s.q(t);
      if (s.in_up(t)) {
        up.emplace_back(-qt, t);  // ascending order = descending q
        violation.up_max = std::max(violation.up_max, qt);
      }
      if (s.in_low(t)) {
        low.emplace_back(qt, t);
        violation.low_min = std::min(violation.low_min, qt);
      }
    }
    keep_first(keep_up);
  }

  /// Sorts the first `keep_up` of up (pairs: no ties) and drops the rest.
  void keep_first(std::size_t keep_up) {
    const std::size_t k = std::min(up.size(), keep_up);
    std::partial_sort(up.begin(), up.begin() + static_cast<std::ptrdiff_t>(k), up.end());
    up.resize(k);
  }

  /// The same lists from `threads` threads: each scans contiguous ranges of
  /// the candidates; the ranges' up lists are merged (the order is total,
  /// so the first keep_up are the same), their low lists joined in order.
  void scan(const DualState& s, const std::vector<Index>& candidates, std::size_t keep_up, int threads) {
    const Index n = static_cast<Index>(candidates.size());
    if (threads <= 1 || n < 2) {
      scan(s, candidates.data(), n, keep_up);
      return;
    }
    parts.resize(static_cast<std::size_t>(RangeCut(n, threads).tasks));
    CandidateScan* out = parts.data();
    RunControl unpolled;  // short: the solver polls between rounds
    parallel_ranges_indexed(n, threads, unpolled, [&](Index r, Index begin, Index end, RunControl&) {
      out[r].scan(s, candidates.data() + begin, end - begin, keep_up);
    });
    join(keep_up);
  }

  /// The lists of the ranges in `parts`, scanned apart in candidate order.
  void join(std::size_t keep_up) {
    const CandidateScan* out = parts.data();
    const Index n_parts = static_cast<Index>(parts.size());
    up.clear();
    low.clear();
    violation = Violation{};
    std::size_t n_low = 0;
    for (Index r = 0; r < n_parts; ++r) {
      up.insert(up.end(), out[r].up.begin(), out[r].up.end());
      n_low += out[r].low.size();
      violation.up_max = std::max(violation.up_max, out[r].violation.up_max);
      violation.low_min = std::min(violation.low_min, out[r].violation.low_min);
    }
    keep_first(keep_up);
    low.reserve(n_low);
    for (Index r = 0; r < n_parts; ++r) low.insert(low.end(), out[r].low.begin(), out[r].low.end());
  }
};

/// The next round's candidate scan, made by DualState::move range by range
/// while it updates G (GradientReader): the candidates are the active
/// positions less those `excluded` marks (indexed by position, nullable),
/// in the active order, as the solver's own list; join() after the move
/// gives the lists of CandidateScan::scan over that list.
class NextScan final : public GradientReader {
 public:
  NextScan(const DualState& s, CandidateScan& scan, std::size_t keep_up, const char* excluded)
      : s_(s), scan_(scan), keep_up_(keep_up), excluded_(excluded) {}
  void begin(Index ranges) override { scan_.parts.resize(static_cast<std::size_t>(ranges)); }
  void read(Index range, const Index* positions, Index count) override {
    scan_.parts[static_cast<std::size_t>(range)].scan(s_, positions, count, keep_up_, excluded_);
  }
  void join() { scan_.join(keep_up_); }

 private:
  const DualState& s_;
  CandidateScan& scan_;
  std::size_t keep_up_;
  const char* excluded_;
};

/// What select_pairs works in, kept by the solver from round to round (the
/// vectors' capacity is reused: no allocation per round). Held by the
/// caller rather than thread_local: GCC looked a thread_local object up
/// again (a call into the dynamic linker) at every append of the scan.
struct PairsScratch {
  CandidateScan scan;
  bool scanned = false;  // scan holds the candidates' scan already (NextScan): select_pairs takes it once
  std::vector<double> lq, ldiag;
  std::vector<Index> lt, lplace, firsts;
  std::vector<const float*> cols;
  std::vector<double> lq_own[2];  // pipelined_walk: each task's copy of lq
  std::vector<std::size_t> jr_of;  // pipelined_walk: each pair's j (n_low: none)
};

/// The j search's candidates below which the walk stays on one thread: a
/// pair's hand-over between the threads costs about a search over a few
/// hundred (the choice of the value: docs/exact.md, "Threads").
constexpr double kPipelineFrom = 400.0;

/// The walk over the pairs on two threads, with the serial walk's pairs:
/// pair k's search runs while pair k - 1's is still open, over the
/// candidates less the j of every pair before k - 1, and keeps its two best
/// (best_two_partners); once pair k - 1 is settled, pair k takes its best
/// unless pair k - 1 took that one, then its second. Removing one candidate
/// leaves the first of the largest gains among the rest where it was, so
/// this is the serial answer. Each task keeps its own copy of the
/// candidates' q (the taken j set to +inf), pairs are handed out in order
/// from a counter, and pair k is settled (used, the working set) only after
/// pair k - 1: on one thread the tasks run one after the other and the walk
/// is the serial one. A pair searched with min_b = tol whose pairs before it
/// all found nothing (min_b must be 0 then) searches again.
template <class Take>
void pipelined_walk(const DualState& s, const std::vector<Index>& firsts, const std::vector<const float*>& cols,
                    std::size_t n_low, double tol, const std::vector<char>& used, Take& take,
                    PairsScratch& scratch) {
  static const simd::BestPartner best_partner = simd::best_partner_for(simd::active_level());
  static const simd::BestTwoPartners best_two = simd::best_two_partners_for(simd::active_level());
  const std::size_t n_first = firsts.size();
  std::vector<std::size_t>& jr_of = scratch.jr_of;
  jr_of.assign(n_first, n_low);
  std::atomic<std::size_t> next{0}, settled{0};
  std::atomic<bool> failed{false};  // a task threw: the other one stops waiting for it
  std::size_t accepted = 0;  // pairs taken; read and written by the settling task only
  const auto wait_for = [&](std::size_t count) {
    for (int spins = 0; settled.load(std::memory_order_acquire) < count; ++spins) {
      if (failed.load(std::memory_order_relaxed)) throw Interrupted();  // parallel_tasks rethrows the first error
#if defined(BUDGETSVM_HAS_THREADS)
      if (spins > 64) std::this_thread::yield();
#endif
    }
  };
  const auto walk = [&](Index task) {
    std::vector<double>& q = scratch.lq_own[task];
    q = scratch.lq;
    std::size_t applied = 0;  // pairs whose j is out of q
    const auto apply_until = [&](std::size_t end) {
      for (; applied < end; ++applied)
        if (jr_of[applied] != n_low) q[jr_of[applied]] = std::numeric_limits<double>::infinity();
    };
    for (std::size_t k = next++; k < n_first; k = next++) {
      const Index i = firsts[k];
      const double qi = s.q(i), Kii = s.diag(i), min_b = k == 0 ? 0.0 : tol;
      if (k >= 2) {
        wait_for(k - 1);
        apply_until(k - 1);
      }
      const auto [best, second] = best_two(q.data(), scratch.ldiag.data(), cols[k], scratch.lplace.data(),
                                           static_cast<Index>(n_low), qi, Kii, min_b, kTau);
      wait_for(k);
      std::size_t jr = n_low;
      if (!used[static_cast<std::size_t>(i)]) {
        if (k > 0 && accepted == 0) {  // no pair yet: min_b = 0, a search of its own
          apply_until(k);
          jr = static_cast<std::size_t>(best_partner(q.data(), scratch.ldiag.data(), cols[k], scratch.lplace.data(),
                                                     static_cast<Index>(n_low), qi, Kii, 0.0, kTau));
        } else {
          const std::size_t before = k > 0 ? jr_of[k - 1] : n_low;
          jr = static_cast<std::size_t>(before != n_low && static_cast<std::size_t>(best) == before ? second : best);
        }
      }
      if (jr != n_low) ++accepted;
      jr_of[k] = jr;
      take(i, jr);
      settled.store(k + 1, std::memory_order_release);
    }
  };
  RunControl none;
  parallel_tasks(2, 2, none, [&](Index task, RunControl&) {
    try {
      walk(task);
    } catch (...) {
      failed = true;
      throw;
    }
  });
}

/// pWSS: up to `pairs` pairs. fetch_columns(list, out) fills out with
/// columns of the listed positions (one block). `used` is scratch of size n,
/// all zero on entry and on exit. With scratch.scanned, scratch.scan holds
/// the scan of `candidates` already (NextScan) and is taken as it is.
template <class FetchColumns>
WorkingSet select_pairs(const DualState& s, const std::vector<Index>& candidates, int pairs,
                        Index min_alpha_check, double tol, std::vector<char>& used,
                        FetchColumns&& fetch_columns, PairsScratch& scratch) {
  WorkingSet ws;
  static const simd::BestPartner best_partner = simd::best_partner_for(simd::active_level());
  const std::size_t p = static_cast<std::size_t>(std::max(pairs, 1));
  CandidateScan& scan = scratch.scan;
  if (scratch.scanned)
    scratch.scanned = false;
  else
    scan.scan(s, candidates, p, threads_for(s.jobs(), kScanWork * static_cast<double>(candidates.size())));
  std::vector<std::pair<double, Index>>& up = scan.up;
  std::vector<std::pair<double, Index>>& low = scan.low;
  ws.violation = scan.violation;
  if (up.empty() || low.empty() || ws.violation.gap() < tol) return ws;
  const std::size_t n_first = up.size();  // min(p, |I_up|), sorted
  std::size_t n_low = low.size();
  if (min_alpha_check == 0) {
    // Only candidates below the best i can pair with anything: near the
    // optimum these are few, and every j search scans them only (kept in
    // index order, so ties resolve as in second_order_pair).
    const double q_top = -up[0].first;
    std::size_t kept = 0;
    for (const auto& e : low)
      if (e.first < q_top) low[kept++] = e;
    low.resize(kept);
    n_low = kept;
  } else {
    n_low = std::min(low.size(), static_cast<std::size_t>(min_alpha_check) + 2 * p);
    std::partial_sort(low.begin(), low.begin() + static_cast<std::ptrdiff_t>(n_low), low.end());
  }
  // What the j search reads, gathered once, one array per field.
  std::vector<double>& lq = scratch.lq;
  std::vector<double>& ldiag = scratch.ldiag;
  std::vector<Index>& lt = scratch.lt;
  std::vector<Index>& lplace = scratch.lplace;
  lq.resize(n_low), ldiag.resize(n_low), lt.resize(n_low), lplace.resize(n_low);
  for (std::size_t r = 0; r < n_low; ++r) {
    const Index t = low[r].second;
    lq[r] = low[r].first;
    ldiag[r] = s.diag(t);
    lt[r] = t;
    lplace[r] = s.where(t);
  }
  std::vector<Index>& firsts = scratch.firsts;
  firsts.clear();
  for (std::size_t k = 0; k < n_first; ++k) firsts.push_back(up[k].second);
  std::vector<const float*>& cols = scratch.cols;
  fetch_columns(firsts, cols);
  // The gain of pairing i (q_i, K_ii, column Ki) with low candidate r.
  const auto gain_of = [&](double qi, double Kii, const float* Ki, std::size_t r, double min_b) {
    return pair_gain(qi, Kii, lq[r], ldiag[r], static_cast<double>(Ki[lplace[r]]), min_b);
  };
  // Records pair k: i with the low candidate jr (n_low: none).
  const auto take = [&](Index i, std::size_t jr) {
    if (jr == n_low) return;
    const Index j = lt[jr];
    used[static_cast<std::size_t>(i)] = 1;
    used[static_cast<std::size_t>(j)] = 1;
    ws.first.push_back(i);
    ws.second.push_back(j);
  };
  if (min_alpha_check == 0 && n_first > 1 && s.jobs() > 1 && static_cast<double>(n_low) >= kPipelineFrom) {
    pipelined_walk(s, firsts, cols, n_low, tol, used, take, scratch);
  } else {
    for (std::size_t k = 0; k < n_first; ++k) {
      const Index i = firsts[k];
      if (used[static_cast<std::size_t>(i)]) continue;
      const double qi = s.q(i), Kii = s.diag(i);
      const float* Ki = cols[k];
      const double min_b = ws.empty() ? 0.0 : tol;
      std::size_t jr = n_low;
      if (min_alpha_check == 0) {
        // Used j are out (their q set to +inf below); so are earlier i (the i
        // come in descending q, so b <= 0 for them) and i itself (b = 0).
        jr = static_cast<std::size_t>(best_partner(lq.data(), ldiag.data(), Ki, lplace.data(),
                                                   static_cast<Index>(n_low), qi, Kii, min_b, kTau));
      } else {
        // The min_alpha_check unused candidates with the smallest q.
        double best = 0.0;
        std::size_t checked = 0;
        const std::size_t limit = static_cast<std::size_t>(min_alpha_check);
        for (std::size_t r = 0; r < n_low && checked < limit; ++r) {
          const Index t = lt[r];
          if (used[static_cast<std::size_t>(t)] || t == i) continue;
          ++checked;
          const double gain = gain_of(qi, Kii, Ki, r, min_b);
          if (gain > best) {
            best = gain;
            jr = r;
          }
        }
      }
      if (jr == n_low) continue;
      lq[jr] = std::numeric_limits<double>::infinity();
      take(i, jr);
    }
  }
  for (Index t : ws.first) used[static_cast<std::size_t>(t)] = 0;
  for (Index t : ws.second) used[static_cast<std::size_t>(t)] = 0;
  return ws;
}

/// select_pairs with a scratch of its own (for one-off calls).
template <class FetchColumns>
WorkingSet select_pairs(const DualState& s, const std::vector<Index>& candidates, int pairs,
                        Index min_alpha_check, double tol, std::vector<char>& used,
                        FetchColumns&& fetch_columns) {
  PairsScratch scratch;
  return select_pairs(s, candidates, pairs, min_alpha_check, tol, used, std::forward<FetchColumns>(fetch_columns),
                      scratch);
}

}  // namespace budgetsvm::exact
