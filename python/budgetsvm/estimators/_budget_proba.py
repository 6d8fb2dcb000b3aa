"""Probability estimates of :class:`~budgetsvm.BudgetedSVC` (``probability=True``).

LIBSVM's calibration procedure on the budgeted model's outputs, with the
sigmoids chosen so that the most probable class is the predicted one:

* **out-of-fold outputs**: the estimator with the same settings is trained
  on ``FOLDS`` stratified folds (:func:`fold_plan`), and every row's outputs
  ``f_k`` come from the model that did not see it (a binary model's one
  output ``f``, positive for ``classes_[1]``, is read as ``f_0 = 0``,
  ``f_1 = f``).
* **one slope**: ``P(k | x) = exp(a f_k) / sum_j exp(a f_j)`` with ``a >= 0``
  fitted on those outputs (``_platt.temperature_fit``: Platt's regularised
  targets, generalised to ``k`` classes). Two classes: Platt's sigmoid
  ``P(classes_[1] | x) = 1 / (1 + exp(-a f))`` with its offset ``B`` at 0.
* **as pairs**: the same model as SVC's sigmoids per class pair,
  ``P(i | i or j, x) = 1 / (1 + exp(A d_ij + B))`` on ``d_ij = f_i - f_j``
  (binary: ``d_01 = -f``), with ``A = -a`` and ``B = 0`` for every pair:
  these are ``probA_`` and ``probB_`` (SVC's meaning and order). Coupling
  such pairs (Wu, Lin and Weng 2004, method 2) returns the softmax above
  exactly, which :func:`probabilities` computes in closed form; sigmoids of
  any other shape (a model file's) are coupled by ``_platt.pairwise_coupling``.

Why one slope and no offset, where LIBSVM fits ``(A, B)`` per pair: the
probabilities then rank the classes as the outputs do, so the most probable
class is the predicted one (ties aside); on the benchmark sets the test
log-loss was about the same, lower on some sets and higher on others
(``docs/budgeted.md``, "Probability estimates", has the table).
"""

from __future__ import annotations

import numbers
from typing import Any, Iterator, Optional, Tuple

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state

from .._params import plain
from .._platt import pairwise_coupling, sigmoid_predict, temperature_fit

#: Folds of the internal cross-validation (as LIBSVM's -b 1).
FOLDS = 5

#: Parameters a fold's model does not take from the estimator: it is a new
#: model (no warm start), silent, reports nothing per epoch, and is not
#: calibrated itself.
FOLD_SETTINGS = dict(probability=False, warm_start=False, callback=None, verbose=0, instruments=False)


def check_probability(value: Any) -> bool:
    """``probability`` as a bool (``True``/``False``, numpy's included)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"probability must be True or False; got {value!r} of type {type(value).__name__}.")
    return bool(value)


def fold_seed(random_state: Any) -> int:
    """The seed of the folds and of the fold models: ``random_state`` itself
    when it is an int, else one int drawn from it (``None``: fresh)."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, (bool, np.bool_)):
        return int(random_state)
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def check_rows_per_class(classes: np.ndarray, y_index: np.ndarray) -> None:
    """Every class needs a row in each of the ``FOLDS`` folds."""
    counts = np.bincount(y_index, minlength=len(classes))
    few = np.flatnonzero(counts < FOLDS)
    if few.size:
        c = few[0]
        raise ValueError(
            f"probability=True calibrates on {FOLDS}-fold cross-validation and needs at least {FOLDS} rows of "
            f"every class; class {plain(classes[c])!r} has {int(counts[c])}. Use probability=False, or more data."
        )


def fold_plan(y_index: np.ndarray, seed: int) -> Iterator[Tuple[np.ndarray, np.ndarray]]:
    """The (train, test) rows of the folds: ``StratifiedKFold(FOLDS,
    shuffle=True, random_state=seed)`` on the class indices."""
    splitter = StratifiedKFold(n_splits=FOLDS, shuffle=True, random_state=seed)
    return splitter.split(np.zeros((y_index.size, 1)), y_index)


def pair_decisions(scores: np.ndarray, n_classes: int) -> np.ndarray:
    """``d_ij = f_i - f_j`` for the pairs ``i < j`` in SVC's order, one
    column each; ``scores``: the model's outputs, one column per output."""
    scores = np.asarray(scores, dtype=np.float64).reshape(scores.shape[0], -1)
    if n_classes == 2:
        return -scores[:, :1]
    first, second = np.triu_indices(n_classes, 1)
    return scores[:, first] - scores[:, second]


def out_of_fold_scores(est: Any, X: Any, y_index: np.ndarray, class_weight: np.ndarray,
                       sample_weight: Optional[np.ndarray], seed: int) -> np.ndarray:
    """The model's outputs for every row of ``X``, each from the fold model
    that did not train on it (``FOLD_SETTINGS``, ``class_weight`` as the
    fitted factors, ``random_state=seed``)."""
    n_classes = class_weight.size
    settings = dict(FOLD_SETTINGS, random_state=seed,
                    class_weight={c: float(w) for c, w in enumerate(class_weight)})
    scores = np.empty((y_index.size, 1 if n_classes == 2 else n_classes))
    for train, test in fold_plan(y_index, seed):
        model = clone(est).set_params(**settings)
        weights = None if sample_weight is None else sample_weight[train]
        try:
            model.fit(X[train], y_index[train], sample_weight=weights)
        except ValueError as error:
            raise ValueError(f"probability=True: a model of the internal {FOLDS}-fold cross-validation cannot be "
                             f"fitted: {error}") from error
        scores[test] = np.asarray(model.decision_function(X[test])).reshape(test.size, -1)
    return scores


def binary_scores(scores: np.ndarray, n_classes: int) -> np.ndarray:
    """The outputs as one column per class (a binary model's ``f`` as ``(0, f)``)."""
    scores = np.asarray(scores, dtype=np.float64).reshape(scores.shape[0], -1)
    if n_classes == 2:
        return np.column_stack([np.zeros(scores.shape[0]), scores[:, 0]])
    return scores


def fit_sigmoids(scores: np.ndarray, y_index: np.ndarray, n_classes: int) -> Tuple[np.ndarray, np.ndarray]:
    """(probA_, probB_) from out-of-fold outputs: ``-a`` and 0 for every pair."""
    a = temperature_fit(binary_scores(scores, n_classes), y_index)
    n_pairs = n_classes * (n_classes - 1) // 2
    return np.full(n_pairs, -a), np.zeros(n_pairs)


def probabilities(scores: np.ndarray, prob_a: np.ndarray, prob_b: np.ndarray, n_classes: int) -> np.ndarray:
    """Class probabilities from the model's outputs and the pairs' sigmoids."""
    if n_classes == 2:
        r = sigmoid_predict(pair_decisions(scores, n_classes)[:, 0], prob_a[0], prob_b[0])
        return np.column_stack([r, 1.0 - r])
    if np.all(prob_b == 0.0) and np.all(prob_a == prob_a[0]):
        # consistent pairs: the coupling's solution is the softmax of -A f (Wu, Lin and Weng 2004)
        z = -prob_a[0] * np.asarray(scores, dtype=np.float64)
        P = np.exp(z - z.max(axis=1, keepdims=True))
        return P / P.sum(axis=1, keepdims=True)
    r = sigmoid_predict(pair_decisions(scores, n_classes), prob_a, prob_b)
    return pairwise_coupling(r, n_classes)
