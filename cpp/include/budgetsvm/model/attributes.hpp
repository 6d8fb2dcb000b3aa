// The rules of a model file's ATTR section (docs/model_format.md, "ATTR"):
// one implementation, used by the C++ reader (io.hpp) and, through the
// binding _core.check_model_attributes, by Python's load_model before it
// decodes anything, so both readers accept exactly the same attributes.
//
// ATTR is a JSON text that declares data, never behaviour:
//   * strict JSON (RFC 8259) in strict UTF-8: no NaN / Infinity literals, no
//     duplicate keys, at most kMaxJsonDepth nested arrays and objects,
//     integers within [-2^63, 2^64 - 1], finite numbers;
//   * the top level is {"params": {...}, "attrs": {...}} (both optional);
//   * params: any names (the Python reader sets only the estimator's own
//     hyperparameters), each value plain data;
//   * attrs: only the names of the family's fixed list (attribute_rules),
//     each value of its rule's kind, type, dtype and shape; any other name
//     (a method's, a parameter's, an unknown one) is refused.
// Plain data is null, booleans, numbers, strings, lists, and the markers
// {"$float": "nan" | "inf" | "-inf"}, {"$np": dtype, "value": v} (a numpy
// scalar of a fixed list of dtypes, v in its range), {"$tuple": [...]} and
// {"$dict": [[key, value], ...]} (scalar keys); nothing else. The check runs
// in one pass without building the document (memory: its depth), and is
// done before any value is built, so nothing a file declares is allocated
// before it is checked.
#pragma once

#include <charconv>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "format.hpp"

