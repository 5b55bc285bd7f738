"""The match review as the replay viewer shows it: the job that analyses a match,
kept per app and match, and the words and marks of its verdicts.

    state = review_for(app, session)   # this match's ReviewState in this app (kept once asked for)
    keep(app, state); state.start()    # then state.poll() every frame while it runs; state.cancel()
    state.result                       # a koikoi.review.MatchReview once done

Why a registry and not an attribute of the scene: the replay viewer is closed and
opened again for every round (from the ledger, from a round's results), and the
analysis covers the whole match. So the state lives in a small dict per app (a
``WeakKeyDictionary``: it goes with the app), keyed by the match id; each viewer of
that match, and the ledger, reach the same running job or finished review.

The analysis itself is ``koikoi.review`` (imported when a review starts: the game
starts without it, and a broken install says so where the review is asked for).
"""

from __future__ import annotations

import logging
import weakref
from types import SimpleNamespace
from pathlib import Path
from typing import Any, Optional

from ... import narration as N
from ...engine import events_to_json
from ...engine.actions import ChooseMatch, KoiKoi, Play, Stop
from ...engine.events import RoundEnded
from ...engine.phase import SeatKind
from ...session import MatchSession
from .. import theme
from ..hints import style_of
from ...i18n import _, _n
from ..table import seat_label

log = logging.getLogger(__name__)

# the verdicts' words, colours and marks (review.model's GOOD, INACCURACY, MISTAKE, FORCED)
VERDICT_LABELS = {"good": N.N_("Good move"), "inaccuracy": N.N_("Inaccuracy"), "mistake": N.N_("Mistake"),
                  "forced": N.N_("Only choice")}
VERDICT_COLORS = {"good": theme.GOOD, "inaccuracy": theme.mix(theme.BAD, theme.GOLD_LIGHT, 0.55),
                  "mistake": theme.BAD, "forced": theme.MUTED}
VERDICT_MARKS = {"inaccuracy": "?!", "mistake": "?"}     # good: a drawn tick (the font has no ✓)


# ---------------------------------------------------------------- words
def verdict_label(verdict: str) -> str:
    return _(VERDICT_LABELS.get(verdict, "Good move"))


def action_words(action, style: str = "both") -> str:
    """An engine action in words, cards by name: "Play Crane (Matsu ni Tsuru) and take ..."."""
    if isinstance(action, Play):
        if action.target:
            return _("Play {card} and take {target}").format(card=N.card_name(action.card, style),
                                                              target=N.card_name(action.target, style))
        return _("Play {card}").format(card=N.card_name(action.card, style))
    if isinstance(action, ChooseMatch):
        return _("Take {target} with the stock card").format(target=N.card_name(action.target, style))
    if isinstance(action, KoiKoi):
        return _("Call Koi-Koi")
    if isinstance(action, Stop):
        return _("Stop and score")
    return str(action)


def points_text(points: float) -> str:
    """ "about 1.8 points" (one decimal; never negative)."""
    value = max(0.0, float(points))
    shown = f"{value:.1f}"
    return _n("about {points} point", "about {points} points", 1 if shown == "1.0" else 2).format(points=shown)


def best_text(d, style: str = "both") -> str:
    """The step's "Best: ..." line (or that the choice made was the best one)."""
    if d.chosen == d.best:
        return _("Best: {action} (your choice)").format(action=action_words(d.best, style))
    return _("Best: {action}").format(action=action_words(d.best, style))


def verdict_line(d) -> str:
    """ "Mistake: about 1.8 points given away" / "Good move"."""
    if d.is_error:
        return _("{verdict}: {points} given away").format(verdict=verdict_label(d.verdict),
                                                          points=points_text(d.loss))
    return verdict_label(d.verdict)


def summary_text(rr) -> str:
    """A round's review in one line: "3 mistakes, 1 inaccuracy, about 4.2 points lost"."""
    if rr is None:
        return _("Not reviewed")
    m, i = rr.mistakes, rr.inaccuracies
    if not m and not i:
        return _("No mistakes")
    mistakes = _n("{n} mistake", "{n} mistakes", m).format(n=m)
    slips = _n("{n} inaccuracy", "{n} inaccuracies", i).format(n=i)
    lost = points_text(rr.points_lost)
    if m and i:
        return _("{mistakes}, {inaccuracies}, {points} lost").format(mistakes=mistakes, inaccuracies=slips,
                                                                     points=lost)
    return _("{errors}, {points} lost").format(errors=mistakes if m else slips, points=lost)


def progress_text(progress: float, rounds: int, done_before: int = 0) -> str:
    """ "Analysing round 3 of 12…" for a job ``progress`` (0..1) through ``rounds`` rounds,
    of which the first ``done_before`` were reviewed before (the job does only the rest)."""
    if rounds <= 0:
        return _("Analysing the match…")
    done_before = max(0, min(rounds - 1, done_before))
    todo = rounds - done_before
    k = max(1, min(rounds, done_before + int(max(0.0, min(1.0, progress)) * todo) + 1))
    return _("Analysing round {n} of {total}…").format(n=k, total=rounds)


