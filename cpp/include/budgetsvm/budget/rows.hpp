// Training rows as the budgeted solvers read them: one row at a time, as
// double values over column indices (SampleRow), behind one small interface
// (Rows) so that the solvers are instantiated once, not once per data layout.
// ViewRows serves the rows of any data view (core/data_view.hpp), optionally
// shifted by a centre (core/centre.hpp) for the Gaussian kernel.
#pragma once

#include <vector>

#include "../core/centre.hpp"
#include "../core/data_view.hpp"

namespace budgetsvm::budget {

/// One training row as double values over column indices (idx empty for a
/// dense row: column q holds val[q]).
struct SampleRow {
  std::vector<Index> idx;
  std::vector<double> val;
  Index nnz = 0;
  bool dense = true;
  double sqnorm = 0.0;
  std::vector<char> seen;  // scratch of a sparse load with a centre
  const Index* indices() const { return dense ? nullptr : idx.data(); }
};

/// Training rows behind one small interface, so that the solvers are
/// instantiated once, not once per data layout: the per-step copy of one
/// row into a double buffer costs O(nnz(x)), against O(B nnz(x)) for the
/// margin. The rows may be served shifted by a centre c (centre.hpp): the
/// Gaussian kernel does not change, and the solvers then work in shifted
/// coordinates throughout (fit.hpp moves the support vectors back).
class Rows {
 public:
  virtual ~Rows() = default;
  virtual void load(Index i, SampleRow& out) const = 0;
  /// Memory hints for the row `ahead` steps before its load (3, 2, then 1:
  /// each stage reads what the one before fetched), for solvers that visit
  /// rows in random order.
  virtual void prefetch(Index, int) const {}
  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  double sqnorm(Index i) const { return sqnorms_[static_cast<std::size_t>(i)]; }
  const Centre& centre() const { return centre_; }
  /// Whether load() serves sparse rows (index, value pairs) or dense ones.
  bool sparse() const { return sparse_; }

 protected:
  Index rows_ = 0, cols_ = 0;
  bool sparse_ = false;
  std::vector<double> sqnorms_;
  Centre centre_;
};

/// Memory hints for the rows a loop over `order` loads after position
/// `at` (Rows::prefetch's stages 3, 2 and 1 for the next three), and
/// `also(i)` two steps ahead for the caller's own per-row values. The
/// epochs visit rows in random order, so each step's row, norm and labels
/// would otherwise wait on memory (a visible share of a BSCA fit on sparse data).
template <class Also>
void prefetch_ahead(const Rows& X, const std::vector<Index>& order, Index at, Also&& also) {
  const Index n = static_cast<Index>(order.size());
  for (int ahead = 3; ahead >= 1; --ahead) {
    if (at + ahead >= n) continue;
    const Index next = order[static_cast<std::size_t>(at + ahead)];
    X.prefetch(next, ahead);
    if (ahead == 2) also(next);
  }
}

template <class View>
class ViewRows final : public Rows {
 public:
  /// `centred`: serve x - c (for the Gaussian kernel only).
  explicit ViewRows(const View& X, bool centred = false) : X_(X) {
    rows_ = X.rows();
    cols_ = X.cols();
    sparse_ = View::is_sparse;
    if (centred) centre_ = choose_centre(X);
    sqnorms_.resize(static_cast<std::size_t>(rows_));
    std::vector<char> mark;
    for (Index i = 0; i < rows_; ++i)
      sqnorms_[static_cast<std::size_t>(i)] = centred_squared_norm(X, i, centre_, mark);
  }
  void prefetch(Index i, int ahead) const override {
    if (ahead == 2) {
      BUDGETSVM_PREFETCH(sqnorms_.data() + i);
      X_.prefetch_offset(i);
    } else if (ahead == 1) {
      X_.prefetch_row(i);
    }
  }
  void load(Index i, SampleRow& out) const override {
    out.sqnorm = sqnorms_[static_cast<std::size_t>(i)];
    if constexpr (View::is_sparse) {
      out.dense = false;
      const Index nnz = X_.row_nnz(i);
      const std::size_t room = static_cast<std::size_t>(nnz) + centre_.features.size();
      out.idx.resize(room);
      out.val.resize(room);
      X_.copy_entries(i, out.idx.data(), out.val.data());
      out.nnz = centre_.shift_entries(out.idx.data(), out.val.data(), nnz, out.seen);
    } else {
      out.dense = true;
      out.val.resize(static_cast<std::size_t>(cols_));
      X_.copy_row(i, out.val.data());
      centre_.shift(out.val.data());
      out.nnz = cols_;
    }
  }

 private:
  View X_;
};

}  // namespace budgetsvm::budget
