// Tests of the budget model, the SIMD margin kernels and budget maintenance
// against naive loops and from-scratch solves.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "budgetsvm/budget/maintenance.hpp"
#include "budgetsvm/budget/model.hpp"
#include "budgetsvm/core/random.hpp"
#include "budgetsvm/core/simd.hpp"
#include "budgetsvm/core/simd_float.hpp"
#include "budgetsvm/exact/simd_exact.hpp"
#include "check.hpp"

using namespace budgetsvm;
using namespace budgetsvm::budget;

namespace {

using Dense = DenseView<double, Eigen::RowMajor>;
using Csr = CsrView<double, std::int32_t>;

MatrixXd random_matrix(Index n, Index d, std::uint64_t seed, double density = 1.0) {
  Random rng(seed);
  MatrixXd X(n, d);
  for (Index i = 0; i < n; ++i)
    for (Index k = 0; k < d; ++k) X(i, k) = rng.uniform() < density ? rng.uniform() * 2 - 1 : 0.0;
  return X;
}

double naive_kernel(const Kernel& k, const double* x, const double* z, Index d) {
  double dot = 0, nx = 0, nz = 0;
  for (Index q = 0; q < d; ++q) dot += x[q] * z[q], nx += x[q] * x[q], nz += z[q] * z[q];
  return k.from_dot(dot, nx, nz);
}

}  // namespace

TEST_CASE("vectorised exp matches std::exp") {
  double worst = 0;
  for (double x = -707.9; x <= 0.0; x += 0.0137) {
    const double e = std::exp(x);
    worst = std::max(worst, std::fabs(simd::detail::exp_scalar(x) - e) / e);
  }
  CHECK(worst < 4e-16);
  CHECK(simd::detail::exp_scalar(-800.0) == 0.0);
  CHECK(simd::detail::exp_scalar(0.0) == 1.0);
}

TEST_CASE("SIMD kernels of every level agree with a naive loop (dense and sparse x)") {
  for (Index B : {1, 3, 8, 17, 64, 501}) {
    for (Index d : {1, 2, 5, 22, 33}) {
      const MatrixXd Z = random_matrix(B, d, 11 + B + d);
      std::vector<double> Zt(static_cast<std::size_t>(d * (B + 3)));
      std::vector<double> zn(static_cast<std::size_t>(B));
      for (Index j = 0; j < B; ++j) {
        zn[j] = Z.row(j).squaredNorm();
        for (Index k = 0; k < d; ++k) Zt[k * (B + 3) + j] = Z(j, k);
      }
      const MatrixXd x = random_matrix(1, d, 5 + d, 0.5);
      std::vector<Index> idx;
      std::vector<double> val;
      for (Index k = d - 1; k >= 0; --k)  // unsorted sparse entries
        if (x(0, k) != 0) idx.push_back(k), val.push_back(x(0, k));
      const double xn = x.squaredNorm(), gamma = 0.37;
      for (auto level : simd::supported_levels()) {
        const auto kern = simd::kernels_for(level);
        std::vector<double> a(B), b(B);
        kern.dots(Zt.data(), B + 3, B, nullptr, x.data(), d, a.data());
        kern.dots(Zt.data(), B + 3, B, idx.data(), val.data(), static_cast<Index>(idx.size()), b.data());
        for (Index j = 0; j < B; ++j) {
          const double ref = Z.row(j).dot(x.row(0));
          CHECK_CLOSE(a[j], ref, 1e-13);
          CHECK_CLOSE(b[j], ref, 1e-13);
        }
        std::vector<double> w(B);
        double ref_dot = 0;
        for (Index j = 0; j < B; ++j) w[j] = std::sin(1.0 + j), ref_dot += w[j] * a[j];
        CHECK_CLOSE(kern.dot(w.data(), a.data(), B), ref_dot, 1e-13 * (1 + std::fabs(ref_dot)));
        kern.rbf_from_dots(a.data(), zn.data(), xn, gamma, B, a.data());
        for (Index j = 0; j < B; ++j)
          CHECK_CLOSE(a[j], std::exp(-gamma * (Z.row(j) - x.row(0)).squaredNorm()), 1e-13);
      }
    }
  }
  std::printf("  detected level: %s\n", simd::level_name(simd::detect_level()));
}

