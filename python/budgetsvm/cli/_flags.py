"""The hyperparameter flags of ``budgetsvm train``, generated.

Every constructor parameter of the estimators becomes a flag under its
own name (``--merge-method`` for ``merge_method``), typed from the options
registry of its solver family (``_core.options``) where it has an entry, else
read as a plain literal and left to the estimator to check. Each flag's
one-line help is the registry's description, or, for a parameter the
registry does not describe as the estimator takes it (``class_weight``,
``random_state``, ``gamma="scale"``, ...), the first sentence of the
estimator's docstring entry; its default is the estimator's. A new
hyperparameter therefore needs no edit here. LIBSVM's short flags are added
where they mean the same thing.

``budgetsvm train --help`` shows the flags in one group per estimator (a flag
such as ``-c`` appears in each group, with that estimator's help and
default); ``budgetsvm train --solver NAME --help`` shows only the group of
that solver's estimator (``_parser.CliParser.format_help``). The flags
that parse are one hidden action per name, shared by the estimators.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import itertools
import math
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import SVC, SVR, BudgetedOneClassSVM, BudgetedSVC, BudgetedSVR, LinearSVC, NuSVC, NuSVR, OneClassSVM
from .._params import options
from ._numbers import parse_float, parse_int

# --solver picks the estimator and its solver option
SOLVERS = {
    "bsca": ("BudgetedSVC", "bsca"),
    "bsgd": ("BudgetedSVC", "bsgd"),
    "linear": ("LinearSVC", None),
    "exact": ("SVC", "auto"),  # the exact SVM, its solver chosen per problem
    "alfpgm": ("SVC", "alfpgm"),
    "smo": ("SVC", "smo"),
}
#: svm-train's -s: its name, and the estimator of each --solver that trains it
#: (-s 0 is SOLVERS'; a solver missing from a type's table does not train it)
SVM_TYPES = {0: "C-SVC", 1: "nu-SVC", 2: "one-class SVM", 3: "epsilon-SVR", 4: "nu-SVR"}
TYPE_SOLVERS: Dict[int, Dict[str, Tuple[str, Optional[str]]]] = {
    1: {"exact": ("NuSVC", None)},
    2: {"bsgd": ("BudgetedOneClassSVM", None), "exact": ("OneClassSVM", "auto"), "alfpgm": ("OneClassSVM", "alfpgm"),
        "smo": ("OneClassSVM", "smo")},
    3: {"bsca": ("BudgetedSVR", "bsca"), "bsgd": ("BudgetedSVR", "bsgd"), "exact": ("SVR", "auto"),
        "alfpgm": ("SVR", "alfpgm"), "smo": ("SVR", "smo")},
    4: {"exact": ("NuSVR", None)},
}
#: the --solver of -s TYPE when none is given
TYPE_DEFAULT_SOLVER = {0: "bsca", 1: "exact", 2: "bsgd", 3: "bsca", 4: "exact"}
FAMILY = {"BudgetedSVC": "budgeted", "SVC": "exact", "LinearSVC": "linear", "NuSVC": "exact", "SVR": "exact",
          "NuSVR": "exact", "OneClassSVM": "exact", "BudgetedSVR": "budgeted", "BudgetedOneClassSVM": "budgeted"}
# parameters the estimator translates before the registry sees them (gamma="scale",
# merge_duplicates="auto", ...): read as plain literals, not typed by the registry
TRANSLATED = ("gamma", "n_jobs", "radius", "max_iter", "merge_duplicates")
# constructor parameters that are not hyperparameters of a command-line run
NOT_FLAGS = {"solver", "callback", "verbose", "warm_start"}
# LIBSVM's flags of the same meaning (svm-train); BudgetedSVM's own flags
# (-B budget, -e epochs, -m maintenance, ...) mean other things there and
# are not mirrored.
LIBSVM_SHORT = {"C": "-c", "gamma": "-g", "probability": "-b", "cache_size": "-m", "tol": "-e", "degree": "-d",
                "coef0": "-r", "epsilon": "-p", "nu": "-n"}


def estimators() -> Dict[str, type]:
    return {"BudgetedSVC": BudgetedSVC, "SVC": SVC, "LinearSVC": LinearSVC, "NuSVC": NuSVC,
            "OneClassSVM": OneClassSVM, "BudgetedOneClassSVM": BudgetedOneClassSVM, "SVR": SVR,
            "BudgetedSVR": BudgetedSVR, "NuSVR": NuSVR}


def solver_of(svm_type: int, solver: str) -> Tuple[str, Any]:
    """(estimator name, its ``solver`` value or None) of ``-s svm_type --solver solver``."""
    if svm_type == 0:
        return SOLVERS[solver]
    table = TYPE_SOLVERS[svm_type]
    if solver not in table:
        raise ValueError(f"-s {svm_type} ({SVM_TYPES[svm_type]}) is trained by --solver {', '.join(table)}; "
                         f"not --solver {solver}")
    return table[solver]


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


def _first_sentence(text: str) -> str:
    """The first sentence of a numpydoc description, without reST markup."""
    text = re.sub(r":\w+:`~?\.?([^`]+)`", r"\1", text)  # :func:`merge_solution` -> merge_solution
    text = text.replace("``", "")
    match = re.search(r"(?<!e\.g)(?<!i\.e)(?<!vs)\.(\s|$)", text)
    sentence = (text[: match.start()] if match else text).strip()
    if sentence[:1].isupper() and not sentence[1:2].isupper():
        sentence = sentence[0].lower() + sentence[1:]
    return sentence


@functools.lru_cache(maxsize=None)
def docstring_params(est_name: str) -> Dict[str, str]:
    """Parameter name -> the first sentence of its entry in the estimator's
    numpydoc ``Parameters`` section."""
    lines = inspect.cleandoc(estimators()[est_name].__doc__ or "").splitlines()
    if "Parameters" not in lines:
        return {}
    entries: Dict[str, List[str]] = {}
    body: List[str] = []
    for line in lines[lines.index("Parameters") + 2:]:  # after the dashes
        if line and not line[0].isspace():
            header = re.match(r"(\w+) : ", line)
            if header is None:
                break  # the next section
            body = entries.setdefault(header.group(1), [])
        else:
            body.append(line.strip())
    # the first paragraph of each entry
    return {name: _first_sentence(" ".join(itertools.takewhile(bool, body))) for name, body in entries.items()}


def _cli_text(value: Any) -> str:
    """A default as it is typed on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


