// Blocked epochs of the budgeted solvers (docs/budgeted.md, "Blocked
// epochs"): the same steps as one row at a time, with the kernel values
// computed in tiles.
//
// A step of BSGD or BSCA needs the kernel row of its training point against
// the model's support vectors: B kernel values, then the model changes. An
// epoch therefore takes its rows in blocks of b (block_rows, chosen from the
// budget alone). At a block's start, KernelTile computes the kernel values
// of all b rows against the support vectors as they are then, as one tile
// (simd.hpp's dense_dots, the register tiles prediction uses; sparse rows
// one at a time), on up to n_jobs threads: a task is a fixed group of
// kTileTaskRows rows, so each value is computed by the same code whatever
// the number of threads, and the model does not depend on n_jobs.
//
// The steps then run in order. The model tells the tile (SlotObserver,
// model.hpp) which slots change: a slot that gets another point (an
// insertion, a merge's result) is stale, and the next step that asks
// (KernelTile::row) recomputes it: for dense rows its values against the
// rest of the block in one vectorised pass, for sparse rows its value for
// that row. The last slot moving into a removed one takes its column along.
// So each step sees the kernel values of its row against the model as it is
// at that step: the steps, merges and removals of the unblocked epoch, up
// to the order of the dot products' sums. A block of one row is the
// unblocked epoch.
//
// With threads, the next block's rows and tile are computed beside this
// block's steps, from a copy of the support vectors taken at this block's
// start (KernelTile::snapshot / adopt); one thread runs the same schedule,
// so which values come from a tile and which are recomputed never depends
// on n_jobs.
//
// Cost: b B kernel values per block in tiles, plus about one recomputed
// value per stale slot and later row, about b / (2 B) of the tile when
// every step merges: the block size grows with the budget (b = B / 4, at
// most 256 rows and a tile of at most 4 MB).
#pragma once

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "../core/control.hpp"
#include "../core/parallel.hpp"
#include "model.hpp"
#include "rows.hpp"

namespace budgetsvm::budget {

/// Rows per block for a budget B when the caller leaves it to us (0): B / 4
/// rounded down to a multiple of 4, within [16, 256], and at most 2^19
/// doubles (4 MB) of tile.
inline Index block_rows_for(Index budget, Index requested = 0) {
  if (requested > 0) return requested;
  const Index width = budget + 1;
  const Index by_memory = (Index{1} << 19) / std::max<Index>(width, 1);
  const Index b = std::clamp<Index>(std::min(budget / 4, by_memory), 16, 256);
  return b - b % 4;
}

/// The training rows of one block: assigned, then loaded in ranges.
class RowBlock {
 public:
  /// The block's rows ids[0..count) of X, to be loaded by load_rows.
  void assign(const Rows& X, const Index* ids, Index count) {
    if (static_cast<Index>(rows_.size()) < count) rows_.resize(static_cast<std::size_t>(count));
    ids_.assign(ids, ids + count);
    ptr_.resize(static_cast<std::size_t>(count));
    norms_.resize(static_cast<std::size_t>(count));
    count_ = count;
    dense_ = !X.sparse();
    ld_ = count;
    // dense rows also feature-major: a support vector's values against the
    // rows in one vectorised pass per feature (KernelTile::row)
    if (dense_) Xt_.resize(static_cast<std::size_t>(X.cols() * ld_));
  }

  /// Loads rows [r0, r1) of the assigned ones (disjoint ranges may load on
  /// different threads).
  void load_rows(const Rows& X, Index r0, Index r1) {
    for (Index r = r0; r < r1; ++r) {
      SampleRow& row = rows_[static_cast<std::size_t>(r)];
      X.load(ids_[static_cast<std::size_t>(r)], row);
      ptr_[static_cast<std::size_t>(r)] = row.val.data();
      norms_[static_cast<std::size_t>(r)] = row.sqnorm;
      if (dense_)
        for (Index k = 0; k < row.nnz; ++k) Xt_[static_cast<std::size_t>(k * ld_ + r)] = row.val[static_cast<std::size_t>(k)];
    }
  }
  Index size() const { return count_; }
  Index id(Index r) const { return ids_[static_cast<std::size_t>(r)]; }
  const SampleRow& row(Index r) const { return rows_[static_cast<std::size_t>(r)]; }
  /// The rows' values (dense rows: d each).
  const double* const* values() const { return ptr_.data(); }
  /// Dense rows: true, and their values feature-major, Xt()[k * ld() + r]
  /// feature k of row r.
  bool dense() const { return dense_; }
  const double* Xt() const { return Xt_.data(); }
  Index ld() const { return ld_; }
  /// The rows' squared norms.
  const double* norms() const { return norms_.data(); }

