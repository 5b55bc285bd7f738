"""Tweens on an injected clock (Pygame Zero's ``animate`` and ``Clock``, made explicit).

Nothing here reads the wall clock: a ``Timeline`` moves only when its owner
calls ``update(dt)``, so tests advance time by hand and assert halfway values.

    tl = Timeline()
    tl.add(Tween(sprite, (0, 0), (100, 50), 0.3, out_cubic, attr="pos"))
    tl.update(0.15)            # sprite.pos is now the out-cubic halfway point

``Timeline.speed`` scales every duration (the anim_speed setting); 0 makes
everything instant: the next ``update`` finishes all tweens and runs every
queued step at once.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any, Callable, Optional

Easing = Callable[[float], float]


# ------------------------------------------------------------------ easing
def linear(t: float) -> float:
    return t


def out_cubic(t: float) -> float:
    u = 1.0 - t
    return 1.0 - u * u * u


def in_cubic(t: float) -> float:
    return t * t * t


def out_quad(t: float) -> float:
    return 1.0 - (1.0 - t) * (1.0 - t)


def in_out_sine(t: float) -> float:
    return 0.5 - 0.5 * math.cos(math.pi * t)


def in_out_cubic(t: float) -> float:
    return 4 * t * t * t if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def out_back(t: float, overshoot: float = 1.70158) -> float:
    u = t - 1.0
    return 1.0 + (overshoot + 1.0) * u * u * u + overshoot * u * u


def pop(t: float) -> float:
    """0 -> 1 -> 0: a bump for a scale pop or a glow pulse."""
    return math.sin(math.pi * t)


def shake(t: float) -> float:
    """A decaying side-to-side wobble, -1..1, that ends at 0."""
    return math.sin(t * math.pi * 6) * (1.0 - t)


EASINGS = {"linear": linear, "out_cubic": out_cubic, "in_cubic": in_cubic, "out_quad": out_quad,
           "in_out_sine": in_out_sine, "in_out_cubic": in_out_cubic, "out_back": out_back,
           "pop": pop, "shake": shake}


def lerp(a: Any, b: Any, k: float) -> Any:
    """Blend numbers or equal-length tuples of numbers."""
    if isinstance(a, tuple):
        return tuple(x + (y - x) * k for x, y in zip(a, b))
    return a + (b - a) * k


# ------------------------------------------------------------------ tweens
class Tween:
    """One value moving from ``start`` to ``end`` over ``duration`` seconds.

    ``target`` receives the value: with ``attr`` it is ``setattr(target, attr, v)``,
    a callable target is called with it, and ``None`` just keeps it in ``.value``.
    ``delay`` holds the start value that long before moving.
    """

    __slots__ = ("target", "start", "end", "duration", "easing", "on_done", "attr", "delay",
                 "elapsed", "value", "done")

    def __init__(self, target: Any, start: Any, end: Any, duration: float,
                 easing: Easing = out_cubic, on_done: Optional[Callable[[], None]] = None, *,
                 attr: Optional[str] = None, delay: float = 0.0):
        self.target = target
        self.start = start
        self.end = end
        self.duration = max(0.0, float(duration))
        self.easing = easing
        self.on_done = on_done
        self.attr = attr
        self.delay = max(0.0, float(delay))
        self.elapsed = 0.0
        self.done = False
        self.value = start
        self._push(start)

    @property
    def progress(self) -> float:
        """0..1 through the movement (0 while still delayed)."""
        if self.duration <= 0:
            return 1.0 if self.elapsed >= self.delay else 0.0
        return max(0.0, min(1.0, (self.elapsed - self.delay) / self.duration))

    def _push(self, value: Any) -> None:
        self.value = value
        if self.attr is not None:
            setattr(self.target, self.attr, value)
        elif callable(self.target):
            self.target(value)

    def update(self, dt: float) -> bool:
        """Advance; returns True once finished (``on_done`` has then run once)."""
        if self.done:
            return True
        self.elapsed += dt
        p = self.progress
        self._push(lerp(self.start, self.end, self.easing(p)))
        if self.elapsed >= self.delay + self.duration:
            self.finish()
        return self.done

    def finish(self) -> None:
        if self.done:
            return
        self.done = True
        self._push(lerp(self.start, self.end, self.easing(1.0)))
        if self.on_done is not None:
            self.on_done()

    @property
    def remaining(self) -> float:
        return max(0.0, self.delay + self.duration - self.elapsed)


class Timeline:
    """Running tweens plus a queue of steps played one after another.

    A *step* is a callable run when the previous step's time is up; it starts
    whatever tweens it likes and returns how long the queue should wait before
    the next step (seconds at speed 1; None or 0: go straight on). Tweens run in
    parallel with everything. ``hold()``/``release()`` stop the queue from the
    outside (e.g. while a results screen is open).
    """

    def __init__(self, speed: float = 1.0):
        self.speed = speed
        self.tweens: list[Tween] = []
        self.steps: deque = deque()
        self.wait = 0.0
        self.holds = 0

    # -------------------------------------------------------------- adding
    def add(self, tween: Tween) -> Tween:
        self.tweens.append(tween)
        return tween

    def tween(self, *args, **kwargs) -> Tween:
        return self.add(Tween(*args, **kwargs))

    def then(self, step: Callable[[], Optional[float]]) -> None:
        """Queue a step after everything already queued."""
        self.steps.append(step)

    def then_wait(self, seconds: float) -> None:
        self.steps.append(lambda: seconds)

    def hold(self) -> None:
        self.holds += 1

    def release(self) -> None:
        self.holds = max(0, self.holds - 1)

    # -------------------------------------------------------------- state
    @property
    def busy(self) -> bool:
        """Anything moving, waiting or queued."""
        return bool(self.tweens or self.steps or self.wait > 0 or self.holds)

    @property
    def moving(self) -> bool:
        return bool(self.tweens)

    @property
    def instant(self) -> bool:
        return self.speed <= 0

    # -------------------------------------------------------------- time
    def update(self, dt: float) -> None:
        if self.instant:
            self.finish_all()
            return
        dt = max(0.0, dt) * self.speed
        self._advance_tweens(dt)
        self.wait -= dt
        guard = 0
        while self.wait <= 0 and self.steps and not self.holds and guard < 1000:
            guard += 1
            step = self.steps.popleft()
            waited = step() or 0.0
            self.wait += waited
        if not self.steps:
            self.wait = max(self.wait, 0.0) if self.wait > 0 else 0.0

    def _advance_tweens(self, dt: float) -> None:
        if not self.tweens:
            return
        live = self.tweens
        self.tweens = []
        keep = []
        for t in live:
            if not t.update(dt):
                keep.append(t)
        # on_done callbacks may have added tweens meanwhile
        self.tweens = keep + self.tweens

    def finish_all(self) -> None:
        """Jump to the end: every tween done, every queued step run (unless held)."""
        for _ in range(10000):
            if self.tweens:
                live, self.tweens = self.tweens, []
                for t in live:
                    t.finish()
                continue
            if self.steps and not self.holds:
                self.wait = 0.0
                self.steps.popleft()()
                continue
            break
        self.wait = 0.0

    def clear(self) -> None:
        self.tweens.clear()
        self.steps.clear()
        self.wait = 0.0
