"""Distributed budgeted training on Dask: 1 vs 2 worker processes, the
partitions mixed every epoch and trained apart (``shard_mix="union"``),
against the in-process BudgetedSVC with the same parameters.

Data sets: ijcnn1 (read from $BUDGETSVM_DATA or ../shared/datasets, never
copied; "ijcnn1-shuffled": its rows once in a random order) and two generated
2M-row sets (bench/datagen.py): xor20 with 10% of the labels flipped (noisy)
and radial12 with none (low-noise), whose partitions are generated on the
workers themselves. Both are split
into 2 partitions; the distributed model depends on the partitions, not on
the workers, so 1 and 2 workers train the same model and their time ratio
is the speed-up alone. Runs are interleaved (in-process sequential,
in-process 2 shards, 1 worker, 2 workers, the same two with union; then again, each repeat with the
seed of its index); each cluster is started for its own fit (after a
one-epoch warm-up fit) and closed after it, so that no idle cluster (its
scheduler's and workers' periodic work) shares the two cores with the fit
being timed. The table reports the minimum time of each, the mean test
accuracy over the repeats, and the load average before each repeat.

    python bench/dask_scale.py [--repeats 3] [--sets ijcnn1,xor20-2m,radial12-2m] [--out bench/results/dask.md]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dask  # noqa: E402
import dask.array as da  # noqa: E402
import distributed  # noqa: E402
from _common import data_dir, machine_line, report  # noqa: E402
from datagen import _BLOCK, make_block  # noqa: E402

import budgetsvm  # noqa: E402
from budgetsvm.dask import BudgetedSVC as DaskBudgetedSVC  # noqa: E402

SETS = {
    "ijcnn1": dict(solver="bsca", budget=500, C=2.0**5, gamma=2.0, epochs=3),
    "ijcnn1-shuffled": dict(solver="bsca", budget=500, C=2.0**5, gamma=2.0, epochs=3),
    "xor20-2m": dict(solver="bsca", budget=200, C=1.0, gamma=0.05, epochs=2),
    "radial12-2m": dict(solver="bsca", budget=200, C=10.0, gamma=0.2, epochs=2),
}
# The generated sets: (family, label noise); 2M training rows, 100k test rows.
GENERATED = {"xor20-2m": ("xor20", 0.10), "radial12-2m": ("radial12", 0.0)}
GEN_N, GEN_TEST = 2_000_000, 100_000


def gen_rows(name: str, lo: int, hi: int, seed: int = 0, test: bool = False):
    """Rows [lo, hi) of datagen.make(family, n, noise, seed) (block-aligned lo)."""
    assert lo % _BLOCK == 0
    family, noise = GENERATED[name]
    Xs, ys = [], []
    for start in range(lo, hi, _BLOCK):
        X, y = make_block(family, start // _BLOCK, min(_BLOCK, hi - start), noise, seed, test=test)
        Xs.append(X.astype(np.float32))
        ys.append(y)
    return np.concatenate(Xs), np.concatenate(ys)


def ijcnn1():
    X, y = budgetsvm.load_svmlight(data_dir() / "ijcnn1.bz2", n_features=22)
    Xt, yt = budgetsvm.load_svmlight(data_dir() / "ijcnn1.t.bz2", n_features=22)
    return X.toarray(), y, Xt.toarray(), yt


def load(name):
    """(X, y, Xt, yt) in this process."""
    if name.startswith("ijcnn1"):
        X, y, Xt, yt = ijcnn1()
        if name == "ijcnn1-shuffled":  # the file's rows in a random order, so each partition is a random half
            perm = np.random.default_rng(0).permutation(len(y))
            X, y = X[perm], y[perm]
        return X, y, Xt, yt
    X, y = gen_rows(name, 0, GEN_N)
    Xt, yt = gen_rows(name, 0, GEN_TEST, test=True)
    return X, y, Xt, yt


def on_cluster(name, client, X, y):
    """The training set as 2 partitions persisted on the cluster's workers
    (generated sets: generated there; ijcnn1: scattered once)."""
    if name.startswith("ijcnn1"):
        half = (X.shape[0] + 1) // 2
        Xd, yd = da.from_array(X, chunks=(half, X.shape[1])), da.from_array(y, chunks=half)
    else:
        half, d = GEN_N // 2, X.shape[1]
        parts = [dask.delayed(gen_rows, nout=2)(name, lo, lo + half) for lo in (0, half)]
        Xd = da.concatenate([da.from_delayed(p[0], (half, d), np.float32) for p in parts])
        yd = da.concatenate([da.from_delayed(p[1], (half,), np.int8) for p in parts])
    with client.as_current():
        Xd, yd = client.persist([Xd, yd])
        distributed.wait(distributed.futures_of([Xd, yd]))
    return Xd, yd


def timed(fn):
    t = time.perf_counter()
    model = fn()
    return time.perf_counter() - t, model


def started(workers):
    """A LocalCluster of `workers` one-thread worker processes on loopback and
    its client, the workers checked to import this process's budgetsvm."""
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0")
    client = distributed.Client(cluster, set_as_default=False)
    found = set(client.run(lambda: __import__("budgetsvm.dask").__file__).values())
    if found != {budgetsvm.__file__}:
        raise SystemExit(f"the workers import {found}, this process {budgetsvm.__file__}")
    return cluster, client


