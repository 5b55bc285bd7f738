"""Why a decision was good or not, in one or two short sentences with cards by name.

``explain(view, decision)`` reads only the deciding seat's View (its hand, the
field, both capture piles, which are public, the counts) and the decision's
values; every fact it states is true of that position:

* what the chosen move leaves on the field for the opponent: a card that would
  make or raise one of the opponent's yaku ("feeds the opponent's Sankō: the
  Moon would be its third bright");
* what the best move takes: a card that makes or raises your yaku ("takes the
  Moon, your third bright: Sankō"), one the opponent needs, or one that brings
  a yaku within a card;
* what the best move keeps safe: a discard no one else can ever take (every other card of
  its month is taken or in your hand), or a card kept in hand for one of its month still to
  come that matters ("keeping a Peony plain in hand to take Butterflies if it turns up");
* when the chosen move takes the same cards, the difference: which card of the month goes
  to the pile now ("Your move takes Cuckoo too, but this puts the Wisteria ribbon in your
  pile now");
* when nothing on the table names the difference, how often each move wins the round
  (``Option.won``/``lost``: "From it you win the round about 52% of the time, against 41%");
* "About equal" when the two moves are within the evaluator's noise (``within_noise``: the
  gap is at most NOISE_Z = 2 paired standard errors, the bound that keeps the verdict GOOD);
* for Koi-Koi or Stop: the award now, how many cards would raise your yaku and
  whether the opponent is one card from a yaku, with how many of the cards that
  would make it are still unseen ("Stop: 10 points now; the opponent needed one
  card for Inoshikachō, with 1 of 1 unseen").

Every text is a whole sentence template inside ``_()`` / ``_n()`` (koikoi.narration's
markers), or an ``N_()`` entry of the tables below translated where it is used, filled
with ``.format``; a reason of two sentences (the chosen move's problem, then the better
move) joins two such sentences through the "{problem} {better}" template.
"""

from __future__ import annotations

from typing import Optional

from ..engine import ChooseMatch, KoiKoi, Play, Stop
from ..engine.cards import ALL, BRIGHTS, CHAFF, IDS, ids_of
from ..i18n import N_, _, _n
from ..narration import card_name, cards_text, join, plant_name, yaku_label
from . import facts
from .model import FORCED, GOOD, NOISE_Z

_BRIGHT_YAKU = frozenset(("sanko", "shiko", "ame_shiko", "goko"))
_NTH = (N_("first"), N_("second"), N_("third"), N_("fourth"), N_("fifth"))


def _yaku_names(names, style: str) -> str:
    return join([yaku_label(n, style) for n in names])


def _bright_phrase(v, pile_after: int, card_mask: int) -> Optional[tuple]:
    """(the bright among ``card_mask``, its ordinal word in ``pile_after``), if one."""
    b = card_mask & BRIGHTS
    if not b:
        return None
    n = (pile_after & BRIGHTS).bit_count()
    c = (b & -b).bit_length() - 1
    return IDS[c], _(_NTH[max(1, min(5, n)) - 1])


# ---------------------------------------------------------------- the sentences
#
# A reason is one or two whole sentences, each one template below (a translator sees
# the sentence, never a clause glued into another). The chosen move's problem is its
# own sentence ("This feeds ..."); the better move and what it does are one sentence,
# picked by what the move does (``kind``) and where it is said (the table).

# The problem with the chosen move: what it leaves on the field for the opponent.
_PROBLEM = {
    # TRANSLATORS: {nth} is an ordinal word ("third"); {yaku}: one or more yaku names.
    "feeds": N_("This feeds {opponent}'s {yaku}: {card} would be its {nth} bright."),
    "leaves": N_("This leaves {card} on the field, which would give {opponent} {yaku}."),
    "puts": N_("This puts {card} on the field, where {opponent} may take it."),
}

