// Single include point for Eigen, so that every budgetsvm header sees the
// same configuration.
#pragma once

#ifndef EIGEN_MPL2_ONLY
#define EIGEN_MPL2_ONLY
#endif

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace budgetsvm {

using Index = std::ptrdiff_t;
using MatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using VectorXd = Eigen::VectorXd;

}  // namespace budgetsvm
