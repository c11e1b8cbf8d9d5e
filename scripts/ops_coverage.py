"""Which cuda_tile ops of NVIDIA's ops.mlir the pipeline lowers to ptxas-accepted code: every
top-level function (entry or testing$func) compiled alone to a cubin for sm_80, sm_90a, sm_100a.

`python scripts/ops_coverage.py [--json OUT] [--jobs N] [--targets sm_80,...] [FILE ...]`
(default FILE: ../shared/conformance/cuda_tile/Dialect/CudaTile/ops.mlir). A function is compiled
on a copy of its file with every other top-level item blanked (offsets stay the file's) except
the globals it names; globals no function names form one more unit, `<globals>`. Op names come
from the front end alone (`parse_text`). An op *lowers* when some function holding it reaches a
cubin on every target; it *fails* when a diagnostic sits on it (or names it: `not yet supported
by the gpu stage: 'cuda_tile.X'`); otherwise it is *blocked* (only in functions that fail for
other ops).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from tile_lsp.compiler.syntax.sourcemap import SourceMap

ROOT = pathlib.Path(__file__).resolve().parents[1]
OPS_MLIR = ROOT.parent / "shared" / "conformance" / "cuda_tile" / "Dialect" / "CudaTile" / "ops.mlir"
TARGETS = ("sm_80", "sm_90a", "sm_100a")
FUNCTIONS = ("cuda_tile.entry", "cuda_tile.testing$func")
_NAMED = re.compile(r"not yet supported by the gpu stage: 'cuda_tile\.([\w$]+)'")


@dataclass
class Unit:
    """One function (or the unused globals) and the text it is compiled from."""

    file: str
    name: str
    text: str
    ops: list[str]  # cuda_tile op names it holds (short, sorted, unique)
    spans: list[tuple[int, int, str]]  # (start, end, op name) of its ops, to place diagnostics


@dataclass
class Outcome:
    file: str
    name: str
    ops: list[str]
    ok: dict[str, bool] = field(default_factory=dict)  # target -> reached a cubin
    first_error: str = ""
    failing_ops: list[str] = field(default_factory=list)  # ops its errors sit on or name
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return bool(self.ok) and all(self.ok.values())


def _short(op: Operation) -> str:
    return op.name.removeprefix("cuda_tile.")


def units_of(path: pathlib.Path) -> list[Unit]:
    """The units of one file: each top-level function with the globals it names."""
    from tile_lsp.compiler.frontend import parse_text

    text = path.read_text(encoding="utf-8")
    units: list[Unit] = []
    for parsed in parse_text(text, str(path), split=True):
        if parsed.module is None or not parsed.ok:
            continue
        smap = parsed.smap
        items = [op for op in parsed.module.walk()
                 if op.name in (*FUNCTIONS, "cuda_tile.global") and smap.op_span(op) is not None]
        globals_ = {_symbol(g): g for g in items if g.name == "cuda_tile.global"}
        cut = _Cutter(str(path), text, (parsed.span.start, parsed.span.end), items, smap)
        used: set[str] = set()
        for fn in items:
            if fn.name not in FUNCTIONS:
                continue
            body = list(fn.walk())
            named = {u.name for u in smap.symbol_uses if u.user in body} & globals_.keys()
            used |= named
            wanted = [globals_[n] for n in sorted(named)]
            units.append(cut.unit(_symbol(fn), [fn, *wanted], body + wanted))
        rest = [g for n, g in globals_.items() if n not in used]
        if rest:
            units.append(cut.unit("<globals>", rest, rest))
    return units


def _symbol(op: Operation) -> str:
    name = op.properties["sym_name"]
    assert isinstance(name, StringAttr)
    return name.data


@dataclass
class _Cutter:
    """Makes a unit's text: the file with the other items (and other `// -----` chunks) blanked."""

    path: str
    text: str
    chunk: tuple[int, int]
    items: list[Operation]
    smap: SourceMap

    def unit(self, name: str, keep: list[Operation], ops: list[Operation]) -> Unit:
        blank = sorted([(0, self.chunk[0]), (self.chunk[1], len(self.text)),
                        *((s.start, s.end) for op in self.items if op not in keep
                          and (s := self.smap.op_span(op)) is not None)])
        pieces, cursor = [], 0
        for start, end in blank:
            if end <= cursor:
                continue
            start = max(start, cursor)
            pieces += [self.text[cursor:start], re.sub(r"[^\n]", " ", self.text[start:end])]
            cursor = end
        pieces.append(self.text[cursor:])
        spans = [(s.start, s.end, _short(o)) for o in ops if (s := self.smap.op_span(o)) is not None]
        return Unit(self.path, name, "".join(pieces), sorted({_short(o) for o in ops}), spans)


