// The kernel's hyperparameters (kernel, gamma, degree, coef0) as registry
// entries (options.hpp), written once for every solver family whose
// settings hold a Kernel.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "kernel_function.hpp"
#include "options.hpp"

namespace budgetsvm {

inline const NameTable<KernelType>& kernel_names() {
  static const NameTable<KernelType> table{{"linear", KernelType::linear},
                                           {"rbf", KernelType::rbf},
                                           {"poly", KernelType::poly},
                                           {"sigmoid", KernelType::sigmoid}};
  return table;
}

/// Appends the kernel's options; `kernel` reaches P's Kernel (a member
/// pointer or a generic lambda returning a reference).
template <class P, class KernelField>
void add_kernel_options(std::vector<Option<P>>& registry, KernelField kernel) {
  const auto part = [kernel](auto member) {
    return [kernel, member](auto& p) -> auto& { return detail::field_of(p, kernel).*member; };
  };
  registry.push_back(choice_option<P>("kernel", part(&Kernel::type), kernel_names(),
                                      "kernel function: linear <x,z>, rbf exp(-gamma ||x-z||^2), "
                                      "poly (gamma <x,z> + coef0)^degree, sigmoid tanh(gamma <x,z> + coef0)"));
  registry.push_back(real_option<P>("gamma", part(&Kernel::gamma), RealRange::positive(),
                                    "kernel coefficient of rbf, poly and sigmoid"));
  registry.push_back(int_option<P>("degree", part(&Kernel::degree), 0, "degree of the poly kernel"));
  registry.push_back(real_option<P>("coef0", part(&Kernel::coef0), RealRange::any(),
                                    "constant term of the poly and sigmoid kernels"));
}

}  // namespace budgetsvm
