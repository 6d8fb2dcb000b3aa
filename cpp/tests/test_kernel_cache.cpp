// Tests of the LRU kernel cache and its column sources: values against a
// naive kernel loop in every data layout, and the cache's hits, misses and
// evictions against a naive LRU simulation replaying random request
// sequences (with shrinking-style partial requests and epochs).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <list>
#include <vector>

#include "budgetsvm/core/kernel_cache.hpp"
#include "budgetsvm/core/random.hpp"
#include "check.hpp"

using namespace budgetsvm;

namespace {

struct Data {
  Index n, d;
  std::vector<double> dense;  // row-major
  std::vector<double> dense_cm;
  std::vector<float> dense32;
  std::vector<double> values;
  std::vector<std::int32_t> indices, indptr;

  Data(Index rows, Index cols, std::uint64_t seed, double density = 0.5) : n(rows), d(cols) {
    Random rng(seed);
    dense.assign(static_cast<std::size_t>(n * d), 0.0);
    for (auto& v : dense)
      if (rng.uniform() < density) v = rng.uniform() * 2.0 - 1.0;
    dense_cm.resize(dense.size());
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < d; ++j) dense_cm[static_cast<std::size_t>(j * n + i)] = at(i, j);
    dense32.assign(dense.begin(), dense.end());
    indptr.push_back(0);
    for (Index i = 0; i < n; ++i) {
      for (Index j = d - 1; j >= 0; --j)  // unsorted (descending) indices
        if (at(i, j) != 0.0) {
          values.push_back(at(i, j));
          indices.push_back(static_cast<std::int32_t>(j));
        }
      indptr.push_back(static_cast<std::int32_t>(values.size()));
    }
  }
  double at(Index i, Index j) const { return dense[static_cast<std::size_t>(i * d + j)]; }
  double kernel(const Kernel& k, Index a, Index b) const {
    double dot = 0.0, na = 0.0, nb = 0.0;
    for (Index j = 0; j < d; ++j) {
      dot += at(a, j) * at(b, j);
      na += at(a, j) * at(a, j);
      nb += at(b, j) * at(b, j);
    }
    return k.from_dot(dot, na, nb);
  }
};

// Checks every column of a source against the naive kernel, through a
// subset of rows (position t is row subset[t]).
void check_source(const KernelColumnSource& src, const Data& D, const Kernel& k,
                  const std::vector<Index>& subset, double tol) {
  const Index n = src.size();
  std::vector<Index> many, rows;
  for (Index t = 0; t < n; t += 2) many.push_back(t);
  for (Index t = 0; t < n; ++t) rows.push_back(t);
  const auto map = [&](Index t) { return subset.empty() ? t : subset[static_cast<std::size_t>(t)]; };
  // Wide blocks (GEMM / sparse loop) and one or two columns (direct dots).
  for (const std::vector<Index>& cols : {many, std::vector<Index>{1}, std::vector<Index>{n - 1, 0}}) {
    std::vector<std::vector<float>> store(cols.size(), std::vector<float>(static_cast<std::size_t>(n)));
    std::vector<float*> out;
    for (auto& s : store) out.push_back(s.data());
    src.compute(cols, rows.data(), n, out.data());
    for (std::size_t c = 0; c < cols.size(); ++c)
      for (Index t = 0; t < n; ++t) {
        const double expected = D.kernel(k, map(t), map(cols[c]));  // float storage: relative
        CHECK_CLOSE(store[c][static_cast<std::size_t>(t)], expected, tol * (1.0 + std::fabs(expected)));
      }
  }
  for (Index t = 0; t < n; ++t) CHECK_CLOSE(src.diagonal()[t], D.kernel(k, map(t), map(t)), tol);
}

}  // namespace

