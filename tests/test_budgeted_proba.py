"""Probability estimates of BudgetedSVC (``probability=True``, issue 62 part 3).

References are independent of the code under test: the fold models trained
here with the documented folds and seeds, the documented objective
minimised by scipy, Platt's objective as ``_platt`` writes it for
``sigmoid_fit``, and scikit-learn's CalibratedClassifierCV.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.optimize
from sklearn.calibration import CalibratedClassifierCV
from sklearn.exceptions import NotFittedError
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.estimator_checks import parametrize_with_checks

from budgetsvm import BudgetedSVC, load_model, load_svmlight, save_model
from budgetsvm._platt import _negative_log_likelihood
from budgetsvm.cli import main
from conftest import write_svmlight


def problem(n, seed=0, k=2, noise=0.1):
    """Points in the square, labelled by quadrant parity (k=2) or by angle
    sector (k > 2), a share ``noise`` of the labels drawn at random."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    if k == 2:
        y = (X[:, 0] * X[:, 1] > 0).astype(int)
    else:
        y = np.digitize(np.arctan2(X[:, 1], X[:, 0]), np.linspace(-np.pi, np.pi, k + 1)[1:-1])
    y = np.where(rng.random(n) < noise, rng.integers(0, k, n), y)
    return X, y


SETTINGS = dict(budget=30, C=10.0, gamma=2.0, random_state=0)

_REFUSED = "partial_fit refuses probability=True (the calibration belongs to the model fit made)"
_FEW_ROWS = "10 rows of 3 classes: fewer than the 5 rows per class the 5 folds need (a clear ValueError)"
_WEIGHTS = "a weight of 2 is C scaled by 2, not a repeated row (as without probability: test_budgeted.py)"


@parametrize_with_checks(
    [BudgetedSVC(probability=True, budget=40, C=10.0, random_state=0)],
    expected_failed_checks=lambda est: {
        "check_fit_score_takes_y": _REFUSED,
        "check_n_features_in_after_fitting": _REFUSED,
        "check_estimators_partial_fit_n_features": _REFUSED,
        "check_fit2d_1feature": _FEW_ROWS,
        "check_sample_weight_equivalence_on_dense_data": _WEIGHTS,
        "check_sample_weight_equivalence_on_sparse_data": _WEIGHTS,
    },
)
def test_sklearn_compatible_with_probability(estimator, check):
    check(estimator)
CASES = [("bsca", 2), ("bsgd", 2), ("bsca", 3), ("bsgd", 4)]


@pytest.fixture(scope="module")
def fitted():
    models = {}
    for solver, k in CASES:
        X, y = problem(500, seed=k, k=k)
        models[solver, k] = (BudgetedSVC(solver=solver, probability=True, **SETTINGS).fit(X, y), X, y)
    return models


@pytest.mark.parametrize("solver, k", CASES)
def test_probabilities_are_distributions_over_classes(fitted, solver, k):
    clf, _, _ = fitted[solver, k]
    Xt, _ = problem(1000, seed=50, k=k)
    P = clf.predict_proba(Xt)
    assert P.shape == (1000, k)
    assert np.all(P >= 0.0) and np.all(P <= 1.0)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(clf.predict_log_proba(Xt), np.log(P))
    assert clf.probA_.shape == clf.probB_.shape == (k * (k - 1) // 2,)


@pytest.mark.parametrize("solver, k", CASES)
def test_the_most_probable_class_is_the_predicted_one(fitted, solver, k):
    clf, _, _ = fitted[solver, k]
    Xt, _ = problem(5000, seed=60, k=k)
    agree = clf.classes_[np.argmax(clf.predict_proba(Xt), axis=1)] == clf.predict(Xt)
    assert agree.mean() >= 0.999
    # the documented rule: only rows whose largest outputs tie (in rounding) can disagree
    scores = clf.decision_function(Xt).reshape(len(Xt), -1)
    top = np.sort(scores, axis=1)
    gap = np.abs(top[:, 0]) if k == 2 else top[:, -1] - top[:, -2]
    assert np.all(gap[~agree] < 1e-9)


def reference_out_of_fold(X, y, seed, solver, sample_weight=None, **settings):
    """The model outputs of every row from a model that did not see it: the
    folds and seeds the docstring names, the fold models trained here."""
    classes = np.unique(y)
    scores = np.empty((len(y), 1 if len(classes) == 2 else len(classes)))
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=seed)
    for train, test in folds.split(X, np.searchsorted(classes, y)):
        model = BudgetedSVC(solver=solver, **dict(settings, random_state=seed))
        model.fit(X[train], y[train], sample_weight=None if sample_weight is None else sample_weight[train])
        scores[test] = model.decision_function(X[test]).reshape(len(test), -1)
    return classes, scores


