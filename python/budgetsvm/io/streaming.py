"""Reading an svmlight file larger than memory as a sequence of row chunks.

The file is decompressed block by block and fed to the C++ parser, which
hands back complete rows ``chunk_rows`` at a time (``SvmlightParser.take``)
and keeps a line cut by a block boundary for the next block. Nothing depends
on the whole file: the number of columns and the index base are given, not
discovered, so memory is one block plus the rows not yet handed out, and
a line is never held beyond ``max_line_bytes`` (``_limits.py``).
:class:`SvmlightChunks` is the reader; :func:`iter_svmlight` one pass of it.
"""

from __future__ import annotations

import os
from typing import Iterator, Optional, Tuple, Union

import numpy as np
import scipy.sparse as sp

from .. import _core
from .._limits import MAX_LINE_BYTES, check_max_line_bytes
from .._params import check_number
from .blocks import BlockReader
from .svmlight import _check_dtype

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

    One pass of :class:`budgetsvm.io.SvmlightChunks`. The file format and compressions
    are those of :func:`load_svmlight`
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
    return iter(SvmlightChunks(path, chunk_rows, n_features, zero_based, dtype, max_line_bytes))


class SvmlightChunks:
    """Passes over an svmlight file in chunks of rows, in bounded memory,
    that know how far into the file they are.

    Each ``iter()`` is one pass, read as :func:`budgetsvm.iter_svmlight` reads it (which
    is one such pass; the parameters and errors are its). :meth:`position` is
    the bytes of the file read so far by the current pass (for a compressed
    file: compressed bytes, so that a progress bar's total is the size as
    stored), ``size`` the file's size, ``rows`` the rows of the last complete
    pass and ``columns_seen`` one more than the largest 0-based feature index
    it read.

    Parameters
    ----------
    path, chunk_rows, n_features, zero_based, dtype, max_line_bytes
        As :func:`budgetsvm.iter_svmlight`.
    drop_extra_columns : bool, default=False
        Indices beyond ``n_features`` are checked and counted in
        ``columns_seen`` but left out of the chunks (a model predicting a file
        with more features than it was trained on, as LIBLINEAR does), not an
        error.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from budgetsvm.io import SvmlightChunks
    >>> path = Path(tempfile.mkdtemp()) / "tiny.svm"
    >>> _ = path.write_text("+1 1:0.5 3:2\\n-1 2:1\\n+1 1:1\\n")
    >>> data = SvmlightChunks(path, chunk_rows=2, n_features=3, zero_based=False)
    >>> [(X.shape, data.position()) for X, y in data]
    [((2, 3), 27), ((1, 3), 27)]
    >>> data.size, data.rows, data.columns_seen
    (27, 3, 3)
    """

    def __init__(self, path: Union[str, os.PathLike], chunk_rows: int, n_features: int, zero_based: bool,
                 dtype: type = np.float64, max_line_bytes: int = MAX_LINE_BYTES,
                 drop_extra_columns: bool = False) -> None:
        path = os.fspath(path)  # TypeError for a non-path (an int would open a file descriptor)
        self.dtype = _check_dtype(dtype)
        self.chunk_rows = check_number("chunk_rows", chunk_rows, integer=True, low=1)
        if n_features is None:
            raise TypeError("n_features must be given (iter_svmlight does not scan the whole file to find it).")
        self.n_features = check_number("n_features", n_features, integer=True, low=1, high=_INT64_MAX)
        if not isinstance(zero_based, (bool, np.bool_)):
            raise TypeError("zero_based must be True or False (no 'auto': that needs a scan of the whole file); "
                            f"got {zero_based!r}.")
        self.zero_based = bool(zero_based)
        self.max_line_bytes = check_max_line_bytes(max_line_bytes)
        self.drop_extra_columns = bool(drop_extra_columns)
        self.path = path
        self._blocks = BlockReader(path, _BLOCK_BYTES)  # FileNotFoundError now, not at the first next()
        self.size = self._blocks.size
        self.rows: Optional[int] = None
        self.columns_seen = 0

    def position(self) -> int:
        """Bytes of the file as stored read by the current pass so far."""
        return self._blocks.position()

    def __iter__(self) -> Iterator[Tuple[sp.csr_matrix, np.ndarray]]:
        parser = _core.SvmlightParser(
            float32=self.dtype == np.float32,
            zero_based=self.zero_based,
            n_features=self.n_features,
            max_line_bytes=self.max_line_bytes,
            drop_extra_columns=self.drop_extra_columns,
        )
        rows = 0
        try:
            for block in self._blocks:
                parser.feed(block)
                while parser.rows >= self.chunk_rows:
                    X, y = self._csr(parser.take(self.chunk_rows))
                    rows += X.shape[0]
                    yield X, y
            parser.end()  # a last line without a newline
        except ValueError as error:
            raise ValueError(f"{self.path}: {error}") from None
        while parser.rows > 0:
            X, y = self._csr(parser.take(self.chunk_rows))
            rows += X.shape[0]
            yield X, y
        self.rows = rows
        self.columns_seen = parser.columns_seen

    def _csr(self, taken):
        values, indices, indptr, labels = taken
        X = sp.csr_matrix((values, indices, indptr), shape=(len(labels), self.n_features), copy=False)
        return X, labels
