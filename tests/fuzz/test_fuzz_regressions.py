"""Each bug the fuzz tests found, as an explicit example (all failed before
their fix)."""

from __future__ import annotations

import lzma

import numpy as np
import pytest
import scipy.sparse as sp

from budgetsvm import kernel_matrix, load_svmlight


def _file(tmp_path, data: bytes):
    path = tmp_path / "data.svm"
    path.write_bytes(data)
    return path


def test_float32_value_beyond_its_range_is_an_error_not_infinity(tmp_path):
    path = _file(tmp_path, b"1 1:3.5e38\n")
    with pytest.raises(ValueError, match="line 1: .*range of float32"):
        load_svmlight(path, dtype=np.float32)
    X, _ = load_svmlight(path)  # float64 holds it
    assert X.data[0] == 3.5e38


def test_largest_zero_based_index_is_an_error_not_a_negative_column(tmp_path):
    path = _file(tmp_path, b"1 0:1 9223372036854775807:1\n")
    for zero_based in (True, "auto"):
        with pytest.raises(ValueError, match="too large"):
            load_svmlight(path, zero_based=zero_based)


@pytest.mark.parametrize("data", [b"\xfd7zXZ\x00", b"\x1f\x8b\x08\x00junk", b"BZh91AY&SYjunk"])
def test_corrupt_compressed_file_is_a_value_error(tmp_path, data):
    with pytest.raises(ValueError, match="corrupt or truncated"):
        load_svmlight(_file(tmp_path, data))


def test_truncated_xz_file_is_a_value_error(tmp_path):
    whole = lzma.compress(b"1 1:1\n" * 1000)
    with pytest.raises(ValueError, match="corrupt or truncated"):
        load_svmlight(_file(tmp_path, whole[: len(whole) // 2]))


def test_missing_file_is_still_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_svmlight(tmp_path / "absent.svm")


@pytest.mark.parametrize("X", [np.array([[0.0], [1e300]]), sp.csr_matrix(np.array([[0.0], [1e300]]))])
def test_gamma_scale_that_overflows_is_named(X):
    # X.var() is inf: gamma was 0 and the error blamed a gamma the user never gave
    with pytest.raises(ValueError, match="gamma='scale'"):
        kernel_matrix(X, gamma="scale")


def test_gamma_scale_whose_mean_overflows_is_named():
    # the mean is inf, the centred sum NaN: gamma silently became 1.0
    with pytest.raises(ValueError, match="gamma='scale'"):
        kernel_matrix(np.array([[0.0], [1.7e308], [1.7e308]]), gamma="scale")


def test_gamma_scale_of_denormal_spread_is_named():
    with pytest.raises(ValueError, match="gamma='scale'"):
        kernel_matrix(np.array([[0.0], [1e-160]]), gamma="scale")


def test_gamma_beyond_float64_is_a_value_error():
    with pytest.raises(ValueError, match="gamma must be"):
        kernel_matrix(np.ones((2, 2)), gamma=10**400)


@pytest.mark.parametrize("degree", [2**31, 10**30])
def test_degree_beyond_int32_is_a_value_error(degree):
    # was pybind11's "incompatible function arguments" TypeError
    with pytest.raises(ValueError, match="degree must be"):
        kernel_matrix(np.ones((2, 2)), kernel="poly", degree=degree)


def test_linear_svc_predict_rejects_malformed_csr():
    # decision_function handed the matrix to scipy unchecked: a segmentation fault
    from budgetsvm import LinearSVC

    clf = LinearSVC(random_state=0).fit(np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [0.0, 0.5]]), [0, 1, 1, 0])
    X = sp.csr_matrix((2, 2))
    X.data, X.indices, X.indptr = np.ones(2), np.array([0, 5], dtype=np.int32), np.array([0, 1, 2], dtype=np.int32)
    with pytest.raises(ValueError, match="column index 5"):
        clf.predict(X)


@pytest.mark.parametrize("name", ["SVC", "LinearSVC", "BudgetedSVC"])
def test_failed_fit_leaves_the_fitted_model_unchanged(name):
    # validation set n_features_in_ (LinearSVC also classes_) before rejecting y
    import budgetsvm

    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]])
    clf = getattr(budgetsvm, name)().fit(X, [0, 0, 1, 1])
    before = dict(clf.__dict__)
    with pytest.raises(ValueError, match="class"):
        clf.fit(np.ones((3, 5)), ["a", "a", "a"])
    assert clf.__dict__.keys() == before.keys()
    assert all(clf.__dict__[k] is before[k] for k in before)
    assert clf.n_features_in_ == 2 and clf.predict(X).shape == (4,)


def test_subnormal_hyperparameters_are_read_not_an_index_error():
    # the option reader printed values through std::stod, which throws for subnormals
    from budgetsvm import SVC, merge_solution

    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]])
    assert SVC(kernel="poly", coef0=5e-324).fit(X, [0, 0, 1, 1]).predict(X).shape == (4,)
    with pytest.raises(ValueError, match="eps"):
        merge_solution(0.5, 0.5, method="gss", eps=1e-320)


