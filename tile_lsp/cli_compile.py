"""`tile-lsp compile`: run the lowering pipeline on one file and write its outputs.

Diagnostics and ptxas resource usage go to stderr (or one JSON object on stdout with
`--format json`); the requested stage goes to `-o` or stdout.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from dataclasses import asdict, is_dataclass

from tile_lsp.cli_input import read_input
from tile_lsp.compiler.diagnostics import DiagnosticSink, format_text, to_json
from tile_lsp.compiler.entry_cache import (
    EntryCache,
    compile_source,
    default_directory,
    disk_cache_folders,
    refused_notice,
)
from tile_lsp.compiler.limits import MAX_FILE_SIZE
from tile_lsp.compiler.pipeline import MISSING_TARGET, CompileResult, StageOutput
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.target import CompileOptions, Target, target_error

# --dump-dir file names: <stem> + this.
DUMP_SUFFIX = {"tileaa": ".tileaa.mlir", "gpu": ".gpu.mlir", "nvvm": ".nvvm.mlir", "llvm": ".llvm.mlir", "llvm-ir": ".ll", "ptx": ".ptx", "cubin": ".cubin"}


def _target(args: argparse.Namespace) -> tuple[Target | None, str | None]:
    """(target, why the options give none or None): no option at all is valid (the input may
    carry one)."""
    if args.gpu_name is None and args.compute_capability is None:
        return None, None
    cc: int | None = None
    if args.compute_capability is not None:
        try:
            cc = int(args.compute_capability)
        except ValueError:
            return None, MISSING_TARGET
    target = Target.resolve(args.gpu_name, cc)
    if target is not None:
        return target, None
    return None, target_error(args.gpu_name, cc) or MISSING_TARGET


def run_compile(args: argparse.Namespace) -> int:
    loaded = read_input(args.file)
    if loaded is None:
        return 1
    source, diags = loaded
    target, invalid = _target(args)
    timeout = getattr(args, "ptxas_timeout", None)
    if timeout is not None and not timeout > 0:
        print(f"tile-lsp compile: error: --ptxas-timeout must be a positive number of seconds, not {timeout:g}",
              file=sys.stderr)
        return 2
    notices: list[str] = []  # (a refused cache folder: said once, on stderr or in the JSON)
    options = CompileOptions(
        target=target,
        opt_level=args.opt_level,
        lineinfo=args.lineinfo,
        device_debug=args.device_debug,
        ptxas=args.ptxas,
        ptxas_timeout=timeout if timeout is not None else CompileOptions.ptxas_timeout,
        stage_texts=bool(args.dump_dir),
    )
    if invalid is not None:
        sink = DiagnosticSink("options", diags)
        sink.error(Span(0, min(1, len(source.text))), invalid)
        result = CompileResult(source, options, args.emit)
    elif any(d.is_error for d in diags):  # unreadable: bytes that are not UTF-8, a bad bytecode
        result = CompileResult(source, options, args.emit)
    else:
        # One compile and the process ends: the cyclic GC would only slow it down (~10% on large
        # kernels; the IR holds few cycles, so memory stays the same).
        enabled = gc.isenabled()
        gc.disable()
        try:
            result = compile_source(source, options, args.emit, cache=_entry_cache(args, notices),
                                    max_size=getattr(args, "max_size", None) or MAX_FILE_SIZE)
        finally:
            if enabled:
                gc.enable()
    result.diagnostics[:0] = diags
    where: str | None = None
    failed: str | None = None
    try:
        if args.dump_dir:
            _dump(result, source, args.dump_dir)
        where = _write_output(result, args.output) if result.ok else None
    except OSError as exc:
        failed = f"{exc.filename or args.output}: error: {exc.strerror or exc}"
    _report(result, source, args.format, json_to_stderr=where == "stdout", notices=notices)
    if failed is not None:
        print(failed, file=sys.stderr)
        return 1
    return 0 if result.ok else 1


# One cache per directory, kept for the process: a compile daemon's worker runs one command after
# another and finds the units of the last ones in memory (the files on disk are the same units).
_CACHES: dict[str, EntryCache] = {}


def _entry_cache(args: argparse.Namespace, notices: list[str] | None = None) -> EntryCache | None:
    """The per-entry cache: `--cache-dir DIR` (units in DIR/units), else the default one. Its
    folders are checked on every command (`disk_cache_folders`): one someone else could write
    is not used (the compile runs without the disk cache; `notices` gets the one line saying so)."""
    from tile_lsp.compiler.backend.cuda_tools import set_trim_directory
    from tile_lsp.compiler.private_files import UnsafeLocation

    set_trim_directory(None)
    if getattr(args, "no_cache", False):
        return None
    explicit = getattr(args, "cache_dir", None)
    directory = os.path.join(explicit, "units") if explicit else default_directory(os.environ, os.path.expanduser("~"))
    try:
        directory, trimmed = disk_cache_folders(directory)
    except UnsafeLocation as exc:
        if notices is not None:
            notices.append(refused_notice(exc))
        return None
    except OSError:  # (a cache folder that cannot be made only costs speed)
        return None
    set_trim_directory(trimmed)
    if directory not in _CACHES:
        _CACHES[directory] = EntryCache(directory=directory)
    return _CACHES[directory]


def _stem(source: SourceText) -> str:
    return os.path.splitext(os.path.basename(source.path))[0] if source.path not in ("-", "") else "stdin"


def _dump(result: CompileResult, source: SourceText, directory: str) -> None:
    os.makedirs(directory, exist_ok=True)
    stem = _stem(source)
    for stage in result.stages:
        if stage.name not in DUMP_SUFFIX:
            continue  # cuda_tile: the input itself
        path = os.path.join(directory, stem + DUMP_SUFFIX[stage.name])
        if stage.data is not None:
            if not stage.data:
                continue  # `--emit ptx` of several entries: ptxas checked them one by one
            with open(path, "wb") as f:
                f.write(stage.data)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(stage.located_text or stage.text)


def _write_output(result: CompileResult, output: str | None) -> str | None:
    """Write the --emit stage to `output` (stdout when absent, except a binary cubin); where it went."""
    out: StageOutput | None = result.output
    if out is None:
        return None
    if out.data is not None and output is None:
        # Binary: like `nvcc -cubin`, default to <stem>.cubin in the current directory.
        output = _stem(result.source) + ".cubin"
        print(f"wrote {output}", file=sys.stderr)
    if output in (None, "-"):
        if out.data is not None:
            sys.stdout.flush()
            sys.stdout.buffer.write(out.data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(out.text)
        return "stdout"
    assert output is not None
    if out.data is not None:
        with open(output, "wb") as f:
            f.write(out.data)
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(out.text)
    return "file"


def _resources(result: CompileResult) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for name, res in result.kernels.items():
        out[name] = asdict(res) if is_dataclass(res) and not isinstance(res, type) else dict(vars(res))
    return out


def _report(result: CompileResult, source: SourceText, fmt: str, json_to_stderr: bool,
            notices: list[str] | None = None) -> None:
    chip = result.target.chip if result.target else "?"
    if not (fmt == "json" and json_to_stderr):  # (else they are in the JSON on stderr only)
        for notice in notices or ():
            print(notice, file=sys.stderr)
    if fmt == "json":
        record = {
            "diagnostics": [to_json(d, source) for d in result.diagnostics],
            "start_stage": result.start_stage,
            "target": result.target.chip if result.target else None,
            "stages": [{"name": s.name, "seconds": round(s.seconds, 6)} for s in result.stages],
            "kernels": _resources(result),
            "ptxas_command": result.ptxas_command,
            "units": result.unit_stats.as_json() if result.unit_stats is not None else None,
            "notices": list(notices or ()),
        }
        print(json.dumps(record, indent=1), file=sys.stderr if json_to_stderr else sys.stdout)
        return
    for d in result.diagnostics:
        print("\n".join(format_text(d, source)), file=sys.stderr)
    for name, res in _resources(result).items():
        fields = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in res.items()
                           if isinstance(v, (int, float)) and not isinstance(v, bool))
        print(f"ptxas: {name} ({chip}): {fields}", file=sys.stderr)
