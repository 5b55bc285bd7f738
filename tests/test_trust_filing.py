"""The end of a match is written before anything else can fail (issue 26, item 1): a match
finished while its history folder cannot be written (read-only, full) is filed once the
folder can be written again, in the same session or after a restart, exactly once, and
the title never offers to continue it one move before its end."""

from __future__ import annotations

import errno
import json

import pygame
import pytest

from koikoi import storage as storage_mod
from koikoi.engine import RULESETS
from koikoi.session import MatchSession, SeatConfig
from koikoi.storage import Storage
from koikoi.ui.app import App
from koikoi.ui.scenes.title import TitleScene

VS_CPU = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Random)", "random"))


@pytest.fixture(autouse=True)
def _close_display():
    yield
    pygame.display.quit()


def history_ids(store: Storage) -> list[str]:
    return [json.loads(p.read_text())["id"] for p in store.history_dir.glob("match-*.json")]


class HistoryFolder:
    """The history folder refusing writes with ``code`` (EACCES: read-only; ENOSPC: full),
    as the OS does (tests may run as root, where chmod does not stop writes)."""

    def __init__(self, monkeypatch, store: Storage, code: int):
        self.refusing = True
        real = storage_mod.atomic_write_text

        def write(path, text, **kwargs):
            if self.refusing and store.history_dir in path.parents:
                raise OSError(code, "refused")
            return real(path, text, **kwargs)
        monkeypatch.setattr(storage_mod, "atomic_write_text", write)


def finish_while_refused(monkeypatch, code):
    store = Storage()
    session = MatchSession(RULESETS["casual"], seed=11, months=1, seats=VS_CPU, store=store)
    folder = HistoryFolder(monkeypatch, store, code)
    while not session.state.is_over:
        session.apply(session.cpu_move_now() if session.is_cpu_turn() else session.legal()[0])
    assert session.save_problem is not None and session.save_problem[0] == "history"
    assert history_ids(store) == []
    return store, session, folder


def title(app: App) -> TitleScene:
    app.push(TitleScene(app))
    app.step()
    return app.top


def make_app() -> App:
    app = App((1280, 720), storage=Storage(), seed=5)
    app.settings["anim_speed"] = 0.0
    return app


@pytest.mark.parametrize("code,why", [(errno.EACCES, "cannot be written"), (errno.ENOSPC, "disk is full")])
def test_a_match_finished_while_history_is_refused_is_filed_once_in_the_same_session(monkeypatch, code, why):
    store, session, folder = finish_while_refused(monkeypatch, code)
    # the autosave holds the end: over, with the result (not the state one move before)
    kept = Storage().load_finished(store.autosave_path)
    assert kept.state.is_over and kept.state.events == session.state.events
    # the title, while the folder still refuses: no Continue, a toast saying it waits and why
    app = make_app()
    app.storage = store
    scene = title(app)
    assert scene.saved is None
    assert any("waiting to be saved to the history" in t.text and why in t.text for t in app.toasts)
    assert store.has_autosave() and store.file_pending() == (0, 1)
    # the folder can be written again: History's retry files it, once
    folder.refusing = False
    assert store.file_pending() == (1, 0)
    assert history_ids(store) == [session.id] and not store.has_autosave()
    assert store.file_pending() == (0, 0)
    assert title(app).saved is None and history_ids(store) == [session.id]
    assert [m.match_id for m in store.list_finished()] == [session.id]


def test_a_match_finished_while_history_is_refused_is_filed_once_after_a_restart(monkeypatch):
    store, session, folder = finish_while_refused(monkeypatch, errno.EROFS)
    folder.refusing = False
    app = make_app()                   # a new start: a new Storage, the title checks the autosave
    scene = title(app)
    assert scene.saved is None and not any("waiting" in t.text for t in app.toasts)
    assert history_ids(app.storage) == [session.id] and not app.storage.has_autosave()
    assert [m.match_id for m in app.storage.list_finished()] == [session.id]
    pygame.display.quit()
    app = make_app()                   # and again: still once, nothing to continue
    assert title(app).saved is None and history_ids(app.storage) == [session.id]


def test_a_finished_match_kept_for_later_while_history_is_refused_is_filed_by_the_retry(monkeypatch):
    store, session, folder = finish_while_refused(monkeypatch, errno.EACCES)
    other = MatchSession(RULESETS["casual"], seed=12, months=3, seats=VS_CPU, store=Storage())
    other.apply(other.legal()[0])      # a new match: the finished autosave is kept for later
    assert (store.saved_dir / f"match-{session.id}.json").exists()
    folder.refusing = False
    assert store.file_pending() == (1, 0)
    assert history_ids(store) == [session.id] and not (store.saved_dir / f"match-{session.id}.json").exists()
    assert Storage().load_autosave().id == other.id


def test_opening_history_files_a_match_whose_filing_failed_in_this_run(monkeypatch):
    from koikoi.ui.scenes.history import HistoryScene
    store, session, folder = finish_while_refused(monkeypatch, errno.ENOSPC)
    app = make_app()
    app.storage = store
    HistoryScene(app)                        # still refused: kept, and the toast says why
    assert history_ids(store) == [] and store.has_autosave()
    assert any("waiting to be saved to the history" in t.text for t in app.toasts)
    folder.refusing = False
    scene = HistoryScene(app)                # the folder takes it now: filed once, on opening
    assert history_ids(store) == [session.id] and not store.has_autosave()
    assert store.filing_problem is None
    for _ in range(200):                     # the index's worker picks the new file up
        app.step()
        if any(m.path.name.endswith(f"{session.id}.json") for m in scene.feed.entries):
            break
    assert len([m for m in scene.feed.entries if session.id in m.path.name]) == 1
