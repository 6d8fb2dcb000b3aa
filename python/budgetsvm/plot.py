"""Plots of fitted models (matplotlib, an optional dependency).

- :func:`plot_history`: a budgeted model's per-epoch statistics
  (``history_``: objective, support vectors, merges, progressive loss).
- :func:`plot_accuracy_by_epochs`: test (or validation) accuracy against the
  number of epochs, each point a fit with that many epochs.
- :func:`plot_decision_surface`: the decision function of a model of 2-d
  data, with the training points and the support vectors.
- :func:`plot_tuning`: what :class:`~budgetsvm.AutoSVC` tried: each fit's
  held-out accuracy against its subsample's rows, and the seconds of each
  stage.

Each takes an optional matplotlib ``Axes`` (or a sequence of them) and
returns what it drew on. The examples draw on new figures of the current
backend (CI runs them with ``MPLBACKEND=Agg``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np
from sklearn.base import clone

HISTORY_KEYS = ("objective", "n_support", "merges", "progressive_loss")


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - matplotlib is a test dependency
        raise ImportError("budgetsvm.plot needs matplotlib: pip install matplotlib") from error
    return plt


def plot_history(
    history: Any, keys: Sequence[str] = HISTORY_KEYS, axes: Optional[Sequence[Any]] = None
) -> List[Any]:
    """Plot per-epoch statistics of a budgeted model, one panel per key.

    Parameters
    ----------
    history : BudgetedSVC or list of dict
        A fitted ``BudgetedSVC`` (its ``history_``) or such a list.
    keys : sequence of str, default=("objective", "n_support", "merges", "progressive_loss")
        Entries of ``history_`` to draw. ``objective`` is recorded only with
        ``instruments=True``; a key that is NaN in every epoch is an error.
    axes : sequence of matplotlib Axes, default=None
        One per key; new ones in a row when None.

    Returns
    -------
    axes : list of matplotlib Axes

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from budgetsvm import BudgetedSVC
    >>> from budgetsvm.plot import plot_history
    >>> X, y = make_moons(500, noise=0.2, random_state=0)
    >>> clf = BudgetedSVC(budget=20, gamma=2.0, epochs=4, instruments=True, random_state=0).fit(X, y)
    >>> [ax.get_title() for ax in plot_history(clf)]
    ['objective', 'n_support', 'merges', 'progressive_loss']
    """
    rows: List[Dict[str, Any]] = list(getattr(history, "history_", history))
    if not rows:
        raise ValueError("history is empty: fit the model first")
    keys = list(keys)
    unknown = [k for k in keys if k not in rows[0]]
    if unknown:
        raise ValueError(f"history has no entries {unknown}; it has {sorted(rows[0])}")
    if axes is None:
        _, created = _pyplot().subplots(1, len(keys), figsize=(3.2 * len(keys), 2.8), squeeze=False)
        axes = list(created[0])
    if len(axes) != len(keys):
        raise ValueError(f"got {len(axes)} axes for {len(keys)} keys")
    epochs = [int(r["epoch"]) for r in rows]
    for ax, key in zip(axes, keys):
        values = np.array([float(r[key]) for r in rows])
        if np.all(np.isnan(values)) or np.all(values < 0) and key.startswith("alpha_"):
            raise ValueError(f"{key} was not recorded (fit with instruments=True)")
        ax.plot(epochs, values, "o-")
        ax.set_title(key)
        ax.set_xlabel("epoch")
        ax.grid(True, alpha=0.3)
    return list(axes)


def plot_accuracy_by_epochs(
    estimator: Any, X: Any, y: Any, X_test: Any, y_test: Any, epochs: Sequence[int] = (1, 2, 3, 5), ax: Any = None
) -> Any:
    """Test accuracy against the number of epochs: one fit of a clone of
    ``estimator`` per entry of ``epochs`` (the cost is their sum).

    Parameters
    ----------
    estimator : BudgetedSVC
        Unfitted or fitted; only its parameters are used.
    X, y : training data
    X_test, y_test : the data the accuracy is measured on
    epochs : sequence of int, default=(1, 2, 3, 5)
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> from sklearn.datasets import make_circles
    >>> from budgetsvm import BudgetedSVC
    >>> from budgetsvm.plot import plot_accuracy_by_epochs
    >>> X, y = make_circles(600, noise=0.1, factor=0.5, random_state=0)  # train on 400, test on 200
    >>> ax = plot_accuracy_by_epochs(BudgetedSVC(budget=20, random_state=0), X[:400], y[:400],
    ...                              X[400:], y[400:], epochs=(1, 2))
    >>> ax.lines[0].get_xdata().tolist()
    [1, 2]
    """
    epochs = [int(e) for e in epochs]
    if not epochs or min(epochs) < 1:
        raise ValueError(f"epochs must be positive integers; got {epochs}")
    scores = [clone(estimator).set_params(epochs=e).fit(X, y).score(X_test, y_test) for e in epochs]
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(4, 3))
    ax.plot(epochs, scores, "o-")
    ax.set_xlabel("epochs")
    ax.set_ylabel("accuracy")
    ax.grid(True, alpha=0.3)
    return ax


def plot_decision_surface(
    estimator: Any, X: Any, y: Any = None, ax: Any = None, resolution: int = 200, support_vectors: bool = True
) -> Any:
    """The decision function of a fitted model of 2-d data over the data's
    bounding box, the zero level set, the points and the support vectors.

    Parameters
    ----------
    estimator : fitted SVC, LinearSVC or BudgetedSVC with 2 features
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,), default=None
        Colours the points by class when given.
    ax : matplotlib Axes, default=None
    resolution : int, default=200
        Grid points per axis (>= 2).
    support_vectors : bool, default=True
        Circle ``support_vectors_`` where the model has them.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from budgetsvm import LinearSVC
    >>> from budgetsvm.plot import plot_decision_surface
    >>> X, y = make_blobs(300, centers=3, random_state=0)  # three classes: the predicted class is drawn
    >>> ax = plot_decision_surface(LinearSVC().fit(X, y), X, y)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('x0', 'x1')
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"plot_decision_surface needs 2-d data; X has shape {X.shape}")
    if int(resolution) < 2:
        raise ValueError(f"resolution must be >= 2; got {resolution}")
    pad = 0.05 * (X.max(axis=0) - X.min(axis=0) + 1e-12)
    lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
    g0, g1 = np.meshgrid(np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution))
    scores = np.asarray(estimator.decision_function(np.c_[g0.ravel(), g1.ravel()]))
    binary = scores.ndim == 1
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(4, 4))
    if binary:  # the decision values and their zero level set
        ax.contourf(g0, g1, scores.reshape(g0.shape), levels=20, cmap="RdBu_r", alpha=0.6)
        ax.contour(g0, g1, scores.reshape(g0.shape), levels=[0.0], colors="k", linewidths=1)
    else:  # several classes: the predicted class
        winner = np.argmax(scores, axis=1).reshape(g0.shape)
        ax.contourf(g0, g1, winner, levels=np.arange(scores.shape[1] + 1) - 0.5, cmap="tab10", alpha=0.4)
    colours = None if y is None else np.unique(np.asarray(y), return_inverse=True)[1]
    ax.scatter(X[:, 0], X[:, 1], c=colours, s=8, cmap="coolwarm", edgecolors="none")
    sv = getattr(estimator, "support_vectors_", None)
    if support_vectors and sv is not None:
        sv = sv.toarray() if hasattr(sv, "toarray") else np.asarray(sv)
        ax.scatter(sv[:, 0], sv[:, 1], s=40, facecolors="none", edgecolors="k", linewidths=0.8)
    ax.set_xlabel("x0")
    ax.set_ylabel("x1")
    return ax


