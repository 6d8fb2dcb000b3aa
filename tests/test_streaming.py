"""iter_svmlight against load_svmlight, its memory bound and errors;
shuffle_chunks and shuffle_svmlight: permutations that mix label-sorted input
in bounded memory. Every file is generated here."""

import bz2
import doctest
import gzip
import io
import lzma
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

import budgetsvm.io.external_shuffle
import budgetsvm.io.shuffle
import budgetsvm.io.streaming
from budgetsvm import iter_svmlight, load_svmlight, shuffle_chunks, shuffle_svmlight
from budgetsvm.io import BlockReader

OPENERS = {"plain": open, "gz": gzip.open, "bz2": bz2.open, "xz": lzma.open}


def _text(n_rows, n_features, zero_based, seed=0):
    X = sp.random(n_rows, n_features, density=0.3, format="csr", random_state=seed)
    X.data = np.round(X.data * 10 - 5, 3)
    y = np.random.default_rng(seed).choice([-1.0, 1.0, 2.0], size=n_rows)
    buffer = io.BytesIO()
    dump_svmlight_file(X, y, buffer, zero_based=zero_based)
    lines = buffer.getvalue().decode().splitlines(keepends=True)
    # comments, a blank line, a qid and a last line without newline
    lines.insert(3, "# a comment\n")
    lines.insert(10, "\n")
    lines[-1] = lines[-1].rstrip("\n")
    return "".join(lines)


def _write(path, text, kind):
    with OPENERS[kind](path, "wb") as f:
        f.write(text.encode())
    return path


def _concat(chunks):
    Xs, ys = zip(*chunks)
    return sp.vstack(Xs, format="csr"), np.concatenate(ys)


