// Tests of the shared core: random numbers, data views, kernels, run control.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "budgetsvm/budget/model.hpp"

#include "budgetsvm/core/centre.hpp"
#include "budgetsvm/core/control.hpp"
#include "budgetsvm/core/data_view.hpp"
#include "budgetsvm/core/kernel.hpp"
#include "budgetsvm/core/kernel_options.hpp"
#include "budgetsvm/core/random.hpp"
#include "budgetsvm/core/simd_float.hpp"
#include "check.hpp"

using namespace budgetsvm;

namespace {

// A small matrix with zeros, stored in all the layouts the core reads.
struct Layouts {
  Index n = 7, d = 5;
  std::vector<double> dense_rm;  // row-major
  std::vector<double> dense_cm;  // column-major
  std::vector<float> dense_rm32;
  std::vector<double> values;
  std::vector<std::int64_t> indices64, indptr64;
  std::vector<std::int32_t> indices32, indptr32;
  std::vector<float> values32;

  explicit Layouts(std::uint64_t seed) {
    Random rng(seed);
    dense_rm.assign(static_cast<std::size_t>(n * d), 0.0);
    for (auto& v : dense_rm)
      if (rng.uniform() < 0.6) v = rng.uniform() * 4.0 - 2.0;
    dense_cm.resize(dense_rm.size());
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < d; ++j) dense_cm[j * n + i] = dense_rm[i * d + j];
    dense_rm32.assign(dense_rm.begin(), dense_rm.end());
    indptr64.push_back(0);
    for (Index i = 0; i < n; ++i) {
      // Store each row's entries in reverse column order: views must not
      // depend on sorted indices.
      for (Index j = d - 1; j >= 0; --j)
        if (dense_rm[i * d + j] != 0.0) {
          values.push_back(dense_rm[i * d + j]);
          indices64.push_back(j);
        }
      indptr64.push_back(static_cast<std::int64_t>(values.size()));
    }
    indices32.assign(indices64.begin(), indices64.end());
    indptr32.assign(indptr64.begin(), indptr64.end());
    values32.assign(values.begin(), values.end());
  }
  double at(Index i, Index j) const { return dense_rm[static_cast<std::size_t>(i * d + j)]; }
};

template <class View>
void check_view(const View& X, const Layouts& L, double tol) {
  CHECK(X.rows() == L.n);
  CHECK(X.cols() == L.d);
  std::vector<double> w(static_cast<std::size_t>(L.d)), row(static_cast<std::size_t>(L.d));
  for (Index j = 0; j < L.d; ++j) w[static_cast<std::size_t>(j)] = 0.5 * static_cast<double>(j) - 1.0;
  for (Index i = 0; i < L.n; ++i) {
    double dot = 0.0, norm = 0.0;
    for (Index j = 0; j < L.d; ++j) {
      dot += L.at(i, j) * w[static_cast<std::size_t>(j)];
      norm += L.at(i, j) * L.at(i, j);
    }
    CHECK_CLOSE(X.dot(i, w.data()), dot, tol);
    CHECK_CLOSE(X.squared_norm(i), norm, tol);
    X.copy_row(i, row.data());
    for (Index j = 0; j < L.d; ++j) CHECK_CLOSE(row[static_cast<std::size_t>(j)], L.at(i, j), tol);
    std::vector<double> acc(static_cast<std::size_t>(L.d), 1.0);
    X.axpy(2.0, i, acc.data());
    for (Index j = 0; j < L.d; ++j) CHECK_CLOSE(acc[static_cast<std::size_t>(j)], 1.0 + 2.0 * L.at(i, j), 2 * tol);
    double visited = 0.0;
    X.for_each(i, [&](Index j, double v) { visited += v * w[static_cast<std::size_t>(j)]; });
    CHECK_CLOSE(visited, dot, tol);
  }
}

/// The tests' reference: the dot product and the squared distance of
/// a[k * a_step] and b[k * b_step], k < d, in double.
template <class A, class B>
std::pair<double, double> dot_and_distance(const A* a, Index a_step, const B* b, Index b_step, Index d) {
  double dot = 0.0, dist = 0.0;
  for (Index k = 0; k < d; ++k) {
    const double u = a[k * a_step], v = b[k * b_step];
    dot += u * v;
    dist += (u - v) * (u - v);
  }
  return {dot, dist};
}

}  // namespace