TEST_CASE("SIMD dense_dots of every level agrees with a naive loop") {
  for (Index rows : {1, 4, 7, 9}) {
    for (Index B : {1, 5, 8, 16, 31, 33, 64, 70}) {
      for (Index d : {1, 8, 22}) {
        const MatrixXd X = random_matrix(rows, d, 3 + rows + B + d);
        const MatrixXd Z = random_matrix(B, d, 5 + B + d);
        const Index ld = B + 3, ldg = B + 2;
        std::vector<double> Zt(static_cast<std::size_t>(d * ld), 0.0);
        for (Index j = 0; j < B; ++j)
          for (Index k = 0; k < d; ++k) Zt[k * ld + j] = Z(j, k);
        std::vector<const double*> x;
        for (Index r = rows - 1; r >= 0; --r) x.push_back(X.row(r).data());  // rows in any order
        for (auto level : simd::supported_levels()) {
          std::vector<double> G(static_cast<std::size_t>(rows * ldg), -7.0);
          simd::kernels_for(level).dense_dots(x.data(), rows, d, Zt.data(), ld, B, G.data(), ldg);
          for (Index r = 0; r < rows; ++r) {
            for (Index j = 0; j < B; ++j) {
              const double ref = X.row(rows - 1 - r).dot(Z.row(j));
              CHECK_CLOSE(G[r * ldg + j], ref, 1e-13 * (1.0 + std::fabs(ref)));
            }
            for (Index j = B; j < ldg; ++j) CHECK(G[r * ldg + j] == -7.0);  // nothing written past B
          }
        }
      }
    }
  }
}

TEST_CASE("SIMD row_dots of every level agrees with a naive loop") {
  for (Index rows : {1, 3, 4, 7, 8, 9, 17}) {
    for (Index m : {1, 2, 3}) {
      for (Index d : {1, 3, 8, 13, 16, 22}) {
        const MatrixXd X = random_matrix(rows, d, 11 + rows + m + d);
        const Index ldy = d + 2, ldg = rows + 3;
        const MatrixXd Y = random_matrix(m, ldy, 13 + m + d);  // columns d.. of each row are not read
        std::vector<const double*> x;
        for (Index r = rows - 1; r >= 0; --r) x.push_back(X.row(r).data());  // rows in any order
        for (auto level : simd::supported_levels()) {
          std::vector<double> Gt(static_cast<std::size_t>(m * ldg), -7.0);
          simd::kernels_for(level).row_dots(x.data(), rows, d, Y.data(), ldy, m, Gt.data(), ldg);
          for (Index c = 0; c < m; ++c) {
            for (Index r = 0; r < rows; ++r) {
              const double ref = X.row(rows - 1 - r).dot(Y.row(c).head(d));
              CHECK_CLOSE(Gt[c * ldg + r], ref, 1e-13 * (1.0 + std::fabs(ref)));
            }
            for (Index r = rows; r < ldg; ++r) CHECK(Gt[c * ldg + r] == -7.0);  // nothing written past rows
          }
        }
      }
    }
  }
}