@pytest.mark.parametrize("kind", ["plain", "gz", "bz2", "xz"])
@pytest.mark.parametrize("zero_based", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_chunks_concatenate_to_load_svmlight(tmp_path, kind, zero_based, dtype):
    n_rows, n_features = 61, 12
    path = _write(tmp_path / f"f.{kind}", _text(n_rows, n_features, zero_based), kind)
    X_ref, y_ref = load_svmlight(path, n_features=n_features, dtype=dtype, zero_based=zero_based)
    assert X_ref.shape[0] == n_rows
    for chunk_rows in (1, 7, 1000):
        chunks = list(iter_svmlight(path, chunk_rows, n_features, zero_based, dtype=dtype))
        sizes = [X.shape[0] for X, _ in chunks]
        assert sizes == [min(chunk_rows, n_rows - start) for start in range(0, n_rows, chunk_rows)]
        for X, y in chunks:
            assert sp.isspmatrix_csr(X) and X.shape[1] == n_features and X.dtype == dtype
            assert X.indices.dtype == np.int32 and X.indptr.dtype == np.int32
            assert y.dtype == np.float64 and y.shape == (X.shape[0],)
        X, y = _concat(chunks)
        assert (X != X_ref).nnz == 0 and np.array_equal(X.indptr, X_ref.indptr)
        np.testing.assert_array_equal(y, y_ref)


def test_lines_split_across_many_small_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(budgetsvm.io.streaming, "_BLOCK_BYTES", 13)  # every line straddles blocks
    path = _write(tmp_path / "f.gz", _text(40, 9, False, seed=3), "gz")
    X_ref, y_ref = load_svmlight(path, n_features=9)
    for chunk_rows in (1, 3, 40):
        X, y = _concat(iter_svmlight(path, chunk_rows, 9, False))
        assert (X != X_ref).nnz == 0
        np.testing.assert_array_equal(y, y_ref)


def test_wide_files_get_int64_indices(tmp_path):
    path = tmp_path / "wide.svm"
    path.write_text(f"1 3:1 {2**31 + 1}:2\n-1 1:1\n")
    (X, y), = iter_svmlight(path, 5, 2**31 + 5, False)
    assert X.shape == (2, 2**31 + 5) and X.indices.dtype == np.int64
    assert X[0, 2**31] == 2.0 and X[1, 0] == 1.0


def test_empty_and_comment_only_files_give_no_chunks(tmp_path):
    for text in ("", "# nothing\n\n"):
        path = tmp_path / "e.svm"
        path.write_text(text)
        assert list(iter_svmlight(path, 3, 4, False)) == []
    path = _write(tmp_path / "e.gz", "", "gz")
    assert list(iter_svmlight(path, 3, 4, False)) == []


def test_bad_input_gives_clear_errors(tmp_path):
    good = tmp_path / "good.svm"
    good.write_text("1 1:1\n-1 2:1\n")
    with pytest.raises(FileNotFoundError):
        iter_svmlight(tmp_path / "missing.svm", 2, 3, False)  # at the call, before any next()
    with pytest.raises(TypeError):
        iter_svmlight(3, 2, 3, False)  # not a file descriptor
    with pytest.raises(ValueError, match="chunk_rows must be >= 1"):
        iter_svmlight(good, 0, 3, False)
    with pytest.raises(ValueError, match="chunk_rows must be >= 1"):
        iter_svmlight(good, -4, 3, False)
    with pytest.raises(TypeError, match="chunk_rows must be an integer"):
        iter_svmlight(good, 2.5, 3, False)
    with pytest.raises(TypeError, match="n_features"):
        iter_svmlight(good, 2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="n_features must be given"):
        iter_svmlight(good, 2, None, False)
    with pytest.raises(ValueError, match="n_features must be >= 1"):
        iter_svmlight(good, 2, 0, False)
    with pytest.raises(TypeError, match="no 'auto'"):
        iter_svmlight(good, 2, 3, "auto")
    with pytest.raises(ValueError, match="dtype must be float64 or float32"):
        iter_svmlight(good, 2, 3, False, dtype=np.int32)

    wide = tmp_path / "wide.svm"
    wide.write_text("1 1:1\n# c\n-1 2:1 4:1\n")
    with pytest.raises(ValueError, match=r"wide.svm: line 3: feature index 4 is out of range for n_features=3"):
        list(iter_svmlight(wide, 1, 3, False))
    wide.write_text("1 0:1 2:1\n-1 3:1\n")
    with pytest.raises(ValueError, match="line 2: feature index 3 is out of range"):
        list(iter_svmlight(wide, 10, 3, True))  # 0-based: index 3 is the 4th column

    bad = tmp_path / "bad.svm"
    bad.write_text("1 1:1\n1 2:x\n")
    with pytest.raises(ValueError, match="bad.svm: line 2: cannot parse the value"):
        list(iter_svmlight(bad, 1, 3, False))
    bad.write_text("1 1:1\n1 2")  # a file cut in the middle of its last line
    with pytest.raises(ValueError, match="line 2: expected <index>:<value>"):
        list(iter_svmlight(bad, 1, 3, False))

    whole = gzip.compress(_text(300, 10, False).encode())
    truncated = tmp_path / "cut.gz"
    truncated.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ValueError, match="cut.gz: corrupt or truncated compressed data"):
        list(iter_svmlight(truncated, 7, 10, False))


