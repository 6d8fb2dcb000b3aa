"""``budgetsvm demo``: budgeted SVMs next to scikit-learn's exact ``SVC``.

Without arguments the demo needs no download and no data file: it trains
BSCA and BSGD on the BSGD paper's 4 x 4 checkerboard (generated) and on the
digits data that scikit-learn ships inside its wheel, and prints test
accuracy, number of support vectors, merges and training time next to the
exact ``SVC``. ``SVC`` takes time quadratic (or worse) in the number of
samples, so on large sets it is trained on a random subsample sized so that
it fits in about ``svc_seconds``; the output says so.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from typing import Any, List, Optional, TextIO, Tuple, Union

import numpy as np

from .. import BudgetedSVC, load_svmlight
from .._data import as_supported, resolve_gamma


@dataclass
class Problem:
    """A train/test problem with the hyperparameters the demo uses."""

    name: str
    X: Any
    y: np.ndarray
    X_test: Any
    y_test: np.ndarray
    C: float
    gamma: Union[float, str]
    note: str = ""


@dataclass
class Row:
    """One line of the demo's table."""

    problem: str
    method: str
    n_train: int
    accuracy: float
    n_support: int
    merges: Optional[int]
    seconds: float
    note: str = ""
    extra: dict = field(default_factory=dict)


def checkerboard(n: int, seed: int, cells: int = 4) -> Tuple[np.ndarray, np.ndarray]:
    """The BSGD paper's checkerboard data set.

    Points uniform on the square ``[0, cells)^2``, labelled ``+1``/``-1`` in
    alternating cells (a ``cells x cells`` board), and standardised to mean 0
    and standard deviation 1 per feature (the population values of the
    uniform distribution, so train and test sets share the scaling).

    Parameters
    ----------
    n : int
        Number of points.
    seed : int
        Seed of the generator (numpy's PCG64).
    cells : int, default=4
        Cells per side.

    Returns
    -------
    X : ndarray of shape (n, 2), float64
    y : ndarray of shape (n,), int64 in {-1, +1}

    Examples
    --------
    >>> from budgetsvm.demo import checkerboard
    >>> X, y = checkerboard(1000, seed=0)
    >>> X.shape, sorted(set(y.tolist()))
    ((1000, 2), [-1, 1])
    """
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, cells, size=(n, 2))
    y = np.where((np.floor(X[:, 0]) + np.floor(X[:, 1])) % 2 == 0, 1, -1)
    return (X - cells / 2.0) / (cells / math.sqrt(12.0)), y


def fit_svc_within(problem: Problem, seconds: float, seed: int) -> Row:
    """Train scikit-learn's exact ``SVC`` on the largest subsample that fits in
    about ``seconds``: sizes double from 1,000 points while the next fit,
    predicted from the last one with quadratic growth, still fits in the time
    left; the largest fit is reported."""
    from sklearn.svm import SVC

    rng = np.random.default_rng(seed)
    n = problem.X.shape[0]
    order = rng.permutation(n)
    size = min(n, 1000)
    spent = 0.0
    while True:
        rows = np.sort(order[:size])
        X, y = problem.X[rows], problem.y[rows]
        start = time.perf_counter()
        model = SVC(C=problem.C, gamma=problem.gamma).fit(X, y)
        elapsed = time.perf_counter() - start
        spent += elapsed
        if size == n or spent + 4.0 * elapsed > seconds:
            break
        size = min(n, 2 * size)
    note = (
        "full training set"
        if size == n
        else f"subsample of {size:,} of {n:,} points (largest that fits in ~{seconds:g} s)"
    )
    return Row(
        problem.name,
        "SVC (exact)",
        size,
        float(model.score(problem.X_test, problem.y_test)),
        int(model.support_.shape[0]),
        None,
        elapsed,
        note,
    )


def fit_budgeted(problem: Problem, solver: str, budget: int, epochs: int, seed: int, n_jobs: int) -> Row:
    """Train :class:`BudgetedSVC` with merging (lookup-WD) and test it."""
    model = BudgetedSVC(
        solver=solver,
        budget=budget,
        C=problem.C,
        gamma=problem.gamma,
        epochs=epochs,
        random_state=seed,
        n_jobs=n_jobs,
    )
    start = time.perf_counter()
    model.fit(problem.X, problem.y)
    elapsed = time.perf_counter() - start
    return Row(
        problem.name,
        f"{solver.upper()} B={budget}, {epochs} epochs",
        problem.X.shape[0],
        float(model.score(problem.X_test, problem.y_test)),
        model.n_support_,
        int(model.fit_stats_["merges"]),
        elapsed,
        extra={"maintenance_seconds": float(model.fit_stats_["maintenance_seconds"])},
    )


