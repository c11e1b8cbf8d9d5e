"""Command line: `tile-lsp check | opt | compile | run | serve | daemon` (no arguments: serve over stdio).

Thin: argument parsing and output formatting around `tile_lsp.compiler`.
"""

from __future__ import annotations

import sys

from tile_lsp.cli_input import read_input  # (sys only)

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: see `main`)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from tile_lsp.compiler.diagnostics import Diagnostic
    from tile_lsp.compiler.frontend import ParseResult
    from tile_lsp.compiler.source import SourceText

# Everything else (argparse and json too) is imported by the commands that use it: a command
# that a running daemon (`tile_lsp.daemon`) takes over imports only what the client needs, and a
# `compile` whose units all come from the cache starts without the parser and xDSL.

# `compile --emit` stages (= pipeline.EMITS; spelled out so the CLI starts without the pipeline).
COMPILE_EMITS = ("cuda_tile", "tileaa", "gpu", "nvvm", "llvm", "llvm-ir", "ptx", "cubin")


def _parse_file(source: SourceText, split: bool) -> list[ParseResult]:
    """The file parsed as the language server parses it (`document.parse_document`: item by
    item, the same diagnostics); with `split`, each `// -----` chunk on its own (as mlir-opt)."""
    from tile_lsp.compiler.frontend import parse_chunk, split_chunks

    if not split:
        from tile_lsp.compiler.document import parse_document

        return [parse_document(source.text, source.path)]
    return [parse_chunk(source, s) for s in split_chunks(source.text)]


def _size(text: str) -> int:
    """An argparse type: `--max-size 64M`."""
    import argparse

    from tile_lsp.compiler.limits import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _too_big(source: SourceText, limit: int) -> Diagnostic | None:
    """`check`'s refusal of a file over `limit` (an error at 1:1), or None."""
    from tile_lsp.compiler import limits
    from tile_lsp.compiler.diagnostics import Diagnostic, Severity
    from tile_lsp.compiler.source import Span

    size = limits.size_of(source.text)
    if size <= limit:
        return None
    message = f"{limits.too_big(size, limit, 'checking')}: not checked (raise it with --max-size {(size >> 20) + 1}M)"
    return Diagnostic(Span(0, min(1, len(source.text))), Severity.ERROR, message)


def cmd_check(args: argparse.Namespace) -> int:
    import json

    from tile_lsp.compiler import limits
    from tile_lsp.compiler.diagnostics import format_text, to_json
    from tile_lsp.compiler.upstream import analyze_upstream, is_upstream

    any_error = False
    records: list[dict[str, object]] = []
    limit = getattr(args, "max_size", None) or limits.front_end_limit()
    # --Werr-hints: an unsupported optimization hint is also an error (tileiras/cuda-tile-opt -Werr-hints).
    options = {"hints_errors": True} if getattr(args, "werr_hints", False) else None
    for path in args.files:
        loaded = read_input(path)
        if loaded is None:
            any_error = True
            continue
        source, diags = loaded
        refused = _too_big(source, limit)
        if refused is not None:
            diags.append(refused)
        elif is_upstream(source.text):  # gpu/nvgpu/nvvm/llvm MLIR: chunks are split on their own
            diags.extend(analyze_upstream(source).diagnostics)
        elif not args.split_input_file:
            from tile_lsp.compiler.document import check_document

            diags.extend(check_document(source.text, source.path, options))  # (the language server's parse)
        else:
            from tile_lsp.compiler.frontend import parse_chunk, split_chunks

            for span in split_chunks(source.text):
                diags.extend(parse_chunk(source, span, options=options).diagnostics)
        for d in diags:
            any_error |= d.is_error
            if args.format == "json":
                records.append(to_json(d, source))
            else:
                print("\n".join(format_text(d, source)))
    if args.format == "json":
        print(json.dumps({"diagnostics": records}, indent=1))
    return 1 if any_error else 0


def cmd_opt(args: argparse.Namespace) -> int:
    from tile_lsp.compiler.diagnostics import format_text
    from tile_lsp.compiler.upstream import is_upstream

    loaded = read_input(args.file)
    if loaded is None:
        return 1
    source, diags = loaded
    if is_upstream(source.text):
        return _opt_upstream(args, source, diags)
    if args.emit_bytecode is not None:
        return _opt_bytecode(args, source, diags)
    results = _parse_file(source, args.split_input_file)
    texts: list[str] = []
    failed = any(d.is_error for d in diags)
    for d in diags:
        print("\n".join(format_text(d, source)), file=sys.stderr)
    if args.no_verify and source.decoded_from == "bytecode" and not args.generic and not args.split_input_file:
        # the bytecode's printout itself: the text whose lines its diagnostics' notes name
        for d in results[0].diagnostics:
            print("\n".join(format_text(d, source)), file=sys.stderr)
        _write(args.output, source.text)
        return 1 if failed or not results[0].ok else 0
    for result in results:
        for d in result.diagnostics:
            print("\n".join(format_text(d, source)), file=sys.stderr)
        if not result.ok or result.module is None:
            failed = True
            if result.module is None or not args.no_verify:
                continue
        texts.append(_printed(result.module, args.generic))
    _write(args.output, "// -----\n".join(texts))
    return 1 if failed else 0