_MEMORY_SCRIPT = """
import sys
import numpy as np
import budgetsvm

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * {page}

path, mode = sys.argv[1], sys.argv[2]
before = rss()
peak, rows, total = before, 0, 0.0
if mode == "iter":
    for X, y in budgetsvm.iter_svmlight(path, 2000, 50, False):
        rows += X.shape[0]
        total += float(X.sum())
        peak = max(peak, rss())
else:
    X, y = budgetsvm.load_svmlight(path, n_features=50)
    rows, total, peak = X.shape[0], float(X.sum()), max(peak, rss())
print(rows, total, peak - before)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the resident set size from /proc")
@pytest.mark.skipif("ASAN_OPTIONS" in os.environ, reason="AddressSanitizer's quarantine keeps freed memory resident")
def test_iteration_memory_is_bounded_far_below_the_file_size(tmp_path):
    rng = np.random.default_rng(0)
    lines = []
    for _ in range(5000):
        columns = np.sort(rng.choice(50, size=12, replace=False)) + 1
        lines.append("1 " + " ".join(f"{c}:{rng.random():.6f}" for c in columns) + "\n")
    block = "".join(lines).encode()
    path = tmp_path / "big.svm"
    with open(path, "wb") as f:
        for _ in range(80):
            f.write(block)
    size = path.stat().st_size  # about 40 MB: 400,000 rows
    script = _MEMORY_SCRIPT.format(page=os.sysconf("SC_PAGE_SIZE"))

    def measure(mode):
        out = subprocess.run([sys.executable, "-c", script, str(path), mode], capture_output=True, text=True,
                             check=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        rows, total, grown = out.stdout.split()
        return int(rows), float(total), int(grown)

    rows, total, grown = measure("iter")
    rows_ref, total_ref, grown_ref = measure("load")
    assert rows == rows_ref == 400_000 and total == pytest.approx(total_ref, rel=1e-9)
    # the whole-file reader holds the file's matrix (about 1.2 x the file);
    # the iterator a block and a chunk
    assert grown_ref > size // 2, (grown_ref, size)
    assert grown < size // 5, (grown, size)


def test_iter_svmlight_max_line_bytes(tmp_path):
    path = tmp_path / "long.svm"
    long_line = "1 " + " ".join(f"{k}:1" for k in range(1, 30))
    path.write_text("1 1:1\n" * 5 + long_line + "\n-1 2:1\n")
    chunks = iter_svmlight(path, 2, 30, False, max_line_bytes=50)
    # the chunks before the long line's block are handed out; then its error
    with pytest.raises(ValueError, match=r"long.svm: line 6: longer than max_line_bytes=50 bytes"):
        list(chunks)
    X, y = _concat(iter_svmlight(path, 2, 30, False, max_line_bytes=len(long_line)))
    assert X.shape == (7, 30) and X[5].nnz == 29
    with pytest.raises(ValueError, match="max_line_bytes must be a positive integer"):
        iter_svmlight(path, 2, 30, False, max_line_bytes=0)  # at the call


_LINE_LIMIT_SCRIPT = """
import resource, sys
import budgetsvm

path, mode = sys.argv[1], sys.argv[2]
# a guard: without the limit the reader would grow to all memory (bad_alloc at 3 GiB)
with open("/proc/self/statm") as f:
    size = int(f.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (size + 2**30, resource.RLIM_INFINITY))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    if mode == "iter":
        for _ in budgetsvm.iter_svmlight(path, 100, 10, False):
            pass
    else:
        budgetsvm.load_svmlight(path)
    print("read")
except ValueError as error:
    print(error)
