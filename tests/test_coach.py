"""The Koi-Koi coach: a Monte Carlo risk from the visible cards only."""

import time

from koikoi.coach import coach_line, risk, summary
from koikoi.engine import RULESETS, apply, legal_actions, new_match, view
from koikoi.engine.cards import to_mask, from_mask, ALL


def _view(my_hand, field, pile0, pile1, opp_count, rules="classic"):
    """A View for seat 0 at its Koi-Koi decision, built from explicit card lists."""
    st = new_match(RULESETS[rules], seed=1)
    while st.phase_name == "oyagime":
        st = apply(st, legal_actions(st)[0])
    v = view(st, 0)
    hm, fm, c0, c1 = (to_mask(x) for x in (my_hand, field, pile0, pile1))
    assert not (hm & fm or hm & c0 or hm & c1 or fm & c0 or fm & c1 or c0 & c1)
    unseen = ALL & ~(hm | fm | c0 | c1)
    return v._replace(phase="decide", to_move=0, hand=from_mask(hm), field=from_mask(fm),
                      captured=(from_mask(c0), from_mask(c1)), opponent_hand_count=opp_count,
                      stock_count=unseen.bit_count() - opp_count, hand_mask=hm, field_mask=fm,
                      captured_masks=(c0, c1), calls=(0, 0), koikoi_refs=((), ()), pending=None,
                      choices=())


HAND = ["04-P1", "05-P1", "06-P1", "07-P1", "10-P1"]
FIELD = ["04-P2", "05-P2", "07-P2", "10-P2", "12-P1", "12-P2", "09-P1", "08-P1"]
MINE = ["01-B", "01-P1", "03-B", "03-P1", "08-B", "08-P2"]          # Sankō: the prompt is open
THEIRS = ["01-RP", "01-P2", "02-RP", "02-P1"]                        # two poetry ribbons


def test_risk_is_a_probability_and_deterministic():
    v = _view(HAND, FIELD, MINE, THEIRS, 5)
    a = risk(v, samples=150, seed=3)
    b = risk(v, samples=150, seed=3)
    assert 0.0 <= a <= 1.0
    assert a == b
    assert risk(v, samples=150, seed=4) >= 0.0


def test_one_card_from_a_yaku_is_riskier_than_impossible():
    near = _view(HAND, FIELD, MINE, THEIRS, 5)                     # 03-RP still unseen: Akatan is on
    gone = _view(HAND, FIELD, MINE + ["03-RP"], THEIRS, 5)         # 03-RP in my pile: no Akatan
    assert "03-RP" in {c.id for c in near.unseen}
    r_near = risk(near, samples=300, seed=0)
    r_gone = risk(gone, samples=300, seed=0)
    assert r_near > r_gone
    assert r_near > 0.1


def test_nothing_to_fear_without_cards():
    v = _view([], FIELD, MINE, THEIRS, 5)
    assert risk(v) == 0.0
    v = _view(HAND, FIELD, MINE, THEIRS, 0)
    assert risk(v) == 0.0


def test_it_reads_only_what_the_seat_can_see():
    # two real states that differ only in hidden cards give the same answer for the same seed
    st = new_match(RULESETS["classic"], seed=11)
    while st.phase_name == "oyagime":
        st = apply(st, legal_actions(st)[0])
    v = view(st, 0)
    other = v._replace()     # same visible content
    assert risk(v, 80, 5) == risk(other, 80, 5)


def test_fast_enough_for_the_prompt():
    v = _view(HAND, FIELD, MINE, THEIRS, 5)
    t = time.perf_counter()
    risk(v, samples=200, seed=0)
    assert time.perf_counter() - t < 0.5      # ~10 ms here; generous for slow machines


def test_summary_and_line():
    v = _view(HAND, FIELD, MINE, THEIRS, 5)
    p, pays = summary(v, samples=50)
    assert pays == v.award(0).total > 0 and 0.0 <= p <= 1.0
    line = coach_line(0.34, 5)
    assert line == ("Coach: the CPU completes a yaku before your hand runs out in about 34% "
                    "of deals like this. Stop pays 5 now.")
