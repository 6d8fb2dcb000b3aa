"""Exact kernel SVM: budgetsvm.SVC (ALFPGM with several p, our SMO) against
LIBSVM (scikit-learn's SVC and libsvm-official), side by side in one process.

For every data set: training time, dual objective, number of support vectors,
test accuracy and (ours) kernel cache hit rate, at the same C, gamma,
tol = 1e-3 and cache size 200 MB for every solver. Pass 1 runs scikit-learn,
ALFPGM p=32 and our SMO on one thread, ALFPGM p=32 on two, and libsvm-official
once on every data set; pass 2, while --budget-minutes lasts, repeats
scikit-learn, ALFPGM p=32 and SMO (median of --repeat), then runs ALFPGM
p=64 (the paper's range), p=16 and p=128 and SMO on two threads, then a time-vs-n sweep on subsamples
of a9a and a multi-class run on letter; then the plot (the ALFPGM paper's Figure 5).

All solvers get the same matrices: dense float64 where the data set is dense
(ijcnn1, cod-rna, covtype), CSR otherwise; libsvm-official always gets the CSR
matrix (its own format is sparse). Test accuracy and the dual objective are
computed for every solver by one function from its support vectors,
coefficients and intercept (K(X, SV) @ coef in C++), so they compare like for like.

    python bench/exact.py            # full run, about 40 minutes on 2 cores
    python bench/exact.py --quick    # smoke run on 3000-row subsamples

Many classes (no data files: generated): ``--many-classes`` times fit and
predict of scikit-learn's SVC and budgetsvm.SVC, interleaved, the median of
--repeat, on 600 and 3,000 classes of one row each (179,700 and 4,498,500
one-vs-one problems of two rows) and 100 classes of 100 rows, and writes
bench/results/exact_many_classes.{md,json}:

    python bench/exact.py --many-classes --repeat 3
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional

# libsvm-official is built with OpenMP (kernel columns in parallel); on this
# shared 2-core machine its second thread makes it up to 10x slower, and the
# comparison is one core against one core: pin it to one thread before it loads.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

import budgetsvm  # noqa: E402
from _common import ROOT, cpu_model, data_dir, git_commit, save_figure  # noqa: E402

CACHE_MB = 200
TOL = 1e-3

# name: files, hyperparameters (C, gamma). cod-rna, phishing and covtype have
# no test file: seeded 80/20 split. Their C, gamma were chosen by a holdout grid
# (C in 1, 8, 32, 128; gamma in 1/8, 1/2, 2, 8) on 4000-row subsamples with
# scikit-learn's SVC (C = 32, gamma = 2 within 0.01 of the best accuracy for all three).
DATASETS: Dict[str, Dict[str, Any]] = {
    "ijcnn1": dict(train="ijcnn1.bz2", test="ijcnn1.t.bz2", n_features=22, C=32.0, gamma=2.0),
    "a9a": dict(train="a9a.bz2", test="a9a.t.bz2", n_features=123, C=32.0, gamma=2.0**-7),
    "w8a": dict(train="w8a.bz2", test="w8a.t.bz2", n_features=300, C=8.0, gamma=2.0**-5),
    "cod-rna": dict(train="cod-rna.bz2", scale01=True, C=32.0, gamma=2.0),
    "phishing": dict(train="phishing.bz2", C=32.0, gamma=2.0),
    "covtype20k": dict(train="covtype.binary.scale.sub20k.bz2", C=32.0, gamma=2.0),
}


# ------------------------------------------------------------------ data


def load(name: str, quick: bool) -> Dict[str, Any]:
    spec = DATASETS[name]
    X, y = budgetsvm.load_svmlight(data_dir() / spec["train"], n_features=spec.get("n_features"))
    if "test" in spec:
        Xt, yt = budgetsvm.load_svmlight(data_dir() / spec["test"], n_features=X.shape[1])
    else:
        if spec.get("scale01"):
            dense = X.toarray()
            lo, hi = dense.min(axis=0), dense.max(axis=0)
            X = sp.csr_matrix((dense - lo) / np.where(hi > lo, hi - lo, 1.0))
        perm = np.random.RandomState(0).permutation(X.shape[0])
        cut = int(0.8 * X.shape[0])
        X, y, Xt, yt = X[perm[:cut]], y[perm[:cut]], X[perm[cut:]], y[perm[cut:]]
    # labels as -1/+1 (phishing 0/1, covtype 1/2): the larger label is +1
    top = max(np.unique(y))
    y, yt = np.where(y == top, 1.0, -1.0), np.where(yt == top, 1.0, -1.0)
    if quick:
        rng = np.random.RandomState(1)
        i = np.sort(rng.choice(X.shape[0], min(3000, X.shape[0]), replace=False))
        j = np.sort(rng.choice(Xt.shape[0], min(2000, Xt.shape[0]), replace=False))
        X, y, Xt, yt = X[i], y[i], Xt[j], yt[j]
    X, Xt = sp.csr_matrix(X), sp.csr_matrix(Xt)
    X.sort_indices()
    Xt.sort_indices()
    density = X.nnz / float(X.shape[0] * X.shape[1])
    dense = density > 0.3
    return dict(
        name=name, C=spec["C"], gamma=spec["gamma"], X_csr=X, y=y, Xt_csr=Xt, yt=yt, density=density,
        X=X.toarray() if dense else X, Xt=Xt.toarray() if dense else Xt, layout="dense" if dense else "CSR",
    )


# ------------------------------------------------------- common evaluation


def distinct_points(X, rows: np.ndarray) -> int:
    """Number of distinct feature vectors among X[rows].

    Data sets with repeated points (phishing: 8844 rows, 5100 distinct; w8a:
    49749 rows, 34704 distinct) have no unique optimal alpha: a support
    vector's weight can be shared among its copies in any proportion, so the
    SV count depends on the solver's path while the decision function does
    not. The count of distinct support points is what every exact solver
    must agree on.
    """
    rows = np.asarray(rows)
    if sp.issparse(X):
        R = sp.csr_matrix(X[rows])
        R.sum_duplicates()
        R.sort_indices()
        R.eliminate_zeros()
        keys = {(R.indices[R.indptr[i]:R.indptr[i + 1]].tobytes(), R.data[R.indptr[i]:R.indptr[i + 1]].tobytes())
                for i in range(R.shape[0])}
        return len(keys)
    return int(np.unique(np.asarray(X)[rows], axis=0).shape[0]) if len(rows) else 0


def expansion(X, SV, coef: np.ndarray, gamma: float, block: int = 2000) -> np.ndarray:
    """sum_j coef_j exp(-gamma ||x - sv_j||^2) for every row x of X, by
    blocks of rows of the Gaussian kernel matrix (budgetsvm.kernel_matrix)."""
    out = np.empty(X.shape[0])
    for b in range(0, X.shape[0], block):
        out[b : b + block] = budgetsvm.kernel_matrix(X[b : b + block], SV, gamma=gamma, n_jobs=2) @ coef
    return out


def evaluate(d: Dict[str, Any], sv_rows: np.ndarray, coef: np.ndarray, intercept: float) -> Dict[str, float]:
    """Test accuracy and dual objective from SVs (rows of X), coef (> 0 = class +1), intercept."""
    SV = d["X"][sv_rows]
    coef = np.asarray(coef, dtype=np.float64)
    Kc = expansion(SV, SV, coef, d["gamma"])
    objective = 0.5 * float(coef @ Kc) - float(np.abs(coef).sum())
    dec = expansion(d["Xt"], SV, coef, d["gamma"]) + intercept
    accuracy = float(np.mean(np.where(dec >= 0, 1.0, -1.0) == d["yt"]))
    return dict(objective=objective, accuracy=accuracy, n_sv=int(len(sv_rows)),
                n_sv_distinct=distinct_points(d["X"], sv_rows))


def run_ours(d, solver: str, pairs: int = 32, n_jobs: int = 1) -> Dict[str, Any]:
    clf = budgetsvm.SVC(C=d["C"], gamma=d["gamma"], tol=TOL, cache_size=CACHE_MB, solver=solver, pairs=pairs,
                        n_jobs=n_jobs)
    t = time.perf_counter()
    clf.fit(d["X"], d["y"])
    seconds = time.perf_counter() - t
    # classes_ = [-1, 1]; the public dual_coef_ is positive for classes_[1] = +1
    dual = clf.dual_coef_.toarray()[0] if sp.issparse(clf.dual_coef_) else clf.dual_coef_[0]
    out = evaluate(d, clf.support_, dual, float(clf.intercept_[0]))
    info = clf.fit_details_[0]
    hits, misses = info["cache_hits"], info["cache_misses"]
    out.update(seconds=seconds, solver_seconds=info["seconds"], iterations=int(clf.n_iter_[0]),
               reported_objective=float(clf.dual_objective_[0]), status=info["status"],
               cache_hit_rate=hits / max(1, hits + misses), kernel_columns=int(info["kernel_columns_computed"]))
    return out


def run_sklearn(d) -> Dict[str, Any]:
    from sklearn.svm import SVC

    clf = SVC(C=d["C"], gamma=d["gamma"], tol=TOL, cache_size=CACHE_MB)
    t = time.perf_counter()
    clf.fit(d["X"], d["y"])
    seconds = time.perf_counter() - t
    dual = clf.dual_coef_.toarray()[0] if sp.issparse(clf.dual_coef_) else clf.dual_coef_[0]
    out = evaluate(d, clf.support_, dual, float(clf.intercept_[0]))
    out.update(seconds=seconds, iterations=int(clf.n_iter_[0]))
    return out


def run_libsvm(d) -> Dict[str, Any]:
    from libsvm.svmutil import svm_parameter, svm_problem, svm_train

    prob = svm_problem(d["y"], d["X_csr"])
    param = svm_parameter(f"-s 0 -t 2 -c {d['C']} -g {d['gamma']} -e {TOL} -m {CACHE_MB} -q")
    t = time.perf_counter()
    model = svm_train(prob, param)
    seconds = time.perf_counter() - t
    rows = np.asarray(model.get_sv_indices(), dtype=np.int64) - 1
    coef = np.asarray([c[0] for c in model.get_sv_coef()])
    sign = 1.0 if model.get_labels()[0] == 1 else -1.0  # LIBSVM's decision is positive for label[0]
    out = evaluate(d, rows, sign * coef, sign * -model.rho[0])
    out.update(seconds=seconds)
    return out


# --------------------------------------------------------------- the run

# Pass 1 (every data set, one run each): scikit-learn, ALFPGM p=32 and our
# SMO on one thread, ALFPGM on two, libsvm-official.
MANDATORY = [("sklearn", {}), ("alfpgm p=32", dict(pairs=32, n_jobs=1)), ("smo", dict(n_jobs=1)),
             ("alfpgm p=32 j2", dict(pairs=32, n_jobs=2)), ("libsvm", {})]
REPEATED = MANDATORY[:3]
# Pass 2, while the time budget lasts: more runs of REPEATED (for the median),
# then ALFPGM with other p and SMO on two threads.
OPTIONAL = [("alfpgm p=64", dict(pairs=64, n_jobs=1)), ("alfpgm p=16", dict(pairs=16, n_jobs=1)),
            ("alfpgm p=128", dict(pairs=128, n_jobs=1)),
            ("smo j2", dict(n_jobs=2))]
LABELS = [label for label, _ in MANDATORY + OPTIONAL]


def run_config(d, label: str, kw: Dict[str, Any]) -> Dict[str, Any]:
    if label == "sklearn":
        return run_sklearn(d)
    if label == "libsvm":
        return run_libsvm(d)
    if label.startswith("smo"):
        return run_ours(d, "smo", n_jobs=kw.get("n_jobs", 1))
    return run_ours(d, "alfpgm", **kw)


class Bench:
    """Runs configurations, keeps every run, and says whether the budget allows one more."""

    def __init__(self, budget_seconds: float):
        self.start = time.perf_counter()
        self.budget = budget_seconds
        self.runs: Dict[str, Dict[str, List[Dict[str, Any]]]] = {}

    def affordable(self, estimate: float) -> bool:
        return time.perf_counter() - self.start + estimate <= self.budget

    def run(self, d, label: str, kw: Dict[str, Any], tag: str = "") -> Dict[str, Any]:
        res = run_config(d, label, kw)
        self.runs.setdefault(d["name"], {}).setdefault(label, []).append(res)
        hit = f"  cache hits {res['cache_hit_rate']:.3f}" if "cache_hit_rate" in res else ""
        print(f"  {d['name']:10s} {label:15s} {tag:6s}: {res['seconds']:8.2f} s  obj {res['objective']:.8g}  "
              f"SV {res['n_sv']}  acc {res['accuracy']:.4f}{hit}   [{time.perf_counter() - self.start:6.0f} s]",
              flush=True)
        return res

    def summary(self, name: str) -> Dict[str, Any]:
        out = {}
        for label in LABELS:
            results = self.runs.get(name, {}).get(label)
            if not results:
                continue
            s = dict(results[0])
            s["seconds"] = statistics.median(x["seconds"] for x in results)
            s["all_seconds"] = [x["seconds"] for x in results]
            out[label] = s
        return out


def sweep(bench: Bench, full: Dict[str, Any], sizes: List[int], quick: bool) -> List[Dict[str, Any]]:
    """Training time of scikit-learn and ALFPGM p=32 on nested random subsamples."""
    out = []
    perm = np.random.RandomState(2).permutation(full["X_csr"].shape[0])
    for n in sizes:
        n = min(n, len(perm))
        idx = np.sort(perm[:n])
        d = dict(full, name=f"{full['name']}[{n}]")
        d["X_csr"], d["y"], d["X"] = full["X_csr"][idx], full["y"][idx], full["X"][idx]
        if quick:
            d["Xt"], d["yt"] = full["Xt"][:2000], full["yt"][:2000]
        row = {"n": n}
        for label, kw in REPEATED:
            row[label] = bench.run(d, label, kw, "sweep")["seconds"]
        out.append(row)
    return out


def multiclass(bench: Bench, quick: bool) -> Dict[str, Any]:
    """letter (26 classes, one-vs-one: 325 binary problems): scikit-learn vs budgetsvm.SVC, one run each."""
    from sklearn.svm import SVC as SkSVC

    X, y = budgetsvm.load_svmlight(data_dir() / "letter.scale.bz2", n_features=16)
    Xt, yt = budgetsvm.load_svmlight(data_dir() / "letter.scale.t.bz2", n_features=16)
    X, Xt = X.toarray(), Xt.toarray()
    if quick:
        X, y = X[:3000], y[:3000]
    C, gamma = 16.0, 2.0
    out: Dict[str, Any] = dict(name="letter", n_train=X.shape[0], n_test=Xt.shape[0], n_classes=len(np.unique(y)),
                               C=C, gamma=gamma, solvers={})
    reference = None
    for label, make in [("sklearn", lambda: SkSVC(C=C, gamma=gamma, tol=TOL, cache_size=CACHE_MB)),
                        ("alfpgm p=32", lambda: budgetsvm.SVC(C=C, gamma=gamma, tol=TOL, cache_size=CACHE_MB)),
                        ("smo", lambda: budgetsvm.SVC(C=C, gamma=gamma, tol=TOL, cache_size=CACHE_MB, solver="smo"))]:
        clf = make()
        t = time.perf_counter()
        clf.fit(X, y)
        seconds = time.perf_counter() - t
        pred = clf.predict(Xt)
        if reference is None:
            reference = pred
        out["solvers"][label] = dict(seconds=seconds, n_sv=int(clf.support_.size), accuracy=float(np.mean(pred == yt)),
                                     agreement=float(np.mean(pred == reference)))
        print(f"  letter     {label:15s}      : {seconds:8.2f} s  SV {clf.support_.size}  "
              f"acc {np.mean(pred == yt):.4f}   [{time.perf_counter() - bench.start:6.0f} s]", flush=True)
    return out


#: name: classes, rows per class, query rows (--many-classes)
MANY_CLASSES = {
    "600 classes x 1 row": (600, 1, 50),
    "3000 classes x 1 row": (3000, 1, 50),
    "100 classes x 100 rows": (100, 100, 2000),
}


def many_classes_data(k: int, per: int, n_query: int, seed: int = 0):
    """k classes of `per` rows in 10 dimensions (class centres 1.5 apart on
    average, unit noise); `n_query` rows drawn the same way."""
    rng = np.random.RandomState(seed)
    centres = rng.randn(k, 10) * 1.5
    y = np.repeat(np.arange(k), per)
    X = centres[y] + rng.randn(k * per, 10)
    yq = rng.randint(0, k, n_query)
    return X, y, centres[yq] + rng.randn(n_query, 10), yq


def many_classes(repeat: int, quick: bool) -> Dict[str, Any]:
    """fit and predict, scikit-learn against budgetsvm, interleaved (each
    repeat runs both), medians; predictions compared."""
    from sklearn.svm import SVC as SkSVC

    out: Dict[str, Any] = {}
    for name, (k, per, n_query) in MANY_CLASSES.items():
        if quick and k * per > 2000:
            continue
        X, y, Xq, yq = many_classes_data(k, per, n_query)
        times: Dict[str, Dict[str, List[float]]] = {"sklearn": {"fit": [], "predict": []},
                                                    "budgetsvm": {"fit": [], "predict": []}}
        preds: Dict[str, Any] = {}
        for _ in range(repeat):
            for label, make in (("sklearn", lambda: SkSVC(cache_size=CACHE_MB)),
                                ("budgetsvm", lambda: budgetsvm.SVC(cache_size=CACHE_MB))):
                clf = make()
                t = time.perf_counter()
                clf.fit(X, y)
                times[label]["fit"].append(time.perf_counter() - t)
                t = time.perf_counter()
                preds[label] = clf.predict(Xq)
                times[label]["predict"].append(time.perf_counter() - t)
                print(f"  {name:24s} {label:9s}: fit {times[label]['fit'][-1]:8.3f} s, "
                      f"predict {n_query} rows {times[label]['predict'][-1]:8.3f} s", flush=True)
        row: Dict[str, Any] = dict(classes=k, rows_per_class=per, query_rows=n_query, pairs=k * (k - 1) // 2,
                                   agreement=float(np.mean(preds["sklearn"] == preds["budgetsvm"])))
        for label in times:
            for what in ("fit", "predict"):
                row[f"{label}_{what}"] = statistics.median(times[label][what])
                row[f"{label}_{what}_all"] = times[label][what]
        out[name] = row
    return out


def write_many_classes(meta: Dict[str, Any], rows: Dict[str, Any], path: Path) -> None:
    lines = [
        "# Exact SVC with many classes: budgetsvm.SVC vs scikit-learn's SVC",
        "",
        f"Measured {meta['date']} on {meta['cpu']} ({meta['cores']} cores, load average at start "
        f"{meta['load']:.1f}), Python {meta['python']}, scikit-learn {meta['sklearn']}, budgetsvm commit "
        f"{meta['commit']}. Command: `{meta['command']}`.",
        "",
        "Generated data (10 features, class centres 1.5 apart on average, unit noise), default "
        "parameters for both (C = 1, gamma = 'scale', tol = 1e-3, cache 200 MB), one thread. Median of "
        f"{meta['repeat']} interleaved runs (the JSON has every time); ratio = budgetsvm / scikit-learn "
        "(below 1: budgetsvm is faster). A load average above the core count means the host was shared with "
        "other work: single times are then noisy, the ratios of interleaved runs less so.",
        "",
        "| problem | pairs | query rows | fit sklearn (s) | fit budgetsvm (s) | fit ratio | predict sklearn (s) | "
        "predict budgetsvm (s) | predict ratio | same predictions |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in rows.items():
        lines.append(
            f"| {name} | {r['pairs']:,} | {r['query_rows']} | {r['sklearn_fit']:.3f} | {r['budgetsvm_fit']:.3f} | "
            f"**{r['budgetsvm_fit'] / r['sklearn_fit']:.2f}** | {r['sklearn_predict']:.3f} | "
            f"{r['budgetsvm_predict']:.3f} | **{r['budgetsvm_predict'] / r['sklearn_predict']:.2f}** | "
            f"{100 * r['agreement']:.1f}% |")
    lines.append("")
    path.write_text("\n".join(lines))


def plot(results: Dict[str, Any], sweep_rows: List[Dict[str, Any]], sweep_name: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2 if sweep_rows else 1, figsize=(12 if sweep_rows else 7, 4.6), squeeze=False)
    axes = axes[0]
    names = sorted(results, key=lambda k: results[k]["n_train"])
    ns = [results[k]["n_train"] for k in names]
    styles = {"sklearn": ("tab:red", "o"), "libsvm": ("tab:orange", "s"), "smo": ("tab:green", "^"),
              "alfpgm p=32": ("tab:blue", "D"), "alfpgm p=32 j2": ("tab:cyan", "v")}
    ax = axes[0]
    for label, (color, marker) in styles.items():
        times = [results[k]["solvers"].get(label, {}).get("seconds", np.nan) for k in names]
        ax.plot(range(len(names)), times, marker=marker, color=color, label=label)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels([f"{k}\nn={n}" for k, n in zip(names, ns)], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("training time (s)")
    ax.set_title("Training time per data set, ordered by n (cf. ALFPGM paper Fig. 5)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")
    if not sweep_rows:
        save_figure(fig, path)
        return
    ax = axes[1]
    for label in ("sklearn", "alfpgm p=32", "smo"):
        color, marker = styles[label]
        ax.plot([r["n"] for r in sweep_rows], [r[label] for r in sweep_rows], marker=marker, color=color, label=label)
    if sweep_rows:
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel(f"training examples n ({sweep_name} subsamples)")
    ax.set_ylabel("training time (s)")
    ax.set_title(f"Time vs n on {sweep_name}")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")
    save_figure(fig, path)


def distinct(a: Dict[str, Any], ref: Dict[str, Any]) -> str:
    """'ours / reference (+x%)' for the distinct support points, '' when not measured."""
    if "n_sv_distinct" not in a or "n_sv_distinct" not in ref:
        return ""
    x, r = a["n_sv_distinct"], ref["n_sv_distinct"]
    return f"{x} / {r} ({100 * (x - r) / r:+.1f}%)"


def write_markdown(meta, results, sweep_rows, sweep_name, path: Path, png: str, multi=None) -> None:
    lines = [
        "# Exact kernel SVM: budgetsvm.SVC vs LIBSVM",
        "",
        f"Measured {meta['date']} on {meta['cpu']} ({meta['cores']} cores, load average at start "
        f"{meta.get('load', float('nan')):.1f}), "
        f"Python {meta['python']}, scikit-learn {meta['sklearn']}, libsvm-official {meta['libsvm']}, "
        f"budgetsvm commit {meta['commit']}. Command: `{meta['command']}`.",
        "",
        f"Gaussian kernel, tol = {TOL}, cache 200 MB for every solver. Times are wall-clock seconds of `fit` "
        "(for libsvm-official: `svm_train` on a prepared `svm_problem`, one OpenMP thread). A first pass runs "
        "scikit-learn, ALFPGM p=32 and our SMO on one thread, ALFPGM p=32 on two threads and libsvm-official "
        "once on every data set; a second pass, within a time budget of "
        f"{meta['budget_minutes']:.0f} minutes, adds runs of scikit-learn, ALFPGM p=32 and SMO (up to "
        f"{meta['repeat']} each, interleaved; the tables give the median, the column `runs` their number, the "
        "JSON every time), then ALFPGM with p = 64, 16 and 128 and SMO on two threads; what the budget did not allow "
        "is marked `not run`. Dual objective `1/2 c^T K c - sum |c|` and test accuracy are computed for every solver "
        "by the same code from its support vectors, coefficients and intercept. `j2` = `n_jobs=2` (2 threads "
        "computing kernel columns; on a machine with 2 cores and other load this is a lower bound "
        "on what a second core gives).",
        "",
        "## Summary: budgetsvm (one thread unless j2) against LIBSVM",
        "",
        "Time ratios ours / theirs (below 1: ours is faster); objective, SVs and accuracy against scikit-learn.",
        "",
        "| data set | n | solver | time (s) | / sklearn | / libsvm | objective rel. diff | SVs ours / sklearn | "
        "distinct SV points ours / sklearn | test acc. ours - sklearn (points) |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in results.items():
        s = r["solvers"]
        if not all(k in s for k in ("sklearn", "libsvm")):
            continue
        sk, lib = s["sklearn"], s["libsvm"]
        lines.append(f"| {name} | {r['n_train']} | scikit-learn SVC | {sk['seconds']:.2f} | 1 | "
                     f"{sk['seconds'] / lib['seconds']:.2f} | | | | |")
        lines.append(f"| | | libsvm-official | {lib['seconds']:.2f} | {lib['seconds'] / sk['seconds']:.2f} | 1 | | | | |")
        for label in ("alfpgm p=32", "alfpgm p=32 j2", "smo", "smo j2"):
            if label not in s:
                continue
            a = s[label]
            rel = (a["objective"] - sk["objective"]) / abs(sk["objective"])
            lines.append(
                f"| | | {label} | {a['seconds']:.2f} | **{a['seconds'] / sk['seconds']:.2f}** | "
                f"{a['seconds'] / lib['seconds']:.2f} | {rel:+.1e} | {a['n_sv']} / {sk['n_sv']} "
                f"({100 * (a['n_sv'] - sk['n_sv']) / sk['n_sv']:+.1f}%) | {distinct(a, sk)} | "
                f"{100 * (a['accuracy'] - sk['accuracy']):+.2f} |"
            )
    lines.append("")
    for name, r in results.items():
        s = r["solvers"]
        ref = s["sklearn"]
        lines += [
            f"## {name}: n = {r['n_train']} train ({r.get('n_distinct', '?')} distinct points), "
            f"{r['n_test']} test, d = {r['n_features']} "
            f"({r['layout']}, density {r['density']:.2f}), C = {r['C']}, gamma = {r['gamma']:.6g}",
            "",
            "| solver | time (s) | runs | ratio vs sklearn | ratio vs libsvm | dual objective | rel. diff vs sklearn | "
            "SVs | distinct SV points | test acc. | rounds | cache hit rate |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for label in LABELS:
            if label not in s:
                lines.append(f"| {label} | not run | 0 | | | | | | | | | |")
                continue
            x = s[label]
            rel = (x["objective"] - ref["objective"]) / abs(ref["objective"])
            hit = f"{x['cache_hit_rate']:.3f}" if "cache_hit_rate" in x else ""
            rounds = str(x.get("iterations", ""))
            lines.append(
                f"| {label} | {x['seconds']:.2f} | {len(x['all_seconds'])} | {x['seconds'] / ref['seconds']:.2f} | "
                f"{x['seconds'] / s['libsvm']['seconds']:.2f} | {x['objective']:.6g} | {rel:+.1e} | {x['n_sv']} | "
                f"{x.get('n_sv_distinct', '')} | {100 * x['accuracy']:.2f} | {rounds} | {hit} |"
            )
        lines.append("")
    if sweep_rows:
        lines += [f"## Time vs n ({sweep_name} subsamples, one run each)", "",
                  "| n | sklearn (s) | alfpgm p=32 (s) | smo (s) | alfpgm / sklearn | smo / sklearn |",
                  "|---:|---:|---:|---:|---:|---:|"]
        for row in sweep_rows:
            lines.append(f"| {row['n']} | {row['sklearn']:.2f} | {row['alfpgm p=32']:.2f} | {row['smo']:.2f} | "
                         f"{row['alfpgm p=32'] / row['sklearn']:.2f} | {row['smo'] / row['sklearn']:.2f} |")
        lines.append("")
    if not sweep_rows or not multi:
        lines += ["The subsample sweep on a9a and the multi-class run on letter did not fit in the time budget "
                  "of this run (`--budget-minutes`)." if not (sweep_rows or multi) else "", ""]
    if multi:
        sk = multi["solvers"]["sklearn"]
        lines += [f"## Multi-class: letter, n = {multi['n_train']} train, {multi['n_test']} test, "
                  f"{multi['n_classes']} classes (one-vs-one: {multi['n_classes'] * (multi['n_classes'] - 1) // 2} "
                  f"binary problems), C = {multi['C']}, gamma = {multi['gamma']}, one run each", "",
                  "| solver | time (s) | ratio vs sklearn | SVs | test acc. | same prediction as sklearn |",
                  "|---|---:|---:|---:|---:|---:|"]
        for label, x in multi["solvers"].items():
            lines.append(f"| {label} | {x['seconds']:.2f} | {x['seconds'] / sk['seconds']:.2f} | {x['n_sv']} | "
                         f"{100 * x['accuracy']:.2f} | {100 * x['agreement']:.2f}% |")
        lines.append("")
    lines += [f"![time vs n]({png})", ""]
    path.write_text("\n".join(lines))


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3000-row subsamples, one run each")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-multiclass", dest="multiclass", action="store_false",
                        help="skip the multi-class run on letter")
    parser.add_argument("--budget-minutes", type=float, default=40.0,
                        help="the second pass (medians, SMO, other p, sweep) stops starting runs after this")
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--sweep", default="a9a", help="data set of the time-vs-n sweep ('' for none)")
    parser.add_argument("--many-classes", action="store_true",
                        help="only the many-classes comparison (generated data; see the module docstring)")
    parser.add_argument("--stem", default=None,
                        help="results file name in bench/results (default exact / exact_quick)")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    stem = args.stem or ("exact_quick" if args.quick else "exact")
    out_dir = ROOT / "bench" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = dict(
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), cpu=cpu_model(),
        cores=os.cpu_count(), load=os.getloadavg()[0], python=platform.python_version(),
        sklearn=importlib.metadata.version("scikit-learn"), libsvm=importlib.metadata.version("libsvm-official"),
        commit=git_commit(), repeat=repeat, budget_minutes=args.budget_minutes, command="python bench/exact.py " + " ".join(argv or sys.argv[1:]),
    )
    if args.many_classes:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "unique classes > 50% of the samples"
            rows = many_classes(repeat, args.quick)
        stem = args.stem or ("exact_many_classes_quick" if args.quick else "exact_many_classes")
        (out_dir / f"{stem}.json").write_text(json.dumps(dict(meta=meta, results=rows), indent=1))
        write_many_classes(meta, rows, out_dir / f"{stem}.md")
        print(f"wrote {out_dir / (stem + '.md')}")
        return
    results: Dict[str, Any] = {}
    sweep_rows: List[Dict[str, Any]] = []
    png = f"{stem}_time_vs_n.png"
    bench = Bench(60.0 * args.budget_minutes)
    multi: Dict[str, Any] = {}

    def write_all() -> None:
        for name, d in data.items():
            if "n_distinct" not in d:
                d["n_distinct"] = distinct_points(d["X"], np.arange(d["X"].shape[0]))
            results[name] = dict(n_train=d["X"].shape[0], n_distinct=d["n_distinct"],
                                 n_test=d["Xt"].shape[0], n_features=d["X"].shape[1],
                                 layout=d["layout"], density=d["density"], C=d["C"], gamma=d["gamma"],
                                 solvers=bench.summary(name))
        meta["elapsed_seconds"] = time.perf_counter() - bench.start
        (out_dir / f"{stem}.json").write_text(
            json.dumps(dict(meta=meta, results=results, sweep=sweep_rows, multiclass=multi), indent=1))
        write_markdown(meta, results, sweep_rows, args.sweep, out_dir / f"{stem}.md", png, multi)
        plot(results, sweep_rows, args.sweep, out_dir / png)

    data: Dict[str, Dict[str, Any]] = {}
    names = [n for n in args.datasets.split(",") if n]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        print("pass 1: every data set once", flush=True)
        for name in names:
            d = load(name, args.quick)
            data[name] = d
            print(f"{name}: {d['X'].shape} train, {d['Xt'].shape[0]} test, {d['layout']}", flush=True)
            for label, kw in MANDATORY:
                bench.run(d, label, kw, "rep 1")
            write_all()
        print("pass 2: medians, our SMO, other p (within the budget)", flush=True)
        for r in range(1, repeat):
            for name in names:
                runs = bench.runs[name]
                cost = sum(runs[label][0]["seconds"] for label, _ in REPEATED)
                if bench.affordable(cost):
                    for label, kw in REPEATED:
                        bench.run(data[name], label, kw, f"rep {r + 1}")
            write_all()
        for label, kw in OPTIONAL:
            for name in names:
                estimate = bench.runs[name]["smo" if label.startswith("smo") else "alfpgm p=32"][0]["seconds"] * 1.5
                if bench.affordable(estimate):
                    bench.run(data[name], label, kw)
            write_all()
        if args.sweep and args.sweep in data:
            sizes = [500, 1000, 2000] if args.quick else [4000, 8000, 16000]
            full_time = sum(bench.runs[args.sweep][k][0]["seconds"] for k, _ in REPEATED)
            if args.quick or bench.affordable(0.4 * full_time):
                full = data[args.sweep] if args.quick else load(args.sweep, quick=False)
                sweep_rows.extend(sweep(bench, full, sizes, args.quick))
                if not args.quick:
                    s = bench.summary(args.sweep)
                    sweep_rows.append({"n": full["X"].shape[0], **{k: s[k]["seconds"] for k, _ in REPEATED}})
            write_all()
        if args.multiclass and bench.affordable(0 if args.quick else 90):
            multi.update(multiclass(bench, args.quick))
    write_all()
    print(f"wrote {out_dir / (stem + '.md')}")

if __name__ == "__main__":
    main()
