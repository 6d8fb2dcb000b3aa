"""Training the one-vs-one kernel model of :class:`~budgetsvm.SVC` on the shared pipeline.

The steps ``SVC.fit`` adds to ``_base``'s: the precomputed kernel's input,
the samples of positive weight (LIBSVM leaves the others out), the matrix
the solver reads (a callable kernel's Gram matrix, the used columns of wide
sparse data) with the kernel's magnitude and ``gamma``, and every pair of
classes solved in C++ (``_core.fit_exact_ovo``, LIBSVM's pair order and
layout), published in one step.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from .. import _core
from .._data import core_view
from ._ovo import REPORT_KEYS, SOLVER_NAMES, OneVsOneModel, class_rows, pair_reports


class OneVsOneFit(OneVsOneModel):
    """The fit steps of the one-vs-one model (the estimator adds its parameters)."""

    def _fit_input(self, X: Any, y: Any, reset: bool = True) -> Tuple[Any, np.ndarray]:
        """The pipeline's input step; a precomputed kernel is a square dense matrix."""
        if self.kernel != "precomputed":
            return super()._fit_input(X, y, reset)
        if sp.issparse(X):
            raise TypeError("Sparse precomputed kernels are not supported.")
        X, y = validate_data(self, X, y, accept_sparse=False, dtype=np.float64, order="C")
        if X.shape[0] != X.shape[1]:
            raise ValueError(
                f"Precomputed matrix must be a square matrix. Input is a {X.shape[0]}x{X.shape[1]} matrix."
            )
        check_classification_targets(y)
        return X, y

    def _one_class_message(self, classes: np.ndarray) -> str:
        return f"The number of classes has to be greater than one; got {len(classes)} class."

    def _kept_weights(self, sample_weight: Any, y_index: np.ndarray,
                      n_classes: int) -> Tuple[Optional[np.ndarray], Optional[np.ndarray]]:
        """(weights, keep): the validated weights (None: all 1), and the mask
        of samples with a positive weight (None when all are kept)."""
        sw = self._sample_weights(sample_weight, y_index.shape[0])
        if sw is None:
            return None, None
        keep = sw > 0
        remaining = np.unique(y_index[keep])
        if remaining.size < 2:
            raise ValueError(  # scikit-learn's (LIBSVM wrapper's) words first
                "Invalid input - all samples with positive weights belong to the same class: only one class "
                "is left after removing samples with sample_weight <= 0; SVC needs samples of at least two classes."
            )
        if remaining.size < n_classes:
            raise ValueError(
                "Every sample of some class has sample_weight <= 0; remove that class from y "
                "(its one-vs-one problems would have no samples of it)."
            )
        # the left-out samples' weights as 0 (the core takes none below 0; their rows are not solved)
        return np.where(keep, sw, 0.0), (None if np.all(keep) else keep)

    def _pair_class_weights(self) -> np.ndarray:
        """The multipliers of each class's bounds in the pairs (``class_weight_``; NuSVC: 1)."""
        return np.asarray(self.class_weight_, dtype=np.float64)

    def _pair_nu(self) -> float:
        """0: the pairs are C-SVC problems; NuSVC: its nu (nu-SVC pairs)."""
        return 0.0

    def _report_pair(self, pair, solver, iterations, objective, seconds, converged):
        """verbose: one line per binary problem, as it is solved."""
        status = "converged" if converged else "max_iter_reached"
        print(
            f"[budgetsvm.SVC] {solver}: {iterations} rounds, "
            f"objective {objective:.6g}, {seconds:.3f} s, status {status}"
        )


    def _fit_pairs(self, X, solver_X, used, y_index, weights, keep, params, rng):
        """Every pair of classes solved in C++ on its own rows (``_core.fit_exact_ovo``,
        LIBSVM's pair order and layout), then Platt's sigmoids (probability=True);
        the model published (``X``: the training data, ``solver_X``: what the
        solver read, on the ``used`` columns)."""
        n_classes = len(self.classes_)
        precomputed = params["kernel"] == "precomputed"
        X_core = solver_X if precomputed else core_view(solver_X)
        rows, start = class_rows(y_index, keep, n_classes)
        fit = _core.fit_exact_ovo(
            X_core, rows, start, params, self._pair_class_weights(),
            None if weights is None else np.asarray(weights, dtype=np.float64),
            self._report_pair if self.verbose else None, nu=self._pair_nu(),
        )
        prob_a, prob_b = self._platt_for_pairs(solver_X, X_core, rows, start, weights, params, rng)
        support, dual, intercept = fit["support"], fit["dual"], fit["intercept"]
        n_iter = fit["iterations"].astype(np.int32)
        status_ok = bool(np.all(fit["converged"]))
        # fit_details_'s columns; intercept, objective and iterations are the arrays kept anyway
        record = {key: fit[key] for key in REPORT_KEYS + ("converged",) if key != "status"}
        record["iterations"] = n_iter
        # scikit-learn's binary convention: positive values mean classes_[1]
        public_dual, public_intercept = (-dual, -intercept) if n_classes == 2 else (dual.copy(), intercept.copy())
        if self.kernel == "precomputed":
            support_rows = np.empty((0, 0), dtype=np.float64)
        else:
            support_rows = solver_X[support] if not callable(self.kernel) else self._fit_X[support]
        if self._sparse and not callable(self.kernel):
            public_dual = (sp.csr_matrix if isinstance(solver_X, sp.spmatrix) else sp.csr_array)(public_dual)
        # the support vectors the core computes with (in the training
        # columns) and the public ones (in the original columns)
        support_vectors = support_rows
        if used is not None:
            support_vectors = used.expand(support_rows)
            if isinstance(X, sp.sparray):
                support_vectors = sp.csr_array(support_vectors)
        n_support = fit["n_support"].astype(np.int32)
        self.__dict__.pop("_fit_X", None)
        self._publish(
            {"dual_coef_": dual, "intercept_": intercept, "probA_": prob_a, "probB_": prob_b},
            support_=support.astype(np.int32),
            # one array under both names, as scikit-learn's _n_support: predict checks it
            n_support_=n_support, _n_support=n_support,
            _dual_coef_=dual, _intercept_=intercept, intercept_=public_intercept, dual_coef_=public_dual,
            _support_rows=support_rows, _used_columns=used, support_vectors_=support_vectors,
            n_iter_=n_iter, dual_objective_=fit["objective"],
            _fit_details=record,  # fit_details_ is built from it on access (one dict per pair)
            solver_=[SOLVER_NAMES[c] for c in record["solver"].tolist()],
            probA_=prob_a, probB_=prob_b, fit_status_=0 if status_ok else 1,
        )
        if not status_ok:
            warnings.warn(
                f"Solver terminated early (max_iter={self.max_iter}).  Consider pre-processing your "
                "data with StandardScaler or MinMaxScaler.",
                ConvergenceWarning,
                stacklevel=3,
            )

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
        return record if isinstance(record, list) else pair_reports(record)

    @fit_details_.setter
    def fit_details_(self, value: List[Dict[str, Any]]) -> None:
        self.__dict__["_fit_details"] = value  # as given (a model file's attributes)

