// Hyperparameters described once. Each solver family keeps its settings in a
// plain struct (budget::Params, exact::Params, linear::Params) and lists
// them in a registry: one Option per field, holding the name users write,
// its kind, its range or choices and a one-line description; the default is
// the struct's own initialiser. Everything that reads hyperparameters from a
// user -- the Python bindings, a command line, a model file -- goes through
// the registry, so a new hyperparameter is one field and one registry line.
//
// Values arrive as OptionValue (bool, integer, real or text). set_option
// checks the kind (OptionTypeError, TypeError in Python) and the range or
// choice (std::invalid_argument, ValueError in Python) with messages that
// name the option; check_options re-checks every field of a struct built in
// C++, so Params::validate() needs no range of its own.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "errors.hpp"

namespace budgetsvm {

/// A value as given by a user: bool, integer, real or text (choices).
using OptionValue = std::variant<bool, std::int64_t, double, std::string>;

enum class OptionKind { boolean, integer, real, choice };

/// The names of an enum's values, as users write them (one table per enum,
/// shared by the registry's choices and by from_name).
template <class E>
using NameTable = std::vector<std::pair<std::string, E>>;

/// The value called name, or an error that lists the names.
template <class E>
E from_name(const NameTable<E>& table, const std::string& name, const std::string& what) {
  std::string list;
  for (const auto& entry : table) {
    if (entry.first == name) return entry.second;
    list += (list.empty() ? "'" : ", '") + entry.first + "'";
  }
  throw std::invalid_argument(what + " must be one of " + list + "; got '" + name + "'.");
}

/// A value of the wrong kind (TypeError in Python).
class OptionTypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline const char* kind_name(OptionKind kind) {
  switch (kind) {
    case OptionKind::boolean: return "True or False";
    case OptionKind::integer: return "an integer";
    case OptionKind::real: return "a real number";
    case OptionKind::choice: return "a string";
  }
  return "";
}

/// Text of a value as a user would write it (reals round-trip exactly).
inline std::string value_text(const OptionValue& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&v)) return "'" + *s + "'";
  const double x = std::get<double>(v);
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (std::isnan(x)) return "nan";
  for (int digits : {15, 16, 17}) {  // the shortest text that reads back as x
    std::ostringstream out;
    out.precision(digits);
    out << x;
    // strtod, not stod: stod throws out_of_range for subnormal values
    if (digits == 17 || std::strtod(out.str().c_str(), nullptr) == x) {
      std::string text = out.str();
      if (text.find_first_of(".en") == std::string::npos) text += ".0";  // 1.0, as Python writes it
      return text;
    }
  }
  return {};
}

/// One hyperparameter of the settings struct P.
template <class P>
struct Option {
  std::string name;
  OptionKind kind = OptionKind::real;
  std::string doc;
  // integer: [int_low, int_high]; real: low / high, open or closed, finite
  // unless allow_inf (inf meaning "no limit", as a radius).
  std::int64_t int_low = std::numeric_limits<std::int64_t>::min();
  std::int64_t int_high = std::numeric_limits<std::int64_t>::max();
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false, high_open = false, allow_inf = false;
  std::vector<std::string> choices;
  /// An extra rule beyond the range ("" when the value obeys it).
  std::function<std::string(const OptionValue&)> rule;
  std::function<OptionValue(const P&)> get;
  std::function<void(P&, const OptionValue&)> put;  // unchecked

  std::string choices_text() const {
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "'" : ", '") + c + "'";
    return list;
  }

  /// "" when v is a valid value of this option, else why not.
  std::string problem(const OptionValue& v) const {
    const std::string got = "; got " + value_text(v) + ".";
    switch (kind) {
      case OptionKind::boolean:
        if (!std::holds_alternative<bool>(v)) return name + " must be True or False" + got;
        break;
      case OptionKind::integer: {
        if (!std::holds_alternative<std::int64_t>(v)) return name + " must be an integer" + got;
        const auto x = std::get<std::int64_t>(v);
        if (x < int_low) return name + " must be >= " + std::to_string(int_low) + got;
        if (x > int_high) return name + " must be <= " + std::to_string(int_high) + got;
        break;
      }
      case OptionKind::real: {
        double x;
        if (const auto* i = std::get_if<std::int64_t>(&v))
          x = static_cast<double>(*i);
        else if (const auto* d = std::get_if<double>(&v))
          x = *d;
        else
          return name + " must be a real number" + got;
        if (std::isnan(x) || (std::isinf(x) && !(allow_inf && x > 0)))
          return name + (allow_inf ? " must be a number or inf" : " must be finite") + got;
        if (x < low || (low_open && x == low))
          return name + " must be " + (low_open ? "> " : ">= ") + value_text(low) + got;
        if (x > high || (high_open && x == high))
          return name + " must be " + (high_open ? "< " : "<= ") + value_text(high) + got;
        break;
      }
      case OptionKind::choice: {
        const auto* s = std::get_if<std::string>(&v);
        bool known = false;
        for (const auto& c : choices) known = known || (s && *s == c);
        if (!known) return name + " must be one of " + choices_text() + got;
        break;
      }
    }
    return rule ? rule(v) : std::string();
  }

  /// Checks v and writes it into p; throws OptionTypeError for a value of
  /// the wrong kind, std::invalid_argument for one out of range.
  void set(P& p, const OptionValue& v) const {
    const std::string why = problem(v);
    if (why.empty()) return put(p, v);
    const bool wrong_kind =
        (kind == OptionKind::boolean && !std::holds_alternative<bool>(v)) ||
        (kind == OptionKind::integer && !std::holds_alternative<std::int64_t>(v)) ||
        (kind == OptionKind::real && !std::holds_alternative<std::int64_t>(v) && !std::holds_alternative<double>(v)) ||
        (kind == OptionKind::choice && !std::holds_alternative<std::string>(v));
    if (wrong_kind) throw OptionTypeError(why);
    throw std::invalid_argument(why);
  }
};

