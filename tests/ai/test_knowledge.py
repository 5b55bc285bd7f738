"""Knowledge's yaku outs and Koi-Koi estimate, and the playout policy's Koi-Koi rule."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from koikoi.ai import playout
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


# ---------------------------------------------------------------- the fitted Koi-Koi model

def _followed(rules, r, n=400, seed=3):
    """Koi-Koi's and Stop's mean round points for the seat at ``r``'s question, by ``n``
    playouts after the call (Stop is exact)."""
    s = r.copy()
    s.stop()
    kk = playout.called_points(Policy(Knowledge(rules), kk="fit"), r, n, random.Random(seed).random)
    return kk, s.points


def test_the_fitted_rule_calls_on_an_open_tane_with_a_full_hand_where_medium_stops():
    """Tane (1 point) and four plain ribbons with seven cards in hand: calling is worth more
    than the point in hand, by the playouts themselves; Medium's rule stops, the fitted one
    calls (this test fails on the old policy, which had no fitted rule)."""
    rules = RULESETS["nintendo"]
    r = _decide(rules, OPEN_PILE, 0, hand_n=7, opp_n=7)
    kk, stop = _followed(rules, r)
    assert kk > stop
    assert not Policy(Knowledge(rules), kk="ev").koikoi(r)
    assert Policy(Knowledge(rules), kk="fit").koikoi(r)


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_fitted_rule_stops_on_a_big_late_award_and_with_an_empty_hand(preset):
    rules = RULESETS[preset]
    pol = Policy(Knowledge(rules), kk="fit")
    assert pol.kk == "fit" and pol.kk_w, "every preset ships a fit (tools/fit_calls.py)"
    mine = sum(1 << c for c in NO_RAIN_BRIGHTS)
    theirs = C.AKATAN | (C.AOTAN & -C.AOTAN) | (C.AOTAN & (C.AOTAN - 1))
    assert not pol.koikoi(_decide(rules, mine, theirs, hand_n=1, opp_n=1))
    assert not pol.koikoi(_decide(rules, OPEN_PILE, 0, hand_n=0, opp_n=1))


def test_in_the_last_round_stop_settles_the_match_both_ways():
    """The match's last round: a seat that wins the match by stopping stops, whatever the
    model would say; one still behind after stopping calls (stopping loses for certain)."""
    rules = RULESETS["nintendo"]
    pol = Policy(Knowledge(rules), kk="fit")
    r = _decide(rules, OPEN_PILE, 0, hand_n=7, opp_n=7)     # the model calls here
    assert pol.koikoi(r)
    pol.final_scores = (30, 30)                               # 1 point wins the match
    assert not pol.koikoi(r)
    pol.final_scores = (20, 30)                               # 1 point still loses it
    assert pol.koikoi(r)
    mine = sum(1 << c for c in NO_RAIN_BRIGHTS)              # the model stops here
    big = _decide(rules, mine, 0, hand_n=2, opp_n=2)
    pol.final_scores = None
    assert not pol.koikoi(big)
    pol.final_scores = (0, 40)                                # Shikō does not catch up
    assert pol.koikoi(big)
    pol.final_scores = (30, 30 + big_award(rules, big))       # a draw: the model decides
    assert not pol.koikoi(big)


def big_award(rules, r):
    s = r.copy()
    s.stop()
    return s.points


def test_missing_call_data_falls_back_to_medium_rule(monkeypatch):
    monkeypatch.setattr(playout, "_CALLS", [{}])
    pol = Policy(Knowledge(RULESETS["nintendo"]), kk="fit")
    assert pol.kk == "ev"


def test_hards_own_rule_also_lets_the_last_round_stop_settle_the_match():
    """kk="ev" (Hard's, the coach's and the review's) answers the last round's question by the
    match too: without that, a playout's seat called on a match it had already won."""
    rules = RULESETS["nintendo"]
    pol = Policy(Knowledge(rules), kk="ev")
    r = _decide(rules, OPEN_PILE, 0, hand_n=7, opp_n=7)
    pol.final_scores = (30, 30)                               # 1 point wins the match
    assert not pol.koikoi(r)
    pol.final_scores = (20, 30)                               # 1 point still loses it
    assert pol.koikoi(r)
    mine = sum(1 << c for c in NO_RAIN_BRIGHTS)
    big = _decide(rules, mine, 0, hand_n=2, opp_n=2)
    pol.final_scores = None
    assert not pol.koikoi(big)                                # Medium's rule stops with Sankō
    pol.final_scores = (0, 40)                                # Sankō does not catch up
    assert pol.koikoi(big)
