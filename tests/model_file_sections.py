"""A budgetsvm model file taken apart into its sections and put together
again, as a writer would (docs/model_format.md): the surgery of the hostile
file tests and the fuzzer's mutations."""

from __future__ import annotations

import struct
import zlib

from budgetsvm.model_files import _container as container


def raw_sections(data):
    """[tag, flags, payload] of each section but the checksum."""
    out, pos = [], container.HEADER.size
    for _ in range(struct.unpack_from("<Q", data, 24)[0]):
        tag, flags, length = container.SECTION.unpack_from(data, pos)
        out.append([tag, flags, bytes(data[pos + 16 : pos + 16 + length])])
        pos += 16 + length
    return [s for s in out if s[0] != container.CHECKSUM]


def build(sections) -> bytes:
    """The bytes a writer makes of these sections: header, sections, checksum."""
    body = b"".join(container.SECTION.pack(t, f, len(p)) + p for t, f, p in sections)
    size = container.HEADER.size + len(body) + 20
    data = container.HEADER.pack(container.MAGIC, container.VERSION, 0, size, len(sections) + 1) + body
    return data + container.SECTION.pack(container.CHECKSUM, 0, 4) + struct.pack("<I", zlib.crc32(data))
