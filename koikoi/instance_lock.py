"""One writer at a time: a kernel lock on the data folder.

    lock = InstanceLock(storage.data_dir)
    if lock.acquire():          # this copy of the game may write its files
        ...
    else:                       # another window holds it (lock.holder_pid)
        app = App(..., read_only=True)
    lock.release()              # also released by the OS when the process ends

On POSIX the lock is ``fcntl.flock`` on the data *folder itself* (opened
read-only; Linux locks a directory like a file), held on that open descriptor
for as long as the game runs. The OS drops it when its process dies, so a
crash never leaves the game locked out. Deleting, renaming or replacing
``koikoi.lock`` cannot let a second writer in: the folder is the lock, and
the second window stays read-only. (Renaming the data folder itself and
making a new one does: the lock follows the folder, not its name.)

``koikoi.lock`` in that folder still holds the owner's PID (best effort), so
the second window can say who holds the lock, and it is flocked too, which
keeps out an older copy of the game that locks only the file. It is opened
without following a symbolic link and without blocking (``O_NOFOLLOW``,
``O_NONBLOCK``), and used only if it is a regular file with a single link: a
folder, a pipe, a device or a link planted under that name is left alone,
never written through, and the folder lock still decides.

On Windows the lock is ``msvcrt.locking`` on ``koikoi.lock``; a file open
there cannot be deleted or renamed. Something there that is not a regular
file is renamed aside (``koikoi.lock.corrupt-<stamp>``) and a fresh file made.
POSIX uses the same file lock when the folder cannot be opened or locked but
the file can (network file systems that lock only files opened for writing).

Where the file system does not support locking at all (some network shares),
the PID in the file decides instead: a lock whose PID is no longer running is
stale and taken over.

A folder that cannot be created or written gives ``acquire() == True`` with
``lock.state == "unavailable"``: nothing can be saved there anyway, and the
storage layer reports those failures itself. (Where the folder exists, it is
still locked, so a second window is still refused.) A lock file that was
merely deleted, or turned into a folder or a link, is not "unavailable".
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import sys
from pathlib import Path
from typing import Optional

log = logging.getLogger("koikoi.lock")

LOCK_NAME = "koikoi.lock"

ACQUIRED = "acquired"          # we hold the lock
BUSY = "busy"                  # another running instance holds it
UNAVAILABLE = "unavailable"    # no lock possible here (read-only or missing folder)

# Windows locks a byte range, and a locked range cannot be read by others: lock
# one byte far past the PID text so the second window can still read who holds it.
_WIN_LOCK_AT = 1 << 20

# Opening koikoi.lock: never through a symbolic link, never waiting on a pipe,
# not inherited by child processes; binary on Windows.
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_SAFE = (_O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC | getattr(os, "O_BINARY", 0)
           | getattr(os, "O_NOINHERIT", 0))
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_PID_BYTES = 64                # a PID and a newline; more than that is not ours

# how _open_lock_file() opened koikoi.lock
_RW = "rw"                     # a regular file of ours, open read-write
_RO = "ro"                     # a regular file we may read but not write
_NONE = "none"                 # none there, and it cannot be created (read-only folder)
_FOREIGN = "foreign"           # something else under that name: a folder, link, pipe, device

_WIN = sys.platform.startswith("win")
if _WIN:  # pragma: no cover - exercised on Windows only
    import msvcrt
else:
    import fcntl


def pid_alive(pid: int) -> bool:
    """True if a process with this PID is running (or we cannot tell)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if _WIN:  # pragma: no cover
        try:
            import ctypes  # platform: Windows (OpenProcess)
            from ctypes import wintypes  # platform: Windows
            k32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
            handle = k32.OpenProcess(0x1000, False, pid)   # PROCESS_QUERY_LIMITED_INFORMATION
            if not handle:
                return ctypes.GetLastError() == 5            # access denied: it exists
            try:
                code = wintypes.DWORD()
                if not k32.GetExitCodeProcess(handle, ctypes.byref(code)):
                    return True
                return code.value == 259                      # STILL_ACTIVE
            finally:
                k32.CloseHandle(handle)
        except Exception:
            return True
    try:
        os.kill(pid, 0)
    except (OverflowError, ValueError):    # not a PID this system can have
        return False
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return True
    return True


