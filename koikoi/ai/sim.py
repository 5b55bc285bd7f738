"""A lean, mutable simulator of one Koi-Koi round, for the CPU's look-ahead.

Same rules as ``koikoi.engine.match`` within a round (matching, the stock
choice, ``prompt_when``, ``max_koikoi_calls``, ``last_turn_auto_stop``,
weather, rain-break, the round's month for tsuki-fuda, the viewing yaku's
value after a call, settlement and the Koi-Koi bonus via the engine's own
scoring functions), but on plain ints and lists, with no event log and no
copying per step.

    python -m koikoi.ai.sim --bench [--preset nintendo] [--seconds 3]

prints how many random full rounds (deal to settlement) it plays per second;
``python tools/bench_sim.py OLD_TREE .`` compares two checkouts in one run (alternated
CPU-time runs, or ``--callgrind N`` instruction counts). A test (tests/ai/test_sim.py)
checks it against the engine move by move.

``from_view`` and ``deal_hidden`` build a Round from what one seat sees, with
the cards it cannot see dealt at random (the coach's sampling; checked against
the engine in tests/ai/test_coach_cross.py).
"""

from __future__ import annotations

import argparse
import random
import time
from math import floor as _floor
from itertools import repeat, starmap
from operator import itemgetter
from typing import Optional

from ..engine import cards as _C
from ..engine.cards import _BIT, BRIGHTS, CARD_MONTH_MASK, MONTH_LOWS as _LOW
from ..engine.match import CHOOSE as E_CHOOSE, DECIDE as E_DECIDE, PLAY as E_PLAY
from ..engine.phase import Phase
from ..engine.rules import RULESETS, Rules
from ..engine.scoring import (_GATE, _SIG0, _SIG1, _SIG2, _SIG3, _SIGNATURE, BREAKERS, award_total,
                              improved, ino_mode, round_month, signature, yaku_points)
from ..engine.yaku import points as yaku_knob_points

PLAY, CHOOSE, DECIDE, DONE = 0, 1, 2, 3

_CM = CARD_MONTH_MASK


_T12 = tuple(tuple(tuple(12 * k + j for j in range(12) if x >> j & 1) for x in range(4096))
             for k in range(4))
_T0, _T1, _T2, _T3 = _T12


def bits(mask: int) -> tuple:
    """The card indices of a mask, lowest first (four table lookups)."""
    return _T0[mask & 4095] + _T1[mask >> 12 & 4095] + _T2[mask >> 24 & 4095] + _T3[mask >> 36]


_LOW12 = _LOW
_SECOND = itemgetter(1)



# What taking some cards adds to a pile's signature, for every set of cards of one month (a
# turn's take, the played or turned card with what it matched, is always one): the signature
# is a sum over the cards, so a Round keeps each pile's signature by one addition per take.
_TAKE_SIG = {m << (4 * mo): signature(m << (4 * mo)) - signature(0)
             for mo in range(12) for m in range(1, 16)}


def maybe_yaku(cap: int) -> bool:
    """False only when ``cap`` holds no yaku under any rules without tsuki-fuda (a cheap
    pre-check; ``maybe_yaku_months`` under tsuki-fuda, ``Round._maybe`` picks): the engine's
    gate (``scoring.yaku_points``), four table lookups."""
    return bool((_SIG0[cap & 4095] + _SIG1[cap >> 12 & 4095] + _SIG2[cap >> 24 & 4095]
                 + _SIG3[cap >> 36]) & _GATE)


def maybe_yaku_months(cap: int) -> bool:
    """``maybe_yaku``, or ``cap`` holds all four cards of some month (tsuki-fuda)."""
    return maybe_yaku(cap) or bool(cap & cap >> 1 & cap >> 2 & cap >> 3 & _LOW12)


_PTS_CACHE: dict = {}   # (id(rules), month) -> (rules, fn): pure functions only, safe to share


def points_fn(rules: Rules, month: int = 0):
    """``(capture mask, field mask=0, called=0) -> total yaku points`` for these rules in a
    round of ``month`` (1..12, ``scoring.round_month``; 0: none, and it matters only under
    ``tsuki_fuda``), cached. ``called``: the owner of the pile has called Koi-Koi this round
    (it matters only under ``viewing_after_koikoi``)."""
    return _points_fns(rules, month)[0]


