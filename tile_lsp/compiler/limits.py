"""Size limits: what the tools do with a file too big to treat like a kernel.

A cuda_tile kernel is a few hundred lines; NVIDIA's largest examples are ~100 KB. Far bigger
inputs are generated or wrong files, and every stage past the front end costs a second or more
per entry, so the pipeline (`tile-lsp compile`, the language server's background compile) takes
files up to `MAX_FILE_SIZE` (the server's `tileLsp.maxFileSize`, `compile --max-size`), and the
front end (parse, verify, diagnostics, navigation, hover, completion, formatting) up to
`front_end_limit(...)` of it (`check --max-size`). No xDSL here: sizes are checked before the
compiler is imported.
"""

from __future__ import annotations

import re

MAX_FILE_SIZE = 2 << 20  # bytes of UTF-8: the pipeline's limit
FRONT_END_FACTOR = 8  # the front end's limit is this many times the pipeline's (16 MB by default)
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*", re.IGNORECASE)


def front_end_limit(max_file_size: int = MAX_FILE_SIZE) -> int:
    return max_file_size * FRONT_END_FACTOR


def size_of(text: str) -> int:
    """The UTF-8 size of `text` without encoding it when it is ASCII (the usual case)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def megabytes(size: int) -> str:
    return f"{size / (1 << 20):.1f} MB"


def parse_size(text: str) -> int:
    """`2097152`, `2M`, `2MB`, `512k`, `1.5G` -> bytes (binary units); ValueError otherwise."""
    m = _SIZE.fullmatch(text)
    if m is None:
        raise ValueError(f"not a size: {text!r} (bytes, or a number with K, M or G)")
    scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()]
    return int(float(m.group(1)) * scale)


def too_big(size: int, limit: int, what: str) -> str:
    """`this file is 10.0 MB, over the 2.0 MB limit for <what>`: the head of every refusal."""
    return f"this file is {megabytes(size)}, over the {megabytes(limit)} limit for {what}"


def setting(value: object) -> int:
    """`tileLsp.maxFileSize` as a usable limit: a positive number of bytes, else the default."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return MAX_FILE_SIZE
    return int(value)
