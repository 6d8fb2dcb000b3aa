// Tests of model files in C++ (model/format.hpp, model/io.hpp,
// model/from_fit.hpp): models from the three training entry points predict
// as a direct evaluation of their expansion, survive a save / load bit for
// bit, and damaged files (truncated at every byte, wrong magic, a newer
// version, sizes that disagree) are std::invalid_argument.
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#ifndef _WIN32
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#endif

#include "budgetsvm/budget/fit.hpp"
#include "budgetsvm/core/random.hpp"
#include "budgetsvm/linear/train.hpp"
#include "budgetsvm/model/from_fit.hpp"
#include "check.hpp"
#include "labelled_points.hpp"

#ifndef BUDGETSVM_TEST_OUTPUT_DIR
#define BUDGETSVM_TEST_OUTPUT_DIR "."
#endif

using namespace budgetsvm;

namespace {

using Dense = DenseView<double, Eigen::RowMajor>;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Blobs : test::LabelledPoints {
  Blobs(Index n, int classes, std::uint64_t seed)
      : LabelledPoints(n, 3, seed, [classes](Random& rng, auto& x) {
          const int c = static_cast<int>(rng.below(static_cast<std::uint64_t>(classes)));
          for (Index j = 0; j < 3; ++j) x(j) = (j == c % 3 ? 2.0 : 0.0) + (c >= 3 ? -2.0 : 0.0) + rng.uniform() - 0.5;
          return c;
        }) {}
  Dense view() const { return Dense(X.data(), X.rows(), X.cols()); }
};

budget::Result budget_fit(const Blobs& data, int classes) {
  budget::Params p;
  p.budget = 20;
  p.C = 10.0;
  p.kernel = Kernel{KernelType::rbf, 0.5, 0.0, 3};
  p.epochs = 3;
  p.seed = 3;
  budget::ViewRows<Dense> rows(data.view());
  RunControl control;
  return budget::fit(rows, data.y.data(), classes, p, {}, control);
}

// f(x) by the definition, one kernel value at a time.
double expansion(const Model& m, const RowMatrix& sv, Index col, const Eigen::RowVectorXd& x) {
  double f = m.intercept[static_cast<std::size_t>(col)];
  for (Index j = 0; j < sv.rows(); ++j)
    f += m.coef(j, col) * std::exp(-m.kernel.gamma * (sv.row(j) - x).squaredNorm());
  return f;
}

MatrixXd decisions(const Model& m, const Dense& X) {
  MatrixXd d(X.rows(), m.n_outputs());
  m.decision_function(X, d, 2);
  return d;
}

std::string temp_path(const char* name) { return std::string(BUDGETSVM_TEST_OUTPUT_DIR) + "/" + name; }

}  // namespace

TEST_CASE("model files: a budget::fit result predicts as its expansion and survives save / load exactly") {
  for (int classes : {2, 3}) {
    const Blobs data(150, classes, 11);
    const budget::Result r = budget_fit(data, classes);
    const std::vector<std::string> names = classes == 2 ? std::vector<std::string>{"no", "yes"}
                                                         : std::vector<std::string>{"a", "b", "c"};
    const Model m = model_from_budget(r, Kernel{KernelType::rbf, 0.5, 0.0, 3}, 3, names);
    const MatrixXd d = decisions(m, data.view());
    const RowMatrix sv = r.support_vectors;
    double worst = 0.0;
    for (Index i = 0; i < data.X.rows(); ++i)
      for (Index c = 0; c < m.n_outputs(); ++c) {
        const double ref = expansion(m, sv, c, data.X.row(i));
        worst = std::max(worst, std::fabs(d(i, c) - ref) / std::max(1.0, std::fabs(ref)));
      }
    CHECK(worst < 1e-12);
    const auto pred = m.predict(data.view());
    Index correct = 0;
    for (Index i = 0; i < data.X.rows(); ++i) correct += pred[static_cast<std::size_t>(i)] == data.y[static_cast<std::size_t>(i)];
    CHECK(correct > data.X.rows() * 9 / 10);
    const std::string path = temp_path(classes == 2 ? "budget2.bsvm" : "budget3.bsvm");
    save_model(m, path);
    const Model back = load_model(path);
    CHECK(back.labels() == names);
    CHECK((decisions(back, data.view()).array() == d.array()).all());
    CHECK(back.predict(data.view()) == pred);
    CHECK(back.extra.size() == 1 && back.extra[0].tag == "ATTR" &&
          back.extra[0].payload.find("\"t_\": " + std::to_string(r.steps_total)) != std::string::npos);
  }
}

