"""LinearSVC(multi_class="crammer_singer") (cpp/include/budgetsvm/linear/
crammer_singer.hpp) against liblinear-official's solver 4: the same
objective (the primal is strongly convex, so the same weights up to the
tolerance), hence the same predictions except on near-ties."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.svm import LinearSVC as SkLinearSVC

from budgetsvm import LinearSVC

liblinearutil = pytest.importorskip("liblinear.liblinearutil")


def cs_primal(W, b, X, y, C):
    """1/2 sum_m ||w_m||^2 (bias weights included) + C sum_i max_m (e_i^m + f_m(x_i) - f_{y_i}(x_i))."""
    F = X @ W.T + b
    rows = np.arange(len(y))
    e = np.ones_like(F)
    e[rows, y] = 0.0
    return 0.5 * ((W**2).sum() + (b**2).sum()) + C * (e + F - F[rows, y][:, None]).max(axis=1).sum()


def liblinear_cs(X, y, C, tol):
    m = liblinearutil.train(y.tolist(), np.asarray(X).tolist(), f"-s 4 -c {C} -e {tol} -B 1 -q")
    K = len(m.get_labels())
    W = np.array([m.get_decfun(k)[0] for k in range(K)])
    b = np.array([m.get_decfun(k)[1] for k in range(K)])
    order = np.argsort(m.get_labels())
    return W[order], b[order]


def agree_off_ties(ours_scores, ref_scores):
    """Same argmax wherever the reference's best class leads by more than the models differ."""
    gap = np.abs(ours_scores - ref_scores).max()
    top2 = np.sort(ref_scores, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 2 * gap
    assert clear.mean() > 0.9
    np.testing.assert_array_equal(ours_scores.argmax(axis=1)[clear], ref_scores.argmax(axis=1)[clear])


@pytest.mark.parametrize("n,d,K,seed", [(60, 6, 3, 0), (300, 20, 4, 1)])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("sparse", [False, True])
def test_crammer_singer_matches_liblinear(n, d, K, seed, C, sparse):
    X, y = make_classification(
        n_samples=n, n_features=d, n_informative=5, n_redundant=1, n_classes=K, n_clusters_per_class=1,
        random_state=seed,
    )
    ours = LinearSVC(multi_class="crammer_singer", C=C, tol=1e-6, random_state=0)
    ours.fit(sp.csr_matrix(X) if sparse else X, y)
    W, b = liblinear_cs(X, y, C, 1e-6)
    stats = ours.fit_stats_[0]
    mine = cs_primal(ours.coef_, ours.intercept_, X, y, C)
    assert stats["status"] == "converged"
    assert stats["dual_objective"] == pytest.approx(mine, rel=1e-6)  # duality gap ~ 0
    assert mine == pytest.approx(cs_primal(W, b, X, y, C), rel=1e-4)
    agree_off_ties(ours.decision_function(X), X @ W.T + b)


def test_crammer_singer_two_classes_is_one_difference_vector():
    """Two classes: coef_ is w_1 - w_0 (scikit-learn's convention), equal to
    scikit-learn's own within the tolerance."""
    X, y = make_classification(n_samples=200, n_features=10, random_state=4)
    ours = LinearSVC(multi_class="crammer_singer", C=1.0, tol=1e-6, random_state=0).fit(X, y)
    ref = SkLinearSVC(multi_class="crammer_singer", C=1.0, tol=1e-6, max_iter=100000).fit(X, y)
    assert ours.coef_.shape == (1, 10) and ours.intercept_.shape == (1,)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-4)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-4)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_crammer_singer_ignores_loss_penalty_dual_and_weights_scale_C():
    """As in liblinear, loss/penalty/dual do not apply (no ValueError for
    combinations one-vs-rest refuses); sample_weight 2 everywhere is C doubled."""
    X, y = make_classification(n_samples=120, n_features=6, n_informative=4, n_classes=3, random_state=2)
    a = LinearSVC(multi_class="crammer_singer", C=0.5, tol=1e-8, random_state=0, penalty="l1", loss="hinge")
    a.fit(X, y, sample_weight=np.full(120, 2.0))
    b = LinearSVC(multi_class="crammer_singer", C=1.0, tol=1e-8, random_state=0).fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-5)


def test_bad_multi_class():
    X, y = make_classification(n_samples=20, n_features=4, random_state=0)
    with pytest.raises(ValueError, match="multi_class must be"):
        LinearSVC(multi_class="ovo").fit(X, y)
