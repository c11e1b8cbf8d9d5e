"""gpu -> nvvm (seed 000 GPU table): one test per row, checking emitted ops and their order;
every lowered module must verify in upstream mlir-opt 22."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import Float64Type, IntegerType

from tile_lsp.compiler.lowering.gpu_to_nvvm import ASSERTFAIL_ARGS, libdevice_callee
from upstream_lowering.nvvm_stage import Lowered, device_func, kernel, lower
from upstream_lowering.util import assert_mlir_accepts, mlir_opt_batch

# (source op, dimension or None) -> special register, the seed's nine-row table.
INDEX_ROWS = [
    ("gpu.thread_id", "tid"),
    ("gpu.block_id", "ctaid"),
    ("gpu.block_dim", "ntid"),
    ("gpu.grid_dim", "nctaid"),
    ("gpu.cluster_id", "clusterid"),
    ("gpu.cluster_dim", "nclusterid"),
    ("gpu.cluster_block_id", "cluster.ctaid"),
]


SCALAR_ROWS = [("gpu.subgroup_size : index", "warpsize"), ("gpu.lane_id", "laneid")]
REDUCE_ROWS = [
    ("add %v", "f32", "llvm.fadd", [16, 8, 4, 2, 1]),
    ("maxsi %v cluster(size = 8)", "i32", "llvm.intr.smax", [4, 2, 1]),
]


def _index_text(source: str, dim: str) -> str:
    return device_func(f"    %i = {source} {dim}", "", "index", "%i")


def _scalar_text(source: str) -> str:
    return device_func(f"    %i = {source}", "", "index", "%i")


def _libdevice_text(op: str, elem: str, fm: str) -> str:
    return device_func(f"    %r = {op} %x{fm} : {elem}", f"%x: {elem}", elem, "%r")


def _reduce_text(reduce: str, ty: str) -> str:
    return device_func(f"    %r = gpu.subgroup_reduce {reduce} : ({ty}) -> {ty}", f"%v: {ty}", ty, "%r")


_LOWERED: dict[str, Lowered] = {}


def lowered(text: str) -> Lowered:
    """`lower(text)`, from `_rows_batched` when it lowered `text` already (tests only read it)."""
    if text not in _LOWERED:
        _LOWERED[text] = lower(text)
    return _LOWERED[text]


@pytest.fixture(scope="module")
def _rows_batched() -> None:
    """The parametrized rows lowered up front, and mlir-opt's check of all of them as one batch."""
    texts = [_index_text(source, dim) for source, _ in INDEX_ROWS for dim in "xyz"]
    texts += [_scalar_text(source) for source, _ in SCALAR_ROWS]
    texts += [_libdevice_text(op, elem, fm) for op, elem, fm, _ in LIBDEVICE_ROWS]
    texts += [_reduce_text(reduce, ty) for reduce, ty, _, _ in REDUCE_ROWS]
    printed = []
    for text in texts:
        try:
            printed.append(lowered(text).text)
        except Exception:  # noqa: BLE001 - the row's test reports it
            continue
    mlir_opt_batch(printed)


@pytest.mark.usefixtures("_rows_batched")
@pytest.mark.parametrize("dim", ["x", "y", "z"])
@pytest.mark.parametrize(("source", "sreg"), INDEX_ROWS)
def test_index_query_reads_its_special_register(source: str, sreg: str, dim: str) -> None:
    low = lowered(_index_text(source, dim))
    assert low.ok, low.messages()
    body = [op.name for op in low.func("f").walk()][1:]
    assert body == [f"nvvm.read.ptx.sreg.{sreg}.{dim}", "llvm.sext", "llvm.return"]
    sext = next(op for op in low.ops("llvm.sext"))
    assert sext.operands[0].type == IntegerType(32) and sext.results[0].type == IntegerType(64)
    assert_mlir_accepts(low.text)


@pytest.mark.usefixtures("_rows_batched")
@pytest.mark.parametrize(("source", "sreg"), SCALAR_ROWS)
def test_scalar_queries_read_warpsize_and_laneid(source: str, sreg: str) -> None:
    low = lowered(_scalar_text(source))
    assert low.ok, low.messages()
    assert [op.name for op in low.func("f").walk()][1:] == [f"nvvm.read.ptx.sreg.{sreg}", "llvm.sext", "llvm.return"]
    assert_mlir_accepts(low.text)


