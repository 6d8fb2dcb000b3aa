"""The input and the rounds of :class:`budgetsvm.dask.BudgetedSVC` (the client's side).

The input: X, y and sample_weight as dask arrays on the same row partitions,
the partitions with no rows left out (``_paired``). The rounds: each round's
partition tasks submitted, mixed up a tree, the mix the next round's start
(``run_rounds``; docs/dask.md).
"""

from __future__ import annotations

import functools
import math
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_class_weight

from .._params import check_class_weight_spec, check_class_weights, check_number
from ._dask_tasks import (  # dask itself through the import guard there
    COUNTER_KEYS,
    MODEL_KEYS,
    _binary_labels,
    _check_two_or_more,
    _found_labels,
    _label_count_tasks,
    _model_of,
    _next_start,
    _not_binary,
    _one_vs_rest,
    _partition_points,
    _partition_pass,
    _tree_mix,
    da,
    dask,
    dd,
)

# ---------------------------------------------------------------- input


def _is_dask(obj: Any) -> bool:
    return isinstance(obj, (da.Array, dd.DataFrame, dd.Series))


def _dask_rows(X: Any, name: str) -> Tuple[da.Array, Optional[np.ndarray]]:
    """A dask array (rows x features, one column block) and the column names of a dataframe."""
    names = None
    if isinstance(X, dd.DataFrame):
        names = np.asarray(X.columns, dtype=object)
        X = X.to_dask_array(lengths=True)
    elif isinstance(X, dd.Series):
        raise ValueError(f"{name} must be 2-D (rows x features); got a dask Series.")
    if not isinstance(X, da.Array):
        raise TypeError(
            f"budgetsvm.dask.BudgetedSVC.fit takes a dask array or dask dataframe; got {type(X).__name__} "
            "(use budgetsvm.BudgetedSVC for data in memory, or dask.array.from_array)."
        )
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (rows x features); got {X.ndim} dimensions.")
    if X.dtype.kind not in "biuf":
        kind = "complex" if X.dtype.kind == "c" else "non-numeric"
        error = TypeError if X.dtype.kind in "cOSUV" else ValueError
        raise error(f"{name} has {kind} dtype {X.dtype}; BudgetedSVC needs real numbers.")
    if X.shape[1] == 0:
        raise ValueError(f"{name} has 0 features; at least 1 is required.")
    if len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    if names is not None and not all(isinstance(c, str) for c in names):
        names = None
    return X, names


def _aligned(v: Any, X: da.Array, name: str) -> da.Array:
    """y or sample_weight as a 1-D dask array with the row chunks of X (known sizes; see ``_paired``)."""
    if isinstance(v, (dd.Series, dd.DataFrame)):
        if isinstance(v, dd.Series) and not isinstance(v.dtype, np.dtype):  # pandas' extension dtypes (string)
            v = v.astype(object)
        v = v.to_dask_array(lengths=True)
    if not isinstance(v, da.Array):
        v = np.asarray(v)
    if v.ndim == 2 and v.shape[1] == 1:
        v = v[:, 0]
    if v.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {v.shape}.")
    if isinstance(v, da.Array) and any(math.isnan(c) for c in v.chunks[0]):
        v = v.compute_chunk_sizes()
    if v.shape[0] != X.shape[0]:
        raise ValueError(f"{name} has {v.shape[0]} entries but X has {X.shape[0]} rows.")
    if not isinstance(v, da.Array):
        return da.from_array(v, chunks=(X.chunks[0],))
    return v if v.chunks[0] == X.chunks[0] else v.rechunk((X.chunks[0],))


def _paired(X: da.Array, y: Any, sample_weight: Any) -> Tuple[da.Array, da.Array, Optional[da.Array]]:
    """X, y and sample_weight (None: none) checked against each other: the one
    place where fit and score pair the rows, before any task sees them.

    The row partitions' sizes are computed where unknown (``nan`` chunks, e.g.
    after ``X[mask]``); y and sample_weight must have X's length (else a
    ``ValueError`` naming both lengths) and are put on X's row partitions
    (arrays in memory split to them, dask ones on other partitions split
    again: the rows pair by position). Partitions with no rows (common after
    a filter) are left out of all three, so that everything downstream (the
    label counts, the moments of ``gamma="scale"``, the number of
    partitions, their seeds and the mixing tree) sees the data as if they
    had been removed beforehand; no rows at all is scikit-learn's error.
    """
    if any(math.isnan(c) for c in X.chunks[0]):
        X = X.compute_chunk_sizes()
    if X.shape[0] == 0:
        raise ValueError(
            f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required by BudgetedSVC."
        )
    y = _aligned(y, X, "y")
    w = None if sample_weight is None else _aligned(sample_weight, X, "sample_weight")
    rows = [k for k, size in enumerate(X.chunks[0]) if size > 0]
    if len(rows) < len(X.chunks[0]):
        X, y = X.blocks[rows], y.blocks[rows]
        w = None if w is None else w.blocks[rows]
    return X, y, w


