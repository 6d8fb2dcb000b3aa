"""Malformed CSR matrices are errors, never crashes or reads out of bounds.

scipy's ``csr_matrix((data, indices, indptr), shape=...)`` does not check its
index arrays, and its own canonical-format routines crash on bad ones, so the
structure is checked once, in C++ (O(nnz)), before anything indexes with it:
by ``as_supported`` for every estimator and function, and again at the
binding for raw ``_core`` calls. (Issue 15, item 1: each case below crashed
the process or returned garbage before.)
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import budgetsvm
from budgetsvm import BudgetedSVC, LinearSVC, SVC, _core


def raw_csr(indices, indptr, shape, data=None):
    indices = np.asarray(indices, dtype=np.int32)
    indptr = np.asarray(indptr, dtype=np.int32)
    data = np.ones(len(indices)) if data is None else np.asarray(data, dtype=np.float64)
    return sp.csr_matrix((data, indices, indptr), shape=shape)


BAD = {
    "index == n_cols": (raw_csr([0, 3, 1], [0, 2, 3], (2, 3)), "column index 3"),
    "index far beyond": (raw_csr([0, 1000000, 1], [0, 2, 3], (2, 3)), "column index 1000000"),
    "negative index": (raw_csr([0, -1, 1], [0, 2, 3], (2, 3)), "column index -1"),
    "INT32_MIN index": (raw_csr([0, np.iinfo(np.int32).min, 1], [0, 2, 3], (2, 3)), "outside"),
    "decreasing indptr": (raw_csr([0, 1, 2], [0, 3, 2], (2, 3)), "indptr decreases"),
}


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("estimator", [SVC, LinearSVC, lambda: BudgetedSVC(budget=5, epochs=1)])
def test_fit_rejects_malformed_csr(case, estimator):
    X, match = BAD[case]
    with pytest.raises(ValueError, match=match):
        estimator().fit(X, [0, 1])


@pytest.mark.parametrize("case", sorted(BAD))
def test_predict_and_kernel_matrix_reject_malformed_csr(case):
    X, match = BAD[case]
    good = sp.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]))
    for clf in (SVC().fit(good, [0, 1, 0, 1]), BudgetedSVC(budget=5, epochs=1).fit(good, [0, 1, 0, 1])):
        with pytest.raises(ValueError, match=match):
            clf.predict(X)
    with pytest.raises(ValueError, match=match):
        budgetsvm.kernel_matrix(X, good, gamma=0.5)


def test_raw_core_calls_check_too():
    X, _ = BAD["index == n_cols"]
    view = (X.data, X.indices, X.indptr, 2, 3)
    with pytest.raises(ValueError, match="malformed CSR"):
        _core.all_finite(view)
    with pytest.raises(ValueError, match="indptr ends at"):
        _core.check_csr(np.array([0, 1], dtype=np.int32), np.array([0, 1, 3], dtype=np.int32), 2, 3)
    with pytest.raises(ValueError, match="indptr\\[0\\]"):
        _core.check_csr(np.array([0, 1], dtype=np.int64), np.array([1, 1, 2], dtype=np.int64), 2, 3)


def test_valid_csr_is_not_copied_and_still_works():
    rng = np.random.default_rng(0)
    X = sp.random(50, 20, density=0.3, format="csr", random_state=0)
    y = rng.integers(0, 2, 50)
    from budgetsvm._data import as_supported

    assert as_supported(X) is X  # validation reads, never copies valid input
    assert SVC().fit(X, y).score(X, y) > 0.5


# Duplicate entries are summed when the matrix is made canonical; finite
# duplicates whose sum leaves the dtype's range are named as such, not as a
# NaN or infinity the user never gave (issue 15).
OVERFLOWS = {
    "float64, row 0": (np.float64, [1e308, 1e308], [0, 2, 2], 0),
    "float64 negative, row 1": (np.float64, [-1e308, -1e308], [0, 0, 2], 1),
    "float32, row 1": (np.float32, [3e38, 3e38], [0, 0, 2], 1),
}


@pytest.mark.parametrize("case", sorted(OVERFLOWS))
def test_duplicates_summing_past_the_range_are_named(case):
    dtype, data, indptr, row = OVERFLOWS[case]
    X = sp.csr_matrix((np.array(data, dtype=dtype), np.array([0, 0], dtype=np.int32), np.array(indptr)), shape=(2, 1))
    stored = X.data.copy()
    message = f"duplicate entries .* sum to infinity: the entries at row {row}, column 0 overflow {np.dtype(dtype)}"
    from budgetsvm._data import as_supported

    with pytest.raises(ValueError, match=message):
        as_supported(X)
    for estimator in (SVC(), LinearSVC(), BudgetedSVC(budget=5, epochs=1)):
        with pytest.raises(ValueError, match="duplicate entries"):
            estimator.fit(X, [0, 1])
    np.testing.assert_array_equal(X.data, stored)  # the caller's matrix is not summed in place
    assert not X.has_canonical_format


def test_duplicates_that_stay_finite_or_hold_infinity_keep_their_meaning():
    from budgetsvm._data import as_supported

    big = np.finfo(np.float64).max
    cancelling = sp.csr_matrix((np.array([big, -big, 1.0]), np.array([0, 0, 0]), np.array([0, 2, 3])), shape=(2, 1))
    np.testing.assert_array_equal(as_supported(cancelling).toarray(), [[0.0], [1.0]])
    near = sp.csr_matrix((np.array([big / 2, big / 2, 1.0]), np.array([0, 0, 0]), np.array([0, 2, 3])), shape=(2, 1))
    assert as_supported(near)[0, 0] == big
    given = sp.csr_matrix((np.array([np.inf, 1.0, 1.0]), np.array([0, 0, 0]), np.array([0, 2, 3])), shape=(2, 1))
    with pytest.raises(ValueError, match="^Input contains NaN or infinity"):
        as_supported(given)
