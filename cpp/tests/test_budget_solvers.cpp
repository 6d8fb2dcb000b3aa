// Tests of BSGD and BSCA (budget/bsgd.hpp, budget/bsca.hpp, budget/fit.hpp)
// on small generated problems.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "budgetsvm/core/random.hpp"
#include "budget_params.hpp"
#include "check.hpp"
#include "fit_once.hpp"
#include "field_tables.hpp"
#include "labelled_points.hpp"

using namespace budgetsvm;
using namespace budgetsvm::budget;

namespace {

using Dense = DenseView<double, Eigen::RowMajor>;

// n points around `classes` well separated centres in 2-D.
struct Blobs : test::LabelledPoints {
  Blobs(Index n, int classes, std::uint64_t seed)
      : LabelledPoints(n, 2, seed, [classes](Random& rng, auto& x) {
          const int c = static_cast<int>(rng.below(static_cast<std::uint64_t>(classes)));
          const double angle = 6.283185307179586 * c / classes;
          x(0) = 3 * std::cos(angle) + (rng.uniform() - 0.5);
          x(1) = 3 * std::sin(angle) + (rng.uniform() - 0.5);
          return c;
        }) {}
};

// A 4 x 4 checkerboard on [0, 1]^2 (the BSGD paper's synthetic problem).
struct Checkerboard : test::LabelledPoints {
  Checkerboard(Index n, std::uint64_t seed)
      : LabelledPoints(n, 2, seed, [](Random& rng, auto& x) {
          x(0) = rng.uniform();
          x(1) = rng.uniform();
          return (static_cast<int>(x(0) * 4) + static_cast<int>(x(1) * 4)) % 2;
        }) {}
};

Params base_params(Solver solver) { return test::rbf_budget_params(solver, 30, 1.0, 5, 7); }

/// BSCA with a budget above the tests' n (no maintenance: exact dual
/// coordinate ascent, every support vector a copy), C = 1 and the intercept.
Params unbudgeted_bsca(int epochs) {
  Params p = base_params(Solver::bsca);
  p.budget = 200;
  p.epochs = epochs;
  p.C = 1.0;
  p.fit_intercept = true;
  return p;
}

double accuracy(const Result& r, const MatrixXd& X, const std::vector<int>& y, double gamma) {
  Index correct = 0;
  for (Index i = 0; i < X.rows(); ++i) {
    VectorXd f = VectorXd::Zero(r.n_outputs);
    for (int c = 0; c < r.n_outputs; ++c) f[c] = r.intercept[static_cast<std::size_t>(c)];
    for (Index j = 0; j < r.support_vectors.rows(); ++j) {
      const double k = std::exp(-gamma * (r.support_vectors.row(j) - X.row(i)).squaredNorm());
      f += k * r.dual_coef.row(j).transpose();
    }
    int pred;
    if (r.n_outputs == 1) {
      pred = f[0] > 0 ? 1 : 0;
    } else {
      Index best;
      f.maxCoeff(&best);
      pred = static_cast<int>(best);
    }
    correct += pred == y[static_cast<std::size_t>(i)];
  }
  return static_cast<double>(correct) / static_cast<double>(X.rows());
}

Result train(const MatrixXd& X, const std::vector<int>& y, int classes, const Params& p,
             const EpochCallback& cb = {}) {
  ViewRows<Dense> rows(Dense(X.data(), X.rows(), X.cols()));
  RunControl control;
  return test::fit_once(rows, y.data(), classes, p, cb, control);
}

// The largest violation of the dual's KKT conditions by a BSCA result
// without maintenance (every SV a copy of its point): alpha_i = y_i beta of
// x_i's SV (0 if none, and 0 wherever box[i] = 0); f includes the intercept;
// alpha = 0 -> y f >= 1, 0 < alpha < C_i -> y f = 1, alpha = C_i -> y f <= 1.
double kkt_violation(const Result& r, const MatrixXd& X, const std::vector<int>& y, const std::vector<double>& box) {
  double worst = 0;
  for (Index i = 0; i < X.rows(); ++i) {
    const double Ci = box[static_cast<std::size_t>(i)];
    double f = r.intercept[0], alpha = 0;
    const double yi = y[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
    for (Index j = 0; j < r.support_vectors.rows(); ++j) {
      f += r.dual_coef(j, 0) * std::exp(-(r.support_vectors.row(j) - X.row(i)).squaredNorm());
      if (r.support_vectors.row(j) == X.row(i)) alpha = yi * r.dual_coef(j, 0);
    }
    if (Ci == 0.0) {
      CHECK(alpha == 0.0);
      continue;
    }
    CHECK(alpha >= -1e-12 && alpha <= Ci + 1e-12);
    const double margin = yi * f;
    double violation;
    if (alpha <= 1e-12) violation = std::max(0.0, 1 - margin);
    else if (alpha >= Ci - 1e-12) violation = std::max(0.0, margin - 1);
    else violation = std::fabs(margin - 1);
    worst = std::max(worst, violation);
  }
  return worst;
}

bool identical(const Result& a, const Result& b) {
  return a.support_vectors.rows() == b.support_vectors.rows() && a.support_vectors == b.support_vectors &&
         a.dual_coef == b.dual_coef;
}

}  // namespace

TEST_CASE("binary blobs: every solver and maintenance separates them") {
  const Blobs data(600, 2, 1);
  for (auto solver : {Solver::bsgd, Solver::bsca}) {
    for (auto maint : {Maintenance::merge, Maintenance::remove, Maintenance::project}) {
      Params p = base_params(solver);
      p.budget = 10;
      p.maintenance = maint;
      const Result r = train(data.X, data.y, 2, p);
      CHECK(r.support_vectors.rows() <= 10);
      CHECK(r.n_outputs == 1);
      CHECK(accuracy(r, data.X, data.y, 1.0) == 1.0);
      CHECK(r.epochs_run == 5);
      CHECK(r.totals.steps == 5 * 600);
    }
  }
}

TEST_CASE("checkerboard: the budget binds and merging keeps accuracy") {
  const Checkerboard train_set(4000, 2), test_set(2000, 3);
  for (auto solver : {Solver::bsgd, Solver::bsca}) {
    for (auto method : {merge::Method::gss, merge::Method::lookup_h, merge::Method::lookup_wd}) {
      Params p = base_params(solver);
      p.budget = 60;
      p.C = 100.0;
      p.kernel.gamma = 20.0;
      p.merge_method = method;
      p.epochs = 10;
      const Result r = train(train_set.X, train_set.y, 2, p);
      const double acc = accuracy(r, test_set.X, test_set.y, 20.0);
      std::printf("  %s %d: test accuracy %.4f, merges %lld\n", solver == Solver::bsgd ? "bsgd" : "bsca",
                  static_cast<int>(method), acc, r.totals.merges);
      CHECK(r.totals.merges > 0);
      CHECK(r.support_vectors.rows() == 60);
      CHECK(acc > 0.93);
    }
  }
}

TEST_CASE("multi-class: Crammer-Singer BSGD and one-vs-rest BSCA") {
  const Blobs data(900, 3, 4);
  for (auto solver : {Solver::bsgd, Solver::bsca}) {
    for (auto maint : {Maintenance::merge, Maintenance::project}) {
      Params p = base_params(solver);
      p.budget = 12;
      p.maintenance = maint;
      const Result r = train(data.X, data.y, 3, p);
      CHECK(r.n_outputs == 3);
      CHECK(accuracy(r, data.X, data.y, 1.0) > 0.99);
      if (solver == Solver::bsca) {
        // one-vs-rest: every row has its coefficient in one column only
        CHECK(r.support_vectors.rows() <= 3 * 12);
        for (Index j = 0; j < r.dual_coef.rows(); ++j) {
          int nonzero = 0;
          for (Index c = 0; c < 3; ++c) nonzero += r.dual_coef(j, c) != 0.0;
          CHECK(nonzero == 1);
        }
      } else {
        CHECK(r.support_vectors.rows() <= 12);
      }
    }
  }
}

TEST_CASE("same seed, same result (bit for bit); n_jobs does not change BSCA") {
  const Checkerboard data(1500, 5);
  for (auto solver : {Solver::bsgd, Solver::bsca}) {
    Params p = base_params(solver);
    p.budget = 40;
    p.kernel.gamma = 20.0;
    const Result a = train(data.X, data.y, 2, p), b = train(data.X, data.y, 2, p);
    CHECK(identical(a, b));
    p.seed = 8;
    const Result c = train(data.X, data.y, 2, p);
    CHECK(!identical(a, c));
  }
  const Blobs blobs(800, 4, 6);
  Params p = base_params(Solver::bsca);
  p.budget = 8;
  const Result one = train(blobs.X, blobs.y, 4, p);
  p.n_jobs = 3;
  const Result three = train(blobs.X, blobs.y, 4, p);
  CHECK(identical(one, three));
}

TEST_CASE("learning rates: Norma and the margin perceptron (ball of radius U)") {
  const Blobs data(1000, 2, 9);
  for (auto rate : {LearningRate::norma, LearningRate::perceptron}) {
    for (auto maint : {Maintenance::merge, Maintenance::remove, Maintenance::project}) {
      Params p = base_params(Solver::bsgd);
      p.budget = 10;
      p.learning_rate = rate;
      p.maintenance = maint;
      p.eta0 = 0.5;
      p.radius = 3.0;
      const Result r = train(data.X, data.y, 2, p);
      CHECK(accuracy(r, data.X, data.y, 1.0) > 0.99);
      if (rate == LearningRate::perceptron) {
        double norm2 = 0;
        for (Index a = 0; a < r.support_vectors.rows(); ++a)
          for (Index b = 0; b < r.support_vectors.rows(); ++b)
            norm2 += r.dual_coef(a, 0) * r.dual_coef(b, 0) *
                     std::exp(-(r.support_vectors.row(a) - r.support_vectors.row(b)).squaredNorm());
        CHECK(std::sqrt(norm2) <= 3.0 * (1 + 1e-6));
      }
    }
  }
}

TEST_CASE("projection stays finite over many events with close points") {
  const Checkerboard data(3000, 9);
  for (auto rate : {LearningRate::pegasos, LearningRate::perceptron}) {
    Params p = base_params(Solver::bsgd);
    p.budget = 50;
    p.kernel.gamma = 20.0;
    p.learning_rate = rate;
    p.maintenance = Maintenance::project;
    p.eta0 = 0.5;
    p.radius = 6.0;
    const Result r = train(data.X, data.y, 2, p);
    CHECK(r.dual_coef.allFinite());
    CHECK(r.totals.projections > 1000);
    CHECK(accuracy(r, data.X, data.y, 20.0) > 0.6);
  }
}

TEST_CASE("projection with a singular kernel matrix (linear kernel, budget > rank)") {
  const Blobs data(600, 2, 14);
  for (auto solver : {Solver::bsgd, Solver::bsca}) {
    Params p = base_params(solver);
    p.budget = 10;  // the linear kernel on 2-D data has rank 2
    p.kernel = Kernel{KernelType::linear, 1.0, 0.0, 3};
    p.maintenance = Maintenance::project;
    p.C = 1.0;
    const Result r = train(data.X, data.y, 2, p);
    CHECK(r.dual_coef.allFinite());
    CHECK(r.dual_coef.cwiseAbs().maxCoeff() < 1e4);
    // not linearly separable: many steps add points that lie in the span
    const Checkerboard board(2000, 15);
    const Result rb = train(board.X, board.y, 2, p);
    CHECK(rb.dual_coef.allFinite());
    CHECK(rb.dual_coef.cwiseAbs().maxCoeff() < 1e4);
    CHECK(rb.totals.projections > 100);
    CHECK(rb.support_vectors.rows() <= 2);
    // the linear model w = sum beta_j z_j separates the (linearly separable) blobs
    const Eigen::Vector2d w = r.support_vectors.transpose() * r.dual_coef.col(0);
    Index correct = 0;
    for (Index i = 0; i < data.X.rows(); ++i)
      correct += (data.X.row(i).dot(w) > 0) == (data.y[static_cast<std::size_t>(i)] == 1);
    CHECK(correct == data.X.rows());
  }
}

TEST_CASE("BSCA in-place steps: without maintenance it is exact dual coordinate ascent") {
  // A budget larger than n: no maintenance, every SV stays a copy, and the
  // result must satisfy the box constraints with one SV per point at most.
  const Blobs data(80, 2, 11);
  const Params p = unbudgeted_bsca(50);
  const Result r = train(data.X, data.y, 2, p);
  CHECK(r.totals.merges == 0 && r.totals.removals == 0);
  CHECK(r.support_vectors.rows() <= 80);
  for (Index j = 0; j < r.dual_coef.rows(); ++j) CHECK(std::fabs(r.dual_coef(j, 0)) <= 1.0 + 1e-12);
  // KKT conditions of the dual with the intercept's constant feature (Q = K + 1).
  const double worst = kkt_violation(r, data.X, data.y, std::vector<double>(80, 1.0));
  std::printf("  largest KKT violation after 50 epochs: %.2e\n", worst);
  CHECK(worst < 1e-2);
}

TEST_CASE("callback sees every epoch and can stop training") {
  const Blobs data(300, 2, 12);
  Params p = base_params(Solver::bsgd);
  p.epochs = 10;
  std::vector<EpochStats> seen;
  const Result r = train(data.X, data.y, 2, p, [&](const EpochStats& s) {
    seen.push_back(s);
    return s.epoch == 3;
  });
  CHECK(seen.size() == 3);
  CHECK(r.epochs_run == 3);
  CHECK(r.stopped_early);
  CHECK(seen[2].totals.steps == 900);
  CHECK(r.history.size() == 3);
}

TEST_CASE("bad parameters are rejected") {
  const Blobs data(50, 2, 13);
  Params p = base_params(Solver::bsca);
  p.budget = 1;
  CHECK_THROWS(train(data.X, data.y, 2, p), std::invalid_argument);
  p = base_params(Solver::bsca);
  p.C = 0.0;
  CHECK_THROWS(train(data.X, data.y, 2, p), std::invalid_argument);
  p = base_params(Solver::bsca);
  p.kernel.gamma = -1.0;
  CHECK_THROWS(train(data.X, data.y, 2, p), std::invalid_argument);
  p = base_params(Solver::bsca);
  p.kernel.type = KernelType::poly;  // merge needs rbf
  CHECK_THROWS(train(data.X, data.y, 2, p), std::invalid_argument);
  p = base_params(Solver::bsca);
  p.epochs = 0;
  CHECK_THROWS(train(data.X, data.y, 2, p), std::invalid_argument);
  p = base_params(Solver::bsca);
  std::vector<int> bad = data.y;
  bad[3] = 2;
  CHECK_THROWS(train(data.X, bad, 2, p), std::invalid_argument);
}

TEST_CASE("field tables: every counter once, in place of totals in the epoch and run results, summed by +=") {
  const std::vector<std::string> counters{"steps",       "sv_added",           "merges",
                                          "removals",    "projections",        "maintenance_seconds",
                                          "merge_degradation", "merge_partner_weight"};
  CHECK(field_names<Counters>() == counters);
  std::vector<std::string> epoch{"epoch"};
  epoch.insert(epoch.end(), counters.begin(), counters.end());
  for (const char* name : {"n_support", "seconds", "objective", "sq_norm", "progressive_loss", "alpha_zero",
                           "alpha_bound", "alpha_free"})
    epoch.emplace_back(name);
  CHECK(field_names<EpochStats>() == epoch);
  std::vector<std::string> run{"support_vectors", "dual_coef", "intercept", "n_outputs", "epochs_run",
                               "stopped_early", "averaged", "history"};
  run.insert(run.end(), counters.begin(), counters.end());
  for (const char* name : {"seconds", "steps_total", "n_ref", "mix_fallbacks"}) run.emplace_back(name);
  CHECK(field_names<Result>() == run);
  CHECK(test::unique_names(field_names<Counters>()) && test::unique_names(field_names<Result>()));
  // every member is in its table (what is not visited is padding)
  CHECK(test::largest_unvisited_gap<Counters>() == 0);
  CHECK(test::largest_unvisited_gap<EpochStats>() < alignof(EpochStats));
  CHECK(test::largest_unvisited_gap<Result>() < alignof(Result));
  // operator+= adds every field of the table
  Counters c;
  int next = 1;
  Counters::for_each_field(c, [&](const char*, auto& field) {
    field = static_cast<std::decay_t<decltype(field)>>(next++);
  });
  Counters sum = c;
  sum += c;
  next = 1;
  Counters::for_each_field(std::as_const(sum), [&](const char*, const auto& field) {
    CHECK(static_cast<double>(field) == 2.0 * next++);
  });
  CHECK(next == static_cast<int>(counters.size()) + 1);
}

int main() { return budgetsvm::test::run_all(); }

TEST_CASE("BSCA first pass: the growing problem, step for step against a brute-force reference") {
  // One epoch, budget above n (no maintenance): the model must equal the
  // average over t in (n/2, n] (or, where its objective is lower, the last
  // iterate) of the unbudgeted recursion
  // w_t = (t-1)/t w_{t-1} + y_t delta_t phi(x_t),
  // delta_t = clip((1 - y_t f_{t-1}(x_t) (t-1)/t) / q, 0, C n / t), in the
  // machine's visiting order (its seed: the first draw of Random(seed)).
  const Checkerboard data(120, 21);
  for (const bool intercept : {false, true}) {
    Params p = base_params(Solver::bsca);
    p.budget = 200;
    p.epochs = 1;
    p.C = 0.5;
    p.fit_intercept = intercept;
    const Result r = train(data.X, data.y, 2, p);
    const Index n = data.X.rows();
    Random seeder(p.seed);
    Random rng(seeder.next());
    std::vector<Index> order(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    rng.shuffle(order);
    std::vector<double> coef(static_cast<std::size_t>(n), 0.0), avg(coef);
    double b = 0.0, t = 0.0, avg_b = 0.0;
    const Index half = n / 2;
    const double window = static_cast<double>(n - half);
    const double q = 1.0 + (intercept ? 1.0 : 0.0);
    for (const Index i : order) {
      t += 1.0;
      for (double& c : coef) c *= (t - 1.0) / t;
      b *= (t - 1.0) / t;
      double f = b;
      for (Index j = 0; j < n; ++j)
        f += coef[static_cast<std::size_t>(j)] * std::exp(-(data.X.row(j) - data.X.row(i)).squaredNorm());
      const double yi = data.y[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
      const double delta = std::clamp((1.0 - yi * f) / q, 0.0, p.C * static_cast<double>(n) / t);
      coef[static_cast<std::size_t>(i)] += yi * delta;
      if (intercept) b += yi * delta;
      if (t > static_cast<double>(half)) {
        for (Index j = 0; j < n; ++j) avg[static_cast<std::size_t>(j)] += coef[static_cast<std::size_t>(j)] / window;
        avg_b += b / window;
      }
    }
    // The settle (bsca.hpp, "Averaging"): the average is returned unless the
    // last iterate's primal objective, on every row here (n < 2,000: one
    // look at all of them), is lower.
    auto objective = [&](const std::vector<double>& w, double offset) {
      double sq = intercept ? offset * offset : 0.0, loss = 0.0;
      for (Index i = 0; i < n; ++i) {
        double f = offset;
        for (Index j = 0; j < n; ++j) {
          const double k = std::exp(-(data.X.row(j) - data.X.row(i)).squaredNorm());
          f += w[static_cast<std::size_t>(j)] * k;
          sq += w[static_cast<std::size_t>(i)] * w[static_cast<std::size_t>(j)] * k;
        }
        loss += p.C * std::max(0.0, 1.0 - (data.y[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0) * f);
      }
      return 0.5 * sq + loss;
    };
    const double kept_gap = objective(avg, avg_b) - objective(coef, b);
    if (std::fabs(kept_gap) > 1e-9) CHECK(r.averaged == (kept_gap <= 0.0 ? 1 : 0));
    if (r.averaged == 1) {
      coef = avg;
      b = avg_b;
    }
    double worst = std::fabs(r.intercept[0] - b);
    Index matched = 0;
    for (Index j = 0; j < r.support_vectors.rows(); ++j)
      for (Index i = 0; i < n; ++i)
        if (r.support_vectors.row(j) == data.X.row(i)) {
          worst = std::max(worst, std::fabs(r.dual_coef(j, 0) - coef[static_cast<std::size_t>(i)]));
          ++matched;
        }
    CHECK(matched == r.support_vectors.rows());
    Index nonzero = 0;
    for (double c : coef) nonzero += c != 0.0;
    CHECK(matched == nonzero);
    // each iterate of the second half has |beta_i| <= C n / t <= 2 C
    for (Index j = 0; j < r.dual_coef.rows(); ++j) CHECK(std::fabs(r.dual_coef(j, 0)) <= 2 * p.C + 1e-12);
    CHECK(worst < 1e-9);
  }
}

TEST_CASE("BSCA per-sample boxes: KKT conditions with C_i = C w_i; weight 0 leaves a point out") {
  const Blobs data(80, 2, 23);
  const Params p = unbudgeted_bsca(60);
  std::vector<double> w(static_cast<std::size_t>(data.X.rows()));
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = i % 5 == 0 ? 0.0 : (i % 3 == 0 ? 0.05 : 2.0);
  ViewRows<Dense> rows(Dense(data.X.data(), data.X.rows(), data.X.cols()));
  RunControl control;
  const Result r = test::fit_once(rows, data.y.data(), w.data(), 2, p, {}, control);
  std::vector<double> box(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) box[i] = p.C * w[i];
  const double worst = kkt_violation(r, data.X, data.y, box);
  std::printf("  largest KKT violation with per-sample boxes: %.2e\n", worst);
  CHECK(worst < 1e-2);
  std::vector<double> bad = w;
  bad[2] = -1.0;
  CHECK_THROWS(test::fit_once(rows, data.y.data(), bad.data(), 2, p, {}, control), std::invalid_argument);
}

TEST_CASE("instruments: the primal objective and the alpha counts are reported only when asked") {
  const Checkerboard data(400, 24);
  Params p = base_params(Solver::bsca);
  p.epochs = 3;
  const Result off = train(data.X, data.y, 2, p);
  CHECK(std::isnan(off.history.back().objective) && off.history.back().alpha_zero == -1);
  CHECK(off.history.back().progressive_loss > 0.0);
  p.instruments = true;
  const Result on = train(data.X, data.y, 2, p);
  CHECK(identical(off, on));  // instruments do not change the training
  const EpochStats& s = on.history.back();
  CHECK(std::isfinite(s.objective) && s.objective > 0.5 * s.sq_norm && s.sq_norm > 0.0);
  CHECK(s.alpha_zero + s.alpha_bound + s.alpha_free == 400);
  CHECK(on.totals.merges > 0 && on.totals.merge_degradation > 0.0 && on.totals.merge_partner_weight > 0.0);
}
