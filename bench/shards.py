"""Shards against one machine: test accuracy and time of ``BudgetedSVC`` with
``shards`` mixed every epoch (``shard_mix="merge"``) and trained apart
(``shard_mix="union"``), on generated families (``bench/datagen.py``) at the
C where one machine scores best on the grid, one thread against two.

For each family: one machine (one and two threads: the same model) on the
``--C`` grid; at its best C, each shard count of ``--shards`` in both modes
on two threads (``n_jobs=2``). Test accuracy on independent rows; time the
median of ``--repeats`` fits (the same model each time).

    python bench/shards.py [--rows 1000000] [--budget 500] [--epochs 1] [--shards 8 32]
                           [--families xor20,overlap18,radial12,shells12,susy18] [--out bench/results/shards.md]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine_line, report  # noqa: E402
from datagen import FAMILIES, make  # noqa: E402

import budgetsvm  # noqa: E402


def timed_fit(X, y, repeats, **kw):
    """(median seconds, the fitted model) of `repeats` fits."""
    times, model = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        model = budgetsvm.BudgetedSVC(**kw).fit(X, y)
        times.append(time.perf_counter() - t)
    return float(np.median(times)), model


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--test-rows", type=int, default=200_000)
    ap.add_argument("--budget", type=int, default=500)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--C", type=float, nargs="+", default=[0.01, 0.1, 1.0])
    ap.add_argument("--shards", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--families", default="xor20,overlap18,radial12,shells12,susy18")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 50k rows, two families, 4 shards, 1 repeat")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    if args.quick:
        args.rows, args.test_rows, args.shards, args.families, args.repeats = 50_000, 20_000, [4], "xor20,overlap18", 1
    lines = ["# Shards: merged every epoch or trained apart, against one machine", "", machine_line(), "",
             "`python bench/shards.py " + " ".join(sys.argv[1:]) + "`", "",
             f"{args.rows:,} training rows, {args.test_rows:,} test rows, budget={args.budget}, "
             f"epochs={args.epochs}, solver=bsca; times: median of {args.repeats} fits; load average "
             f"{os.getloadavg()[0]:.2f} at the start", "",
             "| family | best C | one machine, 1 thread | 2 threads | "
             + " | ".join(f"{k} shards {mix}" for k in args.shards for mix in ("merge", "union")) + " |",
             "| --- | ---: | --- | --- | " + " | ".join("---" for _ in args.shards for _ in range(2)) + " |"]
    for family in args.families.split(","):
        X, y = make(family, args.rows, seed=0)
        Xt, yt = make(family, args.test_rows, seed=0, test=True)
        base = dict(budget=args.budget, gamma=FAMILIES[family]["gamma"], epochs=args.epochs, random_state=0)
        scores = {C: budgetsvm.BudgetedSVC(C=C, **base).fit(X, y).score(Xt, yt) for C in args.C}
        C = max(scores, key=scores.get)
        base["C"] = C
        t1, one = timed_fit(X, y, args.repeats, n_jobs=1, **base)
        t2, _ = timed_fit(X, y, args.repeats, n_jobs=2, **base)
        acc1 = 100 * one.score(Xt, yt)
        cells = [f"{acc1:.2f}%, {t1:.2f} s", f"{t2:.2f} s ({t1 / t2:.2f}x)"]
        for k in args.shards:
            for mix in ("merge", "union"):
                t, m = timed_fit(X, y, args.repeats, n_jobs=2, shards=k, shard_mix=mix, **base)
                acc = 100 * m.score(Xt, yt)
                cells.append(f"{acc:.2f}% ({acc - acc1:+.2f}), {t:.2f} s ({t1 / t:.2f}x), {m.n_support_} SVs")
                print(family, C, k, mix, cells[-1], flush=True)
        lines.append(f"| {family} | {C:g} | " + " | ".join(cells) + " |")
    lines += ["", "Speed-ups are against one machine on one thread; accuracy differences in points against it.", ""]
    report(lines, args.out)


if __name__ == "__main__":
    main()
