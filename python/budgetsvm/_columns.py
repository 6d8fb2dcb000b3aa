"""Training on the columns sparse data use.

Wide sparse data (hashed text features: millions of columns, a few hundred
non-zeros a row) would make the kernel solvers pay for every column: dense
blocks of support vectors or of kernel-column rows are ``n_features`` wide.
But a column that is zero in every training row is zero in every support
vector too (support vectors are training rows or, after merges, combinations
of them), so it adds nothing to any dot product, norm or distance between
them. Training therefore runs on the used columns only, renumbered
``0..m-1`` (``UsedColumns.compact``), which is the same problem exactly.

A query row may have non-zeros outside those columns: they add nothing to
its dot products with the support vectors, and their squared sum ``r^2``
adds to every squared distance, so for the Gaussian kernel

    k(x, z) = exp(-gamma r^2) k(x restricted, z),

and for the dot-product kernels (linear, poly, sigmoid) ``k(x, z)`` is that
of the restricted row (``UsedColumns.restrict`` returns both parts).
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np
import scipy.sparse as sp

#: Compact only when fewer than this share of the columns is used: below it
#: the renumbered copy of the indices costs less than the unused width.
COMPACT_BELOW = 0.5
#: Index entries read at once while looking for the used columns.
CHUNK = 1 << 20


def _signed(dtype: np.dtype) -> np.dtype:
    """The signed integer dtype for validated (non-negative, in-range) CSR
    index arrays of `dtype`: itself when signed, else int64."""
    return dtype if np.dtype(dtype).kind == "i" else np.dtype(np.int64)


class UsedColumns:
    """The columns a sparse training set uses (``columns``, sorted) out of
    ``n_features``."""

    def __init__(self, columns: np.ndarray, n_features: int):
        self.columns = np.ascontiguousarray(columns, dtype=np.int64)
        self.n_features = int(n_features)

    @classmethod
    def compact(cls, X: Any, keep: Optional["UsedColumns"] = None) -> Tuple[Any, Optional["UsedColumns"]]:
        """``(X on its used columns, the map)`` for CSR ``X`` that uses fewer
        than half of its columns; ``(X, None)`` otherwise (dense ``X``, or a
        sparse one that is not wide). ``keep``: the columns of a model the
        call continues (``partial_fit``, ``warm_start``), which the map then
        holds too, so that the model's support vectors keep every column they
        use (``remap`` moves them to the new numbering). ``X`` itself is
        never modified."""
        if not sp.issparse(X) or X.shape[1] == 0:
            return X, None
        # which columns occur: O(nnz) time, n_features bytes, and no copy of
        # the index array (taken in chunks: a fancy index converts its dtype)
        seen = np.zeros(X.shape[1], dtype=bool)
        for start in range(0, X.indices.size, CHUNK):
            seen[X.indices[start : start + CHUNK]] = True
        if keep is not None:
            seen[keep.columns] = True
        columns = np.flatnonzero(seen)
        if columns.size >= COMPACT_BELOW * X.shape[1]:
            return X, None
        used = cls(columns, X.shape[1])
        indices = np.searchsorted(columns, X.indices).astype(_signed(X.indices.dtype))
        compact = sp.csr_matrix((X.data, indices, X.indptr.astype(_signed(X.indptr.dtype), copy=False)),
                                shape=(X.shape[0], max(columns.size, 1)))
        return compact, used

    def restrict(self, X: Any) -> Tuple[Any, np.ndarray]:
        """``(X on the training columns, the squared norm of each row outside
        them)`` for a query ``X`` of ``n_features`` columns, dense or CSR."""
        m = max(self.columns.size, 1)
        if sp.issparse(X):
            # validated index arrays of an unsigned dtype (scipy warns on them, and
            # np.repeat refuses uint64 counts) as a signed dtype
            X = X.tocsr()
            X = sp.csr_matrix((X.data, X.indices.astype(_signed(X.indices.dtype), copy=False),
                               X.indptr.astype(_signed(X.indptr.dtype), copy=False)), shape=X.shape)
            place = np.searchsorted(self.columns, X.indices)
            inside = place < self.columns.size
            inside[inside] = self.columns[place[inside]] == X.indices[inside]
            rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
            outside = np.bincount(rows[~inside], weights=np.square(X.data[~inside], dtype=np.float64),
                                  minlength=X.shape[0])
            counts = np.bincount(rows[inside], minlength=X.shape[0])
            indptr = np.concatenate([[0], np.cumsum(counts)]).astype(X.indptr.dtype)
            restricted = sp.csr_matrix(
                (X.data[inside], place[inside].astype(X.indices.dtype), indptr), shape=(X.shape[0], m)
            )
            return restricted, outside
        X = np.asarray(X)
        mask = np.ones(X.shape[1], dtype=bool)
        mask[self.columns] = False
        outside = np.square(X[:, mask], dtype=np.float64).sum(axis=1)
        restricted = np.ascontiguousarray(X[:, self.columns]) if self.columns.size else np.zeros((X.shape[0], 1))
        return restricted, outside

    def remap(self, rows: np.ndarray, old: "UsedColumns") -> np.ndarray:
        """Dense rows in ``old``'s compact numbering in this map's (whose
        columns include ``old``'s: ``compact(X, keep=old)``)."""
        out = np.zeros((rows.shape[0], max(self.columns.size, 1)))
        if old.columns.size:
            out[:, np.searchsorted(self.columns, old.columns)] = rows[:, : old.columns.size]
        return out

    def expand(self, rows: Any) -> sp.csr_matrix:
        """Rows in the compact numbering (dense or CSR) as a CSR matrix of
        ``n_features`` columns in the original numbering."""
        rows = sp.csr_matrix(rows, copy=True)  # eliminate_zeros works in place
        if self.columns.size == 0:
            return sp.csr_matrix((rows.shape[0], self.n_features), dtype=rows.dtype)
        rows.eliminate_zeros()
        # eliminate_zeros moves indptr but may leave the arrays' tails behind
        nnz = int(rows.indptr[-1])
        return sp.csr_matrix(
            (rows.data[:nnz], self.columns[rows.indices[:nnz]], rows.indptr), shape=(rows.shape[0], self.n_features)
        )


def scale_outside(scores: np.ndarray, outside: np.ndarray, kernel: str, gamma: float) -> np.ndarray:
    """Kernel expansions of restricted rows turned into those of the full
    rows: times ``exp(-gamma r^2)`` for the Gaussian kernel, unchanged for
    the dot-product kernels."""
    if kernel != "rbf":
        return scores
    factor = np.exp(-gamma * outside)
    return scores * (factor[:, None] if scores.ndim == 2 else factor)
