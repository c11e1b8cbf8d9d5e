"""Tile IR bytecode reader/writer speed on the cuTile corpus (tests/data/cutile/*.tileirbc).

Per kernel: decode (bytes -> IR, with debug info as locations), decode + verify
(`read_bytecode`, what `tile-lsp check` on a .tileirbc would do) and write (IR -> bytes at the
file's version); min and median of N runs in one process after a warm-up, as ms per file and
MB/s of bytecode. For scale, the text front end on the matching .g.mlir (parse + verify).

    .venv/bin/python bench/bytecode_speed.py [--repeat N] [--json OUT] [--big KB] [STEMS...]

--big KB (default 100) also times one big bytecode: every corpus kernel's entries, renamed and
repeated until our bytecode of them is at least KB kilobytes (the issue's 100 KB case), and the
floor under its decode: as many trivial ops (each an absi of the one before), created the cheapest
way the reader creates ops (`registry.create_op`) and put in one block, without reading anything.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tile_lsp.compiler.bytecode.reader import decode, read_bytecode  # noqa: E402
from tile_lsp.compiler.bytecode.writer import write_bytecode  # noqa: E402
from tile_lsp.compiler.frontend import parse_text  # noqa: E402

CUTILE = ROOT / "tests" / "data" / "cutile"


def timed(fn, repeat: int) -> tuple[float, float]:
    fn()  # warm-up (imports, caches)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stems", nargs="*")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--big", type=int, default=100, help="KB of the big bytecode case (0: none)")
    args = ap.parse_args(argv)
    paths = sorted(CUTILE.glob("*.tileirbc"))
    if args.stems:
        paths = [p for p in paths if p.stem in args.stems]
    rows = []
    tot = {"bytes": 0, "decode": 0.0, "read": 0.0, "write": 0.0, "text": 0.0}
    print(
        f"{'kernel':16} {'bytes':>6} {'ops':>5} | {'decode ms':>9} {'MB/s':>6} | {'+verify ms':>10} | {'write ms':>8} {'MB/s':>6} | {'text ms':>7}"
    )
    for p in paths:
        data = p.read_bytes()
        dec = decode(data)
        if dec.module is None:
            print(f"{p.stem}: {dec.diagnostics[0].message}")
            return 1
        nops = sum(1 for _ in dec.module.walk())
        module = dec.module
        d_min, d_med = timed(lambda data=data: decode(data), args.repeat)
        r_min, r_med = timed(lambda data=data, name=p.name: read_bytecode(data, name), args.repeat)
        w_min, w_med = timed(lambda m=module, v=dec.version: write_bytecode(m, version=v), args.repeat)
        g = CUTILE / f"{p.stem}.g.mlir"
        text = g.read_text()
        t_min, t_med = timed(lambda text=text, name=g.name: parse_text(text, name), args.repeat)
        mb = len(data) / 1e6
        row = {
            "kernel": p.stem,
            "bytes": len(data),
            "ops": nops,
            "decode_ms": d_min * 1e3,
            "decode_ms_median": d_med * 1e3,
            "read_verify_ms": r_min * 1e3,
            "write_ms": w_min * 1e3,
            "write_ms_median": w_med * 1e3,
            "text_parse_verify_ms": t_min * 1e3,
        }
        rows.append(row)
        tot["bytes"] += len(data)
        tot["decode"] += d_min
        tot["read"] += r_min
        tot["write"] += w_min
        tot["text"] += t_min
        print(
            f"{p.stem:16} {len(data):6} {nops:5} | {d_min * 1e3:9.1f} {mb / d_min:6.2f} | {r_min * 1e3:10.1f} | "
            f"{w_min * 1e3:8.1f} {mb / w_min:6.2f} | {t_min * 1e3:7.1f}"
        )
    n = len(rows)
    mb = tot["bytes"] / 1e6
    print(
        f"{'all ' + str(n):16} {tot['bytes']:6} {'':5} | {tot['decode'] * 1e3 / n:9.1f} {mb / tot['decode']:6.2f} | "
        f"{tot['read'] * 1e3 / n:10.1f} | {tot['write'] * 1e3 / n:8.1f} {mb / tot['write']:6.2f} | {tot['text'] * 1e3 / n:7.1f}"
    )
    print("(ms: per file, min of runs; the 'all' row: mean ms per file, MB/s over all bytes)")
    big = _big_case(args.big * 1000, args.repeat) if args.big else None
    if args.json_out:
        summary = {
            "files": n,
            "bytes": tot["bytes"],
            "decode_mb_s": mb / tot["decode"],
            "write_mb_s": mb / tot["write"],
            "decode_ms_per_file": tot["decode"] * 1e3 / n,
            "read_verify_ms_per_file": tot["read"] * 1e3 / n,
            "write_ms_per_file": tot["write"] * 1e3 / n,
            "text_parse_verify_ms_per_file": tot["text"] * 1e3 / n,
        }
        pathlib.Path(args.json_out).write_text(json.dumps({"summary": summary, "kernels": rows, "big": big}, indent=1))
    return 0


def _big_case(size: int, repeat: int) -> dict[str, float]:
    """One bytecode of at least `size` bytes: decode, decode + verify and write, as above."""
    import re

    texts = [(CUTILE / f"{p.stem}.mlir").read_text(encoding="utf-8") for p in sorted(CUTILE.glob("*.tileirbc"))]
    entries = [m.group(0) for t in texts for m in re.finditer(r"^entry @.*?^}\n", t, re.M | re.S)]
    copies, data = 1, b""
    while True:
        body = "".join(re.sub(r"^entry @([\w$.]+)", rf"entry @\g<1>_{i}", e, flags=re.M)
                       for i in range(copies) for e in entries)
        module = parse_text(body, "big.mlir")[0].module
        assert module is not None
        data = write_bytecode(module)[0] or b""
        if len(data) >= size:
            break
        copies = max(copies + 1, int(copies * size / max(len(data), 1)) + 1)
    dec = decode(data)
    assert dec.module is not None, dec.diagnostics
    nops = sum(1 for _ in dec.module.walk())
    d_min, _ = timed(lambda: decode(data), repeat)
    r_min, _ = timed(lambda: read_bytecode(data, "big.tileirbc"), repeat)
    w_min, _ = timed(lambda: write_bytecode(dec.module, version=dec.version), repeat)
    mb = len(data) / 1e6
    print(f"{'big':16} {len(data):6} {nops:5} | {d_min * 1e3:9.1f} {mb / d_min:6.2f} | {r_min * 1e3:10.1f} | "
          f"{w_min * 1e3:8.1f} {mb / w_min:6.2f} |   (target: 100 KB in < 20 ms each way)")
    f_min = _op_floor(nops, repeat)
    print(f"{'  op floor':16} {'':6} {nops:5} | {f_min * 1e3:9.1f}        |   (creating {nops} trivial ops, no reading)")
    return {"bytes": len(data), "ops": nops, "decode_ms": d_min * 1e3, "read_verify_ms": r_min * 1e3,
            "write_ms": w_min * 1e3, "op_floor_ms": f_min * 1e3}


def _op_floor(n: int, repeat: int) -> float:
    """Seconds to create `n` one-operand, one-result ops in a block as the reader does (no decoding)."""
    from xdsl.dialects import builtin
    from xdsl.ir import Block

    from tile_lsp.compiler.bytecode.format import gc_paused
    from tile_lsp.compiler.dialects import registry
    from tile_lsp.compiler.dialects.cuda_tile import types

    cls = registry.op_class("cuda_tile.absi")
    assert cls is not None
    t = types.tile([16], builtin.i32)

    def build() -> None:
        with gc_paused():  # as decode runs
            block = Block(arg_types=[t])
            value, ops = block.args[0], []
            for _ in range(n):
                op = registry.create_op(cls, [value], [t], {}, {}, [])
                ops.append(op)
                value = op.results[0]
            block.add_ops(ops)

    return timed(build, repeat)[0]


if __name__ == "__main__":
    sys.exit(main())
