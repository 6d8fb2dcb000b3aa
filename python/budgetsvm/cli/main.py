"""The ``budgetsvm`` program: its parser and :func:`main`.

Each sub-command registers itself through one ``_add_<name>`` function that
adds its parser and sets ``handler`` (a function of the parsed arguments
returning the exit code): ``demo``'s here, the others' in ``_commands.py``.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Callable, List, Optional

from .. import __version__
from ._commands import add_commands
from ._numbers import parse_float, parse_int
from ._parser import CliParser


def _int_from(low: int, must: str, name: str) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``low``, else ``must``
    (``name``: how argparse calls the type in its messages)."""

    def parse(text: str) -> int:
        value = parse_int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{must}; got {text}")
        return value

    parse.__name__ = name
    return parse


_positive_int = _int_from(1, "must be a positive integer", "_positive_int")
_budget = _int_from(2, "must be an integer >= 2 (a merge needs two support vectors)", "_budget")
_seed = _int_from(0, "must be a non-negative integer", "_seed")


def _n_jobs(text: str) -> int:
    value = parse_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be a positive integer or -1 (all cores); got 0")
    return value


def _gamma(text: str):
    if text in ("scale", "auto"):
        return text
    try:
        value = parse_float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number, 'scale' or 'auto'; got {text}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, 'scale' or 'auto'; got {text}")
    return value


def _positive_float(text: str) -> float:
    value = parse_float(text)
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive finite number; got {text}")
    return value


def _run_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    if args.test is not None and args.data is None:
        raise SystemExit("budgetsvm demo: error: --test needs --data")
    run_demo(
        data=args.data,
        test=args.test,
        budget=args.budget,
        epochs=args.epochs,
        quick=args.quick,
        seed=args.seed,
        C=args.C,
        gamma=args.gamma,
        svc_seconds=args.svc_seconds,
        n_jobs=args.n_jobs,
    )
    return 0


def _add_demo(commands: "argparse._SubParsersAction") -> None:
    demo = commands.add_parser(
        "demo",
        help="train BSCA and BSGD next to scikit-learn's exact SVC",
        description=(
            "Train budgeted SVMs (BSCA, BSGD, merging by lookup-WD) and scikit-learn's exact SVC, "
            "and print test accuracy, support vectors, merges and training time. Without --data: "
            "the BSGD paper's 4x4 checkerboard (generated) and scikit-learn's digits; no download."
        ),
    )
    demo.add_argument("--data", metavar="FILE", help="a LIBSVM/svmlight training file (.bz2/.gz/.xz too)")
    demo.add_argument("--test", metavar="FILE", help="its test file (default: a seeded 80/20 split of --data)")
    demo.add_argument("--budget", type=_budget, help="support vector budget (default 200; 50 with --quick)")
    demo.add_argument("--epochs", type=_positive_int, help="training epochs (default 3; 2 with --quick)")
    demo.add_argument("--C", type=_positive_float, default=1.0, help="regularisation C for --data (default 1)")
    demo.add_argument("--gamma", type=_gamma, default="scale", help="RBF gamma for --data (default 'scale')")
    demo.add_argument("--seed", type=_seed, default=0, help="seed of data, splits and training (default 0)")
    demo.add_argument("--svc-seconds", type=_positive_float, help="time budget of the exact SVC (default 10)")
    demo.add_argument("--n-jobs", type=_n_jobs, default=1,
                      help="threads for BudgetedSVC (default 1; -1 all cores); the models are the same for any")
    demo.add_argument("--quick", action="store_true", help="small sizes: a few seconds in all")
    demo.set_defaults(handler=_run_demo)


def build_parser() -> argparse.ArgumentParser:
    # CliParser (and so every sub-command's parser): a usage mistake is one line and exit code 1
    parser = CliParser(prog="budgetsvm", description="Fast support vector machine training.")
    parser.add_argument("--version", action="version", version=f"budgetsvm {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the Python traceback of an error")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_demo(commands)
    add_commands(commands)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.handler(args)
    except (OSError, ValueError, TypeError, MemoryError) as error:
        # a user's mistake (a missing or malformed file, a bad value): one
        # line on stderr and exit code 1; --debug shows the traceback
        if args.debug:
            raise
        message = str(error) or type(error).__name__
        if isinstance(error, OSError) and error.filename is not None:
            message = f"{error.strerror or error}: {error.filename}"
        print(f"budgetsvm {args.command}: error: {message}", file=sys.stderr)
        return 1

