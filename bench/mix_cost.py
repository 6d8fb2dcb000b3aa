"""The cost of one mix of two shard models (docs/scale.md), optionally against another build.

Two BSCA models (B = 500, two epochs) are trained on the even and the odd
rows of each set, then mixed back to 500 support vectors with weights 1 and
1.02 (unequal, as shards of unequal size are), by ``_core.mix_budgeted`` on
one and on two threads: the union's merges plus the guard that compares the
reduced model with each part in the kernel's feature space. Timed side by
side, interleaved (every repeat runs each contestant once, in turn), the
minimum of the repeats; the mixed models of the two builds are compared too.

    python bench/mix_cost.py --repeats 15 [--sets ijcnn1,a9a,w8a,...] [--guards] [--before DIR] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from _common import data_dir, interleaved_times, machine_line
from predict import load_core
from scale import REAL, real

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))


def problem(name: str):
    """ijcnn1 and a9a with scale.py's gamma and C; any other binary or multi-class set of the data folder: its first
    40,000 rows, labelled by whether they carry the first row's label, gamma = 1 / (d Var(X)) (scikit-learn's
    "scale"), C = 1. Dense rows."""
    if name in REAL:
        X, y, _, _, (gamma, C) = real(name)
    else:
        from budgetsvm import load_svmlight

        X, y = load_svmlight(data_dir() / f"{name}.bz2")
        X, y = X[:40_000], y[:40_000]
        y = (y == y[0]).astype(int)
        gamma, C = 1.0 / (X.shape[1] * X.toarray().var()), 1.0
    return (X.toarray() if hasattr(X, "toarray") else X), y, gamma, C


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="ijcnn1,a9a")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--before", help="a directory holding another build's budgetsvm package")
    parser.add_argument("--guards", action="store_true",
                        help="also time the guard from the features and from the union's dot products (mix_gram.hpp)")
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()

    from budgetsvm import BudgetedSVC, _core
    from budgetsvm._params import core_params

    before = load_core(args.before) if args.before else None
    assert before is not _core, "the other build loaded as this one"
    results = {"machine": machine_line(), "sets": {}}
    for name in args.sets.split(","):
        X, y, gamma, C = problem(name)
        models = [BudgetedSVC(solver="bsca", budget=500, gamma=gamma, C=C, epochs=2, random_state=i).fit(X[i::2], y[i::2])
                  for i in (0, 1)]
        parts = [dict(support_vectors=np.asarray(m.support_vectors_), dual_coef=m.dual_coef_.T.copy(),
                      intercept=m.intercept_, weight=w, steps=0) for m, w in zip(models, (1.0, 1.02))]
        for jobs in (1, 2):
            params = core_params(BudgetedSVC(budget=500), "budgeted", later=("gamma",), radius=np.inf, n_jobs=jobs,
                                 shards=1)
            params.update({"gamma": gamma, "C": C, "seed": 0})
            contestants = {"mix": lambda p=params: _core.mix_budgeted(parts, p)}
            if args.guards:
                for guard in ("features", "dot_products"):
                    contestants[guard] = lambda p=params, g=guard: _core.mix_budgeted(parts, p, guard=g)
            if before is not None:
                contestants["mix_before"] = lambda p=params: before.mix_budgeted(parts, p)
            times, loads = interleaved_times(contestants, args.repeats)
            best = {k: min(v) for k, v in times.items()}
            ours = _core.mix_budgeted(parts, params)
            entry = {"features": X.shape[1], "union": sum(len(p["support_vectors"]) for p in parts),
                     "seconds_min": best, "load_average": loads, "mix_fallbacks": int(ours["mix_fallbacks"])}
            if args.guards:
                entry["ratio_dot_products"] = best["dot_products"] / best["features"]
                mixes = [_core.mix_budgeted(parts, params, guard=g) for g in ("features", "dot_products")]
                entry["guards_same"] = all(np.array_equal(mixes[0][k], mixes[1][k])
                                           for k in ("support_vectors", "dual_coef", "mix_fallbacks"))
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
