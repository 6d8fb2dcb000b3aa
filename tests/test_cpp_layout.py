"""The layout of the C++ headers (CONTRIBUTING.md, "Layout"): each header
includes what it needs at its top, and the includes between the library's
headers form no cycle (no header completes another by an include at its
end)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

INCLUDE = Path(__file__).resolve().parent.parent / "cpp" / "include"
HEADERS = INCLUDE / "budgetsvm"
QUOTED = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
ANY = re.compile(r"^\s*#\s*include\b")

pytestmark = pytest.mark.skipif(not HEADERS.is_dir(), reason="needs the source tree's C++ headers")


def _library_includes(path: Path):
    """(included header relative to cpp/include, line) for every quoted include of a library header."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = QUOTED.match(line)
        if match:
            target = (path.parent / match.group(1)).resolve()
            if not target.is_file():
                target = (INCLUDE / match.group(1)).resolve()
            if target.is_file() and HEADERS in target.parents:
                yield target.relative_to(INCLUDE).as_posix(), number


def _graph():
    return {
        path.relative_to(INCLUDE).as_posix(): [name for name, _ in _library_includes(path)]
        for path in sorted(HEADERS.rglob("*.hpp"))
    }


def test_headers_include_each_other_without_cycles():
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles = []

    def visit(node, path):
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [node])
    assert not cycles, "\n".join(cycles)


def test_includes_come_before_the_code():
    """Only comments, blank lines and preprocessor lines come before an include."""
    late = []
    for path in sorted(HEADERS.rglob("*.hpp")):
        code = False
        in_comment = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = line.strip()
            if in_comment:
                in_comment = "*/" not in text
                continue
            if ANY.match(line):
                if code:
                    late.append(f"{path.relative_to(INCLUDE).as_posix()}:{number}: {text}")
            elif text.startswith("/*"):
                in_comment = "*/" not in text
            elif text and not text.startswith("//") and not text.startswith("#"):
                code = True
    assert not late, "\n".join(late)


def _forwarding(path: Path) -> bool:
    """A deprecated path kept for one release: a header that only includes its new place."""
    text = path.read_text(encoding="utf-8")
    return text.startswith("// Deprecated:") and len(list(_library_includes(path))) == 1


def test_core_includes_only_core():
    """core/ holds what two or more families use, so it includes no family's header."""
    wrong = [
        f"{path.relative_to(INCLUDE).as_posix()}:{line} includes {name}"
        for path in sorted((HEADERS / "core").glob("*.hpp"))
        if not _forwarding(path)
        for name, line in _library_includes(path)
        if not name.startswith("budgetsvm/core/")
    ]
    assert not wrong, "\n".join(wrong)