def test_barrier_is_the_aligned_cta_barrier_without_control_flow() -> None:
    low = lower(kernel("    %t = gpu.thread_id x\n    gpu.barrier\n    %l = gpu.lane_id\n"
                       "    memref.store %t, %m[%l] : memref<32xindex, 3>", "%m: memref<32xindex, 3>"))
    assert low.ok, low.messages()
    func = low.func("k")
    assert len(func.regions[0].blocks) == 1  # no block was added
    names = [op.name for op in func.regions[0].blocks.first.ops]  # type: ignore[union-attr]
    at = names.index("nvvm.barrier0")
    assert names[at - 1] == "nvvm.read.ptx.sreg.tid.x" or "sreg.tid.x" in " ".join(names[:at])
    assert "nvvm.read.ptx.sreg.laneid" in names[at + 1 :]
    assert_mlir_accepts(low.text)


def test_assert_becomes_guarded_assertfail_with_fixed_abi() -> None:
    text = kernel('    cf.assert %c, "index out of range"\n    gpu.barrier', "%c: i1")
    low = lower(text, "kern.mlir")
    assert low.ok, low.messages()
    func = low.func("k")
    entry, fail, cont = list(func.regions[0].blocks)
    cond_br = entry.last_op
    assert isinstance(cond_br, llvm.CondBrOp)
    assert cond_br.successors[0] is cont and cond_br.successors[1] is fail  # passing edge first
    assert cond_br.cond is entry.args[0]  # the original predicate
    assert [op.name for op in fail.ops] == [
        "llvm.mlir.addressof", "llvm.mlir.addressof", "llvm.mlir.addressof",
        "llvm.mlir.constant", "llvm.mlir.constant", "llvm.call", "llvm.br",
    ]
    call = [op for op in fail.ops if isinstance(op, llvm.CallOp)][0]
    assert call.callee.root_reference.data == "__assertfail"  # type: ignore[union-attr]
    assert tuple(a.type for a in call.operands) == ASSERTFAIL_ARGS
    assert [str(t) for t in ASSERTFAIL_ARGS] == ["!llvm.ptr", "!llvm.ptr", "i32", "!llvm.ptr", "i64"]
    msg, file, line, fn, size = call.operands
    names = [op.properties["global_name"].root_reference.data for op in fail.ops if op.name == "llvm.mlir.addressof"]
    assert [msg.owner, file.owner, fn.owner] == [op for op in fail.ops if op.name == "llvm.mlir.addressof"]
    globals_ = {op.sym_name.data: op.value.data for op in low.ops("llvm.mlir.global")}  # type: ignore[attr-defined, union-attr]
    assert [globals_[n] for n in names] == ["index out of range\0", "kern.mlir\0", "k\0"]
    assert line.owner.value.value.data == 3 and size.owner.value.value.data == 1  # type: ignore[attr-defined, union-attr]
    assert fail.last_op.successors[0] is cont  # type: ignore[union-attr]
    assert names_of(cont)[0] == "nvvm.barrier0"
    decl = low.func("__assertfail")
    assert [str(t) for t in decl.function_type.inputs.data] == ["!llvm.ptr", "!llvm.ptr", "i32", "!llvm.ptr", "i64"]  # type: ignore[attr-defined, union-attr]
    assert_mlir_accepts(low.text)


def names_of(block: object) -> list[str]:
    return [op.name for op in block.ops]  # type: ignore[attr-defined, union-attr]


def test_printf_calls_vprintf_with_format_global_and_promoted_argument_buffer() -> None:
    low = lower(kernel('    gpu.printf "a=%d b=%f\\n", %a, %b : i32, f32', "%a: i32, %b: f32"))
    assert low.ok, low.messages()
    body = [op.name for op in low.func("k").walk()][1:]
    assert body == [
        "llvm.fpext", "llvm.mlir.addressof", "llvm.mlir.constant", "llvm.alloca",
        "llvm.getelementptr", "llvm.store", "llvm.getelementptr", "llvm.store", "llvm.call", "llvm.return",
    ]
    alloca = low.ops("llvm.alloca")[0]
    assert str(alloca.properties["elem_type"]) == "!llvm.struct<(i32, f64)>"
    fpext = low.ops("llvm.fpext")[0]
    assert isinstance(fpext.results[0].type, Float64Type)
    call = low.ops("llvm.call")[0]
    assert call.callee.root_reference.data == "vprintf"  # type: ignore[attr-defined, union-attr]
    fmt = next(op for op in low.ops("llvm.mlir.global") if op.sym_name.data.startswith("printfFormat"))  # type: ignore[attr-defined, union-attr]
    assert fmt.value.data == "a=%d b=%f\n\0"  # type: ignore[attr-defined, union-attr]
    assert_mlir_accepts(low.text)


