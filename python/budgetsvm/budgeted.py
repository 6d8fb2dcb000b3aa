"""Kernel SVM training on a budget: :class:`BudgetedSVC` and :func:`merge_solution`.

The solvers (BSGD, BSCA) and the budget maintenance (merging, removal,
projection) live in the C++ core (``cpp/include/budgetsvm/budget/``); this
module validates parameters and data once, calls in, and keeps the fitted
model. ``docs/budgeted.md`` states the formulas.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _core
from ._labels import encode_labels, index_in_classes
from ._atomic import atomic_fit, fitted_view
from ._columns import UsedColumns, scale_outside
from ._data import as_supported, core_view, resolve_gamma
from ._magnitude import DBL_MAX, check_costs, check_finite_fit, check_kernel_magnitude
from ._params import (
    check_choice,
    check_class_weight_spec,
    check_class_weights,
    check_number,
    check_sample_weight,
    choices,
    core_params,
    effective_n_jobs,
    requested_jobs,
    options,
    plain,
)

MERGE_METHODS = choices("budgeted", "merge_method")

TOTAL_KEYS = (
    "steps",
    "sv_added",
    "merges",
    "removals",
    "projections",
    "maintenance_seconds",
    "merge_degradation",
    "merge_partner_weight",
    "seconds",
)


def _check_class_weight(class_weight: Any, classes: np.ndarray, y: np.ndarray) -> np.ndarray:
    """scikit-learn's class weights (None, a dict or "balanced") as one factor per class."""
    check_class_weight_spec(class_weight)
    return check_class_weights(compute_class_weight(class_weight, classes=classes, y=y), classes)


def _sample_factors(sample_weight: Any, class_weight: np.ndarray, y_index: np.ndarray, n: int) -> Optional[np.ndarray]:
    """The per-sample factors of C handed to the core (None: all 1)."""
    if sample_weight is None and np.all(class_weight == 1.0):
        return None
    factors = class_weight[y_index].astype(np.float64)
    if sample_weight is not None:
        factors *= check_sample_weight(sample_weight, n, allow_negative=False)
    kept = np.unique(y_index[factors > 0])
    if kept.size < 2:
        raise ValueError(
            "Fewer than two classes have samples of positive weight (sample_weight times class_weight); "
            "BudgetedSVC needs at least two."
        )
    return np.ascontiguousarray(factors)


def _chunk_factors(
    sample_weight: Any, class_weight: np.ndarray, y_index: np.ndarray, n: int
) -> Optional[np.ndarray]:
    """The per-sample factors of C for one partial_fit chunk (None: all 1); a
    chunk may hold one class, or only rows of weight 0."""
    if sample_weight is None and np.all(class_weight == 1.0):
        return None
    factors = class_weight[y_index].astype(np.float64)
    if sample_weight is not None:
        factors *= check_sample_weight(sample_weight, n, allow_negative=False)
    return np.ascontiguousarray(factors)


