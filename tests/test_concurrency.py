"""Fitted state is published in one step (python/budgetsvm/_atomic.py).

A ``predict`` running while another thread re-fits the same estimator must
return the old model's predictions or the new model's, never a mix of the
two, and never fail; a failed ``fit`` must leave the estimator as it was.
"""

import threading

import numpy as np
import pytest
from sklearn.base import clone

from budgetsvm import SVC, BudgetedSVC, LinearSVC


def _two_problems(n_classes: int):
    rng = np.random.RandomState(0)
    X = rng.randn(600, 6)
    # two labelings that disagree on many rows, with different class counts
    # (so every fitted array changes shape between the two models)
    y_a = np.digitize(X[:, 0] + 0.5 * X[:, 1], np.linspace(-1, 1, n_classes - 1))
    y_b = np.digitize(X[:, 2] - X[:, 3] * X[:, 4], np.linspace(-1, 1, n_classes))
    return X, y_a, y_b


ESTIMATORS = [
    ("svc", SVC(C=1.0)),
    ("linear", LinearSVC(C=1.0, random_state=0)),
    ("budgeted", BudgetedSVC(budget=40, epochs=1, gamma=0.5, random_state=0)),
]


@pytest.mark.parametrize("name, est", ESTIMATORS, ids=[n for n, _ in ESTIMATORS])
def test_predict_during_refits_sees_one_model(name, est):
    X, y_a, y_b = _two_problems(3)
    Xq = X[:200]
    model_a, model_b = clone(est).fit(X, y_a), clone(est).fit(X, y_b)
    expected = [model_a.predict(Xq), model_b.predict(Xq)]
    assert not np.array_equal(expected[0], expected[1])
    shared = clone(est).fit(X, y_a)
    stop = threading.Event()
    seen, errors = [0, 0], []

    def refit() -> None:
        try:
            for i in range(12):
                shared.fit(X, y_b if i % 2 == 0 else y_a)
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)
        finally:
            stop.set()

    def read() -> None:
        try:
            while not stop.is_set():
                got = shared.predict(Xq)
                match = [np.array_equal(got, e) for e in expected]
                if not any(match):
                    errors.append(AssertionError(f"a prediction matching neither model: {got[:10]}"))
                    return
                seen[match.index(True)] += 1
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=refit), threading.Thread(target=read), threading.Thread(target=read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert sum(seen) > 0
    # the last fit (i = 11) used y_a: the published model is model_a's
    np.testing.assert_array_equal(shared.predict(Xq), expected[0])


@pytest.mark.parametrize("name, est", ESTIMATORS, ids=[n for n, _ in ESTIMATORS])
def test_failed_fit_publishes_nothing(name, est):
    X, y_a, _ = _two_problems(3)
    fitted = clone(est).fit(X, y_a)
    state = dict(vars(fitted))
    before = fitted.decision_function(X[:50])
    bad = X.copy()
    bad[5, 2] = np.nan
    with pytest.raises(ValueError):
        fitted.fit(bad, y_a)
    assert vars(fitted).keys() == state.keys()
    assert all(vars(fitted)[k] is v for k, v in state.items())
    np.testing.assert_array_equal(fitted.decision_function(X[:50]), before)


def test_fit_returns_the_estimator_itself():
    X, y_a, _ = _two_problems(2)
    for est in (SVC(), LinearSVC(), BudgetedSVC(budget=20, epochs=1, random_state=0)):
        assert est.fit(X, y_a) is est
        assert hasattr(est, "classes_")
    clf = BudgetedSVC(budget=20, random_state=0)
    assert clf.partial_fit(X[:100], y_a[:100], classes=[0, 1]) is clf
    assert clf.n_samples_seen_ == 100