def _points_fns(rules: Rules, month: int) -> tuple:
    """``points_fn``'s function, its twin ``(signature, mask, field, called) -> points`` that
    is handed the pile's ``signature`` (a Round keeps it) instead of looking it up, and the
    same for the engine's ``yaku_points`` tuple (``_memoized``)."""
    if not rules.tsuki_fuda:
        month = 0
    key = (id(rules), month)
    hit = _PTS_CACHE.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    fns = _memoized(rules, month, _compile_points(rules, month))
    if len(_PTS_CACHE) > 256:
        _PTS_CACHE.clear()
    _PTS_CACHE[key] = (rules, fns)
    return fns


_MEMO_MAX = 1 << 16       # piles remembered per points function (then it starts again)
_WILLOW_UP, _PAULOWNIA_UP, _CALLED, _MONTH_FULL = 1 << 25, 1 << 26, 1 << 27, 1 << 28


def _canonical_of(key: int) -> int:
    """A memo key (``_memoized``'s) with only what some yaku reads of the signature's counts:
    a set's count (Inoshikacho, Akatan, Aotan) only when the set is complete, the animals' only
    from five with the cup or beside a complete Inoshikacho (graded), the ribbons' only from
    five or beside a complete Akatan or Aotan (graded), the chaff's only from ten with the
    cup; the brights, the cup and the bits above the signature as they are. Piles of one
    canonical key hold the same yaku under any rules (the fields: ``scoring``'s signature)."""
    an, ino, rb = key >> 5 & 15, key >> 9 & 3, key >> 11 & 15
    aka, ao, ch, cup = key >> 15 & 3, key >> 17 & 3, key >> 19 & 31, key >> 24 & 1
    k = key & ~_SIGNATURE | key & (31 | 1 << 24)
    if ino == 3:
        k |= 3 << 9
    if aka == 3:
        k |= 3 << 15
    if ao == 3:
        k |= 3 << 17
    if an + cup >= 5 or ino == 3:
        k |= an << 5
    if rb >= 5 or aka == 3 or ao == 3:
        k |= rb << 11
    if ch + cup >= 10:
        k |= ch << 19
    return k


# ``_canonical_of`` reads two groups of fields that do not meet: the animals, Inoshikacho, chaff
# and cup (bits 5-10 and 19-24) and the ribbons, Akatan and Aotan (11-18); the rest it keeps.
# Its answer is thus one lookup per group, from tables of what it gives each group alone.
_CANON_KEEP = ~_SIGNATURE | 31
_CANON_A = tuple(_canonical_of((i & 63) << 5 | (i >> 6) << 19) for i in range(4096))
_CANON_R = tuple(_canonical_of(i << 11) for i in range(256))


def _canonical(key: int) -> int:
    """``_canonical_of(key)``, by two table lookups."""
    return key & _CANON_KEEP | _CANON_A[key >> 5 & 63 | key >> 13 & 4032] | _CANON_R[key >> 11 & 255]


def _store(memo: dict, canon: dict, key: int, make, *args):
    """A memo's miss: the answer under ``key``'s canonical key, else ``make(*args)``,
    remembered under both keys (each memo starts again past ``_MEMO_MAX``)."""
    ck = _canonical(key)
    x = canon.get(ck)
    if x is None:
        x = make(*args)
        if len(canon) >= _MEMO_MAX:
            canon.clear()
        canon[ck] = x
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[key] = x
    return x