TEST_CASE("random: same sequence for the same seed, bounded, unbiased enough") {
  Random a(42), b(42), c(43);
  bool differs = false;
  for (int k = 0; k < 100; ++k) {
    const auto x = a.next();
    CHECK(x == b.next());
    differs = differs || (x != c.next());
  }
  CHECK(differs);
  std::vector<int> counts(7, 0);
  for (int k = 0; k < 70000; ++k) {
    const auto v = a.below(7);
    CHECK(v < 7);
    ++counts[static_cast<std::size_t>(v)];
  }
  for (int count : counts) CHECK(count > 9500 && count < 10500);
  for (int k = 0; k < 1000; ++k) {
    const double u = a.uniform();
    CHECK(u >= 0.0 && u < 1.0);
  }
  CHECK(a.below(1) == 0);
  // Values near 2^64 exercise the 128-bit product.
  const std::uint64_t big = (std::uint64_t{1} << 63) + 12345;
  for (int k = 0; k < 1000; ++k) CHECK(a.below(big) < big);
}

TEST_CASE("random: shuffle is a permutation and reproducible") {
  std::vector<int> v(100), w;
  for (int i = 0; i < 100; ++i) v[static_cast<std::size_t>(i)] = i;
  w = v;
  Random r1(7), r2(7);
  r1.shuffle(v);
  r2.shuffle(w);
  CHECK(v == w);
  std::set<int> seen(v.begin(), v.end());
  CHECK(seen.size() == 100);
  CHECK(!std::is_sorted(v.begin(), v.end()));
}

TEST_CASE("data views: every layout agrees with a naive dense loop") {
  Layouts L(3);
  check_view(DenseView<double, Eigen::RowMajor>(L.dense_rm.data(), L.n, L.d), L, 1e-12);
  check_view(DenseView<double, Eigen::ColMajor>(L.dense_cm.data(), L.n, L.d), L, 1e-12);
  check_view(DenseView<float, Eigen::RowMajor>(L.dense_rm32.data(), L.n, L.d), L, 1e-5);
  check_view(CsrView<double, std::int64_t>(L.values.data(), L.indices64.data(), L.indptr64.data(), L.n, L.d), L, 1e-12);
  check_view(CsrView<double, std::int32_t>(L.values.data(), L.indices32.data(), L.indptr32.data(), L.n, L.d), L, 1e-12);
  check_view(CsrView<float, std::int32_t>(L.values32.data(), L.indices32.data(), L.indptr32.data(), L.n, L.d), L, 1e-5);
}

TEST_CASE("data views: entry moments count implicit zeros") {
  Layouts L(5);
  double sum = 0.0, squares = 0.0;
  for (double v : L.dense_rm) {
    sum += v;
    squares += v * v;
  }
  const auto dense = entry_moments(DenseView<double, Eigen::ColMajor>(L.dense_cm.data(), L.n, L.d));
  const auto sparse = entry_moments(CsrView<double, std::int32_t>(L.values.data(), L.indices32.data(), L.indptr32.data(), L.n, L.d));
  for (const auto& m : {dense, sparse}) {
    CHECK_CLOSE(m.sum, sum, 1e-12);
    CHECK_CLOSE(m.sum_of_squares, squares, 1e-12);
    CHECK_CLOSE(m.count, static_cast<double>(L.n * L.d), 0.0);
    const double mean = sum / static_cast<double>(L.n * L.d);
    double centred = 0.0;
    for (double v : L.dense_rm) centred += (v - mean) * (v - mean);
    CHECK_CLOSE(m.centred_sum_of_squares, centred, 1e-12);
  }
}

TEST_CASE("data views: the variance of features offset by 1e8 does not cancel") {
  // x = 1e8 + {0, 1, 2, 3}: variance 1.25 (E[x^2] - E[x]^2 gives 0 or garbage)
  const std::vector<double> x = {1e8, 1e8 + 1, 1e8 + 2, 1e8 + 3};
  const auto m = entry_moments(DenseView<double, Eigen::RowMajor>(x.data(), 4, 1));
  CHECK_CLOSE(m.variance(), 1.25, 1e-9);
}