TEST_CASE("SIMD argmin_abs, sign_mask and indices_at_least of every level agree with naive loops") {
  for (Index n : {0, 1, 2, 3, 7, 8, 9, 16, 31, 501}) {
    Random rng(static_cast<std::uint64_t>(5 + n));
    std::vector<double> w(static_cast<std::size_t>(n)), x(static_cast<std::size_t>(n));
    for (Index j = 0; j < n; ++j) {
      w[j] = (rng.uniform() < 0.5 ? -1.0 : 1.0) * rng.uniform() * 10.0;
      x[j] = rng.uniform();
      if (j % 5 == 3) w[j] = 0.0;              // neither sign
      if (j % 9 == 4) x[j] = x[(j * 7) % n];  // ties
    }
    double least = HUGE_VAL;
    for (double v : w) least = std::min(least, std::fabs(v));
    for (double s : {2.5, -0.5}) {
      std::vector<double> ref(static_cast<std::size_t>(n));
      double most = -1.0;
      for (Index j = 0; j < n; ++j) {
        ref[j] = w[j] * s > 0.0 ? x[j] : -1.0;
        most = std::max(most, ref[j]);
      }
      const double scale = 400.0, cut = 173.0;
      std::vector<Index> ref_idx;
      for (Index j = 0; j < n; ++j)
        if (!(ref[j] * scale < cut)) ref_idx.push_back(j);
      for (auto level : simd::supported_levels()) {
        const simd::Kernels& k = simd::kernels_for(level);
        Index first = 0;
        while (first < n && !(std::fabs(w[first]) == least)) ++first;
        CHECK(k.argmin_abs(w.data(), n) == (n == 0 ? 0 : first));
        std::vector<double> out(static_cast<std::size_t>(n) + 2, 7.0);
        CHECK(k.sign_mask(w.data(), s, x.data(), n, out.data()) == most);
        for (Index j = 0; j < n; ++j) CHECK(out[j] == ref[j]);
        CHECK(out[n] == 7.0 && out[n + 1] == 7.0);  // nothing written past n
        std::vector<Index> idx(static_cast<std::size_t>(n) + 1, -5);
        const Index q = k.indices_at_least(out.data(), n, scale, cut, idx.data());
        CHECK(q == static_cast<Index>(ref_idx.size()));
        for (Index t = 0; t < q && t < static_cast<Index>(ref_idx.size()); ++t) CHECK(idx[t] == ref_idx[t]);
        CHECK(idx[n] == -5);  // nothing written past n
      }
    }
  }
}

TEST_CASE("SIMD exp_to_float and gemv of every level agree with a naive loop") {
  for (Index n : {1, 3, 4, 9, 16, 61, 128}) {
    const MatrixXd A = random_matrix(n, n + 5, 3 + n);
    const MatrixXd x = random_matrix(1, n + 5, 7 + n);
    std::vector<double> args(static_cast<std::size_t>(n));
    for (Index j = 0; j < n; ++j) args[j] = -0.37 * static_cast<double>(j) + (j % 3 == 0 ? 0.5 : 0.0);
    args[0] = -800.0;  // below the range: 0
    for (auto level : simd::supported_levels()) {
      const auto kern = simd::kernels_for(level);
      std::vector<float> e(static_cast<std::size_t>(n));
      kern.exp_to_float(args.data(), n, e.data());
      CHECK(e[0] == 0.0f);
      for (Index j = 1; j < n; ++j) CHECK_CLOSE(e[j], std::exp(args[j]), 1e-7 * std::exp(args[j]));
      // A is n x (n + 5) row-major; use its first n - 1 columns with ld n + 5.
      const Index cols = std::max<Index>(n - 1, 1);
      std::vector<double> y(static_cast<std::size_t>(n), -1.0);
      kern.gemv(A.data(), n + 5, n, cols, x.data(), y.data());
      for (Index i = 0; i < n; ++i) {
        double ref = 0.0;
        for (Index j = 0; j < cols; ++j) ref += A(i, j) * x(0, j);
        CHECK_CLOSE(y[i], ref, 1e-13 * (1.0 + std::fabs(ref)));
      }
    }
  }
}

