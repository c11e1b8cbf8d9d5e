"""LLVM IR spellings of llvm-dialect types and constants (used by `llvmir.py`).

Every function returns None (instead of raising) for what LLVM IR cannot spell, so the
emitter can put a diagnostic on the op that needed it.
"""

from __future__ import annotations

import math
import struct

from xdsl.dialects import builtin
from xdsl.dialects import llvm as x
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, Operation

_UNREGISTERED = builtin.UnregisteredOp.name

# LLVM 22's NVPTX 64-bit data layout (what `TargetMachine.target_data` reports).
NVPTX_DATALAYOUT = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
NVPTX_TRIPLE = "nvptx64-nvidia-cuda"


# type_text memo. xDSL attributes are immutable, so a type's spelling never changes. The first
# level is keyed by identity (the emitter meets the same type objects over and over; hashing a
# big struct type walks all its fields), the second by equality (equal types built separately).
# Entries hold their type, so an id is never reused while its entry lives. Both are cleared
# when full, which bounds what a long-running server keeps alive.
_TYPE_TEXT_MAX = 4096
_type_text_by_id: dict[int, tuple[Attribute, str | None]] = {}
_type_text_by_eq: dict[Attribute, str | None] = {}


def type_text(t: Attribute) -> str | None:
    """`i32`, `float`, `ptr addrspace(3)`, `<4 x float>`, `{ i32, i1 }`, `[4 x i8]`, `void`."""
    hit = _type_text_by_id.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    if t in _type_text_by_eq:
        text = _type_text_by_eq[t]
    else:
        text = _spell_type(t)
        if len(_type_text_by_eq) >= _TYPE_TEXT_MAX:
            _type_text_by_eq.clear()
        _type_text_by_eq[t] = text
    if len(_type_text_by_id) >= _TYPE_TEXT_MAX:
        _type_text_by_id.clear()
    _type_text_by_id[id(t)] = (t, text)
    return text


_FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)


def _scalar_spelling(t: Attribute, float_names: tuple[str, str, str, str]) -> str | None:
    """An integer type as `iN` (index: `i64`), a float type as its name in `float_names` (in the
    order f16, bf16, f32, f64); None for any other type."""
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, IndexType):
        return "i64"
    for float_type, name in zip(_FLOAT_TYPES, float_names):
        if isinstance(t, float_type):
            return name
    return None


def _spell_type(t: Attribute) -> str | None:
    scalar = _scalar_spelling(t, ("half", "bfloat", "float", "double"))
    if scalar is not None:
        return scalar
    if isinstance(t, x.LLVMPointerType):
        space = address_space(t)
        return f"ptr addrspace({space})" if space else "ptr"
    if isinstance(t, x.LLVMVoidType):
        return "void"
    if isinstance(t, VectorType):
        if t.get_num_scalable_dims() or len(t.get_shape()) != 1:
            return None
        elem = type_text(t.element_type)
        return None if elem is None else f"<{t.get_shape()[0]} x {elem}>"
    if isinstance(t, x.LLVMArrayType):
        elem = type_text(t.type)
        return None if elem is None else f"[{t.size.data} x {elem}]"
    if isinstance(t, x.LLVMStructType):
        if t.struct_name.data:
            return None
        fields = [type_text(f) for f in t.types.data]
        if any(f is None for f in fields):
            return None
        return "{ " + ", ".join(f for f in fields if f) + " }" if fields else "{}"
    return None


def address_space(t: x.LLVMPointerType) -> int:
    space = t.addr_space
    return space.data if hasattr(space, "data") and isinstance(space.data, int) else 0


def mangle(t: Attribute) -> str | None:
    """The overloaded-intrinsic suffix of a type: `f32`, `i16`, `v4f32`, `p3`."""
    scalar = _scalar_spelling(t, ("f16", "bf16", "f32", "f64"))
    if scalar is not None:
        return scalar
    if isinstance(t, x.LLVMPointerType):
        return f"p{address_space(t)}"
    if isinstance(t, VectorType) and len(t.get_shape()) == 1:
        elem = mangle(t.element_type)
        return None if elem is None else f"v{t.get_shape()[0]}{elem}"
    return None


def float_text(value: float, t: Attribute) -> str | None:
    """An exact hexadecimal float literal (`0x...` double bits; `0xH` half; `0xR` bfloat)."""
    if isinstance(t, Float64Type):
        return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"
    if isinstance(t, Float32Type):
        rounded = struct.unpack("<f", struct.pack("<f", value))[0] if math.isfinite(value) else value
        return f"0x{struct.unpack('<Q', struct.pack('<d', rounded))[0]:016X}"
    if isinstance(t, Float16Type):
        try:
            return f"0xH{struct.unpack('<H', struct.pack('<e', value))[0]:04X}"
        except OverflowError:
            return "0xH7C00" if value > 0 else "0xHFC00"
    if isinstance(t, BFloat16Type):
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        if math.isnan(value):
            return "0xR7FC0"
        bits += 0x7FFF + ((bits >> 16) & 1)  # round to nearest even
        return f"0xR{(bits >> 16) & 0xFFFF:04X}"
    return None