TEST_CASE("data views: the largest squared row norm, in every layout, past a block of rows, overflow and NaN") {
  // 2,500 rows (three blocks of the dense pass) against a naive loop, with
  // the largest row moved into each block in turn; then a row that overflows
  // (inf), a NaN (sticks, wherever it is) and no rows (0).
  const Index n = 2500, d = 3;
  Random rng(11);
  std::vector<double> rm(static_cast<std::size_t>(n * d));
  for (auto& v : rm) v = rng.uniform() * 2.0 - 1.0;
  const auto largest_of = [&](const std::vector<double>& x) {
    std::vector<double> cm(x.size());
    std::vector<float> rm32(x.begin(), x.end());
    std::vector<double> values;
    std::vector<std::int64_t> indices, indptr{0};
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < d; ++j) {
        cm[static_cast<std::size_t>(j * n + i)] = x[static_cast<std::size_t>(i * d + j)];
        if (j != 1) {  // column 1 is not stored: an implicit zero
          values.push_back(x[static_cast<std::size_t>(i * d + j)]);
          indices.push_back(j);
        }
      }
      indptr.push_back(static_cast<std::int64_t>(values.size()));
    }
    return std::vector<double>{
        largest_squared_row_norm(DenseView<double, Eigen::RowMajor>(x.data(), n, d)),
        largest_squared_row_norm(DenseView<double, Eigen::ColMajor>(cm.data(), n, d)),
        largest_squared_row_norm(DenseView<float, Eigen::RowMajor>(rm32.data(), n, d)),
        largest_squared_row_norm(CsrView<double, std::int64_t>(values.data(), indices.data(), indptr.data(), n, d))};
  };
  for (const Index big : {Index{0}, Index{1023}, Index{1024}, Index{2499}}) {
    auto x = rm;
    for (Index j = 0; j < d; ++j) x[static_cast<std::size_t>(big * d + j)] = 3.0 + static_cast<double>(j);
    double dense = 0.0, sparse = 0.0;
    for (Index i = 0; i < n; ++i) {
      double s = 0.0, s_stored = 0.0;
      for (Index j = 0; j < d; ++j) {
        const double v = x[static_cast<std::size_t>(i * d + j)];
        s += v * v;
        if (j != 1) s_stored += v * v;
      }
      dense = std::max(dense, s);
      sparse = std::max(sparse, s_stored);
    }
    const auto got = largest_of(x);
    CHECK_CLOSE(got[0], dense, 1e-12);
    CHECK_CLOSE(got[1], dense, 1e-12);
    CHECK_CLOSE(got[2], dense, 1e-5);
    CHECK_CLOSE(got[3], sparse, 1e-12);
  }
  auto x = rm;
  x[3 * d] = 1e200;
  for (double v : largest_of(x)) CHECK(std::isinf(v));
  x = rm;
  x[1500 * d] = std::numeric_limits<double>::quiet_NaN();
  x[2400 * d] = 5.0;  // a larger row after the NaN does not hide it
  for (double v : largest_of(x)) CHECK(std::isnan(v));
  CHECK(largest_squared_row_norm(DenseView<double, Eigen::RowMajor>(rm.data(), 0, d)) == 0.0);
}

template <class T>
void check_all_finite_values() {
  // Every position of a block boundary and every kind of non-finite value,
  // against std::isfinite; largest finite values and subnormals are finite.
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> x(9000);
  for (std::size_t k = 0; k < x.size(); ++k)
    x[k] = static_cast<T>(k % 3 == 0 ? std::numeric_limits<T>::max() : k % 3 == 1 ? -std::numeric_limits<T>::denorm_min()
                                                                                 : static_cast<T>(k) - 4500);
  CHECK(all_finite_values(x.data(), x.size()));
  CHECK(all_finite_values(x.data(), 0));
  for (const std::size_t at : {std::size_t{0}, std::size_t{4095}, std::size_t{4096}, std::size_t{8999}})
    for (const T bad : {inf, -inf, nan, -nan}) {
      const T keep = x[at];
      x[at] = bad;
      CHECK(!all_finite_values(x.data(), x.size()));
      CHECK(all_finite_values(x.data(), at));  // the values before it
      x[at] = keep;
    }
}

TEST_CASE("data views: all_finite_values finds NaN and infinities anywhere, float and double") {
  check_all_finite_values<float>();
  check_all_finite_values<double>();
}

TEST_CASE("kernels: blocked kernel_matrix equals pointwise k(x, z) for every kernel and layout") {
  Layouts L(11), M(12);
  const DenseView<double, Eigen::RowMajor> X(L.dense_rm.data(), L.n, L.d);
  const CsrView<double, std::int32_t> Xs(L.values.data(), L.indices32.data(), L.indptr32.data(), L.n, L.d);
  const DenseView<double, Eigen::ColMajor> Z(M.dense_cm.data(), M.n, M.d);
  const CsrView<float, std::int64_t> Zs(M.values32.data(), M.indices64.data(), M.indptr64.data(), M.n, M.d);
  for (KernelType type : {KernelType::linear, KernelType::rbf, KernelType::poly, KernelType::sigmoid}) {
    Kernel k{type, 0.7, 0.3, 3};
    MatrixXd K1(L.n, M.n), K2(L.n, M.n), K3(L.n, M.n);
    kernel_matrix(k, X, Z, K1);
    kernel_matrix(k, Xs, Z, K2);
    kernel_matrix(k, X, Zs, K3);
    for (Index i = 0; i < L.n; ++i)
      for (Index j = 0; j < M.n; ++j) {
        double dot = 0.0, dist = 0.0;
        for (Index f = 0; f < L.d; ++f) {
          dot += L.at(i, f) * M.at(j, f);
          dist += (L.at(i, f) - M.at(j, f)) * (L.at(i, f) - M.at(j, f));
        }
        double expected = dot;
        if (type == KernelType::rbf) expected = std::exp(-0.7 * dist);
        if (type == KernelType::poly) expected = std::pow(0.7 * dot + 0.3, 3);
        if (type == KernelType::sigmoid) expected = std::tanh(0.7 * dot + 0.3);
        CHECK_CLOSE(K1(i, j), expected, 1e-12);
        CHECK_CLOSE(K2(i, j), expected, 1e-12);
        CHECK_CLOSE(K3(i, j), expected, 1e-5);  // Zs holds float32 values
      }
  }
}

