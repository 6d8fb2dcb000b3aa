// Tests of model files in C++ (model/format.hpp, model/io.hpp,
// model/from_fit.hpp): models from the three training entry points predict
// as a direct evaluation of their expansion, survive a save / load bit for
// bit, and damaged or hostile files (truncated at every byte, wrong magic, a
// newer version, sizes that disagree, no checksum, non-finite numbers,
// unsorted labels, attributes outside the fixed list, deep JSON, devices
// without end) are std::invalid_argument.
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>
#ifndef _WIN32
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#endif

#include "budgetsvm/core/random.hpp"
#include "budgetsvm/linear/fit.hpp"
#include "budgetsvm/model/from_fit.hpp"
#include "check.hpp"
#include "fit_once.hpp"
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
  return test::fit_once(rows, data.y.data(), classes, p, {}, control);
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
  // every byte flipped in turn: refused (the checksum, required and last, covers every byte before it; its own
  // tag, flags and length are fixed)
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    bad = bytes;
    bad[k] = static_cast<char>(bad[k] ^ 0x5a);
    CHECK_THROWS(model_from_bytes(bad), std::invalid_argument);
  }
  // a file without the checksum (written before it existed, or cut off) is refused
  const std::size_t own = bytes.size() - 20;  // CSUM: tag, flags, length, u32
  std::string old = bytes.substr(0, own);
  for (int b = 0; b < 8; ++b) old[16 + b] = static_cast<char>((static_cast<std::uint64_t>(own) >> (8 * b)) & 0xFF);
  old[24] = static_cast<char>(static_cast<unsigned char>(old[24]) - 1);  // fewer than 256 sections here
  CHECK_THROWS(model_from_bytes(old), std::invalid_argument);
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

namespace {

Model small_budget_model(int classes) {
  const Blobs data(60, classes, 2);
  const std::vector<std::string> names = classes == 2 ? std::vector<std::string>{"a", "b"}
                                                       : std::vector<std::string>{"a", "b", "c"};
  return model_from_budget(budget_fit(data, classes), Kernel{KernelType::rbf, 0.5, 0.0, 3}, 3, names);
}

bool refused(const Model& m) {
  try {
    model_to_bytes(m);  // writes, then reads back with the reader's rules
  } catch (const std::invalid_argument&) {
    return true;
  }
  return false;
}

Model with_attributes(Model m, const std::string& json) {
  m.extra.clear();
  m.extra.push_back({"ATTR", false, json});
  return m;
}

}  // namespace

TEST_CASE("model files: non-finite numbers are refused, as the Python reader refuses them") {
  const Model m = small_budget_model(2);
  CHECK(!refused(m));
  const double bad_values[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()};
  for (double bad : bad_values) {
    Model sv = m;
    sv.sv.values64[3] = bad;
    CHECK(refused(sv));
    Model coef = m;
    coef.coef(1, 0) = bad;
    CHECK(refused(coef));
    Model intercept = m;
    intercept.intercept[0] = bad;
    CHECK(refused(intercept));
    Model gamma = m;
    gamma.kernel.gamma = bad;
    CHECK(refused(gamma));
  }
  Model negative = m;
  negative.kernel.gamma = -2.0;
  CHECK(refused(negative));
}

TEST_CASE("model files: labels must be unique and increasing; the decision rule must fit the family") {
  const Blobs data(60, 2, 2);
  const budget::Result r = budget_fit(data, 2);
  const Kernel kernel{KernelType::rbf, 0.5, 0.0, 3};
  CHECK_THROWS(model_from_budget(r, kernel, 3, std::vector<double>{1.0, 1.0}), std::invalid_argument);
  CHECK_THROWS(model_from_budget(r, kernel, 3, std::vector<double>{2.0, 1.0}), std::invalid_argument);
  CHECK_THROWS(model_from_budget(r, kernel, 3, std::vector<std::string>{"b", "a"}), std::invalid_argument);
  CHECK_THROWS(model_from_budget(r, kernel, 3, std::vector<double>{0.0, std::nan("")}), std::invalid_argument);
  Model m = model_from_budget(r, kernel, 3, std::vector<double>{1.0, 2.0});
  m.rule = DecisionRule::argmax;
  CHECK(refused(m));
  m.rule = DecisionRule::ovo;
  CHECK(refused(m));
}

