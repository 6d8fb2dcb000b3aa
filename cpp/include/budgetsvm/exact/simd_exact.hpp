// Inner loops of the exact solvers (exact/), at each instruction set of
// simd.hpp:
//
//   add_scaled_columns:  sum[k] += sum_c coef[c] col_c[k], k < len, for m
//                        float kernel columns (given by pointers) and
//                        double coefficients: the gradient update after
//                        every move of the dual variables (dual_state.hpp)
//   rbf_column_to_float: out[j] = (float) exp(-gamma max(0, xnorm + znorm[j]
//                        - 2 (dots[j] - shift))): a block of dot products
//                        to cached kernel values in one pass, where the
//                        kernel sources made three (the centre's shift,
//                        rbf_from_dots, the conversion to float)
//   best_partner:        the first r < n of largest gain b_r^2 / a_r > 0,
//                        b_r = q_i - q[r] > min_b, a_r = K_ii + diag[r] -
//                        2 K_i[place[r]] (tau where <= 0): ALFPGM's j
//                        search for one i over its low candidates (wss.hpp),
//                        the column read through the places (a gather)
//   best_two_partners:   best_partner's r and the first of largest gain
//                        among the others (n when none): the j search of
//                        a pair whose predecessor's j is not known yet
//
// The baseline build converts, multiplies and divides one or two doubles per
// instruction in these loops; AVX2 and AVX-512 do 4 / 8.
//
// Same bits at every level: add_scaled_columns adds in one order, four
// columns per pass, sum[k] += (a0 c0[k] + a1 c1[k]) + (a2 c2[k] + a3 c3[k]),
// then the columns left over one by one; best_partner computes each gain
// with the operations of exact::pair_gain in its order; neither fuses a
// multiply and an add, so neither makes a fit depend on the instruction
// set. rbf_column_to_float gives, at each level, the bits of that level's
// rbf_from_dots (simd.hpp) on dots - shift, rounded to float: the columns
// do not change, only the passes over them (the kernel values themselves
// differ between levels in their last bits, as rbf_from_dots's do; SSE2
// and scalar code make the three passes; rbf_column_to_float_for returns
// no kernel there).
#pragma once

#include <cstddef>
#include <utility>

#include "../core/simd.hpp"
#include "simd_baseline.hpp"
#define BUDGETSVM_WIDE_BODY "../exact/simd_exact_wide.hpp"
#include "../core/simd_each_width.hpp"

namespace budgetsvm::simd {

using AddScaledColumns = void (*)(const float* const* cols, const double* coef, std::size_t m, Index offset,
                                  Index len, double* sum);

/// The gradient update's kernel for an instruction set (SSE2: the scalar
/// loop, which the compiler vectorises for SSE2 itself).
inline AddScaledColumns add_scaled_columns_for(Level level) {
  return BUDGETSVM_SIMD_WIDE_OR(level, add_scaled_columns, &scalar::add_scaled_columns);
}

using RbfColumnToFloat = void (*)(const double* dots, double shift, const double* znorm, double xnorm,
                                  double gamma, Index n, float* out);

/// The one-pass RBF column for an instruction set; nullptr below AVX2
/// (the caller makes the three passes).
inline RbfColumnToFloat rbf_column_to_float_for(Level level) {
  return BUDGETSVM_SIMD_WIDE_OR(level, rbf_column_to_float, nullptr);
}

using BestPartner = Index (*)(const double* q, const double* diag, const float* Ki, const Index* place, Index n,
                              double qi, double Kii, double min_b, double tau);

/// ALFPGM's j search for an instruction set (SSE2: the scalar loop).
inline BestPartner best_partner_for(Level level) {
  return BUDGETSVM_SIMD_WIDE_OR(level, best_partner, &scalar::best_partner);
}

using BestTwoPartners = std::pair<Index, Index> (*)(const double* q, const double* diag, const float* Ki,
                                                    const Index* place, Index n, double qi, double Kii, double min_b,
                                                    double tau);

/// best_two_partners for an instruction set (SSE2: the scalar loop).
inline BestTwoPartners best_two_partners_for(Level level) {
  return BUDGETSVM_SIMD_WIDE_OR(level, best_two_partners, &scalar::best_two_partners);
}

/// The gradient update's kernel of the active level.
inline AddScaledColumns active_add_scaled_columns() {
  static const AddScaledColumns f = add_scaled_columns_for(active_level());
  return f;
}

}  // namespace budgetsvm::simd
