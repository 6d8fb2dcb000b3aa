"""Distributed budgeted SVM training on Dask: :class:`BudgetedSVC` (``docs/dask.md``).

Problem: a data set split into the partitions of a dask array (or
dataframe) that live on the workers of a cluster, too large or too slow for
one process, and one budgeted kernel SVM to train on all of it.

Algorithm: the in-process sharded training (``budget/shards.hpp``) with the
partitions as its shards. Each round, every partition runs one pass of the
solver (BSCA or BSGD) on its own rows, on the worker that holds it,
continuing the common model with the ``n`` of ``lambda = 1 / (C n)`` set to
all rows and the common step count; the partitions' models (never their
rows) travel, and are mixed pairwise up a tree (``_core.mix_budgeted``:
weighted average, merged back to the budget), each mix weighted by the rows
below it. The mixed model starts the next round, which is submitted before
the client reads the mix (unless a callback may stop the rounds). Where the
workers have a thread for every partition, each round's tasks make the top
mix of the tree themselves (``_fused_top``), so no mix task stands between
two rounds; there, a fit that is not told its classes submits the rounds of
a binary problem at once with the task that finds the classes as their
input, and makes them again for the classes found if ``y`` has more.

Binary BSCA from a cold start keeps each partition's dual variables from
round to round on the worker that holds the partition (the next round's
input there; with two or three partitions whose tasks mix their start
themselves they go along with the model they came with, 8 bytes per row):
the in-process shards' algorithm (box ``C n / n_k``, points-weighted mix;
``_core.bsca_shard_round``).

Departures from the in-process shards: the shards are the partitions as
given (contiguous rows, not a random split), each round's random stream is
drawn anew, and the tree mixes pairs, so a model over more than two
partitions passes through more budget maintenance than the flat mix of
``shards.hpp``. The model depends on (``random_state``, the partitioning),
never on the number of workers.
"""

from __future__ import annotations

import functools
import inspect
import math
import sys
import time
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.validation import check_is_fitted

try:
    import dask
    import dask.array as da
    import dask.dataframe as dd
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "budgetsvm.dask needs dask: install the optional dependencies with `pip install budgetsvm[dask]`."
    ) from error

from . import _core
from ._atomic import atomic_fit, fitted_view
from ._data import as_supported
from ._labels import index_in_classes
from ._magnitude import DBL_MAX, check_costs, check_finite_fit, check_kernel_magnitude
from ._params import check_class_weight_spec, check_class_weights, check_number, plain
from .budgeted import TOTAL_KEYS
from .budgeted import BudgetedSVC as _LocalBudgetedSVC

_NAME = "budgetsvm.dask.BudgetedSVC"  # in messages
COUNTER_KEYS = tuple(k for k in TOTAL_KEYS if k != "seconds")
MODEL_KEYS = ("support_vectors", "dual_coef", "intercept")  # a model's arrays, as tasks pass them on
# What every task returns, instead of a model, in a fit that guessed two
# classes where y has more (``BudgetedSVC._rounds``).
NOT_BINARY = "not binary"

# The estimator's parameters: those of budgetsvm.BudgetedSVC, in its order,
# then rounds. scikit-learn (get_params, clone, repr) and the documentation
# read them from the signature of __init__, so it is built here once rather
# than written out a second time.
_SIGNATURE = inspect.signature(_LocalBudgetedSVC.__init__).replace(
    parameters=[
        *inspect.signature(_LocalBudgetedSVC.__init__).parameters.values(),
        inspect.Parameter("rounds", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation="Optional[int]"),
    ]
)


# ---------------------------------------------------------------- the tasks


def _checked_weights(w: Any) -> np.ndarray:
    """A partition's sample weights as float64, checked: finite and >= 0
    (one per row: ``_paired`` lined them up with the rows of X)."""
    w = np.asarray(w, dtype=np.float64).ravel()
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must hold one finite value >= 0 per row.")
    return w


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


