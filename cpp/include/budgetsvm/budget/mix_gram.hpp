// The mix's guard and merges from one matrix of dot products (mix.hpp).
//
// Problem: the mix of two models of B support vectors reduces their union
// (m <= 2B points) to B by merges, then compares the reduced model c with
// the parts in the kernel's feature space (the guard). Made from the
// features, that takes the kernel rows of the merges (one per merge, m dot
// products of d features each) and six blocks of B x B kernel values for
// <f_k, f_l>, <c, f_k> and <c, c>: ~1.2M kernel values of d features each,
// most of a mix on wide data.
//
// Algorithm: every point the mix ever holds is a combination of the
// union's points: a merge puts z = h z_a + (1 - h) z_b, and dot products
// are linear, so <z, u> = h <z_a, u> + (1 - h) <z_b, u> for every u. So the
// union's dot products D(p, q) = <u_p, u_q> are made once (m^2 d / 2
// multiply-adds by the prediction's register tiles), and then:
// - the parts' inner products: the kernel values exp(-g (|u_p|^2 + |u_q|^2
//   - 2 D(p, q))) of D's lower triangle against the parts' coefficients on
//   the union's rows, each row block as soon as its dot products are made;
// - the reduction runs as before (its kernel rows from the features,
//   beside the two above on the other threads), and tells a MergeRecord
//   each merge and removal;
// - replayed on D (MergeRowSource), the record gives each point of the
//   reduced model c as a recipe, its weights on the union's points, and a
//   row of dot products with them (D's row for a union point; for a merged
//   one, its parts' rows combined: m multiply-adds per merge);
// - the reduced model's inner products: <c_i, u_p> from c_i's row,
//   <c_i, c_j> from c_i's row at c_j's recipe (the recipes of c's points
//   partition the union, so m terms per row).
// The reduction is the features' path's exactly, so the reduced model is
// too; only the guard's sums are made another way (the same values up to
// rounding). Distances the norm formula may cancel are made again from the
// features (kernel_rows_from_dots), as in prediction.
// Memory: D (8 m^2 bytes) and a row per merge (8 m bytes). mix.hpp takes
// this path where it pays (kMinGramFeatures) up to kMaxGramUnion points.
// A caller that mixes again and again (a sharded fit's rounds) keeps these
// buffers and the row blocks' scratch from one mix to the next (GramBuffers):
// their pages are touched once per fit, where each mix's fresh allocations
// came back from the allocator untouched and faulted in page by page (a
// large share of a two-thread mix inside a fit; docs/development/decisions.md
// has the measurement).
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "../core/centre.hpp"
#include "../core/data_view.hpp"
#include "../core/expansion.hpp"
#include "../core/parallel.hpp"
#include "maintenance.hpp"

namespace budgetsvm::budget::detail {

using budgetsvm::detail::FusedSupport;
using budgetsvm::detail::kernel_rows_from_dots;
using budgetsvm::detail::kExpansionRows;
using budgetsvm::detail::OriginalRows;

/// The largest union the Gram path takes: one 2,048 x 2,048 matrix, 32 MB.
constexpr Index kMaxGramUnion = 2048;
/// The fewest features for which it pays: it saves m^2 d / 2 of the
/// features' path's ~1.2 m^2 d multiply-adds (m = 2B) and costs a few ms
/// more besides (the mirror, the replay, the copies), so it loses on
/// narrow data and wins on wide data: measured with two shard models of
/// B = 500 on one and two threads it breaks even between 22 and 68
/// features, and 96 leaves a margin (docs/development/decisions.md has
/// the timings).
constexpr Index kMinGramFeatures = 96;

/// Doubles that only grow and are never initialised: every user writes
/// what it reads, so a fresh buffer's pages are first touched by the tasks
/// that fill it (in parallel), and a kept one's are reused as they are.
class Scratch {
 public:
  /// At least n doubles (the old ones dropped if it grows).
  double* at_least(std::size_t n) {
    if (n > size_) data_.reset(new double[n]), size_ = n;  // default-initialised: not zeroed
    return data_.get();
  }