def _printed(module: object, generic: bool) -> str:
    """The module's text; IR that fails verification may not fit an op's custom form: then the
    generic form (what `--no-verify` prints of it)."""
    from tile_lsp.compiler.bytecode.convert import module_text
    from tile_lsp.compiler.syntax.printer import Printer

    return Printer(generic=True).module_text(module) if generic else module_text(module)  # type: ignore[arg-type]


def _opt_bytecode(args: argparse.Namespace, source: SourceText, diags: list[Diagnostic]) -> int:
    """`opt --emit-bytecode [13.N]`: the file as Tile IR bytecode (the newest version it needs by
    default), its lines as debug info. IR that fails verification is still written (exit 1), so
    that NVIDIA's tools can be shown it."""
    from tile_lsp.compiler.bytecode.format import parse_version
    from tile_lsp.compiler.bytecode.writer import write_bytecode
    from tile_lsp.compiler.diagnostics import format_text

    if args.split_input_file:
        print("tile-lsp opt: error: --emit-bytecode writes one module; drop --split-input-file", file=sys.stderr)
        return 2
    version = None
    if args.emit_bytecode != "auto":
        version = parse_version(args.emit_bytecode)
        if version is None:
            print(f"tile-lsp opt: error: invalid bytecode version {args.emit_bytecode!r}: expected one of "
                  "13.1, 13.2, 13.3, 13.4, 13.5", file=sys.stderr)
            return 2
    if args.output in (None, "-") and sys.stdout.isatty():
        print("tile-lsp opt: error: bytecode is binary; write it with -o FILE (or redirect stdout)", file=sys.stderr)
        return 2
    [result] = _parse_file(source, False)
    data = None
    more: list[Diagnostic] = []
    if result.module is not None:
        data, more = write_bytecode(result.module, version=version, source=source, smap=result.smap)
    failed = False
    for d in [*diags, *result.diagnostics, *more]:
        failed = failed or d.is_error
        print("\n".join(format_text(d, source)), file=sys.stderr)
    if data is None:
        return 1
    if args.output in (None, "-"):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        with open(args.output, "wb") as f:
            f.write(data)
    return 1 if failed else 0


def _opt_upstream(args: argparse.Namespace, source: SourceText, diags: list[Diagnostic]) -> int:
    """`opt` on upstream-dialect MLIR: parse + verify with our dialects, print with xDSL."""
    from tile_lsp.compiler.diagnostics import format_text
    from tile_lsp.compiler.frontend import split_chunks
    from tile_lsp.compiler.mlir.context import parse_upstream, print_ir
    from tile_lsp.compiler.source import Span

    spans = split_chunks(source.text) if args.split_input_file else [Span(0, len(source.text))]
    texts: list[str] = []
    failed = any(d.is_error for d in diags)
    for span in spans:
        result = parse_upstream(source, span)
        for d in result.diagnostics:
            print("\n".join(format_text(d, source)), file=sys.stderr)
        if not result.ok or result.module is None:
            failed = True
            continue
        texts.append(print_ir(result.module, generic=args.generic))
    _write(args.output, "// -----\n".join(texts))
    return 1 if failed else 0


def _write(path: str | None, out: str) -> None:
    if path and path != "-":
        with open(path, "w", encoding="utf-8") as f:
            f.write(out)
    else:
        sys.stdout.write(out)


def cmd_compile(args: argparse.Namespace) -> int:
    from tile_lsp.cli_compile import run_compile

    return run_compile(args)


def cmd_run(args: argparse.Namespace) -> int:
    from tile_lsp.cli_run import run_command

    return run_command(args)


def cmd_serve(args: argparse.Namespace) -> int:
    import gc

    # Imports make next to no garbage, and collections were ~10% of the server's start (pygls,
    # lsprotocol, the compiler): the collector is off until the server's preload has imported
    # them (`tile_lsp.server._import_language` turns it back on).
    gc.disable()
    from tile_lsp.server import serve

    token_file = getattr(args, "token_file", None)
    if token_file is not None and args.tcp is None:
        print("tile-lsp serve: --token-file goes with --tcp", file=sys.stderr)
        return 2
    if args.tcp is not None and not 0 <= args.tcp <= 65535:
        print(f"tile-lsp serve: --tcp {args.tcp} is not a port (0-65535; 0: any free one)", file=sys.stderr)
        return 2
    from tile_lsp.transport import TokenError

    try:
        serve(args.tcp, token_file, pipeline=not args.no_pipeline)
    except TokenError as exc:
        print(f"tile-lsp serve: {exc}", file=sys.stderr)
        return 2
    return 0