def _train_partition(
    X: Any,
    y: Any,
    w: Any,
    labels: Tuple[np.ndarray, Optional[np.ndarray]],
    params: Dict[str, Any],
    start: Any,
    seed: int,
    n: float,
) -> Union[Dict[str, Any], str, None]:
    """One partition's pass (on the worker that holds it) from ``start`` (see
    ``_start_of``): the model it ends with and its statistics; None for an
    empty partition; ``NOT_BINARY`` where ``labels`` say so (``_binary_labels``)."""
    classes, class_weight = labels
    if class_weight is None:
        return NOT_BINARY
    begin, rounds = _start_of(start, n, params, len(classes))
    inputs = _partition_inputs(X, y, w, classes, class_weight, params)
    if inputs is None:
        return None
    X, y_index, factors = inputs
    p = dict(params, seed=int(seed))
    result = _core.fit_budgeted(X, y_index, len(classes), p, None, factors, begin)
    return _part(result, float(X.shape[0]), rounds)


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
    guesses a binary problem (``BudgetedSVC._rounds``) gives it to every
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


def _round_partition(
    X: Any,
    y: Any,
    w: Any,
    labels: Tuple[np.ndarray, Optional[np.ndarray]],
    params: Dict[str, Any],
    start: Any,
    seed: int,
    previous: Optional[Tuple[Any, Optional[np.ndarray]]],
    n: float,
    first_epoch: int,
    total_epochs: int,
) -> Tuple[Union[Dict[str, Any], str, None], Optional[np.ndarray]]:
    """One partition's epochs of binary BSCA that keeps its dual variables
    (on the worker that holds it, where they stay between rounds), from
    ``start`` (see ``_start_of``) and the dual variables of ``previous``, the
    partition's result of the round before (None in the first round): the
    model it ends with, weighted by its points, and its dual variables; (None,
    alpha) for a partition with no points in the problem; (``NOT_BINARY``, None)
    where ``labels`` say so (``_binary_labels``)."""
    classes, class_weight = labels
    if class_weight is None:
        return NOT_BINARY, None
    alpha = None if previous is None else previous[1]
    begin, rounds = _start_of(start, n, params, len(classes))
    inputs = _partition_inputs(X, y, w, classes, class_weight, params)
    if inputs is None:
        return None, alpha
    X, y_index, factors = inputs
    if factors is not None and not np.any(factors > 0):
        return None, alpha
    if alpha is None:
        alpha = np.zeros(X.shape[0])
    p = dict(params, seed=int(seed))
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


def _fused_top(partitions: int) -> bool:
    """Whether each round's tasks make the top mix of the previous round
    themselves: under a distributed client whose workers have a thread for
    every partition. The mix is then made once per partition, side by side
    on the workers, and saves each round the scheduler's round trip to a
    mix task and back (docs/dask.md); with more partitions than threads the
    copies would queue up behind each other. Never changes the model: the
    same mix is made from the same parts."""
    if partitions < 2:
        return False
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - distributed comes with the extra
        return False
    client = getattr(dask.base.get_scheduler(), "__self__", None)
    return isinstance(client, Client) and partitions <= sum(client.nthreads().values())


def _block_decision(X: Any, model: _LocalBudgetedSVC) -> np.ndarray:
    if X.shape[0] == 0:  # an empty partition (e.g. after a filter): an empty result, as BudgetedSVC.decision_function
        return np.empty((0,) if model.dual_coef_.shape[0] == 1 else (0, len(model.classes_)))
    return model.decision_function(X)


def _block_predict(X: Any, model: _LocalBudgetedSVC) -> np.ndarray:
    if X.shape[0] == 0:
        return np.empty(0, dtype=model.classes_.dtype)
    return model.predict(X)


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


# ---------------------------------------------------------------- estimator


