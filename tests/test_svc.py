"""budgetsvm.SVC against scikit-learn's SVC (LIBSVM), the KKT conditions and bad input."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_digits, load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import linear_kernel, rbf_kernel
from sklearn.svm import SVC as SkSVC

from budgetsvm import SVC, kernel_matrix

from conftest import load_dataset

SOLVERS = ["alfpgm", "smo"]


# ----------------------------------------------------------------- helpers


def _subsample(X, y, n, seed=0):
    rng = np.random.RandomState(seed)
    idx = np.sort(rng.choice(X.shape[0], n, replace=False))
    return X[idx], y[idx]


@pytest.fixture(scope="module")
def a9a_small():
    """600 training and 400 test rows of a9a (CSR, int32 indices)."""
    X, y = load_dataset("a9a.bz2", n_features=123)
    X, y = _subsample(X, y, 1000, seed=1)
    return X[:600], y[:600], X[600:], y[600:]


@pytest.fixture(scope="module")
def ijcnn1_small():
    """800 training and 400 test rows of ijcnn1, dense."""
    X, y = load_dataset("ijcnn1.bz2")
    X, y = _subsample(X, y, 1200, seed=2)
    X = X.toarray()
    return X[:800], y[:800], X[800:], y[800:]


def _full_dual(clf, n):
    """dual_coef_ scattered onto all n training indices: (n_classes - 1, n)."""
    dual = clf.dual_coef_.toarray() if sp.issparse(clf.dual_coef_) else np.asarray(clf.dual_coef_)
    full = np.zeros((dual.shape[0], n))
    full[:, clf.support_] = dual
    return full


def _binary_dual_objective(clf, K):
    """1/2 c^T K c - sum |c| with c = y alpha of a binary model (sign-free)."""
    c = _full_dual(clf, K.shape[0])[0]
    return 0.5 * c @ K @ c - np.abs(c).sum()


def _kkt_violation(clf, K, y01, C):
    """LIBSVM's maximal violation m(a) - M(a) of a binary model (class 0 = +1).

    Computed with the exact (float64) kernel. The solver, like LIBSVM, keeps
    kernel columns in float32, so the violation it sees differs from this one
    by up to a few 1e-6 on these problems.
    """
    y = np.where(y01 == clf.classes_[0], 1.0, -1.0)
    alpha = np.abs(_full_dual(clf, K.shape[0])[0])
    Cw = C * np.where(y > 0, clf.class_weight_[0], clf.class_weight_[1])
    grad = y * (K @ (y * alpha)) - 1.0  # G = Q a - e
    minus_yg = -y * grad
    eps = 1e-12
    up = ((y > 0) & (alpha < Cw - eps)) | ((y < 0) & (alpha > eps))
    low = ((y > 0) & (alpha > eps)) | ((y < 0) & (alpha < Cw - eps))
    return minus_yg[up].max() - minus_yg[low].min()


def _sk_fit(**kw):
    X, y = kw.pop("X"), kw.pop("y")
    return SkSVC(**kw).fit(X, y)


# --------------------------------------------------- agreement with LIBSVM


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("layout", ["csr", "dense", "float32"])
def test_binary_matches_sklearn_on_a9a(a9a_small, solver, layout):
    X, y, Xt, yt = a9a_small
    if layout == "dense":
        X, Xt = X.toarray(), Xt.toarray()
    elif layout == "float32":
        X, Xt = X.toarray().astype(np.float32), Xt.toarray().astype(np.float32)
    params = dict(C=32.0, gamma=2.0**-7, tol=1e-3)
    ours = SVC(solver=solver, **params).fit(X, y)
    ref = SkSVC(**params).fit(X.astype(np.float64), y)
    K = kernel_matrix(X.astype(np.float64), kernel="rbf", gamma=params["gamma"])
    # same optimum: dual objective within a relative 1e-3 (tol = 1e-3)
    f_ours, f_ref = _binary_dual_objective(ours, K), _binary_dual_objective(ref, K)
    assert abs(f_ours - f_ref) <= 1e-3 * abs(f_ref)
    assert _kkt_violation(ours, K, y, params["C"]) <= 1.5 * params["tol"]
    assert abs(ours.support_.size - ref.support_.size) <= max(2, 0.02 * ref.support_.size)
    # same predictions up to the tolerance
    agree = np.mean(ours.predict(Xt) == ref.predict(Xt.astype(np.float64)))
    assert agree >= 0.99
    d_ours, d_ref = ours.decision_function(Xt), ref.decision_function(Xt.astype(np.float64))
    assert np.corrcoef(d_ours, d_ref)[0, 1] > 0.999
    if layout == "csr":
        assert sp.issparse(ours.support_vectors_) and sp.issparse(ours.dual_coef_)
    else:
        assert isinstance(ours.support_vectors_, np.ndarray)
        assert ours.support_vectors_.dtype == X.dtype


@pytest.mark.parametrize("solver", SOLVERS)
def test_binary_tight_tolerance_gives_libsvm_coefficients(ijcnn1_small, solver):
    X, y, Xt, yt = ijcnn1_small
    params = dict(C=32.0, gamma=2.0, tol=1e-5)
    ours = SVC(solver=solver, **params).fit(X, y)
    ref = SkSVC(**params).fit(X, y)
    K = rbf_kernel(X, gamma=params["gamma"])
    assert ours.fit_details_[0]["max_violation"] <= params["tol"]
    # float32 kernel columns: a margin of 2e-5 for the exact-kernel check
    assert _kkt_violation(ours, K, y, params["C"]) <= params["tol"] + 2e-5
    # the optimum is unique in the decision function: coefficients and intercept agree
    np.testing.assert_allclose(_full_dual(ours, len(y)), _full_dual(ref, len(y)), atol=1e-3 * params["C"])
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-3)
    np.testing.assert_allclose(ours.decision_function(Xt), ref.decision_function(Xt), atol=2e-3)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    assert ours.fit_status_ == 0
    assert ours.n_iter_.shape == (1,) and ours.n_iter_[0] >= 1
    assert ours.dual_objective_[0] == pytest.approx(_binary_dual_objective(ref, K), rel=1e-6)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_multiclass_one_vs_one_layout_matches_sklearn(solver, shape):
    X, y = load_digits(return_X_y=True)
    X, y = _subsample(X / 16.0, y, 600, seed=3)
    labels = np.array(list("abcdefghij"))[y]  # non-numeric labels, sorted as classes_
    params = dict(C=10.0, gamma=0.05, tol=1e-6, decision_function_shape=shape)
    ours = SVC(solver=solver, **params).fit(X[:400], labels[:400])
    ref = SkSVC(**params).fit(X[:400], labels[:400])
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_array_equal(ours.n_support_, ref.n_support_)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    assert ours.dual_coef_.shape == (9, ref.support_.size)
    np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_, atol=1e-3 * params["C"])
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-3)
    np.testing.assert_allclose(ours.support_vectors_, ref.support_vectors_)
    d_ours, d_ref = ours.decision_function(X[400:]), ref.decision_function(X[400:])
    assert d_ours.shape == d_ref.shape == ((200, 10) if shape == "ovr" else (200, 45))
    np.testing.assert_allclose(d_ours, d_ref, atol=2e-3)
    np.testing.assert_array_equal(ours.predict(X[400:]), ref.predict(X[400:]))
    assert ours.n_iter_.shape == (45,)


def test_alfpgm_subproblem_solvers_reach_the_same_optimum():
    """ALFPGM's working sets solved by SMO steps (the default) and by the
    paper's augmented Lagrangian with FPGM: the same optimum to the
    tolerance (dual objective, KKT violation with the exact kernel), by
    different paths (the inner counts differ: SMO steps, FPGM iterations)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(700, 5))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=700) > 0, 1, 0)
    K = rbf_kernel(X, gamma=0.5)
    fits = {s: SVC(C=10.0, gamma=0.5, tol=1e-4, solver="alfpgm", subproblem=s).fit(X, y) for s in ("smo", "fpgm")}
    objective = {s: _binary_dual_objective(f, K) for s, f in fits.items()}
    assert objective["smo"] == pytest.approx(objective["fpgm"], rel=1e-5)
    for f in fits.values():
        assert f.solver_ == ["alfpgm"] and f.fit_status_ == 0
        assert _kkt_violation(f, K, y, 10.0) < 1e-4 + 1e-4  # tol + the float32 columns' slack
    assert fits["smo"].fit_details_[0]["inner_iterations"] != fits["fpgm"].fit_details_[0]["inner_iterations"]
    assert np.mean(fits["smo"].predict(X) == fits["fpgm"].predict(X)) > 0.99


