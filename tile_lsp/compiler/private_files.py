"""Folders and files that only this user can write: caches, scratch previews, runtime state.

Another local user can pre-create a folder we are about to use (`/tmp/...`, or a cache folder
made world-writable), plant a symbolic link where we will write, or swap a file we will read.
So every folder here is created 0700 and, when it already exists, accepted only if it is a real
directory (not a link) owned by us and writable by nobody else; files are written to a fresh
temporary name (`O_CREAT | O_EXCL | O_NOFOLLOW`, 0600) and renamed into place, and read with
`O_NOFOLLOW` and an owner check. A refused folder raises `UnsafeLocation` with one line that says
which folder and why; callers turn it into a diagnostic or run without the cache.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile


class UnsafeLocation(OSError):
    """A folder or file that someone else could write: refused, with the reason."""


def _check_dir(path: str, st: os.stat_result) -> None:
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeLocation(f"{path} is not a directory (a link or a file stands there); refusing to use it")
    if st.st_uid != os.geteuid():
        raise UnsafeLocation(f"{path} is owned by uid {st.st_uid}, not by this user ({os.geteuid()}); refusing to use it")
    if st.st_mode & 0o022:
        raise UnsafeLocation(
            f"{path} is writable by other users (mode {stat.S_IMODE(st.st_mode):04o}); refusing to use it "
            f"(chmod go-w it, or remove it)"
        )


def private_dir(path: str) -> str:
    """`path` as a folder only this user can write: created (with missing parents) 0700, or, when
    it exists, checked (a real directory, owned by this user, not group- or other-writable).
    Returns the absolute path; raises `UnsafeLocation` (or another OSError) otherwise."""
    path = os.path.abspath(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        parent = os.path.dirname(path)
        if parent != path and not os.path.isdir(parent):
            os.makedirs(parent, mode=0o700, exist_ok=True)
        with contextlib.suppress(FileExistsError):  # made meanwhile (by us or by someone else): checked below
            os.mkdir(path, 0o700)
        st = os.lstat(path)
    _check_dir(path, st)
    return path


def user_runtime_dir(*parts: str) -> str:
    """A private folder for this user's runtime state and scratch files:
    `$XDG_RUNTIME_DIR/tile-lsp/...` when that is usable, else `<tmp>/tile-lsp-<uid>/...`."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    root = None
    if base and os.path.isabs(base):
        try:
            root = private_dir(os.path.join(base, "tile-lsp"))
        except OSError:
            root = None
    if root is None:
        root = private_dir(os.path.join(tempfile.gettempdir(), f"tile-lsp-{os.geteuid()}"))
    path = root
    for part in parts:
        path = private_dir(os.path.join(path, part))
    return path


def write_private(path: str, data: bytes, mode: int = 0o600) -> str:
    """Write `data` to `path` atomically: a new file beside it (never following a link, never
    reusing a name; `mode`, default 0600) renamed over `path`. The folder must be one of ours
    (`private_dir`), unless the user named `path` (a saved file). A link planted at `path` is
    replaced, not followed; a failed write leaves the old file."""
    directory, name = os.path.split(os.path.abspath(path))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for attempt in range(100):
        tmp = os.path.join(directory, f".{name}.{os.getpid()}.{attempt}.tmp")
        try:
            fd = os.open(tmp, flags, 0o600)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"no free temporary name beside {path}")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode != 0o600:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def read_private(path: str, limit: int | None = None, *, forbidden_mode: int = 0o022) -> bytes | None:
    """The bytes of `path` if it is a regular file of this user's (not a link), none of whose
    `forbidden_mode` bits are set (default: nobody else may write it) and, with `limit`, no
    larger than that; None otherwise (missing, someone else's, a link, too big)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & forbidden_mode:
            return None
        if limit is not None and st.st_size > limit:
            return None
        with os.fdopen(fd, "rb") as f:
            fd = -1
            return f.read() if limit is None else f.read(limit + 1)[:limit]
    finally:
        if fd >= 0:
            os.close(fd)


def read_secret(path: str, limit: int = 4096) -> bytes | None:
    """The bytes of `path` if only this user can read it: a regular file of this user's (not a
    link), mode without any group or other bits (0600, 0400), at most `limit` bytes; else None."""
    return read_private(path, limit, forbidden_mode=0o077)