def test_printf_without_arguments_passes_a_null_buffer() -> None:
    low = lower(kernel('    gpu.printf "hello"'))
    assert low.ok, low.messages()
    assert [op.name for op in low.func("k").walk()][1:] == [
        "llvm.mlir.addressof", "llvm.mlir.zero", "llvm.call", "llvm.return"]
    assert_mlir_accepts(low.text)


# (math op, element type, fastmath) -> libdevice callee, the (MathOpKind, ElementType) table.
LIBDEVICE_ROWS = [
    ("math.sqrt", "f32", "", "__nv_sqrtf"),
    ("math.sqrt", "f64", "", "__nv_sqrt"),
    ("math.sqrt", "f16", "", "__nv_sqrtf"),
    ("math.sin", "f32", "", "__nv_sinf"),
    ("math.sin", "f32", " fastmath<afn>", "__nv_fast_sinf"),
    ("math.sin", "f64", " fastmath<afn>", "__nv_sin"),
    ("math.exp", "f32", " fastmath<fast>", "__nv_fast_expf"),
    ("math.cos", "f16", " fastmath<afn>", "__nv_fast_cosf"),
    ("math.tanh", "f64", "", "__nv_tanh"),
    ("math.rsqrt", "f32", "", "__nv_rsqrtf"),
    ("math.log2", "f32", " fastmath<afn>", "__nv_fast_log2f"),
    ("math.erf", "f32", "", "__nv_erff"),
]


@pytest.mark.usefixtures("_rows_batched")
@pytest.mark.parametrize(("op", "elem", "fm", "callee"), LIBDEVICE_ROWS)
def test_libdevice_callee_by_op_and_element_type(op: str, elem: str, fm: str, callee: str) -> None:
    low = lowered(_libdevice_text(op, elem, fm))
    assert low.ok, low.messages()
    body = [o.name for o in low.func("f").walk()][1:]
    if elem == "f16":  # promoted to f32 and back
        assert body == ["llvm.fpext", "llvm.call", "llvm.fptrunc", "llvm.return"]
    else:
        assert body == ["llvm.call", "llvm.return"]
    call = low.ops("llvm.call")[0]
    assert call.callee.root_reference.data == callee  # type: ignore[attr-defined, union-attr]
    assert callee in {o.sym_name.data for o in low.ops("llvm.func")}  # type: ignore[attr-defined, union-attr]
    assert_mlir_accepts(low.text)


def test_libdevice_table_is_keyed_by_op_and_type() -> None:
    from xdsl.dialects.builtin import f16, f32, f64, i32

    assert libdevice_callee("math.sqrt", f32, False).callee == "__nv_sqrtf"  # type: ignore[union-attr]
    assert libdevice_callee("math.sqrt", f64, False).callee == "__nv_sqrt"  # type: ignore[union-attr]
    f16_choice = libdevice_callee("math.sqrt", f16, False)
    assert f16_choice is not None and f16_choice.callee == "__nv_sqrtf" and f16_choice.promote
    assert libdevice_callee("math.sqrt", i32, False) is None


def test_vector_math_is_scalarised_lanes_then_calls_then_rebuild() -> None:
    low = lower(device_func("    %r = math.sqrt %v : vector<4xf32>", "%v: vector<4xf32>", "vector<4xf32>", "%r"))
    assert low.ok, low.messages()
    body = [o.name for o in low.func("f").walk()][1:]
    core = [n for n in body if n != "llvm.mlir.constant"]
    assert core == (["llvm.extractelement"] * 4 + ["llvm.call"] * 4 + ["llvm.mlir.poison"]
                    + ["llvm.insertelement"] * 4 + ["llvm.return"])
    lanes = [o.operands[1].owner.value.value.data for o in low.ops("llvm.extractelement")]  # type: ignore[attr-defined, union-attr]
    assert lanes == [0, 1, 2, 3]
    calls = low.ops("llvm.call")
    assert all(c.callee.root_reference.data == "__nv_sqrtf" for c in calls)  # type: ignore[attr-defined, union-attr]
    extracts = low.ops("llvm.extractelement")
    assert [c.operands[0].owner for c in calls] == extracts  # call i consumes lane i
    inserts = low.ops("llvm.insertelement")
    assert [i.operands[1].owner for i in inserts] == calls
    assert_mlir_accepts(low.text)


