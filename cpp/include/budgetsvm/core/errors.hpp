// Error types of the C++ core. The core never prints and never exits: bad
// arguments throw std::invalid_argument (ValueError in Python), a user stop
// throws Interrupted (KeyboardInterrupt in Python, or the callback's own
// exception), and non-convergence is reported through a status field.
#pragma once

#include <stdexcept>
#include <string>

namespace budgetsvm {

/// Thrown when a polled stop request (Ctrl-C, a callback) ends a long run.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

inline void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

/// The same for a fixed message: no string is built unless the check
/// fails (checks run once per row, and a message longer than the short-string
/// buffer would cost an allocation each time).
inline void require(bool condition, const char* message) {
  if (!condition) throw std::invalid_argument(message);
}

}  // namespace budgetsvm