TEST_CASE("kernels: bad parameters are rejected") {
  CHECK_THROWS(from_name(kernel_names(), "gauss", "kernel"), std::invalid_argument);
  CHECK_THROWS((Kernel{KernelType::rbf, 0.0, 0.0, 3}.validate()), std::invalid_argument);
  CHECK_THROWS((Kernel{KernelType::rbf, -1.0, 0.0, 3}.validate()), std::invalid_argument);
  CHECK_THROWS((Kernel{KernelType::poly, 1.0, 0.0, -1}.validate()), std::invalid_argument);
}

TEST_CASE("run control: polls the stop check and throws Interrupted") {
  int asked = 0;
  RunControl control([&] { return ++asked >= 2; }, 0.0);
  control.poll_now();
  CHECK(asked == 1);
  CHECK_THROWS(control.poll_now(), Interrupted);
  RunControl never;
  for (int k = 0; k < 10000; ++k) never.poll();
}

namespace {

// n x d points offset by `offset` in features 0 and 2 (spread ~1), as
// float32 values and the same values in double; sparse: every third entry of
// features 1 and 3 is left out.
struct Offset {
  Index n = 40, d = 4;
  std::vector<float> x32;
  std::vector<double> x64;
  std::vector<double> values;
  std::vector<std::int32_t> indices, indptr;
  Offset(double offset, std::uint64_t seed) {
    Random rng(seed);
    for (Index i = 0; i < n * d; ++i) {
      const bool shifted = (i % d) % 2 == 0;
      x32.push_back(static_cast<float>((shifted ? offset : 0.0) + rng.uniform() * 2.0 - 1.0));
    }
    x64.assign(x32.begin(), x32.end());
    indptr.push_back(0);
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < d; ++j)
        if (j % 2 == 0 || (i + j) % 3 != 0) {
          values.push_back(x64[static_cast<std::size_t>(i * d + j)]);
          indices.push_back(static_cast<std::int32_t>(j));
        } else {
          x64[static_cast<std::size_t>(i * d + j)] = 0.0;
          x32[static_cast<std::size_t>(i * d + j)] = 0.0f;
        }
      indptr.push_back(static_cast<std::int32_t>(values.size()));
    }
  }
  double dist(Index i, Index j) const {  // ||x_i - x_j||^2 by differences
    double s = 0.0;
    for (Index k = 0; k < d; ++k) {
      const double u = x64[static_cast<std::size_t>(i * d + k)] - x64[static_cast<std::size_t>(j * d + k)];
      s += u * u;
    }
    return s;
  }
};

}  // namespace

TEST_CASE("centre: shifts only the features whose mean exceeds their spread") {
  const Offset P(1e6, 3);
  const DenseView<double, Eigen::RowMajor> X(P.x64.data(), P.n, P.d);
  const Centre c = choose_centre(X);
  CHECK(c.features == std::vector<Index>({0, 2}));
  CHECK(c.far);
  CHECK_CLOSE(c.point[0], 1e6, 1.0);
  CHECK(c.point[1] == 0.0 && c.point[3] == 0.0);
  // No offset: no centre, and the norms are the view's own.
  const Offset Q(0.0, 4);
  const DenseView<double, Eigen::RowMajor> Y(Q.x64.data(), Q.n, Q.d);
  CHECK(!choose_centre(Y).active());
  // Centred norms of dense and sparse rows against explicit differences.
  const CsrView<double, std::int32_t> S(P.values.data(), P.indices.data(), P.indptr.data(), P.n, P.d);
  std::vector<char> mark;
  for (Index i = 0; i < P.n; ++i) {
    double expected = 0.0;
    for (Index k = 0; k < P.d; ++k) {
      const double u = P.x64[static_cast<std::size_t>(i * P.d + k)] - c.point[k];
      expected += u * u;
    }
    CHECK_CLOSE(centred_squared_norm(X, i, c, mark), expected, 1e-9);
    CHECK_CLOSE(centred_squared_norm(S, i, c, mark), expected, 1e-9);
  }
}