def cmd_daemon(args: argparse.Namespace) -> int:
    from tile_lsp.daemon import command

    return command(args, main, prepare_daemon)


def prepare_daemon() -> None:
    """What a compile daemon does before it serves, besides warming the compiler: the modules
    of its commands imported and the parser built, so that its children find them ready."""
    from tile_lsp import cli_compile  # noqa: F401 (imported for the children)

    build_parser()


VERSION_DEPENDENCIES = ("xdsl", "llvmlite", "numpy", "ml_dtypes", "pygls", "lsprotocol")


def version_text() -> str:
    """`tile-lsp --version`: this package, its dependencies' versions (from their installed
    metadata: nothing of them is imported) and where ptxas and tileiras are found."""
    import glob
    import os
    import shutil
    from importlib import metadata

    from tile_lsp import __version__
    from tile_lsp.compiler.backend.cuda_tools import find_ptxas_binary, wheel_dirs

    deps = []
    for dist in VERSION_DEPENDENCIES:
        try:
            deps.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            deps.append(f"{dist} missing")
    tileiras = shutil.which("tileiras") or next(
        (c for base in wheel_dirs() for c in sorted(glob.glob(os.path.join(base, "*", "bin", "tileiras")))
         if os.access(c, os.X_OK)), None)
    return "\n".join([
        f"tile-lsp {__version__}",
        f"python {sys.version.split()[0]} ({sys.executable})",
        ", ".join(deps),
        f"ptxas: {find_ptxas_binary() or 'not found'}",
        f"tileiras: {tileiras or 'not found'}",
    ])


_PARSER: argparse.ArgumentParser | None = None
NO_DAEMON_HELP = "run in this process even when a compile daemon runs (`tile-lsp daemon`)"


def build_parser() -> argparse.ArgumentParser:
    """The CLI's parser, built once per process (a daemon's children find it built)."""
    global _PARSER
    if _PARSER is None:
        _PARSER = _new_parser()
    return _PARSER


