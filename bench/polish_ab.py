"""A/B of SVC fit times: this checkout against another build (for example the
code before the ALFPGM polish), alternating runs in fresh processes.

    python bench/polish_ab.py --other /path/to/other/python [--reps 3]

``--other`` is a ``python/`` directory holding a built ``budgetsvm`` package.
Prints, per data set, the fastest fit seconds of both (the least disturbed by other load), the ratio, how many
binary problems were polished and the largest relative dual objective
difference. Data sets come from $BUDGETSVM_DATA (default ../shared/datasets).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CASES = [  # (file, rows, C, gamma)
    ("a9a.bz2", 3000, 1.0, 0.05),
    ("a9a.bz2", 8000, 1.0, 0.05),
    ("ijcnn1.bz2", 20000, 32.0, 2.0),
    ("w8a.bz2", 10000, 8.0, 0.5),
    ("letter.scale.bz2", 5000, 8.0, 1.0),
    ("satimage.scale.bz2", 4435, 4.0, 1.0),
]

CHILD = r"""
import json, sys, time
import numpy as np
from budgetsvm import SVC, load_svmlight
name, rows, C, gamma = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
X, y = load_svmlight(sys.argv[5])
X, y = X[:rows], y[:rows]
t = time.perf_counter()
clf = SVC(C=C, gamma=gamma).fit(X, y)
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "objective": clf.dual_objective_.tolist(),
                  "polished": sum(bool(d.get("polished", False)) for d in clf.fit_details_),
                  "problems": len(clf.fit_details_)}))
"""


def run(python_dir: Path, case, data: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(python_dir))
    name, rows, C, gamma = case
    out = subprocess.run(
        [sys.executable, "-c", CHILD, name, str(rows), str(C), str(gamma), str(data / name)],
        env=env, check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--other", required=True, type=Path)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--only", help="comma-separated data set files to run (default: all)")
    args = parser.parse_args()
    data = Path(os.environ.get("BUDGETSVM_DATA", HERE.parent / "shared" / "datasets"))
    print("| data (rows) | C | gamma | this s | other s | ratio | polished | max rel. objective diff |")
    print("|---|---|---|---|---|---|---|---|")
    for case in CASES:
        if args.only and case[0] not in args.only.split(","):
            continue
        ours, other = [], []
        for _ in range(args.reps):
            ours.append(run(HERE / "python", case, data))
            other.append(run(args.other, case, data))
        a = min(r["seconds"] for r in ours)
        b = min(r["seconds"] for r in other)
        diff = max(abs(p - q) / abs(q) for p, q in zip(ours[0]["objective"], other[0]["objective"]))
        print(f"| {case[0]} ({case[1]}) | {case[2]} | {case[3]} | {a:.3f} | {b:.3f} | {a / b:.2f} | "
              f"{ours[0]['polished']}/{ours[0]['problems']} | {diff:.1e} |", flush=True)


if __name__ == "__main__":
    main()
