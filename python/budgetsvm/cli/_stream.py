"""``budgetsvm train --stream``: training and cross-validation by
``partial_fit`` over a file read in chunks, in memory independent of its size.

Progress is measured in bytes of the file as stored: for a ``.gz``, ``.bz2``
or ``.xz`` file the compressed bytes read so far against the compressed
size, so that the ETA holds from the first chunk on
(:class:`budgetsvm.io.SvmlightChunks`).

Cross-validation (``-v K``) assigns every row to a fold by its row number:
the rows are taken in blocks of ``K`` consecutive rows, and each block is
dealt to the ``K`` folds in an order drawn from a hash of the random state
and the block's number (:func:`folds`). Every fold thus gets one row of
every ``K`` (none is empty once the file has ``K`` rows), the assignment
needs no memory and no second look at the file, and the same random state
gives the same folds. Fold ``k`` is trained by ``epochs`` passes of
``partial_fit`` over the rows not in fold ``k`` and tested on the rows of
fold ``k`` during the next pass, which also trains fold ``k + 1``:
``K * epochs + 1`` passes in all.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..io import SvmlightChunks, shuffle_chunks
from ._progress import Progress


def find_labels(data: SvmlightChunks, mode: str) -> List[float]:
    """The labels of the file, sorted: one pass that reads only them."""
    seen: set = set()
    with Progress(mode, data.size, "reading the labels", unit="B", pass_bytes=data.size) as progress:
        for _, y in data:
            seen.update(np.unique(y).tolist())
            progress.moveto(data.position())
    return sorted(seen)


def train(data: SvmlightChunks, est: type, kwargs: Dict[str, Any], classes: Sequence[Any], epochs: int,
          shuffle_buffer: int, mode: str) -> Any:
    """``epochs`` passes of ``partial_fit`` over the file; shows each pass as ``epoch 2/3``."""
    clf = est(**kwargs)
    with Progress(mode, epochs * data.size, "epoch 1", unit="B", pass_bytes=data.size) as progress:
        for epoch in range(epochs):
            progress.describe(f"epoch {epoch + 1}/{epochs}")
            chunks: Iterator[Tuple[Any, np.ndarray]] = iter(data)
            if shuffle_buffer:
                chunks = shuffle_chunks(chunks, shuffle_buffer, random_state=epoch)
            for X, y in chunks:
                clf.partial_fit(X, y, classes=classes)
                progress.moveto(epoch * data.size + data.position())
            progress.moveto((epoch + 1) * data.size)
            progress.mark(f"{data.rows:,} rows, {int(clf.n_support_)} support vectors")
    return clf


def _mix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: 64 well-mixed bits of each uint64."""
    z = values.astype(np.uint64)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def folds(first_row: int, n_rows: int, k: int, seed: int) -> np.ndarray:
    """The fold (0 .. k-1) of the rows ``first_row`` .. ``first_row + n_rows - 1``.

    The rows are dealt in blocks of ``k`` consecutive rows, block ``b`` in the
    order of ``hash(seed, b, j)`` over its positions ``j``: every fold gets
    one row of each block, whatever the chunks are.

    Examples
    --------
    >>> f = folds(0, 10, 5, seed=0)
    >>> sorted(f[:5].tolist()), sorted(f[5:].tolist())
    ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
    >>> bool((folds(3, 4, 5, seed=0) == f[3:7]).all())
    True
    """
    rows = np.arange(first_row, first_row + n_rows, dtype=np.int64)
    blocks, place = rows // k, rows % k
    first_block = int(blocks[0]) if n_rows else 0
    n_blocks = int(blocks[-1]) - first_block + 1 if n_rows else 0
    keys = np.arange(first_block, first_block + n_blocks, dtype=np.uint64)[:, None] * np.uint64(k) + np.arange(
        k, dtype=np.uint64)[None, :]
    with np.errstate(over="ignore"):
        hashed = _mix(_mix(keys) ^ _mix(np.full(1, seed, dtype=np.uint64)))
    order = np.argsort(np.argsort(hashed, axis=1, kind="stable"), axis=1, kind="stable")
    return order[blocks - first_block, place]


def _check_rows(data: SvmlightChunks, k: int) -> None:
    if data.rows is not None and data.rows < k:
        raise ValueError(f"-v {k}: {data.path} has {data.rows} rows, fewer than the {k} folds")


class _FoldScore:
    """Counts the correct predictions of ``model`` on the rows of fold ``fold``."""

    def __init__(self, fold: int, model: Any) -> None:
        self.fold, self.model, self.correct, self.rows = fold, model, 0, 0

    def __call__(self, X: Any, y: np.ndarray) -> None:
        if X.shape[0]:
            self.correct += int(np.sum(self.model.predict(X) == y))
            self.rows += X.shape[0]


def _pass(data: SvmlightChunks, k: int, seed: int, train_fold: Optional[int], score: Optional[_FoldScore],
          progress: Progress, done: int) -> Iterator[Tuple[Any, np.ndarray]]:
    """One pass: the rows not in ``train_fold`` (to train on), after
    ``score`` has seen the rows of its fold."""
    first = 0
    for X, y in data:
        fold = folds(first, X.shape[0], k, seed)
        first += X.shape[0]
        if score is not None:
            mine = fold == score.fold
            score(X[mine], y[mine])
        if train_fold is not None:
            keep = fold != train_fold
            if keep.any():
                yield X[keep], y[keep]
        progress.moveto(done + data.position())


def cross_validate(data: SvmlightChunks, est: type, kwargs: Dict[str, Any], classes: Sequence[Any], epochs: int,
                   k: int, seed: int, shuffle_buffer: int, mode: str) -> Tuple[int, int]:
    """K-fold cross-validation over passes of the file; returns (correct, rows)."""
    passes = k * epochs + 1
    correct = rows = 0
    pending: Optional[_FoldScore] = None
    with Progress(mode, passes * data.size, "fold 1", unit="B", pass_bytes=data.size) as progress:
        for step in range(passes):
            _check_rows(data, k)
            fold, epoch = divmod(step, epochs)
            score = pending if epoch == 0 else None
            if fold < k:
                if epoch == 0:
                    model = est(**kwargs)
                progress.describe(f"fold {fold + 1}/{k}, epoch {epoch + 1}/{epochs}")
                chunks: Iterator[Tuple[Any, np.ndarray]] = _pass(data, k, seed, fold, score, progress,
                                                                 step * data.size)
                if shuffle_buffer:
                    chunks = shuffle_chunks(chunks, shuffle_buffer, random_state=np.random.RandomState(
                        [seed, fold, epoch]))
                for X, y in chunks:
                    model.partial_fit(X, y, classes=classes)
                progress.moveto((step + 1) * data.size)
                progress.mark(f"{int(model.n_support_)} support vectors")
            else:  # the last pass only tests the last fold
                progress.describe(f"fold {k}/{k}, testing")
                for _ in _pass(data, k, seed, None, score, progress, step * data.size):
                    pass
            _check_rows(data, k)
            progress.moveto((step + 1) * data.size)
            if score is not None:
                correct, rows = correct + score.correct, rows + score.rows
                progress.mark(f"accuracy {100 * score.correct / max(score.rows, 1):g}% ({score.correct}/{score.rows})",
                              desc=f"fold {score.fold + 1}/{k}")
            if fold < k and epoch == epochs - 1:
                pending = _FoldScore(fold, model)
    return correct, rows
