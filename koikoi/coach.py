"""The Koi-Koi coach: how risky is playing on? Estimated from what you can see.

``risk(view, samples=200, seed=0)`` deals the cards hidden from ``view.seat``
(the opponent's hand and the stock, ``view.unseen_mask``) at random many
times, plays the rest of the round out with a simple greedy policy for both
sides, and answers the share of deals in which the opponent's yaku improve
(as the Koi-Koi prompt counts it) before your hand runs out. It never reads
a hidden card: two views that show the same thing give the same answer.

The playout is a lean simulation on card bitmasks (the engine's matching
rules: a card takes the field card of its month, the chosen one of two, or
all three; the stock card the same), scored with ``scoring.yaku_points``.
"""

from __future__ import annotations

import random
from typing import Optional

from .engine.cards import (ANIMALS, AKATAN, AOTAN, BRIGHTS, CARD_MONTH_MASK, INOSHIKACHO, RIBBONS,
                           SAKE_CUP, indices)
from .engine.scoring import yaku_points

# What a card is worth to the greedy policy (captures of valuable cards first).
_WEIGHT = [1] * 48
for _i in range(48):
    _b = 1 << _i
    if _b & BRIGHTS:
        _WEIGHT[_i] = 20
    elif _b & SAKE_CUP:
        _WEIGHT[_i] = 16
    elif _b & INOSHIKACHO:
        _WEIGHT[_i] = 14
    elif _b & ANIMALS:
        _WEIGHT[_i] = 8
    elif _b & (AKATAN | AOTAN):
        _WEIGHT[_i] = 12
    elif _b & RIBBONS:
        _WEIGHT[_i] = 7
_MONTH = CARD_MONTH_MASK


def _improved(prompt_when: str, now: tuple, ref: tuple) -> bool:
    if not now:
        return False
    if prompt_when == "total_rises":
        return sum(p for _, p in now) > sum(p for _, p in ref)
    before = dict(ref)
    return any(p > before.get(name, 0) for name, p in now)


def _best_of(mask: int) -> int:
    """The most valuable card of a non-empty mask."""
    best, bw = -1, -1
    for i in indices(mask):
        if _WEIGHT[i] > bw:
            best, bw = i, _WEIGHT[i]
    return best


def _take(field: int, c: int, choose: bool = True) -> tuple[int, int]:
    """Match card ``c`` against ``field``: (new field, captured mask)."""
    m = field & _MONTH[c]
    if not m:
        return field | (1 << c), 0
    if m.bit_count() == 2:
        m = 1 << _best_of(m)
    return field & ~m, m | (1 << c)


def _choose_play(hand: int, field: int) -> int:
    """The greedy play: the most valuable capture, else throw away the cheapest card."""
    best, best_gain = -1, 0
    cheapest, cheap_w = -1, 1 << 30
    for c in indices(hand):
        m = field & _MONTH[c]
        if m:
            if m.bit_count() == 2:
                gain = _WEIGHT[c] + _WEIGHT[_best_of(m)]
            else:
                gain = _WEIGHT[c] + sum(_WEIGHT[i] for i in indices(m))
            if gain > best_gain:
                best, best_gain = c, gain
        elif _WEIGHT[c] < cheap_w:
            cheapest, cheap_w = c, _WEIGHT[c]
    return best if best >= 0 else cheapest


def _playout(rules, me: int, hands: list, field: int, caps: list, stock: list, first: int,
             ref: tuple, pending: Optional[int]) -> bool:
    """One deal played out; True if the opponent's yaku improve before ``me`` runs out of cards."""
    opp = 1 - me
    prompt_when = rules.prompt_when
    seat = first
    pos = 0
    if pending is not None:
        # the mover is choosing which field card the turned stock card takes: finish that turn
        field, got = _take(field, pending)
        caps[seat] |= got
        if seat == opp and got and _improved(prompt_when, yaku_points(caps[opp], rules, field), ref):
            return True
        if not hands[me]:
            return False
        seat = 1 - seat if hands[1 - seat] else seat
    for _ in range(40):
        if not hands[me] or not (hands[0] | hands[1]):
            return False
        hand = hands[seat]
        if not hand:
            seat = 1 - seat
            continue
        c = _choose_play(hand, field)
        hands[seat] = hand & ~(1 << c)
        field, got = _take(field, c)
        cap = caps[seat] | got
        if pos < len(stock):
            s = stock[pos]
            pos += 1
            field, got2 = _take(field, s)
            cap |= got2
        if seat == opp and cap != caps[opp]:
            caps[opp] = cap
            if _improved(prompt_when, yaku_points(cap, rules, field), ref):
                return True
        caps[seat] = cap
        other = 1 - seat
        seat = other if hands[other] else seat
    return False


def risk(view, samples: int = 200, seed: int = 0) -> float:
    """The share of random deals of the hidden cards in which the opponent completes or
    improves a yaku before ``view.seat``'s hand runs out (0..1)."""
    me = view.seat
    opp = 1 - me
    my_hand = view.hand_mask
    k = int(view.opponent_hand_count)
    if not my_hand or k <= 0 or samples <= 0:
        return 0.0
    if view.phase == "decide" and view.to_move == me:
        first = opp            # after a Koi-Koi call the opponent moves next
    elif view.to_move in (0, 1):
        first = view.to_move
    else:
        return 0.0
    pending = view.pending.index if view.pending is not None else None
    unseen = indices(view.unseen_mask)
    k = min(k, len(unseen))
    ref = tuple(view.koikoi_refs[opp]) if view.koikoi_refs else ()
    rules = view.rules
    field0 = view.field_mask
    caps0 = list(view.captured_masks)
    rng = random.Random(seed)
    hits = 0
    for _ in range(samples):
        rng.shuffle(unseen)
        opp_hand = 0
        for i in unseen[:k]:
            opp_hand |= 1 << i
        hands = [0, 0]
        hands[me], hands[opp] = my_hand, opp_hand
        if _playout(rules, me, hands, field0, list(caps0), unseen[k:], first, ref, pending):
            hits += 1
    return hits / samples


def summary(view, samples: int = 200, seed: int = 0) -> tuple[float, int]:
    """(risk, what stopping pays now) for the Koi-Koi prompt's coach line."""
    return risk(view, samples, seed), view.award(view.seat).total


def coach_line(p: float, pays: int, opponent: str = "the CPU") -> str:
    pct = int(round(p * 100))
    return (f"Coach: {opponent} completes a yaku before your hand runs out in about {pct}% "
            f"of deals like this. Stop pays {pays} now.")


__all__ = ["risk", "summary", "coach_line"]
