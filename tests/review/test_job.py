"""The review in a background process: the same result as in-process, a cache written,
cancel that ends the process at once and writes nothing."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest

from koikoi import i18n
from koikoi.ai import make_player
from koikoi.engine import RULESETS, apply, events_to_json, legal_actions, new_match, view
from koikoi.review import ReviewJob, analyse_match, cache_path, load_cached
from koikoi.review import job as J

pygame = pytest.importorskip("pygame")     # loaded in this (the parent) process, as in the game


def _match(months, seed=3):
    s = new_match(RULESETS["nintendo"], seed=seed, months=months)
    players = [make_player("medium", seed=1), make_player("easy", seed=2)]
    while not s.is_over:
        s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    return s


def _wait(job, timeout=60.0):
    end = time.monotonic() + timeout
    seen = []
    while not job.done and time.monotonic() < end:
        job.poll()
        seen.append(job.progress)
        time.sleep(0.02)
    assert job.done, "the review job did not finish in time"
    return seen


def _gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.fixture
def folder(tmp_path):
    f = tmp_path / "reviews"
    f.mkdir()
    return f


def test_the_job_gives_the_in_process_result_and_caches_it(folder):
    s = _match(months=1)
    job = ReviewJob(events_to_json(s.events), (0,), match_id="abc", cache_dir=folder, budget=16)
    job.start()
    seen = _wait(job)
    assert job.error is None and job.result is not None and job.progress == 1.0
    assert seen == sorted(seen)                    # progress only grows
    assert job.child_info.get("pygame") is False   # the child never imported pygame
    here = analyse_match(s.events, (0,), match_id="abc", budget=16)
    got = job.result
    assert (got.match_id, got.seats, got.rounds, got.budget) == \
        (here.match_id, here.seats, here.rounds, here.budget)
    assert {k: v for k, v in got.meta.items() if k != "seconds"} == \
        {k: v for k, v in here.meta.items() if k != "seconds"}
    assert load_cached(folder, "abc", (0,), s.events, budget=16) == got
    end = time.monotonic() + 5           # the exiting process is reaped without more polls
    while not _gone(job.child_info["pid"]) and time.monotonic() < end:
        time.sleep(0.05)
    assert _gone(job.child_info["pid"]) and not multiprocessing.active_children()
    again = ReviewJob(events_to_json(s.events), (0,), match_id="abc", cache_dir=folder, budget=16)
    again.start()                                  # from the cache: no process at all
    assert again.done and again.from_cache and again.result == got
    job.close()
    again.close()


def test_cancel_ends_the_process_at_once_and_writes_nothing(folder):
    s = _match(months=3)
    job = ReviewJob(events_to_json(s.events), (0, 1), match_id="abc", cache_dir=folder, budget=5000)
    job.start()
    end = time.monotonic() + 30
    while not job.child_info and time.monotonic() < end:
        job.poll()
        time.sleep(0.02)
    pid = job.child_info["pid"]
    time.sleep(0.3)
    job.poll()
    assert not job.done
    t0 = time.monotonic()
    job.cancel()
    assert time.monotonic() - t0 < 2.0
    assert job.done and job.cancelled and job.result is None and job.error is None
    assert _gone(pid) and not multiprocessing.active_children()
    assert not cache_path(folder, "abc").exists() and list(folder.iterdir()) == []
    job.poll()                                     # harmless after the end
    job.close()


def test_a_bad_log_is_a_message_not_a_crash(folder):
    job = ReviewJob("{not json", (0,), match_id="abc", cache_dir=folder)
    job.start()
    assert job.done and job.result is None and job.error and "reviewed" in job.error
    assert not multiprocessing.active_children()


def test_the_background_process_speaks_the_games_language():
    before = i18n.language()
    parent, child = multiprocessing.Pipe(duplex=False)
    try:
        i18n.set_language("en")
        english = i18n._("The match log cannot be reviewed: {why}")
        J._child(child, "{not json", (0,), "abc", None, None, None, "both", None, "ja")  # in-process
        assert i18n.language() == "ja"
        japanese = i18n._("The match log cannot be reviewed: {why}")
        assert japanese != english
        got = []
        try:
            while parent.poll(1.0):
                got.append(parent.recv())
        except EOFError:                      # the child's end closed after its last word
            pass
        assert got[-1][0] == "error" and got[-1][1].startswith(japanese.split("{why}")[0])
    finally:
        i18n.set_language(before)
        parent.close()
