"""The package layout (CONTRIBUTING.md, "How the Python packages depend on
each other"): no package imports another package's private modules or
names, and the public paths of the old flat layout still import."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import budgetsvm

ROOT = Path(budgetsvm.__file__).parent


def _imports(path: Path):
    """(absolute dotted name imported, line) of every relative ``from`` import in ``path``."""
    package = ["budgetsvm", *path.parent.relative_to(ROOT).parts]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1] + ([node.module] if node.module else [])
            for alias in node.names:
                yield ".".join(base + [alias.name]), node.lineno


def test_no_package_imports_another_packages_private_names():
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        own = ".".join(["budgetsvm", *path.parent.relative_to(ROOT).parts])
        for name, line in _imports(path):
            parts = name.split(".")
            # the private part's owner: the package holding the first name that starts with "_"
            private = [k for k, part in enumerate(parts) if k > 0 and part.startswith("_") and part != "__version__"]
            if not private:
                continue
            owner = parts[: private[0]]
            while not ROOT.joinpath(*owner[1:], "__init__.py").is_file():
                owner = owner[:-1]  # a module: its package owns the name
            owner_name = ".".join(owner)
            # a package's own private names, and the shared modules at the top (budgetsvm._x), are allowed
            if owner_name != "budgetsvm" and own != owner_name and not own.startswith(owner_name + "."):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "old, new, names",
    [
        ("budgetsvm.streaming", "budgetsvm.io", ["iter_svmlight"]),
        ("budgetsvm.shuffle", "budgetsvm.io", ["shuffle_chunks"]),
        ("budgetsvm.external_shuffle", "budgetsvm.io", ["shuffle_svmlight"]),
        ("budgetsvm.io", "budgetsvm", ["load_svmlight", "iter_svmlight", "shuffle_chunks", "shuffle_svmlight"]),
        ("budgetsvm.model_files", "budgetsvm", ["load_model", "save_model"]),
        ("budgetsvm.demo", "budgetsvm.cli.demo", ["run_demo", "checkerboard"]),
        ("budgetsvm.cli", "budgetsvm.cli.main", ["main", "build_parser"]),
    ],
)
def test_old_paths_import_the_same_objects(old, new, names):
    before, after = importlib.import_module(old), importlib.import_module(new)
    for name in names:
        assert getattr(before, name) is getattr(after, name), f"{old}.{name}"
