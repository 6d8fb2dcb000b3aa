"""Batch prediction against the peers, in one run.

One generated problem (20 features, a noisy non-linear boundary), one model
per estimator, 100,000 query rows, one thread (OPENBLAS_NUM_THREADS=1 and
friends are set before numpy loads). Timed side by side, interleaved (every
repeat runs each contestant once, in turn), the minimum of the repeats:

- ``SVC.decision_function`` (thousands of support vectors) against
  scikit-learn's ``SVC.decision_function`` on its model of the same data
  (same C and gamma, so nearly the same support vectors: both counts shown,
  and the time per support vector compared too), and against numpy's blocked
  ``exp(gamma (2 X S^T - |x|^2 - |s|^2)) @ coef`` in float64 and float32;
- ``BudgetedSVC.decision_function`` (B = 500) on float32 input against the
  same numpy expression in float32.

    python bench/predict.py --repeats 3 --out bench/results/predict.json
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from _common import ROOT, interleaved_times, machine_line  # noqa: E402

sys.path.insert(0, str(ROOT / "python"))


def problem(n: int, d: int, seed: int):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = (np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.6 * rng.standard_normal(n) > 0).astype(int)
    return X, y


def numpy_expression(X, S, coef, gamma, dtype, block=2000):
    """The blocked numpy Gaussian expansion in `dtype`."""
    X, S, coef = X.astype(dtype, copy=False), S.astype(dtype), coef.astype(dtype)
    g = dtype(gamma)
    s_norm = (S * S).sum(1)
    out = np.empty(X.shape[0], dtype)
    for b in range(0, X.shape[0], block):
        xb = X[b : b + block]
        x_norm = (xb * xb).sum(1)
        out[b : b + block] = np.exp(g * (2 * xb @ S.T - x_norm[:, None] - s_norm[None, :])) @ coef
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000, help="query rows")
    parser.add_argument("--train", type=int, default=12_000, help="training rows")
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()

    import budgetsvm
    from sklearn.svm import SVC as SkSVC

    d = args.features
    gamma = 1.0 / d
    X, y = problem(args.train, d, 0)
    Q = problem(args.rows, d, 1)[0]
    Q32 = Q.astype(np.float32)
    ours = budgetsvm.SVC(C=1.0, gamma=gamma).fit(X, y)
    theirs = SkSVC(C=1.0, gamma=gamma).fit(X, y)
    budgeted = budgetsvm.BudgetedSVC(C=1.0, gamma=gamma, budget=500, random_state=0).fit(X, y)
    S, coef = np.asarray(ours.support_vectors_), ours.dual_coef_.ravel()
    B, beta = np.asarray(budgeted.support_vectors_), budgeted.dual_coef_.ravel()

    contestants = {
        "svc": lambda: ours.decision_function(Q),
        "sklearn_svc": lambda: theirs.decision_function(Q),
        "numpy_f64": lambda: numpy_expression(Q, S, coef, gamma, np.float64),
        "numpy_f32": lambda: numpy_expression(Q32, S, coef, gamma, np.float32),
        "budgeted_f32": lambda: budgeted.decision_function(Q32),
        "budgeted_numpy_f32": lambda: numpy_expression(Q32, B, beta, gamma, np.float32),
    }
    # The same model: ours against the numpy expression (to rounding).
    reference = numpy_expression(Q[:2000], S, coef, gamma, np.float64)
    assert np.allclose(ours.decision_function(Q[:2000]) - ours.intercept_, reference, atol=1e-9)

    times, loads = interleaved_times(contestants, args.repeats)
    best = {name: min(t) for name, t in times.items()}
    result = {
        "machine": machine_line(),
        "load_average": loads,
        "rows": args.rows, "features": d,
        "support_vectors": {"svc": int(S.shape[0]), "sklearn_svc": int(theirs.support_vectors_.shape[0]),
                            "budgeted": int(B.shape[0])},
        "seconds_min": best, "seconds_all": times,
    }
    per_sv = {name: best[name] / result["support_vectors"][name] for name in ("svc", "sklearn_svc")}
    result["ratios"] = {
        "sklearn_svc / svc (per support vector)": per_sv["sklearn_svc"] / per_sv["svc"],
        "svc / numpy_f64": best["svc"] / best["numpy_f64"],
        "budgeted_f32 / budgeted_numpy_f32": best["budgeted_f32"] / best["budgeted_numpy_f32"],
    }
    print(json.dumps(result["ratios"], indent=1))
    print(json.dumps(best, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
