"""Benchmark of BudgetedSVR (BSCA and BSGD) against scikit-learn's exact SVR
on the largest subsample that trains in BSCA's time, and against Nystroem
+ Ridge and Nystroem + SGDRegressor with the most components that train in
about that time.

    python bench/budgeted_regression.py                 # 100k rows per family
    python bench/budgeted_regression.py --n 1000000     # 1M rows
    python bench/budgeted_regression.py --quick         # smoke run (about a minute)

Generated data (our own generators, below): ``smooth`` (a noise-free sum of
low-frequency sines of 4 features), ``friedman`` (Friedman's first function
of 10 uniform features, 5 of them irrelevant, noise sd 1), ``highfreq`` (a
noise-free product of sines of 2 features at 3 periods per unit length).
Features and targets are standardised on the training rows, so ``epsilon``
and the MSE are in units of the target's standard deviation; the MSE of
predicting the mean is about 1. Test sets of 20,000 rows from the same
generator. Times are wall-clock seconds of ``fit`` alone (single thread,
``n_jobs=1``), so run this alone on the machine. Writes a Markdown table to
``--out`` (default: stdout only).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import Ridge, SGDRegressor
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVR

from budgetsvm import BudgetedSVR

Array = np.ndarray


def smooth(n: int, rng: np.random.Generator) -> Tuple[Array, Array]:
    X = rng.uniform(-1, 1, size=(n, 4))
    y = np.sin(2 * X[:, 0]) + np.cos(1.5 * X[:, 1]) * X[:, 2] + 0.5 * np.sin(3 * X[:, 3])
    return X, y


def friedman(n: int, rng: np.random.Generator) -> Tuple[Array, Array]:
    X = rng.uniform(0, 1, size=(n, 10))
    y = 10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2 + 10 * X[:, 3] + 5 * X[:, 4]
    return X, y + rng.normal(size=n)


def highfreq(n: int, rng: np.random.Generator) -> Tuple[Array, Array]:
    X = rng.uniform(-1, 1, size=(n, 2))
    y = np.sin(6 * np.pi * X[:, 0]) * np.sin(6 * np.pi * X[:, 1])
    return X, y


#: Each family's generator and the (C, gamma, epsilon) all kernel machines use
#: (gamma on standardised features; chosen once on 20k rows by a coarse grid
#: for the exact SVR).
FAMILIES: Dict[str, Tuple[Callable[[int, np.random.Generator], Tuple[Array, Array]], float, float, float]] = {
    "smooth": (smooth, 10.0, 0.25, 0.01),
    "friedman": (friedman, 10.0, 0.1, 0.1),
    "highfreq": (highfreq, 10.0, 8.0, 0.01),
}


def standardise(X: Array, y: Array, Xt: Array, yt: Array) -> Tuple[Array, Array, Array, Array]:
    mu, sd = X.mean(axis=0), X.std(axis=0)
    ym, ys = y.mean(), y.std()
    return (X - mu) / sd, (y - ym) / ys, (Xt - mu) / sd, (yt - ym) / ys


def timed(fit: Callable[[], Any]) -> Tuple[Any, float]:
    start = time.perf_counter()
    model = fit()
    return model, time.perf_counter() - start


def mse(model: Any, Xt: Array, yt: Array) -> float:
    return float(np.mean((model.predict(Xt) - yt) ** 2))


def largest_within(make: Callable[[int], Callable[[], Any]], sizes: List[int], seconds: float,
                   Xt: Array, yt: Array) -> Dict[str, Any]:
    """Fits at growing sizes until one takes longer than `seconds`; returns the
    largest size that fitted within it (or the smallest tried) and its score."""
    best: Dict[str, Any] = {}
    for size in sizes:
        model, took = timed(make(size))
        if best and took > seconds:
            break
        best = {"size": size, "seconds": took, "mse": mse(model, Xt, yt)}
        if took > seconds:
            break
    return best


def run_family(name: str, n: int, budget: int, epochs: int, seed: int, quick: bool,
               fixed_lambda: bool = False) -> List[Dict[str, Any]]:
    make_data, C, gamma, eps = FAMILIES[name]
    if fixed_lambda:
        C *= 100_000 / n  # lambda = 1 / (C n) as at 100k rows
    rng = np.random.default_rng(seed)
    X, y = make_data(n, rng)
    Xt, yt = make_data(5000 if quick else 20000, rng)
    X, y, Xt, yt = standardise(X, y, Xt, yt)
    rows: List[Dict[str, Any]] = []
    times = []
    # BSGD with Pegasos' steps 1/(lambda t) = C n / t at the family's C, and
    # with NORMA's eta0 / sqrt(t) (eta0 = 10, chosen on a 20k-row pilot of
    # these families): Pegasos' last iterate carries about C / epochs of noise
    # per visited row, which a regression function feels (docs/budgeted.md).
    variants = (("bsca", {}), ("bsgd", {}), ("bsgd", {"learning_rate": "norma", "eta0": 10.0}))
    for solver, extra in variants:
        reg = BudgetedSVR(solver=solver, budget=budget, C=C, gamma=gamma, epsilon=eps, epochs=epochs,
                          random_state=seed, **extra)
        model, took = timed(lambda reg=reg: reg.fit(X, y))
        if solver == "bsca":
            times.append(took)
        label = f"BudgetedSVR {solver}{' norma' if extra else ''} B={budget} epochs={epochs}"
        rows.append({"family": name, "method": label, "rows": n, "seconds": took, "mse": mse(model, Xt, yt)})
    target = times[0]  # the peers get BSCA's time
    sizes = [s for s in (1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000) if s <= n]
    exact = largest_within(lambda s: (lambda: SVR(C=C, gamma=gamma, epsilon=eps, cache_size=1000).fit(X[:s], y[:s])),
                           sizes, target, Xt, yt)
    rows.append({"family": name, "method": f"sklearn SVR on {exact['size']} rows", "rows": exact["size"],
                 "seconds": exact["seconds"], "mse": exact["mse"]})
    components = [c for c in (100, 200, 400, 800, 1600, 3200) if c <= n]
    ridge = largest_within(
        lambda c: (lambda: make_pipeline(Nystroem(gamma=gamma, n_components=c, random_state=seed),
                                         Ridge(alpha=1.0 / C)).fit(X, y)),
        components, target, Xt, yt)
    rows.append({"family": name, "method": f"Nystroem({ridge['size']}) + Ridge", "rows": n,
                 "seconds": ridge["seconds"], "mse": ridge["mse"]})
    sgd = largest_within(
        lambda c: (lambda: make_pipeline(Nystroem(gamma=gamma, n_components=c, random_state=seed),
                                         SGDRegressor(alpha=1.0 / (C * n), max_iter=5, tol=None,
                                                      random_state=seed)).fit(X, y)),
        components, target, Xt, yt)
    rows.append({"family": name, "method": f"Nystroem({sgd['size']}) + SGDRegressor (5 epochs)", "rows": n,
                 "seconds": sgd["seconds"], "mse": sgd["mse"]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=100_000, help="training rows per family")
    parser.add_argument("--budget", type=int, default=500, help="BudgetedSVR's budget")
    parser.add_argument("--epochs", type=int, default=2, help="BudgetedSVR's epochs")
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=list(FAMILIES))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="smoke run: 10k rows, budget 100, one epoch")
    parser.add_argument("--fixed-lambda", action="store_true",
                        help="scale every machine's C by 100000 / n (lambda = 1 / (C n) as at 100k rows)")
    parser.add_argument("--out", help="write the Markdown table (and a .json beside it) here")
    args = parser.parse_args()
    if args.quick:
        args.n, args.budget, args.epochs = 10_000, 100, 1
    rows: List[Dict[str, Any]] = []
    for name in args.families:
        rows += run_family(name, args.n, args.budget, args.epochs, args.seed, args.quick, args.fixed_lambda)
        for r in rows[-6:]:
            print(f"{r['family']:9s} {r['method']:45s} {r['seconds']:8.2f}s  test MSE {r['mse']:.3g}", flush=True)
    scale = f", C x {100_000 / args.n:g} (lambda as at 100k rows)" if args.fixed_lambda else ""
    lines = [f"Generated regression, {args.n} training rows, seed {args.seed}{scale}, "
             f"{platform.processor() or 'cpu'}; MSE in units of the target's variance (predicting the mean: ~1).", "",
             "| family | method | training rows | fit seconds | test MSE |", "|---|---|---|---|---|"]
    lines += [f"| {r['family']} | {r['method']} | {r['rows']} | {r['seconds']:.2f} | {r['mse']:.3g} |" for r in rows]
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write(table + "\n")
        with open(args.out.rsplit(".", 1)[0] + ".json", "w") as f:
            json.dump({"args": vars(args), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
