// Generated data for the C++ tests: n labelled points drawn from a seeded
// Random, one row at a time, by a rule the test gives (a lambda that fills
// the row and returns its label). The same (n, seed) gives the same data on
// every platform, so the tests' expectations are fixed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "budgetsvm/core/eigen.hpp"
#include "budgetsvm/core/random.hpp"

namespace budgetsvm::test {

struct LabelledPoints {
  MatrixXd X;  // one point per row (row-major, as the core reads it)
  std::vector<int> y;

  /// draw(rng, row) fills `row` (d features) and returns the point's label.
  template <class Draw>
  LabelledPoints(Index n, Index d, std::uint64_t seed, Draw draw) : X(n, d), y(static_cast<std::size_t>(n)) {
    Random rng(seed);
    for (Index i = 0; i < n; ++i) {
      auto row = X.row(i);
      y[static_cast<std::size_t>(i)] = draw(rng, row);
    }
  }
};

}  // namespace budgetsvm::test