def builtin_problems(quick: bool, seed: int) -> List[Problem]:
    """The checkerboard and scikit-learn's digits (8 x 8 images, 10 classes)."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    n_train, n_test = (5_000, 2_000) if quick else (200_000, 50_000)
    X, y = checkerboard(n_train, seed=seed)
    Xt, yt = checkerboard(n_test, seed=seed + 1)
    note = f"{n_train:,} train / {n_test:,} test points"
    board = Problem("checkerboard 4x4", X, y, Xt, yt, C=32.0, gamma=2.0, note=note)

    digits_X, digits_y = load_digits(return_X_y=True)
    digits_X = digits_X / 16.0
    if quick:
        digits_X, digits_y = digits_X[:600], digits_y[:600]
    Xd, Xdt, yd, ydt = train_test_split(digits_X, digits_y, test_size=0.25, random_state=seed, stratify=digits_y)
    digits = Problem(
        "digits (sklearn)", Xd, yd, Xdt, ydt, C=10.0, gamma="scale",
        note=f"{len(yd):,} train / {len(ydt):,} test, 64 features, 10 classes",
    )
    return [board, digits]


def file_problem(data: str, test: Optional[str], seed: int, C: float, gamma: Union[float, str]) -> Problem:
    """A LIBSVM file, with its test file or a seeded 80/20 split."""
    from sklearn.model_selection import train_test_split

    X, y = load_svmlight(data)
    if X.shape[0] < 2:
        raise ValueError(f"{data} holds {X.shape[0]} sample(s); training needs at least 2 (of 2 classes).")
    if test is not None:
        Xt, yt = load_svmlight(test)
        d = max(X.shape[1], Xt.shape[1])
        if X.shape[1] < d:
            X, y = load_svmlight(data, n_features=d)
        if Xt.shape[1] < d:
            Xt, yt = load_svmlight(test, n_features=d)
        note = f"{X.shape[0]:,} train / {Xt.shape[0]:,} test points ({test})"
    else:
        X, Xt, y, yt = train_test_split(X, y, test_size=0.2, random_state=seed)
        note = f"seeded 80/20 split: {X.shape[0]:,} train / {Xt.shape[0]:,} test points"
    return Problem(str(data), X, y, Xt, yt, C=C, gamma=gamma, note=note)


def _format_table(rows: List[Row]) -> str:
    header = ("method", "train n", "test acc", "SVs", "merges", "time [s]")
    lines = [header]
    for r in rows:
        lines.append(
            (
                r.method,
                f"{r.n_train:,}",
                f"{100 * r.accuracy:.2f}%",
                f"{r.n_support:,}",
                "-" if r.merges is None else f"{r.merges:,}",
                f"{r.seconds:.2f}",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for k, line in enumerate(lines):
        cells = [line[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(line[1:], widths[1:])]
        out.append("  ".join(cells))
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def run_demo(
    data: Optional[str] = None,
    test: Optional[str] = None,
    budget: Optional[int] = None,
    epochs: Optional[int] = None,
    quick: bool = False,
    seed: int = 0,
    C: float = 1.0,
    gamma: Union[float, str] = "scale",
    svc_seconds: Optional[float] = None,
    n_jobs: int = 1,
    out: Optional[TextIO] = None,
) -> List[Row]:
    """Run the demo and print its tables; returns the rows.

    Parameters
    ----------
    data, test : str or None
        A LIBSVM training file (and optionally its test file). ``None``: the
        built-in problems (checkerboard and digits).
    budget : int or None
        Budget of BSCA and BSGD (default 200; 50 with ``quick``).
    epochs : int or None
        Epochs of BSCA and BSGD (default 3; 2 with ``quick``).
    quick : bool
        Small sizes (a few seconds in all), for tests.
    seed : int
        Seeds data generation, splits and training.
    C, gamma
        Hyperparameters for ``data`` (the built-in problems bring their own).
    svc_seconds : float or None
        Time budget of the exact ``SVC`` (default 10 s; 1 s with ``quick``).
    n_jobs : int
        Threads of BudgetedSVC.
    out : text stream or None
        Where the tables go (default: ``sys.stdout``).

    Returns
    -------
    rows : list of Row

    Examples
    --------
    >>> import io
    >>> from budgetsvm.demo import run_demo
    >>> rows = run_demo(quick=True, out=io.StringIO())  # a few seconds
    >>> [row.method.split()[0] for row in rows[:3]]
    ['BSCA', 'BSGD', 'SVC']
    """
    out = sys.stdout if out is None else out
    budget = budget if budget is not None else (50 if quick else 200)
    epochs = epochs if epochs is not None else (2 if quick else 3)
    svc_seconds = svc_seconds if svc_seconds is not None else (1.0 if quick else 10.0)
    if data is None:
        if test is not None:
            raise ValueError("--test needs --data.")
        problems = builtin_problems(quick, seed)
    else:
        problems = [file_problem(data, test, seed, C, gamma)]

    all_rows: List[Row] = []
    for problem in problems:
        # one gamma for all three methods ("scale" resolved on the full training set)
        problem.gamma = resolve_gamma(problem.gamma, as_supported(problem.X))
        print(f"\n{problem.name}: {problem.note}; C={problem.C:g}, gamma={problem.gamma:.4g}", file=out, flush=True)
        rows = [fit_budgeted(problem, solver, budget, epochs, seed, n_jobs) for solver in ("bsca", "bsgd")]
        rows.append(fit_svc_within(problem, svc_seconds, seed))
        print(_format_table(rows), file=out, flush=True)
        svc = rows[-1]
        if svc.note:
            print(f"SVC (exact): {svc.note}.", file=out, flush=True)
        if len(np.unique(problem.y)) > 2:
            print("BSCA: one-vs-rest, a budget of B support vectors per class; BSGD: one shared budget.",
                  file=out, flush=True)
        all_rows.extend(rows)
    return all_rows
