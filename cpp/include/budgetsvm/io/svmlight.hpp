// Streaming parser for LIBSVM / svmlight text:
//
//   <label> [qid:<int>] <index>:<value> <index>:<value> ... [# comment]
//
// Indices are 1-based (0-based on request) and strictly increasing within a
// line; blank lines and lines starting with '#' are skipped. Input arrives in
// chunks of any size (the caller decompresses), so a line may straddle two
// chunks. Errors throw std::invalid_argument naming the line number.
//
// Numbers (labels and values) follow one grammar, scan_number below: one
// optional sign, then digits with an optional decimal point and exponent, or
// inf / infinity / nan (read, then refused as not finite). "+-1", "0x10",
// " 1" and "1_0" are not numbers, whatever the standard library's
// conversion would make of them.
//
// Streaming: take(k) hands back the first k complete rows and forgets them, so
// a file larger than memory is read as a sequence of row chunks while a
// partial last line waits for more input. Taken rows are dropped lazily (when
// they are at least half of what is held), so any k costs O(1) per row.
//
// Memory: a line longer than max_line_bytes (16 MiB unless set) is an error
// naming its number, found before more than that is held: input without
// newlines (/dev/zero, a binary file) costs at most the limit, not all memory.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "../core/errors.hpp"

namespace budgetsvm {

namespace detail {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Whether [p, last) starts with the lower-case word (ASCII letters, any case).
inline bool starts_with_word(const char* p, const char* last, const char* word) {
  for (; *word; ++p, ++word)
    if (p == last || (*p | 0x20) != *word) return false;
  return true;
}

/// The end of the number that starts at first, or nullptr if none does. The
/// one grammar of numbers in text the project reads:
///   [+-]? ( digits [. digits?] | . digits ) ( [eE] [+-]? digits )?
///   [+-]? ( inf | infinity | nan )          (any case)
/// An exponent marker without digits is not part of the number (the caller
/// then finds "e" where a separator must be, an error).
inline const char* scan_number(const char* first, const char* last) {
  const char* p = first;
  if (p < last && (*p == '+' || *p == '-')) ++p;
  if (starts_with_word(p, last, "infinity")) return p + 8;
  if (starts_with_word(p, last, "inf")) return p + 3;
  if (starts_with_word(p, last, "nan")) return p + 3;
  std::size_t digits = 0;
  while (p < last && is_digit(*p)) ++p, ++digits;
  if (p < last && *p == '.') {
    ++p;
    while (p < last && is_digit(*p)) ++p, ++digits;
  }
  if (digits == 0) return nullptr;
  if (p < last && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    if (q < last && (*q == '+' || *q == '-')) ++q;
    if (q < last && is_digit(*q)) {
      while (q < last && is_digit(*q)) ++q;
      p = q;
    }
  }
  return p;
}

/// Reads the number at first (scan_number's grammar) into out; returns its
/// end, or nullptr if no number starts there. Values beyond the range of
/// double become +-inf (the callers refuse them), below it 0 or a subnormal.
inline const char* parse_double(const char* first, const char* last, double& out) {
  const char* end = scan_number(first, last);
  if (!end) return nullptr;
  const char* digits = *first == '+' ? first + 1 : first;  // from_chars refuses a leading '+'
  // from_chars for floating point is missing from some standard libraries
  // (older libc++); strtod is the fallback there and for values out of
  // range. The span is the grammar's, so both read the same numbers.
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const auto result = std::from_chars(digits, end, out);
  if (result.ec == std::errc() && result.ptr == end) return end;
#endif
  out = std::strtod(std::string(digits, end).c_str(), nullptr);
  return end;
}

}  // namespace detail

/// Rows moved out of a parser by take(): CSR arrays with indptr from 0.
template <class Scalar>
struct SvmlightRows {
  std::vector<double> labels;
  std::vector<std::int64_t> indices;
  std::vector<Scalar> values;
  std::vector<std::int64_t> indptr{0};
};

/// The longest line (bytes before its newline) a parser accepts unless told
/// otherwise: 16 MiB, a dense row of about a million features written with
/// LIBSVM's %.17g (Python: budgetsvm._limits.MAX_LINE_BYTES, the same).
inline constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

/// What a feature index at or beyond the column limit does: an error naming
/// its line, or (a model that predicts a file with more features than it was
/// trained on, as LIBLINEAR does) dropped, still counted by columns_seen().
enum class ExtraColumns { error, drop };

template <class Scalar>
class SvmlightParser {
 public:
  static constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

