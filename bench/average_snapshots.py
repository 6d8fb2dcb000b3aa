"""BSCA's average from a few snapshots of the iterate against the average of every step.

    git worktree add /tmp/snapshots HEAD && cd /tmp/snapshots
    git apply bench/patches/average_snapshots.diff    # adds the core parameter average_snapshots
    pip install . && python bench/average_snapshots.py --sets ijcnn1,a9a,w8a --snapshots 0,4,8,16,32

The patch adds ``average_snapshots`` (0: the average of every step, as
shipped): S copies of the iterate, taken at the middles of S equal parts of
the averaging window, each mixed into a running average with weight 1/s
(the union loaded whole, then merged back to the budget). This script fits
BSCA (B = 500, 5 epochs, bench/budgeted.py's C and gamma) with each S, seeds
interleaved, and prints the minimum training time (the core's clock), the
median maintenance share and the median test accuracy. Result (not kept):
docs/budgeted.md, "Averaging". Real data from $BUDGETSVM_DATA or
../shared/datasets.
"""

from __future__ import annotations

import argparse

import numpy as np
from _common import data_dir
from _core_params import WithCoreParams

from budgetsvm import load_svmlight

SETS = {"ijcnn1": (22, 2.0**5, 2.0**1), "a9a": (123, 2.0**5, 2.0**-7), "w8a": (300, 2.0**3, 2.0**-5)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", type=lambda s: s.split(","), default=["ijcnn1", "a9a", "w8a"])
    ap.add_argument("--snapshots", type=lambda s: [int(v) for v in s.split(",")], default=[0, 4, 8, 16, 32])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=5)
    args = ap.parse_args()
    for name in args.sets:
        d, C, gamma = SETS[name]
        X, y = load_svmlight(data_dir() / f"{name}.bz2", n_features=d)
        Xt, yt = load_svmlight(data_dir() / f"{name}.t.bz2", n_features=d)
        runs: dict[int, list] = {}
        for seed in range(args.seeds):
            for s in args.snapshots if seed % 2 == 0 else args.snapshots[::-1]:  # interleaved
                model = WithCoreParams(solver="bsca", budget=500, C=C, gamma=gamma, epochs=args.epochs,
                                       random_state=seed)
                model.core_params = {"average_snapshots": s}
                model.fit(X, y)
                st = model.fit_stats_
                runs.setdefault(s, []).append((st["seconds"], st["maintenance_seconds"] / st["seconds"],
                                               100 * model.score(Xt, yt), st["averaged"]))
        for s in args.snapshots:
            r = runs[s]
            print(f"{name} snapshots={s:3d} min_seconds={min(v[0] for v in r):.3f} "
                  f"maintenance={100 * np.median([v[1] for v in r]):.1f}% "
                  f"accuracy={np.median([v[2] for v in r]):.2f}% (seeds {[round(v[2], 2) for v in r]}) "
                  f"averaged={[v[3] for v in r]}", flush=True)


if __name__ == "__main__":
    main()