def scalar_text(value: int | float, t: Attribute) -> str | None:
    if isinstance(t, IntegerType):
        width = t.width.data
        v = int(value)
        if width == 1:
            return "true" if v & 1 else "false"
        # LLVM reads decimal literals modulo 2^width; print the signed form.
        v &= (1 << width) - 1
        if v >= 1 << (width - 1):
            v -= 1 << width
        return str(v)
    if isinstance(t, IndexType):
        return str(int(value))
    return float_text(float(value), t)


def string_text(data: str | bytes) -> str:
    """`c"..."` with LLVM escapes (`\\XX` for non-printable bytes, quotes and backslashes)."""
    raw = data.encode("latin-1", errors="replace") if isinstance(data, str) else data
    out = []
    for b in raw:
        if 0x20 <= b < 0x7F and b not in (0x22, 0x5C):
            out.append(chr(b))
        else:
            out.append(f"\\{b:02X}")
    return 'c"' + "".join(out) + '"'


def quoted(text: str) -> str:
    """A quoted LLVM string (inline asm, attributes, syncscopes)."""
    return string_text(text)[1:]


def constant_text(value: Attribute, t: Attribute) -> str | None:
    """The LLVM constant (without its type) for an attribute of type `t`."""
    if isinstance(value, IntegerAttr):
        return scalar_text(value.value.data, t)
    if isinstance(value, FloatAttr):
        return scalar_text(value.value.data, t)
    if isinstance(value, StringAttr):
        return string_text(value.data)
    if isinstance(value, DenseIntOrFPElementsAttr):
        values: list[int | float] = list(value.get_values())
        return _aggregate(values, t)
    return None


def _aggregate(values: list[int | float], t: Attribute) -> str | None:
    """Vectors and (nested) arrays filled row-major from a flat list (a splat repeats)."""
    if isinstance(t, VectorType):
        n = t.get_shape()[0]
        elem = t.element_type
        items = _fill(values, n)
        texts = [scalar_text(v, elem) for v in items]
        etext = type_text(elem)
        if etext is None or any(s is None for s in texts):
            return None
        return "<" + ", ".join(f"{etext} {s}" for s in texts) + ">"
    if isinstance(t, x.LLVMArrayType):
        n = t.size.data
        elem = t.type
        etext = type_text(elem)
        if etext is None:
            return None
        inner = _leaf_count(elem)
        items = _fill(values, n * inner)
        parts: list[str] = []
        for i in range(n):
            chunk = items[i * inner : (i + 1) * inner]
            text = _aggregate(chunk, elem) if inner != 1 or not _is_scalar(elem) else scalar_text(chunk[0], elem)
            if text is None:
                return None
            parts.append(f"{etext} {text}")
        return "[" + ", ".join(parts) + "]"
    if _is_scalar(t) and values:
        return scalar_text(values[0], t)
    return None


def _fill(values: list[int | float], n: int) -> list[int | float]:
    if len(values) == 1:
        return values * n
    return values[:n]


def _is_scalar(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType | Float16Type | BFloat16Type | Float32Type | Float64Type)


def _leaf_count(t: Attribute) -> int:
    if isinstance(t, VectorType):
        return t.get_shape()[0]
    if isinstance(t, x.LLVMArrayType):
        return t.size.data * _leaf_count(t.type)
    return 1


def constant_of(op: Operation) -> str | None:
    """The inline constant an op stands for (constants, undef/poison/zero, addressof), or None."""
    name = op.name  # (name compares: this is asked of every operand of every op)
    if name == "llvm.mlir.constant":
        return constant_text(op.value, op.result.type)  # type: ignore[attr-defined]
    if name == "llvm.mlir.undef":
        return "undef"
    if name == "llvm.mlir.poison":
        return "poison"
    if name == "llvm.mlir.zero":
        return "zeroinitializer"
    if name == "llvm.mlir.addressof":
        return "@" + symbol(op.global_name.root_reference.data)  # type: ignore[attr-defined]
    return None


def op_name(op: Operation) -> str:
    """The name as written (unregistered ops keep theirs in `op_name`)."""
    name = op.name
    if name == _UNREGISTERED:  # (a name compare: xDSL makes a subclass per unregistered name)
        return op.op_name.data  # type: ignore[attr-defined, no-any-return]
    return name


def symbol(name: str) -> str:
    if name and all(c.isalnum() or c in "._$" for c in name) and not name[0].isdigit():
        return name
    return quoted(name)


def cconv_text(value: Attribute | None) -> str:
    if isinstance(value, x.CallingConventionAttr):
        name = value.cconv_name
        return "" if name == "ccc" else name.removeprefix("cc_") if name.startswith("cc_") else name
    return ""


class Unsupported(Exception):
    """Raised inside the emitter only; becomes a diagnostic at `op`."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


def dict_list(value: Attribute | None) -> list[DictionaryAttr | None]:
    if not isinstance(value, ArrayAttr):
        return []
    return [v if isinstance(v, DictionaryAttr) else None for v in value.data]
