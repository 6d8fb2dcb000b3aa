// Run control shared by every long-running routine: a stop check that is
// polled from the calling thread only (Python's signal handlers must run
// there), at a bounded interval so that polling costs nothing measurable.
#pragma once

#include <chrono>
#include <functional>

#include "errors.hpp"

namespace budgetsvm {

class RunControl {
 public:
  using StopCheck = std::function<bool()>;

  RunControl() = default;
  explicit RunControl(StopCheck check, double interval_seconds = 0.1)
      : check_(std::move(check)),
        interval_(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(interval_seconds))),
        next_(Clock::now() + interval_) {}

  /// Cheap to call often: asks the stop check at most once per interval and
  /// throws Interrupted when it says stop.
  void poll() {
    if (!check_) return;
    if (++calls_ & 255u) return;  // read the clock once in 256 calls
    const auto now = Clock::now();
    if (now < next_) return;
    next_ = now + interval_;
    if (check_()) throw Interrupted();
  }

  /// For loops whose every pass is long (a block of a matrix product):
  /// reads the clock on every call, asks at most once per interval.
  void poll_block() {
    if (!check_) return;
    const auto now = Clock::now();
    if (now < next_) return;
    next_ = now + interval_;
    if (check_()) throw Interrupted();
  }

  /// Asks the stop check now (for example at the end of an epoch).
  void poll_now() {
    if (check_ && check_()) throw Interrupted();
  }

 private:
  using Clock = std::chrono::steady_clock;
  StopCheck check_;
  Clock::duration interval_{};
  Clock::time_point next_{};
  unsigned calls_ = 0;
};

}  // namespace budgetsvm
