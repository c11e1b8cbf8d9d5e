"""Reading a cubin: the sections of its ELF (kernels' code is `.text.<name>`)."""

from __future__ import annotations

import struct


def elf_sections(data: bytes) -> dict[str, bytes]:
    """Section name -> contents of a 64-bit little-endian ELF (a cubin); NOBITS sections left out."""
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = headers[shstrndx][4]

    def name(offset: int) -> str:
        return data[names_at + offset : data.index(b"\0", names_at + offset)].decode()

    return {name(h[0]): data[h[4] : h[4] + h[5]] for h in headers if h[1] != 8}  # 8: SHT_NOBITS
