"""LIBSVM and LIBLINEAR model text: export and import.

LIBSVM's model (``svm_save_model``) is a header of ``key values`` lines, then
``SV`` and one line per support vector: its ``nr_class - 1`` coefficients
and ``index:value`` pairs (indices from 1). Classes are in the file's label
order; support vectors are grouped by class; pair (i, j) votes for i when
``sum coef k - rho > 0``. Our SVC keeps the same one-vs-one layout with
sorted classes and ``intercept = -rho``, so export is a transcription; import
reorders the classes to sorted order (negating the pairs whose order flips).
NuSVC is the same with ``svm_type nu_svc``. A regression or one-class model
(SVR, NuSVR, OneClassSVM and the budgeted BudgetedSVR, BudgetedOneClassSVM:
``epsilon_svr``, ``nu_svr``, ``one_class``) has one coefficient per support
vector, ``rho = -intercept`` and no labels; a one-class model predicts +1
where ``sum coef k - rho > 0``.
A binary BudgetedSVC ``f(x) = sum beta_j k(z_j, x) + b`` (positive: class 1)
is the LIBSVM model with labels (class 1, class 0), coefficients beta and
``rho = -b`` (and, fitted with ``probability=True``, ``probA = A`` and
``probB = -B`` of its sigmoid). Its multi-class models are not one-vs-one voting, so LIBSVM
cannot express them.

LIBLINEAR's model: header lines, then ``w`` and one row per feature (plus a
bias row when ``bias >= 0``) of one weight (two classes) or one per class.
Labels of both formats are integers. Numbers are written with 17
significant digits so that they read back exactly.
"""

from __future__ import annotations

import array
import math
import re
from typing import IO, Any, Dict, Iterator, List, Optional, Tuple

import numpy as np
import scipy.sparse as sp

from . import _estimator_state as state
from ._families import ESTIMATORS

LIBSVM_KEYS = ("svm_type", "kernel_type", "degree", "gamma", "coef0", "nr_class", "total_sv", "rho", "label",
               "probA", "probB", "nr_sv")
LIBLINEAR_KEYS = ("solver_type", "nr_class", "label", "nr_feature", "bias")
LIBLINEAR_SVM = ("L2R_L2LOSS_SVC_DUAL", "L2R_L2LOSS_SVC", "L2R_L1LOSS_SVC_DUAL", "MCSVM_CS", "L1R_L2LOSS_SVC",
                 "L2R_LR", "L1R_LR", "L2R_LR_DUAL")


def _num(v: float) -> str:
    return repr(float(v))


def _integer_labels(classes: np.ndarray, fmt: str) -> List[int]:
    try:
        values = np.asarray(classes, dtype=np.float64)
    except (TypeError, ValueError):
        values = None
    if values is None or classes.dtype.kind not in "iuf" or not np.all(values == np.round(values)) \
            or not np.all(np.abs(values) < 2**31):
        raise ValueError(
            f"{fmt} model files hold integer class labels only; this model's classes are {list(classes)!r} "
            "(save it in format='budgetsvm', which keeps labels of any type)"
        )
    return [int(v) for v in values]


def _sv_lines(sv: Any, coef: np.ndarray) -> List[str]:
    """One LIBSVM line per support vector: coefficients, then index:value (from 1)."""
    sv = sp.csr_matrix(sv)
    lines = []
    for s in range(sv.shape[0]):
        lo, hi = sv.indptr[s], sv.indptr[s + 1]
        order = np.argsort(sv.indices[lo:hi], kind="stable")
        pairs = [f"{int(sv.indices[lo + t]) + 1}:{_num(sv.data[lo + t])}" for t in order if sv.data[lo + t] != 0]
        lines.append(" ".join([_num(c) for c in coef[:, s]] + pairs))
    return lines


def _kernel_lines(kernel: str, gamma: float, degree: int, coef0: float) -> List[str]:
    lines = [f"kernel_type {'polynomial' if kernel == 'poly' else kernel}"]
    if kernel == "poly":
        lines.append(f"degree {int(degree)}")
    if kernel != "linear":
        lines.append(f"gamma {_num(gamma)}")
    if kernel in ("poly", "sigmoid"):
        lines.append(f"coef0 {_num(coef0)}")
    return lines


