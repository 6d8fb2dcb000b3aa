// Tests of continuing a model (budget/start.hpp), mixing models
// (budget/mix.hpp) and sharded training (budget/shards.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "budgetsvm/budget/mix.hpp"
#include "budgetsvm/budget/shards.hpp"
#include "budgetsvm/core/random.hpp"
#include "budget_params.hpp"
#include "check.hpp"
#include "fit_once.hpp"
#include "labelled_points.hpp"

using namespace budgetsvm;
using namespace budgetsvm::budget;

namespace {

using Dense = DenseView<double, Eigen::RowMajor>;

// XOR on [-1, 1]^2: label 1 where the two features have the same sign.
struct Problem : test::LabelledPoints {
  Problem(Index n, std::uint64_t seed)
      : LabelledPoints(n, 2, seed, [](Random& rng, auto& x) {
          x(0) = 2 * rng.uniform() - 1;
          x(1) = 2 * rng.uniform() - 1;
          return x(0) * x(1) > 0 ? 1 : 0;
        }) {}
};

Params params(Solver solver) { return test::rbf_budget_params(solver, 40, 2.0, 3, 11); }

double f(const Result& r, const double* x, double gamma) {
  double s = r.intercept.empty() ? 0.0 : r.intercept[0];
  for (Index j = 0; j < r.support_vectors.rows(); ++j) {
    const double d2 = std::pow(r.support_vectors(j, 0) - x[0], 2) + std::pow(r.support_vectors(j, 1) - x[1], 2);
    s += r.dual_coef(j, 0) * std::exp(-gamma * d2);
  }
  return s;
}

double accuracy(const Result& r, const Problem& P, double gamma) {
  Index correct = 0;
  for (Index i = 0; i < P.X.rows(); ++i)
    correct += (f(r, P.X.row(i).data(), gamma) > 0) == (P.y[static_cast<std::size_t>(i)] == 1);
  return static_cast<double>(correct) / static_cast<double>(P.X.rows());
}

/// <f_1, f_2> = sum_{i,j} <B_1(i, .), B_2(j, .)> exp(-gamma |z_1i - z_2j|^2)
/// summed by hand in double, and the sum of its terms' sizes.
std::pair<double, double> brute_inner(const MatrixXd& Z1, const MatrixXd& B1, const MatrixXd& Z2, const MatrixXd& B2,
                                      double gamma) {
  double sum = 0.0, magnitude = 0.0;
  for (Index i = 0; i < Z1.rows(); ++i)
    for (Index j = 0; j < Z2.rows(); ++j) {
      const double term = B1.row(i).dot(B2.row(j)) * std::exp(-gamma * (Z1.row(i) - Z2.row(j)).squaredNorm());
      sum += term;
      magnitude += std::fabs(term);
    }
  return {sum, magnitude};
}

Result train(const Problem& P, const Params& p, const Start& start = Start{}) {
  ViewRows<Dense> rows(Dense(P.X.data(), P.X.rows(), P.X.cols()));
  RunControl control;
  return test::fit_once(rows, P.y.data(), nullptr, 2, p, EpochCallback{}, control, start);
}

}  // namespace

TEST_CASE("a continued run starts from the model, its steps and its n") {
  const Problem P(2000, 1), T(2000, 2);
  for (Solver solver : {Solver::bsgd, Solver::bsca}) {
    Params p = params(solver);
    p.epochs = 1;
    const Result first = train(P, p);
    CHECK(first.steps_total == 2000 && first.n_ref == 2000.0);
    Start s;
    s.support_vectors = &first.support_vectors;
    s.dual_coef = &first.dual_coef;
    s.intercept = first.intercept;
    s.steps = first.steps_total;
    s.n_ref = first.n_ref;
    s.n = 4000.0;  // a second chunk of the same size
    const Result second = train(P, p, s);
    CHECK(second.steps_total == 4000 && second.n_ref == 4000.0);
    CHECK(accuracy(second, T, 2.0) > 0.9);
    // a start whose dimension differs is refused
    MatrixXd wrong = MatrixXd::Zero(3, 5), coef = MatrixXd::Ones(3, 1);
    Start bad;
    bad.support_vectors = &wrong;
    bad.dual_coef = &coef;
    CHECK_THROWS(train(P, p, bad), std::invalid_argument);
  }
}

