"""Hard: determinized Monte-Carlo search that maximises the chance of winning the match.

For each decision it samples the hidden cards (the unseen set split into an
opponent hand of the right size and a stock order), applies every candidate
action to the same samples, and plays each to the end of the round in the
lean simulator with the cheap greedy policy for both seats (which answers
either seat's later Koi-Koi questions by Medium's expected-value rule, and in
the match's last round by what the exact Stop does to the match: playout.py,
kind "ev"; the fitted model, kind "fit", played no better than that rule against
a216113's Hard: -0.33 points a round on Nintendo over 70 pairs, CI -0.77..+0.08,
+0.10 on Battle Hanafuda over 60, CI -0.31..+0.56), with the same stream of
policy noise for every candidate (common random numbers, so two candidates
are compared sample by sample). Each finished round is scored by the
probability of winning the MATCH from the resulting scores, rounds left and
dealer (koikoi.ai.winprob: the table fitted by tools/fit_winprob.py), exact
in the last round.

The opponent's hand in each sample is dealt mostly from months it did not pass
(``View.passed``: months whose card it left on the field when it played a card there
without capturing; ``INFER``), so Hard reads the table as a player does: whoever
plays a card that takes nothing while the Moon lies on the field most likely holds no
other August card. ``estimate``, behind the review and the coach, deals the same way
(``dealt``).

Medium's evaluation ranks the candidates first: its best few are searched,
weak ones are dropped early (successive halving), and Medium's favourite is
kept unless another candidate beats it by more than one standard error of
their paired difference. The playouts thus correct Medium where they see a
clear gain, and noise never replaces a sound move with a random one. Stop is
valued exactly (its award is certain); Koi-Koi by the playouts that follow
the call.

Budgets: ``simulations=N`` plays N playouts at a decision with a full round
ahead (deterministic for a seed); ``think_time`` alone bounds the search in
seconds; with neither, Hard plays ``DEFAULT_SIMS`` playouts, cut short at
``DEFAULT_THINK`` seconds on a slow machine. A playout costs about the cards
still to play, so a later decision plays proportionally more of them for the
same cost (``even_scale``, up to three times as many with a few cards left):
the Koi-Koi questions and last captures, where the round is decided, get the
precision the opening turns had. With 900 at the opening a decision costs
p50/p95 87-100/135-144 ms of CPU (700: 74/110 in the same session) (``tools/bench_sim.py --hard --sims 900``: 392
positions of three 12-month matches on Nintendo and three on Battle Hanafuda,
2026-12-07; 1000 measured 145-154 ms at p95, over the 150 ms budget). Against
671ecfc's Hard (600 flat), 200 paired 12-month matches a preset at 700: Nintendo
+0.22 points a round (95% CI -0.01..+0.46), Battle Hanafuda +0.06 (CI
-0.20..+0.30): not weaker, not yet the +0.3 issue 28 asks. At 900 against
905da7d's Hard (600 flat), 200 paired 12-month matches a preset (first seed 700000):
Nintendo +0.11 (CI -0.15..+0.37), Battle Hanafuda +0.24 (CI -0.03..+0.51), match
wins 0.555 and 0.556 (Wilson 95% lower bounds 0.506, 0.507). Twice the playouts
(1400 against 700, Nintendo, 42 pairs) measured +0.19 (CI -0.26..+0.65): more
playouts alone will not reach it. With the opponent's passes read (8336bc3), on the same
seeds against 905da7d's Hard: Nintendo +0.23 (CI -0.02..+0.46), match wins 0.555
(Wilson lower bound 0.506); Battle Hanafuda +0.29 (CI +0.04..+0.54), match wins 0.529.
Against the Hard without it, 100 Nintendo pairs: +0.24 (CI -0.08..+0.56). 1400 playouts
with the read, the same 200 Nintendo pairs against 905da7d's Hard: -0.10 (CI -0.36..+0.15),
match wins 0.471, p50/p95 90.5/119.5 ms: no stronger than 900, so 900 stays. Reading the
passes costs little: p50/p95 48.5/80.5 ms against 50.3/77.5 without (``bench_sim.py
--hard --sims 900 --months 12 --matches 3``, 408 positions, the same run).
"""

