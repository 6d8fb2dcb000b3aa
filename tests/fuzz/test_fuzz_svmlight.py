"""Fuzzing the svmlight reader: file bytes from a grammar of valid and broken
lines (labels, qid, index:value pairs, comments, huge indices, garbage),
plain or compressed. ``load_svmlight`` either returns a well-formed CSR
matrix of finite values that agrees with scikit-learn's reader wherever that
accepts the file too, or raises ValueError naming the line. Numbers: the C++
reader accepts exactly the tokens of the one grammar (``_numbers.NUMBER``,
also the command line's), with Python's value for each; lines past
``max_line_bytes`` are refused however the bytes are chunked."""

from __future__ import annotations

import bz2
import gzip
import lzma
import math
import os
import tempfile

import numpy as np
from .fuzzing import call, examples
from hypothesis import event, given
from hypothesis import strategies as st
from sklearn.datasets import load_svmlight_file

from budgetsvm import _core, load_svmlight
from budgetsvm.cli._numbers import NUMBER


def mostly(valid, broken):
    """``valid`` nine times in ten: files with one broken token in every
    other line would almost never be read through to the end."""
    return st.integers(0, 9).flatmap(lambda k: broken if k == 0 else valid)


NUMBERS = mostly(
    st.one_of(
        st.integers(-3, 3).map(str),
        st.floats(-1e6, 1e6, allow_nan=False).map(repr),
        st.sampled_from(["+1", "-1", "1e5", "1E-3", ".5", "5.", "1e300", "1e-400", "3.4e38", "-3.5e38"]),
    ),
    st.sampled_from(["0x10", "1e400", "nan", "inf", "-inf", "", "abc", "1,2", "--1", "1e", "+-1", "-+1", "+-inf"]),
)
INDICES = mostly(
    st.integers(0, 12).map(str),
    st.sampled_from(["-1", "+3", "2147483647", "2147483648", "4294967296", "9223372036854775807",
                     "9223372036854775808", "99999999999999999999", "1.5", "x", ""]),
)
SPACES = st.sampled_from([" ", "  ", "\t", " \t "])


@st.composite
def lines(draw):
    kind = draw(st.sampled_from(["sorted"] * 12 + ["free", "comment", "blank", "garbage"]))
    if kind == "comment":
        return "#" + draw(st.text(max_size=10)).replace("\n", " ")
    if kind == "blank":
        return draw(st.sampled_from(["", " ", "\t", "\r"]))
    if kind == "garbage":
        return draw(st.text(max_size=20)).replace("\n", " ")
    parts = [draw(NUMBERS)]
    if draw(st.integers(0, 5)) == 0:
        parts.append("qid:" + draw(st.sampled_from(["1", "42", "-3", "x", ""])))
    if kind == "sorted":
        columns = sorted(draw(st.sets(st.integers(0, 12), max_size=5)))
        if draw(st.integers(0, 7)) == 0:
            columns.append(draw(st.sampled_from([2**31 - 2, 2**31 - 1, 2**31, 2**40, 2**63 - 2, 2**63 - 1])))
        pairs = [f"{c}:{draw(NUMBERS)}" for c in columns]
    else:
        pairs = [f"{draw(INDICES)}:{draw(NUMBERS)}" for _ in range(draw(st.integers(0, 4)))]
    parts += pairs
    line = draw(SPACES).join(parts)
    if draw(st.integers(0, 5)) == 0:
        line += " # " + draw(st.text(max_size=8)).replace("\n", " ")
    return line + draw(st.sampled_from(["", "\r", " "]))


@st.composite
def svmlight_files(draw):
    text = "\n".join(draw(st.lists(lines(), max_size=8)))
    if draw(st.booleans()):
        text += "\n"
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        data = draw(st.binary(max_size=60))  # raw bytes, NUL and invalid UTF-8 included
    return data, draw(st.sampled_from(["plain", "gz", "bz2", "xz"]))


def write(directory: str, data: bytes, compression: str) -> str:
    path = os.path.join(directory, "data.svm")
    opener = {"plain": open, "gz": gzip.open, "bz2": bz2.open, "xz": lzma.open}[compression]
    with opener(path, "wb") as f:
        f.write(data)
    return path


def check_structure(X, y, dtype):
    n = y.shape[0]
    assert y.dtype == np.float64 and y.ndim == 1 and np.all(np.isfinite(y))
    assert X.format == "csr" and X.shape[0] == n and X.shape[1] >= 1 and X.dtype == dtype
    assert np.all(np.isfinite(X.data)), "a non-finite value was returned"
    _core.check_csr(X.indices, X.indptr, X.shape[0], X.shape[1])  # raises if malformed
    assert X.has_canonical_format


def reference(path, zero_based, dtype, n_features):
    try:
        return load_svmlight_file(path, zero_based=zero_based, dtype=dtype, n_features=n_features)
    except (ValueError, OverflowError, UnicodeDecodeError, IndexError):
        return None


