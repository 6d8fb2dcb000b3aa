// LRU cache of kernel columns for the exact (decomposition) SVM solvers.
//
// A column is k(x_t, x_j) over training positions t, keyed by the training
// position j. Columns are stored as float (as LIBSVM stores Q), bounded in
// bytes (cache_size in MB, as LIBSVM and scikit-learn), with O(1) look-up
// (position -> slot table) and least-recently-used eviction (an intrusive
// doubly linked list over the slots). The columns a request misses are
// computed together, by one block product X_rows * X_B^T for the whole
// working set, split over n_jobs threads by rows.
//
// Shortened columns (LIBSVM's Cache::get_data and swap_index): the cache
// keeps a permutation `order` of the positions, and a column is stored in
// that order as a prefix of some length: entry k holds k(x_order[k], x_j).
// A solver keeps its active (not shrunk) positions as a prefix of the order
// and asks for columns of the active length only; a cached column shorter
// than the request is extended (only the missing tail is computed), and the
// memory bound counts stored entries, so shrinking lets more (shorter)
// columns fit. Exchanging two places of the order (shrinking) exchanges the
// stored entries of every cached column (a column that covers the first
// place but not the second is cut back to the first place).
//
// The sources of kernel values (KernelColumnSource) are in kernel_sources.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "../core/errors.hpp"
#include "../core/parallel.hpp"
#include "kernel_sources.hpp"

namespace budgetsvm {

/// Counters of a cache, for tuning and for the user.
struct KernelCacheStats {
  std::int64_t hits = 0;              // column requests served from the cache
  std::int64_t misses = 0;            // column requests that computed (part of) the column
  double kernel_evaluations = 0.0;    // kernel values computed (n per full column)
};

class KernelCache {
 public:
  /// `bytes`: the memory bound of the stored entries. At least
  /// `min_columns` complete columns fit whatever the bound (one working set
  /// must fit), and never more than n complete columns are stored.
  KernelCache(const KernelColumnSource& source, double bytes, Index min_columns) : source_(source) {
    reset(bytes, min_columns);
  }

  /// Empties the cache for the source's current positions (a source whose
  /// rows were changed, set_rows: one-vs-one training solves pair after
  /// pair with one source and one cache), with a new bound; the tables keep
  /// their allocations.
  void reset(double bytes, Index min_columns) {
    require(bytes > 0.0, "cache size must be positive");
    n_ = source_.size();
    const Index n = std::max<Index>(n_, 1);
    const double fit = std::floor(bytes / sizeof(float));
    const double most = static_cast<double>(n) * static_cast<double>(n);
    max_values_ = static_cast<Index>(std::min(fit, most));
    max_values_ = std::max(max_values_, std::min(min_columns, n_) * n);
    max_values_ = std::max(max_values_, n);
    while (head_ >= 0) evict(head_);
    slots_.clear();
    free_.clear();
    used_ = 0;
    stats_ = KernelCacheStats{};
    slot_of_.assign(static_cast<std::size_t>(n_), -1);
    order_.resize(static_cast<std::size_t>(n_));
    where_.resize(static_cast<std::size_t>(n_));
    for (Index t = 0; t < n_; ++t) order_[static_cast<std::size_t>(t)] = where_[static_cast<std::size_t>(t)] = t;
  }

  /// Complete columns that fit (one request may ask for at most this many).
  Index capacity() const { return max_values_ / std::max<Index>(n_, 1); }
  /// Stored kernel values the memory bound allows.
  Index max_values() const { return max_values_; }
  /// Kernel values stored (allocated) now.
  Index stored() const { return used_; }
  Index size() const { return n_; }
  const KernelCacheStats& stats() const { return stats_; }
  const VectorXd& diagonal() const { return source_.diagonal(); }

  /// The order of the positions in stored columns: entry k of a column is
  /// position order()[k]; where(t) is the place of position t.
  const std::vector<Index>& order() const { return order_; }
  Index where(Index t) const { return where_[static_cast<std::size_t>(t)]; }
  const Index* where_data() const { return where_.data(); }

