"""Differential fuzzing of the two model file readers: Python's
``load_model`` and the C++ ``budgetsvm::load_model`` (through
``_core.model_summary`` / ``_core.model_predict``) read the same mutated
files and must agree: both refuse (a ValueError with a message), or both
accept and give the same decision values and predictions.

Files are valid models of every family (kernels, sparse and float32 support
vectors, used columns, probabilities, string and uint64 labels, files
without ATTR as the C++ API writes them), changed by one to three
mutations: byte flips, truncations, insertions and deletions, sections
duplicated, dropped or swapped, size fields (header, section, array shape)
changed, array values set to NaN / inf / extremes, dtype codes and the
model section's fields changed, attribute JSON edited (names outside the
fixed list, other kinds, numpy scalars, deep nesting). Most files are then
resealed as a writer would (header size and checksum recomputed), so the
readers' rules behind the checksum are what is compared.

``BUDGETSVM_FUZZ=long`` runs 10 000 files (docs/testing.md); the default
profile a few hundred, in seconds. LIBSVM / LIBLINEAR text is read by
Python only: mutated texts load or raise ValueError, nothing else.
"""

from __future__ import annotations

import json
import os
import struct
import tempfile
import warnings
import zlib
from functools import lru_cache

import numpy as np
import scipy.sparse as sp
from hypothesis import event, given
from hypothesis import strategies as st

from budgetsvm import BudgetedSVC, LinearSVC, SVC, _core, load_model, save_model
from budgetsvm.model_files import _container as container
from budgetsvm.model_files import _estimator_state as state
from model_file_sections import build, raw_sections

from .fuzzing import call, check_error, examples

rng = np.random.RandomState(7)
X = rng.randn(40, 3)
Y3 = np.array([2, 4, 8])[(X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)]
Y2 = np.where(X[:, 0] > 0, 1, -1)
XW = sp.random(40, 60, density=0.03, random_state=2, format="csr")


def _fit(make, Xf, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make().fit(Xf, y)


def _bytes_of(est) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "m.bsvm")
        save_model(est, path)
        with open(path, "rb") as f:
            return f.read()


def _core_only(est) -> bytes:
    _, modl, core = state.core_of(est)
    return build([[b"MODL", 1, modl]] + [[b"ARRY", 0, container.encode_array(k, v)] for k, v in core.items()])


@lru_cache(maxsize=None)
def seeds():
    """Valid model files: (name, bytes)."""
    models = {
        "svc-rbf-2": _fit(lambda: SVC(C=2.0), X, Y2),
        "svc-poly-3-proba": _fit(lambda: SVC(kernel="poly", degree=2, coef0=1.0, probability=True, random_state=0),
                                 X, Y3),
        "svc-sigmoid-csr": _fit(lambda: SVC(kernel="sigmoid", gamma=0.1), sp.csr_matrix(X), Y3),
        "svc-linear-f32-str": _fit(lambda: SVC(kernel="linear"), X.astype(np.float32),
                                   np.array(["ant", "bee", "cat"])[np.searchsorted([2, 4, 8], Y3)]),
        "svc-wide": _fit(SVC, XW, Y2),
        "linear-2": _fit(LinearSVC, X, Y2),
        "linear-3-u64": _fit(LinearSVC, X, (Y3.astype(np.uint64) + np.uint64(2**63))),
        "bsca-2": _fit(lambda: BudgetedSVC(budget=8, random_state=0), X, Y2),
        "bsgd-3-poly": _fit(lambda: BudgetedSVC(solver="bsgd", kernel="poly", maintenance="remove", budget=8,
                                                random_state=0), X, Y3),
        "bsca-wide": _fit(lambda: BudgetedSVC(budget=8, random_state=0), XW, Y3),
    }
    out = [(name, _bytes_of(est)) for name, est in models.items()]
    out += [(name + "-no-attr", _core_only(models[name])) for name in ("svc-poly-3-proba", "bsgd-3-poly", "linear-2")]
    return tuple(out)


# ---------------------------------------------------------------- mutations

