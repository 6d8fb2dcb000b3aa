"""Class labels to class indices, shared by every estimator's ``fit``.

``np.unique(y, return_inverse=True)`` sorts all ``n`` labels (``O(n log n)``,
a noticeable part of a short multi-threaded fit; docs/scale.md). Numeric
labels of a few classes are found in ``O(n k)`` instead: take the first
label left, drop its rows, repeat; then each row's index by a binary search
among the ``k`` sorted classes. Anything else (strings, objects, more
than ``FEW_CLASSES`` classes) goes to ``np.unique``, with the same result.
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from ._params import plain

FEW_CLASSES = 16


def encode_labels(y: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """``(classes, index)``: the sorted distinct labels of the 1-D ``y`` and the
    position of each row's label among them, as ``np.unique(y,
    return_inverse=True)`` returns them.

    Examples
    --------
    >>> classes, index = encode_labels(np.array([3.0, -1.0, 3.0, 7.0]))
    >>> classes.tolist(), index.tolist()
    ([-1.0, 3.0, 7.0], [1, 0, 1, 2])
    """
    y = np.asarray(y)
    if y.ndim == 1 and y.size and y.dtype.kind in "biuf":
        found: List[Any] = []
        rest = y
        while rest.size and len(found) < FEW_CLASSES:  # NaN never leaves `rest`: bounded by the count
            first = rest[0]
            found.append(first)
            rest = rest[rest != first]
        if rest.size == 0:
            classes = np.sort(np.array(found, dtype=y.dtype))
            return classes, np.searchsorted(classes, y)
    classes, index = np.unique(y, return_inverse=True)
    return classes, index.reshape(-1)


def index_in_classes(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The position of each label of the 1-D ``y`` among the sorted
    ``classes`` (a chunk or partition of an incremental or distributed fit);
    a ``ValueError`` naming the labels that are not among them.

    Examples
    --------
    >>> index_in_classes(np.array([1, -1, 1]), np.array([-1, 1])).tolist()
    [1, 0, 1]
    >>> index_in_classes(np.array([1, 2]), np.array([-1, 1]))
    Traceback (most recent call last):
        ...
    ValueError: y has labels that are not in classes: [2] (classes: [-1, 1]).
    """
    found, index = encode_labels(y)
    unknown = np.setdiff1d(found, classes)
    if unknown.size:
        raise ValueError(
            f"y has labels that are not in classes: {[plain(c) for c in unknown]} "
            f"(classes: {[plain(c) for c in classes]})."
        )
    return np.searchsorted(classes, found)[index]
