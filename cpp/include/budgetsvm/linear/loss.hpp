// Losses of the linear SVM dual (liblinear's solver 3 and solver 1).
//
// Primal: min_w 1/2 ||w||^2 + sum_i C_i L(y_i <w, x_i>), with
//   hinge          L(m) = max(0, 1 - m)
//   squared hinge  L(m) = max(0, 1 - m)^2.
// Dual (minimisation form, Q_ij = y_i y_j <x_i, x_j>):
//   min_alpha 1/2 alpha^T (Q + D) alpha - sum_i alpha_i,  0 <= alpha_i <= U_i.
// The hinge loss has D_ii = 0 and U_i = C_i; the squared hinge loss has
// D_ii = 1/(2 C_i) and no upper bound (docs/linear.md).
// A loss is a tiny strategy type that maps a sample's C_i to (U_i, D_ii).
#pragma once

#include <limits>

namespace budgetsvm::linear {

struct Hinge {
  static double upper_bound(double C) { return C; }
  static double diagonal(double) { return 0.0; }
};

struct SquaredHinge {
  static double upper_bound(double) { return std::numeric_limits<double>::infinity(); }
  static double diagonal(double C) { return 0.5 / C; }
};

enum class LossType { hinge, squared_hinge };

}  // namespace budgetsvm::linear
