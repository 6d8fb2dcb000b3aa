"""Kernel SVM training on a budget: :class:`BudgetedSVC` and :func:`merge_solution`.

The solvers (BSGD, BSCA) and the budget maintenance (merging, removal,
projection) live in the C++ core (``cpp/include/budgetsvm/budget/``); this
module validates parameters and data once, calls in, and keeps the fitted
model. See ``SPEC.md`` of the project for the formulas.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _core
from ._data import as_supported, core_view, resolve_gamma
from ._params import check_choice, check_number, effective_n_jobs

SOLVERS = ("bsca", "bsgd")
KERNELS = ("rbf", "linear", "poly", "sigmoid")
MAINTENANCE = ("merge", "remove", "project")
MERGE_METHODS = ("gss", "lookup-h", "lookup-wd")
LEARNING_RATES = ("pegasos", "norma", "perceptron")

# Per-epoch statistics reported by the core (and kept in ``history_``).
EPOCH_KEYS = (
    "epoch",
    "steps",
    "sv_added",
    "merges",
    "removals",
    "projections",
    "n_support",
    "maintenance_seconds",
    "seconds",
    "objective",
)
TOTAL_KEYS = ("steps", "sv_added", "merges", "removals", "projections", "maintenance_seconds", "seconds")


def _check_lookup_grid(value: Any, name: str = "lookup_grid") -> int:
    """The merge tables hold ``m = 1/2`` as a grid node: an even resolution."""
    value = check_number(name, value, integer=True, low=2, high=100_000)
    if value % 2:
        raise ValueError(f"{name} must be an even integer (m = 1/2 is a grid node); got {value}.")
    return value


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
        Precision of the golden section search (``gss`` only).
    grid : int, default=400
        Table resolution per axis (lookup methods only; even, so that
        ``m = 1/2`` is a grid node).

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
    eps = check_number("eps", eps, low=0.0, low_inclusive=False, high=1.0, high_inclusive=False)
    grid = _check_lookup_grid(grid, "grid")
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

    The model is ``f(x) = sum_j beta_j k(z_j, x)`` with at most ``budget``
    support vectors ``z_j`` (no bias). Whenever a step would exceed the
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
        Regularisation as in LIBSVM (``lambda = 1 / (C n)`` for BSGD).
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
    epochs : int, default=5
        Passes over the training data. BSCA returns the average of its
        iterates over the last epoch (stable where the last iterate's offset
        jitters, for example at large ``C`` with wide kernels); BSGD returns
        the last iterate.
    learning_rate : {"pegasos", "norma", "perceptron"}, default="pegasos"
        BSGD's step sizes: ``1 / (lambda t)``, ``eta0 / sqrt(t)`` or the
        constant ``eta0`` of the margin perceptron (ignored by BSCA).
    eta0 : float, default=1.0
        Step size constant of ``"norma"`` and ``"perceptron"``.
    radius : float or None, default=None
        Radius of the ball the perceptron's model is projected onto
        (``None``: no projection).
    gss_eps : float, default=0.01
        Precision of the golden section search (``merge_method="gss"``).
    lookup_grid : int, default=400
        Resolution per axis of the merge tables (lookup methods; even).
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the training steps; an int makes runs
        bit-identical.
    n_jobs : int or None, default=None
        Threads for one-vs-rest classes and prediction; ``None`` means 1,
        ``-1`` all cores.
    verbose : int, default=0
        ``1`` prints a progress line per epoch to stderr.
    callback : callable or None, default=None
        Called after every epoch as ``callback(stats)`` with that epoch's
        entry of ``history_`` (a dict); returning ``True`` stops the training
        after that epoch (BSCA then returns its last iterate, not an
        average). Exceptions raised in it propagate out of ``fit``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    support_vectors_ : ndarray of shape (n_support, n_features), float64
        The budget's points ``z_j`` (merged points are not training points).
    dual_coef_ : ndarray of shape (n_outputs, n_support)
        Coefficients ``beta_j``: ``decision_function(x)[k] =
        sum_j dual_coef_[k, j] k(support_vectors_[j], x)``. Binary problems
        have one output (positive means ``classes_[1]``); multi-class
        problems one row per class (the largest output wins). One-vs-rest
        BSCA stacks the machines' support vectors: each has a non-zero
        coefficient in its own class's row only.
    n_support_ : int
        Number of support vectors (at most ``budget``; one-vs-rest BSCA: at
        most ``budget`` per class).
    n_iter_ : int
        Epochs run (fewer than ``epochs`` when the callback stopped).
    gamma_ : float
        The kernel coefficient used.
    fit_stats_ : dict
        Totals of the training: ``steps``, ``sv_added``, ``merges``,
        ``removals``, ``projections``, ``maintenance_seconds``, ``seconds``,
        ``stopped_early``.
    history_ : list of dict
        Statistics at the end of every epoch, counted from the start of
        training: ``epoch``, ``steps``, ``sv_added``, ``merges``,
        ``removals``, ``projections``, ``maintenance_seconds``, ``seconds``;
        and the state then: ``n_support``, ``objective`` (the solver's
        objective where it computes one, else NaN).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
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

    def __init__(
        self,
        solver: str = "bsca",
        budget: int = 500,
        C: float = 1.0,
        kernel: str = "rbf",
        gamma: Any = "scale",
        degree: int = 3,
        coef0: float = 0.0,
        maintenance: str = "merge",
        merge_method: str = "lookup-wd",
        epochs: int = 5,
        learning_rate: str = "pegasos",
        eta0: float = 1.0,
        radius: Optional[float] = None,
        gss_eps: float = 0.01,
        lookup_grid: int = 400,
        random_state: Any = None,
        n_jobs: Optional[int] = None,
        verbose: int = 0,
        callback: Optional[Callable[[Dict[str, Any]], Any]] = None,
    ):
        self.solver = solver
        self.budget = budget
        self.C = C
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

    def _solver_params(self) -> Dict[str, Any]:
        """Validated hyperparameters (all but gamma and the seed)."""
        kernel = check_choice("kernel", self.kernel, KERNELS)
        maintenance = check_choice("maintenance", self.maintenance, MAINTENANCE)
        if maintenance == "merge" and kernel != "rbf":
            raise ValueError(
                f"maintenance='merge' needs the Gaussian kernel (kernel='rbf'); got kernel={kernel!r}. "
                "Use maintenance='remove' or maintenance='project' with other kernels."
            )
        if self.callback is not None and not callable(self.callback):
            raise TypeError(f"callback must be callable or None; got {self.callback!r}.")
        radius = self.radius
        if radius is None:
            radius = math.inf
        else:
            radius = check_number("radius", radius, low=0.0, low_inclusive=False)
        return {
            "solver": check_choice("solver", self.solver, SOLVERS),
            "budget": check_number("budget", self.budget, integer=True, low=2),
            "C": check_number("C", self.C, low=0.0, low_inclusive=False),
            "kernel": kernel,
            "degree": check_number("degree", self.degree, integer=True, low=0),
            "coef0": check_number("coef0", self.coef0),
            "maintenance": maintenance,
            "merge_method": check_choice("merge_method", self.merge_method, MERGE_METHODS),
            "gss_eps": check_number("gss_eps", self.gss_eps, low=0.0, low_inclusive=False, high=1.0, high_inclusive=False),
            "lookup_grid": _check_lookup_grid(self.lookup_grid),
            "epochs": check_number("epochs", self.epochs, integer=True, low=1),
            "learning_rate": check_choice("learning_rate", self.learning_rate, LEARNING_RATES),
            "eta0": check_number("eta0", self.eta0, low=0.0, low_inclusive=False),
            "radius": radius,
            "n_jobs": effective_n_jobs(self.n_jobs),
        }

    def fit(self, X: Any, y: Any) -> "BudgetedSVC":
        """Train the budgeted SVM.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Dense float32/float64 arrays (C or F order) and CSR matrices are
            read in place; anything else is converted once.
        y : array-like of shape (n_samples,)
            Class labels of any hashable type (at least two classes).

        Returns
        -------
        self : BudgetedSVC
            The fitted estimator.
        """
        params = self._solver_params()
        verbose = int(self.verbose) if isinstance(self.verbose, (bool, np.bool_)) else self.verbose
        verbose = check_number("verbose", verbose, integer=True, low=0)
        X, y = validate_data(
            self,
            X,
            y,
            accept_sparse="csr",
            dtype=[np.float64, np.float32],
            order=None,
            ensure_all_finite=False,  # checked once, in C++, by as_supported
        )
        X = as_supported(X)
        check_classification_targets(y)
        classes, y_index = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError(
                f"BudgetedSVC needs samples of at least 2 classes in the data; got 1 class ({classes[0]!r})."
            )
        params["gamma"] = resolve_gamma(self.gamma, X)
        seed = int(check_random_state(self.random_state).randint(np.iinfo(np.int64).max, dtype=np.int64))
        params["seed"] = seed

        monitor = _EpochMonitor(params["epochs"], verbose, self.callback)
        result = _core.fit_budgeted(
            core_view(X), y_index.astype(np.int32, copy=False).ravel(), len(classes), params, monitor
        )

        if not (np.all(np.isfinite(result["dual_coef"])) and np.all(np.isfinite(result["support_vectors"]))):
            raise RuntimeError(
                "Training produced non-finite coefficients; try a smaller C or eta0, or maintenance='remove'."
            )
        self.classes_ = classes
        self.gamma_ = params["gamma"]
        self.support_vectors_ = np.asarray(result["support_vectors"], dtype=np.float64)
        self.dual_coef_ = np.ascontiguousarray(np.asarray(result["dual_coef"], dtype=np.float64).T)
        self.n_support_ = int(self.support_vectors_.shape[0])
        self.n_iter_ = int(result["epochs_run"])
        self.history_ = [dict(s) for s in result["history"]]
        self.fit_stats_ = {key: result[key] for key in TOTAL_KEYS}
        self.fit_stats_["stopped_early"] = bool(result["stopped_early"])
        self._fitted_kernel = (params["kernel"], params["gamma"], params["degree"], params["coef0"])
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Evaluate ``f(x) = sum_j beta_j k(z_j, x)``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        decision : ndarray of shape (n_samples,) or (n_samples, n_classes)
            Binary: positive values predict ``classes_[1]``. Multi-class: one
            column per class, the largest value wins.
        """
        check_is_fitted(self)
        X = validate_data(
            self, X, accept_sparse="csr", dtype=[np.float64, np.float32], order=None, ensure_all_finite=False, reset=False
        )
        X = as_supported(X)
        coef = np.ascontiguousarray(self.dual_coef_.T)
        kernel, gamma, degree, coef0 = self._fitted_kernel
        if self.n_support_ == 0:
            scores = np.zeros((X.shape[0], coef.shape[1]))
        else:
            scores = _core.decision_function(
                core_view(X),
                self.support_vectors_,
                coef,
                kernel,
                gamma,
                degree,
                coef0,
                effective_n_jobs(self.n_jobs),
            )
        if scores.shape[1] == 1:
            return scores[:, 0]
        return scores

    def predict(self, X: Any) -> np.ndarray:
        """Predict class labels.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
