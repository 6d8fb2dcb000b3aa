"""Repeated training points: the optimal alpha is not unique, the model is.

When a point occurs k times, any split of its weight among the copies is
optimal, so the number of support vectors depends on the solver's path
(phishing: LIBSVM 1121 SVs, our SMO 1106, ALFPGM 959 -- it moves a group's
weight onto as few copies as the bounds allow -- all at the same optimum).
What every exact solver must agree on is the decision function and the set
of distinct support points; these tests check both against
scikit-learn's SVC (LIBSVM).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from sklearn.svm import SVC as SkSVC

from budgetsvm import SVC

from conftest import load_dataset

SOLVERS = ["alfpgm", "smo"]


def distinct_support_points(X, support):
    """Number of distinct rows of X among the support indices."""
    rows = np.asarray(X[support].todense() if hasattr(X, "todense") else X[support])
    return np.unique(rows, axis=0).shape[0]


def with_repeats(n=400, d=4, repeats=3, seed=0):
    """Two overlapping Gaussian classes; a third of the points repeated."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.8 * y[:, None] * (np.arange(d) < 2)
    picked = rng.choice(n, n // 3, replace=False)
    X = np.vstack([X] + [X[picked]] * (repeats - 1))
    y = np.concatenate([y] + [y[picked]] * (repeats - 1))
    order = rng.permutation(len(y))
    return X[order], y[order]


def check_same_model(ours, ref, X, Xt):
    # same decision function up to the tolerance ...
    d_ours, d_ref = ours.decision_function(Xt), ref.decision_function(Xt)
    assert np.max(np.abs(d_ours - d_ref)) <= 0.02 * (1.0 + np.max(np.abs(d_ref)))
    # ... and the same distinct support points (within 2%), whatever the SV count
    n_ours = distinct_support_points(X, ours.support_)
    n_ref = distinct_support_points(X, ref.support_)
    assert abs(n_ours - n_ref) <= max(2, 0.02 * n_ref)


@pytest.mark.parametrize("solver", SOLVERS)
def test_repeated_points_generated(solver):
    X, y = with_repeats()
    Xt, _ = with_repeats(n=300, seed=1)
    params = dict(C=10.0, gamma=0.5, tol=1e-3)
    ours = SVC(solver=solver, **params).fit(X, y)
    ref = SkSVC(**params).fit(X, y)
    check_same_model(ours, ref, X, Xt)
    # an alpha split among copies never exceeds C in total per point
    assert np.all(np.abs(ours.dual_coef_) <= params["C"] * (1 + 1e-12))


@pytest.mark.parametrize("solver", SOLVERS)
def test_repeated_points_phishing(solver):
    """phishing has 8844 rows, 5100 distinct: a 2500-row subsample."""
    X, y = load_dataset("phishing.bz2")
    rng = np.random.RandomState(0)
    idx = np.sort(rng.choice(X.shape[0], 3500, replace=False))
    X, y = X[idx].toarray(), y[idx]
    X, y, Xt = X[:2500], y[:2500], X[2500:]
    assert np.unique(X, axis=0).shape[0] < 0.9 * X.shape[0]  # the premise: many repeats
    params = dict(C=32.0, gamma=2.0, tol=1e-3)
    ours = SVC(solver=solver, **params).fit(X, y)
    ref = SkSVC(**params).fit(X, y)
    check_same_model(ours, ref, X, Xt)


COINCIDENT = [
    (np.zeros((2, 1)), [0, 1]),
    (np.zeros((3, 2)), [0, 0, 1]),
    (np.ones((4, 2)), [0, 1, 0, 1]),
    (np.array([[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]), [0, 1, 1]),
]


@pytest.mark.parametrize("solver", [None, *SOLVERS])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("case", range(len(COINCIDENT)))
def test_coincident_points_any_C(solver, sparse, kernel, case):
    """All rows equal: the dual is linear along every feasible direction
    (zero curvature), so the optimum puts every alpha of the smaller class
    at C with as much weight on the larger class: objective
    -2 C min(n_0, n_1), w = 0. It used to run the whole iteration bound at
    C = 1e300 (steps of b / tau towards a bound 1e300 away). The intercept
    is LIBSVM's middle of the feasible interval, independent of C here:
    scikit-learn's at C = 1."""
    import time

    import scipy.sparse as sp

    X, y = COINCIDENT[case]
    Xf = sp.csr_matrix(X) if sparse else X
    ref = SkSVC(kernel=kernel).fit(X, y)
    counts = np.bincount(y)
    kw = {} if solver is None else {"solver": solver}
    for C in [1.0, 1e3, 1e300]:
        start = time.perf_counter()
        clf = SVC(C=C, kernel=kernel, cache_size=0.5, **kw).fit(Xf, y)
        # the bound is the normal build's (instrumented code runs many times slower)
        assert time.perf_counter() - start < (1.0 if "ASAN_OPTIONS" not in os.environ else 20.0)
        dc = np.asarray(clf.dual_coef_.todense() if sp.issparse(clf.dual_coef_) else clf.dual_coef_).ravel()
        assert np.abs(dc).sum() == pytest.approx(2 * C * counts.min(), rel=1e-12)
        assert dc.sum() == pytest.approx(0.0, abs=1e-12 * C)
        np.testing.assert_allclose(clf.intercept_, ref.intercept_, atol=1e-12)
        np.testing.assert_array_equal(clf.predict(Xf), ref.predict(X))
