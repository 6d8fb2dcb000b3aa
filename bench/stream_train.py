"""Training from an svmlight file many times larger than the memory used:
BudgetedSVC.partial_fit over iter_svmlight chunks against fit on the same
rows held in memory.

Steps, each in a fresh Python process (memory = the process's peak resident
set size minus its size after the imports):

  1. generate: --rows rows of a generated family (datagen.py; default susy18,
     20% label noise) written as a label-sorted svmlight file (all +1 rows,
     then all -1 rows), values with 5 significant digits;
  2. shuffle: shuffle_svmlight of that file (--memory-rows lines a bucket);
  3. stream: one pass of partial_fit over iter_svmlight chunks of the
     shuffled file (--chunk-rows), then test accuracy;
  4. sorted (with --sorted-pass): the same over the label-sorted file,
     unshuffled (what goes wrong without the shuffle);
  5. memory: fit(epochs=1) on the same rows made in memory (float32).

The test set is 100,000 rows from the family's independent test stream.
The files are deleted at the end (--keep keeps them).

    python bench/stream_train.py --rows 1e7 --C 0.1 [--dir /tmp] [--out bench/results/stream_train.md]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ROOT, machine_line

_STEP = r"""
import json, os, resource, sys, time
sys.path.insert(0, {bench!r}); sys.path.insert(0, {python!r})
import numpy as np
import budgetsvm
from datagen import make

def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")

a = json.loads({args!r})
NOISE = a["noise"]
start_rss = rss_mb()
t = time.perf_counter()
out = {{}}
if a["step"] == "generate":
    X, y = make(a["family"], a["rows"], noise=NOISE, seed=0)
    fmt = "%d " + " ".join(f"{{j + 1}}:%.5g" for j in range(X.shape[1]))
    with open(a["path"], "wb") as f:
        for label in (1, -1):
            rows = np.flatnonzero(y == label)
            for s in range(0, rows.size, 100_000):
                block = rows[s:s + 100_000]
                np.savetxt(f, np.column_stack([y[block], X[block]]), fmt=fmt)
    out["rows"] = int(y.size)
    out["positives"] = int((y == 1).sum())
elif a["step"] == "shuffle":
    budgetsvm.shuffle_svmlight(a["path"], a["dst"], random_state=0, memory_rows=a["memory_rows"])
