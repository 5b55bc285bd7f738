"""A rebuild of the history index while History is on screen (issue 26, item 12): the
index's worker keeps still while the screen draws a frame, and no full collection of
every object (started by the worker's allocations) lands in a frame. Counted, not timed:
what the worker did between the start and the end of each frame."""

from __future__ import annotations

import gc
import os
import time
from types import SimpleNamespace

import pytest

from koikoi.match_index import INDEX_NAME
from koikoi.storage import Storage

from test_index_rebuild import long_match, many  # noqa: F401 - a fixture

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def filed_without_index(n: int) -> None:
    """``n`` matches filed in this test's history folder, and no index of them."""
    store = Storage()
    for seed in range(1, n + 1):
        store.file_match(long_match(seed))
    store.history_index.close()
    for suffix in ("", "-wal", "-shm"):
        p = store.data_dir / (INDEX_NAME + suffix)
        if p.exists():
            p.unlink()           # the test's own cache: rebuilt from nothing


@pytest.fixture
def rebuilding():
    filed_without_index(24)
    from koikoi.ui.app import App
    app = App((1280, 720), storage=Storage())
    app.settings["anim_speed"] = 0.0
    app.storage.history_index.pool_from = 0      # read on the worker thread: its Python competes for the frames
    yield app
    app.storage.history_index.close()


def _frames_until_built(app, watch):
    """Step the History screen until the index is built; ``watch(phase)`` is called at the
    start ('update') and the end ('drawn') of each of its frames."""
    from koikoi.ui.scenes.history import HistoryScene
    scene = HistoryScene(app)
    update, draw = scene.update, scene.draw_content

    def timed_update(dt):
        watch("update")
        update(dt)

    def timed_draw(surface):
        # the frame's own work, longer than reading a file or two: a worker let run reads several
        end = time.perf_counter() + 0.025
        while time.perf_counter() < end:
            pass
        draw(surface)
        watch("drawn")
    scene.update, scene.draw_content = timed_update, timed_draw
    app.push(scene)
    index = app.storage.history_index
    for _ in range(3000):
        app.step(1 / 60)
        time.sleep(0.002)                           # between frames: the worker's time
        if (not index.busy and not scene.feed.busy and scene.feed.version == index.version
                and getattr(scene, "_arriving", None) is None):
            break                                   # built, and its last rows shown (drawn ahead first)
    app.step(1 / 60)
    return scene


def test_the_worker_does_nothing_while_a_frame_is_drawn(rebuilding):
    app = rebuilding
    index = app.storage.history_index
    seen = {}
    frames = []

    def watch(phase):
        done, total = index.progress
        if phase == "update":
            seen["at"] = (done, total)
        elif seen.get("at") is not None and total and seen["at"][1] == total:
            frames.append(done - seen["at"][0])
    scene = _frames_until_built(app, watch)
    assert len(scene.matches) == 24
    assert frames, "no frame was drawn while the files were read"
    # the file being read when the frame began may be finished in it; no other is begun
    assert max(frames) <= 1, f"files read within one frame: {frames}"


def test_the_collector_waits_for_the_worker_while_the_index_rebuilds(rebuilding):
    """A full collection walks every object of the game (40-270 ms at 5,000 rows): started
    by the worker's allocations, it froze a frame. While the worker runs, the automatic
    collector is off (the worker collects the young objects itself, between frames)."""
    app = rebuilding
    index = app.storage.history_index
    during = []

    def watch(phase):
        if index.busy:
            during.append(gc.isenabled())
    scene = _frames_until_built(app, watch)
    assert len(scene.matches) == 24
    assert during and not any(during), f"the collector was on in {sum(during)} of {len(during)} frames"
    assert gc.isenabled()                           # given back once the worker ends