#: LIBSVM's svm_type of each family it can hold
SVM_TYPES = {"SVC": "c_svc", "BudgetedSVC": "c_svc", "NuSVC": "nu_svc", "OneClassSVM": "one_class",
             "BudgetedOneClassSVM": "one_class", "SVR": "epsilon_svr", "BudgetedSVR": "epsilon_svr",
             "NuSVR": "nu_svr"}
#: the family a LIBSVM svm_type loads as
LOADS_AS = {"c_svc": "SVC", "nu_svc": "NuSVC", "one_class": "OneClassSVM", "epsilon_svr": "SVR", "nu_svr": "NuSVR"}


def _single_output(est, family: str) -> str:
    """LIBSVM's text of a regression or one-class model: one coefficient per
    support vector, ``rho = -intercept``, no labels (LIBSVM's layout of
    epsilon_svr, nu_svr and one_class)."""
    if family in state.EXACT_FAMILIES and (not isinstance(est.kernel, str) or est.kernel not in state.KERNELS):
        raise ValueError(f"{family}(kernel={est.kernel!r}) cannot be written as a LIBSVM model: "
                         "a precomputed or callable kernel is not stored by name")
    fitted = est._fitted_state()
    coef = np.asarray(fitted["coef"], dtype=np.float64).reshape(1, -1)
    head = [f"svm_type {SVM_TYPES[family]}"]
    head += _kernel_lines(fitted["kernel"], fitted["gamma"] or 1.0, fitted["degree"], fitted["coef0"])
    head += ["nr_class 2", f"total_sv {coef.shape[1]}", "rho " + _num(-float(fitted["intercept"][0])), "SV"]
    return "\n".join(head + _sv_lines(est.support_vectors_, coef)) + "\n"


def to_libsvm(est) -> str:
    family = type(est).__name__
    if family in state.REGRESSION_FAMILIES or family in state.ONE_CLASS_FAMILIES:
        return _single_output(est, family)
    if family in state.OVO_FAMILIES:
        if not isinstance(est.kernel, str) or est.kernel not in state.KERNELS:
            raise ValueError(f"{family}(kernel={est.kernel!r}) cannot be written as a LIBSVM model: "
                             "a precomputed or callable kernel is not stored by name")
        labels = _integer_labels(est.classes_, "LIBSVM")
        fitted = est._fitted_state()  # LIBSVM's layout (estimators/_ovo.py)
        dual = fitted["dual_coef"]
        rho = -fitted["intercept"]
        n_support = [int(v) for v in fitted["n_support"]]
        kernel = _kernel_lines(est.kernel, fitted["gamma"] or 1.0, est.degree, est.coef0)
        prob = (est.probA_, est.probB_) if np.size(est.probA_) else None
    elif family == "BudgetedSVC":
        if len(est.classes_) != 2:
            reason = ("BSGD trains multi-class models jointly (Crammer-Singer: one output per class, the largest "
                      "wins)" if est.solver == "bsgd" else
                      "BSCA trains multi-class models one-vs-rest (one output per class, the largest wins)")
            raise ValueError(f"This BudgetedSVC cannot be written as a LIBSVM model: {reason}, while LIBSVM's "
                             "multi-class models are one-vs-one votes between pairs of classes. Use "
                             "format='budgetsvm'.")
        c0, c1 = _integer_labels(est.classes_, "LIBSVM")
        labels = [c1, c0]  # LIBSVM: a positive value means the first label
        fitted = est._fitted_state()  # the kernel it was trained with (estimators/_budget_model.py)
        kernel_name, gamma, degree, coef0 = (fitted[k] for k in ("kernel", "gamma", "degree", "coef0"))
        dual = np.asarray(est.dual_coef_, dtype=np.float64).reshape(1, -1)
        rho = -np.asarray(est.intercept_, dtype=np.float64)
        n_support = [int(dual.shape[1]), 0]
        kernel = _kernel_lines(kernel_name, gamma, degree, coef0)
        # probA_ / probB_ give P(class 0 | -f); LIBSVM's sigmoid gives P(its first label, class 1 | f)
        prob = (est.probA_, -est.probB_) if hasattr(est, "probA_") else None
    else:
        raise TypeError(f"format='libsvm' takes a fitted kernel estimator ({', '.join(SVM_TYPES)}); got {family} "
                        "(LinearSVC: format='liblinear')")
    head = [f"svm_type {SVM_TYPES[family]}"] + kernel + [
        f"nr_class {len(labels)}",
        f"total_sv {dual.shape[1]}",
        "rho " + " ".join(_num(r) for r in rho),
        "label " + " ".join(str(v) for v in labels),
    ]
    if prob is not None:
        head += ["probA " + " ".join(_num(a) for a in prob[0]), "probB " + " ".join(_num(b) for b in prob[1])]
    head += ["nr_sv " + " ".join(str(n) for n in n_support), "SV"]
    return "\n".join(head + _sv_lines(est.support_vectors_, dual)) + "\n"


