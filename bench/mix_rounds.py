"""The mix of two BSCA shards, round by round (docs/scale.md, "Reducing").

Runs the two-thread algorithm written out with the core's calls (as
``budgetsvm.dask`` runs it: ``_core.bsca_shard_round`` per shard, then
``_core.mix_budgeted``) on a generated set split into its even and odd rows,
and reports per round: whether the guard kept a part instead of the reduced
model, the squared feature-space distance of the mix (the reduced model, or
the part the guard kept) and of each part to the exact average (brute force
from the kernel matrix of all their points), and how close the parts'
support vectors are to each other (the median squared distance from a
support vector of part 0 to the nearest one of part 1, and to the nearest
other one of its own part). After the last
round: the test accuracy of the mix and of the exact average (both parts'
support vectors, unreduced). ``--before DIR`` runs the same rounds with
another build's ``_core`` too.

    python bench/mix_rounds.py --problem susy18:1e6:0.1 --rounds 5 [--before DIR] [--out F]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from _common import machine_line  # noqa: E402
from predict import load_core  # noqa: E402
from scale import emit, problems  # noqa: E402


def rbf(P: np.ndarray, Q: np.ndarray, gamma: float) -> np.ndarray:
    d2 = (P * P).sum(1)[:, None] + (Q * Q).sum(1)[None, :] - 2.0 * P @ Q.T
    return np.exp(-gamma * np.maximum(d2, 0.0))


def decision(Z: np.ndarray, coef: np.ndarray, b: float, X: np.ndarray, gamma: float) -> np.ndarray:
    return np.concatenate([rbf(X[i : i + 20000], Z, gamma) @ coef for i in range(0, len(X), 20000)]) + b


def rounds(core, parts, params, n: float, R: int):
    """Yields (round, the two shard models, the mix) for R rounds."""
    alphas = [np.zeros(len(y)) for _, y in parts]
    start = None
    for r in range(R):
        models = []
        for k, (X, y) in enumerate(parts):
            out = core.bsca_shard_round(X, y, dict(params, seed=7 * r + k), start, alphas[k], n, r + 1, R)
            alphas[k] = out["alpha"]
            models.append(dict(out, weight=float(out["n_ref"]), steps=out["steps_total"]))
        mixed = core.mix_budgeted(models, params)
        yield r + 1, models, mixed
        start = dict(support_vectors=mixed["support_vectors"], dual_coef=mixed["dual_coef"],
                     intercept=mixed["intercept"], steps=mixed["steps_total"], n_ref=n, n=n)


def shares(models) -> np.ndarray:
    """Each model's weight share in the mix."""
    w = np.array([m["weight"] for m in models])
    return w / w.sum()


def report(models, mixed, gamma: float) -> dict:
    Z = [np.asarray(m["support_vectors"], dtype=np.float64) for m in models]
    w = shares(models)
    S = np.vstack([mixed["support_vectors"], *Z])
    K = rbf(S, S, gamma)
    sizes = [len(mixed["support_vectors"])] + [len(z) for z in Z]
    cuts = np.cumsum([0] + sizes)
    avg = np.zeros(len(S))
    for k, m in enumerate(models):
        avg[cuts[k + 1] : cuts[k + 2]] = w[k] * m["dual_coef"].ravel()
    dist = []
    for c in range(3):
        v = -avg.copy()
        v[cuts[c] : cuts[c + 1]] += (mixed if c == 0 else models[c - 1])["dual_coef"].ravel()
        dist.append(float(v @ K @ v))
    across = ((Z[0][:, None, :] - Z[1][None, :, :]) ** 2).sum(-1).min(1)
    own = ((Z[0][:, None, :] - Z[0][None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(own, np.inf)
    return {"fallback": int(mixed["mix_fallbacks"]), "distance_mix": dist[0], "distance_parts": dist[1:],
            "nearest_other_part": float(np.median(across)), "nearest_own_part": float(np.median(own.min(1)))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problem", default="susy18:1e6:0.1", help="family:n[:C] (bench/scale.py)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--before", help="a directory holding another build's budgetsvm package")
    parser.add_argument("--out", help="append the JSON lines here")
    args = parser.parse_args()

    from budgetsvm import BudgetedSVC, _core
    from budgetsvm._params import core_params

    cores = {"this build": _core}
    if args.before:
        cores["before"] = load_core(args.before)
    ((name, X, y, Xt, yt, (gamma, C)),) = problems([args.problem])
    X, Xt = (A.toarray() if hasattr(A, "toarray") else A for A in (X, Xt))
    params = core_params(BudgetedSVC(budget=args.budget), "budgeted", later=("gamma",), radius=np.inf, n_jobs=1,
                         shards=1)
    params.update({"gamma": gamma, "C": C, "solver": "bsca", "epochs": 1})
    parts = [(np.ascontiguousarray(X[k::2]), (y[k::2] > 0).astype(np.int32)) for k in (0, 1)]
    Xt = np.asarray(Xt, dtype=np.float64)
    labels = np.where(yt > 0, 1, -1)
    print(machine_line())
    for label, core in cores.items():
        for r, models, mixed in rounds(core, parts, params, float(len(y)), args.rounds):
            row = {"problem": name, "build": label, "round": r, **report(models, mixed, gamma)}
            if r == args.rounds:
                f = decision(mixed["support_vectors"], mixed["dual_coef"].ravel(), mixed["intercept"][0], Xt, gamma)
                g = sum(wk * decision(m["support_vectors"], m["dual_coef"].ravel(), m["intercept"][0], Xt, gamma)
                        for wk, m in zip(shares(models), models))
                row["accuracy_mix"] = float(np.mean(np.where(f > 0, 1, -1) == labels))
                row["accuracy_exact_average"] = float(np.mean(np.where(g > 0, 1, -1) == labels))
            emit(row, args.out)


if __name__ == "__main__":
    main()