def test_iris_default_parameters_same_predictions():
    X, y = load_iris(return_X_y=True)
    ours, ref = SVC().fit(X, y), SkSVC().fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=0.02)


def test_break_ties_predicts_argmax_of_ovr():
    X, y = load_iris(return_X_y=True)
    clf = SVC(break_ties=True, C=0.1).fit(X, y)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[np.argmax(clf.decision_function(X), axis=1)])
    ref = SkSVC(break_ties=True, C=0.1).fit(X, y)
    assert np.mean(clf.predict(X) == ref.predict(X)) >= 0.99
    with pytest.raises(ValueError, match="break_ties"):
        SVC(break_ties=True, decision_function_shape="ovo").fit(X, y).predict(X)


def test_linear_coef_matches_sklearn():
    X, y = load_iris(return_X_y=True)
    params = dict(kernel="linear", C=1.0, tol=1e-6)
    ours, ref = SVC(**params).fit(X, y), SkSVC(**params).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=5e-3)
    b = y < 2
    ours, ref = SVC(**params).fit(X[b], y[b]), SkSVC(**params).fit(X[b], y[b])
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=5e-3)
    with pytest.raises(AttributeError, match="linear"):
        _ = SVC().fit(X, y).coef_


@pytest.mark.parametrize("kernel", ["poly", "sigmoid", "linear"])
def test_other_kernels_match_sklearn(ijcnn1_small, kernel):
    X, y, Xt, yt = ijcnn1_small
    params = dict(kernel=kernel, C=1.0, gamma=0.5, coef0=0.5, degree=3, tol=1e-4)
    ours = SVC(max_iter=200000, **params)
    ref = SkSVC(**params)
    with warnings.catch_warnings():
        # the sigmoid kernel is not positive semi-definite: both may stop at max_iter
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours.fit(X, y)
        ref.fit(X, y)
    if kernel == "sigmoid":
        assert np.all(np.isfinite(ours.decision_function(Xt)))
        assert np.mean(ours.predict(Xt) == ref.predict(Xt)) >= 0.95
    else:
        assert np.mean(ours.predict(Xt) == ref.predict(Xt)) >= 0.99