def _new_parser() -> argparse.ArgumentParser:
    import argparse

    ap = argparse.ArgumentParser(prog="tile-lsp", description="Toolchain and language server for CUDA Tile IR.")

    class _Version(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
            print(version_text())
            parser.exit()

    ap.add_argument("-V", "--version", action=_Version, nargs=0,
                    help="print the version, the versions of its dependencies and which CUDA tools are found")
    sub = ap.add_subparsers(dest="command")
    check = sub.add_parser("check", help="parse and verify cuda_tile files, print diagnostics")
    check.add_argument("--split-input-file", action="store_true", help="treat '// -----' as chunk separators")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--max-size", type=_size, default=None, metavar="BYTES",
                       help="check files up to this size (e.g. 64M; default 16M): a bigger one is an error")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--Werr-hints", "-Werr-hints", dest="werr_hints", action="store_true",
                       help="report unsupported optimization hints as errors too (as tileiras -Werr-hints)")
    check.add_argument("--no-daemon", action="store_true", help=NO_DAEMON_HELP)
    check.set_defaults(func=cmd_check)
    opt = sub.add_parser("opt", help="parse, verify and print (custom form by default)")
    opt.add_argument("--split-input-file", action="store_true")
    opt.add_argument("--generic", action="store_true", help="print MLIR's generic op form")
    opt.add_argument("--no-verify", action="store_true",
                     help="print the IR even where it fails verification (the errors are still reported, "
                     "exit status 1); of a bytecode file, its printout as the diagnostics' notes name it")
    opt.add_argument("-o", dest="output", metavar="OUT")
    opt.add_argument("--emit-bytecode", nargs="?", const="auto", metavar="13.N",
                     help="write Tile IR bytecode (of version 13.N; default: the newest this IR needs)")
    opt.add_argument("file", metavar="FILE")
    opt.add_argument("--no-daemon", action="store_true", help=NO_DAEMON_HELP)
    opt.set_defaults(func=cmd_opt)
    comp = sub.add_parser("compile", help="lower cuda_tile or gpu/nvgpu/nvvm/llvm MLIR to PTX or cubin")
    comp.add_argument("--gpu-name", metavar="sm_XX[a]", help="target GPU, e.g. sm_90a")
    comp.add_argument("--compute-capability", metavar="NN", help="target compute capability, e.g. 90")
    comp.add_argument("--emit", choices=COMPILE_EMITS, default="ptx")
    comp.add_argument("-o", dest="output", metavar="OUT", help="write the --emit stage here ('-' = stdout)")
    comp.add_argument("--dump-dir", metavar="DIR", help="write every stage as DIR/<stem>.{tileaa.mlir,gpu.mlir,nvvm.mlir,llvm.mlir,ll,ptx,cubin}")
    comp.add_argument("-O", dest="opt_level", type=int, choices=range(4), default=3, metavar="N")
    comp.add_argument("--lineinfo", action="store_true", help="source line info in LLVM IR and PTX")
    comp.add_argument("--device-debug", action="store_true", help="full device debug info (variables)")
    comp.add_argument("--ptxas", metavar="PATH", help="the ptxas to run (default: PATH, CUDA_HOME, wheels)")
    comp.add_argument("--ptxas-timeout", type=float, metavar="S",
                      help="kill ptxas (with everything it started) after S seconds (default 60)")
    comp.add_argument("--format", choices=("text", "json"), default="text")
    comp.add_argument("--max-size", type=_size, default=None, metavar="BYTES",
                      help="compile files up to this size (e.g. 8M; default 2M): a bigger one is refused")
    comp.add_argument("--no-cache", action="store_true", help="compile every entry (no per-entry cache on disk)")
    comp.add_argument("--cache-dir", metavar="DIR", help="per-entry cache (default $XDG_CACHE_HOME/tile-lsp)")
    comp.add_argument("file", metavar="FILE")
    comp.add_argument("--no-daemon", action="store_true", help=NO_DAEMON_HELP)
    comp.set_defaults(func=cmd_compile)
    run = sub.add_parser("run", help="run a cuda_tile entry on host data (NumPy interpreter, GPU, or both)")
    run.add_argument("file", metavar="FILE")
    run.add_argument("--entry", metavar="NAME", help="entry name or a unique prefix (default: the only entry)")
    run.add_argument("--grid", default="1", metavar="X[,Y,Z]", help="tile blocks per dimension (default 1)")
    run.add_argument("--arg", action="append", metavar="SPEC",
                     help="one per entry argument: f32[1024], f16[64,64]:zeros, i32[16]:arange, f32[128]:file=x.npy, "
                          "f32=1.5 (an array also fills cuTile's shape/stride parameters after its pointer)")
    run.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    run.add_argument("--compare", action="store_true", help="run on cpu and gpu, print per-array errors")
    run.add_argument("--gpu-name", metavar="sm_XX[a]", help="GPU target for --device gpu (default sm_90a)")
    run.add_argument("--out", metavar="DIR", help="write every array argument as DIR/argN.npy after the run")
    run.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    run.add_argument("--time", type=int, default=0, metavar="N",
                     help="on the GPU, then launch N more times on the same buffers and print the kernel time "
                          "(CUDA events: median and min)")
    run.set_defaults(func=cmd_run)
    dmn = sub.add_parser("daemon", help="a warm compile server: compile, check and opt then run in it (fast starts)")
    dmn.add_argument("action", choices=("start", "stop", "status", "serve"),
                     help="start (in the background), stop, status, or serve (in this process)")
    dmn.add_argument("--idle-timeout", type=float, default=1800.0, metavar="S",
                     help="exit after S seconds without a command (default 1800)")
    dmn.add_argument("--json", action="store_true", help="status as JSON")
    dmn.set_defaults(func=cmd_daemon)
    srv = sub.add_parser(
        "serve",
        help="run the language server (stdio; --tcp PORT: 127.0.0.1, one client with the token)",
        description="The language server over stdio, or with --tcp on 127.0.0.1:PORT for one client: its first "
        'message must be initialize with initializationOptions {"token": "<secret>"}; the server exits when '
        "that client disconnects.",
    )
    srv.add_argument("--tcp", type=int, metavar="PORT",
                     help="listen on 127.0.0.1:PORT instead of stdio (0: a free port, printed on stderr)")
    srv.add_argument("--token-file", metavar="PATH",
                     help="with --tcp: the token is the text of PATH (a file of yours, mode 0600 or 0400); "
                          "default: a new token, written to a 0600 file whose path is printed on stderr")
    srv.add_argument("--no-pipeline", action="store_true",
                     help="front-end features only: no compiles, stage diagnostics, lenses or previews")
    srv.set_defaults(func=cmd_serve)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """The CLI. A command line of this process (`argv` None) goes to a running compile daemon
    when it can (see `tile_lsp.daemon`); an explicit `argv` always runs here."""
    if argv is None:
        import os

        from tile_lsp import daemon

        line = sys.argv[1:]
        if daemon.wanted(line, os.environ):
            code = daemon.run_via_daemon(line)
            if code is not None:  # done: leave without the interpreter's teardown
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
    import argparse

    ap = build_parser()
    args = ap.parse_args(argv)
    if args.command is None:  # editors start `tile-lsp` bare: serve over stdio
        return cmd_serve(argparse.Namespace(tcp=None, token_file=None, no_pipeline=False))
    return int(args.func(args))
