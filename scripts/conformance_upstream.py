"""Back-half conformance on upstream MLIR 22 tests: nvvm-stage output that mlir-opt verifies,
PTX that ptxas accepts, agreement with mlir-opt's own gpu/nvgpu -> nvvm lowering, and the
expected-error hit rate of Dialect/NVGPU/invalid.mlir.

`python scripts/conformance_upstream.py [--json] [--jobs N] [--limit N] [ROOT]`
(ROOT = .../mlir-upstream/mlir/test). Units: each `// -----` chunk is cut into one unit per
function (top-level, or inside a gpu.module, which is kept around it with the chunk's globals).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from tile_lsp.compiler.frontend import split_chunks
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.testing.tools import mlir_opt_path

DEFAULT_ROOT = pathlib.Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "mlir-upstream" / "mlir" / "test"
CONVERSION_DIRS = ("Conversion/NVGPUToNVVM", "Conversion/GPUToNVVM")
INVALID_FILE = "Dialect/NVGPU/invalid.mlir"
# The test files' RUN lines enable redux; the reference otherwise runs with default options.
REFERENCE_PASSES = ("--convert-gpu-to-nvvm=has-redux=1", "--convert-nvgpu-to-nvvm")
UNIT_TIMEOUT_S = 60
CIFACE_PREFIX = "_mlir_ciface_"
NO_OUTPUT = "no nvvm output to compare (see failures)"

# Which SM a unit needs, from the ops it uses (first match wins).
_TARGET_RULES = (
    (re.compile(r"tcgen05"), "sm_100a"),
    (re.compile(r"wgmma|warpgroup"), "sm_90a"),
    (re.compile(r"\btma\b|\.tma\.|expect_tx|cluster|try_wait|fence\.proxy|stmatrix|elect\.sync|setmaxregister"), "sm_90"),
    (re.compile(r"cp\.async|device_async|mbarrier|ldmatrix|mma\.sync"), "sm_80"),
)
DEFAULT_CHIP = "sm_80"



def chip_for(text: str) -> str:
    code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
    return next((chip for rule, chip in _TARGET_RULES if rule.search(code)), DEFAULT_CHIP)


# ---------------------------------------------------------------------------------------------
# Cutting chunks into units (text level: the units must be what mlir-opt reads, not our parse)

_OP_START = re.compile(r'\s*(%[\w#:, %]*=\s*)?("?[A-Za-z_][\w$]*\.[\w.$]+"?|module\b)')
_FUNC = re.compile(r'\s*"?(func\.func|llvm\.func|gpu\.func)"?\b')
_GPU_MODULE = re.compile(r'\s*"?gpu\.module"?\b')
_MODULE = re.compile(r"\s*(builtin\.)?module\b")
_ALIAS = re.compile(r"\s*[!#][\w.$-]+\s*=")


def _aliases(text: str, lines: list[tuple[int, int]], lo: int, hi: int) -> str:
    """The chunk's top-level `#name = ...` / `!name = ...` definitions (each unit needs them)."""
    out: list[str] = []
    taking = False
    for (off, d), (nxt, _) in zip(lines, lines[1:], strict=False):
        if off < lo or off >= hi:
            continue
        if d == 0:
            taking = bool(_ALIAS.match(text[off:nxt]))
        if taking:
            out.append(text[off:nxt])
    return "".join(out)


def _line_depths(text: str) -> list[tuple[int, int]]:
    """(offset, brace/paren depth at its start) for every line, ignoring comments and strings."""
    out: list[tuple[int, int]] = []
    depth = 0
    at = 0
    for line in text.split("\n"):
        out.append((at, depth))
        in_str = False
        i = 0
        while i < len(line):
            ch = line[i]
            if in_str:
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif line.startswith("//", i):
                break
            elif ch in "({[":
                depth += 1
            elif ch in ")}]":
                depth -= 1
            i += 1
        at += len(line) + 1
    out.append((at, depth))
    return out


