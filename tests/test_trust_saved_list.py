"""Matches kept for later are listed from their summaries, not replayed at every visit of the
title (issue 26, item 9: 2,000 kept matches froze the first title frame for 95 s and every
return to it for 31 s). The summaries are a cache that is checked: an edited entry, an edited
file, a hostile index are noticed and rebuilt from the files, which are never deleted."""

from __future__ import annotations

import json
import os
import re
import time

import pytest

import koikoi.session as session_module
from koikoi.engine import RULESETS
from koikoi.saved_index import SAVED_INDEX_NAME
from koikoi.session import MatchSession, SeatConfig
from koikoi.storage import Storage

VS_CPU = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Random)", "random"))


def kept(store: Storage, seed: int, moves: int = 6) -> MatchSession:
    """A match played ``moves`` actions, kept for later the way the game keeps one."""
    s = MatchSession(RULESETS["casual"], seed=seed, months=3, seats=VS_CPU)
    for _ in range(moves):
        s.apply(s.legal()[0])
    store.saved_dir.mkdir(parents=True, exist_ok=True)
    (store.saved_dir / f"match-{s.id}.json").write_text(s.to_json())
    return s


@pytest.fixture
def replays(monkeypatch):
    """Counts every match replayed from a file (``session.load_match``)."""
    count = {"n": 0}
    real = session_module.load_match

    def counting(data):
        count["n"] += 1
        return real(data)
    monkeypatch.setattr(session_module, "load_match", counting)
    return count


def summaries(store: Storage) -> dict:
    rows, problems = store.list_saved()
    assert problems == []
    return {m.match_id: m.summary for m in rows}


def test_a_second_listing_and_the_title_replay_no_kept_match(replays):
    from koikoi.ui.app import App
    from koikoi.ui.scenes.title import TitleScene
    store = Storage()
    matches = [kept(store, seed) for seed in range(1, 6)]
    first = summaries(store)
    assert replays["n"] == 5                       # each read once
    for s in matches:
        got = first[s.id]
        assert (got.players, got.round, got.months, got.scores, got.rules) == (
            ("You", "CPU (Random)"), s.state.round, s.state.months, tuple(s.state.scores), "casual")
    replays["n"] = 0
    assert summaries(Storage()) == first           # a new start: from the index on disk
    app = App((1280, 720), storage=Storage())
    try:
        app.push(TitleScene(app))
        app.step(1 / 60)
        assert app.top.kept == 5
        app.push(TitleScene(app))                  # back to the title
        app.step(1 / 60)
    finally:
        app.shutdown()
    assert replays["n"] == 0


def test_a_match_kept_from_the_autosave_is_listed_without_a_replay(replays):
    store = Storage()
    s = MatchSession(RULESETS["casual"], seed=3, months=3, seats=VS_CPU, store=store)
    for _ in range(4):
        s.apply(s.legal()[0])                      # autosaved after each
    assert store.keep_for_later()
    replays["n"] = 0
    assert summaries(Storage())[s.id].scores == tuple(s.state.scores)
    assert replays["n"] == 0


def test_an_entry_edited_in_the_index_is_rebuilt_from_its_file():
    store = Storage()
    s = kept(store, 4)
    summaries(store)
    index = store.data_dir / SAVED_INDEX_NAME
    data = json.loads(index.read_text())
    (entry,) = data["files"].values()
    entry[12] = 999                                 # seat 0's score, edited by hand
    index.write_text(json.dumps(data))
    assert summaries(Storage())[s.id].scores == tuple(s.state.scores)
    assert 999 not in json.loads(index.read_text())["files"][f"match-{s.id}.json"]


def test_a_kept_file_changed_after_it_was_summarized_is_read_again(replays):
    store = Storage()
    s = kept(store, 5, moves=2)
    assert summaries(store)[s.id].scores == (0, 0)
    later = MatchSession.from_json(s.to_json())
    while later.state.round == 1:                   # the same match, a round further on
        later.apply(later.legal()[0])
    path = store.saved_dir / f"match-{s.id}.json"
    before = os.stat(path)
    path.write_text(later.to_json())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))    # the same modification time
    got = summaries(Storage())[s.id]
    assert got.round == later.state.round and got.scores == tuple(later.state.scores)
    # the same bytes under a new time (copied back, touched): used without a replay
    summaries(Storage())
    replays["n"] = 0
    os.utime(path, (1.6e9, 1.6e9))
    assert summaries(Storage())[s.id].round == later.state.round
    assert replays["n"] == 0