def merge_solution(
    m: float,
    kappa: float,
    method: str = "lookup-wd",
    eps: float = 0.01,
    grid: int = 400,
) -> Tuple[float, float]:
    """Solve the merge sub-problem of two Gaussian support vectors.

    Merging ``(beta_a, z_a)`` and ``(beta_b, z_b)`` (same sign) into
    ``(beta_z, z)`` with ``z = h z_a + (1 - h) z_b`` maximises
    ``g(h) = m kappa^((1-h)^2) + (1-m) kappa^(h^2)`` over ``h in [0, 1]``,
    where ``m = beta_a / (beta_a + beta_b)`` and ``kappa = k(z_a, z_b)``.
    The weight degradation is ``||Delta||^2 = (beta_a + beta_b)^2 WD(m, kappa)``
    with the normalised ``WD(m, kappa) = m^2 + (1-m)^2 + 2 m (1-m) kappa - g(h*)^2``.

    Parameters
    ----------
    m : float in [0, 1]
        Relative weight of the point that ``h`` multiplies.
    kappa : float in (0, 1]
        Kernel value ``k(z_a, z_b)`` of the two points.
    method : {"gss", "lookup-h", "lookup-wd"}, default="lookup-wd"
        ``gss``: golden section search to precision ``eps`` (the endpoints
        ``h = 0, 1`` are compared too); ``lookup-h``: bilinear interpolation of
        a precomputed table of ``h*``; ``lookup-wd``: interpolation of a table of
        ``WD`` (and of ``h*`` for the returned ``h``).
    eps : float, default=0.01
        Precision of the golden section search (``gss`` only), in [1e-12, 1).
    grid : int, default=400
        Table resolution per axis (lookup methods only; even, so that
        ``m = 1/2`` is a grid node; at most 2000).

    Returns
    -------
    h : float
        The merge coefficient: ``z = h z_a + (1 - h) z_b``.
    wd : float
        The normalised weight degradation ``WD(m, kappa)`` (>= 0).

    Examples
    --------
    >>> from budgetsvm import merge_solution
    >>> h, wd = merge_solution(0.5, 0.9)  # equal weights, close points: the midpoint
    >>> round(h, 3), round(wd, 4)
    (0.5, 0.0013)
    >>> h, wd = merge_solution(0.8, 0.05)  # distant points: z stays near the heavier one
    >>> round(h, 2), round(wd, 3)
    (0.99, 0.039)
    """
    m = check_number("m", m, low=0.0, high=1.0)
    kappa = check_number("kappa", kappa, low=0.0, low_inclusive=False, high=1.0)
    method = check_choice("method", method, MERGE_METHODS)
    # the ranges of the core's gss_eps and lookup_grid (the parity rule is the core's)
    eps_range, grid_range = options("budgeted")["gss_eps"], options("budgeted")["lookup_grid"]
    eps = check_number("eps", eps, low=eps_range["low"], high=eps_range["high"], high_inclusive=False)
    grid = check_number("grid", grid, integer=True, low=grid_range["low"], high=grid_range["high"])
    h, wd = _core.merge_solution(m, kappa, method=method, eps=eps, grid=grid)
    return float(h), float(wd)


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


