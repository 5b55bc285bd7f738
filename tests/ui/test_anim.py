"""Tweens on an injected clock: halfway values, sequencing, speed 0."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from koikoi.ui import anim


class Obj:
    pos = (0.0, 0.0)
    x = 0.0


def test_easings_start_at_0_and_end_at_1():
    for name in ("linear", "out_cubic", "in_cubic", "out_quad", "in_out_sine", "in_out_cubic", "out_back"):
        f = anim.EASINGS[name]
        assert f(0.0) == pytest.approx(0.0, abs=1e-9), name
        assert f(1.0) == pytest.approx(1.0, abs=1e-9), name
    assert anim.pop(0.0) == pytest.approx(0.0) and anim.pop(1.0) == pytest.approx(0.0, abs=1e-9)
    assert anim.pop(0.5) == pytest.approx(1.0)
    assert anim.out_back(0.7) > 1.0          # it overshoots
    assert anim.shake(1.0) == pytest.approx(0.0, abs=1e-9)


def test_tween_halfway_with_an_injected_clock():
    o = Obj()
    t = anim.Tween(o, (0.0, 0.0), (100.0, 50.0), 0.4, anim.out_cubic, attr="pos")
    t.update(0.2)
    k = anim.out_cubic(0.5)
    assert k == pytest.approx(0.875)
    assert o.pos == pytest.approx((100 * k, 50 * k))
    t.update(0.2)
    assert t.done and o.pos == (100.0, 50.0)


def test_linear_halfway_and_delay():
    seen = []
    t = anim.Tween(seen.append, 10.0, 20.0, 1.0, anim.linear, delay=0.5)
    t.update(0.5)
    assert seen[-1] == pytest.approx(10.0)
    t.update(0.5)
    assert seen[-1] == pytest.approx(15.0)
    assert t.progress == pytest.approx(0.5)


def test_on_done_runs_once():
    calls = []
    tl = anim.Timeline()
    tl.tween(None, 0, 1, 0.1, anim.linear, lambda: calls.append(1))
    for _ in range(5):
        tl.update(0.05)
    assert calls == [1]
    assert not tl.busy


def test_steps_run_in_order_and_wait():
    order = []
    tl = anim.Timeline()
    tl.then(lambda: order.append("a") or 0.3)
    tl.then(lambda: order.append("b") or 0.1)
    tl.then(lambda: order.append("c"))
    tl.update(0.0)
    assert order == ["a"]
    tl.update(0.2)
    assert order == ["a"]
    tl.update(0.11)
    assert order == ["a", "b"]
    tl.update(0.1)
    assert order == ["a", "b", "c"]
    assert not tl.busy


def test_speed_scales_time_and_zero_is_instant():
    o = Obj()
    tl = anim.Timeline(speed=2.0)
    tl.tween(o, 0.0, 10.0, 1.0, anim.linear, attr="x")
    tl.update(0.25)
    assert o.x == pytest.approx(5.0)
    tl.speed = 0
    done = []
    tl.then(lambda: done.append(1) or 5.0)
    tl.then(lambda: done.append(2))
    tl.update(0.001)
    assert o.x == 10.0 and done == [1, 2] and not tl.busy


def test_hold_stops_the_queue():
    order = []
    tl = anim.Timeline()
    tl.then(lambda: (order.append(1), tl.hold())[0])
    tl.then(lambda: order.append(2))
    tl.update(0.1)
    tl.update(0.1)
    assert order == [1] and tl.busy
    tl.release()
    tl.update(0.0)
    assert order == [1, 2]


def test_tweens_added_from_on_done_keep_running():
    o = Obj()
    tl = anim.Timeline()
    tl.tween(None, 0, 1, 0.1, anim.linear, lambda: tl.tween(o, 0.0, 1.0, 0.1, anim.linear, attr="x"))
    tl.update(0.1)
    tl.update(0.05)
    assert o.x == pytest.approx(0.5)
