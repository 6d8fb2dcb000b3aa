// The vector-width layer under the AVX2 and AVX-512 kernels: one traits
// struct per instruction set and element type, and the protocol that
// compiles a kernel body written once over them for each instruction set.
//
//   width::avx2::Double     4 doubles (__m256d), AVX2 + FMA
//   width::avx512::Double   8 doubles (__m512d), AVX-512F
//   width::avx2::Float      8 floats (__m256), AVX2 + FMA
//   width::avx512::Float    16 floats (__m512), AVX-512F
//
// Each holds the register type (reg), the lane count (lanes), a comparison
// result (mask: all bits set per lane for AVX2, a mask register for
// AVX-512), a selection of the first n lanes (tail: an integer vector for
// AVX2's maskload, a mask register for AVX-512) and static functions over
// them (load, store, add, fmadd, max, ...), each carrying its instruction
// set's target attribute. Where the two instruction sets reach one value by
// other instructions (a horizontal sum, the scaling by 2^n of exp) the
// traits hold that step as one function, with the order of its operations
// spelled out, so that a kernel written once gives each instruction set
// the bits its own written-out version gave. masked_tail says how a kernel
// handles the last few elements: in masked registers (AVX-512) or in
// scalar code (AVX2), as each instruction set's kernels did (the two give
// other bits there, so a kernel keeps each one's way).
//
// Why a body included once per instruction set, not a template: the target
// attribute is what lets a function use an instruction set without -m flags
// (no translation unit compiled with different flags, no inline function in
// two versions: the ODR trap of mixing -mavx2 and plain translation units
// that share Eigen templates; see simd.hpp). A template cannot take its
// target from its parameter, and a template without one cannot inline the
// traits' intrinsics (GCC and Clang refuse: "target specific option
// mismatch"; vector arguments "change the ABI"). So a kernel body (e.g.
// simd_wide.hpp) is a header without include guard that the public header
// includes through simd_each_width.hpp, once per instruction set, with
//
//   BUDGETSVM_WIDE         the instruction set's namespace (avx2, avx512),
//                          also naming its traits: width::BUDGETSVM_WIDE
//   BUDGETSVM_WIDE_TARGET  its target attribute (empty for MSVC, which
//                          compiles the intrinsics without one)
//
// and marks every function (and lambda) it defines with
// BUDGETSVM_WIDE_TARGET, as the written-out kernels did: the same functions
// in distinct namespaces, plain attributes that GCC, Clang and MSVC accept
// (no #pragma GCC target or clang attribute regions, which would also catch
// any inline function a body pulled in). A body includes its dependencies at
// its top, before it opens its namespace.
#pragma once

#include <cstdint>

#include "eigen.hpp"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define BUDGETSVM_SIMD_X86 1
#include <immintrin.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif
#endif

#if defined(BUDGETSVM_SIMD_X86) && (defined(__GNUC__) || defined(__clang__))
#define BUDGETSVM_TARGET(isa) __attribute__((target(isa)))
#else
#define BUDGETSVM_TARGET(isa)
#endif

// A helper whose body must sit in its caller's loop (a kernel's tile): GCC
// keeps it out of line otherwise, one call per tile.
#if defined(__GNUC__) || defined(__clang__)
#define BUDGETSVM_ALWAYS_INLINE __attribute__((always_inline))
#else
#define BUDGETSVM_ALWAYS_INLINE
#endif

// Full unrolling of the short constant loops over registers (the compilers
// do it at -O3 anyway; this keeps it at -O2).
#if defined(__clang__)
#define BUDGETSVM_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define BUDGETSVM_UNROLL _Pragma("GCC unroll 16")
#else
#define BUDGETSVM_UNROLL
#endif

namespace budgetsvm::simd::width {

/// ((t[0] + t[1]) + (t[2] + t[3])) + ... : the pairwise sum of N values
/// (N a power of two).
template <int N, class T>
inline T pairwise_sum(const T* t) {
  if constexpr (N == 1) {
    return t[0];
  } else {
    return pairwise_sum<N / 2>(t) + pairwise_sum<N / 2>(t + N / 2);
  }
}

}  // namespace budgetsvm::simd::width