def to_liblinear(est) -> str:
    if type(est).__name__ != "LinearSVC":
        raise TypeError(f"format='liblinear' takes a fitted LinearSVC; got {type(est).__name__} "
                        "(kernel models: format='libsvm')")
    labels = _integer_labels(est.classes_, "LIBLINEAR")
    coef = np.asarray(est.coef_, dtype=np.float64)
    intercept = np.asarray(est.intercept_, dtype=np.float64)
    if len(labels) == 2:
        labels = [labels[1], labels[0]]  # LIBLINEAR: a positive value means the first label
    solver = {"hinge": "L2R_L1LOSS_SVC_DUAL"}.get(est.loss, "L2R_L2LOSS_SVC_DUAL")
    W = coef.T  # one row per feature, one column per output
    if est.fit_intercept:
        W = np.vstack([W, intercept[None, :]])
    lines = [f"solver_type {solver}", f"nr_class {len(labels)}", "label " + " ".join(str(v) for v in labels),
             f"nr_feature {coef.shape[1]}", f"bias {1.0 if est.fit_intercept else -1.0}", "w"]
    lines += ["".join(_num(v) + " " for v in row) for row in W]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- reading
#
# Reading goes line by line, each line at most ``max_line_bytes`` long, so a
# file without newlines costs that much memory and no more; every malformed
# line is a ValueError naming its number. Numbers follow one grammar: an
# optional sign, then digits (integers), or digits with an optional point and
# exponent (floats; ``nan`` / ``inf`` are recognised only to be refused as
# not finite) -- no second sign, no underscores, no hexadecimal.

_FLOAT_TEXT = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_SPECIAL_TEXT = r"[+-]?(?:[nN][aA][nN]|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(f"{_FLOAT_TEXT}|{_SPECIAL_TEXT}")
_PAIR = re.compile(rf"([+-]?[0-9]+):({_FLOAT_TEXT}|{_SPECIAL_TEXT})")
#: the largest feature index, label or count a text model may hold
_LARGEST = 2**62


def sniff(data: bytes) -> Optional[str]:
    head = data[:32].lstrip()
    if head.startswith(b"svm_type"):
        return "libsvm"
    if head.startswith(b"solver_type"):
        return "liblinear"
    return None


