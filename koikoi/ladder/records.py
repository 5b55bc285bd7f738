"""What the ladder's store hands back: profiles, rated matches, rating history points and
room locations (frozen values, read from the rows of ``koikoi.ladder.store``), and its errors.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .ratings import Rating


class LadderError(Exception):
    """A refusal the operator or the server reports as it is."""


class KeyReplaced(LadderError):
    """The key was replaced by the operator (a stolen-key report): refuse it."""


@dataclass(frozen=True)
class Profile:
    player_id: str
    name: str
    created: float
    matches: int
    wins: int
    rating: Rating
    key_hash: str = ""
    replaced_by: Optional[str] = None
    draws: int = 0

    @property
    def losses(self) -> int:
        return self.matches - self.wins - self.draws

    def public(self) -> dict:
        """What the protocol may show anyone: no key hash, no hidden data."""
        return {"id": self.player_id, "name": self.name, "matches": self.matches,
                "wins": self.wins, "draws": self.draws, "rating": round(self.rating.rating),
                "rd": round(self.rating.rd)}


@dataclass(frozen=True)
class MatchResult:
    match_id: str
    winner: Profile
    loser: Profile
    winner_before: float
    loser_before: float


@dataclass(frozen=True)
class HistoryPoint:
    match_id: str
    finished: float
    rating: float
    opponent_id: str
    won: bool
    draw: bool = False


@dataclass(frozen=True)
class RoomLocation:
    code: str
    process: str
    address: str


PROFILE_COLUMNS = "player_id, name, created, matches, wins, rating, rd, vol, key_hash, replaced_by, draws"


def profile_from_row(row) -> Profile:
    return Profile(row[0], row[1], row[2], row[3], row[4], Rating(row[5], row[6], row[7]),
                   row[8], row[9], row[10])


__all__ = ["LadderError", "KeyReplaced", "Profile", "MatchResult", "HistoryPoint", "RoomLocation",
           "PROFILE_COLUMNS", "profile_from_row"]
