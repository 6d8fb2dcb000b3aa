"""A/B of the budgeted step (BSCA, lookup-wd, B = 500) between two builds, per SIMD level.

    python bench/ab_budget_step.py --a /path/to/old/python --b python [--levels avx512,avx2,sse2] [--repeats 3]
    python bench/ab_budget_step.py --a ... --b ... --sets xor20:1e6,susy18:1e6 --levels avx512


Each side is a directory holding an importable ``budgetsvm`` package. For each
SIMD level (BUDGETSVM_SIMD), data set (ijcnn1 with gamma = 2, a9a with
gamma = 2^-7, C = 32, 3 epochs, the settings of bench/budget_core_profile.py;
or generated sets of bench/datagen.py, ``family:n``: xor20 (10% label noise)
with C = 1, susy18 (20%) with C = 0.1, the family's gamma, one epoch) and
repeat, one fit of A and one of B run in turn (the order alternating), each in
its own process after a one-epoch warm-up fit on 20,000 rows (so that the
merge table is built before the clock starts). Measured: CPU seconds per step
(``time.process_time``), the solver's maintenance share, test accuracy; and
the margin floor (bench/cpp/margin_floor.cpp, built with
-DBUDGETSVM_BUILD_BENCH=ON and named by $BUDGETSVM_MARGIN_FLOOR) against B's
support vectors at the same level. Reported: the minimum over repeats.
Writes bench/results/ab_budget_step.md (or --out) and prints it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from _common import ROOT, cpu_model, data_dir, margin_floor_seconds

SETTINGS = {"ijcnn1": (32.0, 2.0, 22, 3), "a9a": (32.0, 2.0**-7, 123, 3)}  # C, gamma, features, epochs
GENERATED = {"xor20": (1.0, 0.05, 20, 1), "susy18": (0.1, 2.0**-5, 18, 1)}


def settings(name: str):
    return GENERATED[name.split(":")[0]] if ":" in name else SETTINGS[name]

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import budgetsvm
from budgetsvm import _core, _data
name, C, gamma, d, sv_out = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
folder, bench, epochs = sys.argv[7], sys.argv[8], int(sys.argv[9])
if ":" in name:
    sys.path.insert(0, bench)
    from datagen import make
    family, n = name.split(":")
    X, y = make(family, int(float(n)), seed=0)
    Xt, yt = make(family, 100_000, seed=0, test=True)
else:
    X, y = budgetsvm.load_svmlight(f"{folder}/{name}.bz2", n_features=d)
    Xt, yt = budgetsvm.load_svmlight(f"{folder}/{name}.t.bz2", n_features=d)
y, yt = (y > 0).astype(np.int32), (yt > 0).astype(np.int32)
def params(seed, epochs):
    return dict(solver="bsca", budget=500, C=C, kernel="rbf", gamma=gamma, degree=3, coef0=0.0,
                maintenance="merge", merge_method="lookup-wd", gss_eps=0.01, lookup_grid=400, epochs=epochs,
                learning_rate="pegasos", eta0=1.0, radius=float("inf"), seed=seed, n_jobs=1)
_core.fit_budgeted(_data.core_view(X[:20000]), y[:20000], 2, params(0, 1))  # warm-up: the merge table
cpu = time.process_time()
r = _core.fit_budgeted(_data.core_view(X), y, 2, params(1, epochs))
cpu = time.process_time() - cpu
f = _core.decision_function(_data.core_view(Xt), r["support_vectors"], r["dual_coef"], "rbf", gamma, 3, 0.0, 1)
if sv_out != "-":
    np.save(sv_out, r["support_vectors"])
print(json.dumps({"us": 1e6 * cpu / r["steps"], "maint": r["maintenance_seconds"] / r["seconds"],
                  "acc": 100.0 * float(np.mean((f[:, 0] > 0) == (yt == 1))), "merges": r["merges"],
                  "level": _core.simd_level()}))
"""


