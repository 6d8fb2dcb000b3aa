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
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Dict, List, Optional, Union, cast

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _core
from ._labels import encode_labels
from ._atomic import atomic_fit, fitted_view
from ._columns import UsedColumns, scale_outside
from ._data import as_supported, core_view, resolve_gamma
from ._magnitude import FLT_MAX, check_costs, check_finite_fit, check_kernel_magnitude, check_matrix_magnitude
from ._params import (
    check_class_weight_spec,
    check_class_weights,
    check_number,
    check_sample_weight,
    choices,
    core_params,
    effective_n_jobs,
)
from ._platt import pairwise_coupling, sigmoid_fit, sigmoid_predict

KERNELS = choices("exact", "kernel") + ("precomputed",)

#: Folds of the internal cross-validation for Platt scaling (as LIBSVM).
_PROBABILITY_FOLDS = 5


def _class_rows(y_index: np.ndarray, keep: Optional[np.ndarray], n_classes: int):
    """``(rows, start)``: the training rows grouped by class, ascending within
    each, without the rows ``keep`` drops, and the ``n_classes + 1`` offsets
    of the classes in ``rows`` (int64 both; one sort, not a pass per class)."""
    rows = np.argsort(y_index, kind="stable").astype(np.int64)
    if keep is not None:
        rows = rows[keep[rows]]
    counts = np.bincount(y_index[rows], minlength=n_classes)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return rows, start


#: The solver's report per binary problem, in fit_details_'s key order
#: (``_core.fit_exact_ovo`` returns each as one array over the pairs).
_REPORT_KEYS = ("solver", "intercept", "objective", "iterations", "status", "max_violation", "cache_hits",
                "cache_misses", "kernel_columns_computed", "seconds", "inner_iterations", "smo_fallbacks",
                "smo_handoff", "readmissions", "polished")
_SOLVER_NAMES = ("alfpgm", "smo")  # the codes of fit_exact_ovo's "solver"


def _pair_reports(record: Dict[str, np.ndarray]) -> List[Dict[str, Any]]:
    """fit_details_ (one dict per binary problem, the keys of ``_core.fit_exact``)
    from the compact record ``fit`` keeps: one array per key."""
    columns = []
    for key in _REPORT_KEYS:
        if key == "solver":
            columns.append([_SOLVER_NAMES[c] for c in record["solver"].tolist()])
        elif key == "status":
            columns.append(["converged" if ok else "max_iter_reached" for ok in record["converged"].tolist()])
        else:
            columns.append(record[key].tolist())
    return [dict(zip(_REPORT_KEYS, values)) for values in zip(*columns)]


