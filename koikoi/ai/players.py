"""The player interface and the level registry."""

from __future__ import annotations

import random
from typing import Optional, Protocol, Sequence

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


def _levels() -> dict:
    levels = {"random": RandomPlayer}
    try:  # the stronger levels register themselves as they are built
        from .easy import EasyPlayer
        levels["easy"] = EasyPlayer
    except ImportError:
        pass
    try:
        from .medium import MediumPlayer
        levels["medium"] = MediumPlayer
    except ImportError:
        pass
    try:
        from .hard import HardPlayer
        levels["hard"] = HardPlayer
    except ImportError:
        pass
    return levels


LEVELS = ("random", "easy", "medium", "hard")


def make_player(level: str, *, seed: int = 0, think_time: Optional[float] = None,
                simulations: Optional[int] = None) -> Player:
    levels = _levels()
    if level not in LEVELS:
        raise ValueError(f"unknown CPU level {level!r}; choose one of {', '.join(LEVELS)}")
    cls = levels.get(level)
    if cls is None:
        raise ValueError(f"the {level!r} CPU is not available in this build")
    if level == "hard":
        return cls(seed=seed, think_time=think_time, simulations=simulations)
    return cls(seed=seed)
