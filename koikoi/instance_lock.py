"""One writer at a time: a lock file in the data folder.

    lock = InstanceLock(storage.data_dir)
    if lock.acquire():          # this copy of the game may write its files
        ...
    else:                       # another window holds it (lock.holder_pid)
        app = App(..., read_only=True)
    lock.release()              # also released by the OS when the process ends

The lock is ``koikoi.lock`` in the data folder, locked with ``fcntl.flock``
(POSIX) or ``msvcrt.locking`` (Windows) and holding the owner's PID. The OS
drops the lock when its process dies, so a crash never leaves the game locked
out. Where the file system does not support locking (some network shares),
the PID in the file decides instead: a lock whose PID is no longer running is
stale and taken over.

A folder that cannot be created or written gives ``acquire() == True`` with
``lock.state == "unavailable"``: nothing can be saved there anyway, and the
storage layer reports those failures itself.
"""

from __future__ import annotations

import errno
import logging
import os
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
            import ctypes
            from ctypes import wintypes
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
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return True
    return True


def _read_pid(path: Path) -> Optional[int]:
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    text = text.replace("\x00", " ")
    first = text.split()[0] if text.split() else ""
    return int(first) if first.isdigit() else None


class InstanceLock:
    def __init__(self, folder, name: str = LOCK_NAME):
        self.path = Path(folder) / name
        self.state: Optional[str] = None
        self.holder_pid: Optional[int] = None
        self._fd: Optional[int] = None

    # ------------------------------------------------------------ public
    @property
    def held(self) -> bool:
        return self.state == ACQUIRED

    def acquire(self) -> bool:
        """Try once, without waiting. True unless another live instance holds it."""
        if self._fd is not None:
            return True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(str(self.path), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            log.warning("no instance lock at %s (%s); continuing without one", self.path, exc)
            # the file may still exist (a read-only folder): honour a live PID in it
            pid = _read_pid(self.path)
            if pid is not None and pid != os.getpid() and pid_alive(pid) and self._locked_by_other():
                self.state, self.holder_pid = BUSY, pid
                return False
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
                self.state, self.holder_pid = BUSY, pid
                return False
            if pid is not None and pid != os.getpid():
                log.info("stale lock from PID %d (not running); taking it over", pid)
            locked = True
        if not locked:
            os.close(fd)
            self.holder_pid = _read_pid(self.path)
            self.state = BUSY
            log.info("another Koi-Koi (PID %s) holds %s", self.holder_pid, self.path)
            return False
        self._fd = fd
        self.state = ACQUIRED
        self.holder_pid = os.getpid()
        self._write_pid(fd)
        return True

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
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

    # ------------------------------------------------------------ platform
    def _locked_by_other(self) -> bool:
        """For a lock file we could not open read-write: probe it read-only."""
        try:
            fd = os.open(str(self.path), os.O_RDONLY)
        except OSError:
            return True
        try:
            if _WIN:  # pragma: no cover
                return True
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            except OSError:
                return True
            fcntl.flock(fd, fcntl.LOCK_UN)
            return False
        finally:
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

    @staticmethod
    def _write_pid(fd: int) -> None:
        try:
            data = f"{os.getpid()}\n".encode("ascii")
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, data)
        except OSError:
            pass


__all__ = ["InstanceLock", "pid_alive", "LOCK_NAME", "ACQUIRED", "BUSY", "UNAVAILABLE"]