 private:
  std::vector<SampleRow> rows_;
  std::vector<Index> ids_;
  std::vector<const double*> ptr_;
  std::vector<double> norms_, Xt_;
  Index count_ = 0, ld_ = 0;
  bool dense_ = false;
};

/// The kernel values of a block's rows against one model, kept current
/// through the model's changes (see the header comment). Attached to the
/// model from compute() until detach(); one model at a time.
class KernelTile final : public SlotObserver {
 public:
  /// Rows served per task of the tile's parallel loop: a multiple of
  /// dense_dots' four rows, so that a row's values never depend on n_jobs.
  static constexpr Index kTileTaskRows = 16;

  KernelTile() = default;
  KernelTile(const KernelTile&) = delete;
  KernelTile& operator=(const KernelTile&) = delete;
  ~KernelTile() override { detach(); }

  /// Computes the kernel values of rows [from, block.size()) against the
  /// support vectors of `model` as they are now, on up to n_jobs threads,
  /// and listens to the model's changes from now on.
  void compute(const RowBlock& block, Index from, BudgetModel& model, int n_jobs, RunControl& control) {
    attach(model);
    pending_ = false;
    block_ = &block;
    ld_ = model.capacity();
    const Index count = block.size(), size = model.size();
    if (static_cast<Index>(values_.size()) < count * ld_) values_.resize(static_cast<std::size_t>(count * ld_));
    fresh_.assign(static_cast<std::size_t>(ld_), 0);
    std::fill(fresh_.begin(), fresh_.begin() + size, 1);
    queued_.assign(static_cast<std::size_t>(ld_), 0);
    stale_.clear();
    served_ = from - 1;
    const Index rows = count - from;
    if (rows <= 0 || size == 0) return;
    const Index tasks = (rows + kTileTaskRows - 1) / kTileTaskRows;
    const double work = static_cast<double>(rows) * static_cast<double>(size) * static_cast<double>(model.dim() + 8);
    parallel_tasks(tasks, threads_for(n_jobs, work), control, [&](Index task, RunControl&) {
      const Index r0 = from + task * kTileTaskRows, r1 = std::min(count, r0 + kTileTaskRows);
      tile_rows(block, r0, r1, model.Zt(), ld_, model.sv_norms(), size, values_.data());
    });
  }

  // ---- Pipelining: the next block's tile while this block's steps run ----
  //
  // snapshot() copies the support vectors as they are at this block's start;
  // the next block's tile is computed from that copy (compute_next, tasks of
  // kTileTaskRows rows, on any thread: it reads only the copy) while the
  // steps change the model, whose slot changes are tracked against the copy
  // as well. adopt() makes it the current tile: slots unchanged since the
  // copy keep their values, moved ones take their column, changed ones are
  // stale (row() recomputes them). Which values come from which path
  // depends on the rows and the steps only, never on the threads.

  /// Copies the model's support vectors for the next block's tile and
  /// tracks the slot changes from now on.
  void snapshot(BudgetModel& model) {
    attach(model);
    const Index size = model.size(), d = model.dim(), ld = model.capacity();
    snap_size_ = size;
    snap_Zt_.resize(static_cast<std::size_t>(std::max<Index>(d * size, 1)));
    for (Index k = 0; k < d; ++k)
      std::copy(model.Zt() + k * ld, model.Zt() + k * ld + size, snap_Zt_.begin() + k * size);
    snap_norms_.assign(model.sv_norms(), model.sv_norms() + size);
    origin_.assign(static_cast<std::size_t>(ld), -1);
    for (Index j = 0; j < size; ++j) origin_[static_cast<std::size_t>(j)] = j;
    pending_ = true;
  }

  /// The tasks of the next block's tile.
  static Index next_tasks(const RowBlock& next) { return (next.size() + kTileTaskRows - 1) / kTileTaskRows; }

  /// Task `task` of the next block's tile (rows [task, task + 1) *
  /// kTileTaskRows of `next`), from the snapshot.
  void compute_next(const RowBlock& next, Index task) {
    const Index r0 = task * kTileTaskRows, r1 = std::min(next.size(), r0 + kTileTaskRows);
    if (snap_size_ == 0 || r0 >= r1) return;
    tile_rows(next, r0, r1, snap_Zt_.data(), snap_size_, snap_norms_.data(), snap_size_, next_values_.data());
  }

  /// Storage for the next block's tile (before its compute_next tasks run).
  void prepare_next(const RowBlock& next) {
    const Index need = next.size() * model_->capacity();
    if (static_cast<Index>(next_values_.size()) < need) next_values_.resize(static_cast<std::size_t>(need));
  }

