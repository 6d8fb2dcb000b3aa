"""Every public name of budgetsvm has a docstring with an example.

Public: the names of ``budgetsvm.__all__`` (but the version string) and the
public methods and properties the estimators define themselves (methods
inherited from scikit-learn are documented there). CI runs the examples with
``pytest --doctest-modules`` (.ci/run); this test makes sure they exist, so
that a new public name without one fails here first.
"""

import inspect

import pytest

import budgetsvm

NAMES = sorted(name for name in budgetsvm.__all__ if name != "__version__")


def _public_members(cls):
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, property) or inspect.isfunction(member):
            yield f"{cls.__name__}.{name}", member


def _documented():
    for name in NAMES:
        obj = getattr(budgetsvm, name)
        yield name, obj
        if inspect.isclass(obj):
            yield from _public_members(obj)


CASES = list(_documented())


@pytest.mark.parametrize("name, obj", CASES, ids=[name for name, _ in CASES])
def test_public_name_has_a_docstring_with_an_example(name, obj):
    doc = inspect.getdoc(obj)
    assert doc, f"{name} has no docstring"
    assert "Examples\n--------" in doc, f"{name}'s docstring has no 'Examples' section"
    assert "\n>>> " in doc, f"{name}'s docstring has no example (>>>)"


def test_the_list_covers_the_estimators_methods():
    # a guard against the walk above finding nothing (a renamed attribute)
    names = {name for name, _ in CASES}
    assert {"BudgetedSVC.fit", "BudgetedSVC.partial_fit", "SVC.predict", "LinearSVC.decision_function"} <= names


def test_version_is_documented_in_the_api_reference():
    # __version__ is a string (no docstring of its own); the API page says what it is
    assert isinstance(budgetsvm.__version__, str) and budgetsvm.__version__.count(".") >= 1
