"""The review's analysis: every decision of a match log valued by Hard's machinery.

    review = analyse_match(state.events, seats=(0,), progress=lambda done, total: ...)

The log is walked with the engine (``new_match`` from its first event, then
``apply`` of each player's action, checked event by event like ``replay``);
at every position where a reviewed seat had two or more legal actions, the
core, ``analyse_decision(view, legal, chosen)``, receives only
``view(state, seat)``, ``legal_actions(state)`` and the action taken. It never
sees the state: the opponent's hand and the stock order cannot reach it.

Values. ``koikoi.ai.hard.estimate`` deals the unseen cards ``budget`` times
(a generator keyed by the view alone, so the same view always gets the same
deals, whatever the hidden cards really were; the opponent's hand mostly from
the months it did not pass, ``View.passed``, as Hard deals it) and plays every legal option
on every deal to the end of the round with the playout policy for both seats
(either seat's later Koi-Koi questions answered by the exact Stop against a fitted
estimate of calling, and in the match's last round by what stopping does to the match:
``koikoi.ai.playout``), with common random numbers; Stop is exact, and an option whose turn puts the
Koi-Koi question to the seat is valued with the question answered as a decision
(the exact Stop, or Koi-Koi where its playouts beat it: ``hard.resolve``). No
option is pruned. Options that
are the same move up to two interchangeable cards (two plain chaff of one
month: same month, same yaku memberships under the rules) get one value, so
choosing either loses nothing.

Verdicts, by the points given away against the best option (``loss``, round
points for the deciding seat) and the paired standard error of that gap
(``spread``, from the same deals):

* GOOD: the loss is under INACCURACY_POINTS (0.5), or within NOISE_Z (2)
  standard errors (the playouts cannot tell the two apart);
* MISTAKE: a loss of at least MISTAKE_POINTS (1.5) that is also at least
  INACCURACY_POINTS beyond the NOISE_Z standard errors;
* INACCURACY: any other loss (at least 0.5 and beyond the noise);
* FORCED: a single legal action (not put in a match review: nothing to judge).

Why these: a round is worth about 1 to 10 points, and the options of a decision
lie about a point apart (the median gap between the best and another option,
measured over 12-round matches of Medium against Easy, is 1.0 point). Half a
point is a gap a player would want to hear about; one and a half (a Tane or a
Tanzaku given away, a third of a Sankō) is a real error. With the default
budget (DEFAULT_BUDGET = 500 deals) the paired standard error of a gap is
0.2 to 0.45 points (deciles; median 0.3; about 1.6 times that after 200), so NOISE_Z = 2 keeps the noise from
calling a sound move an error, and a MISTAKE must also clear the noise by
INACCURACY_POINTS.

Early stop. The budget is a ceiling: from MIN_DEALS (200) deals on, every CHECK_EVERY
(100) the analysis asks ``settled``: would the verdict be the same with the gap one
standard error lower and one higher? If so, more deals would only confirm it, and the
dealing stops there. The chosen option decides for a play or a stock choice; for a Koi-Koi
question every option does, so its values never depend on the answer given (the coach
asks before it). On 12-round nintendo matches (Medium against Easy, seat 0, seeds 2-5)
most decisions stop at 200 deals, and 311 of 314 verdicts are those of the full 500
deals (the other 3 move between GOOD and INACCURACY, inside the noise). One seat of
such a match takes 10 to 12 s of CPU in the background process on the 2-core machine,
against 19 to 25 s with every deal dealt (tools/bench_review_job.py, seeds 1 and 2, old
and new alternating in the same runs); its wall time was 12.6 s (19.8 s before) with the
machine quiet, more on a loaded one (the process runs at a lowered priority).

Values are rounded (points and spreads to 3 decimals, win chances to 4) so a
review read back from its JSON is equal to the one computed.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import replace
from typing import Callable, NamedTuple, Optional, Sequence

from ..ai.base import kind_of as base_kind_of
from ..ai.knowledge import Knowledge
from ..ai.hard import estimate
from ..engine import ChooseMatch, Play, events_to_json, legal_actions, view
from ..engine.cards import CARD_MONTH_MASK, ID_TO_INDEX
from ..engine.events import RoundEnded
from ..engine.match import CHOOSE, DECIDE, PLAY, walk
from ..engine.phase import Phase
from ..i18n import SOURCE_LANGUAGE, language
from .model import (FORCED, GOOD, INACCURACY, INACCURACY_POINTS, MISTAKE, MISTAKE_POINTS, NOISE_Z,
                    REASON_MAX, Decision, MatchReview, Option, RoundReview)
from .reasons import explain

DEFAULT_BUDGET = 500       # deals (playouts per option) a decision at most (see Early stop)
BUDGET_MAX = 100_000
MIN_DEALS = 200            # deals before the analysis may stop early (``settled``)
CHECK_EVERY = 100          # and how often it asks from there
SEED = 0                   # the analysis seed: part of every generator's key
OPPONENT_MAX = 100         # characters of the opponent's name in the reasons


class Cancelled(Exception):
    """The analysis was cancelled (``cancel.is_set()``) between two decisions."""


class Position(NamedTuple):
    """A decision found in a log: what the core gets (``view``, ``legal``, ``chosen``) and
    where it was."""

    index: int              # the deciding event's index in the log
    round: int
    seat: int
    view: object
    legal: tuple
    chosen: object


def _budget(budget) -> int:
    if budget is None:
        return DEFAULT_BUDGET
    if type(budget) is not int or not 1 <= budget <= BUDGET_MAX:
        raise ValueError(f"budget must be a whole number from 1 to {BUDGET_MAX}, not {budget!r}")
    return budget


def _seats(seats) -> tuple:
    try:
        out = tuple(sorted(set(seats)))
    except TypeError:
        raise ValueError(f"seats must be a tuple of 0 and/or 1, not {seats!r:.40}") from None
    if not out or any(type(s) is not int or s not in (0, 1) for s in out):
        raise ValueError(f"seats must be a tuple of 0 and/or 1, not {seats!r:.40}")
    return out


# ---------------------------------------------------------------- the log

def complete_prefix(events) -> tuple:
    """(how many events the complete rounds take, how many rounds): the log up to and
    including its last ``round_ended``."""
    end, rounds = 0, 0
    for i, e in enumerate(events):
        if isinstance(e, RoundEnded):
            end, rounds = i + 1, rounds + 1
    return end, rounds


def log_hash(events, end: int) -> str:
    """A fingerprint of the log's first ``end`` events (their JSON)."""
    return hashlib.sha256(events_to_json(tuple(events)[:end]).encode("utf-8")).hexdigest()


