"""Fixed training workloads for comparing two builds (before / after a change).

    python bench/workloads.py NAME

trains one model on a real data set (read at run time from $BUDGETSVM_DATA or
../shared/datasets) and prints the figures that must not change between
builds (accuracy, dual objective, support vectors), so that a timing run of
two builds also checks that they compute the same model. Time the whole
process from outside (for example `hyperfine 'python bench/workloads.py svc'`),
alternating the two builds; bench/results/refactor_ab.md has such a run.
"""

from __future__ import annotations

import sys

import numpy as np

from _common import data_dir

import budgetsvm


def ijcnn1(n=None):
    X, y = budgetsvm.load_svmlight(data_dir() / "ijcnn1.bz2", n_features=22)
    Xt, yt = budgetsvm.load_svmlight(data_dir() / "ijcnn1.t.bz2", n_features=22)
    return (X[:n], y[:n], Xt, yt) if n else (X, y, Xt, yt)


def a9a():
    X, y = budgetsvm.load_svmlight(data_dir() / "a9a.bz2", n_features=123)
    Xt, yt = budgetsvm.load_svmlight(data_dir() / "a9a.t.bz2", n_features=123)
    return X, y, Xt, yt


def svc():
    X, y, Xt, yt = ijcnn1(20000)
    m = budgetsvm.SVC(C=32.0, gamma=2.0).fit(X, y)
    return f"acc {m.score(Xt, yt):.6f} objective {float(np.sum(m.dual_objective_)):.6f} n_sv {m.support_.size}"


def bsca():
    X, y, Xt, yt = ijcnn1()
    m = budgetsvm.BudgetedSVC(budget=500, C=32.0, gamma=2.0, epochs=3, random_state=1).fit(X, y)
    return f"acc {m.score(Xt, yt):.6f} coef_sum {float(np.abs(m.dual_coef_).sum()):.9g}"


def bsgd():
    X, y, Xt, yt = ijcnn1()
    m = budgetsvm.BudgetedSVC(solver="bsgd", budget=500, C=32.0, gamma=2.0, epochs=3, random_state=1).fit(X, y)
    return f"acc {m.score(Xt, yt):.6f} coef_sum {float(np.abs(m.dual_coef_).sum()):.9g}"


def linear():
    X, y, Xt, yt = a9a()
    m = budgetsvm.LinearSVC(C=1.0, random_state=0).fit(X, y)
    dual = sum(s["dual_objective"] for s in m.fit_stats_)
    return f"acc {m.score(Xt, yt):.6f} dual {dual:.9g}"


WORKLOADS = {"svc": svc, "bsca": bsca, "bsgd": bsgd, "linear": linear}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in WORKLOADS:
        sys.exit(f"usage: python bench/workloads.py {{{','.join(WORKLOADS)}}}")
    print(sys.argv[1], WORKLOADS[sys.argv[1]]())