TEST_CASE("mixing without reduction is the weighted average of the decision functions") {
  Random rng(3);
  MatrixXd S1(5, 2), S2(4, 2), A1(5, 1), A2(4, 1);
  S1 = MatrixXd::NullaryExpr(5, 2, [&]() { return rng.uniform(); });
  S2 = MatrixXd::NullaryExpr(4, 2, [&]() { return rng.uniform(); });
  A1 = MatrixXd::NullaryExpr(5, 1, [&]() { return rng.uniform() - 0.5; });
  A2 = MatrixXd::NullaryExpr(4, 1, [&]() { return rng.uniform() - 0.5; });
  Params p = params(Solver::bsgd);
  p.budget = 100;
  const Result m = mix({{&S1, &A1, {0.5}, 1.0, 10}, {&S2, &A2, {-0.5}, 3.0, 20}}, p, false);
  CHECK(m.support_vectors.rows() == 9 && m.steps_total == 18);
  Result r1, r2;
  r1.support_vectors = S1, r1.dual_coef = A1, r1.intercept = {0.5};
  r2.support_vectors = S2, r2.dual_coef = A2, r2.intercept = {-0.5};
  for (int q = 0; q < 20; ++q) {
    const double x[2] = {rng.uniform(), rng.uniform()};
    CHECK_CLOSE(f(m, x, 2.0), 0.25 * f(r1, x, 2.0) + 0.75 * f(r2, x, 2.0), 1e-12);
  }
  p.budget = 4;
  const Result small = mix({{&S1, &A1, {}, 1.0, 0}, {&S2, &A2, {}, 1.0, 0}}, p, false);
  CHECK(small.support_vectors.rows() <= 4);
}

TEST_CASE("the mix's union combines exactly equal points, in order of first appearance") {
  // Part 2 repeats two of part 1's rows (one with -0 where part 1 has 0,
  // which == takes as equal) and has one row of its own; part 1 has a row
  // twice. The union: part 1's distinct rows, then part 2's new one; each
  // coefficient the weighted sum over its copies.
  MatrixXd S1(4, 3), S2(3, 3), A1(4, 1), A2(3, 1);
  S1 << 1, 0, 2,  //
      3, 4, 5,    //
      1, 0, 2,    //
      6, 7, 8;
  S2 << 3, 4, 5,  //
      9, 9, 9,    //
      1, -0.0, 2;
  A1 << 1, 2, 4, 8;
  A2 << 16, 32, 64;
  MatrixXd S, A;
  budget::detail::weighted_union({{&S1, &A1, {}, 1.0, 0}, {&S2, &A2, {}, 3.0, 0}}, 4.0, 3, 1, S, A);
  CHECK(S.rows() == 4 && A.rows() == 4);
  MatrixXd expected_S(4, 3);
  expected_S << 1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9;
  CHECK((S.array() == expected_S.array()).all());
  CHECK(A(0, 0) == 0.25 * 1 + 0.25 * 4 + 0.75 * 64);
  CHECK(A(1, 0) == 0.25 * 2 + 0.75 * 16);
  CHECK(A(2, 0) == 0.25 * 8);
  CHECK(A(3, 0) == 0.75 * 32);
  // Many rows that differ in one value only: all kept, none combined.
  MatrixXd R(300, 3), C = MatrixXd::Ones(300, 1);
  for (Index j = 0; j < 300; ++j) R(j, 0) = 0.0, R(j, 1) = static_cast<double>(j % 150), R(j, 2) = j < 150 ? 1.0 : -1.0;
  budget::detail::weighted_union({{&R, &C, {}, 1.0, 0}}, 1.0, 3, 1, S, A);
  CHECK(S.rows() == 300 && (S.array() == R.array()).all() && (A.array() == 1.0).all());
}

TEST_CASE("the mix's guard: feature-space inner products against a brute-force sum") {
  // <f_1, f_2> = sum_{i,j} <B_1(i, .), B_2(j, .)> k(z_1i, z_2j), summed in
  // double by hand; the guard computes it by the prediction's tiles (one and
  // two threads give the same value), with points far from the origin too.
  Random rng(5);
  const Kernel k{KernelType::rbf, 0.3, 0.0, 3};
  for (const double offset : {0.0, 1e3}) {
    for (const Index outputs : {Index{1}, Index{3}}) {
      MatrixXd Z1 = MatrixXd::NullaryExpr(300, 7, [&]() { return offset + 2.0 * rng.uniform(); });
      MatrixXd Z2 = MatrixXd::NullaryExpr(260, 7, [&]() { return offset + 2.0 * rng.uniform(); });
      MatrixXd B1 = MatrixXd::NullaryExpr(300, outputs, [&]() { return rng.uniform() - 0.5; });
      MatrixXd B2 = MatrixXd::NullaryExpr(260, outputs, [&]() { return rng.uniform() - 0.5; });
      const auto [expected, magnitude] = brute_inner(Z1, B1, Z2, B2, k.gamma);
      auto inner = [&](const MatrixXd& Za, const MatrixXd& Ba, int threads) {
        return budget::detail::feature_inner(Za.data(), Ba, Z2.data(), B2, 7, k, threads);
      };
      const double one = inner(Z1, B1, 1);
      CHECK(std::fabs(expected) > 1e-3 * magnitude);  // not a sum that cancels to nothing
      CHECK_CLOSE(one, expected, 1e-12 * magnitude);
      CHECK(inner(Z1, B1, 2) == one);
      CHECK(inner(MatrixXd(0, 7), MatrixXd(0, outputs), 1) == 0.0);
    }
  }
}