# ------------------------------------------------------------------ inputs


def test_sparse_and_dense_give_the_same_model(a9a_small):
    X, y, Xt, _ = a9a_small
    dense = SVC(C=4.0, gamma=0.05, random_state=0).fit(X.toarray(), y)
    for A in (X, sp.csr_array(X)):
        sparse = SVC(C=4.0, gamma=0.05, random_state=0).fit(A, y)
        np.testing.assert_array_equal(sparse.support_, dense.support_)
        np.testing.assert_allclose(sparse.dual_coef_.toarray(), dense.dual_coef_, atol=1e-8)
        np.testing.assert_allclose(sparse.decision_function(Xt), dense.decision_function(Xt.toarray()), atol=1e-8)
    assert isinstance(SVC(C=4.0, gamma=0.05).fit(sp.csr_array(X), y).support_vectors_, sp.csr_array)
    # int64 indices and unsorted indices within rows; the caller's matrix is left alone
    wide = X.copy()
    wide.indices, wide.indptr = wide.indices.astype(np.int64), wide.indptr.astype(np.int64)
    m = SVC(C=4.0, gamma=0.05, random_state=0).fit(wide, y)
    np.testing.assert_allclose(m.decision_function(Xt), dense.decision_function(Xt.toarray()), atol=1e-8)
    unsorted = X.copy()
    for i in range(unsorted.shape[0]):
        a, b = unsorted.indptr[i], unsorted.indptr[i + 1]
        unsorted.indices[a:b] = unsorted.indices[a:b][::-1]
        unsorted.data[a:b] = unsorted.data[a:b][::-1]
    unsorted.has_sorted_indices = False
    before = unsorted.indices.copy()
    m = SVC(C=4.0, gamma=0.05, random_state=0).fit(unsorted, y)
    np.testing.assert_array_equal(unsorted.indices, before)
    np.testing.assert_allclose(m.decision_function(Xt), dense.decision_function(Xt.toarray()), atol=1e-8)


def test_precomputed_kernel_equals_rbf(ijcnn1_small):
    X, y, Xt, _ = ijcnn1_small
    gamma = 2.0
    rbf = SVC(C=8.0, gamma=gamma, tol=1e-5).fit(X, y)
    pre = SVC(C=8.0, kernel="precomputed", tol=1e-5).fit(rbf_kernel(X, gamma=gamma), y)
    assert pre.support_vectors_.shape == (0, 0)
    np.testing.assert_array_equal(pre.support_, rbf.support_)
    # the rbf path evaluates exp in float32, the precomputed one reads float64 values: the
    # same optimum up to the solver tolerance
    np.testing.assert_allclose(pre.dual_coef_, rbf.dual_coef_, atol=1e-3 * 8.0)
    from_kernel = pre.decision_function(rbf_kernel(Xt, X, gamma=gamma))
    np.testing.assert_allclose(from_kernel, rbf.decision_function(Xt), atol=1e-3)
    with pytest.raises(ValueError, match="square"):
        SVC(kernel="precomputed").fit(rbf_kernel(X[:10], X, gamma=gamma), y[:10])
    with pytest.raises(ValueError):
        pre.predict(rbf_kernel(Xt, X[:10], gamma=gamma))
    with pytest.raises(TypeError, match="Sparse precomputed"):
        SVC(kernel="precomputed").fit(sp.csr_matrix(rbf_kernel(X, gamma=gamma)), y)


