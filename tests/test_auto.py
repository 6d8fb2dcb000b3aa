"""AutoSVC / tune: the settings chosen within a time budget.

The search's rules are checked on what it reports (the C carried between
rungs, the final fit on every row, the plan the measured rates allow), its
result against an independent grid over the exact SVM, and its bad input.
Time bounds here are loose multiples of the budget the search manages
itself (it measures and plans on this machine, under this load); the
benchmark (bench/auto.py) measures how close it comes.
"""

import math
import os
import tempfile
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.model_selection import train_test_split

from budgetsvm import SVC, AutoSVC, BudgetedSVC, load_model, save_model, tune
from budgetsvm.estimators.auto import BSGD_MARGIN, CHECK_MARGIN, median_gamma


def _xor(n, seed=0, noise=0.05):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 4))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    flip = rng.random(n) < noise
    y[flip] = -y[flip]
    return X, y


@pytest.fixture(scope="module")
def fitted():
    X, y = _xor(16_000)
    return X, y, AutoSVC(time=20, random_state=0).fit(X, y)


def test_report_lists_every_fit_and_the_final_one_on_all_rows(fitted):
    X, y, auto = fitted
    report = auto.report_
    assert [s["name"] for s in report.stages] == ["prepare", "search", "solver", "check", "final"]
    keys = {"stage", "rung", "rows", "solver", "C", "gamma", "budget", "epochs", "validation_accuracy", "seconds",
            "n_support"}
    assert all(set(t) == keys for t in report.trials)
    final = [t for t in report.trials if t["stage"] == "final"]
    assert len(final) == 1 and final[0]["rows"] == len(X) and math.isnan(final[0]["validation_accuracy"])
    assert auto.best_params_["rows"] == len(X)
    assert auto.best_params_ == {k: v for k, v in report.chosen.items() if k != "validation_accuracy"}
    # the final model is the chosen settings, trained on every row
    est = auto.best_estimator_
    assert type(est) is (SVC if auto.best_params_["solver"] == "exact" else BudgetedSVC)
    assert est.C == pytest.approx(auto.best_params_["C"]) and est.gamma == pytest.approx(auto.best_params_["gamma"])
    assert report.seconds >= sum(s["seconds"] for s in report.stages) - 1e-9
    assert str(report).startswith("AutoSVC: ") and len(str(report).splitlines()) == len(report.trials) + 3


def test_C_is_carried_between_rungs_at_fixed_lambda_fixed_C_and_between(fitted):
    _, _, auto = fitted
    search = [t for t in auto.report_.trials if t["stage"] == "search"]
    rungs = sorted({t["rung"] for t in search})
    assert len(rungs) >= 2  # 500-2000 rows first (as fast as the first fit says), then x4, up to 12,800
    first = [t for t in search if t["rung"] == 0]
    assert len({t["gamma"] for t in first}) == 6 and len({t["C"] for t in first}) >= 5  # the first rung's grid
    for r in rungs[1:]:
        before = [t for t in search if t["rung"] == r - 1]
        now = [t for t in search if t["rung"] == r]
        m0, m1 = before[0]["rows"], now[0]["rows"]
        assert m1 > m0
        for t in now:
            parents = [p for p in before if p["gamma"] == t["gamma"] and any(
                math.isclose(t["C"], p["C"] * (m0 / m1) ** e, rel_tol=1e-9) for e in (0.0, 0.5, 1.0))]
            assert parents, (r, t)
        # the survivors are the best of the rung before
        best_before = max(p["validation_accuracy"] for p in before)
        assert any(p["validation_accuracy"] == best_before for p in before
                   if any(p["gamma"] == t["gamma"] for t in now))


def test_the_choice_is_checked_at_the_final_budget(fitted):
    X, _, auto = fitted
    trials = auto.report_.trials
    search = [t for t in trials if t["stage"] in ("search", "refine")]
    check = [t for t in trials if t["stage"] == "check"]
    assert check, "a 16k-row problem in 20 s affords a larger final budget than the search's 500: it is checked"
    budget = check[-1]["budget"]
    assert budget > max(t["budget"] for t in search)
    assert all(t["rows"] <= max(s["rows"] for s in search) for t in check)
    last = [t for t in check if t["rows"] == check[-1]["rows"]]  # the rows grow at most while the first fit runs
    assert {t["budget"] for t in last} == {budget}
    # the choice is the best of the check within its margin, its C carried from the check's rows to all
    chosen = auto.report_.chosen
    mine = [t for t in last if t["gamma"] == chosen["gamma"] and t["solver"] == chosen["solver"]
            and t["validation_accuracy"] == chosen["validation_accuracy"]]
    assert mine
    t = mine[0]
    assert t["C"] * t["rows"] / len(X) * (1 - 1e-12) <= chosen["C"] <= t["C"] * (1 + 1e-12)
    # a smoother setting may replace a better-scoring one by up to CHECK_MARGIN (at most twice: gamma, C);
    # a rougher one had to lead by 2 * CHECK_MARGIN
    assert chosen["validation_accuracy"] >= last[0]["validation_accuracy"] - 2 * CHECK_MARGIN - BSGD_MARGIN - 1e-12
    assert all(u["validation_accuracy"] <= chosen["validation_accuracy"] + 4 * CHECK_MARGIN + BSGD_MARGIN + 1e-12
               for u in last)
    assert chosen["epochs"] <= t["epochs"]


