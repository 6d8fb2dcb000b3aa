"""Clear messages for ordinary mistakes: the reproducers of the reliability
issue (item 8) as tests. Each names the problem; none is a raw traceback
from numpy, pybind11 or the standard library."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.svm import SVC as SkSVC

from budgetsvm import SVC, BudgetedSVC, LinearSVC, kernel_matrix
from budgetsvm.cli import main


@pytest.fixture
def binary():
    X = np.random.default_rng(0).normal(size=(40, 3))
    return X, (X[:, 0] > 0).astype(int)


def test_kernel_matrix_names_bad_arguments(binary):
    X, _ = binary
    with pytest.raises(TypeError, match="coef0 must be a real number; got 'a'"):
        kernel_matrix(X, kernel="poly", coef0="a")
    with pytest.raises(TypeError, match="degree must be an integer"):
        kernel_matrix(X, kernel="poly", degree="a")
    with pytest.raises(ValueError, match="degree must be >= 0"):
        kernel_matrix(X, kernel="poly", degree=-1)


@pytest.mark.parametrize("estimator", [LinearSVC, SVC, BudgetedSVC])
def test_negative_class_weight_is_named(estimator, binary):
    X, y = binary
    with pytest.raises(ValueError, match=r"class_weight must be finite and >= 0; got -1.0 for class 0"):
        estimator(class_weight={0: -1, 1: 1}).fit(X, y)


def test_svc_without_support_vectors_predicts_the_intercept(binary):
    # tol >= 2 accepts alpha = 0 as optimal: no support vector, f(x) = b
    X, y = binary
    ours, ref = SVC(tol=3).fit(X, y), SkSVC(tol=3).fit(X, y)
    assert ours.support_vectors_.shape == (0, 3)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-12)


def test_radius_inf_means_no_projection(binary):
    X, y = binary
    a = BudgetedSVC(solver="bsgd", radius=np.inf, random_state=0).fit(X, y)
    b = BudgetedSVC(solver="bsgd", radius=None, random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)


def test_huge_integers_are_range_errors(binary):
    X, y = binary
    with pytest.raises(ValueError, match="budget must be <="):
        BudgetedSVC(budget=2**63).fit(X, y)
    with pytest.raises(ValueError, match="max_iter must be <="):
        SVC(max_iter=2**70).fit(X, y)


def _write(path, text):
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "args, message",
    [
        (["demo", "--data", "{missing}"], "No such file or directory"),
        (["demo", "--data", "{dir}"], "Is a directory"),
        (["demo", "--data", "{garbage}"], "line 1: cannot parse the label"),
        (["demo", "--data", "{empty}"], "holds 0 sample(s)"),
        (["demo", "--data", "{one_class}"], "at least 2 classes"),
        (["demo", "--budget", "1"], "argument --budget: must be an integer >= 2"),
        (["demo", "--C", "inf"], "argument --C: must be a positive finite number"),
        (["demo", "--gamma", "inf"], "argument --gamma: must be a positive finite number"),
        (["demo", "--n-jobs", "0"], "argument --n-jobs: must be a positive integer or -1"),
        (["demo", "--seed", "-1"], "argument --seed: must be a non-negative integer"),
    ],
)
def test_cli_errors_are_one_line(args, message, tmp_path, capsys):
    files = {
        "missing": str(tmp_path / "missing.svm"),
        "dir": str(tmp_path),
        "garbage": _write(tmp_path / "garbage.svm", "garbage line\n"),
        "empty": _write(tmp_path / "empty.svm", ""),
        "one_class": _write(tmp_path / "one.svm", "1 1:0.5\n1 2:0.3\n1 1:0.1\n1 2:0.9\n1 1:0.2\n"),
    }
    args = [a.format(**files) for a in args]
    try:
        code = main(args)
    except SystemExit as stop:  # argparse's own errors
        code = stop.code
    err = capsys.readouterr().err
    assert code not in (0, None)
    assert message in err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("budgetsvm demo: error:")


def test_cli_debug_shows_the_traceback(tmp_path):
    with pytest.raises(OSError):
        main(["--debug", "demo", "--data", str(tmp_path / "missing.svm")])