def _read_pid(path: Path) -> Optional[int]:
    """The PID written in the lock file, or None (no file, not a regular file, no number)."""
    try:
        fd = os.open(str(path), os.O_RDONLY | _O_SAFE)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, _PID_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    words = data.decode("ascii", errors="replace").replace("\x00", " ").split()
    first = words[0] if words else ""
    return int(first) if first.isdigit() and len(first) <= 10 else None


def _not_a_file(path: Path) -> Optional[bool]:
    """True: something is there that is not a regular file; False: a regular file;
    None: nothing (or it cannot be looked at)."""
    try:
        mode = os.lstat(str(path)).st_mode
    except OSError:
        return None
    return not stat.S_ISREG(mode)


def _open_lock_file(path: Path) -> tuple[Optional[int], str]:
    """Open (or create) koikoi.lock without following a link or blocking on a pipe.

    Returns ``(fd, how)``; ``fd`` is None unless the name holds a regular file
    with one link (a hard link to some other file would have it truncated)."""
    how = _RW
    try:
        fd = os.open(str(path), os.O_RDWR | os.O_CREAT | _O_SAFE, 0o644)
    except OSError:
        other = _not_a_file(path)
        if other:
            return None, _FOREIGN      # a folder (EISDIR), a link (ELOOP), a socket (ENXIO)...
        if other is None:
            return None, _NONE         # not there, and it cannot be created
        try:                           # a regular file we may not write
            fd = os.open(str(path), os.O_RDONLY | _O_SAFE)
        except OSError:
            return None, _NONE
        how = _RO
    try:
        st = os.fstat(fd)
        ok = stat.S_ISREG(st.st_mode) and st.st_nlink <= 1
    except OSError:
        ok = False
    if not ok:
        os.close(fd)
        return None, _FOREIGN
    return fd, how