 private:
  std::unique_ptr<double[]> data_;
  std::size_t size_ = 0;
};

/// Buffers of doubles for the tasks of a parallel loop (the row blocks of
/// the guard), each lent to one task at a time and kept for the next: as
/// many are made as tasks ever ran at once.
class BufferPool {
 public:
  class Lease {
   public:
    explicit Lease(BufferPool& pool) : pool_(pool) {
      const std::lock_guard<std::mutex> lock(pool_.mutex_);
      if (!pool_.free_.empty()) buffer_ = std::move(pool_.free_.back()), pool_.free_.pop_back();
    }
    ~Lease() {
      const std::lock_guard<std::mutex> lock(pool_.mutex_);
      pool_.free_.push_back(std::move(buffer_));
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    /// A rows x cols row-major matrix over the buffer (its values undefined).
    Eigen::Map<MatrixXd> matrix(Index rows, Index cols) {
      return {buffer_.at_least(static_cast<std::size_t>(rows * cols)), rows, cols};
    }

   private:
    BufferPool& pool_;
    Scratch buffer_;
  };

 private:
  std::mutex mutex_;
  std::vector<Scratch> free_;
};

/// What the Gram path works in, kept by a caller that mixes repeatedly (see
/// the header comment; a single mix makes its own); every member only grows.
struct GramBuffers {
  Scratch dots;       // D
  Scratch merged;     // the replay's rows of merged points
  BufferPool blocks;  // each row block's kernel values
};

/// The union's points (one machine's) shifted by the centre, and their dot
/// products D(p, q) = <u_p - c, u_q - c>: make_rows fills the lower
/// triangle of a row block (callers run the blocks as tasks: each entry is
/// one sum in feature order, the same on any thread), mirror the rest. D
/// lives in `dots` (GramBuffers::dots).
struct UnionGram {
  MatrixXd rows;                 // r x d, unshifted (the originals of kernel_rows_from_dots)
  MatrixXd shifted;              // row-major: the tiles' query rows
  FusedSupport<double> support;  // feature-major (the tiles' columns) and |u_p - c|^2, as prediction builds them
  Eigen::Map<MatrixXd> D;        // r x r

  UnionGram(MatrixXd unshifted, const Centre& centre, Scratch& dots)
      : rows(std::move(unshifted)),
        shifted(rows),
        support(centre, DenseView<double, Eigen::RowMajor>(rows.data(), rows.rows(), rows.cols()),
                MatrixXd(rows.rows(), 0)),
        D(dots.at_least(static_cast<std::size_t>(rows.rows() * rows.rows())), rows.rows(), rows.rows()) {
    for (Index p = 0; p < rows.rows(); ++p) centre.shift(shifted.row(p).data());
  }
  UnionGram(const UnionGram&) = delete;
  UnionGram& operator=(const UnionGram&) = delete;
  Index size() const { return rows.rows(); }

  /// D(p, q) for p in [start, start + count), q < start + count.
  void make_rows(Index start, Index count) {
    const double* x[kExpansionRows];
    for (Index i = 0; i < count; ++i) x[i] = shifted.row(start + i).data();
    simd::active_kernels().dense_dots(x, count, shifted.cols(), support.Zt.data(), size(), start + count,
                                      D.row(start).data(), size());
  }

