"""Noisy-data benchmark: BSCA against BSGD against the exact SVM.

What it measures
----------------
Test accuracy (and training time) of the budgeted kernel SVMs
(``BudgetedSVC``, solver ``bsca`` and ``bsgd``, default lookup-WD merging)
against the exact SVM (``budgetsvm.SVC``, ALFPGM) on problems with label
noise, over a grid of C, budgets B, epochs and seeds:

* generated problems (``bench/datagen.py``, training rows from seed 0,
  50,000 independent test rows drawn with ``test=True``):
  ``xor20_n05``, ``xor20_n10``, ``xor20_n25`` (xor20 with 5 / 10 / 25 % of the
  labels flipped), ``radial12_n00``, ``radial12_n10`` (0 / 10 %),
  ``susy18_n20`` (susy18 at its default 20 %), ``xor20_n10_imb`` (xor20, 10 %
  noise, 10 % positives: 1:9 imbalance), ``overlap18_n00`` (class overlap
  without flipping: the label noise is the overlap, Bayes accuracy ~79.8 %),
  ``shells12_n00`` (nested shells, no noise); n is configurable (30k .. 2M);
* real sets (``_common.data_dir()``; a missing file skips the set with a
  note): ``a9a`` (official test file), ``cod-rna`` (seeded 80/20 split,
  features scaled to [0, 1] on the training split), ``covtype20k`` (the
  20k-row subset, 80/20), ``skin_nonskin`` (80/20, scaled to [0, 1]).

Per problem, gamma is chosen once by 3-fold CV of the exact SVC on 3,000
training rows over {g0/4, g0, 4 g0} (the best fold-mean accuracy over C in
{2^-1, 2^1, 2^3} counts; g0 = ``datagen.default_gamma`` for generated data,
1 / (n_features * X.var()) for real data) and cached in the JSON, so re-runs
reuse it. Then per C: the exact SVC, and BSCA and BSGD at every (B, epochs,
seed); every epochs value is its own fit (a 10-epoch model is not a 3-epoch
model trained longer: BSCA returns the average of its last epoch). Each table
cell is the median test accuracy over the seeds. The exact SVC runs per
(problem, C) only if it should finish within ``--exact-seconds``: it is first
trained on 10,000 rows (the pilot), its time t scaled to t * (n / 10k)^2, and
the fit is skipped with a note when that exceeds the budget (and then, C
ascending, for the larger C values of that problem as well, without a pilot);
otherwise it runs on the full training set.

Times: ``fit_stats_["seconds"]`` of ``BudgetedSVC`` (the core's epochs only);
``time.perf_counter`` around ``SVC.fit`` and around each ``score`` (test
prediction). Progress lines (time of day, accuracy, time, ETA) go to stderr.

How to run (from the repository root)
-------------------------------------
::

    PYTHONPATH=python:bench python bench/noisy.py --smoke         # < 1 min check -> bench/results/noisy_smoke.*
    PYTHONPATH=python:bench python bench/noisy.py --grid core     # ~20 min (30 min bound) on 2 cores
    PYTHONPATH=python:bench python bench/noisy.py --grid full     # ~3 h 15 min on 2 cores
    PYTHONPATH=python:bench python bench/noisy.py --grid core --estimate   # print the plan and its time, fit nothing
    PYTHONPATH=python:bench python bench/noisy.py --grid core --resume     # continue a killed run
    PYTHONPATH=python:bench python bench/noisy.py --report-only   # rewrite .md/.png from the .json

Options ``--problems``, ``--C`` (``2^-3`` or ``0.125``), ``--budgets``,
``--epochs``, ``--seeds``, ``--n`` (generated problems only) override the
grid's values; ``--out STEM`` writes ``STEM.json``, ``STEM.md``, ``STEM.png``
(default ``bench/results/noisy``; ``--smoke``: ``bench/results/noisy_smoke``).
Every fit is appended to the JSON as it finishes (rewritten atomically), so a
killed run keeps its fits and ``--resume`` skips the cells already present.
Without ``--resume`` an earlier JSON is moved to ``STEM.prev.json`` (its gamma
cache is kept). Cells run cheapest first (estimated cost order).

Grids and their time on 2 cores (one thread per fit; ``--estimate`` prints
the count of fits and the estimate from the per-fit model below):

* ``--smoke``: xor20_n10 and radial12_n10 at n = 5,000 (10,000 test rows),
  a9a subsampled to 5,000 / 10,000 rows; C in {2^-1, 2^3}; B = 100; epochs 1
  and 3; seed 1; exact budget 15 s. Under a minute.
* ``--grid core``: xor20_n10 and radial12_n10 at n = 30,000, a9a, cod-rna;
  C in {2^-1, 2^1, 2^3, 2^5}; B = 500 at epochs 1, 3, 10 and seeds 1, 2, 3;
  B = 2000 at epochs 3 and 10, seed 1 only (trimmed to fit); exact budget
  45 s per fit. 352 budgeted fits: ~13 min of training and test prediction;
  16 exact cells: likely ~6.5 min (at most ~15 min if every fit ran to its
  budget); gamma CV and loading ~1 min. Likely ~21 min, at most ~29 min.
* ``--grid full``: all 13 problems at n = 30,000 (real sets: full size);
  C in {2^-3, 2^-1, 2^1, 2^3, 2^5, 2^7} (every other power of 2, to fit);
  B = 100 and 500 at epochs 1, 3, 10, B = 2000 at epochs 3, 10, all at seeds
  1, 2, 3; plus xor20_n10 and susy18_n20 at n = 300k and 2M (C = 2^1,
  B = 500, epochs 1, 3, 10, seed 1); exact budget 120 s per fit. 3,768
  budgeted fits: ~2 h 16 min; 82 exact cells: likely ~55 min (at most ~3.1 h);
  ~3 min CV and loading. Likely ~3 h 15 min. (overlap18_n00 and shells12_n00
  are in this grid only: adding them to ``core`` would take it to ~29 min.)

Per-fit time model (for ordering and estimates only): one epoch at n = 30k,
B = 500, d = 20 takes 0.15 s, linear in B and n, times (31.5 + d) / 51.5 per
row (so a9a, d = 123, costs 3x per row); test prediction ~ half an epoch's
cost per test row.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import shlex
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from _common import ROOT, cpu_model, data_dir, git_commit, save_figure

import datagen

RESULTS = ROOT / "bench" / "results"

# ------------------------------------------------------------------ problems

GENERATED = {
    "xor20_n05": dict(family="xor20", noise=0.05),
    "xor20_n10": dict(family="xor20", noise=0.10),
    "xor20_n25": dict(family="xor20", noise=0.25),
    "radial12_n00": dict(family="radial12", noise=0.0),
    "radial12_n10": dict(family="radial12", noise=0.10),
    "susy18_n20": dict(family="susy18", noise=None),  # the family's default: 20 %
    "xor20_n10_imb": dict(family="xor20", noise=0.10, positive_fraction=0.1),
    "overlap18_n00": dict(family="overlap18", noise=0.0),  # class overlap, no flipping: Bayes accuracy ~79.8 %
    "shells12_n00": dict(family="shells12", noise=0.0),
}
# n_train / n_test: the sizes after the split (used for the time estimate only)
REAL = {
    "a9a": dict(train="a9a.bz2", test="a9a.t.bz2", n_features=123, n_train=32_561, n_test=16_281),
    "cod-rna": dict(train="cod-rna.bz2", n_features=8, scale=True, n_train=47_628, n_test=11_907),
    "covtype20k": dict(train="covtype.binary.scale.sub20k.bz2", n_features=54, n_train=16_000, n_test=4_000),
    "skin_nonskin": dict(train="skin_nonskin.bz2", n_features=3, scale=True, n_train=196_045, n_test=49_012),
}
PROBLEMS = list(GENERATED) + list(REAL)

SOLVERS = ("bsca", "bsgd")
PILOT_N = 10_000          # rows of the exact SVC's pilot fit
CV_ROWS = 3_000           # rows of the gamma cross-validation
CV_C = (2.0**-1, 2.0**1, 2.0**3)
CV_FACTORS = (0.25, 1.0, 4.0)
SPLIT_SEED = 0            # train_test_split / subsample seed for the real sets
DATA_SEED = 0             # datagen seed of the generated problems


def pow2(lo, hi, step=1):
    return [2.0**k for k in range(lo, hi + 1, step)]


def arm(B, epochs, seeds):
    return dict(B=B, epochs=list(epochs), seeds=list(seeds))


GRIDS = {
    "smoke": dict(
        specs=[dict(problems=["xor20_n10", "radial12_n10", "a9a"], n=[5_000], C=[2.0**-1, 2.0**3],
                    arms=[arm(100, (1, 3), (1,))])],
        exact_seconds=15.0, test_rows=10_000, real_n=5_000, real_test=10_000, cv_rows=1_500),
    "core": dict(
        specs=[dict(problems=["xor20_n10", "radial12_n10", "a9a", "cod-rna"], n=[30_000], C=[2.0**-1, 2.0**1, 2.0**3, 2.0**5],
                    arms=[arm(500, (1, 3, 10), (1, 2, 3)), arm(2000, (3, 10), (1,))])],
        exact_seconds=45.0, test_rows=50_000, real_n=None, real_test=None, cv_rows=CV_ROWS),
    "full": dict(
        specs=[dict(problems=PROBLEMS, n=[30_000], C=pow2(-3, 7, 2),
                    arms=[arm(100, (1, 3, 10), (1, 2, 3)), arm(500, (1, 3, 10), (1, 2, 3)), arm(2000, (3, 10), (1, 2, 3))]),
               dict(problems=["xor20_n10", "susy18_n20"], n=[300_000, 2_000_000], C=[2.0**1],
                    arms=[arm(500, (1, 3, 10), (1,))])],
        exact_seconds=120.0, test_rows=50_000, real_n=None, real_test=None, cv_rows=CV_ROWS),
}

# ------------------------------------------------------------------ time model (ordering and estimates only)

EPOCH_SECONDS = 0.15  # one epoch, n = 30k, B = 500, d = 20


def row_cost(d):
    """Relative cost of one row: (31.5 + d) / 51.5, so that d = 123 (a9a) costs 3x d = 20."""
    return (31.5 + d) / 51.5


def est_fit(n, d, B, epochs):
    return EPOCH_SECONDS * epochs * (B / 500) * (n / 30_000) * row_cost(d)


def est_predict(n_test, d, B):
    return 0.7 * EPOCH_SECONDS * (B / 500) * (n_test / 30_000) * row_cost(d)


def est_exact_predict(n, n_test, d):
    return est_predict(n_test, d, 0.7 * n)  # most rows are support vectors on noisy data


def est_exact_guess(n, d, C, cap):
    """A crude guess (ordering only): ~2 s at 10k rows, quadratic in n, slowly growing with C."""
    return min(cap, 2.0 * (n / PILOT_N) ** 2 * row_cost(d)) * (1.0 + 0.01 * (math.log2(C) + 10))


def est_exact_worst(n, n_test, d, cap):
    """Bound per exact cell: a pilot just under the skip threshold, a fit at the budget, the prediction."""
    if (n / PILOT_N) ** 2 * 0.3 > cap:  # even a 0.3 s pilot predicts more than the budget: never runs
        return 10.0
    pilot = cap * (PILOT_N / n) ** 2 if n > PILOT_N else 0.0
    return pilot + cap + est_exact_predict(n, n_test, d)


def est_exact_likely(n, n_test, d, cap, cells):
    """Likely exact time of one problem's C values: the time grows ~3x per factor 4 of C, so the fits that
    stay under the budget sum to about 1.5 budgets, plus their pilots and predictions."""
    if (n / PILOT_N) ** 2 * 0.3 > cap:
        return 10.0
    pilot = (PILOT_N / n) ** 2 if n > PILOT_N else 0.0
    return min(cells * est_exact_worst(n, n_test, d, cap),
               1.5 * cap * (1.0 + pilot) + 0.2 * cap * pilot + cells * est_exact_predict(n, n_test, d))


# ------------------------------------------------------------------ small helpers


def log(*args):
    print(time.strftime("%H:%M:%S"), *args, file=sys.stderr, flush=True)


def fmt_c(C):
    k = math.log2(C)
    return f"2^{int(round(k))}" if abs(k - round(k)) < 1e-9 else f"{C:g}"


def parse_c(text):
    text = text.strip()
    if text.startswith("2^"):
        return 2.0 ** float(text[2:])
    return float(text)


def fmt_n(n):
    if n is None:
        return "full"
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1_000 and n % 1_000 == 0:
        return f"{n // 1_000}k"
    return str(n)


def median(values):
    return float(statistics.median(values)) if values else float("nan")


def pct(x):
    return "-" if x is None or x != x else f"{100 * x:.2f}"


def loadavg():
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def shape_of(problem, n_spec, grid):
    """(n_train, n_test, d) before loading (estimates)."""
    if problem in GENERATED:
        return n_spec, grid["test_rows"], datagen.FAMILIES[GENERATED[problem]["family"]]["d"]
    spec = REAL[problem]
    n, nt = spec["n_train"], spec["n_test"]
    if grid.get("real_n"):
        n = min(n, grid["real_n"])
    if grid.get("real_test"):
        nt = min(nt, grid["real_test"])
    return n, nt, spec["n_features"]


def cell_key(problem, n_spec, solver, C, gamma, B, epochs, seed):
    return "|".join([problem, str(n_spec), solver, repr(float(C)), repr(float(gamma)), str(B), str(epochs), str(seed)])


def rec_key(r):
    return cell_key(r["problem"], r["n_spec"], r["solver"], r["C"], r["gamma"], r["B"], r["epochs"], r["seed"])


# ------------------------------------------------------------------ the grid


def build_grid(args):
    name = "smoke" if args.smoke else args.grid
    grid = json.loads(json.dumps(GRIDS[name]))  # deep copy
    grid["name"] = name
    specs = grid["specs"]
    if args.problems:
        unknown = [p for p in args.problems if p not in PROBLEMS]
        if unknown:
            raise SystemExit(f"unknown problem(s) {unknown}; choose from {PROBLEMS}")
        for spec in specs:
            spec["problems"] = [p for p in spec["problems"] if p in args.problems]
        extra = [p for p in args.problems if not any(p in s["problems"] for s in specs)]
        specs[0]["problems"] += extra
        grid["specs"] = specs = [s for s in specs if s["problems"]]
    for spec in specs:
        if args.n:
            spec["n"] = list(args.n)
        if args.C:
            spec["C"] = [parse_c(c) for c in args.C]
        if args.budgets:
            template = next((a for a in spec["arms"] if a["B"] == 500), spec["arms"][0])
            by_b = {a["B"]: a for a in spec["arms"]}
            spec["arms"] = [by_b.get(B, dict(template, B=B)) for B in args.budgets]
        for a in spec["arms"]:
            if args.epochs:
                a["epochs"] = list(args.epochs)
            if args.seeds:
                a["seeds"] = list(args.seeds)
    if args.exact_seconds is not None:
        grid["exact_seconds"] = args.exact_seconds
    if args.test_rows is not None:
        grid["test_rows"] = args.test_rows
    return grid


def build_tasks(grid, exact=True):
    """Every fit of the grid, deduplicated, with its estimated cost, cheapest first."""
    tasks, seen = [], set()
    cap = grid["exact_seconds"]

    def add(t):
        key = (t["problem"], t["n_spec"], t["solver"], t["C"], t["B"], t["epochs"], t["seed"])
        if key not in seen:
            seen.add(key)
            tasks.append(t)

    for spec in grid["specs"]:
        for problem in spec["problems"]:
            ns = spec["n"] if problem in GENERATED else [grid.get("real_n")]
            for n_spec in ns:
                n, n_test, d = shape_of(problem, n_spec, grid)
                for C in spec["C"]:
                    if exact:
                        add(dict(problem=problem, n_spec=n_spec, solver="exact", C=C, B=None, epochs=None, seed=None,
                                 est=est_exact_guess(n, d, C, cap), worst=est_exact_worst(n, n_test, d, cap)))
                    for a in spec["arms"]:
                        for epochs in a["epochs"]:
                            for seed in a["seeds"]:
                                for solver in SOLVERS:
                                    cost = est_fit(n, d, a["B"], epochs) + est_predict(n_test, d, a["B"])
                                    add(dict(problem=problem, n_spec=n_spec, solver=solver, C=C, B=a["B"], epochs=epochs,
                                             seed=seed, est=cost, worst=cost))
    order = {p: i for i, p in enumerate(PROBLEMS)}
    tasks.sort(key=lambda t: (round(t["est"], 3), t["seed"] or 0, order[t["problem"]], t["C"], t["solver"]))
    return tasks


def print_estimate(grid, tasks):
    budgeted = [t for t in tasks if t["solver"] != "exact"]
    exact = [t for t in tasks if t["solver"] == "exact"]
    cap = grid["exact_seconds"]
    likely = 0.0
    lines = [f"grid {grid['name']}: {len(budgeted)} budgeted fits, {len(exact)} exact cells "
             f"(exact budget {cap:.0f} s per fit)"]
    for spec in grid["specs"]:
        for problem in spec["problems"]:
            ns = spec["n"] if problem in GENERATED else [grid.get("real_n")]
            for n_spec in ns:
                n, n_test, d = shape_of(problem, n_spec, grid)
                ts = [t for t in budgeted if t["problem"] == problem and t["n_spec"] == n_spec]
                train = sum(est_fit(n, d, t["B"], t["epochs"]) for t in ts)
                pred = sum(est_predict(n_test, d, t["B"]) for t in ts)
                ex = [t for t in exact if t["problem"] == problem and t["n_spec"] == n_spec]
                like = est_exact_likely(n, n_test, d, cap, len(ex)) if ex else 0.0
                likely += like
                lines.append(f"  {problem:14s} n={n:>9,} test={n_test:>6,} d={d:>3}: {len(ts):4d} fits, "
                             f"train {train / 60:5.1f} min, predict {pred / 60:4.1f} min; exact {len(ex)} cells, "
                             f"likely {like / 60:4.1f}, at most {sum(t['worst'] for t in ex) / 60:4.1f} min")
    train = sum(t["est"] for t in budgeted)
    worst = sum(t["worst"] for t in exact)
    n_problems = len({t["problem"] for t in tasks})
    cv = n_problems * 15.0
    lines.append(f"  total: budgeted {train / 60:.1f} min (training + prediction), exact likely {likely / 60:.1f} min "
                 f"(at most {worst / 60:.1f}), gamma CV and loading ~{cv / 60:.1f} min: likely {(train + likely + cv) / 60:.1f} min, "
                 f"bound {(train + worst + cv) / 60:.1f} min")
    return lines


# ------------------------------------------------------------------ data


class Data:
    def __init__(self, problem, n_spec, X, y, Xt, yt, g0, notes):
        self.problem, self.n_spec = problem, n_spec
        self.X, self.y, self.Xt, self.yt = X, y, Xt, yt
        self.g0, self.notes = g0, notes
        self._X64 = self._Xt64 = None

    @property
    def X64(self):
        if self._X64 is None:
            self._X64 = np.ascontiguousarray(self.X, dtype=np.float64)
        return self._X64

    @property
    def Xt64(self):
        if self._Xt64 is None:
            self._Xt64 = np.ascontiguousarray(self.Xt, dtype=np.float64)
        return self._Xt64

    def pilot_rows(self):
        if self.problem in GENERATED:
            return np.arange(PILOT_N)  # rows are i.i.d.: the first 10k are the n = 10k problem, for every n
        return np.sort(np.random.default_rng(SPLIT_SEED).choice(self.X.shape[0], PILOT_N, replace=False))


_TEST_CACHE = {}


def load_problem(problem, n_spec, grid):
    """A Data, or a string saying why the problem is skipped."""
    if problem in GENERATED:
        spec = GENERATED[problem]
        kw = dict(noise=spec["noise"], positive_fraction=spec.get("positive_fraction", 0.5))
        X, y = datagen.make(spec["family"], n_spec, seed=DATA_SEED, **kw)
        test_key = (problem, grid["test_rows"])
        if test_key not in _TEST_CACHE:
            _TEST_CACHE[test_key] = datagen.make(spec["family"], grid["test_rows"], seed=DATA_SEED, test=True, **kw)
        Xt, yt = _TEST_CACHE[test_key]
        noise = datagen.FAMILIES[spec["family"]]["noise"] if spec["noise"] is None else spec["noise"]
        notes = [f"datagen.make({spec['family']!r}, n, noise={noise:g}, seed={DATA_SEED}"
                 + (f", positive_fraction={kw['positive_fraction']:g}" if kw["positive_fraction"] != 0.5 else "")
                 + f"); {grid['test_rows']:,} independent test rows (test=True), on which the Bayes rule scores "
                 f"{100 * datagen.bayes_accuracy(spec['family'], grid['test_rows'], seed=DATA_SEED, test=True, **kw):.2f}%"]
        return Data(problem, n_spec, X, y.astype(np.float64), Xt, yt.astype(np.float64),
                    datagen.default_gamma(spec["family"]), notes)

    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import MinMaxScaler

    from budgetsvm import load_svmlight

    spec = REAL[problem]
    files = [spec["train"]] + ([spec["test"]] if "test" in spec else [])
    missing = [f for f in files if not (data_dir() / f).exists()]
    if missing:
        return f"data file(s) {', '.join(missing)} not found in {data_dir()}: skipped"
    d = spec["n_features"]
    X, y = load_svmlight(data_dir() / spec["train"], n_features=d)
    X = X.toarray()
    notes = []
    if "test" in spec:
        Xt, yt = load_svmlight(data_dir() / spec["test"], n_features=d)
        Xt = Xt.toarray()
        notes.append("official test file")
    else:
        X, Xt, y, yt = train_test_split(X, y, test_size=0.2, random_state=SPLIT_SEED)
        notes.append(f"seeded 80/20 split (train_test_split, random_state={SPLIT_SEED})")
    if spec.get("scale"):
        scaler = MinMaxScaler().fit(X)
        X = scaler.transform(X)
        Xt = np.clip(scaler.transform(Xt), 0.0, 1.0)
        notes.append("features scaled to [0, 1] on the training split (test clipped)")
    rng = np.random.default_rng(SPLIT_SEED)
    if grid.get("real_n") and X.shape[0] > grid["real_n"]:
        keep = np.sort(rng.choice(X.shape[0], grid["real_n"], replace=False))
        X, y = X[keep], y[keep]
        notes.append(f"SUBSAMPLED to {grid['real_n']:,} training rows")
    if grid.get("real_test") and Xt.shape[0] > grid["real_test"]:
        keep = np.sort(rng.choice(Xt.shape[0], grid["real_test"], replace=False))
        Xt, yt = Xt[keep], yt[keep]
        notes.append(f"SUBSAMPLED to {grid['real_test']:,} test rows")
    notes.append("dense float32 for BSCA/BSGD, float64 for the exact SVC")
    g0 = 1.0 / (d * float(X.var()))
    return Data(problem, n_spec, np.ascontiguousarray(X, dtype=np.float32), np.asarray(y, dtype=np.float64),
                np.ascontiguousarray(Xt, dtype=np.float32), np.asarray(yt, dtype=np.float64), g0, notes)


def choose_gamma(data, rows):
    """gamma in {g0/4, g0, 4 g0} by 3-fold CV of the exact SVC on `rows` training rows."""
    from sklearn.model_selection import StratifiedKFold

    from budgetsvm import SVC

    start = time.perf_counter()
    n = data.X.shape[0]
    idx = np.sort(np.random.default_rng(0).choice(n, min(rows, n), replace=False))
    Xs, ys = data.X64[idx], data.y[idx]
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(Xs, ys))
    scores = {}
    for f in CV_FACTORS:
        g = data.g0 * f
        per_c = {}
        for C in CV_C:
            accs = [SVC(C=C, gamma=g, cache_size=1000).fit(Xs[tr], ys[tr]).score(Xs[te], ys[te]) for tr, te in folds]
            per_c[fmt_c(C)] = float(np.mean(accs))
        scores[f] = per_c
    best = max(CV_FACTORS, key=lambda f: (max(scores[f].values()), f == 1.0))
    names = {0.25: "g0/4", 1.0: "g0", 4.0: "4 g0"}
    return {"gamma": float(data.g0 * best), "g0": float(data.g0), "choice": names[best], "rows": int(len(idx)),
            "cv_C": [fmt_c(c) for c in CV_C], "scores": {names[f]: scores[f] for f in CV_FACTORS},
            "seconds": time.perf_counter() - start}


# ------------------------------------------------------------------ fits


def base_record(task, data, gamma):
    return {"problem": task["problem"], "n_spec": task["n_spec"], "n": int(data.X.shape[0]), "n_test": int(data.Xt.shape[0]),
            "solver": task["solver"], "C": float(task["C"]), "gamma": float(gamma), "B": task["B"],
            "epochs": task["epochs"], "seed": task["seed"]}


def run_budgeted(task, data, gamma, n_jobs):
    from budgetsvm import BudgetedSVC

    model = BudgetedSVC(solver=task["solver"], budget=task["B"], C=task["C"], gamma=gamma, epochs=task["epochs"],
                        random_state=task["seed"], n_jobs=n_jobs)
    model.fit(data.X, data.y)
    start = time.perf_counter()
    acc = float(model.score(data.Xt, data.yt))
    predict_seconds = time.perf_counter() - start
    stats = model.fit_stats_
    return {**base_record(task, data, gamma), "status": "ok", "accuracy": acc, "seconds": float(stats["seconds"]),
            "predict_seconds": predict_seconds, "n_support": int(model.n_support_), "merges": int(stats["merges"]),
            "stopped_early": bool(stats.get("stopped_early", False))}


def exact_skip_reason(task, gamma, fits, cap):
    """A smaller C of the same problem already estimated over the budget: skip without a pilot."""
    for r in fits:
        if (r["solver"] == "exact" and r["problem"] == task["problem"] and r["n_spec"] == task["n_spec"]
                and r["gamma"] == gamma and r["C"] < task["C"] and r["status"] == "skipped"
                and r.get("estimate_seconds") is not None and r.get("cap_seconds", 0) <= cap):
            return f"not tried: C = {fmt_c(r['C'])} was already estimated at {r['estimate_seconds']:.3g} s > {cap:g} s"
    return None


def run_exact(task, data, gamma, cap, pilots, fits):
    from budgetsvm import SVC

    rec = {**base_record(task, data, gamma), "cap_seconds": cap, "pilot_seconds": None, "estimate_seconds": None}
    reason = exact_skip_reason(task, gamma, fits, cap)
    if reason:
        return {**rec, "status": "skipped", "accuracy": None, "seconds": None, "note": reason,
                "skipped_after": "smaller C over the budget"}
    n = data.X.shape[0]
    if n > PILOT_N:
        pkey = f"{task['problem']}|{task['C']!r}|{gamma!r}"
        if pkey in pilots:
            t = pilots[pkey]["seconds"]
        else:
            rows = data.pilot_rows()
            start = time.perf_counter()
            SVC(C=task["C"], gamma=gamma, cache_size=1000).fit(data.X64[rows], data.y[rows])
            t = time.perf_counter() - start
            pilots[pkey] = {"seconds": t, "rows": PILOT_N}
        estimate = t * (n / PILOT_N) ** 2
        rec.update(pilot_seconds=t, estimate_seconds=estimate)
        if estimate > cap:
            return {**rec, "status": "skipped", "accuracy": None, "seconds": None,
                    "note": f"estimated {estimate:.3g} s > {cap:g} s ({PILOT_N:,}-row pilot: {t:.3g} s)"}
    start = time.perf_counter()
    model = SVC(C=task["C"], gamma=gamma, cache_size=1000).fit(data.X64, data.y)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    acc = float(model.score(data.Xt64, data.yt))
    predict_seconds = time.perf_counter() - start
    return {**rec, "status": "ok", "accuracy": acc, "seconds": seconds, "predict_seconds": predict_seconds,
            "n_support": int(np.sum(model.n_support_)), "fit_status": int(getattr(model, "fit_status_", 0))}


# ------------------------------------------------------------------ results file


def new_results():
    return {"benchmark": "noisy", "sessions": [], "gamma": {}, "pilots": {}, "problems": {}, "notes": [], "fits": []}


def save(results, path):
    head = {k: v for k, v in results.items() if k != "fits"}
    text = json.dumps(head, indent=1).rstrip()
    assert text.endswith("}")
    text = text[:-1].rstrip() + ',\n "fits": [\n' + ",\n".join("  " + json.dumps(f) for f in results["fits"]) + "\n ]\n}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def exact_done(r, cap):
    return r["status"] == "ok" or (r["status"] == "skipped" and r.get("cap_seconds", 0) >= cap)


# ------------------------------------------------------------------ the run


def command_line():
    env = f"PYTHONPATH={os.environ['PYTHONPATH']} " if os.environ.get("PYTHONPATH") else ""
    return env + "python " + " ".join(shlex.quote(a) for a in sys.argv)


def run(args, grid, stem):
    json_path = stem.with_suffix(".json")
    results = new_results()
    if json_path.exists():
        old = json.loads(json_path.read_text())
        if args.resume:
            results = old
            log(f"resuming {json_path}: {len(old['fits'])} fits present")
        else:
            results["gamma"] = old.get("gamma", {})
            if old.get("fits") and grid["name"] != "smoke":
                prev = stem.with_name(stem.name + ".prev.json")
                os.replace(json_path, prev)
                log(f"moved the earlier results ({len(old['fits'])} fits) to {prev}; gamma cache kept")
    session = {"grid": grid["name"], "command": command_line(), "start": datetime.datetime.now().isoformat(timespec="seconds"),
               "cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(), "commit": git_commit(),
               "load_before": loadavg(), "load_after": None, "end": None, "wall_seconds": None, "fits_run": 0,
               "exact_seconds": grid["exact_seconds"], "specs": grid["specs"], "n_jobs": args.n_jobs}
    results["sessions"].append(session)
    cap = grid["exact_seconds"]
    tasks = build_tasks(grid, exact=not args.no_exact)
    for line in print_estimate(grid, tasks):
        log(line)
    done = {}
    for r in results["fits"]:
        done[rec_key(r)] = r
    cache, skipped_problems = {}, {}
    total_est = sum(t["est"] for t in tasks)
    est_done, est_run, actual_done = 0.0, 0.0, 0.0
    wall0 = time.perf_counter()
    save(results, json_path)
    try:
        for i, task in enumerate(tasks, 1):
            problem, n_spec = task["problem"], task["n_spec"]
            est_done += task["est"]
            if problem in skipped_problems:
                continue
            gamma = results["gamma"].get(problem, {}).get("gamma")

            def present(g):
                r = done.get(cell_key(problem, n_spec, task["solver"], task["C"], g, task["B"], task["epochs"], task["seed"]))
                return r is not None and (task["solver"] != "exact" or exact_done(r, cap))

            if gamma is not None and present(gamma):
                continue
            data_key = (problem, n_spec)
            if data_key not in cache:
                log(f"{problem} n={fmt_n(n_spec)}: loading")
                loaded = load_problem(problem, n_spec, grid)
                if isinstance(loaded, str):
                    log(f"{problem}: {loaded}")
                    skipped_problems[problem] = loaded
                    note = f"{problem}: {loaded}"
                    if note not in results["notes"]:
                        results["notes"].append(note)
                    continue
                cache[data_key] = loaded
                results["problems"][f"{problem}@{fmt_n(n_spec)}"] = {
                    "problem": problem, "n_spec": n_spec, "n_train": int(loaded.X.shape[0]),
                    "n_test": int(loaded.Xt.shape[0]), "n_features": int(loaded.X.shape[1]), "notes": loaded.notes,
                    "positive_fraction_train": float(np.mean(loaded.y == loaded.y.max()))}
            data = cache[data_key]
            if gamma is None:
                log(f"{problem}: choosing gamma by 3-fold CV of the exact SVC on {min(grid['cv_rows'], data.X.shape[0]):,} rows")
                results["gamma"][problem] = choose_gamma(data, grid["cv_rows"])
                gamma = results["gamma"][problem]["gamma"]
                g = results["gamma"][problem]
                log(f"{problem}: gamma = {gamma:.4g} ({g['choice']}, g0 = {g['g0']:.4g}) in {g['seconds']:.1f} s; "
                    + "; ".join(f"{k}: {100 * max(v.values()):.2f}%" for k, v in g["scores"].items()))
                save(results, json_path)
                if present(gamma):
                    continue
            start = time.perf_counter()
            if task["solver"] == "exact":
                rec = run_exact(task, data, gamma, cap, results["pilots"], results["fits"])
            else:
                rec = run_budgeted(task, data, gamma, args.n_jobs)
            elapsed = time.perf_counter() - start
            rec["wall_seconds"] = elapsed
            rec["session"] = len(results["sessions"]) - 1
            old = done.get(rec_key(rec))
            if old is not None:  # an exact skip under a smaller budget, now redone
                results["fits"].remove(old)
            results["fits"].append(rec)
            done[rec_key(rec)] = rec
            session["fits_run"] += 1
            save(results, json_path)
            if task["solver"] != "exact":
                actual_done += elapsed
                est_run += task["est"]
            eta = ""
            if est_run > 0:
                ratio = actual_done / est_run  # the time model, calibrated on this session's budgeted fits
                eta = f" | ETA ~{ratio * (total_est - est_done) / 60:.1f} min (model x{ratio:.2f})"
            what = (f"{problem}@{fmt_n(n_spec)} {task['solver']} C={fmt_c(task['C'])}"
                    + (f" B={task['B']} ep={task['epochs']} seed={task['seed']}" if task["B"] else ""))
            if rec["status"] == "ok":
                log(f"[{i}/{len(tasks)}] {what}: acc {100 * rec['accuracy']:.2f}% fit {rec['seconds']:.2f}s "
                    f"predict {rec.get('predict_seconds', 0):.2f}s{eta}")
            else:
                log(f"[{i}/{len(tasks)}] {what}: {rec['note']}{eta}")
    finally:
        session["end"] = datetime.datetime.now().isoformat(timespec="seconds")
        session["load_after"] = loadavg()
        session["wall_seconds"] = time.perf_counter() - wall0
        save(results, json_path)
    return results


# ------------------------------------------------------------------ report


def groups_of(results):
    """(problem, n_spec) groups present in the fits, in the problems' order."""
    order = {p: i for i, p in enumerate(PROBLEMS)}
    keys = {(r["problem"], r["n_spec"]) for r in results["fits"]}
    return sorted(keys, key=lambda k: (order.get(k[0], 99), k[1] or 0))


