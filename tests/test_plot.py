"""budgetsvm.plot: what is drawn is the model's (values read back from the artists)."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from budgetsvm import SVC, BudgetedSVC, LinearSVC  # noqa: E402
from budgetsvm.plot import plot_accuracy_by_epochs, plot_decision_surface, plot_history, plot_tuning  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def xor(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    return X, np.where(X[:, 0] * X[:, 1] > 0, "same", "diff")


def test_history_panels_hold_the_history():
    X, y = xor()
    clf = BudgetedSVC(budget=20, gamma=2.0, epochs=4, instruments=True, random_state=0).fit(X, y)
    axes = plot_history(clf)
    for ax, key in zip(axes, ("objective", "n_support", "merges", "progressive_loss")):
        x, values = ax.lines[0].get_data()
        np.testing.assert_array_equal(x, [1, 2, 3, 4])
        np.testing.assert_allclose(values, [h[key] for h in clf.history_])
    assert plot_history(clf.history_, keys=["sq_norm"])[0].get_title() == "sq_norm"


def test_history_errors():
    X, y = xor()
    clf = BudgetedSVC(budget=20, gamma=2.0, epochs=2, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="instruments=True"):
        plot_history(clf, keys=["objective"])
    with pytest.raises(ValueError, match="no entries"):
        plot_history(clf, keys=["accuracy"])
    with pytest.raises(ValueError, match="empty"):
        plot_history([])
    with pytest.raises(ValueError, match="axes"):
        plot_history(clf, keys=["merges"], axes=[])


def test_accuracy_by_epochs_is_the_fits_score():
    X, y = xor(600)
    est = BudgetedSVC(budget=20, gamma=2.0, random_state=0)
    ax = plot_accuracy_by_epochs(est, X[:400], y[:400], X[400:], y[400:], epochs=(1, 3))
    x, scores = ax.lines[0].get_data()
    expected = [
        BudgetedSVC(budget=20, gamma=2.0, random_state=0, epochs=e).fit(X[:400], y[:400]).score(X[400:], y[400:])
        for e in (1, 3)
    ]
    np.testing.assert_array_equal(x, [1, 3])
    np.testing.assert_allclose(scores, expected)
    with pytest.raises(ValueError, match="positive integers"):
        plot_accuracy_by_epochs(est, X, y, X, y, epochs=(0,))


@pytest.mark.parametrize("make", [lambda: BudgetedSVC(budget=20, gamma=2.0, random_state=0),
                                  lambda: SVC(gamma=2.0), lambda: LinearSVC()])
def test_decision_surface(make):
    X, y = xor()
    clf = make().fit(X, y)
    ax = plot_decision_surface(clf, X, y, resolution=30)
    assert ax.collections  # the filled surface and the points
    # multi-class: the predicted class is drawn
    y3 = np.digitize(X[:, 0], [-0.3, 0.3])
    plot_decision_surface(make().fit(X, y3), X, y3, resolution=30)


def test_decision_surface_errors():
    X, y = xor()
    clf = BudgetedSVC(budget=20, gamma=2.0, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="2-d data"):
        plot_decision_surface(clf, np.c_[X, X[:, :1]])
    with pytest.raises(ValueError, match="resolution"):
        plot_decision_surface(clf, X, resolution=1)


def test_tuning_draws_the_report():
    from budgetsvm import AutoSVC

    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    auto = AutoSVC(time=5, random_state=0).fit(X, y)
    left, right = plot_tuning(auto)
    scored = [t for t in auto.report_.trials if t["stage"] != "final"]
    drawn = np.concatenate([c.get_offsets() for c in left.collections[:-1]])  # the last: the chosen circles
    assert len(drawn) == len(scored)
    assert sorted(drawn[:, 1].tolist()) == pytest.approx(sorted(100 * t["validation_accuracy"] for t in scored))
    assert [p.get_width() for p in right.patches] == pytest.approx([s["seconds"] for s in auto.report_.stages])
    with pytest.raises(ValueError, match="no scored fit"):
        plot_tuning(AutoSVC())
    plt.close("all")
