"""Tests of budgetsvm.BudgetedSVC and budgetsvm.merge_solution (issue 3).

References are independent of the code under test: brute-force kernel sums
in numpy, the exact dual optimum found by scipy's L-BFGS-B, scikit-learn's
exact SVC, and the brute-force merge table in tests/fixtures.
"""

from __future__ import annotations

import csv
import math
import pickle

import numpy as np
import pytest
import scipy.optimize
import scipy.sparse as sp
from sklearn.datasets import load_digits
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from budgetsvm import BudgetedSVC, merge_solution

from conftest import load_dataset
from conftest import fixture_path


def checkerboard(n, seed=0, cells=4):
    """The BSGD paper's 4 x 4 checkerboard: uniform on the square, alternating labels."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, cells, size=(n, 2))
    y = np.where((np.floor(X[:, 0]) + np.floor(X[:, 1])) % 2 == 0, 1, -1)
    return (X - cells / 2) / (cells / math.sqrt(12.0)), y


def rbf(A, B, gamma):
    """Gaussian kernel matrix by brute force (independent of the C++ code)."""
    d2 = ((np.asarray(A)[:, None, :] - np.asarray(B)[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-gamma * d2)


# ---------------------------------------------------------------- scikit-learn conventions


# A weight of 2 scales that row's C (or BSGD's step) by 2; scikit-learn's
# check compares with the row repeated, which for a stochastic solver also
# changes n (BSGD's lambda = 1/(C n)), the order of the steps and the budget
# pressure: the same problem, not the same iterates.
_WEIGHT_EQUIVALENCE = (
    "a weight of 2 is C scaled by 2, not a repeated row: the order of the stochastic steps and n differ"
)


@parametrize_with_checks(
    [
        BudgetedSVC(budget=40, epochs=4, C=10.0, random_state=0),
        BudgetedSVC(solver="bsgd", budget=40, epochs=4, C=10.0, random_state=0),
        BudgetedSVC(budget=20, epochs=3, C=10.0, maintenance="project", random_state=0),
    ],
    expected_failed_checks=lambda est: {
        "check_sample_weight_equivalence_on_dense_data": _WEIGHT_EQUIVALENCE,
        "check_sample_weight_equivalence_on_sparse_data": _WEIGHT_EQUIVALENCE,
    },
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"budget": 1}, ValueError, "budget must be >= 2"),
        ({"budget": 0}, ValueError, "budget must be >= 2"),
        ({"budget": 2.5}, TypeError, "budget must be an integer"),
        ({"C": 0.0}, ValueError, "C must be > 0"),
        ({"C": -1.0}, ValueError, "C must be > 0"),
        ({"C": float("nan")}, ValueError, "C must be finite"),
        ({"gamma": 0.0}, ValueError, "gamma must be a positive float"),
        ({"gamma": -2.0}, ValueError, "gamma must be a positive float"),
        ({"gamma": "wide"}, ValueError, "gamma must be a positive float"),
        ({"kernel": "poly"}, ValueError, "maintenance='merge' needs the Gaussian kernel"),
        ({"kernel": "linear"}, ValueError, "maintenance='merge' needs the Gaussian kernel"),
        ({"kernel": "cosine", "maintenance": "remove"}, ValueError, "kernel must be one of"),
        ({"solver": "smo"}, ValueError, "solver must be one of"),
        ({"maintenance": "drop"}, ValueError, "maintenance must be one of"),
        ({"merge_method": "lookup"}, ValueError, "merge_method must be one of"),
        ({"epochs": 0}, ValueError, "epochs must be >= 1"),
        ({"learning_rate": "adam"}, ValueError, "learning_rate must be one of"),
        ({"eta0": 0.0}, ValueError, "eta0 must be > 0"),
        ({"radius": -1.0}, ValueError, "radius must be > 0"),
        ({"gss_eps": 0.0}, ValueError, "gss_eps must be >= 1e-12"),
        ({"lookup_grid": 1}, ValueError, "lookup_grid must be >= 2"),
        ({"lookup_grid": 401}, ValueError, "lookup_grid must be even"),
        ({"n_jobs": 0}, ValueError, "n_jobs must be a positive integer"),
        ({"callback": 3}, TypeError, "callback must be callable"),
    ],
)
def test_bad_parameters(params, error, match):
    X, y = checkerboard(50)
    with pytest.raises(error, match=match):
        BudgetedSVC(**params).fit(X, y)


def test_one_class_only():
    X, _ = checkerboard(30)
    with pytest.raises(ValueError, match="at least 2 classes"):
        BudgetedSVC().fit(X, np.ones(30))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("sparse", [False, True])
def test_non_finite_input(bad, sparse):
    X, y = checkerboard(40)
    X[7, 1] = bad
    if sparse:
        X = sp.csr_matrix(X)
    with pytest.raises(ValueError, match="NaN or infinity"):
        BudgetedSVC(budget=10).fit(X, y)
    clf = BudgetedSVC(budget=10, random_state=0).fit(*checkerboard(40))
    with pytest.raises(ValueError, match="NaN or infinity"):
        clf.predict(X)


def test_string_labels_and_other_hashables():
    X, y = checkerboard(3000, seed=1)
    labels = np.where(y > 0, "black", "white")
    clf = BudgetedSVC(budget=50, C=10.0, gamma=2.0, random_state=0).fit(X, labels)
    assert list(clf.classes_) == ["black", "white"]
    pred = clf.predict(X)
    assert pred.dtype.kind == "U"
    assert np.mean(pred == labels) > 0.9
    # the positive side of the decision function is classes_[1]
    assert np.array_equal(pred == "white", clf.decision_function(X) > 0)
    # integer labels that are not {-1, +1}, in an odd order
    clf3 = BudgetedSVC(budget=50, C=10.0, gamma=2.0, random_state=0).fit(X, np.where(y > 0, 7, 3))
    assert np.array_equal(clf3.predict(X) == 7, pred == "black")


# ---------------------------------------------------------------- independent references


def test_decision_function_equals_brute_force_sum():
    X, y = checkerboard(2000, seed=2)
    clf = BudgetedSVC(budget=30, C=10.0, gamma=1.5, random_state=0).fit(X, y)
    Xt, _ = checkerboard(300, seed=3)
    expected = rbf(Xt, clf.support_vectors_, clf.gamma_) @ clf.dual_coef_.T
    got = clf.decision_function(Xt)
    assert got.shape == (300,)
    np.testing.assert_allclose(got, expected[:, 0], rtol=1e-12, atol=1e-12)


def test_multiclass_decision_function_equals_brute_force_sum():
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    for solver in ("bsca", "bsgd"):
        clf = BudgetedSVC(solver=solver, budget=60, C=10.0, gamma=0.05, epochs=2, random_state=0).fit(X, y)
        scores = clf.decision_function(X[:200])
        assert scores.shape == (200, 10)
        expected = rbf(X[:200], clf.support_vectors_, clf.gamma_) @ clf.dual_coef_.T
        np.testing.assert_allclose(scores, expected, rtol=1e-10, atol=1e-12)
        np.testing.assert_array_equal(clf.predict(X[:200]), clf.classes_[np.argmax(expected, axis=1)])


def _no_bias_dual_optimum(X, y, C, gamma):
    """max_a sum(a) - 1/2 a^T Q a, 0 <= a <= C (no bias), by L-BFGS-B."""
    Q = (y[:, None] * y[None, :]) * rbf(X, X, gamma)

    def negative_dual(a):
        Qa = Q @ a
        return 0.5 * a @ Qa - a.sum(), Qa - 1.0

    n = len(y)
    res = scipy.optimize.minimize(
        negative_dual, np.zeros(n), jac=True, method="L-BFGS-B", bounds=[(0.0, C)] * n,
        options={"maxiter": 10000, "ftol": 1e-15, "gtol": 1e-12},
    )
    return -res.fun


def test_bsca_without_maintenance_reaches_the_exact_dual_optimum():
    rng = np.random.default_rng(4)
    X, y = checkerboard(150, seed=4)
    X = X + 1e-3 * rng.standard_normal(X.shape)  # distinct rows
    C, gamma = 5.0, 1.0
    clf = BudgetedSVC(budget=200, C=C, gamma=gamma, epochs=300, random_state=0).fit(X, y)
    assert clf.fit_stats_["merges"] == clf.fit_stats_["removals"] == 0
    # every support vector is a training point (no merge happened) ...
    row_of = {row.tobytes(): i for i, row in enumerate(X)}
    rows = [row_of[sv.tobytes()] for sv in clf.support_vectors_]
    # ... so the coefficients give the dual variables: beta = y alpha
    y_alpha = np.zeros(len(y))
    np.add.at(y_alpha, rows, clf.dual_coef_[0])
    alpha = y_alpha * y
    assert alpha.min() >= -1e-12 and alpha.max() <= C + 1e-12
    K = rbf(X, X, gamma)
    dual = alpha.sum() - 0.5 * y_alpha @ K @ y_alpha
    optimum = _no_bias_dual_optimum(X, y, C, gamma)
    assert dual <= optimum + 1e-6 * abs(optimum)
    assert dual >= optimum - 1e-4 * abs(optimum)


def test_accuracy_close_to_exact_svc_on_real_data():
    X, y = load_dataset("ijcnn1.bz2")
    Xt, yt = load_dataset("ijcnn1.t.bz2", n_features=22)
    rng = np.random.default_rng(0)
    train = rng.choice(X.shape[0], 3000, replace=False)
    test = rng.choice(Xt.shape[0], 5000, replace=False)
    X, y, Xt, yt = X[train], y[train], Xt[test], yt[test]
    exact = SVC(C=32.0, gamma=2.0).fit(X, y).score(Xt, yt)
    ours = BudgetedSVC(budget=3000, C=32.0, gamma=2.0, epochs=20, random_state=0).fit(X, y)
    assert ours.fit_stats_["merges"] == 0
    assert ours.score(Xt, yt) >= exact - 0.01
    budgeted = BudgetedSVC(budget=100, C=32.0, gamma=2.0, epochs=5, random_state=0).fit(X, y)
    assert budgeted.n_support_ <= 100
    assert budgeted.score(Xt, yt) >= exact - 0.03


# ---------------------------------------------------------------- budget and statistics


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
@pytest.mark.parametrize("maintenance", ["merge", "remove", "project"])
def test_budget_never_exceeded_and_events_counted(solver, maintenance):
    X, y = checkerboard(4000, seed=5)
    clf = BudgetedSVC(
        solver=solver, budget=25, C=10.0, gamma=2.0, epochs=3, maintenance=maintenance, random_state=1
    ).fit(X, y)
    stats = clf.fit_stats_
    assert clf.n_support_ <= 25
    assert all(epoch["n_support"] <= 25 for epoch in clf.history_)
    assert [epoch["epoch"] for epoch in clf.history_] == [1, 2, 3]
    assert clf.n_iter_ == 3
    # the history counts from the start of training; its last entry is the total
    for key in ("steps", "sv_added", "merges", "removals", "projections", "maintenance_seconds"):
        values = [epoch[key] for epoch in clf.history_]
        assert values == sorted(values), key
        assert stats[key] == pytest.approx(values[-1]), key
    seconds = [epoch["seconds"] for epoch in clf.history_]
    assert seconds == sorted(seconds) and stats["seconds"] >= seconds[-1]
    assert [epoch["steps"] for epoch in clf.history_] == [4000, 8000, 12000]
    # every maintenance event takes exactly one support vector away
    events = stats["merges"] + stats["removals"] + stats["projections"]
    assert events == stats["sv_added"] - clf.n_support_
    assert events > 0
    used = {"merge": "merges", "remove": "removals", "project": "projections"}[maintenance]
    assert stats[used] > 0
    assert stats["maintenance_seconds"] > 0
    if maintenance != "merge":  # merging falls back to removal without a same-sign partner
        assert stats[used] == events


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
@pytest.mark.parametrize("merge_method", ["gss", "lookup-h", "lookup-wd"])
def test_merging_learns_the_checkerboard(solver, merge_method):
    X, y = checkerboard(20000, seed=6)
    Xt, yt = checkerboard(5000, seed=7)
    clf = BudgetedSVC(
        solver=solver, budget=100, C=32.0, gamma=2.0, epochs=3, merge_method=merge_method, random_state=0
    ).fit(X, y)
    assert clf.fit_stats_["merges"] > 0
    assert clf.score(Xt, yt) > 0.95


@pytest.mark.parametrize(
    "kernel, maintenance",
    [
        ("linear", "remove"),
        ("linear", "project"),  # rank 3 < budget: projection must cope with a singular kernel matrix
        ("poly", "remove"),
        ("poly", "project"),  # degree 2 in d = 3: rank 10 < budget
        ("sigmoid", "remove"),
        ("sigmoid", "project"),
    ],
)
def test_other_kernels_with_removal_and_projection(kernel, maintenance):
    rng = np.random.default_rng(8)
    X = rng.standard_normal((600, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1) if kernel != "poly" else np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    clf = BudgetedSVC(kernel=kernel, degree=2, coef0=1.0, gamma=0.5, budget=30, C=1.0,
                      maintenance=maintenance, epochs=3, random_state=0).fit(X, y)
    assert clf.n_support_ <= 30
    G = X @ clf.support_vectors_.T
    K = {"linear": G, "poly": (0.5 * G + 1.0) ** 2, "sigmoid": np.tanh(0.5 * G + 1.0)}[kernel]
    np.testing.assert_allclose(clf.decision_function(X), (K @ clf.dual_coef_.T)[:, 0], rtol=1e-10, atol=1e-10)
    if kernel != "sigmoid":  # the sigmoid kernel is not PSD; only check it runs
        assert clf.score(X, y) > 0.7  # chance is 0.5; removal is the crudest maintenance


@pytest.mark.parametrize(
    "learning_rate, extra",
    [("pegasos", {}), ("norma", {"eta0": 0.5}), ("perceptron", {"eta0": 0.1, "radius": 50.0})],
)
def test_bsgd_learning_rates(learning_rate, extra):
    X, y = checkerboard(10000, seed=9)
    Xt, yt = checkerboard(3000, seed=10)
    clf = BudgetedSVC(solver="bsgd", learning_rate=learning_rate, budget=100, C=32.0, gamma=2.0, epochs=3,
                      random_state=0, **extra).fit(X, y)
    assert clf.n_support_ <= 100
    assert clf.score(Xt, yt) > 0.85


# ---------------------------------------------------------------- data handling


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_dense_and_csr_give_the_same_model(solver):
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    binary = y < 5
    kwargs = dict(solver=solver, budget=40, C=10.0, gamma=0.05, epochs=2, random_state=3)
    dense = BudgetedSVC(**kwargs).fit(X, binary)
    for matrix in (sp.csr_matrix(X), sp.csr_array(X)):
        sparse = BudgetedSVC(**kwargs).fit(matrix, binary)
        np.testing.assert_allclose(sparse.dual_coef_, dense.dual_coef_, rtol=1e-12, atol=1e-12)
        assert sp.issparse(sparse.support_vectors_)  # sparse input keeps sparse support vectors
        np.testing.assert_allclose(sparse.support_vectors_.toarray(), dense.support_vectors_, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(sparse.decision_function(matrix), dense.decision_function(X), rtol=1e-10, atol=1e-12)
    # int64 indices and unsorted indices within rows
    wide = sp.csr_matrix(X)
    wide.indices = wide.indices.astype(np.int64)
    wide.indptr = wide.indptr.astype(np.int64)
    wide_coef = BudgetedSVC(**kwargs).fit(wide, binary).dual_coef_
    np.testing.assert_allclose(wide_coef, dense.dual_coef_, rtol=1e-12, atol=1e-12)


def test_float32_and_fortran_input():
    X, y = checkerboard(5000, seed=11)
    Xt, yt = checkerboard(2000, seed=12)
    kwargs = dict(budget=50, C=10.0, gamma=2.0, epochs=3, random_state=0)
    reference = BudgetedSVC(**kwargs).fit(X, y)
    single = BudgetedSVC(**kwargs).fit(X.astype(np.float32), y)
    assert single.support_vectors_.dtype == np.float64
    assert abs(single.score(Xt.astype(np.float32), yt) - reference.score(Xt, yt)) < 0.02
    fortran = BudgetedSVC(**kwargs).fit(np.asfortranarray(X), y)
    np.testing.assert_allclose(fortran.dual_coef_, reference.dual_coef_, rtol=1e-12, atol=1e-12)


def test_random_state_gives_bit_identical_runs():
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    for solver in ("bsca", "bsgd"):
        a = BudgetedSVC(solver=solver, budget=30, gamma=0.05, epochs=2, random_state=42).fit(X, y)
        b = BudgetedSVC(solver=solver, budget=30, gamma=0.05, epochs=2, random_state=42).fit(X, y)
        c = BudgetedSVC(solver=solver, budget=30, gamma=0.05, epochs=2, random_state=43).fit(X, y)
        assert np.array_equal(a.dual_coef_, b.dual_coef_)
        assert np.array_equal(a.support_vectors_, b.support_vectors_)
        assert not np.array_equal(a.dual_coef_, c.dual_coef_)


def _nonlinear(n, classes, seed=0):
    """A generated non-linear problem of ``classes`` about equal classes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    score = X[:, 0] * X[:, 1] + np.sin(2 * X[:, 2]) + 0.5 * X[:, 3] ** 2
    return X, np.digitize(score, np.quantile(score, np.linspace(0, 1, classes + 1)[1:-1]))