def _persist(*arrays: Any) -> Tuple[Any, ...]:
    """Keeps the arrays' partitions where they are computed (on the workers
    under a distributed client) for all the rounds."""
    return tuple(dask.persist(*arrays))


def run_rounds(X, y, w, classes, class_weight, params, start, rounds, verbose, warm, fused, random_state,
               callback) -> Dict[str, Any]:
    """The rounds: per-partition passes, tree mix, the mixed model as the next start.

    Binary BSCA from a cold start with the growing first pass keeps each
    partition's dual variables from round to round on its worker (the
    in-process shards' algorithm, ``budget/shards.hpp``); every other
    run starts each round's dual variables at 0.

    ``classes=None`` (``fused`` only, no weights): the rounds of a binary
    problem, every task taking the classes from a task that finds them in
    y (``_binary_labels``); the result holds ``classes``, and
    ``not_binary`` (no model) if y has more than two."""
    xs = X.to_delayed().ravel()
    ys = y.to_delayed().ravel()
    ws = [None] * len(xs) if w is None else list(w.to_delayed().ravel())
    guessed = classes is None
    assert fused or not guessed, "the classes are guessed only where every round is submitted at once"
    n_classes = 2 if guessed else len(classes)
    ovr = _one_vs_rest(params, n_classes)
    kept = params["solver"] == "bsca" and n_classes == 2 and not warm
    rng = check_random_state(random_state)
    # The arguments every task shares are bound once: a delayed call
    # tokenizes and walks each argument it is given.
    shared: Dict[str, Any] = dict(params=params)
    labels: Any = None
    if guessed:
        labels = dask.delayed(_binary_labels, pure=True)(*_label_count_tasks(y))
    else:
        shared["labels"] = (classes, class_weight)
    given = {} if labels is None else {"labels": labels}
    task = dask.delayed(functools.partial(_partition_pass, **shared), pure=True)
    n_points = float(X.shape[0])
    if not guessed and (w is not None or not np.all(class_weight == 1.0)):
        count = dask.delayed(_partition_points, pure=True)
        n_points = float(sum(dask.compute(*[count(ys[k], ws[k], class_weight, classes) for k in range(len(xs))])))
        if n_points == 0:  # the in-process estimator's words
            raise ValueError("Invalid input - all samples have zero or negative weights.")
    if kept:
        start = dict(start, n=n_points)  # the points of the problem, as the in-process shards count them
    previous: List[Any] = [None] * len(xs)  # kept: each partition's last (model, alpha)
    per_round = params["epochs"]

    def round_tasks(r: int, begin: Any) -> List[Any]:
        """Round r's partition tasks (delayed), from ``begin``."""
        # One seed per partition, in partition order: the partitions with
        # rows only (fit left the empty ones out, _paired), so an empty
        # partition takes no seed and the model is the one of the data
        # with the empty partitions removed beforehand.
        seeds = rng.randint(np.iinfo(np.int64).max, size=len(xs), dtype=np.int64)
        if kept:
            # The models go up the tree, the dual variables stay where
            # their round computed them as the next round's input there.
            first = (r - 1) * per_round + 1
            return [task(xs[k], ys[k], ws[k], start=begin if r > 1 else None, seed=int(seeds[k]), n=n_points,
                         epochs=(first, rounds * per_round), previous=previous[k], **given)
                    for k in range(len(xs))]
        return [task(xs[k], ys[k], ws[k], start=begin, seed=int(seeds[k]), n=start["n"], **given)
                for k in range(len(xs))]

    history: List[Dict[str, Any]] = []
    totals = {key: 0.0 for key in COUNTER_KEYS}
    fallbacks = 0  # the rounds' mixes that kept a partition's model (fit_stats_["mix_fallbacks"])
    began, began_wall = time.perf_counter(), time.time()
    mixed: Dict[str, Any] = {}
    stopped = False
    begin = dask.delayed(start, traverse=False)
    queued: List[Any] = []  # the rounds' mixes (or their summaries), not read yet
    submitted = 0
    if fused:
        # Nothing reads a round before the end: every round is submitted
        # at once, each round's tasks mixing the two halves of the round
        # before themselves (_start_of); the last round's mix, a task,
        # brings the earlier rounds' summaries.
        for r in range(1, rounds + 1):
            previous = round_tasks(r, begin)
            begin = _tree_mix(previous, params, ovr, down_to=2)
        last, found = dask.compute(_tree_mix(begin, params, ovr)[0], labels)
        if guessed:
            classes = found[0]
            if _not_binary(_model_of(last)):
                return {"classes": classes, "not_binary": True}
        queued = ([] if last is None else last["rounds"]) + [last]
        submitted = rounds
    # Otherwise round r + 1 is submitted before round r's mix is read,
    # starting from that mix where it is computed: the workers go on
    # without waiting for the client's round trip. A callback may stop
    # after any round, so with one the rounds go one at a time.
    ahead = 1 if callback is None else 0
    while True:
        while submitted < rounds and len(queued) <= ahead:
            submitted += 1
            steps = round_tasks(submitted, begin)
            if kept:  # the dual variables persisted where they are
                top, *previous = dask.persist(_tree_mix(steps, params, ovr)[0], *steps)
            else:
                (top,) = dask.persist(_tree_mix(steps, params, ovr)[0])
            queued.append(top)
            begin = top
        if not queued:
            break
        mixed = queued.pop(0)
        if dask.is_dask_collection(mixed):
            (mixed,) = dask.compute(mixed)
        mixed = _model_of(mixed)
        if mixed is None:
            raise ValueError("X has no rows.")
        r = len(history) + 1
        for key in COUNTER_KEYS:
            totals[key] += mixed["counters"][key]
        fallbacks += int(mixed.get("mix_fallbacks", 0))
        seconds = time.perf_counter() - began
        if "finished" in mixed:  # the worker's clock
            seconds = min(max(mixed["finished"] - began_wall, 0.0), seconds)
        stats = _round_stats(r, totals, mixed, seconds)
        history.append(stats)
        if "support_vectors" in mixed:
            start = _next_start(mixed, start["n"])
        if verbose:
            print(f"round {r}/{rounds} SVs {stats['n_support']} merges {int(totals['merges'])} "
                  f"elapsed {stats['seconds']:.2f}s", file=sys.stderr, flush=True)
        if callback is not None and bool(callback(dict(stats))):
            stopped = r < rounds
            break
    result = {key: start[key] for key in MODEL_KEYS}
    result.update(totals, seconds=time.perf_counter() - began, history=history, epochs_run=len(history),
                  stopped_early=stopped, averaged=mixed["averaged"], steps_total=start["steps"],
                  n_ref=start["n"], classes=classes, mix_fallbacks=fallbacks)
    return result



