"""Hyperparameters: the C++ registries, and the checks the estimators share.

Every hyperparameter the core reads is described once, in C++ (the
registries of ``cpp/include/budgetsvm/*/params.hpp``: name, kind, default,
range, one-line description) and reaches Python through ``_core.options(family)``. An estimator passes the
attributes that share a registry name through unchanged (``core_params``) and
translates only scikit-learn's conventions (``gamma="scale"``, ``n_jobs``,
``random_state``, ``class_weight``, ``None`` for "no limit").
"""

from __future__ import annotations

import functools
import math
import numbers
from typing import Any, Dict, Optional, Tuple

import joblib
import numpy as np

from . import _core

FAMILIES = ("budgeted", "exact", "linear")


@functools.lru_cache(maxsize=None)
def options(family: str) -> Dict[str, Dict[str, Any]]:
    """The registry of a solver family: option name -> its description
    (``kind``, ``default``, ``doc``, and ``low`` / ``high`` / ``low_open`` /
    ``high_open`` or ``choices``)."""
    return {entry["name"]: dict(entry) for entry in _core.options(family)}


def defaults(family: str) -> Dict[str, Any]:
    """Default value of every option of a solver family."""
    return {name: entry["default"] for name, entry in options(family).items()}


def choices(family: str, name: str) -> Tuple[str, ...]:
    """The allowed values of a text option."""
    return tuple(options(family)[name]["choices"])


def core_params(estimator: Any, family: str, later: Tuple[str, ...] = (), **translated: Any) -> Dict[str, Any]:
    """The options of ``family`` read from ``estimator``: every constructor
    parameter that has a registry name is passed as given, ``translated``
    adds or overrides the rest, and the names in ``later`` are left out (the
    caller adds them once the data are known, as ``gamma="scale"``).
    Checked at once by the core (``TypeError`` for a value of the wrong type,
    ``ValueError`` for one out of range, both naming the parameter), so a bad
    value fails before any data is touched."""
    names = options(family)
    params = {
        name: value
        for name, value in estimator.get_params(deep=False).items()
        if name in names and name not in translated and name not in later
    }
    params.update(translated)
    _core.check_options(family, params)
    return params


def check_number(
    name: str,
    value: Any,
    *,
    integer: bool = False,
    low: Optional[float] = None,
    low_inclusive: bool = True,
    high: Optional[float] = None,
    high_inclusive: bool = True,
) -> Any:
    """Validate a scalar hyperparameter; returns it as int or float."""
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, kind):
        what = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {what}; got {value!r} of type {type(value).__name__}.")
    try:
        value = int(value) if integer else float(value)  # type: ignore[call-overload]  # checked above
    except OverflowError:  # an integer beyond float64
        value = math.inf if value > 0 else -math.inf
    if not integer and not math.isfinite(value):
        raise ValueError(f"{name} must be finite; got {value!r}.")
    if low is not None and (value < low or (value == low and not low_inclusive)):
        bound = ">=" if low_inclusive else ">"
        raise ValueError(f"{name} must be {bound} {low}; got {value!r}.")
    if high is not None and (value > high or (value == high and not high_inclusive)):
        bound = "<=" if high_inclusive else "<"
        raise ValueError(f"{name} must be {bound} {high}; got {value!r}.")
    return value


def check_choice(name: str, value: Any, choices: Tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}.")
    return value


def effective_n_jobs(n_jobs: Optional[int]) -> int:
    """Threads for ``n_jobs``: ``None`` means 1, ``-1`` all cores, ``-2`` all
    but one (as in joblib); 0 is an error. Never more threads than the cores
    this process may use (``joblib.cpu_count()``: affinity and cgroup limits
    included): ``n_jobs=1000`` on 2 cores ran 20x slower than ``n_jobs=1``.
    Threads only share work whose result does not depend on how it is split."""
    if n_jobs is None:
        return 1
    n_jobs = check_number("n_jobs", n_jobs, integer=True)
    if n_jobs == 0:
        raise ValueError("n_jobs must be a positive integer, -1 (all cores) or None; got 0.")
    cores = max(1, int(joblib.cpu_count()))
    if n_jobs < 0:
        return max(1, cores + 1 + n_jobs)
    return min(n_jobs, cores)


def check_sample_weight(
    sample_weight: Any, n_samples: int, allow_negative: bool = True, allow_all_zero: bool = False
) -> np.ndarray:
    """``sample_weight`` as a float64 array of shape (n_samples,): the one
    validator of every estimator (and of each partition of a dask fit).

    A scalar means that weight for every sample, as in scikit-learn. The
    entries must be finite, at least one of them positive (unless
    ``allow_all_zero``: a part of the data), and negative only where
    ``allow_negative`` (scikit-learn's SVC drops them like zeros). The
    messages are scikit-learn's (``_check_sample_weight`` and LIBSVM's
    wrapper), naming ``sample_weight``.

    >>> check_sample_weight(2, 3).tolist()
    [2.0, 2.0, 2.0]
    >>> check_sample_weight([1.0, 2.0], 3)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight.shape == (2,), expected (3,)!
    """
    sw = np.asarray(sample_weight, dtype=np.float64)
    if sw.ndim == 0:
        sw = np.full(n_samples, float(sw))
    if sw.ndim != 1:
        raise ValueError("Sample weights must be 1D array or scalar (sample_weight).")
    if sw.shape != (n_samples,):
        raise ValueError(f"sample_weight.shape == {sw.shape}, expected {(n_samples,)}!")
    if not np.all(np.isfinite(sw)):
        raise ValueError("sample_weight contains NaN or infinity.")
    if not allow_negative and np.any(sw < 0):
        raise ValueError("sample_weight must be >= 0.")
    if not allow_all_zero and not np.any(sw > 0):
        raise ValueError("Invalid input - all samples have zero or negative weights.")
    return np.ascontiguousarray(sw)


def plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (for messages: 1.0, not np.float64(1.0))."""
    return value.item() if isinstance(value, np.generic) else value


def check_class_weights(weights: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The per-class factors of ``C`` from ``compute_class_weight``: finite and >= 0."""
    for weight, label in zip(weights, classes):
        if not (np.isfinite(weight) and weight >= 0):
            raise ValueError(f"class_weight must be finite and >= 0; got {float(weight)!r} for class {plain(label)!r}.")
    return weights


def check_class_weight_spec(class_weight: Any) -> None:
    """scikit-learn's ``class_weight``: None, a dict or "balanced"."""
    if class_weight is not None and not (isinstance(class_weight, dict) or class_weight == "balanced"):
        raise ValueError(f"class_weight must be None, a dict or 'balanced'; got {class_weight!r}.")
