"""Where the extension's build time goes: CPU seconds per compile and link step.

Configures a fresh build of the extension module (CMake + Ninja), runs every
compiler and linker command through this script as a launcher, which records
the command's own CPU time (user + system, from getrusage of the child), and
prints one row per translation unit and one for the link, with the total CPU
time and the build's wall time. CPU seconds are what to compare between two
builds on a shared machine: wall time there says more about the other jobs.

    python bench/build_time.py                      # the default build (what pip builds)
    python bench/build_time.py -D BUDGETSVM_LTO=ON  # with link-time optimisation
    python bench/build_time.py -j 1 --keep build-times -D CMAKE_CXX_FLAGS=-ftime-report

Needs cmake, ninja and pybind11 (the ones pip uses to build the package).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def launch(record: str, command: list[str]) -> int:
    """Run one compiler/linker command and append its CPU seconds to `record`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = subprocess.call(command)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    output = command[command.index("-o") + 1] if "-o" in command else command[-1]
    with open(record, "a") as f:
        f.write(json.dumps({"output": output, "cpu": cpu, "wall": wall}) + "\n")
    return code


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--record":
        return launch(sys.argv[2], sys.argv[3:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="VAR=VALUE",
                        help="a CMake cache entry for the build (repeatable)")
    parser.add_argument("-j", dest="jobs", type=int, default=2, help="parallel jobs (default 2)")
    parser.add_argument("--keep", metavar="DIR", help="build in DIR and keep it (default: a temporary directory)")
    args = parser.parse_args()
    if shutil.which("ninja") is None or shutil.which("cmake") is None:
        parser.error("needs cmake and ninja on PATH")
    import pybind11

    build = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="budgetsvm-build-time-"))
    if build.exists() and args.keep:
        shutil.rmtree(build)
    record = build.parent / (build.name + "-times.jsonl")
    record.unlink(missing_ok=True)
    launcher = f"{sys.executable};{pathlib.Path(__file__).resolve()};--record;{record}"
    configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DBUDGETSVM_BUILD_PYTHON=ON",
                 "-DBUDGETSVM_BUILD_TESTS=OFF", "-DBUDGETSVM_CCACHE=OFF",
                 f"-Dpybind11_DIR={pybind11.get_cmake_dir()}", f"-DCMAKE_CXX_COMPILER_LAUNCHER={launcher}",
                 f"-DCMAKE_CXX_LINKER_LAUNCHER={launcher}"] + [f"-D{d}" for d in args.defines]
    subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
    start = time.perf_counter()
    # the default target of this configuration is the extension module alone
    subprocess.run(["cmake", "--build", str(build), "-j", str(args.jobs)], check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    rows = [json.loads(line) for line in record.read_text().splitlines()]
    print(f"{'step':<40} {'CPU s':>8} {'wall s':>8}")
    for r in sorted(rows, key=lambda r: -r["cpu"]):
        name = os.path.basename(r["output"]).replace(".cpp.o", "")
        print(f"{name:<40} {r['cpu']:8.1f} {r['wall']:8.1f}")
    total = sum(r["cpu"] for r in rows)
    print(f"{'total CPU':<40} {total:8.1f}")
    print(f"{'build wall (-j ' + str(args.jobs) + ')':<40} {'':8} {wall:8.1f}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if not args.keep:
        shutil.rmtree(build)
        record.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
