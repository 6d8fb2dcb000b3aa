"""Dask: our estimators inside dask-ml's wrappers and joblib's dask backend,
and distributed training (budgetsvm.dask.BudgetedSVC) on a two-process
LocalCluster on loopback, compared with the in-process sharded training."""

from __future__ import annotations

import math

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
wrappers = pytest.importorskip("dask_ml.wrappers")

import joblib  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402

from budgetsvm import SVC, BudgetedSVC, LinearSVC  # noqa: E402
from budgetsvm.dask import BudgetedSVC as DaskBudgetedSVC  # noqa: E402

# A cluster of worker processes: ~40 s in all, left out of the ASan run.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as c:
        yield c


def checkerboard(n, seed, noise=0.0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    flip = rng.random(n) < noise
    y[flip] = -y[flip]
    return X, y


def blobs(n, seed, classes=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, classes, size=n)
    centres = np.array([[np.cos(a), np.sin(a)] for a in 2 * np.pi * np.arange(classes) / classes])
    return centres[y] + 0.45 * rng.standard_normal((n, 2)), y


PARAMS = dict(budget=40, C=10.0, gamma=2.0, epochs=3, random_state=0)


def reference_rounds(est, parts, rounds, stop=None):
    """The algorithm written out with the core's calls: each round, one pass
    per partition from the common model (n = all rows), then the partitions'
    models mixed with weights = rows. BSCA: each partition's pass continues
    from the dual variables its previous round ended with. `stop`: the model
    after that many of the `rounds` rounds."""
    from budgetsvm import _core

    params = est._solver_params()
    params.update(gamma=est.gamma, shards=1, epochs=1)
    n = float(sum(len(y) for _, y in parts))
    start = dict(support_vectors=np.zeros((0, 2)), dual_coef=np.zeros((0, 1)), intercept=np.zeros(1), steps=0,
                 n_ref=0.0, n=n)
    alphas = [np.zeros(len(y)) for _, y in parts]
    rng = np.random.RandomState(est.random_state)
    for r in range(rounds if stop is None else stop):
        seeds = rng.randint(np.iinfo(np.int64).max, size=len(parts), dtype=np.int64)
        models = []
        for k, ((X, y), seed) in enumerate(zip(parts, seeds)):
            p = dict(params, seed=int(seed))
            if est.solver == "bsca":
                out = _core.bsca_shard_round(X, (y > 0).astype(np.int32), p, start if r else None, alphas[k], n,
                                             r + 1, rounds)
                alphas[k] = out["alpha"]
                models.append(dict(out, weight=float(out["n_ref"]), steps=out["steps_total"]))
            else:
                out = _core.fit_budgeted(X, (y > 0).astype(np.int32), 2, p, None, None, start)
                models.append(dict(out, weight=float(len(y)), steps=out["steps_total"]))
        mixed = _core.mix_budgeted(models, params)
        start = dict(support_vectors=mixed["support_vectors"], dual_coef=mixed["dual_coef"],
                     intercept=mixed["intercept"], steps=mixed["steps_total"], n_ref=n, n=n)
    return start


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_rounds_are_the_written_out_algorithm(client, solver):
    X, y = checkerboard(4000, 1)
    est = DaskBudgetedSVC(solver=solver, **dict(PARAMS, epochs=2))
    est.fit(da.from_array(X, chunks=2000), da.from_array(y, chunks=2000))
    want = reference_rounds(est, [(X[:2000], y[:2000]), (X[2000:], y[2000:])], 2)
    np.testing.assert_array_equal(est.support_vectors_, want["support_vectors"])
    np.testing.assert_array_equal(est.dual_coef_, want["dual_coef"].T)
    assert est.t_ == want["steps"]


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_union_is_the_written_out_partitions_apart(client, solver):
    """shard_mix="union": one round in which every partition runs all epochs
    apart (BSCA: from zero dual variables with the box C n / n_k), then the
    partitions' average with every support vector kept (the mix's budget is
    the union's size: nothing merged); rounds other than None or 1 refused."""
    from budgetsvm import _core

    X, y = checkerboard(4000, 2)
    parts = [(X[:2000], y[:2000]), (X[2000:], y[2000:])]
    est = DaskBudgetedSVC(solver=solver, shard_mix="union", **PARAMS)
    est.fit(da.from_array(X, chunks=2000), da.from_array(y, chunks=2000))
    params = est._solver_params()
    params.update(gamma=est.gamma, shards=1)
    seeds = np.random.RandomState(est.random_state).randint(np.iinfo(np.int64).max, size=2, dtype=np.int64)
    models = []
    for (Xk, yk), seed in zip(parts, seeds):
        p = dict(params, seed=int(seed))
        yi = (yk > 0).astype(np.int32)
        if solver == "bsca":
            out = _core.bsca_shard_round(Xk, yi, p, None, np.zeros(len(yk)), 4000.0, 1, PARAMS["epochs"])
            models.append(dict(out, weight=float(out["n_ref"]), steps=out["steps_total"]))
        else:
            start = dict(support_vectors=np.zeros((0, 2)), dual_coef=np.zeros((0, 1)), intercept=np.zeros(1),
                         steps=0, n_ref=0.0, n=4000.0)
            out = _core.fit_budgeted(Xk, yi, 2, p, None, None, start)
            models.append(dict(out, weight=float(len(yk)), steps=out["steps_total"]))
    held = sum(m["support_vectors"].shape[0] for m in models)
    want = _core.mix_budgeted(models, dict(params, budget=held))
    assert want["merges"] == 0 and est.n_support_ == held > PARAMS["budget"] and est.n_iter_ == 1
    np.testing.assert_array_equal(est.support_vectors_, want["support_vectors"])
    np.testing.assert_array_equal(est.dual_coef_, want["dual_coef"].T)
    with pytest.raises(ValueError, match="rounds must be None or 1"):
        DaskBudgetedSVC(solver=solver, shard_mix="union", rounds=3, **PARAMS).fit(
            da.from_array(X, chunks=2000), da.from_array(y, chunks=2000))


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_rounds_with_a_callback(client, solver):
    """Without a callback a round is submitted before the previous one is
    read; with one the rounds go one at a time: the same model, and a stop
    after round 2 of 3 keeps round 2's mix (the third round never runs)."""
    X, y = checkerboard(4000, 1)
    parts = [(X[:2000], y[:2000]), (X[2000:], y[2000:])]
    Xd, yd = da.from_array(X, chunks=2000), da.from_array(y, chunks=2000)
    seen = []
    going = DaskBudgetedSVC(solver=solver, callback=lambda stats: seen.append(stats["epoch"]) and False, **PARAMS)
    going.fit(Xd, yd)
    want = reference_rounds(going, parts, 3)
    assert seen == [1, 2, 3] and going.n_iter_ == 3
    np.testing.assert_array_equal(going.dual_coef_, want["dual_coef"].T)
    plain = DaskBudgetedSVC(solver=solver, **PARAMS).fit(Xd, yd)
    np.testing.assert_array_equal(plain.dual_coef_, going.dual_coef_)
    np.testing.assert_array_equal(plain.support_vectors_, going.support_vectors_)
    seen.clear()
    stopped = DaskBudgetedSVC(solver=solver, callback=lambda stats: seen.append(stats["epoch"]) or len(seen) == 2,
                              **PARAMS)
    stopped.fit(Xd, yd)
    want = reference_rounds(stopped, parts, 3, stop=2)
    assert seen == [1, 2] and stopped.n_iter_ == len(stopped.history_) == 2 and stopped.fit_stats_["stopped_early"]
    np.testing.assert_array_equal(stopped.support_vectors_, want["support_vectors"])
    np.testing.assert_array_equal(stopped.dual_coef_, want["dual_coef"].T)
    assert stopped.t_ == want["steps"]


@pytest.mark.parametrize("solver,classes", [("bsca", 2), ("bsgd", 2), ("bsca", 3)])
def test_tasks_that_mix_their_start_themselves(client, solver, classes, monkeypatch):
    """With a thread for every partition (two on the two workers) and nothing
    reading the rounds, each round's tasks make the previous round's top mix
    themselves (no mix task between rounds) and the statistics of the rounds
    travel up with the models: the same model and history as the rounds with
    mix tasks (here forced by verbose), which three partitions on two
    threads and a lone partition use too."""
    from budgetsvm.estimators import dask as bdask

    X, y = checkerboard(4000, 1) if classes == 2 else blobs(4000, 1)
    Xd, yd = da.from_array(X, chunks=2000), da.from_array(y, chunks=2000)
    fused = []
    decide = bdask._fused_top
    monkeypatch.setattr(bdask, "_fused_top", lambda k: fused.append(decide(k)) or fused[-1])
    params = dict(PARAMS, solver=solver)
    a = DaskBudgetedSVC(**params).fit(Xd, yd)
    b = DaskBudgetedSVC(verbose=1, **params).fit(Xd, yd)
    assert fused == [True]  # verbose reads every round: no fused mixes, not even asked
    np.testing.assert_array_equal(a.support_vectors_, b.support_vectors_)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    assert a.t_ == b.t_ and a.fit_stats_["merges"] == b.fit_stats_["merges"]
    assert a.fit_stats_["mix_fallbacks"] == b.fit_stats_["mix_fallbacks"]
    assert [h["epoch"] for h in a.history_] == [1, 2, 3]
    for ha, hb in zip(a.history_, b.history_):
        same = [k for k in ha if not k.endswith("seconds") and not (isinstance(ha[k], float) and math.isnan(ha[k]))]
        assert {k: ha[k] for k in same} == {k: hb[k] for k in same}
    assert all(0 <= h["seconds"] <= a.fit_stats_["seconds"] + 1.0 for h in a.history_)
    fused.clear()
    DaskBudgetedSVC(**params).fit(da.from_array(X, chunks=1500), da.from_array(y, chunks=1500))
    DaskBudgetedSVC(**params).fit(da.from_array(X, chunks=4000), da.from_array(y, chunks=4000))
    assert fused == [False, False]


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_classes_found_by_a_task_of_the_rounds(client, solver, monkeypatch):
    """Where the rounds are submitted at once, a fit with no classes given
    submits them for two classes with no round trip first, the classes found
    by a task they all take: one call to the cluster for a binary fit, the
    same model and classes_ as with the classes given (labels as strings
    too); for three classes the guessed rounds stop at once and the fit runs
    them again for the classes found, the same model as with them given."""
    from budgetsvm.estimators import dask as bdask

    calls = []
    compute = bdask.dask.compute
    monkeypatch.setattr(bdask.dask, "compute", lambda *a, **k: calls.append(len(a)) or compute(*a, **k))
    X, y = checkerboard(4000, 3)
    labels = np.where(y > 0, "yes", "no")
    Xd = da.from_array(X, chunks=2000)
    params = dict(PARAMS, solver=solver)
    for yy, classes in ((y, [-1, 1]), (labels, ["no", "yes"])):
        yd = da.from_array(yy, chunks=2000)
        calls.clear()
        found = DaskBudgetedSVC(**params).fit(Xd, yd)
        assert calls == [2]  # the last mix and the classes, together
        given = DaskBudgetedSVC(**params).fit(Xd, yd, classes=classes)
        assert found.classes_.tolist() == given.classes_.tolist() == classes
        np.testing.assert_array_equal(found.dual_coef_, given.dual_coef_)
        np.testing.assert_array_equal(found.support_vectors_, given.support_vectors_)
        assert found.t_ == given.t_ and len(found.history_) == PARAMS["epochs"]
        assert np.mean(found.predict(X) == yy) > 0.9
    X3, y3 = blobs(4000, 2)
    X3d, y3d = da.from_array(X3, chunks=2000), da.from_array(y3, chunks=2000)
    calls.clear()
    found = DaskBudgetedSVC(**params).fit(X3d, y3d)
    assert calls == [2, 2]  # the guessed rounds stopped, then the rounds of three classes
    given = DaskBudgetedSVC(**params).fit(X3d, y3d, classes=[0, 1, 2])
    assert found.classes_.tolist() == [0, 1, 2]
    np.testing.assert_array_equal(found.dual_coef_, given.dual_coef_)
    np.testing.assert_array_equal(found.intercept_, given.intercept_)


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_tasks_that_mix_their_start_themselves_with_a_partition_left_out(client, solver):
    """A partition whose rows all weigh 0 sends no model up the tree; the
    tasks that mix their start themselves take the other partition's model
    as the tree does."""
    X, y = checkerboard(4000, 2)
    w = np.r_[np.ones(2000), np.zeros(2000)]
    Xd, yd, wd = (da.from_array(v, chunks=2000) for v in (X, y, w))
    a = DaskBudgetedSVC(**dict(PARAMS, solver=solver)).fit(Xd, yd, sample_weight=wd)
    b = DaskBudgetedSVC(verbose=1, **dict(PARAMS, solver=solver)).fit(Xd, yd, sample_weight=wd)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    np.testing.assert_array_equal(a.support_vectors_, b.support_vectors_)
    assert [h["n_support"] for h in a.history_] == [h["n_support"] for h in b.history_]
    assert a.score(X[:2000], y[:2000]) > 0.9


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_accuracy_as_in_process_shards(client, solver):
    """Two partitions on two workers against the in-process run with shards=2
    (two shards, another split of the rows and other random streams; the same
    algorithm: BSCA's shards keep their dual variables from round to round in
    both, docs/dask.md): mean test accuracy over four seeds within one point
    (one seed varies by 1-2)."""
    X, y = checkerboard(12000, 1)
    Xt, yt = checkerboard(4000, 2)
    Xd, yd = da.from_array(X, chunks=6000), da.from_array(y, chunks=6000)
    dist, local, single = [], [], []
    for seed in range(4):
        params = dict(PARAMS, solver=solver, random_state=seed)
        clf = DaskBudgetedSVC(**params).fit(Xd, yd)
        assert clf.n_support_ <= PARAMS["budget"] and clf.n_iter_ == len(clf.history_) == PARAMS["epochs"]
        shards = BudgetedSVC(shards=2, n_jobs=2, **params).fit(X, y)
        assert clf.n_samples_seen_ == shards.n_samples_seen_ == 12000
        assert clf.t_ == shards.t_ or solver == "bsca"
        dist.append(clf.score(Xt, yt))
        local.append(shards.score(Xt, yt))
        single.append(BudgetedSVC(**params).fit(X, y).score(Xt, yt))
    assert abs(np.mean(dist) - np.mean(local)) <= 0.01
    assert np.mean(dist) >= np.mean(single) - 0.02  # and near the sequential model


def test_deterministic_and_independent_of_workers(client):
    """The model depends on (random_state, partitioning) only: the cluster and
    Dask's local threads give the same coefficients."""
    X, y = checkerboard(6000, 3)
    Xd, yd = da.from_array(X, chunks=1500), da.from_array(y, chunks=1500)
    a = DaskBudgetedSVC(**PARAMS).fit(Xd, yd)
    b = DaskBudgetedSVC(**PARAMS).fit(Xd, yd)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0"):
        c = DaskBudgetedSVC(**PARAMS).fit(Xd, yd)
    assert distributed.default_client() is client  # the later tests run on the cluster again
    for other in (b, c):
        np.testing.assert_array_equal(a.dual_coef_, other.dual_coef_)
        np.testing.assert_array_equal(a.support_vectors_, other.support_vectors_)
    d = DaskBudgetedSVC(**dict(PARAMS, random_state=1)).fit(Xd, yd)
    assert not np.array_equal(a.dual_coef_, d.dual_coef_)


def test_one_class_partition_trains(client):
    """Rows sorted by label: each partition holds one class (correct behaviour:
    each learns its side, the mix learns both)."""
    X, y = checkerboard(8000, 4)
    order = np.argsort(y, kind="stable")
    X, y = X[order], y[order]
    n_neg = int(np.sum(y == -1))
    Xd = da.from_array(X, chunks=((n_neg, len(y) - n_neg), (2,)))
    yd = da.from_array(y, chunks=((n_neg, len(y) - n_neg),))
    clf = DaskBudgetedSVC(solver="bsgd", **PARAMS).fit(Xd, yd)
    Xt, yt = checkerboard(3000, 5)
    assert set(np.unique(clf.predict(Xt))) == {-1, 1}
    assert clf.score(Xt, yt) > 0.8


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_very_unequal_partitions(client, solver):
    """Partitions of 1, 3 and 5,996 rows: every row takes part, and the
    model scores within 3 points of the one from three even partitions
    (measured: BSCA 99.3% and 99.3%, BSGD 96.4% and 98.5%)."""
    X, y = checkerboard(6000, 11)
    Xd = da.from_array(X, chunks=((1, 3, 5996), (2,)))
    yd = da.from_array(y, chunks=((1, 3, 5996),))
    clf = DaskBudgetedSVC(solver=solver, **PARAMS).fit(Xd, yd)
    Xt, yt = checkerboard(3000, 12)
    even = DaskBudgetedSVC(solver=solver, **PARAMS).fit(da.from_array(X, chunks=(2000, 2)),
                                                        da.from_array(y, chunks=2000))
    assert clf.score(Xt, yt) > 0.9
    assert clf.score(Xt, yt) > even.score(Xt, yt) - 0.03
    assert clf.fit_stats_["steps"] > 0


def test_more_partitions_than_rows_of_a_class(client):
    """Twelve partitions and a class of five rows (most partitions hold none
    of it): a model that predicts both classes, in bounded time."""
    rng = np.random.default_rng(13)
    X = np.vstack([rng.normal(0.0, 0.3, size=(1195, 2)), rng.normal(3.0, 0.3, size=(5, 2))])
    y = np.r_[np.zeros(1195, dtype=int), np.ones(5, dtype=int)]
    perm = rng.permutation(len(y))
    X, y = X[perm], y[perm]
    clf = DaskBudgetedSVC(solver="bsca", **PARAMS).fit(da.from_array(X, chunks=(100, 2)), da.from_array(y, chunks=100))
    assert list(clf.classes_) == [0, 1]
    assert set(clf.predict(np.array([[0.0, 0.0], [3.0, 3.0]]))) == {0, 1}


def test_a_worker_lost_mid_fit_gives_the_same_model():
    """A worker killed (SIGKILL) after the first of three rounds, with the
    partitions and BSCA's dual variables of its partitions on it: the
    scheduler computes them again from their tasks and the fit ends with the
    model of an undisturbed fit, bit for bit."""
    import os
    import signal

    X, y = checkerboard(8000, 21)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as c:
        Xd, yd = da.from_array(X, chunks=(2000, 2)), da.from_array(y, chunks=2000)
        # a callback: the rounds go one at a time, so the kill falls between rounds 1 and 2
        reference = DaskBudgetedSVC(solver="bsca", callback=lambda stats: False, **PARAMS).fit(Xd, yd)
        killed = []

        def kill_a_worker(stats):
            if stats["epoch"] == 1 and not killed:
                victim = sorted(c.scheduler_info()["workers"])[0]
                os.kill(c.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)
                killed.append(victim)
            return False

        got = DaskBudgetedSVC(solver="bsca", callback=kill_a_worker, **PARAMS).fit(Xd, yd)
    assert killed
    assert got.n_iter_ == 3
    np.testing.assert_array_equal(got.support_vectors_, reference.support_vectors_)
    np.testing.assert_array_equal(got.dual_coef_, reference.dual_coef_)
    np.testing.assert_array_equal(got.intercept_, reference.intercept_)


def test_multiclass_dataframe_and_dask_output(client):
    X, y = blobs(6000, 6)
    Xt, yt = blobs(2000, 7)
    frame = dd.from_pandas(pd.DataFrame(X, columns=["a", "b"]), npartitions=2)
    labels = dd.from_pandas(pd.Series(np.array(["r", "g", "b"])[y]), npartitions=2)
    for solver in ("bsca", "bsgd"):
        clf = DaskBudgetedSVC(solver=solver, **PARAMS).fit(frame, labels)
        assert list(clf.feature_names_in_) == ["a", "b"]
        local = BudgetedSVC(solver=solver, **PARAMS).fit(X, np.array(["r", "g", "b"])[y])
        want = np.array(["r", "g", "b"])[yt]
        test_frame = pd.DataFrame(Xt, columns=["a", "b"])
        assert clf.score(test_frame, want) >= local.score(Xt, want) - 0.02
        Xtd = da.from_array(Xt, chunks=500)
        pred = clf.predict(Xtd)
        scores = clf.decision_function(Xtd)
        assert isinstance(pred, da.Array) and isinstance(scores, da.Array)
        np.testing.assert_array_equal(pred.compute(), clf.predict(test_frame))
        np.testing.assert_allclose(scores.compute(), clf.decision_function(test_frame), rtol=1e-12, atol=1e-12)
        assert clf.score(Xtd, da.from_array(want, chunks=700)) == pytest.approx(clf.score(test_frame, want))
        test_dframe = dd.from_pandas(test_frame, npartitions=3)
        np.testing.assert_array_equal(clf.predict(test_dframe).compute(), pred.compute())
        assert clf.score(test_dframe, want) == pytest.approx(clf.score(test_frame, want))
        assert clf.n_support_ <= (3 if solver == "bsca" else 1) * PARAMS["budget"]  # OvR: a budget per class


def test_rounds_and_warm_start(client):
    X, y = checkerboard(6000, 8)
    Xd, yd = da.from_array(X, chunks=3000), da.from_array(y, chunks=3000)
    few = DaskBudgetedSVC(rounds=1, **PARAMS).fit(Xd, yd)  # 3 epochs per partition, one mix
    assert few.n_iter_ == 1 and few.score(X, y) > 0.9
    with pytest.raises(ValueError, match="rounds must divide epochs"):
        DaskBudgetedSVC(rounds=2, **PARAMS).fit(Xd, yd)
    with pytest.raises(ValueError, match="rounds must be >= 1"):
        DaskBudgetedSVC(rounds=0, **PARAMS).fit(Xd, yd)
    with pytest.raises(ValueError, match="shards=2 is not supported .* the partitions"):
        DaskBudgetedSVC(shards=2, **PARAMS).fit(Xd, yd)
    with pytest.raises(ValueError, match="shards must be >= 1"):
        DaskBudgetedSVC(shards=0, **PARAMS).fit(Xd, yd)
    clf = DaskBudgetedSVC(warm_start=True, solver="bsgd", **PARAMS).fit(Xd, yd)
    t = clf.t_
    clf.fit(Xd, yd)
    assert clf.t_ > t and clf.score(X, y) > 0.9


def test_bad_input(client):
    X, y = checkerboard(2000, 9)
    Xd, yd = da.from_array(X, chunks=1000), da.from_array(y, chunks=1000)
    clf = DaskBudgetedSVC(**PARAMS)
    with pytest.raises(TypeError, match="dask array"):
        clf.fit(X, y)
    bad = X.copy()
    bad[1500, 1] = np.nan
    with pytest.raises(ValueError, match="NaN|finite"):
        DaskBudgetedSVC(**dict(PARAMS, gamma="scale")).fit(da.from_array(bad, chunks=1000), yd)
    with pytest.raises(ValueError, match="NaN|finite"):
        clf.fit(da.from_array(bad, chunks=1000), yd)
    with pytest.raises(ValueError, match="2 classes"):
        clf.fit(Xd, da.ones(2000, chunks=1000))
    with pytest.raises(ValueError, match="not in classes"):
        clf.fit(Xd, yd, classes=[-1, 2])
    with pytest.raises(ValueError, match="entries but X has"):
        clf.fit(Xd, yd[:1500])
    with pytest.raises(TypeError, match="non-numeric"):
        clf.fit(da.from_array(np.array([["a", "b"]] * 10), chunks=5), da.from_array(np.arange(10) % 2, chunks=5))
    clf.fit(Xd, yd)
    before = clf.dual_coef_.copy()
    with pytest.raises(ValueError, match="3 features, but BudgetedSVC is expecting 2"):
        clf.predict(da.zeros((10, 3), chunks=5))
    with pytest.raises(ValueError, match="3 features"):
        clf.decision_function(da.zeros((10, 3), chunks=5))
    with pytest.raises(ValueError, match="NaN|finite"):
        clf.predict(da.from_array(bad, chunks=1000)).compute()
    with pytest.raises(ValueError, match="not in classes"):  # a failed fit leaves the model as it was
        clf.fit(Xd, yd, classes=[-1, 2])
    np.testing.assert_array_equal(clf.dual_coef_, before)


def with_empty_partitions(X, y):
    """X and y laid out in four partitions of 600 rows, the 1st and 3rd
    holding rows that a filter drops (the rows of X, y in the 2nd and 4th):
    a dask array pair filtered by a mask (unknown chunk sizes, two of them 0)
    and a dask dataframe filtered by a column (two empty partitions)."""
    junk = np.full((600, 2), 9.0)
    big = np.vstack([junk, X[:600], junk, X[600:]])
    labels = np.r_[y[:600], y[:600], y[:600], y[600:]]
    keep = np.repeat([False, True, False, True], 600)
    mask = da.from_array(keep, chunks=600)
    arrays = da.from_array(big, chunks=600)[mask], da.from_array(labels, chunks=600)[mask]
    frame = dd.from_pandas(pd.DataFrame({"a": big[:, 0], "b": big[:, 1], "y": labels, "keep": keep}), npartitions=4)
    frame = frame[frame.keep]
    return arrays, (frame[["a", "b"]], frame.y)


@pytest.mark.parametrize("gamma", ["scale", 1.0])
def test_empty_partitions_are_left_out_of_fit(client, gamma):
    """Partitions with no rows (after a filter; known or unknown chunk sizes;
    a dataframe's empty partitions) are left out of everything fit does, the
    statistics behind gamma='scale' and the seeds included: the model is the
    one trained with them removed beforehand (gamma='scale' used to fail
    saying X "may contain NaN, infinity", a given gamma to train another
    model). Two partitions with rows: the rounds are fused (a thread each)."""
    X, y = checkerboard(1200, 20)
    Xt, _ = checkerboard(300, 21)
    params = dict(PARAMS, gamma=gamma, epochs=2)
    want = DaskBudgetedSVC(**params).fit(da.from_array(X, chunks=600), da.from_array(y, chunks=600))
    known = da.from_array(X, chunks=((0, 600, 0, 600, 0), (2,)))
    (Xm, ym), (frame, labels) = with_empty_partitions(X, y)
    assert math.isnan(Xm.chunks[0][0]) and frame.map_partitions(len).compute().tolist() == [0, 600, 0, 600]
    for Xd, yd in ((known, y), (known, da.from_array(y, chunks=((0, 600, 0, 600, 0),))), (Xm, ym)):
        got = DaskBudgetedSVC(**params).fit(Xd, yd)
        assert got.gamma_ == want.gamma_
        np.testing.assert_array_equal(got.decision_function(Xt), want.decision_function(Xt))
    got = DaskBudgetedSVC(**params).fit(frame, labels)
    test_frame = pd.DataFrame(Xt, columns=["a", "b"])
    np.testing.assert_array_equal(got.decision_function(test_frame), want.decision_function(Xt))
    assert got.n_iter_ == 2 and got.t_ == want.t_


def test_empty_partitions_give_empty_results(client):
    """predict, decision_function and score on data with empty partitions: an
    empty result for each (shape (0,) or (0, n_classes)), the others as
    without them (they raised "Found array with 0 sample(s)")."""
    X, y = checkerboard(1200, 22)
    clf = DaskBudgetedSVC(**dict(PARAMS, epochs=1)).fit(da.from_array(X, chunks=600), da.from_array(y, chunks=600))
    known = da.from_array(X, chunks=((0, 600, 0, 600, 0), (2,)))
    (Xm, ym), (frame, labels) = with_empty_partitions(X, y)
    for Xd, yd in ((known, y), (Xm, ym), (frame, labels)):
        scores = clf.decision_function(Xd)
        assert scores.blocks[0].compute().shape == (0,)
        np.testing.assert_array_equal(scores.compute(), clf.decision_function(X))
        pred = clf.predict(Xd)
        assert pred.blocks[0].compute().shape == (0,) and pred.blocks[0].compute().dtype == clf.classes_.dtype
        np.testing.assert_array_equal(pred.compute(), clf.predict(X))
        assert clf.score(Xd, yd) == clf.score(X, y)
        w = np.linspace(0, 1, 1200)
        assert clf.score(Xd, yd, sample_weight=w) == pytest.approx(clf.score(X, y, sample_weight=w), abs=1e-12)
    X3, y3 = blobs(600, 23)
    three = DaskBudgetedSVC(**dict(PARAMS, epochs=1)).fit(da.from_array(X3, chunks=300), da.from_array(y3, chunks=300))
    scores = three.decision_function(da.from_array(X3, chunks=((300, 0, 300), (2,))))
    assert scores.blocks[1].compute().shape == (0, 3)
    np.testing.assert_array_equal(scores.compute(), three.decision_function(X3))


def test_no_rows_at_all(client):
    """Every partition empty (a filter that keeps nothing): scikit-learn's
    error for 0 samples, from fit and score; the fitted model as it was."""
    X, y = checkerboard(800, 24)
    Xd, yd = da.from_array(X, chunks=400), da.from_array(y, chunks=400)
    none = Xd[:, 0] > 5
    clf = DaskBudgetedSVC(**dict(PARAMS, epochs=1)).fit(Xd, yd)
    before = clf.dual_coef_.copy()
    for gamma in ("scale", 1.0):
        with pytest.raises(ValueError, match=r"Found array with 0 sample\(s\) \(shape=\(0, 2\)\) while a minimum of 1"):
            DaskBudgetedSVC(**dict(PARAMS, gamma=gamma)).fit(Xd[none], yd[none])
    frame = dd.from_pandas(pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "y": y}), npartitions=2)
    frame = frame[frame.a > 5]
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        clf.fit(frame[["a", "b"]], frame.y)
    np.testing.assert_array_equal(clf.dual_coef_, before)
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        clf.score(Xd[none], yd[none])
    assert clf.predict(Xd[none]).compute().shape == (0,)  # empty partitions, empty results


