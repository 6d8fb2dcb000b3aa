// Tests of the streaming svmlight parser: any chunking gives the same
// result, and each malformed line is reported with its number.
#include <limits>
#include <string>

#include "budgetsvm/io/svmlight.hpp"
#include "check.hpp"

using namespace budgetsvm;

namespace {

const std::string kText =
    "# a comment line\n"
    "+1 1:0.5 3:-2.25e1 # trailing comment\n"
    "\n"
    "-1 qid:3 2:1\r\n"
    "2.5\n"
    "-1 4:7";  // no final newline

std::string first_error(const std::string& text) {
  SvmlightParser<double> p;
  try {
    p.feed(text.data(), text.size());
    p.finish();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("svmlight: parses labels, entries, comments, qid, CRLF and a last line without newline") {
  SvmlightParser<double> p;
  p.feed(kText.data(), kText.size());
  p.finish();
  CHECK(p.rows() == 4);
  CHECK(p.columns_seen() == 4);
  CHECK((p.labels == std::vector<double>{1.0, -1.0, 2.5, -1.0}));
  CHECK((p.indptr == std::vector<std::int64_t>{0, 2, 3, 3, 4}));
  CHECK((p.indices == std::vector<std::int64_t>{0, 2, 1, 3}));
  CHECK((p.values == std::vector<double>{0.5, -22.5, 1.0, 7.0}));
}

TEST_CASE("svmlight: every split into two chunks and byte-by-byte feeding agree") {
  SvmlightParser<double> whole;
  whole.feed(kText.data(), kText.size());
  whole.finish();
  for (std::size_t cut = 0; cut <= kText.size(); ++cut) {
    SvmlightParser<double> p;
    p.feed(kText.data(), cut);
    p.feed(kText.data() + cut, kText.size() - cut);
    p.finish();
    CHECK(p.labels == whole.labels && p.indices == whole.indices && p.values == whole.values &&
          p.indptr == whole.indptr);
  }
  SvmlightParser<float> bytes;
  for (char c : kText) bytes.feed(&c, 1);
  bytes.finish();
  CHECK(bytes.indices == whole.indices);
  CHECK(bytes.values.size() == whole.values.size() && bytes.values[1] == -22.5f);
}

TEST_CASE("svmlight: malformed lines name the line and the problem") {
  CHECK(first_error("1 1:1\nx 1:2\n").find("line 2: cannot parse the label") == 0);
  CHECK(first_error("1 1:1\n1 2:1\n1 3\n").find("line 3: expected <index>:<value>") == 0);
  CHECK(first_error("1 3:1 2:1\n").find("line 1: feature indices must be strictly increasing") == 0);
  CHECK(first_error("1 2:1 2:1\n").find("strictly increasing") != std::string::npos);
  CHECK(first_error("1 0:1\n").find("start at 1") != std::string::npos);
  CHECK(first_error("1 1:abc\n").find("line 1: cannot parse the value") == 0);
  CHECK(first_error("1 1:nan\n").find("finite") != std::string::npos);
  CHECK(first_error("1,2 1:1\n").find("multi-label") != std::string::npos);
  CHECK(first_error("1 1:1\n\n\n1 -1:2\n").find("line 4:") == 0);
  CHECK(first_error("1 1:1\n2 2:2\n").empty());
}

TEST_CASE("svmlight: zero-based indices") {
  SvmlightParser<double> p(true);
  const std::string text = "1 0:1 5:2\n";
  p.feed(text.data(), text.size());
  p.finish();
  CHECK((p.indices == std::vector<std::int64_t>{0, 5}));
  CHECK(p.columns_seen() == 6);
}

TEST_CASE("svmlight: out-of-range values and indices are errors, not infinity or an overflow") {
  const auto error_of = [](auto parser, const std::string& text) -> std::string {
    try {
      parser.feed(text.data(), text.size());
      parser.finish();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  // found by the fuzz tests: float32 returned inf; INT64_MAX zero-based gave columns_seen() < 0
  CHECK(error_of(SvmlightParser<float>(), "1 1:3.5e38\n").find("range of float32") != std::string::npos);
  CHECK(error_of(SvmlightParser<float>(), "1 1:-1e300\n").find("range of float32") != std::string::npos);
  CHECK(error_of(SvmlightParser<float>(), "1 1:3.4e38\n").empty());
  CHECK(error_of(SvmlightParser<double>(), "1 1:1e300\n").empty());
  CHECK(error_of(SvmlightParser<double>(true), "1 9223372036854775807:1\n").find("too large") != std::string::npos);
  SvmlightParser<double> p;  // 1-based: the same index is column INT64_MAX - 1
  const std::string text = "1 9223372036854775807:1\n";
  p.feed(text.data(), text.size());
  p.finish();
  CHECK(p.columns_seen() == std::numeric_limits<std::int64_t>::max());
}

TEST_CASE("svmlight: take hands back rows in chunks, in order, with any feeding") {
  SvmlightParser<double> whole;
  whole.feed(kText.data(), kText.size());
  whole.finish();
  for (std::int64_t k = 1; k <= 5; ++k) {
    for (std::size_t step = 1; step <= kText.size(); step += 3) {
      SvmlightParser<double> p;
      std::vector<double> labels;
      std::vector<std::int64_t> indices, indptr{0};
      std::vector<double> values;
      const auto drain = [&](std::int64_t need) {
        while (p.rows() >= need && p.rows() > 0) {
          auto rows = p.take(k);
          CHECK(rows.indptr.front() == 0 && rows.indptr.size() == rows.labels.size() + 1);
          CHECK(static_cast<std::int64_t>(rows.labels.size()) <= k);
          for (std::size_t i = 1; i < rows.indptr.size(); ++i) indptr.push_back(indptr.back() + rows.indptr[i] - rows.indptr[i - 1]);
          labels.insert(labels.end(), rows.labels.begin(), rows.labels.end());
          indices.insert(indices.end(), rows.indices.begin(), rows.indices.end());
          values.insert(values.end(), rows.values.begin(), rows.values.end());
        }
      };
      for (std::size_t at = 0; at < kText.size(); at += step) {
        p.feed(kText.data() + at, std::min(step, kText.size() - at));
        drain(k);
      }
      p.finish();
      drain(1);
      CHECK(p.rows() == 0 && p.labels.empty() && p.indptr == std::vector<std::int64_t>{0});
      CHECK(labels == whole.labels && indices == whole.indices && values == whole.values && indptr == whole.indptr);
    }
  }
}

TEST_CASE("svmlight: take of zero rows, and finish keeps exactly the rows not taken") {
  SvmlightParser<float> p;
  const std::string text = "1 1:1\n2 2:2\n3 3:3\n";
  p.feed(text.data(), text.size());
  CHECK(p.take(0).labels.empty() && p.rows() == 3);
  CHECK((p.take(1).labels == std::vector<double>{1.0}));
  p.finish();
  CHECK((p.labels == std::vector<double>{2.0, 3.0}));
  CHECK((p.indptr == std::vector<std::int64_t>{0, 1, 2}));
  CHECK((p.indices == std::vector<std::int64_t>{1, 2}));
}

TEST_CASE("svmlight: a column limit names the line of the first index beyond it") {
  const auto error_of = [](SvmlightParser<double> parser, const std::string& text) -> std::string {
    try {
      parser.feed(text.data(), text.size());
      parser.finish();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_of(SvmlightParser<double>(false, 3), "1 3:1\n1 1:1 4:1\n").find("line 2: feature index 4 is out of range for n_features=3") == 0);
  CHECK(error_of(SvmlightParser<double>(true, 3), "1 2:1\n\n1 3:1\n").find("line 3: feature index 3") == 0);
  CHECK(error_of(SvmlightParser<double>(true, 3), "1 0:1 2:1\n").empty());
  CHECK(error_of(SvmlightParser<double>(false, 3), "1 1:1 3:1\n").empty());
}

int main() { return budgetsvm::test::run_all(); }