@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_n_jobs_does_not_change_the_model(solver, classes):
    """n_jobs means threads only (#60): the blocked epochs' kernel tiles on any
    number of threads give the same model bit for bit; the sharding is the
    parameter ``shards``, which changes the model where it applies (a binary
    problem, BSGD's multi-class model; one-vs-rest BSCA is not sharded)."""
    X, y = _nonlinear(3000, classes)
    fits = [BudgetedSVC(solver=solver, budget=50, n_jobs=k, random_state=0).fit(X, y) for k in (1, 2, 3, -1)]
    one = fits[0]
    for other in fits[1:]:
        np.testing.assert_array_equal(one.support_vectors_, other.support_vectors_)
        np.testing.assert_array_equal(one.dual_coef_, other.dual_coef_)
        np.testing.assert_array_equal(one.decision_function(X), other.decision_function(X))
        assert one.fit_stats_["merges"] == other.fit_stats_["merges"]
    sharded = BudgetedSVC(solver=solver, budget=50, shards=2, random_state=0).fit(X, y)
    same = sharded.dual_coef_.shape == one.dual_coef_.shape and np.array_equal(sharded.dual_coef_, one.dual_coef_)
    assert same == (solver == "bsca" and classes > 2)
    assert sharded.score(X, y) > 0.6  # a working model, far above chance (shards learn less per epoch)