// The SIMD kernels hand the elements past their last full register to the
// scalar level's code. Compiled without floating-point contraction (our CMake
// passes -ffp-contract=off), that code computes the same bits wherever it is
// inlined; with GCC's default contraction, inlined into an FMA target it
// would fuse a * b + c and differ from the scalar level in the last bits.
TEST_CASE("SIMD kernels: the elements past the last full register get the scalar level's bits") {
  const simd::Kernels plain = simd::kernels_for(simd::Level::scalar);
  for (Index n = 1; n < 8; ++n) {  // shorter than one AVX-512 register
    std::vector<double> acc(static_cast<std::size_t>(n)), znorm(acc.size()), args(acc.size());
    std::vector<double> a(acc.size()), b(acc.size());
    for (Index j = 0; j < n; ++j) {
      acc[j] = 0.31 * static_cast<double>(j) - 0.77;
      znorm[j] = 1.9 + 0.13 * static_cast<double>(j);
      args[j] = -0.61 * static_cast<double>(j + 1) + 0.07;
      a[j] = 1.0 / static_cast<double>(j + 3);
      b[j] = 0.7 - 0.29 * static_cast<double>(j);
    }
    std::vector<double> want(acc.size()), got(acc.size());
    std::vector<float> want_f(acc.size()), got_f(acc.size());
    plain.rbf_from_dots(acc.data(), znorm.data(), 1.3, 0.37, n, want.data());
    plain.exp_to_float(args.data(), n, want_f.data());
    for (auto level : simd::supported_levels()) {
      const simd::Kernels k = simd::kernels_for(level);
      const Index lanes = level == simd::Level::avx512 ? 8 : level == simd::Level::avx2 ? 4 : 2;
      if (n >= lanes) continue;  // only tails here; full registers: the tests above
      k.rbf_from_dots(acc.data(), znorm.data(), 1.3, 0.37, n, got.data());
      k.exp_to_float(args.data(), n, got_f.data());
      for (Index j = 0; j < n; ++j) {
        CHECK(got[j] == want[j]);
        CHECK(got_f[j] == want_f[j]);
      }
      CHECK(k.dot(a.data(), b.data(), n) == plain.dot(a.data(), b.data(), n));
    }
  }
}

// The loops over many values run four registers' exps interleaved; a call of
// one register's length runs the single-register loop alone. Cut into such
// calls, every length must give the same bits (the same operations lane by
// lane), the tails past the last block of four included.
TEST_CASE("SIMD kernels: the interleaved exps of four registers give one register's bits") {
  const Index n = 75;
  std::vector<double> acc(static_cast<std::size_t>(n)), znorm(acc.size()), dots(acc.size());
  for (Index j = 0; j < n; ++j) {
    acc[j] = 0.9 * std::sin(1.7 * static_cast<double>(j));
    znorm[j] = 1.1 + 0.5 * std::cos(0.3 * static_cast<double>(j));
    dots[j] = acc[j] + 0.25;
  }
  acc[5] = -1e6;  // below exp's range: 0
  std::vector<float> part(acc.size()), zpart(acc.size()), coef(acc.size());
  for (Index j = 0; j < n; ++j) {
    part[j] = static_cast<float>(-3.0 * std::fabs(acc[j]));
    zpart[j] = static_cast<float>(-0.5 * znorm[j]);
    coef[j] = static_cast<float>(0.5 - 0.013 * static_cast<double>(j));
  }
  part[6] = -400.0f;
  for (auto level : simd::supported_levels()) {
    const simd::Kernels k = simd::kernels_for(level);
    const simd::FloatKernels fk = simd::float_kernels_for(level);
    const simd::RbfColumnToFloat column = simd::rbf_column_to_float_for(level);
    const Index lanes = level == simd::Level::avx512 ? 8 : level == simd::Level::avx2 ? 4 : level == simd::Level::sse2 ? 2 : 1;
    for (Index len : {Index{4} * lanes, Index{4} * lanes + 1, Index{8} * lanes + lanes - 1, n}) {
      std::vector<double> whole(static_cast<std::size_t>(len)), pieces(whole.size());
      std::vector<float> whole_f(whole.size()), pieces_f(whole.size());
      k.rbf_from_dots(acc.data(), znorm.data(), 1.3, 0.37, len, whole.data());
      for (Index j = 0; j < len; j += lanes)
        k.rbf_from_dots(acc.data() + j, znorm.data() + j, 1.3, 0.37, std::min(lanes, len - j), pieces.data() + j);
      for (Index j = 0; j < len; ++j) CHECK(whole[j] == pieces[j]);
      if (column) {
        column(dots.data(), 0.25, znorm.data(), 1.3, 0.37, len, whole_f.data());
        for (Index j = 0; j < len; j += lanes)
          column(dots.data() + j, 0.25, znorm.data() + j, 1.3, 0.37, std::min(lanes, len - j), pieces_f.data() + j);
        for (Index j = 0; j < len; ++j) CHECK(whole_f[j] == pieces_f[j]);
      }
      // float: twice the lanes; rbf_dot_parts sums in order, so the pieces'
      // kernel values summed in a float register's lane order are its value
      const Index flanes = 2 * lanes;
      fk.rbf_from_parts(part.data(), zpart.data(), -0.2f, len, whole_f.data());
      for (Index j = 0; j < len; j += flanes)
        fk.rbf_from_parts(part.data() + j, zpart.data() + j, -0.2f, std::min(flanes, len - j), pieces_f.data() + j);
      for (Index j = 0; j < len; ++j) CHECK(whole_f[j] == pieces_f[j]);
    }
  }
}