SPECIAL_F8 = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e308, -1e308, 5e-324, 1e30, -1.0]
SPECIAL_U64 = [0, 1, 2, 3, 7, 255, 2**31 - 1, 2**31, 2**32, 2**59, 2**62, 2**63 - 1, 2**63, 2**64 - 1]
ATTR_EDITS = [
    ("attrs", "predict", 1), ("attrs", "fit", {"$tuple": []}), ("attrs", "C", 1.0), ("attrs", "new_", 0),
    ("attrs", "__class__", "x"), ("attrs", "t_", -1), ("attrs", "t_", 3), ("attrs", "n_iter_", 2.5),
    ("attrs", "fit_status_", 1), ("attrs", "_sparse", True), ("attrs", "history_", [{"$np": "V8", "value": 9}]),
    ("attrs", "history_", [{"$np": "<u1", "value": 300}]), ("attrs", "support_", {"$array": "attr/0"}),
    ("attrs", "class_weight_", {"$array": "attr/1"}), ("attrs", "shape_fit_", {"$tuple": [1, 2, 3]}),
    ("attrs", "fit_stats_", {"$dict": [[[1], 2]]}), ("params", "C", {"$array": "attr/0"}),
    ("params", "kernel", "linear"), ("params", "degree", 9), ("params", "unknown", [1, {"$float": "nan"}]),
    ("params", "gamma", {"$np": "<f2", "value": 1e9}), ("attrs", "history_", "deep"),
]


def _attr(data_sections, draw):
    """An edit of the ATTR JSON (or its raw bytes)."""
    tags = [t for t, _, _ in data_sections]
    if b"ATTR" not in tags:
        data_sections.append([b"ATTR", 0, b'{"attrs": {}}'])
        tags.append(b"ATTR")
    k = tags.index(b"ATTR")
    try:
        doc = json.loads(data_sections[k][2])
        assert isinstance(doc, dict)
    except (ValueError, AssertionError, RecursionError):  # an earlier edit broke or deepened it
        doc = {}
    where, name, value = draw(st.sampled_from(ATTR_EDITS))
    if value == "deep":
        depth = draw(st.sampled_from([60, 62, 63, 64, 200, 5000]))
        text = json.dumps(doc)[:-1] + (", " if doc else "") + '"attrs": {"history_": ' + "[" * depth + "]" * depth
        data_sections[k][2] = (text + "}}").encode()
        return
    doc.setdefault(where, {})
    if isinstance(doc[where], dict):
        doc[where][name] = value
    data_sections[k][2] = json.dumps(doc).encode()


def _array_edit(data_sections, draw):
    arrays = [i for i, (t, _, _) in enumerate(data_sections) if t == b"ARRY"]
    if not arrays:
        return
    i = draw(st.sampled_from(arrays))
    payload = bytearray(data_sections[i][2])
    name_len = struct.unpack_from("<H", payload, 0)[0] if len(payload) >= 2 else 0
    head = 2 + name_len
    if len(payload) < head + 2:
        return
    code, ndim = payload[head], payload[head + 1]
    kind = draw(st.sampled_from(["value", "value", "value", "dtype", "ndim", "shape", "name"]))
    if kind == "dtype":
        payload[head] = draw(st.integers(0, 16))
    elif kind == "ndim":
        payload[head + 1] = draw(st.integers(0, 9))
    elif kind == "shape" and ndim and len(payload) >= head + 2 + 8 * ndim:
        d = draw(st.integers(0, ndim - 1))
        old = struct.unpack_from("<Q", payload, head + 2 + 8 * d)[0]
        new = draw(st.sampled_from([old + 1, max(old - 1, 0), 0] + SPECIAL_U64))
        struct.pack_into("<Q", payload, head + 2 + 8 * d, new)
    elif kind == "name":
        names = [b"classes", b"intercept", b"sv", b"coef", b"dual_coef", b"n_support", b"weights", b"used_columns",
                 b"sv_indices", b"sv_indptr", b"prob_a", b"attr/0", b"attr/1", b"sv2"]
        new = draw(st.sampled_from(names))
        payload = bytearray(struct.pack("<H", len(new)) + new) + payload[head:]
    else:
        data_at = head + 2 + 8 * ndim
        size = {1: 8, 2: 4, 3: 4, 4: 8, 5: 1, 6: 1}.get(code)
        if size is None or len(payload) < data_at + size:
            return
        count = (len(payload) - data_at) // size
        at = data_at + size * draw(st.integers(0, count - 1))
        if code == 1:
            struct.pack_into("<d", payload, at, draw(st.sampled_from(SPECIAL_F8)))
        elif code == 2:
            struct.pack_into("<f", payload, at, draw(st.sampled_from(SPECIAL_F8[:5] + [3.0e38, -1.0])))
        elif code == 4:
            value = draw(st.sampled_from([-1, 0, 1, 2, 3, 5, 1000, 2**31, -(2**63), 2**63 - 1]))
            struct.pack_into("<q", payload, at, value)
        elif code == 3:
            struct.pack_into("<i", payload, at, draw(st.sampled_from([-1, 0, 1, 2, 2**31 - 1])))
        else:
            payload[at] = draw(st.integers(0, 255))
    data_sections[i][2] = bytes(payload)


