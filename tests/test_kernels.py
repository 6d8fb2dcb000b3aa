"""kernel_matrix against scikit-learn's pairwise kernels."""

import os

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics.pairwise import pairwise_kernels

from budgetsvm import kernel_matrix

from conftest import load_dataset


def _reference(X, Y, kernel, gamma, degree, coef0):
    params = {
        "linear": {},
        "rbf": {"gamma": gamma},
        "poly": {"gamma": gamma, "degree": degree, "coef0": coef0},
        "sigmoid": {"gamma": gamma, "coef0": coef0},
    }[kernel]
    return pairwise_kernels(X, Y, metric=kernel, **params)


def _assert_relative(K, R, rtol):
    # Relative to the scale of the entries: entries that cancel to ~0 (a
    # linear kernel of near-orthogonal rows) have no meaningful relative error.
    scale = np.maximum(np.abs(R), 1e-3 * np.abs(R).max())
    assert np.max(np.abs(K - R) / scale) < rtol


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly", "sigmoid"])
@pytest.mark.parametrize("layout", ["C", "F", "csr32", "csr64"])
def test_matches_pairwise_kernels_float64(kernel, layout):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 9)) * (rng.random((60, 9)) < 0.5)
    Y = rng.normal(size=(45, 9)) * (rng.random((45, 9)) < 0.5)
    gamma, degree, coef0 = 0.17, 3, 0.4
    R = _reference(X, Y, kernel, gamma, degree, coef0)
    if layout == "F":
        X, Y = np.asfortranarray(X), np.asfortranarray(Y)
    elif layout.startswith("csr"):
        X, Y = sp.csr_array(X), sp.csr_array(Y)
        if layout == "csr64":
            for A in (X, Y):
                A.indices, A.indptr = A.indices.astype(np.int64), A.indptr.astype(np.int64)
    K = kernel_matrix(X, Y, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
    assert K.shape == (60, 45) and K.dtype == np.float64
    _assert_relative(K, R, 1e-10)


def test_mixed_dense_and_sparse_and_float32():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 5))
    Y = rng.normal(size=(20, 5))
    R = _reference(X, Y, "rbf", 0.5, 3, 0.0)
    _assert_relative(kernel_matrix(sp.csr_matrix(X), Y, gamma=0.5), R, 1e-10)
    _assert_relative(kernel_matrix(X, sp.csr_matrix(Y), gamma=0.5), R, 1e-10)
    K32 = kernel_matrix(X.astype(np.float32), Y.astype(np.float32), gamma=0.5)
    np.testing.assert_allclose(K32, R, rtol=1e-4, atol=1e-6)


def test_y_none_and_gamma_scale_match_svc_convention():
    rng = np.random.default_rng(3)
    X = rng.normal(loc=2.0, size=(40, 4))
    K = kernel_matrix(X)
    gamma = 1.0 / (X.shape[1] * X.var())
    _assert_relative(K, _reference(X, X, "rbf", gamma, 3, 0.0), 1e-10)
    np.testing.assert_allclose(np.diag(K), 1.0, rtol=1e-14)
    K_auto = kernel_matrix(X, kernel="rbf", gamma="auto")
    _assert_relative(K_auto, _reference(X, X, "rbf", 0.25, 3, 0.0), 1e-10)


def test_real_sparse_data_subsample():
    X, _ = load_dataset("a9a.bz2")
    X = X[:300]
    R = _reference(X, X[:100], "rbf", 2.0**-7, 3, 0.0)
    _assert_relative(kernel_matrix(X, X[:100], gamma=2.0**-7), R, 1e-10)


