"""The container of budgetsvm model files: a header and tagged sections.

The layout (docs/model_format.md) in brief, little-endian throughout:

    magic (8 bytes) | version u32 | flags u32 | file size u64 | sections u64
    then per section: tag (4 ASCII bytes) | flags u32 | length u64 | payload

A section's flags bit 0 marks it required: a reader that does not know a
required tag refuses the file, an optional one it skips. ``ARRY`` sections
hold one named, typed n-d array each; ``MODL`` the model's few numbers;
``ATTR`` a JSON text. Reading checks every length against the bytes that
are left before it slices, so a damaged file is a ``ValueError`` and never
an over-read; nothing in a file is ever executed.
"""

from __future__ import annotations

import struct
import zlib
from typing import Dict, List, Tuple

import numpy as np

MAGIC = b"\x89BSVM\r\n\x1a"
VERSION = 1
HEADER = struct.Struct("<8sIIQQ")
SECTION = struct.Struct("<4sIQ")
REQUIRED = 1
#: the last section: the CRC-32 (zlib's) of every byte before it (checked when present)
CHECKSUM = b"CSUM"

#: numpy dtypes an ARRY section may hold, by their code in the file
#: (strings: "utf8" an object array of str, "utf8-fixed" numpy's "U" dtype)
DTYPE_CODES = {"f8": 1, "f4": 2, "i4": 3, "i8": 4, "b1": 5, "u1": 6, "utf8": 7, "utf8-fixed": 8}
CODE_DTYPES = {v: k for k, v in DTYPE_CODES.items()}
MAX_NDIM = 8


class Section:
    """One section: its tag, flags and payload bytes."""

    def __init__(self, tag: bytes, payload: bytes, required: bool = False):
        self.tag = tag
        self.payload = payload
        self.required = required


def encode_array(name: str, array: np.ndarray) -> bytes:
    """An ARRY payload: name, dtype code, shape, then the data."""
    name_bytes = name.encode("utf-8")
    if array.dtype.kind in "UO":
        code = DTYPE_CODES["utf8" if array.dtype.kind == "O" else "utf8-fixed"]
        parts = []
        for item in array.ravel():
            if not isinstance(item, str):
                raise ValueError(f"array {name!r}: only numbers or strings can be stored; got {type(item).__name__}")
            text = item.encode("utf-8")
            parts.append(struct.pack("<Q", len(text)) + text)
        data = b"".join(parts)
    else:
        key = array.dtype.str[1:] if array.dtype.kind != "b" else "b1"
        if key not in DTYPE_CODES:
            raise ValueError(f"array {name!r}: dtype {array.dtype} cannot be stored")
        code = DTYPE_CODES[key]
        data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
    head = struct.pack("<H", len(name_bytes)) + name_bytes + struct.pack("<BB", code, array.ndim)
    return head + struct.pack(f"<{array.ndim}Q", *array.shape) + data


class Reader:
    """Bounds-checked reads from a bytes object; every failure is a ValueError."""

    def __init__(self, data: bytes, what: str):
        self.data = data
        self.pos = 0
        self.what = what

    def take(self, n: int) -> bytes:
        if n < 0 or n > len(self.data) - self.pos:
            raise ValueError(
                f"{self.what}: needs {n} bytes at offset {self.pos} but only {len(self.data) - self.pos} are left "
                "(damaged or truncated model file)"
            )
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def unpack(self, fmt: str) -> Tuple:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))


