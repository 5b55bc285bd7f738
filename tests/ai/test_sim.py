"""The AI's lean simulator (koikoi.ai.sim) agrees with the engine, move by move."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from koikoi.ai import sim
from koikoi.engine import RULESETS, apply, legal_actions, new_match
from koikoi.engine.actions import ChooseMatch, KoiKoi, Play, Stop
from koikoi.engine.cards import ID_TO_INDEX
from koikoi.engine.match import CHOOSE, DECIDE, PLAY
from koikoi.engine.scoring import award_from_mask, yaku_points

VARIANTS = [
    *RULESETS.values(),
    replace(RULESETS["casual"], weather=True, name="casual+weather"),
    replace(RULESETS["nintendo"], viewing="with_other_yaku", sake_cup_is_animal=False,
            koikoi_multiplier="scaling", field_brights_multiplier=True, name="nintendo+house"),
    replace(RULESETS["kk-add-10"], weather=True, must_play_match=True, max_koikoi_calls=2,
            koikoi_multiplier="anyone", name="kk+house"),
    replace(RULESETS["classic"], koikoi_multiplier="caller", viewing="off", tane=2, kasu=0,
            name="classic+house"),
    # the knobs of the two games' presets and the newer house rules
    replace(RULESETS["casual"], tsuki_fuda=4, rain_break="rain_man", viewing_after_koikoi=0,
            own_call_bonus=2, inoshikacho_grading="graded_tane_pays", name="casual+new"),
    replace(RULESETS["koikoi-japan"], rain_break="rain_man_or_phoenix", tsuki_fuda=3,
            own_call_bonus_max_calls=1, weather=True, scoring_mode="total", name="kkj+house"),
    replace(RULESETS["battle-hanafuda"], max_koikoi_calls=None, akatan_aotan_on_top=True,
            combo_grading="stack", inoshikacho_grading="graded", viewing_after_koikoi=7,
            field_brights_multiplier=True, field_four_of_month="dealer_sweeps", name="battle+house"),
]

_PHASE = {PLAY: sim.PLAY, CHOOSE: sim.CHOOSE, DECIDE: sim.DECIDE}


def _same(r: sim.Round, s) -> None:
    assert r.phase == _PHASE[s.phase]
    assert r.to_move == s.to_move
    assert r.hands == list(s.hands)
    assert r.field == s.field
    assert r.cap == list(s.captured)
    assert r.sig == [sim.signature(c) for c in s.captured]
    assert r.calls == list(s.calls)
    assert r.stock[r.sp:] == list(s.stock[s.stock_pos:])
    if s.phase == CHOOSE:
        assert r.pending == s.pending
        assert sorted(r.choices()) == sorted(ID_TO_INDEX[a.target] for a in legal_actions(s))
    if s.phase == PLAY:
        got = sorted(r.plays())
        want = sorted((ID_TO_INDEX[a.card], ID_TO_INDEX[a.target] if a.target else -1)
                      for a in legal_actions(s))
        assert got == want


def _step(r: sim.Round, action) -> None:
    if isinstance(action, Play):
        r.play(ID_TO_INDEX[action.card], ID_TO_INDEX[action.target] if action.target else -1)
    elif isinstance(action, ChooseMatch):
        r.choose(ID_TO_INDEX[action.target])
    elif isinstance(action, KoiKoi):
        r.koikoi()
    elif isinstance(action, Stop):
        r.stop()


def walk_against_engine(rules, *, matches: tuple, months: int, enough: tuple) -> None:
    """Random legal moves (Koi-Koi more often than not, so that long rounds and the call rules
    are exercised) through whole matches; before every decision the simulator's round built
    from the state must agree with it, and after the move the simulator's step must give the
    engine's next state, its round end, winner, points and reason; a second Round, built once
    at the round's first decision and only stepped from then on (its piles' signatures and
    call refs kept by its own moves, as in a playout), must agree with the engine after every
    move too. ``enough`` = (decisions, rounds) checked; ``matches`` = (at least, at most)
    matches played (zero-sum stakes end some early).
    An exhausted round: the simulator says winner None, points 0 (oya-ken, paid to the dealer,
    is left to its callers, as Hard's scoring does)."""
    rng = random.Random(hash(rules.name) & 0xFFFF)
    checked = rounds = 0
    for seed in range(matches[1]):
        if seed >= matches[0] and checked > enough[0] and rounds > enough[1]:
            break
        s = new_match(rules, seed=seed, months=months)
        live = None
        while not s.is_over:
            legal = legal_actions(s)
            if s.phase == DECIDE:
                a = legal[1] if rng.random() < 0.7 else legal[0]
            else:
                a = legal[rng.randrange(len(legal))]
            if s.phase not in _PHASE:
                s = apply(s, a)
                live = None
                continue
            r = sim.from_state(s)
            _same(r, s)
            if live is None:
                live = sim.from_state(s)
            n = len(s.ledger)
            _step(r, a)
            _step(live, a)
            s = apply(s, a)
            checked += 1
            if len(s.ledger) > n:                  # the round ended
                row = s.ledger[n]   # later rows may be lucky-hand rounds ended at the deal
                rounds += 1
                for k in (r, live):
                    assert k.phase == sim.DONE
                    assert (k.reason == "exhausted") == (row.reason == "exhausted")
                    if row.reason == "exhausted":
                        assert k.winner is None and k.points == 0
                        assert row.winner == (row.dealer if rules.oya_ken else None)
                    else:
                        assert (k.winner, k.points, k.reason) == (row.winner, row.award, row.reason)
                live = None
            else:
                assert r.phase != sim.DONE and live.phase != sim.DONE
                _same(r, s)
                _same(live, s)
                assert live.refs == [tuple(x) for x in s.refs]
    assert checked > enough[0] and rounds > enough[1]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_sim_follows_engine(rules):
    walk_against_engine(rules, matches=(6, 20), months=12, enough=(500, 30))


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_points_and_award_match_engine(rules):
    rng = random.Random(7)
    for _ in range(3000):
        month = rng.randrange(1, 13)
        pts = sim.points_fn(rules, month)
        n = rng.randrange(0, 30)
        cards = rng.sample(range(48), n)
        mask = sum(1 << c for c in cards)
        field = sum(1 << c for c in rng.sample(range(48), 8)) & ~mask
        calls = (rng.randrange(5), rng.randrange(3))
        assert pts(mask, field, calls[0]) == sum(p for _, p in yaku_points(mask, rules, field, calls[0], month))
        fb = rng.randrange(3)
        assert sim.award(rules, mask, calls[0], calls[1], fb, field, month) == \
            award_from_mask(mask, rules, calls[0], calls[1], fb, field, month).total


def test_random_rounds_finish():
    rng = random.Random(3)
    for rules in VARIANTS:
        for _ in range(200):
            r = sim.random_round(rules, rng)
            assert r.phase == sim.DONE
            assert r.winner is None or r.points >= 0


def _house_rules(rng: random.Random, n: int) -> list:
    """``n`` random mixes of the knobs the simulator's yaku and settlement code reads, on
    every preset, point knobs included (0 turns a yaku off; tsuki-fuda is one of them)."""
    from koikoi.engine.yaku import CAPTURES
    out = []
    for i in range(n):
        base = list(RULESETS.values())[i % len(RULESETS)]
        out.append(replace(
            base, name=f"{base.name}+mix{i}",
            combo_grading=rng.choice(["stack", "graded"]), viewing=rng.choice(["on", "off", "with_other_yaku"]),
            weather=rng.random() < 0.5, sake_cup_is_chaff=rng.random() < 0.5,
            sake_cup_is_animal=rng.random() < 0.7, prompt_when=rng.choice(["total_rises", "combo_new_or_grew"]),
            seven_plus_double=rng.random() < 0.5, field_brights_multiplier=rng.random() < 0.3,
            koikoi_multiplier=rng.choice(["opponent_called", "own_calls_and_opponent", "caller", "anyone",
                                          "scaling", "none"]),
            inoshikacho_grading=rng.choice(["set_yaku", "stack", "graded", "graded_tane_pays"]),
            akatan_aotan_on_top=rng.random() < 0.4,
            rain_break=rng.choice(["off", "off", "rain_man", "rain_man_or_phoenix"]),
            viewing_after_koikoi=rng.choice([None, None, 0, 3, 7]),
            own_call_bonus=rng.choice([0, 0, 1, 2]), own_call_bonus_max_calls=rng.choice([None, 1, 3]),
            **{"tsuki_fuda": rng.choice([0, 1, 4]),
               **{y.knob: rng.choice([0, 1, 2, 5, 7, 10]) for y in rng.sample(CAPTURES, 5)}}))
    return out


def test_yaku_points_improvement_and_award_match_the_engine_for_every_yaku():
    """The simulator's own yaku code against the engine's scoring, on capture piles grown
    card by card (so every yaku is made, and made bigger), under every preset and many
    house-rule mixes: the points (by mask and by kept signature), the yaku a Koi-Koi call
    remembers, and the award (the prompt's improvement test is the engine's own
    ``scoring.improved``). The memos are shared across piles, so piles of one canonical
    key (``sim._canonical``) answer for each other here."""
    from koikoi.engine.yaku import CAPTURE_ORDER
    rng = random.Random(11)
    seen = set()
    for rules in [*VARIANTS, *_house_rules(rng, 60)]:
        for _ in range(40):
            month = rng.randrange(1, 13)          # the round's month (tsuki-fuda's)
            pts = sim.points_fn(rules, month)
            called = rng.choice([0, 0, 1, 2])     # the pile's owner's Koi-Koi calls
            order = rng.sample(range(48), 48)
            field = sum(1 << c for c in order[-8:])
            mask, ref = 0, ()
            _, pts_v, yaku_v = sim._points_fns(rules, month)
            for c in order[:36]:
                mask |= 1 << c
                now = yaku_points(mask, rules, field, called, month)
                seen.update(n for n, _ in now)
                assert pts(mask, field, called) == sum(p for _, p in now)
                v = sim.signature(mask)
                assert pts_v(v, mask, field, called) == sum(p for _, p in now)
                assert yaku_v(v, mask, field, called) == now
                if now and rng.random() < 0.3:
                    ref = now              # as a Koi-Koi call sets it
                if rng.random() < 0.1:
                    calls, fb = (called, rng.randrange(3)), rng.randrange(4)
                    assert sim.award(rules, mask, calls[0], calls[1], fb, field, month) == \
                        award_from_mask(mask, rules, calls[0], calls[1], fb, field, month).total
    assert seen == set(CAPTURE_ORDER)


def _deal_by_key_function(rules, rng, dealer, month):
    """The deal as the simulator first wrote it: the cards sorted by a key function that
    draws ``rng.random()`` per card (the stream the seeded playouts were tuned on)."""
    rand = rng.random
    while True:
        deck = sorted([1 << i for i in range(48)], key=lambda _: rand())
        field = sum(deck[16:24])
        if not (field & field >> 1 & field >> 2 & field >> 3 & sim._LOW):
            break
    hands = [0, 0]
    hands[dealer] = sum(deck[0:8])
    hands[1 - dealer] = sum(deck[8:16])
    return hands, field, [b.bit_length() - 1 for b in deck[24:]]


def test_deal_keeps_the_random_stream():
    """``deal`` draws its keys in one go but deals exactly what the key-function sort dealt,
    and leaves the generator where it left it (seeded playouts do not change)."""
    rules = RULESETS["nintendo"]
    a, b = random.Random(21), random.Random(21)
    for i in range(500):
        r = sim.deal(rules, a, i % 2, 1 + i % 12)
        assert (r.hands, r.field, r.stock) == _deal_by_key_function(rules, b, i % 2, 1 + i % 12)
        assert r.dealer == r.to_move == i % 2 and r.sp == 0
        # every slot as the constructor sets it for that deal (the deal writes them itself)
        full = sim.Round(rules, r.hands, r.field, r.stock, dealer=r.dealer, to_move=r.to_move,
                         month=1 + i % 12)
        for name in sim.Round.__slots__:
            got, want = getattr(r, name), getattr(full, name)
            if callable(want):      # the rules' functions (caches may have made new ones)
                assert got.__qualname__ == want.__qualname__, name
            else:
                assert got == want, name
    assert a.random() == b.random()


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_points_memo_and_gate_agree_with_the_engine(rules):
    """The memoised points (one answer per pile signature, weather bits, call and complete
    month) against the compiled function and the engine, on piles that share signatures
    (chaff of other months, the same counts) so that the memo answers most of them; and the
    ``maybe_yaku`` gate never says no to a pile that scores."""
    rng = random.Random(5)
    for month in (1, 8, 11):
        pts = sim.points_fn(rules, month)
        raw = sim._compile_points(rules, month if rules.tsuki_fuda else 0)
        maybe = sim.maybe_yaku_months if rules.tsuki_fuda else sim.maybe_yaku
        for _ in range(1500):
            mask = sum(1 << c for c in rng.sample(range(48), rng.randrange(0, 26)))
            field = sum(1 << c for c in rng.sample(range(48), 8)) & ~mask
            called = rng.choice((0, 0, 1, 3))
            want = sum(p for _, p in yaku_points(mask, rules, field, called, month))
            assert pts(mask, field, called) == raw(mask, field, called) == want
            if want:
                assert maybe(mask)


def test_canonical_key_by_tables_is_the_reference():
    """``sim._canonical`` (two table lookups) gives ``_canonical_of``'s key for every
    combination of the two groups of fields it reads, under a few brights and the bits above
    the signature (weather, call, complete month)."""
    rng = random.Random(11)
    for a in range(4096):
        ka = (a & 63) << 5 | (a >> 6) << 19
        for r in range(256):
            key = ka | r << 11 | rng.getrandbits(5) | rng.getrandbits(4) << 25
            assert sim._canonical(key) == sim._canonical_of(key), hex(key)


def test_shuffle_is_the_generators_own():
    """``sim.shuffle`` gives ``random.Random.shuffle``'s permutation and leaves the generator
    where it leaves it, for every length a hand, the unseen cards or the deck can have."""
    for seed in range(40):
        a, b = random.Random(seed), random.Random(seed)
        for n in range(0, 49):
            x, y = list(range(n)), list(range(n))
            sim.shuffle(a, x)
            b.shuffle(y)
            assert x == y, (seed, n)
        assert a.random() == b.random()

    class Other(random.Random):      # a generator of another kind: its own shuffle
        def random(self):
            return 0.0
    x, y = list(range(10)), list(range(10))
    sim.shuffle(Other(1), x)
    Other(1).shuffle(y)
    assert x == y
