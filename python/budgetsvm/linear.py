"""The old import path of :class:`~budgetsvm.LinearSVC` (it lives in ``budgetsvm.estimators.linear``)."""

from .estimators.linear import NONE_MAX_SWEEPS, LinearSVC

__all__ = ["LinearSVC", "NONE_MAX_SWEEPS"]