class InstanceLock:
    def __init__(self, folder, name: str = LOCK_NAME):
        self.path = Path(folder) / name
        self.state: Optional[str] = None
        self.holder_pid: Optional[int] = None
        self._fd: Optional[int] = None          # koikoi.lock, when it is a file of ours
        self._dir_fd: Optional[int] = None      # the data folder (POSIX), the real lock
        self._wrote_pid = False

    # ------------------------------------------------------------ public
    @property
    def held(self) -> bool:
        return self.state == ACQUIRED

    def acquire(self) -> bool:
        """Try once, without waiting. True unless another live instance holds it."""
        if self._fd is not None or self._dir_fd is not None:
            return True
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            log.warning("no instance lock at %s (%s); continuing without one", self.path, exc)
            self.state = UNAVAILABLE
            return True
        if not _WIN:
            dfd = self._open_folder(folder)
            if dfd is not None:
                try:
                    locked = self._lock(dfd)
                except OSError as exc:
                    os.close(dfd)
                    log.info("cannot lock the folder %s (%s); locking %s instead",
                             folder, exc, self.path.name)
                else:
                    if not locked:
                        os.close(dfd)
                        return self._busy()
                    return self._acquire_in_locked_folder(dfd)
        return self._acquire_file()

    def release(self) -> None:
        fd, self._fd = self._fd, None
        dfd, self._dir_fd = self._dir_fd, None
        if fd is None and dfd is None:
            return
        if fd is not None:
            if self._wrote_pid:
                try:
                    os.ftruncate(fd, 0)
                except OSError:
                    pass
            try:
                self._unlock(fd)
            except OSError:
                pass
            try:
                os.close(fd)
            except OSError:
                pass
        if dfd is not None:
            try:
                self._unlock(dfd)
            except OSError:
                pass
            try:
                os.close(dfd)
            except OSError:
                pass
        self._wrote_pid = False
        self.state = None

    def __enter__(self) -> "InstanceLock":
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def __del__(self):  # pragma: no cover - best effort
        try:
            self.release()
        except Exception:
            pass

    # ------------------------------------------------------------ the ways to hold it
    def _acquire_in_locked_folder(self, dfd: int) -> bool:
        """POSIX: we hold the folder. koikoi.lock only records the PID now."""
        fd, how = _open_lock_file(self.path)
        if fd is not None:
            try:
                locked = self._lock(fd)
            except OSError:
                locked = True                    # the folder lock decides
            if not locked:                       # an older Koi-Koi that locks only the file
                os.close(fd)
                self._close_quietly(dfd)
                return self._busy()
        self._dir_fd, self._fd = dfd, fd
        self.holder_pid = os.getpid()
        if how == _FOREIGN:
            log.warning("%s is not a regular file; left alone (the lock on its folder holds)",
                        self.path)
        if how in (_RW, _FOREIGN):
            self.state = ACQUIRED
            if how == _RW:
                self._write_pid(fd)
        else:
            log.warning("cannot write %s (read-only folder?); continuing, but nothing "
                        "may be saved there", self.path)
            self.state = UNAVAILABLE
        return True

    def _acquire_file(self) -> bool:
        """Windows, or a POSIX folder that cannot be locked: lock koikoi.lock itself."""
        fd, how = _open_lock_file(self.path)
        if how == _FOREIGN:
            # Rename it aside and look again, whatever the rename did: a second copy
            # starting at the same moment may have replaced it first (then its fresh,
            # locked file is there and we are refused below, not "unavailable").
            self._set_aside()
            fd, how = _open_lock_file(self.path)
        if fd is None:
            log.warning("no instance lock at %s (%s); continuing without one", self.path,
                        "not a regular file" if how == _FOREIGN else "cannot be created")
            self.state = UNAVAILABLE
            return True
        try:
            locked = self._lock(fd)
        except OSError as exc:
            # the file system cannot lock: the PID in the file decides
            log.warning("cannot lock %s (%s); using the PID in it", self.path, exc)
            pid = _read_pid(self.path)
            if pid is not None and pid != os.getpid() and pid_alive(pid):
                os.close(fd)
                return self._busy(pid)
            if pid is not None and pid != os.getpid():
                log.info("stale lock from PID %d (not running); taking it over", pid)
            locked = True
        if not locked:
            os.close(fd)
            return self._busy()
        self._fd = fd
        self.holder_pid = os.getpid()
        if how == _RW:
            self.state = ACQUIRED
            self._write_pid(fd)
        else:
            log.warning("cannot write %s (read-only folder?); continuing without a lock file",
                        self.path)
            self.state = UNAVAILABLE
        return True

    def _busy(self, pid: Optional[int] = None) -> bool:
        self.holder_pid = pid if pid is not None else _read_pid(self.path)
        self.state = BUSY
        log.info("another Koi-Koi (PID %s) holds %s", self.holder_pid, self.path.parent)
        return False

    def _set_aside(self) -> bool:
        """Rename a non-file planted as koikoi.lock aside (never deleted, links not followed).

        Only where koikoi.lock itself is the lock. On Windows the holder's open
        file cannot be renamed, so this never moves a live lock away; on a POSIX
        file system that cannot lock folders, two copies starting in the same
        instant could race here (a narrow window, and only with a planted file)."""
        try:
            from .files import move_aside  # isolated: the lock loads on the stdlib alone (see except)
        except Exception:  # pragma: no cover - koikoi.files ships with the game
            return False
        return move_aside(self.path) is not None

    # ------------------------------------------------------------ platform
    @staticmethod
    def _open_folder(folder: Path) -> Optional[int]:
        try:
            fd = os.open(str(folder), os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
        except OSError as exc:
            log.info("cannot open the folder %s to lock it (%s)", folder, exc)
            return None
        try:
            if stat.S_ISDIR(os.fstat(fd).st_mode):
                return fd
        except OSError:
            pass
        os.close(fd)
        return None

    def _close_quietly(self, fd: int) -> None:
        try:
            self._unlock(fd)
        except OSError:
            pass
        os.close(fd)

    @staticmethod
    def _lock(fd: int) -> bool:
        """True if locked; False if someone else holds it; OSError if locking is unsupported."""
        if _WIN:  # pragma: no cover
            try:
                os.lseek(fd, _WIN_LOCK_AT, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                return True
            except OSError as exc:
                if exc.errno in (errno.EACCES, errno.EDEADLK, 36):   # 36: EDEADLOCK on MSVC
                    return False
                raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise

    @staticmethod
    def _unlock(fd: int) -> None:
        if _WIN:  # pragma: no cover
            os.lseek(fd, _WIN_LOCK_AT, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def _write_pid(self, fd: int) -> None:
        try:
            data = f"{os.getpid()}\n".encode("ascii")
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, data)
            self._wrote_pid = True
        except OSError:
            pass


__all__ = ["InstanceLock", "pid_alive", "LOCK_NAME", "ACQUIRED", "BUSY", "UNAVAILABLE"]
