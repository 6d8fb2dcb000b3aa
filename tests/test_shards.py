"""Model mixing (mix.hpp) and multi-core training of one problem on data
shards (shards.hpp, ``shards`` of BudgetedSVC, run on ``n_jobs`` threads);
docs/scale.md."""

from __future__ import annotations

import numpy as np
import pytest

from budgetsvm import BudgetedSVC, _core, kernel_matrix
from budgetsvm._params import core_params


def blobs(n=300, seed=0, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 > 0.3, 1, -1)
    return X, y


def params(budget, **extra):
    p = core_params(BudgetedSVC(budget=budget), "budgeted", later=("gamma",), radius=np.inf, n_jobs=1)
    p.update({"gamma": 0.5, "seed": 0, **extra})
    return p


def model(rng, m, d=3, outputs=1):
    return {
        "support_vectors": rng.normal(size=(m, d)),
        "dual_coef": rng.normal(size=(m, outputs)),
        "intercept": rng.normal(size=outputs),
    }


def decision(part, X):
    return kernel_matrix(X, part["support_vectors"], gamma=0.5) @ part["dual_coef"] + part["intercept"]


def test_mix_without_reduction_is_the_weighted_average():
    rng = np.random.default_rng(0)
    a, b = model(rng, 7), model(rng, 5)
    parts = [dict(a, weight=3.0, steps=10), dict(b, weight=1.0, steps=30)]
    mixed = _core.mix_budgeted(parts, params(budget=100))
    X = rng.normal(size=(50, 3))
    expected = 0.75 * decision(a, X) + 0.25 * decision(b, X)
    np.testing.assert_allclose(decision(mixed, X), expected, rtol=1e-12, atol=1e-12)
    assert mixed["steps_total"] == 15 and mixed["support_vectors"].shape == (12, 3)


def test_mix_combines_equal_support_vectors_exactly():
    rng = np.random.default_rng(1)
    a = model(rng, 6)
    mixed = _core.mix_budgeted([dict(a, weight=1.0, steps=0), dict(a, weight=1.0, steps=0)], params(budget=6))
    assert mixed["merges"] == 0
    np.testing.assert_array_equal(mixed["support_vectors"], a["support_vectors"])
    np.testing.assert_allclose(mixed["dual_coef"], a["dual_coef"], rtol=1e-15)


def test_mix_reduces_to_the_budget_per_machine():
    rng = np.random.default_rng(2)
    parts = [dict(model(rng, 40, outputs=3), weight=1.0, steps=0) for _ in range(3)]
    joint = _core.mix_budgeted(parts, params(budget=25))
    assert joint["support_vectors"].shape[0] == 25 and joint["merges"] > 0
    # one-vs-rest: every class column is its own machine with its own budget
    for p in parts:
        owner = rng.integers(0, 3, size=40)
        p["dual_coef"] = np.where(np.arange(3) == owner[:, None], np.abs(p["dual_coef"]), 0.0)
    ovr = _core.mix_budgeted(parts, params(budget=25), one_vs_rest=True)
    nonzero = ovr["dual_coef"] != 0
    assert np.all(nonzero.sum(axis=1) == 1) and np.all(nonzero.sum(axis=0) <= 25)


def test_mix_rejects_bad_parts():
    rng = np.random.default_rng(3)
    a, b = model(rng, 4), model(rng, 4, d=2)
    with pytest.raises(ValueError, match="different shapes"):
        _core.mix_budgeted([dict(a, weight=1.0, steps=0), dict(b, weight=1.0, steps=0)], params(budget=10))
    with pytest.raises(ValueError, match="weights must not all be 0"):
        _core.mix_budgeted([dict(a, weight=0.0, steps=0)], params(budget=10))
    with pytest.raises(ValueError, match="no models to mix"):
        _core.mix_budgeted([], params(budget=10))
    with pytest.raises(ValueError, match="finite"):
        _core.mix_budgeted([dict(a, weight=np.nan, steps=0)], params(budget=10))


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_shards_learn_like_one_thread(solver):
    X, y = blobs(8000, seed=1)
    Xt, yt = blobs(4000, seed=2)
    kw = dict(solver=solver, budget=60, C=10.0, gamma=0.5, epochs=4, random_state=0)
    one = BudgetedSVC(shards=1, **kw).fit(X, y)
    two = BudgetedSVC(shards=2, n_jobs=2, **kw).fit(X, y)
    assert two.n_support_ <= 60 and two.n_iter_ == 4 and len(two.history_) == 4
    assert two.fit_stats_["steps"] == 4 * 8000
    assert abs(two.score(Xt, yt) - one.score(Xt, yt)) < 0.02
    assert not np.array_equal(one.dual_coef_, two.dual_coef_)  # a different (sharded) run