namespace budgetsvm::model_format {

/// The deepest nesting of arrays and objects an ATTR text may have.
inline constexpr int kMaxJsonDepth = 64;

/// How an attribute is checked and restored.
enum class AttrKind {
  derived,      // restored from the model's arrays; the file's copy is not read (any JSON)
  count,        // an integer in [0, 2^63)
  flag,         // true or false
  shape,        // {"$tuple": [rows, columns]}, two counts
  array,        // {"$array": "attr/<n>"}, an ARRY section of the rule's dtype and shape
  report_list,  // a list of plain data (fit reports)
  report_dict,  // {"$dict": [...]} of plain data (fit reports)
  report,       // plain data of any form: a number, a string, a list (fit reports)
};

/// A dimension of an array attribute's shape.
enum class Dim { any, classes, pairs, support_vectors, features };

struct AttrRule {
  const char* name;
  AttrKind kind;
  Dtype dtype = Dtype::f8;  // array only
  int ndim = 0;
  Dim dims[2] = {Dim::any, Dim::any};
};

/// Estimator families, by their code in MODL.
inline constexpr int kFamilySVC = 1, kFamilyLinearSVC = 2, kFamilyBudgetedSVC = 3, kFamilySVR = 4, kFamilyNuSVR = 5,
                     kFamilyNuSVC = 6, kFamilyOneClassSVM = 7, kFamilyBudgetedSVR = 8,
                     kFamilyBudgetedOneClassSVM = 9;

/// The attributes a file may hold for a family: every fitted attribute the
/// Python estimator has (tests/test_model_files_hostile.py checks that every
/// fit's attributes are on it).
inline const std::vector<AttrRule>& attribute_rules(int family) {
  using K = AttrKind;
  // A kernel expansion's (SVC's and BudgetedSVC's) first rules, then each family's own,
  // in the order a file lists them.
  const auto expansion = [](std::vector<AttrRule> rest) {
    std::vector<AttrRule> rules = {
        {"classes_", K::derived},   {"n_features_in_", K::derived}, {"support_vectors_", K::derived},
        {"dual_coef_", K::derived}, {"intercept_", K::derived},     {"n_support_", K::derived},
    };
    rules.insert(rules.end(), rest.begin(), rest.end());
    return rules;
  };
  static const std::vector<AttrRule> svc = expansion({
      {"probA_", K::derived},
      {"probB_", K::derived},
      {"feature_names_in_", K::array, Dtype::utf8, 1, {Dim::features}},
      {"class_weight_", K::array, Dtype::f8, 1, {Dim::classes}},
      {"support_", K::array, Dtype::i4, 1, {Dim::support_vectors}},
      {"n_iter_", K::array, Dtype::i4, 1, {Dim::pairs}},
      {"dual_objective_", K::array, Dtype::f8, 1, {Dim::pairs}},
      {"shape_fit_", K::shape},
      {"fit_status_", K::count},
      {"fit_details_", K::report_list},
      {"solver_", K::report_list},
      {"_probability", K::flag},
      {"_sparse", K::flag},
  });
  static const std::vector<AttrRule> linear = {
      {"classes_", K::derived},
      {"n_features_in_", K::derived},
      {"coef_", K::derived},
      {"intercept_", K::derived},
      {"feature_names_in_", K::array, Dtype::utf8, 1, {Dim::features}},
      {"alpha_", K::array, Dtype::f8, 2, {Dim::any, Dim::any}},
      {"fit_stats_", K::report_list},
      {"n_iter_", K::count},
  };
  static const std::vector<AttrRule> budgeted = expansion({
      {"gamma_", K::derived},
      {"feature_names_in_", K::array, Dtype::utf8, 1, {Dim::features}},
      {"class_weight_", K::array, Dtype::f8, 1, {Dim::classes}},
      {"n_iter_", K::count},
      {"t_", K::count},
      {"n_samples_seen_", K::count},
      {"history_", K::report_list},
      {"fit_stats_", K::report_dict},
  });
  // The single-output kernel families (regression, novelty detection): no
  // classes; the expansion's arrays derived as for the classifiers.
  const auto single = [](std::vector<AttrRule> rest) {
    std::vector<AttrRule> rules = {
        {"n_features_in_", K::derived}, {"support_vectors_", K::derived}, {"dual_coef_", K::derived},
        {"intercept_", K::derived},     {"n_support_", K::derived},       {"offset_", K::derived},
        {"feature_names_in_", K::array, Dtype::utf8, 1, {Dim::features}},
    };
    rules.insert(rules.end(), rest.begin(), rest.end());
    return rules;
  };
  // SVR, NuSVR, OneClassSVM: an exact fit's report.
  static const std::vector<AttrRule> exact_single = single({
      {"support_", K::array, Dtype::i4, 1, {Dim::support_vectors}},
      {"class_weight_", K::array, Dtype::f8, 1, {Dim::any}},
      {"n_iter_", K::count},
      {"dual_objective_", K::report},
      {"epsilon_", K::report},  // NuSVR: the epsilon its nu gave
      {"shape_fit_", K::shape},
      {"fit_status_", K::count},
      {"solver_", K::report},
      {"_sparse", K::flag},
  });
  // BudgetedSVR, BudgetedOneClassSVM: a budgeted fit's report.
  static const std::vector<AttrRule> budgeted_single = single({
      {"gamma_", K::derived},
      {"n_iter_", K::count},
      {"t_", K::count},
      {"n_samples_seen_", K::count},
      {"history_", K::report_list},
      {"fit_stats_", K::report_dict},
  });
  static const std::vector<AttrRule> none;
  switch (family) {
    case kFamilySVC:
    case kFamilyNuSVC: return svc;
    case kFamilyLinearSVC: return linear;
    case kFamilyBudgetedSVC: return budgeted;
    case kFamilySVR:
    case kFamilyNuSVR:
    case kFamilyOneClassSVM: return exact_single;
    case kFamilyBudgetedSVR:
    case kFamilyBudgetedOneClassSVM: return budgeted_single;
    default: return none;
  }
}

inline const char* kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::derived: return "derived";
    case AttrKind::count: return "count";
    case AttrKind::flag: return "flag";
    case AttrKind::shape: return "shape";
    case AttrKind::array: return "array";
    case AttrKind::report_list: return "report_list";
    case AttrKind::report_dict: return "report_dict";
    case AttrKind::report: return "report";
  }
  return "?";
}

/// The model's sizes the array attributes' shapes refer to.
struct AttributeDims {
  std::uint64_t n_classes = 0, n_support_vectors = 0, n_features = 0;
};