  /// zero_based: indices in the file start at 0 instead of 1. column_limit:
  /// a 0-based column >= this is an error naming its line (the caller's
  /// n_features), or dropped with ExtraColumns::drop; kNoLimit accepts any
  /// column. max_line_bytes: the longest line accepted; a longer one is an
  /// error naming its number, raised before more than this is buffered.
  explicit SvmlightParser(bool zero_based = false, std::int64_t column_limit = kNoLimit,
                          std::size_t max_line_bytes = kMaxLineBytes, ExtraColumns extra = ExtraColumns::error)
      : offset_(zero_based ? 0 : 1), column_limit_(column_limit), max_line_bytes_(max_line_bytes), extra_(extra) {
    require(column_limit > 0, "the column limit must be positive");
    require(max_line_bytes > 0, "max_line_bytes must be positive");
    indptr.push_back(0);
  }

  /// Parses a chunk; the part after its last newline waits for the next one.
  void feed(const char* data, std::size_t size) {
    const char* end = data + size;
    const char* cursor = data;
    if (!carry_.empty()) {
      const char* newline = static_cast<const char*>(std::memchr(cursor, '\n', size));
      if (!newline) {
        carry(cursor, end);
        return;
      }
      carry(cursor, newline);
      parse_line(carry_.data(), carry_.data() + carry_.size());
      release_carry();
      cursor = newline + 1;
    }
    while (cursor < end) {
      const char* newline =
          static_cast<const char*>(std::memchr(cursor, '\n', static_cast<std::size_t>(end - cursor)));
      if (!newline) {
        carry(cursor, end);
        return;
      }
      if (static_cast<std::size_t>(newline - cursor) > max_line_bytes_) fail_too_long();
      parse_line(cursor, newline);
      cursor = newline + 1;
    }
  }

  /// Parses a last line that has no trailing newline. Afterwards the public
  /// vectors hold exactly the rows not taken.
  void finish() {
    if (!carry_.empty()) {
      parse_line(carry_.data(), carry_.data() + carry_.size());
      release_carry();
    }
    drop_taken();
  }

  /// Moves out the first min(max_rows, rows()) complete rows.
  SvmlightRows<Scalar> take(std::int64_t max_rows) {
    require(max_rows >= 0, "take: max_rows must be non-negative");
    const std::size_t first = taken_;
    const std::size_t count = static_cast<std::size_t>(std::min(max_rows, rows()));
    const std::size_t last = first + count;
    const auto begin = static_cast<std::ptrdiff_t>(indptr[first]);
    const auto end = static_cast<std::ptrdiff_t>(indptr[last]);
    SvmlightRows<Scalar> out;
    out.labels.assign(labels.begin() + static_cast<std::ptrdiff_t>(first),
                      labels.begin() + static_cast<std::ptrdiff_t>(last));
    out.indices.assign(indices.begin() + begin, indices.begin() + end);
    out.values.assign(values.begin() + begin, values.begin() + end);
    out.indptr.resize(count + 1);
    for (std::size_t i = 0; i <= count; ++i) out.indptr[i] = indptr[first + i] - begin;
    taken_ = last;
    if (2 * taken_ >= labels.size()) drop_taken();  // amortised O(1) per row
    return out;
  }

  /// Complete rows parsed and not yet taken.
  std::int64_t rows() const { return static_cast<std::int64_t>(labels.size() - taken_); }
  /// One more than the largest 0-based column index seen (0 if none),
  /// dropped columns included.
  std::int64_t columns_seen() const { return max_column_ + 1; }
  /// The longest line accepted, in bytes.
  std::size_t max_line_bytes() const { return max_line_bytes_; }

  std::vector<double> labels;
  std::vector<std::int64_t> indices;  // 0-based columns
  std::vector<Scalar> values;
  std::vector<std::int64_t> indptr;

 private:
  // Erases the rows already taken from the front of the public vectors.
  void drop_taken() {
    if (taken_ == 0) return;
    const auto rows_gone = static_cast<std::ptrdiff_t>(taken_);
    const std::int64_t base = indptr[taken_];
    labels.erase(labels.begin(), labels.begin() + rows_gone);
    indices.erase(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(base));
    values.erase(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(base));
    indptr.erase(indptr.begin(), indptr.begin() + rows_gone);
    for (auto& offset : indptr) offset -= base;
    taken_ = 0;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("line " + std::to_string(line_) + ": " + what);
  }

  // The line being read (not yet counted) is longer than the limit.
  [[noreturn]] void fail_too_long() const {
    throw std::invalid_argument("line " + std::to_string(line_ + 1) + ": longer than max_line_bytes=" +
                                std::to_string(max_line_bytes_) +
                                " bytes (binary data, or a file without newlines?)");
  }

