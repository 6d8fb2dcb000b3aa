// One way to run independent tasks on threads, used by every parallel loop.
//
// Tasks 0..n_tasks-1 are handed out in order from a shared counter to at
// most n_threads threads, the calling thread being one of them. A task
// writes only its own results, so the results do not depend on the number
// of threads. The first exception a task throws stops the handing out; once
// every thread has joined, it is rethrown in the caller (a real error before
// the Interrupted that stopped the other threads).
//
// Ctrl-C: only the calling thread asks the caller's RunControl (Python's
// signal handlers run there), at its rate limit: inside its own tasks, and
// every 20 ms while it waits for the workers. A worker's task gets a
// RunControl of its own that reads a shared stop flag, raised when any
// thread fails or is interrupted.
//
// MinGW-w64 with the win32 thread model has no std::thread: there the tasks
// run one after another on the calling thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <vector>

#if !defined(__GLIBCXX__) || defined(_GLIBCXX_HAS_GTHREADS)
#define BUDGETSVM_HAS_THREADS 1
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#endif

#include "control.hpp"
#include "eigen.hpp"
#include "errors.hpp"

namespace budgetsvm {

/// Runs task(i, control_i) for i = 0..n_tasks-1 on up to n_threads threads
/// (see the header comment); control_i is `control` on the calling thread.
template <class Task>
void parallel_tasks(Index n_tasks, int n_threads, RunControl& control, Task&& task) {
  if (n_tasks <= 0) return;
#if defined(BUDGETSVM_HAS_THREADS)
  const int threads = static_cast<int>(std::clamp<Index>(n_tasks, 1, std::max(n_threads, 1)));
#else
  const int threads = 1;
#endif
  if (threads == 1) {
    for (Index i = 0; i < n_tasks; ++i) task(i, control);
    return;
  }
#if defined(BUDGETSVM_HAS_THREADS)
  std::atomic<Index> next{0};
  std::atomic<bool> stop{false};
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  auto run = [&](int id, RunControl& ctl) {
    try {
      for (Index i = next++; i < n_tasks && !stop.load(); i = next++) task(i, ctl);
    } catch (...) {
      errors[static_cast<std::size_t>(id)] = std::current_exception();
      stop = true;
    }
  };
  std::mutex mutex;
  std::condition_variable done;
  int running = threads - 1;
  std::vector<std::thread> pool;
  for (int id = 1; id < threads; ++id) {
    pool.emplace_back([&, id] {
      RunControl worker([&stop] { return stop.load(std::memory_order_relaxed); }, 0.02);
      run(id, worker);
      const std::lock_guard<std::mutex> lock(mutex);
      --running;
      done.notify_one();
    });
  }
  run(0, control);
  {
    std::unique_lock<std::mutex> lock(mutex);
    // workers decrement running under the mutex (clang-tidy cannot see that)
    while (running > 0) {  // NOLINT(bugprone-infinite-loop)
      done.wait_for(lock, std::chrono::milliseconds(20));
      if (running == 0 || errors[0]) continue;
      lock.unlock();
      try {
        control.poll_now();
      } catch (...) {
        errors[0] = std::current_exception();
        stop = true;
      }
      lock.lock();
    }
  }
  for (auto& thread : pool) thread.join();
  for (auto& e : errors) {  // a real error first; Interrupted after
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const Interrupted&) {
    }
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
#endif
}

/// n_jobs when `work` (multiply-adds, say) pays for starting threads, else 1.
inline int threads_for(int n_jobs, double work) { return (n_jobs > 1 && work > 1.0e6) ? n_jobs : 1; }

/// f(begin, end, control) over [0, n) cut into `parts` contiguous ranges of
/// ceil(n / parts) indices (the last may be shorter), one task each.
template <class F>
void parallel_ranges(Index n, int parts, RunControl& control, F&& f) {
  if (n <= 0) return;
  const Index p = std::clamp<Index>(parts, 1, n);
  const Index step = (n + p - 1) / p;
  const Index tasks = (n + step - 1) / step;
  parallel_tasks(tasks, static_cast<int>(p), control, [&](Index t, RunControl& ctl) {
    f(t * step, std::min(n, (t + 1) * step), ctl);
  });
}

}  // namespace budgetsvm