TEST_CASE("the mix's guard: the models' Gram matrix against a brute-force sum") {
  // feature_gram makes <f_a, f_a> by halves (down to blocks under 128 rows;
  // each off-diagonal block once, counted twice) and <f_a, f_b> whole; every
  // entry must agree with the brute-force double sum over all
  // pairs, for sizes on both sides of the splits, and one, two and three
  // threads give the same matrix.
  Random rng(11);
  const Kernel k{KernelType::rbf, 0.4, 0.0, 3};
  for (const Index outputs : {Index{1}, Index{2}}) {
    std::vector<MatrixXd> Z, B;
    for (const Index m : {Index{0}, Index{1}, Index{127}, Index{128}, Index{300}, Index{517}}) {
      Z.push_back(MatrixXd::NullaryExpr(m, 5, [&]() { return 1.5 * rng.uniform(); }));
      B.push_back(MatrixXd::NullaryExpr(m, outputs, [&]() { return rng.uniform() - 0.3; }));
    }
    const MatrixXd G = budget::detail::feature_gram(Z, B, k, 1);
    for (std::size_t a = 0; a < Z.size(); ++a)
      for (std::size_t b = 0; b < Z.size(); ++b) {
        const auto [expected, magnitude] = brute_inner(Z[a], B[a], Z[b], B[b], k.gamma);
        CHECK_CLOSE(G(static_cast<Index>(a), static_cast<Index>(b)), expected, 1e-12 * magnitude + 1e-300);
        if (a == b && Z[a].rows() > 0) CHECK(G(static_cast<Index>(a), static_cast<Index>(a)) > 0.0);  // a squared norm
      }
    for (const int threads : {2, 3}) CHECK(budget::detail::feature_gram(Z, B, k, threads) == G);
  }
}

TEST_CASE("the mix reduces models far from the origin as it does near it") {
  // Two parts of 30 support vectors in 3 features reduced to 20; then the same
  // parts with feature 0 moved by 1e8 (the others stay near 0). Kernel values
  // made from such rows without a reference point near them cancel (|x|^2 ~
  // 1e16 against distances of ~1), so the merges would differ; with the
  // union's centre they are the same up to the coordinates' rounding.
  Random rng(21);
  const double offset = 1e8;
  MatrixXd S1 = MatrixXd::NullaryExpr(30, 3, [&]() { return rng.uniform(); });
  MatrixXd S2 = MatrixXd::NullaryExpr(30, 3, [&]() { return rng.uniform(); });
  const MatrixXd A1 = MatrixXd::NullaryExpr(30, 1, [&]() { return rng.uniform() - 0.3; });
  const MatrixXd A2 = MatrixXd::NullaryExpr(30, 1, [&]() { return rng.uniform() - 0.3; });
  Params p = params(Solver::bsca);
  p.budget = 20;
  const Result near = mix({{&S1, &A1, {}, 1.0, 0}, {&S2, &A2, {}, 1.2, 0}}, p, false);
  MatrixXd F1 = S1, F2 = S2;
  F1.col(0).array() += offset;
  F2.col(0).array() += offset;
  const Result far = mix({{&F1, &A1, {}, 1.0, 0}, {&F2, &A2, {}, 1.2, 0}}, p, false);
  CHECK(near.support_vectors.rows() == 20);
  CHECK(far.support_vectors.rows() == 20);
  if (far.support_vectors.rows() != near.support_vectors.rows()) return;
  MatrixXd back = far.support_vectors;
  back.col(0).array() -= offset;
  CHECK((back - near.support_vectors).cwiseAbs().maxCoeff() < 1e-6);
  CHECK((far.dual_coef - near.dual_coef).cwiseAbs().maxCoeff() < 1e-6);
}

