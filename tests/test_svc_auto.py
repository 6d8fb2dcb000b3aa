"""SVC(solver="auto"), the default: which solver runs on which binary problem
(SMO below 10,000 rows and on rows too sparse to gather, ALFPGM on the
others), explicit choices unchanged,
and the same optimum as scikit-learn's SVC on small and mid-sized problems."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC as SkSVC

from budgetsvm import SVC, _core

from conftest import load_dataset

AUTO_ALFPGM_FROM = 10000  # exact/params.hpp: kAutoAlfpgmFrom


def _blobs(n, d=4, seed=0, shift=1.2):
    """Two overlapping Gaussian classes (labels 0/1, about half each)."""
    rng = np.random.RandomState(seed)
    y = (rng.rand(n) < 0.5).astype(int)
    X = rng.randn(n, d)
    X[:, 0] += shift * (2 * y - 1)
    return X, y


def _objective_from_svs(sv, coef, gamma):
    """1/2 c^T K c - sum |c| over the support vectors (the dual objective)."""
    K = rbf_kernel(sv, sv, gamma=gamma)
    return 0.5 * coef @ K @ coef - np.abs(coef).sum()


def test_auto_is_the_default_and_a_registry_choice():
    assert SVC().get_params()["solver"] == "auto"
    entry = {e["name"]: e for e in _core.options("exact")}["solver"]
    assert entry["default"] == "auto"
    assert set(entry["choices"]) == {"auto", "alfpgm", "smo"}


@pytest.mark.parametrize("n, expected", [(AUTO_ALFPGM_FROM - 1, "smo"), (AUTO_ALFPGM_FROM, "alfpgm")])
def test_auto_resolves_by_rows_at_the_threshold(n, expected):
    X, y = _blobs(n, shift=3.0)  # well separated: a quick fit either way
    clf = SVC(gamma=0.5).fit(X, y)
    assert clf.solver_ == [expected]
    assert clf.fit_details_[0]["solver"] == expected


def _sparse_rows(n, d, stored, seed=0):
    """CSR rows of d features, `stored` entries each: feature 0 carries the
    class (0 or 2), the other stored-1 are random features' random values."""
    rng = np.random.RandomState(seed)
    y = (rng.rand(n) < 0.5).astype(int)
    cols = np.stack([1 + rng.choice(d - 1, stored - 1, replace=False) for _ in range(n)])
    cols = np.hstack([np.zeros((n, 1), dtype=int), cols])
    vals = np.hstack([2.0 * y[:, None] + 1.0, rng.rand(n, stored - 1)])
    return sp.csr_matrix((vals.ravel(), cols.ravel(), np.arange(0, n * stored + 1, stored)), shape=(n, d)), y


@pytest.mark.parametrize("d, stored, expected", [(200, 10, "smo"),  # too sparse to gather
                                                 (64, 10, "alfpgm"),  # few features: gathered
                                                 (80, 24, "alfpgm")])  # over a quarter stored: gathered
def test_auto_sends_rows_too_sparse_to_gather_to_smo(d, stored, expected):
    X, y = _sparse_rows(AUTO_ALFPGM_FROM, d, stored, seed=8)
    assert SVC(gamma=0.5).fit(X, y).solver_ == [expected]
    # the same rows, dense: the dense tiles, so ALFPGM
    assert SVC(gamma=0.5).fit(X.toarray(), y).solver_ == ["alfpgm"]


def test_auto_is_exactly_the_solver_it_names():
    X, y = _blobs(600, seed=3)
    auto = SVC(C=4.0, gamma=0.3).fit(X, y)
    smo = SVC(C=4.0, gamma=0.3, solver="smo").fit(X, y)
    assert auto.solver_ == smo.solver_ == ["smo"]
    np.testing.assert_array_equal(auto.support_, smo.support_)
    np.testing.assert_array_equal(auto.dual_coef_, smo.dual_coef_)
    np.testing.assert_array_equal(auto.intercept_, smo.intercept_)
    assert auto.n_iter_[0] == smo.n_iter_[0]