/// dtype and shape of one "attr/<n>" array.
struct ArrayInfo {
  Dtype dtype = Dtype::f8;
  std::vector<std::uint64_t> shape;
};

namespace detail::attr_json {

/// A scalar's summary: enough to check a marker's value.
struct Scalar {
  enum Type { none, null, boolean, integer, number, string, float_marker, np_marker, other } type = none;
  bool negative = false;
  std::uint64_t magnitude = 0;  // integers
  std::string text;             // strings
};

/// The dtypes a {"$np": ...} scalar may have: (code, bits, kind 'b' / 'i' / 'u' / 'f').
inline bool np_scalar_type(const std::string& dtype, int& bits, char& kind) {
  if (dtype.size() < 3 || std::string("<>|=").find(dtype[0]) == std::string::npos) return false;
  const std::string code = dtype.substr(1);
  static const char* const names[] = {"b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8"};
  for (const char* n : names)
    if (code == n) {
      kind = n[0];
      bits = 8 * (n[1] - '0');
      return true;
    }
  return false;
}

class Checker {
 public:
  Checker(const std::string& text, int family, const AttributeDims& dims, const std::map<std::string, ArrayInfo>& arrays)
      : s_(text), family_(family), dims_(dims), arrays_(arrays) {}

  void run() {
    require(valid_utf8(s_.data(), s_.size()), "its attributes are not UTF-8");
    ws();
    object(0, [&](const std::string& key, int depth) {
      if (key == "params") {
        expect_char('{', "\"params\" must be a JSON object");
        object(depth, [&](const std::string&, int d) { plain(d); });
      } else if (key == "attrs") {
        expect_char('{', "\"attrs\" must be a JSON object");
        object(depth, [&](const std::string& name, int d) { attribute(name, d); });
      } else {
        fail("unknown key '" + key + "' at the top level (expected \"params\" and \"attrs\")");
      }
    });
    ws();
    if (pos_ != s_.size()) fail("text after the JSON object");
  }

 private:
  const std::string& s_;
  int family_;
  const AttributeDims& dims_;
  const std::map<std::string, ArrayInfo>& arrays_;
  std::size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("model file attributes: " + what + " (at byte " + std::to_string(pos_) +
                                "; damaged model file)");
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool at_end() const { return pos_ >= s_.size(); }
  void ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  void expect_char(char c, const std::string& what) {
    ws();
    if (at_end() || peek() != c) fail(what);
  }

  // ---- JSON grammar -----------------------------------------------------

  /// An object: '{' members '}', keys unique; member(key, depth) parses a value.
  template <class F>
  void object(int depth, F&& member) {
    std::set<std::string> keys;
    sequence('{', '}', "object", depth, [&](int d) {
      if (peek() != '"') fail("expected a string key");
      std::string key = string();
      if (!keys.insert(key).second) fail("key '" + key + "' appears twice in one object");
      ws();
      if (peek() != ':') fail("expected ':'");
      ++pos_;
      ws();
      member(key, d);
    });
  }

  /// An array: '[' elements ']'; element(index, depth) parses a value.
  template <class F>
  void array(int depth, F&& element) {
    std::size_t i = 0;
    sequence('[', ']', "array", depth, [&](int d) { element(i++, d); });
  }

  /// The frame both share: open, items separated by ',', close, at most kMaxJsonDepth deep;
  /// item(depth) parses one item, white space before it already skipped.
  template <class F>
  void sequence(char open, char close, const char* kind, int depth, F&& item) {
    ws();
    if (peek() != open) fail(std::string("expected a JSON ") + kind);
    if (depth + 1 > kMaxJsonDepth) fail("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    ++pos_;
    ws();
    if (peek() == close) {
      ++pos_;
      return;
    }
    for (;;) {
      ws();
      item(depth + 1);
      ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == close) {
        ++pos_;
        return;
      }
      fail(std::string("expected ',' or '") + close + "'");
    }
  }

  static void put_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {  // lone surrogates too (as Python keeps them): never equal to a valid name
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::uint32_t hex4() {
    if (s_.size() - pos_ < 4) fail("a \\u escape is cut short");
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else fail("a \\u escape needs 4 hexadecimal digits");
    }
    return v;
  }

