"""``budgetsvm train`` on data in memory: the fit with its progress, and
``-v K`` cross-validation.

A ``BudgetedSVC`` fit reports every epoch through its ``callback``, so its
progress has a total (the epochs; ``fold i/K`` too under ``-v``) and an
ETA. ``SVC`` and ``LinearSVC`` do not report before they finish: under
``-v`` their progress is counted in folds.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, Optional

import numpy as np

from ._progress import Progress


def epochs_of(est: type, kwargs: Dict[str, Any]) -> Optional[int]:
    """The epochs a fit of ``est(**kwargs)`` runs (the estimator's default
    unless given), or None for an estimator without epochs."""
    param = inspect.signature(est).parameters.get("epochs")
    if param is None:
        return None
    value = kwargs.get("epochs", param.default)
    return value if isinstance(value, int) and value > 0 else None  # a bad value: the estimator says so


def _epoch_callback(progress: Progress, epochs: int, prefix: str) -> Callable[[Dict[str, Any]], bool]:
    def callback(stats: Dict[str, Any]) -> bool:
        done = int(stats["epoch"])
        progress.mark(f"{int(stats['n_support'])} support vectors", advance=1)
        if done < epochs:
            progress.describe(f"{prefix}epoch {done + 1}/{epochs}")
        return False

    return callback


def fit(est: type, kwargs: Dict[str, Any], X: Any, y: Optional[np.ndarray], progress: Optional[Progress],
        prefix: str = "") -> Any:
    """``est(**kwargs).fit(X, y)`` (``y`` None: a one-class fit), a budgeted fit's epochs shown by ``progress``
    (as ``{prefix}epoch 2/3``); the model keeps no callback."""
    epochs = epochs_of(est, kwargs)
    if progress is None or progress.mode == "off" or epochs is None:
        return est(**kwargs).fit(X, y)
    progress.describe(f"{prefix}epoch 1/{epochs}")
    clf = est(**kwargs, callback=_epoch_callback(progress, epochs, prefix)).fit(X, y)
    clf.set_params(callback=None)  # not part of the saved model
    return clf


def check_folds(k: int, rows: Optional[int], data: str) -> None:
    """``-v K`` needs 2 <= K <= the rows (when known)."""
    if k < 2:
        raise ValueError(f"-v needs at least 2 folds; got {k}")
    if rows is not None and k > rows:
        raise ValueError(f"-v {k}: {data} has {rows} rows, fewer than the {k} folds")


def cross_validate(est: type, kwargs: Dict[str, Any], X: Any, y: np.ndarray, k: int, seed: int, mode: str,
                   data: str, kind: str = "classification") -> Any:
    """K-fold cross-validation, shuffled by ``seed``; every fold's score is
    shown as it finishes. ``kind``: ``"classification"`` (stratified folds;
    returns (correct, rows)), ``"one-class"`` (plain folds, each model fitted
    on its rows alone and compared with the file's labels as +1 / -1; returns
    (correct, rows)) or ``"regression"`` (plain folds; returns the
    out-of-fold predictions, one per row)."""
    from sklearn.model_selection import KFold, StratifiedKFold

    check_folds(k, X.shape[0], data)
    epochs = epochs_of(est, kwargs)
    per_fold = epochs or 1
    correct = 0
    predicted = np.zeros(X.shape[0])
    folds = (StratifiedKFold if kind == "classification" else KFold)(n_splits=k, shuffle=True, random_state=seed)
    with Progress(mode, k * per_fold, f"fold 1/{k}") as progress:
        for fold, (train, test) in enumerate(folds.split(np.zeros(len(y)), y)):
            name = f"fold {fold + 1}/{k}"
            progress.describe(name)
            model = fit(est, kwargs, X[train], None if kind == "one-class" else y[train], progress,
                        prefix=f"{name}, ")
            if kind == "regression":
                predicted[test] = model.predict(X[test])
                error = float(np.mean((predicted[test] - y[test]) ** 2))
                summary = f"mean squared error {error:g}"
            else:
                right = int(np.sum(model.predict(X[test]) == y[test]))
                correct += right
                summary = f"accuracy {100 * right / len(test):g}% ({right}/{len(test)})"
            progress.mark(summary, advance=0 if epochs else 1, desc=name)
    return predicted if kind == "regression" else (correct, X.shape[0])