def test_lengths_and_partitions_of_y_and_weights(client):
    """y and sample_weight are checked against X once, with an error naming
    both lengths: y or weights in memory of another length (raised
    AttributeError), and dask ones whose partitions do not line up with X's
    after a filter (score raised numpy's broadcast error, or compared
    lengths with NaN). A dask y or weights of X's length on other
    partitions is split to X's partitions: the model of the aligned one."""
    X, y = checkerboard(1200, 25)
    Xd, yd = da.from_array(X, chunks=600), da.from_array(y, chunks=600)
    clf = DaskBudgetedSVC(**dict(PARAMS, epochs=1))
    for bad in (y[:1000], list(y[:1000]), pd.Series(y[:1000])):
        with pytest.raises(ValueError, match="y has 1000 entries but X has 1200 rows"):
            clf.fit(Xd, bad)
    with pytest.raises(ValueError, match="sample_weight has 1000 entries but X has 1200 rows"):
        clf.fit(Xd, yd, sample_weight=np.ones(1000))
    clf.fit(Xd, yd)
    with pytest.raises(ValueError, match="y has 1000 entries but X has 1200 rows"):
        clf.score(Xd, y[:1000])
    with pytest.raises(ValueError, match="sample_weight has 1000 entries but X has 1200 rows"):
        clf.score(Xd, yd, sample_weight=np.ones(1000))
    first, second = Xd[:, 0] > 0, Xd[:, 1] > 0.5  # two filters, the same partitions, other lengths
    n_first, n_second = int(np.sum(X[:, 0] > 0)), int(np.sum(X[:, 1] > 0.5))
    with pytest.raises(ValueError, match=f"y has {n_second} entries but X has {n_first} rows"):
        clf.score(Xd[first], yd[second])
    with pytest.raises(ValueError, match=f"y has {n_second} entries but X has {n_first} rows"):
        clf.fit(Xd[first], yd[second])
    wd = da.ones(1200, chunks=600)
    with pytest.raises(ValueError, match=f"sample_weight has {n_second} entries but X has {n_first} rows"):
        clf.score(Xd[first], yd[first], sample_weight=wd[second])
    with pytest.raises(ValueError, match=f"sample_weight has {n_second} entries but X has {n_first} rows"):
        clf.fit(Xd[first], yd[first], sample_weight=wd[second])
    kept = X[:, 0] > 0  # the same rows on other partitions: a score, not "X has nan rows"
    other = da.from_array(y[kept], chunks=250)
    assert clf.score(Xd[first], other) == clf.score(X[kept], y[kept])
    w = np.linspace(0, 1, 1200)
    aligned = DaskBudgetedSVC(**dict(PARAMS, epochs=1)).fit(Xd, yd, sample_weight=da.from_array(w, chunks=600))
    split = DaskBudgetedSVC(**dict(PARAMS, epochs=1)).fit(Xd, da.from_array(y, chunks=500),
                                                          sample_weight=da.from_array(w, chunks=700))
    np.testing.assert_array_equal(split.dual_coef_, aligned.dual_coef_)
    np.testing.assert_array_equal(split.support_vectors_, aligned.support_vectors_)


