// The budget model shared by BSGD and BSCA (docs/budgeted.md, "The budget model"):
// f(x) = sum_j beta_j k(z_j, x), at most B support vectors (one more while
// budget maintenance runs), binary (one coefficient) or multi-class (one
// coefficient per class and support vector).
//
// Storage, chosen for the margin computation:
//   - support vectors as dense double rows, stored feature-major
//     (Zt[k * capacity + j] = feature k of support vector j), so that a
//     margin is a sum of nnz(x) contiguous axpy passes over the support
//     vectors (simd.hpp) whether x is dense or sparse, followed by B
//     exponentials from cached squared norms;
//   - coefficients class-major and in units of one global scale factor:
//     beta_j^c = scale * coef[c * capacity + j]. BSGD's per-step shrink
//     beta <- (1 - eta lambda) beta is one multiplication of `scale`;
//     a factor of 0 (Pegasos, t = 1) clears the model, and the stored
//     coefficients are folded into the scale before it underflows;
//   - optionally, for BSCA, which training point each support vector is
//     still an unmerged copy of (and the inverse map, O(n) ints).
// Memory: O(B d) for the model, plus O(n) for the copy map when used.
//
// A SlotObserver (block.hpp's kernel tiles) may listen to the slots'
// changes: a slot that gets another point, and the last slot moving into a
// removed one. A copy of the model has no observer.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "../core/centre.hpp"
#include "../core/data_view.hpp"
#include "../core/kernel_function.hpp"
#include "../core/simd.hpp"
#include "rows.hpp"

namespace budgetsvm::budget {

/// Hears which slots of a BudgetModel change their point (block.hpp).
class SlotObserver {
 public:
  virtual ~SlotObserver() = default;
  /// Slot j holds another point (or none) from now on.
  virtual void changed(Index j) = 0;
  /// The point of slot `from` (the last) moved into slot `to`; `from` is empty.
  virtual void moved(Index from, Index to) = 0;
  /// Every slot is empty.
  virtual void cleared() = 0;

 protected:
  SlotObserver() = default;
  SlotObserver(const SlotObserver&) = default;
  SlotObserver& operator=(const SlotObserver&) = default;
};

class BudgetModel {
 public:
  /// A model for `budget` support vectors (storage for budget + 1) of
  /// dimension d with n_outputs coefficient columns. track_points > 0 keeps
  /// the copy map for that many training points.
  BudgetModel(Index d, Index budget, int n_outputs, const Kernel& kernel,
              const simd::Kernels& kernels = simd::active_kernels(), Index track_points = 0)
      : d_(d),
        capacity_(budget + 1),
        n_outputs_(n_outputs),
        kernel_(kernel),
        simd_(kernels),
        Zt_(static_cast<std::size_t>(d * capacity_), 0.0),
        norms_(static_cast<std::size_t>(capacity_), 0.0),
        coef_(static_cast<std::size_t>(n_outputs * capacity_), 0.0),
        source_(static_cast<std::size_t>(capacity_), -1),
        slot_of_(static_cast<std::size_t>(track_points), -1),
        point_(static_cast<std::size_t>(d), 0.0),
        point_idx_(static_cast<std::size_t>(d), 0) {}

  Index size() const { return size_; }
  Index capacity() const { return capacity_; }
  Index dim() const { return d_; }
  int n_outputs() const { return n_outputs_; }
  double scale() const { return scale_; }
  const Kernel& kernel() const { return kernel_; }
  const simd::Kernels& simd() const { return simd_; }

  /// beta_j^c (the true coefficient, scale applied).
  double beta(Index j, int c = 0) const { return scale_ * coef_[idx(c, j)]; }
  /// Stored coefficients of output c (multiply by scale()).
  double* coef(int c = 0) { return coef_.data() + static_cast<std::size_t>(c) * capacity_; }
  const double* coef(int c = 0) const { return coef_.data() + static_cast<std::size_t>(c) * capacity_; }
  double sv_norm(Index j) const { return norms_[static_cast<std::size_t>(j)]; }
  double feature(Index j, Index k) const { return Zt_[static_cast<std::size_t>(k * capacity_ + j)]; }

  /// out[j] = k(z_j, x) for every support vector j.
  void kernel_row(const SampleRow& x, double* out) const {
    simd_.dots(Zt_.data(), capacity_, size_, x.indices(), x.val.data(), x.nnz, out);
    finish_row(x.sqnorm, out);
  }

  /// out[j] = k(z_j, z_p). Only the non-zero features of z_p enter (one
  /// axpy pass each): merged support vectors of sparse data keep most
  /// features at zero, and the removed one is gathered from the model's
  /// columns once.
  void kernel_row_of_sv(Index p, double* out) {
    Index q = 0;
    for (Index k = 0; k < d_; ++k) {
      const double v = feature(p, k);
      if (v == 0.0) continue;
      point_idx_[static_cast<std::size_t>(q)] = k;
      point_[static_cast<std::size_t>(q++)] = v;
    }
    simd_.dots(Zt_.data(), capacity_, size_, point_idx_.data(), point_.data(), q, out);
    finish_row(norms_[static_cast<std::size_t>(p)], out);
  }

