"""Probability estimates of :class:`~budgetsvm.SVC`, as LIBSVM makes them.

Platt's sigmoid per class pair, fitted on 5-fold cross-validated decision
values in ``fit`` (``probability=True``), and the pairs' probabilities
coupled into one per class (Wu, Lin and Weng 2004; ``_platt``).
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Tuple

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .. import _core
from .._atomic import fitted_view
from .._data import as_supported
from .._platt import pairwise_coupling, sigmoid_fit, sigmoid_predict
from ._ovo import OneVsOneModel

#: Folds of the internal cross-validation for Platt scaling (as LIBSVM).
_PROBABILITY_FOLDS = 5


class PlattProbability(OneVsOneModel):
    """``predict_proba`` and ``predict_log_proba`` of a one-vs-one model, and
    the sigmoids its fit makes (a mixin of :class:`~budgetsvm.SVC`)."""

    def _platt_for_pairs(self, X, X_core, rows, start, weights, params, rng) -> Tuple[np.ndarray, np.ndarray]:
        """(probA_, probB_): Platt's sigmoid of every class pair (empty unless
        ``probability=True``); ``rows`` grouped by class, from ``start``."""
        n_classes = len(self.classes_)
        n_pairs = n_classes * (n_classes - 1) // 2
        prob_a = np.empty(n_pairs if self._probability else 0)
        prob_b = np.empty(n_pairs if self._probability else 0)
        if not self._probability:
            return prob_a, prob_b
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
        return prob_a, prob_b

    def _binary_fit(self, X_core, y_pm, params, rows, weights) -> Dict[str, Any]:
        """One binary problem of the cross-validation (``alpha``, ``intercept``):
        the estimator's formulation (C-SVC here; NuSVC overrides it)."""
        return _core.fit_exact(X_core, y_pm, params, rows, **weights)

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
                result = self._binary_fit(X_core, y_train, params, rows[train], cv_weights)
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