def test_incremental_and_parallel_post_fit(client):
    """dask-ml's wrappers around the in-process estimator: Incremental calls
    partial_fit block by block, ParallelPostFit predicts block by block."""
    X, y = checkerboard(8000, 10)
    Xt, yt = checkerboard(3000, 11)
    Xd, yd = da.from_array(X, chunks=2000), da.from_array(y, chunks=2000)
    est = BudgetedSVC(solver="bsgd", budget=40, C=10.0, gamma=2.0, random_state=0)
    inc = wrappers.Incremental(est, scoring="accuracy", shuffle_blocks=False).fit(Xd, yd, classes=[-1, 1])
    assert inc.estimator_.n_samples_seen_ == 8000
    direct = BudgetedSVC(solver="bsgd", budget=40, C=10.0, gamma=2.0, random_state=0)
    for k in range(4):
        direct.partial_fit(X[2000 * k : 2000 * (k + 1)], y[2000 * k : 2000 * (k + 1)], classes=[-1, 1])
    np.testing.assert_array_equal(inc.estimator_.dual_coef_, direct.dual_coef_)
    assert inc.score(da.from_array(Xt, chunks=1000), da.from_array(yt, chunks=1000)) > 0.9
    post = wrappers.ParallelPostFit(BudgetedSVC(**PARAMS)).fit(X, y)
    pred = post.predict(da.from_array(Xt, chunks=1000))
    assert isinstance(pred, da.Array)
    np.testing.assert_array_equal(pred.compute(), post.estimator.predict(Xt))


