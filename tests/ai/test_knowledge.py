"""Knowledge's yaku outs and Koi-Koi estimate, and the playout policy's Koi-Koi rule."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from koikoi.ai.knowledge import ALL, Knowledge
from koikoi.ai.playout import Policy
from koikoi.ai.sim import DECIDE, Round, bits
from koikoi.engine import RULESETS
from koikoi.engine import cards as C

VARIANTS = [r for p in RULESETS.values() for r in (
    p, replace(p, weather=True), replace(p, viewing="with_other_yaku"),
    replace(p, sake_cup_is_animal=True, sake_cup_is_chaff=False))]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.weather}-{r.viewing}-{r.sake_cup_is_animal}")
def test_outs_equal_trying_every_card(rules):
    """outs() tries one card per class; the result must be what trying every card gives."""
    k = Knowledge(rules)
    rng = random.Random(rules.name)
    for _ in range(400):
        cards = rng.sample(range(48), rng.randrange(0, 30))
        mine = sum(1 << c for c in cards[:rng.randrange(len(cards) + 1)])
        field = sum(1 << c for c in rng.sample(range(48), 6)) & ~mine
        pool = ALL & ~mine & ~sum(1 << c for c in rng.sample(range(48), 10))
        now = k.points(mine, field)
        want, made = 0, 0
        for c in bits(pool):
            t = k.points(mine | 1 << c, field)
            if t > now:
                want |= 1 << c
                made += t
        assert k.outs(mine, pool, field) == (want, made)


NEW_KNOB_RULES = [
    replace(RULESETS["casual"], tsuki_fuda=4, rain_break="rain_man_or_phoenix", name="casual+tsuki"),
    replace(RULESETS["koikoi-japan"], tsuki_fuda=2, rain_break="rain_man", name="kkj+tsuki"),
    replace(RULESETS["nintendo"], inoshikacho_grading="graded_tane_pays", viewing_after_koikoi=0,
            tsuki_fuda=6, name="nintendo+tsuki"),
]


@pytest.mark.parametrize("rules", NEW_KNOB_RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("month", [1, 8, 11, 12])
def test_outs_equal_trying_every_card_in_the_rounds_month(rules, month):
    """The card classes of ``outs`` also part the round's month (tsuki-fuda) and the cards
    that break the viewing yaku; a caller's pile is valued as after its call."""
    k = Knowledge(rules, month)
    rng = random.Random(month)
    for _ in range(300):
        cards = rng.sample(range(48), rng.randrange(0, 30))
        mine = sum(1 << c for c in cards[:rng.randrange(len(cards) + 1)])
        field = sum(1 << c for c in rng.sample(range(48), 6)) & ~mine
        pool = ALL & ~mine & ~sum(1 << c for c in rng.sample(range(48), 10))
        called = rng.randrange(2)
        now = k.points(mine, field, called)
        want, made = 0, 0
        for c in bits(pool):
            t = k.points(mine | 1 << c, field, called)
            if t > now:
                want |= 1 << c
                made += t
        assert k.outs(mine, pool, field, called) == (want, made)


def test_the_months_cards_and_rain_break_move_the_potential():
    rules = NEW_KNOB_RULES[0]
    pines = C.MONTH_MASK[0]
    three = pines & ~(pines & -pines)               # three of January's cards
    jan, feb = Knowledge(rules, 1), Knowledge(rules, 2)
    assert jan.potential(three, ALL & ~three) > feb.potential(three, ALL & ~three)
    # a pile holding the Sake cup and the Rain Man: no viewing yaku to hope for any more
    broken = C.SAKE_CUP | C.RAIN_MAN
    avail = ALL & ~broken
    k, plain = Knowledge(rules), Knowledge(replace(rules, rain_break="off"))
    assert plain.potential(broken, avail) > k.potential(broken, avail)
    assert plain.potential(C.SAKE_CUP, avail) == k.potential(C.SAKE_CUP, avail)


def _decide(rules, mine, theirs, hand_n, opp_n, calls=(0, 0)):
    """A Round where seat 0 has just made a yaku and must call or stop."""
    rest = [c for c in range(48) if not (mine | theirs) >> c & 1]
    hand = sum(1 << c for c in rest[:hand_n])
    opp = sum(1 << c for c in rest[hand_n:hand_n + opp_n])
    field = sum(1 << c for c in rest[hand_n + opp_n:hand_n + opp_n + 8])
    stock = rest[hand_n + opp_n + 8:]
    return Round(rules, [hand, opp], field, stock, (mine, theirs), calls, ((), ()), 0, DECIDE)


PLAIN_ANIMALS = bits(C.ANIMALS & ~C.INOSHIKACHO & ~C.SAKE_CUP)[:5]
NO_RAIN_BRIGHTS = bits(C.BRIGHTS & ~C.RAIN_MAN)
# Tane (1 point) and four plain ribbons: many cards would raise it.
OPEN_PILE = sum(1 << c for c in PLAIN_ANIMALS + bits(C.RIBBONS & ~C.AKATAN & ~C.AOTAN)[:4])


def test_playout_policy_calls_on_a_small_early_yaku_when_calls_multiply():
    rules = RULESETS["kk-add-10"]
    pol = Policy(Knowledge(rules), kk="ev")
    r = _decide(rules, OPEN_PILE, 0, hand_n=7, opp_n=7)
    assert pol.koikoi(r)
    # The old rule (a hand of 9) never calls here: this test tells the two apart.
    assert not Policy(Knowledge(rules), kk="simple").koikoi(r)


def test_playout_policy_stops_on_a_big_late_award():
    rules = RULESETS["kk-add-10"]
    pol = Policy(Knowledge(rules), kk="ev")
    mine = sum(1 << c for c in NO_RAIN_BRIGHTS)          # four brights: shikō, doubled at 7+
    theirs = C.AKATAN | (C.AOTAN & -C.AOTAN) | (C.AOTAN & (C.AOTAN - 1))   # akatan, two of aotan
    r = _decide(rules, mine, theirs, hand_n=2, opp_n=2)
    assert not pol.koikoi(r)


def test_playout_policy_never_calls_with_an_empty_hand():
    rules = RULESETS["kk-add-10"]
    pol = Policy(Knowledge(rules), kk="ev")
    r = _decide(rules, sum(1 << c for c in PLAIN_ANIMALS), 0, hand_n=0, opp_n=1)
    assert not pol.koikoi(r)


def test_call_value_grows_with_the_own_call_multiplier():
    """Under kk-add-10 a second call multiplies the award by 3, not 2: calling again is worth
    more than under nintendo's flat doubling for the same piles."""
    args = (OPEN_PILE, 0, 0, 6, 6, 1, 0, 0)
    kk = Knowledge(RULESETS["kk-add-10"]).call_value(*args)
    nin = Knowledge(replace(RULESETS["nintendo"], max_koikoi_calls=None)).call_value(*args)
    assert kk > nin > 0


def test_an_unknown_koikoi_rule_is_refused():
    with pytest.raises(ValueError, match="kk="):
        Policy(Knowledge(RULESETS["nintendo"]), kk="always")
