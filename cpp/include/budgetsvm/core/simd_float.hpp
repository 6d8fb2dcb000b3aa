// Single-precision kernels for predicting float32 data with the Gaussian
// kernel (expansion.hpp):
//
//   dense_dots:      G[r * ldg + j] = sum_k x_r[k] Zt[k * ld + j]  (float)
//   rbf_from_parts:  out[j] = 2^min(0, acc[j] + zpart[j] + xpart)
//   rbf_dot_parts:   sum_j coef[j] 2^(...) of the same values, summed in
//                    float lanes (a model with one output: the kernel values
//                    are never stored)
//
// Twice the lanes of the double kernels per instruction. The Gaussian value
// exp(-gamma |x - z|^2) is computed as a power of two, 2^u with
// u = -g |x - z|^2 = 2 g <x, z> - g |z|^2 - g |x|^2 and g = gamma log2(e), and
// the caller scales the three parts once: the support vectors by 2 g before
// the dot products (so acc = <x, 2 g z>), zpart[j] = -g |z_j|^2 per support
// vector, xpart = -g |x|^2 per row. u is then two additions, capped at 0 (a
// distance rounded below 0), and needs no multiply: the unit these loops
// wait on is the multiply-add one, which the dot products fill. Then
// u = n + r with n = round(u) and r in [-1/2, 1/2] (exactly), 2^r by a
// degree-6 polynomial (the least relative error on that interval, found by
// the Remez exchange: 1.9e-9, below float's half ulp), scaled by 2^n.
// Arguments below -125 give 0 (exp below -86.6; a result stays a normal
// float). Against exp of -gamma times a distance from the dots (the first
// version): no split constant of ln 2 in the reduction, the polynomial one
// degree less for the same error, no multiplies to form u: six instructions
// fewer on the multiply-add unit per vector of values. The rounding of u (float's epsilon times |u|) is that of
// any float exp's argument. Same instruction sets and dispatch as simd.hpp
// (the level is shared): the scalar loops in simd_baseline.hpp (SSE2 uses
// them), the AVX2 and AVX-512 ones written once in simd_float_wide.hpp.
#pragma once

#include "simd.hpp"
#include "simd_baseline.hpp"
#define BUDGETSVM_WIDE_BODY "simd_float_wide.hpp"
#include "simd_each_width.hpp"

namespace budgetsvm::simd {

/// The single-precision kernels of the active level.
struct FloatKernels {
  void (*dense_dots)(const float* const* x, Index rows, Index d, const float* Zt, Index ld, Index B, float* G,
                     Index ldg);
  void (*rbf_from_parts)(const float* acc, const float* zpart, float xpart, Index B, float* out);
  float (*rbf_dot_parts)(const float* acc, const float* zpart, float xpart, Index B, const float* coef);
};

/// The single-precision kernels of a given level (which must not exceed
/// detect_level(); SSE2 uses the scalar ones).
inline FloatKernels float_kernels_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  switch (level) {
    case Level::avx512: return {&avx512::dense_dots_f, &avx512::rbf_from_parts_f, &avx512::rbf_dot_parts_f};
    case Level::avx2: return {&avx2::dense_dots_f, &avx2::rbf_from_parts_f, &avx2::rbf_dot_parts_f};
    default: break;
  }
#else
  (void)level;
#endif
  return {&scalar::dense_dots_f, &scalar::rbf_from_parts_f, &scalar::rbf_dot_parts_f};
}

inline const FloatKernels& active_float_kernels() {
  static const FloatKernels k = float_kernels_for(active_level());
  return k;
}

}  // namespace budgetsvm::simd
