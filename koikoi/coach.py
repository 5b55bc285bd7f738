"""The Koi-Koi coach: how risky is playing on? Estimated from what you can see.

``risk(view, samples=200, seed=0)`` deals the cards hidden from ``view.seat``
(the opponent's hand and the stock, ``view.unseen_mask``) at random many
times into a ``koikoi.ai.sim.Round`` (``sim.from_view`` + ``sim.deal_hidden``:
everything else is what the View shows), calls Koi-Koi for the seat when it
is at its decision (the simulator's own ``Round.koikoi``), and plays on with
the simulator's rules and its playout policy for both seats
(``ai.playout.Policy.until_yaku``) until the first of:

* the opponent makes or improves a yaku (the engine would offer it Koi-Koi or
  Stop, or the rules stop the round for it): it can take the round;
* the seat improves its own yaku: it can stop then (the coach's plan: play on
  once, stop at the next chance);
* the round runs out with nobody stopping: the seat's yaku score nothing.

The answer is an ``Odds``: a float, the share of deals that end the first way,
with the rest of the picture as attributes (the part before the seat's hand
runs out, the share the seat improves first, whether its hand is already
empty, whether the opponent already holds a yaku). It never reads a hidden
card: two views that show the same thing give the same answer. Every rule
(matching, the stock choice, ``must_play_match``, ``prompt_when`` via
``scoring.improved``, the auto-stop knobs, weather, rain-break, tsuki-fuda in the
round's month, the viewing yaku's value after a call) is the simulator's, which
tests/ai/test_sim.py and tests/ai/test_coach_cross.py check against the engine.
"""

from __future__ import annotations

import random
from typing import Optional

from .ai.knowledge import Knowledge
from .ai.playout import Policy
from .ai.sim import DECIDE, DONE, bits, deal_hidden, from_view, points_fn
from .engine.phase import Phase
from .i18n import _
from .engine.actions import KoiKoi, Stop
from .review.analysis import SEED, analyse_decision

_POLICIES: dict = {}   # (id(rules), month) -> (rules, Policy): read-only once built, safe to share


def _policy(rules, month: int = 0) -> Policy:
    if not rules.tsuki_fuda:
        month = 0              # the month matters only for tsuki-fuda
    key = (id(rules), month)
    hit = _POLICIES.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    pol = Policy(Knowledge(rules, month))
    if len(_POLICIES) > 32:
        _POLICIES.clear()
    _POLICIES[key] = (rules, pol)
    return pol


class Odds(float):
    """What playing on leads to, over the sampled deals. As a float: ``theirs``.

    theirs      the opponent makes or improves a yaku before the seat improves its own
                (by the end of the round)
    early       the part of ``theirs`` that happens while the seat still holds cards
    mine        the seat improves its yaku first (and can stop)
    runs_out    neither: the round ends with no yaku made, the seat's yaku unpaid
    hand_empty  the seat has no cards left: playing on cannot add to its yaku
    opp_holds   the opponent holds a yaku already (it can only improve it)
    samples     how many deals were played
    """

    def __new__(cls, theirs: float = 0.0, early: float = 0.0, mine: float = 0.0,
                runs_out: float = 0.0, hand_empty: bool = False, opp_holds: bool = False,
                samples: int = 0):
        self = super().__new__(cls, theirs)
        vars(self).update(early=early, mine=mine, runs_out=runs_out, hand_empty=hand_empty,
                          opp_holds=opp_holds, samples=samples)
        return self

    @property
    def theirs(self) -> float:
        return float(self)

    def __repr__(self) -> str:
        return (f"Odds(theirs={float(self):.3f}, early={self.early:.3f}, mine={self.mine:.3f}, "
                f"runs_out={self.runs_out:.3f}, hand_empty={self.hand_empty}, "
                f"opp_holds={self.opp_holds}, samples={self.samples})")