def test_pickle_round_trip_predicts_identically():
    X, y = load_digits(return_X_y=True)
    clf = BudgetedSVC(budget=40, gamma=0.001, random_state=0, epochs=2).fit(X, y)
    copy = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(copy.decision_function(X), clf.decision_function(X))
    np.testing.assert_array_equal(copy.predict(X), clf.predict(X))
    assert copy.fit_stats_ == clf.fit_stats_


@pytest.mark.parametrize("layout", ["C float64", "F float64", "C float32", "CSR int32", "CSR int64"])
def test_training_data_is_not_copied(layout):
    """Peak Python-side allocation during fit and predict stays far below the
    size of X (numpy reports its allocations to tracemalloc)."""
    import tracemalloc

    rng = np.random.default_rng(16)
    X = rng.standard_normal((40_000, 25))
    y = np.where(X[:, 0] > 0, 1, -1)
    if layout.startswith("F"):
        X = np.asfortranarray(X)
    if "float32" in layout:
        X = X.astype(np.float32)
    if layout.startswith("CSR"):
        X[np.abs(X) < 0.5] = 0.0
        X = sp.csr_matrix(X)
        if "int64" in layout:
            X.indices = X.indices.astype(np.int64)
            X.indptr = X.indptr.astype(np.int64)
        size = X.data.nbytes + X.indices.nbytes
    else:
        size = X.nbytes
    clf = BudgetedSVC(budget=10, epochs=1, random_state=0)
    tracemalloc.start()
    clf.fit(X, y)
    clf.decision_function(X)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # labels, class indices and the decision values are O(n); X would be >= size
    assert peak < 0.5 * size, (peak, size)