TEST_CASE("kernel sources: every layout and kernel agrees with a naive loop") {
  // Narrow data (sparse rows gathered densely) and wide sparse data (the
  // per-entry sparse loop).
  for (const Data& D : {Data(37, 6, 11), Data(37, 90, 12, 0.08)}) {
  const std::vector<Kernel> kernels = {{KernelType::rbf, 0.7, 0.0, 3},
                                       {KernelType::linear, 1.0, 0.0, 3},
                                       {KernelType::poly, 0.5, 1.0, 3},
                                       {KernelType::sigmoid, 0.3, -0.2, 3}};
  const std::vector<Index> subset = {5, 3, 3, 36, 0, 17, 22, 9, 11, 30, 2};
  for (const auto& k : kernels) {
    for (int jobs : {1, 2}) {
      for (const auto& sub : {std::vector<Index>{}, subset}) {
        check_source(ViewKernelSource<DenseView<double, Eigen::RowMajor>>(
                         DenseView<double, Eigen::RowMajor>(D.dense.data(), D.n, D.d), k, sub, jobs),
                     D, k, sub, 1e-6);
        check_source(ViewKernelSource<DenseView<double, Eigen::ColMajor>>(
                         DenseView<double, Eigen::ColMajor>(D.dense_cm.data(), D.n, D.d), k, sub, jobs),
                     D, k, sub, 1e-6);
        check_source(ViewKernelSource<DenseView<float, Eigen::RowMajor>>(
                         DenseView<float, Eigen::RowMajor>(D.dense32.data(), D.n, D.d), k, sub, jobs),
                     D, k, sub, 1e-5);
        using Csr = CsrView<double, std::int32_t>;
        check_source(ViewKernelSource<Csr>(Csr(D.values.data(), D.indices.data(), D.indptr.data(), D.n, D.d),
                                           k, sub, jobs),
                     D, k, sub, 1e-6);
      }
    }
  }
  }
}

TEST_CASE("kernel sources: threads split large blocks and agree with one thread") {
  Data D(3000, 40, 5);
  const Kernel k{KernelType::rbf, 0.1, 0.0, 3};
  using V = DenseView<double, Eigen::RowMajor>;
  ViewKernelSource<V> one(V(D.dense.data(), D.n, D.d), k, {}, 1), two(V(D.dense.data(), D.n, D.d), k, {}, 2);
  std::vector<Index> cols = {0, 7, 2999, 1500}, rows;
  for (Index t = 0; t < D.n; ++t) rows.push_back(t);
  std::vector<std::vector<float>> a(4, std::vector<float>(3000)), b(4, std::vector<float>(3000));
  std::vector<float*> pa, pb;
  for (int c = 0; c < 4; ++c) {
    pa.push_back(a[static_cast<std::size_t>(c)].data());
    pb.push_back(b[static_cast<std::size_t>(c)].data());
  }
  one.compute(cols, rows.data(), D.n, pa.data());
  two.compute(cols, rows.data(), D.n, pb.data());
  CHECK(a == b);
  CHECK_CLOSE(a[2][2999], 1.0, 1e-6);
}

TEST_CASE("kernel sources: precomputed matrix with a subset") {
  Data D(20, 4, 2);
  const Kernel k{KernelType::rbf, 0.5, 0.0, 3};
  std::vector<double> K(400);
  for (Index a = 0; a < 20; ++a)
    for (Index b = 0; b < 20; ++b) K[static_cast<std::size_t>(a * 20 + b)] = D.kernel(k, a, b);
  const std::vector<Index> subset = {19, 4, 4, 0, 7};
  check_source(PrecomputedKernelSource(K.data(), 20, subset), D, k, subset, 1e-6);
  check_source(PrecomputedKernelSource(K.data(), 20, {}), D, k, {}, 1e-6);
  CHECK_THROWS(PrecomputedKernelSource(K.data(), 20, {20}), std::invalid_argument);
}

namespace {

// The reference: a list of (key, complete, epoch), most recent first.
struct NaiveLru {
  struct Entry {
    Index key;
    bool complete;
    std::uint64_t epoch;
  };
  std::list<Entry> entries;
  Index capacity;
  std::uint64_t epoch = 0;
  std::int64_t hits = 0, misses = 0;

  void request(const std::vector<Index>& cols, bool full) {
    std::vector<Index> missing;
    for (Index j : cols) {
      auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == j; });
      if (it != entries.end() && (it->complete || (!full && it->epoch == epoch))) {
        Entry e = *it;
        entries.erase(it);
        entries.push_front(e);
        ++hits;
      } else {
        missing.push_back(j);
      }
    }
    for (Index j : missing) {
      auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == j; });
      if (it != entries.end()) {
        entries.erase(it);
      } else if (static_cast<Index>(entries.size()) >= capacity) {
        entries.pop_back();
      }
      entries.push_front({j, full, epoch});
      ++misses;
    }
  }
};

}  // namespace