TEST_CASE("model files: an exact fit becomes an SVC model with LIBSVM's pair layout") {
  const Blobs data(80, 2, 5);
  std::vector<double> y(data.y.size());
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = data.y[i] == 0 ? 1.0 : -1.0;
  const Kernel kernel{KernelType::rbf, 0.7, 0.0, 3};
  ViewKernelSource<Dense> source(data.view(), kernel, {}, 1);
  exact::ExactSettings s;
  s.C = 2.0;
  RunControl control;
  const exact::ExactResult r = exact::fit_exact(source, y, s, control);
  const Model m = model_from_exact(r, data.view(), y, kernel, std::vector<double>{-1.0, 1.0});
  const MatrixXd d = decisions(m, data.view());
  double worst = 0.0;
  for (Index i = 0; i < data.X.rows(); ++i) {
    double f = r.intercept;
    for (Index j = 0; j < data.X.rows(); ++j)
      f += r.alpha[static_cast<std::size_t>(j)] * y[static_cast<std::size_t>(j)] *
           std::exp(-0.7 * (data.X.row(j) - data.X.row(i)).squaredNorm());
    worst = std::max(worst, std::fabs(d(i, 0) - f) / std::max(1.0, std::fabs(f)));
  }
  CHECK(worst < 1e-12);
  CHECK(m.labels() == (std::vector<std::string>{"-1.0", "1.0"}));
  const Model back = model_from_bytes(model_to_bytes(m));
  CHECK((decisions(back, data.view()).array() == d.array()).all());
}

TEST_CASE("model files: a linear one-vs-rest fit predicts W x + b") {
  const Blobs data(120, 4, 9);
  linear::Options o;
  o.bias_scale = 1.0;
  RunControl control;
  const std::vector<double> cw(4, 1.0), sw(data.y.size(), 1.0);
  const auto results = linear::one_vs_rest(data.view(), data.y, 4, 1.0, cw, sw, linear::LossType::squared_hinge,
                                           linear::SelectionType::auto_, o, 1, control);
  const Model m = model_from_linear(results, 3, 1.0, true, std::vector<double>{0, 1, 2, 3});
  const MatrixXd d = decisions(m, data.view());
  for (Index c = 0; c < 4; ++c) {
    const auto& w = results[static_cast<std::size_t>(c)].w;
    for (Index i = 0; i < data.X.rows(); ++i)
      CHECK_CLOSE(d(i, c), data.X(i, 0) * w[0] + data.X(i, 1) * w[1] + data.X(i, 2) * w[2] + w[3], 1e-12);
  }
  const Model back = model_from_bytes(model_to_bytes(m));
  CHECK((decisions(back, data.view()).array() == d.array()).all());
}

TEST_CASE("model files: damaged files are invalid_argument, never a crash") {
  const Blobs data(60, 3, 2);
  const Model m = model_from_budget(budget_fit(data, 3), Kernel{KernelType::rbf, 0.5, 0.0, 3}, 3,
                                    std::vector<std::string>{"a", "b", "c"});
  const std::string bytes = model_to_bytes(m);
  int refused = 0;
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    try {
      model_from_bytes(bytes.substr(0, cut));
    } catch (const std::invalid_argument&) {
      ++refused;
    }
  }
  CHECK(refused == static_cast<int>(bytes.size()));
  std::string bad = bytes;
  bad[1] = 'X';
  CHECK_THROWS(model_from_bytes(bad), std::invalid_argument);
  bad = bytes;
  bad[8] = 2;  // version 2
  CHECK_THROWS(model_from_bytes(bad), std::invalid_argument);
  // every byte after the header flipped in turn: refused by the checksum (the last section), except in the
  // checksum section's own tag and flags, where the file still holds the same model
  MatrixXd want(data.X.rows(), m.n_outputs());
  m.decision_function(data.view(), want);
  const std::size_t own = bytes.size() - 20;  // CSUM: tag, flags, length, u32
  for (std::size_t k = 32; k < bytes.size(); ++k) {
    bad = bytes;
    bad[k] = static_cast<char>(bad[k] ^ 0x5a);
    bool loaded_same = false;
    try {
      const Model loaded = model_from_bytes(bad);
      MatrixXd d(data.X.rows(), loaded.n_outputs());
      loaded.decision_function(data.view(), d);
      loaded_same = d == want;
    } catch (const std::invalid_argument&) {
      CHECK(true);
      continue;
    }
    CHECK(k >= own && k < own + 8 && loaded_same);
  }
  // a file written before the checksum (no CSUM section) loads as it did
  std::string old = bytes.substr(0, own);
  for (int b = 0; b < 8; ++b) old[16 + b] = static_cast<char>((static_cast<std::uint64_t>(own) >> (8 * b)) & 0xFF);
  const std::uint64_t n_sections = static_cast<unsigned char>(old[24]) - 1;  // fewer than 256 sections here
  old[24] = static_cast<char>(n_sections);
  MatrixXd from_old(data.X.rows(), m.n_outputs());
  model_from_bytes(old).decision_function(data.view(), from_old);
  CHECK(from_old == want);
  // a data set with more features than the model's
  const RowMatrix wide = RowMatrix::Zero(4, 5);
  MatrixXd out(4, m.n_outputs());
  CHECK_THROWS(m.decision_function(Dense(wide.data(), 4, 5), out), std::invalid_argument);
  CHECK_THROWS(load_model(temp_path("does-not-exist.bsvm")), std::invalid_argument);
}

