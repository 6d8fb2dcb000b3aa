"""LIBSVM's own prediction as a reference: its C ``svm_predict`` called on
every row of a CSR matrix, the rows' ``svm_node`` arrays built at once in
numpy (``svmutil.svm_predict`` spends most of its time building them row by
row in Python).

Shared by ``tests/test_model_files_real.py`` (which checks it against
``svmutil.svm_predict``) and ``bench/model_files.py`` (which times it).
Needs the ``libsvm-official`` package.
"""

from __future__ import annotations

import ctypes

import numpy as np
import scipy.sparse as sp
from libsvm.svm import libsvm, svm_node


def libsvm_c_predict(model, X) -> np.ndarray:
    """LIBSVM's C svm_predict on every row of CSR X, the nodes built at once:
    each row's (1-based index, value) pairs, then its terminator of index -1."""
    X = sp.csr_matrix(X)
    X.sort_indices()
    node = np.dtype([("index", np.intc), ("value", np.float64)], align=True)
    assert node.itemsize == ctypes.sizeof(svm_node)
    nodes = np.zeros(X.nnz + X.shape[0], dtype=node)
    starts = X.indptr[:-1] + np.arange(X.shape[0])
    ends = X.indptr[1:] + np.arange(X.shape[0])
    mask = np.ones(nodes.size, dtype=bool)
    mask[ends] = False
    nodes["index"][mask] = X.indices + 1
    nodes["value"][mask] = X.data
    nodes["index"][ends] = -1
    base = nodes.ctypes.data
    row = ctypes.POINTER(svm_node)
    return np.array([libsvm.svm_predict(model, ctypes.cast(base + int(s) * node.itemsize, row)) for s in starts])
