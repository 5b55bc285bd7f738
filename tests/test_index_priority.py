"""The background processes of a rebuild of the history index (issue 26, item 12) give their core
to the game when the game wants one: tools/bench_history.py's trace showed the render thread,
woken for a frame, waiting behind them for a core (10-30 ms of a 9 ms frame) when they ran at
nice 5, and 6-10 ms at a time at nice 10. Checked on the processes the index really starts, not
timed: Linux's SCHED_IDLE where there is one (a waking task of the game preempts them at once),
and ten nice levels lower in any case."""

from __future__ import annotations

import os

import pytest

from koikoi.match_index import summarize
from koikoi.storage import Storage

from test_index_rebuild import many  # noqa: F401 - a fixture


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no nice values here")
def test_the_rebuilds_processes_yield_their_core_to_the_game(many, monkeypatch):  # noqa: F811
    import concurrent.futures as cf
    store, paths = many
    real = cf.ProcessPoolExecutor
    asked = []

    class Asking(real):
        """The index's own pool, asked once at which priority its processes run."""

        def submit(self, fn, *args, **kwargs):
            if not asked:
                asked.append(real.submit(self, os.getpriority, os.PRIO_PROCESS, 0))
                if hasattr(os, "SCHED_IDLE"):
                    asked.append(real.submit(self, os.sched_getscheduler, 0))
            return real.submit(self, fn, *args, **kwargs)
    monkeypatch.setattr(cf, "ProcessPoolExecutor", Asking)
    index = Storage().history_index
    assert len(paths) >= index.pool_from
    index.refresh(wait=True)
    assert asked, "the rebuild started no background process"
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert asked[0].result(timeout=60) == min(19, ours + 10)
    if hasattr(os, "SCHED_IDLE"):
        assert asked[1].result(timeout=60) == os.SCHED_IDLE
    # nothing lost: every file's row, once
    assert sorted(m.path.name for m in index.entries()) == sorted(p.name for p in paths)
    assert {m.path.name: m for m in index.entries()} == {p.name: summarize(p, data_root=store.data_dir)
                                                         for p in paths}
    index.close()