@pytest.mark.parametrize("solver", ["alfpgm", "smo"])
def test_explicit_solver_runs_whatever_the_size(solver):
    X, y = _blobs(300, seed=4)
    assert SVC(solver=solver).fit(X, y).solver_ == [solver]
    X, y = _blobs(AUTO_ALFPGM_FROM + 500, seed=4, shift=3.0)
    assert SVC(solver=solver, gamma=0.5).fit(X, y).solver_ == [solver]


def test_auto_resolves_per_one_vs_one_problem():
    # classes of 6000, 5000 and 3000 rows: pairs (0, 1) = 11000 rows -> ALFPGM,
    # (0, 2) = 9000 and (1, 2) = 8000 -> SMO
    rng = np.random.RandomState(5)
    sizes = [6000, 5000, 3000]
    y = np.repeat([0, 1, 2], sizes)
    X = rng.randn(y.size, 3) + 4.0 * np.eye(3)[y]
    clf = SVC(gamma=0.5).fit(X, y)
    assert clf.solver_ == ["alfpgm", "smo", "smo"]
    assert len(clf.solver_) == len(clf.n_iter_)
    assert clf.fit_status_ == 0


def test_bad_solver_names_the_choices():
    X, y = _blobs(50)
    with pytest.raises(ValueError, match="solver"):
        SVC(solver="fastest").fit(X, y)


@pytest.mark.parametrize("n, expected", [(800, "smo"), (AUTO_ALFPGM_FROM + 1000, "alfpgm")])
def test_auto_matches_sklearn_binary(n, expected):
    X, y = _blobs(n, seed=6)
    Xt, yt = _blobs(2000, seed=7)
    gamma, C = 0.25, 2.0
    ours = SVC(C=C, gamma=gamma).fit(X, y)
    ref = SkSVC(C=C, gamma=gamma).fit(X, y)
    assert ours.solver_ == [expected]
    f_ref = _objective_from_svs(ref.support_vectors_, ref.dual_coef_[0], gamma)
    f_ours = _objective_from_svs(ours.support_vectors_, ours.dual_coef_[0], gamma)
    assert f_ours == pytest.approx(f_ref, rel=1e-4)  # both stop at tol = 1e-3 of the KKT gap
    assert ours.dual_objective_[0] == pytest.approx(f_ours, rel=1e-6)
    assert np.mean(ours.predict(Xt) == ref.predict(Xt)) >= 0.995
    assert abs(ours.score(Xt, yt) - ref.score(Xt, yt)) <= 0.005


def test_auto_matches_sklearn_multiclass():
    rng = np.random.RandomState(8)
    y = rng.randint(0, 4, 1600)
    X = rng.randn(y.size, 5) + 1.5 * np.eye(5)[y]
    Xt = rng.randn(1000, 5) + 1.5 * np.eye(5)[rng.randint(0, 4, 1000)]
    ours = SVC(C=3.0, gamma=0.2).fit(X, y)
    ref = SkSVC(C=3.0, gamma=0.2).fit(X, y)
    assert ours.solver_ == ["smo"] * 6
    assert np.mean(ours.predict(Xt) == ref.predict(Xt)) >= 0.99
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=0.05, atol=0.02)


def test_auto_matches_sklearn_on_phishing():
    """A real data set of the benchmark (8,844 of 11,055 rows as bench/exact.py: SMO)."""
    X, y = load_dataset("phishing.bz2")
    X = X.toarray()
    perm = np.random.RandomState(0).permutation(X.shape[0])
    cut = int(0.8 * X.shape[0])
    X, y, Xt = X[perm[:cut]], y[perm[:cut]], X[perm[cut:]]
    ours = SVC(C=32.0, gamma=2.0).fit(X, y)
    ref = SkSVC(C=32.0, gamma=2.0).fit(X, y)
    assert ours.solver_ == ["smo"]
    f_ref = _objective_from_svs(ref.support_vectors_, ref.dual_coef_[0], 2.0)
    assert ours.dual_objective_[0] == pytest.approx(f_ref, rel=1e-5)
    assert np.mean(ours.predict(Xt) == ref.predict(Xt)) >= 0.998