def test_input_is_not_modified():
    X, y = checkerboard(1000, seed=13)
    before = X.copy()
    matrix = sp.csr_matrix(X)
    data_before = matrix.data.copy()
    BudgetedSVC(budget=20, random_state=0, epochs=2).fit(X, y).predict(X)
    BudgetedSVC(budget=20, random_state=0, epochs=2).fit(matrix, y).predict(matrix)
    np.testing.assert_array_equal(X, before)
    np.testing.assert_array_equal(matrix.data, data_before)


# ---------------------------------------------------------------- progress, callback


def test_callback_sees_every_epoch_and_can_stop():
    X, y = checkerboard(2000, seed=14)
    seen = []
    BudgetedSVC(budget=20, epochs=4, random_state=0, callback=lambda s: seen.append(s)).fit(X, y)
    assert [s["epoch"] for s in seen] == [1, 2, 3, 4]
    expected_keys = {"epoch", "steps", "sv_added", "merges", "removals", "projections", "n_support",
                     "maintenance_seconds", "seconds", "objective"}
    assert expected_keys <= set(seen[0])
    assert [s["steps"] for s in seen] == [2000, 4000, 6000, 8000]

    clf = BudgetedSVC(budget=20, epochs=10, random_state=0, callback=lambda s: s["epoch"] == 2).fit(X, y)
    assert clf.n_iter_ == 2
    assert len(clf.history_) == 2
    assert clf.fit_stats_["stopped_early"]
    assert clf.fit_stats_["steps"] == 2 * 2000
    assert clf.score(X, y) > 0.5


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_shorter_runs_are_prefixes_of_longer_runs(solver):
    """A run of k epochs is the first k epochs of a longer run with the same
    seed (the benchmark's per-epoch accuracy curves rely on it), and a
    callback stop after epoch k gives that same model (BSGD; BSCA averages
    its last planned epoch)."""
    X, y = checkerboard(3000, seed=15)
    kwargs = dict(solver=solver, budget=30, C=10.0, gamma=2.0, random_state=7)
    short = BudgetedSVC(epochs=2, **kwargs).fit(X, y)
    stopped = BudgetedSVC(epochs=5, callback=lambda s: s["epoch"] == 2, **kwargs).fit(X, y)
    long = BudgetedSVC(epochs=4, **kwargs).fit(X, y)
    counters = ("steps", "sv_added", "merges", "removals", "n_support")
    for a, b in zip(short.history_, long.history_[:2]):
        assert [a[k] for k in counters] == [b[k] for k in counters]
    assert stopped.n_iter_ == short.n_iter_ == 2
    if solver == "bsgd":
        np.testing.assert_array_equal(stopped.dual_coef_, short.dual_coef_)
        np.testing.assert_array_equal(stopped.support_vectors_, short.support_vectors_)
    else:
        # BSCA exports the average of the iterates over its last planned
        # epoch (bsca.hpp); a callback stop exports the last iterate. The
        # training path is the same (counters above); the exported models differ.
        assert stopped.score(X, y) > 0.8 and short.score(X, y) > 0.8


