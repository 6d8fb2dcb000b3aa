// Decision values of a kernel expansion:
//
//   out(i, :) = sum_j k(x_i, z_j) coef(j, :)
//
// for query rows x_i and support vectors z_j: the prediction of every kernel
// model (SVC, BudgetedSVC, the model files' C++ predict); and kernel_matrix
// (K(i, j) = k(x_i, y_j)), the same tiles written out instead of summed. Two
// paths that agree to rounding:
//
// - fused, when the support vectors fit densely (m d values, d moderate):
//   they are copied once, feature-major and shifted by the reference point c
//   of the Gaussian kernel (centre.hpp). Query rows are gathered in blocks
//   (shifted too), and each block meets the support vectors one tile at a
//   time: dot products in register tiles (simd.hpp's dense_dots, each load
//   of a support vector serving four rows), kernel values in place, the
//   tile's share added to out. A tile stays in cache; a whole block of
//   rows x m dot products (megabytes for thousands of support vectors)
//   would be written to memory and read back twice. With both operands
//   shifted, a distance errs by about eps |x - c| |z - c|; where gamma times
//   that error is not negligible (a narrow kernel on far-flung points), the
//   distances that matter are recomputed from differences of the rows as
//   given (not shifted: a far reference point absorbs small coordinates).
//   float32 query rows (the user's choice of precision) with the Gaussian
//   kernel run in float (simd_float.hpp): twice the lanes, the error
//   relative to the data's spread, not to its offset; unless gamma or the
//   data's scale is beyond what float holds (float_arithmetic_fits), then
//   in double.
//   Sparse query rows of at most a third of d stored entries (with the
//   shift) skip the gather: each row's dot products with a tile are one
//   pass over it per stored entry (the training margin's `dots`), in double.
// - general, for wide sparse support vectors (text features): the support
//   vectors are read in place (sparse-dense products), the query rows in
//   dense blocks.
//
// Both split the rows into blocks fixed by the row count alone, so the
// result is the same for every thread count. `control` is polled per block.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "kernel_function.hpp"
#include "simd_float.hpp"

namespace budgetsvm {

namespace detail {

constexpr Index kExpansionRows = 64;   // query rows per block (a multiple of dense_dots' 4)
constexpr Index kExpansionTile = 256;  // support vectors per tile
constexpr Index kExpansionTask = 256;  // query rows per task of the thread pool

/// Whether the fused path takes m support vectors of d features: a dense
/// copy of at most 2^24 values (128 MB), and query rows of at most 4096
/// features (each is densified).
inline bool fused_expansion_fits(Index m, Index d) { return d <= 4096 && m * d <= (Index{1} << 24); }

/// Whether float arithmetic is safe for this call: gamma within [1e-30, 1e30]
/// and every squared norm of X and SV at most 1e30, and gamma times it too.
/// Where the kernel value is neither about 0 nor about 1, a squared distance
/// is about 1 / gamma, which float then holds to its precision; squared
/// norms, and the parts of the exponent (simd_float.hpp: gamma times squared
/// norms and dot products), stay far from float's overflow. Otherwise (data
/// at the scale of 1e-20, or 1e20) the float32 rows are computed in double.
template <class RowsX, class ViewSV>
bool float_arithmetic_fits(const Kernel& kernel, const RowsX& X, const ViewSV& SV) {
  constexpr double kLimit = 1e30;
  if (!(kernel.gamma >= 1.0 / kLimit && kernel.gamma <= kLimit)) return false;
  const double bound = kLimit / std::max(1.0, kernel.gamma);
  for (Index j = 0; j < SV.rows(); ++j)
    if (!(SV.squared_norm(j) <= bound)) return false;
  for (Index i = 0; i < X.rows(); ++i)
    if (!(X.squared_norm(i) <= bound)) return false;
  return true;
}

/// Whether the rows hold float32 values: X.single_precision() where the type
/// has it (type-erased rows), else its Scalar type.
template <class Rows, class = void>
struct HasSinglePrecision : std::false_type {};
template <class Rows>
struct HasSinglePrecision<Rows, std::void_t<decltype(std::declval<const Rows&>().single_precision())>>
    : std::true_type {};
template <class Rows, class = void>
struct HasScalar : std::false_type {};
template <class Rows>
struct HasScalar<Rows, std::void_t<typename Rows::Scalar>> : std::true_type {};

template <class Rows>
bool single_precision(const Rows& X) {
  if constexpr (HasSinglePrecision<Rows>::value)
    return X.single_precision();
  else if constexpr (HasScalar<Rows>::value)
    return std::is_same_v<typename Rows::Scalar, float>;
  else
    return false;
}

/// The support vectors of the fused path in precision T, built once:
/// Zt[k * m + j] = dot_scale (z_j - c)_k (feature-major, shifted by the
/// centre), norms[j] = norm_scale |z_j - c|^2 (norm_scale = scale_norms)
/// and the coefficients. The scales are 1 but for float's Gaussian values
/// (simd_float.hpp: 2 g and -g, applied in double before the rounding to
/// float; a query row's part is norm_scale |x - c|^2 too).
template <class T>
struct FusedSupport {
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Centre centre;
  std::vector<T> Zt;
  std::vector<T> norms;
  Matrix coef;
  Index m = 0;
  double norm_scale = 1.0;

