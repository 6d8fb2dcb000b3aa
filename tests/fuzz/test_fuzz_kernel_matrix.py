"""Fuzzing ``kernel_matrix``: dense arrays of any dtype, shape and layout, CSR
triples valid and malformed, and the kernel parameters in and out of range.
Every result is checked against the kernel formula in float64 numpy."""

from __future__ import annotations

import numpy as np
from .fuzzing import (
    ANY_FLOAT,
    as_csr,
    call,
    csr_triples,
    dense_arrays,
    dense_of,
    examples,
    plain_float64,
)
from hypothesis import given
from hypothesis import strategies as st

from budgetsvm import kernel_matrix

KERNELS = st.sampled_from(["linear", "rbf", "poly", "sigmoid"])
GAMMAS = st.one_of(
    st.sampled_from(["scale", "auto"]),
    st.floats(1e-3, 10.0),
    st.sampled_from([0.0, -1.0, np.nan, np.inf, 1e-300, 1e300, "bad", None, True, np.float32(0.5), 10**400]),
)
DEGREES = st.one_of(st.integers(0, 5), st.sampled_from([-1, 2**31, 10**30, 3.0, True, "3", None]))
COEF0S = st.one_of(st.floats(-2.0, 2.0), st.sampled_from([np.nan, np.inf, 1e300, "1", None]))


def reference(X, Y, kernel, gamma, degree, coef0):
    """(K, tolerance) in float64; tolerance from the rounding of X Y^T."""
    G = X @ Y.T
    scale = np.outer(np.linalg.norm(X, axis=1), np.linalg.norm(Y, axis=1))
    eps = 64 * np.finfo(np.float32).eps  # the core may compute in float32 for float32 input
    if kernel == "linear":
        return G, eps * scale
    if kernel == "rbf":
        D = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
        norms = (X**2).sum(axis=1)[:, None] + (Y**2).sum(axis=1)[None, :]
        return np.exp(-gamma * D), eps * gamma * norms
    t = gamma * G + coef0
    size = gamma * scale + abs(coef0)
    if kernel == "sigmoid":
        return np.tanh(t), eps * size
    return t**degree, eps * max(degree, 1) * (size + 1.0) ** degree


def resolved_gamma(gamma, X):
    """scikit-learn's gamma; None where 'scale' is 0 or inf in float64."""
    if gamma == "scale":
        with np.errstate(all="ignore"):
            var = X.var()
            value = 1.0 / (X.shape[1] * var) if var > 0 else 1.0
        return value if np.isfinite(var) and 0 < value < np.inf else None
    if gamma == "auto":
        return 1.0 / X.shape[1]
    return float(gamma)


def check_against_reference(K, X, Y, kernel, gamma, degree, coef0, float32=False):
    """K matches the formula on the float64 inputs, wherever that is finite
    (for float32 input, wherever it is within float32's range: the core
    computes float32 input in float32, reported)."""
    assert isinstance(K, np.ndarray) and K.dtype == np.float64
    assert K.shape == (X.shape[0], Y.shape[0])
    g = 1.0 if kernel == "linear" else resolved_gamma(gamma, X)
    assert g is not None, "gamma='scale' is 0 or inf here: an error was due"
    with np.errstate(all="ignore"):
        R, tol = reference(X, Y, kernel, g, degree, float(coef0))
        judged = np.isfinite(R) & np.isfinite(tol)
        if float32:
            limit = np.finfo(np.float32).max / 4
            judged &= (np.abs(R) < limit) & (tol < limit) & (np.abs(X).max(initial=0) ** 2 * X.shape[1] < limit)
        assert np.all(np.isfinite(K[judged])), "a finite kernel value came out NaN or infinite"
        err = np.abs(K - R)
        bad = judged & ~(err <= tol + 1e-12)
    assert not bad.any(), f"kernel values differ from the formula: {K[bad]} vs {R[bad]}"


def _as_float(v) -> float:
    try:
        return float(v)
    except OverflowError:
        return np.nan


def valid_params(gamma, degree, coef0) -> bool:
    gamma_ok = gamma in ("scale", "auto") or (
        isinstance(gamma, (float, int, np.floating))
        and not isinstance(gamma, bool)
        and 0 < _as_float(gamma) < 1e308
    )
    degree_ok = isinstance(degree, int) and not isinstance(degree, bool) and 0 <= degree < 2**31
    coef0_ok = isinstance(coef0, float) and np.isfinite(coef0)
    return gamma_ok and degree_ok and coef0_ok


