"""LIBSVM and LIBLINEAR model text: export and import.

LIBSVM's model (``svm_save_model``) is a header of ``key values`` lines, then
``SV`` and one line per support vector: its ``nr_class - 1`` coefficients
and ``index:value`` pairs (indices from 1). Classes are in the file's label
order; support vectors are grouped by class; pair (i, j) votes for i when
``sum coef k - rho > 0``. Our SVC keeps the same one-vs-one layout with
sorted classes and ``intercept = -rho``, so export is a transcription; import
reorders the classes to sorted order (negating the pairs whose order flips).
A binary BudgetedSVC ``f(x) = sum beta_j k(z_j, x) + b`` (positive: class 1)
is the LIBSVM model with labels (class 1, class 0), coefficients beta and
``rho = -b``. Its multi-class models are not one-vs-one voting, so LIBSVM
cannot express them.

LIBLINEAR's model: header lines, then ``w`` and one row per feature (plus a
bias row when ``bias >= 0``) of one weight (two classes) or one per class.
Labels of both formats are integers. Numbers are written with 17
significant digits so that they read back exactly.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import scipy.sparse as sp

from . import _model_state as state

LIBSVM_KEYS = ("svm_type", "kernel_type", "degree", "gamma", "coef0", "nr_class", "total_sv", "rho", "label",
               "probA", "probB", "nr_sv")
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


def to_libsvm(est) -> str:
    family = type(est).__name__
    if family == "SVC":
        if not isinstance(est.kernel, str) or est.kernel not in state.KERNELS:
            raise ValueError(f"SVC(kernel={est.kernel!r}) cannot be written as a LIBSVM model: "
                             "a precomputed or callable kernel is not stored by name")
        labels = _integer_labels(est.classes_, "LIBSVM")
        dual = np.asarray(est._dual_coef_, dtype=np.float64)
        rho = -np.asarray(est._intercept_, dtype=np.float64)
        n_support = [int(v) for v in est._n_support]
        kernel = _kernel_lines(est.kernel, float(est._gamma) or 1.0, est.degree, est.coef0)
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
        kernel_name, gamma, degree, coef0 = est._fitted_kernel
        dual = np.asarray(est.dual_coef_, dtype=np.float64).reshape(1, -1)
        rho = -np.asarray(est.intercept_, dtype=np.float64)
        n_support = [int(dual.shape[1]), 0]
        kernel = _kernel_lines(kernel_name, gamma, degree, coef0)
        prob = None
    else:
        raise TypeError(f"format='libsvm' takes a fitted SVC or BudgetedSVC; got {family} "
                        "(LinearSVC: format='liblinear')")
    head = ["svm_type c_svc"] + kernel + [
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


def sniff(data: bytes) -> Optional[str]:
    head = data[:32].lstrip()
    if head.startswith(b"svm_type"):
        return "libsvm"
    if head.startswith(b"solver_type"):
        return "liblinear"
    return None


def _text_lines(data: bytes, fmt: str) -> List[str]:
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as err:
        raise ValueError(f"not a {fmt} model file: it is not ASCII text") from err
    # LIBSVM, LIBLINEAR and budgetsvm end every line with a newline: a file
    # cut inside its last line would otherwise load with a shortened number.
    if text and not text.endswith("\n"):
        raise ValueError(f"{fmt} model file: the last line does not end with a newline (the file looks truncated; "
                         f"{fmt} and budgetsvm end every line with one)")
    return text.splitlines()


def _numbers(values: List[str], kind, what: str, fmt: str) -> List[Any]:
    try:
        out = [kind(v) for v in values]
    except ValueError as err:
        raise ValueError(f"{fmt} model file: bad {what} {' '.join(values)!r}") from err
    if kind is float and not all(np.isfinite(out)):
        raise ValueError(f"{fmt} model file: {what} must be finite")
    return out


def _libsvm_header(lines: List[str]) -> Tuple[Dict[str, List[str]], int]:
    header: Dict[str, List[str]] = {}
    for k, line in enumerate(lines):
        parts = line.split()
        if parts == ["SV"]:
            return header, k + 1
        if not parts:
            continue
        if parts[0] not in LIBSVM_KEYS:
            raise ValueError(f"LIBSVM model file: unknown header line {line[:60]!r}")
        header[parts[0]] = parts[1:]
    raise ValueError("LIBSVM model file: no 'SV' line (truncated or not a LIBSVM model)")


def _libsvm_svs(lines: List[str], n_coef: int, total: int) -> Tuple[np.ndarray, sp.csr_matrix]:
    rows = [line.split() for line in lines if line.strip()]
    if len(rows) != total:
        raise ValueError(f"LIBSVM model file: total_sv says {total} support vectors, the file has {len(rows)} "
                         "(the file is truncated or damaged)")
    coef = np.empty((n_coef, total))
    data: List[float] = []
    indices: List[int] = []
    indptr = [0]
    for s, parts in enumerate(rows):
        if len(parts) < n_coef:
            raise ValueError(f"LIBSVM model file: support vector {s + 1} has fewer than {n_coef} coefficients")
        coef[:, s] = _numbers(parts[:n_coef], float, "coefficients", "LIBSVM")
        for pair in parts[n_coef:]:
            index, sep, value = pair.partition(":")
            if not sep:
                raise ValueError(f"LIBSVM model file: {pair!r} is not index:value")
            (i,) = _numbers([index], int, "feature index", "LIBSVM")
            if i < 1:
                raise ValueError(f"LIBSVM model file: feature index {i} (indices start at 1; "
                                 "precomputed-kernel models are not supported)")
            indices.append(i - 1)
            data.extend(_numbers([value], float, "feature value", "LIBSVM"))
        indptr.append(len(indices))
    width = max(indices) + 1 if indices else 0
    sv = sp.csr_matrix((np.array(data, dtype=np.float64), np.array(indices, dtype=np.int64), np.array(indptr)),
                       shape=(total, width))
    sv.sum_duplicates()
    return coef, sv


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


def from_libsvm(data: bytes, n_features: Any = None):
    from .exact import SVC

    lines = _text_lines(data, "LIBSVM")
    header, first_sv = _libsvm_header(lines)
    need = ["svm_type", "kernel_type", "nr_class", "total_sv", "rho", "label", "nr_sv"]
    missing = [key for key in need if key not in header]
    if missing:
        raise ValueError(f"LIBSVM model file: header lacks {missing} (a classification model has them)")
    svm_type = header["svm_type"][0] if header["svm_type"] else ""
    if svm_type not in ("c_svc", "nu_svc"):
        raise ValueError(f"LIBSVM model file: svm_type {svm_type!r} is not a classifier (budgetsvm loads c_svc and "
                         "nu_svc models)")
    kernel = header["kernel_type"][0] if header["kernel_type"] else ""
    kernel = "poly" if kernel == "polynomial" else kernel
    if kernel not in state.KERNELS:
        raise ValueError(f"LIBSVM model file: kernel_type {kernel!r} is not supported (linear, rbf, poly, sigmoid)")
    (k,) = _numbers(header["nr_class"], int, "nr_class", "LIBSVM")
    (total,) = _numbers(header["total_sv"], int, "total_sv", "LIBSVM")
    if k < 2 or total < 0:
        raise ValueError(f"LIBSVM model file: nr_class {k} / total_sv {total} out of range")
    pairs = k * (k - 1) // 2
    labels = _numbers(header["label"], int, "labels", "LIBSVM")
    n_support = _numbers(header["nr_sv"], int, "nr_sv", "LIBSVM")
    rho = np.array(_numbers(header["rho"], float, "rho", "LIBSVM"))
    if len(labels) != k or len(set(labels)) != k or len(n_support) != k or rho.size != pairs \
            or min(n_support) < 0 or sum(n_support) != total:
        raise ValueError("LIBSVM model file: label, nr_sv and rho disagree with nr_class and total_sv")
    prob = None
    if "probA" in header and "probB" in header:
        prob = (_numbers(header["probA"], float, "probA", "LIBSVM"),
                _numbers(header["probB"], float, "probB", "LIBSVM"))
        if len(prob[0]) != pairs or len(prob[1]) != pairs:
            raise ValueError("LIBSVM model file: probA / probB need one value per class pair")
    coef, sv = _libsvm_svs(lines[first_sv:], k - 1, total)
    classes, n_sorted, dual, order, intercept, prob_a, prob_b = _sorted_ovo(labels, n_support, coef, rho, prob)
    width = _width(sv.shape[1], n_features)
    sv = sp.csr_matrix((sv.data, sv.indices, sv.indptr), shape=(sv.shape[0], width))[order]
    gamma = float(header.get("gamma", ["1.0"])[0]) if kernel != "linear" else 1.0
    degree = int(header.get("degree", ["3"])[0])
    coef0 = float(header.get("coef0", ["0"])[0])
    arrays = {"classes": classes.astype(np.int64), "intercept": intercept, "dual_coef": dual,
              "n_support": np.array(n_sorted, dtype=np.int64)}
    dense = sv.shape[0] * width <= 10**8 and sv.nnz >= 0.1 * sv.shape[0] * width
    arrays.update(state.sv_arrays(sv.toarray() if dense else sv))
    if prob:
        arrays["prob_a"], arrays["prob_b"] = prob_a, prob_b
    est = SVC(kernel=kernel, gamma=gamma if kernel != "linear" else "scale", degree=degree, coef0=coef0)
    modl = {"family": "SVC", "kernel": kernel, "decision": "ovo", "degree": degree, "gamma": gamma,
            "coef0": coef0, "n_features": width}
    state.restore_core(est, modl, arrays)
    est._sparse = True  # LIBSVM's models are sparse by nature: dense and sparse queries both welcome
    if prob:
        est.probability = True
    return est


def _width(used: int, n_features: Any) -> int:
    if n_features is None:
        return max(used, 1)
    if isinstance(n_features, bool) or not isinstance(n_features, (int, np.integer)):
        raise TypeError(f"n_features must be an int; got {n_features!r}")
    if n_features < used:
        raise ValueError(f"n_features={n_features} is smaller than the largest feature index the model uses ({used})")
    return int(n_features)


def from_liblinear(data: bytes, n_features: Any = None):
    from .linear import LinearSVC

    lines = _text_lines(data, "LIBLINEAR")
    header: Dict[str, List[str]] = {}
    start = None
    for k, line in enumerate(lines):
        parts = line.split()
        if parts == ["w"]:
            start = k + 1
            break
        if parts:
            header[parts[0]] = parts[1:]
    if start is None or any(key not in header for key in ("solver_type", "nr_class", "label", "nr_feature", "bias")):
        raise ValueError("LIBLINEAR model file: incomplete header (truncated, or not a classification model)")
    solver = header["solver_type"][0] if header["solver_type"] else ""
    if solver not in LIBLINEAR_SVM:
        raise ValueError(f"LIBLINEAR model file: solver_type {solver!r} is not a classifier budgetsvm loads "
                         f"({', '.join(LIBLINEAR_SVM)})")
    (k,) = _numbers(header["nr_class"], int, "nr_class", "LIBLINEAR")
    labels = _numbers(header["label"], int, "labels", "LIBLINEAR")
    (d,) = _numbers(header["nr_feature"], int, "nr_feature", "LIBLINEAR")
    (bias,) = _numbers(header["bias"], float, "bias", "LIBLINEAR")
    if k < 2 or len(labels) != k or len(set(labels)) != k or d < 0:
        raise ValueError("LIBLINEAR model file: nr_class, label and nr_feature disagree")
    nr_w = 1 if k == 2 and solver != "MCSVM_CS" else k
    rows = d + (1 if bias >= 0 else 0)
    body = [line.split() for line in lines[start:] if line.strip()]
    if len(body) != rows or any(len(r) != nr_w for r in body):
        raise ValueError(f"LIBLINEAR model file: expected {rows} weight rows of {nr_w} values "
                         "(the file is truncated or damaged)")
    W = np.array([_numbers(r, float, "weights", "LIBLINEAR") for r in body], dtype=np.float64).reshape(rows, nr_w)
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
    est = LinearSVC(loss="hinge" if solver == "L2R_L1LOSS_SVC_DUAL" else "squared_hinge", fit_intercept=bias >= 0)
    est.classes_ = classes
    est.coef_ = np.ascontiguousarray(coef)
    est.intercept_ = np.asarray(intercept, dtype=np.float64)
    est.n_features_in_ = width
    return est
