"""Tests of budgetsvm.LinearSVC against independent references.

References: the KKT conditions and the dual objective recomputed here from
``alpha_`` and the data; scikit-learn's LinearSVC (liblinear) run to a tight
tolerance, compared through the primal objective (strong duality) and the
coefficients; an explicitly appended bias column; duplicated / removed
samples for sample weights.
"""

from __future__ import annotations

import threading
import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC as SkLinearSVC

from budgetsvm import LinearSVC

from conftest import load_dataset

SELECTIONS = ["auto", "avsf", "shrinking", "uniform"]


def _subsample(name, n, seed=0, n_features=None):
    X, y = load_dataset(name, n_features=n_features)
    rows = np.random.default_rng(seed).choice(X.shape[0], size=min(n, X.shape[0]), replace=False)
    rows.sort()
    return X[rows], y[rows]


def _binary_pm(y, classes):
    return np.where(y == classes[1], 1.0, -1.0)


def _primal(X, y_pm, w, b, C, loss, s=1.0):
    """Primal objective; the bias weight b / s is regularised (liblinear)."""
    margin = np.maximum(0.0, 1.0 - y_pm * (X @ w + b))
    per = margin if loss == "hinge" else margin**2
    return 0.5 * (w @ w) + 0.5 * (b / s) ** 2 + C * float(np.sum(per))


def _kkt_and_dual(X, y_pm, alpha, w_full, s, C, loss):
    """Max |projected gradient| and the dual objective, from the definitions."""
    Xd = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    Xb = np.hstack([Xd, np.full((Xd.shape[0], 1), s)])
    w = Xb.T @ (alpha * y_pm)
    assert np.allclose(w, w_full, atol=1e-8 * max(1.0, np.abs(w).max()))
    dd = 0.5 / C if loss == "squared_hinge" else 0.0
    U = np.inf if loss == "squared_hinge" else C
    G = y_pm * (Xb @ w) - 1.0 + dd * alpha
    pg = np.where(alpha <= 0, np.minimum(G, 0), np.where(alpha >= U, np.maximum(G, 0), G))
    dual = alpha.sum() - 0.5 * w @ w - 0.5 * dd * (alpha @ alpha)
    return np.abs(pg).max(), dual


@pytest.mark.parametrize("selection", SELECTIONS)
@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_kkt_and_dual_objective_at_solution(selection, loss, fit_intercept):
    X, y = _subsample("a9a.bz2", 1500, n_features=123)
    C, s = 0.5, 2.0
    clf = LinearSVC(C=C, loss=loss, selection=selection, tol=1e-5, fit_intercept=fit_intercept,
                    intercept_scaling=s, random_state=0).fit(X, y)
    y_pm = _binary_pm(y, clf.classes_)
    w_full = np.append(clf.coef_[0], clf.intercept_[0] / s if fit_intercept else 0.0)
    violation, dual = _kkt_and_dual(X, y_pm, clf.alpha_[0], w_full, s if fit_intercept else 0.0, C, loss)
    assert violation < 1e-4
    stats = clf.fit_stats_[0]
    assert stats["status"] == "converged"
    assert stats["dual_objective"] == pytest.approx(dual, rel=1e-10)
    # weak duality, and a gap that closes with the tolerance
    primal = _primal(X, y_pm, clf.coef_[0], clf.intercept_[0], C, loss, s)
    assert dual <= primal * (1 + 1e-12)
    assert (primal - dual) / primal < 1e-4


@pytest.mark.parametrize(
    "name,n_features,C",
    [("a9a.bz2", 123, 1.0), ("w8a.bz2", 300, 0.5), ("ijcnn1.bz2", 22, 1.0),
     ("covtype.binary.scale.sub20k.bz2", 54, 0.1), ("reuters_moneyfx.bz2", 8315, 10.0)],
)
@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_agrees_with_liblinear(name, n_features, C, loss):
    X, y = _subsample(name, 2000, seed=1, n_features=n_features)
    ours = LinearSVC(C=C, loss=loss, tol=1e-4, random_state=0).fit(X, y)
    ref = SkLinearSVC(C=C, loss=loss, dual=True, tol=1e-6, max_iter=10**6, random_state=0).fit(X, y)
    y_pm = _binary_pm(y, ours.classes_)
    p_ref = _primal(X, y_pm, ref.coef_[0], ref.intercept_[0], C, loss)
    p_ours = _primal(X, y_pm, ours.coef_[0], ours.intercept_[0], C, loss)
    dual = ours.fit_stats_[0]["dual_objective"]
    # Strong duality: our dual objective meets liblinear's primal optimum.
    assert dual == pytest.approx(p_ref, rel=1e-3)
    assert p_ours == pytest.approx(p_ref, rel=1e-3)
    scale = max(np.linalg.norm(ref.coef_), 1.0)
    assert np.linalg.norm(ours.coef_ - ref.coef_) / scale < 0.05
    agree = np.mean(ours.predict(X) == ref.predict(X))
    assert agree > 0.99


