"""Two threads against one for the exact SVM (issue 14's target: n_jobs=2
at least 1.7x faster than n_jobs=1 for ALFPGM on ijcnn1, a9a, w8a, cod-rna).

For each data set of bench/exact.py (same data, C, gamma, tol = 1e-3, cache
200 MB) and each solver, fits with n_jobs=1 and n_jobs=2 run interleaved
--repeat times; the table gives the minimum of each, the speed-up (minimum
with one thread over minimum with two), and the 1-minute load average before
each data set. Both fits must reach the same dual objective (printed).

    BUDGETSVM_DATA=/work/shared/datasets PYTHONPATH=python:bench python bench/exact_threads.py
    ... --datasets cod-rna --solvers alfpgm --repeat 5
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

os.environ.setdefault("OMP_NUM_THREADS", "1")

import budgetsvm  # noqa: E402
import exact as E  # noqa: E402
from _common import ROOT, interleaved_times, machine_line, write_lines  # noqa: E402


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default="ijcnn1,a9a,w8a,cod-rna")
    parser.add_argument("--solvers", default="alfpgm,smo")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "exact_threads.md"))
    args = parser.parse_args(argv)
    command = "python bench/exact_threads.py" + (" " + " ".join(sys.argv[1:]) if len(sys.argv) > 1 else "")
    lines = [
        "# Exact SVM: two threads against one",
        "",
        f"Measured {machine_line()}. Command: `{command}`. Minimum of {args.repeat} interleaved runs of `fit` "
        "(wall clock); speed-up = minimum with n_jobs=1 over minimum with n_jobs=2; load: 1-minute load average "
        "before each data set's runs.",
        "",
        "| data set | solver | load | n_jobs=1 (s) | n_jobs=2 (s) | speed-up | dual objective 1 / 2 threads |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for name in args.datasets.split(","):
        d = E.load(name, False)
        for solver in args.solvers.split(","):
            fitted = {}

            def fit(jobs: int, solver: str = solver) -> None:
                clf = budgetsvm.SVC(C=d["C"], gamma=d["gamma"], tol=E.TOL, cache_size=E.CACHE_MB, solver=solver,
                                    n_jobs=jobs)
                fitted[jobs] = clf.fit(d["X"], d["y"])

            times, loads = interleaved_times({1: lambda: fit(1), 2: lambda: fit(2)}, args.repeat)
            one, two = min(times[1]), min(times[2])
            objectives = " / ".join(f"{float(fitted[j].dual_objective_[0]):.8g}" for j in (1, 2))
            row = (f"| {name} | {solver} | {loads[0]:.1f} | {one:.3f} | {two:.3f} | {one / two:.2f} | "
                   f"{objectives} |")
            print(row, flush=True)
            lines.append(row)
    write_lines(args.out, lines)


if __name__ == "__main__":
    main()