def test_accuracy_close_to_the_best_cell_of_an_exact_grid(fitted):
    X, y, auto = fitted
    Xt, yt = _xor(4000, seed=1)
    gamma0 = median_gamma(X, np.random.RandomState(0))
    best = max(SVC(C=C, gamma=gamma0 * g).fit(X, y).score(Xt, yt) for C in (0.1, 1, 10, 100) for g in (0.25, 1, 4))
    assert auto.score(Xt, yt) >= best - 0.02


def test_same_seed_same_model():
    X, y = _xor(1500, seed=3)
    a = AutoSVC(time=30, random_state=7).fit(X, y)
    b = AutoSVC(time=30, random_state=7).fit(X, y)
    strip = [{k: v for k, v in t.items() if k != "seconds"} for t in a.report_.trials]
    assert strip == [{k: v for k, v in t.items() if k != "seconds"} for t in b.report_.trials]
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_time_budget_kept_on_a_larger_problem():
    X, y = _xor(60_000, seed=4, noise=0.1)
    auto = AutoSVC(time=4, random_state=0).fit(X, y)
    # loose: the plan measures this machine; the benchmark checks <= budget + 10%
    assert auto.report_.seconds <= 4 * 2 + 1
    assert auto.score(*_xor(5000, seed=5, noise=0.1)) > 0.8


def test_too_small_a_budget_gives_the_best_model_found_and_a_warning():
    X, y = _xor(200_000, seed=6)
    with pytest.warns(UserWarning, match="time"):
        auto = AutoSVC(time=0.05, random_state=0).fit(X, y)
    assert auto.report_.warnings
    assert auto.best_params_["rows"] < len(X)
    assert auto.predict(X[:10]).shape == (10,)


def test_multiclass_sparse_and_strings():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(3000, 6))
    labels = np.array(["a", "b", "c"])[np.argmax(X[:, :3], axis=1)]
    Xs = sp.csr_matrix(np.where(np.abs(X) > 0.5, X, 0.0))
    auto = AutoSVC(time=10, random_state=0).fit(Xs, labels)
    assert list(auto.classes_) == ["a", "b", "c"]
    Xtr, Xte, ytr, yte = train_test_split(Xs, labels, random_state=0)
    assert auto.score(Xte, yte) > 0.8
    assert auto.decision_function(Xs[:5]).shape == (5, 3)


def test_solvers_restrict_the_choice():
    X, y = _xor(3000, seed=9)
    auto = AutoSVC(time=10, solvers=("bsgd",), random_state=0).fit(X, y)
    assert {t["solver"] for t in auto.report_.trials} == {"bsgd"}
    assert auto.best_params_["solver"] == "bsgd"


def test_save_model_writes_the_best_estimator(fitted):
    X, _, auto = fitted
    path = os.path.join(tempfile.mkdtemp(), "auto.bsvm")
    save_model(auto, path)
    loaded = load_model(path)
    np.testing.assert_array_equal(loaded.predict(X[:200]), auto.predict(X[:200]))


def test_tune_is_the_estimator_fitted():
    X, y = _xor(1000, seed=10)
    auto = tune(X, y, time=5, random_state=0)
    assert isinstance(auto, AutoSVC) and auto.time == 5
    assert clone(auto).get_params() == auto.get_params()


