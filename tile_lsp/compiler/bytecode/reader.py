"""Tile IR bytecode -> the IR the text front end builds (xDSL ops of our cuda_tile dialect).

Why decode straight to ops (not via text): the instruction layouts (`opspec.OPS`) are a
table that the writer reads too, so the reader and writer cannot drift apart; ops are made
through the dialect registry exactly as the text parser makes them (`registry.create_op`,
the same property representations), and then our verifier runs on them. Debug info becomes
the ops' locations (`#cuda_tile.di_loc<loc("file.py":line:col) in #di_subprogram>`, call
sites, `loc(unknown)`), so IR read from a cuTile bytecode points at the Python lines.

Errors: malformed input (bad magic, unsupported version, a length or index past the data,
an unknown opcode, a value out of range) is one `Diagnostic` at the byte offset where the
reader stopped, saying what it expected; never an exception, never a hang (every count is
bounded by the bytes left, type/debug references are checked for cycles). Diagnostics'
spans are byte offsets: `read_bytecode` makes the `SourceText` the bytes as latin-1 (one
character per byte), so offset N is character N.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, cast

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler.bytecode import format as F
from tile_lsp.compiler.bytecode import preview as PV
from tile_lsp.compiler.bytecode.format import ByteReader, DecodeError, gc_paused
from tile_lsp.compiler.bytecode.opspec import OPS, Layout
from tile_lsp.compiler.diagnostics import Diagnostic, DiagnosticSink
from tile_lsp.compiler.source import SourceText, Span

_MAX_DEPTH = 100  # region nesting
_MAX_TYPE_DEPTH = 100  # types within types, debug scopes within scopes (call-site chains)


def is_bytecode(data: bytes) -> bool:
    return data[: len(F.MAGIC)] == F.MAGIC


@dataclass
class Decoded:
    """What `decode` returns: the module (or None), diagnostics, and facts of the file."""

    module: builtin.ModuleOp | None
    diagnostics: list[Diagnostic]
    version: int = 0
    producer: str | None = None
    op_spans: dict[Operation, Span] = field(default_factory=dict)


def read_bytecode(data: bytes, path: str = "<bytecode>", verify: bool = True, locations: bool = True):
    """Bytes -> a `frontend.ParseResult` (source = the bytes as latin-1; spans = byte offsets)."""
    with gc_paused():
        return _read_bytecode(data, path, verify, locations)


def _read_bytecode(data: bytes, path: str, verify: bool, locations: bool):
    from tile_lsp.compiler.frontend import ParseResult, collect_symbols, redefined_symbols
    from tile_lsp.compiler.syntax.sourcemap import OpInfo, SourceMap

    source = SourceText(data.decode("latin-1"), path)
    dec = decode(data, locations=locations)
    smap = SourceMap()
    diags = list(dec.diagnostics)
    if dec.module is not None and verify:
        from tile_lsp.compiler.verifier import verify_ops
        from tile_lsp.compiler.verify_context import VerifyContext

        for op, span in dec.op_spans.items():
            smap.ops[op] = OpInfo(span, Span(span.start, min(span.end, span.start + 1)))
        sink = DiagnosticSink()
        ctx = VerifyContext(smap, sink, symbols=collect_symbols(dec.module), generic_ops=set())
        try:
            verify_ops(dec.module.ops, ctx, set())
            sink.items.extend(redefined_symbols(dec.module, smap))
        except Exception as exc:  # pragma: no cover - a verifier bug must stay a diagnostic
            sink.error(Span(0, 0), f"internal error verifying the decoded bytecode: {exc!r}")
        diags.extend(sink.items)
    diags.sort(key=lambda d: d.span.start)
    return ParseResult(source, Span(0, len(source.text)), dec.module, diags, smap, dec.producer)


def decode(data: bytes, locations: bool = True) -> Decoded:
    """Decode a whole bytecode file; never raises for bad input."""
    with gc_paused():
        return _decode(data, locations)


def _decode(data: bytes, locations: bool) -> Decoded:
    r = _FileReader(bytes(data), locations)
    try:
        module = r.read()
        return Decoded(module, [], r.version, r.producer, r.op_spans)
    except DecodeError as e:
        at = max(0, min(e.offset, len(data)))
        return Decoded(
            None, [_diag(at, f"invalid Tile IR bytecode at byte offset {at}: {e.message}", len(data))], r.version
        )
    except RecursionError:
        return Decoded(None, [_diag(0, "invalid Tile IR bytecode: nesting is too deep", len(data))], r.version)
    except Exception as exc:  # a reader bug must be a diagnostic, never a crash
        return Decoded(
            None,
            [_diag(0, f"internal error in the Tile IR bytecode reader (please report): {exc!r}", len(data))],
            r.version,
        )


def _diag(at: int, message: str, size: int) -> Diagnostic:
    from tile_lsp.compiler.diagnostics import Severity

    end = at + 1 if at < size else at
    return Diagnostic(Span(at, end), Severity.ERROR, message, stage="bytecode")


# -- scalar types ---------------------------------------------------------------

_SCALARS: dict[int, Attribute] = {
    F.T_I1: builtin.i1,
    F.T_I8: builtin.i8,
    F.T_I16: builtin.IntegerType(16),
    F.T_I32: builtin.i32,
    F.T_I64: builtin.i64,
    F.T_F16: builtin.Float16Type(),
    F.T_BF16: builtin.BFloat16Type(),
    F.T_F32: builtin.Float32Type(),
    F.T_TF32: builtin.FloatTF32Type(),
    F.T_F64: builtin.Float64Type(),
    F.T_F8E4M3FN: builtin.Float8E4M3FNType(),
    F.T_F8E5M2: builtin.Float8E5M2Type(),
    F.T_F8E8M0FNU: builtin.Float8E8M0FNUType(),
    F.T_F4E2M1FN: builtin.Float4E2M1FNType(),
    F.T_I4: builtin.IntegerType(4),
}


def _bits(t: Attribute) -> int:
    if isinstance(t, builtin.IntegerType):
        return t.width.data
    from tile_lsp.compiler.dialects.cuda_tile.floats import float_format

    fmt = float_format(t)
    if fmt is None:
        raise ValueError(f"no bit width for {t}")
    return fmt.width


class _FileReader:
    def __init__(self, data: bytes, locations: bool):
        self.data = data
        self.locations = locations
        self.version = 0
        self.producer: str | None = None
        self.preview = False  # the header's public-preview bit (the 13.5 SIMT preview)
        self.sections: dict[int, tuple[int, int]] = {}
        self.strings: list[tuple[int, int]] = []
        self.type_offsets: list[tuple[int, int]] = []
        self.type_cache: dict[int, Attribute] = {}
        self.type_busy: set[int] = set()
        self.constants: list[tuple[int, int]] = []
        self.di_func_offsets: list[int] = []
        self.di_indices: list[int] = []
        self.di_attr_offsets: list[tuple[int, int]] = []
        self.di_cache: dict[int, Attribute] = {}
        self.di_busy: set[int] = set()
        self.op_spans: dict[Operation, Span] = {}
        self.shape_errors: dict[tuple, str | None] = {}  # (opcode, counts, property names) -> structure_error
        self.dense_cache: dict[tuple[int, Attribute], Attribute] = {}
        self.shared_attrs: dict[tuple[Callable, tuple], Attribute] = {}
        self._ct: Any = None

    # -- helpers ----------------------------------------------------------------
    @property
    def ct(self):  # the dialect modules, imported on first use
        if self._ct is None:
            from tile_lsp.compiler.dialects import registry
            from tile_lsp.compiler.dialects.cuda_tile import attrs, control_assume, debuginfo, hints, types
            from tile_lsp.compiler.syntax import locations

            self._ct = (registry, types, attrs, control_assume, debuginfo, hints, locations)
        return self._ct

    def string(self, r: ByteReader, what: str) -> str:
        at = r.pos
        i = r.varint(f"a string index ({what})")
        if i >= len(self.strings):
            raise r.fail(f"string index {i} out of range ({len(self.strings)} strings), expected {what}", at)
        s, e = self.strings[i]
        try:
            return self.data[s:e].decode("utf-8")
        except UnicodeDecodeError:
            raise DecodeError(s, f"string {i} ({what}) is not valid UTF-8") from None

    def shared(self, make: Callable[[tuple], Attribute], value: tuple) -> Attribute:
        """`make(value)`, made once per file for each value (assume predicates, flag arrays repeat
        op after op; attributes are immutable). `value` holds ints (and None) only."""
        a = self.shared_attrs.get((make, value))
        if a is None:
            a = self.shared_attrs[(make, value)] = make(value)
        return a

    def type_ref(self, r: ByteReader, what: str) -> Attribute:
        at = r.pos
        i = r.varint(f"a type index ({what})")
        t = self.type_cache.get(i)
        return t if t is not None else self.type_at(i, at, what)

    # -- header and sections ------------------------------------------------------
    def read(self) -> builtin.ModuleOp:
        r = ByteReader(self.data, what="the header")
        magic = self.data[: len(F.MAGIC)]
        if magic != F.MAGIC:
            for i, (a, b) in enumerate(zip(magic, F.MAGIC)):
                if a != b:
                    raise DecodeError(i, f"not a Tile IR bytecode file: bad magic byte {a:#04x}, expected {b:#04x}")
            raise DecodeError(len(magic), "not a Tile IR bytecode file: truncated magic number")
        r.pos = len(F.MAGIC)
        major = r.byte("the major version")
        minor = r.byte("the minor version")
        tag = r.uint(2, "the version tag")
        self.version = major * 10000 + minor * 100
        if self.version not in F.VERSIONS or tag & ~1:
            raise DecodeError(
                len(F.MAGIC),
                f"unsupported Tile IR bytecode version {major}.{minor}.{tag}; "
                f"expected {F.version_str(F.MIN_VERSION)} to {F.version_str(F.MAX_VERSION)}",
            )
        self.preview = bool(tag & PV.PREVIEW_HEADER_BIT)
        if self.preview and self.version < F.V13_5:
            raise DecodeError(len(F.MAGIC) + 2, PV.OLD_PREVIEW.format(f"{major}.{minor}.{tag}"))
        r.what = "the section headers"
        while True:
            at = r.pos
            idb = r.byte("a section id (or the end marker 0x00)")
            sid, aligned = idb & 0x7F, bool(idb & 0x80)
            if sid == F.SEC_END:
                if aligned:
                    raise r.fail("the end marker must not have the alignment bit", at)
                if not r.at_end():
                    raise r.fail(f"{r.remaining()} bytes after the end marker, expected the end of the file")
                break
            if sid >= F.NUM_SECTIONS:
                raise r.fail(f"unknown section id {sid}, expected 1-{F.NUM_SECTIONS - 1} or 0 (end)", at)
            if sid in self.sections:
                raise r.fail(f"second {F.SECTION_NAMES[sid]} section", at)
            lat = r.pos
            length = r.varint("a section length")
            if length > r.remaining():
                raise r.fail(f"section length {length} exceeds the {r.remaining()} remaining bytes", lat)
            align = 1
            if aligned:
                aat = r.pos
                align = r.varint("a section alignment")
                if align == 0 or align & (align - 1) or align > 4096:
                    raise r.fail(f"section alignment {align} is not a power of two up to 4096", aat)
                r.align(align, 0)
            need = F.SECTION_ALIGN.get(sid)
            if need and align % need:
                raise r.fail(
                    f"the {F.SECTION_NAMES[sid]} section must be aligned to a multiple of {need} bytes, not {align}", at
                )
            if length > r.remaining():
                raise r.fail(f"section length {length} exceeds the {r.remaining()} remaining bytes", lat)
            self.sections[sid] = (r.pos, r.pos + length)
            r.pos += length
        if F.SEC_STRING not in self.sections:
            raise DecodeError(len(self.data) - 1, "the string section is missing (it is mandatory)")
        if F.SEC_FUNC not in self.sections:
            raise DecodeError(len(self.data) - 1, "the function section is missing (it is mandatory)")
        self.strings = self._table(F.SEC_STRING, 4, "string")
        if F.SEC_PRODUCER in self.sections:
            s, e = self.sections[F.SEC_PRODUCER]
            self.producer = self.string(ByteReader(self.data, s, e, "the producer section"), "the producer")
        if F.SEC_TYPE in self.sections:
            self.type_offsets = self._table(F.SEC_TYPE, 4, "type")
        if F.SEC_CONSTANT in self.sections:
            self.constants = self._table(F.SEC_CONSTANT, 8, "constant")
        if F.SEC_DEBUG in self.sections:
            self._debug_section()
        items: list[Operation] = []
        if F.SEC_GLOBAL in self.sections:
            items.extend(self._globals())
        items.extend(self._functions())
        return builtin.ModuleOp(items)

    def _table(self, sid: int, width: int, what: str) -> list[tuple[int, int]]:
        """count | pad(width) | offsets (width bytes each) | data -> absolute (start, end) per item."""
        s, e = self.sections[sid]
        r = ByteReader(self.data, s, e, f"the {F.SECTION_NAMES[sid]} section")
        n = r.count(f"{what}s", width)
        if n == 0:
            return []
        r.align(width, s)
        if n * width > r.remaining():
            raise r.fail(f"{n} {what} offsets cannot fit in the {r.remaining()} remaining bytes")
        offs = r.uints(n, width, f"a {what} offset")
        base = r.pos
        size = e - base
        out = []
        for i, o in enumerate(offs):
            end = offs[i + 1] if i + 1 < n else size
            if not o <= end <= size:
                raise DecodeError(
                    s,
                    f"{what} {i} has offsets {o}..{end} outside its {size}-byte data in the {F.SECTION_NAMES[sid]} section",
                )
            out.append((base + o, base + end))
        return out

    # -- types ----------------------------------------------------------------------
    def type_at(self, i: int, at: int, what: str) -> Attribute:
        t = self.type_cache.get(i)
        if t is not None:
            return t
        if i >= len(self.type_offsets):
            raise DecodeError(at, f"type index {i} out of range ({len(self.type_offsets)} types), expected {what}")
        return self._decode_entry(i, at, "type", self.type_offsets[i], self.type_busy, self.type_cache, self._type)

    def _decode_entry(
        self,
        i: int,
        at: int,
        kind: str,
        where: tuple[int, int],
        busy: set[int],
        cache: dict[int, Attribute],
        decode: Callable[[ByteReader], Attribute],
    ) -> Attribute:
        """Entry `i` of a table that refers to its own entries (types, debug attributes), decoded
        from its bytes at `where` and cached; `busy` holds the entries being decoded."""
        if i in busy:
            raise DecodeError(at, f"{kind} {i} refers to itself")
        if len(busy) >= _MAX_TYPE_DEPTH:
            raise DecodeError(at, f"{kind}s nest more than {_MAX_TYPE_DEPTH} deep")
        busy.add(i)
        try:
            s, e = where
            a = decode(ByteReader(self.data, s, e, f"{kind} {i}"))
        finally:
            busy.discard(i)
        cache[i] = a
        return a

    def _type(self, r: ByteReader) -> Attribute:
        _, types, *_ = self.ct
        at = r.pos
        tag = r.varint("a type tag")
        since = F.TYPE_SINCE.get(tag)
        if since and self.version < since:
            raise r.fail(
                f"type tag {tag} needs bytecode {F.version_str(since)}, the file is {F.version_str(self.version)}", at
            )
        scalar = _SCALARS.get(tag)
        if scalar is not None:
            return scalar
        v = self.version
        if tag == F.T_F8E5M3FNU:
            return types.F8E5M3FNU
        if tag == F.T_TOKEN:
            return types.TokenType()
        if tag == F.T_PTR:
            flags = r.varint("the pointer flags") if v >= F.V13_4 else 0
            if flags & ~1:
                raise r.fail(f"unknown pointer flags {flags:#x}", at)
            pointee = self.type_ref(r, "the pointee type")
            return types.PointerType(pointee, self._ptr_attr(r) if flags & 1 else "")
        if tag == F.T_TILE:
            elem = self.type_ref(r, "the tile element type")
            shape = r.int_list(8, "tile dimensions")
            return types.tile([_dim(d) for d in shape], elem)
        if tag == F.T_TENSOR_VIEW:
            flags = r.varint("the tensor_view flags") if v >= F.V13_4 else 0
            if flags & ~1:
                raise r.fail(f"unknown tensor_view flags {flags:#x}", at)
            elem = self.type_ref(r, "the tensor_view element type")
            shape = r.int_list(8, "tensor_view dimensions")
            strides = r.int_list(8, "tensor_view strides")
            attr = self._ptr_attr(r) if flags & 1 else ""
            error = types.tensor_view_error([_dim(d) for d in shape], [_dim(d) for d in strides])
            if error is not None:
                raise r.fail(error, at)
            return types.TensorViewType(
                types.ints([_dim(d) for d in shape]), elem, types.ints([_dim(d) for d in strides]), attr
            )
        if tag == F.T_PARTITION_VIEW:
            pflags = r.varint("the partition_view flags") if v >= F.V13_3 else None
            tile_shape = r.int_list(4, "partition_view tile dimensions")
            tv = self._view_of(r)
            dim_map = r.int_list(4, "partition_view dim_map entries")
            if pflags is None:
                pflags = r.varint("the padding presence")
                if pflags > 1:
                    raise r.fail(f"padding presence {pflags}, expected 0 or 1")
            pad = self._padding(r) if pflags & 1 else ""
            return types.PartitionViewType(
                types.ints(tile_shape), tv, types.ints(_dim_map(dim_map)), builtin.StringAttr(pad)
            )
        if tag == F.T_GATHER_SCATTER_VIEW:
            flags = r.varint("the gather_scatter_view flags")
            tile_shape = r.int_list(4, "gather_scatter_view tile dimensions")
            tv = self._view_of(r)
            sparse = r.varint("the sparse dimension")
            pad = self._padding(r) if flags & 1 else ""
            return types.GatherScatterViewType(
                types.ints(tile_shape), tv, types.ints([sparse]), builtin.StringAttr(pad)
            )
        if tag == F.T_STRIDED_VIEW:
            flags = r.varint("the strided_view flags")
            tile_shape = r.int_list(4, "strided_view tile dimensions")
            steps = r.int_list(4, "strided_view traversal strides")
            tv = self._view_of(r)
            dim_map = r.int_list(4, "strided_view dim_map entries")
            pad = self._padding(r) if flags & 1 else ""
            return types.StridedViewType(
                types.ints(tile_shape), types.ints(steps), tv, types.ints(_dim_map(dim_map)), builtin.StringAttr(pad)
            )
        if tag == F.T_FUNC:
            n = r.count("function inputs")
            ins = [self.type_ref(r, "a function input type") for _ in range(n)]
            m = r.count("function results")
            outs = [self.type_ref(r, "a function result type") for _ in range(m)]
            return builtin.FunctionType.from_lists(ins, outs)
        raise r.fail(f"unknown type tag {tag}", at)

    def _ptr_attr(self, r: ByteReader) -> str:
        """A pointer attribute byte (13.4: none; 13.5: unicast, multicast)."""
        at = r.pos
        b = r.byte("the pointer attribute")
        cases = self.ct[1].PTR_ATTRS
        if b >= len(cases):
            raise r.fail(f"pointer attribute {b} out of range, expected 0-{len(cases) - 1}", at)
        if b and self.version < F.V13_5:
            raise r.fail(f"pointer attribute <{cases[b]}> needs bytecode 13.5, the file is {F.version_str(self.version)}", at)
        return cases[b]

    def _view_of(self, r: ByteReader) -> Attribute:
        at = r.pos
        tv = self.type_ref(r, "the tensor_view of a view")
        if not isinstance(tv, self.ct[1].TensorViewType):
            raise r.fail("a view's base type is not a tensor_view", at)
        return tv

    def _padding(self, r: ByteReader) -> str:
        at = r.pos
        p = r.varint("a padding value")
        if p >= len(F.PADDING_VALUES):
            raise r.fail(f"padding value {p} out of range, expected 0-{len(F.PADDING_VALUES) - 1}", at)
        return F.PADDING_VALUES[p]

    # -- constants --------------------------------------------------------------------
    def dense(self, r: ByteReader, t: Attribute) -> Attribute:
        _, types, attrs, *_ = self.ct
        at = r.pos
        i = r.varint("a constant index")
        if i >= len(self.constants):
            raise r.fail(f"constant index {i} out of range ({len(self.constants)} constants)", at)
        a = self.dense_cache.get((i, t))  # a constant shared by ops (the writer stores each once)
        if a is None:
            s, e = self.constants[i]
            cr = ByteReader(self.data, s, e, f"constant {i}")
            n = cr.varint("the constant's byte size")
            raw = cr.take(n, "constant data")
            a = self.dense_cache[(i, t)] = _dense_from_raw(raw, t, types, attrs, s)
        return a

    # -- debug info -----------------------------------------------------------------
    def _debug_section(self) -> None:
        s, e = self.sections[F.SEC_DEBUG]
        r = ByteReader(self.data, s, e, "the debug info section")
        nf = r.count("functions with debug info", 4)
        r.align(4, s)
        self.di_func_offsets = r.uints(nf, 4, "a debug index offset")
        ni = r.varint("the number of debug indices")
        r.align(8, s)
        if ni * 8 > r.remaining():
            raise r.fail(f"{ni} debug indices cannot fit in the {r.remaining()} remaining bytes")
        self.di_indices = r.uints(ni, 8, "a debug index")
        na = r.count("debug info attributes", 4)
        if na:
            r.align(4, s)
        if na * 4 > r.remaining():
            raise r.fail(f"{na} debug attribute offsets cannot fit in the {r.remaining()} remaining bytes")
        offs = r.uints(na, 4, "a debug attribute offset")
        base, size = r.pos, e - r.pos
        for k, o in enumerate(offs):
            end = offs[k + 1] if k + 1 < na else size
            if not o <= end <= size:
                raise DecodeError(s, f"debug attribute {k + 1} has offsets {o}..{end} outside its {size}-byte data")
            self.di_attr_offsets.append((base + o, base + end))

    def di_iter(self, loc_index: int, at: int) -> Callable[[], Attribute]:
        """Locations of a function: its own first, then one per op in creation order."""
        locs = self.ct[6]
        if loc_index == 0 or not self.locations:
            return lambda: locs.UnknownLoc() if self.locations else builtin.UNKNOWN_LOC
        k = loc_index - 1
        if k >= len(self.di_func_offsets):
            raise DecodeError(
                at, f"function debug index {loc_index} out of range ({len(self.di_func_offsets)} entries)"
            )
        pos = [self.di_func_offsets[k]]
        end = self.di_func_offsets[k + 1] if k + 1 < len(self.di_func_offsets) else len(self.di_indices)
        end = min(end, len(self.di_indices))
        indices, cache = self.di_indices, self.di_cache

        def nxt() -> Attribute:
            p = pos[0]
            if p >= end:
                raise DecodeError(at, "the debug info section has fewer locations than the function has ops")
            pos[0] = p + 1
            i = indices[p]
            a = cache.get(i)
            return a if a is not None else self.di(i, at)

        return nxt

    def di(self, i: int, at: int) -> Attribute:
        if i == 0:  # no location: one (immutable) attribute for all (~50 us to make each)
            a = self.di_cache.get(0)
            if a is None:
                a = self.di_cache[0] = self.ct[6].UnknownLoc()
            return a
        a = self.di_cache.get(i)
        if a is not None:
            return a
        if i - 1 >= len(self.di_attr_offsets):
            raise DecodeError(at, f"debug attribute index {i} out of range ({len(self.di_attr_offsets)} attributes)")
        return self._decode_entry(
            i, at, "debug attribute", self.di_attr_offsets[i - 1], self.di_busy, self.di_cache, self._di
        )

    def _di_ref(self, r: ByteReader, cls: type | tuple[type, ...], what: str) -> Attribute:
        at = r.pos
        a = self.di(r.varint(f"a debug attribute index ({what})"), at)
        if not isinstance(a, cls):
            raise r.fail(f"debug attribute is a {type(a).__name__}, expected {what}", at)
        return a

    def _di(self, r: ByteReader) -> Attribute:
        *_, di, _, locs = self.ct
        at = r.pos
        tag = r.varint("a debug info tag")
        i = builtin.IntAttr
        if tag == D_FILE:
            return di.DIFileAttr(
                builtin.StringAttr(self.string(r, "the file name")), builtin.StringAttr(self.string(r, "the directory"))
            )
        if tag == D_COMPILE_UNIT:
            return di.DICompileUnitAttr(self._di_ref(r, di.DIFileAttr, "a di_file"))
        if tag == D_SUBPROGRAM:
            file = self._di_ref(r, di.DIFileAttr, "a di_file")
            line = r.varint("a line number")
            name = self.string(r, "the subprogram name")
            linkage = self.string(r, "the linkage name")
            cu = self._di_ref(r, di.DICompileUnitAttr, "a di_compile_unit")
            scope_line = r.varint("the scope line")
            if self.version >= F.V13_5:
                r.varint("the subprogram flags")
            return di.DISubprogramAttr(
                file, i(line), builtin.StringAttr(name), builtin.StringAttr(linkage), cu, i(scope_line)
            )
        if tag == D_LEXICAL_BLOCK:
            scope = self._di_ref(r, (di.DISubprogramAttr, di.DILexicalBlockAttr), "a scope")
            file = self._di_ref(r, di.DIFileAttr, "a di_file")
            line = r.varint("a line number")
            col = r.varint("a column number")
            return di.DILexicalBlockAttr(scope, file, i(line), i(col))
        if tag == D_LOC:
            scope = self._di_ref(r, (di.DISubprogramAttr, di.DILexicalBlockAttr), "a scope")
            name = self.string(r, "the file name")
            line = r.varint("a line number")
            col = r.varint("a column number")
            return di.DILocAttr(locs.file_loc(name, line, col), scope)
        if tag == D_CALL_SITE:
            callee = self._di_ref(r, locs.Location, "a location")
            caller = self._di_ref(r, locs.Location, "a location")
            return locs.CallSiteLoc(callee, caller)
        if tag == D_UNKNOWN:
            return locs.UnknownLoc()
        raise r.fail(f"unknown debug info tag {tag}", at)

    # -- tagged attributes -------------------------------------------------------------
    def tagged(self, r: ByteReader, depth: int = 0) -> Attribute:
        _, types, attrs, assume, _, hints, _ = self.ct
        if depth > 64:
            raise r.fail("attributes nest too deeply")
        at = r.pos
        tag = r.varint("an attribute tag")
        if tag == F.A_INTEGER:
            t = self.type_ref(r, "an integer type")
            if not isinstance(t, builtin.IntegerType):
                raise r.fail("an integer attribute's type is not an integer type", at)
            return _int(_signed(r.varint("an integer value"), t.width.data, r, at), t.width.data)
        if tag == F.A_FLOAT:
            t = self.type_ref(r, "a float type")
            return builtin.FloatAttr(self._float_bits(r, t, at), cast(Any, t))
        if tag == F.A_BOOL:
            b = r.byte("a bool")
            return _int(1 if b else 0, 1)
        if tag == F.A_TYPE:
            return self.type_ref(r, "a type")  # a type used as an attribute
        if tag == F.A_STRING:
            return _str(self.string(r, "a string attribute"))
        if tag == F.A_ARRAY:
            n = r.count("array elements")
            return builtin.ArrayAttr([self.tagged(r, depth + 1) for _ in range(n)])
        if tag == F.A_DENSE:
            t = self.type_ref(r, "the type of a dense attribute")
            return self.dense(r, t)
        if tag == F.A_DIV_BY:
            div = r.varint("a divisor")
            fl = r.byte("the div_by flags")
            every = r.svarint("every") if fl & 1 else None
            along = r.svarint("along") if fl & 2 else None
            if (every is None) != (along is None):
                raise r.fail("div_by has only one of 'every' and 'along', which the dialect cannot hold", at)
            return self.shared(assume.DivByAttr, (div,) if every is None else (div, every, along))
        if tag == F.A_SAME_ELEMENTS:
            vals = r.int_list(8, "same_elements values")
            return self.shared(assume.SameElementsAttr, tuple(vals))
        if tag == F.A_BOUNDED:
            fl = r.byte("the bounded flags")
            lb = r.svarint("a lower bound") if fl & 1 else None
            ub = r.svarint("an upper bound") if fl & 2 else None
            return self.shared(assume.BoundedAttr, (lb, ub))
        if tag == F.A_DICT:
            return self.dictionary(r, depth)
        if tag == F.A_OPT_HINTS:
            return hints.OptimizationHintsAttr(self.dictionary(r, depth))
        if tag in PV.PREVIEW_ATTR_TAGS:
            return PV.read_attr(self, r, tag, at)
        raise r.fail(f"unknown attribute tag {tag}", at)

    def dictionary(self, r: ByteReader, depth: int = 0) -> builtin.DictionaryAttr:
        n = r.count("dictionary entries", 2)
        out: dict[str, Attribute] = {}
        for _ in range(n):
            at = r.pos
            key = self.string(r, "a dictionary key")
            if not key:
                raise r.fail("empty dictionary key", at)
            if key in out:
                raise r.fail(f"duplicate dictionary key '{key}'", at)
            out[key] = self.tagged(r, depth + 1)
        return builtin.DictionaryAttr(out)

    def _float_bits(self, r: ByteReader, t: Attribute, at: int) -> float:
        from tile_lsp.compiler.dialects.cuda_tile.floats import float_format, from_bits

        fmt = float_format(t)
        if fmt is None:
            raise r.fail("a float attribute's type is not a float type", at)
        if fmt.width <= 8:
            bits = r.byte("float bits")
        else:
            bits = r.svarint("float bits") & ((1 << 64) - 1)
        if bits >> fmt.width:
            raise r.fail(f"float bits {bits:#x} do not fit in {fmt.width} bits", at)
        return from_bits(bits, fmt)

    # -- globals and functions -------------------------------------------------------------
    def _globals(self) -> list[Operation]:
        registry, types, attrs, *_ = self.ct
        s, e = self.sections[F.SEC_GLOBAL]
        r = ByteReader(self.data, s, e, "the global section")
        n = r.count("globals", 6 if self.version >= F.V13_3 else 4)
        cls = registry.op_class("cuda_tile.global")
        out = []
        for _ in range(n):
            at, name = self._entry_name(r, "a global's name", "empty global name")
            t = self.type_ref(r, "a global's type")
            value = self.dense(r, t)
            align = r.varint("a global's alignment")
            vis, const = 0, 0
            if self.version >= F.V13_3:
                vat = r.pos
                vis = r.varint("a global's visibility")
                if vis > 1:
                    raise r.fail(f"symbol visibility {vis}, expected 0 (public) or 1 (private)", vat)
                const = r.varint("a global's constant flag")
            props: dict[str, Attribute] = {"sym_name": builtin.StringAttr(name), "value": value, "type": t}
            if align:
                props["alignment"] = builtin.IntegerAttr(align, builtin.i64)
            if vis:
                props["sym_visibility"] = builtin.StringAttr("private")
            if const:
                props["constant"] = builtin.UnitAttr()
            op = registry.create_op(cls, [], [], props, {}, [])
            if self.locations:
                op.location = self.ct[6].UnknownLoc()
            self.op_spans[op] = Span(at, r.pos)
            out.append(op)
        return out

    def _entry_name(self, r: ByteReader, what: str, empty: str) -> tuple[int, str]:
        """Where a global or function entry starts, and its name (`empty` when it has none)."""
        at = r.pos
        name = self.string(r, what)
        if not name:
            raise r.fail(empty, at)
        return at, name

    def _functions(self) -> list[Operation]:
        registry, *_ = self.ct
        s, e = self.sections[F.SEC_FUNC]
        r = ByteReader(self.data, s, e, "the function section")
        n = r.count("functions", 5)
        out = []
        for _ in range(n):
            at, name = self._entry_name(r, "a function name", "empty function name")
            tat = r.pos
            ftype = self.type_ref(r, "a function signature")
            if not isinstance(ftype, builtin.FunctionType):
                raise r.fail(f"function '{name}' signature is not a function type", tat)
            fat = r.pos
            flags = r.byte("the function flags")
            if not flags & F.F_KERNEL:
                raise r.fail(f"function '{name}' is not an entry (flags {flags:#04x}); only entries are supported", fat)
            if flags & ~(F.F_KERNEL | F.F_HAS_HINTS | F.F_PRIVATE):
                raise r.fail(f"unknown function flags {flags:#04x}", fat)
            lat = r.pos
            loc_index = r.varint("the function's debug index")
            hints_attr = None
            if self.version >= F.V13_5 or flags & F.F_HAS_HINTS:
                hat = r.pos
                hints_attr = self.tagged(r)
                if not isinstance(hints_attr, self.ct[5].OptimizationHintsAttr):
                    raise r.fail("expected optimization hints for the entry", hat)
            if self.version >= F.V13_5:
                aat = r.pos
                arg_attrs = self.tagged(r)
                if not isinstance(arg_attrs, builtin.ArrayAttr):
                    raise r.fail("expected the argument attributes array", aat)
                if any(not (isinstance(a, builtin.DictionaryAttr) and not a.data) for a in arg_attrs.data):
                    raise r.fail("argument attributes are not supported by tile-lsp's cuda_tile dialect", aat)
            length = r.varint("the function body length")
            if length > r.remaining():
                raise r.fail(f"function body length {length} exceeds the {r.remaining()} remaining bytes")
            body_start = r.pos
            r.pos += length
            nxt = self.di_iter(loc_index, lat)
            out.append(self._entry(name, ftype, hints_attr, nxt, body_start, body_start + length, at))
        return out

    def _entry(self, name, ftype, hints_attr, nxt, start, end, at) -> Operation:
        registry, types, attrs, assume, di, hints, locs = self.ct
        cls = registry.op_class("cuda_tile.entry")
        if hints_attr is None:
            hints_attr = hints.OptimizationHintsAttr(builtin.DictionaryAttr({}))
        loc = nxt()
        block = Block(arg_types=ftype.inputs.data)
        values: list[SSAValue] = list(block.args)
        body = ByteReader(self.data, start, end, f"the body of '{name}'")
        ops: list[Operation] = []
        while not body.at_end():
            ops.append(self._op(body, values, nxt, 0))
        block.add_ops(ops)
        props = {"sym_name": builtin.StringAttr(name), "function_type": ftype, "optimization_hints": hints_attr}
        op = registry.create_op(cls, [], [], props, {}, [Region([block])])
        op.location = loc
        self.op_spans[op] = Span(at, end)
        return op

    # -- instructions ----------------------------------------------------------------------
    def _op(self, r: ByteReader, values: list[SSAValue], nxt: Callable[[], Attribute], depth: int) -> Operation:
        if depth > _MAX_DEPTH:
            raise r.fail("regions nest too deeply")
        at = r.pos
        opcode = r.varint("an opcode")
        plan = _plans().get(opcode)
        if plan is None:
            if opcode >= 0x4000:
                raise r.fail(f"opcode {opcode} is in the SIMT preview's range, which tile-lsp does not support yet", at)
            raise r.fail(f"unknown opcode {opcode}", at)
        name = plan.name
        if opcode >= PV.FIRST_PREVIEW_OPCODE and not self.preview:
            raise r.fail(PV.NO_PREVIEW_FLAG.format(opcode), at)
        if plan.since > self.version:
            raise r.fail(
                f"opcode {opcode} ({name.lstrip('?')}) needs bytecode {F.version_str(plan.since)}, the file is {F.version_str(self.version)}",
                at,
            )
        if plan.cls is None and name.startswith("?"):
            raise r.fail(f"opcode {opcode} ({name[1:]}) is not supported by tile-lsp's cuda_tile dialect", at)
        loc = nxt()
        # results
        nres = plan.nres
        if nres is None:
            cat = r.pos
            nres = r.count("result types")
            if plan.res_seq is not None and nres != plan.res_seq:
                raise r.fail(f"'{name}' has {nres} result types, expected {plan.res_seq}", cat)
        rtypes = [self.type_ref(r, "a result type") for _ in range(nres)] if nres else []
        hidden_results = False
        if plan.hidden_print and not rtypes:
            # 13.1's print has no token; like NVIDIA's reader, make it a print_tko whose token
            # result no later op can refer to (it is not numbered).
            rtypes = [self.ct[1].TokenType()]
            hidden_results = True
        # flags
        flag_vals: dict[str, bool] = _NO_FLAGS
        props: dict[str, Attribute] = {}
        if plan.flags_since is not None and self.version >= plan.flags_since:
            fat = r.pos
            fv = r.varint("the op's flags")
            bits = plan.flag_bits
            if fv >> len(bits):
                raise r.fail(f"'{name}' flags {fv:#x} set unknown bits (it has {len(bits)})", fat)
            flag_vals = {fname: bool(fv >> b & 1) for b, (fname, _kind) in enumerate(bits)}
            for fname in plan.unit_flags:
                if flag_vals[fname]:
                    props[fname] = _UNIT
        # attributes
        for aname, kind, cond in plan.attrs:
            if cond == "opt":
                if not flag_vals.get(aname):
                    continue
            elif cond is not None and self.version < cond:
                continue
            value = self._attr(r, name, aname, kind, rtypes, r.pos)
            if value is not None:
                props[aname] = value
        # operands: one flat list and each group's size
        operands: list[SSAValue] = []
        sizes: list[int] = []
        total: int | None = None
        fixed_after = 0
        opt_count: bool | None = None  # what a ("count", "opt") said of the optional operand after it
        n_optional = 0
        for grp in plan.opnd:
            k = grp[0]
            if k == "single":
                operands.append(self._value(r, values))
                sizes.append(1)
                continue
            if k == "count":
                cat = r.pos
                total = r.count("operands")
                if grp[1] == "opt":
                    if total > 1:
                        raise r.fail(f"'{name}' optional operand count {total}, expected 0 or 1", cat)
                    opt_count = bool(total)
                else:
                    fixed_after = grp[1]
                    if total < fixed_after:
                        raise r.fail(f"'{name}' has {total} operands, expected at least {fixed_after}", cat)
                continue
            if k == "optional":
                if opt_count is not None:
                    n = int(opt_count)
                elif n_optional < len(plan.opt_flags):
                    n = int(flag_vals.get(plan.opt_flags[n_optional], False))
                else:
                    n = 0
                n_optional += 1
            elif k == "sized":
                n = r.count("operands")
            else:  # "unsized"
                n = (total or 0) - fixed_after
            operands.extend([self._value(r, values) for _ in range(n)])
            sizes.append(n)
        if "inbounds" in props and plan.first_sized is not None:
            _drop_default_inbounds(props, sizes[plan.first_sized])
        cls, fields = plan.cls, plan.fields
        if cls is None:  # pragma: no cover - the table only names ops of our dialect
            raise r.fail(f"no op class for '{name}'", at)
        if len(sizes) != len(fields.operands):
            raise r.fail(f"'{name}' decoded {len(sizes)} operand groups, the dialect has {len(fields.operands)}", at)
        if fields.segmented:
            props["operandSegmentSizes"] = _segment_sizes(tuple(sizes))
        # regions
        regions: list[Region] = []
        if plan.nregions:
            rat = r.pos
            nr = r.varint("the number of regions")
            if nr != plan.nregions:
                raise r.fail(f"'{name}' has {nr} regions, expected {plan.nregions}", rat)
            for _ in range(nr):
                regions.append(self._region(r, values, nxt, depth + 1))
        # MLIR's count checks depend only on these counts and property names: made once per shape
        shape = (opcode, len(operands), len(rtypes), len(regions), *props)
        bad = self.shape_errors.get(shape, _UNCHECKED)
        registry = self.ct[0]
        op = registry.create_op(cls, operands, rtypes, props, {}, regions)
        if bad is _UNCHECKED:
            bad = self.shape_errors[shape] = registry.structure_error(op)
        if bad is not None:
            raise r.fail(f"'{name}' does not fit its op: {bad}", at)
        op.location = loc
        if not hidden_results:
            values.extend(op.results)
        self.op_spans[op] = Span(at, r.pos)
        return op

    def _value(self, r: ByteReader, values: list[SSAValue]) -> SSAValue:
        at = r.pos
        i = r.varint("an operand (value index)")
        if i >= len(values):
            raise r.fail(f"value index {i} out of range ({len(values)} values defined here)", at)
        return values[i]

    def _region(self, r: ByteReader, values: list[SSAValue], nxt, depth: int) -> Region:
        at = r.pos
        nb = r.varint("the number of blocks")
        if nb == 0:  # an empty region (an `if` without `else`)
            return Region()
        if nb != 1:
            raise r.fail(f"a region with {nb} blocks, expected 0 or 1", at)
        na = r.count("block arguments")
        arg_types = [self.type_ref(r, "a block argument type") for _ in range(na)]
        block = Block(arg_types=arg_types)
        mark = len(values)
        values.extend(block.args)
        nops = r.count("ops in a block")
        ops = [self._op(r, values, nxt, depth) for _ in range(nops)]
        del values[mark:]
        if not ops:
            raise r.fail("an empty block, expected at least its terminator", at)
        block.add_ops(ops)
        return Region([block])

    def _attr(self, r: ByteReader, opname: str, aname: str, kind: str, rtypes, at: int) -> Attribute | None:
        _, types, attrs, assume, *_ = self.ct
        if kind.startswith("enum:"):
            enum_kind = kind[5:]
            v = r.varint(f"the value of '{aname}'")
            cases = F.ENUM_CASES[enum_kind]
            if v >= len(cases):
                raise r.fail(f"'{opname}' {aname} value {v} out of range, expected 0-{len(cases) - 1}", at)
            since = F.ENUM_CASE_SINCE.get((enum_kind, cases[v]))
            if since is not None and self.version < since:
                raise r.fail(
                    f"'{opname}' {aname} {cases[v]} (value {v}) needs bytecode {F.version_str(since)}, "
                    f"the file is {F.version_str(self.version)}",
                    at,
                )
            return _enum_attr(enum_kind, v)
        if kind == "str":
            s = self.string(r, f"'{aname}'")
            if opname in _SYMBOL_STRS:
                if not s:
                    raise r.fail("empty symbol reference", at)
                return builtin.SymbolRefAttr(s)
            return _str(s)
        if kind == "int":
            v = r.varint(f"'{aname}'")
            width = 64 if (opname, aname) in _I64_INTS else 32
            if v >> 63:
                raise r.fail(f"'{aname}' value {v} too large", at)
            return _int(v if v < 1 << (width - 1) else v - (1 << width), width)
        if kind == "bool":
            b = r.byte(f"'{aname}'")
            if b > 1:
                raise r.fail(f"'{aname}' byte {b}, expected 0 or 1", at)
            return _int(b, 1)
        if kind == "array":
            n = r.count(f"elements of '{aname}'")
            items = [self.tagged(r, 1) for _ in range(n)]
            if opname == "cuda_tile.preview$call":
                items = PV.sorted_dicts(items)  # arg_attrs/res_attrs: MLIR keeps a dictionary sorted
            return builtin.ArrayAttr(items)
        if kind == "predicate":
            p = self.tagged(r)
            if not isinstance(p, (assume.DivByAttr, assume.BoundedAttr, assume.SameElementsAttr)):
                raise r.fail(f"'{aname}' is not an assume predicate", at)
            return p
        if kind == "dense_typed_elements":
            if not rtypes:
                raise r.fail("a constant without a result type", at)
            return self.dense(r, rtypes[0])
        if kind == "dense_int32_array":
            vals = r.int_list(4, f"'{aname}' entries")
            if any(v in (-(1 << 31), (1 << 31) - 1) for v in vals):
                raise r.fail(f"'{aname}' holds an unsupported value (INT32_MIN/INT32_MAX are reserved)", at)
            return self.shared(_dense_i32, tuple(vals))
        if kind == "dense_bool_array":
            vals = r.int_list(1, f"'{aname}' entries")
            if any(v > 1 for v in vals):
                raise r.fail(f"'{aname}' holds a byte other than 0 or 1", at)
            return self.shared(_dense_i1, tuple(vals))  # (see _drop_default_inbounds)
        if kind == "optimization_hints":
            return self.ct[5].OptimizationHintsAttr(self.dictionary(r))
        if kind == "typeid":
            return self.type_ref(r, f"'{aname}'")
        raise r.fail(f"attribute kind {kind} of '{opname}' is not handled")  # pragma: no cover


def _drop_default_inbounds(props: dict[str, Attribute], n_indices: int) -> None:
    """All false, one flag per index, is what a writer puts when nothing was asked: read it as
    absent (NVIDIA prints nothing for it). Any other list stays, for the verifier's size check."""
    flags = props.get("inbounds")
    if not isinstance(flags, builtin.DenseArrayBase):
        return
    values = flags.get_values()
    if not any(values) and len(values) == n_indices:
        del props["inbounds"]