class _TextModel:
    """The lines of a LIBSVM / LIBLINEAR model text, read one at a time from
    a binary file (``head``: its first bytes, already read), each at most
    ``limit`` bytes; errors name the line."""

    def __init__(self, f: IO[bytes], head: bytes, fmt: str, limit: int):
        self.f, self.pending, self.fmt, self.limit = f, head, fmt, limit
        self.number = 0  # of the last line read

    def error(self, what: str, number: Optional[int] = None) -> ValueError:
        return ValueError(f"{self.fmt} model file, line {number or self.number}: {what}")

    def next(self) -> Optional[str]:
        """The next line (without its newline), or None at the end."""
        while True:
            end = self.pending.find(b"\n")
            if end >= 0:
                raw, self.pending = self.pending[:end], self.pending[end + 1 :]
                break
            if len(self.pending) > self.limit:
                self.number += 1
                raise self.error(f"longer than {self.limit} bytes (max_line_bytes) without a newline: not a "
                                 f"{self.fmt} model file, or raise max_line_bytes")
            more = self.f.readline(self.limit + 1 - len(self.pending))
            if not more:
                if not self.pending:
                    return None
                # LIBSVM, LIBLINEAR and budgetsvm end every line with a newline: a file
                # cut inside its last line would otherwise load with a shortened number.
                self.number += 1
                raise self.error(f"the last line does not end with a newline (the file looks truncated; {self.fmt} "
                                 "and budgetsvm end every line with one)")
            self.pending += more
        self.number += 1
        if len(raw) > self.limit:
            raise self.error(f"longer than {self.limit} bytes (max_line_bytes): not a {self.fmt} model file, or "
                             "raise max_line_bytes")
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            raise self.error(f"not ASCII text: not a {self.fmt} model file") from None

    def rows(self) -> Iterator[List[str]]:
        """The tokens of each line that has any, up to the end of the file."""
        while True:
            line = self.next()
            if line is None:
                return
            parts = line.split()
            if parts:
                yield parts

    def header(self, keys: Tuple[str, ...], end: str) -> Dict[str, Tuple[int, List[str]]]:
        """``key values`` lines up to the line ``end``: key -> (line number, values)."""
        out: Dict[str, Tuple[int, List[str]]] = {}
        while True:
            line = self.next()
            if line is None:
                raise self.error(f"no {end!r} line (truncated, or not a {self.fmt} model)", self.number + 1)
            parts = line.split()
            if parts == [end]:
                return out
            if not parts:
                continue
            if parts[0] not in keys:
                raise self.error(f"unknown header line {line[:60]!r}")
            if parts[0] in out:
                raise self.error(f"{parts[0]} appears twice")
            out[parts[0]] = (self.number, parts[1:])

    def integer(self, token: str, what: str, low: int = -_LARGEST, high: int = _LARGEST, number=None) -> int:
        if not _INT.fullmatch(token):
            raise self.error(f"bad {what} {token!r} (not an integer)", number)
        value = int(token)
        if not low <= value <= high:
            raise self.error(f"{what} {token} out of range [{low}, {high}]", number)
        return value

    def real(self, token: str, what: str, number=None) -> float:
        if not _FLOAT.fullmatch(token):
            raise self.error(f"bad {what} {token!r} (not a number)", number)
        value = float(token)
        if not math.isfinite(value):
            raise self.error(f"{what} must be finite; got {token}", number)
        return value


def _values(text: _TextModel, header, key: str, kind: str, low: int = -_LARGEST, high: int = _LARGEST) -> List[Any]:
    number, tokens = header[key]
    if kind == "int":
        return [text.integer(t, key, low, high, number) for t in tokens]
    return [text.real(t, key, number) for t in tokens]


def _one(text: _TextModel, header, key: str, kind: str, low: int = -_LARGEST, high: int = _LARGEST) -> Any:
    values = _values(text, header, key, kind, low, high)
    if len(values) != 1:
        raise text.error(f"{key} needs one value; got {len(values)}", header[key][0])
    return values[0]


def read_text_model(f: IO[bytes], head: bytes, kind: str, n_features: Any, max_line_bytes: int):
    """The estimator in a LIBSVM (``kind="libsvm"``) or LIBLINEAR model text."""
    if kind == "libsvm":
        return from_libsvm(_TextModel(f, head, "LIBSVM", max_line_bytes), n_features)
    return from_liblinear(_TextModel(f, head, "LIBLINEAR", max_line_bytes), n_features)


def _libsvm_svs(text: _TextModel, n_coef: int, total: int):
    """The support vector lines: (coefficients (n_coef, total), CSR rows)."""
    coef = array.array("d")
    data = array.array("d")
    indices = array.array("q")
    indptr = [0]
    for parts in text.rows():
        if len(indptr) > total:
            raise text.error(f"more support vectors than total_sv ({total})")
        if len(parts) < n_coef:
            raise text.error(f"fewer than {n_coef} coefficients")
        coef.extend(text.real(t, "coefficient") for t in parts[:n_coef])
        last = 0
        for pair in parts[n_coef:]:
            match = _PAIR.fullmatch(pair)
            if match is None:
                raise text.error(f"{pair!r} is not index:value")
            i = text.integer(match.group(1), "feature index", 1, _LARGEST)
            if i <= last:
                raise text.error(f"feature index {i} after {last} (indices must increase)")
            last = i
            indices.append(i - 1)
            data.append(text.real(match.group(2), "feature value"))
        indptr.append(len(indices))
    if len(indptr) - 1 != total:
        raise ValueError(f"LIBSVM model file: total_sv says {total} support vectors, the file has {len(indptr) - 1} "
                         "(the file is truncated or damaged)")
    width = max(indices) + 1 if indices else 0
    sv = sp.csr_matrix((np.frombuffer(data, dtype=np.float64), np.frombuffer(indices, dtype=np.int64),
                        np.array(indptr, dtype=np.int64)), shape=(total, width))
    return np.frombuffer(coef, dtype=np.float64).reshape(total, n_coef).T.copy(), sv


