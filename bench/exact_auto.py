"""SVC's solver="auto" against its two solvers and scikit-learn's SVC.

For every problem of the exact benchmark (bench/exact.py: same data, C,
gamma, tol = 1e-3, cache 200 MB, one thread), nested random subsamples of
a9a (the time-vs-n sweep) and the 26-class letter set (one-vs-one, binary
problems of about 1,150 rows) and noisy20k (generated, 20,000 rows, 20% of
the labels flipped: most rows become bounded support vectors):
scikit-learn's SVC, budgetsvm.SVC with
solver="alfpgm", "smo" and "auto" (the default), run interleaved (one run of
each, then the next round) --repeat times; the table gives the minimum time
of each and its ratio to scikit-learn's minimum. The machine's load average
is recorded before each problem. Agreement with scikit-learn: relative
difference of the dual objective (binary problems, computed for every
solver by the same code from its support vectors) or the share of equal test
predictions (letter).

    BUDGETSVM_DATA=/work/shared/datasets PYTHONPATH=python:bench python bench/exact_auto.py
    ... --problems phishing,letter --repeat 3     # a subset
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from typing import Any, Dict, List, Optional

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import sklearn  # noqa: E402
from sklearn.svm import SVC as SkSVC  # noqa: E402

import budgetsvm  # noqa: E402
import exact as E  # noqa: E402
from _common import ROOT, cpu_model, data_dir, git_commit  # noqa: E402

SOLVERS = ["sklearn", "alfpgm", "smo", "auto"]
PROBLEMS = ["phishing", "letter", "a9a[4000]", "a9a[8000]", "a9a[16000]", "covtype20k", "cod-rna", "ijcnn1", "w8a",
            "a9a", "noisy20k"]


def noisy(n: int, seed: int = 0) -> Dict[str, Any]:
    """A generated problem with many bounded support vectors: 20 Gaussian
    features, the label the sign of x0 x1 + x2 / 2 with 20% of the labels
    flipped; n training rows and 5,000 test rows; C = 1, gamma = 1 / 20."""
    rng = np.random.RandomState(seed)
    X = rng.randn(n + 5000, 20)
    y = np.where(X[:, 0] * X[:, 1] + 0.5 * X[:, 2] > 0, 1.0, -1.0)
    y[rng.rand(len(y)) < 0.2] *= -1.0
    Xs = sp.csr_matrix(X)
    return dict(name=f"noisy{n // 1000}k", X=X[:n], y=y[:n], X_csr=Xs[:n], Xt=X[n:], Xt_csr=Xs[n:], yt=y[n:], C=1.0,
                gamma=1.0 / 20, binary=True)


def problem(name: str) -> Dict[str, Any]:
    """Training and test data of a problem name: a data set of bench/exact.py,
    'a9a[n]' (a seeded subsample of n rows, as bench/exact.py's sweep) or 'letter'."""
    if name == "noisy20k":
        return noisy(20000)
    if name == "letter":
        X, y = budgetsvm.load_svmlight(data_dir() / "letter.scale.bz2", n_features=16)
        Xt, yt = budgetsvm.load_svmlight(data_dir() / "letter.scale.t.bz2", n_features=16)
        return dict(name=name, X=X.toarray(), y=y, Xt=Xt.toarray(), yt=yt, C=16.0, gamma=2.0, binary=False)
    base = name.split("[")[0]
    d = dict(E.load(base, False), name=name, binary=True)
    if "[" in name:
        n = int(name.split("[")[1].rstrip("]"))
        idx = np.sort(np.random.RandomState(2).permutation(d["X_csr"].shape[0])[:n])
        d["X_csr"], d["y"], d["X"] = d["X_csr"][idx], d["y"][idx], d["X"][idx]
    return d


def make(label: str, d: Dict[str, Any]):
    if label == "sklearn":
        return SkSVC(C=d["C"], gamma=d["gamma"], tol=E.TOL, cache_size=E.CACHE_MB)
    return budgetsvm.SVC(C=d["C"], gamma=d["gamma"], tol=E.TOL, cache_size=E.CACHE_MB, solver=label)


def quality(d: Dict[str, Any], clf) -> Dict[str, Any]:
    """Dual objective and test accuracy (binary) or test predictions (letter)."""
    if not d["binary"]:
        pred = clf.predict(d["Xt"])
        return dict(pred=pred, accuracy=float(np.mean(pred == d["yt"])))
    dual = clf.dual_coef_.toarray()[0] if sp.issparse(clf.dual_coef_) else clf.dual_coef_[0]
    return E.evaluate(d, clf.support_, np.asarray(dual), float(clf.intercept_[0]))


def run_problem(name: str, repeat: int) -> Dict[str, Any]:
    d = problem(name)
    out: Dict[str, Any] = dict(name=name, n=int(d["X"].shape[0]), load_before=os.getloadavg(), seconds={},
                               solver_={})
    quality_of: Dict[str, Dict[str, Any]] = {}
    for r in range(repeat):
        for label in SOLVERS:
            clf = make(label, d)
            t = time.perf_counter()
            clf.fit(d["X"], d["y"])
            seconds = time.perf_counter() - t
            out["seconds"].setdefault(label, []).append(seconds)
            if r == 0:
                quality_of[label] = quality(d, clf)
                if label != "sklearn":
                    out["solver_"][label] = sorted(set(clf.solver_))
            print(f"  {name:11s} {label:8s} run {r + 1}: {seconds:8.3f} s   load {os.getloadavg()[0]:.2f}", flush=True)
    ref = quality_of["sklearn"]
    out["quality"] = {}
    for label, q in quality_of.items():
        if d["binary"]:
            out["quality"][label] = dict(accuracy=q["accuracy"], objective=q["objective"], n_sv=q["n_sv"],
                                         rel_objective=(q["objective"] - ref["objective"]) / abs(ref["objective"]))
        else:
            out["quality"][label] = dict(accuracy=q["accuracy"], agreement=float(np.mean(q["pred"] == ref["pred"])))
    out["load_after"] = os.getloadavg()
    return out


def write_markdown(meta: Dict[str, Any], rows: List[Dict[str, Any]], path) -> None:
    lines = [
        "# SVC(solver=\"auto\") against ALFPGM, SMO and scikit-learn's SVC",
        "",
        f"Measured {meta['date']} on {meta['cpu']} ({meta['cores']} cores, shared with other jobs), "
        f"Python {meta['python']}, scikit-learn {meta['sklearn']}, budgetsvm commit {meta['commit']}. "
        f"Command: `{meta['command']}`.",
        "",
        "Gaussian kernel, tol = 0.001, cache 200 MB, one thread, the C and gamma of bench/exact.py "
        "(letter: C = 16, gamma = 2). Per problem the four fits run interleaved (scikit-learn, alfpgm, smo, "
        f"auto, then again) {meta['repeat']} times; times are the minimum over the runs (wall-clock seconds of "
        "`fit`), ratios are that minimum over scikit-learn's minimum (below 1: faster than scikit-learn). "
        "`auto ran` is `solver_` of the auto fit. Objective: relative difference of the dual objective "
        "`1/2 c^T K c - sum |c|` from scikit-learn's (negative: lower, i.e. better), computed for every solver "
        "from its support vectors; letter: share of test predictions equal to scikit-learn's. Load: the 1-minute "
        "load average before the problem's first run.",
        "",
        "| problem | n | load | sklearn (s) | alfpgm / sklearn | smo / sklearn | **auto / sklearn** | auto ran "
        "| objective rel. diff alfpgm / smo / auto | test acc. sklearn, auto |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for row in rows:
        best = {k: min(v) for k, v in row["seconds"].items()}
        q = row["quality"]
        if "rel_objective" in q["auto"]:
            agree = " / ".join(f"{q[k]['rel_objective']:+.1e}" for k in ("alfpgm", "smo", "auto"))
        else:
            agree = "same prediction: " + " / ".join(f"{100 * q[k]['agreement']:.2f}%" for k in ("alfpgm", "smo", "auto"))
        lines.append(
            f"| {row['name']} | {row['n']} | {row['load_before'][0]:.1f} | {best['sklearn']:.3f} | "
            f"{best['alfpgm'] / best['sklearn']:.2f} | {best['smo'] / best['sklearn']:.2f} | "
            f"**{best['auto'] / best['sklearn']:.2f}** | {', '.join(row['solver_']['auto'])} | {agree} | "
            f"{100 * q['sklearn']['accuracy']:.2f}, {100 * q['auto']['accuracy']:.2f} |")
    lines += ["", "Every time of every run is in the JSON file of the same name.", ""]
    path.write_text("\n".join(lines))


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--problems", default=",".join(PROBLEMS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stem", default="exact_auto")
    args = parser.parse_args(argv)
    meta = dict(date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), cpu=cpu_model(),
                cores=os.cpu_count(), python=platform.python_version(), sklearn=sklearn.__version__,
                commit=git_commit(), repeat=args.repeat,
                command="python bench/exact_auto.py" + (" " + " ".join(sys.argv[1:]) if len(sys.argv) > 1 else ""))
    rows = []
    results = ROOT / "bench" / "results"
    for name in args.problems.split(","):
        rows.append(run_problem(name, args.repeat))
        (results / f"{args.stem}.json").write_text(json.dumps(dict(meta=meta, problems=rows), indent=1))
    write_markdown(meta, rows, results / f"{args.stem}.md")


if __name__ == "__main__":
    main()
