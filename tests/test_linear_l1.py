"""LinearSVC(penalty="l1", dual=False): the L1-regularised squared-hinge SVM
(cpp/include/budgetsvm/linear/l1_cdn.hpp) against liblinear-official's
solver 5 (an independent build of the reference algorithm) and
scikit-learn's LinearSVC: the same objective and the same predictions."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.svm import LinearSVC as SkLinearSVC

from budgetsvm import LinearSVC

liblinearutil = pytest.importorskip("liblinear.liblinearutil")


def l1_objective(coef, intercept, X, y_pm, C, scaling=1.0):
    """||w||_1 (bias weight included, as liblinear regularises it) + C sum max(0, 1 - y f)^2."""
    margins = y_pm * (X @ coef + intercept)
    return np.abs(coef).sum() + abs(intercept / scaling) + C * (np.maximum(0.0, 1.0 - margins) ** 2).sum()


def liblinear_l1(X, y_pm, C, tol):
    m = liblinearutil.train(y_pm.tolist(), np.asarray(X).tolist(), f"-s 5 -c {C} -e {tol} -B 1 -q")
    w, b = m.get_decfun()
    w, b = np.array(w), float(b)
    if m.get_labels()[0] == -1:  # liblinear's positive class is the first label it saw
        w, b = -w, -b
    return w, b


@pytest.mark.parametrize("n,d,seed", [(60, 8, 0), (300, 20, 1), (800, 40, 2)])
@pytest.mark.parametrize("C", [0.01, 1.0, 30.0])
@pytest.mark.parametrize("sparse", [False, True])
def test_l1_matches_liblinear(n, d, seed, C, sparse):
    X, y = make_classification(n_samples=n, n_features=d, n_informative=5, n_redundant=1, random_state=seed)
    y_pm = np.where(y == 1, 1.0, -1.0)
    ours = LinearSVC(penalty="l1", dual=False, C=C, tol=1e-6, random_state=0)
    ours.fit(sp.csr_matrix(X) if sparse else X, y)
    w, b = liblinear_l1(X, y_pm, C, 1e-6)
    mine = l1_objective(ours.coef_[0], ours.intercept_[0], X, y_pm, C)
    ref = l1_objective(w, b, X, y_pm, C)
    assert ours.fit_stats_[0]["status"] == "converged"
    assert ours.fit_stats_[0]["primal_objective"] == pytest.approx(mine, rel=1e-9)
    assert mine == pytest.approx(ref, rel=1e-4)
    np.testing.assert_array_equal(ours.predict(X), np.where(X @ w + b > 0, 1, 0))


def test_l1_is_sparse_and_matches_scikit_learn_multiclass():
    """Three classes (one-vs-rest), small C: many weights exactly 0, and the
    same zero pattern, objective and predictions as scikit-learn's."""
    X, y = make_classification(
        n_samples=400, n_features=30, n_informative=4, n_redundant=0, n_classes=3, n_clusters_per_class=1,
        random_state=5,
    )
    ours = LinearSVC(penalty="l1", dual=False, C=0.05, tol=1e-6, random_state=0).fit(X, y)
    ref = SkLinearSVC(penalty="l1", dual=False, C=0.05, tol=1e-6, max_iter=100000).fit(X, y)
    assert (ours.coef_ == 0).sum() >= 30
    np.testing.assert_array_equal(ours.coef_ == 0, ref.coef_ == 0)
    for k in range(3):
        y_pm = np.where(y == k, 1.0, -1.0)
        a = l1_objective(ours.coef_[k], ours.intercept_[k], X, y_pm, 0.05)
        r = l1_objective(ref.coef_[k], ref.intercept_[k], X, y_pm, 0.05)
        assert a == pytest.approx(r, rel=1e-4)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_l1_weights_scale_C():
    """sample_weight multiplies C_i: weight 2 on every row is C doubled;
    class_weight too (two classes: both classes' C)."""
    X, y = make_classification(n_samples=150, n_features=8, random_state=3)
    a = LinearSVC(penalty="l1", dual=False, C=0.4, tol=1e-8, random_state=0).fit(X, y, sample_weight=np.full(150, 2.0))
    b = LinearSVC(penalty="l1", dual=False, C=0.8, tol=1e-8, random_state=0).fit(X, y)
    c = LinearSVC(penalty="l1", dual=False, C=0.4, tol=1e-8, random_state=0, class_weight={0: 2.0, 1: 2.0}).fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-5)
    np.testing.assert_allclose(c.coef_, b.coef_, atol=1e-5)


@pytest.mark.parametrize(
    "params,match",
    [
        (dict(penalty="l1", loss="hinge", dual=False), "penalty='l1' and loss='hinge' is not supported"),
        (dict(penalty="l1", dual=True), "are not supported when dual=True"),
    ],
)
def test_l1_refusals_are_scikit_learns(params, match):
    X, y = make_classification(n_samples=20, n_features=4, random_state=0)
    with pytest.raises(ValueError, match=match):
        LinearSVC(**params).fit(X, y)
    with pytest.raises(ValueError, match=match):
        SkLinearSVC(**params).fit(X, y)
