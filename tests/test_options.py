"""The hyperparameter registries (``_core.options``) against the estimators.

Each solver family describes its hyperparameters once, in C++. These tests
keep the Python side honest: every registry option an estimator exposes has
the registry's default in the estimator's signature and docstring, options
an estimator translates are listed with their translation, and bad values are
reported the same way (type -> TypeError, value -> ValueError) everywhere.
"""

from __future__ import annotations

import ast
import inspect
import math
import re

import numpy as np
import pytest

from budgetsvm import BudgetedSVC, LinearSVC, SVC, _core, merge_solution
from budgetsvm._params import core_params, defaults, options

# Registry options an estimator does not expose under their own name, with
# the reason (scikit-learn's convention or a tuning constant).
TRANSLATED = {
    BudgetedSVC: {
        "gamma": "'scale' / 'auto' resolved from the data",
        "seed": "drawn from random_state",
        "n_jobs": "None / -1 -> threads",
        "radius": "None -> inf",
    },
    SVC: {"gamma": "'scale' / 'auto'", "n_jobs": "None / -1 -> threads"},
    LinearSVC: {
        "seed": "drawn from random_state",
        "n_jobs": "None / -1 -> threads",
        "max_iter": "None -> 0 (until convergence)",
        "bias_scale": "intercept_scaling and fit_intercept",
        "auto_switch_sweeps": "tuning constant of selection='auto'",
        "auto_min_feature_ratio": "tuning constant of selection='auto'",
        "merge_duplicates": "'auto' / True / False",
        "merge_min_copies": "merge_duplicates='auto' (a tuning constant)",
    },
}
FAMILY = {BudgetedSVC: "budgeted", SVC: "exact", LinearSVC: "linear"}


@pytest.mark.parametrize("estimator", list(FAMILY), ids=lambda e: e.__name__)
def test_signature_defaults_are_the_registrys(estimator):
    family = FAMILY[estimator]
    signature = inspect.signature(estimator.__init__).parameters
    doc = inspect.getdoc(estimator)
    for name, default in defaults(family).items():
        if name in TRANSLATED[estimator]:
            continue
        assert name in signature, f"{estimator.__name__} lacks the option {name}"
        assert signature[name].default == default, name
        # the docstring states the same default
        match = re.search(rf"^{name} : .*default=(\S+)$", doc, re.M)
        assert match, f"{estimator.__name__} docstring documents no default for {name}"
        assert ast.literal_eval(match.group(1)) == default, f"{estimator.__name__} docstring: {name}"


def test_translated_options_exist():
    for estimator, names in TRANSLATED.items():
        registry = options(FAMILY[estimator])
        for name in names:
            assert name in registry, (estimator.__name__, name)


def test_merge_solution_defaults_are_the_registrys():
    signature = inspect.signature(merge_solution).parameters
    assert signature["eps"].default == defaults("budgeted")["gss_eps"]
    assert signature["grid"].default == defaults("budgeted")["lookup_grid"]
    assert signature["method"].default == defaults("budgeted")["merge_method"]


def test_registry_entries_are_complete():
    for family in ("budgeted", "exact", "linear"):
        for entry in _core.options(family):
            assert entry["doc"], entry["name"]
            assert entry["kind"] in ("bool", "int", "float", "choice")
            if entry["kind"] == "choice":
                assert entry["default"] in entry["choices"]
            elif entry["kind"] in ("int", "float"):
                low, high, value = entry["low"], entry["high"], entry["default"]
                assert low <= value <= high, entry["name"]
    with pytest.raises(ValueError, match="family must be"):
        _core.options("quantum")


@pytest.mark.parametrize(
    "family, params, error, match",
    [
        ("budgeted", {"budget": 2**63}, ValueError, r"budget must be <= 9223372036854775807; got 9223372036854775808"),
        ("budgeted", {"budget": "a"}, TypeError, r"budget must be an integer; got 'a' of type str"),
        ("budgeted", {"budget": 50.0}, TypeError, r"budget must be an integer"),
        ("budgeted", {"C": np.float32(-1)}, ValueError, r"C must be > 0.0; got -1.0"),
        ("budgeted", {"C": float("nan")}, ValueError, r"C must be finite"),
        ("budgeted", {"C": True}, TypeError, r"C must be a real number"),
        ("budgeted", {"kernel": 3}, ValueError, r"kernel must be one of 'linear', 'rbf', 'poly', 'sigmoid'; got 3"),
        ("budgeted", {"lookup_grid": 4000}, ValueError, r"lookup_grid must be <= 2000"),
        ("budgeted", {"lookup_grid": 3}, ValueError, r"lookup_grid must be even"),
        ("budgeted", {"radius": float("nan")}, ValueError, r"radius must be a number or inf"),
        ("budgeted", {"fit_intercept": 1}, TypeError, r"fit_intercept must be True or False"),
        ("budgeted", {"kernel": "linear"}, ValueError, r"maintenance='merge' needs the Gaussian kernel"),
        ("budgeted", {"budgt": 3}, ValueError, r"unknown parameter 'budgt' for the budgeted solvers; known: solver,"),
        ("exact", {"max_iter": 2**70}, ValueError, r"max_iter must be <= 9223372036854775807"),
        ("exact", {"max_iter": 0}, ValueError, r"max_iter must be -1 \(no limit\) or >= 1"),
        ("exact", {"min_alpha_opt": 9, "max_alpha_opt": 5}, ValueError, r"max_alpha_opt \(5\) must be >="),
        ("exact", {"seed": 0}, ValueError, r"unknown parameter 'seed' for the exact solvers"),
        ("linear", {"tol": -1}, ValueError, r"tol must be > 0.0; got -1"),
        ("linear", {"loss": "l1"}, ValueError, r"loss must be one of 'squared_hinge', 'hinge'; got 'l1'"),
    ],
)
def test_bad_values_are_named(family, params, error, match):
    with pytest.raises(error, match=match):
        _core.check_options(family, params)


def test_large_values_are_exact_and_infinity_is_allowed_where_documented():
    _core.check_options("budgeted", {"seed": 2**63 - 1, "radius": math.inf})
    with pytest.raises(ValueError, match="must be finite"):
        _core.check_options("linear", {"tol": math.inf})


@pytest.mark.parametrize(
    "estimator, params, error, match",
    [
        (BudgetedSVC, dict(budget=2**63), ValueError, "budget must be <="),
        (SVC, dict(max_iter=2**70), ValueError, "max_iter must be <="),
        (LinearSVC, dict(C="1"), TypeError, "C must be a real number"),
        (SVC, dict(C="1"), TypeError, "C must be a real number"),
        (BudgetedSVC, dict(C="1"), TypeError, "C must be a real number"),
        (SVC, dict(shrinking="yes"), TypeError, "shrinking must be True or False"),
    ],
)
def test_estimators_report_bad_values_alike(estimator, params, error, match):
    X = np.random.default_rng(0).normal(size=(20, 2))
    y = np.arange(20) % 2
    with pytest.raises(error, match=match):
        estimator(**params).fit(X, y)


def test_core_params_passes_registry_names_and_translations():
    est = BudgetedSVC(budget=77, C=3.0)
    params = core_params(est, "budgeted", later=("gamma",), n_jobs=1, radius=math.inf)
    assert params["budget"] == 77 and params["C"] == 3.0 and params["radius"] == math.inf
    assert "gamma" not in params and "verbose" not in params and "class_weight" not in params
