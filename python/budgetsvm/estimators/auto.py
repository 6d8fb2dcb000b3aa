"""Settings chosen for the user within a time budget: :class:`AutoSVC` and :func:`tune`.

The search is successive halving over growing random subsamples of the
training part, scored on a stratified held-out part:

1. ``gamma`` is started from the distance heuristic ``1 / median ||x - x'||^2``
   (over random pairs of rows) and searched on a factor-2 ladder around it;
   ``C`` on a decade ladder at the first (small) subsample.
2. Each rung keeps the best cells and carries their ``C`` to the next, four
   times larger, subsample at fixed ``lambda = 1 / (C n)`` (``C n_prev / n``),
   at fixed ``C``, and half-way between (``C sqrt(n_prev / n)``): the best
   ``C`` at the larger size lay in that range in every measurement
   (docs/development/decisions.md, "How the best C and gamma move with n").
3. On the largest subsample the search reaches, BSGD and (when the exact
   SVM can finish on all rows in the time left) the exact :class:`SVC` are
   tried with the best cell's settings; the best of the solvers is kept.
4. The choice is checked at the budget the final fit can afford, on a
   subsample: BSCA against BSGD when the search chose BSGD, ``gamma``
   halved and doubled, ``C`` a half-decade either way (the search scored
   everything at a budget of 500; a larger budget can favour other settings).
5. The final fit runs on all rows, ``C`` carried from the checked subsample
   to ``n`` with the exponent the rungs' winners show, with the largest budget and the
   most epochs that the last rung's cost per row and support vector lets end
   within the time left.

Every fit is one call into the C++ core; this module only plans, times and
compares. docs/auto.md describes it for users.
"""

from __future__ import annotations

import math
import sys
import warnings
from time import perf_counter
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from .._atomic import atomic_fit
from .._params import check_number
from .budgeted import BudgetedSVC
from .exact import SVC

__all__ = ["AutoSVC", "TuningReport", "tune"]

#: The budgets the final fit chooses from, and the largest by default.
BUDGET_LADDER = (250, 500, 1000, 2000, 4000, 8000, 16000)
#: The subsamples grow by this factor from rung to rung.
GROWTH = 4
#: At most this many held-out rows score the candidates (2.0e-3 standard error at 80%).
MAX_VALIDATION_ROWS = 40_000
#: The exact SVM's fit time is extrapolated as n ** EXACT_EXPONENT (at least).
EXACT_EXPONENT = 2.0
#: The exact SVM is tried on subsamples of at most this many rows.
EXACT_TRIAL_ROWS = 20_000
SOLVERS = ("bsca", "bsgd", "exact")
#: BSGD replaces BSCA only when it scores this much more on the largest subsample: two standard
#: errors of a held-out accuracy near 80% on 40,000 rows; BSCA was the more accurate of the two on
#: most problems (docs/guide_budgeted.md), and a closer BSGD win at the subsample did not hold on
#: all rows (xor20, 1M rows: 81.91% against BSCA's 82.87-83.06%).
BSGD_MARGIN = 0.005
#: The share of the time budget the check at the final budget may use.
CHECK_SHARE = 0.15
#: The check's margin: a smoother setting may score this much less than the incumbent and replace it, a
#: rougher one must lead by twice it (docs/auto.md, "The check at the final budget").
CHECK_MARGIN = 0.0025
#: The check's subsample holds as many rows per support vector of its budget as the final fit, up to this.
CHECK_ROWS_PER_SV = 40
#: The check's fits at most: the choice, BSCA for BSGD, one epoch, gamma halved and doubled, C down and up.
CHECK_FITS = 7


class TuningReport:
    """What :class:`AutoSVC` tried, what each try scored and cost, and what it chose.

    Attributes
    ----------
    trials : list of dict
        One entry per fit, in the order run: ``stage`` (``"probe"``: the
        first fit, which times the first rung; ``"search"``; ``"refine"``:
        finer steps around the best cells when the search covered every
        training row with time to spare; ``"solver"``: the other solvers on
        the largest subsample; ``"check"``: the choice, ``gamma`` halved and
        doubled and ``C`` a half-decade either way, at the final fit's budget
        on a subsample; ``"final"``), ``rung``, ``rows`` (the
        subsample's size), ``solver``, ``C``, ``gamma``, ``budget``,
        ``epochs``, ``validation_accuracy`` (on the held-out rows; NaN for the
        final fit, which trains on them too), ``seconds`` (the fit and its
        scoring) and ``n_support`` (the model's support vectors).
    stages : list of dict
        ``name`` and ``seconds`` of each stage: ``prepare`` (input checks,
        the split, the distance heuristic), ``search``, ``solver``, ``check``,
        ``final``.
    chosen : dict
        The final model's settings (``solver``, ``C``, ``gamma``, ``budget``,
        ``epochs``, ``rows``) and ``validation_accuracy``: the held-out score
        of the same settings on the subsample they were last scored on.
    time_budget : float
        The budget in seconds.
    seconds : float
        The whole call's wall time.
    warnings : list of str
        What did not go as planned (the time budget too small for the whole
        plan, the final fit on a subsample), also issued as warnings.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import tune
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(3000, 4))
    >>> y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    >>> report = tune(X, y, time=10, random_state=0).report_
    >>> report.chosen["solver"] in ("bsca", "bsgd", "exact"), report.seconds <= 10 * 1.1 + 1
    (True, True)
    >>> print(report)  # doctest: +ELLIPSIS
    AutoSVC: ...
    """

    def __init__(self, time_budget: float) -> None:
        self.time_budget = time_budget
        self.trials: List[Dict[str, Any]] = []
        self.stages: List[Dict[str, Any]] = []
        self.chosen: Dict[str, Any] = {}
        self.seconds = 0.0
        self.warnings: List[str] = []

    def __repr__(self) -> str:
        return (f"TuningReport(trials={len(self.trials)}, chosen={self.chosen!r}, "
                f"seconds={self.seconds:.2f}, time_budget={self.time_budget:g})")

    def __str__(self) -> str:
        chosen = self.chosen
        lines = [
            f"AutoSVC: {self.seconds:.1f} s of a {self.time_budget:g} s budget; chose {chosen.get('solver')} "
            f"C={chosen.get('C', math.nan):.4g} gamma={chosen.get('gamma', math.nan):.4g} "
            f"budget={chosen.get('budget')} epochs={chosen.get('epochs')} on {chosen.get('rows')} rows "
            f"(held-out accuracy {100 * chosen.get('validation_accuracy', math.nan):.2f}% on a subsample)",
            "stages: " + ", ".join(f"{s['name']} {s['seconds']:.1f} s" for s in self.stages),
            f"{'stage':<7} {'rung':>4} {'rows':>9} {'solver':<6} {'C':>10} {'gamma':>10} {'budget':>6} "
            f"{'epochs':>6} {'accuracy':>9} {'seconds':>8}",
        ]
        for t in self.trials:
            budget = "-" if t["budget"] is None else t["budget"]
            epochs = "-" if t["epochs"] is None else t["epochs"]
            accuracy = "-" if math.isnan(t["validation_accuracy"]) else f"{100 * t['validation_accuracy']:.2f}%"
            lines.append(
                f"{t['stage']:<7} {t['rung']:>4} {t['rows']:>9} {t['solver']:<6} {t['C']:>10.4g} {t['gamma']:>10.4g} "
                f"{budget:>6} {epochs:>6} "
                f"{accuracy:>9} {t['seconds']:>8.2f}"
            )
        lines.extend(f"warning: {w}" for w in self.warnings)
        return "\n".join(lines)