# What a move's capture does. "good": said of the chosen move when it was the best;
# "better": of the best move, after a problem sentence; "better_loss": of the best
# move, with how much more it is worth. {move} is a move in a few words ("play Geese,
# taking the Moon"); {cards}: the cards taken, listed; {nth} an ordinal word.
_GAINS = {
    "good": {
        "bright": N_("Good: it takes {card}, your {nth} bright: {yaku}."),
        "made": N_("Good: it takes {cards}, completing {yaku}."),
        "added": N_("Good: it takes {cards}, adding to your {yaku}."),
        "deny": N_("Good: it takes {card} before {opponent} can: it would give them {yaku}."),
        "near": N_("Good: it takes {cards}: one card from {yaku}."),
        "plain": N_("Good: it takes {cards}."),
    },
    "better": {
        "bright": N_("Better: {move}, which takes {card}, your {nth} bright: {yaku}."),
        "made": N_("Better: {move}, which takes {cards}, completing {yaku}."),
        "added": N_("Better: {move}, which takes {cards}, adding to your {yaku}."),
        "deny": N_("Better: {move}, which takes {card} before {opponent} can: "
                   "it would give them {yaku}."),
        "near": N_("Better: {move}, which takes {cards}: one card from {yaku}."),
        "plain": N_("Better: {move}, which takes {cards}."),
        "only": N_("Better: {move}, which puts only {card} on the field."),
    },
    "better_loss": {
        "bright": N_("Better: {move}, which takes {card}, your {nth} bright: {yaku} "
                     "(about {loss} points more)."),
        "made": N_("Better: {move}, which takes {cards}, completing {yaku} "
                   "(about {loss} points more)."),
        "added": N_("Better: {move}, which takes {cards}, adding to your {yaku} "
                    "(about {loss} points more)."),
        "deny": N_("Better: {move}, which takes {card} before {opponent} can: "
                   "it would give them {yaku} (about {loss} points more)."),
        "near": N_("Better: {move}, which takes {cards}: one card from {yaku} "
                   "(about {loss} points more)."),
        "plain": N_("Better: {move}, which takes {cards} (about {loss} points more)."),
        "only": N_("Better: {move}, which puts only {card} on the field "
                   "(about {loss} points more)."),
    },
}

# The same, when the move's words already name the card it takes ("take the Moon with
# Geese"): the sentence does not repeat it, and a plain take says nothing more.
_NAMED_GAINS = {
    "better": {
        "bright": N_("Better: {move}, {card} being your {nth} bright: {yaku}."),
        "made": N_("Better: {move}, completing {yaku}."),
        "added": N_("Better: {move}, adding to your {yaku}."),
        "deny": N_("Better: {move}, before {opponent} can: {card} would give them {yaku}."),
        "near": N_("Better: {move}, one card from {yaku} after it."),
    },
    "better_loss": {
        "bright": N_("Better: {move}, {card} being your {nth} bright: {yaku} "
                     "(about {loss} points more)."),
        "made": N_("Better: {move}, completing {yaku} (about {loss} points more)."),
        "added": N_("Better: {move}, adding to your {yaku} (about {loss} points more)."),
        "deny": N_("Better: {move}, before {opponent} can: {card} would give them {yaku} "
                   "(about {loss} points more)."),
        "near": N_("Better: {move}, one card from {yaku} after it (about {loss} points more)."),
    },
}


def _feeds(v, action, opp: str, style: str) -> Optional[tuple]:
    """What the move leaves on the field that would make or raise the opponent's yaku:
    (``_PROBLEM`` key, its fields), or None."""
    me = v.seat
    theirs = v.captured_masks[1 - me]
    _taken, dumped, left = facts.takes(v, action)
    cards = left | ((1 << dumped) if dumped >= 0 else 0)
    cards &= facts.takeable(v, cards)
    m = cards
    while m:
        low = m & -m
        m ^= low
        names = facts.raised(v, theirs, theirs | low, 1 - me)
        if not names:
            continue
        c = IDS[low.bit_length() - 1]
        bright = _bright_phrase(v, theirs | low, low) if _BRIGHT_YAKU & set(names) else None
        if bright:
            return "feeds", dict(opponent=opp, yaku=_yaku_names(names, style),
                                 card=card_name(c, style), nth=bright[1])
        return "leaves", dict(card=card_name(c, style), opponent=opp,
                              yaku=_yaku_names(names, style))
    if dumped >= 0 and (1 << dumped) & ~CHAFF & cards:
        return "puts", dict(card=card_name(IDS[dumped], style), opponent=opp)
    return None