def test_multiclass_and_class_weight_agree_with_liblinear():
    X, y = _subsample("dna.scale.bz2", 1200, seed=2, n_features=180)
    cw = {1: 2.0, 2: 0.5, 3: 1.0}
    for class_weight in [None, cw, "balanced"]:
        ours = LinearSVC(C=0.3, tol=1e-5, class_weight=class_weight, random_state=0, n_jobs=2).fit(X, y)
        ref = SkLinearSVC(C=0.3, dual=True, tol=1e-7, max_iter=10**6, class_weight=class_weight,
                          random_state=0).fit(X, y)
        assert ours.coef_.shape == ref.coef_.shape == (3, 180)
        assert ours.intercept_.shape == (3,)
        rel = np.linalg.norm(ours.coef_ - ref.coef_) / np.linalg.norm(ref.coef_)
        assert rel < 1e-2
        np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=2e-2)
        assert np.mean(ours.predict(X) == ref.predict(X)) > 0.99


def test_class_weight_is_per_class_C():
    X, y = _subsample("a9a.bz2", 1000, seed=3, n_features=123)
    a = LinearSVC(C=1.0, tol=1e-6, class_weight={-1: 1.0, 1: 3.0}, random_state=0).fit(X, y)
    sw = np.where(y == 1, 3.0, 1.0)
    b = LinearSVC(C=1.0, tol=1e-6, random_state=0).fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=0, atol=1e-12)
    c = LinearSVC(C=1.0, tol=1e-6, random_state=0).fit(X, y)
    assert np.abs(a.coef_ - c.coef_).max() > 1e-2  # the weight matters


def test_one_vs_rest_threads_match_one_thread():
    X, y = _subsample("satimage.scale.bz2", 1500, seed=4, n_features=36)
    one = LinearSVC(C=1.0, random_state=3, n_jobs=1).fit(X, y)
    many = LinearSVC(C=1.0, random_state=3, n_jobs=-1).fit(X, y)
    np.testing.assert_array_equal(one.coef_, many.coef_)
    assert one.coef_.shape == (6, 36)
    assert one.n_iter_ == max(s["sweeps"] for s in one.fit_stats_)


@pytest.mark.parametrize("selection", SELECTIONS)
def test_dense_equals_csr_in_all_layouts(selection):
    X, y = _subsample("w8a.bz2", 1500, seed=5, n_features=300)
    kw = dict(C=2.0, tol=1e-4, selection=selection, random_state=0)
    ref = LinearSVC(**kw).fit(X, y)
    dense = X.toarray()
    for variant in [dense, np.asfortranarray(dense), sp.csr_array(X)]:
        np.testing.assert_allclose(LinearSVC(**kw).fit(variant, y).coef_, ref.coef_, rtol=0, atol=1e-10)
    X64 = X.copy()
    X64.indices = X64.indices.astype(np.int64)
    X64.indptr = X64.indptr.astype(np.int64)
    np.testing.assert_allclose(LinearSVC(**kw).fit(X64, y).coef_, ref.coef_, rtol=0, atol=1e-10)
    # float32 storage (w8a's values are 0/1: exact in float32)
    X32 = X.astype(np.float32)
    a = LinearSVC(**kw).fit(X32, y)
    b = LinearSVC(**kw).fit(X32.toarray(), y)
    np.testing.assert_allclose(a.coef_, ref.coef_, rtol=0, atol=1e-10)
    np.testing.assert_allclose(b.coef_, ref.coef_, rtol=0, atol=1e-10)


def test_csr_with_unsorted_indices_is_not_modified():
    X, y = _subsample("a9a.bz2", 500, seed=6, n_features=123)
    ref = LinearSVC(C=1.0, random_state=0).fit(X, y)
    Xu = X.copy()
    for i in range(Xu.shape[0]):  # reverse each row's entries
        lo, hi = Xu.indptr[i], Xu.indptr[i + 1]
        Xu.indices[lo:hi] = Xu.indices[lo:hi][::-1].copy()
        Xu.data[lo:hi] = Xu.data[lo:hi][::-1].copy()
    Xu.has_sorted_indices = False
    before = Xu.indices.copy()
    clf = LinearSVC(C=1.0, random_state=0).fit(Xu, y)
    np.testing.assert_array_equal(Xu.indices, before)
    np.testing.assert_allclose(clf.coef_, ref.coef_, atol=1e-3)


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_bias_equals_appended_column(loss):
    X, y = _subsample("ijcnn1.bz2", 1500, seed=7, n_features=22)
    s = 3.0
    a = LinearSVC(C=1.0, loss=loss, tol=1e-7, intercept_scaling=s, random_state=0).fit(X, y)
    Xb = sp.hstack([X, np.full((X.shape[0], 1), s)], format="csr")
    b = LinearSVC(C=1.0, loss=loss, tol=1e-7, fit_intercept=False, random_state=0).fit(Xb, y)
    np.testing.assert_allclose(a.coef_[0], b.coef_[0, :-1], atol=1e-4)
    np.testing.assert_allclose(a.intercept_[0], s * b.coef_[0, -1], atol=1e-4)
    np.testing.assert_array_equal(b.intercept_, [0.0])


