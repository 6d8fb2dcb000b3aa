"""Fit time and dual objective of budgetsvm's SVR, NuSVR, OneClassSVM and NuSVC against scikit-learn's.

    python bench/exact_family.py [--sizes 2000 20000] [--repeats 3] [--quick]

Generated data: ``make_friedman1`` for the regressors and the one-class
model, ``make_classification`` (3 classes) for NuSVC, standardised; RBF
kernel, ``gamma="scale"``, ``tol=1e-3``, one thread. Each repeat fits each
contestant once in turn (``_common.interleaved_times``); the table gives the
median. The dual objective of both solutions is computed here from their
dual coefficients and support vectors (public API only) by the same kernel
code (``budgetsvm.kernel_matrix``), so neither solver's own report is
trusted; ``rel. diff`` is (ours - scikit-learn's) / |scikit-learn's|
(negative: ours is lower, the problems are minimisations). NuSVC's is the
first pair's, up to the 1 / r^2 both solvers apply. ``--quick``: n = 500,
one repeat.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from statistics import median

import numpy as np
from sklearn import svm
from sklearn.datasets import make_classification, make_friedman1
from sklearn.preprocessing import StandardScaler

import budgetsvm as bs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import interleaved_times, machine_line  # noqa: E402


def quad(X: np.ndarray, c: np.ndarray, block: int = 2000) -> float:
    """1/2 c^T K c for the RBF kernel with gamma="scale", over the rows of non-zero c,
    K computed in blocks of rows (never an n x n matrix)."""
    gamma = 1.0 / (X.shape[1] * X.var())
    rows = np.flatnonzero(c)
    S, cs = X[rows], c[rows]
    total = 0.0
    for start in range(0, rows.size, block):
        K = bs.kernel_matrix(S[start:start + block], S, kernel="rbf", gamma=gamma)
        total += cs[start:start + block] @ (K @ cs)
    return 0.5 * total


def spread(model, n: int, row: int = 0) -> np.ndarray:
    """Row ``row`` of the model's dual coefficients at its support rows (no sample weights here)."""
    c = np.zeros(n)
    c[np.asarray(model.support_)] = np.asarray(model.dual_coef_)[row]
    return c


def objective(kind: str, X: np.ndarray, c: np.ndarray, z: np.ndarray, eps: float) -> float:
    value = quad(X, c)
    if kind == "SVR":
        return value + eps * np.abs(c).sum() - z @ c
    if kind == "NuSVR":
        return value - z @ c
    return value


def problems(n: int):
    X, z = make_friedman1(n_samples=n, random_state=0)
    X = StandardScaler().fit_transform(X)
    Xc, yc = make_classification(n_samples=n, n_features=10, n_informative=6, n_classes=3, random_state=0)
    Xc = StandardScaler().fit_transform(Xc)
    return [
        ("SVR", bs.SVR(C=10.0, epsilon=0.1), svm.SVR(C=10.0, epsilon=0.1), X, z),
        ("NuSVR", bs.NuSVR(C=10.0, nu=0.3), svm.NuSVR(C=10.0, nu=0.3), X, z),
        ("OneClassSVM", bs.OneClassSVM(nu=0.1), svm.OneClassSVM(nu=0.1), X, None),
        ("NuSVC", bs.NuSVC(nu=0.3), svm.NuSVC(nu=0.3), Xc, yc),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="n = 500, one repeat")
    args = parser.parse_args(argv)
    sizes, repeats = ([500], 1) if args.quick else (args.sizes, args.repeats)
    print(machine_line())
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'estimator':<12} {'n':>6} {'budgetsvm s':>12} {'sklearn s':>10} {'speed-up':>9} "
          f"{'n_SV ours/skl':>14} {'rel. diff obj':>14}")
    for n in sizes:
        for kind, ours, theirs, X, y in problems(n):
            fit_args = (X,) if y is None else (X, y)
            times, _ = interleaved_times({"ours": lambda: ours.fit(*fit_args),
                                          "sklearn": lambda: theirs.fit(*fit_args)}, repeats)
            t_ours, t_skl = median(times["ours"]), median(times["sklearn"])
            if kind == "NuSVC":  # the first pair (classes 0 and 1): row 0 of their support vectors' coefficients
                co, cs = spread(ours, n), spread(theirs, n)
                co[y >= 2], cs[y >= 2] = 0.0, 0.0
                o_ours, o_skl = quad(X, co), quad(X, cs)
            else:
                z = np.zeros(n) if y is None else y
                eps = getattr(ours, "epsilon", 0.0)
                o_ours = objective(kind, X, spread(ours, n), z, eps)
                o_skl = objective(kind, X, spread(theirs, n), z, eps)
            rel = (o_ours - o_skl) / abs(o_skl)
            nsv = f"{int(np.sum(ours.n_support_))}/{int(np.sum(theirs.n_support_))}"
            print(f"{kind:<12} {n:>6} {t_ours:>12.3f} {t_skl:>10.3f} {t_skl / t_ours:>9.2f} {nsv:>14} {rel:>14.2e}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
