"""The estimators, one module per family, on one pipeline (``_base``).

* ``exact``: :class:`~budgetsvm.SVC`, the exact kernel SVM, and ``exact_family``:
  :class:`~budgetsvm.SVR`, :class:`~budgetsvm.NuSVR`, :class:`~budgetsvm.NuSVC`,
  :class:`~budgetsvm.OneClassSVM` (LIBSVM's other formulations on the same solver);
* ``budgeted``: :class:`~budgetsvm.BudgetedSVC` and
  :func:`~budgetsvm.merge_solution` (the budgeted model's steps:
  ``_budget_model``);
* ``budgeted_regression``: :class:`~budgetsvm.BudgetedSVR` and
  :class:`~budgetsvm.BudgetedOneClassSVM` on the same core and steps;
* ``linear``: :class:`~budgetsvm.LinearSVC`;
* ``auto``: :class:`~budgetsvm.AutoSVC` and :func:`~budgetsvm.tune`, the
  settings chosen within a time budget (a meta-estimator over the others);
* ``dask``: the budgeted SVM on dask, public as ``budgetsvm.dask`` (its
  tasks: ``_dask_tasks``, its input and rounds: ``_dask_rounds``; imported
  only with dask installed, never by this package's ``__init__``).

``_base.PipelineClassifier`` holds the steps every ``fit``, ``partial_fit``
and ``predict`` goes through, and says how a new estimator plugs in.
"""

from .auto import AutoSVC, tune
from .budgeted import BudgetedSVC, merge_solution
from .budgeted_regression import BudgetedOneClassSVM, BudgetedSVR
from .exact import SVC
from .exact_family import SVR, NuSVC, NuSVR, OneClassSVM
from .linear import LinearSVC

__all__ = ["AutoSVC", "BudgetedOneClassSVM", "BudgetedSVC", "BudgetedSVR", "LinearSVC", "NuSVC", "NuSVR",
           "OneClassSVM", "SVC", "SVR", "merge_solution", "tune"]
