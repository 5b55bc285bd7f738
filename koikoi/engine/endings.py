"""Why a round ended: one reason per ending, read from its ledger row, the rules and the log.

A LedgerRow's ``reason`` says how the award came ("auto_stop": the rules stopped the round),
not which rule did it. ``ending`` names the rule: the last turn (the mover's hand empty, or
both hands), the Koi-Koi call limit, or a limit of none (the first yaku ends the round), and
the card whose capture made the deciding yaku. Every sentence a player reads about why a
round ended (the round's result, the ledger's details, the review) comes from ``REASONS``
through ``koikoi.narration.why_ended``.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from .events import Chose, Flipped, Played, RoundDealt, RoundEnded, YakuMade

# Every reason a round can end for, in the order a player meets them.
REASONS = (
    "stop",             # the winner chose to stop (shōbu), ``calls`` Koi-Koi calls before
    "last_turn",        # a yaku on the mover's last turn, their hand empty: it scores at once
    "last_turn_both",   # a yaku on the round's last turn, both hands empty: it scores at once
    "call_limit",       # a yaku once the round's Koi-Koi calls reached ``limit``
    "first_yaku",       # no Koi-Koi allowed (a limit of 0): the first yaku ends the round
    "lucky_hand",       # the winner was dealt a lucky hand (teshi, kuttsuki)
    "lucky_draw",       # both seats were dealt one: nobody scores
    "field_four",       # all four cards of a month in the opening field: the dealer wins
    "dealer_privilege",  # the hands ran out with no yaku; the dealer's privilege (oya-ken) pays
    "no_game",          # the hands ran out with no yaku and no privilege: no points
)


class Ending(NamedTuple):
    reason: str                 # one of REASONS
    seat: Optional[int]         # who won the round (None: no game, a draw)
    calls: int                  # the winner's Koi-Koi calls this round
    limit: Optional[int]        # the rules' Koi-Koi call limit (None: unlimited)
    card: Optional[str] = None  # the card whose capture made the deciding yaku, when the log tells


def round_events(events, round_no: int) -> tuple:
    """The events of round ``round_no`` (1-based): its deal up to its end; () when not in ``events``."""
    out: list = []
    inside = False
    for e in events:
        if isinstance(e, RoundDealt):
            inside = e.round == round_no
            out = []
        if inside:
            out.append(e)
            if isinstance(e, RoundEnded):
                return tuple(out)
    return tuple(out) if inside else ()


def _deciding_card(events, seat: int) -> Optional[str]:
    """The card whose capture made ``seat``'s last YakuMade: the capture just before it."""
    last = card = None
    for e in events:
        if isinstance(e, (Played, Flipped, Chose)) and e.seat == seat:
            if isinstance(e, Chose) or e.taken:
                last = e.card
        elif isinstance(e, YakuMade) and e.seat == seat:
            card = last
    return card


def ending(row, rules, events=()) -> Ending:
    """Why the round of ``row`` (a LedgerRow) ended under ``rules``. ``events``: the match's log
    or the round's (``round_events``); without it an automatic stop is told apart by the calls."""
    seat = row.winner
    calls = row.calls[seat] if seat is not None else 0
    limit = rules.max_koikoi_calls

    def made(reason: str, card: Optional[str] = None) -> Ending:
        return Ending(reason, seat, calls, limit, card)

    if row.reason == "stop":
        return made("stop")
    if row.reason == "lucky_draw":
        return made("lucky_draw")
    if row.reason in ("lucky_hand", "field_four"):
        return made(row.reason)
    if row.reason == "exhausted":
        return made("dealer_privilege" if seat is not None and row.award else "no_game")
    if row.reason != "auto_stop" or seat is None:
        return made("no_game" if seat is None else "stop")
    mine = round_events(events, row.round) if events else ()
    card = _deciding_card(mine, seat) if mine else None
    if limit == 0:
        return made("first_yaku", card)
    if limit is not None and sum(row.calls) >= limit:
        return made("call_limit", card)
    both = rules.last_turn_auto_stop == "both_hands_empty"
    return made("last_turn_both" if both else "last_turn", card)
