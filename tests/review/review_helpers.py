"""Scripted positions for the review's tests: a deck set with ``new_match(decks=...)`` and
the moves played into it."""

from __future__ import annotations

import random

from koikoi.engine import RULESETS, ChooseMatch, Play, apply, legal_actions, new_match, view
from koikoi.engine.cards import IDS

RULES = RULESETS["nintendo"]


def deck_of(hand0, hand1, field, flips, rest_seed=None) -> list:
    """A deck: seat 0 (the dealer) holds ``hand0``, seat 1 ``hand1``, the field ``field``; the
    stock starts with ``flips`` and the other cards follow in id order (or shuffled by
    ``rest_seed``)."""
    head = list(hand0) + list(hand1) + list(field) + list(flips)
    assert len(hand0) == len(hand1) == len(field) == 8 and len(set(head)) == len(head), head
    rest = [c for c in IDS if c not in head]
    if rest_seed is not None:
        random.Random(rest_seed).shuffle(rest)
    return head + rest


def play_out(deck, moves, rules=RULES):
    """The state after ``moves`` (card ids, or (card, target) pairs, or ("choose", target))."""
    s = new_match(rules, seed=1, months=1, decks=[deck], first_dealer=0)
    for m in moves:
        if isinstance(m, tuple) and m[0] == "choose":
            a = ChooseMatch(m[1])
        elif isinstance(m, tuple):
            a = Play(*m)
        else:
            a = Play(m)
        assert a in legal_actions(s), (a, s, view(s, s.to_move).hand)
        s = apply(s, a)
    return s


def hidden_shuffled(deck, state, seat: int, seed: int) -> list:
    """``deck`` with the cards ``seat`` has not seen by ``state`` (the other seat's hand
    and the stock not yet turned) permuted among themselves."""
    v = view(state, seat)
    unseen = {c.id for c in v.unseen}
    slots = [i for i, c in enumerate(deck) if c in unseen]
    cards = [deck[i] for i in slots]
    rng = random.Random(seed)
    while True:
        rng.shuffle(cards)
        if cards != [deck[i] for i in slots]:
            break
    out = list(deck)
    for i, c in zip(slots, cards):
        out[i] = c
    return out


# Seat 0 has taken the Crane and the Curtain; the Moon lies on the field and seat 0 holds a
# Pampas plain: taking the Moon is Sankō. 12-P1/12-P2 and 02-P1/02-P2 are twin plains.
SANKO = dict(
    hand0=["01-P1", "03-P1", "08-P1", "12-P1", "12-P2", "02-P1", "02-P2", "11-P"],
    hand1=["04-A", "05-A", "06-RB", "09-P2", "09-RB", "11-A", "10-RB", "07-R"],
    field=["01-B", "03-B", "08-B", "04-P1", "05-P1", "06-P1", "07-P1", "10-P1"],
    flips=["11-R", "09-P1", "12-P3", "02-RP"],
    moves=["01-P1", "04-A", "03-P1", "05-A"],
)

# Seat 1 has taken the Crane and the Curtain; seat 0 holds the Moon and no Pampas lies on
# the field: playing the Moon feeds seat 1's Sankō. Seat 0's other cards take field cards.
FEED = dict(
    hand0=["08-B", "04-P2", "05-P2", "06-P2", "07-P2", "12-P1", "02-P1", "11-P"],
    hand1=["01-P1", "03-P1", "09-P2", "09-RB", "11-A", "10-RB", "10-P2", "12-P2"],
    field=["01-B", "03-B", "04-P1", "05-P1", "06-P1", "07-P1", "10-P1", "09-A"],
    flips=["11-R", "12-P3", "02-RP", "04-R"],
    moves=["04-P2", "01-P1", "05-P2", "03-P1"],
)

# Seat 0 takes Butterflies, Boar and Deer (Inoshikachō, 5 points) while seat 1 takes the
# Crane and the Curtain with the Moon on the field: Stop is plainly right.
STOP = dict(
    hand0=["06-A", "07-A", "10-A", "02-P1", "02-P2", "12-P1", "12-P2", "11-P"],
    hand1=["01-P1", "03-P1", "09-P2", "09-RB", "11-A", "04-A", "05-A", "06-RB"],
    field=["06-P1", "07-P1", "10-P1", "01-B", "03-B", "08-B", "04-P1", "05-P1"],
    flips=["11-R", "09-P1", "12-P3", "02-RP", "01-RP"],
    moves=["06-A", "01-P1", "07-A", "03-P1", "10-A"],
)


def scripted(spec, rules=RULES, rest_seed=None):
    deck = deck_of(spec["hand0"], spec["hand1"], spec["field"], spec["flips"], rest_seed)
    return deck, play_out(deck, spec["moves"], rules)
