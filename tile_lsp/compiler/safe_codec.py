"""Cache files that are data, never code: what the disk caches keep (compiled units, trimmed
libdevices) written as plain values and read back without running anything the file says.

`pickle` would rebuild any object a file names, calling any function it names: whoever can
change a cache file runs code in the next compile. Here a value is turned into plain data
(None, bool, int, float, str, bytes, list, dict with scalar keys, tuple) with `marshal`, and
objects of the classes a `Codec` is given are written as a tagged tuple of their fields, rebuilt
by calling the class with those fields. Anything else (an unknown tag, another type, a code object
`marshal` could hold) fails to decode: a cache miss.

A file is `b"tile-lsp:" kind ":" version "\\n"`, a blake2b digest (32 bytes) of that header, the
key the file is stored under and the payload, then the payload (zlib). A file that is damaged,
from another version or another kind, or stored under another key (moved, swapped) does not
decode. The digest only checks integrity: it keeps no one out (anyone who can write the file can
recompute it); the folder checks (`private_files`) do that.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import marshal
import operator
import os
import zlib
from collections.abc import Callable, Iterable
from typing import Any

from tile_lsp.compiler.private_files import private_dir, read_private, write_private

FORMAT_VERSION = 1
_DIGEST = 32
_NONE = type(None)
_SCALARS = frozenset({_NONE, bool, int, float, str, bytes})
_KEYS = _SCALARS  # dict keys


# A long list that holds few distinct objects (a stage's line map: one source op's ref on each
# of its lines) is written as its distinct elements and, per element, an index into them (0:
# None): `_LIST` tagged. Decoding it is one list comprehension, not one call per line. Its
# distinct elements, when all of one registered class (a line map's `SourceRef`s), are written
# by columns, one list per field (`_COLUMNS`), and rebuilt by mapping the class over them.
_LIST = "[]"
_COLUMNS = "[]columns"
_COLUMNS_MIN = 4
_SHARED_MIN = 16


def _shared(items: list[Any]) -> tuple[list[Any], list[int]] | None:
    """(distinct elements, index of each element + 1, 0 for None), when at most half the elements
    are distinct; else None."""
    index: dict[int, int] = {}
    table: list[Any] = []
    out: list[int] = []
    limit = len(items) // 2
    for x in items:
        if x is None:
            out.append(0)
            continue
        i = index.get(id(x))
        if i is None:
            if len(table) >= limit:
                return None
            table.append(x)
            i = index[id(x)] = len(table)
        out.append(i)
    return table, out


def _map_dict(d: dict[Any, Any], fn: Callable[[Any], Any], bad_key: Callable[[type], Exception]) -> dict[Any, Any]:
    """`d` with `fn` applied to every value; `bad_key(type of the key)` raised for a key that is not
    a scalar."""
    out = {}
    for k, v in d.items():
        if type(k) not in _KEYS:
            raise bad_key(type(k))
        out[k] = fn(v)
    return out


class DecodeError(ValueError):
    """The file is not one this codec wrote for this key (damaged, another version, unknown content)."""


@dataclasses.dataclass(frozen=True)
class _Spec:
    tag: str
    cls: type
    fields: tuple[str, ...]  # () for an enum (its value is stored)
    build: Callable[..., Any]
    arity: int  # values written
    values: Callable[[Any], tuple[Any, ...]]  # an object -> the values written


class Codec:
    """Values <-> bytes for one kind of cache file. `classes`: the dataclasses (every field set by
    `__init__`), NamedTuples and Enums (scalar values) allowed in it; their tags are their names."""

    def __init__(self, kind: str, classes: Iterable[type]) -> None:
        self.header = f"tile-lsp:{kind}:{FORMAT_VERSION}\n".encode()
        self._by_type: dict[type, _Spec] = {}
        self._by_tag: dict[str, _Spec] = {}
        for cls in classes:
            spec = _spec(cls)
            if spec.tag in self._by_tag or not spec.tag:
                raise ValueError(f"two classes tagged {spec.tag!r}")
            self._by_type[cls] = self._by_tag[spec.tag] = spec

    # -- bytes ------------------------------------------------------------------------------

    def dumps(self, value: Any, key: bytes = b"", level: int = 1) -> bytes:
        """`value` as a file's bytes, bound to `key` (where it is stored). Raises TypeError for a
        value of a type the codec does not know."""
        payload = zlib.compress(marshal.dumps(self.encode(value)), level)
        return self.header + self._digest(key, payload) + payload

    def loads(self, blob: bytes, key: bytes = b"") -> Any:
        """The value `dumps` wrote under `key`; DecodeError for anything else."""
        start = len(self.header) + _DIGEST
        if len(blob) < start or not blob.startswith(self.header):
            raise DecodeError("not a cache file of this kind and version")
        payload = blob[start:]
        if blob[len(self.header) : start] != self._digest(key, payload):
            raise DecodeError("damaged, or stored under another key")
        try:
            plain = marshal.loads(zlib.decompress(payload))
        except (ValueError, EOFError, TypeError, OverflowError, MemoryError, zlib.error) as exc:
            raise DecodeError(f"unreadable payload: {exc}") from None
        return self.decode(plain)

    def _digest(self, key: bytes, payload: bytes) -> bytes:
        h = hashlib.blake2b(self.header, digest_size=_DIGEST)
        h.update(len(key).to_bytes(4, "little") + key)
        h.update(payload)
        return h.digest()

    # -- plain data -------------------------------------------------------------------------

    def encode(self, value: Any) -> Any:
        """`value` as plain data. An object met twice is encoded once (the same tuple: `marshal`
        writes it once, and `decode` rebuilds one object for it)."""
        memo: dict[int, tuple[Any, Any]] = {}
        by_type = self._by_type

        def enc(v: Any) -> Any:
            t = type(v)
            if t is str or t is int or t is _NONE or t is float or t is bool or t is bytes:
                return v
            if t is list:
                if len(v) >= _SHARED_MIN:
                    shared = _shared(v)
                    if shared is not None:
                        return (_LIST, table(shared[0]), shared[1])
                return list(map(enc, v))
            if t is dict:
                return _map_dict(v, enc, lambda k: TypeError(f"a dict key of type {k.__qualname__} cannot be stored"))
            seen = memo.get(id(v))
            if seen is not None:
                return seen[1]
            if t is tuple:
                plain: tuple[Any, ...] = ("", *map(enc, v))
            else:
                spec = by_type.get(t)
                if spec is None:
                    raise TypeError(f"{t.__module__}.{t.__qualname__} is not a type this cache stores")
                plain = (spec.tag, *map(enc, spec.values(v)))
            memo[id(v)] = (v, plain)  # (`v` kept alive: its id stays its own)
            return plain

        def table(items: list[Any]) -> Any:
            """`items` (distinct, none None) by columns when all are of one registered class."""
            spec = by_type.get(type(items[0])) if len(items) >= _COLUMNS_MIN else None
            if spec is None or not spec.arity or any(type(v) is not spec.cls for v in items):
                return list(map(enc, items))
            rows = list(map(spec.values, items))
            return (_COLUMNS, spec.tag, *(list(map(enc, column)) for column in zip(*rows, strict=True)))

        return enc(value)

    def decode(self, plain: Any) -> Any:
        """The value `encode` made `plain` from; DecodeError for anything it cannot have made."""
        memo: dict[int, Any] = {}
        by_tag = self._by_tag
        flat = _SCALARS.issuperset  # (of `map(type, values)`: all scalars, tested without a call each)

        def dec(x: Any) -> Any:
            t = type(x)
            # (identity tests, most frequent first: this runs once per value of the file)
            if t is str or t is int or t is _NONE or t is float or t is bool or t is bytes:
                return x
            if t is tuple:
                known = memo.get(id(x))
                if known is not None:
                    return known
                spec = by_tag.get(x[0]) if x and type(x[0]) is str else None
                if spec is None:
                    if x and x[0] == "":
                        rest = x[1:]
                        value: Any = rest if flat(map(type, rest)) else tuple(map(dec, rest))
                    elif x and x[0] == _LIST:  # (not memoized: each is a list of its own)
                        return shared_list(x)
                    else:
                        raise DecodeError(f"unknown type {x[0]!r}" if x else "an empty tuple")
                else:
                    if len(x) - 1 != spec.arity:
                        raise DecodeError(f"{spec.tag}: {len(x) - 1} fields")
                    rest = x[1:]
                    try:
                        value = spec.build(*(rest if flat(map(type, rest)) else map(dec, rest)))
                    except DecodeError:
                        raise
                    except (TypeError, ValueError) as exc:
                        raise DecodeError(f"{spec.tag}: {exc}") from None
                memo[id(x)] = value
                return value
            if t is list:
                return list(map(dec, x))
            if t is dict:
                return _map_dict(x, dec, lambda k: DecodeError(f"a dict key of type {k.__name__}"))
            raise DecodeError(f"a value of type {t.__name__}")

        def columns(x: Any) -> list[Any]:
            """The objects of a `_COLUMNS` table: the class mapped over its decoded columns."""
            spec = by_tag.get(x[1]) if len(x) >= 2 and type(x[1]) is str else None
            if spec is None or len(x) - 2 != spec.arity or any(type(col) is not list for col in x[2:]):
                raise DecodeError("a malformed table")
            cols = [col if flat(map(type, col)) else list(map(dec, col)) for col in x[2:]]
            if len({len(col) for col in cols}) > 1:
                raise DecodeError("a malformed table")
            try:
                return list(map(spec.build, *cols))
            except (TypeError, ValueError) as exc:
                raise DecodeError(f"{spec.tag}: {exc}") from None

        def shared_list(x: tuple[Any, ...]) -> list[Any]:
            if len(x) != 3 or type(x[2]) is not list:
                raise DecodeError("a malformed shared list")
            if type(x[1]) is list:
                table = [None, *map(dec, x[1])]
            elif type(x[1]) is tuple and x[1] and x[1][0] == _COLUMNS:
                table = [None, *columns(x[1])]
            else:
                raise DecodeError("a malformed shared list")
            try:
                return list(map(table.__getitem__, x[2]))
            except (IndexError, TypeError):
                raise DecodeError("a malformed shared list") from None

        try:
            return dec(plain)
        except RecursionError:
            raise DecodeError("nested too deeply") from None


def _spec(cls: type) -> _Spec:
    if isinstance(cls, enum.EnumMeta):
        return _Spec(cls.__name__, cls, (), cls, 1, lambda v: (v.value,))
    if dataclasses.is_dataclass(cls):
        fields = dataclasses.fields(cls)
        if any(not f.init for f in fields):
            raise ValueError(f"{cls.__qualname__} has a field its __init__ does not set")
        names = tuple(f.name for f in fields)
        return _Spec(cls.__name__, cls, names, cls, len(names), _getter(names))
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):  # a NamedTuple
        return _Spec(cls.__name__, cls, tuple(cls._fields), cls, len(cls._fields), tuple)
    raise ValueError(f"{cls.__qualname__}: only dataclasses, NamedTuples and Enums can be registered")


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    if len(names) >= 2:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda v: (one(v),)
    return lambda v: ()


# -- files ------------------------------------------------------------------------------------


def load_file(path: str, codec: Codec, key: bytes, limit: int | None = None) -> Any:
    """The value stored at `path` under `key`, or None: a miss when the file is missing, when its
    folder is not one of ours (`private_files.private_dir`: a link, someone else's, writable by
    others), when it is a link or someone else's file, or larger than `limit`; a file that does not
    decode (damaged, another version, stored under another key) is removed as well. A hit marks
    the file used (the caches prune the least recently used first)."""
    folder = os.path.dirname(path)
    try:
        if not os.path.lexists(folder):
            return None
        private_dir(folder)
    except OSError:
        return None
    blob = read_private(path, limit)
    if blob is not None:
        with contextlib.suppress(DecodeError):
            value = codec.loads(blob, key)
            with contextlib.suppress(OSError):
                os.utime(path, follow_symlinks=False)
            return value
    if os.path.lexists(path):  # (in a folder of ours: ours to remove)
        with contextlib.suppress(OSError):
            os.unlink(path)
    return None


def store_file(path: str, codec: Codec, value: Any, key: bytes) -> bool:
    """Write `value` to `path` under `key`: its folder made (0700) or checked by `private_dir`,
    the file written by `write_private` (a new 0600 file renamed into place: a link there is
    replaced, never followed). False when it could not be (a refused folder, a full disk, a value
    of a type the codec does not know: the cache only costs speed then)."""
    try:
        data = codec.dumps(value, key)
        private_dir(os.path.dirname(path))
        write_private(path, data)
    except (OSError, TypeError):
        return False
    return True
