"""Where an installed wheel keeps the C++ headers and the CMake package.

The wheel holds ``budgetsvm/include`` (the header-only library and the Eigen
headers it uses) and ``budgetsvm/share/cmake/budgetsvm`` (the package that
``find_package(budgetsvm CONFIG)`` reads), so that ``pip install budgetsvm``
is enough for a C++ program, as with pybind11.
"""

from __future__ import annotations

import os

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def get_include() -> str:
    """The directory to add to a C++ compiler's include path.

    Holds ``budgetsvm/budgetsvm.hpp`` and the rest of the headers; Eigen's
    are in ``budgetsvm/third_party/eigen`` below it (add that directory too,
    or use ``get_cmake_dir()`` with CMake, which adds both).

    Examples
    --------
    >>> import os, budgetsvm
    >>> try:
    ...     include = budgetsvm.get_include()
    ... except FileNotFoundError:  # a copy of the package without its headers
    ...     include = None
    >>> include is None or os.path.isfile(os.path.join(include, "budgetsvm", "budgetsvm.hpp"))
    True
    """
    installed = os.path.join(_PACKAGE, "include")
    if os.path.isdir(installed):
        return installed
    source = os.path.normpath(os.path.join(_PACKAGE, "..", "..", "cpp", "include"))
    if os.path.isdir(source):  # a source checkout (PYTHONPATH=python)
        return source
    raise FileNotFoundError(f"budgetsvm's C++ headers are not installed next to {_PACKAGE}")


def get_cmake_dir() -> str:
    """The directory holding ``budgetsvmConfig.cmake``: pass it to CMake as
    ``-Dbudgetsvm_DIR=...`` for ``find_package(budgetsvm CONFIG)``.

    Only an installed wheel has it (a source checkout makes it with
    ``cmake --install``).

    Examples
    --------
    >>> import os, budgetsvm
    >>> try:
    ...     path = budgetsvm.get_cmake_dir()
    ... except FileNotFoundError:  # a source checkout, not an installed wheel
    ...     path = None
    >>> path is None or os.path.isfile(os.path.join(path, "budgetsvmConfig.cmake"))
    True
    """
    path = os.path.join(_PACKAGE, "share", "cmake", "budgetsvm")
    if not os.path.isfile(os.path.join(path, "budgetsvmConfig.cmake")):
        raise FileNotFoundError(
            f"no CMake package in {path}: this budgetsvm is not an installed wheel (in a source checkout, "
            "run cmake --install and use its prefix)"
        )
    return path