from __future__ import annotations

import math
import random
import time
from typing import NamedTuple, Optional, Sequence

from ..engine.actions import ChooseMatch, KoiKoi, Play, Stop
from ..engine.cards import _BIT, ID_TO_INDEX
from ..engine.phase import Phase
from .base import KnowledgeCache, kind, play_key, seen
from .medium import MediumPlayer, koikoi_wanted
from .playout import Policy, noise_streams
from .sim import CHOOSE, DECIDE, PLAY, Round, bits, shuffle
from .winprob import _DATA as WINPROB_DATA, Outcome, WinProb, load_winprob, shipped_table

DEFAULT_THINK = 0.5
_DATA = WINPROB_DATA       # the shipped table's path (koikoi.selfcheck reads hard._DATA)
DEFAULT_SIMS = 900        # an opening decision's playouts when neither budget is given
# A playout's cost grows with the cards still to play (measured, 600 playouts: 16 ms a
# decision with 3 cards left in both hands, 90 ms with 16). ``even=True`` gives a decision
# with fewer cards left more playouts, (OPEN_CARDS + EVEN_C) / (cards + EVEN_C) times as many,
# at most ``EVEN_MAX`` times: each costs about what the round's first does, rarely more.
OPEN_CARDS = 16
EVEN_C = 3.0
EVEN_MAX = 3.0
# The opponent's hand is dealt mostly from months it did not pass (``View.passed``: it left
# their card on the field when it played a card there without capturing). Each unseen card
# of a passed month is dealt to it as freely as any other with this chance only, else after
# every other card. Measured, 12-month matches: Medium held a passed month in 0.07% of
# cases (3 of 4,559) against 43% for the other months; Hard in 6.8% (29 of 427).
INFER = 0.15


