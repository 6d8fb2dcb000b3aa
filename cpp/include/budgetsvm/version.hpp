// The one place the project's version is written; CMake and the Python
// package metadata both read it from here.
#pragma once

#define BUDGETSVM_VERSION_MAJOR 0
#define BUDGETSVM_VERSION_MINOR 1
#define BUDGETSVM_VERSION_PATCH 0
#define BUDGETSVM_VERSION_STRING "0.1.0"
