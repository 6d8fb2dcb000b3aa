"""The raw budgeted solvers: ``_core.fit_budgeted`` and ``_core.simd_level``.

The estimator ``BudgetedSVC`` is tested in its own file; here we check the
binding contract, correctness on real data subsamples, reproducibility, the
callback and the bad-input errors.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from budgetsvm import _core, _data

from conftest import load_dataset

STATS_KEYS = {
    "epoch", "steps", "sv_added", "merges", "removals", "projections",
    "n_support", "maintenance_seconds", "seconds", "objective", "merge_degradation",
    "merge_partner_weight", "progressive_loss", "sq_norm", "alpha_zero", "alpha_bound", "alpha_free",
}


def params(**overrides):
    p = dict(
        solver="bsca", budget=50, C=32.0, kernel="rbf", gamma=2.0, degree=3, coef0=0.0,
        maintenance="merge", merge_method="lookup-wd", gss_eps=0.01, lookup_grid=400,
        epochs=2, learning_rate="pegasos", eta0=1.0, radius=float("inf"), seed=3, n_jobs=1, fit_intercept=False,
    )
    p.update(overrides)
    return p


def fit(X, y, n_classes=2, callback=None, **overrides):
    return _core.fit_budgeted(_data.core_view(X), y, n_classes, params(**overrides), callback)


def decision(X, result, gamma=2.0, kernel="rbf"):
    return _core.decision_function(
        _data.core_view(X), result["support_vectors"], result["dual_coef"], kernel, gamma, 3, 0.0, 1
    ) + result["intercept"]


def predict(X, result, **kw):
    f = decision(X, result, **kw)
    return (f[:, 0] > 0).astype(np.int32) if f.shape[1] == 1 else f.argmax(axis=1).astype(np.int32)


@pytest.fixture(scope="module")
def ijcnn1():
    X, y = load_dataset("ijcnn1.bz2")
    Xt, yt = load_dataset("ijcnn1.t.bz2", n_features=X.shape[1])
    rng = np.random.default_rng(0)
    train = rng.choice(X.shape[0], 6000, replace=False)
    test = rng.choice(Xt.shape[0], 6000, replace=False)
    return (X[train], (y[train] > 0).astype(np.int32), Xt[test], (yt[test] > 0).astype(np.int32))


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(1)
    centres = np.array([[0, 0], [3, 0], [0, 3], [3, 3]], dtype=float)
    y = rng.integers(0, 4, 800).astype(np.int32)
    X = centres[y] + 0.5 * rng.standard_normal((800, 2))
    return X, y


def test_simd_level():
    assert _core.simd_level() in {"scalar", "sse2", "avx2", "avx512"}


def test_result_contract(ijcnn1):
    X, y, _, _ = ijcnn1
    r = fit(X, y, epochs=3)
    sv, coef = r["support_vectors"], r["dual_coef"]
    assert sv.dtype == np.float64 and sv.flags.c_contiguous and sv.shape == (50, X.shape[1])
    assert coef.dtype == np.float64 and coef.shape == (50, 1)
    assert r["n_outputs"] == 1 and r["epochs_run"] == 3 and r["stopped_early"] is False
    assert len(r["history"]) == 3
    for i, stats in enumerate(r["history"], start=1):
        assert set(stats) == STATS_KEYS
        assert stats["epoch"] == i and stats["steps"] == i * X.shape[0]
        assert stats["n_support"] <= 50
    last = r["history"][-1]
    for key in ("steps", "sv_added", "merges", "removals", "projections", "maintenance_seconds"):
        assert r[key] == last[key]
    # every add beyond the budget triggers one maintenance event (BSCA also
    # drops copies whose coefficient returns to 0)
    assert r["merges"] > 0
    assert r["sv_added"] - r["merges"] - r["removals"] >= r["history"][-1]["n_support"]
    assert 0 <= r["maintenance_seconds"] <= r["seconds"]


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
@pytest.mark.parametrize("method", ["gss", "lookup-h", "lookup-wd"])
def test_accuracy_on_ijcnn1_subsample(ijcnn1, solver, method):
    X, y, Xt, yt = ijcnn1
    r = fit(X, y, solver=solver, merge_method=method, budget=100, epochs=5)
    acc = np.mean(predict(Xt, r) == yt)
    # the majority class alone gives 0.905; the exact SVM about 0.97 on this subsample
    assert acc > 0.95, acc


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_projection(ijcnn1, kernel):
    X, y, Xt, yt = ijcnn1
    gamma = 2.0 if kernel == "rbf" else 0.5
    r = fit(X, y, maintenance="project", kernel=kernel, gamma=gamma, budget=100, epochs=3)
    assert r["projections"] > 0 and r["merges"] == 0 and r["removals"] == 0
    acc = np.mean(predict(Xt, r, gamma=gamma, kernel=kernel) == yt)
    assert acc > 0.92, acc


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_projection_with_singular_kernel_matrix(ijcnn1, solver):
    # linear kernel, budget 50 > 22 features: points in the span are projected at once
    X, y, Xt, yt = ijcnn1
    r = fit(X, y, solver=solver, kernel="linear", maintenance="project", budget=50, C=1.0, epochs=2)
    assert np.all(np.isfinite(r["dual_coef"])) and np.abs(r["dual_coef"]).max() < 1e4
    assert r["projections"] > 0
    assert np.mean(predict(Xt, r, kernel="linear", gamma=1.0) == yt) > 0.9


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_removal(ijcnn1, blobs, solver):
    # Removal is the weakest strategy (on ijcnn1 it stays below the majority
    # class, as the BSGD paper reports); check its mechanics there and its
    # accuracy on an easy problem.
    X, y, _, _ = ijcnn1
    r = fit(X, y, solver=solver, maintenance="remove", budget=100, epochs=1)
    assert r["removals"] == r["sv_added"] - 100 and r["merges"] == 0
    assert r["support_vectors"].shape[0] == 100
    Xb, yb = blobs
    yb = (yb >= 2).astype(np.int32)
    r = fit(Xb, yb, solver=solver, maintenance="remove", budget=10, epochs=3, gamma=1.0, C=1.0)
    assert np.mean(predict(Xb, r, gamma=1.0) == yb) > 0.95


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_same_seed_same_model(ijcnn1, solver):
    X, y, _, _ = ijcnn1
    a, b = fit(X, y, solver=solver), fit(X, y, solver=solver)
    np.testing.assert_array_equal(a["support_vectors"], b["support_vectors"])
    np.testing.assert_array_equal(a["dual_coef"], b["dual_coef"])
    c = fit(X, y, solver=solver, seed=2**63 - 1)
    assert not np.array_equal(a["dual_coef"], c["dual_coef"])


def test_layouts_give_the_same_model(ijcnn1):
    X, y, Xt, yt = ijcnn1
    dense = X.toarray()
    models = [
        fit(X, y),  # CSR int32
        fit(sp.csr_matrix((X.data, X.indices.astype(np.int64), X.indptr.astype(np.int64)), shape=X.shape), y),
        fit(dense, y),
        fit(np.asfortranarray(dense), y),
        fit(dense.astype(np.float32), y),
    ]
    reference = predict(Xt, models[0])
    for r in models[1:4]:
        # the same arithmetic up to summation order: decisions agree
        np.testing.assert_allclose(r["dual_coef"], models[0]["dual_coef"], rtol=1e-6, atol=1e-6)
    for r in models[1:]:
        assert np.mean(predict(Xt, r) == reference) > 0.99


@pytest.mark.parametrize("solver", ["bsgd", "bsca"])
def test_multiclass(blobs, solver):
    X, y = blobs
    r = fit(X, y, n_classes=4, solver=solver, gamma=1.0, budget=10, epochs=5, C=10.0)
    assert r["n_outputs"] == 4 and r["dual_coef"].shape[1] == 4
    assert np.mean(predict(X, r, gamma=1.0) == y) > 0.97
    if solver == "bsca":
        # one-vs-rest: each class's SVs stacked, coefficients in its own column only
        assert r["support_vectors"].shape[0] <= 40
        assert np.all(np.count_nonzero(r["dual_coef"], axis=1) == 1)
        r2 = fit(X, y, n_classes=4, solver=solver, gamma=1.0, budget=10, epochs=5, C=10.0, n_jobs=3)
        np.testing.assert_array_equal(r["dual_coef"], r2["dual_coef"])
    else:
        assert r["support_vectors"].shape[0] <= 10


def test_learning_rates(blobs):
    X, y = blobs
    yb = (y >= 2).astype(np.int32)
    for rate, extra in [("norma", {"eta0": 0.5}), ("perceptron", {"eta0": 0.5, "radius": 3.0})]:
        r = fit(X, yb, solver="bsgd", learning_rate=rate, gamma=1.0, budget=10, epochs=3, **extra)
        assert np.mean(predict(X, r, gamma=1.0) == yb) > 0.97
        if rate == "perceptron":
            K = np.exp(-1.0 * ((r["support_vectors"][:, None, :] - r["support_vectors"][None]) ** 2).sum(-1))
            norm = float(np.sqrt(r["dual_coef"][:, 0] @ K @ r["dual_coef"][:, 0]))
            assert norm <= 3.0 * (1 + 1e-6)


def test_callback_stops_and_sees_statistics(ijcnn1):
    X, y, _, _ = ijcnn1
    seen = []

    def callback(stats):
        seen.append(stats)
        return stats["epoch"] == 2

    r = fit(X, y, epochs=5, callback=callback)
    assert [s["epoch"] for s in seen] == [1, 2]
    assert r["stopped_early"] is True and r["epochs_run"] == 2
    assert set(seen[0]) == STATS_KEYS
    # returning None (or False) goes on
    r = fit(X, y, epochs=2, callback=lambda stats: None)
    assert r["epochs_run"] == 2 and r["stopped_early"] is False


def test_callback_exception_propagates(ijcnn1):
    X, y, _, _ = ijcnn1

    class Stop(Exception):
        pass

    def callback(stats):
        raise Stop("from the callback")

    with pytest.raises(Stop, match="from the callback"):
        fit(X, y, epochs=3, callback=callback)
    with pytest.raises(Stop):
        fit(X[:600], y[:600], n_classes=2, epochs=3, callback=callback, solver="bsgd")


@pytest.mark.parametrize(
    "overrides",
    [
        {"budget": 1},
        {"C": 0.0},
        {"C": -1.0},
        {"gamma": 0.0},
        {"gamma": -2.0},
        {"epochs": 0},
        {"solver": "sgd"},
        {"kernel": "laplace"},
        {"maintenance": "shrink"},
        {"merge_method": "exact"},
        {"learning_rate": "adam"},
        {"kernel": "poly", "maintenance": "merge"},
        {"n_jobs": 0},
        {"lookup_grid": 401},
    ],
)
def test_bad_parameters(blobs, overrides):
    X, y = blobs
    with pytest.raises(ValueError):
        fit(X, (y > 1).astype(np.int32), **overrides)


def test_bad_labels(blobs):
    X, y = blobs
    yb = (y > 1).astype(np.int32)
    with pytest.raises(ValueError):
        fit(X, yb[:-1])  # wrong length
    with pytest.raises(ValueError):
        fit(X, y)  # class index 3 with n_classes = 2
    with pytest.raises(ValueError):
        fit(X, np.where(yb == 0, -1, 1).astype(np.int32))  # negative index
    with pytest.raises(ValueError):
        fit(X, np.zeros_like(yb), n_classes=1)
    with pytest.raises(TypeError):
        fit(X, yb.astype(np.int64))
    with pytest.raises(ValueError, match="unknown parameter 'budgt'"):
        _core.fit_budgeted(_data.core_view(X), yb, 2, {"budgt": 10}, None)  # a misspelled key


def test_missing_keys_take_the_registry_defaults(blobs):
    X, y = blobs
    yb = (y > 1).astype(np.int32)
    defaults = {o["name"]: o["default"] for o in _core.options("budgeted")}
    a = _core.fit_budgeted(_data.core_view(X), yb, 2, {"budget": 20, "epochs": 1}, None)
    b = _core.fit_budgeted(_data.core_view(X), yb, 2, dict(defaults, budget=20, epochs=1), None)
    np.testing.assert_array_equal(a["dual_coef"], b["dual_coef"])
    np.testing.assert_array_equal(a["support_vectors"], b["support_vectors"])
    with pytest.raises(ValueError, match="unknown parameter 'bugdet'"):
        _core.fit_budgeted(_data.core_view(X), yb, 2, params(bugdet=10), None)  # a misspelled key
    with pytest.raises(ValueError, match="sample_weight"):
        _core.fit_budgeted(_data.core_view(X), yb, 2, params(), None, np.ones(3))
    with pytest.raises(TypeError, match="sample_weight"):
        _core.fit_budgeted(_data.core_view(X), yb, 2, params(), None, np.ones(len(yb), dtype=np.float32))


@pytest.fixture(scope="module")
def a9a_subsample():
    X, y = load_dataset("a9a.bz2", n_features=123)
    Xt, yt = load_dataset("a9a.t.bz2", n_features=123)
    rng = np.random.default_rng(0)
    rows = np.sort(rng.choice(X.shape[0], 6000, replace=False))
    rows_t = np.sort(rng.choice(Xt.shape[0], 6000, replace=False))
    return (X[rows], (y[rows] > 0).astype(np.int32), Xt[rows_t], (yt[rows_t] > 0).astype(np.int32))


def test_bsca_offset_does_not_jitter_on_a9a(a9a_subsample):
    # gamma = 2^-7 makes every kernel value >= 0.8: the last iterate's
    # offset jitters by ~1 from step to step (accuracy 70-84% by seed and
    # epoch); the averaged last epoch (bsca.hpp) is stable near the exact
    # SVM on every seed and epoch count.
    X, y, Xt, yt = a9a_subsample
    for seed in (1, 2, 3):
        for epochs in (2, 5):
            r = fit(X, y, solver="bsca", C=32.0, gamma=2.0**-7, budget=200, epochs=epochs, seed=seed)
            acc = np.mean(predict(Xt, r, gamma=2.0**-7) == yt)
            assert acc >= 0.835, (seed, epochs, acc)