def _memoized(rules: Rules, month: int, compute):
    """``compute`` (a ``_compile_points`` function) answered from a memo keyed by the pile's
    signature, the engine's (``scoring.yaku_points``: four table lookups give every count and
    card the yaku read), with above it only what these rules also read: the weather ruling a
    Willow and a Paulownia on the field, ``viewing_after_koikoi`` whether the owner called,
    tsuki-fuda whether the round's month is complete. A pile whose signature opens no gate
    (and no complete month under tsuki-fuda) scores 0 at once. A key not yet seen is looked up
    under its ``_canonical`` key before anything is computed (random play meets about one new
    signature a round for tens of thousands of rounds, but few new canonical keys).

    Returns ``(points, points_v, yaku_v)``: ``points(mask, field, called)``, its twin handed
    the pile's signature, and ``yaku_v`` (the same arguments) the engine's ``yaku_points``
    tuple, remembered the same way (a Koi-Koi call's refs)."""
    memo: dict = {}
    get = memo.get
    canon: dict = {}
    yaku_memo: dict = {}
    yaku_canon: dict = {}
    weather = rules.weather
    after = rules.viewing_after_koikoi is not None
    whole = _C.MONTH_MASK[(month - 1) % 12] if month and rules.tsuki_fuda else 0
    willow, paulownia = _C.WILLOW, _C.PAULOWNIA

    def remember(key: int, mask: int, field: int, called: int) -> int:
        return _store(memo, canon, key, compute, mask, field, called)

    def key_of(v: int, mask: int, field: int, called: int) -> int:
        """The memo key of a pile of signature ``v`` (-1: it holds no yaku)."""
        key = v & _SIGNATURE
        if whole and mask & whole == whole:
            key |= _MONTH_FULL
        elif not v & _GATE:
            return -1
        if weather:
            key |= (_WILLOW_UP if field & willow else 0) | (_PAULOWNIA_UP if field & paulownia else 0)
        if after and called:
            key |= _CALLED
        return key

    def yaku_v(v: int, mask: int, field: int = 0, called: int = 0) -> tuple:
        key = key_of(v, mask, field, called)
        if key < 0:
            return ()
        y = yaku_memo.get(key)
        if y is None:
            y = _store(yaku_memo, yaku_canon, key, yaku_points, mask, rules, field, called, month)
        return y

    if not (weather or after or whole):
        def points_v(v: int, mask: int, field: int = 0, called: int = 0) -> int:
            if not v & _GATE:
                return 0
            t = get(v & _SIGNATURE)
            return remember(v & _SIGNATURE, mask, field, called) if t is None else t

        def points(mask: int, field: int = 0, called: int = 0) -> int:
            v = _SIG0[mask & 4095] + _SIG1[mask >> 12 & 4095] + _SIG2[mask >> 24 & 4095] + _SIG3[mask >> 36]
            if not v & _GATE:
                return 0
            t = get(v & _SIGNATURE)
            return remember(v & _SIGNATURE, mask, field, called) if t is None else t
        return points, points_v, yaku_v

    def points_v(v: int, mask: int, field: int = 0, called: int = 0) -> int:
        key = key_of(v, mask, field, called)
        if key < 0:
            return 0
        t = get(key)
        return remember(key, mask, field, called) if t is None else t

    def points(mask: int, field: int = 0, called: int = 0) -> int:
        v = _SIG0[mask & 4095] + _SIG1[mask >> 12 & 4095] + _SIG2[mask >> 24 & 4095] + _SIG3[mask >> 36]
        key = v & _SIGNATURE      # as key_of (inline: one call less in the playout policy)
        if whole and mask & whole == whole:
            key |= _MONTH_FULL
        elif not v & _GATE:
            return 0
        if weather:
            key |= (_WILLOW_UP if field & willow else 0) | (_PAULOWNIA_UP if field & paulownia else 0)
        if after and called:
            key |= _CALLED
        t = get(key)
        return remember(key, mask, field, called) if t is None else t
    return points, points_v, yaku_v


