"""Kept or restarted dual variables after a merge, at 1M rows (issue 10).

    python bench/dual_after_merge.py            # about 10 min on 2 cores

BSCA keeps alpha_i when x_i's copy is merged away (the paper's rule, our
default); the earlier version restarted it at 0. This runs both for 3
epochs on 1M generated rows (bench/datagen.py: xor20 with 10% of the labels
flipped, radial12 with 2%), B = 500, C in (1, 10), seed 1, and reports the
test accuracy on 50,000 independent rows, the core's training seconds and
whether the last epoch's average was kept (``fit_stats_["averaged"]``).
The restart is reached through the core's parameter ``after_merge``, an
instrument that the estimator does not expose. Writes
bench/results/dual_after_merge.md.
"""

from __future__ import annotations

import datetime
import os
import sys

from _common import ROOT, cpu_model
from _core_params import WithCoreParams
from datagen import default_gamma, make


def main() -> None:
    rows = []
    load_before = os.getloadavg()[0]
    for label, family, noise in (("xor20, 10% noise", "xor20", 0.10), ("radial12, 2% noise", "radial12", 0.02)):
        X, y = make(family, 1_000_000, noise=noise, seed=0)
        Xt, yt = make(family, 50_000, noise=noise, seed=0, test=True)
        for C in (1.0, 10.0):
            cells = []
            for rule in ("keep", "reset"):
                WithCoreParams.core_params = {"after_merge": rule}
                clf = WithCoreParams(C=C, gamma=default_gamma(family), budget=500, epochs=3, random_state=1).fit(X, y)
                cells.append((100 * clf.score(Xt, yt), clf.fit_stats_["seconds"], clf.fit_stats_["averaged"]))
                print(label, C, rule, cells[-1], file=sys.stderr, flush=True)
            rows.append((label, C, cells))
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# BSCA at 1M rows: dual variables kept or restarted after a merge",
        "",
        f"Date: {date}. Machine: {cpu_model()}, 2 cores (load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after). Command: `python bench/dual_after_merge.py`",
        "",
        "3 epochs, B = 500, lookup-wd, seed 1; test accuracy on 50,000 independent rows; seconds: the core's clock; "
        "averaged: whether the last epoch's average was returned (else the last iterate).",
        "",
        "| problem | C | kept: acc % / s / averaged | restarted: acc % / s / averaged | kept - restarted |",
        "|---|---:|---|---|---:|",
    ]
    for label, C, ((a1, s1, v1), (a2, s2, v2)) in rows:
        lines.append(f"| {label} | {C:g} | {a1:.2f} / {s1:.1f} / {v1} | {a2:.2f} / {s2:.1f} / {v2} | {a1 - a2:+.2f} |")
    (ROOT / "bench" / "results" / "dual_after_merge.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