def run_set(name, repeats):
    """Each repeat: the two in-process fits, then each cluster started, warmed
    up by a one-epoch fit, timed on one fit and closed, so that no idle
    cluster shares the cores with the run being timed."""
    X, y, Xt, yt = load(name)
    params = SETS[name]
    rows = {k: [] for k in ("sequential", "shards2", "1 worker", "2 workers", "1 worker, union", "2 workers, union")}
    loads = []
    for r in range(repeats):
        loads.append(os.getloadavg()[0])
        p = dict(params, random_state=r)
        for label, fit in (
            ("sequential", lambda: budgetsvm.BudgetedSVC(**p).fit(X, y)),
            ("shards2", lambda: budgetsvm.BudgetedSVC(shards=2, n_jobs=2, **p).fit(X, y)),
        ):
            t, m = timed(fit)
            rows[label].append((t, m.score(Xt, yt)))
            print(f"{name} r{r} {label}: {t:.2f}s acc {rows[label][-1][1]:.4f}", flush=True)
        for mix in ("merge", "union"):
            coefs = []
            q = dict(p, shard_mix=mix)
            for workers in (1, 2):
                label = f"{workers} worker{'s' if workers > 1 else ''}" + (", union" if mix == "union" else "")
                cluster, client = started(workers)
                try:
                    Xd, yd = on_cluster(name, client, X, y)
                    with client.as_current():
                        DaskBudgetedSVC(**dict(p, epochs=1)).fit(Xd, yd)  # warm-up: imports, first transfers
                        t, m = timed(lambda: DaskBudgetedSVC(**q).fit(Xd, yd))
                finally:
                    client.close()
                    cluster.close()
                coefs.append(m.dual_coef_)
                rows[label].append((t, m.score(Xt, yt)))
                print(f"{name} r{r} {label}: {t:.2f}s acc {rows[label][-1][1]:.4f}", flush=True)
            assert np.array_equal(coefs[0], coefs[1]), "1 and 2 workers must train the same model"
    return params, X.shape, rows, loads


def table(name, params, shape, rows, loads):
    best = {k: min(t for t, _ in v) for k, v in rows.items()}
    acc = {k: 100 * np.mean([a for _, a in v]) for k, v in rows.items()}
    out = [f"### {name}: {shape[0]:,} x {shape[1]}, " + ", ".join(f"{k}={v}" for k, v in params.items()), "",
           "| run | min time (s) | times (s) | mean test accuracy (%) |", "| --- | ---: | --- | ---: |"]
    for k, v in rows.items():
        out.append(f"| {k} | {best[k]:.2f} | {', '.join(f'{t:.2f}' for t, _ in v)} | {acc[k]:.2f} |")
    out += ["", f"- speed-up 2 workers vs 1: {best['1 worker'] / best['2 workers']:.2f}x (target >= 1.6x)",
            f"- accuracy, 2 workers minus in-process sequential: {acc['2 workers'] - acc['sequential']:+.2f} points; "
            f"minus in-process 2 shards: {acc['2 workers'] - acc['shards2']:+.2f} points (target: within 0.5)",
            f"- shard_mix='union': 2 workers vs 1 {best['1 worker, union'] / best['2 workers, union']:.2f}x, "
            f"vs the in-process sequential fit {best['sequential'] / best['2 workers, union']:.2f}x, accuracy "
            f"{acc['2 workers, union'] - acc['sequential']:+.2f} points",
            f"- 1-minute load average before each repeat: {', '.join(f'{x:.2f}' for x in loads)}", ""]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sets", default="ijcnn1,xor20-2m")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    # The workers are new processes: they must import the budgetsvm this
    # process imported (a checkout's python/ first, not an installed copy).
    here = str(Path(budgetsvm.__file__).resolve().parents[1])
    os.environ["PYTHONPATH"] = os.pathsep.join([here, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])
    lines = ["# Dask: distributed BudgetedSVC, 1 vs 2 workers", "", machine_line(), "",
             "`python bench/dask_scale.py " + " ".join(sys.argv[1:]) + "`", "",
             f"budgetsvm imported from `{Path(budgetsvm.__file__).parent}` (here and on every worker).", ""]
    for name in args.sets.split(","):
        lines += table(name, *run_set(name, args.repeats))
    report(lines, args.out)


if __name__ == "__main__":
    main()
