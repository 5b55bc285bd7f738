"""Read-only attributes that answer from another object or a private field: one line for
what would otherwise be a four-line property each (the table's context forwards its stage's
parts; the network session answers the protocol from the fields each poll fills in).

    class Ctx:
        tl = via("stage", "tl")          # self.stage.tl
        phase = via("_table", "phase")   # self._table.phase
        winner = field("_winner")        # self._winner
"""

from __future__ import annotations

from operator import attrgetter
from typing import Optional


def via(owner: str, name: str, doc: Optional[str] = None) -> property:
    """``self.<owner>.<name>``, read-only."""
    get = attrgetter(f"{owner}.{name}")
    return property(get, doc=doc or f"``self.{owner}.{name}``")


def field(name: str, doc: Optional[str] = None) -> property:
    """``self.<name>`` (a private field), read-only."""
    return property(attrgetter(name), doc=doc or f"``self.{name}``")


__all__ = ["field", "via"]
