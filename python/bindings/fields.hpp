// Results to Python through their field tables (core/fields.hpp): one
// generic conversion for every struct with a table, and the names Python
// reads back through _core.fields(name) instead of typing the keys again.
//
// Values: numbers, bools and names as Python scalars; std::vector<T> of
// numbers as a 1-D numpy array (bytes, the C++ form of flags, as a bool
// array); MatrixXd (row-major) as a 2-D float64 array; a vector of structs
// with tables as a list of dicts; a struct with a table flattened into the
// same dict. to_dict(std::move(s)) hands the arrays over without copies;
// to_dict(s) copies them.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "budgetsvm/core/eigen.hpp"
#include "budgetsvm/core/fields.hpp"
#include "data.hpp"

namespace budgetsvm::python {

namespace py = pybind11;

template <class T>
struct is_std_vector : std::false_type {};
template <class T, class A>
struct is_std_vector<std::vector<T, A>> : std::true_type {};

template <class S>
py::dict to_dict(S&& s);

/// One field's value as a Python object; an rvalue (non-const) is moved from.
template <class V>
py::object field_to_python(V&& value) {
  using T = std::decay_t<V>;
  constexpr bool owned = std::is_rvalue_reference_v<V&&> && !std::is_const_v<std::remove_reference_t<V>>;
  if constexpr (is_std_vector<T>::value) {
    using E = typename T::value_type;
    if constexpr (has_field_table_v<E>) {
      py::list out;
      for (auto& e : value) out.append(to_dict(std::move(e)));  // const elements are copied
      return out;
    } else {
      py::array_t<E> out = [&] {
        if constexpr (owned)
          return to_numpy(std::move(value));
        else
          return py::array_t<E>(static_cast<py::ssize_t>(value.size()), value.data());
      }();
      if constexpr (std::is_same_v<E, std::uint8_t>) return out.attr("view")("bool");
      return std::move(out);
    }
  } else if constexpr (std::is_same_v<T, MatrixXd>) {
    if constexpr (owned) {
      auto* M = new MatrixXd(std::move(value));
      py::capsule free_when_done(M, [](void* p) { delete static_cast<MatrixXd*>(p); });
      return py::array_t<double>({M->rows(), M->cols()}, M->data(), free_when_done);
    } else {
      py::array_t<double> out({value.rows(), value.cols()});
      if (value.size() > 0)
        std::memcpy(out.mutable_data(), value.data(), sizeof(double) * static_cast<std::size_t>(value.size()));
      return std::move(out);
    }
  } else {
    return py::cast(value);  // numbers, bools, names
  }
}

/// The dict of a struct with a field table (keys: field_names<S>()).
template <class S>
py::dict to_dict(S&& s) {
  py::dict out;
  const auto put = [&out](const char* name, auto&& value) {
    out[name] = field_to_python(std::move(value));  // const fields are copied
  };
  if constexpr (std::is_lvalue_reference_v<S>)
    for_each_leaf(std::as_const(s), put);
  else
    for_each_leaf(s, put);
  return out;
}

/// The results whose names _core.fields(name) returns, by name.
inline std::map<std::string, std::vector<std::string>>& field_registry() {
  static std::map<std::string, std::vector<std::string>> registry;
  return registry;
}

/// Lists S's fields under `name` (e.g. "budget.Counters") for _core.fields.
template <class S>
void publish_fields(const std::string& name) {
  field_registry()[name] = field_names<S>();
}

/// _core.fields(name): the keys of the dict a result crosses as.
inline py::tuple published_fields(const std::string& name) {
  const auto& registry = field_registry();
  const auto found = registry.find(name);
  if (found == registry.end()) {
    std::string known;
    for (const auto& entry : registry) known += (known.empty() ? "'" : ", '") + entry.first + "'";
    throw py::value_error("no result called '" + name + "'; the results are " + known);
  }
  py::tuple names(found->second.size());
  for (std::size_t i = 0; i < found->second.size(); ++i) names[i] = py::str(found->second[i]);
  return names;
}

}  // namespace budgetsvm::python