# What a flag means on the command line where the docstring's words are
# Python's: svm-train's -b 0/1, not SVC's deprecated Python parameter; gamma's
# values as typed, not the fitted attribute.
CLI_HELP = {
    "probability": ("1: fit probability estimates (Platt scaling by internal cross-validation), 0: not", "0"),
    "gamma": ("kernel coefficient of rbf, poly and sigmoid: a positive number, scale (1 / (n_features * X.var())) "
              "or auto (1 / n_features)", "scale"),
}
FAMILY_SOLVERS = {est: tuple(s for s, (e, _) in SOLVERS.items() if e == est) for est in FAMILY}
for _table in TYPE_SOLVERS.values():
    for _solver, (_est, _) in _table.items():
        FAMILY_SOLVERS[_est] += (_solver,) if _solver not in FAMILY_SOLVERS[_est] else ()
#: -s TYPE of each estimator (its help group names it)
FAMILY_TYPE = {est: next((t for t, table in TYPE_SOLVERS.items() if any(e == est for e, _ in table.values())), 0)
               for est in FAMILY}


def flag_help(est_name: str) -> Dict[str, str]:
    """Parameter name -> the one-line help of its flag for ``est_name``
    (``"BudgetedSVC"``, ``"SVC"`` or ``"LinearSVC"``), its default included.

    Examples
    --------
    >>> flag_help("BudgetedSVC")["budget"]
    'most support vectors the model keeps (default: 500)'
    """
    registry = options(FAMILY[est_name])
    described = docstring_params(est_name)
    helps: Dict[str, str] = {}
    for name, param in inspect.signature(estimators()[est_name]).parameters.items():
        if name in NOT_FLAGS:
            continue
        if name in CLI_HELP:
            doc, default = CLI_HELP[name]
        else:
            entry = registry.get(name) if name not in TRANSLATED else None
            doc = entry["doc"] if entry else described.get(name, "")
            default = _cli_text(param.default)
        helps[name] = f"{doc} (default: {default})"
    return helps


