"""Gaussian kernels of features far from the origin (docs/numerics.md).

||x - z||^2 from norms and a dot product cancels when the features sit far
from the origin; the core shifts both operands by a common reference point.
References: the same float32 values in float64, distances from explicit
differences (numpy), and translation invariance (the same problem unshifted).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from budgetsvm import SVC, BudgetedSVC, _core, kernel_matrix


def blobs(n, d=5, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + 1.2 * (2 * y[:, None] - 1) * np.linspace(1.0, 0.2, d)
    return X, y


def rbf_by_differences(X, Y, gamma):
    """exp(-gamma ||x - y||^2) from explicit differences in float64."""
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y, dtype=np.float64)
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-gamma * d2)


@pytest.mark.parametrize("offset", [1e3, 1e4, 1e6])
@pytest.mark.parametrize("sparse", [False, True])
def test_float32_kernel_matrix_diagonal_is_one(offset, sparse):
    # The reproducer: the diagonal came out as 0.765, 0.94, 1, 1, 0.903.
    X, _ = blobs(40)
    X32 = (X + offset).astype(np.float32)
    A = sp.csr_matrix(X32) if sparse else X32
    K = kernel_matrix(A[:5], gamma=0.5)
    np.testing.assert_allclose(K.diagonal(), 1.0, rtol=0, atol=1e-6)


@pytest.mark.parametrize("offset", [0.0, 1e3, 1e4, 1e6])
@pytest.mark.parametrize("sparse", [False, True])
def test_float32_kernel_matrix_matches_float64_of_same_values(offset, sparse):
    X, _ = blobs(300)
    X32 = (X + offset).astype(np.float32)
    X64 = X32.astype(np.float64)
    wrap = sp.csr_matrix if sparse else np.asarray
    K32 = kernel_matrix(wrap(X32[:200]), wrap(X32[200:]), gamma=0.2)
    K64 = kernel_matrix(wrap(X64[:200]), wrap(X64[200:]), gamma=0.2)
    reference = rbf_by_differences(X64[:200], X64[200:], 0.2)
    assert np.abs(K32 - K64).max() <= 1e-4 * np.abs(K64).max()
    np.testing.assert_allclose(K64, reference, rtol=0, atol=1e-9)


@pytest.mark.parametrize("offset", [1e8, -2e8])
@pytest.mark.parametrize("sparse", [False, True])
def test_float64_kernel_matrix_at_large_offsets(offset, sparse):
    X, _ = blobs(120)
    X64 = X + offset
    wrap = sp.csr_matrix if sparse else np.asarray
    K = kernel_matrix(wrap(X64[:70]), wrap(X64[70:]), gamma=0.3)
    np.testing.assert_allclose(K, rbf_by_differences(X64[:70], X64[70:], 0.3), rtol=0, atol=1e-6)


def test_offset_in_some_features_only_sparse():
    # A wide sparse matrix with two offset features: only those two are
    # shifted; the rest keep their sparsity.
    rng = np.random.default_rng(3)
    X = sp.random(80, 50, density=0.1, random_state=4, format="lil")
    X[:, 7] = 1e7 + rng.normal(size=(80, 1))
    X[:, 31] = -2e6 + rng.normal(size=(80, 1))
    X = X.tocsr()
    K = kernel_matrix(X, gamma=0.1)
    np.testing.assert_allclose(K, rbf_by_differences(X.toarray(), X.toarray(), 0.1), rtol=0, atol=1e-8)


def test_kernel_matrix_other_kernels_are_not_shifted():
    X, _ = blobs(30)
    X = X + 50.0
    K = kernel_matrix(X, kernel="poly", gamma=0.01, degree=2, coef0=1.0)
    np.testing.assert_allclose(K, (0.01 * X @ X.T + 1.0) ** 2, rtol=1e-12)


def test_translation_leaves_the_gaussian_kernel_matrix_unchanged():
    X, _ = blobs(100)
    shifted = X + 1e8
    back = shifted - 1e8  # exact: the same points, near the origin
    np.testing.assert_allclose(kernel_matrix(shifted, gamma=0.5), kernel_matrix(back, gamma=0.5), rtol=0, atol=1e-6)


@pytest.mark.parametrize("offset", [1e3, 1e6])
@pytest.mark.parametrize("sparse", [False, True])
def test_svc_float32_offset_matches_float64_copy(offset, sparse):
    X, y = blobs(1000, seed=1)
    X32 = (X + offset).astype(np.float32)
    X64 = X32.astype(np.float64)
    wrap = sp.csr_matrix if sparse else np.asarray
    train, test = slice(0, 700), slice(700, None)
    a = SVC(gamma=0.5, C=1.0, tol=1e-4).fit(wrap(X32[train]), y[train])
    b = SVC(gamma=0.5, C=1.0, tol=1e-4).fit(wrap(X64[train]), y[train])
    np.testing.assert_allclose(a.dual_objective_, b.dual_objective_, rtol=1e-4)
    fa = a.decision_function(wrap(X32[test]))
    fb = b.decision_function(wrap(X64[test]))
    assert np.abs(fa - fb).max() <= 1e-4 * np.abs(fb).max()
    acc_a = np.mean(a.predict(wrap(X32[test])) == y[test])
    acc_b = np.mean(b.predict(wrap(X64[test])) == y[test])
    assert abs(acc_a - acc_b) <= 0.001
    # Translation invariance: the unshifted float64 problem.
    c = SVC(gamma=0.5, C=1.0, tol=1e-4).fit(X64[train] - offset, y[train])
    np.testing.assert_allclose(b.dual_objective_, c.dual_objective_, rtol=1e-4)
    assert acc_b >= 0.85


def test_svc_float64_at_offset_1e8_matches_the_unshifted_problem():
    X, y = blobs(600, seed=2)
    a = SVC(gamma=0.5, tol=1e-4).fit(X[:400] + 1e8, y[:400])
    b = SVC(gamma=0.5, tol=1e-4).fit(X[:400], y[:400])
    np.testing.assert_allclose(a.dual_objective_, b.dual_objective_, rtol=1e-4)
    fa, fb = a.decision_function(X[400:] + 1e8), b.decision_function(X[400:])
    assert np.abs(fa - fb).max() <= 1e-3 * np.abs(fb).max()


@pytest.mark.parametrize("offset", [1e3, 1e6])
@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
@pytest.mark.parametrize("sparse", [False, True])
def test_budgeted_float32_offset_matches_float64_copy(offset, solver, sparse):
    X, y = blobs(1000, seed=4)
    X32 = (X + offset).astype(np.float32)
    X64 = X32.astype(np.float64)
    wrap = sp.csr_matrix if sparse else np.asarray
    kw = dict(budget=60, gamma=0.5, C=1.0, epochs=2, solver=solver, random_state=0)
    a = BudgetedSVC(**kw).fit(wrap(X32[:700]), y[:700])
    b = BudgetedSVC(**kw).fit(wrap(X64[:700]), y[:700])
    fa = a.decision_function(wrap(X32[700:]))
    fb = b.decision_function(wrap(X64[700:]))
    assert np.abs(fa - fb).max() <= 1e-4 * np.abs(fb).max()
    acc_a = np.mean(a.predict(wrap(X32[700:])) == y[700:])
    acc_b = np.mean(b.predict(wrap(X64[700:])) == y[700:])
    assert abs(acc_a - acc_b) <= 0.001 and acc_b >= 0.85
    # The support vectors are reported in the data's coordinates.
    assert np.abs(b.support_vectors_.mean(axis=0) - offset).max() < 10.0


def test_budgeted_float64_at_offset_1e8_matches_the_unshifted_problem():
    X, y = blobs(800, seed=5)
    kw = dict(budget=50, gamma=0.5, epochs=2, random_state=0)
    a = BudgetedSVC(**kw).fit(X[:600] + 1e8, y[:600])
    b = BudgetedSVC(**kw).fit(X[:600], y[:600])
    fa, fb = a.decision_function(X[600:] + 1e8), b.decision_function(X[600:])
    assert np.abs(fa - fb).max() <= 1e-3 * np.abs(fb).max()


@pytest.mark.parametrize("offset", [0.0, 1e3, 1e6])
@pytest.mark.parametrize("sparse", [False, True])
def test_float32_prediction_matches_float64_of_same_values(offset, sparse):
    # One fitted model; float32 query rows are computed in float (Gaussian
    # kernel), their float64 copies in double: the decision values agree to
    # about float's epsilon relative to the sum of |coef|, at any offset.
    X, y = blobs(1300, seed=6)
    X32 = (X + offset).astype(np.float32)
    X64 = X32.astype(np.float64)
    wrap = sp.csr_matrix if sparse else np.asarray
    for model in (SVC(gamma=0.5, C=1.0), BudgetedSVC(budget=300, gamma=0.5, random_state=0)):
        model.fit(wrap(X64[:1000]), y[:1000])
        scale = np.abs(model.dual_coef_).sum()
        f32 = model.decision_function(wrap(X32[1000:]))
        f64 = model.decision_function(wrap(X64[1000:]))
        assert np.abs(f32 - f64).max() <= 1e-6 * scale
        # Not the same bits: the float path ran (double would agree to ~1e-15).
        assert np.abs(f32 - f64).max() > 1e-13 * scale


def test_float32_prediction_with_gamma_times_norms_past_float():
    # Rows spread at 1e10 (squared norms about 1e20 after the shift to their
    # centre) and gamma = 1e20: the float path's exponent parts (gamma times
    # squared norms and dot products) would overflow float, so these float32
    # rows run in double, where each row meets only itself: the kernel is 1
    # on the diagonal, 0 elsewhere, and the decision value the row's own
    # coefficient.
    rng = np.random.default_rng(3)
    S = (rng.standard_normal((40, 5)) * 1e10).astype(np.float32).astype(np.float64)
    coef = rng.standard_normal((40, 1))
    out = _core.decision_function(S.astype(np.float32), S, coef, "rbf", 1e20, 3, 0.0, 1)
    np.testing.assert_allclose(out, coef, rtol=1e-12, atol=0)
