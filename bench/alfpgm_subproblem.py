"""ALFPGM's sub-problem solvers against each other: SMO steps on the working
set (subproblem="smo", the default) and the paper's augmented Lagrangian with
FPGM (subproblem="fpgm"); docs/exact.md.

For each data set of bench/exact.py (same data, C, gamma, tol = 1e-3, cache
200 MB; "noisy20k" is bench/exact_auto.py's generated problem with 20% of
the labels flipped) both fits run interleaved --repeat times on --jobs
threads; the table gives the minimum time of each and their ratio, the
decomposition rounds, the sub-problems' inner iterations (FPGM iterations /
SMO steps), the kernel columns computed, and the dual objective of each
(both stop at the same tolerance, so they agree to it, not to the bit).

    BUDGETSVM_DATA=/work/shared/datasets PYTHONPATH=python:bench python bench/alfpgm_subproblem.py
    ... --datasets cod-rna,noisy20k --repeat 5 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

import budgetsvm
import exact as E
import exact_auto as EA
from _common import ROOT, interleaved_times, machine_line, write_lines


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default="ijcnn1,a9a,w8a,cod-rna,noisy20k")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "alfpgm_subproblem.md"))
    args = parser.parse_args(argv)
    command = "python bench/alfpgm_subproblem.py" + (" " + " ".join(sys.argv[1:]) if len(sys.argv) > 1 else "")
    lines = [
        "# ALFPGM: the sub-problem by SMO steps against the paper's FPGM",
        "",
        f"Measured {machine_line()}. Command: `{command}`. n_jobs={args.jobs}; minimum of {args.repeat} "
        "interleaved runs of `fit` (wall clock); ratio = FPGM's minimum over SMO's; load: 1-minute load average "
        "before each data set's runs. Inner iterations: FPGM iterations (each a product with the working set's "
        "64 x 64 matrix at pairs=32) / SMO steps (each O(64)).",
        "",
        "| data set | load | fpgm (s) | smo (s) | fpgm / smo | rounds | inner iterations | kernel columns "
        "computed | dual objective |",
        "|---|---:|---:|---:|---:|---|---|---|---|",
    ]
    for name in args.datasets.split(","):
        d = EA.noisy(20000) if name == "noisy20k" else E.load(name, False)
        fitted = {}

        def fit(sub: str) -> None:
            clf = budgetsvm.SVC(C=d["C"], gamma=d["gamma"], tol=E.TOL, cache_size=E.CACHE_MB, solver="alfpgm",
                                subproblem=sub, n_jobs=args.jobs)
            fitted[sub] = clf.fit(d["X"], d["y"])

        times, loads = interleaved_times({"fpgm": lambda: fit("fpgm"), "smo": lambda: fit("smo")}, args.repeat)
        best = {k: min(v) for k, v in times.items()}

        def both(get) -> str:
            return " / ".join(get(fitted[k]) for k in ("fpgm", "smo"))

        row = (f"| {name} | {loads[0]:.1f} | {best['fpgm']:.3f} | {best['smo']:.3f} | "
               f"{best['fpgm'] / best['smo']:.2f}x | {both(lambda c: str(int(c.n_iter_[0])))} | "
               f"{both(lambda c: format(c.fit_details_[0]['inner_iterations'], ','))} | "
               f"{both(lambda c: format(c.fit_details_[0]['kernel_columns_computed'], ','))} | "
               f"{both(lambda c: format(float(c.dual_objective_[0]), '.8g'))} |")
        print(row, flush=True)
        lines.append(row)
    write_lines(args.out, lines)


if __name__ == "__main__":
    main()
