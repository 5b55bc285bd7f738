"""A match log read back through the rules: the action behind an event (``action_of``), each
action with the state it was taken in (``walk``), and the State a log leads to (``replay``),
each naming the first event the rules do not reproduce."""

from __future__ import annotations

from typing import Optional

from .actions import Action, ChooseMatch, KoiKoi, PickOyagime, Play, Stop
from .events import Chose, KoiKoiCalled, MatchStarted, OyagimePicked, Played, Stopped
from .fast import apply
from .rounds import new_match
from .state import IllegalAction, ReplayError, State

def action_of(event) -> Optional[Action]:
    """The action a player took to cause ``event``, or None for events the rules caused."""
    if isinstance(event, Played):
        return Play(event.card, event.target)
    if isinstance(event, Chose):
        return ChooseMatch(event.target)
    if isinstance(event, KoiKoiCalled):
        return KoiKoi()
    if isinstance(event, Stopped):
        return None if event.auto else Stop()
    if isinstance(event, OyagimePicked):
        return PickOyagime(event.index)
    return None


def walk(events):
    """Each player's action in the log with the state it was taken in, checking every
    event against the rules: yields (event index, state, action), then, at the end of the
    log, (its length, the final state, None).

    Raises ReplayError naming the first event the rules do not reproduce.
    """
    events = tuple(events)
    if not events or not isinstance(events[0], MatchStarted):
        raise ReplayError("a match log starts with a match_started event")
    first = events[0]
    try:
        state = new_match(first.rules, seed=first.seed, months=first.months, decks=first.decks,
                          first_dealer=first.first_dealer)
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"the log's first event cannot start a match: {exc}") from None
    p = len(state.events)
    if events[:p] != state.events:
        raise ReplayError("the opening events of the log do not follow from its seed "
                          "(and set decks)")
    while p < len(events):
        event = events[p]
        action = action_of(event)
        if action is None:
            raise ReplayError(f"event {p} ({getattr(event, 'type', '?')}) is not a player's action, "
                              f"but the rules expect one here")
        yield p, state, action
        try:
            state = apply(state, action)
        except IllegalAction as exc:
            raise ReplayError(f"event {p} is an illegal action: {exc}") from None
        n = len(state.events)
        if events[p:n] != state.events[p:]:
            for k in range(p, n):
                if k >= len(events) or events[k] != state.events[k]:
                    got = events[k].type if k < len(events) else "the end of the log"
                    raise ReplayError(f"event {k} is {got}, but the rules give {state.events[k].type}")
        p = n
    yield p, state, None


def replay(events) -> State:
    """Rebuild a State from its log, checking every event against the rules (``walk``).

    Raises ReplayError naming the first event the rules do not reproduce.
    """
    for _p, state, _action in walk(events):
        pass
    return state
