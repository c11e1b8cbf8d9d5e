"""Tile IR 13.4/13.5 ops end to end: gdc_wait_tko, gdc_launch_dependents_tko,
memory_fence_alias_tko, fpowi, insert and `inbounds` on view loads/stores/reductions.

Text round trip, our bytecode at every version that holds them (and a refusal at each new op
below it), NVIDIA's tileirdisasm reading what we write back to the same IR, tileiras compiling
it for sm_80/90/100, NVIDIA's verifier wording (found by sending mutants through tileirdisasm),
interpreter semantics, and the PTX each lowers to (ptxas assembles it in `tile-lsp compile`)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import numpy as np
import pytest

from tests.bytecode.helpers import canonical, find_tool, run_tool, text_ir
from tests.interp.util import value
from tile_lsp.compiler.bytecode import format as F
from tile_lsp.compiler.bytecode.reader import decode
from tile_lsp.compiler.bytecode.writer import needed_version, write_bytecode
from tile_lsp.compiler.frontend import parse_text

DATA = pathlib.Path(__file__).parent / "data"
DISASM = find_tool("tileirdisasm")
TILEIRAS = find_tool("tileiras")
NEW_OPS = ("gdc_wait_tko", "gdc_launch_dependents_tko", "memory_fence_alias_tko", "fpowi", "insert")
FILES = {"ops_13_4": F.V13_4, "ops_13_5": F.V13_5, "multimem_13_5": F.V13_5}


def _parsed(name: str):
    path = DATA / f"{name}.mlir"
    [parsed] = parse_text(path.read_text(), str(path))
    assert parsed.ok, [d.message for d in parsed.diagnostics]
    return parsed


def _want(name: str) -> str:
    """The printed IR of the file's entries, bare (as bytecode holds them: no module wrapper)."""
    from xdsl.dialects import builtin

    from tile_lsp.compiler.bytecode.writer import _items

    items = list(_items(_parsed(name).module))
    for op in items:
        op.detach()
    return canonical(builtin.ModuleOp(items), False)


@pytest.mark.parametrize("name", FILES)
def test_text_round_trip(name: str) -> None:
    printed = canonical(_parsed(name).module, False)
    [again] = parse_text(printed, "again.mlir")
    assert again.ok, [d.message for d in again.diagnostics]
    assert canonical(again.module, False) == printed
    for op in NEW_OPS if name == "ops_13_4" else ():
        assert f" {op} " in printed or f" {op}\n" in printed, op
    assert "inbounds = [true" in printed
    if name == "multimem_13_5":  # the source type is spelled when the pointer has an attribute
        assert ": tile<ptr<i32, <multicast>>>, tile<i64> -> tensor_view<?xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>" in printed
        assert "attributes {reduction = #cuda_tile.multimem_reduction_kind<umax>}" in printed
        assert printed.count("multimem_reduction_kind") == 2  # add, the default, is left out


@pytest.mark.parametrize("name", FILES)
def test_bytecode_round_trip_and_version_floor(name: str) -> None:
    parsed = _parsed(name)
    assert needed_version(parsed.module) == FILES[name]
    for version in F.VERSIONS:
        out, diags = write_bytecode(parsed.module, version=version, source=parsed.source, smap=parsed.smap)
        if version < FILES[name]:
            assert out is None and diags
            assert all("needs Tile IR bytecode" in d.message for d in diags), [d.message for d in diags]
            continue
        assert out is not None and not diags, [d.message for d in diags]
        back = decode(out)
        assert back.module is not None, [d.message for d in back.diagnostics]
        assert canonical(back.module, False) == _want(name), F.version_str(version)


def test_each_new_op_is_refused_below_13_4_at_its_line() -> None:
    parsed = _parsed("ops_13_4")
    _, diags = write_bytecode(parsed.module, version=F.V13_3, source=parsed.source, smap=parsed.smap)
    named = {d.message.split("'")[1].removeprefix("cuda_tile.") for d in diags}
    assert set(NEW_OPS) <= named, named
    assert {"load_view_tko", "store_view_tko"} <= named  # their inbounds flags


@pytest.mark.skipif(DISASM is None, reason="tileirdisasm not found (pip install nvidia-cuda-tileiras)")
@pytest.mark.parametrize("name", FILES)
def test_tileirdisasm_reads_what_we_write(name: str, tmp_path) -> None:
    parsed = _parsed(name)
    out, _ = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    path = tmp_path / f"{name}.tileirbc"
    path.write_bytes(out)
    res = run_tool(DISASM, str(path))
    assert res.returncode == 0, res.stderr[-2000:]
    assert text_ir(res.stdout, f"{name}.mlir", False) == _want(name)


@pytest.mark.skipif(TILEIRAS is None, reason="tileiras not found (pip install nvidia-cuda-tileiras)")
def test_tileiras_takes_multicast_pointers_for_sm_100_only(tmp_path) -> None:
    parsed = _parsed("multimem_13_5")
    out, _ = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    path = tmp_path / "mm.tileirbc"
    path.write_bytes(out)
    ok = run_tool(TILEIRAS, "--gpu-name", "sm_100", str(path), "-o", str(tmp_path / "a.cubin"), timeout=300)
    assert ok.returncode == 0, ok.stderr[-2000:]
    bad = run_tool(TILEIRAS, "--gpu-name", "sm_90", str(path), "-o", str(tmp_path / "b.cubin"), timeout=300)
    assert bad.returncode != 0
    assert "Incompatibility with architecture 'sm_90': multicast pointers require sm_100 or sm_103 or sm_107" in bad.stderr


