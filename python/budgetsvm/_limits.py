"""Limits on what reading a file may cost, in one place.

Every reader of text (svmlight data, LIBSVM / LIBLINEAR model text) stops
with a ``ValueError`` naming the line when one line grows past
``MAX_LINE_BYTES``, so a file without newlines (``/dev/zero``, a binary
file given by mistake) costs at most this much memory rather than all of
it. The readers take a ``max_line_bytes`` argument to raise or lower it.
"""

from __future__ import annotations

#: the longest line a text reader accepts, in bytes (16 MiB: a dense row of
#: about a million features written with LIBSVM's ``%.17g``)
MAX_LINE_BYTES = 16 * 2**20


def check_max_line_bytes(value: object) -> int:
    """``value`` as a positive line limit, or a ``ValueError`` naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_line_bytes must be a positive integer; got {value!r}")
    return int(value)