def decode_array(payload: bytes) -> Tuple[str, np.ndarray]:
    r = Reader(payload, "array section")
    (name_len,) = r.unpack("<H")
    try:
        name = r.take(name_len).decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError("array section: the name is not UTF-8 (damaged model file)") from err
    code, ndim = r.unpack("<BB")
    if code not in CODE_DTYPES:
        raise ValueError(f"array {name!r}: unknown element type code {code} (damaged model file)")
    if ndim > MAX_NDIM:
        raise ValueError(f"array {name!r}: {ndim} dimensions (damaged model file)")
    shape = r.unpack(f"<{ndim}Q")
    count = 1
    left = len(payload) - r.pos
    for s in shape:
        count *= s
        if count > left and count > 0:  # every element takes at least one byte
            raise ValueError(f"array {name!r}: shape {shape} does not fit in the section (damaged model file)")
    dtype = CODE_DTYPES[code]
    if dtype.startswith("utf8"):
        items = []
        for _ in range(count):
            (n,) = r.unpack("<Q")
            try:
                items.append(r.take(n).decode("utf-8"))
            except UnicodeDecodeError as err:
                raise ValueError(f"array {name!r}: a string is not UTF-8 (damaged model file)") from err
        array = np.empty(count, dtype=object)
        array[:] = items
        array = array.reshape(shape)
        if dtype == "utf8-fixed":
            array = array.astype(str)
    else:
        np_dtype = np.dtype("<" + dtype if dtype != "b1" else "?")
        raw = r.take(count * np_dtype.itemsize)
        array = np.frombuffer(raw, dtype=np_dtype).astype(np_dtype.newbyteorder("="), copy=True).reshape(shape)
    if r.pos != len(payload):
        raise ValueError(f"array {name!r}: {len(payload) - r.pos} bytes left over (damaged model file)")
    return name, array


def write_container(path, sections: List[Section]) -> None:
    from ._atomic import replacing

    body = b"".join(
        SECTION.pack(s.tag, REQUIRED if s.required else 0, len(s.payload)) + s.payload for s in sections
    )
    size = HEADER.size + len(body) + SECTION.size + 4
    data = HEADER.pack(MAGIC, VERSION, 0, size, len(sections) + 1) + body
    data += SECTION.pack(CHECKSUM, 0, 4) + struct.pack("<I", zlib.crc32(data))
    with replacing(path, "wb") as f:  # all or nothing: a failed save leaves the old file
        f.write(data)


def read_container(data: bytes, known_tags) -> Tuple[int, List[Section]]:
    """The version and the sections of a model file's bytes; unknown
    optional sections are dropped, unknown required ones refused."""
    if len(data) < HEADER.size or not data.startswith(MAGIC):
        if MAGIC.startswith(data[: len(MAGIC)]) and len(data) < HEADER.size:
            raise ValueError(f"truncated budgetsvm model file: {len(data)} bytes, shorter than its header")
        raise ValueError("not a budgetsvm model file (wrong magic bytes)")
    _, version, _flags, size, n_sections = HEADER.unpack_from(data)
    if version > VERSION:
        raise ValueError(
            f"model file format version {version} is newer than this budgetsvm reads (up to {VERSION}); "
            "upgrade budgetsvm"
        )
    if version == 0:
        raise ValueError("model file format version 0 does not exist (damaged model file)")
    if size != len(data):
        raise ValueError(
            f"model file size mismatch: its header says {size} bytes, the file has {len(data)} "
            "(truncated or damaged)"
        )
    r = Reader(data, "model file")
    r.pos = HEADER.size
    sections = []
    for k in range(n_sections):
        begins = r.pos
        tag, flags, length = SECTION.unpack(r.take(SECTION.size))
        payload = r.take(length)
        if tag == CHECKSUM:  # the container's own: checked, not returned
            if k + 1 != n_sections or length != 4:
                raise ValueError("model file: its checksum is not the last section (damaged model file)")
            if struct.unpack("<I", payload)[0] != zlib.crc32(memoryview(data)[:begins]):  # a view: no copy
                raise ValueError("model file: checksum mismatch, the bytes changed after it was written "
                                 "(damaged model file)")
            continue
        if tag in known_tags:
            sections.append(Section(tag, payload, bool(flags & REQUIRED)))
        elif flags & REQUIRED:
            raise ValueError(f"model file needs section {tag!r}, which this budgetsvm does not know; upgrade budgetsvm")
    if r.pos != len(data):
        raise ValueError(f"model file: {len(data) - r.pos} bytes after its last section (damaged model file)")
    return version, sections


def arrays_of(sections: List[Section]) -> Dict[str, np.ndarray]:
    arrays: Dict[str, np.ndarray] = {}
    for s in sections:
        if s.tag == b"ARRY":
            name, array = decode_array(s.payload)
            if name in arrays:
                raise ValueError(f"model file holds array {name!r} twice (damaged model file)")
            arrays[name] = array
    return arrays