def _sorted_ovo(labels: List[int], n_support: List[int], coef: np.ndarray, rho: np.ndarray, prob):
    """LIBSVM's one-vs-one layout in the file's label order -> sorted labels."""
    k = len(labels)
    perm = np.argsort(labels, kind="stable")  # new class a is old class perm[a]
    q = np.empty(k, dtype=np.int64)
    q[perm] = np.arange(k)
    starts = np.concatenate([[0], np.cumsum(n_support)])
    order = np.concatenate([np.arange(starts[c], starts[c + 1]) for c in perm]).astype(np.int64)
    new_pos = np.empty_like(order)
    new_pos[order] = np.arange(order.size)
    dual = np.zeros_like(coef)
    for c in range(k):
        for o in range(k):
            if o == c:
                continue
            flip = (c < o) != (q[c] < q[o])
            row_old = o if o < c else o - 1
            row_new = q[o] if q[o] < q[c] else q[o] - 1
            cols = np.arange(starts[c], starts[c + 1])
            dual[row_new, new_pos[cols]] = -coef[row_old, cols] if flip else coef[row_old, cols]
    pair_old = {}
    p = 0
    for i in range(k):
        for j in range(i + 1, k):
            pair_old[(i, j)] = p
            p += 1
    intercept = np.empty(len(rho))
    prob_a = np.empty(len(rho) if prob else 0)
    prob_b = np.empty(len(rho) if prob else 0)
    p = 0
    for a in range(k):
        for b in range(a + 1, k):
            c, o = perm[a], perm[b]
            flip = c > o
            old = pair_old[(min(c, o), max(c, o))]
            intercept[p] = rho[old] if flip else -rho[old]
            if prob:
                prob_a[p] = prob[0][old]
                prob_b[p] = -prob[1][old] if flip else prob[1][old]
            p += 1
    return np.sort(labels), [n_support[c] for c in perm], dual, order, intercept, prob_a, prob_b


