"""A cheap greedy policy for both seats, and playouts of a sim.Round to its end.

Used by Hard's search (thousands of times per decision) and by
tools/fit_winprob.py's self-play. Greedy on static card values, with a bonus
for captures that raise a yaku, a cost for feeding the field and a little
noise.

Koi-Koi (either seat's question inside a playout): Stop's value is exact, the
award now. In the match's last round (``final_scores`` set: the match scores
before it) it is exact in match terms too, whatever the rule: a seat that wins
the match by stopping stops, one that would still be behind calls (stopping
loses the match for certain); only a stop that draws it is left to the rule.
``kk="ev"`` (Hard's, the coach's and the review's) calls by Medium's
expected-value rule (``call_value`` against the award, without Medium's shift
for the match score, which a playout does not know). ``kk="fit"`` calls when a
linear model of what calling gains over stopping is above zero (Medium's
estimate of the call, the award, both hands' sizes and the calls made), fitted
per preset to what calling then won in self-play playouts (tools/fit_calls.py,
shipped as koikoi/ai/data/calls.json; a rule set with no fit of its own takes
its preset's, else Nintendo's): it answers held-out questions better than the
"ev" rule (Nintendo 1.43 points a question over always stopping, against 1.10),
yet Hard with it was no stronger against a216113's Hard (-0.33 points a round
on Nintendo over 70 paired deals, CI -0.77..+0.08; +0.10 on Battle Hanafuda
over 60, CI -0.31..+0.56), so it is not the default. ``kk="simple"`` calls at
most once, with at least ``koikoi_hand`` cards in hand and at most
``koikoi_max`` points.
"""

from __future__ import annotations

import json
import random
from itertools import chain, repeat, starmap
from pathlib import Path

from ..engine.actions import ChooseMatch, KoiKoi, PickOyagime, Play, Stop
from ..engine.cards import BRIGHTS as _BR, CARD_MONTH_MASK, IDS, RIBBONS as _RB
from ..engine.phase import Phase
from ..engine.scoring import _GATE, paid
from .base import KnowledgeCache
from .knowledge import Knowledge, p_holds
from .sim import (_TAKE_SIG, _T0, _T1, _T2, _T3, CHOOSE, DECIDE, DONE, PLAY, Round, _points_fns, deal,
                  maybe_yaku)

_CM = CARD_MONTH_MASK
_ALL = (1 << 48) - 1
# _PH[unseen][hand][k]: P(a hand of ``hand`` cards out of ``unseen`` holds one of k given cards).
_PH = tuple(tuple(tuple(p_holds(k, u, h) for k in range(5)) for h in range(9)) for u in range(49))

CALLS_DATA = Path(__file__).resolve().parent / "data" / "calls.json"
# The model's inputs, in the order of the shipped weights (tools/fit_calls.py fits them).
CALL_FEATURES = ("1", "call_value", "stop", "hand", "opp_hand", "hand_empty", "calls", "opp_calls")
_CALLS: list = []    # the shipped weights, read once (never changed after)


def stop_award(know: Knowledge, r: Round, points) -> int:
    """The exact award of stopping now at ``r``'s Koi-Koi question (``points``: the policy's)."""
    seat = r.to_move
    calls = r.calls
    return know.award(points(r.cap[seat], r.field, calls[seat]), calls[seat], calls[1 - seat],
                      r.field_brights)


def call_features(know: Knowledge, r: Round, stop: int) -> tuple:
    """The inputs of the call model at ``r``'s Koi-Koi question, from what the deciding seat
    sees (piles, field, hand sizes, calls), ``stop`` being ``stop_award`` there."""
    seat = r.to_move
    opp = 1 - seat
    calls = r.calls
    n = r.hands[seat].bit_count()
    no = r.hands[opp].bit_count()
    cv = know.call_value(r.cap[seat], r.cap[opp], r.field, max(n, 1), no, calls[seat], calls[opp],
                         r.field_brights)
    return (1.0, cv, stop, n, no, 1.0 if n == 0 else 0.0, calls[seat], calls[opp])


def call_weights(rules) -> tuple:
    """The shipped call model's weights for ``rules`` (its preset's, else Nintendo's), or ()
    when no fit is shipped."""
    if not _CALLS:
        try:
            with open(CALLS_DATA) as fh:
                data = json.load(fh)
            table = {k: tuple(float(x) for x in v["w"]) for k, v in data["presets"].items()
                     if len(v["w"]) == len(CALL_FEATURES)}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            table = {}
        _CALLS.append(table)
    table = _CALLS[0]
    return table.get(rules.name) or table.get("nintendo") or ()