  /// The upper triangle from the lower, by tiles of 16 x 16 (a tile's rows
  /// lie in 16 pages: 64 x 64 tiles missed the TLB on nearly every read).
  void mirror(int n_threads) {
    constexpr Index t = 16;
    const Index r = size(), blocks = (r + kExpansionRows - 1) / kExpansionRows;
    RunControl none;
    parallel_tasks(blocks, n_threads, none, [&](Index b, RunControl&) {
      const Index p0 = b * kExpansionRows, p1 = std::min(r, p0 + kExpansionRows);
      for (Index pt = p0; pt < p1; pt += t)
        for (Index q0 = pt; q0 < r; q0 += t) {
          const Index pe = std::min(pt + t, p1), qe = std::min(q0 + t, r);
          for (Index p = pt; p < pe; ++p)
            for (Index q = std::max(q0, p + 1); q < qe; ++q) D(p, q) = D(q, p);
        }
    });
  }
};

/// Sums over row blocks of `rows` rows, one task per 64 rows on n_threads
/// threads: block(start, count, out) adds its share to out (n values); the
/// blocks' shares are added in their order, so the sums do not depend on
/// n_threads. `lead`, when given, runs first as a task of its own beside
/// the blocks (the mix's reduction beside the parts' inner products);
/// `prepare`, when given, runs once before any block, beside the lead, on
/// the thread that takes the first block (the blocks' matrix made while
/// the reduction already runs).
template <class Block>
std::vector<double> blocked_sums(Index rows, std::size_t n, int n_threads, Block&& block,
                                 const std::function<void()>& lead = {}, const std::function<void()>& prepare = {}) {
  const Index blocks = (rows + kExpansionRows - 1) / kExpansionRows, first = lead ? 1 : 0;
  std::vector<std::vector<double>> shares(static_cast<std::size_t>(blocks), std::vector<double>(n, 0.0));
  std::once_flag prepared;
  RunControl none;
  parallel_tasks(first + blocks, n_threads, none, [&](Index t, RunControl&) {
    if (t < first) {
      lead();
      return;
    }
    if (prepare) std::call_once(prepared, prepare);  // the other blocks wait for it
    // The last blocks, the largest of a lower triangle, first.
    const Index b = blocks - 1 - (t - first), start = b * kExpansionRows;
    block(start, std::min(kExpansionRows, rows - start), shares[static_cast<std::size_t>(b)]);
  });
  std::vector<double> total(n, 0.0);
  for (const auto& s : shares)
    for (std::size_t i = 0; i < n; ++i) total[i] += s[i];
  return total;
}

/// The inner products sum_o a(., o)^T K b(., o) of symmetric kernel
/// matrices, one row block at a time from the lower triangle: Krows holds
/// the block's rows [start, start + count) against columns [0, start +
/// count); each pair below the diagonal block is counted for both orders.
/// out[k * L + l] += <coef_a[k], coef_b[l]> over the block, where coef_a ==
/// coef_b (the same list).
inline void add_symmetric_block(const Eigen::Ref<const MatrixXd>& Krows, Index start, Index count,
                                const std::vector<MatrixXd>& coef, std::vector<double>& out) {
  const std::size_t K = coef.size();
  std::vector<MatrixXd> below(K), diagonal(K);
  for (std::size_t l = 0; l < K; ++l) {
    below[l] = Krows.leftCols(start) * coef[l].topRows(start);
    diagonal[l] = Krows.middleCols(start, count) * coef[l].middleRows(start, count);
  }
  for (std::size_t k = 0; k < K; ++k) {
    const auto ak = coef[k].middleRows(start, count).array();
    for (std::size_t l = 0; l < K; ++l)
      out[k * K + l] += (ak * (below[l] + diagonal[l]).array()).sum() +
                        (coef[l].middleRows(start, count).array() * below[k].array()).sum();
  }
}

/// One row block's share of the parts' inner products <f_k, f_l> =
/// sum_o A_k(., o)^T K A_l(., o) (out[k * K + l]), K the union's kernel
/// matrix from the block's lower-triangle dot products (made by
/// make_rows); coef[k]: part k's coefficients on the union's rows (r x
/// n_outputs). The block's kernel values are made in a buffer of `pool`.
inline void add_part_block(const UnionGram& g, Index start, Index count, const std::vector<MatrixXd>& coef,
                           const Kernel& kernel, std::vector<double>& out, BufferPool& pool) {
  using View = DenseView<double, Eigen::RowMajor>;
  const View U(g.rows.data(), g.size(), g.rows.cols());
  const Index width = start + count;
  BufferPool::Lease lease(pool);
  Eigen::Map<MatrixXd> Krows = lease.matrix(count, width);
  Krows = g.D.block(start, 0, count, width);
  const VectorXd xnorm = Eigen::Map<const VectorXd>(g.support.norms.data() + start, count);
  OriginalRows<View, View> originals(U, U);
  kernel_rows_from_dots(kernel, start, count, 0, width, g.support.norms.data(), xnorm, Krows.data(), width,
                        originals);
  add_symmetric_block(Krows, start, count, coef, out);
}

/// The merges and removals of a reduction, in order (MergeListener), to
/// be replayed on dot products once they are made.
class MergeRecord final : public MergeListener {
 public:
  struct Step {
    Index a, b;  // merged (a < 0: a removal)
    double h;
    Index into, gone;
  };
  void merged(Index a, Index b, double h, Index into, Index gone) override { steps.push_back({a, b, h, into, gone}); }
  void removed(Index gone) override { steps.push_back({-1, -1, 0.0, -1, gone}); }
  std::vector<Step> steps;
};

/// The reduced model's points as combinations of the union's (see the
/// header comment), from its reduction's MergeRecord replayed: slot s holds
/// the point id_[s], made of the union points recipe_[id] with weights; its
/// dot products with the union's points are row id of D for a union point,
/// else a row of its own made at its merge, in `merged`
/// (GramBuffers::merged).
class MergeRowSource {
 public:
  /// slots[s]: the union row loaded into the model's slot s.
  MergeRowSource(const Eigen::Ref<const MatrixXd>& D, const std::vector<Index>& slots, Scratch& merged)
      : D_(D.data()),
        r_(D.rows()),
        stride_(D.outerStride()),
        id_(slots),
        own_(static_cast<std::size_t>(D.rows()), -1),
        recipe_(static_cast<std::size_t>(D.rows())),
        rows_(merged) {
    for (Index p = 0; p < D.rows(); ++p) recipe_[static_cast<std::size_t>(p)] = {{p, 1.0}};
  }
  MergeRowSource(const MergeRowSource&) = delete;
  MergeRowSource& operator=(const MergeRowSource&) = delete;

