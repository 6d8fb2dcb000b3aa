"""The parser that docs/cli.md documents: ``budgetsvm.cli.build_parser()``,
with the text its sub-commands lay out themselves (argparse's Raw*
formatters: the examples of an epilog) marked as literal blocks, since
sphinx-argparse reads descriptions and epilogs as reStructuredText. Its
groups are the ones ``budgetsvm train --help`` prints: one per estimator."""

import argparse

from budgetsvm.cli import build_parser


def _literal(text: str) -> str:
    lines = text.strip("\n").splitlines()
    return "::\n\n" + "\n".join("   " + line if line.strip() else "" for line in lines) + "\n"


def _parsers(parser: argparse.ArgumentParser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def parser() -> argparse.ArgumentParser:
    top = build_parser()
    for p in _parsers(top):
        if issubclass(p.formatter_class, argparse.RawDescriptionHelpFormatter):
            if p.epilog:
                p.epilog = _literal(p.epilog)
            if p.description and "\n" in p.description.strip():
                p.description = _literal(p.description)
        for group in p._action_groups:
            # train's group of each estimator becomes a section title, where
            # Sphinx's smart quotes would turn the "--" of "--solver" into a dash
            if getattr(group, "solvers", None):
                group.title = group.title.replace("(--solver ", "(solvers: ")
    return top
