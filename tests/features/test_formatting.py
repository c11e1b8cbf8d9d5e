"""Formatting: exact output on messy hand-written text, and on every real kernel and conformance
file: idempotent, the same IR (generic printout), the same comments in the same order.
"""

from __future__ import annotations

import pathlib
import random
import re

import pytest

from tile_lsp.compiler.frontend import SPLIT_MARKER, parse_text, split_chunks
from tile_lsp.compiler.syntax.printer import Printer
from tile_lsp.features.formatting import format_text

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT.parent / "shared" / "conformance" / "cuda_tile"
CORPUS = sorted((ROOT / "tests" / "data" / "cutile").glob("*.mlir")) + sorted(
    p for p in (ROOT / "examples").glob("*.mlir") if "cuda_tile" in p.read_text() or "entry @" in p.read_text()
)
BROKEN = {"broken.mlir"}  # examples that do not parse: left alone


def test_upstream_dialect_files_are_left_alone():
    """The formatter is cuda_tile's; an upstream gpu-dialect file gets no edits (not a mangled one)."""
    assert format_text((ROOT / "examples" / "block_sum.mlir").read_text()) is None


def generic_ir(text: str) -> str:
    split = bool(SPLIT_MARKER.search(text))
    results = parse_text(text, split=split)
    assert all(r.module is not None for r in results)
    return "\n// -----\n".join(Printer(generic=True).module_text(r.module) for r in results if r.module is not None)


def comments(text: str) -> list[str]:
    """`//` comments outside string literals, trailing blanks dropped (a second, independent scan)."""
    out = []
    for line in text.splitlines():
        code = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: " " * len(m.group()), line)
        at = code.find("//")
        if at >= 0:
            out.append(line[at:].rstrip())
    return out


def assert_safe(text: str) -> str:
    out = format_text(text)
    assert out is not None
    assert format_text(out) == out, "formatting is not idempotent"
    assert generic_ir(out) == generic_ir(text)
    assert comments(out) == comments(text)
    assert not any(line != line.rstrip() for line in out.splitlines()), "trailing whitespace left"
    return out


# -- exact output --------------------------------------------------------------------------------

MESSY = """

// header comment\t
cuda_tile.module   @m{
entry @k(%a :tile<4x8xf32>,%p: tile<ptr<f32>>)   {
\t%b=addf %a,%a:tile<4x8xf32>   // trailing\t
      %c = constant < f32: [1.0, 2.0] >  :  tile<2xf32>



   %t = make_token : token
  %c0 = constant <i32: 0> : tile<i32>
  // own-line comment
        %r = for %i in ( %c0 to %c0 , step %c0 ) : tile<i32> iter_values(%x=%a) -> (tile<4x8xf32>) {
  continue %x : tile<4x8xf32>
      }
 return
  }
    }


"""

MESSY_FORMATTED = """// header comment
cuda_tile.module @m {
  entry @k(%a: tile<4x8xf32>, %p: tile<ptr<f32>>) {
    %b = addf %a, %a : tile<4x8xf32>  // trailing
    %c = constant <f32: [1.0, 2.0]> : tile<2xf32>

    %t = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    // own-line comment
    %r = for %i in (%c0 to %c0, step %c0) : tile<i32> iter_values(%x = %a) -> (tile<4x8xf32>) {
      continue %x : tile<4x8xf32>
    }
    return
  }
}
"""


def test_messy_module():
    assert format_text(MESSY) == MESSY_FORMATTED
    assert_safe(MESSY)


def test_bare_entry_with_tabs_and_quirks():
    text = (
        "entry @k(%p: tile<ptr<f32>>,%n: tile<i32>) {\n"
        "\t%t = make_token : token\n"
        "\t%v = make_tensor_view %p, shape = [%n,%n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>\n"
        "\t%pv = make_partition_view %v : partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>>\n"
        "  %c = constant <f32: [1.0, 2.0]>: tile<2xf32>   \n"
        "\t%d = negf %c  : tile<2xf32>\n"
        "return\n"
        "}"
    )
    assert format_text(text) == (
        "entry @k(%p: tile<ptr<f32>>, %n: tile<i32>) {\n"
        "  %t = make_token : token\n"
        "  %v = make_tensor_view %p, shape = [%n, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>\n"
        "  %pv = make_partition_view %v : partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>>\n"
        "  %c = constant <f32: [1.0, 2.0]> : tile<2xf32>\n"
        "  %d = negf %c : tile<2xf32>\n"
        "  return\n"
        "}\n"
    )


