"""``budgetsvm train --stream``: training and cross-validation by
``partial_fit`` over a file read in chunks, in memory independent of its size.

Progress is measured in bytes of the file as stored: for a ``.gz``, ``.bz2``
or ``.xz`` file the compressed bytes read so far against the compressed
size, so that the ETA holds from the first chunk on (:class:`FileChunks`).

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

import io
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from . import _core
from ._cli_progress import Progress
from ._params import check_number
from ._limits import MAX_LINE_BYTES, check_max_line_bytes
from .io import _decompressor
from .streaming import _chunks


class FileChunks:
    """Passes over an svmlight file in chunks of rows, as
    :func:`budgetsvm.iter_svmlight` reads it, that know how far into the file
    they are.

    Each ``iter()`` is one pass. :meth:`position` is the bytes of the file
    read so far by the current pass (for a compressed file: compressed
    bytes), ``size`` the file's size and ``rows`` the rows of the last
    complete pass.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "tiny.svm"
    >>> _ = path.write_text("+1 1:0.5 3:2\\n-1 2:1\\n+1 1:1\\n")
    >>> data = FileChunks(path, chunk_rows=2, n_features=3, zero_based=False)
    >>> [(X.shape, data.position()) for X, y in data]
    [((2, 3), 27), ((1, 3), 27)]
    >>> data.size, data.rows
    (27, 3)
    """

    def __init__(self, path: Any, chunk_rows: int, n_features: int, zero_based: bool,
                 max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self.path = os.fspath(path)
        self.chunk_rows = check_number("chunk_rows", chunk_rows, integer=True, low=1)
        self.n_features = check_number("n_features", n_features, integer=True, low=1)
        self.zero_based = bool(zero_based)
        self.max_line_bytes = check_max_line_bytes(max_line_bytes)
        self.size = os.path.getsize(self.path)  # FileNotFoundError now
        self.rows: Optional[int] = None
        self._raw: Optional[io.FileIO] = None

    def position(self) -> int:
        raw = self._raw
        if raw is None:
            return 0
        return self.size if raw.closed else min(raw.tell(), self.size)

    def __iter__(self) -> Iterator[Tuple[Any, np.ndarray]]:
        decompress = _decompressor(self.path)  # compression by content, as iter_svmlight
        parser = _core.SvmlightParser(float32=False, zero_based=self.zero_based, n_features=self.n_features,
                                      max_line_bytes=self.max_line_bytes)

        opened: List[io.BufferedReader] = []

        def counted_open(path: str, mode: str) -> Any:
            # a BufferedReader over a FileIO whose tell() is the position;
            # a decompressor reads through it (and does not close it)
            self._raw = io.FileIO(path, "r")
            opened.append(io.BufferedReader(self._raw))
            return decompress(opened[0], mode) if decompress else opened[0]

        rows = 0
        chunks = _chunks(self.path, counted_open, parser, self.chunk_rows, self.n_features)
        try:
            for X, y in chunks:
                rows += X.shape[0]
                yield X, y
            self.rows = rows
        finally:
            chunks.close()
            for f in opened:
                f.close()


def find_labels(data: FileChunks, mode: str) -> List[float]:
    """The labels of the file, sorted: one pass that reads only them."""
    seen: set = set()
    with Progress(mode, data.size, "reading the labels", unit="B", pass_bytes=data.size) as progress:
        for _, y in data:
            seen.update(np.unique(y).tolist())
            progress.moveto(data.position())
    return sorted(seen)


def train(data: FileChunks, est: type, kwargs: Dict[str, Any], classes: Sequence[Any], epochs: int,
          shuffle_buffer: int, mode: str) -> Any:
    """``epochs`` passes of ``partial_fit`` over the file; shows each pass as ``epoch 2/3``."""
    from . import shuffle_chunks

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


def _check_rows(data: FileChunks, k: int) -> None:
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


def _pass(data: FileChunks, k: int, seed: int, train_fold: Optional[int], score: Optional[_FoldScore],
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


def cross_validate(data: FileChunks, est: type, kwargs: Dict[str, Any], classes: Sequence[Any], epochs: int,
                   k: int, seed: int, shuffle_buffer: int, mode: str) -> Tuple[int, int]:
    """K-fold cross-validation over passes of the file; returns (correct, rows)."""
    from . import shuffle_chunks

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
