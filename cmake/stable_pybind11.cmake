# pip builds each install in a new temporary environment, so pybind11's
# headers sit under a new path each time (/tmp/pip-build-env-XXXX/...), and
# the compile commands of two installs of the same tree would differ. Here
# the headers are copied into the build directory (a file rewritten only when
# its content differs) and the module compiles against the copy, so that the
# commands stay identical from one install to the next. Two things follow:
# - with build isolation (plain `pip install .`), scikit-build-core clears
#   the persistent build directory's CMake files (objects included) whenever
#   pip's temporary environment moved, that is every time; the identical
#   commands then make every compile a ccache hit (when ccache is installed:
#   CMakeLists.txt, BUDGETSVM_CCACHE);
# - with `pip install --no-build-isolation .`, nothing is cleared and Ninja
#   finds every object up to date: nothing runs but the link check.
# (CMake >= 3.21 for file(COPY_FILE ... ONLY_IF_DIFFERENT); older ones build
# as before, from pybind11's own path.)
if(CMAKE_VERSION VERSION_LESS 3.21 OR NOT pybind11_INCLUDE_DIR OR NOT TARGET pybind11::pybind11_headers)
  return()
endif()
set(_copy "${CMAKE_BINARY_DIR}/pybind11-include")
file(GLOB_RECURSE _headers RELATIVE "${pybind11_INCLUDE_DIR}" "${pybind11_INCLUDE_DIR}/pybind11/*")
foreach(_header IN LISTS _headers)
  get_filename_component(_dir "${_copy}/${_header}" DIRECTORY)
  file(MAKE_DIRECTORY "${_dir}")
  file(COPY_FILE "${pybind11_INCLUDE_DIR}/${_header}" "${_copy}/${_header}" ONLY_IF_DIFFERENT)
endforeach()
set_property(TARGET pybind11::pybind11_headers PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_copy}")
message(STATUS "budgetsvm: pybind11 ${pybind11_VERSION} headers from ${_copy}")
unset(_copy)
unset(_headers)
