"""Checks of hyperparameters shared by the estimators."""

from __future__ import annotations

import math
import numbers
import os
from typing import Any, Optional, Tuple

import numpy as np


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
    value = int(value) if integer else float(value)
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
    but one (as in joblib); 0 is an error."""
    if n_jobs is None:
        return 1
    n_jobs = check_number("n_jobs", n_jobs, integer=True)
    if n_jobs == 0:
        raise ValueError("n_jobs must be a positive integer, -1 (all cores) or None; got 0.")
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + n_jobs)
    return n_jobs