def cells(results):
    """{(problem, n_spec, solver, C, B, epochs): [records]} of the successful fits."""
    out = {}
    for r in results["fits"]:
        if r["status"] != "ok":
            continue
        out.setdefault((r["problem"], r["n_spec"], r["solver"], r["C"], r["B"], r["epochs"]), []).append(r)
    return out


def med_acc(cs, key):
    rs = cs.get(key)
    return median([r["accuracy"] for r in rs]) if rs else None


def group_label(results, problem, n_spec):
    info = results["problems"].get(f"{problem}@{fmt_n(n_spec)}", {})
    n = info.get("n_train")
    return f"{problem} (n = {n:,})" if n else problem


def exact_record(results, problem, n_spec, C):
    rs = [r for r in results["fits"] if r["solver"] == "exact" and r["problem"] == problem and r["n_spec"] == n_spec and r["C"] == C]
    return rs[-1] if rs else None


def plot(results, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cs = cells(results)
    groups = groups_of(results)
    if not groups:
        return False
    cols = min(4, len(groups))
    rows = math.ceil(len(groups) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.3 * cols, 3.4 * rows), squeeze=False)
    for ax, (problem, n_spec) in zip(axes.flat, groups):
        budgeted = [r for r in results["fits"] if r["problem"] == problem and r["n_spec"] == n_spec and r["B"]]
        Bs = sorted({r["B"] for r in budgeted})
        eps = sorted({r["epochs"] for r in budgeted})
        Cs = sorted({r["C"] for r in results["fits"] if r["problem"] == problem and r["n_spec"] == n_spec})
        B = 500 if 500 in Bs else (max(Bs) if Bs else None)
        ep = 10 if 10 in eps else (max(eps) if eps else None)
        lines = [("bsca", ep, "C0", "o-", f"BSCA B={B}, {ep} ep"), ("bsgd", ep, "C1", "s-", f"BSGD B={B}, {ep} ep")]
        if 1 in eps and ep != 1:
            lines.append(("bsca", 1, "C0", "o--", f"BSCA B={B}, 1 ep"))
        for solver, e, color, style, label in lines:
            pts = [(math.log2(C), med_acc(cs, (problem, n_spec, solver, C, B, e))) for C in Cs]
            pts = [(x, 100 * a) for x, a in pts if a is not None]
            if pts:
                ax.plot(*zip(*pts), style, color=color, label=label, ms=4, mfc="none" if "--" in style else color)
        pts = [(math.log2(C), med_acc(cs, (problem, n_spec, "exact", C, None, None))) for C in Cs]
        pts = [(x, 100 * a) for x, a in pts if a is not None]
        if pts:
            ax.plot(*zip(*pts), "x-", color="black", label="exact SVC", ms=5)
        gamma = results["gamma"].get(problem, {}).get("gamma")
        ax.set_title(f"{group_label(results, problem, n_spec)}" + (f", gamma={gamma:.3g}" if gamma else ""), fontsize=9)
        ax.set_xlabel("log2 C")
        ax.set_ylabel("test accuracy [%]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    save_figure(fig, png, title="Noisy data: test accuracy over C (median over seeds)",
                unused=list(axes.flat)[len(groups):])
    return True


