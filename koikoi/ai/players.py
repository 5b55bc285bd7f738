"""The player interface, and the CPU levels: declared once, in ``CPU_LEVELS``.

Each level's row says what the game calls it ("CPU · Hard" in the New match
dialog, the settings and the statistics; "CPU (Hard)" on the table), its
one-word character ("Ruthless"), whether Easy practice hints are on by default
against it, whether the New match dialog offers it, and which class plays it.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Protocol, Sequence

if TYPE_CHECKING:  # pragma: no cover - the table is read without the engine (koikoi.storage)
    from ..engine import View


class Player(Protocol):
    level: str

    def choose(self, view: View, legal: Sequence) -> object:
        """One element of ``legal``, decided from ``view`` alone."""


class RandomPlayer:
    """Uniformly random legal play: the floor every level is measured against."""

    level = "random"

    def __init__(self, seed: int = 0):
        self._rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence) -> object:
        return legal[self._rng.randrange(len(legal))]


def N_(text: str) -> str:
    """Marks a level's label, blurb or seat name for extraction: koikoi.ai does not depend on
    the UI's translation module; the screens translate these where they show them."""
    return text


@dataclass(frozen=True)
class Level:
    """One CPU level, as the game names and builds it."""

    name: str                # "hard": the seat's level in save files and logs
    label: str               # "CPU · Hard": New match, Settings, Statistics
    blurb: str               # "Ruthless": under the label in New match
    seat_name: str           # "CPU (Hard)": the seat's name on the table
    hints: bool              # Easy practice hints (capturing cards glow) on by default
    offered: bool            # a choice of the New match dialog and the settings
    player: str              # "hard:HardPlayer": module of koikoi.ai and class that play it
    searches: bool = False   # takes ``think_time`` and ``simulations``
    settings: tuple = ()     # (keyword, value) pairs for the class, beyond ``seed``


CPU_LEVELS: tuple[Level, ...] = (
    Level("random", N_("CPU · Random"), N_("Random moves"), N_("CPU (Random)"), hints=False, offered=False,
          player="players:RandomPlayer"),
    Level("easy", N_("CPU · Easy"), N_("Relaxed"), N_("CPU (Easy)"), hints=True, offered=True,
          player="easy:EasyPlayer"),
    Level("medium", N_("CPU · Medium"), N_("Thoughtful"), N_("CPU (Medium)"), hints=False, offered=True,
          player="medium:MediumPlayer"),
    Level("hard", N_("CPU · Hard"), N_("Ruthless"), N_("CPU (Hard)"), hints=False, offered=True,
          player="hard:HardPlayer", searches=True),
)
"""Every CPU level, weakest first."""

LEVEL_INFO: dict[str, Level] = {lvl.name: lvl for lvl in CPU_LEVELS}


def hints_on(level) -> bool:
    """Whether practice hints come with the CPU ``level`` (False for a level this
    build does not know)."""
    info = LEVEL_INFO.get(level) if isinstance(level, str) else None
    return bool(info is not None and info.hints)
LEVELS = tuple(LEVEL_INFO)
OFFERED_LEVELS: tuple[Level, ...] = tuple(lvl for lvl in CPU_LEVELS if lvl.offered)
"""The levels a player chooses from (New match, Settings), in the order shown."""
LEVEL_ORDER = tuple(lvl.name for lvl in OFFERED_LEVELS) + tuple(
    lvl.name for lvl in CPU_LEVELS if not lvl.offered)
"""Every level in the order lists show them: the offered ones, then the rest."""
LEVEL_LABELS: dict[str, str] = {lvl.name: lvl.label for lvl in CPU_LEVELS}


def _levels() -> dict:
    """Level name -> the class that plays it, for the levels built into this copy."""
    levels = {}
    for lvl in CPU_LEVELS:
        module, cls = lvl.player.split(":")
        try:  # the stronger levels register themselves as they are built
            levels[lvl.name] = getattr(importlib.import_module(f"{__package__}.{module}"), cls)
        except (ImportError, AttributeError):
            pass
    return levels


def make_player(level: str, *, seed: int = 0, think_time: Optional[float] = None,
                simulations: Optional[int] = None) -> Player:
    if level not in LEVELS:   # a tuple: an unhashable level from a save file is just unknown
        raise ValueError(f"unknown CPU level {level!r}; choose one of {', '.join(LEVELS)}")
    cls = _levels().get(level)
    if cls is None:
        raise ValueError(f"the {level!r} CPU is not available in this build")
    info = LEVEL_INFO[level]
    kwargs = dict(info.settings)
    if info.searches:
        kwargs.update(think_time=think_time, simulations=simulations)
    player = cls(seed=seed, **kwargs)
    if getattr(player, "level", None) != level:   # a level played by another level's class
        player.level = level
    return player