class HardPlayer:
    level = "hard"

    def __init__(self, seed: int = 0, think_time: Optional[float] = None,
                 simulations: Optional[int] = None, noise: float = 0.35,
                 kk_mode: str = "sim", kk_bias: float = 0.0, prior_keep: int = 5,
                 anchor_z: Optional[float] = 1.0, policy_kk: str = "ev", even: bool = True,
                 infer: Optional[float] = INFER):
        self.infer = infer
        self.even = even
        self.policy_kk = policy_kk
        self.prior_keep = prior_keep
        self.anchor_z = anchor_z
        self._medium = None
        self.kk_mode = kk_mode
        self.kk_bias = kk_bias
        self.seed = seed
        self.think_time = DEFAULT_THINK if think_time is None else float(think_time)
        self.simulations = simulations
        # With no budget given, Hard plays the measured number of playouts, cut short only
        # if a slow machine would need more than ``DEFAULT_THINK`` seconds for them.
        self._ceiling = simulations is None and think_time is None
        if self._ceiling:
            self.simulations = DEFAULT_SIMS
        self._kc = KnowledgeCache()
        self._policy = None
        self._wp = None
        self._wp_rules = None
        self._noise = noise
        self._table = load_winprob()
        self.last_stats = {}

    # ------------------------------------------------------------ setup

    def _setup(self, rules, month: int = 0):
        know = self._kc.get(rules, month)
        if self._policy is None or self._policy.know is not know:
            self._policy = Policy(know, noise=self._noise, kk=self.policy_kk)
        if self._wp_rules is not rules:
            self._wp = WinProb(rules, self._table)
            self._wp_rules = rules
        return self._policy

    def _rng(self, view) -> random.Random:
        """A generator fixed by the seed and what the view shows (never the hidden cards)."""
        key = (f"{self.seed}|{view.round}|{view.phase}|{view.hand_mask}|{view.field_mask}|"
               f"{view.captured_masks}|{view.calls}|{view.scores}|{view.pending}")
        return random.Random(key)

    # ------------------------------------------------------------ choosing

    def choose(self, view, legal: Sequence):
        k = kind(legal)
        if k == "oyagime":
            return legal[0]
        if len(legal) == 1:
            return legal[0]
        policy = self._setup(view.rules, view.month)
        outcome = Outcome(view, self._wp)
        policy.final_scores = tuple(view.scores) if outcome.left == 0 else None
        me = view.seat
        rng = self._rng(view)
        t0 = time.perf_counter()
        best = 0
        anchor = None

        stop_value = None
        if k == "decide":
            stop_value = outcome.value(me, view.award(me).total)
            if self.kk_mode != "sim":
                heur = koikoi_wanted(self._kc.get(view.rules, view.month), view, seen(view))
                if self.kk_mode == "medium":
                    return next(a for a in legal if isinstance(a, KoiKoi if heur else Stop))
            cands = [a for a in legal if isinstance(a, KoiKoi)]
            if not cands:
                return next(a for a in legal if isinstance(a, Stop))
        else:
            # Medium's ranking: the best few are searched, and its favourite is kept unless
            # the playouts show another move better by more than their noise.
            cands = list(legal)
            scores = self._medium_scores(view, cands)
            order = sorted(range(len(cands)), key=lambda i: (-scores[i], i))
            if self.prior_keep and len(cands) > self.prior_keep:
                order = order[:self.prior_keep]
            keep = sorted(order)
            anchor = keep.index(order[0]) if self.anchor_z is not None else None
            cands = [cands[i] for i in keep]
        moves = [self._move_of(a) for a in cands]

        template = self._template(view)
        pool, unlikely = hidden(view, self.infer)
        sims = self.simulations
        if sims is not None and self.even:
            sims = round(sims * even_scale(view.hand_mask.bit_count() + view.opponent_hand_count))
        best, mean, total = search(template, pool, view.opponent_hand_count, me,
                                   moves, outcome.value, policy, rng, sims,
                                   self.think_time, t0, anchor, self.anchor_z or 0.0,
                                   self._ceiling, unlikely, self.infer or 0.0)
        self.last_stats = {"playouts": total, "seconds": time.perf_counter() - t0,
                           "value": mean, "candidates": len(cands)}
        if stop_value is not None:
            self.last_stats["stop_value"] = stop_value
            bias = self.kk_bias
            if self.kk_mode == "either" and heur:
                bias += 0.01
            return cands[best] if mean + bias > stop_value else next(a for a in legal if isinstance(a, Stop))
        return cands[best]

    def _medium_scores(self, view, cands: list) -> list:
        """Medium's evaluation of each candidate play or stock choice."""
        if self._medium is None:
            self._medium = MediumPlayer(seed=self.seed)
        ev = self._medium._evaluator(view.rules, view.month)
        s = seen(view)
        if isinstance(cands[0], Play):
            return [self._medium._play_score(ev, s, *play_key(a)) for a in cands]
        return [self._medium._choose_score(ev, s, ID_TO_INDEX[a.target]) for a in cands]

    @staticmethod
    def _move_of(a) -> tuple:
        if isinstance(a, Play):
            return (0, ID_TO_INDEX[a.card], ID_TO_INDEX[a.target] if a.target else -1)
        if isinstance(a, ChooseMatch):
            return (1, ID_TO_INDEX[a.target], -1)
        return (2, -1, -1)

    @staticmethod
    def _template(view) -> Round:
        me = view.seat
        phase = {Phase.PLAY: PLAY, Phase.CHOOSE: CHOOSE, Phase.DECIDE: DECIDE}[view.phase]
        hands = [0, 0]
        hands[me] = view.hand_mask
        pending = view.pending.index if view.pending is not None else -1
        return Round(view.rules, hands, view.field_mask, [], view.captured_masks, view.calls,
                     view.koikoi_refs, view.to_move, phase, pending, view.field_brights,
                     view.dealer, view.month)