def reference_slope(scores, y_index, k):
    """The documented objective, minimised by scipy: cross-entropy of
    softmax(a f) against Platt's targets generalised to k classes."""
    S = np.column_stack([np.zeros(len(scores)), scores[:, 0]]) if k == 2 else scores
    counts = np.bincount(y_index, minlength=k)
    own = (counts[y_index] + 1.0) / (counts[y_index] + 2.0)
    T = np.repeat(((1 - own) / (k - 1))[:, None], k, axis=1)
    T[np.arange(len(y_index)), y_index] = own

    def loss(a):
        z = a * S
        return -np.sum(T * (z - scipy.special.logsumexp(z, axis=1, keepdims=True)))

    return scipy.optimize.minimize_scalar(loss, bounds=(0.0, 1e3), method="bounded",
                                          options={"xatol": 1e-10}).x


@pytest.mark.parametrize("solver, k, weighted", [("bsca", 2, False), ("bsgd", 2, True), ("bsca", 3, True),
                                                 ("bsgd", 4, False)])
def test_sigmoids_come_from_independent_out_of_fold_outputs(solver, k, weighted):
    X, y = problem(400, seed=k, k=k)
    w = np.random.default_rng(3).uniform(0.5, 2.0, size=len(y)) if weighted else None
    settings = dict(SETTINGS, random_state=7)
    clf = BudgetedSVC(solver=solver, probability=True, **settings).fit(X, y, sample_weight=w)
    classes, scores = reference_out_of_fold(X, y, 7, solver, sample_weight=w, **settings)
    y_index = np.searchsorted(classes, y)
    a = reference_slope(scores, y_index, k)
    assert a > 0
    np.testing.assert_allclose(clf.probA_, -a, rtol=1e-6)
    np.testing.assert_array_equal(clf.probB_, 0.0)
    if k == 2:
        # the binary case is Platt's sigmoid (sigmoid_fit's objective) with B = 0
        positive = y_index == 0  # the pair (0, 1): d = -f, positive for classes_[0]
        n_pos, n_neg = positive.sum(), (~positive).sum()
        t = np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
        A = scipy.optimize.minimize_scalar(lambda A: _negative_log_likelihood(-scores[:, 0], t, A, 0.0),
                                           bounds=(-1e3, 0.0), method="bounded", options={"xatol": 1e-10}).x
        np.testing.assert_allclose(clf.probA_[0], A, rtol=1e-6)
        # and predict_proba is that sigmoid of the decision value
        f = clf.decision_function(X[:50])
        np.testing.assert_allclose(clf.predict_proba(X[:50])[:, 1], 1.0 / (1.0 + np.exp(clf.probA_[0] * f)),
                                   rtol=1e-12)


@pytest.mark.parametrize("k", [2, 3])
def test_log_loss_is_not_worse_than_calibrated_classifier_cv_around_the_same_model(k):
    # CalibratedClassifierCV(ensemble=False) is the same procedure around the same model (one model on all
    # rows, a sigmoid on cross-validated decision values), with its own folds and one-vs-rest sigmoids.
    # 1%: the spread between fold splits (on three seeds of this problem the two were within 0.5%).
    X, y = problem(1000, seed=0, k=k)
    Xt, yt = problem(3000, seed=100, k=k)
    settings = dict(solver="bsca", budget=40, C=10.0, gamma=2.0, random_state=0)
    ours = BudgetedSVC(probability=True, **settings).fit(X, y).predict_proba(Xt)
    ccv = CalibratedClassifierCV(BudgetedSVC(**settings), method="sigmoid", cv=5, ensemble=False).fit(X, y)
    assert log_loss(yt, ours) <= 1.01 * log_loss(yt, ccv.predict_proba(Xt))


