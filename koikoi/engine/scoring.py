"""Yaku detection and settlement (RULES.md sections 3 and 4), on card bitmasks."""

from __future__ import annotations

from operator import itemgetter
from typing import Iterable, NamedTuple, Optional

from . import cards as C
from .cards import N_, CardLike, ids_of, to_mask
from .rules import Rules
from .yaku import CAPTURE_ORDER, TABLE, points as _knob_points

YAKU_ORDER = CAPTURE_ORDER


def _n(singular: str, plural: str) -> tuple[str, str]:
    """Marks a (singular, plural) pair of label templates with ``{n}`` for extraction; the UI
    translates a label made from one with ``ngettext(singular, plural, n)`` (``counted_label``)."""
    return singular, plural


# The multiplier labels (``multipliers``): English, the same text in every language; the UI
# translates them where it shows them. The counted ones are templates with {n}.
SEVEN_PLUS = N_("7 points or more")
OPPONENT_CALLED = N_("opponent called Koi-Koi")
YOU_CALLED = N_("you called Koi-Koi")
ANYONE_CALLED = N_("Koi-Koi was called")
OWN_CALLS = _n("own Koi-Koi ×{n}", "own Koi-Koi ×{n}")
CALLS = _n("{n} Koi-Koi call", "{n} Koi-Koi calls")
OWN_CALLS_PAST_BONUS = _n("{n} own Koi-Koi calls", "{n} own Koi-Koi calls")
FIELD_BRIGHTS = _n("{n} bright in the opening field", "{n} brights in the opening field")
COUNTED_LABELS = (OWN_CALLS, CALLS, OWN_CALLS_PAST_BONUS, FIELD_BRIGHTS)


def _counted(pair: tuple[str, str], n: int) -> str:
    return (pair[0] if n == 1 else pair[1]).format(n=n)


def counted_label(label) -> Optional[tuple[str, str, int]]:
    """(singular, plural, n) of a multiplier label made from one of ``COUNTED_LABELS``
    ("3 Koi-Koi calls" -> ("{n} Koi-Koi call", "{n} Koi-Koi calls", 3)); None for any other."""
    if not isinstance(label, str):
        return None
    for pair in COUNTED_LABELS:
        for template in pair:
            before, _, after = template.partition("{n}")
            if len(label) > len(before) + len(after) and label.startswith(before) and label.endswith(after):
                digits = label[len(before):len(label) - len(after)]
                if digits.isdigit() and digits.isascii() and _counted(pair, int(digits)) == label:
                    return pair[0], pair[1], int(digits)
    return None

# name -> (English, romaji, Japanese): the table's names, for code that reads them this way.
YAKU_NAMES = {y.name: (y.english, y.romaji, y.kanji) for y in TABLE}


class Award(NamedTuple):
    """What a round is worth to the player who stops."""

    yaku: tuple          # ((name, points, card ids), ...) in YAKU_ORDER, then any Koi-Koi bonus
    base: int            # the sum of those points (the bonus included)
    multipliers: tuple   # ((label, factor), ...) in the order applied
    total: int


# The masks as module globals (a global is a cheaper lookup than a module attribute).
_BRIGHTS, _ANIMALS, _RIBBONS, _CHAFF = C.BRIGHTS, C.ANIMALS, C.RIBBONS, C.CHAFF
_RAIN_MAN, _SAKE_CUP, _CURTAIN, _MOON = C.RAIN_MAN, C.SAKE_CUP, C.CURTAIN, C.MOON
_INOSHIKACHO, _AKATAN, _AOTAN = C.INOSHIKACHO, C.AKATAN, C.AOTAN
_WILLOW, _PAULOWNIA = C.WILLOW, C.PAULOWNIA
_ANIMALS_NO_CUP = _ANIMALS & ~_SAKE_CUP
_CHAFF_AND_CUP = _CHAFF | _SAKE_CUP
_PHOENIX = C.to_mask(["12-B"])
_SECOND = itemgetter(1)
_MONTHS = C.MONTH_MASK

