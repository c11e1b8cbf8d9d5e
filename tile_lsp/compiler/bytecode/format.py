"""Tile IR bytecode (`.tileirbc`): constants of the format and the byte-level primitives.

The format (Tile IR spec, "Binary Format"): an 8-byte magic, a version (major byte, minor
byte, 16-bit little-endian tag), then sections `id | length | [alignment, padding] | payload`
until an end marker (id 0). Integers are LEB128 varints (signed ones zigzag-encoded); tables
(strings, types, constants, debug attributes) are a count, aligned fixed-width offsets, and
the concatenated data. Every length read here is checked against the bytes that remain, so a
corrupt file can never make a reader allocate or loop beyond its own size.
"""

from __future__ import annotations

import gc
import struct
from collections.abc import Iterator
from contextlib import contextmanager

MAGIC = b"\x7fTileIR\x00"
ALIGN_BYTE = 0xCB  # padding filler

# Versions as major*10000 + minor*100 (+ tag, always 0 for a release).
V13_1, V13_2, V13_3, V13_4, V13_5 = 130100, 130200, 130300, 130400, 130500
VERSIONS = (V13_1, V13_2, V13_3, V13_4, V13_5)
MIN_VERSION, MAX_VERSION = V13_1, V13_5


def version_str(v: int) -> str:
    return f"{v // 10000}.{v // 100 % 100}"


def header_version(data: bytes) -> int | None:
    """The version a bytecode's header states (the major and minor bytes after the magic), read
    without decoding the rest; None when there is no such header."""
    if len(data) < len(MAGIC) + 2 or not data.startswith(MAGIC):
        return None
    return data[len(MAGIC)] * 10000 + data[len(MAGIC) + 1] * 100


def parse_version(text: str) -> int | None:
    """'13.4' -> 130400 (only versions this package reads and writes)."""
    parts = text.strip().split(".")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    v = int(parts[0]) * 10000 + int(parts[1]) * 100
    return v if v in VERSIONS else None


# Section ids.
SEC_END, SEC_STRING, SEC_FUNC, SEC_DEBUG, SEC_CONSTANT, SEC_TYPE, SEC_GLOBAL, SEC_PRODUCER = range(8)
NUM_SECTIONS = 8
SECTION_NAMES = {
    SEC_STRING: "string",
    SEC_FUNC: "function",
    SEC_DEBUG: "debug info",
    SEC_CONSTANT: "constant",
    SEC_TYPE: "type",
    SEC_GLOBAL: "global",
    SEC_PRODUCER: "producer",
}
# Alignment each section must declare (a multiple of), as NVIDIA's reader checks.
SECTION_ALIGN = {SEC_STRING: 4, SEC_TYPE: 4, SEC_CONSTANT: 8, SEC_DEBUG: 8, SEC_FUNC: 8}

# Type tags (varint). Scalar tags and the first version that has them.
T_I1, T_I8, T_I16, T_I32, T_I64 = 0, 1, 2, 3, 4
T_F16, T_BF16, T_F32, T_TF32, T_F64, T_F8E4M3FN, T_F8E5M2 = 5, 6, 7, 8, 9, 10, 11
T_PTR, T_TILE, T_TENSOR_VIEW, T_PARTITION_VIEW, T_FUNC, T_TOKEN = 12, 13, 14, 15, 16, 17
T_F8E8M0FNU = 18  # 13.2
T_F4E2M1FN, T_GATHER_SCATTER_VIEW, T_STRIDED_VIEW, T_I4 = 19, 20, 21, 22  # 13.3
T_F8E5M3FNU = 130  # 13.4 (spelled fnv8E5M3FNU)
TYPE_SINCE = {
    T_F8E8M0FNU: V13_2,
    T_F4E2M1FN: V13_3,
    T_GATHER_SCATTER_VIEW: V13_3,
    T_STRIDED_VIEW: V13_3,
    T_I4: V13_3,
    T_F8E5M3FNU: V13_4,
}

# Self-contained ("tagged") attribute tags.
A_INTEGER, A_FLOAT, A_BOOL, A_TYPE, A_STRING, A_ARRAY, A_DENSE = 1, 2, 3, 4, 5, 6, 7
A_DIV_BY, A_SAME_ELEMENTS, A_DICT, A_OPT_HINTS, A_BOUNDED = 8, 9, 10, 11, 12

# Debug-info attribute tags; debug index 0 is the unknown location, table entries start at 1.
D_UNKNOWN, D_COMPILE_UNIT, D_FILE, D_LEXICAL_BLOCK, D_LOC, D_SUBPROGRAM, D_CALL_SITE = range(7)

# Function flags (one byte).
F_PRIVATE, F_KERNEL, F_HAS_HINTS = 0x01, 0x02, 0x04

# Enum cases in encoding order (the value is the index).
ENUM_CASES: dict[str, tuple[str, ...]] = {
    "rounding": ("nearest_even", "zero", "negative_inf", "positive_inf", "approx", "full", "nearest_int_to_zero", "nearest_away"),
    "signedness": ("unsigned", "signed"),
    "overflow": ("none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"),
    "comparison_predicate": (
        "equal",
        "not_equal",
        "less_than",
        "less_than_or_equal",
        "greater_than",
        "greater_than_or_equal",
    ),
    "comparison_ordering": ("unordered", "ordered"),
    "memory_ordering_semantics": ("weak", "relaxed", "acquire", "release", "acq_rel"),
    "memory_scope": ("tl_blk", "device", "sys"),
    "atomic_rmw_mode": ("and", "or", "xor", "add", "addf", "max", "min", "umax", "umin", "xchg"),
    "multimem_reduction_kind": ("add", "min", "max", "and", "or", "xor", "umin", "umax"),  # 13.5
    "symbol_visibility": ("public", "private"),
}
# Enum cases newer than their enum (NVIDIA's reader: "enum value 7 is not available in bytecode version 13.3").
ENUM_CASE_SINCE: dict[tuple[str, str], int] = {("rounding", "nearest_away"): V13_4}
# Enums our dialect keeps as i32 IntegerAttrs (MLIR's I32EnumAttr style); the rest are EnumAttrs.
I32_ENUMS = frozenset(("memory_ordering_semantics", "memory_scope", "atomic_rmw_mode"))
PADDING_VALUES = ("zero", "neg_zero", "nan", "pos_inf", "neg_inf")

