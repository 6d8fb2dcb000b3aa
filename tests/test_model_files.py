"""Model files: save_model / load_model in budgetsvm's format (bit-equal
round trips, the C++ reader and writer agreeing with Python), damaged files,
and LIBSVM / LIBLINEAR interop checked against libsvm-official and
liblinear-official."""

from __future__ import annotations

import pickle
import struct
import warnings
import zlib

import numpy as np
import pytest
import scipy.sparse as sp

from budgetsvm import BudgetedSVC, LinearSVC, SVC, _core, load_model, save_model
from budgetsvm._data import as_supported, core_view
from budgetsvm.model_files._container import HEADER, MAGIC
from budgetsvm.model_files import load_model_bytes

rng = np.random.RandomState(0)
X = rng.randn(160, 5)
Y3 = np.array(["ant", "bee", "cat"])[(X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)]
Y2 = np.where(X[:, 0] + 0.5 * X[:, 2] > 0, 7, -3)
# wide sparse data: trained on its used columns (a column map in the file)
XW = sp.random(160, 3000, density=0.003, random_state=1, format="csr")
XW.data[:] = rng.randn(XW.nnz)
Q2 = np.ascontiguousarray(X[:3, :2])
INPUTS = {"dense": X, "csr": sp.csr_matrix(X), "float32": X.astype(np.float32), "wide": XW}
ESTIMATORS = {
    "svc": lambda: SVC(),
    "svc-poly": lambda: SVC(kernel="poly", degree=2, coef0=1.0),
    "svc-proba": lambda: SVC(probability=True, random_state=0),
    "linear": lambda: LinearSVC(),
    "bsca": lambda: BudgetedSVC(budget=25, random_state=0),
    "bsgd": lambda: BudgetedSVC(solver="bsgd", budget=25, random_state=0, kernel="poly", maintenance="remove"),
    "bsca-proba": lambda: BudgetedSVC(budget=25, random_state=0, probability=True),
}


