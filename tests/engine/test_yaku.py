"""The yaku table (koikoi.engine.yaku): every name the engine puts in an award has a row,
each row's knob sets its points, its cards make it, and every name has a label."""

import random
from dataclasses import fields, replace

import pytest
from engine_helpers import full_deck, start

from koikoi.engine import RULESETS, YAKU_NAMES, Rules, apply, legal_actions, new_match, settle
from koikoi.engine import yaku as Y
from koikoi.engine.cards import DECK, IDS, card
from koikoi.engine.events import LuckyHand, RoundEnded, YakuMade
from koikoi.engine.match import DECIDE
from koikoi.engine.scoring import YAKU_ORDER, yaku_masks

R = RULESETS
KNOBS = {f.name for f in fields(Rules)}

# Every preset, and house rules that reach the names the presets alone never produce
# (lucky hands, the dealer winning by the field, oya-ken, weather, stacking with a sake cup...).
VARIANTS = [
    *R.values(),
    replace(R["casual"], name="casual+", weather=True, lucky_hands="on", oya_ken=1,
            field_four_of_month="dealer_wins", field_four_pairs="redeal"),
    replace(R["classic"], name="classic+", sake_cup_is_chaff=True, sake_cup_is_animal=False,
            viewing="with_other_yaku", lucky_hands="on", lucky_both_players="dealer", oya_ken=6),
    replace(R["nintendo"], name="nintendo+", weather=True, viewing="on", akatan_aotan=0,
            field_four_of_month="dealer_wins", max_koikoi_calls=None, koikoi_multiplier="scaling"),
    replace(R["kk-add-10"], name="kk+", combo_grading="stack", tane=0, kasu=2,
            field_four_of_month="dealer_sweeps", exhausted_dealer="last_yaku", oya_ken=1),
    # the knobs of the two games' presets and the newer house rules: the month's cards, the
    # Koi-Koi bonus (named in awards), per-set grading
    replace(R["koikoi-japan"], name="kkj+", tsuki_fuda=4, rain_break="rain_man",
            inoshikacho_grading="graded_tane_pays", field_three_of_month="redeal"),
]

# The examples are of January's cards (tsuki-fuda's): score them as in round 1.
MONTH = 1


def _names_in(events):
    for e in events:
        if isinstance(e, YakuMade):
            yield from (n for n, _ in e.yaku)
        elif isinstance(e, RoundEnded):
            yield from (n for n, _, _ in e.row.yaku)
        elif isinstance(e, LuckyHand):
            yield from e.hands
            yield "_".join(e.hands)          # what the round's award is named


def _made(name, ids, rules):
    return name in {n for n, _, _ in settle(ids, rules, month=MONTH).yaku}


def test_every_name_the_engine_produces_has_a_row():
    seen = set()
    for rules in VARIANTS:
        rng = random.Random(rules.name)
        for seed in range(4):
            s = new_match(rules, seed=seed, months=12)
            while not s.is_over:
                legal = legal_actions(s)
                # Koi-Koi more often than not: long rounds make the big yaku.
                a = legal[1] if s.phase == DECIDE and rng.random() < 0.7 else legal[rng.randrange(len(legal))]
                s = apply(s, a)
            seen.update(_names_in(s.events))
        # The scorer itself, on random capture piles of every size.
        for _ in range(3000):
            mask = sum(1 << i for i in rng.sample(range(48), rng.randrange(3, 40)))
            field = sum(1 << i for i in rng.sample(range(48), 8)) & ~mask
            seen.update(n for n, _, _ in yaku_masks(mask, rules, field, rng.randrange(3),
                                                    rng.randrange(13)))
    unknown = seen - set(Y.BY_NAME)
    assert not unknown, f"names with no row in the yaku table: {sorted(unknown)}"
    # the sweep really reached the table, not just a few rows of it
    assert set(YAKU_ORDER) <= seen and {"teshi", "oya_ken", "koikoi_bonus"} <= seen, \
        sorted(set(Y.BY_NAME) - seen)


def test_the_table_is_one_row_per_name_in_scoring_order():
    assert len(Y.BY_NAME) == len(Y.TABLE)
    assert YAKU_ORDER == Y.CAPTURE_ORDER == tuple(y.name for y in Y.CAPTURES)
    assert Y.TABLE[:len(Y.CAPTURES)] == Y.CAPTURES
    assert YAKU_NAMES == {y.name: (y.english, y.romaji, y.kanji) for y in Y.TABLE}


@pytest.mark.parametrize("y", Y.TABLE, ids=lambda y: y.name)
def test_every_row_is_complete_and_its_knob_is_a_rules_field(y):
    assert y.knob in KNOBS
    assert all(type(getattr(r, y.knob)) is int for r in R.values())
    assert y.english and y.romaji and y.kanji and y.needs
    assert all(c in IDS for c in y.cards + y.example)
    assert len(set(y.example)) == len(y.example)
    for style in (*Y.STYLES, "nonsense"):
        assert Y.label(y.name, style) and Y.label(y.name, style, short=True)
        main, sub = Y.title(y.name, style)
        assert main and sub


@pytest.mark.parametrize("y", Y.CAPTURES, ids=lambda y: y.name)
def test_the_example_makes_the_yaku_and_the_knob_sets_its_points(y):
    making = [r for r in VARIANTS if _made(y.name, y.example, r)]
    assert making, f"{y.example} makes {y.name} under no preset"
    for rules in making:
        # The example is at the threshold, so the yaku is worth exactly what its knob says.
        award = settle(y.example, replace(rules, **{y.knob: 37}), month=MONTH)
        assert (y.name, 37) in {(n, p) for n, p, _ in award.yaku}
        assert not _made(y.name, y.example, replace(rules, **{y.knob: 0}))


