"""Shared test setup: headless SDL and a private game folder for every test.

The environment is set here, at import time, before any test module imports
pygame: SDL draws to memory (no window, no sound card) and KOIKOI_HOME points
the game's settings, saves and logs at a temporary folder.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["KOIKOI_HOME"] = tempfile.mkdtemp(prefix="koikoi-tests-")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def koikoi_home(tmp_path, monkeypatch):
    """Each test gets its own empty KOIKOI_HOME."""
    home = tmp_path / "koikoi-home"
    home.mkdir()
    monkeypatch.setenv("KOIKOI_HOME", str(home))
    # the game follows the OS language ("system"): tests read English whatever this machine's
    monkeypatch.setenv("LANG", "C")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def clean_logging(monkeypatch):
    """koikoi's main() run in-process sets up logging and the crash hooks: afterwards the
    root logger, its level, captured warnings and the excepthook are as they were (and no
    crash screen opens meanwhile)."""
    import logging
    from koikoi import crash, logsetup
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    monkeypatch.setenv("KOIKOI_NO_CRASH_SCREEN", "1")
    yield
    logsetup._remove_ours(root)
    logsetup._state.update(path=None, file_ok=False)
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)
    crash.uninstall_excepthook()


# ------------------------------------------------------------------ PostgreSQL
# A real PostgreSQL for the ladder and the quick-match tests, started here: the server that
# the pgserver package ships, else Debian's binaries (/usr/lib/postgresql/*/bin) with
# initdb in a temporary folder on a unix socket. Skipped, with the reason, only where
# neither can be started. KOIKOI_TEST_POSTGRES=debian skips pgserver (to check the second way).

def _debian_server(folder: Path):
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not bins:
        return None, "no pgserver package and no /usr/lib/postgresql/*/bin/initdb"
    bindir = Path(bins[-1]).parent
    data, sock = folder / "data", folder / "sock"
    sock.mkdir(parents=True)
    run_as = []
    if os.geteuid() == 0:            # initdb refuses root: run it as nobody
        os.chmod(folder.parent, 0o755)      # mkdtemp made it 0700 for root
        shutil.chown(folder, "nobody")
        shutil.chown(sock, "nobody")
        run_as = ["runuser", "-u", "nobody", "--"]
    subprocess.run(run_as + [str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                             "--auth=trust", "-E", "UTF8"], check=True, capture_output=True, timeout=120)
    subprocess.run(run_as + [str(bindir / "pg_ctl"), "-D", str(data), "-w", "-t", "60", "-l",
                             str(folder / "log"), "-o", f"-k {sock} -c listen_addresses=''", "start"],
                   check=True, capture_output=True, timeout=90)

    def stop():
        subprocess.run(run_as + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
                       capture_output=True, timeout=60)
    return (f"postgresql://postgres@/postgres?host={sock}", stop), None


@pytest.fixture(scope="session")
def postgres_server():
    folder = Path(tempfile.mkdtemp(prefix="koikoi-pg-"))
    problems = []
    srv = None
    try:
        if os.environ.get("KOIKOI_TEST_POSTGRES") == "debian":
            raise ImportError
        import pgserver
        srv = pgserver.get_server(folder / "pgserver", cleanup_mode="stop")
    except ImportError:
        problems.append("pgserver is not installed (or KOIKOI_TEST_POSTGRES=debian)")
    except Exception as exc:                # noqa: BLE001 - any failure: try Debian's
        problems.append(f"pgserver did not start: {exc}")
    if srv is not None:
        try:
            yield srv.get_uri()
        finally:
            srv.cleanup()
        return
    try:
        started, why = _debian_server(folder / "debian")
    except Exception as exc:                # noqa: BLE001
        started, why = None, f"Debian's PostgreSQL did not start: {exc}"
    if started is None:
        pytest.skip("no PostgreSQL could be started: " + "; ".join(problems + [why]))
    url, stop = started
    try:
        yield url
    finally:
        stop()


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty database on the test server, dropped afterwards."""
    import psycopg
    name = "ladder_" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _, query = postgres_server.partition("?")
    head = base.rsplit("/", 1)[0]
    yield f"{head}/{name}" + (f"?{query}" if query else "")
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
