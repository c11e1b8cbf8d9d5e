"""Why each op we define over one of xDSL's (same name) is ours: xDSL's own, swapped in, on MLIR 22 text.

`python scripts/xdsl_overrides.py [--markdown]`

Samples: the stage texts (gpu, nvvm, llvm; upstream mlir-opt 22 accepts them: tests check it) of
a few cuTile kernels and of the upstream inputs under tests/, plus every `// -----` chunk of
../shared's upstream MLIR 22 tests that uses the op. For each op of ours that replaces xDSL's of
the same name, each sample that uses it is parsed with our op and with xDSL's in its place:
- "parse": xDSL's op does not parse MLIR 22's form (its error is shown);
- "print": both parse, but xDSL's prints another text than ours (mlir-opt 22's form), or
  the one it prints does not parse again;
- "verify": xDSL's op verifies what ours rejects or rejects what ours accepts;
- "same": no difference on any sample (a candidate to take xDSL's instead).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED_TESTS = ROOT.parent / "shared" / "conformance" / "mlir-upstream"
KERNELS = ("vector_add", "row_softmax", "attention", "atomics", "prefix_scan")
# MLIR 22 forms the samples above lack (each checked with mlir-opt 22: it accepts the first six
# and rejects the last two with the words our ops say).
EXTRA = {
    "llvm forms": """llvm.func @f(%p: !llvm.ptr, %v: i32) -> i32 {
  %0 = llvm.load %p atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store volatile %v, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %1 = llvm.load %p invariant : !llvm.ptr -> i32
  %2 = llvm.inline_asm has_side_effects asm_dialect = att "mov.u32 $0, 1;", "=r" : () -> i32
  llvm.return %0 : i32
}
""",
    "llvm atomic store, inline_asm forms": """llvm.func @f(%p: !llvm.ptr, %v: i32) {
  llvm.store %v, %p atomic syncscope("agent") release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.inline_asm is_align_stack asm_dialect = intel "nop", "" : () -> ()
  %0 = llvm.inline_asm "add.u32 $0, $1, $1;", "=r,r" %v : (i32) -> i32
  llvm.return
}
""",
    "inline_asm keyword order": """llvm.func @f(%v: i32) -> i32 {
  %0 = llvm.inline_asm has_side_effects tail_call_kind = <tail> asm_dialect = att operand_attrs = [{}] {note = "x"} "add.u32 $0, $1, $1;", "=r,r" %v : (i32) -> i32
  llvm.return %0 : i32
}
""",
    "arith vector forms": """func.func @f(%a: vector<4xi32>, %c: vector<4xi1>) {
  %0 = arith.extsi %a : vector<4xi32> to vector<4xi64>
  %1 = arith.extui %a : vector<4xi32> to vector<4xi64>
  %2 = arith.trunci %a : vector<4xi32> to vector<4xi8>
  %3 = arith.select %c, %a, %a : vector<4xi1>, vector<4xi32>
  %4 = arith.sitofp %a : vector<4xi32> to vector<4xf32>
  %5 = arith.uitofp %a : vector<4xi32> to vector<4xf32>
  %6 = arith.fptosi %4 : vector<4xf32> to vector<4xi32>
  %7 = arith.fptoui %4 : vector<4xf32> to vector<4xi32>
  %8 = arith.index_cast %a : vector<4xi32> to vector<4xindex>
  %9 = arith.index_castui %a : vector<4xi32> to vector<4xindex>
  return
}
""",
    "memref forms": """memref.global "private" constant @g : memref<4xf32> = dense<0.0> {alignment = 64 : i64}