def from_libsvm(text: _TextModel, n_features: Any = None):
    header = text.header(LIBSVM_KEYS, "SV")
    for key in ("svm_type", "kernel_type"):
        if key not in header:
            raise ValueError(f"LIBSVM model file: header lacks {key!r}")
    svm_type = " ".join(header["svm_type"][1])
    if svm_type not in LOADS_AS:
        raise text.error(f"svm_type {svm_type!r} is not one of LIBSVM's ({', '.join(LOADS_AS)})",
                         header["svm_type"][0])
    family = LOADS_AS[svm_type]
    single = family in state.REGRESSION_FAMILIES or family in state.ONE_CLASS_FAMILIES
    need = ["nr_class", "total_sv", "rho"] + ([] if single else ["label", "nr_sv"])
    missing = [key for key in need if key not in header]
    if missing:
        raise ValueError(f"LIBSVM model file: header lacks {missing} (a {svm_type} model has them)")
    kernel = " ".join(header["kernel_type"][1])
    kernel = "poly" if kernel == "polynomial" else kernel
    if kernel not in state.KERNELS:
        raise text.error(f"kernel_type {kernel!r} is not supported (linear, rbf, polynomial, sigmoid)",
                         header["kernel_type"][0])
    needs = {"rbf": ["gamma"], "poly": ["degree", "gamma", "coef0"], "sigmoid": ["gamma", "coef0"]}.get(kernel, [])
    missing = [key for key in needs if key not in header]
    if missing:
        raise ValueError(f"LIBSVM model file: kernel_type {kernel} needs {missing} in the header")
    gamma = _one(text, header, "gamma", "float") if "gamma" in header else 1.0
    if kernel != "linear" and not gamma > 0:
        raise text.error(f"gamma must be a positive number; got {gamma!r}", header["gamma"][0])
    degree = _one(text, header, "degree", "int", 0, 2**31 - 1) if "degree" in header else 3
    coef0 = _one(text, header, "coef0", "float") if "coef0" in header else 0.0
    k = _one(text, header, "nr_class", "int", 2, _LARGEST)
    total = _one(text, header, "total_sv", "int", 0, _LARGEST)
    params = dict(kernel=kernel, gamma=gamma if kernel != "linear" else "scale", degree=degree, coef0=coef0)
    modl = {"family": family, "kernel": kernel, "degree": degree, "gamma": gamma, "coef0": coef0}
    if single:
        return _single_from_libsvm(text, header, family, total, n_features, params, modl)
    pairs = k * (k - 1) // 2
    labels = _values(text, header, "label", "int", -(2**63), 2**63 - 1)
    n_support = _values(text, header, "nr_sv", "int", 0, _LARGEST)
    if len(labels) != k or len(set(labels)) != k or len(n_support) != k or sum(n_support) != total:
        raise ValueError("LIBSVM model file: label and nr_sv need nr_class values (distinct labels, counts summing "
                         "to total_sv)")
    rho = np.array(_values(text, header, "rho", "float"))
    if rho.size != pairs:
        raise text.error(f"rho needs one value per class pair ({pairs}); got {rho.size}", header["rho"][0])
    prob = None
    if "probA" in header or "probB" in header:
        if not ("probA" in header and "probB" in header):
            raise ValueError("LIBSVM model file: probA and probB come together")
        prob = (_values(text, header, "probA", "float"), _values(text, header, "probB", "float"))
        if len(prob[0]) != pairs or len(prob[1]) != pairs:
            raise ValueError("LIBSVM model file: probA / probB need one value per class pair")
    coef, sv = _libsvm_svs(text, k - 1, total)
    classes, n_sorted, dual, order, intercept, prob_a, prob_b = _sorted_ovo(labels, n_support, coef, rho, prob)
    width = _width(sv.shape[1], n_features)
    sv = sp.csr_matrix((sv.data, sv.indices, sv.indptr), shape=(sv.shape[0], width))[order]
    arrays = {"classes": classes.astype(np.int64), "intercept": intercept, "dual_coef": dual,
              "n_support": np.array(n_sorted, dtype=np.int64)}
    dense = sv.shape[0] * width <= 10**8 and sv.nnz >= 0.1 * sv.shape[0] * width
    arrays.update(state.sv_arrays(sv.toarray() if dense else sv))
    if prob:
        arrays["prob_a"], arrays["prob_b"] = prob_a, prob_b
    est = ESTIMATORS[family](**params)
    modl.update(decision="ovo", n_features=width)
    # LIBSVM's models are sparse by nature: dense and sparse queries both welcome
    state.restore_core(est, modl, arrays, sparse_queries=True)
    if prob:
        est.probability = True
    return est


def _single_from_libsvm(text: _TextModel, header, family: str, total: int, n_features: Any,
                        params: Dict[str, Any], modl: Dict[str, Any]):
    """A regression or one-class model: one coefficient per support vector and one rho."""
    for key in ("label", "nr_sv", "probA", "probB"):
        if key in header:
            raise text.error(f"{key} does not belong in a {' '.join(header['svm_type'][1])} model (LIBSVM writes "
                             "labels for classifiers only; budgetsvm does not load the probability models of its "
                             "regression and one-class SVMs)", header[key][0])
    rho = np.array(_values(text, header, "rho", "float"))
    if rho.size != 1:
        raise text.error(f"rho needs one value; got {rho.size}", header["rho"][0])
    coef, sv = _libsvm_svs(text, 1, total)
    width = _width(sv.shape[1], n_features)
    sv = sp.csr_matrix((sv.data, sv.indices, sv.indptr), shape=(sv.shape[0], width))
    arrays: Dict[str, Any] = {"intercept": -rho, "coef": np.ascontiguousarray(coef.T)}
    if family in state.ONE_CLASS_FAMILIES:
        arrays["classes"] = state.ONE_CLASS_LABELS
    dense = sv.shape[0] * width <= 10**8 and sv.nnz >= 0.1 * sv.shape[0] * width
    arrays.update(state.sv_arrays(sv.toarray() if dense else sv))
    est = ESTIMATORS[family](**params)
    modl.update(decision="value" if family in state.REGRESSION_FAMILIES else "sign", n_features=width)
    state.restore_core(est, modl, arrays, sparse_queries=True)
    return est


