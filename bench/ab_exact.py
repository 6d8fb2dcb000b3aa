"""A/B of two builds of budgetsvm on the exact SVM's fit (bench/exact.py's data sets and settings).

    python bench/ab_exact.py --a /path/to/old/python --b python [--datasets cod-rna,ijcnn1]
        [--solvers alfpgm,smo] [--n-jobs 1] [--repeats 3] [--out bench/results/ab_exact.md]

Each side is a directory holding an importable ``budgetsvm`` package (a source
tree's ``python/`` with its built extension). For every data set and solver,
one fit of A and one of B run in turn (the order alternating from repeat to
repeat), each in its own process, with the data set's C and gamma, tol = 1e-3
and a 200 MB cache. Reported: the minimum wall-clock seconds of ``fit`` of
each side over the repeats, B / A, the 1-minute load average before the
data set's runs, and both sides' dual objectives (a change that only
reschedules the arithmetic must leave them equal).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from _common import ROOT, machine_line

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import budgetsvm
import exact as E
name, solver, jobs = sys.argv[3], sys.argv[4], int(sys.argv[5])
d = E.load(name, False)
clf = budgetsvm.SVC(C=d["C"], gamma=d["gamma"], tol=E.TOL, cache_size=E.CACHE_MB, solver=solver, n_jobs=jobs)
t = time.perf_counter()
clf.fit(d["X"], d["y"])
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "dual_objective": float(clf.dual_objective_[0]),
                  "n_support": int(clf.support_vectors_.shape[0])}))
"""


def child(side: str, name: str, solver: str, jobs: int) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, side, str(ROOT / "bench"), name, solver, str(jobs)],
                         env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--datasets", default="cod-rna,ijcnn1,a9a,w8a")
    ap.add_argument("--solvers", default="alfpgm,smo")
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "ab_exact.md"))
    args = ap.parse_args()
    sides = {"A": str(Path(args.a).resolve()), "B": str(Path(args.b).resolve())}
    command = "python bench/ab_exact.py " + " ".join(sys.argv[1:])
    lines = [
        "# Exact SVM fit A/B",
        "",
        f"Measured {machine_line()}. Command: `{command}`. A = before, B = after; the minimum wall-clock seconds of "
        f"`fit` over {args.repeats} interleaved runs (each in its own process, the order alternating), "
        f"n_jobs = {args.n_jobs}; load: the 1-minute load average before the data set's runs.",
        "",
        "| data set | solver | load | A (s) | B (s) | B / A | dual objective A / B |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for name in args.datasets.split(","):
        for solver in args.solvers.split(","):
            load = os.getloadavg()[0]
            runs: dict[str, list[dict]] = {"A": [], "B": []}
            for r in range(args.repeats):
                for side in ("A", "B") if r % 2 == 0 else ("B", "A"):
                    runs[side].append(child(sides[side], name, solver, args.n_jobs))
            a = min(x["seconds"] for x in runs["A"])
            b = min(x["seconds"] for x in runs["B"])
            objectives = " / ".join(f"{runs[s][0]['dual_objective']:.10g}" for s in ("A", "B"))
            row = f"| {name} | {solver} | {load:.1f} | {a:.3f} | {b:.3f} | {b / a:.3f} | {objectives} |"
            print(row, flush=True)
            lines.append(row)
    lines.append("")
    Path(args.out).write_text("\n".join(lines))


if __name__ == "__main__":
    main()
