// Field tables: how a result struct names its fields once.
//
// A result struct (budget::Counters, budget::EpochStats, budget::Result,
// exact::ExactResult, exact::PairReports, exact::OvoResult, linear::Stats)
// carries a static member
//   template <class Self, class F> static void for_each_field(Self& self, F&& f);
// that calls f(name, value) for each of its fields, in order, with `self`
// const or not: the member itself (a reference) or a value derived from it
// (a status by its name, a count from two members). The names are the
// neutral names of the fields; a field whose value has a table of its own
// contributes that table's fields in its place (a flat list of names:
// EpochStats' totals are its counters). The Python bindings build their
// dicts from the tables (python/bindings/fields.hpp), so a new field is a
// member and a line in its struct's table.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace budgetsvm {

namespace detail {

struct IgnoreField {
  template <class V>
  void operator()(const char*, V&&) const {}
};

}  // namespace detail

/// Whether T has a field table (T::for_each_field).
template <class T, class = void>
struct has_field_table : std::false_type {};
template <class T>
struct has_field_table<T, std::void_t<decltype(T::for_each_field(std::declval<const T&>(), detail::IgnoreField{}))>>
    : std::true_type {};
template <class T>
inline constexpr bool has_field_table_v = has_field_table<T>::value;

namespace detail {

template <class F>
struct Leaves {
  F& f;
  template <class V>
  void operator()(const char* name, V&& value) const {
    using T = std::decay_t<V>;
    if constexpr (has_field_table_v<T>)
      T::for_each_field(value, *this);  // flattened in place
    else
      f(name, std::forward<V>(value));
  }
};

}  // namespace detail

/// f(name, value) for every field of s (const or not), in table order, the
/// fields of a nested table in its place.
template <class S, class F>
void for_each_leaf(S& s, F&& f) {
  using T = std::remove_const_t<S>;
  static_assert(has_field_table_v<T>, "S has no field table (S::for_each_field)");
  T::for_each_field(s, detail::Leaves<F>{f});
}

/// The names of T's fields in table order, nested tables flattened.
template <class T>
std::vector<std::string> field_names() {
  std::vector<std::string> names;
  const T empty{};
  for_each_leaf(empty, [&](const char* name, auto&&) { names.emplace_back(name); });
  return names;
}

}  // namespace budgetsvm