def _compile_points(rules: Rules, month: int = 0):
    """A function ``(capture mask, field mask, called) -> total yaku points``, equal to
    ``sum(p for _, p in yaku_points(mask, rules, field, called, month))`` but without building
    tuples."""
    k = yaku_knob_points(rules)    # read through the knobs the engine's yaku table names
    goko, shiko, ame, sanko = k["goko"], k["shiko"], k["ame_shiko"], k["sanko"]
    ino_p, aka_p, ao_p, akao_p = k["inoshikacho"], k["akatan"], k["aotan"], k["akatan_aotan"]
    hanami, tsukimi = k["hanami_zake"], k["tsukimi_zake"]
    tane, tanzaku, kasu = k["tane"], k["tanzaku"], k["kasu"]
    graded = rules.combo_grading == "graded"
    ino = ino_mode(rules)
    ino_graded, ino_blocks = ino != "stack", ino == "graded"
    on_top = rules.akatan_aotan_on_top and not graded and akao_p
    after = rules.viewing_after_koikoi
    if after is not None:
        hanami_c, tsukimi_c = (after if hanami else 0), (after if tsukimi else 0)
    else:
        hanami_c, tsukimi_c = hanami, tsukimi
    view_mode = rules.viewing
    viewing = view_mode != "off" and (hanami or tsukimi)
    view_on = view_mode == "on"
    weather = rules.weather
    BREAK = BREAKERS[rules.rain_break]
    tsuki = rules.tsuki_fuda if month else 0
    MONTH = _C.MONTH_MASK[(month - 1) % 12] if month else 0
    BR, RAIN = _C.BRIGHTS, _C.RAIN_MAN
    AN = _C.ANIMALS if rules.sake_cup_is_animal else _C.ANIMALS & ~_C.SAKE_CUP
    RB = _C.RIBBONS
    CH = _C.CHAFF | _C.SAKE_CUP if rules.sake_cup_is_chaff else _C.CHAFF
    INO, AKA, AO = _C.INOSHIKACHO, _C.AKATAN, _C.AOTAN
    CUP, CURTAIN, MOON, WILLOW, PAUL = _C.SAKE_CUP, _C.CURTAIN, _C.MOON, _C.WILLOW, _C.PAULOWNIA

    def points(mask: int, field: int = 0, called: int = 0) -> int:
        t = 0
        nb = (mask & BR).bit_count()
        if nb >= 3:
            if nb == 5:
                t = goko
            elif nb == 4:
                t = ame if mask & RAIN else shiko
            elif not mask & RAIN:
                t = sanko
        na = (mask & AN).bit_count()
        nr = (mask & RB).bit_count()
        ino = ino_p and (mask & INO) == INO
        if ino:
            t += ino_p + na - 3 if ino_graded else ino_p
        aka = aka_p and (mask & AKA) == AKA
        ao = ao_p and (mask & AO) == AO
        if graded and aka and ao and akao_p:
            t += akao_p + nr - 6
        else:
            if aka:
                t += aka_p + nr - 3 if graded else aka_p
            if ao:
                t += ao_p + nr - 3 if graded else ao_p
            if on_top and aka and ao:
                t += akao_p
        if na >= 5 and tane and not (ino_blocks and ino):
            t += tane + na - 5
        if nr >= 5 and tanzaku and not (graded and (aka or ao)):
            t += tanzaku + nr - 5
        if kasu:
            nc = (mask & CH).bit_count()
            if nc >= 10:
                t += kasu + nc - 10
        if tsuki and mask & MONTH == MONTH:
            t += tsuki
        if viewing and mask & CUP and (view_on or t) and not mask & BREAK:
            if called:
                if hanami_c and mask & CURTAIN and not (weather and field & WILLOW):
                    t += hanami_c
                if tsukimi_c and mask & MOON and not (weather and field & PAUL):
                    t += tsukimi_c
            else:
                if hanami and mask & CURTAIN and not (weather and field & WILLOW):
                    t += hanami
                if tsukimi and mask & MOON and not (weather and field & PAUL):
                    t += tsukimi
        return t

    return points


_AWARD_CACHE: dict = {}   # id(rules) -> (rules, fn), as _PTS_CACHE


def award_fn(rules: Rules):
    """``(base, own calls, opponent calls, opening brights) -> award`` for these rules: the
    engine's ``award_total`` (the Koi-Koi bonus, then the multipliers), remembered per
    argument tuple (a round's few dozen outcomes repeat in every playout), cached per rules."""
    hit = _AWARD_CACHE.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    memo: dict = {}

    def award_of(base: int, own: int, opp: int, brights: int) -> int:
        key = (base, own, opp, brights)
        a = memo.get(key)
        if a is None:
            a = award_total(base, rules, own, opp, brights)
            if len(memo) >= 4096:
                memo.clear()
            memo[key] = a
        return a

    if len(_AWARD_CACHE) > 256:
        _AWARD_CACHE.clear()
    _AWARD_CACHE[id(rules)] = (rules, award_of)
    return award_of


def award(rules: Rules, cap: int, own_calls: int, opp_calls: int, field_brights: int,
          field: int, month: int = 0) -> int:
    """What a capture pile earns by stopping (the engine's ``award_from_mask(...).total``)."""
    base = sum(p for _, p in yaku_points(cap, rules, field, own_calls, month))
    return award_total(base, rules, own_calls, opp_calls, field_brights)