# ``rain_break`` -> the cards whose capture cancels the holder's viewing yaku.
BREAKERS = {"off": 0, "rain_man": _RAIN_MAN, "rain_man_or_phoenix": _RAIN_MAN | _PHOENIX}


def round_month(round_no: int) -> int:
    """The month (1..12) of round ``round_no`` (1-based), the month of ``tsuki_fuda``: round 1 is
    January (Pine), round 12 December (Paulownia), round 13 January again. A match of fewer
    rounds ends before December; misdeals are not rounds."""
    return (round_no - 1) % 12 + 1


def ino_mode(rules: Rules) -> str:
    """How Inoshikachō scores under ``rules``: "stack", "graded" or "graded_tane_pays"
    (``inoshikacho_grading``, which by default follows ``combo_grading``)."""
    mode = rules.inoshikacho_grading
    return rules.combo_grading if mode == "set_yaku" else mode


# Each capture yaku's points under a Rules value, read through the knob the yaku table names
# for it, in YAKU_ORDER, and the set rules as flags. Remembered per Rules value (a memo of a
# pure function); the last one used is kept apart, as a match scores under one Rules value and
# the check runs on every turn. Entries are replaced whole (one tuple), so another thread never
# sees half of one.
_BY_RULES: dict = {}     # id(rules) -> (rules, points, flags)
_LAST: tuple = (None, (), ())


def _per_rules(cache: dict, rules: Rules, make) -> tuple:
    """``cache``'s entry for this Rules value, ``(rules, *make(rules))``: made on a miss (an id
    reused by another value is a miss too), the cache emptied at 64 values. Only the callers'
    misses come here: their hits are an inline check of the last entry used."""
    hit = cache.get(id(rules))
    if hit is None or hit[0] is not rules:
        hit = (rules,) + make(rules)
        if len(cache) >= 64:
            cache.clear()
        cache[id(rules)] = hit
    return hit


def _make_points(rules: Rules) -> tuple:
    by_name = _knob_points(rules)
    graded = rules.combo_grading == "graded"
    ino = ino_mode(rules)
    flags = (graded, ino != "stack", ino == "graded", rules.akatan_aotan_on_top and not graded,
             BREAKERS[rules.rain_break], rules.viewing_after_koikoi)
    return tuple(by_name[name] for name in YAKU_ORDER), flags


def _points_of(rules: Rules) -> tuple:
    global _LAST
    _LAST = hit = _per_rules(_BY_RULES, rules, _make_points)
    return hit


