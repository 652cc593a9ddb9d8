"""Writing a published site atomically: into a fresh folder beside the target, swapped in whole.

    >>> with SiteWriter(Path("site")) as w:
    ...     for item in publish(session, previous=w.previous()):
    ...         w.put(item)
    ...     w.commit()                  # until here, `site` is the previous site, untouched

While the new site is written the old one stays as it was, index.html and all. At the end the
two folders are exchanged in one step (Linux renameat2 with RENAME_EXCHANGE); where that call
does not exist, two renames follow each other, which leaves the target missing for an instant.
An interrupted publish leaves a `.NAME.publish-*` folder behind, which the next publish removes.
Files the previous site already holds unchanged are hard-linked into the new one, not written.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
from pathlib import Path
from types import TracebackType
from typing import IO

from zfrec.cli.common import file_problem
from zfrec.errors import ZfrecError
from zfrec.render.site import MANIFEST, ManifestEntry, OutputFile, Reused, SiteItem, read_manifest
from zfrec.stopping import interrupts_held

GENERATOR_MARK = b'<meta name="generator" content="zfrec">'


class SiteError(ZfrecError):
    """The site cannot be written where it was asked for."""


class SiteWriter:
    """A site being written into a temporary folder beside `target`."""

    def __init__(self, target: Path) -> None:
        self.target = target.absolute()
        self.parent = self.target.parent
        self.temp = self.parent / f".{self.target.name}.publish-{os.getpid()}"
        self.written = 0
        self.reused = 0
        self._lock: IO[bytes] | None = None
        self._done = False
        self._folders: set[Path] = set()  # made in `temp` so far

    def __enter__(self) -> SiteWriter:
        here = Path.cwd().resolve()
        if self.target.resolve() == here or self.target.resolve() in here.parents:
            raise SiteError(
                f"{self.target} holds the current folder: publish replaces the whole folder, "
                "so run it from outside"
            )
        if self.target.parent == self.target:
            raise SiteError(f"cannot publish into {self.target}: choose a folder of its own")
        if self.target.exists() and not self.target.is_dir():
            raise SiteError(f"{self.target} exists and is not a folder")
        if self.target.is_dir() and not _is_site(self.target):
            raise SiteError(
                f"{self.target} is not empty and holds no zfrec site: publish replaces the whole "
                "folder, so choose a new or empty one"
            )
        try:
            self.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SiteError(f"cannot create {self.parent}: {exc.strerror}") from None
        try:  # a read-only or full file system: the message says it cannot be written
            self._lock = _lock(self.parent / f".{self.target.name}.publish.lock")
            for stale in self.parent.glob(f".{self.target.name}.publish-*"):
                if stale.is_dir():  # left by a publish that was killed: we hold the lock now
                    shutil.rmtree(stale, ignore_errors=True)
            self.temp.mkdir()
        except OSError as exc:
            self.__exit__(None, None, None)
            raise SiteError(file_problem(exc.filename, exc, "write")) from None
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self._done:
            shutil.rmtree(self.temp, ignore_errors=True)
        if self._lock is not None:
            # Removed while still held: a publish that opened it meanwhile finds, once it holds
            # it, that it is no longer the lock file at that path, and takes a new one (`_lock`).
            with contextlib.suppress(OSError):  # (a system that cannot remove an open file)
                Path(self._lock.name).unlink(missing_ok=True)
            self._lock.close()

    def previous(self) -> dict[int, ManifestEntry]:
        """The previous site's manifest, keeping only the games whose files are all there."""
        try:
            text = (self.target / MANIFEST).read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return {}
        games = read_manifest(text)
        return {
            gid: entry
            for gid, entry in games.items()
            if all((self.target / "games" / str(gid) / f).is_file() for f in entry.files)
        }

    def _path(self, relative: str) -> Path:
        # Checked by its parts, not resolved on disk: the folder is new and holds no links, and
        # resolving every path (a system call per folder of it, twice) was a tenth of a
        # publish's own time beside the rendering.
        parts = relative.split("/")
        if not relative or relative.startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise SiteError(f"refusing to write outside {self.target}: {relative}")
        return self.temp.joinpath(*parts)

    def put(self, item: SiteItem) -> None:
        """Write a file, or carry one over from the previous site (a hard link, else a copy)."""
        path = self._path(item.path)
        folder = path.parent
        if folder not in self._folders:
            folder.mkdir(parents=True, exist_ok=True)
            self._folders.add(folder)
        try:
            if isinstance(item, Reused):
                source = self.target / item.path
                try:
                    os.link(source, path)
                except OSError:
                    shutil.copy2(source, path)
                self.reused += 1
            else:
                assert isinstance(item, OutputFile)
                path.write_bytes(item.content)
                self.written += 1
        except OSError as exc:
            raise SiteError(f"cannot write {self.target / item.path}: {exc.strerror}") from None

    @property
    def done(self) -> bool:
        """The new site is in place (`commit` has returned)."""
        return self._done

    def commit(self) -> None:
        """Put the new site in place of the old one, in one step where the system allows.

        Ctrl-C is held meanwhile (it lands once the commit is over), so that the target is
        the old site or the new one, never a half-made change, and `done` says which."""
        with interrupts_held():
            if not self.target.exists():
                self.temp.rename(self.target)
            elif _exchange(self.temp, self.target):
                shutil.rmtree(self.temp, ignore_errors=True)  # now the previous site
            else:
                old = self.parent / f".{self.target.name}.publish-old-{os.getpid()}"
                self.target.rename(old)
                self.temp.rename(self.target)
                shutil.rmtree(old, ignore_errors=True)
            self._done = True


def _is_site(folder: Path) -> bool:
    """An empty folder, or one a zfrec publish made."""
    if not any(folder.iterdir()):
        return True
    if (folder / MANIFEST).is_file():
        return True
    try:
        with (folder / "index.html").open("rb") as f:
            return GENERATOR_MARK in f.read(4096)
    except OSError:
        return False


def _lock(path: Path) -> IO[bytes]:
    """The lock file beside the site, held (removed by `SiteWriter.__exit__` when done)."""
    while True:
        handle = path.open("ab")
        try:
            import fcntl
        except ImportError:  # no advisory locks here: one publish at a time is up to the user
            return handle
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise SiteError(
                f"another publish is writing {path.name.split('.publish')[0][1:]} now"
            ) from None
        try:
            same = os.path.samestat(os.fstat(handle.fileno()), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return handle
        handle.close()  # the publish that held it removed it when done: lock the new one


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2, RENAME_EXCHANGE); False where unsupported."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
        renameat2.argtypes = [
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.c_uint,
        ]
        at_fdcwd, rename_exchange = -100, 2
        return bool(
            renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0
        )
    return False


__all__ = ["SiteError", "SiteWriter"]
