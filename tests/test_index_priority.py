"""The background processes of a rebuild of the history index (issue 26, item 12) give their core
to the game whenever the game wants one: tools/bench_history.py's trace showed the render thread,
woken for a frame, waiting behind them for a core (10-30 ms of a 9 ms frame) when they ran at
nice 5. Checked on the processes the index really starts, not timed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi.match_index import summarize
from koikoi.storage import Storage

from test_index_rebuild import many  # noqa: F401 - a fixture

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_the_rebuilds_processes_run_only_when_no_one_else_wants_the_core(many, monkeypatch):  # noqa: F811
    import concurrent.futures as cf
    store, paths = many
    real = cf.ProcessPoolExecutor
    asked = []

    class Asking(real):
        """The index's own pool, asked once under which scheduling policy its processes run."""

        def submit(self, fn, *args, **kwargs):
            if not asked:
                asked.append(real.submit(self, os.sched_getscheduler, 0))
            return real.submit(self, fn, *args, **kwargs)
    monkeypatch.setattr(cf, "ProcessPoolExecutor", Asking)
    index = Storage().history_index
    assert len(paths) >= index.pool_from
    index.refresh(wait=True)
    assert asked, "the rebuild started no background process"
    assert asked[0].result(timeout=60) == os.SCHED_IDLE
    # nothing lost: every file's row, once
    assert sorted(m.path.name for m in index.entries()) == sorted(p.name for p in paths)
    assert {m.path.name: m for m in index.entries()} == {p.name: summarize(p, data_root=store.data_dir)
                                                         for p in paths}
    index.close()


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no nice values here")
def test_without_sched_idle_a_process_takes_the_lowest_priority():
    """Where the system refuses SCHED_IDLE (or has none), the process is niced as far as it goes."""
    code = ("import os\n"
            "def refuse(*a): raise OSError('not here')\n"
            "os.sched_setscheduler = refuse\n"
            "from koikoi.index_rows import _child_start, CHILD_NICE\n"
            "start = os.nice(0)\n"
            "_child_start()\n"
            "print(os.nice(0) - start, CHILD_NICE)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    raised, wanted = out.stdout.split()
    assert int(wanted) == 19 and int(raised) == 19 - os.nice(0)      # as low as it goes from here
