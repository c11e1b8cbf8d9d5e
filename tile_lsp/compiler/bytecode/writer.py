"""Our cuda_tile IR -> Tile IR bytecode of a chosen version (13.1-13.5), with debug info.

`write_bytecode(module, version=None, source=None, smap=None)` returns `(bytes | None,
diagnostics)`. The version defaults to the newest the IR needs (at least 13.1): an op, type
or attribute value that only a later version can encode raises it; an explicit lower version
is then an error at that op. The instruction layouts are `opspec.OPS`, the table the reader
uses. Invalid IR (ops that fail verification) is still written: the encoding only needs each
op's operands, results, properties and regions, not their validity.

Debug info: an op keeps its location (`di_loc`, call sites, `loc(unknown)`); when a whole
entry has none (IR parsed from a `.mlir` without `loc(...)`), the writer gives the entry a
`di_subprogram` in the `.mlir` file and each op a `di_loc` at its line and column there (from
`smap`), so tileiras's messages point back at the `.mlir` text.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.bytecode import format as F
from tile_lsp.compiler.bytecode import preview as PV
from tile_lsp.compiler.bytecode.format import gc_paused, pad_to, put_int_list, put_svarint, put_varint
from tile_lsp.compiler.bytecode.opspec import OPS, Layout
from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.source import SourceText, Span


class _Plan(Layout):
    """A row as the writer uses it: the shared `Layout` and what `_needs` checks of an op."""

    __slots__ = ("rounding", "late_attrs")

    def __init__(self, row: tuple):
        super().__init__(row)
        self.rounding = tuple(a for a, kind, _ in self.attrs if kind == "enum:rounding")
        self.late_attrs = tuple((a, cond) for a, _, cond in self.attrs if isinstance(cond, int) and cond > F.V13_1)


_BY_NAME = {row[1]: _Plan(row) for row in OPS if not row[1].startswith("?")}
_BY_NAME["cuda_tile.print"] = _BY_NAME["cuda_tile.print_tko"]
_BY_NAME["cuda_tile.pow"] = _BY_NAME["cuda_tile.fpowf"]  # 13.5 renamed pow (one opcode, 84)
_I1 = builtin.i1
_F8E8M0FNU, _F4E2M1FN, _I4 = builtin.Float8E8M0FNUType(), builtin.Float4E2M1FNType(), builtin.IntegerType(4)
_PUBLIC = builtin.StringAttr("public")


class _Unencodable(Exception):
    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


class _Table:
    """Items (bytes) deduplicated, ids in first-use order from `start`."""

    def __init__(self, start: int = 0):
        self.ids: dict[bytes, int] = {}
        self.items: list[bytes] = []
        self.start = start

    def get(self, item: bytes) -> int:
        i = self.ids.get(item)
        if i is None:
            i = self.ids[item] = len(self.items) + self.start
            self.items.append(item)
        return i

    def write(self, buf: bytearray, width: int) -> None:
        base = len(buf)
        put_varint(buf, len(self.items))
        if self.items:
            pad_to(buf, width, base)
            off = 0
            for it in self.items:
                buf.extend(off.to_bytes(width, "little"))
                off += len(it)
            for it in self.items:
                buf.extend(it)


def _types_mod():
    from tile_lsp.compiler.dialects.cuda_tile import types

    return types


def needed_version(module: builtin.ModuleOp) -> int:
    """The oldest bytecode version that can encode everything in `module` (at least 13.1)."""
    return max([F.V13_1] + [v for v, _ in _needs(module)])


def _needs(module: builtin.ModuleOp):
    """(version, op) for each construct that needs more than 13.1."""
    from tile_lsp.compiler.mlir.xdsl_fast import walk_ops

    types = _types_mod()
    seen_types: dict[Attribute, int] = {}
    # The same attribute objects come back op after op (types, enum cases): known by identity
    # first, without hashing them.
    seen_ids: dict[int, tuple[Attribute, int]] = {}  # (kept alive: no id is reused meanwhile)

    def tv(t: Attribute) -> int:
        hit = seen_ids.get(id(t))
        if hit is not None:
            return hit[1]
        v = seen_types.get(t)
        if v is None:
            v = F.V13_1
            if t == _F8E8M0FNU:
                v = F.V13_2
            elif isinstance(t, (types.StridedViewType, types.GatherScatterViewType)) or t in (_F4E2M1FN, _I4):
                v = F.V13_3
            elif isinstance(t, types.FloatNV8E5M3FNUType):
                v = F.V13_4
            elif isinstance(t, (types.PointerType, types.TensorViewType)) and t.ptr_attr.data:
                v = F.V13_4 if t.ptr_attr.data == "none" else F.V13_5
            for p in getattr(t, "parameters", ()):
                if isinstance(p, Attribute):
                    v = max(v, tv(p))
                elif isinstance(p, builtin.ArrayAttr):  # pragma: no cover
                    v = max([v] + [tv(x) for x in p.data])
            if isinstance(t, builtin.FunctionType):
                v = max([v] + [tv(x) for x in (*t.inputs.data, *t.outputs.data)])
            if isinstance(t, builtin.ArrayAttr):
                v = max([v] + [tv(x) for x in t.data])
            seen_types[t] = v
        seen_ids[id(t)] = (t, v)
        return v

    for op in walk_ops(module):
        plan = _BY_NAME.get(op.name)
        v = F.V13_1
        props = op.properties
        if op.name == "cuda_tile.global":
            if "constant" in props or "sym_visibility" in props and props["sym_visibility"] != _PUBLIC:
                v = F.V13_3
            t = props.get("type")
            if t is not None:
                v = max(v, tv(t))
        if op.name == "cuda_tile.entry":
            ft = props.get("function_type")
            if ft is not None:
                v = max(v, tv(ft))
        if plan is not None:
            v = max(v, plan.since)
            if op.name == "cuda_tile.print_tko" and (_print_token_used(op) or not op.results):
                v = max(v, F.V13_2)
            if plan.flags_since and _flag_value(op, plan, _operand_groups(op)):
                v = max(v, plan.flags_since)
            for aname in plan.rounding:
                if getattr(props.get(aname), "case", None) == "nearest_away":
                    v = max(v, F.ENUM_CASE_SINCE[("rounding", "nearest_away")])
            for aname, cond in plan.late_attrs:
                a = props.get(aname)
                if a is not None and not _is_old_default(op.name, aname, a):
                    v = max(v, cond)
        for r in op.results:
            v = max(v, tv(r.type))
        for p in props.values():  # types inside attributes too (reduce's identities)
            v = max(v, tv(p))
        for reg in op.regions:
            for b in reg.blocks:
                for a in b.args:
                    v = max(v, tv(a.type))
        if v > F.V13_1:
            yield v, op


def _default_enum(op: Operation, aname: str) -> Attribute | None:
    """The value an omitted enum property means (what the text form leaves out)."""
    return _class_default_enum(type(op), op.name, aname)


@cache
def _class_default_enum(cls: type[Operation], name: str, aname: str) -> Attribute | None:
    from tile_lsp.compiler.dialects.cuda_tile.attrs import enum

    a = getattr(cls, "PROP_DEFAULTS", {}).get(aname)
    if a is not None:
        return a
    if aname == "rounding_mode":
        from tile_lsp.compiler.dialects.cuda_tile.ops_math import _ApproxUnaryOp

        if name == "cuda_tile.ftoi":
            return enum("rounding", "nearest_int_to_zero")
        return enum("rounding", "full" if issubclass(cls, _ApproxUnaryOp) else "nearest_even")
    if aname == "signedness":
        return enum("signedness", "signed")
    return None


def _print_token_used(op: Operation) -> bool:
    groups = _operand_groups(op)
    return bool(len(groups) > 1 and groups[1]) or any(r.uses for r in op.results)


def _is_old_default(opname: str, aname: str, a: Attribute) -> bool:
    """An attribute a version without it implies (tanh/exp `full` rounding, negi no overflow flags)."""
    case = getattr(a, "case", None)
    if aname == "rounding_mode":
        return case == "full"
    if aname == "overflow":
        return case == "none"
    if aname == "inbounds" and isinstance(a, builtin.DenseArrayBase):
        return not any(a.get_values())  # all false: what a version without the flags means
    return False


@cache
def _operand_shape(cls: type[Operation]) -> tuple[bool, int, tuple[str, ...], tuple[int, ...]]:
    """(segmented, number of groups, each group's arity, the indices of the non-single groups)."""
    from tile_lsp.compiler.dialects import registry

    fields = registry.op_fields(cls)
    arities = tuple(a for _, a in fields.operands)
    return fields.segmented, len(arities), arities, tuple(k for k, a in enumerate(arities) if a != "single")


@lru_cache(maxsize=256)
def _segment_values(sizes: Any) -> tuple[int, ...]:  # (a DenseArrayBase of i32)
    return tuple(sizes.get_values())


def _operand_groups(op: Operation) -> list[Sequence[SSAValue]]:
    segmented, ngroups, arities, flexible = _operand_shape(type(op))
    ops = tuple(op._operands)  # (`op.operands` is a view that iterates in Python)
    if segmented:
        sizes = op.properties.get("operandSegmentSizes")
        vals = _segment_values(sizes) if isinstance(sizes, builtin.DenseArrayBase) else None
        if vals is None or len(vals) != ngroups or sum(vals) != len(ops):
            raise _Unencodable(op, "operand count does not match 'operandSegmentSizes'")
        out: list[Sequence[SSAValue]] = []
        i = 0
        for n in vals:
            out.append(ops[i : i + n])
            i += n
        return out
    if len(flexible) > 1:  # pragma: no cover - such ops are segmented
        raise _Unencodable(op, "ambiguous operand groups")
    rest = len(ops) - (ngroups - len(flexible))
    if not flexible:
        if rest:
            raise _Unencodable(op, f"{len(ops)} operands do not fit the op's operand groups")
        return [[v] for v in ops]
    if rest < 0 or (arities[flexible[0]] == "optional" and rest > 1):
        raise _Unencodable(op, f"{len(ops)} operands do not fit the op's operand groups")
    out = []
    i = 0
    for a in arities:
        n = 1 if a == "single" else rest
        out.append(ops[i : i + n])
        i += n
    return out


def _flag_value(op: Operation, plan: _Plan, groups) -> int:
    opt_groups = [g for g, kind in zip(groups, plan.groups) if kind == "optional"]
    fv = 0
    j = 0
    for b, (fname, kind) in enumerate(plan.flag_bits):
        if kind == "unit":
            a = op.properties.get(fname)
            on = a is not None and not (isinstance(a, builtin.IntegerAttr) and a.value.data == 0)
        elif fname in plan.attr_names:
            on = fname in op.properties
        else:
            on = j < len(opt_groups) and bool(opt_groups[j])
            j += 1
        if on:
            fv |= 1 << b
    return fv


def write_bytecode(
    module: builtin.ModuleOp,
    version: int | None = None,
    source: SourceText | None = None,
    smap=None,
    debug_info: bool = True,
) -> tuple[bytes | None, list[Diagnostic]]:
    """Encode `module`; never raises for IR it cannot encode (that is a diagnostic)."""
    with gc_paused():
        return _write_bytecode(module, version, source, smap, debug_info)


def _write_bytecode(module, version, source, smap, debug_info) -> tuple[bytes | None, list[Diagnostic]]:
    need = list(_needs(module))
    producer = _producer(module)
    want = max([F.V13_1] + [v for v, _ in need])
    diags: list[Diagnostic] = []

    def span_of(op: Operation | None) -> Span:
        info = smap.ops.get(op) if smap is not None and op is not None else None
        return info.span if info is not None else Span(0, 0)

    if version is None:
        # A producer string needs the producer section (13.3); an explicit older version drops it.
        version = max(want, F.V13_3) if producer is not None else want
    elif version not in F.VERSIONS:
        return None, [
            Diagnostic(Span(0, 0), Severity.ERROR, f"unsupported bytecode version {version}", stage="bytecode")
        ]
    else:
        for v, op in need:
            if v > version:
                diags.append(
                    Diagnostic(
                        span_of(op),
                        Severity.ERROR,
                        f"'{op.name}' needs Tile IR bytecode {F.version_str(v)} or newer; "
                        f"cannot write it as {F.version_str(version)}",
                        stage="bytecode",
                    )
                )
        if diags:
            return None, diags
    w = _Writer(version, source, smap, debug_info, producer)
    try:
        data = w.write(module)
    except _Unencodable as e:
        name = f"'{e.op.name}': " if e.op is not None else ""
        return None, [
            Diagnostic(span_of(e.op), Severity.ERROR, f"cannot write bytecode: {name}{e.message}", stage="bytecode")
        ]
    except RecursionError:
        return None, [Diagnostic(Span(0, 0), Severity.ERROR, "cannot write bytecode: the IR nests too deeply", stage="bytecode")]
    except Exception as exc:  # a writer bug: a diagnostic, never a crash of the caller
        return None, [Diagnostic(Span(0, 0), Severity.ERROR,
                                 f"internal error in the Tile IR bytecode writer (please report): {exc!r}", stage="bytecode")]
    warnings = [
        Diagnostic(
            span_of(op),
            Severity.WARNING,
            f"'{op.name}': attribute{'s' if len(names) > 1 else ''} {', '.join(repr(n) for n in names)} "
            "not stored in bytecode (the format keeps only an op's inherent attributes)",
            stage="bytecode",
        )
        for op, names in w.dropped
    ]
    return data, warnings


class _Writer:
    def __init__(self, version: int, source: SourceText | None, smap, debug_info: bool, producer: str | None):
        self.v = version
        self.producer = producer
        self.source = source
        self.smap = smap
        self.debug_info = debug_info
        self.strings = _Table()
        self.types = _Table()
        self.consts = _Table()
        self.di = _Table(start=1)
        self.type_ids: dict[Attribute, int] = {}
        # Memos by the identity of the attributes an op holds (ops share their type, location and
        # constant objects, and hashing one hashes all its fields): id -> (the objects, the index);
        # the objects are kept so that no id is reused while the memo holds it.
        self.type_objs: dict[int, tuple[Attribute, int]] = {}
        self.loc_ids: dict[tuple[int, int], tuple[Any, Any, int]] = {}
        self.const_ids: dict[tuple[int, int], tuple[Attribute, Attribute, int]] = {}
        self.dropped: list[tuple[Operation, list[str]]] = []  # discardable attributes left out
        self.from_text = False
        self.preview = False  # a SIMT preview op or attribute was written: the header says so
        from tile_lsp.compiler.dialects.cuda_tile import attrs, control_assume, debuginfo, hints
        from tile_lsp.compiler.syntax import locations

        self.types_mod = _types_mod()
        self.attrs, self.assume, self.dimod, self.hints, self.locs = attrs, control_assume, debuginfo, hints, locations

    # -- tables ----------------------------------------------------------------------
    def s(self, text: str) -> int:
        return self.strings.get(text.encode("utf-8"))

    def t(self, t: Attribute, op: Operation | None = None) -> int:
        hit = self.type_objs.get(id(t))
        if hit is not None:
            return hit[1]
        i = self.type_ids.get(t)
        if i is None:
            i = self.type_ids[t] = self.types.get(self._type_bytes(t, op))
        self.type_objs[id(t)] = (t, i)
        return i

    def _type_bytes(self, t: Attribute, op: Operation | None) -> bytes:
        ty = self.types_mod
        b = bytearray()
        scalar = _SCALAR_TAGS.get(t)
        if scalar is not None:
            put_varint(b, scalar)
            return bytes(b)
        if isinstance(t, ty.TokenType):
            put_varint(b, F.T_TOKEN)
        elif isinstance(t, ty.FloatNV8E5M3FNUType):
            put_varint(b, F.T_F8E5M3FNU)
        elif isinstance(t, ty.PointerType):
            pointee = t.pointee
            self.with_ptr_attr(b, F.T_PTR, t.ptr_attr.data, lambda: put_varint(b, self.t(pointee, op)))
        elif isinstance(t, ty.TileType):
            put_varint(b, F.T_TILE)
            put_varint(b, self.t(t.element_type, op))
            put_int_list(b, [_dyn(d) for d in t.shape_attr.data], 8)
        elif isinstance(t, ty.TensorViewType):
            view = t

            def view_fields() -> None:
                put_varint(b, self.t(view.element_type, op))
                put_int_list(b, [_dyn(d) for d in view.shape_attr.data], 8)
                put_int_list(b, [_dyn(d) for d in view.strides_attr.data], 8)

            self.with_ptr_attr(b, F.T_TENSOR_VIEW, t.ptr_attr.data, view_fields)
        elif isinstance(t, ty.PartitionViewType):
            # (before 13.3 the partition view's has-padding flag comes after its dim map)
            self.tiled_view(b, F.T_PARTITION_VIEW, t, op, late_flag=self.v < F.V13_3)
        elif isinstance(t, ty.GatherScatterViewType):
            self.tiled_view(b, F.T_GATHER_SCATTER_VIEW, t, op)
        elif isinstance(t, ty.StridedViewType):
            self.tiled_view(b, F.T_STRIDED_VIEW, t, op)
        elif isinstance(t, builtin.FunctionType):
            put_varint(b, F.T_FUNC)
            put_varint(b, len(t.inputs.data))
            for x in t.inputs.data:
                put_varint(b, self.t(x, op))
            put_varint(b, len(t.outputs.data))
            for x in t.outputs.data:
                put_varint(b, self.t(x, op))
        else:
            raise _Unencodable(op, f"type {t} has no Tile IR bytecode encoding")
        return bytes(b)

    def with_ptr_attr(self, b: bytearray, tag: int, attr: str, fields: Callable[[], None]) -> None:
        """A pointer or tensor_view type: its tag, from 13.4 a has-ptr_attr flag, its `fields`,
        and from 13.4 the ptr_attr's index when it has one."""
        put_varint(b, tag)
        with_attr = self.v >= F.V13_4
        if with_attr:
            put_varint(b, 1 if attr else 0)
        fields()
        if attr and with_attr:
            b.append(self.types_mod.PTR_ATTRS.index(attr))

    def tiled_view(
        self,
        b: bytearray,
        tag: int,
        t: Any,
        op: Operation | None,
        late_flag: bool = False,
    ) -> None:
        """A partition, gather/scatter or strided view type: its tag, has-padding flag (after the
        dim map with `late_flag`), tile shape, traversal strides (strided), tensor_view, sparse
        dim (gather/scatter) or full dim map, and the padding value's index when it has one."""
        ty = self.types_mod
        put_varint(b, tag)
        pad = t.padding_value.data
        if not late_flag:
            put_varint(b, 1 if pad else 0)
        put_int_list(b, t.tile_shape_attr.data, 4)
        if isinstance(t, ty.StridedViewType):
            put_int_list(b, t.traversal_strides_attr.data, 4)
        put_varint(b, self.t(t.tensor_view, op))
        if isinstance(t, ty.GatherScatterViewType):
            put_varint(b, _uint(t.sparse_dim, op, "sparse_dim"))
        else:
            put_int_list(b, _full_dim_map(t.dim_map_attr.data, len(t.tile_shape_attr.data)), 4)
        if late_flag:
            put_varint(b, 1 if pad else 0)
        if pad:
            put_varint(b, _padding_index(pad, op))

    def dense(self, a: Attribute, t: Attribute, op: Operation) -> int:
        """The constant index of a dense value `a` of type `t`."""
        key = (id(a), id(t))
        hit = self.const_ids.get(key)
        if hit is None:
            hit = self.const_ids[key] = (a, t, self.const(self._dense_raw(a, t, op)))
        return hit[2]

    def const(self, raw: bytes) -> int:
        b = bytearray()
        put_varint(b, len(raw))
        b.extend(raw)
        return self.consts.get(bytes(b))

    # -- debug info ------------------------------------------------------------------------
    def di_file(self, name: str, directory: str) -> int:
        b = bytearray([F.D_FILE])
        put_varint(b, self.s(name))
        put_varint(b, self.s(directory))
        return self.di.get(bytes(b))

    def di_attr(self, a: Attribute, op: Operation | None) -> int:
        d, L = self.dimod, self.locs
        b = bytearray()
        if isinstance(a, d.DIFileAttr):
            return self.di_file(a.file_name.data, a.directory.data)
        if isinstance(a, d.DICompileUnitAttr):
            b.append(F.D_COMPILE_UNIT)
            put_varint(b, self.di_attr(a.file, op))
        elif isinstance(a, d.DISubprogramAttr):
            b.append(F.D_SUBPROGRAM)
            put_varint(b, self.di_attr(a.file, op))
            put_varint(b, _intval(a.line))
            put_varint(b, self.s(a.sp_name.data))
            put_varint(b, self.s(a.linkage_name.data))
            put_varint(b, self.di_attr(a.compile_unit, op))
            put_varint(b, _intval(a.scope_line))
            if self.v >= F.V13_5:
                put_varint(b, 0)
        elif isinstance(a, d.DILexicalBlockAttr):
            b.append(F.D_LEXICAL_BLOCK)
            put_varint(b, self.di_attr(a.scope, op))
            put_varint(b, self.di_attr(a.file, op))
            put_varint(b, _intval(a.line))
            put_varint(b, _intval(a.column))
        elif isinstance(a, d.DILocAttr):
            b.append(F.D_LOC)
            put_varint(b, self.di_attr(a.scope, op))
            fl = a.source_loc
            put_varint(b, self.s(fl.filename.data))
            put_varint(b, max(0, fl.line.data))
            put_varint(b, max(0, fl.column.data))
        elif isinstance(a, L.CallSiteLoc):
            callee, caller = self.loc_id(a.callee, op, None), self.loc_id(a.caller, op, None)
            b.append(F.D_CALL_SITE)
            put_varint(b, callee)
            put_varint(b, caller)
        else:
            return 0
        return self.di.get(bytes(b))

    def loc_id(self, loc: Attribute | None, op: Operation | None, synth) -> int:
        """Debug index of an op's location (0: unknown); `synth` = (subprogram, file) for bare locations."""
        if not self.debug_info or loc is None:
            return 0
        key = (id(loc), id(synth))
        hit = self.loc_ids.get(key)
        if hit is None:
            hit = self.loc_ids[key] = (loc, synth, self._loc_id(loc, op, synth))
        return hit[2]

    def _loc_id(self, loc: Attribute, op: Operation | None, synth) -> int:
        L = self.locs
        if isinstance(loc, (self.dimod.DILocAttr, L.CallSiteLoc)):
            return self.di_attr(loc, op)
        if isinstance(loc, L.FileLoc) and synth is not None:
            return self.di_attr(self.dimod.DILocAttr(loc, synth), op)
        if isinstance(loc, L.NameLoc) and isinstance(loc.child, Attribute):
            return self.loc_id(loc.child, op, synth)
        if isinstance(loc, L.FusedLoc):
            for x in loc.locations.data:
                i = self.loc_id(x, op, synth)
                if i:
                    return i
        return 0

    def text_loc(self, op: Operation) -> Attribute | None:
        if self.smap is None or self.source is None:
            return None
        info = self.smap.ops.get(op)
        if info is None:
            return None
        line, col = self.source.line_col(info.span.start)
        line, col = line + 1, col + 1  # MLIR locations are 1-based
        return self.locs.file_loc(self.source.path, line, col)

    # -- the file ---------------------------------------------------------------------------
    def write(self, module: builtin.ModuleOp) -> bytes:
        items = list(_items(module))
        entries = [op for op in items if op.name == "cuda_tile.entry"]
        globals_ = [op for op in items if op.name == "cuda_tile.global"]
        others = [op for op in items if op.name not in ("cuda_tile.entry", "cuda_tile.global")]
        if others:
            raise _Unencodable(others[0], "only 'entry' and 'global' can be top-level items in bytecode")
        out = bytearray(F.MAGIC)
        out.append(self.v // 10000)
        out.append(self.v // 100 % 100)
        out.extend((0).to_bytes(2, "little"))
        func = bytearray()
        put_varint(func, len(entries))
        di_lists: list[list[int]] = []
        for e in entries:
            self._function(e, func, di_lists)
        self._section(out, F.SEC_FUNC, func, 8)
        if self.producer is not None and self.v >= F.V13_3:  # older versions drop it, as NVIDIA's writer does
            p = bytearray()
            put_varint(p, self.s(self.producer))
            self._section(out, F.SEC_PRODUCER, p, 1)
        if globals_:
            g = bytearray()
            put_varint(g, len(globals_))
            for op in globals_:
                self._global(op, g)
            self._section(out, F.SEC_GLOBAL, g, 1)
        c = bytearray()
        self.consts.write(c, 8)
        self._section(out, F.SEC_CONSTANT, c, 8)
        d = bytearray()
        put_varint(d, len(di_lists))
        pad_to(d, 4)
        off = 0
        for lst in di_lists:
            d.extend(off.to_bytes(4, "little"))
            off += len(lst)
        put_varint(d, off)
        pad_to(d, 8)
        for lst in di_lists:
            for i in lst:
                d.extend(i.to_bytes(8, "little"))
        if not self.di.items:  # NVIDIA's reader fails on an empty attribute table: one unknown entry
            self.di.get(bytes([F.D_UNKNOWN]))
        self.di.write(d, 4)
        self._section(out, F.SEC_DEBUG, d, 8)
        t = bytearray()
        self.types.write(t, 4)
        self._section(out, F.SEC_TYPE, t, 4)
        s = bytearray()
        self.strings.write(s, 4)
        self._section(out, F.SEC_STRING, s, 4)
        out.append(F.SEC_END)
        if self.preview:  # the header's public-preview bit
            out[len(F.MAGIC) + 2] |= PV.PREVIEW_HEADER_BIT
        return bytes(out)

    @staticmethod
    def _section(out: bytearray, sid: int, payload: bytearray, align: int) -> None:
        out.append(sid | (0x80 if align > 1 else 0))
        put_varint(out, len(payload))
        if align > 1:
            put_varint(out, align)
            pad_to(out, align)
        out.extend(payload)

    def _global(self, op: Operation, g: bytearray) -> None:
        p = op.properties
        name, value, t = p.get("sym_name"), p.get("value"), p.get("type")
        if not isinstance(name, builtin.StringAttr) or value is None or t is None:
            raise _Unencodable(op, "a global needs a name, a value and a type")
        put_varint(g, self.s(name.data))
        put_varint(g, self.t(t, op))
        put_varint(g, self.dense(value, t, op))
        align = p.get("alignment")
        put_varint(g, _uint(align.value.data if isinstance(align, builtin.IntegerAttr) else 0, op, "alignment"))
        if self.v >= F.V13_3:
            vis = p.get("sym_visibility")
            put_varint(g, 1 if isinstance(vis, builtin.StringAttr) and vis.data == "private" else 0)
            put_varint(g, 1 if "constant" in p else 0)

    def _function(self, e: Operation, func: bytearray, di_lists: list[list[int]]) -> None:
        p = e.properties
        name, ftype = p.get("sym_name"), p.get("function_type")
        if not isinstance(name, builtin.StringAttr) or not isinstance(ftype, builtin.FunctionType):
            raise _Unencodable(e, "an entry needs a name and a function type")
        synth: Any = None
        eloc: Any = e.location
        if self.debug_info and not isinstance(eloc, (self.dimod.DILocAttr, self.locs.CallSiteLoc)):
            tl: Any = eloc if isinstance(eloc, self.locs.FileLoc) else self.text_loc(e)
            if tl is not None:
                path = tl.filename.data
                file = self.dimod.DIFileAttr(
                    builtin.StringAttr(os.path.basename(path)), builtin.StringAttr(os.path.dirname(path))
                )
                line = builtin.IntAttr(max(0, tl.line.data))
                synth = self.dimod.DISubprogramAttr(file, line, name, name, self.dimod.DICompileUnitAttr(file), line)
                eloc = self.dimod.DILocAttr(tl, synth)
        self.from_text = synth is not None  # ops without a location get their .mlir position
        if synth is None and isinstance(eloc, self.dimod.DILocAttr):
            synth = eloc.scope  # a bare loc("file":line:col) inside is put in the entry's scope
        lst = [self.loc_id(eloc, e, synth)]
        di_lists.append(lst)
        if e.attributes:
            self.dropped.append((e, sorted(e.attributes)))
        put_varint(func, self.s(name.data))
        put_varint(func, self.t(ftype, e))
        h = p.get("optimization_hints")
        hd = h.value if isinstance(h, self.hints.OptimizationHintsAttr) else builtin.DictionaryAttr({})
        if self.v >= F.V13_5:
            func.append(F.F_KERNEL)
        else:
            func.append(F.F_KERNEL | (F.F_HAS_HINTS if hd.data else 0))
        put_varint(func, len(di_lists))
        if self.v >= F.V13_5 or hd.data:
            func.append(F.A_OPT_HINTS)
            self._dict(func, hd, e)
        if self.v >= F.V13_5:
            func.append(F.A_ARRAY)
            put_varint(func, 0)
        body = bytearray()
        if not e.regions or len(e.regions[0].blocks) != 1:
            raise _Unencodable(e, "an entry needs a body of one block")
        block = e.regions[0].blocks[0]
        # id(value) -> value index (ids, not the values: an SSA value's hash is a Python call)
        values: dict[int, int] = {id(a): k for k, a in enumerate(block.args)}
        for op in block.ops:
            self._op(op, body, values, lst, synth)
        put_varint(func, len(body))
        func.extend(body)

    # -- instructions ---------------------------------------------------------------------------
    def _op(self, op: Operation, buf: bytearray, values: dict[int, int], lst: list[int], synth) -> None:
        plan = _BY_NAME.get(op.name)
        if plan is None:
            raise _Unencodable(op, "this op has no Tile IR bytecode encoding")
        if plan.opcode >= PV.FIRST_PREVIEW_OPCODE:
            self.preview = True
        res_spec, nregions = plan.res_spec, plan.nregions
        loc: Attribute | None = op.location
        if self.from_text and not isinstance(loc, (self.dimod.DILocAttr, self.locs.CallSiteLoc, self.locs.FileLoc)):
            loc = self.text_loc(op)
        lst.append(self.loc_id(loc, op, synth))
        if op.attributes:
            self.dropped.append((op, sorted(op.attributes)))
        put_varint(buf, plan.opcode)
        rtypes = [r.type for r in op.results]
        old_print = op.name == "cuda_tile.print" or (op.name == "cuda_tile.print_tko" and self.v < F.V13_2)
        if old_print:  # 13.1's print: no token result (and no flags)
            if op.name == "cuda_tile.print_tko" and _print_token_used(op):
                raise _Unencodable(op, "a print_tko token (used or given) needs bytecode 13.2")
            put_varint(buf, 0)
        elif res_spec[0] == "fixed":
            if len(rtypes) != res_spec[1]:
                raise _Unencodable(op, f"{len(rtypes)} results, the encoding has {res_spec[1]}")
            for t in rtypes:
                put_varint(buf, self.t(t, op))
        else:
            put_varint(buf, len(rtypes))
            for t in rtypes:
                put_varint(buf, self.t(t, op))
        groups = _operand_groups(op)
        if op.name == "cuda_tile.print":
            groups = groups + [[]]  # the token operand print_tko has and 13.1's print lacks
        if plan.flags_since is not None and self.v >= plan.flags_since:
            put_varint(buf, _flag_value(op, plan, groups))
        for aname, kind, cond in plan.attrs:
            a = op.properties.get(aname)
            if cond == "opt":
                if a is None:
                    continue
            elif isinstance(cond, int) and self.v < cond:
                continue
            self._attr(buf, op, plan, aname, kind, a, rtypes, groups)
        if len(plan.groups) != len(groups):
            raise _Unencodable(op, "operand groups do not match the encoding")
        gi = 0
        for s in plan.opnd:
            k = s[0]
            if k == "count":
                if s[1] == "opt":
                    put_varint(buf, len(groups[gi]))
                else:
                    put_varint(buf, sum(len(g) for g in groups[gi:]))
                continue
            g = groups[gi]
            gi += 1
            if k == "sized":
                put_varint(buf, len(g))
            for v in g:
                i = values.get(id(v))
                if i is None:
                    raise _Unencodable(op, "an operand is not defined before its use (or outside the entry)")
                put_varint(buf, i)
        if nregions:
            if len(op.regions) != nregions:
                raise _Unencodable(op, f"{len(op.regions)} regions, the encoding has {nregions}")
            put_varint(buf, nregions)
            for reg in op.regions:
                if not reg.blocks:  # an empty region (an `if` without `else`)
                    put_varint(buf, 0)
                    continue
                if len(reg.blocks) != 1:
                    raise _Unencodable(op, "a region must have at most one block")
                block = reg.blocks[0]
                put_varint(buf, 1)
                put_varint(buf, len(block.args))
                for arg in block.args:
                    put_varint(buf, self.t(arg.type, op))
                inner = dict(values)
                for arg in block.args:
                    inner[id(arg)] = len(inner)
                ops = list(block.ops)
                put_varint(buf, len(ops))
                for o in ops:
                    self._op(o, buf, inner, lst, synth)
        if not old_print:
            for r in op.results:
                values[id(r)] = len(values)

    def _attr(self, buf, op, plan: _Plan, aname, kind, a, rtypes, groups) -> None:
        if kind == "dense_bool_array":  # inbounds (13.4+); absent: all false, one per index
            if isinstance(a, builtin.DenseArrayBase):
                flags = [1 if v else 0 for v in a.get_values()]
            else:
                k = plan.first_sized
                flags = [0] * (len(groups[k]) if k is not None and k < len(groups) else 0)
            put_varint(buf, len(flags))
            buf.extend(bytes(flags))
            return
        if a is None and kind.startswith("enum:"):
            a = _default_enum(op, aname)
        if a is None:
            raise _Unencodable(op, f"missing attribute '{aname}'")
        if kind.startswith("enum:"):
            ek = kind[5:]
            if isinstance(a, builtin.IntegerAttr):
                put_varint(buf, _uint(a.value.data, op, aname))
                return
            cases = F.ENUM_CASES[ek]
            case = getattr(a, "case", None)
            if case not in cases:
                raise _Unencodable(op, f"'{aname}' value {a} is not a {ek} case")
            put_varint(buf, cases.index(case))
        elif kind == "str":
            if isinstance(a, builtin.SymbolRefAttr):
                put_varint(buf, self.s(a.root_reference.data))
            elif isinstance(a, builtin.StringAttr):
                put_varint(buf, self.s(a.data))
            else:
                raise _Unencodable(op, f"'{aname}' is not a string")
        elif kind == "int":
            if not isinstance(a, builtin.IntegerAttr):
                raise _Unencodable(op, f"'{aname}' is not an integer")
            v = a.value.data
            put_varint(buf, v & 0xFFFFFFFFFFFFFFFF if v < 0 else v)
        elif kind == "bool":
            buf.append(1 if isinstance(a, builtin.IntegerAttr) and a.value.data else 0)
        elif kind == "array":
            if not isinstance(a, builtin.ArrayAttr):
                raise _Unencodable(op, f"'{aname}' is not an array")
            put_varint(buf, len(a.data))
            for x in a.data:
                self._tagged(buf, x, op)
        elif kind == "predicate":
            self._tagged(buf, a, op)
        elif kind == "dense_typed_elements":
            if not rtypes:
                raise _Unencodable(op, "a constant needs a result type")
            put_varint(buf, self.dense(a, rtypes[0], op))
        elif kind == "dense_int32_array":
            vals = a.get_values() if isinstance(a, builtin.DenseArrayBase) else None
            if vals is None:
                raise _Unencodable(op, f"'{aname}' is not a dense i32 array")
            put_int_list(buf, [int(x) for x in vals], 4)
        elif kind == "optimization_hints":
            if not isinstance(a, self.hints.OptimizationHintsAttr):
                raise _Unencodable(op, f"'{aname}' is not optimization hints")
            self._dict(buf, a.value, op)
        elif kind == "typeid":  # pragma: no cover - only the entry has one
            put_varint(buf, self.t(a, op))
        else:  # pragma: no cover
            raise _Unencodable(op, f"attribute kind {kind} is not handled")

    def _dict(self, buf: bytearray, d: builtin.DictionaryAttr, op) -> None:
        put_varint(buf, len(d.data))
        for k, v in d.data.items():
            put_varint(buf, self.s(k))
            self._tagged(buf, v, op)

    def _tagged(self, buf: bytearray, a: Attribute, op) -> None:
        A = self.assume
        if isinstance(a, builtin.IntegerAttr):
            t = a.type
            if t == _I1:
                buf.append(F.A_BOOL)
                buf.append(1 if a.value.data else 0)
                return
            if not isinstance(t, builtin.IntegerType):
                raise _Unencodable(op, f"integer attribute of type {t}")
            buf.append(F.A_INTEGER)
            put_varint(buf, self.t(t, op))
            put_varint(buf, a.value.data & ((1 << t.width.data) - 1))
        elif isinstance(a, builtin.FloatAttr):
            from tile_lsp.compiler.dialects.cuda_tile.floats import bits_of, float_format

            fmt = float_format(a.type)
            if fmt is None:
                raise _Unencodable(op, f"float attribute of type {a.type}")
            buf.append(F.A_FLOAT)
            put_varint(buf, self.t(a.type, op))
            bits = bits_of(a.value.data, fmt)
            if fmt.width <= 8:
                buf.append(bits)
            else:
                put_svarint(buf, bits)
        elif isinstance(a, builtin.StringAttr):
            buf.append(F.A_STRING)
            put_varint(buf, self.s(a.data))
        elif isinstance(a, builtin.ArrayAttr):
            buf.append(F.A_ARRAY)
            put_varint(buf, len(a.data))
            for x in a.data:
                self._tagged(buf, x, op)
        elif isinstance(a, self.hints.OptimizationHintsAttr):
            buf.append(F.A_OPT_HINTS)
            self._dict(buf, a.value, op)
        elif isinstance(a, builtin.DictionaryAttr):
            buf.append(F.A_DICT)
            self._dict(buf, a, op)
        elif isinstance(a, A.DivByAttr):
            vals = a.data
            buf.append(F.A_DIV_BY)
            put_varint(buf, _uint(vals[0], op, "divisor"))
            if len(vals) >= 3:
                buf.append(3)
                put_svarint(buf, vals[1])
                put_svarint(buf, vals[2])
            else:
                buf.append(0)
        elif isinstance(a, A.BoundedAttr):
            lb, ub = (tuple(a.data) + (None, None))[:2]
            buf.append(F.A_BOUNDED)
            buf.append((lb is not None) | (ub is not None) << 1)
            if lb is not None:
                put_svarint(buf, lb)
            if ub is not None:
                put_svarint(buf, ub)
        elif isinstance(a, A.SameElementsAttr):
            buf.append(F.A_SAME_ELEMENTS)
            put_int_list(buf, [int(x or 0) for x in a.data], 8)
        elif isinstance(a, builtin.TypeAttribute):
            buf.append(F.A_TYPE)
            put_varint(buf, self.t(a, op))
        elif not PV.write_attr(self, buf, a, op):
            raise _Unencodable(op, f"attribute {a} has no Tile IR bytecode encoding")

    def _dense_raw(self, a: Attribute, t: Attribute, op) -> bytes:
        from tile_lsp.compiler.dialects.cuda_tile.floats import bits_of, float_format

        ty = self.types_mod
        if not isinstance(a, self.attrs.DenseAttr) or not isinstance(t, ty.TileType):
            raise _Unencodable(op, "a constant value must be a dense literal of a tile type")
        elem = t.element_type
        vals = a.values.data
        splat = a.literal_shape.data == ()
        numel = math.prod(t.shape_attr.data)
        if not splat and len(vals) != numel:
            raise _Unencodable(op, f"dense literal has {len(vals)} values for {numel} elements")
        if isinstance(elem, builtin.IntegerType):
            width = elem.width.data
            if width == 1:
                if splat:
                    return b"\xff" if vals and vals[0] else b"\x00"
                bits = 0
                for k, x in enumerate(vals):
                    if x:
                        bits |= 1 << k
                return bits.to_bytes((numel + 7) // 8, "little")
            nb = (width + 7) // 8
            mask = (1 << (8 * nb)) - 1
            if any(isinstance(x, float) and not x.is_integer() for x in vals):
                raise _Unencodable(op, f"a {elem} constant holds a value that is not an integer")
            one = [int(x) & mask for x in (vals[:1] if splat else vals)]
            return b"".join(x.to_bytes(nb, "little") for x in one)
        fmt = float_format(elem)
        if fmt is None:
            raise _Unencodable(op, f"constant of element type {elem}")
        nb = (fmt.width + 7) // 8
        floats = vals[:1] if splat else vals
        return b"".join(bits_of(float(x), fmt).to_bytes(nb, "little") for x in floats)


_SCALAR_TAGS: dict[Attribute, int] = {
    builtin.i1: F.T_I1,
    builtin.i8: F.T_I8,
    builtin.IntegerType(16): F.T_I16,
    builtin.i32: F.T_I32,
    builtin.i64: F.T_I64,
    builtin.Float16Type(): F.T_F16,
    builtin.BFloat16Type(): F.T_BF16,
    builtin.Float32Type(): F.T_F32,
    builtin.FloatTF32Type(): F.T_TF32,
    builtin.Float64Type(): F.T_F64,
    builtin.Float8E4M3FNType(): F.T_F8E4M3FN,
    builtin.Float8E5M2Type(): F.T_F8E5M2,
    builtin.Float8E8M0FNUType(): F.T_F8E8M0FNU,
    builtin.Float4E2M1FNType(): F.T_F4E2M1FN,
    builtin.IntegerType(4): F.T_I4,
}


def _producer(module: Operation) -> str | None:
    """The `producer` string of the (first) cuda_tile.module: free text naming the tool."""
    from tile_lsp.compiler.mlir.xdsl_fast import walk_ops

    for op in walk_ops(module):
        if op.name == "cuda_tile.module":
            a = op.attributes.get("producer")
            return a.data if isinstance(a, builtin.StringAttr) else None
    return None


def _items(module: Operation):
    """Top-level entries/globals: directly in the module, or inside (cuda_tile|builtin).module."""
    for op in module.regions[0].blocks[0].ops if module.regions and module.regions[0].blocks else ():
        if op.name in ("cuda_tile.module", "builtin.module"):
            yield from _items(op)
        else:
            yield op


def _dyn(d: int) -> int:
    return F.DYNAMIC if d < 0 else d


def _full_dim_map(m: Sequence[int], rank: int) -> list[int]:
    return list(m) if m else list(range(rank))


def _padding_index(p: str, op) -> int:
    if p not in F.PADDING_VALUES:
        raise _Unencodable(op, f"unknown padding value '{p}'")
    return F.PADDING_VALUES.index(p)


def _uint(v, op, what: str) -> int:
    if not isinstance(v, int) or v < 0:
        raise _Unencodable(op, f"'{what}' must be a non-negative integer, not {v}")
    return v


def _intval(a: Attribute) -> int:
    v = a.data if isinstance(a, builtin.IntAttr) else a.value.data if isinstance(a, builtin.IntegerAttr) else 0
    return max(0, v)
