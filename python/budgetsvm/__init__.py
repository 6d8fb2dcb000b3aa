"""budgetsvm: fast support vector machine training.

Budgeted kernel SVMs (BSGD, BSCA with lookup merging), linear SVMs by dual
coordinate descent with adaptive variable selection, and an exact kernel SVM
(ALFPGM), implemented in a header-only C++17 core with scikit-learn estimators;
:class:`AutoSVC` (:func:`tune`) chooses the solver and its settings within a
time budget.

The packages: the estimators (``budgeted``, ``exact``, ``linear``, ``dask``),
``budgetsvm.io`` (svmlight data: reading, streaming, shuffling),
``budgetsvm.model_files`` (saving and loading fitted models) and
``budgetsvm.cli`` (the ``budgetsvm`` program); CONTRIBUTING.md maps them.
"""

from ._core import __version__
from ._install_paths import get_cmake_dir, get_include
from .estimators import (
    SVC,
    SVR,
    AutoSVC,
    BudgetedOneClassSVM,
    BudgetedSVC,
    BudgetedSVR,
    LinearSVC,
    NuSVC,
    NuSVR,
    OneClassSVM,
    merge_solution,
    tune,
)
from .io import iter_svmlight, load_svmlight, shuffle_chunks, shuffle_svmlight
from .kernels import kernel_matrix
from .model_files import load_model, save_model

# the modules of the old flat layout, now re-exports, still attributes of the package
from . import external_shuffle, shuffle, streaming  # noqa: F401

__all__ = [
    "AutoSVC",
    "tune",
    "BudgetedSVC",
    "BudgetedSVR",
    "BudgetedOneClassSVM",
    "merge_solution",
    "SVC",
    "NuSVC",
    "SVR",
    "NuSVR",
    "OneClassSVM",
    "__version__",
    "LinearSVC",
    "kernel_matrix",
    "load_svmlight",
    "iter_svmlight",
    "shuffle_chunks",
    "shuffle_svmlight",
    "load_model",
    "get_include",
    "get_cmake_dir",
    "save_model",
]