def test_fresh_rows_are_put_in_place_newest_first(koikoi_home):
    """The feed puts the rows a rebuild writes into the list it has (a row read again moves
    to its new place), in the index's own order, without sorting everything each time."""
    from pathlib import Path

    from koikoi.index_rows import _newest_first
    from koikoi.ui.scenes.history import HistoryFeed

    def row(name, when):
        return SimpleNamespace(path=Path("/h") / name, finished_at=when)

    class Index:
        removals = 0

        def __init__(self):
            self.rows = [row("b", "2024-01-02"), row("a", "2024-01-01"), row("c", "2024-01-01")]
            self.written = []

        def snapshot(self):
            return _newest_first(self.rows), 0

        def written_since(self, mark):
            return self.written[mark:], len(self.written)

    index = Index()
    feed = HistoryFeed.__new__(HistoryFeed)
    feed.index = index
    feed._full_load()
    batches = [[row("d", "2024-01-03"), row("a", "2024-01-05")],
               [row("e", "2023-12-31"), row("b", "2024-01-01"), row("a", "2024-01-01")], []]
    for batch in batches:
        index.written.extend(batch)
        feed._load()
        latest = {m.path.name: m for m in index.rows + index.written}
        assert feed.entries == _newest_first(latest.values())


def test_the_panel_keeps_its_size_when_the_first_rows_arrive(rebuilding):
    """The panel read empty at first is as tall as the rows will need: a panel resized mid-rebuild
    makes its surfaces anew (the 58-118 ms frame the benchmark showed)."""
    app = rebuilding
    sizes = []
    scene = _frames_until_built(app, lambda phase: sizes.append(tuple(app.top.panel)) if phase == "drawn" else None)
    assert len(scene.matches) == 24                 # more than the window shows: the panel's full height
    assert len(set(sizes)) == 1, f"the panel changed size {len(set(sizes)) - 1} time(s): {sorted(set(sizes))}"


@pytest.mark.parametrize("screen", ["history", "stats"])
def test_the_worker_keeps_still_until_the_screens_widgets_are_drawn(rebuilding, screen):
    """A blit gives up the interpreter lock: a worker let go before the screen's buttons were
    drawn took it at each of their blits, and the frame waited to get it back."""
    from koikoi.ui.scenes.history import HistoryScene
    from koikoi.ui.scenes.stats import StatsScene
    app = rebuilding
    index = app.storage.history_index
    scene = (HistoryScene if screen == "history" else StatsScene)(app)
    app.push(scene)
    held = []
    for _ in range(4):
        for w in scene.widgets:
            def draw(surface, _real=w.draw):
                held.append(not index._frame_free.is_set())     # the worker waits at its next step
                return _real(surface)
            w.draw = draw
        app.step(1 / 60)
        assert index._frame_free.is_set()           # let go once the screen is drawn
    index.wait(30)
    assert held and all(held), f"{held.count(False)} of {len(held)} widgets drawn with the worker let go"


@pytest.mark.parametrize("in_processes", [True, False])
def test_the_worker_merges_a_few_rows_between_two_steps(many, monkeypatch, in_processes):  # noqa: F811
    """A frame that begins while the worker is between two steps shares the interpreter with it
    until its next step: rows are made ready for the database a few at a time (a batch of 32 or
    64 in one went 2-7 ms without a step), and each submit to the pool (which may start a
    process) has a step of its own. Nothing is lost."""
    import concurrent.futures as cf

    from koikoi import match_index
    from koikoi.match_index import summarize
    store, paths = many
    index = Storage().history_index
    if not in_processes:
        index.pool_from = 0
    since = {"rows": 0, "submits": 0}
    most = {"rows": 0, "submits": 0}
    step, row = index._step, match_index._row

    def counting_step():
        since.update(rows=0, submits=0)
        step()

    def counting_row(*args):
        since["rows"] += 1
        most["rows"] = max(most["rows"], since["rows"])
        return row(*args)
    real_submit = cf.ProcessPoolExecutor.submit

    def counting_submit(self, *args, **kwargs):
        since["submits"] += 1
        most["submits"] = max(most["submits"], since["submits"])
        return real_submit(self, *args, **kwargs)
    index._step = counting_step
    monkeypatch.setattr(match_index, "_row", counting_row)
    monkeypatch.setattr(cf.ProcessPoolExecutor, "submit", counting_submit)
    index.refresh(wait=True)
    assert {m.path.name: m for m in index.entries()} == {p.name: summarize(p, data_root=store.data_dir)
                                                         for p in paths}
    assert 0 < most["rows"] <= getattr(match_index, "MERGE_STEP", 8), most
    assert most["submits"] == (1 if in_processes else 0), most
    index.close()
