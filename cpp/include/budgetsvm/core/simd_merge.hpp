// Deprecated: this header moved to budget/simd_merge.hpp, into the one
// family that uses it (issue #59). This forwarding header is kept for one
// release after 0.1.0 and will then be removed; include
// <budgetsvm/budget/simd_merge.hpp> or <budgetsvm/budgetsvm.hpp>.
#pragma once

#include "../budget/simd_merge.hpp"