@pytest.mark.parametrize("hostile", ["garbage", "deep", "link", "folder", "wrong_shape", "huge_values"])
def test_a_hostile_index_is_set_aside_and_rebuilt(hostile, tmp_path):
    store = Storage()
    s = kept(store, 6)
    index = store.data_dir / SAVED_INDEX_NAME
    theirs = tmp_path / "someone-elses.json"
    theirs.write_text('{"version": 1, "files": {}}')
    if hostile == "garbage":
        index.write_bytes(b"\x00\xff{not json")
    elif hostile == "deep":
        index.write_text("[" * 5000 + "]" * 5000)
    elif hostile == "link":
        index.symlink_to(theirs)
    elif hostile == "folder":
        index.mkdir()
    elif hostile == "wrong_shape":
        index.write_text(json.dumps({"version": 1, "files": [1, 2, 3]}))
    else:
        summaries(store)
        data = json.loads(index.read_text())
        for entry in data["files"].values():
            entry[10] = 10 ** 12                     # a round no match has
            entry[8] = "x" * 5000                    # a name no seat has
        index.write_text(json.dumps(data))
    got = summaries(Storage())
    assert got[s.id].scores == tuple(s.state.scores)
    assert theirs.read_text() == '{"version": 1, "files": {}}'        # never written through
    assert (store.saved_dir / f"match-{s.id}.json").read_text() == s.to_json()
    if hostile != "huge_values":
        assert any(p.name.startswith(SAVED_INDEX_NAME + ".corrupt-") for p in store.data_dir.iterdir())
    assert json.loads(index.read_text())["files"]       # a fresh index in its place
    assert not index.is_symlink()


def test_many_unread_kept_matches_do_not_hold_up_the_listing_and_fill_in_behind(replays):
    store = Storage()
    matches = [kept(store, seed) for seed in range(10, 16)]
    bad = store.saved_dir / "match-00000000000000ff.json"
    bad.write_text('{"format": 2, "id": "00000000000000ff", "seats": "two", "log": {}}')
    rows, problems = store.list_saved(budget=0.0)   # no time to read any: all listed, unread
    assert len(rows) == 7 and all(m.summary is None for m in rows) and problems == []
    assert store.wait_kept(60)
    rows, problems = store.list_saved()
    assert {m.match_id for m in rows} == {s.id for s in matches}
    assert all(m.summary is not None for m in rows)
    assert len(problems) == 1 and "could not be restored" in problems[0]        # said once, set aside
    assert not bad.exists() and any(p.name.startswith(bad.name + ".corrupt-") for p in store.saved_dir.iterdir())
    replays["n"] = 0
    assert store.list_saved() == (rows, [])
    assert replays["n"] == 0


def test_a_read_only_window_lists_kept_matches_and_writes_no_index():
    store = Storage()
    s = kept(store, 7)
    ro = Storage().read_only_view()
    assert {m.match_id for m in ro.list_saved()[0]} == {s.id}
    assert not (store.data_dir / SAVED_INDEX_NAME).exists()


def test_resume_replays_the_file_not_the_summary():
    store = Storage()
    s = kept(store, 8)
    summaries(store)
    resumed = store.resume_saved(s.id)
    assert resumed.state.events == s.state.events
    assert summaries(Storage()) == {}
    assert f"match-{s.id}.json" not in json.loads((store.data_dir / SAVED_INDEX_NAME).read_text())["files"]


def test_the_saved_matches_screen_fills_in_rows_read_in_the_background(monkeypatch):
    import koikoi.kept as kept_module
    from koikoi.ui.app import App
    from koikoi.ui.scenes.saved import SavedMatchesScene, saved_cells
    store = Storage()
    matches = [kept(store, seed) for seed in (30, 31, 32)]
    monkeypatch.setattr(kept_module, "LIST_BUDGET", 0.0)      # no time to read any while listing
    app = App((1280, 720), storage=store)
    try:
        scene = SavedMatchesScene(app)
        app.push(scene)
        app.step(1 / 60)
        assert len(scene.matches) == 3 and all(m.summary is None for m in scene.matches)
        assert saved_cells(scene.matches[0])["match"] == "Reading this match…"
        scene.resume(0)                                            # a row being read: nothing happens
        assert app.top is scene and store.autosave_path.exists() is False
        store.wait_kept(60)
        for _ in range(100):
            app.step(1 / 60)
            if all(m.summary is not None for m in scene.matches):
                break
            time.sleep(0.02)
        assert {m.match_id for m in scene.matches} == {s.id for s in matches}
        assert all(re.fullmatch(r"Month [123] of 3 · You \d+ – \d+ CPU \(Random\)", saved_cells(m)["match"])
                   for m in scene.matches), [saved_cells(m) for m in scene.matches]
        scene.resume(0)
        assert store.autosave_path.exists()
    finally:
        app.shutdown()
