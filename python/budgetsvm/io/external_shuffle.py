"""Shuffling the lines of a file larger than memory (an external shuffle).

Pass 1 sends each line to one of k temporary bucket files chosen uniformly at
random; pass 2 reads the buckets one at a time, permutes each in memory and
appends it to the output. A uniformly random permutation results, since the
bucket keys order the lines between buckets and each in-bucket permutation
orders them within. k is chosen from the input's estimated number of lines
(its size over the mean line length of the first block; a compressed file's
size scaled by the ratio seen on that block) so that a bucket holds about
``memory_rows`` lines. If the estimate was low and a bucket holds more, that
bucket is split again the same way, so the bound on lines in memory always
holds. Lines are copied as bytes: nothing is parsed.
"""

from __future__ import annotations

import contextlib
import gzip
import math
import operator
import os
import shutil
import tempfile
from typing import Any, List, Optional, Protocol, Sequence, Union

import numpy as np
from sklearn.utils import check_random_state

from .._atomic import refuse_same_files, replacing
from .._params import check_number
from .blocks import BlockReader

_BLOCK_BYTES = 1 << 22
_MAX_BUCKETS = 256  # open files at once in pass 1
_BUCKET_BUFFER = 1 << 16
_WRITE_LINES = 1 << 16  # lines joined per write in pass 2


class _Writer(Protocol):
    def write(self, data: bytes, /) -> int: ...


def shuffle_svmlight(
    src: Union[str, os.PathLike],
    dst: Union[str, os.PathLike],
    random_state: Any = None,
    memory_rows: int = 1_000_000,
    compress: Optional[str] = "infer",
    compresslevel: int = 1,
    tmp_dir: Optional[Union[str, os.PathLike]] = None,
) -> int:
    """Write the lines of ``src`` to ``dst`` in random order, in bounded memory.

    An external shuffle for files whose label-sorted blocks are larger than
    any shuffle buffer (:func:`budgetsvm.shuffle_chunks`): lines are scattered
    into temporary bucket files by a random key, then each bucket is permuted
    in memory and appended to ``dst``. Two passes of reading and writing; at
    most about ``memory_rows`` lines are in memory. Lines are copied as bytes
    (any text file works; a last line without a newline gets one).

    Parameters
    ----------
    src : str or path-like
        Plain, ``.bz2``, ``.gz`` or ``.xz`` file (recognised by content).
    dst : str or path-like
        Output file, written under a temporary name in its folder and renamed
        over ``dst`` when complete (a failure leaves ``dst`` as it was). Must
        not be ``src`` (also through a symbolic or hard link): refused before
        anything is opened.
    random_state : int, RandomState instance or None, default=None
        An int gives the same output on every run.
    memory_rows : int, default=1_000_000
        Lines held in memory at once (a bucket).
    compress : {"infer", "gzip", None}, default="infer"
        Output compression; ``"infer"`` writes gzip when ``dst`` ends in ``.gz``.
    compresslevel : int, default=1
        gzip level, 1 (fastest) to 9 (smallest); the fastest writes svmlight
        text several times faster than the default level 6 of the gzip module
        for files only slightly larger.
    tmp_dir : str or path-like, default=None
        Directory for the bucket files (about the size of the decompressed
        input); default the directory of ``dst``.

    Returns
    -------
    n_lines : int
        Lines written.

    Raises
    ------
    FileNotFoundError
        If ``src`` does not exist.
    ValueError
        If ``dst`` is the same file as ``src``, for a bad ``memory_rows`` or
        ``compress``, or on corrupt or truncated compressed input (``dst`` is
        then not created, or left as it was).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from budgetsvm import shuffle_svmlight
    >>> folder = Path(tempfile.mkdtemp())
    >>> src, dst = folder / "sorted.svm", folder / "mixed.svm"
    >>> _ = src.write_text("".join(f"{label} 1:{i}\\n" for label in (-1, 1) for i in range(5)))
    >>> shuffle_svmlight(src, dst, random_state=0)
    10
    >>> sorted(dst.read_text().splitlines()) == sorted(src.read_text().splitlines())
    True
    """
    src, dst = os.fspath(src), os.fspath(dst)
    memory_rows = check_number("memory_rows", memory_rows, integer=True, low=1)
    if compress not in ("infer", "gzip", None):
        raise ValueError(f"compress must be 'infer', 'gzip' or None; got {compress!r}.")
    compresslevel = check_number("compresslevel", compresslevel, integer=True, low=1, high=9)
    refuse_same_files([dst], [src])  # before anything is opened: the output would truncate its input
    blocks = BlockReader(src, _BLOCK_BYTES)  # FileNotFoundError
    gz = compress == "gzip" or (compress == "infer" and dst.endswith(".gz"))
    rng = check_random_state(random_state)
    folder = os.path.dirname(os.path.abspath(dst))
    work = tempfile.mkdtemp(prefix=".shuffle-", dir=tmp_dir if tmp_dir is not None else folder)
    try:
        try:
            buckets, counts = _scatter_input(blocks, work, memory_rows, rng)
        except ValueError as error:
            raise ValueError(f"{src}: {error}") from None
        # dst is replaced only when every line is written: a failure leaves it as it was
        with replacing(dst, "wb") as target:
            with (gzip.GzipFile(os.path.basename(dst), "wb", compresslevel, target) if gz
                  else contextlib.nullcontext(target)) as out:
                for path, count in zip(buckets, counts):
                    _emit_bucket(path, int(count), out, work, memory_rows, rng)
        return int(sum(counts))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _scatter_input(blocks: BlockReader, work: str, memory_rows: int, rng):
    with contextlib.closing(iter(blocks)) as pass_:
        first = next(pass_, b"")
        lines = max(first.count(b"\n"), 1)
        size = blocks.size
        decompressed = len(first) / max(blocks.position(), 1) * size if blocks.compression else size
        estimate = decompressed / max(len(first), 1) * lines
        k = _bucket_count(estimate, memory_rows)
        return _scatter(_chain(first, pass_), k, work, "b", rng)


