"""The old import path of :class:`~budgetsvm.SVC` (it lives in ``budgetsvm.estimators.exact``)."""

from .estimators.exact import SVC

__all__ = ["SVC"]