_POP4 = tuple(n.bit_count() for n in range(16))
# A hand's cards (``sim.bits``), remembered: a playout's hands recur from sample to sample.
_HAND_CARDS: dict = {}
_HANDS_MAX = 1 << 16


def _takes(value: tuple) -> tuple:
    """``_takes(value)[c][n]``: what playing card ``c`` takes when the field holds the cards
    ``n`` (a nibble: bit j the month's card j) of its month, for the playout policy: None
    when it takes nothing, else ``(score, target, taken field cards, all cards taken, their
    signature)``. The score is the cards' static values added as ``Policy.play`` always
    added them (the played card's, then the taken ones lowest first; of two, the one of
    higher value, the lower card on a tie, is taken); target -1 unless two matched."""
    out = []
    for c in range(48):
        sh = c & 60
        row = [None] * 16
        for n in range(1, 16):
            if n >> (c & 3) & 1:
                continue                   # c itself on the field: never asked
            m = n << sh
            t = -1
            if n.bit_count() == 2:
                a = m & -m
                b = m ^ a
                ia, ib = a.bit_length() - 1, b.bit_length() - 1
                if value[ia] >= value[ib]:
                    m, t = a, ia
                else:
                    m, t = b, ib
                sc = value[c] + value[t]
            else:
                sc = value[c]
                mm = m
                while mm:
                    low = mm & -mm
                    sc += value[low.bit_length() - 1]
                    mm ^= low
            took = 1 << c | m
            row[n] = (sc, t, m, took, _TAKE_SIG[took])
        out.append(tuple(row))
    return tuple(out)


