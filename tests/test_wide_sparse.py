"""Wide sparse data (hashed features): memory and time follow the non-zeros,
not the width, and the model is the one trained on all columns.

Reproducer of the reliability issue (item 5): 200 rows, 1,000 non-zeros,
2^20 columns took 642 MB in SVC and 819 MB / 38 s in BudgetedSVC; 2^24
columns ran SVC out of memory. The reference for the results is the same
estimator with compaction switched off, and scikit-learn's SVC.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC as SkSVC

from budgetsvm import SVC, BudgetedSVC, _columns


def hashed(n=200, nnz=1000, width=2**20, seed=0):
    rng = np.random.default_rng(seed)
    X = sp.csr_matrix((rng.random(nnz), (rng.integers(0, n, nnz), rng.integers(0, width, nnz))), shape=(n, width))
    X.sum_duplicates()
    y = np.arange(n) % 2
    y[X.getnnz(axis=1) == 0] = 0
    return X, y


def widened(X, width):
    """The same rows and non-zeros declared ``width`` columns wide."""
    return sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], width))


def seconds(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def queries(X, seed=1):
    """Rows with non-zeros in the training columns and outside them."""
    rng = np.random.default_rng(seed)
    width = X.shape[1]
    Q = X[:30].tolil()
    for r in range(30):
        for c in rng.integers(0, width, 3):
            Q[r, c] = rng.random()
    return Q.tocsr()


@pytest.fixture
def no_compaction(monkeypatch):
    def switch_off():
        monkeypatch.setattr(_columns, "COMPACT_BELOW", 0.0)

    return switch_off


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_svc_on_the_used_columns_is_the_svc_on_all(kernel, no_compaction):
    X, y = hashed(width=2**12)
    Q = queries(X)
    wide = SVC(kernel=kernel, gamma=0.5, C=10.0).fit(X, y)
    assert wide._used_columns is not None
    ref = SkSVC(kernel=kernel, gamma=0.5, C=10.0).fit(X, y)
    np.testing.assert_allclose(wide.decision_function(Q), ref.decision_function(Q), atol=2e-3)
    np.testing.assert_array_equal(wide.support_, ref.support_)
    assert sp.issparse(wide.support_vectors_) and wide.support_vectors_.shape[1] == X.shape[1]
    np.testing.assert_array_equal(wide.support_vectors_.toarray(), X[wide.support_].toarray())
    no_compaction()
    full = SVC(kernel=kernel, gamma=0.5, C=10.0).fit(X, y)
    assert full._used_columns is None
    np.testing.assert_allclose(wide.decision_function(Q), full.decision_function(Q), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(wide.decision_function(Q.toarray()), full.decision_function(Q), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_budgeted_on_the_used_columns_is_the_model_on_all(solver, no_compaction):
    X, y = hashed(width=2**12)
    Q = queries(X)
    kwargs = dict(solver=solver, budget=50, C=10.0, gamma=0.5, epochs=3, random_state=0)
    wide = BudgetedSVC(**kwargs).fit(X, y)
    assert wide._used_columns is not None
    no_compaction()
    full = BudgetedSVC(**kwargs).fit(X, y)
    assert full._used_columns is None
    np.testing.assert_allclose(wide.dual_coef_, full.dual_coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(wide.support_vectors_.toarray(), full.support_vectors_.toarray(), atol=1e-12)
    np.testing.assert_allclose(wide.decision_function(Q), full.decision_function(Q), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(wide.decision_function(Q.toarray()), full.decision_function(Q), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("estimator", [SVC, BudgetedSVC])
@pytest.mark.parametrize("width", [2**20, 2**24])
def test_memory_follows_the_nonzeros(estimator, width):
    X, y = hashed(width=width)
    tracemalloc.start()
    estimator(random_state=0).fit(X, y).predict(X)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # a few n_features-sized byte masks, never n_features x rows of float64
    assert peak < 2 * width + 8e6, peak


# Time is compared with the same rows declared 2^16 wide, in the same process,
# so the bound holds on a slow or loaded machine and under AddressSanitizer:
# work that grew with the width would take 16-256x the narrow run's time.
@pytest.mark.parametrize("estimator", [SVC, BudgetedSVC])
def test_time_follows_the_nonzeros(estimator):
    X, y = hashed(width=2**16)

    def fit(width):
        Xw = widened(X, width)
        return lambda: estimator(random_state=0).fit(Xw, y).predict(Xw)

    narrow = min(seconds(fit(2**16)) for _ in range(2))
    for width in [2**20, 2**24]:
        assert seconds(fit(width)) < 4 * narrow + 0.5, (width, narrow)  # was 38 s (BudgetedSVC) and out of memory


def test_a_huge_budget_allocates_only_what_a_run_can_use():
    # budget=10**7 on 200 rows allocated 1.6 GB up front: a run of 5 epochs
    # over 200 rows holds at most 1,000 support vectors (one per step)
    import subprocess
    import sys

    code = (
        "import resource, numpy as np\n"
        "from budgetsvm import BudgetedSVC\n"
        "X = np.random.default_rng(0).normal(size=(200, 20)); y = (X[:, 0] > 0).astype(int)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "for solver in ('bsca', 'bsgd'):\n"
        "    m = BudgetedSVC(solver=solver, budget=10**7, random_state=0).fit(X, y)\n"
        "    assert m.n_support_ <= 1000\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert float(out) < 100.0, out  # MB grown during the fits


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_partial_fit_and_warm_start_on_the_used_columns(solver, tmp_path, no_compaction):
    # iter_svmlight's n_features is an upper bound: chunks of a wide declared width use a few columns each, and
    # later chunks bring new ones. The model is the one trained on all columns (compaction switched off)
    rng = np.random.default_rng(0)
    width, n = 2**14, 600
    X = sp.csr_matrix((rng.random(n * 8), (np.repeat(np.arange(n), 8), rng.integers(0, width // 2, n * 8))),
                      shape=(n, width - 40))
    X.sum_duplicates()
    late = rng.random((n, 40)) * (rng.random((n, 40)) < 0.2)
    late[: n // 2] = 0.0  # columns that only the later chunks use
    X = sp.hstack([X, sp.csr_matrix(late)], format="csr")
    score = np.asarray(X[:, : width // 4].sum(axis=1)).ravel()
    y = (score > np.median(score)).astype(int)
    Q = queries(X)
    kwargs = dict(solver=solver, budget=40, C=10.0, gamma=0.5, random_state=0)

    def stream(model):
        for k in range(0, n, 150):
            model.partial_fit(X[k : k + 150], y[k : k + 150], classes=[0, 1])
        return model.set_params(warm_start=True, epochs=2).fit(X, y)

    wide = stream(BudgetedSVC(**kwargs))
    assert wide._used_columns is not None and wide._used_columns.columns.size == np.unique(X.indices).size
    from budgetsvm import load_model, save_model

    save_model(wide, tmp_path / "m.bsvm")
    no_compaction()
    full = stream(BudgetedSVC(**kwargs))
    assert full._used_columns is None
    np.testing.assert_allclose(wide.dual_coef_, full.dual_coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(wide.support_vectors_.toarray(), full.support_vectors_.toarray(), atol=1e-12)
    np.testing.assert_allclose(wide.decision_function(Q), full.decision_function(Q), rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(load_model(tmp_path / "m.bsvm").decision_function(Q), wide.decision_function(Q))


def test_partial_fit_time_follows_the_nonzeros():
    # was 40 s for 10,000 rows of 18 used columns declared 47,236 wide (the stream's n_features)
    X, y = hashed(n=2000, nnz=16000, width=2**16)

    def stream(width):
        Xw = widened(X, width)
        model = BudgetedSVC(budget=100, gamma=0.5, random_state=0)
        for k in range(0, 2000, 500):
            model.partial_fit(Xw[k : k + 500], y[k : k + 500], classes=[0, 1])
        return model

    narrow = min(seconds(lambda: stream(2**16)) for _ in range(2))
    assert seconds(lambda: stream(2**20)) < 4 * narrow + 0.5, narrow
    model = stream(2**20)
    assert model._used_columns is not None and model.support_vectors_.shape == (model.n_support_, 2**20)