def test_spelling_inside_types_kept():
    """`token=%0`, `dim=1`, `strides=[?,1]` and string literals stay exactly as written."""
    text = (
        "entry @k(%p: tile<32xptr<i32>>) {\n"
        "    %t = make_token : token\n"
        "    %v, %t2 = load_ptr_tko weak %p token=%t : tile<32xptr<i32>> -> tile<32xi32>, token\n"
        "    %s = reduce %v dim=0 identities=[0 : i32] : tile<32xi32> -> tile<i32>\n"
        "    (%a: tile<i32>, %b: tile<i32>) {\n"
        "      %x = addi %a, %b : tile<i32>\n"
        "      yield %x : tile<i32>\n"
        "    }\n"
        '    print_tko "a  //  b %d\\n", %s : tile<i32> -> token\n'
        "}\n"
    )
    out = assert_safe(text)
    assert "token=%t :" in out and "dim=0 identities=[0 : i32]" in out
    assert '"a  //  b %d\\n"' in out
    assert out.splitlines()[1] == "  %t = make_token : token"


def test_continuation_lines_keep_their_offset():
    text = (
        "testing$func @f(%p: !cuda_tile.tile<16xptr<f32>>) {\n"
        "      %t = make_token : token\n"
        "      %v, %t2 = load_ptr_tko weak %p token = %t\n"
        "        : tile<16xptr<f32>> -> tile<16xf32>, token\n"
        "}\n"
    )
    assert format_text(text) == (
        "testing$func @f(%p: !cuda_tile.tile<16xptr<f32>>) {\n"
        "  %t = make_token : token\n"
        "  %v, %t2 = load_ptr_tko weak %p token = %t\n"
        "    : tile<16xptr<f32>> -> tile<16xf32>, token\n"
        "}\n"
    )


def test_wrapped_lines_left_of_their_statement():
    """Wrapped lines keep their offset from the statement; ones left of it get 4 more columns."""
    text = "  testing$func @f(\n// the input\n%a: tile<f32>,\n      %b: tile<f32>\n) {\n  return\n}\n"
    assert format_text(text) == (
        "testing$func @f(\n    // the input\n    %a: tile<f32>,\n    %b: tile<f32>\n) {\n  return\n}\n"
    )


def test_reduce_region_arguments_stay_where_nvidia_puts_them():
    text = (
        "entry @k() {\n"
        "    %a = constant <f32: [1.0, 2.0]> : tile<2xf32>\n"
        "    %s = reduce %a dim=0 identities=[0.000000e+00 : f32] : tile<2xf32> -> tile<f32>\n"
        "    (%x: tile<f32>, %y: tile<f32>) {\n"
        "        %z = addf %x, %y : tile<f32>\n"
        "        yield %z : tile<f32>\n"
        "    }\n"
        "}\n"
    )
    assert format_text(text) == text.replace("    ", "  ")


def test_generic_form_block_labels():
    text = (
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n"
        '"cuda_tile.if"(%c) ({\n'
        "^bb0:\n"
        '      "cuda_tile.yield"() : () -> ()\n'
        "}, {\n"
        '"cuda_tile.yield"() : () -> ()\n'
        "}) : (!cuda_tile.tile<i1>) -> ()\n"
    )
    assert format_text(text) == (
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n"
        '"cuda_tile.if"(%c) ({\n'
        "^bb0:\n"
        '  "cuda_tile.yield"() : () -> ()\n'
        "}, {\n"
        '  "cuda_tile.yield"() : () -> ()\n'
        "}) : (!cuda_tile.tile<i1>) -> ()\n"
    )


def test_crlf_kept():
    text = "entry @k() {\r\n    return\r\n}\r\n"
    assert format_text(text) == "entry @k() {\r\n  return\r\n}\r\n"


def test_already_formatted_is_unchanged():
    text = "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n"
    assert format_text(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "entry @k() {\n  %b = addff %a : tile<f32>\n}\n",  # parse error
        "entry @k() {\n  return\n",  # unbalanced
        "entry @k() {\n  %a = constant <f32: 1.0> : tile<f32>\n  %b = negf %aa : tile<f32>\n}\n",
        "entry @k() { return } \x01\n",  # binary junk
    ],
)
def test_unformattable_text_is_left_alone(text):
    assert format_text(text) is None


def test_verifier_errors_do_not_block_formatting():
    text = "entry @k() {\n%a = constant <f32: 1.0> : tile<f32>\n%b = addf %a, %a : tile<f32>\n}\n"
    assert format_text(text) == (
        "entry @k() {\n  %a = constant <f32: 1.0> : tile<f32>\n  %b = addf %a, %a : tile<f32>\n}\n"
    )