# ---------------------------------------------------------------- whose decisions
def review_seats(session) -> tuple:
    """The seats a review looks at: the human seat(s); both when no seat is marked human."""
    humans = tuple(i for i, s in enumerate(getattr(session, "seats", ()))
                   if getattr(s, "kind", None) == SeatKind.HUMAN)
    return humans or (0, 1)


def reviewable(session) -> bool:
    """Whether the review can look at this session's log: a local match, or the stand-in
    the ledger makes for a bare state (a network client's log has only its own seat's cards)."""
    return isinstance(session, (MatchSession, SimpleNamespace))


# ---------------------------------------------------------------- the job
def make_job(log_json: str, seats, *, match_id: str, cache_dir: Optional[Path], budget=None, **words):
    """A background ``koikoi.review.ReviewJob`` (tests replace this). ``words``: the
    reasons' ``opponent`` and ``style``, where the job takes them."""
    from ...review import ReviewJob  # start-up time: measured 42 ms, off the results screens
    return ReviewJob(log_json, seats, match_id=match_id, cache_dir=cache_dir, budget=budget, **words)


def load_cached(cache_dir: Optional[Path], match_id: str, seats, events, *, budget=None, **words):
    """A cached review of every complete round of this log (made with this budget and
    wording), or None."""
    if cache_dir is None or not match_id:
        return None
    from ...review import load_cached as load  # start-up time: measured 42 ms, off the results screens
    return load(cache_dir, match_id, seats, events, budget=budget, **words)


def opponent_words(session, seats) -> Optional[str]:
    """How the reasons name the opponent of the one reviewed seat ("the CPU", or the
    friend's name); None (the analysis' "the opponent") when both seats are reviewed."""
    if len(seats) != 1:
        return None
    other = session.seats[1 - seats[0]]
    if getattr(other, "kind", None) == SeatKind.CPU:
        return _("the CPU")
    # a default seat name ("Player 2") in the game's language, a typed name as it is; the
    # cache knows the words (a review cached with another opponent or language is made again)
    name = getattr(other, "name", None)
    return seat_label(name) if name else None


def _start_problem(exc: BaseException) -> str:
    """Why a review could not start, by the kind of error, in the player's language (the
    exception itself is logged): the job's own sentences."""
    from ...review.job import NOT_STARTED, bad_log_text  # start-up time: measured 42 ms, off the results screens
    if isinstance(exc, ValueError):          # a log the analysis cannot read
        return bad_log_text()
    return _(NOT_STARTED)