def test_kernel_becomes_llvm_func_with_kernel_marking_and_launch_bounds() -> None:
    low = lower(kernel("    %t = gpu.thread_id x", "%a: memref<16xf32, 1>, %b: memref<4x4xf32>",
                       "attributes {known_block_size = array<i32: 128, 1, 1>}"))
    assert low.ok, low.messages()
    func = low.func("k")
    assert {"gpu.kernel", "nvvm.kernel"} <= set(func.attributes)
    assert str(func.attributes["nvvm.maxntid"]) == "array<i32: 128, 1, 1>"
    assert [str(t) for t in func.function_type.inputs.data] == ["!llvm.ptr<1>", "!llvm.ptr"]  # type: ignore[attr-defined, union-attr]
    assert func.regions[0].blocks.first.last_op.name == "llvm.return"  # type: ignore[union-attr]
    assert_mlir_accepts(low.text)


def test_dynamic_shared_memory_is_an_addrspace3_global() -> None:
    low = lower(kernel("    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>"))
    assert low.ok, low.messages()
    glob = [g for g in low.ops("llvm.mlir.global") if g.sym_name.data.startswith("__dynamic_shmem")]  # type: ignore[attr-defined, union-attr]
    assert glob and glob[0].addr_space.value.data == 3  # type: ignore[attr-defined, union-attr]
    assert_mlir_accepts(low.text)


def test_shuffle_becomes_shfl_sync_with_valid_bit() -> None:
    low = lower(device_func("    %r, %p = gpu.shuffle xor %x, %o, %w : f32", "%x: f32, %o: i32, %w: i32",
                            "f32, i1", "%r, %p"))
    assert low.ok, low.messages()
    names = [n for n in low.names("nvvm.", "llvm.") if n != "llvm.mlir.constant"]
    assert names[names.index("nvvm.shfl.sync") - 3 : names.index("nvvm.shfl.sync") + 3] == [
        "llvm.sub", "llvm.lshr", "llvm.sub", "nvvm.shfl.sync", "llvm.extractvalue", "llvm.extractvalue"]
    assert "bfly" in low.text
    assert_mlir_accepts(low.text)


def test_strict_legality_names_the_surviving_gpu_op_at_its_source() -> None:
    # 64-bit subgroup reductions have no lowering (shuffles are 32-bit)
    text = device_func("    %s = gpu.subgroup_reduce add %x : (f64) -> f64", "%x: f64", "f64", "%s")
    low = lower(text)
    assert not low.ok
    assert "failed to legalize operation 'gpu.subgroup_reduce'" in low.messages()
    diag = next(d for d in low.diagnostics if "gpu.subgroup_reduce" in d.message)
    assert low.source.text[diag.span.start :].startswith("%s = gpu.subgroup_reduce") or \
        "gpu.subgroup_reduce" in low.source.text[diag.span.start : diag.span.end + 40]


def test_unsupported_std_op_is_a_diagnostic_not_a_crash() -> None:
    low = lower(device_func("    %c0 = arith.constant 0 : index\n    %v = memref.load %m[%c0] : memref<?xf32>",
                            "%m: memref<?xf32>", "f32", "%v"))
    assert not low.ok
    assert any("not supported by the nvvm stage" in m for m in low.messages())


