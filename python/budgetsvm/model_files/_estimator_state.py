"""Fitted estimators <-> the portable part of a model file.

The portable part (``MODL`` and the core arrays, docs/model_format.md) is
what the C++ ``budgetsvm::Model`` predicts from: kernel, classes, support
vectors in the training columns (dense or CSR, float32 or float64) with the
optional used-column map, coefficients and intercepts in the layout each
family predicts with. A loaded estimator computes from exactly these arrays,
so its decision values are bit-equal to the saved one's. Everything else a
fitted estimator reports (``n_iter_``, ``history_``, ``class_weight_``, ...)
travels in ``ATTR``, restricted to a fixed list per family
(``attribute_rules``, defined once in cpp/include/budgetsvm/model/attributes.hpp
for both readers).

Reading checks the rules the C++ reader (cpp/include/budgetsvm/model/io.hpp)
checks, in the same terms: the kernel's parameters, the decision rule of the
family, unique increasing classes, finite numbers, canonical CSR, shapes
that agree. tests/fuzz/test_fuzz_model_files.py runs both readers on the
same mutated files.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, Optional, Tuple

import numpy as np
import scipy.sparse as sp

from .. import _core
from .._columns import UsedColumns
from ._values import decode_plain, sparse_kind

MODL = struct.Struct("<IIiIddQ")  # family, kernel, degree, decision, gamma, coef0, n_features
FAMILIES = {"SVC": 1, "LinearSVC": 2, "BudgetedSVC": 3, "SVR": 4, "NuSVR": 5, "NuSVC": 6, "OneClassSVM": 7,
            "BudgetedSVR": 8, "BudgetedOneClassSVM": 9}
KERNELS = {"linear": 0, "rbf": 1, "poly": 2, "sigmoid": 3}
DECISIONS = {"ovo": 1, "sign": 2, "argmax": 3, "value": 4}
#: LIBSVM's one-vs-one layout (dual_coef, n_support)
OVO_FAMILIES = ("SVC", "NuSVC")
#: one output, the prediction; no classes (decision rule "value")
REGRESSION_FAMILIES = ("SVR", "NuSVR", "BudgetedSVR")
#: one output whose sign is the class -1 or +1 (stored as the classes [-1, 1])
ONE_CLASS_FAMILIES = ("OneClassSVM", "BudgetedOneClassSVM")
#: the kernel families fitted by an exact solver (their kernel parameters are the model's)
EXACT_FAMILIES = ("SVC", "NuSVC", "SVR", "NuSVR", "OneClassSVM")
#: the labels of a one-class model
ONE_CLASS_LABELS = np.array([-1, 1], dtype=np.int64)
#: n_features must be below this (both readers)
MAX_FEATURES = 2**62


def attribute_rules(family: str) -> Dict[str, Tuple[str, int, Tuple[str, ...]]]:
    """The attributes a model file may hold for ``family``: name -> (kind,
    dtype code, dims), the one list both readers use (attributes.hpp)."""
    return {name: (kind, code, dims) for name, kind, code, dims in _core.model_attribute_rules(FAMILIES[family])}


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


def _finite(values: np.ndarray) -> bool:
    return bool(np.isfinite(values).all())


def sv_matrix(arrays: Dict[str, Any], width: int) -> Any:
    """The support vectors from their arrays, checked against ``width``
    columns: finite float32 / float64 values, dense or canonical CSR."""
    if "sv" in arrays:
        sv = arrays["sv"]
        _check(sv.ndim == 2 and sv.dtype in (np.float32, np.float64) and sv.shape[1] == width,
               f"support vectors must be float32 or float64 with {width} columns; got shape {sv.shape}, "
               f"dtype {sv.dtype}")
        _check(_finite(sv), "support vector values must be finite")
        return sv
    if any(k not in arrays for k in ("sv_data", "sv_indices", "sv_indptr", "sv_shape")):
        raise ValueError("model file holds no support vectors (damaged model file)")
    data, indices, indptr, shape = (arrays[k] for k in ("sv_data", "sv_indices", "sv_indptr", "sv_shape"))
    _check(shape.dtype == np.int64 and shape.shape == (2,) and indices.dtype == np.int64 and indptr.dtype == np.int64
           and data.ndim == 1 and indices.shape == data.shape and indptr.ndim == 1,
           "the sparse support vectors' arrays disagree")
    rows = int(shape[0])
    _check(rows >= 0 and int(shape[1]) == width and indptr.shape == (rows + 1,),
           "the sparse support vectors' arrays disagree")
    _check(data.dtype in (np.float32, np.float64), "support vector values must be float32 or float64")
    _check(_finite(data), "support vector values must be finite")
    malformed = "malformed CSR support vectors (row pointers from 0 to nnz, increasing column indices in range)"
    try:
        _core.check_csr(indices, indptr, rows, width)
    except ValueError as err:
        raise ValueError(f"model file: {malformed} (damaged model file): {err}") from err
    # canonical: column indices increase within each row
    first = np.zeros(indices.size, dtype=bool)
    first[indptr[:-1][indptr[:-1] < indices.size]] = True
    _check(bool(np.all((np.diff(indices) > 0) | first[1:])), malformed)
    return sp.csr_matrix((data, indices, indptr), shape=(rows, width))


def _used_arrays(used) -> Dict[str, np.ndarray]:
    return {} if used is None else {"used_columns": used.columns}


def core_of(est) -> Tuple[str, bytes, Dict[str, np.ndarray]]:
    """(family, MODL payload, core arrays) of a fitted estimator, from the
    state it gives (``est._fitted_state()``, estimators/_base.py)."""
    family = type(est).__name__
    if family not in FAMILIES:
        raise TypeError(f"save_model takes a fitted estimator of budgetsvm ({', '.join(FAMILIES)}); got {family}")
    fitted = est._fitted_state()
    n_features = fitted["n_features"]
    arrays: Dict[str, Any] = {}
    if family in ONE_CLASS_FAMILIES:
        arrays["classes"] = ONE_CLASS_LABELS
    elif family not in REGRESSION_FAMILIES:
        arrays["classes"] = fitted["classes"]
    arrays["intercept"] = fitted["intercept"]
    if family in EXACT_FAMILIES and (not isinstance(fitted["kernel"], str) or fitted["kernel"] not in KERNELS):
        raise ValueError(
            f"{family}(kernel={fitted['kernel']!r}) cannot be saved: a precomputed or callable kernel needs the "
            "training data or Python code at prediction time; model files hold kernels by name only"
        )
    if family in OVO_FAMILIES:
        arrays.update(dual_coef=fitted["dual_coef"], n_support=fitted["n_support"])
        decision = "ovo"
    elif family != "LinearSVC":
        arrays["coef"] = fitted["coef"]
        if family == "BudgetedSVR":  # the centring mean apart from b: partial_fit continues from it
            arrays["y_offset"] = np.array([fitted["y_offset"]], dtype=np.float64)
        decision = ("value" if family in REGRESSION_FAMILIES
                    else "sign" if fitted["coef"].shape[1] == 1 else "argmax")
    else:
        arrays["weights"] = fitted["weights"]
        decision = "sign" if fitted["weights"].shape[0] == 1 else "argmax"
        fitted.update(kernel="linear", degree=3, gamma=1.0, coef0=0.0)
    if family != "LinearSVC":
        arrays.update(sv_arrays(fitted["support_rows"]))
        arrays.update(_used_arrays(fitted["used_columns"]))
    if family in ("SVC", "NuSVC", "BudgetedSVC") and np.size(fitted["prob_a"]):
        arrays.update(prob_a=fitted["prob_a"], prob_b=fitted["prob_b"])
    modl = (KERNELS[fitted["kernel"]], fitted["degree"], DECISIONS[decision], fitted["gamma"], fitted["coef0"])
    return family, MODL.pack(FAMILIES[family], *modl, n_features), arrays


def read_modl(payload: Any) -> Dict[str, Any]:
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
        raise ValueError(f"model file: invalid kernel parameters gamma={gamma}, coef0={coef0}, degree={degree} "
                         "(gamma must be finite, and positive unless the kernel is linear; coef0 finite; degree >= 0)")
    _check(out["family"] != "LinearSVC" or out["kernel"] == "linear", "a LinearSVC model must have the linear kernel")
    _check(1 <= n_features < MAX_FEATURES, f"n_features {n_features} out of range")
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
    _check(a.dtype == np.float64 and a.shape == (length,) and _finite(a),
           f"{name} must be {length} finite float64 values")
    return a


def _float_matrix(arrays, name, rows, cols) -> np.ndarray:
    a = _array(arrays, name)
    _check(a.dtype == np.float64 and a.shape == (rows, cols) and _finite(a),
           f"{name} must be finite float64 of shape ({rows}, {cols})")
    return a


def _training_width(arrays, n_features) -> Tuple[Any, int]:
    cols = arrays.get("used_columns")
    if cols is None:
        return None, n_features
    _check(cols.dtype == np.int64 and cols.ndim == 1, "used_columns must be int64 values")
    _check(bool(np.all(np.diff(cols) > 0)) and (cols.size == 0 or (cols[0] >= 0 and cols[-1] < n_features)),
           "used_columns must increase within [0, n_features)")
    return UsedColumns(cols, n_features), max(cols.size, 1)


def _classes(arrays) -> np.ndarray:
    """The labels: at least two, unique and increasing (as the estimators
    store them: ``np.unique``), numbers in their own type, strings by code point."""
    classes = _array(arrays, "classes")
    _check(classes.ndim == 1 and classes.size >= 2, "classes must hold at least 2 labels")
    if classes.dtype.kind in "OU":
        items = classes.tolist()
        increasing = all(a < b for a, b in zip(items, items[1:]))
    else:
        increasing = bool(np.all(classes[1:] > classes[:-1]))
    _check(increasing, "classes must be unique and in increasing order")
    return classes


class Core:
    """The portable part of a file, checked: what the model predicts with."""

    def __init__(self, modl: Dict[str, Any], arrays: Dict[str, Any]):
        self.modl = modl
        self.family = family = modl["family"]
        regression, ovo = family in REGRESSION_FAMILIES, family in OVO_FAMILIES
        self.classes: Optional[np.ndarray] = None
        if regression:
            _check("classes" not in arrays, "a regression model has no classes")
            k = 0
        else:
            self.classes = _classes(arrays)
            k = self.classes.size
        if family in ONE_CLASS_FAMILIES:
            _check(self.classes is not None and self.classes.dtype.kind in "iuf"
                   and self.classes.tolist() == [-1, 1], "a one-class model's classes must be -1 and 1")
        self.n_outputs = 1 if regression else k * (k - 1) // 2 if ovo else (1 if k == 2 else k)
        expected = ("value" if regression else "ovo" if ovo else "sign" if self.n_outputs == 1 else "argmax")
        _check(modl["decision"] == expected, "the decision rule does not fit the family and classes")
        self.intercept = _float_vector(arrays, "intercept", self.n_outputs)
        n_features = modl["n_features"]
        self.n_sv = 0
        self.prob: Optional[Tuple[np.ndarray, np.ndarray]] = None
        self.y_offset: Optional[float] = None
        if family == "LinearSVC":
            self.weights = _float_matrix(arrays, "weights", self.n_outputs, n_features)
            return
        self.used, width = _training_width(arrays, n_features)
        self.rows = sv_matrix(arrays, width)
        self.n_sv = n_sv = self.rows.shape[0]
        if not ovo:  # the expansion's coefficients as stored
            self.coef = _float_matrix(arrays, "coef", n_sv, self.n_outputs)
            self.y_offset = (_float_vector(arrays, "y_offset", 1)[0]
                             if family == "BudgetedSVR" and "y_offset" in arrays else None)
            if family == "BudgetedSVC":
                self._read_prob(arrays, k)
            else:
                _check("prob_a" not in arrays and "prob_b" not in arrays,
                       "only a classifier's model holds probability sigmoids")
            return
        n_support = _array(arrays, "n_support")
        _check(n_support.dtype == np.int64 and n_support.shape == (k,) and bool(np.all(n_support >= 0))
               and bool(np.all(n_support <= n_sv)) and int(n_support.sum()) == n_sv,
               f"n_support must be {k} counts summing to the {n_sv} support vectors")
        self.n_support = n_support
        self.dual = _float_matrix(arrays, "dual_coef", k - 1, n_sv)
        self._read_prob(arrays, k)

    def _read_prob(self, arrays: Dict[str, Any], k: int) -> None:
        """Platt's sigmoid per class pair (optional; SVC, NuSVC and BudgetedSVC)."""
        if "prob_a" in arrays or "prob_b" in arrays:
            pairs = k * (k - 1) // 2
            self.prob = (_float_vector(arrays, "prob_a", pairs), _float_vector(arrays, "prob_b", pairs))


