// Deprecated: this header moved to budget/params.hpp, the name every
// family's settings and registry have (issue #59). This forwarding header is
// kept for one release after 0.1.0 and will then be removed; include
// <budgetsvm/budget/params.hpp> or <budgetsvm/budgetsvm.hpp>.
#pragma once

#include "params.hpp"
