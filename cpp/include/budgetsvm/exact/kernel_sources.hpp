// Sources of kernel columns for the exact (decomposition) SVM solvers and
// their kernel cache (kernel_cache.hpp): a data view (dense or CSR, any
// layout the core reads) with a kernel function and an optional subset of
// its rows, or a user-supplied precomputed kernel matrix.
//
// A block of columns is computed from the dot products of the rows against
// the working set's rows (gathered dense), then turned into kernel values by
// Kernel::row_from_dots and stored as float. For rbf, the gathered rows are
// shifted by the reference point of the training rows (centre.hpp), so that
// features far from the origin do not cancel the distances.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "../core/centre.hpp"
#include "../core/control.hpp"
#include "../core/data_view.hpp"
#include "../core/errors.hpp"
#include "../core/kernel_function.hpp"
#include "../core/parallel.hpp"
#include "../core/simd.hpp"
#include "simd_exact.hpp"

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
  /// Not for concurrent calls (a source may keep buffers between calls; the
  /// cache makes one at a time).
  virtual void compute(const std::vector<Index>& cols, const Index* rows, Index n_rows,
                       float* const* out) const = 0;
  /// The same values as compute(cols, order + from, n_rows, out), for the
  /// kernel cache's place order (kernel_cache.hpp: order[0..size()) is a
  /// permutation of the positions). A source may keep a copy of its rows in
  /// that order, so that a block of places is read where it lies instead of
  /// being gathered; it then updates the copy where the order changed. Not
  /// for concurrent calls (the cache makes one at a time).
  virtual void compute_at_places(const std::vector<Index>& cols, const Index* order, Index from, Index n_rows,
                                 float* const* out) const {
    compute(cols, order + from, n_rows, out);
  }
  /// True when the rows are sparse and too sparse to gather densely: each
  /// kernel value then costs a sparse product, several times a value of the
  /// dense tiles (the exact solvers' automatic choice reads it).
  virtual bool sparse_rows() const { return false; }
};