class Round:
    """One round in play. Seats 0 and 1; ``stock`` lists the cards still face down, top first.

    After ``play`` the stock card is turned at once; if it matches two field cards
    the phase becomes CHOOSE (``pending`` holds it) until ``choose``. A yaku
    improvement puts the mover in DECIDE (``koikoi`` or ``stop``) unless the rules
    stop the round automatically. When the round is over, phase is DONE and
    ``winner`` (None: exhausted), ``points`` and ``reason`` say how it ended.

    ``sig`` holds each pile's ``signature``, kept in step with ``cap`` by ``play`` and
    ``choose`` (one addition per take): whoever sets ``cap`` otherwise sets ``sig`` too.
    """

    __slots__ = ("rules", "hands", "field", "stock", "sp", "cap", "calls", "refs", "to_move",
                 "phase", "pending", "field_brights", "dealer", "winner", "points", "reason",
                 "last_yaku_seat", "reft", "month", "sig", "_auto_both", "_limit", "_weather", "_pts",
                 "_ptsv", "_yakuv", "_whole", "_total_mode", "_maybe", "_award")

    def __init__(self, rules: Rules, hands, field: int, stock, cap=(0, 0), calls=(0, 0),
                 refs=((), ()), to_move: int = 0, phase: int = PLAY, pending: int = -1,
                 field_brights: Optional[int] = None, dealer: int = 0, month: int = 0):
        self.rules = rules
        self.hands = list(hands)
        self.field = field
        self.stock = list(stock)
        self.sp = 0
        self.cap = list(cap)
        self.sig = [signature(cap[0]), signature(cap[1])]
        self.calls = list(calls)
        self.refs = list(refs)
        self.to_move = to_move
        self.phase = phase
        self.pending = pending
        self.field_brights = (field & BRIGHTS).bit_count() if field_brights is None else field_brights
        self.dealer = dealer
        self.winner = None
        self.points = 0
        self.reason = ""
        self.last_yaku_seat = -1
        self.reft = [sum(p for _, p in ref) for ref in self.refs] if any(self.refs) else [0, 0]
        self.month = month        # the round's month, 1..12 (0: none): tsuki-fuda's
        self._auto_both = rules.last_turn_auto_stop == "both_hands_empty"
        self._limit = rules.max_koikoi_calls
        self._weather = rules.weather
        self._pts, self._ptsv, self._yakuv = _points_fns(rules, month)
        # tsuki-fuda: the round's month's four cards, a yaku past the signature's gate
        self._whole = _C.MONTH_MASK[(month - 1) % 12] if month and rules.tsuki_fuda else 0
        self._total_mode = rules.prompt_when == "total_rises"
        self._maybe = maybe_yaku_months if rules.tsuki_fuda else maybe_yaku
        self._award = award_fn(rules)

    def copy(self) -> "Round":
        r = Round.__new__(Round)
        r.rules = self.rules
        r.hands = self.hands[:]
        r.field = self.field
        r.stock = self.stock          # never mutated: ``sp`` walks it
        r.sp = self.sp
        r.cap = self.cap[:]
        r.sig = self.sig[:]
        r.calls = self.calls[:]
        r.refs = self.refs[:]
        r.to_move = self.to_move
        r.phase = self.phase
        r.pending = self.pending
        r.field_brights = self.field_brights
        r.dealer = self.dealer
        r.winner = self.winner
        r.points = self.points
        r.reason = self.reason
        r.last_yaku_seat = self.last_yaku_seat
        r.reft = self.reft[:]
        r.month = self.month
        r._pts = self._pts
        r._ptsv = self._ptsv
        r._yakuv = self._yakuv
        r._whole = self._whole
        r._total_mode = self._total_mode
        r._maybe = self._maybe
        r._award = self._award
        r._auto_both = self._auto_both
        r._limit = self._limit
        r._weather = self._weather
        return r

    @property
    def stock_count(self) -> int:
        return len(self.stock) - self.sp

    # ------------------------------------------------------------ actions

    def play(self, c: int, target: int = -1) -> None:
        """Play hand card ``c`` (taking ``target`` when two field cards match), then turn the stock."""
        seat = self.to_move
        bit = _BIT[c]
        hands = self.hands
        hands[seat] ^= bit
        field = self.field
        m = field & _CM[c]
        if m:
            if target >= 0 and m.bit_count() == 2:
                m = _BIT[target]
            field ^= m
            took = bit | m
        else:
            field |= bit
            took = 0
        sp = self.sp
        s = self.stock[sp]
        self.sp = sp + 1
        sm = field & _CM[s]
        if sm:
            if sm.bit_count() == 2:
                self.field = field
                self.pending = s
                self.phase = CHOOSE
                if took:
                    self.cap[seat] |= took
                    self.sig[seat] += _TAKE_SIG[took]
                return
            field ^= sm
            sm |= _BIT[s]
            self.cap[seat] |= took | sm
            sig = self.sig
            sig[seat] = v = sig[seat] + (_TAKE_SIG[took] + _TAKE_SIG[sm] if took else _TAKE_SIG[sm])
            self.field = field
        else:
            field |= _BIT[s]
            self.field = field
            if took:
                self.cap[seat] |= took
                sig = self.sig
                sig[seat] = v = sig[seat] + _TAKE_SIG[took]
            elif self._weather:     # the field's Willow or Paulownia may have gone
                v = self.sig[seat]
            else:                   # nothing taken: no yaku can have risen
                if hands[1 - seat]:
                    self.to_move = 1 - seat
                elif not hands[seat]:
                    self._next_turn(seat)
                return
        # The yaku pre-check: the signature's gate (or tsuki-fuda's complete month).
        if (v & _GATE or self._whole and self.cap[seat] & self._whole == self._whole) \
                and self._yaku_up(seat):
            return
        if hands[1 - seat]:     # the next turn (phase is still PLAY)
            self.to_move = 1 - seat
        elif not hands[seat]:
            self._next_turn(seat)

    def choose(self, target: int) -> None:
        """Take ``target`` with the pending stock card."""
        seat = self.to_move
        bit = _BIT[target]
        took = _BIT[self.pending] | bit
        self.field ^= bit
        self.cap[seat] |= took
        sig = self.sig
        sig[seat] = v = sig[seat] + _TAKE_SIG[took]
        self.pending = -1
        self.phase = PLAY
        if not ((v & _GATE or self._whole and self.cap[seat] & self._whole == self._whole)
                and self._yaku_up(seat)):
            self._next_turn(seat)

    def koikoi(self) -> None:
        seat = self.to_move
        self.calls[seat] += 1
        self.refs[seat] = ref = self._yakuv(self.sig[seat], self.cap[seat], self.field, self.calls[seat])
        self.reft[seat] = sum(map(_SECOND, ref))
        self._next_turn(seat)

    def stop(self) -> None:
        self._settle(self.to_move, "stop")

    # ------------------------------------------------------------ turn logic

    def _yaku_up(self, seat: int) -> bool:
        """After a turn that may have raised ``seat``'s yaku: settle or prompt and return
        True if it did, else False (the caller passes the turn on)."""
        cap = self.cap[seat]
        called = self.calls[seat]
        t = self._ptsv(self.sig[seat], cap, self.field, called)
        up = t > self.reft[seat]
        if not up and t and not self._total_mode and self.refs[seat]:
            # A rise in total is always a new or grown combo; without one, ask the
            # engine's test (a combo can grow while another is replaced or rained off).
            up = improved(self.rules, yaku_points(cap, self.rules, self.field, called, self.month),
                          self.refs[seat])
        if not up:
            return False
        self.last_yaku_seat = seat
        hands = self.hands
        last = not (hands[0] | hands[1]) if self._auto_both else not hands[seat]
        limit = self._limit
        if last or (limit is not None and self.calls[0] + self.calls[1] >= limit):
            self._settle(seat, "auto_stop")
        else:
            self.phase = DECIDE
            self.to_move = seat
        return True

    def _next_turn(self, seat: int) -> None:
        hands = self.hands
        if not (hands[0] | hands[1]):
            self.phase = DONE
            self.winner = None
            self.points = 0
            self.reason = "exhausted"
            return
        self.phase = PLAY
        self.to_move = 1 - seat if hands[1 - seat] else seat

    def _settle(self, seat: int, reason: str) -> None:
        own = self.calls[seat]
        base = self._ptsv(self.sig[seat], self.cap[seat], self.field, own)
        self.points = self._award(base, own, self.calls[1 - seat], self.field_brights) if base else 0
        self.winner = seat
        self.reason = reason
        self.phase = DONE

    # ------------------------------------------------------------ queries

    def plays(self) -> list:
        """Legal (card, target) pairs for the mover (target -1 unless two field cards match)."""
        hand = self.hands[self.to_move]
        field = self.field
        out = []
        matching = []
        while hand:
            low = hand & -hand
            hand ^= low
            c = low.bit_length() - 1
            m = field & _CM[c]
            if m:
                if m.bit_count() == 2:
                    t1 = m & -m
                    pair = [(c, t1.bit_length() - 1), (c, (m ^ t1).bit_length() - 1)]
                    out += pair
                    matching += pair
                else:
                    out.append((c, -1))
                    matching.append((c, -1))
            else:
                out.append((c, -1))
        if matching and self.rules.must_play_match:
            return matching
        return out

    def choices(self) -> list:
        return bits(self.field & _CM[self.pending])