@pytest.mark.parametrize("kernel", ["linear", "poly"])
def test_shards_with_kernels_that_are_not_shift_invariant(kernel):
    # Data far from the origin: the mix once shifted the union to its mean for
    # every kernel, which changes linear and polynomial kernel values, so the
    # projections were made in the wrong space (two shards scored 55.6% with
    # the linear kernel and 73.8% with the polynomial one, now 77.6% and
    # 78.8%; one thread 62.8% and 75.2%).
    X, y = blobs(6000, seed=0, d=5)
    X = X + 3.0
    kw = dict(kernel=kernel, degree=2, gamma=0.1, maintenance="project", solver="bsgd", budget=15, epochs=3,
              random_state=0)
    one = BudgetedSVC(shards=1, **kw).fit(X[:4000], y[:4000]).score(X[4000:], y[4000:])
    two = BudgetedSVC(shards=2, **kw).fit(X[:4000], y[:4000]).score(X[4000:], y[4000:])
    assert two > one - 0.02, (one, two)


def checkerboard_noisy(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, 2))
    y = (np.floor(2 * X[:, 0]) + np.floor(2 * X[:, 1])) % 2
    flip = rng.random(n) < 0.1
    return X, np.where(flip, 1 - y, y).astype(int)


def bsca_dual(clf, gamma):
    """sum_i alpha_i - 1/2 ||w||^2 and max_i alpha_i of a model whose support
    vectors are training points, each once (a budget that never merges)."""
    S, beta = clf.support_vectors_, clf.dual_coef_.ravel()
    return np.abs(beta).sum() - 0.5 * beta @ kernel_matrix(S, S, gamma=gamma) @ beta, np.abs(beta).max()


def test_bsca_shards_keep_their_dual_variables():
    """Two BSCA shards keep their dual variables from round to round, each
    with box C n / n_k, the mix weighting it n_k / n (shards.hpp): the mixed
    model stays in the box 0 <= alpha <= C and its dual objective approaches
    the one-thread run's as the epochs add up. (With dual variables that
    lived for one round, the same runs stalled 11% below it and left the box.)"""
    X, y = checkerboard_noisy(1500, 0)
    kw = dict(solver="bsca", budget=10**5, C=1.0, gamma=2.0, random_state=0)
    one, _ = bsca_dual(BudgetedSVC(epochs=20, **kw).fit(X, y), 2.0)
    dual = {}
    for epochs in (2, 20):
        clf = BudgetedSVC(epochs=epochs, shards=2, **kw).fit(X, y)
        assert clf.fit_stats_["merges"] == 0
        dual[epochs], top = bsca_dual(clf, 2.0)
        assert top <= 1.0 + 1e-9
    assert dual[2] < dual[20] and dual[20] >= 0.995 * one


def test_bsca_shards_with_weights_and_intercept():
    X, y = blobs(4000, seed=5)
    Xt, yt = blobs(2000, seed=6)
    w = np.where(np.arange(4000) % 3 == 0, 0.0, 1.5)  # a third of the rows left out
    kw = dict(solver="bsca", budget=50, C=5.0, gamma=0.5, epochs=3, fit_intercept=True, random_state=0)
    one = BudgetedSVC(shards=1, **kw).fit(X, y, sample_weight=w)
    two = BudgetedSVC(shards=2, n_jobs=2, **kw).fit(X, y, sample_weight=w)
    assert two.n_support_ <= 50 and two.t_ == int((w > 0).sum())
    assert two.score(Xt, yt) >= one.score(Xt, yt) - 0.02


def test_sharded_model_depends_on_shards_not_on_threads():
    X, y = blobs(3000, seed=3)
    p = params(budget=40, shards=3, epochs=2, seed=7)
    y_index = (y > 0).astype(np.int32)
    runs = [_core.fit_budgeted(X, y_index, 2, dict(p, n_jobs=threads)) for threads in (1, 2, 3)]
    for r in runs[1:]:
        np.testing.assert_array_equal(r["dual_coef"], runs[0]["dual_coef"])
        np.testing.assert_array_equal(r["support_vectors"], runs[0]["support_vectors"])
    # the estimator passes shards as given (the split) and n_jobs as the threads running them
    fits = [BudgetedSVC(budget=40, gamma=0.5, epochs=2, random_state=0, shards=3, n_jobs=jobs).fit(X, y)
            for jobs in (1, 2, 3, None)]
    for clf in fits[1:]:
        np.testing.assert_array_equal(clf.dual_coef_, fits[0].dual_coef_)
        np.testing.assert_array_equal(clf.support_vectors_, fits[0].support_vectors_)
    one = BudgetedSVC(budget=40, gamma=0.5, epochs=2, random_state=0, n_jobs=3).fit(X, y)
    assert not np.array_equal(one.dual_coef_, fits[0].dual_coef_)  # shards=1: one machine