def _gains(v, action, opp: str, style: str, named: bool = False) -> Optional[tuple]:
    """What the move's capture does: makes or raises a yaku of yours, takes a card the
    opponent needs, brings a yaku within a card: (a ``_GAINS`` key, its fields), or None.
    ``named``: the move's words already name the card it takes, so a plain take is
    None (the sentence comes from ``_NAMED_GAINS``)."""
    me = v.seat
    mine, theirs = v.captured_masks[me], v.captured_masks[1 - me]
    taken, _dumped, _left = facts.takes(v, action)
    if not taken:
        return None
    names = facts.raised(v, mine, mine | taken, me)
    field_cards = taken & v.field_mask
    shown = ids_of(field_cards) or ids_of(taken)
    cards = cards_text(shown, style)
    if names:
        bright = _bright_phrase(v, mine | taken, taken) if _BRIGHT_YAKU & set(names) else None
        yaku = _yaku_names(names, style)
        if bright:
            return "bright", dict(card=card_name(bright[0], style), nth=bright[1], yaku=yaku)
        held = facts.yaku_of(v, mine, me)
        made = [n for n in names if n not in held]
        # The cards that raise it: a Cherry poetry ribbon played onto a Cherry plain adds
        # to a Tanzaku, not the plain it takes.
        raising = facts.raising(v, mine, taken, me, made or names)
        if raising & v.field_mask and not raising & ~v.field_mask & ~CHAFF:
            raising &= v.field_mask      # a plain played onto a plain: the one it takes
        if raising:
            cards = cards_text(ids_of(raising), style)
        if made:
            return "made", dict(cards=cards, yaku=_yaku_names(made, style))
        return "added", dict(cards=cards, yaku=yaku)
    m = field_cards
    while m:
        low = m & -m
        m ^= low
        need = facts.raised(v, theirs, theirs | low, 1 - me)
        if need:
            return "deny", dict(card=card_name(IDS[low.bit_length() - 1], style), opponent=opp,
                                yaku=_yaku_names(need, style))
    avail = ALL & ~(mine | theirs | taken)
    before = set(facts.one_away(v, mine, me, avail | taken))
    after = facts.one_away(v, mine | taken, me, avail)
    near = [n for n in after if n not in before]
    if near:
        return "near", dict(cards=cards, yaku=_yaku_names(near, style))
    if named:
        return None
    return "plain", dict(cards=cards)


def move_text(action, style: str = "both", v=None) -> str:
    """The move in a few words: "play Geese, taking the Moon", "Koi-Koi"."""
    if isinstance(action, Play):
        if action.target:
            return _("play {card}, taking {target}").format(card=card_name(action.card, style),
                                                            target=card_name(action.target, style))
        return _("play {card}").format(card=card_name(action.card, style))
    if isinstance(action, ChooseMatch):
        if v is not None and v.pending is not None:
            return _("take {target} with {card}").format(target=card_name(action.target, style),
                                                         card=card_name(v.pending.id, style))
        return _("take {target}").format(target=card_name(action.target, style))
    if isinstance(action, KoiKoi):
        return _("Koi-Koi")
    if isinstance(action, Stop):
        return _("Stop")
    return str(action)


def _points(x: float) -> str:
    return "{:.1f}".format(abs(x))


# ---------------------------------------------------------------- Koi-Koi or Stop