  /// Once, after the reduction: the ids and recipes step by step, then the
  /// merged points' rows in the merges' order, by column blocks on
  /// n_threads threads (each value one expression of two earlier ones: the
  /// same on any thread).
  void replay(const MergeRecord& record, int n_threads = 1) {
    std::size_t merges = 0;
    for (const MergeRecord::Step& s : record.steps) merges += s.a >= 0 ? 1 : 0;
    merged_rows_ = rows_.at_least(merges * static_cast<std::size_t>(r_));
    plan_.clear();
    plan_.reserve(merges);
    for (const MergeRecord::Step& s : record.steps) {
      if (s.a < 0)
        removed(s.gone);
      else
        merged(s.a, s.b, s.h, s.into, s.gone);
    }
    constexpr Index kColumns = 256;
    RunControl none;
    parallel_tasks((r_ + kColumns - 1) / kColumns, n_threads, none, [&](Index block, RunControl&) {
      const Index p0 = block * kColumns, p1 = std::min(r_, p0 + kColumns);
      for (const Made& m : plan_)
        for (Index p = p0; p < p1; ++p) m.out[p] = m.h * m.a[p] + (1.0 - m.h) * m.b[p];
    });
  }

  /// The recipes of the points held, slot by slot, as one sparse matrix
  /// (row s: start[s] .. start[s + 1] of union_row and weight).
  void recipes(std::vector<Index>& start, std::vector<Index>& union_row, std::vector<double>& weight) const {
    start.assign(1, 0);
    union_row.clear();
    weight.clear();
    for (const Index id : id_) {
      for (const auto& [p, w] : recipe_[static_cast<std::size_t>(id)]) union_row.push_back(p), weight.push_back(w);
      start.push_back(static_cast<Index>(union_row.size()));
    }
  }

  /// <point of slot i, union point p> for every p.
  const double* row(Index i) const { return row_of_id(id_[static_cast<std::size_t>(i)]); }
  Index size() const { return static_cast<Index>(id_.size()); }

 private:
  using Recipe = std::vector<std::pair<Index, double>>;

  void merged(Index a, Index b, double h, Index into, Index gone) {
    const Index ia = id_[static_cast<std::size_t>(a)], ib = id_[static_cast<std::size_t>(b)];
    const Index iz = id_[static_cast<std::size_t>(into)];
    const Index row = made_++;
    plan_.push_back({row_of_id(ia), row_of_id(ib), h, merged_rows_ + static_cast<std::size_t>(row * r_)});
    own_[static_cast<std::size_t>(iz)] = row;
    Recipe z;
    for (const auto& [p, w] : recipe_[static_cast<std::size_t>(ia)]) add(z, p, h * w);
    for (const auto& [p, w] : recipe_[static_cast<std::size_t>(ib)]) add(z, p, (1.0 - h) * w);
    recipe_[static_cast<std::size_t>(iz)] = std::move(z);
    removed(gone);
  }