def test_sharded_crammer_singer_and_callback():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(3000, 2))
    y = np.digitize(X[:, 0] + X[:, 1], [-0.7, 0.7])
    seen = []
    clf = BudgetedSVC(solver="bsgd", budget=50, gamma=1.0, C=10.0, epochs=3, shards=2, n_jobs=2,
                      random_state=0, callback=lambda s: seen.append(s["epoch"]) or s["epoch"] == 2).fit(X, y)
    assert seen == [1, 2] and clf.n_iter_ == 2 and clf.fit_stats_["stopped_early"]
    assert clf.dual_coef_.shape == (3, clf.n_support_) and clf.n_support_ <= 50
    assert clf.score(X, y) > 0.85


def test_shards_on_tiny_data():
    X, y = blobs(3)
    y = np.array([-1, 1, 1])
    clf = BudgetedSVC(budget=2, gamma=0.5, epochs=2, random_state=0, shards=8).fit(X, y)
    assert clf.n_support_ <= 2
    assert np.all(np.isfinite(clf.decision_function(X)))


def test_mix_keeps_a_part_when_merging_loses_the_average():
    # docs/scale.md: two shard models of a 20-dimensional problem under a narrow kernel, merged
    # from 100 to 50 support vectors at once, lose the average; a part is closer to it and goes on
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20000, 20))
    y = np.where(X[:, 0] * X[:, 1] + np.sin(2 * X[:, 2]) > 0, 1, -1)
    models = [
        BudgetedSVC(solver="bsgd", budget=50, gamma=0.05, epochs=1, random_state=0).fit(X[i::2], y[i::2])
        for i in (0, 1)
    ]
    for weights in ((1.0, 1.0), (1.0, 1.5), (2.0, 1.0)):
        parts = [
            dict(support_vectors=m.support_vectors_, dual_coef=m.dual_coef_.T.copy(), intercept=m.intercept_,
                 weight=w, steps=0)
            for m, w in zip(models, weights)
        ]
        mixed = _core.mix_budgeted(parts, params(budget=50, gamma=0.05))
        assert mixed["mix_fallbacks"] == 1
        # the part kept is the one closest to the exact average in the feature space (brute force)
        w = np.array(weights) / sum(weights)
        assert all(p["support_vectors"].shape[0] == 50 for p in parts)
        Z = np.vstack([p["support_vectors"] for p in parts])
        avg = np.concatenate([wk * p["dual_coef"].ravel() for wk, p in zip(w, parts)])
        K = np.exp(-0.05 * ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(-1))
        distances = []
        for k, p in enumerate(parts):
            diff = -avg.copy()
            diff[50 * k : 50 * (k + 1)] += p["dual_coef"].ravel()
            distances.append(diff @ K @ diff)
        kept = [np.array_equal(mixed["support_vectors"], p["support_vectors"]) for p in parts]
        assert sum(kept) == 1 and distances[kept.index(True)] <= min(distances) * (1 + 1e-9)
        # so does the guard from the union's dot products (mix_gram.hpp; equal weights make a tie that rounding
        # breaks either way)
        again = _core.mix_budgeted(parts, params(budget=50, gamma=0.05), guard="dot_products")
        kept = [np.array_equal(again["support_vectors"], p["support_vectors"]) for p in parts]
        assert again["mix_fallbacks"] == 1
        assert sum(kept) == 1 and distances[kept.index(True)] <= min(distances) * (1 + 1e-9)
    # with room for the union nothing is reduced and nothing falls back
    assert _core.mix_budgeted(parts, params(budget=100, gamma=0.05))["mix_fallbacks"] == 0



def test_fit_stats_count_the_mixes_that_kept_a_part():
    # the problem above: one BSCA epoch on two shards mixes once, and that mix keeps a part; one shard never mixes
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20000, 20))
    y = np.where(X[:, 0] * X[:, 1] + np.sin(2 * X[:, 2]) > 0, 1, -1)
    stats = [
        BudgetedSVC(solver="bsca", budget=50, gamma=0.05, epochs=1, random_state=0, shards=k).fit(X, y).fit_stats_
        for k in (1, 2)
    ]
    assert stats[0]["mix_fallbacks"] == 0 and stats[1]["mix_fallbacks"] == 1