TEST_CASE("the mix keeps kernels that are not shift-invariant in the data's coordinates") {
  // A linear kernel's model is <w, x> with w = sum_j beta_j z_j: reduced by
  // projection (the union's points beyond the 3 features' span are projected
  // onto it as they are loaded), the mix is the exact average, w and all, up
  // to the projection's ridge (1e-8). Shifting the union to a
  // reference point (as the Gaussian kernel's distances are) would project
  // in the wrong space: <z - c, x - c> is another kernel.
  Random rng(8);
  MatrixXd S1 = MatrixXd::NullaryExpr(10, 3, [&]() { return 5.0 + rng.uniform(); });
  MatrixXd S2 = MatrixXd::NullaryExpr(10, 3, [&]() { return 5.0 + rng.uniform(); });
  const MatrixXd A1 = MatrixXd::NullaryExpr(10, 1, [&]() { return rng.uniform() - 0.3; });
  const MatrixXd A2 = MatrixXd::NullaryExpr(10, 1, [&]() { return rng.uniform() - 0.3; });
  Params p = params(Solver::bsgd);
  p.kernel = Kernel{KernelType::linear, 1.0, 0.0, 3};
  p.maintenance = Maintenance::project;
  p.budget = 5;
  const Result m = mix({{&S1, &A1, {}, 1.0, 0}, {&S2, &A2, {}, 3.0, 0}}, p, false);
  CHECK(m.support_vectors.rows() <= 5);
  const Eigen::VectorXd w = m.support_vectors.transpose() * m.dual_coef.col(0);
  const Eigen::VectorXd expected = 0.25 * (S1.transpose() * A1.col(0)) + 0.75 * (S2.transpose() * A2.col(0));
  CHECK((w - expected).cwiseAbs().maxCoeff() < 1e-6 * expected.cwiseAbs().maxCoeff());
}

TEST_CASE("the mix's result is never farther from the exact average than a part") {
  // ||c - f_avg||^2 by a brute-force kernel sum over c's and the parts' points, for
  // 2 and 3 parts of 40 random points merged to 40 with unequal weights, a wide and
  // a narrow kernel: the mix's result is never farther than a part, and it is a part
  // exactly when the guard fell back (tests/test_shards.py makes it fall back).
  auto distance = [](const MatrixXd& Zc, const MatrixXd& Bc, const std::vector<MatrixXd>& Z,
                     const std::vector<MatrixXd>& B, const std::vector<double>& w, double gamma) {
    std::vector<const MatrixXd*> points{&Zc};
    std::vector<MatrixXd> coef{Bc};
    for (std::size_t k = 0; k < Z.size(); ++k) points.push_back(&Z[k]), coef.push_back(-w[k] * B[k]);
    double sum = 0.0;
    for (std::size_t a = 0; a < points.size(); ++a)
      for (std::size_t b = 0; b < points.size(); ++b)
        sum += brute_inner(*points[a], coef[a], *points[b], coef[b], gamma).first;
    return sum;
  };
  Random rng(17);
  for (const double gamma : {0.02, 2.0}) {
    for (const std::size_t K : {std::size_t{2}, std::size_t{3}}) {
      for (int rep = 0; rep < 3; ++rep) {
        std::vector<MatrixXd> Z(K), B(K);
        std::vector<double> w(K);
        std::vector<MixPart> parts;
        double total = 0.0;
        for (std::size_t k = 0; k < K; ++k) {
          Z[k] = MatrixXd::NullaryExpr(40, 5, [&]() { return 2.0 * rng.uniform() - 1.0; });
          B[k] = MatrixXd::NullaryExpr(40, 1, [&]() { return rng.uniform() - 0.3; });
          w[k] = 1.0 + static_cast<double>(k) + rng.uniform();
          total += w[k];
        }
        for (std::size_t k = 0; k < K; ++k) parts.push_back({&Z[k], &B[k], {}, w[k], 0});
        for (double& v : w) v /= total;
        Params p = params(Solver::bsgd);
        p.kernel.gamma = gamma;
        p.n_jobs = 1;
        const Result one = mix(parts, p, false, GuardPath::features);
        for (const int threads : {1, 2, 3}) {
          p.n_jobs = threads;
          // The reduction runs beside the parts' inner products on other
          // threads: the same model for every thread count. The guard's sums
          // from the union's dot products choose as those from the features.
          const GuardPath path = threads == 2 ? GuardPath::features : GuardPath::dot_products;
          const Result m = mix(parts, p, false, path);
          CHECK(m.support_vectors == one.support_vectors && m.dual_coef == one.dual_coef);
          CHECK(m.mix_fallbacks == one.mix_fallbacks);
          CHECK(m.support_vectors.rows() <= 40);
          const double d = distance(m.support_vectors, m.dual_coef, Z, B, w, gamma);
          bool is_part = false;
          for (std::size_t k = 0; k < K; ++k) {
            CHECK(d <= distance(Z[k], B[k], Z, B, w, gamma) + 1e-9);
            is_part = is_part || (m.support_vectors == Z[k] && m.dual_coef == B[k]);
          }
          CHECK(is_part == (m.mix_fallbacks == 1));
        }
      }
    }
  }
}