def yaku_masks(mask: int, rules: Rules, field: int = 0, calls: int = 0,
               month: int = 0) -> list[tuple[str, int, int]]:
    """The yaku held by a capture pile: [(name, points, cards mask)].

    ``field`` is the current field, read only by the weather ruling; ``calls`` the Koi-Koi
    calls the pile's owner made this round, read only by ``viewing_after_koikoi``; ``month``
    the round's month (``round_month``; 0: none), read only by ``tsuki_fuda``.
    """
    last = _LAST   # inline, not a call: a call would cost more than the check itself
    if last[0] is not rules:
        last = _points_of(rules)
    (goko, shiko, ame_shiko, sanko, ino_p, aka_p, ao_p, akao_p, hanami, tsukimi,
     tane, tanzaku, kasu, tsuki) = last[1]
    graded, ino_graded, ino_blocks_tane, on_top, breaker, after = last[2]
    out: list[tuple[str, int, int]] = []
    brights = mask & _BRIGHTS
    nb = brights.bit_count()
    if nb >= 3:
        rain = brights & _RAIN_MAN
        if nb == 5:
            if goko:
                out.append(("goko", goko, brights))
        elif nb == 4:
            if rain:
                if ame_shiko:
                    out.append(("ame_shiko", ame_shiko, brights))
            elif shiko:
                out.append(("shiko", shiko, brights))
        elif not rain and sanko:
            out.append(("sanko", sanko, brights))

    animal_set = _ANIMALS if rules.sake_cup_is_animal else _ANIMALS_NO_CUP
    animals = mask & animal_set
    na = animals.bit_count()
    ribbons = mask & _RIBBONS
    nr = ribbons.bit_count()

    ino = (mask & _INOSHIKACHO) == _INOSHIKACHO and ino_p
    if ino:
        if ino_graded:
            out.append(("inoshikacho", ino_p + na - 3, animals))
        else:
            out.append(("inoshikacho", ino_p, _INOSHIKACHO))
    aka = (mask & _AKATAN) == _AKATAN and aka_p
    ao = (mask & _AOTAN) == _AOTAN and ao_p
    if graded and aka and ao and akao_p:
        out.append(("akatan_aotan", akao_p + nr - 6, ribbons))
    else:
        if aka:
            out.append(("akatan", aka_p + (nr - 3 if graded else 0), ribbons if graded else _AKATAN))
        if ao:
            out.append(("aotan", ao_p + (nr - 3 if graded else 0), ribbons if graded else _AOTAN))
        if on_top and aka and ao and akao_p:
            out.append(("akatan_aotan", akao_p, _AKATAN | _AOTAN))

    viewing: list[tuple[str, int, int]] = []
    if rules.viewing != "off" and mask & _SAKE_CUP and not mask & breaker:
        if calls and after is not None:
            hanami = after if hanami else 0
            tsukimi = after if tsukimi else 0
        if hanami and mask & _CURTAIN and not (rules.weather and field & _WILLOW):
            viewing.append(("hanami_zake", hanami, _CURTAIN | _SAKE_CUP))
        if tsukimi and mask & _MOON and not (rules.weather and field & _PAULOWNIA):
            viewing.append(("tsukimi_zake", tsukimi, _MOON | _SAKE_CUP))
    head = len(out)

    if na >= 5 and tane and not (ino_blocks_tane and ino):
        out.append(("tane", tane + na - 5, animals))
    if nr >= 5 and tanzaku and not (graded and (aka or ao)):
        out.append(("tanzaku", tanzaku + nr - 5, ribbons))
    chaff = mask & (_CHAFF_AND_CUP if rules.sake_cup_is_chaff else _CHAFF)
    nc = chaff.bit_count()
    if nc >= 10 and kasu:
        out.append(("kasu", kasu + nc - 10, chaff))
    if tsuki and month:
        whole = _MONTHS[(month - 1) % 12]
        if mask & whole == whole:
            out.append(("tsuki_fuda", tsuki, whole))

    # "with_other_yaku": the viewing yaku count only beside some other yaku.
    if viewing and (rules.viewing == "on" or out):
        out[head:head] = viewing
    return out


def paid(scores: tuple, winner: int, award: int, rules: Rules) -> tuple:
    """The match totals after ``winner`` receives ``award``: added, or under
    ``zero_sum`` taken from the loser (never more than the loser has)."""
    scores = list(scores)
    if rules.scoring_mode == "zero_sum":
        pay = min(award, scores[1 - winner])
        scores[winner] += pay
        scores[1 - winner] -= pay
    else:
        scores[winner] += award
    return tuple(scores)


def next_dealer(rules: Rules, dealer: int, winner: Optional[int], exhausted: bool,
                last_yaku_seat: int) -> int:
    """Who deals the next round: after an exhausted round as ``exhausted_dealer``
    says, else the round's winner, else (no game) the same dealer."""
    if exhausted:
        mode = rules.exhausted_dealer
        if mode == "passes":
            return 1 - dealer
        if mode == "last_yaku" and last_yaku_seat >= 0:
            return last_yaku_seat
        return dealer
    return dealer if winner is None else winner