def plot_tuning(report: Any, axes: Optional[Sequence[Any]] = None) -> List[Any]:
    """Draw an :class:`~budgetsvm.AutoSVC` search: held-out accuracy against rows, and time per stage.

    The left panel has one point per fit of the search (``report.trials``,
    the final fit excepted: it has no held-out score), at its subsample's
    rows (log scale), coloured by solver, with the chosen settings' score
    circled; the right panel the seconds of each stage against the budget.

    Parameters
    ----------
    report : AutoSVC or TuningReport
        A fitted ``AutoSVC`` (its ``report_``) or the report itself.
    axes : sequence of two matplotlib Axes, default=None
        New ones side by side when None.

    Returns
    -------
    axes : list of matplotlib Axes

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import AutoSVC
    >>> from budgetsvm.plot import plot_tuning
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(3000, 2))
    >>> y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    >>> auto = AutoSVC(time=5, random_state=0).fit(X, y)
    >>> [ax.get_xlabel() for ax in plot_tuning(auto)]
    ['rows of the subsample', 'seconds']
    """
    report = getattr(report, "report_", report)
    trials = [t for t in getattr(report, "trials", []) if t["stage"] != "final"]
    if not trials:
        raise ValueError("the report holds no scored fit: fit the AutoSVC first")
    if axes is None:
        _, created = _pyplot().subplots(1, 2, figsize=(9.0, 3.2), squeeze=False)
        axes = list(created[0])
    if len(axes) != 2:
        raise ValueError(f"got {len(axes)} axes; plot_tuning draws on 2")
    left, right = axes
    for solver, marker in (("bsca", "o"), ("bsgd", "s"), ("exact", "^")):
        mine = [t for t in trials if t["solver"] == solver]
        if mine:
            left.scatter([t["rows"] for t in mine], [100 * t["validation_accuracy"] for t in mine], marker=marker,
                         label=solver, alpha=0.7)
    chosen = report.chosen
    best = [t for t in trials if t["C"] == chosen.get("C") and t["gamma"] == chosen.get("gamma")]
    if best:
        left.scatter([t["rows"] for t in best], [100 * t["validation_accuracy"] for t in best], s=120,
                     facecolors="none", edgecolors="black", label="chosen C, gamma")
    left.set_xscale("log")
    left.set_xlabel("rows of the subsample")
    left.set_ylabel("held-out accuracy (%)")
    left.legend(fontsize="small")
    left.grid(True, alpha=0.3)
    names = [s["name"] for s in report.stages]
    right.barh(names, [s["seconds"] for s in report.stages])
    right.axvline(report.time_budget, color="black", linestyle="--", label="budget")
    right.set_xlabel("seconds")
    right.legend(fontsize="small")
    return list(axes)
