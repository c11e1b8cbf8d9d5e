"""Every kernel through the whole pipeline: each cuTile entry of tests/data/cutile and each module
of ../shared/kernels/nvidia, compiled to a cubin for sm_80, sm_90a and sm_100a, with the nvvm dump
checked by upstream mlir-opt 22 (parse + verify).

`python scripts/kernel_sweep.py [--json] [--jobs N] [--targets sm_80,sm_90a] [--debug-info] [FILE ...]`
Each (file, target) is compiled once (entries that share a file share the compile); a diagnostic
is charged to the entry whose text holds it. A file the front end rejects, or one with no entry
(a doc snippet of bare ops), is reported as such and not counted as a failure.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from tile_lsp.testing.tools import mlir_opt_path

ROOT = pathlib.Path(__file__).resolve().parents[1]
CUTILE = ROOT / "tests" / "data" / "cutile"
NVIDIA = ROOT.parent / "shared" / "kernels" / "nvidia"
TARGETS = ("sm_80", "sm_90a", "sm_100a")
SPLIT = "// -----"
_ENTRY = re.compile(r"^\s*entry\s+@([\w$.-]+)", re.MULTILINE)


@dataclass
class EntryResult:
    """One entry on one target: `status` is ok, error (ours), or blocked (another entry of the
    file failed, so the file stopped before this entry reached ptxas)."""

    status: str
    error: str = ""
    registers: int | None = None
    spill_bytes: int | None = None
    shared_bytes: int | None = None


@dataclass
class FileTarget:
    """One compile of one file for one target."""

    file: str
    target: str
    entries: dict[str, EntryResult] = field(default_factory=dict)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    nvvm: str | None = None  # the nvvm stage text, for mlir-opt
    nvvm_accepted: bool | None = None
    nvvm_error: str = ""


@dataclass
class FileInfo:
    file: str
    kind: str  # cutile | nvidia
    valid: bool
    reason: str = ""  # why not valid: front end rejects it / no entry
    entries: list[str] = field(default_factory=list)



def kernel_files(paths: list[str], debug_info: bool = False) -> list[tuple[pathlib.Path, str]]:
    """The files to sweep: `paths`, else the cuTile corpus (with its `-g` variants, which carry
    `loc(...)` and debug-info attributes, when `debug_info`) and NVIDIA's snippets."""
    if paths:
        return [(pathlib.Path(p), "nvidia" if NVIDIA.name in p else "cutile") for p in paths]
    cutile = [(p, "cutile") for p in sorted(CUTILE.glob("*.mlir")) if debug_info or not p.name.endswith(".g.mlir")]
    return cutile + [(p, "nvidia") for p in sorted(NVIDIA.glob("*.mlir"))]


def entry_ranges(text: str) -> list[tuple[str, int, int]]:
    """(name, start, end) of each entry: from its `entry` line to the next one."""
    found = [(m.group(1), m.start()) for m in _ENTRY.finditer(text)]
    return [(name, start, found[i + 1][1] if i + 1 < len(found) else len(text)) for i, (name, start) in enumerate(found)]


def classify(path: pathlib.Path, kind: str) -> FileInfo:
    """Whether the front end accepts the file as a module with at least one entry."""
    from tile_lsp.compiler.frontend import parse_text

    text = path.read_text()
    info = FileInfo(path.name, kind, False)
    [parsed] = parse_text(text, str(path))
    errors = [d for d in parsed.diagnostics if d.is_error]
    if errors or parsed.module is None:
        info.reason = "front end rejects it: " + (errors[0].message if errors else "no module")
        return info
    names = [op.properties["sym_name"].data for op in parsed.module.walk()  # type: ignore[attr-defined]
             if op.name == "cuda_tile.entry" and "sym_name" in op.properties]
    if not names:
        info.reason = "no entry (a snippet of ops)"
        return info
    info.valid, info.entries = True, names
    return info


def compile_one(path: str, target: str) -> FileTarget:
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    text = pathlib.Path(path).read_text()
    out = FileTarget(pathlib.Path(path).name, target)
    chip = Target.parse_gpu_name(target)
    result = compile_source(SourceText(text, path), CompileOptions(target=chip), emit="cubin")
    out.stage_seconds = {s.name: round(s.seconds, 3) for s in result.stages}
    nvvm = result.stage("nvvm")
    out.nvvm = nvvm.text if nvvm is not None else None
    ranges = entry_ranges(text)
    errors = [d for d in result.diagnostics if d.is_error]
    for name, start, end in ranges:
        mine = [d for d in errors if start <= d.span.start < end]
        if mine:
            out.entries[name] = EntryResult("error", f"[{mine[0].stage}] {mine[0].message}")
        elif errors:
            outside = [d for d in errors if not any(s <= d.span.start < e for _, s, e in ranges)]
            first = (outside or errors)[0]
            out.entries[name] = EntryResult("error" if outside else "blocked", f"[{first.stage}] {first.message}")
        else:
            res = result.kernels.get(name)
            if res is None:
                out.entries[name] = EntryResult("error", "no ptxas resources for this kernel")
                continue
            out.entries[name] = EntryResult("ok", "", res.registers, res.spill_stores + res.spill_loads,
                                            res.shared_bytes)
    return out