def test_mix_guard_paths_agree():
    # mix_gram.hpp: the guard's inner products from the union's dot products (the automatic choice from 96
    # features) give the model and the choice of those from the features; n_jobs = 2 runs the reduction beside
    # the parts' inner products
    rng = np.random.default_rng(3)
    for d, gamma in ((120, 0.01), (20, 0.05)):
        X = rng.normal(size=(4000, d))
        y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
        models = [
            BudgetedSVC(solver="bsca", budget=40, gamma=gamma, epochs=1, random_state=i).fit(X[i::2], y[i::2])
            for i in (0, 1)
        ]
        parts = [
            dict(support_vectors=m.support_vectors_, dual_coef=m.dual_coef_.T.copy(), intercept=m.intercept_,
                 weight=w, steps=0)
            for m, w in zip(models, (1.0, 1.3))
        ]
        p = params(budget=40, gamma=gamma, n_jobs=2)
        mixes = {g: _core.mix_budgeted(parts, p, guard=g) for g in ("automatic", "features", "dot_products")}
        assert mixes["features"]["support_vectors"].shape == (40, d)
        for g in ("automatic", "dot_products"):
            for key in ("support_vectors", "dual_coef", "mix_fallbacks"):
                assert np.array_equal(mixes[g][key], mixes["features"][key])
    with pytest.raises(ValueError, match="guard must be 'automatic', 'features' or 'dot_products'"):
        _core.mix_budgeted(parts, p, guard="fast")


def test_mix_of_shards_from_one_start_keeps_the_reduced_model():
    """mix.hpp, "Reducing": two BSCA shards continuing one common model end
    with support vectors that pair up across the parts, so reducing the whole
    union merges each with its counterpart and the reduced model is closer to
    the exact average than either part (brute force in the feature space);
    only the growing pass (round 1, no common start) falls back to a part.
    Reducing while loading fell back in every round here."""
    rng = np.random.default_rng(0)
    n, d, budget, gamma = 20000, 18, 100, 1.0 / 18
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] * X[:, 1] + np.sin(X[:, 2]) + 0.5 * X[:, 3] > 0, 1, -1)
    y[rng.random(n) < 0.2] *= -1  # noisy: every support vector is heavy, the hard case
    p = params(budget, gamma=gamma, C=1.0, solver="bsca", epochs=1)
    parts = [(np.ascontiguousarray(X[k::2]), (y[k::2] > 0).astype(np.int32)) for k in (0, 1)]
    alphas = [np.zeros(len(yk)) for _, yk in parts]
    start, fallbacks = None, []
    for r in range(3):
        models = []
        for k, (Xk, yk) in enumerate(parts):
            out = _core.bsca_shard_round(Xk, yk, dict(p, seed=7 * r + k), start, alphas[k], float(n), r + 1, 3)
            alphas[k] = out["alpha"]
            models.append(dict(out, weight=float(out["n_ref"]), steps=out["steps_total"]))
        mixed = _core.mix_budgeted(models, p)
        fallbacks.append(mixed["mix_fallbacks"])
        start = dict(support_vectors=mixed["support_vectors"], dual_coef=mixed["dual_coef"],
                     intercept=mixed["intercept"], steps=mixed["steps_total"], n_ref=float(n), n=float(n))
    assert fallbacks == [1, 0, 0]
    Z = [m["support_vectors"] for m in models]
    assert all(z.shape[0] == budget for z in Z)
    # each support vector's nearest neighbour is its counterpart in the other part
    d2 = ((Z[0][:, None, :] - Z[1][None, :, :]) ** 2).sum(-1)
    own = ((Z[0][:, None, :] - Z[0][None, :, :]) ** 2).sum(-1) + np.diag(np.full(budget, np.inf))
    assert np.median(d2.min(1)) < 0.01 * np.median(own.min(1))
    # ||f - f_avg||^2 for the reduced model and each part, from the kernel matrix of all their points
    S = np.vstack([mixed["support_vectors"], *Z])
    K = np.exp(-gamma * ((S[:, None, :] - S[None, :, :]) ** 2).sum(-1))
    m = mixed["support_vectors"].shape[0]
    avg = np.concatenate([np.zeros(m), *(0.5 * mk["dual_coef"].ravel() for mk in models)])
    candidates = [np.concatenate([mixed["dual_coef"].ravel(), np.zeros(2 * budget)])]
    for k in (0, 1):
        c = np.zeros(m + 2 * budget)
        c[m + budget * k : m + budget * (k + 1)] = models[k]["dual_coef"].ravel()
        candidates.append(c)
    dist = [(c - avg) @ K @ (c - avg) for c in candidates]
    assert dist[0] < 0.5 * min(dist[1:])


