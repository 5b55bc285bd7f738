"""CPU opponents. ``make_player(level, ...)`` returns a player whose
``choose(view, legal)`` picks one of ``legal`` from what ``view`` shows.

Players see only a seat's ``View`` (its hand, the field, both capture piles,
counts), never the other hand or the stock order.
"""

from __future__ import annotations

from .players import LEVELS, Player, make_player

__all__ = ["make_player", "Player", "LEVELS"]
