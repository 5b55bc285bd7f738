"""The phases of a match and the kinds of seat, as enums.

Both are ``str`` enums: a member equals its name as written in save files and
logs (``Phase.PLAY == "play"``), prints as it (``str``, ``format``, f-strings)
and serialises as it (``json.dumps``), so old files keep reading while the code
compares members instead of spelling strings.
"""

from __future__ import annotations

from enum import Enum


class _Text(str, Enum):
    __str__ = str.__str__
    __format__ = str.__format__
    __hash__ = str.__hash__    # a member and its text are the same dictionary key


class Phase(_Text):
    """``State.phase_name`` and ``View.phase``."""

    OYAGIME = "oyagime"        # drawing a card each to decide who deals first
    PLAY = "play"              # the seat to move plays a card from its hand
    CHOOSE = "choose_match"    # the turned stock card matches two field cards: pick one
    DECIDE = "decide"          # a yaku was formed or improved: Koi-Koi or Stop
    OVER = "over"              # the match has ended


class SeatKind(_Text):
    """Who plays a seat."""

    HUMAN = "human"
    CPU = "cpu"


PHASES = tuple(Phase)          # in the order of State.phase (0 .. 4)