@pytest.mark.parametrize(
    "estimator, grid",
    [
        (SVC(), {"C": [0.5, 5.0], "gamma": [1.0, 4.0]}),
        (LinearSVC(), {"C": [0.01, 1.0]}),
        (BudgetedSVC(budget=30, epochs=2, random_state=0), {"C": [1.0, 10.0], "gamma": [1.0, 4.0]}),
    ],
    ids=["SVC", "LinearSVC", "BudgetedSVC"],
)
def test_grid_search_on_joblib_dask_backend(client, estimator, grid):
    X, y = checkerboard(600, 12, noise=0.05)
    if isinstance(estimator, LinearSVC):
        X = np.column_stack([X, X[:, 0] * X[:, 1]])  # linearly separable up to the noise
    with joblib.parallel_backend("dask"):
        search = GridSearchCV(estimator, grid, cv=3, n_jobs=-1).fit(X, y)
    serial = GridSearchCV(estimator, grid, cv=3).fit(X, y)
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], serial.cv_results_["mean_test_score"])
    assert search.best_score_ > 0.8


def test_weights(client):
    """class_weight="balanced" counts the classes over all partitions;
    sample_weight of ones is the unweighted problem; weights travel with
    their partitions."""
    from sklearn.utils.class_weight import compute_class_weight

    X, y = checkerboard(4000, 13)
    y[(y == 1) & (np.arange(4000) % 3 > 0)] = -1  # imbalanced
    Xd, yd = da.from_array(X, chunks=1000), da.from_array(y, chunks=1000)
    clf = DaskBudgetedSVC(class_weight="balanced", **PARAMS).fit(Xd, yd)
    np.testing.assert_allclose(clf.class_weight_, compute_class_weight("balanced", classes=np.array([-1, 1]), y=y))
    given = DaskBudgetedSVC(class_weight="balanced", **PARAMS).fit(Xd, yd, classes=[1, -1])
    np.testing.assert_allclose(given.class_weight_, clf.class_weight_)
    with pytest.raises(ValueError, match="every class"):
        DaskBudgetedSVC(class_weight="balanced", **PARAMS).fit(Xd, yd, classes=[-1, 1, 2])
    y_nan = y.astype(np.float64)
    y_nan[2500] = np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        DaskBudgetedSVC(**PARAMS).fit(Xd, da.from_array(y_nan, chunks=1000))
    plain_model = DaskBudgetedSVC(**PARAMS).fit(Xd, yd)
    ones = DaskBudgetedSVC(**PARAMS).fit(Xd, yd, sample_weight=da.ones(4000, chunks=1000))
    np.testing.assert_array_equal(ones.dual_coef_, plain_model.dual_coef_)
    with pytest.raises(ValueError, match="sample_weight"):
        DaskBudgetedSVC(**PARAMS).fit(Xd, yd, sample_weight=-np.ones(4000))
    # A partition whose weights are all 0 is no part of the problem (BSCA's
    # kept dual variables: n and each box count the other partitions' points).
    w = np.ones(4000)
    w[:1000] = 0.0
    zero = DaskBudgetedSVC(**PARAMS).fit(Xd, yd, sample_weight=da.from_array(w, chunks=1000))
    assert zero.n_support_ <= PARAMS["budget"]
    assert zero.score(X[1000:], y[1000:]) >= plain_model.score(X[1000:], y[1000:]) - 0.03
    for solver in ("bsca", "bsgd"):  # the in-process estimator's error
        with pytest.raises(ValueError, match="all samples have zero or negative weights"):
            DaskBudgetedSVC(**dict(PARAMS, solver=solver)).fit(Xd, yd, sample_weight=da.zeros(4000, chunks=1000))


