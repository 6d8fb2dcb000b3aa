// budgetsvm: fast support vector machine training. Umbrella header.
#pragma once

#include "version.hpp"
#include "core/control.hpp"
#include "core/data_view.hpp"
#include "core/errors.hpp"
#include "core/kernel.hpp"
#include "core/random.hpp"
#include "io/svmlight.hpp"
#include "linear/dual_cd.hpp"
#include "linear/loss.hpp"
#include "linear/selection.hpp"
#include "linear/train.hpp"