TEST_CASE("the parts' inner products from the union's dot products, against a brute-force sum") {
  // UnionGram's lower triangle, row block by row block, each block's kernel
  // values against three parts' coefficients on the union's rows (a third of
  // them 0: a point only some parts hold); 200 rows cross three 64-row
  // blocks; near the origin and 1e3 away (the union's centre).
  Random rng(41);
  const Kernel k{KernelType::rbf, 0.3, 0.0, 3};
  const Index m = 200, d = 9;
  for (const double offset : {0.0, 1e3}) {
    for (const Index outputs : {Index{1}, Index{2}}) {
      MatrixXd U = MatrixXd::NullaryExpr(m, d, [&]() { return offset + 2.0 * rng.uniform(); });
      std::vector<MatrixXd> coef;
      for (int part = 0; part < 3; ++part)
        coef.push_back(MatrixXd::NullaryExpr(m, outputs, [&]() { return rng.uniform() < 0.33 ? 0.0 : rng.uniform() - 0.4; }));
      const Centre centre = choose_centre(Dense(U.data(), m, d));
      auto sums = [&](int threads) {
        budget::detail::GramBuffers buffers;
        budget::detail::UnionGram g(U, centre, buffers.dots);
        return budget::detail::blocked_sums(m, 9, threads, [&](Index start, Index count, std::vector<double>& out) {
          g.make_rows(start, count);
          budget::detail::add_part_block(g, start, count, coef, k, out, buffers.blocks);
        });
      };
      const std::vector<double> one = sums(1);
      for (std::size_t a = 0; a < 3; ++a)
        for (std::size_t b = 0; b < 3; ++b) {
          const auto [expected, magnitude] = brute_inner(U, coef[a], U, coef[b], k.gamma);
          CHECK_CLOSE(one[a * 3 + b], expected, 1e-12 * magnitude);
        }
      for (const int threads : {2, 3}) CHECK(sums(threads) == one);
    }
  }
}

