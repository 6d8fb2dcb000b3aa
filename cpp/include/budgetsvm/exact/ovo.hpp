// One-vs-one multi-class C-SVC as LIBSVM does it: training, layout and
// decision values.
//
// Training (fit_ovo): one binary problem per pair of classes i < j, in
// LIBSVM's order (0,1), (0,2), ..., (1,2), ..., class i labelled +1 and class
// j -1, each solved by fit_exact's solvers on the two classes' rows only.
// The solutions are laid out as LIBSVM lays them out: the support vectors
// (rows that are a support vector of at least one pair) grouped by class,
// ascending within; dual coefficients (k - 1) x n_SV, where class c's
// support vector carries in row o - 1 its signed coefficient in the pair of
// c with class o > c, and in row o the one with class o < c.
//
// Decision values (ovo_scores): pair (i, j) is
//   f_ij(x) = sum_{s of class i} k(x, s) dual(j - 1, s)
//           + sum_{s of class j} k(x, s) dual(i, s) + b_ij,
// positive for class i. Predictions vote with them (LIBSVM: f_ij > 0 votes
// for i, else j; the first class with the most votes wins).
//
// Cost: a pair costs its own rows, never all n rows or all k classes: one
// kernel column source, cache and solver state are set to the n_i + n_j
// rows of each pair in turn (ExactWorkspace, fit.hpp: O(n_i + n_j) set-up,
// no allocation once the buffers have grown), its solution is kept as its
// non-zero coefficients and its report as a few numbers (PairReports); the
// options are validated once for all pairs. A query row costs one kernel value per support vector (computed by
// kernel_expansion_tiles, core/expansion.hpp, so they are the values the
// binary expansion computes) and, per pair, the support vectors of its two
// classes: n_SV (k - 1) multiply-adds for the k (k - 1) / 2 pairs, where a
// dense n_SV x pairs coefficient product costs n_SV k (k - 1) / 2 and holds
// n_SV k (k - 1) / 2 values. Query rows go in blocks of a fixed number of
// rows (by n_SV only), so the values depend neither on the thread count nor
// on the other rows of the call. Up to kOvoDenseClasses classes, where the
// dense product has few columns and, fused into the kernel tiles, is the
// faster, ovo_scores takes it instead (the values binary models and the
// earlier releases compute).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "../core/expansion.hpp"
#include "../core/parallel.hpp"
#include "fit.hpp"
#include "general.hpp"

namespace budgetsvm::exact {

/// Number of class pairs of k classes.
inline Index ovo_pair_count(Index k) { return k * (k - 1) / 2; }

/// Position of pair (i, j), i < j, in LIBSVM's order.
inline Index ovo_pair_index(Index k, Index i, Index j) { return i * (2 * k - i - 1) / 2 + (j - i - 1); }

/// The training rows of each class: class c's rows (rows of the training
/// data, ascending) are rows[start[c] .. start[c + 1]).
struct ClassRows {
  std::vector<Index> rows;
  std::vector<Index> start;  // k + 1 offsets, start[0] = 0

  Index k() const { return static_cast<Index>(start.size()) - 1; }
  Index count(Index c) const { return start[static_cast<std::size_t>(c) + 1] - start[static_cast<std::size_t>(c)]; }
  const Index* of(Index c) const { return rows.data() + start[static_cast<std::size_t>(c)]; }

