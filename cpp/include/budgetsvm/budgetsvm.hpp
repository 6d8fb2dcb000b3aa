// budgetsvm: fast support vector machine training. Umbrella header.
#pragma once

#include "version.hpp"
#include "budget/bsca.hpp"
#include "budget/bsgd.hpp"
#include "budget/fit.hpp"
#include "budget/maintenance.hpp"
#include "budget/merge.hpp"
#include "budget/model.hpp"
#include "budget/options.hpp"
#include "core/control.hpp"
#include "core/data_view.hpp"
#include "core/errors.hpp"
#include "core/kernel.hpp"
#include "core/random.hpp"
#include "core/simd.hpp"
#include "io/svmlight.hpp"
