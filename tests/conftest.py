"""Shared fixtures: where the benchmark data sets live, and loading them.

Data sets are read at run time from ``../shared/datasets`` (relative to the
repository root) or from ``$BUDGETSVM_DATA``; a test that needs one that is
absent skips with the reason.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


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


def testdata_path(filename: str) -> Path:
    """Path of a file in ``../shared/testdata`` (reference values), or skip."""
    path = REPO_ROOT.parent / "shared" / "testdata" / filename
    if not path.exists():
        pytest.skip(f"reference file {filename} not found at {path}")
    return path