def _decide(v, d, opp: str, style: str) -> str:
    me = v.seat
    values = {type(o.action): o.points for o in d.options}
    threat = facts.threat(v)
    if threat:
        threat["their_yaku"] = yaku_label(threat["their_yaku"], style)
    if isinstance(d.best, Stop):
        stop_pts = v.award(me).total
        if threat:
            # TRANSLATORS: {unseen} of {outs}: how many of the cards that would make the
            # opponent's yaku {their_yaku} are not seen yet.
            return _n("Stop: {points} point now; {opponent} needed one card for {their_yaku}, "
                      "with {unseen} of {outs} unseen.",
                      "Stop: {points} points now; {opponent} needed one card for {their_yaku}, "
                      "with {unseen} of {outs} unseen.",
                      stop_pts).format(points=stop_pts, opponent=opp, **threat)
        return _n("Stop: {points} point now; playing on is worth about {kk} on average.",
                  "Stop: {points} points now; playing on is worth about {kk} on average.",
                  stop_pts).format(points=stop_pts, kk=_signed(values.get(KoiKoi, 0.0)))
    near = facts.near(v, me)
    hand = v.hand_mask
    in_hand = {name: m & hand for name, m in near.items() if m & hand}
    if in_hand:
        cards = 0
        for m in in_hand.values():
            cards |= m
        fields = dict(cards=cards_text(ids_of(cards), style),
                      yaku=_yaku_names(sorted(in_hand), style), opponent=opp)
        if threat:
            return _("Koi-Koi: your hand still holds {cards}, for {yaku}; {opponent} is one card "
                     "from {their_yaku}, with {unseen} of {outs} unseen.").format(**fields, **threat)
        return _("Koi-Koi: your hand still holds {cards}, for {yaku}; "
                 "{opponent} has no yaku near.").format(**fields)
    outs = 0
    for m in near.values():
        outs |= m
    k = outs.bit_count()
    # TRANSLATORS: the number of cards in the hand, put in the sentences below as {held}.
    held = _n("{n} card", "{n} cards", hand.bit_count()).format(n=hand.bit_count())
    if threat:
        # TRANSLATORS: {held}: "3 cards"; {k}: the cards that would raise a yaku of yours.
        return _n("Koi-Koi: your hand still holds {held} and {k} card would raise your yaku; "
                  "{opponent} is one card from {their_yaku}, with {unseen} of {outs} unseen.",
                  "Koi-Koi: your hand still holds {held} and {k} cards would raise your yaku; "
                  "{opponent} is one card from {their_yaku}, with {unseen} of {outs} unseen.",
                  k).format(held=held, k=k, opponent=opp, **threat)
    return _n("Koi-Koi: your hand still holds {held} and {k} card would raise your yaku; "
              "{opponent} has no yaku near.",
              "Koi-Koi: your hand still holds {held} and {k} cards would raise your yaku; "
              "{opponent} has no yaku near.", k).format(held=held, k=k, opponent=opp)


def _signed(x: float) -> str:
    return ("{:+.1f}").format(x)


# ---------------------------------------------------------------- any decision

def within_noise(d, option=None) -> bool:
    """Whether ``option`` (the chosen one by default) is within the evaluator's noise of the
    best: its loss is at most NOISE_Z standard errors of the paired gap, the same bound that
    keeps the verdict GOOD (``analysis.verdict_of``): the deals cannot tell the two apart."""
    action = d.chosen if option is None else option
    o = _option(d, action)
    best = _option(d, d.best)
    if o is None or best is None or action == d.best:
        return True
    gap = max(0.0, best.points - o.points)
    return gap <= NOISE_Z * o.spread


def _option(d, action):
    return next((o for o in d.options if o.action == action), None)


def _percent(x: float) -> int:
    return int(round(100 * x))


# Said when nothing on the table names the difference: how often each move wins the round.
_CHANCES = {
    # TRANSLATORS: {won} and {theirs}: whole percentages (45 for 45%).
    "good": N_("Good: the best choice here. From it you win the round about {won}% of the time, "
               "{opponent} about {theirs}%."),
    "won": N_("Better: {move}. From it you win the round about {won}% of the time, against "
              "{was}% after your move (about {loss} points more)."),
    "lost": N_("Better: {move}. After it {opponent} wins the round about {theirs}% of the time, "
               "against {was}% after your move (about {loss} points more)."),
    "points": N_("Better: {move}. It wins as often as your move but with bigger yaku: about "
                 "{loss} points more a round on average."),
}