def positions(events, seats: Sequence[int] = (0, 1), *, after_round: int = 0,
              complete: bool = True) -> list:
    """Every decision of ``seats`` in the complete rounds of the log (every round with
    ``complete=False``; rounds after ``after_round``), with two or more legal actions.
    Raises ValueError for a log the rules do not reproduce."""
    events = tuple(events)
    seats = _seats(seats)
    end = complete_prefix(events)[0] if complete else len(events)
    out = []
    for p, state, action in walk(events):
        if p >= end:
            break
        if action is not None and state.phase in (PLAY, CHOOSE, DECIDE) \
                and state.to_move in seats and state.round > after_round:
            legal = legal_actions(state)
            if len(legal) > 1:
                seat = state.to_move
                out.append(Position(p, state.round, seat, view(state, seat), tuple(legal), action))
    return out


# ---------------------------------------------------------------- one decision

def _card_class(c: int, classes: tuple) -> tuple:
    for k, m in enumerate(classes):
        if m >> c & 1:
            return (CARD_MONTH_MASK[c], k)
    return (CARD_MONTH_MASK[c], -1, c)


def equivalence_key(action, classes: tuple) -> tuple:
    """Actions with one key are the same move up to interchangeable cards (same month,
    same yaku memberships under the rules): they lead to positions alike in all but the
    names of two such cards. ``classes``: ``Knowledge(view.rules, view.month).classes``."""
    if isinstance(action, Play):
        c = ID_TO_INDEX[action.card]
        t = ID_TO_INDEX[action.target] if action.target else None
        return ("play", _card_class(c, classes), None if t is None else _card_class(t, classes))
    if isinstance(action, ChooseMatch):
        return ("choose", _card_class(ID_TO_INDEX[action.target], classes))
    return (type(action).__name__,)


