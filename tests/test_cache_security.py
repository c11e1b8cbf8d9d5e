"""The on-disk caches (`$XDG_CACHE_HOME/tile-lsp/units` and `.../libdevice`) are data, never code:
a planted pickle does not run, a folder someone else can write is refused with one message (and
the compile runs without it), a damaged or swapped file is a miss, a planted link is not
followed, and a unit read back from disk gives the compile it was written by (issue 26)."""

from __future__ import annotations

import json
import os
import pathlib
import pickle
import shutil
import stat
import zlib
from typing import Any

import pytest

from tile_lsp import background, cli_compile
from tile_lsp.cli import main
from tile_lsp.compiler.backend import cuda_tools
from tile_lsp.compiler.backend.ptxas import find_ptxas
from tile_lsp.compiler.entry_cache import EntryCache
from tile_lsp.compiler.target import CompileOptions, Target

DATA = pathlib.Path(__file__).resolve().parent / "data" / "cutile"
HAS_TOOLS = find_ptxas(CompileOptions(target=Target(90))) is not None and cuda_tools.find_libdevice() is not None
needs_tools = pytest.mark.skipif(not HAS_TOOLS, reason="needs ptxas and libdevice")


class _Planted:
    """A pickle that creates `marker` when it is loaded."""

    def __init__(self, marker: pathlib.Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (open, (str(self.marker), "w"))


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """No unit or trimmed libdevice left in this process's memory from another test."""
    from tile_lsp.compiler.backend import llvm

    monkeypatch.setattr(cli_compile, "_CACHES", {})
    monkeypatch.setattr(llvm, "_TRIMMED", {})
    monkeypatch.setattr(cuda_tools, "_TRIM_DIRECTORY", None)


def _forget() -> None:
    """What a new `tile-lsp compile` process starts with: nothing in memory."""
    from tile_lsp.compiler.backend import llvm

    cli_compile._CACHES.clear()
    llvm._TRIMMED.clear()


@pytest.fixture
def kernel(tmp_path: pathlib.Path) -> pathlib.Path:
    # Two entries (f32 and f16), an `fma` each; the f16 one goes through f32 math.
    path = tmp_path / "vector_add.mlir"
    shutil.copyfile(DATA / "vector_add.mlir", path)
    text = path.read_text()
    # A libdevice function too, so that the trimmed-libdevice cache is used.
    path.write_text(text.replace("%1 = fma %bcast, %tile, %tile_10  : tile<1024xf32>",
                                 "%e = exp %tile : tile<1024xf32>\n  %1 = fma %bcast, %e, %tile_10  : tile<1024xf32>", 1))
    return path


def _compile(kernel: pathlib.Path, home: pathlib.Path, capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict, str, str]:
    """`tile-lsp compile` with $XDG_CACHE_HOME=home: (exit status, JSON report, stderr, PTX)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    out = kernel.with_suffix(".ptx")
    if out.exists():
        out.unlink()
    code = main(["compile", str(kernel), "--gpu-name", "sm_90a", "--format", "json", "-o", str(out)])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err, out.read_text() if out.exists() else ""


def _files(root: pathlib.Path, suffix: str) -> list[pathlib.Path]:
    return sorted(p for p in root.rglob(f"*{suffix}") if p.is_file() and not p.is_symlink())


@needs_tools
def test_a_planted_pickle_never_runs(tmp_path: pathlib.Path, kernel: pathlib.Path, fresh: None,
                                      capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "cache"
    code, _, _, ptx = _compile(kernel, home, capsys, monkeypatch)
    assert code == 0 and ".entry" in ptx
    units, trims = _files(home, ".unit"), _files(home, ".trim")
    assert len(units) == 2 and trims
    marker = tmp_path / "marker"
    for path in (*units, *trims):  # each cache file swapped for code that would run when loaded
        planted = pickle.dumps(_Planted(marker))
        path.write_bytes(zlib.compress(planted) if path.suffix == ".unit" else planted)  # (as each was read)
    _forget()
    again_code, report, err, again = _compile(kernel, home, capsys, monkeypatch)
    assert not marker.exists()
    assert again_code == 0 and again == ptx and report["units"]["from_disk"] == 0
    assert "warning" not in err
    # the planted files were dropped and the compiled units written in their place
    for path in units:
        assert b"tile-lsp" in path.read_bytes()[:32]


@needs_tools
@pytest.mark.parametrize("folder", ["tile-lsp", "tile-lsp/units", "tile-lsp/libdevice"])
def test_a_folder_others_can_write_is_refused_and_the_compile_runs_without_it(
        tmp_path: pathlib.Path, kernel: pathlib.Path, fresh: None, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, folder: str) -> None:
    home = tmp_path / "cache"
    (home / folder).mkdir(parents=True)
    os.chmod(home / folder, 0o777)  # (another user made it, for us to fill)
    code, report, err, ptx = _compile(kernel, home, capsys, monkeypatch)
    assert code == 0 and ".entry" in ptx and report["diagnostics"] == []
    lines = [line for line in err.splitlines() if "cache" in line]
    assert lines == [f"tile-lsp: warning: cache folder {home / folder} is writable by other users (mode 0777); "
                     "refusing to use it (chmod go-w it, or remove it); running without the disk cache"]
    assert not _files(home, ".unit") and not _files(home, ".trim")
    _forget()
    code, report, err, again = _compile(kernel, home, capsys, monkeypatch)  # the next one says it again
    assert code == 0 and again == ptx and report["units"]["from_disk"] == 0
    assert len([line for line in err.splitlines() if "cache folder" in line]) == 1


@needs_tools
@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another uid needs root")
def test_a_folder_owned_by_another_user_is_refused(tmp_path: pathlib.Path, kernel: pathlib.Path, fresh: None,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "cache"
    code, _, _, ptx = _compile(kernel, home, capsys, monkeypatch)  # filled by us
    units = home / "tile-lsp" / "units"
    for path in [units, *units.rglob("*")]:
        os.chown(path, 1001, 1001)  # ... and then handed to another user (mode 0700 / 0600 kept)
    _forget()
    code, report, err, again = _compile(kernel, home, capsys, monkeypatch)
    assert code == 0 and again == ptx and report["units"]["from_disk"] == 0
    assert [line for line in err.splitlines() if "cache" in line] == [
        f"tile-lsp: warning: cache folder {units} is owned by uid 1001, not by this user (0); refusing to use it; "
        "running without the disk cache"]


@needs_tools
def test_a_damaged_or_swapped_cache_file_is_a_miss(tmp_path: pathlib.Path, kernel: pathlib.Path, fresh: None,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "cache"
    code, _, _, ptx = _compile(kernel, home, capsys, monkeypatch)
    first, second = _files(home, ".unit")
    a, b = first.read_bytes(), second.read_bytes()
    # the two units' files swapped (each a whole, well-formed file of the other entry)
    first.write_bytes(b)
    second.write_bytes(a)
    _forget()
    code, report, _, again = _compile(kernel, home, capsys, monkeypatch)
    assert code == 0 and again == ptx and report["units"]["from_disk"] == 0
    # truncated, and one byte changed in the middle
    a, b = first.read_bytes(), second.read_bytes()
    first.write_bytes(a[: len(a) // 2])
    second.write_bytes(b[: len(b) // 2] + bytes([b[len(b) // 2] ^ 1]) + b[len(b) // 2 + 1 :])
    _forget()
    code, report, _, again = _compile(kernel, home, capsys, monkeypatch)
    assert code == 0 and again == ptx and report["units"]["from_disk"] == 0
    _forget()
    code, report, _, again = _compile(kernel, home, capsys, monkeypatch)  # rewritten whole
    assert code == 0 and again == ptx and report["units"]["from_disk"] == 2


def test_a_damaged_file_is_a_miss_and_removed(tmp_path: pathlib.Path) -> None:
    key = "ab" + "1" * 62
    cache = EntryCache(directory=str(tmp_path))
    cache.put(key, {"unit": b"\x00" * 100})
    (path,) = _files(tmp_path, ".unit")
    assert EntryCache(directory=str(tmp_path)).get(key) == ({"unit": b"\x00" * 100}, "disk")
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 0x40]))
    assert EntryCache(directory=str(tmp_path)).get(key) == (None, "")
    assert not path.exists()


@needs_tools
def test_a_planted_link_is_not_followed(tmp_path: pathlib.Path, kernel: pathlib.Path, fresh: None,
                                        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "cache"
    code, _, _, ptx = _compile(kernel, home, capsys, monkeypatch)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    units, trims = _files(home, ".unit"), _files(home, ".trim")
    pid = os.getpid()
    for path in (*units, *trims):
        path.unlink()
        # a link at the file itself and at each temporary name a write could use
        for name in (path.name, f"{path.name}.{pid}.tmp", f".{path.name}.{pid}.0.tmp"):
            (path.parent / name).symlink_to(victim)
    # one unit's subfolder replaced by a link to a folder of someone else's
    moved = units[0].parent
    shutil.rmtree(moved)
    moved.symlink_to(elsewhere, target_is_directory=True)
    _forget()
    code, report, _, again = _compile(kernel, home, capsys, monkeypatch)
    assert code == 0 and again == ptx and report["units"]["from_disk"] == 0
    assert victim.read_text() == "precious"
    assert list(elsewhere.iterdir()) == []
    for path in (units[1], *trims):  # written in place of the link, not through it
        assert path.is_file() and not path.is_symlink()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


@needs_tools
def test_a_unit_read_back_from_disk_is_the_compile_that_wrote_it(tmp_path: pathlib.Path, fresh: None) -> None:
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText

    text = (DATA / "attention.mlir").read_text()
    options = CompileOptions(target=Target(90, "a"))
    cache = EntryCache(directory=str(tmp_path / "units"))
    first = compile_source(SourceText(text, "attention.mlir"), options, "ptx", cache=cache)
    assert first.ok and first.unit_stats is not None and len(first.unit_stats.compiled) == 2
    again = compile_source(SourceText(text, "attention.mlir"), options, "ptx",
                           cache=EntryCache(directory=str(tmp_path / "units")))
    assert again.unit_stats is not None and len(again.unit_stats.from_disk) == 2
    assert again.stage("ptx").text == first.stage("ptx").text  # type: ignore[union-attr]
    assert again.diagnostics == first.diagnostics
    assert again.kernels == first.kernels and again.layouts == first.layouts
    assert again.ptxas_command == first.ptxas_command
    for a, b in zip(first.stages, again.stages, strict=True):
        assert (a.name, a.text, a.located_text, a.data) == (b.name, b.text, b.located_text, b.data)
        assert a.line_refs == b.line_refs
    # each unit, as stored
    for path in _files(tmp_path / "units", ".unit"):
        key = path.parent.name + path.stem
        assert EntryCache(directory=str(tmp_path / "units")).get(key)[0] == cache.get(key)[0]


def test_the_language_server_workers_refuse_an_open_cache_folder(tmp_path: pathlib.Path, fresh: None,
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "cache"
    (home / "tile-lsp").mkdir(parents=True)
    os.chmod(home / "tile-lsp", 0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(background, "_UNIT_CACHE", None)
    cache = background._unit_cache()
    assert background._unit_cache() is cache  # (made once per worker)
    assert cache.directory is None and cuda_tools.trim_directory() is None
    err = capsys.readouterr().err
    assert err.count("cache folder") == 1 and "running without the disk cache" in err
    monkeypatch.setattr(background, "_UNIT_CACHE", None)
    os.chmod(home / "tile-lsp", 0o700)
    cache = background._unit_cache()
    assert cache.directory == str(home / "tile-lsp" / "units")
    assert cuda_tools.trim_directory() == str(home / "tile-lsp" / "libdevice")
    assert capsys.readouterr().err == ""


# -- the codec --------------------------------------------------------------------------------


def _codec():  # type: ignore[no-untyped-def]
    from tile_lsp.compiler.entry_cache import _unit_codec

    return _unit_codec()


def test_the_codec_rebuilds_values_and_their_sharing() -> None:
    from tile_lsp.compiler.diagnostics import Diagnostic, Related, Severity
    from tile_lsp.compiler.provenance import SourceRef
    from tile_lsp.compiler.source import Span

    ref = SourceRef("k.mlir", 3, 2, 40, Span(40, 52))
    value = {
        "refs": [None, ref, ref, None] * 10 + [SourceRef("k.mlir", 4, 0)],  # (a long list of few objects)
        "diag": Diagnostic(Span(1, 2), Severity.WARNING, "w", "ptxas", (Related(Span(3, 4), "here"),)),
        "layout": ((0, 0), (10, 1)),
        7: {1: 2.5, 2: b"\x00\xff", 3: True, 4: None, 5: ("", "[]", "x")},
    }
    codec = _codec()
    again = codec.loads(codec.dumps(value, b"k"), b"k")
    assert again == value
    assert again["refs"][1] is again["refs"][2]  # one object, as written
    assert type(again["layout"]) is tuple and type(again["diag"].severity) is Severity


def test_the_codec_refuses_what_it_did_not_write() -> None:
    import marshal

    from tile_lsp.compiler.safe_codec import DecodeError

    codec = _codec()
    blob = codec.dumps({"a": 1}, b"key")
    with pytest.raises(DecodeError):
        codec.loads(blob, b"another key")  # moved or swapped
    with pytest.raises(DecodeError):
        codec.loads(pickle.dumps({"a": 1}), b"key")  # the old format, or a planted pickle
    with pytest.raises(DecodeError):
        codec.loads(blob.replace(b":unit:", b":trim:"), b"key")  # another kind of file
    with pytest.raises(TypeError):
        codec.dumps(_Planted(pathlib.Path("x")))  # a class it was not given

    def sealed(plain: Any) -> bytes:  # a well-formed file (a right digest) around `plain`
        payload = zlib.compress(marshal.dumps(plain))
        return codec.header + codec._digest(b"key", payload) + payload

    assert codec.loads(sealed(("UnitResult", ("",), [], [], {}, None, 0.5, {}, None)), b"key").seconds == 0.5
    for plain in [
        ("Popen", "rm -rf ~"),  # a class it was not given
        ("UnitResult", ()),  # fields missing
        ("Span", 1, 2, 3),  # one too many
        (lambda: 0).__code__,  # code (marshal can hold it: never rebuilt)
        {1, 2},  # a set
        [("", 1), ...],  # Ellipsis
        {("", 1): 2},  # a key that is not a scalar
        (),
        ("[]", [("Span", 1, 2)], [1, 2]),  # an index past the shared table
    ]:
        with pytest.raises(DecodeError):
            codec.loads(sealed(plain), b"key")


def test_the_codec_writes_a_long_line_map_by_columns() -> None:
    """A line map (a long list of few distinct refs) is its distinct refs by field, and indices."""
    from tile_lsp.compiler.provenance import SourceRef
    from tile_lsp.compiler.safe_codec import DecodeError
    from tile_lsp.compiler.source import Span

    refs = [SourceRef("k.mlir", i, 0, 10 * i, Span(10 * i, 10 * i + 5) if i % 2 else None) for i in range(6)]
    lines = [refs[i % 6] if i % 3 else None for i in range(60)]
    codec = _codec()
    plain = codec.encode(lines)
    assert plain[0] == "[]" and plain[1][:2] == ("[]columns", "SourceRef") and len(plain[2]) == 60
    assert plain[1][2] == ["k.mlir"] * 4 and plain[1][3] == [1, 2, 4, 5]  # (refs 0 and 3 are not used)
    again = codec.decode(plain)
    assert again == lines and again[1] is again[7]
    for bad in [(*plain[1][:2], *plain[1][2:5]), (*plain[1][:3], plain[1][3][:-1], *plain[1][4:]),
                ("[]columns", "Popen", ["x"])]:
        with pytest.raises(DecodeError):
            codec.decode(("[]", bad, plain[2]))
