// budgetsvm: fast support vector machine training. Umbrella header.
#pragma once

#include "version.hpp"
#include "core/control.hpp"
#include "core/data_view.hpp"
#include "core/errors.hpp"
#include "core/kernel.hpp"
#include "core/kernel_cache.hpp"
#include "core/random.hpp"
#include "exact/alfpgm.hpp"
#include "exact/alfpgm_subproblem.hpp"
#include "exact/dual_state.hpp"
#include "exact/fit.hpp"
#include "exact/smo.hpp"
#include "exact/wss.hpp"
#include "io/svmlight.hpp"
