"""Fitted estimators <-> the portable part of a model file.

The portable part (``MODL`` and the core arrays, docs/model_format.md) is
what the C++ ``budgetsvm::Model`` predicts from: kernel, classes, support
vectors in the training columns (dense or CSR, float32 or float64) with the
optional used-column map, coefficients and intercepts in the layout each
family predicts with. A loaded estimator computes from exactly these arrays,
so its decision values are bit-equal to the saved one's. Everything else a
fitted estimator reports (``n_iter_``, ``history_``, ``class_weight_``, ...)
travels generically in ``ATTR``: every public attribute ending in ``_``.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, Tuple

import numpy as np
import scipy.sparse as sp

from . import _core
from ._columns import UsedColumns

MODL = struct.Struct("<IIiIddQ")  # family, kernel, degree, decision, gamma, coef0, n_features
FAMILIES = {"SVC": 1, "LinearSVC": 2, "BudgetedSVC": 3}
KERNELS = {"linear": 0, "rbf": 1, "poly": 2, "sigmoid": 3}
DECISIONS = {"ovo": 1, "sign": 2, "argmax": 3}
#: private attributes kept with the public ones, per family
PRIVATE = {"SVC": ("_probability", "_sparse"), "LinearSVC": (), "BudgetedSVC": ()}


def _name(table: Dict[str, int], code: int, what: str) -> str:
    for k, v in table.items():
        if v == code:
            return k
    raise ValueError(f"model file: unknown {what} code {code} (damaged model file, or written by a newer budgetsvm)")


def sv_arrays(rows: Any) -> Dict[str, np.ndarray]:
    if sp.issparse(rows):
        rows = sp.csr_matrix(rows)
        return {
            "sv_data": rows.data,
            "sv_indices": rows.indices.astype(np.int64),
            "sv_indptr": rows.indptr.astype(np.int64),
            "sv_shape": np.array(rows.shape, dtype=np.int64),
        }
    return {"sv": np.ascontiguousarray(rows)}


def sv_matrix(arrays: Dict[str, Any], width: int) -> Any:
    """The support vectors from their arrays, checked against ``width`` columns."""
    if "sv" in arrays:
        sv = arrays["sv"]
        if sv.ndim != 2 or sv.dtype not in (np.float32, np.float64) or sv.shape[1] != width:
            raise ValueError(f"model file: support vectors of shape {sv.shape}, dtype {sv.dtype}; expected {width} "
                             "float columns")
        return sv
    if any(k not in arrays for k in ("sv_data", "sv_indices", "sv_indptr", "sv_shape")):
        raise ValueError("model file holds no support vectors (damaged model file)")
    data, indices, indptr, shape = (arrays[k] for k in ("sv_data", "sv_indices", "sv_indptr", "sv_shape"))
    if (data.ndim != 1 or data.dtype not in (np.float32, np.float64) or indices.dtype != np.int64
            or indptr.dtype != np.int64 or shape.shape != (2,) or indices.shape != data.shape
            or indptr.shape != (int(shape[0]) + 1,) or int(shape[1]) != width):
        raise ValueError("model file: the sparse support vectors' arrays disagree (damaged model file)")
    _core.check_csr(indices, indptr, int(shape[0]), width)
    return sp.csr_matrix((data, indices, indptr), shape=(int(shape[0]), width))


def _used_arrays(used) -> Dict[str, np.ndarray]:
    return {} if used is None else {"used_columns": used.columns}


def core_of(est) -> Tuple[str, bytes, Dict[str, np.ndarray]]:
    """(family, MODL payload, core arrays) of a fitted estimator."""
    family = type(est).__name__
    n_features = int(est.n_features_in_)
    classes = np.asarray(est.classes_)
    if family == "SVC":
        if not isinstance(est.kernel, str) or est.kernel not in KERNELS:
            raise ValueError(
                f"SVC(kernel={est.kernel!r}) cannot be saved: a precomputed or callable kernel needs the training "
                "data or Python code at prediction time; model files hold kernels by name only"
            )
        arrays = {"classes": classes, "intercept": np.asarray(est._intercept_, dtype=np.float64),
                  "dual_coef": np.asarray(est._dual_coef_, dtype=np.float64),
                  "n_support": np.asarray(est._n_support, dtype=np.int64)}
        arrays.update(sv_arrays(est._support_rows))
        arrays.update(_used_arrays(est._used_columns))
        if np.size(est.probA_):
            arrays["prob_a"] = np.asarray(est.probA_, dtype=np.float64)
            arrays["prob_b"] = np.asarray(est.probB_, dtype=np.float64)
        modl = (KERNELS[est.kernel], int(est.degree), DECISIONS["ovo"], float(est._gamma), float(est.coef0))
    elif family == "BudgetedSVC":
        kernel, gamma, degree, coef0 = est._fitted_kernel
        coef = np.ascontiguousarray(np.asarray(est.dual_coef_, dtype=np.float64).T)
        arrays = {"classes": classes, "intercept": np.asarray(est.intercept_, dtype=np.float64), "coef": coef}
        arrays.update(sv_arrays(est._support_rows))
        arrays.update(_used_arrays(est._used_columns))
        decision = "sign" if coef.shape[1] == 1 else "argmax"
        modl = (KERNELS[kernel], int(degree), DECISIONS[decision], float(gamma), float(coef0))
    elif family == "LinearSVC":
        weights = np.ascontiguousarray(est.coef_, dtype=np.float64)
        arrays = {"classes": classes, "intercept": np.asarray(est.intercept_, dtype=np.float64), "weights": weights}
        decision = "sign" if weights.shape[0] == 1 else "argmax"
        modl = (KERNELS["linear"], 3, DECISIONS[decision], 1.0, 0.0)
    else:
        raise TypeError(f"save_model takes a fitted SVC, LinearSVC or BudgetedSVC; got {family}")
    return family, MODL.pack(FAMILIES[family], *modl, n_features), arrays


def read_modl(payload: bytes) -> Dict[str, Any]:
    if len(payload) < MODL.size:
        raise ValueError(f"model file: MODL section of {len(payload)} bytes, needs {MODL.size} (damaged model file)")
    family, kernel, degree, decision, gamma, coef0, n_features = MODL.unpack_from(payload)
    out = {
        "family": _name(FAMILIES, family, "estimator family"),
        "kernel": _name(KERNELS, kernel, "kernel"),
        "decision": _name(DECISIONS, decision, "decision rule"),
        "degree": degree, "gamma": gamma, "coef0": coef0, "n_features": n_features,
    }
    if not (np.isfinite(gamma) and np.isfinite(coef0)) or (out["kernel"] != "linear" and gamma <= 0) or degree < 0:
        raise ValueError(f"model file: invalid kernel parameters gamma={gamma}, coef0={coef0}, degree={degree}")
    return out


def _array(arrays: Dict[str, Any], name: str) -> Any:
    if name not in arrays:
        raise ValueError(f"model file: no array {name!r} (damaged model file)")
    return arrays[name]


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"model file: {what} (damaged model file)")


def _float_vector(arrays, name, length) -> np.ndarray:
    a = _array(arrays, name)
    _check(a.dtype == np.float64 and a.shape == (length,) and bool(np.all(np.isfinite(a))),
           f"{name} must be {length} finite float64 values")
    return a


def _training_width(arrays, n_features) -> Tuple[Any, int]:
    cols = arrays.get("used_columns")
    if cols is None:
        return None, n_features
    _check(cols.dtype == np.int64 and cols.ndim == 1, "used_columns must be int64 values")
    _check(bool(np.all(np.diff(cols) > 0)) and (cols.size == 0 or (cols[0] >= 0 and cols[-1] < n_features)),
           "used_columns must increase within [0, n_features)")
    return UsedColumns(cols, n_features), max(cols.size, 1)


def restore_core(est, modl: Dict[str, Any], arrays: Dict[str, Any]) -> None:
    """Sets the state ``est`` predicts with from the portable part."""
    family, n_features = modl["family"], modl["n_features"]
    classes = _array(arrays, "classes")
    _check(classes.ndim == 1 and classes.size >= 2, "classes must hold at least 2 labels")
    k = classes.size
    est.classes_ = classes
    est.n_features_in_ = n_features
    if family == "LinearSVC":
        w = _array(arrays, "weights")
        n_out = 1 if k == 2 else k
        _check(w.dtype == np.float64 and w.shape == (n_out, n_features)
               and bool(np.all(np.isfinite(w))), f"weights must be finite float64 of shape ({n_out}, {n_features})")
        est.coef_ = w
        est.intercept_ = _float_vector(arrays, "intercept", n_out)
        return
    used, width = _training_width(arrays, n_features)
    rows = sv_matrix(arrays, width)
    n_sv = rows.shape[0]
    est._used_columns = used
    if family == "SVC":
        _restore_svc(est, modl, arrays, rows, used)
        return
    coef = _array(arrays, "coef")
    n_out = 1 if k == 2 else k
    _check(coef.dtype == np.float64 and coef.shape == (n_sv, n_out)
           and bool(np.all(np.isfinite(coef))), f"coef must be finite float64 of shape ({n_sv}, {n_out})")
    est._support_rows = np.ascontiguousarray(rows.toarray() if sp.issparse(rows) else rows, dtype=np.float64)
    est.dual_coef_ = np.ascontiguousarray(coef.T)
    est.intercept_ = _float_vector(arrays, "intercept", n_out)
    est.n_support_ = n_sv
    est.gamma_ = modl["gamma"]
    est._fitted_kernel = (modl["kernel"], modl["gamma"], modl["degree"], modl["coef0"])
    _default(est, "support_vectors_", used.expand(est._support_rows) if used is not None else est._support_rows)


def _default(est, name: str, value: Any) -> None:
    """Sets a reported attribute the file's ATTR section did not carry."""
    if not hasattr(est, name):
        setattr(est, name, value)


