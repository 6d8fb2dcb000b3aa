"""The budgeted kernel model: what :class:`~budgetsvm.BudgetedSVC` (and its
dask variant) train, continue, predict with and save.

:class:`BudgetModel` runs the budgeted core (``_core.fit_budgeted``) through
the shared pipeline (``_base``): one method for ``fit`` and ``partial_fit``
alike (``_run``), the fitted model as the core's starting point (``_start``:
``warm_start``, ``partial_fit``), the result published in one step
(``_store``), the scores (``_decision``) and the state model files hold.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from .. import _core
from .._atomic import atomic_fit
from .._columns import UsedColumns, scale_outside
from .._data import as_supported, core_view, resolve_gamma
from .._magnitude import DBL_MAX, check_kernel_magnitude
from .._labels import index_in_classes
from .._params import check_number, effective_n_jobs, plain
from ._base import PipelineClassifier

#: The totals of a run in ``fit_stats_``: the counters of the core's result
#: (its field table, ``_core.fields``) and the run's seconds.
TOTAL_KEYS = _core.fields("budget.Counters") + ("seconds",)


class _EpochMonitor:
    """The per-epoch callback handed to the core: records the statistics,
    prints the progress line (``verbose``) and asks the user's callback."""

    def __init__(self, epochs: int, verbose: int, user_callback: Optional[Callable[[Dict[str, Any]], Any]]):
        self.epochs = epochs
        self.verbose = verbose
        self.user_callback = user_callback
        self.history: List[Dict[str, Any]] = []
        self.start = time.perf_counter()

    def __call__(self, stats: Dict[str, Any]) -> bool:
        stats = dict(stats)
        self.history.append(stats)
        if self.verbose:
            self._print(stats)
        if self.user_callback is None:
            return False
        return bool(self.user_callback(dict(stats)))

    def _print(self, stats: Dict[str, Any]) -> None:
        width = 20
        done = int(stats["epoch"])
        filled = min(width, round(width * done / self.epochs))
        bar = "#" * filled + "." * (width - filled)
        merges = int(stats["merges"])
        elapsed = time.perf_counter() - self.start
        print(
            f"epoch {done}/{self.epochs} [{bar}] SVs {int(stats['n_support'])} "
            f"merges {merges} maintenance {float(stats['maintenance_seconds']):.2f}s "
            f"elapsed {elapsed:.2f}s",
            file=sys.stderr,
            flush=True,
        )


