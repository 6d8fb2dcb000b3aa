"""Kernel SVM training on a budget: :class:`BudgetedSVC` and :func:`merge_solution`.

The solvers (BSGD, BSCA) and the budget maintenance (merging, removal,
projection) live in the C++ core (``cpp/include/budgetsvm/budget/``); this
module declares the estimator's parameters and translates them to the core's
options; the fit, the continued model and the prediction are the budgeted
model's steps (``_budget_model``) on the shared pipeline (``_base``).
``docs/budgeted.md`` states the formulas.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Optional, Tuple


import numpy as np
from sklearn.exceptions import NotFittedError
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .. import _core
from .._atomic import atomic_fit, fitted_view
from .._params import (
    check_choice,
    check_number,
    choices,
    core_params,
    effective_n_jobs,
    options,
)
from ._budget_model import TOTAL_KEYS, BudgetModel
from ._budget_proba import (
    check_probability,
    check_rows_per_class,
    fit_sigmoids,
    fold_seed,
    out_of_fold_scores,
    probabilities,
)

__all__ = ["BudgetedSVC", "merge_solution", "TOTAL_KEYS"]

MERGE_METHODS = choices("budgeted", "merge_method")

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


class BudgetedSVC(BudgetModel):
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
        Threads of the training and the prediction; ``None`` means 1, ``-1``
        all cores. The fitted model is the same for every ``n_jobs``, bit for
        bit: the kernel values of each block of rows are computed in tiles
        spread over the threads (``docs/budgeted.md``, "Blocked epochs").
        One-vs-rest BSCA trains its classes in parallel; with ``shards`` > 1
        the shards run on the threads. Threads are capped at the cores
        available. The speed-up on two cores: ``docs/benchmarks.md``.
    shards : int, default=1
        An algorithmic choice that changes the model: the rows are split into
        ``shards`` shards trained in parallel (on up to ``n_jobs`` threads)
        and mixed after every epoch (``docs/scale.md``). The model depends on
        ``shards`` (and ``random_state``), never on ``n_jobs`` or the machine.
        A binary problem and BSGD's multi-class model are sharded;
        one-vs-rest BSCA is not (its classes are trained in parallel instead).
        Shards mixed every epoch (``shard_mix="merge"``) learn less per epoch
        than one machine and cost accuracy (one pass over 1M generated rows:
        8 shards 1.2-4.1 points below one machine at its best ``C``;
        ``docs/scale.md``); on one machine use ``n_jobs``, which costs none.
        The default 1 trains one machine.
    shard_mix : {"merge", "union"}, default="merge"
        How ``shards`` > 1 combine. ``"merge"``: their models are averaged
        after every epoch and merged back to ``budget`` support vectors.
        ``"union"``: the shards train apart for all epochs and the model is
        their average with every support vector kept, up to ``shards x
        budget`` of them (prediction costs that many kernel values per row).
        In one pass over 1M generated rows of five families, at each
        family's best ``C``, 8 shards' union scored -0.18 to +0.58 points
        against one machine of the same ``budget``, 32 shards' -1.51 to
        +0.60 (``python bench/shards.py``; ``docs/scale.md``).
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
    probability : bool, default=False
        ``fit`` also calibrates probability estimates (:meth:`predict_proba`,
        :meth:`predict_log_proba`), as LIBSVM's ``-b 1`` does: the estimator
        with the same settings is trained on 5 stratified folds
        (``StratifiedKFold(5, shuffle=True, random_state=r)``, each fold's
        model with ``random_state=r``, where ``r`` is ``random_state`` when it
        is an int, else an int drawn from it; no callback, no progress lines),
        and one slope ``a`` is fitted on the out-of-fold outputs:
        ``P(k | x) = exp(a f_k(x)) / sum_j exp(a f_j(x))`` (binary: Platt's
        sigmoid ``1 / (1 + exp(-a f(x)))`` of ``classes_[1]``, its offset at 0).
        The most probable class is then the predicted one (:meth:`predict_proba`
        says the exceptions: rounding, and outputs no better than chance).
        It costs 5 more fits on 80% of the rows each, about 5 times the
        plain fit; the model itself is the same as without it. Each class
        needs at least 5 rows. Not with :meth:`partial_fit`, nor with
        ``warm_start`` continuing a fitted model (``ValueError``): the
        calibration belongs to the model ``fit`` trains. ``docs/budgeted.md``
        ("Probability estimates") says why one slope and no offset.

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
        (``shards`` > 1: the mixes after which one shard's model went on
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
    probA_, probB_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        With ``probability=True``: the sigmoid of each class pair ``i < j``
        (SVC's order and meaning), ``P(i | i or j, x) = 1 / (1 + exp(probA_
        d + probB_))`` with ``d = f_i(x) - f_j(x)`` (binary: ``d =
        -decision_function(x)``); here ``probA_ = -a`` for every pair and
        ``probB_ = 0``. Without it (or after :meth:`partial_fit` or a warm
        start continued the model) they do not exist.

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
        shards: int = 1,
        shard_mix: str = "merge",
        verbose: int = 0,
        callback: Optional[Callable[[Dict[str, Any]], Any]] = None,
        instruments: bool = False,
        warm_start: bool = False,
        probability: bool = False,
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
        self.shards = shards
        self.shard_mix = shard_mix
        self.verbose = verbose
        self.callback = callback
        self.instruments = instruments
        self.warm_start = warm_start
        self.probability = probability

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
        probability = check_probability(self.probability)
        warm = bool(self.warm_start) and hasattr(self, "t_")
        if probability and warm:
            raise ValueError(
                "probability=True calibrates a model trained from the start on the data of fit; warm_start=True "
                "continues the fitted model instead. Use warm_start=False (or probability=False)."
            )
        X, y = self._fit_input(X, y, reset=not warm)
        classes, y_index = self._fit_labels(y)
        if warm:
            self._check_same_classes(classes)
        if probability:
            check_rows_per_class(classes, y_index)
        class_weight = self._class_factors(classes, y)
        weight = self._factors(sample_weight, class_weight, y_index, float(params["C"]), whole=True)
        self._run(X, y_index, classes, class_weight, weight, params, warm, X.shape[0], append=False)
        if probability:
            # the same settings on FOLDS stratified folds; the sigmoids from their out-of-fold outputs
            per_sample = self._sample_weights(sample_weight, X.shape[0], allow_negative=False)
            scores = out_of_fold_scores(self, X, y_index, class_weight, per_sample, fold_seed(self.random_state))
            self._sigmoids = fit_sigmoids(scores, y_index, len(classes))
        return self

    def _check_proba(self) -> bool:
        if not self.probability:
            raise AttributeError("predict_proba is not available when probability=False")
        return True

    def _sigmoid_part(self, part: int) -> np.ndarray:
        sigmoids = getattr(self, "_sigmoids", None)
        if sigmoids is None:
            raise AttributeError(
                f"'{type(self).__name__}' object has no attribute '{('probA_', 'probB_')[part]}' (it has one "
                "after fit with probability=True)"
            )
        return sigmoids[part]

    @property
    def probA_(self) -> np.ndarray:  # noqa: N802 (scikit-learn's and SVC's name)
        """The slopes ``A`` of the class pairs' sigmoids (``probability=True``).

        ``P(i | i or j, x) = 1 / (1 + exp(A d + B))`` with ``d = f_i(x) -
        f_j(x)`` (binary: ``-decision_function(x)``), the pairs ``i < j`` in
        SVC's order; one value ``-a`` for every pair (the attributes'
        section of the class docstring). Only after ``fit`` with
        ``probability=True``; else ``AttributeError``.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedSVC
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(300, 2))
        >>> y = np.digitize(X[:, 0], [-0.5, 0.5])  # three classes
        >>> clf = BudgetedSVC(budget=20, probability=True, random_state=0).fit(X, y)
        >>> clf.probA_.shape, bool(np.all(clf.probA_ == clf.probA_[0]) and clf.probA_[0] < 0)
        ((3,), True)
        """
        return self._sigmoid_part(0)

    @property
    def probB_(self) -> np.ndarray:  # noqa: N802
        """The offsets ``B`` of the class pairs' sigmoids (``probability=True``): zeros.

        Zero for every pair, so that a probability of 1/2 is the decision
        boundary and the most probable class is the predicted one (see
        ``probA_``).

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedSVC
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 2))
        >>> clf = BudgetedSVC(budget=20, probability=True, random_state=0).fit(X, X[:, 0] > 0)
        >>> clf.probB_
        array([0.])
        """
        return self._sigmoid_part(1)

    @available_if(_check_proba)
    @fitted_view
    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities: Platt's sigmoid per class pair, coupled.

        Calibrated in ``fit`` (``probability=True``) on the outputs of models
        with the same settings trained on 5 stratified folds, each row's
        outputs from the model that did not see it: ``P(k | x) = exp(a
        f_k(x)) / sum_j exp(a f_j(x))`` with one fitted slope ``a = -probA_``
        (binary: ``P(classes_[1] | x) = 1 / (1 + exp(probA_[0] f(x)))``,
        Platt's sigmoid with ``probB_ = 0``). This is the pairwise coupling
        (Wu, Lin and Weng 2004) of the pairs' sigmoids ``probA_``,
        ``probB_``, as :class:`~budgetsvm.SVC` and LIBSVM make it, for pairs
        that share one slope and have no offset. ``docs/budgeted.md``
        ("Probability estimates").

        The most probable class is the predicted one: the probabilities
        order the classes as ``decision_function`` does, and a tie goes to
        the first class in both. They can differ only where two outputs are
        so close that their probabilities round to the same float64, or on
        every row when the calibration found the outputs no better than
        chance (``probA_`` 0: equal probabilities, the first class the most
        probable).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        P : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``; each row sums to 1.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedSVC
        >>> rng = np.random.default_rng(0)
        >>> X = rng.uniform(-1, 1, size=(600, 2))
        >>> y = np.where(X[:, 0] * X[:, 1] > 0, "same", "diff")
        >>> clf = BudgetedSVC(budget=40, C=10, gamma=2.0, probability=True, random_state=0).fit(X, y)
        >>> P = clf.predict_proba([[0.5, 0.5], [0.5, -0.5]])
        >>> P.shape, clf.classes_.tolist()
        ((2, 2), ['diff', 'same'])
        >>> bool(P[0, 1] > 0.8 and P[1, 0] > 0.8)
        True
        >>> Xt = rng.uniform(-1, 1, size=(1000, 2))
        >>> agree = clf.classes_[clf.predict_proba(Xt).argmax(axis=1)] == clf.predict(Xt)
        >>> bool(agree.mean() > 0.99)
        True
        """
        check_is_fitted(self)
        sigmoids = getattr(self, "_sigmoids", None)
        if sigmoids is None:
            raise NotFittedError(
                f"This {type(self).__name__} has no probability estimates: it was fitted with probability=False, "
                "or continued by partial_fit or warm_start since. Fit it with probability=True."
            )
        scores = self._decision(self._predict_input(X))
        return probabilities(scores, sigmoids[0], sigmoids[1], len(self.classes_))

    @available_if(_check_proba)
    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Logarithm of :meth:`predict_proba`.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        log_P : ndarray of shape (n_samples, n_classes)

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import BudgetedSVC
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 2))
        >>> clf = BudgetedSVC(budget=20, probability=True, random_state=0).fit(X, X[:, 0] > 0)
        >>> clf.predict_log_proba([[2.0, 0.0]]).shape
        (1, 2)
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))