def child(side: str, name: str, level: str, sv_out: str) -> dict:
    C, gamma, d, epochs = settings(name)
    env = dict(os.environ, BUDGETSVM_SIMD=level)
    out = subprocess.run([sys.executable, "-c", CHILD, side, name, repr(C), repr(gamma), str(d), sv_out,
                          str(data_dir()), str(ROOT / "bench"), str(epochs)],
                         env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def floor_us(name: str, level: str, sv: np.ndarray, repeats: int) -> float:
    import budgetsvm

    C, gamma, d, _ = settings(name)
    if ":" in name:
        from datagen import make

        X, _ = make(name.split(":")[0], 20000, seed=0)
    else:
        X, _ = budgetsvm.load_svmlight(data_dir() / f"{name}.bz2", n_features=d)
        X = X[:20000]
    old = os.environ.get("BUDGETSVM_SIMD")
    os.environ["BUDGETSVM_SIMD"] = level
    try:
        return 1e6 * min(margin_floor_seconds(X, sv, gamma, 1) for _ in range(repeats)) / X.shape[0]
    finally:
        if old is None:
            del os.environ["BUDGETSVM_SIMD"]
        else:
            os.environ["BUDGETSVM_SIMD"] = old


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--levels", default="avx512,avx2,sse2")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sets", default="ijcnn1,a9a", help="real sets and/or generated family:n, e.g. susy18:1e6")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "ab_budget_step.md"))
    args = ap.parse_args()
    load_before = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for level in args.levels.split(","):
            for name in args.sets.split(","):
                runs = {"a": [], "b": []}
                sv_path = str(Path(tmp) / "sv.npy")
                for rep in range(args.repeats):
                    for side in ("a", "b") if rep % 2 == 0 else ("b", "a"):
                        path = args.a if side == "a" else args.b
                        runs[side].append(child(path, name, level, sv_path if side == "b" else "-"))
                if runs["b"][0]["level"] != level:
                    print(f"skipping {level}: not supported here", file=sys.stderr)
                    break
                fl = floor_us(name, level, np.load(sv_path), args.repeats)
                best = {s: min(runs[s], key=lambda r: r["us"]) for s in runs}
                rows.append({"level": level, "data": name, "floor_us": fl, "a": best["a"], "b": best["b"],
                             "maint_a": min(r["maint"] for r in runs["a"]), "maint_b": min(r["maint"] for r in runs["b"])})
                print(json.dumps(rows[-1]), file=sys.stderr)
    load_after = os.getloadavg()
    lines = [
        "# Budgeted step A/B (BSCA, lookup-wd, B = 500)",
        "",
        f"Date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}. "
        f"Machine: {cpu_model()}, {os.cpu_count()} cores (shared; CPU seconds). "
        f"Load average (1, 5, 15 min) before: {', '.join(f'{v:.2f}' for v in load_before)}; "
        f"after: {', '.join(f'{v:.2f}' for v in load_after)}.",
        f"Command: `python bench/ab_budget_step.py --a {args.a} --b {args.b} --levels {args.levels} "
        f"--repeats {args.repeats} --sets {args.sets}`. A = before, B = after; minimum over {args.repeats} "
        "interleaved runs (seed 1, after a warm-up fit; real sets C = 32, 3 epochs; generated: xor20 C = 1, susy18 "
        "C = 0.1, one epoch); floor = one margin against B's model "
        "(bench/cpp/margin_floor.cpp, minimum of the same number of runs).",
        "",
        "| level | data | floor us | A us/step | B us/step | A / floor | B / floor | A maint | B maint | A acc % | B acc % |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        a, b, fl = r["a"], r["b"], r["floor_us"]
        lines.append(f"| {r['level']} | {r['data']} | {fl:.2f} | {a['us']:.2f} | {b['us']:.2f} | {a['us'] / fl:.2f} | "
                     f"{b['us'] / fl:.2f} | {100 * r['maint_a']:.0f}% | {100 * r['maint_b']:.0f}% | "
                     f"{a['acc']:.2f} | {b['acc']:.2f} |")
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
