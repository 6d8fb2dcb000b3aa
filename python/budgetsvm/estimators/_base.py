"""The pipeline every estimator's ``fit``, ``partial_fit`` and ``predict`` goes through.

:class:`PipelineEstimator` holds the steps that every estimator of the
package shares, :class:`PipelineClassifier` (class labels and weights,
the largest score wins), :class:`PipelineRegressor` (a real target, one
score per row) and :class:`PipelineOutlierDetector` (no target; positive
scores are inliers) what their targets and outputs need. In the order a
classifier's fit runs them (a regressor skips the labels and class
weights, a detector the target):

1. **input** (:meth:`~PipelineClassifier._fit_input`): scikit-learn's
   ``validate_data`` (its messages, ``n_features_in_``, feature names), the
   core's data contract (``_data.as_supported``: read in place where possible,
   non-finite values found in C++) and ``check_classification_targets``;
2. **labels** (:meth:`~PipelineClassifier._fit_labels`): the sorted classes
   and each row's index among them (``_labels``), at least two classes;
3. **weights** (:meth:`~PipelineClassifier._class_factors` and
   :meth:`~PipelineClassifier._sample_weights`): ``class_weight`` as one
   factor of ``C`` per class, ``sample_weight`` through the one validator
   (``_params.check_sample_weight``), and the costs ``C * class_weight[y_i] *
   sample_weight[i]`` checked against float64 underflow
   (``_magnitude.check_costs``);
4. **magnitude**: ``_magnitude``'s checks of the data against the kernel or
   the linear solver (the estimator picks the one its solver needs);
5. **columns**: wide sparse data trained on the columns they use
   (``_columns.UsedColumns``; kernel models);
6. **the core call**: the estimator's own (its options from ``_params.core_params``);
7. **publishing** (:meth:`~PipelineClassifier._publish`): the fitted arrays
   checked finite (``_magnitude.check_finite_fit``), then set. ``fit`` and
   ``partial_fit`` are wrapped by ``_atomic.atomic_fit``, so they work on a
   detached copy and publish it in one assignment: a failed fit publishes
   nothing, and a concurrent ``predict`` (wrapped by ``_atomic.fitted_view``)
   sees the old model or the new one.

Prediction: :meth:`~PipelineClassifier._predict_input` validates ``X``
against the fitted width, the estimator's :meth:`_decision` computes the
scores, and :meth:`decision_function` / :meth:`predict` turn them into
scikit-learn's shapes and labels (binary: one column, positive means
``classes_[1]``; else the largest column wins).

Saving and restoring: each estimator owns its fitted state. Model files
(``model_files/_estimator_state.py``) call :meth:`~PipelineClassifier._fitted_state` to save and
:meth:`~PipelineClassifier._restore_fitted_state` to load, and never read or
set an estimator's private attributes.

A new estimator plugs in without a change here: it subclasses
``PipelineClassifier``, declares its parameters in ``__init__``, translates
them to the core's options, and writes ``fit`` from the steps; for example
a classifier on the budgeted core with fixed options::

    class TinyBudgetedSVC(PipelineClassifier):
        _name = "TinyBudgetedSVC"
        _validate_finite = False  # as_supported finds non-finite values in C++

        def __init__(self, C=1.0, budget=50, class_weight=None):
            self.C, self.budget, self.class_weight = C, budget, class_weight

        @atomic_fit
        def fit(self, X, y, sample_weight=None):
            X, y = self._fit_input(X, y)
            classes, y_index = self._fit_labels(y)
            factors = self._class_factors(classes, y)
            weights = self._sample_weights(sample_weight, X.shape[0], allow_negative=False)
            self._check_costs(self.C, factors[y_index], weights)
            check_kernel_magnitude(X, "rbf", 1.0, 0, 0.0, DBL_MAX)
            params = core_params(self, "budgeted", gamma=resolve_gamma("scale", X))
            per_sample = None if weights is None else factors[y_index] * weights
            result = _core.fit_budgeted(core_view(X), y_index.astype(np.int32), len(classes), params,
                                        None, per_sample, None)
            coef = np.ascontiguousarray(result["dual_coef"])
            self._publish({"dual_coef_": coef, "intercept_": result["intercept"]},
                          classes_=classes, rows_=result["support_vectors"], coef_=coef,
                          intercept_=result["intercept"], gamma_=params["gamma"])
            return self

        def _decision(self, X):
            X = as_supported(X)
            return _core.decision_function(core_view(X), self.rows_, self.coef_, "rbf", self.gamma_,
                                           3, 0.0, 1) + self.intercept_

``C`` and ``budget`` reach the core by their registry names
(``_params.core_params``) and the weights step reads ``class_weight``. Every
fit step, the atomic publishing, ``decision_function``, ``predict`` and
``score`` come from here unchanged; with ``_fitted_state`` and
``_restore_fitted_state`` (and a family in ``model_files/_estimator_state.py``) model files hold
it too.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, OutlierMixin, RegressorMixin
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._atomic import fitted_view
from .._data import as_supported
from .._labels import encode_labels
from .._magnitude import check_costs, check_finite_fit
from .._params import check_class_weight_spec, check_class_weights, check_sample_weight, plain

#: The dtypes the core reads in place (anything else is converted once).
DTYPES = [np.float64, np.float32]


class PipelineEstimator(BaseEstimator):
    """The steps every estimator shares, whatever it predicts (module docstring).

    :class:`PipelineClassifier`, :class:`PipelineRegressor` and
    :class:`PipelineOutlierDetector` add what their targets and outputs need.

    Class attributes a subclass may set:

    ``_name``
        The estimator's name in messages.
    ``_order``
        The memory order ``fit`` asks ``validate_data`` for (``None``: as
        given; ``"C"``: rows contiguous, for solvers that read rows).
    ``_validate_finite``
        Whether ``validate_data`` looks for NaN and infinity (scikit-learn's
        messages); ``False`` leaves it to ``as_supported``, one pass in C++.
    """

    _name = "estimator"
    _order: Optional[str] = None
    _validate_finite = True

    # ------------------------------------------------------------- fit steps

    def _fit_input(self, X: Any, y: Any, reset: bool = True) -> Tuple[Any, Any]:
        """Step 1: ``(X, y)`` validated, ``X`` in a layout the core reads in place
        (the subclasses check ``y`` for what they predict)."""
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=DTYPES, order=self._order,
                             ensure_all_finite=self._validate_finite, reset=reset)
        return as_supported(X), y

    @staticmethod
    def _sample_weights(sample_weight: Any, n_samples: int, allow_negative: bool = True) -> Optional[np.ndarray]:
        """Step 3b: ``sample_weight`` validated (None stays None), by the one validator."""
        if sample_weight is None:
            return None
        return check_sample_weight(sample_weight, n_samples, allow_negative=allow_negative)

    def _check_costs(self, C: float, class_factor: Optional[np.ndarray], sample_weight: Optional[np.ndarray]) -> None:
        """Step 3c: every sample's cost ``C * class_weight[y_i] * sample_weight[i]`` a normal float64."""
        check_costs(self._name, float(C), class_factor, sample_weight)

    def _publish(self, finite: Dict[str, Any], **attributes: Any) -> None:
        """Step 7: checks the arrays of ``finite`` (named by the attributes
        they become) and sets ``attributes`` on the fit's working copy."""
        check_finite_fit(self, **finite)
        for name, value in attributes.items():
            setattr(self, name, value)

    # ------------------------------------------------------------ prediction

    def _predict_input(self, X: Any) -> Any:
        """``X`` validated against the fitted width and feature names."""
        check_is_fitted(self)
        return validate_data(self, X, accept_sparse="csr", dtype=DTYPES, ensure_all_finite=self._validate_finite,
                             reset=False)

    def _decision(self, X: Any) -> np.ndarray:
        """The scores of the validated ``X``, one column per output (the estimator's own)."""
        raise NotImplementedError

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # ------------------------------------------------------------ model files

    def _fitted_state(self) -> Dict[str, Any]:
        """The fitted model as model files store it (``model_files._estimator_state.core_of``).

        A dict in the vocabulary of docs/model_format.md: ``n_features``
        and ``intercept`` (in the layout the family predicts with; this
        method gives the first, a classifier adds ``classes``) for every
        family; the kernel
        families add ``kernel``, ``gamma``, ``degree``, ``coef0``,
        ``support_rows`` (in the training columns, dense or CSR) and
        ``used_columns`` (a ``UsedColumns`` or None); then the family's own
        arrays (``SVC``: ``dual_coef``, ``n_support``, ``prob_a``,
        ``prob_b``; ``BudgetedSVC``: ``coef``; ``LinearSVC``: ``weights``).
        The other fitted attributes travel by their public names (the
        family's attribute list, ``model_files._estimator_state.attribute_rules``).
        """
        return {"n_features": int(self.n_features_in_)}

    def _restore_fitted_state(self, state: Dict[str, Any]) -> None:
        """Sets the state :meth:`_fitted_state` describes, read from a model
        file and checked (``model_files._estimator_state.restore_core``), and the attributes
        derived from it (this method: ``n_features_in_``; a classifier's:
        ``classes_`` too).
        ``state`` holds the keys of :meth:`_fitted_state` and ``containers``:
        the attributes the file's ATTR section stored, each with the sparse
        container it was (``None``: dense), so that a loaded model reports
        the containers the saved one did; an attribute the file did not
        carry gets its default (:meth:`_default`).
        """
        self.n_features_in_ = int(state["n_features"])

    def _default(self, name: str, value: Any) -> None:
        """Sets a reported attribute a model file did not carry."""
        if not hasattr(self, name):
            setattr(self, name, value)