def hidden(view, infer: Optional[float]) -> tuple:
    """What ``view``'s seat deals at each sample, as a pair: the cards it cannot see, lowest
    index first (the stock card waiting for its choice is face up, so it is not one), and
    the mask of those of them in months the opponent passed (``View.passed``), or 0 when
    ``infer`` is None (a uniform deal). Hard's search and ``estimate`` both deal from it
    (``dealt``)."""
    unseen = view.unseen_mask
    if view.pending is not None:
        unseen &= ~(1 << view.pending.index)
    return list(bits(unseen)), (unseen & view.passed[1 - view.seat] if infer is not None else 0)


def even_scale(cards: int) -> float:
    """How many times a decision with ``cards`` left in both hands may multiply the opening
    decision's playouts for the same cost (``HardPlayer(even=True)``)."""
    return max(1.0, min(EVEN_MAX, (OPEN_CARDS + EVEN_C) / (cards + EVEN_C)))


def played_out(base: Round, move: tuple, run, random) -> Round:
    """A copy of ``base`` with ``move`` made ((0, card, target) a play, (1, target) a stock
    choice, (2,) Koi-Koi), played to the end of the round by ``run`` with ``random``."""
    r = _made(base, move)
    run(r, random)
    return r


def _made(base: Round, move: tuple) -> Round:
    """A copy of ``base`` with ``move`` made."""
    r = base.copy()
    if move[0] == 0:
        r.play(move[1], move[2])
    elif move[0] == 1:
        r.choose(move[1])
    else:
        r.koikoi()
    return r


def to_question(base: Round, move: tuple, policy: Policy, random, me: int) -> Round:
    """A copy of ``base`` with ``move`` made and the mover's turn finished (its stock choice
    by the policy). If that turn puts the Koi-Koi question to the mover (``me``), the copy
    is returned at it (phase DECIDE, ``me`` to move): the caller values the question as a
    decision. Otherwise it is played to the end of the round by the policy."""
    r = _made(base, move)
    if move[0] == 2:
        return policy.run(r, random)
    while r.phase == CHOOSE and r.to_move == me:
        r.choose(policy.choose(r))
    if r.phase == DECIDE and r.to_move == me:
        return r
    return policy.run(r, random)


def question_values(r: Round, policy: Policy, random, score):
    """At the mover's Koi-Koi question ``r`` (consumed): (what the mover sees there, the
    exact score of stopping, the score of calling Koi-Koi and playing on with the policy).
    ``score(round)`` scores a finished round."""
    key = (r.cap[r.to_move], r.field)
    s = r.copy()
    s.stop()
    stop = score(s)
    r.koikoi()
    policy.run(r, random)
    return key, stop, score(r)


def resolve(records: list, pick=lambda v: v) -> list:
    """Each sample's value once every Koi-Koi question in ``records`` is answered as a
    decision. A record is ``(None, None, value)`` for a playout that ended without the
    question, or ``(key, stop, koikoi)``: the question seen as ``key``, its exact Stop score
    and one Koi-Koi playout's. Samples that saw the same question are one decision: the
    mover calls only when the mean Koi-Koi score beats Stop by more than its standard error
    (so that a few lucky playouts do not make the call look better than it is); the sample
    then counts its own Koi-Koi playout, else the exact Stop. ``pick`` maps a score to the
    number compared (the points of a (points, win) pair, for example)."""
    groups: dict = {}
    for k, st, kk in records:
        if k is not None:
            groups.setdefault(k, (pick(st), []))[1].append(pick(kk))
    call = {}
    for k, (stop, vals) in groups.items():
        n = len(vals)
        if n < 2:
            call[k] = False
            continue
        m = sum(vals) / n
        var = sum((x - m) ** 2 for x in vals) / (n - 1)
        call[k] = m - math.sqrt(var / n) > stop
    return [kk if k is None or call[k] else st for k, st, kk in records]