def test_callable_kernel_equals_builtin():
    X, y = load_iris(return_X_y=True)
    builtin = SVC(kernel="linear", tol=1e-5).fit(X, y)
    custom = SVC(kernel=linear_kernel, tol=1e-5).fit(X, y)
    np.testing.assert_array_equal(custom.support_, builtin.support_)
    np.testing.assert_allclose(custom.support_vectors_, builtin.support_vectors_)
    np.testing.assert_allclose(custom.decision_function(X), builtin.decision_function(X), atol=1e-3)
    ref = SkSVC(kernel=linear_kernel, tol=1e-5).fit(X, y)
    np.testing.assert_array_equal(custom.predict(X), ref.predict(X))
    with pytest.raises(ValueError, match="callable returned shape"):
        SVC(kernel=lambda A, B: np.ones((2, 2))).fit(X, y)


def test_float32_input_is_read_as_is(ijcnn1_small):
    X, y, Xt, _ = ijcnn1_small
    m32 = SVC(C=8.0, gamma=2.0).fit(X.astype(np.float32), y)
    m64 = SVC(C=8.0, gamma=2.0).fit(X, y)
    assert m32.support_vectors_.dtype == np.float32
    assert np.mean(m32.predict(Xt) == m64.predict(Xt)) >= 0.99


# ------------------------------------------------------- weights, probabilities


def test_class_weight_matches_sklearn(ijcnn1_small):
    X, y, Xt, _ = ijcnn1_small
    for class_weight in ({1: 5.0}, "balanced"):
        params = dict(C=2.0, gamma=1.0, class_weight=class_weight, tol=1e-5)
        ours, ref = SVC(**params).fit(X, y), SkSVC(**params).fit(X, y)
        np.testing.assert_allclose(ours.class_weight_, ref.class_weight_)
        np.testing.assert_array_equal(ours.support_, ref.support_)
        np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-3)
        np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))
    plain = SVC(C=2.0, gamma=1.0).fit(X, y)
    heavy = SVC(C=2.0, gamma=1.0, class_weight={1: 5.0}).fit(X, y)
    assert np.sum(heavy.predict(Xt) == 1) > np.sum(plain.predict(Xt) == 1)  # the minority class gains


def test_sample_weight_constant_per_class_equals_class_weight(ijcnn1_small):
    X, y, Xt, _ = ijcnn1_small
    sw = np.where(y == 1, 3.0, 0.5)
    by_sample = SVC(C=2.0, gamma=1.0).fit(X, y, sample_weight=sw)
    by_class = SVC(C=2.0, gamma=1.0, class_weight={1: 3.0, -1: 0.5}).fit(X, y)
    np.testing.assert_array_equal(by_sample.support_, by_class.support_)
    np.testing.assert_allclose(by_sample.decision_function(Xt), by_class.decision_function(Xt), atol=1e-10)
    ref = SkSVC(C=2.0, gamma=1.0).fit(X, y, sample_weight=sw)
    assert np.mean(by_sample.predict(Xt) == ref.predict(Xt)) >= 0.99


def test_zero_sample_weight_removes_samples():
    X, y = load_iris(return_X_y=True)
    sw = np.ones(len(y))
    sw[::3] = 0.0
    weighted = SVC(gamma=0.2, random_state=0).fit(X, y, sample_weight=sw)
    removed = SVC(gamma=0.2, random_state=0).fit(X[sw > 0], y[sw > 0])
    np.testing.assert_allclose(weighted.decision_function(X), removed.decision_function(X), atol=1e-10)
    np.testing.assert_array_equal(np.flatnonzero(sw > 0)[removed.support_], weighted.support_)


def test_per_sample_weights_match_scikit_learn(ijcnn1_small):
    X, y, Xt, _ = ijcnn1_small
    sw = np.random.default_rng(3).uniform(0.2, 3.0, size=len(y))
    params = dict(C=2.0, gamma=1.0, tol=1e-5)
    for solver in ("alfpgm", "smo"):
        ours = SVC(solver=solver, **params).fit(X, y, sample_weight=sw)
        ref = SkSVC(**params).fit(X, y, sample_weight=sw)
        np.testing.assert_array_equal(ours.support_, ref.support_)
        np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-3)
        np.testing.assert_allclose(ours.decision_function(Xt), ref.decision_function(Xt), atol=2e-3)
    unweighted = SVC(**params).fit(X, y)
    assert np.abs(unweighted.decision_function(Xt) - ours.decision_function(Xt)).max() > 0.01


