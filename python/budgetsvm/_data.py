"""The data contract between Python and the C++ core.

The C++ core reads, in place and without copying:

* dense ``numpy`` arrays of dtype float32 or float64, C- or F-contiguous;
* CSR matrices (``scipy.sparse.csr_matrix`` / ``csr_array``) with float32 or
  float64 values and int32 or int64 indices, in canonical form (no duplicate
  entries).

Everything else is converted here, once and explicitly: integer, boolean and
float16 data become float64; non-contiguous arrays become C-contiguous; other
sparse formats become CSR; a CSR matrix with duplicate or unsorted entries is
copied and canonicalised (the caller's matrix is never modified).
"""

from __future__ import annotations

from typing import Any, Tuple, Union

import numpy as np
import scipy.sparse as sp

from . import _core

CoreData = Union[np.ndarray, Tuple[np.ndarray, np.ndarray, np.ndarray, int, int]]

SUPPORTED_DTYPES = (np.float64, np.float32)


def _is_supported_dense(X: np.ndarray) -> bool:
    return (
        X.ndim == 2
        and X.dtype in SUPPORTED_DTYPES
        and (X.flags.c_contiguous or X.flags.f_contiguous)
        and X.flags.aligned
        and X.dtype.isnative
    )


def as_supported(X: Any) -> Any:
    """Return ``X`` itself when the core can read it in place, else a converted copy.

    The result is a 2-D float32/float64 contiguous ``ndarray`` or a canonical
    CSR matrix with float32/float64 values. Raises ``ValueError`` for empty,
    non-finite or wrongly shaped input and ``TypeError`` for complex or
    non-numeric data.
    """
    if sp.issparse(X):
        if X.format != "csr":
            X = X.tocsr()
        if X.dtype not in SUPPORTED_DTYPES:
            _check_numeric_dtype(X.dtype)
            X = X.astype(np.float64)
        if X.indices.dtype != X.indptr.dtype or X.indices.dtype not in (np.int32, np.int64):
            X = X.copy()
            X.indices = X.indices.astype(np.int64)
            X.indptr = X.indptr.astype(np.int64)
        # Before anything indexes with them (scipy's own canonical-format
        # routines included): malformed index arrays crash or read out of bounds.
        if X.data.shape[0] != X.indices.shape[0]:
            raise ValueError(
                f"malformed CSR matrix: {X.data.shape[0]} stored values but {X.indices.shape[0]} column indices"
            )
        _core.check_csr(
            np.ascontiguousarray(X.indices), np.ascontiguousarray(X.indptr), int(X.shape[0]), int(X.shape[1])
        )
        if not X.has_canonical_format or X.indptr[0] != 0:
            X = _canonical_copy(X)
        if not (X.data.flags.c_contiguous and X.indices.flags.c_contiguous and X.indptr.flags.c_contiguous):
            X = X.copy()
    else:
        if not isinstance(X, np.ndarray):
            X = np.asarray(X)
        if X.dtype not in SUPPORTED_DTYPES:
            _check_numeric_dtype(X.dtype)
            X = X.astype(np.float64)
        if X.ndim != 2:
            raise ValueError(
                f"Expected a 2-D array, got an array with {X.ndim} dimension(s) "
                "(reshape a single sample with X.reshape(1, -1), a single feature "
                "with X.reshape(-1, 1))."
            )
        if not _is_supported_dense(X):
            X = np.ascontiguousarray(X, dtype=X.dtype.newbyteorder("="))
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"Found an empty array of shape {X.shape}; at least one sample and one feature are required.")
    if not _core.all_finite(core_view(X)):
        raise ValueError("Input contains NaN or infinity.")
    return X


def _canonical_copy(X: Any) -> Any:
    """A canonical copy of the CSR matrix ``X`` (the caller's matrix is never
    sorted or summed in place). Finite duplicate entries whose sum leaves the
    dtype's range are an error that says so: the non-finite check after it
    would blame the input for a NaN or infinity it does not hold."""
    stored = X.data[X.indptr[0] : X.indptr[-1]]
    finite_before = bool(np.isfinite(stored).all())
    X = X.copy()
    X.sum_duplicates()
    if finite_before and not np.isfinite(X.data).all():
        k = int(np.flatnonzero(~np.isfinite(X.data))[0])
        row = int(np.searchsorted(X.indptr, k, side="right")) - 1
        raise ValueError(
            f"Input has duplicate entries (one row and column stored more than once) that sum to infinity: "
            f"the entries at row {row}, column {int(X.indices[k])} overflow {X.dtype} "
            f"(largest finite value {np.finfo(X.dtype).max:.6g}). Scale the data down, or combine the "
            "duplicates yourself."
        )
    return X


def _check_numeric_dtype(dtype: np.dtype) -> None:
    if dtype.kind == "c":
        raise TypeError("Complex data is not supported.")
    if dtype.kind not in "biuf":
        raise TypeError(f"Data of dtype {dtype} is not numeric; convert it to float first.")


def core_view(X: Any) -> CoreData:
    """The object the C++ core wraps without copying (``X`` must be supported).

    Dense arrays pass as they are; CSR matrices as ``(data, indices, indptr,
    n_rows, n_cols)``. The caller keeps ``X`` alive for the duration of the call.
    """
    if sp.issparse(X):
        n_rows, n_cols = X.shape
        return (X.data, X.indices, X.indptr, int(n_rows), int(n_cols))
    return X


def resolve_gamma(gamma: Any, X: Any) -> float:
    """scikit-learn's meaning of ``gamma``: a positive float, ``"scale"`` =
    ``1 / (n_features * X.var())`` or ``"auto"`` = ``1 / n_features``.

    ``X.var()`` is computed in C++ over the supported view (no temporary copy
    of ``X``), in two passes (mean, then squared deviations); it counts
    implicit zeros of a sparse ``X``.
    """
    n_features = X.shape[1]
    if isinstance(gamma, str):
        if gamma == "scale":
            # the variance from squared deviations (a second pass), not from
            # E[x^2] - E[x]^2, which cancels for offset features
            _, _, count, centred = _core.entry_moments(core_view(X))
            with np.errstate(over="ignore", divide="ignore"):
                variance = centred / count
                value = 1.0 / (n_features * variance) if variance > 0 else 1.0
            if not (np.isfinite(variance) and np.isfinite(value) and value > 0):
                # n_features * X.var() overflowed: gamma would be 0 (every
                # Gaussian kernel value 1), never a model of the data
                raise ValueError(
                    f"gamma='scale' is 1 / (n_features * X.var()) and n_features * X.var() = "
                    f"{n_features * variance:.3g} overflows float64. The input data may contain large "
                    "values and need to be preprocessed (e.g. StandardScaler)."
                )
            return float(value)
        if gamma == "auto":
            return 1.0 / n_features
        raise ValueError(f"gamma must be a positive float, 'scale' or 'auto'; got {gamma!r}.")
    if isinstance(gamma, (bool, np.bool_)) or not isinstance(gamma, (int, float, np.integer, np.floating)):
        raise TypeError(f"gamma must be a positive float, 'scale' or 'auto'; got {gamma!r}.")
    try:
        value = float(gamma)
    except OverflowError:  # an int beyond float64
        value = np.inf
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"gamma must be a positive float, 'scale' or 'auto'; got {gamma!r}.")
    return value
