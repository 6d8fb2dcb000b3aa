"""Reading speed of budgetsvm.load_svmlight against scikit-learn's
load_svmlight_file, on every data set in the shared data folder.

Both readers run in this one process, alternating, so that machine noise
affects them alike; the table reports medians and the ratio ours / theirs.

    python bench/svmlight.py [--repeat 5] [--data DIR]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from _common import ROOT, data_dir, machine_line
from sklearn.datasets import load_svmlight_file

import budgetsvm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--data", type=Path, default=data_dir())
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "svmlight.md")
    args = parser.parse_args()

    files = sorted(p for p in args.data.glob("*.bz2"))
    if not files:
        raise SystemExit(f"no .bz2 data sets in {args.data}")
    rows = []
    for path in files:
        ours, theirs = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            X, y = budgetsvm.load_svmlight(path)
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            X_ref, y_ref = load_svmlight_file(str(path))
            theirs.append(time.perf_counter() - t)
        assert X.shape == X_ref.shape and (X != X_ref).nnz == 0 and (y == y_ref).all(), path.name
        a, b = statistics.median(ours), statistics.median(theirs)
        rows.append((path.name, X.shape[0], X.nnz, a, b, a / b))
        print(f"{path.name:40s} ours {a:7.3f} s  sklearn {b:7.3f} s  ratio {a / b:5.2f}", flush=True)

    ratios = [r[5] for r in rows]
    lines = [
        "# load_svmlight vs scikit-learn's load_svmlight_file",
        "",
        f"Measured {machine_line()}; median of {args.repeat} runs each, alternating in one process. "
        "Both read the same bzip2 file (decompression included) and return identical matrices.",
        "",
        "| file | rows | nnz | budgetsvm (s) | scikit-learn (s) | ratio (ours / theirs) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    lines += [f"| {n} | {r} | {z} | {a:.3f} | {b:.3f} | {q:.2f} |" for n, r, z, a, b, q in rows]
    lines += ["", f"Median ratio over all files: {statistics.median(ratios):.2f}; worst: {max(ratios):.2f}.", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
