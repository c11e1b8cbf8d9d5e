"""The nvvm dialect (core families + #nvvm.target) in MLIR 22 syntax: what we print must mean the
same to mlir-opt 22 as what was written (mlir-opt re-prints both identically), in custom and
generic form, and upstream test functions over our ops round-trip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tile_lsp.compiler.mlir.context import parse_upstream, print_ir
from tile_lsp.compiler.mlir.dialects import nvvm
from tile_lsp.compiler.source import SourceText
from upstream_lowering.nvvm_tools import assert_mlir_opt_accepts, func
from upstream_lowering.util import mlir_opt, mlir_opt_batch, mlir_opt_ok

ARGS = "%m: i32, %p: i1, %f: f32, %i: i32, %ptr: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>"


def canonical(text: str) -> str:
    res = mlir_opt(text)
    assert res.returncode == 0, f"mlir-opt rejected:\n{res.stderr}\n---\n{text}"
    return res.stdout


_PRINTS: dict[str, tuple[str, str] | None] = {}  # text -> (custom, generic) print, None when it does not parse


def _prints(text: str) -> tuple[str, str] | None:
    if text not in _PRINTS:
        parsed = parse_upstream(SourceText(text, "t.mlir"))
        ok = parsed.module is not None and parsed.ok
        _PRINTS[text] = (print_ir(parsed.module), print_ir(parsed.module, generic=True)) if ok else None  # type: ignore[arg-type]
    return _PRINTS[text]


def prefetch(texts: list[str]) -> None:
    """Every mlir-opt run `roundtrip` makes for `texts`, as one batch."""
    batch = list(texts)
    for text in texts:
        prints = _prints(text)
        if prints is not None:
            batch.extend(prints)
    mlir_opt_batch(batch)


def roundtrip(text: str) -> tuple[str, str]:
    """(custom, generic) prints of `text`; both mean to mlir-opt what `text` means, and reparse."""
    prints = _prints(text)
    if prints is None:
        parsed = parse_upstream(SourceText(text, "t.mlir"))
        assert parsed.module is not None and parsed.ok, [d.message for d in parsed.diagnostics]
    assert prints is not None
    custom, generic = prints
    want = canonical(text)
    assert canonical(custom) == want
    assert canonical(generic) == want
    for again in (custom, generic):
        reparsed = parse_upstream(SourceText(again, "again.mlir"))
        assert reparsed.ok, [d.message for d in reparsed.diagnostics]
    return custom, generic


# (id, op as written, the line we print for it)
OPS: list[tuple[str, str, str]] = [
    ("sreg", "%r = nvvm.read.ptx.sreg.tid.x : i32", "%r = nvvm.read.ptx.sreg.tid.x : i32"),
    ("sreg-range", "%r = nvvm.read.ptx.sreg.ntid.y range <i32, 1, 1025> : i32",
     "%r = nvvm.read.ptx.sreg.ntid.y range <i32, 1, 1025> : i32"),
    ("sreg-cluster", "%r = nvvm.read.ptx.sreg.cluster.ctarank : i32", "%r = nvvm.read.ptx.sreg.cluster.ctarank : i32"),
    ("sreg-clock64", "%r = nvvm.read.ptx.sreg.clock64 : i64", "%r = nvvm.read.ptx.sreg.clock64 : i64"),
    ("barrier0", "nvvm.barrier0", "nvvm.barrier0"),
    ("barrier", "nvvm.barrier", "nvvm.barrier"),
    ("barrier-id", "nvvm.barrier id = %i", "nvvm.barrier id = %i"),
    ("barrier-count", "nvvm.barrier id = %i number_of_threads = %m", "nvvm.barrier id = %i number_of_threads = %m"),
    ("barrier-red", "%r = nvvm.barrier #nvvm.reduction<popc> %i -> i32", "%r = nvvm.barrier #nvvm.reduction<popc> %i -> i32"),
    ("barrier.arrive", "nvvm.barrier.arrive id = %i number_of_threads = %m",
     "nvvm.barrier.arrive id = %i number_of_threads = %m"),
    ("bar.warp.sync", "nvvm.bar.warp.sync %m : i32", "nvvm.bar.warp.sync %m : i32"),
    ("cluster.arrive", "nvvm.cluster.arrive {aligned}", "nvvm.cluster.arrive {aligned}"),
    ("cluster.arrive.relaxed", "nvvm.cluster.arrive.relaxed", "nvvm.cluster.arrive.relaxed"),
    ("cluster.wait", "nvvm.cluster.wait {aligned}", "nvvm.cluster.wait {aligned}"),
    ("fence.sc.cluster", "nvvm.fence.sc.cluster", "nvvm.fence.sc.cluster"),
    ("fence.mbarrier.init", "nvvm.fence.mbarrier.init", "nvvm.fence.mbarrier.init"),
    ("fence.proxy", "nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}",
     "nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}"),
    ("fence.proxy.acquire", "nvvm.fence.proxy.acquire #nvvm.mem_scope<sys> %ptr, %i",
     "nvvm.fence.proxy.acquire <sys> %ptr, %i"),
    ("fence.proxy.release", "nvvm.fence.proxy.release <cta>", "nvvm.fence.proxy.release <cta>"),
    ("memory.barrier", "nvvm.memory.barrier <gpu>", "nvvm.memory.barrier <gpu>"),
    ("shfl", "%r = nvvm.shfl.sync bfly %m, %f, %i, %i : f32 -> f32", "%r = nvvm.shfl.sync bfly %m, %f, %i, %i : f32 -> f32"),
    ("shfl-pred", "%r = nvvm.shfl.sync idx %m, %i, %i, %i {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>",
     "%r = nvvm.shfl.sync idx %m, %i, %i, %i {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>"),
    ("vote", "%r = nvvm.vote.sync ballot %m, %p -> i32", "%r = nvvm.vote.sync ballot %m, %p -> i32"),
    ("elect", "%r = nvvm.elect.sync -> i1", "%r = nvvm.elect.sync -> i1"),
    ("elect-mask", "%r = nvvm.elect.sync %m -> i1", "%r = nvvm.elect.sync %m -> i1"),
    ("redux", "%r = nvvm.redux.sync umin %i, %m : i32 -> i32", "%r = nvvm.redux.sync umin %i, %m : i32 -> i32"),
    ("redux-f32", "%r = nvvm.redux.sync fmin %f, %m {abs = true} : f32 -> f32",
     "%r = nvvm.redux.sync fmin %f, %m {abs = true} : f32 -> f32"),
    ("match", "%r = nvvm.match.sync any %m, %i : i32 -> i32", "%r = nvvm.match.sync any %m, %i : i32 -> i32"),
    ("rcp", "%r = nvvm.rcp.approx.ftz.f %f : f32", "%r = nvvm.rcp.approx.ftz.f %f : f32"),
    ("cvt-bf16x2", "%r = nvvm.convert.f32x2.to.bf16x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rz>} : vector<2xbf16>",
     "%r = nvvm.convert.f32x2.to.bf16x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rz>} : vector<2xbf16>"),
    ("cvt-tf32", "%r = nvvm.convert.float.to.tf32 %f {rnd = #nvvm.fp_rnd_mode<rna>}",
     "%r = nvvm.convert.float.to.tf32 %f {rnd = #nvvm.fp_rnd_mode<rna>}"),
    ("cvt-f8x2", "%r = nvvm.convert.f32x2.to.f8x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16 (f8E5M2)",
     "%r = nvvm.convert.f32x2.to.f8x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E5M2)"),
    ("prefetch", "nvvm.prefetch level = L1, %g : !llvm.ptr<1>", "nvvm.prefetch level = L1, %g : !llvm.ptr<1>"),
    ("prefetch-tensormap", "nvvm.prefetch tensormap, %ptr : !llvm.ptr", "nvvm.prefetch tensormap, %ptr : !llvm.ptr"),
    ("mapa", "%r = nvvm.mapa %s, %i : !llvm.ptr<3> -> !llvm.ptr<7>", "%r = nvvm.mapa %s, %i : !llvm.ptr<3> -> !llvm.ptr<7>"),
    ("nanosleep", "nvvm.nanosleep %i", "nvvm.nanosleep %i"),
    ("setmaxregister", "nvvm.setmaxregister decrease 40", "nvvm.setmaxregister decrease 40"),
    ("exit", "nvvm.exit", "nvvm.exit"),
    ("breakpoint", "nvvm.breakpoint", "nvvm.breakpoint"),
    ("griddepcontrol", "nvvm.griddepcontrol launch_dependents", "nvvm.griddepcontrol launch_dependents"),
    ("pmevent-id", "nvvm.pmevent id = 10", "nvvm.pmevent id = 10"),
    ("pmevent-mask", "nvvm.pmevent mask = 4", "nvvm.pmevent mask = 4"),
]  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _batched() -> None:
    """The mlir-opt runs of the OPS / target / register tests, in one batch instead of ~150."""
    body = "\n".join(f"%r{i} = {name} : i32" for i, name in enumerate(nvvm.SPECIAL_REGISTER_OPS) if "clock64" not in name
                     and name.rsplit(".", 1)[-1] != "globaltimer")  # fmt: skip
    texts = [func(written, ARGS) for _, written, _ in OPS] + [func(body, "")]
    texts += [func("%r = nvvm.shfl.sync up %m, %i, %i, %i : i32 -> i32", ARGS)]
    texts += [f"module attributes {{nvvm.t = {attr}}} {{\n}}\n" for attr in TARGETS]
    prefetch(texts)


@pytest.mark.parametrize(("written", "expected"), [r[1:] for r in OPS], ids=[r[0] for r in OPS])
def test_op_roundtrip(written: str, expected: str) -> None:
    custom, generic = roundtrip(func(written, ARGS))
    assert expected in [line.strip() for line in custom.splitlines()]
    name = re.search(r"nvvm\.[a-z0-9_.]*[a-z0-9]", written.split(" = ", 1)[-1] if written.startswith("%") else written)
    assert name is not None and f'"{name.group(0)}"' in generic


def test_every_special_register_roundtrips() -> None:
    body = "\n".join(f"%r{i} = {name} : i32" for i, name in enumerate(nvvm.SPECIAL_REGISTER_OPS) if "clock64" not in name
                     and name.rsplit(".", 1)[-1] != "globaltimer")  # fmt: skip
    roundtrip(func(body, ""))
    assert len(nvvm.SPECIAL_REGISTER_OPS) >= 70


def test_generic_enum_attributes_match_mlir() -> None:
    _, generic = roundtrip(func("%r = nvvm.shfl.sync up %m, %i, %i, %i : i32 -> i32", ARGS))
    assert "kind = #nvvm<shfl_kind up>" in generic


def test_verifier_rejects_wrong_vote_result() -> None:
    parsed = parse_upstream(SourceText(func("%r = nvvm.vote.sync any %m, %p -> i32", ARGS), "t.mlir"))
    assert not parsed.ok
    assert any("vote.sync 'any' returns i1" in d.message for d in parsed.diagnostics)


def test_dialect_gathers_core_and_arch_ops() -> None:
    from tile_lsp.compiler.mlir.dialects import nvvm_arch

    names = {op.name for op in nvvm.dialect().operations}
    assert {"nvvm.barrier0", "nvvm.shfl.sync", "nvvm.read.ptx.sreg.tid.x", "nvvm.elect.sync"} <= names
    assert {op.name for op in nvvm_arch.OPS} <= names
    assert "nvvm.target" in {a.name for a in nvvm.dialect().attributes}


# --------------------------------------------------------------------------------------------
# #nvvm.target

TARGETS = [
    "#nvvm.target",
    '#nvvm.target<chip = "sm_90a", O = 3>',
    '#nvvm.target<O = 3, triple = "nvptx64-nvidia-cuda", chip = "sm_90a", features = "+ptx80", '
    'flags = {"-Xopt", libNVVMUseNVGpuComp = true}, link = ["libdevice.bc"], verifyTarget = false>',
    '#nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_50", features = "">',
    '#nvvm.target<chip = "sm_100a", flags = {"-fma=0", "-g"}>',
]


@pytest.mark.parametrize("attr", TARGETS)
def test_nvvm_target_prints_like_mlir_opt(attr: str) -> None:
    text = f"module attributes {{nvvm.t = {attr}}} {{\n}}\n"
    custom, _ = roundtrip(text)
    assert _target_text(custom) == _target_text(canonical(text))


def _target_text(printed: str) -> str:
    start = printed.index("#nvvm.target")
    depth = 0
    for i, ch in enumerate(printed[start:], start):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0:
                return printed[start : i + 1]
        elif depth == 0 and not (ch.isalnum() or ch in "#._"):
            return printed[start:i]
    return printed[start:]


def test_nvvm_target_make() -> None:
    from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, IntegerType, UnitAttr

    flags = DictionaryAttr({"-Xopt": UnitAttr(), "libNVVMUseNVGpuComp": IntegerAttr(1, IntegerType(1))})
    attr = nvvm.NVVMTargetAttr.make(O=3, chip="sm_90a", features="+ptx80", flags=flags)
    assert attr.chip.data == "sm_90a" and attr.O.data == 3
    assert set(attr.flag_dict) == {"-Xopt", "libNVVMUseNVGpuComp"}
    from xdsl.dialects.builtin import ModuleOp

    module = ModuleOp([])
    module.attributes["nvvm.t"] = attr
    text = print_ir(module)
    assert '#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80", flags = {"-Xopt", libNVVMUseNVGpuComp = true}>' in text
    assert_mlir_opt_accepts(text)


# --------------------------------------------------------------------------------------------
# Upstream test functions that use only our ops

_OP = re.compile(r"\bnvvm\.[a-z][a-z0-9_.]*[a-z0-9]")


_UPSTREAM: dict[Path, list[tuple[str, str]]] = {}


def _upstream_functions(path: Path) -> list[tuple[str, str]]:
    """(name, code) of the upstream functions over our ops that mlir-opt 22 accepts; once per process."""
    if path not in _UPSTREAM:
        candidates = _candidate_functions(path)
        mlir_opt_batch([code for _, code in candidates])
        _UPSTREAM[path] = [(name, code) for name, code in candidates if mlir_opt_ok(code)]
    return _UPSTREAM[path]


def _candidate_functions(path: Path) -> list[tuple[str, str]]:
    ours = {op.name for op in nvvm.OPS}
    found: list[tuple[str, str]] = []
    for chunk in path.read_text().split("// -----"):
        for block in re.split(r"\n(?=(?:// CHECK-LABEL[^\n]*\n)?(?:llvm|func)\.func )", chunk):
            if "expected-error" in block or ".func " not in block:
                continue
            code = "\n".join(line for line in block.splitlines() if not line.lstrip().startswith("//"))
            used = {m for m in _OP.findall(code) if not m.startswith(("nvvm.kernel", "nvvm.maxntid", "nvvm.reqntid"))}
            used -= {m for m in used if re.search(r"#" + re.escape(m), code)}
            if used and used <= ours:
                name = re.search(r"@(\w+)", code)
                found.append((name.group(1) if name else "?", code))
    return found


@pytest.mark.parametrize("relpath", ["Dialect/LLVMIR/nvvm.mlir", "Target/LLVMIR/nvvmir.mlir"])
def test_upstream_functions_roundtrip(shared: Path, relpath: str) -> None:
    path = shared / "conformance" / "mlir-upstream" / "mlir" / "test" / relpath
    if not path.exists():
        pytest.skip(f"{relpath} not in ../shared")
    functions = _upstream_functions(path)
    assert len(functions) >= 8, [n for n, _ in functions]
    prefetch([code for _, code in functions])
    for _name, code in functions:
        roundtrip(code)
