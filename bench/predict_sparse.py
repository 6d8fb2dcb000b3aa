"""Batch prediction on sparse query rows (real LIBSVM sets), against the peers, in one run.

For each set (a9a: 123 features, ~14 stored per row; w8a: 300, ~12), one
model per estimator fitted on the first ``--train`` training rows, the whole
test file as query rows (CSR, float64), one thread (OPENBLAS_NUM_THREADS=1
and friends are set before numpy loads). Timed side by side, interleaved
(every repeat runs each contestant once, in turn), the minimum of the repeats:

- ``SVC.decision_function`` against scikit-learn's ``SVC.decision_function``
  on its model of the same rows (same C and gamma; both support vector counts
  shown, and the time per support vector compared too);
- ``BudgetedSVC.decision_function`` (B = 500) against the blocked scipy
  expression ``exp(gamma (2 X S^T - |x|^2 - |s|^2)) @ coef`` with X sparse.

    python bench/predict_sparse.py --repeats 5 [--out bench/results/predict_sparse.json]
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402

from _common import data_dir, interleaved_times, machine_line  # noqa: E402

SETS = {"a9a": (123, 2.0**-7, 1.0), "w8a": (300, 2.0**-3, 1.0)}  # features, gamma, C


def dense(A):
    """A model attribute as a dense array (sparse training rows give sparse
    attributes, scikit-learn's convention)."""
    return A.toarray() if hasattr(A, "toarray") else np.asarray(A)


def scipy_expression(X, S, coef, gamma, block=2000):
    """The blocked Gaussian expansion with X sparse (scipy) and S dense."""
    s_norm = (S * S).sum(1)
    x_norm = np.asarray(X.multiply(X).sum(1)).ravel()
    out = np.empty(X.shape[0])
    for b in range(0, X.shape[0], block):
        dots = np.asarray(X[b : b + block] @ S.T)
        out[b : b + block] = np.exp(gamma * (2 * dots - x_norm[b : b + block, None] - s_norm[None, :])) @ coef
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="a9a,w8a")
    parser.add_argument("--train", type=int, default=10_000, help="training rows")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()

    import budgetsvm
    from sklearn.svm import SVC as SkSVC

    results = {"machine": machine_line(), "sets": {}}
    for name in args.sets.split(","):
        d, gamma, C = SETS[name]
        X, y = budgetsvm.load_svmlight(str(data_dir() / f"{name}.bz2"), n_features=d)
        Q, _ = budgetsvm.load_svmlight(str(data_dir() / f"{name}.t.bz2"), n_features=d)
        X, y = X[: args.train], y[: args.train]
        ours = budgetsvm.SVC(C=C, gamma=gamma).fit(X, y)
        theirs = SkSVC(C=C, gamma=gamma).fit(X, y)
        budgeted = budgetsvm.BudgetedSVC(C=C, gamma=gamma, budget=500, random_state=0).fit(X, y)
        S = dense(ours.support_vectors_)
        B, beta = dense(budgeted.support_vectors_), dense(budgeted.dual_coef_).ravel()
        # The same model: ours against the scipy expression (to rounding).
        reference = scipy_expression(Q[:2000], B, beta, gamma)
        assert np.allclose(budgeted.decision_function(Q[:2000]) - budgeted.intercept_, reference, atol=1e-9)
        contestants = {
            "svc": lambda: ours.decision_function(Q),
            "sklearn_svc": lambda: theirs.decision_function(Q),
            "budgeted": lambda: budgeted.decision_function(Q),
            "budgeted_scipy": lambda: scipy_expression(Q, B, beta, gamma),
        }
        times, loads = interleaved_times(contestants, args.repeats)
        best = {key: min(t) for key, t in times.items()}
        n_ours, n_theirs = S.shape[0], theirs.support_vectors_.shape[0]
        ratios = {
            "svc / sklearn_svc": best["svc"] / best["sklearn_svc"],
            "svc / sklearn_svc per support vector": (best["svc"] / n_ours) / (best["sklearn_svc"] / n_theirs),
            "budgeted / budgeted_scipy": best["budgeted"] / best["budgeted_scipy"],
        }
        results["sets"][name] = {
            "query_rows": int(Q.shape[0]), "stored_per_row": Q.nnz / Q.shape[0], "load_average": loads,
            "support_vectors": {"svc": int(n_ours), "sklearn_svc": int(n_theirs), "budgeted": int(B.shape[0])},
            "seconds_min": best, "seconds_all": times, "ratios": ratios,
        }
        print(name, json.dumps({"seconds_min": best, "ratios": ratios}, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
