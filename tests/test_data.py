"""The data contract: supported inputs are read in place, everything else is
converted once; bad input gives clear errors."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp

from budgetsvm import _core
from budgetsvm._data import as_supported, core_view, resolve_gamma


def _dense_layouts():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 4))
    return [X, np.asfortranarray(X), X.astype(np.float32), np.asfortranarray(X.astype(np.float32))]


@pytest.mark.parametrize("X", _dense_layouts(), ids=["f64-C", "f64-F", "f32-C", "f32-F"])
def test_supported_dense_is_used_in_place(X):
    assert as_supported(X) is X
    assert core_view(X) is X


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("value_dtype", [np.float32, np.float64])
@pytest.mark.parametrize("container", [sp.csr_matrix, sp.csr_array])
def test_supported_csr_is_used_in_place(container, value_dtype, index_dtype):
    X = container(sp.random(30, 8, density=0.3, format="csr", random_state=0, dtype=value_dtype))
    X.indices = X.indices.astype(index_dtype)
    X.indptr = X.indptr.astype(index_dtype)
    out = as_supported(X)
    assert out is X
    data, indices, indptr, n_rows, n_cols = core_view(out)
    assert data is X.data and indices is X.indices and indptr is X.indptr
    assert (n_rows, n_cols) == (30, 8)


@pytest.mark.parametrize(
    "X, dtype",
    [
        (np.arange(12).reshape(4, 3), np.float64),  # integers
        (np.ones((4, 3), dtype=np.float16), np.float64),
        (np.ones((4, 3), dtype=bool), np.float64),
        (np.ones((8, 6))[::2, ::2], np.float64),  # not contiguous
        ([[1, 2], [3, 4]], np.float64),  # a list
        (np.ones((4, 3), dtype=">f8"), np.float64),  # non-native byte order
    ],
)
def test_other_dense_inputs_are_converted_once(X, dtype):
    out = as_supported(X)
    assert out is not X
    assert out.dtype == dtype and (out.flags.c_contiguous or out.flags.f_contiguous)
    np.testing.assert_array_equal(out, np.asarray(X, dtype=np.float64))


@pytest.mark.parametrize("fmt", ["coo", "csc", "lil", "dok"])
def test_other_sparse_formats_become_csr(fmt):
    X = sp.random(10, 5, density=0.4, format=fmt, random_state=1)
    out = as_supported(X)
    assert out.format == "csr"
    np.testing.assert_array_equal(out.toarray(), X.toarray())


def test_non_canonical_csr_is_copied_not_modified():
    # Unsorted indices and a duplicate entry (1, 2) given twice.
    data = np.array([1.0, 2.0, 3.0, 4.0])
    indices = np.array([2, 0, 2, 2], dtype=np.int32)
    indptr = np.array([0, 2, 4], dtype=np.int32)
    X = sp.csr_matrix((data, indices, indptr), shape=(2, 3))
    before = (X.data.copy(), X.indices.copy())
    out = as_supported(X)
    assert out is not X
    np.testing.assert_array_equal(X.data, before[0])
    np.testing.assert_array_equal(X.indices, before[1])
    np.testing.assert_array_equal(out.toarray(), [[2.0, 0.0, 1.0], [0.0, 0.0, 7.0]])


@pytest.mark.parametrize(
    "X, error, match",
    [
        (np.array([[1.0, np.nan]]), ValueError, "NaN or infinity"),
        (np.array([[1.0, np.inf]]), ValueError, "NaN or infinity"),
        (sp.csr_matrix(np.array([[0.0, np.inf]])), ValueError, "NaN or infinity"),
        (np.ones(3), ValueError, "2-D array"),
        (np.ones((2, 2, 2)), ValueError, "2-D array"),
        (np.ones((0, 3)), ValueError, "empty"),
        (np.ones((3, 0)), ValueError, "empty"),
        (np.ones((2, 2), dtype=complex), TypeError, "Complex"),
        (np.array([["a", "b"]]), TypeError, "not numeric"),
    ],
)
def test_bad_input_is_a_clear_error(X, error, match):
    with pytest.raises(error, match=match):
        as_supported(X)


def test_gamma_scale_and_auto_match_scikit_learn():
    rng = np.random.default_rng(2)
    X = rng.normal(loc=1.0, size=(50, 6))
    assert resolve_gamma("scale", X) == pytest.approx(1.0 / (6 * X.var()), rel=1e-12)
    Xs = sp.csr_matrix(np.where(X > 1.2, X, 0.0))
    dense = Xs.toarray()
    assert resolve_gamma("scale", Xs) == pytest.approx(1.0 / (6 * dense.var()), rel=1e-12)
    assert resolve_gamma("auto", X) == pytest.approx(1.0 / 6)
    assert resolve_gamma(0.25, X) == 0.25
    for bad in (0.0, -1.0, float("nan"), "median"):
        with pytest.raises(ValueError, match="gamma"):
            resolve_gamma(bad, X)
    with pytest.raises(TypeError, match="gamma"):
        resolve_gamma(None, X)


def test_core_rejects_unsupported_buffers_with_type_error():
    with pytest.raises(TypeError):
        _core.all_finite(np.ones((3, 3), dtype=np.int64))
    with pytest.raises(TypeError):
        _core.all_finite(np.ones((6, 6))[::2, ::2])
    with pytest.raises(TypeError):
        _core.all_finite(np.ones(3))


# The peak resident set size is a high-water mark: measure it in a fresh
# interpreter, before and after the calls, so that nothing else raised it.
NO_COPY_SCRIPT = textwrap.dedent(
    """
    import resource, sys
    import numpy as np
    import scipy.sparse as sp
    from budgetsvm import _core
    from budgetsvm._data import as_supported, core_view, resolve_gamma

    def peak_bytes():
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024

    kind = sys.argv[1]
    n, d = 400_000, 100
    rng = np.random.default_rng(0)
    if kind.startswith("dense"):
        dtype = np.float32 if kind.endswith("32") else np.float64
        order = "F" if "F" in kind else "C"
        X = np.empty((n, d), dtype=dtype, order=order)
        for start in range(0, n, 10_000):  # fill without a full-size temporary
            X[start:start + 10_000] = rng.random((10_000, d), dtype=dtype)
        size = X.nbytes
    else:
        index_dtype = np.int64 if kind.endswith("64") else np.int32
        nnz_per_row = 40
        indptr = np.arange(0, (n + 1) * nnz_per_row, nnz_per_row, dtype=index_dtype)
        indices = np.tile(np.arange(0, 2 * nnz_per_row, 2, dtype=index_dtype), n)
        data = rng.random(n * nnz_per_row)
        # csr_array keeps int64 indices; csr_matrix would downcast (copy) them.
        X = sp.csr_array((data, indices, indptr), shape=(n, d))
        assert np.shares_memory(X.indices, indices) and np.shares_memory(X.data, data)
        size = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    before = peak_bytes()
    Xs = as_supported(X)
    assert Xs is X
    gamma = resolve_gamma("scale", X)
    sv = np.ones((3, d))
    coef = np.ones((3, 1))
    out = _core.decision_function(core_view(X), sv, coef, "rbf", gamma, 3, 0.0, 2)
    assert out.shape == (n, 1)
    grown = peak_bytes() - before
    print(grown, size)
    """
)


@pytest.mark.parametrize("kind", ["dense64C", "dense32F", "dense64F", "csr32", "csr64"])
def test_supported_input_is_never_copied(kind):
    result = subprocess.run(
        [sys.executable, "-c", NO_COPY_SCRIPT, kind], capture_output=True, text=True, check=True
    )
    grown, size = map(int, result.stdout.split())
    # The output (n doubles = 3.2 MB) and block buffers are allowed; a copy of
    # X (>= 128 MB) is not.
    assert size > 100_000_000
    assert grown < 0.1 * size, f"peak RSS grew by {grown} bytes for an input of {size} bytes"


def test_gamma_scale_for_offset_features():
    # issue 15, item 4: a one-pass variance returned gamma 1.0 instead of 0.201 for features offset by 1e8
    rng = np.random.default_rng(0)
    X = rng.standard_normal((1000, 5)) + 1e8
    expected = 1.0 / (X.shape[1] * X.var())
    assert resolve_gamma("scale", X) == pytest.approx(expected, rel=1e-6)
    Xs = sp.csr_matrix(rng.standard_normal((200, 4)) * (rng.random((200, 4)) < 0.3) + 0.0)
    assert resolve_gamma("scale", Xs) == pytest.approx(1.0 / (4 * Xs.toarray().var()), rel=1e-12)


def _label_arrays():
    rng = np.random.default_rng(5)
    return {
        "pm1-float": rng.choice([-1.0, 1.0], 5000),
        "int-2": rng.integers(0, 2, 5000),
        "int-16": rng.integers(-8, 8, 3000),  # the last count found by the scan
        "int-17": rng.integers(0, 17, 3000),  # one more: np.unique's path
        "uint8": rng.integers(0, 5, 500).astype(np.uint8),
        "float32": rng.choice(np.float32([0.5, 2.5, -3.0]), 400),
        "signed-zeros": np.array([0.0, -0.0, 1.0, -0.0, 0.0]),
        "bool": rng.random(100) < 0.3,
        "one-class": np.full(50, 7),
        "strings": rng.choice(["b", "a", "c"], 300),
        "objects": np.array(["y", "x", "y", "x"], dtype=object),
    }


@pytest.mark.parametrize("name", list(_label_arrays()))
def test_encode_labels_is_np_unique(name):
    from budgetsvm._labels import encode_labels

    y = _label_arrays()[name]
    classes, index = encode_labels(y)
    expected_classes, expected_index = np.unique(y, return_inverse=True)
    assert classes.dtype == expected_classes.dtype
    np.testing.assert_array_equal(classes, expected_classes)
    np.testing.assert_array_equal(index, expected_index.reshape(-1))
    np.testing.assert_array_equal(classes[index], y)


def test_largest_squared_row_norm_in_every_layout():
    # the C++ pass against numpy, dense (both orders, both precisions) and CSR
    # with an empty row; an overflowing row gives inf
    from budgetsvm._magnitude import max_squared_row_norm

    rng = np.random.default_rng(2)
    X = rng.normal(size=(3000, 7))
    X[1234] *= 9.0
    expected = float(np.max(np.sum(X * X, axis=1)))
    S = sp.csr_matrix(np.where(np.abs(X) > 1.0, X, 0.0))
    S_expected = float(np.max(np.asarray(S.multiply(S).sum(axis=1))))
    for A, want, rtol in [
        (X, expected, 1e-15),
        (np.asfortranarray(X), expected, 1e-15),
        (X.astype(np.float32), expected, 1e-6),
        (S, S_expected, 1e-15),
    ]:
        assert max_squared_row_norm(A) == pytest.approx(want, rel=rtol)
    X[2999, 0] = 1e200
    assert max_squared_row_norm(X) == np.inf