class _OpPlan(Layout):
    """A row as `_op` reads it: the shared `Layout`, the op class and its fields, the result count."""

    __slots__ = ("nres", "res_seq", "cls", "fields", "hidden_print")

    def __init__(self, row: tuple):
        super().__init__(row)
        kind, *n = self.res_spec
        self.nres = n[0] if kind == "fixed" else None
        self.res_seq = n[0] if kind == "seq" else None
        self.cls: Any = None  # (none for a format op our dialect lacks, "?name")
        self.fields: Any = None
        if not self.name.startswith("?"):
            self.cls, self.fields = _class_of(self.name)
        self.hidden_print = self.name == "cuda_tile.print_tko"


@cache
def _plans() -> dict[int, _OpPlan]:
    return {row[0]: _OpPlan(row) for row in OPS}


_NO_FLAGS: dict[str, bool] = {}
_SYMBOL_STRS = frozenset({"cuda_tile.get_global", "cuda_tile.preview$call"})  # "str" attributes that are @symbols
_UNIT = builtin.UnitAttr()
_UNCHECKED = object()


@cache
def _class_of(name: str):  # type: ignore[no-untyped-def]
    from tile_lsp.compiler.dialects import registry

    cls = registry.op_class(name)
    return cls, registry.op_fields(cls) if cls is not None else None


