"""Regression tests of the scikit-learn parity fixes and of extreme magnitudes
(scikit-learn's own SVM tests run from .ci/run: tests/sklearn_parity)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC as SkLinearSVC

from budgetsvm import SVC, SVR, BudgetedSVC, LinearSVC, NuSVC, OneClassSVM
from budgetsvm.estimators import linear as linear_module

# scikit-learn's six-point toy problem: the optimum has alpha = 1/4 on rows 1 and 3, b = 0
X6 = np.array([[-2, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1]], dtype=float)
Y6 = np.array([1, 1, 1, 2, 2, 2])
PROBABILITY = "The `probability` parameter"


def _data(n=200, seed=0):
    return make_classification(n_samples=n, n_features=5, random_state=seed)


# ------------------------------------------------------- exact dual values


@pytest.mark.parametrize("solver", ["alfpgm", "smo"])
def test_six_points_give_libsvm_exact_dual(solver):
    clf = SVC(kernel="linear", solver=solver).fit(X6, Y6)
    np.testing.assert_array_equal(clf.dual_coef_, [[-0.25, 0.25]])
    np.testing.assert_array_equal(clf.support_, [1, 3])
    np.testing.assert_array_equal(clf.intercept_, [0.0])
    if solver == "alfpgm":
        assert clf.fit_details_[0]["polished"]


def test_polish_matches_a_tight_smo_run():
    X, y = _data(300, seed=3)
    polished = SVC(C=2.0, gamma=0.3, tol=1e-3, solver="alfpgm").fit(X, y)
    tight = SVC(C=2.0, gamma=0.3, tol=1e-8, solver="smo").fit(X, y)
    assert polished.fit_details_[0]["polished"]  # 36 free variables here
    np.testing.assert_array_equal(polished.support_, tight.support_)
    np.testing.assert_allclose(polished.dual_coef_, tight.dual_coef_, atol=1e-5)
    np.testing.assert_allclose(polished.intercept_, tight.intercept_, atol=1e-5)
    assert polished.fit_details_[0]["max_violation"] < 1e-6


# ------------------------------------------------- the fitted representation


def test_predict_follows_the_internal_dual_coef():
    clf = SVC(kernel="linear").fit(X6, Y6)
    assert clf.predict([[-0.1, -0.1]])[0] == 1
    clf._dual_coef_ = np.array([[0.0, 1.0]])
    assert clf.predict([[-0.1, -0.1]])[0] == 2


def test_altered_representation_is_an_error():
    X, y = _data()
    clf = SVC().fit(X, y)
    clf._n_support[0] = 1_000_000
    with pytest.raises(ValueError, match="internal representation of SVC was altered"):
        clf.predict(X)


def test_sparse_input_on_a_dense_model_is_an_error():
    X, y = _data()
    clf = SVC().fit(X, y)
    with pytest.raises(ValueError, match="cannot use sparse input in 'SVC' trained on dense data"):
        clf.predict(sp.csr_matrix(X))
    # a sparse model takes dense input (scikit-learn converts it)
    sparse_model = SVC().fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(sparse_model.predict(X), clf.predict(X))


# ------------------------------------------------------- warnings and probability


def test_convergence_warnings_use_scikit_learn_words():
    X, y = _data()
    with pytest.warns(ConvergenceWarning, match=r"Solver terminated early \(max_iter=2\)\.  Consider"):
        SVC(max_iter=2).fit(X, y)
    with pytest.warns(ConvergenceWarning, match="Liblinear failed to converge, increase the number of iterations"):
        LinearSVC(max_iter=2, C=100.0).fit(X, y)


@pytest.mark.parametrize("probability", [True, False])
def test_setting_probability_warns_and_still_works(probability):
    X, y = _data()
    with pytest.warns(FutureWarning, match="probability.+parameter.+deprecated"):
        clf = SVC(probability=probability, random_state=0).fit(X, y)
    assert hasattr(clf, "predict_proba") == probability
    if probability:
        P = clf.predict_proba(X)
        np.testing.assert_allclose(P.sum(axis=1), 1.0)
        assert np.mean(clf.classes_[P.argmax(axis=1)] == y) > 0.8


def test_default_probability_is_silent_and_off():
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = SVC().fit(X, y)
    assert clf.get_params()["probability"] == "deprecated"
    assert not hasattr(clf, "predict_proba")
    with pytest.raises(TypeError, match="probability must be a bool"):
        SVC(probability="yes").fit(X, y)


# ------------------------------------------------------- LinearSVC parameters


@pytest.mark.parametrize(
    "params",
    [dict(penalty="l1", loss="hinge", dual=True), dict(loss="hinge", dual=False), dict(penalty="l1", dual=True)],
)
def test_linearsvc_refuses_what_liblinear_refuses_in_its_words(params):
    X, y = _data()
    with pytest.raises(ValueError, match="Unsupported set of arguments") as ours:
        LinearSVC(**params).fit(X, y)
    with pytest.raises(ValueError, match="Unsupported set of arguments") as theirs:
        SkLinearSVC(**params).fit(X, y)
    assert str(ours.value) == str(theirs.value)


def test_linearsvc_dual_false_is_the_same_problem():
    X, y = _data()
    primal = LinearSVC(dual=False, tol=1e-6, random_state=0).fit(X, y)
    dual = LinearSVC(dual=True, tol=1e-6, random_state=0).fit(X, y)
    np.testing.assert_allclose(primal.coef_, dual.coef_)
    reference = SkLinearSVC(dual=False, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(primal.coef_, reference.coef_, rtol=1e-3, atol=1e-4)


# ------------------------------------------------------- extreme magnitudes


@pytest.mark.parametrize("scale", [1e300, 1e154])
@pytest.mark.parametrize(
    "estimator", [SVC(), SVC(kernel="linear"), BudgetedSVC(budget=20, random_state=0)], ids=repr
)
def test_huge_values_are_a_clear_error_for_kernel_machines(estimator, scale):
    X, y = _data()
    with pytest.raises(ValueError, match="dual coefficients or intercepts are not finite.+squared row norm"):
        estimator.fit(X * scale, y)


@pytest.mark.parametrize("scale", [1e300, 1e154])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_huge_values_are_a_clear_error_for_linearsvc(scale, fit_intercept):
    X, y = _data()
    with pytest.raises(ValueError, match="values too large"):
        LinearSVC(fit_intercept=fit_intercept).fit(X * scale, y)


def test_near_float_max_raises_scikit_learn_error():
    # scikit-learn's test_svc_nonfinite_params
    rng = np.random.RandomState(42)
    X = np.finfo(np.float64).max * rng.uniform(size=(10, 2))
    y = rng.randint(0, 2, size=10)
    with pytest.raises(ValueError, match="The dual coefficients or intercepts are not finite"):
        SVC().fit(X, y)


@pytest.mark.parametrize(
    "estimator", [SVC(), LinearSVC(fit_intercept=False), BudgetedSVC(budget=20, random_state=0)], ids=repr
)
def test_tiny_values_are_a_clear_error(estimator):
    X, y = _data()
    with pytest.raises(ValueError, match="values too small"):
        estimator.fit(X * 1e-160, y)


def test_float_cache_range_for_linear_and_poly_kernels():
    X, y = _data()
    # kernel values up to ~1e40 exceed the single-precision cache; scikit-learn's LIBSVM
    # would overflow its float cache the same way
    with pytest.raises(ValueError, match="'linear' kernel reaches values"):
        SVC(kernel="linear").fit(X * 1e20, y)
    with pytest.raises(ValueError, match="'poly' kernel reaches values"):
        SVC(kernel="poly", gamma=1.0, degree=3).fit(X * 1e7, y)
    with pytest.raises(ValueError, match="kernel matrix holds values up to"):
        SVC(kernel="precomputed").fit(np.full((len(y), len(y)), 1e39), y)


def test_overflowing_gamma_scale_is_named():
    X, y = _data()
    X = X.copy()
    X[:, 0] *= 1e153  # squared norms stay finite, n_features * X.var() does not
    with pytest.raises(ValueError, match="gamma='scale'.+overflows"):
        SVC(kernel="sigmoid").fit(X, y)
    with pytest.raises(ValueError, match="gamma='scale'.+overflows"):
        BudgetedSVC(kernel="poly", maintenance="remove", budget=20).fit(X, y)


def test_large_but_safe_values_still_fit():
    X, y = _data()
    for scale in (1e-100, 1e100):
        clf = SVC().fit(X * scale, y)  # gamma='scale' follows the scale
        assert clf.score(X * scale, y) > 0.9


def test_linearsvc_max_iter_none_is_bounded(monkeypatch):
    # at scale 1e100 the constant intercept feature is 1e-100 of the data:
    # coordinate descent would need practically endless sweeps
    monkeypatch.setattr(linear_module, "NONE_MAX_SWEEPS", 500)
    X, y = _data()
    with pytest.warns(ConvergenceWarning, match="max_iter=None stopped at its bound of 500 sweeps"):
        clf = LinearSVC().fit(X * 1e100, y)
    assert clf.n_iter_ == 500


# -- scikit-learn's test_sparse.py: coef_ of sparse fits, sparse callable kernels ---------------------


@pytest.mark.parametrize("container", [sp.csr_matrix, sp.csr_array])
@pytest.mark.parametrize("make, classes", [(lambda: SVC(kernel="linear"), 2), (lambda: SVC(kernel="linear"), 3),
                                           (lambda: NuSVC(kernel="linear", nu=0.2), 3),
                                           (lambda: SVR(kernel="linear"), 0),
                                           (lambda: OneClassSVM(kernel="linear", nu=0.3), 0)])
def test_linear_coef_of_a_sparse_fit_is_sparse_in_its_container(container, make, classes):
    X, y = make_classification(n_samples=120, n_features=6, n_informative=4, n_classes=max(classes, 2),
                               random_state=0)
    target = y if classes else X[:, 0] - X[:, 1]
    dense, sparse = make().fit(X, target), make().fit(container(X), target)
    assert isinstance(sparse.coef_, container) and not sp.issparse(dense.coef_)
    np.testing.assert_allclose(sparse.coef_.toarray(), dense.coef_, rtol=1e-6, atol=1e-8)
    assert not sparse.coef_.data.flags.writeable and not dense.coef_.flags.writeable


@pytest.mark.parametrize("container", [sp.csr_matrix, sp.lil_matrix])
def test_a_callable_kernel_returning_sparse_is_made_dense(container):
    X, y = make_classification(n_samples=80, n_features=5, random_state=1)
    linear = lambda a, b: a @ b.T  # noqa: E731  (sparse rows give a sparse Gram matrix)
    sparse = SVC(kernel=linear).fit(container(X), y)
    dense = SVC(kernel="linear").fit(X, y)
    np.testing.assert_allclose(sparse.decision_function(container(X)), dense.decision_function(X), atol=1e-6)
    reg = SVR(kernel=linear).fit(container(X), X[:, 0])
    np.testing.assert_allclose(reg.predict(container(X)), SVR(kernel="linear").fit(X, X[:, 0]).predict(X), atol=1e-6)
