// The merge sub-problem of budget maintenance with a Gaussian kernel.
//
// Two support vectors (beta_a, z_a), (beta_b, z_b) with beta_a, beta_b of the
// same sign are replaced by one (beta_z, z), z = h z_a + (1 - h) z_b. With
// s = beta_a + beta_b, m = beta_a / s (the weight of the point h multiplies)
// and kappa = k(z_a, z_b) in [0, 1] (docs/budgeted.md, "The budget model"):
//
//   g(h)        = m kappa^((1-h)^2) + (1-m) kappa^(h^2)
//   h*          = argmax_{h in [0,1]} g(h),    beta_z = s g(h*)
//   WD(m,kappa) = m^2 + (1-m)^2 + 2 m (1-m) kappa - g(h*)^2,
//   ||Delta||^2 = s^2 WD(m, kappa).
//
// We follow docs/budgeted.md, not the papers' Algorithm 1: there m = beta / (beta +
// beta_min) is the weight of the *other* point while z = h x_min + (1-h) x,
// so h lands on the wrong point; and the lookup paper's WD carries the factor
// (a_i + a_j) where it must be (a_i + a_j)^2.
//
// Three interchangeable solvers (the lookup paper, Glasmachers & Qaadan):
//   gss        golden section search on [0, 1] to precision eps, returning
//              the best of the final point and the endpoints h = 0, 1;
//   lookup-h   bilinear interpolation of h*(m, kappa) in a precomputed table,
//              then g and WD from the formulas;
//   lookup-wd  bilinear interpolation of WD(m, kappa) itself (to rank merge
//              partners), then one h look-up for the chosen pair.
// The tables hold the *global* maximum of g (g has two modes when
// kappa < e^-2) found to 1e-10, over the half m in [0, 1/2] only, with
// h*(1-m, kappa) = 1 - h*(m, kappa) applied at look-up: h* jumps across
// m = 1/2 in the bimodal corner, and the half table never interpolates
// across that jump. At m = 1/2 (a node) the tie is broken towards h <= 1/2,
// the side the half table continues. Tables are built once per grid size,
// lazily and thread-safely, at first use.
//
// Multi-class merging (BSGD, Crammer-Singer) maximises
// F(h) = sum_c (beta_a^c kappa^((1-h)^2) + beta_b^c kappa^(h^2))^2, the
// exact minimiser of sum_c ||Delta^c||^2 (docs/budgeted.md; not the BSGD paper's
// eq. (17), undefined when beta_a^c + beta_b^c = 0), on a coarse grid and
// then by golden section around the best cell, endpoints included.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../core/errors.hpp"
#include "../core/options.hpp"
#include "simd_merge.hpp"