// ---- building registries ---------------------------------------------------
// Each builder takes the field as a member pointer or, for a nested field, a
// generic lambda returning a reference: [](auto& p) -> auto& { return p.kernel.gamma; }
// (generic, so that it reads a const struct too).

namespace detail {
template <class P, class Field>
decltype(auto) field_of(P& p, const Field& field) {
  if constexpr (std::is_member_object_pointer_v<std::decay_t<Field>>)
    return (p.*field);
  else
    return field(p);
}
}  // namespace detail

template <class P, class Field>
Option<P> bool_option(const std::string& name, Field field, const std::string& doc) {
  Option<P> o;
  o.name = name;
  o.kind = OptionKind::boolean;
  o.doc = doc;
  o.get = [field](const P& p) { return OptionValue(static_cast<bool>(detail::field_of(p, field))); };
  o.put = [field](P& p, const OptionValue& v) { detail::field_of(p, field) = std::get<bool>(v); };
  return o;
}

/// An integer in [low, high] (high defaults to the field type's maximum).
template <class P, class Field>
Option<P> int_option(const std::string& name, Field field, std::int64_t low, const std::string& doc,
                     std::int64_t high = std::numeric_limits<std::int64_t>::max()) {
  Option<P> o;
  o.name = name;
  o.kind = OptionKind::integer;
  o.doc = doc;
  using T = std::decay_t<decltype(detail::field_of(std::declval<P&>(), field))>;
  constexpr auto type_max = std::numeric_limits<T>::max();
  o.int_low = low;
  o.int_high = static_cast<std::uint64_t>(type_max) < static_cast<std::uint64_t>(high)
                   ? static_cast<std::int64_t>(type_max)
                   : high;
  o.get = [field](const P& p) { return OptionValue(static_cast<std::int64_t>(detail::field_of(p, field))); };
  o.put = [field](P& p, const OptionValue& v) { detail::field_of(p, field) = static_cast<T>(std::get<std::int64_t>(v)); };
  return o;
}

/// Bounds of a real option.
struct RealRange {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false, high_open = false, allow_inf = false;
  static RealRange positive() { return {0.0, std::numeric_limits<double>::infinity(), true, false, false}; }
  static RealRange non_negative() { return {0.0, std::numeric_limits<double>::infinity(), false, false, false}; }
  static RealRange any() { return {}; }
};

template <class P, class Field>
Option<P> real_option(const std::string& name, Field field, RealRange range, const std::string& doc) {
  Option<P> o;
  o.name = name;
  o.kind = OptionKind::real;
  o.doc = doc;
  o.low = range.low;
  o.high = range.high;
  o.low_open = range.low_open;
  o.high_open = range.high_open;
  o.allow_inf = range.allow_inf;
  o.get = [field](const P& p) { return OptionValue(static_cast<double>(detail::field_of(p, field))); };
  o.put = [field](P& p, const OptionValue& v) {
    const auto* i = std::get_if<std::int64_t>(&v);
    detail::field_of(p, field) = i ? static_cast<double>(*i) : std::get<double>(v);
  };
  return o;
}

/// One of a list of names, each standing for a value of the field (an enum).
template <class P, class Field, class E>
Option<P> choice_option(const std::string& name, Field field, NameTable<E> table, const std::string& doc) {
  Option<P> o;
  o.name = name;
  o.kind = OptionKind::choice;
  o.doc = doc;
  for (const auto& entry : table) o.choices.push_back(entry.first);
  o.get = [field, table](const P& p) {
    for (const auto& entry : table)
      if (entry.second == detail::field_of(p, field)) return OptionValue(entry.first);
    return OptionValue(std::string());
  };
  o.put = [field, table](P& p, const OptionValue& v) {
    for (const auto& entry : table)
      if (entry.first == std::get<std::string>(v)) detail::field_of(p, field) = entry.second;
  };
  return o;
}

// ---- using registries ------------------------------------------------------

/// The option called name, or an error listing the known names.
template <class P>
const Option<P>& find_option(const std::vector<Option<P>>& registry, const std::string& name,
                             const char* family) {
  for (const auto& o : registry)
    if (o.name == name) return o;
  std::string list;
  for (const auto& o : registry) list += (list.empty() ? "" : ", ") + o.name;
  throw std::invalid_argument("unknown parameter '" + name + "' for the " + family + " solvers; known: " + list);
}

/// "" when every field of p lies in its option's range, else the first
/// violation.
template <class P>
std::string options_problem(const std::vector<Option<P>>& registry, const P& p) {
  for (const auto& o : registry) {
    std::string why = o.problem(o.get(p));
    if (!why.empty()) return why;
  }
  return {};
}

template <class P>
void check_options(const std::vector<Option<P>>& registry, const P& p) {
  const std::string why = options_problem(registry, p);
  require(why.empty(), why);
}

}  // namespace budgetsvm