def clean_dense(A) -> bool:
    """Input every entry point must accept: a non-empty 2-D finite real array."""
    A = np.asarray(A) if isinstance(A, list) else A
    return (
        isinstance(A, np.ndarray)
        and A.ndim == 2
        and A.size > 0
        and A.dtype.kind in "biuf"
        and bool(np.all(np.isfinite(A.astype(np.float64))))
    )


@examples(300)
@given(dense_arrays(), st.one_of(st.none(), dense_arrays()), KERNELS, GAMMAS, DEGREES, COEF0S)
def test_kernel_matrix_dense(X, Y, kernel, gamma, degree, coef0):
    K, error = call(kernel_matrix, X, Y, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
    must_work = (
        clean_dense(X)
        and (Y is None or (clean_dense(Y) and np.shape(Y)[1] == np.shape(X)[1]))
        and (kernel == "linear" or valid_params(gamma, degree, coef0))
        and valid_params("scale", degree, coef0)
    )
    if must_work and kernel != "linear" and resolved_gamma(gamma, plain_float64(X)) is None:
        must_work = False  # gamma='scale' overflows: an error naming it is due
    if error is not None:
        assert not must_work, f"valid input rejected: {error}"
        return
    Xf = plain_float64(X)
    Yf = Xf if Y is None else plain_float64(Y)
    float32 = any(np.asarray(A).dtype == np.float32 for A in (X, Y) if A is not None)
    check_against_reference(K, Xf, Yf, kernel, gamma, degree, coef0, float32=float32)


@examples(300)
@given(csr_triples(), KERNELS, st.sampled_from(["scale", "auto", 0.5]), st.integers(0, 3))
def test_kernel_matrix_csr(triple, kernel, gamma, degree):
    values, indices, indptr, shape, valid = triple
    X = as_csr(values, indices, indptr, shape)
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    K, error = call(kernel_matrix, X, kernel=kernel, gamma=gamma, degree=degree)
    for a, b in zip(before, (X.data, X.indices, X.indptr)):
        assert np.array_equal(a, b), "the caller's CSR matrix was modified"
    if not valid:
        assert error is not None and isinstance(error, ValueError), "malformed CSR accepted"
        return
    if shape[0] == 0 or shape[1] == 0:
        assert isinstance(error, ValueError)
        return
    D = dense_of(values, indices, indptr, shape)
    if not np.all(np.isfinite(D)):  # duplicates that sum beyond float64
        assert isinstance(error, ValueError) and "infinity" in str(error)
        return
    if kernel != "linear" and resolved_gamma(gamma, D) is None:
        assert isinstance(error, ValueError) and "gamma='scale'" in str(error)
        return
    assert error is None, f"valid CSR rejected: {error}"
    check_against_reference(K, D, D, kernel, gamma, degree, 0.0)


@examples(100)
@given(csr_triples(finite=False), st.sampled_from(["rbf", "linear"]))
def test_kernel_matrix_csr_nonfinite(triple, kernel):
    values, indices, indptr, shape, valid = triple
    X = as_csr(values, indices, indptr, shape)
    K, error = call(kernel_matrix, X, kernel=kernel, gamma=0.5)
    if valid and shape[0] and shape[1] and not np.all(np.isfinite(values)):
        assert isinstance(error, ValueError), "NaN or infinity in CSR data accepted"


@examples(50)
@given(dense_arrays(min_rows=1, min_cols=1, dtypes=("float64",)), ANY_FLOAT)
def test_kernel_matrix_mixed_sparse_dense(X, scale):
    """CSR X against dense Y and the reverse agree with dense-dense."""
    import scipy.sparse as sp

    if not clean_dense(X):
        return
    X = plain_float64(X)
    if not np.isfinite(scale):
        return
    with np.errstate(over="ignore"):
        Y = X * min(abs(scale), 1e3)
    if not np.all(np.isfinite(Y)):
        return
    dense, error = call(kernel_matrix, X, Y, kernel="rbf", gamma=0.5)
    assert error is None
    for A, B in ((sp.csr_matrix(X), Y), (X, sp.csr_matrix(Y)), (sp.csr_matrix(X), sp.csr_matrix(Y))):
        K, error = call(kernel_matrix, A, B, kernel="rbf", gamma=0.5)
        assert error is None
        check_against_reference(K, X, Y, "rbf", 0.5, 3, 0.0)
