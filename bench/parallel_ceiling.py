"""Where a two-thread speed-up goes: the machine's ceiling, the algorithm's
extra work and the threads' own loss, measured apart.

For each fit (``solver:set``; ALFPGM with bench/exact.py's settings, BSCA with
bench/scale.py's, B = 500, five epochs), ``--rounds`` rounds each run, every
one in fresh processes that load the data and keep their fastest of
``--repeat`` fits:

- ``alone``: one process, ``n_jobs=1``;
- ``pair``: two such processes started together (the slower one counts);
  its time over ``alone`` is what two busy cores cost each other here
  (shared caches and memory, frequency, a virtual machine's host), so
  2 / (pair / alone) bounds any two-thread speed-up of that fit;
- ``two``: one process, ``n_jobs=2``;
- ``split`` (BSCA only): ``n_jobs=2`` in a process allowed one core
  (``os.sched_setaffinity``; the threads follow ``joblib.cpu_count()``, the
  two shards do not): the sharded algorithm's own work, its mixes
  included, on one thread.

Reported: the minima, ``alone / two`` (the speed-up), ``2 alone / pair`` (the
machine's ceiling) and, for BSCA, ``split / alone`` (the sharded run's work
over the sequential run's) and ``split / (2 two)`` (how close the two
threads come to halving that work). The 1-minute load average before each
fit is given; the runs' own processes are in it.

    BUDGETSVM_DATA=/work/shared/datasets PYTHONPATH=python:bench python bench/parallel_ceiling.py \\
        --fits alfpgm:ijcnn1,bsca:a9a --rounds 3 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import List, Optional

from _common import ROOT, machine_line, write_lines

MODES_ALFPGM = ("alone", "pair", "two")
MODES_BSCA = ("alone", "pair", "two", "split")


def child(kind: str, name: str, jobs: int, repeat: int, one_core: bool) -> None:
    if one_core:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import budgetsvm

    if kind == "alfpgm":
        import exact as E

        d = E.load(name, False)
        X, y = d["X"], d["y"]

        def make():
            return budgetsvm.SVC(C=d["C"], gamma=d["gamma"], tol=E.TOL, cache_size=E.CACHE_MB, solver="alfpgm",
                                 n_jobs=jobs)
    else:
        import scale as S

        X, y, _, _, (gamma, C) = S.real(name)

        def make():
            return budgetsvm.BudgetedSVC(solver="bsca", budget=500, C=C, gamma=gamma, epochs=5, n_jobs=jobs,
                                         random_state=0)

    best = float("inf")
    for _ in range(repeat):
        clf = make()
        t = time.perf_counter()
        clf.fit(X, y)
        best = min(best, time.perf_counter() - t)
    print(json.dumps({"seconds": best}))


def launch(kind: str, name: str, jobs: int, repeat: int, one_core: bool = False) -> subprocess.Popen:
    cmd = [sys.executable, __file__, "_child", kind, name, str(jobs), str(repeat)] + (["--one-core"] if one_core else [])
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)


def seconds(p: subprocess.Popen) -> float:
    out, _ = p.communicate()
    if p.returncode != 0:
        raise RuntimeError(f"a benchmark process failed ({p.returncode})")
    return float(json.loads(out.strip().splitlines()[-1])["seconds"])


def run_mode(kind: str, name: str, mode: str, repeat: int) -> float:
    if mode == "pair":
        procs = [launch(kind, name, 1, repeat) for _ in range(2)]
        return max(seconds(p) for p in procs)
    jobs = 1 if mode == "alone" else 2
    return seconds(launch(kind, name, jobs, repeat, one_core=mode == "split"))


def main(argv: Optional[List[str]] = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_child":
        child(argv[1], argv[2], int(argv[3]), int(argv[4]), "--one-core" in argv)
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fits", default="alfpgm:ijcnn1,bsca:a9a", help="solver:set pairs (alfpgm or bsca)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3, help="fits per process; the fastest counts")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "parallel_ceiling.md"))
    args = ap.parse_args(argv)
    if not hasattr(os, "sched_setaffinity"):
        raise SystemExit("parallel_ceiling needs os.sched_setaffinity (Linux)")
    command = "python bench/parallel_ceiling.py " + " ".join(argv)
    lines = [
        "# Two threads: the machine's ceiling, the algorithm's extra work, the threads' loss",
        "",
        f"Measured {machine_line()}. Command: `{command}`. Each time is the minimum over {args.rounds} rounds of "
        f"a process's fastest of {args.repeat} fits (wall clock); the modes alternate within each round. "
        "Load: the 1-minute load average before the fit's first round.",
        "",
        "| fit | load | alone s | pair s | two threads s | split s | speed-up alone / two | ceiling 2 alone / pair "
        "| split / alone | split / (2 two) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for spec in args.fits.split(","):
        kind, name = spec.split(":", 1)
        if kind not in ("alfpgm", "bsca"):
            raise SystemExit(f"unknown solver {kind!r}: alfpgm or bsca")
        modes = MODES_ALFPGM if kind == "alfpgm" else MODES_BSCA
        load = os.getloadavg()[0]
        times = {m: [] for m in modes}
        for r in range(args.rounds):
            order = modes if r % 2 == 0 else tuple(reversed(modes))
            for mode in order:
                times[mode].append(run_mode(kind, name, mode, args.repeat))
                print(spec, mode, f"{times[mode][-1]:.3f}", flush=True)
        t = {m: min(v) for m, v in times.items()}
        split = t.get("split")
        cells = [spec, f"{load:.1f}", f"{t['alone']:.3f}", f"{t['pair']:.3f}", f"{t['two']:.3f}",
                 f"{split:.3f}" if split else "-", f"{t['alone'] / t['two']:.2f}", f"{2 * t['alone'] / t['pair']:.2f}",
                 f"{split / t['alone']:.3f}" if split else "-", f"{split / (2 * t['two']):.3f}" if split else "-"]
        row = "| " + " | ".join(cells) + " |"
        print(row, flush=True)
        lines.append(row)
    write_lines(args.out, lines)


if __name__ == "__main__":
    main()