def _round_stats(r: int, totals: Dict[str, float], mixed: Dict[str, Any], seconds: float) -> Dict[str, Any]:
    stats: Dict[str, Any] = {"epoch": r}
    stats.update({k: (v if k.endswith("seconds") or k.startswith("merge_") else int(v)) for k, v in totals.items()})
    n_support = mixed["n_support"] if "n_support" in mixed else mixed["support_vectors"].shape[0]
    stats.update(progressive_loss=mixed["loss"], n_support=int(n_support),
                 seconds=seconds, objective=math.nan, sq_norm=math.nan,
                 alpha_zero=-1, alpha_bound=-1, alpha_free=-1)
    return stats

# ------------------------------------------------------------ prediction


def classes_and_weights(class_weight: Any, y: da.Array, classes: Any) -> Tuple[np.ndarray, np.ndarray]:
    """The classes (given, or one pass over y) and the factor of C per class."""
    check_class_weight_spec(class_weight)
    balanced = isinstance(class_weight, str)
    counts = np.zeros(0)
    if classes is None or balanced:
        # Each partition's labels and counts, combined here: one task per
        # partition and one round trip (da.unique and a separate check
        # for NaN took three).
        per_chunk = dask.compute(*_label_count_tasks(y))
        found, tally = _found_labels(per_chunk)
        if classes is None:
            classes = found
        else:
            classes = np.unique(np.asarray(classes))
        counts = np.zeros(classes.size)
        if found.size:
            at = np.searchsorted(found, classes).clip(0, found.size - 1)
            counts = np.where(found[at] == classes, tally[at], 0.0)
    else:
        classes = np.unique(np.asarray(classes))
    _check_two_or_more(classes)
    if balanced:  # "balanced": n / (n_classes * count)
        if np.any(counts == 0):
            raise ValueError("class_weight='balanced' needs samples of every class in y.")
        weights = counts.sum() / (len(classes) * counts.astype(np.float64))
    else:
        weights = compute_class_weight(class_weight, classes=classes, y=classes)
    return classes, check_class_weights(weights, classes)


def dask_gamma(gamma: Any, X: da.Array) -> float:
    """gamma as scikit-learn defines it, X.var() computed on the cluster."""
    if not isinstance(gamma, str):
        return check_number("gamma", gamma, low=0.0, low_inclusive=False)
    if gamma == "auto":
        return 1.0 / X.shape[1]
    if gamma != "scale":
        raise ValueError(f"gamma must be 'scale', 'auto' or a positive float; got {gamma!r}.")
    with np.errstate(over="ignore", invalid="ignore"):
        variance = float(X.astype(np.float64).var().compute())
        value = 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
    if not (math.isfinite(variance) and math.isfinite(value) and value > 0):
        raise ValueError(
            "gamma='scale' is 1 / (n_features * X.var()) and X.var() is not finite: X may contain NaN, "
            "infinity or values too large (preprocess it, e.g. with StandardScaler)."
        )
    return value
