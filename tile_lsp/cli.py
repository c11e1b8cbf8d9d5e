"""Command line: `tile-lsp check | opt | serve` (no arguments: serve over stdio).

Thin: argument parsing and output formatting around `tile_lsp.compiler`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from tile_lsp.compiler.diagnostics import Diagnostic, format_text, to_json
from tile_lsp.compiler.frontend import ParseResult, parse_chunk, split_chunks
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax.printer import Printer
from tile_lsp.compiler.textio import decode_source


def _load(path: str) -> tuple[SourceText, list[Diagnostic]]:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    text, diags = decode_source(data)
    return SourceText(text, path), diags


def _parse_file(source: SourceText, split: bool) -> list[ParseResult]:
    spans = split_chunks(source.text) if split else [Span(0, len(source.text))]
    return [parse_chunk(source, s) for s in spans]


def cmd_check(args: argparse.Namespace) -> int:
    any_error = False
    records: list[dict[str, object]] = []
    for path in args.files:
        try:
            source, diags = _load(path)
        except OSError as exc:
            print(f"{path}: error: {exc.strerror}", file=sys.stderr)
            any_error = True
            continue
        for result in _parse_file(source, args.split_input_file):
            diags.extend(result.diagnostics)
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
    try:
        source, diags = _load(args.file)
    except OSError as exc:
        print(f"{args.file}: error: {exc.strerror}", file=sys.stderr)
        return 1
    results = _parse_file(source, args.split_input_file)
    texts: list[str] = []
    failed = any(d.is_error for d in diags)
    for d in diags:
        print("\n".join(format_text(d, source)), file=sys.stderr)
    for result in results:
        for d in result.diagnostics:
            print("\n".join(format_text(d, source)), file=sys.stderr)
        if not result.ok or result.module is None:
            failed = True
            continue
        texts.append(Printer(generic=args.generic).module_text(result.module))
    out = "// -----\n".join(texts)
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(out)
    else:
        sys.stdout.write(out)
    return 1 if failed else 0


def cmd_serve(args: argparse.Namespace) -> int:
    from tile_lsp.server import serve

    serve(args.tcp)
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="tile-lsp", description="Toolchain and language server for CUDA Tile IR.")
    sub = ap.add_subparsers(dest="command")
    check = sub.add_parser("check", help="parse and verify cuda_tile files, print diagnostics")
    check.add_argument("--split-input-file", action="store_true", help="treat '// -----' as chunk separators")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(func=cmd_check)
    opt = sub.add_parser("opt", help="parse, verify and print (custom form by default)")
    opt.add_argument("--split-input-file", action="store_true")
    opt.add_argument("--generic", action="store_true", help="print MLIR's generic op form")
    opt.add_argument("-o", dest="output", metavar="OUT")
    opt.add_argument("file", metavar="FILE")
    opt.set_defaults(func=cmd_opt)
    srv = sub.add_parser("serve", help="run the language server (stdio; --tcp PORT binds 127.0.0.1)")
    srv.add_argument("--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT instead of stdio")
    srv.set_defaults(func=cmd_serve)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.command is None:  # editors start `tile-lsp` bare: serve over stdio
        return cmd_serve(argparse.Namespace(tcp=None))
    return int(args.func(args))
