"""Medium: a careful heuristic player.

* Values a position by how close each yaku is for both sides given what is
  still obtainable (``Knowledge.potential``): capturing a card the opponent
  needs lowers their chances, so denial comes for free.
* Does not feed the field: every field month it would leave is weighed by the
  chance that the opponent holds a card of that month (from the unseen count
  and their hand size) times what the capture would give them; months it can
  take itself next turn count a little in its favour.
* Looks one step ahead over its own play and every possible stock card.
* Koi-Koi by expected value: the chance of improving first times the gain,
  against the chance the opponent completes first times their (multiplied)
  award, shifted by the match score and the months left.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..engine.actions import KoiKoi, Stop
from ..engine.cards import ALL, CARD_MONTH_MASK, ID_TO_INDEX, MONTH_LOWS as _LOWS, MONTH_MASK
from .base import KnowledgeCache, Seen, find, kind, months_left, play_key, seen
from .knowledge import Knowledge, p_holds
from .sim import bits

_CM = CARD_MONTH_MASK


class Evaluator:
    """Static evaluation of a position for the seat that owns ``mine``."""

    def __init__(self, know: Knowledge, feed_w: float = 0.8, bon_w: float = 0.5,
                 opp_w: float = 0.5, static_w: float = 1.0, pile_w: float = 0.5):
        self.k = know
        self.static_w = static_w
        self.pile_w = pile_w
        self.feed_w = feed_w
        self.bon_w = bon_w
        self.opp_w = opp_w

    def piles(self, mine: int, theirs: int, my_turns: int, opp_turns: int) -> float:
        """My yaku chances minus the opponent's."""
        pot = self.k.potential
        avail = ALL & ~(mine | theirs)
        return pot(mine, avail, my_turns) - self.opp_w * pot(theirs, avail, opp_turns)

    def field_risk(self, field: int, mine: int, theirs: int, hand: int, unseen: int,
                   opp_hand: int, my_turns: int, opp_turns: int) -> float:
        """What the field offers the opponent (weighted by the chance they hold the month)
        minus, a little, what it offers me next turn."""
        pot = self.k.potential
        avail = ALL & ~(mine | theirs)
        pm = pot(mine, avail, my_turns)
        po = pot(theirs, avail, opp_turns)
        nu = unseen.bit_count()
        ph = [p_holds(i, nu, opp_hand) for i in range(4)]
        pen = bon = 0.0
        months = (field | field >> 1 | field >> 2 | field >> 3) & _LOWS
        while months:
            low = months & -months
            months ^= low
            M = MONTH_MASK[(low.bit_length() - 1) >> 2]
            f = field & M
            p = ph[(unseen & M).bit_count()]
            mh = hand & M
            if p > 0.0:
                if f.bit_count() == 2:
                    a = f & -f
                    g = max(pot(theirs | a, avail & ~a, opp_turns),
                            pot(theirs | (f ^ a), avail & ~(f ^ a), opp_turns))
                else:
                    g = pot(theirs | f, avail & ~f, opp_turns)
                pen += p * (g - po)
            if mh:
                x = f | (mh & -mh)
                bon += (1.0 - p) * (pot(mine | x, avail & ~x, my_turns) - pm)
        return self.feed_w * pen - self.bon_w * bon

    def leaf(self, field: int, mine: int, theirs: int, hand: int, unseen: int, opp_hand: int,
             my_turns: int, opp_turns: int) -> float:
        return (self.piles(mine, theirs, my_turns, opp_turns)
                - self.field_risk(field, mine, theirs, hand, unseen, opp_hand, my_turns, opp_turns))


