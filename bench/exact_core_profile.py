"""Side-by-side timing of the exact kernel SVM core on one data set.

Times ``budgetsvm._core.fit_exact`` with ``solver="alfpgm"`` (several numbers
of pairs ``p``) and ``solver="smo"`` against scikit-learn's ``SVC`` (LIBSVM)
on the same data, C, gamma, tol and cache size, in one run; reports the
median of ``--repeat`` runs, the dual objective (computed the same way for
every solver, from its support vectors), the number of support vectors, the
intercept, test accuracy and cache counters. Meant for profiling the core
(``perf record -g python bench/exact_core_profile.py ...``); the full
benchmark of the estimator is ``bench/exact.py``.

Usage::

    python bench/exact_core_profile.py ijcnn1 [--n 10000] [--pairs 16 32 64]
        [--repeat 3] [--n-jobs 1] [--cache 200] [--no-sklearn] [--quick]

Presets (data set: C, gamma, test file): ijcnn1 (32, 2), a9a (32, 2^-7),
w8a (8, 2^-5), cod-rna (features scaled to [0, 1], seeded 80/20 split;
C = 32, gamma = 2^-? see PRESETS).
"""

from __future__ import annotations

import argparse
import datetime
import platform
import statistics
import os
import time

import numpy as np
import scipy.sparse as sp

from _common import cpu_model, data_dir

from budgetsvm import _core, _data, load_svmlight

DATA = data_dir()

PRESETS = {
    # name: (train file, test file or None, n_features, C, gamma)
    "ijcnn1": ("ijcnn1.bz2", "ijcnn1.t.bz2", 22, 32.0, 2.0),
    "a9a": ("a9a.bz2", "a9a.t.bz2", 123, 32.0, 2.0**-7),
    "w8a": ("w8a.bz2", "w8a.t.bz2", 300, 8.0, 2.0**-5),
    "cod-rna": ("cod-rna.bz2", None, 8, 32.0, 1.0),
}


def load(name: str, n: int | None, seed: int = 0):
    train, test, d, C, gamma = PRESETS[name]
    X, y = load_svmlight(DATA / train, n_features=d)
    if test is None:  # cod-rna: scale to [0, 1], seeded 80/20 split
        X = X.toarray()
        lo, hi = X.min(axis=0), X.max(axis=0)
        X = (X - lo) / np.where(hi > lo, hi - lo, 1.0)
        order = np.random.default_rng(seed).permutation(X.shape[0])
        cut = int(0.8 * X.shape[0])
        Xt, yt = X[order[cut:]], y[order[cut:]]
        X, y = X[order[:cut]], y[order[:cut]]
    else:
        Xt, yt = load_svmlight(DATA / test, n_features=d)
    y = np.where(y > 0, 1.0, -1.0)
    yt = np.where(yt > 0, 1.0, -1.0)
    if n is not None and n < X.shape[0]:
        idx = np.sort(np.random.default_rng(seed).choice(X.shape[0], n, replace=False))
        X, y = X[idx], y[idx]
    return X, y, Xt, yt, C, gamma