# ---------------------------------------------------------------- conversions

def from_state(state) -> Round:
    """A Round from an engine State mid-round (full knowledge: for tests and tools)."""
    phase = {E_PLAY: PLAY, E_CHOOSE: CHOOSE, E_DECIDE: DECIDE}.get(state.phase)
    if phase is None:
        raise ValueError(f"not a state inside a round: {state!r}")
    r = Round(state.rules, state.hands, state.field, state.stock[state.stock_pos:],
              state.captured, state.calls, state.refs, state.to_move, phase, state.pending,
              state.field_brights, state.dealer, round_month(state.round))
    r.last_yaku_seat = state.last_yaku_seat
    return r


_VIEW_PHASE = {Phase.PLAY: PLAY, Phase.CHOOSE: CHOOSE, Phase.DECIDE: DECIDE}


def from_view(view) -> Round:
    """The round as ``view.seat`` sees it: every slot the View shows (phase, mover, the
    seat's hand, field, piles, calls, refs, pending card, opening brights, dealer, the
    round's month), with the opponent's hand and the stock still empty; ``deal_hidden``
    deals them."""
    phase = _VIEW_PHASE.get(view.phase)
    if phase is None:
        raise ValueError(f"not a view inside a round: phase {view.phase!r}")
    hands = [0, 0]
    hands[view.seat] = view.hand_mask
    pending = view.pending.index if view.pending is not None else -1
    return Round(view.rules, hands, view.field_mask, [], view.captured_masks, view.calls,
                 view.koikoi_refs, view.to_move, phase, pending, view.field_brights, view.dealer,
                 view.month)


