"""The match as a pure reducer: ``apply(state, action) -> state``.

``State`` is an immutable NamedTuple of small ints, bitmasks and tuples. The
general reducer ``reference_apply`` copies it into a mutable draft, runs the turn
(and whatever the rules then make happen: stock flip, settlement, the next deal,
the end of the match), records every step as an event, and freezes a new State.
``apply`` builds the common turns (a Play, a ChooseMatch, a Koi-Koi call that leave
the round going) directly as a new State instead, and hands over to the draft where
the round ends; a test checks that ``apply`` and ``reference_apply`` always agree.
Chance comes only from a hash of ``f"{seed}/{draw}"``, never the global ``random``,
or from the decks ``new_match`` was given for the first deals (recorded in
MatchStarted); the shuffled decks are also written into the events, so a log is
readable on its own and ``replay`` can check it card by card.

The reducer lives in one module per job; this module gathers their public names (and the
phase numbers) where callers have always imported them:

    engine/state.py   State, its draft, the phase numbers, IllegalAction and ReplayError
    engine/rounds.py  new_match, the seeded shuffles and the oya-gime, a round's deal and end
    engine/turns.py   reference_apply: the general reducer of a turn
    engine/legal.py   legal_actions and its tables
    engine/fast.py    apply: the fast paths of the common turns
    engine/walk.py    action_of, walk, replay
"""

from __future__ import annotations

from .fast import apply
from .legal import legal_actions
from .phase import Phase
from .rounds import new_match
from .state import CHOOSE, DECIDE, OVER, OYAGIME, PHASE_NAMES, PLAY, IllegalAction, ReplayError, State
from .turns import reference_apply
from .walk import action_of, replay, walk

__all__ = ["State", "IllegalAction", "ReplayError", "Phase", "PHASE_NAMES", "OYAGIME", "PLAY", "CHOOSE",
           "DECIDE", "OVER", "new_match", "legal_actions", "apply", "reference_apply", "action_of",
           "walk", "replay"]
