"""The cost model of distributed training (docs/scale.md, "A cost model for
clusters"): its inputs measured on this machine, the model checked against
LocalCluster runs of 1, 2 and 4 one-thread worker processes, and projected
to 8-128 workers and 10M-1B rows.

The model of one fit of ``budgetsvm.dask.BudgetedSVC`` over ``n`` rows in
``P`` partitions, one per worker of one core, ``E`` epochs in ``R`` rounds
(``shard_mix="merge"``: ``R = E``, a mix after every epoch; ``"union"``:
``R = 1``):

    T(P) = R * [ (n / P) (E / R) kappa c_row(P) ceil(P / cores)   the passes
                 + sum over the ceil(log2 P) levels of the tree      the mixing tree
                   of (a mix + its transfer, t_x)
                 + P bytes / bw                                      models to the workers / client
                 + o_0 + (2P - 1) o_task ]                           the scheduler

where a merged mix takes ``c_mix`` and a union at level ``l`` (2^l B
support vectors) ``c_mix 2^l B``; ``t_x`` = the level's models' bytes / bw
+ 0.5 ms;
against the in-process one-thread fit T_1 = E * n * c_seq. Inputs, measured
here on generated data (``bench/datagen.py``):

- ``c_seq``: seconds per row and epoch of the in-process fit;
- ``c_row(P)``: seconds per row and epoch of the partitions' tasks, timed
  around them while the Dask fit runs on the synchronous scheduler
  (every task in this process, one after another) over P = 1, 2, 4, 8, 16
  and 32 partitions; the projection at P workers uses the largest measured
  at up to P partitions (128 workers: 32's, an assumption);
- ``c_mix``: seconds of one pairwise mix of two models (merge), or per
  support vector of a pairwise union (union), from the same runs;
- ``o_task``, ``o_0``: from LocalCluster rounds with next to nothing to
  compute (200 rows per partition) at 1, 2 and 4 workers: each task beyond
  one worker's adds ``o_task`` (its mix of a few hundred support vectors
  included), the rest of one worker's round is ``o_0``. Measured on loopback with the workers,
  scheduler and client sharing this machine's cores, they are what this
  machine pays, likely more than a cluster's scheduler on its own core;
- ``kappa``: a worker's pass over the time of the same pass in this
  process, from the one-worker fit (its time less o_0 and o_task);
- ``bytes`` = B (d + 1) 8 (a model's support vectors and coefficients),
  bw = 1 GB/s and 0.5 ms per transfer: assumptions for a cluster's network,
  stated, not measured here.

The check runs the fit on LocalCluster with 1, 2 and 4 worker processes on
this machine's cores (``cores`` = 2 here: 4 workers share them) and prints
the predicted and measured times side by side.

    python bench/dask_cost.py [--family overlap18] [--rows 1000000] [--budget 500] [--C 1] [--epochs 2]
                              [--shard-mix merge|union] [--out bench/results/dask_cost.md]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dask  # noqa: E402
import dask.array as da  # noqa: E402
from _common import machine_line, report  # noqa: E402
from dask_scale import started  # noqa: E402
from datagen import FAMILIES, make  # noqa: E402

import budgetsvm  # noqa: E402
from budgetsvm.estimators import _dask_rounds, _dask_tasks  # noqa: E402
from budgetsvm.dask import BudgetedSVC as DaskBudgetedSVC  # noqa: E402

BANDWIDTH = 1e9  # bytes/s between workers (assumed)
LATENCY = 5e-4  # s per transfer (assumed)


class Timed:
    """Wraps the partition task and the pairwise mix of the Dask estimator
    (looked up by name when a fit builds its graph), recording their seconds."""

    def __init__(self):
        self.passes, self.mixes = [], []
        self._saved = []

    def __enter__(self):
        for module, name, log in ((_dask_rounds, "_partition_pass", self.passes), (_dask_tasks, "_mix_pair", self.mixes)):
            original = getattr(module, name)
            self._saved.append((module, name, original))

            def timed(*args, _f=original, _log=log, **kwargs):
                t = time.perf_counter()
                out = _f(*args, **kwargs)
                seconds = time.perf_counter() - t
                model = out[0] if isinstance(out, tuple) else out
                rows = model["support_vectors"].shape[0] if isinstance(model, dict) else 0
                _log.append((seconds, rows))
                return out

            setattr(module, name, timed)
        return self

    def __exit__(self, *exc):
        for module, name, original in self._saved:
            setattr(module, name, original)


def dask_data(X, y, parts):
    rows = -(-X.shape[0] // parts)
    return da.from_array(X, chunks=(rows, X.shape[1])), da.from_array(y, chunks=rows)


def on_cluster(client, X, y, parts):
    """X and y as dask arrays of `parts` row partitions scattered to the workers (not through the graph)."""
    bounds = np.linspace(0, X.shape[0], parts + 1).astype(int)
    xs, ys = [], []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        fx, fy = client.scatter([X[lo:hi], y[lo:hi]])
        xs.append(da.from_delayed(dask.delayed(fx), (hi - lo, X.shape[1]), X.dtype))
        ys.append(da.from_delayed(dask.delayed(fy), (hi - lo,), y.dtype))
    return da.concatenate(xs), da.concatenate(ys)


def predicted(P, n, E, union, c_row, mix, o_0, o_task, cores, budget, model_bytes, network=True):
    """T(P) of the module docstring (network=False: loopback, no transfer terms).
    ``mix``: seconds of one pairwise mix (merge) or per support vector of the
    union (union, whose mixes grow up the tree)."""
    levels = math.ceil(math.log2(P)) if P > 1 else 0
    rounds, per_round = (1, E) if union else (E, 1)
    tree = 0.0
    for level in range(1, levels + 1):
        size = 2 ** (level - 1) if union else 1  # the parts' size in models of B, at this level
        t_x = size * model_bytes / BANDWIDTH + LATENCY if network else 0.0
        tree += (mix * 2 * size * budget if union else mix) + t_x
    # merge: the mix to every worker each round; union: the final model to the client once
    send = (P * model_bytes if not union else P * model_bytes / rounds) / BANDWIDTH if network else 0.0
    passes = (n / P) * per_round * c_row * math.ceil(P / cores)
    return rounds * (passes + tree + send + o_0 + (2 * P - 1) * o_task)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", default="overlap18", choices=sorted(FAMILIES))
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--budget", type=int, default=500)
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--shard-mix", choices=["merge", "union"], default="merge")
    ap.add_argument("--calibrate-partitions", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32])
    ap.add_argument("--out", default=None)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 100k rows, 1, 2 and 4 partitions")
    args = ap.parse_args()
    if args.quick:
        args.rows, args.calibrate_partitions = 100_000, [1, 2, 4]
    here = str(Path(budgetsvm.__file__).resolve().parents[1])  # the workers import this budgetsvm
    os.environ["PYTHONPATH"] = os.pathsep.join([here, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    fam = FAMILIES[args.family]
    X, y = make(args.family, args.rows, seed=0)
    X = X.astype(np.float64)
    n, d, E = X.shape[0], X.shape[1], args.epochs
    params = dict(solver="bsca", budget=args.budget, C=args.C, gamma=fam["gamma"], epochs=E, random_state=0)
    union = args.shard_mix == "union"
    dask_params = dict(params, shard_mix=args.shard_mix)  # merge: E rounds of one epoch; union: one round
    model_bytes = args.budget * (d + 1) * 8

    t = time.perf_counter()
    budgetsvm.BudgetedSVC(**params).fit(X, y)
    c_seq = (time.perf_counter() - t) / (n * E)

    def calibrate(P):
        """(c_row, the pairwise mixes' seconds) of a fit over P partitions on the synchronous scheduler."""
        Xd, yd = dask_data(X, y, P)
        with dask.config.set(scheduler="synchronous"), Timed() as timed:
            model = DaskBudgetedSVC(**dask_params).fit(Xd, yd)
        inserted[P] = model.history_[-1]["sv_added"] / (n * E)
        return sum(t for t, _ in timed.passes) / (n * E), timed.mixes

    c_rows, mixes, inserted = {}, [], {}
    for P in sorted({1, 2, 4, *args.calibrate_partitions}):
        c_rows[P], m = calibrate(P)
        mixes += m
    # merge: seconds of one pairwise mix; union: seconds per support vector of a union
    c_mix = sum(t for t, _ in mixes) / max(1, sum(r for _, r in mixes)) if union else float(np.median([t for t, _ in mixes]))

    def c_row(P):
        """The projection's per-row cost at P partitions: the largest measured at
        up to P partitions (more partitions make more insertions; none fewer)."""
        return max(c for Q, c in c_rows.items() if Q <= P)

    check = []
    rounds = {}  # P: seconds of a round with (almost) nothing to compute
    for P in (1, 2, 4):
        cluster, client = started(P)
        try:
            Xd, yd = on_cluster(client, X, y, P)
            with client.as_current():
                DaskBudgetedSVC(**dict(params, epochs=1)).fit(Xd, yd)  # warm-up: imports, first transfers
                t = time.perf_counter()
                DaskBudgetedSVC(**dask_params).fit(Xd, yd)
                measured = time.perf_counter() - t
                # A round's cost beyond the passes: 20 rounds (merged) over 200 rows per partition
                Xs, ys = on_cluster(client, X[: 200 * P], y[: 200 * P], P)
                DaskBudgetedSVC(**dict(params, epochs=1)).fit(Xs, ys)
                t = time.perf_counter()
                DaskBudgetedSVC(**dict(params, epochs=20)).fit(Xs, ys)
                rounds[P] = (time.perf_counter() - t) / 20
        finally:
            client.close()
            cluster.close()
        check.append((P, measured))
        print(f"P={P}: measured {measured:.2f} s; a round over 200 rows per partition {rounds[P] * 1e3:.1f} ms",
              flush=True)
    # The scheduler's costs from the near-empty rounds: o_0 + o_task at one
    # worker; each of the 2P - 2 more tasks of P workers adds o_task (their
    # mixes of a few hundred support vectors included).
    o_task = float(np.mean([(rounds[P] - rounds[1]) / (2 * P - 2) for P in rounds if P > 1]))
    o_task = max(o_task, 0.0)
    o_0 = max(rounds[1] - o_task, 0.0)
    # kappa: a worker's pass against the same pass timed in this process (one worker's fit)
    R = 1 if union else E
    kappa = (check[0][1] / R - o_0 - o_task) / (n * E / R * c_rows[1])
    check = [(P, predicted(P, n, E, union, kappa * c_rows[P], c_mix, o_0, o_task, cores, args.budget, model_bytes,
                           network=False), measured) for P, measured in check]

    lines = ["# The cost model of distributed training, measured and projected", "", machine_line(), "",
             "`python bench/dask_cost.py " + " ".join(sys.argv[1:]) + "`", "",
             f"{args.family}: {n:,} x {d}, " + ", ".join(f"{k}={v}" for k, v in params.items())
             + (f"; Dask: shard_mix='union', one round of {E} epochs" if union else
                f"; Dask: {E} rounds of one epoch, merged"), "",
             "## Inputs", "",
             "| input | value | how |", "| --- | ---: | --- |",
             f"| c_seq | {c_seq * 1e6:.3f} us | in-process one-thread fit, per row and epoch |",
             *(f"| c_row({P}) | {c_rows[P] * 1e6:.3f} us | the passes of {P} partitions, per row and epoch "
               f"({inserted[P]:.3f} insertions per row) |" for P in sorted(c_rows)),
             (f"| c_mix | {c_mix * 1e6:.2f} us | per support vector of a pairwise union ({len(mixes)} mixes) |"
              if union else f"| c_mix | {c_mix * 1e3:.1f} ms | one pairwise mix (median of {len(mixes)}) |"),
             *(f"| a round, {P} workers | {rounds[P] * 1e3:.1f} ms | LocalCluster, 200 rows per partition |"
               for P in sorted(rounds)),
             f"| o_0 | {o_0 * 1e3:.1f} ms | a round of one worker, less o_task |",
             f"| o_task | {o_task * 1e3:.1f} ms | per task: the rounds of 2 and 4 workers beyond one's |",
             f"| kappa | {kappa:.2f} | a worker's pass / the same pass in this process (one worker's fit) |",
             f"| bytes | {model_bytes:,} | B (d + 1) 8 |",
             f"| bw, latency | {BANDWIDTH / 1e9:.0f} GB/s, {LATENCY * 1e3:.1f} ms | assumed |", "",
             f"## The model against LocalCluster ({cores} cores, loopback: no transfer terms; one worker calibrates kappa)", "",
             "| workers | predicted (s) | measured (s) | measured / predicted |", "| ---: | ---: | ---: | ---: |"]
    for P, pred, meas in check:
        lines.append(f"| {P} | {pred:.2f} | {meas:.2f} | {meas / pred:.2f} |")
    lines += ["", "## Projected speed-up over the in-process one-thread fit (one core per worker)", "",
              "| rows | " + " | ".join(f"{P} workers" for P in (8, 32, 128)) + " |", "| ---: | ---: | ---: | ---: |"]
    for rows in (10_000_000, 100_000_000, 1_000_000_000):
        cells = []
        for P in (8, 32, 128):
            T = predicted(P, rows, E, union, kappa * c_row(P), c_mix, o_0, o_task, P, args.budget, model_bytes)
            cells.append(f"{E * rows * c_seq / T:.1f}x")
        lines.append(f"| {rows:,} | " + " | ".join(cells) + " |")
    lines += ["", "The speed-up is at the same number of epochs; the accuracy of P partitions is measured by "
              "bench/shards.py (docs/scale.md)."
              + (" The union model holds up to P x B support vectors." if union else ""), ""]
    report(lines, args.out)


if __name__ == "__main__":
    main()
