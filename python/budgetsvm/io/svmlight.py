"""Reading LIBSVM / svmlight files.

Python only opens the file and streams decompressed bytes (``blocks.py``);
the C++ core parses them (python/bindings/bind_data.cpp,
cpp/include/budgetsvm/io/svmlight.hpp).
"""

from __future__ import annotations

import os
from typing import Optional, Tuple, Union

import numpy as np
import scipy.sparse as sp

from .. import _core
from .._limits import MAX_LINE_BYTES, check_max_line_bytes
from .blocks import BlockReader

_CHUNK_BYTES = 1 << 22


def _check_dtype(dtype: type) -> np.dtype:
    value_dtype = np.dtype(dtype)
    if value_dtype not in (np.float64, np.float32):
        raise ValueError(f"dtype must be float64 or float32; got {value_dtype}.")
    return value_dtype


def load_svmlight(
    path: Union[str, os.PathLike],
    n_features: Optional[int] = None,
    dtype: type = np.float64,
    zero_based: Union[bool, str] = False,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> Tuple[sp.csr_matrix, np.ndarray]:
    """Load a LIBSVM / svmlight file into a CSR matrix and a label vector.

    Plain, ``.bz2``, ``.gz`` and ``.xz`` files are read (recognised by their
    content). Lines are ``<label> [qid:<n>] <index>:<value> ... [# comment]``;
    blank and ``#`` lines are skipped, query ids ignored. Labels and values
    are numbers of one grammar: one optional sign, then digits with an
    optional decimal point and exponent (``-1``, ``+0.5``, ``.5``, ``1e-3``);
    ``+-1``, ``0x10`` or ``1_000`` are errors (``docs/streaming.md``).

    Parameters
    ----------
    path : str or path-like
    n_features : int, default=None
        Number of columns. ``None`` uses the largest index in the file; pass it
        when a test file may not use the last feature (as a9a.t).
    dtype : {np.float64, np.float32}, default=np.float64
        dtype of the values.
    zero_based : bool or "auto", default=False
        Whether the file's feature indices start at 0 (LIBSVM's start at 1).
        ``"auto"`` (scikit-learn's meaning): 0-based if some index in the file
        is 0, else 1-based.
    max_line_bytes : int, default=MAX_LINE_BYTES
        The longest line accepted, in bytes (16 MiB by default,
        ``budgetsvm._limits.MAX_LINE_BYTES``). A longer line, or input
        without newlines (``/dev/zero``, a binary file), is a ValueError
        naming the line once this many bytes are held, not a read until
        memory runs out.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n_samples, n_features)
        Index arrays are int32 whenever they fit (which scikit-learn's ``SVC``
        requires), int64 otherwise.
    y : ndarray of shape (n_samples,), float64

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        On a malformed line (the message names the line number and the
        problem), a line longer than ``max_line_bytes``, a corrupt or
        truncated compressed file, or when ``n_features`` is smaller than an
        index in the file.

    Examples
    --------
    >>> import tempfile, os
    >>> from budgetsvm import load_svmlight
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.svm")
    >>> with open(path, "w") as f:
    ...     _ = f.write("+1 1:0.5 3:2\\n-1 2:1\\n")
    >>> X, y = load_svmlight(path)
    >>> X.toarray()
    array([[0.5, 0. , 2. ],
           [0. , 1. , 0. ]])
    >>> y
    array([ 1., -1.])
    """
    value_dtype = _check_dtype(dtype)
    if n_features is not None and (not isinstance(n_features, (int, np.integer)) or n_features < 1):
        raise ValueError(f"n_features must be a positive integer or None; got {n_features!r}.")
    auto = isinstance(zero_based, str) and zero_based == "auto"
    if not auto and not isinstance(zero_based, (bool, np.bool_)):
        raise ValueError(f"zero_based must be True, False or 'auto'; got {zero_based!r}.")
    max_line_bytes = check_max_line_bytes(max_line_bytes)
    parser = _core.SvmlightParser(
        float32=value_dtype == np.float32, zero_based=bool(auto or zero_based), max_line_bytes=max_line_bytes
    )
    try:
        for chunk in BlockReader(path, _CHUNK_BYTES):
            parser.feed(chunk)
        values, indices, indptr, labels, columns_seen = parser.finish()
    except ValueError as error:
        raise ValueError(f"{os.fspath(path)}: {error}") from None
    if auto and (indices.size == 0 or int(indices.min()) > 0):
        # no index 0 anywhere: a 1-based file (the arrays are ours: shift in place)
        indices -= 1
        columns_seen = max(columns_seen - 1, 0)
    if n_features is None:
        n_features = max(columns_seen, 1)  # as scikit-learn: an empty file is (0, 1)
    elif n_features < columns_seen:
        raise ValueError(
            f"n_features={n_features} is smaller than the largest feature index in the file ({columns_seen})."
        )
    X = sp.csr_matrix((values, indices, indptr), shape=(len(labels), int(n_features)), copy=False)
    return X, labels
