"""How often two BSCA shards should mix: every epoch (the library) against
fewer mixes, a study on a patched build.

``bench/patches/mix_schedule.diff`` makes ``fit_sharded_bsca`` (budget/
shards.hpp) read two environment variables: ``STUDY_MIX_EVERY=H`` mixes after
every ``H``-th epoch and after the last (rounds {1..H}, {H+1..2H}, ...; the
shards keep their models and dual variables through a round), and
``STUDY_GROW_ALONE=1`` counts the epochs after the growing pass instead (rounds
{1}, {2..H+1}, ...). The library does not carry the patch: build it in a
separate tree and pass that build's ``python`` directory (holding the
``budgetsvm`` package with its ``_core``) as ``--package``::

    git worktree add /tmp/mix-study HEAD && cd /tmp/mix-study && git apply bench/patches/mix_schedule.diff
    cmake -S . -B build -DBUDGETSVM_BUILD_PYTHON=ON -DCMAKE_BUILD_TYPE=Release && cmake --build build
    cp build/_core*.so python/budgetsvm/
    python bench/mix_schedule.py --package /tmp/mix-study/python --problems ijcnn1,a9a --seeds 5 --epochs 5

For every problem and seed, interleaved (the order reversed on odd seeds):
one thread, two shards mixing every epoch, two shards with rounds of two
epochs, and two with the growing pass alone and then rounds of two. One line
of JSON per problem: minimum time, median and mean test accuracy of each, and
the speed-up and accuracy differences (points) against one thread.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

VARIANTS = {"one thread": (1, "1", "0"), "every epoch": (2, "1", "0"), "rounds of 2": (2, "2", "0"),
            "growing pass, then rounds of 2": (2, "2", "1")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", required=True, help="the patched build's python directory")
    parser.add_argument("--problems", default="ijcnn1,a9a,susy18:1e6:0.1,xor20:1e6")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--out", help="append the JSON lines here")
    args = parser.parse_args()
    sys.path.insert(0, args.package)
    import budgetsvm
    from budgetsvm import BudgetedSVC

    if not Path(budgetsvm.__file__).resolve().is_relative_to(Path(args.package).resolve()):
        raise SystemExit(f"budgetsvm was imported from {budgetsvm.__file__}, not from --package")
    from scale import emit, problems  # after budgetsvm: bench/scale.py puts this checkout's python/ first

    for name, X, y, Xt, yt, (gamma, C) in problems(args.problems.split(",")):
        times = {v: [] for v in VARIANTS}
        accuracy = {v: [] for v in VARIANTS}
        for seed in range(args.seeds):
            for v in list(VARIANTS) if seed % 2 == 0 else list(VARIANTS)[::-1]:
                jobs, every, grow_alone = VARIANTS[v]
                os.environ["STUDY_MIX_EVERY"], os.environ["STUDY_GROW_ALONE"] = every, grow_alone
                clf = BudgetedSVC(solver="bsca", budget=args.budget, C=C, gamma=gamma, epochs=args.epochs,
                                  n_jobs=jobs, random_state=seed)
                start = time.perf_counter()
                clf.fit(X, y)
                times[v].append(time.perf_counter() - start)
                accuracy[v].append(float(clf.score(Xt, yt)))
        row = {"problem": name, "budget": args.budget, "epochs": args.epochs, "seeds": args.seeds}
        base = "one thread"
        for v in VARIANTS:
            row[v] = {"min_seconds": min(times[v]), "median_accuracy": float(np.median(accuracy[v])),
                      "mean_accuracy": float(np.mean(accuracy[v])), "accuracy": accuracy[v]}
            if v != base:
                row[v]["speedup"] = min(times[base]) / min(times[v])
                row[v]["median_points"] = 100 * (row[v]["median_accuracy"] - row[base]["median_accuracy"])
                row[v]["mean_points"] = 100 * (row[v]["mean_accuracy"] - row[base]["mean_accuracy"])
        emit(row, args.out)


if __name__ == "__main__":
    main()
