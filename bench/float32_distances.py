"""Cost of the shifted (centred) Gaussian distances: two builds, alternating.

Each case runs in a fresh process per build, builds alternating (A B A B ...),
and the median of the repeats is reported. A build is a directory holding the
``budgetsvm`` package with its compiled ``_core`` (for example the checkout's
``python`` directory).

    python bench/float32_distances.py --before /path/to/old/python --after python --repeats 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap

from _common import data_dir, machine_line

CASE = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np
    sys.path.insert(0, {path!r})
    from budgetsvm import SVC, kernel_matrix, load_svmlight

    def best(f, k=3):
        times = []
        for _ in range(k):
            t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
        return min(times)

    rng = np.random.default_rng(0)
    case, offset, dtype = {case!r}, {offset!r}, {dtype!r}
    if case == "kernel_matrix":
        X = (rng.normal(size=(3000, 100)) + offset).astype(dtype)
        seconds = best(lambda: kernel_matrix(X, gamma=0.01))
    elif case == "decision_function":
        X = rng.normal(size=(2000, 20))
        y = (X[:, 0] + 0.5 * rng.normal(size=2000) > 0).astype(int)
        clf = SVC(gamma=0.05).fit(X + offset, y)
        T = (rng.normal(size=(40000, 20)) + offset).astype(dtype)
        seconds = best(lambda: clf.decision_function(T))
    else:  # svc_fit on ijcnn1: the kernel columns of the exact solver
        X, y = load_svmlight({data!r} + "/ijcnn1.bz2", n_features=22)
        X = X[:20000].astype(dtype)
        y = y[:20000]
        fit = lambda: SVC(gamma=2.0, C=1.0, cache_size=20).fit(X, y)
        seconds = best(fit, 3)
    print(json.dumps(seconds))
    """
)

CASES = [
    ("kernel_matrix", 0.0, "float64"),
    ("kernel_matrix", 0.0, "float32"),
    ("kernel_matrix", 1e3, "float32"),
    ("kernel_matrix", 1e8, "float64"),
    ("decision_function", 0.0, "float64"),
    ("decision_function", 0.0, "float32"),
    ("decision_function", 1e3, "float32"),
    ("svc_fit", 0.0, "float64"),
]


def run(path: str, case, offset, dtype) -> float:
    code = CASE.format(path=path, case=case, offset=offset, dtype=dtype, data=str(data_dir()))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", default="", help="run the cases whose name contains this")
    args = ap.parse_args()
    print(machine_line())
    print("| case | offset | dtype | before (s) | after (s) | after / before |")
    print("|---|---|---|---|---|---|")
    for case, offset, dtype in CASES:
        if args.only not in case:
            continue
        times = {"before": [], "after": []}
        for _ in range(args.repeats):
            for name in ("before", "after"):
                times[name].append(run(getattr(args, name), case, offset, dtype))
        b, a = statistics.median(times["before"]), statistics.median(times["after"])
        print(f"| {case} | {offset:g} | {dtype} | {b:.3f} | {a:.3f} | {a / b:.2f} |", flush=True)


if __name__ == "__main__":
    main()