def noise_draws(template: Round, me: int, opp_n: int) -> int:
    """About the policy noise a playout from ``template`` draws (one a card of the hand
    to play, each turn, both seats): how many of a sample's draws its candidates share
    (``playout.noise_streams``; more are drawn as needed)."""
    h0, h1 = template.hands[me].bit_count(), opp_n
    return h0 * (h0 + 1) // 2 + h1 * (h1 + 1) // 2


def dealt(template: Round, pool: list, opp: int, opp_n: int, unlikely: int = 0,
          escape: float = 0.0, rand=None) -> Round:
    """A copy of ``template`` with the hidden cards dealt from ``pool`` (the unseen cards,
    already shuffled): ``opp_n`` to the hand of ``opp``, the rest the stock in pool order.
    The ``unlikely`` cards (a mask of pool cards: the months ``opp`` passed, ``View.passed``)
    go to that hand only once every other card has gone, except that each one, with the
    chance ``escape`` (drawn from ``rand()``), is dealt as freely as any other; with none,
    ``rand`` is never called. Hard's search and ``estimate`` (the review's and the coach's
    values) deal through this one function, so they read the table alike."""
    r = template.copy()
    if unlikely:
        # the likely cards first (an unlikely one with the chance ``escape``), each group
        # in the shuffled order; the stock is the rest in that order
        hand = [c for c in pool if not unlikely >> c & 1 or rand() < escape][:opp_n]
        if len(hand) < opp_n:
            hand += [c for c in pool if c not in hand][:opp_n - len(hand)]
        h = sum(_BIT[c] for c in hand)
        r.hands[opp] = h
        r.stock = [c for c in pool if not h >> c & 1]
    else:
        r.hands[opp] = sum(_BIT[c] for c in pool[:opp_n])
        r.stock = pool[opp_n:]
    r.sp = 0
    return r