# ``yaku_points`` answers from a memo keyed by a pile's *signature*: every count and card the
# yaku read (which brights, the animals, the Inoshikacho cards, the ribbons, the red and blue
# poetry ribbons, the chaff, the sake cup), packed into one int by four table lookups, one per
# 12 cards. Two piles of one signature hold the same yaku (``yaku_masks`` reads nothing else
# of the pile), so the memo of a pure function, filled from ``yaku_masks`` on a miss, answers
# for any pile: four lookups and a dict read instead of the counts and the list on every turn.
# Fields, from bit 0: brights (one bit each, 5), animals but the cup (4), Inoshikacho cards
# (2), ribbons (4), Akatan ribbons (2), Aotan ribbons (2), chaff (5), the sake cup (1).
# From bit 32, the same sum carries a *gate*: counts biased so that a field's top bit is set
# exactly when its yaku's threshold is reached (3 brights, each set of 3 complete, 5 animals
# with the cup, 5 ribbons, 10 chaff with the cup, the cup beside the Curtain or the Moon). A
# pile with no gate bit set holds no yaku under any rules (but tsuki-fuda's month): () at once,
# and the memo keeps only piles that may score.
_BRIGHT_RANK = {c: i for i, c in enumerate(C.indices(_BRIGHTS))}
# The gate's fields: (shift, width, threshold); each is biased by 2**(width - 1) - threshold.
_G_BR, _G_INO, _G_AKA, _G_AO, _G_AN, _G_RB, _G_CH, _G_VIEW = _G_FIELDS = (
    (32, 4, 3), (36, 3, 3), (39, 3, 3), (42, 3, 3), (45, 5, 5), (50, 5, 5), (55, 6, 10), (61, 3, 3))
_GATE = GATE = sum(1 << (shift + width - 1) for shift, width, _ in _G_FIELDS)
_GATE_BIASES = sum(((1 << (width - 1)) - least) << shift for shift, width, least in _G_FIELDS)
_SIGNATURE = (1 << 25) - 1


def _signature_of_card(c: int) -> int:
    bit = 1 << c
    v = 0
    if bit & _BRIGHTS:
        v += 1 << _BRIGHT_RANK[c] | 1 << _G_BR[0]
    if bit & _ANIMALS_NO_CUP:
        v += 1 << 5
    if bit & _ANIMALS:
        v += 1 << _G_AN[0]
    if bit & _INOSHIKACHO:
        v += 1 << 9 | 1 << _G_INO[0]
    if bit & _RIBBONS:
        v += 1 << 11 | 1 << _G_RB[0]
    if bit & _AKATAN:
        v += 1 << 15 | 1 << _G_AKA[0]
    if bit & _AOTAN:
        v += 1 << 17 | 1 << _G_AO[0]
    if bit & _CHAFF:
        v += 1 << 19
    if bit & _CHAFF_AND_CUP:
        v += 1 << _G_CH[0]
    if bit & _SAKE_CUP:
        v += 1 << 24 | 2 << _G_VIEW[0]
    if bit & (_CURTAIN | _MOON):
        v += 1 << _G_VIEW[0]
    return v


def _signature_table(first: int) -> list:
    """table[bits] = the signature of cards ``first``..``first + 11`` named by 12 bits (the
    first table carries the gate's biases)."""
    table = [_GATE_BIASES if first == 0 else 0] * 4096
    for bits in range(1, 4096):
        low = bits & -bits
        table[bits] = table[bits ^ low] + _signature_of_card(first + low.bit_length() - 1)
    return table


_SIG0, _SIG1, _SIG2, _SIG3 = (_signature_table(12 * k) for k in range(4))
# Above the signature, the rest that some rules read: the weather ruling a Willow and a
# Paulownia on the field, ``viewing_after_koikoi`` whether the owner called, tsuki-fuda whether
# the round's month is complete.
_WILLOW_UP, _PAULOWNIA_UP, _CALLED, _MONTH_FULL = 1 << 25, 1 << 26, 1 << 27, 1 << 28
_MEMO_MAX = 1 << 16       # signatures kept per Rules value (random play: ~26,000 after 24,000 rounds)
_MEMOS: dict = {}         # id(rules) -> (rules, reads, memo); entries replaced whole
_MEMO_LAST: tuple = (None, 0, {})