@cache
def _enum_attr(kind: str, v: int) -> Attribute | None:
    """Case `v` of an enum as the property our dialect keeps (immutable: one for all ops)."""
    if kind in F.I32_ENUMS:
        return _int(v, 32)
    if kind == "symbol_visibility":
        return builtin.StringAttr(F.ENUM_CASES[kind][v]) if v else None
    from tile_lsp.compiler.dialects.cuda_tile.attrs import enum

    return enum(kind, F.ENUM_CASES[kind][v])


def _dense_i32(values: tuple[int, ...]) -> builtin.DenseArrayBase:
    return builtin.DenseArrayBase.from_list(builtin.i32, values)


def _dense_i1(values: tuple[int, ...]) -> builtin.DenseArrayBase:
    return builtin.DenseArrayBase.from_list(builtin.i1, values)


@lru_cache(maxsize=1024)
def _segment_sizes(sizes: tuple[int, ...]) -> builtin.DenseArrayBase:
    return builtin.DenseArrayBase.from_list(builtin.i32, sizes)


@cache
def _int(v: int, width: int) -> builtin.IntegerAttr:
    return builtin.IntegerAttr(v, builtin.IntegerType(width))


@cache
def _str(s: str) -> builtin.StringAttr:
    return builtin.StringAttr(s)


