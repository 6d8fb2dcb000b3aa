"""Reading a file as blocks of decompressed bytes: the one reader under
``load_svmlight``, ``iter_svmlight`` and ``shuffle_svmlight``.

Compression (bzip2, gzip, xz) is recognised by the file's first bytes, not
its name. A pass opens the file, hands out blocks of at most ``block_bytes``
and closes it; :meth:`BlockReader.position` tells how far into the file as
stored (compressed bytes for a compressed file) the pass is, which is what a
progress bar or a size estimate needs.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
from typing import IO, Any, Callable, Generator, Iterator, Optional, Union

# Compression is recognised by the file's first bytes, not its name.
_MAGIC = (
    (b"BZh", "bz2", bz2.open),
    (b"\x1f\x8b", "gzip", gzip.open),
    (b"\xfd7zXZ\x00", "xz", lzma.open),
)

#: decompressed bytes per block unless told otherwise
BLOCK_BYTES = 1 << 20


def _sniff(path: str) -> Optional[int]:
    """The index in ``_MAGIC`` of the compression of ``path``, or None for a
    plain file. Raises FileNotFoundError."""
    with open(path, "rb") as f:
        head = f.read(6)
    for k, (magic, _, _) in enumerate(_MAGIC):
        if head.startswith(magic):
            return k
    return None


def _read_blocks(f: IO[bytes], size: int) -> Iterator[bytes]:
    """Blocks of at most ``size`` bytes read from ``f`` until its end; a
    corrupt or truncated compressed stream is a ValueError (an error of the
    file system stays an OSError)."""
    while True:
        try:
            block = f.read(size)
        except (EOFError, OSError, lzma.LZMAError) as error:
            if isinstance(f, io.BufferedReader):
                raise  # an error of the file system, not of the content
            raise ValueError(f"corrupt or truncated compressed data ({error})") from None
        if not block:
            return
        yield block


class BlockReader:
    """The bytes of a file, decompressed, in blocks of at most ``block_bytes``.

    Each ``iter()`` is one pass: it opens the file, yields its decompressed
    bytes block by block and closes it. Plain, ``.bz2``, ``.gz`` and ``.xz``
    files are read, recognised by their first bytes (at construction).

    Parameters
    ----------
    path : str or path-like
    block_bytes : int, default=BLOCK_BYTES
        The most bytes a block holds (1 MiB by default).
    decompress : bool, default=True
        False: the bytes as stored, whatever the first bytes look like.

    Attributes
    ----------
    path : str
    size : int
        The size of the file as stored, in bytes.
    compression : {"bz2", "gzip", "xz"} or None
        The compression recognised; None for a plain file.

    Raises
    ------
    FileNotFoundError
        At construction, if ``path`` does not exist.
    ValueError
        During a pass, on corrupt or truncated compressed data.

    Examples
    --------
    >>> import gzip, tempfile
    >>> from pathlib import Path
    >>> from budgetsvm.io import BlockReader
    >>> path = Path(tempfile.mkdtemp()) / "tiny.svm.gz"
    >>> with gzip.open(path, "wt") as f:
    ...     _ = f.write("+1 1:0.5\\n-1 2:1\\n")
    >>> blocks = BlockReader(path, block_bytes=8)
    >>> blocks.compression
    'gzip'
    >>> [len(block) for block in blocks]
    [8, 8]
    >>> blocks.position() == blocks.size
    True
    """

    def __init__(self, path: Union[str, os.PathLike], block_bytes: int = BLOCK_BYTES, decompress: bool = True) -> None:
        self.path = os.fspath(path)
        self.block_bytes = block_bytes
        kind = _sniff(self.path) if decompress else None  # FileNotFoundError now, not at the first block
        self.compression = None if kind is None else _MAGIC[kind][1]
        self._opener: Optional[Callable[..., Any]] = None if kind is None else _MAGIC[kind][2]
        self.size = os.path.getsize(self.path)
        self._file: Optional[io.BufferedReader] = None

    def position(self) -> int:
        """Bytes of the file as stored read by the current pass so far (the
        whole size once a pass has ended; 0 before the first)."""
        f = self._file
        if f is None:
            return 0
        return self.size if f.closed else min(f.tell(), self.size)

    def __iter__(self) -> Generator[bytes, None, None]:
        with open(self.path, "rb") as f:
            self._file = f  # a decompressor reads through it, so f.tell() is the position as stored
            with self._opener(f, "rb") if self._opener else f as data:
                yield from _read_blocks(data, self.block_bytes)