class Policy:
    """The playout policy for one rule set."""

    def __init__(self, know: Knowledge, noise: float = 0.35, koikoi_hand: int = 9,
                 koikoi_max: int = 3, deny: float = 0.0, deny_dump: float = 1.5,
                 feed: float = 0.8, kk: str = "ev", kk_margin: float = 0.5):
        if kk not in ("ev", "simple", "fit"):
            raise ValueError(f"kk={kk!r}: the playout Koi-Koi rule is 'fit', 'ev' or 'simple'")
        self.know = know
        self.kk_w = call_weights(know.rules) if kk == "fit" else ()
        if kk == "fit" and not self.kk_w:
            kk = "ev"        # no fit shipped: Medium's rule
        self.kk = kk
        self.kk_margin = kk_margin
        self.deny = deny
        self.deny_dump = deny_dump
        self.sets = tuple(m for m, _ in know.sets)
        self.an, self.ch = know.an, know.ch
        self.value = know.value
        self.points = know.points
        self.noise = noise
        self.koikoi_hand = koikoi_hand
        self.koikoi_max = koikoi_max
        # Dumping a card on the field: roughly what it is worth to whoever takes it.
        self.dump = tuple(0.45 * v for v in know.value)
        self.feed = feed
        self.dump_p = tuple(feed * v for v in know.value)
        self.dump_neg = tuple(-d for d in self.dump)
        self._dump_rows: dict = {}
        self._takes = _takes(know.value)
        self.points_v = _points_fns(know.rules, know.month)[1]
        self.must_match = know.rules.must_play_match
        # The match scores before this round when it is the match's last (the deciding
        # View's, set by Hard per decision), else None: see ``koikoi``.
        self.final_scores = None

    def near(self, cap: int, other: int) -> int:
        """Cards that would complete or nearly complete a yaku for the pile ``cap``."""
        m = 0
        for s in self.sets:
            if not other & s:
                miss = s & ~cap
                if miss & (miss - 1) == 0:
                    m |= miss
        if (cap & _BR).bit_count() >= 2:
            m |= _BR
        if (cap & self.an).bit_count() >= 4:
            m |= self.an
        if (cap & _RB).bit_count() >= 4:
            m |= _RB
        if (cap & self.ch).bit_count() >= 8:
            m |= self.ch
        return m & ~(cap | other)

    def play(self, r: Round, rand) -> tuple:
        """The mover's play: the best score, each card's from ``_takes`` (what it takes from the
        field and the score of that) or, when it takes nothing, what dumping it costs, plus
        ``noise * rand()`` (one draw a card, in card order)."""
        seat = r.to_move
        hands = r.hands
        hand = hands[seat]
        field = r.field
        cap = r.cap[seat]
        if self.feed:
            # What the mover cannot see: the other hand and the stock. A dumped card is
            # taken next turn if the opponent holds its month.
            unseen = _ALL & ~(hand | field | cap | r.cap[1 - seat])
            u, h = unseen.bit_count(), hands[1 - seat].bit_count()
            dumps = self._dump_rows.get(u * 9 + h) or self._dump_row(u, h)
        deny = self.deny
        threat = self.near(r.cap[1 - seat], cap) if deny else 0
        ptsv = self.points_v
        maybe = r._maybe          # the pre-check for these rules (tsuki-fuda's full months)
        months = maybe is not maybe_yaku
        sig = r.sig[seat]
        takes = self._takes
        base = -1
        best_c, best_t, best = -1, -1, -1e9
        noise = self.noise
        cards = _HAND_CARDS.get(hand)
        if cards is None:
            cards = _T0[hand & 4095] + _T1[hand >> 12 & 4095] + _T2[hand >> 24 & 4095] + _T3[hand >> 36]
            if len(_HAND_CARDS) >= _HANDS_MAX:
                _HAND_CARDS.clear()
            _HAND_CARDS[hand] = cards
        any_match = self.must_match and any(field & _CM[c] for c in cards)
        for c in cards:
            e = takes[c][field >> (c & 60) & 15]      # the field's cards of c's month
            if e is not None:
                sc, t, m, took, dv = e
                if deny and threat & m:
                    sc += deny * (threat & m).bit_count()
                v = sig + dv          # the pile's signature after the take (``maybe_yaku``'s gate)
                if v & _GATE or months and maybe(cap | took):
                    if base < 0:
                        called = r.calls[seat]
                        base = ptsv(sig, cap, field, called)
                    gain = ptsv(v, cap | took, field ^ m, called) - base
                    if gain > 0:
                        sc += 3.0 + gain
            elif any_match:
                continue
            else:
                t = -1
                if self.feed:
                    sc = dumps[c][unseen >> (c & 60) & 15]
                else:
                    sc = self.dump_neg[c]
                if deny and threat >> c & 1:
                    sc -= self.deny_dump
            sc += noise * rand()
            if sc > best:
                best, best_c, best_t = sc, c, t
        return best_c, best_t

    def _dump_row(self, unseen: int, hand: int) -> tuple:
        """Per card, per set of its month's cards the mover cannot see: what dumping it costs
        (``-feed * value * (P(the other hand of ``hand`` cards, out of ``unseen``, holds one
        of them) + 0.15)``), remembered per (unseen, hand)."""
        ph = _PH[unseen][hand]
        row = tuple(tuple(-dp * (ph[_POP4[n]] + 0.15) for n in range(16)) for dp in self.dump_p)
        self._dump_rows[unseen * 9 + hand] = row
        return row

    def choose(self, r: Round) -> int:
        """The stock card's target: the higher valued of the two (the lower card on a tie),
        as ``_takes`` picks it."""
        p = r.pending
        return self._takes[p][r.field >> (p & 60) & 15][1]

    def koikoi(self, r: Round) -> bool:
        seat = r.to_move
        if self.kk == "simple":
            if r.hands[seat].bit_count() < self.koikoi_hand:
                return False
            if r.calls[seat]:
                return False
            return self.points(r.cap[seat], r.field, r.calls[seat]) <= self.koikoi_max
        if not r.hands[seat]:
            return False     # nothing left to add: calling only gives the opponent time
        know = self.know
        stop = stop_award(know, r, self.points)      # exact, whichever rule answers
        final = self.final_scores
        if final is not None:
            after = paid(final, seat, stop, know.rules)
            lead = after[seat] - after[1 - seat]
            if lead:
                return lead < 0          # the last round: stopping settles the match
        if self.kk == "fit":
            x = call_features(know, r, stop)
            w = self.kk_w
            return (w[0] + w[1] * x[1] + w[2] * x[2] + w[3] * x[3] + w[4] * x[4] + w[5] * x[5]
                    + w[6] * x[6] + w[7] * x[7]) > 0.0
        calls = r.calls                  # "ev": Medium's rule
        opp = 1 - seat
        call = know.call_value(r.cap[seat], r.cap[opp], r.field, r.hands[seat].bit_count(),
                               r.hands[opp].bit_count(), calls[seat], calls[opp], r.field_brights)
        return call > stop + min(stop, self.kk_margin)

    def run(self, r: Round, rand) -> Round:
        """Play ``r`` to the end of the round (in place) and return it."""
        while True:
            ph = r.phase
            if ph == PLAY:
                c, t = self.play(r, rand)
                r.play(c, t)
            elif ph == CHOOSE:
                r.choose(self.choose(r))
            elif ph == DECIDE:
                if self.koikoi(r):
                    r.koikoi()
                else:
                    r.stop()
            else:
                return r

    def until_yaku(self, r: Round, rand, log=None) -> Round:
        """Play ``r`` (in place) until a seat makes or improves a yaku (phase DECIDE, or DONE
        when the rules stop the round for it) or the round runs out, and return it. ``log``
        (a list) receives each move: ``(0, card, target)`` plays, ``(1, target, -1)`` choices."""
        while True:
            ph = r.phase
            if ph == PLAY:
                c, t = self.play(r, rand)
                if log is not None:
                    log.append((0, c, t))
                r.play(c, t)
            elif ph == CHOOSE:
                t = self.choose(r)
                if log is not None:
                    log.append((1, t, -1))
                r.choose(t)
            else:
                return r


