"""Shared fixtures: the real data sets, and our own reference files.

Real data sets (LIBSVM's a9a, ijcnn1, w8a, ...) are never part of the
repository: they are read at run time from ``$BUDGETSVM_DATA`` or else from
``../shared/datasets`` beside the repository; a test that needs one that is
absent skips and says where it looked. To run them, download the files named
in the tests (bz2 as LIBSVM's data page serves them) into a folder and set
``BUDGETSVM_DATA`` to it. Every other reference value lives in
``tests/fixtures``, written by a script beside it.

The reference solvers of libsvm-official and liblinear-official shuffle with
C's ``rand()``, one stream for the whole process: their results would depend
on which tests ran before (liblinear's L1 solver stopped 4.6e-4 above the
optimum after one prefix, at it after another). ``seed_c_rand`` reseeds it
before every test.
"""

from __future__ import annotations

import ctypes
import functools
import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

try:
    _LIBC_SRAND = ctypes.CDLL(None).srand  # the process's C library (Linux, macOS)
except (OSError, AttributeError, TypeError):  # Windows: no handle for the process itself
    _LIBC_SRAND = None


@pytest.fixture(autouse=True)
def seed_c_rand():
    """C's rand() seeded alike before every test (see the module docstring)."""
    if _LIBC_SRAND is not None:
        _LIBC_SRAND(0)


def data_dir() -> Path:
    env = os.environ.get("BUDGETSVM_DATA")
    return Path(env) if env else REPO_ROOT.parent / "shared" / "datasets"


def dataset_path(filename: str) -> Path:
    """Path of a data set file (for example ``"a9a.bz2"``), or skip the test."""
    path = data_dir() / filename
    if not path.exists():
        pytest.skip(f"data set {filename} not found in {data_dir()} (set BUDGETSVM_DATA)")
    return path


@functools.lru_cache(maxsize=None)
def _load(filename: str, n_features):
    from budgetsvm import load_svmlight

    return load_svmlight(dataset_path(filename), n_features=n_features)


def load_dataset(filename: str, n_features=None):
    """(X, y) of a data set file, parsed once per test session, or skip."""
    dataset_path(filename)
    X, y = _load(filename, n_features)
    return X.copy(), y.copy()


def fixture_path(filename: str) -> Path:
    """Path of a reference file of our own in ``tests/fixtures`` (each is
    written by a script beside it, e.g. ``make_merge_golden.py``)."""
    return REPO_ROOT / "tests" / "fixtures" / filename


def write_svmlight(path, X, y, extra=None):
    """The rows of X as svmlight text, nonzero entries 1-based, as the
    command-line tests write their data; ``extra``: (index, value) added to
    every row."""
    with open(path, "w") as f:
        for row, label in zip(X, y):
            pairs = [f"{k + 1}:{v:.6g}" for k, v in enumerate(row) if v != 0]
            if extra is not None:
                pairs.append(f"{extra[0]}:{extra[1]:g}")
            f.write(f"{label:g} " + " ".join(pairs) + "\n")


def xor_rows(n: int, seed: int = 0):
    """n rows of 3 features uniform in [-1, 1], labelled 1 where x0 * x1 > 0, else -1."""
    import numpy as np

    X = np.random.default_rng(seed).uniform(-1, 1, size=(n, 3))
    return X, np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
