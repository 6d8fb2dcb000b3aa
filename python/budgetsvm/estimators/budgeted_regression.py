"""Regression and novelty detection on a budget: :class:`BudgetedSVR` and
:class:`BudgetedOneClassSVM`.

The solvers live in the C++ core (``cpp/include/budgetsvm/budget/regression.hpp``:
epsilon-SVR by BSGD or BSCA, the nu one-class machine by BSGD), on the
budget model, budget maintenance and blocked epochs of the classifier. This
module declares the estimators' parameters, translates them to the core's
options and runs the shared steps (``_budget_model.BudgetKernelSteps``) on
the regressor's and the detector's pipelines (``_base``).
``docs/budgeted.md`` ("Regression", "Novelty detection") states the math.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Callable, Dict, Optional

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .. import _core
from .._atomic import atomic_fit
from .._columns import UsedColumns
from .._data import core_view
from .._params import check_number, core_params, effective_n_jobs
from ._base import PipelineOutlierDetector, PipelineRegressor
from ._budget_model import BudgetKernelSteps

__all__ = ["BudgetedOneClassSVM", "BudgetedSVR"]


def _checked_callback(callback: Any) -> None:
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable or None; got {callback!r}.")


class BudgetedSVR(BudgetKernelSteps, PipelineRegressor):
    """Kernel support vector regression trained on a budget of support vectors (BSCA or BSGD).

    The model is ``f(x) = sum_j beta_j k(z_j, x) + intercept_`` with at most
    ``budget`` support vectors ``z_j``, fitted to the epsilon-insensitive
    loss ``max(0, |y - f(x)| - epsilon)``. The coefficients ``beta_j`` have
    either sign; when a step would exceed the budget, budget maintenance
    merges two support vectors whose coefficients have the same sign
    (Gaussian kernel), removes one, or projects one onto the others, as
    :class:`~budgetsvm.BudgetedSVC` does. Training costs
    ``O(n * budget * n_features)`` per epoch.

    The targets are centred first: the model is fitted to ``y - m`` with
    ``m`` the (sample-weighted) mean of ``y`` in ``fit`` (of the first
    chunk in :meth:`partial_fit`), and ``intercept_`` is ``m`` plus the
    learned offset ``b`` (``fit_intercept``).

    Parameters
    ----------
    solver : {"bsca", "bsgd"}, default="bsca"
        ``bsca``: budgeted stochastic coordinate ascent on the dual, each
        step the exact maximiser along one coefficient (a soft threshold
        clipped to ``[-C_i, C_i]``); ``bsgd``: budgeted stochastic gradient
        descent (Pegasos) on the primal.
    budget : int, default=500
        Maximal number of support vectors (>= 2).
    C : float, default=1.0
        Regularisation as in scikit-learn's ``SVR`` (``lambda = 1 / (C n)``
        for BSGD); sample ``i`` uses ``C * sample_weight[i]``.
    epsilon : float, default=0.1
        Half-width of the tube in which errors cost nothing (>= 0), in the
        units of ``y``.
    fit_intercept : bool, default=False
        Learn an offset ``b`` beyond the mean, as the weight of a constant
        feature of value 1 regularised with the rest (as ``BudgetedSVC``).
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
        How the merge coefficient is found (see :func:`~budgetsvm.merge_solution`).
    epochs : int, default=3
        Passes over the training data. BSCA returns the average of its
        iterates over the last epoch (the second half of a single pass)
        when that is not worse on a sample of the rows; BSGD the last iterate.
    learning_rate : {"pegasos", "norma", "perceptron"}, default="pegasos"
        BSGD's step sizes (ignored by BSCA).
    eta0 : float, default=1.0
        Step size constant of ``"norma"`` and ``"perceptron"``.
    radius : float or None, default=None
        Radius of the ball the perceptron's model is projected onto.
    gss_eps : float, default=0.01
        Precision of the golden section search (``merge_method="gss"``).
    lookup_grid : int, default=400
        Resolution per axis of the merge tables (lookup methods; even).
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the training steps; an int makes runs bit-identical.
    n_jobs : int or None, default=None
        Threads of the kernel tiles in training and of the prediction
        (``None``: 1, ``-1``: all cores); the model is the same for every value.
    verbose : int, default=0
        ``1`` prints a progress line per epoch to stderr.
    instruments : bool, default=False
        Record per epoch, in ``history_``, the primal objective
        ``||w||^2 / 2 + sum_i C_i max(0, |y_i - f(x_i)| - epsilon)`` and
        ``||w||^2`` (one extra pass per epoch); BSCA also counts the
        coefficients at 0, at ``|beta_i| = C_i`` and in between.
    callback : callable or None, default=None
        Called after every epoch with that epoch's entry of ``history_``;
        returning ``True`` stops the training after it.
    warm_start : bool, default=False
        ``fit`` continues the fitted model (same features) instead of
        starting from an empty one; the centring mean stays the fitted one.

    Attributes
    ----------
    support_vectors_ : ndarray or CSR matrix of shape (n_support, n_features)
        The budget's points ``z_j`` (a CSR matrix when ``X`` was sparse).
    dual_coef_ : ndarray of shape (1, n_support)
        The coefficients ``beta_j`` (either sign).
    intercept_ : ndarray of shape (1,)
        ``m + b``: the centring mean and the learned offset.
    n_support_ : int
        Number of support vectors (at most ``budget``).
    n_iter_ : int
        Epochs run.
    gamma_ : float
        The kernel coefficient used.
    fit_stats_ : dict
        Totals of the training (``BudgetedSVC.fit_stats_``'s keys).
    history_ : list of dict
        Statistics at the end of every epoch; ``progressive_loss`` is the
        epoch's ``sum_i C_i max(0, |y_i - f(x_i)| - epsilon)``, each row's
        loss taken with the model at its visit.
    t_ : int
        Training steps taken so far; :meth:`partial_fit` and ``warm_start``
        continue from it.
    n_samples_seen_ : int
        The ``n`` of ``lambda = 1 / (C n)`` the model was trained for.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Feature names, when ``X`` has string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import BudgetedSVR
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-2, 2, size=(2000, 1))
    >>> y = np.sin(2 * X[:, 0])
    >>> reg = BudgetedSVR(budget=40, C=10, epsilon=0.01, gamma=2.0, random_state=0).fit(X, y)
    >>> reg.n_support_ <= 40
    True
    >>> bool(reg.score(X, y) > 0.99)
    True
    """

    _name = "BudgetedSVR"
    _validate_finite = False  # as_supported finds non-finite values in X, once, in C++ (the base checks y)
    _y_offset: float

    def __init__(
        self,
        solver: str = "bsca",
        budget: int = 500,
        C: float = 1.0,
        epsilon: float = 0.1,
        fit_intercept: bool = False,
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
        instruments: bool = False,
        callback: Optional[Callable[[Dict[str, Any]], Any]] = None,
        warm_start: bool = False,
    ):
        self.solver = solver
        self.budget = budget
        self.C = C
        self.epsilon = epsilon
        self.fit_intercept = fit_intercept
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
        self.instruments = instruments
        self.callback = callback
        self.warm_start = warm_start

    def _solver_params(self) -> Dict[str, Any]:
        """The core's hyperparameters, checked (gamma and the seed come later)."""
        _checked_callback(self.callback)
        return core_params(self, "budgeted", later=("gamma",), radius=math.inf if self.radius is None else self.radius,
                           n_jobs=effective_n_jobs(self.n_jobs))

    def _epsilon(self) -> float:
        return float(check_number("epsilon", self.epsilon, low=0.0))

    @atomic_fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "BudgetedSVR":
        """Train the budgeted SVR.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Dense float32/float64 arrays and CSR matrices are read in place.
        y : array-like of shape (n_samples,)
            Real targets (finite).
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample factors of ``C`` (finite, >= 0; weight 0 leaves a row out).

        Returns
        -------
        self : BudgetedSVR
            The fitted estimator.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedSVR
        >>> rng = np.random.default_rng(1)
        >>> X = rng.normal(size=(500, 3))
        >>> y = X[:, 0] ** 2 + 0.1 * rng.normal(size=500)
        >>> reg = BudgetedSVR(budget=50, C=10, random_state=0).fit(X, y)
        >>> reg.dual_coef_.shape[0], reg.n_support_ <= 50
        (1, True)
        """
        params = self._solver_params()
        epsilon = self._epsilon()
        warm = bool(self.warm_start) and hasattr(self, "t_")
        X, y = self._fit_input(X, y, reset=not warm)
        weight = self._weights(sample_weight, X.shape[0], params)
        if not warm:
            self._y_offset = self._mean(y, weight)
        return self._run(X, y, weight, epsilon, params, warm, X.shape[0], append=False)

    @atomic_fit
    def partial_fit(self, X: Any, y: Any, sample_weight: Any = None) -> "BudgetedSVR":
        """Train on one chunk of a stream: one pass over its rows.

        The model continues from the previous calls (and from ``fit``), as
        :meth:`BudgetedSVC.partial_fit <budgetsvm.BudgetedSVC.partial_fit>`
        does: BSGD continues its step counter, BSCA its growing first pass,
        and ``C`` means what it means in ``fit`` on all the rows seen so far
        (``lambda = 1 / (C n)`` with ``n = n_samples_seen_``). Unlike the
        classifier's, the model is not rescaled when ``n`` grows: a
        regression function does not grow with ``C n``
        (``docs/budgeted.md``). The first chunk's mean of ``y`` centres the
        targets of all.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The chunk (an empty chunk changes nothing).
        y : array-like of shape (n_samples,)
            Its targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample factors of ``C``.

        Returns
        -------
        self : BudgetedSVR
            The updated estimator.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedSVR
        >>> rng = np.random.default_rng(0)
        >>> reg = BudgetedSVR(budget=30, C=10, gamma=1.0, epsilon=0.05, random_state=0)
        >>> for _ in range(5):
        ...     X = rng.uniform(-2, 2, size=(400, 1))
        ...     reg = reg.partial_fit(X, np.cos(X[:, 0]))
        >>> reg.n_samples_seen_
        2000
        >>> X = rng.uniform(-2, 2, size=(500, 1))
        >>> bool(reg.score(X, np.cos(X[:, 0])) > 0.9)
        True
        """
        params = self._solver_params()
        epsilon = self._epsilon()
        fitted = hasattr(self, "t_")
        if getattr(X, "shape", (None,))[0] == 0 and np.asarray(y).size == 0:
            if not fitted:
                raise ValueError("The first call to partial_fit needs at least one row.")
            return self
        X, y = self._fit_input(X, y, reset=not fitted)
        weight = self._weights(sample_weight, X.shape[0], params)
        if not fitted:
            self._y_offset = self._mean(y, weight)
        params["epochs"] = 1
        n = X.shape[0] + (int(self.n_samples_seen_) if fitted else 0)
        return self._run(X, y, weight, epsilon, params, fitted, n, append=fitted)

    def _weights(self, sample_weight: Any, n_rows: int, params: Dict[str, Any]) -> Optional[np.ndarray]:
        weights = self._sample_weights(sample_weight, n_rows, allow_negative=False)
        self._check_costs(float(params["C"]), None, weights)
        return None if weights is None else np.ascontiguousarray(weights, dtype=np.float64)

    @staticmethod
    def _mean(y: np.ndarray, weight: Optional[np.ndarray]) -> float:
        """The centring offset: the mean of y (weighted; rows of weight 0 left out)."""
        if weight is not None and weight.sum() > 0:
            return float(np.average(y, weights=weight))
        return float(np.mean(y))

    def _core_intercept(self) -> np.ndarray:
        return self.intercept_ - self._y_offset

    def _run(self, X: Any, y: np.ndarray, weight: Optional[np.ndarray], epsilon: float, params: Dict[str, Any],
             continued: bool, n: int, append: bool) -> "BudgetedSVR":
        """gamma, the used columns, the start, the core, publishing."""
        params["gamma"] = self._kernel_gamma(X, params, keep=continued)
        X_fit, used = self._compact(X, continued)
        start = self._start(float(n), used) if continued else None
        monitor = self._seed_and_monitor(params)
        z = np.ascontiguousarray(y - self._y_offset, dtype=np.float64)
        result = _core.fit_budgeted_regression(core_view(X_fit), z, epsilon, params, monitor, weight, start)
        self._store(result, X, used, params, append)
        self._warn_unsettled(z, weight, epsilon, params)
        return self

    def _warn_unsettled(self, z: np.ndarray, weight: Optional[np.ndarray], epsilon: float,
                        params: Dict[str, Any]) -> None:
        """BSGD's steps eta_t = C n / t move a coefficient by about C per visit: at a C large for the
        targets' scale its last epoch never settles (docs/budgeted.md). Says so when that epoch's mean
        loss on the rows it visited (before each step: ``progressive_loss``) is more than twice the loss
        of predicting the mean, a level no model that learned anything reaches."""
        if params.get("solver") != "bsgd" or not self.history_:
            return
        loss = self.history_[-1].get("progressive_loss")
        kept = z if weight is None else z[weight > 0]
        if loss is None or not math.isfinite(loss) or kept.size == 0:
            return
        mean_loss = float(loss) / kept.size
        baseline = float(np.mean(np.maximum(np.abs(kept - np.mean(kept)) - epsilon, 0.0)))
        if mean_loss > 2.0 * baseline:
            warnings.warn(
                f"BudgetedSVR(solver='bsgd', C={params['C']:g}): the last epoch's mean loss on the rows it visited "
                f"({mean_loss:.3g}) is above that of predicting the mean ({baseline:.3g}); BSGD's steps did not "
                "settle at this C. Use solver='bsca' (the default), a smaller C, or learning_rate='norma'.",
                ConvergenceWarning,
                stacklevel=4,
            )

    def _store(self, result: Dict[str, Any], X: Any, used: Optional[UsedColumns], params: Dict[str, Any],
               append: bool) -> None:
        attributes = self._model_attributes(result, X, used, params, append)
        attributes["intercept_"] = attributes["intercept_"] + self._y_offset
        self._publish(
            {"support_vectors_": result["support_vectors"], "dual_coef_": result["dual_coef"],
             "intercept_": attributes["intercept_"]},
            _y_offset=self._y_offset,
            **attributes,
        )

    def _fitted_state(self) -> Dict[str, Any]:
        state = super()._fitted_state()
        state.update(self._kernel_state(), y_offset=float(self._y_offset))
        return state

    def _restore_fitted_state(self, state: Dict[str, Any]) -> None:
        super()._restore_fitted_state(state)
        self._restore_kernel_state(state)
        # the centring mean (continuing needs it apart from b); a file without
        # it: all of the intercept, exact with fit_intercept=False (b = 0)
        offset = state.get("y_offset")
        self._y_offset = float(np.asarray(self.intercept_).ravel()[0]) if offset is None else float(offset)
        for name in ("t_", "n_samples_seen_"):
            self._default(name, 0)


