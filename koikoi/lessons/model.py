"""What a lesson is once read: its ``Lesson`` (the deal, the rules, the steps), each
``Step`` (a text, a scripted engine action, what to ring and check), the Learn screen's
``Entry`` for a lesson file, the ``LessonError`` that says why a file cannot be used, and
the limits the reader holds a file to (``koikoi.lessons`` reads, ``koikoi.lessons.script``
plays).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ..engine import KoiKoi, Rules, State, Stop, new_match

DATA = Path(__file__).resolve().parent / "data"
FORMAT = 1
MAX_BYTES = 256 * 1024
MAX_STEPS = 80
MAX_TEXT = 600
ID_RE = re.compile(r"[0-9a-z][0-9a-z-]{0,39}")
SEATS = {"you": 0, "cpu": 1}
YOU, CPU = 0, 1
PHASES = ("play", "choose", "decide", "over")


class LessonError(ValueError):
    """A lesson file that cannot be used, with the reason in words."""


@dataclass(frozen=True)
class Step:
    say: str = ""
    seat: Optional[int] = None          # who acts at this step: YOU, CPU, or None (read and go on)
    action: Any = None                  # the engine action (Play, ChooseMatch, KoiKoi, Stop)
    highlight: Optional[tuple] = None   # card ids to ring (None: the move's own cards, ``highlights``)
    wrong: str = ""                     # the answer to any other move
    check: dict = field(default_factory=dict)

    @property
    def decision(self) -> Optional[str]:
        """"koikoi" or "stop" for a Koi-Koi question's answer, else None."""
        if isinstance(self.action, KoiKoi):
            return "koikoi"
        if isinstance(self.action, Stop):
            return "stop"
        return None


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    summary: str
    rules: Rules
    deck: tuple
    dealer: int
    seed: int
    steps: tuple
    intro: str = ""
    path: Optional[Path] = None
    lang: str = "en"                    # the language of its texts (English where none)

    def start(self) -> State:
        """The lesson's match at its first step: one month, this deal, no oya-gime."""
        return new_match(self.rules, seed=self.seed, months=1, decks=[list(self.deck)],
                         first_dealer=self.dealer)


@dataclass(frozen=True)
class Entry:
    """One lesson file as the Learn screen lists it: the lesson, or why it is unavailable."""

    id: str
    path: Path
    lesson: Optional[Lesson]
    problem: Optional[str] = None

    @property
    def title(self) -> str:
        return self.lesson.title if self.lesson is not None else self.id


__all__ = ["DATA", "FORMAT", "MAX_BYTES", "MAX_STEPS", "MAX_TEXT", "ID_RE", "SEATS", "YOU", "CPU", "PHASES",
           "LessonError", "Step", "Lesson", "Entry"]
