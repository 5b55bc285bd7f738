"""The history index is a cache that is checked, never trusted (issue 26, items 4-7).

Each case builds a real index from filed matches, then damages it as another
program (or a curious player) could: hostile values in a row, a database of
another shape, a link in its place, a row or a file edited in place. History,
Statistics and a match's ledger must show what the files say, and nothing the
game did not make is written into, followed or deleted.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pygame
import pytest

from koikoi.match_index import INDEX_NAME, summarize
from koikoi.storage import Storage

from test_hostile_files import SEATS, a_match  # noqa: F401 (SEATS: for the other index tests)


@pytest.fixture(autouse=True)
def _close_display():
    yield
    pygame.display.quit()


def filed(n_finished: int = 3, conceded: bool = True) -> tuple[Storage, list[Path]]:
    """A history of ``n_finished`` finished matches (and one conceded), indexed, the index closed."""
    store = Storage()
    paths = [store.file_match(a_match(seed, finish=True)) for seed in range(1, n_finished + 1)]
    if conceded:
        paths.append(store.file_match(a_match(50, actions=6), conceded=0))
    store.list_finished()
    store.history_index.close()
    return store, paths


def truth(store: Storage, paths) -> dict:
    """What each file says (the rows a rebuild from nothing gives)."""
    return {p.name: summarize(p, data_root=store.data_dir) for p in paths}


def index_path(store: Storage) -> Path:
    return store.data_dir / INDEX_NAME


def sql(store: Storage, *statements, params=()) -> None:
    db = sqlite3.connect(str(index_path(store)))
    try:
        for s in statements:
            db.execute(s, params) if params else db.execute(s)
        db.commit()
    finally:
        db.close()


def set_aside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".corrupt-*"))


def drive(open_ledger: bool = True) -> dict:
    """The player opens History, each match's ledger, and Statistics."""
    from koikoi.ui.app import App
    from koikoi.ui.scenes.history import HistoryScene
    from koikoi.ui.scenes.stats import StatsScene
    app = App((1280, 720), storage=Storage(), seed=3)
    app.settings["anim_speed"] = 0.0
    app.push(HistoryScene(app))
    assert app.top.feed.index.wait(60)
    for _ in range(3):
        app.step(1 / 60)
    history = app.top
    report = {"history": {m.path.name: m for m in history.matches}}
    if open_ledger:
        for i in range(len(history.matches)):
            history.open(i)
            for _ in range(2):
                app.step(1 / 60)
            report.setdefault("ledgers", []).append(type(app.top).__name__)
            while app.top is not history:
                app.pop()
    app.push(StatsScene(app))
    for _ in range(3):
        app.step(1 / 60)
    report["stats"] = app.top.stats.overall.matches
    report["left_out"] = app.top.conceded + app.top.unfinished
    app.pop()
    app.shutdown()
    pygame.display.quit()
    return report


# ---------------------------------------------------------------- item 4: hostile values in a row


HOSTILE_VALUES = {
    "finished_at-null": ("finished_at", None),
    "name-null": ("name", None),
    "stats_opponent-null": ("stats_opponent", None),
    "record-nested-5000": ("record", "[" * 5000 + "]" * 5000),
    "record-dict-nested-5000": ("record", '{"a":' * 5000 + "1" + "}" * 5000),
    "conceded-a": ("conceded", "a"),
    "conceded-5": ("conceded", 5),
    "scores-text": ("score0", "lots"),
    "winner-float": ("winner", 0.5),
    "players-blob": ("player0", b"\x00\xff"),
    "months-huge": ("months", 2 ** 62),
    "record-counts": ("record", '{"matches":1,"wins":1,"points_for":"many"}'),
    "unfinished-7": ("unfinished", 7),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_VALUES))
def test_a_row_with_hostile_values_is_rebuilt_from_its_file(case):
    store, paths = filed()
    column, value = HOSTILE_VALUES[case]
    # every row: the finished and the conceded ones
    sql(store, f"UPDATE matches SET {column} = ?", params=(value,))
    report = drive()
    assert report["history"] == truth(store, paths)
    assert report["ledgers"] == ["MatchResultsScene"] * len(paths)
    assert report["stats"] == 3 and report["left_out"] == 1
    assert all(p.exists() for p in paths)              # the files are the truth: never moved
    # and the index holds the files' rows again
    again = Storage()
    assert {m.path.name: m for m in again.list_finished()} == truth(store, paths)


def test_a_rows_values_are_never_shown_before_they_are_checked():
    """Straight from the index (before any refresh) a bad row is left out, not shown or crashed on."""
    store, paths = filed(conceded=False)
    sql(store, "UPDATE matches SET finished_at = NULL WHERE name = ?", params=(paths[0].name,))
    index = Storage().history_index
    index.refresh(wait=True)
    assert {m.path.name for m in index.entries()} == {p.name for p in paths}
    assert all(type(m.finished_at) is str for m in index.entries())


# ---------------------------------------------------------------- item 5: a database of another shape


WRONG_SHAPES = {
    "table-of-another-shape": ("DROP TABLE matches", "CREATE TABLE matches (name TEXT PRIMARY KEY, junk BLOB)"),
    "view-named-matches": ("ALTER TABLE matches RENAME TO kept", "CREATE VIEW matches AS SELECT * FROM kept WHERE 0"),
    "trigger-aborts-inserts": ("DELETE FROM matches",
                               "CREATE TRIGGER no_rows BEFORE INSERT ON matches BEGIN SELECT RAISE(ABORT, 'no'); END"),
    "unknown-version": ("DELETE FROM matches", "PRAGMA user_version = 99"),
    "version-zero-with-a-table": ("DROP TABLE matches", "PRAGMA user_version = 0",
                                  "CREATE TABLE matches (a, b, c)"),
    "extra-table": ("DELETE FROM matches", "CREATE TABLE other (x)"),
}


