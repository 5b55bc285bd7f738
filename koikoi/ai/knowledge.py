"""What the CPU levels know about a rule set: card values, yaku closeness, risks.

Everything here is a pure function of the ``Rules`` and card masks. A
``Knowledge`` is built once per Rules value (players keep their own); its only
mutable state is the memos of those pure functions (``call_value``'s, the
awards'), which change no answer.
"""

from __future__ import annotations

from math import erf, sqrt

from ..engine import cards as C
from ..engine.rules import Rules
from ..engine.scoring import BREAKERS
from .sim import _CM, award_fn, points_fn

ALL = C.ALL
BR, RAIN = C.BRIGHTS, C.RAIN_MAN
BR_NR = BR & ~RAIN
RB = C.RIBBONS
INO, AKA, AO = C.INOSHIKACHO, C.AKATAN, C.AOTAN
CUP, CURTAIN, MOON = C.SAKE_CUP, C.CURTAIN, C.MOON
MONTHS = C.MONTH_MASK

_CV_MAX = 1 << 16   # questions ``call_value`` remembers (then it starts again)
RATE = 1.8   # cards a turn that end in one's own pile, roughly

# The chance that a yaku still ``need`` cards away gets completed, roughly (need 0: held).
REACH = (1.0, 0.5, 0.24, 0.11, 0.05, 0.022, 0.01, 0.004, 0.002, 0.001, 0.0005, 0.0) + (0.0,) * 40


