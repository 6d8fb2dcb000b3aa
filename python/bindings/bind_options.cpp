// Bindings of the hyperparameter registries: options(family) describes a
// solver family's hyperparameters (names, kinds, defaults, ranges, one-line
// descriptions) and check_options(family, params) reads a dict exactly as the
// fit functions do, so the Python estimators validate before touching data.
#include <pybind11/pybind11.h>

#include <string>

#include "budgetsvm/budget/params.hpp"
#include "budgetsvm/exact/params.hpp"
#include "budgetsvm/linear/params.hpp"
#include "options.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

const char* const kFamilies = "'budgeted', 'exact' or 'linear'";

py::list py_options(const std::string& family) {
  if (family == "budgeted") return describe_options(budget::params_options());
  if (family == "exact") return describe_options(exact::params_options());
  if (family == "linear") return describe_options(linear::params_options());
  throw py::value_error("family must be " + std::string(kFamilies) + "; got '" + family + "'.");
}

void py_check_options(const std::string& family, const py::dict& params) {
  if (family == "budgeted") return read_options(budget::params_options(), params, "budgeted").validate();
  if (family == "exact") {
    auto d = py::reinterpret_steal<py::dict>(PyDict_Copy(params.ptr()));  // a copy, not an alias
    if (d.contains("kernel") && py::isinstance<py::str>(d["kernel"]) && d["kernel"].cast<std::string>() == "precomputed")
      PyDict_DelItemString(d.ptr(), "kernel");
    return read_options(exact::params_options(), d, "exact").settings.validate();
  }
  if (family == "linear") return read_options(linear::params_options(), params, "linear").cd.validate();
  throw py::value_error("family must be " + std::string(kFamilies) + "; got '" + family + "'.");
}

}  // namespace

void register_options(py::module_& m) {
  m.def("options", &py_options, py::arg("family"),
        "The hyperparameters of a solver family ('budgeted', 'exact', 'linear'): a list of dicts with "
        "name, kind ('bool'|'int'|'float'|'choice'), default, doc, and low/high/low_open/high_open or choices");
  m.def("check_options", &py_check_options, py::arg("family"), py::arg("params"),
        "Read params as the family's fit function does: TypeError / ValueError naming the option");
}

}  // namespace budgetsvm::python
