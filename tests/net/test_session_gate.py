"""One gate for every action: ``MatchSession.prepare`` refuses a seat out of turn, a
stale view and an illegal action with a code, for the local table (``apply``) and for
the server (which writes the prepared move, then commits it). Loopback only, bounded."""

from __future__ import annotations

import random

import pytest

from koikoi.engine import RULESETS, IllegalAction, Play, legal_actions
from koikoi.engine.phase import SeatKind
from koikoi.net.client import ServerError
from koikoi.net.rooms import room_session
from koikoi.session import MatchSession, Refused, SeatConfig
from koikoi import session as session_mod

from net_helpers import close_all, pair, play, run, serving

HUMANS = (SeatConfig(SeatKind.HUMAN, "Aki"), SeatConfig(SeatKind.HUMAN, "Haru"))


class CountingStore:
    def __init__(self):
        self.saves = 0
        self.filed = 0

    def save_autosave(self, session) -> bool:
        self.saves += 1
        return True

    def file_match(self, session, **kwargs):
        self.filed += 1
        return "filed"

    def clear_autosave(self, match_id: str) -> None:
        pass


def a_session(store=None) -> MatchSession:
    return MatchSession(RULESETS["casual"], seed=11, months=1, seats=HUMANS, store=store)


def test_the_gate_refuses_with_a_code_and_changes_nothing():
    store = CountingStore()
    s = a_session(store)
    before = s.state
    seat = s.to_move
    action = s.legal()[0]
    cases = [
        (dict(seat=1 - seat), "not_your_turn"),
        (dict(seat=seat, at=len(before.events) + 1), "stale"),
        (dict(at=len(before.events) - 1), "stale"),
    ]
    for kwargs, code in cases:
        with pytest.raises(Refused) as info:
            s.apply(action, **kwargs)
        assert info.value.code == code and info.value.message
        assert s.state is before and store.saves == 0
    # a refusal is an IllegalAction, as apply always raised
    with pytest.raises(IllegalAction):
        s.apply(object(), seat=seat)
    assert s.state is before and store.saves == 0
    # the gated apply and the plain one take a legal action the same way
    events = s.apply(action, seat=seat, at=len(before.events))
    assert events and s.state.events[:len(before.events)] == before.events and store.saves == 1


def test_an_illegal_explanation_never_names_a_card_the_seat_cannot_see():
    s = a_session()
    rng = random.Random(5)
    while not (s.state.phase_name == "play"):        # a round dealt: hands are hidden
        s.apply(rng.choice(s.legal()))
    seat = s.to_move
    other_hand = [c.id for c in s.view(1 - seat).hand]
    with pytest.raises(Refused) as info:
        s.prepare(Play(other_hand[0]), seat=seat)
    assert info.value.code == "illegal"
    assert not any(cid in info.value.message for cid in other_hand)
    # the local table (no seat: both hands are on it) may hear the engine's own words
    with pytest.raises(Refused) as info:
        s.prepare(Play(other_hand[0]))
    assert info.value.code == "illegal" and info.value.message


def test_a_prepared_move_commits_once_and_not_after_the_match_moved():
    s = room_session(a_session().state)
    first = s.prepare(s.legal()[0])
    again = s.prepare(s.legal()[0])
    assert s.commit(first) == list(first.events)
    with pytest.raises(Refused) as info:
        s.commit(again)                  # prepared on a state that is no longer the match's
    assert info.value.code == "stale" and s.state is first.state


def test_a_finished_match_refuses_every_action():
    s = a_session()
    rng = random.Random(2)
    for _ in range(5000):
        if s.state.is_over:
            break
        s.apply(rng.choice(s.legal()))
    assert s.state.is_over
    with pytest.raises(Refused) as info:
        s.prepare(object())
    assert info.value.code == "over"


def test_the_server_and_the_local_table_pass_the_same_gate(data_dir, monkeypatch):
    """Every action of a networked match goes through MatchSession.prepare (and commit)."""
    seen = {"prepare": 0, "commit": 0}
    prepare, commit = session_mod.MatchSession.prepare, session_mod.MatchSession.commit

    def spy_prepare(self, action, **kw):
        seen["prepare"] += 1
        return prepare(self, action, **kw)

    def spy_commit(self, move):
        seen["commit"] += 1
        return commit(self, move)

    monkeypatch.setattr(session_mod.MatchSession, "prepare", spy_prepare)
    monkeypatch.setattr(session_mod.MatchSession, "commit", spy_commit)

    async def main():
        async with serving(data_dir, seeds=lambda: 77) as server:
            a, b, code = await pair(server, months=1)
            n = await play({0: a, 1: b}, random.Random(4), stop_after=12)
            room = server.rooms[code]
            # a wrong seat is refused by the session's gate, with its code
            mover = a if room.state.to_move == 1 else b
            with pytest.raises(ServerError) as info:
                await mover.send_action(legal_actions(room.state)[0])
            await close_all(a, b)
            return n, info.value
    n, refusal = run(main())
    assert n == 12 and seen["commit"] == 12 and seen["prepare"] == 13
    assert refusal.code == "not_your_turn"
