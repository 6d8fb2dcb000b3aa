"""Shared pieces of the fuzz tests: hypothesis strategies for data, labels and
CSR triples, the hang watchdog, and the check that an error is one we mean.

The property every fuzz test asserts: a call either succeeds with a result
of the right shape (checked against a reference where that is cheap) or
raises ``ValueError`` / ``TypeError`` with a message -- never a crash, a
hang, an exception leaking from pybind11 / Eigen / the standard library, or
a silently wrong result.
"""

from __future__ import annotations

import contextlib
import copy
import faulthandler
import os
import pickle
import sys
import tempfile
import threading
import warnings

import numpy as np
import scipy.sparse as sp
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.exceptions import ConvergenceWarning

import budgetsvm

PROFILE = os.environ.get("BUDGETSVM_FUZZ", "ci")
PACKAGE_DIR = os.path.dirname(os.path.abspath(budgetsvm.__file__))

#: An example running longer than this is a hang: stacks are dumped and the
#: process ends (the sanitizer build is several times slower).
HANG_SECONDS = 600 if PROFILE == "sanitize" else 120

#: Messages that betray an exception translated from C++ or pybind11's
#: argument conversion rather than raised by our own validation.
LEAKED = ("incompatible function arguments", "Unable to cast", "std::", "bad_alloc", "Eigen")


def examples(n: int) -> settings:
    """``n`` examples in the short profiles, the profile's 10 000 in ``long``."""
    if PROFILE == "long":
        return settings()
    return settings(max_examples=n)


#: pytest's capture manager (set by conftest.py): a hang report must reach
#: the real stderr before the process ends, not pytest's capture file.
CAPTURE = {"manager": None}

#: The call under the watchdog (set by ``call``): a hang report saves it, so
#: that the example can be replayed without hypothesis.
CURRENT: dict = {}


def _save_call() -> str:
    """Pickles the running call (the estimator's parameters, the arguments)
    to a file; returns a line saying where, or why not."""
    f, args, kwargs = CURRENT.get("f"), CURRENT.get("args", ()), CURRENT.get("kwargs", {})
    owner = getattr(f, "__self__", None)
    params = owner.get_params() if hasattr(owner, "get_params") else {}
    record = {
        "call": getattr(f, "__qualname__", repr(f)),
        "estimator": type(owner).__name__ if owner is not None else None,
        "params": {k: v for k, v in params.items() if not callable(v)},
        "args": args,
        "kwargs": kwargs,
    }
    folder = os.environ.get("BUDGETSVM_FUZZ_HANG_DIR", tempfile.gettempdir())
    path = os.path.join(folder, f"fuzz-hang-{os.getpid()}.pkl")
    try:
        with open(path, "wb") as out:
            pickle.dump(record, out)
    except Exception as e:  # noqa: BLE001 -- a report, best effort
        return f"(the call could not be saved: {e!r}; params {record['params']!r})\n"
    return f"the call is saved in {path} (pickle: call, estimator, params, args, kwargs)\n"


def _report_hang(seconds: float) -> None:
    manager = CAPTURE["manager"]
    if manager is not None:
        manager.suspend_global_capture(in_=False)
    sys.stderr.write(f"\nfuzz: an example ran longer than {seconds} s (a hang); {_save_call()}stacks:\n")
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    os._exit(70)


@contextlib.contextmanager
def hang_guard(seconds: float = HANG_SECONDS):
    """Ends the process with every thread's stack when the block runs longer
    than ``seconds``; faulthandler's C watchdog backs up the Python timer for
    code that holds the GIL."""
    timer = threading.Timer(seconds, _report_hang, args=(seconds,))
    timer.daemon = True
    timer.start()
    faulthandler.dump_traceback_later(seconds + 30, exit=True)
    try:
        yield
    finally:
        timer.cancel()
        faulthandler.cancel_dump_traceback_later()


def check_error(error: BaseException) -> None:
    """An exception raised by a call is acceptable only if it is a
    ValueError / TypeError of our making, with a message."""
    assert isinstance(error, (ValueError, TypeError)), f"{type(error).__name__}: {error}"
    message = str(error)
    assert message, f"{type(error).__name__} without a message"
    for leak in LEAKED:
        assert leak not in message, f"{type(error).__name__} leaked from C++/pybind11: {message}"