class BudgetKernelSteps:
    """The steps of a budgeted kernel model that do not depend on what it
    predicts (classes, a real target, novelty): the kernel's gamma, the used
    columns, the fitted model as the core's start, the published arrays, the
    kernel scores and the state model files hold. :class:`BudgetModel` (the
    classifier) and the regression and one-class estimators
    (``budgeted_regression``) mix it in before their pipeline base."""

    gamma: Any
    n_jobs: Any
    verbose: Any
    callback: Any
    random_state: Any
    dual_coef_: np.ndarray
    intercept_: np.ndarray
    n_support_: int
    n_iter_: int
    history_: List[Dict[str, Any]]
    gamma_: float
    t_: int
    n_samples_seen_: int
    _support_rows: np.ndarray
    _used_columns: Optional[UsedColumns]
    _fitted_kernel: Tuple[str, float, int, float]

    def _kernel_gamma(self, X: Any, params: Dict[str, Any], keep: bool) -> float:
        """gamma for this call (a continued model keeps a resolved "scale" / "auto"),
        after checking the data's magnitude against the kernel."""
        if params["kernel"] in ("rbf", "linear"):
            # data too large for the kernel first: it is also why gamma="scale" may overflow
            check_kernel_magnitude(X, params["kernel"], 1.0, 0, 0.0, DBL_MAX)
        gamma = self.gamma_ if keep and isinstance(self.gamma, str) else resolve_gamma(self.gamma, X)
        if params["kernel"] not in ("rbf", "linear"):
            check_kernel_magnitude(X, params["kernel"], gamma, params["degree"], params["coef0"], DBL_MAX)
        return gamma

    def _compact(self, X: Any, continued: bool) -> Tuple[Any, Optional[UsedColumns]]:
        """The call's data on the columns used (wide sparse data, _columns.py):
        a continued model trained on all columns stays on all of them; one
        trained on its used columns goes on with those and the new rows'."""
        if not continued:
            return UsedColumns.compact(X)
        if self._used_columns is None:
            return X, None
        return UsedColumns.compact(X, keep=self._used_columns)

    def _start(self, n: float, used: Optional[UsedColumns] = None) -> Dict[str, Any]:
        """The fitted model as the core's starting point (docs/scale.md), in
        the columns of the call: ``used``'s (which hold the model's), or all."""
        rows = self._support_rows
        if self._used_columns is not None and used is not None:
            rows = used.remap(rows, self._used_columns)
        elif self._used_columns is not None:  # trained on compacted columns: back to all of them
            rows = np.ascontiguousarray(self._used_columns.expand(rows).toarray())
        return {
            "support_vectors": rows,
            "dual_coef": np.ascontiguousarray(self.dual_coef_.T),
            "intercept": self._core_intercept(),
            "steps": int(self.t_),
            "n_ref": float(self.n_samples_seen_),
            "n": n,
        }

    def _core_intercept(self) -> np.ndarray:
        """The offsets in the core's units (a start's): ``intercept_`` here."""
        return self.intercept_

    def _seed_and_monitor(self, params: Dict[str, Any]) -> "_EpochMonitor":
        """``params["seed"]`` from ``random_state``, and the per-epoch callback for the core."""
        verbose = int(self.verbose) if isinstance(self.verbose, (bool, np.bool_)) else self.verbose
        verbose = check_number("verbose", verbose, integer=True, low=0)
        params["seed"] = int(check_random_state(self.random_state).randint(np.iinfo(np.int64).max, dtype=np.int64))
        return _EpochMonitor(params["epochs"], verbose, self.callback)

    def _model_attributes(self, result: Dict[str, Any], X: Any, used: Optional[UsedColumns],
                          params: Dict[str, Any], append: bool) -> Dict[str, Any]:
        """The fitted attributes of a training result shared by every budgeted
        model (the model, its kernel, the statistics); `append`: a partial_fit
        call after others (history and counts continue)."""
        history: List[Dict[str, Any]] = [dict(s) for s in result["history"]]
        if append:
            earlier = self.history_
            for s in history:
                s["epoch"] = int(s["epoch"]) + len(earlier)
            history = earlier + history
        # the rows the core computes with (in the training columns), and the
        # public ones: CSR in the original columns when X was sparse
        rows = np.ascontiguousarray(result["support_vectors"], dtype=np.float64)
        public: Any
        if used is not None:
            public = used.expand(rows)
        elif sp.issparse(X):
            public = sp.csr_matrix(rows)
        else:
            public = rows
        stats = {key: result[key] for key in TOTAL_KEYS}
        stats.update(stopped_early=bool(result["stopped_early"]), averaged=int(result["averaged"]),
                     mix_fallbacks=int(result["mix_fallbacks"]))
        return dict(
            intercept_=np.asarray(result["intercept"], dtype=np.float64),
            gamma_=params["gamma"],
            _support_rows=rows,
            _used_columns=used,
            support_vectors_=public,
            dual_coef_=np.ascontiguousarray(np.asarray(result["dual_coef"], dtype=np.float64).T),
            n_support_=int(rows.shape[0]),
            n_iter_=self.n_iter_ + 1 if append else int(result["epochs_run"]),
            history_=history,
            fit_stats_=stats,
            t_=int(result["steps_total"]),
            n_samples_seen_=int(round(result["n_ref"])),
            _fitted_kernel=(params["kernel"], params["gamma"], params["degree"], params["coef0"]),
        )

    def _decision(self, X: Any) -> np.ndarray:
        """``f(x) = sum_j beta_j k(z_j, x) + b``, one column per output."""
        coef = np.ascontiguousarray(self.dual_coef_.T)
        kernel, gamma, degree, coef0 = self._fitted_kernel
        outside = None
        if self._used_columns is not None:
            X, outside = self._used_columns.restrict(X)
        X = as_supported(X)
        if self.n_support_ == 0:
            return np.zeros((X.shape[0], coef.shape[1])) + self.intercept_
        scores = _core.decision_function(
            core_view(X), self._support_rows, coef, kernel, gamma, degree, coef0, effective_n_jobs(self.n_jobs)
        )
        if outside is not None:
            scores = scale_outside(scores, outside, kernel, gamma)
        scores += self.intercept_
        return scores

    def _kernel_state(self) -> Dict[str, Any]:
        """The kernel model's part of ``_fitted_state`` (docs/model_format.md's vocabulary)."""
        kernel, gamma, degree, coef0 = self._fitted_kernel
        return dict(intercept=np.asarray(self.intercept_, dtype=np.float64), kernel=kernel, gamma=float(gamma),
                    degree=int(degree), coef0=float(coef0), support_rows=self._support_rows,
                    used_columns=self._used_columns,
                    coef=np.ascontiguousarray(np.asarray(self.dual_coef_, dtype=np.float64).T))

    def _restore_kernel_state(self, state: Dict[str, Any]) -> None:
        """Sets what :meth:`_kernel_state` describes, and the attributes derived from it."""
        rows, used = state["support_rows"], state["used_columns"]
        self._used_columns = used
        self._support_rows = np.ascontiguousarray(rows.toarray() if sp.issparse(rows) else rows, dtype=np.float64)
        self.dual_coef_ = np.ascontiguousarray(state["coef"].T)
        self.intercept_ = state["intercept"]
        self.n_support_ = int(rows.shape[0])
        self.gamma_ = state["gamma"]
        self._fitted_kernel = (state["kernel"], state["gamma"], state["degree"], state["coef0"])
        public: Any = self._support_rows
        if used is not None:
            public = used.expand(self._support_rows)
        elif state["containers"].get("support_vectors_") is not None:
            public = sp.csr_matrix(self._support_rows)
        self.support_vectors_ = public