def _make_memo(rules: Rules) -> tuple:
    reads = ((1 if rules.weather else 0) | (2 if rules.viewing_after_koikoi is not None else 0)
             | (4 if rules.tsuki_fuda else 0))
    return reads, {}


def _memo_of(rules: Rules) -> tuple:
    global _MEMO_LAST
    _MEMO_LAST = hit = _per_rules(_MEMOS, rules, _make_memo)
    return hit


def signature(mask: int) -> int:
    """The signature of a capture pile, with the gate above it (see above): ``yaku_points``
    takes it from a caller that has computed it to test the gate first."""
    return _SIG0[mask & 4095] + _SIG1[mask >> 12 & 4095] + _SIG2[mask >> 24 & 4095] + _SIG3[mask >> 36 & 4095]


def yaku_points(mask: int, rules: Rules, field: int = 0, calls: int = 0,
                month: int = 0, v: Optional[int] = None) -> tuple[tuple[str, int], ...]:
    """(name, points) of each yaku held: what the Koi-Koi prompt compares. ``field``, ``calls``
    and ``month`` as for ``yaku_masks``; ``v``, if given, is ``signature(mask)``.

    No yaku is possible while ``v & GATE`` is 0, but tsuki-fuda's (``rules.tsuki_fuda``):
    a caller may skip the call then (``apply``'s play does)."""
    memo = _MEMO_LAST      # inline, not a call (as in yaku_masks)
    if memo[0] is not rules:
        memo = _memo_of(rules)
    if v is None:
        v = _SIG0[mask & 4095] + _SIG1[mask >> 12 & 4095] + _SIG2[mask >> 24 & 4095] + _SIG3[mask >> 36 & 4095]
    key = v & _SIGNATURE
    reads = memo[1]
    if reads:
        if reads & 4 and month:
            whole = _MONTHS[(month - 1) % 12]
            if mask & whole == whole:
                key |= _MONTH_FULL
                v |= _GATE
        if not v & _GATE:
            return ()
        if reads & 1:
            key |= (_WILLOW_UP if field & _WILLOW else 0) | (_PAULOWNIA_UP if field & _PAULOWNIA else 0)
        if reads & 2 and calls:
            key |= _CALLED
    elif not v & _GATE:
        return ()
    table = memo[2]
    hit = table.get(key)
    if hit is None:
        # (a list comprehension, not a generator: no generator frame)
        hit = tuple([(name, pts) for name, pts, _ in yaku_masks(mask, rules, field, calls, month)])
        if len(table) >= _MEMO_MAX:
            table.clear()
        table[key] = hit
    return hit


def improved(rules: Rules, now: tuple, ref: tuple) -> bool:
    """Whether the yaku ``now`` (``yaku_points`` pairs) improve on ``ref``, the yaku held at the
    seat's last Koi-Koi call (or ``()``): the test that offers Koi-Koi or Stop again. With
    ``prompt_when="total_rises"`` the total must rise; otherwise one yaku must be new or worth
    more (``"new_or_grown"``). The engine, the simulator and the coach all ask this function."""
    if not now:
        return False
    if rules.prompt_when == "total_rises":
        return sum(map(_SECOND, now)) > sum(map(_SECOND, ref))   # (map: no generator frames)
    before = dict(ref)
    for name, p in now:
        if p > before.get(name, 0):
            return True
    return False


