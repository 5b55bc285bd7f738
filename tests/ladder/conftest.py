"""The ladder tests' databases: each test on SQLite and on a fresh PostgreSQL database
(the PostgreSQL server itself is started by tests/conftest.py's postgres_server, shared
with the network tests)."""
from __future__ import annotations

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """Each test twice: on an SQLite file, and on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "ladder.sqlite3")
    return request.getfixturevalue("postgres_url")