class Knowledge:
    """Compiled facts about one rule set, in a round of ``month`` (1..12; 0: none), which
    matters only under ``tsuki_fuda`` (the month's four cards are a yaku of their own)."""

    def __init__(self, rules: Rules, month: int = 0):
        self.rules = rules
        self.month = month if rules.tsuki_fuda else 0
        self.points = points_fn(rules, self.month)
        self._award = award_fn(rules)
        # ``call_value``'s memo, and what of its arguments it reads beyond the piles, the
        # turns and the calls: of the field only the weather's Willow and Paulownia, the
        # opening brights only under their multiplier (a key drops the rest).
        self._cv_memo: dict = {}
        self._cv_field = C.WILLOW | C.PAULOWNIA if rules.weather else 0
        self._cv_fb = -1 if rules.field_brights_multiplier else 0
        r = rules
        # A card of one's own pile that cancels one's viewing yaku (rain-break): 0 if none.
        self.breaker = BREAKERS[r.rain_break] if r.viewing != "off" else 0
        self.an = C.ANIMALS if r.sake_cup_is_animal else C.ANIMALS & ~CUP
        self.ch = C.CHAFF | CUP if r.sake_cup_is_chaff else C.CHAFF
        self.sanko = r.sanko
        self.shiko_gain = max(0, max(r.shiko, r.ame_shiko) - r.sanko)
        self.goko_gain = max(0, r.goko - max(r.shiko, r.ame_shiko))
        sets = []
        if r.inoshikacho:
            sets.append((INO, r.inoshikacho))
        if r.akatan:
            sets.append((AKA, r.akatan))
        if r.aotan:
            sets.append((AO, r.aotan))
        if r.akatan_aotan_on_top and r.combo_grading == "stack" and r.akatan and r.aotan \
                and r.akatan_aotan:
            sets.append((AKA | AO, r.akatan_aotan))
        if self.month:
            sets.append((MONTHS[self.month - 1], r.tsuki_fuda))
        if r.viewing != "off":
            w = 1.0 if r.viewing == "on" else 0.6
            if r.hanami_zake:
                sets.append((CURTAIN | CUP, r.hanami_zake * w))
            if r.tsukimi_zake:
                sets.append((MOON | CUP, r.tsukimi_zake * w))
        self.sets = tuple(sets)
        self.counts = tuple((m, t, p) for m, t, p in ((self.an, 5, r.tane), (RB, 5, r.tanzaku),
                                                       (self.ch, 10, r.kasu)) if p)
        # Static card values (Easy, and the fast playout policy): what a card adds to an
        # empty pile's yaku chances, plus a little for its kind.
        self.value = tuple(self._static_value(c) for c in range(48))
        self.ko_mult = r.koikoi_multiplier
        # Cards that belong to the same yaku masks add the same points to any pile that
        # holds neither: the yaku count cards per mask, and the single-card masks (cup,
        # curtain, moon, rain man) are classes of their own.
        groups = {}
        month = MONTHS[self.month - 1] if self.month else 0
        for c in range(48):
            bit = 1 << c
            key = tuple(bool(bit & m) for m in (BR, RAIN, self.an, RB, self.ch, INO, AKA, AO,
                                                CUP, CURTAIN, MOON, month, self.breaker))
            groups[key] = groups.get(key, 0) | bit
        self.classes = tuple(groups.values())

    def _static_value(self, c: int) -> float:
        bit = 1 << c
        v = 0.3
        if bit & BR:
            v += 3.0 if not bit & RAIN else 1.5
        if bit & self.an:
            v += 0.8
        if bit & RB:
            v += 0.8
        if bit & self.ch:
            v += 0.3
        for m, p in self.sets:
            if bit & m:
                v += p * (0.35 if m.bit_count() == 3 else 0.45)
        return v

    # ------------------------------------------------------------ yaku closeness

    def potential(self, mine: int, avail: int, turns: int = 8) -> float:
        """Expected-ish yaku points for a pile ``mine`` that can still gain cards from
        ``avail`` (cards in nobody's pile), with ``turns`` own turns left."""
        reach = REACH if turns >= 4 else _REACH_LATE[turns]
        have = mine | avail
        v = 0.0
        if self.sanko:
            nb = (mine & BR_NR).bit_count()
            if (have & BR_NR).bit_count() >= 3:
                v += self.sanko * reach[3 - nb if nb < 3 else 0]
            nb = (mine & BR).bit_count()
            hb = (have & BR).bit_count()
            if hb >= 4 and self.shiko_gain:
                v += self.shiko_gain * reach[4 - nb if nb < 4 else 0]
                if hb == 5 and self.goko_gain:
                    v += self.goko_gain * reach[5 - nb]
        broken = mine & self.breaker
        for m, p in self.sets:
            if have & m == m:
                if broken and m & CUP:
                    continue     # a viewing yaku the pile's own Rain Man (or Phoenix) cancels
                v += p * reach[(m & ~mine).bit_count()]
        if self.counts:
            # Counting yaku: about RATE cards a turn join the pile, the category's share of
            # what is left; the chance to reach the threshold from a normal approximation.
            na = avail.bit_count() or 1
            flow = RATE * turns / na
            for m, t, p in self.counts:
                n = (mine & m).bit_count()
                a = (avail & m).bit_count()
                e = flow * a
                if n >= t:
                    v += p + n - t + 0.8 * e
                elif n + a >= t:
                    need = t - n
                    z = (e - need + 0.5) / (0.6 + 0.8 * sqrt(e))
                    pr = 0.5 * (1.0 + erf(z * 0.7071))
                    v += pr * (p + 0.5 * max(0.0, e - need))
        return v

    def award(self, base: int, own_calls: int, opp_calls: int, field_brights: int) -> int:
        """What ``base`` yaku points earn: the Koi-Koi bonus, then the multipliers (the
        engine's ``award_total``, remembered: ``sim.award_fn``)."""
        return self._award(base, own_calls, opp_calls, field_brights)

    def outs(self, mine: int, pool: int, field: int = 0, called: int = 0) -> tuple:
        """(the cards of ``pool`` that would each, added alone, raise ``mine``'s yaku total,
        the sum of the totals they would give). Cards of one class (``self.classes``) give
        the same total, so one of each is tried. ``called``: the pile's owner has called
        Koi-Koi (the viewing yaku's value after a call)."""
        pts = self.points
        now = pts(mine, field, called)
        out = 0
        total = 0
        for cm in self.classes:
            m = pool & cm
            if m:
                t = pts(mine | (m & -m), field, called)
                if t > now:
                    out |= m
                    total += t * m.bit_count()
        return out, total

    def call_value(self, mine: int, theirs: int, field: int, my_turns: int, opp_turns: int,
                   my_calls: int, opp_calls: int, field_brights: int) -> float:
        """What calling Koi-Koi is worth in round points for the pile ``mine`` (Medium's rule):
        the chance of improving first times the award after the call, minus the chance that
        the opponent completes a yaku first times theirs. Every card outside the two piles
        counts as still obtainable.

        Remembered per argument tuple (what it reads of them): Hard's playouts put the same
        question again and again (about 60% of a match's are repeats), each worth two
        ``outs`` and a ``potential``."""
        key = (mine, theirs, field & self._cv_field, my_turns, opp_turns, my_calls, opp_calls,
               field_brights & self._cv_fb)
        memo = self._cv_memo
        v = memo.get(key)
        if v is None:
            v = self._call_value(mine, theirs, field, my_turns, opp_turns, my_calls, opp_calls,
                                 field_brights)
            if len(memo) >= _CV_MAX:
                memo.clear()
            memo[key] = v
        return v

    def _call_value(self, mine: int, theirs: int, field: int, my_turns: int, opp_turns: int,
                    my_calls: int, opp_calls: int, field_brights: int) -> float:
        """``call_value``, computed."""
        pts = self.points
        pool = ALL & ~(mine | theirs)
        n = max(1, pool.bit_count())
        base = pts(mine, field, 1)          # valued as after the call
        outs, made = self.outs(mine, pool, field, 1)
        o = outs.bit_count()
        gain = (made / o - base) if o else 1.0
        q_me = min(0.95, 1.0 - (1.0 - o / n) ** 1.7)
        # The opponent's next yaku (or improvement, if they hold one already).
        tb = pts(theirs, field, opp_calls)
        touts, tmade = self.outs(theirs, pool, field, opp_calls)
        to = touts.bit_count()
        near = self.potential(theirs, pool, opp_turns) - tb
        q_opp = min(0.95, 1.0 - (1.0 - to / n) ** 1.7 + 0.02 * min(near, 5.0))
        pm, po = race(q_me, q_opp, my_turns, opp_turns)
        if to:
            tbase = tmade / to
        else:
            tbase = max(tb + 1.0, 2.0)
        mine_next = self.award(int(round(base + gain)), my_calls + 1, opp_calls, field_brights)
        theirs_next = self.award(max(1, int(round(tbase))), opp_calls, my_calls + 1, field_brights)
        limit = self.rules.max_koikoi_calls
        if limit is None or my_calls + opp_calls + 1 < limit:
            # Unlimited calls: improving need not end the round, a little extra upside.
            mine_next *= 1.1
        return pm * mine_next - po * theirs_next


def race(q_me: float, q_opp: float, my_turns: int, opp_turns: int):
    """(P(I improve first), P(the opponent makes a yaku first)) with per-turn chances; the
    opponent moves first (the caller has just played)."""
    alive = 1.0
    pm = po = 0.0
    for k in range(max(my_turns, opp_turns)):
        if k < opp_turns:
            po += alive * q_opp
            alive *= 1.0 - q_opp
        if k < my_turns:
            pm += alive * q_me
            alive *= 1.0 - q_me
    return pm, po


_REACH_LATE = tuple(
    tuple(r * (0.35 + 0.65 * t / 4) if i else r for i, r in enumerate(REACH)) for t in range(4)
)


def p_holds(k: int, unseen: int, hand: int) -> float:
    """P(a random ``hand`` cards out of ``unseen`` include at least one of ``k`` given cards)."""
    if k <= 0 or hand <= 0 or unseen <= 0:
        return 0.0
    if hand >= unseen:
        return 1.0
    p = 1.0
    for i in range(hand):
        if unseen - i <= 0:
            return 1.0
        p *= max(0, unseen - k - i) / (unseen - i)
        if p == 0.0:
            break
    return 1.0 - p


def month_of(c: int) -> int:
    return _CM[c]