  /// At least two classes, each with at least one row; rows within
  /// [0, n_total), ascending within a class, no row twice.
  void validate(Index n_total) const {
    require(start.size() >= 3 && start.front() == 0 && start.back() == static_cast<Index>(rows.size()),
            "class rows: need at least two classes and offsets from 0 to the number of rows");
    std::vector<char> seen(static_cast<std::size_t>(std::max<Index>(n_total, 0)), 0);
    for (Index c = 0; c < k(); ++c) {
      require(count(c) >= 1, "class rows: every class needs at least one row");
      for (Index m = 0; m < count(c); ++m) {
        const Index r = of(c)[m];
        require(r >= 0 && r < n_total, "class rows: row index out of range");
        require(m == 0 || r > of(c)[m - 1], "class rows: rows must be ascending within a class");
        require(!seen[static_cast<std::size_t>(r)], "class rows: a row belongs to two classes");
        seen[static_cast<std::size_t>(r)] = 1;
      }
    }
  }
};

/// What one pair's solver reports, and the pair's number of rows.
struct PairReport : ExactReport {
  Index rows = 0;  // n_i + n_j
};

/// Every pair's report, one array per field (k (k - 1) / 2 pairs: a few
/// numbers each, handed to Python without a copy).
struct PairReports {
  std::vector<std::int8_t> solver;  // 0: alfpgm, 1: smo
  std::vector<std::int64_t> rows, iterations, inner_iterations, smo_fallbacks, readmissions, cache_hits, cache_misses;
  std::vector<double> intercept, objective, max_violation, seconds, kernel_evaluations;
  std::vector<std::uint8_t> converged, smo_handoff, polished;

  std::size_t size() const { return intercept.size(); }
  void push(const PairReport& r) {
    solver.push_back(r.solver == ExactSolver::alfpgm ? 0 : 1);
    rows.push_back(r.rows);
    iterations.push_back(r.iterations);
    inner_iterations.push_back(r.inner_iterations);
    smo_fallbacks.push_back(r.smo_fallbacks);
    readmissions.push_back(r.readmissions);
    cache_hits.push_back(r.cache.hits);
    cache_misses.push_back(r.cache.misses);
    intercept.push_back(r.intercept);
    objective.push_back(r.objective);
    max_violation.push_back(r.max_violation);
    seconds.push_back(r.seconds);
    kernel_evaluations.push_back(r.cache.kernel_evaluations);
    converged.push_back(r.converged);
    smo_handoff.push_back(r.smo_handoff);
    polished.push_back(r.polished);
  }
  PairReport operator[](std::size_t p) const {
    PairReport r;
    r.solver = solver[p] == 0 ? ExactSolver::alfpgm : ExactSolver::smo;
    r.rows = rows[p];
    r.intercept = intercept[p];
    r.objective = objective[p];
    r.max_violation = max_violation[p];
    r.seconds = seconds[p];
    r.iterations = iterations[p];
    r.inner_iterations = inner_iterations[p];
    r.smo_fallbacks = smo_fallbacks[p];
    r.readmissions = readmissions[p];
    r.converged = converged[p] != 0;
    r.smo_handoff = smo_handoff[p] != 0;
    r.polished = polished[p] != 0;
    r.cache.hits = cache_hits[p];
    r.cache.misses = cache_misses[p];
    r.cache.kernel_evaluations = kernel_evaluations[p];
    return r;
  }

  /// The field table: ExactResult's fields but alpha, one array each (the
  /// solver by its code, converged for its status; rows and
  /// kernel_evaluations as kernel_columns_computed). Flags are stored as
  /// bytes (0 or 1) and cross to Python as bool arrays.
  template <class Self, class F>
  static void for_each_field(Self& self, F&& f) {
    std::vector<std::int64_t> columns(self.size());
    for (std::size_t q = 0; q < columns.size(); ++q)
      columns[q] = ExactResult::kernel_columns(self.kernel_evaluations[q], self.rows[q]);
    f("solver", self.solver);
    f("intercept", self.intercept);
    f("objective", self.objective);
    f("iterations", self.iterations);
    f("converged", self.converged);
    f("max_violation", self.max_violation);
    f("cache_hits", self.cache_hits);
    f("cache_misses", self.cache_misses);
    f("kernel_columns_computed", columns);
    ExactResult::last_fields(self, f);
  }
};

/// The one-vs-one model in LIBSVM's layout, and each pair's report.
struct OvoResult {
  std::vector<Index> support;    // training rows, grouped by class, ascending within
  std::vector<Index> n_support;  // per class
  MatrixXd dual;                 // (k - 1) x support.size()
  PairReports pairs;             // LIBSVM's pair order

