"""Scale benchmark of the budgeted solvers (issue: scale; docs/scale.md).

Parts (``python bench/scale.py PART [options]``), each printing one JSON
record per measurement to stdout and appending it to ``--out`` (JSON lines):

``epoch``    time per epoch, peak memory beyond the input and test accuracy
             vs n on generated data (``--family xor20`` low noise,
             ``susy18`` 20% label noise), n from 1e5 to 1e7. Every fit runs in
             a fresh subprocess; memory is the process's peak RSS during
             ``fit`` minus its RSS before it (Linux: the peak is reset through
             /proc/self/clear_refs after the data are made).
``threads``  one thread against two (``n_jobs=2``, with ``--shards 2``, the
             default, on two data shards: ``shards=2``; with ``--shards 1``
             the same model as one thread's) on ijcnn1, a9a and a generated
             1M set: interleaved runs, the minimum time of ``--repeats``,
             test accuracy of every run.
``curve``    the same pairs at every epoch count from 1 to ``--epochs``: the
             minimum time and median test accuracy of each, and the speed-up
             to equal accuracy: each side's fastest epoch count whose median
             accuracy is within 0.3 points of one thread's at ``--epochs``.
``partial``  ``partial_fit`` over chunks of 5,000 rows of ijcnn1 (one pass)
             against ``fit(epochs=1)``, medians over seeds.
``report``   markdown tables and the epoch-time plot from the JSON lines.
``pareto``   error against training time at n = 1M (noisy): BudgetedSVC
             (BSGD, BSCA; 1-2 epochs) against the exact SVM (our SVC and
             scikit-learn's) on subsamples, and Nystroem (same number of
             basis points) + LinearSVC / SGDClassifier; each at every C of
             ``--C-grid``, the report choosing C on a validation set.

The real data sets are read from ``$BUDGETSVM_DATA`` or ../shared/datasets,
never copied. The machine is shared: every record carries the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "python"))

from _common import data_dir, git_commit, machine_line, save_figure  # noqa: E402
from datagen import default_gamma, make  # noqa: E402

NOISE = {"xor20": 0.0, "susy18": 0.2}
REAL = {"ijcnn1": (2.0, 32.0), "a9a": (2.0**-5, 8.0)}


def load() -> float:
    return os.getloadavg()[0]


def emit(record: dict, out: str | None) -> None:
    record = {"load": round(load(), 2), **record}
    line = json.dumps(record)
    print(line, flush=True)
    if out:
        with open(out, "a") as f:
            f.write(line + "\n")


def rss_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def one_fit(args: argparse.Namespace) -> dict:
    """Runs in the subprocess of the `epoch` part: make, fit, measure."""
    from budgetsvm import BudgetedSVC

    X, y = make(args.family, args.n, noise=NOISE[args.family], seed=args.seed)
    Xt, yt = make(args.family, 100_000, noise=NOISE[args.family], seed=args.seed, test=True)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset the peak RSS to the current RSS
    before = rss_kb("VmRSS")
    clf = BudgetedSVC(solver=args.solver, budget=args.budget, C=args.C, gamma=default_gamma(args.family),
                      epochs=args.epochs, random_state=args.seed)
    t = time.perf_counter()
    clf.fit(X, y)
    seconds = time.perf_counter() - t
    peak = rss_kb("VmHWM")
    return {
        "part": "epoch", "family": args.family, "n": args.n, "solver": args.solver, "budget": args.budget,
        "epochs": args.epochs, "seed": args.seed, "seconds_per_epoch": seconds / args.epochs,
        "input_mb": X.nbytes / 2**20, "extra_rss_mb": (peak - before) / 1024,
        "bytes_per_row": (peak - before) * 1024 / args.n, "accuracy": float(clf.score(Xt, yt)),
    }


def part_epoch(args: argparse.Namespace) -> None:
    for n in args.sizes:
        for solver in args.solvers:
            for seed in range(args.seeds):
                cmd = [sys.executable, __file__, "_one", "--family", args.family, "--n", str(n), "--solver", solver,
                       "--budget", str(args.budget), "--C", str(args.C), "--epochs", str(args.epochs),
                       "--seed", str(seed)]
                out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                emit(json.loads(out.strip().splitlines()[-1]), args.out)


def real(name: str):
    from budgetsvm import load_svmlight

    X, y = load_svmlight(data_dir() / f"{name}.bz2")
    Xt, yt = load_svmlight(data_dir() / f"{name}.t.bz2", n_features=X.shape[1])
    return X, y, Xt, yt, REAL[name]


def problems(names):
    for name in names:
        if name in REAL:
            yield (name, *real(name))
        else:
            family, n, *C = name.split(":")  # family:n or family:n:C (C = 1 by default)
            X, y = make(family, int(float(n)), noise=NOISE[family], seed=0)
            Xt, yt = make(family, 100_000, noise=NOISE[family], seed=0, test=True)
            yield name, X, y, Xt, yt, (default_gamma(family), float(C[0]) if C else 1.0)


def part_threads(args: argparse.Namespace) -> None:
    from budgetsvm import BudgetedSVC

    for name, X, y, Xt, yt, (gamma, C) in problems(args.problems):
        for solver in args.solvers:
            times = {1: [], 2: []}
            accs = {1: [], 2: []}
            for r in range(args.repeats):
                for jobs in (1, 2) if r % 2 == 0 else (2, 1):  # interleaved, alternating order
                    clf = BudgetedSVC(solver=solver, budget=args.budget, C=C, gamma=gamma, epochs=args.epochs,
                                      n_jobs=jobs, shards=args.shards if jobs == 2 else 1, random_state=r)
                    t = time.perf_counter()
                    clf.fit(X, y)
                    times[jobs].append(time.perf_counter() - t)
                    accs[jobs].append(float(clf.score(Xt, yt)))
            emit({"part": "threads", "problem": name, "solver": solver, "budget": args.budget, "epochs": args.epochs,
                  "shards_2": args.shards,
                  "min_seconds_1": min(times[1]), "min_seconds_2": min(times[2]),
                  "speedup": min(times[1]) / min(times[2]), "accuracy_1": float(np.median(accs[1])),
                  "accuracy_2": float(np.median(accs[2])), "repeats": args.repeats}, args.out)


def part_curve(args: argparse.Namespace) -> None:
    from budgetsvm import BudgetedSVC

    for name, X, y, Xt, yt, (gamma, C) in problems(args.problems):
        for solver in args.solvers:
            times: dict = {}
            accs: dict = {}
            for r in range(args.repeats):
                for e in range(1, args.epochs + 1):
                    for jobs in (1, 2) if (r + e) % 2 == 0 else (2, 1):  # interleaved, alternating order
                        clf = BudgetedSVC(solver=solver, budget=args.budget, C=C, gamma=gamma, epochs=e,
                                          n_jobs=jobs, shards=args.shards if jobs == 2 else 1, random_state=r)
                        t = time.perf_counter()
                        clf.fit(X, y)
                        times.setdefault((jobs, e), []).append(time.perf_counter() - t)
                        accs.setdefault((jobs, e), []).append(float(clf.score(Xt, yt)))
            curve = {f"{jobs}:{e}": {"min_seconds": min(times[jobs, e]), "accuracy": float(np.median(accs[jobs, e]))}
                     for jobs, e in sorted(times)}
            target = curve[f"1:{args.epochs}"]["accuracy"] - 0.003
            reach = {jobs: min(((v["min_seconds"], int(k.split(":")[1])) for k, v in curve.items()
                                if k.startswith(f"{jobs}:") and v["accuracy"] >= target), default=(None, None))
                     for jobs in (1, 2)}  # (None, None): two threads never reach it within --epochs
            emit({"part": "curve", "problem": name, "solver": solver, "budget": args.budget, "epochs": args.epochs,
                  "shards_2": args.shards,
                  "curve": curve, "target_accuracy": target, "epochs_to_target_1": reach[1][1],
                  "epochs_to_target_2": reach[2][1], "speedup_same_epochs": curve[f"1:{args.epochs}"]["min_seconds"]
                  / curve[f"2:{args.epochs}"]["min_seconds"], "speedup_to_target": reach[1][0] / reach[2][0] if reach[2][0] else None,
                  "repeats": args.repeats}, args.out)


def part_partial(args: argparse.Namespace) -> None:
    from budgetsvm import BudgetedSVC

    X, y, Xt, yt, (gamma, C) = real("ijcnn1")
    for solver in args.solvers:
        full, stream = [], []
        for seed in range(args.seeds):
            kw = dict(solver=solver, budget=args.budget, C=C, gamma=gamma, random_state=seed)
            full.append(float(BudgetedSVC(epochs=1, **kw).fit(X, y).score(Xt, yt)))
            order = np.random.default_rng(seed).permutation(X.shape[0])
            clf = BudgetedSVC(**kw)
            for s in range(0, X.shape[0], 5000):
                idx = order[s : s + 5000]
                clf.partial_fit(X[idx], y[idx], classes=[-1.0, 1.0])
            stream.append(float(clf.score(Xt, yt)))
        emit({"part": "partial", "problem": "ijcnn1", "solver": solver, "seeds": args.seeds,
              "median_fit_epochs1": float(np.median(full)), "median_partial_fit": float(np.median(stream)),
              "fit": full, "partial": stream}, args.out)


def part_pareto(args: argparse.Namespace) -> None:
    """Every method at every C of ``--C-grid``; the report keeps, per method
    and row count, the C with the best accuracy on a validation set drawn
    from its own stream (never the test set), so that no method is held to a
    C chosen for another's n."""
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import SGDClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import LinearSVC as SkLinearSVC
    from sklearn.svm import SVC as SkSVC

    from budgetsvm import SVC, BudgetedSVC

    family = args.family
    X, y = make(family, args.n, noise=NOISE[family], seed=0)
    Xt, yt = make(family, 100_000, noise=NOISE[family], seed=0, test=True)
    Xv, yv = make(family, 50_000, noise=NOISE[family], seed=1, test=True)
    gamma = default_gamma(family)

    def run(label, make_model, rows, C):
        model = make_model(C)
        t, cpu = time.perf_counter(), time.process_time()
        model.fit(X[:rows], y[:rows])
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
        emit({"part": "pareto", "family": family, "n": args.n, "method": label, "rows": rows, "C": C,
              "seconds": seconds, "cpu_seconds": cpu, "validation": float(model.score(Xv, yv)),
              "accuracy": float(model.score(Xt, yt))}, args.out)

    for C in args.C_grid:
        for solver in ("bsgd", "bsca"):
            for epochs in args.pareto_epochs:
                run(f"BudgetedSVC {solver} B={args.budget} epochs={epochs}",
                    lambda C: BudgetedSVC(solver=solver, budget=args.budget, C=C, gamma=gamma, epochs=epochs,
                                          random_state=0), args.n, C)
        for rows in args.subsamples:
            run("budgetsvm SVC (exact)", lambda C: SVC(C=C, gamma=gamma, cache_size=2000), rows, C)
            if rows <= args.sklearn_rows:
                run("scikit-learn SVC (exact)", lambda C: SkSVC(C=C, gamma=gamma, cache_size=2000), rows, C)
        for rows in args.nystroem_rows:
            run(f"Nystroem({args.budget}) + LinearSVC",
                lambda C: make_pipeline(Nystroem(gamma=gamma, n_components=args.budget, random_state=0),
                                        SkLinearSVC(C=C, max_iter=100_000)), rows, C)
            run(f"Nystroem({args.budget}) + SGDClassifier",
                lambda C: make_pipeline(Nystroem(gamma=gamma, n_components=args.budget, random_state=0),
                                        SGDClassifier(alpha=1.0 / (C * rows), random_state=0)), rows, C)


