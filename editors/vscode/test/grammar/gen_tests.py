#!/usr/bin/env python3
"""Writes the vscode-tmgrammar-test files (*.test.mlir, *.test.ptx) from the real kernels (*.src).

The expected scopes come from this file's own regex classification of each token (values,
symbols, op names, types, attributes, comments, strings, numbers; PTX directives, instructions,
registers, predicates, labels), not from the grammar's output, so the test checks the grammar
against an independent description. Run it again after changing a kernel: python3 gen_tests.py
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
CT = "cuda-tile"
CONTROL = {"if", "else", "for", "loop", "break", "continue", "yield", "return"}
TYPE_WORDS = "tile|ptr|tensor_view|partition_view|tiled_view|gather_scatter_view"
ELT = r"bf16|tf32|f8E4M3FN|f8E5M2|[isuf]\d+"


def mask(line: str, start: int, end: int) -> str:
    return line[:start] + "\x01" * (end - start) + line[end:]


def cuda_tile_tokens(line: str) -> list[tuple[int, int, str]]:
    toks: list[tuple[int, int, str]] = []

    def add(s: int, e: int, scope: str) -> None:
        toks.append((s, e, f"{scope}.{CT}"))

    cut = None
    for m in re.finditer(r'"[^"]*"|//', line):
        if m.group() == "//":
            cut = m.start()
            break
    if cut is not None:
        add(cut, min(len(line), cut + 12), "comment.line.double-slash")
        line = line[:cut]
    for m in re.finditer(r'"[^"]*"', line):
        add(m.start(), m.end(), "string.quoted.double")
        line = mask(line, m.start(), m.end())
    # op name: after a result list, or first word of a statement line
    m = re.match(r"^(\s*%[\w$.\-]+(?::\d+)?(?:\s*,\s*%[\w$.\-]+(?::\d+)?)*\s*=\s*)((?>[a-z_]\w*(?:\.\w+)*))(?!\s*=)", line)
    m = m or re.match(r"^(\s*)((?>[a-z_]\w*(?:\.\w+)*))(?!\s*[=<(])", line)
    if m and not re.match(r"^(?:cuda_tile\.)?(?:entry|module)$|^loc$|^else$", m.group(2)):
        s = m.start(2)
        name = m.group(2)
        if "." in name:
            ns, op = name.split(".", 1)
            add(s, s + len(ns), "entity.name.namespace.dialect")
            add(s + len(ns) + 1, m.end(2), "keyword.control.op" if op in CONTROL else "support.function.op")
        else:
            add(s, m.end(2), "keyword.control.op" if name in CONTROL else "support.function.op")
    m = re.match(r"^\s*((?:cuda_tile\.)?entry)\s+@", line)
    if m:
        add(m.start(1), m.end(1), "storage.type.function")
    m = re.match(r"^\s*(cuda_tile\.module)\b(?:\s*(@[\w$.\-]+))?", line)
    if m:
        add(m.start(1), m.end(1), "keyword.other.module")
        if m.group(2):
            add(m.start(2), m.end(2), "entity.name.namespace.symbol")
            line = mask(line, m.start(2), m.end(2))
    for m in re.finditer(r"%[\w$.\-]+(?:#\d+|:\d+)?", line):
        name = re.match(r"%[\w$.\-]+", m.group()).group()
        add(m.start(), m.start() + len(name), "variable.other.value")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(r"@[\w$.\-]+", line):
        add(m.start(), m.end(), "entity.name.function.symbol")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(r"#(cuda_tile)\.(\w+)<", line):
        add(m.start(1), m.end(1), "entity.name.namespace.dialect")
        add(m.start(2), m.end(2), "support.other.attribute")
        line = mask(line, m.start(), m.end() - 1)
    for m in re.finditer(r"#[\w$.\-]+", line):
        add(m.start(), m.end(), "constant.other.attribute.alias")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(rf"(!cuda_tile\.)?\b({TYPE_WORDS})<", line):
        if m.group(1):
            add(m.start(1) + 1, m.start(1) + 10, "entity.name.namespace.dialect")
        add(m.start(2), m.end(2), "support.type")
    for m in re.finditer(r"(?<![\w$.\-])token\b(?!\s*=)", line):
        add(m.start(), m.end(), "support.type")
    for m in re.finditer(rf"(?<![\w$.\-])((?:(?:\d+|\?)x)*)({ELT})\b", line):
        for d in re.finditer(r"(\d+)|(\?)|(x)", m.group(1)):
            s = m.start(1) + d.start()
            scope = "constant.numeric.integer.dimension" if d.group(1) else "constant.language.dynamic-dimension" if d.group(2) else "keyword.operator.shape"
            add(s, s + len(d.group()), scope)
        add(m.start(2), m.end(2), "storage.type.element")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(r"\b(loc)\(", line):
        add(m.start(1), m.end(1), "keyword.other.location")
    for m in re.finditer(r"(?<![\w$.\-#%@!])([a-zA-Z_]\w*)\s*=(?!=)", line):
        add(m.start(1), m.end(1), "entity.other.attribute-name")
    for m in re.finditer(r"(?<![\w$.\-?])-?\d+\.\d+\b", line):
        add(m.start(), m.end(), "constant.numeric.float")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(r"(?<![\w$.\-?])-?\d+(?![\w.x])", line):
        add(m.start(), m.end(), "constant.numeric.integer")
    return toks


PTX_DIRECTIVES = "version|target|address_size|visible|extern|weak|reg|param|local|shared|global|const|loc|file|align|maxntid|reqntid|pragma"


def ptx_tokens(line: str) -> list[tuple[int, int, str]]:
    toks: list[tuple[int, int, str]] = []

    def add(s: int, e: int, scope: str) -> None:
        toks.append((s, e, f"{scope}.ptx"))

    m = re.search(r"//", line)
    if m and '"' not in line[: m.start()]:
        add(m.start(), min(len(line), m.start() + 12), "comment.line.double-slash")
        line = line[: m.start()]
    for m in re.finditer(r'"[^"]*"', line):
        add(m.start(), m.end(), "string.quoted.double")
        line = mask(line, m.start(), m.end())
    m = re.match(r"^\s*(\$[\w$]+):", line)
    if m:
        add(m.start(1), m.end(1), "entity.name.label")
        line = mask(line, m.start(1), m.end(1))
    m = re.match(r"^\s*(?:(@)(!?)(%[\w$]+)\s+)?([a-z][a-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)(?=\s|;)", line)
    if m:
        if m.group(1):
            add(m.start(1), m.end(1), "keyword.operator.predicate")
            add(m.start(3), m.end(3), "variable.other.predicate")
        add(m.start(4), m.end(4), "keyword.other.instruction")
        if m.group(5):
            add(m.start(5), m.end(5), "storage.modifier.instruction")
        line = mask(line, m.start(), m.end())
    m = re.search(r"\.entry\s+([A-Za-z_]\w*)", line)
    if m:
        add(m.start(), m.start() + 6, "keyword.other.directive.function")
        add(m.start(1), m.end(1), "entity.name.function")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(rf"(?<![\w$%.])\.(?:{PTX_DIRECTIVES})\b", line):
        add(m.start(), m.end(), "keyword.other.directive")
    for m in re.finditer(r"(?<![\w$%.])\.(?:pred|[bsuf](?:8|16|32|64))\b", line):
        add(m.start(), m.end(), "storage.type")
    for m in re.finditer(r"%(?:tid|ntid|ctaid|nctaid)\.[xyz]", line):
        add(m.start(), m.end(), "variable.language.special-register")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(r"%p\d*(?:<\d+>)?(?![\w$])", line):
        add(m.start(), m.end(), "variable.other.predicate")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(r"%[A-Za-z_]\w*(?:<\d+>)?", line):
        add(m.start(), m.end(), "variable.other.register")
        line = mask(line, m.start(), m.end())
    for m in re.finditer(r"\$[\w$]+", line):
        add(m.start(), m.end(), "entity.name.label")
    for m in re.finditer(r"(?<![\w$.%])-?\d+\b(?![\w.])", line):
        add(m.start(), m.end(), "constant.numeric.integer")
    return toks


def assertions(line: str, toks: list[tuple[int, int, str]]) -> list[str]:
    out = []
    for s, e, scope in sorted(set(toks)):
        if line[s:e].strip() == "" or e <= s:
            continue
        if s == 0:
            out.append("// <" + "-" * (e - s) + " " + scope)
        elif s >= 2:
            out.append("//" + " " * (s - 2) + "^" * (e - s) + " " + scope)
    return out


def write(src: Path, dest: Path, scope: str, tokens) -> None:  # noqa: ANN001
    lines = [f'// SYNTAX TEST "{scope}" "{src.name} (real kernel; scopes from test/grammar/gen_tests.py)"']
    for line in src.read_text().splitlines():
        lines.append(line)
        lines.extend(assertions(line, tokens(line)))
    dest.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    for src in sorted(HERE.glob("*.mlir.src")):
        write(src, HERE / src.name.replace(".mlir.src", ".test.mlir"), "source.cuda-tile", cuda_tile_tokens)
    for src in sorted(HERE.glob("*.ptx.src")):
        write(src, HERE / src.name.replace(".ptx.src", ".test.ptx"), "source.ptx", ptx_tokens)
