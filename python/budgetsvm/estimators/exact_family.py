"""The rest of LIBSVM's family on our exact solver: ``SVR``, ``NuSVR``, ``OneClassSVM`` and ``NuSVC``.

Each estimator states its problem in LIBSVM's general dual form (docs/exact.md,
"The general dual")::

    min 1/2 a^T Q a + p^T a,  0 <= a_t <= C_t,  y^T a = Delta (or one sum per label: nu path)

with ``Q_ts = y_t y_s k(x_t, x_s)``, and the core solves it from a feasible
start (``_core.fit_exact_dual``, budgetsvm/exact/general.hpp):

* epsilon-SVR: 2n positions, the n rows twice (``y = +1`` then ``-1``),
  ``p = epsilon - z`` then ``epsilon + z``, bounds ``C * sample_weight`` for
  both copies, start 0; ``dual_coef_ = a_i - a_{i+n}``;
* nu-SVR: the same positions, ``p = -z`` then ``+z``, the nu path (one sum
  per copy), a start that puts ``nu * sum(C_i) / 2`` on each copy; its
  ``epsilon`` is ``-r``;
* one-class: n positions, ``y = +1``, ``p = 0``, bounds ``sample_weight``,
  a start that fills ``nu * sum(bounds)`` in row order;
* nu-SVC: per pair of classes (one-vs-one, as ``SVC``), ``p = 0``, the nu
  path, a start of ``nu / 2`` of the total bound per class, the solution
  divided by ``r`` (exact/general.hpp, done in C++ by the one-vs-one loop).

epsilon-SVR's kernel columns hold 2n values (each row's twice): the cache
stores both copies (a first version; docs/exact.md). The nu path runs SMO
(with shrinking per label).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Dict, Optional, Tuple, Union

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import _core
from .._atomic import atomic_fit, fitted_view
from .._data import core_view
from .._params import check_number, effective_n_jobs
from ._base import PipelineOutlierDetector, PipelineRegressor
from ._kernel_steps import KernelSteps, restored_expansion, sparse_like
from .exact import KERNELS, SVC

def _check_nu(estimator: Any) -> float:
    """``nu`` in (0, 1] (scikit-learn's parameter range and words)."""
    nu = estimator.nu
    if isinstance(nu, (bool, np.bool_)) or not isinstance(nu, (int, float, np.integer, np.floating)):
        raise TypeError(f"The 'nu' parameter of {type(estimator).__name__} must be a float in the range "
                        f"(0.0, 1.0]. Got {nu!r} instead.")
    if not (0.0 < float(nu) <= 1.0):
        raise ValueError(f"The 'nu' parameter of {type(estimator).__name__} must be a float in the range "
                         f"(0.0, 1.0]. Got {nu!r} instead.")
    return float(nu)


def fill_start(bounds: np.ndarray, total: float) -> np.ndarray:
    """A start that puts ``total`` on the positions in order, each up to its bound.

    >>> fill_start(np.ones(4), 2.5).tolist()
    [1.0, 1.0, 0.5, 0.0]
    """
    before = np.concatenate([[0.0], np.cumsum(bounds)[:-1]])
    return np.clip(total - before, 0.0, bounds)


class _DualFit:
    """The fit and prediction steps of the one-problem estimators (SVR, NuSVR, OneClassSVM)."""

    _estimator_name = "estimator"
    kernel: Any
    gamma: Any
    degree: int
    coef0: float
    tol: float
    cache_size: float
    max_iter: int
    shrinking: bool
    verbose: Any
    n_jobs: Optional[int]

    def _core_params(self, solver: str) -> Dict[str, Any]:
        """The core's options (all but gamma); the kernel and shared settings validated."""
        if not (callable(self.kernel) or (isinstance(self.kernel, str) and self.kernel in KERNELS)):
            raise ValueError(f"kernel must be one of {KERNELS} or a callable; got {self.kernel!r}.")
        if not isinstance(self.verbose, (bool, np.bool_)):
            check_number("verbose", self.verbose, integer=True, low=0)
        params = {
            "kernel": "precomputed" if callable(self.kernel) else self.kernel,
            "degree": self.degree, "coef0": self.coef0, "tol": self.tol, "cache_size": self.cache_size,
            "max_iter": self.max_iter, "shrinking": self.shrinking, "solver": solver,
            "n_jobs": effective_n_jobs(self.n_jobs),
        }
        _core.check_options("exact", params)
        return params

    def _family_input(self, X: Any, y: Any) -> Tuple[Any, Any]:
        """The input step; a precomputed kernel is a square dense float64 matrix."""
        if self.kernel != "precomputed":
            return self._fit_input(X, y)  # type: ignore[attr-defined]
        if sp.issparse(X):
            raise TypeError("Sparse precomputed kernels are not supported.")
        if y is None and isinstance(self, PipelineOutlierDetector):
            X = validate_data(self, X, accept_sparse=False, dtype=np.float64, order="C")
        else:
            X, y = validate_data(self, X, y, accept_sparse=False, dtype=np.float64, order="C", y_numeric=True)
            y = np.ascontiguousarray(y, dtype=np.float64)
        if X.shape[0] != X.shape[1]:
            raise ValueError(
                f"Precomputed matrix must be a square matrix. Input is a {X.shape[0]}x{X.shape[1]} matrix."
            )
        return X, y

    def _kept_rows(self, sample_weight: Any, n: int) -> Tuple[np.ndarray, np.ndarray]:
        """(rows, weights): the rows of positive weight (LIBSVM leaves the others
        out) and their weights (1 without sample_weight)."""
        if sample_weight is None:
            return np.arange(n, dtype=np.int64), np.ones(n)
        sw = self._sample_weights(sample_weight, n)  # type: ignore[attr-defined]
        rows = np.flatnonzero(sw > 0).astype(np.int64)
        return rows, sw[rows]

    def _solve(self, X: Any, params: Dict[str, Any], positions: np.ndarray, y: np.ndarray, upper: np.ndarray,
               p: np.ndarray, alpha0: Optional[np.ndarray], nu: bool) -> Tuple[Any, Dict[str, Any]]:
        """The general dual on ``positions`` (rows of X); returns (what the solver read, its result)."""
        solver_X, used = self._solver_input(X, params)  # type: ignore[attr-defined]
        self._used_columns = used
        X_core = solver_X if params["kernel"] == "precomputed" else core_view(solver_X)
        result = _core.fit_exact_dual(X_core, np.ascontiguousarray(positions, dtype=np.int64), y, upper, p,
                                      alpha0, params, nu)
        if self.verbose:
            print(f"[budgetsvm.{self._estimator_name}] {result['solver']}: {result['iterations']} iterations, "
                  f"objective {result['objective']:.6g}, {result['seconds']:.3f} s, status {result['status']}")
        return solver_X, result

    def _publish_model(self, X: Any, solver_X: Any, rows: np.ndarray, coef: np.ndarray,
                       result: Dict[str, Any], extra: Dict[str, Any]) -> None:
        """Publishes the model: the rows of non-zero ``coef`` are the support vectors."""
        sv = np.flatnonzero(coef != 0)
        support = rows[sv]
        dual = coef[sv][None, :].astype(np.float64)
        intercept = np.array([-float(result["rho"])])
        if self.kernel == "precomputed":
            support_rows = np.empty((0, 0), dtype=np.float64)
        elif callable(self.kernel):
            support_rows = self._fit_X[support]  # type: ignore[attr-defined]
        else:
            support_rows = solver_X[support]
        support_vectors = support_rows
        if self._used_columns is not None:
            support_vectors = self._used_columns.expand(support_rows)
            if isinstance(X, sp.sparray):
                support_vectors = sp.csr_array(support_vectors)
        public_dual: Any = dual
        if self._sparse and not callable(self.kernel):
            public_dual = (sp.csr_matrix if isinstance(solver_X, sp.spmatrix) else sp.csr_array)(dual)
        converged = result["status"] == "converged"
        self.__dict__.pop("_fit_X", None)
        self._publish(  # type: ignore[attr-defined]
            {"dual_coef_": dual, "intercept_": intercept},
            support_=support.astype(np.int32), support_vectors_=support_vectors, _support_rows=support_rows,
            dual_coef_=public_dual, _dual_coef_=dual, intercept_=intercept, _intercept_=intercept,
            n_support_=np.array([sv.size], dtype=np.int32), _n_support=np.array([sv.size, 0], dtype=np.int32),
            n_iter_=int(result["iterations"]), fit_status_=0 if converged else 1,
            dual_objective_=float(result["objective"]), solver_=str(result["solver"]),
            shape_fit_=X.shape, class_weight_=np.empty(0), **extra,
        )
        if not converged:
            warnings.warn(
                f"Solver terminated early (max_iter={self.max_iter}).  Consider pre-processing your "
                "data with StandardScaler or MinMaxScaler.",
                ConvergenceWarning,
                stacklevel=3,
            )

    # ------------------------------------------------------------ model files

    def _fitted_state(self) -> Dict[str, Any]:
        """The model as model files store it: the expansion's ``coef``
        (``dual_coef_`` transposed), its intercept and the kernel."""
        state = super()._fitted_state()  # type: ignore[misc]
        state.update(kernel=self.kernel, degree=int(self.degree), coef0=float(self.coef0),
                     gamma=float(self._gamma),
                     intercept=np.asarray(self._intercept_, dtype=np.float64),
                     coef=np.ascontiguousarray(np.asarray(self._dual_coef_, dtype=np.float64).T),
                     support_rows=self._support_rows,
                     used_columns=self._used_columns)
        return state

    def _restore_fitted_state(self, state: Dict[str, Any]) -> None:
        """Sets what ``_fitted_state`` saved and the attributes derived from
        it; ``sparse_queries`` (optional): the model takes dense and sparse
        queries (LIBSVM's models, sparse by nature)."""
        super()._restore_fitted_state(state)  # type: ignore[misc]
        rows, used, containers = state["support_rows"], state["used_columns"], state["containers"]
        dual = np.ascontiguousarray(state["coef"].T)
        intercept = state["intercept"]
        n_sv = int(rows.shape[0])
        self._used_columns = used
        self._gamma = float(state["gamma"])
        self._support_rows = rows
        self._dual_coef_ = dual
        self._intercept_ = intercept
        self.intercept_ = intercept
        self.dual_coef_, self.support_vectors_ = restored_expansion(rows, used, containers, dual)
        self.n_support_ = np.array([n_sv], dtype=np.int32)
        self._n_support = np.array([n_sv, 0], dtype=np.int32)
        if isinstance(self, PipelineOutlierDetector):
            self.offset_ = -np.asarray(intercept, dtype=np.float64)
        defaults = {
            "support_": np.arange(n_sv, dtype=np.int32),
            "shape_fit_": (n_sv, int(state["n_features"])),
            "_sparse": sp.issparse(rows),
            "fit_status_": 0,
            "class_weight_": np.empty(0),
        }
        for name, value in defaults.items():
            self._default(name, value)  # type: ignore[attr-defined]
        if state.get("sparse_queries"):
            self._sparse = True

    # ------------------------------------------------------------ prediction

    def _predict_input(self, X: Any) -> Any:
        return self._validate_for_predict(X)  # type: ignore[attr-defined]

    def _decision(self, X: Any) -> np.ndarray:
        dual = np.asarray(self._dual_coef_, dtype=np.float64)
        return self._kernel_scores(X, dual.T) + self._intercept_  # type: ignore[attr-defined]

    @property
    @fitted_view
    def coef_(self) -> np.ndarray:
        """Primal weights ``w`` (linear kernel only), shape (1, n_features); sparse for a model trained on sparse data.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVR
        >>> X = np.linspace(0, 1, 20).reshape(-1, 1)
        >>> reg = SVR(kernel="linear", C=100.0, epsilon=0.01).fit(X, 2 * X[:, 0] + 1)
        >>> np.round(reg.coef_, 1).tolist()
        [[2.0]]
        """
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self)
        coef = self._dual_coef_ @ self.support_vectors_
        coef = np.asarray(coef.toarray() if sp.issparse(coef) else coef, dtype=np.float64)
        return sparse_like(self.support_vectors_, coef)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()  # type: ignore[misc]
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = self.kernel != "precomputed"
        return tags


