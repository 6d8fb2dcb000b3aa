"""The automatic mode against a grid and against a search over scikit-learn's SVC.

For each problem (generated families of ``bench/datagen.py`` at ``--rows``
rows, and real LIBSVM sets): ``AutoSVC(time=--time)`` over ``--seeds``
(test accuracy, the call's wall time against the budget, what it chose);
then, with ``--grid``, the neighbours of the first seed's choice trained
on all rows (``grid_cells``: ``C`` a half-decade either side, ``gamma``
halved and doubled, the other epochs, half the budget, the other solver):
is the choice a local best? with ``--halving``, scikit-learn's
``HalvingGridSearchCV`` over ``sklearn.svm.SVC`` (``C`` 0.1-1000,
``gamma`` the distance heuristic times 1/8-4, 3 folds) on the largest
subsample (5k, 10k, 20k, ... rows) whose search ends within the same time.
Every model is scored on the same independent test rows.

    python bench/auto.py [--sets xor20,overlap18,radial12,shells12,susy18] [--rows 1000000]
                         [--time 120] [--seeds 0,1,2] [--grid] [--halving] [--out bench/results/auto.md]
    python bench/auto.py --sets ijcnn1,a9a,w8a,cod-rna,covtype,skin_nonskin --time 60 --halving
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import data_dir, machine_line, report  # noqa: E402
from datagen import FAMILIES, bayes_accuracy, make  # noqa: E402

import budgetsvm  # noqa: E402
from budgetsvm.estimators.auto import median_gamma  # noqa: E402

# real sets: (train file, test file or None for a seeded 80/20 split, n_features, scale to [0, 1])
REAL = {
    "ijcnn1": ("ijcnn1.bz2", "ijcnn1.t.bz2", 22, False),
    "a9a": ("a9a.bz2", "a9a.t.bz2", 123, False),
    "w8a": ("w8a.bz2", "w8a.t.bz2", 300, False),
    "cod-rna": ("cod-rna.bz2", None, 8, True),
    "covtype": ("covtype.binary.scale.sub20k.bz2", None, 54, False),
    "skin_nonskin": ("skin_nonskin.bz2", None, 3, True),
}


def load(name, rows, test_rows):
    """(X, y, X_test, y_test, note)."""
    if name in FAMILIES:
        X, y = make(name, rows, seed=0)
        Xt, yt = make(name, test_rows, seed=0, test=True)
        return X, y, Xt, yt, f"generated, Bayes accuracy {100 * bayes_accuracy(name, test_rows, seed=0, test=True):.2f}%"
    from sklearn.model_selection import train_test_split

    train, test, d, scale = REAL[name]
    X, y = budgetsvm.load_svmlight(data_dir() / train, n_features=d)
    if test:
        Xt, yt = budgetsvm.load_svmlight(data_dir() / test, n_features=d)
        note = "official test file"
    else:
        X, Xt, y, yt = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
        note = "stratified 80/20 split (random_state=0)"
    if scale:
        from sklearn.preprocessing import MinMaxScaler

        scaler = MinMaxScaler().fit(X.toarray())
        X = np.ascontiguousarray(scaler.transform(X.toarray()))
        Xt = np.ascontiguousarray(np.clip(scaler.transform(Xt.toarray()), 0.0, 1.0))
        note += ", features scaled to [0, 1] on the training rows"
    return X, y, Xt, yt, note


def grid_cells(chosen):
    """The cells around the auto's choice, each a dict of estimator settings:
    the choice itself; C a half-decade either way; gamma halved and doubled;
    every other number of epochs (1-3); half the budget; the other budgeted
    solver."""
    base = {k: chosen[k] for k in ("solver", "C", "gamma", "budget", "epochs")}
    cells = [base]
    cells += [dict(base, C=base["C"] * 10.0 ** (k / 2)) for k in (-1, 1)]
    cells += [dict(base, gamma=base["gamma"] * f) for f in (0.5, 2.0)]
    if base["solver"] != "exact":
        cells += [dict(base, epochs=e) for e in (1, 2, 3) if e != base["epochs"]]
        cells += [dict(base, budget=base["budget"] // 2)]
        cells += [dict(base, solver="bsgd" if base["solver"] == "bsca" else "bsca")]
    return cells


def describe(cell):
    text = f"{cell['solver']} C={cell['C']:.3g} gamma={cell['gamma']:.3g}"
    if cell["solver"] != "exact":
        text += f" B={cell['budget']} E={cell['epochs']}"
    return text


def estimator(cell):
    if cell["solver"] == "exact":
        return budgetsvm.SVC(C=cell["C"], gamma=cell["gamma"])
    return budgetsvm.BudgetedSVC(solver=cell["solver"], C=cell["C"], gamma=cell["gamma"], budget=cell["budget"],
                                 epochs=cell["epochs"], random_state=0, n_jobs=-1)


def halving(X, y, Xt, yt, budget, seed):
    """The largest subsample (5k, 10k, ...) whose HalvingGridSearchCV over SVC
    ends within `budget` seconds: (rows, seconds, test accuracy)."""
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV
    from sklearn.svm import SVC

    rng = np.random.RandomState(seed)
    order = rng.permutation(X.shape[0])
    gamma0 = median_gamma(X, np.random.RandomState(seed))
    grid = {"C": [0.1, 1.0, 10.0, 100.0, 1000.0], "gamma": [gamma0 * 2.0 ** k for k in range(-3, 3)]}
    best = None
    rows = 5000
    while True:
        m = min(rows, X.shape[0])
        idx = order[:m]
        start = time.perf_counter()
        search = HalvingGridSearchCV(SVC(), grid, cv=3, factor=3, random_state=seed, n_jobs=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            search.fit(X[idx], y[idx])
        seconds = time.perf_counter() - start
        if seconds > budget and best is not None:
            break
        best = (m, seconds, search.score(Xt, yt))
        print(f"  halving {m} rows: {seconds:.1f} s, {100 * best[2]:.2f}%", flush=True)
        if seconds > budget or m == X.shape[0] or seconds * 4 > budget * 1.5:
            break  # the next size (search time ~ n^2) would not end in time
        rows *= 2
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="xor20,overlap18,radial12,shells12,susy18")
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows of the generated families")
    ap.add_argument("--test-rows", type=int, default=200_000)
    ap.add_argument("--time", type=float, default=120.0)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--grid", action="store_true")
    ap.add_argument("--halving", action="store_true")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    lines = ["# The automatic mode (AutoSVC)", "", machine_line(), "",
             "`python bench/auto.py " + " ".join(sys.argv[1:]) + "`", "",
             f"time budget {args.time:g} s, n_jobs=-1, seeds {args.seeds}; load average {os.getloadavg()[0]:.2f} "
             "at the start; test accuracy on independent rows", ""]
    table = ["| problem | rows | AutoSVC: median (worst) test accuracy | wall / budget (max) | chosen (seed "
             f"{seeds[0]}) | grid best around it | the chosen cell (seed {seeds[0]}) | HalvingGridSearchCV over SVC |",
             "| --- | ---: | --- | --- | --- | --- | --- | --- |"]
    notes = []
    for name in args.sets.split(","):
        X, y, Xt, yt, note = load(name, args.rows, args.test_rows)
        notes.append(f"- {name}: {note}")
        accs, walls, chosen = [], [], None
        for seed in seeds:
            start = time.perf_counter()
            auto = budgetsvm.AutoSVC(time=args.time, random_state=seed, n_jobs=-1).fit(X, y)
            walls.append(time.perf_counter() - start)
            accs.append(auto.score(Xt, yt))
            chosen = chosen or auto.best_params_
            p = auto.best_params_
            print(f"{name} seed {seed}: {100 * accs[-1]:.2f}% in {walls[-1]:.1f} s; {p['solver']} C={p['C']:.4g} "
                  f"gamma={p['gamma']:.4g} B={p['budget']} E={p['epochs']}", flush=True)
        cells = [name, f"{X.shape[0]:,}", f"{100 * np.median(accs):.2f}% ({100 * min(accs):.2f}%)",
                 f"{np.median(walls) / args.time:.2f} ({max(walls) / args.time:.2f})",
                 f"{chosen['solver']} C={chosen['C']:.3g} gamma={chosen['gamma']:.3g} B={chosen['budget']} "
                 f"E={chosen['epochs']}"]
        if args.grid:
            results = []
            for cell in grid_cells(chosen):
                results.append((estimator(cell).fit(X, y).score(Xt, yt), cell))
                print(f"  grid {describe(cell)}: {100 * results[-1][0]:.2f}%", flush=True)
            acc_best, cell_best = max(results, key=lambda r: r[0])
            ours = results[0][0]
            cells += [f"{100 * acc_best:.2f}% ({describe(cell_best)})", f"{100 * ours:.2f}%"]
        else:
            cells += ["-", "-"]
        if args.halving:
            m, seconds, acc = halving(X, y, Xt, yt, args.time, seeds[0])
            cells.append(f"{100 * acc:.2f}% ({m:,} rows, {seconds:.0f} s)")
        else:
            cells.append("-")
        table.append("| " + " | ".join(cells) + " |")
    lines += table + ["", "The data:", *notes, "",
                      "The grid is centred on the first seed's choice: its C a half-decade either way, its gamma "
                      "halved and doubled, the other numbers of epochs (1-3), half its budget and the other "
                      "budgeted solver, one setting changed at a time, every cell trained on all rows (the "
                      "chosen cell is the first seed's model again, with random_state=0).", ""]
    report(lines, args.out)


if __name__ == "__main__":
    main()