def test_bad_sample_weights_raise_a_clear_error():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="shape"):
        SVC().fit(X, y, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="NaN or infinity"):
        SVC().fit(X, y, sample_weight=np.full(len(y), np.nan))
    with pytest.raises(ValueError, match="some class"):
        SVC().fit(X, y, sample_weight=(y > 0).astype(float))
    with pytest.raises(ValueError, match="one class is left"):
        SVC().fit(X, y, sample_weight=(y == 2).astype(float))


@pytest.mark.filterwarnings("ignore:The `probability` parameter:FutureWarning")
def test_probability_is_calibrated_like_libsvm():
    X, y = load_digits(return_X_y=True)
    X, y = _subsample(X / 16.0, y, 700, seed=4)
    keep = y < 4
    X, y = X[keep], y[keep]
    n = int(0.7 * len(y))
    params = dict(C=1.0, gamma=0.05, probability=True, random_state=0)
    ours = SVC(**params).fit(X[:n], y[:n])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # scikit-learn 1.9 deprecates probability=True
        ref = SkSVC(**params).fit(X[:n], y[:n])
    P, R = ours.predict_proba(X[n:]), ref.predict_proba(X[n:])
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert np.all(P >= 0) and np.all(P <= 1)
    assert np.mean(np.abs(P - R)) < 0.03
    assert np.mean(np.argmax(P, axis=1) == np.argmax(R, axis=1)) >= 0.97
    assert ours.probA_.shape == ours.probB_.shape == (6,)
    np.testing.assert_allclose(ours.predict_log_proba(X[n:]), np.log(P))
    # log-loss close to LIBSVM's
    idx = np.searchsorted(ours.classes_, y[n:])
    ll_ours = -np.mean(np.log(P[np.arange(len(idx)), idx]))
    ll_ref = -np.mean(np.log(R[np.arange(len(idx)), idx]))
    assert ll_ours < 1.5 * ll_ref + 0.02


@pytest.mark.filterwarnings("ignore:The `probability` parameter:FutureWarning")
def test_binary_probability_is_monotone_in_the_decision_function(ijcnn1_small):
    X, y, Xt, _ = ijcnn1_small
    clf = SVC(C=8.0, gamma=2.0, probability=True, random_state=0).fit(X, y)
    P = clf.predict_proba(Xt)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    order = np.argsort(clf.decision_function(Xt))
    assert np.all(np.diff(P[order, 1]) >= -1e-12)
    # the same random_state gives the same calibration
    again = SVC(C=8.0, gamma=2.0, probability=True, random_state=0).fit(X, y)
    np.testing.assert_array_equal(again.probA_, clf.probA_)


def test_predict_proba_needs_probability_true():
    X, y = load_iris(return_X_y=True)
    clf = SVC().fit(X, y)
    assert not hasattr(clf, "predict_proba")
    with pytest.raises(AttributeError, match="predict_proba"):
        clf.predict_proba(X)
    assert clf.probA_.shape == (0,)


# ------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(C=0.0), "C must be > 0"),
        (dict(C=-1.0), "C must be > 0"),
        (dict(tol=0.0), "tol must be > 0"),
        (dict(tol=-1e-3), "tol must be > 0"),
        (dict(pairs=0), "pairs must be >= 1"),
        (dict(cache_size=0), "cache_size must be > 0"),
        (dict(cache_size=-5), "cache_size must be > 0"),
        (dict(kernel="cosine"), "kernel must be one of"),
        (dict(solver="liblinear"), "solver must be one of"),
        (dict(gamma=-1.0), "gamma"),
        (dict(max_iter=0), "max_iter"),
        (dict(decision_function_shape="ovx"), "decision_function_shape"),
        (dict(min_alpha_opt=10, max_alpha_opt=5), "max_alpha_opt"),
        (dict(n_jobs=0), "n_jobs"),
    ],
)
def test_bad_parameters_raise_value_errors(params, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=match):
        SVC(**params).fit(X, y)


def test_wrongly_typed_parameters_raise_type_errors():
    X, y = load_iris(return_X_y=True)
    for params in (dict(C="1"), dict(pairs=2.5), dict(shrinking="yes")):
        with pytest.raises(TypeError):
            SVC(**params).fit(X, y)


def test_one_class_is_an_error():
    X = np.random.RandomState(0).rand(20, 3)
    with pytest.raises(ValueError, match="greater than one; got 1 class"):
        SVC().fit(X, np.zeros(20))


