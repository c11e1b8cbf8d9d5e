#!/usr/bin/env python3
"""Differential testing of our verifier against NVIDIA's (issue 28): mutants of real kernels, as
bytecode, to our reader + verifier and to NVIDIA's `tileirdisasm` (which verifies what it reads;
~3 ms a file). Does each accept and reject the same mutants, and where both reject, does our
message carry NVIDIA's text?

Kernels: the cuTile corpus (tests/data/cutile/*.mlir), examples/, and the valid chunks of the
conformance suite (../shared/conformance/cuda_tile, when present). Mutations, one per mutant, on
the text of one op's line: an element type (f32 -> f16, i32 -> i64, ...), a dimension (halved,
doubled, 3, 0), an enum keyword (memory orderings and scopes, comparison predicates and
orderings, signedness, rounding modes), an integer in an attribute, two operands swapped, an
operand dropped, a result type changed, a rounding mode on ftof or `saturating` on ftoi, and the
13.4/13.5 spellings (`inbounds` flags added, removed or resized, pointer attributes swapped,
multimem reduction kinds, fpowi exponent types). A mutant our parser cannot read (a syntax error,
an undefined value) or our writer cannot encode is skipped (counted): the comparison is on one
input, the bytecode, read by both verifiers.

    .venv/bin/python scripts/diff_verify.py [--mutants 5000] [--seed 1] [--json OUT] [--show 20]

Reports: accept/reject agreement (both accept, both reject, only NVIDIA rejects = we miss a rule,
only we reject = we are too strict), message agreement over the common rejections, and samples
of each disagreement with a reproducer (the mutant's text in --artifacts).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bytecode.helpers import find_tool  # noqa: E402

ENUMS = [
    ["weak", "relaxed", "acquire", "release", "acq_rel"],
    ["tl_blk", "device", "sys"],
    ["equal", "not_equal", "less_than", "less_than_or_equal", "greater_than", "greater_than_or_equal"],
    ["ordered", "unordered"],
    ["signed", "unsigned"],
    ["nearest_even", "zero", "negative_inf", "positive_inf", "approx", "full", "nearest_away"],
]
TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64", "tf32", "f8E4M3FN", "f8E5M2", "f8E8M0FNU",
         "fnv8E5M3FNU"]
_TYPE = re.compile(r"\b(" + "|".join(TYPES) + r")\b")
_DIM = re.compile(r"(?<=[<x])(\d+)(?=x)")
_INT_ATTR = re.compile(r"<(i\d+): (-?\d+)>|div_by<(\d+)>|bounded<(-?\d+), (-?\d+|\?)>")
_OPERANDS = re.compile(r"(%[\w$.]+(?:#\d+)?), (%[\w$.]+(?:#\d+)?)")
_OP_LINE = re.compile(r"^\s+(?:%[\w$.,% ]+ = )?[a-z_]+[a-z_0-9$.]*\b")


def kernel_texts() -> list[tuple[str, str]]:
    out = []
    for p in sorted((ROOT / "tests" / "data" / "cutile").glob("*.mlir")):
        if not p.name.endswith(".g.mlir"):
            out.append((p.stem, p.read_text(encoding="utf-8")))
    for p in sorted((ROOT / "tests" / "bytecode" / "data").glob("*_13_[45].mlir")):  # 13.4/13.5 ops
        out.append((f"bytecode/{p.stem}", p.read_text(encoding="utf-8")))
    for p in sorted((ROOT / "examples").glob("*.mlir")):
        text = p.read_text(encoding="utf-8")
        if "entry @" in text and p.stem != "broken":
            out.append((f"examples/{p.stem}", text))
    conf = ROOT.parent / "shared" / "conformance" / "cuda_tile"
    if conf.is_dir():
        from tile_lsp.compiler.frontend import parse_text, split_chunks

        for p in sorted(conf.rglob("*.mlir")):
            text = p.read_text(encoding="utf-8", errors="replace")
            if "expected-error" in text or "entry @" not in text:
                continue
            for i, span in enumerate(split_chunks(text)):
                chunk = text[span.start:span.end]
                if "entry @" in chunk and "expected-" not in chunk:
                    r = parse_text(chunk, p.name)[0]
                    if r.ok and r.module is not None:
                        out.append((f"{p.stem}#{i}", chunk))
    return out


def mutate(text: str, rng: random.Random) -> tuple[str, str] | None:
    """(mutant, what changed) or None when the chosen line offers nothing to change."""
    lines = text.split("\n")
    ops = [i for i, ln in enumerate(lines) if _OP_LINE.match(ln) and "entry @" not in ln and ln.strip() != "return"]
    if not ops:
        return None
    i = rng.choice(ops)
    line = lines[i]
    kind = rng.choice(["type", "dim", "enum", "int", "swap", "drop", "result", "modifier", "v13_5"])
    new = None
    if kind == "v13_5":  # 13.4/13.5: inbounds flags, pointer attributes, multimem reduction kinds
        choices = []
        if "inbounds = [" in line:
            choices.append(re.sub(r"inbounds = \[([^\]]*)\]", lambda m: "inbounds = [" + rng.choice(
                ["true", "false", "true, true", "true, false, true", ""]) + "]", line, count=1))
        elif re.search(r"\b(load|store)_view_tko\b", line) and " : " in line:
            n = len(re.findall(r"\[([^\]]*)\]", line.split(" : ")[0])[-1].split(","))
            flags = ", ".join(rng.choice(["true", "false"]) for _ in range(n + rng.choice([0, 0, 1, -1])))
            choices.append(line.replace(" : ", f" inbounds = [{flags}] : ", 1))
        for m in re.finditer(r"<(none|unicast|multicast)>", line):
            word = rng.choice([w for w in ("none", "unicast", "multicast") if w != m.group(1)])
            choices.append(line[: m.start()] + f"<{word}>" + line[m.end():])
        if "multimem_" in line:
            kind_ = rng.choice(["min", "max", "and", "or", "xor", "umin", "umax", "add"])
            attr = f"attributes {{reduction = #cuda_tile.multimem_reduction_kind<{kind_}>}}"
            if "multimem_reduction_kind<" in line:
                choices.append(re.sub(r"multimem_reduction_kind<\w+>", f"multimem_reduction_kind<{kind_}>", line))
            else:
                choices.append(line.replace(" : ", f" {attr} : ", 1))
        if re.search(r"\bfpowi\b", line):
            choices.append(re.sub(r"(tile<[^>]*x)i(\d+)>$", lambda m: f"{m.group(1)}{rng.choice(['i1', 'i8', 'i16', 'i32', 'i64', 'f32'])}>", line))
        if choices:
            new = rng.choice(choices)
    elif kind == "modifier":  # 13.4: a rounding mode on ftof, `saturating` on ftoi (on or off)
        if re.search(r"\bftof %[\w$.]+ :", line):
            mode = rng.choice(ENUMS[-1])
            new = re.sub(r"(\bftof %[\w$.]+) :", lambda m: f"{m.group(1)} rounding<{mode}> :", line, count=1)
        elif re.search(r"\bftoi\b", line):
            if " saturating" in line:
                new = line.replace(" saturating", "", 1)
            else:
                new = re.sub(r"\b(signed|unsigned)\b", r"\1 saturating", line, count=1)
    elif kind in ("type", "result"):
        found = list(_TYPE.finditer(line))
        if kind == "result":
            found = [m for m in found if m.start() > line.rfind("->")] if "->" in line else found[-1:]
        if found:
            m = rng.choice(found)
            new = line[: m.start()] + rng.choice([t for t in TYPES if t != m.group(1)]) + line[m.end():]
    elif kind == "dim":
        found = list(_DIM.finditer(line))
        if found:
            m = rng.choice(found)
            v = int(m.group(1))
            new = line[: m.start()] + str(rng.choice([max(v // 2, 1), v * 2, 3, 0, v + 1])) + line[m.end():]
    elif kind == "enum":
        hits = [(m, group) for group in ENUMS for m in re.finditer(r"\b(" + "|".join(group) + r")\b", line)]
        if hits:
            m, group = rng.choice(hits)
            new = line[: m.start()] + rng.choice([w for w in group if w != m.group(0)]) + line[m.end():]
    elif kind == "int":
        found = list(_INT_ATTR.finditer(line))
        if found:
            m = rng.choice(found)
            repl = rng.choice(["0", "-1", "3", "7", "1024", "2147483647", "-2147483648", "4294967296"])
            if m.group(1):
                new = line[: m.start()] + f"<{m.group(1)}: {repl}>" + line[m.end():]
            elif m.group(3):
                new = line[: m.start()] + f"div_by<{rng.choice(['3', '0', '1', '64', '1024'])}>" + line[m.end():]
            else:
                new = line[: m.start()] + f"bounded<{repl}, {rng.choice(['?', '0', '5', '-3'])}>" + line[m.end():]
    elif kind == "swap":
        found = list(_OPERANDS.finditer(line))
        if found:
            m = rng.choice(found)
            new = line[: m.start()] + f"{m.group(2)}, {m.group(1)}" + line[m.end():]
    elif kind == "drop":
        found = list(_OPERANDS.finditer(line))
        if found:
            m = rng.choice(found)
            new = line[: m.start()] + m.group(1) + line[m.end():]
    if new is None or new == line:
        return None
    lines[i] = new
    return "\n".join(lines), f"{kind} at line {i + 1}: {line.strip()[:80]!r} -> {new.strip()[:80]!r}"


def ours(data: bytes) -> list[str]:
    from tile_lsp.compiler.bytecode.reader import read_bytecode

    return [d.message for d in read_bytecode(data, "mutant.tileirbc").diagnostics if d.is_error]


_NV_ERROR = re.compile(r"error: (.*)")


def nvidia(disasm: str, data: bytes, scratch: str) -> tuple[bool, list[str], str]:
    fd, path = tempfile.mkstemp(suffix=".tileirbc", dir=scratch)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    try:
        done = subprocess.run([disasm, path], capture_output=True, text=True, errors="replace", timeout=30, check=False)
    except subprocess.TimeoutExpired:
        return False, ["tileirdisasm timed out"], "timeout"
    finally:
        os.unlink(path)
    errors = [m.group(1).strip() for m in _NV_ERROR.finditer(done.stderr)]
    errors = [e for e in errors if not e.startswith(("verification failed for deserialized", "failed to read provided"))]
    crashed = done.returncode < 0 or "Stack dump" in done.stderr or "PLEASE submit a bug report" in done.stderr
    return done.returncode == 0, errors, "crash" if crashed else ""


def _normal(text: str) -> str:
    text = re.sub(r"!cuda_tile\.", "", text)
    text = re.sub(r"'cuda_tile\.(\w+)' op ", r"'\1' op ", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def same_message(ours_: list[str], theirs: list[str]) -> bool:
    """Does one of our errors carry NVIDIA's first error's text (types spelled either way)? A
    rejection NVIDIA gives no message for counts as a mismatch (nothing shows we agree)."""
    if not theirs:
        return False
    want = _normal(theirs[0])
    return any(want in _normal(o) or _normal(o) in want for o in ours_)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=5000, help="mutants to compare (encoded ones; default 5000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--show", type=int, default=12, help="samples printed per disagreement kind")
    ap.add_argument("--artifacts", default=os.path.join(tempfile.gettempdir(), "tile-lsp-diff-verify"))
    args = ap.parse_args()
    disasm = find_tool("tileirdisasm")
    if disasm is None:
        print("tileirdisasm not found: pip install nvidia-cuda-tileiras (pyproject's test extra)", file=sys.stderr)
        return 2
    from tile_lsp.compiler.bytecode.convert import text_to_bytecode

    rng = random.Random(args.seed)
    kernels = kernel_texts()
    counts: Counter[str] = Counter()
    samples: dict[str, list[dict[str, str]]] = {}
    os.makedirs(args.artifacts, exist_ok=True)
    started = time.monotonic()
    tries = 0
    with tempfile.TemporaryDirectory(prefix="diff-verify-") as scratch, ThreadPoolExecutor(args.jobs) as pool:
        pending = []
        while counts["compared"] + len(pending) < args.mutants and tries < args.mutants * 20:
            tries += 1
            name, text = rng.choice(kernels)
            got = mutate(text, rng)
            if got is None:
                counts["no mutation"] += 1
                continue
            mutant, what = got
            data, diags, _ = text_to_bytecode(mutant, f"{name}.mlir")
            if data is None:
                counts["skipped: our parser cannot read it"] += 1
                continue
            if any(d.is_error and d.stage == "bytecode" for d in diags):
                counts["skipped: our writer cannot encode it"] += 1
                continue
            pending.append((name, what, mutant, data, pool.submit(nvidia, disasm, data, scratch)))
            if len(pending) >= 64:
                _collect(pending, counts, samples, args)
        _collect(pending, counts, samples, args)
    compared = counts["compared"]
    agree = counts["both accept"] + counts["both reject"]
    print(f"{compared} mutants compared ({tries} tried, {time.monotonic() - started:.0f} s): "
          f"accept/reject agreement {agree}/{compared} = {100 * agree / max(compared, 1):.2f}%")
    for key in ("both accept", "both reject", "only NVIDIA rejects", "only we reject", "NVIDIA crashed"):
        print(f"  {key:22} {counts[key]}")
    both = counts["both reject"]
    print(f"  message agreement over common rejections: {counts['same message']}/{both} = "
          f"{100 * counts['same message'] / max(both, 1):.1f}%")
    for key in sorted(k for k in counts if k.startswith(("skipped", "no mutation"))):
        print(f"  ({key}: {counts[key]})")
    for kind, items in samples.items():
        print(f"\n{kind} ({counts[kind] if kind != 'message differs' else both - counts['same message']}):")
        for s in items[: args.show]:
            print(f"  {s['kernel']}: {s['what']}\n    NVIDIA: {s['nvidia'][:200]}\n    ours:   {s['ours'][:200]}\n    repro:  {s['repro']}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"counts": dict(counts), "samples": samples}, indent=1))
    return 0


def _collect(pending: list, counts: Counter[str], samples: dict[str, list[dict[str, str]]], args: argparse.Namespace) -> None:
    for name, what, mutant, data, fut in pending:
        nv_ok, nv_errors, nv_note = fut.result()
        mine = ours(data)
        counts["compared"] += 1
        if nv_note == "crash":
            counts["NVIDIA crashed"] += 1
        sample = ""
        if nv_ok and not mine:
            kind = "both accept"
        elif not nv_ok and mine:
            kind = "both reject"
            if same_message(mine, nv_errors):
                counts["same message"] += 1
            else:
                sample = "message differs"
        else:
            kind = sample = "only NVIDIA rejects" if not nv_ok else "only we reject"
        counts[kind] += 1
        if sample and len(samples.get(sample, [])) < 200:
            digest = hashlib.sha256(mutant.encode()).hexdigest()[:12]  # (the same name in every run)
            path = os.path.join(args.artifacts, f"{digest}.mlir")
            pathlib.Path(path).write_text(mutant, encoding="utf-8")
            samples.setdefault(sample, []).append({
                "kernel": name, "what": what, "nvidia": "; ".join(nv_errors) or "(accepted)",
                "ours": "; ".join(mine) or "(accepted)", "repro": f"tile-lsp opt {path} --emit-bytecode -o m.tileirbc && tileirdisasm m.tileirbc",
            })
    pending.clear()


if __name__ == "__main__":
    sys.exit(main())