class PipelineClassifier(ClassifierMixin, PipelineEstimator):
    """Base of the classifiers: class labels, class weights and the decision
    of the largest score (module docstring)."""

    def _fit_input(self, X: Any, y: Any, reset: bool = True) -> Tuple[Any, np.ndarray]:
        """Step 1: ``(X, y)`` validated, ``y`` class labels."""
        X, y = super()._fit_input(X, y, reset=reset)
        check_classification_targets(y)
        return X, y

    def _one_class_message(self, classes: np.ndarray) -> str:
        """The error for ``y`` of a single class (scikit-learn's LinearSVC's words)."""
        return ("This solver needs samples of at least 2 classes in the data, but the data "
                f"contains only one class: {plain(classes[0])!r}.")

    def _fit_labels(self, y: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """Step 2: ``(classes, y_index)``, at least two classes."""
        classes, y_index = encode_labels(y)
        if len(classes) < 2:
            raise ValueError(self._one_class_message(classes))
        return classes, y_index

    def _class_factors(self, classes: np.ndarray, y: Any) -> np.ndarray:
        """Step 3a: ``class_weight`` (None, a dict or "balanced") as one factor of ``C`` per class."""
        check_class_weight_spec(self.class_weight)
        weights = compute_class_weight(self.class_weight, classes=classes, y=y)
        return check_class_weights(weights, classes)

    @fitted_view
    def decision_function(self, X: Any) -> np.ndarray:
        """Decision values of the samples in ``X``.

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
        scores = self._decision(self._predict_input(X))
        return scores[:, 0] if scores.shape[1] == 1 else scores

    @fitted_view
    def predict(self, X: Any) -> np.ndarray:
        """Class labels of ``X``: the class of the largest decision value.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Labels from ``classes_``.

        Examples
        --------
        >>> from budgetsvm import LinearSVC
        >>> X = [[0.0, 0.0], [0.0, 1.0], [5.0, 0.0], [5.0, 1.0], [0.0, 5.0], [1.0, 5.0]]
        >>> clf = LinearSVC(C=10, random_state=0).fit(X, ["a", "a", "b", "b", "c", "c"])
        >>> clf.predict([[0.2, 0.5], [4.5, 0.5], [0.5, 4.5]]).tolist()
        ['a', 'b', 'c']
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    def _fitted_state(self) -> Dict[str, Any]:
        """:meth:`PipelineEstimator._fitted_state` with the ``classes``."""
        return {"classes": np.asarray(self.classes_), **super()._fitted_state()}

    def _restore_fitted_state(self, state: Dict[str, Any]) -> None:
        """:meth:`PipelineEstimator._restore_fitted_state` and ``classes_``."""
        super()._restore_fitted_state(state)
        self.classes_ = state["classes"]


class PipelineRegressor(RegressorMixin, PipelineEstimator):
    """Base of the regressors: a real target, one output per row (module docstring).

    ``y`` is validated as scikit-learn's regressors do (numeric, finite,
    one column) and given to the core as float64; ``predict`` is the
    estimator's one score column; ``score`` is scikit-learn's R^2.
    """

    def _fit_input(self, X: Any, y: Any, reset: bool = True) -> Tuple[Any, np.ndarray]:
        """Step 1: ``(X, y)`` validated, ``y`` a finite float64 vector."""
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=DTYPES, order=self._order,
                             ensure_all_finite=self._validate_finite, y_numeric=True, reset=reset)
        y = np.ascontiguousarray(y, dtype=np.float64)
        if not np.isfinite(y).all():  # validate_data checks y only for NaN/inf when X is checked too
            raise ValueError("Input y contains NaN or infinity.")
        return as_supported(X), y

    @fitted_view
    def predict(self, X: Any) -> np.ndarray:
        """Predicted targets of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVR
        >>> X = np.linspace(0, 1, 20).reshape(-1, 1)
        >>> reg = SVR(kernel="linear", C=100.0, epsilon=0.01).fit(X, 2 * X[:, 0] + 1)
        >>> np.round(reg.predict([[0.0], [0.5]]), 1).tolist()
        [1.0, 2.0]
        """
        return self._decision(self._predict_input(X))[:, 0]

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """The coefficient of determination R^2 of ``predict(X)`` against ``y``
        (scikit-learn's ``r2_score``: 1 is perfect, 0 predicts the mean).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        score : float

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import SVR
        >>> X = np.linspace(0, 1, 20).reshape(-1, 1)
        >>> reg = SVR(kernel="linear", C=100.0, epsilon=0.01).fit(X, 2 * X[:, 0] + 1)
        >>> round(reg.score(X, 2 * X[:, 0] + 1), 3)
        1.0
        """
        return float(super().score(X, y, sample_weight=sample_weight))