TEST_CASE("model margin equals the naive sum for every kernel, dense and CSR rows") {
  const Index n = 40, d = 7;
  const MatrixXd X = random_matrix(n, d, 3, 0.6);
  // CSR copy of X
  std::vector<double> values;
  std::vector<std::int32_t> indices, indptr{0};
  for (Index i = 0; i < n; ++i) {
    for (Index k = 0; k < d; ++k)
      if (X(i, k) != 0) values.push_back(X(i, k)), indices.push_back(static_cast<std::int32_t>(k));
    indptr.push_back(static_cast<std::int32_t>(values.size()));
  }
  ViewRows<Dense> dense(Dense(X.data(), n, d));
  ViewRows<Csr> sparse(Csr(values.data(), indices.data(), indptr.data(), n, d));
  for (auto type : {KernelType::rbf, KernelType::linear, KernelType::poly, KernelType::sigmoid}) {
    const Kernel kernel{type, 0.5, 0.3, 3};
    BudgetModel model(d, 20, 2, kernel);
    SampleRow row;
    Random rng(9);
    for (Index i = 0; i < 12; ++i) {
      (i % 2 ? static_cast<const Rows&>(sparse) : static_cast<const Rows&>(dense)).load(i, row);
      const double beta[2] = {rng.uniform() - 0.5, rng.uniform() - 0.5};
      model.add(row, beta);
    }
    model.shrink(0.75);
    std::vector<double> krow(model.capacity());
    for (Index i = 12; i < n; ++i) {
      (i % 2 ? static_cast<const Rows&>(sparse) : static_cast<const Rows&>(dense)).load(i, row);
      model.kernel_row(row, krow.data());
      for (int c = 0; c < 2; ++c) {
        double ref = 0;
        for (Index j = 0; j < model.size(); ++j)
          ref += model.beta(j, c) * naive_kernel(kernel, X.row(i).data(), X.row(j).data(), d);
        CHECK_CLOSE(model.margin(krow.data(), c), ref, 1e-12);
      }
    }
  }
}

TEST_CASE("scale factor: shrink is O(1), folds before underflow, 0 clears") {
  const MatrixXd X = random_matrix(5, 3, 4);
  ViewRows<Dense> rows(Dense(X.data(), 5, 3));
  BudgetModel model(3, 10, 1, Kernel{KernelType::rbf, 1.0, 0.0, 3});
  SampleRow row;
  rows.load(0, row);
  const double b = 2.0;
  model.add(row, &b);
  double expected = 2.0;
  for (int t = 0; t < 400; ++t) {  // 0.3^400 = 1e-209: folds on the way
    model.shrink(0.3);
    expected *= 0.3;
  }
  CHECK(model.scale() >= 1e-151);
  CHECK_CLOSE(model.beta(0) / expected, 1.0, 1e-12);
  rows.load(1, row);
  const double b2 = 1e-200;
  model.add(row, &b2);
  CHECK_CLOSE(model.beta(1) / b2, 1.0, 1e-12);
  model.shrink(0.0);
  CHECK(model.size() == 0);
  CHECK(model.scale() == 1.0);
}

TEST_CASE("copy map follows moves, merges and removals") {
  const MatrixXd X = random_matrix(6, 2, 6);
  ViewRows<Dense> rows(Dense(X.data(), 6, 2));
  BudgetModel model(2, 5, 1, Kernel{}, simd::active_kernels(), 6);
  SampleRow row;
  for (Index i = 0; i < 4; ++i) {
    rows.load(i, row);
    const double b = 1.0 + static_cast<double>(i);
    model.add(row, &b, i);
  }
  model.remove(1);  // SV of point 3 moves into slot 1
  CHECK(model.slot_of(1) == -1);
  CHECK(model.slot_of(3) == 1);
  CHECK(model.source_of(1) == 3);
  CHECK(model.feature(1, 0) == X(3, 0));
  const double z[2] = {0.1, 0.2}, bz = 5.0;
  model.replace(0, z, 0.05, &bz);  // point 0's copy is merged away
  CHECK(model.slot_of(0) == -1);
  CHECK(model.source_of(0) == -1);  // slot 0 holds a merged vector, no point's copy
}