TEST_CASE("kernels: rbf at offsets 1e6 (float32) and 1e8 (double) matches distances by differences") {
  for (double offset : {1e3, 1e6, 1e8}) {
    const Offset P(offset, 5);
    const Kernel k{KernelType::rbf, 0.5, 0.0, 3};
    const DenseView<double, Eigen::RowMajor> X(P.x64.data(), P.n, P.d);
    const DenseView<float, Eigen::RowMajor> X32(P.x32.data(), P.n, P.d);
    const CsrView<double, std::int32_t> S(P.values.data(), P.indices.data(), P.indptr.data(), P.n, P.d);
    MatrixXd K64(P.n, P.n), K32(P.n, P.n), KS(P.n, P.n);
    kernel_matrix(k, X, X, K64);
    kernel_matrix(k, X32, X, K32);
    kernel_matrix(k, S, X32, KS);
    const double tol = offset > 1e6 ? 1e-6 : 1e-9;
    for (Index i = 0; i < P.n; ++i)
      for (Index j = 0; j < P.n; ++j) {
        const double expected = std::exp(-0.5 * P.dist(i, j));
        CHECK_CLOSE(K64(i, j), expected, tol);
        CHECK_CLOSE(K32(i, j), expected, tol);
        CHECK_CLOSE(KS(i, j), expected, tol);
      }
    // Decision values: the float32 view of the support vectors, 1 or 2 threads.
    MatrixXd coef = MatrixXd::Ones(P.n, 1), f32(P.n, 1), f64(P.n, 1), expected = K64.transpose() * coef;
    kernel_expansion(k, X, X32, coef, f32, 2);
    kernel_expansion(k, X, S, coef, f64, 1);
    for (Index i = 0; i < P.n; ++i) {
      CHECK_CLOSE(f32(i, 0), expected(i, 0), 1e-6 * P.n);
      CHECK_CLOSE(f64(i, 0), expected(i, 0), 1e-6 * P.n);
    }
  }
}

TEST_CASE("kernel_expansion: both paths equal the pointwise sum; the same bits for every thread count") {
  // Sizes off every block multiple (rows of 4 and 64, tiles of 256); d = 5000
  // takes the general path (densely too wide), d = 7 the fused one.
  for (Index d : {Index{7}, Index{5000}}) {
    const Index n = 203, m = 300, classes = 3;
    Random rng(11);
    std::vector<double> X(static_cast<std::size_t>(n * d)), S(static_cast<std::size_t>(m * d));
    for (auto& v : X) v = rng.uniform() < 0.3 || d < 100 ? 10.0 + rng.uniform() : 0.0;
    for (auto& v : S) v = rng.uniform() < 0.3 || d < 100 ? 10.0 + rng.uniform() : 0.0;
    MatrixXd coef(m, classes);
    for (Index j = 0; j < m; ++j)
      for (Index c = 0; c < classes; ++c) coef(j, c) = rng.uniform() - 0.5;
    const DenseView<double, Eigen::RowMajor> Xv(X.data(), n, d), Sv(S.data(), m, d);
    for (KernelType type : {KernelType::rbf, KernelType::linear, KernelType::poly, KernelType::sigmoid}) {
      const Kernel k{type, 1.0 / static_cast<double>(10 * d), 0.1, 2};
      MatrixXd one(n, classes), three(n, classes);
      kernel_expansion(k, Xv, Sv, coef, one, 1);
      kernel_expansion(k, Xv, Sv, coef, three, 3);
      CHECK(one == three);
      for (Index i = 0; i < n; i += 17)
        for (Index c = 0; c < classes; ++c) {
          double expected = 0.0, scale = 0.0;
          for (Index j = 0; j < m; ++j) {
            const auto [dot, dist] = dot_and_distance(X.data() + i * d, 1, S.data() + j * d, 1, d);
            const double kv = type == KernelType::rbf      ? std::exp(-k.gamma * dist)
                              : type == KernelType::linear ? dot
                              : type == KernelType::poly   ? std::pow(k.gamma * dot + k.coef0, k.degree)
                                                           : std::tanh(k.gamma * dot + k.coef0);
            expected += kv * coef(j, c);
            scale += std::abs(kv * coef(j, c));
          }
          CHECK_CLOSE(one(i, c), expected, 1e-12 * scale + 1e-300);
        }
    }
  }
}