def test_parameters_are_the_in_process_ones_and_rounds():
    # the signature is built from budgetsvm.BudgetedSVC's: scikit-learn reads it
    import inspect

    from sklearn.base import clone
    from sklearn.utils.estimator_checks import (
        check_estimator_repr,
        check_get_params_invariance,
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_set_params,
    )

    local = list(inspect.signature(BudgetedSVC).parameters.values())
    ours = list(inspect.signature(DaskBudgetedSVC).parameters.values())
    assert ours[:-1] == local and (ours[-1].name, ours[-1].default) == ("rounds", None)
    est = DaskBudgetedSVC(budget=7, rounds=3, callback=print)
    assert est.get_params() == dict(BudgetedSVC(budget=7, callback=print).get_params(), rounds=3)
    copy = clone(est)
    assert copy.get_params() == est.get_params() and copy is not est
    assert copy.set_params(rounds=1, solver="bsgd").get_params()["rounds"] == 1 and copy.solver == "bsgd"
    assert repr(est).startswith("BudgetedSVC(budget=7, callback=<built-in function print>, rounds=3")
    positional = DaskBudgetedSVC("bsgd", 9)  # in the in-process estimator's order, as before
    assert (positional.solver, positional.budget, positional.rounds) == ("bsgd", 9, None)
    assert DaskBudgetedSVC(*[p.default for p in local], 2).rounds == 2
    with pytest.raises(TypeError, match=r"BudgetedSVC.__init__\(\) got an unexpected keyword argument 'round'"):
        DaskBudgetedSVC(round=2)
    with pytest.raises(TypeError, match=r"BudgetedSVC.__init__\(\) .*multiple values for argument 'solver'"):
        DaskBudgetedSVC("bsgd", solver="bsca")
    for check in (
        check_parameters_default_constructible,
        check_no_attributes_set_in_init,
        check_get_params_invariance,
        check_set_params,
        check_estimator_repr,
    ):
        check("DaskBudgetedSVC", DaskBudgetedSVC())


def test_fit_stats_count_the_mixes_that_kept_a_partition(client):
    """tests/test_shards.py's narrow-kernel problem: one BSCA round of two
    partitions mixes once and keeps a partition's model, on either way of
    reading the rounds."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20000, 20))
    y = np.where(X[:, 0] * X[:, 1] + np.sin(2 * X[:, 2]) > 0, 1, -1)
    Xd, yd = da.from_array(X, chunks=10000), da.from_array(y, chunks=10000)
    params = dict(solver="bsca", budget=50, gamma=0.05, rounds=1, random_state=0)
    for verbose in (0, 1):
        clf = DaskBudgetedSVC(verbose=verbose, **params).fit(Xd, yd)
        assert clf.fit_stats_["mix_fallbacks"] == 1
    assert DaskBudgetedSVC(**params).fit(Xd[:10000], yd[:10000]).fit_stats_["mix_fallbacks"] == 0