#ifndef _WIN32
namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// the names in `folder` that start with `prefix` (save_model's temporary files start with ".<name>.tmp-")
std::vector<std::string> names_in(const std::string& folder, const std::string& prefix) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(folder.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (std::string(e->d_name).rfind(prefix, 0) == 0) out.emplace_back(e->d_name);
    ::closedir(d);
  }
  return out;
}

}  // namespace

TEST_CASE("model files: a failed save leaves the previous file as it was, and no temporary file") {
  const Blobs data(60, 3, 2);
  const Kernel kernel{KernelType::rbf, 0.5, 0.0, 3};
  const std::vector<std::string> names{"a", "b", "c"};
  const Model first = model_from_budget(budget_fit(data, 3), kernel, 3, names);
  const Model second = model_from_budget(budget_fit(Blobs(90, 3, 5), 3), kernel, 3, names);
  const std::string path = temp_path("kept.bsvm");
  save_model(first, path);
  const std::string before = file_bytes(path);
  CHECK(model_to_bytes(second) != before);
  // "File too second" half-way through the write (RLIMIT_FSIZE below the file's size): the old file
  // used to be truncated first, then half rewritten
  const auto handler = std::signal(SIGXFSZ, SIG_IGN);  // EFBIG from write() rather than the signal
  rlimit old{};
  ::getrlimit(RLIMIT_FSIZE, &old);
  rlimit low = old;
  low.rlim_cur = static_cast<rlim_t>(before.size() / 2);
  ::setrlimit(RLIMIT_FSIZE, &low);
  bool refused = false;
  try {
    save_model(second, path);
  } catch (const std::invalid_argument& e) {
    refused = std::string(e.what()).find("kept.bsvm") != std::string::npos;
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, handler);
  CHECK(refused);
  CHECK(file_bytes(path) == before);
  CHECK(names_in(BUDGETSVM_TEST_OUTPUT_DIR, ".kept.bsvm.tmp-").empty());
  // a target that is a folder, or in a folder that does not exist: refused, nothing left behind
  const std::string folder = temp_path("a-folder.bsvm");
  ::mkdir(folder.c_str(), 0777);
  CHECK_THROWS(save_model(first, folder), std::invalid_argument);
  CHECK(names_in(folder, "").size() == 2);  // "." and ".."
  CHECK(names_in(BUDGETSVM_TEST_OUTPUT_DIR, ".a-folder.bsvm.tmp-").empty());
  CHECK_THROWS(save_model(first, temp_path("no-such-folder/m.bsvm")), std::invalid_argument);
  // a successful save replaces the file whole and keeps its permission bits
  ::chmod(path.c_str(), 0640);
  save_model(second, path);
  CHECK(file_bytes(path) == model_to_bytes(second));
  struct stat st {};
  CHECK(::stat(path.c_str(), &st) == 0 && (st.st_mode & 0777) == 0640);
  CHECK(names_in(BUDGETSVM_TEST_OUTPUT_DIR, ".kept.bsvm.tmp-").empty());
  // a symbolic link is written through (the link stays); /dev/null is written, not renamed over
  const std::string link = temp_path("link.bsvm");
  ::unlink(link.c_str());
  CHECK(::symlink(path.c_str(), link.c_str()) == 0);
  save_model(first, link);
  CHECK(::lstat(link.c_str(), &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(file_bytes(path) == model_to_bytes(first));
  save_model(first, "/dev/null");
  CHECK(::stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
}
#endif

int main() { return budgetsvm::test::run_all(); }
