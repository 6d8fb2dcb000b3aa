// Tests of the streaming svmlight parser: any chunking gives the same
// result, and each malformed line is reported with its number.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

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

/// The message of what feeding text to parser (in pieces of `step` bytes;
/// 0: all at once) and finishing throws; empty if nothing.
template <class Parser>
std::string error_of(Parser&& parser, const std::string& text, std::size_t step = 0) {
  try {
    if (step == 0) {
      parser.feed(text.data(), text.size());
    } else {
      for (std::size_t at = 0; at < text.size(); at += step) parser.feed(text.data() + at, std::min(step, text.size() - at));
    }
    parser.finish();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string first_error(const std::string& text) { return error_of(SvmlightParser<double>(), text); }

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
  CHECK(error_of(SvmlightParser<double>(false, 3), "1 3:1\n1 1:1 4:1\n").find("line 2: feature index 4 is out of range for n_features=3") == 0);
  CHECK(error_of(SvmlightParser<double>(true, 3), "1 2:1\n\n1 3:1\n").find("line 3: feature index 3") == 0);
  CHECK(error_of(SvmlightParser<double>(true, 3), "1 0:1 2:1\n").empty());
  CHECK(error_of(SvmlightParser<double>(false, 3), "1 1:1 3:1\n").empty());
}

TEST_CASE("svmlight: numbers take one optional sign (issue 64: '+-1' was read as -1)") {
  // refused: two signs, in labels and values, in either order
  for (const char* bad : {"+-1", "-+1", "++1", "--1", "+-0.5", "-+inf"}) {
    CHECK(first_error(std::string(bad) + " 1:1\n").find("line 1: cannot parse the label") == 0);
    CHECK(first_error(std::string("1 1:") + bad + "\n").find("line 1: cannot parse the value") == 0);
  }
  // not numbers in this grammar, though some standard conversions read them
  for (const char* bad : {"0x10", "1_0", "1e", "1e+", ".", "+", "-", "e5", "1..2", "1.2.3", "nan(1)", "infinit"})
    CHECK(first_error(std::string("1 1:") + bad + "\n").find("line 1: cannot parse the value") == 0);
  CHECK(first_error("1 1: 5\n").find("line 1: cannot parse the value") == 0);  // no space after ':'
  // accepted: one sign or none, integer / decimal / exponent forms
  const std::vector<std::pair<std::string, double>> good{
      {"+1", 1.0},      {"-1", -1.0},     {"1.", 1.0},          {".5", 0.5},        {"-.5", -0.5},
      {"+.5e+3", 500.0}, {"1E-3", 1e-3},  {"-2.5e1", -25.0},    {"007", 7.0},       {"1e-400", 0.0},
      {"0", 0.0},       {"-0", -0.0},     {"1e308", 1e308},     {"4.9e-324", 4.9e-324}};
  for (const auto& [text, value] : good) {
    SvmlightParser<double> p;
    std::string line = text;
    line += " 1:";
    line += text;
    line += '\n';
    p.feed(line.data(), line.size());
    p.finish();
    CHECK(p.labels.size() == 1 && p.labels[0] == value && p.values.size() == 1 && p.values[0] == value);
  }
  // inf and nan are numbers of the grammar, refused as not finite
  for (const char* word : {"inf", "-INF", "+Infinity", "nan", "NaN"}) {
    CHECK(first_error(std::string(word) + " 1:1\n").find("not a finite number") != std::string::npos);
    CHECK(first_error(std::string("1 1:") + word + "\n").find("must be finite") != std::string::npos);
  }
  CHECK(first_error("1e400 1:1\n").find("not a finite number") != std::string::npos);
}

TEST_CASE("svmlight: detail::scan_number is the grammar, token by token") {
  const auto accepted = [](const std::string& t) {
    const char* end = detail::scan_number(t.data(), t.data() + t.size());
    return end == t.data() + t.size();
  };
  for (const char* t : {"1", "+1", "-1", "1.5", "1.", ".5", "1e5", "1E+5", "1e-5", "-.5e-5", "inf", "-Infinity", "NAN"})
    CHECK(accepted(t));
  for (const char* t : {"", "+", "-", ".", "+-1", "-+1", "1e", "e1", "0x1", "1_0", " 1", "1 ", "infx", "1.2.3"})
    CHECK(!accepted(t));
}

TEST_CASE("svmlight: a line longer than max_line_bytes is an error naming it and the limit, in any chunking") {
  const std::string text = "1 1:1\n-1 2:1234567890\n1 1:2\n";  // line 2 has 15 bytes
  for (std::size_t limit : {std::size_t{14}, std::size_t{15}}) {
    for (std::size_t step = 1; step <= text.size(); ++step) {
      SvmlightParser<double> p(false, SvmlightParser<double>::kNoLimit, limit);
      const std::string error = error_of(p, text, step);
      if (limit == 14)
        CHECK(error.find("line 2: longer than max_line_bytes=14 bytes") == 0);
      else
        CHECK(error.empty() && p.rows() == 3);
    }
  }
  // a last line without a newline counts too
  const std::string last = "1 1:1\n1 1:12";
  const std::string error = error_of(SvmlightParser<double>(false, SvmlightParser<double>::kNoLimit, 4), last);
  CHECK(error.find("line 1: longer than max_line_bytes=4") == 0);
}

TEST_CASE("svmlight: input without newlines is refused by the block that would pass the limit") {
  // /dev/zero or 20 MB of digits: fed a block at a time, the error comes
  // once the partial line would pass the limit
  const std::size_t limit = std::size_t{1} << 20;
  for (char fill : {'\0', '7'}) {
    SvmlightParser<float> p(false, SvmlightParser<float>::kNoLimit, limit);
    const std::vector<char> block(std::size_t{1} << 16, fill);
    std::size_t fed = 0;
    std::string error;
    try {
      while (fed < 64 * limit) {
        p.feed(block.data(), block.size());
        fed += block.size();
      }
    } catch (const std::invalid_argument& e) {
      error = e.what();
    }
    CHECK(error.find("line 1: longer than max_line_bytes=1048576 bytes") == 0);
    CHECK(fed == limit);  // the block that would pass the limit is the one refused
  }
  CHECK(kMaxLineBytes == std::size_t{16} << 20);
  CHECK(SvmlightParser<double>().max_line_bytes() == kMaxLineBytes);
}

TEST_CASE("svmlight: ExtraColumns::drop checks and counts indices beyond the limit but keeps only the others") {
  SvmlightParser<double> p(false, 3, kMaxLineBytes, ExtraColumns::drop);
  const std::string text = "1 1:1 3:3 4:4 9:9\n-1 5:5\n2 2:2\n";
  p.feed(text.data(), text.size());
  p.finish();
  CHECK(p.rows() == 3 && p.columns_seen() == 9);
  CHECK((p.indices == std::vector<std::int64_t>{0, 2, 1}));
  CHECK((p.values == std::vector<double>{1.0, 3.0, 2.0}));
  CHECK((p.indptr == std::vector<std::int64_t>{0, 2, 2, 3}));
  // dropped entries are still checked: order and values
  const auto drop_error = [](const std::string& bad) {
    return error_of(SvmlightParser<double>(false, 3, kMaxLineBytes, ExtraColumns::drop), bad);
  };
  CHECK(drop_error("1 5:1 4:1\n").find("strictly increasing") != std::string::npos);
  CHECK(drop_error("1 5:+-1\n").find("cannot parse the value") != std::string::npos);
  CHECK(drop_error("1 5:nan\n").find("finite") != std::string::npos);
}

int main() { return budgetsvm::test::run_all(); }
