"""The kernel steps shared by the exact estimators (:class:`~budgetsvm.SVC`,
:class:`~budgetsvm.NuSVC`, :class:`~budgetsvm.SVR`, :class:`~budgetsvm.NuSVR`,
:class:`~budgetsvm.OneClassSVM`).

What the solver reads (a callable kernel's Gram matrix, a precomputed
kernel as given, or ``X`` on its used columns with the kernel's magnitude
checked and ``gamma`` resolved), the validation of ``X`` for prediction
(scikit-learn's rules for precomputed and sparse input) and the kernel
between queries and the support vectors times coefficients, in C++.
The estimator holds ``kernel``, ``gamma``, ``degree``, ``coef0`` and
``n_jobs``; fit sets ``_gamma``, ``_sparse``, ``_support_rows``,
``_used_columns``, ``support_`` and ``support_vectors_``.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple, cast

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import _core
from .._columns import UsedColumns, scale_outside
from .._data import as_supported, core_view, resolve_gamma
from .._magnitude import FLT_MAX, check_kernel_magnitude, check_matrix_magnitude
from .._params import effective_n_jobs


def sparse_like(rows: Any, values: np.ndarray) -> Any:
    """Read-only ``values`` in the sparse container of ``rows`` when those are
    sparse (scikit-learn's ``coef_`` of a model trained on sparse data), else
    the dense array."""
    if not sp.issparse(rows):
        values.flags.writeable = False
        return values
    out = (sp.csr_array if isinstance(rows, sp.sparray) else sp.csr_matrix)(values)
    out.data.flags.writeable = False
    return out


def restored_expansion(rows: Any, used: Optional[UsedColumns], containers: Dict[str, Any],
                       dual: Any) -> Tuple[Any, Any]:
    """(``dual_coef_``, ``support_vectors_``) of a model read from a file, in
    the containers the saved fit published: ``dual`` sparse (its saved kind,
    else ``csr_matrix``) when the support vectors are sparse or the file says
    it was; the support vectors expanded from the used columns, in their
    saved sparse kind. ``containers``: attribute name -> sparse class or None
    (model_files)."""
    dual_kind = containers.get("dual_coef_")
    if dual_kind is not None or ("dual_coef_" not in containers and sp.issparse(rows)):
        dual = (dual_kind or sp.csr_matrix)(dual)
    support_vectors = used.expand(rows) if used is not None else rows
    sv_kind = containers.get("support_vectors_")
    if sv_kind is not None and sp.issparse(support_vectors):
        support_vectors = sv_kind(support_vectors)
    return dual, support_vectors


def dense_kernel(K: Any) -> np.ndarray:
    """A callable kernel's result as a float64 array (a sparse result, as
    ``X @ Y.T`` of sparse rows gives, made dense)."""
    return np.asarray(K.toarray() if sp.issparse(K) else K, dtype=np.float64)


class KernelSteps:
    """The kernel steps of fit and prediction (module docstring)."""

    kernel: Any
    gamma: Any
    degree: int
    coef0: float
    n_jobs: Optional[int]
    _gamma: float
    _sparse: bool
    _used_columns: Optional[UsedColumns]

    def _solver_input(self, X: Any, params: Dict[str, Any]) -> Tuple[Any, Optional[UsedColumns]]:
        """(what the solver reads, the used columns): a callable kernel's Gram
        matrix, or ``X`` on its used columns; the kernel's magnitude checked and
        ``gamma`` resolved (``_gamma``, and the core's ``params["gamma"]``)."""
        self._sparse = sp.issparse(X)
        if self.kernel == "precomputed":
            self._gamma = 0.0
            check_matrix_magnitude(X, FLT_MAX)
            return X, None
        if callable(self.kernel):
            n_samples = X.shape[0]
            self._fit_X = X  # the callable's second argument at training time
            gram = np.ascontiguousarray(dense_kernel(self.kernel(X, X)))
            if gram.shape != (n_samples, n_samples):
                raise ValueError(f"The kernel callable returned shape {gram.shape}; expected {(n_samples, n_samples)}.")
            if not np.all(np.isfinite(gram)):
                raise ValueError("The kernel callable returned NaN or infinity.")
            check_matrix_magnitude(gram, FLT_MAX)
            self._gamma = 0.0
            return gram, None
        if self.kernel in ("rbf", "linear"):
            # data too large for the kernel first: it is also why gamma="scale" may overflow
            check_kernel_magnitude(X, params["kernel"], 1.0, 0, 0.0, FLT_MAX)
            self._gamma = resolve_gamma(self.gamma, X)  # validated even where unused (linear)
        else:
            self._gamma = resolve_gamma(self.gamma, X)
            check_kernel_magnitude(X, params["kernel"], self._gamma, int(self.degree), float(self.coef0), FLT_MAX)
        params["gamma"] = float(self._gamma) if self._gamma > 0 else 1.0
        return UsedColumns.compact(X)  # wide sparse data: the used columns only (_columns.py)

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
            if X.shape[1] != cast(Any, self).shape_fit_[0]:
                raise ValueError(
                    f"X.shape[1] = {X.shape[1]} should be equal to {cast(Any, self).shape_fit_[0]}, "
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

    def _callable_kernel(self, X) -> np.ndarray:
        """The callable kernel between X and the support vectors, shape-checked."""
        fitted = cast(Any, self)
        K = dense_kernel(cast(Callable, self.kernel)(X, fitted.support_vectors_))
        if K.shape != (X.shape[0], fitted.support_.size):
            raise ValueError(
                f"The kernel callable returned shape {K.shape}; expected {(X.shape[0], fitted.support_.size)}."
            )
        return K

    def _kernel_scores(self, X, coef: np.ndarray) -> np.ndarray:
        """K(X, support vectors) @ coef, (n, coef.shape[1]), for ``X`` from
        :meth:`_validate_for_predict` (no intercept)."""
        support = cast(Any, self).support_
        if self.kernel == "precomputed":
            return X[:, support] @ coef
        if callable(self.kernel):
            return self._callable_kernel(X) @ coef
        if support.size == 0:  # no support vectors (a tolerance that accepts alpha = 0): f = b
            return np.zeros((X.shape[0], coef.shape[1]))
        rows = as_supported(cast(Any, self)._support_rows)
        if self._used_columns is not None:  # trained on the used columns of wide sparse data
            X, outside = self._used_columns.restrict(X)
            dec = self._kernel_times(as_supported(X), rows, coef)
            return scale_outside(dec, outside, str(self.kernel), float(self._gamma))
        return self._kernel_times(X, rows, coef)
