"""The tasks of :class:`budgetsvm.dask.BudgetedSVC`: what runs on the workers.

Each partition's pass of the budgeted core from the common model
(``_partition_pass``, also where binary BSCA keeps its dual variables on the
worker), the label counts, the pairwise mixes up the tree (``_mix_pair``,
``_tree_mix``) and the prediction of a block; the algorithm is described in
``budgetsvm.dask`` and docs/dask.md.
"""

from __future__ import annotations

import functools
import time
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

# The one place that imports dask for budgetsvm.dask and its modules, with
# the message that names the extra to install.
try:
    import dask
    import dask.array as da
    import dask.dataframe as dd  # noqa: F401  (for the modules that import it from here)
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "budgetsvm.dask needs dask: install the optional dependencies with `pip install budgetsvm[dask]`."
    ) from error

from .. import _core
from .._data import as_supported
from .._labels import index_in_classes
from .._magnitude import DBL_MAX, check_costs, check_finite_fit, check_kernel_magnitude
from .._params import check_sample_weight, plain

_NAME = "budgetsvm.dask.BudgetedSVC"  # in messages
COUNTER_KEYS = _core.fields("budget.Counters")  # summed up the mixing tree
MODEL_KEYS = ("support_vectors", "dual_coef", "intercept")  # a model's arrays, as tasks pass them on
# What every task returns, instead of a model, in a fit that guessed two
# classes where y has more (``_dask_rounds.run_rounds``).
NOT_BINARY = "not binary"


# ---------------------------------------------------------------- the tasks


def _checked_weights(w: Any) -> np.ndarray:
    """A partition's sample weights, by the estimators' one validator (a
    partition's weights may all be 0; ``_paired`` lined them up with the rows)."""
    w = np.asarray(w, dtype=np.float64).ravel()
    return check_sample_weight(w, w.shape[0], allow_negative=False, allow_all_zero=True)


def _partition_inputs(
    X: Any, y: Any, w: Any, classes: np.ndarray, class_weight: np.ndarray, params: Dict[str, Any]
) -> Optional[Tuple[Any, np.ndarray, Optional[np.ndarray]]]:
    """A partition's rows, class indices and factors of C (None: all 1),
    checked on the worker that holds it (its rows and y's: ``_paired``); None
    for an empty partition."""
    y = np.asarray(y).ravel()
    if X.shape[0] == 0:
        return None
    X = as_supported(X)  # non-finite, complex, non-numeric: a clear error here
    if params["kernel"] in ("rbf", "linear"):
        check_kernel_magnitude(X, params["kernel"], 1.0, 0, 0.0, DBL_MAX)
    else:
        check_kernel_magnitude(X, params["kernel"], params["gamma"], params["degree"], params["coef0"], DBL_MAX)
    y_index = index_in_classes(y, classes).astype(np.int32)
    factors = None
    if w is not None or not np.all(class_weight == 1.0):
        factors = class_weight[y_index].astype(np.float64)
        if w is not None:
            factors = np.ascontiguousarray(factors * _checked_weights(w))
    check_costs(_NAME, float(params["C"]), class_weight[y_index], w)
    return X, y_index, factors


def _part(result: Dict[str, Any], weight: float, rounds: List[Dict[str, Any]]) -> Dict[str, Any]:
    """What a partition's task sends up the mixing tree: its model, its mixing
    weight, its statistics, and the summaries of the earlier rounds' mixes
    that the tasks made themselves (``_start_of``)."""
    check_finite_fit(_NAME, **{f"{key}_": result[key] for key in MODEL_KEYS})  # before any mix reads it
    part = {key: result[key] for key in MODEL_KEYS}
    part["rounds"] = rounds
    part["weight"] = weight
    part["steps"] = int(result["steps_total"])
    part["loss"] = float(result["history"][-1]["progressive_loss"]) if result["history"] else 0.0
    part["averaged"] = int(result["averaged"])
    part["counters"] = {key: float(result[key]) for key in COUNTER_KEYS}
    return part


def _label_counts(y: Any) -> Tuple[np.ndarray, np.ndarray, bool]:
    """A partition's distinct labels, their counts, and whether every label is finite."""
    y = np.asarray(y).ravel()
    finite = bool(np.all(np.isfinite(y))) if y.dtype.kind in "fc" else True
    values, counts = np.unique(y, return_counts=True) if finite else (y[:0], np.zeros(0, dtype=np.int64))
    return values, counts, finite


def _label_count_tasks(y: da.Array) -> List[Any]:
    """One delayed ``_label_counts`` per partition of y."""
    count = dask.delayed(_label_counts, pure=True)
    return [count(b) for b in y.to_delayed().ravel()]