#if defined(BUDGETSVM_SIMD_X86)

#define BUDGETSVM_AVX2 BUDGETSVM_TARGET("avx2,fma") static inline
#define BUDGETSVM_AVX512 BUDGETSVM_TARGET("avx512f") static inline

namespace budgetsvm::simd::width::avx2 {

struct Double {
  using reg = __m256d;
  using mask = __m256d;  // all bits set in a true lane
  using tail = __m256i;  // the lanes a maskload reads
  static constexpr int lanes = 4;
  static constexpr bool masked_tail = false;

  BUDGETSVM_AVX2 reg zero() { return _mm256_setzero_pd(); }
  BUDGETSVM_AVX2 reg set1(double v) { return _mm256_set1_pd(v); }
  BUDGETSVM_AVX2 reg load(const double* p) { return _mm256_loadu_pd(p); }
  BUDGETSVM_AVX2 reg load(const double* p, tail m) { return _mm256_maskload_pd(p, m); }
  BUDGETSVM_AVX2 void store(double* p, reg v) { _mm256_storeu_pd(p, v); }
  BUDGETSVM_AVX2 void store(double* p, reg v, tail m) { _mm256_maskstore_pd(p, m, v); }
  /// The first n lanes (none for n <= 0, all for n >= lanes).
  BUDGETSVM_AVX2 tail first(Index n) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(n)), _mm256_setr_epi64x(0, 1, 2, 3));
  }
  BUDGETSVM_AVX2 reg add(reg a, reg b) { return _mm256_add_pd(a, b); }
  BUDGETSVM_AVX2 reg sub(reg a, reg b) { return _mm256_sub_pd(a, b); }
  BUDGETSVM_AVX2 reg mul(reg a, reg b) { return _mm256_mul_pd(a, b); }
  BUDGETSVM_AVX2 reg fmadd(reg a, reg b, reg c) { return _mm256_fmadd_pd(a, b, c); }    // a b + c
  BUDGETSVM_AVX2 reg fnmadd(reg a, reg b, reg c) { return _mm256_fnmadd_pd(a, b, c); }  // c - a b
  BUDGETSVM_AVX2 reg max(reg a, reg b) { return _mm256_max_pd(a, b); }  // b where either is NaN
  BUDGETSVM_AVX2 reg min(reg a, reg b) { return _mm256_min_pd(a, b); }
  BUDGETSVM_AVX2 reg div(reg a, reg b) { return _mm256_div_pd(a, b); }
  BUDGETSVM_AVX2 reg sqrt(reg a) { return _mm256_sqrt_pd(a); }
  /// 0, 1, ..., lanes - 1.
  BUDGETSVM_AVX2 reg iota() { return _mm256_setr_pd(0.0, 1.0, 2.0, 3.0); }
  BUDGETSVM_AVX2 mask gt(reg a, reg b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
  BUDGETSVM_AVX2 mask lt(reg a, reg b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  BUDGETSVM_AVX2 mask both(mask a, mask b) { return _mm256_and_pd(a, b); }
  BUDGETSVM_AVX2 mask mask_of(tail m) { return _mm256_castsi256_pd(m); }
  /// if_true in the lanes of m, if_false elsewhere (registers; masks).
  BUDGETSVM_AVX2 reg select(mask m, reg if_true, reg if_false) { return _mm256_blendv_pd(if_false, if_true, m); }
  /// v in the lanes of m, 0 elsewhere.
  BUDGETSVM_AVX2 reg keep(mask m, reg v) { return _mm256_and_pd(m, v); }
  BUDGETSVM_AVX2 mask select_mask(mask m, mask if_true, mask if_false) { return _mm256_blendv_pd(if_false, if_true, m); }
  /// The 4 floats at p (p[idx[0..4)] for gather_floats) as doubles.
  BUDGETSVM_AVX2 reg load_floats(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
  BUDGETSVM_AVX2 reg load_floats(const float* p, tail m) {
    // the 64-bit lanes' masks packed to 32-bit ones
    const __m256i packed = _mm256_permutevar8x32_epi32(m, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
    return _mm256_cvtps_pd(_mm_maskload_ps(p, _mm256_castsi256_si128(packed)));
  }
  BUDGETSVM_AVX2 reg gather_floats(const float* base, const Index* idx) {
    static_assert(sizeof(Index) == 8, "the gathers take 64-bit indices");
    return _mm256_cvtps_pd(_mm256_i64gather_ps(base, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx)), 4));
  }
  BUDGETSVM_AVX2 reg gather_floats(const float* base, const Index* idx, tail m) {
    const __m256i at = _mm256_maskload_epi64(reinterpret_cast<const long long*>(idx), m);
    const __m256i packed = _mm256_permutevar8x32_epi32(m, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
    return _mm256_cvtps_pd(
        _mm256_mask_i64gather_ps(_mm_setzero_ps(), base, at, _mm_castsi128_ps(_mm256_castsi256_si128(packed)), 4));
  }
  /// The lanes where exp's argument is not below lo (NaN included: the
  /// result is that of the clamped argument).
  BUDGETSVM_AVX2 mask exp_lanes(reg x, reg lo) { return _mm256_cmp_pd(x, lo, _CMP_NLT_UQ); }
  /// a b in the lanes of m, 0 elsewhere.
  BUDGETSVM_AVX2 reg mul_where(mask m, reg a, reg b) { return _mm256_and_pd(m, _mm256_mul_pd(a, b)); }
  /// 2^n for t = n + 1.5 * 2^52 (n an integer of the low bits).
  BUDGETSVM_AVX2 reg pow2_of_rounded(reg t) {
    const __m256i bits = _mm256_add_epi64(_mm256_castpd_si256(t), _mm256_set1_epi64x(1023));
    return _mm256_castsi256_pd(_mm256_slli_epi64(bits, 52));
  }
  /// The lanes rounded to float, stored at p[0..lanes).
  BUDGETSVM_AVX2 void store_float(float* p, reg v) { _mm_storeu_ps(p, _mm256_cvtpd_ps(v)); }
  /// (v0 + v2) + (v1 + v3).
  BUDGETSVM_AVX2 double sum(reg v) {
    const __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
  }
  /// (v0 + v1) + (v2 + v3).
  BUDGETSVM_AVX2 double sum_pairwise(reg v) {
    double t[lanes];
    _mm256_storeu_pd(t, v);
    return pairwise_sum<lanes>(t);
  }
  /// Lane t: the sum of a[t]'s lanes, (a[t]0 + a[t]1) + (a[t]2 + a[t]3).
  BUDGETSVM_AVX2 reg transpose_sum(const reg* a) {
    const __m256d h01 = _mm256_hadd_pd(a[0], a[1]), h23 = _mm256_hadd_pd(a[2], a[3]);
    return _mm256_add_pd(_mm256_permute2f128_pd(h01, h23, 0x20), _mm256_permute2f128_pd(h01, h23, 0x31));
  }
  // ---- 64-bit indices and 32-bit integers (the merge's table lookups)
  using index64 = __m256i;  // one Index per lane
  using int32 = __m128i;    // one int per lane (half a register)
  BUDGETSVM_AVX2 index64 load_index(const Index* p, tail m) {
    static_assert(sizeof(Index) == 8, "64-bit indices");
    return _mm256_maskload_epi64(reinterpret_cast<const long long*>(p), m);
  }
  /// base[j] in the lanes of m, src elsewhere (not read).
  BUDGETSVM_AVX2 reg gather(const double* base, index64 j, tail m, reg src) {
    return _mm256_mask_i64gather_pd(src, base, j, _mm256_castsi256_pd(m), 8);
  }
  BUDGETSVM_AVX2 int32 set1_int(int v) { return _mm_set1_epi32(v); }
  BUDGETSVM_AVX2 int32 truncate(reg a) { return _mm256_cvttpd_epi32(a); }
  BUDGETSVM_AVX2 reg to_double(int32 a) { return _mm256_cvtepi32_pd(a); }
  BUDGETSVM_AVX2 int32 min_int(int32 a, int32 b) { return _mm_min_epi32(a, b); }
  BUDGETSVM_AVX2 int32 add_int(int32 a, int32 b) { return _mm_add_epi32(a, b); }
  BUDGETSVM_AVX2 int32 mul_int(int32 a, int32 b) { return _mm_mullo_epi32(a, b); }
  /// The float pairs (t[off], t[off + 1]) as doubles: one 64-bit gather
  /// reads both, then the even and odd floats are split.
  BUDGETSVM_AVX2 void float_pairs(const float* t, int32 off, reg* first, reg* second) {
    const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i row =
        _mm256_permutevar8x32_epi32(_mm256_i32gather_epi64(reinterpret_cast<const long long*>(t), off, 4), even);
    *first = _mm256_cvtps_pd(_mm_castsi128_ps(_mm256_castsi256_si128(row)));
    *second = _mm256_cvtps_pd(_mm_castsi128_ps(_mm256_extracti128_si256(row, 1)));
  }
};

struct Float {
  using reg = __m256;
  using mask = __m256;   // all bits set in a true lane
  using tail = __m256i;  // the lanes a maskload reads
  static constexpr int lanes = 8;
  static constexpr bool masked_tail = false;

  BUDGETSVM_AVX2 reg zero() { return _mm256_setzero_ps(); }
  BUDGETSVM_AVX2 reg set1(float v) { return _mm256_set1_ps(v); }
  BUDGETSVM_AVX2 reg load(const float* p) { return _mm256_loadu_ps(p); }
  BUDGETSVM_AVX2 reg load(const float* p, tail m) { return _mm256_maskload_ps(p, m); }
  BUDGETSVM_AVX2 void store(float* p, reg v) { _mm256_storeu_ps(p, v); }
  BUDGETSVM_AVX2 void store(float* p, reg v, tail m) { _mm256_maskstore_ps(p, m, v); }
  BUDGETSVM_AVX2 tail first(Index n) {
    const int k = n <= 0 ? 0 : n >= 8 ? 8 : static_cast<int>(n);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(k), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  BUDGETSVM_AVX2 reg add(reg a, reg b) { return _mm256_add_ps(a, b); }
  BUDGETSVM_AVX2 reg sub(reg a, reg b) { return _mm256_sub_ps(a, b); }
  BUDGETSVM_AVX2 reg fmadd(reg a, reg b, reg c) { return _mm256_fmadd_ps(a, b, c); }
  BUDGETSVM_AVX2 reg max(reg a, reg b) { return _mm256_max_ps(a, b); }
  BUDGETSVM_AVX2 reg min(reg a, reg b) { return _mm256_min_ps(a, b); }
  BUDGETSVM_AVX2 mask at_least(reg a, reg b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
  /// a rounded to the nearest integer (ties to even).
  BUDGETSVM_AVX2 reg round(reg a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  /// p 2^n (n integral, 2^n a normal float) in the lanes of m, 0 elsewhere:
  /// n's bits as an exponent, one multiply.
  BUDGETSVM_AVX2 reg scale_where(mask m, reg p, reg n) {
    const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_and_ps(m, _mm256_mul_ps(p, _mm256_castsi256_ps(bits)));
  }
  /// The pairwise sum of the lanes, ((v0 + v1) + (v2 + v3)) + (...).
  BUDGETSVM_AVX2 float sum(reg v) {
    float t[lanes];
    _mm256_storeu_ps(t, v);
    return pairwise_sum<lanes>(t);
  }
};

}  // namespace budgetsvm::simd::width::avx2

namespace budgetsvm::simd::width::avx512 {

// The unmasked forms of max, min, shifts and conversions are spelled with
// an all-lanes mask and an explicit source: GCC 12's unmasked ones start
// from an undefined register and warn at -O3. The instructions are the same.
struct Double {
  using reg = __m512d;
  using mask = __mmask8;
  using tail = __mmask8;
  static constexpr int lanes = 8;
  static constexpr bool masked_tail = true;
  static constexpr __mmask8 all = 0xFF;

  BUDGETSVM_AVX512 reg zero() { return _mm512_setzero_pd(); }
  BUDGETSVM_AVX512 reg set1(double v) { return _mm512_set1_pd(v); }
  BUDGETSVM_AVX512 reg load(const double* p) { return _mm512_loadu_pd(p); }
  BUDGETSVM_AVX512 reg load(const double* p, tail m) { return _mm512_maskz_loadu_pd(m, p); }
  BUDGETSVM_AVX512 void store(double* p, reg v) { _mm512_storeu_pd(p, v); }
  BUDGETSVM_AVX512 void store(double* p, reg v, tail m) { _mm512_mask_storeu_pd(p, m, v); }
  /// The first n lanes (none for n <= 0, all for n >= lanes).
  BUDGETSVM_AVX512 tail first(Index n) {
    return static_cast<__mmask8>(n >= 8 ? 0xFFu : n > 0 ? (1u << n) - 1u : 0u);
  }
  BUDGETSVM_AVX512 reg add(reg a, reg b) { return _mm512_add_pd(a, b); }
  BUDGETSVM_AVX512 reg sub(reg a, reg b) { return _mm512_sub_pd(a, b); }
  BUDGETSVM_AVX512 reg mul(reg a, reg b) { return _mm512_mul_pd(a, b); }
  BUDGETSVM_AVX512 reg fmadd(reg a, reg b, reg c) { return _mm512_fmadd_pd(a, b, c); }
  BUDGETSVM_AVX512 reg fnmadd(reg a, reg b, reg c) { return _mm512_fnmadd_pd(a, b, c); }
  BUDGETSVM_AVX512 reg max(reg a, reg b) { return _mm512_mask_max_pd(a, all, a, b); }
  BUDGETSVM_AVX512 reg min(reg a, reg b) { return _mm512_mask_min_pd(a, all, a, b); }
  BUDGETSVM_AVX512 reg div(reg a, reg b) { return _mm512_div_pd(a, b); }
  BUDGETSVM_AVX512 reg sqrt(reg a) { return _mm512_mask_sqrt_pd(a, all, a); }
  BUDGETSVM_AVX512 reg iota() { return _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0); }
  BUDGETSVM_AVX512 mask gt(reg a, reg b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
  BUDGETSVM_AVX512 mask lt(reg a, reg b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
  BUDGETSVM_AVX512 mask both(mask a, mask b) { return static_cast<__mmask8>(a & b); }
  BUDGETSVM_AVX512 mask mask_of(tail m) { return m; }
  BUDGETSVM_AVX512 reg select(mask m, reg if_true, reg if_false) { return _mm512_mask_blend_pd(m, if_false, if_true); }
  BUDGETSVM_AVX512 reg keep(mask m, reg v) { return _mm512_maskz_mov_pd(m, v); }
  BUDGETSVM_AVX512 mask select_mask(mask m, mask if_true, mask if_false) {
    return static_cast<__mmask8>((m & if_true) | (~m & if_false));
  }
  BUDGETSVM_AVX512 reg load_floats(const float* p) { return _mm512_maskz_cvtps_pd(all, _mm256_loadu_ps(p)); }
  BUDGETSVM_AVX512 reg load_floats(const float* p, tail m) {
    const __m512d wide = _mm512_castps_pd(_mm512_maskz_loadu_ps(static_cast<__mmask16>(m), p));
    const __m256 low = _mm256_castpd_ps(_mm512_mask_extractf64x4_pd(_mm256_setzero_pd(), all, wide, 0));
    return _mm512_maskz_cvtps_pd(all, low);
  }
  BUDGETSVM_AVX512 reg gather_floats(const float* base, const Index* idx) { return gather_floats(base, idx, all); }
  BUDGETSVM_AVX512 reg gather_floats(const float* base, const Index* idx, tail m) {
    static_assert(sizeof(Index) == 8, "the gathers take 64-bit indices");
    const __m512i at = _mm512_maskz_loadu_epi64(m, idx);
    return _mm512_maskz_cvtps_pd(all, _mm512_mask_i64gather_ps(_mm256_setzero_ps(), m, at, base, 4));
  }
  /// The lanes where exp's argument is at least lo (a NaN lane gives 0).
  BUDGETSVM_AVX512 mask exp_lanes(reg x, reg lo) { return _mm512_cmp_pd_mask(x, lo, _CMP_GE_OQ); }
  BUDGETSVM_AVX512 reg mul_where(mask m, reg a, reg b) { return _mm512_maskz_mul_pd(m, a, b); }
  BUDGETSVM_AVX512 reg pow2_of_rounded(reg t) {
    __m512i bits = _mm512_add_epi64(_mm512_castpd_si512(t), _mm512_set1_epi64(1023));
    bits = _mm512_mask_slli_epi64(bits, all, bits, 52);
    return _mm512_castsi512_pd(bits);
  }
  BUDGETSVM_AVX512 void store_float(float* p, reg v) {
    _mm256_storeu_ps(p, _mm512_mask_cvtpd_ps(_mm256_setzero_ps(), all, v));
  }
  /// ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7)).
  BUDGETSVM_AVX512 double sum(reg v) {
    double t[lanes];
    _mm512_storeu_pd(t, v);
    return pairwise_sum<lanes>(t);
  }
  BUDGETSVM_AVX512 double sum_pairwise(reg v) { return sum(v); }
  /// Lane t: the sum of a[t]'s lanes, pairs within 128-bit lanes, then
  /// 128-bit lanes across registers.
  BUDGETSVM_AVX512 reg transpose_sum(const reg* a) {
    const __m512d z = _mm512_setzero_pd();
    __m512d p[4];
    for (int t = 0; t < 4; ++t)
      p[t] = _mm512_add_pd(_mm512_mask_unpacklo_pd(z, all, a[2 * t], a[2 * t + 1]),
                           _mm512_mask_unpackhi_pd(z, all, a[2 * t], a[2 * t + 1]));
    const __m512d q0 = _mm512_add_pd(_mm512_mask_shuffle_f64x2(z, all, p[0], p[1], 0x88),
                                     _mm512_mask_shuffle_f64x2(z, all, p[0], p[1], 0xDD));
    const __m512d q1 = _mm512_add_pd(_mm512_mask_shuffle_f64x2(z, all, p[2], p[3], 0x88),
                                     _mm512_mask_shuffle_f64x2(z, all, p[2], p[3], 0xDD));
    return _mm512_add_pd(_mm512_mask_shuffle_f64x2(z, all, q0, q1, 0x88),
                         _mm512_mask_shuffle_f64x2(z, all, q0, q1, 0xDD));
  }
  // ---- 64-bit indices and 32-bit integers (the merge's table lookups)
  using index64 = __m512i;
  using int32 = __m256i;
  BUDGETSVM_AVX512 index64 load_index(const Index* p, tail m) {
    static_assert(sizeof(Index) == 8, "64-bit indices");
    return _mm512_maskz_loadu_epi64(m, p);
  }
  BUDGETSVM_AVX512 reg gather(const double* base, index64 j, tail m, reg src) {
    return _mm512_mask_i64gather_pd(src, m, j, base, 8);
  }
  BUDGETSVM_AVX512 int32 set1_int(int v) { return _mm256_set1_epi32(v); }
  BUDGETSVM_AVX512 int32 truncate(reg a) { return _mm512_maskz_cvttpd_epi32(all, a); }
  BUDGETSVM_AVX512 reg to_double(int32 a) { return _mm512_maskz_cvtepi32_pd(all, a); }
  BUDGETSVM_AVX512 int32 min_int(int32 a, int32 b) { return _mm256_min_epi32(a, b); }
  BUDGETSVM_AVX512 int32 add_int(int32 a, int32 b) { return _mm256_add_epi32(a, b); }
  BUDGETSVM_AVX512 int32 mul_int(int32 a, int32 b) { return _mm256_mullo_epi32(a, b); }
  BUDGETSVM_AVX512 void float_pairs(const float* t, int32 off, reg* first, reg* second) {
    const __m512i row = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), all, off, t, 4);
    *first = _mm512_maskz_cvtps_pd(all, _mm256_castsi256_ps(_mm512_maskz_cvtepi64_epi32(all, row)));
    *second = _mm512_maskz_cvtps_pd(
        all, _mm256_castsi256_ps(_mm512_maskz_cvtepi64_epi32(all, _mm512_maskz_srli_epi64(all, row, 32))));
  }
};

struct Float {
  using reg = __m512;
  using mask = __mmask16;
  using tail = __mmask16;
  static constexpr int lanes = 16;
  static constexpr bool masked_tail = true;
  static constexpr __mmask16 all = 0xFFFF;

  BUDGETSVM_AVX512 reg zero() { return _mm512_setzero_ps(); }
  BUDGETSVM_AVX512 reg set1(float v) { return _mm512_set1_ps(v); }
  BUDGETSVM_AVX512 reg load(const float* p) { return _mm512_loadu_ps(p); }
  BUDGETSVM_AVX512 reg load(const float* p, tail m) { return _mm512_maskz_loadu_ps(m, p); }
  BUDGETSVM_AVX512 void store(float* p, reg v) { _mm512_storeu_ps(p, v); }
  BUDGETSVM_AVX512 void store(float* p, reg v, tail m) { _mm512_mask_storeu_ps(p, m, v); }
  BUDGETSVM_AVX512 tail first(Index n) {
    return static_cast<__mmask16>(n >= 16 ? 0xFFFFu : n > 0 ? (1u << n) - 1u : 0u);
  }
  BUDGETSVM_AVX512 reg add(reg a, reg b) { return _mm512_add_ps(a, b); }
  BUDGETSVM_AVX512 reg sub(reg a, reg b) { return _mm512_sub_ps(a, b); }
  BUDGETSVM_AVX512 reg fmadd(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
  BUDGETSVM_AVX512 reg max(reg a, reg b) { return _mm512_mask_max_ps(a, all, a, b); }
  BUDGETSVM_AVX512 reg min(reg a, reg b) { return _mm512_mask_min_ps(a, all, a, b); }
  BUDGETSVM_AVX512 mask at_least(reg a, reg b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
  BUDGETSVM_AVX512 reg round(reg a) {
    return _mm512_mask_roundscale_ps(a, all, a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
  /// p 2^n in the lanes of m, 0 elsewhere (one scalef).
  BUDGETSVM_AVX512 reg scale_where(mask m, reg p, reg n) { return _mm512_maskz_scalef_ps(m, p, n); }
  /// The lanes summed four at a time from 0: total += (t[l] + t[l+1]) + (t[l+2] + t[l+3]).
  BUDGETSVM_AVX512 float sum(reg v) {
    float t[lanes];
    _mm512_storeu_ps(t, v);
    float total = 0.0f;
    for (int l = 0; l < lanes; l += 4) total += (t[l] + t[l + 1]) + (t[l + 2] + t[l + 3]);
    return total;
  }
};

}  // namespace budgetsvm::simd::width::avx512

#undef BUDGETSVM_AVX2
#undef BUDGETSVM_AVX512

#endif  // BUDGETSVM_SIMD_X86