def test_gpu_to_nvvm_conformance_lowers_and_verifies(shared: object) -> None:
    """Upstream GPUToNVVM items (one per top-level module) lower without diagnostics; what we
    print is accepted by mlir-opt 22."""
    import pathlib

    from tile_lsp.compiler.lowering.common import LoweringContext
    from tile_lsp.compiler.lowering.to_nvvm import convert_to_nvvm
    from tile_lsp.compiler.mlir.context import parse_upstream, print_ir
    from tile_lsp.compiler.source import SourceText, Span
    from tile_lsp.compiler.target import CompileOptions, Target
    from upstream_lowering.util import mlir_opt_batch, mlir_opt_ok, mlir_opt_path

    path = pathlib.Path(str(shared)) / "conformance/mlir-upstream/mlir/test/Conversion/GPUToNVVM/gpu-to-nvvm.mlir"
    text = path.read_text()
    source = SourceText(text, str(path))
    starts = [m.start() for m in re.finditer(r"^(gpu\.module|module|func\.func)", text, re.M)] + [len(text)]
    parsed = clean = accepted = 0
    tool = mlir_opt_path()
    printed = []
    for a, b in zip(starts, starts[1:], strict=False):
        result = parse_upstream(source, Span(a, b))
        if result.module is None or result.diagnostics:
            continue
        parsed += 1
        lctx = LoweringContext(source, CompileOptions(Target(90, "a")), spans=result.spans)
        clean += convert_to_nvvm(result.module, lctx)
        printed.append(print_ir(result.module))
    if tool is not None:
        mlir_opt_batch(printed)  # one mlir-opt run for all items
        accepted = sum(mlir_opt_ok(text) for text in printed)
    assert parsed >= 54
    assert clean >= 51
    if tool is not None:
        assert accepted >= parsed - 1  # the one miss: a `test.symbol_scope` we cannot see through


def test_known_launch_sizes_and_upper_bounds_become_sreg_ranges() -> None:
    low = lower(
        "gpu.module @m {\n  gpu.func @k(%p: !llvm.ptr) kernel attributes {known_block_size = array<i32: 32, 4, 2>} {\n"
        "    %0 = gpu.thread_id y\n    %1 = gpu.block_dim x\n    %2 = gpu.lane_id\n"
        "    %3 = gpu.thread_id z upper_bound 8\n    %4 = arith.addi %0, %1 : index\n"
        "    %5 = arith.addi %4, %2 : index\n    %6 = arith.addi %5, %3 : index\n"
        "    %7 = arith.index_cast %6 : index to i64\n    llvm.store %7, %p : i64, !llvm.ptr\n    gpu.return\n  }\n}\n")
    assert low.ok, low.messages()
    ranges = re.findall(r"nvvm\.read\.ptx\.sreg\.(\S+) range <i32, (\d+), (\d+)>", low.text)
    assert ranges == [("tid.y", "0", "4"), ("ntid.x", "32", "33"), ("laneid", "0", "32"), ("tid.z", "0", "8")]
    assert_mlir_accepts(low.text)


@pytest.mark.usefixtures("_rows_batched")
@pytest.mark.parametrize(("reduce", "ty", "combine", "offsets"), REDUCE_ROWS)
def test_subgroup_reduce_is_a_shuffle_butterfly(reduce: str, ty: str, combine: str, offsets: list[int]) -> None:
    low = lowered(_reduce_text(reduce, ty))
    assert low.ok, low.messages()
    names = [n for n in low.names("nvvm.", "llvm.") if n not in ("llvm.mlir.constant", "llvm.func", "llvm.return")]
    assert names == ["nvvm.shfl.sync", combine] * len(offsets)
    shfls = low.ops("nvvm.shfl.sync")
    assert [s.operands[2].owner.properties["value"].value.data for s in shfls] == offsets  # type: ignore[union-attr]
    assert_mlir_accepts(low.text)


def test_subgroup_id_and_count_from_thread_registers() -> None:
    low = lower(device_func("    %a = gpu.subgroup_id : index\n    %b = gpu.num_subgroups : index", "",
                            "index, index", "%a, %b"))
    assert low.ok, low.messages()
    assert low.names("llvm.lshr") == ["llvm.lshr", "llvm.lshr"]
    assert_mlir_accepts(low.text)


def test_host_code_around_gpu_modules_is_left_alone() -> None:
    low = lower(
        "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n"
        "    gpu.func @k(%a: f32, %m: memref<4xf32, 1>) kernel {\n      %t = gpu.thread_id x\n"
        "      memref.store %a, %m[%t] : memref<4xf32, 1>\n      gpu.return\n    }\n  }\n"
        "  func.func @launch(%a: f32, %m: memref<4xf32, 1>, %c: index) {\n"
        "    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) "
        "args(%a : f32, %m : memref<4xf32, 1>)\n    return\n  }\n}\n")
    assert low.ok, low.messages()
    assert "gpu.launch_func" in low.names() and "func.func" in low.names()
    assert low.func("k").attributes.get("nvvm.kernel") is not None
    assert_mlir_accepts(low.text)