def pareto_table(rows: list) -> None:
    """Per method and row count the validation-chosen C; then, for each
    budgeted run, the exact SVM on the largest subsample that trained in no
    more time (CPU seconds: the machine is shared)."""
    best = {}
    for r in rows:
        key = (r["method"], r["rows"])
        if key not in best or r["validation"] > best[key]["validation"]:
            best[key] = r
    print("\npareto, C chosen on the validation set:\n")
    print("| method | rows | C | CPU s | wall s | validation | test accuracy | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in sorted(best.values(), key=lambda r: (r["method"], r["rows"])):
        print(f"| {r['method']} | {r['rows']:,} | {r['C']:g} | {r['cpu_seconds']:.1f} | {r['seconds']:.1f} | "
              f"{100 * r['validation']:.2f}% | {100 * r['accuracy']:.2f}% | {r['load']} |")
    exact = [r for r in best.values() if r["method"] == "budgetsvm SVC (exact)"]
    print("\n| budgeted run | CPU s | test accuracy | exact SVM rows in <= that time | its test accuracy | difference |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in sorted(best.values(), key=lambda r: r["method"]):
        if not r["method"].startswith("BudgetedSVC"):
            continue
        fits = [e for e in exact if e["cpu_seconds"] <= r["cpu_seconds"]]
        if not fits:
            print(f"| {r['method']} | {r['cpu_seconds']:.1f} | {100 * r['accuracy']:.2f}% | none measured | | |")
            continue
        e = max(fits, key=lambda e: e["rows"])
        print(f"| {r['method']} | {r['cpu_seconds']:.1f} | {100 * r['accuracy']:.2f}% | {e['rows']:,} | "
              f"{100 * e['accuracy']:.2f}% | {100 * (r['accuracy'] - e['accuracy']):+.2f} points |")


def part_report(args: argparse.Namespace) -> None:
    """Markdown tables (and a log-log plot of the epoch times) from JSON-lines files."""
    records = [json.loads(line) for path in args.inputs for line in open(path) if line.strip()]
    epoch = [r for r in records if r["part"] == "epoch"]
    if epoch:
        print("| family | solver | n | s / epoch | extra RSS (MB) | bytes / row | accuracy | load |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in sorted(epoch, key=lambda r: (r["family"], r["solver"], r["n"])):
            print(f"| {r['family']} | {r['solver']} | {r['n']:,} | {r['seconds_per_epoch']:.2f} | "
                  f"{r['extra_rss_mb']:.1f} | {r['bytes_per_row']:.1f} | {r['accuracy']:.4f} | {r['load']} |")
        print()
        for key in sorted({(r["family"], r["solver"]) for r in epoch}):
            rows = [r for r in epoch if (r["family"], r["solver"]) == key]
            n = np.log([r["n"] for r in rows])
            t = np.log([r["seconds_per_epoch"] for r in rows])
            if len(rows) > 1:
                print(f"- {key[0]} {key[1]}: log-log slope of time per epoch vs n = {np.polyfit(n, t, 1)[0]:.3f}")
        if args.plot:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            fig, ax = plt.subplots(figsize=(5, 3.5))
            for key in sorted({(r["family"], r["solver"]) for r in epoch}):
                rows = sorted((r for r in epoch if (r["family"], r["solver"]) == key), key=lambda r: r["n"])
                ax.loglog([r["n"] for r in rows], [r["seconds_per_epoch"] for r in rows], "o-", label=" ".join(key))
            ax.set_xlabel("rows n")
            ax.set_ylabel("seconds per epoch")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend()
            save_figure(fig, args.plot)
    pareto = [r for r in records if r["part"] == "pareto"]
    if pareto and "validation" in pareto[0]:
        pareto_table(pareto)
    for part in ("threads", "curve", "partial", "pareto"):
        rows = [r for r in records if r["part"] == part]
        if part == "pareto" and rows and "validation" in rows[0]:
            continue
        if rows:
            keys = [k for k in rows[0] if k not in ("part", "fit", "partial")]
            print(f"\n{part}:\n")
            print("| " + " | ".join(keys) + " |")
            print("|" + "---|" * len(keys))
            for r in rows:
                cells = [f"{r[k]:.4g}" if isinstance(r.get(k), float) else str(r.get(k)) for k in keys]
                print("| " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", choices=["epoch", "threads", "curve", "partial", "pareto", "report", "_one"])
    ap.add_argument("inputs", nargs="*", help="report: the JSON-lines files")
    ap.add_argument("--plot", help="report: write the epoch-time plot to this PNG")
    ap.add_argument("--family", default="susy18", choices=sorted(NOISE))
    ap.add_argument("--n", type=lambda s: int(float(s)), default=1_000_000)
    ap.add_argument("--sizes", type=lambda s: [int(float(v)) for v in s.split(",")],
                    default=[100_000, 300_000, 1_000_000, 3_000_000, 10_000_000])
    ap.add_argument("--solver", default="bsgd")
    ap.add_argument("--solvers", type=lambda s: s.split(","), default=["bsgd", "bsca"])
    ap.add_argument("--problems", type=lambda s: s.split(","), default=["ijcnn1", "a9a", "susy18:1e6"])
    ap.add_argument("--subsamples", type=lambda s: [int(float(v)) for v in s.split(",")],
                    default=[5_000, 10_000, 20_000, 40_000])
    ap.add_argument("--nystroem-rows", type=lambda s: [int(float(v)) for v in s.split(",")], default=[100_000],
                    help="pareto: rows the Nystroem pipelines train on (1M x 500 features is 4 GB)")
    ap.add_argument("--C-grid", type=lambda s: [float(v) for v in s.split(",")], default=[0.01, 0.1, 1.0, 10.0],
                    help="pareto: every method at each C; the report keeps the best on a validation set")
    ap.add_argument("--pareto-epochs", type=lambda s: [int(v) for v in s.split(",")], default=[1, 2])
    ap.add_argument("--sklearn-rows", type=lambda s: int(float(s)), default=20_000,
                    help="pareto: scikit-learn's SVC only up to this many rows (ours is the faster exact baseline)")
    ap.add_argument("--budget", type=int, default=500)
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--shards", type=int, choices=[1, 2], default=2,
                    help="threads, curve: the shards of the two-thread fits (2: two data shards, the runs of "
                         "bench/results/scale.md; 1: one machine, the same model as one thread's)")
    ap.add_argument("--out", default=None, help="append the JSON records to this file")
    args = ap.parse_args()
    if args.part == "_one":
        print(json.dumps(one_fit(args)))
        return
    if args.part == "report":
        part_report(args)
        return
    emit({"part": "machine", "machine": machine_line(), "commit": git_commit()}, args.out)
    {"epoch": part_epoch, "threads": part_threads, "curve": part_curve, "partial": part_partial,
     "pareto": part_pareto}[args.part](args)


if __name__ == "__main__":
    main()