  /// The field table (pairs' fields flattened into the outer dict in
  /// Python; see ExactResult::for_each_field).
  template <class Self, class F>
  static void for_each_field(Self& self, F&& f) {
    f("support", self.support);
    f("n_support", self.n_support);
    f("dual", self.dual);
    f("pairs", self.pairs);
  }
};

/// Called after each pair with its index and report (progress output).
using PairCallback = std::function<void(Index, const PairReport&)>;

/// Solves every pair of the classes `classes` (ClassRows::validate) with
/// fit_exact's solvers and lays the solutions out as LIBSVM does. `source`
/// (ViewKernelSource or PrecomputedKernelSource over all n_total rows of the
/// training data, constructed with an empty subset) is moved from pair to
/// pair by set_rows (ExactWorkspace).
/// class_weight: one multiplier of C per class; sample_weight: empty, or
/// one multiplier per row of the training data. With two classes that hold
/// every row, the one problem is solved on all rows in their order (no
/// subset), as a binary fit is.
template <class Source>
OvoResult fit_ovo(Source& source, Index n_total, const ClassRows& classes, const std::vector<double>& class_weight,
                  const std::vector<double>& sample_weight, ExactSettings settings, RunControl& control,
                  const PairCallback& on_pair = {}) {
  classes.validate(n_total);
  const Index k = classes.k();
  require(static_cast<Index>(class_weight.size()) == k, "class_weight needs one weight per class");
  require(sample_weight.empty() || static_cast<Index>(sample_weight.size()) == n_total,
          "sample_weight needs one weight per row");
  // Validated once here: the pairs differ only in the weights checked below.
  settings.sample_weight = sample_weight;
  settings.weight_pos = settings.weight_neg = 1.0;
  settings.validate();
  settings.sample_weight.clear();
  for (double w : class_weight)
    require(std::isfinite(w) && w > 0.0, "class weights must be positive finite numbers");

  const bool whole = k == 2 && static_cast<Index>(classes.rows.size()) == n_total;
  OvoResult out;
  // Each pair's non-zero alphas, (place in the pair's rows, alpha), flat.
  std::vector<std::pair<Index, double>> nonzero;
  std::vector<std::size_t> pair_begin{0};
  std::vector<Index> subset;
  std::vector<double> y;
  require(source.size() == n_total, "the source must be over all rows of the training data");
  ExactWorkspace<Source> workspace(source, true);
  const std::vector<Index> all_rows;  // the whole binary problem: no subset
  std::vector<double> bounds;  // nu-SVC: each position's bound
  DualResult nu_result;
  for (Index i = 0; i < k; ++i) {
    for (Index j = i + 1; j < k; ++j) {
      const Index ni = classes.count(i), nj = classes.count(j);
      subset.assign(classes.of(i), classes.of(i) + ni);
      subset.insert(subset.end(), classes.of(j), classes.of(j) + nj);
      settings.weight_pos = class_weight[static_cast<std::size_t>(i)];
      settings.weight_neg = class_weight[static_cast<std::size_t>(j)];
      if (whole) {
        // all rows in their order, labels by class
        y.assign(static_cast<std::size_t>(n_total), -1.0);
        for (Index m = 0; m < ni; ++m) y[static_cast<std::size_t>(classes.of(0)[m])] = 1.0;
        settings.sample_weight = sample_weight;
      } else {
        y.assign(static_cast<std::size_t>(ni), 1.0);
        y.resize(static_cast<std::size_t>(ni + nj), -1.0);
        settings.sample_weight.clear();
        if (!sample_weight.empty())
          for (Index r : subset) settings.sample_weight.push_back(sample_weight[static_cast<std::size_t>(r)]);
      }
      ExactResult r;
      const std::vector<double>* solved = nullptr;
      if (settings.nu > 0.0) {
        // nu-SVC's pair (general.hpp): bounds class weight x sample weight,
        // the start from nu, the solution scaled by 1 / r; its own cache.
        source.set_rows(whole ? all_rows : subset);
        bounds.resize(y.size());
        for (std::size_t t = 0; t < y.size(); ++t) {
          const double w = settings.sample_weight.empty() ? 1.0 : settings.sample_weight[t];
          bounds[t] = (y[t] > 0 ? settings.weight_pos : settings.weight_neg) * w;
        }
        nu_result = solve_dual(source, nu_svc_problem(y, bounds, settings.nu), settings, control);
        scale_nu_svc(nu_result);
        static_cast<ExactReport&>(r) = nu_result;
        solved = &nu_result.alpha;
      } else {
        r = workspace.solve(whole ? all_rows : subset, y, settings, control);
        solved = &workspace.alpha();
      }
      const std::vector<double>& alpha = *solved;
      for (Index m = 0; m < ni + nj; ++m) {
        const double a = alpha[static_cast<std::size_t>(whole ? subset[static_cast<std::size_t>(m)] : m)];
        if (a > 0.0) nonzero.emplace_back(m, a);
      }
      pair_begin.push_back(nonzero.size());
      const PairReport rep{r, ni + nj};
      out.pairs.push(rep);
      if (on_pair) on_pair(static_cast<Index>(out.pairs.size()) - 1, rep);
      control.poll();
    }
  }

  // The support vectors: rows with a non-zero alpha in some pair.
  const auto row_at = [&](Index i, Index j, Index m) {
    const Index ni = classes.count(i);
    return m < ni ? classes.of(i)[m] : classes.of(j)[m - ni];
  };
  std::vector<Index> position(static_cast<std::size_t>(n_total), -1);
  {
    Index p = 0;
    for (Index i = 0; i < k; ++i)
      for (Index j = i + 1; j < k; ++j, ++p)
        for (std::size_t e = pair_begin[static_cast<std::size_t>(p)]; e < pair_begin[static_cast<std::size_t>(p) + 1]; ++e)
          position[static_cast<std::size_t>(row_at(i, j, nonzero[e].first))] = 0;
  }
  out.n_support.assign(static_cast<std::size_t>(k), 0);
  for (Index c = 0; c < k; ++c)
    for (Index m = 0; m < classes.count(c); ++m) {
      const Index r = classes.of(c)[m];
      if (position[static_cast<std::size_t>(r)] < 0) continue;
      position[static_cast<std::size_t>(r)] = static_cast<Index>(out.support.size());
      out.support.push_back(r);
      ++out.n_support[static_cast<std::size_t>(c)];
    }
  const Index n_sv = static_cast<Index>(out.support.size());
  out.dual = MatrixXd::Zero(k - 1, n_sv);
  std::vector<Index> sv_start(static_cast<std::size_t>(k) + 1, 0);
  for (Index c = 0; c < k; ++c)
    sv_start[static_cast<std::size_t>(c) + 1] = sv_start[static_cast<std::size_t>(c)] + out.n_support[static_cast<std::size_t>(c)];
  Index p = 0;
  for (Index i = 0; i < k; ++i)
    for (Index j = i + 1; j < k; ++j, ++p) {
      const Index ni = classes.count(i);
      for (std::size_t e = pair_begin[static_cast<std::size_t>(p)]; e < pair_begin[static_cast<std::size_t>(p) + 1]; ++e) {
        const auto [m, a] = nonzero[e];
        const Index col = position[static_cast<std::size_t>(row_at(i, j, m))];
        if (m < ni)
          out.dual(j - 1, col) = a;
        else
          out.dual(i, col) = -a;
      }
      // LIBSVM writes -alpha for every support vector of class j, so those
      // with alpha = 0 in this pair hold -0.0 (as scikit-learn's dual_coef_).
      for (Index col = sv_start[static_cast<std::size_t>(j)]; col < sv_start[static_cast<std::size_t>(j) + 1]; ++col)
        if (out.dual(i, col) == 0.0) out.dual(i, col) = -0.0;
    }
  return out;
}

namespace detail {

/// Rows [begin, begin + count) of X as rows of their own, through the
/// interface kernel_expansion reads (rows, cols, copy_row, squared_norm,
/// and a sparse view's stored entries).
template <class Rows>
class RowRange {
 public:
  RowRange(const Rows& X, Index begin, Index count) : X_(X), begin_(begin), count_(count) {}
  Index rows() const { return count_; }
  Index cols() const { return X_.cols(); }
  bool single_precision() const { return budgetsvm::detail::single_precision(X_); }
  void copy_row(Index i, double* out) const { X_.copy_row(begin_ + i, out); }
  double squared_norm(Index i) const { return X_.squared_norm(begin_ + i); }
  bool sparse() const { return budgetsvm::detail::stores_entries(X_); }
  Index row_nnz(Index i) const {
    if constexpr (budgetsvm::detail::HasEntries<Rows>::value)
      return X_.row_nnz(begin_ + i);
    else
      return X_.cols();
  }
  Index nnz() const {
    Index total = 0;
    for (Index i = 0; i < count_; ++i) total += row_nnz(i);
    return total;
  }
  void copy_entries(Index i, Index* idx, double* val) const {
    if constexpr (budgetsvm::detail::HasEntries<Rows>::value) {
      X_.copy_entries(begin_ + i, idx, val);
    } else {  // never asked of dense rows (sparse() is false); their entries all the same
      X_.copy_row(begin_ + i, val);
      for (Index j = 0; j < X_.cols(); ++j) idx[j] = j;
    }
  }

