"""Helpers shared by the benchmark scripts: where the data sets are, a
description of the machine a result was measured on, interleaved timing."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """``$BUDGETSVM_DATA``, else ``../shared/datasets`` beside the repository."""
    return Path(os.environ.get("BUDGETSVM_DATA", ROOT.parent / "shared" / "datasets"))


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine_line() -> str:
    """One line for a results file: date, CPU, cores, Python, commit."""
    return (f"{datetime.date.today().isoformat()}, {cpu_model()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, budgetsvm commit {git_commit()}")


def margin_floor_program() -> Path | None:
    """The margin-floor program (bench/cpp/margin_floor.cpp), built with
    ``cmake -S . -B build-bench -DBUDGETSVM_BUILD_BENCH=ON && cmake --build build-bench``
    (or named by ``$BUDGETSVM_MARGIN_FLOOR``); None when it is not built."""
    path = Path(os.environ.get("BUDGETSVM_MARGIN_FLOOR", ROOT / "build-bench" / "margin_floor"))
    return path if path.exists() else None


def margin_floor_seconds(X, support_vectors, gamma: float, repeats: int = 1) -> float:
    """Seconds for ``repeats`` passes of margins of the rows of X against a
    Gaussian budget model with these support vectors, measured by the C++
    program with the solvers' own model; NaN when the program is not built."""
    import tempfile

    import numpy as np
    import scipy.sparse as sp
    from sklearn.datasets import dump_svmlight_file

    program = margin_floor_program()
    if program is None:
        return float("nan")
    with tempfile.TemporaryDirectory() as folder:
        data, svs = Path(folder) / "data.svm", Path(folder) / "sv.svm"
        dump_svmlight_file(sp.csr_matrix(X), np.zeros(X.shape[0]), str(data), zero_based=False)
        dump_svmlight_file(sp.csr_matrix(support_vectors), np.zeros(support_vectors.shape[0]), str(svs), zero_based=False)
        out = subprocess.run([str(program), str(data), str(svs), repr(float(gamma)), str(repeats)],
                             capture_output=True, text=True, check=True).stdout
    return float(out.split()[0])


def interleaved_times(contestants: dict, repeats: int) -> tuple[dict, list]:
    """Times of every contestant (a name -> callable map), interleaved: each
    repeat runs each contestant once, in turn. Returns ({name: [seconds, ...]},
    [1-minute load average before each repeat])."""
    import time

    loads, times = [], {name: [] for name in contestants}
    for _ in range(repeats):
        loads.append(os.getloadavg()[0])
        for name, run in contestants.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return times, loads


def write_lines(path, lines: list) -> None:
    """A results file: the lines, then an empty one."""
    with open(path, "w") as f:
        f.write("\n".join(list(lines) + [""]))