def _chances(v, d, opp: str, style: str) -> str:
    """The best move against the chosen one in chances of winning the round, in words."""
    b, c = _option(d, d.best), _option(d, d.chosen)
    move = move_text(d.best, style, v)
    loss = _points(d.loss)
    if b is None or c is None or b.won is None or c.won is None:
        return _(_CHANCES["points"]).format(move=move, loss=loss)
    dw, dl = b.won - c.won, (c.lost or 0.0) - (b.lost or 0.0)
    if max(dw, dl) < 0.02:
        return _(_CHANCES["points"]).format(move=move, loss=loss)
    if dw >= dl:
        return _(_CHANCES["won"]).format(move=move, won=_percent(b.won), was=_percent(c.won),
                                         loss=loss)
    return _(_CHANCES["lost"]).format(move=move, opponent=opp, theirs=_percent(b.lost or 0.0),
                                      was=_percent(c.lost or 0.0), loss=loss)


def _gains_over(v, best, chosen, opp: str, style: str, named: bool) -> Optional[tuple]:
    """What the best move's capture does that the chosen one's does not: ``_gains`` of the
    best, unless the chosen move gains the same (the same yaku, the same cards): then the
    difference is which card of the month goes to the pile ("banks"), or None."""
    why = _gains(v, best, opp, style, named=named)
    mine = _gains(v, chosen, opp, style, named=named)
    tb, tc = facts.takes(v, best)[0], facts.takes(v, chosen)[0]
    if why is not None and why[0] == "plain" and not (tb & ~tc & v.field_mask):
        why = None              # "which takes X": the chosen move takes X too
    if why is not None and why != mine:
        return why
    common = tb & tc & v.field_mask
    extra, other = tb & ~tc & ~v.field_mask, tc & ~tb & ~v.field_mask
    if common and extra and other:
        e, o = IDS[extra.bit_length() - 1], IDS[other.bit_length() - 1]
        kind = "banks" if extra & ~CHAFF else "banks_plain"
        return kind, dict(cards=cards_text(ids_of(common), style), card=card_name(e, style),
                          other=card_name(o, style))
    return None


_KEEPS = {
    "safe": N_("Better: {move}. {opponent} can never take {card} from the field: the other "
               "{plant} cards are taken or in your hand (about {loss} points more)."),
    "keeps": N_("Better: {move}, keeping {kept} in hand to take {wanted} if it turns up "
                "(about {loss} points more)."),
    "good_safe": N_("Good: {opponent} can never take {card} from the field: the other {plant} "
                    "cards are taken or in your hand."),
    "good_only": N_("Good: it gives away only {card}."),
}


def _keeps(v, d, opp: str, style: str) -> Optional[str]:
    """What the best move keeps safe, in words: a discard no one can take, or a card kept in
    hand for one still to come that matters. None when neither is so."""
    move = move_text(d.best, style, v)
    loss = _points(d.loss)
    safe = facts.safe_discard(v, d.best)
    if safe is not None and facts.safe_discard(v, d.chosen) is None:
        return _(_KEEPS["safe"]).format(move=move, opponent=_cap(opp), card=card_name(IDS[safe], style),
                                        plant=plant_name(facts.month_of(safe), style), loss=loss)
    kept = facts.played_card(d.chosen)
    if kept >= 0 and kept != facts.played_card(d.best):
        wanted = facts.wanted(v, kept)
        if wanted:
            return _(_KEEPS["keeps"]).format(move=move, kept=card_name(IDS[kept], style),
                                             wanted=_or_cards(wanted, style), loss=loss)
    return None


def _or_cards(mask: int, style: str) -> str:
    names = [card_name(c, style) for c in ids_of(mask)]
    if len(names) == 1:
        return names[0]
    text = names[-1]
    text = _("{first} or {last}").format(first=names[-2], last=text)
    for item in reversed(names[:-2]):
        text = _("{item}, {rest}").format(item=item, rest=text)
    return text


def _cap(text: str) -> str:
    """A sentence's first word: "the CPU" -> "The CPU" (a name stays as it is)."""
    return text[:1].upper() + text[1:] if text[:1].islower() else text


_EQUAL = {
    "play": N_("About equal to the best choice ({move}): the difference is smaller than the "
               "review can measure."),
    "decide": N_("About equal: Koi-Koi and Stop are worth about the same here ({chosen} {a}, "
                 "{other} {b} points on average); the difference is smaller than the review "
                 "can measure."),
}