except MemoryError:
    print("MemoryError")
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the address space size from /proc")
@pytest.mark.skipif("ASAN_OPTIONS" in os.environ, reason="AddressSanitizer's shadow memory and quarantine")
@pytest.mark.parametrize("source", ["/dev/zero", "digits"])
@pytest.mark.parametrize("mode", ["iter", "load"])
def test_input_without_newlines_is_a_quick_error_in_bounded_memory(tmp_path, source, mode):
    # issue 64, item 7: iter_svmlight kept an unfinished line whole (bad_alloc at 3 GiB on /dev/zero)
    from budgetsvm._limits import MAX_LINE_BYTES

    if source == "digits":
        path = tmp_path / "digits.svm"
        with open(path, "wb") as f:
            for _ in range(20):
                f.write(b"7" * (1 << 20))  # 20 MB of digits, no newline
        source = str(path)
    elif not os.path.exists(source):
        pytest.skip("no /dev/zero")
    out = subprocess.run([sys.executable, "-c", _LINE_LIMIT_SCRIPT, source, mode], capture_output=True, text=True,
                         check=True, timeout=120, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    message, grown = out.stdout.strip().splitlines()
    assert message == f"{source}: line 1: longer than max_line_bytes={MAX_LINE_BYTES} bytes " \
        "(binary data, or a file without newlines?)", out
    # the limit, a block or two and the parser's vectors: well under 64 MB beyond the limit
    assert int(grown) < MAX_LINE_BYTES + 32 * 2**20, int(grown) / 2**20


def _lines(path):
    return b"".join(BlockReader(path)).decode().splitlines()


def _runs(labels):
    labels = list(labels)
    return 1 + sum(a != b for a, b in zip(labels, labels[1:]))


def _longest_run(labels):
    longest = current = 1
    for a, b in zip(labels, labels[1:]):
        current = current + 1 if a == b else 1
        longest = max(longest, current)
    return longest


def _sorted_file(tmp_path, n=2000, kind="plain", newline_at_end=True):
    text = "".join(f"{label} 1:{i} 2:{i % 7}\n" for label in (-1, 1) for i in range(n // 2))
    if not newline_at_end:
        text = text.rstrip("\n")
    return _write(tmp_path / f"sorted.{kind}", text, kind)


@pytest.mark.parametrize("kind", ["plain", "bz2", "gz", "xz"])
def test_shuffle_svmlight_permutes_and_mixes_a_label_sorted_file(tmp_path, kind):
    src = _sorted_file(tmp_path, kind=kind)
    dst = tmp_path / "mixed.svm"
    assert shuffle_svmlight(src, dst, random_state=0, memory_rows=300) == 2000
    before, after = _lines(src), _lines(dst)
    assert sorted(after) == sorted(before) and after != before
    labels = [line.split()[0] for line in after]
    assert _runs(labels) > 800  # two balanced classes in random order: about 1000 runs
    assert _longest_run(labels) < 20  # sorted: one run of 1000
    assert sorted(os.listdir(tmp_path)) == sorted([src.name, "mixed.svm"])  # no temporary files left


def test_shuffle_svmlight_is_deterministic_and_writes_gzip(tmp_path):
    src = _sorted_file(tmp_path, newline_at_end=False)
    a, b, c = tmp_path / "a.svm.gz", tmp_path / "b.svm.gz", tmp_path / "c.svm"
    shuffle_svmlight(src, a, random_state=7, memory_rows=500)
    shuffle_svmlight(src, b, random_state=7, memory_rows=500, compresslevel=9)
    shuffle_svmlight(src, c, random_state=8, memory_rows=500, compress=None)
    with open(a, "rb") as f:
        assert f.read(2) == b"\x1f\x8b"
    assert _lines(a) == _lines(b) != _lines(c)
    umask = os.umask(0)
    os.umask(umask)
    assert c.stat().st_mode & 0o777 == 0o666 & ~umask  # as any new file, not a private temporary
    assert sorted(_lines(a)) == sorted(_lines(src))  # the last line got its newline
    X, y = load_svmlight(a)
    assert X.shape == (2000, 2) and sorted(y) == sorted(load_svmlight(src)[1])


def test_shuffle_svmlight_splits_buckets_it_underestimated(tmp_path, monkeypatch):
    # long lines first, then short ones: the first block's line length
    # overestimates the mean, too few buckets are made, and the large ones are
    # split again; no more than memory_rows lines are ever held
    monkeypatch.setattr(budgetsvm.io.external_shuffle, "_BLOCK_BYTES", 4096)
    held = []
    write = budgetsvm.io.external_shuffle._write_permuted
    monkeypatch.setattr(budgetsvm.io.external_shuffle, "_write_permuted",
                        lambda lines, out, rng: (held.append(len(lines)), write(lines, out, rng)))
    text = "".join(f"1 1:{i} # {'x' * 400}\n" for i in range(40)) + "".join(f"-1 2:{i}\n" for i in range(5000))
    src = _write(tmp_path / "skewed.svm", text, "plain")
    dst = tmp_path / "out.svm"
    assert shuffle_svmlight(src, dst, random_state=1, memory_rows=200) == 5040
    assert sorted(_lines(dst)) == sorted(_lines(src))
    assert max(held) <= 200 and sum(held) == 5040 and len(held) > 25


def test_shuffle_svmlight_edge_cases_and_errors(tmp_path):
    empty = _write(tmp_path / "empty.svm", "", "plain")
    assert shuffle_svmlight(empty, tmp_path / "out.svm", random_state=0) == 0
    assert (tmp_path / "out.svm").read_bytes() == b""
    src = _sorted_file(tmp_path, n=10)
    with pytest.raises(FileNotFoundError):
        shuffle_svmlight(tmp_path / "missing.svm", tmp_path / "x.svm")
    with pytest.raises(ValueError, match="is the same file as the input"):
        shuffle_svmlight(src, src)
    with pytest.raises(ValueError, match="memory_rows must be >= 1"):
        shuffle_svmlight(src, tmp_path / "x.svm", memory_rows=0)
    with pytest.raises(ValueError, match="compress must be"):
        shuffle_svmlight(src, tmp_path / "x.svm", compress="bz2")
    with pytest.raises(ValueError, match="compresslevel must be <= 9"):
        shuffle_svmlight(src, tmp_path / "x.svm.gz", compresslevel=10)
    whole = gzip.compress(_text(2000, 10, False).encode())
    cut = tmp_path / "cut.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ValueError, match="cut.gz: corrupt or truncated compressed data"):
        shuffle_svmlight(cut, tmp_path / "x.svm")
    assert sorted(os.listdir(tmp_path)) == sorted(["empty.svm", "out.svm", src.name, "cut.gz"])


def _labelled_chunks(n_chunks, rows, sparse=False, consumed=None):
    """Label-sorted chunks whose first column is the row's number."""
    for c in range(n_chunks):
        ids = np.arange(c * rows, (c + 1) * rows, dtype=np.float64)
        X = np.column_stack([ids, np.ones(rows)])
        if consumed is not None:
            consumed.append(rows)
        yield (sp.csr_matrix(X) if sparse else X), (ids >= n_chunks * rows / 2).astype(np.float64)


@pytest.mark.parametrize("sparse", [False, True])
def test_shuffle_chunks_permutes_mixes_and_holds_at_most_the_buffer(sparse):
    consumed, emitted, most = [], 0, 0
    out = []
    for X, y in shuffle_chunks(_labelled_chunks(100, 10, sparse, consumed), buffer_rows=200, random_state=0):
        emitted += X.shape[0]
        most = max(most, sum(consumed) - emitted)
        assert sp.issparse(X) == sparse
        out.append((X, y))
    assert [X.shape[0] for X, _ in out] == [10] * 100
    X = np.vstack([x.toarray() if sparse else x for x, _ in out])
    y = np.concatenate([y for _, y in out])
    ids = X[:, 0].astype(int)
    assert sorted(ids) == list(range(1000)) and not np.array_equal(ids, np.arange(1000))
    np.testing.assert_array_equal(y, (ids >= 500).astype(float))  # rows keep their labels
    assert most <= 200 + 10
    moved = np.abs(ids - np.arange(1000))
    assert moved.mean() > 50  # mixed across the buffer (about 100 for a 200-row buffer)
    assert moved.max() > 300  # rows carried over to later rounds: not cut into independent windows
    first = np.concatenate([y for _, y in out][:20])
    assert _runs(first) == 1  # the first 200 rows are all of class 0 (the buffer cannot see further)


def test_shuffle_chunks_mixes_class_blocks_smaller_than_the_buffer():
    def chunks():
        for c in range(60):  # class blocks of 50 rows, chunks of 10
            yield np.full((10, 1), c), np.full(10, (c // 5) % 2)

    y = np.concatenate([y for _, y in shuffle_chunks(chunks(), buffer_rows=400, random_state=3)])
    assert len(y) == 600 and _runs(y) > 150  # sorted input has 12 runs; random order about 300


def test_shuffle_chunks_memory_stays_near_the_buffer():
    import tracemalloc

    def chunks():
        for _ in range(400):
            yield np.ones((100, 100)), np.zeros(100)  # 32 MB in all, 80 kB a chunk

    tracemalloc.start()
    try:
        n = sum(X.shape[0] for X, _ in shuffle_chunks(chunks(), buffer_rows=500, random_state=0))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert n == 40_000
    assert peak < 8 * 500 * 100 * 8, peak  # a few buffers of 500 rows (400 kB each), not the 32 MB stream


def test_shuffle_chunks_is_deterministic_and_checks_its_input():
    def ids(seed):
        return np.concatenate([X[:, 0] for X, _ in shuffle_chunks(_labelled_chunks(20, 7), 30, random_state=seed)])

    assert np.array_equal(ids(1), ids(1)) and not np.array_equal(ids(1), ids(2))
    assert list(shuffle_chunks([], 5)) == []
    with pytest.raises(ValueError, match="buffer_rows must be >= 1"):
        shuffle_chunks([], 0)
    with pytest.raises(TypeError, match="buffer_rows must be an integer"):
        shuffle_chunks([], 2.0)
    with pytest.raises(TypeError, match="mix dense arrays and sparse"):
        list(shuffle_chunks([(np.ones((2, 2)), [0, 1]), (sp.csr_matrix(np.ones((2, 2))), [0, 1])], 10))
    with pytest.raises(ValueError, match="3 columns; the first had 2"):
        list(shuffle_chunks([(np.ones((2, 2)), [0, 1]), (np.ones((2, 3)), [0, 1])], 10))
    with pytest.raises(ValueError, match="y of shape"):
        list(shuffle_chunks([(np.ones((2, 2)), [0, 1, 1])], 10))
    with pytest.raises(TypeError, match="numpy array or a scipy sparse matrix"):
        list(shuffle_chunks([([[1, 2]], [0])], 10))


def test_streaming_training_on_a_label_sorted_file(tmp_path):
    from sklearn.datasets import make_classification

    from budgetsvm import BudgetedSVC

    X, y = make_classification(4000, 20, random_state=0)
    y = np.where(y > 0, 1.0, -1.0)
    order = np.argsort(y, kind="stable")  # all -1 rows, then all +1 rows
    X, y = X[order], y[order]
    dump_svmlight_file(X, y, str(tmp_path / "sorted.svm"), zero_based=False)
    shuffle_svmlight(tmp_path / "sorted.svm", tmp_path / "mixed.svm.gz", random_state=0)

    def streamed(name, buffer_rows=None):
        clf = BudgetedSVC(budget=100, gamma=0.05, random_state=0)
        chunks = iter_svmlight(tmp_path / name, chunk_rows=200, n_features=20, zero_based=False)
        if buffer_rows:
            chunks = shuffle_chunks(chunks, buffer_rows=buffer_rows, random_state=0)
        for X_chunk, y_chunk in chunks:
            clf.partial_fit(X_chunk, y_chunk, classes=[-1.0, 1.0])
        return clf.score(X, y)

    whole = BudgetedSVC(budget=100, gamma=0.05, random_state=0).fit(X, y).score(X, y)
    assert streamed("sorted.svm") < 0.6  # the last class wins: about chance
    assert streamed("sorted.svm", buffer_rows=1000) > 0.75  # class blocks of 2000 rows, half mixed
    assert streamed("mixed.svm.gz") > whole - 0.04


def test_docstring_examples_run():
    for module in (budgetsvm.io.streaming, budgetsvm.io.shuffle, budgetsvm.io.external_shuffle):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_exported():
    import budgetsvm

    assert {"iter_svmlight", "shuffle_chunks", "shuffle_svmlight"} <= set(budgetsvm.__all__)