def kind_of(action) -> str:
    """"play", "choose" or "decide" (``ai.base.kind_of``); ValueError for any other action."""
    k = base_kind_of(action)
    if k not in ("play", "choose", "decide"):
        raise ValueError(f"not a reviewed decision: {action!r:.60}")
    return k


def verdict_of(loss: float, spread: float) -> str:
    """GOOD, INACCURACY or MISTAKE for a loss (points) with its standard error."""
    if loss < INACCURACY_POINTS or loss <= NOISE_Z * spread:
        return GOOD
    beyond = loss - NOISE_Z * spread
    if loss >= MISTAKE_POINTS and beyond >= INACCURACY_POINTS:
        return MISTAKE
    return INACCURACY


def settled(est, chosen: Optional[int] = None) -> bool:
    """Whether more deals would not change the verdict: the gap to the best one standard
    error lower and one higher gets the same ``verdict_of``, for the option ``chosen`` (an
    index of ``est``; a best option stays GOOD whatever one standard error does), or with
    None for every option. A Koi-Koi question is always judged with None: its values then
    do not depend on the answer given, so the coach at the prompt (which asks before the
    answer) and the review after the match read the very same values."""
    top = max(range(len(est)), key=lambda i: (est[i].points, est[i].win, -i))
    for i, e in enumerate(est):
        if i == top or (chosen is not None and i != chosen):
            continue
        gap, s = est[top].points - e.points, e.spread
        if verdict_of(max(0.0, gap - s), s) != verdict_of(gap + s, s):
            return False
    return True


def analyse_decision(v, legal: Sequence, chosen, *, index: int = 0, budget: Optional[int] = None,
                     seed: int = SEED, opponent: Optional[str] = None, style: str = "both") -> Decision:
    """The Decision for ``chosen`` among ``legal`` from what ``v`` (the deciding seat's View)
    shows. A single legal action is FORCED (no playouts)."""
    budget = _budget(budget)
    legal = tuple(legal)
    if chosen not in legal:
        raise ValueError(f"the chosen action {chosen!r:.60} is not one of the legal actions")
    kind = kind_of(chosen)
    if v.phase not in (Phase.PLAY, Phase.CHOOSE, Phase.DECIDE) or v.to_move != v.seat:
        raise ValueError(f"not the deciding seat's view: phase {v.phase}, to move {v.to_move}")
    if len(legal) == 1:
        d = Decision(v.round, index, v.seat, kind, chosen, chosen, (Option(chosen, 0.0),), 0.0, FORCED)
        return _with_reason(d, v, opponent, style)
    classes = Knowledge(v.rules, v.month).classes      # built per call: nothing shared
    keys = [equivalence_key(a, classes) for a in legal]
    reps, where = [], {}
    for a, k in zip(legal, keys):
        if k not in where:
            where[k] = len(reps)
            reps.append(a)
    mine = None if kind == "decide" else where[keys[legal.index(chosen)]]
    est = estimate(v, reps, samples=budget, seed=seed, settled=lambda e: settled(e, mine),
                   check_every=CHECK_EVERY, min_samples=min(budget, MIN_DEALS))
    top = max(range(len(reps)), key=lambda i: (est[i].points, est[i].win, -i))
    by_action = {}
    for a, k in zip(legal, keys):
        e = est[where[k]]
        by_action[a] = Option(a, round(e.points, 3), round(e.win, 4), round(e.spread, 3),
                              round(e.won, 4), round(e.lost, 4))
    # The best: the top representative, or the chosen action when it is the same move.
    ck = keys[legal.index(chosen)]
    best = chosen if where[ck] == top else reps[top]
    order = sorted(legal, key=lambda a: (a != best, -by_action[a].points, -(by_action[a].win or 0.0),
                                         legal.index(a)))
    options = tuple(by_action[a] for a in order)
    c = by_action[chosen]
    loss = 0.0 if where[ck] == top else round(max(0.0, by_action[best].points - c.points), 3)
    verdict = GOOD if loss == 0.0 else verdict_of(loss, c.spread)
    d = Decision(v.round, index, v.seat, kind, chosen, best, options, loss, verdict)
    return _with_reason(d, v, opponent, style)


