"""BudgetedSVC on noisy data, per-sample C, the intercept and the instruments.

The regression test is issue 10's failure in small: one pass of BSCA over a
noisy problem at large C. Before the growing first pass and the capped
averaging window, BSCA's single pass scored 61-67% here (the average of the
whole epoch started from the empty model) where BSGD scores 68-72%; now it
is at least on a par with BSGD.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.utils import check_random_state

from budgetsvm import BudgetedSVC, _core


def noisy_xor(n, seed, noise=0.10, test=False):
    """20 standard normal features, a non-linear rule on seven of them, a
    `noise` fraction of the labels flipped (bench/datagen.py's xor20)."""
    rng = np.random.default_rng([seed, 99] if test else [seed])
    X = rng.standard_normal((n, 20))
    score = X[:, 0] * X[:, 1] + np.sin(2 * X[:, 2]) + 0.5 * (X[:, 3] ** 2 - 1) + 0.3 * X[:, 4] * X[:, 5] * X[:, 6]
    y = np.where(score > 0, 1, -1)
    flip = rng.random(n) < noise
    y[flip] = -y[flip]
    return X, y


@pytest.fixture(scope="module")
def xor_data():
    X, y = noisy_xor(30_000, 0)
    Xt, yt = noisy_xor(20_000, 0, test=True)
    return X, y, Xt, yt


@pytest.mark.parametrize("C", [1.0, 10.0])
def test_single_pass_bsca_at_large_C_keeps_up_with_bsgd(xor_data, C):
    X, y, Xt, yt = xor_data
    bsca = np.median([BudgetedSVC(solver="bsca", C=C, gamma=0.05, epochs=1, random_state=s).fit(X, y).score(Xt, yt)
                      for s in (1, 2, 3)])
    bsgd = np.median([BudgetedSVC(solver="bsgd", C=C, gamma=0.05, epochs=1, random_state=s).fit(X, y).score(Xt, yt)
                      for s in (1, 2, 3)])
    # measured (seeds 1-3): C = 1: BSCA 72.8-73.7%, BSGD 69.1-71.6%; C = 10: BSCA 71.0-72.0%,
    # BSGD 68.2-69.2%. The code before issue 10: BSCA 64.1-67.4% and 60.7-62.4%: both asserts fail.
    assert bsca >= bsgd - 0.005, (bsca, bsgd)
    assert bsca > 0.68, bsca


def test_more_epochs_do_not_lose_accuracy_at_large_C(xor_data):
    X, y, Xt, yt = xor_data
    acc = {e: np.median([BudgetedSVC(C=8.0, gamma=0.05, epochs=e, random_state=s).fit(X, y).score(Xt, yt)
                         for s in (1, 2)]) for e in (3, 10)}
    # measured 70.9% -> 73.4%; the code before issue 10 (alpha restarted at 0 after a merge, the
    # first pass from alpha = 0): 68.6% -> 68.7%, and the last assert fails
    assert acc[10] >= acc[3] - 0.005, acc
    assert acc[10] > 0.71, acc


def test_sample_weight_scales_C(xor_data):
    X, y = xor_data[0][:3000], xor_data[1][:3000]
    for solver in ("bsca", "bsgd"):
        a = BudgetedSVC(solver=solver, C=2.0, budget=50, gamma=0.05, epochs=2, random_state=0).fit(X, y)
        b = BudgetedSVC(solver=solver, C=1.0, budget=50, gamma=0.05, epochs=2, random_state=0).fit(
            X, y, sample_weight=np.full(len(y), 2.0))
        np.testing.assert_allclose(a.decision_function(X[:200]), b.decision_function(X[:200]), rtol=1e-6, atol=1e-8)


def test_class_weight_equals_sample_weight_and_zero_weight_leaves_rows_out(xor_data):
    X, y = xor_data[0][:3000], xor_data[1][:3000]
    a = BudgetedSVC(C=1.0, budget=50, gamma=0.05, epochs=2, class_weight={-1: 1.0, 1: 3.0}, random_state=0).fit(X, y)
    weights = np.where(y == 1, 3.0, 1.0)
    b = BudgetedSVC(C=1.0, budget=50, gamma=0.05, epochs=2, random_state=0).fit(X, y, sample_weight=weights)
    np.testing.assert_array_equal(a.decision_function(X[:200]), b.decision_function(X[:200]))
    np.testing.assert_array_equal(a.class_weight_, [1.0, 3.0])
    # rows of weight 0 are not part of the problem: no step is taken on them
    w = np.ones(len(y))
    w[::2] = 0.0
    c = BudgetedSVC(C=1.0, budget=50, gamma=0.05, epochs=2, random_state=0).fit(X, y, sample_weight=w)
    assert c.fit_stats_["steps"] == 2 * (len(y) // 2)
    balanced = BudgetedSVC(C=1.0, budget=50, gamma=0.05, epochs=1, class_weight="balanced", random_state=0).fit(X, y)
    assert balanced.class_weight_.shape == (2,)


@pytest.mark.parametrize("bad, match", [
    (np.full(3000, np.nan), "NaN or infinity"),
    (-np.ones(3000), ">= 0"),
    (np.ones(10), "shape"),
    (np.zeros(3000), "all samples have zero"),
    ("one class", "two classes"),
])
def test_bad_sample_weight(xor_data, bad, match):
    X, y = xor_data[0][:3000], xor_data[1][:3000]
    if isinstance(bad, str):
        bad = np.where(y == 1, 1.0, 0.0)
    with pytest.raises(ValueError, match=match):
        BudgetedSVC(budget=20, epochs=1).fit(X, y, sample_weight=bad)


def test_bad_class_weight(xor_data):
    X, y = xor_data[0][:500], xor_data[1][:500]
    with pytest.raises(ValueError, match="class_weight"):
        BudgetedSVC(budget=20, epochs=1, class_weight="uniform").fit(X, y)
    with pytest.raises(TypeError, match="fit_intercept"):
        BudgetedSVC(budget=20, epochs=1, fit_intercept="yes").fit(X, y)


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_intercept(solver):
    # an offset problem: the class boundary is x0 = 2, far from the origin
    rng = np.random.default_rng(3)
    X = rng.uniform(0, 4, size=(4000, 2))
    y = (X[:, 0] > 2).astype(int)
    on = BudgetedSVC(solver=solver, budget=30, C=1.0, gamma=0.5, fit_intercept=True, random_state=0).fit(X, y)
    off = BudgetedSVC(solver=solver, budget=30, C=1.0, gamma=0.5, random_state=0).fit(X, y)
    assert on.intercept_.shape == (1,) and on.intercept_[0] != 0.0
    np.testing.assert_array_equal(off.intercept_, [0.0])
    # the decision function is the kernel expansion plus the intercept
    K = np.exp(-0.5 * ((X[:50, None, :] - on.support_vectors_[None]) ** 2).sum(-1))
    expected = K @ on.dual_coef_[0] + on.intercept_[0]
    np.testing.assert_allclose(on.decision_function(X[:50]), expected, rtol=1e-9, atol=1e-9)
    assert on.score(X, y) > 0.97


def test_instruments(xor_data):
    X, y = xor_data[0][:4000], xor_data[1][:4000]
    plain = BudgetedSVC(C=1.0, budget=50, gamma=0.05, epochs=4, random_state=0).fit(X, y)
    assert all(np.isnan(h["objective"]) and h["alpha_zero"] == -1 for h in plain.history_)
    assert all(h["progressive_loss"] > 0 for h in plain.history_)
    inst = BudgetedSVC(C=1.0, budget=50, gamma=0.05, epochs=4, random_state=0, instruments=True).fit(X, y)
    np.testing.assert_array_equal(plain.dual_coef_, inst.dual_coef_)  # instruments do not change training
    objective = [h["objective"] for h in inst.history_]
    assert all(np.isfinite(objective))
    assert objective[-1] < objective[0]  # the averaged last epoch beats the first pass
    last = inst.history_[-1]
    assert last["alpha_zero"] + last["alpha_bound"] + last["alpha_free"] == 4000
    assert inst.fit_stats_["merge_degradation"] > 0 and inst.fit_stats_["merge_partner_weight"] > 0
    # the average of the last epoch was compared with the last iterate and kept
    assert inst.fit_stats_["averaged"] == 1
    stopped = BudgetedSVC(C=1.0, budget=50, gamma=0.05, epochs=4, random_state=0, callback=lambda s: True).fit(X, y)
    assert stopped.fit_stats_["averaged"] == 0 and stopped.fit_stats_["stopped_early"]


def test_overflowing_weights_raise_value_error():
    # C so large that BSGD's steps overflow: scikit-learn's message, never NaN coefficients
    X, y = noisy_xor(500, 1)
    with pytest.raises(ValueError, match="not finite"):
        BudgetedSVC(solver="bsgd", C=1e308, budget=10, gamma=0.05, epochs=2, random_state=0).fit(X, y)
    # BSCA's steps are bounded by the margin, not by C: a finite model
    clf = BudgetedSVC(solver="bsca", C=1e308, budget=10, gamma=0.05, epochs=2, random_state=0).fit(X, y)
    assert np.all(np.isfinite(clf.dual_coef_)) and clf.score(X, y) > 0.5
    # one class left (after label noise, say): a clear error
    with pytest.raises(ValueError, match="at least 2 classes"):
        BudgetedSVC(budget=10).fit(X, np.ones(len(y)))


def test_unreachable_gss_tolerance_is_rejected_not_a_hang():
    # issue 15, item 3: gss_eps = 1e-20 looped for ever (the interval on [0, 1] stops shrinking in float64)
    from budgetsvm import merge_solution

    with pytest.raises(ValueError, match="eps"):
        merge_solution(0.3, 0.5, method="gss", eps=1e-20)
    X, y = noisy_xor(300, 2)
    with pytest.raises(ValueError, match="gss_eps"):
        BudgetedSVC(merge_method="gss", gss_eps=1e-20, budget=10, epochs=1).fit(X, y)
    h, wd = merge_solution(0.3, 0.5, method="gss", eps=1e-12)  # the smallest accepted tolerance returns
    assert 0.0 <= h <= 1.0 and wd >= 0.0


def test_threads_are_capped_at_the_cores(monkeypatch):
    # issue 15, item 6: SVC(n_jobs=1000) started 1000 threads on 2 cores
    import joblib

    import budgetsvm._params

    from budgetsvm._params import effective_n_jobs

    cores = joblib.cpu_count()
    assert effective_n_jobs(1000) == cores
    assert effective_n_jobs(-1) == cores
    assert effective_n_jobs(None) == 1
    X, y = noisy_xor(400, 3)
    # shards=1000 splits a binary problem into 1000 shards (as given: at most one per row), run by
    # n_jobs=1000 threads, as many as there are cores; the model depends on neither n_jobs nor the cores
    a = BudgetedSVC(budget=20, epochs=2, random_state=0, shards=1000, n_jobs=1000).fit(X, y)
    a1 = BudgetedSVC(budget=20, epochs=2, random_state=0, n_jobs=1000).fit(X, y)
    monkeypatch.setattr(budgetsvm._params.joblib, "cpu_count", lambda: 1)
    assert effective_n_jobs(1000) == 1
    b = BudgetedSVC(budget=20, epochs=2, random_state=0, shards=1000, n_jobs=1000).fit(X, y)
    b1 = BudgetedSVC(budget=20, epochs=2, random_state=0, n_jobs=1).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(a1.decision_function(X), b1.decision_function(X))


def _machine_seed(random_state):
    """The seed of a binary BSCA machine of BudgetedSVC(random_state=...):
    the estimator's core seed, then the first draw of the core's Random
    (xoshiro256** seeded through splitmix64, core/random.hpp)."""
    mask = (1 << 64) - 1
    x = int(check_random_state(random_state).randint(np.iinfo(np.int64).max, dtype=np.int64))
    state = []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        state.append(z ^ (z >> 31))
    v = (state[1] * 5) & mask
    return ((((v << 7) | (v >> 57)) & mask) * 9) & mask


def _last_iterate(X, y, C, gamma, budget, epochs, random_state):
    """The same BSCA run's last iterate: the run as one shard round of a run
    one epoch longer (shards.hpp), whose average and settle come after it."""
    params = dict(C=C, gamma=gamma, budget=budget, epochs=epochs, seed=_machine_seed(random_state))
    labels = (y == np.max(y)).astype(np.int32)
    X = np.ascontiguousarray(X, dtype=np.float64)
    out = _core.bsca_shard_round(X, labels, params, None, np.zeros(len(X)), float(len(X)), 1, epochs + 1)
    return out["support_vectors"], out["dual_coef"][:, 0]


def _gaussian(A, B, gamma):
    sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T
    return np.exp(-gamma * np.maximum(sq, 0.0))


def _settle_objective(model, X, y, C, gamma, sample=10_000):
    """The primal objective the settle compares (bsca.hpp): 1/2 ||w||^2 plus C
    times the hinge losses on its evenly spaced sample, scaled to all rows."""
    n = len(X)
    m = min(n, sample)
    rows = (np.arange(m) * (n / m)).astype(np.int64)
    sv, beta = model if isinstance(model, tuple) else (model.support_vectors_, model.dual_coef_[0])
    signs = np.where(y[rows] == np.max(y), 1.0, -1.0)
    hinge = np.maximum(0.0, 1.0 - signs * (_gaussian(X[rows], sv, gamma) @ beta))
    return 0.5 * beta @ _gaussian(sv, sv, gamma) @ beta + C * hinge.sum() * n / m


def _overlap(n, seed):
    """Class overlap: labels drawn from P(y = 1 | x) = sigmoid(3 (x0 x1 + sin 2 x2))."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 8))
    p = 1.0 / (1.0 + np.exp(-3.0 * (X[:, 0] * X[:, 1] + np.sin(2.0 * X[:, 2]))))
    return X, np.where(rng.random(n) < p, 1, -1)


def test_single_pass_returns_the_better_of_its_average_and_last_iterate():
    # One pass on class-overlap data: on some seeds the windowed average ends
    # above the last iterate in primal objective (measured before the settle
    # covered the single pass: 5 of the 8 seeds below), on others below. The
    # settle compares the two on every row (< 2,000 rows: one look at all).
    X, y = _overlap(1500, 0)
    C, gamma = 0.1, 0.1
    seeds = [s for s in range(20) if _machine_seed(s) <= np.iinfo(np.int64).max][:8]
    kept = []
    for s in seeds:
        kw = dict(C=C, gamma=gamma, budget=50, epochs=1, random_state=s)
        out = BudgetedSVC(**kw).fit(X, y)
        sv, beta = _last_iterate(X, y, **kw)
        kept.append(out.fit_stats_["averaged"])
        if kept[-1]:
            assert _settle_objective(out, X, y, C, gamma) <= _settle_objective((sv, beta), X, y, C, gamma) * (1 + 1e-12)
        else:  # dropped: the last iterate, bit for bit
            np.testing.assert_array_equal(out.dual_coef_[0], beta)
            np.testing.assert_array_equal(out.support_vectors_, sv)
    assert 0 < sum(kept) < len(seeds)  # both outcomes occur: the test tells the two apart


@pytest.mark.parametrize(
    "C, gamma, budget, epochs, kept",
    [(8.0, 0.05, 50, 4, True), (32.0, 0.2, 500, 8, False)],  # measured: kept, and not kept
)
def test_settle_keeps_the_average_only_where_its_objective_is_lower(xor_data, C, gamma, budget, epochs, kept):
    # 8,000 rows: the settle's sample is every row, looked at by quarters and halves first
    X, y = xor_data[0][:8000], xor_data[1][:8000]
    kw = dict(C=C, gamma=gamma, budget=budget, epochs=epochs, random_state=0)
    out = BudgetedSVC(**kw).fit(X, y)
    sv, beta = _last_iterate(X, y, **kw)  # the same iterate: the average never feeds back
    assert out.fit_stats_["averaged"] == int(kept)
    if kept:
        assert not np.array_equal(out.dual_coef_[0], beta)
        assert _settle_objective(out, X, y, C, gamma) <= _settle_objective((sv, beta), X, y, C, gamma)
    else:  # the average dropped: the exported model is the last iterate, bit for bit
        np.testing.assert_array_equal(out.dual_coef_[0], beta)
        np.testing.assert_array_equal(out.support_vectors_, sv)