def test_workgroup_and_private_attributions() -> None:
    low = lower("gpu.module @m {\n  gpu.func @k() workgroup(%w: memref<32xf32, 3>) private(%p: memref<2xf32, 5>) "
                "kernel {\n    %c0 = arith.constant 0 : index\n    %v = memref.load %p[%c0] : memref<2xf32, 5>\n"
                "    memref.store %v, %w[%c0] : memref<32xf32, 3>\n    gpu.return\n  }\n}\n")
    assert low.ok, low.messages()
    glob = [g for g in low.ops("llvm.mlir.global") if g.sym_name.data.startswith("__wg_k")]  # type: ignore[attr-defined]
    assert glob and glob[0].addr_space.value.data == 3  # type: ignore[attr-defined]
    assert str(glob[0].global_type) == "!llvm.array<32 x f32>"  # type: ignore[attr-defined]
    assert "llvm.alloca" in low.names() and "llvm.addrspacecast" in low.names()
    assert not list(low.func("k").function_type.inputs.data)  # type: ignore[attr-defined]
    assert_mlir_accepts(low.text)


FULL_KERNEL = """\
gpu.module @m {
  gpu.func @k(%a: i32, %f: f32, %c: i1, %v: vector<4xf32>, %h: f16, %m: memref<4x8xf32, 1>)
      workgroup(%w: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %cl = gpu.cluster_id y
    %l = gpu.lane_id
    gpu.barrier
    cf.assert %c, "boom"
    gpu.printf "v=%d %f\\n", %a, %f : i32, f32
    %q = math.sqrt %v : vector<4xf32>
    %q2 = math.sqrt %h : f16
    %q2f = arith.extf %q2 : f16 to f32
    %q3 = math.sin %f fastmath<afn> : f32
    %x = memref.load %m[%t, %l] : memref<4x8xf32, 1>
    %y = arith.addf %x, %q3 : f32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y) -> (f32) {
      %z = memref.load %m[%i, %c1] : memref<4x8xf32, 1>
      %n = arith.addf %acc, %z : f32
      scf.yield %n : f32
    }
    %e = vector.extract %q[2] : f32 from vector<4xf32>
    %w0 = arith.mulf %s, %e : f32
    %w1 = arith.addf %w0, %q2f : f32
    memref.store %w1, %w[%l] : memref<32xf32, 3>
    %sh, %ok = gpu.shuffle xor %w1, %a, %a : f32
    %red = gpu.subgroup_reduce add %sh : (f32) -> f32
    %r = memref.load %w[%c0] : memref<32xf32, 3>
    %w2 = arith.addf %r, %red : f32
    memref.store %w2, %m[%t, %cl] : memref<4x8xf32, 1>
    gpu.return
  }
}
"""


def test_every_row_together_reaches_ptxas() -> None:
    """All GPU-table rows in one kernel go through the whole pipeline; ptxas accepts the PTX."""
    from tile_lsp.compiler.backend.ptxas import find_ptxas
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    options = CompileOptions(Target(90, "a"))
    if find_ptxas(options) is None:
        pytest.skip("no ptxas")
    result = compile_source(SourceText(FULL_KERNEL, "full.mlir"), options, "cubin")
    assert not [d.message for d in result.diagnostics if d.is_error]
    ptx = next(s.text for s in result.stages if s.name == "ptx")
    for needle in ("vprintf", "__assertfail", "bar.sync", "shfl.sync.bfly", "%clusterid.y", "%laneid"):
        assert needle in ptx, needle


def test_module_without_gpu_module_is_all_device_code() -> None:
    low = lower('func.func @f(%c: i1, %x: f32) -> f32 {\n  cf.assert %c, "bad"\n  %r = math.exp %x : f32\n'
                "  func.return %r : f32\n}\n")
    assert low.ok, low.messages()
    assert "__assertfail" in low.text and "__nv_expf" in low.text
    assert_mlir_accepts(low.text)