def _modl_edit(data_sections, draw):
    tags = [t for t, _, _ in data_sections]
    if b"MODL" not in tags:
        return
    k = tags.index(b"MODL")
    payload = bytearray(data_sections[k][2])
    if len(payload) < state.MODL.size:
        return
    field = draw(st.sampled_from(["family", "kernel", "degree", "decision", "gamma", "coef0", "n_features", "tail"]))
    if field in ("family", "kernel", "decision"):
        offset = {"family": 0, "kernel": 4, "decision": 12}[field]
        struct.pack_into("<I", payload, offset, draw(st.integers(0, 5)))
    elif field == "degree":
        struct.pack_into("<i", payload, 8, draw(st.sampled_from([-1, 0, 1, 2, 3, 7, 1000, 2**31 - 1])))
    elif field in ("gamma", "coef0"):
        struct.pack_into("<d", payload, 16 if field == "gamma" else 24,
                         draw(st.sampled_from(SPECIAL_F8 + [0.5, 1e-300])))
    elif field == "n_features":
        old = struct.unpack_from("<Q", payload, 32)[0]
        struct.pack_into("<Q", payload, 32, draw(st.sampled_from([old + 1, max(old - 1, 0), 0, 1] + SPECIAL_U64)))
    else:
        payload += bytes(draw(st.binary(max_size=12)))
    data_sections[k][2] = bytes(payload)


def _structure_edit(data_sections, draw):
    n = len(data_sections)
    kind = draw(st.sampled_from(["duplicate", "drop", "swap", "unknown", "required", "flags"]))
    if not n:
        return
    i = draw(st.integers(0, n - 1))
    if kind == "duplicate":
        data_sections.insert(draw(st.integers(0, n)), list(data_sections[i]))
    elif kind == "drop":
        del data_sections[i]
    elif kind == "swap":
        j = draw(st.integers(0, n - 1))
        data_sections[i], data_sections[j] = data_sections[j], data_sections[i]
    elif kind in ("unknown", "required"):
        tag = draw(st.sampled_from([b"ZZZZ", b"CSUM", b"modl", b"ATTr"]))
        data_sections.insert(draw(st.integers(0, n)), [tag, 1 if kind == "required" else 0, b"abc"])
    else:
        data_sections[i][1] = draw(st.sampled_from([0, 1, 2, 0xFFFFFFFF]))


def _byte_edit(data: bytearray, draw) -> bytearray:
    kind = draw(st.sampled_from(["flip", "flip", "truncate", "insert", "delete", "size"]))
    if not data:
        return data
    at = draw(st.integers(0, len(data) - 1))
    if kind == "flip":
        data[at] ^= draw(st.integers(1, 255))
    elif kind == "truncate":
        del data[at:]
    elif kind == "insert":
        data[at:at] = draw(st.binary(min_size=1, max_size=16))
    elif kind == "delete":
        del data[at : at + draw(st.integers(1, 16))]
    else:  # a length field: the header's, or a section's
        fields = [16, 24]
        pos = container.HEADER.size
        while pos + 16 <= len(data):
            fields.append(pos + 8)
            pos += 16 + struct.unpack_from("<Q", data, pos + 8)[0]
        offset = draw(st.sampled_from(fields))
        if offset + 8 <= len(data):
            old = struct.unpack_from("<Q", data, offset)[0]
            struct.pack_into("<Q", data, offset, draw(st.sampled_from([old + 1, max(old - 1, 0)] + SPECIAL_U64)))
    return data


def _reseal(data: bytearray) -> bytearray:
    """As a writer would make it: the header's size and the trailing checksum recomputed."""
    if len(data) >= container.HEADER.size:
        struct.pack_into("<Q", data, 16, len(data))
    if len(data) >= container.HEADER.size + 20:
        struct.pack_into("<I", data, len(data) - 4, zlib.crc32(bytes(data[:-20])))
    return data


@st.composite
def mutated_files(draw):
    name, original = draw(st.sampled_from(seeds()))
    sections = [list(s) for s in raw_sections(original)]
    edits = {"attr": _attr, "array": _array_edit, "modl": _modl_edit, "structure": _structure_edit}
    if draw(st.integers(0, 9)) < 3:  # one value changed, resealed: files that often still load
        edits[draw(st.sampled_from(["attr", "array", "array", "modl"]))](sections, draw)
        return build(sections)
    structured = draw(st.lists(st.sampled_from(sorted(edits)), max_size=2))
    for kind in structured:
        edits[kind](sections, draw)
    data = bytearray(build(sections))
    for _ in range(draw(st.integers(0 if structured else 1, 2))):
        data = _byte_edit(data, draw)
    if draw(st.integers(0, 9)) < 8:
        data = _reseal(data)
    event(f"seed {name}")
    return bytes(data)