  /// out[j] = k(z_j, z) for a dense point z with squared norm sqnorm (z may
  /// not alias internal storage).
  void kernel_row_of_point(const double* z, double sqnorm, double* out) const {
    simd_.dots(Zt_.data(), capacity_, size_, nullptr, z, d_, out);
    finish_row(sqnorm, out);
  }

  /// k(z, z) for a point with squared norm sqnorm.
  double self_kernel(double sqnorm) const { return kernel_.from_dot(sqnorm, sqnorm, sqnorm); }
  double self_kernel_of_sv(Index j) const { return self_kernel(sv_norm(j)); }

  /// f_c(x) from a kernel row: scale * sum_j coef_c[j] krow[j].
  double margin(const double* krow, int c = 0) const { return scale_ * simd_.dot(coef(c), krow, size_); }

  /// Appends (beta, x) with beta[c] the true coefficients; returns the slot.
  /// `source` >= 0 records that the new support vector is a copy of that
  /// training point.
  Index add(const SampleRow& x, const double* beta, Index source = -1) {
    require(size_ < capacity_, "budget model full: maintenance must run before the next insertion");
    const Index j = size_++;
    notify_changed(j);
    clear_features(j, x.dense ? x.nnz : 0);
    if (x.dense) {
      for (Index k = 0; k < x.nnz; ++k) Zt_[static_cast<std::size_t>(k * capacity_ + j)] = x.val[static_cast<std::size_t>(k)];
    } else {
      for (Index q = 0; q < x.nnz; ++q)
        Zt_[static_cast<std::size_t>(x.idx[static_cast<std::size_t>(q)] * capacity_ + j)] = x.val[static_cast<std::size_t>(q)];
      // Remember where the slot's non-zeros sit: the next insertion into it
      // (after a merge took this vector away) clears only those.
      pattern_slot_ = j;
      pattern_.assign(x.idx.begin(), x.idx.begin() + x.nnz);
    }
    norms_[static_cast<std::size_t>(j)] = x.sqnorm;
    for (int c = 0; c < n_outputs_; ++c) coef_[idx(c, j)] = beta[c] / scale_;
    set_source(j, source);
    return j;
  }

  /// Appends the dense point z (d values, squared norm sqnorm) with true
  /// coefficients beta: a support vector of a model trained before (warm
  /// start, mixing); it is no copy of a training point.
  Index append(const double* z, double sqnorm, const double* beta) {
    require(size_ < capacity_, "budget model full: maintenance must run before the next insertion");
    const Index j = size_++;
    notify_changed(j);
    forget_pattern(j);
    for (Index k = 0; k < d_; ++k) Zt_[static_cast<std::size_t>(k * capacity_ + j)] = z[k];
    norms_[static_cast<std::size_t>(j)] = sqnorm;
    for (int c = 0; c < n_outputs_; ++c) coef_[idx(c, j)] = beta[c] / scale_;
    set_source(j, -1);
    return j;
  }

  /// Replaces support vector p by the dense point z (squared norm sqnorm)
  /// with true coefficients beta; it is no longer a copy of a training point.
  void replace(Index p, const double* z, double sqnorm, const double* beta) {
    notify_changed(p);
    forget_pattern(p);
    for (Index k = 0; k < d_; ++k) Zt_[static_cast<std::size_t>(k * capacity_ + p)] = z[k];
    norms_[static_cast<std::size_t>(p)] = sqnorm;
    for (int c = 0; c < n_outputs_; ++c) coef_[idx(c, p)] = beta[c] / scale_;
    set_source(p, -1);
  }

  /// Removes support vector p; the last one moves into slot p.
  void remove(Index p) {
    const Index last = size_ - 1;
    set_source(p, -1);
    if (observer_.get) {
      if (p != last) observer_.get->moved(last, p);
      else observer_.get->changed(last);
    }
    if (p != last) {
      forget_pattern(p);
      for (Index k = 0; k < d_; ++k)
        Zt_[static_cast<std::size_t>(k * capacity_ + p)] = Zt_[static_cast<std::size_t>(k * capacity_ + last)];
      norms_[static_cast<std::size_t>(p)] = norms_[static_cast<std::size_t>(last)];
      for (int c = 0; c < n_outputs_; ++c) coef_[idx(c, p)] = coef_[idx(c, last)];
      const Index src = source_[static_cast<std::size_t>(last)];
      source_[static_cast<std::size_t>(last)] = -1;
      set_source(p, src);
    }
    size_ = last;
  }

