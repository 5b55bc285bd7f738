"""No player ever loses a match: every finished match filed once (by its id),
nothing unfinished replaced without asking, a crash at any point keeps one copy."""

from __future__ import annotations

import gc
import json
import os

import pygame
import pytest

from koikoi.engine import RULESETS
from koikoi.session import MatchSession, SeatConfig
from koikoi.storage import Storage
from koikoi.ui.app import App
from koikoi.ui.scenes.history import HistoryScene
from koikoi.ui.scenes.newmatch import NewMatchScene
from koikoi.ui.scenes.saved import SavedMatchesScene, UnfinishedMatchScene
from koikoi.ui.scenes.settings import PauseMenuScene
from koikoi.ui.scenes.stats import StatsScene
from koikoi.ui.scenes.title import TitleScene
from koikoi.ui import widgets as W

CPUS = (SeatConfig("cpu", "CPU East", "random"), SeatConfig("cpu", "CPU West", "random"))
VS_CPU = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Random)", "random"))


@pytest.fixture(autouse=True)
def _close_display():
    yield
    pygame.display.quit()


def make_app(read_only=False) -> App:
    app = App((1280, 720), storage=Storage(), seed=5, read_only=read_only)
    app.settings["anim_speed"] = 0.0
    return app


def button(scene, label: str) -> W.Button:
    for w in scene.widgets:
        if isinstance(w, W.Button) and w.label == label and w.visible:
            return w
    raise AssertionError(f"no button {label!r} on {type(scene).__name__}")


def play(session, n=None):
    k = 0
    while not session.state.is_over and (n is None or k < n):
        session.apply(session.cpu_move_now() if session.is_cpu_turn() else session.legal()[0])
        k += 1
    return session


def history_ids(store: Storage) -> list[str]:
    out = []
    for p in store.history_dir.glob("match-*.json"):
        out.append(json.loads(p.read_text())["id"])
    return out


# ---------------------------------------------------------------- filing by id


def test_a_hundred_matches_in_one_process_give_a_hundred_history_entries():
    """The old App remembered filed matches by id(session): CPython reuses a freed
    object's address, so a later match looked filed already (17 of 30 were kept)."""
    app = make_app()
    finished = []
    for seed in range(100):
        s = app.watch(MatchSession(RULESETS["casual"], seed=1000 + seed, months=1, seats=CPUS))
        play(s)
        app.finish_match(s)               # the ledger asks again: still one file
        finished.append(s.id)
        del s
        gc.collect()                      # free the session so its address can be reused
    store = Storage()
    ids = history_ids(store)
    assert sorted(ids) == sorted(finished) and len(set(ids)) == 100
    assert len(store.list_finished()) == 100
    assert not store.has_autosave()


def test_filing_twice_writes_one_file():
    store = Storage()
    s = play(MatchSession(RULESETS["casual"], seed=3, months=1, seats=CPUS))
    first = store.file_match(s)
    assert store.file_match(s) == first and Storage().file_match(s) == first
    assert len(list(store.history_dir.glob("match-*.json"))) == 1


def test_an_autosave_is_never_overwritten_by_another_match():
    store = Storage()
    a = play(MatchSession(RULESETS["casual"], seed=3, months=3, seats=VS_CPU, store=store), 4)
    b = MatchSession(RULESETS["casual"], seed=4, months=3, seats=VS_CPU, store=Storage())
    b.apply(b.legal()[0])                 # a second store that never read the autosave
    kept, _ = Storage().list_saved()
    assert [m.match_id for m in kept] == [a.id]
    assert Storage().load_autosave().id == b.id


# ---------------------------------------------------------------- crashes


def test_a_crash_between_filing_and_removing_the_autosave_keeps_one_copy():
    store = Storage()
    s = play(MatchSession(RULESETS["casual"], seed=7, months=1, seats=CPUS))
    store.file_match(s)
    store.autosave_path.write_text(s.to_json())       # the autosave a kill left behind
    app = make_app()
    app.push(TitleScene(app))
    app.step()
    assert app.top.saved is None
    assert not store.has_autosave()
    assert history_ids(store) == [s.id]
    app.push(StatsScene(app))
    app.top.feed.index.wait(10)
    app.step()
    assert app.top.stats.overall.matches == 1


def test_a_crash_after_conceding_keeps_one_copy():
    store = Storage()
    s = play(MatchSession(RULESETS["casual"], seed=8, months=3, seats=VS_CPU), 5)
    store.file_match(s, conceded=0)
    store.autosave_path.write_text(s.to_json())
    app = make_app()
    app.push(TitleScene(app))
    app.step()
    assert app.top.saved is None and not store.has_autosave()
    assert history_ids(store) == [s.id]


