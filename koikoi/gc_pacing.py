"""When the cyclic garbage collector runs around background work (the history index's
rebuild, the kept matches' listing).

While such a worker runs, the automatic collector is off (``hold``): its full collections,
started by the worker's allocations, walked every object of the game in the middle of a
frame; the worker collects the young objects itself, between frames. When the last worker
ends (``release``), the young generations are collected automatically again, but the full
collection its thousands of new long-lived objects are due (one walk of every object:
45-240 ms at 5,000 matches) waits for ``idle``, which the app's loop calls when nothing
moves and it is about to wait for input: no frame is being drawn then. Should no idle moment
come within ``DEFER_AT_MOST`` seconds (the player busy all along), the collector's own
schedule is given back, as before.

    gc_pacing.hold(); ...; gc_pacing.release()     # around a worker's run (any thread)
    gc_pacing.idle()                                # the app loop, before its idle wait
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Optional

DEFER_AT_MOST = 20.0             # seconds a deferred full collection waits for an idle moment
_NEVER = 2 ** 31 - 1             # a full-collection threshold never reached

_lock = threading.Lock()
_holds = 0
_was_enabled = False
_deferred: Optional[tuple] = None     # (the thresholds to give back, since when)


def hold() -> None:
    """A worker starts: the automatic collector is off until the last one ends."""
    global _holds, _was_enabled
    with _lock:
        if _holds == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holds += 1


def release() -> None:
    """A worker ends: the last one turns the automatic collector back on (if it was), its full
    collections deferred to ``idle``."""
    global _holds, _deferred
    with _lock:
        _holds = max(0, _holds - 1)
        if _holds or not _was_enabled:
            return
        if _deferred is None:
            young, middle, _old = gc.get_threshold()
            _deferred = (gc.get_threshold(), time.monotonic())
            gc.set_threshold(young, middle, _NEVER)
        gc.enable()


def due() -> bool:
    """A full collection waits for an idle moment."""
    return _deferred is not None


def _give_back() -> None:
    global _deferred
    if _deferred is not None:
        gc.set_threshold(*_deferred[0])
        _deferred = None


def idle() -> bool:
    """Nothing moves and the app is about to wait for input: run the deferred full collection
    (unless a worker runs again). True if it ran."""
    with _lock:
        if _deferred is None or _holds:
            return False
        gc.collect()
        _give_back()
    return True


def _overdue(phase: str, info: dict) -> None:
    """At each automatic collection: a full collection deferred too long goes back on the
    collector's own schedule."""
    if phase == "start" and _deferred is not None and time.monotonic() - _deferred[1] > DEFER_AT_MOST:
        if _lock.acquire(blocking=False):
            try:
                if _deferred is not None and time.monotonic() - _deferred[1] > DEFER_AT_MOST:
                    _give_back()
            finally:
                _lock.release()


gc.callbacks.append(_overdue)

__all__ = ["hold", "release", "idle", "due", "DEFER_AT_MOST"]
