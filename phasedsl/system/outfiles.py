"""Every file the command line writes: whole or not at all, and never over a record.

A file is written to a temporary file in its own folder, synced, and renamed into place:
a failed write (a full disk, an interrupt) leaves the old file whole and no partial file
beside it.  An existing file (or a symlink, followed by nothing here) is replaced only
when the caller says ``force``; without it the error says how.  Renaming over a symlink
replaces the link itself, so a link planted where a log goes never redirects the write.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from ..errors import PhaseDSLError
from .interrupts import hold, release


class OutputError(PhaseDSLError):
    """A file (or the standard output) that cannot be written."""


def _why(e: BaseException) -> str:
    return getattr(e, "strerror", None) or str(e)


def check_target(path: Path | str, force: bool) -> Path:
    """Refuse, before any work, a file that cannot be written where it is named: a folder,
    a file in a folder that does not exist or takes no new file, a device or pipe (never
    replaced, even with ``force``), or an existing file without ``force``."""
    if str(path) == "":  # (Path("") is the current folder)
        raise OutputError("cannot write '': an empty name names no file")
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except (OSError, ValueError) as e:  # a NUL in the name, a name too long
        raise OutputError(f"cannot write {str(path)!r}: {_why(e)}") from None
    try:
        parent_ok = path.parent.is_dir()
    except (OSError, ValueError) as e:
        raise OutputError(f"cannot write {str(path)!r}: {_why(e)}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"cannot write {path}: it is a folder; name a file")
    if not parent_ok:
        raise OutputError(f"cannot write {path}: there is no folder {path.parent}")
    if st is not None and not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        raise OutputError(f"cannot write {path}: it is not a regular file")
    if st is not None and not force:
        raise OutputError(exists_message(path))
    _can_make_in(path)
    return path


def _can_make_in(path: Path) -> None:
    """A file can be made beside ``path``: a folder that takes no new file (read-only, on a
    read-only file system, /proc) is refused before the work, not after it (a report, a
    generated pack or a balance's games are minutes of work lost at the write)."""
    fd, tmp, held = _temp_beside(path)
    os.close(fd)
    _remove(tmp)
    release(held)


def check_folder(folder: Path) -> None:
    """``folder`` takes new files (``check_target``'s probe, for a folder that will be
    written into file by file, as ``--logs DIR`` is)."""
    _can_make_in(folder / "probe")


def _temp_beside(path: Path) -> tuple[int, str, set]:
    """A new temporary file beside ``path`` (its descriptor and name), made with the
    signals held, and what ``release`` lets them in with: a Ctrl-C landing inside mkstemp,
    after it made the file but before its name came back, would leave a file no one
    removes, so the caller lets the signals in once it holds the name."""
    held = hold()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except (OSError, ValueError) as e:
        release(held)
        raise OutputError(f"cannot write {path}: {_why(e)}") from None
    return fd, tmp, held


def exists_message(path: Path | str) -> str:
    return f"{path} already exists: give --force to replace it"


def _mode() -> int:
    # what open() would have given a new file (mkstemp makes it 0600)
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def atomic(path: Path | str, force: bool = False, binary: bool = False) -> Iterator[IO]:
    """A file object whose content becomes ``path`` when the block ends without error.

    Any failure (an OSError writing, or anything raised in the block) removes the
    temporary file; an OSError is raised as OutputError naming ``path``."""
    path = Path(path)
    # (the signals let in, raised if one came, inside the block that cleans up)
    fd, tmp, held = _temp_beside(path)
    try:
        release(held)
        with contextlib.ExitStack() as stack:
            fh = (os.fdopen(fd, "wb") if binary else
                  os.fdopen(fd, "w", encoding="utf-8", newline=""))
            stack.callback(fh.close)
            yield fh
            fh.flush()
            os.fchmod(fh.fileno(), _mode())
            os.fsync(fh.fileno())
        _place(tmp, path, force)
    except OSError as e:
        _remove(tmp)
        raise OutputError(f"cannot write {path}: {_why(e)}") from None
    except BaseException:
        _remove(tmp)
        raise
    _sync_folder(path.parent)


def _place(tmp: str, path: Path, force: bool) -> None:
    if force:
        os.replace(tmp, path)  # over a symlink: the link is replaced, its target untouched
        return
    try:
        # a hard link fails if anything (a file, a dangling symlink) appeared at the
        # name since it was checked: no race replaces a record
        os.link(tmp, path, follow_symlinks=False)
    except FileExistsError:
        raise OutputError(exists_message(path)) from None
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV,
                           errno.EMLINK):
            raise
        # a file system without hard links: check, then rename
        if os.path.lexists(path):
            raise OutputError(exists_message(path)) from None
        os.replace(tmp, path)
        return
    _remove(tmp)


def _remove(tmp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _sync_folder(folder: Path) -> None:
    # the rename itself is made durable where the platform allows it
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_text(path: Path | str, text: str, force: bool = False) -> int:
    """Write ``text`` (UTF-8) to ``path`` as a whole; the number of bytes written."""
    data = text.encode("utf-8")
    with atomic(path, force, binary=True) as fh:
        fh.write(data)
    return len(data)


def write_with(path: Path | str, force: bool, draw: Callable[[IO[bytes]], None]) -> int:
    """Let ``draw`` write the file's bytes (a plot library saving a figure), as a whole;
    the number of bytes written."""
    with atomic(path, force, binary=True) as fh:
        draw(fh)
        fh.flush()
        size = os.fstat(fh.fileno()).st_size
    return size


def clear_folder(folder: Path, pattern: str) -> list[Path]:
    """Remove the files (or symlinks: the links, not their targets) of ``folder`` whose
    names match ``pattern``; a folder of that name is refused rather than touched."""
    removed = []
    for p in sorted(folder.glob(pattern)):
        if p.is_dir() and not p.is_symlink():
            raise OutputError(f"cannot replace {p}: it is a folder")
        try:
            p.unlink()
        except FileNotFoundError:
            continue
        except OSError as e:
            raise OutputError(f"cannot remove {p}: {_why(e)}") from None
        removed.append(p)
    return removed