namespace budgetsvm::merge {

enum class Method { gss, lookup_h, lookup_wd };

inline const NameTable<Method>& method_names() {
  static const NameTable<Method> table{
      {"gss", Method::gss}, {"lookup-h", Method::lookup_h}, {"lookup-wd", Method::lookup_wd}};
  return table;
}

/// g(h) with log_kappa = log(kappa) precomputed (-inf for kappa = 0).
inline double merge_g(double m, double log_kappa, double h) {
  const double a = (1.0 - h) * (1.0 - h), b = h * h;
  const double pa = a == 0.0 ? 1.0 : std::exp(a * log_kappa);
  const double pb = b == 0.0 ? 1.0 : std::exp(b * log_kappa);
  return m * pa + (1.0 - m) * pb;
}

/// Normalised weight degradation for a merge with value g = g(h).
inline double weight_degradation(double m, double kappa, double g) {
  const double wd = m * m + (1.0 - m) * (1.0 - m) + 2.0 * m * (1.0 - m) * kappa - g * g;
  return wd > 0.0 ? wd : 0.0;
}

struct Solution {
  double h = 0.0;
  double wd = 0.0;
};

inline double safe_log(double kappa) {
  return kappa > 0.0 ? std::log(kappa) : -std::numeric_limits<double>::infinity();
}

constexpr double kGoldenRatio = 0.6180339887498949;  // (sqrt(5) - 1) / 2

/// The smallest tolerance of the golden section search: on [0, 1] the
/// interval stops shrinking near float64's resolution, and a smaller
/// tolerance would never be reached.
constexpr double kMinGssEps = 1e-12;

/// Golden section maximisation of f on [lo, hi] until hi - lo <= tol (at
/// most 200 rounds: 0.618^200 < 1e-41, so the bound only guards against a
/// tolerance the arithmetic cannot reach); returns the better of the two
/// final interior points and its value.
template <class F>
std::pair<double, double> golden_section_max(F&& f, double lo, double hi, double tol) {
  double c = hi - kGoldenRatio * (hi - lo), d = lo + kGoldenRatio * (hi - lo);
  double fc = f(c), fd = f(d);
  for (int round = 0; round < 200 && hi - lo > tol; ++round) {
    if (fc >= fd) {
      hi = d;
      d = c;
      fd = fc;
      c = hi - kGoldenRatio * (hi - lo);
      fc = f(c);
    } else {
      lo = c;
      c = d;
      fc = fd;
      d = lo + kGoldenRatio * (hi - lo);
      fd = f(d);
    }
  }
  return fc >= fd ? std::make_pair(c, fc) : std::make_pair(d, fd);
}

/// The `gss` method: golden section to eps on [0, 1], then the best of the
/// final point and the endpoints (for tiny kappa the maximum sits at an
/// endpoint, which the search's midpoints never reach).
inline Solution solve_gss(double m, double kappa, double eps) {
  const double lk = safe_log(kappa);
  auto g = [&](double h) { return merge_g(m, lk, h); };
  auto [h, gh] = golden_section_max(g, 0.0, 1.0, eps);
  const double g0 = m * kappa + (1.0 - m), g1 = m + (1.0 - m) * kappa;
  if (g0 > gh) h = 0.0, gh = g0;
  if (g1 > gh) h = 1.0, gh = g1;
  return {h, weight_degradation(m, kappa, gh)};
}

/// The coarse grid of solve_global: g at h = i / kCoarseGrid, i = 0..kCoarseGrid.
inline constexpr int kCoarseGrid = 64;

/// kappa^(h^2) = exp(h^2 log kappa) at the coarse grid's h = i / kCoarseGrid
/// (i = 1..kCoarseGrid - 1; the ends are closed forms). kappa^((1-h)^2) is
/// the same array read backwards: 1 - i / kCoarseGrid = (kCoarseGrid - i) /
/// kCoarseGrid exactly, so both factors are the values merge_g computes, bit
/// for bit, and one column of a lookup table (one kappa) shares them over all m.
struct CoarsePowers {
  double p[kCoarseGrid + 1];
  explicit CoarsePowers(double log_kappa) {
    p[0] = p[kCoarseGrid] = 1.0;
    for (int i = 1; i < kCoarseGrid; ++i) {
      const double h = static_cast<double>(i) / kCoarseGrid;
      p[i] = std::exp(h * h * log_kappa);
    }
  }
};

/// The global maximiser of g to `tol` (what the lookup tables hold): a
/// coarse grid, then golden section around every coarse local maximum.
/// Ties (m = 1/2 in the bimodal corner) go to the smaller h. `coarse`: the
/// powers of this kappa on the coarse grid (CoarsePowers).
inline Solution solve_global(double m, double kappa, const CoarsePowers& coarse, double tol = 1e-10) {
  if (kappa >= 1.0) return {m, 0.0};  // g == 1; h -> m in the limit kappa -> 1
  const double lk = safe_log(kappa);
  auto g = [&](double h) {
    if (h <= 0.0) return m * kappa + (1.0 - m);
    if (h >= 1.0) return m + (1.0 - m) * kappa;
    return merge_g(m, lk, h);
  };
  constexpr int kCoarse = kCoarseGrid;  // the grid's intervals
  double values[kCoarse + 1];
  values[0] = g(0.0);
  values[kCoarse] = g(1.0);
  for (int i = 1; i < kCoarse; ++i) values[i] = m * coarse.p[kCoarse - i] + (1.0 - m) * coarse.p[i];
  double best_h = 0.0, best_g = -1.0;
  for (int i = 0; i <= kCoarse; ++i) {
    const bool left_ok = i == 0 || values[i] >= values[i - 1];
    const bool right_ok = i == kCoarse || values[i] >= values[i + 1];
    if (!(left_ok && right_ok)) continue;
    const double lo = static_cast<double>(std::max(i - 1, 0)) / kCoarse;
    const double hi = static_cast<double>(std::min(i + 1, kCoarse)) / kCoarse;
    auto [h, gh] = golden_section_max(g, lo, hi, tol);
    const double hi_end = static_cast<double>(i) / kCoarse;
    if (values[i] > gh) h = hi_end, gh = values[i];  // an endpoint maximum
    // Scanning from h = 0 upwards, a later mode wins only when better
    // beyond rounding: ties keep the smaller h.
    if (best_g < 0.0 || gh > best_g + 1e-14) best_h = h, best_g = gh;
  }
  return {best_h, weight_degradation(m, kappa, best_g)};
}

inline Solution solve_global(double m, double kappa, double tol = 1e-10) {
  return solve_global(m, kappa, CoarsePowers(safe_log(kappa)), tol);
}

/// The merge tables' default resolution per axis (the lookup paper's), and
/// the largest accepted: building a table costs O(grid^2) searches.
inline constexpr int kDefaultGrid = 400;
inline constexpr int kMaxGrid = 2000;

inline void check_grid(int grid) {
  require(grid >= 2 && grid % 2 == 0 && grid <= kMaxGrid,
          "lookup_grid must be an even number in [2, " + std::to_string(kMaxGrid) + "]; got " +
              std::to_string(grid) + ".");
}

/// h*(m, kappa) and WD(m, kappa) on a grid over m in [0, 1/2] (grid/2
/// intervals, non-uniform, see m_of_u) and kappa in [0, 1] (grid
/// intervals): the lookup paper's resolution `grid` per axis.
class LookupTable {
 public:
  explicit LookupTable(int grid) : grid_(grid), half_(grid / 2) {
    check_grid(grid);
    const int rows = half_ + 1, cols = grid_ + 1;
    h_.resize(static_cast<std::size_t>(rows) * cols);
    wd_.resize(h_.size());
    // The coarse grid's powers of each kappa, shared by the column's rows
    // (most of the build's exponentials are these; the same table bit for bit).
    std::vector<CoarsePowers> powers;
    powers.reserve(static_cast<std::size_t>(cols));
    for (int j = 0; j < cols; ++j) powers.emplace_back(safe_log(static_cast<double>(j) / grid_));
    for (int i = 0; i < rows; ++i) {
      const double m = m_of_u(static_cast<double>(i) / half_);
      for (int j = 0; j < cols; ++j) {
        const double kappa = static_cast<double>(j) / grid_;
        const Solution s = solve_global(m, kappa, powers[static_cast<std::size_t>(j)]);
        h_[static_cast<std::size_t>(i) * cols + j] = s.h;
        wd_[static_cast<std::size_t>(i) * cols + j] = static_cast<float>(s.wd);
      }
    }
    build_ratio_floor();
  }