def median_gamma(X: Any, rng: np.random.RandomState, pairs: int = 2000, rows: Optional[np.ndarray] = None) -> float:
    """The distance heuristic ``1 / median ||x - x'||^2`` over random pairs of rows.

    ``rows``: draw the pairs among these rows of ``X`` only (the same draws
    as on ``X[rows]``, without its copy).

    Pairs of identical rows are skipped; when every pair is identical (or
    ``X`` has one row) the result is ``1 / n_features``.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm.estimators.auto import median_gamma
    >>> X = np.random.default_rng(0).normal(size=(5000, 10))
    >>> round(median_gamma(X, np.random.RandomState(0)), 3)  # ||x - x'||^2 ~ 2 chi2(10): median 18.7
    0.054
    """
    d = X.shape[1]
    n = X.shape[0] if rows is None else len(rows)
    if n < 2:
        return 1.0 / max(d, 1)
    a = rng.randint(0, n, size=pairs)
    b = rng.randint(0, n, size=pairs)
    keep = a != b
    a, b = a[keep], b[keep]
    if rows is not None:
        a, b = rows[a], rows[b]
    diff = X[a] - X[b]
    if sp.issparse(diff):
        sq = np.asarray(diff.multiply(diff).sum(axis=1), dtype=np.float64).ravel()
    else:
        diff = np.asarray(diff, dtype=np.float64)
        sq = np.einsum("ij,ij->i", diff, diff)
    sq = sq[sq > 0]
    if sq.size == 0:
        return 1.0 / max(d, 1)
    median = float(np.median(sq))
    return 1.0 / median if math.isfinite(median) and median > 0 else 1.0 / max(d, 1)


def reservoir_sample(chunks: Any, rows: int, n_features: int,
                     rng: np.random.RandomState) -> Tuple[Any, np.ndarray, int]:
    """A uniform random sample of ``rows`` rows of a stream of ``(X, y)``
    chunks, in one pass (reservoir sampling: row ``t`` replaces a random slot
    with probability ``rows / (t + 1)``); the sample (CSR when the chunks
    are sparse), its labels and the stream's row count.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm.estimators.auto import reservoir_sample
    >>> chunks = [(np.arange(10.0)[:, None] + 10 * i, np.arange(10) + 10 * i) for i in range(10)]
    >>> X, y, n = reservoir_sample(chunks, 5, 1, np.random.RandomState(0))
    >>> n, X.shape, bool((X[:, 0] == y).all())
    (100, (5, 1), True)
    """
    kept_X: Any = None
    kept_y = np.empty(0)
    seen = 0
    for X, y in chunks:
        m = X.shape[0]
        if m == 0:
            continue
        if X.shape[1] != n_features:
            raise ValueError(f"a chunk of the stream has {X.shape[1]} columns; expected {n_features}.")
        y = np.asarray(y)
        t = seen + np.arange(m)
        slot = np.where(t < rows, t, rng.randint(0, np.iinfo(np.int64).max, size=m) % (t + 1))
        take = np.flatnonzero(slot < rows)
        seen += m
        if take.size == 0:
            continue
        size = min(seen, rows)
        # the new sample: each slot's last writer (the chunk's rows in order), else the old row
        source = np.full(size, -1, dtype=np.int64)
        source[: 0 if kept_X is None else kept_X.shape[0]] = np.arange(0 if kept_X is None else kept_X.shape[0])
        old = 0 if kept_X is None else kept_X.shape[0]
        source[slot[take]] = old + take  # numpy keeps the last of repeated slots
        if sp.issparse(X):
            both = sp.vstack([kept_X, X], format="csr") if kept_X is not None else sp.csr_matrix(X)
        else:
            X = np.asarray(X)
            both = np.vstack([kept_X, X]) if kept_X is not None else X
        kept_X = both[source]
        kept_y = np.concatenate([kept_y.astype(y.dtype, copy=False) if kept_y.size else y[:0], y])[source]
    if kept_X is None:
        raise ValueError("the stream holds no rows.")
    return kept_X, kept_y, seen


class _Clock:
    """Seconds since the call started, and what is left of the budget."""

    def __init__(self, budget: float, started: Optional[float] = None) -> None:
        self.start = perf_counter() if started is None else started
        self.budget = budget

    def elapsed(self) -> float:
        return perf_counter() - self.start

    def left(self) -> float:
        return self.budget - self.elapsed()


