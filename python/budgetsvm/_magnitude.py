"""Checks that the numbers a fit computes with, and what it stores, are sound.

``X`` and the kernel: values small enough for the solvers' arithmetic.

Data scaled by 1e154 or 1e300 overflow float64 in squared norms and kernel
values: without a check the solvers fit a trivial model (every kernel value
0 or infinite), step by zero forever, or report a confusing error about a
parameter the user never set. The checks here bound the kernel values from
the largest squared row norm ``M = max_i ||x_i||^2`` (Cauchy-Schwarz:
``|<x, z>| <= M``, ``||x - z||^2 <= 4 M``) and refuse data whose kernel
values would leave the range the solver computes in, with a ValueError that
says so. One pass over ``X`` in C++ (no copy of ``X``).

The costs: ``C * class_weight[y_i] * sample_weight[i]``, the bound of each
dual variable, must be a normal float64 where its factors are positive
(``check_costs``): ``LinearSVC(C=1e-310)`` divided by it (the squared
hinge's diagonal ``1 / (2 C_i)`` is infinite) and stored NaN coefficients.

The result: every estimator hands its fitted arrays to
``check_finite_fit`` before storing them, the net under every other check:
a non-finite coefficient is scikit-learn's ValueError, never a model.
"""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np
import scipy.sparse as sp

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


def check_costs(
    estimator: str,
    C: float,
    class_factor: Optional[np.ndarray] = None,
    sample_weight: Optional[np.ndarray] = None,
) -> None:
    """ValueError when a sample's cost ``C * class_weight[y_i] * sample_weight[i]``
    (the bound of its dual variable) underflows: positive factors whose
    product is 0 or below the smallest normal float64. The solvers divide by
    the cost (the squared hinge's ``1 / (2 C_i)``, BSGD's ``1 / (C n)``) or
    scale by it, and a subnormal one keeps a few bits at most: the fit
    returned NaN or noise. ``class_factor``: ``class_weight[y_i]`` per
    sample (None: 1); ``sample_weight``: validated weights (None: 1); a
    factor of 0 leaves a sample out and is not a cost.

    >>> check_costs("LinearSVC", 1.0, sample_weight=np.array([1.0, 0.0, 1e-300]))
    >>> check_costs("LinearSVC", 1e-300, sample_weight=np.array([1.0, 1e-10]))
    Traceback (most recent call last):
    ...
    ValueError: LinearSVC: C * class_weight * sample_weight underflows float64: sample 1 has C=1e-300, ...
    """
    advice = (
        f"below the smallest normal float64 ({DBL_MIN:.3g}); the solver divides by it or loses its digits "
        "(NaN or noise coefficients). Use a larger C or larger weights (a sample_weight of 0 leaves a sample out)."
    )
    if class_factor is None and sample_weight is None:
        if not C >= DBL_MIN:
            raise ValueError(f"{estimator}: C={C:.6g} underflows float64: the cost of every sample is {advice}")
        return
    factors = [np.asarray(a, dtype=np.float64).ravel() for a in (class_factor, sample_weight) if a is not None]
    cw = factors[0] if class_factor is not None else np.ones_like(factors[0])
    sw = factors[-1] if sample_weight is not None else np.ones_like(factors[0])
    with np.errstate(under="ignore"):
        cost = (C * cw) * sw  # in the order of the core's products
    bad = np.flatnonzero((cw > 0) & (sw > 0) & ~(cost >= DBL_MIN))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"{estimator}: C * class_weight * sample_weight underflows float64: sample {i} has C={C:.6g}, "
            f"class_weight={cw[i]:.6g} and sample_weight={sw[i]:.6g}, a cost of {cost[i]:.3g}, {advice}"
        )


def check_finite_fit(estimator: Any, **arrays: Any) -> None:
    """The net under every other check: a ValueError in scikit-learn's words
    (those of its ``SVC`` for non-finite dual coefficients or intercepts, and
    of its input validation for what they contain) when a fitted array is
    not finite, raised before the estimator stores it (or, in a distributed
    fit, passes it on). ``estimator``: the estimator, or its name;
    ``arrays``: the attribute names and the values they are about to hold
    (dense or sparse).

    >>> from budgetsvm import LinearSVC
    >>> check_finite_fit(LinearSVC(), coef_=np.zeros((1, 2)), intercept_=np.zeros(1))
    >>> check_finite_fit(LinearSVC(), coef_=np.array([[np.nan, 0.0]]))
    Traceback (most recent call last):
    ...
    ValueError: The dual coefficients or intercepts are not finite. ...(LinearSVC.coef_ would contain NaN; ...
    """
    for attribute, value in arrays.items():
        values = value.data if sp.issparse(value) else np.asarray(value)
        if values.size == 0 or _core.all_finite(np.ascontiguousarray(values, dtype=np.float64).reshape(1, -1)):
            continue
        what = "NaN" if np.isnan(values).any() else "infinity or a value too large for dtype('float64')"
        raise ValueError(
            "The dual coefficients or intercepts are not finite. The input data may contain large values and "
            f"need to be preprocessed. ({_public_name(estimator)}.{attribute} would contain {what}; the "
            "estimator is left as it was.)"
        )


def _public_name(estimator: Any) -> str:
    """``LinearSVC``, ``budgetsvm.dask.BudgetedSVC``: the name a user knows the class by."""
    if isinstance(estimator, str):
        return estimator
    cls = type(estimator)
    import budgetsvm

    if getattr(budgetsvm, cls.__name__, None) is cls:
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"