DYNAMIC = -(1 << 63)  # a dynamic dimension/stride in a shape list (MLIR's kDynamic)


_UINT_CODES = {2: "H", 4: "I", 8: "Q"}


class DecodeError(Exception):
    """Malformed input: `offset` is the absolute byte offset, `message` says what was expected."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


class ByteReader:
    """Bounded reads over data[start:end]; offsets reported are absolute in the file."""

    __slots__ = ("data", "pos", "end", "what")

    def __init__(self, data: bytes, start: int = 0, end: int | None = None, what: str = ""):
        self.data = data
        self.pos = start
        self.end = len(data) if end is None else end
        self.what = what

    def fail(self, message: str, at: int | None = None) -> DecodeError:
        where = f" in {self.what}" if self.what else ""
        return DecodeError(self.pos if at is None else at, f"{message}{where}")

    def remaining(self) -> int:
        return self.end - self.pos

    def at_end(self) -> bool:
        return self.pos >= self.end

    def byte(self, what: str = "a byte") -> int:
        if self.pos >= self.end:
            raise self.fail(f"unexpected end of data, expected {what}")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self, what: str = "a varint") -> int:
        start = self.pos
        if start < self.end:  # one byte (nearly every opcode, index and count): no loop
            b = self.data[start]
            if b < 0x80:
                self.pos = start + 1
                return b
        result = 0
        shift = 0
        while True:
            if self.pos >= self.end:
                raise self.fail(f"unexpected end of data, expected {what}", start)
            b = self.data[self.pos]
            self.pos += 1
            if shift > 63:
                raise self.fail(f"varint longer than 10 bytes, expected {what}", start)
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result & 0xFFFFFFFFFFFFFFFF  # as a 64-bit reader keeps it

    def svarint(self, what: str = "a signed varint") -> int:
        u = self.varint(what)
        return (u >> 1) ^ -(u & 1)  # in [-2**63, 2**63)

    def count(self, what: str, unit: int = 1) -> int:
        """A count of items each at least `unit` bytes long: bounded by the remaining bytes."""
        at = self.pos
        n = self.varint(f"the number of {what}")
        if n * unit > self.remaining():
            raise self.fail(
                f"{n} {what} cannot fit in the {self.remaining()} remaining bytes",
                at,
            )
        return n

    def take(self, n: int, what: str) -> bytes:
        if n < 0 or n > self.remaining():
            raise self.fail(f"unexpected end of data, expected {n} bytes of {what} ({self.remaining()} left)")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def uint(self, width: int, what: str) -> int:
        return int.from_bytes(self.take(width, what), "little")

    def uints(self, n: int, width: int, what: str) -> list[int]:
        """`n` unsigned `width`-byte ints (a table's offsets): one `struct` call when they fit."""
        code = _UINT_CODES.get(width)
        if code is None or n * width > self.remaining():  # (the item that does not fit says so)
            return [self.uint(width, what) for _ in range(n)]
        out = list(struct.unpack_from(f"<{n}{code}", self.data, self.pos))
        self.pos += n * width
        return out

    def sint(self, width: int, what: str) -> int:
        return int.from_bytes(self.take(width, what), "little", signed=True)

    def align(self, alignment: int, base: int) -> None:
        """Skip padding so that (pos - base) is a multiple of `alignment`."""
        pad = -(self.pos - base) % alignment
        if pad > self.remaining():
            raise self.fail(f"unexpected end of data in {pad} bytes of alignment padding")
        self.pos += pad

    def int_list(self, width: int, what: str) -> list[int]:
        n = self.count(what, width)
        return [self.sint(width, what) for _ in range(n)]


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic collector off while a whole module is decoded or encoded (nested uses keep it
    off until the outermost ends). Building a 100 KB file's IR makes ~10^5 tracked objects, and
    the collections they trigger (a young one every 700, now and then a full one over the whole
    heap) took from a seventh to over half of a decode (114 KB: 162 -> 140 ms at best, 455 -> 140
    ms in a process holding ~10^6 objects). What is built is kept (the IR), so a collection
    during it frees nothing; one young collection runs as the pause ends (it is part of the
    decode's time), as the CLI's `cli_compile` pauses it for a whole compile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def put_varint(buf: bytearray, x: int) -> None:
    if x < 0:
        raise ValueError(f"negative varint {x}")
    while x >= 0x80:
        buf.append((x & 0x7F) | 0x80)
        x >>= 7
    buf.append(x)


def put_svarint(buf: bytearray, x: int) -> None:
    """Zigzag varint of a 64-bit value (an unsigned 64-bit pattern is taken as its signed twin)."""
    if x >= 1 << 63:
        x -= 1 << 64
    put_varint(buf, (x << 1) if x >= 0 else ((-x) << 1) - 1)


def put_int_list(buf: bytearray, values: list[int] | tuple[int, ...], width: int) -> None:
    put_varint(buf, len(values))
    for v in values:
        buf.extend(int(v).to_bytes(width, "little", signed=True))


def pad_to(buf: bytearray, alignment: int, base: int = 0) -> None:
    buf.extend(bytes([ALIGN_BYTE]) * (-(len(buf) - base) % alignment))
