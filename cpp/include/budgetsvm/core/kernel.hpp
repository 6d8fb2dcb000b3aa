// Kernel functions and blocked kernel matrices: the kernel function
// (kernel_function.hpp: struct Kernel, kernel values from dot products) and
// what is built on it (expansion.hpp: kernel_expansion, the decision values
// of a kernel expansion, and kernel_matrix). A header that needs the kernel
// function only includes kernel_function.hpp.
#pragma once

#include "expansion.hpp"
#include "kernel_function.hpp"
