// Tests of the LRU kernel cache and its column sources: values against a
// naive kernel loop in every data layout, and the cache's hits, misses and
// evictions against a naive LRU simulation replaying random request
// sequences (with shrinking-style swaps and shortened columns).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <list>
#include <vector>

#include "budgetsvm/core/random.hpp"
#include "budgetsvm/exact/kernel_cache.hpp"
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
        // Every instruction set: the vectorised per-row products and exp
        // (AVX2 and up, or wide sparse data) and the GEMM path below them.
        for (const auto level : simd::supported_levels()) {
          const simd::Kernels simd = simd::kernels_for(level);
          check_source(ViewKernelSource<DenseView<double, Eigen::RowMajor>>(
                           DenseView<double, Eigen::RowMajor>(D.dense.data(), D.n, D.d), k, sub, jobs, simd),
                       D, k, sub, 1e-6);
          check_source(ViewKernelSource<DenseView<double, Eigen::ColMajor>>(
                           DenseView<double, Eigen::ColMajor>(D.dense_cm.data(), D.n, D.d), k, sub, jobs, simd),
                       D, k, sub, 1e-6);
          check_source(ViewKernelSource<DenseView<float, Eigen::RowMajor>>(
                           DenseView<float, Eigen::RowMajor>(D.dense32.data(), D.n, D.d), k, sub, jobs, simd),
                       D, k, sub, 1e-5);
          using Csr = CsrView<double, std::int32_t>;
          check_source(ViewKernelSource<Csr>(Csr(D.values.data(), D.indices.data(), D.indptr.data(), D.n, D.d),
                                             k, sub, jobs, simd),
                       D, k, sub, 1e-6);
        }
      }
    }
  }
  }
}

