"""load_svmlight against scikit-learn's reader, compressed files, errors."""

import bz2
import gzip
import lzma

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

from budgetsvm import load_svmlight

from conftest import dataset_path


@pytest.mark.parametrize("name", ["a9a.t.bz2", "dna.scale.bz2", "phishing.bz2", "covtype.binary.scale.sub20k.bz2"])
def test_same_result_as_scikit_learn_on_real_files(name):
    path = dataset_path(name)
    X, y = load_svmlight(path)
    X_ref, y_ref = load_svmlight_file(str(path))
    assert X.shape == X_ref.shape
    assert X.indices.dtype == np.int32 and X.indptr.dtype == np.int32
    assert (X != X_ref).nnz == 0
    np.testing.assert_array_equal(y, y_ref)


def test_n_features_and_float32():
    path = dataset_path("a9a.t.bz2")
    X, _ = load_svmlight(path, n_features=123, dtype=np.float32)
    assert X.shape[1] == 123 and X.dtype == np.float32
    with pytest.raises(ValueError, match="smaller than the largest feature index"):
        load_svmlight(path, n_features=100)


def _write(path, text, opener):
    with opener(path, "wb") as f:
        f.write(text.encode())
    return path


@pytest.mark.parametrize("opener, suffix", [(open, ".svm"), (bz2.open, ".bz2"), (gzip.open, ".gz"), (lzma.open, ".xz")])
def test_compressed_and_plain_files(tmp_path, opener, suffix):
    rng = np.random.default_rng(0)
    X = sp.random(200, 30, density=0.2, format="csr", random_state=0)
    y = rng.choice([-1.0, 1.0], size=200)
    plain = tmp_path / "data.svm"
    dump_svmlight_file(X, y, str(plain), zero_based=False)
    path = _write(tmp_path / f"copy{suffix}", plain.read_text(), opener)
    X2, y2 = load_svmlight(path, n_features=30)
    np.testing.assert_allclose(X2.toarray(), X.toarray(), rtol=1e-15)
    np.testing.assert_array_equal(y2, y)


def test_comments_qid_blank_lines_and_signs(tmp_path):
    path = tmp_path / "f.svm"
    path.write_text("# header\n+1 qid:4 1:1.5 4:-2 # note\n\n-1 2:3e-2\r\n0.5\n")
    X, y = load_svmlight(path)
    np.testing.assert_array_equal(y, [1.0, -1.0, 0.5])
    np.testing.assert_array_equal(X.toarray(), [[1.5, 0, 0, -2], [0, 0.03, 0, 0], [0, 0, 0, 0]])
    X0, _ = load_svmlight(path, zero_based=True)
    assert X0.shape == (3, 5)


def test_large_file_streamed_in_several_chunks(tmp_path):
    # More than one 4 MB chunk, so lines straddle chunk boundaries.
    rng = np.random.default_rng(1)
    X = sp.random(30_000, 50, density=0.3, format="csr", random_state=1)
    y = rng.integers(0, 3, size=30_000).astype(float)
    path = tmp_path / "big.svm"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    assert path.stat().st_size > 5_000_000
    X2, y2 = load_svmlight(path, n_features=50)
    # The file holds 16 significant digits: compare with scikit-learn's
    # parse of the same text, which must agree bit for bit.
    X_ref, y_ref = load_svmlight_file(str(path), n_features=50)
    assert (X2 != X_ref).nnz == 0
    np.testing.assert_array_equal(y2, y_ref)
    np.testing.assert_allclose(X2.toarray(), X.toarray(), rtol=1e-15)


@pytest.mark.parametrize(
    "text, match",
    [
        ("1 1:1\nabc 1:2\n", "line 2: cannot parse the label"),
        ("1 1:1\n1 2\n", "line 2: expected <index>:<value>"),
        ("1 3:1 2:1\n", "line 1: feature indices must be strictly increasing"),
        ("1 1:x\n", "line 1: cannot parse the value"),
        ("1 0:1\n", "line 1: feature indices start at 1"),
        ("1 1:inf\n", "line 1: feature values must be finite"),
        ("1,2 1:1\n", "line 1: multi-label"),
    ],
)
def test_malformed_lines_name_line_and_problem(tmp_path, text, match):
    path = tmp_path / "bad.svm"
    path.write_text(text)
    with pytest.raises(ValueError, match=match) as info:
        load_svmlight(path)
    assert "bad.svm" in str(info.value)


