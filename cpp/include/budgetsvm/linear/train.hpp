// Deprecated: this header moved to linear/fit.hpp, the name every family's
// entry point has (issue #59). This forwarding header is kept for one
// release after 0.1.0 and will then be removed; include
// <budgetsvm/linear/fit.hpp> or <budgetsvm/budgetsvm.hpp>.
#pragma once

#include "fit.hpp"