def _ovr_scores(votes: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """One-vs-rest scores from one-vs-one votes and summed confidences (as
    scikit-learn): votes (pair (i, j) votes i when its value is >= 0, else
    j) plus the confidences mapped monotonically into (-1/3, 1/3), which
    breaks ties between equal vote counts without overturning any vote
    difference. ``_core.ovo_scores(..., output="ovr")`` counts both."""
    return votes + confidence / (3.0 * (np.abs(confidence) + 1.0))


class SVC(ClassifierMixin, BaseEstimator):
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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = self.kernel != "precomputed"
        return tags

    # ------------------------------------------------------------------ fit

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
        precomputed = params["kernel"] == "precomputed"
        if sp.issparse(X) and self.kernel == "precomputed":
            raise TypeError("Sparse precomputed kernels are not supported.")
        if self.kernel == "precomputed":
            X, y = validate_data(self, X, y, accept_sparse=False, dtype=np.float64, order="C")
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"Precomputed matrix must be a square matrix. Input is a {X.shape[0]}x{X.shape[1]} matrix."
                )
        else:
            X, y = validate_data(self, X, y, accept_sparse="csr", dtype=[np.float64, np.float32], order=None)
            X = as_supported(X)
        check_classification_targets(y)
        classes, y_index = encode_labels(y)
        if len(classes) < 2:
            raise ValueError(f"The number of classes has to be greater than one; got {len(classes)} class.")
        self.class_weight_ = check_class_weights(compute_class_weight(self.class_weight, classes=classes, y=y), classes)
        n_samples = X.shape[0]

        weights, keep = None, None
        if sample_weight is not None:
            weights, keep = self._check_sample_weight(sample_weight, y_index, len(classes), n_samples)
        check_costs("SVC", float(self.C), self.class_weight_[y_index], weights)

        self._sparse = sp.issparse(X)
        if callable(self.kernel):
            self._fit_X = X  # the callable's second argument at training time
            gram = np.ascontiguousarray(self.kernel(X, X), dtype=np.float64)
            if gram.shape != (n_samples, n_samples):
                raise ValueError(f"The kernel callable returned shape {gram.shape}; expected {(n_samples, n_samples)}.")
            if not np.all(np.isfinite(gram)):
                raise ValueError("The kernel callable returned NaN or infinity.")
            check_matrix_magnitude(gram, FLT_MAX)
            solver_X = gram
        else:
            solver_X = X
        used = None
        if not precomputed and not callable(self.kernel):
            solver_X, used = UsedColumns.compact(X)  # wide sparse data: the used columns only (_columns.py)
        if precomputed:
            self._gamma = 0.0
            if self.kernel == "precomputed":
                check_matrix_magnitude(X, FLT_MAX)
        elif self.kernel in ("rbf", "linear"):
            # data too large for the kernel first: it is also why gamma="scale" may overflow
            check_kernel_magnitude(X, params["kernel"], 1.0, 0, 0.0, FLT_MAX)
            self._gamma = resolve_gamma(self.gamma, X)  # validated even where unused (linear)
        else:
            self._gamma = resolve_gamma(self.gamma, X)
            check_kernel_magnitude(X, params["kernel"], self._gamma, int(self.degree), float(self.coef0), FLT_MAX)
        if not precomputed:
            params["gamma"] = float(self._gamma) if self._gamma > 0 else 1.0

        self.classes_ = classes
        self.shape_fit_ = X.shape
        self._fit_binary_problems(solver_X, y_index, weights, keep, params, rng)
        # the support vectors the core computes with (in the training
        # columns) and the public ones (in the original columns)
        self._used_columns = used
        self.support_vectors_ = self._support_rows
        if used is not None:
            self.support_vectors_ = used.expand(self._support_rows)
            if isinstance(X, sp.sparray):
                self.support_vectors_ = sp.csr_array(self.support_vectors_)
        return self

    @staticmethod
    def _check_sample_weight(sample_weight, y_index, n_classes, n_samples):
        """(weights, keep): the validated weights, and the mask of samples
        with a positive weight (None when all are kept)."""
        sw = check_sample_weight(sample_weight, n_samples)
        keep = sw > 0
        remaining = np.unique(y_index[keep])
        if remaining.size < 2:
            raise ValueError(
                "Only one class is left after removing samples with sample_weight <= 0; "
                "SVC needs samples of at least two classes."
            )
        if remaining.size < n_classes:
            raise ValueError(
                "Every sample of some class has sample_weight <= 0; remove that class from y "
                "(its one-vs-one problems would have no samples of it)."
            )
        return sw, (None if np.all(keep) else keep)

    def _report_pair(self, pair, solver, iterations, objective, seconds, converged):
        """verbose: one line per binary problem, as it is solved."""
        status = "converged" if converged else "max_iter_reached"
        print(
            f"[budgetsvm.SVC] {solver}: {iterations} rounds, "
            f"objective {objective:.6g}, {seconds:.3f} s, status {status}"
        )

    def _fit_binary_problems(self, X, y_index, weights, keep, params, rng):
        """Every pair of classes solved in C++ on its own rows (``_core.fit_exact_ovo``,
        LIBSVM's pair order and layout), then Platt's sigmoids (probability=True)."""
        n_classes = len(self.classes_)
        precomputed = params["kernel"] == "precomputed"
        X_core = X if precomputed else core_view(X)
        rows, start = _class_rows(y_index, keep, n_classes)
        fit = _core.fit_exact_ovo(
            X_core, rows, start, params, np.asarray(self.class_weight_, dtype=np.float64),
            None if weights is None else np.asarray(weights, dtype=np.float64),
            self._report_pair if self.verbose else None,
        )
        n_pairs = n_classes * (n_classes - 1) // 2
        prob_a = np.empty(n_pairs if self._probability else 0)
        prob_b = np.empty(n_pairs if self._probability else 0)
        if self._probability:
            p = 0
            for i in range(n_classes):
                for j in range(i + 1, n_classes):
                    ri, rj = rows[start[i]:start[i + 1]], rows[start[j]:start[j + 1]]
                    pair_rows = np.concatenate([ri, rj])
                    y_pm = np.concatenate([np.ones(ri.size), -np.ones(rj.size)])
                    pair_weights = dict(weight_pos=float(self.class_weight_[i]),
                                        weight_neg=float(self.class_weight_[j]),
                                        sample_weight=None if weights is None else weights[pair_rows])
                    prob_a[p], prob_b[p] = self._platt_for_pair(X, X_core, pair_rows, y_pm, params, pair_weights, rng)
                    p += 1
        support, n_support, dual = fit["support"], fit["n_support"].astype(np.int32), fit["dual"]
        intercept = fit["intercept"]
        n_iter = fit["iterations"].astype(np.int32)
        objective = fit["objective"]
        status_ok = bool(np.all(fit["converged"]))
        # fit_details_'s columns; intercept, objective and iterations are the arrays kept anyway
        record = {key: fit[key] for key in _REPORT_KEYS + ("converged",) if key != "status"}
        record["iterations"] = n_iter

        check_finite_fit(self, dual_coef_=dual, intercept_=intercept, probA_=prob_a, probB_=prob_b)

        self.support_ = support.astype(np.int32)
        # one array under both names, as scikit-learn's _n_support: predict checks it
        self.n_support_ = self._n_support = n_support
        self._dual_coef_ = dual
        self._intercept_ = intercept
        if n_classes == 2:
            # scikit-learn's binary convention: positive values mean classes_[1]
            public_dual, self.intercept_ = -dual, -intercept
        else:
            public_dual, self.intercept_ = dual.copy(), intercept.copy()
        if self.kernel == "precomputed":
            self._support_rows = np.empty((0, 0), dtype=np.float64)
        else:
            self._support_rows = X[support] if not callable(self.kernel) else self._fit_X[support]
        if self._sparse and not callable(self.kernel):
            sparse_type = sp.csr_matrix if isinstance(X, sp.spmatrix) else sp.csr_array
            self.dual_coef_ = sparse_type(public_dual)
        else:
            self.dual_coef_ = public_dual
        self.n_iter_ = n_iter
        self.dual_objective_ = objective
        self._fit_details = record  # fit_details_ is built from it on access (one dict per pair)
        self.solver_ = [_SOLVER_NAMES[c] for c in record["solver"].tolist()]
        self.probA_, self.probB_ = prob_a, prob_b
        self.fit_status_ = 0 if status_ok else 1
        if callable(self.kernel):
            del self._fit_X
        if not status_ok:
            warnings.warn(
                f"Solver terminated early (max_iter={self.max_iter}).  Consider pre-processing your "
                "data with StandardScaler or MinMaxScaler.",
                ConvergenceWarning,
                stacklevel=3,
            )

    # ------------------------------------------------- Platt scaling in fit

    def _platt_for_pair(self, X, X_core, rows, y_pm, params, pair_weights, rng):
        """Platt's (A, B) from 5-fold cross-validated decision values (LIBSVM's procedure)."""
        n = rows.size
        perm = rng.permutation(n)
        decision = np.empty(n)
        weights = pair_weights["sample_weight"]
        for fold in range(_PROBABILITY_FOLDS):
            begin = fold * n // _PROBABILITY_FOLDS
            end = (fold + 1) * n // _PROBABILITY_FOLDS
            test = perm[begin:end]
            train = np.concatenate([perm[:begin], perm[end:]])
            if test.size == 0:
                continue
            y_train = y_pm[train]
            n_pos = np.count_nonzero(y_train > 0)
            if n_pos == y_train.size:
                decision[test] = 1.0
                continue
            if n_pos == 0:
                decision[test] = -1.0
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                cv_weights = dict(pair_weights, sample_weight=None if weights is None else weights[train])
                result = _core.fit_exact(X_core, y_train, params, rows[train], **cv_weights)
            alpha = np.asarray(result["alpha"])
            sv = alpha > 0
            coef = (y_train[sv] * alpha[sv])[:, None]
            sv_rows = rows[train][sv]
            if self.kernel == "precomputed" or callable(self.kernel):
                K = X[np.ix_(rows[test], sv_rows)]
                decision[test] = K @ coef[:, 0] + result["intercept"]
            else:
                decision[test] = (
                    self._kernel_times(as_supported(X[rows[test]]), as_supported(X[sv_rows]), coef)[:, 0]
                    + result["intercept"]
                )
        return sigmoid_fit(decision, y_pm > 0)

    # ------------------------------------------------------------ predict

    def _kernel_times(self, Xq, SV, coef: np.ndarray) -> np.ndarray:
        """K(Xq, SV) @ coef for supported Xq and SV, computed block by block in C++."""
        coef = np.ascontiguousarray(coef, dtype=np.float64)
        return _core.decision_function(
            core_view(Xq), core_view(SV), coef, cast(str, self.kernel), float(self._gamma) or 1.0,
            int(self.degree), float(self.coef0), effective_n_jobs(self.n_jobs),
        )

    def _validate_for_predict(self, X):
        check_is_fitted(self)
        if self.kernel == "precomputed":
            if sp.issparse(X):
                raise TypeError("Sparse precomputed kernels are not supported.")
            X = validate_data(self, X, accept_sparse=False, dtype=np.float64, order="C", reset=False)
            if X.shape[1] != self.shape_fit_[0]:
                raise ValueError(
                    f"X.shape[1] = {X.shape[1]} should be equal to {self.shape_fit_[0]}, "
                    "the number of samples at training time"
                )
            return X
        # the width first, for sparse input too (scikit-learn's order)
        X = validate_data(self, X, accept_sparse="csr", dtype=[np.float64, np.float32], order=None, reset=False)
        if sp.issparse(X) and not self._sparse and not callable(self.kernel):
            # scikit-learn's rule (its dense and sparse LIBSVM paths differ); ours could
            # compute it, but a drop-in raises where scikit-learn raises
            raise ValueError(f"cannot use sparse input in {type(self).__name__!r} trained on dense data")
        return as_supported(X)

    def _check_internal_representation(self) -> None:
        """The fitted arrays must agree (scikit-learn checks the same before
        LIBSVM reads them; here a mismatch would index out of range)."""
        n_sv = self.support_.shape[0]
        n_classes = len(self.classes_)
        consistent = (
            self._n_support.shape == (n_classes,)
            and int(np.sum(self._n_support)) == n_sv
            and np.shape(self._dual_coef_) == (n_classes - 1, n_sv)
            and (self.kernel == "precomputed" or self.support_vectors_.shape[0] == n_sv)
        )
        if not consistent:
            raise ValueError(
                f"The internal representation of {type(self).__name__} was altered: n_support_, support_, "
                "support_vectors_ and the dual coefficients disagree; fit the model again."
            )

    def _pair_coef(self) -> np.ndarray:
        """(n_SV, n_pairs) coefficients of each class pair, from ``_dual_coef_``
        in LIBSVM's layout (as scikit-learn, predictions follow ``_dual_coef_``):
        pair (i, j) weighs class i's support vectors by row j - 1 and class
        j's by row i. Dense: for two classes only (one column); more classes
        go through ``_ovo_scores``, which never forms it."""
        dual = np.asarray(self._dual_coef_, dtype=np.float64)
        starts = np.concatenate([[0], np.cumsum(self._n_support)])
        n_classes = len(self.classes_)
        coef = np.zeros((dual.shape[1], n_classes * (n_classes - 1) // 2))
        p = 0
        for i in range(n_classes):
            for j in range(i + 1, n_classes):
                coef[starts[i] : starts[i + 1], p] = dual[j - 1, starts[i] : starts[i + 1]]
                coef[starts[j] : starts[j + 1], p] = dual[i, starts[j] : starts[j + 1]]
                p += 1
        return coef

    def _ovo_decision(self, X) -> np.ndarray:
        """LIBSVM's one-vs-one decision values (pair (i, j) positive means class i)."""
        check_is_fitted(self)
        if len(self.classes_) > 2:
            return self._ovo_scores(X, "values")
        X = self._validate_for_predict(X)
        self._check_internal_representation()
        coef = self._pair_coef()
        if self.kernel == "precomputed":
            dec = X[:, self.support_] @ coef
        elif callable(self.kernel):
            dec = self._callable_kernel(X) @ coef
        elif self.support_.size == 0:  # no support vectors (a tolerance that accepts alpha = 0): f = b
            dec = np.zeros((X.shape[0], coef.shape[1]))
        elif self._used_columns is not None:  # trained on the used columns of wide sparse data
            X, outside = self._used_columns.restrict(X)
            dec = self._kernel_times(as_supported(X), as_supported(self._support_rows), coef)
            dec = scale_outside(dec, outside, str(self.kernel), float(self._gamma))
        else:
            dec = self._kernel_times(X, as_supported(self._support_rows), coef)
        return dec + self._intercept_

    def _callable_kernel(self, X) -> np.ndarray:
        """The callable kernel between X and the support vectors, shape-checked."""
        K = np.asarray(cast(Callable, self.kernel)(X, self.support_vectors_), dtype=np.float64)
        if K.shape != (X.shape[0], self.support_.size):
            raise ValueError(
                f"The kernel callable returned shape {K.shape}; expected {(X.shape[0], self.support_.size)}."
            )
        return K

    def _ovo_scores(self, X, output: str):
        """More than two classes: the pairs' decision values (``output="values"``),
        LIBSVM's votes (``"predict"``: class indices) or the one-vs-rest votes and
        confidences (``"ovr"``), by ``_core.ovo_scores``: the kernel between a row
        and each support vector once, then each pair from its two classes' support
        vectors only (exact/ovo.hpp), never an (n_SV, n_pairs) coefficient matrix."""
        X = self._validate_for_predict(X)
        self._check_internal_representation()
        model = (
            np.ascontiguousarray(self._dual_coef_, dtype=np.float64),
            np.asarray(self._n_support, dtype=np.int64),
            np.ascontiguousarray(self._intercept_, dtype=np.float64),
            str(self.kernel) if isinstance(self.kernel, str) else "linear",
            float(self._gamma) or 1.0, int(self.degree), float(self.coef0), effective_n_jobs(self.n_jobs), output,
        )
        if self.kernel == "precomputed" or callable(self.kernel) or self.support_.size == 0:
            if self.support_.size == 0:  # no support vectors (a tolerance that accepts alpha = 0): f = b
                K = np.zeros((X.shape[0], 0))
            else:
                K = X[:, self.support_] if self.kernel == "precomputed" else self._callable_kernel(X)
            return _core.ovo_scores(np.ascontiguousarray(K, dtype=np.float64), None, *model)
        scale = None
        if self._used_columns is not None:  # trained on the used columns of wide sparse data
            X, outside = self._used_columns.restrict(X)
            X = as_supported(X)
            if self.kernel == "rbf":  # scale_outside's factor, applied before the intercept
                scale = np.exp(-float(self._gamma) * outside)
        return _core.ovo_scores(core_view(X), core_view(as_supported(self._support_rows)), *model, row_scale=scale)

    @fitted_view
    def decision_function(self, X: Any) -> np.ndarray:
        """Decision values of the samples in ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_train)

        Returns
        -------
        dec : ndarray of shape (n_samples,) for two classes (positive means
            ``classes_[1]``), else (n_samples, n_classes) for
            ``decision_function_shape="ovr"`` or
            (n_samples, n_classes * (n_classes - 1) / 2) for ``"ovo"`` (LIBSVM's
            values: pair (i, j) is positive for class i).

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVC
        >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
        >>> clf = SVC(kernel="linear").fit(X, [0, 0, 1, 1])
        >>> bool(clf.decision_function([[5.0]])[0] > 0)
        True
        """
        check_is_fitted(self)
        if len(self.classes_) == 2:
            return -self._ovo_decision(X)[:, 0]
        if self.decision_function_shape == "ovr":
            return _ovr_scores(*self._ovo_scores(X, "ovr"))
        return self._ovo_scores(X, "values")

    @fitted_view
    def predict(self, X: Any) -> np.ndarray:
        """Class labels of the samples in ``X`` (one-vs-one voting, as LIBSVM).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_train)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVC
        >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
        >>> SVC(kernel="linear").fit(X, ["a", "a", "b", "b"]).predict([[0.5], [3.5]])
        array(['a', 'b'], dtype='<U1')
        """
        check_is_fitted(self)
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError("break_ties must be False when decision_function_shape is 'ovo'")
        n_classes = len(self.classes_)
        if self.break_ties and n_classes > 2:
            return self.classes_.take(np.argmax(self.decision_function(X), axis=1))
        if n_classes == 2:
            dec = self._ovo_decision(X)
            return self.classes_.take(np.where(dec[:, 0] > 0, 0, 1))  # LIBSVM: a zero value votes for j
        return self.classes_.take(self._ovo_scores(X, "predict"))

    def _check_proba(self) -> bool:
        if self.probability == "deprecated" or not self.probability:
            raise AttributeError("predict_proba is not available when probability=False")
        return True

    @available_if(_check_proba)
    @fitted_view
    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities: Platt's sigmoid per pair, coupled (Wu, Lin, Weng 2004).

        Like LIBSVM's, these come from a cross-validated calibration and can
        disagree with ``predict`` on samples close to the boundary.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_train)

        Returns
        -------
        P : ndarray of shape (n_samples, n_classes), columns in the order of ``classes_``.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVC
        >>> rng = np.random.RandomState(0)
        >>> X = np.r_[rng.randn(20, 2) - 2, rng.randn(20, 2) + 2]
        >>> y = np.r_[np.zeros(20), np.ones(20)]
        >>> import warnings
        >>> with warnings.catch_warnings():  # probability is deprecated (scikit-learn 1.9)
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     clf = SVC(probability=True, random_state=0).fit(X, y)
        >>> P = clf.predict_proba([[-3.0, -3.0], [3.0, 3.0]])
        >>> bool(P[0, 0] > 0.8 and P[1, 1] > 0.8)
        True
        """
        check_is_fitted(self)
        if self.probA_.size == 0:
            from sklearn.exceptions import NotFittedError

            raise NotFittedError("predict_proba is not available when fitted with probability=False")
        dec = self._ovo_decision(X)
        r = sigmoid_predict(dec, self.probA_, self.probB_)
        return pairwise_coupling(r, len(self.classes_))

    @available_if(_check_proba)
    @fitted_view
    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Logarithm of ``predict_proba``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_train)

        Returns
        -------
        log_P : ndarray of shape (n_samples, n_classes)

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVC
        >>> rng = np.random.RandomState(0)
        >>> X = np.r_[rng.randn(20, 2) - 2, rng.randn(20, 2) + 2]
        >>> import warnings
        >>> with warnings.catch_warnings():  # probability is deprecated (scikit-learn 1.9)
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     clf = SVC(probability=True, random_state=0).fit(X, np.r_[np.zeros(20), np.ones(20)])
        >>> clf.predict_log_proba([[3.0, 3.0]]).shape
        (1, 2)
        """
        return np.log(self.predict_proba(X))

    @property
    def fit_details_(self) -> List[Dict[str, Any]]:
        """The solver's report per binary problem (one dict each, in the order of ``n_iter_``).

        Keys: ``solver``, ``intercept``, ``objective``, ``iterations``,
        ``status``, ``max_violation``, ``cache_hits``, ``cache_misses``,
        ``kernel_columns_computed``, ``seconds``, ``inner_iterations``,
        ``smo_fallbacks``, ``smo_handoff``, ``readmissions``, ``polished``.
        ``fit`` keeps them as one array per key (a problem costs a few
        numbers, not a dict: there are k (k - 1) / 2 problems); the list is
        built on each access.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVC
        >>> X = np.array([[0.0], [1.0], [3.0], [4.0], [8.0], [9.0]])
        >>> clf = SVC(kernel="linear").fit(X, [0, 0, 1, 1, 2, 2])
        >>> len(clf.fit_details_), clf.fit_details_[0]["status"]
        (3, 'converged')
        """
        record = self.__dict__.get("_fit_details")
        if record is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute 'fit_details_'")
        return record if isinstance(record, list) else _pair_reports(record)

    @fit_details_.setter
    def fit_details_(self, value: List[Dict[str, Any]]) -> None:
        self.__dict__["_fit_details"] = value  # as given (a model file's attributes)

    @property
    @fitted_view
    def coef_(self) -> np.ndarray:
        """Primal weights ``w`` per class pair (linear kernel only).

        Shape (n_classes * (n_classes - 1) / 2, n_features); for two classes
        positive values favour ``classes_[1]`` (as ``dual_coef_``).

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVC
        >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 0.0], [2.0, 1.0]])
        >>> clf = SVC(kernel="linear", C=10).fit(X, [0, 0, 1, 1])
        >>> clf.coef_.round(3) + 0.0  # the widest margin separates along x_0
        array([[1., 0.]])
        >>> np.allclose(X @ clf.coef_[0] + clf.intercept_[0], clf.decision_function(X))
        True
        """
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self)
        k = len(self.classes_)
        if k == 2:
            coef = -np.asarray((self.support_vectors_.T @ self._pair_coef()).T, dtype=np.float64)
        else:
            # pair (i, j) = w_i[j - 1] + w_j[i], with w_c = class c's rows of the dual
            # coefficients times its support vectors: one product per class, never
            # the (n_SV, n_pairs) pair coefficients
            dual = np.asarray(self._dual_coef_, dtype=np.float64)
            starts = np.concatenate([[0], np.cumsum(self._n_support)])
            w = np.stack([np.asarray(dual[:, starts[c]:starts[c + 1]] @ self.support_vectors_[starts[c]:starts[c + 1]],
                                     dtype=np.float64).reshape(k - 1, -1) for c in range(k)])
            i, j = np.triu_indices(k, 1)
            coef = w[i, j - 1] + w[j, i]
        coef.flags.writeable = False
        return coef
