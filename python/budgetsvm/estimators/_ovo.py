"""The one-vs-one kernel model of :class:`~budgetsvm.SVC`: prediction and saved state.

LIBSVM's layout: the support vectors grouped by class, ``_dual_coef_`` of
shape (n_classes - 1, n_SV) (pair (i, j) weighs class i's support vectors
by row j - 1 and class j's by row i), ``_intercept_`` per pair, positive
values for class i. The public ``dual_coef_`` / ``intercept_`` follow
scikit-learn's signs (binary: positive means ``classes_[1]``); predictions
follow the private arrays, as scikit-learn's do. The multi-class scores come
from ``_core.ovo_scores`` (exact/ovo.hpp), which never forms an (n_SV,
n_pairs) coefficient matrix.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from .. import _core
from .._atomic import fitted_view
from .._data import as_supported, core_view
from .._params import effective_n_jobs
from ._base import PipelineClassifier
from ._kernel_steps import KernelSteps, restored_expansion, sparse_like


def class_rows(y_index: np.ndarray, keep: Optional[np.ndarray], n_classes: int):
    """``(rows, start)``: the training rows grouped by class, ascending within
    each, without the rows ``keep`` drops, and the ``n_classes + 1`` offsets
    of the classes in ``rows`` (int64 both; one sort, not a pass per class)."""
    rows = np.argsort(y_index, kind="stable").astype(np.int64)
    if keep is not None:
        rows = rows[keep[rows]]
    counts = np.bincount(y_index[rows], minlength=n_classes)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return rows, start


#: The solver's report per binary problem, in fit_details_'s key order: the
#: keys of ``_core.fit_exact`` but alpha (``_core.fit_exact_ovo`` returns
#: each as one array over the pairs, ``converged`` for ``status``).
REPORT_KEYS = tuple(key for key in _core.fields("exact.ExactResult") if key != "alpha")
SOLVER_NAMES = ("alfpgm", "smo")  # the codes of fit_exact_ovo's "solver"


def pair_reports(record: Dict[str, np.ndarray]) -> List[Dict[str, Any]]:
    """fit_details_ (one dict per binary problem, the keys of ``_core.fit_exact``)
    from the compact record ``fit`` keeps: one array per key."""
    columns = []
    for key in REPORT_KEYS:
        if key == "solver":
            columns.append([SOLVER_NAMES[c] for c in record["solver"].tolist()])
        elif key == "status":
            columns.append(["converged" if ok else "max_iter_reached" for ok in record["converged"].tolist()])
        else:
            columns.append(record[key].tolist())
    return [dict(zip(REPORT_KEYS, values)) for values in zip(*columns)]


def ovr_scores(votes: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """One-vs-rest scores from one-vs-one votes and summed confidences (as
    scikit-learn): votes (pair (i, j) votes i when its value is >= 0, else
    j) plus the confidences mapped monotonically into (-1/3, 1/3), which
    breaks ties between equal vote counts without overturning any vote
    difference. ``_core.ovo_scores(..., output="ovr")`` counts both."""
    return votes + confidence / (3.0 * (np.abs(confidence) + 1.0))




class OneVsOneModel(KernelSteps, PipelineClassifier):
    """The fitted one-vs-one model: its scores, labels and saved state."""

    _name = "SVC"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = self.kernel != "precomputed"
        return tags

    # ------------------------------------------------------------------ fit

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
        dec = self._kernel_scores(X, self._pair_coef())
        return dec + self._intercept_

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
            return ovr_scores(*self._ovo_scores(X, "ovr"))
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


    @property
    @fitted_view
    def coef_(self) -> np.ndarray:
        """Primal weights ``w`` per class pair (linear kernel only).

        Shape (n_classes * (n_classes - 1) / 2, n_features); for two classes
        positive values favour ``classes_[1]`` (as ``dual_coef_``). Sparse
        (the container of ``support_vectors_``) for a model trained on sparse
        data, as scikit-learn's.

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
        return sparse_like(self.support_vectors_, coef)

    def _fitted_state(self) -> Dict[str, Any]:
        state = super()._fitted_state()
        state.update(kernel=self.kernel, degree=int(self.degree), coef0=float(self.coef0), gamma=float(self._gamma),
                     intercept=np.asarray(self._intercept_, dtype=np.float64),
                     dual_coef=np.asarray(self._dual_coef_, dtype=np.float64),
                     n_support=np.asarray(self._n_support, dtype=np.int64),
                     support_rows=self._support_rows, used_columns=self._used_columns,
                     prob_a=np.asarray(self.probA_, dtype=np.float64), prob_b=np.asarray(self.probB_, dtype=np.float64))
        return state

    def _restore_fitted_state(self, state: Dict[str, Any]) -> None:
        """Also: ``prob_a`` / ``prob_b`` None or empty (no Platt scaling), and
        ``sparse_queries`` (optional): the model takes dense and sparse queries
        (LIBSVM's models, sparse by nature)."""
        super()._restore_fitted_state(state)
        rows, used, containers = state["support_rows"], state["used_columns"], state["containers"]
        dual, intercept = state["dual_coef"], state["intercept"]
        binary = self.classes_.size == 2
        self._used_columns = used
        self._n_support = state["n_support"].astype(np.int32)
        self.n_support_ = self._n_support  # one array under both names, as fit makes it
        self._dual_coef_ = dual
        self._intercept_ = intercept
        self._gamma = float(state["gamma"])
        self._support_rows = rows
        probability = state["prob_a"] is not None and np.size(state["prob_a"]) > 0
        if probability:
            self.probA_, self.probB_ = state["prob_a"], state["prob_b"]
        else:
            self.probA_, self.probB_ = np.empty(0), np.empty(0)
        self.intercept_ = -intercept if binary else intercept.copy()
        public_dual = -dual if binary else dual.copy()
        self.dual_coef_, self.support_vectors_ = restored_expansion(rows, used, containers, public_dual)
        n_sv = int(rows.shape[0])
        defaults = {
            "support_": np.arange(n_sv, dtype=np.int32),
            "shape_fit_": (n_sv, int(state["n_features"])),
            "_sparse": sp.issparse(rows),
            "_probability": probability,
            "fit_status_": 0,
        }
        for name, value in defaults.items():
            self._default(name, value)
        if state.get("sparse_queries"):
            self._sparse = True