  /// SV is read through rows() / cols() / copy_row() only; c is the centre
  /// (inactive for kernels other than rbf).
  template <class RowsSV>
  FusedSupport(Centre c, const RowsSV& SV, const Eigen::Ref<const MatrixXd>& coefficients, double dot_scale = 1.0,
               double scale_norms = 1.0)
      : centre(std::move(c)), coef(coefficients.template cast<T>()), m(SV.rows()), norm_scale(scale_norms) {
    const Index d = SV.cols();
    Zt.assign(static_cast<std::size_t>(m * d), T{0});
    norms.resize(static_cast<std::size_t>(m));
    std::vector<double> row(static_cast<std::size_t>(d));
    for (Index j = 0; j < m; ++j) {
      SV.copy_row(j, row.data());
      centre.shift(row.data());
      double s = 0.0;
      for (Index k = 0; k < d; ++k) {
        s += row[static_cast<std::size_t>(k)] * row[static_cast<std::size_t>(k)];
        Zt[static_cast<std::size_t>(k * m + j)] = static_cast<T>(dot_scale * row[static_cast<std::size_t>(k)]);
      }
      norms[static_cast<std::size_t>(j)] = static_cast<T>(norm_scale * s);
    }
  }
};

/// The distance from norms, |x|^2 + |z|^2 - 2 <x, z>, errs by about
/// 4 eps (|x|^2 + |z|^2). Whether gamma times that bound is more than
/// negligible for a row of squared norm xnorm against a tile whose largest
/// squared norm is zmax: data whose spread dwarfs 1 / gamma (a narrow
/// kernel on far-flung points), where equal points could get kernel 0.
inline bool rbf_may_cancel(double gamma, double xnorm, double zmax) {
  return gamma * 4.0 * std::numeric_limits<double>::epsilon() * (xnorm + zmax) > 1e-10;
}

/// Exact squared distances between rows as given (unshifted), for the rare
/// rows where the norm formula may cancel. The shifted rows will not do:
/// a reference point far out in one feature (1e30) absorbs coordinates
/// small beside it (the 1 and the 2 of [0, 1] and [0, 2]), so their
/// differences would vanish. Rows are copied only when asked for.
template <class RowsX, class RowsZ>
class OriginalRows {
 public:
  OriginalRows(const RowsX& X, const RowsZ& Z) : X_(X), Z_(Z) {}
  void load(Index i) {
    x_.resize(static_cast<std::size_t>(X_.cols()));
    X_.copy_row(i, x_.data());
  }
  /// |x_i - z_j|^2 for the row i last loaded.
  double distance(Index j) {
    z_.resize(x_.size());
    Z_.copy_row(j, z_.data());
    double s = 0.0;
    for (std::size_t k = 0; k < x_.size(); ++k) s += (x_[k] - z_[k]) * (x_[k] - z_[k]);
    return s;
  }