TEST_CASE("model files: regression and one-class families: their layout, rule and labels are checked") {
  Model base = small_budget_model(2);
  base.extra.clear();
  const Blobs data(40, 2, 5);
  const MatrixXd d = decisions(base, data.view());
  // a regression model: no classes, the rule `value`, predict_values is its decision
  for (ModelFamily f : {ModelFamily::svr, ModelFamily::nu_svr, ModelFamily::budgeted_svr}) {
    Model m = base;
    m.family = f;
    m.rule = DecisionRule::value;
    m.classes = model_format::Array{};
    m.label_text.clear();
    CHECK(!refused(m));
    const Model back = model_from_bytes(model_to_bytes(m));
    CHECK(back.n_classes() == 0 && back.n_outputs() == 1);
    const std::vector<double> values = back.predict_values(data.view());
    for (Index i = 0; i < data.X.rows(); ++i) CHECK(values[static_cast<std::size_t>(i)] == d(i, 0));
    CHECK_THROWS(back.predict(data.view()), std::invalid_argument);
    Model sign = m;
    sign.rule = DecisionRule::sign;
    CHECK(refused(sign));
  }
  // one-class: the labels -1 and +1, the rule sign, a positive value is +1
  for (ModelFamily f : {ModelFamily::one_class_svm, ModelFamily::budgeted_one_class_svm}) {
    Model m = base;
    m.family = f;
    m.classes = LabelTable(std::vector<double>{-1.0, 1.0}).array();
    CHECK(!refused(m));
    const Model back = model_from_bytes(model_to_bytes(m));
    CHECK((back.label_numbers == std::vector<double>{-1.0, 1.0}));
    const auto pred = back.predict(data.view());
    for (Index i = 0; i < data.X.rows(); ++i) CHECK(pred[static_cast<std::size_t>(i)] == (d(i, 0) > 0.0 ? 1 : 0));
    Model other = m;
    other.classes = LabelTable(std::vector<double>{0.0, 1.0}).array();
    CHECK(refused(other));
    Model prob = m;
    prob.prob_a = {-1.0};
    prob.prob_b = {0.0};
    CHECK(refused(prob));
  }
  Model unknown = base;  // a family this version does not know
  unknown.family = static_cast<ModelFamily>(kLastFamily + 1);
  CHECK(refused(unknown));
}

TEST_CASE("model files: integer labels of every width round-trip exactly, uint64 included") {
  const Model base = small_budget_model(2);
  struct Case {
    model_format::Dtype dtype;
    std::vector<std::uint64_t> bits;  // the two labels' bytes, little-endian
    std::vector<std::string> text;
  };
  const std::vector<Case> cases = {
      {model_format::Dtype::u8, {9223372036854775809ULL, 18446744073709551615ULL}, {"9223372036854775809", "18446744073709551615"}},
      {model_format::Dtype::i8, {static_cast<std::uint64_t>(-9223372036854775807LL - 1), 9223372036854775807ULL},
       {"-9223372036854775808", "9223372036854775807"}},
      {model_format::Dtype::u4, {1, 4294967295ULL}, {"1", "4294967295"}},
      {model_format::Dtype::i2, {0xFFFF, 7}, {"-1", "7"}},
      {model_format::Dtype::i1, {0x80, 0x7F}, {"-128", "127"}},
      {model_format::Dtype::u2, {0, 65535}, {"0", "65535"}},
      {model_format::Dtype::f2, {0x2E66, 0x3C00}, {"0.1", "1.0"}},  // float16 0.1 and 1.0
  };
  for (const auto& c : cases) {
    Model m = base;
    m.classes = model_format::Array{};
    m.classes.name = "classes";
    m.classes.dtype = c.dtype;
    m.classes.shape = {2};
    for (auto b : c.bits) model_format::store_uint(m.classes.raw, b, static_cast<int>(model_format::item_size(c.dtype)));
    const Model back = model_from_bytes(model_to_bytes(m));
    CHECK(back.labels() == c.text);
    CHECK(back.classes.raw == m.classes.raw && back.classes.dtype == c.dtype);
  }
}