TEST_CASE("removal drops the support vector with the smallest |beta|^2 k(z, z)") {
  const MatrixXd X = random_matrix(6, 3, 8);
  ViewRows<Dense> rows(Dense(X.data(), 6, 3));
  BudgetModel model(3, 4, 1, Kernel{KernelType::rbf, 1.0, 0.0, 3});
  RemovalMaintenance removal(model);
  SampleRow row;
  const double betas[5] = {0.9, -0.4, 0.05, -0.07, 1.3};
  for (Index i = 0; i < 5; ++i) {
    rows.load(i, row);
    model.add(row, &betas[i]);
  }
  Counters counters;
  removal.reduce(model, counters, nullptr);
  CHECK(model.size() == 4);
  CHECK(counters.removals == 1);
  for (Index j = 0; j < model.size(); ++j) CHECK(std::fabs(model.beta(j)) != 0.05);
}

TEST_CASE("projection equals a from-scratch solve; the kept inverse stays exact") {
  const Index n = 30, d = 4, B = 8;
  const MatrixXd X = random_matrix(n, d, 10);
  ViewRows<Dense> rows(Dense(X.data(), n, d));
  const Kernel kernel{KernelType::rbf, 0.8, 0.0, 3};
  BudgetModel model(d, B, 1, kernel);
  ProjectionMaintenance projection(model);
  SampleRow row;
  std::vector<double> krow(model.capacity());
  Random rng(4);
  Counters counters;
  for (Index i = 0; i < n; ++i) {
    rows.load(i, row);
    model.kernel_row(row, krow.data());
    const double b = rng.uniform() * 2 - 1;
    model.add(row, &b);
    projection.on_add(model, krow.data(), 1.0);
    if (model.size() <= B) continue;
    // Reference: w restricted to the span of the others, by a direct solve.
    const Index m = model.size();
    MatrixXd Z(m, d);
    VectorXd beta(m);
    for (Index j = 0; j < m; ++j) {
      for (Index k = 0; k < d; ++k) Z(j, k) = model.feature(j, k);
      beta[j] = model.beta(j);
    }
    // the kept inverse equals (K + rho I)^-1
    MatrixXd K(m, m);
    for (Index a = 0; a < m; ++a)
      for (Index c = 0; c < m; ++c) K(a, c) = std::exp(-0.8 * (Z.row(a) - Z.row(c)).squaredNorm());
    const MatrixXd Kr = K + ProjectionMaintenance::kRidge * MatrixXd::Identity(m, m);
    const MatrixXd Ainv = Kr.ldlt().solve(MatrixXd::Identity(m, m));
    double worst = 0;
    for (Index a = 0; a < m; ++a)
      for (Index c = 0; c < m; ++c) worst = std::max(worst, std::fabs(projection.inverse(a, c) - Ainv(a, c)) / (1 + std::fabs(Ainv(a, c))));
    CHECK(worst < 1e-5);
    Index p = 0;
    for (Index j = 1; j < m; ++j)
      if (std::fabs(beta[j]) < std::fabs(beta[p])) p = j;
    std::vector<Index> others;
    for (Index j = 0; j < m; ++j)
      if (j != p) others.push_back(j);
    MatrixXd Ko(m - 1, m - 1);
    VectorXd kp(m - 1), bo(m - 1);
    for (Index a = 0; a < m - 1; ++a) {
      kp[a] = K(others[a], p);
      bo[a] = beta[others[a]];
      for (Index c = 0; c < m - 1; ++c) Ko(a, c) = K(others[a], others[c]);
    }
    Ko += ProjectionMaintenance::kRidge * MatrixXd::Identity(m - 1, m - 1);
    const VectorXd expected = bo + beta[p] * Ko.ldlt().solve(kp);
    projection.reduce(model, counters, nullptr);
    // the model's slots: p was replaced by the last one
    std::vector<Index> slot_to_old(m - 1);
    for (Index j = 0; j < m - 1; ++j) slot_to_old[j] = j;
    if (p != m - 1) slot_to_old[p] = m - 1;
    for (Index j = 0; j < m - 1; ++j) {
      const Index old = slot_to_old[j];
      const Index pos = static_cast<Index>(std::find(others.begin(), others.end(), old) - others.begin());
      CHECK_CLOSE(model.beta(j), expected[pos], 1e-6 * (1 + std::fabs(expected[pos])));
    }
  }
  CHECK(counters.projections == n - B);
}