def test_comment_that_would_become_a_split_marker_is_refused():
    """Moving `// -----` to column 0 would split the file: the result is checked and refused."""
    text = "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n  // -----\n"
    assert format_text(text) is None


# -- the corpus ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_real_kernels(path):
    text = path.read_text()
    if path.name in BROKEN:
        assert format_text(text) is None
        return
    out = assert_safe(text)
    # NVIDIA's own printout only changes where tileirdisasm doubles a space.
    for before, after in zip(text.splitlines(), out.splitlines()):
        assert after == re.sub(r"(\S)  +", r"\1 ", before).rstrip()


def _perturb(text: str, rng: random.Random) -> str:
    """The same text with messier whitespace: wider gaps, tabs, trailing blanks, more blank lines,
    every line shifted right by the same amount (wrapped lines keep their offsets)."""
    shift = rng.choice(["", " ", "\t", "   "])
    lines = []
    for line in text.split("\n"):
        if not line.strip():
            lines.extend([""] * rng.randint(1, 3))
            continue
        parts = re.split(r'("(?:[^"\\]|\\.)*")', line.lstrip(" "))  # string literals stay as they are
        body = "".join(
            p if i % 2 else re.sub(r"(?<=\S) (?=\S)", lambda _: rng.choice([" ", "  ", "\t", " \t "]), p)
            for i, p in enumerate(parts)
        )
        lines.append(shift + line[: len(line) - len(line.lstrip(" "))] + body + rng.choice(["", " ", "\t"]))
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["control_flow.mlir", "prefix_scan.g.mlir", "attention.mlir", "debug_print.mlir"])
def test_messier_whitespace_formats_the_same(name):
    text = (ROOT / "tests" / "data" / "cutile" / name).read_text()
    rng = random.Random(name)
    expected = format_text(text)
    for _ in range(2):
        assert format_text(_perturb(text, rng)) == expected


def _conformance_chunks() -> list[tuple[str, str]]:
    if not CONFORMANCE.is_dir():
        return []
    out = []
    for path in sorted(CONFORMANCE.rglob("*.mlir")):
        text = path.read_text()
        for i, span in enumerate(split_chunks(text)):
            chunk = text[span.start : span.end]
            if "expected-" not in chunk and chunk.strip() and all(r.ok for r in parse_text(chunk)):
                out.append((f"{path.name}#{i}", chunk))
    return out


CHUNKS = _conformance_chunks()


@pytest.mark.parametrize("chunk", [c for _, c in CHUNKS] or [None], ids=[n for n, _ in CHUNKS] or ["missing"])
def test_conformance_chunks(chunk):
    if chunk is None:
        pytest.skip("../shared/conformance is not present")
    assert_safe(chunk)


def test_conformance_whole_files(shared):
    """Whole valid files (with `// -----` splits) format chunk by chunk."""
    done = 0
    for path in sorted((shared / "conformance" / "cuda_tile").rglob("*.mlir")):
        text = path.read_text()
        if "expected-" in text or not all(r.ok for r in parse_text(text, split=True)):
            continue  # lit tests of errors, and FileCheck-only negative tests
        assert_safe(text)
        done += 1
    assert done >= 10


def test_big_texts_are_checked_by_tokens_and_comments(monkeypatch: pytest.MonkeyPatch):
    """Above IR_CHECK_LIMIT the result is proven by its tokens and comments only (one parse,
    no printouts): the same result as with the IR check, at a fraction of the time."""
    from tile_lsp.features import formatting

    kernel = (ROOT / "tests" / "data" / "cutile" / "layernorm.mlir").read_text(encoding="utf-8")
    entries = re.findall(r"^entry @.*?^}\n", kernel, re.M | re.S)
    messy = "".join(e.replace("  %", "      %", 3).replace(" = ", "   =  ", 5) for e in entries)
    copies = formatting.IR_CHECK_LIMIT // len(messy) + 1
    text = "".join(re.sub(r"^entry @(\w+)", rf"entry @\g<1>_{i}", messy, flags=re.M) for i in range(copies))
    assert len(text) > formatting.IR_CHECK_LIMIT
    monkeypatch.setattr(formatting, "IR_CHECK_LIMIT", len(text))
    checked = format_text(text)
    monkeypatch.setattr(formatting, "IR_CHECK_LIMIT", len(text) - 1)
    printed = []
    real = formatting._ir_text
    monkeypatch.setattr(formatting, "_ir_text", lambda t, p=True, **kw: printed.append(p) or real(t, p, **kw))
    fast = format_text(text)
    assert checked is not None and checked != text and fast == checked
    assert printed == [False]  # one parse, nothing printed
