"""Reading an svmlight file larger than memory as a sequence of row chunks.

The file is decompressed block by block and fed to the C++ parser, which
hands back complete rows ``chunk_rows`` at a time (``SvmlightParser.take``)
and keeps a line cut by a block boundary for the next block. Nothing depends
on the whole file: the number of columns and the index base are given, not
discovered, so memory is one block plus the rows not yet handed out, and
a line is never held beyond ``max_line_bytes`` (``_limits.py``).
"""

from __future__ import annotations

import os
from typing import Iterator, Tuple, Union

import numpy as np
import scipy.sparse as sp

from . import _core
from ._limits import MAX_LINE_BYTES, check_max_line_bytes
from ._params import check_number
from .io import _check_dtype, _decompressor, _read_blocks

# Decompressed bytes fed to the parser at a time: the parsed rows of one block
# are what the iteration holds beyond the chunk it yields.
_BLOCK_BYTES = 1 << 20

_INT64_MAX = 2**63 - 1


def iter_svmlight(
    path: Union[str, os.PathLike],
    chunk_rows: int,
    n_features: int,
    zero_based: bool,
    dtype: type = np.float64,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> Iterator[Tuple[sp.csr_matrix, np.ndarray]]:
    """Read a LIBSVM / svmlight file as chunks of rows, in bounded memory.

    The file format and compressions are those of :func:`load_svmlight`
    (plain, ``.bz2``, ``.gz``, ``.xz``, recognised by content). The file is
    never held whole: memory is one decompressed block of about a megabyte,
    its parsed rows, the chunk being handed out and a line cut by a block
    boundary, which may grow to ``max_line_bytes`` and no further. Because
    no pass over the whole file is made, ``n_features`` and ``zero_based``
    must be given.

    Parameters
    ----------
    path : str or path-like
    chunk_rows : int
        Rows per chunk; the last chunk may be shorter.
    n_features : int
        Number of columns of every chunk. A feature index beyond it is an
        error naming its line.
    zero_based : bool
        Whether the file's feature indices start at 0 (LIBSVM's start at 1).
    dtype : {np.float64, np.float32}, default=np.float64
        dtype of the values.
    max_line_bytes : int, default=MAX_LINE_BYTES
        The longest line accepted, in bytes (16 MiB by default,
        ``budgetsvm._limits.MAX_LINE_BYTES``): a longer one, or input without
        newlines (``/dev/zero``), is a ValueError naming the line once this
        many bytes are held.

    Yields
    ------
    X : scipy.sparse.csr_matrix of shape (rows, n_features)
        Index arrays are int32 whenever they fit, int64 otherwise.
    y : ndarray of shape (rows,), float64

    Raises
    ------
    FileNotFoundError
        At the call, if ``path`` does not exist.
    TypeError, ValueError
        At the call, for a bad argument (``chunk_rows`` or ``n_features`` not a
        positive integer, ``zero_based`` not a bool, an unsupported dtype,
        ``max_line_bytes`` not a positive integer).
    ValueError
        During the iteration, when it reaches a malformed line, a line longer
        than ``max_line_bytes`` or an index beyond ``n_features`` (the
        message names the file and the line), or corrupt or truncated
        compressed data. Chunks from the blocks before
        the one holding the problem have already been yielded.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from budgetsvm import iter_svmlight
    >>> path = Path(tempfile.mkdtemp()) / "tiny.svm"
    >>> _ = path.write_text("+1 1:0.5 3:2\\n-1 2:1\\n+1 1:1\\n")
    >>> for X, y in iter_svmlight(path, chunk_rows=2, n_features=3, zero_based=False):
    ...     print(X.shape, y)
    (2, 3) [ 1. -1.]
    (1, 3) [1.]
    """
    return _stream(path, chunk_rows, n_features, zero_based, dtype, max_line_bytes)[0]


def _stream(
    path: Union[str, os.PathLike],
    chunk_rows: int,
    n_features: int,
    zero_based: bool,
    dtype: type = np.float64,
    max_line_bytes: int = MAX_LINE_BYTES,
    drop_extra_columns: bool = False,
) -> Tuple[Iterator[Tuple[sp.csr_matrix, np.ndarray]], "_core.SvmlightParser"]:
    """:func:`iter_svmlight`'s chunks, and the parser behind them, whose
    ``columns_seen`` is one more than the largest 0-based column read so far.
    ``drop_extra_columns``: indices beyond ``n_features`` are checked and
    counted there but left out of the chunks (a model predicting a file with
    more features than it was trained on, as LIBLINEAR does), not an error."""
    path = os.fspath(path)  # TypeError for a non-path (an int would open a file descriptor)
    value_dtype = _check_dtype(dtype)
    chunk_rows = check_number("chunk_rows", chunk_rows, integer=True, low=1)
    if n_features is None:
        raise TypeError("n_features must be given (iter_svmlight does not scan the whole file to find it).")
    n_features = check_number("n_features", n_features, integer=True, low=1, high=_INT64_MAX)
    if not isinstance(zero_based, (bool, np.bool_)):
        raise TypeError(
            f"zero_based must be True or False (no 'auto': that needs a scan of the whole file); got {zero_based!r}."
        )
    max_line_bytes = check_max_line_bytes(max_line_bytes)
    opener = _decompressor(path)  # FileNotFoundError now, not at the first next()
    parser = _core.SvmlightParser(
        float32=value_dtype == np.float32,
        zero_based=bool(zero_based),
        n_features=n_features,
        max_line_bytes=max_line_bytes,
        drop_extra_columns=drop_extra_columns,
    )
    return _chunks(path, opener, parser, chunk_rows, n_features), parser


def _chunks(path, opener, parser, chunk_rows, n_features):
    try:
        with opener(path, "rb") if opener else open(path, "rb") as f:
            for block in _read_blocks(f, _BLOCK_BYTES):
                parser.feed(block)
                while parser.rows >= chunk_rows:
                    yield _csr(parser.take(chunk_rows), n_features)
        parser.end()  # a last line without a newline
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    while parser.rows > 0:
        yield _csr(parser.take(chunk_rows), n_features)


def _csr(taken, n_features):
    values, indices, indptr, labels = taken
    return sp.csr_matrix((values, indices, indptr), shape=(len(labels), n_features), copy=False), labels