class SVR(_DualFit, KernelSteps, PipelineRegressor):
    """Epsilon-support vector regression solved exactly, a drop-in replacement for ``sklearn.svm.SVR``.

    Solves LIBSVM's epsilon-SVR dual (two variables per sample, module
    docstring) by our SMO (``solver="smo"``, LIBSVM's second-order pair
    selection and shrinking) or ALFPGM (``solver="alfpgm"``: working sets
    of many pairs); ``solver="auto"`` picks ALFPGM from 10000 positions on
    dense data (docs/guide_exact.md). The optimum, the support vectors and
    the predictions agree with ``sklearn.svm.SVR`` up to the tolerance.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
    degree : int, default=3
    gamma : {"scale", "auto"} or float, default="scale"
    coef0 : float, default=0.0
    tol : float, default=1e-3
        Stop when the largest KKT violation is below ``tol``.
    C : float, default=1.0
        Bound of the dual variables (times ``sample_weight``), > 0.
    epsilon : float, default=0.1
        Width of the tube in which errors cost nothing, >= 0.
    shrinking : bool, default=True
    cache_size : float, default=200
        Kernel column cache in MB.
    verbose : bool or int, default=False
        Print the solver's summary after fit.
    max_iter : int, default=-1
        Most iterations (-1: no limit but max(10^7, 100 n)).
    solver : {"auto", "smo", "alfpgm"}, default="auto"
    n_jobs : int, default=None
        Threads for kernel columns and gradient updates (None: 1, -1: all).

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
    support_vectors_ : ndarray or sparse matrix of shape (n_SV, n_features)
    dual_coef_ : ndarray of shape (1, n_SV)
        ``a_i - a*_i`` of the support vectors.
    coef_ : ndarray of shape (1, n_features)
        Linear kernel only.
    intercept_ : ndarray of shape (1,)
    n_support_ : ndarray of shape (1,)
    fit_status_ : int
        0 converged, 1 stopped at ``max_iter``.
    n_iter_ : int
    dual_objective_ : float
        ``1/2 a^T Q a + p^T a`` at the solution (our addition).
    solver_ : str
        The solver that ran.
    shape_fit_ : tuple
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import SVR
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-3, 3, size=(200, 1))
    >>> reg = SVR(C=10.0, epsilon=0.05).fit(X, np.sin(X[:, 0]))
    >>> bool(reg.score(X, np.sin(X[:, 0])) > 0.99)
    True
    """

    _name = _estimator_name = "SVR"

    def __init__(
        self,
        *,
        kernel: Union[str, Callable] = "rbf",
        degree: int = 3,
        gamma: Union[str, float] = "scale",
        coef0: float = 0.0,
        tol: float = 1e-3,
        C: float = 1.0,
        epsilon: float = 0.1,
        shrinking: bool = True,
        cache_size: float = 200,
        verbose: Any = False,
        max_iter: int = -1,
        solver: str = "auto",
        n_jobs: Optional[int] = None,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.solver = solver
        self.n_jobs = n_jobs

    @atomic_fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "SVR":
        """Fit the regression on training data.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample multipliers of ``C``; samples of weight <= 0 are left out.

        Returns
        -------
        self : SVR

        Examples
        --------
        >>> from budgetsvm import SVR
        >>> reg = SVR(kernel="linear", epsilon=0.0).fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
        >>> reg.fit_status_, reg.n_support_.tolist()
        (0, [2])
        """
        params = self._core_params(self.solver)
        params["C"] = check_number("C", self.C, low=0.0, low_inclusive=False)
        epsilon = self.epsilon
        if isinstance(epsilon, (bool, np.bool_)) or not isinstance(epsilon, (int, float, np.integer, np.floating)) \
                or not 0.0 <= float(epsilon) < np.inf:
            raise ValueError("The 'epsilon' parameter of SVR must be a float in the range [0.0, inf). "
                             f"Got {epsilon!r} instead.")
        epsilon = float(epsilon)
        X, z = self._family_input(X, y)
        rows, w = self._kept_rows(sample_weight, X.shape[0])
        self._check_costs(params["C"], None, w)
        zr, n = z[rows], rows.size
        upper = np.tile(params["C"] * w, 2)
        sign = np.concatenate([np.ones(n), -np.ones(n)])
        p = np.concatenate([epsilon - zr, epsilon + zr])
        solver_X, result = self._solve(X, params, np.tile(rows, 2), sign, upper, p, None, False)
        alpha = result["alpha"]
        self._publish_model(X, solver_X, rows, alpha[:n] - alpha[n:], result, {})
        return self


class NuSVR(_DualFit, KernelSteps, PipelineRegressor):
    """Nu-support vector regression solved exactly, a drop-in replacement for ``sklearn.svm.NuSVR``.

    ``nu`` bounds the fraction of training errors from above and of support
    vectors from below; the tube's width follows from it (LIBSVM's nu-SVR,
    module docstring), solved by our SMO on the nu path (two equality
    constraints, pairs of one label).

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1].
    C : float, default=1.0
        Bound of the dual variables (times ``sample_weight``), > 0.
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
    degree : int, default=3
    gamma : {"scale", "auto"} or float, default="scale"
    coef0 : float, default=0.0
    shrinking : bool, default=True
        LIBSVM's shrinking (per label on the nu path).
    tol : float, default=1e-3
    cache_size : float, default=200
    verbose : bool or int, default=False
    max_iter : int, default=-1
    n_jobs : int, default=None

    Attributes
    ----------
    support_, support_vectors_, dual_coef_, coef_, intercept_, n_support_, fit_status_, n_iter_,
    dual_objective_, shape_fit_, n_features_in_ : as :class:`SVR`.
    epsilon_ : float
        The tube's half width the solution implies (LIBSVM's ``-r``; our addition).

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import NuSVR
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-3, 3, size=(200, 1))
    >>> reg = NuSVR(nu=0.3, C=10.0).fit(X, np.sin(X[:, 0]))
    >>> bool(reg.score(X, np.sin(X[:, 0])) > 0.99)
    True
    """

    _name = _estimator_name = "NuSVR"

    def __init__(
        self,
        *,
        nu: float = 0.5,
        C: float = 1.0,
        kernel: Union[str, Callable] = "rbf",
        degree: int = 3,
        gamma: Union[str, float] = "scale",
        coef0: float = 0.0,
        shrinking: bool = True,
        tol: float = 1e-3,
        cache_size: float = 200,
        verbose: Any = False,
        max_iter: int = -1,
        n_jobs: Optional[int] = None,
    ):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.n_jobs = n_jobs

    @atomic_fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "NuSVR":
        """Fit the regression on training data.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample multipliers of ``C``; samples of weight <= 0 are left out.

        Returns
        -------
        self : NuSVR

        Examples
        --------
        >>> from budgetsvm import NuSVR
        >>> reg = NuSVR(kernel="linear", nu=1.0).fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
        >>> reg.fit_status_
        0
        """
        params = self._core_params("smo")
        params["C"] = check_number("C", self.C, low=0.0, low_inclusive=False)
        nu = _check_nu(self)
        X, z = self._family_input(X, y)
        rows, w = self._kept_rows(sample_weight, X.shape[0])
        self._check_costs(params["C"], None, w)
        zr, n = z[rows], rows.size
        bounds = params["C"] * w
        start = fill_start(bounds, nu * bounds.sum() / 2)
        sign = np.concatenate([np.ones(n), -np.ones(n)])
        solver_X, result = self._solve(X, params, np.tile(rows, 2), sign, np.tile(bounds, 2),
                                       np.concatenate([-zr, zr]), np.tile(start, 2), True)
        alpha = result["alpha"]
        self._publish_model(X, solver_X, rows, alpha[:n] - alpha[n:], result, {"epsilon_": -float(result["r"])})
        return self


class OneClassSVM(_DualFit, KernelSteps, PipelineOutlierDetector):
    """One-class SVM (novelty detection) solved exactly, a drop-in replacement for ``sklearn.svm.OneClassSVM``.

    Schoelkopf's formulation as LIBSVM solves it (module docstring): bounds
    1 per sample (times ``sample_weight``), ``nu`` of their sum at the start,
    our SMO or ALFPGM on the one-constraint dual.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
    degree : int, default=3
    gamma : {"scale", "auto"} or float, default="scale"
    coef0 : float, default=0.0
    tol : float, default=1e-3
    nu : float, default=0.5
        Upper bound on the fraction of training errors and lower bound of the
        fraction of support vectors, in (0, 1].
    shrinking : bool, default=True
    cache_size : float, default=200
    verbose : bool or int, default=False
    max_iter : int, default=-1
    solver : {"auto", "smo", "alfpgm"}, default="auto"
    n_jobs : int, default=None

    Attributes
    ----------
    support_, support_vectors_, dual_coef_, coef_, intercept_, n_support_, fit_status_, n_iter_,
    dual_objective_, shape_fit_, n_features_in_ : as :class:`SVR`.
    offset_ : ndarray of shape (1,)
        ``decision_function = score_samples - offset_`` (``-intercept_``).

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import OneClassSVM
    >>> X = np.random.default_rng(0).normal(size=(300, 2))
    >>> det = OneClassSVM(nu=0.1, gamma=0.5).fit(X)
    >>> bool(abs(np.mean(det.predict(X) == -1) - 0.1) < 0.05)
    True
    """

    _name = _estimator_name = "OneClassSVM"

    def __init__(
        self,
        *,
        kernel: Union[str, Callable] = "rbf",
        degree: int = 3,
        gamma: Union[str, float] = "scale",
        coef0: float = 0.0,
        tol: float = 1e-3,
        nu: float = 0.5,
        shrinking: bool = True,
        cache_size: float = 200,
        verbose: Any = False,
        max_iter: int = -1,
        solver: str = "auto",
        n_jobs: Optional[int] = None,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.nu = nu
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.solver = solver
        self.n_jobs = n_jobs

    @atomic_fit
    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> "OneClassSVM":
        """Learn the support of the training data.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
        y : ignored
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample bounds; samples of weight <= 0 are left out.

        Returns
        -------
        self : OneClassSVM

        Examples
        --------
        >>> from budgetsvm import OneClassSVM
        >>> det = OneClassSVM(nu=0.5, gamma=1.0).fit([[0.0], [0.1], [0.2], [5.0]])
        >>> det.fit_status_
        0
        """
        params = self._core_params(self.solver)
        nu = _check_nu(self)
        X, _ = self._family_input(X, None)
        rows, w = self._kept_rows(sample_weight, X.shape[0])
        self._check_costs(1.0, None, w)
        n = rows.size
        solver_X, result = self._solve(X, params, rows, np.ones(n), w, np.zeros(n), fill_start(w, nu * w.sum()),
                                       False)
        self._publish_model(X, solver_X, rows, result["alpha"], result, {"offset_": np.array([float(result["rho"])])})
        return self


class NuSVC(SVC):
    """Nu-support vector classification solved exactly, a drop-in replacement for ``sklearn.svm.NuSVC``.

    ``nu`` in (0, 1] replaces ``C``: it bounds the fraction of margin errors
    from above and of support vectors from below. Every pair of classes
    (one-vs-one, LIBSVM's order and layout, as :class:`SVC`) is LIBSVM's
    nu-SVC problem solved by our SMO on the nu path (two equality
    constraints, pairs of one label), its solution scaled by
    ``1 / r`` as LIBSVM does, so that ``dual_coef_`` and ``intercept_`` are
    those of a C-SVC with ``C = 1 / r``. Prediction, ``decision_function``
    (``decision_function_shape``) and the probability estimates (Platt on
    cross-validated nu-SVC decision values) are :class:`SVC`'s.

    Parameters
    ----------
    nu : float, default=0.5
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
    degree : int, default=3
    gamma : {"scale", "auto"} or float, default="scale"
    coef0 : float, default=0.0
    shrinking : bool, default=True
        LIBSVM's shrinking (per label on the nu path).
    probability : bool, default="deprecated"
    tol : float, default=1e-3
    cache_size : float, default=200
    class_weight : dict or "balanced", default=None
        Accepted as scikit-learn's NuSVC accepts it, without effect on the
        model: LIBSVM's nu-SVC has no per-class bound. The weights are
        reported in ``class_weight_``.
    verbose : bool or int, default=False
    max_iter : int, default=-1
    decision_function_shape : {"ovo", "ovr"}, default="ovr"
    break_ties : bool, default=False
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=None

    Attributes
    ----------
    As :class:`SVC`: ``classes_``, ``support_``, ``support_vectors_``,
    ``n_support_``, ``dual_coef_``, ``intercept_``, ``coef_`` (linear),
    ``fit_status_``, ``n_iter_``, ``class_weight_``, ``probA_``, ``probB_``,
    ``shape_fit_``, ``n_features_in_``.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import NuSVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 > 1, "out", "in")
    >>> clf = NuSVC(nu=0.2, gamma=1.0).fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _name = "NuSVC"

    def __init__(
        self,
        *,
        nu: float = 0.5,
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
        n_jobs: Optional[int] = None,
    ):
        self.nu = nu
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
        self.n_jobs = n_jobs

    # SVC's parameters NuSVC does not have: the nu path runs SMO with C = 1
    C = 1.0
    solver = "smo"

    def _pair_nu(self) -> float:
        return _check_nu(self)

    def _pair_class_weights(self) -> np.ndarray:
        # LIBSVM's nu-SVC has no per-class bound (scikit-learn's NuSVC reports class_weight_ only)
        return np.ones(len(self.class_weight_))

    def _kept_weights(self, sample_weight: Any, y_index: np.ndarray,
                      n_classes: int) -> Tuple[Optional[np.ndarray], Optional[np.ndarray]]:
        """nu's feasibility, then SVC's step: for every pair of classes, nu times
        the pair's total bound over 2 must not exceed either class's total
        (scikit-learn's and LIBSVM's message; a class whose weights are all
        <= 0 makes every nu infeasible, as there)."""
        nu = _check_nu(self)
        sw = self._sample_weights(sample_weight, y_index.shape[0])
        bounds = np.ones(y_index.size) if sw is None else np.where(sw > 0, sw, 0.0)
        totals = np.bincount(y_index, weights=bounds, minlength=n_classes)
        for i in range(n_classes):
            for j in range(i + 1, n_classes):
                if nu * (totals[i] + totals[j]) / 2 > min(totals[i], totals[j]):
                    raise ValueError("specified nu is infeasible")
        return super()._kept_weights(sample_weight, y_index, n_classes)

    def _binary_fit(self, X_core, y_pm, params, rows, weights) -> Dict[str, Any]:
        """A nu-SVC problem of the probability cross-validation, scaled as the pairs are."""
        w = np.ones(rows.size) if weights["sample_weight"] is None else np.asarray(weights["sample_weight"])
        bounds = w  # no class weights on the nu path (_pair_class_weights)
        nu = _check_nu(self)
        pos, neg = bounds[y_pm > 0].sum(), bounds[y_pm < 0].sum()
        half = nu * (pos + neg) / 2
        if half > min(pos, neg):  # a fold that cannot hold nu: the whole bound of its smaller class
            half = min(pos, neg)
        start = np.zeros(rows.size)
        start[y_pm > 0] = fill_start(bounds[y_pm > 0], half)
        start[y_pm < 0] = fill_start(bounds[y_pm < 0], half)
        result = _core.fit_exact_dual(X_core, rows, y_pm, bounds, np.zeros(rows.size), start, params, True)
        r = float(result["r"])
        if not r > 0:
            return {"alpha": np.zeros(rows.size), "intercept": 0.0}
        return {"alpha": np.asarray(result["alpha"]) / r, "intercept": -float(result["rho"]) / r}