def test_the_model_is_the_one_fitted_without_probability():
    X, y = problem(400, seed=1, k=3)
    plain = BudgetedSVC(**SETTINGS).fit(X, y)
    calibrated = BudgetedSVC(probability=True, **SETTINGS).fit(X, y)
    np.testing.assert_array_equal(plain.decision_function(X), calibrated.decision_function(X))
    assert not hasattr(plain, "probA_") and not hasattr(plain, "probB_")


@pytest.mark.parametrize("solver", ["bsca", "bsgd"])
def test_deterministic_for_a_seed_and_independent_of_threads(solver):
    X, y = problem(400, seed=2, k=3)
    runs = [BudgetedSVC(solver=solver, probability=True, n_jobs=n_jobs, **SETTINGS).fit(X, y)
            for n_jobs in (1, 1, 2)]
    for other in runs[1:]:
        np.testing.assert_array_equal(other.probA_, runs[0].probA_)
        np.testing.assert_array_equal(other.predict_proba(X), runs[0].predict_proba(X))
    seeded = BudgetedSVC(solver=solver, probability=True, **dict(SETTINGS, random_state=np.random.RandomState(0)))
    again = BudgetedSVC(solver=solver, probability=True, **dict(SETTINGS, random_state=np.random.RandomState(0)))
    np.testing.assert_array_equal(seeded.fit(X, y).probA_, again.fit(X, y).probA_)


@pytest.mark.parametrize("k", [2, 3])
def test_model_files_keep_the_sigmoids(tmp_path, k):
    X, y = problem(300, seed=k, k=k)
    clf = BudgetedSVC(probability=True, **SETTINGS).fit(X, y)
    save_model(clf, tmp_path / "m.bsvm")
    back = load_model(tmp_path / "m.bsvm")
    assert back.probability is True
    np.testing.assert_array_equal(back.probA_, clf.probA_)
    np.testing.assert_array_equal(back.probB_, clf.probB_)
    np.testing.assert_array_equal(back.predict_proba(X), clf.predict_proba(X))  # bit for bit


def test_libsvm_text_of_a_binary_model_keeps_the_sigmoid(tmp_path):
    X, y = problem(300, seed=2)
    clf = BudgetedSVC(probability=True, **SETTINGS).fit(X, y)
    save_model(clf, tmp_path / "m.txt", format="libsvm")
    text = (tmp_path / "m.txt").read_text()
    assert "probA " in text and "probB " in text
    back = load_model(tmp_path / "m.txt")  # LIBSVM's model: an SVC, its sigmoid per pair
    np.testing.assert_allclose(back.predict_proba(X), clf.predict_proba(X), rtol=0, atol=1e-12)


def test_a_file_without_sigmoids_loads_without_probabilities(tmp_path):
    X, y = problem(300, seed=2, k=3)
    clf = BudgetedSVC(**SETTINGS).fit(X, y)  # a model as every earlier file holds it
    save_model(clf, tmp_path / "m.bsvm")
    assert b"prob_a" not in (tmp_path / "m.bsvm").read_bytes()
    back = load_model(tmp_path / "m.bsvm")
    assert not hasattr(back, "predict_proba") and not hasattr(back, "probA_")
    back.set_params(probability=True)
    with pytest.raises(NotFittedError, match="fitted with probability=False"):
        back.predict_proba(X)


def test_predict_proba_needs_probability_true():
    X, y = problem(200)
    clf = BudgetedSVC(**SETTINGS).fit(X, y)
    assert not hasattr(clf, "predict_proba") and not hasattr(clf, "predict_log_proba")
    with pytest.raises(AttributeError, match="no attribute 'predict_proba'") as error:
        clf.predict_proba(X)
    assert "probability=False" in str(error.value.__cause__)
    with pytest.raises(NotFittedError):
        BudgetedSVC(probability=True).predict_proba(X)


