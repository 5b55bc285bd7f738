"""The decisions a seat can make. Frozen, hashable values; cards by id."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union


@dataclass(frozen=True, slots=True)
class PickOyagime:
    """Turn up one of the face-down oya-gime cards (``index`` into the spread)."""

    index: int


@dataclass(frozen=True, slots=True)
class Play:
    """Play a hand card; ``target`` is the field card to take when two match."""

    card: str
    target: Optional[str] = None


@dataclass(frozen=True, slots=True)
class ChooseMatch:
    """Take ``target`` with the card turned from the stock (two field cards matched)."""

    target: str


@dataclass(frozen=True, slots=True)
class KoiKoi:
    """Play on after improving a yaku."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Shōbu: end the round and score."""


Action = Union[PickOyagime, Play, ChooseMatch, KoiKoi, Stop]


def describe(action: Action) -> str:
    if isinstance(action, Play):
        return f"play {action.card}" + (f" taking {action.target}" if action.target else "")
    if isinstance(action, ChooseMatch):
        return f"take {action.target} with the stock card"
    if isinstance(action, PickOyagime):
        return f"turn up oya-gime card {action.index}"
    if isinstance(action, KoiKoi):
        return "call Koi-Koi"
    if isinstance(action, Stop):
        return "stop (shōbu)"
    return repr(action)