  /// The next block's tile becomes the current one (see above).
  void adopt(const RowBlock& next) {
    const BudgetModel& model = *model_;
    values_.swap(next_values_);
    block_ = &next;
    ld_ = model.capacity();
    served_ = -1;
    pending_ = false;
    const Index size = model.size();
    fresh_.assign(static_cast<std::size_t>(ld_), 0);
    queued_.assign(static_cast<std::size_t>(ld_), 0);
    stale_.clear();
    moves_.clear();
    for (Index j = 0; j < size; ++j) {
      const Index c = origin_[static_cast<std::size_t>(j)];
      if (c < 0) {
        stale(j);
        continue;
      }
      fresh_[static_cast<std::size_t>(j)] = 1;
      if (c != j) moves_.push_back({j, c});
    }
    if (moves_.empty()) return;
    // Slot j takes column c (a partial permutation): gather, then scatter.
    moved_.resize(moves_.size());
    for (Index r = 0; r < next.size(); ++r) {
      double* v = values_.data() + static_cast<std::size_t>(r * ld_);
      for (std::size_t q = 0; q < moves_.size(); ++q) moved_[q] = v[moves_[q].second];
      for (std::size_t q = 0; q < moves_.size(); ++q) v[moves_[q].first] = moved_[q];
    }
  }

  /// The kernel row of block row r against the model as it is now (its
  /// first model.size() values). Rows are asked for in increasing order.
  const double* row(Index r) {
    served_ = r;
    double* v = values_.data() + static_cast<std::size_t>(r * ld_);
    const BudgetModel& model = *model_;
    const Index size = model.size();
    const SampleRow& x = block_->row(r);
    // The stale slots still in the model. Dense rows: each slot's values
    // against this row and the rest of the block, in one vectorised pass
    // (the slot is fresh again); sparse rows: its value for this row.
    Index m = 0;
    std::size_t keep = 0;
    for (const Index j : stale_) {
      if (j >= size || fresh_[static_cast<std::size_t>(j)]) {
        queued_[static_cast<std::size_t>(j)] = 0;  // empty or fresh again: off the list
        continue;
      }
      if (block_->dense()) {
        fill_column(r, j);
        queued_[static_cast<std::size_t>(j)] = 0;
        continue;
      }
      stale_[keep++] = j;
      if (static_cast<Index>(dots_.size()) <= m) dots_.resize(static_cast<std::size_t>(m + 1)), znorm_.resize(dots_.size());
      dots_[static_cast<std::size_t>(m)] = dot_with_sv(x, model, j);
      znorm_[static_cast<std::size_t>(m)] = model.sv_norm(j);
      ++m;
    }
    stale_.resize(keep);
    if (m > 0) {
      model.kernel().row_from_dots(model.simd(), dots_.data(), x.sqnorm, znorm_.data(), m, dots_.data());
      for (Index q = 0; q < m; ++q) v[stale_[static_cast<std::size_t>(q)]] = dots_[static_cast<std::size_t>(q)];
    }
    return v;
  }

  /// Stops listening to the model.
  void detach() {
    if (model_) model_->observe(nullptr);
    model_ = nullptr;
    pending_ = false;
  }

  void changed(Index j) override {
    stale(j);
    if (pending_) origin_[static_cast<std::size_t>(j)] = -1;
  }

  void moved(Index from, Index to) override {
    if (pending_) {
      origin_[static_cast<std::size_t>(to)] = origin_[static_cast<std::size_t>(from)];
      origin_[static_cast<std::size_t>(from)] = -1;
    }
    if (fresh_[static_cast<std::size_t>(from)]) {
      // The column goes along for the rows still to be served.
      for (Index r = served_ + 1; r < block_->size(); ++r) {
        double* v = values_.data() + static_cast<std::size_t>(r * ld_);
        v[to] = v[from];
      }
      fresh_[static_cast<std::size_t>(to)] = 1;
    } else {
      stale(to);
    }
    fresh_[static_cast<std::size_t>(from)] = 0;
  }

  void cleared() override {
    std::fill(fresh_.begin(), fresh_.end(), 0);
    if (pending_) std::fill(origin_.begin(), origin_.end(), -1);
  }

 private:
  void stale(Index j) {
    fresh_[static_cast<std::size_t>(j)] = 0;
    if (!queued_[static_cast<std::size_t>(j)]) {
      queued_[static_cast<std::size_t>(j)] = 1;
      stale_.push_back(j);
    }
  }

  void attach(BudgetModel& model) {
    if (model_ == &model) return;
    detach();
    model_ = &model;
    model.observe(this);
  }