  /// The m axis is uniform in u in [0, 1] with m = (1 - (1 - u)^2) / 2:
  /// nodes twice as far apart as a uniform grid at m = 0 and ever denser
  /// towards m = 1/2, where h* bifurcates (at kappa = e^-2, h* - 1/2 grows
  /// like (1/2 - m)^(1/3), so WD has an unbounded second derivative there
  /// and a uniform grid of 400 interpolates WD with errors near 8e-5).
  static double m_of_u(double u) { return 0.5 * (1.0 - (1.0 - u) * (1.0 - u)); }
  static double u_of_m(double m) { return 1.0 - std::sqrt(std::max(0.0, 1.0 - 2.0 * m)); }

  int grid() const { return grid_; }

  /// Interpolated h*(m, kappa), with the flip for m > 1/2.
  double h(double m, double kappa) const {
    const bool flip = m > 0.5;
    const double v = interpolate(h_, flip ? 1.0 - m : m, kappa);
    return flip ? 1.0 - v : v;
  }

  /// Interpolated WD(m, kappa) (symmetric in m <-> 1 - m).
  double wd(double m, double kappa) const { return simd::detail::wd_at(wd_grid(), m, kappa); }

  /// The WD nodes, for the vectorised cost pass (simd_merge.hpp).
  simd::WdGrid wd_grid() const { return {wd_.data(), grid_, half_}; }

