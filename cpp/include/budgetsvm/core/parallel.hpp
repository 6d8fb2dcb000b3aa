// One way to run independent tasks on threads, used by every parallel loop.
//
// Tasks 0..n_tasks-1 are handed out in order from a shared counter to at
// most n_threads threads, the calling thread being one of them. A task
// writes only its own results, so the results do not depend on the number
// of threads. The first exception a task throws stops the handing out; once
// every thread has finished, it is rethrown in the caller (a real error
// before the Interrupted that stopped the other threads).
//
// The helper threads are kept between loops (detail::WorkerPool): the exact
// solver runs a few parallel loops per decomposition round, thousands per
// fit, and starting threads anew for each cost more than the loop saved
// where a round's work is small. A helper that has finished its part spins
// (yielding the core to anything else that wants it) for up to
// kSpinMicroseconds for the next loop, which covers the serial part of a
// round, then sleeps on a condition variable. Once the caller has handed
// out every task it closes the loop: a helper the scheduler has not run by
// then is not waited for (on a busy machine it would hold up every loop).
// The pool serves one loop at a time: a loop started while it is busy (a
// nested loop inside a task, or a second thread of the program fitting at
// the same time) starts threads of its own, as before the pool. After
// fork() the child builds a pool of its own (the parent's helpers do not
// exist there).
//
// Ctrl-C: only the calling thread asks the caller's RunControl (Python's
// signal handlers run there), at its rate limit: inside its own tasks, and
// every 20 ms while it waits for the helpers. A helper's task gets a
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
#include <cstdint>
#include <mutex>
#include <thread>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>  // getpid: a forked child builds its own pool
#endif
#endif

#include "control.hpp"
#include "eigen.hpp"
#include "errors.hpp"

namespace budgetsvm {

#if defined(BUDGETSVM_HAS_THREADS)
namespace detail {

/// The process's helper threads, kept between parallel loops (see the header
/// comment). One loop at a time: acquire() returns nullptr while another
/// loop holds the pool. The pool is never destroyed: its helpers wait in it
/// until the process ends (joining threads from a static destructor can
/// deadlock at exit, inside a Python extension on Windows in particular).
class WorkerPool {
 public:
  using Body = void (*)(void* context, int id);
  static constexpr int kSpinMicroseconds = 1000;

  /// The pool if no other loop holds it, else nullptr; release() gives it back.
  static WorkerPool* acquire() {
    WorkerPool& pool = instance();
    if (pool.busy_.exchange(true, std::memory_order_acquire)) return nullptr;
    return &pool;
  }
  void release() { busy_.store(false, std::memory_order_release); }

  /// Offers body(context, id) for id = 1..helpers to helper threads
  /// (started when the pool has fewer) and returns at once. A helper takes
  /// part only if it arrives before close(). body must not throw.
  void start(int helpers, Body body, void* context) {
    while (static_cast<int>(n_helpers_) < helpers) {
      std::uint64_t now;
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        now = generation_.load(std::memory_order_relaxed);
      }
      std::thread(&WorkerPool::serve, this, static_cast<int>(n_helpers_) + 1, now).detach();
      ++n_helpers_;
    }
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      body_ = body;
      context_ = context;
      wanted_ = helpers;
      joined_ = 0;
      finished_ = 0;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
  }

  /// No helper joins the loop from here on (the caller calls it once every
  /// task is handed out: a helper the scheduler has not run yet is not
  /// waited for, which matters on a busy machine).
  void close() {
    const std::lock_guard<std::mutex> lock(mutex_);
    wanted_ = 0;
    joined_at_close_ = joined_;
  }

  /// After close(): true when every helper that joined the loop has
  /// returned, waiting at most `timeout` for that (spinning first, for
  /// short loops).
  bool wait_for(std::chrono::milliseconds timeout) {
    const auto all_back = [&] { return finished_.load(std::memory_order_acquire) == joined_at_close_; };
    if (spin_until(all_back)) return true;
    std::unique_lock<std::mutex> lock(mutex_);
    return done_.wait_for(lock, timeout, all_back);
  }

 private:
  WorkerPool() = default;

  static WorkerPool& instance() {
#if defined(__unix__) || defined(__APPLE__)
    using Pid = pid_t;
    const auto pid = [] { return getpid(); };
#else
    using Pid = int;
    const auto pid = [] { return 0; };
#endif
    static std::atomic<WorkerPool*> pool{new WorkerPool()};
    static std::atomic<Pid> owner{pid()};
    const Pid me = pid();
    WorkerPool* current = pool.load(std::memory_order_acquire);
    if (owner.load(std::memory_order_acquire) != me) {
      // A forked child holds its parent's pool, whose helpers it does not
      // have: a pool of its own (the old one is left as it is).
      auto* fresh = new WorkerPool();
      if (pool.compare_exchange_strong(current, fresh, std::memory_order_acq_rel)) {
        owner.store(me, std::memory_order_release);
        current = fresh;
      } else {
        delete fresh;  // another thread's pool won
      }
    }
    return *current;
  }

  template <class Ready>
  static bool spin_until(Ready&& ready) {
    using Clock = std::chrono::steady_clock;
    const auto until = Clock::now() + std::chrono::microseconds(kSpinMicroseconds);
    for (int k = 1;; ++k) {
      if (ready()) return true;
      if ((k & 63) == 0 && Clock::now() > until) return false;
      std::this_thread::yield();
    }
  }

