"""Screenshot Neovim + the tile-lsp plugin showing a diagnostic and a hover (dev tool, not a test).

Needs `nvim` and `tmux` on PATH (Debian: `apt-get install -y neovim tmux`) and Pillow, which is
not a project dependency; use a throwaway venv:

    python3 -m venv /tmp/shotvenv && /tmp/shotvenv/bin/pip install pillow
    /tmp/shotvenv/bin/python scripts/nvim_screenshot.py [-o docs/nvim-diagnostic-hover.png]

It copies tests/data/cutile/vector_add.mlir to a temporary directory, breaks a value name
(`%bcast` -> `%bcastx`), opens it in nvim inside a detached tmux session with editors/nvim
on the runtimepath and the server run as `<this repo's .venv python> -m tile_lsp serve`,
waits for the diagnostic, presses K (mapped to vim.lsp.buf.hover) on the `fma` op, captures
the pane with `tmux capture-pane -e -p` and renders the ANSI text to a PNG.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
COLS, ROWS = 132, 34
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
FG, BG = (220, 220, 220), (24, 24, 28)
BASE16 = [
    (0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188), (17, 168, 205),
    (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67), (59, 142, 234),
    (214, 112, 214), (41, 184, 219), (255, 255, 255),
]  # fmt: skip

INIT = """
vim.opt.runtimepath:prepend({plugin})
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
vim.opt.termguicolors = false
vim.opt.background = 'dark'
vim.opt.number = true
vim.opt.signcolumn = 'yes'
vim.opt.wrap = false
vim.cmd('highlight NormalFloat ctermbg=236 ctermfg=252')
vim.keymap.set('n', 'K', vim.lsp.buf.hover)
require('tile_lsp').setup({{ cmd = {{ {cmd} }} }})
"""


def color256(n: int) -> tuple[int, int, int]:
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return steps[n // 36], steps[(n // 6) % 6], steps[n % 6]
    v = 8 + (n - 232) * 10
    return v, v, v


def parse_ansi(text: str) -> list[list[tuple[str, tuple, tuple, bool, bool]]]:
    """Lines of (char, fg, bg, bold, underline) cells from tmux's `capture-pane -e` output."""
    rows: list[list[tuple[str, tuple, tuple, bool, bool]]] = []
    fg, bg, bold, under, rev = None, None, False, False, False
    for raw in text.split("\n")[:ROWS]:
        cells: list[tuple[str, tuple, tuple, bool, bool]] = []
        for tok in re.split(r"(\x1b\[[0-9;:]*m)", raw):
            if tok.startswith("\x1b["):
                codes = [int(c) if c else 0 for c in re.split(r"[;:]", tok[2:-1])] or [0]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        fg, bg, bold, under, rev = None, None, False, False, False
                    elif c == 1:
                        bold = True
                    elif c == 4:
                        under = True
                    elif c == 7:
                        rev = True
                    elif c == 22:
                        bold = False
                    elif c == 24:
                        under = False
                    elif c == 27:
                        rev = False
                    elif 30 <= c <= 37:
                        fg = BASE16[c - 30]
                    elif 90 <= c <= 97:
                        fg = BASE16[c - 90 + 8]
                    elif 40 <= c <= 47:
                        bg = BASE16[c - 40]
                    elif 100 <= c <= 107:
                        bg = BASE16[c - 100 + 8]
                    elif c == 39:
                        fg = None
                    elif c == 49:
                        bg = None
                    elif c in (38, 48) and i + 1 < len(codes):
                        if codes[i + 1] == 5 and i + 2 < len(codes):
                            col = color256(codes[i + 2])
                            i += 2
                        elif codes[i + 1] == 2 and i + 4 < len(codes):
                            col = (codes[i + 2], codes[i + 3], codes[i + 4])
                            i += 4
                        else:
                            col = None
                        if c == 38:
                            fg = col
                        else:
                            bg = col
                    i += 1
                continue
            for ch in tok:
                f, b = fg or FG, bg or BG
                if rev:
                    f, b = b, f
                cells.append((ch, f, b, bold, under))
        rows.append(cells)
    return rows


def render(text: str, out: Path) -> None:
    font = ImageFont.truetype(FONT, 15)
    bold_font = ImageFont.truetype(FONT_BOLD, 15)
    cw = int(font.getlength("M"))
    ch = 19
    img = Image.new("RGB", (COLS * cw + 16, ROWS * ch + 16), BG)
    draw = ImageDraw.Draw(img)
    for y, cells in enumerate(parse_ansi(text)):
        for x, (c, f, b, bold, under) in enumerate(cells):
            px, py = 8 + x * cw, 8 + y * ch
            if b != BG:
                draw.rectangle([px, py, px + cw - 1, py + ch - 1], fill=b)
            if c != " ":
                draw.text((px, py + 1), c, font=bold_font if bold else font, fill=f)
            if under:
                draw.line([px, py + ch - 2, px + cw - 1, py + ch - 2], fill=f)
    img.save(out)


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", type=Path, default=ROOT / "docs" / "nvim-diagnostic-hover.png")
    ap.add_argument("--ansi", type=Path, help="also save the captured ANSI text here")
    args = ap.parse_args()
    for tool in ("nvim", "tmux"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed")
    python = ROOT / ".venv" / "bin" / "python"
    cmd = [str(python if python.exists() else shutil.which("python3")), "-m", "tile_lsp", "serve"]
    session = f"tile-lsp-shot-{int(time.time())}"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / ".git").mkdir()
        text = (ROOT / "tests" / "data" / "cutile" / "vector_add.mlir").read_text()
        (work / "vector_add.mlir").write_text(text.replace("fma %bcast,", "fma %bcastx,", 1))
        init = work / "init.lua"
        init.write_text(INIT.format(plugin=json.dumps(str(ROOT / "editors" / "nvim")), cmd=json.dumps(cmd)[1:-1]))
        nvim = f"nvim --clean -u {init} -c 'call cursor(22, 9)' vector_add.mlir"
        tmux("-2", "new-session", "-d", "-s", session, "-x", str(COLS), "-y", str(ROWS), "-c", tmp,
             f"env TERM=tmux-256color XDG_CACHE_HOME={tmp} XDG_STATE_HOME={tmp} {nvim}")  # fmt: skip
        try:
            time.sleep(4)  # server start, first analysis, diagnostics
            tmux("send-keys", "-t", session, "K")
            time.sleep(1.5)
            captured = tmux("capture-pane", "-e", "-p", "-N", "-t", session)
        finally:
            subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    if args.ansi:
        args.ansi.write_text(captured)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    render(captured, args.output)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