  /// The partner search's pruning bound. A merge partner's cost is
  /// s^2 wd(m, kappa) = beta_a^2 wd(m, kappa) / m^2 (m <= 1/2: a has the
  /// smaller |beta|), and wd / m^2 falls steeply with kappa. ratio_floor_[c]
  /// is a lower bound of the interpolated wd(m, kappa) / m^2 over every m in
  /// (0, 1/2] and every kappa in column c of the table (kappa * grid in
  /// [c, c + 1)), non-increasing in c. kappa_cut(r) returns the first column
  /// whose bound is <= r (as a double, for kappa_below): a partner with
  /// kappa_below(kappa, kappa_cut(r)) costs more than r beta_a^2.
  double kappa_cut(double r) const {
    const auto first = std::partition_point(ratio_floor_.begin(), ratio_floor_.end(),
                                            [r](double f) { return f > r; });
    return static_cast<double>(first - ratio_floor_.begin());
  }
  /// kappa (clamped to [0, 1]) lies in a column before `cut`; the same
  /// expression as interpolate's column, so both agree at the boundaries.
  bool kappa_below(double kappa, double cut) const { return kappa * grid_ < cut; }

 private:
  template <class T>
  double interpolate(const std::vector<T>& table, double m, double kappa) const {
    return simd::detail::bilinear(table.data(), grid_, half_, m, kappa);
  }

  /// ratio_floor_ (see kappa_cut). Within a cell the bilinear interpolant
  /// is a convex combination of its four nodes, so it is >= their minimum,
  /// while m <= the cell's upper m node. The first row of cells has
  /// wd = 0 at m = 0: there the interpolant is >= fu min(c, d) (c, d its
  /// nodes at m_1) and m <= u = fu / half (m_of_u(u) <= u), so
  /// wd / m^2 >= half^2 min(c, d) / fu >= half^2 min(c, d). A relative
  /// margin of 1e-9 covers the rounding of the interpolation and of the
  /// costs compared with it.
  void build_ratio_floor() {
    const std::size_t cols = static_cast<std::size_t>(grid_) + 1;
    ratio_floor_.assign(static_cast<std::size_t>(grid_), std::numeric_limits<double>::infinity());
    for (int i = 0; i < half_; ++i) {
      const double m_hi = m_of_u(static_cast<double>(i + 1) / half_);
      for (int j = 0; j < grid_; ++j) {
        const float* r0 = wd_.data() + static_cast<std::size_t>(i) * cols + static_cast<std::size_t>(j);
        const float* r1 = r0 + cols;
        const double low_row = std::min<double>(r1[0], r1[1]);
        const double bound = i == 0 ? static_cast<double>(half_) * half_ * low_row
                                    : std::min<double>(std::min<double>(r0[0], r0[1]), low_row) / (m_hi * m_hi);
        double& f = ratio_floor_[static_cast<std::size_t>(j)];
        f = std::min(f, bound);
      }
    }
    for (std::size_t j = 0; j < ratio_floor_.size(); ++j) {
      if (j > 0) ratio_floor_[j] = std::min(ratio_floor_[j], ratio_floor_[j - 1]);
    }
    for (double& f : ratio_floor_) f *= 1.0 - 1e-9;
  }