def dtype_code(array: np.ndarray) -> int:
    """The ARRY dtype code of a decoded array."""
    from ._container import DTYPE_CODES

    if array.dtype.kind == "O":
        return DTYPE_CODES["utf8"]
    if array.dtype.kind == "U":
        return DTYPE_CODES["utf8-fixed"]
    return DTYPE_CODES["b1" if array.dtype.kind == "b" else array.dtype.str[1:]]


def check_attributes(text: Any, core: Core, arrays: Dict[str, np.ndarray]) -> None:
    """The ATTR text against the rules of both readers (attributes.hpp)."""
    infos = {name: (dtype_code(a), a.shape) for name, a in arrays.items() if name.startswith("attr/")}
    n_classes = 0 if core.classes is None else core.classes.size
    _core.check_model_attributes(bytes(text), FAMILIES[core.family], n_classes, core.n_sv,
                                 core.modl["n_features"], infos)


def restore_attributes(est, family: str, attrs: Dict[str, Any], arrays: Dict[str, np.ndarray]) -> None:
    """Sets the checked attributes of the ATTR section, each by its rule
    (the derived ones come from the model's arrays: ``restore_core``)."""
    rules = attribute_rules(family)
    for name, value in attrs.items():
        kind = rules[name][0]  # checked: every name is on the list
        if kind == "derived":
            continue
        if kind == "count":
            value = int(value)
        elif kind == "flag":
            value = bool(value)
        elif kind == "shape":
            value = tuple(int(v) for v in value["$tuple"])
        elif kind == "array":
            value = arrays[value["$array"]].copy()
        else:
            value = decode_plain(value)
        setattr(est, name, value)