def test_bsca_shard_round_checks_its_arguments():
    """The kept-dual round's binding (used by budgetsvm.dask): alpha and
    sample_weight are 1-D float64 arrays of one entry per row, named in the
    error; the caller's alpha is left as it was, the new one is in its box."""
    X, y = blobs(200)
    labels = (y > 0).astype(np.int32)
    p = params(budget=20, solver="bsca", epochs=1)
    alpha = np.zeros(200)
    out = _core.bsca_shard_round(X, labels, p, None, alpha, 200.0, 1, 1, None)
    assert not alpha.any()
    assert out["alpha"].shape == (200,) and out["alpha"].any()
    assert out["alpha"].min() >= 0.0 and out["alpha"].max() <= p["C"]
    with pytest.raises(TypeError, match="alpha must be a 1-D float64 array"):
        _core.bsca_shard_round(X, labels, p, None, alpha.astype(np.float32), 200.0, 1, 1, None)
    with pytest.raises(ValueError, match="alpha has 199 entries but y has 200"):
        _core.bsca_shard_round(X, labels, p, None, alpha[:199], 200.0, 1, 1, None)
    with pytest.raises(TypeError, match="sample_weight must be a 1-D float64 array"):
        _core.bsca_shard_round(X, labels, p, None, alpha, 200.0, 1, 1, np.ones((200, 1)))
    with pytest.raises(ValueError, match="sample_weight has 3 entries but y has 200"):
        _core.bsca_shard_round(X, labels, p, None, alpha, 200.0, 1, 1, np.ones(3))


# ------------------------------------------------ shard_mix="union": trained apart, every support vector kept


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_union_keeps_every_shard_support_vector(solver):
    """Shards trained apart and combined once by their average, nothing
    merged (shards.hpp, "shard_mix = union"): up to shards x budget support
    vectors, the same model for every n_jobs, one history entry per epoch,
    and as accurate as one machine of the same budget."""
    X, y = blobs(6000, seed=8)
    Xt, yt = blobs(3000, seed=9)
    kw = dict(solver=solver, budget=30, gamma=0.5, C=1.0, epochs=2, random_state=0)
    fits = [BudgetedSVC(shards=4, shard_mix="union", n_jobs=jobs, **kw).fit(X, y) for jobs in (1, 2)]
    np.testing.assert_array_equal(fits[0].dual_coef_, fits[1].dual_coef_)
    np.testing.assert_array_equal(fits[0].support_vectors_, fits[1].support_vectors_)
    union = fits[0]
    assert 30 < union.n_support_ <= 4 * 30
    assert union.fit_stats_["mix_fallbacks"] == 0 and union.n_iter_ == len(union.history_) == 2
    assert union.history_[-1]["n_support"] == union.n_support_
    one = BudgetedSVC(**kw).fit(X, y)
    assert union.score(Xt, yt) >= one.score(Xt, yt) - 0.02
    merged = BudgetedSVC(shards=4, **kw).fit(X, y)
    assert merged.n_support_ <= 30 and not np.array_equal(merged.dual_coef_, union.dual_coef_)


def test_union_stopped_early_is_the_shards_as_they_are(tmp_path):
    """A callback that stops after the first of three epochs: the union of the
    shards' models at that point; the model saves, loads and continues as any."""
    X, y = blobs(4000, seed=10)
    clf = BudgetedSVC(budget=20, gamma=0.5, epochs=3, shards=3, shard_mix="union", random_state=0,
                      callback=lambda s: s["epoch"] == 1).fit(X, y)
    assert clf.n_iter_ == 1 and clf.fit_stats_["stopped_early"] and 20 < clf.n_support_ <= 60
    assert clf.score(X, y) > 0.85
    from budgetsvm import load_model, save_model

    save_model(clf, tmp_path / "union.bsvm")
    np.testing.assert_array_equal(load_model(tmp_path / "union.bsvm").decision_function(X), clf.decision_function(X))
    # continued on one machine: the start is merged down to the budget first
    clf.set_params(callback=None, shards=1, shard_mix="merge", warm_start=True, epochs=1).fit(X, y)
    assert clf.n_support_ <= 20 and clf.score(X, y) > 0.85


def test_shard_mix_is_checked():
    X, y = blobs(200)
    with pytest.raises(ValueError, match="shard_mix"):
        BudgetedSVC(shards=2, shard_mix="average").fit(X, y)
