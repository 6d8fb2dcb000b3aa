"""kernel_matrix against scikit-learn's rbf_kernel, in one run.

X: --rows rows, Y: --cols rows, --features features (Gaussian data), the
Gaussian kernel. Timed interleaved (every repeat runs each contestant once,
in turn), the minimum of the repeats, one BLAS thread:

- ``kernel_matrix(X, Y)`` with n_jobs=1 and n_jobs=2 (dense X), and with a
  CSR X of the same values;
- scikit-learn's ``rbf_kernel(X, Y)`` (numpy matrix product + exp);
- allocating and writing the n m doubles of K once (numpy's ``np.full`` of
  the same shape): the memory part of any contestant's time.

    python bench/kernel_matrix.py --repeats 5 [--out bench/results/kernel_matrix.json]
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
import scipy.sparse as sp  # noqa: E402

from _common import ROOT, interleaved_times, machine_line  # noqa: E402

sys.path.insert(0, str(ROOT / "python"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--cols", type=int, default=4_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()

    from sklearn.metrics.pairwise import rbf_kernel

    from budgetsvm import kernel_matrix

    rng = np.random.default_rng(0)
    X = rng.standard_normal((args.rows, args.features))
    Y = rng.standard_normal((args.cols, args.features))
    Xs = sp.csr_matrix(X)
    gamma = 1.0 / args.features
    contestants = {
        "ours": lambda: kernel_matrix(X, Y, gamma=gamma),
        "ours_n_jobs_2": lambda: kernel_matrix(X, Y, gamma=gamma, n_jobs=2),
        "ours_csr_x": lambda: kernel_matrix(Xs, Y, gamma=gamma),
        "sklearn_rbf_kernel": lambda: rbf_kernel(X, Y, gamma=gamma),
        # the memory floor of K: a new n x m float64 array written once (as ours allocates and writes K)
        "numpy_new_K": lambda: np.full((args.rows, args.cols), 0.5),
    }
    K = kernel_matrix(X, Y, gamma=gamma)
    np.testing.assert_allclose(K, rbf_kernel(X, Y, gamma=gamma), rtol=1e-12, atol=1e-14)

    times, loads = interleaved_times(contestants, args.repeats)
    best = {name: min(t) for name, t in times.items()}
    result = {
        "machine": machine_line(), "load_average": loads, "rows": args.rows, "cols": args.cols,
        "features": args.features, "seconds_min": best, "seconds_all": times,
    }
    ratios = {
        "sklearn_rbf_kernel / ours": best["sklearn_rbf_kernel"] / best["ours"],
        "ours / ours_n_jobs_2 (speed-up)": best["ours"] / best["ours_n_jobs_2"],
        "ours_csr_x / ours": best["ours_csr_x"] / best["ours"],
        "ours / writing K": best["ours"] / best["numpy_new_K"],
    }
    result["ratios"] = ratios
    print(json.dumps(ratios, indent=1))
    print(json.dumps(best, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