def _width(used: int, n_features: Any) -> int:
    if n_features is None:
        return max(used, 1)
    if isinstance(n_features, bool) or not isinstance(n_features, (int, np.integer)):
        raise TypeError(f"n_features must be an int; got {n_features!r}")
    if n_features < used:
        raise ValueError(f"n_features={n_features} is smaller than the largest feature index the model uses ({used})")
    if n_features >= state.MAX_FEATURES:
        raise ValueError(f"n_features={n_features} is out of range (at most 2^62 - 1)")
    return int(n_features)


def from_liblinear(text: _TextModel, n_features: Any = None):
    header = text.header(LIBLINEAR_KEYS, "w")
    missing = [key for key in ("solver_type", "nr_class", "label", "nr_feature", "bias") if key not in header]
    if missing:
        raise ValueError(f"LIBLINEAR model file: header lacks {missing} (truncated, or not a classification model)")
    solver = " ".join(header["solver_type"][1])
    if solver not in LIBLINEAR_SVM:
        raise text.error(f"solver_type {solver!r} is not a classifier budgetsvm loads ({', '.join(LIBLINEAR_SVM)})",
                         header["solver_type"][0])
    k = _one(text, header, "nr_class", "int", 2, _LARGEST)
    labels = _values(text, header, "label", "int", -(2**63), 2**63 - 1)
    d = _one(text, header, "nr_feature", "int", 0, state.MAX_FEATURES - 1)
    bias = _one(text, header, "bias", "float")
    if len(labels) != k or len(set(labels)) != k:
        raise text.error(f"label needs nr_class ({k}) distinct values", header["label"][0])
    nr_w = 1 if k == 2 and solver != "MCSVM_CS" else k
    rows = d + (1 if bias >= 0 else 0)
    weights = array.array("d")
    n_rows = 0
    for parts in text.rows():
        if n_rows == rows:
            raise text.error(f"more weight rows than nr_feature ({d}) and the bias give ({rows})")
        if len(parts) != nr_w:
            raise text.error(f"a weight row of {len(parts)} values; expected {nr_w}")
        weights.extend(text.real(t, "weight") for t in parts)
        n_rows += 1
    if n_rows != rows:
        raise ValueError(f"LIBLINEAR model file: expected {rows} weight rows of {nr_w} values, the file has {n_rows} "
                         "(the file is truncated or damaged)")
    W = np.frombuffer(weights, dtype=np.float64).reshape(rows, nr_w)
    intercept = W[d] * bias if bias >= 0 else np.zeros(nr_w)
    coef = W[:d].T
    if nr_w == 2:  # Crammer-Singer on two classes: one output, positive for the first label
        coef, intercept = (coef[0] - coef[1])[None, :], np.array([intercept[0] - intercept[1]])
    perm = np.argsort(labels, kind="stable")
    classes = np.array(labels, dtype=np.int64)[perm]
    if coef.shape[0] == 1:
        # one output: positive means the first label (LIBLINEAR) and classes_[1] (ours)
        if labels[0] < labels[1]:
            coef, intercept = -coef, -intercept
    else:
        coef, intercept = coef[perm], intercept[perm]
    width = _width(d, n_features)
    if width > d:
        coef = np.hstack([coef, np.zeros((coef.shape[0], width - d))])
    if not (np.all(np.isfinite(coef)) and np.all(np.isfinite(intercept))):  # bias * weight may overflow
        raise ValueError("LIBLINEAR model file: the weights times the bias are not finite")
    loss = "hinge" if solver == "L2R_L1LOSS_SVC_DUAL" else "squared_hinge"
    est = ESTIMATORS["LinearSVC"](loss=loss, fit_intercept=bias >= 0)
    est.classes_ = classes
    est.coef_ = np.ascontiguousarray(coef)
    est.intercept_ = np.asarray(intercept, dtype=np.float64)
    est.n_features_in_ = width
    return est
