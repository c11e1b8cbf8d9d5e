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


def _file(types: list[bytes], sig: int, body: bytes = b"") -> bytes:
    """A minimal bytecode file: one entry `k` of signature type `sig`, the given type table."""
    from tile_lsp.compiler.bytecode.writer import _Table

    out = bytearray(F.MAGIC) + bytes([13, 4, 0, 0])

    def section(sid: int, payload: bytearray, align: int) -> None:
        out.append(sid | 0x80)
        F.put_varint(out, len(payload))
        F.put_varint(out, align)
        F.pad_to(out, align)
        out.extend(payload)

    strings, table = _Table(), _Table()
    strings.get(b"k")
    for t in types:
        table.get(t)
    func = bytearray()
    for v in (1, 0, sig):
        F.put_varint(func, v)
    func.append(F.F_KERNEL)
    F.put_varint(func, 0)
    F.put_varint(func, len(body))
    func.extend(body)
    section(F.SEC_FUNC, func, 8)
    t = bytearray()
    table.write(t, 4)
    section(F.SEC_TYPE, t, 4)
    s = bytearray()
    strings.write(s, 4)
    section(F.SEC_STRING, s, 4)
    out.append(0)
    return bytes(out)


def _ptr(to: int) -> bytes:
    b = bytearray([F.T_PTR, 0])
    F.put_varint(b, to)
    return bytes(b)


def _func(inputs: list[int]) -> bytes:
    b = bytearray([F.T_FUNC])
    F.put_varint(b, len(inputs))
    for i in inputs:
        F.put_varint(b, i)
    F.put_varint(b, 0)
    return bytes(b)


def test_crafted_type_cycles_and_depth() -> None:
    dec = decode(_file([_ptr(0), _func([0])], 1))
    assert dec.module is None and "refers to itself" in dec.diagnostics[0].message
    chain = [bytes([F.T_I32])] + [_ptr(i) for i in range(5000)]
    t0 = time.perf_counter()
    dec = decode(_file([*chain, _func([len(chain) - 1])], len(chain)))
    assert time.perf_counter() - t0 < 1.0
    assert dec.module is None and "nest more than" in dec.diagnostics[0].message
    assert "byte offset" in dec.diagnostics[0].message


def test_crafted_bodies() -> None:
    i32 = bytes([F.T_I32])
    ok = _file([_func([]), i32], 0, bytes([92, 0, 0]))  # return: no results, no operands
    assert decode(ok).module is not None
    for body, expect in [
        (bytes([0x7F]), "unknown opcode 127"),
        (bytes([121, 1, 0, 0]), "value index 0 out of range"),  # fpowi of values never defined
        (bytes([123]), "needs bytecode 13.5, the file is 13.4"),  # multimem_load_reduce_view_tko
        # preview$call (16386) in a 13.4 file without the header's preview flag: NVIDIA's words
        (bytes([0x82, 0x80, 0x01]), "public-preview opcode 16386 but the header does not advertise preview content"),
        (bytes([0x85, 0x80, 0x01]), "opcode 16389 is in the SIMT preview's range"),
        (bytes([92, 0, 1, 5]), "value index 5 out of range"),
        (bytes([92, 0, 0xFF, 0xFF, 0xFF, 0x0F]), "operands cannot fit"),
        (bytes([68, 9]), "type index 9 out of range"),
    ]:
        dec = decode(_file([_func([]), i32], 0, body))
        assert dec.module is None and expect in dec.diagnostics[0].message, (body, dec.diagnostics)


def test_crafted_deep_regions() -> None:
    def loops(depth: int) -> bytes:  # loop { loop { ... continue } }
        return bytes([65, 0, 0, 1, 1, 0, 1]) + loops(depth - 1) if depth else bytes([17, 0, 0])

    i32 = bytes([F.T_I32])
    assert decode(_file([_func([]), i32], 0, loops(20) + bytes([92, 0, 0]))).module is not None
    dec = decode(_file([_func([]), i32], 0, loops(150) + bytes([92, 0, 0])))
    assert dec.module is None and "nest too deeply" in dec.diagnostics[0].message


def test_mutants_always_print() -> None:
    """A mutant that decodes may hold ops that fail verification; bytecode_to_text still gives
    text (the generic form where an op does not fit its custom one) or a diagnostic."""
    from tile_lsp.compiler.bytecode.convert import bytecode_to_text

    for label, data in _mutants(seed=6, n=300):
        text, diags, _ = bytecode_to_text(data, label, verify=False)
        assert text is not None or diags, label
