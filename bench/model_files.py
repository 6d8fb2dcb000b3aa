"""Prediction from model files: budgetsvm against libsvm-official on the same
exported LIBSVM model and the same test set.

An SVC is trained on a slice of each training set and saved twice: as a
LIBSVM model file and in budgetsvm's format. Timed, alternating, medians:

* libsvm svm_predict: ``svmutil.svm_load_model`` + ``svmutil.svm_predict``
  (the Python API, which builds LIBSVM's nodes row by row in Python);
* libsvm C loop: LIBSVM's C ``svm_predict`` per row with the nodes of all
  rows built at once in numpy (LIBSVM's own prediction cost, without the
  Python wrapper's);
* budgetsvm: ``load_model`` + ``predict`` of the LIBSVM file and of the
  budgetsvm file, 1 thread.

Every run checks that the predicted labels are identical.

    python bench/model_files.py [--repeat 3] [--data DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from _common import ROOT, data_dir, machine_line
from libsvm import svmutil

import budgetsvm
from budgetsvm import SVC, load_model, save_model

sys.path.insert(0, str(ROOT / "tests"))
from libsvm_reference import libsvm_c_predict  # noqa: E402 (the loop tests/test_model_files_real.py checks)

CASES = [("ijcnn1", 22, 5000, dict(C=10.0, gamma=1.0)), ("a9a", 123, 5000, dict(C=1.0, gamma=0.05))]


def timed(f):
    t = time.perf_counter()
    out = f()
    return time.perf_counter() - t, out


def run_case(name, d, n_train, params, repeat, folder, workdir):
    X, y = budgetsvm.load_svmlight(folder / f"{name}.bz2", n_features=d)
    Xt, _ = budgetsvm.load_svmlight(folder / f"{name}.t.bz2", n_features=d)
    est = SVC(**params).fit(X[:n_train], y[:n_train])
    text, binary = workdir / f"{name}.libsvm", workdir / f"{name}.bsvm"
    save_model(est, text, format="libsvm")
    save_model(est, binary)
    Xs = sp.csr_matrix(Xt)
    runners = {
        "libsvm svm_predict": lambda: np.array(
            svmutil.svm_predict([0] * Xs.shape[0], Xs, svmutil.svm_load_model(str(text)), "-q")[0]),
        "libsvm C loop": lambda: libsvm_c_predict(svmutil.svm_load_model(str(text)), Xs),
        "budgetsvm load_model + predict": lambda: load_model(text, n_features=d).predict(Xt),
        "budgetsvm load_model (own format) + predict": lambda: load_model(binary).predict(Xt),
    }
    times = {k: [] for k in runners}
    reference = est.predict(Xt)
    for _ in range(repeat):
        for label, f in runners.items():
            seconds, labels = timed(f)
            assert np.array_equal(labels, reference), (name, label)
            times[label].append(seconds)
    return est.support_.size, Xt.shape[0], {k: statistics.median(v) for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=data_dir())
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "model_files.md")
    args = parser.parse_args()
    lines = [
        "# Prediction from model files: budgetsvm vs libsvm-official",
        "",
        "Written by `python bench/model_files.py`; " + machine_line(),
        "",
        "SVC trained on the first 5000 training rows, exported as a LIBSVM model file, predicting the whole",
        "test set; medians of alternating runs, seconds (model loading included). Labels identical in every run.",
        "",
        "| data | SVs | test rows | libsvm svm_predict | libsvm C loop | budgetsvm load_model + predict "
        "| budgetsvm C++ Model | svm_predict / ours | C loop / ours |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, d, n_train, params in CASES:
            n_sv, n_test, t = run_case(name, d, n_train, params, args.repeat, args.data, Path(tmp))
            ours = t["budgetsvm load_model + predict"]
            lines.append(
                f"| {name} | {n_sv} | {n_test} | {t['libsvm svm_predict']:.3f} | {t['libsvm C loop']:.3f} | "
                f"{ours:.3f} | {t['budgetsvm C++ Model']:.3f} | {t['libsvm svm_predict'] / ours:.1f}x | "
                f"{t['libsvm C loop'] / ours:.1f}x |"
            )
            print(lines[-1], flush=True)
    args.out.write_text("\n".join(lines) + "\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