def test_duplicate_points_and_contradicting_labels():
    X, y = load_iris(return_X_y=True)
    Xd, yd = np.vstack([X, X, X]), np.concatenate([y, y, y])
    ours, ref = SVC(tol=1e-5).fit(Xd, yd), SkSVC(tol=1e-5).fit(Xd, yd)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=2e-3)
    # the same point with both labels: alphas at C on both copies is optimal
    Xc = np.vstack([X[:50], X[:50], X[50:100]])
    yc = np.concatenate([np.zeros(50), np.ones(50), np.ones(50)])
    ours, ref = SVC(C=1.0).fit(Xc, yc), SkSVC(C=1.0).fit(Xc, yc)
    np.testing.assert_array_equal(ours.predict(X[:100]), ref.predict(X[:100]))
    # all points identical but labels differ: a constant decision function
    same = SVC().fit(np.ones((10, 2)), np.r_[np.zeros(4), np.ones(6)])
    assert np.all(same.predict(np.ones((3, 2))) == 1)


@pytest.mark.parametrize("solver", SOLVERS)
def test_sigmoid_kernel_not_psd_ends_with_an_answer_or_a_warning(solver):
    X, y = load_iris(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    for gamma, coef0 in ((5.0, 1.0), (0.5, -1.0)):  # both give indefinite kernel matrices here
        K = np.tanh(gamma * X @ X.T + coef0)
        assert np.linalg.eigvalsh(K).min() < -1e-6
        clf = SVC(kernel="sigmoid", gamma=gamma, coef0=coef0, C=100.0, max_iter=20000, solver=solver)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            clf.fit(X, y)
        stopped = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
        assert clf.fit_status_ == (1 if stopped else 0)
        assert np.all(np.isfinite(clf.decision_function(X)))
        ref = SkSVC(kernel="sigmoid", gamma=gamma, coef0=coef0, C=100.0).fit(X, y)
        assert abs(np.mean(clf.predict(X) == y) - np.mean(ref.predict(X) == y)) <= 0.05


def test_max_iter_stops_with_a_convergence_warning(ijcnn1_small):
    X, y, _, _ = ijcnn1_small
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        clf = SVC(C=32.0, gamma=2.0, max_iter=2).fit(X, y)
    assert clf.fit_status_ == 1
    assert np.all(clf.n_iter_ <= 2)


def test_nan_and_wrong_feature_count_are_rejected():
    X, y = load_iris(return_X_y=True)
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SVC().fit(Xn, y)
    clf = SVC().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :3])


# ---------------------------------------------------- pickling, threads


@pytest.mark.filterwarnings("ignore:The `probability` parameter:FutureWarning")
def test_pickle_round_trip(a9a_small):
    X, y, Xt, _ = a9a_small
    for clf in (SVC(C=4.0, gamma=0.05, probability=True, random_state=0).fit(X, y),
                SVC(kernel="precomputed").fit(linear_kernel(X), y)):
        restored = pickle.loads(pickle.dumps(clf))
        A = Xt if clf.kernel != "precomputed" else linear_kernel(Xt, X)
        np.testing.assert_array_equal(restored.predict(A), clf.predict(A))
        np.testing.assert_array_equal(restored.decision_function(A), clf.decision_function(A))
        if clf.probability is True:  # the default is the string "deprecated"
            np.testing.assert_array_equal(restored.predict_proba(A), clf.predict_proba(A))


def test_threads_and_solvers_agree(a9a_small):
    X, y, Xt, _ = a9a_small
    one = SVC(C=32.0, gamma=2.0**-7, n_jobs=1, tol=1e-5).fit(X, y)
    two = SVC(C=32.0, gamma=2.0**-7, n_jobs=2, tol=1e-5).fit(X, y)
    np.testing.assert_allclose(two.decision_function(Xt), one.decision_function(Xt), atol=1e-6)
    smo = SVC(C=32.0, gamma=2.0**-7, solver="smo", tol=1e-5).fit(X, y)
    for p in (1, 16, 128):
        alf = SVC(C=32.0, gamma=2.0**-7, pairs=p, tol=1e-5).fit(X, y)
        np.testing.assert_allclose(alf.decision_function(Xt), smo.decision_function(Xt), atol=5e-3)
        assert alf.dual_objective_[0] == pytest.approx(smo.dual_objective_[0], rel=1e-5)
    assert set(one.fit_details_[0]) >= {"cache_hits", "cache_misses", "seconds", "max_violation"}


def test_alfpgm_ill_conditioned_working_sets_hand_off_to_smo():
    # Found by the long fuzz profile: features up to 2.8e14 with the linear
    # kernel give kernel values from 1e4 to 1e28; ALFPGM's sub-problems then
    # spend their whole inner budget every round (44 s for max_iter=1000).
    # After three such rounds SMO finishes from the current point.
    import time

    X = np.array([[-114], [-958049], [745], [3588], [-1461860], [281474976710657], [4165], [-724677]], dtype=float)
    y = np.array(["c2", "c0", "c0", "c1", "c1", "c0", "c2", "c1"])
    start = time.perf_counter()
    with pytest.warns(ConvergenceWarning):
        model = SVC(C=0.01, kernel="linear", solver="alfpgm", max_iter=20000).fit(X, y)
    assert time.perf_counter() - start < 30.0
    assert any(d["smo_handoff"] for d in model.fit_details_)
    assert all(d["iterations"] <= 20000 for d in model.fit_details_)


