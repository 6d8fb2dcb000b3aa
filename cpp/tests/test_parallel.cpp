// Tests of the thread helper (parallel.hpp): every task runs once, results do
// not depend on the thread count, worker exceptions reach the caller, and a
// stop asked on the calling thread stops the workers.
#include <atomic>
#include <stdexcept>
#include <vector>

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

TEST_CASE("parallel: ranges cover [0, n) once with the ceil(n / parts) split") {
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
      const Index p = std::min<Index>(parts, n), step = (n + p - 1) / p;
      CHECK(ranges.load() == (n + step - 1) / step);
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

int main() { return budgetsvm::test::run_all(); }
