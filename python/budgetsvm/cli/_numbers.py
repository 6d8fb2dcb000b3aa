"""The one grammar of numbers read from text.

svmlight files are parsed in C++ (``detail::scan_number`` in
``cpp/include/budgetsvm/io/svmlight.hpp``); command-line values here. Both
accept the same numbers::

    [+-]? ( digits [. digits?] | . digits ) ( [eE] [+-]? digits )?
    [+-]? ( inf | infinity | nan )                      (any case)

and integers ``[+-]? digits``: one optional sign, ASCII digits, nothing
around them. Python's own ``float`` and ``int`` also read ``"1_000"`` and
``" 5 "``, and the C++ reader read ``"+-1"`` as -1 (issue 64); neither is a
number here.
"""

from __future__ import annotations

import re

#: a number of the grammar, whole (``NUMBER.fullmatch(text)``)
NUMBER = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)", re.I | re.A)
#: an integer of the grammar, whole
INTEGER = re.compile(r"[+-]?[0-9]+", re.A)


def parse_float(text: str) -> float:
    """``text`` as a float if it is a number of the grammar, else ValueError.

    >>> parse_float("+.5e3"), parse_float("-1")
    (500.0, -1.0)
    >>> parse_float("+-1")
    Traceback (most recent call last):
    ...
    ValueError: not a number: '+-1' (one optional sign, then digits with an optional decimal point and exponent)
    """
    if not NUMBER.fullmatch(text):
        raise ValueError(
            f"not a number: {text!r} (one optional sign, then digits with an optional decimal point and exponent)"
        )
    return float(text)


def parse_int(text: str) -> int:
    """``text`` as an int if it is an integer of the grammar, else ValueError.

    >>> parse_int("+12")
    12
    >>> parse_int("1_000")
    Traceback (most recent call last):
    ...
    ValueError: not an integer: '1_000' (one optional sign, then digits)
    """
    if not INTEGER.fullmatch(text):
        raise ValueError(f"not an integer: {text!r} (one optional sign, then digits)")
    return int(text)


def parse_duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``2m``, ``1.5h`` (a positive finite number, an optional unit s, m or h).

    >>> parse_duration("2m"), parse_duration("90"), parse_duration("0.5h")
    (120.0, 90.0, 1800.0)
    >>> parse_duration("2 min")
    Traceback (most recent call last):
    ...
    ValueError: not a duration: '2 min' (a positive number of seconds, or with a unit: 90s, 2m, 1h)
    """
    unit = {"s": 1.0, "m": 60.0, "h": 3600.0}.get(text[-1:].lower())
    number = text[:-1] if unit else text
    value = float(number) * (unit or 1.0) if NUMBER.fullmatch(number) else float("nan")
    if not (value > 0 and value < float("inf")):
        raise ValueError(f"not a duration: {text!r} (a positive number of seconds, or with a unit: 90s, 2m, 1h)")
    return value


# argparse names a type in its messages ("invalid int value: 'x'")
parse_float.__name__ = "float"
parse_int.__name__ = "int"
parse_duration.__name__ = "duration"