  // A helper: waits for the next loop, joins it when its id is among the
  // wanted ones and the loop is not closed, and tells the caller when it is
  // back.
  void serve(int id, std::uint64_t seen) {
    for (;;) {
      if (!spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; })) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
      }
      Body body;
      void* context;
      {
        // The loop's fields are read with its generation, under the lock
        // that start() and close() write them under.
        const std::lock_guard<std::mutex> lock(mutex_);
        seen = generation_.load(std::memory_order_relaxed);
        if (id > wanted_) continue;
        ++joined_;
        body = body_;
        context = context_;
      }
      body(context, id);
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        finished_.fetch_add(1, std::memory_order_release);
      }
      done_.notify_all();
    }
  }

  std::atomic<bool> busy_{false};
  std::size_t n_helpers_ = 0;  // touched by the pool's holder only
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<std::uint64_t> generation_{0};
  // The current loop, under mutex_: what it runs, which helper ids may
  // still join it (0 once closed), how many joined and came back.
  Body body_ = nullptr;
  void* context_ = nullptr;
  int wanted_ = 0;
  int joined_ = 0;
  int joined_at_close_ = 0;  // also read by the holder alone, after close()
  std::atomic<int> finished_{0};
};

/// Holds the pool for one loop (or nothing, when it is busy).
class PoolLease {
 public:
  PoolLease() : pool_(WorkerPool::acquire()) {}
  ~PoolLease() {
    if (pool_ != nullptr) pool_->release();
  }
  PoolLease(const PoolLease&) = delete;
  PoolLease& operator=(const PoolLease&) = delete;
  WorkerPool* get() const { return pool_; }

 private:
  WorkerPool* pool_;
};

}  // namespace detail
#endif

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
  auto helper = [&](int id) {
    RunControl own([&stop] { return stop.load(std::memory_order_relaxed); }, 0.02);
    run(id, own);
  };
  // The caller's share, then its wait for the helpers: every 20 ms it asks
  // its RunControl, and a stop raises the flag the helpers' tasks read.
  const auto finish = [&](auto&& wait_20ms, auto&& close) {
    run(0, control);
    close();
    while (!wait_20ms()) {
      if (errors[0]) continue;
      try {
        control.poll_now();
      } catch (...) {
        errors[0] = std::current_exception();
        stop = true;
      }
    }
  };
  const detail::PoolLease lease;
  if (detail::WorkerPool* pool = lease.get()) {
    pool->start(threads - 1, [](void* h, int id) { (*static_cast<decltype(helper)*>(h))(id); }, &helper);
    finish([pool] { return pool->wait_for(std::chrono::milliseconds(20)); }, [pool] { pool->close(); });
  } else {
    // The pool is busy (a nested or concurrent loop): threads of its own.
    std::mutex mutex;
    std::condition_variable done;
    int running = threads - 1;
    std::vector<std::thread> own_threads;
    for (int id = 1; id < threads; ++id) {
      own_threads.emplace_back([&, id] {
        helper(id);
        const std::lock_guard<std::mutex> lock(mutex);
        --running;
        done.notify_one();
      });
    }
    finish(
        [&] {
          std::unique_lock<std::mutex> lock(mutex);
          return done.wait_for(lock, std::chrono::milliseconds(20), [&] { return running == 0; });
        },
        [] {});
    for (auto& thread : own_threads) thread.join();
  }
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

/// Work (multiply-adds, say) below which a parallel loop runs on one
/// thread: a few tens of microseconds, several times the cost of handing a
/// loop to the pool's helpers (docs/exact.md, "Threads", gives the
/// measurement behind the value).
constexpr double kThreadsPayAbove = 1.0e5;

/// n_jobs when `work` pays for more threads (kThreadsPayAbove), else 1.
inline int threads_for(int n_jobs, double work) { return (n_jobs > 1 && work > kThreadsPayAbove) ? n_jobs : 1; }

/// Contiguous ranges per thread in parallel_ranges: a thread that starts
/// late (the scheduler ran something else first) leaves its share to the
/// others instead of holding every one up.
constexpr Index kRangesPerThread = 4;

/// The cut of parallel_ranges over [0, n) on `parts` threads: one range for
/// one thread, else parts * kRangesPerThread contiguous ranges of `step`
/// indices (the last may be shorter; never more ranges than indices), one
/// task each; none for n <= 0.
struct RangeCut {
  Index step = 0, tasks = 0;
  int threads = 1;
  RangeCut(Index n, int parts) {
    if (n <= 0) return;
    const Index p = std::clamp<Index>(parts, 1, n);
    const Index ranges = p == 1 ? 1 : std::min(n, p * kRangesPerThread);
    step = (n + ranges - 1) / ranges;
    tasks = (n + step - 1) / step;
    threads = static_cast<int>(p);
  }
};

/// f(range, begin, end, control) for each range of the cut above, `range`
/// its index (0..tasks-1); parallel_ranges passes begin, end and control.
template <class F>
void parallel_ranges_indexed(Index n, int parts, RunControl& control, F&& f) {
  const RangeCut cut(n, parts);
  if (cut.tasks == 0) return;
  parallel_tasks(cut.tasks, cut.threads, control, [&](Index t, RunControl& ctl) {
    f(t, t * cut.step, std::min(n, (t + 1) * cut.step), ctl);
  });
}

template <class F>
void parallel_ranges(Index n, int parts, RunControl& control, F&& f) {
  parallel_ranges_indexed(n, parts, control, [&](Index, Index begin, Index end, RunControl& ctl) {
    f(begin, end, ctl);
  });
}

}  // namespace budgetsvm