TEST_CASE("kernel sources: sparse_rows only for CSR rows too sparse to gather") {
  using Csr = CsrView<double, std::int32_t>;
  const Kernel k{KernelType::rbf, 0.1, 0.0, 3};
  // 20 rows with `stored` entries each among d features
  const auto source_sparse = [&](Index d, Index stored) {
    std::vector<double> values;
    std::vector<std::int32_t> indices, indptr = {0};
    for (Index r = 0; r < 20; ++r) {
      for (Index e = 0; e < stored; ++e) {
        values.push_back(1.0 + static_cast<double>(r + e));
        indices.push_back(static_cast<std::int32_t>((r + 3 * e) % d));
      }
      std::sort(indices.end() - stored, indices.end());
      indptr.push_back(static_cast<std::int32_t>(values.size()));
    }
    return ViewKernelSource<Csr>(Csr(values.data(), indices.data(), indptr.data(), 20, d), k, {}, 1).sparse_rows();
  };
  CHECK(source_sparse(100, 5));    // over 64 features, 5% stored: per-row sparse products
  CHECK(!source_sparse(64, 5));    // 64 features or fewer: gathered
  CHECK(!source_sparse(100, 30));  // a quarter or more stored: gathered
  std::vector<double> dense(40, 0.5);
  using V = DenseView<double, Eigen::RowMajor>;
  CHECK(!ViewKernelSource<V>(V(dense.data(), 20, 2), k, {}, 1).sparse_rows());
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

TEST_CASE("kernel sources: columns at places equal the gathered columns while the order changes") {
  // compute_at_places keeps a copy of the rows in the cache's place order
  // and mends it where the order changed: every call must give the bits of
  // compute() on the same rows, for every layout, level and thread count,
  // over blocks longer than one tile chunk (256 rows) and with a subset.
  for (const Data& D : {Data(700, 40, 21), Data(700, 6, 22, 0.9)}) {
    const Kernel k{KernelType::rbf, 0.05, 0.0, 3};
    std::vector<Index> subset;
    for (Index t = 0; t < D.n; t += 2) subset.push_back(D.n - 1 - t);  // reversed, every other row
    for (const auto& sub : {std::vector<Index>{}, subset}) {
      for (const auto level : simd::supported_levels()) {
        const simd::Kernels simd = simd::kernels_for(level);
        for (int jobs : {1, 2}) {
          const auto run = [&](const KernelColumnSource& src) {
            const Index n = src.size();
            std::vector<Index> order(static_cast<std::size_t>(n));
            for (Index t = 0; t < n; ++t) order[static_cast<std::size_t>(t)] = t;
            Random rng(static_cast<std::uint64_t>(n + jobs));
            for (int call = 0; call < 12; ++call) {
              if (call == 4) rng.shuffle(order);  // a new order everywhere
              if (call > 4)                       // a few places exchanged, as shrinking does
                for (int s = 0; s < 5; ++s)
                  std::swap(order[rng.below(static_cast<std::uint64_t>(n))],
                            order[rng.below(static_cast<std::uint64_t>(n))]);
              const Index from = call % 3 == 0 ? 0 : static_cast<Index>(rng.below(static_cast<std::uint64_t>(n / 2)));
              const Index length = n - from - static_cast<Index>(rng.below(static_cast<std::uint64_t>(n / 4)));
              std::vector<Index> cols;
              const Index m = 1 + static_cast<Index>(rng.below(10));  // few columns too (direct dots)
              while (static_cast<Index>(cols.size()) < m) {
                const Index j = static_cast<Index>(rng.below(static_cast<std::uint64_t>(n)));
                if (std::find(cols.begin(), cols.end(), j) == cols.end()) cols.push_back(j);
              }
              std::vector<std::vector<float>> a(cols.size(), std::vector<float>(static_cast<std::size_t>(length)));
              std::vector<std::vector<float>> b = a;
              std::vector<float*> pa, pb;
              for (std::size_t c = 0; c < cols.size(); ++c) pa.push_back(a[c].data()), pb.push_back(b[c].data());
              src.compute_at_places(cols, order.data(), from, length, pa.data());
              src.compute(cols, order.data() + from, length, pb.data());
              CHECK(a == b);
            }
          };
          using Row = DenseView<double, Eigen::RowMajor>;
          using Col = DenseView<double, Eigen::ColMajor>;
          using Csr = CsrView<double, std::int32_t>;
          run(ViewKernelSource<Row>(Row(D.dense.data(), D.n, D.d), k, sub, jobs, simd));
          run(ViewKernelSource<Col>(Col(D.dense_cm.data(), D.n, D.d), k, sub, jobs, simd));
          run(ViewKernelSource<Csr>(Csr(D.values.data(), D.indices.data(), D.indptr.data(), D.n, D.d), k, sub, jobs,
                                    simd));
        }
      }
    }
  }
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

// The reference: a list of (key, valid length, allocated length, values in
// place order), most recent first, with the cache's rules written plainly:
// requested columns move to the front, a column shorter than the request is
// a miss and is extended, least recently used columns are evicted while
// the stored values would exceed the budget, and a swap of places a < b
// exchanges the entries of every column that covers b and cuts back to a
// the columns that cover a only.
struct NaiveLru {
  struct Entry {
    Index key, length, allocated;
    std::vector<float> values;
  };
  std::list<Entry> entries;
  std::vector<Index> order;
  Index budget;
  std::int64_t hits = 0, misses = 0;

  Index used() const {
    Index u = 0;
    for (const auto& e : entries) u += e.allocated;
    return u;
  }
  Entry* find(Index j) {
    for (auto& e : entries)
      if (e.key == j) return &e;
    return nullptr;
  }
  template <class KernelOf>
  void request(const std::vector<Index>& cols, Index length, KernelOf&& kernel) {
    std::vector<Index> missing;
    Index need = 0;
    for (Index j : cols) {
      auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == j; });
      if (it != entries.end()) {
        entries.splice(entries.begin(), entries, it);
        if (it->length >= length) {
          ++hits;
          continue;
        }
        need += std::max<Index>(0, length - it->allocated);
      } else {
        need += length;
      }
      missing.push_back(j);
    }
    if (missing.empty()) return;
    misses += static_cast<std::int64_t>(missing.size());
    while (used() + need > budget && !entries.empty() &&
           std::find(cols.begin(), cols.end(), entries.back().key) == cols.end())
      entries.pop_back();
    for (Index j : missing) {
      Entry* e = find(j);
      if (!e) {
        entries.push_front({j, 0, 0, {}});
        e = &entries.front();
      }
      e->allocated = std::max(e->allocated, length);
      e->values.resize(static_cast<std::size_t>(e->allocated));
      for (Index k = e->length; k < length; ++k)
        e->values[static_cast<std::size_t>(k)] = static_cast<float>(kernel(order[static_cast<std::size_t>(k)], j));
      e->length = length;
    }
  }
  void swap(Index a, Index b) {
    std::swap(order[static_cast<std::size_t>(a)], order[static_cast<std::size_t>(b)]);
    for (auto& e : entries) {
      if (e.length <= a) continue;
      if (e.length > b) std::swap(e.values[static_cast<std::size_t>(a)], e.values[static_cast<std::size_t>(b)]);
      else e.length = a;
    }
  }
};

}  // namespace

