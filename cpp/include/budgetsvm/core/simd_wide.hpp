// The AVX2 and AVX-512 kernels of simd.hpp written once over the
// vector-width traits V (simd_width.hpp): V::lanes doubles per register,
// the last elements in masked registers where V::masked_tail (AVX-512),
// else in scalar code (AVX2). Each instruction set's kernels keep the
// operations, and their order lane by lane, of their written-out versions,
// so the bits of every level are what they were.
//
// A body included once per instruction set by simd.hpp (through
// simd_each_width.hpp, which defines BUDGETSVM_WIDE and
// BUDGETSVM_WIDE_TARGET): no include guard.
#include "simd_baseline.hpp"
#include "simd_width.hpp"

namespace budgetsvm::simd::BUDGETSVM_WIDE {

using V = width::BUDGETSVM_WIDE::Double;

/// x[i] <- exp(x[i]) for N registers, their polynomials interleaved (see
/// "exp" at the top of simd.hpp).
template <int N>
BUDGETSVM_WIDE_TARGET inline void exp_neg_n(V::reg* x) {
  using namespace detail;
  V::mask keep[N];
  V::reg t[N], r[N], p[N];
  const V::reg magic = V::set1(kRoundMagic);
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    keep[i] = V::exp_lanes(x[i], V::set1(kExpMin));
    const V::reg xi = V::min(V::max(x[i], V::set1(kExpMin)), V::set1(kExpMax));
    t[i] = V::fmadd(xi, V::set1(kLog2e), magic);
    const V::reg n = V::sub(t[i], magic);
    r[i] = V::fnmadd(n, V::set1(kLn2Hi), xi);
    r[i] = V::fnmadd(n, V::set1(kLn2Lo), r[i]);
    p[i] = V::set1(kC[0]);
  }
  BUDGETSVM_UNROLL for (int k = 1; k < 13; ++k) {
    const V::reg c = V::set1(kC[k]);
    BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) p[i] = V::fmadd(p[i], r[i], c);
  }
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) x[i] = V::mul_where(keep[i], p[i], V::pow2_of_rounded(t[i]));
}

BUDGETSVM_WIDE_TARGET inline V::reg exp_neg(V::reg x) {
  exp_neg_n<1>(&x);
  return x;
}

/// acc[j..j+lanes) += (v0 z0[j..] + acc) + v2 z2[j..] + (v1 z1[j..] + v3 z3[j..])
/// (the fused steps as written); the lanes outside the optional tail
/// neither read nor written.
template <class... Tail>
BUDGETSVM_WIDE_TARGET inline void add_four(const double* const* z, const V::reg* v, Index j, double* acc,
                                           Tail... m) {
  V::reg s = V::fmadd(v[0], V::load(z[0] + j, m...), V::load(acc + j, m...));
  V::reg u = V::mul(v[1], V::load(z[1] + j, m...));
  s = V::fmadd(v[2], V::load(z[2] + j, m...), s);
  u = V::fmadd(v[3], V::load(z[3] + j, m...), u);
  V::store(acc + j, V::add(s, u), m...);
}

BUDGETSVM_WIDE_TARGET
inline void dots(const double* Zt, Index ld, Index B, const Index* idx, const double* val, Index nnz, double* acc) {
  const Index full = B - B % V::lanes;
  for (Index j = 0; j < B; ++j) acc[j] = 0.0;
  Index q = 0;
  // Four features per pass over the support vectors: one load and one store
  // of acc per four multiply-adds.
  for (; q + 4 <= nnz; q += 4) {
    const double* z[4];
    V::reg v[4];
    for (int t = 0; t < 4; ++t) {
      z[t] = Zt + (idx ? idx[q + t] : q + t) * ld;
      v[t] = V::set1(val[q + t]);
    }
    for (Index j = 0; j < full; j += V::lanes) add_four(z, v, j, acc);
    if constexpr (V::masked_tail) {
      if (full < B) add_four(z, v, full, acc, V::first(B - full));
    } else {
      for (Index j = full; j < B; ++j)
        acc[j] += val[q] * z[0][j] + val[q + 1] * z[1][j] + val[q + 2] * z[2][j] + val[q + 3] * z[3][j];
    }
  }
  for (; q < nnz; ++q) {
    const double* z = Zt + (idx ? idx[q] : q) * ld;
    const V::reg v = V::set1(val[q]);
    for (Index j = 0; j < full; j += V::lanes) V::store(acc + j, V::fmadd(v, V::load(z + j), V::load(acc + j)));
    if constexpr (V::masked_tail) {
      if (full < B) {
        const V::tail m = V::first(B - full);
        V::store(acc + full, V::fmadd(v, V::load(z + full, m), V::load(acc + full, m)), m);
      }
    } else {
      for (Index j = full; j < B; ++j) acc[j] += val[q] * z[j];
    }
  }
}