# Integer attributes our dialect keeps as i64 (the rest are i32, like reduce's `dim`).
_I64_INTS = frozenset({("cuda_tile.alloca", "num_elem"), ("cuda_tile.alloca", "alignment"), ("cuda_tile.cat", "dim")})

D_UNKNOWN, D_COMPILE_UNIT, D_FILE, D_LEXICAL_BLOCK, D_LOC, D_SUBPROGRAM, D_CALL_SITE = range(7)


def _dim(d: int) -> int:
    return -1 if d == F.DYNAMIC else d


def _dim_map(m: list[int]) -> list[int]:
    return [] if m == list(range(len(m))) else m


def _signed(v: int, width: int, r: ByteReader, at: int) -> int:
    if width < 64 and v >> width:
        raise r.fail(f"integer value {v} does not fit in {width} bits", at)
    if width == 1:
        return v
    return v - (1 << width) if v >> (width - 1) else v


def _dense_from_raw(raw: bytes, t: Attribute, types, attrs, at: int) -> Attribute:
    from tile_lsp.compiler.dialects.cuda_tile.floats import float_format, from_bits

    if not isinstance(t, types.TileType):
        raise DecodeError(at, "a constant's type is not a tile type")
    elem = t.element_type
    shape = t.shape_attr.data
    if any(d < 0 for d in shape):
        raise DecodeError(at, "a constant of a dynamic shape")
    numel = math.prod(shape)
    if isinstance(elem, builtin.IntegerType):
        width = elem.width.data
        if width == 1:
            if len(raw) == 1 and (raw[0] in (0, 0xFF) or numel == 1):
                return attrs.DenseAttr(elem, types.ints(()), attrs.ScalarTuple((1 if raw[0] else 0,)))
            if len(raw) != (numel + 7) // 8:
                raise DecodeError(
                    at, f"i1 constant has {len(raw)} bytes, expected {(numel + 7) // 8} (bit-packed) or 1 (splat)"
                )
            bits = int.from_bytes(raw, "little")
            vals = tuple(bits >> k & 1 for k in range(numel))
            return attrs.DenseAttr(elem, types.ints(shape), attrs.ScalarTuple(vals))
        nb = (width + 7) // 8

        def conv(chunk: bytes) -> int:
            u = int.from_bytes(chunk, "little") & ((1 << width) - 1)
            return u - (1 << width) if u >> (width - 1) else u
    else:
        fmt = float_format(elem)
        if fmt is None:
            raise DecodeError(at, f"constant of an unsupported element type {elem}")
        nb = (fmt.width + 7) // 8

        def conv(chunk: bytes) -> float:  # type: ignore[misc]
            return from_bits(int.from_bytes(chunk, "little") & ((1 << fmt.width) - 1), fmt)

    if len(raw) == nb:
        return attrs.DenseAttr(elem, types.ints(()), attrs.ScalarTuple((conv(raw),)))
    if len(raw) != nb * numel:
        raise DecodeError(
            at, f"constant has {len(raw)} bytes, expected {nb * numel} ({numel} elements) or {nb} (splat)"
        )
    vals = tuple(conv(raw[k * nb : (k + 1) * nb]) for k in range(numel))
    return attrs.DenseAttr(elem, types.ints(shape), attrs.ScalarTuple(vals))