def called_points(policy: Policy, r: Round, n: int, rand) -> float:
    """Koi-Koi's mean round points for the seat at ``r``'s question (``r`` unchanged): ``n``
    playouts by ``policy`` after the call, each its award if it wins the round, the
    opponent's negated if the opponent does, 0 for no game (tools/fit_calls.py's target)."""
    seat = r.to_move
    total = 0
    for _ in range(n):
        k = r.copy()
        k.koikoi()
        policy.run(k, rand)
        if k.winner is not None:
            total += k.points if k.winner == seat else -k.points
    return total / n


def noise_streams(seed: int, k: int):
    """A maker of ``random.Random(seed).random``: each call returns a new function that gives
    that generator's stream from its start. The first ``k`` draws are made once and shared by
    all of them (a list read in turn); past them a function seeds its own generator and
    skips them, so the stream never ends. Common random numbers for several playouts of one
    sample (Hard's candidates) at the cost of one seeding, not one each (a seeding of the
    Mersenne Twister costs as much as some 300 draws)."""
    g = random.Random(seed)
    head = list(starmap(g.random, repeat((), k)))

    def make():
        return chain(head, _draws_after(seed, k)).__next__
    return make


def _draws_after(seed: int, k: int):
    """``random.Random(seed)``'s draws after its first ``k``."""
    g = random.Random(seed)
    for _ in range(k):
        g.random()
    draw = g.random
    while True:
        yield draw()


def selfplay_round(policy: Policy, rules, rng: random.Random, dealer: int, month: int = 1) -> Round:
    r = deal(rules, rng, dealer, month)
    return policy.run(r, rng.random)


__all__ = ["Policy", "selfplay_round", "DONE"]


class GreedyPlayer:
    """The playout policy as a player (for experiments: ``tools/arena.py greedy ...``)."""

    level = "greedy"

    def __init__(self, seed: int = 0, **params):
        self._rng = random.Random(seed)
        self._kc = KnowledgeCache()
        self._params = params
        self._pol = None

    def choose(self, view, legal):
        if len(legal) == 1 or isinstance(legal[0], PickOyagime):
            return legal[0]
        know = self._kc.get(view.rules, view.month)
        if self._pol is None or self._pol.know is not know:
            self._pol = Policy(know, **self._params)
        me = view.seat
        hands = [0, 0]
        hands[me] = view.hand_mask
        phase = {Phase.PLAY: PLAY, Phase.CHOOSE: CHOOSE, Phase.DECIDE: DECIDE}[view.phase]
        r = Round(view.rules, hands, view.field_mask, [], view.captured_masks, view.calls,
                  view.koikoi_refs, me, phase, view.pending.index if view.pending else -1,
                  view.field_brights, view.dealer, view.month)
        if phase == PLAY:
            c, t = self._pol.play(r, self._rng.random)
            want = Play(IDS[c], IDS[t] if t >= 0 else None)
        elif phase == CHOOSE:
            want = ChooseMatch(IDS[self._pol.choose(r)])
        else:
            want = KoiKoi() if self._pol.koikoi(r) else Stop()
        return want if want in legal else legal[0]
