"""Input of another width than the fitted model's is scikit-learn's error,
for sparse input as for dense (issue 64, "Results"), in every estimator's
predict / decision_function / predict_proba, the models loaded from files
and budgetsvm.dask; the C++ side is cpp/tests/test_widths.cpp, the CLI's
warning tests/test_cli_numbers.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from budgetsvm import SVC, BudgetedSVC, LinearSVC, load_model, save_model

# SVC(probability=True) is deprecated (scikit-learn 1.9), still the way to get predict_proba
pytestmark = pytest.mark.filterwarnings("ignore:The `probability` parameter was deprecated:FutureWarning")


def _data(n=80, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, (X[:, 0] - 0.5 * X[:, 1] > 0).astype(int)


ESTIMATORS = [
    LinearSVC(random_state=0),
    LinearSVC(multi_class="crammer_singer", random_state=0),
    SVC(),
    SVC(kernel="linear", probability=True, random_state=0),
    BudgetedSVC(budget=20, random_state=0),
]


def _methods(clf):
    return [m for m in ("predict", "decision_function", "predict_proba") if hasattr(clf, m)]


def _wider(X, extra, fill):
    return np.hstack([X, np.full((X.shape[0], extra), fill)])


@pytest.mark.parametrize("train_sparse", [False, True])
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_wider_sparse_input_is_the_dense_error(estimator, train_sparse):
    X, y = _data()
    clf = estimator.fit(sp.csr_matrix(X) if train_sparse else X, y)
    name = type(clf).__name__
    message = f"X has 5 features, but {name} is expecting 3 features as input."
    for method in _methods(clf):
        # extra columns holding values, and extra columns all zero (no stored entry past the model's)
        for fill in (1.0, 0.0):
            wide = _wider(X[:10], 2, fill)
            for Xq in (wide, sp.csr_matrix(wide), sp.csr_array(wide), sp.csc_matrix(wide)):
                with pytest.raises(ValueError, match=message):
                    getattr(clf, method)(Xq)
        narrow = sp.csr_matrix(X[:10, :2])
        with pytest.raises(ValueError, match=f"X has 2 features, but {name} is expecting 3"):
            getattr(clf, method)(narrow)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_loaded_models_check_the_width_of_sparse_input(estimator, tmp_path):
    X, y = _data()
    path = tmp_path / "m.bsvm"
    save_model(estimator.fit(sp.csr_matrix(X), y), path)
    clf = load_model(path)
    wide = sp.csr_matrix(_wider(X[:5], 4, 1.0))
    for method in _methods(clf):
        with pytest.raises(ValueError, match=f"X has 7 features, but {type(clf).__name__} is expecting 3"):
            getattr(clf, method)(wide)
    np.testing.assert_array_equal(clf.predict(sp.csr_matrix(X)), estimator.predict(sp.csr_matrix(X)))


def test_dask_checks_the_width_of_sparse_and_dask_input():
    da = pytest.importorskip("dask.array")
    import dask

    from budgetsvm.dask import BudgetedSVC as DaskBudgetedSVC

    X, y = _data(200)
    with dask.config.set(scheduler="synchronous"):
        clf = DaskBudgetedSVC(budget=20, random_state=0).fit(da.from_array(X, chunks=100), da.from_array(y, chunks=100))
        wide = _wider(X[:20], 2, 1.0)
        for Xq in (sp.csr_matrix(wide), wide, da.from_array(wide, chunks=10), da.from_array(sp.csr_matrix(wide))):
            for method in ("predict", "decision_function"):
                with pytest.raises(ValueError, match="X has 5 features, but BudgetedSVC is expecting 3"):
                    result = getattr(clf, method)(Xq)
                    getattr(result, "compute", lambda: None)()