# ---------------------------------------------------------------- the oracle


def _query(n_features: int):
    """Five rows of ``n_features`` columns, dense when that is cheap."""
    r = np.random.RandomState(n_features % 1000)
    if n_features <= 20_000:
        return r.randn(5, n_features)
    cols = r.randint(0, n_features, size=10)
    return sp.csr_matrix((r.randn(10), (np.repeat(np.arange(5), 2), cols)), shape=(5, n_features))


def _python_decision(est, Xq):
    if isinstance(est, SVC):
        return est._ovo_decision(Xq)
    d = est.decision_function(Xq)
    return d[:, None] if d.ndim == 1 else d


def compare_readers(path: str) -> str:
    """'refused' or 'accepted'; an AssertionError when the readers disagree."""
    est, py_error = call(load_model, path)
    try:
        summary = _core.model_summary(path)
        cpp_error = None
    except Exception as error:  # noqa: BLE001 -- judged by check_error
        check_error(error)
        summary, cpp_error = None, error
    assert (py_error is None) == (cpp_error is None), (
        f"the readers disagree: Python {'accepted' if py_error is None else 'refused: ' + str(py_error)}; "
        f"C++ {'accepted' if cpp_error is None else 'refused: ' + str(cpp_error)}"
    )
    if py_error is not None:
        return "refused"
    family, n_features, n_classes, n_outputs = summary
    assert (family, n_features, n_classes) == (state.FAMILIES[type(est).__name__], est.n_features_in_,
                                               len(est.classes_))
    Xq = _query(n_features)
    if sp.issparse(Xq) and isinstance(est, SVC) and not est._sparse:
        return "accepted"  # an SVC trained on dense data takes dense queries only (scikit-learn's rule)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a hostile degree or coef0 overflows: both see inf / NaN
        dec, index, labels = _core.model_predict(path, Xq)
        ours = _python_decision(est, Xq)
        predicted = est.predict(Xq)
    assert ours.shape == dec.shape == (Xq.shape[0], n_outputs)
    scale = max(1.0, float(np.max(np.abs(ours[np.isfinite(ours)]), initial=0.0)))
    np.testing.assert_allclose(dec, ours, rtol=1e-9, atol=1e-9 * scale, equal_nan=True)
    if np.all(np.isfinite(dec)):
        np.testing.assert_array_equal(np.asarray(est.classes_)[index], predicted)
    assert labels == [str(c) for c in est.classes_]
    return "accepted"


@examples(300)
@given(mutated_files())
def test_both_readers_agree_on_mutated_files(data):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "m.bsvm")
        with open(path, "wb") as f:
            f.write(data)
        event(compare_readers(path))


def test_every_seed_loads_in_both_readers():
    with tempfile.TemporaryDirectory() as folder:
        for name, data in seeds():
            path = os.path.join(folder, name)
            with open(path, "wb") as f:
                f.write(data)
            assert compare_readers(path) == "accepted", name


# -------------------------------------------------------- LIBSVM / LIBLINEAR


@lru_cache(maxsize=None)
def text_seeds():
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for est, fmt in ((_fit(lambda: SVC(kernel="poly", degree=2), X, Y3), "libsvm"),
                         (_fit(lambda: BudgetedSVC(budget=8, random_state=0), X, Y2), "libsvm"),
                         (_fit(LinearSVC, X, Y3), "liblinear"), (_fit(LinearSVC, X, Y2), "liblinear")):
            path = os.path.join(folder, "m.txt")
            save_model(est, path, format=fmt)
            with open(path, "rb") as f:
                out.append(f.read())
    return tuple(out)


TOKENS = [b"nan", b"inf", b"-inf", b"+-1", b"--1", b"1e400", b"1_0", b"0x10", b"99999999999999999999", b"-1",
          b"0", b"", b"\xff", b":", b"1:", b":1", b"0:1", b"\n", b" ", b"SV", b"w", b"gamma", b"label"]


@examples(300)
@given(st.sampled_from(text_seeds()), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(TOKENS),
                                                         st.integers(0, 8)), min_size=1, max_size=3))
def test_mutated_text_models_load_or_raise_value_error(text, edits):
    data = bytearray(text)
    for at, token, cut in edits:
        at %= len(data) + 1
        data[at : at + cut] = token
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "m.txt")
        with open(path, "wb") as f:
            f.write(bytes(data))
        est, error = call(load_model, path, max_line_bytes=4096)
    if error is None:
        assert all(np.isfinite(v).all() for v in (est.intercept_,)), "a loaded text model holds non-finite numbers"
        event("accepted")
    else:
        event("refused")

