"""Nothing a client receives shows a card its seat may not see at that moment, nor the
seed: every frame of whole random matches (both players, a spectator, a player who
reconnects mid-round, refused moves naming hidden cards) is compared with the cards
the engine hides at that point, and the one frame that shows everything, the match
record, comes only to a player, only after the match has ended (net_helpers.hidden_after, itself checked against
``view(state, seat).unseen`` at every decision)."""

from __future__ import annotations

import json
import logging
import random

import pytest

from koikoi.engine import Play, apply, legal_actions, new_match, view
from koikoi.engine.cards import IDS
from koikoi.net.client import Connection, ServerError
from koikoi.net.rooms import room_rules

from net_helpers import (CARD_RE, check_frames, check_tracker_against_engine, close_all, pair, play,
                         run, serving, settle)

MATCHES = [
    ("casual", 3, {}),
    ("nintendo", 3, {"lucky_hands": "on"}),
    ("battle-hanafuda", 2, {}),                                   # misdeals: lucky hands, pairs, threes
    ("koikoi-japan", 3, {"field_four_of_month": "dealer_sweeps", "lucky_hands": "misdeal"}),
    ("kk-add-10", 3, {"field_four_of_month": "dealer_wins", "must_play_match": True}),
    ("classic", 3, {"weather": True, "oya_ken": 6}),
]


@pytest.mark.parametrize("preset, months, house", MATCHES)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_frame_shows_a_hidden_card_or_the_seed(data_dir, caplog, preset, months, house, seed):
    caplog.set_level(logging.INFO, logger="koikoi.net")

    async def scenario():
        async with serving(data_dir) as server:
            a, b, code = await pair(server, preset, months, spectators=True, record=True, house=house)
            s = await Connection.open(server.url, record=True)
            await s.watch(code)
            rng = random.Random(f"{preset}/{seed}")
            seats = {0: a, 1: b}
            frames = {0: [a.frames], 1: [b.frames], None: [s.frames]}
            await play(seats, rng, stop_after=rng.randrange(5, 40))
            # seat 1 drops mid-round and comes back: the whole list again
            token = b.state.token
            await b.close()
            b = await Connection.open(server.url, record=True)
            await b.reconnect(code, token)
            seats[1] = b
            frames[1].append(b.frames)
            # refused moves naming cards the mover cannot see
            st = await settle([a, b, s])
            if not st.table.is_over:
                mover = seats[st.to_move]
                await mover.wait_until(lambda x: bool(x.legal))
                room = server.rooms[code]
                hidden = [c.id for c in view(room.state, mover.state.seat).unseen]
                for card in hidden[:3]:
                    with pytest.raises(ServerError):
                        await mover.send_action(Play(card))
                    with pytest.raises(ServerError):
                        await seats[1 - mover.state.seat].send_action(Play(card))
            await play(seats, rng)
            await settle([a, b, s])
            await got_records(a, b)           # the whole log, once over: checked below too
            room = server.rooms[code]
            events, match_seed = room.events, room.state.seed
            checked = 0
            for viewer, lists in frames.items():
                assert check_tracker_against_engine(events, viewer) > 0
                for fl in lists:
                    checked += check_frames(fl, events, viewer, match_seed)
            await close_all(a, b, s)
            return checked, match_seed
    checked, match_seed = run(scenario())
    assert checked > 100
    for record in caplog.records:            # the server's log names no card and no seed
        text = record.getMessage()
        assert not [c for c in CARD_RE.findall(text) if c in IDS], text
        assert str(match_seed) not in text


async def got_records(*players):
    """Each player has the match record (sent only after "over"; check_frames checks when)."""
    for p in players:
        await p.wait_until(lambda x: x.record is not None or x.record_problem is not None, 10)
        assert p.state.record is not None, p.state.record_problem
        assert sum(json.loads(raw)["type"] == "record" for _n, raw in p.frames) == 1


def _simulate(rules, months, seed, tag):
    rng = random.Random(tag)
    state = new_match(rules, seed=seed, months=months)
    while legal_actions(state) is not None:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


SPECIAL = {   # the deals that show cards of a hand, or turn stock cards at the deal
    "lucky_hand": ("nintendo", {}, 3, lambda e: e.type == "lucky_hand"),
    "misdeal_lucky_hand": ("koikoi-japan", {}, 1, lambda e: e.type == "misdeal" and e.reason == "lucky_hand"),
    "misdeal_four_pairs": ("battle-hanafuda", {}, 2, lambda e: e.type == "misdeal" and e.reason == "four_pairs"),
    "misdeal_three": ("battle-hanafuda", {}, 2, lambda e: e.type == "misdeal" and e.reason == "three_of_a_month"),
    "field_swept": ("casual", {"field_four_of_month": "dealer_sweeps"}, 1, lambda e: e.type == "field_swept"),
    "field_four": ("kk-add-10", {"field_four_of_month": "dealer_wins"}, 1,
                   lambda e: e.type == "round_ended" and e.row.reason == "field_four"),
}


@pytest.mark.parametrize("case", sorted(SPECIAL))
def test_special_deals_leak_nothing_and_match_the_engine(data_dir, case):
    preset, house, months, wanted = SPECIAL[case]
    rules, months, _ = room_rules(preset, house, months)
    tag = f"special/{case}"
    base = 10 ** 12 + 7919        # a long seed, so that "not in any frame" means something
    seed = next((s for s in range(base, base + 20000)
                 if any(map(wanted, _simulate(rules, months, s, tag).events))), None)
    assert seed is not None, "no seed deals it"
    expected = _simulate(rules, months, seed, tag)

    async def scenario():
        async with serving(data_dir, seeds=lambda: seed) as server:
            a, b, code = await pair(server, preset, months, spectators=True, record=True, house=house)
            s = await Connection.open(server.url, record=True)
            await s.watch(code)
            await play({0: a, 1: b}, random.Random(tag))
            await settle([a, b, s])
            await got_records(a, b)
            room = server.rooms[code]
            assert room.state == expected        # the server plays exactly the engine's match
            for viewer, conn in ((0, a), (1, b), (None, s)):
                assert check_tracker_against_engine(room.events, viewer) > 0
                assert check_frames(conn.frames, room.events, viewer, seed) > 0
            await close_all(a, b, s)
    run(scenario())