def _names(name: str) -> List[str]:
    names = [f"--{name.replace('_', '-')}"]
    if name in LIBSVM_SHORT:
        names.insert(0, LIBSVM_SHORT[name])
    return names


def add_flags(parser: argparse.ArgumentParser) -> Dict[str, Dict[str, Any]]:
    """Adds one flag per hyperparameter, and one help group per estimator;
    returns what collect() found."""
    flags = collect()
    kinds: Dict[str, Dict[str, Any]] = {}
    for name, info in sorted(flags.items(), key=lambda item: item[0].lower()):
        entry = info["entry"]
        kwargs: Dict[str, Any] = {"dest": f"hp_{name}", "default": None, "help": argparse.SUPPRESS}
        if entry and entry["kind"] == "choice":
            kwargs["choices"] = list(entry["choices"])
        else:
            kwargs["metavar"] = "VALUE" if not entry else {"bool": "BOOL", "int": "INT", "float": "FLOAT"}.get(
                entry["kind"], "VALUE")
        kwargs["type"] = _typed(entry) if entry else literal
        kinds[name] = {k: v for k, v in kwargs.items() if k in ("choices", "metavar")}
        parser.add_argument(*_names(name), **kwargs)
    # the help: one group per estimator, of display-only actions (the
    # parser parses the hidden actions above; these are never parsed)
    for est_name, solvers in sorted(FAMILY_SOLVERS.items(), key=lambda item: FAMILY_TYPE[item[0]]):  # by -s
        summary = _first_sentence(inspect.cleandoc(estimators()[est_name].__doc__ or "").splitlines()[0])
        group = parser.add_argument_group(
            f"hyperparameters of {est_name} (-s {FAMILY_TYPE[est_name]} --solver {', '.join(solvers)})",
            f"{summary[:1].upper()}{summary[1:]}.",
        )
        group.solvers = solvers  # type: ignore[attr-defined]  # CliParser.format_help shows it for these only
        group.svm_type = FAMILY_TYPE[est_name]  # type: ignore[attr-defined]  # and for this -s (0 by default)
        for name, text in sorted(flag_help(est_name).items(), key=lambda item: item[0].lower()):
            shown = argparse.Action(_names(name), dest=f"hp_{name}", help=text.replace("%", "%%"), **kinds[name])
            group._group_actions.append(shown)
    return flags


def chosen(args: argparse.Namespace, flags: Dict[str, Dict[str, Any]], solver: str,
           svm_type: int = 0) -> Tuple[type, Dict[str, Any]]:
    """The estimator class of -s and --solver and the hyperparameters given on the command line."""
    est_name, solver_value = solver_of(svm_type, solver)
    est = estimators()[est_name]
    kwargs: Dict[str, Any] = {} if solver_value is None else {"solver": solver_value}
    for name, info in flags.items():
        value = getattr(args, f"hp_{name}")
        if value is None:
            continue
        if est_name not in info["estimators"]:
            flag = f"--{name.replace('_', '-')}"
            applies = ", ".join(info["estimators"])
            raise ValueError(f"{flag} does not apply to {est_name} (-s {svm_type} --solver {solver}; it applies to "
                             f"{applies})")
        kwargs[name] = value
    if "probability" in kwargs:
        kwargs["probability"] = bool(kwargs["probability"])  # -b 0/1 as in LIBSVM
    return est, kwargs