memref.global @h : memref<2xi32> = uninitialized
func.func @f(%m: memref<4xf32>, %n: memref<4xf32, 1>, %d: memref<?xf32>) -> index {
  %1 = memref.cast %m : memref<4xf32> to memref<?xf32>
  memref.copy %m, %d : memref<4xf32> to memref<?xf32>
  %2 = memref.rank %m : memref<4xf32>
  %3 = memref.memory_space_cast %n : memref<4xf32, 1> to memref<4xf32>
  %4 = memref.get_global @g : memref<4xf32>
  return %2 : index
}
""",
    "gpu forms": """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: f32) kernel {
      %0 = gpu.block_dim x
      %1 = gpu.global_id y
      %2 = gpu.num_subgroups : index
      %3 = gpu.subgroup_id : index
      %4 = gpu.subgroup_size : index
      %5 = gpu.all_reduce add %a uniform {} : (f32) -> f32
      %6 = gpu.all_reduce %a {
      ^bb0(%x: f32, %y: f32):
        %s = arith.addf %x, %y : f32
        gpu.yield %s : f32
      } : (f32) -> f32
      %7 = gpu.lane_id
      gpu.return
    }
  }
  func.func @host(%a: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : f32)
    return
  }
}
""",
    "memref.load index count": """func.func @f(%m: memref<4x4xf32>, %i: index) -> f32 {
  %0 = "memref.load"(%m, %i) : (memref<4x4xf32>, index) -> f32
  return %0 : f32
}
""",
    "memref.store index count": """func.func @f(%m: memref<4x4xf32>, %i: index, %v: f32) {
  "memref.store"(%v, %m, %i) : (f32, memref<4x4xf32>, index) -> ()
  return
}
""",
}


def _xdsl_ops() -> dict[str, type]:
    from xdsl.dialects import arith, gpu, llvm, math, memref

    return {op.name: op for d in (gpu.GPU, llvm.LLVM, memref.MemRef, arith.Arith, math.Math) for op in d.operations}


def _samples() -> list[tuple[str, str]]:
    from tile_lsp.compiler.frontend import split_chunks
    from tile_lsp.compiler.pipeline import compile_whole
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    found: list[tuple[str, str]] = list(EXTRA.items())
    for chip in ("sm_80", "sm_90a"):
        options = CompileOptions(target=Target.parse_gpu_name(chip))
        for name in KERNELS:
            path = ROOT / "tests" / "data" / "cutile" / f"{name}.mlir"
            result = compile_whole(SourceText(path.read_text(), path.name), options, "llvm")
            found += [(f"{name} {chip} {s.name} stage", s.text) for s in result.stages if s.name in ("gpu", "nvvm", "llvm")]
    for path in sorted((ROOT / "tests").rglob("*.mlir")) + sorted(SHARED_TESTS.rglob("*.mlir")):
        text = path.read_text(errors="replace")
        if "cuda_tile." in text or "invalid" in path.name:
            continue
        for span in split_chunks(text):
            found.append((f"{path.relative_to(path.parents[2])}@{span.start}", text[span.start : span.end]))
    return found


def _outcome(ctx: object, text: str) -> tuple[str, str]:
    """("ok", printed) or ("parse" | "verify" | "print", message) for `text` under `ctx`."""
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError, VerifyException

    from tile_lsp.compiler.mlir.context import print_ir

    try:
        module = Parser(ctx, text).parse_module()  # type: ignore[arg-type]
    except ParseError as exc:
        return "parse", exc.msg.splitlines()[0]
    except Exception as exc:
        return "parse", f"{type(exc).__name__}: {exc}".splitlines()[0]
    try:
        module.verify()
    except VerifyException as exc:
        return "verify", str(exc).splitlines()[0]
    except Exception as exc:
        return "verify", f"{type(exc).__name__}: {exc}".splitlines()[0]
    try:
        return "ok", print_ir(module)
    except Exception as exc:
        return "print", f"{type(exc).__name__}: {exc}".splitlines()[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--markdown", action="store_true", help="a table for docs/upstream_dialects.md")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tile_lsp.compiler.mlir.context import upstream_context

    ours_ctx = upstream_context()
    for name in sorted(ours_ctx.registered_dialect_names):
        ours_ctx.load_registered_dialect(name)
    xdsl = _xdsl_ops()
    overrides = sorted(
        op.name for d in ours_ctx.loaded_dialects for op in d.operations
        if not op.__module__.startswith("xdsl.") and op.name in xdsl
    )
    samples = _samples()
    rows = []
    for name in overrides:
        theirs = ours_ctx.clone()
        theirs._loaded_ops[name] = xdsl[name]  # (xDSL's op in ours' place)
        used = [(label, text) for label, text in samples if name in text]
        verdict, detail, where = "same", "", ""
        checked = 0
        for label, text in used:
            mine = _outcome(ours_ctx, text)
            if mine[0] == "verify":  # an invalid sample: both must reject it, in the same words
                checked += 1
                other = _outcome(theirs, text)
                if other != mine:
                    verdict, where = "verify", label
                    detail = f"ours says `{mine[1]}`, xDSL's " + (f"`{other[1]}`" if other[0] != "ok" else "accepts it")
                    break
                continue
            if mine[0] != "ok":
                continue  # (a sample we do not take whole: says nothing of this op)
            checked += 1
            other = _outcome(theirs, text)
            if other[0] == "ok" and other[1] != mine[1]:
                again = _outcome(theirs, other[1])
                if again[0] != "ok":
                    other = ("print", f"what it prints does not parse again: {again[1]}")
                else:
                    diff = next((a, b) for a, b in zip(mine[1].splitlines() + [""], other[1].splitlines() + [""]) if a != b)
                    other = ("print", f"ours `{diff[0].strip()}`, xDSL's `{diff[1].strip()}`")
            if other[0] != "ok":
                verdict, detail, where = other[0], other[1], label
                break
        rows.append((name, verdict, checked, detail, where))
    if args.markdown:
        print("| op | xDSL's op in its place | samples | first difference |")
        print("|---|---|---|---|")
        for name, verdict, checked, detail, where in rows:
            shown = detail.replace("|", "\\|")[:160]
            print(f"| `{name}` | {verdict} | {checked} | {shown} ({where}) |" if where else f"| `{name}` | {verdict} | {checked} | |")
    else:
        for row in rows:
            print(*row, sep="\t")
    return 0


if __name__ == "__main__":
    sys.exit(main())