class ReviewState:
    """One match's review in one app: idle, running (``job``), done (``result``) or
    failed (``error``). ``budget``: playouts per option (None: the analysis' default)."""

    budget: Optional[int] = None

    def __init__(self, app, session):
        # no reference to the app: the registry's values must not keep its weak keys alive
        self.session = session
        self.read_only = bool(getattr(app, "read_only", False))
        self.match_id = str(getattr(session, "id", "") or "")
        self.seats = review_seats(session)
        self.style = style_of(getattr(app, "settings", None))
        self.job: Any = None
        self.result: Any = None
        self.error: Optional[str] = None
        self.rounds_total = 0          # the rounds the running job (or the last one) analyses
        self.rounds_done = 0           # the rounds the result covers
        # the match's folder: the history, where the match is (or will be) filed
        self.cache_dir: Optional[Path] = None
        storage = getattr(app, "storage", None)
        if storage is not None and self.match_id:
            try:
                self.cache_dir = Path(storage.history_dir)
            except (AttributeError, TypeError):
                self.cache_dir = None

    # ---------------------------------------------------------- status
    @property
    def running(self) -> bool:
        return self.job is not None

    @property
    def progress(self) -> float:
        if self.job is not None:
            try:
                return max(0.0, min(1.0, float(self.job.progress)))
            except (TypeError, ValueError):
                return 0.0
        return 1.0 if self.result is not None else 0.0

    def progress_text(self) -> str:
        return progress_text(self.progress, self.rounds_total, self.rounds_done if self.result is not None else 0)

    def covers(self, round_no: int) -> bool:
        """Whether the finished review has round ``round_no`` (a review made mid-match
        does not have the rounds played since)."""
        return self.result is not None and 0 < round_no <= self.rounds_done

    # ---------------------------------------------------------- actions
    def start(self) -> bool:
        """Load the cached review, or start the analysis in the background. False (and
        ``error`` set) when it cannot start."""
        if self.job is not None:
            return True
        events = tuple(self.session.state.events)
        self.error = None
        self.rounds_total = sum(isinstance(e, RoundEnded) for e in events)
        if self.rounds_total == 0:
            self.error = _("There is no finished round to review yet.")
            return False
        words = {"opponent": opponent_words(self.session, self.seats), "style": self.style}
        try:
            cached = load_cached(self.cache_dir, self.match_id, self.seats, events, budget=self.budget, **words)
        except ImportError as exc:
            log.warning("the review is not available: %s", exc)
            self.error = _("The review is not available in this installation.")
            return False
        except Exception:       # a cache that cannot be read is analysed again
            log.warning("the cached review of %s could not be read", self.match_id, exc_info=True)
            cached = None
        if cached is not None:
            self._finish(cached, self.rounds_total)
            return True
        try:
            job = make_job(events_to_json(events), self.seats, match_id=self.match_id,
                           cache_dir=None if self.read_only else self.cache_dir, budget=self.budget, **words)
            job.start()
        except ImportError as exc:
            log.warning("the review is not available: %s", exc)
            self.error = _("The review is not available in this installation.")
            return False
        except Exception as exc:
            log.exception("the review could not start")
            self.error = _start_problem(exc)
            return False
        self.job = job
        return True

    def poll(self) -> None:
        """Take in the job's news (call every frame while it runs; never blocks)."""
        job = self.job
        if job is None:
            return
        try:
            job.poll()
            done = bool(job.done)
        except Exception:
            log.exception("the review job failed")
            self._drop_job()
            from ...review.job import STOPPED  # start-up time: measured 42 ms, as above
            self.error = _(STOPPED)
            return
        if not done:
            return
        result, error = getattr(job, "result", None), getattr(job, "error", None)
        self._drop_job()
        if result is not None:
            self._finish(result, self.rounds_total)
        else:
            # a ReviewJob's error is its own translated sentence, chosen by what went wrong
            # (the technical text is in the log)
            self.error = str(error)[:300] if error else _("The review ended without a result.")

    def cancel(self) -> None:
        """Stop a running analysis (nothing is kept)."""
        if self.job is None:
            return
        try:
            self.job.cancel()
        except Exception:
            log.warning("cancelling the review job failed", exc_info=True)
        self._drop_job()

    def _drop_job(self) -> None:
        job, self.job = self.job, None
        if job is not None:
            try:
                job.close()
            except Exception:
                log.warning("closing the review job failed", exc_info=True)

    def _finish(self, result, rounds: int) -> None:
        self.result = result
        self.error = None
        meta = getattr(result, "meta", None)
        done = meta.get("rounds_done") if isinstance(meta, dict) else None
        self.rounds_done = done if isinstance(done, int) and done >= 0 else rounds
        self.seats = tuple(getattr(result, "seats", self.seats)) or self.seats


_STATES: "weakref.WeakKeyDictionary[Any, dict[str, ReviewState]]" = weakref.WeakKeyDictionary()


_TICKED: "weakref.WeakSet[Any]" = weakref.WeakSet()


def _key(session) -> str:
    return str(getattr(session, "id", "") or "") or f"session-{id(session)}"


def review_for(app, session) -> ReviewState:
    """The review of ``session``'s match in ``app``: the one kept (``keep``) if a review
    was asked for before, else a new one, not kept until it is started. A match without
    an id (a bare state) gets its own per session object."""
    st = _STATES.get(app, {}).get(_key(session))
    if st is None:
        return ReviewState(app, session)
    if st.session is not session and st.job is None:
        st.session = session           # the same match read again (the history): its newest log
    return st


def keep(app, state: ReviewState) -> None:
    """Keep ``state`` for its match in ``app`` (a review asked for: its job, its result),
    for every viewer and screen of that match to find."""
    _STATES.setdefault(app, {})[_key(state.session)] = state
    # Polled every frame whatever screen is on top (the match goes on while its analysis
    # runs: a finished job is collected, and its result cached, without a viewer open).
    tickers = getattr(app, "tickers", None)
    if tickers is not None and app not in _TICKED:
        _TICKED.add(app)
        tickers.append(lambda _dt, ref=weakref.ref(app): poll_all(ref()) if ref() is not None else None)


def release(app, session) -> None:
    """A screen of ``session``'s match closed: if no scene left on the stack shows that
    match, its running review is cancelled (nobody would poll it or see it) and
    forgotten; a finished review is kept."""
    states = _STATES.get(app)
    key = _key(session)
    st = states.get(key) if states else None
    if st is None or not st.running:
        return
    if any(_key(getattr(sc, "session", None)) == key for sc in getattr(app, "scenes", ())
           if getattr(sc, "session", None) is not None):
        return
    st.cancel()
    if st.result is None:
        del states[key]


def poll_all(app) -> None:
    """Poll every running review of ``app`` (screens that show no review still keep it going)."""
    for st in list(_STATES.get(app, {}).values()):
        st.poll()


__all__ = ["ReviewState", "review_for", "keep", "release", "poll_all", "review_seats", "reviewable", "summary_text",
           "progress_text", "best_text", "verdict_line", "verdict_label", "action_words", "points_text",
           "VERDICT_COLORS", "VERDICT_MARKS"]
