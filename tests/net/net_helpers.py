"""Helpers of the network tests: a server on 127.0.0.1 port 0, random play through real
clients, and what a seat may see at each point of a log (for the leak checks).

Every wait has a timeout; every loop a bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import replace
from typing import Optional

from koikoi.engine import action_of, apply, new_match
from koikoi.engine.cards import IDS
from koikoi.engine.events import (Flipped, FieldSwept, LuckyHand, MatchStarted, Misdeal,
                                  OyagimeDecided, OyagimePicked, OyagimeSpread, Played, RoundDealt)
from koikoi.engine.match import CHOOSE, DECIDE, OYAGIME, PLAY
from koikoi.engine.view import view
from koikoi.net.client import Connection
from koikoi.net.protocol import record_log
from koikoi.net.server import MatchServer, ServerConfig

HOST = "127.0.0.1"
TEST_TIMEOUT = 120.0
CARD_RE = re.compile(r"(?<![A-Za-z0-9_-])(\d\d-[A-Z]+\d?)(?![A-Za-z0-9_])")
CARD_IDS = frozenset(IDS)


def run(coro, timeout: float = TEST_TIMEOUT):
    """Run a test coroutine on a fresh loop, bounded in time."""
    async def bounded():
        return await asyncio.wait_for(coro, timeout)
    return asyncio.run(bounded())


def config(**kw) -> ServerConfig:
    """Test defaults: quick timeouts, fast sweeps off, the rest as shipped."""
    base = ServerConfig(open_timeout=5.0, close_timeout=1.0, send_timeout=5.0, sweep_every=3600.0,
                        durable=False)
    return replace(base, **kw)


@contextlib.asynccontextmanager
async def serving(data_dir, seeds=None, **kw):
    server = MatchServer(data_dir, host=HOST, port=0, config=config(**kw), seeds=seeds)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def pair(server, rules="casual", months=1, spectators=False, record=False, house=None):
    """Two connected players in a new room: (host in seat 0, guest in seat 1, code)."""
    a = await Connection.open(server.url, record=record)
    choice = {"preset": rules, "house": house or {}} if isinstance(rules, str) else rules
    joined = await a.create_room(choice, months=months, name="Aki", spectators=spectators)
    b = await Connection.open(server.url, record=record)
    await b.join(joined["room"], "Haru")
    await a.wait_until(lambda s: s.status == "playing", 10)
    return a, b, joined["room"]


async def settle(players, timeout: float = 10.0):
    """Wait until every connection has every event the server sent (same total)."""
    total = max(p.state.total for p in players)
    for p in players:
        await p.wait_until(lambda s, t=total: s.total >= t, timeout)
    return players[0].state


async def play(seats: dict, rng, *, limit: int = 5000, stop_after: Optional[int] = None) -> int:
    """Random legal actions through the clients until the match ends (or ``stop_after``
    actions). ``seats``: seat -> Connection. Returns the number of actions."""
    n = 0
    conns = list(seats.values())
    while n < limit:
        if stop_after is not None and n >= stop_after:
            return n
        st = await settle(conns)
        if st.table.is_over:
            return n
        mover = seats[st.to_move]
        await mover.wait_until(lambda s: bool(s.legal), 10)
        await mover.send_action(rng.choice(mover.state.legal))
        n += 1
    raise AssertionError(f"the match did not end in {limit} actions")


async def close_all(*conns):
    for c in conns:
        await c.close()


# ------------------------------------------------------------------ what a seat may see

def hidden_after(events, viewer: Optional[int]) -> list:
    """For each event index, the cards ``viewer`` (0, 1, or None for a spectator) may not
    see just after that event: the other hand(s) and the unturned stock of the round, or
    the face-down oya-gime cards. A card leaves the set when the rules show it."""
    out = []
    hidden: set = set()
    for e in events:
        if isinstance(e, MatchStarted):
            hidden = set()
        elif isinstance(e, OyagimeSpread):
            hidden = set(e.cards)
        elif isinstance(e, OyagimePicked):
            hidden = hidden - {e.card}
        elif isinstance(e, OyagimeDecided):
            hidden = hidden - set(e.cards)
        elif isinstance(e, RoundDealt):
            hands = e.hands if viewer is None else (e.hands[1 - viewer],)
            hidden = set(e.stock).union(*map(set, hands))
        elif isinstance(e, (Misdeal, LuckyHand)):
            hidden = hidden - set(e.cards)
        elif isinstance(e, FieldSwept):
            hidden = hidden - set(e.replacements)
        elif isinstance(e, (Played, Flipped)):
            hidden = hidden - {e.card}
        out.append(frozenset(hidden))
    return out


def check_tracker_against_engine(events, viewer: Optional[int]) -> int:
    """``hidden_after`` agrees with the engine at every decision point of the log: the
    View's unseen cards (plus seat 0's hand for a spectator), or the face-down spread.
    Returns how many points were compared."""
    hidden = hidden_after(events, viewer)
    first = events[0]
    state = new_match(first.rules, seed=first.seed, months=first.months)
    n = 0
    while True:
        i = len(state.events) - 1
        if state.phase in (PLAY, CHOOSE, DECIDE):
            v = view(state, 0 if viewer is None else viewer)
            unseen = {c.id for c in v.unseen}
            if viewer is None:
                unseen |= {c.id for c in v.hand}
            assert hidden[i] == unseen, (i, sorted(hidden[i] ^ unseen))
            n += 1
        elif state.phase == OYAGIME:
            face_down = {IDS[c] for c in state.spread} - {IDS[c] for _, _, c in state.picks}
            assert hidden[i] == face_down, i
            n += 1
        if len(state.events) >= len(events):
            break
        state = apply(state, action_of(events[len(state.events)]))
    assert state.events == tuple(events)
    return n


def _strings(value, skip=("token",)):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, skip)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                yield from _strings(v, skip)


def cards_in(value) -> set:
    """Every card id in the JSON value's texts (whole or inside a message)."""
    found = set()
    for s in _strings(value):
        if s in CARD_IDS:
            found.add(s)
        else:
            found.update(c for c in CARD_RE.findall(s) if c in CARD_IDS)
    return found