TEST_CASE("kernel_expansion: sparse query rows read as stored entries, shifted, match the dense rows") {
  // 8% density plus one offset feature (3) that most rows store and the
  // centre shifts: rows without it gain -c_3, rows with it store x_3 - c_3.
  const Index n = 203, m = 300, d = 40, classes = 3;
  Random rng(12);
  auto value = [&](Index k) { return k == 3 ? (rng.uniform() < 0.95 ? 5.0 + rng.uniform() : 0.0)
                                            : (rng.uniform() < 0.08 ? rng.uniform() - 0.5 : 0.0); };
  std::vector<double> X(static_cast<std::size_t>(n * d)), S(static_cast<std::size_t>(m * d)), values;
  std::vector<std::int32_t> indices, indptr{0};
  for (Index i = 0; i < n; ++i) {
    for (Index k = 0; k < d; ++k) {
      const double v = value(k);
      X[static_cast<std::size_t>(i * d + k)] = v;
      if (v != 0.0) values.push_back(v), indices.push_back(static_cast<std::int32_t>(k));
    }
    indptr.push_back(static_cast<std::int32_t>(values.size()));
  }
  for (Index j = 0; j < m; ++j)
    for (Index k = 0; k < d; ++k) S[static_cast<std::size_t>(j * d + k)] = value(k);
  MatrixXd coef(m, classes);
  for (Index j = 0; j < m; ++j)
    for (Index c = 0; c < classes; ++c) coef(j, c) = rng.uniform() - 0.5;
  const CsrView<double, std::int32_t> Xs(values.data(), indices.data(), indptr.data(), n, d);
  const DenseView<double, Eigen::RowMajor> Xd(X.data(), n, d), Sv(S.data(), m, d);
  const Centre centre = choose_centre(Sv);
  CHECK(centre.features == std::vector<Index>({3}));
  CHECK(detail::sparse_rows_pay(Xs, centre));
  // The same matrix stored densely in CSR does not pay: the densified path.
  std::vector<double> all_values(X);
  std::vector<std::int32_t> all_indices, all_indptr{0};
  for (Index i = 0; i < n; ++i) {
    for (Index k = 0; k < d; ++k) all_indices.push_back(static_cast<std::int32_t>(k));
    all_indptr.push_back(static_cast<std::int32_t>((i + 1) * d));
  }
  CHECK(!detail::sparse_rows_pay(CsrView<double, std::int32_t>(all_values.data(), all_indices.data(),
                                                               all_indptr.data(), n, d), centre));
  for (KernelType type : {KernelType::rbf, KernelType::linear, KernelType::poly, KernelType::sigmoid}) {
    const Kernel k{type, 0.05, 0.1, 2};
    MatrixXd sparse1(n, classes), sparse3(n, classes), dense(n, classes);
    kernel_expansion(k, Xs, Sv, coef, sparse1, 1);
    kernel_expansion(k, Xs, Sv, coef, sparse3, 3);
    kernel_expansion(k, Xd, Sv, coef, dense, 1);
    CHECK(sparse1 == sparse3);
    for (Index i = 0; i < n; ++i)
      for (Index c = 0; c < classes; ++c) {
        double scale = 0.0;
        for (Index j = 0; j < m; ++j) scale += std::abs(coef(j, c));
        CHECK_CLOSE(sparse1(i, c), dense(i, c), 1e-12 * scale);
      }
    // kernel_matrix reads the same rows the same way.
    MatrixXd Ks(n, m), Ks3(n, m), Kd(n, m);
    kernel_matrix(k, Xs, Sv, Ks, 1);
    kernel_matrix(k, Xs, Sv, Ks3, 3);
    kernel_matrix(k, Xd, Sv, Kd, 1);
    CHECK(Ks == Ks3);
    CHECK((Ks - Kd).cwiseAbs().maxCoeff() <= 1e-12 * std::max(1.0, Kd.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("float kernels: every level's dots and Gaussian values match double arithmetic") {
  const Index d = 13, rows = 7, B = 75;  // off the 4-row groups and the 16/32-column tiles
  Random rng(5);
  std::vector<float> X(static_cast<std::size_t>(rows * d)), Zt(static_cast<std::size_t>(d * B));
  for (auto& v : X) v = static_cast<float>(rng.uniform() * 2.0 - 1.0);
  for (auto& v : Zt) v = static_cast<float>(rng.uniform() * 2.0 - 1.0);
  std::vector<const float*> x;
  for (Index r = 0; r < rows; ++r) x.push_back(X.data() + r * d);
  // The Gaussian's parts as expansion.hpp scales them: g = gamma log2(e),
  // dots with 2 g z, -g |z|^2 per support vector, -g |x|^2 per row.
  const double gamma = 0.3, g = gamma * 1.4426950408889634;
  std::vector<float> zpart(static_cast<std::size_t>(B));
  for (Index j = 0; j < B; ++j) {
    double s = 0.0;
    for (Index k = 0; k < d; ++k) s += static_cast<double>(Zt[static_cast<std::size_t>(k * B + j)]) * Zt[static_cast<std::size_t>(k * B + j)];
    zpart[static_cast<std::size_t>(j)] = static_cast<float>(-g * s);
  }
  for (auto level : simd::supported_levels()) {
    const auto fk = simd::float_kernels_for(level);
    std::vector<float> G(static_cast<std::size_t>(rows * (B + 3)), -7.0f), K(static_cast<std::size_t>(B)), acc(K.size());
    fk.dense_dots(x.data(), rows, d, Zt.data(), B, B, G.data(), B + 3);
    for (Index r = 0; r < rows; ++r) {
      double xn = 0.0;
      for (Index k = 0; k < d; ++k) xn += static_cast<double>(X[static_cast<std::size_t>(r * d + k)]) * X[static_cast<std::size_t>(r * d + k)];
      const float* dots = G.data() + r * (B + 3);
      CHECK(dots[B] == -7.0f && dots[B + 2] == -7.0f);  // the padding is left alone
      for (Index j = 0; j < B; ++j) acc[static_cast<std::size_t>(j)] = static_cast<float>(2.0 * g * dots[j]);
      const auto xpart = static_cast<float>(-g * xn);
      fk.rbf_from_parts(acc.data(), zpart.data(), xpart, B, K.data());
      for (Index j = 0; j < B; ++j) {
        const auto [dot, dist] = dot_and_distance(X.data() + r * d, 1, Zt.data() + j, B, d);
        CHECK_CLOSE(dots[j], dot, 1e-5);
        CHECK_CLOSE(K[static_cast<std::size_t>(j)], std::exp(-gamma * dist), 1e-5);
      }
      // rbf_dot_parts: the same kernel values against coefficients, every
      // length (the tails of the 8- and 16-lane loops)
      std::vector<float> coef(static_cast<std::size_t>(B));
      for (Index j = 0; j < B; ++j) coef[static_cast<std::size_t>(j)] = static_cast<float>(0.5 - 0.013 * static_cast<double>(j));
      for (Index len : {Index{0}, Index{1}, Index{7}, Index{16}, Index{17}, Index{33}, B}) {
        double ref = 0.0;
        for (Index j = 0; j < len; ++j) ref += static_cast<double>(coef[static_cast<std::size_t>(j)]) * K[static_cast<std::size_t>(j)];
        CHECK_CLOSE(fk.rbf_dot_parts(acc.data(), zpart.data(), xpart, len, coef.data()), ref, 1e-5);
      }
    }
    // The ends of the range: 0 far below -125, 1 where the parts sum to 0
    // or (rounded) above it.
    const float far = -200.0f, zero = 0.0f, half = 0.5f, minus_one = -1.0f;
    float out = -1.0f;
    fk.rbf_from_parts(&far, &zero, 0.0f, 1, &out);
    CHECK(out == 0.0f);
    fk.rbf_from_parts(&half, &minus_one, 0.5f, 1, &out);  // 0.5 - 1 + 0.5 = 0
    CHECK_CLOSE(out, 1.0, 1e-7);
    fk.rbf_from_parts(&half, &zero, 0.0f, 1, &out);  // above 0: capped
    CHECK(out == 1.0f);
  }
}

TEST_CASE("float kernels: the Gaussian values' relative error over the exp's whole range") {
  // 2^u for u = -log2(e) x, x = 0 .. 90 (exp down to e^-90, past the cut at
  // -86.6), each level against exp in double of the same float u. u's own
  // rounding (epsilon times |u|, as any float exp's argument has) is
  // allowed for; the polynomial and the scaling must add at most a few
  // ulps on top. Below e^-87: 0 in the vector levels, the rounded double in
  // scalar code.
  const Index B = 4001;
  std::vector<float> acc(static_cast<std::size_t>(B), 0.0f), zpart(acc.size()), out(acc.size());
  for (Index j = 0; j < B; ++j)
    zpart[static_cast<std::size_t>(j)] = static_cast<float>(-1.4426950408889634 * 90.0 * static_cast<double>(j) / (B - 1));
  const double eps = std::numeric_limits<float>::epsilon(), ln2 = 0.69314718055994530942;
  for (auto level : simd::supported_levels()) {
    const auto fk = simd::float_kernels_for(level);
    fk.rbf_from_parts(acc.data(), zpart.data(), 0.0f, B, out.data());
    double worst = 0.0;
    for (Index j = 0; j < B; ++j) {
      const double x = -ln2 * zpart[static_cast<std::size_t>(j)];
      const double ref = std::exp(-x), got = out[static_cast<std::size_t>(j)];
      if (x > 87.0) {
        CHECK(got < 1.7e-38);
      } else if (x < 86.0) {
        const double rel = std::abs(got - ref) / ref;
        CHECK(rel <= 2.5 * eps + 1.5 * eps * x);
        worst = std::max(worst, rel / (2.5 * eps + 1.5 * eps * x));
      }
    }
    CHECK(worst > 0.0);  // the values were compared
  }
}

TEST_CASE("kernel_expansion: float32 query rows match double arithmetic, far from the origin too") {
  const Index n = 131, m = 300, d = 9;
  for (double offset : {0.0, 1e3, 1e5}) {
    Random rng(3);
    std::vector<float> X(static_cast<std::size_t>(n * d));
    std::vector<double> Xd(X.size()), S(static_cast<std::size_t>(m * d));
    for (std::size_t i = 0; i < X.size(); ++i) {
      X[i] = static_cast<float>(offset + rng.uniform() * 2.0);
      Xd[i] = X[i];
    }
    for (auto& v : S) v = offset + rng.uniform() * 2.0;
    MatrixXd coef(m, 2);
    for (Index j = 0; j < m; ++j) coef(j, 0) = rng.uniform() - 0.5, coef(j, 1) = 1.0;
    const DenseView<float, Eigen::RowMajor> X32(X.data(), n, d);
    const DenseView<double, Eigen::RowMajor> X64(Xd.data(), n, d), Sv(S.data(), m, d);
    const Kernel k{KernelType::rbf, 0.2, 0.0, 3};
    MatrixXd f32(n, 2), f32b(n, 2), f64(n, 2);
    kernel_expansion(k, X32, Sv, coef, f32, 1);
    kernel_expansion(k, X32, Sv, coef, f32b, 2);
    kernel_expansion(k, X64, Sv, coef, f64, 1);
    CHECK(f32 == f32b);
    for (Index i = 0; i < n; ++i)
      for (Index c = 0; c < 2; ++c) CHECK_CLOSE(f32(i, c), f64(i, c), 1e-5 * static_cast<double>(m));
    // One output (binary models): the kernel values summed as they are made
    MatrixXd one(n, 1), one_b(n, 1);
    kernel_expansion(k, X32, Sv, coef.col(0), one, 1);
    kernel_expansion(k, X32, Sv, coef.col(0), one_b, 2);
    CHECK(one == one_b);
    for (Index i = 0; i < n; ++i) CHECK_CLOSE(one(i, 0), f64(i, 0), 1e-5 * static_cast<double>(m));
  }
}

TEST_CASE("budget rows: a centred load serves x - c, sparse rows gain the shifted features") {
  const Offset P(1e6, 6);
  const CsrView<double, std::int32_t> S(P.values.data(), P.indices.data(), P.indptr.data(), P.n, P.d);
  const DenseView<double, Eigen::RowMajor> X(P.x64.data(), P.n, P.d);
  const budget::ViewRows<CsrView<double, std::int32_t>> sparse(S, true);
  const budget::ViewRows<DenseView<double, Eigen::RowMajor>> dense(X, true);
  const Centre c = choose_centre(X);
  budget::SampleRow r;
  for (Index i = 0; i < P.n; ++i) {
    std::vector<double> row(static_cast<std::size_t>(P.d), 0.0);
    sparse.load(i, r);
    for (Index q = 0; q < r.nnz; ++q) row[static_cast<std::size_t>(r.idx[static_cast<std::size_t>(q)])] += r.val[static_cast<std::size_t>(q)];
    double norm = 0.0;
    for (Index k = 0; k < P.d; ++k) {
      const double u = P.x64[static_cast<std::size_t>(i * P.d + k)] - c.point[k];
      CHECK_CLOSE(row[static_cast<std::size_t>(k)], u, 1e-12);
      norm += u * u;
    }
    CHECK_CLOSE(r.sqnorm, norm, 1e-9);
    dense.load(i, r);
    for (Index k = 0; k < P.d; ++k) CHECK_CLOSE(r.val[static_cast<std::size_t>(k)], P.x64[static_cast<std::size_t>(i * P.d + k)] - c.point[k], 1e-12);
  }
}

TEST_CASE("run control: poll_block asks at most once per interval") {
  int asked = 0;
  RunControl control([&] { return ++asked > 1000; }, 10.0);
  for (int k = 0; k < 100; ++k) control.poll_block();
  CHECK(asked == 0);  // the first interval has not passed
  RunControl eager([&] { return ++asked > 0; }, 0.0);
  CHECK_THROWS(eager.poll_block(), Interrupted);
}

int main() { return budgetsvm::test::run_all(); }