@pytest.mark.skipif(TILEIRAS is None, reason="tileiras not found (pip install nvidia-cuda-tileiras)")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100"])
def test_tileiras_compiles_what_we_write(arch: str, tmp_path) -> None:
    parsed = _parsed("ops_13_4")
    out, _ = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    path = tmp_path / "ops.tileirbc"
    path.write_bytes(out)
    res = run_tool(TILEIRAS, "--gpu-name", arch, str(path), "-o", str(tmp_path / "ops.cubin"), timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]


# -- NVIDIA's verifier, in its words (each case sent through tileirdisasm once to get them) -------

_PRELUDE = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf32, strides=[64,1]>
    %pv = make_partition_view %tv : partition_view<tile=(16x64), tensor_view<128x64xf32, strides=[64,1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %f = constant <f32: 1.0> : tile<8xf32>
    %g = constant <f32: 1.0> : tile<4xf32>
    %h = constant <f16: 1.0> : tile<4xf16>
    %q = constant <f32: 1.0> : tile<2x2xf32>
    %i8 = constant <i32: 1> : tile<8xi32>
    %i4 = constant <i32: 1> : tile<4xi32>
    %i64 = constant <i64: 1> : tile<8xi64>
    %t0 = make_token : token
"""
_PV = "partition_view<tile=(16x64), tensor_view<128x64xf32, strides=[64,1]>>"
_BAD = [
    ("%r = fpowi %f, %i4 : tile<8xf32>, tile<4xi32>", "'cuda_tile.fpowi' op failed to verify that all of {source, exponent} have same shape"),
    ("%r = fpowi %i8, %i8 : tile<8xi32>, tile<8xi32>", "'cuda_tile.fpowi' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<8xi32>'"),
    ("%r = fpowi %f, %i64 : tile<8xf32>, tile<8xi64>", "'cuda_tile.fpowi' op operand #1 must be tile of i1 or i8 or i16 or i32 values, but got '!cuda_tile.tile<8xi64>'"),
    ("%r = fpowi %f, %f : tile<8xf32>, tile<8xf32>", "operand #1 must be tile of i1 or i8 or i16 or i32 values, but got '!cuda_tile.tile<8xf32>'"),
    ("%r = insert %h, %f[%c0] : tile<4xf16>, tile<8xf32>", "'cuda_tile.insert' op source and result element type do not match"),
    ("%r = insert %g, %f[%c0, %c0] : tile<4xf32>, tile<8xf32>", "'cuda_tile.insert' op expected 1 indices, but got 2"),
    ("%r = insert %f, %g[%c0] : tile<8xf32>, tile<4xf32>", "'cuda_tile.insert' op result dimension 0 size (4) must be evenly divisible by source dimension 0 size (8)"),
    ("%r = insert %q, %f[%c0] : tile<2x2xf32>, tile<8xf32>", "'cuda_tile.insert' op source and result must have the same rank"),
    (f"%t, %tok = load_view_tko weak %pv[%c0, %c0] inbounds = [true] : {_PV}, tile<i32> -> tile<16x64xf32>, token",
     "'cuda_tile.load_view_tko' op inbounds size (1) must match the number of index dimensions (2)"),
    (f"%v = constant <f32: 1.0> : tile<16x64xf32>\n    %tok = store_view_tko weak %v, %pv[%c0, %c0] inbounds = [true, true, false] : tile<16x64xf32>, {_PV}, tile<i32> -> token",
     "'cuda_tile.store_view_tko' op inbounds size (3) must match the number of index dimensions (2)"),
    (f"%v = constant <f32: 1.0> : tile<16x64xf32>\n    %tok = atomic_red_view_tko relaxed device %pv[%c0, %c0], addf, %v inbounds = [false] : tile<16x64xf32>, {_PV}, tile<i32> -> token",
     "'cuda_tile.atomic_red_view_tko' op inbounds size (1) must match the number of index dimensions (2)"),
]


def _multicast(elem: str, ptr: str, view: str, body: str) -> str:
    """A kernel with a view of `elem` whose pointer / tensor_view carry `ptr` / `view` attributes."""
    pt = f"ptr<{elem}{f', <{ptr}>' if ptr else ''}>"
    tv = f"tensor_view<1024x{elem}, strides=[1]{f', #cuda_tile.ptr_attr<{view}>' if view else ''}>"
    pv = f"partition_view<tile=(64), {tv}>"
    one = "1.0" if elem.startswith(("f", "bf")) else "1"
    return (
        f"cuda_tile.module @m {{\n  entry @k(%p: tile<{pt}>) {{\n"
        f"    %tv = make_tensor_view %p, shape = [1024], strides = [1] : tile<{pt}> -> {tv}\n"
        f"    %pv = make_partition_view %tv : {pv}\n    %c0 = constant <i32: 0> : tile<i32>\n"
        f"    %v = constant <{elem}: {one}> : tile<64x{elem}>\n"
        f"    {body.replace('PV', pv).replace('ELEM', elem)}\n    return\n  }}\n}}\n"
    )


def _reduction(kind: str) -> str:
    return f"attributes {{reduction = #cuda_tile.multimem_reduction_kind<{kind}>}}"


_LOAD = "%r, %rt = multimem_load_reduce_view_tko {sem} %pv[%c0] {attrs} : PV, tile<i32> -> tile<64xELEM>, token"
_RED = "%rt = multimem_reduce_view_tko {sem} %pv, %v[%c0] {attrs} : PV, tile<64xELEM>, tile<i32> -> token"
_ST = "%rt = multimem_store_view_tko {sem} %pv, %v[%c0] {attrs} : PV, tile<64xELEM>, tile<i32> -> token"
_MULTIMEM_BAD = [  # (elem, ptr attr, view attr, body, NVIDIA's message)
    ("f32", "none", "", _LOAD.format(sem="relaxed sys", attrs=""),
     "'cuda_tile.make_tensor_view' op tensor_view must preserve ptr_attr from base pointer (#cuda_tile.ptr_attr<none>)"),
    ("f32", "", "multicast", _LOAD.format(sem="relaxed sys", attrs=""),
     "'cuda_tile.make_tensor_view' op pointer base without ptr_attr cannot produce tensor_view with ptr_attr"),
    ("f32", "multicast", "unicast", _LOAD.format(sem="relaxed sys", attrs=""),
     "op ptr_attr mismatch between base pointer (#cuda_tile.ptr_attr<multicast>) and result tensor_view (#cuda_tile.ptr_attr<unicast>)"),
    ("f32", "none", "none", _LOAD.format(sem="relaxed sys", attrs=""),
     "'cuda_tile.multimem_load_reduce_view_tko' op expected a multicast pointer, but got none"),
    ("f32", "unicast", "unicast", _ST.format(sem="weak", attrs=""),
     "'cuda_tile.multimem_store_view_tko' op expected a multicast pointer, but got unicast"),
    ("i8", "multicast", "multicast", _LOAD.format(sem="relaxed sys", attrs=""),
     "'cuda_tile.multimem_load_reduce_view_tko' op multimem requires 32- or 64-bit integer/index element types; got 8 bits"),
    ("i16", "multicast", "multicast", _ST.format(sem="weak", attrs=""),
     "'cuda_tile.multimem_store_view_tko' op multimem requires 32- or 64-bit integer/index element types; got 16 bits"),
    ("f32", "multicast", "multicast", _LOAD.format(sem="relaxed sys", attrs=_reduction("min")),
     "'cuda_tile.multimem_load_reduce_view_tko' op min/max supports f16 and bf16 float types only; got 'f32'"),
    ("f32", "multicast", "multicast", _LOAD.format(sem="relaxed sys", attrs=_reduction("and")),
     "'cuda_tile.multimem_load_reduce_view_tko' op and/or/xor/umin/umax reductions require integer element types"),
    ("bf16", "multicast", "multicast", _RED.format(sem="relaxed sys", attrs=_reduction("max")),
     "'cuda_tile.multimem_reduce_view_tko' op supports only add for floating-point element types"),
    ("f32", "multicast", "multicast", _RED.format(sem="acquire device", attrs=""),
     "'cuda_tile.multimem_reduce_view_tko' op memory ordering semantics must be one of: relaxed, release"),
    ("f32", "multicast", "multicast", _LOAD.format(sem="release sys", attrs=""),
     "'cuda_tile.multimem_load_reduce_view_tko' op expect one of: weak, relaxed, or acquire, but got: release"),
    ("f32", "multicast", "multicast", _ST.format(sem="acquire sys", attrs=""),
     "'cuda_tile.multimem_store_view_tko' op expect one of: weak, relaxed, or release, but got: acquire"),
]


@pytest.mark.parametrize(("elem", "ptr", "view", "body", "message"), _MULTIMEM_BAD, ids=[m.split("op ")[-1][:40] for *_, m in _MULTIMEM_BAD])
def test_nvidia_wording_multimem(elem: str, ptr: str, view: str, body: str, message: str) -> None:
    [parsed] = parse_text(_multicast(elem, ptr, view, body), "bad.mlir")
    errors = [d.message for d in parsed.diagnostics if d.is_error]
    assert errors and message in errors[0], errors


@pytest.mark.parametrize(("elem", "kind"), [("i32", "umin"), ("i64", "add"), ("f16", "min"), ("bf16", "add"), ("f64", "add")])
def test_multimem_accepted(elem: str, kind: str) -> None:
    body = _LOAD.format(sem="acquire tl_blk", attrs=_reduction(kind))
    [parsed] = parse_text(_multicast(elem, "multicast", "multicast", body), "ok.mlir")
    assert parsed.ok, [d.message for d in parsed.diagnostics]


@pytest.mark.parametrize(("body", "message"), _BAD, ids=[m.split("op ")[-1][:40] for _, m in _BAD])
def test_nvidia_wording(body: str, message: str) -> None:
    text = f"{_PRELUDE}    {body}\n    return\n  }}\n}}\n"
    [parsed] = parse_text(text, "bad.mlir")
    errors = [d.message for d in parsed.diagnostics if d.is_error]
    assert any(message in e for e in errors), errors
    assert not parsed.ok


def test_inbounds_parse_errors_point_at_the_flag() -> None:
    text = f"{_PRELUDE}    %t, %tok = load_view_tko weak %pv[%c0, %c0] inbounds = [true, maybe] : {_PV}, tile<i32> -> tile<16x64xf32>, token\n    return\n  }}\n}}\n"
    [parsed] = parse_text(text, "bad.mlir")
    [err] = [d for d in parsed.diagnostics if d.is_error]
    assert "expected 'true' or 'false'" in err.message
    assert text[err.span.start : err.span.end] == "maybe"


# -- interpreter ----------------------------------------------------------------------------------


def test_fpowi_semantics() -> None:
    x = np.array([-2.0, -1.5, 0.0, 0.5, 1.0, 3.0, 10.0, -0.0], np.float32)
    for n, ty in ((3, "i32"), (-2, "i32"), (0, "i8"), (7, "i16"), (-1, "i8")):
        body = (
            f"    %x = constant <f32: [{', '.join(repr(float(v)) for v in x)}]> : tile<8xf32>\n"
            f"    %n = constant <{ty}: {n}> : tile<8x{ty}>\n"
            f"    %r = fpowi %x, %n : tile<8xf32>, tile<8x{ty}>\n    return"
        )
        with np.errstate(divide="ignore"):
            want = np.power(x.astype(np.float64), n).astype(np.float32)
        got = value("", body)
        np.testing.assert_array_equal(got, want, err_msg=f"n={n} ({ty})")


def test_fpowi_f16_rounds_once() -> None:
    body = (
        "    %x = constant <f16: [1.1, -3.0, 0.75, 2.0]> : tile<4xf16>\n"
        "    %n = constant <i16: [5, 3, -4, 15]> : tile<4xi16>\n"
        "    %r = fpowi %x, %n : tile<4xf16>, tile<4xi16>\n    return"
    )
    x = np.array([1.1, -3.0, 0.75, 2.0], np.float16).astype(np.float64)
    want = np.power(x, np.array([5, 3, -4, 15])).astype(np.float16)
    np.testing.assert_array_equal(value("", body), want)


def test_insert_semantics() -> None:
    body = (
        "    %d = iota : tile<16xi32>\n"
        "    %m = reshape %d : tile<16xi32> -> tile<4x4xi32>\n"
        "    %s = constant <i32: [[-1, -2], [-3, -4]]> : tile<2x2xi32>\n"
        "    %i = constant <i32: 1> : tile<i32>\n"
        "    %j = constant <i32: 0> : tile<i32>\n"
        "    %r = insert %s, %m[%i, %j] : tile<2x2xi32>, tile<4x4xi32>\n    return"
    )
    want = np.arange(16, dtype=np.int32).reshape(4, 4)
    want[2:4, 0:2] = [[-1, -2], [-3, -4]]
    np.testing.assert_array_equal(value("", body), want)


def test_insert_out_of_range_index_is_reported() -> None:
    from tile_lsp.compiler.interp.machine import InterpError

    body = (
        "    %d = iota : tile<8xi32>\n"
        "    %s = constant <i32: 0> : tile<4xi32>\n"
        "    %i = constant <i32: 2> : tile<i32>\n"
        "    %r = insert %s, %d[%i] : tile<4xi32>, tile<8xi32>\n    return"
    )
    with pytest.raises(InterpError, match=r"test.mlir:6:5: 'cuda_tile.insert': index 2 of dimension 0 is out of range"):
        value("", body)


# -- lowering ----------------------------------------------------------------------------------


def _compile(path: pathlib.Path, arch: str, tmp_path: pathlib.Path) -> tuple[subprocess.CompletedProcess[str], str]:
    out = tmp_path / f"{arch}.ptx"
    cmd = [sys.executable, "-m", "tile_lsp", "compile", str(path), "--gpu-name", arch, "--emit", "ptx", "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return proc, out.read_text() if out.exists() else ""


@pytest.mark.skipif(find_tool("ptxas") is None, reason="needs ptxas")
def test_lowering_sm90_emits_griddepcontrol_and_the_alias_fence(tmp_path) -> None:
    proc, ptx = _compile(DATA / "ops_13_4.mlir", "sm_90a", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "ptxas: ops_13_4 (sm_90a)" in proc.stderr  # assembled
    assert ptx.count("griddepcontrol.wait;") == 2 and ptx.count("griddepcontrol.launch_dependents;") == 2
    assert ptx.count("fence.proxy.alias;") == 1
    assert "warning" not in proc.stderr


@pytest.mark.skipif(find_tool("ptxas") is None, reason="needs ptxas")
def test_lowering_sm80_drops_griddepcontrol_with_a_warning_at_each_op(tmp_path) -> None:
    proc, ptx = _compile(DATA / "ops_13_4.mlir", "sm_80", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "griddepcontrol" not in ptx and "fence.proxy.alias;" in ptx  # the alias fence is sm_70+
    warnings = [line for line in proc.stderr.splitlines() if "warning:" in line]
    assert [w.split(":")[1] for w in warnings] == ["7", "8", "9", "10"], warnings
    assert all("needs sm_90 or newer; on sm_80 this op does nothing" in w for w in warnings)


def test_multimem_semantics_on_one_gpu() -> None:
    """One GPU holds the only copy: a load-reduce reads it, a reduce combines into it, a store
    writes it; each on a block of its own, so each effect shows."""
    from tile_lsp.compiler.interp.launch import bind, entry_params, load_module

    pv = "partition_view<tile=(64), tensor_view<192xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>"
    text = (
        "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<i32, <multicast>>>) {\n"
        "    %tv = make_tensor_view %p, shape = [192], strides = [1] : tile<ptr<i32, <multicast>>> -> "
        "tensor_view<192xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>\n"
        f"    %pv = make_partition_view %tv : {pv}\n"
        "    %c0 = constant <i32: 0> : tile<i32>\n    %c1 = constant <i32: 1> : tile<i32>\n"
        "    %c2 = constant <i32: 2> : tile<i32>\n"
        f"    %r, %rt = multimem_load_reduce_view_tko relaxed sys %pv[%c0] : {pv}, tile<i32> -> tile<64xi32>, token\n"
        f"    %t1 = multimem_reduce_view_tko relaxed sys %pv, %r[%c2] {_reduction('umax')} : {pv}, tile<64xi32>, tile<i32> -> token\n"
        f"    %t2 = multimem_store_view_tko weak %pv, %r[%c1] token = %t1 : {pv}, tile<64xi32>, tile<i32>, token -> token\n"
        f"    %t3 = multimem_reduce_view_tko relaxed sys %pv, %r[%c0] token = %t2 : {pv}, tile<64xi32>, tile<i32>, token -> token\n"
        "    return\n  }\n}\n"
    )
    interp = load_module(text, "mm.mlir")
    rng = np.random.default_rng(5)
    x = rng.integers(-1000, 1000, 192).astype(np.int32)
    launch = bind(entry_params(interp, "k"), [x.copy()], interp.memory)
    interp.run("k", launch.values, (1, 1, 1))
    got = interp.memory.array(launch.arrays[0])
    want = x.copy()
    want[:64] = x[:64] * 2  # add of the first tile into itself
    want[64:128] = x[:64]  # the store
    want[128:] = np.maximum(x[128:].view(np.uint32), x[:64].view(np.uint32)).view(np.int32)  # umax, unsigned
    assert (want[128:] != np.maximum(x[128:], x[:64])).any()  # (signed max would differ: the test can tell)
    np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(find_tool("ptxas") is None, reason="needs ptxas")
def test_multimem_lowers_to_ptx_multimem_on_sm_100(tmp_path) -> None:
    proc, ptx = _compile(DATA / "multimem_13_5.mlir", "sm_100a", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "ptxas: multimem_13_5 (sm_100a)" in proc.stderr
    for instr in (
        "multimem.ld_reduce.relaxed.sys.global.max.u32",
        "multimem.red.release.gpu.global.xor.b32",
        "multimem.ld_reduce.weak.global.add.f32",
        "multimem.red.relaxed.cta.global.add.f32",
        "multimem.st.release.sys.global.f32",
        "multimem.st.weak.global.b32",
    ):
        assert instr in ptx, instr


def test_multicast_needs_sm_100_at_the_view(tmp_path) -> None:
    proc, _ = _compile(DATA / "multimem_13_5.mlir", "sm_90a", tmp_path)
    assert proc.returncode != 0
    [err] = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert ":6:5: error: Incompatibility with architecture 'sm_90a': multicast pointers require sm_100 or sm_103 or sm_107" in err


# -- multimem on f16/bf16: pairs of elements (PTX has no 16-bit multimem access) --------------

_NVIDIA_MULTIMEM_FLOATS = [  # (elem, tile, strides, body, tileirdisasm 13.5's message)
    ("f8E4M3FN", "64", "1", _LOAD.format(sem="relaxed sys", attrs=""),
     "'cuda_tile.multimem_load_reduce_view_tko' op multimem supports only f16, bf16, f32, and f64 floating-point element types"),
    ("tf32", "64", "1", _ST.format(sem="weak", attrs=""),
     "'cuda_tile.multimem_store_view_tko' op multimem supports only f16, bf16, f32, and f64 floating-point element types"),
    ("f16", "1", "1", _RED.format(sem="relaxed sys", attrs=_reduction("max")),
     "'cuda_tile.multimem_reduce_view_tko' op multimem op requires tile total size to be a multiple of 4 bytes for float element types; got 1 element(s) of 16 bits (total 16 bits)"),
    ("f16", "64", "2", _LOAD.format(sem="relaxed sys", attrs=""),
     "'cuda_tile.multimem_load_reduce_view_tko' op f16/bf16 multimem views must have exactly one element stride statically known to equal 1; got 0"),
    ("f32", "1", "2", _LOAD.format(sem="relaxed sys", attrs=""), None),  # 32 bits, any stride
]


def _mm_kernel(elem: str, body: str, tile: str = "64", strides: str = "1", shape: str = "1024") -> str:
    """A kernel over a multicast view of `elem` (`shape` "?" for a dynamic extent %n)."""
    pt = f"ptr<{elem}, <multicast>>"
    tv = f"tensor_view<{shape}x{elem}, strides=[{strides}], #cuda_tile.ptr_attr<multicast>>"
    pv = f"partition_view<tile=({tile}), {tv}>"
    dyn = shape == "?"
    one = "1.0" if not elem.startswith("i") else "1"
    return (
        f"cuda_tile.module @m {{\n  entry @k(%p: tile<{pt}>{', %n: tile<i64>' if dyn else ''}) {{\n"
        f"    %tv = make_tensor_view %p, shape = [{'%n' if dyn else shape.replace('x', ', ')}], strides = [{strides}] : tile<{pt}>"
        f"{', tile<i64>' if dyn else ''} -> {tv}\n"
        f"    %pv = make_partition_view %tv : {pv}\n    %c0 = constant <i32: 0> : tile<i32>\n"
        f"    %v = constant <{elem}: {one}> : tile<{'x'.join(tile.split('x'))}x{elem}>\n"
        f"    {body.replace('PV', pv).replace('ELEM', elem).replace('tile<64x', f'tile<{tile}x')}\n    return\n  }}\n}}\n"
    )


@pytest.mark.parametrize(("elem", "tile", "strides", "body", "message"), _NVIDIA_MULTIMEM_FLOATS,
                         ids=[f"{e}-{t}-{s}" for e, t, s, *_ in _NVIDIA_MULTIMEM_FLOATS])
def test_nvidia_wording_multimem_floats(elem: str, tile: str, strides: str, body: str, message: str | None) -> None:
    [parsed] = parse_text(_mm_kernel(elem, body, tile, strides), "mm.mlir")
    errors = [d.message for d in parsed.diagnostics if d.is_error]
    if message is None:
        assert parsed.ok, errors
    else:
        assert errors and message in errors[0], errors


def _mm_f16_ops(elem: str, tile: str, shape: str) -> str:
    """Every multimem form f16/bf16 take: load-reduce max and add (acc::f32), reduce add, stores."""
    pv = f"partition_view<tile=({tile}), tensor_view<{shape}x{elem}, strides=[1], #cuda_tile.ptr_attr<multicast>>>"
    t = f"tile<{tile}x{elem}>"
    body = "\n    ".join([
        f"%a, %ta = multimem_load_reduce_view_tko relaxed sys %pv[%c0] {_reduction('max')} : {pv}, tile<i32> -> {t}, token",
        f"%b, %tb = multimem_load_reduce_view_tko acquire device %pv[%c0] token = %ta : {pv}, tile<i32>, token -> {t}, token",
        f"%tc = multimem_reduce_view_tko release sys %pv, %a[%c0] token = %tb : {pv}, {t}, tile<i32>, token -> token",
        f"%td = multimem_store_view_tko relaxed tl_blk %pv, %b[%c0] token = %tc : {pv}, {t}, tile<i32>, token -> token",
        f"%te = multimem_store_view_tko weak %pv, %v[%c0] token = %td : {pv}, {t}, tile<i32>, token -> token",
    ])
    return _mm_kernel(elem, body, tile, "1", shape)


@pytest.mark.skipif(find_tool("ptxas") is None, reason="needs ptxas")
@pytest.mark.parametrize("elem", ["f16", "bf16"])
@pytest.mark.parametrize(("tile", "shape"), [("64", "?"), ("1024", "4096")])
def test_multimem_f16_bf16_lower_by_pairs(elem: str, tile: str, shape: str, tmp_path) -> None:
    """ptxas (CUDA 13.0) takes no .f16/.bf16 multimem access, only pairs: each pair of adjacent
    elements is one .f16x2/.bf16x2; with vectors of 1 (64 elements on 128 threads) lanes 2k, 2k+1
    hold a pair and exchange halves by shfl; a dynamic extent may be odd: a store traps there."""
    src = tmp_path / f"{elem}.mlir"
    src.write_text(_mm_f16_ops(elem, tile, shape))
    pairs = int(tile) // 128 // 2 if tile == "1024" else 1  # pairs per thread (vectors of 4 / lanes)
    for arch in ("sm_100a", "sm_103a"):
        proc, ptx = _compile(src, arch, tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert f"ptxas: k ({arch})" in proc.stderr  # assembled
        for instr, n in (
            (f"multimem.ld_reduce.relaxed.sys.global.max.{elem}x2 ", 1),
            (f"multimem.ld_reduce.acquire.gpu.global.add.acc::f32.{elem}x2 ", 1),  # NVIDIA's HPADD
            (f"multimem.red.release.sys.global.add.{elem}x2 ", 1),
            (f"multimem.st.relaxed.cta.global.{elem}x2 ", 1),
            (f"multimem.st.weak.global.{elem}x2 ", 1),
        ):
            assert ptx.count(instr) == n * pairs, (instr, ptx.count(instr))
        assert f".{elem} " not in ptx.replace(f".{elem}x2 ", "")  # no 16-bit form (ptxas refuses them)
        assert ("shfl.sync.bfly.b32" in ptx) == (tile == "64")
        assert ptx.count("trap;") == (2 if shape == "?" else 0)  # the two stores, where the extent may be odd
    # The same instructions are sm_90's (PTX ISA: multimem is sm_90+; tile-lsp, like tileiras,
    # refuses multicast views below sm_100): ptxas takes the PTX retargeted to sm_90a.
    retarget = tmp_path / "sm_90a.ptx"
    retarget.write_text(ptx.replace(".target sm_103a", ".target sm_90a"))
    res = run_tool(find_tool("ptxas"), "-arch=sm_90a", str(retarget), "-o", str(tmp_path / "sm_90a.cubin"))
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize(("tile", "strides", "shape", "body", "message"), [
    ("64x1", "64, 1", "64x64", _ST, "the tile's innermost dimension (1) is odd"),
    ("1x64", "1, 64", "64x64", _LOAD, "the stride of view dimension 1 (the tile's innermost) is not 1"),
    ("4x64", "63, 1", "64x64", _RED, "the stride of view dimension 0 is odd (63)"),
    ("64", "1", "1023", _ST, "the view's innermost extent (1023) is odd: its last element cannot be stored"),
])
def test_multimem_f16_unpairable_is_reported_at_the_op(tile: str, strides: str, shape: str, body: str, message: str) -> None:
    from tests.tile_lowering.stages import to_gpu
    from tile_lsp.compiler.target import Target

    rank = len(tile.split("x"))
    text = _mm_kernel("f16", body.format(sem="relaxed sys", attrs=""), tile, strides, shape)
    if rank == 2:
        text = text.replace("%pv[%c0]", "%pv[%c0, %c0]").replace("%v[%c0]", "%v[%c0, %c0]")
    run = to_gpu(text, Target(100, "a"))
    assert not run.ok
    assert any(message in e for e in run.errors), run.errors


def test_multimem_f16_odd_extents_load_and_reduce_lower() -> None:
    """A load-reduce reads a pair's whole word, a reduce adds -0.0 past the end: both lower."""
    from tests.tile_lowering.stages import to_gpu
    from tile_lsp.compiler.target import Target

    for body in (_LOAD, _RED):
        run = to_gpu(_mm_kernel("bf16", body.format(sem="relaxed sys", attrs=""), "64", "1", "1023"), Target(100, "a"))
        assert run.ok, run.errors


def _mm_sim(elem: str, tile: int, n: int, store: bool, seed: int = 3) -> tuple[list[np.ndarray], list[np.ndarray], list[str]]:
    """Load-reduce from A, reduce into B (and store into C) over a dynamic extent n: the SIMT
    simulator of our gpu stage (one GPU: one copy) against the interpreter."""
    import ml_dtypes

    from tests.tile_lowering.simt import Memory, Simulator, dtype_of
    from tests.tile_lowering.stages import ops, to_gpu
    from tile_lsp.compiler.interp.launch import bind, entry_params, load_module
    from tile_lsp.compiler.target import Target

    pt = f"tile<ptr<{elem}, <multicast>>>"
    tv = f"tensor_view<?x{elem}, strides=[1], #cuda_tile.ptr_attr<multicast>>"
    pv = f"partition_view<tile=({tile}), {tv}>"
    t = f"tile<{tile}x{elem}>"
    views = "".join(f"    %{x}t = make_tensor_view %{x}, shape = [%n], strides = [1] : {pt}, tile<i64> -> {tv}\n"
                    f"    %{x}v = make_partition_view %{x}t : {pv}\n" for x in "abc")
    last = (f"    %t3 = multimem_store_view_tko weak %cv, %m[%i] token = %t2 : {pv}, {t}, tile<i32>, token -> token\n"
            if store else "")
    text = (
        f"cuda_tile.module @m {{\n  entry @k(%a: {pt}, %b: {pt}, %c: {pt}, %n: tile<i64>) {{\n{views}"
        "    %i, %y, %z = get_tile_block_id : tile<i32>\n"
        f"    %m, %t1 = multimem_load_reduce_view_tko relaxed sys %av[%i] {_reduction('max')} : {pv}, tile<i32> -> {t}, token\n"
        f"    %t2 = multimem_reduce_view_tko relaxed sys %bv, %m[%i] token = %t1 : {pv}, {t}, tile<i32>, token -> token\n"
        f"{last}    return\n  }}\n}}\n"
    )
    dt = np.dtype(ml_dtypes.bfloat16) if elem == "bf16" else np.dtype(np.float16)
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-4, 4, n + 1).astype(dt) for _ in range(3)]  # + 1: the word past an odd end
    arrays[1][n] = -0.0 if n % 2 else arrays[1][n]  # a -0.0 past the end stays -0.0 (x + -0.0)
    grid = (-(-n // tile), 1, 1)

    interp = load_module(text, "mm.mlir")
    launch = bind(entry_params(interp, "k"), [a.copy() for a in arrays] + [n], interp.memory)
    interp.run("k", launch.values, grid)
    want = [interp.memory.array(launch.arrays[i]) for i in range(3)]

    run = to_gpu(text, Target(100, "a"))
    assert run.ok, run.errors
    [fn] = ops(run.module, "gpu.func")
    mem = Memory()
    sim = Simulator(run.module, int(fn.properties["known_block_size"].get_values()[0]), mem)  # type: ignore[attr-defined]
    addrs = [mem.put(a) for a in arrays]
    sim.launch(fn, [*addrs, np.asarray(n).astype(dtype_of(fn.regions[0].blocks[0].args[3].type))], grid)
    got = [mem.get(addr, n + 1, dt) for addr in addrs]
    return want, got, sim.assert_failures


@pytest.mark.parametrize("elem", ["f16", "bf16"])
@pytest.mark.parametrize(("tile", "n"), [(64, 200), (64, 201), (1024, 2047)])
def test_multimem_f16_pairs_match_the_interpreter(elem: str, tile: int, n: int) -> None:
    want, got, traps = _mm_sim(elem, tile, n, store=False)
    assert not traps, traps
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(g.view(np.uint16), w.view(np.uint16))
    assert (got[1][:n] != want[0][:n]).any()  # the reduce changed B (the test can tell)


@pytest.mark.parametrize("elem", ["f16", "bf16"])
def test_multimem_f16_store_traps_only_at_a_split_pair(elem: str) -> None:
    want, got, traps = _mm_sim(elem, 64, 200, store=True)
    assert not traps, traps
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(g.view(np.uint16), w.view(np.uint16))
    *_, traps = _mm_sim(elem, 64, 201, store=True)
    assert traps  # element 200's pair holds element 201 (past the end): not stored, trapped



_PRODUCER = """cuda_tile.module @kernels attributes {producer = "cuTile 1.7 -O3"} {
  entry @k(%a: tile<f32>) {
    return
  }
}
"""


def test_module_producer_parses_prints_and_reaches_bytecode(tmp_path) -> None:
    [parsed] = parse_text(_PRODUCER, "p.mlir")
    assert parsed.ok, [d.message for d in parsed.diagnostics]
    assert 'cuda_tile.module @kernels attributes {producer = "cuTile 1.7 -O3"} {' in canonical(parsed.module, False)
    out, diags = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    assert out is not None and not diags
    back = decode(out)
    assert back.producer == "cuTile 1.7 -O3" and back.version == F.V13_3  # the producer section is 13.3's
    older, _ = write_bytecode(parsed.module, version=F.V13_1, source=parsed.source, smap=parsed.smap)
    assert older is not None and decode(older).producer is None  # dropped below 13.3, as NVIDIA does
    if DISASM is not None:
        path = tmp_path / "p.tileirbc"
        path.write_bytes(out)
        res = run_tool(DISASM, str(path))
        assert res.returncode == 0 and "// Producer: cuTile 1.7 -O3" in res.stdout, res.stderr


def test_module_attributes_keep_the_incremental_item_split() -> None:
    from tile_lsp.compiler.items import split_items

    split = split_items(_PRODUCER)
    assert split is not None
    items, body = split
    assert body is not None and _PRODUCER[body[0] - 1] == "{" and _PRODUCER[body[0] - 2] == " "
    assert _PRODUCER[: body[0]].endswith('"cuTile 1.7 -O3"} {')
    assert [k for k, _, _ in items] == ["entry"]


def test_generic_i1_arrays_read_true_and_false() -> None:
    text = _PRELUDE + (
        f'    %t, %tok = "cuda_tile.load_view_tko"(%pv, %c0, %c0) <{{inbounds = array<i1: true, false>, '
        f'memory_ordering_semantics = 0 : i32, operandSegmentSizes = array<i32: 1, 2, 0>}}> : ({_PV}, '
        "!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> (!cuda_tile.tile<16x64xf32>, !cuda_tile.token)\n    return\n  }\n}\n"
    )
    [parsed] = parse_text(text, "g.mlir")
    assert parsed.ok, [d.message for d in parsed.diagnostics]
    assert "inbounds = [true, false]" in canonical(parsed.module, False)


@pytest.mark.parametrize(
    ("args", "types"),
    [
        ("%p: tile<ptr<f32>>", ": tensor_view<16xf32, strides=[1]>"),
        ("%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>", ": !cuda_tile.tensor_view<16xf32, strides=[1]>"),
        ("%p: tile<ptr<f32>>", ": !tv"),  # a type alias
        ("%p: tile<ptr<f32>>", ": tile<ptr<f32>> -> tensor_view<16xf32, strides=[1]>"),  # the source spelled
        ("%p: tile<ptr<f32, <none>>>", ": tile<ptr<f32, <none>>> -> tensor_view<16xf32, strides=[1], #cuda_tile.ptr_attr<none>>"),
    ],
)
def test_make_tensor_view_type_forms(args: str, types: str) -> None:
    text = (
        "!tv = !cuda_tile.tensor_view<16xf32, strides=[1]>\n"
        f"cuda_tile.module @m {{\n  entry @k({args}) {{\n"
        f"    %tv = make_tensor_view %p, shape = [16], strides = [1] {types}\n    return\n  }}\n}}\n"
    )
    [parsed] = parse_text(text, "tv.mlir")
    assert parsed.ok, [d.message for d in parsed.diagnostics]


def test_make_tensor_view_dynamic_forms() -> None:
    for types in (": tile<i32> -> tensor_view<?xf32, strides=[1]>",
                  ": tile<ptr<f32, <none>>>, tile<i32> -> tensor_view<?xf32, strides=[1], #cuda_tile.ptr_attr<none>>"):
        ptr = "ptr<f32, <none>>" if "<none>" in types else "ptr<f32>"
        text = (
            f"cuda_tile.module @m {{\n  entry @k(%p: tile<{ptr}>, %n: tile<i32>) {{\n"
            f"    %tv = make_tensor_view %p, shape = [%n], strides = [1] {types}\n    return\n  }}\n}}\n"
        )
        [parsed] = parse_text(text, "tv.mlir")
        assert parsed.ok, (types, [d.message for d in parsed.diagnostics])
        assert types in canonical(parsed.module, False)


def test_inbounds_drops_the_bounds_tests_it_promises() -> None:
    """cuTile's check_bounds=False: `inbounds = [true, false]` on a 2-d load keeps the bounds test
    of dimension 1 only; the result is the same for a tile inside the view (the SIMT simulator
    comparison of the pdl_powi_insert corpus kernel checks that)."""
    from tests.tile_lowering.stages import SM90A, ops, to_gpu

    def cmpi_ult(flags: str) -> int:
        text = (
            "entry @k(%p: tile<ptr<f32>>, %m: tile<i64>) {\n"
            "  %tv = make_tensor_view %p, shape = [%m, 64], strides = [64, 1] : tile<i64> -> tensor_view<?x64xf32, strides=[64,1]>\n"
            "  %pv = make_partition_view %tv : partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>\n"
            "  %c0 = constant <i32: 0> : tile<i32>\n"
            f"  %t, %tok = load_view_tko weak %pv[%c0, %c0]{flags} : partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token\n"
            f"  %s = store_view_tko weak %t, %pv[%c0, %c0]{flags} : tile<16x64xf32>, partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token\n"
            "  return\n}\n"
        )
        run = to_gpu(text, SM90A)
        assert run.ok, run.errors
        return sum(1 for op in ops(run.module, "arith.cmpi") if op.properties["predicate"].value.data == 6)  # ult

    checked, half, none = cmpi_ult(""), cmpi_ult(" inbounds = [true, false]"), cmpi_ult(" inbounds = [true, true]")
    assert checked > half > none, (checked, half, none)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("%o, %t = atomic_rmw_tko relaxed device %p, add, %i : tile<ptr<i32, <multicast>>>, tile<i32> -> tile<i32>, token",
         "'cuda_tile.atomic_rmw_tko' op multicast pointer is not supported for atomic_rmw"),
        ("%o, %t = atomic_cas_tko relaxed device %p, %i, %i : tile<ptr<i32, <multicast>>>, tile<i32> -> tile<i32>, token",
         "'cuda_tile.atomic_cas_tko' op multicast pointer is not supported for atomic_cas"),
        ("%v, %t = load_ptr_tko weak %p : tile<ptr<i32, <multicast>>> -> tile<i32>, token",
         "'cuda_tile.load_ptr_tko' op multicast pointer is not allowed"),
        ("%t = store_ptr_tko weak %p, %i : tile<ptr<i32, <multicast>>>, tile<i32> -> token",
         "'cuda_tile.store_ptr_tko' op multicast pointer is not allowed"),
        ("%v, %t = load_ptr_tko weak %u : tile<ptr<i32, <unicast>>> -> tile<i32>, token", None),  # a unicast pointer is fine
    ],
)
def test_multicast_pointers_only_reach_multimem(body: str, message: str | None) -> None:
    text = (
        "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<i32, <multicast>>>, %u: tile<ptr<i32, <unicast>>>) {\n"
        f"    %i = constant <i32: 0> : tile<i32>\n    {body}\n    return\n  }}\n}}\n"
    )
    [parsed] = parse_text(text, "p.mlir")
    errors = [d.message for d in parsed.diagnostics if d.is_error]
    assert errors == ([message] if message else []), errors