def check_frames(frames, events, viewer: Optional[int], seed: int) -> int:
    """No frame a connection received shows a card ``viewer`` may not see at that
    moment, nor the seed. ``frames``: Connection.frames ((events seen before, raw text));
    ``events``: the server's whole log. Returns the number of cards checked."""
    hidden = hidden_after(events, viewer)
    none = frozenset()
    checked = 0
    over_seen = False
    for before, raw in frames:
        m = json.loads(raw)
        if m["type"] == "record":
            # the whole match, seed and all: only to a player, only once it has ended (the
            # "over" frame came first and every event had been received), and exactly the log
            assert viewer is not None, "a spectator was sent the match record"
            assert over_seen, "a match record before the match ended"
            assert before == len(events), ("a match record before every event was sent", before)
            assert m["log"] == record_log(events), "the record is not the server's log"
            assert m["seat"] == viewer
            continue
        over_seen = over_seen or m["type"] == "over"
        assert len(str(seed)) < 8 or str(seed) not in raw, "the seed was sent"
        if m["type"] == "events":
            for j, ev in enumerate(m["events"]):
                i = m["start"] + j
                if ev["type"] == "match_started":
                    assert ev["seed"] == 0 and not ev.get("decks"), ev
                if ev["type"] == "round_dealt":
                    for s, hand in enumerate(ev["hands"]):
                        if s != viewer:
                            assert all(c is None for c in hand), ev
                    assert all(c is None for c in ev["stock"]), ev
                shown = cards_in(ev)
                leak = shown & hidden[i]
                assert not leak, (i, ev["type"], sorted(leak))
                checked += len(shown)
            rest = {k: v for k, v in m.items() if k != "events"}
            at = m["total"] - 1
        else:
            rest = m
            at = before - 1
        shown = cards_in(rest)
        leak = shown & (hidden[at] if at >= 0 else none)
        assert not leak, (m["type"], sorted(leak))
        checked += len(shown)
    return checked