def multipliers(base: int, rules: Rules, own_calls: int, opponent_calls: int,
                field_brights: int = 0) -> tuple[tuple[str, int], ...]:
    """The multipliers of RULES.md 4.2-4.4, in the order they apply."""
    out = []
    if rules.seven_plus_double and base >= 7:
        out.append((SEVEN_PLUS, 2))
    mode = rules.koikoi_multiplier
    if mode == "opponent_called":
        if opponent_calls:
            out.append((OPPONENT_CALLED, 2))
    elif mode == "own_calls_and_opponent":
        if own_calls:
            out.append((_counted(OWN_CALLS, own_calls), 1 + own_calls))
        if opponent_calls:
            out.append((OPPONENT_CALLED, 2))
    elif mode == "caller":
        if own_calls:
            out.append((YOU_CALLED, 2))
    elif mode == "anyone":
        if own_calls or opponent_calls:
            out.append((ANYONE_CALLED, 2))
    elif mode == "scaling":
        calls = own_calls + opponent_calls
        if calls:
            out.append((_counted(CALLS, calls), 1 + calls))
    limit = rules.own_call_bonus_max_calls
    if limit is not None and own_calls > limit and rules.own_call_bonus:
        # Past the Koi-Koi bonus's last call: ×2 at one call more, ×3 at two more, ...
        out.append((_counted(OWN_CALLS_PAST_BONUS, own_calls), own_calls - limit + 1))
    if rules.field_brights_multiplier and field_brights:
        out.append((_counted(FIELD_BRIGHTS, field_brights), 1 + field_brights))
    return tuple(out)


def call_bonus(rules: Rules, own_calls: int) -> int:
    """The Koi-Koi bonus (``own_call_bonus``) for a winner who called ``own_calls`` times: added
    to the hand's yaku points, so the multipliers (and the 7-point doubling) count it. Past
    ``own_call_bonus_max_calls`` calls it is 0, and ``multipliers`` multiplies instead."""
    bonus = rules.own_call_bonus
    if not bonus or not own_calls:
        return 0
    limit = rules.own_call_bonus_max_calls
    if limit is not None and own_calls > limit:
        return 0
    return bonus * own_calls


def award_total(base: int, rules: Rules, own_calls: int = 0, opponent_calls: int = 0,
                field_brights: int = 0) -> int:
    """What a hand of ``base`` yaku points earns: the Koi-Koi bonus, then the multipliers
    (``award_from_mask(...).total`` without the breakdown; the simulator and the CPU use it)."""
    if not base:
        return 0
    total = base = base + call_bonus(rules, own_calls)
    for _, factor in multipliers(base, rules, own_calls, opponent_calls, field_brights):
        total *= factor
    return total


def award_from_mask(mask: int, rules: Rules, own_calls: int = 0, opponent_calls: int = 0,
                    field_brights: int = 0, field: int = 0, month: int = 0) -> Award:
    found = yaku_masks(mask, rules, field, own_calls, month)
    if not found:
        return _NO_AWARD
    # (A list comprehension and map, not generators; tuple.__new__, not Award's Python-level
    # __new__: a round's end runs this.)
    yaku = tuple([(name, pts, ids_of(cards)) for name, pts, cards in found])
    base = sum(map(_SECOND, found))
    if base:
        if own_calls and rules.own_call_bonus:
            bonus = call_bonus(rules, own_calls)
            if bonus:
                yaku += (("koikoi_bonus", bonus, ()),)
                base += bonus
        mults = multipliers(base, rules, own_calls, opponent_calls, field_brights)
    else:
        mults = ()
    total = base
    for _, factor in mults:
        total *= factor
    return _new(Award, (yaku, base, mults, total))


_new = tuple.__new__
_NO_AWARD = Award((), 0, (), 0)


def settle(captured: Iterable[CardLike], rules: Rules, *, own_calls: int = 0,
           opponent_calls: int = 0, field_brights: int = 0, field: Iterable[CardLike] = (),
           month: int = 0) -> Award:
    """The award for a capture pile if its owner stops now.

    ``field`` (the cards in the field) matters only under the weather ruling, ``month`` (the
    round's, ``round_month``) only for tsuki-fuda, ``own_calls`` also for the viewing yaku's
    value after a Koi-Koi and the Koi-Koi bonus.
    """
    return award_from_mask(to_mask(captured), rules, own_calls, opponent_calls,
                           field_brights, to_mask(field), month)
