"""Network tests: every server listens on 127.0.0.1 port 0 (the OS picks), every client
connects there; nothing leaves this machine. Helpers are in net_helpers.py."""

from __future__ import annotations

import pytest


@pytest.fixture
def data_dir(tmp_path):
    """The server's folder for this test (its rooms.sqlite3)."""
    d = tmp_path / "server"
    d.mkdir()
    return d