_BIT_LENGTH = tuple(n.bit_length() for n in range(49))


def shuffle(rng: random.Random, x: list) -> None:
    """``rng.shuffle(x)``: the same permutation from the same draws (Fisher-Yates from the
    end, each index by ``getrandbits`` of its bound's length, redrawn at or above the bound,
    as ``random.Random`` draws it), without its two Python calls an element; another kind
    of generator shuffles with its own method. Lists of up to 49 elements."""
    if type(rng) is not random.Random or len(x) > 49:
        rng.shuffle(x)
        return
    draw = rng.getrandbits
    bl = _BIT_LENGTH
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bl[n]
        j = draw(k)
        while j >= n:
            j = draw(k)
        x[i], x[j] = x[j], x[i]


def deal_hidden(template: Round, seat: int, pool: list, opp_n: int, rng: random.Random) -> Round:
    """A copy of ``template`` (from ``from_view``) with the cards ``seat`` cannot see dealt
    at random: ``pool`` (those cards, e.g. ``bits(view.unseen_mask)``; shuffled in place)
    gives the other seat ``opp_n`` cards and the rest, in order, is the stock."""
    shuffle(rng, pool)
    r = template.copy()
    h = 0
    for c in pool[:opp_n]:
        h |= _BIT[c]
    r.hands[1 - seat] = h
    r.stock = pool[opp_n:]
    r.sp = 0
    return r


def deal(rules: Rules, rng: random.Random, dealer: int = 0, month: int = 1) -> Round:
    """A random deal (redealt while the field holds four of a month; lucky hands and the
    other misdeal knobs not checked) for a round of ``month`` (tsuki-fuda's)."""
    return _deal(rules, rng, dealer, month)[0]


