// A dense matrix's non-zeros as CSR arrays (int32 indices), for the C++
// tests that run the same rows dense and sparse.
#pragma once

#include <cstdint>
#include <vector>

#include "budgetsvm/core/data_view.hpp"
#include "budgetsvm/core/eigen.hpp"

namespace budgetsvm::test {

struct CsrCopy {
  std::vector<double> values;
  std::vector<std::int32_t> indices, indptr{0};
  explicit CsrCopy(const MatrixXd& X) {
    for (Index i = 0; i < X.rows(); ++i) {
      for (Index k = 0; k < X.cols(); ++k)
        if (X(i, k) != 0) values.push_back(X(i, k)), indices.push_back(static_cast<std::int32_t>(k));
      indptr.push_back(static_cast<std::int32_t>(values.size()));
    }
  }
  /// The copy as a view of n rows and d columns.
  CsrView<double, std::int32_t> view(Index n, Index d) const {
    return CsrView<double, std::int32_t>(values.data(), indices.data(), indptr.data(), n, d);
  }
};

}  // namespace budgetsvm::test