TEST_CASE("model files: attributes are checked against the family's fixed list and the JSON rules") {
  const Model m = small_budget_model(3);
  CHECK(!refused(with_attributes(m, R"({"attrs": {"t_": 5, "n_samples_seen_": 60}})")));
  CHECK(!refused(with_attributes(m, R"({"params": {"C": 1.0, "kernel": "rbf", "class_weight": {"$dict": [["a", 2.0]]}},
                                        "attrs": {"history_": [{"$dict": [["seconds", {"$float": "nan"}]]}],
                                                  "fit_stats_": {"$dict": [["averaged", {"$np": "<i8", "value": 3}]]},
                                                  "support_vectors_": {"$csr": "csr_matrix", "anything": [1]}}})")));
  const char* hostile[] = {
      R"({"attrs": {"predict": 1}})",                                // a method
      R"({"attrs": {"C": 1.0}})",                                    // a hyperparameter
      R"({"attrs": {"__class__": 1}})",
      R"({"attrs": {"t_": -1}})",                                    // a count below 0
      R"({"attrs": {"t_": 1.5}})",
      R"({"attrs": {"t_": 1, "t_": 2}})",                            // a key twice
      R"({"attrs": {"history_": [{"$np": "V8", "value": 2147483647}]}})",  // np.void(2**31 - 1) from 40 bytes
      R"({"attrs": {"history_": [{"$np": "<u1", "value": 256}]}})",
      R"({"attrs": {"history_": [NaN]}})",
      R"({"attrs": {"history_": [1e400]}})",
      R"({"attrs": {"history_": [18446744073709551616]}})",
      R"({"attrs": {"history_": [{"$array": "attr/0"}]}})",          // arrays are not plain data
      R"({"attrs": {"history_": [{"$dict": [[[1], 2]]}]}})",         // an unhashable key
      R"({"attrs": {"class_weight_": {"$array": "attr/9"}}})",       // a missing array
      R"({"params": {"C": {"$array": "attr/0"}}})",
      R"({"other": {}})",
      R"({"attrs": {}} x)",
      "{\"attrs\": {\"history_\": [\"\xff\"]}}",                     // not UTF-8
  };
  for (const char* text : hostile) CHECK(refused(with_attributes(m, text)));
  // nesting: 64 levels are JSON the reader walks; more are refused, however deep (no stack overflow)
  for (std::size_t depth : {std::size_t{61}, std::size_t{62}, std::size_t{100000}}) {
    const std::string deep = R"({"attrs": {"history_": )" + std::string(depth, '[') + std::string(depth, ']') + "}}";
    CHECK(refused(with_attributes(m, deep)) == (depth > 62));
  }
}

TEST_CASE("model files: a model trained on none of its columns predicts from the rows' norms alone") {
  Model m = small_budget_model(2);
  m.restricted = true;  // wide sparse data whose rows are all zero: no used column, one zero column
  m.used_columns.clear();
  m.sv.cols = 1;
  m.sv.rows = 2;
  m.sv.values64 = {0.0, 0.0};
  m.coef = MatrixXd::Constant(2, 1, 0.75);
  const Model back = model_from_bytes(model_to_bytes(m));
  const RowMatrix X = RowMatrix::Constant(2, 3, 0.5);
  MatrixXd d(2, 1);
  back.decision_function(Dense(X.data(), 2, 3), d);
  for (Index i = 0; i < 2; ++i) CHECK_CLOSE(d(i, 0), 1.5 * std::exp(-0.5 * 0.75) + m.intercept[0], 1e-14);
}

TEST_CASE("model files: reading a file checks its declared size first and never reads past it") {
  CHECK_THROWS(load_model("/dev/zero"), std::invalid_argument);  // 32 zero bytes: not a model file
  const Model m = small_budget_model(2);
  std::string bytes = model_to_bytes(m);
  const std::string path = temp_path("declared.bsvm");
  for (std::uint64_t declared : {std::uint64_t{1} << 31, std::uint64_t{1} << 63}) {
    std::string big = bytes;
    for (int b = 0; b < 8; ++b) big[16 + static_cast<std::size_t>(b)] = static_cast<char>((declared >> (8 * b)) & 0xFF);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << big;
    CHECK_THROWS(load_model(path), std::invalid_argument);
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  CHECK(load_model(path).labels() == m.labels());
  std::string many = bytes;
  many[24] = 0;
  many[26] = 1;  // 65536 sections declared
  CHECK_THROWS(model_from_bytes(many), std::invalid_argument);
}

int main() { return budgetsvm::test::run_all(); }