  int grid_, half_;
  std::vector<double> h_;
  std::vector<double> ratio_floor_;  // grid entries, see kappa_cut
  // WD in single precision (rounding <= 6e-8, far below the interpolation
  // error): the default grid then takes 320 KB and stays in L2 during the
  // partner search, which reads it at B random places per merge.
  std::vector<float> wd_;
};

/// The process-wide table of a grid size, built at first use, thread-safely:
/// the default grid is a function-local static (built exactly once,
/// concurrent first users wait); other sizes are built under a mutex and kept
/// for the life of the process (a table never moves once built).
inline const LookupTable& lookup_table(int grid) {
  if (grid == kDefaultGrid) {
    static const LookupTable table(kDefaultGrid);
    return table;
  }
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<const LookupTable>> tables;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& table = tables[grid];
  if (!table) table = std::make_unique<const LookupTable>(grid);
  return *table;
}

/// The merge sub-problem by any method. For gss and lookup-h, wd is WD at the
/// returned h (exact formula); for lookup-wd it is the interpolated WD, the
/// value that method ranks merge partners by.
inline Solution solve(Method method, double m, double kappa, double eps = 0.01, int grid = kDefaultGrid) {
  require(m >= 0.0 && m <= 1.0, "m must lie in [0, 1]");
  require(kappa >= 0.0 && kappa <= 1.0, "kappa must lie in [0, 1]");
  if (method != Method::gss) check_grid(grid);
  switch (method) {
    case Method::gss:
      require(eps >= kMinGssEps && eps < 1.0,
              "gss_eps must be >= 1e-12 and < 1 (a smaller tolerance is below what float64 resolves on [0, 1]); "
              "got " + value_text(OptionValue(eps)) + ".");
      return solve_gss(m, kappa, eps);
    case Method::lookup_h: {
      const double h = lookup_table(grid).h(m, kappa);
      return {h, weight_degradation(m, kappa, merge_g(m, safe_log(kappa), h))};
    }
    case Method::lookup_wd: {
      const auto& t = lookup_table(grid);
      return {t.h(m, kappa), t.wd(m, kappa)};
    }
  }
  return {};
}

// ---- solver policies used inside budget maintenance ------------------------
// candidate(m, kappa): the WD estimate that ranks partners;
// h(m, kappa): the merge coefficient for the chosen partner.

// `prunes`: the solver offers the bound of LookupTable::kappa_cut for its
// candidate values (exact for lookup-wd, whose candidates are the table's
// interpolated WD itself).
struct GssSolver {
  static constexpr bool prunes = false;
  double eps = 0.01;
  double candidate(double m, double kappa) const { return solve_gss(m, kappa, eps).wd; }
  double h(double m, double kappa) const { return solve_gss(m, kappa, eps).h; }
};

struct LookupHSolver {
  static constexpr bool prunes = false;
  const LookupTable* table = nullptr;
  double candidate(double m, double kappa) const {
    const double h = table->h(m, kappa);
    return weight_degradation(m, kappa, merge_g(m, safe_log(kappa), h));
  }
  double h(double m, double kappa) const { return table->h(m, kappa); }
};

struct LookupWdSolver {
  static constexpr bool prunes = true;
  const LookupTable* table = nullptr;
  double candidate(double m, double kappa) const { return table->wd(m, kappa); }
  double h(double m, double kappa) const { return table->h(m, kappa); }
};

/// Multi-class merge: maximise F(h) = A p^2 + 2 C p q + D q^2 with
/// p = kappa^((1-h)^2), q = kappa^(h^2), A = |beta_a|^2, C = <beta_a, beta_b>,
/// D = |beta_b|^2. Returns (h, F(h)); sum_c ||Delta^c||^2 = A + D + 2 C kappa - F.
inline std::pair<double, double> solve_multiclass(double A, double C, double D, double kappa,
                                                  double eps) {
  const double lk = safe_log(kappa);
  auto F = [&](double h) {
    const double a = (1.0 - h) * (1.0 - h), b = h * h;
    const double p = a == 0.0 ? 1.0 : std::exp(a * lk);
    const double q = b == 0.0 ? 1.0 : std::exp(b * lk);
    return A * p * p + 2.0 * C * p * q + D * q * q;
  };
  constexpr int kCoarse = 8;
  double best_h = 0.0, best_f = -std::numeric_limits<double>::infinity();
  int best_i = 0;
  for (int i = 0; i <= kCoarse; ++i) {
    const double h = static_cast<double>(i) / kCoarse;
    const double f = F(h);
    if (f > best_f) best_f = f, best_h = h, best_i = i;
  }
  const double lo = static_cast<double>(std::max(best_i - 1, 0)) / kCoarse;
  const double hi = static_cast<double>(std::min(best_i + 1, kCoarse)) / kCoarse;
  auto [h, f] = golden_section_max(F, lo, hi, eps);
  if (f > best_f) best_h = h, best_f = f;
  return {best_h, best_f};
}

}  // namespace budgetsvm::merge
