"""The shared estimator pipeline (python/budgetsvm/estimators/_base.py).

A new estimator written from the steps alone (the example of the base's
docstring) fits, predicts and publishes atomically; the estimators share one
sample-weight validator; each restores the state it gives (the method pair
model files call).
"""

import textwrap

import numpy as np
import pytest
from sklearn.datasets import make_moons

from budgetsvm import SVC, BudgetedSVC, LinearSVC, _core
from budgetsvm._atomic import atomic_fit
from budgetsvm._data import as_supported, core_view, resolve_gamma
from budgetsvm._magnitude import DBL_MAX, check_kernel_magnitude
from budgetsvm._params import core_params
from budgetsvm.estimators import _base
from budgetsvm.estimators._base import PipelineClassifier


def _example_estimator():
    """The estimator of PipelineClassifier's docstring, run as written there
    (the literal block after "for example ...::")."""
    doc = _base.__doc__
    start = doc.index("::\n\n", doc.index("A new estimator plugs in")) + 4
    block = []
    for line in doc[start:].splitlines():
        if line and not line.startswith("    "):
            break
        block.append(line)
    namespace = dict(PipelineClassifier=PipelineClassifier, atomic_fit=atomic_fit, np=np, _core=_core,
                     as_supported=as_supported, core_view=core_view, resolve_gamma=resolve_gamma,
                     DBL_MAX=DBL_MAX, check_kernel_magnitude=check_kernel_magnitude, core_params=core_params)
    exec(textwrap.dedent("\n".join(block)), namespace)
    return namespace["TinyBudgetedSVC"]


def _moons():
    X, y = make_moons(600, noise=0.1, random_state=0)
    return X, np.array(["upper", "lower"])[y]


def test_a_new_estimator_from_the_steps_alone():
    X, y = _moons()
    TinyBudgetedSVC = _example_estimator()
    clf = TinyBudgetedSVC(C=10, budget=40).fit(X, y)
    assert clf.score(X, y) > 0.9
    assert clf.rows_.shape[0] <= 40
    assert clf.decision_function(X[:5]).shape == (5,)
    assert clf.n_features_in_ == 2
    before = dict(clf.__dict__)
    with pytest.raises(ValueError, match="all samples have zero"):
        clf.fit(X, y, sample_weight=np.zeros(len(y)))
    assert clf.__dict__ == before  # a failed fit publishes nothing
    with pytest.raises(ValueError, match="at least 2 classes"):
        TinyBudgetedSVC().fit(X, np.full(len(y), "one"))


@pytest.mark.parametrize("make", [lambda: SVC(kernel="linear"), LinearSVC, lambda: BudgetedSVC(budget=20)])
@pytest.mark.parametrize("bad, message", [
    (np.ones(7), r"sample_weight.shape == \(7,\), expected \(600,\)!"),
    (np.full(600, np.nan), "sample_weight contains NaN or infinity"),
    (np.zeros(600), "Invalid input - all samples have zero or negative weights"),
    (np.ones((600, 2)), "Sample weights must be 1D array or scalar"),
])
def test_one_sample_weight_validator(make, bad, message):
    X, y = _moons()
    with pytest.raises(ValueError, match=message):
        make().fit(X, y, sample_weight=bad)


def test_a_scalar_sample_weight_is_that_weight_for_every_sample():
    X, y = _moons()
    for make in (lambda: SVC(kernel="linear"), lambda: LinearSVC(random_state=0),
                 lambda: BudgetedSVC(budget=20, random_state=0)):
        np.testing.assert_array_equal(make().fit(X, y, sample_weight=2.0).decision_function(X),
                                      make().fit(X, y, sample_weight=np.full(len(y), 2.0)).decision_function(X))


@pytest.mark.parametrize("make", [lambda: SVC(gamma=1.0), lambda: LinearSVC(random_state=0),
                                  lambda: BudgetedSVC(budget=20, random_state=0)])
def test_each_estimator_restores_the_state_it_gives(make):
    X, y = _moons()
    y = np.where(X[:, 0] > 1.5, "third", y)  # three classes
    fitted = make().fit(X, y)
    state = fitted._fitted_state()
    assert {"classes", "n_features", "intercept"} <= set(state)
    loaded = make()
    loaded._restore_fitted_state(dict(state, containers={}))
    np.testing.assert_array_equal(loaded.decision_function(X), fitted.decision_function(X))
    np.testing.assert_array_equal(loaded.predict(X), fitted.predict(X))