@pytest.mark.parametrize("y", [y for y in Y.CAPTURES if y.cards], ids=lambda y: y.name)
def test_the_cards_of_a_fixed_set_make_it_and_each_of_them_is_needed(y):
    assert any(_made(y.name, y.cards, r) for r in VARIANTS)
    assert set(y.example) == set(y.cards)
    for c in y.cards:
        short = [x for x in y.cards if x != c]
        assert not any(_made(y.name, short, r) for r in VARIANTS), f"{y.name} is made without {c}"


def _deal_with(hand=(), field=()):
    """A deck whose deal gives the dealer ``hand`` and the field ``field`` (filled up), and
    nothing else that ends a round at the deal: the other hand and the rest of the field
    take one card per month where they can."""
    used = set(hand) | set(field)
    rest = [c for c in IDS if c not in used]

    def take(n, have):
        have = list(have)
        for spread in (True, False):
            for c in rest:
                if len(have) == n:
                    return have
                if c not in have and (not spread or card(c).month not in {card(x).month for x in have}):
                    have.append(c)
                    rest.remove(c)
        return have

    dealer = take(8, hand)
    other = take(8, ())
    table = take(8, field)
    return full_deck(dealer, other, table)


LUCKY = replace(R["nintendo"], lucky_both_hands_points=12)
AT_THE_DEAL = {
    "teshi": (LUCKY, "hand"),
    "kuttsuki": (LUCKY, "hand"),
    "teshi_kuttsuki": (LUCKY, "hand"),
    "field_four": (replace(R["casual"], field_four_of_month="dealer_wins"), "field"),
}


@pytest.mark.parametrize("name", sorted(AT_THE_DEAL))
def test_the_example_of_a_deal_round_wins_it_for_its_knob(name):
    y = Y.info(name)
    rules, where = AT_THE_DEAL[name]
    deck = _deal_with(hand=y.example) if where == "hand" else _deal_with(field=y.example)
    s = start(rules, deck)
    row = s.ledger[0]
    assert row.winner == 0 and row.yaku[0][:2] == (name, getattr(rules, y.knob))


def test_oya_ken_is_paid_by_its_knob():
    y = Y.info("oya_ken")
    rules = replace(R["casual"], oya_ken=3)
    rng = random.Random(5)
    rows = []
    for seed in range(3):
        s = new_match(rules, seed=seed)
        while not s.is_over:
            legal = legal_actions(s)
            s = apply(s, legal[rng.randrange(len(legal))])
        rows += [e.row for e in s.events if isinstance(e, RoundEnded) and e.row.reason == "exhausted"]
    assert rows and all(r.yaku[0][:2] == ("oya_ken", getattr(rules, y.knob)) for r in rows)


def test_points_reads_every_knob():
    rules = replace(R["classic"], lucky_points=9, lucky_both_hands_points=13, oya_ken=2)
    pts = Y.points(rules)
    assert pts == {y.name: getattr(rules, y.knob) for y in Y.TABLE}
    assert (pts["goko"], pts["sanko"], pts["teshi"], pts["teshi_kuttsuki"], pts["oya_ken"]) == (15, 6, 9, 13, 2)


def test_labels_in_each_style():
    assert Y.label("sanko") == "Sankō · Three Brights"
    assert Y.label("sanko", "english") == "Three Brights"
    assert Y.label("sanko", "romaji") == "Sankō"
    assert Y.label("sanko", short=True) == Y.label("sanko", "romaji", short=True) == "Sankō"
    assert Y.label("sanko", "english", short=True) == "Three Brights"
    assert Y.label("sanko", "nonsense") == Y.label("sanko")
    assert Y.title("goko") == ("Five Brights", "Gokō  五光")
    assert Y.title("goko", "english") == ("Five Brights", "五光")
    assert Y.title("goko", "romaji") == ("Gokō", "五光")
    assert Y.info("goko").kanji == "五光"
    assert "Four Pairs" in Y.title("teshi_kuttsuki")[0]


@pytest.mark.parametrize("name", ["teshi_goko", "mystery", "future_yaku", "", "_", "a" * 64, "五光", None, 7])
def test_an_unknown_name_falls_back_and_never_raises(name):
    y = Y.info(name)
    assert y.english and y.romaji and y.knob == ""
    for style in (*Y.STYLES, "nonsense"):
        assert Y.label(name, style) and Y.label(name, style, short=True)
        assert Y.title(name, style)[0]


def test_the_fallback_reads_compound_names_by_their_parts_and_title_cases_the_rest():
    assert Y.title("teshi_goko") == ("Four of a Month + Five Brights", "Teshi + Gokō  手四・五光")
    assert Y.label("mystery", "english") == "Mystery"
    assert Y.label("teshi_mystery") == "Teshi + Mystery · Four of a Month + Mystery"
    assert Y.info("future_yaku").kanji == ""
    assert Y.info("goko") is Y.BY_NAME["goko"]


def test_the_fixed_sets_are_those_of_the_rules():
    # The fixed sets read from cards.py are what RULES.md section 3 says.
    assert set(Y.info("inoshikacho").cards) == {"07-A", "10-A", "06-A"}
    assert set(Y.info("akatan").cards) == {"01-RP", "02-RP", "03-RP"}
    assert set(Y.info("aotan").cards) == {"06-RB", "09-RB", "10-RB"}
    assert set(Y.info("goko").cards) == {c.id for c in DECK if c.kind.name == "BRIGHT"}
