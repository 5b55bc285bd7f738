"""Hostile files in the game's folders (issue #13): the single-writer lock and the log.

The lock must hold when ``koikoi.lock`` is deleted, turned into a folder or
planted as a link, and never write through it; the log must never follow a
link or wait on a pipe, and move such things aside instead of using them.
Anything that could hang runs in a subprocess with a timeout, so a regression
fails instead of stalling the suite.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from koikoi import instance_lock as il
from koikoi import logsetup
from koikoi.instance_lock import InstanceLock
from koikoi.logsetup import setup_logging

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30

pytestmark = pytest.mark.skipif(sys.platform.startswith("win"), reason="POSIX links, pipes, flock")


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")


def _run(code: str, *args, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


# ===================================================================== the lock

SECOND_PROCESS = """
import json, sys
from koikoi.instance_lock import InstanceLock
lock = InstanceLock(sys.argv[1])
ok = lock.acquire()
print(json.dumps({"ok": ok, "state": lock.state, "holder": lock.holder_pid}))
"""


def _second_process(folder) -> dict:
    p = _run(SECOND_PROCESS, folder)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


def _assert_second_writer_refused(folder, holder_pid=None):
    """Another InstanceLock here and another process are both refused."""
    b = InstanceLock(folder)
    try:
        assert b.acquire() is False and b.state == il.BUSY
        assert not b.held
        if holder_pid is not None:
            assert b.holder_pid == holder_pid
    finally:
        b.release()
    other = _second_process(folder)
    assert other["ok"] is False and other["state"] == il.BUSY, other


@pytest.fixture
def outside(tmp_path):
    """A file of the player's outside the game's folders, which nothing may touch."""
    f = tmp_path / "elsewhere" / "precious.txt"
    f.parent.mkdir()
    f.write_bytes(b"the player's own file\n")
    return f


def test_deleting_the_lock_file_lets_no_second_writer_in(tmp_path):
    data = tmp_path / "data"
    first = InstanceLock(data)
    assert first.acquire() and first.state == il.ACQUIRED
    (data / il.LOCK_NAME).unlink()
    _assert_second_writer_refused(data)
    assert first.held
    first.release()
    again = InstanceLock(data)                   # released: the next start is the writer
    assert again.acquire() and again.state == il.ACQUIRED
    again.release()


def test_a_folder_as_the_lock_file_before_start_is_not_unavailable(tmp_path):
    data = tmp_path / "data"
    (data / il.LOCK_NAME).mkdir(parents=True)
    first = InstanceLock(data)
    assert first.acquire() is True and first.state == il.ACQUIRED     # not "unavailable"
    _assert_second_writer_refused(data)
    assert (data / il.LOCK_NAME).is_dir()        # left alone
    first.release()


def test_the_lock_file_turned_into_a_folder_while_running(tmp_path):
    data = tmp_path / "data"
    first = InstanceLock(data)
    assert first.acquire()
    lock_file = data / il.LOCK_NAME
    lock_file.unlink()
    lock_file.mkdir()
    _assert_second_writer_refused(data)
    first.release()


def test_a_symlinked_lock_file_is_never_written_through(tmp_path, outside):
    data = tmp_path / "data"
    data.mkdir()
    before = outside.read_bytes()
    (data / il.LOCK_NAME).symlink_to(outside)
    first = InstanceLock(data)
    assert first.acquire() and first.state == il.ACQUIRED
    _assert_second_writer_refused(data)
    first.release()
    assert outside.read_bytes() == before        # the old code wrote its PID over it
    assert (data / il.LOCK_NAME).is_symlink()


def test_a_symlink_planted_while_running(tmp_path, outside):
    data = tmp_path / "data"
    first = InstanceLock(data)
    assert first.acquire()
    before = outside.read_bytes()
    (data / il.LOCK_NAME).unlink()
    (data / il.LOCK_NAME).symlink_to(outside)
    _assert_second_writer_refused(data)
    first.release()
    assert outside.read_bytes() == before


def test_a_hard_linked_lock_file_is_not_truncated(tmp_path, outside):
    data = tmp_path / "data"
    data.mkdir()
    before = outside.read_bytes()
    os.link(outside, data / il.LOCK_NAME)
    with InstanceLock(data) as first:
        assert first.held
        _assert_second_writer_refused(data)
    assert outside.read_bytes() == before


def test_a_pipe_as_the_lock_file_does_not_hang(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / il.LOCK_NAME)
    first = _second_process(data)                 # a separate process: a hang fails by timeout
    assert first["ok"] is True and first["state"] == il.ACQUIRED
    assert stat.S_ISFIFO(os.lstat(data / il.LOCK_NAME).st_mode)


def test_the_second_window_still_names_the_holder(tmp_path):
    with InstanceLock(tmp_path) as first:
        assert first.held
        assert (tmp_path / il.LOCK_NAME).read_text().strip() == str(os.getpid())
        _assert_second_writer_refused(tmp_path, holder_pid=os.getpid())
        other = _second_process(tmp_path)
        assert other["holder"] == os.getpid()


def test_a_holder_that_locks_only_the_file_still_blocks(tmp_path):
    """An older copy of the game flocked koikoi.lock alone; it must still keep us out."""
    code = ("import fcntl, os, sys, time\n"
            "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
            "os.write(fd, f'{os.getpid()}\\n'.encode())\n"
            "print('locked', flush=True)\n"
            "time.sleep(60)\n")
    old = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / il.LOCK_NAME)],
                           stdout=subprocess.PIPE, text=True)
    try:
        assert old.stdout.readline().strip() == "locked"
        lock = InstanceLock(tmp_path)
        assert lock.acquire() is False and lock.state == il.BUSY and lock.holder_pid == old.pid
        lock.release()
    finally:
        old.kill()
        old.wait(timeout=TIMEOUT)
    assert InstanceLock(tmp_path).acquire()


def test_a_killed_holder_leaves_the_folder_unlocked(tmp_path):
    code = ("import sys, time\nfrom koikoi.instance_lock import InstanceLock\n"
            "l = InstanceLock(sys.argv[1]); assert l.acquire()\nprint('held', flush=True)\n"
            "time.sleep(60)\n")
    holder = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, env=_env(),
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        (tmp_path / il.LOCK_NAME).unlink()
        _assert_second_writer_refused(tmp_path)
    finally:
        holder.kill()
        holder.wait(timeout=TIMEOUT)
    lock = InstanceLock(tmp_path)
    assert lock.acquire() and lock.state == il.ACQUIRED
    lock.release()


def test_without_a_folder_lock_a_planted_folder_is_set_aside(tmp_path, monkeypatch):
    """The file-only lock (Windows; a folder that cannot be opened or locked) renames a
    folder planted as koikoi.lock aside and locks a fresh file, instead of giving up."""
    monkeypatch.setattr(InstanceLock, "_open_folder", staticmethod(lambda folder: None))
    (tmp_path / il.LOCK_NAME).mkdir()
    (tmp_path / il.LOCK_NAME / "inside.txt").write_text("kept")
    first = InstanceLock(tmp_path)
    assert first.acquire() and first.state == il.ACQUIRED
    (moved,) = tmp_path.glob(il.LOCK_NAME + ".corrupt-*")
    assert (moved / "inside.txt").read_text() == "kept"
    assert (tmp_path / il.LOCK_NAME).read_text().strip() == str(os.getpid())
    second = InstanceLock(tmp_path)
    assert second.acquire() is False and second.holder_pid == os.getpid()
    first.release()


# ===================================================================== the log


def _file_handler():
    (fh,) = [h for h in logging.getLogger().handlers
             if getattr(h, logsetup._TAG, False) and isinstance(h, logging.FileHandler)]
    return fh


def _flush():
    for h in logging.getLogger().handlers:
        h.flush()


def _aside(folder: Path, name: str = "koikoi.log") -> list[Path]:
    return sorted(folder.glob(name + ".corrupt-*"))


def _is_regular(path: Path) -> bool:
    return stat.S_ISREG(os.lstat(path).st_mode)


LOG_PROCESS = """
import logging, sys
from koikoi import logsetup
path = logsetup.setup_logging(sys.argv[1])
logging.getLogger("koikoi.test").warning("a line after the start")
for h in logging.getLogger().handlers:
    h.flush()