def _restore_svc(est, modl, arrays, rows, used) -> None:
    k = est.classes_.size
    n_sv = rows.shape[0]
    n_support = _array(arrays, "n_support")
    _check(n_support.dtype == np.int64 and n_support.shape == (k,)
           and bool(np.all(n_support >= 0)) and int(n_support.sum()) == n_sv,
           f"n_support must be {k} counts summing to the {n_sv} support vectors")
    dual = _array(arrays, "dual_coef")
    _check(dual.dtype == np.float64 and dual.shape == (k - 1, n_sv)
           and bool(np.all(np.isfinite(dual))), f"dual_coef must be finite float64 of shape ({k - 1}, {n_sv})")
    pairs = k * (k - 1) // 2
    est._n_support = n_support.astype(np.int32)
    est._dual_coef_ = dual
    est._intercept_ = _float_vector(arrays, "intercept", pairs)
    est._gamma = modl["gamma"]
    est._support_rows = rows
    if "prob_a" in arrays or "prob_b" in arrays:
        est.probA_, est.probB_ = _float_vector(arrays, "prob_a", pairs), _float_vector(arrays, "prob_b", pairs)
    else:
        est.probA_, est.probB_ = np.empty(0), np.empty(0)
    binary = k == 2
    defaults = {
        "support_vectors_": used.expand(rows) if used is not None else rows,
        "n_support_": est._n_support,
        "support_": np.arange(n_sv, dtype=np.int32),
        "intercept_": -est._intercept_ if binary else est._intercept_.copy(),
        "dual_coef_": -dual if binary else dual.copy(),
        "shape_fit_": (n_sv, modl["n_features"]),
        "_sparse": sp.issparse(rows),
        "_probability": est.probA_.size > 0,
        "fit_status_": 0,
    }
    for name, value in defaults.items():
        _default(est, name, value)