def explain(v, d, *, opponent: Optional[str] = None, style: str = "both") -> str:
    """The reason shown with Decision ``d`` taken in View ``v``: what the better move makes,
    threatens, blocks or keeps safe, cards and yaku by name; "about equal" when the two
    are within the evaluator's noise (``within_noise``)."""
    opp = opponent or _("the opponent")
    if d.verdict == FORCED:
        return _("The only legal move.")
    close = d.verdict == GOOD and d.chosen != d.best and d.loss > 0
    if close and within_noise(d):
        if d.kind == "decide":
            c, b = _option(d, d.chosen), _option(d, d.best)
            return _(_EQUAL["decide"]).format(chosen=move_text(d.chosen, style, v),
                                              other=move_text(d.best, style, v),
                                              a=_signed(c.points), b=_signed(b.points))
        return _(_EQUAL["play"]).format(move=move_text(d.best, style, v))
    if d.kind == "decide":
        text = _decide(v, d, opp, style)
        if d.verdict != GOOD:
            return _("Better: {text}").format(text=text)
        return text
    if d.verdict == GOOD:
        if close:
            return _("Good: close to the best choice ({move}), about {loss} points less.").format(
                move=move_text(d.best, style, v), loss=_points(d.loss))
        why = _gains(v, d.chosen, opp, style)
        if why:
            return _(_GAINS["good"][why[0]]).format(**why[1])
        safe = facts.safe_discard(v, d.chosen)
        if safe is not None:
            return _(_KEEPS["good_safe"]).format(opponent=opp, card=card_name(IDS[safe], style),
                                                 plant=plant_name(facts.month_of(safe), style))
        _taken, dumped, _left = facts.takes(v, d.chosen)
        if dumped >= 0 and (1 << dumped) & CHAFF:
            return _(_KEEPS["good_only"]).format(card=card_name(IDS[dumped], style))
        b = _option(d, d.chosen)
        if b is not None and b.won is not None:
            return _(_CHANCES["good"]).format(won=_percent(b.won), opponent=opp,
                                              theirs=_percent(b.lost or 0.0))
        return _("Good: the best choice here.")
    problem = _feeds(v, d.chosen, opp, style)
    if problem and _feeds(v, d.best, opp, style) == problem:
        problem = None          # the best move leaves it there too: not the difference
    targeted = isinstance(d.best, ChooseMatch) or (isinstance(d.best, Play) and d.best.target)
    why = _gains_over(v, d.best, d.chosen, opp, style, named=bool(targeted))
    if why is None and problem:
        _taken, dumped, _left = facts.takes(v, d.best)
        if dumped >= 0 and not _feeds(v, d.best, opp, style):
            why = "only", dict(card=card_name(IDS[dumped], style))
            targeted = False
    move = move_text(d.best, style, v)
    loss = _points(d.loss)
    if why and why[0].startswith("banks"):
        better = _(_BANKS[why[0]]).format(move=move, loss=loss, **why[1])
        if problem:
            return _("{problem} {better}").format(problem=_(_PROBLEM[problem[0]]).format(**problem[1]),
                                                  better=better)
        return better
    if problem:
        if why:
            table = _NAMED_GAINS if targeted else _GAINS
            better = _(table["better"][why[0]]).format(move=move, **why[1])
        else:
            better = _keeps(v, d, opp, style) or _chances(v, d, opp, style)
        # TRANSLATORS: two whole sentences, the problem with the move and the better move.
        return _("{problem} {better}").format(problem=_(_PROBLEM[problem[0]]).format(**problem[1]),
                                              better=better)
    if why:
        table = _NAMED_GAINS if targeted else _GAINS
        return _(table["better_loss"][why[0]]).format(move=move, loss=loss, **why[1])
    return _keeps(v, d, opp, style) or _chances(v, d, opp, style)


# The best move takes what the chosen one takes, with another card of the month: the
# difference is the card that goes to the pile now.
_BANKS = {
    "banks": N_("Better: {move}. Your move takes {cards} too, but this puts {card} in your "
                "pile now instead of {other} (about {loss} points more)."),
    "banks_plain": N_("Better: {move}. Your move takes {cards} too, but this keeps {other} in "
                      "your hand and puts {card} in your pile instead (about {loss} points more)."),
}
