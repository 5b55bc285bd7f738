"""The playout policy and Hard decide exactly as they did before they were made faster.

The hashes below were computed with the code of c505f27 (before issue 28's playout work):
every policy move over seeded self-play rounds on every preset and a few house rules (the
policy's play, stock choice and Koi-Koi answer, in each of its modes), every finished
``sim.random_round`` over seeded streams, and every action of Hard over seeded matches
against Medium at a fixed playout budget. A speed-up of the
simulator, the policy or the knowledge it reads must leave them as they are: a change of
any decision changes a hash. (A change meant to change decisions updates the pins, and says
so in its commit.)
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

from koikoi.ai.hard import HardPlayer
from koikoi.ai.knowledge import Knowledge
from koikoi.ai.medium import MediumPlayer
from koikoi.ai.playout import Policy, noise_streams
from koikoi.ai.sim import CHOOSE, DECIDE, PLAY, deal, random_round
from koikoi.engine import RULESETS, apply, legal_actions, new_match, view

_RULES = [
    *RULESETS.values(),
    replace(RULESETS["casual"], weather=True, name="casual+weather"),
    replace(RULESETS["kk-add-10"], weather=True, must_play_match=True, max_koikoi_calls=2,
            name="kk+house"),
    replace(RULESETS["casual"], tsuki_fuda=4, rain_break="rain_man", viewing_after_koikoi=0,
            name="casual+tsuki"),
]

# The policy's settings: Hard's (the default), and the other branches of its code.
_POLICIES = [
    {},
    {"kk": "simple", "deny": 1.0},
    {"kk": "fit", "feed": 0.0, "deny": 0.5},
]

POLICY_MOVES = "82059a92c7abc678accfacc8cd80fdd62ecfc495ba59f35ae289e4a26bb342d2"
RANDOM_ROUNDS = "8ea1084e17aff02170e09f275ee411d1e14a6d4f18d67a2b1aaf1707db694aa5"
HARD_ACTIONS = "3f985831b50143ebf22a6310673d5e88f48f75fdad62ecb91fa29ee4593ea736"
HARD_ACTIONS_INFER = "3c9c6b0adaa6939f22225c9e6470a2f899acdcf1600e1e1e2906af8d677ea1f1"


def policy_moves() -> tuple:
    """(hash of every move, moves) of seeded policy self-play rounds."""
    h = hashlib.sha256()
    n = 0
    for rules in _RULES:
        for kw in _POLICIES:
            rng = random.Random(f"{rules.name}|{sorted(kw.items())}")
            for i in range(40):
                month = 1 + i % 12
                pol = Policy(Knowledge(rules, month), **kw)
                pol.final_scores = (30, 20) if i % 5 == 4 else None
                r = deal(rules, rng, i & 1, month)
                rand = rng.random
                while True:
                    if r.phase == PLAY:
                        c, t = pol.play(r, rand)
                        h.update(b"p%d,%d;" % (c, t))
                        r.play(c, t)
                    elif r.phase == CHOOSE:
                        t = pol.choose(r)
                        h.update(b"c%d;" % t)
                        r.choose(t)
                    elif r.phase == DECIDE:
                        k = pol.koikoi(r)
                        h.update(b"k%d;" % k)
                        r.koikoi() if k else r.stop()
                    else:
                        h.update(b"e%r,%d;" % (r.winner, r.points))
                        break
                    n += 1
    return h.hexdigest(), n


def random_rounds() -> tuple:
    """(hash of every finished round, rounds) of seeded ``random_round``s (the simulator's
    benchmark: a faster driver must draw the same choices from the same stream)."""
    h = hashlib.sha256()
    n = 0
    for rules in _RULES:
        rng = random.Random(rules.name)
        for _ in range(300):
            r = random_round(rules, rng)
            h.update(b"%r,%d,%s,%d,%d,%d,%d;" % (r.winner, r.points, r.reason.encode(), r.cap[0],
                                                 r.cap[1], r.field, r.sp))
            n += 1
    h.update(b"%r" % rng.random())
    return h.hexdigest(), n


def hard_actions(**settings) -> tuple:
    """(hash of Hard's actions, its decisions) over seeded 2-month matches against Medium at
    a fixed budget (no clock in it), on the two presets and house rules with tsuki-fuda.
    ``settings`` go to HardPlayer."""
    h = hashlib.sha256()
    n = 0
    for rules in (RULESETS["nintendo"], RULESETS["battle-hanafuda"], _RULES[-1]):
        for seed in range(2):
            s = new_match(rules, seed=seed, months=2)
            me = seed & 1
            players = {me: HardPlayer(seed=seed, simulations=80, **settings),
                       1 - me: MediumPlayer(seed=seed)}
            while not s.is_over:
                seat = s.to_move
                legal = legal_actions(s)
                a = players[seat].choose(view(s, seat), legal)
                if seat == me and len(legal) > 1:
                    h.update(repr(a).encode())
                    n += 1
                s = apply(s, a)
            h.update(repr(tuple(s.scores)).encode())
    return h.hexdigest(), n


def test_the_playout_policy_moves_as_before():
    got, n = policy_moves()
    assert n > 15000
    assert got == POLICY_MOVES


def test_random_rounds_play_as_before():
    got, n = random_rounds()
    assert n == 300 * len(_RULES)
    assert got == RANDOM_ROUNDS


def test_hard_acts_as_before():
    """Without its reading of the opponent's passes (``infer=None``), Hard decides as it did at
    c505f27; with it (the default since it was added), as pinned then."""
    got, n = hard_actions(infer=None)
    assert n > 80
    assert got == HARD_ACTIONS
    got, n = hard_actions()
    assert n > 80
    assert got == HARD_ACTIONS_INFER


def test_noise_streams_replay_the_generator():
    """Every function ``noise_streams`` makes gives ``random.Random(seed).random``'s stream from
    its start, within the shared draws and past them."""
    for seed, k in ((7, 0), (2**47 + 3, 5), (123, 40)):
        make = noise_streams(seed, k)
        for _ in range(3):
            want = random.Random(seed).random
            got = make()
            assert [got() for _ in range(k + 30)] == [want() for _ in range(k + 30)]


if __name__ == "__main__":     # prints the hashes of this tree's code (to pin them)
    print(policy_moves())
    print(random_rounds())
    print(hard_actions(infer=None))
    print(hard_actions())