def test_leftover_temp_files_are_removed_at_start_but_not_by_a_second_window(koikoi_home):
    store = Storage()
    store.data_dir.mkdir(parents=True)
    store.history_dir.mkdir()
    store.config_dir.mkdir(parents=True)
    junk = [store.data_dir / ".autosave.json.koikoi-k2j3a_9z.tmp",
            store.history_dir / ".match-1-2.json.koikoi-x0000000.tmp",
            store.config_dir / ".settings.json.koikoi-qqqqqqqq.tmp"]
    for p in junk:
        p.write_text("half a file")
    # the player's own files, hidden .tmp ones too: none has the game's marker
    store.saved_dir.mkdir()
    keep = [store.data_dir / "notes.tmp", store.data_dir / ".notes.tmp", store.config_dir / ".settings.json.q.tmp",
            store.history_dir / ".draft.koikoi.tmp", store.saved_dir / ".plan.koikoi-short.tmp",
            store.saved_dir / ".x.koikoi-abcdefgh.tmp.bak"]
    for p in keep:
        p.write_text("mine")
    make_app(read_only=True)
    assert all(p.exists() for p in junk)
    pygame.display.quit()
    make_app()
    assert not any(p.exists() for p in junk)
    assert [p.read_text() for p in keep] == ["mine"] * len(keep)


def test_the_tidy_removes_a_temp_file_an_interrupted_write_really_left(koikoi_home, monkeypatch):
    """The marker the tidy looks for is the one atomic_write_text writes (not a guess)."""
    from koikoi import files as files_mod
    store = Storage()
    left = []

    def crash():
        left.extend(p for p in store.data_dir.iterdir() if p.name.endswith(".tmp"))
        raise KeyboardInterrupt   # a kill between the write and the rename
    real_unlink = os.unlink
    monkeypatch.setattr(files_mod.os, "unlink", lambda p: None)       # the kill: no clean-up
    with pytest.raises(KeyboardInterrupt):
        files_mod.atomic_write_text(store.autosave_path, "{}", before_replace=crash)
    monkeypatch.setattr(files_mod.os, "unlink", real_unlink)
    assert len(left) == 1 and left[0].exists()
    assert store.tidy() == left and not left[0].exists()


# ---------------------------------------------------------------- asking first


def _save_and_leave(app) -> MatchSession:
    """Start a match from the New match dialog, play a little, Pause -> Save and leave."""
    app.push(TitleScene(app))
    app.step()
    app.push(NewMatchScene(app))
    app.top.opponent = "easy"
    app.top.start_match()
    for _ in range(5):
        app.step()
    session = app.top.session
    play(session, 6)
    app.push(PauseMenuScene(app))
    app.top.to_title()
    app.step()
    return session


def test_new_match_over_a_saved_one_asks_and_keeping_it_loses_nothing():
    app = make_app()
    saved = _save_and_leave(app)
    assert isinstance(app.top, TitleScene) and app.top.saved.id == saved.id
    button(app.top, "New match").click()
    app.step()
    app.top.start_match()
    app.step()
    assert isinstance(app.top, UnfinishedMatchScene)        # asked, nothing replaced yet
    assert Storage().load_autosave().id == saved.id
    button(app.top, "Keep for later").click()
    for _ in range(3):
        app.step()
    new = app.top.session
    assert new.id != saved.id
    store = Storage()
    kept, _ = store.list_saved()
    assert [m.match_id for m in kept] == [saved.id]
    assert store.load_saved(saved.id).state == saved.state
    assert kept[0].summary.scores == tuple(saved.state.scores) and kept[0].summary.round == saved.state.round
    # back on the title: Continue is the new match, the kept one is one click away
    app.push(PauseMenuScene(app))
    app.top.to_title()
    app.step()
    assert app.top.saved.id == new.id and app.top.kept == 1
    button(app.top, "Saved matches").click()
    app.step()
    assert isinstance(app.top, SavedMatchesScene)
    app.top.resume(0)                         # switching keeps the other one: nothing is lost
    for _ in range(3):
        app.step()
    assert app.top.session.id == saved.id
    assert Storage().load_autosave().id == saved.id
    assert [m.match_id for m in Storage().list_saved()[0]] == [new.id]