  /// Exchanges places a < b of the order, for every (a, b) in turn, and the
  /// entries of every stored column with them (LIBSVM's swap_index): a
  /// column covering a but not b is cut back to length a.
  void swap_places(const std::vector<std::pair<Index, Index>>& swaps, int n_jobs = 1) {
    if (swaps.empty()) return;
    for (const auto& [a, b] : swaps) {
      require(a >= 0 && a < b && b < n_, "swap_places needs 0 <= a < b < n");
      std::swap(order_[static_cast<std::size_t>(a)], order_[static_cast<std::size_t>(b)]);
      where_[static_cast<std::size_t>(order_[static_cast<std::size_t>(a)])] = a;
      where_[static_cast<std::size_t>(order_[static_cast<std::size_t>(b)])] = b;
    }
    // Slot by slot: each column's entries are touched in one pass; the
    // columns are independent, so they are split over n_jobs threads.
    stored_.clear();
    for (int s = head_; s >= 0; s = slots_[static_cast<std::size_t>(s)].next) stored_.push_back(s);
    const double work = static_cast<double>(stored_.size()) * static_cast<double>(swaps.size());
    RunControl unpolled;  // short: the solvers poll between calls
    parallel_ranges(static_cast<Index>(stored_.size()), threads_for(n_jobs, work), unpolled,
                    [&](Index begin, Index end, RunControl&) {
                      for (Index k = begin; k < end; ++k) {
                        Slot& slot = slots_[static_cast<std::size_t>(stored_[static_cast<std::size_t>(k)])];
                        float* data = slot.data.get();
                        for (const auto& [a, b] : swaps) {
                          if (slot.length <= a) continue;
                          if (slot.length > b) std::swap(data[a], data[b]);
                          else slot.length = a;
                        }
                      }
                    });
  }

  /// Points out[c] at column cols[c] (distinct positions, at most
  /// capacity()), valid at least at places 0..length-1 (positions
  /// order()[0..length-1]). Columns stored shorter are extended, missing
  /// ones computed, all in blocks. Pointers stay valid until the next call
  /// of fetch or swap_places.
  void fetch(const std::vector<Index>& cols, Index length, std::vector<const float*>& out) {
    require(static_cast<Index>(cols.size()) <= capacity(), "working set larger than the kernel cache");
    require(length >= 0 && length <= n_, "column length out of range");
    out.assign(cols.size(), nullptr);
    // Every requested column that is stored moves to the front, so that
    // evictions below never take a column of this request.
    missing_.clear();
    Index need = 0;
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const int s = slot_of_[static_cast<std::size_t>(cols[c])];
      if (s >= 0) {
        move_to_front(s);
        const Slot& slot = slots_[static_cast<std::size_t>(s)];
        if (slot.length >= length) {
          out[c] = slot.data.get();
          ++stats_.hits;
          continue;
        }
        need += std::max<Index>(0, length - slot.allocated);
      } else {
        need += length;
      }
      missing_.push_back(c);
    }
    if (missing_.empty()) return;
    stats_.misses += static_cast<std::int64_t>(missing_.size());
    while (used_ + need > max_values_ && tail_ >= 0 && !requested(cols, tail_)) evict(tail_);
    // Make room in every slot; group the missing tails by where they start.
    groups_.clear();
    for (std::size_t c : missing_) {
      const Index j = cols[c];
      int s = slot_of_[static_cast<std::size_t>(j)];
      if (s < 0) s = new_slot(j);
      Slot& slot = slots_[static_cast<std::size_t>(s)];
      if (slot.allocated < length) {
        std::unique_ptr<float[]> grown(new float[static_cast<std::size_t>(length)]);
        std::copy(slot.data.get(), slot.data.get() + slot.length, grown.get());
        slot.data = std::move(grown);
        used_ += length - slot.allocated;
        slot.allocated = length;
      }
      groups_.emplace_back(slot.length, c);
      out[c] = slot.data.get();
    }
    std::sort(groups_.begin(), groups_.end());
    for (std::size_t g = 0; g < groups_.size();) {
      const Index from = groups_[g].first;
      block_cols_.clear();
      targets_.clear();
      for (; g < groups_.size() && groups_[g].first == from; ++g) {
        const std::size_t c = groups_[g].second;
        Slot& slot = slots_[static_cast<std::size_t>(slot_of_[static_cast<std::size_t>(cols[c])])];
        block_cols_.push_back(cols[c]);
        targets_.push_back(slot.data.get() + from);
        slot.length = length;
      }
      source_.compute_at_places(block_cols_, order_.data(), from, length - from, targets_.data());
      stats_.kernel_evaluations += static_cast<double>(length - from) * static_cast<double>(block_cols_.size());
    }
  }

