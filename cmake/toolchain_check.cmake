# A C++17 compiler, or one message saying what is missing and how to get it.
# Included by the top-level CMakeLists.txt before anything else is compiled:
# `pip install .` shows CMake's output only when the build fails, and CMake's
# own "No CMAKE_CXX_COMPILER could be found" says neither what the project
# needs nor where to get it. (A missing or too-old CMake never reaches this
# file: scikit-build-core reads cmake_minimum_required and, when the CMake on
# PATH is older, installs a newer one from PyPI for the build.)

string(CONCAT _budgetsvm_compilers
  "GCC >= 8 or Clang >= 7 (Debian/Ubuntu: apt install g++, Fedora: dnf install gcc-c++), "
  "Apple Clang from Xcode's command line tools (macOS: xcode-select --install), "
  "or Visual Studio 2019 or newer with its C++ workload (Windows)")

include(CheckLanguage)
check_language(CXX)
if(NOT CMAKE_CXX_COMPILER)
  if(DEFINED ENV{CXX})
    set(_why "the compiler named by the environment variable CXX ($ENV{CXX}) was not found")
  else()
    set(_why "no C++ compiler was found on PATH")
  endif()
  string(CONCAT _msg "budgetsvm: ${_why}. Building budgetsvm from source needs a C++17 compiler: "
         ${_budgetsvm_compilers} ". Once one is installed, run the same command again; "
         "to use one outside PATH set CXX to its full path.")
  message(FATAL_ERROR "${_msg}")
endif()
enable_language(CXX)

# The oldest compilers whose C++17 (language and library) the headers need.
set(_budgetsvm_min_GNU 8)
set(_budgetsvm_min_Clang 7)
set(_budgetsvm_min_AppleClang 11)
set(_budgetsvm_min_MSVC 19.20)
set(_min "${_budgetsvm_min_${CMAKE_CXX_COMPILER_ID}}")
if(_min AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS _min)
  string(CONCAT _msg "budgetsvm: the C++ compiler ${CMAKE_CXX_COMPILER} is ${CMAKE_CXX_COMPILER_ID} "
         "${CMAKE_CXX_COMPILER_VERSION}, too old for C++17; budgetsvm needs ${CMAKE_CXX_COMPILER_ID} >= ${_min}: "
         ${_budgetsvm_compilers} ". Install one and set CXX to its path (for example CXX=g++-12).")
  message(FATAL_ERROR "${_msg}")
endif()
unset(_min)
