"""BudgetedSVR and BudgetedOneClassSVM: against exact references
(scikit-learn's SVR, KernelRidge and OneClassSVM), the nu-property, the
budget, continuing a model, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.kernel_ridge import KernelRidge
from sklearn.svm import SVR as SkSVR
from sklearn.svm import OneClassSVM as SkOneClassSVM
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.exceptions import ConvergenceWarning

from budgetsvm import BudgetedOneClassSVM, BudgetedSVR


def smooth(n: int, seed: int, noise: float = 0.0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    y = np.sin(3 * X[:, 0]) + 0.5 * X[:, 1] + 2.0  # a mean far from 0: the centring matters
    return X, y + noise * rng.normal(size=n)


def mse(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean((a - b) ** 2))


# BSGD's last iterate carries C / epochs of noise per visited point (its
# steps are C n / t): at C = 10 it needs hundreds of epochs, so it is tested
# at C = 1 (docs/budgeted.md, "BSGD for regression").
@pytest.mark.parametrize("solver, epochs, C", [("bsca", 40, 10.0), ("bsgd", 60, 1.0)])
def test_no_maintenance_matches_exact_svr(solver, epochs, C):
    # No maintenance: BSCA updates a point's copy in place (B >= n suffices),
    # BSGD adds a support vector per violation (B >= n * epochs). The budgeted
    # solvers then solve the SVR problem (bias-free after centring) and must
    # predict as well as the exact machine.
    X, y = smooth(300, 0, noise=0.1)
    Xt, yt = smooth(2000, 1)
    gamma, eps = 1.0, 0.05
    reg = BudgetedSVR(solver=solver, budget=300 * epochs, C=C, epsilon=eps, gamma=gamma, epochs=epochs, random_state=0)
    reg.fit(X, y)
    assert reg.fit_stats_["merges"] == 0 and reg.fit_stats_["removals"] == 0
    ours = mse(reg.predict(Xt), yt)
    exact = mse(SkSVR(C=C, epsilon=eps, gamma=gamma).fit(X, y).predict(Xt), yt)
    ridge = mse(KernelRidge(alpha=1.0 / C, kernel="rbf", gamma=gamma).fit(X, y - y.mean()).predict(Xt) + y.mean(), yt)
    assert exact < 0.01 and ridge < 0.02  # the references themselves fit the smooth target
    assert ours <= 1.25 * exact + 1e-3, (ours, exact)
    assert ours <= 1.25 * ridge + 1e-3, (ours, ridge)


def test_bsca_dual_matches_exact_svr_coefficients_without_intercept():
    # BSCA with B >= n solves the bias-free dual; scikit-learn's SVR solves the
    # dual with an unregularised offset. On centred targets of a symmetric
    # problem the offset is near 0, so the models nearly agree point by point.
    X, y = smooth(200, 3)
    reg = BudgetedSVR(budget=300, C=5.0, epsilon=0.02, gamma=2.0, epochs=200, random_state=0).fit(X, y)
    ref = SkSVR(C=5.0, epsilon=0.02, gamma=2.0).fit(X, y)
    Xt, _ = smooth(500, 4)
    assert np.max(np.abs(reg.predict(Xt) - ref.predict(Xt))) < 0.1
    assert np.all(np.abs(reg.dual_coef_) <= 5.0 * (1 + 1e-9))


@pytest.mark.parametrize("solver, C", [("bsca", 10.0), ("bsgd", 0.1)])
def test_budget_with_merging_keeps_accuracy(solver, C):
    X, y = smooth(5000, 5, noise=0.05)
    Xt, yt = smooth(2000, 6)
    reg = BudgetedSVR(solver=solver, budget=60, C=C, epsilon=0.02, gamma=1.0, random_state=0).fit(X, y)
    assert reg.n_support_ <= 60
    assert reg.fit_stats_["merges"] > 0
    assert np.any(reg.dual_coef_ > 0) and np.any(reg.dual_coef_ < 0)  # signed coefficients
    assert mse(reg.predict(Xt), yt) < 0.02
    assert reg.score(Xt, yt) > 0.97


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_n_jobs_never_changes_the_model(solver):
    X, y = smooth(3000, 7, noise=0.1)
    C = 5.0 if solver == "bsca" else 0.1  # (BSGD's steps do not settle at C=5: a ConvergenceWarning)
    a = BudgetedSVR(solver=solver, budget=40, C=C, random_state=3, n_jobs=1).fit(X, y)
    b = BudgetedSVR(solver=solver, budget=40, C=C, random_state=3, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    np.testing.assert_array_equal(a.support_vectors_, b.support_vectors_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)


def test_sparse_input_gives_the_dense_model():
    X, y = smooth(500, 8, noise=0.1)
    dense = BudgetedSVR(budget=30, random_state=0).fit(X, y)
    sparse = BudgetedSVR(budget=30, random_state=0).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(dense.predict(X), sparse.predict(sp.csr_matrix(X)), atol=1e-8)


@pytest.mark.parametrize("solver, C", [("bsca", 10.0), ("bsgd", 0.1)])
def test_partial_fit_and_warm_start_continue(solver, C):
    X, y = smooth(4000, 9, noise=0.05)
    Xt, yt = smooth(1000, 10)
    reg = BudgetedSVR(solver=solver, budget=50, C=C, epsilon=0.02, gamma=1.0, random_state=0)
    for chunk in range(4):
        rows = slice(1000 * chunk, 1000 * (chunk + 1))
        reg.partial_fit(X[rows], y[rows])
    assert reg.n_samples_seen_ == 4000 and reg.n_iter_ == 4
    assert reg.score(Xt, yt) > 0.95
    warm = BudgetedSVR(solver=solver, budget=50, C=C, epsilon=0.02, gamma=1.0, epochs=1, random_state=0,
                       warm_start=True)
    warm.fit(X, y)
    t1 = warm.t_
    warm.fit(X, y)
    assert warm.t_ > t1
    assert warm.score(Xt, yt) > 0.95


def test_sample_weight_zero_leaves_rows_out():
    X, y = smooth(400, 11)
    w = np.ones(400)
    y_bad = y.copy()
    y_bad[:50] += 100.0  # corrupted rows of weight 0
    w[:50] = 0.0
    # both runs converge (the orders of their steps differ)
    a = BudgetedSVR(budget=500, C=5.0, epochs=100, random_state=0).fit(X[50:], y[50:])
    b = BudgetedSVR(budget=500, C=5.0, epochs=100, random_state=0).fit(X, y_bad, sample_weight=w)
    Xt, _ = smooth(300, 12)
    assert np.max(np.abs(a.predict(Xt) - b.predict(Xt))) < 0.05


def test_bad_input():
    X, y = smooth(50, 13)
    with pytest.raises(ValueError, match="epsilon"):
        BudgetedSVR(epsilon=-0.1).fit(X, y)
    y_nan = y.copy()
    y_nan[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        BudgetedSVR().fit(X, y_nan)
    with pytest.raises(ValueError, match="shards"):
        _shards(X, y)
    with pytest.raises(ValueError, match="epsilon"):
        BudgetedSVR(epsilon=np.inf).fit(X, y)
    with pytest.raises(TypeError, match="callback"):
        BudgetedSVR(callback=3).fit(X, y)


def _shards(X, y):
    """The core refuses sharded regression (no public parameter reaches it)."""
    from budgetsvm import _core
    from budgetsvm._data import as_supported, core_view

    _core.fit_budgeted_regression(core_view(as_supported(X)), y, 0.1, {"shards": 2, "gamma": 1.0})


def test_constant_target_and_one_row():
    X, _ = smooth(100, 14)
    reg = BudgetedSVR(budget=20, random_state=0).fit(X, np.full(100, 3.5))
    np.testing.assert_allclose(reg.predict(X), 3.5, atol=1e-12)
    one = BudgetedSVR(budget=5, epsilon=0.0, random_state=0).fit([[0.3, -0.2]], [1.7])
    assert np.isfinite(one.predict([[0.3, -0.2], [5.0, 5.0]])).all()
    assert one.predict([[5.0, 5.0]])[0] == pytest.approx(1.7, abs=1e-6)  # far away: the mean


def test_callback_and_history():
    X, y = smooth(500, 15)
    seen = []
    reg = BudgetedSVR(budget=30, epochs=4, instruments=True, random_state=0,
                      callback=lambda s: seen.append(s["epoch"]) or s["epoch"] == 2).fit(X, y)
    assert seen == [1, 2] and reg.n_iter_ == 2 and reg.fit_stats_["stopped_early"]
    assert all(np.isfinite(h["objective"]) for h in reg.history_)


# ---------------------------------------------------------------- one-class


@pytest.mark.parametrize("nu", [0.05, 0.2, 0.5])
def test_one_class_nu_property(nu):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 2))
    Xt = rng.normal(size=(4000, 2))
    det = BudgetedOneClassSVM(nu=nu, budget=60, gamma=0.5, random_state=0).fit(X)
    assert det.n_support_ <= 60
    train_out = float(np.mean(det.predict(X) == -1))
    test_out = float(np.mean(det.predict(Xt) == -1))
    assert abs(train_out - nu) <= 0.01
    assert abs(test_out - nu) <= 0.03 + 0.1 * nu  # held-out data of the same distribution
    # the exact machine agrees on most points
    ref = SkOneClassSVM(nu=nu, gamma=0.5).fit(X)
    assert np.mean(ref.predict(Xt) == det.predict(Xt)) > 0.9


@pytest.mark.parametrize("nu", [0.07, 0.5, 1.0])
def test_one_class_rho_minimises_the_primal_for_its_w(nu):
    # offset_ = rho minimises -rho + 1/(nu n) sum_i max(0, rho - s_i) for the
    # trained w (s_i its training scores): brute force over a fine grid of rho
    rng = np.random.default_rng(4)
    X = rng.normal(size=(700, 2))
    w = rng.uniform(0.5, 2.0, size=700)
    det = BudgetedOneClassSVM(nu=nu, budget=30, gamma=0.5, random_state=0).fit(X, sample_weight=w)
    s = det.score_samples(X)
    w = w / w.mean()

    def objective(rho):
        return -rho + np.sum(w * np.maximum(0.0, rho - s)) / (nu * s.size)

    grid = np.linspace(s.min() - 0.1, s.max() + 0.1, 20001)
    best = min(objective(r) for r in grid)
    assert objective(det.offset_) <= best + 1e-9


def test_one_class_conventions():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(1000, 3))
    det = BudgetedOneClassSVM(nu=0.1, budget=40, gamma=0.3, random_state=0).fit(X)
    Xt = np.vstack([rng.normal(size=(10, 3)), np.full((1, 3), 8.0)])
    d = det.decision_function(Xt)
    np.testing.assert_allclose(det.score_samples(Xt), d + det.offset_)
    np.testing.assert_array_equal(det.predict(Xt), np.where(d > 0, 1, -1))
    assert det.predict(Xt)[-1] == -1
    assert np.all(det.dual_coef_ > 0)
    assert det.intercept_[0] == pytest.approx(-det.offset_)


def test_one_class_sample_weight_scale_and_bad_nu():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(800, 2))
    a = BudgetedOneClassSVM(nu=0.2, budget=30, random_state=0).fit(X)
    b = BudgetedOneClassSVM(nu=0.2, budget=30, random_state=0).fit(X, sample_weight=np.full(800, 7.0))
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), rtol=1e-10, atol=1e-12)
    for nu in (0.0, -0.1, 1.5, np.nan):
        with pytest.raises(ValueError, match="nu"):
            BudgetedOneClassSVM(nu=nu).fit(X)
    with pytest.raises(ValueError, match="weight"):
        BudgetedOneClassSVM().fit(X, sample_weight=np.zeros(800))
    full = BudgetedOneClassSVM(nu=1.0, budget=30, random_state=0).fit(X)
    assert np.mean(full.predict(X) == -1) == pytest.approx(1.0)  # nu = 1: every training row on or outside


_WEIGHT_EQUIVALENCE = (
    "a weight of 2 scales the row's loss; a repeated row is one more step (the order of the steps and n differ)"
)


@parametrize_with_checks(
    [
        BudgetedSVR(budget=40, epochs=4, C=10.0, random_state=0),
        BudgetedSVR(solver="bsgd", budget=40, epochs=20, C=0.3, random_state=0),  # a C its steps settle at
        BudgetedOneClassSVM(budget=40, nu=0.3, random_state=0),
    ],
    expected_failed_checks=lambda est: {
        "check_sample_weight_equivalence_on_dense_data": _WEIGHT_EQUIVALENCE,
        "check_sample_weight_equivalence_on_sparse_data": _WEIGHT_EQUIVALENCE,
    },
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_bsgd_says_when_its_steps_do_not_settle():
    """At a C large for the targets' scale BSGD's last epoch stays worse than predicting the mean: a
    ConvergenceWarning naming the remedies; at a small C, none."""
    X, y = smooth(3000, 7, noise=0.1)
    with pytest.warns(ConvergenceWarning, match="did not settle at this C"):
        bad = BudgetedSVR(solver="bsgd", budget=40, C=10.0, random_state=0).fit(X, y)
    assert np.mean((bad.predict(X) - y) ** 2) > np.var(y)  # the warning is about a model worse than the mean
    good = BudgetedSVR(solver="bsgd", budget=40, C=0.1, random_state=0).fit(X, y)  # no warning (errors here)
    assert np.mean((good.predict(X) - y) ** 2) < 0.5 * np.var(y)