  /// Rows [r0, r1) of `block` against the n support vectors of Zt (ld
  /// columns per feature; squared norms `norms`) into rows r0.. of `out`
  /// (model.capacity() values per row).
  void tile_rows(const RowBlock& block, Index r0, Index r1, const double* Zt, Index ld, const double* norms, Index n,
                 double* out) const {
    const BudgetModel& model = *model_;
    const simd::Kernels& simd = model.simd();
    const Index d = model.dim(), ldo = model.capacity();
    out += static_cast<std::size_t>(r0 * ldo);
    if (block.dense()) {
      simd.dense_dots(block.values() + r0, r1 - r0, d, Zt, ld, n, out, ldo);
    } else {
      for (Index r = r0; r < r1; ++r) {
        const SampleRow& x = block.row(r);
        simd.dots(Zt, ld, n, x.indices(), x.val.data(), x.nnz, out + (r - r0) * ldo);
      }
    }
    for (Index r = r0; r < r1; ++r) {
      double* v = out + (r - r0) * ldo;
      model.kernel().row_from_dots(simd, v, block.row(r).sqnorm, norms, n, v);
    }
  }

  /// Slot j's kernel values against rows [r, block size) of a dense block
  /// into its column; j is fresh from now on.
  void fill_column(Index r, Index j) {
    const BudgetModel& model = *model_;
    const Index d = model.dim(), m = block_->size() - r, ld = model.capacity();
    z_.resize(static_cast<std::size_t>(d));
    column_.resize(static_cast<std::size_t>(block_->size()));
    for (Index k = 0; k < d; ++k) z_[static_cast<std::size_t>(k)] = model.Zt()[k * ld + j];
    model.simd().dots(block_->Xt() + r, block_->ld(), m, nullptr, z_.data(), d, column_.data());
    model.kernel().row_from_dots(model.simd(), column_.data(), model.sv_norm(j), block_->norms() + r, m, column_.data());
    double* out = values_.data() + static_cast<std::size_t>(r * ld_ + j);
    for (Index q = 0; q < m; ++q) out[static_cast<std::size_t>(q * ld_)] = column_[static_cast<std::size_t>(q)];
    fresh_[static_cast<std::size_t>(j)] = 1;
  }

  /// <x, z_j> over x's non-zeros, in the order of the features.
  static double dot_with_sv(const SampleRow& x, const BudgetModel& model, Index j) {
    const double* Zt = model.Zt() + j;
    const Index ld = model.capacity();
    double s = 0.0;
    if (x.dense) {
      for (Index k = 0; k < x.nnz; ++k) s += x.val[static_cast<std::size_t>(k)] * Zt[k * ld];
    } else {
      for (Index q = 0; q < x.nnz; ++q)
        s += x.val[static_cast<std::size_t>(q)] * Zt[x.idx[static_cast<std::size_t>(q)] * ld];
    }
    return s;
  }

  BudgetModel* model_ = nullptr;
  const RowBlock* block_ = nullptr;
  Index ld_ = 0, served_ = -1;
  std::vector<double> values_;  // row-major, ld_ per row
  // pipelining: the snapshot, the next block's tile, each slot's column
  // there (-1: changed since), and adopt()'s column moves
  bool pending_ = false;
  Index snap_size_ = 0;
  std::vector<double> snap_Zt_, snap_norms_, next_values_, moved_;
  std::vector<Index> origin_;
  std::vector<std::pair<Index, Index>> moves_;
  std::vector<char> fresh_;     // per slot: its column is current for the rows still to be served
  std::vector<char> queued_;    // per slot: on stale_
  std::vector<Index> stale_;    // slots whose values row() computes
  std::vector<double> dots_, znorm_, z_, column_;
};

/// The multiply-adds of a block's tile against a model (threads_for's
/// measure).
inline double tile_work(const RowBlock& block, const BudgetModel& model) {
  return static_cast<double>(block.size()) * static_cast<double>(model.size()) * static_cast<double>(model.dim() + 8);
}

/// A task beside the steps (BSCA's averaged model), or none.
using AverageTask = std::function<void(RunControl&)>;

/// Runs steps(control), then `also` (if set), beside the next block: its
/// rows (assigned, not loaded) are loaded from X and, when `tile` is set
/// (its snapshot taken), their tile computed, in tasks of kTileTaskRows
/// rows, on up to n_jobs threads when `work` pays for them (threads_for).
/// The steps are task 0, `also` task 1, the next block's rows the rest: one
/// thread runs everything in that order.
template <class Steps>
void steps_beside_next(Steps&& steps, const AverageTask& also, const Rows& X, RowBlock& next, KernelTile* tile,
                       int n_jobs, double work, RunControl& control) {
  if (tile) tile->prepare_next(next);
  const Index first = also ? 2 : 1;
  parallel_tasks(first + KernelTile::next_tasks(next), threads_for(n_jobs, work), control,
                 [&](Index task, RunControl& ctl) {
                   if (task == 0) {
                     steps(ctl);
                   } else if (task < first) {
                     also(ctl);
                   } else {
                     const Index q = task - first, r0 = q * KernelTile::kTileTaskRows;
                     next.load_rows(X, r0, std::min(next.size(), r0 + KernelTile::kTileTaskRows));
                     if (tile) tile->compute_next(next, q);
                   }
                 });
}

}  // namespace budgetsvm::budget
