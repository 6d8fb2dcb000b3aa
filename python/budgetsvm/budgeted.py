"""The old import path of :class:`~budgetsvm.BudgetedSVC` and :func:`~budgetsvm.merge_solution`
(they live in ``budgetsvm.estimators.budgeted``)."""

from .estimators.budgeted import TOTAL_KEYS, BudgetedSVC, merge_solution

__all__ = ["BudgetedSVC", "merge_solution", "TOTAL_KEYS"]