def test_callback_exception_propagates():
    X, y = checkerboard(500)

    def boom(stats):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        BudgetedSVC(budget=10, epochs=3, callback=boom).fit(X, y)


def test_verbose_prints_a_progress_line_per_epoch(capsys):
    X, y = checkerboard(1000)
    BudgetedSVC(budget=10, epochs=3, verbose=1, random_state=0).fit(X, y)
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("epoch 1/3") and lines[2].startswith("epoch 3/3")
    assert "SVs" in lines[0] and "merges" in lines[0] and "elapsed" in lines[0]
    BudgetedSVC(budget=10, epochs=3, verbose=0, random_state=0).fit(X, y)
    assert capsys.readouterr().err == ""
    BudgetedSVC(budget=10, epochs=2, verbose=True, random_state=0).fit(X, y)
    assert len(capsys.readouterr().err.strip().splitlines()) == 2
    with pytest.raises(ValueError, match="verbose must be >= 0"):
        BudgetedSVC(verbose=-1).fit(X, y)


# ---------------------------------------------------------------- merge_solution


def _golden_rows():
    """The fixture's rows in merge_solution's domain (kappa > 0: two distinct
    points; the core's kappa = 0 rows are tested in test_merge.py)."""
    with open(fixture_path("merge_golden.csv")) as f:
        rows = [line for line in f if not line.startswith("#")]
    rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(rows)]
    return [row for row in rows if row["kappa"] > 0]


