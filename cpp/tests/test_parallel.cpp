// Tests of the thread helper (parallel.hpp): every task runs once, results do
// not depend on the thread count, worker exceptions reach the caller, a stop
// asked on the calling thread stops the workers; the helper threads are kept
// between loops, and nested, concurrent and forked-child loops still run.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "budgetsvm/core/parallel.hpp"
#include "check.hpp"

using namespace budgetsvm;

TEST_CASE("parallel: every task runs exactly once, for any thread count") {
  for (int threads : {1, 2, 3, 8}) {
    std::vector<std::atomic<int>> runs(37);
    RunControl none;
    parallel_tasks(37, threads, none, [&](Index i, RunControl&) { ++runs[static_cast<std::size_t>(i)]; });
    for (auto& r : runs) CHECK(r.load() == 1);
  }
}

TEST_CASE("parallel: ranges cover [0, n) once, kRangesPerThread ranges a thread") {
  for (Index n : {Index{1}, Index{5}, Index{100}, Index{101}}) {
    for (int parts : {1, 2, 3, 7, 200}) {
      std::vector<int> hits(static_cast<std::size_t>(n), 0);
      std::atomic<int> ranges{0};
      RunControl none;
      parallel_ranges(n, parts, none, [&](Index b, Index e, RunControl&) {
        ++ranges;
        for (Index i = b; i < e; ++i) ++hits[static_cast<std::size_t>(i)];
      });
      for (int h : hits) CHECK(h == 1);
      const Index p = std::min<Index>(parts, n);
      const Index wanted = p == 1 ? 1 : std::min(n, p * kRangesPerThread), step = (n + wanted - 1) / wanted;
      CHECK(ranges.load() == (n + step - 1) / step);
      CHECK(ranges.load() <= wanted);
    }
  }
}

TEST_CASE("parallel: a worker's exception is rethrown in the caller") {
  RunControl none;
  CHECK_THROWS(parallel_tasks(16, 4, none,
                              [](Index i, RunControl&) {
                                if (i == 11) throw std::invalid_argument("task 11");
                              }),
               std::invalid_argument);
  // A real error is preferred over the Interrupted of the other threads.
  CHECK_THROWS(parallel_tasks(64, 4, none,
                              [](Index i, RunControl& ctl) {
                                if (i == 3) throw std::runtime_error("boom");
                                for (int k = 0; k < 100000; ++k) ctl.poll();
                              }),
               std::runtime_error);
}

TEST_CASE("parallel: a stop on the calling thread stops the workers") {
  std::atomic<bool> asked{false};
  RunControl control([&] { return asked.exchange(true), true; }, 0.0);
  std::atomic<int> started{0};
  // Workers spin on their own RunControl until the stop flag is raised.
  CHECK_THROWS(parallel_tasks(4, 4, control,
                              [&](Index, RunControl& ctl) {
                                ++started;
                                for (;;) ctl.poll_block();
                              }),
               Interrupted);
  CHECK(asked.load());
  CHECK(started.load() >= 1);
}

#if defined(BUDGETSVM_HAS_THREADS)
TEST_CASE("parallel: helper threads are kept from one loop to the next") {
  // A thread_local counter survives only in a thread that lives on: with
  // threads started per loop every helper would count one loop at most.
  static thread_local int loops_here = 0;
  const auto caller = std::this_thread::get_id();
  int most = 0;
  for (int loop = 0; loop < 50; ++loop) {
    std::atomic<int> seen{0};
    RunControl none;
    parallel_tasks(2, 2, none, [&](Index, RunControl&) {
      if (std::this_thread::get_id() != caller) seen = ++loops_here;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    most = std::max(most, seen.load());
  }
  CHECK(most > 1);
}

TEST_CASE("parallel: a loop inside a task, and after a failed loop") {
  RunControl none;
  std::vector<std::atomic<int>> runs(8 * 9);
  parallel_tasks(8, 2, none, [&](Index i, RunControl& ctl) {
    parallel_tasks(9, 3, ctl, [&](Index j, RunControl&) { ++runs[static_cast<std::size_t>(i * 9 + j)]; });
  });
  for (auto& r : runs) CHECK(r.load() == 1);
  CHECK_THROWS(parallel_tasks(4, 2, none, [](Index, RunControl&) { throw std::runtime_error("x"); }),
               std::runtime_error);
  std::atomic<int> total{0};
  parallel_tasks(100, 2, none, [&](Index i, RunControl&) { total += static_cast<int>(i); });
  CHECK(total.load() == 4950);
}

TEST_CASE("parallel: loops started from two threads at once") {
  std::atomic<long> sums[2] = {{0}, {0}};
  const auto body = [&](int k) {
    for (int loop = 0; loop < 200; ++loop) {
      RunControl none;
      parallel_tasks(16, 2, none, [&](Index i, RunControl&) { sums[k] += static_cast<long>(i); });
    }
  };
  std::thread other(body, 1);
  body(0);
  other.join();
  CHECK(sums[0].load() == 200L * 120);
  CHECK(sums[1].load() == 200L * 120);
}
#endif

#if defined(BUDGETSVM_HAS_THREADS) && (defined(__unix__) || defined(__APPLE__))
TEST_CASE("parallel: a forked child runs its own loops") {
  RunControl none;
  parallel_tasks(4, 2, none, [](Index, RunControl&) {});  // the parent's pool exists
  const pid_t child = fork();
  if (child == 0) {
    alarm(20);  // a hang ends the child, and the test fails
    std::atomic<int> total{0};
    RunControl ctl;
    parallel_tasks(64, 2, ctl, [&](Index i, RunControl&) { total += static_cast<int>(i); });
    _exit(total.load() == 2016 ? 0 : 1);
  }
  int status = 0;
  CHECK(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
#endif

int main() { return budgetsvm::test::run_all(); }
