"""Gaussian kernels of features far from the origin, and fits whose
numbers would not be finite (docs/numerics.md).

||x - z||^2 from norms and a dot product cancels when the features sit far
from the origin; the core shifts both operands by a common reference point.
References: the same float32 values in float64, distances from explicit
differences (numpy), and translation invariance (the same problem unshifted).

A cost ``C * class_weight * sample_weight`` below the smallest normal float64
is refused before the fit (``LinearSVC(C=1e-310)`` stored NaN coefficients),
and every estimator checks what it is about to store (``check_finite_fit``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from budgetsvm import SVC, BudgetedSVC, LinearSVC, _core, kernel_matrix


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


def _fit_float32_and_float64_copy(make, seed, offset, sparse):
    """``make()`` fitted on 700 of ``blobs(1000, seed)``'s rows at ``offset`` in
    float32, and on their float64 copy: the decision values on the other rows
    agree to 1e-4 of the largest, the accuracies to 0.001, and the float64
    model's is at least 0.85. Returns both models, the float64 rows and y."""
    X, y = blobs(1000, seed=seed)
    X32 = (X + offset).astype(np.float32)
    X64 = X32.astype(np.float64)
    wrap = sp.csr_matrix if sparse else np.asarray
    train, test = slice(0, 700), slice(700, None)
    a = make().fit(wrap(X32[train]), y[train])
    b = make().fit(wrap(X64[train]), y[train])
    fa = a.decision_function(wrap(X32[test]))
    fb = b.decision_function(wrap(X64[test]))
    assert np.abs(fa - fb).max() <= 1e-4 * np.abs(fb).max()
    acc_a = np.mean(a.predict(wrap(X32[test])) == y[test])
    acc_b = np.mean(b.predict(wrap(X64[test])) == y[test])
    assert abs(acc_a - acc_b) <= 0.001 and acc_b >= 0.85
    return a, b, X64, y


@pytest.mark.parametrize("offset", [1e3, 1e6])
@pytest.mark.parametrize("sparse", [False, True])
def test_svc_float32_offset_matches_float64_copy(offset, sparse):
    a, b, X64, y = _fit_float32_and_float64_copy(lambda: SVC(gamma=0.5, C=1.0, tol=1e-4), 1, offset, sparse)
    np.testing.assert_allclose(a.dual_objective_, b.dual_objective_, rtol=1e-4)
    # Translation invariance: the unshifted float64 problem.
    c = SVC(gamma=0.5, C=1.0, tol=1e-4).fit(X64[:700] - offset, y[:700])
    np.testing.assert_allclose(b.dual_objective_, c.dual_objective_, rtol=1e-4)


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
    kw = dict(budget=60, gamma=0.5, C=1.0, epochs=2, solver=solver, random_state=0)
    _, b, _, _ = _fit_float32_and_float64_copy(lambda: BudgetedSVC(**kw), 4, offset, sparse)
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


# ------------------------------------------------- costs that underflow


def _separable(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int)


ESTIMATORS = [
    LinearSVC(random_state=0),
    LinearSVC(loss="hinge", random_state=0),
    LinearSVC(penalty="l1", dual=False, random_state=0),
    LinearSVC(multi_class="crammer_singer", random_state=0),
    SVC(),
    BudgetedSVC(budget=20, random_state=0),
    BudgetedSVC(budget=20, solver="bsgd", random_state=0),
]


@pytest.mark.parametrize("C", [1e-310, 5e-324])
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_a_subnormal_C_is_refused_before_the_fit(estimator, C):
    estimator = clone(estimator)
    # issue 64: LinearSVC(C=1e-310) returned NaN coef_ with no error (every row one class)
    X, y = _separable()
    with pytest.raises(ValueError, match=r"C \* class_weight \* sample_weight underflows float64: sample 0"):
        estimator.set_params(C=C).fit(X, y)