elif a["step"] in ("stream", "memory"):
    clf = budgetsvm.BudgetedSVC(solver=a["solver"], budget=a["budget"], C=a["C"], gamma=a["gamma"],
                                random_state=0)
    if a["step"] == "stream":
        seen = 0
        for X, y in budgetsvm.iter_svmlight(a["path"], chunk_rows=a["chunk_rows"], n_features=a["d"],
                                            zero_based=False, dtype=np.float32):
            clf.partial_fit(X, y, classes=[-1.0, 1.0])
            seen += X.shape[0]
        out["rows"] = seen
    else:
        X, y = make(a["family"], a["rows"], noise=NOISE, seed=0)
        out["input_mb"] = (X.nbytes + y.nbytes) / 2**20
        t = time.perf_counter()  # the fit alone, not making the rows
        clf.fit(X, y)
        out["rows"] = int(y.size)
    out["train_seconds"] = time.perf_counter() - t
    out["peak_over_start_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - start_rss
    Xt, yt = make(a["family"], 100_000, noise=NOISE, seed=0, test=True)
    out["accuracy"] = float(clf.score(Xt, yt))
    out["support_vectors"] = int(clf.support_vectors_.shape[0])
out.setdefault("train_seconds", time.perf_counter() - t)
out.setdefault("peak_over_start_mb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - start_rss)
out["load"] = round(os.getloadavg()[0], 2)
print(json.dumps(out))
"""


def run(step: str, **args) -> dict:
    args["step"] = step
    code = _STEP.format(bench=str(ROOT / "bench"), python=str(ROOT / "python"), args=json.dumps(args))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    record = json.loads(result.stdout.strip().splitlines()[-1])
    print(step, record, flush=True)
    return record


def main() -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from datagen import FAMILIES, default_gamma

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=lambda s: int(float(s)), default=10_000_000)
    ap.add_argument("--family", default="susy18", choices=sorted(FAMILIES))
    ap.add_argument("--solver", default="bsca", choices=["bsca", "bsgd"])
    ap.add_argument("--budget", type=int, default=500)
    ap.add_argument("--C", type=float, default=0.1)
    ap.add_argument("--chunk-rows", type=int, default=10_000)
    ap.add_argument("--memory-rows", type=int, default=1_000_000)
    ap.add_argument("--sorted-pass", action="store_true", help="also train on the label-sorted file unshuffled")
    ap.add_argument("--dir", default=tempfile.gettempdir())
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--out", default=None, help="write the markdown report here")
    args = ap.parse_args()

    family = FAMILIES[args.family]
    common = dict(family=args.family, rows=args.rows, noise=family["noise"], d=family["d"],
                  gamma=default_gamma(args.family), solver=args.solver, budget=args.budget, C=args.C,
                  chunk_rows=args.chunk_rows)
    work = Path(tempfile.mkdtemp(prefix="stream_train_", dir=args.dir))
    sorted_path, shuffled_path = work / "sorted.svm", work / "shuffled.svm"
    steps = {}
    try:
        steps["generate"] = run("generate", path=str(sorted_path), **common)
        size_mb = sorted_path.stat().st_size / 2**20
        steps["shuffle"] = run("shuffle", path=str(sorted_path), dst=str(shuffled_path),
                               memory_rows=args.memory_rows, **common)
        steps["stream"] = run("stream", path=str(shuffled_path), **common)
        if args.sorted_pass:
            steps["sorted"] = run("stream", path=str(sorted_path), **common)
        steps["memory"] = run("memory", **common)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    report = write_report(args, size_mb, steps)
    print(report)
    if args.out:
        Path(args.out).write_text(report)


def write_report(args, size_mb: float, steps: dict) -> str:
    cmd = " ".join(["python bench/stream_train.py"] + sys.argv[1:])
    lines = [
        "# Training from a file larger than the memory it uses", "",
        f"Measured {machine_line()}. Command: `{cmd}`.", "",
        f"Generated {args.family} file: {steps['generate']['rows']:,} rows, {size_mb:,.0f} MB of text, label-sorted "
        f"({steps['generate']['positives']:,} positive rows first); shuffled by `shuffle_svmlight` "
        f"(memory_rows={args.memory_rows:,}). {args.solver.upper()}, B = {args.budget}, C = {args.C:g}, one pass. "
        "Memory is the peak resident set size of the step's process over its size after the imports (for the "
        "in-memory fit: the input included). Seconds are wall-clock on a shared machine (load in the last column).",
        "",
        "| step | seconds | peak RSS over start (MB) | file / peak RSS | test accuracy | load |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    names = {"generate": "generate (numpy in memory, then text)", "shuffle": "shuffle_svmlight",
             "stream": "partial_fit over iter_svmlight (shuffled file)",
             "sorted": "partial_fit over iter_svmlight (label-sorted file, no shuffle)",
             "memory": "fit(epochs=1) on the rows in memory (float32; time of fit alone)"}
    for key, r in steps.items():
        acc = f"{100 * r['accuracy']:.2f}%" if "accuracy" in r else ""
        ratio = f"{size_mb / r['peak_over_start_mb']:.0f}x" if key in ("stream", "sorted") else ""
        if key == "memory":
            ratio = f"(input {r['input_mb']:.0f} MB)"
        lines.append(f"| {names[key]} | {r['train_seconds']:.1f} | {r['peak_over_start_mb']:.0f} | {ratio} | {acc} | "
                     f"{r['load']} |")
    if "stream" in steps and "memory" in steps:
        diff = 100 * (steps["stream"]["accuracy"] - steps["memory"]["accuracy"])
        lines += ["", f"Streaming against in-memory fit: {diff:+.2f} points of test accuracy."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