TEST_CASE("merging picks the best same-sign partner and merges as the formulas say") {
  const Index d = 3, B = 6;
  const MatrixXd X = random_matrix(B + 1, d, 12);
  ViewRows<Dense> rows(Dense(X.data(), B + 1, d));
  const Kernel kernel{KernelType::rbf, 1.5, 0.0, 3};
  for (int method = 0; method < 2; ++method) {
    BudgetModel model(d, B, 1, kernel);
    SampleRow row;
    const double betas[7] = {0.6, -0.2, 0.15, 0.9, -0.8, 0.4, 0.3};
    for (Index i = 0; i <= B; ++i) {
      rows.load(i, row);
      model.add(row, &betas[i]);
    }
    // brute force: a = slot 2 (|0.15|), partners of the same sign, exact WD
    const Index a = 2;
    double best = 1e300;
    Index best_j = -1;
    for (Index j = 0; j <= B; ++j) {
      if (j == a || betas[j] < 0) continue;
      const double kappa = std::exp(-1.5 * (X.row(a) - X.row(j)).squaredNorm());
      const double s = betas[a] + betas[j];
      const double cost = s * s * merge::solve_global(betas[a] / s, kappa).wd;
      if (cost < best) best = cost, best_j = j;
    }
    Counters counters;
    if (method == 0) {
      MergeMaintenance<merge::GssSolver> merger(model, merge::GssSolver{1e-9});
      merger.reduce(model, counters, nullptr);
    } else {
      MergeMaintenance<merge::LookupWdSolver> merger(model, merge::LookupWdSolver{&merge::lookup_table(400)});
      merger.reduce(model, counters, nullptr);
    }
    CHECK(counters.merges == 1);
    CHECK(model.size() == B);
    // slot a now holds z; ||Delta||^2 from kernel values directly
    Eigen::Vector3d z;
    for (Index k = 0; k < d; ++k) z[k] = model.feature(a, k);
    const double bz = model.beta(a);
    auto k = [&](const Eigen::Vector3d& u, const Eigen::Vector3d& v) { return std::exp(-1.5 * (u - v).squaredNorm()); };
    const Eigen::Vector3d xa = X.row(a).transpose(), xb = X.row(best_j).transpose();
    const double ba = betas[a], bb = betas[best_j];
    const double delta2 = ba * ba + bb * bb + bz * bz + 2 * ba * bb * k(xa, xb) - 2 * bz * (ba * k(xa, z) + bb * k(xb, z));
    CHECK_CLOSE(delta2, best, 1e-6);
    // z lies on the segment between x_a and x_b
    const double h = (z - xb).dot(xa - xb) / (xa - xb).squaredNorm();
    CHECK_CLOSE((h * xa + (1 - h) * xb - z).norm(), 0.0, 1e-12);
  }
}

