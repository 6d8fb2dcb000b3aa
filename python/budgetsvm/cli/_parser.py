"""The argument parser of every ``budgetsvm`` command.

argparse's own parser exits with code 2 and prints its usage block on a
mistake; ours prints argparse's message as one line and exits with code 1,
as every other mistake of the command line does (``--help`` and
``--version`` still exit 0). Two hooks serve ``budgetsvm train``:
``prescan`` takes arguments out of the list before argparse sees it (LIBSVM's
``-wLABEL WEIGHT``, whose label is part of the flag's name, see
``_weights.py``), and argument groups that carry a ``solvers`` attribute
are shown by ``--help`` only for those ``--solver`` values when one is given.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple

Prescan = Callable[[List[str]], Tuple[List[str], Dict[str, Any]]]


class CliParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose usage errors are one line and exit code 1.

    Parameters
    ----------
    prescan : callable or None
        ``prescan(args) -> (args left, {attribute: value})``: run on the
        argument list before parsing; the attributes are set on the parsed
        namespace. A ``ValueError`` it raises is a usage error.
    **kwargs
        As ``argparse.ArgumentParser`` (sub-command parsers inherit the class).

    Examples
    --------
    >>> parser = CliParser(prog="tool")
    >>> _ = parser.add_argument("--n", type=int)
    >>> parser.parse_args(["--n", "x"])
    Traceback (most recent call last):
    ...
    SystemExit: 1
    """

    def __init__(self, *args: Any, prescan: Optional[Prescan] = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prescan = prescan
        self._seen: List[str] = []

    def parse_known_args(  # type: ignore[override]
        self, args: Optional[Sequence[str]] = None, namespace: Optional[argparse.Namespace] = None
    ) -> Tuple[argparse.Namespace, List[str]]:
        args = list(sys.argv[1:] if args is None else args)
        found: Dict[str, Any] = {}
        if self.prescan is not None:
            try:
                args, found = self.prescan(args)
            except ValueError as error:
                self.error(str(error))
        self._seen = args
        parsed, rest = super().parse_known_args(args, namespace)
        if rest and self._subparsers is None:
            # a sub-command's parser says so itself (argparse leaves it to the
            # top parser, whose message would name "budgetsvm", not the command)
            self.error(f"unrecognized arguments: {' '.join(rest)}")
        for name, value in found.items():
            setattr(parsed, name, value)
        return parsed, rest

    def error(self, message: str) -> NoReturn:
        """One line on stderr and exit code 1 (argparse: the usage block and 2)."""
        self.exit(1, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def format_help(self) -> str:
        solver = self.chosen("--solver")
        if not any(solver in getattr(group, "solvers", ()) for group in self._action_groups):
            solver = None  # no --solver, or an unknown one: every solver's groups
        given = self.chosen("-s")
        svm_type = int(given) if given is not None and given.isdigit() else (0 if solver else None)

        def wanted(group: argparse._ArgumentGroup) -> bool:
            if not hasattr(group, "solvers"):
                return True  # the command's own options
            return ((solver is None or solver in group.solvers)
                    and (svm_type is None or svm_type == getattr(group, "svm_type", svm_type)))

        shown = [g for g in self._action_groups if wanted(g)]
        groups, self._action_groups = self._action_groups, shown
        try:
            return super().format_help()
        finally:
            self._action_groups = groups

    def chosen(self, option: str) -> Optional[str]:
        """The last value given to ``option`` in the arguments being parsed
        (``--solver bsca`` or ``--solver=bsca``), or None."""
        value = None
        for i, token in enumerate(self._seen):
            if token == "--":
                break
            if token == option and i + 1 < len(self._seen):
                value = self._seen[i + 1]
            elif token.startswith(option + "="):
                value = token[len(option) + 1:]
        return value