TEST_CASE("kernel cache: replays random requests and swaps like a naive LRU simulation") {
  const Index n = 60;
  Data D(n, 5, 9);
  const Kernel k{KernelType::rbf, 0.8, 0.0, 3};
  const auto kernel = [&](Index a, Index b) { return D.kernel(k, a, b); };
  using V = DenseView<double, Eigen::RowMajor>;
  ViewKernelSource<V> src(V(D.dense.data(), D.n, D.d), k, {}, 1);
  for (Index columns : {Index{4}, Index{7}, Index{13}}) {
    const double bytes = static_cast<double>(columns) * n * sizeof(float) + 3.0;  // not a multiple
    KernelCache cache(src, bytes, 2);
    CHECK(cache.capacity() == columns);
    CHECK(cache.max_values() == columns * n);
    NaiveLru naive;
    naive.budget = columns * n;
    for (Index t = 0; t < n; ++t) naive.order.push_back(t);
    Random rng(static_cast<std::uint64_t>(columns));
    Index active = n;  // places 0..active-1 are "active"
    std::vector<const float*> out;
    std::int64_t cut = 0, extended = 0;
    for (int step = 0; step < 3000; ++step) {
      // Shrink now and then (swaps of an active place with the last
      // active one, as DualState::shrink); restore everything less often.
      if (rng.below(40) == 0 && active > 10) {
        std::vector<std::pair<Index, Index>> swaps;
        const Index drops = 1 + static_cast<Index>(rng.below(4));
        for (Index d = 0; d < drops; ++d) {
          const Index a = static_cast<Index>(rng.below(static_cast<std::uint64_t>(active)));
          --active;
          if (a < active) swaps.emplace_back(a, active);
        }
        std::sort(swaps.begin(), swaps.end());  // a < b, a increasing, as shrinking makes them
        swaps.erase(std::unique(swaps.begin(), swaps.end(), [](const auto& x, const auto& y) {
                      return x.first == y.first || x.second == y.second;
                    }), swaps.end());
        for (const auto& [a, b] : swaps) naive.swap(a, b);
        cache.swap_places(swaps, 1 + static_cast<int>(rng.below(2)));  // 1 or 2 threads: the same places
      }
      if (rng.below(300) == 0) active = n;
      // A request of 1..4 distinct keys from a skewed distribution, of the
      // active length (sometimes complete, as for G_bar).
      std::vector<Index> cols;
      const Index count = 1 + static_cast<Index>(rng.below(static_cast<std::uint64_t>(std::min<Index>(4, columns))));
      while (static_cast<Index>(cols.size()) < count) {
        const Index j = rng.below(2) ? static_cast<Index>(rng.below(10)) : static_cast<Index>(rng.below(60));
        if (std::find(cols.begin(), cols.end(), j) == cols.end()) cols.push_back(j);
      }
      const Index length = rng.below(5) == 0 ? n : active;
      for (Index j : cols) {
        const Index had = cache.stored_length(j);
        if (had > 0 && had < length) ++extended;
      }
      cache.fetch(cols, length, out);
      naive.request(cols, length, kernel);
      CHECK(cache.stats().hits == naive.hits);
      CHECK(cache.stats().misses == naive.misses);
      CHECK(cache.order() == naive.order);
      CHECK(cache.stored() == naive.used());
      CHECK(cache.stored() <= cache.max_values());
      // The values at the valid places, against the kernel itself.
      for (std::size_t c = 0; c < cols.size(); ++c)
        for (Index p = 0; p < length; ++p) {
          const Index t = cache.order()[static_cast<std::size_t>(p)];
          CHECK(cache.where(t) == p);
          CHECK_CLOSE(out[c][p], kernel(t, cols[c]), 1e-6);
        }
      for (Index j = 0; j < n; ++j) {
        const NaiveLru::Entry* e = naive.find(j);
        CHECK(cache.stored_length(j) == (e ? e->length : 0));
        if (e && e->length < e->allocated) ++cut;
        if (e && e->length > 0) {
          const float* col = cache.peek(j, e->length);
          CHECK(col != nullptr);
          for (Index p = 0; p < e->length; ++p) CHECK_CLOSE(col[p], e->values[static_cast<std::size_t>(p)], 1e-6);
          CHECK(cache.peek(j, e->length + 1) == nullptr || e->length == n);
        }
      }
    }
    CHECK(naive.hits > 100);
    CHECK(naive.misses > 100);
    CHECK(extended > 10);  // the extension of shortened columns was exercised
  }
}

TEST_CASE("kernel cache: shortened columns let more columns fit") {
  Data D(50, 3, 1);
  const Kernel k{KernelType::rbf, 1.0, 0.0, 3};
  using V = DenseView<double, Eigen::RowMajor>;
  ViewKernelSource<V> src(V(D.dense.data(), D.n, D.d), k, {}, 1);
  KernelCache cache(src, 4 * 50 * sizeof(float), 2);  // four complete columns
  std::vector<const float*> out;
  for (Index j = 0; j < 20; ++j) cache.fetch({j}, 10, out);  // 20 columns of 10 entries
  for (Index j = 0; j < 20; ++j) CHECK(cache.stored_length(j) == 10);
  CHECK(cache.stats().misses == 20);
  // Extending one to full length computes the tail only and evicts the
  // least recently used ones to stay within the budget.
  const double before = cache.stats().kernel_evaluations;
  cache.fetch({19}, 50, out);
  CHECK(cache.stats().kernel_evaluations - before == 40.0);
  for (Index p = 0; p < 50; ++p) CHECK_CLOSE(out[0][p], D.kernel(k, p, 19), 1e-6);
  CHECK(cache.stored() <= cache.max_values());
  CHECK(cache.stored_length(0) == 0);
  CHECK(cache.stored_length(18) == 10);
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
  CHECK_THROWS(small.fetch({0, 1, 2, 3}, 50, out), std::invalid_argument);
  CHECK_THROWS(small.fetch({0}, 51, out), std::invalid_argument);
  CHECK_THROWS(small.swap_places({{3, 3}}), std::invalid_argument);
}

int main() { return budgetsvm::test::run_all(); }
