"""The container of budgetsvm model files: a header and tagged sections.

The layout (docs/model_format.md) in brief, little-endian throughout:

    magic (8 bytes) | version u32 | flags u32 | file size u64 | sections u64
    then per section: tag (4 ASCII bytes) | flags u32 | length u64 | payload

A section's flags bit 0 marks it required: a reader that does not know a
required tag refuses the file, an optional one it skips. ``ARRY`` sections
hold one named, typed n-d array each; ``MODL`` the model's few numbers;
``ATTR`` a JSON text; the last, ``CSUM``, the CRC-32 of every byte before
it (required). Reading checks every length against the bytes that are left
before it slices or allocates, so a damaged file is a ``ValueError`` and
never an over-read; nothing in a file is ever executed. ``read_file`` reads
the header first and never more than the size it declares (plus one byte),
so a device or a pipe without end costs 32 bytes. The C++ reader
(cpp/include/budgetsvm/model/format.hpp) enforces the same rules.
"""

from __future__ import annotations

import os
import stat
import struct
import zlib
from typing import IO, Dict, List, Tuple, Union

import numpy as np

from .._atomic import replacing

MAGIC = b"\x89BSVM\r\n\x1a"
VERSION = 1
HEADER = struct.Struct("<8sIIQQ")
SECTION = struct.Struct("<4sIQ")
REQUIRED = 1
#: the last section: the CRC-32 (zlib's) of every byte before it (required)
CHECKSUM = b"CSUM"
#: the most sections a file may declare (a model needs about 30)
MAX_SECTIONS = 4096
#: the most elements an array may declare, zero dimensions left out (so that
#: an empty array of a huge declared width is refused too)
MAX_ELEMENTS = 2**59
#: bytes read at once from a file whose size is only declared (a pipe)
PIECE = 2**24

#: numpy dtypes an ARRY section may hold, by their code in the file
#: (strings: "utf8" an object array of str, "utf8-fixed" numpy's "U" dtype)
DTYPE_CODES = {"f8": 1, "f4": 2, "i4": 3, "i8": 4, "b1": 5, "u1": 6, "utf8": 7, "utf8-fixed": 8,
               "i1": 9, "i2": 10, "u2": 11, "u4": 12, "u8": 13, "f2": 14}
CODE_DTYPES = {v: k for k, v in DTYPE_CODES.items()}
MAX_NDIM = 8

Bytes = Union[bytes, memoryview]


class Section:
    """One section: its tag, flags and payload bytes."""

    def __init__(self, tag: bytes, payload: Bytes, required: bool = False):
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
    """Bounds-checked reads from bytes (views, not copies); every failure is a ValueError."""

    def __init__(self, data: Bytes, what: str):
        self.data = memoryview(data)
        self.pos = 0
        self.what = what

    def take(self, n: int) -> memoryview:
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


def _utf8(raw: Bytes, what: str) -> str:
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{what} is not UTF-8 (damaged model file)") from err


def decode_array(payload: Bytes) -> Tuple[str, np.ndarray]:
    r = Reader(payload, "array section")
    (name_len,) = r.unpack("<H")
    name = _utf8(r.take(name_len), "array section: the name")
    code, ndim = r.unpack("<BB")
    if code not in CODE_DTYPES:
        raise ValueError(f"array {name!r}: unknown element type code {code} (damaged model file)")
    if ndim > MAX_NDIM:
        raise ValueError(f"array {name!r}: {ndim} dimensions (damaged model file)")
    shape = r.unpack(f"<{ndim}Q")
    count, nonzero = 1, 1
    for s in shape:
        # at most MAX_ELEMENTS, and every element takes at least one byte:
        # a shape larger than what is left is damage, refused before allocating
        if s and s > MAX_ELEMENTS // nonzero:
            raise ValueError(f"array {name!r}: shape {shape} does not fit in the section (damaged model file)")
        nonzero *= s or 1
        count *= s
        if count > len(r.data) - r.pos:
            raise ValueError(f"array {name!r}: shape {shape} does not fit in the section (damaged model file)")
    dtype = CODE_DTYPES[code]
    if dtype.startswith("utf8"):
        items = []
        for _ in range(count):
            (n,) = r.unpack("<Q")
            items.append(_utf8(r.take(n), f"array {name!r}: a string"))
        array = np.empty(count, dtype=object)
        array[:] = items
        array = array.reshape(shape)
        if dtype == "utf8-fixed":
            if any(item.endswith("\0") for item in items):  # numpy's "U" strips them: the label would change
                raise ValueError(f"array {name!r}: a fixed-width string ends with NUL (damaged model file)")
            array = array.astype(str)
    else:
        np_dtype = np.dtype("<" + dtype if dtype != "b1" else "?")
        raw = r.take(count * np_dtype.itemsize)
        array = np.frombuffer(raw, dtype=np_dtype).astype(np_dtype.newbyteorder("="), copy=True).reshape(shape)
    if r.pos != len(r.data):
        raise ValueError(f"array {name!r}: {len(r.data) - r.pos} bytes left over (damaged model file)")
    return name, array


