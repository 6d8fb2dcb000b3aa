"""The budgeted SVM on dask: :class:`BudgetedSVC` (``pip install "budgetsvm[dask]"``).

The estimator lives in ``budgetsvm.estimators.dask`` beside the other
estimators; this is its public path. See docs/dask.md.
"""

from .estimators.dask import BudgetedSVC

__all__ = ["BudgetedSVC"]