def compile_unit(unit: Unit, targets: tuple[str, ...]) -> Outcome:
    from tile_lsp.compiler.backend.cuda_tools import find_ptxas_binary
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    out = Outcome(unit.file, unit.name, unit.ops)
    failing: set[str] = set()
    started = time.perf_counter()
    for gpu_name in targets:
        options = CompileOptions(Target.resolve(gpu_name), ptxas=find_ptxas_binary())
        result = compile_source(SourceText(unit.text, unit.file), options, "cubin", cache=False, provenance=False)
        errors = [d for d in result.diagnostics if d.is_error]
        out.ok[gpu_name] = not errors and result.stage("cubin") is not None
        for d in errors:
            failing.add(_charge(unit, d.span.start, d.message))
        if errors and not out.first_error:
            out.first_error = f"[{gpu_name}] {errors[0].message.splitlines()[0][:300]}"
    out.failing_ops = sorted(failing)
    out.seconds = round(time.perf_counter() - started, 2)
    print(f"{out.name}: {'ok' if out.passed else 'FAIL'} ({out.seconds} s)", file=sys.stderr, flush=True)
    return out


def _charge(unit: Unit, offset: int, message: str) -> str:
    """The op a diagnostic is about: the one it names, else the innermost op holding it."""
    named = _NAMED.search(message)
    if named:
        return named.group(1)
    holding = [(end - start, name) for start, end, name in unit.spans if start <= offset < end]
    return min(holding)[1] if holding else unit.name


def report(outcomes: list[Outcome], targets: tuple[str, ...]) -> dict[str, object]:
    table: dict[str, dict[str, object]] = {}
    for o in outcomes:
        for name in o.ops:
            row = table.setdefault(name, {"functions": 0, "passed": 0, "failing_here": [], "first_error": ""})
            row["functions"] = int(row["functions"]) + 1  # type: ignore[call-overload]
            if o.passed:
                row["passed"] = int(row["passed"]) + 1  # type: ignore[call-overload]
            elif name in o.failing_ops:
                row["failing_here"].append(o.name)  # type: ignore[attr-defined]
                if not row["first_error"]:
                    row["first_error"] = f"@{o.name}: {o.first_error}"
            elif not row.get("blocked_by"):
                row["blocked_by"] = f"@{o.name}: {o.first_error}"
    for row in table.values():
        row["status"] = "lowers" if row["passed"] else ("fails" if row["failing_here"] else "blocked")
        if row["status"] == "blocked":
            row["first_error"] = f"(blocked) {row['blocked_by']}"
    lowered = sum(1 for r in table.values() if r["status"] == "lowers")
    return {
        "targets": list(targets),
        "ops": len(table),
        "ops_lowered": lowered,
        "ops_failing": sum(1 for r in table.values() if r["status"] == "fails"),
        "ops_blocked": sum(1 for r in table.values() if r["status"] == "blocked"),
        "functions": len(outcomes),
        "functions_passed": sum(o.passed for o in outcomes),
        "table": dict(sorted(table.items())),
        "units": [asdict(o) | {"passed": o.passed} for o in outcomes],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("files", nargs="*", default=[str(OPS_MLIR)])
    ap.add_argument("--json", metavar="OUT", help="write the whole report as JSON to OUT")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--only", help="compile only the functions whose names contain this")
    args = ap.parse_args()
    targets = tuple(t for t in args.targets.split(",") if t)
    units: list[Unit] = []
    for f in args.files:
        path = pathlib.Path(f)
        if not path.is_file():
            print(f"no such file: {path}", file=sys.stderr)
            return 2
        units += units_of(path)
    if args.only:
        units = [u for u in units if args.only in u.name]
    if args.jobs > 1:
        os.environ.setdefault("TILE_LSP_JOBS", "1")  # the pool is the parallelism: one unit at a time per worker
        with ProcessPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(compile_unit, units, [targets] * len(units)))
    else:
        outcomes = [compile_unit(u, targets) for u in units]
    rep = report(outcomes, targets)
    table = rep["table"]
    assert isinstance(table, dict)
    width = max((len(n) for n in table), default=10)
    print(f"{'op':<{width}}  status   passed/functions  first diagnostic")
    for name, row in table.items():
        print(f"{name:<{width}}  {row['status']:<7}  {row['passed']:>3}/{row['functions']:<3}          {row['first_error']}")
    print(f"\n{rep['functions_passed']} of {rep['functions']} functions reach a ptxas-accepted cubin on {', '.join(targets)}")
    print(f"{rep['ops_lowered']} of {rep['ops']} cuda_tile ops of {', '.join(pathlib.Path(f).name for f in args.files)} "
          f"lower to ptxas-accepted code on all {len(targets)} targets "
          f"({rep['ops_failing']} fail, {rep['ops_blocked']} only in functions that fail for other ops)")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rep, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
