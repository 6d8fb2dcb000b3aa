"""svm-train's per-class weights, ``-wLABEL WEIGHT``, for ``budgetsvm train``.

``-w1 5 -w-1 0.5`` multiplies ``C`` by 5 for the rows labelled 1 and by 0.5
for those labelled -1 (any numeric label: ``-w2.5 3`` too), as
``class_weight={1: 5, -1: 0.5}`` does in Python.

argparse cannot declare these flags: the label is part of the flag's name,
while an argparse option has a fixed name. Declared as ``-w``, argparse would
read ``-w1 5`` as ``-w`` with the value ``1`` and ``5`` as a stray
positional argument, and ``-w-1`` as a negative number. So the train parser
takes every ``-wLABEL WEIGHT`` pair out of its argument list before argparse
parses the rest (:func:`extract`, the parser's ``prescan``), and the labels
are matched with the data's once the data are read (:func:`class_weight`).
"""

from __future__ import annotations

import math
import re
from typing import Any, Dict, List, Sequence, Tuple

#: (the flag as typed, its label, its weight)
Weight = Tuple[str, float, float]

_FLAG = re.compile(r"-w(.*)", re.S)


def extract(args: List[str]) -> Tuple[List[str], Dict[str, Any]]:
    """Takes the ``-wLABEL WEIGHT`` pairs out of ``args`` (up to ``--``).

    Returns the other arguments and ``{"label_weights": [(flag, label,
    weight), ...]}``. A malformed pair (no label, a label or weight that is
    not a number, a weight that is not positive and finite, the same label
    twice) is a ``ValueError``.

    Examples
    --------
    >>> extract(["-c", "2", "-w1", "5", "-w-1", "0.5", "data.svm"])
    (['-c', '2', 'data.svm'], {'label_weights': [('-w1', 1.0, 5.0), ('-w-1', -1.0, 0.5)]})
    """
    rest: List[str] = []
    weights: List[Weight] = []
    i = 0
    while i < len(args):
        token = args[i]
        if token == "--":
            rest.extend(args[i:])
            break
        match = _FLAG.fullmatch(token)
        if not match:
            rest.append(token)
            i += 1
            continue
        text = match.group(1)
        if not text:
            raise ValueError("-w needs the label in its name, as in svm-train: -w1 5 (the weight of label 1 is 5)")
        label = _number(text)
        if label is None or not math.isfinite(label):
            raise ValueError(f"{token}: the label after -w must be a number (the data's labels are); got {text!r}")
        if i + 1 >= len(args):
            raise ValueError(f"{token} needs a weight: {token} WEIGHT")
        weight = _number(args[i + 1])
        if weight is None:
            raise ValueError(f"{token} needs a weight after it ({token} 5); got {args[i + 1]!r}")
        if not (weight > 0 and math.isfinite(weight)):
            raise ValueError(f"{token}: the weight must be a positive finite number; got {args[i + 1]!r}")
        if any(label == seen for _, seen, _ in weights):
            raise ValueError(f"{token}: label {text} is given a weight twice")
        weights.append((token, label, weight))
        i += 2
    return rest, {"label_weights": weights}


def _number(text: str) -> Any:
    try:
        return float(text)
    except ValueError:
        return None


def class_weight(weights: Sequence[Weight], classes: Sequence[Any], data: str) -> Dict[Any, float]:
    """``class_weight`` for the estimator: each ``-wLABEL`` matched with the
    class of that value. A label no row of ``data`` has is a ``ValueError``.

    Examples
    --------
    >>> class_weight([("-w1", 1.0, 5.0)], [-1.0, 1.0], "data.svm")
    {1.0: 5.0}
    >>> class_weight([("-w3", 3.0, 2.0)], [-1.0, 1.0], "data.svm")
    Traceback (most recent call last):
    ...
    ValueError: -w3: no row of data.svm has the label 3 (its labels: -1, 1)
    """
    found: Dict[Any, float] = {}
    for flag, label, weight in weights:
        match = [c for c in classes if float(c) == label]
        if not match:
            labels = ", ".join(f"{float(c):g}" for c in classes)
            raise ValueError(f"{flag}: no row of {data} has the label {label:g} (its labels: {labels})")
        found[match[0]] = weight
    return found