BUDGETSVM_WIDE_TARGET
inline void rbf_from_dots(const double* acc, const double* znorm, double xnorm, double gamma, Index B, double* out) {
  constexpr Index W = V::lanes;
  const V::reg xn = V::set1(xnorm), ng = V::set1(-gamma), mtwo = V::set1(-2.0), zero = V::zero();
  auto argument = [&](Index j) BUDGETSVM_WIDE_TARGET {
    const V::reg d = V::fmadd(mtwo, V::load(acc + j), V::add(xn, V::load(znorm + j)));
    return V::mul(ng, V::max(d, zero));
  };
  Index j = 0;
  for (; j + 4 * W <= B; j += 4 * W) {
    V::reg v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = argument(j + W * i);
    exp_neg_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) V::store(out + j + W * i, v[i]);
  }
  for (; j + W <= B; j += W) V::store(out + j, exp_neg(argument(j)));
  scalar::rbf_from_dots(acc + j, znorm + j, xnorm, gamma, B - j, out + j);
}

/// sum_j a[j] b[j]: 16 products per pass in 16 / lanes accumulators, added
/// pairwise, then the lanes pairwise, then the scalar loop's last few.
BUDGETSVM_WIDE_TARGET inline double dot(const double* a, const double* b, Index n) {
  constexpr int A = 16 / V::lanes;
  V::reg s[A];
  BUDGETSVM_UNROLL for (int i = 0; i < A; ++i) s[i] = V::zero();
  Index j = 0;
  for (; j + 16 <= n; j += 16) {
    BUDGETSVM_UNROLL for (int i = 0; i < A; ++i)
      s[i] = V::fmadd(V::load(a + j + V::lanes * i), V::load(b + j + V::lanes * i), s[i]);
  }
  BUDGETSVM_UNROLL for (int w = 1; w < A; w *= 2) {
    BUDGETSVM_UNROLL for (int i = 0; i < A; i += 2 * w) s[i] = V::add(s[i], s[i + w]);
  }
  return V::sum_pairwise(s[0]) + scalar::dot(a + j, b + j, n - j);
}

BUDGETSVM_WIDE_TARGET inline void exp_to_float(const double* x, Index n, float* out) {
  Index j = 0;
  for (; j + V::lanes <= n; j += V::lanes) V::store_float(out + j, exp_neg(V::load(x + j)));
  scalar::exp_to_float(x + j, n - j, out + j);
}

BUDGETSVM_WIDE_TARGET
inline void gemv(const double* A, Index ld, Index rows, Index cols, const double* x, double* y) {
  const Index full = cols - cols % V::lanes;
  Index i = 0;
  for (; i + 4 <= rows; i += 4) {
    const double* a[4] = {A + i * ld, A + (i + 1) * ld, A + (i + 2) * ld, A + (i + 3) * ld};
    V::reg s[4];
    BUDGETSVM_UNROLL for (int t = 0; t < 4; ++t) s[t] = V::zero();
    for (Index j = 0; j < full; j += V::lanes) {
      const V::reg xv = V::load(x + j);
      BUDGETSVM_UNROLL for (int t = 0; t < 4; ++t) s[t] = V::fmadd(V::load(a[t] + j), xv, s[t]);
    }
    double sum[4];
    BUDGETSVM_UNROLL for (int t = 0; t < 4; ++t) sum[t] = V::sum(s[t]);
    for (Index j = full; j < cols; ++j) {
      BUDGETSVM_UNROLL for (int t = 0; t < 4; ++t) sum[t] += a[t][j] * x[j];
    }
    BUDGETSVM_UNROLL for (int t = 0; t < 4; ++t) y[i + t] = sum[t];
  }
  for (; i < rows; ++i) y[i] = dot(A + i * ld, x, cols);
}

