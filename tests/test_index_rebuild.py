"""Rebuilding the history index from many files (issue 26, item 12): the replays run
in background processes, so the game's own process (its render thread) keeps its
interpreter; the rows are the ones each file gives."""

from __future__ import annotations

import time

import pytest

from koikoi.engine import RULESETS
from koikoi.match_index import INDEX_NAME, summarize
from koikoi.session import MatchSession
from koikoi.storage import Storage

from test_index_checks import SEATS


def long_match(seed: int) -> MatchSession:
    s = MatchSession(RULESETS["casual"], seed=seed, months=12, seats=SEATS)
    while not s.state.is_over:
        s.apply(s.legal()[seed % len(s.legal())])
    return s


@pytest.fixture
def many():
    store = Storage()
    paths = [store.file_match(long_match(seed)) for seed in range(1, 73)]
    store.history_index.close()
    for suffix in ("", "-wal", "-shm"):
        p = store.data_dir / (INDEX_NAME + suffix)
        if p.exists():
            p.unlink()           # the test's own cache: rebuilt from nothing
    return store, paths


def test_a_rebuild_replays_outside_the_games_process(many):
    store, paths = many
    t0 = time.process_time()
    truth = {p.name: summarize(p, data_root=store.data_dir) for p in paths}
    replaying = time.process_time() - t0
    index = Storage().history_index
    assert len(paths) >= getattr(index, "pool_from", 48)
    t0 = time.process_time()
    index.refresh(wait=True)
    ours = time.process_time() - t0              # every thread of this process, none of the helpers'
    assert {m.path.name: m for m in index.entries()} == truth
    index.close()
    assert ours < 0.5 * replaying, f"this process spent {ours:.2f} s; the replays alone take {replaying:.2f} s"


def test_a_rebuild_without_background_processes_still_reads_everything(many, monkeypatch):
    """Where processes cannot start (a restricted system), the files are read on the worker thread."""
    import concurrent.futures as cf
    store, paths = many

    def refuse(*a, **k):
        raise OSError("no processes here")
    monkeypatch.setattr(cf, "ProcessPoolExecutor", refuse)
    index = Storage().history_index
    index.refresh(wait=True)
    assert {m.path.name: m for m in index.entries()} == {p.name: summarize(p, data_root=store.data_dir)
                                                         for p in paths}
    index.close()


def test_a_bad_file_met_by_a_background_process_is_set_aside_like_any(many):
    store, paths = many
    bad = paths[5]
    bad.write_text(bad.read_text().replace('"events"', '"eventz"', 1))
    index = Storage().history_index
    index.refresh(wait=True)
    names = {m.path.name for m in index.entries()}
    assert names == {p.name for p in paths} - {bad.name}
    assert not bad.exists() and len(list(bad.parent.glob(bad.name + ".corrupt-*"))) == 1
    assert len(index.take_problems()) == 1
    index.close()


def test_rows_show_while_the_rebuild_runs_and_the_progress_counts_up(many):
    from koikoi.ui.app import App
    from koikoi.ui.scenes.history import HistoryScene
    store, paths = many
    app = App((1280, 720), storage=Storage(), seed=3)
    app.settings["anim_speed"] = 0.0
    app.push(HistoryScene(app))
    seen, texts = [], set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        app.step(1 / 60)
        seen.append(len(app.top.matches))
        text = app.top.feed.progress_text()
        if text:
            texts.add(text)
        if not app.top.feed.busy and len(app.top.matches) == len(paths):
            break
        time.sleep(0.02)
    assert seen[-1] == len(paths)
    assert texts and all(t.startswith("Reading match files") for t in texts)
    app.shutdown()


@pytest.mark.parametrize("screen", ["history", "stats"])
def test_the_game_loop_idles_while_a_rebuild_runs(many, screen):
    """History and Statistics do not ask for 60 redraws a second while the index reads files:
    the idle loop draws the progress line, and the render thread leaves the cores to the
    processes replaying the logs (frames at full rate come back with input)."""
    from koikoi.ui.app import IDLE_AFTER, App
    from koikoi.ui.scenes.history import HistoryScene
    from koikoi.ui.scenes.stats import StatsScene
    app = App((1280, 720), storage=Storage(), seed=3)
    app.settings["anim_speed"] = 0.0
    app.push((HistoryScene if screen == "history" else StatsScene)(app))
    app._last_input -= IDLE_AFTER + 1             # no input for a while
    busy_frames = idle_frames = 0
    ahead, run = [], 0                  # History's runs of frames drawing arriving rows ahead
    deadline = time.monotonic() + 120
    while app.top.feed.busy and time.monotonic() < deadline:
        app.step(1 / 60)
        if app.top.intro < 1.0 or app.toasts:       # the screen's opening, a message: full rate
            continue
        if getattr(app.top, "_arriving", None) is not None:
            run += 1                    # rows drawn ahead a few a frame, then shown: full rate, briefly
            continue
        if run:
            ahead.append(run)
            run = 0
        if app.busy:
            busy_frames += 1
        else:
            idle_frames += 1
        time.sleep(0.02)
    assert idle_frames > 0 and busy_frames == 0, (busy_frames, idle_frames)
    assert max(ahead + [run], default=0) <= 12, f"rows drawn ahead for {max(ahead + [run])} frames in a row"
    app.shutdown()
