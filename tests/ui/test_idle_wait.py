"""The idle loop sleeps between looks for an event instead of SDL's timed wait, which looks
every millisecond (tools/bench.py measured 6-8% of a core on the title with it, 2-3% now)."""

from __future__ import annotations

import time

import pygame

from koikoi.ui import app as A


def test_an_idle_wait_looks_for_events_a_few_dozen_times_not_every_millisecond(app, monkeypatch):
    app.step()
    pygame.event.clear()
    looks = []
    real_poll = pygame.event.poll

    def poll():
        looks.append(time.monotonic())
        return real_poll()

    def no_wait(*a, **k):
        raise AssertionError("SDL's timed wait wakes every millisecond")
    monkeypatch.setattr(pygame.event, "poll", poll)
    monkeypatch.setattr(pygame.event, "wait", no_wait)
    t0 = time.monotonic()
    assert app.wait_idle(300) is False
    assert time.monotonic() - t0 >= 0.29
    assert 2 <= len(looks) <= 300 / (A.IDLE_POLL_S * 1000) + 3
    # an event that arrives during the wait ends it and is kept for the next frame
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a"))
    assert app.wait_idle(300) is True
    assert app._held and app._held[-1].type == pygame.KEYDOWN