class AutoSVC(ClassifierMixin, BaseEstimator):
    """A kernel SVM whose solver, ``C``, ``gamma``, budget and epochs are chosen within a time budget.

    A meta-estimator, as scikit-learn's ``HalvingGridSearchCV``: ``fit``
    searches the settings on growing random subsamples scored on a
    stratified held-out part (successive halving), then trains the chosen
    estimator (:class:`BudgetedSVC` or, when it finishes in time,
    :class:`SVC`) on all rows so that the whole call ends within ``time``
    seconds; ``best_estimator_`` predicts. It is an estimator of its own
    rather than ``C="auto"`` on :class:`BudgetedSVC` because the search also
    chooses between estimators (BSCA, BSGD, the exact SVM), and because its
    parameters (``time``) and its results (``report_``) are the search's,
    not one model's. docs/auto.md says what it does and when to override it.

    Parameters
    ----------
    time : float, default=120.0
        Seconds for the whole ``fit`` (search and final fit), > 0. The plan
        keeps a margin; the call ends within about 10% of it (the first
        subsample fits are timed before anything is extrapolated).
    validation_fraction : float, default=0.2
        Share of the rows held out (stratified) to score the search, in
        (0, 0.5]; at most 40,000 rows are held out. The final fit trains on
        every row, the held-out ones included.
    solvers : sequence of {"bsca", "bsgd", "exact"}, default=("bsca", "bsgd", "exact")
        The solvers the search may choose. The search itself runs BSCA when
        it is allowed, else BSGD, else the exact SVM.
    max_budget : int, default=8000
        The largest budget the final fit may use (>= 250).
    random_state : int, RandomState instance or None, default=None
        Seeds the split, the subsamples, the distance heuristic and every
        fit. With the same seed, data and plan (the rungs, the final budget
        and epochs: ``report_.chosen``) the model is the same, bit for bit;
        the plan itself follows the fits' times, so on a loaded machine or a
        tight budget it can differ from run to run (a smaller last rung or
        budget).
    n_jobs : int or None, default=None
        Threads of every fit (never changes a fitted model); ``None``: 1,
        ``-1``: all cores. The timings the plan follows are taken with these
        threads.
    verbose : int, default=0
        ``1`` prints a line per stage and rung to stderr.

    Attributes
    ----------
    best_estimator_ : BudgetedSVC or SVC
        The final model, trained on all rows (or, when the time budget did
        not allow it, the best model found: ``report_.warnings`` says so).
    best_params_ : dict
        ``report_.chosen`` without the score: the settings of
        ``best_estimator_``.
    best_score_ : float
        The held-out accuracy of those settings where they were last scored
        (the check's subsample, or the largest searched; the final model's own
        score on those rows is higher: it trained on them).
    report_ : TuningReport
        Every fit of the search with its accuracy and seconds, each stage's
        seconds, the choice; ``print(report_)`` shows it as a table.
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import AutoSVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(4000, 2))
    >>> y = np.where(X[:, 0] * X[:, 1] > 0, "same", "diff")
    >>> clf = AutoSVC(time=10, random_state=0).fit(X, y)
    >>> sorted(clf.best_params_)
    ['C', 'budget', 'epochs', 'gamma', 'rows', 'solver']
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    def __init__(
        self,
        time: float = 120.0,
        *,
        validation_fraction: float = 0.2,
        solvers: Sequence[str] = SOLVERS,
        max_budget: int = 8000,
        random_state: Any = None,
        n_jobs: Optional[int] = None,
        verbose: int = 0,
    ) -> None:
        self.time = time
        self.validation_fraction = validation_fraction
        self.solvers = solvers
        self.max_budget = max_budget
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    # ------------------------------------------------------------------ checks

    def _checked(self) -> Tuple[float, float, Tuple[str, ...], int]:
        budget = check_number("time", self.time, low=0.0, low_inclusive=False)
        if not math.isfinite(budget):
            raise ValueError(f"time must be a finite number of seconds; got {self.time!r}.")
        fraction = check_number("validation_fraction", self.validation_fraction, low=0.0, low_inclusive=False,
                                high=0.5)
        solvers = (self.solvers,) if isinstance(self.solvers, str) else tuple(self.solvers)
        if not solvers or any(s not in SOLVERS for s in solvers):
            raise ValueError(f"solvers must be a non-empty sequence of {SOLVERS}; got {self.solvers!r}.")
        max_budget = check_number("max_budget", self.max_budget, integer=True, low=BUDGET_LADDER[0])
        return budget, fraction, tuple(dict.fromkeys(solvers)), int(max_budget)

    def _say(self, text: str) -> None:
        if self.verbose:
            print(f"[AutoSVC] {text}", file=sys.stderr, flush=True)

    # --------------------------------------------------------------------- fit

    @atomic_fit
    def fit(self, X: Any, y: Any) -> "AutoSVC":
        """Search the settings and train the chosen model within ``time`` seconds.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training rows (dense or CSR).
        y : array-like of shape (n_samples,)
            Class labels (at least two classes, each with at least two rows:
            the held-out part is stratified).

        Returns
        -------
        self : AutoSVC
            The fitted meta-estimator.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import AutoSVC
        >>> rng = np.random.default_rng(1)
        >>> X = rng.normal(size=(2000, 3))
        >>> y = (np.linalg.norm(X, axis=1) > 1.5).astype(int)
        >>> auto = AutoSVC(time=5, random_state=0).fit(X, y)
        >>> auto.report_.seconds <= 5 * 1.1 + 1
        True
        """
        time_budget, _, _, max_budget = self._checked()
        clock = _Clock(time_budget)
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=[np.float64, np.float32], order="C")
        search = self._prepare(X, y, clock)
        best = search.check(search.run(), max_budget)
        final_start = clock.elapsed()
        model, chosen = search.final(best, max_budget)
        return self._publish(search, model, chosen, final_start)

    def _prepare(self, X: Any, y: np.ndarray, clock: _Clock, n_final: Optional[int] = None,
                 row_seconds: float = 0.0) -> "_Search":
        """The split, the subsamples' order and the distance heuristic; the
        search ready to run. ``n_final``, ``row_seconds``: a stream's rows and
        its reading cost per row and pass (``X`` is then a sample of it)."""
        _, fraction, solvers, _ = self._checked()
        report = TuningReport(clock.budget)
        classes, counts = np.unique(y, return_counts=True)
        if len(classes) < 2:
            raise ValueError(f"AutoSVC needs samples of at least 2 classes in the data; got 1 class ({classes[0]!r}).")
        if counts.min() < 2:
            raise ValueError(
                f"AutoSVC holds out a stratified part of the rows, which needs at least 2 rows of every class; "
                f"class {classes[np.argmin(counts)]!r} has {counts.min()}."
            )
        rng = check_random_state(self.random_state)
        n = X.shape[0]
        n_val = int(min(max(round(fraction * n), len(classes)), MAX_VALIDATION_ROWS, n - len(classes)))
        train, val = train_test_split(np.arange(n), test_size=n_val, stratify=y,
                                      random_state=rng.randint(np.iinfo(np.int32).max))
        order = train[rng.permutation(len(train))]  # the subsamples: the first m rows of one shuffle
        X_val, y_val = X[val], y[val]
        gamma0 = median_gamma(X, rng, rows=order)
        seed = int(rng.randint(np.iinfo(np.int32).max))
        report.stages.append({"name": "prepare", "seconds": clock.elapsed()})
        self._say(f"{n} rows, {len(classes)} classes, {n_val} held out; gamma from the distance heuristic {gamma0:.4g}")
        search = _Search(self, X, y, order, X_val, y_val, gamma0, seed, solvers, clock, report)
        if n_final is not None:
            search.n_final, search.row_seconds, search.max_epochs, search.streaming = n_final, row_seconds, 1, True
        return search

    def _publish(self, search: "_Search", model: Any, chosen: Dict[str, Any], final_start: float) -> "AutoSVC":
        report, clock = search.report, search.clock
        report.stages.append({"name": "final", "seconds": clock.elapsed() - final_start})
        report.chosen = chosen
        report.seconds = clock.elapsed()
        for text in report.warnings:
            warnings.warn(text, UserWarning, stacklevel=3)
        self._say(f"done in {report.seconds:.1f} s: {chosen}")
        self.best_estimator_ = model
        self.best_params_ = {k: v for k, v in chosen.items() if k != "validation_accuracy"}
        self.best_score_ = float(chosen["validation_accuracy"])
        self.report_ = report
        self.classes_ = model.classes_
        return self

    @atomic_fit
    def fit_stream(self, chunks: Any, n_features: int, started: Optional[float] = None,
                   sample_rows: int = 200_000, shuffle_buffer: int = 100_000) -> "AutoSVC":
        """Search on a sample of a stream that can be read twice, then train by one pass of it.

        The first pass draws a uniform sample of ``sample_rows`` rows
        (reservoir sampling), finds the classes and times the reading; the
        search runs on the sample as :meth:`fit` runs on all rows; the
        final :class:`BudgetedSVC` (BSCA or BSGD: the exact SVM needs all
        rows in memory) trains by one pass of ``partial_fit`` over the
        stream, with ``C`` for all of its rows and the budget that pass can
        afford in the time left.

        Parameters
        ----------
        chunks : iterable of (X, y)
            Each ``iter(chunks)`` is one pass over the stream, in the same
            order (e.g. :class:`budgetsvm.io.SvmlightChunks`).
        n_features : int
            Columns of every chunk.
        started : float or None, default=None
            ``time.perf_counter()`` when the budget's clock started (the
            caller's own setup counts); ``None``: now.
        sample_rows : int, default=200000
            Rows of the sample the search runs on.
        shuffle_buffer : int, default=100000
            Rows mixed in memory before the training pass
            (:func:`budgetsvm.shuffle_chunks`; 0: none).

        Returns
        -------
        self : AutoSVC

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import AutoSVC
        >>> rng = np.random.default_rng(0)
        >>> blocks = []
        >>> for _ in range(8):
        ...     X = rng.normal(size=(1000, 2))
        ...     blocks.append((X, np.where(X[:, 0] * X[:, 1] > 0, 1, -1)))
        >>> auto = AutoSVC(time=10, random_state=0).fit_stream(blocks, n_features=2, sample_rows=3000)
        >>> auto.best_params_["rows"], auto.best_params_["solver"] in ("bsca", "bsgd")
        (8000, True)
        """
        from ..io import shuffle_chunks

        time_budget, _, solvers, max_budget = self._checked()
        budgeted = tuple(s for s in solvers if s != "exact")
        if not budgeted:
            raise ValueError("a stream trains the budgeted solvers (bsca, bsgd): solvers must name one of them.")
        clock = _Clock(time_budget, started)
        sample_rows = check_number("sample_rows", sample_rows, integer=True, low=2)
        start = perf_counter()
        X, y, n_total = reservoir_sample(chunks, sample_rows, n_features, check_random_state(self.random_state))
        row_seconds = (perf_counter() - start) / max(n_total, 1)
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=[np.float64, np.float32], order="C")
        search = self._prepare(X, y, clock, n_final=n_total, row_seconds=row_seconds)
        search.solvers = budgeted
        search.search_solver = budgeted[0]
        best = search.check(search.run(), max_budget)
        final_start = clock.elapsed()
        plan = search.decide(best, max_budget)
        if "fallback" in plan:
            model, chosen = search.fallback(best, plan["fallback"])
            return self._publish(search, model, chosen, final_start)
        est = BudgetedSVC(solver=plan["solver"], C=plan["C"], gamma=plan["gamma"], budget=plan["budget"],
                          random_state=search.seed, n_jobs=self.n_jobs)
        classes = np.unique(y)
        fit_start = perf_counter()
        stream: Any = iter(chunks)
        if shuffle_buffer:
            stream = shuffle_chunks(stream, shuffle_buffer, random_state=search.seed)
        rows = 0
        for Xc, yc in stream:
            est.partial_fit(Xc, yc, classes=classes)
            rows += Xc.shape[0]
        if rows != n_total:
            raise ValueError(f"the stream gave {rows} rows on its second pass and {n_total} on its first: "
                             "it cannot be read twice the same way.")
        plan["epochs"] = 1
        search.record_final(est, rows, plan["solver"], plan["C"], plan["gamma"], plan["budget"], 1,
                            perf_counter() - fit_start)
        return self._publish(search, est, search.chosen(plan, best), final_start)

    # ------------------------------------------------------------- prediction

    def predict(self, X: Any) -> np.ndarray:
        """Class labels of ``X``, by ``best_estimator_``.

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import AutoSVC
        >>> X = np.random.default_rng(0).normal(size=(600, 2))
        >>> y = np.where(X[:, 0] > 0, "right", "left")
        >>> AutoSVC(time=3, random_state=0).fit(X, y).predict([[2.0, 0.0], [-2.0, 0.0]]).tolist()
        ['right', 'left']
        """
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def decision_function(self, X: Any) -> np.ndarray:
        """Decision values of ``X``, by ``best_estimator_`` (its shape and meaning).

        Examples
        --------
        >>> import numpy as np
        >>> from budgetsvm import AutoSVC
        >>> X = np.random.default_rng(0).normal(size=(600, 2))
        >>> y = (X[:, 0] > 0).astype(int)
        >>> auto = AutoSVC(time=3, random_state=0).fit(X, y)
        >>> bool(auto.decision_function([[2.0, 0.0]])[0] > 0)
        True
        """
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class _Search:
    """One run of the search: the rungs, the solver trial and the final fit."""

    def __init__(self, owner: AutoSVC, X: Any, y: np.ndarray, order: np.ndarray, X_val: Any, y_val: np.ndarray,
                 gamma0: float, seed: int, solvers: Tuple[str, ...], clock: _Clock, report: TuningReport) -> None:
        self.owner = owner
        self.X, self.y, self.order = X, y, order
        self.X_val, self.y_val = X_val, y_val
        self.gamma0 = gamma0
        self.seed = seed
        self.solvers = solvers
        self.clock = clock
        self.report = report
        self.n = X.shape[0]
        self.n_final = self.n  # the rows of the final fit (a stream's: all of the file's)
        self.row_seconds = 0.0  # a stream's reading cost per row and pass
        self.max_epochs = 3
        self.check_epochs: Optional[int] = None  # the epochs the check chose
        self.streaming = False
        self.search_solver: str = next(s for s in ("bsca", "bsgd", "exact") if s in solvers)
        self.best: Optional[Dict[str, Any]] = None  # the best-scoring trial so far, and its model
        self.best_model: Any = None
        self.top_budgeted: Optional[Dict[str, Any]] = None  # the search's best budgeted trial
        self.exact_trial: Optional[Dict[str, Any]] = None  # the exact SVM's trial, when it won
        self.searched: List[Dict[str, Any]] = []  # every search trial (with the private keys)
        self.exponents: List[float] = []  # the C exponent t of each rung's winner (C ~ n^-t)

    # ----------------------------------------------------------------- fits

    def _estimator(self, solver: str, C: float, gamma: float, budget: Optional[int], epochs: Optional[int]) -> Any:
        if solver == "exact":
            return SVC(C=C, gamma=gamma, random_state=self.seed, n_jobs=self.owner.n_jobs)
        return BudgetedSVC(solver=solver, C=C, gamma=gamma, budget=int(budget or 500), epochs=int(epochs or 1),
                           random_state=self.seed, n_jobs=self.owner.n_jobs)

    def _trial(self, stage: str, rung: int, rows: int, solver: str, C: float, gamma: float,
               budget: Optional[int], epochs: Optional[int], exponent: float = 0.0) -> Dict[str, Any]:
        """Fit one setting on the first ``rows`` rows of the shuffle and score
        it on the held-out rows; the report's entry, with the C exponent that
        led to it (``_exponent``) and its number of machines (``_machines``)
        as private keys. The best-scoring model so far is kept."""
        start = perf_counter()
        idx = self.order[:rows]
        est = self._estimator(solver, C, gamma, budget, epochs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the exact SVM's iteration limit is the search's business
            est.fit(self.X[idx], self.y[idx])
        accuracy = float(est.score(self.X_val, self.y_val))
        trial = {"stage": stage, "rung": rung, "rows": rows, "solver": solver, "C": float(C), "gamma": float(gamma),
                 "budget": None if solver == "exact" else int(budget or 500),
                 "epochs": None if solver == "exact" else int(epochs or 1),
                 "validation_accuracy": accuracy, "seconds": perf_counter() - start,
                 "n_support": int(np.sum(est.n_support_))}
        self.report.trials.append(dict(trial))
        trial["_exponent"] = exponent
        # one-vs-rest BSCA: one machine (and budget) per class
        trial["_machines"] = len(est.classes_) if solver == "bsca" and len(est.classes_) > 2 else 1
        if self.best is None or (accuracy, rows) > (self.best["validation_accuracy"], self.best["rows"]):
            self.best = trial
            self.best_model = est  # only the best model is kept (the fallback of a budget too small)
        return trial

    @staticmethod
    def _budget_for(rows: int) -> int:
        """The search's budget: 500, or half the rows of a smaller subsample."""
        return int(max(2, min(500, rows // 2)))

    @staticmethod
    def _epochs_for(rows: int) -> int:
        return 3 if rows <= 50_000 else 2

    # ---------------------------------------------------------------- rungs

    def run(self) -> Dict[str, Any]:
        """The rungs and the solver trial; returns the best search trial."""
        clock, owner = self.clock, self.owner
        n_train = len(self.order)
        search_start = clock.elapsed()
        # the first rung's size from one timed fit: its whole grid within
        # a fifth of the budget (500 to 2000 rows)
        probe_rows = min(n_train, 500)
        probe = self._cell_trial("probe", 0, probe_rows, 1.0, self.gamma0)
        gammas = [self.gamma0 * 2.0 ** k for k in (-3, -2, -1, 0, 1, 2)]
        Cs = [10.0 ** k for k in (-1, 0, 1, 2, 3)]
        per_cell = probe["seconds"]
        rows0 = probe_rows
        while rows0 * 2 <= min(n_train, 2000) and per_cell * 2 * len(gammas) * len(Cs) <= 0.2 * clock.budget:
            rows0 *= 2
            per_cell *= 2
        cells = [(C, g) for g in gammas for C in Cs]
        rung, rows = 0, rows0
        results = self._rung(rung, rows, [(C, g, 0.0) for C, g in cells])
        while rows < n_train and results:
            next_rows = min(n_train, rows * GROWTH)
            keep = max(1, round(len(results) / 6))
            survivors = results[:keep]
            candidates: List[Tuple[float, float, float]] = []
            seen = set()
            for t in survivors:
                for exponent in (0.0, 0.5, 1.0):
                    C = t["C"] * (rows / next_rows) ** exponent
                    key = (round(math.log(C), 6), t["gamma"])
                    if key not in seen:
                        seen.add(key)
                        candidates.append((C, t["gamma"], exponent))
            # the next rung's cost: each parent's rate (seconds per row and support vector) at the next size
            estimate = sum(self._cost(t, self._budget_for(next_rows), self._epochs_for(next_rows), next_rows)
                           for t in survivors) * len(candidates) / len(survivors)
            final_min = self._cost(results[0], BUDGET_LADDER[1], 1, self.n_final)
            spent = clock.elapsed()
            if spent + estimate > 0.55 * clock.budget or spent + estimate + final_min > 0.9 * clock.budget:
                self._say_skip(next_rows, estimate, final_min)
                break
            rung, rows = rung + 1, next_rows
            results = self._rung(rung, rows, candidates)
            if results:
                self.exponents.append(results[0]["_exponent"])
        if results and rows == n_train:
            results = self._refine(rung, rows, results)
        self.report.stages.append({"name": "search", "seconds": clock.elapsed() - search_start})
        solver_start = clock.elapsed()
        best = results[0] if results else probe
        self.top_budgeted = best if best["solver"] != "exact" else None
        best = self._solver_trials(best)
        self.report.stages.append({"name": "solver", "seconds": clock.elapsed() - solver_start})
        owner._say(f"best: {best['solver']} C={best['C']:.4g} gamma={best['gamma']:.4g} on {best['rows']} rows, "
                   f"{100 * best['validation_accuracy']:.2f}%")
        return best

    def _refine(self, rung: int, rows: int, results: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The search covered every training row before its share of the
        time ended: spend the rest on finer steps around the two best cells
        (``C`` by a quarter-decade, ``gamma`` by a factor of sqrt(2), then half
        those steps), on all rows, while a round fits in the search's share."""
        seen = {(round(math.log(t["C"]), 6), round(math.log(t["gamma"]), 6)) for t in results}
        for step in (1.0, 0.5):
            rung += 1
            candidates = []
            for t in results[:2]:
                c_step, g_step = 10 ** (0.25 * step), 2 ** (0.5 * step)
                for C, gamma in ((t["C"] * c_step, t["gamma"]), (t["C"] / c_step, t["gamma"]),
                                 (t["C"], t["gamma"] * g_step), (t["C"], t["gamma"] / g_step)):
                    key = (round(math.log(C), 6), round(math.log(gamma), 6))
                    if key not in seen:
                        seen.add(key)
                        candidates.append((C, gamma, t["_exponent"]))
            per_cell = max(t["seconds"] for t in results[:2])
            if not candidates or self.clock.elapsed() + per_cell * len(candidates) > 0.5 * self.clock.budget:
                break
            finer = self._rung(rung, rows, candidates, stage="refine")
            results = sorted(results + finer, key=lambda t: -t["validation_accuracy"])
        return results

    def _say_skip(self, rows: int, estimate: float, final_min: float) -> None:
        self.owner._say(f"search stops: a rung of {rows} rows would take ~{estimate:.1f} s "
                        f"(the final fit needs ~{final_min:.1f} s)")

    def _cell_trial(self, stage: str, rung: int, rows: int, C: float, gamma: float, exponent: float = 0.0,
                    solver: Optional[str] = None) -> Dict[str, Any]:
        solver = solver or self.search_solver
        return self._trial(stage, rung, rows, solver, C, gamma, self._budget_for(rows), self._epochs_for(rows),
                           exponent)

    def _rung(self, rung: int, rows: int, cells: List[Tuple[float, float, float]],
              stage: str = "search") -> List[Dict[str, Any]]:
        """Fit every cell on the first ``rows`` rows; the results best first.
        Cells the time left cannot pay for are skipped (the search's share is 60%)."""
        done: List[Dict[str, Any]] = []
        for C, gamma, exponent in cells:
            if done and self.clock.elapsed() + done[-1]["seconds"] > 0.6 * self.clock.budget:
                self.report.warnings.append(
                    f"the time budget ended the search in rung {rung} ({rows} rows) after {len(done)} of "
                    f"{len(cells)} settings")
                break
            trial = self._cell_trial(stage, rung, rows, C, gamma, exponent)
            self.searched.append(trial)
            done.append(trial)
        done.sort(key=lambda t: -t["validation_accuracy"])  # stable: ties keep the grid's order
        if done:
            top = done[0]
            self.owner._say(f"rung {rung}: {len(done)} settings on {rows} rows in "
                            f"{sum(t['seconds'] for t in done):.1f} s; best C={top['C']:.4g} "
                            f"gamma={top['gamma']:.4g} {100 * top['validation_accuracy']:.2f}%")
        return done

    def _rate(self, trial: Dict[str, Any]) -> float:
        """Seconds per row, support vector and epoch of a budgeted trial
        (its support vectors at the end: a model that never fills its budget
        costs what it holds)."""
        return trial["seconds"] / (trial["rows"] * max(trial["n_support"], 1) * (trial["epochs"] or 1))

    def _held(self, trial: Dict[str, Any], budget: int, n: int) -> float:
        """The support vectors a fit of ``budget`` on ``n`` rows will hold: the
        budget, or fewer where the trial left its budget unfilled (the share
        of rows it kept, times ``n``)."""
        machines = trial.get("_machines", 1)
        per_machine = trial["n_support"] / machines
        if trial["budget"] is not None and per_machine < 0.9 * trial["budget"]:
            return machines * min(budget, max(per_machine / trial["rows"] * n, 1.0))
        return machines * min(budget, n)

    def _cost(self, trial: Dict[str, Any], budget: int, epochs: int, n: int) -> float:
        """Predicted seconds of a fit of ``budget`` and ``epochs`` on ``n``
        rows, from a trial's rate (and a stream's reading)."""
        return (self._rate(trial) * self._held(trial, budget, n) + self.row_seconds) * n * epochs

    def _solver_trials(self, best: Dict[str, Any]) -> Dict[str, Any]:
        """The other solvers with the best cell's settings: BSGD on the same
        subsample (chosen when it wins by ``BSGD_MARGIN``); the exact SVM on the largest subsample of at most
        ``EXACT_TRIAL_ROWS`` rows, against the budgeted search's best there,
        and only when its time, extrapolated as ``n ** 2``, lets it train on
        all rows in the time left."""
        for solver in self.solvers:
            if solver == best["solver"] or solver == "exact":
                continue
            if self.clock.elapsed() + 2 * best["seconds"] > 0.6 * self.clock.budget:
                continue
            trial = self._cell_trial("solver", best["rung"], best["rows"], best["C"], best["gamma"],
                                     best["_exponent"], solver)
            if trial["validation_accuracy"] > best["validation_accuracy"] + BSGD_MARGIN:
                best = trial
        if "exact" in self.solvers and best["solver"] != "exact":
            small = [t for t in self.searched if t["rows"] <= EXACT_TRIAL_ROWS and t["solver"] == best["solver"]]
            if small:
                rows = max(t["rows"] for t in small)
                ref = max((t for t in small if t["rows"] == rows), key=lambda t: t["validation_accuracy"])
                if ref["seconds"] * 4 < 0.1 * self.clock.left():  # the trial itself: cheap next to the time left
                    trial = self._cell_trial("solver", ref["rung"], rows, ref["C"], ref["gamma"], ref["_exponent"],
                                             "exact")
                    exact_all = trial["seconds"] * (self.n_final / rows) ** EXACT_EXPONENT
                    if (trial["validation_accuracy"] >= ref["validation_accuracy"]
                            and exact_all < 0.6 * self.clock.left()):
                        # the exact SVM with the largest subsample's settings, timed on its own subsample
                        self.exact_trial = trial
                        best = dict(best, solver="exact")
        return best

    # ---------------------------------------------------------------- check

    def check(self, best: Dict[str, Any], max_budget: int) -> Dict[str, Any]:
        """The search's choice checked at the final fit's budget.

        The search scores its settings at a budget of 500; a larger budget
        can favour another ``gamma`` or ``C``, and a solver's lead at 500
        need not hold. On a subsample (the last rung's rows, or fewer so
        that the check keeps within ``CHECK_SHARE`` of the budget), at the
        budget the final fit would afford and one epoch: BSCA against BSGD
        when the search chose BSGD; then ``gamma`` halved and doubled; then
        ``C`` a half-decade either way. A setting replaces the incumbent
        when it scores ``CHECK_MARGIN`` more. Returns the trial to carry to
        all rows (its ``C`` carried from its own rows)."""
        start = self.clock.elapsed()
        best = self._check(best, max_budget)
        self.report.stages.append({"name": "check", "seconds": self.clock.elapsed() - start})
        return best

    def _check(self, best: Dict[str, Any], max_budget: int) -> Dict[str, Any]:
        if best["solver"] == "exact":
            return best  # the exact SVM's settings were scored as they train
        reserve = CHECK_SHARE * self.clock.budget
        left = self.clock.left() * 0.85 - 0.05 * self.clock.budget - reserve
        budget, epochs = self._plan(best, left, max_budget)
        if budget is None or budget <= best["budget"]:
            return best  # the final fit's budget is the search's: nothing new to check

        def cost(b: int, rows: int) -> float:  # the check's fits: two at one epoch, the rest at `epochs`
            return self._cost(best, b, 1, rows) * (2 + (CHECK_FITS - 2) * epochs)

        # rows per support vector as in the final fit (at most CHECK_ROWS_PER_SV): the last rung's
        # rows, halved until the search's rate says the check fits in the reserve, else a smaller
        # budget (still above the search's); the first fit's own time may then let the rows grow
        ratio = min(CHECK_ROWS_PER_SV, self.n_final / budget)
        affordable = min(reserve, self.clock.left() * 0.3)
        while True:
            rows = best["rows"]
            while rows >= 2 * ratio * budget and cost(budget, rows) > affordable:
                rows //= 2
            if rows >= ratio * budget and cost(budget, rows) <= affordable:
                break
            budget //= 2
            if budget <= best["budget"]:
                self.owner._say("no check at a larger budget: too little time")
                return best
        rung = best["rung"] + 1
        deadline = self.clock.elapsed() + reserve

        def trial(base: Dict[str, Any], C_factor: float = 1.0, gamma_factor: float = 1.0,
                  solver: Optional[str] = None, epochs: Optional[int] = None) -> Optional[Dict[str, Any]]:
            if self.clock.elapsed() > deadline:
                return None
            return self._trial("check", rung, rows, solver or base["solver"], base["C"] * C_factor,
                               base["gamma"] * gamma_factor, budget, epochs or base["epochs"], best["_exponent"])

        while True:
            start = dict(best, C=best["C"] * (best["rows"] / rows) ** self._exponent(), epochs=epochs)
            incumbent = trial(start)
            if incumbent is None:
                return best
            # the rows above were sized by the search's rate, taken at its own budget; the first
            # fit's own time decides whether the check at twice the rows still ends by the deadline
            if 2 * rows > best["rows"] or self.clock.elapsed() + 2 * CHECK_FITS * incumbent["seconds"] > deadline:
                break
            rows *= 2

        if best["solver"] == "bsgd" and "bsca" in self.solvers:
            # BSGD's lead at the search's budget, checked at this one (and again by its margin)
            t = trial(start, solver="bsca")
            if t is not None and t["validation_accuracy"] + BSGD_MARGIN >= incumbent["validation_accuracy"]:
                incumbent = t
        # one epoch (more passes fit the noise too), then gamma, then C, each pair from the same base:
        # a smoother model (smaller gamma or C) wins within the noise of the held-out score (minus
        # CHECK_MARGIN), a rougher one or a single pass needs to lead by a margin
        groups: List[List[Tuple[float, float, Optional[int], float]]] = []
        if epochs > 1:
            groups.append([(1.0, 1.0, 1, CHECK_MARGIN)])
        groups += [[(1.0, 0.5, None, -CHECK_MARGIN), (1.0, 2.0, None, 2 * CHECK_MARGIN)],
                   [(10 ** -0.5, 1.0, None, -CHECK_MARGIN), (10 ** 0.5, 1.0, None, 2 * CHECK_MARGIN)]]
        for group in groups:
            base = incumbent
            for C_factor, gamma_factor, step_epochs, margin in group:
                t = trial(base, C_factor, gamma_factor, epochs=step_epochs)
                if t is not None and t["validation_accuracy"] > incumbent["validation_accuracy"] + margin:
                    incumbent = t
        self.check_epochs = incumbent["epochs"]
        self.owner._say(f"check at budget {budget} on {rows} rows: {incumbent['solver']} C={incumbent['C']:.4g} "
                        f"gamma={incumbent['gamma']:.4g} epochs={incumbent['epochs']} "
                        f"{100 * incumbent['validation_accuracy']:.2f}%")
        return incumbent

    # ---------------------------------------------------------------- final

    def _exponent(self) -> float:
        """How C moves with the rows (C ~ n^-t): the mean of the rungs' winning steps, 1/2 before any."""
        return float(np.mean(self.exponents)) if self.exponents else 0.5

    def _final_C(self, best: Dict[str, Any]) -> Tuple[float, float]:
        exponent = self._exponent()
        return best["C"] * (best["rows"] / self.n_final) ** exponent, exponent

    def decide(self, best: Dict[str, Any], max_budget: int) -> Dict[str, Any]:
        """The final fit's settings (``solver``, ``C``, ``gamma``, ``budget``,
        ``epochs``, ``rows``) for the time left, or ``{"fallback": why}`` when
        no fit on more rows than the search's fits in it."""
        C, exponent = self._final_C(best)
        n = self.n_final
        left = self.clock.left() * 0.85 - 0.05 * self.clock.budget  # margin: scoring, copies, jitter
        solver = best["solver"]
        if solver == "exact":
            timed = self.exact_trial or best
            predicted = timed["seconds"] * (n / timed["rows"]) ** EXACT_EXPONENT
            if predicted <= left:
                return {"solver": "exact", "C": C, "gamma": best["gamma"], "budget": None, "epochs": None, "rows": n}
            if self.top_budgeted is None:
                return {"fallback": "the exact SVM cannot train on all rows in the time left"}
            solver = self.top_budgeted["solver"]
        ref = best if best["solver"] == solver else self.top_budgeted
        assert ref is not None
        budget, epochs = self._plan(ref, left, max_budget)
        if budget is not None:
            self.owner._say(f"final: {solver} C={C:.4g} budget={budget} epochs={epochs} on {n} rows "
                            f"(~{self._cost(ref, budget, epochs, n):.1f} s of {left:.1f} s left)")
            return {"solver": solver, "C": C, "gamma": best["gamma"], "budget": budget, "epochs": epochs, "rows": n}
        # not even the smallest budget's one pass over all rows: the largest subsample that fits
        rows = int(left / (self._rate(ref) * ref["_machines"] * BUDGET_LADDER[0] + self.row_seconds))
        if rows <= best["rows"] or self.streaming:
            return {"fallback": "the time budget is too small for a fit on more rows than the search's"}
        self.report.warnings.append(
            f"the time left allows a fit on {rows} of {n} rows only: the final model trained on a subsample")
        C = best["C"] * (best["rows"] / rows) ** exponent
        return {"solver": solver, "C": C, "gamma": best["gamma"], "budget": BUDGET_LADDER[0], "epochs": 1, "rows": rows}

    def final(self, best: Dict[str, Any], max_budget: int) -> Tuple[Any, Dict[str, Any]]:
        """Train the chosen settings on all rows within the time left; the model and the choice."""
        plan = self.decide(best, max_budget)
        if "fallback" in plan:
            return self.fallback(best, plan["fallback"])
        model = self._fit_rows(plan["rows"], plan["solver"], plan["C"], plan["gamma"], plan["budget"], plan["epochs"])
        return model, self.chosen(plan, best)

    def _plan(self, ref: Dict[str, Any], left: float, max_budget: int) -> Tuple[Optional[int], int]:
        """The largest budget (first up to 2000, at the epochs that suit the
        size: 3 up to 100k rows, 2 up to 1M, else 1), then more epochs, then
        a larger budget, whose fit on all rows the trial's rate says ends in time."""
        n = self.n_final
        cap = max(BUDGET_LADDER[0], min(max_budget, n // 2))
        ladder = [b for b in BUDGET_LADDER if b <= cap]
        most = min(self.max_epochs, self.check_epochs or self.max_epochs)
        wanted = min(most, 3 if n <= 100_000 else (2 if n <= 1_000_000 else 1))
        if self.check_epochs is not None:
            wanted = most  # the check scored these epochs

        def fits(b: int, e: int) -> bool:
            return self._cost(ref, b, e, n) <= left

        for epochs in range(wanted, 0, -1):
            affordable = [b for b in ladder if b <= 2000 and fits(b, epochs)]
            if affordable:
                budget = affordable[-1]
                break
        else:
            return None, 1
        if budget == min(2000, ladder[-1]):
            while epochs < most and fits(budget, epochs + 1):
                epochs += 1
            larger = [b for b in ladder if b > budget and fits(b, epochs)]
            if larger:
                budget = larger[-1]
        return budget, epochs

    def _fit_rows(self, rows: int, solver: str, C: float, gamma: float, budget: Optional[int],
                  epochs: Optional[int]) -> Any:
        """The final fit: all rows (or the first ``rows`` of a shuffle of them), not scored."""
        start = perf_counter()
        est = self._estimator(solver, C, gamma, budget, epochs)
        if rows >= self.n:
            X, y = self.X, self.y
        else:
            idx = check_random_state(self.seed).permutation(self.n)[:rows]
            X, y = self.X[idx], self.y[idx]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X, y)
        self.record_final(est, rows, solver, C, gamma, budget, epochs, perf_counter() - start)
        return est

    def record_final(self, est: Any, rows: int, solver: str, C: float, gamma: float, budget: Optional[int],
                     epochs: Optional[int], seconds: float) -> None:
        """The final fit's entry in the report (no held-out score: it trained on those rows too)."""
        self.report.trials.append({"stage": "final", "rung": -1, "rows": rows, "solver": solver, "C": float(C),
                                   "gamma": float(gamma), "budget": budget, "epochs": epochs,
                                   "validation_accuracy": math.nan, "seconds": seconds,
                                   "n_support": int(np.sum(est.n_support_))})

    def fallback(self, best: Dict[str, Any], why: str) -> Tuple[Any, Dict[str, Any]]:
        """The best model of the search, as it was trained (on a subsample)."""
        trial = self.best
        assert trial is not None
        self.report.warnings.append(f"{why}: the model is the search's best, trained on {trial['rows']} rows")
        return self.best_model, self.chosen(trial, trial)

    @staticmethod
    def chosen(plan: Dict[str, Any], best: Dict[str, Any]) -> Dict[str, Any]:
        """The report's choice: the plan's settings and the search's score of them."""
        return {"solver": plan["solver"], "C": float(plan["C"]), "gamma": float(plan["gamma"]),
                "budget": plan["budget"], "epochs": plan["epochs"], "rows": int(plan["rows"]),
                "validation_accuracy": float(best["validation_accuracy"])}


def tune(X: Any, y: Any, time: float = 120.0, **params: Any) -> AutoSVC:
    """Choose the solver, ``C``, ``gamma``, budget and epochs for ``X, y`` within ``time`` seconds.

    ``AutoSVC(time=time, **params).fit(X, y)``: the fitted meta-estimator,
    whose ``best_estimator_`` is the model and ``report_`` what was tried.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        Training rows.
    y : array-like of shape (n_samples,)
        Class labels.
    time : float, default=120.0
        Seconds for the whole call.
    **params
        Further parameters of :class:`AutoSVC` (``random_state``, ``n_jobs``, ...).

    Returns
    -------
    AutoSVC
        Fitted.

    Examples
    --------
    >>> import numpy as np
    >>> from budgetsvm import tune
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(3000, 2))
    >>> y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 < 0.5, 1, -1)
    >>> auto = tune(X, y, time=10, random_state=0)
    >>> bool(auto.best_score_ > 0.9)
    True
    """
    return AutoSVC(time=time, **params).fit(X, y)