@pytest.mark.parametrize("method, tol", [("gss", 5e-4), ("lookup-h", 5e-4), ("lookup-wd", 5e-5)])
def test_merge_solution_matches_brute_force(method, tol):
    rows = _golden_rows()
    errors = []
    for row in rows:
        h, wd = merge_solution(row["m"], row["kappa"], method=method)
        assert 0.0 <= h <= 1.0
        errors.append(abs(wd - row["wd"]))
        # the returned h achieves the returned WD (up to the method's precision)
        g = row["m"] * row["kappa"] ** ((1 - h) ** 2) + (1 - row["m"]) * row["kappa"] ** (h ** 2)
        wd_of_h = row["m"] ** 2 + (1 - row["m"]) ** 2 + 2 * row["m"] * (1 - row["m"]) * row["kappa"] - g * g
        assert wd_of_h <= row["wd"] + 5e-4
    assert max(errors) <= tol


def test_merge_solution_bad_input():
    with pytest.raises(ValueError, match="m must be <= 1"):
        merge_solution(1.5, 0.5)
    with pytest.raises(ValueError, match="kappa must be > 0"):
        merge_solution(0.5, 0.0)
    with pytest.raises(ValueError, match="method must be one of"):
        merge_solution(0.5, 0.5, method="newton")
    with pytest.raises(ValueError, match="eps must be >= 1e-12"):
        merge_solution(0.5, 0.5, method="gss", eps=0.0)
    with pytest.raises(TypeError, match="m must be a real number"):
        merge_solution("half", 0.5)