  /// The slot holding an unmerged copy of training point i, or -1.
  Index slot_of(Index i) const { return slot_of_[static_cast<std::size_t>(i)]; }
  /// A memory hint for slot_of(i) (the copy map is O(n): a random visit misses the cache).
  void prefetch_slot_of(Index i) const {
    if (!slot_of_.empty()) BUDGETSVM_PREFETCH(slot_of_.data() + i);
  }
  Index source_of(Index j) const { return source_[static_cast<std::size_t>(j)]; }

  /// beta <- factor * beta for all support vectors, in O(1).
  void shrink(double factor) {
    if (factor == 0.0) {
      clear();
      return;
    }
    scale_ *= factor;
    if (std::fabs(scale_) < 1e-150) fold_scale();
  }

  /// Moves the scale factor into the stored coefficients (scale becomes 1).
  void fold_scale() {
    for (int c = 0; c < n_outputs_; ++c)
      for (Index j = 0; j < size_; ++j) coef_[idx(c, j)] *= scale_;
    scale_ = 1.0;
  }

  void clear() {
    if (observer_.get) observer_.get->cleared();
    for (Index j = 0; j < size_; ++j) set_source(j, -1);
    size_ = 0;
    scale_ = 1.0;
  }

  /// Tells `observer` (nullptr: nobody) of every slot change from now on.
  void observe(SlotObserver* observer) { observer_.get = observer; }

  /// The support vectors' features, feature-major: Zt()[k * capacity() + j]
  /// is feature k of support vector j; their squared norms.
  const double* Zt() const { return Zt_.data(); }
  const double* sv_norms() const { return norms_.data(); }

  /// ||w||^2 = sum_{j,l} beta_j . beta_l k(z_j, z_l), O(B^2 d).
  double squared_norm() {
    std::vector<double> row(static_cast<std::size_t>(capacity_));
    double total = 0.0;
    for (Index p = 0; p < size_; ++p) {
      kernel_row_of_sv(p, row.data());
      for (int c = 0; c < n_outputs_; ++c) total += beta(p, c) * margin(row.data(), c);
    }
    return total;
  }

  /// The support vectors (size x d, row-major) and true coefficients
  /// (size x n_outputs).
  void export_to(MatrixXd& sv, MatrixXd& coef) const {
    sv.resize(size_, d_);
    coef.resize(size_, n_outputs_);
    for (Index j = 0; j < size_; ++j) {
      for (Index k = 0; k < d_; ++k) sv(j, k) = feature(j, k);
      for (int c = 0; c < n_outputs_; ++c) coef(j, c) = beta(j, c);
    }
  }

 private:
  std::size_t idx(int c, Index j) const { return static_cast<std::size_t>(c) * capacity_ + static_cast<std::size_t>(j); }

  void set_source(Index j, Index src) {
    Index& old = source_[static_cast<std::size_t>(j)];
    if (old >= 0 && slot_of_[static_cast<std::size_t>(old)] == j) slot_of_[static_cast<std::size_t>(old)] = -1;
    old = slot_of_.empty() ? -1 : src;
    if (old >= 0) slot_of_[static_cast<std::size_t>(old)] = j;
  }

  /// Zeroes the features k >= from of slot j before an insertion: only the
  /// remembered non-zeros when j holds a sparse row's pattern (a slot's
  /// content survives removal of the last support vector).
  void clear_features(Index j, Index from) {
    if (j == pattern_slot_ && from == 0) {
      for (Index k : pattern_) Zt_[static_cast<std::size_t>(k * capacity_ + j)] = 0.0;
    } else {
      for (Index k = from; k < d_; ++k) Zt_[static_cast<std::size_t>(k * capacity_ + j)] = 0.0;
    }
    forget_pattern(j);
  }

  void notify_changed(Index j) {
    if (observer_.get) observer_.get->changed(j);
  }

  void forget_pattern(Index j) {
    if (j == pattern_slot_) pattern_slot_ = -1;
  }

  void finish_row(double sqnorm, double* out) const {
    kernel_.row_from_dots(simd_, out, sqnorm, norms_.data(), size_, out);
  }

  Index d_, capacity_;
  int n_outputs_;
  Kernel kernel_;
  simd::Kernels simd_;
  std::vector<double> Zt_, norms_, coef_;
  std::vector<Index> source_, slot_of_;
  std::vector<double> point_;     // the non-zero features of one support vector
  std::vector<Index> point_idx_;  // and their columns
  Index size_ = 0;
  double scale_ = 1.0;
  // Slot pattern_slot_ (or none, -1) is zero outside the features pattern_.
  Index pattern_slot_ = -1;
  std::vector<Index> pattern_;
  /// The observer (a copy of the model starts without one; a model is not
  /// assigned to, which would change every slot behind its observer's back).
  struct Observer {
    SlotObserver* get = nullptr;
    Observer() = default;
    Observer(const Observer&) {}
    Observer& operator=(const Observer&) = delete;
  } observer_;
};

}  // namespace budgetsvm::budget