def call(f, *args, **kwargs):
    """(result, None) or (None, error), under the hang watchdog; unexpected
    exception types fail the test through ``check_error``. Warnings raised
    in our package fail it too (convergence and deprecation notices aside); those that
    numpy or scikit-learn raise on the way to rejecting bad input do not."""
    CURRENT.update(f=f, args=args, kwargs=kwargs)
    with hang_guard(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = f(*args, **kwargs), None
        except Exception as e:  # noqa: BLE001 -- judged by check_error
            check_error(e)
            result, error = None, e
    notices = (ConvergenceWarning, FutureWarning, DeprecationWarning)  # deliberate, documented
    ours = [w for w in caught if PACKAGE_DIR in os.path.abspath(w.filename) and not issubclass(w.category, notices)]
    assert not ours, f"warning from budgetsvm: {ours[0].category.__name__}: {ours[0].message}"
    return result, error


def same_state(a: dict, b: dict) -> bool:
    """Deep equality of two estimators' ``__dict__`` (arrays by value)."""
    if a.keys() != b.keys():
        return False
    return all(_same(a[k], b[k]) for k in a)


def _same(x, y) -> bool:
    if sp.issparse(x) or sp.issparse(y):
        return sp.issparse(x) and sp.issparse(y) and x.shape == y.shape and (x != y).nnz == 0
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        return (
            isinstance(x, np.ndarray)
            and isinstance(y, np.ndarray)
            and x.shape == y.shape
            and x.dtype == y.dtype
            and bool(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"))
        )
    if isinstance(x, dict) and isinstance(y, dict):
        return same_state(x, y)
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return type(x) is type(y) and len(x) == len(y) and all(_same(p, q) for p, q in zip(x, y))
    if isinstance(x, float) and isinstance(y, float) and np.isnan(x) and np.isnan(y):
        return True
    return x is y or x == y


def snapshot(estimator) -> dict:
    return copy.deepcopy(estimator.__dict__)


# ---------------------------------------------------------------- values

SPECIAL = [0.0, -0.0, 1.0, -1.0, 5e-324, 1e-310, 1e-300, 1e-30, 1e30, 1e300, -1e300, 1.7e308, np.nan, np.inf, -np.inf]
MODERATE = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False, width=64)
ANY_FLOAT = st.one_of(MODERATE, st.sampled_from(SPECIAL), st.floats(width=64))
FINITE_FLOAT = st.one_of(MODERATE, st.sampled_from([v for v in SPECIAL if np.isfinite(v)]))

DTYPES = ("float64", "float32", "float16", "int64", "int32", "uint8", "bool", ">f8", "complex128", "object")


def _narrow(v: float, dtype: np.dtype) -> float:
    with np.errstate(over="ignore"):
        return float(np.asarray(v).astype(dtype))


def _elements(dtype: np.dtype, finite: bool):
    if dtype.kind == "f":
        width = 8 * dtype.itemsize
        base = MODERATE if finite else ANY_FLOAT
        return base.map(lambda v: _narrow(v, dtype)) if width < 64 else base
    if dtype.kind == "c":
        return st.complex_numbers(max_magnitude=10.0)
    if dtype.kind == "O":
        return st.one_of(MODERATE, st.integers(-5, 5), st.sampled_from(["1.5", "a", None, np.nan]))
    return hnp.from_dtype(dtype)


@st.composite
def dense_arrays(draw, max_rows=6, max_cols=4, dtypes=DTYPES, finite=False, min_rows=0, min_cols=0):
    """Arrays of assorted dtypes, shapes (empty and one column included),
    values (NaN, inf, huge, tiny, denormal) and layouts (C, F, strided,
    non-native byte order); sometimes 1-D or 3-D, sometimes a list."""
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    rows = draw(st.integers(min_rows, max_rows))
    cols = draw(st.integers(min_cols, max_cols))
    A = draw(hnp.arrays(dtype, (rows, cols), elements=_elements(dtype, finite)))
    layout = draw(st.sampled_from(["C", "F", "strided", "transposed", "list", "1d", "3d"]))
    if layout == "F":
        A = np.asfortranarray(A)
    elif layout == "strided":
        big = np.repeat(np.repeat(A, 2, axis=0), 2, axis=1)
        A = big[::2, ::2]
    elif layout == "transposed":
        A = np.ascontiguousarray(A.T).T
    elif layout == "list":
        return A.tolist()
    elif layout == "1d":
        return A.ravel()
    elif layout == "3d":
        return A[None]
    return A


def plain_float64(A) -> np.ndarray:
    """The array the estimators should see: float64, C order."""
    return np.ascontiguousarray(np.asarray(A, dtype=np.float64))


# ------------------------------------------------------------------- CSR

INDEX_DTYPES = ("int32", "int64", "int16", "uint32", "uint64")


@st.composite
def csr_triples(draw, max_rows=5, max_cols=5, finite=True):
    """(data, indices, indptr, shape, valid): CSR triples that are valid or
    malformed in one of the ways seen in the wild (index out of range or
    negative, decreasing indptr, indptr not starting at 0 or not ending at
    nnz, wrong indptr length, more values than indices), with unsorted and
    duplicate indices and assorted index dtypes."""
    rows = draw(st.integers(0, max_rows))
    cols = draw(st.integers(0, max_cols))
    counts = draw(st.lists(st.integers(0, 4), min_size=rows, max_size=rows))
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    nnz = int(indptr[-1])
    high = max(cols - 1, 0)
    indices = np.array(draw(st.lists(st.integers(0, high), min_size=nnz, max_size=nnz)), dtype=np.int64)
    if cols == 0:
        indices = indices[:0]
        indptr = np.zeros(rows + 1, dtype=np.int64)
        nnz = 0
    entries = draw(st.lists(FINITE_FLOAT if finite else ANY_FLOAT, min_size=nnz, max_size=nnz))
    values = np.array(entries, dtype=np.float64)
    fault = draw(st.sampled_from(["none"] * 4 + ["index_high", "index_negative", "decreasing", "start", "end",
                                                  "length", "values"]))
    if fault == "index_high" and nnz:
        indices[draw(st.integers(0, nnz - 1))] = cols + draw(st.sampled_from([0, 1, 2**31 - 1 - cols]))
    elif fault == "index_negative" and nnz:
        indices[draw(st.integers(0, nnz - 1))] = draw(st.sampled_from([-1, -(2**31)]))
    elif fault == "decreasing" and rows >= 2 and nnz:
        k = draw(st.integers(1, rows - 1))
        indptr[k] = indptr[-1] + 1
    elif fault == "start" and rows:
        indptr[0] = 1
    elif fault == "end" and rows:
        indptr[-1] += 1
    elif fault == "length":
        indptr = indptr[:-1] if rows else np.array([0, 0])
    elif fault == "values":
        values = np.append(values, 1.0)
    else:
        fault = "none"
    index_dtype = np.dtype(draw(st.sampled_from(INDEX_DTYPES)))
    if index_dtype.kind == "u" and (indices < 0).any():
        index_dtype = np.dtype(np.int64)  # a negative index is its own fault
    info = np.iinfo(index_dtype)
    everything = np.concatenate([indices, indptr])
    if info.max < everything.max(initial=0) or info.min > everything.min(initial=0):
        index_dtype = np.dtype(np.int64)
    valid = fault == "none" and (cols > 0 or nnz == 0)
    return values, indices.astype(index_dtype), indptr.astype(index_dtype), (rows, cols), valid


def as_csr(values, indices, indptr, shape):
    """A scipy CSR matrix holding exactly these arrays, however malformed
    (scipy's constructor checks some faults itself; we want ours to)."""
    X = sp.csr_matrix(shape, dtype=values.dtype)
    X.data, X.indices, X.indptr = values, indices, indptr
    if hasattr(X, "_has_canonical_format"):
        del X._has_canonical_format  # never a stale flag from the empty matrix
    if hasattr(X, "_has_sorted_indices"):
        del X._has_sorted_indices
    return X


def dense_of(values, indices, indptr, shape) -> np.ndarray:
    """The dense matrix of a valid CSR triple, duplicates summed (reference)."""
    D = np.zeros(shape)
    with np.errstate(over="ignore"):
        return _sum_entries(D, values, indices, indptr, shape)


def _sum_entries(D, values, indices, indptr, shape):
    for r in range(shape[0]):
        for q in range(int(indptr[r]), int(indptr[r + 1])):
            D[r, int(indices[q])] += values[q]
    return D


# ---------------------------------------------------------------- labels


@st.composite
def labels(draw, n: int):
    """Labels of 1 to many classes: ints, floats (NaN sometimes), strings,
    bools, mixed objects; sometimes of the wrong length or shape."""
    kind = draw(st.sampled_from(["int", "float", "str", "bool", "nan", "mixed", "2d", "short", "continuous"]))
    k = draw(st.integers(1, 4))
    if kind == "int":
        pool = draw(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=k, max_size=k, unique=True))
        return np.array([pool[draw(st.integers(0, k - 1))] for _ in range(n)], dtype=np.int64)
    if kind == "float":
        pool = draw(st.lists(st.sampled_from([-1.0, 1.0, 0.0, 2.0, 3.0, 1e300]), min_size=k, max_size=k, unique=True))
        return np.array([pool[draw(st.integers(0, k - 1))] for _ in range(n)])
    if kind == "str":
        pool = draw(st.lists(st.text(max_size=3), min_size=k, max_size=k, unique=True))
        picked = [pool[draw(st.integers(0, k - 1))] for _ in range(n)]
        return np.array(picked, dtype=object if draw(st.booleans()) else str)
    if kind == "bool":
        return np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    if kind == "nan":
        y = np.array(draw(st.lists(st.sampled_from([0.0, 1.0]), min_size=n, max_size=n)))
        if n:
            y[draw(st.integers(0, n - 1))] = np.nan
        return y
    if kind == "mixed":
        return np.array(draw(st.lists(st.sampled_from([0, 1, "a", 2.5]), min_size=n, max_size=n)), dtype=object)
    if kind == "2d":
        return np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))).reshape(-1, 1)
    if kind == "short":
        return np.array(draw(st.lists(st.integers(0, 1), min_size=max(n - 1, 0), max_size=max(n - 1, 0))))
    return np.array(draw(st.lists(MODERATE, min_size=n, max_size=n)))