class MediumPlayer:
    level = "medium"

    def __init__(self, seed: int = 0, always_stop: bool = False, **params):
        self._always_stop = always_stop
        self._rng = random.Random(seed)
        self._kc = KnowledgeCache()
        self._ev = None
        self._params = params

    def _evaluator(self, rules, month: int = 0) -> Evaluator:
        k = self._kc.get(rules, month)
        if self._ev is None or self._ev.k is not k:
            self._ev = Evaluator(k, **self._params)
        return self._ev

    def choose(self, view, legal: Sequence):
        k = kind(legal)
        if k == "oyagime":
            return legal[self._rng.randrange(len(legal))]
        if len(legal) == 1:
            return legal[0]
        ev = self._evaluator(view.rules, view.month)
        s = seen(view)
        if k == "decide":
            if self._always_stop:
                return find(legal, Stop)
            return find(legal, KoiKoi) if koikoi_wanted(ev.k, view, s) else find(legal, Stop)
        if k == "choose":
            scores = [self._choose_score(ev, s, ID_TO_INDEX[a.target]) for a in legal]
        else:
            scores = [self._play_score(ev, s, *play_key(a)) for a in legal]
        best = max(range(len(legal)), key=lambda i: (scores[i], -i))
        return legal[best]

    # ------------------------------------------------------------ moves

    def _choose_score(self, ev: Evaluator, s: Seen, target: int) -> float:
        mine = s.mine | (1 << s.pending) | (1 << target)
        field = s.field & ~(1 << target)
        h = s.hand.bit_count()
        return ev.leaf(field, mine, s.theirs, s.hand, s.unseen, s.opp_hand, h, s.opp_hand)

    def _play_score(self, ev: Evaluator, s: Seen, c: int, t: int) -> float:
        bit = 1 << c
        hand = s.hand & ~bit
        field = s.field
        mine = s.mine
        m = field & _CM[c]
        value = ev.k.value
        if m:
            if t >= 0:
                m = 1 << t
            field ^= m
            mine |= bit | m
            static = value[c] + sum(value[x] for x in bits(m))
        else:
            field |= bit
            static = -0.3 * value[c]
        static *= ev.static_w
        my_turns = hand.bit_count()
        opp_turns = s.opp_hand
        unseen = s.unseen
        theirs = s.theirs
        # The field I leave after the hand stage: what it offers the opponent's next play.
        risk = ev.field_risk(field, mine, theirs, hand, unseen, s.opp_hand, my_turns, opp_turns)
        flips = bits(unseen)
        piles = ev.piles
        if not flips:
            return ev.pile_w * piles(mine, theirs, my_turns, opp_turns) - risk + static
        memo = {}
        total = 0.0
        for x in flips:
            xb = 1 << x
            sm = field & _CM[x]
            if not sm:
                v = memo.get(mine)
                if v is None:
                    v = memo[mine] = piles(mine, theirs, my_turns, opp_turns)
            elif sm.bit_count() == 2:
                a = sm & -sm
                v = max(piles(mine | xb | a, theirs, my_turns, opp_turns),
                        piles(mine | xb | (sm ^ a), theirs, my_turns, opp_turns))
            else:
                key = mine | xb | sm
                v = memo.get(key)
                if v is None:
                    v = memo[key] = piles(key, theirs, my_turns, opp_turns)
            total += v
        return ev.pile_w * total / len(flips) - risk + static


# ---------------------------------------------------------------- Koi-Koi

def koikoi_estimate(know: Knowledge, view, s: Seen) -> tuple:
    """(EV of stopping, EV of calling) in round points for the deciding seat."""
    me = s.me
    stop = view.award(me).total
    call = know.call_value(s.mine, s.theirs, s.field, s.hand.bit_count(), s.opp_hand,
                           view.calls[me], view.calls[1 - me], view.field_brights)
    return float(stop), call


def koikoi_wanted(know: Knowledge, view, s: Seen) -> bool:
    if not s.hand:
        return False
    stop, call = koikoi_estimate(know, view, s)
    me = s.me
    lead = view.scores[me] - view.scores[1 - me]
    rules = view.rules
    if rules.target_points is not None and view.scores[me] + stop >= rules.target_points:
        return False
    if rules.scoring_mode == "zero_sum" and view.scores[1 - me] - stop <= 0:
        return False
    left = months_left(view)
    if left == 0:
        if lead + stop > 0:
            return False           # stopping wins the match
        if lead + stop < 0:
            return True            # stopping loses it anyway
        return call > stop
    if left is None:
        left = 6
    margin = 0.5 + 0.12 * lead / (left + 1)
    margin = max(-0.5 * stop, min(stop, margin))
    return call > stop + margin