# ------------------------------------------------------------ many classes


def _one_row_classes(k, d=5, seed=0):
    rng = np.random.RandomState(seed)
    return rng.randn(k, d), np.arange(k)


@pytest.mark.filterwarnings("ignore:The number of unique classes:UserWarning")
def test_many_one_row_classes_match_sklearn():
    """60 classes of one row each (1,770 pairs of two rows): the model, the
    one-vs-one and one-vs-rest decision values and the predictions are
    scikit-learn's (a two-row problem has one SMO step: the same optimum)."""
    X, y = _one_row_classes(60)
    Xq = np.random.RandomState(1).randn(30, 5)
    for shape in ("ovo", "ovr"):
        ours = SVC(gamma=0.3, decision_function_shape=shape).fit(X, y)
        ref = SkSVC(gamma=0.3, decision_function_shape=shape).fit(X, y)
        np.testing.assert_array_equal(ours.support_, ref.support_)
        np.testing.assert_array_equal(ours.n_support_, ref.n_support_)
        np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-6, atol=1e-9)
        dec = ours.decision_function(Xq)
        assert dec.shape == ((30, 1770) if shape == "ovo" else (30, 60))
        np.testing.assert_allclose(dec, ref.decision_function(Xq), rtol=1e-6, atol=1e-9)
        np.testing.assert_array_equal(ours.predict(Xq), ref.predict(Xq))
        np.testing.assert_array_equal(ours.predict(X), y)