def write_container(path, sections: List[Section]) -> None:
    body = b"".join(
        SECTION.pack(s.tag, REQUIRED if s.required else 0, len(s.payload)) + s.payload for s in sections
    )
    size = HEADER.size + len(body) + SECTION.size + 4
    data = HEADER.pack(MAGIC, VERSION, 0, size, len(sections) + 1) + body
    data += SECTION.pack(CHECKSUM, 0, 4) + struct.pack("<I", zlib.crc32(data))
    with replacing(path, "wb") as f:  # all or nothing: a failed save leaves the old file
        f.write(data)


def check_header(head: Bytes) -> int:
    """The file size a model file's first bytes (its 32-byte header, when
    it has them) declare, after checking its magic and version."""
    head = bytes(head[: HEADER.size])
    magic = MAGIC.startswith(head[: len(MAGIC)]) and len(head) > 0
    if len(head) < HEADER.size and magic:
        raise ValueError(f"truncated budgetsvm model file: {len(head)} bytes, shorter than its header")
    if len(head) < HEADER.size or not head.startswith(MAGIC):
        raise ValueError("not a budgetsvm model file (wrong magic bytes)")
    _, version, _flags, size, _n = HEADER.unpack(head)
    if version == 0:
        raise ValueError("model file format version 0 does not exist (damaged model file)")
    if version > VERSION:
        raise ValueError(
            f"model file format version {version} is newer than this budgetsvm reads (up to {VERSION}); "
            "upgrade budgetsvm"
        )
    return int(size)


def _mismatch(size: int, actual: str) -> ValueError:
    return ValueError(f"model file size mismatch: its header says {size} bytes, the file has {actual} "
                      "(truncated or damaged)")


def read_file(f: IO[bytes], head: bytes) -> bytearray:
    """The whole model file from ``f``, of which ``head`` (its first bytes,
    up to 32) is already read: the header is checked first; a regular file's
    size must be the declared one before anything more is read (and is then
    read into one buffer of that size); from a device or a pipe at most the
    declared size plus one byte is read, piece by piece."""
    size = check_header(head)
    try:
        st = os.fstat(f.fileno())
    except (AttributeError, OSError, ValueError):  # not a real file (BytesIO): its length is read below
        st = None
    regular = st is not None and stat.S_ISREG(st.st_mode)
    if st is not None and regular and st.st_size != size:
        raise _mismatch(size, str(st.st_size))
    data = bytearray(head)
    readinto = getattr(f, "readinto", None)
    if regular and readinto is not None:  # the size is known: one buffer, no copies
        data = bytearray(size)
        data[: len(head)] = head
        view = memoryview(data)
        have = len(head)
        while have < size:
            n = readinto(view[have:])
            if not n:
                break
            have += n
        view.release()
        del data[have:]
        if have == size and f.read(1):
            have += 1
    else:
        while len(data) <= size:  # a declared size is only a claim until the bytes are there
            piece = f.read(min(PIECE, size + 1 - len(data)))
            if not piece:
                break
            data += piece
        have = len(data)
    if have != size:
        raise _mismatch(size, "more" if have > size else str(have))
    return data


def read_container(data: Bytes, known_tags) -> Tuple[int, List[Section]]:
    """The version and the sections of a model file's bytes; unknown
    optional sections are dropped, unknown required ones refused. The file
    must end with its checksum section, checked before anything else."""
    data = memoryview(data)
    size = check_header(data)
    version = struct.unpack_from("<I", data, 8)[0]
    n_sections = struct.unpack_from("<Q", data, 24)[0]
    if size != len(data):
        raise _mismatch(size, str(len(data)))
    if n_sections > MAX_SECTIONS:
        raise ValueError(f"model file: its header declares {n_sections} sections, more than the {MAX_SECTIONS} a "
                         "model file may hold (damaged model file)")
    tail = len(data) - 20  # where the CSUM section must begin
    if len(data) < HEADER.size + 20 or SECTION.unpack_from(data, tail) != (CHECKSUM, 0, 4):
        raise ValueError("model file: it does not end with its checksum section (CSUM): damaged, or not written by "
                         "budgetsvm")
    if struct.unpack_from("<I", data, tail + 16)[0] != zlib.crc32(data[:tail]):  # a view: no copy
        raise ValueError("model file: checksum mismatch, the bytes changed after it was written (damaged model file)")
    r = Reader(data, "model file")
    r.pos = HEADER.size
    sections = []
    for k in range(n_sections):
        begins = r.pos
        tag, flags, length = SECTION.unpack(r.take(SECTION.size))
        payload = r.take(length)
        if tag == CHECKSUM:  # the container's own, checked above: not returned
            if k + 1 != n_sections or begins != tail:
                raise ValueError("model file: its checksum is not the last section (damaged model file)")
            continue
        if k + 1 == n_sections:
            raise ValueError("model file: its checksum is not the last section (damaged model file)")
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
