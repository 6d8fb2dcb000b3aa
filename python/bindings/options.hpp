// Hyperparameters from Python: the one reader every binding uses. A dict of
// keyword values is read through a family's registry (core/options.hpp):
// unknown keys are errors that list the known ones, missing keys keep the
// struct's defaults, a value of the wrong type is a TypeError and one out of
// range a ValueError, both naming the option.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "budgetsvm/core/options.hpp"

namespace budgetsvm::python {

namespace py = pybind11;

/// A Python value as the OptionValue of option o (kind checks only).
template <class P>
OptionValue option_value(const Option<P>& o, py::handle v) {
  const auto wrong = [&]() -> OptionValue {
    throw py::type_error(o.name + " must be " + kind_name(o.kind) + "; got " + std::string(py::repr(v)) +
                         " of type " + std::string(py::str(py::type::of(v).attr("__name__"))) + ".");
  };
  const bool is_bool = PyBool_Check(v.ptr()) || py::isinstance(v, py::module_::import("numpy").attr("bool_"));
  switch (o.kind) {
    case OptionKind::boolean:
      if (!is_bool) return wrong();
      return OptionValue(PyObject_IsTrue(v.ptr()) == 1);
    case OptionKind::integer:
    case OptionKind::real: {
      if (is_bool) return wrong();
      if (PyIndex_Check(v.ptr())) {  // int and numpy integers
        py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
        if (!index) throw py::error_already_set();
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
        if (overflow == 0) return OptionValue(static_cast<std::int64_t>(x));
        if (o.kind == OptionKind::integer)
          throw py::value_error(o.name + " must be " + (overflow > 0 ? "<= " + std::to_string(o.int_high)
                                                                      : ">= " + std::to_string(o.int_low)) +
                                "; got " + std::string(py::repr(v)) + ".");
        double real = PyLong_AsDouble(index.ptr());  // a huge int as a real: beyond float64 it is infinite
        if (real == -1.0 && PyErr_Occurred()) {
          PyErr_Clear();
          real = overflow > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
        }
        return OptionValue(real);
      }
      if (o.kind == OptionKind::real && PyFloat_Check(v.ptr())) return OptionValue(PyFloat_AsDouble(v.ptr()));
      if (o.kind == OptionKind::real && py::isinstance(v, py::module_::import("numpy").attr("floating")))
        return OptionValue(v.cast<double>());
      return wrong();
    }
    case OptionKind::choice:
      if (!PyUnicode_Check(v.ptr()))  // scikit-learn: a bad choice is a ValueError, whatever its type
        throw py::value_error(o.name + " must be one of " + o.choices_text() + "; got " + std::string(py::repr(v)) +
                              ".");
      return OptionValue(v.cast<std::string>());
  }
  return wrong();
}

/// P with every key of d set through the registry (the rest at defaults).
template <class P>
P read_options(const std::vector<Option<P>>& registry, const py::dict& d, const char* family, P p = P{}) {
  for (const auto& item : d) {
    if (!PyUnicode_Check(item.first.ptr())) throw py::type_error("parameter names must be strings");
    const Option<P>& o = find_option(registry, item.first.cast<std::string>(), family);
    o.set(p, option_value(o, item.second));
  }
  return p;
}

inline py::object to_python(const OptionValue& v) {
  if (const auto* b = std::get_if<bool>(&v)) return py::bool_(*b);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return py::int_(*i);
  if (const auto* d = std::get_if<double>(&v)) return py::float_(*d);
  return py::str(std::get<std::string>(v));
}

/// The registry as a list of dicts: name, kind, default, doc and the range
/// (low, high, low_open, high_open for numbers; choices for text).
template <class P>
py::list describe_options(const std::vector<Option<P>>& registry) {
  const P defaults{};
  py::list out;
  for (const auto& o : registry) {
    py::dict d;
    d["name"] = o.name;
    d["kind"] = o.kind == OptionKind::boolean   ? "bool"
                : o.kind == OptionKind::integer ? "int"
                : o.kind == OptionKind::real    ? "float"
                                                : "choice";
    d["default"] = to_python(o.get(defaults));
    d["doc"] = o.doc;
    if (o.kind == OptionKind::integer) {
      d["low"] = py::int_(o.int_low);
      d["high"] = py::int_(o.int_high);
      d["low_open"] = false;
      d["high_open"] = false;
    } else if (o.kind == OptionKind::real) {
      d["low"] = o.low;
      d["high"] = o.high;
      d["low_open"] = o.low_open;
      d["high_open"] = o.high_open;
    }
    if (o.kind == OptionKind::choice) {
      py::list choices;
      for (const auto& c : o.choices) choices.append(c);
      d["choices"] = py::tuple(choices);
    }
    out.append(d);
  }
  return out;
}

/// The value called `name` among a call's few fixed choices (arguments that
/// are not registry options), or a ValueError "what must be 'a', 'b' or 'c';
/// got 'name'".
template <class E>
E choice_arg(const std::string& name, std::initializer_list<std::pair<const char*, E>> choices, const char* what) {
  std::string list;
  std::size_t i = 0;
  for (const auto& choice : choices) {
    if (name == choice.first) return choice.second;
    list += std::string(i == 0 ? "'" : i + 1 == choices.size() ? " or '" : ", '") + choice.first + "'";
    ++i;
  }
  throw std::invalid_argument(std::string(what) + " must be " + list + "; got '" + name + "'");
}

}  // namespace budgetsvm::python
