// Deprecated: this header moved to exact/simd_exact.hpp, into the one
// family that uses it (issue #59). This forwarding header is kept for one
// release after 0.1.0 and will then be removed; include
// <budgetsvm/exact/simd_exact.hpp> or <budgetsvm/budgetsvm.hpp>.
#pragma once

#include "../exact/simd_exact.hpp"