def test_partial_fit_refuses_probability_and_a_continued_model_drops_it():
    X, y = problem(600, seed=3)
    clf = BudgetedSVC(probability=True, **SETTINGS)
    with pytest.raises(ValueError, match="probability=True is not supported by partial_fit"):
        clf.partial_fit(X[:100], y[:100], classes=[0, 1])
    assert not hasattr(clf, "t_")  # nothing published
    clf.fit(X[:400], y[:400])
    before = clf.predict_proba(X)
    with pytest.raises(ValueError, match="partial_fit"):
        clf.partial_fit(X[400:], y[400:])
    np.testing.assert_array_equal(clf.predict_proba(X), before)  # the failed call changed nothing
    clf.set_params(probability=False).partial_fit(X[400:], y[400:])
    assert not hasattr(clf, "probA_")
    clf.set_params(probability=True)
    with pytest.raises(NotFittedError, match="continued by partial_fit or warm_start"):
        clf.predict_proba(X)
    clf.fit(X, y)  # a new fit calibrates again
    assert clf.predict_proba(X).shape == (600, 2)


def test_warm_start_refuses_probability_on_a_fitted_model():
    X, y = problem(400, seed=4)
    clf = BudgetedSVC(probability=True, warm_start=True, **SETTINGS).fit(X, y)  # the first fit: from the start
    before = clf.predict_proba(X)
    with pytest.raises(ValueError, match="warm_start=True continues the fitted model"):
        clf.fit(X, y)
    np.testing.assert_array_equal(clf.predict_proba(X), before)
    clf.set_params(probability=False).fit(X, y)  # continued: its sigmoids are dropped
    assert not hasattr(clf, "probA_")


def test_too_few_rows_of_a_class_is_an_error_and_keeps_the_fitted_model():
    X, y = problem(300, seed=5)
    clf = BudgetedSVC(probability=True, **SETTINGS).fit(X, y)
    before = (clf.probA_.copy(), clf.predict_proba(X))
    y_few = y.copy()
    y_few[:4] = 2  # class 2 has 4 rows: fewer than the 5 folds
    with pytest.raises(ValueError, match="at least 5 rows of every class; class 2 has 4"):
        clf.fit(X, y_few)
    np.testing.assert_array_equal(clf.probA_, before[0])
    np.testing.assert_array_equal(clf.predict_proba(X), before[1])
    assert clf.classes_.tolist() == [0, 1]
    # five rows per class suffice
    X5, y5 = X[:10], np.repeat([0, 1], 5)
    assert BudgetedSVC(probability=True, budget=5, random_state=0).fit(X5, y5).predict_proba(X5).shape == (10, 2)


def test_a_fold_that_cannot_be_fitted_names_the_cross_validation():
    X, y = problem(200, seed=6)
    w = np.where(y == 1, 1.0, 0.0)
    w[np.flatnonzero(y == 0)[0]] = 1.0  # one row of class 0 has weight: the fold that holds it out has none
    BudgetedSVC(**SETTINGS).fit(X, y, sample_weight=w)  # fine without the cross-validation
    with pytest.raises(ValueError, match="a model of the internal 5-fold cross-validation cannot be fitted"):
        BudgetedSVC(probability=True, **SETTINGS).fit(X, y, sample_weight=w)


def test_probability_must_be_a_bool():
    X, y = problem(100)
    with pytest.raises(TypeError, match="probability must be True or False"):
        BudgetedSVC(probability="yes").fit(X, y)


def test_command_line_trains_and_predicts_probabilities(tmp_path, capsys):
    X, y = problem(600, seed=7)
    y = np.where(y == 1, 1, -1)
    write_svmlight(tmp_path / "train.svm", X[:400], y[:400])
    write_svmlight(tmp_path / "test.svm", X[400:], y[400:])
    for solver in ("bsca", "bsgd"):
        model = tmp_path / f"{solver}.model"
        assert main(["train", "-q", "--solver", solver, "-b", "1", "-g", "2", "--budget", "30", "--random-state", "0",
                     str(tmp_path / "train.svm"), str(model)]) == 0
        out = tmp_path / f"{solver}.out"
        assert main(["predict", "-q", "--output", "proba", str(tmp_path / "test.svm"), str(model), str(out)]) == 0
        lines = out.read_text().splitlines()
        assert lines[0] == "labels -1 1"
        proba = np.loadtxt(out, skiprows=1)
        clf = load_model(model)
        Xt, _ = load_svmlight(tmp_path / "test.svm", n_features=2)
        np.testing.assert_array_equal(proba, clf.predict_proba(Xt))
        assert clf.probability is True and clf.solver == solver
    # -b 0 trains no probability estimates, and --output proba says how to get them
    model = tmp_path / "b0.model"
    assert main(["train", "-q", "-b", "0", "--budget", "30", str(tmp_path / "train.svm"), str(model)]) == 0
    assert main(["predict", "-q", "--output", "proba", str(tmp_path / "test.svm"), str(model),
                 str(tmp_path / "b0.out")]) != 0
    assert "train it with -b 1" in capsys.readouterr().err