def fitted(name, data, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # probability's FutureWarning, convergence
        return ESTIMATORS[name]().fit(INPUTS[data], y)


def native_decision(est, Xq):
    """The decision values the C++ Model reports: LIBSVM's one-vs-one values for SVC."""
    if isinstance(est, SVC):
        return est._ovo_decision(Xq)
    d = est.decision_function(Xq)
    return d[:, None] if d.ndim == 1 else d


@pytest.mark.parametrize("data", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(ESTIMATORS))
@pytest.mark.parametrize("labels", ["strings", "ints"])
def test_round_trip_python_and_cpp(tmp_path, name, data, labels):
    y = Y3 if labels == "strings" else Y2
    est = fitted(name, data, y)
    Xq = INPUTS[data]
    path = tmp_path / "model.bsvm"
    save_model(est, path)
    back = load_model(path)
    assert type(back) is type(est)
    np.testing.assert_array_equal(back.classes_, est.classes_)
    assert back.classes_.dtype == est.classes_.dtype
    assert np.array_equal(back.decision_function(Xq), est.decision_function(Xq))  # bit-equal
    np.testing.assert_array_equal(back.predict(Xq), est.predict(Xq))
    if name in ("svc-proba", "bsca-proba"):
        assert np.array_equal(back.predict_proba(Xq), est.predict_proba(Xq))
    for attr in ("n_iter_", "n_features_in_", "class_weight_", "history_", "fit_stats_", "fit_status_"):
        if hasattr(est, attr):
            assert repr(getattr(back, attr)) == repr(getattr(est, attr)), attr
    assert back.get_params() == est.get_params()

    # Python-written file, read and evaluated by the C++ Model
    dec, index, cpp_labels = _core.model_predict(str(path), core_view(as_supported(Xq)), 2)
    ref = native_decision(est, Xq)
    np.testing.assert_allclose(dec, ref, rtol=1e-12, atol=1e-12 * np.max(np.abs(ref)))
    assert cpp_labels == [str(c) for c in est.classes_]
    np.testing.assert_array_equal(np.asarray(est.classes_)[index], est.predict(Xq))

    # C++-written file (load and save in C++), read in Python: still bit-equal
    _core.model_resave(str(path), str(tmp_path / "cpp.bsvm"))
    again = load_model(tmp_path / "cpp.bsvm")
    assert np.array_equal(again.decision_function(Xq), est.decision_function(Xq))
    if name in ("svc-proba", "bsca-proba"):  # the sigmoids read and written back by the C++ reader too
        assert np.array_equal(again.predict_proba(Xq), est.predict_proba(Xq))


def test_pickle_still_works_and_loaded_models_pickle(tmp_path):
    est = fitted("bsca", "dense", Y3)
    save_model(est, tmp_path / "m.bsvm")
    for obj in (est, load_model(tmp_path / "m.bsvm")):
        copy = pickle.loads(pickle.dumps(obj))
        assert np.array_equal(copy.decision_function(X), est.decision_function(X))


def test_loaded_model_refits(tmp_path):
    est = fitted("svc", "dense", Y3)
    save_model(est, tmp_path / "m.bsvm")
    back = load_model(tmp_path / "m.bsvm").fit(X, Y3)
    np.testing.assert_array_equal(back.predict(X), est.predict(X))


def test_loaded_budgeted_model_continues_partial_fit(tmp_path):
    """BSGD's step counter t_ and n_samples_seen_ travel in the file: a loaded
    model continues partial_fit exactly as the saved one would."""
    for solver in ("bsgd", "bsca"):
        est = BudgetedSVC(solver=solver, budget=20, random_state=0)
        est.partial_fit(X[:80], Y3[:80], classes=np.unique(Y3))
        save_model(est, tmp_path / "m.bsvm")
        back = load_model(tmp_path / "m.bsvm")
        assert back.t_ == est.t_ and back.n_samples_seen_ == est.n_samples_seen_
        est.partial_fit(X[80:], Y3[80:])
        back.partial_fit(X[80:], Y3[80:])
        assert np.array_equal(back.decision_function(X), est.decision_function(X))


def test_unsaveable_models_say_why(tmp_path):
    pre = SVC(kernel="precomputed").fit(X @ X.T, Y2)
    with pytest.raises(ValueError, match="precomputed"):
        save_model(pre, tmp_path / "m")
    with pytest.raises(ValueError, match="format must be one of"):
        save_model(fitted("svc", "dense", Y2), tmp_path / "m", format="pickle")
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        save_model(SVC(), tmp_path / "m")


# ---------------------------------------------------------------- bad input


@pytest.fixture(scope="module")
def small_file(tmp_path_factory):
    est = BudgetedSVC(budget=3, epochs=1, random_state=0).fit(X[:20, :2], Y3[:20])
    path = tmp_path_factory.mktemp("m") / "small.bsvm"
    save_model(est, path)
    return path.read_bytes()


def test_truncated_at_every_byte_is_value_error(tmp_path, small_file):
    path = tmp_path / "cut.bsvm"
    for cut in range(len(small_file)):
        with pytest.raises(ValueError):
            load_model_bytes(small_file[:cut])
        if cut % 5 == 0 or cut < 64:  # the C++ reader (through a file: slower)
            path.write_bytes(small_file[:cut])
            with pytest.raises(ValueError):
                _core.model_predict(str(path), Q2)


def test_damaged_headers(tmp_path, small_file):
    path = tmp_path / "bad.bsvm"
    cases = {
        "wrong magic": (b"\x89BSVX" + small_file[5:], "not a budgetsvm model file|not a model file"),
        "future version": (small_file[:8] + struct.pack("<I", 99) + small_file[12:], "newer"),
        "size mismatch": (small_file + b"\0", "size mismatch"),
        "unrelated": (b"PK\x03\x04 a zip file, not a model", "not a model file"),
        "empty": (b"", "not a model file"),
    }
    for data, message in cases.values():
        path.write_bytes(data)
        with pytest.raises(ValueError, match=message):
            load_model(path)
        if data.startswith(MAGIC[:4]):
            with pytest.raises(ValueError):
                _core.model_predict(str(path), Q2)


def _sections(data):
    """(offset of the length field, length) of each section."""
    out, pos = [], HEADER.size
    while pos < len(data):
        length = struct.unpack_from("<Q", data, pos + 8)[0]
        out.append((data[pos : pos + 4], pos + 8, length))
        pos += 16 + length
    return out


def test_sizes_inconsistent_with_the_file(tmp_path, small_file):
    path = tmp_path / "bad.bsvm"
    for _tag, offset, length in _sections(small_file):
        for wrong in (length + 1, length - 1, 2**63, 2**64 - 1):
            data = bytearray(small_file)
            struct.pack_into("<Q", data, offset, wrong)
            path.write_bytes(bytes(data))
            with pytest.raises(ValueError):
                load_model(path)
            with pytest.raises(ValueError):
                _core.model_predict(str(path), Q2)
    # an array's shape that claims more elements than its bytes hold
    first_array = next(off for tag, off, _ in _sections(small_file) if tag == b"ARRY")
    name_len = struct.unpack_from("<H", small_file, first_array + 8)[0]
    shape_at = first_array + 8 + 2 + name_len + 2
    data = bytearray(small_file)
    struct.pack_into("<Q", data, shape_at, 2**40)
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum mismatch"):
        load_model(path)
    path.write_bytes(_with_checksum(_without_checksum(bytes(data))))  # as a writer would make it
    with pytest.raises(ValueError, match="does not fit"):
        load_model(path)
    with pytest.raises(ValueError, match="does not fit"):
        _core.model_predict(str(path), Q2)


def test_every_flipped_byte_is_refused(tmp_path, small_file):
    # the last section (CSUM, required) is the CRC-32 of every byte before it, and its own tag, flags and length
    # are fixed: a changed byte anywhere (header, any section, the checksum's own bytes) is an error in both readers
    path = tmp_path / "flip.bsvm"
    assert small_file[-20:-16] == b"CSUM"
    for k in range(len(small_file)):
        data = bytearray(small_file)
        data[k] ^= 0x5A
        path.write_bytes(bytes(data))
        with pytest.raises(ValueError):
            load_model(path)
        if k % 4 == 0 or k >= len(small_file) - 24:  # the C++ reader (through a file: slower)
            with pytest.raises(ValueError):
                _core.model_predict(str(path), Q2)


def _write(path, data):
    path.write_bytes(data)
    return path


def _with_checksum(body):
    """The bytes of a file without a checksum, with its CSUM section appended (as the writer makes it)."""
    data = bytearray(body + b"CSUM" + struct.pack("<IQ", 0, 4) + b"\0" * 4)
    n = struct.unpack_from("<Q", body, 24)[0]
    struct.pack_into("<QQ", data, 16, len(data), n + 1)
    struct.pack_into("<I", data, len(data) - 4, zlib.crc32(bytes(data[:-20])))
    return bytes(data)


def _without_checksum(data):
    """The bytes a writer from before the checksum made: the CSUM section taken off."""
    body = bytearray(data[:-20])
    struct.pack_into("<QQ", body, 16, len(body), struct.unpack_from("<Q", data, 24)[0] - 1)
    return bytes(body)


def test_the_checksum_is_required(tmp_path, small_file):
    """A file without its CSUM section (written before 2026-12-03, or with the section cut off or renamed) is
    refused by both readers: otherwise damage to the checksum's own tag turned it into an unknown optional
    section, and a second damaged byte loaded silently."""
    old = _without_checksum(small_file)
    assert _with_checksum(old) == small_file
    renamed = bytearray(small_file)
    renamed[-20:-16] = b"CSUX"  # the tag damaged: an unknown optional section, as readers before took it
    damaged_twice = bytearray(renamed)
    damaged_twice[HEADER.size + 30] ^= 0x01  # and one byte of the model
    flags = bytearray(small_file)
    flags[-16] = 1  # the checksum's flags: 0
    for data in (old, bytes(renamed), bytes(damaged_twice), bytes(flags)):
        path = _write(tmp_path / "m.bsvm", data)
        with pytest.raises(ValueError, match="checksum"):
            load_model(path)
        with pytest.raises(ValueError, match="checksum"):
            _core.model_predict(str(path), Q2)
    # a section after the checksum: not a file any writer makes
    data = bytearray(small_file + b"ZZZZ" + struct.pack("<IQ", 0, 3) + b"abc")
    struct.pack_into("<QQ", data, 16, len(data), struct.unpack_from("<Q", small_file, 24)[0] + 1)
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum"):
        load_model(path)
    with pytest.raises(ValueError, match="checksum"):
        _core.model_predict(str(path), Q2)


def test_unknown_sections(tmp_path, small_file):
    old = _without_checksum(small_file)
    n = struct.unpack_from("<Q", old, 24)[0]

    def with_section(flags):
        extra = b"ZZZZ" + struct.pack("<IQ", flags, 3) + b"abc"
        data = bytearray(old + extra)
        struct.pack_into("<QQ", data, 16, len(data), n + 1)
        return _with_checksum(bytes(data))

    path = tmp_path / "m.bsvm"
    path.write_bytes(with_section(0))  # optional: skipped
    assert load_model(path).predict(X[:3, :2]).shape == (3,)
    _core.model_predict(str(path), Q2)
    path.write_bytes(with_section(1))  # required: refused
    with pytest.raises(ValueError, match="ZZZZ"):
        load_model(path)
    with pytest.raises(ValueError, match="ZZZZ"):
        _core.model_predict(str(path), Q2)


def test_features_beyond_the_model(tmp_path):
    est = fitted("svc", "dense", Y2)
    save_model(est, tmp_path / "m.bsvm")
    with pytest.raises(ValueError, match="features"):
        load_model(tmp_path / "m.bsvm").predict(np.zeros((2, 6)))
    with pytest.raises(ValueError, match="features"):
        _core.model_predict(str(tmp_path / "m.bsvm"), np.zeros((2, 6)))


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_model(tmp_path / "nope.bsvm")
    with pytest.raises(ValueError, match="cannot open"):
        _core.model_predict(str(tmp_path / "nope.bsvm"), X[:2])


# ------------------------------------------------------- LIBSVM / LIBLINEAR

try:
    from libsvm import svmutil
    from liblinear import liblinearutil
except ImportError:  # pragma: no cover - the test extra installs both
    svmutil = liblinearutil = None
needs_references = pytest.mark.skipif(svmutil is None, reason="libsvm-official / liblinear-official not installed")


def libsvm_labels(path, Xq):
    model = svmutil.svm_load_model(str(path))
    labels, _, _ = svmutil.svm_predict([0] * Xq.shape[0], sp.csr_matrix(Xq), model, "-q")
    return np.array(labels)


def liblinear_labels(path, Xq):
    model = liblinearutil.load_model(str(path))
    labels, _, _ = liblinearutil.predict([0] * Xq.shape[0], sp.csr_matrix(Xq), model, "-q")
    return np.array(labels)


Y3_INT = np.array([3, -1, 7])[(X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)]


@needs_references
@pytest.mark.parametrize(
    "make, y",
    [
        (lambda: SVC(), Y2),
        (lambda: SVC(), Y3_INT),
        (lambda: SVC(kernel="poly", degree=2, coef0=1.0), Y3_INT),
        (lambda: SVC(kernel="linear"), Y2),
        (lambda: SVC(kernel="sigmoid", gamma=0.05), Y3_INT),
        (lambda: BudgetedSVC(budget=30, random_state=0), Y2),
        (lambda: BudgetedSVC(solver="bsgd", budget=30, fit_intercept=False, random_state=0), Y2),
    ],
)
def test_libsvm_export_predicts_the_same_in_libsvm(tmp_path, make, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = make().fit(X, y)
    path = tmp_path / "model.txt"
    save_model(est, path, format="libsvm")
    ours = est.predict(X)
    np.testing.assert_array_equal(libsvm_labels(path, X), ours)
    back = load_model(path, n_features=X.shape[1])
    assert isinstance(back, SVC)
    np.testing.assert_array_equal(back.predict(X), ours)
    np.testing.assert_allclose(back.decision_function(X), est.decision_function(X), rtol=1e-12, atol=1e-12)


@needs_references
@pytest.mark.parametrize("make, y", [(lambda: LinearSVC(), Y2), (lambda: LinearSVC(), Y3_INT),
                                     (lambda: LinearSVC(fit_intercept=False, loss="hinge"), Y2)])
def test_liblinear_export_predicts_the_same_in_liblinear(tmp_path, make, y):
    est = make().fit(X, y)
    path = tmp_path / "model.txt"
    save_model(est, path, format="liblinear")
    np.testing.assert_array_equal(liblinear_labels(path, X), est.predict(X))
    back = load_model(path)
    assert isinstance(back, LinearSVC)
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    np.testing.assert_allclose(back.decision_function(X), est.decision_function(X), rtol=1e-12, atol=1e-12)


@needs_references
def test_models_trained_by_libsvm_and_liblinear_load(tmp_path):
    path = tmp_path / "model.txt"
    Xs = sp.csr_matrix(X)
    for options in ("-q -c 1 -g 0.2", "-q -t 1 -d 2 -r 1", "-q -t 0 -b 1"):
        model = svmutil.svm_train(list(Y3_INT), Xs, options)
        svmutil.svm_save_model(str(path), model)
        est = load_model(path, n_features=X.shape[1])
        np.testing.assert_array_equal(est.predict(X), libsvm_labels(path, X))
        np.testing.assert_array_equal(est.classes_, [-1, 3, 7])
    for y, options in ((Y3_INT, "-q -B 1"), (Y2, "-q -s 4"), (Y2, "-q -s 3")):
        model = liblinearutil.train(list(y), Xs, options)
        liblinearutil.save_model(str(path), model)
        np.testing.assert_array_equal(load_model(path).predict(X), liblinear_labels(path, X))


def test_inexpressible_models_say_why(tmp_path):
    path = tmp_path / "m.txt"
    with pytest.raises(ValueError, match="Crammer-Singer"):
        save_model(BudgetedSVC(solver="bsgd", budget=10).fit(X, Y3_INT), path, format="libsvm")
    with pytest.raises(ValueError, match="one-vs-rest"):
        save_model(BudgetedSVC(budget=10).fit(X, Y3_INT), path, format="libsvm")
    with pytest.raises(ValueError, match="integer class labels"):
        save_model(fitted("svc", "dense", Y3), path, format="libsvm")
    with pytest.raises(ValueError, match="integer class labels"):
        save_model(LinearSVC().fit(X, Y3), path, format="liblinear")
    with pytest.raises(TypeError, match="liblinear"):
        save_model(LinearSVC().fit(X, Y2), path, format="libsvm")
    with pytest.raises(TypeError, match="libsvm"):
        save_model(fitted("svc", "dense", Y2), path, format="liblinear")


def test_damaged_libsvm_files(tmp_path):
    est = SVC().fit(X, Y3_INT)
    path = tmp_path / "m.txt"
    save_model(est, path, format="libsvm")
    text = path.read_bytes()
    for cut in [*range(0, len(text), max(1, len(text) // 300)), *range(len(text) - 40, len(text))]:
        path.write_bytes(text[:cut])  # every cut: inside a line (no final newline), or lines missing
        with pytest.raises(ValueError):
            load_model(path, n_features=X.shape[1])
    path.write_bytes(text.replace(b"rbf", b"precomputed"))
    with pytest.raises(ValueError, match="kernel_type"):
        load_model(path)
    path.write_bytes(text.replace(b"c_svc", b"epsilon_svr"))
    with pytest.raises(ValueError, match="label does not belong in a epsilon_svr model"):
        load_model(path)
    with pytest.raises(ValueError, match="n_features"):
        save_model(est, path, format="libsvm")
        load_model(path, n_features=2)


@pytest.mark.parametrize("fmt", ["libsvm", "liblinear"])
def test_text_models_cut_inside_their_last_line(tmp_path, fmt):
    est = (BudgetedSVC(budget=30, random_state=0) if fmt == "libsvm" else LinearSVC()).fit(X, Y2)
    path = tmp_path / "m.txt"
    save_model(est, path, format=fmt)
    text = path.read_bytes()
    assert text.endswith(b"\n")
    for cut in range(len(text) - 30, len(text)):
        path.write_bytes(text[:cut])
        with pytest.raises(ValueError, match="truncated"):
            load_model(path)
    path.write_bytes(text)
    np.testing.assert_array_equal(load_model(path).decision_function(X), est.decision_function(X))


def test_docstring_examples_run():
    import doctest

    import budgetsvm._install_paths
    import budgetsvm.model_files._save_load

    for module in (budgetsvm.model_files._save_load, budgetsvm._install_paths):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_get_include_holds_the_headers():
    import os

    import budgetsvm

    assert os.path.isfile(os.path.join(budgetsvm.get_include(), "budgetsvm", "model", "io.hpp"))
