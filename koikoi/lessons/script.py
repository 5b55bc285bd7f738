"""Playing a lesson's script through the engine: whether a step can be taken on a state
(``step_ready``), the state after it (``advance``, which makes its ``check``), the cards it
rings (``highlights``) and the whole script played from the deal (``replay``, which
``koikoi.lessons.parse`` runs so a lesson that loads is one that plays to its end).
"""

from __future__ import annotations

from typing import Optional

from ..engine import ChooseMatch, IllegalAction, Play, State, legal_actions
from ..engine import apply as engine_apply
from ..engine import card as card_of
from ..engine.cards import IDS, ids_of
from ..engine.scoring import round_month, yaku_points
from .model import YOU, Lesson, LessonError, Step


def yaku_of(state: State, seat: int) -> tuple:
    """The names of the yaku ``seat``'s capture pile holds now, sorted."""
    return tuple(sorted(name for name, _ in yaku_points(
        state.captured[seat], state.rules, state.field, state.calls[seat], round_month(state.round))))


def phase_of(state: State) -> str:
    """"play", "choose" (a stock card matched two), "decide" (Koi-Koi or Stop) or "over"."""
    if state.is_over:
        return "over"
    name = str(state.phase_name)
    return "choose" if name == "choose_match" else name


def check(state: State, spec: dict, what: str = "check") -> None:
    """Raise LessonError if ``state`` is not as ``spec`` (a parsed ``check``) says."""
    for seat, cards in spec.get("captured", {}).items():
        have = set(ids_of(state.captured[seat]))
        missing = [c for c in cards if c not in have]
        if missing:
            raise LessonError(f"{what}: {'you' if seat == YOU else 'the CPU'} have not captured "
                              f"{', '.join(missing)}")
    for seat, cards in spec.get("not_captured", {}).items():
        have = set(ids_of(state.captured[seat]))
        there = [c for c in cards if c in have]
        if there:
            raise LessonError(f"{what}: {', '.join(there)} should not be captured yet")
    for seat, cards in spec.get("hand", {}).items():
        have = set(ids_of(state.hands[seat]))
        missing = [c for c in cards if c not in have]
        if missing:
            raise LessonError(f"{what}: {', '.join(missing)} not in the hand")
    for seat, names in spec.get("yaku", {}).items():
        got = yaku_of(state, seat)
        if got != names:
            raise LessonError(f"{what}: the yaku held are {list(got)}, not {list(names)}")
    if "field" in spec:
        have = set(ids_of(state.field))
        missing = [c for c in spec["field"] if c not in have]
        if missing:
            raise LessonError(f"{what}: {', '.join(missing)} not in the field")
    if "phase" in spec and phase_of(state) != spec["phase"]:
        raise LessonError(f"{what}: the phase is {phase_of(state)}, not {spec['phase']}")
    if "to_move" in spec and state.to_move != spec["to_move"]:
        raise LessonError(f"{what}: the wrong seat is to move")
    if "award" in spec:
        if not state.ledger:
            raise LessonError(f"{what}: no round has been scored yet")
        row = state.ledger[-1]
        aw = spec["award"]
        if "winner" in aw and row.winner != aw["winner"]:
            raise LessonError(f"{what}: the round's winner is seat {row.winner}, not {aw['winner']}")
        if "base" in aw and row.base != aw["base"]:
            raise LessonError(f"{what}: the base points are {row.base}, not {aw['base']}")
        if "total" in aw and row.award != aw["total"]:
            raise LessonError(f"{what}: the award is {row.award}, not {aw['total']}")
        if "yaku" in aw and tuple(sorted(y[0] for y in row.yaku)) != aw["yaku"]:
            raise LessonError(f"{what}: the yaku scored are {[y[0] for y in row.yaku]}")


def highlights(step: Step, state: State) -> tuple:
    """The cards to ring at ``step`` on ``state``: the step's own list, else, for the
    player's play, the card and the field cards it takes (its target, or every field card
    of its month), and for a stock choice the card to take."""
    if step.highlight is not None:
        return step.highlight
    a = step.action
    if step.seat != YOU:
        return ()
    if isinstance(a, Play):
        if a.target is not None:
            return (a.card, a.target)
        month = card_of(a.card).month
        return (a.card,) + tuple(c for c in ids_of(state.field) if card_of(c).month == month)
    if isinstance(a, ChooseMatch):
        return (a.target,)
    return ()


def step_ready(step: Step, state: State) -> Optional[str]:
    """Why ``step`` cannot be taken on ``state`` (None: it can): its seat is not the one to
    move, or its move is not legal there."""
    if step.seat is None:
        return None
    if state.to_move != step.seat:
        who = "the player" if step.seat == YOU else "the CPU"
        return f"it is {who}'s move, but {'nobody' if state.to_move is None else 'the other seat'} is to move"
    legal = legal_actions(state) or ()
    if step.action not in legal:
        return f"{step.action!r} is not a legal move there"
    return None


def advance(step: Step, state: State, n: int) -> State:
    """``state`` after step ``n`` (1-based): its move applied, its check made."""
    problem = step_ready(step, state)
    if problem is not None:
        raise LessonError(f"step {n}: {problem}")
    if step.seat is not None:
        try:
            state = engine_apply(state, step.action)
        except IllegalAction as exc:
            raise LessonError(f"step {n}: {exc}") from None
    if step.check:
        check(state, step.check, f"step {n}")
    return state


def replay(lesson: Lesson) -> list:
    """Play the lesson's whole script through the engine; the state after each step
    (``[start, after step 1, ...]``). Raises LessonError naming the first step that fails."""
    try:
        state = lesson.start()
    except (TypeError, ValueError) as exc:
        raise LessonError(f"the engine refused the deal: {exc}") from None
    if phase_of(state) not in ("play",):
        raise LessonError("the deal does not start with a play (a misdeal or a lucky hand?)")
    states = [state]
    for n, step in enumerate(lesson.steps, 1):
        # what is highlighted must be face up on the table for the player to see
        shown = set(ids_of(state.hands[YOU] | state.field | state.captured[0] | state.captured[1]))
        if state.pending >= 0:
            shown.add(IDS[state.pending])
        for c in highlights(step, state):
            if c not in shown:
                raise LessonError(f"step {n}: highlighted card {c} is not face up on the table")
        state = advance(step, state, n)
        states.append(state)
    return states


__all__ = ["yaku_of", "phase_of", "check", "highlights", "step_ready", "advance", "replay"]
