// The compiled module budgetsvm._core: translation only. Each family of
// functions registers itself from its own bind_*.cpp file.
#include <pybind11/pybind11.h>

#include "budgetsvm/core/errors.hpp"
#include "budgetsvm/core/options.hpp"
#include "budgetsvm/version.hpp"
#include "fields.hpp"
#include "register.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "budgetsvm's compiled core (private; use the budgetsvm package)";
  m.attr("__version__") = BUDGETSVM_VERSION_STRING;

  // A stop request surfaces as KeyboardInterrupt, or as the exception a
  // Python callback raised (already set when Interrupted reaches us).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const budgetsvm::Interrupted&) {
      if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const budgetsvm::OptionTypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());  // a hyperparameter of the wrong kind
    }
  });

  budgetsvm::python::register_data(m);
  budgetsvm::python::register_budget(m);
  budgetsvm::python::register_exact(m);
  budgetsvm::python::register_linear(m);
  budgetsvm::python::register_model(m);
  budgetsvm::python::register_options(m);
  // After the families: each published its results' fields as it registered.
  m.def("fields", &budgetsvm::python::published_fields, py::arg("name"),
        "The keys of the dict a result crosses to Python as, in order, from its C++ field table\n"
        "(core/fields.hpp): 'budget.Counters', 'budget.EpochStats', 'budget.Result',\n"
        "'exact.ExactResult', 'exact.PairReports', 'exact.OvoResult' or 'linear.Stats'.");
}