print("file_ok", logsetup.log_file_ok(), flush=True)
"""


def _log_in_subprocess(folder: Path) -> str:
    start = time.monotonic()
    p = _run(LOG_PROCESS, folder, timeout=20)    # the old code hangs forever on a pipe
    assert p.returncode == 0, p.stderr
    assert time.monotonic() - start < 20
    assert "file_ok True" in p.stdout, (p.stdout, p.stderr)
    return p.stderr


def test_a_symlinked_log_is_moved_aside_and_its_target_untouched(tmp_path, outside, clean_logging):
    logs = tmp_path / "logs"
    logs.mkdir()
    before = outside.read_bytes()
    (logs / "koikoi.log").symlink_to(outside)
    path = setup_logging(logs)
    logging.getLogger("koikoi.test").info("hello, fresh log")
    _flush()
    assert outside.read_bytes() == before
    (moved,) = _aside(logs)
    assert moved.is_symlink() and os.readlink(moved) == str(outside)
    assert _is_regular(path) and logsetup.log_file_ok()
    text = path.read_text(encoding="utf-8")
    assert "hello, fresh log" in text
    assert text.count("moved it aside") == 1 and "a symbolic link" in text


def test_a_pipe_as_the_log_does_not_hang_the_start(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    os.mkfifo(logs / "koikoi.log")
    err = _log_in_subprocess(logs)
    assert err.count("moved it aside") == 1
    (moved,) = _aside(logs)
    assert stat.S_ISFIFO(os.lstat(moved).st_mode)
    assert _is_regular(logs / "koikoi.log")
    assert "a line after the start" in (logs / "koikoi.log").read_text(encoding="utf-8")


def test_a_pipe_with_a_reader_is_not_written_either(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    fifo = logs / "koikoi.log"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)      # now a writer's open succeeds
    try:
        _log_in_subprocess(logs)
        assert os.read(reader, 4096) == b""                   # nothing was written into it
    finally:
        os.close(reader)
    (moved,) = _aside(logs)
    assert stat.S_ISFIFO(os.lstat(moved).st_mode)
    assert "a line after the start" in (logs / "koikoi.log").read_text(encoding="utf-8")


def test_a_symlink_to_dev_zero_as_the_log(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "koikoi.log").symlink_to("/dev/zero")
    _log_in_subprocess(logs)
    (moved,) = _aside(logs)
    assert os.readlink(moved) == "/dev/zero"
    assert _is_regular(logs / "koikoi.log")
    assert "a line after the start" in (logs / "koikoi.log").read_text(encoding="utf-8")


def test_a_folder_named_koikoi_log(tmp_path, clean_logging):
    logs = tmp_path / "logs"
    (logs / "koikoi.log").mkdir(parents=True)
    (logs / "koikoi.log" / "inside.txt").write_text("kept")
    path = setup_logging(logs)
    assert logsetup.log_file_ok()                           # the old code gave up: stderr only
    logging.getLogger("koikoi.test").info("into a real file")
    _flush()
    (moved,) = _aside(logs)
    assert (moved / "inside.txt").read_text() == "kept"     # moved, not deleted
    assert "into a real file" in path.read_text(encoding="utf-8")


def test_a_hard_linked_log_is_moved_aside(tmp_path, outside, clean_logging):
    logs = tmp_path / "logs"
    logs.mkdir()
    before = outside.read_bytes()
    os.link(outside, logs / "koikoi.log")
    path = setup_logging(logs)
    logging.getLogger("koikoi.test").info("not into the player's file")
    _flush()
    assert outside.read_bytes() == before
    assert len(_aside(logs)) == 1 and os.stat(path).st_nlink == 1


def test_rollover_never_writes_through_planted_backups(tmp_path, outside, clean_logging):
    logs = tmp_path / "logs"
    logs.mkdir()
    before = outside.read_bytes()
    (logs / "koikoi.log.1").symlink_to(outside)
    (logs / "koikoi.log.2").mkdir()              # cannot be removed: the old code stopped rotating
    os.mkfifo(logs / "koikoi.log.3")
    path = setup_logging(logs)
    fh = _file_handler()
    fh.maxBytes = 2000
    lg = logging.getLogger("koikoi.test")
    for i in range(100):                         # up to the first rollover
        lg.info("line %d %s", i, "x" * 50)
        if _aside(logs, "koikoi.log.1"):
            break
    _flush()
    assert _aside(logs, "koikoi.log.1"), "no rollover happened"
    first = path.read_text(encoding="utf-8")     # the fresh file says what was moved, once each
    assert first.count("moved it aside") == 3 and "a symbolic link" in first
    for i in range(300):
        lg.info("line %d %s", i, "x" * 50)
    _flush()
    assert outside.read_bytes() == before
    for n in (1, 2, 3):
        assert _is_regular(logs / f"koikoi.log.{n}")
    (link,) = _aside(logs, "koikoi.log.1")
    assert link.is_symlink() and os.readlink(link) == str(outside)
    assert _aside(logs, "koikoi.log.2")[0].is_dir()
    assert stat.S_ISFIFO(os.lstat(_aside(logs, "koikoi.log.3")[0]).st_mode)
    assert path.stat().st_size <= 2000 + 200     # it kept rotating
    assert "line 299" in path.read_text(encoding="utf-8")
    assert len(list(logs.glob("*.corrupt-*"))) == 3  # nothing else was set aside later


def test_the_log_replaced_by_a_pipe_while_running(tmp_path, clean_logging):
    logs = tmp_path / "logs"
    path = setup_logging(logs)
    fh = _file_handler()
    fh.maxBytes = 2000
    path.unlink()
    os.mkfifo(path)
    lg = logging.getLogger("koikoi.test")
    for i in range(100):
        lg.info("line %d %s", i, "y" * 50)
    _flush()
    assert _is_regular(path)                     # rotated away from the pipe, onto a fresh file
    assert "line 99" in path.read_text(encoding="utf-8")
    assert len(_aside(logs)) == 1


def test_a_log_that_cannot_be_set_aside_falls_back_to_stderr(tmp_path, monkeypatch, capsys,
                                                             clean_logging):
    logs = tmp_path / "logs"
    (logs / "koikoi.log").mkdir(parents=True)

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(src))
    monkeypatch.setattr(logsetup.os, "replace", refuse)
    path = setup_logging(logs)
    assert path == (logs / "koikoi.log").absolute()
    assert not logsetup.log_file_ok()
    assert capsys.readouterr().err.count("Cannot write the log file") == 1
    assert (logs / "koikoi.log").is_dir() and not _aside(logs)