  /// A string, its escapes decoded (surrogate pairs joined, as Python's json).
  std::string string() {
    ++pos_;  // the opening quote
    std::string out;
    for (;;) {
      if (at_end()) fail("a string is not closed");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (at_end()) fail("a string is not closed");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF && s_.size() - pos_ >= 6 && s_[pos_] == '\\' && s_[pos_ + 1] == 'u') {
            const std::size_t back = pos_;
            pos_ += 2;
            const std::uint32_t low = hex4();
            if (low >= 0xDC00 && low <= 0xDFFF)
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            else
              pos_ = back;  // a lone high surrogate, then another escape
          }
          put_utf8(out, cp);
          break;
        }
        default: fail("an unknown escape in a string");
      }
    }
  }

  /// A number: JSON's grammar; integers within [-2^63, 2^64 - 1], others finite.
  Scalar number() {
    Scalar out;
    const std::size_t begin = pos_;
    if (peek() == '-') {
      out.negative = true;
      ++pos_;
    }
    const auto digit = [&] { return !at_end() && peek() >= '0' && peek() <= '9'; };
    if (!digit()) fail("a malformed number");
    bool overflow = false;
    if (peek() == '0') {
      ++pos_;
    } else {
      while (digit()) {
        const auto d = static_cast<std::uint64_t>(peek() - '0');
        if (out.magnitude > (UINT64_MAX - d) / 10) overflow = true;
        out.magnitude = out.magnitude * 10 + d;
        ++pos_;
      }
    }
    bool integer = true;
    if (peek() == '.') {
      integer = false;
      ++pos_;
      if (!digit()) fail("a malformed number");
      while (digit()) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      integer = false;
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digit()) fail("a malformed number");
      while (digit()) ++pos_;
    }
    if (integer) {
      const std::uint64_t limit = out.negative ? (std::uint64_t{1} << 63) : UINT64_MAX;
      if (overflow || out.magnitude > limit) fail("an integer outside [-2^63, 2^64 - 1]");
      out.type = Scalar::integer;
      return out;
    }
    double value = 0.0;
    const auto result = std::from_chars(s_.data() + begin, s_.data() + pos_, value);
    if (result.ec == std::errc::result_out_of_range && overflows(begin)) fail("a number too large for a float");
    out.type = Scalar::number;
    return out;
  }

  /// Whether the number text from `begin` (out of double's range) is too large rather than too small.
  bool overflows(std::size_t begin) const {
    long long shift = 0;  // the power of ten of the first significant digit
    long long exponent = 0;
    bool seen_point = false, significant = false;
    std::size_t p = begin;
    if (s_[p] == '-') ++p;
    for (; p < pos_ && s_[p] != 'e' && s_[p] != 'E'; ++p) {
      if (s_[p] == '.') {
        seen_point = true;
      } else if (!seen_point) {
        significant = significant || s_[p] != '0';
        if (significant) ++shift;  // digits before the point, from the first significant one
      } else if (!significant) {
        --shift;  // zeros after the point, and the first significant digit
        significant = s_[p] != '0';
      }
    }
    if (shift > 0) --shift;  // n digits before the point: 10^(n - 1)
    if (p < pos_) {
      ++p;
      const bool minus = s_[p] == '-';
      if (s_[p] == '+' || s_[p] == '-') ++p;
      for (; p < pos_; ++p) exponent = std::min<long long>(exponent * 10 + (s_[p] - '0'), 1LL << 40);
      if (minus) exponent = -exponent;
    }
    return shift + exponent > 0;
  }

  void literal(const char* word) {
    const std::size_t n = std::strlen(word);
    if (s_.compare(pos_, n, word) != 0) fail("an unknown literal (NaN and Infinity are not JSON)");
    pos_ += n;
  }

  /// Any JSON value (derived attributes: checked as JSON, not read).
  void any(int depth) {
    ws();
    switch (peek()) {
      case '{': object(depth, [&](const std::string&, int d) { any(d); }); return;
      case '[': array(depth, [&](std::size_t, int d) { any(d); }); return;
      default: scalar();
    }
  }

  /// A JSON scalar (not an array or object).
  Scalar scalar() {
    ws();
    Scalar out;
    switch (peek()) {
      case '"':
        out.type = Scalar::string;
        out.text = string();
        return out;
      case 't': literal("true"); out.type = Scalar::boolean; return out;
      case 'f': literal("false"); out.type = Scalar::boolean; return out;
      case 'n': literal("null"); out.type = Scalar::null; return out;
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return number();
        if (at_end()) fail("the text ends inside a value");
        fail("an unknown literal (NaN and Infinity are not JSON)");
    }
  }

  /// Plain data: a scalar, a list, or a marker object; returns its summary.
  Scalar plain(int depth) {
    ws();
    if (peek() == '[') {
      array(depth, [&](std::size_t, int d) { plain(d); });
      Scalar out;
      out.type = Scalar::other;
      return out;
    }
    if (peek() != '{') return scalar();
    return marker(depth);
  }

  /// A marker object of plain data: $float, $np + value, $tuple, $dict.
  Scalar marker(int depth) {
    Scalar value, dtype, special;
    bool has_value = false, has_np = false, has_float = false, has_tuple = false, has_dict = false;
    object(depth, [&](const std::string& key, int d) {
      if (key == "$float") {
        has_float = true;
        special = scalar();
        if (special.type != Scalar::string || (special.text != "nan" && special.text != "inf" && special.text != "-inf"))
          fail("a $float marker must hold \"nan\", \"inf\" or \"-inf\"");
      } else if (key == "$np") {
        has_np = true;
        dtype = scalar();
      } else if (key == "value") {
        has_value = true;
        ws();
        value = peek() == '{' ? marker(d) : scalar();
      } else if (key == "$tuple") {
        has_tuple = true;
        array(d, [&](std::size_t, int e) { plain(e); });
      } else if (key == "$dict") {
        has_dict = true;
        array(d, [&](std::size_t, int e) { pair(e); });
      } else {
        fail("unknown marker '" + key + "' (a value of a type model files do not hold)");
      }
    });
    const int n = has_value + has_np + has_float + has_tuple + has_dict;
    Scalar out;
    out.type = Scalar::other;
    if (has_float && n == 1) {
      out.type = Scalar::float_marker;
      return out;
    }
    if ((has_tuple || has_dict) && n == 1) return out;
    if (!(has_np && has_value && n == 2)) fail("a marker object with the wrong keys");
    int bits = 0;
    char kind = 0;
    if (dtype.type != Scalar::string || !np_scalar_type(dtype.text, bits, kind))
      fail("a numpy scalar of a dtype model files do not hold ('" + dtype.text + "')");
    check_np_value(value, bits, kind);
    out.type = Scalar::np_marker;
    return out;
  }

  void check_np_value(const Scalar& v, int bits, char kind) const {
    if (kind == 'b') {
      if (v.type != Scalar::boolean) fail("a numpy bool must hold true or false");
      return;
    }
    if (kind == 'f') {
      if (v.type != Scalar::integer && v.type != Scalar::number && v.type != Scalar::float_marker)
        fail("a numpy float must hold a number");
      return;
    }
    if (v.type != Scalar::integer) fail("a numpy integer must hold an integer");
    const std::uint64_t high = bits == 64 ? UINT64_MAX : (std::uint64_t{1} << bits) - 1;
    const bool ok = kind == 'u' ? (!v.negative || v.magnitude == 0) && v.magnitude <= high
                                : v.magnitude <= (v.negative ? (high >> 1) + 1 : high >> 1);
    if (!ok) fail("a numpy integer outside its type's range");
  }

  /// One entry of a $dict: [key, value], the key a scalar.
  void pair(int depth) {
    std::size_t n = 0;
    array(depth, [&](std::size_t i, int d) {
      n = i + 1;
      if (i == 0) {
        const Scalar key = plain(d);
        if (key.type == Scalar::other) fail("a $dict key must be a number, a string, a bool or null");
      } else if (i == 1) {
        plain(d);
      } else {
        fail("a $dict entry is not a [key, value] pair");
      }
    });
    if (n != 2) fail("a $dict entry is not a [key, value] pair");
  }

  // ---- the attributes ---------------------------------------------------

  std::uint64_t dim_size(Dim d) const {
    switch (d) {
      case Dim::classes: return dims_.n_classes;
      case Dim::pairs: return dims_.n_classes * (dims_.n_classes - 1) / 2;
      case Dim::support_vectors: return dims_.n_support_vectors;
      case Dim::features: return dims_.n_features;
      default: return 0;
    }
  }

  std::uint64_t count() {
    const Scalar v = scalar();
    if (v.type != Scalar::integer || v.negative || v.magnitude >= (std::uint64_t{1} << 63))
      fail("expected an integer >= 0");
    return v.magnitude;
  }

  void attribute(const std::string& name, int depth) {
    const AttrRule* rule = nullptr;
    for (const auto& r : attribute_rules(family_))
      if (name == r.name) rule = &r;
    if (rule == nullptr)
      fail("'" + name + "' is not an attribute this estimator restores (model files set only its fitted attributes)");
    ws();
    const std::string what = "attribute " + name + ": ";
    switch (rule->kind) {
      case AttrKind::derived: any(depth); return;
      case AttrKind::count: count(); return;
      case AttrKind::flag: {
        const Scalar v = scalar();
        if (v.type != Scalar::boolean) fail(what + "expected true or false");
        return;
      }
      case AttrKind::shape: {
        if (peek() != '{') fail(what + "expected {\"$tuple\": [rows, columns]}");
        bool tuple = false;
        object(depth, [&](const std::string& key, int d) {
          tuple = true;
          if (key != "$tuple") fail(what + "expected {\"$tuple\": [rows, columns]}");
          std::size_t n = 0;
          array(d, [&](std::size_t i, int) {
            n = i + 1;
            if (i > 1) fail(what + "expected two counts");
            count();
          });
          if (n != 2) fail(what + "expected two counts");
        });
        if (!tuple) fail(what + "expected {\"$tuple\": [rows, columns]}");
        return;
      }
      case AttrKind::array: {
        std::string ref;
        if (peek() != '{') fail(what + "expected {\"$array\": name}");
        object(depth, [&](const std::string& key, int) {
          const Scalar v = scalar();
          if (key != "$array" || v.type != Scalar::string) fail(what + "expected {\"$array\": name}");
          ref = v.text;
        });
        const auto it = arrays_.find(ref);
        if (ref.rfind("attr/", 0) != 0 || it == arrays_.end()) fail(what + "names a missing array '" + ref + "'");
        const ArrayInfo& a = it->second;
        bool ok = a.dtype == rule->dtype && static_cast<int>(a.shape.size()) == rule->ndim;
        for (int k = 0; ok && k < rule->ndim; ++k)
          ok = rule->dims[k] == Dim::any || a.shape[static_cast<std::size_t>(k)] == dim_size(rule->dims[k]);
        if (!ok) fail(what + "its array has the wrong type or shape");
        return;
      }
      case AttrKind::report_list:
        if (peek() != '[') fail(what + "expected a list");
        plain(depth);
        return;
      case AttrKind::report:
        plain(depth);
        return;
      case AttrKind::report_dict:
        if (peek() != '{') fail(what + "expected {\"$dict\": ...}");
        {
          bool dict = false;
          object(depth, [&](const std::string& key, int d) {
            if (key != "$dict") fail(what + "expected {\"$dict\": ...}");
            dict = true;
            array(d, [&](std::size_t, int e) { pair(e); });
          });
          if (!dict) fail(what + "expected {\"$dict\": ...}");
        }
        return;
    }
  }
};

}  // namespace detail::attr_json

/// Checks an ATTR text against the rules above; std::invalid_argument
/// naming the problem otherwise. `arrays`: the file's "attr/<n>" arrays.
inline void check_attributes(const std::string& text, int family, const AttributeDims& dims,
                             const std::map<std::string, ArrayInfo>& arrays) {
  detail::attr_json::Checker(text, family, dims, arrays).run();
}

}  // namespace budgetsvm::model_format
