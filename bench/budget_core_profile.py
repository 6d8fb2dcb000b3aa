"""Profile of the budgeted solvers' C++ core (``_core.fit_budgeted``).

Measures, on the data in ``../shared/datasets`` (read at run time):

1. steps per second and the share of time in budget maintenance on ijcnn1
   (B = 500, C = 32, gamma = 2) for each merge method and both solvers,
   next to the floor of a step (one margin with the solvers' own kernel,
   bench/cpp/margin_floor.cpp) and per SIMD level;
2. the maintenance-time cut of lookup merging against ``gss`` on ijcnn1 and
   a9a at B = 100 and 500, with test accuracy;
3. accuracy of BSCA after 3 and 10 epochs and of BSGD after 10 epochs;
4. with ``--svc`` (only that): BSCA (3 epochs) against scikit-learn's exact
   ``SVC`` on ijcnn1, in one run (``bench/results/budget_core_svc.md``).

Medians over 3 seeds. Times are CPU seconds of the (single-threaded)
training call (``time.process_time``) so that a busy machine inflates them
less; maintenance shares use the solver's own clock. The estimator-level
benchmark against scikit-learn is ``bench/budgeted.py``.

Run: ``python bench/budget_core_profile.py [--quick]``; writes
``bench/results/budget_core_profile.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from _common import ROOT, cpu_model, data_dir, margin_floor_seconds

import budgetsvm
from budgetsvm import _core, _data

DATA = data_dir()
RESULTS = ROOT / "bench" / "results"

SETTINGS = {  # C, gamma, n_features
    "ijcnn1": (32.0, 2.0, 22),
    "a9a": (32.0, 2.0**-7, 123),
}


def load(name):
    C, gamma, d = SETTINGS[name]
    X, y = budgetsvm.load_svmlight(DATA / f"{name}.bz2", n_features=d)
    Xt, yt = budgetsvm.load_svmlight(DATA / f"{name}.t.bz2", n_features=d)
    return X, (y > 0).astype(np.int32), Xt, (yt > 0).astype(np.int32)


def params(C, gamma, **kw):
    p = dict(
        solver="bsca", budget=500, C=C, kernel="rbf", gamma=gamma, degree=3, coef0=0.0,
        maintenance="merge", merge_method="lookup-wd", gss_eps=0.01, lookup_grid=400, epochs=3,
        learning_rate="pegasos", eta0=1.0, radius=float("inf"), seed=1, n_jobs=1,
    )
    p.update(kw)
    return p


def run(data, name, **kw):
    X, y, Xt, yt = data
    C, gamma, _ = SETTINGS[name]
    cpu = time.process_time()
    r = _core.fit_budgeted(_data.core_view(X), y, 2, params(C, gamma, **kw))
    cpu = time.process_time() - cpu
    f = _core.decision_function(_data.core_view(Xt), r["support_vectors"], r["dual_coef"], "rbf", gamma, 3, 0.0, 1)
    acc = 100.0 * float(np.mean((f[:, 0] > 0) == (yt == 1)))
    return {
        "accuracy": acc, "cpu_seconds": cpu, "seconds": r["seconds"], "steps": r["steps"],
        "merges": r["merges"], "removals": r["removals"],
        "maintenance_share": r["maintenance_seconds"] / r["seconds"],
        "support_vectors": r["support_vectors"],
    }


def median(runs, key):
    return float(np.median([r[key] for r in runs]))


def floor_us(data, name, sv):
    """CPU microseconds of one margin against the model sv (median of 3)."""
    X = data[0][:20000]
    _, gamma, _ = SETTINGS[name]
    # wall seconds of the C++ program (one thread) measured inside it
    times = [margin_floor_seconds(X, sv, gamma, 1) for _ in range(3)]
    return 1e6 * float(np.median(times)) / X.shape[0]


def simd_levels(quick):
    """Steps per second of BSCA (lookup-wd) and the margin floor per level,
    each level in its own process (BUDGETSVM_SIMD lowers the level)."""
    out = {}
    for level in ("sse2", "avx2", "avx512", "scalar"):
        env = dict(os.environ, BUDGETSVM_SIMD=level)
        code = (
            "import sys, json; sys.argv=['x']; import budget_core_profile as b;"
            "print(json.dumps(b.level_probe(%r)))" % ("quick" if quick else "full")
        )
        proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=Path(__file__).parent,
                              capture_output=True, text=True, check=True)
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        if result["level"] != level:
            continue  # not supported by this CPU
        out[level] = result
    return out


def level_probe(mode):
    data = load("ijcnn1")
    runs = [run(data, "ijcnn1", seed=s, epochs=1 if mode == "quick" else 3) for s in (1, 2, 3)]
    sv = runs[0]["support_vectors"]
    return {
        "level": _core.simd_level(),
        "steps_per_second": median([{"v": r["steps"] / r["cpu_seconds"]} for r in runs], "v"),
        "floor_us": floor_us(data, "ijcnn1", sv),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer epochs and seeds")
    parser.add_argument("--svc", action="store_true", help="only BSCA vs scikit-learn SVC on ijcnn1")
    args = parser.parse_args()
    if args.svc:
        return svc_ratio()
    seeds = (1, 2) if args.quick else (1, 2, 3)
    report = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": machine(), "simd_level": _core.simd_level(), "quick": args.quick}
    methods = ("gss", "lookup-h", "lookup-wd")

    # 1. steps/s and maintenance share on ijcnn1, B = 500
    ijcnn1 = load("ijcnn1")
    speed = []
    for solver in ("bsca", "bsgd"):
        for method in methods:
            runs = [run(ijcnn1, "ijcnn1", solver=solver, merge_method=method, seed=s,
                        epochs=1 if args.quick else 3) for s in seeds]
            fl = floor_us(ijcnn1, "ijcnn1", runs[0]["support_vectors"])
            us = 1e6 * median([{"v": r["cpu_seconds"] / r["steps"]} for r in runs], "v")
            speed.append({"solver": solver, "method": method, "us_per_step": us, "floor_us": fl,
                          "steps_per_second": 1e6 / us, "overhead_vs_floor": us / fl - 1,
                          "maintenance_share": median(runs, "maintenance_share"),
                          "merges_per_step": median([{"v": r["merges"] / r["steps"]} for r in runs], "v")})
            print(speed[-1], flush=True)
    report["speed"] = speed
    report["simd"] = simd_levels(args.quick)
    print(report["simd"], flush=True)

    # 2. lookup vs gss maintenance time, ijcnn1 and a9a, B = 100, 500
    cut = []
    for name in ("ijcnn1", "a9a"):
        data = ijcnn1 if name == "ijcnn1" else load(name)
        for solver in ("bsgd", "bsca"):
            for budget in (100, 500):
                row = {"data": name, "solver": solver, "budget": budget}
                for method in methods:
                    runs = [run(data, name, solver=solver, merge_method=method, budget=budget, seed=s,
                                epochs=1 if args.quick else 3) for s in seeds]
                    row[method] = {"maintenance_cpu": median([{"v": r["cpu_seconds"] * r["maintenance_share"]} for r in runs], "v"),
                                   "cpu_seconds": median(runs, "cpu_seconds"), "accuracy": median(runs, "accuracy")}
                for method in ("lookup-h", "lookup-wd"):
                    row[method]["maintenance_cut"] = 1 - row[method]["maintenance_cpu"] / row["gss"]["maintenance_cpu"]
                    row[method]["accuracy_diff"] = row[method]["accuracy"] - row["gss"]["accuracy"]
                cut.append(row)
                print(row, flush=True)
    report["lookup_cut"] = cut

    # 3. accuracy over epochs
    accuracy = []
    for name in ("ijcnn1", "a9a"):
        data = ijcnn1 if name == "ijcnn1" else load(name)
        for solver, epochs in (("bsca", 3), ("bsca", 10), ("bsgd", 10)):
            if args.quick and epochs == 10:
                continue
            runs = [run(data, name, solver=solver, epochs=epochs, seed=s) for s in seeds]
            accuracy.append({"data": name, "solver": solver, "epochs": epochs,
                             "accuracy": [r["accuracy"] for r in runs], "median": median(runs, "accuracy"),
                             "cpu_seconds": median(runs, "cpu_seconds")})
            print(accuracy[-1], flush=True)
    report["accuracy"] = accuracy
    write(report)


def svc_ratio():
    """BSCA (B = 500, 3 epochs, lookup-wd; median of 3 seeds) vs SVC, one run."""
    from sklearn.svm import SVC

    data = load("ijcnn1")
    runs = [run(data, "ijcnn1", seed=s) for s in (1, 2, 3)]
    X, y, Xt, yt = data
    cpu, wall = time.process_time(), time.perf_counter()
    svc = SVC(C=32.0, gamma=2.0, tol=1e-3, cache_size=200).fit(X, y)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    acc = 100.0 * float(np.mean(svc.predict(Xt) == yt))
    bsca_cpu, bsca_wall = median(runs, "cpu_seconds"), median(runs, "seconds")
    lines = [
        "# BSCA vs exact SVC on ijcnn1 (C = 32, gamma = 2)",
        "",
        f"Date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}. "
        f"Machine: {machine()} (shared; CPU seconds are the fair measure). SIMD: {_core.simd_level()}. "
        "Command: `python bench/budget_core_profile.py --svc`.",
        "",
        "| model | test accuracy % | CPU s | wall s |",
        "|---|---|---|---|",
        f"| BSCA B = 500, 3 epochs, lookup-wd (median of 3 seeds) | {median(runs, 'accuracy'):.2f} | {bsca_cpu:.3f} | {bsca_wall:.3f} |",
        f"| scikit-learn SVC (tol 1e-3, cache 200 MB) | {acc:.2f} | {cpu:.2f} | {wall:.2f} |",
        "",
        f"SVC / BSCA: {cpu / bsca_cpu:.0f}x in CPU time, {wall / bsca_wall:.0f}x in wall time.",
    ]
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "budget_core_svc.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def machine():
    return f"{cpu_model()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}"


def write(report):
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "budget_core_profile.json").write_text(json.dumps(report, indent=1))
    lines = [
        "# Budgeted solvers: core profile",
        "",
        f"Date: {report['date']}. Machine: {report['machine']} (shared with other jobs; CPU seconds).",
        f"SIMD level dispatched: {report['simd_level']}. Command: `python bench/budget_core_profile.py"
        + (" --quick`" if report["quick"] else "`") + ". Medians over seeds.",
        "",
        "## Steps per second on ijcnn1 (B = 500, C = 32, gamma = 2)",
        "",
        "| solver | merge | us/step | floor us (one margin) | overhead vs floor | steps/s | maintenance share | merges/step |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in report["speed"]:
        lines.append(f"| {s['solver']} | {s['method']} | {s['us_per_step']:.2f} | {s['floor_us']:.2f} | "
                     f"{100 * s['overhead_vs_floor']:.0f}% | {s['steps_per_second']:,.0f} | "
                     f"{100 * s['maintenance_share']:.0f}% | {s['merges_per_step']:.3f} |")
    lines += ["", "## SIMD levels (BSCA, lookup-wd, ijcnn1 B = 500; BUDGETSVM_SIMD)", "",
              "| level | steps/s | floor us per margin |", "|---|---|---|"]
    for level, v in report["simd"].items():
        lines.append(f"| {level} | {v['steps_per_second']:,.0f} | {v['floor_us']:.2f} |")
    lines += ["", "## Lookup vs gss: time in maintenance (CPU s) and test accuracy", "",
              "| data | solver | B | gss maint s | lookup-h maint s (cut) | lookup-wd maint s (cut) | acc gss | acc lookup-h | acc lookup-wd |",
              "|---|---|---|---|---|---|---|---|---|"]
    for r in report["lookup_cut"]:
        lines.append(
            f"| {r['data']} | {r['solver']} | {r['budget']} | {r['gss']['maintenance_cpu']:.2f} | "
            f"{r['lookup-h']['maintenance_cpu']:.2f} ({100 * r['lookup-h']['maintenance_cut']:.0f}%) | "
            f"{r['lookup-wd']['maintenance_cpu']:.2f} ({100 * r['lookup-wd']['maintenance_cut']:.0f}%) | "
            f"{r['gss']['accuracy']:.2f} | {r['lookup-h']['accuracy']:.2f} | {r['lookup-wd']['accuracy']:.2f} |")
    lines += ["", "## Accuracy over epochs (B = 500, lookup-wd)", "",
              "| data | solver | epochs | test accuracy % (seeds) | median | CPU s |", "|---|---|---|---|---|---|"]
    for a in report["accuracy"]:
        lines.append(f"| {a['data']} | {a['solver']} | {a['epochs']} | "
                     f"{', '.join(f'{v:.2f}' for v in a['accuracy'])} | {a['median']:.2f} | {a['cpu_seconds']:.2f} |")
    (RESULTS / "budget_core_profile.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