 private:
  const Rows& X_;
  Index begin_, count_;
};

/// Query rows per block: the block's kernel values (rows x n_SV doubles)
/// stay near 8 MB; by n_SV alone, so a row's values do not depend on the
/// other rows of the call.
inline Index ovo_block_rows(Index n_sv) {
  return std::clamp<Index>((Index{1} << 20) / std::max<Index>(n_sv, 1), 1, 256);
}

}  // namespace detail

/// The pairs' coefficients and intercepts in LIBSVM's layout (see the header
/// comment), read in place: dual is (k - 1) x n_sv row-major, intercept has
/// one value per pair (nullptr: none, the values are then without it).
struct OvoCoef {
  const double* dual = nullptr;
  Index n_sv = 0;
  std::vector<Index> start;  // k + 1 offsets of the classes' support vectors
  const double* intercept = nullptr;

  OvoCoef(const double* dual_coef, const std::vector<Index>& n_support, const double* pair_intercept)
      : dual(dual_coef), intercept(pair_intercept) {
    start.assign(1, 0);
    for (Index c : n_support) {
      require(c >= 0, "n_support must be non-negative");
      start.push_back(start.back() + c);
    }
    n_sv = start.back();
    require(k() >= 2, "a one-vs-one model needs at least two classes");
  }
  Index k() const { return static_cast<Index>(start.size()) - 1; }
};

/// What ovo_scores does with the decision values of each (row, pair),
/// pairs in LIBSVM's order per row:
///   values:  out(row, pair) = f (out: n x pairs, row-major);
///   predict: LIBSVM's vote (f > 0: i, else j), class[row] = the first class
///            with the most votes;
///   ovr:     votes(row, i or j) += 1 with f >= 0 for i (scikit-learn's
///            one-vs-rest transform), confidence(row, i) += f and
///            confidence(row, j) -= f, in pair order (n x k each, row-major).
enum class OvoOutput { values, predict, ovr };

struct OvoTargets {
  double* values = nullptr;       // values
  std::int64_t* classes = nullptr;  // predict
  double* votes = nullptr;        // ovr
  double* confidence = nullptr;   // ovr
};

namespace detail {

/// The rows [first_row, first_row + rows) of the call through every pair
/// into the targets, from their kernel values held support vector by
/// support vector: Kt[s * rows + r] = k(x_{first_row + r}, sv_s). A pair's
/// value of a row is summed over the pair's support vectors in order, one
/// multiply-add each (class i's, then class j's), times row_scale[row] when
/// given, plus the intercept: an order fixed by the model alone, and the
/// loops run along the rows (contiguous), pairs in chunks whose values are
/// written out row by row.
inline void ovo_combine(const OvoCoef& m, const double* Kt, Index rows, Index first_row, const double* row_scale,
                        OvoOutput output, const OvoTargets& t) {
  constexpr Index kPairChunk = 64;
  const Index k = m.k(), n_sv = m.n_sv, pairs = ovo_pair_count(k);
  const auto at = [](Index a, Index b) { return static_cast<std::size_t>(a * b); };
  std::vector<double> f(at(kPairChunk, rows));
  std::vector<double> tally, confidence;  // class-major: [c * rows + r]
  if (output != OvoOutput::values) tally.assign(at(k, rows), 0.0);
  if (output == OvoOutput::ovr) confidence.assign(at(k, rows), 0.0);
  const auto flush = [&](Index p0, Index chunk) {
    for (Index r = 0; r < rows; ++r) {
      double* out = t.values + (first_row + r) * pairs + p0;
      for (Index q = 0; q < chunk; ++q) out[q] = f[at(q, rows) + static_cast<std::size_t>(r)];
    }
  };
  Index p = 0, p0 = 0;
  for (Index i = 0; i < k; ++i) {
    const Index si = m.start[static_cast<std::size_t>(i)], ei = m.start[static_cast<std::size_t>(i) + 1];
    for (Index j = i + 1; j < k; ++j, ++p) {
      const Index sj = m.start[static_cast<std::size_t>(j)], ej = m.start[static_cast<std::size_t>(j) + 1];
      double* fp = f.data() + (output == OvoOutput::values ? at(p - p0, rows) : 0);  // votes: one pair at a time
      std::fill(fp, fp + rows, 0.0);
      const double* di = m.dual + (j - 1) * n_sv;  // class i's support vectors in this pair
      const double* dj = m.dual + i * n_sv;        // class j's
      for (Index s = si; s < ei; ++s) {
        const double a = di[s], *col = Kt + at(s, rows);
        for (Index r = 0; r < rows; ++r) fp[r] += col[r] * a;
      }
      for (Index s = sj; s < ej; ++s) {
        const double a = dj[s], *col = Kt + at(s, rows);
        for (Index r = 0; r < rows; ++r) fp[r] += col[r] * a;
      }
      if (row_scale)
        for (Index r = 0; r < rows; ++r) fp[r] *= row_scale[first_row + r];
      const double b = m.intercept ? m.intercept[p] : 0.0;
      for (Index r = 0; r < rows; ++r) fp[r] += b;
      if (output == OvoOutput::predict) {  // LIBSVM: a value > 0 votes for i, else (0, NaN) for j
        double *vi = tally.data() + at(i, rows), *vj = tally.data() + at(j, rows);
        for (Index r = 0; r < rows; ++r) {
          const double win = fp[r] > 0.0 ? 1.0 : 0.0;
          vi[r] += win;
          vj[r] += 1.0 - win;
        }
      } else if (output == OvoOutput::ovr) {  // scikit-learn: a value >= 0 votes for i
        double *vi = tally.data() + at(i, rows), *vj = tally.data() + at(j, rows);
        double *ci = confidence.data() + at(i, rows), *cj = confidence.data() + at(j, rows);
        for (Index r = 0; r < rows; ++r) {
          const double win = fp[r] >= 0.0 ? 1.0 : 0.0;
          vi[r] += win;
          vj[r] += 1.0 - win;
          ci[r] += fp[r];
          cj[r] -= fp[r];
        }
      } else if (p + 1 - p0 == kPairChunk) {
        flush(p0, kPairChunk);
        p0 = p + 1;
      }
    }
  }
  if (output == OvoOutput::values) {
    if (p > p0) flush(p0, p - p0);
    return;
  }
  for (Index r = 0; r < rows; ++r) {
    const Index row = first_row + r;
    if (output == OvoOutput::predict) {
      Index best = 0;  // the first class with the most votes
      for (Index c = 1; c < k; ++c)
        if (tally[at(c, rows) + static_cast<std::size_t>(r)] > tally[at(best, rows) + static_cast<std::size_t>(r)])
          best = c;
      t.classes[row] = static_cast<std::int64_t>(best);
    } else {
      for (Index c = 0; c < k; ++c) {
        t.votes[row * k + c] = tally[at(c, rows) + static_cast<std::size_t>(r)];
        t.confidence[row * k + c] = confidence[at(c, rows) + static_cast<std::size_t>(r)];
      }
    }
  }
}

}  // namespace detail

/// Up to this many classes ovo_scores takes the pairs' values from one
/// dense product, kernel_expansion with the n_SV x pairs coefficients (as
/// for two classes, and as before the pair-by-pair path existed): with few
/// pairs the product fused into the kernel tiles costs less than the kernel
/// values first and each pair from its two classes after (5,000 query rows
/// against about 900 to 3,700 support vectors: 3 classes 1.6 times, 8
/// even, 12 and more classes the pairs faster, 30 classes 6 times; float32
/// rows, whose fused tiles are float, even at about 12).
inline constexpr Index kOvoDenseClasses = 10;

namespace detail {

/// The dense path's coefficients (n_SV x pairs): pair (i, j) weighs class
/// i's support vectors by dual row j - 1 and class j's by row i.
inline MatrixXd ovo_pair_coef(const OvoCoef& m) {
  const Index k = m.k();
  MatrixXd coef = MatrixXd::Zero(m.n_sv, ovo_pair_count(k));
  Index p = 0;
  for (Index i = 0; i < k; ++i)
    for (Index j = i + 1; j < k; ++j, ++p) {
      for (Index s = m.start[static_cast<std::size_t>(i)]; s < m.start[static_cast<std::size_t>(i) + 1]; ++s)
        coef(s, p) = m.dual[(j - 1) * m.n_sv + s];
      for (Index s = m.start[static_cast<std::size_t>(j)]; s < m.start[static_cast<std::size_t>(j) + 1]; ++s)
        coef(s, p) = m.dual[i * m.n_sv + s];
    }
  return coef;
}

/// The dense path's rows [first_row, first_row + rows) into the targets:
/// each pair's sum (sums: rows x pairs, row-major) times row_scale[row]
/// when given, plus the intercept, then as ovo_combine.
inline void ovo_emit(const OvoCoef& m, const double* sums, Index rows, Index first_row, const double* row_scale,
                     OvoOutput output, const OvoTargets& t) {
  const Index k = m.k(), pairs = ovo_pair_count(k);
  std::vector<std::int64_t> votes(static_cast<std::size_t>(k));
  for (Index r = 0; r < rows; ++r) {
    const Index row = first_row + r;
    std::fill(votes.begin(), votes.end(), 0);
    if (output == OvoOutput::ovr) {
      std::fill(t.votes + row * k, t.votes + (row + 1) * k, 0.0);
      std::fill(t.confidence + row * k, t.confidence + (row + 1) * k, 0.0);
    }
    Index p = 0;
    for (Index i = 0; i < k; ++i)
      for (Index j = i + 1; j < k; ++j, ++p) {
        double f = sums[r * pairs + p];
        if (row_scale) f *= row_scale[row];
        if (m.intercept) f += m.intercept[p];
        switch (output) {
          case OvoOutput::values:
            t.values[row * pairs + p] = f;
            break;
          case OvoOutput::predict:
            ++votes[static_cast<std::size_t>(f > 0.0 ? i : j)];
            break;
          case OvoOutput::ovr:
            t.votes[row * k + (f >= 0.0 ? i : j)] += 1.0;
            t.confidence[row * k + i] += f;
            t.confidence[row * k + j] -= f;
            break;
        }
      }
    if (output == OvoOutput::predict)
      t.classes[row] = static_cast<std::int64_t>(std::max_element(votes.begin(), votes.end()) - votes.begin());
  }
}

/// The pair-by-pair path: the n rows in blocks (ovo_block_rows) spread over
/// n_threads threads; fill(begin, count, Kt, control) writes a block's kernel
/// values support vector by support vector (Kt[s * count + r] =
/// k(x_{begin + r}, sv_s)), then ovo_combine takes them into the targets.
template <class Fill>
void ovo_blocks(Index n, const OvoCoef& m, const double* row_scale, OvoOutput output, const OvoTargets& targets,
                int n_threads, RunControl& control, Fill&& fill) {
  const Index block = ovo_block_rows(m.n_sv), tasks = (n + block - 1) / block;
  parallel_tasks(tasks, n_threads, control, [&](Index t, RunControl& ctl) {
    ctl.poll_block();
    const Index begin = t * block, count = std::min(block, n - begin);
    std::vector<double> Kt(static_cast<std::size_t>(count * m.n_sv));
    fill(begin, count, Kt.data(), ctl);
    ovo_combine(m, Kt.data(), count, begin, row_scale, output, targets);
  });
}

}  // namespace detail

/// The one-vs-one scores of every row of X (OvoOutput) against the support
/// vectors SV (m.n_sv rows, grouped by class). X is read through
/// kernel_expansion's interface and the kernel values are
/// kernel_expansion's. Up to kOvoDenseClasses classes one dense product
/// (kernel_expansion); beyond, blocks of rows (detail::ovo_block_rows)
/// pair by pair (ovo_combine), spread over n_threads threads. The result
/// depends neither on n_threads nor (beyond) on the other rows of the call.
template <class RowsX, class ViewSV>
void ovo_scores(const Kernel& kernel, const RowsX& X, const ViewSV& SV, const OvoCoef& m, OvoOutput output,
                const OvoTargets& targets, int n_threads, RunControl& control, const double* row_scale = nullptr) {
  require(SV.rows() == m.n_sv, "the support vectors and n_support disagree");
  require(X.cols() == SV.cols(), "X and the support vectors must have the same number of features");
  const Index n = X.rows(), n_sv = m.n_sv;
  if (m.k() <= kOvoDenseClasses) {
    MatrixXd sums = MatrixXd::Zero(n, ovo_pair_count(m.k()));
    if (n_sv > 0) kernel_expansion(kernel, X, SV, detail::ovo_pair_coef(m), sums, n_threads, control);
    detail::ovo_emit(m, sums.data(), n, 0, row_scale, output, targets);
    return;
  }
  detail::ovo_blocks(n, m, row_scale, output, targets, n_threads, control,
                     [&](Index begin, Index count, double* Kt, RunControl& ctl) {
                       const detail::RowRange<RowsX> rows(X, begin, count);
                       const auto sink = [&](Index start, Index c, Index j0, Index width, const auto* g, Index ldg) {
                         for (Index j = 0; j < width; ++j) {
                           double* col = Kt + (j0 + j) * count + start;
                           for (Index r = 0; r < c; ++r) col[r] = static_cast<double>(g[r * ldg + j]);
                         }
                       };
                       if (n_sv > 0) kernel_expansion_tiles(kernel, rows, SV, sink, 1, ctl);
                     });
}

/// ovo_scores from given kernel values: K (n x m.n_sv, row-major) holds
/// k(x_r, sv_s) (a precomputed kernel's columns of the support vectors).
inline void ovo_scores_from_kernel(const double* K, Index n, const OvoCoef& m, OvoOutput output,
                                   const OvoTargets& targets, int n_threads, RunControl& control,
                                   const double* row_scale = nullptr) {
  const Index n_sv = m.n_sv;
  if (m.k() <= kOvoDenseClasses) {
    const MatrixXd sums = Eigen::Map<const MatrixXd>(K, n, n_sv) * detail::ovo_pair_coef(m);
    detail::ovo_emit(m, sums.data(), n, 0, row_scale, output, targets);
    return;
  }
  detail::ovo_blocks(n, m, row_scale, output, targets, n_threads, control,
                     [&](Index begin, Index count, double* Kt, RunControl&) {
                       for (Index r = 0; r < count; ++r)
                         for (Index s = 0; s < n_sv; ++s) Kt[s * count + r] = K[(begin + r) * n_sv + s];
                     });
}

}  // namespace budgetsvm::exact
