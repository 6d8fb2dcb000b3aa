"""The hyperparameter flags of ``budgetsvm train``, generated.

Every constructor parameter of the three estimators becomes a flag under its
own name (``--merge-method`` for ``merge_method``), typed and documented from
the options registry of its solver family (``_core.options``) where it has an
entry, else read as a plain literal and left to the estimator to check. A
new hyperparameter therefore needs no edit here. LIBSVM's short flags are
added where they mean the same thing.
"""

from __future__ import annotations

import argparse
import inspect
import math
from typing import Any, Callable, Dict, List, Tuple

from ._numbers import parse_float, parse_int
from ._params import options

# --solver picks the estimator and its solver option
SOLVERS = {
    "bsca": ("BudgetedSVC", "bsca"),
    "bsgd": ("BudgetedSVC", "bsgd"),
    "linear": ("LinearSVC", None),
    "exact": ("SVC", "auto"),  # the exact SVM, its solver chosen per problem
    "alfpgm": ("SVC", "alfpgm"),
    "smo": ("SVC", "smo"),
}
FAMILY = {"BudgetedSVC": "budgeted", "SVC": "exact", "LinearSVC": "linear"}
# parameters the estimator translates before the registry sees them (gamma="scale",
# merge_duplicates="auto", ...): read as plain literals, not typed by the registry
TRANSLATED = ("gamma", "n_jobs", "radius", "max_iter", "merge_duplicates")
# constructor parameters that are not hyperparameters of a command-line run
NOT_FLAGS = {"solver", "callback", "verbose", "warm_start"}
# LIBSVM's flags of the same meaning (svm-train); BudgetedSVM's own flags
# (-B budget, -e epochs, -m maintenance, ...) mean other things there and
# are not mirrored.
LIBSVM_SHORT = {"C": "-c", "gamma": "-g", "probability": "-b", "cache_size": "-m", "tol": "-e", "degree": "-d",
                "coef0": "-r"}


def estimators() -> Dict[str, type]:
    from . import SVC, BudgetedSVC, LinearSVC

    return {"BudgetedSVC": BudgetedSVC, "SVC": SVC, "LinearSVC": LinearSVC}


def literal(text: str) -> Any:
    """A flag value without a registry entry: int, float, true/false, none, else the text."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (parse_int, parse_float):  # the numbers of the svmlight reader's grammar (_numbers.py)
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _typed(entry: Dict[str, Any]) -> Callable[[str], Any]:
    kind = entry["kind"]

    def parse(text: str) -> Any:
        if kind == "bool":
            if text.lower() not in ("true", "false", "1", "0"):
                raise argparse.ArgumentTypeError(f"must be true or false; got {text}")
            return text.lower() in ("true", "1")
        if kind == "int":
            try:
                return parse_int(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"must be an integer; got {text}") from None
        if kind == "float":
            try:
                value = parse_float(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"must be a number; got {text}") from None
            if math.isnan(value):
                raise argparse.ArgumentTypeError("must be a number; got nan")
            return value
        return literal(text) if kind != "choice" else text

    parse.__name__ = kind  # argparse names the type in its messages
    return parse


def collect() -> Dict[str, Dict[str, Any]]:
    """flag name -> {estimators: [...], entry: registry entry or None, default per estimator}."""
    flags: Dict[str, Dict[str, Any]] = {}
    for est_name, est in estimators().items():
        registry = options(FAMILY[est_name])
        for name, param in list(inspect.signature(est).parameters.items()):
            if name in NOT_FLAGS:
                continue
            info = flags.setdefault(name, {"estimators": [], "entry": None, "defaults": {}})
            info["estimators"].append(est_name)
            info["defaults"][est_name] = param.default
            if info["entry"] is None and name in registry and name not in TRANSLATED:
                info["entry"] = registry[name]
    return flags


def add_flags(parser: argparse.ArgumentParser) -> Dict[str, Dict[str, Any]]:
    """Adds one flag per hyperparameter; returns what collect() found."""
    flags = collect()
    group = parser.add_argument_group(
        "hyperparameters (the estimators' names; each applies to the solvers listed)",
        "Defaults are the estimators'. Values are checked by the estimator: a bad one is one clear error line.",
    )
    for name, info in sorted(flags.items(), key=lambda item: item[0].lower()):
        entry = info["entry"]
        names: List[str] = [f"--{name.replace('_', '-')}"]
        if name in LIBSVM_SHORT:
            names.insert(0, LIBSVM_SHORT[name])
        where = ", ".join(info["estimators"])
        defaults = sorted({repr(v) for v in info["defaults"].values()})
        doc = entry["doc"] if entry else "see the estimator's docstring"
        if name == "probability":  # svm-train's -b 0/1, not the deprecated Python default
            doc, defaults = "1: fit probability estimates (Platt scaling by internal cross-validation), 0: not", ["0"]
        help_text = f"{doc} [{where}; default {' / '.join(defaults)}]"
        kwargs: Dict[str, Any] = {"dest": f"hp_{name}", "default": None, "help": help_text.replace("%", "%%")}
        if entry and entry["kind"] == "choice":
            kwargs["choices"] = list(entry["choices"])
        kwargs["type"] = _typed(entry) if entry else literal
        kwargs["metavar"] = "VALUE" if not entry else {"bool": "BOOL", "int": "INT", "float": "FLOAT"}.get(
            entry["kind"], "VALUE"
        )
        if "choices" in kwargs:
            del kwargs["metavar"]
        group.add_argument(*names, **kwargs)
    return flags


def chosen(args: argparse.Namespace, flags: Dict[str, Dict[str, Any]], solver: str) -> Tuple[type, Dict[str, Any]]:
    """The estimator class of --solver and the hyperparameters given on the command line."""
    est_name, solver_value = SOLVERS[solver]
    est = estimators()[est_name]
    kwargs: Dict[str, Any] = {} if solver_value is None else {"solver": solver_value}
    for name, info in flags.items():
        value = getattr(args, f"hp_{name}")
        if value is None:
            continue
        if est_name not in info["estimators"]:
            flag = f"--{name.replace('_', '-')}"
            applies = ", ".join(info["estimators"])
            raise ValueError(f"{flag} does not apply to --solver {solver} (it applies to {applies})")
        kwargs[name] = value
    if "probability" in kwargs:
        kwargs["probability"] = bool(kwargs["probability"])  # -b 0/1 as in LIBSVM
    return est, kwargs
