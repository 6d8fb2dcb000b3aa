"""Checks that the values of ``X`` are small enough for the solvers' arithmetic.

Data scaled by 1e154 or 1e300 overflow float64 in squared norms and kernel
values: without a check the solvers fit a trivial model (every kernel value
0 or infinite), step by zero forever, or report a confusing error about a
parameter the user never set. The checks here bound the kernel values from
the largest squared row norm ``M = max_i ||x_i||^2`` (Cauchy-Schwarz:
``|<x, z>| <= M``, ``||x - z||^2 <= 4 M``) and refuse data whose kernel
values would leave the range the solver computes in, with a ValueError that
says so. One pass over ``X`` in C++ (no copy of ``X``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _core
from ._data import core_view

DBL_MAX = float(np.finfo(np.float64).max)
DBL_MIN = float(np.finfo(np.float64).tiny)  # the smallest normal float64
FLT_MAX = float(np.finfo(np.float32).max)
#: The linear solver takes steps of about 1 / ||x||^2 and sums n terms: a
#: squared norm up to DBL_MAX * eps keeps both in the normal float64 range.
LINEAR_MAX_SQUARED_NORM = DBL_MAX * float(np.finfo(np.float64).eps)

_NOT_FINITE = (
    "The dual coefficients or intercepts are not finite. The input data may contain large values "
    "and need to be preprocessed"
)


def max_squared_row_norm(X: Any) -> float:
    """``max_i ||x_i||^2`` in float64 (``inf`` when it overflows); 0 for no
    rows. ``X`` is supported by the core (``_data.as_supported``): one pass in
    C++, without a copy."""
    return float(_core.largest_squared_row_norm(core_view(X)))


def _check_not_tiny(M: float) -> None:
    """Rows whose squared norms all underflow (below the smallest normal
    float64) leave kernel values and decision values of 0 or denormal noise."""
    if 0.0 < M < DBL_MIN:
        raise ValueError(
            f"X has values too small for float64 arithmetic: the largest squared row norm is {M:.3g}, "
            f"below {DBL_MIN:.3g} (squared norms and dot products underflow). The input data need "
            "to be preprocessed (e.g. StandardScaler)."
        )


def largest_kernel_value(kernel: str, M: float, gamma: float, degree: int, coef0: float) -> float:
    """An upper bound of ``|k(x, z)|`` (for ``sigmoid``: of the argument of tanh)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if kernel == "rbf":
            return 1.0
        if kernel == "linear":
            return M
        if kernel == "sigmoid":
            return gamma * M + abs(coef0)
        if kernel == "poly":
            base = gamma * M + abs(coef0)
            if base <= 1.0 or degree == 0:
                return 1.0 if degree == 0 else base
            return math.inf if degree * math.log(base) > math.log(DBL_MAX) else base**degree
    raise ValueError(f"unknown kernel {kernel!r}")


def check_kernel_magnitude(X: Any, kernel: str, gamma: float, degree: int, coef0: float, limit: float) -> None:
    """ValueError when the kernel arithmetic on ``X`` may overflow: squared
    distances ``||x - z||^2 <= 4 M`` must stay finite in float64, and kernel
    values must stay below ``limit`` (FLT_MAX for a solver caching them in
    single precision, DBL_MAX otherwise)."""
    M = max_squared_row_norm(X)
    _check_not_tiny(M)
    if not 4.0 * M <= DBL_MAX:
        raise ValueError(
            f"{_NOT_FINITE}: the largest squared row norm of X is {M:.3g}, so squared distances and "
            "dot products overflow float64 (scale the features, e.g. with StandardScaler)."
        )
    bound = largest_kernel_value(kernel, M, gamma, degree, coef0)
    if not bound <= limit:
        raise ValueError(
            f"{_NOT_FINITE}: the largest squared row norm of X is {M:.3g}, so the {kernel!r} kernel "
            f"reaches values up to {bound:.3g}, beyond {limit:.3g} (scale the features, e.g. with "
            "StandardScaler)."
        )


def check_matrix_magnitude(K: np.ndarray, limit: float) -> None:
    """ValueError when a precomputed (or callable's) kernel matrix exceeds ``limit``."""
    largest = float(np.max(np.abs(K))) if K.size else 0.0
    if not largest <= limit:
        raise ValueError(f"{_NOT_FINITE}: the kernel matrix holds values up to {largest:.3g}, beyond {limit:.3g}.")


def check_linear_magnitude(X: Any, bias: float) -> None:
    """ValueError when ``||x_i||^2 + bias^2`` leaves the range of the linear solver."""
    norm = max_squared_row_norm(X)
    _check_not_tiny(norm)
    M = norm + bias * bias
    if not M <= LINEAR_MAX_SQUARED_NORM:
        raise ValueError(
            f"X has values too large for the solver: the largest squared row norm (with the intercept "
            f"feature) is {M:.3g}, beyond {LINEAR_MAX_SQUARED_NORM:.3g} (float64 overflows). The input "
            "data may contain large values and need to be preprocessed (e.g. StandardScaler)."
        )