def summarize(X, Xt, yt, sv_index, coef, b, gamma, n_jobs):
    """Dual objective, n_SV and test accuracy of f(x) = sum coef k(sv, x) + b."""
    SV = _data.as_supported(X[sv_index])
    coef = np.ascontiguousarray(coef, dtype=np.float64).reshape(-1, 1)
    Kc = _core.decision_function(_data.core_view(SV), _data.core_view(SV), coef, "rbf", gamma, 3, 0.0, n_jobs)
    objective = 0.5 * float(coef[:, 0] @ Kc[:, 0]) - float(np.abs(coef).sum())
    Xts = _data.as_supported(Xt)
    f = _core.decision_function(_data.core_view(Xts), _data.core_view(SV), coef, "rbf", gamma, 3, 0.0, n_jobs)[:, 0] + b
    accuracy = float(np.mean(np.where(f > 0, 1.0, -1.0) == yt))
    return objective, len(sv_index), accuracy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset", choices=sorted(PRESETS))
    ap.add_argument("--n", type=int, default=None, help="subsample the training set (seeded)")
    ap.add_argument("--pairs", type=int, nargs="+", default=[16, 32, 64])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--cache", type=float, default=200.0)
    ap.add_argument("--tol", type=float, default=1e-3)
    ap.add_argument("--min-alpha-check", type=int, default=None)
    ap.add_argument("--no-smo", action="store_true")
    ap.add_argument("--no-sklearn", action="store_true")
    ap.add_argument("--quick", action="store_true", help="n = 5000, one repeat")
    ap.add_argument("--out", default=None, help="append a markdown table to this file")
    args = ap.parse_args()
    if args.quick:
        args.n, args.repeat = args.n or 5000, 1
    X, y, Xt, yt, C, gamma = load(args.dataset, args.n)
    Xs = _data.as_supported(X)
    if sp.issparse(Xs) and Xs.indices.dtype != np.int32:
        Xs = Xs.copy()
        Xs.indices = Xs.indices.astype(np.int32)
        Xs.indptr = Xs.indptr.astype(np.int32)
    # every other option at the registry's default (_core.options("exact"))
    base = dict(C=C, kernel="rbf", gamma=gamma, tol=args.tol, cache_size=args.cache, n_jobs=args.n_jobs)
    if args.min_alpha_check is not None:
        base["min_alpha_check"] = args.min_alpha_check
    runs = []
    if not args.no_sklearn:
        runs.append(("sklearn SVC", None))
    if not args.no_smo:
        runs.append(("smo", dict(base, solver="smo")))
    for p in args.pairs:
        runs.append((f"alfpgm p={p}", dict(base, solver="alfpgm", pairs=p)))
    print(f"{args.dataset}: n={X.shape[0]} d={X.shape[1]} C={C} gamma={gamma} tol={args.tol} "
          f"cache={args.cache} MB n_jobs={args.n_jobs} repeat={args.repeat}")
    rows = []
    for name, params in runs:
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            if params is None:
                from sklearn.svm import SVC

                clf = SVC(C=C, gamma=gamma, tol=args.tol, cache_size=args.cache).fit(Xs, y)
                times.append(time.perf_counter() - t0)
                coef = np.asarray(clf.dual_coef_.todense() if sp.issparse(clf.dual_coef_) else clf.dual_coef_).ravel()
                sv, b, extra = clf.support_, float(clf.intercept_[0]), ""
            else:
                r = _core.fit_exact(_data.core_view(Xs), y, params)
                times.append(time.perf_counter() - t0)
                sv = np.flatnonzero(r["alpha"] > 0)
                coef, b = (y * r["alpha"])[sv], r["intercept"]
                total = r["cache_hits"] + r["cache_misses"]
                extra = (f"iter={r['iterations']} hit={r['cache_hits'] / max(total, 1):.2f} "
                         f"cols={r['kernel_columns_computed']} viol={r['max_violation']:.1e} {r['status']}")
        obj, nsv, acc = summarize(X, Xt, yt, sv, coef, b, gamma, args.n_jobs)
        med = statistics.median(times)
        rows.append((name, med, obj, nsv, b, acc, extra))
        ref = rows[0][1]
        print(f"{name:14s} {med:8.3f}s  x{med / ref:5.2f}  obj={obj:.6f}  nSV={nsv}  b={b:.5f}  "
              f"acc={100 * acc:.2f}  {extra}", flush=True)
    if args.out:
        write_markdown(args, X, C, gamma, rows)


def machine() -> str:
    return f"{cpu_model()} ({platform.machine()}), {os.cpu_count()} cores"


def write_markdown(args, X, C, gamma, rows) -> None:
    ref_time, ref_obj = rows[0][1], rows[0][2]
    lines = [
        f"\n### {args.dataset}: n={X.shape[0]}, d={X.shape[1]}, C={C}, gamma={gamma:g}, tol={args.tol}, "
        f"cache={args.cache:g} MB, n_jobs={args.n_jobs}, median of {args.repeat}",
        "",
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {machine()}",
        "",
        f"| solver | seconds | time / {rows[0][0]} | dual objective | rel. diff | n_SV | intercept | test acc. % | details |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, med, obj, nsv, b, acc, extra in rows:
        rel = abs(obj - ref_obj) / abs(ref_obj)
        lines.append(f"| {name} | {med:.2f} | {med / ref_time:.2f} | {obj:.4f} | {rel:.1e} | {nsv} | {b:.4f} | "
                     f"{100 * acc:.2f} | {extra} |")
    with open(args.out, "a") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
