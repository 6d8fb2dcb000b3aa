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

import inspect
from typing import Any, Dict, Optional, Tuple

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._atomic import atomic_fit, fitted_view
from .._params import check_number, plain
from .budgeted import BudgetedSVC as _LocalBudgetedSVC
from ._dask_rounds import (
    _dask_rows,
    _is_dask,
    _paired,
    _persist,
    classes_and_weights,
    dask_gamma,
    run_rounds,
)
from ._dask_tasks import (  # dask itself through the import guard there
    _block_decision,
    _block_predict,
    da,
    dask,
    dd,
)

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
        ``shards`` = the number of partitions runs the same rounds). An int
        must divide ``epochs``: each round then runs ``epochs // rounds``
        epochs per partition before mixing (fewer mixes, less traffic), so
        ``epochs`` stays the number of passes over the data.
    n_jobs : int or None, default=None
        Threads of one task (the kernel tiles of its blocked epochs,
        one-vs-rest BSCA's classes; prediction of numpy input); the model is
        the same for every ``n_jobs``.
    shard_mix : {"merge", "union"}, default="merge"
        ``"merge"``: the rounds above, each mix merged back to ``budget``.
        ``"union"``: one round; every partition trains all ``epochs`` apart
        and the model is the partitions' average with every support vector
        kept (up to partitions x ``budget``), as the in-process
        ``shard_mix="union"`` (``docs/scale.md``).
    shards : int, default=1
        Must be 1 for ``fit``: the shards are the partitions, never split
        further. (:meth:`~budgetsvm.BudgetedSVC.partial_fit`, the in-process
        one, uses it as :class:`budgetsvm.BudgetedSVC` does.)
    others
        As :class:`budgetsvm.BudgetedSVC`. ``callback`` and ``verbose`` are
        served after every round. ``instruments`` and ``probability`` are
        not supported (``fit`` refuses them).

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
        if params["shard_mix"] == "union":  # the partitions train apart, combined once
            if self.rounds not in (None, 1):
                raise ValueError(f"shard_mix='union' trains the partitions apart and combines them once: rounds "
                                 f"must be None or 1; got rounds={self.rounds!r}.")
            return 1, epochs
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
        if self.probability:
            raise ValueError(
                "probability=True is not supported by budgetsvm.dask.BudgetedSVC: its calibration trains 5 more "
                "models on folds of the rows in memory. Fit budgetsvm.BudgetedSVC(probability=True) on rows in "
                "memory instead."
            )
        if params["shards"] != 1:
            raise ValueError(f"shards={params['shards']} is not supported by budgetsvm.dask.BudgetedSVC.fit: its "
                             "shards are the partitions of X (rechunk X to change them).")
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
        # once (see run_rounds).
        fused = self.callback is None and not verbose and _fused_top(len(X.chunks[0]))
        # Finding the classes takes a round trip to the cluster before the
        # first round. Where they would only shape the rounds (fused, cold,
        # no weights), the rounds are submitted at once for two classes with
        # the classes' task as their input, and made again for the classes
        # found if y has more (run_rounds).
        guess = fused and classes is None and self.class_weight is None and w is None and not warm
        class_weight: Optional[np.ndarray] = None
        if not guess:
            classes, class_weight = classes_and_weights(self.class_weight, y, classes)
        if warm and not np.array_equal(classes, self.classes_):
            raise ValueError(
                f"warm_start=True continues a model of the classes {[plain(c) for c in self.classes_]}; "
                f"y has the classes {[plain(c) for c in classes]}. Use warm_start=False to train a new model."
            )
        params["gamma"] = self.gamma_ if warm and isinstance(self.gamma, str) else dask_gamma(self.gamma, X)
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
            return run_rounds(X, y, w, classes, class_weight, params, start, rounds, verbose, warm, fused,
                              self.random_state, self.callback)

        result = run(classes, class_weight)
        if guess:
            classes, class_weight = classes_and_weights(self.class_weight, y, result["classes"])  # given: no round trip
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