@pytest.mark.parametrize("layout", ["dense", "csr", "float32", "precomputed"])
@pytest.mark.parametrize("k", [5, 12])
def test_each_pair_is_the_binary_fit_on_its_two_classes(layout, k):
    """Brute-force reference for the one-vs-one machinery: pair (i, j) of a
    k-class model is the binary SVC fitted on the rows of classes i and j
    alone (class i's rows first, as the pair is solved): the same
    coefficients bit for bit, the same intercept, and its decision values
    (positive for class i) are minus the binary ones; the votes of those
    values give predict, their sums decision_function's one-vs-rest. Five
    classes take the dense product, twelve the pair-by-pair sums
    (exact/ovo.hpp, kOvoDenseClasses)."""
    rng = np.random.RandomState(4)
    n = 18 * k
    X = rng.randn(n, 4)
    y = rng.randint(0, k, n)
    Xq = rng.randn(25, 4)
    kernel = "precomputed" if layout == "precomputed" else "rbf"
    K, Kq = X @ X.T, Xq @ X.T

    def data(rows, query=False):
        if layout == "precomputed":
            return Kq[:, rows] if query else K[np.ix_(rows, rows)]
        A = Xq if query else X[rows]
        return {"dense": A, "csr": sp.csr_matrix(A), "float32": A.astype(np.float32)}[layout]

    everything = np.arange(n)
    multi = SVC(kernel=kernel, gamma=0.4, C=2.0, decision_function_shape="ovo").fit(data(everything), y)
    ovo = multi.decision_function(data(everything, query=True))
    assert ovo.shape == (25, k * (k - 1) // 2)
    votes = np.zeros((25, k))
    confidence = np.zeros((25, k))
    starts = np.concatenate([[0], np.cumsum(multi.n_support_)])
    p = 0
    for i in range(k):
        for j in range(i + 1, k):
            rows = np.concatenate([np.flatnonzero(y == i), np.flatnonzero(y == j)])
            binary = SVC(kernel=kernel, gamma=0.4, C=2.0).fit(data(rows), y[rows])
            reference = -binary.decision_function(data(rows, query=True))
            # float32 rows: the binary expansion sums its float kernel values in float
            tight = 1e-5 if layout == "float32" else 1e-12
            np.testing.assert_allclose(ovo[:, p], reference, rtol=tight, atol=tight)
            assert multi.intercept_[p] == -binary.intercept_[0]
            # the pair's coefficients (y alpha, class i positive) in LIBSVM's layout:
            # class i's support vectors in row j - 1, class j's in row i
            coef = dict(zip(rows[binary.support_], binary._dual_coef_[0]))
            for c, row in ((i, j - 1), (j, i)):
                for s in range(starts[c], starts[c + 1]):
                    assert multi._dual_coef_[row, s] == coef.get(multi.support_[s], 0.0)
            votes[:, i] += ovo[:, p] >= 0
            votes[:, j] += ovo[:, p] < 0
            confidence[:, i] += ovo[:, p]
            confidence[:, j] -= ovo[:, p]
            p += 1
    wins = np.zeros((25, k), dtype=int)
    p = 0
    for i in range(k):
        for j in range(i + 1, k):
            wins[:, i] += ovo[:, p] > 0
            wins[:, j] += ovo[:, p] <= 0
            p += 1
    query = data(everything, query=True)
    np.testing.assert_array_equal(multi.predict(query), np.argmax(wins, axis=1))
    multi.set_params(decision_function_shape="ovr")
    ovr = votes + confidence / (3 * (np.abs(confidence) + 1))
    np.testing.assert_array_equal(multi.decision_function(query), ovr)


def test_many_classes_model_file_predicts_as_the_estimator(tmp_path):
    """The C++ Model computes more than two classes' values by the same pair
    by pair code: bit-equal decision values, dense, float32 and CSR."""
    from budgetsvm import _core, save_model
    from budgetsvm._data import as_supported, core_view

    rng = np.random.RandomState(5)
    X = rng.randn(120, 6)
    y = rng.randint(0, 12, 120)
    for name, data in {"dense": X, "float32": X.astype(np.float32), "csr": sp.csr_matrix(X)}.items():
        est = SVC(gamma=0.2).fit(data, y)
        save_model(est, tmp_path / f"{name}.bsvm")
        dec, index, _ = _core.model_predict(str(tmp_path / f"{name}.bsvm"), core_view(as_supported(data)), 2)
        np.testing.assert_array_equal(dec, est._ovo_decision(data))
        np.testing.assert_array_equal(est.classes_[index], est.predict(data))


@pytest.mark.filterwarnings("ignore:The number of unique classes:UserWarning")
def test_many_classes_fit_does_no_python_work_per_pair():
    """The pairs are solved and laid out in one C++ call: the Python-level
    calls of fit (counted by a profile hook, deterministic) are the same
    for 50 and 400 one-row classes (1,225 and 79,800 pairs). Before, fit
    called into Python a dozen times per pair (2.9 million calls for 400
    classes), which made 600 classes take 10 s against scikit-learn's 0.4 s."""
    import sys

    def calls(k):
        X, y = _one_row_classes(k)
        SVC(gamma=0.3).fit(X, y)  # imports and caches out of the count
        count = [0]

        def hook(frame, event, arg):
            count[0] += 1

        sys.setprofile(hook)
        try:
            SVC(gamma=0.3).fit(X, y)
        finally:
            sys.setprofile(None)
        return count[0]

    few, many = calls(50), calls(400)
    assert many <= few + 50, (few, many)


@pytest.mark.filterwarnings("ignore:The number of unique classes:UserWarning")
def test_many_classes_predict_forms_no_support_vectors_by_pairs_matrix():
    """predict and the one-vs-rest decision_function of 400 one-row classes
    allocate (numpy, traced) well under a megabyte per 100 rows: before,
    they formed the n_SV x n_pairs coefficients (400 x 79,800 doubles, 255
    MB) and multiplied the kernel by them (work n_SV x n_pairs per row)."""
    import tracemalloc

    X, y = _one_row_classes(400)
    Xq = np.random.RandomState(2).randn(100, 5)
    clf = SVC(gamma=0.3).fit(X, y)
    expected = clf.predict(Xq), clf.decision_function(Xq)
    for method, want in zip((clf.predict, clf.decision_function), expected):
        tracemalloc.start()
        try:
            got = method(Xq)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        np.testing.assert_array_equal(got, want)
        assert peak < 8 * 2**20, peak  # the one-vs-rest scores themselves: 2 x 100 x 400 doubles


def test_verbose_prints_a_line_per_pair(capsys):
    X, y = _one_row_classes(4)
    SVC(verbose=1).fit(np.vstack([X, X + 0.1]), np.r_[y, y])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6 and all(line.startswith("[budgetsvm.SVC] smo: ") for line in lines)
    assert all("status converged" in line for line in lines)


def test_fit_details_one_dict_per_pair_and_pickles():
    X, y = _one_row_classes(6)
    clf = SVC().fit(np.vstack([X, X + 0.1]), np.r_[y, y])
    details = clf.fit_details_
    assert len(details) == 15 == len(clf.solver_) == clf.n_iter_.size
    assert [d["iterations"] for d in details] == clf.n_iter_.tolist()
    assert [d["objective"] for d in details] == clf.dual_objective_.tolist()
    assert [d["intercept"] for d in details] == clf._intercept_.tolist()
    assert all(d["status"] == "converged" and d["solver"] == "smo" for d in details)
    assert all(isinstance(d["cache_hits"], int) and isinstance(d["polished"], bool) for d in details)
    assert pickle.loads(pickle.dumps(clf)).fit_details_ == details
    assert not hasattr(SVC(), "fit_details_")
