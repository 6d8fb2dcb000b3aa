"""Fitted state published in one step: ``fit`` either completes or changes nothing.

An estimator's state is its instance ``__dict__`` (hyperparameters and fitted
attributes). Two rules make every fit atomic, for a failure and for a
concurrent reader alike:

* ``fit`` and ``partial_fit`` (wrapped by :func:`atomic_fit`) run on a
  detached copy of the estimator, whose ``__dict__`` is a shallow copy of the
  live one, and publish it with one assignment of ``__dict__`` at the end.
  A fit that raises (``KeyboardInterrupt`` included) publishes nothing: the
  estimator is exactly as it was. Fitting only ever rebinds attributes on
  the copy and never mutates a published array, list or dict in place.
* The methods that read fitted state (``predict``, ``decision_function``,
  ...; wrapped by :func:`fitted_view`) take the ``__dict__`` current at the
  call once and compute from it alone, so a ``predict`` running while
  another thread fits sees the old model or the new one, never a mix.

Not made safe: two fits of one estimator at the same time (the last to finish
wins; the other's work is discarded), and ``set_params`` during a fit or a
``predict`` (it changes the live hyperparameters in place). docs/api.md says
so to users.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def _detached(est: Any, state: dict) -> Any:
    """An instance of ``est``'s class whose ``__dict__`` is ``state`` itself (no copy)."""
    other = object.__new__(type(est))
    other.__dict__ = state
    return other


def atomic_fit(fit: F) -> F:
    """Run ``fit`` on a copy of the estimator and publish its state in one assignment."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        work = _detached(self, dict(self.__dict__))
        result = fit(work, *args, **kwargs)
        self.__dict__ = work.__dict__  # the one step that publishes the new model
        return self if result is work else result

    return wrapper  # type: ignore[return-value]


def fitted_view(method: F) -> F:
    """Run a read-only ``method`` on the estimator's state as it is at the call."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        return method(_detached(self, self.__dict__), *args, **kwargs)

    return wrapper  # type: ignore[return-value]