def problem_table(results, problem, n_spec, cs):
    fits = [r for r in results["fits"] if r["problem"] == problem and r["n_spec"] == n_spec]
    Cs = sorted({r["C"] for r in fits})
    cols = sorted({(r["B"], r["epochs"]) for r in fits if r["B"]})
    seeds = sorted({r["seed"] for r in fits if r["B"] and r["status"] == "ok"})
    info = results["problems"].get(f"{problem}@{fmt_n(n_spec)}", {})
    g = results["gamma"].get(problem, {})
    lines = [f"### {group_label(results, problem, n_spec)}", ""]
    desc = []
    if info:
        desc.append(f"{info['n_train']:,} training rows, {info['n_test']:,} test rows, d = {info['n_features']}; "
                    + "; ".join(info["notes"]) + ".")
    if g:
        desc.append(f"gamma = {g['gamma']:.4g} ({g['choice']}, g0 = {g['g0']:.4g}), chosen by 3-fold CV of the exact SVC on "
                    f"{g['rows']:,} rows (best over C in {{{', '.join(g['cv_C'])}}}): "
                    + ", ".join(f"{k} {100 * max(v.values()):.2f}%" for k, v in g["scores"].items()) + ".")
    lines += [" ".join(desc), ""]
    lines += ["Median test accuracy in % over seeds " + ", ".join(str(s) for s in seeds)
              + " (cells: BSCA / BSGD). Exact: accuracy (training seconds) or why it did not run.", ""]
    header = "| C | exact | " + " | ".join(f"B={B}, {e} ep" for B, e in cols) + " |"
    lines += [header, "|" + "---|" * (2 + len(cols))]
    for C in Cs:
        ex = exact_record(results, problem, n_spec, C)
        if ex is None:
            ecell = "-"
        elif ex["status"] == "ok":
            ecell = f"{pct(ex['accuracy'])} ({ex['seconds']:.{1 if ex['seconds'] < 10 else 0}f} s)"
        else:
            ecell = "skipped: " + ex["note"]
        row = [fmt_c(C), ecell]
        for B, e in cols:
            a = med_acc(cs, (problem, n_spec, "bsca", C, B, e))
            b = med_acc(cs, (problem, n_spec, "bsgd", C, B, e))
            row.append(f"{pct(a)} / {pct(b)}")
        lines.append("| " + " | ".join(row) + " |")
    row = ["median s", "-"]
    for B, e in cols:
        t = []
        for solver in SOLVERS:
            ss = [r["seconds"] for r in fits if r["solver"] == solver and r["B"] == B and r["epochs"] == e and r["status"] == "ok"]
            t.append(f"{median(ss):.2f}" if ss else "-")
        row.append(" / ".join(t))
    lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Last row: median training seconds (`fit_stats_[\"seconds\"]`) over C and seeds, BSCA / BSGD.", ""]
    return lines