@pytest.mark.parametrize("weight", [1e-310, 5e-324])
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_a_subnormal_sample_weight_is_refused_naming_the_sample(estimator, weight):
    estimator = clone(estimator)
    X, y = _separable()
    sw = np.ones(len(y))
    sw[7] = weight
    with pytest.raises(ValueError, match=r"underflows float64: sample 7 has C=1, class_weight=1 and sample_weight="):
        estimator.fit(X, y, sample_weight=sw)
    with pytest.raises(ValueError, match="underflows float64: sample 0"):
        estimator.fit(X, y, sample_weight=np.full(len(y), weight))


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_products_that_underflow_are_refused_but_small_normal_costs_fit(estimator):
    estimator = clone(estimator)
    X, y = _separable()
    # each factor is a normal number; their product is not
    with pytest.raises(ValueError, match="a cost of 0,"):
        estimator.set_params(C=1e-200).fit(X, y, sample_weight=np.full(len(y), 1e-200))
    with pytest.raises(ValueError, match="class_weight=1e-300"):
        estimator.set_params(C=1e-10, class_weight={0: 1e-300, 1: 1.0}).fit(X, y)
    # weight 0 leaves a sample out (not a cost); tiny but normal costs fit, finite
    sw = np.ones(len(y))
    sw[:3] = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence at so small a C is not the point here
        clf = estimator.set_params(C=1e-300, class_weight=None).fit(X, y, sample_weight=sw)
    for name in ("coef_", "dual_coef_", "intercept_"):
        if hasattr(clf, name) and not sp.issparse(getattr(clf, name)):
            assert np.all(np.isfinite(getattr(clf, name))), name


def test_one_vs_rest_checks_the_cost_of_the_negatives_too():
    # with 3+ classes, class k's weight scales only problem k's positives:
    # a sample is also a negative of cost C * sample_weight
    X, _ = _separable(90)
    y = np.repeat([0, 1, 2], 30)
    X[y == 1] += 3.0
    X[y == 2] -= 3.0
    sw = np.ones(90)
    sw[40] = 1e-200
    clf = LinearSVC(C=1e-110, class_weight={0: 1.0, 1: 1e100, 2: 1.0}, random_state=0)
    with pytest.raises(ValueError, match="sample 40"):
        clf.fit(X, y, sample_weight=sw)  # 1e-110 * 1e100 * 1e-200 underflows, and 1e-110 * 1e-200 too
    # binary: class_weight scales both problems' sides; 1e-110 * 1e100 * 1e-200 = 1e-210 is normal
    binary = y < 2
    clf.set_params(class_weight={0: 1e100, 1: 1e100})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X[binary], y[binary], sample_weight=np.where(np.arange(60) == 40, 1e-200, 1.0))
    assert np.all(np.isfinite(clf.coef_))


def test_partial_fit_refuses_a_subnormal_sample_weight_and_keeps_the_model():
    X, y = _separable()
    clf = BudgetedSVC(budget=20, random_state=0).partial_fit(X, y, classes=[0, 1])
    before = clf.dual_coef_.copy()
    with pytest.raises(ValueError, match="underflows float64: sample 0"):
        clf.partial_fit(X, y, sample_weight=np.full(len(y), 1e-310))
    np.testing.assert_array_equal(clf.dual_coef_, before)


def test_dask_refuses_a_subnormal_C_and_sample_weight():
    da = pytest.importorskip("dask.array")
    import dask

    from budgetsvm.dask import BudgetedSVC as DaskBudgetedSVC

    X, y = _separable(200)
    with dask.config.set(scheduler="synchronous"):
        Xd, yd = da.from_array(X, chunks=100), da.from_array(y, chunks=100)
        with pytest.raises(ValueError, match="budgetsvm.dask.BudgetedSVC: C \\* class_weight"):
            DaskBudgetedSVC(C=1e-310, budget=20, random_state=0).fit(Xd, yd)
        sw = da.from_array(np.where(np.arange(200) == 150, 5e-324, 1.0), chunks=100)
        with pytest.raises(ValueError, match="underflows float64: sample 50"):  # the second partition's row 50
            DaskBudgetedSVC(budget=20, random_state=0).fit(Xd, yd, sample_weight=sw)


# ------------------------------------- the net: nothing non-finite is stored


