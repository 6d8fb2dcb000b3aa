"""Reading svmlight data, in memory or as a stream, and shuffling it.

The modules, each of which the next ones build on:

``blocks``
    :class:`BlockReader`: a file's decompressed bytes (plain, bzip2, gzip or
    xz, recognised by content) block by block, and how far into the file a
    pass is. Every reader below reads through it.
``svmlight``
    :func:`load_svmlight`: a whole file into a CSR matrix and its labels.
``streaming``
    :class:`SvmlightChunks` and :func:`iter_svmlight`: a file larger than
    memory as chunks of rows.
``shuffle``
    :func:`shuffle_chunks`: a stream of chunks mixed in a bounded buffer.
``external_shuffle``
    :func:`shuffle_svmlight`: the lines of a file larger than memory
    written in random order.

The readers parse in C++ (``budgetsvm._core.SvmlightParser``), every line
bounded by ``max_line_bytes`` (``budgetsvm._limits``); ``shuffle_svmlight``
copies lines as bytes, unparsed.
"""

from .blocks import BlockReader
from .external_shuffle import shuffle_svmlight
from .shuffle import shuffle_chunks
from .streaming import SvmlightChunks, iter_svmlight
from .svmlight import load_svmlight

__all__ = ["BlockReader", "SvmlightChunks", "iter_svmlight", "load_svmlight", "shuffle_chunks", "shuffle_svmlight"]