/// One tile of dense_dots (AVX-512, simd.hpp) and of dense_dots_f
/// (simd_float_wide.hpp) over
/// the traits T: rows x[0..4) times C registers of columns j.. of Zt, all
/// 4 C accumulators in registers; Masked: register c holds the lanes of
/// m[c] only (the others neither read nor written). Inlined: one call per
/// tile costs a few percent.
template <class T, int C, bool Masked, class E>
BUDGETSVM_WIDE_TARGET BUDGETSVM_ALWAYS_INLINE inline void dots_tile(const E* const* x, Index d, const E* Zt, Index ld, Index j, E* G,
                                            Index ldg, const typename T::tail* m = nullptr) {
  constexpr Index W = T::lanes;
  typename T::reg a[4][C];
  BUDGETSVM_UNROLL for (int t = 0; t < 4; ++t) {
    BUDGETSVM_UNROLL for (int c = 0; c < C; ++c) a[t][c] = T::zero();
  }
  for (Index k = 0; k < d; ++k) {
    const E* z = Zt + k * ld + j;
    typename T::reg zc[C];
    BUDGETSVM_UNROLL for (int c = 0; c < C; ++c) {
      if constexpr (Masked) {
        zc[c] = T::load(z + W * c, m[c]);
      } else {
        zc[c] = T::load(z + W * c);
      }
    }
    BUDGETSVM_UNROLL for (int t = 0; t < 4; ++t) {
      const typename T::reg v = T::set1(x[t][k]);
      BUDGETSVM_UNROLL for (int c = 0; c < C; ++c) a[t][c] = T::fmadd(v, zc[c], a[t][c]);
    }
  }
  BUDGETSVM_UNROLL for (int t = 0; t < 4; ++t) {
    BUDGETSVM_UNROLL for (int c = 0; c < C; ++c) {
      if constexpr (Masked) {
        T::store(G + t * ldg + j + W * c, a[t][c], m[c]);
      } else {
        T::store(G + t * ldg + j + W * c, a[t][c]);
      }
    }
  }
}

BUDGETSVM_WIDE_TARGET
inline void row_dots(const double* const* x, Index rows, Index d, const double* Y, Index ldy, Index m, double* Gt,
                     Index ldg) {
  // lanes rows at a time: one accumulator each along k (the last chunk of k
  // masked), then one reduction that leaves row t's sum in lane t.
  constexpr Index W = V::lanes;
  const Index full = d - d % W;
  const V::tail tail = V::first(d - full);
  Index r = 0;
  for (; r + W <= rows; r += W) {
    const double* xr[W];
    for (Index t = 0; t < W; ++t) xr[t] = x[r + t];
    for (Index c = 0; c < m; ++c) {
      const double* y = Y + c * ldy;
      V::reg a[W];
      BUDGETSVM_UNROLL for (Index t = 0; t < W; ++t) a[t] = V::zero();
      for (Index k = 0; k < full; k += W) {
        const V::reg yv = V::load(y + k);
        BUDGETSVM_UNROLL for (Index t = 0; t < W; ++t) a[t] = V::fmadd(V::load(xr[t] + k), yv, a[t]);
      }
      if (full < d) {
        const V::reg yv = V::load(y + full, tail);
        BUDGETSVM_UNROLL for (Index t = 0; t < W; ++t) a[t] = V::fmadd(V::load(xr[t] + full, tail), yv, a[t]);
      }
      V::store(Gt + c * ldg + r, V::transpose_sum(a));
    }
  }
  for (; r < rows; ++r)
    for (Index c = 0; c < m; ++c) Gt[c * ldg + r] = dot(x[r], Y + c * ldy, d);
}

}  // namespace budgetsvm::simd::BUDGETSVM_WIDE
