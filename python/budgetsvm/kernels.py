"""Kernel matrices computed by the C++ core."""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np

from . import _core
from ._data import as_supported, core_view, resolve_gamma
from ._params import check_number, choices, effective_n_jobs

# The kernel names of the core's option registry (kernel_options.hpp), as SVC
# and BudgetedSVC check them.
KERNELS = choices("exact", "kernel")


def kernel_matrix(
    X: Any,
    Y: Optional[Any] = None,
    kernel: str = "rbf",
    gamma: Union[float, str] = "scale",
    degree: int = 3,
    coef0: float = 0.0,
    n_jobs: Optional[int] = None,
) -> np.ndarray:
    """Compute the kernel matrix ``K[i, j] = k(X[i], Y[j])``.

    Blocks are computed from dot products (``||x - y||^2`` from
    ``||x||^2 + ||y||^2 - 2 <x, y>`` for the Gaussian kernel, with both points
    shifted by a common reference point so that offset features do not cancel),
    reading dense or CSR input in place, in float64, with the GIL released.
    The same register tiles as the estimators' prediction (docs/numerics.md).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples_X, n_features)
    Y : array-like or sparse matrix of shape (n_samples_Y, n_features), default=None
        ``None`` means ``Y = X``.
    kernel : {"linear", "rbf", "poly", "sigmoid"}, default="rbf"
        ``linear``: ``<x, y>``; ``rbf``: ``exp(-gamma ||x - y||^2)``;
        ``poly``: ``(gamma <x, y> + coef0)^degree``;
        ``sigmoid``: ``tanh(gamma <x, y> + coef0)``.
    gamma : float, "scale" or "auto", default="scale"
        As in scikit-learn: ``"scale"`` is ``1 / (n_features * X.var())``,
        ``"auto"`` is ``1 / n_features`` (both computed from ``X``).
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=0.0
        Constant term of the polynomial and sigmoid kernels.
    n_jobs : int or None, default=None
        Threads over blocks of rows of ``X`` (``None`` means 1, ``-1`` all
        cores; capped at the cores available). The result does not depend on
        ``n_jobs``.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y), float64

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import kernel_matrix
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0]])
    >>> kernel_matrix(X, kernel="rbf", gamma=1.0).round(4)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    """
    if kernel not in KERNELS:
        raise ValueError(f"Unknown kernel {kernel!r}; expected one of {KERNELS}.")
    degree = check_number("degree", degree, integer=True, low=0, high=2**31 - 1)  # the core's int
    coef0 = check_number("coef0", coef0)
    X = as_supported(X)
    Y = X if Y is None else as_supported(Y)
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but Y has {Y.shape[1]}.")
    gamma_value = 1.0 if kernel == "linear" else resolve_gamma(gamma, X)
    return _core.kernel_matrix(core_view(X), core_view(Y), kernel, gamma_value, int(degree), float(coef0),
                               effective_n_jobs(n_jobs))