def risk(view, samples: int = 200, seed: int = 0) -> Odds:
    """The share of random deals of the hidden cards in which, if ``view.seat`` plays on,
    the opponent completes or improves a yaku before the seat improves its own (0..1), as
    an ``Odds`` that carries the rest of the picture."""
    me = view.seat
    opp = 1 - me
    rules = view.rules
    hand_empty = not view.hand_mask
    opp_holds = points_fn(rules, view.month)(view.captured_masks[opp], view.field_mask,
                                             view.calls[opp]) > 0
    if samples <= 0 or view.phase not in (Phase.PLAY, Phase.CHOOSE, Phase.DECIDE):
        return Odds(hand_empty=hand_empty, opp_holds=opp_holds)
    template = from_view(view)
    call = template.phase == DECIDE and template.to_move == me
    pool = list(bits(view.unseen_mask))
    opp_n = min(int(view.opponent_hand_count), len(pool))
    policy = _policy(rules, view.month)
    run = policy.until_yaku
    rng = random.Random(seed)
    rand = rng.random
    theirs = early = mine = 0
    for _i in range(samples):
        r = deal_hidden(template, me, pool, opp_n, rng)
        if call:
            r.koikoi()               # playing on: the call, by the simulator's rule
        run(r, rand)
        if r.phase == DECIDE:
            who = r.to_move
        elif r.phase == DONE:
            who = r.winner          # None: the round ran out
        else:                       # not reached: until_yaku returns at DECIDE or DONE
            who = None
        if who == opp:
            theirs += 1
            if r.hands[me]:
                early += 1
        elif who == me:
            mine += 1
    n = samples
    return Odds(theirs / n, early / n, mine / n, (n - theirs - mine) / n, hand_empty, opp_holds, n)


def summary(view, samples: int = 200, seed: int = 0) -> tuple:
    """(risk, what stopping pays now) for the Koi-Koi prompt's coach line."""
    return risk(view, samples, seed), view.award(view.seat).total


def advice(view, legal=None, budget: Optional[int] = None):
    """The coach's pick at a decision of ``view.seat`` (the Koi-Koi prompt above all): the
    review's own ``analyse_decision`` with the review's budget and seed, so the prompt and
    the review after the match give one answer from one evaluation of the same View. Returns
    that ``Decision``: ``.best`` the pick (Stop or Koi-Koi at a prompt), ``.reason`` why, in
    words, and ``.options`` every option's value. ``legal``: the legal actions (at a prompt,
    Koi-Koi and Stop, the default)."""
    if legal is None:
        legal = (KoiKoi(), Stop())
    legal = tuple(legal)
    return analyse_decision(view, legal, legal[0], budget=budget, seed=SEED)


def _pct(x: float) -> int:
    return int(round(x * 100))


def coach_line(p: float, pays: int, opponent: Optional[str] = None) -> str:
    """The prompt's line for ``p``: ``risk``'s Odds (a plain number is read as the share of
    deals in which the opponent completes a yaku before the seat's hand runs out).

    With cards in hand: the share before the hand runs out, and the share by the round's
    end when the opponent's last turn comes after the seat's and adds to it; "improves its
    yaku" when the opponent holds one already. With the hand empty, the seat has no turn
    left in which to be offered Stop again, so playing on can only lose what it holds: the
    line says so, and gives the share by the round's end (the rest run out unpaid).
    ``opponent``: who plays on against the seat ("the CPU" when not given). Translated,
    each case as one whole sentence."""
    if opponent is None:
        opponent = _("the CPU")
    if not isinstance(p, Odds):
        return _("Coach: {opponent} completes a yaku before your hand runs out in about {pct}% "
                 "of deals like this. Stop pays {pays} now.").format(opponent=opponent, pct=_pct(p), pays=pays)
    if p.hand_empty:
        # No turn is left to be offered Stop again: the yaku held score only if stopped now.
        if p.opp_holds:
            text = _("Coach: your hand is empty: play on and your yaku score nothing; {opponent} improves "
                     "its yaku in about {pct}% of deals like this. Stop pays {pays} now.")
        else:
            text = _("Coach: your hand is empty: play on and your yaku score nothing; {opponent} completes "
                     "a yaku in about {pct}% of deals like this. Stop pays {pays} now.")
        return text.format(opponent=opponent, pct=_pct(p), pays=pays)
    early, total = _pct(p.early), _pct(p)
    if total != early:
        if p.opp_holds:
            text = _("Coach: {opponent} improves its yaku before your hand runs out in about {early}% "
                     "({total}% by the round's end) of deals like this. Stop pays {pays} now.")
        else:
            text = _("Coach: {opponent} completes a yaku before your hand runs out in about {early}% "
                     "({total}% by the round's end) of deals like this. Stop pays {pays} now.")
    elif p.opp_holds:
        text = _("Coach: {opponent} improves its yaku before your hand runs out in about {early}% "
                 "of deals like this. Stop pays {pays} now.")
    else:
        text = _("Coach: {opponent} completes a yaku before your hand runs out in about {early}% "
                 "of deals like this. Stop pays {pays} now.")
    return text.format(opponent=opponent, early=early, total=total, pays=pays)


__all__ = ["Odds", "risk", "summary", "coach_line", "advice"]