  /// Computes columns outside the cache: out[c][r] = k(x_rows[r], x_cols[c])
  /// (for one-off uses such as gradient reconstruction); counted in
  /// kernel_evaluations only.
  void compute_uncached(const std::vector<Index>& cols, const Index* rows, Index n_rows, float* const* out) {
    source_.compute(cols, rows, n_rows, out);
    stats_.kernel_evaluations += static_cast<double>(n_rows) * static_cast<double>(cols.size());
  }

  /// Column j if stored with at least `length` entries, else nullptr; no
  /// change to the LRU order or the counters. Valid until the next fetch.
  const float* peek(Index j, Index length) const {
    const int s = slot_of_[static_cast<std::size_t>(j)];
    if (s < 0 || slots_[static_cast<std::size_t>(s)].length < length) return nullptr;
    return slots_[static_cast<std::size_t>(s)].data.get();
  }

  /// Number of valid entries stored for column j (0: not stored).
  Index stored_length(Index j) const {
    const int s = slot_of_[static_cast<std::size_t>(j)];
    return s < 0 ? 0 : slots_[static_cast<std::size_t>(s)].length;
  }

 private:
  struct Slot {
    std::unique_ptr<float[]> data;
    Index key = -1;
    Index length = 0;     // valid entries (places 0..length-1)
    Index allocated = 0;  // entries of data
    int prev = -1, next = -1;
  };

  bool requested(const std::vector<Index>& cols, int s) const {
    const Index key = slots_[static_cast<std::size_t>(s)].key;
    return std::find(cols.begin(), cols.end(), key) != cols.end();
  }

  int new_slot(Index j) {
    int s;
    if (!free_.empty()) {
      s = free_.back();
      free_.pop_back();
    } else {
      slots_.emplace_back();
      s = static_cast<int>(slots_.size() - 1);
    }
    Slot& slot = slots_[static_cast<std::size_t>(s)];
    slot.key = j;
    slot.length = slot.allocated = 0;
    slot_of_[static_cast<std::size_t>(j)] = s;
    link_front(s);
    return s;
  }

  void evict(int s) {
    unlink(s);
    Slot& slot = slots_[static_cast<std::size_t>(s)];
    slot_of_[static_cast<std::size_t>(slot.key)] = -1;
    used_ -= slot.allocated;
    slot.data.reset();
    slot.key = -1;
    slot.length = slot.allocated = 0;
    free_.push_back(s);
  }

  void unlink(int s) {
    Slot& slot = slots_[static_cast<std::size_t>(s)];
    if (slot.prev >= 0) slots_[static_cast<std::size_t>(slot.prev)].next = slot.next; else head_ = slot.next;
    if (slot.next >= 0) slots_[static_cast<std::size_t>(slot.next)].prev = slot.prev; else tail_ = slot.prev;
    slot.prev = slot.next = -1;
  }
  void link_front(int s) {
    Slot& slot = slots_[static_cast<std::size_t>(s)];
    slot.prev = -1;
    slot.next = head_;
    if (head_ >= 0) slots_[static_cast<std::size_t>(head_)].prev = s;
    head_ = s;
    if (tail_ < 0) tail_ = s;
  }
  void move_to_front(int s) {
    if (head_ == s) return;
    unlink(s);
    link_front(s);
  }

  const KernelColumnSource& source_;
  Index n_;
  Index max_values_ = 1;  // kernel values
  Index used_ = 0;
  std::vector<Slot> slots_;
  std::vector<int> free_;
  std::vector<int> slot_of_;
  std::vector<Index> order_, where_;
  int head_ = -1, tail_ = -1;
  KernelCacheStats stats_;
  std::vector<std::size_t> missing_;
  std::vector<std::pair<Index, std::size_t>> groups_;
  std::vector<Index> block_cols_;
  std::vector<float*> targets_;
  std::vector<int> stored_;  // swap_places: the slots holding columns
};

}  // namespace budgetsvm
