"""Exported models on real data: libsvm-official and liblinear-official
predict the whole test sets of ijcnn1, a9a and dna (3 classes) exactly as
budgetsvm does (training on a slice of each training set keeps it short)."""

from __future__ import annotations

import numpy as np
import pytest

from budgetsvm import BudgetedSVC, LinearSVC, SVC, load_model, save_model
from conftest import load_dataset

svmutil = pytest.importorskip("libsvm.svmutil")
liblinearutil = pytest.importorskip("liblinear.liblinearutil")
from libsvm_reference import libsvm_c_predict  # noqa: E402 (needs libsvm, skipped above without it)

CASES = [
    ("ijcnn1", 22, lambda: SVC(C=10.0, gamma=1.0), 2000),
    ("ijcnn1", 22, lambda: BudgetedSVC(budget=200, C=10.0, gamma=1.0, random_state=0), 20000),
    ("a9a", 123, lambda: SVC(C=1.0, gamma=0.05), 3000),
    ("dna.scale", 180, lambda: SVC(C=1.0, gamma="scale"), 1000),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, d, make, n_train", CASES, ids=[f"{c[0]}-{c[2]().__class__.__name__}" for c in CASES])
def test_libsvm_predicts_our_exported_model_on_the_test_set(tmp_path, name, d, make, n_train):
    X, y = load_dataset(f"{name}.bz2", n_features=d)
    Xt, _ = load_dataset(f"{name}.t.bz2", n_features=d)
    est = make().fit(X[:n_train], y[:n_train])
    path = tmp_path / "model.txt"
    save_model(est, path, format="libsvm")
    model = svmutil.svm_load_model(str(path))
    theirs = libsvm_c_predict(model, Xt)
    ours = est.predict(Xt)
    assert np.array_equal(np.asarray(theirs), ours), f"{np.sum(np.asarray(theirs) != ours)} labels differ"
    np.testing.assert_array_equal(load_model(path, n_features=d).predict(Xt), ours)


@pytest.mark.slow
@pytest.mark.parametrize("name, d", [("a9a", 123), ("dna.scale", 180)])
def test_liblinear_predicts_our_exported_model_on_the_test_set(tmp_path, name, d):
    X, y = load_dataset(f"{name}.bz2", n_features=d)
    Xt, _ = load_dataset(f"{name}.t.bz2", n_features=d)
    est = LinearSVC().fit(X, y)
    path = tmp_path / "model.txt"
    save_model(est, path, format="liblinear")
    theirs, _, _ = liblinearutil.predict([0] * Xt.shape[0], Xt, liblinearutil.load_model(str(path)), "-q")
    ours = est.predict(Xt)
    assert np.array_equal(np.asarray(theirs), ours), f"{np.sum(np.asarray(theirs) != ours)} labels differ"
    np.testing.assert_array_equal(load_model(path).predict(Xt), ours)


@pytest.mark.slow
def test_the_direct_libsvm_loop_agrees_with_svm_predict(tmp_path):
    """The reference above is svmutil.svm_predict's own C call, row by row."""
    X, y = load_dataset("dna.scale.bz2", n_features=180)
    est = SVC().fit(X[:500], y[:500])
    save_model(est, tmp_path / "m.txt", format="libsvm")
    model = svmutil.svm_load_model(str(tmp_path / "m.txt"))
    labels, _, _ = svmutil.svm_predict([0] * 100, X[500:600], model, "-q")
    np.testing.assert_array_equal(libsvm_c_predict(model, X[500:600]), labels)