def test_abandoning_files_the_match_as_unfinished_never_counted():
    app = make_app()
    saved = _save_and_leave(app)
    button(app.top, "New match").click()
    app.step()
    app.top.start_match()
    app.step()
    button(app.top, "Abandon it").click()
    for _ in range(3):
        app.step()
    store = Storage()
    assert Storage().load_autosave().id != saved.id
    rows = store.list_finished()
    assert [(m.match_id, m.unfinished, m.winner) for m in rows] == [(saved.id, True, None)]
    app.reset(HistoryScene(app))
    app.top.feed.index.wait(10)
    app.step()
    assert app.top.matches[0].unfinished
    from koikoi.ui.scenes.history import result_text
    assert result_text(app.top.matches[0])[0] == "Unfinished"
    assert "won" not in app.top._summary() or "0 won, 0 lost" in app.top._summary()
    app.reset(StatsScene(app))
    app.top.feed.index.wait(10)
    app.step()
    assert app.top.stats.overall.matches == 0 and app.top.unfinished == 1


def test_continue_it_goes_back_to_the_saved_match():
    app = make_app()
    saved = _save_and_leave(app)
    button(app.top, "New match").click()
    app.step()
    app.top.start_match()
    app.step()
    button(app.top, "Continue it").click()
    for _ in range(3):
        app.step()
    assert app.top.session.id == saved.id and app.top.session.state == saved.state
    assert len(app.scenes) == 1


def test_escape_on_the_question_changes_nothing():
    app = make_app()
    saved = _save_and_leave(app)
    button(app.top, "New match").click()
    app.step()
    app.top.start_match()
    app.step()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    app.step()
    assert isinstance(app.top, NewMatchScene)
    assert Storage().load_autosave().id == saved.id and not Storage().list_saved()[0]


def test_a_read_only_window_does_not_ask_and_writes_nothing(koikoi_home):
    app = make_app()
    saved = _save_and_leave(app)
    pygame.display.quit()
    before = {p: p.read_bytes() for p in koikoi_home.rglob("*") if p.is_file() and "logs" not in p.parts}
    ro = make_app(read_only=True)
    ro.push(TitleScene(ro))
    ro.step()
    ro.push(NewMatchScene(ro))
    ro.top.start_match()
    for _ in range(3):
        ro.step()
    play(ro.top.session, 5)
    ro.shutdown()
    after = {p: p.read_bytes() for p in koikoi_home.rglob("*") if p.is_file() and "logs" not in p.parts}
    assert after == before and Storage().load_autosave().id == saved.id


# ---------------------------------------------------------------- kill -9


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_kill_9_cycles_lose_nothing_and_duplicate_nothing(tmp_path):
    """A short run of tools/kill_test.py (the full one runs 60 cycles): the real
    start-up, CPU-vs-CPU play, SIGKILL at random moments, then the checks."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, str(root / "tools" / "kill_test.py"), "--cycles", "8", "--seed", "11",
                        "--min", "0.6", "--max", "1.6", "--home", str(tmp_path / "home")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "duplicates: 0; finished matches lost: 0; matches behind their last reported action: 0" in r.stdout


def test_saved_matches_by_keyboard_down_and_enter_resumes():
    store = Storage()
    kept = play(MatchSession(RULESETS["casual"], seed=21, months=3, seats=VS_CPU, store=store), 4)
    store.keep_for_later()
    app = make_app()
    app.push(TitleScene(app))
    app.step()
    assert app.top.kept == 1
    app.push(SavedMatchesScene(app))
    app.step()
    for key in (pygame.K_DOWN, pygame.K_RETURN):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        app.step()
    for _ in range(3):
        app.step()
    assert app.top.session.id == kept.id and Storage().load_autosave().id == kept.id


def test_the_row_indexed_at_filing_is_the_row_read_back_from_the_file():
    """file_match indexes from the match in hand; a rebuild from the file must agree."""
    from koikoi.match_index import summarize
    store = Storage()
    done = play(MatchSession(RULESETS["casual"], seed=31, months=1, seats=CPUS))
    half = play(MatchSession(RULESETS["casual"], seed=32, months=3, seats=VS_CPU), 6)
    half2 = play(MatchSession(RULESETS["casual"], seed=33, months=3, seats=VS_CPU), 6)
    paths = [store.file_match(done), store.file_match(half, conceded=0), store.file_match(half2, abandoned=True)]
    indexed = {m.path.name: m for m in store.history_index.entries()}
    for p in paths:
        assert indexed[p.name] == summarize(p, data_root=store.data_dir)