def search(template: Round, pool: list, opp_n: int, me: int, moves: list, value, policy: Policy,
           rng: random.Random, sims: Optional[int], budget: float, t0: float,
           anchor: Optional[int] = None, z: float = 1.0, ceiling: bool = False,
           unlikely: int = 0, escape: float = 0.0):
    """Determinized Monte-Carlo with successive halving and common random numbers.

    ``template`` is the round as the deciding seat ``me`` sees it (the opponent's hand and
    the stock empty); ``pool`` the unseen cards; ``moves`` the candidates as (0, card,
    target) plays, (1, target) stock choices or (2,) Koi-Koi. ``value(winner, points,
    last_yaku_seat)`` scores a finished round. Every candidate is played on the same
    samples with the same stream of policy noise, so their differences are measured
    pair by pair. ``anchor`` (a candidate index) is never pruned and is kept unless the
    best candidate beats it by more than ``z`` standard errors of the paired difference.
    With ``sims`` the search plays that many playouts (deterministic for ``rng``), or
    stops early at ``budget`` seconds if ``ceiling``; otherwise ``budget`` alone bounds it.
    A candidate whose turn puts the Koi-Koi question to ``me`` is valued with that question
    answered as a decision (``resolve``: the exact Stop, or Koi-Koi where its playouts
    show it better), not by the playout policy's call. ``unlikely`` (a mask of pool cards)
    are dealt to the opponent's hand only after the rest, each as freely as any other with
    the chance ``escape`` (``HardPlayer``: the months it passed, ``INFER``).
    Returns (best index, its mean, playouts).
    """
    opp = 1 - me
    pool = list(pool)

    def sample() -> Round:
        shuffle(rng, pool)
        return dealt(template, pool, opp, opp_n, unlikely, escape, rng.random)

    def score(r: Round) -> float:
        return value(r.winner, r.points, r.last_yaku_seat)

    def evaluate(i: int, base: Round, noise) -> tuple:
        rand = noise()
        r = to_question(base, moves[i], policy, rand, me)
        if r.phase == DECIDE:        # the mover's own Koi-Koi question: valued as a decision
            return question_values(r, policy, rand, score)
        return (None, None, score(r))

    n = len(moves)
    alive = list(range(n))
    draws = noise_draws(template, me, opp_n)
    records = [[] for _ in range(n)]     # per candidate, one record a sample (``resolve``)

    def one_sample() -> int:
        base = sample()
        noise = noise_streams(rng.getrandbits(48), draws)
        for i in alive:
            records[i].append(evaluate(i, base, noise))
        return len(alive)

    def mean(i: int) -> float:
        vals = resolve(records[i])
        return sum(vals) / len(vals)

    phases = max(1, math.ceil(math.log2(n))) if n > 1 else 1
    total = 0
    clock = time.perf_counter
    for p in range(phases):
        if sims is not None:
            per = max(2, (sims // phases) // len(alive))
            for _ in range(per):
                total += one_sample()
                if ceiling and clock() > t0 + budget:
                    break
        else:
            end = t0 + budget * (p + 1) / phases
            done = 0
            while done < 2 or clock() < end:
                total += one_sample()
                done += 1
                if clock() > t0 + 1.8 * budget:   # a hard ceiling whatever happens
                    break
        if p < phases - 1 and len(alive) > 1:
            means = {i: mean(i) for i in alive}
            alive.sort(key=lambda i: (-means[i], i))
            keep = alive[:max(1, (len(alive) + 1) // 2)]
            if anchor is not None and anchor not in keep:
                keep.append(anchor)
            alive = sorted(keep)
    means = {i: mean(i) for i in alive}
    best = max(alive, key=lambda i: (means[i], -i))
    if anchor is not None and best != anchor:
        vb = resolve(records[best])
        va = resolve(records[anchor])
        k = len(vb)
        diffs = [x - y for x, y in zip(vb, va)]
        d = sum(diffs) / k
        var = max(0.0, sum(x * x for x in diffs) / k - d * d)
        if d <= z * math.sqrt(var / k):
            best = anchor
    return best, means[best], total


# ---------------------------------------------------------------- every option's value

class Estimate(NamedTuple):
    """One option's value for the deciding seat, from ``estimate``."""

    points: float        # mean round point difference (its award minus the opponent's)
    win: float           # mean chance of winning the match after the round
    spread: float        # standard error of (best option's points - this one's), paired
    won: float = 0.0     # chance the deciding seat wins the round (scores points in it)
    lost: float = 0.0    # chance the opponent wins it


def estimate_rng(view, seed: int = 0, samples: int = 0) -> random.Random:
    """A generator keyed only by what ``view`` shows (and ``seed``, ``samples``): two views
    that show the same give the same stream whatever the hidden cards are."""
    key = (f"estimate|{seed}|{samples}|{view.rules.name}|{view.seat}|{view.round}|{view.months}|"
           f"{view.phase}|{view.to_move}|{view.dealer}|{view.hand_mask}|{view.field_mask}|"
           f"{view.captured_masks}|{view.calls}|{view.koikoi_refs}|{view.scores}|"
           f"{view.field_brights}|{view.opponent_hand_count}|{view.stock_count}|"
           f"{-1 if view.pending is None else view.pending.index}")
    return random.Random(key)


def estimate(view, actions: Sequence, *, samples: int, seed: int = 0, noise: float = 0.35,
             policy_kk: str = "ev", table: Optional[dict] = None, settled=None,
             check_every: int = 100, min_samples: int = 200,
             infer: Optional[float] = INFER) -> list:
    """Every one of ``actions`` (legal in ``view``) valued with Hard's machinery, no pruning.

    The hidden cards (``view.unseen_mask``: the opponent's hand and the stock) are dealt
    ``samples`` times at random, the opponent's hand mostly from the months it did not pass
    (``View.passed``, read as Hard reads it: ``infer`` is ``HardPlayer``'s, None deals
    uniformly; ``dealt``); each option is played on every deal to the end of the round
    in the lean simulator with the playout ``Policy`` for both seats and the same stream of
    policy noise (common random numbers), so two options are compared deal by deal. Stop is
    exact (its award); an option whose turn puts the Koi-Koi question to the seat is valued
    with that question answered as a decision (``resolve``, by points): the better of the
    exact Stop and the Koi-Koi playouts, never the playout policy's call. The generator is
    ``estimate_rng(view, seed, samples)``: the result depends on the View alone.

    ``settled(estimates)``: asked every ``check_every`` deals from ``min_samples`` on with
    the estimates so far; True ends the dealing there (what more deals would not change).
    It must depend on the estimates only, so that the same view is always valued alike.

    Returns one ``Estimate`` per action, in order; ``spread`` is against the option with
    the best mean points (0 for that one)."""
    if not actions:
        return []
    if samples < 1:
        raise ValueError(f"samples must be >= 1, not {samples!r}")
    rules = view.rules
    know = KnowledgeCache().get(rules, view.month)
    policy = Policy(know, noise=noise, kk=policy_kk)
    outcome = Outcome(view, WinProb(rules, shipped_table() if table is None else table))
    policy.final_scores = tuple(view.scores) if outcome.left == 0 else None
    me = view.seat
    n = len(actions)
    exact = [None] * n
    moves = []
    for i, a in enumerate(actions):
        if isinstance(a, Stop):
            exact[i] = outcome.points_and_win(me, view.award(me).total, me)
            moves.append(None)
        else:
            moves.append(HardPlayer._move_of(a))
    live = [i for i in range(n) if moves[i] is not None]
    records = [[] for _ in range(n)]
    if not live:
        return _summary(records, exact, live, 1)
    rng = estimate_rng(view, seed, samples)
    template = HardPlayer._template(view)
    template.last_yaku_seat = me if view.phase == Phase.DECIDE else -1
    pool, unlikely = hidden(view, infer)
    opp_n = view.opponent_hand_count
    opp = 1 - me
    escape = infer or 0.0
    draws = noise_draws(template, me, opp_n)
    pw = outcome.points_and_win

    def score(r: Round) -> tuple:
        return pw(r.winner, r.points, r.last_yaku_seat)

    for k in range(1, samples + 1):
        shuffle(rng, pool)
        base = dealt(template, pool, opp, opp_n, unlikely, escape, rng.random)
        noise = noise_streams(rng.getrandbits(48), draws)
        for i in live:
            rand = noise()
            r = to_question(base, moves[i], policy, rand, me)
            if r.phase == DECIDE:
                records[i].append(question_values(r, policy, rand, score))
            else:
                records[i].append((None, None, score(r)))
        if settled is not None and k < samples and k >= min_samples and k % check_every == 0:
            if settled(_summary(records, exact, live, k)):
                break
    return _summary(records, exact, live, len(records[live[0]]))


def _summary(records: list, exact: list, live: list, k: int) -> list:
    """The Estimates of ``k`` deals' records (``estimate``)."""
    n = len(records)
    pts = [[] for _ in range(n)]
    wins = [[] for _ in range(n)]
    for i in live:
        for p, w in resolve(records[i], pick=lambda v: v[0]):
            pts[i].append(p)
            wins[i].append(w)
    for i in range(n):
        if exact[i] is not None:
            pts[i] = [exact[i][0]] * k
            wins[i] = [exact[i][1]] * k
    mean_p = [sum(v) / k for v in pts]
    mean_w = [sum(v) / k for v in wins]
    best = max(range(n), key=lambda i: (mean_p[i], mean_w[i], -i))

    def paired_se(vals: list, i: int) -> float:
        if i == best or k < 2:
            return 0.0
        d = [a - b for a, b in zip(vals[best], vals[i])]
        m = sum(d) / k
        var = sum((x - m) ** 2 for x in d) / (k - 1)
        return math.sqrt(var / k)

    won = [sum(p > 0 for p in v) / k for v in pts]
    lost = [sum(p < 0 for p in v) / k for v in pts]
    return [Estimate(mean_p[i], mean_w[i], paired_se(pts, i), won[i], lost[i]) for i in range(n)]
