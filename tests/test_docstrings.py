"""Every public name of budgetsvm has a docstring with an example.

Public: the names of ``budgetsvm.__all__`` (but the version string) and the
public methods and properties the estimators and their budgetsvm bases
define (methods inherited from scikit-learn are documented there). CI runs the examples with
``pytest --doctest-modules`` (.ci/run); this test makes sure they exist, so
that a new public name without one fails here first.
"""

import importlib
import inspect

import pytest

import budgetsvm

NAMES = sorted(name for name in budgetsvm.__all__ if name != "__version__")
# modules of their own, with an optional dependency (the extra of the same name)
SUBMODULES = ["dask"]


def _public_members(prefix, cls):
    # the estimator's own members and those of its budgetsvm bases (the
    # shared pipeline, estimators/_base.py), not scikit-learn's
    seen = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("budgetsvm"):
            continue
        for name, member in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if isinstance(member, property) or inspect.isfunction(member):
                yield f"{prefix}.{name}", member


def _documented():
    objects = [(name, getattr(budgetsvm, name)) for name in NAMES]
    for module_name in SUBMODULES:
        try:
            module = importlib.import_module(f"budgetsvm.{module_name}")
        except ImportError:  # its extra is not installed: nothing of it to check
            continue
        objects += [(f"{module_name}.{name}", getattr(module, name)) for name in module.__all__]
    for name, obj in objects:
        yield name, obj
        if inspect.isclass(obj):
            yield from _public_members(name, obj)


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
    pytest.importorskip("dask")
    assert "dask.BudgetedSVC.fit" in names


def test_version_is_documented_in_the_api_reference():
    # __version__ is a string (no docstring of its own); the API page says what it is
    assert isinstance(budgetsvm.__version__, str) and budgetsvm.__version__.count(".") >= 1
