"""Glicko-2 ratings through the glicko2 library (no formula written here).

A quick match is one rating period for both players: the winner scores 1, the
loser 0; a claimed match (the other left) is a loss for the one who left.
"""
from __future__ import annotations

from dataclasses import dataclass

import glicko2

DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOL = 0.06
MIN_RD = 30.0            # a long-standing player's deviation never reaches 0


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    vol: float = DEFAULT_VOL


def _player(r: Rating) -> glicko2.Player:
    return glicko2.Player(rating=r.rating, rd=r.rd, vol=r.vol)


def _rating(p: glicko2.Player) -> Rating:
    return Rating(p.getRating(), max(MIN_RD, p.getRd()), p.vol)


def update(player: Rating, results: list[tuple[Rating, float]]) -> Rating:
    """The player's rating after one period against the given (opponent, score)s."""
    p = _player(player)
    if not results:
        p.did_not_compete()
    else:
        p.update_player([o.rating for o, _ in results], [o.rd for o, _ in results],
                        [float(s) for _, s in results])
    return _rating(p)


def after_match(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """(winner's new rating, loser's new rating), both computed from the old pair."""
    return update(winner, [(loser, 1.0)]), update(loser, [(winner, 0.0)])


def after_draw(a: Rating, b: Rating) -> tuple[Rating, Rating]:
    """(a's new rating, b's new rating) after a drawn match: half a win each."""
    return update(a, [(b, 0.5)]), update(b, [(a, 0.5)])
