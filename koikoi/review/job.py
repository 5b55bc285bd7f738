"""The review's analysis in a background process, polled by the UI every frame.

    job = ReviewJob(events_to_json(state.events), (0,), match_id=session.id, cache_dir=folder)
    job.start()
    ...each frame: job.poll(); draw job.progress (0..1)
    if job.done: job.result (a MatchReview) or job.error (a translated sentence); job.cancelled
    job.cancel()        # at once: the process is ended and reaped, nothing is written

A cached review of the same log (``cache.load_cached``) is used at once, with no
process. Otherwise a process of the ``spawn`` start method runs ``analyse_match``
(it imports only the engine, the AI and this package: never pygame; it lowers its
own priority so the game's frames come first), sends its progress through a pipe, writes the cache and finally sends the
review's JSON values; ``poll`` reads what has arrived without waiting (the
longest poll, the result's, takes a few milliseconds). A cache of the match's first rounds
is handed to the process, which analyses only the rounds after them.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import sys
import threading
import zlib
from pathlib import Path
from typing import Optional

from ..engine import events_from_json
from ..files import clean_stale_temps
from ..i18n import N_, _, language, set_language
from .analysis import analyse_match
from .cache import cache_path, load_partial, reviews_all, save_cached
from .model import MatchReview

log = logging.getLogger("koikoi.review")

_JOIN_SECONDS = 2.0

# What a player reads when a review fails, by what went wrong (whole sentences, translated when
# the message is made); the exception's own text goes to the log, never on screen.
# the reason a log is refused: the {why} of LOG_REFUSED (the catalog's sentence, kept)
BAD_LOG = N_("it is damaged, or was written by another version of the game.")
LOG_REFUSED = N_("The match log cannot be reviewed: {why}")
NOT_STARTED = N_("The review could not start its background process.")
STOPPED = N_("The review stopped before it was finished.")
ANALYSIS_FAILED = N_("The review stopped because of an error in its analysis.")
RESULT_UNREADABLE = N_("The review finished, but its result could not be read.")


def bad_log_text() -> str:
    """The sentence of a log the review cannot read."""
    return _(LOG_REFUSED).format(why=_(BAD_LOG))


def _child(conn, log_json: str, seats, match_id: str, budget, prior_data, opponent, style,
           cache_dir=None, lang=None) -> None:
    """The background process: analyse, report, exit. Every failure becomes a message.
    ``lang``: the game's language, for the reasons and messages (a spawned process starts
    in English)."""
    try:
        if lang:
            set_language(lang)
        try:
            os.nice(5)
        except (AttributeError, OSError):
            pass
        conn.send(("info", {"pygame": "pygame" in sys.modules, "pid": os.getpid()}))
        events = events_from_json(log_json)
        prior = MatchReview.from_data(prior_data) if prior_data is not None else None

        def progress(done: int, total: int) -> None:
            conn.send(("progress", done, total))

        review = analyse_match(events, seats, match_id=match_id, budget=budget, progress=progress,
                               prior=prior, opponent=opponent, style=style)
        if cache_dir is not None:
            # Written here, before the result is sent, so that the game's frame never
            # waits for the disk (a cancel during the write leaves a temp file: cancel
            # removes it).
            save_cached(cache_dir, review)
        # Compressed, so the message fits in the pipe's buffer at once (a few tens of KB)
        # and the parent's recv never waits for this low-priority process to write more.
        conn.send(("result", zlib.compress(json.dumps(review.to_data()).encode("utf-8"), 6)))
    except ValueError as exc:
        # (message for the player, the exception for the parent's log: this process has none)
        conn.send(("error", bad_log_text(), f"{type(exc).__name__}: {exc}"[:500]))
    except Exception as exc:   # the process's last word: anything at all becomes a message
        conn.send(("error", _(ANALYSIS_FAILED), f"{type(exc).__name__}: {exc}"[:500]))
    finally:
        conn.close()


class ReviewJob:
    """``analyse_match`` of one log in a background process (see the module docstring)."""

    def __init__(self, log_json: str, seats, *, match_id: str, cache_dir: Optional[Path],
                 budget: Optional[int] = None, opponent: Optional[str] = None, style: str = "both"):
        self.log_json = log_json
        self.seats = tuple(seats)
        self.match_id = match_id
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.budget = budget
        self.opponent = opponent
        self.style = style
        self.progress = 0.0
        self.done = False
        self.cancelled = False
        self.result: Optional[MatchReview] = None
        self.error: Optional[str] = None
        self.from_cache = False
        self.child_info: dict = {}
        self._proc = None
        self._exiting = None       # the thread reaping a finished process
        self._conn = None

    @property
    def running(self) -> bool:
        return self._proc is not None and not self.done

    def start(self) -> None:
        if self._proc is not None or self.done:
            return
        try:
            events = events_from_json(self.log_json)
        except ValueError as exc:
            log.warning("the match log of %s cannot be reviewed: %s", self.match_id, exc)
            self._finish(error=bad_log_text())
            return
        kw = dict(budget=self.budget, opponent=self.opponent, style=self.style)
        prior = load_partial(self.cache_dir, self.match_id, self.seats, events, **kw)
        if prior is not None and reviews_all(prior, events):      # (cache.load_cached, read once)
            self.from_cache = True
            self._finish(result=prior)
            return
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(
            target=_child, name="koikoi-review", daemon=True,
            args=(child, self.log_json, self.seats, self.match_id, self.budget,
                  prior.to_data() if prior is not None else None, self.opponent, self.style,
                  self.cache_dir, language()))
        try:
            self._proc.start()
        except Exception:     # OSError, a RuntimeError of a process still starting, pickling
            log.exception("the review process could not start")
            self._proc = None
            self._finish(error=_(NOT_STARTED))
            return
        finally:
            child.close()

    def poll(self) -> None:
        """Take in what the process has sent so far; never waits."""
        if not self.running:
            return
        try:
            while self._conn.poll():
                msg = self._conn.recv()
                if self._handle(msg):
                    return
        except (EOFError, OSError) as exc:
            log.warning("the review process of %s stopped (%s: %s)", self.match_id, type(exc).__name__, exc)
            self._finish(error=_(STOPPED))
            return
        if not self._proc.is_alive() and not self._conn.poll():
            log.warning("the review process of %s ended early (exit code %s)", self.match_id,
                        self._proc.exitcode)
            self._finish(error=_(STOPPED))

    def _handle(self, msg) -> bool:
        kind = msg[0]
        if kind == "progress":
            _k, done, total = msg
            self.progress = done / total if total else 0.0
        elif kind == "info":
            self.child_info = dict(msg[1])
        elif kind == "error":
            if len(msg) > 2:
                log.warning("the review of %s failed: %s", self.match_id, msg[2])
            self._finish(error=str(msg[1]))
            return True
        elif kind == "result":
            try:
                review = MatchReview.from_data(json.loads(zlib.decompress(msg[1]).decode("utf-8")))
            except (ValueError, TypeError, zlib.error) as exc:
                log.warning("the review result of %s cannot be read: %s", self.match_id, exc)
                self._finish(error=_(RESULT_UNREADABLE))
                return True
            self._finish(result=review)
            return True
        return False

    def _finish(self, *, result: Optional[MatchReview] = None, error: Optional[str] = None) -> None:
        self.result, self.error = result, error
        if result is not None:
            self.progress = 1.0
        self.done = True
        proc, self._proc = self._proc, None
        if proc is not None:
            # It has sent its last word and is exiting: reaped by a short-lived thread, so
            # that this frame does not wait for the interpreter to shut down (and no
            # zombie is left whether or not anyone polls again).
            proc.join(0)
            if proc.is_alive():
                self._exiting = threading.Thread(target=self._end, args=(proc, False),
                                                 name="koikoi-review-reaper", daemon=True)
                self._exiting.start()
            else:
                proc.close()
        self._close_pipe()

    def _close_pipe(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _reap(self, terminate: bool) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            self._end(proc, terminate)
        reaper, self._exiting = self._exiting, None
        if reaper is not None:
            reaper.join(3 * _JOIN_SECONDS)
        self._close_pipe()

    @staticmethod
    def _end(proc, terminate: bool) -> None:
        if proc is not None:
            if terminate and proc.is_alive():
                proc.terminate()
            proc.join(_JOIN_SECONDS)
            if proc.is_alive():
                proc.kill()
                proc.join(_JOIN_SECONDS)
            try:
                proc.close()
            except ValueError:       # still running after a kill: left to the OS
                log.warning("the review process %s did not end", proc.pid)

    def cancel(self) -> None:
        """Stop at once: the process is ended and reaped; no cache is written. ``done``
        becomes True with no result and no error, and ``cancelled`` True."""
        if self.done:
            return
        self.cancelled = True
        self.done = True
        self._reap(terminate=True)
        if self.cache_dir is not None:
            path = cache_path(self.cache_dir, self.match_id)
            if path is not None:      # only this match's review: no other writer makes it
                clean_stale_temps(self.cache_dir, names=[path.name])

    def close(self) -> None:
        """Cancel if still running; wait for a finished process to exit (at most a couple
        of seconds, then it is killed) and let go of the pipe."""
        if not self.done:
            self.cancel()
        self._reap(terminate=False)
