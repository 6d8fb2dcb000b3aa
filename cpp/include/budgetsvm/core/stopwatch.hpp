// Seconds since construction on the steady clock: how long a run or one of
// its phases (budget maintenance) took, reported in the solvers' statistics.
#pragma once

#include <chrono>

namespace budgetsvm {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace budgetsvm
