"""``fit`` that either completes or leaves the estimator as it was.

scikit-learn's validation sets ``n_features_in_`` (and our estimators set
``classes_``) before the checks that may still reject the data, so a failed
``fit`` on an already fitted model left it half old, half new: predictions
that silently disagree with the attributes. The estimators' ``fit`` methods
are wrapped so that any exception restores the attributes as they were.
``fit`` only ever rebinds attributes (it never mutates a fitted array in
place), so a shallow copy of ``__dict__`` is the whole state.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def atomic_fit(fit: F) -> F:
    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        state = dict(self.__dict__)
        try:
            return fit(self, *args, **kwargs)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(state)
            raise

    return wrapper  # type: ignore[return-value]
