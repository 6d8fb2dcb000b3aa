"""Python values <-> JSON text plus named arrays, for model files.

Hyperparameters and fitted attributes (numbers, strings, lists, tuples,
dicts with keys of any of those types, numpy arrays and scalars, CSR
matrices) become a JSON document whose arrays live in ARRY sections named
``attr/<n>``. Markers keep what JSON alone would lose: ``{"$dict": pairs}``
(non-string keys), ``{"$tuple": items}``, ``{"$float": "nan"}``,
``{"$np": dtype, "value": v}``, ``{"$array": name}``, ``{"$csr": kind, ...}``.
Decoding builds only these plain data types: nothing is ever executed.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List

import numpy as np
import scipy.sparse as sp

_SPARSE_KINDS = {"csr_matrix": sp.csr_matrix, "csr_array": sp.csr_array}


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


def _array(name: Any, arrays: Dict[str, np.ndarray]) -> np.ndarray:
    if not isinstance(name, str) or name not in arrays:
        raise ValueError(f"model file attributes name a missing array {name!r} (damaged model file)")
    return arrays[name]


def decode(value: Any, arrays: Dict[str, np.ndarray]) -> Any:
    if isinstance(value, list):
        return [decode(v, arrays) for v in value]
    if not isinstance(value, dict):
        return value
    if "$float" in value:
        text = value["$float"]
        if text not in ("nan", "inf", "-inf"):
            raise ValueError(f"model file attributes: bad float {text!r} (damaged model file)")
        return float(text)
    if "$np" in value:
        try:
            return np.dtype(str(value["$np"])).type(decode(value["value"], arrays))
        except (TypeError, ValueError, OverflowError) as err:
            raise ValueError(f"model file attributes: bad numpy scalar {value!r} (damaged model file)") from err
    if "$array" in value:
        return _array(value["$array"], arrays)
    if "$csr" in value:
        kind = _SPARSE_KINDS.get(value["$csr"])
        if kind is None:
            raise ValueError(f"model file attributes: unknown sparse kind {value['$csr']!r}")
        parts = [_array(value[k].get("$array") if isinstance(value.get(k), dict) else None, arrays)
                 for k in ("data", "indices", "indptr")]
        try:
            return kind(tuple(parts), shape=tuple(value["shape"]))
        except (TypeError, ValueError, KeyError) as err:
            raise ValueError(f"model file attributes: inconsistent sparse matrix ({err})") from err
    if "$tuple" in value:
        return tuple(decode(v, arrays) for v in value["$tuple"])
    if "$dict" in value:
        out = {}
        for pair in value["$dict"]:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise ValueError("model file attributes: a dict entry is not a pair (damaged model file)")
            key = decode(pair[0], arrays)
            try:
                out[key] = decode(pair[1], arrays)
            except TypeError as err:  # an unhashable key
                raise ValueError("model file attributes: a dict key is not hashable (damaged model file)") from err
        return out
    raise ValueError(f"model file attributes: unknown marker in {sorted(value)!r} (damaged model file)")


def plain_names(names: List[str]) -> List[str]:
    """Attribute names a loader may set: identifiers, no dunders."""
    return [n for n in names if isinstance(n, str) and n.isidentifier() and not n.startswith("__")]