class BudgetedOneClassSVM(BudgetKernelSteps, PipelineOutlierDetector):
    """Novelty detection by Schölkopf's nu one-class SVM trained on a budget (BSGD).

    Fits ``min_{w, rho} 1/2 ||w||^2 - rho + 1/(nu n) sum_i max(0, rho - <w, phi(x_i)>)``
    by budgeted stochastic gradient descent on ``(w, rho)``, with
    ``w = sum_j beta_j phi(z_j)`` kept to at most ``budget`` support vectors
    (merging, removal or projection as in :class:`~budgetsvm.BudgetedSVC`).
    After training, ``rho`` is set to its exact minimiser for the returned
    ``w``: the ``nu``-quantile of the training scores (a share of about
    ``nu`` of the training rows then lies outside). Scikit-learn's sign
    convention: ``decision_function = score_samples - offset_`` is positive
    for inliers and ``offset_ = rho``.

    There is no BSCA solver: the one-class dual has an equality constraint
    (``sum_i alpha_i`` fixed) that single-coordinate steps cannot keep.

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1]: an upper bound on the share of training errors (outliers)
        and a lower bound on the share of support vectors of the exact
        machine.
    budget : int, default=500
        Maximal number of support vectors (>= 2).
    kernel : {"rbf", "linear", "poly", "sigmoid"}, default="rbf"
        Merging needs ``"rbf"``.
    gamma : float, "scale" or "auto", default="scale"
        Kernel coefficient as in scikit-learn; the value used is ``gamma_``.
    degree : int, default=3
        Degree of the ``"poly"`` kernel.
    coef0 : float, default=0.0
        Constant of the ``"poly"`` and ``"sigmoid"`` kernels.
    maintenance : {"merge", "remove", "project"}, default="merge"
        Budget maintenance strategy.
    merge_method : {"gss", "lookup-h", "lookup-wd"}, default="lookup-wd"
        How the merge coefficient is found.
    epochs : int, default=3
        Passes over the training data.
    learning_rate : {"pegasos", "norma", "perceptron"}, default="pegasos"
        Step sizes (Pegasos: ``1 / (nu t)``).
    eta0 : float, default=1.0
        Step size constant of ``"norma"`` and ``"perceptron"``.
    radius : float or None, default=None
        Radius of the perceptron's ball.
    gss_eps : float, default=0.01
        Precision of the golden section search (``merge_method="gss"``).
    lookup_grid : int, default=400
        Resolution per axis of the merge tables.
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the training steps.
    n_jobs : int or None, default=None
        Threads of training's kernel tiles and of prediction; the model is
        the same for every value.
    verbose : int, default=0
        ``1`` prints a progress line per epoch to stderr.
    instruments : bool, default=False
        Record per epoch in ``history_`` (one extra pass) the objective
        ``1/2 ||w||^2 - rho + 1/(nu n) sum_i max(0, rho - <w, phi(x_i)>)``
        at the iterate's ``rho`` (before ``rho`` is set to its exact
        minimiser after training) and ``||w||^2``.
    callback : callable or None, default=None
        Called after every epoch with its statistics; ``True`` stops.

    Attributes
    ----------
    support_vectors_ : ndarray or CSR matrix of shape (n_support, n_features)
        The budget's points.
    dual_coef_ : ndarray of shape (1, n_support)
        Their coefficients (positive).
    offset_ : float
        ``rho``: ``decision_function = score_samples - offset_``.
    intercept_ : ndarray of shape (1,)
        ``-offset_``.
    n_support_ : int
        Number of support vectors.
    n_iter_ : int
        Epochs run.
    gamma_ : float
        The kernel coefficient used.
    fit_stats_ : dict
        Totals of the training.
    history_ : list of dict
        Statistics at the end of every epoch.
    t_ : int
        Training steps taken.
    n_samples_seen_ : int
        Rows of the training data.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Feature names, when ``X`` has string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import BudgetedOneClassSVM
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(3000, 2))
    >>> det = BudgetedOneClassSVM(nu=0.1, budget=50, gamma=0.5, random_state=0).fit(X)
    >>> det.predict([[0.0, 0.0], [4.0, 4.0]]).tolist()
    [1, -1]
    >>> bool(abs((det.predict(X) == -1).mean() - 0.1) < 0.02)
    True
    """

    _name = "BudgetedOneClassSVM"
    _validate_finite = False
    offset_: float

    def __init__(
        self,
        nu: float = 0.5,
        budget: int = 500,
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
        instruments: bool = False,
        callback: Optional[Callable[[Dict[str, Any]], Any]] = None,
    ):
        self.nu = nu
        self.budget = budget
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
        self.instruments = instruments
        self.callback = callback

    @atomic_fit
    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> "BudgetedOneClassSVM":
        """Train the one-class machine on ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The training rows (mostly normal data).
        y : None
            Ignored (scikit-learn's convention for detectors).
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample weights of the loss (finite, >= 0, not all 0); they
            are scaled to mean 1 over the rows of positive weight, so that
            ``nu`` keeps its meaning.

        Returns
        -------
        self : BudgetedOneClassSVM
            The fitted estimator.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedOneClassSVM
        >>> X = np.random.default_rng(0).uniform(-1, 1, size=(1000, 2))
        >>> det = BudgetedOneClassSVM(nu=0.2, budget=30, gamma=1.0, random_state=0).fit(X)
        >>> det.n_support_ <= 30, det.decision_function(X).shape
        (True, (1000,))
        """
        _checked_callback(self.callback)
        nu = float(check_number("nu", self.nu, low=0.0, low_inclusive=False, high=1.0))
        params = core_params(self, "budgeted", later=("gamma",), solver="bsgd",
                             radius=math.inf if self.radius is None else self.radius,
                             n_jobs=effective_n_jobs(self.n_jobs))
        X, _ = self._fit_input(X, None)
        weights = self._sample_weights(sample_weight, X.shape[0], allow_negative=False)
        if weights is not None:
            positive = weights[weights > 0]
            if positive.size == 0:
                raise ValueError("sample_weight must have at least one positive entry.")
            weights = np.ascontiguousarray(weights * (positive.size / positive.sum()), dtype=np.float64)
        params["gamma"] = self._kernel_gamma(X, params, keep=False)
        X_fit, used = self._compact(X, False)
        monitor = self._seed_and_monitor(params)
        result = _core.fit_budgeted_one_class(core_view(X_fit), nu, params, monitor, weights, None)
        attributes = self._model_attributes(result, X, used, params, append=False)
        self._publish(
            {"support_vectors_": result["support_vectors"], "dual_coef_": result["dual_coef"],
             "intercept_": result["intercept"]},
            **attributes,
        )
        # rho's exact minimiser for the trained w: the weighted nu-quantile of the training scores
        self.intercept_ = np.zeros(1)
        scores = self._decision(X)[:, 0]
        self.offset_ = self._quantile(scores, weights, nu)
        self.intercept_ = np.array([-self.offset_])
        return self

    @staticmethod
    def _quantile(scores: np.ndarray, weights: Optional[np.ndarray], nu: float) -> float:
        """argmin_rho -rho + 1/(nu W) sum_i w_i max(0, rho - s_i): the smallest
        score at which the weighted share of scores at or below it reaches nu,
        raised by one unit in the last place, so that the row at the quantile
        has a negative decision rather than exactly 0 (an outlier for
        ``predict`` and for ``decision_function >= 0`` alike; the objective
        moves by rounding only)."""
        order = np.argsort(scores, kind="stable")
        w = np.ones(scores.shape[0]) if weights is None else weights[order]
        share = np.cumsum(w) / w.sum()
        k = int(np.searchsorted(share, nu * (1.0 - 1e-12)))
        return float(np.nextafter(scores[order][min(k, scores.shape[0] - 1)], np.inf))

    def _fitted_state(self) -> Dict[str, Any]:
        state = super()._fitted_state()
        state.update(self._kernel_state())
        return state

    def _restore_fitted_state(self, state: Dict[str, Any]) -> None:
        super()._restore_fitted_state(state)
        self._restore_kernel_state(state)
        self.offset_ = -float(np.asarray(state["intercept"]).ravel()[0])
        for name in ("t_", "n_samples_seen_"):
            self._default(name, 0)