class BudgetedSVC(_LocalBudgetedSVC):
    """:class:`budgetsvm.BudgetedSVC` trained on a dask array or dataframe.

    The partitions of ``X`` stay where they are (on the workers, under a
    ``distributed.Client``); each round, each partition runs one epoch of the
    solver from the common model, and the partitions' models are mixed up a
    tree back to ``budget`` support vectors (``docs/dask.md``). Only models
    travel. Works on any Dask scheduler: a distributed client when one is
    active, else Dask's default (threads).

    Parameters
    ----------
    rounds : int or None, default=None
        Rounds of training and mixing. ``None``: ``epochs`` rounds, each one
        epoch over every partition (the in-process ``BudgetedSVC`` with
        ``n_jobs`` = the number of partitions runs the same rounds). An int
        must divide ``epochs``: each round then runs ``epochs // rounds``
        epochs per partition before mixing (fewer mixes, less traffic), so
        ``epochs`` stays the number of passes over the data.
    n_jobs : int or None, default=None
        Threads of one task (one-vs-rest BSCA's classes; prediction of numpy
        input). The shards are the partitions, never split further.
    others
        As :class:`budgetsvm.BudgetedSVC`. ``callback`` and ``verbose`` are
        served after every round. ``instruments`` is not supported.

    Attributes
    ----------
    As :class:`budgetsvm.BudgetedSVC`; ``n_iter_`` counts rounds, and
    ``history_`` has one entry per round.

    Notes
    -----
    :meth:`~budgetsvm.BudgetedSVC.partial_fit` is the in-process one (one pass over a chunk in
    memory; a dask chunk is computed first).

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from budgetsvm.dask import BudgetedSVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(4000, 2))
    >>> y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    >>> dX, dy = da.from_array(X, chunks=1000), da.from_array(y, chunks=1000)  # 4 shards
    >>> clf = BudgetedSVC(budget=50, C=10, gamma=2.0, epochs=3, random_state=0).fit(dX, dy)
    >>> clf.n_iter_, clf.n_support_ <= 50
    (3, True)
    """

    def __init__(self, *args: Any, **kwargs: Any):
        # the parameters of _SIGNATURE (set below as this method's signature,
        # which scikit-learn reads): budgetsvm.BudgetedSVC's, then rounds
        try:
            bound = _SIGNATURE.bind(self, *args, **kwargs)
        except TypeError as error:  # as Python words it for a written-out signature
            raise TypeError(f"{type(self).__name__}.__init__() {error}") from None
        bound.apply_defaults()
        params = {name: value for name, value in bound.arguments.items() if name != "self"}
        self.rounds = params.pop("rounds")
        super().__init__(**params)

    __init__.__signature__ = _SIGNATURE  # type: ignore[attr-defined]

    def _round_plan(self, params: Dict[str, Any]) -> Tuple[int, int]:
        """(rounds, epochs per round)."""
        epochs = params["epochs"]
        if self.rounds is None:
            return epochs, 1
        rounds = check_number("rounds", self.rounds, integer=True, low=1)
        if epochs % rounds:
            raise ValueError(f"rounds must divide epochs (each round runs epochs // rounds epochs); got "
                             f"rounds={rounds}, epochs={epochs}.")
        return rounds, epochs // rounds

    @atomic_fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None, classes: Any = None) -> "BudgetedSVC":
        """Train on a dask array or dataframe, its partitions as shards.

        Parameters
        ----------
        X : dask array or dask dataframe of shape (n_samples, n_features)
            Dense real features; its row partitions are the shards (those
            with no rows, e.g. after a filter, left out).
        y : dask array / series, or array-like of shape (n_samples,)
            Class labels (at least two classes; a partition may hold one),
            one per row of ``X``; put on X's row partitions.
        sample_weight : dask array or array-like of shape (n_samples,), default=None
            Per-sample factors of ``C`` (finite, >= 0), one per row of ``X``.
        classes : array-like, default=None
            All the classes; ``None``: found from ``y`` (one task per
            partition; where every round is submitted at once, by a task the
            rounds of a binary problem take as their input, so no round trip
            comes before them, docs/dask.md "Input").

        Returns
        -------
        self : BudgetedSVC

        Examples
        --------
        >>> import dask.array as da
        >>> from budgetsvm.dask import BudgetedSVC
        >>> X = da.random.default_rng(0).uniform(-1, 1, size=(2000, 2), chunks=500)  # made by the workers
        >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)  # a dask array too
        >>> clf = BudgetedSVC(budget=40, gamma=2.0, epochs=2, random_state=0).fit(X, y, classes=[0, 1])
        >>> clf.classes_.tolist(), len(clf.history_)
        ([0, 1], 2)
        """
        params = self._solver_params()
        if self.instruments:
            raise ValueError("instruments=True is not supported by budgetsvm.dask.BudgetedSVC.")
        rounds, per_round = self._round_plan(params)
        verbose = int(self.verbose) if isinstance(self.verbose, (bool, np.bool_)) else self.verbose
        verbose = check_number("verbose", verbose, integer=True, low=0)
        X, names = _dask_rows(X, "X")
        X, y, w = _paired(X, y, sample_weight)  # empty partitions left out
        warm = bool(self.warm_start) and hasattr(self, "t_")
        expected = getattr(self, "n_features_in_", None)
        if warm and X.shape[1] != expected:
            raise ValueError(f"X has {X.shape[1]} features, but BudgetedSVC is expecting {expected} features as input.")
        X, y, w = _persist(X, y, w)
        # Nothing reads a round before the end: every round is submitted at
        # once (see _rounds).
        fused = self.callback is None and not verbose and _fused_top(len(X.chunks[0]))
        # Finding the classes takes a round trip to the cluster before the
        # first round. Where they would only shape the rounds (fused, cold,
        # no weights), the rounds are submitted at once for two classes with
        # the classes' task as their input, and made again for the classes
        # found if y has more (_rounds).
        guess = fused and classes is None and self.class_weight is None and w is None and not warm
        class_weight: Optional[np.ndarray] = None
        if not guess:
            classes, class_weight = self._classes(y, classes)
        if warm and not np.array_equal(classes, self.classes_):
            raise ValueError(
                f"warm_start=True continues a model of the classes {[plain(c) for c in self.classes_]}; "
                f"y has the classes {[plain(c) for c in classes]}. Use warm_start=False to train a new model."
            )
        params["gamma"] = self.gamma_ if warm and isinstance(self.gamma, str) else self._dask_gamma(X)
        params.update(epochs=per_round, shards=1, instruments=False)
        n_total = float(X.shape[0])

        def run(classes: Optional[np.ndarray], class_weight: Optional[np.ndarray]) -> Dict[str, Any]:
            """The rounds from the fit's start (classes None: guessed binary)."""
            n_outputs = 1 if classes is None or len(classes) == 2 else len(classes)
            start = self._start(n_total) if warm else {
                "support_vectors": np.zeros((0, X.shape[1])),
                "dual_coef": np.zeros((0, n_outputs)),
                "intercept": np.zeros(n_outputs),
                "steps": 0,
                "n_ref": 0.0,
                "n": n_total,
            }
            return self._rounds(X, y, w, classes, class_weight, params, start, rounds, verbose, warm, fused)

        result = run(classes, class_weight)
        if guess:
            classes, class_weight = self._classes(y, result["classes"])  # given: no round trip
            if "not_binary" in result:
                result = run(classes, class_weight)
        assert class_weight is not None  # found above in either case
        self.n_features_in_ = int(X.shape[1])
        if names is not None:
            self.feature_names_in_ = names
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self._store(result, classes, class_weight, X, None, params, append=False)
        return self

    def _classes(self, y: da.Array, classes: Any) -> Tuple[np.ndarray, np.ndarray]:
        """The classes (given, or one pass over y) and the factor of C per class."""
        check_class_weight_spec(self.class_weight)
        balanced = isinstance(self.class_weight, str)
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
            weights = compute_class_weight(self.class_weight, classes=classes, y=classes)
        return classes, check_class_weights(weights, classes)

    def _dask_gamma(self, X: da.Array) -> float:
        """gamma as scikit-learn defines it, X.var() computed on the cluster."""
        if not isinstance(self.gamma, str):
            return check_number("gamma", self.gamma, low=0.0, low_inclusive=False)
        if self.gamma == "auto":
            return 1.0 / X.shape[1]
        if self.gamma != "scale":
            raise ValueError(f"gamma must be 'scale', 'auto' or a positive float; got {self.gamma!r}.")
        with np.errstate(over="ignore", invalid="ignore"):
            variance = float(X.astype(np.float64).var().compute())
            value = 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        if not (math.isfinite(variance) and math.isfinite(value) and value > 0):
            raise ValueError(
                "gamma='scale' is 1 / (n_features * X.var()) and X.var() is not finite: X may contain NaN, "
                "infinity or values too large (preprocess it, e.g. with StandardScaler)."
            )
        return value

    def _rounds(self, X, y, w, classes, class_weight, params, start, rounds, verbose, warm, fused) -> Dict[str, Any]:
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
        rng = check_random_state(self.random_state)
        # The arguments every task shares are bound once: a delayed call
        # tokenizes and walks each argument it is given.
        shared: Dict[str, Any] = dict(params=params)
        labels: Any = None
        if guessed:
            labels = dask.delayed(_binary_labels, pure=True)(*_label_count_tasks(y))
        else:
            shared["labels"] = (classes, class_weight)
        given = {} if labels is None else {"labels": labels}
        train = dask.delayed(functools.partial(_train_partition, **shared), pure=True)
        step = dask.delayed(functools.partial(_round_partition, **shared), pure=True)
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
                return [step(xs[k], ys[k], ws[k], start=begin if r > 1 else None, seed=int(seeds[k]),
                             previous=previous[k], n=n_points, first_epoch=first, total_epochs=rounds * per_round,
                             **given)
                        for k in range(len(xs))]
            return [train(xs[k], ys[k], ws[k], start=begin, seed=int(seeds[k]), n=start["n"], **given)
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
        ahead = 1 if self.callback is None else 0
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
            stats = self._round_stats(r, totals, mixed, seconds)
            history.append(stats)
            if "support_vectors" in mixed:
                start = _next_start(mixed, start["n"])
            if verbose:
                print(f"round {r}/{rounds} SVs {stats['n_support']} merges {int(totals['merges'])} "
                      f"elapsed {stats['seconds']:.2f}s", file=sys.stderr, flush=True)
            if self.callback is not None and bool(self.callback(dict(stats))):
                stopped = r < rounds
                break
        result = {key: start[key] for key in MODEL_KEYS}
        result.update(totals, seconds=time.perf_counter() - began, history=history, epochs_run=len(history),
                      stopped_early=stopped, averaged=mixed["averaged"], steps_total=start["steps"],
                      n_ref=start["n"], classes=classes, mix_fallbacks=fallbacks)
        return result

    @staticmethod
    def _round_stats(r: int, totals: Dict[str, float], mixed: Dict[str, Any], seconds: float) -> Dict[str, Any]:
        stats: Dict[str, Any] = {"epoch": r}
        stats.update({k: (v if k.endswith("seconds") or k.startswith("merge_") else int(v)) for k, v in totals.items()})
        n_support = mixed["n_support"] if "n_support" in mixed else mixed["support_vectors"].shape[0]
        stats.update(progressive_loss=mixed["loss"], n_support=int(n_support),
                     seconds=seconds, objective=math.nan, sq_norm=math.nan,
                     alpha_zero=-1, alpha_bound=-1, alpha_free=-1)
        return stats

    # ------------------------------------------------------------ prediction

    def _local_model(self) -> _LocalBudgetedSVC:
        """The fitted model as the in-process estimator (what the prediction tasks receive)."""
        model = _LocalBudgetedSVC(**{k: v for k, v in self.get_params(deep=False).items() if k != "rounds"})
        model.callback = None
        model.__dict__.update({k: v for k, v in self.__dict__.items() if k.endswith("_") or k.startswith("_")})
        model.__dict__.pop("feature_names_in_", None)  # the blocks are arrays; names were checked on the client
        return model

    def _dask_input(self, X: Any) -> da.Array:
        check_is_fitted(self)
        if isinstance(X, dd.DataFrame):
            names = getattr(self, "feature_names_in_", None)
            if names is not None and list(X.columns) != list(names):
                raise ValueError(
                    f"The feature names of X {list(X.columns)} are not those seen in fit {list(names)}."
                )
            X = X.to_dask_array(lengths=True)
        elif isinstance(X, dd.Series):
            raise ValueError("X must be 2-D (rows x features); got a dask Series.")
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (rows x features); got {X.ndim} dimensions.")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but BudgetedSVC is expecting {self.n_features_in_} features as input."
            )
        return X.rechunk({1: -1}) if len(X.chunks[1]) > 1 else X

    @fitted_view
    def decision_function(self, X: Any) -> Any:
        """As :meth:`budgetsvm.BudgetedSVC.decision_function`; a dask array
        (or dataframe) gives a dask array, computed block by block.

        Examples
        --------
        >>> import dask.array as da
        >>> import numpy as np
        >>> from budgetsvm.dask import BudgetedSVC
        >>> X = da.from_array(np.array([[0.0], [0.2], [1.0], [1.2]]), chunks=2)
        >>> clf = BudgetedSVC(budget=10, gamma=1.0, random_state=0).fit(X, np.array([0, 0, 1, 1]))
        >>> scores = clf.decision_function(X)  # lazy: a dask array
        >>> bool((scores.compute() > 0).tolist() == [False, False, True, True])
        True
        """
        if not _is_dask(X):
            return super().decision_function(X)
        X = self._dask_input(X)
        model = self._local_model()
        if self.dual_coef_.shape[0] == 1:
            return X.map_blocks(_block_decision, model, drop_axis=1, dtype=np.float64, meta=np.empty((0,)))
        n = len(self.classes_)
        return X.map_blocks(_block_decision, model, chunks=(X.chunks[0], (n,)), dtype=np.float64)

    @fitted_view
    def predict(self, X: Any) -> Any:
        """Class labels; a dask array (or dataframe) gives a dask array.

        Examples
        --------
        >>> import dask.dataframe as dd
        >>> import pandas as pd
        >>> from budgetsvm.dask import BudgetedSVC
        >>> df = dd.from_pandas(pd.DataFrame({"x": [0.0, 0.2, 1.0, 1.2]}), npartitions=2)
        >>> clf = BudgetedSVC(budget=10, gamma=1.0, random_state=0).fit(df, ["a", "a", "b", "b"])
        >>> clf.predict(df).compute().tolist()  # a dataframe in, a dask array of labels out
        ['a', 'a', 'b', 'b']
        """
        if not _is_dask(X):
            return super().predict(X)
        X = self._dask_input(X)
        meta = np.empty((0,), dtype=self.classes_.dtype)
        return X.map_blocks(_block_predict, self._local_model(), drop_axis=1, dtype=self.classes_.dtype, meta=meta)

    @fitted_view
    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Mean accuracy; dask input is scored on the cluster.

        Examples
        --------
        >>> import dask.array as da
        >>> import numpy as np
        >>> from budgetsvm.dask import BudgetedSVC
        >>> X = da.from_array(np.linspace(0, 1.2, 8)[:, None], chunks=4)
        >>> y = (X[:, 0] > 0.6).astype(int)
        >>> clf = BudgetedSVC(budget=10, gamma=1.0, random_state=0).fit(X, y)
        >>> clf.score(X, y), clf.score(X, 1 - y, sample_weight=np.r_[np.ones(4), np.zeros(4)])
        (1.0, 0.0)
        """
        if not _is_dask(X):
            return super().score(X, y, sample_weight)
        X, y, w = _paired(self._dask_input(X), y, sample_weight)
        right = (self.predict(X) == y).astype(np.float64)
        if w is None:
            return float(right.mean().compute())
        w = w.astype(np.float64)
        return float(((right * w).sum() / w.sum()).compute())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags


__all__ = ["BudgetedSVC"]