def test_wide_sparse_input_is_blocked():
    # Wider than one densified block (2^21 doubles): exercises the block loop.
    X = sp.random(50, 300_000, density=1e-4, format="csr", random_state=4)
    Y = sp.random(40, 300_000, density=1e-4, format="csr", random_state=5)
    _assert_relative(kernel_matrix(X, Y, kernel="linear"), (X @ Y.T).toarray(), 1e-10)
    assert kernel_matrix(X, Y, kernel="linear").shape == (50, 40)


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly", "sigmoid"])
@pytest.mark.parametrize("sparse_x", [False, True])
def test_tiles_and_threads_on_sizes_off_every_block(kernel, sparse_x):
    # 333 rows: tasks of 256, blocks of 64 and a remainder not a multiple of
    # the 4 rows a register tile holds; 300 columns: one tile of 256 and a
    # partial one. Offset features exercise the shift by the reference point.
    rng = np.random.default_rng(6)
    X = rng.normal(loc=50.0, size=(333, 7))
    Y = rng.normal(loc=50.0, size=(300, 7))
    gamma, degree, coef0 = 0.3, 2, -0.2
    if kernel != "rbf":
        X, Y, gamma = X - 50.0, Y - 50.0, 0.05
    R = _reference(X, Y, kernel, gamma, degree, coef0)
    Xin = sp.csr_matrix(X) if sparse_x else X
    K1 = kernel_matrix(Xin, Y, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, n_jobs=1)
    K2 = kernel_matrix(Xin, Y, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, n_jobs=2)
    _assert_relative(K1, R, 1e-10)
    np.testing.assert_array_equal(K1, K2)


def test_wide_sparse_general_path_is_thread_independent():
    X = sp.random(700, 300_000, density=1e-4, format="csr", random_state=7)
    Y = sp.random(30, 300_000, density=1e-4, format="csr", random_state=8)
    K1 = kernel_matrix(X, Y, gamma=0.5, n_jobs=1)
    np.testing.assert_array_equal(K1, kernel_matrix(X, Y, gamma=0.5, n_jobs=2))
    _assert_relative(K1, _reference(X, Y, "rbf", 0.5, 3, 0.0), 1e-10)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"kernel": "gauss"}, ValueError, "Unknown kernel"),
        ({"gamma": 0.0}, ValueError, "gamma"),
        ({"gamma": -1.0}, ValueError, "gamma"),
        ({"gamma": "median"}, ValueError, "gamma"),
        ({"kernel": "poly", "degree": -1}, ValueError, "degree"),
        ({"kernel": "poly", "degree": 2.5}, TypeError, "degree must be an integer"),
        ({"coef0": float("nan")}, ValueError, "coef0"),
    ],
)
def test_bad_parameters(kwargs, error, match):
    X = np.ones((3, 2))
    with pytest.raises(error, match=match):
        kernel_matrix(X, **kwargs)


def test_bad_shapes_and_values():
    with pytest.raises(ValueError, match="features"):
        kernel_matrix(np.ones((3, 2)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="NaN or infinity"):
        kernel_matrix(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="2-D"):
        kernel_matrix(np.ones(4))
    with pytest.raises(ValueError, match="empty"):
        kernel_matrix(np.ones((0, 4)))


def test_ctrl_c_stops_a_long_kernel_matrix():
    import _thread
    import signal
    import threading
    import time

    X = np.random.default_rng(0).normal(size=(5000, 2000))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # see test_linear.sigint_raises
    timer = threading.Timer(0.2, _thread.interrupt_main)  # as if Ctrl-C were pressed
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            kernel_matrix(X, gamma=1e-3)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # Under AddressSanitizer (a loaded machine, instrumented code: each
    # polling interval many times longer) the run checks the interrupted
    # path's memory safety; the time bound is the normal build's.
    if "ASAN_OPTIONS" not in os.environ:
        assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sparse_query_rows_predict_as_the_kernel_matrix(dtype):
    # 8% density and one offset feature (the reference point shifts it):
    # prediction reads such rows as stored entries; the decision values are
    # those of the kernel matrix (densified rows), for any n_jobs.
    from budgetsvm import SVC, BudgetedSVC

    rng = np.random.default_rng(9)
    X = rng.normal(size=(1500, 40)) * (rng.random((1500, 40)) < 0.08)
    X[:, 3] = np.where(rng.random(1500) < 0.95, 5.0 + rng.random(1500), 0.0)
    y = (X[:, :6].sum(axis=1) > 5.2).astype(int)
    X = sp.csr_matrix(X)
    Xq = X[1000:].astype(dtype)
    for model in (SVC(gamma=0.05), BudgetedSVC(budget=300, gamma=0.05, random_state=0)):
        model.fit(X[:1000], y[:1000])
        f1 = model.decision_function(Xq)
        model.set_params(n_jobs=2)
        np.testing.assert_array_equal(model.decision_function(Xq), f1)
        K = kernel_matrix(Xq.astype(np.float64), model.support_vectors_, gamma=0.05)
        expected = (K @ model.dual_coef_.T).ravel() + model.intercept_[0]
        assert np.abs(f1 - expected).max() <= 1e-12 * np.abs(model.dual_coef_).sum()