namespace detail {

/// Turns the transposed block Gt(c, r) = <x_r, y_c - c> (m x rows) into
/// the kernel columns out[c][start + r], one per row of Gt, in single
/// precision; <c, y_c - c> (cdot, with an active centre) is taken off first.
inline void column_dots_to_columns(const Kernel& kernel, const simd::Kernels& simd, const Centre& centre,
                                   const VectorXd& cdot, MatrixXd& Gt, const VectorXd& norm_rows,
                                   const VectorXd& norm_cols, float* const* out, Index start) {
  const Index m = Gt.rows(), rows = Gt.cols();
  const bool rbf = kernel.needs_norms();
  if (rbf && kernel.type == KernelType::rbf) {
    if (const simd::RbfColumnToFloat fused = simd::rbf_column_to_float_for(simd.level)) {
      for (Index c = 0; c < m; ++c)
        fused(Gt.row(c).data(), centre.active() ? cdot[c] : 0.0, norm_rows.data(), norm_cols[c], kernel.gamma, rows,
              out[c] + start);
      return;
    }
  }
  for (Index c = 0; c < m; ++c) {
    double* col = Gt.row(c).data();
    if (centre.active())
      for (Index r = 0; r < rows; ++r) col[r] -= cdot[c];
    kernel.row_from_dots(simd, col, rbf ? norm_cols[c] : 0.0, norm_rows.data(), rows, col);
    float* o = out[c] + start;
    for (Index r = 0; r < rows; ++r) o[r] = static_cast<float>(col[r]);
  }
}

/// Turns a block of dot products G(r, c) = <x_r, y_c - c> (rows x m) into
/// the kernel columns out[c][start + r] = k(x_r, y_c), in single precision
/// (the precision of the cache); <c, y_c - c> (cdot, with an active centre)
/// is taken off first. Kernel::row_from_dots runs along the longer side: the
/// rows of G when m is wide enough to vectorise, else the columns of its
/// transpose Gt (SMO asks for two columns at a time); the Gaussian with
/// AVX2 or AVX-512 always along the columns, in one pass per column.
inline void dots_to_columns(const Kernel& kernel, const simd::Kernels& simd, const Centre& centre,
                            const VectorXd& cdot, MatrixXd& G, const VectorXd& norm_rows,
                            const VectorXd& norm_cols, MatrixXd& Gt, float* const* out, Index start) {
  const Index m = G.cols();
  // The Gaussian's one-pass kernel wants whole columns (simd_exact.hpp).
  const bool fused = kernel.type == KernelType::rbf && simd::rbf_column_to_float_for(simd.level) != nullptr;
  if (m < 8 || fused) {
    Gt = G.transpose();
    column_dots_to_columns(kernel, simd, centre, cdot, Gt, norm_rows, norm_cols, out, start);
    return;
  }
  const Index rows = G.rows();
  if (centre.active()) G.rowwise() -= cdot.transpose();
  kernel.apply(G, norm_rows, norm_cols, simd);
  // Eight columns at a time: a row of G is read a cache line at a time and
  // each output column is written contiguously.
  for (Index c0 = 0; c0 < m; c0 += 8) {
    const Index width = std::min<Index>(8, m - c0);
    float* o[8];
    for (Index c = 0; c < width; ++c) o[c] = out[c0 + c] + start;
    for (Index r = 0; r < rows; ++r) {
      const double* k = G.data() + r * m + c0;
      for (Index c = 0; c < width; ++c) o[c][r] = static_cast<float>(k[c]);
    }
  }
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
      : X_(X), kernel_(kernel), n_jobs_(std::max(1, n_jobs)), simd_(simd) {
    kernel_.validate();
    set_rows(subset);
  }

  /// Makes the source one over other rows of X (as constructed with this
  /// subset; empty: all rows). One-vs-one training moves one source from
  /// pair to pair instead of building one per pair.
  void set_rows(const std::vector<Index>& subset) {
    subset_.assign(subset.begin(), subset.end());  // keeps the allocation
    placed_.resize(0, 0);  // the copy in place order is of the old rows
    placed_order_.clear();
    centre_ = Centre{};
    if (subset_.empty()) {
      subset_.resize(static_cast<std::size_t>(X_.rows()));
      for (Index t = 0; t < X_.rows(); ++t) subset_[static_cast<std::size_t>(t)] = t;
    }
    for (Index r : subset_) require(r >= 0 && r < X_.rows(), "row index out of range");
    const Index n = size();
    if (kernel_.needs_norms()) centre_ = choose_centre(X_, subset_);
    norms_.resize(n);
    diagonal_.resize(n);
    std::vector<char> mark;
    for (Index t = 0; t < n; ++t) {
      norms_[t] = centred_squared_norm(X_, row(t), centre_, mark);
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
    dense_rows_ = !View::is_sparse || densify_;
    n_ = n;
  }

  Index size() const override { return static_cast<Index>(subset_.size()); }
  const VectorXd& diagonal() const override { return diagonal_; }
  bool sparse_rows() const override { return !dense_rows_; }

  void compute(const std::vector<Index>& cols, const Index* rows, Index n_rows,
               float* const* out) const override {
    compute_block(cols, rows, n_rows, out, nullptr);
  }

  /// Dense rows with more than a few columns read a block of places from a
  /// copy of the rows held feature-major in the cache's place order
  /// (placed_), made on the first such call and mended where the order has
  /// changed since (shrinking swaps places): each block used to gather and
  /// transpose its rows afresh. The copy holds d x n doubles, made only when
  /// it stays within kPlacedBytes; the values are the same either way.
  void compute_at_places(const std::vector<Index>& cols, const Index* order, Index from, Index n_rows,
                         float* const* out) const override {
    const Index m = static_cast<Index>(cols.size());
    const double bytes = static_cast<double>(n_) * static_cast<double>(X_.cols()) * sizeof(double);
    if (m <= kFewColumns || !dense_rows_ || simd_.level < simd::Level::avx2 || bytes > kPlacedBytes || n_rows == 0) {
      compute(cols, order + from, n_rows, out);
      return;
    }
    place_rows(order, from, n_rows);
    compute_block(cols, order + from, n_rows, out, placed_.data() + from);
  }

 private:
  static constexpr Index kFewColumns = 4;
  static constexpr double kPlacedBytes = 256.0 * 1024.0 * 1024.0;

  /// placed_(k, p) = feature k of the row at place p, for p in [from, from + count).
  void place_rows(const Index* order, Index from, Index count) const {
    const Index d = X_.cols();
    if (placed_.rows() != d || placed_.cols() != n_) {
      placed_.resize(d, n_);
      placed_order_.assign(static_cast<std::size_t>(n_), -1);
    }
    std::vector<Index> places, x_rows;
    for (Index p = from; p < from + count; ++p) {
      if (placed_order_[static_cast<std::size_t>(p)] == order[p]) continue;
      places.push_back(p);
      x_rows.push_back(row(order[p]));
      placed_order_[static_cast<std::size_t>(p)] = order[p];
    }
    constexpr std::size_t kBlock = 256;
    MatrixXd rows;
    std::vector<Index> block;  // one block's rows of X (reused)
    for (std::size_t b = 0; b < places.size(); b += kBlock) {
      const std::size_t e = std::min(places.size(), b + kBlock);
      block.assign(x_rows.begin() + static_cast<std::ptrdiff_t>(b), x_rows.begin() + static_cast<std::ptrdiff_t>(e));
      gather_rows(X_, block, rows);
      for (std::size_t r = b; r < e; ++r)
        for (Index k = 0; k < d; ++k) placed_(k, places[r]) = rows(static_cast<Index>(r - b), k);
    }
  }

  /// compute(), with `placed` (or nullptr): the block's rows feature-major,
  /// feature k of row r at placed[k * n + r] (placed_ from the block's place).
  void compute_block(const std::vector<Index>& cols, const Index* rows, Index n_rows, float* const* out,
                     const double* placed) const {
    const Index m = static_cast<Index>(cols.size());
    if (m == 0 || n_rows == 0) return;
    // Buffers kept between calls (one call at a time: the cache's), so that
    // the small blocks of small problems (one-vs-one pairs) allocate nothing.
    Buffers& b = buffers_;
    std::vector<Index>& x_rows = b.x_rows;
    x_rows.resize(cols.size());
    VectorXd& col_norms = b.col_norms;
    col_norms.resize(m);
    for (Index c = 0; c < m; ++c) {
      x_rows[static_cast<std::size_t>(c)] = row(cols[static_cast<std::size_t>(c)]);
      col_norms[c] = norms_[cols[static_cast<std::size_t>(c)]];
    }
    MatrixXd& Y = b.Y;  // the working set's rows, dense (m x d), shifted by the centre
    gather_rows(X_, x_rows, Y);
    VectorXd& cdot = b.cdot;
    cdot.resize(m);
    if (centre_.active())
      for (Index c = 0; c < m; ++c) {
        centre_.shift(Y.row(c).data());
        cdot[c] = centre_.dot(Y.row(c).data());
      }
    const double work = static_cast<double>(n_rows) * static_cast<double>(m) *
                        static_cast<double>(std::max<Index>(1, X_.cols()));
    // More than a few columns: sparse rows, per row, the stored entries of
    // x_r against the working set held feature-major (Yt: one contiguous
    // row of m values per feature), vectorised over the m columns; dense
    // rows the other way round, the working set's rows against a chunk of
    // rows held feature-major, vectorised over the chunk (simd.hpp). A
    // plain build's Eigen GEMM is the better choice for dense rows only when
    // no AVX2 is available (docs/development/decisions.md, "The exact SVM",
    // lists the alternatives measured and dropped).
    // dense_rows_: dense X, or sparse rows dense enough to gather.
    const bool use_dots = m > kFewColumns && (!dense_rows_ || simd_.level >= simd::Level::avx2);
    MatrixXd Yt;
    if (use_dots && !dense_rows_) Yt = Y.transpose();
    std::vector<const double*>& y_ptrs = b.y_ptrs;
    y_ptrs.resize(static_cast<std::size_t>(m));
    for (Index c = 0; c < m; ++c) y_ptrs[static_cast<std::size_t>(c)] = Y.row(c).data();
    // Threads only when the work pays for them; the solvers poll Ctrl-C
    // between blocks.
    RunControl unpolled;
    const int threads = threads_for(n_jobs_, work);
    parallel_ranges(n_rows, threads, unpolled, [&](Index begin, Index end, RunControl&) {
      constexpr Index chunk = 256;
      TaskBuffers own;
      TaskBuffers& w = threads == 1 ? b.task : own;  // one task: the kept buffers
      MatrixXd &Xc = w.Xc, &Xt = w.Xt, &G = w.G, &Gt = w.Gt;
      VectorXd& chunk_norms = w.chunk_norms;
      std::vector<Index>& chunk_rows = w.chunk_rows;
      std::vector<Index>& idx = w.idx;
      std::vector<double>& val = w.val;
      std::vector<const double*>& row_ptrs = w.row_ptrs;
      for (Index start = begin; start < end; start += chunk) {
        const Index stop = std::min(end, start + chunk), size = stop - start;
        G.resize(size, m);
        chunk_norms.resize(size);
        for (Index r = 0; r < size; ++r) chunk_norms[r] = norms_[rows[start + r]];
        if (m <= kFewColumns) {
          // A pair or so of columns: dot products straight from the view
          // (gathering the rows would cost as much as the products).
          if constexpr (!View::is_sparse && View::is_row_major && std::is_same_v<typename View::Scalar, double>) {
            // rows of doubles in place: several rows' dots reduced together
            // (SMO's columns on small dense problems spend much of their
            // time here), written straight into the transposed block
            row_ptrs.resize(static_cast<std::size_t>(size));
            for (Index r = 0; r < size; ++r) row_ptrs[static_cast<std::size_t>(r)] = X_.row_data(row(rows[start + r]));
            Gt.resize(m, size);
            simd_.row_dots(row_ptrs.data(), size, X_.cols(), Y.data(), Y.cols(), m, Gt.data(), size);
            detail::column_dots_to_columns(kernel_, simd_, centre_, cdot, Gt, chunk_norms, col_norms, out, start);
            continue;
          } else {
            for (Index r = 0; r < size; ++r) {
              const Index x = row(rows[start + r]);
              for (Index c = 0; c < m; ++c) G(r, c) = X_.dot(x, Y.row(c).data());
            }
          }
        } else if (use_dots && dense_rows_) {
          // Dense rows, transposed: the working set's rows, four at a time,
          // against the chunk's rows held feature-major (each load of Xt
          // serves four columns), so that each kernel column comes out as
          // one contiguous row of Gt, converted to float in one pass.
          const Index d = X_.cols();
          const double* tile = placed ? placed + start : nullptr;
          if (!placed) {
            Xt.resize(d, size);
            if constexpr (!View::is_sparse && View::is_row_major && std::is_same_v<typename View::Scalar, double>) {
              for (Index r = 0; r < size; ++r) {
                const double* x = X_.row_data(row(rows[start + r]));
                for (Index k = 0; k < d; ++k) Xt(k, r) = x[k];
              }
            } else {
              chunk_rows.resize(static_cast<std::size_t>(size));
              for (Index r = 0; r < size; ++r) chunk_rows[static_cast<std::size_t>(r)] = row(rows[start + r]);
              gather_rows(X_, chunk_rows, Xc);
              Xt = Xc.transpose();
            }
            tile = Xt.data();
          }
          Gt.resize(m, size);
          simd_.dense_dots(y_ptrs.data(), m, d, tile, placed ? n_ : size, size, Gt.data(), size);
          detail::column_dots_to_columns(kernel_, simd_, centre_, cdot, Gt, chunk_norms, col_norms, out, start);
          continue;
        } else if (use_dots) {
          if constexpr (View::is_sparse) {  // use_dots and not dense_rows_: sparse rows
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
        detail::dots_to_columns(kernel_, simd_, centre_, cdot, G, chunk_norms, col_norms, Gt, out, start);
      }
    });
  }

  Index row(Index t) const { return subset_[static_cast<std::size_t>(t)]; }

  View X_;
  Kernel kernel_;
  std::vector<Index> subset_;
  int n_jobs_;
  simd::Kernels simd_;
  Centre centre_;     // rbf: the reference point of the rows (centre.hpp)
  VectorXd norms_, diagonal_;  // squared norms of the shifted rows; k(x_t, x_t)
  bool densify_ = false;  // sparse X, but dense enough for gather + GEMM
  bool dense_rows_ = true;  // dense X, or sparse X with densify_
  Index n_ = 0;           // positions
  struct TaskBuffers {  // compute_block's per-task buffers
    MatrixXd Xc, Xt, G, Gt;
    VectorXd chunk_norms;
    std::vector<Index> chunk_rows, idx;
    std::vector<double> val;
    std::vector<const double*> row_ptrs;
  };
  struct Buffers {  // compute_block's, kept between its calls (one at a time)
    std::vector<Index> x_rows;
    VectorXd col_norms, cdot;
    MatrixXd Y;
    std::vector<const double*> y_ptrs;
    TaskBuffers task;  // the one task of a call on one thread
  };
  mutable Buffers buffers_;
  mutable MatrixXd placed_;  // compute_at_places: d x n, the rows feature-major in place order
  mutable std::vector<Index> placed_order_;  // the position whose row column p of placed_ holds (-1: none)
};

/// Kernel columns read from a precomputed, row-major n_total x n_total
/// kernel matrix, optionally restricted to a subset of its rows and columns.
class PrecomputedKernelSource final : public KernelColumnSource {
 public:
  PrecomputedKernelSource(const double* K, Index n_total, const std::vector<Index>& subset)
      : K_(K), n_total_(n_total) {
    set_rows(subset);
  }
  /// As ViewKernelSource::set_rows.
  void set_rows(const std::vector<Index>& subset) {
    subset_.assign(subset.begin(), subset.end());
    if (subset_.empty()) {
      subset_.resize(static_cast<std::size_t>(n_total_));
      for (Index t = 0; t < n_total_; ++t) subset_[static_cast<std::size_t>(t)] = t;
    }
    for (Index r : subset_) require(r >= 0 && r < n_total_, "row index out of range");
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

}  // namespace budgetsvm
