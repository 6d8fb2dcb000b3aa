"""A bounded shuffle buffer over a stream of (X, y) chunks.

Stochastic training that meets a label-sorted stream (all of one class, then
all of another) drifts with each block. A buffer of ``buffer_rows`` rows mixes
the stream locally: rows are collected until the buffer is full, permuted,
and the first half (rounded to whole chunks) is emitted while the rest stays
and is mixed with the next rows. Because a row stays for another round with
probability about one half, the output window is not confined to one buffer
load as with plain fill-shuffle-emit, yet each round costs O(buffer) copies
for about buffer/2 rows out, O(1) per row, which also suits CSR chunks that
cannot be updated in place (a per-row random-replacement buffer, as a
reservoir, would copy the whole buffer per chunk). A buffer cannot mix classes
further apart than its size: for that, shuffle the file itself
(:func:`budgetsvm.shuffle_svmlight`).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, List, Optional, Tuple

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from .._params import check_number


def shuffle_chunks(
    chunks: Iterable[Tuple[Any, Any]],
    buffer_rows: int,
    random_state: Any = None,
) -> Iterator[Tuple[Any, np.ndarray]]:
    """Mix the rows of a stream of (X, y) chunks in a bounded buffer.

    Rows are gathered until ``buffer_rows`` are held, permuted, and about
    half of them (whole chunks) are emitted; the others stay to be mixed with
    the rows that follow. At the end of the input the rest is permuted and
    emitted. Every input row is emitted exactly once.

    Parameters
    ----------
    chunks : iterable of (X, y)
        X a 2-D ndarray or scipy sparse matrix (the same kind and number of
        columns in every chunk), y of length ``X.shape[0]``; for example
        :func:`budgetsvm.iter_svmlight`.
    buffer_rows : int
        Rows held at most (plus one input chunk). Rows further apart than
        this in the input are rarely swapped.
    random_state : int, RandomState instance or None, default=None
        An int gives the same order on every run.

    Yields
    ------
    X : same kind as the input (sparse chunks as CSR)
        Chunks with as many rows as the first non-empty input chunk (the
        last may be shorter).
    y : ndarray

    Raises
    ------
    TypeError, ValueError
        For a bad ``buffer_rows`` (at the call), and during the iteration for a
        chunk that is not a 2-D array or sparse matrix with a matching y, or
        whose kind or number of columns differs from the first chunk.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import shuffle_chunks
    >>> chunks = [(np.full((2, 1), i), np.full(2, i)) for i in range(4)]
    >>> out = list(shuffle_chunks(chunks, buffer_rows=4, random_state=0))
    >>> [X.shape for X, _ in out]
    [(2, 1), (2, 1), (2, 1), (2, 1)]
    >>> sorted(np.concatenate([y for _, y in out]).tolist())
    [0, 0, 1, 1, 2, 2, 3, 3]
    """
    buffer_rows = check_number("buffer_rows", buffer_rows, integer=True, low=1)
    return _shuffled(iter(chunks), buffer_rows, check_random_state(random_state))


def _shuffled(chunks, buffer_rows, rng):
    keep = buffer_rows // 2
    size: Optional[int] = None
    first: Any = None
    Xs: List[Any] = []
    ys: List[np.ndarray] = []
    held = 0
    for X, y in chunks:
        X, y = _check_chunk(X, y, first)
        if X.shape[0] == 0:
            continue
        if size is None:
            size, first = X.shape[0], X
        Xs.append(X)
        ys.append(y)
        held += X.shape[0]
        if held >= max(buffer_rows, keep + size):
            X_all, y_all = _stack(Xs, ys)
            order = rng.permutation(held)
            emitted = (held - keep) // size * size
            for start in range(0, emitted, size):
                rows = order[start : start + size]
                yield X_all[rows], y_all[rows]
            rest = order[emitted:]
            Xs, ys, held = [X_all[rest]], [y_all[rest]], len(rest)
    if held:
        assert size is not None
        X_all, y_all = _stack(Xs, ys)
        order = rng.permutation(held)
        for start in range(0, held, size):
            rows = order[start : start + size]
            yield X_all[rows], y_all[rows]


def _check_chunk(X: Any, y: Any, first: Any) -> Tuple[Any, np.ndarray]:
    if sp.issparse(X):
        X = X.tocsr()
    elif isinstance(X, np.ndarray):
        pass
    else:
        raise TypeError(f"each chunk's X must be a numpy array or a scipy sparse matrix; got {type(X).__name__}.")
    if X.ndim != 2:
        raise ValueError(f"each chunk's X must be 2-D; got shape {X.shape}.")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"a chunk has X of shape {X.shape} but y of shape {y.shape}.")
    if first is not None:
        if sp.issparse(X) != sp.issparse(first):
            raise TypeError("the chunks mix dense arrays and sparse matrices.")
        if X.shape[1] != first.shape[1]:
            raise ValueError(f"a chunk has {X.shape[1]} columns; the first had {first.shape[1]}.")
    return X, y


def _stack(Xs: List[Any], ys: List[np.ndarray]) -> Tuple[Any, np.ndarray]:
    if len(Xs) == 1:
        return Xs[0], ys[0]
    X = sp.vstack(Xs, format="csr") if sp.issparse(Xs[0]) else np.concatenate(Xs)
    return X, np.concatenate(ys)
