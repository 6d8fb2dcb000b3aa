// One registration function per bind_*.cpp file.
#pragma once

#include <pybind11/pybind11.h>

namespace budgetsvm::python {

void register_data(pybind11::module_& m);  // bind_data.cpp: kernels, moments, svmlight
void register_budget(pybind11::module_& m);  // bind_budget.cpp: BSGD, BSCA, merging
void register_exact(pybind11::module_& m);  // bind_exact.cpp: ALFPGM / SMO (fit_exact)
void register_linear(pybind11::module_& m);  // bind_linear.cpp: linear SVM (dual CD, AVSF)
void register_model(pybind11::module_& m);  // bind_model.cpp: model files (load, save, predict)
void register_options(pybind11::module_& m);  // bind_options.cpp: the hyperparameter registries

}  // namespace budgetsvm::python