def _chain(first: bytes, rest):
    if first:
        yield first
    yield from rest


def _bucket_count(lines: float, memory_rows: int) -> int:
    # a margin so that the random bucket sizes rarely exceed memory_rows
    return int(min(max(math.ceil(1.2 * lines / memory_rows), 1), _MAX_BUCKETS))


def _scatter(blocks, k: int, work: str, prefix: str, rng):
    """Pass 1: each line to a random one of k bucket files; returns their paths and line counts."""
    paths = [os.path.join(work, f"{prefix}{i}") for i in range(k)]
    counts = np.zeros(k, dtype=np.int64)
    files = [open(p, "wb", buffering=_BUCKET_BUFFER) for p in paths]
    try:
        carry = b""
        for block in blocks:
            data = carry + block if carry else block
            cut = data.rfind(b"\n") + 1
            carry = data[cut:]
            _scatter_lines(data[:cut].split(b"\n")[:-1], files, counts, rng)
        if carry:
            _scatter_lines([carry], files, counts, rng)
    finally:
        for f in files:
            f.close()
    return paths, counts


def _scatter_lines(lines: List[bytes], files: Sequence[_Writer], counts: np.ndarray, rng) -> None:
    if not lines:
        return
    keys = rng.randint(0, len(files), size=len(lines))
    order = np.argsort(keys, kind="stable")
    grouped = _pick(lines, order)
    bounds = np.concatenate(([0], np.cumsum(np.bincount(keys, minlength=len(files)))))
    for b, f in enumerate(files):
        start, stop = int(bounds[b]), int(bounds[b + 1])
        if stop > start:
            f.write(b"\n".join(grouped[start:stop]))
            f.write(b"\n")
            counts[b] += stop - start


def _emit_bucket(path: str, count: int, out: _Writer, work: str, memory_rows: int, rng) -> None:
    """Pass 2: a bucket permuted in memory and appended to ``out``; one larger
    than memory_rows is split into smaller buckets first."""
    if count > memory_rows:
        bucket = BlockReader(path, _BLOCK_BYTES, decompress=False)  # lines as written, whatever their first bytes
        parts, counts = _scatter(bucket, max(_bucket_count(count, memory_rows), 2), work,
                                 os.path.basename(path) + "-", rng)
        os.remove(path)
        for part, part_count in zip(parts, counts):
            _emit_bucket(part, int(part_count), out, work, memory_rows, rng)
        return
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")[:-1]
    os.remove(path)
    _write_permuted(lines, out, rng)


def _write_permuted(lines: List[bytes], out: _Writer, rng) -> None:
    order = rng.permutation(len(lines))
    for start in range(0, len(lines), _WRITE_LINES):
        out.write(b"\n".join(_pick(lines, order[start : start + _WRITE_LINES])))
        out.write(b"\n")


def _pick(lines: Sequence[bytes], order: np.ndarray) -> List[bytes]:
    if len(order) == 0:
        return []
    if len(order) == 1:
        return [lines[int(order[0])]]
    return list(operator.itemgetter(*order.tolist())(lines))
