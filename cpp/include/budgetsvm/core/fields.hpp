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

struct NameCollector {
  std::vector<std::string>* names;
  template <class V>
  void operator()(const char* name, V&& value) const {
    using T = std::decay_t<V>;
    if constexpr (has_field_table_v<T>)
      T::for_each_field(value, *this);  // flattened in place
    else
      names->emplace_back(name);
  }
};

}  // namespace detail

/// The names of T's fields in table order, nested tables flattened.
template <class T>
std::vector<std::string> field_names() {
  static_assert(has_field_table_v<T>, "T has no field table (T::for_each_field)");
  std::vector<std::string> names;
  const T empty{};
  T::for_each_field(empty, detail::NameCollector{&names});
  return names;
}

}  // namespace budgetsvm
