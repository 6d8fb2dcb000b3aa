"""pytest plugin: scikit-learn's own SVM tests, pointed at our drop-ins.

Loaded by ``run.py`` with ``-p``; never collected by the plain test run. On
load it replaces ``sklearn.svm.SVC``, ``LinearSVC``, ``NuSVC``, ``SVR``,
``NuSVR`` and ``OneClassSVM`` by budgetsvm's (before scikit-learn's test
module is imported, so its ``from sklearn.svm import LinearSVC`` gets ours
too). It keeps the applicable tests, those whose code calls one of them
(``svm.SVC(``, ``SVR(``, ...; found in the syntax tree, so comments do not
count), and marks the expected differences (``expected.py``) as strict xfails.
"""

from __future__ import annotations

import ast
import inspect

import pytest
import sklearn.svm

import budgetsvm

from expected import EXPECTED_DIFFERENCES

_TARGETS = ("SVC", "LinearSVC", "NuSVC", "SVR", "NuSVR", "OneClassSVM")
for _name in _TARGETS:
    setattr(sklearn.svm, _name, getattr(budgetsvm, _name))


def _calls_a_target(function) -> bool:
    """Whether the function (decorators included) calls one of the targets (SVC(...), SVR(...), ...)
    or names one as ``svm.<target>``."""
    tree = ast.parse(inspect.getsource(function).lstrip())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name in _TARGETS:
                return True
        # a class handed on without a call (parametrize lists, loops over estimators): svm.SVR
        if isinstance(node, ast.Attribute) and node.attr in _TARGETS and getattr(node.value, "id", None) == "svm":
            return True
    return False


def applicable_tests(module) -> list:
    names = [n for n, f in vars(module).items() if n.startswith("test") and inspect.isfunction(f)]
    return sorted(n for n in names if _calls_a_target(getattr(module, n)))


def _expected(module) -> dict:
    """The expected differences of one scikit-learn test module (``expected.py``, by file name)."""
    return EXPECTED_DIFFERENCES.get(module.__name__.rsplit(".", 1)[-1] + ".py", {})


def pytest_collection_modifyitems(config, items):
    if not items:
        return
    modules = {id(item.module): item.module for item in items}
    applicable = {}
    for module in modules.values():
        if getattr(module, "LinearSVC", budgetsvm.LinearSVC) is not budgetsvm.LinearSVC or any(
                getattr(module.svm, n) is not getattr(budgetsvm, n) for n in _TARGETS):
            raise pytest.UsageError("scikit-learn's test module was imported before the estimators were re-pointed")
        applicable[id(module)] = set(applicable_tests(module))
        unknown = set(_expected(module)) - applicable[id(module)]
        if unknown:
            raise pytest.UsageError(f"expected differences name tests that are not applicable: {sorted(unknown)}")
    kept, dropped = [], []
    for item in items:
        (kept if item.originalname in applicable[id(item.module)] else dropped).append(item)
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept
    for item in kept:
        reason = _expected(item.module).get(item.originalname)
        if reason is None:
            continue
        if isinstance(reason, dict):  # per parameter set: {"param id substring": reason}
            reason = next((r for key, r in reason.items() if key in item.name), None)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    config._parity_applicable = sum(len(a) for a in applicable.values())


def pytest_report_header(config):
    return [f"budgetsvm {budgetsvm.__version__}: sklearn.svm's {', '.join(_TARGETS)} re-pointed to budgetsvm's"]


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    n = getattr(config, "_parity_applicable", None)
    if n is not None:
        terminalreporter.write_line(f"applicable scikit-learn test functions: {n}")
