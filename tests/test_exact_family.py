"""SVR, NuSVR, OneClassSVM and NuSVC (exact_family.py) against LIBSVM, scikit-learn and scipy.

The dual objective of both solutions is computed here from their dual
coefficients (not taken from either solver), at a tight tolerance; the
offsets, predictions and support counts are compared too. Tiny problems are
solved independently by scipy's SLSQP on the dual.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn import svm
from sklearn.datasets import make_classification, make_friedman1
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.utils.estimator_checks import parametrize_with_checks

import budgetsvm as bs
from budgetsvm import _core

svmutil = pytest.importorskip("libsvm.svmutil")

TOL = 1e-8
KERNELS = [("rbf", {"gamma": 0.3}), ("linear", {}), ("poly", {"gamma": 0.2, "degree": 2, "coef0": 1.0})]


def kernel(X, Y, name, kw):
    return pairwise_kernels(X, Y, metric=name, **{k: v for k, v in kw.items() if k != "kernel"})


def full_coef(model, n):
    """Dual coefficients spread over the n training rows (0 off the support)."""
    c = np.zeros(n)
    dual = model.dual_coef_.toarray() if sp.issparse(model.dual_coef_) else model.dual_coef_
    c[model.support_] = dual[0]
    return c


def libsvm_coef(model, n):
    c = np.zeros(n)
    idx = np.asarray(model.get_sv_indices()) - 1
    c[idx] = np.asarray(model.get_sv_coef())[:, 0]
    return c


def libsvm_options(s, name, kw, extra):
    t = {"linear": 0, "poly": 1, "rbf": 2}[name]
    opts = f"-q -s {s} -t {t} -e {TOL} -h 0 -m 100 "
    if "gamma" in kw:
        opts += f"-g {kw['gamma']} "
    if "degree" in kw:
        opts += f"-d {kw['degree']} "
    if "coef0" in kw:
        opts += f"-r {kw['coef0']} "
    return opts + extra


def regression_data(n=160, seed=0):
    X, z = make_friedman1(n_samples=n, random_state=seed)
    return X, z


def assert_objective(ours, theirs, rel=1e-6):
    assert abs(ours - theirs) <= rel * max(1.0, abs(theirs)), (ours, theirs)


# ----------------------------------------------------------------- epsilon-SVR


def svr_objective(c, K, z, eps):
    return 0.5 * c @ K @ c + eps * np.abs(c).sum() - z @ c


@pytest.mark.parametrize("name,kw", KERNELS)
@pytest.mark.parametrize("sparse", [False, True])
def test_svr_matches_libsvm(name, kw, sparse):
    X, z = regression_data()
    C, eps = 2.0, 0.2
    Xf = sp.csr_matrix(X) if sparse else X
    ours = bs.SVR(kernel=name, C=C, epsilon=eps, tol=TOL, **kw).fit(Xf, z)
    ref = svmutil.svm_train(z.tolist(), X.tolist(), libsvm_options(3, name, kw, f"-c {C} -p {eps}"))
    K = kernel(X, X, name, kw)
    n = len(z)
    assert_objective(svr_objective(full_coef(ours, n), K, z, eps), svr_objective(libsvm_coef(ref, n), K, z, eps))
    assert_objective(ours.dual_objective_, svr_objective(full_coef(ours, n), K, z, eps), 1e-5)
    assert ours.intercept_[0] == pytest.approx(-ref.rho[0], abs=1e-5)
    pred_ref = np.array(svmutil.svm_predict(z.tolist(), X.tolist(), ref, "-q")[0])
    np.testing.assert_allclose(ours.predict(Xf), pred_ref, atol=1e-5)
    assert ours.n_support_.tolist() == [ref.l]
    assert ours.fit_status_ == 0 and isinstance(ours.n_iter_, int)


@pytest.mark.parametrize("solver", ["smo", "alfpgm"])
def test_svr_sample_weight_matches_sklearn(solver):
    X, z = regression_data(seed=1)
    w = np.random.default_rng(0).uniform(0.0, 3.0, size=len(z))
    w[:5] = 0.0  # left out, as LIBSVM leaves them
    ours = bs.SVR(C=3.0, epsilon=0.1, gamma=0.5, tol=TOL, solver=solver).fit(X, z, sample_weight=w)
    ref = svm.SVR(C=3.0, epsilon=0.1, gamma=0.5, tol=TOL).fit(X, z, sample_weight=w)
    K = kernel(X, X, "rbf", {"gamma": 0.5})
    n = len(z)
    # scikit-learn's support_ counts the rows of positive weight only; ours (as our SVC's) all rows
    c_ref = np.zeros(n)
    c_ref[np.flatnonzero(w > 0)[ref.support_]] = ref.dual_coef_[0]
    assert_objective(svr_objective(full_coef(ours, n), K, z, 0.1), svr_objective(c_ref, K, z, 0.1))
    assert ours.intercept_[0] == pytest.approx(ref.intercept_[0], abs=1e-5)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-5)
    np.testing.assert_array_equal(ours.support_vectors_, ref.support_vectors_)
    assert not set(ours.support_) & set(range(5))


def test_svr_precomputed_and_linear_coef():
    X, z = regression_data(n=80)
    K = X @ X.T
    a = bs.SVR(kernel="precomputed", C=1.0, tol=TOL).fit(K, z)
    b = bs.SVR(kernel="linear", C=1.0, tol=TOL).fit(X, z)
    np.testing.assert_allclose(a.predict(K), b.predict(X), atol=1e-6)
    np.testing.assert_allclose(b.coef_, b.dual_coef_ @ b.support_vectors_)
    np.testing.assert_allclose(X @ b.coef_[0] + b.intercept_[0], b.predict(X), atol=1e-9)
    with pytest.raises(AttributeError, match="linear kernel"):
        _ = bs.SVR().fit(X, z).coef_


def slsqp(objective, n, bounds, constraints):
    res = minimize(objective, np.zeros(n), method="SLSQP", bounds=bounds, constraints=constraints,
                   options={"ftol": 1e-14, "maxiter": 2000})
    return res.fun


def test_svr_against_scipy_on_a_tiny_problem():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(7, 2))
    z = rng.normal(size=7)
    C, eps = 1.5, 0.1
    K = kernel(X, X, "rbf", {"gamma": 0.7})
    n = len(z)

    def dual(v):  # v = (a, a*)
        c = v[:n] - v[n:]
        return 0.5 * c @ K @ c + eps * v.sum() - z @ c

    best = slsqp(dual, 2 * n, [(0, C)] * (2 * n), [{"type": "eq", "fun": lambda v: v[:n].sum() - v[n:].sum()}])
    ours = bs.SVR(C=C, epsilon=eps, gamma=0.7, tol=1e-10).fit(X, z)
    assert_objective(svr_objective(full_coef(ours, n), K, z, eps), best, 1e-7)


def test_svr_constant_target_and_bad_input():
    X = np.arange(6.0).reshape(-1, 1)
    reg = bs.SVR().fit(X, np.full(6, 2.5))
    assert reg.support_.size == 0 and reg.intercept_[0] == pytest.approx(2.5)
    np.testing.assert_allclose(reg.predict([[10.0]]), [2.5])
    with pytest.raises(ValueError, match=r"'epsilon' parameter of SVR must be a float in the range \[0.0, inf\)"):
        bs.SVR(epsilon=-0.1).fit(X, X[:, 0])
    with pytest.raises(ValueError, match="Input y contains NaN"):
        bs.SVR().fit(X, [0.0, 1.0, np.nan, 1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="all samples have zero or negative weights"):
        bs.SVR().fit(X, X[:, 0], sample_weight=np.zeros(6))


# ----------------------------------------------------------------- one-class


@pytest.mark.parametrize("name,kw", KERNELS)
@pytest.mark.parametrize("sparse", [False, True])
def test_one_class_matches_libsvm(name, kw, sparse):
    X, _ = regression_data(n=150, seed=2)
    nu = 0.3
    Xf = sp.csr_matrix(X) if sparse else X
    ours = bs.OneClassSVM(kernel=name, nu=nu, tol=TOL, **kw).fit(Xf)
    ref = svmutil.svm_train([1.0] * len(X), X.tolist(), libsvm_options(2, name, kw, f"-n {nu}"))
    K = kernel(X, X, name, kw)
    n = len(X)
    c_ours, c_ref = full_coef(ours, n), libsvm_coef(ref, n)
    assert_objective(0.5 * c_ours @ K @ c_ours, 0.5 * c_ref @ K @ c_ref)
    assert c_ours.sum() == pytest.approx(nu * n)
    # rho is unique when some variable is free; else any point of an interval
    if np.any((c_ours > 1e-9) & (c_ours < 1 - 1e-9)):
        assert ours.offset_[0] == pytest.approx(ref.rho[0], rel=1e-5, abs=1e-5)
        dec_ref = np.array(svmutil.svm_predict([1.0] * n, X.tolist(), ref, "-q")[2])[:, 0]
        np.testing.assert_allclose(ours.decision_function(Xf), dec_ref, atol=1e-4 * max(1.0, abs(ref.rho[0])))
    np.testing.assert_allclose(ours.score_samples(Xf), ours.decision_function(Xf) + ours.offset_[0])


def test_one_class_sample_weight_and_solvers_match_sklearn():
    X, _ = regression_data(n=200, seed=4)
    w = np.random.default_rng(1).uniform(0.5, 2.0, size=len(X))
    ref = svm.OneClassSVM(nu=0.2, gamma=0.4, tol=TOL).fit(X, sample_weight=w)
    n = len(X)
    K = kernel(X, X, "rbf", {"gamma": 0.4})
    c_ref = full_coef(ref, n)
    for solver in ("smo", "alfpgm"):
        ours = bs.OneClassSVM(nu=0.2, gamma=0.4, tol=TOL, solver=solver).fit(X, sample_weight=w)
        c = full_coef(ours, n)
        assert_objective(0.5 * c @ K @ c, 0.5 * c_ref @ K @ c_ref)
        assert ours.offset_[0] == pytest.approx(ref.offset_[0], rel=1e-5)
        assert (ours.predict(X) == ref.predict(X)).mean() > 0.99


def test_one_class_against_scipy_and_on_one_row():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(8, 2))
    nu = 0.4
    K = kernel(X, X, "rbf", {"gamma": 1.0})
    best = slsqp(lambda a: 0.5 * a @ K @ a, 8, [(0, 1)] * 8, [{"type": "eq", "fun": lambda a: a.sum() - nu * 8}])
    ours = bs.OneClassSVM(nu=nu, gamma=1.0, tol=1e-10).fit(X)
    c = full_coef(ours, 8)
    assert_objective(0.5 * c @ K @ c, best, 1e-7)
    one = bs.OneClassSVM(nu=0.5).fit([[1.0, 2.0]])
    ref = svm.OneClassSVM(nu=0.5).fit([[1.0, 2.0]])
    np.testing.assert_allclose(one.dual_coef_, ref.dual_coef_)
    np.testing.assert_allclose(one.offset_, ref.offset_)
    with pytest.raises(ValueError, match="not finite"):  # nu = 1 on one row: rho is infinite, as in LIBSVM
        bs.OneClassSVM(nu=1.0).fit([[1.0, 2.0]])


@pytest.mark.parametrize("Estimator", [bs.OneClassSVM, bs.NuSVR, bs.NuSVC])
@pytest.mark.parametrize("nu", [0.0, -0.1, 1.5])
def test_nu_outside_the_range(Estimator, nu):
    X = np.arange(8.0).reshape(-1, 1)
    y = np.array([0, 1] * 4)
    with pytest.raises(ValueError, match=r"The 'nu' parameter of \w+ must be a float in the range \(0.0, 1.0\]"):
        Estimator(nu=nu).fit(X, y)


# ----------------------------------------------------------------- nu-SVR


@pytest.mark.parametrize("name,kw", KERNELS)
def test_nu_svr_matches_libsvm(name, kw):
    X, z = regression_data(seed=6)
    C, nu = 2.0, 0.4
    ours = bs.NuSVR(kernel=name, C=C, nu=nu, tol=TOL, **kw).fit(sp.csr_matrix(X) if name == "rbf" else X, z)
    ref = svmutil.svm_train(z.tolist(), X.tolist(), libsvm_options(4, name, kw, f"-c {C} -n {nu}"))
    K = kernel(X, X, name, kw)
    n = len(z)

    def objective(c):
        return 0.5 * c @ K @ c - z @ c

    assert_objective(objective(full_coef(ours, n)), objective(libsvm_coef(ref, n)))
    assert ours.intercept_[0] == pytest.approx(-ref.rho[0], abs=1e-4)
    pred_ref = np.array(svmutil.svm_predict(z.tolist(), X.tolist(), ref, "-q")[0])
    np.testing.assert_allclose(ours.predict(X), pred_ref, atol=1e-4)
    assert abs(ours.n_support_[0] - ref.l) <= 1


def test_nu_svr_sample_weight_and_scipy():
    X, z = regression_data(n=120, seed=7)
    w = np.random.default_rng(2).uniform(0.5, 2.0, size=len(z))
    ours = bs.NuSVR(nu=0.3, C=2.0, gamma=0.3, tol=TOL).fit(X, z, sample_weight=w)
    ref = svm.NuSVR(nu=0.3, C=2.0, gamma=0.3, tol=TOL).fit(X, z, sample_weight=w)
    K = kernel(X, X, "rbf", {"gamma": 0.3})
    n = len(z)
    assert_objective(0.5 * full_coef(ours, n) @ K @ full_coef(ours, n) - z @ full_coef(ours, n),
                     0.5 * full_coef(ref, n) @ K @ full_coef(ref, n) - z @ full_coef(ref, n))
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-4)
    # a tiny problem against SLSQP: a, a* in [0, C], sum(a) = sum(a*), sum(a + a*) = C nu n
    rng = np.random.default_rng(8)
    Xs, zs = rng.normal(size=(6, 2)), rng.normal(size=6)
    Ks = kernel(Xs, Xs, "rbf", {"gamma": 0.5})
    C, nu, m = 1.0, 0.5, 6

    def dual(v):
        c = v[:m] - v[m:]
        return 0.5 * c @ Ks @ c - zs @ c

    best = slsqp(dual, 2 * m, [(0, C)] * (2 * m), [{"type": "eq", "fun": lambda v: v[:m].sum() - v[m:].sum()},
                                                   {"type": "eq", "fun": lambda v: v.sum() - C * nu * m}])
    small = bs.NuSVR(nu=nu, C=C, gamma=0.5, tol=1e-10).fit(Xs, zs)
    c = full_coef(small, m)
    assert_objective(0.5 * c @ Ks @ c - zs @ c, best, 1e-7)


# ----------------------------------------------------------------- nu-SVC


def test_nu_svc_binary_matches_libsvm():
    X, y = make_classification(n_samples=200, n_features=6, flip_y=0.1, random_state=0)
    ypm = np.where(y == 1, 1.0, -1.0)
    nu = 0.4
    ours = bs.NuSVC(nu=nu, gamma=0.2, tol=TOL).fit(X, ypm)
    ref = svmutil.svm_train(ypm.tolist(), X.tolist(), f"-q -s 1 -t 2 -g 0.2 -n {nu} -e {TOL} -h 0")
    K = kernel(X, X, "rbf", {"gamma": 0.2})
    n = len(y)
    c_ours = -full_coef(ours, n)  # scikit-learn's binary sign: positive means classes_[1] = +1
    c_ref = libsvm_coef(ref, n) * (1 if ref.get_labels()[0] == 1 else -1)
    assert_objective(0.5 * c_ours @ K @ c_ours, 0.5 * c_ref @ K @ c_ref)
    dec_ref = np.array(svmutil.svm_predict(ypm.tolist(), X.tolist(), ref, "-q")[2])[:, 0]
    dec_ref *= 1 if ref.get_labels()[0] == 1 else -1
    np.testing.assert_allclose(ours.decision_function(X), dec_ref, atol=1e-5)


@pytest.mark.parametrize("shape", ["ovo", "ovr"])
def test_nu_svc_multiclass_matches_sklearn(shape):
    X, y = make_classification(n_samples=240, n_features=6, n_informative=4, n_classes=3, flip_y=0.1,
                               random_state=1)
    cw = {0: 1.0, 1: 2.0, 2: 0.5}  # reported, not used: LIBSVM's nu-SVC has no per-class bound
    for class_weight, Xf in ((None, X), (cw, sp.csr_matrix(X))):
        ours = bs.NuSVC(nu=0.3, gamma=0.2, tol=TOL, decision_function_shape=shape, class_weight=class_weight)
        ref = svm.NuSVC(nu=0.3, gamma=0.2, tol=TOL, decision_function_shape=shape, class_weight=class_weight)
        ours.fit(Xf, y)
        ref.fit(Xf, y)
        assert ours.n_support_.tolist() == ref.n_support_.tolist()
        dual = ours.dual_coef_.toarray() if sp.issparse(ours.dual_coef_) else ours.dual_coef_
        dual_ref = ref.dual_coef_.toarray() if sp.issparse(ref.dual_coef_) else ref.dual_coef_
        np.testing.assert_allclose(dual, dual_ref, atol=1e-5)
        np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-5)
        np.testing.assert_allclose(ours.decision_function(Xf), ref.decision_function(Xf), atol=1e-5)
        assert (ours.predict(Xf) == ref.predict(Xf)).all()


def test_nu_svc_against_scipy_and_infeasible_nu():
    rng = np.random.default_rng(9)
    X = rng.normal(size=(8, 2))
    y = np.array([1, 1, 1, 1, -1, -1, -1, -1.0])
    X[y > 0] += 0.8
    nu = 0.5
    K = kernel(X, X, "rbf", {"gamma": 1.0})
    Q = np.outer(y, y) * K
    best_a = minimize(lambda a: 0.5 * a @ Q @ a, np.full(8, nu / 2), method="SLSQP", bounds=[(0, 1)] * 8,
                      constraints=[{"type": "eq", "fun": lambda a: a[y > 0].sum() - nu * 4},
                                   {"type": "eq", "fun": lambda a: a[y < 0].sum() - nu * 4}],
                      options={"ftol": 1e-14, "maxiter": 2000}).x
    clf = bs.NuSVC(nu=nu, gamma=1.0, tol=1e-10).fit(X, y)
    # ours is scaled by 1 / r: compare the direction and the objective after rescaling to sum(a) = nu l
    c = full_coef(clf, 8) * -1  # positive: classes_[1] = +1
    a = c * y
    scale = nu * 8 / a.sum()
    assert_objective(0.5 * (a * scale) @ Q @ (a * scale), 0.5 * best_a @ Q @ best_a, 1e-6)
    with pytest.raises(ValueError, match="specified nu is infeasible"):
        bs.NuSVC(nu=0.9).fit(np.arange(10.0).reshape(-1, 1), [0] * 8 + [1] * 2)
    with pytest.raises(ValueError, match="specified nu is infeasible"):  # the weights count
        bs.NuSVC(nu=0.5).fit(np.arange(10.0).reshape(-1, 1), [0] * 5 + [1] * 5,
                             sample_weight=[1.0] * 5 + [0.1] * 5)


def test_nu_svc_probability_runs_on_nu_problems():
    X, y = make_classification(n_samples=120, n_features=4, random_state=2)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        clf = bs.NuSVC(nu=0.3, probability=True, random_state=0).fit(X, y)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert (np.argmax(P, axis=1) == clf.predict(X)).mean() > 0.9


def test_general_dual_binding_checks_its_input():
    X = np.arange(6.0).reshape(-1, 1)
    rows = np.arange(3, dtype=np.int64)
    params = {"kernel": "linear"}
    with pytest.raises(ValueError, match="within its bounds"):
        _core.fit_exact_dual(X, rows, np.ones(3), np.ones(3), np.zeros(3), np.array([2.0, 0, 0]), params, False)
    with pytest.raises(ValueError, match="one label per training row"):
        _core.fit_exact_dual(X, rows, np.ones(2), np.ones(3), np.zeros(3), None, params, False)
    with pytest.raises(ValueError, match="out of range"):
        _core.fit_exact_dual(X, np.array([0, 9], dtype=np.int64), np.ones(2), np.ones(2), np.zeros(2), None,
                             params, False)


# ----------------------------------------------------------------- scikit-learn's estimator checks

_WEIGHT_EQUIVALENCE = "equal only to the solver tolerance (tol=1e-3), not to the check's rtol 1e-7"
FAMILY_EXPECTED_FAILURES = {
    "check_sample_weight_equivalence_on_dense_data": _WEIGHT_EQUIVALENCE,
    "check_sample_weight_equivalence_on_sparse_data": _WEIGHT_EQUIVALENCE,
}
# scikit-learn lists the same two for its NuSVC
NU_SVC_EXPECTED_FAILURES = {
    **FAMILY_EXPECTED_FAILURES,
    "check_class_weight_classifiers": "class_weight does not change the nu-SVC problem (as LIBSVM's)",
    "check_classifiers_one_label_sample_weights": "the message is 'specified nu is infeasible' (as LIBSVM's)",
}
# The checks' precomputed Gram matrix (X X^T of the checks' data) leaves a
# pair of classes with no margin: nu-SVC's r is zero up to the float kernel
# cache's rounding; LIBSVM divides by its rounding-level r, we raise
# (test_nu_svc_* cover precomputed kernels with a margin).
_NO_MARGIN = "the checks' Gram matrix leaves r = 0 up to rounding; we raise rather than divide by it"
NU_SVC_PRECOMPUTED_FAILURES = {
    **NU_SVC_EXPECTED_FAILURES,
    **{name: _NO_MARGIN for name in (
        "check_sample_weights_pandas_series", "check_sample_weights_not_an_array", "check_sample_weights_list",
        "check_n_features_in", "check_methods_subset_invariance", "check_methods_sample_order_invariance",
        "check_fit_idempotent", "check_fit_check_is_fitted", "check_fit2d_predict1d", "check_fit2d_1feature",
        "check_f_contiguous_array_estimator", "check_estimators_dtypes", "check_dont_overwrite_parameters",
        "check_dict_unchanged")},
}
# the outlier checks hand a precomputed-kernel detector the data, not a kernel matrix
ONE_CLASS_PRECOMPUTED_FAILURES = {
    **FAMILY_EXPECTED_FAILURES,
    "check_outliers_train": "the check fits a precomputed-kernel detector on non-square data",
    "check_outliers_fit_predict": "the check fits a precomputed-kernel detector on non-square data",
}


def _family_expected_failures(estimator):
    if isinstance(estimator, bs.NuSVC):
        return NU_SVC_PRECOMPUTED_FAILURES if estimator.kernel == "precomputed" else NU_SVC_EXPECTED_FAILURES
    if isinstance(estimator, bs.OneClassSVM) and estimator.kernel == "precomputed":
        return ONE_CLASS_PRECOMPUTED_FAILURES
    return FAMILY_EXPECTED_FAILURES


@parametrize_with_checks(
    [bs.SVR(), bs.SVR(kernel="precomputed"), bs.SVR(solver="alfpgm"), bs.NuSVR(), bs.OneClassSVM(),
     bs.OneClassSVM(kernel="precomputed"), bs.NuSVC(), bs.NuSVC(kernel="precomputed")],
    expected_failed_checks=_family_expected_failures,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