  void removed(Index gone) {
    id_[static_cast<std::size_t>(gone)] = id_.back();
    id_.pop_back();
  }

  static void add(Recipe& r, Index p, double w) {
    for (auto& [q, v] : r)
      if (q == p) {
        v += w;
        return;
      }
    r.emplace_back(p, w);
  }
  const double* row_of_id(Index id) const {
    const Index own = own_[static_cast<std::size_t>(id)];
    return own < 0 ? D_ + id * stride_ : merged_rows_ + static_cast<std::size_t>(own * r_);
  }

  const double* D_;  // the union's dot products, row-major
  Index r_, stride_;
  std::vector<Index> id_;
  std::vector<Index> own_;  // a merged point's row in rows_ (-1: a union point, row id of D)
  std::vector<Recipe> recipe_;
  /// A merged point's row: out = h a + (1 - h) b.
  struct Made {
    const double *a, *b;
    double h;
    double* out;
  };
  std::vector<Made> plan_;
  Scratch& rows_;
  double* merged_rows_ = nullptr;  // the merged points' rows, one after another (in rows_)
  Index made_ = 0;
};

/// The reduced model's inner products from the rows of `source`: <c, c>
/// (its lower triangle, as add_part_block) and <c, f_k> for every part,
/// returned as {<c, c>, <c, f_0>, ...}. C: c's coefficients (slot order),
/// c_rows: its points unshifted, c_norms: their shifted squared norms (the
/// model's). Each block's kernel values are made in buffers of `pool`.
inline std::vector<double> reduced_inners(const UnionGram& g, const std::vector<MatrixXd>& coef,
                                          const MergeRowSource& source, const MatrixXd& C, const MatrixXd& c_rows,
                                          const VectorXd& c_norms, const Kernel& kernel, int n_threads,
                                          BufferPool& pool) {
  const Index r = g.size(), n = C.rows();
  const std::size_t K = coef.size();
  using View = DenseView<double, Eigen::RowMajor>;
  const View U(g.rows.data(), r, g.rows.cols()), Cv(c_rows.data(), n, c_rows.cols());
  const std::vector<MatrixXd> own{C};
  std::vector<Index> start_of, union_row;
  std::vector<double> weight;
  source.recipes(start_of, union_row, weight);
  return blocked_sums(n, K + 1, n_threads, [&](Index start, Index count, std::vector<double>& out) {
    const Index width = start + count;
    const VectorXd xnorm = c_norms.segment(start, count);
    BufferPool::Lease to_union_buffer(pool), to_c_buffer(pool);
    Eigen::Map<MatrixXd> toward_union = to_union_buffer.matrix(count, r), toward_c = to_c_buffer.matrix(count, width);
    for (Index i = 0; i < count; ++i) {
      toward_union.row(i) = Eigen::Map<const Eigen::RowVectorXd>(source.row(start + i), r);
      const double* e = source.row(start + i);
      for (Index j = 0; j < width; ++j) {
        double v = 0.0;
        for (Index q = start_of[static_cast<std::size_t>(j)]; q < start_of[static_cast<std::size_t>(j + 1)]; ++q)
          v += weight[static_cast<std::size_t>(q)] * e[union_row[static_cast<std::size_t>(q)]];
        toward_c(i, j) = v;
      }
    }
    OriginalRows<View, View> to_union(Cv, U), to_c(Cv, Cv);
    kernel_rows_from_dots(kernel, start, count, 0, r, g.support.norms.data(), xnorm, toward_union.data(), r, to_union);
    kernel_rows_from_dots(kernel, start, count, 0, width, c_norms.data(), xnorm, toward_c.data(), width, to_c);
    std::vector<double> self(1, 0.0);
    add_symmetric_block(toward_c, start, count, own, self);
    out[0] += self[0];
    const auto Cb = C.middleRows(start, count);
    for (std::size_t k = 0; k < K; ++k) out[k + 1] += (Cb.array() * (toward_union * coef[k]).array()).sum();
  });
}

}  // namespace budgetsvm::budget::detail
