"""Linear support vector classification by dual coordinate descent.

The solver (C++, ``budgetsvm/linear``) is liblinear's dual coordinate descent
(Hsieh et al., 2008) with three ways of choosing coordinates: liblinear's
shrinking (``"shrinking"``), adaptive variable selection frequencies
(``"avsf"``, Glasmachers and Dogan, 2013) and plain random sweeps
(``"uniform"``); ``"auto"`` is a measured rule between the first two.
:class:`LinearSVC` holds its parameters, liblinear's refusals, the
translation to the core's options and ``fit``; the steps and the prediction
are the shared pipeline's (``_base``).
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Union

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.extmath import safe_sparse_dot

from .. import _core
from .._atomic import atomic_fit
from .._data import as_supported, core_view
from .._magnitude import check_linear_magnitude
from .._params import check_number, core_params, defaults, effective_n_jobs
from ._base import PipelineClassifier

#: max_iter=None: run to convergence, but never more than this many sweeps
#: per binary problem (badly scaled data can need practically endless
#: sweeps; the run then ends with a ConvergenceWarning).
NONE_MAX_SWEEPS = 10_000_000


def _check_liblinear_combination(penalty: str, loss: str, dual: Any) -> None:
    """liblinear's (and so scikit-learn's) refusals, in its words. With
    penalty='l2' and the squared hinge, dual=False is the same problem and
    is solved in the dual; penalty='l1' is solved in the primal."""
    parameters = f"Parameters: penalty={penalty!r}, loss={loss!r}, dual={dual!r}"
    if penalty == "l1" and loss == "hinge":
        raise ValueError(
            "Unsupported set of arguments: The combination of penalty='l1' and loss='hinge' is not "
            f"supported, {parameters}"
        )
    if penalty == "l2" and loss == "hinge" and dual is False:
        raise ValueError(
            "Unsupported set of arguments: The combination of penalty='l2' and loss='hinge' are not "
            f"supported when dual=False, {parameters}"
        )
    if penalty == "l1" and dual is True:
        raise ValueError(
            "Unsupported set of arguments: The combination of penalty='l1' and loss='squared_hinge' "
            f"are not supported when dual=True, {parameters}"
        )


class LinearSVC(PipelineClassifier):
    """Linear support vector classifier trained in the dual, to convergence.

    A drop-in replacement for :class:`sklearn.svm.LinearSVC` with
    ``dual=True``: the same problem (L2-regularised hinge or squared hinge
    loss, bias as an extra constant feature that is regularised too, one-vs-
    rest for more than two classes, liblinear's per-class ``class_weight``),
    solved by dual coordinate descent with adaptive variable selection
    frequencies (AVSF) or liblinear's shrinking. Dense C-ordered float32/float64
    arrays and CSR input (int32 or int64 indices) are read in place, never
    densified (coordinate descent reads rows, so a Fortran-ordered array is
    copied once to C order); the bias column is never materialised.

    Parameters
    ----------
    C : float, default=1.0
        Regularisation: ``min_w 1/2 ||w||^2 + C sum_i L(y_i, <w, x_i> + b)``.
    loss : {"squared_hinge", "hinge"}, default="squared_hinge"
        The loss ``L``.
    selection : {"auto", "avsf", "shrinking", "uniform"}, default="auto"
        How coordinates are chosen. ``"shrinking"`` is liblinear's algorithm
        (random sweeps over an active set that shrinks, then a confirming
        full sweep); ``"avsf"`` draws each sweep's coordinates in proportion
        to preferences that follow each coordinate's recent progress
        (Glasmachers and Dogan 2013); ``"uniform"`` sweeps over all
        coordinates in random order. ``"auto"`` (a rule derived from the
        benchmark, see docs/guide_linear.md) uses ``"shrinking"`` when
        ``n_features < n_samples / 2`` (there AVSF lost at every C), and
        otherwise runs ``"shrinking"`` for 50 sweeps and, if it has not
        converged by then, continues with ``"avsf"`` from where it got.
    tol : float, default=1e-3
        Stopping tolerance on the KKT violation (liblinear's ``-e``).
        **Differs from scikit-learn** (1e-4).
    fit_intercept : bool, default=True
        Fit a bias ``b = intercept_scaling * w_b`` through a constant feature
        of value ``intercept_scaling`` (regularised, as in liblinear).
    intercept_scaling : float, default=1.0
        Value of the constant feature; must be > 0.
    max_iter : int or None, default=None
        Limit on the outer sweeps per binary problem; ``None`` runs to
        convergence, up to a safety bound of ``NONE_MAX_SWEEPS`` (10^7)
        sweeps (a9a at ``C=100`` takes up to about 10^6). A
        ``ConvergenceWarning`` is issued when a limit stops a run.
        **Differs from scikit-learn** (1000, which often stops liblinear
        before convergence at large ``C``).
    random_state : int, RandomState instance or None, default=None
        Seeds the coordinate order.
    n_jobs : int or None, default=None
        Threads for the one-vs-rest problems (``None`` = 1, ``-1`` = all
        cores). Binary problems use one thread.
    verbose : int, default=0
        Print the statistics of each binary problem after fitting.
    penalty : {"l2", "l1"}, default="l2"
        ``"l1"``: ``min_w ||w||_1 + C sum_i max(0, 1 - y_i f(x_i))^2`` (squared
        hinge only, ``dual=False`` or ``"auto"``; the bias weight is
        regularised too), solved in the primal by liblinear's coordinate
        descent with Newton steps (CDN); sparse ``coef_``. Its
        ``fit_stats_`` report ``primal_objective``; ``alpha_`` holds the
        loss derivatives ``2 C_i max(0, 1 - y_i f(x_i))``. The stopping rule
        is liblinear's: the summed subgradient violation below
        ``tol * min(n_+, n_-) / n`` times its first-sweep value.
    dual : {"auto", True, False}, default="auto"
        With ``penalty="l2"`` the dual is always solved: with the squared
        hinge loss ``dual=False`` (liblinear's primal solver) is the same
        problem with the same optimum. The combinations liblinear refuses
        (``loss="hinge"`` with ``dual=False``, ``penalty="l1"`` with
        ``loss="hinge"`` or ``dual=True``) raise its ValueError.
    multi_class : {"ovr", "crammer_singer"}, default="ovr"
        ``"ovr"``: one binary problem per class (one for two classes).
        ``"crammer_singer"``: Crammer and Singer's joint multi-class problem
        (liblinear's solver 4, the sequential dual method), one weight vector
        per class; ``loss``, ``penalty``, ``dual`` and ``selection`` are not
        used. With two classes ``coef_`` is the difference of the two
        vectors, as in scikit-learn; ``fit_stats_`` then has one entry per
        class, each with the joint run's numbers.
    class_weight : dict, "balanced" or None, default=None
        Multiplies ``C`` for the samples of a class. As in liblinear, with
        more than two classes the weight of class ``k`` applies to the
        positive samples of problem ``k`` only.
    merge_duplicates : {"auto", True, False}, default="auto"
        Solve equal training rows with equal labels as one dual variable
        (see Notes): ``True`` merges every such group, ``"auto"`` the groups
        of at least 20 rows with ``loss="hinge"`` and none with the squared
        hinge, ``False`` none. The same optimum in every case; only the time
        to reach it changes.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    n_iter_ : int
        Largest number of outer sweeps over the binary problems.
    n_features_in_ : int
    alpha_ : ndarray of shape (n_problems, n_samples)
        Dual variables of each binary problem. Equal rows with equal labels
        that were merged share one variable's value in proportion to their
        weight (see Notes).
    fit_stats_ : list of dict
        Per binary problem: ``sweeps``, ``steps`` (coordinates visited),
        ``dual_objective`` (maximisation form), ``kkt_violation`` (largest
        projected gradient seen over the final full sweep), ``merged_rows``
        (rows folded into an equal row) and ``status``.

    Notes
    -----
    Training rows that are equal (as vectors) and have the same label can
    be solved as one dual variable whose ``C`` is the sum of theirs: for
    the hinge and the squared hinge loss this is the same problem, with the
    same ``coef_``, ``intercept_`` and objective. It changes how often
    coordinate descent visits each point (a group is visited once per sweep
    instead of once per copy). That pays for large groups, whose copies
    repeat one step (w8a: 2-3x faster at C >= 10), and costs for small
    ones, which lose visits in proportion to their weight (a9a, whose
    groups have at most 27 rows: 1.5-2x slower when every group is
    merged); hence the default merges groups of 20 rows and more with the
    hinge loss. With the squared hinge even those cost sweeps (a9a: 4-18x),
    so there the default merges none (docs/linear.md). liblinear never
    merges.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import LinearSVC
    >>> X = np.array([[-2.0, -1.0], [-1.0, -1.5], [1.0, 1.0], [2.0, 1.5]])
    >>> y = np.array([0, 0, 1, 1])
    >>> clf = LinearSVC(C=1.0, random_state=0).fit(X, y)
    >>> clf.predict([[1.5, 1.0], [-1.5, -1.0]])
    array([1, 0])
    """

    def __init__(
        self,
        penalty: str = "l2",
        loss: str = "squared_hinge",
        *,
        dual: Any = "auto",
        tol: float = 1e-3,
        C: float = 1.0,
        multi_class: str = "ovr",
        fit_intercept: bool = True,
        intercept_scaling: float = 1.0,
        class_weight: Any = None,
        verbose: int = 0,
        random_state: Any = None,
        max_iter: Optional[int] = None,
        selection: str = "auto",
        n_jobs: Optional[int] = None,
        merge_duplicates: Union[bool, str] = "auto",
    ) -> None:
        self.penalty = penalty
        self.loss = loss
        self.dual = dual
        self.tol = tol
        self.C = C
        self.multi_class = multi_class
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter
        self.selection = selection
        self.n_jobs = n_jobs
        self.merge_duplicates = merge_duplicates

    # ------------------------------------------------------------------ checks
    def _check_params(self) -> Dict[str, Any]:
        """Validate the constructor arguments; return the core's options."""
        if self.penalty not in ("l1", "l2"):
            raise ValueError(f"penalty must be 'l1' or 'l2'; got {self.penalty!r}.")
        if not (isinstance(self.dual, (bool, np.bool_)) or self.dual == "auto"):
            raise ValueError(f"dual must be True, False or 'auto'; got {self.dual!r}.")
        if self.multi_class not in ("ovr", "crammer_singer"):
            raise ValueError(f"multi_class must be 'ovr' or 'crammer_singer'; got {self.multi_class!r}.")
        if self.multi_class == "ovr":  # crammer_singer ignores loss, penalty and dual, as liblinear
            _check_liblinear_combination(self.penalty, self.loss, self.dual)
        if self.max_iter is not None:
            check_number("max_iter", self.max_iter, integer=True, low=1)
        check_number("intercept_scaling", self.intercept_scaling, low=0.0, low_inclusive=False)
        merge = self.merge_duplicates
        if not (isinstance(merge, (bool, np.bool_)) or (isinstance(merge, str) and merge == "auto")):
            raise ValueError(f"merge_duplicates must be True, False or 'auto'; got {merge!r}.")
        seed = int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))
        return core_params(
            self,
            "linear",
            max_iter=NONE_MAX_SWEEPS if self.max_iter is None else self.max_iter,
            bias_scale=float(self.intercept_scaling) if self.fit_intercept else 0.0,
            merge_duplicates=not isinstance(merge, str) and bool(merge),
            merge_min_copies=defaults("linear")["merge_min_copies"] if isinstance(merge, str) or merge else 0,
            seed=seed,
            n_jobs=effective_n_jobs(self.n_jobs),
        )

    # --------------------------------------------------------------------- fit
    @atomic_fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "LinearSVC":
        """Fit the model to ``(X, y)``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies ``C`` per sample (zero weight leaves a sample out).

        Returns
        -------
        self : LinearSVC

        Examples
        --------
        >>> from budgetsvm import LinearSVC
        >>> X = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [4.0, 4.0], [5.0, 4.0], [4.0, 5.0]]
        >>> clf = LinearSVC(C=1.0, loss="hinge", random_state=0).fit(X, ["no", "no", "no", "yes", "yes", "yes"])
        >>> clf.coef_.shape, clf.intercept_.shape, clf.fit_stats_[0]["status"]
        ((1, 2), (1,), 'converged')
        """
        params = self._check_params()
        X, y = self._fit_input(X, y)
        classes, labels = self._fit_labels(y)
        sw = self._sample_weights(sample_weight, X.shape[0], allow_negative=False)
        cw = self._class_factors(classes, y)
        # one-vs-rest over 3+ classes: class_weight scales the positives of each problem only
        ovr = classes.shape[0] > 2 and self.multi_class == "ovr"
        self._check_costs(self.C, (np.where(cw > 0, np.minimum(cw, 1.0), 1.0) if ovr else cw)[labels], sw)
        bias = params["bias_scale"]
        check_linear_magnitude(X, bias)
        W, alpha, stats = _core.fit_linear(
            core_view(X),
            labels.astype(np.int32),
            int(classes.shape[0]),
            np.ascontiguousarray(cw, dtype=np.float64),
            np.ones(X.shape[0]) if sw is None else sw,
            params,
        )
        d = X.shape[1]
        if self.multi_class == "crammer_singer" and W.shape[0] == 2:
            W = W[1:] - W[:1]  # one decision function, as scikit-learn reports it
        intercept = W[:, d] * bias if self.fit_intercept else np.zeros(W.shape[0])
        self._publish({"coef_": W[:, :d], "intercept_": intercept, "alpha_": alpha},
                      classes_=classes, coef_=np.ascontiguousarray(W[:, :d]), intercept_=intercept, alpha_=alpha,
                      fit_stats_=list(stats), n_iter_=int(max(s["sweeps"] for s in stats)))
        self._report(stats)
        return self

    def _report(self, stats: List[Dict[str, Any]]) -> None:
        """verbose: a line per binary problem; a ConvergenceWarning when a limit stopped one."""
        if self.verbose:
            for k, s in enumerate(stats):
                print(
                    f"[LinearSVC] problem {k}: {s['status']} after {s['sweeps']} sweeps, "
                    f"{s['steps']} steps, dual objective {s['dual_objective']:.8g}, "
                    f"KKT violation {s['kkt_violation']:.3g}"
                )
        if not any(s["status"] == "max_iter_reached" for s in stats):
            return
        # scikit-learn's words first, so that filters written for its LinearSVC match
        if self.max_iter is None:
            detail = (
                f"max_iter=None stopped at its bound of {NONE_MAX_SWEEPS} sweeps before the KKT "
                f"violation fell below tol={self.tol}; badly scaled data (consider StandardScaler) "
                "or a very large C make the dual ill-conditioned."
            )
        else:
            detail = (
                f"The solver stopped after max_iter={self.max_iter} sweeps before the KKT violation "
                f"fell below tol={self.tol}; increase max_iter (None = until convergence)."
            )
        warnings.warn("Liblinear failed to converge, increase the number of iterations. " + detail,
                      ConvergenceWarning, stacklevel=3)

    def _decision(self, X: Any) -> np.ndarray:
        """``X w + b``, one column per output."""
        X = as_supported(X)  # checks a CSR matrix's structure before scipy indexes with it
        return safe_sparse_dot(X, self.coef_.T, dense_output=True) + self.intercept_

    def _fitted_state(self) -> Dict[str, Any]:
        state = super()._fitted_state()
        state.update(intercept=np.asarray(self.intercept_, dtype=np.float64),
                     weights=np.ascontiguousarray(self.coef_, dtype=np.float64))
        return state

    def _restore_fitted_state(self, state: Dict[str, Any]) -> None:
        super()._restore_fitted_state(state)
        self.coef_ = state["weights"]
        self.intercept_ = state["intercept"]
