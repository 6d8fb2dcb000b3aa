"""A/B of two builds of budgetsvm on the budgeted benchmark's settings.

    python bench/ab_budgeted.py --a /path/to/old/python --b python [--solver bsca] [--epochs 3] [--n-jobs 2]

Each side is a directory holding an importable ``budgetsvm`` package (a
source tree's ``python/`` with its built extension, or a site-packages
directory). For every data set of bench/budgeted.py (its C, gamma, split and
scaling; cod-rna and skin_nonskin use the gamma of bench/results/budgeted.md;
or a generated set ``family:n[:noise]`` of bench/datagen.py with C = 1 and the
family's gamma, tested on 100,000 rows of its test stream)
and seeds 0-2, one fit of A and one of B (``n_jobs`` as given: 2 trains one
binary problem on two shards) run alternately, each in its own
process (so that neither build's import state leaks), and the core's
training seconds and test accuracy are recorded. Reported: median accuracy
of each side, B - A in points, and the median over seeds of the time ratio
B / A (pairs taken in the same alternation, so slow drifts of a shared
machine cancel). Writes bench/results/ab_budgeted.md (or --out).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from _common import ROOT, cpu_model

GAMMA_FROM_CV = {"cod-rna": 1.0, "skin_nonskin": 16.0}  # bench/results/budgeted.md, 3-fold CV

CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import numpy as np
import budgeted
from budgetsvm import BudgetedSVC
name, solver, epochs, seed, gamma = sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
n_jobs = int(sys.argv[8])
if ":" in name:  # a generated set, family:n[:noise] (bench/datagen.py), C = 1
    from datagen import FAMILIES, make
    family, n, *noise = name.split(":")
    noise = float(noise[0]) if noise else None
    X, y = make(family, int(float(n)), noise=noise, seed=0)
    Xt, yt = make(family, 100_000, noise=noise, seed=0, test=True)
    C, gamma = 1.0, FAMILIES[family]["gamma"]
else:
    spec = budgeted.DATASETS[name]
    spec["gamma"] = spec["gamma"] or gamma
    X, y, Xt, yt, C, gamma, notes, cv = budgeted.load(name, quick=False)
clf = BudgetedSVC(solver=solver, budget=500, C=C, gamma=gamma, epochs=epochs, random_state=seed, n_jobs=n_jobs).fit(X, y)
print(json.dumps({"acc": 100.0 * clf.score(Xt, yt), "seconds": clf.fit_stats_["seconds"]}))
"""


def run(side: str, name: str, solver: str, epochs: int, seed: int, n_jobs: int) -> dict:
    gamma = GAMMA_FROM_CV.get(name, 0.0)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, side, str(ROOT / "bench"), name, solver, str(epochs), str(seed), str(gamma), str(n_jobs)],
        check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--solver", default="bsca")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--datasets", nargs="+", default=["ijcnn1", "a9a", "w8a", "cod-rna", "phishing", "skin_nonskin"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "ab_budgeted"))
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    rows = []
    for name in args.datasets:
        pairs = []
        for seed in args.seeds:
            a = run(args.a, name, args.solver, args.epochs, seed, args.n_jobs)
            b = run(args.b, name, args.solver, args.epochs, seed, args.n_jobs)
            pairs.append((a, b))
            print(f"{name} seed {seed}: A {a['acc']:.2f}% {a['seconds']:.2f}s  B {b['acc']:.2f}% {b['seconds']:.2f}s",
                  file=sys.stderr, flush=True)
        rows.append({"dataset": name, "pairs": pairs})
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu_model(), "load_before": load_before, "load_after": os.getloadavg()[0],
        "command": "python bench/ab_budgeted.py " + " ".join(sys.argv[1:]),
    }
    Path(args.out + ".json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    lines = [
        f"# A/B: {args.solver}, B = 500, {args.epochs} epochs, lookup-wd, n_jobs = {args.n_jobs}",
        "",
        f"Date: {meta['date']}. Machine: {meta['cpu']}, 2 cores (load average {load_before:.1f} before, "
        f"{meta['load_after']:.1f} after). Command: `{meta['command']}`",
        "",
        "A and B alternate per seed, each fit in its own process; accuracy: median over seeds "
        f"{args.seeds}; time ratio: median over seeds of B / A (the core's training seconds).",
        "",
        "| data | A acc % | B acc % | B - A | A s | B s | B / A time |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        acc_a = statistics.median(a["acc"] for a, _ in r["pairs"])
        acc_b = statistics.median(b["acc"] for _, b in r["pairs"])
        sec_a = statistics.median(a["seconds"] for a, _ in r["pairs"])
        sec_b = statistics.median(b["seconds"] for _, b in r["pairs"])
        ratio = statistics.median(b["seconds"] / a["seconds"] for a, b in r["pairs"])
        lines.append(f"| {r['dataset']} | {acc_a:.2f} | {acc_b:.2f} | {acc_b - acc_a:+.2f} | {sec_a:.3f} | {sec_b:.3f} | {ratio:.3f} |")
    Path(args.out + ".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