def summary(results, cs):
    lines = ["## Summary: the targets", ""]
    groups = groups_of(results)
    # (1) where B = 2000 reaches the exact accuracy within 1 point: is BSCA B = 500, 10 epochs within 1.5 points?
    lines += ["### 1. BSCA at B = 500 after 10 epochs against the exact SVM", "",
              "Cells (problem, C) where the exact SVM ran and B = 2000 after 10 epochs (the better of BSCA and BSGD, "
              "median over seeds) is within 1 point of the exact accuracy. Target: there, BSCA at B = 500 after "
              "10 epochs is within 1.5 points of the exact accuracy.", ""]
    rows = []
    for problem, n_spec in groups:
        Cs = sorted({r["C"] for r in results["fits"] if r["problem"] == problem and r["n_spec"] == n_spec})
        for C in Cs:
            ex = med_acc(cs, (problem, n_spec, "exact", C, None, None))
            b2 = [med_acc(cs, (problem, n_spec, s, C, 2000, 10)) for s in SOLVERS]
            b5 = med_acc(cs, (problem, n_spec, "bsca", C, 500, 10))
            if ex is None or all(v is None for v in b2) or b5 is None:
                continue
            best2 = max(v for v in b2 if v is not None)
            if best2 < ex - 0.01:
                continue
            rows.append((problem, n_spec, C, ex, b2, b5))
    if rows:
        lines += ["| problem | C | exact % | B=2000 10 ep BSCA / BSGD % | BSCA B=500 10 ep % | BSCA - exact | within 1.5 |",
                  "|---|---|---|---|---|---|---|"]
        ok = 0
        for problem, n_spec, C, ex, b2, b5 in rows:
            passed = b5 >= ex - 0.015
            ok += passed
            lines.append(f"| {group_label(results, problem, n_spec)} | {fmt_c(C)} | {pct(ex)} | {pct(b2[0])} / {pct(b2[1])} | "
                         f"{pct(b5)} | {100 * (b5 - ex):+.2f} | {'yes' if passed else '**no**'} |")
        verdict = "MET" if ok == len(rows) else "NOT MET"
        lines += ["", f"**{verdict}**: BSCA at B = 500 after 10 epochs is within 1.5 points of the exact SVM in "
                  f"{ok} of {len(rows)} such cells.", ""]
    else:
        lines += ["Not measured: no cell has the exact SVM, B = 2000 and B = 500 after 10 epochs with B = 2000 within "
                  "1 point of exact (the grid lacks one of them, or B = 2000 never came that close).", ""]
    # (2) BSCA vs BSGD at the same (C, gamma, B, epochs)
    lines += ["### 2. BSCA against BSGD at the same (problem, C, gamma, B, epochs)", ""]
    pairs = []
    for (problem, n_spec, solver, C, B, e), rs in cs.items():
        if solver != "bsca":
            continue
        other = cs.get((problem, n_spec, "bsgd", C, B, e))
        if other:
            pairs.append((problem, n_spec, C, B, e, median([r["accuracy"] for r in rs]), median([r["accuracy"] for r in other])))
    if pairs:
        a = [p[5] for p in pairs]
        b = [p[6] for p in pairs]
        diff = [x - y for x, y in zip(a, b)]
        worse = sorted([p for p in pairs if p[5] < p[6] - 0.01], key=lambda p: p[5] - p[6])
        lines += [f"Over {len(pairs)} cells (each the median over seeds): median accuracy BSCA {pct(median(a))} %, "
                  f"BSGD {pct(median(b))} %; median of the per-cell difference BSCA - BSGD {100 * median(diff):+.2f} points; "
                  f"BSCA higher in {sum(d > 0 for d in diff)}, equal in {sum(d == 0 for d in diff)}, lower in "
                  f"{sum(d < 0 for d in diff)} cells.", ""]
        by_b = {}
        for p, d in zip(pairs, diff):
            by_b.setdefault((p[3], p[4]), []).append(d)
        lines += ["| B | epochs | cells | median BSCA - BSGD (points) |", "|---|---|---|---|"]
        for (B, e), ds in sorted(by_b.items()):
            lines.append(f"| {B} | {e} | {len(ds)} | {100 * median(ds):+.2f} |")
        lines.append("")
        if worse:
            lines += [f"Cells where BSCA is more than 1 point below BSGD ({len(worse)}):", "",
                      "| problem | C | B | epochs | BSCA % | BSGD % | difference |", "|---|---|---|---|---|---|---|"]
            for problem, n_spec, C, B, e, x, y in worse:
                lines.append(f"| {group_label(results, problem, n_spec)} | {fmt_c(C)} | {B} | {e} | {pct(x)} | {pct(y)} | {100 * (x - y):+.2f} |")
            lines.append("")
        else:
            lines += ["No cell has BSCA more than 1 point below BSGD.", ""]
    else:
        lines += ["Not measured: no cell has both solvers.", ""]
    # (3) 10 epochs minus 3 epochs
    lines += ["### 3. More epochs: test accuracy after 10 epochs minus after 3 epochs", ""]
    drifts = {s: [] for s in SOLVERS}
    detail = []
    for (problem, n_spec, solver, C, B, e), rs in cs.items():
        if solver in SOLVERS and e == 10:
            three = cs.get((problem, n_spec, solver, C, B, 3))
            if three:
                d = median([r["accuracy"] for r in rs]) - median([r["accuracy"] for r in three])
                drifts[solver].append(d)
                if solver == "bsca":
                    detail.append((d, problem, n_spec, C, B))
    if drifts["bsca"]:
        m = median(drifts["bsca"])
        verdict = "MET" if 100 * m >= -0.5 else "NOT MET"
        lines += [f"BSCA: median over {len(drifts['bsca'])} cells (problem, C, B) of acc(10 ep) - acc(3 ep) = "
                  f"{100 * m:+.2f} points (target >= -0.50): **{verdict}**. "
                  + (f"For reference BSGD: {100 * median(drifts['bsgd']):+.2f} points over {len(drifts['bsgd'])} cells. "
                     if drifts["bsgd"] else "")
                  + f"BSCA cells that lost more than 0.5 points: {sum(d < -0.005 for d, *_ in detail)}.", ""]
        worst = sorted(detail)[:5]
        if worst and worst[0][0] < 0:
            lines += ["The BSCA cells that lost most: " + "; ".join(
                f"{group_label(results, p, n)} C = {fmt_c(C)} B = {B}: {100 * d:+.2f}" for d, p, n, C, B in worst if d < 0) + ".", ""]
    else:
        lines += ["Not measured: the grid has no cell with both 3 and 10 epochs.", ""]
    return lines