def test_median_gamma_matches_the_formula():
    X = np.random.default_rng(0).normal(size=(4000, 5))
    rng = np.random.RandomState(1)
    a, b = rng.randint(0, 4000, 2000), rng.randint(0, 4000, 2000)
    keep = a != b
    expected = 1.0 / np.median(((X[a[keep]] - X[b[keep]]) ** 2).sum(axis=1))
    assert median_gamma(X, np.random.RandomState(1)) == pytest.approx(expected)
    assert median_gamma(sp.csr_matrix(X), np.random.RandomState(1)) == pytest.approx(expected)
    assert median_gamma(np.ones((10, 4)), np.random.RandomState(0)) == 0.25  # all rows equal: 1 / n_features
    rows = np.random.RandomState(2).permutation(4000)[:3000]
    assert median_gamma(X, np.random.RandomState(3), rows=rows) == median_gamma(X[rows], np.random.RandomState(3))


@pytest.mark.parametrize(
    "params, message",
    [
        ({"time": 0}, "time"),
        ({"time": -1}, "time"),
        ({"time": float("inf")}, "time"),
        ({"validation_fraction": 0.7}, "validation_fraction"),
        ({"solvers": ("svm",)}, "solvers"),
        ({"solvers": ()}, "solvers"),
        ({"max_budget": 10}, "max_budget"),
    ],
)
def test_bad_parameters(params, message):
    X, y = _xor(100)
    with pytest.raises(ValueError, match=message):
        AutoSVC(**params).fit(X, y)


def test_bad_data():
    X, y = _xor(100)
    with pytest.raises(ValueError, match="at least 2 classes"):
        AutoSVC(time=1).fit(X, np.ones(100))
    y1 = np.ones(100)
    y1[0] = -1
    with pytest.raises(ValueError, match="at least 2 rows of every class"):
        AutoSVC(time=1).fit(X, y1)
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        AutoSVC(time=1).fit(X, y)


def test_unfitted_predict_raises():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        AutoSVC().predict(np.zeros((2, 2)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        AutoSVC()  # constructing checks nothing (scikit-learn's convention)


class _Chunks:
    """A stream of (X, y) chunks; each iter() is one pass (``shrink``: later passes lose a chunk)."""

    def __init__(self, blocks, shrink=False):
        self.blocks, self.shrink, self.passes = blocks, shrink, 0

    def __iter__(self):
        self.passes += 1
        blocks = self.blocks[:-1] if self.shrink and self.passes > 1 else self.blocks
        return iter(blocks)


def test_stream_searches_a_sample_and_trains_one_pass_over_all_rows():
    X, y = _xor(20_000, seed=11)
    blocks = [(X[i:i + 2000], y[i:i + 2000]) for i in range(0, 20_000, 2000)]
    stream = _Chunks(blocks)
    auto = AutoSVC(time=10, random_state=0).fit_stream(stream, n_features=4, sample_rows=5000)
    assert stream.passes == 2
    assert max(t["rows"] for t in auto.report_.trials if t["stage"] != "final") <= 5000
    est = auto.best_estimator_
    assert isinstance(est, BudgetedSVC) and est.n_samples_seen_ == 20_000
    assert auto.best_params_["rows"] == 20_000 and auto.best_params_["epochs"] == 1
    assert auto.score(*_xor(5000, seed=12)) > 0.85


def test_a_stream_that_changes_between_passes_is_an_error():
    X, y = _xor(6000, seed=13)
    blocks = [(X[i:i + 1000], y[i:i + 1000]) for i in range(0, 6000, 1000)]
    auto = AutoSVC(time=5, random_state=0).fit(X[:2000], y[:2000])
    before = dict(auto.__dict__)
    with pytest.raises(ValueError, match="cannot be read twice"):
        auto.fit_stream(_Chunks(blocks, shrink=True), n_features=4)
    assert auto.__dict__ == before  # a failed call leaves the fitted model as it was
    with pytest.raises(ValueError, match="budgeted solvers"):
        AutoSVC(solvers=("exact",)).fit_stream(_Chunks(blocks), n_features=4)
    with pytest.raises(ValueError, match="no rows"):
        AutoSVC().fit_stream(_Chunks([]), n_features=4)


def test_reservoir_sample_is_uniform():
    from budgetsvm.estimators.auto import reservoir_sample

    counts = np.zeros(100)
    for seed in range(300):
        chunks = [(np.arange(i, i + 10, dtype=float)[:, None], np.arange(i, i + 10)) for i in range(0, 100, 10)]
        X, y, n = reservoir_sample(chunks, 20, 1, np.random.RandomState(seed))
        assert n == 100 and len(np.unique(y)) == 20 and (X[:, 0] == y).all()
        counts[y] += 1
    # each row is kept with probability 20 / 100: 60 of 300 draws (sd 6.9)
    assert counts.min() > 30 and counts.max() < 90
    assert abs(counts[:50].sum() - counts[50:].sum()) < 0.1 * counts.sum()
