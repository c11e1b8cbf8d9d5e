"""Big inputs (issue 26): wall time, CPU time and peak RSS of `check`, `compile`, formatting and
opening the file in the language server, on the files of scripts/make_big_inputs.py.

    .venv/bin/python bench/big_inputs.py [--dir DIR] [--only check,compile,format,format-all,open]
        [--files big.mlir,line.mlir] [--timeout S] [--pythonpath PATH] [--json OUT]

Each measurement is a fresh process under /usr/bin/time -v (the daemon off, no unit cache);
`open` starts `tile-lsp serve`, opens the file and waits for its first diagnostics (the peak RSS
is the server's VmHWM then). `--pythonpath` runs another checkout's tile_lsp (the numbers before
a change). The machine's load shows in wall times: compare CPU times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
FILES = ("big.mlir", "big-module.mlir", "line.mlir", "small.mlir")


def _env(pythonpath: str | None, cache: str) -> dict[str, str]:
    env = dict(os.environ, XDG_CACHE_HOME=cache, TILE_LSP_DAEMON="0")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


def timed(argv: list[str], env: dict[str, str], timeout: float) -> dict[str, object]:
    """`argv` under /usr/bin/time -v: status, wall and CPU seconds, peak RSS (MB), last output line."""
    cmd = ["/usr/bin/time", "-v", *argv]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=env.get("PYTHONPATH") or ROOT,  # (`-m`/`-c` put the cwd first on sys.path)
                            start_new_session=True)
    try:
        out, report = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the compile's unit children and ptxas too
        proc.communicate()
        return {"status": "timeout", "wall_s": round(time.monotonic() - start, 1)}
    def field(name: str) -> float:
        m = re.search(rf"{re.escape(name)}: ([\d.:]+)", report)
        return float(m.group(1)) if m and ":" not in m.group(1) else 0.0
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", report)
    parts = [float(p) for p in wall.group(1).split(":")] if wall else [0.0]
    seconds = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    lines = [ln for ln in (out + report.split("\tCommand being timed")[0]).splitlines() if ln.strip()]
    return {
        "status": proc.returncode,
        "wall_s": round(seconds, 2),
        "cpu_s": round(field("User time (seconds)") + field("System time (seconds)"), 2),
        "peak_mb": round(field("Maximum resident set size (kbytes)") / 1024),
        "first": lines[0][:200] if lines else "",
    }


async def _open(path: pathlib.Path, env: dict[str, str], timeout: float) -> dict[str, object]:
    import lsp_latency
    from lsp_latency import LspClient

    lsp_latency.TIMEOUT_S = timeout  # (its own deadline for one answer: 60 s)

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tile_lsp", "serve", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, env=env, cwd=env.get("PYTHONPATH") or str(ROOT), limit=1 << 28,
    )
    client = LspClient(proc)
    try:
        await client.initialize()
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8")
        start = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
        when, params = await asyncio.wait_for(client.diagnostics_for(uri, 1, 0), timeout)
        with open(f"/proc/{proc.pid}/stat") as f:  # utime + stime, in clock ticks
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        hwm = 0
        with open(f"/proc/{proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1]) // 1024
        first = params["diagnostics"][0]["message"][:200] if params["diagnostics"] else ""
        return {"status": 0, "first_diagnostics_s": round(when - start, 2), "cpu_s": round(cpu, 2), "peak_mb": hwm,
                "diagnostics": len(params["diagnostics"]), "first": first}
    except TimeoutError:
        return {"status": "timeout"}
    finally:
        await client.stop()


# `format`: as the server formats (over tileLsp.maxFileSize: refused); `format-all`: whatever the size.
FORMAT = (
    "import sys; from tile_lsp.features import formatting as f; t = open(sys.argv[1]).read(); "
    "why = sys.argv[2] == 'limit' and getattr(f, 'too_big_to_format', lambda t: None)(t); "
    "r = None if why else f.format_text(t); print(why or ('unchanged' if r == t else 'not formattable' if r is None else 'formatted'))"
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default="/tmp/tile-lsp-big")
    ap.add_argument("--only", default="check,compile,format,open")
    ap.add_argument("--files", default=",".join(FILES))
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--pythonpath")
    ap.add_argument("--json")
    args = ap.parse_args()
    folder = pathlib.Path(args.dir)
    if not (folder / "big.mlir").exists():
        subprocess.run([sys.executable, str(ROOT / "scripts" / "make_big_inputs.py"), str(folder)], check=True)
    results: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="tile-lsp-bench-cache-") as cache:
        env = _env(args.pythonpath, cache)
        exe = [sys.executable, "-m", "tile_lsp"]
        for name in args.files.split(","):
            path = folder / name
            for what in args.only.split(","):
                if what == "check":
                    got = timed([*exe, "check", str(path)], env, args.timeout)
                elif what == "compile":
                    got = timed([*exe, "compile", "--no-cache", "--gpu-name", "sm_90a", "-o", os.devnull, str(path)],
                                env, args.timeout)
                elif what in ("format", "format-all"):
                    mode = "limit" if what == "format" else "all"
                    got = timed([sys.executable, "-c", FORMAT, str(path), mode], env, args.timeout)
                else:
                    got = asyncio.run(_open(path, env, args.timeout))
                row = {"file": name, "command": what, **got}
                results.append(row)
                print(json.dumps(row), flush=True)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
