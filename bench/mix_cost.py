"""The cost of one mix of two shard models (docs/scale.md), optionally against another build.

Two BSCA models (B = 500, two epochs) are trained on the even and the odd
rows of each set, then mixed back to 500 support vectors with weights 1 and
1.02 (unequal, as shards of unequal size are), by ``_core.mix_budgeted`` on
one and on two threads: the union's merges plus the guard that compares the
reduced model with each part in the kernel's feature space. Timed side by
side, interleaved (every repeat runs each contestant once, in turn), the
minimum of the repeats; the mixed models of the two builds are compared too.

    python bench/mix_cost.py --repeats 15 [--before DIR] [--out bench/results/mix_cost.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from _common import interleaved_times, machine_line
from predict import load_core
from scale import real

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="ijcnn1,a9a")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--before", help="a directory holding another build's budgetsvm package")
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()

    from budgetsvm import BudgetedSVC, _core
    from budgetsvm._params import core_params

    before = load_core(args.before) if args.before else None
    assert before is not _core, "the other build loaded as this one"
    results = {"machine": machine_line(), "sets": {}}
    for name in args.sets.split(","):
        X, y, _, _, (gamma, C) = real(name)
        X = X.toarray() if hasattr(X, "toarray") else X
        models = [BudgetedSVC(solver="bsca", budget=500, gamma=gamma, C=C, epochs=2, random_state=i).fit(X[i::2], y[i::2])
                  for i in (0, 1)]
        parts = [dict(support_vectors=np.asarray(m.support_vectors_), dual_coef=m.dual_coef_.T.copy(),
                      intercept=m.intercept_, weight=w, steps=0) for m, w in zip(models, (1.0, 1.02))]
        for jobs in (1, 2):
            params = core_params(BudgetedSVC(budget=500), "budgeted", later=("gamma",), radius=np.inf, n_jobs=jobs,
                                 shards=1)
            params.update({"gamma": gamma, "C": C, "seed": 0})
            contestants = {"mix": lambda p=params: _core.mix_budgeted(parts, p)}
            if before is not None:
                contestants["mix_before"] = lambda p=params: before.mix_budgeted(parts, p)
            times, loads = interleaved_times(contestants, args.repeats)
            best = {k: min(v) for k, v in times.items()}
            ours = _core.mix_budgeted(parts, params)
            entry = {"seconds_min": best, "load_average": loads, "mix_fallbacks": int(ours["mix_fallbacks"])}
            if before is not None:
                entry["ratio"] = best["mix"] / best["mix_before"]
                theirs = before.mix_budgeted(parts, params)
                entry["same_model"] = bool(np.array_equal(ours["support_vectors"], theirs["support_vectors"]))
                entry["largest_coef_difference"] = float(np.abs(ours["dual_coef"] - theirs["dual_coef"]).max())
            results["sets"][f"{name}, n_jobs={jobs}"] = entry
            print(name, jobs, json.dumps(entry))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
