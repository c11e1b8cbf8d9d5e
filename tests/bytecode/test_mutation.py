"""~300 mutated corpus files (bit flips, byte overwrites, truncations, length and count
fields, inserted/deleted bytes): the reader never raises, never takes a second, and each
structural corruption (truncation, header, section lengths) is a diagnostic."""

from __future__ import annotations

import random
import time

from tests.bytecode.helpers import CORPUS, corpus_bytes
from tile_lsp.compiler.bytecode import format as F
from tile_lsp.compiler.bytecode.reader import decode, read_bytecode


def _section_headers(data: bytes) -> list[tuple[int, int, int]]:
    """(offset of the id byte, offset of the length varint, its byte size) per section."""
    r = F.ByteReader(data, 12)
    out = []
    while True:
        at = r.pos
        sid = r.byte()
        if sid & 0x7F == 0:
            return out
        lat = r.pos
        length = r.varint()
        out.append((at, lat, r.pos - lat))
        if sid & 0x80:
            align = r.varint()
            r.align(align, 0)
        r.pos += length


def _mutants(seed: int = 27, n: int = 300) -> list[tuple[str, bytes]]:
    rng = random.Random(seed)
    files = {name: corpus_bytes(name) for name in CORPUS}
    out: list[tuple[str, bytes]] = []
    kinds = ["flip", "byte", "truncate", "length", "count", "insert", "delete", "header"]
    while len(out) < n:
        name = rng.choice(CORPUS)
        data = bytearray(files[name])
        kind = kinds[len(out) % len(kinds)]
        if kind == "flip":
            for _ in range(rng.randint(1, 4)):
                k = rng.randrange(len(data))
                data[k] ^= 1 << rng.randrange(8)
        elif kind == "byte":
            data[rng.randrange(12, len(data))] = rng.choice((0x00, 0x7F, 0x80, 0xFF))
        elif kind == "truncate":
            data = data[: rng.randrange(len(data))]
        elif kind == "length":
            _, lat, size = rng.choice(_section_headers(bytes(data)))
            big = bytearray()
            F.put_varint(big, rng.choice((0, 1, len(data), 1 << 31, (1 << 63) - 1)))
            data[lat : lat + size] = big
        elif kind == "count":  # the first varint of a section payload: its item count
            at, lat, size = rng.choice(_section_headers(bytes(data)))
            r = F.ByteReader(bytes(data), lat)
            r.varint()
            if data[at] & 0x80:
                r.align(r.varint(), 0)
            big = bytearray()
            F.put_varint(big, rng.choice((1 << 20, 1 << 40, 0xFFFFFFFF)))
            data[r.pos : r.pos + 1] = big
        elif kind == "insert":
            k = rng.randrange(12, len(data))
            data[k:k] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == "delete":
            k = rng.randrange(12, len(data) - 1)
            del data[k : k + rng.randint(1, 8)]
        elif kind == "header":
            data[rng.randrange(12)] ^= 1 << rng.randrange(8)
        out.append((f"{kind}:{name}", bytes(data)))
    return out


STRUCTURAL = ("truncate", "length", "count", "header")


def test_mutants_never_raise_or_hang() -> None:
    stats: dict[str, list[int]] = {}
    slowest = 0.0
    for label, data in _mutants():
        kind = label.split(":")[0]
        t0 = time.perf_counter()
        result = read_bytecode(data, label)  # decode + verify, as the CLI would
        dt = time.perf_counter() - t0
        slowest = max(slowest, dt)
        assert dt < 1.0, f"{label} took {dt:.2f}s"
        errors = [d for d in result.diagnostics if d.is_error]
        for d in errors:
            assert 0 <= d.span.start <= len(data), (label, d)
        if kind in STRUCTURAL:
            if kind == "header" and result.module is not None:
                pass  # a flipped version tag bit 0 (the preview flag) is still a valid file
            else:
                assert result.module is None and errors, label
                assert "byte offset" in errors[0].message, errors[0].message
        s = stats.setdefault(kind, [0, 0])
        s[0] += 1
        s[1] += bool(errors)
    total = sum(v[0] for v in stats.values())
    assert total == 300
    diagnosed = sum(v[1] for v in stats.values())
    # Random flips may land in data that stays valid (a line number, a constant), so not all
    # of them must be diagnosed; almost all are.
    assert diagnosed >= 0.85 * total, stats


def test_every_truncation_of_a_kernel_is_diagnosed() -> None:
    data = corpus_bytes("vector_add")
    for n in range(0, len(data), 7):
        dec = decode(data[:n])
        assert dec.module is None and len(dec.diagnostics) == 1, n