def test_linearsvc_refuses_non_finite_coefficients_and_keeps_its_model(monkeypatch):
    X, y = _separable()
    clf = LinearSVC(random_state=0).fit(X, y)
    coef = clf.coef_.copy()
    fit_linear = _core.fit_linear

    def nan_weights(*args, **kwargs):
        W, alpha, stats = fit_linear(*args, **kwargs)
        W = W.copy()
        W[0, 1] = np.nan
        return W, alpha, stats

    monkeypatch.setattr(_core, "fit_linear", nan_weights)
    with pytest.raises(ValueError, match=r"not finite.+\(LinearSVC.coef_ would contain NaN; the estimator is left"):
        clf.fit(X, y)
    np.testing.assert_array_equal(clf.coef_, coef)


def test_svc_refuses_non_finite_coefficients(monkeypatch):
    X, y = _separable()
    fit_exact_ovo = _core.fit_exact_ovo

    def inf_intercept(*args, **kwargs):
        fit = fit_exact_ovo(*args, **kwargs)
        return dict(fit, intercept=np.full_like(fit["intercept"], np.inf))

    monkeypatch.setattr(_core, "fit_exact_ovo", inf_intercept)
    message = r"\(SVC.intercept_ would contain infinity or a value too large for dtype\('float64'\)"
    with pytest.raises(ValueError, match=message):
        SVC().fit(X, y)


@pytest.mark.parametrize("key", ["dual_coef", "support_vectors", "intercept"])
def test_budgeted_fit_and_partial_fit_refuse_non_finite_models(monkeypatch, key):
    X, y = _separable()
    clf = BudgetedSVC(budget=20, random_state=0).fit(X, y)
    before = clf.dual_coef_.copy()
    fit_budgeted = _core.fit_budgeted

    def poisoned(*args, **kwargs):
        result = dict(fit_budgeted(*args, **kwargs))
        result[key] = np.full_like(np.asarray(result[key], dtype=np.float64), np.nan)
        return result

    monkeypatch.setattr(_core, "fit_budgeted", poisoned)
    with pytest.raises(ValueError, match=rf"\(BudgetedSVC.{key}_ would contain NaN"):
        clf.fit(X, y)
    with pytest.raises(ValueError, match=rf"\(BudgetedSVC.{key}_ would contain NaN"):
        clf.partial_fit(X, y)
    np.testing.assert_array_equal(clf.dual_coef_, before)


@pytest.mark.parametrize("partitions", [1, 2])
def test_dask_refuses_non_finite_models_before_storing_or_mixing_them(partitions):
    # BSGD's steps overflow at C=1e308 (tests/test_budgeted_noisy.py): with
    # one partition and one round the NaN model was stored; with two, the mix
    # refused it as "dual_coef must be finite", a parameter the user never set
    da = pytest.importorskip("dask.array")
    import dask

    from budgetsvm.dask import BudgetedSVC as DaskBudgetedSVC

    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, size=(500, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    clf = DaskBudgetedSVC(solver="bsgd", C=1e308, budget=10, gamma=0.05, epochs=1, rounds=1, random_state=0)
    with dask.config.set(scheduler="synchronous"):
        Xd, yd = da.from_array(X, chunks=500 // partitions), da.from_array(y, chunks=500 // partitions)
        with pytest.raises(ValueError, match=r"\(budgetsvm.dask.BudgetedSVC.dual_coef_ would contain NaN"):
            clf.fit(Xd, yd)
    assert not hasattr(clf, "dual_coef_")


def test_check_finite_fit_names_the_public_class():
    from budgetsvm._magnitude import check_finite_fit

    check_finite_fit(SVC(), dual_coef_=sp.csr_matrix(np.ones((1, 3))), intercept_=np.zeros(1))
    with pytest.raises(ValueError, match=r"\(SVC.dual_coef_ would contain NaN"):
        check_finite_fit(SVC(), dual_coef_=sp.csr_matrix(np.array([[1.0, np.nan]])))
    with pytest.raises(ValueError, match=r"\(budgetsvm.dask.BudgetedSVC.intercept_ would contain infinity"):
        check_finite_fit("budgetsvm.dask.BudgetedSVC", intercept_=np.array([np.inf]))