def restore_kernel(est, modl: Dict[str, Any], params: Dict[str, Any]) -> None:
    """The kernel and its parameters from MODL, never defaulted: an exact
    family (SVC, NuSVC, SVR, NuSVR, OneClassSVM) predicts with its kernel
    parameters, so MODL's always win (``gamma`` too, unless ``params``
    gives it: it may be "scale"); a budgeted family predicts with its
    fitted kernel (``_fitted_kernel``) and keeps the hyperparameters the
    file's ``params`` give, MODL's otherwise."""
    values = {"kernel": modl["kernel"], "degree": int(modl["degree"]), "coef0": float(modl["coef0"]),
              "gamma": float(modl["gamma"])}
    if modl["family"] in EXACT_FAMILIES:
        est.set_params(**{k: v for k, v in values.items() if k != "gamma" or k not in params})
    elif modl["family"] != "LinearSVC":
        est.set_params(**{k: v for k, v in values.items() if k not in params})


def restore_core(est, modl: Dict[str, Any], arrays: Dict[str, Any], attrs: Optional[Dict[str, Any]] = None,
                 core: Optional[Core] = None, **extra: Any) -> None:
    """Sets the state ``est`` predicts with from the portable part (checked
    by ``Core``) through ``est._restore_fitted_state`` (estimators/_base.py),
    which also derives the attributes that depend on it; ``attrs``: the
    file's ATTR attributes (their stored copies only say which sparse
    container a derived attribute was); ``extra``: more entries of the state
    (``sparse_queries`` of an SVC)."""
    core = core if core is not None else Core(modl, arrays)
    attrs = attrs if attrs is not None else {}
    fitted: Dict[str, Any] = {"classes": core.classes, "n_features": int(modl["n_features"]),
                              "intercept": core.intercept,
                              "containers": {name: sparse_kind(value) for name, value in attrs.items()}}
    if core.family == "LinearSVC":
        fitted["weights"] = core.weights
    else:
        fitted.update(kernel=modl["kernel"], gamma=float(modl["gamma"]), degree=int(modl["degree"]),
                      coef0=float(modl["coef0"]), support_rows=core.rows, used_columns=core.used)
    prob_a, prob_b = core.prob if core.prob is not None else (None, None)
    if core.family == "BudgetedSVC":
        fitted.update(coef=core.coef, prob_a=prob_a, prob_b=prob_b)
    elif core.family in REGRESSION_FAMILIES or core.family in ONE_CLASS_FAMILIES:
        fitted["coef"] = core.coef
        if core.y_offset is not None:
            fitted["y_offset"] = float(core.y_offset)
    elif core.family in OVO_FAMILIES:
        fitted.update(dual_coef=core.dual, n_support=core.n_support, prob_a=prob_a, prob_b=prob_b)
    fitted.update(extra)
    est._restore_fitted_state(fitted)