class BudgetModel(BudgetKernelSteps, PipelineClassifier):
    """The budgeted model's steps; the estimator adds its parameters
    (``_solver_params``: the core's options) and its public methods."""

    _name = "BudgetedSVC"
    _validate_finite = False  # as_supported finds non-finite values, once, in C++
    history_: List[Dict[str, Any]]  # fitted attributes whose type mypy cannot infer
    n_iter_: int

    def _solver_params(self) -> Dict[str, Any]:
        raise NotImplementedError

    def _one_class_message(self, classes: np.ndarray) -> str:
        return f"BudgetedSVC needs samples of at least 2 classes in the data; got 1 class ({plain(classes[0])!r})."

    @atomic_fit
    def partial_fit(self, X: Any, y: Any, classes: Any = None, sample_weight: Any = None):
        """Train on one chunk of a stream: one pass over its rows.

        The model continues from the previous calls (and from ``fit``): BSGD
        continues its step counter and learning rate, BSCA its growing
        first pass (each chunk's rows are new dual variables, starting at 0).
        ``C`` means what it means in ``fit`` on all the rows seen so far: the
        ``n`` of ``lambda = 1 / (C n)`` is ``n_samples_seen_``, and the model is
        rescaled when ``n`` grows (``docs/scale.md``). ``gamma="scale"`` or
        ``"auto"`` is resolved on the first chunk and kept.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The chunk (any number of rows; an empty chunk changes nothing).
        y : array-like of shape (n_samples,)
            Its labels, each one of ``classes`` (a chunk may hold one class).
        classes : array-like of shape (n_classes,), default=None
            All the classes of the stream: required on the first call (when
            the model was not fitted before), checked on later calls.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample factors of ``C`` (finite, >= 0).

        Returns
        -------
        self : BudgetedSVC
            The updated estimator.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedSVC
        >>> rng = np.random.default_rng(0)
        >>> clf = BudgetedSVC(solver="bsgd", budget=50, C=10, gamma=2.0, random_state=0)
        >>> for _ in range(10):
        ...     X = rng.uniform(-1, 1, size=(500, 2))
        ...     y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
        ...     clf = clf.partial_fit(X, y, classes=[-1, 1])
        >>> clf.n_samples_seen_, clf.n_support_ <= 50
        (5000, True)
        >>> X = rng.uniform(-1, 1, size=(1000, 2))
        >>> bool(clf.score(X, np.where(X[:, 0] * X[:, 1] > 0, 1, -1)) > 0.85)
        True
        """
        params = self._solver_params()
        if getattr(self, "probability", False):
            raise ValueError(
                "probability=True is not supported by partial_fit: the probabilities are calibrated in fit, by "
                "cross-validation on all its rows, and would not fit a model continued on a stream. Set "
                "probability=False to continue the model (its probability estimates are then dropped)."
            )
        fitted = hasattr(self, "t_")
        known = self._partial_classes(classes, fitted)
        if getattr(X, "shape", (None,))[0] == 0 and np.asarray(y).size == 0:
            if not fitted:
                raise ValueError("The first call to partial_fit needs at least one row.")
            return self  # an empty chunk: nothing to learn
        X, y = self._fit_input(X, y, reset=not fitted)
        y_index = index_in_classes(y, known)
        if isinstance(self.class_weight, str):
            raise ValueError(
                "class_weight='balanced' is not supported for partial_fit (the class counts of the stream are not "
                "known in advance); pass a dict of class weights."
            )
        class_weight = self._class_factors(known, y)
        weight = self._factors(sample_weight, class_weight, y_index, float(params["C"]), whole=False)
        params["epochs"] = 1
        n = X.shape[0] + (int(self.n_samples_seen_) if fitted else 0)
        return self._run(X, y_index, known, class_weight, weight, params, fitted, n, append=fitted)

    def _factors(self, sample_weight: Any, class_weight: np.ndarray, y_index: np.ndarray, C: float,
                 whole: bool) -> Optional[np.ndarray]:
        """The per-sample factors of C handed to the core (None: all 1), their
        costs checked; ``whole``: the whole problem (two classes of positive
        weight), else a chunk of a stream (one class, or only weight 0, is fine)."""
        weights = self._sample_weights(sample_weight, y_index.shape[0], allow_negative=False)
        self._check_costs(C, class_weight[y_index], weights)
        if weights is None and np.all(class_weight == 1.0):
            return None
        factors = class_weight[y_index].astype(np.float64)
        if weights is not None:
            factors *= weights
        if whole and np.unique(y_index[factors > 0]).size < 2:
            raise ValueError(
                "Fewer than two classes have samples of positive weight (sample_weight times class_weight); "
                "BudgetedSVC needs at least two."
            )
        return np.ascontiguousarray(factors)

    def _run(self, X: Any, y_index: np.ndarray, classes: np.ndarray, class_weight: np.ndarray,
             weight: Optional[np.ndarray], params: Dict[str, Any], continued: bool, n: int, append: bool) -> Any:
        """The steps after the weights, for fit and partial_fit: gamma and the
        kernel's magnitude, the used columns, the start, the core, publishing."""
        params["gamma"] = self._kernel_gamma(X, params, keep=continued)
        X_fit, used = self._compact(X, continued)  # wide sparse: the used columns (_columns.py)
        start = self._start(float(n), used) if continued else None
        result = self._train(X_fit, y_index, len(classes), params, weight, start)
        self._store(result, classes, class_weight, X, used, params, append=append)
        return self

    def _partial_classes(self, classes: Any, fitted: bool) -> np.ndarray:
        """The classes of a partial_fit call (scikit-learn's incremental protocol)."""
        if classes is not None:
            classes = np.unique(np.asarray(classes))
            if classes.size < 2:
                raise ValueError(f"classes must hold at least 2 classes; got {[plain(c) for c in classes]}.")
        if not fitted:
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit.")
            return classes
        if classes is not None and not np.array_equal(classes, self.classes_):
            raise ValueError(
                f"classes={[plain(c) for c in classes]} is not the same as the classes of the model "
                f"{[plain(c) for c in self.classes_]}."
            )
        return self.classes_

    def _check_same_classes(self, classes: np.ndarray) -> None:
        """warm_start: y must hold the classes of the model it continues."""
        if not np.array_equal(classes, self.classes_):
            raise ValueError(
                f"warm_start=True continues a model of the classes {list(plain(c) for c in self.classes_)}; "
                f"y has the classes {list(plain(c) for c in classes)}. Use warm_start=False to train a new model."
            )

    def _train(self, X: Any, y_index: np.ndarray, n_classes: int, params: Dict[str, Any],
               weight: Optional[np.ndarray], start: Optional[Dict[str, Any]]) -> Dict[str, Any]:
        """The core call."""
        monitor = self._seed_and_monitor(params)
        return _core.fit_budgeted(
            core_view(X), y_index.astype(np.int32, copy=False).ravel(), n_classes, params, monitor, weight, start
        )

    def _store(self, result: Dict[str, Any], classes: np.ndarray, class_weight: np.ndarray, X: Any,
               used: Optional[UsedColumns], params: Dict[str, Any], append: bool) -> None:
        """Publishes a training result as the fitted model; `append`: a
        partial_fit call after others (history and counts continue)."""
        self._publish(
            {"support_vectors_": result["support_vectors"], "dual_coef_": result["dual_coef"],
             "intercept_": result["intercept"]},
            classes_=classes,
            class_weight_=class_weight,
            **self._model_attributes(result, X, used, params, append),
            _sigmoids=None,  # probability estimates belong to the model they were fitted for (fit sets them after)
        )

    def _fitted_state(self) -> Dict[str, Any]:
        state = super()._fitted_state()
        state.update(self._kernel_state())
        sigmoids = getattr(self, "_sigmoids", None)
        state.update(prob_a=np.empty(0) if sigmoids is None else sigmoids[0],
                     prob_b=np.empty(0) if sigmoids is None else sigmoids[1])
        return state

    def _restore_fitted_state(self, state: Dict[str, Any]) -> None:
        super()._restore_fitted_state(state)
        self._restore_kernel_state(state)
        prob_a, prob_b = state.get("prob_a"), state.get("prob_b")  # absent or None: no probability estimates
        self._sigmoids = None if prob_a is None or prob_b is None else (prob_a, prob_b)
        for name in ("t_", "n_samples_seen_"):  # partial_fit continues from them (a file without: from the start)
            self._default(name, 0)