TEST_CASE("kernel cache: replays random requests like a naive LRU simulation") {
  Data D(60, 5, 9);
  const Kernel k{KernelType::rbf, 0.8, 0.0, 3};
  using V = DenseView<double, Eigen::RowMajor>;
  ViewKernelSource<V> src(V(D.dense.data(), D.n, D.d), k, {}, 1);
  for (Index columns : {Index{4}, Index{7}, Index{13}}) {
    const double bytes = static_cast<double>(columns) * 60 * sizeof(float) + 3.0;  // not a multiple
    KernelCache cache(src, bytes, 2);
    CHECK(cache.capacity() == columns);
    NaiveLru naive;
    naive.capacity = columns;
    Random rng(static_cast<std::uint64_t>(columns));
    std::vector<Index> active;
    for (Index t = 0; t < 60; ++t) active.push_back(t);
    std::vector<const float*> out;
    for (int step = 0; step < 3000; ++step) {
      // Shrink now and then; restore everything (new epoch) less often.
      if (rng.below(50) == 0 && active.size() > 10) {
        active.erase(active.begin() + static_cast<std::ptrdiff_t>(rng.below(active.size())));
      }
      if (rng.below(400) == 0) {
        active.clear();
        for (Index t = 0; t < 60; ++t) active.push_back(t);
        cache.new_epoch();
        ++naive.epoch;
      }
      // A request of 1..4 distinct keys from a skewed distribution.
      std::vector<Index> cols;
      const Index count = 1 + static_cast<Index>(rng.below(std::min<Index>(4, columns)));
      while (static_cast<Index>(cols.size()) < count) {
        const Index j = rng.below(2) ? static_cast<Index>(rng.below(10)) : static_cast<Index>(rng.below(60));
        if (std::find(cols.begin(), cols.end(), j) == cols.end()) cols.push_back(j);
      }
      const bool full = active.size() == 60 || rng.below(5) == 0;
      cache.fetch(cols, full ? nullptr : &active, out);
      naive.request(cols, full || active.size() == 60);
      CHECK(cache.stats().hits == naive.hits);
      CHECK(cache.stats().misses == naive.misses);
      // The stored keys, and the values at the valid positions.
      for (std::size_t c = 0; c < cols.size(); ++c) {
        const std::vector<Index>& valid = full ? std::vector<Index>() : active;
        if (full) {
          for (Index t = 0; t < 60; t += 7) CHECK_CLOSE(out[c][t], D.kernel(k, t, cols[c]), 1e-6);
        } else {
          for (Index t : valid) CHECK_CLOSE(out[c][t], D.kernel(k, t, cols[c]), 1e-6);
        }
      }
      for (Index j = 0; j < 60; ++j) {
        const bool in_naive = std::any_of(naive.entries.begin(), naive.entries.end(), [&](const NaiveLru::Entry& e) {
          return e.key == j && (e.complete || e.epoch == naive.epoch);
        });
        CHECK(cache.contains(j) == in_naive);
      }
    }
    CHECK(naive.hits > 100);
    CHECK(naive.misses > 100);
  }
}

TEST_CASE("kernel cache: capacity bounds and bad sizes") {
  Data D(50, 3, 1);
  const Kernel k{KernelType::rbf, 1.0, 0.0, 3};
  using V = DenseView<double, Eigen::RowMajor>;
  ViewKernelSource<V> src(V(D.dense.data(), D.n, D.d), k, {}, 1);
  CHECK(KernelCache(src, 1.0, 6).capacity() == 6);           // one working set always fits
  CHECK(KernelCache(src, 1e9, 2).capacity() == 50);          // never more than n columns
  CHECK(KernelCache(src, 10 * 50 * 4.0, 2).capacity() == 10);
  CHECK_THROWS(KernelCache(src, 0.0, 2), std::invalid_argument);
  KernelCache small(src, 1.0, 3);
  std::vector<const float*> out;
  CHECK_THROWS(small.fetch({0, 1, 2, 3}, nullptr, out), std::invalid_argument);
}

int main() { return budgetsvm::test::run_all(); }
