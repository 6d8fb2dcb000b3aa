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
// Sources of kernel values (KernelColumnSource): a data view (dense or CSR,
// any layout the core reads) with a kernel function and an optional subset of
// its rows, or a user-supplied precomputed kernel matrix.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "data_view.hpp"
#include "errors.hpp"
#include "kernel.hpp"
#include "simd.hpp"

namespace budgetsvm {

/// Computes blocks of kernel columns over training positions 0..size()-1.
class KernelColumnSource {
 public:
  virtual ~KernelColumnSource() = default;
  /// Number of training positions.
  virtual Index size() const = 0;
  /// k(x_t, x_t) for every position.
  virtual const VectorXd& diagonal() const = 0;
  /// For every c and every r < n_rows: out[c][r] = k(x_rows[r], x_cols[c]).
  virtual void compute(const std::vector<Index>& cols, const Index* rows, Index n_rows,
                       float* const* out) const = 0;
};

namespace detail {

/// Runs f(begin, end) over [0, n) split into `jobs` contiguous ranges, in
/// parallel threads when the work is large enough to pay for them.
template <class F>
void parallel_ranges(Index n, int jobs, double work, F&& f) {
  const int threads = (jobs > 1 && work > 1.0e6) ? static_cast<int>(std::min<Index>(jobs, n)) : 1;
  if (threads <= 1) {
    f(Index{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  const Index step = (n + threads - 1) / threads;
  for (int t = 1; t < threads; ++t) {
    const Index begin = std::min(n, t * step), end = std::min(n, (t + 1) * step);
    pool.emplace_back([&, t, begin, end] {
      try {
        f(begin, end);
      } catch (...) {
        errors[static_cast<std::size_t>(t)] = std::current_exception();
      }
    });
  }
  try {
    f(Index{0}, std::min(n, step));
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

/// Float matrix of a block of kernel values (row-major, rows x columns).
using BlockF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Turns a block of dot products G(r, c) = <x_r, z_c> into kernel values,
/// written to K in single precision (the precision of the cache). The
/// Gaussian's exponential runs vectorised (simd.hpp) over the whole block,
/// in double, rounded once to float.
inline void dots_to_kernel(const Kernel& kernel, const simd::Kernels& simd, MatrixXd& G,
                           const VectorXd& norm_rows, const VectorXd& norm_cols, BlockF& K) {
  const Index rows = G.rows(), cols = G.cols();
  K.resize(rows, cols);
  switch (kernel.type) {
    case KernelType::rbf: {
      // -gamma ||x_r - z_c||^2 = -gamma (|x_r|^2 + |z_c|^2 - 2 <x_r, z_c>),
      // the distance clamped at 0, in place; then one exp over the block.
      const double g = -kernel.gamma;
      for (Index r = 0; r < rows; ++r) {
        double* dot = G.row(r).data();
        const double nr = norm_rows[r];
        for (Index c = 0; c < cols; ++c) dot[c] = g * std::max(0.0, nr + norm_cols[c] - 2.0 * dot[c]);
      }
      simd.exp_to_float(G.data(), rows * cols, K.data());
      return;
    }
    case KernelType::linear: break;
    case KernelType::poly:
    case KernelType::sigmoid: kernel.apply(G, norm_rows, norm_cols); break;
  }
  K = G.cast<float>();
}

/// The stored entries of sparse row i as (feature, value) lists for
/// simd::Kernels::dots (dense rows go through dense_dots instead).
struct RowEntries {
  const Index* idx = nullptr;
  const double* val = nullptr;
  Index nnz = 0;
};

template <class View>
RowEntries row_entries(const View& X, Index i, std::vector<Index>& idx, std::vector<double>& val) {
  const Index nnz = X.row_nnz(i);
  idx.resize(static_cast<std::size_t>(nnz));
  val.resize(static_cast<std::size_t>(nnz));
  X.copy_entries(i, idx.data(), val.data());
  return {idx.data(), val.data(), nnz};
}

}  // namespace detail

/// Kernel columns of a data view (dense or CSR), optionally restricted to a
/// subset of its rows (`subset[t]` is the row of X at training position t).
template <class View>
class ViewKernelSource final : public KernelColumnSource {
 public:
  ViewKernelSource(const View& X, const Kernel& kernel, std::vector<Index> subset, int n_jobs,
                   const simd::Kernels& simd = simd::active_kernels())
      : X_(X), kernel_(kernel), subset_(std::move(subset)), n_jobs_(std::max(1, n_jobs)), simd_(simd) {
    kernel_.validate();
    if (subset_.empty()) {
      subset_.resize(static_cast<std::size_t>(X.rows()));
      for (Index t = 0; t < X.rows(); ++t) subset_[static_cast<std::size_t>(t)] = t;
    }
    for (Index r : subset_) require(r >= 0 && r < X.rows(), "row index out of range");
    const Index n = size();
    norms_.resize(n);
    diagonal_.resize(n);
    for (Index t = 0; t < n; ++t) {
      norms_[t] = X_.squared_norm(row(t));
      diagonal_[t] = kernel_.from_dot(norms_[t], norms_[t], norms_[t]);
    }
    if constexpr (View::is_sparse) {
      // Gathering a sparse row densely costs d writes; the GEMM then beats
      // the per-entry axpy loop unless rows are very sparse.
      double stored = 0.0;
      for (Index t = 0; t < n; ++t) stored += static_cast<double>(X_.row_nnz(row(t)));
      const double cells = static_cast<double>(std::max<Index>(n, 1)) * static_cast<double>(X_.cols());
      densify_ = X_.cols() <= 64 || stored >= 0.25 * cells;
    }
  }

  Index size() const override { return static_cast<Index>(subset_.size()); }
  const VectorXd& diagonal() const override { return diagonal_; }

  void compute(const std::vector<Index>& cols, const Index* rows, Index n_rows,
               float* const* out) const override {
    const Index m = static_cast<Index>(cols.size());
    if (m == 0 || n_rows == 0) return;
    std::vector<Index> x_rows(cols.size());
    VectorXd col_norms(m);
    for (Index c = 0; c < m; ++c) {
      x_rows[static_cast<std::size_t>(c)] = row(cols[static_cast<std::size_t>(c)]);
      col_norms[c] = norms_[cols[static_cast<std::size_t>(c)]];
    }
    MatrixXd Y;  // the working set's rows, dense (m x d)
    gather_rows(X_, x_rows, Y);
    const double work = static_cast<double>(n_rows) * static_cast<double>(m) *
                        static_cast<double>(std::max<Index>(1, X_.cols()));
    // More than a few columns: per row, the stored entries of x_r against
    // the working set held feature-major (Yt: one contiguous row of m
    // values per feature), vectorised over the m columns (simd.hpp); a
    // plain build's Eigen GEMM is the better choice for dense rows only when
    // no AVX2 is available. Measured and dropped (a9a, ijcnn1, cod-rna): the
    // vectorised path for 1-4 columns too, or a two-accumulator loop over Yt
    // for them (SMO 1.3-1.5x slower than the direct dots below); blocks of
    // columns whose part of Yt fits L1 (10% slower); prefetching the rows a
    // few ahead (no change); register-blocked dots (no change per call).
    constexpr Index kFewColumns = 4;
    const bool sparse_loop = View::is_sparse && !densify_;
    const bool use_dots = m > kFewColumns && (sparse_loop || simd_.level >= simd::Level::avx2);
    const bool dense_rows = !sparse_loop;  // dense X, or sparse rows dense enough to gather
    MatrixXd Yt;
    if (use_dots) Yt = Y.transpose();
    detail::parallel_ranges(n_rows, n_jobs_, work, [&](Index begin, Index end) {
      constexpr Index chunk = 256;
      MatrixXd Xc, G;
      detail::BlockF K;
      VectorXd chunk_norms;
      std::vector<Index> chunk_rows, idx;
      std::vector<double> val;
      std::vector<const double*> row_ptrs;
      for (Index start = begin; start < end; start += chunk) {
        const Index stop = std::min(end, start + chunk), size = stop - start;
        G.resize(size, m);
        chunk_norms.resize(size);
        for (Index r = 0; r < size; ++r) chunk_norms[r] = norms_[rows[start + r]];
        if (m <= kFewColumns) {
          // A pair or so of columns: dot products straight from the view
          // (gathering the rows would cost as much as the products).
          for (Index r = 0; r < size; ++r) {
            const Index x = row(rows[start + r]);
            for (Index c = 0; c < m; ++c) G(r, c) = X_.dot(x, Y.row(c).data());
          }
        } else if (use_dots && dense_rows) {
          // Dense rows: four at a time against the columns (each load of Yt
          // serves four rows); rows read in place when X holds them as
          // contiguous doubles, else gathered.
          row_ptrs.resize(static_cast<std::size_t>(size));
          if constexpr (!View::is_sparse && View::is_row_major && std::is_same_v<typename View::Scalar, double>) {
            for (Index r = 0; r < size; ++r) row_ptrs[static_cast<std::size_t>(r)] = X_.row_data(row(rows[start + r]));
          } else {
            chunk_rows.resize(static_cast<std::size_t>(size));
            for (Index r = 0; r < size; ++r) chunk_rows[static_cast<std::size_t>(r)] = row(rows[start + r]);
            gather_rows(X_, chunk_rows, Xc);
            for (Index r = 0; r < size; ++r) row_ptrs[static_cast<std::size_t>(r)] = Xc.row(r).data();
          }
          simd_.dense_dots(row_ptrs.data(), size, X_.cols(), Yt.data(), m, m, G.data(), m);
        } else if (use_dots) {
          if constexpr (View::is_sparse) {  // use_dots and not dense_rows: sparse rows
            for (Index r = 0; r < size; ++r) {
              const detail::RowEntries e = detail::row_entries(X_, row(rows[start + r]), idx, val);
              simd_.dots(Yt.data(), m, m, e.idx, e.val, e.nnz, G.row(r).data());
            }
          }
        } else {
          // Dense rows (or sparse rows dense enough to gather): one GEMM.
          chunk_rows.resize(static_cast<std::size_t>(size));
          for (Index r = 0; r < size; ++r) chunk_rows[static_cast<std::size_t>(r)] = row(rows[start + r]);
          gather_rows(X_, chunk_rows, Xc);
          G.noalias() = Xc * Y.transpose();
        }
        detail::dots_to_kernel(kernel_, simd_, G, chunk_norms, col_norms, K);
        // Eight columns at a time: a row of K is read a cache line at a
        // time and each output column is written contiguously.
        for (Index c0 = 0; c0 < m; c0 += 8) {
          const Index width = std::min<Index>(8, m - c0);
          float* o[8];
          for (Index c = 0; c < width; ++c) o[c] = out[c0 + c] + start;
          for (Index r = 0; r < size; ++r) {
            const float* k = K.data() + r * m + c0;
            for (Index c = 0; c < width; ++c) o[c][r] = k[c];
          }
        }
      }
    });
  }

 private:
  Index row(Index t) const { return subset_[static_cast<std::size_t>(t)]; }

  View X_;
  Kernel kernel_;
  std::vector<Index> subset_;
  int n_jobs_;
  simd::Kernels simd_;
  VectorXd norms_, diagonal_;
  bool densify_ = false;  // sparse X, but dense enough for gather + GEMM
};

/// Kernel columns read from a precomputed, row-major n_total x n_total
/// kernel matrix, optionally restricted to a subset of its rows and columns.
class PrecomputedKernelSource final : public KernelColumnSource {
 public:
  PrecomputedKernelSource(const double* K, Index n_total, std::vector<Index> subset)
      : K_(K), n_total_(n_total), subset_(std::move(subset)) {
    if (subset_.empty()) {
      subset_.resize(static_cast<std::size_t>(n_total));
      for (Index t = 0; t < n_total; ++t) subset_[static_cast<std::size_t>(t)] = t;
    }
    for (Index r : subset_) require(r >= 0 && r < n_total, "row index out of range");
    diagonal_.resize(size());
    for (Index t = 0; t < size(); ++t) diagonal_[t] = K_[row(t) * n_total_ + row(t)];
  }
  Index size() const override { return static_cast<Index>(subset_.size()); }
  const VectorXd& diagonal() const override { return diagonal_; }
  void compute(const std::vector<Index>& cols, const Index* rows, Index n_rows,
               float* const* out) const override {
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const double* line = K_ + row(cols[c]) * n_total_;  // row j = column j (symmetric)
      for (Index r = 0; r < n_rows; ++r) out[c][r] = static_cast<float>(line[row(rows[r])]);
    }
  }

 private:
  Index row(Index t) const { return subset_[static_cast<std::size_t>(t)]; }
  const double* K_;
  Index n_total_;
  std::vector<Index> subset_;
  VectorXd diagonal_;
};

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
  KernelCache(const KernelColumnSource& source, double bytes, Index min_columns)
      : source_(source), n_(source.size()) {
    require(bytes > 0.0, "cache size must be positive");
    const Index n = std::max<Index>(n_, 1);
    const double fit = std::floor(bytes / sizeof(float));
    const double most = static_cast<double>(n) * static_cast<double>(n);
    budget_ = static_cast<Index>(std::min(fit, most));
    budget_ = std::max(budget_, std::min(min_columns, n_) * n);
    budget_ = std::max(budget_, n);
    slot_of_.assign(static_cast<std::size_t>(n_), -1);
    order_.resize(static_cast<std::size_t>(n_));
    where_.resize(static_cast<std::size_t>(n_));
    for (Index t = 0; t < n_; ++t) order_[static_cast<std::size_t>(t)] = where_[static_cast<std::size_t>(t)] = t;
  }

  /// Complete columns that fit (one request may ask for at most this many).
  Index capacity() const { return budget_ / std::max<Index>(n_, 1); }
  /// Stored kernel values the memory bound allows.
  Index budget() const { return budget_; }
  /// Kernel values stored (allocated) now.
  Index stored() const { return used_; }
  Index size() const { return n_; }
  const KernelCacheStats& stats() const { return stats_; }
  const VectorXd& diagonal() const { return source_.diagonal(); }

  /// The order of the positions in stored columns: entry k of a column is
  /// position order()[k]; where(t) is the place of position t.
  const std::vector<Index>& order() const { return order_; }
  Index where(Index t) const { return where_[static_cast<std::size_t>(t)]; }

  /// Exchanges places a < b of the order, for every (a, b) in turn, and the
  /// entries of every stored column with them (LIBSVM's swap_index): a
  /// column covering a but not b is cut back to length a.
  void swap_places(const std::vector<std::pair<Index, Index>>& swaps) {
    if (swaps.empty()) return;
    for (const auto& [a, b] : swaps) {
      require(a >= 0 && a < b && b < n_, "swap_places needs 0 <= a < b < n");
      std::swap(order_[static_cast<std::size_t>(a)], order_[static_cast<std::size_t>(b)]);
      where_[static_cast<std::size_t>(order_[static_cast<std::size_t>(a)])] = a;
      where_[static_cast<std::size_t>(order_[static_cast<std::size_t>(b)])] = b;
    }
    // Slot by slot: each column's entries are touched in one pass.
    for (int s = head_; s >= 0; s = slots_[static_cast<std::size_t>(s)].next) {
      Slot& slot = slots_[static_cast<std::size_t>(s)];
      float* data = slot.data.get();
      for (const auto& [a, b] : swaps) {
        if (slot.length <= a) continue;
        if (slot.length > b) std::swap(data[a], data[b]);
        else slot.length = a;
      }
    }
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
    while (used_ + need > budget_ && tail_ >= 0 && !requested(cols, tail_)) evict(tail_);
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
      source_.compute(block_cols_, order_.data() + from, length - from, targets_.data());
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
  Index budget_ = 1;  // kernel values
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
};

}  // namespace budgetsvm