TEST_CASE("a reduction replayed on the union's dot products: each point's recipe and row") {
  // 150 points of 70 features merged down to 60 with a MergeRecord
  // listening; replayed on D = U U^T, every support vector left is its
  // recipe's combination of union points, and its row holds its dot
  // products with them, as computed from its features.
  Random rng(31);
  const Index m = 150, d = 70;
  const MatrixXd U = MatrixXd::NullaryExpr(m, d, [&]() { return rng.uniform() - 0.5; });
  const Kernel k{KernelType::rbf, 0.05, 0.0, 3};
  BudgetModel model(d, m, 1, k);
  MergeMaintenance<merge::LookupWdSolver> merger(model, merge::LookupWdSolver{&merge::lookup_table(400)});
  budget::detail::MergeRecord record;
  merger.listen(&record);
  std::vector<Index> slots;
  for (Index p = 0; p < m; ++p) {
    const double beta = (rng.uniform() < 0.7 ? 1.0 : -1.0) * (0.1 + rng.uniform());
    model.append(U.row(p).data(), U.row(p).squaredNorm(), &beta);
    slots.push_back(p);
  }
  Counters counters;
  while (model.size() > 60) merger.reduce(model, counters, nullptr);
  CHECK(counters.merges > 0 && counters.merges + counters.removals == 90);
  CHECK(static_cast<long long>(record.steps.size()) == 90);
  budget::detail::GramBuffers buffers;
  budget::detail::UnionGram g(U, Centre{}, buffers.dots);
  for (Index s = 0; s < m; s += 64) g.make_rows(s, std::min<Index>(64, m - s));
  g.mirror(2);
  CHECK((g.D - U * U.transpose()).cwiseAbs().maxCoeff() < 1e-13 * static_cast<double>(d));
  budget::detail::MergeRowSource source(g.D, slots, buffers.merged);
  source.replay(record);
  CHECK(source.size() == model.size());
  if (source.size() != model.size()) return;
  MatrixXd sv, coef;
  model.export_to(sv, coef);
  std::vector<Index> start, row;
  std::vector<double> weight;
  source.recipes(start, row, weight);
  CHECK(static_cast<Index>(row.size()) == m);  // the recipes partition the union
  for (Index i = 0; i < sv.rows(); ++i) {
    Eigen::RowVectorXd made = Eigen::RowVectorXd::Zero(d);
    for (Index q = start[static_cast<std::size_t>(i)]; q < start[static_cast<std::size_t>(i + 1)]; ++q)
      made += weight[static_cast<std::size_t>(q)] * U.row(row[static_cast<std::size_t>(q)]);
    CHECK((made - sv.row(i)).cwiseAbs().maxCoeff() < 1e-12);
    const Eigen::RowVectorXd dots = sv.row(i) * U.transpose();
    CHECK((Eigen::Map<const Eigen::RowVectorXd>(source.row(i), m) - dots).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("the mix's two guards agree for several outputs and one-vs-rest machines") {
  // Multi-output models (BSGD's, merged by the multi-class rule) and
  // one-vs-rest columns (each on its own budget): the dot products' guard
  // gives the features' model and choice, on one and two threads.
  Random rng(43);
  for (const bool ovr : {false, true}) {
    MatrixXd S1 = MatrixXd::NullaryExpr(60, 4, [&]() { return rng.uniform(); });
    MatrixXd S2 = MatrixXd::NullaryExpr(50, 4, [&]() { return rng.uniform(); });
    MatrixXd A1 = MatrixXd::NullaryExpr(60, 2, [&]() { return rng.uniform() - 0.4; });
    MatrixXd A2 = MatrixXd::NullaryExpr(50, 2, [&]() { return rng.uniform() - 0.4; });
    if (ovr) {  // each support vector in one machine
      for (Index j = 0; j < 60; ++j) A1(j, j % 2) = 0.0;
      for (Index j = 0; j < 50; ++j) A2(j, (j + 1) % 2) = 0.0;
    }
    Params p = params(ovr ? Solver::bsca : Solver::bsgd);
    p.budget = 30;
    p.kernel.gamma = 1.5;
    const Result f = mix({{&S1, &A1, {}, 1.0, 0}, {&S2, &A2, {}, 1.3, 0}}, p, ovr, GuardPath::features);
    CHECK(f.support_vectors.rows() <= (ovr ? 60 : 30));
    for (const int threads : {1, 2}) {
      p.n_jobs = threads;
      const Result g = mix({{&S1, &A1, {}, 1.0, 0}, {&S2, &A2, {}, 1.3, 0}}, p, ovr, GuardPath::dot_products);
      CHECK(g.support_vectors == f.support_vectors && g.dual_coef == f.dual_coef);
      CHECK(g.mix_fallbacks == f.mix_fallbacks);
    }
  }
}

TEST_CASE("mixes that share their buffers make the models of mixes that do not") {
  // One MixBuffers through a sequence of mixes whose unions grow and shrink
  // (what a buffer holds from the mix before, values and size, must not
  // leak into the next), multi-output and one-vs-rest, one to three
  // threads, the dot products' guard and the features': bit for bit the
  // models and choices of mixes with buffers of their own.
  Random rng(47);
  for (const bool ovr : {false, true}) {
    Params p = params(ovr ? Solver::bsca : Solver::bsgd);
    p.kernel.gamma = 0.4;
    std::vector<std::pair<MatrixXd, MatrixXd>> models;
    for (const Index m : {90, 70, 40, 25, 120, 95}) {
      MatrixXd S = MatrixXd::NullaryExpr(m, 6, [&]() { return rng.uniform(); });
      MatrixXd A = MatrixXd::NullaryExpr(m, 2, [&]() { return rng.uniform() - 0.4; });
      if (ovr)
        for (Index j = 0; j < m; ++j) A(j, (j + m) % 2) = 0.0;
      models.emplace_back(std::move(S), std::move(A));
    }
    for (const GuardPath path : {GuardPath::dot_products, GuardPath::features})
      for (const int threads : {1, 2, 3}) {
        p.n_jobs = threads;
        MixBuffers shared;
        for (std::size_t pair = 0; pair < models.size(); pair += 2) {
          const auto& [S1, A1] = models[pair];
          const auto& [S2, A2] = models[pair + 1];
          p.budget = S1.rows() / 2;
          const std::vector<MixPart> parts{{&S1, &A1, {}, 1.0, 0}, {&S2, &A2, {}, 1.2, 0}};
          const Result own = mix(parts, p, ovr, path);
          const Result kept = mix(parts, p, ovr, path, &shared);
          CHECK(kept.support_vectors == own.support_vectors);
          CHECK(kept.dual_coef == own.dual_coef);
          CHECK(kept.mix_fallbacks == own.mix_fallbacks);
        }
      }
  }
}

TEST_CASE("sharded training: independent of the threads, as accurate as one shard") {
  const Problem P(6000, 4), T(3000, 5);
  for (Solver solver : {Solver::bsgd, Solver::bsca}) {
    Params p = params(solver);
    const double one = accuracy(train(P, p), T, 2.0);
    p.shards = 3;
    p.n_jobs = 1;
    const Result a = train(P, p);
    p.n_jobs = 3;
    const Result b = train(P, p);
    CHECK(a.support_vectors == b.support_vectors && a.dual_coef == b.dual_coef);
    CHECK(a.support_vectors.rows() <= 40 && a.epochs_run == 3 && a.totals.steps == 3 * 6000);
    CHECK(accuracy(a, T, 2.0) > one - 0.03);
  }
}

TEST_CASE("a shard round over every row and epoch is the sequential BSCA run") {
  // One shard holding the whole problem, all epochs in one call, the
  // machine's seed drawn as train_bsca draws it: the same steps, the same
  // averaging and settling, so the same model bit for bit (with and
  // without weights, some 0).
  const Problem P(3000, 6);
  Params p = params(Solver::bsca);
  std::vector<double> w(3000);
  Random rng(9);
  for (double& v : w) v = rng.uniform() < 0.1 ? 0.0 : 2.0 * rng.uniform();
  for (const double* weight : {static_cast<const double*>(nullptr), static_cast<const double*>(w.data())}) {
    ViewRows<Dense> rows(Dense(P.X.data(), P.X.rows(), P.X.cols()));
    RunControl control;
    const Result seq = test::fit_once(rows, P.y.data(), weight, 2, p, EpochCallback{}, control);
    Params q = p;
    Random seeder(p.seed);
    q.seed = seeder.next();
    ShardRound round;
    round.n = 0.0;
    for (Index i = 0; i < 3000; ++i) round.n += !weight || weight[i] > 0.0 ? 1.0 : 0.0;
    round.total_epochs = 3;
    std::vector<double> alpha(3000, 0.0);
    const Result one = test::bsca_shard_round_once(rows, P.y.data(), weight, q, Start{}, round, alpha.data(), control);
    CHECK(one.support_vectors == seq.support_vectors && one.dual_coef == seq.dual_coef);
    CHECK(one.averaged == seq.averaged && one.n_ref == round.n && one.epochs_run == 3);
    double held = 0.0;
    bool in_box = true;
    for (Index i = 0; i < 3000; ++i) {
      const double Ci = p.C * (weight ? weight[i] : 1.0);
      in_box = in_box && alpha[static_cast<std::size_t>(i)] >= 0.0 && alpha[static_cast<std::size_t>(i)] <= Ci;
      held += alpha[static_cast<std::size_t>(i)];
    }
    CHECK(in_box && held > 0.0);
  }
}

TEST_CASE("shards trained apart: the union is the average of independent shard rounds") {
  // shard_mix = union against its definition: each shard's run alone
  // (bsca_shard_round over all epochs, the split and the machines' seeds
  // drawn as fit draws them), averaged with weights n_k / n by hand. The
  // fit's model is that average, with every support vector kept.
  const Problem P(4000, 12), T(500, 13);
  Params p = params(Solver::bsca);
  p.shards = 3;
  p.shard_mix = ShardMix::union_;
  ViewRows<Dense> rows(Dense(P.X.data(), P.X.rows(), P.X.cols()));
  RunControl control;
  const Result fitted = test::fit_once(rows, P.y.data(), nullptr, 2, p, EpochCallback{}, control);
  Random seeder(p.seed);
  std::vector<budget::detail::Shard> shards =
      budget::detail::split_shards(rows, P.y.data(), nullptr, 3, seeder.next());
  Random machines(seeder.next());
  std::vector<Result> alone;
  Index held = 0;
  for (budget::detail::Shard& s : shards) {
    Params q = p;
    q.seed = machines.next();
    ShardRound round;
    round.n = 4000.0;
    round.total_epochs = p.epochs;
    std::vector<double> alpha(static_cast<std::size_t>(s.rows->rows()), 0.0);
    alone.push_back(
        test::bsca_shard_round_once(*s.rows, s.y.data(), nullptr, q, Start{}, round, alpha.data(), control));
    held += alone.back().support_vectors.rows();
    CHECK(alone.back().support_vectors.rows() <= p.budget);
  }
  CHECK(fitted.support_vectors.rows() == held && held > p.budget && fitted.mix_fallbacks == 0);
  CHECK(fitted.epochs_run == p.epochs && fitted.history.size() == static_cast<std::size_t>(p.epochs));
  double worst = 0.0;
  for (Index i = 0; i < T.X.rows(); ++i) {
    const double* x = T.X.row(i).data();
    double average = 0.0;
    for (std::size_t k = 0; k < shards.size(); ++k)
      average += static_cast<double>(shards[k].rows->rows()) / 4000.0 * f(alone[k], x, 2.0);
    worst = std::max(worst, std::fabs(f(fitted, x, 2.0) - average) / (1.0 + std::fabs(average)));
  }
  CHECK(worst < 1e-10);
  p.n_jobs = 3;  // the threads change nothing
  const Result threaded = test::fit_once(rows, P.y.data(), nullptr, 2, p, EpochCallback{}, control);
  CHECK(threaded.support_vectors == fitted.support_vectors && threaded.dual_coef == fitted.dual_coef);
}

TEST_CASE("shard rounds continue from the dual variables they are given") {
  const Problem P(2000, 7);
  Params p = params(Solver::bsca);
  p.epochs = 1;
  ViewRows<Dense> rows(Dense(P.X.data(), P.X.rows(), P.X.cols()));
  RunControl control;
  ShardRound round;
  round.n = 4000.0;  // this shard is half of the problem: box C n / n_k = 2 C
  round.total_epochs = 2;
  std::vector<double> alpha(2000, 0.0);
  const Result first = test::bsca_shard_round_once(rows, P.y.data(), nullptr, p, Start{}, round, alpha.data(), control);
  bool in_box = true;
  for (double a : alpha) in_box = in_box && a >= 0.0 && a <= 2.0 * p.C;
  CHECK(in_box);
  Start start;
  start.support_vectors = &first.support_vectors;
  start.dual_coef = &first.dual_coef;
  start.intercept = first.intercept;
  round.first_epoch = 2;
  std::vector<double> kept = alpha, fresh(2000, 0.0);
  const Result a = test::bsca_shard_round_once(rows, P.y.data(), nullptr, p, start, round, kept.data(), control);
  const Result b = test::bsca_shard_round_once(rows, P.y.data(), nullptr, p, start, round, fresh.data(), control);
  CHECK(!(a.dual_coef == b.dual_coef));  // the kept dual variables change the steps
  CHECK(a.totals.steps == 2000 && a.epochs_run == 2);
  // Bad calls: a dual variable outside its box, a class index not 0 / 1, a
  // later epoch from a cold start, a problem smaller than the shard.
  std::vector<double> bad = alpha;
  bad[5] = 2.0 * p.C * 1.01;
  CHECK_THROWS(test::bsca_shard_round_once(rows, P.y.data(), nullptr, p, start, round, bad.data(), control),
               std::invalid_argument);
  std::vector<int> y2 = P.y;
  y2[3] = 2;
  CHECK_THROWS(test::bsca_shard_round_once(rows, y2.data(), nullptr, p, start, round, kept.data(), control),
               std::invalid_argument);
  CHECK_THROWS(test::bsca_shard_round_once(rows, P.y.data(), nullptr, p, Start{}, round, kept.data(), control),
               std::invalid_argument);
  round.first_epoch = 1;
  round.n = 1000.0;
  CHECK_THROWS(test::bsca_shard_round_once(rows, P.y.data(), nullptr, p, Start{}, round, fresh.data(), control),
               std::invalid_argument);
}

TEST_CASE("budget rows: the memory hints read only the rows' own offsets and change no load") {
  // Rows 0 and 4 empty, row 3 longer than a cache line of values; float
  // values with int64 offsets, and a subset that ends with the last row.
  const std::vector<float> values{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  std::vector<std::int64_t> indices;
  for (std::int64_t k = 0; k < 19; ++k) indices.push_back(k < 2 ? k : k - 2);
  const std::vector<std::int64_t> indptr{0, 0, 1, 2, 19, 19};
  const CsrView<float, std::int64_t> S(values.data(), indices.data(), indptr.data(), 5, 17);
  const budget::ViewRows<CsrView<float, std::int64_t>> rows(S, true);
  const budget::SubsetRows subset(rows, {1, 3, 4});
  const std::vector<float> dense(5 * 40, 0.5f);
  const budget::ViewRows<DenseView<float, Eigen::RowMajor>> wide(DenseView<float, Eigen::RowMajor>(dense.data(), 5, 40));
  const std::vector<Index> order{4, 0, 3, 1, 2};
  for (const budget::Rows* X : std::vector<const budget::Rows*>{&rows, &subset, &wide}) {
    std::vector<Index> visit;
    for (Index i : order)
      if (i < X->rows()) visit.push_back(i);
    budget::SampleRow before, after;
    for (Index at = 0; at < static_cast<Index>(visit.size()); ++at) {
      const Index i = visit[static_cast<std::size_t>(at)];
      X->load(i, before);
      int hinted = 0;
      budget::prefetch_ahead(*X, visit, at, [&](Index) { ++hinted; });
      CHECK(hinted == (at + 2 < static_cast<Index>(visit.size()) ? 1 : 0));
      X->load(i, after);
      CHECK(after.nnz == before.nnz && after.sqnorm == before.sqnorm && after.val == before.val &&
            after.idx == before.idx);
    }
  }
}

int main() { return budgetsvm::test::run_all(); }