@pytest.mark.parametrize("name", ["SVC", "BudgetedSVC"])
@pytest.mark.parametrize(
    "X, y",
    [
        ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1e-30]], ["c0", "c1", "c0"]),
        ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1e-30]], ["c0", "c1", "c2"]),
        ([[0.0], [3.6434492e-25]], ["c0", "c1"]),
    ],
)
def test_float32_rows_at_a_tiny_scale_predict_as_float64(name, X, y):
    # gamma='scale' is about 1e60 here: float arithmetic made it infinite and
    # the decision values NaN (and predict disagreed with them); such rows are
    # now computed in double
    import budgetsvm

    X32 = np.array(X, dtype=np.float32)
    clf = getattr(budgetsvm, name)().fit(X32, y)
    f32, f64 = clf.decision_function(X32), clf.decision_function(X32.astype(np.float64))
    assert np.all(np.isfinite(f32))
    np.testing.assert_allclose(f32, f64, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(clf.predict(X32), clf.predict(X32.astype(np.float64)))


def test_kernel_matrix_of_operands_far_apart_does_not_cancel():
    # the reference point came from X alone (mean 4.7e7); Y = 0 lay far from
    # it and k(4, 0) = exp(-8) came out as exp(-7.75); now the point of X and
    # Y together
    X = np.array([[9.4906263e07], [4.0]])
    Y = np.zeros((2, 1))
    want = np.exp(-0.5 * (X - Y.T) ** 2)
    for A, B in ((X, Y), (sp.csr_matrix(X), Y), (X, sp.csr_matrix(Y))):
        np.testing.assert_allclose(kernel_matrix(A, B, gamma=0.5), want, rtol=1e-9, atol=0)


@pytest.mark.parametrize("name", ["SVC", "LinearSVC", "BudgetedSVC"])
@pytest.mark.parametrize("index_dtype", ["uint32", "uint64"])
def test_unsigned_csr_index_arrays_on_used_columns(name, index_dtype):
    # predicting through the used-columns map rebuilt the CSR matrix with the
    # caller's unsigned index dtypes: scipy warned, and uint64 counts made
    # np.repeat raise a casting TypeError
    import budgetsvm

    X = sp.csr_matrix((2, 3))
    X.data = np.array([1.0])
    X.indices, X.indptr = np.array([1], dtype=index_dtype), np.array([0, 1, 1], dtype=index_dtype)
    clf = getattr(budgetsvm, name)().fit(X, ["c0", "c1"])
    assert clf.predict(X).shape == (2,)
    assert np.all(np.isfinite(clf.decision_function(X)))


def test_equal_points_far_from_the_reference_point_have_kernel_one():
    # found by the long profile of test_kernel_matrix_mixed_sparse_dense: K[0, 0] = 0; the
    # distance from norms cancels (error ~ eps 1e29) when the spread (1e14) dwarfs 1 / gamma,
    # and such distances are now recomputed from differences
    from budgetsvm import _core
    from budgetsvm._data import core_view

    a = float.fromhex("0x1.f5aecd5cd9960p+47")  # 2.758e14
    X = np.array([[0.0, 0.0], [0.0, a]] + [[a, a]] * 3)
    want = np.exp(-0.5 * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    for A in (X, sp.csr_matrix(X)):
        np.testing.assert_array_equal(kernel_matrix(A, X.copy(), gamma=0.5), want)
        coef = np.arange(1.0, 6.0)[:, None]
        f = _core.decision_function(core_view(A), X, coef, "rbf", 0.5, 3, 0.0, 1)
        np.testing.assert_allclose(f, want @ coef, rtol=1e-15)


def test_point_beside_values_at_1e30_keeps_its_distance():
    # found by the long profile of test_kernel_matrix_mixed_sparse_dense after the
    # recomputation from differences landed: K[2, 2] = 1 instead of exp(-0.5). The
    # reference point (~1e30 in the second feature) absorbed the 1 and the 2 when the
    # rows were shifted; the differences are now taken of the rows as given.
    from budgetsvm import _core
    from budgetsvm._data import core_view

    X = np.array([[0.0, 1e30], [0.0, 1e30], [0.0, 1.0]])
    Y = 2.0 * X
    want = np.exp(-0.5 * ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1))
    for A in (X, sp.csr_matrix(X), X.astype(np.float32)):
        K = kernel_matrix(A, Y, gamma=0.5)
        assert K[2, 2] == pytest.approx(np.exp(-0.5), rel=1e-12)
        np.testing.assert_allclose(K, want, rtol=1e-12)
        f = _core.decision_function(core_view(A), Y, np.ones((3, 1)), "rbf", 0.5, 3, 0.0, 1)
        np.testing.assert_allclose(f[:, 0], want.sum(1), rtol=1e-12)
