"""Exact kernel SVM: ``SVC``, a drop-in replacement for ``sklearn.svm.SVC``.

The binary C-SVM dual ``min 1/2 a^T Q a - e^T a`` subject to ``y^T a = 0``,
``0 <= a_i <= C_i`` is solved in C++ (``_core.fit_exact``) by ALFPGM with
pWSS working sets of ``pairs`` pairs (Aregbesola & Griva 2022; docs/exact.md)
or by an SMO reference path (``solver="smo"``), both with an LRU kernel cache
of ``cache_size`` MB; the default ``solver="auto"`` picks one per binary
problem by its number of rows and how its rows are stored
(docs/guide_exact.md). Multi-class problems are split one-vs-one exactly as
LIBSVM does it (same pair order, same signs, same attribute layout), so that
``dual_coef_``, ``intercept_`` and the predictions agree with scikit-learn's
``SVC`` up to the solver tolerance. Probability estimates follow LIBSVM too:
Platt scaling fitted on 5-fold cross-validated decision values and pairwise
coupling (``_platt``).

This module holds the estimator's parameters, their translation to the
core's options and its ``fit``; the one-vs-one model's prediction and saved
state are in ``_ovo``, its fit steps in ``_ovo_fit``, the probabilities in
``_probability``, the steps every estimator shares in ``_base``.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Dict, Optional, Union

import numpy as np
from sklearn.utils import check_random_state

from .._atomic import atomic_fit
from .._params import check_class_weight_spec, check_number, choices, core_params, effective_n_jobs
from ._ovo_fit import OneVsOneFit
from ._probability import PlattProbability

KERNELS = choices("exact", "kernel") + ("precomputed",)


class SVC(PlattProbability, OneVsOneFit):
    """Exact kernel SVM classifier (C-SVC), a drop-in replacement for ``sklearn.svm.SVC``.

    Solves the same problem as LIBSVM's C-SVC, by ALFPGM (large working sets of
    ``pairs`` pairs; Aregbesola & Griva 2022), whose sub-problems we solve by
    SMO steps on the working set (``subproblem="fpgm"``: the paper's augmented
    Lagrangian with a fast projected gradient inner loop), or by SMO
    (``solver="smo"``, our LIBSVM-equivalent reference). Both stop at the same
    KKT tolerance ``tol`` as LIBSVM, so the optimum, the support vectors and
    the predictions agree with ``sklearn.svm.SVC`` up to that tolerance.
    Multi-class problems are solved one-vs-one, with LIBSVM's pair order,
    signs and attribute layout.

    Memory: the kernel cache (``cache_size`` MB) plus O(n) per binary
    problem; no n x n matrix is formed, except for ``kernel="precomputed"``
    (the user's matrix, read in place) and for a callable kernel, whose Gram
    matrix ``kernel(X, X)`` is computed once in ``fit`` (8 n^2 bytes: fine for
    some ten thousand samples, not beyond).

    Parameters
    ----------
    C : float, default=1.0
        Regularisation parameter, > 0; class ``c`` uses ``C * class_weight_[c]``.
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
        ``linear``: ``<x, z>``; ``rbf``: ``exp(-gamma ||x - z||^2)``;
        ``poly``: ``(gamma <x, z> + coef0)^degree``;
        ``sigmoid``: ``tanh(gamma <x, z> + coef0)`` (not positive semi-definite
        in general: the solver then stops at a KKT point or at ``max_iter``);
        ``precomputed``: ``X`` is the (n_samples, n_samples) kernel matrix in
        ``fit`` and (n_test, n_samples) in prediction; a callable
        ``kernel(A, B)`` returns the (len(A), len(B)) kernel matrix.
    degree : int, default=3
        Degree of the polynomial kernel, >= 0.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient of ``rbf``, ``poly`` and ``sigmoid``:
        ``"scale"`` = ``1 / (n_features * X.var())``, ``"auto"`` = ``1 / n_features``.
    coef0 : float, default=0.0
        Constant term of ``poly`` and ``sigmoid``.
    shrinking : bool, default=True
        Whether the solver may shrink the active set (variables at a bound are
        re-checked before stopping, so the optimum is the same).
    probability : bool, default="deprecated"
        Fit Platt's sigmoid on 5-fold cross-validated decision values (as
        LIBSVM; five more fits per class pair) to enable ``predict_proba``.
        Deprecated as in scikit-learn 1.9: the default (``"deprecated"``)
        means False, and setting it (True or False) works but warns
        ``FutureWarning`` in ``fit``; scikit-learn's advice is
        ``CalibratedClassifierCV(SVC(), ensemble=False)``.
    tol : float, default=1e-3
        Stop when the maximal KKT violation is below ``tol`` (LIBSVM's ``-e``).
    cache_size : float, default=200
        Kernel cache size in MB.
    class_weight : dict or "balanced", default=None
        Multipliers of ``C`` per class; ``"balanced"`` uses
        ``n_samples / (n_classes * np.bincount(y))``.
    verbose : bool or int, default=0
        Print one line per binary problem solved when true.
    max_iter : int, default=-1
        Bound on the decomposition rounds per binary problem (-1: LIBSVM's
        bound ``max(10^7, 100 n)``). A problem stopped by it gives
        ``fit_status_ = 1`` and a ``ConvergenceWarning``.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of ``decision_function`` for more than two classes: one column
        per class (``ovr``, derived from the one-vs-one values) or one per
        class pair (``ovo``, LIBSVM's values).
    break_ties : bool, default=False
        With ``decision_function_shape="ovr"`` and more than two classes,
        ``predict`` takes the argmax of ``decision_function`` instead of the
        first class among those with the most votes.
    random_state : int, RandomState instance or None, default=None
        Seeds the cross-validation split of ``probability=True`` and the solver.
    solver : {"auto", "alfpgm", "smo"}, default="auto"
        ``alfpgm``: ALFPGM with pWSS working sets; ``smo``: one pair per round,
        second-order working set selection (LIBSVM's algorithm); ``auto``:
        per binary problem, SMO when it has fewer than 10,000 rows or when
        ``X`` is sparse with more than 64 features and under a quarter of
        its entries stored, else ALFPGM (ALFPGM's costlier rounds pay off on
        large problems only, and it computes more kernel columns, which
        loses where each value is a sparse product; docs/guide_exact.md).
        ``solver_`` says which one ran.
    pairs : int, default=32
        Pairs per ALFPGM working set. The paper found 50 to 100 best for its
        code; with ours 32 was the fastest or near it on the benchmark sets
        (docs/exact.md gives the measurements).
    subproblem : {"smo", "fpgm"}, default="smo"
        How ALFPGM solves each working set's sub-problem: ``smo``, pair
        steps on the working set's dense kernel block (O(``pairs``) each);
        ``fpgm``, the paper's augmented Lagrangian with the fast projected
        gradient method (O(``pairs``^2) per inner iteration). Both stop at
        the same sub-problem tolerance; ``smo`` is faster on every benchmark
        set (docs/exact.md). Ignored when SMO solves the whole problem.
    n_jobs : int or None, default=None
        Threads computing kernel columns (None: 1; -1: all cores).
    delta_alpha : float, default=1e-6
        pWSS MinMaxLimiter: an update of ``alpha_i`` smaller than this counts as
        no change.
    min_alpha_opt : int, default=5
        pWSS MinMaxLimiter: rounds an index must have been in a working set
        before it may be set aside at a bound.
    max_alpha_opt : int, default=20
        pWSS MinMaxLimiter: rounds after which an index is set aside.
        Indices set aside are re-admitted and checked before the solver stops.
    min_alpha_check : int, default=0
        pWSS: the j search looks at only the first ``min_alpha_check``
        candidates of I_low sorted by gradient (0: all of them).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors, grouped by class.
    support_vectors_ : ndarray or sparse matrix of shape (n_SV, n_features)
        Empty (0, 0) for ``kernel="precomputed"``; sparse after a sparse fit.
    n_support_ : ndarray of shape (n_classes,), int32
    dual_coef_ : ndarray or sparse matrix of shape (n_classes - 1, n_SV)
        ``y_i alpha_i`` in LIBSVM's one-vs-one layout (sparse after a sparse fit).
    intercept_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
    coef_ : ndarray of shape (n_classes * (n_classes - 1) / 2, n_features)
        Primal weights (``kernel="linear"`` only).
    fit_status_ : int
        0 if every binary problem converged, 1 if one stopped at ``max_iter``.
    n_iter_ : ndarray of shape (n_classes * (n_classes - 1) / 2,), int32
        Solver rounds per binary problem.
    dual_objective_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        Final dual objective ``1/2 a^T Q a - e^T a`` per binary problem.
    solver_ : list of str
        The solver that ran on each binary problem (``"alfpgm"`` or
        ``"smo"``; ``solver="auto"`` resolved), in the order of ``n_iter_``.
    fit_details_ : list of dict
        The solver's report per binary problem (time, cache hits and misses,
        kernel columns computed, final KKT violation, ...).
    probA_, probB_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        Platt's sigmoid per class pair (empty unless ``probability=True``).
    shape_fit_ : tuple
        Shape of the training ``X``.
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import SVC
    >>> X = np.array([[-1.0, -1.0], [-2.0, -1.0], [1.0, 1.0], [2.0, 1.0]])
    >>> y = np.array([1, 1, 2, 2])
    >>> clf = SVC(kernel="rbf", gamma=0.5, random_state=0).fit(X, y)
    >>> clf.predict([[-0.8, -1.0]])
    array([1])
    >>> clf.n_support_
    array([2, 2], dtype=int32)
    """

    def __init__(
        self,
        *,
        C: float = 1.0,
        kernel: Union[str, Callable] = "rbf",
        degree: int = 3,
        gamma: Union[str, float] = "scale",
        coef0: float = 0.0,
        shrinking: bool = True,
        probability: Union[bool, str] = "deprecated",
        tol: float = 1e-3,
        cache_size: float = 200,
        class_weight: Optional[Union[dict, str]] = None,
        verbose: int = 0,
        max_iter: int = -1,
        decision_function_shape: str = "ovr",
        break_ties: bool = False,
        random_state: Any = None,
        solver: str = "auto",
        pairs: int = 32,
        subproblem: str = "smo",
        n_jobs: Optional[int] = None,
        delta_alpha: float = 1e-6,
        min_alpha_opt: int = 5,
        max_alpha_opt: int = 20,
        min_alpha_check: int = 0,
    ):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.solver = solver
        self.pairs = pairs
        self.subproblem = subproblem
        self.n_jobs = n_jobs
        self.delta_alpha = delta_alpha
        self.min_alpha_opt = min_alpha_opt
        self.max_alpha_opt = max_alpha_opt
        self.min_alpha_check = min_alpha_check

    def _check_params(self) -> Dict[str, Any]:
        """Validate the constructor arguments; return the core's options
        (all but gamma, which needs the data)."""
        if not (callable(self.kernel) or (isinstance(self.kernel, str) and self.kernel in KERNELS)):
            raise ValueError(f"kernel must be one of {KERNELS} or a callable; got {self.kernel!r}.")
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError(
                f"decision_function_shape must be 'ovr' or 'ovo'; got {self.decision_function_shape!r}."
            )
        if not (isinstance(self.probability, (bool, np.bool_)) or self.probability == "deprecated"):
            raise TypeError(f"probability must be a bool; got {self.probability!r}.")
        for name in ("break_ties",):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be a bool; got {getattr(self, name)!r}.")
        check_class_weight_spec(self.class_weight)
        if not isinstance(self.verbose, (bool, np.bool_)):
            check_number("verbose", self.verbose, integer=True, low=0)
        return core_params(
            self,
            "exact",
            later=("gamma",),
            kernel="precomputed" if callable(self.kernel) else self.kernel,
            n_jobs=effective_n_jobs(self.n_jobs),
        )

    @atomic_fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "SVC":
        """Fit the SVM on training data.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
            Training vectors (dense float32/float64 and CSR are read in place);
            the kernel matrix for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample multipliers of ``C`` (the bound of sample i is
            ``C * class_weight[y_i] * sample_weight[i]``). Samples of weight
            <= 0 are left out, as LIBSVM does.

        Returns
        -------
        self : SVC

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVC
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 2))
        >>> y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 > 1, "out", "in")
        >>> clf = SVC(C=10, gamma=1.0, solver="smo").fit(X, y)
        >>> clf.fit_status_, int(clf.n_support_.sum()) == len(clf.support_)
        (0, True)
        >>> bool(clf.score(X, y) > 0.95)
        True
        """
        params = self._check_params()
        if self.probability != "deprecated":
            warnings.warn(
                "The `probability` parameter was deprecated in scikit-learn 1.9 and will be removed in "
                "version 1.11; budgetsvm.SVC follows. Use `CalibratedClassifierCV(SVC(), ensemble=False)` "
                "instead of `SVC(probability=True)`",
                FutureWarning,
                stacklevel=2,
            )
        self._probability = self.probability is not False and self.probability != "deprecated"
        rng = check_random_state(self.random_state)
        X, y = self._fit_input(X, y)
        classes, y_index = self._fit_labels(y)
        self.class_weight_ = self._class_factors(classes, y)
        weights, keep = self._kept_weights(sample_weight, y_index, len(classes))
        self._check_costs(self.C, self.class_weight_[y_index], weights)
        solver_X, used = self._solver_input(X, params)
        self.classes_ = classes
        self.shape_fit_ = X.shape
        self._fit_pairs(X, solver_X, used, y_index, weights, keep, params, rng)
        return self