def check_nvvm(runs: list[FileTarget]) -> None:
    """mlir-opt 22 on every nvvm dump: one `--split-input-file` run, then alone for a rejected one."""
    tool = mlir_opt_path()
    todo = [r for r in runs if r.nvvm is not None]
    if tool is None or not todo:
        return
    joined = f"\n{SPLIT}\n".join(r.nvvm or "" for r in todo)
    res = subprocess.run([tool, "--split-input-file", "--verify-each"], input=joined, capture_output=True,
                         text=True, timeout=600)
    if res.returncode == 0:
        for r in todo:
            r.nvvm_accepted = True
        return
    for r in todo:
        one = subprocess.run([tool, "--verify-each"], input=r.nvvm, capture_output=True, text=True, timeout=120)
        r.nvvm_accepted = one.returncode == 0
        r.nvvm_error = one.stderr.strip().splitlines()[0] if one.returncode and one.stderr.strip() else ""


def _short(file: str) -> str:
    """NVIDIA's doc-snippet file names without their long common prefix."""
    return re.sub(r"^NVIDIA__cuda-tile__(include__cuda_tile__Dialect__CudaTile__IR__)?", "nvidia:", file)


def _cell(e: EntryResult | None) -> str:
    if e is None:
        return "-"
    if e.status == "ok":
        return f"ok {e.registers}r {e.spill_bytes}sp {e.shared_bytes}sm"
    text = e.error.replace("|", "\\|").replace("\n", " ")
    return f"{e.status}: {text[:110]}"


def report(infos: list[FileInfo], runs: list[FileTarget], targets: list[str], seconds: float) -> str:
    by_key = {(r.file, r.target): r for r in runs}
    lines = ["| file | entry | " + " | ".join(targets) + " | nvvm in mlir-opt |",
             "|---|---|" + "---|" * len(targets) + "---|"]
    ok = dict.fromkeys(targets, 0)
    total = 0
    for info in infos:
        if not info.valid:
            continue
        for name in info.entries:
            total += 1
            cells = []
            for t in targets:
                e = by_key[info.file, t].entries.get(name) if (info.file, t) in by_key else None
                ok[t] += e is not None and e.status == "ok"
                cells.append(_cell(e))
            opt = [by_key[info.file, t].nvvm_accepted for t in targets if (info.file, t) in by_key]
            verdict = "n/a" if all(a is None for a in opt) else f"{sum(a is True for a in opt)}/{len(opt)}"
            lines.append(f"| {_short(info.file)} | {name} | " + " | ".join(cells) + f" | {verdict} |")
    skipped = [i for i in infos if not i.valid]
    if skipped:
        lines += ["", "Not valid modules (not counted):", ""]
        lines += [f"- {_short(i.file)}: {i.reason}" for i in skipped]
    dumps = [r for r in runs if r.nvvm is not None]
    accepted = sum(r.nvvm_accepted is True for r in dumps)
    lines += ["", f"Entries: {total} (valid files: {sum(i.valid for i in infos)}, skipped: {len(skipped)})"]
    lines += [f"- {t}: {ok[t]}/{total} entries reach ptxas and it accepts them" for t in targets]
    lines.append(f"- nvvm dumps accepted by mlir-opt 22: {accepted}/{len(dumps)} (of {len(runs)} compiles)")
    for r in dumps:
        if r.nvvm_accepted is False:
            lines.append(f"  - rejected: {_short(r.file)} {r.target}: {r.nvvm_error}")
    stage_totals: dict[str, float] = {}
    for r in runs:
        for s, v in r.stage_seconds.items():
            stage_totals[s] = stage_totals.get(s, 0.0) + v
    lines.append("- seconds per stage (all compiles): " + ", ".join(f"{s} {v:.1f}" for s, v in stage_totals.items()))
    lines.append(f"- wall time: {seconds:.1f} s")
    return "\n".join(lines)


def _compile_star(args: tuple[str, str]) -> FileTarget:
    return compile_one(*args)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("files", nargs="*", help="kernel files (default: the cuTile and NVIDIA corpora)")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the markdown table")
    ap.add_argument("--jobs", type=int, default=2, help="compiles in parallel (default 2)")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated gpu names")
    ap.add_argument("--debug-info", action="store_true", help="also the cuTile files' .g.mlir variants")
    args = ap.parse_args(argv)
    targets = [t for t in args.targets.split(",") if t]
    started = time.perf_counter()
    files = kernel_files(args.files, args.debug_info)
    infos = [classify(p, kind) for p, kind in files]
    paths = {i.file: str(p) for i, (p, _) in zip(infos, files, strict=True)}
    work = [(paths[i.file], t) for i in infos if i.valid for t in targets]
    if args.jobs > 1:
        os.environ.setdefault("TILE_LSP_JOBS", "1")  # the pool is the parallelism: one unit at a time per worker
        with ProcessPoolExecutor(args.jobs) as pool:
            runs = list(pool.map(_compile_star, work))
    else:
        runs = [compile_one(p, t) for p, t in work]
    check_nvvm(runs)
    seconds = time.perf_counter() - started
    if args.json:
        for r in runs:
            r.nvvm = None
        ok = {t: sum(e.status == "ok" for r in runs if r.target == t for e in r.entries.values()) for t in targets}
        summary = {"entries": sum(len(i.entries) for i in infos if i.valid), "ok": ok,
                   "nvvm_accepted": sum(r.nvvm_accepted is True for r in runs),
                   "nvvm_dumps": sum(r.nvvm_accepted is not None for r in runs)}
        print(json.dumps({"summary": summary, "files": [asdict(i) for i in infos], "runs": [asdict(r) for r in runs],
                          "seconds": round(seconds, 1)}, indent=1))
    else:
        print(report(infos, runs, targets, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
