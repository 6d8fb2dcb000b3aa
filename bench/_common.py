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


def save_figure(fig, path, title=None, unused=(), rect=None) -> None:
    """A benchmark's figure written to ``path`` (110 dpi) and closed: the axes
    in ``unused`` (a grid's spare cells) hidden, ``title`` above them all,
    laid out tightly (within ``rect`` of the figure, if given)."""
    import matplotlib.pyplot as plt

    for ax in unused:
        ax.axis("off")
    if title is not None:
        fig.suptitle(title)
    if rect is None:
        fig.tight_layout()
    else:
        fig.tight_layout(rect=rect)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_lines(path, lines: list) -> None:
    """A results file: the lines, then an empty one."""
    with open(path, "w") as f:
        f.write("\n".join(list(lines) + [""]))


def report(lines: list, out=None) -> None:
    """Prints a results table's lines and, given ``out``, writes them there too."""
    print("\n".join(lines))
    if out:
        write_lines(out, lines)