def test_zero_sample_weight_equals_removing_samples():
    X, y = _subsample("a9a.bz2", 800, seed=8, n_features=123)
    sw = np.ones(X.shape[0])
    sw[::3] = 0.0
    a = LinearSVC(C=1.0, tol=1e-7, random_state=0).fit(X, y, sample_weight=sw)
    keep = sw > 0
    b = LinearSVC(C=1.0, tol=1e-7, random_state=0).fit(X[keep], y[keep])
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-4)
    assert np.all(a.alpha_[0, ~keep] == 0)


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_all_zero_rows(loss):
    X, y = _subsample("a9a.bz2", 400, seed=9, n_features=123)
    X = X.tolil()
    X[::10] = 0  # some all-zero rows, no bias: Q_ii = 0 under the hinge loss
    X = X.tocsr()
    X.eliminate_zeros()
    for selection in SELECTIONS:
        clf = LinearSVC(C=1.0, loss=loss, fit_intercept=False, selection=selection, tol=1e-6,
                        random_state=0).fit(X, y)
        assert np.all(np.isfinite(clf.coef_))
        alpha = clf.alpha_[0, ::10]
        expected = 1.0 if loss == "hinge" else 2.0  # g = 1 - alpha D: alpha = C or 2C
        np.testing.assert_allclose(alpha, expected, rtol=1e-6)


def test_max_iter_warns_and_none_converges():
    X, y = _subsample("a9a.bz2", 1000, seed=10, n_features=123)
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        clf = LinearSVC(C=100.0, max_iter=2, random_state=0).fit(X, y)
    assert clf.n_iter_ == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = LinearSVC(C=100.0, random_state=0).fit(X, y)
    assert clf.fit_stats_[0]["status"] == "converged"


@pytest.mark.parametrize(
    "params,match",
    [
        (dict(C=0.0), "C must be"),
        (dict(C=-1.0), "C must be"),
        (dict(C=np.inf), "C must be"),
        (dict(tol=0.0), "tol must be"),
        (dict(tol=-1e-3), "tol must be"),
        (dict(penalty="elasticnet"), "penalty must be"),
        (dict(penalty="l1", loss="hinge", dual=False), "Unsupported set of arguments"),
        (dict(dual=False, loss="hinge"), "Unsupported set of arguments"),
        (dict(dual="primal"), "dual must be"),
        (dict(multi_class="crammer"), "multi_class must be"),
        (dict(loss="log"), "loss must be"),
        (dict(selection="fast"), "selection must be"),
        (dict(intercept_scaling=0.0), "intercept_scaling"),
        (dict(max_iter=0), "max_iter"),
        (dict(n_jobs=0), "n_jobs"),
    ],
)
def test_bad_parameters(params, match):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    y = np.array([0, 1, 1, 0])
    with pytest.raises(ValueError, match=match):
        LinearSVC(**params).fit(X, y)


def test_bad_data():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="class"):
        LinearSVC().fit(X, np.ones(4))
    for bad in [np.nan, np.inf]:
        Xb = X.copy()
        Xb[1, 1] = bad
        with pytest.raises(ValueError, match="NaN|infinity"):
            LinearSVC().fit(Xb, [0, 1, 1, 0])
        with pytest.raises(ValueError, match="NaN|infinity"):
            LinearSVC().fit(sp.csr_matrix(Xb), [0, 1, 1, 0])
    with pytest.raises(ValueError, match="sample_weight"):
        LinearSVC().fit(X, [0, 1, 1, 0], sample_weight=[1.0, -1.0, 1.0, 1.0])


def test_fits_run_concurrently_without_the_gil():
    X, y = _subsample("a9a.bz2", 2000, seed=11, n_features=123)
    ref = LinearSVC(C=1.0, random_state=0).fit(X, y).coef_
    results = []

    def work():
        results.append(LinearSVC(C=1.0, random_state=0).fit(X, y).coef_)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 3
    for r in results:
        np.testing.assert_array_equal(r, ref)


@pytest.fixture
def sigint_raises():
    """Python's own SIGINT handler for the test's duration.

    A process started in the background by a non-interactive shell inherits
    SIGINT as ignored, and then _thread.interrupt_main() does nothing (the fit
    below would run on); installing the default handler makes the simulated
    Ctrl-C independent of how the test run was launched.
    """
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_ctrl_c_stops_a_long_fit(n_jobs, sigint_raises):
    import _thread

    X, y = load_dataset("satimage.scale.bz2", n_features=36)
    timer = threading.Timer(0.3, _thread.interrupt_main)  # as if Ctrl-C were pressed
    clf = LinearSVC(C=1e4, loss="hinge", selection="uniform", tol=1e-12, n_jobs=n_jobs)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            clf.fit(X, y)
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 30
