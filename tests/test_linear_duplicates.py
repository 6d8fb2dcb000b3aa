"""Equal training rows in the linear dual (cpp/include/budgetsvm/linear/duplicates.hpp).

With merge_duplicates=True (or, by default, in groups of at least
merge_min_copies rows), equal rows with equal labels are solved as one
variable with the summed C and its alpha is split back in proportion to each
row's C. References: the KKT
conditions of the *original* problem (per-sample C, every copy its own
variable), the same fit with the merge switched off, and scikit-learn's
LinearSVC (liblinear, which never merges).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import LinearSVC as SkLinearSVC

from budgetsvm import LinearSVC, _core, _data

from conftest import load_dataset

LOSSES = ["hinge", "squared_hinge"]


def with_repeats(n=300, d=6, seed=0):
    """Random rows, a third of them repeated 1-3 times (some with the other label)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.6)
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n) > 0, 1, 0)
    picked = rng.choice(n, n // 3, replace=False)
    copies = np.repeat(picked, rng.integers(1, 4, size=picked.size))
    Xc, yc = X[copies], y[copies].copy()
    flip = rng.random(copies.size) < 0.15  # equal rows, other label: not merged
    yc[flip] = 1 - yc[flip]
    X, y = np.vstack([X, Xc]), np.concatenate([y, yc])
    order = rng.permutation(len(y))
    return X[order], y[order]


def expected_folded(X, y, weight):
    """Rows with C > 0 that have an earlier equal row with the same label."""
    seen, folded = set(), 0
    for i in range(X.shape[0]):
        key = (X[i].tobytes(), int(y[i]))
        if key in seen and weight[i] > 0:
            folded += 1
        seen.add(key)
    return folded


def fit_core(X, y, C, weight, loss, merge, tol=1e-4, bias=1.0):
    labels = y.astype(np.int32)
    Xc = _data.as_supported(X)
    params = dict(C=C, loss=loss, selection="shrinking", tol=tol, bias_scale=bias, merge_duplicates=merge,
                  merge_min_copies=2 if merge else 0)
    W, A, stats = _core.fit_linear(_data.core_view(Xc), labels, 2, np.ones(2), weight, params)
    return W[0], A[0], stats[0]


def kkt_original(X, y_pm, alpha, w_full, Ci, loss, s=1.0):
    """Max |projected gradient| of the original problem, every row its own variable."""
    Xb = np.hstack([X, np.full((X.shape[0], 1), s)])
    w = Xb.T @ (alpha * y_pm)
    assert np.allclose(w, w_full, atol=1e-9 * max(1.0, np.abs(w).max()))
    active = Ci > 0
    if loss == "hinge":
        D, U = np.zeros_like(Ci), Ci
    else:
        D, U = np.where(active, 0.5 / np.where(active, Ci, 1.0), 0.0), np.full_like(Ci, np.inf)
    G = y_pm * (Xb @ w) - 1.0 + D * alpha
    pg = np.where(alpha <= 0, np.minimum(G, 0), np.where(alpha >= U, np.maximum(G, 0), G))
    return np.abs(pg[active]).max()


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("layout", ["dense", "csr_unsorted"])
def test_merged_solution_is_optimal_for_the_original_problem(loss, layout):
    X, y = with_repeats()
    rng = np.random.default_rng(3)
    weight = rng.uniform(0.5, 2.0, size=len(y))
    weight[rng.random(len(y)) < 0.05] = 0.0
    C, tol = 0.7, 1e-4
    Xin = X
    if layout == "csr_unsorted":
        # reversed indices within each row and explicit zeros: still equal rows
        A = sp.csr_matrix(X)
        Xin = sp.csr_matrix((A.data[::-1].copy(), A.indices[::-1].copy(), (A.indptr[-1] - A.indptr[::-1]).copy()),
                            shape=A.shape)[::-1]
        Xin = sp.csr_matrix(Xin, copy=True)
        assert np.array_equal(Xin.toarray(), X)
    w, alpha, st = fit_core(Xin, y, C, weight, loss, merge=True, tol=tol)
    assert st["merged_rows"] == expected_folded(X, y, weight) > 0
    y_pm = np.where(y == 1, 1.0, -1.0)
    Ci = C * weight
    assert kkt_original(X, y_pm, alpha, w, Ci, loss) <= tol
    # copies of one group share alpha in proportion to their C
    keys = {}
    for i in range(len(y)):
        keys.setdefault((X[i].tobytes(), y[i]), []).append(i)
    checked = 0
    for rows in keys.values():
        rows = [r for r in rows if Ci[r] > 0]
        if len(rows) > 1:
            ratio = alpha[rows] / Ci[rows]
            assert np.allclose(ratio, ratio[0], rtol=1e-12, atol=1e-15)
            checked += 1
    assert checked > 10
    # the same optimum as without merging
    w0, alpha0, st0 = fit_core(Xin, y, C, weight, loss, merge=False, tol=tol)
    assert st0["merged_rows"] == 0
    assert st["dual_objective"] == pytest.approx(st0["dual_objective"], rel=1e-5)
    np.testing.assert_allclose(w, w0, atol=2e-3 * np.abs(w0).max())


def test_by_default_only_large_groups_are_merged():
    X, y = with_repeats()  # groups of at most 4 equal rows
    # a group of 25 equal rows with one label (a 26th with the other label
    # stays apart), above the default merge_min_copies = 20
    X = np.vstack([X, np.repeat(X[:1], 26, axis=0)])
    y = np.concatenate([y, np.full(25, y[0]), [1 - y[0]]])
    small = expected_folded(X[:-26], y[:-26], np.ones(len(y) - 26))
    assert small > 10
    folded = {m: LinearSVC(loss="hinge", merge_duplicates=m).fit(X, y).fit_stats_[0]["merged_rows"]
              for m in ("auto", True, False)}
    assert folded["auto"] == 25  # the 25 copies and X[0] itself: one variable
    assert folded[True] == expected_folded(X, y, np.ones(len(y))) == small + 25
    assert folded[False] == 0
    assert LinearSVC().get_params()["merge_duplicates"] == "auto"
    # the squared hinge (the default loss) merges nothing unless asked to
    assert LinearSVC().fit(X, y).fit_stats_[0]["merged_rows"] == 0
    assert LinearSVC(merge_duplicates=True).fit(X, y).fit_stats_[0]["merged_rows"] == small + 25
    for bad in ("yes", None, 2.5):
        with pytest.raises(ValueError, match="merge_duplicates"):
            LinearSVC(merge_duplicates=bad).fit(X, y)
    # the same optimum whichever groups are merged
    objectives = [LinearSVC(loss="hinge", merge_duplicates=m, tol=1e-6, random_state=0).fit(X, y)
                  .fit_stats_[0]["dual_objective"] for m in ("auto", True, False)]
    assert objectives == pytest.approx([objectives[2]] * 3, rel=1e-6)


def test_rows_with_different_labels_are_not_merged():
    X = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    y = np.array([1, 0, 1, 0])
    w, alpha, st = fit_core(X, y, 1.0, np.ones(4), "hinge", merge=True, tol=1e-6)
    assert st["merged_rows"] == 1  # row 2 into row 0; row 1 has the other label
    assert alpha[0] == pytest.approx(alpha[2])


@pytest.mark.parametrize("loss", LOSSES)
def test_w8a_with_repeats_agrees_with_liblinear(loss):
    """w8a repeats ~30% of its rows; the merged fit reaches liblinear's optimum."""
    X, y = load_dataset("w8a.bz2", n_features=300)
    rows = np.random.default_rng(0).choice(X.shape[0], 6000, replace=False)
    rows.sort()
    X, y = X[rows], y[rows]
    C = 1.0
    ours = LinearSVC(C=C, loss=loss, tol=1e-4, random_state=0, merge_duplicates=True).fit(X, y)
    assert ours.fit_stats_[0]["merged_rows"] > 500
    ref = SkLinearSVC(C=C, loss=loss, dual=True, tol=1e-6, max_iter=10**6, random_state=0).fit(X, y)
    y_pm = np.where(y == ref.classes_[1], 1.0, -1.0)

    def primal(coef, b):
        m = np.maximum(0.0, 1.0 - y_pm * (X @ coef.ravel() + b))
        return 0.5 * coef.ravel() @ coef.ravel() + 0.5 * b * b + C * np.sum(m if loss == "hinge" else m * m)

    p_ours, p_ref = primal(ours.coef_, ours.intercept_[0]), primal(ref.coef_, ref.intercept_[0])
    assert p_ours == pytest.approx(p_ref, rel=1e-3)
    assert np.mean(ours.predict(X) == ref.predict(X)) > 0.999


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("selection", ["uniform", "shrinking", "avsf", "auto"])
@pytest.mark.parametrize("merge", [False, True])
def test_opposite_labels_on_large_rows_converge(loss, selection, merge):
    """Equal rows with opposite labels and large norms: coordinate steps
    alone zig-zag along alpha_i + alpha_j by 2 / ||x||^2 a step (w does not
    move along it), and liblinear's PGmax - PGmin test passed with the pair's
    equal gradients far from 0. The flat step of the pair and the test over
    the range including 0 must give a converged run whose projected gradient
    is small and whose duality gap (primal recomputed here) is near 0."""
    X, y = with_repeats(n=120, d=4, seed=3)
    big = np.vstack([np.repeat(60.0 * X[:1], 3, axis=0), np.repeat(90.0 * X[5:6], 2, axis=0)])
    X, y = np.vstack([X, big]), np.concatenate([y, [1, 0, 1, 0, 1]])
    tol, C = 1e-3, 1.0
    weight = np.ones(len(y))
    labels = y.astype(np.int32)
    params = dict(C=C, loss=loss, selection=selection, tol=tol, bias_scale=1.0, merge_duplicates=merge, max_iter=3000)
    W, A, stats = _core.fit_linear(_data.core_view(_data.as_supported(X)), labels, 2, np.ones(2), weight, params)
    w, alpha, s = W[0], A[0], stats[0]
    assert s["status"] == "converged" and s["kkt_violation"] <= tol
    # The sweep's PGs are taken before each step, so the final point's can be
    # a little larger (as in liblinear).
    y_pm = np.where(y == 1, 1.0, -1.0)
    assert kkt_original(X, y_pm, alpha, w, np.full(len(y), C), loss) <= 10 * tol
    margins = y_pm * (np.hstack([X, np.ones((len(y), 1))]) @ w)
    slack = np.maximum(0.0, 1.0 - margins)
    primal = 0.5 * w @ w + C * (slack.sum() if loss == "hinge" else (slack**2).sum())
    assert primal - s["dual_objective"] >= -1e-9 * primal
    assert primal - s["dual_objective"] <= 1e-3 * primal
