"""BudgetedSVC with extra parameters for its C++ core (instruments the estimator does not expose; benchmarks only)."""

from __future__ import annotations

from budgetsvm import BudgetedSVC


class WithCoreParams(BudgetedSVC):
    """BudgetedSVC whose core also gets ``core_params`` (set on the instance or the class)."""

    core_params: dict = {}

    def _solver_params(self):
        params = super()._solver_params()
        params.update(self.core_params)
        return params