def _with_reason(d: Decision, v, opponent, style) -> Decision:
    return replace(d, reason=explain(v, d, opponent=opponent, style=style)[:REASON_MAX])


# ---------------------------------------------------------------- a match

def analyse_match(events, seats, *, match_id: str = "", budget: Optional[int] = None,
                  progress: Optional[Callable[[int, int], None]] = None, cancel=None,
                  prior: Optional[MatchReview] = None, opponent: Optional[str] = None,
                  style: str = "both", seed: int = SEED) -> MatchReview:
    """The review of ``seats``' decisions in the complete rounds of ``events``.

    ``progress(done, total)`` is called after each decision (and once with 0 before the
    first); ``cancel`` (anything with ``is_set()``) is checked between decisions and
    raises Cancelled. ``prior``: a review of the same log's first rounds (checked by its
    ``meta`` fingerprint, same seats, budget and seed); its rounds are kept and only the
    later ones analysed. ``opponent``: how reasons name the opponent ("the CPU"; default
    "the opponent"); ``style``: the cards' ``name_style``."""
    t0 = time.perf_counter()
    events = tuple(events)
    seats = _seats(seats)
    budget = _budget(budget)
    if opponent is not None and (not isinstance(opponent, str) or len(opponent) > OPPONENT_MAX):
        raise ValueError(f"opponent must be a text of at most {OPPONENT_MAX} characters")
    end, rounds = complete_prefix(events)
    kept = ()
    after = 0
    if prior is not None and extends(prior, events, seats, budget, seed, opponent, style):
        after = int(prior.meta.get("rounds_done", 0))
        kept = tuple(r for r in prior.rounds if r.round <= after)
    todo = positions(events, seats, after_round=after)
    total = len(todo)
    if progress is not None:
        progress(0, total)
    found: dict = {}
    for done, pos in enumerate(todo, 1):
        if cancel is not None and cancel.is_set():
            raise Cancelled("the review was cancelled")
        d = analyse_decision(pos.view, pos.legal, pos.chosen, index=pos.index, budget=budget,
                             seed=seed, opponent=opponent, style=style)
        found.setdefault((pos.round, pos.seat), []).append(d)
        if progress is not None:
            progress(done, total)
    if cancel is not None and cancel.is_set():
        raise Cancelled("the review was cancelled")
    new = tuple(RoundReview(r, s, tuple(found.get((r, s), ())))
                for r in range(after + 1, rounds + 1) for s in seats)
    seconds = round(time.perf_counter() - t0 + float(prior.meta.get("seconds", 0.0) if kept else 0.0), 3)
    meta = {"events_done": end, "rounds_done": rounds, "log_hash": log_hash(events, end),
            "seed": seed, "seconds": seconds, "decisions": sum(len(r.decisions) for r in kept + new),
            "opponent": opponent or "", "style": style, "lang": language()}
    return MatchReview(match_id, seats, kept + new, budget, meta)


def extends(prior: MatchReview, events, seats, budget: int, seed: int = SEED,
            opponent: Optional[str] = None, style: str = "both") -> bool:
    """Whether ``prior`` reviews the first rounds of ``events`` with the same seats, budget,
    seed and wording (the reasons' language among it): its fingerprint matches the log's start."""
    meta = prior.meta if isinstance(prior.meta, dict) else {}
    done, hashed = meta.get("events_done"), meta.get("log_hash")
    if type(done) is not int or type(hashed) is not str or meta.get("seed") != seed:
        return False
    if meta.get("opponent", "") != (opponent or "") or meta.get("style", "both") != style:
        return False
    if meta.get("lang", SOURCE_LANGUAGE) != language():     # its reasons are in another language
        return False
    if tuple(prior.seats) != _seats(seats) or prior.budget != budget:
        return False
    events = tuple(events)
    if done > len(events) or (done and not isinstance(events[done - 1], RoundEnded)):
        return False
    return log_hash(events, done) == hashed