 private:
  const RowsX& X_;
  const RowsZ& Z_;
  std::vector<double> x_, z_;
};

/// Gaussian kernel values of row i (squared norm xnorm after the shift)
/// against support vectors [j0, j0 + width), from their dot products: every
/// distance that could leave a kernel value above 0 (the norm formula's
/// value minus its error bound below exp's range) is recomputed from the
/// unshifted rows. The bound covers the formula's rounding and the shift's
/// (each shifted value errs by eps times its size). out may alias dots.
template <class Originals>
void rbf_row_by_differences(double gamma, Index i, Index j0, const double* dots, double xnorm, const double* znorm,
                            Index width, double* out, Originals& originals) {
  const double round = 8.0 * std::numeric_limits<double>::epsilon();
  bool loaded = false;
  for (Index j = 0; j < width; ++j) {
    double dist = std::max(0.0, xnorm + znorm[j] - 2.0 * dots[j]);
    if (gamma * (dist - round * (xnorm + znorm[j])) < 746.0) {  // beyond: exp underflows to 0 either way
      if (!loaded) originals.load(i);
      loaded = true;
      dist = originals.distance(j0 + j);
    }
    out[j] = std::exp(-gamma * dist);
  }
}

/// Kernel values in place for `count` rows of dots g (row stride ldg), the
/// rows [start, start + count) of X, against support vectors [j0, j0 +
/// width): the vectorised path, or rbf_row_by_differences for rows where
/// the norm formula may cancel.
template <class Originals>
void kernel_rows_from_dots(const Kernel& kernel, Index start, Index count, Index j0, Index width,
                           const double* znorm, const VectorXd& xnorm, double* g, Index ldg, Originals& originals) {
  const simd::Kernels& simd = simd::active_kernels();
  double zmax = 0.0;
  if (kernel.needs_norms())
    for (Index j = 0; j < width; ++j) zmax = std::max(zmax, znorm[j0 + j]);
  for (Index r = 0; r < count; ++r) {
    double* row = g + r * ldg;
    if (kernel.needs_norms() && rbf_may_cancel(kernel.gamma, xnorm[r], zmax))
      rbf_row_by_differences(kernel.gamma, start + r, j0, row, xnorm[r], znorm + j0, width, row, originals);
    else
      kernel.row_from_dots(simd, row, kernel.needs_norms() ? xnorm[r] : 0.0, znorm + j0, width, row);
  }
}

/// Whether X can hand out its rows' stored entries (CSR views, and
/// type-erased rows that say so through sparse()).
template <class Rows, class = void>
struct HasEntries : std::false_type {};
template <class Rows>
struct HasEntries<Rows, std::void_t<decltype(std::declval<const Rows&>().copy_entries(Index{}, nullptr, nullptr))>>
    : std::true_type {};
template <class Rows, class = void>
struct HasSparseFlag : std::false_type {};
template <class Rows>
struct HasSparseFlag<Rows, std::void_t<decltype(std::declval<const Rows&>().sparse())>> : std::true_type {};

template <class Rows>
bool stores_entries(const Rows& X) {
  if constexpr (!HasEntries<Rows>::value)
    return false;
  else if constexpr (HasSparseFlag<Rows>::value)
    return X.sparse();
  else
    return Rows::is_sparse;
}

/// Whether the fused path reads X's rows as stored entries (sparse_block):
/// a sparse row with its shift has at most a third of d entries on
/// average. nnz passes over a tile against dense_dots' d, which serve four
/// rows per load and run near the multiply-add peak: the two break even
/// at about 40% density (docs/numerics.md, "Prediction").
template <class Rows>
bool sparse_rows_pay(const Rows& X, const Centre& centre) {
  if constexpr (HasEntries<Rows>::value) {
    if (!stores_entries(X) || X.rows() == 0) return false;
    const double per_row = static_cast<double>(X.nnz()) / static_cast<double>(X.rows()) +
                           static_cast<double>(centre.features.size());
    return 3.0 * per_row <= static_cast<double>(X.cols());
  } else {
    return false;
  }
}

/// One task's buffers, reused from block to block.
template <class T>
struct FusedScratch {
  std::vector<Index> rows;
  std::vector<Index> idx, start;  // sparse_block: the rows' shifted entries
  std::vector<double> val;
  std::vector<char> seen;
  MatrixXd Xb;
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Xf;  // float rows (T = float)
  VectorXd norm_x, cdot;
  typename FusedSupport<T>::Matrix G{kExpansionRows, kExpansionTile};
};

/// What a tile of kernel values becomes: CoefProduct (kernel_expansion) adds
/// its product with the coefficients to out; any other sink is called as
/// sink(start, count, j0, width, g, ldg) with the tile itself (g: T values
/// k(x_{start + r}, sv_{j0 + j}) at g[r * ldg + j]) and out is not touched
/// (kernel_expansion_tiles).
struct CoefProduct {};

/// The rows [start, start + count) of X: gathered, shifted, through every
/// tile of the support vectors into out, in precision T.
template <class T, class RowsX, class RowsSV, class Sink = CoefProduct>
void fused_block(const Kernel& kernel, const RowsX& X, const RowsSV& SV, Index start, Index count,
                 const FusedSupport<T>& sv, Eigen::Ref<MatrixXd> out, FusedScratch<T>& w, const Sink& sink = {}) {
  constexpr bool product = std::is_same_v<Sink, CoefProduct>;
  w.rows.resize(static_cast<std::size_t>(count));
  for (Index r = 0; r < count; ++r) w.rows[static_cast<std::size_t>(r)] = start + r;
  gather_shifted(X, w.rows, sv.centre, w.Xb, w.norm_x, w.cdot);
  const Index d = X.cols();
  const T* x[kExpansionRows];
  if constexpr (std::is_same_v<T, float>) {
    w.Xf = w.Xb.template cast<float>();
    for (Index r = 0; r < count; ++r) x[r] = w.Xf.row(r).data();
  } else {
    for (Index r = 0; r < count; ++r) x[r] = w.Xb.row(r).data();
  }
  OriginalRows<RowsX, RowsSV> originals(X, SV);
  for (Index j0 = 0; j0 < sv.m; j0 += kExpansionTile) {
    const Index width = std::min(kExpansionTile, sv.m - j0);
    T* g = w.G.data();
    if constexpr (std::is_same_v<T, float>) {
      const simd::FloatKernels& fk = simd::active_float_kernels();
      fk.dense_dots(x, count, d, sv.Zt.data() + j0, sv.m, width, g, kExpansionTile);
      // sv holds 2 g z and -g |z|^2 (expansion_fused); a row's part is -g |x|^2.
      if (product && sv.coef.cols() == 1) {
        // One output: kernel values summed against the coefficients as they
        // are made (never stored), the tile's share added in double.
        for (Index r = 0; r < count; ++r)
          out(start + r, 0) += fk.rbf_dot_parts(g + r * kExpansionTile, sv.norms.data() + j0,
                                                static_cast<float>(sv.norm_scale * w.norm_x[r]), width,
                                                sv.coef.data() + j0);
        continue;
      }
      for (Index r = 0; r < count; ++r)
        fk.rbf_from_parts(g + r * kExpansionTile, sv.norms.data() + j0, static_cast<float>(sv.norm_scale * w.norm_x[r]),
                          width, g + r * kExpansionTile);
      if constexpr (!product) {
        sink(start, count, j0, width, static_cast<const T*>(g), kExpansionTile);
        continue;
      }
      // The tile's share summed in float (at most kExpansionTile terms), added in double.
      out.middleRows(start, count) +=
          (w.G.topLeftCorner(count, width) * sv.coef.middleRows(j0, width)).template cast<double>();
    } else {
      simd::active_kernels().dense_dots(x, count, d, sv.Zt.data() + j0, sv.m, width, g, kExpansionTile);
      kernel_rows_from_dots(kernel, start, count, j0, width, sv.norms.data(), w.norm_x, g, kExpansionTile, originals);
      if constexpr (product)
        out.middleRows(start, count).noalias() += w.G.topLeftCorner(count, width) * sv.coef.middleRows(j0, width);
      else
        sink(start, count, j0, width, static_cast<const T*>(g), kExpansionTile);
    }
  }
}

/// sparse_block's rows: the stored entries of row i shifted by the centre
/// (x - c: each stored value less c_k, and -c_k for the centre's features
/// the row does not store) appended to w.idx / w.val; returns |x - c|^2.
template <class RowsX>
double load_shifted_entries(const RowsX& X, Index i, const Centre& c, FusedScratch<double>& w) {
  const std::size_t at = w.idx.size();
  const Index stored = X.row_nnz(i);
  w.idx.resize(at + static_cast<std::size_t>(stored) + c.features.size());
  w.val.resize(w.idx.size());
  X.copy_entries(i, w.idx.data() + at, w.val.data() + at);
  const Index held = c.shift_entries(w.idx.data() + at, w.val.data() + at, stored, w.seen);
  const std::size_t end = at + static_cast<std::size_t>(held);
  w.idx.resize(end);
  w.val.resize(end);
  if (!c.active()) return X.squared_norm(i);
  double norm = 0.0;
  for (std::size_t e = at; e < end; ++e) norm += w.val[e] * w.val[e];
  return norm;
}

/// The shifted entries of rows [start, start + count) into w (row r's at
/// [w.start[r], w.start[r + 1])), their squared norms into w.norm_x.
template <class RowsX>
void load_block_entries(const RowsX& X, Index start, Index count, const Centre& c, FusedScratch<double>& w) {
  w.idx.clear();
  w.val.clear();
  w.start.assign(1, 0);
  w.norm_x.resize(count);
  for (Index r = 0; r < count; ++r) {
    w.norm_x[r] = load_shifted_entries(X, start + r, c, w);
    w.start.push_back(static_cast<Index>(w.idx.size()));
  }
}

/// g(r, :) = the dot products of the loaded row r with support vectors
/// [j0, j0 + width) of sv (row stride ldg).
inline void entry_dots(const FusedScratch<double>& w, Index count, const FusedSupport<double>& sv, Index j0,
                       Index width, double* g, Index ldg) {
  const simd::Kernels& simd = simd::active_kernels();
  for (Index r = 0; r < count; ++r) {
    const Index b = w.start[static_cast<std::size_t>(r)], e = w.start[static_cast<std::size_t>(r + 1)];
    simd.dots(sv.Zt.data() + j0, sv.m, width, w.idx.data() + b, w.val.data() + b, e - b, g + r * ldg);
  }
}

/// fused_block for sparse query rows (double precision): each row's dot
/// products with a tile are one pass over the tile per stored entry (the
/// training margin's `dots`), not d passes over a densified row.
template <class RowsX, class RowsSV, class Sink = CoefProduct>
void sparse_block(const Kernel& kernel, const RowsX& X, const RowsSV& SV, Index start, Index count,
                  const FusedSupport<double>& sv, Eigen::Ref<MatrixXd> out, FusedScratch<double>& w,
                  const Sink& sink = {}) {
  load_block_entries(X, start, count, sv.centre, w);
  OriginalRows<RowsX, RowsSV> originals(X, SV);
  for (Index j0 = 0; j0 < sv.m; j0 += kExpansionTile) {
    const Index width = std::min(kExpansionTile, sv.m - j0);
    double* g = w.G.data();
    entry_dots(w, count, sv, j0, width, g, kExpansionTile);
    kernel_rows_from_dots(kernel, start, count, j0, width, sv.norms.data(), w.norm_x, g, kExpansionTile, originals);
    if constexpr (std::is_same_v<Sink, CoefProduct>)
      out.middleRows(start, count).noalias() += w.G.topLeftCorner(count, width) * sv.coef.middleRows(j0, width);
    else
      sink(start, count, j0, width, static_cast<const double*>(g), kExpansionTile);
  }
}

/// `centre`: the support vectors' (rbf; none for other kernels). `sparse`
/// (double only): X's rows go through sparse_block.
template <class T, class RowsX, class ViewSV, class Sink = CoefProduct>
void expansion_fused(const Kernel& kernel, const RowsX& X, const ViewSV& SV,
                     const Eigen::Ref<const MatrixXd>& coef, Eigen::Ref<MatrixXd> out, int n_threads,
                     RunControl& control, Centre centre, bool sparse, const Sink& sink = {}) {
  // float: the Gaussian value as 2^u, its parts scaled here once (simd_float.hpp).
  const double g_log2 = kernel.gamma * simd::detail::kLog2e;
  const bool parts = std::is_same_v<T, float>;
  const FusedSupport<T> sv(std::move(centre), SV, coef, parts ? 2.0 * g_log2 : 1.0, parts ? -g_log2 : 1.0);
  if constexpr (std::is_same_v<Sink, CoefProduct>) out.setZero();
  const Index n = X.rows(), tasks = (n + kExpansionTask - 1) / kExpansionTask;
  parallel_tasks(tasks, n_threads, control, [&](Index t, RunControl& ctl) {
    FusedScratch<T> scratch;
    const Index end = std::min(n, (t + 1) * kExpansionTask);
    for (Index start = t * kExpansionTask; start < end; start += kExpansionRows) {
      ctl.poll_block();
      const Index count = std::min(kExpansionRows, end - start);
      if constexpr (std::is_same_v<T, double> && HasEntries<RowsX>::value) {
        if (sparse) {
          sparse_block(kernel, X, SV, start, count, sv, out, scratch, sink);
          continue;
        }
      }
      fused_block<T>(kernel, X, SV, start, count, sv, out, scratch, sink);
    }
  });
}

template <class RowsX, class ViewSV, class Sink = CoefProduct>
void expansion_general(const Kernel& kernel, const RowsX& X, const ViewSV& SV,
                       const Eigen::Ref<const MatrixXd>& coef, Eigen::Ref<MatrixXd> out, int n_threads,
                       RunControl& control, const Sink& sink = {}) {
  VectorXd norm_sv;
  const Centre centre = centre_for(kernel, SV, norm_sv);
  // float32 support vectors far from the origin: their products in double,
  // from one double copy (not one per block).
  MatrixXd SVd;
  const bool copy = !std::is_same_v<typename ViewSV::Scalar, double> && centre.far;
  if (copy) {
    std::vector<Index> all(static_cast<std::size_t>(SV.rows()));
    for (Index j = 0; j < SV.rows(); ++j) all[static_cast<std::size_t>(j)] = j;
    gather_rows(SV, all, SVd);
  }
  const simd::Kernels& simd = simd::active_kernels();
  const Index step = std::min<Index>(kernel_block_rows(X.cols()), 256);
  const Index n = X.rows(), tasks = (n + step - 1) / step;
  parallel_tasks(tasks, n_threads, control, [&](Index t, RunControl& ctl) {
    ctl.poll_block();
    MatrixXd Xb, G;
    VectorXd norm_x, cdot;
    const Index start = t * step, stop = std::min(n, start + step);
    std::vector<Index> rows(static_cast<std::size_t>(stop - start));
    for (Index i = start; i < stop; ++i) rows[static_cast<std::size_t>(i - start)] = i;
    gather_shifted(X, rows, centre, Xb, norm_x, cdot);
    G.resize(SV.rows(), stop - start);
    if (copy)
      G.noalias() = SVd * Xb.transpose();
    else
      dot_with_block(SV, 0, SV.rows(), Xb, centre.far, G);
    if (centre.active()) G.rowwise() -= cdot.transpose();
    for (Index r = 0; r < G.rows(); ++r)
      kernel.row_from_dots(simd, G.row(r).data(), kernel.needs_norms() ? norm_sv[r] : 0.0, norm_x.data(),
                           G.cols(), G.row(r).data());
    if constexpr (std::is_same_v<Sink, CoefProduct>)
      out.middleRows(start, stop - start).noalias() = G.transpose() * coef;
    else {
      const MatrixXd Gt = G.transpose();  // a row's values contiguous
      sink(start, stop - start, Index{0}, SV.rows(), static_cast<const double*>(Gt.data()), SV.rows());
    }
  });
}

/// Kernel matrix rows [start, start + count) against every tile of Y,
/// written straight into out (row-major): the fused path without the
/// coefficients' product.
template <class RowsX, class RowsY>
void fused_matrix_block(const Kernel& kernel, const RowsX& X, const RowsY& Y, Index start, Index count,
                        const FusedSupport<double>& y, Eigen::Ref<MatrixXd> out, FusedScratch<double>& w,
                        bool sparse) {
  const Index ld = out.outerStride();
  if constexpr (HasEntries<RowsX>::value) {
    if (sparse) {  // X's rows as stored entries (sparse_rows_pay), as in sparse_block
      load_block_entries(X, start, count, y.centre, w);
      OriginalRows<RowsX, RowsY> originals(X, Y);
      for (Index j0 = 0; j0 < y.m; j0 += kExpansionTile) {
        const Index width = std::min(kExpansionTile, y.m - j0);
        double* g = out.data() + start * ld + j0;
        entry_dots(w, count, y, j0, width, g, ld);
        kernel_rows_from_dots(kernel, start, count, j0, width, y.norms.data(), w.norm_x, g, ld, originals);
      }
      return;
    }
  }
  w.rows.resize(static_cast<std::size_t>(count));
  for (Index r = 0; r < count; ++r) w.rows[static_cast<std::size_t>(r)] = start + r;
  gather_shifted(X, w.rows, y.centre, w.Xb, w.norm_x, w.cdot);
  const double* x[kExpansionRows];
  for (Index r = 0; r < count; ++r) x[r] = w.Xb.row(r).data();
  OriginalRows<RowsX, RowsY> originals(X, Y);
  for (Index j0 = 0; j0 < y.m; j0 += kExpansionTile) {
    const Index width = std::min(kExpansionTile, y.m - j0);
    double* g = out.data() + start * ld + j0;
    simd::active_kernels().dense_dots(x, count, X.cols(), y.Zt.data() + j0, y.m, width, g, ld);
    kernel_rows_from_dots(kernel, start, count, j0, width, y.norms.data(), w.norm_x, g, ld, originals);
  }
}

/// The general kernel matrix for wide sparse Y: Y densified a block of rows
/// at a time, X read in place a slice of rows at a time, the slices of one
/// block spread over the threads.
template <class ViewX, class RowsY>
void matrix_general(const Kernel& kernel, const ViewX& X, const RowsY& Y, const Centre& centre,
                    const VectorXd& norm_x, Eigen::Ref<MatrixXd> out, int n_threads, RunControl& control) {
  const simd::Kernels& simd = simd::active_kernels();
  const Index step = kernel_block_rows(Y.cols());
  const Index slice = std::max<Index>(256, (Index{1} << 27) / (step * std::max<Index>(Y.cols(), 1)));
  MatrixXd Yb;
  VectorXd norm_y, cdot;
  std::vector<Index> rows;
  for (Index start = 0; start < Y.rows(); start += step) {
    const Index stop = std::min(Y.rows(), start + step);
    rows.resize(static_cast<std::size_t>(stop - start));
    for (Index j = start; j < stop; ++j) rows[static_cast<std::size_t>(j - start)] = j;
    gather_shifted(Y, rows, centre, Yb, norm_y, cdot);
    const Index slices = (X.rows() + slice - 1) / slice;
    parallel_tasks(slices, n_threads, control, [&](Index t, RunControl& ctl) {
      ctl.poll_block();
      const Index begin = t * slice, count = std::min(slice, X.rows() - begin);
      MatrixXd G(count, stop - start);
      dot_with_block(X, begin, count, Yb, centre.far, G);
      if (centre.active()) G.rowwise() -= cdot.transpose();
      for (Index r = 0; r < count; ++r)
        kernel.row_from_dots(simd, G.row(r).data(), kernel.needs_norms() ? norm_x[begin + r] : 0.0,
                             norm_y.data(), G.cols(), G.row(r).data());
      out.block(begin, start, count, stop - start) = G;
    });
  }
}

/// kernel_expansion and kernel_expansion_tiles: the path (fused or general),
/// the reference point and the precision, chosen from X and SV alone.
template <class RowsX, class ViewSV, class Sink>
void expansion(const Kernel& kernel, const RowsX& X, const ViewSV& SV, const Eigen::Ref<const MatrixXd>& coef,
               Eigen::Ref<MatrixXd> out, int n_threads, RunControl& control, const Sink& sink) {
  require(X.cols() == SV.cols(), "X and the support vectors must have the same number of features");
  kernel.validate();
  if (!fused_expansion_fits(SV.rows(), SV.cols())) {
    expansion_general(kernel, X, SV, coef, out, n_threads, control, sink);
    return;
  }
  Centre centre = kernel.needs_norms() ? choose_centre(SV) : Centre{};
  // Sparse query rows that pay (sparse_rows_pay) run in double: their dot
  // products cost nnz(x) passes, not d, which beats float's wider lanes.
  const bool sparse = sparse_rows_pay(X, centre);
  if (!sparse && kernel.type == KernelType::rbf && single_precision(X) && float_arithmetic_fits(kernel, X, SV))
    expansion_fused<float>(kernel, X, SV, coef, out, n_threads, control, std::move(centre), false, sink);
  else
    expansion_fused<double>(kernel, X, SV, coef, out, n_threads, control, std::move(centre), sparse, sink);
}

}  // namespace detail

/// out(i, :) = sum_j k(x_i, sv_j) coef(j, :) for every row of X. X is read
/// through rows() / cols() / copy_row() / squared_norm() only, in blocks; SV
/// is any view. Blocks of rows are spread over n_threads threads; the result
/// does not depend on n_threads.
template <class RowsX, class ViewSV>
void kernel_expansion(const Kernel& kernel, const RowsX& X, const ViewSV& SV,
                      const Eigen::Ref<const MatrixXd>& coef, Eigen::Ref<MatrixXd> out,
                      int n_threads, RunControl& control) {
  require(X.cols() == SV.cols(), "X and the support vectors must have the same number of features");
  require(coef.rows() == SV.rows(), "coef needs one row per support vector");
  require(out.rows() == X.rows() && out.cols() == coef.cols(), "output has the wrong shape");
  detail::expansion(kernel, X, SV, coef, out, n_threads, control, detail::CoefProduct{});
}

/// The kernel values kernel_expansion computes (the same tiles, precision
/// and reference point, so the same values), handed to `sink` instead of
/// multiplied by coefficients: sink(start, count, j0, width, g, ldg) with
/// g[r * ldg + j] = k(x_{start + r}, sv_{j0 + j}) for r < count, j < width,
/// as `const double*`, or `const float*` where kernel_expansion computes in
/// float (float32 query rows, Gaussian kernel). Every (row, support vector)
/// is handed over once; a block of rows gets its tiles in increasing j0,
/// all from one thread; blocks of rows are spread over n_threads threads
/// (sink must accept concurrent calls for distinct rows).
template <class RowsX, class ViewSV, class Sink>
void kernel_expansion_tiles(const Kernel& kernel, const RowsX& X, const ViewSV& SV, const Sink& sink,
                            int n_threads, RunControl& control) {
  MatrixXd none(0, 0);
  detail::expansion(kernel, X, SV, MatrixXd(SV.rows(), 0), none, n_threads, control, sink);
}

template <class RowsX, class ViewSV>
void kernel_expansion(const Kernel& kernel, const RowsX& X, const ViewSV& SV,
                      const Eigen::Ref<const MatrixXd>& coef, Eigen::Ref<MatrixXd> out, int n_threads = 1) {
  RunControl none;
  kernel_expansion(kernel, X, SV, coef, out, n_threads, none);
}

/// K(i, j) = k(x_i, y_j) for all rows of X and Y, written into out (row-major
/// X.rows() x Y.rows()), in double precision. When Y fits densely (as the
/// support vectors of kernel_expansion) it is copied once, feature-major and
/// shifted by the reference point of X and Y together (the two may lie
/// apart), and blocks of X's rows (densified, or as stored entries when
/// sparse_rows_pay) meet it one tile at a time, the kernel values made in
/// place in out; otherwise (wide sparse Y) the general path,
/// with the reference point of X.
/// Blocks of rows are spread over n_threads threads; the result does not
/// depend on n_threads. `control` is polled per block.
template <class ViewX, class RowsY>
void kernel_matrix(const Kernel& kernel, const ViewX& X, const RowsY& Y, Eigen::Ref<MatrixXd> out, int n_threads,
                   RunControl& control) {
  require(X.cols() == Y.cols(), "X and Y must have the same number of features");
  require(out.rows() == X.rows() && out.cols() == Y.rows(), "output has the wrong shape");
  kernel.validate();
  if (!detail::fused_expansion_fits(Y.rows(), Y.cols())) {
    VectorXd norm_x;
    const Centre centre = centre_for(kernel, X, norm_x);
    detail::matrix_general(kernel, X, Y, centre, norm_x, out, n_threads, control);
    return;
  }
  const detail::FusedSupport<double> y(kernel.needs_norms() ? choose_joint_centre(X, Y) : Centre{}, Y,
                                       MatrixXd(Y.rows(), 0));
  const bool sparse = detail::sparse_rows_pay(X, y.centre);
  const Index n = X.rows(), tasks = (n + detail::kExpansionTask - 1) / detail::kExpansionTask;
  parallel_tasks(tasks, n_threads, control, [&](Index t, RunControl& ctl) {
    detail::FusedScratch<double> scratch;
    const Index end = std::min(n, (t + 1) * detail::kExpansionTask);
    for (Index start = t * detail::kExpansionTask; start < end; start += detail::kExpansionRows) {
      ctl.poll_block();
      detail::fused_matrix_block(kernel, X, Y, start, std::min(detail::kExpansionRows, end - start), y, out, scratch,
                                 sparse);
    }
  });
}

template <class ViewX, class RowsY>
void kernel_matrix(const Kernel& kernel, const ViewX& X, const RowsY& Y, Eigen::Ref<MatrixXd> out,
                   int n_threads = 1) {
  RunControl none;
  kernel_matrix(kernel, X, Y, out, n_threads, none);
}

}  // namespace budgetsvm