class PipelineOutlierDetector(OutlierMixin, PipelineEstimator):
    """Base of the novelty detectors: fitted on ``X`` alone (module docstring).

    The estimator's ``_decision`` is scikit-learn's ``decision_function``:
    positive for inliers, negative for outliers; ``score_samples`` adds
    ``offset_`` back (the raw score, larger = more normal), and ``predict``
    gives +1 where the decision is positive and -1 elsewhere, as LIBSVM's
    one-class SVM.
    """

    def _fit_input(self, X: Any, y: Any = None, reset: bool = True) -> Tuple[Any, None]:
        """Step 1: ``X`` validated (``y`` is ignored, as scikit-learn's detectors do)."""
        X = validate_data(self, X, accept_sparse="csr", dtype=DTYPES, order=self._order,
                          ensure_all_finite=self._validate_finite, reset=reset)
        return as_supported(X), None

    @fitted_view
    def decision_function(self, X: Any) -> np.ndarray:
        """Signed distance to the boundary: positive inside (inliers), negative outside.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        decision : ndarray of shape (n_samples,)
            ``score_samples(X) - offset_``.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import OneClassSVM
        >>> X = np.random.default_rng(0).normal(size=(200, 2))
        >>> det = OneClassSVM(nu=0.1, gamma=0.5).fit(X)
        >>> bool(det.decision_function([[0.0, 0.0]])[0] > 0 > det.decision_function([[6.0, 6.0]])[0])
        True
        """
        return self._decision(self._predict_input(X))[:, 0]

    @fitted_view
    def score_samples(self, X: Any) -> np.ndarray:
        """Raw scores of ``X`` (larger: more normal): ``decision_function(X) + offset_``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,)

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import OneClassSVM
        >>> X = np.random.default_rng(0).normal(size=(200, 2))
        >>> det = OneClassSVM(nu=0.1, gamma=0.5).fit(X)
        >>> s = det.score_samples([[0.0, 0.0]])
        >>> bool(np.allclose(s, det.decision_function([[0.0, 0.0]]) + det.offset_))
        True
        """
        return self.decision_function(X) + self.offset_

    @fitted_view
    def predict(self, X: Any) -> np.ndarray:
        """+1 for inliers (a positive decision), -1 for outliers.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            +1 or -1 (int).

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import OneClassSVM
        >>> X = np.random.default_rng(0).normal(size=(200, 2))
        >>> OneClassSVM(nu=0.1, gamma=0.5).fit(X).predict([[0.0, 0.0], [6.0, 6.0]]).tolist()
        [1, -1]
        """
        return np.where(self.decision_function(X) > 0, 1, -1).astype(np.intp)