def test_missing_file_and_bad_arguments(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_svmlight(tmp_path / "nope.svm")
    path = tmp_path / "ok.svm"
    path.write_text("1 1:1\n")
    with pytest.raises(ValueError, match="dtype"):
        load_svmlight(path, dtype=np.int32)
    with pytest.raises(ValueError, match="n_features"):
        load_svmlight(path, n_features=0)


def test_result_is_accepted_by_scikit_learn_svc():
    from sklearn.svm import SVC

    X, y = load_svmlight(dataset_path("dna.scale.bz2"))
    SVC(kernel="linear").fit(X[:300], y[:300])


def test_zero_based_auto_and_empty_file(tmp_path):
    # issue 15, item 7: "auto" was taken as truthy (a 1-based file got an empty column 0)
    one = tmp_path / "one.svm"
    one.write_text("+1 1:0.5 3:2\n-1 2:1\n")
    zero = tmp_path / "zero.svm"
    zero.write_text("+1 0:0.5 2:2\n-1 1:1\n")
    X1, _ = load_svmlight(one, zero_based="auto")
    X0, _ = load_svmlight(zero, zero_based="auto")
    expected = np.array([[0.5, 0.0, 2.0], [0.0, 1.0, 0.0]])
    np.testing.assert_array_equal(X1.toarray(), expected)
    np.testing.assert_array_equal(X0.toarray(), expected)
    np.testing.assert_array_equal(load_svmlight(one, zero_based=False)[0].toarray(), expected)
    with pytest.raises(ValueError, match="zero_based"):
        load_svmlight(one, zero_based="yes")
    empty = tmp_path / "empty.svm"
    empty.write_text("")
    X, y = load_svmlight(empty)
    assert X.shape == (0, 1) and y.shape == (0,)


# ---------------------------------------------- one grammar of numbers (issue 64)


@pytest.mark.parametrize("token", ["+-1", "-+1", "++1", "--1", "+-0.5", "-+inf", "0x10", "1_0", "1e", "1..2", "."])
def test_numbers_take_one_optional_sign_in_labels_and_values(tmp_path, token):
    # '+-1' was read as -1 (the parser skipped a '+' and then read a signed number)
    path = tmp_path / "signs.svm"
    path.write_text(f"1 1:1\n{token} 1:1\n")
    with pytest.raises(ValueError, match="signs.svm: line 2: cannot parse the label"):
        load_svmlight(path)
    path.write_text(f"1 1:1\n1 1:1 2:{token}\n")
    with pytest.raises(ValueError, match="signs.svm: line 2: cannot parse the value"):
        load_svmlight(path)
    # scikit-learn's reader (Python's float) refuses them too, but for "1_0"
    # (Python's digit grouping, not a number of this grammar)
    if token != "1_0":
        with pytest.raises(ValueError):
            load_svmlight_file(str(path))


def test_numbers_of_the_grammar_read_as_python_and_scikit_learn_read_them(tmp_path):
    tokens = ["+1", "-1", "1.", ".5", "-.5", "+.5e+3", "1E-3", "-2.5e1", "007", "1e-400", "-0", "1e308", "5e-324"]
    path = tmp_path / "good.svm"
    path.write_text("".join(f"{t} 1:{t}\n" for t in tokens))
    X, y = load_svmlight(path, n_features=1)
    expected = np.array([float(t) for t in tokens])
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(X.toarray().ravel(), expected)
    X_ref, y_ref = load_svmlight_file(str(path), n_features=1)
    np.testing.assert_array_equal(y, y_ref)
    np.testing.assert_array_equal(X.toarray(), X_ref.toarray())


# -------------------------------------------------------- the line limit


def test_a_line_longer_than_max_line_bytes_names_its_number_and_the_limit(tmp_path):
    path = tmp_path / "long.svm"
    long_line = "1 " + " ".join(f"{k}:0.5" for k in range(1, 40))  # 232 bytes
    path.write_text(f"1 1:1\n# note\n{long_line}\n-1 2:1\n")
    with pytest.raises(ValueError, match=r"long.svm: line 3: longer than max_line_bytes=100 bytes"):
        load_svmlight(path, max_line_bytes=100)
    X, y = load_svmlight(path, max_line_bytes=len(long_line))  # settable: a line of exactly the limit is read
    assert X.shape == (3, 39) and X[1].nnz == 39
    assert load_svmlight(path)[0].shape == (3, 39)  # the default (16 MiB) reads it
    for bad in (0, -1, 2.5, True, "16M"):
        with pytest.raises(ValueError, match="max_line_bytes must be a positive integer"):
            load_svmlight(path, max_line_bytes=bad)


def test_the_default_limit_is_the_cores():
    from budgetsvm import _core
    from budgetsvm._limits import MAX_LINE_BYTES

    assert _core.SVMLIGHT_MAX_LINE_BYTES == MAX_LINE_BYTES == 16 * 2**20


def test_a_compressed_file_without_newlines_stops_at_the_limit(tmp_path):
    # 40 MB of zero bytes compress to 40 kB: the limit holds on the decompressed line
    path = tmp_path / "zeros.gz"
    with gzip.open(path, "wb") as f:
        for _ in range(40):
            f.write(bytes(1 << 20))
    with pytest.raises(ValueError, match=r"zeros.gz: line 1: longer than max_line_bytes=16777216 bytes"):
        load_svmlight(path)
