"""Python values <-> JSON text plus named arrays, for model files.

Hyperparameters and fitted attributes (numbers, strings, lists, tuples,
dicts with keys of any of those types, numpy arrays and scalars, CSR
matrices) become a JSON document whose arrays live in ARRY sections named
``attr/<n>``. Markers keep what JSON alone would lose: ``{"$dict": pairs}``
(non-string keys), ``{"$tuple": items}``, ``{"$float": "nan"}``,
``{"$np": dtype, "value": v}``, ``{"$array": name}``, ``{"$csr": kind, ...}``.
Decoding builds only these plain data types: nothing is ever executed,
and the text is checked first against the rules both readers enforce
(cpp/include/budgetsvm/model/attributes.hpp, through
``_core.check_model_attributes``).
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Dict

import numpy as np
import scipy.sparse as sp

_SPARSE_KINDS = {"csr_matrix": sp.csr_matrix, "csr_array": sp.csr_array}
#: the dtypes of numpy scalars (``{"$np": dtype, ...}``) a file may hold, without their byte-order mark
NP_SCALARS = ("b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8")


class Unencodable(TypeError):
    """A value of a type model files do not store."""


def encode(value: Any, arrays: Dict[str, np.ndarray]) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and not isinstance(value, np.integer):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"$float": repr(value)}
    if isinstance(value, (np.bool_, np.integer, np.floating)):
        return {"$np": value.dtype.str, "value": encode(value.item(), arrays)}
    if isinstance(value, np.ndarray):
        name = f"attr/{len(arrays)}"
        arrays[name] = value
        return {"$array": name}
    if sp.issparse(value) and value.format == "csr":
        kind = "csr_array" if isinstance(value, sp.sparray) else "csr_matrix"
        return {
            "$csr": kind,
            "shape": list(value.shape),
            "data": encode(value.data, arrays),
            "indices": encode(value.indices, arrays),
            "indptr": encode(value.indptr, arrays),
        }
    if isinstance(value, tuple):
        return {"$tuple": [encode(v, arrays) for v in value]}
    if isinstance(value, list):
        return [encode(v, arrays) for v in value]
    if isinstance(value, dict):
        return {"$dict": [[encode(k, arrays), encode(v, arrays)] for k, v in value.items()]}
    raise Unencodable(type(value).__name__)


def decode_plain(value: Any) -> Any:
    """The Python value of plain data from a model file's attributes: JSON
    scalars and lists, and the markers ``$float``, ``$np``, ``$tuple`` and
    ``$dict``. The text has passed ``_core.check_model_attributes`` (the
    rules of both readers: fixed dtypes, values in range, scalar keys), so
    every marker here is well-formed; anything else is still a ValueError."""
    if isinstance(value, list):
        return [decode_plain(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$float" in value:
        text = value["$float"]
        if text not in ("nan", "inf", "-inf"):
            raise ValueError(f"model file attributes: bad float {text!r} (damaged model file)")
        return float(text)
    if "$np" in value:
        dtype = str(value["$np"])
        if dtype[1:] not in NP_SCALARS:
            raise ValueError(f"model file attributes: a numpy scalar of dtype {dtype!r} (damaged model file)")
        try:
            with np.errstate(over="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # float16(1e300) is inf, as numpy makes it
                return np.dtype(dtype).type(decode_plain(value["value"]))
        except (TypeError, ValueError, OverflowError, KeyError) as err:
            raise ValueError(f"model file attributes: bad numpy scalar {value!r} (damaged model file)") from err
    if "$tuple" in value:
        return tuple(decode_plain(v) for v in value["$tuple"])
    if "$dict" in value:
        out = {}
        for pair in value["$dict"]:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise ValueError("model file attributes: a dict entry is not a pair (damaged model file)")
            try:
                out[decode_plain(pair[0])] = decode_plain(pair[1])
            except TypeError as err:  # an unhashable key
                raise ValueError("model file attributes: a dict key is not hashable (damaged model file)") from err
        return out
    raise ValueError(f"model file attributes: unknown marker in {sorted(value)!r} (damaged model file)")


def sparse_kind(value: Any) -> Any:
    """The scipy class a stored attribute's copy was (``$csr`` marker), or
    None for anything else: the container a derived attribute is rebuilt in."""
    kind = value.get("$csr") if isinstance(value, dict) else None
    return _SPARSE_KINDS.get(kind) if isinstance(kind, str) else None