TEST_CASE("multi-class merging (pruned search) finds the exhaustive optimum") {
  const Index d = 4, B = 40;
  const Kernel kernel{KernelType::rbf, 1.2, 0.0, 3};
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const MatrixXd X = random_matrix(B + 1, d, 100 + seed);
    ViewRows<Dense> rows(Dense(X.data(), B + 1, d));
    const int c_out = 4;
    BudgetModel model(d, B, c_out, kernel);
    Random rng(seed);
    SampleRow row;
    MatrixXd betas(B + 1, c_out);
    for (Index i = 0; i <= B; ++i) {
      // Crammer-Singer-like rows (+eta, -eta) plus merged-looking dense rows
      betas.row(i).setZero();
      if (i % 3) {
        betas(i, static_cast<Index>(rng.below(c_out))) += 0.2 + rng.uniform();
        betas(i, static_cast<Index>(rng.below(c_out))) -= 0.2 + rng.uniform();
      } else {
        for (int c = 0; c < c_out; ++c) betas(i, c) = rng.uniform() - 0.5;
      }
      rows.load(i, row);
      model.add(row, betas.row(i).data());
    }
    Index a = 0;
    for (Index j = 1; j <= B; ++j)
      if (betas.row(j).squaredNorm() < betas.row(a).squaredNorm()) a = j;
    double best = 1e300;
    for (Index j = 0; j <= B; ++j) {
      if (j == a) continue;
      const double kappa = std::exp(-1.2 * (X.row(a) - X.row(j)).squaredNorm());
      const double A = betas.row(a).squaredNorm(), D = betas.row(j).squaredNorm(), C = betas.row(a).dot(betas.row(j));
      best = std::min(best, A + D + 2 * C * kappa - merge::solve_multiclass(A, C, D, kappa, 1e-9).second);
    }
    MergeMaintenance<merge::LookupWdSolver> merger(model, merge::LookupWdSolver{&merge::lookup_table(400)}, 1e-9);
    Counters counters;
    merger.reduce(model, counters, nullptr);
    CHECK(counters.merges == 1);
    // ||Delta||^2 = ||w - w'||^2 from kernel values of the old and new models
    MatrixXd sv_new, beta_new;
    model.export_to(sv_new, beta_new);
    auto k = [&](const auto& u, const auto& v) { return std::exp(-1.2 * (u - v).squaredNorm()); };
    double delta2 = 0;
    for (Index i = 0; i <= B; ++i)
      for (Index j = 0; j <= B; ++j) delta2 += betas.row(i).dot(betas.row(j)) * k(X.row(i), X.row(j));
    for (Index i = 0; i <= B; ++i)
      for (Index j = 0; j < B; ++j) delta2 -= 2 * betas.row(i).dot(beta_new.row(j)) * k(X.row(i), sv_new.row(j));
    for (Index i = 0; i < B; ++i)
      for (Index j = 0; j < B; ++j) delta2 += beta_new.row(i).dot(beta_new.row(j)) * k(sv_new.row(i), sv_new.row(j));
    CHECK_CLOSE(delta2, best, 1e-8 * (1 + best));
  }
}

TEST_CASE("sq_norm tracking through maintenance matches ||w||^2 recomputed") {
  const Index d = 3, B = 5;
  const MatrixXd X = random_matrix(20, d, 13);
  ViewRows<Dense> rows(Dense(X.data(), 20, d));
  const Kernel kernel{KernelType::rbf, 0.9, 0.0, 3};
  for (int kind = 0; kind < 3; ++kind) {
    for (int outputs : {1, 3}) {
      BudgetModel model(d, B, outputs, kernel);
      RemovalMaintenance removal(model);
      ProjectionMaintenance projection(model);
      MergeMaintenance<merge::LookupHSolver> merger(model, merge::LookupHSolver{&merge::lookup_table(400)});
      SampleRow row;
      std::vector<double> krow(model.capacity());
      Random rng(kind * 10 + outputs);
      double sq = 0;
      Counters counters;
      for (Index i = 0; i < 20; ++i) {
        rows.load(i, row);
        model.kernel_row(row, krow.data());
        std::vector<double> beta(outputs);
        for (auto& b : beta) b = outputs == 1 ? rng.uniform() : rng.uniform() - 0.5;
        for (int c = 0; c < outputs; ++c) sq += 2 * beta[c] * model.margin(krow.data(), c) + beta[c] * beta[c];
        model.add(row, beta.data());
        if (kind == 1 && projection.on_add(model, krow.data(), 1.0)) continue;
        if (model.size() > B) {
          if (kind == 0) removal.reduce(model, counters, &sq);
          if (kind == 1) projection.reduce(model, counters, &sq);
          if (kind == 2) merger.reduce(model, counters, &sq);
        }
        CHECK_CLOSE(sq, model.squared_norm(), 1e-6 * (1 + sq));
      }
    }
  }
}

int main() { return budgetsvm::test::run_all(); }