def _found_labels(per_chunk: Tuple[Tuple[np.ndarray, np.ndarray, bool], ...]) -> Tuple[np.ndarray, np.ndarray]:
    """The distinct labels of all partitions and their counts, from each
    partition's ``_label_counts``."""
    if not all(finite for _, _, finite in per_chunk):
        raise ValueError("y contains NaN or infinity; class labels must be finite.")
    seen = np.concatenate([values for values, _, _ in per_chunk])
    found, where = np.unique(seen, return_inverse=True)
    tally = np.bincount(where.ravel(), weights=np.concatenate([c for _, c, _ in per_chunk]), minlength=found.size)
    return found, tally


def _check_two_or_more(classes: np.ndarray) -> None:
    if classes.size < 2:
        raise ValueError(
            f"BudgetedSVC needs samples of at least 2 classes in the data; got {classes.size} class(es) "
            f"({[plain(c) for c in classes]})."
        )


def _binary_labels(*per_chunk: Tuple[np.ndarray, np.ndarray, bool]) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """A task: the classes found in y and, if there are two, their factors of
    C (1, no class_weight); (classes, None) for more than two. The fit that
    guesses a binary problem (``_dask_rounds.run_rounds``) gives it to every
    partition task, which stops at once on None."""
    classes, _ = _found_labels(per_chunk)
    _check_two_or_more(classes)
    return classes, (np.ones(2) if classes.size == 2 else None)


def _partition_points(y: Any, w: Any, class_weight: np.ndarray, classes: np.ndarray) -> int:
    """The rows of a partition in the problem (factor of C > 0)."""
    y = np.asarray(y).ravel()
    factors = class_weight[np.clip(np.searchsorted(classes, y), 0, len(classes) - 1)]
    if w is not None:
        factors = factors * _checked_weights(w)
    return int(np.count_nonzero(factors > 0))


# What a partition's pass sends up the mixing tree (``_part``), or None, or ``NOT_BINARY``.
_Part = Union[Dict[str, Any], str, None]


def _partition_pass(
    X: Any,
    y: Any,
    w: Any,
    labels: Tuple[np.ndarray, Optional[np.ndarray]],
    params: Dict[str, Any],
    start: Any,
    seed: int,
    n: float,
    epochs: Optional[Tuple[int, int]] = None,
    previous: Optional[Tuple[Any, Optional[np.ndarray]]] = None,
) -> Union[_Part, Tuple[_Part, Optional[np.ndarray]]]:
    """One partition's pass (on the worker that holds it) from ``start`` (see
    ``_start_of``).

    Without ``epochs``, a pass of the budgeted core: the model it ends with
    and its statistics; None for an empty partition; ``NOT_BINARY`` where
    ``labels`` say so (``_binary_labels``).

    With ``epochs`` = (first epoch, total epochs), those epochs of binary BSCA
    that keeps its dual variables (on the worker, where they stay between
    rounds), starting from the dual variables of ``previous``, the
    partition's result of the round before (None in the first round): the
    model it ends with, weighted by its points, and its dual variables; (None,
    alpha) for a partition with no points in the problem; (``NOT_BINARY``,
    None) where ``labels`` say so."""
    alpha = None if previous is None else previous[1]
    classes, class_weight = labels
    if class_weight is None:
        return NOT_BINARY if epochs is None else (NOT_BINARY, None)
    begin, rounds = _start_of(start, n, params, len(classes))
    inputs = _partition_inputs(X, y, w, classes, class_weight, params)
    if inputs is None:
        return None if epochs is None else (None, alpha)
    X, y_index, factors = inputs
    p = dict(params, seed=int(seed))
    if epochs is None:
        result = _core.fit_budgeted(X, y_index, len(classes), p, None, factors, begin)
        return _part(result, float(X.shape[0]), rounds)
    if factors is not None and not np.any(factors > 0):
        return None, alpha
    if alpha is None:
        alpha = np.zeros(X.shape[0])
    first_epoch, total_epochs = epochs
    result = _core.bsca_shard_round(X, y_index, p, begin, alpha, n, first_epoch, total_epochs, factors)
    return _part(result, float(result["n_ref"]), rounds), result["alpha"]


def _not_binary(part: Any) -> bool:
    return isinstance(part, str) and part == NOT_BINARY


def _model_of(part: Any) -> Any:
    """A partition's model from what its task returned (a kept-dual round
    returns (model, alpha)), or a mix as it is."""
    return part[0] if isinstance(part, tuple) else part


