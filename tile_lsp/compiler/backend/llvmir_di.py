"""Reading MLIR's `#llvm.di_*` attribute text (kept opaque by the IR) for the LLVM IR emitter.

The debug ops carry their metadata as unregistered attributes: the attribute's name
(`llvm.di_local_variable`) plus the text between its `<>`. This module turns such text into a
small tree (`DIAttr`: name, positional values, keyword fields) and resolves `#alias` references
from the alias definitions at the top of the source (`#di_file = #llvm.di_file<...>`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.ir import Attribute


@dataclass
class DIAttr:
    """`#name<positional..., key = value, ...>`; a value is a string literal (kept with its
    quotes), a bare token, a nested DIAttr, or a list of values."""

    name: str
    positional: list[object] = field(default_factory=list)
    fields: dict[str, object] = field(default_factory=dict)

    def text(self, key: str) -> str | None:
        """A string field without its quotes, or a bare token as written."""
        value = self.fields.get(key)
        if isinstance(value, str):
            return unquote(value)
        return None

    def integer(self, key: str) -> int | None:
        value = self.fields.get(key)
        if isinstance(value, str):
            try:
                return int(value, 0)
            except ValueError:
                return None
        return None

    def attr(self, key: str) -> DIAttr | None:
        value = self.fields.get(key)
        return value if isinstance(value, DIAttr) else None


_ALIAS_DEF = re.compile(r"^[ \t]*#([A-Za-z_][\w$.\-]*)[ \t]*=[ \t]*", re.MULTILINE)


def source_aliases(text: str) -> dict[str, str]:
    """`#name = <attribute text>` definitions of a source (definitions may span lines)."""
    out: dict[str, str] = {}
    for match in _ALIAS_DEF.finditer(text):
        end = _scan_value(text, match.end(), stop_at_newline=True)
        value = text[match.end() : end].strip()
        if value.startswith("#") or value.startswith("!"):
            out[match.group(1)] = value
    return out


def from_attribute(attr: Attribute | None, aliases: dict[str, str]) -> DIAttr | None:
    """The tree of an opaque `#llvm.di_*` attribute (None when it is something else)."""
    if not isinstance(attr, builtin.UnregisteredAttr):
        return None
    return parse_di(f"#{attr.attr_name.data}<{attr.value.data}>", aliases)


def parse_di(text: str, aliases: dict[str, str]) -> DIAttr | None:
    """The tree of `#name<...>` (or of an `#alias` naming one)."""
    value = _Parser(text, aliases).value()
    return value if isinstance(value, DIAttr) else None


def unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        body = text[1:-1]
        return re.sub(r"\\(\\|\"|[0-9A-Fa-f]{2})", lambda m: _unescape(m.group(1)), body)
    return text


def _unescape(code: str) -> str:
    if code in ("\\", '"'):
        return code
    return chr(int(code, 16))


class _Parser:
    def __init__(self, text: str, aliases: dict[str, str], depth: int = 0) -> None:
        self.text = text
        self.pos = 0
        self.aliases = aliases
        self.depth = depth

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def value(self) -> object:
        self.skip()
        if self.pos >= len(self.text):
            return ""
        ch = self.text[self.pos]
        if ch == '"':
            end = _string_end(self.text, self.pos)
            out = self.text[self.pos : end]
            self.pos = end
            return out
        if ch == "[":
            return self.list_value()
        if ch == "#":
            return self.attribute()
        end = _scan_value(self.text, self.pos)
        out = self.text[self.pos : end].strip()
        self.pos = end
        return out

    def list_value(self) -> list[object]:
        self.pos += 1  # [
        items: list[object] = []
        self.skip()
        if self.text.startswith("]", self.pos):
            self.pos += 1
            return items
        while self.pos < len(self.text):
            items.append(self.value())
            self.skip()
            if self.text.startswith(",", self.pos):
                self.pos += 1
                continue
            if self.text.startswith("]", self.pos):
                self.pos += 1
            break
        return items

    def attribute(self) -> object:
        match = re.compile(r"#([A-Za-z_][\w$.\-]*)").match(self.text, self.pos)
        if match is None:
            end = _scan_value(self.text, self.pos)
            out = self.text[self.pos : end]
            self.pos = end
            return out
        self.pos = match.end()
        name = match.group(1)
        if not self.text.startswith("<", self.pos):
            if name in self.aliases and self.depth < 32:
                return _Parser(self.aliases[name], self.aliases, self.depth + 1).value()
            return "#" + name
        close = _scan_value(self.text, self.pos + 1, closing=">")
        body = self.text[self.pos + 1 : close]
        self.pos = min(close + 1, len(self.text))
        return self.body(name, body)

    def body(self, name: str, body: str) -> DIAttr:
        attr = DIAttr(name)
        inner = _Parser(body, self.aliases, self.depth + 1)
        while True:
            inner.skip()
            if inner.pos >= len(body):
                break
            key = re.compile(r"([A-Za-z_]\w*)\s*=(?!=)").match(body, inner.pos)
            if key is not None:
                inner.pos = key.end()
                attr.fields[key.group(1)] = inner.value()
            else:
                start = inner.pos
                attr.positional.append(inner.value())
                if inner.pos == start:  # a token the grammar above does not know: skip it
                    inner.pos = _scan_value(body, inner.pos + 1)
            inner.skip()
            if body.startswith(",", inner.pos):
                inner.pos += 1
        return attr


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def _scan_value(text: str, start: int, *, closing: str = "", stop_at_newline: bool = False) -> int:
    """End of the value starting at `start`: the first `,` / closer at depth 0 (or `closing`)."""
    depth = 0
    i = start
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _string_end(text, i)
            continue
        if ch == "-" and text.startswith("->", i):
            i += 2  # `->` inside a type is not a closer
            continue
        if ch in "<[({":
            depth += 1
        elif ch in ">])}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and not closing and (ch == "," or (stop_at_newline and ch == "\n")):
            return i
        i += 1
    return len(text)


__all__ = ["DIAttr", "from_attribute", "parse_di", "source_aliases", "unquote"]