def _deal(rules: Rules, rng: random.Random, dealer: int, month: int) -> tuple:
    """``deal``'s Round and the 48 cards in the order dealt (the dealer's hand, the other
    hand, the field, the stock, eight, eight, eight and 24)."""
    rand = rng.random
    P = _PAIR
    while True:
        # The 48 cards in the order of 48 random keys (drawn in card order, as the sort of
        # the cards by a key function of ``rand()`` drew them: the same stream and deal).
        keys = list(starmap(rand, repeat((), 48)))
        o = sorted(_CARDS, key=keys.__getitem__)
        # The masks as sums written out, two cards a lookup: a fifth of the cost of
        # sum(map(...)) over slices.
        field = P[o[16]][o[17]] + P[o[18]][o[19]] + P[o[20]][o[21]] + P[o[22]][o[23]]
        if not (field & field >> 1 & field >> 2 & field >> 3 & _LOW):
            break
    first = P[o[0]][o[1]] + P[o[2]][o[3]] + P[o[4]][o[5]] + P[o[6]][o[7]]
    second = P[o[8]][o[9]] + P[o[10]][o[11]] + P[o[12]][o[13]] + P[o[14]][o[15]]
    key = (id(rules), month)
    proto = _PROTO.get(key)
    if proto is None or proto.rules is not rules:
        proto = Round(rules, (0, 0), 0, [], month=month)
        if len(_PROTO) > 64:
            _PROTO.clear()
        _PROTO[key] = proto
    # A fresh round: the rules' constants from the prototype, the rest written here (not a
    # copy of the prototype's empty lists and slots that are then overwritten).
    r = _new_round(Round)
    r.rules = proto.rules
    r.hands = [first, second] if dealer == 0 else [second, first]
    r.field = field
    r.stock = o[24:]
    r.sp = 0
    r.cap = [0, 0]
    r.sig = [_SIG_EMPTY, _SIG_EMPTY]
    r.calls = [0, 0]
    r.refs = [(), ()]
    r.to_move = r.dealer = dealer
    r.phase = PLAY
    r.pending = -1
    r.field_brights = (field & BRIGHTS).bit_count()
    r.winner = None
    r.points = 0
    r.reason = ""
    r.last_yaku_seat = -1
    r.reft = [0, 0]
    r.month = month
    r._pts = proto._pts
    r._ptsv = proto._ptsv
    r._yakuv = proto._yakuv
    r._whole = proto._whole
    r._total_mode = proto._total_mode
    r._maybe = proto._maybe
    r._award = proto._award
    r._auto_both = proto._auto_both
    r._limit = proto._limit
    r._weather = proto._weather
    return r, o


_CARDS = range(48)
_PAIR = tuple(tuple(_BIT[a] | _BIT[b] for b in range(48)) for a in range(48))

_SIG_EMPTY = signature(0)
_new_round = object.__new__
_PROTO: dict = {}   # (id(rules), month) -> an empty Round whose constants a deal takes


def random_round(rules: Rules, rng: random.Random) -> Round:
    """Deal and play one round with uniformly random choices (a random hand card,
    a random target when two match; a fair coin for Koi-Koi)."""
    dealer = rng.getrandbits(1)
    r, o = _deal(rules, rng, dealer, 1)
    rand = rng.random
    floor = _floor   # int(rand() * n) for a draw in [0, n), at a third of int()'s cost
    free = not rules.must_play_match
    # Each hand's cards as a list (the deal's order), the played one taken out: no walk
    # of the hand's mask a turn.
    held = [o[0:8], o[8:16]] if dealer == 0 else [o[8:16], o[0:8]]
    while True:
        ph = r.phase
        if ph == PLAY:
            if free:
                hand = held[r.to_move]
                c = hand.pop(floor(rand() * len(hand)))
                m = r.field & _CM[c]
                if m.bit_count() == 2:
                    r.play(c, (m & -m).bit_length() - 1 if rand() < 0.5 else m.bit_length() - 1)
                else:
                    r.play(c, -1)
            else:
                p = r.plays()
                c, t = p[floor(rand() * len(p))]
                r.play(c, t)
        elif ph == CHOOSE:
            # choices()[int(rand() * 2)]: the lower of the two cards, or the higher
            m = r.field & _CM[r.pending]
            r.choose((m & -m).bit_length() - 1 if rand() < 0.5 else m.bit_length() - 1)
        elif ph == DECIDE:
            if rand() < 0.5:
                r.stop()
            else:
                r.koikoi()
        else:
            return r


def bench(preset: str = "nintendo", seconds: float = 3.0) -> float:
    """Random full rounds per second of CPU time on one core."""
    rules = RULESETS[preset]
    rng = random.Random(1)
    n = 0
    t0 = time.process_time()
    while True:
        for _ in range(200):
            random_round(rules, rng)
        n += 200
        dt = time.process_time() - t0
        if dt >= seconds:
            return n / dt


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", action="store_true", help="random full rounds per second")
    ap.add_argument("--preset", default=None, help="one preset (default: all)")
    ap.add_argument("--seconds", type=float, default=2.0)
    a = ap.parse_args(argv)
    if a.bench:
        for name in ([a.preset] if a.preset else list(RULESETS)):
            print(f"{name:12s} {bench(name, a.seconds):10,.0f} random full rounds/s (one core, CPU time)")
    else:
        ap.print_help()


if __name__ == "__main__":
    main()