def _next_start(mixed: Optional[Dict[str, Any]], n: float) -> Optional[Dict[str, Any]]:
    """The next round's starting point: a round's mixed model, for n points."""
    if mixed is None:
        return None
    start = {key: mixed[key] for key in (*MODEL_KEYS, "steps")}
    start.update(n_ref=n, n=n)
    return start


def _one_vs_rest(params: Dict[str, Any], n_classes: int) -> bool:
    """Whether the model is one machine per class, each mixed on its own
    budget (BSCA with more than two classes)."""
    return params["solver"] == "bsca" and n_classes > 2


def _start_of(
    begin: Any, n: float, params: Dict[str, Any], n_classes: int
) -> Tuple[Optional[Dict[str, Any]], List[Dict[str, Any]]]:
    """A round's starting point on the worker, and the summaries of the
    earlier rounds' mixes that the tasks made themselves.

    ``begin`` is the fit's own start (a dict with ``n``: cold, or a warm
    start's model), used as it is; the previous round's mix (or a lone
    partition's result), made a start by ``_next_start``; or a list of the
    two halves of the previous round's mixing tree, which the task mixes
    itself (``_fused_top``): every task of the round makes the same top mix,
    in place of a mix task that the round would wait for. Its summary (the
    statistics of ``history_``, not the model) then travels up the next
    round's tree with the models, so that the client reads every round from
    the last mix. The tasks read the mix themselves, so that no task runs
    between a mix and the next round's passes (each task costs a scheduler
    round trip)."""
    if begin is None or (isinstance(begin, dict) and "n" in begin):
        return begin, []
    if isinstance(begin, list):
        begin = _mix_pair(begin[0], begin[1], params, _one_vs_rest(params, n_classes))
        if begin is not None:
            summary = {key: value for key, value in begin.items() if key not in (*MODEL_KEYS, "rounds")}
            summary.update(n_support=int(begin["support_vectors"].shape[0]), finished=time.time())
            return _next_start(begin, n), begin["rounds"] + [summary]
    return _next_start(_model_of(begin), n), []


def _mix_pair(a: Optional[Dict[str, Any]], b: Optional[Dict[str, Any]], params: Dict[str, Any], ovr: bool):
    """The weighted mix of two partition models (or of two mixes); the weight
    (rows), loss and counters below are carried up the tree."""
    a, b = _model_of(a), _model_of(b)
    if a is None or b is None:
        return b if a is None else a
    if _not_binary(a) or _not_binary(b):
        return NOT_BINARY
    if params.get("shard_mix") == "union":  # every support vector kept: the union's size as the budget
        params = dict(params, budget=max(2, a["support_vectors"].shape[0] + b["support_vectors"].shape[0]))
    mixed = _core.mix_budgeted([a, b], params, one_vs_rest=ovr)
    out = {key: mixed[key] for key in MODEL_KEYS}
    out["weight"] = a["weight"] + b["weight"]
    out["steps"] = int(mixed["steps_total"])
    out["loss"] = a["loss"] + b["loss"]
    out["averaged"] = a["averaged"] + b["averaged"]
    out["mix_fallbacks"] = a.get("mix_fallbacks", 0) + b.get("mix_fallbacks", 0) + int(mixed["mix_fallbacks"])
    out["counters"] = {key: a["counters"][key] + b["counters"][key] + float(mixed[key]) for key in COUNTER_KEYS}
    out["rounds"] = a["rounds"]  # the same in every part
    return out


def _tree_mix(parts: List[Any], params: Dict[str, Any], ovr: bool, down_to: int = 1) -> List[Any]:
    """Delayed pairwise reduction of the partitions' models, in partition
    order, until ``down_to`` (1 or 2) parts are left: the top of the tree
    (one part), or its two halves (the last pair it would mix)."""
    mix = dask.delayed(functools.partial(_mix_pair, params=params, ovr=ovr), pure=True)
    while len(parts) > down_to:
        paired = [mix(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        if len(parts) % 2:
            paired.append(parts[-1])
        parts = paired
    return parts


def _block_decision(X: Any, model: Any) -> np.ndarray:
    if X.shape[0] == 0:  # an empty partition (e.g. after a filter): an empty result, as BudgetedSVC.decision_function
        return np.empty((0,) if model.dual_coef_.shape[0] == 1 else (0, len(model.classes_)))
    return model.decision_function(X)


def _block_predict(X: Any, model: Any) -> np.ndarray:
    if X.shape[0] == 0:
        return np.empty(0, dtype=model.classes_.dtype)
    return model.predict(X)


