"""One budgeted epoch against its arithmetic floor, over the budget and the rows.

Every step of an epoch needs the kernel row of its point against the B
support vectors: B dot products of d features and B exponentials. The
floor of one pass over n rows is therefore

    n B (2 d / F + E)

with F the machine's multiply-add rate on the tile's shape (numpy's float64
matrix product of a 256 x d block by d x B, one BLAS thread, in flops per
second) and E its time per float64 exponential (numpy's ``np.exp`` over a
large array), both measured here at the start of the run. Budget
maintenance (merging) and the steps' own bookkeeping come on top and are
not in the floor.

For each budget B (at --rows rows) and each row count n (at --budget), one
pass of ``BudgetedSVC(solver=..., epochs=1)`` over a generated problem
(``bench/datagen.py``, float32 rows) is timed with n_jobs=1 and n_jobs=2 (the
same model: checked), reporting rows per second, the multiple of the floor
and the two-thread speed-up, the median of --repeats runs timed
interleaved. Also the log-log slope of time against B.

    python bench/training_floor.py                         # B 250..8000 at 1M rows, n 1e5..1e7 at B = 1000
    python bench/training_floor.py --budgets 500 2000 --row-counts --rows 200000 --repeats 1   # quick

Writes bench/results/training_floor.md and .json.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from _common import ROOT, machine_line, write_lines  # noqa: E402
from datagen import FAMILIES, make  # noqa: E402

sys.path.insert(0, str(ROOT / "python"))

RESULTS = ROOT / "bench" / "results"


def machine_rates(d: int, budget: int, repeats: int = 5) -> tuple[float, float]:
    """(multiply-add flops per second on a 256 x d by d x budget product,
    seconds per float64 exponential), the best of `repeats`."""
    rng = np.random.default_rng(0)
    A = rng.standard_normal((256, d))
    Bt = rng.standard_normal((d, budget))
    out = np.empty((256, budget))
    reps = max(1, int(2e8 / (2 * 256 * d * budget)))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(reps):
            np.matmul(A, Bt, out=out)
        best = min(best, (time.perf_counter() - start) / reps)
    flops = 2.0 * 256 * d * budget / best
    x = -rng.random(4_000_000) * 20.0
    y = np.empty_like(x)
    best_exp = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        np.exp(x, out=y)
        best_exp = min(best_exp, (time.perf_counter() - start) / x.size)
    return flops, best_exp


def floor_seconds(n: int, budget: int, d: int, flops: float, exp_seconds: float) -> float:
    return n * budget * (2.0 * d / flops + exp_seconds)


def one_pass(X, y, budget: int, solver: str, gamma: float, n_jobs: int):
    from budgetsvm import BudgetedSVC

    est = BudgetedSVC(budget=budget, C=1.0, gamma=gamma, solver=solver, epochs=1, n_jobs=n_jobs, random_state=0)
    start = time.perf_counter()
    est.fit(X, y)
    return time.perf_counter() - start, est


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", default="overlap18", choices=sorted(FAMILIES))
    parser.add_argument("--solver", default="bsca", choices=("bsca", "bsgd"))
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the budget sweep")
    parser.add_argument("--budgets", type=int, nargs="*", default=[250, 500, 1000, 2000, 4000, 8000])
    parser.add_argument("--budget", type=int, default=1000, help="budget of the row sweep")
    parser.add_argument("--row-counts", type=int, nargs="*", default=[100_000, 1_000_000, 10_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(RESULTS / "training_floor"), help="results path without extension")
    args = parser.parse_args()

    d = FAMILIES[args.family]["d"]
    gamma = FAMILIES[args.family]["gamma"]
    cells = [(args.rows, b) for b in args.budgets] + [(n, args.budget) for n in args.row_counts]
    rates = {b: machine_rates(d, b) for b in sorted({b for _, b in cells})}
    rows = []
    loads = []
    largest = max(n for n, _ in cells)
    X_all, y_all = make(args.family, largest, seed=0)
    for n, budget in cells:
        X, y = X_all[:n], y_all[:n]
        flops, exp_s = rates[budget]
        floor = floor_seconds(n, budget, d, flops, exp_s)
        times = {1: [], 2: []}
        models = {}
        for _ in range(args.repeats):
            loads.append(os.getloadavg()[0])
            for jobs in (1, 2):
                seconds, est = one_pass(X, y, budget, args.solver, gamma, jobs)
                times[jobs].append(seconds)
                models[jobs] = est
        same = bool(np.array_equal(models[1].dual_coef_, models[2].dual_coef_)
                    and np.array_equal(models[1].support_vectors_, models[2].support_vectors_))
        t1, t2 = statistics.median(times[1]), statistics.median(times[2])
        row = {
            "rows": n, "budget": budget, "floor_seconds": floor, "seconds_1": t1, "seconds_2": t2,
            "rows_per_second_1": n / t1, "rows_per_second_2": n / t2, "floor_multiple_1": t1 / floor,
            "floor_multiple_2": t2 / floor, "speedup_2": t1 / t2, "same_model": same,
            "merges": int(models[1].fit_stats_["merges"]), "times_1": times[1], "times_2": times[2],
        }
        rows.append(row)
        print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()
                          if not k.startswith("times")}), flush=True)

    sweep = [r for r in rows[: len(args.budgets)]]
    slope = None
    if len(sweep) >= 2:
        slope = float(np.polyfit(np.log([r["budget"] for r in sweep]), np.log([r["seconds_1"] for r in sweep]), 1)[0])
    result = {"machine": machine_line(), "family": args.family, "solver": args.solver, "features": d,
              "rates": {str(b): {"flops": f, "seconds_per_exp": e} for b, (f, e) in rates.items()},
              "load_average": loads, "cells": rows, "loglog_slope_1": slope}
    Path(args.out + ".json").write_text(json.dumps(result, indent=1) + "\n")
    lines = [
        "# One budgeted epoch against its arithmetic floor",
        "",
        f"{machine_line()}. `python bench/training_floor.py` (family {args.family}, {d} features, "
        f"{args.solver}, one pass, C = 1, gamma = {gamma:g}; median of {args.repeats} runs; 1-minute load "
        f"average {min(loads):.1f}-{max(loads):.1f} over the run).",
        "",
        "Floor: n B (2 d / F + E) at this machine's measured rates "
        + ", ".join(f"B = {b}: F = {f / 1e9:.1f} GFLOP/s" for b, (f, _) in sorted(rates.items()))
        + f"; E = {list(rates.values())[0][1] * 1e9:.2f} ns per exponential.",
        "",
        "| rows | B | floor s | 1 thread s | x floor | rows/s | 2 threads s | x floor | speed-up | same model | merges |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|:-:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['rows']:,} | {r['budget']} | {r['floor_seconds']:.2f} | {r['seconds_1']:.2f} | "
            f"{r['floor_multiple_1']:.2f} | {r['rows_per_second_1']:,.0f} | {r['seconds_2']:.2f} | "
            f"{r['floor_multiple_2']:.2f} | {r['speedup_2']:.2f} | {'yes' if r['same_model'] else 'NO'} | "
            f"{r['merges']:,} |")
    if slope is not None:
        lines += ["", f"Log-log slope of one-thread time against B at {args.rows:,} rows: {slope:.2f}."]
    write_lines(args.out + ".md", lines)


if __name__ == "__main__":
    main()