def _ops_at(text: str, lo: int, hi: int, depth: int, lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of the ops that start at nesting `depth` within text[lo:hi] (alias lines end a span)."""
    bounds: list[tuple[int, bool]] = []
    for (off, d), (nxt, _) in zip(lines, lines[1:], strict=False):
        if off < lo or off >= hi or d != depth:
            continue
        line = text[off:nxt]
        stripped = line.strip()
        if stripped.startswith("//") or stripped.startswith("}"):
            continue
        if _ALIAS.match(line):
            bounds.append((off, False))
        elif _OP_START.match(line):
            bounds.append((off, True))
    spans = []
    for i, (start, is_op) in enumerate(bounds):
        if is_op:
            spans.append((start, bounds[i + 1][0] if i + 1 < len(bounds) else hi))
    return spans


def _body_bounds(text: str, start: int, end: int) -> tuple[int, int] | None:
    """(after the op's first region `{`, before its matching `}`), by brace counting."""
    depth = 0
    body_start = None
    in_str = False
    i = start
    while i < end:
        ch = text[i]
        if in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif text.startswith("//", i):
            nl = text.find("\n", i)
            i = end if nl < 0 else nl
            continue
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "{":
            # An attribute dictionary follows `attributes`/`=` or sits inside parens; a region does not.
            before = text[start:i].rstrip()
            if depth == 0 and not before.endswith(("attributes", "=", "<")) and body_start is None:
                body_start = i + 1
                nest = 1
                j = i + 1
                while j < end and nest:
                    if text[j] == '"':
                        k = j + 1
                        while k < end and text[k] != '"':
                            k += 2 if text[k] == "\\" else 1
                        j = k + 1
                        continue
                    if text.startswith("//", j):
                        nl = text.find("\n", j)
                        j = end if nl < 0 else nl
                        continue
                    nest += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                return body_start, j - 1
            depth += 1
        elif ch == "}":
            depth -= 1
        i += 1
    return None


@dataclass
class Unit:
    """One function of one chunk, with the text around it that makes it a complete module."""

    file: str
    chunk: int
    line: int  # 1-based line of the function in the file
    name: str
    text: str
    own: str = ""  # the function alone: what decides the SM it needs


def units_of_chunk(file: str, chunk_index: int, source: SourceText, span: Span) -> list[Unit]:
    text = source.text
    lines = _line_depths(text[span.start : span.end])
    lines = [(off + span.start, d) for off, d in lines]
    top = _ops_at(text, span.start, span.end, 0, lines)
    aliases = _aliases(text, lines, span.start, span.end)
    header, footer, body_ops, body_depth = aliases, "", top, 0
    if len(top) == 1 and _MODULE.match(text[top[0][0] : top[0][1]]):
        bounds = _body_bounds(text, *top[0])
        if bounds is None:
            return []
        header, footer = aliases + text[top[0][0] : bounds[0]] + "\n", "\n}\n"
        body_ops = _ops_at(text, bounds[0], bounds[1], 1, lines)
        body_depth = 1
    context = [text[s:e] for s, e in body_ops if not _is_function(text, s, e) and not _is_container(text[s:e])]
    units: list[Unit] = []
    for s, e in body_ops:
        op_text = text[s:e]
        if _is_function(text, s, e):
            units.append(_unit(file, chunk_index, source, s, op_text, header + "".join(context), footer))
        elif _is_container(op_text):
            bounds = _body_bounds(text, s, e)
            if bounds is None:
                continue
            inner = _ops_at(text, bounds[0], bounds[1], body_depth + 1, lines)
            inner_context = [text[a:b] for a, b in inner if not _is_function(text, a, b)]
            gm_header = text[s : bounds[0]] + "\n"
            for a, b in inner:
                if _is_function(text, a, b):
                    pre = header + "".join(context) + gm_header + "".join(inner_context)
                    units.append(_unit(file, chunk_index, source, a, text[a:b], pre, "\n}\n" + footer))
    return units


def _is_container(op_text: str) -> bool:
    """A gpu.module or nested module: its functions become units inside a copy of its header."""
    return bool(_GPU_MODULE.match(op_text) or _MODULE.match(op_text))


def _is_function(text: str, start: int, end: int) -> bool:
    return bool(_FUNC.match(text[start:end])) and _body_bounds(text, start, end) is not None


def _unit(file: str, chunk: int, source: SourceText, at: int, op_text: str, pre: str, post: str) -> Unit:
    m = re.search(r"@([\w$.-]+)", op_text)
    return Unit(file, chunk, source.line_col(at)[0] + 1, m.group(1) if m else "?", pre + op_text + post, op_text)


# ---------------------------------------------------------------------------------------------
# Comparing op sequences

_FUNC_HEADER = re.compile(r'"?(?:llvm\.func|func\.func|gpu\.func)"?')
_SYM_NAME = re.compile(r'sym_name = "([^"]+)"')
_AT_NAME = re.compile(r"@([\w$.-]+)")
_OP_NAME = re.compile(r'^\s*(?:%[^=]*=\s*)?"?([a-z_][\w]*\.[\w.]+)"?')
_CALLEE = re.compile(r"callee = @([\w$.-]+)|llvm\.call\s+(?:[a-z_]+\s+)*@([\w$.-]+)")
_STR = r'"((?:[^"\\]|\\.)*)"'
# Generic form: `"llvm.inline_asm"(%0, ...) <{asm_dialect = 0 : i64, asm_string = "...", constraints = "..."}>`.
_ASM_STRING = re.compile(r"\basm_string = " + _STR)
_ASM_CONSTRAINTS = re.compile(r"\bconstraints = " + _STR)
# Custom form: `llvm.inline_asm has_side_effects asm_dialect = att "template", "constraints" %a, ...`.
_ASM_CUSTOM = re.compile(r"\bllvm\.inline_asm\b[^\"]*" + _STR + r"\s*,\s*" + _STR)


def inline_asm_key(line: str) -> str:
    """The template and constraint string of one `llvm.inline_asm` line, in either form
    (whitespace, `\\0A` and `\\09` escapes normalised): what two lowerings must agree on."""
    template = constraints = ""
    generic = _ASM_STRING.search(line)
    if generic is not None:
        template = generic.group(1)
        c = _ASM_CONSTRAINTS.search(line, generic.end()) or _ASM_CONSTRAINTS.search(line)
        constraints = c.group(1) if c else ""
    else:
        custom = _ASM_CUSTOM.search(line)
        if custom is not None:
            template, constraints = custom.group(1), custom.group(2)
    template = " ".join(template.replace("\\0A", " ").replace("\\09", " ").split())
    return f"{template} [{constraints}]"


def op_sequences(text: str) -> dict[str, list[str]]:
    """Per function: the nvvm.* ops, called symbols and inline-asm templates, in text order."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        m = _OP_NAME.match(line)
        if m is None:
            continue
        name = m.group(1)
        if _FUNC_HEADER.fullmatch(name) or name in ("llvm.func", "func.func", "gpu.func"):
            sym = _SYM_NAME.search(line) or _AT_NAME.search(line)
            current = out.setdefault(sym.group(1) if sym else "?", [])
            continue
        if current is None:
            continue
        if name.startswith("nvvm."):
            current.append(name)
        elif name == "llvm.call":
            c = _CALLEE.search(line)
            if c:
                current.append("call @" + (c.group(1) or c.group(2)))
        elif name == "llvm.inline_asm":
            current.append("inline_asm " + inline_asm_key(line))
    return {k: v for k, v in out.items()}


def sequence_differences(ours: dict[str, list[str]], ref: dict[str, list[str]]) -> list[str]:
    """Function by function, the first op where the sequences part (mlir-opt's C-interface
    wrappers and bodiless declarations are not compared: the back half passes bare pointers)."""
    diffs: list[str] = []
    for fn, b in ref.items():
        if fn.startswith(CIFACE_PREFIX):
            continue
        if fn not in ours:
            if b:
                diffs.append(f"@{fn}: missing in our output")
            continue
        a = ours[fn]
        if a == b:
            continue
        i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        got = a[i] if i < len(a) else "<end>"
        want = b[i] if i < len(b) else "<end>"
        diffs.append(f"@{fn}: op {i}: ours {got!r}, mlir-opt {want!r} ({len(a)} vs {len(b)} ops)")
    return diffs


# ---------------------------------------------------------------------------------------------
# Measuring one unit


@dataclass
class UnitOutcome:
    file: str
    chunk: int
    line: int
    name: str
    chip: str
    accepted: bool = False  # mlir-opt 22 reads the unit as input
    nvvm_ok: bool = False  # (a)
    ptx_ok: bool = False  # (b)
    reference_ok: bool = False  # mlir-opt's own lowering succeeded: (c) is measured
    agree: bool = False  # (c)
    failure: str = ""  # the first diagnostic of the first failing step
    seconds: float = 0.0
    differences: list[str] = field(default_factory=list)


def _mlir_opt(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    path = mlir_opt_path()
    assert path is not None
    return subprocess.run([path, *args], input=text, capture_output=True, text=True, timeout=UNIT_TIMEOUT_S)


def _first_error(stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if "error" in ln]
    return (lines[0] if lines else stderr.strip().splitlines()[0] if stderr.strip() else "failed").strip()


class UnitTimeout(BaseException):
    """Raised by SIGALRM; a BaseException so that the pipeline's own error capture lets it through."""


def _alarm(signum: int, frame: object) -> None:
    raise UnitTimeout(f"the pipeline took longer than {UNIT_TIMEOUT_S}s (hang?)")


def measure_unit(unit: Unit) -> UnitOutcome:
    started = time.perf_counter()
    oc = _measure(unit)
    oc.seconds = round(time.perf_counter() - started, 3)
    return oc


def _measure(unit: Unit) -> UnitOutcome:
    from tile_lsp.compiler.diagnostics import format_text
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.target import CompileOptions, Target

    chip = chip_for(unit.own or unit.text)
    oc = UnitOutcome(unit.file, unit.chunk, unit.line, unit.name, chip)
    plain = _mlir_opt([], unit.text)
    if plain.returncode != 0:
        oc.failure = "[mlir-opt] " + _first_error(plain.stderr)
        return oc
    oc.accepted = True
    reference = _mlir_opt([*REFERENCE_PASSES, "--mlir-print-op-generic"], unit.text)
    oc.reference_ok = reference.returncode == 0
    source = SourceText(unit.text, f"{unit.file}@{unit.name}")
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(UNIT_TIMEOUT_S)
    try:
        result = compile_source(source, CompileOptions(target=Target.parse_gpu_name(chip)), emit="ptx")
    except UnitTimeout as exc:
        oc.failure = str(exc)
        return oc
    except Exception as exc:  # the pipeline promises not to raise; measure it if it does
        oc.failure = f"pipeline raised {type(exc).__name__}: {exc}"
        return oc
    finally:
        signal.alarm(0)
    errors = [d for d in result.diagnostics if d.is_error]
    first = f"[{errors[0].stage}] " + format_text(errors[0], source)[0].split(": ", 1)[-1] if errors else ""
    nvvm = result.stage("nvvm")
    ours_text = ""
    if nvvm is None:
        oc.failure = first or "no nvvm output"
    else:
        verified = _mlir_opt(["--mlir-print-op-generic"], nvvm.text)
        oc.nvvm_ok = verified.returncode == 0
        ours_text = verified.stdout if oc.nvvm_ok else nvvm.text
        if not oc.nvvm_ok:
            oc.failure = "[mlir-opt] " + _first_error(verified.stderr)
    oc.ptx_ok = result.ok and result.stage("ptx") is not None and result.stage("cubin") is not None
    if not oc.ptx_ok and not oc.failure:
        oc.failure = first or "ptxas did not run (not found?)"
    if oc.reference_ok:
        if nvvm is None:
            oc.differences = [NO_OUTPUT]
        else:
            oc.differences = sequence_differences(op_sequences(ours_text), op_sequences(reference.stdout))
        oc.agree = not oc.differences
    return oc


# ---------------------------------------------------------------------------------------------
# (d) expected errors of Dialect/NVGPU/invalid.mlir


def invalid_hits(path: pathlib.Path) -> dict[str, object]:
    from tile_lsp.compiler.mlir.context import parse_upstream
    from tile_lsp.testing.lit import parse_expectations

    text = path.read_text(encoding="utf-8")
    source = SourceText(text, str(path))
    total = line_hits = text_hits = 0
    misses: list[str] = []
    for span in split_chunks(text):
        expectations = [e for e in parse_expectations(source, span) if e.kind == "error"]
        if not expectations:
            continue
        try:
            parsed = parse_upstream(source, span)
            diags = parsed.diagnostics
        except Exception as exc:
            diags = []
            misses.append(f"chunk at line {source.line_col(span.start)[0] + 1}: parser raised {exc!r}")
        by_line: dict[int, list[str]] = {}
        for d in diags:
            if d.is_error:
                by_line.setdefault(source.line_col(d.span.start)[0], []).append(d.message)
        for e in expectations:
            total += 1
            got = by_line.get(e.line, [])
            line_hits += bool(got)
            hit = any(e.text in g for g in got)
            text_hits += hit
            if not hit:
                seen = got[0] if got else (diags[0].message if diags else "no diagnostic")
                misses.append(f"line {e.line + 1}: want {e.text!r}; got {seen!r}")
    return {"expected": total, "line_hits": line_hits, "text_hits": text_hits, "misses": misses}


# ---------------------------------------------------------------------------------------------


def collect_units(root: pathlib.Path) -> Iterator[Unit]:
    for sub in CONVERSION_DIRS:
        for path in sorted((root / sub).glob("*.mlir")):
            text = path.read_text(encoding="utf-8")
            source = SourceText(text, str(path))
            rel = str(path.relative_to(root))
            for i, span in enumerate(split_chunks(text)):
                if "expected-error" in text[span.start : span.end]:
                    continue  # negative tests of the conversions: not inputs that should compile
                yield from units_of_chunk(rel, i, source, span)


def summarize(outcomes: list[UnitOutcome]) -> dict[str, object]:
    acc = [o for o in outcomes if o.accepted]
    ref = [o for o in acc if o.reference_ok]
    chunks: dict[tuple[str, int], list[UnitOutcome]] = {}
    for o in acc:
        chunks.setdefault((o.file, o.chunk), []).append(o)

    def rate(n: int, d: int) -> float:
        return n / d if d else 0.0

    return {
        "units": len(outcomes),
        "accepted_units": len(acc),
        "nvvm_ok": sum(o.nvvm_ok for o in acc),
        "nvvm_rate": rate(sum(o.nvvm_ok for o in acc), len(acc)),
        "ptx_ok": sum(o.ptx_ok for o in acc),
        "ptx_rate": rate(sum(o.ptx_ok for o in acc), len(acc)),
        "reference_units": len(ref),
        "agree": sum(o.agree for o in ref),
        "agree_rate": rate(sum(o.agree for o in ref), len(ref)),
        "chunks": len(chunks),
        "chunks_nvvm_ok": sum(all(o.nvvm_ok for o in c) for c in chunks.values()),
        "chunks_ptx_ok": sum(all(o.ptx_ok for o in c) for c in chunks.values()),
    }


def markdown(outcomes: list[UnitOutcome], summary: dict[str, object], invalid: dict[str, object]) -> str:
    s = summary
    out = [
        "# Upstream conformance of the back half (MLIR 22 tests)",
        "",
        f"Units (one function each) that mlir-opt 22 accepts: {s['accepted_units']} of {s['units']}, "
        f"in {s['chunks']} chunks.",
        "",
        "| measure | units | rate | chunks (all units ok) |",
        "|---|---|---|---|",
        f"| (a) nvvm stage printed, mlir-opt parses+verifies | {s['nvvm_ok']}/{s['accepted_units']} | "
        f"{s['nvvm_rate']:.1%} | {s['chunks_nvvm_ok']}/{s['chunks']} |",
        f"| (b) PTX accepted by ptxas at the chunk's SM | {s['ptx_ok']}/{s['accepted_units']} | {s['ptx_rate']:.1%} | "
        f"{s['chunks_ptx_ok']}/{s['chunks']} |",
        f"| (c) nvvm ops + calls agree with mlir-opt `{' '.join(REFERENCE_PASSES)}` | {s['agree']}/"
        f"{s['reference_units']} | {s['agree_rate']:.1%} | |",
        f"| (d) {INVALID_FILE} expected errors: line hit / text match | {invalid['line_hits']}, {invalid['text_hits']}"
        f" of {invalid['expected']} | "
        f"{(int(invalid['text_hits']) / int(invalid['expected']) if invalid['expected'] else 0):.1%} | |",  # type: ignore[call-overload]
        "",
        "## Per file",
        "",
        "| file | accepted | (a) | (b) | (c) |",
        "|---|---|---|---|---|",
    ]
    files = sorted({o.file for o in outcomes})
    for f in files:
        acc = [o for o in outcomes if o.file == f and o.accepted]
        ref = [o for o in acc if o.reference_ok]
        out.append(
            f"| {f} | {len(acc)} | {sum(o.nvvm_ok for o in acc)} | {sum(o.ptx_ok for o in acc)} | "
            f"{sum(o.agree for o in ref)}/{len(ref)} |"
        )
    out += ["", "## Failures (first diagnostic per unit)", ""]
    for o in outcomes:
        if o.accepted and (not o.nvvm_ok or not o.ptx_ok):
            out.append(f"- {o.file}:{o.line} @{o.name} ({o.chip}): {o.failure.splitlines()[0] if o.failure else '?'}")
    out += ["", "## Differences from mlir-opt (nvvm ops, calls, inline asm per function)", ""]
    for o in outcomes:
        for d in o.differences:
            if d != NO_OUTPUT:
                out.append(f"- {o.file}:{o.line} {d}")
    out += ["", "## Units mlir-opt 22 itself rejects as input (not counted)", ""]
    for o in outcomes:
        if not o.accepted:
            out.append(f"- {o.file}:{o.line} @{o.name}: {o.failure}")
    out += ["", f"## {INVALID_FILE}: missed expected errors", ""]
    out += [f"- {m}" for m in invalid["misses"]]  # type: ignore[attr-defined]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("root", nargs="?", default=str(DEFAULT_ROOT))
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of markdown")
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)) or 1)
    ap.add_argument("--limit", type=int, default=0, help="only the first N units (a quick look)")
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    if not root.is_dir():
        print(f"no upstream test suite at {root}", file=sys.stderr)
        return 2
    if mlir_opt_path() is None:
        print("mlir-opt 22 is not installed (apt-get install mlir-22-tools)", file=sys.stderr)
        return 2
    units = list(collect_units(root))
    if args.limit:
        units = units[: args.limit]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(measure_unit, units))
    else:
        outcomes = [measure_unit(u) for u in units]
    invalid = invalid_hits(root / INVALID_FILE)
    summary = summarize(outcomes)
    if args.json:
        print(json.dumps({"summary": summary, "invalid": invalid, "units": [asdict(o) for o in outcomes]}, indent=1))
    else:
        sys.stdout.write(markdown(outcomes, summary, invalid))
    return 0


if __name__ == "__main__":
    sys.exit(main())