@examples(400)
@given(
    svmlight_files(),
    st.sampled_from([False, True, "auto"]),
    st.sampled_from([np.float64, np.float32]),
    st.sampled_from([None, None, 1, 20, 2**40]),
)
def test_load_svmlight(file, zero_based, dtype, n_features):
    data, compression = file
    with tempfile.TemporaryDirectory() as directory:
        path = write(directory, data, compression)
        result, error = call(load_svmlight, path, n_features=n_features, dtype=dtype, zero_based=zero_based)
        expected = reference(path, zero_based, dtype, n_features)
    if error is not None:
        assert isinstance(error, ValueError), error
        event("error")
        return
    event("read")
    X, y = result
    check_structure(X, y, dtype)
    if expected is not None:
        X_ref, y_ref = expected
        assert X.shape == X_ref.shape
        np.testing.assert_array_equal(y, y_ref)
        assert (X != X_ref).nnz == 0, "values differ from scikit-learn's reader"


@examples(200)
@given(svmlight_files(), st.lists(st.integers(0, 80), max_size=6), st.booleans(), st.booleans())
def test_parser_is_independent_of_chunking(file, cuts, float32, zero_based):
    """The C++ parser gives the same arrays (or the same error) however the
    bytes are split into chunks: lines straddle chunk boundaries."""
    data, _ = file

    def parse(chunks):
        parser = _core.SvmlightParser(float32=float32, zero_based=zero_based)
        for chunk in chunks:
            parser.feed(chunk)
        return parser.finish()

    whole, error_whole = call(parse, [data])
    bounds = sorted({min(c, len(data)) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0] + bounds, bounds + [len(data)])]
    split, error_split = call(parse, pieces)
    assert (error_whole is None) == (error_split is None)
    if error_whole is not None:
        assert str(error_whole) == str(error_split)
        return
    for a, b in zip(whole[:4], split[:4]):
        np.testing.assert_array_equal(a, b)
    assert whole[4] == split[4]


# tokens near numbers: signs, points, exponents, the letters of inf / nan,
# Python's digit grouping, hex
NUMBERISH = st.text(alphabet="+-.eE0123456789infatyINFATY_x", max_size=9) | st.sampled_from(
    ["+-1", "-+1", "+.5", "-.5e-3", "5.", "1e+", "infinity", "-Infinity", "NaN", "1_0", "0x1p3", "1e400", "1e-400"]
)


@examples(1000)
@given(NUMBERISH, st.sampled_from(["label", "value"]), st.booleans())
def test_numbers_follow_one_grammar_in_labels_and_values(token, where, float32):
    """The reader takes a token iff it is a number of the grammar (the regex
    the command line uses too) and finite, and reads Python's value."""
    line = (f"{token} 1:1\n" if where == "label" else f"1 1:{token}\n").encode()

    def parse():
        parser = _core.SvmlightParser(float32=float32, zero_based=False)
        parser.feed(line)
        return parser.finish()

    result, error = call(parse)
    finite = NUMBER.fullmatch(token) is not None and math.isfinite(float(token))
    if finite and where == "value" and float32:
        finite = abs(float(token)) <= float(np.finfo(np.float32).max)
    assert (error is None) == finite, (token, where, error)
    if error is None:
        event("number")
        read = result[3][0] if where == "label" else result[0][0]
        expected = float(token) if where == "label" or not float32 else np.float32(float(token))
        assert read == expected or (read == 0 and expected == 0), (token, read, expected)
    else:
        event("refused")
        assert str(error).startswith("line 1: ")


LONG_LINE = b"1 " + b" ".join(b"%d:1" % k for k in range(1, 21))


@examples(200)
@given(st.lists(st.sampled_from([b"1 1:1", b"-1 2:0.5 3:1", b"# c", b"", LONG_LINE]), max_size=6),
       st.integers(1, 90), st.lists(st.integers(0, 400), max_size=5))
def test_the_line_limit_is_independent_of_chunking(lines_, limit, cuts):
    """A line longer than max_line_bytes is the same error (its number, the
    limit) whether it arrives whole or cut anywhere; shorter ones are read."""
    data = b"\n".join(lines_) + b"\n"

    def parse(chunks):
        parser = _core.SvmlightParser(float32=False, zero_based=False, max_line_bytes=limit)
        for chunk in chunks:
            parser.feed(chunk)
        return parser.finish()

    bounds = sorted({min(c, len(data)) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0] + bounds, bounds + [len(data)])]
    whole, error_whole = call(parse, [data])
    split, error_split = call(parse, pieces)
    too_long = [i + 1 for i, text in enumerate(lines_) if len(text) > limit]
    if too_long:
        expected = f"line {too_long[0]}: longer than max_line_bytes={limit} bytes"
        assert str(error_whole).startswith(expected) and str(error_split) == str(error_whole)
    else:
        assert error_whole is None and error_split is None
        for a, b in zip(whole[:4], split[:4]):
            np.testing.assert_array_equal(a, b)