@pytest.mark.parametrize("case", sorted(WRONG_SHAPES))
def test_a_database_of_another_shape_is_set_aside_and_rebuilt(case):
    store, paths = filed()
    sql(store, *WRONG_SHAPES[case])
    before = index_path(store).read_bytes()
    report = drive(open_ledger=False)
    assert report["history"] == truth(store, paths)
    assert report["stats"] == 3
    kept = set_aside(index_path(store))
    assert len(kept) == 1 and kept[0].read_bytes() == before       # renamed, never deleted
    assert index_path(store).is_file()


def test_the_shape_of_a_rebuilt_index_is_accepted_as_it_is():
    """The check does not refuse what this version writes: nothing set aside on the next start."""
    store, paths = filed()
    report = drive(open_ledger=False)
    assert report["history"] == truth(store, paths)
    assert set_aside(index_path(store)) == []


# ---------------------------------------------------------------- item 6: never through a link


def linked_to_another_programs_database(store: Storage, folder: Path) -> tuple[Path, Path, bytes]:
    """The index replaced by a link to another program's database: (index, that database, its bytes)."""
    index = index_path(store)
    for p in [index] + [index.with_name(index.name + s) for s in ("-wal", "-shm")]:
        if os.path.lexists(p):
            p.unlink()
    other = folder / "other-program.db"
    db = sqlite3.connect(str(other))
    db.execute("CREATE TABLE notes (body TEXT)")
    db.execute("INSERT INTO notes VALUES ('mine')")
    db.commit()
    db.close()
    before = other.read_bytes()
    os.symlink(other, index)
    return index, other, before


def test_a_link_to_another_programs_database_is_never_written_into(tmp_path):
    store, paths = filed()
    index, other, before = linked_to_another_programs_database(store, tmp_path)
    report = drive(open_ledger=False)
    assert report["history"] == truth(store, paths) and report["stats"] == 3
    assert other.read_bytes() == before
    assert not os.path.lexists(str(other) + "-wal") and not os.path.lexists(str(other) + "-shm")
    kept = set_aside(index)
    assert len(kept) == 1 and kept[0].is_symlink() and os.readlink(kept[0]) == str(other)
    assert index.is_file() and not index.is_symlink()


def test_a_link_in_place_of_the_write_ahead_log_is_never_written_through(tmp_path):
    store, paths = filed()
    index = index_path(store)
    wal = index.with_name(index.name + "-wal")
    if os.path.lexists(wal):
        wal.unlink()
    target = tmp_path / "someone-elses.log"
    target.write_bytes(b"not yours")
    os.symlink(target, wal)
    report = drive(open_ledger=False)
    assert report["history"] == truth(store, paths)
    assert target.read_bytes() == b"not yours"
    assert not wal.is_symlink()


def test_a_second_window_never_reads_through_a_link(tmp_path):
    store, paths = filed()
    index, other, before = linked_to_another_programs_database(store, tmp_path)
    viewer = Storage(read_only=True)
    assert {m.path.name: m for m in viewer.list_finished()} == truth(store, paths)
    assert other.read_bytes() == before and index.is_symlink()     # a reader moves nothing


# ---------------------------------------------------------------- item 7: rows that disagree with their files


def test_an_edited_row_is_noticed_and_rebuilt_on_a_refresh():
    store, paths = filed()
    sql(store, "UPDATE matches SET score0 = score0 + 7, player0 = 'Someone else', rounds = rounds + 1")
    report = drive(open_ledger=False)
    assert report["history"] == truth(store, paths)


def test_an_edited_record_is_noticed_and_rebuilt():
    store, paths = filed(conceded=False)
    sql(store, """UPDATE matches SET record = '{"matches":1,"wins":1,"rounds":' || rounds || ',"yaku":{}}'""")
    again = Storage()
    assert {m.path.name: m for m in again.list_finished()} == truth(store, paths)


def test_a_file_edited_in_place_is_noticed_even_with_its_size_and_time_kept():
    store, paths = filed(conceded=False)
    index = Storage().history_index
    index.refresh(wait=True)
    p = paths[0]
    st = os.stat(p)
    text = p.read_text()
    assert text.count('"name": "You"') + text.count('"name":"You"') == 1
    p.write_text(text.replace('"You"', '"Yuu"'))              # same length
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(p).st_size == st.st_size and os.stat(p).st_mtime_ns == st.st_mtime_ns
    index.refresh(wait=True)
    rows = {m.path.name: m for m in index.entries()}
    assert rows[p.name].players[0] == "Yuu"
    assert rows == truth(store, paths)
    index.close()


def test_a_refresh_of_an_unchanged_history_replays_nothing(monkeypatch):
    """Checking every file against its row costs a hash, not a replay."""
    import koikoi.index_rows as rows_module
    store, paths = filed()
    index = Storage().history_index
    index.refresh(wait=True)
    calls = []
    monkeypatch.setattr(rows_module, "summarize", lambda *a, **k: calls.append(a) or pytest.fail("replayed"))
    t0 = time.monotonic()
    index.refresh(wait=True)
    assert calls == [] and time.monotonic() - t0 < 5
    assert {m.path.name: m for m in index.entries()} == truth(store, paths)
    index.close()