def report(results, stem):
    cs = cells(results)
    png_ok = plot(results, stem.with_suffix(".png"))
    sessions = results["sessions"]
    first, last = (sessions[0], sessions[-1]) if sessions else ({}, {})
    lines = ["# Noisy-data benchmark: BSCA against BSGD against the exact SVM", ""]
    lines += [f"Date: {first.get('start', '?')}" + (f" to {last.get('end')}" if last.get("end") else "") + ". "
              f"CPU: {first.get('cpu', cpu_model())}, {first.get('cores', os.cpu_count())} cores (shared with other work: "
              f"times are noisy). Python {first.get('python', platform.python_version())}, budgetsvm commit "
              f"{first.get('commit', '?')}.", ""]
    la = lambda v: "/".join(f"{x:.2f}" for x in v) if v else "?"  # noqa: E731
    lines += [f"Load average (1/5/15 min) before: {la(first.get('load_before'))}; after: {la(last.get('load_after'))}.", ""]
    lines += ["Command" + ("s (one per session; later sessions resumed the earlier)" if len(sessions) > 1 else "") + ":", ""]
    for s in sessions:
        wall = f"{s['wall_seconds'] / 60:.1f} min" if s.get("wall_seconds") is not None else "did not finish"
        lines.append(f"- `{s['command']}` (grid {s['grid']}, started {s['start']}, {s['fits_run']} fits, wall {wall}, "
                     f"load before {la(s.get('load_before'))}, after {la(s.get('load_after'))}, exact budget "
                     f"{s['exact_seconds']:.0f} s)")
    lines += ["", "Training time: `fit_stats_[\"seconds\"]` of `BudgetedSVC` (the core's epochs, one thread); "
              "`time.perf_counter` around `SVC.fit` for the exact SVM (ALFPGM, float64 input, cache 1000 MB). Every "
              "epochs value is a separate fit. The exact SVM runs per (problem, C) only if a 10,000-row pilot "
              "predicts (t * (n/10k)^2) that it finishes within its budget; then on the full training set. "
              "BSCA / BSGD run with their defaults (lookup-WD merging, `fit_intercept=False`, no class weights).", ""]
    if results.get("notes"):
        lines += ["Notes:", ""] + [f"- {n}" for n in results["notes"]] + [""]
    lines += ["## Results per problem", ""]
    for problem, n_spec in groups_of(results):
        lines += problem_table(results, problem, n_spec, cs)
    lines += summary(results, cs)
    if png_ok:
        lines += ["## Plot", "", "Test accuracy over log2 C, one panel per problem: BSCA and BSGD at B = 500 after 10 epochs "
                  "(or the largest B / epochs the grid has), BSCA after 1 epoch dashed, the exact SVM in black.", "",
                  f"![noisy]({stem.with_suffix('.png').name})", ""]
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------ main


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grid", choices=("core", "full"), default="core")
    parser.add_argument("--smoke", action="store_true", help="tiny grid (< 1 min), written to bench/results/noisy_smoke.*")
    parser.add_argument("--out", help="output stem (STEM.json, STEM.md, STEM.png); default bench/results/noisy")
    parser.add_argument("--problems", nargs="+", help=f"problems to run, of {PROBLEMS}")
    parser.add_argument("--C", nargs="+", help="C values, as 2^k or numbers")
    parser.add_argument("--budgets", nargs="+", type=int)
    parser.add_argument("--epochs", nargs="+", type=int)
    parser.add_argument("--seeds", nargs="+", type=int)
    parser.add_argument("--n", nargs="+", type=int, help="training rows of the generated problems")
    parser.add_argument("--test-rows", type=int, help="test rows of the generated problems (default 50,000; smoke 10,000)")
    parser.add_argument("--exact-seconds", type=float, help="time budget per exact SVC fit (default: full 120, core 45, smoke 15)")
    parser.add_argument("--no-exact", action="store_true", help="skip the exact SVM")
    parser.add_argument("--n-jobs", type=int, default=None, help="BudgetedSVC n_jobs: threads, the same model for any (default None: one thread)")
    parser.add_argument("--resume", action="store_true", help="keep the JSON's fits and skip the cells already present")
    parser.add_argument("--estimate", action="store_true", help="print the plan and its estimated time; fit nothing")
    parser.add_argument("--report-only", action="store_true", help="rewrite the .md and .png from the .json")
    args = parser.parse_args()
    stem = Path(args.out) if args.out else RESULTS / ("noisy_smoke" if args.smoke else "noisy")
    stem = stem.with_suffix("") if stem.suffix in (".json", ".md", ".png") else stem
    if args.report_only:
        results = json.loads(stem.with_suffix(".json").read_text())
        report(results, stem)
        log(f"wrote {stem.with_suffix('.md')}")
        return
    grid = build_grid(args)
    if args.estimate:
        for line in print_estimate(grid, build_tasks(grid, exact=not args.no_exact)):
            print(line)
        return
    results = run(args, grid, stem)
    report(results, stem)
    log(f"wrote {stem.with_suffix('.json')}, {stem.with_suffix('.md')}, {stem.with_suffix('.png')}")


if __name__ == "__main__":
    main()
