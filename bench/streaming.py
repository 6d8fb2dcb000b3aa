"""Reading and shuffling an svmlight file larger than memory: throughput and
resident memory of iter_svmlight and shuffle_svmlight against the file size.

Generates a label-sorted svmlight file of about --size-mb megabytes (all +1
rows, then all -1 rows; 20 nonzeros of 1000 features a row), then runs each
step in a fresh Python process and reports its wall time, MB/s of
decompressed text, rows/s and the peak resident set size over the one after
the imports (ru_maxrss - RSS before the step):

  1. iter_svmlight over the plain file (chunks of --chunk-rows rows)
  2. load_svmlight over the plain file (the whole-file reader, for reference;
     skipped with --no-load)
  3. shuffle_svmlight plain -> gzip (--memory-rows lines a bucket)
  4. iter_svmlight over that gzip file
  5. shuffle_svmlight plain -> plain, with --memory-rows and a quarter of it
     (memory follows memory_rows, not the file size)

The generated and shuffled files are deleted at the end.

    python bench/streaming.py [--size-mb 200] [--dir /tmp] [--out bench/results/streaming.md]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import ROOT, machine_line

N_FEATURES = 1000
NONZEROS = 20

_STEP = r"""
import json, os, resource, sys, time
import budgetsvm

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

step, args = sys.argv[1], json.loads(sys.argv[2])
before = rss()
t = time.perf_counter()
if step == "iter":
    rows = nnz = positives = 0
    for X, y in budgetsvm.iter_svmlight(args["path"], args["chunk_rows"], args["n_features"], False):
        rows += X.shape[0]
        nnz += X.nnz
        positives += int((y > 0).sum())
    result = {"rows": rows, "nnz": nnz, "positives": positives}
elif step == "load":
    X, y = budgetsvm.load_svmlight(args["path"], n_features=args["n_features"])
    result = {"rows": X.shape[0], "nnz": X.nnz, "positives": int((y > 0).sum())}
else:
    rows = budgetsvm.shuffle_svmlight(args["path"], args["dst"], random_state=0, memory_rows=args["memory_rows"])
    result = {"rows": rows}
result["seconds"] = time.perf_counter() - t
result["peak_over_start"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
result["start_rss"] = before
print(json.dumps(result))
"""


def generate(path: Path, size_bytes: int) -> int:
    """A label-sorted file of about size_bytes: returns its number of rows."""
    rng = np.random.default_rng(0)
    blocks = {}
    for label in ("+1", "-1"):
        lines = []
        for _ in range(20000):
            columns = np.sort(rng.choice(N_FEATURES, size=NONZEROS, replace=False)) + 1
            values = rng.random(NONZEROS)
            lines.append(label + " " + " ".join(f"{c}:{v:.4f}" for c, v in zip(columns, values)) + "\n")
        blocks[label] = "".join(lines).encode()
    rows = 0
    with open(path, "wb") as f:
        for label in ("+1", "-1"):
            block = blocks[label]
            for _ in range(max(1, round(size_bytes / 2 / len(block)))):
                f.write(block)
                rows += 20000
    return rows


def run(step: str, **args) -> dict:
    out = subprocess.run([sys.executable, "-c", _STEP, step, json.dumps(args)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size-mb", type=float, default=200)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--chunk-rows", type=int, default=10000)
    parser.add_argument("--memory-rows", type=int, default=1_000_000)
    parser.add_argument("--no-load", action="store_true", help="skip the whole-file load_svmlight reference")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "streaming.md")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="budgetsvm-streaming-", dir=args.dir))
    try:
        src = work / "sorted.svm"
        t = time.perf_counter()
        rows = generate(src, int(args.size_mb * 1e6))
        size = src.stat().st_size
        print(f"generated {size / 1e6:.0f} MB, {rows} rows in {time.perf_counter() - t:.1f} s", flush=True)
        common = {"n_features": N_FEATURES, "chunk_rows": args.chunk_rows}
        steps = [("iter_svmlight, plain", run("iter", path=str(src), **common))]
        if not args.no_load:
            steps.append(("load_svmlight, plain (whole file)", run("load", path=str(src), **common)))
        gz = work / "mixed.svm.gz"
        steps.append((f"shuffle_svmlight, plain -> gzip, memory_rows={args.memory_rows:,}", run("shuffle", path=str(src), dst=str(gz),
                                                              memory_rows=args.memory_rows)))
        steps.append(("iter_svmlight, gzip (shuffled)", run("iter", path=str(gz), **common)))
        for memory_rows in (args.memory_rows, args.memory_rows // 4):
            steps.append((f"shuffle_svmlight, plain -> plain, memory_rows={memory_rows:,}",
                          run("shuffle", path=str(src), dst=str(work / "mixed.svm"), memory_rows=memory_rows)))
        for name, result in steps:
            assert result["rows"] == rows, (name, result)
            if "positives" in result:
                assert result["positives"] == rows // 2, (name, result)
            print(f"{name:56s} {result['seconds']:7.1f} s  {size / 1e6 / result['seconds']:6.1f} MB/s  "
                  f"peak +{result['peak_over_start'] / 1e6:.0f} MB", flush=True)
        gz_size = gz.stat().st_size
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write_report(args, size, gz_size, rows, steps)


def write_report(args, size: int, gz_size: int, rows: int, steps) -> None:
    lines = [
        "# Streaming svmlight files: iter_svmlight and shuffle_svmlight",
        "",
        f"Measured {machine_line()}. Command: `python bench/streaming.py --size-mb {args.size_mb:g} "
        f"--chunk-rows {args.chunk_rows} --memory-rows {args.memory_rows}`.",
        "",
        f"Generated label-sorted file: {size / 1e6:.0f} MB plain ({gz_size / 1e6:.0f} MB as the shuffled gzip "
        f"copy), {rows:,} rows, {NONZEROS} nonzeros of {N_FEATURES} features a row. Each step runs in a fresh "
        "process; MB/s counts decompressed text; memory is the process's peak resident set size minus its size "
        "after the imports.",
        "",
        "| step | seconds | MB/s | rows/s | peak RSS over start (MB) | as a share of the file |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, r in steps:
        lines.append(f"| {name} | {r['seconds']:.1f} | {size / 1e6 / r['seconds']:.0f} | "
                     f"{rows / r['seconds']:,.0f} | {r['peak_over_start'] / 1e6:.0f} | "
                     f"{r['peak_over_start'] / size:.1%} |")
    lines.append("")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
