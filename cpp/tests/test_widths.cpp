// A model predicts only data of its own width: a data view with fewer or
// more columns than the model's n_features is std::invalid_argument naming
// both widths (issue 64: a model of 123 features predicted a file of 22
// without a word), for linear and kernel models, dense and CSR views, and
// through the svmlight reader with the model's width as its column limit.
#include <cstdint>
#include <string>
#include <vector>

#include "budgetsvm/io/svmlight.hpp"
#include "budgetsvm/model/model.hpp"
#include "check.hpp"

using namespace budgetsvm;

namespace {

using Dense = DenseView<double, Eigen::RowMajor>;
using Csr = CsrView<double, std::int64_t>;

Model linear_model() {
  Model m;
  m.family = ModelFamily::linear_svc;
  m.rule = DecisionRule::sign;
  m.n_features = 3;
  m.label_text = {"-1", "1"};
  m.label_numbers = {-1.0, 1.0};
  m.weights = MatrixXd(1, 3);
  m.weights << 1.0, -2.0, 0.5;
  m.intercept = {0.25};
  return m;
}

Model kernel_model() {
  Model m;
  m.family = ModelFamily::budgeted_svc;
  m.rule = DecisionRule::sign;
  m.kernel = Kernel{KernelType::rbf, 0.5, 0.0, 3};
  m.n_features = 3;
  m.label_text = {"a", "b"};
  m.sv.rows = 2;
  m.sv.cols = 3;
  m.sv.values64 = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0};
  m.coef = MatrixXd(2, 1);
  m.coef << 1.0, -1.0;
  m.intercept = {0.0};
  return m;
}

// The message of the std::invalid_argument that f throws ("" if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool names_both(const std::string& message, Index data, Index model) {
  return message.find("X has " + std::to_string(data) + " features") != std::string::npos &&
         message.find("expects " + std::to_string(model)) != std::string::npos;
}

}  // namespace

TEST_CASE("widths: a dense view narrower or wider than the model is an error naming both widths") {
  for (const Model& m : {linear_model(), kernel_model()}) {
    for (Index width : {1, 2, 4, 123}) {
      const std::vector<double> values(static_cast<std::size_t>(2 * width), 0.5);
      const Dense X(values.data(), 2, width);
      CHECK(names_both(error_of([&] { m.predict(X); }), width, 3));
      MatrixXd out(2, 1);
      CHECK(names_both(error_of([&] { m.decision_function(X, out); }), width, 3));
    }
    const std::vector<double> values(6, 0.5);
    CHECK(error_of([&] { m.predict(Dense(values.data(), 2, 3)); }).empty());
  }
}

TEST_CASE("widths: a CSR view of another width is an error, whatever its entries") {
  // row 0: columns 0 and 1; row 1: column 1 (valid in every width from 2 up)
  const std::vector<double> values{1.0, 2.0, 3.0};
  const std::vector<std::int64_t> indices{0, 1, 1}, indptr{0, 2, 3};
  for (const Model& m : {linear_model(), kernel_model()}) {
    for (Index width : {2, 4, 22, 123}) {
      const Csr X(values.data(), indices.data(), indptr.data(), 2, width);
      CHECK(names_both(error_of([&] { m.predict(X); }), width, 3));
    }
    const Csr X(values.data(), indices.data(), indptr.data(), 2, 3);
    CHECK(error_of([&] { m.predict(X); }).empty());
  }
}

TEST_CASE("widths: a model trained on its used columns checks the full width too") {
  Model m = kernel_model();
  m.n_features = 10;
  m.used_columns = {0, 4, 7};
  m.restricted = true;  // trained on used_columns (model.hpp), not on all ten columns
  const std::vector<double> values(2 * 9, 0.5);
  CHECK(names_both(error_of([&] { m.predict(Dense(values.data(), 2, 9)); }), 9, 10));
  const std::vector<double> full(2 * 10, 0.5);
  CHECK(error_of([&] { m.predict(Dense(full.data(), 2, 10)); }).empty());
}

TEST_CASE("widths: svmlight data read with the model's width as the column limit") {
  const Model m = linear_model();
  // fewer columns than the model's: normal, the view takes the model's width
  const std::string narrow = "1 1:1\n-1 2:1\n";
  SvmlightParser<double> p(false, m.n_features);
  p.feed(narrow.data(), narrow.size());
  p.finish();
  CHECK(p.columns_seen() == 2);
  const Csr X(p.values.data(), p.indices.data(), p.indptr.data(), p.rows(), m.n_features);
  CHECK((m.predict(X) == std::vector<int>{1, 0}));
  // a larger index than the model's features: an error naming the line and both widths
  const std::string wide = "1 1:1\n-1 2:1 4:1\n";
  const std::string message = error_of([&] {
    SvmlightParser<double> q(false, m.n_features);
    q.feed(wide.data(), wide.size());
    q.finish();
  });
  CHECK(message.find("line 2: feature index 4 is out of range for n_features=3") == 0);
}

int main() { return budgetsvm::test::run_all(); }