  // Appends [a, b) to the partial line, never holding more than the limit
  // (the string's capacity included: no doubling past it).
  void carry(const char* a, const char* b) {
    const auto n = static_cast<std::size_t>(b - a);
    if (n > max_line_bytes_ - carry_.size()) fail_too_long();  // carry_.size() <= max_line_bytes_
    const std::size_t need = carry_.size() + n;
    if (need > carry_.capacity()) carry_.reserve(std::min(max_line_bytes_, std::max(need, 2 * carry_.capacity())));
    carry_.append(a, n);
  }

  // Empties the partial line; a long one's memory is returned.
  void release_carry() {
    if (carry_.capacity() > (std::size_t{1} << 16))
      std::string().swap(carry_);
    else
      carry_.clear();
  }

  void parse_line(const char* p, const char* end) {
    ++line_;
    while (p < end && detail::is_space(*p)) ++p;
    if (p == end || *p == '#') return;  // blank or comment line
    const char* hash = static_cast<const char*>(std::memchr(p, '#', static_cast<std::size_t>(end - p)));
    if (hash) end = hash;
    while (end > p && detail::is_space(end[-1])) --end;

    double label = 0.0;
    const char* q = detail::parse_double(p, end, label);
    if (!q || (q < end && !detail::is_space(*q))) {
      if (q && *q == ',') fail("multi-label lines are not supported");
      fail("cannot parse the label '" + token(p, end) + "'");
    }
    if (!std::isfinite(label)) fail("the label is not a finite number");
    p = q;

    std::int64_t previous = -1;
    while (true) {
      while (p < end && detail::is_space(*p)) ++p;
      if (p == end) break;
      if (end - p > 4 && std::memcmp(p, "qid:", 4) == 0) {  // query ids are ignored
        while (p < end && !detail::is_space(*p)) ++p;
        continue;
      }
      std::int64_t index = 0;
      auto parsed = std::from_chars(p, end, index);
      if (parsed.ec != std::errc() || parsed.ptr == end || *parsed.ptr != ':')
        fail("expected <index>:<value>, found '" + token(p, end) + "'");
      const std::int64_t column = index - offset_;
      if (column < 0)
        fail(offset_ ? "feature indices start at 1 (use zero_based=True for 0-based files)"
                     : "feature indices must be non-negative");
      if (column <= previous) fail("feature indices must be strictly increasing");
      // columns_seen() is column + 1: it must not overflow
      if (column == std::numeric_limits<std::int64_t>::max()) fail("feature index " + token(p, end) + " is too large");
      const bool beyond = column >= column_limit_;
      if (beyond && extra_ == ExtraColumns::error)
        fail("feature index " + std::to_string(index) + " is out of range for n_features=" +
             std::to_string(column_limit_) + " (" + (offset_ ? "1-based" : "0-based") + " indices)");
      const char* value_start = parsed.ptr + 1;
      double value = 0.0;
      const char* after = detail::parse_double(value_start, end, value);
      if (!after || (after < end && !detail::is_space(*after)))
        fail("cannot parse the value in '" + token(p, end) + "'");
      if (!std::isfinite(value)) fail("feature values must be finite");
      // a float32 value out of range would turn into infinity (a cast that is
      // undefined behaviour in C++), not an error
      if (std::fabs(value) > static_cast<double>(std::numeric_limits<Scalar>::max()))
        fail("feature value in '" + token(p, end) + "' is out of the range of float32");
      previous = column;
      if (column > max_column_) max_column_ = column;
      p = after;
      if (beyond) continue;  // ExtraColumns::drop: checked and counted, not kept
      indices.push_back(column);
      values.push_back(static_cast<Scalar>(value));
    }
    labels.push_back(label);
    indptr.push_back(static_cast<std::int64_t>(indices.size()));
  }

  static std::string token(const char* p, const char* end) {
    const char* t = p;
    while (t < end && !detail::is_space(*t)) ++t;
    std::string s(p, t);
    if (s.size() > 40) s = s.substr(0, 40) + "...";
    return s;
  }

  std::int64_t offset_;
  std::int64_t column_limit_;
  std::size_t taken_ = 0;  // rows at the front of the vectors already taken
  std::int64_t line_ = 0;
  std::int64_t max_column_ = -1;
  std::size_t max_line_bytes_;
  ExtraColumns extra_;
  std::string carry_;
};

}  // namespace budgetsvm