def test_command_line_refuses_probability_with_stream(tmp_path, capsys):
    X, y = problem(100, seed=7)
    write_svmlight(tmp_path / "train.svm", X, np.where(y == 1, 1, -1))
    assert main(["train", "-b", "1", "--stream", str(tmp_path / "train.svm"), str(tmp_path / "m.model")]) == 1
    assert "-b 1 calibrates on 5 folds of the rows in memory: not with --stream" in capsys.readouterr().err
    assert not (tmp_path / "m.model").exists()


def test_dask_variant_refuses_probability_at_fit():
    pytest.importorskip("dask.array")
    import dask.array as da

    from budgetsvm.dask import BudgetedSVC as DaskBudgetedSVC

    X, y = problem(200)
    with pytest.raises(ValueError, match="probability=True is not supported by budgetsvm.dask.BudgetedSVC"):
        DaskBudgetedSVC(probability=True, budget=10).fit(da.from_array(X, chunks=100), da.from_array(y, chunks=100))


def test_no_warnings_from_the_fold_models():
    # the fold models run silently: no callback, no progress lines, no warnings (warnings are errors here)
    X, y = problem(300, seed=8)
    calls = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BudgetedSVC(probability=True, verbose=0, callback=lambda s: calls.append(s), **SETTINGS).fit(X, y)
    assert len(calls) == 3  # the final model's epochs (the default 3) only


def test_sparse_and_wide_input_give_the_dense_probabilities():
    import scipy.sparse as sp

    X, y = problem(300, seed=9, k=3)
    dense = BudgetedSVC(probability=True, **SETTINGS).fit(X, y)
    sparse = BudgetedSVC(probability=True, **SETTINGS).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.predict_proba(sp.csr_matrix(X)), dense.predict_proba(X), rtol=0, atol=1e-12)
    # wide sparse data are trained on the columns they use (_columns.py), the fold models too
    wide = sp.hstack([sp.csr_matrix(X), sp.csr_matrix((300, 5000))], format="csr")
    on_wide = BudgetedSVC(probability=True, **SETTINGS).fit(wide, y)
    np.testing.assert_allclose(on_wide.predict_proba(wide), dense.predict_proba(X), rtol=0, atol=1e-12)


def test_feature_names_are_checked_by_predict_proba():
    pd = pytest.importorskip("pandas")
    X, y = problem(200, seed=10)
    frame = pd.DataFrame(X, columns=["a", "b"])
    clf = BudgetedSVC(probability=True, **SETTINGS).fit(frame, y)
    plain = BudgetedSVC(probability=True, **SETTINGS).fit(X, y)
    np.testing.assert_array_equal(clf.predict_proba(frame), plain.predict_proba(X))
    with pytest.raises(ValueError, match="feature names"):
        clf.predict_proba(frame.rename(columns={"a": "c"}))


@pytest.mark.parametrize("arrays", [{"prob_a": np.array([-1.0])}, {"prob_b": np.array([0.0])},
                                    {"prob_a": np.array([-1.0, -1.0]), "prob_b": np.array([0.0, 0.0])},
                                    {"prob_a": np.array([np.nan]), "prob_b": np.array([0.0])}])
def test_damaged_sigmoids_are_refused_by_both_readers(tmp_path, arrays):
    from budgetsvm import _core
    from budgetsvm.model_files import _container as container
    from budgetsvm.model_files import _save_load

    X, y = problem(200, seed=11)
    sections = [s for s in _save_load._budgetsvm_sections(BudgetedSVC(**SETTINGS).fit(X, y))]
    sections[1:1] = [container.Section(b"ARRY", container.encode_array(n, a)) for n, a in arrays.items()]
    path = tmp_path / "damaged.bsvm"
    container.write_container(path, sections)
    with pytest.raises(ValueError, match="prob_[ab]"):
        load_model(path)
    with pytest.raises(ValueError, match="prob_[ab]"):
        _core.model_summary(str(path))