class BudgetedSVC(ClassifierMixin, BaseEstimator):
    """Kernel SVM trained on a budget of support vectors (BSCA or BSGD).

    The model is ``f(x) = sum_j beta_j k(z_j, x) + b`` with at most ``budget``
    support vectors ``z_j``. Whenever a step would exceed the
    budget, budget maintenance merges two support vectors into one
    (Gaussian kernel), removes one, or projects one onto the others.
    Training costs ``O(n * budget * n_features)`` per epoch and
    ``O(budget * n_features + n)`` memory, whatever ``n`` is.

    Parameters
    ----------
    solver : {"bsca", "bsgd"}, default="bsca"
        ``bsca``: budgeted stochastic coordinate ascent on the dual
        (Qaadan, Schüler and Glasmachers, 2019); multi-class by one-vs-rest,
        the classes trained in parallel (``n_jobs``).
        ``bsgd``: budgeted stochastic gradient descent on the primal (Wang,
        Crammer and Vucetic, 2012); multi-class natively (Crammer-Singer).
    budget : int, default=500
        Maximal number of support vectors (>= 2). With ``solver="bsca"`` on
        a multi-class problem every one-vs-rest machine has its own budget,
        so the model holds up to ``n_classes * budget`` support vectors;
        BSGD's Crammer-Singer model shares one budget among all classes.
    C : float, default=1.0
        Regularisation as in LIBSVM (``lambda = 1 / (C n)`` for BSGD);
        sample ``i`` uses ``C * class_weight[y_i] * sample_weight[i]``.
    fit_intercept : bool, default=False
        Learn the offset ``b`` (``intercept_``), as the weight of a constant
        feature of value 1 that is regularised with the rest (LIBLINEAR's
        ``bias=1``); it is kept exactly, outside the budget. ``False``: ``b = 0``
        (the default for both solvers: the offset helps BSCA on imbalanced
        noisy data at large ``C`` and costs accuracy elsewhere, most of all
        BSGD's; ``docs/budgeted.md``).
    class_weight : dict, "balanced" or None, default=None
        Multiplies ``C`` per class, as in scikit-learn's ``SVC``.
    kernel : {"rbf", "linear", "poly", "sigmoid"}, default="rbf"
        Merging needs ``"rbf"``; use ``maintenance="remove"`` or
        ``"project"`` with the others.
    gamma : float, "scale" or "auto", default="scale"
        Kernel coefficient as in scikit-learn; the value used is ``gamma_``.
    degree : int, default=3
        Degree of the ``"poly"`` kernel.
    coef0 : float, default=0.0
        Constant of the ``"poly"`` and ``"sigmoid"`` kernels.
    maintenance : {"merge", "remove", "project"}, default="merge"
        Budget maintenance strategy.
    merge_method : {"gss", "lookup-h", "lookup-wd"}, default="lookup-wd"
        How the merge coefficient is found: golden section search, or the
        precomputed tables (see :func:`merge_solution`).
    epochs : int, default=3
        Passes over the training data. At 3 BSCA was within 0.6 points of
        the exact SVM on every benchmark set, and 10 epochs scored no better
        at the median of 80 noisy cells (BSGD gained 1 point;
        ``docs/benchmarks.md``). BSCA returns the average of its
        iterates over the last epoch (over the second half of a single
        pass); BSGD returns the last iterate.
    learning_rate : {"pegasos", "norma", "perceptron"}, default="pegasos"
        BSGD's step sizes: ``1 / (lambda t)``, ``eta0 / sqrt(t)`` or the
        constant ``eta0`` of the margin perceptron (ignored by BSCA).
    eta0 : float, default=1.0
        Step size constant of ``"norma"`` and ``"perceptron"``.
    radius : float or None, default=None
        Radius of the ball the perceptron's model is projected onto
        (``None``: no projection).
    gss_eps : float, default=0.01
        Precision of the golden section search (``merge_method="gss"``), in
        [1e-12, 1).
    lookup_grid : int, default=400
        Resolution per axis of the merge tables (lookup methods; even).
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the training steps; an int makes runs
        bit-identical.
    n_jobs : int or None, default=None
        Parallel training and prediction; ``None`` means 1, ``-1`` all cores.
        A binary problem (and BSGD's multi-class model) is split into
        ``n_jobs`` data shards trained in parallel and mixed after every
        epoch (``docs/scale.md``): the model depends on ``n_jobs`` (as given,
        never on the machine), not only on ``random_state``. One-vs-rest BSCA
        trains its classes in parallel instead (the model does not depend on
        ``n_jobs``). Threads are capped at the cores available. Two shards
        run a fit of the same ``epochs`` about 1.6-1.8x faster on two cores.
        They learn less per epoch than one thread, so reaching the same
        accuracy may take one more epoch.
    verbose : int, default=0
        ``1`` prints a progress line per epoch to stderr.
    instruments : bool, default=False
        Record per-epoch statistics that cost one extra pass over the data
        per epoch: in ``history_``, ``objective`` (the primal objective
        ``||w||^2 / 2 + sum_i C_i max(0, 1 - y_i f(x_i))`` of the model the
        epoch ends with, the intercept's constant feature included), ``sq_norm``
        (``||w||^2``) and, for BSCA, how many dual variables are at 0, at
        their bound ``C_i``, or in between (``alpha_zero``, ``alpha_bound``,
        ``alpha_free``). Off: those entries are NaN or -1.
    callback : callable or None, default=None
        Called after every epoch as ``callback(stats)`` with that epoch's
        entry of ``history_`` (a dict); returning ``True`` stops the training
        after that epoch (BSCA then returns its last iterate, not an
        average). Exceptions raised in it propagate out of ``fit``.
    warm_start : bool, default=False
        ``fit`` continues the fitted model (same classes and features)
        instead of starting from an empty one: BSGD continues its step
        counter, BSCA its growing first pass with ``X``'s rows as new dual
        variables (``docs/scale.md``). :meth:`partial_fit` always continues.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    support_vectors_ : ndarray or CSR matrix of shape (n_support, n_features), float64
        The budget's points ``z_j`` (merged points are not training points);
        a CSR matrix when ``X`` was sparse. Wide sparse data are trained on
        the columns they use (the same problem; see ``_columns.py``).
    dual_coef_ : ndarray of shape (n_outputs, n_support)
        Coefficients ``beta_j``: ``decision_function(x)[k] =
        sum_j dual_coef_[k, j] k(support_vectors_[j], x)``. Binary problems
        have one output (positive means ``classes_[1]``); multi-class
        problems one row per class (the largest output wins). One-vs-rest
        BSCA stacks the machines' support vectors: each has a non-zero
        coefficient in its own class's row only.
    intercept_ : ndarray of shape (n_outputs,)
        The offsets ``b`` (zeros with ``fit_intercept=False``).
    class_weight_ : ndarray of shape (n_classes,)
        The factor of ``C`` for each class.
    n_support_ : int
        Number of support vectors (at most ``budget``; one-vs-rest BSCA: at
        most ``budget`` per class).
    n_iter_ : int
        Epochs run (fewer than ``epochs`` when the callback stopped).
    gamma_ : float
        The kernel coefficient used.
    fit_stats_ : dict
        Totals of the training: ``steps``, ``sv_added``, ``merges``,
        ``removals``, ``projections`` (of the model trained; BSCA's averaged
        model's own merges are not counted), ``maintenance_seconds`` (all
        budget maintenance, BSCA's averaged model's included),
        ``merge_degradation`` (the sum over merges of the weight degradation
        ``||Delta||^2``), ``merge_partner_weight`` (the sum of the merge
        partners' ``|beta|``), ``seconds``, ``stopped_early``, ``averaged``
        (BSCA: how many of its machines return the average of their
        iterates; the others return the last iterate, whose primal objective
        on a sample of the training rows was lower), ``mix_fallbacks``
        (``n_jobs`` > 1: the mixes after which one shard's model went on
        instead of the merged average, because merging lost more than that
        shard differs from the average; 0 for one shard).
    history_ : list of dict
        Statistics at the end of every epoch: the totals above counted from
        the start of training; ``progressive_loss`` (that epoch's
        ``sum_i C_i max(0, 1 - y_i f(x_i))``, each row's loss taken with the
        model at its visit); the state then: ``n_support``; and the
        ``instruments`` entries (NaN or -1 unless ``instruments=True``).
    t_ : int
        Training steps taken so far (one machine's count): BSGD's step
        counter, BSCA's growing-pass count; :meth:`partial_fit` and
        ``warm_start`` continue from it.
    n_samples_seen_ : int
        The ``n`` of ``lambda = 1 / (C n)`` the model was trained for: the
        rows of ``fit``, or all rows passed to :meth:`partial_fit` so far.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Feature names, when ``X`` has string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import BudgetedSVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(2000, 2))
    >>> y = np.where(X[:, 0] * X[:, 1] > 0, "same", "diff")
    >>> clf = BudgetedSVC(budget=50, C=10, gamma=2.0, random_state=0).fit(X, y)
    >>> clf.n_support_ <= 50
    True
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    history_: List[Dict[str, Any]]  # fitted attributes whose type mypy cannot infer
    n_iter_: int

    def __init__(
        self,
        solver: str = "bsca",
        budget: int = 500,
        C: float = 1.0,
        fit_intercept: bool = False,
        class_weight: Any = None,
        kernel: str = "rbf",
        gamma: Any = "scale",
        degree: int = 3,
        coef0: float = 0.0,
        maintenance: str = "merge",
        merge_method: str = "lookup-wd",
        epochs: int = 3,
        learning_rate: str = "pegasos",
        eta0: float = 1.0,
        radius: Optional[float] = None,
        gss_eps: float = 0.01,
        lookup_grid: int = 400,
        random_state: Any = None,
        n_jobs: Optional[int] = None,
        verbose: int = 0,
        callback: Optional[Callable[[Dict[str, Any]], Any]] = None,
        instruments: bool = False,
        warm_start: bool = False,
    ):
        self.solver = solver
        self.budget = budget
        self.C = C
        self.fit_intercept = fit_intercept
        self.class_weight = class_weight
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.maintenance = maintenance
        self.merge_method = merge_method
        self.epochs = epochs
        self.learning_rate = learning_rate
        self.eta0 = eta0
        self.radius = radius
        self.gss_eps = gss_eps
        self.lookup_grid = lookup_grid
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.callback = callback
        self.instruments = instruments
        self.warm_start = warm_start

    def _solver_params(self) -> Dict[str, Any]:
        """The core's hyperparameters, checked (all but gamma and the seed,
        which need the data and the random state)."""
        if self.callback is not None and not callable(self.callback):
            raise TypeError(f"callback must be callable or None; got {self.callback!r}.")
        return core_params(
            self,
            "budgeted",
            later=("gamma",),
            radius=math.inf if self.radius is None else self.radius,
            n_jobs=effective_n_jobs(self.n_jobs),
            shards=requested_jobs(self.n_jobs),
        )

    @atomic_fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "BudgetedSVC":
        """Train the budgeted SVM.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Dense float32/float64 arrays (C or F order) and CSR matrices are
            read in place; anything else is converted once.
        y : array-like of shape (n_samples,)
            Class labels of any hashable type (at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample factors of ``C`` (finite, >= 0; samples of weight 0
            are left out of the problem).

        Returns
        -------
        self : BudgetedSVC
            The fitted estimator.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedSVC
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(400, 2))
        >>> y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1).astype(int)
        >>> weights = np.where(y == 1, 2.0, 1.0)  # class 1's points count twice
        >>> clf = BudgetedSVC(budget=30, epochs=3, random_state=0).fit(X, y, sample_weight=weights)
        >>> clf.n_support_ <= 30, clf.n_iter_
        (True, 3)
        """
        params = self._solver_params()
        warm = bool(self.warm_start) and hasattr(self, "t_")
        X, y = validate_data(
            self,
            X,
            y,
            accept_sparse="csr",
            dtype=[np.float64, np.float32],
            order=None,
            ensure_all_finite=False,  # checked once, in C++, by as_supported
            reset=not warm,
        )
        X = as_supported(X)
        check_classification_targets(y)
        classes, y_index = encode_labels(y)
        if len(classes) < 2:
            raise ValueError(
                f"BudgetedSVC needs samples of at least 2 classes in the data; got 1 class ({plain(classes[0])!r})."
            )
        if warm and not np.array_equal(classes, self.classes_):
            raise ValueError(
                f"warm_start=True continues a model of the classes {list(plain(c) for c in self.classes_)}; "
                f"y has the classes {list(plain(c) for c in classes)}. Use warm_start=False to train a new model."
            )
        class_weight = _check_class_weight(self.class_weight, classes, y)
        weight = _sample_factors(sample_weight, class_weight, y_index, X.shape[0])
        check_costs("BudgetedSVC", float(params["C"]), class_weight[y_index], sample_weight)
        params["gamma"] = self._kernel_gamma(X, params, keep=warm)
        X_fit, used = self._compact(X, warm)  # wide sparse: the used columns (_columns.py)
        start = self._start(float(X.shape[0]), used) if warm else None
        result = self._train(X_fit, y_index, len(classes), params, weight, start)
        self._store(result, classes, class_weight, X, used, params, append=False)
        return self

    @atomic_fit
    def partial_fit(self, X: Any, y: Any, classes: Any = None, sample_weight: Any = None) -> "BudgetedSVC":
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
        fitted = hasattr(self, "t_")
        known = self._partial_classes(classes, fitted)
        if getattr(X, "shape", (None,))[0] == 0 and np.asarray(y).size == 0:
            if not fitted:
                raise ValueError("The first call to partial_fit needs at least one row.")
            return self  # an empty chunk: nothing to learn
        X, y = validate_data(
            self,
            X,
            y,
            accept_sparse="csr",
            dtype=[np.float64, np.float32],
            order=None,
            ensure_all_finite=False,
            reset=not fitted,
        )
        X = as_supported(X)
        check_classification_targets(y)
        y_index = index_in_classes(y, known)
        if isinstance(self.class_weight, str):
            raise ValueError(
                "class_weight='balanced' is not supported for partial_fit (the class counts of the stream are not "
                "known in advance); pass a dict of class weights."
            )
        class_weight = _check_class_weight(self.class_weight, known, y)
        weight = _chunk_factors(sample_weight, class_weight, y_index, X.shape[0])
        check_costs("BudgetedSVC", float(params["C"]), class_weight[y_index], sample_weight)
        params["gamma"] = self._kernel_gamma(X, params, keep=fitted)
        params["epochs"] = 1
        n = X.shape[0] + (int(self.n_samples_seen_) if fitted else 0)
        X_fit, used = self._compact(X, fitted)
        start = self._start(float(n), used) if fitted else None
        result = self._train(X_fit, y_index, len(known), params, weight, start)
        self._store(result, known, class_weight, X, used, params, append=fitted)
        return self

    def _compact(self, X: Any, continued: bool) -> Tuple[Any, Optional[UsedColumns]]:
        """The call's data on the columns used (wide sparse data, _columns.py):
        a continued model trained on all columns stays on all of them; one
        trained on its used columns goes on with those and the new rows'."""
        if not continued:
            return UsedColumns.compact(X)
        if self._used_columns is None:
            return X, None
        return UsedColumns.compact(X, keep=self._used_columns)

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
            "intercept": self.intercept_,
            "steps": int(self.t_),
            "n_ref": float(self.n_samples_seen_),
            "n": n,
        }

    def _train(
        self,
        X: Any,
        y_index: np.ndarray,
        n_classes: int,
        params: Dict[str, Any],
        weight: Optional[np.ndarray],
        start: Optional[Dict[str, Any]],
    ) -> Dict[str, Any]:
        verbose = int(self.verbose) if isinstance(self.verbose, (bool, np.bool_)) else self.verbose
        verbose = check_number("verbose", verbose, integer=True, low=0)
        params["seed"] = int(check_random_state(self.random_state).randint(np.iinfo(np.int64).max, dtype=np.int64))
        monitor = _EpochMonitor(params["epochs"], verbose, self.callback)
        result = _core.fit_budgeted(
            core_view(X), y_index.astype(np.int32, copy=False).ravel(), n_classes, params, monitor, weight, start
        )
        return result

    def _store(
        self,
        result: Dict[str, Any],
        classes: np.ndarray,
        class_weight: np.ndarray,
        X: Any,
        used: Optional[UsedColumns],
        params: Dict[str, Any],
        append: bool,
    ) -> None:
        """Keeps a training result as the fitted model; `append`: a partial_fit
        call after others (history and counts continue)."""
        check_finite_fit(self, support_vectors_=result["support_vectors"], dual_coef_=result["dual_coef"],
                         intercept_=result["intercept"])
        history: List[Dict[str, Any]] = [dict(s) for s in result["history"]]
        if append:
            earlier = self.history_
            for s in history:
                s["epoch"] = int(s["epoch"]) + len(earlier)
            history = earlier + history
        self.classes_ = classes
        self.class_weight_ = class_weight
        self.intercept_ = np.asarray(result["intercept"], dtype=np.float64)
        self.gamma_ = params["gamma"]
        # the rows the core computes with (in the training columns), and the
        # public ones: CSR in the original columns when X was sparse
        self._support_rows = np.ascontiguousarray(result["support_vectors"], dtype=np.float64)
        self._used_columns = used
        if used is not None:
            self.support_vectors_ = used.expand(self._support_rows)
        elif sp.issparse(X):
            self.support_vectors_ = sp.csr_matrix(self._support_rows)
        else:
            self.support_vectors_ = self._support_rows
        self.dual_coef_ = np.ascontiguousarray(np.asarray(result["dual_coef"], dtype=np.float64).T)
        self.n_support_ = int(self._support_rows.shape[0])
        self.n_iter_ = self.n_iter_ + 1 if append else int(result["epochs_run"])
        self.history_ = history
        self.fit_stats_ = {key: result[key] for key in TOTAL_KEYS}
        self.fit_stats_["stopped_early"] = bool(result["stopped_early"])
        self.fit_stats_["averaged"] = int(result["averaged"])
        self.fit_stats_["mix_fallbacks"] = int(result["mix_fallbacks"])
        self.t_ = int(result["steps_total"])
        self.n_samples_seen_ = int(round(result["n_ref"]))
        self._fitted_kernel = (params["kernel"], params["gamma"], params["degree"], params["coef0"])

    @fitted_view
    def decision_function(self, X: Any) -> np.ndarray:
        """Evaluate ``f(x) = sum_j beta_j k(z_j, x) + b``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        decision : ndarray of shape (n_samples,) or (n_samples, n_classes)
            Binary: positive values predict ``classes_[1]``. Multi-class: one
            column per class, the largest value wins.

        Examples
        --------
        >>> from budgetsvm import BudgetedSVC
        >>> clf = BudgetedSVC(budget=10, gamma=1.0, random_state=0)
        >>> clf = clf.fit([[0.0], [0.2], [1.0], [1.2]], ["low", "low", "high", "high"])
        >>> clf.classes_.tolist()
        ['high', 'low']
        >>> scores = clf.decision_function([[0.1], [1.1]])
        >>> scores.shape, bool(scores[0] > 0 > scores[1])  # positive: classes_[1]
        ((2,), True)
        """
        check_is_fitted(self)
        X = validate_data(
            self,
            X,
            accept_sparse="csr",
            dtype=[np.float64, np.float32],
            order=None,
            ensure_all_finite=False,
            reset=False,
        )
        coef = np.ascontiguousarray(self.dual_coef_.T)
        kernel, gamma, degree, coef0 = self._fitted_kernel
        outside = None
        if self._used_columns is not None:
            X, outside = self._used_columns.restrict(X)
        X = as_supported(X)
        if self.n_support_ == 0:
            scores = np.zeros((X.shape[0], coef.shape[1])) + self.intercept_
        else:
            scores = _core.decision_function(
                core_view(X),
                self._support_rows,
                coef,
                kernel,
                gamma,
                degree,
                coef0,
                effective_n_jobs(self.n_jobs),
            )
            if outside is not None:
                scores = scale_outside(scores, outside, kernel, gamma)
            scores += self.intercept_
        if scores.shape[1] == 1:
            return scores[:, 0]
        return scores

    @fitted_view
    def predict(self, X: Any) -> np.ndarray:
        """Predict class labels.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Labels from ``classes_``.

        Examples
        --------
        >>> from budgetsvm import BudgetedSVC
        >>> clf = BudgetedSVC(budget=10, gamma=1.0, random_state=0)
        >>> clf = clf.fit([[0.0], [0.2], [1.0], [1.2]], ["low", "low", "high", "high"])
        >>> clf.predict([[0.1], [1.1]]).tolist()
        ['low', 'high']
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
