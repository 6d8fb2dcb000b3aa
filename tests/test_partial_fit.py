"""BudgetedSVC.partial_fit and warm_start (docs/scale.md).

The reference for the continued solvers is the recursion of docs/scale.md
written out in numpy on one-row chunks (no shuffling, no budget maintenance):
each call sets n = rows seen, rescales the model by n / n_ref, then takes
one BSGD (Pegasos) or BSCA (growing pass) step.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from budgetsvm import BudgetedSVC


def rbf(A, b, gamma):
    return np.exp(-gamma * ((A - b) ** 2).sum(axis=1))


def blobs(n=300, seed=0, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 > 0.3, 1, -1)
    return X, y


def reference(X, y, C, gamma, solver):
    """The model after partial_fit of every row on its own (see module doc)."""
    Z, beta = [], []
    for k in range(1, X.shape[0] + 1):
        x, yk = X[k - 1], y[k - 1]
        b = np.array(beta)
        if solver == "bsgd":
            # rescale by k / (k - 1); the margin is taken before Pegasos' shrink (1 - 1/k), which then
            # undoes the rescaling; eta = 1 / (lambda k) = C
            f = (b * k / (k - 1)) @ rbf(np.array(Z), x, gamma) if Z else 0.0
            if yk * f < 1.0:
                Z.append(x)
                beta.append(C * yk)
        else:
            # growing pass: rescale k / (k - 1) and shrink (k - 1) / k cancel; box C n / t = C
            f = b @ rbf(np.array(Z), x, gamma) if Z else 0.0
            delta = min(max((1.0 - yk * f) / 1.0, 0.0), C)
            if delta != 0.0:
                Z.append(x)
                beta.append(yk * delta)
    return np.array(Z), np.array(beta)


@pytest.mark.parametrize("solver", ["bsgd", "bsca"])
def test_row_by_row_matches_the_recursion(solver):
    X, y = blobs(60)
    C, gamma = 0.7, 0.5
    clf = BudgetedSVC(solver=solver, budget=1000, C=C, gamma=gamma, random_state=0)
    for i in range(X.shape[0]):
        clf.partial_fit(X[i : i + 1], y[i : i + 1], classes=[-1, 1])
    Z, beta = reference(X, y, C, gamma, solver)
    assert clf.n_samples_seen_ == X.shape[0]
    assert clf.t_ == X.shape[0]
    np.testing.assert_allclose(clf.support_vectors_, Z, rtol=0, atol=1e-12)
    np.testing.assert_allclose(clf.dual_coef_[0], beta, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("solver", ["bsgd", "bsca"])
def test_first_call_is_one_epoch_of_fit(solver):
    X, y = blobs(400)
    kw = dict(solver=solver, budget=40, C=5.0, gamma=0.5, random_state=3)
    a = BudgetedSVC(epochs=1, **kw).fit(X, y)
    b = BudgetedSVC(**kw).partial_fit(X, y, classes=[-1, 1])
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    np.testing.assert_array_equal(a.support_vectors_, b.support_vectors_)
    assert b.n_iter_ == 1 and len(b.history_) == 1


@pytest.mark.parametrize("solver", ["bsgd", "bsca"])
def test_chunks_learn_like_fit(solver):
    X, y = blobs(6000, seed=1)
    Xt, yt = blobs(3000, seed=2)
    kw = dict(solver=solver, budget=60, C=10.0, gamma=0.5, random_state=0)
    one_pass = BudgetedSVC(epochs=1, **kw).fit(X, y).score(Xt, yt)
    clf = BudgetedSVC(**kw)
    for s in range(0, X.shape[0], 500):
        clf.partial_fit(X[s : s + 500], y[s : s + 500], classes=[-1, 1])
    assert clf.n_support_ <= 60
    assert clf.n_samples_seen_ == 6000 and clf.n_iter_ == 12 and len(clf.history_) == 12
    assert clf.score(Xt, yt) > one_pass - 0.03


def test_string_labels_and_one_class_chunks():
    X, y = blobs(2000)
    labels = np.where(y > 0, "pos", "neg")
    order = np.argsort(labels, kind="stable")  # sorted by label: the first chunks hold one class
    clf = BudgetedSVC(solver="bsgd", budget=50, gamma=0.5, random_state=0)
    for s in range(0, 2000, 250):
        idx = order[s : s + 250]
        clf.partial_fit(X[idx], labels[idx], classes=["neg", "pos"])
    assert list(clf.classes_) == ["neg", "pos"]
    assert set(clf.predict(X)) <= {"neg", "pos"}


def test_protocol_errors():
    X, y = blobs(100)
    clf = BudgetedSVC(budget=20, gamma=0.5, random_state=0)
    with pytest.raises(ValueError, match="classes must be passed on the first call"):
        clf.partial_fit(X, y)
    with pytest.raises(ValueError, match="not in classes: \\[1\\]"):
        clf.partial_fit(X, y, classes=[-1, 0])
    assert not hasattr(clf, "classes_")  # failed calls leave nothing behind
    clf.partial_fit(X, y, classes=[-1, 1])
    before = (clf.dual_coef_.copy(), clf.t_, clf.n_samples_seen_)
    with pytest.raises(ValueError, match="is not the same as the classes of the model"):
        clf.partial_fit(X, y, classes=[-1, 1, 2])
    with pytest.raises(ValueError, match="features"):
        clf.partial_fit(X[:, :2], y)
    with pytest.raises(ValueError, match="not in classes"):
        clf.partial_fit(X, y * 3)
    with pytest.raises(ValueError, match="sample_weight"):
        clf.partial_fit(X, y, sample_weight=np.ones(3))
    np.testing.assert_array_equal(clf.dual_coef_, before[0])
    assert (clf.t_, clf.n_samples_seen_) == before[1:]
    # an empty chunk changes nothing
    clf.partial_fit(X[:0], y[:0])
    assert (clf.t_, clf.n_samples_seen_) == before[1:]
    with pytest.raises(ValueError, match="balanced"):
        BudgetedSVC(class_weight="balanced").partial_fit(X, y, classes=[-1, 1])


def test_partial_fit_after_fit_continues_it():
    X, y = blobs(500)
    clf = BudgetedSVC(solver="bsgd", budget=30, gamma=0.5, epochs=2, random_state=0).fit(X, y)
    assert (clf.t_, clf.n_samples_seen_) == (1000, 500)
    clf.partial_fit(X[:100], y[:100])  # classes_ of fit
    assert (clf.t_, clf.n_samples_seen_) == (1100, 600)
    with pytest.raises(ValueError, match="not the same"):
        clf.partial_fit(X[:100], y[:100], classes=[0, 1])


@pytest.mark.parametrize("solver", ["bsgd", "bsca"])
def test_warm_start_continues(solver):
    X, y = blobs(1500, seed=4)
    Xt, yt = blobs(2000, seed=5)
    clf = BudgetedSVC(solver=solver, budget=40, C=10.0, gamma=0.5, epochs=1, random_state=0, warm_start=True)
    clf.fit(X, y)
    first = clf.score(Xt, yt)
    steps = clf.t_
    clf.fit(X, y)
    assert clf.t_ == 2 * steps and clf.n_samples_seen_ == 1500
    assert clf.score(Xt, yt) > first - 0.02
    cold = BudgetedSVC(solver=solver, budget=40, C=10.0, gamma=0.5, epochs=1, random_state=0).fit(X, y)
    assert not np.array_equal(cold.dual_coef_, clf.dual_coef_)
    with pytest.raises(ValueError, match="warm_start=True continues a model of the classes"):
        clf.fit(X, np.where(y > 0, 2, 1))
    with pytest.raises(ValueError, match="features"):
        clf.fit(X[:, :2], y)


def test_sparse_chunks_and_warm_start_from_compacted_model():
    rng = np.random.default_rng(0)
    X = sp.random(400, 5000, density=0.0005, random_state=1, format="csr") + sp.eye(400, 5000, format="csr")
    y = rng.choice([-1, 1], size=400)
    clf = BudgetedSVC(budget=30, gamma=0.5, random_state=0, warm_start=True).fit(X, y)
    assert clf._used_columns is not None  # trained on the used columns only
    clf.partial_fit(X[:50], y[:50])
    assert clf.support_vectors_.shape[1] == 5000 and sp.issparse(clf.support_vectors_)
    np.testing.assert_array_equal(clf.predict(X[:5]), clf.predict(X[:5].toarray()))
