"""What the table's parts share, instead of the scene: ``TableContext`` and ``TablePolicy``.

``RoundScene`` builds one ``TableContext`` and gives it to its parts (``Controls``,
``TurnDriver``, ``Hud``, ``Renderer``): the session (a ``koikoi.session.TableSession``),
the stage (sprites, poses, the layout and the two animation timelines), the director
whose ``table`` is the fold shown, the settings the parts read, the pointer, the tooltip
and the selection, ``send`` (the one way an action leaves the table), and the few facts
about the table's run the scene keeps current: the seat at the bottom, how many events
are shown, the overlay over it. The parts read the table through it and ask for the three
things only the scene can do (lay out a pose with its buttons, play a sound, open
something over the table: ``command``).

``TablePolicy`` is what a lesson or a puzzle changes of the round table, as one object
given to ``RoundScene``: which hand cards may be picked, which cards are ringed, the
Koi-Koi prompt's extra keywords, whether the table waits at rest, how many events it
shows. The defaults are the round table's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ...engine import SeatKind
from ...forward import via
from ...session import TableSession
from .. import hints
from .. import input as gestures
from ..tooltip import HoverTimer
from ...i18n import _
from . import seat_label
from .stage import Stage


class TablePolicy:
    """The round table's own rules of play on screen (a lesson's or a puzzle's subclass them)."""

    shows_turn_log = True    # the last turns in words above the field (a lesson has its own words there)
    hints = True             # the practice glow and tooltip may show (the Hints setting decides)
    pulses = False           # something pulses (a highlight): the table keeps drawing

    def gate_pick(self, card: str) -> bool:
        """Whether the player may select or pick up the hand card ``card`` now."""
        return True

    def highlighted(self) -> tuple:
        """Card ids the renderer rings with a pulse (a lesson's "click this")."""
        return ()

    def prompt_options(self) -> dict:
        """More keywords for the Koi-Koi prompt (a lesson's gate and note, a puzzle's)."""
        return {}

    def holds_turn(self) -> bool:
        """Whether the table waits at rest: no CPU move, no prompt (a lesson's step to read)."""
        return False

    def shown_limit(self, events) -> int:
        """How many of the session's ``events`` the table shows (all of them here)."""
        return len(events)


class TableSettings:
    """The settings the table reads, each as its kind or its default if missing or malformed
    (read when asked: a change made in the pause menu applies at once)."""

    def __init__(self, app):
        self._app = app

    @property
    def raw(self) -> dict:
        return getattr(self._app, "settings", {})

    def get(self, name: str, default, kind=float):
        try:
            return kind(self._app.settings.get(name, default))
        except (AttributeError, TypeError, ValueError):
            return default

    def speed(self) -> float:
        return self.get("anim_speed", 1.0)

    def card_scale(self) -> float:
        return self.get("card_scale", 1.0)

    def month_numbers(self) -> bool:
        return self.get("month_numbers", True, bool)

    def name_style(self) -> str:
        return hints.style_of(self.raw)

    def pace(self) -> float:
        """The CPU pace setting as a factor on its pauses (relaxed > 1 > quick)."""
        return hints.pace_factor(self.raw)


@dataclass
class Selection:
    """The player's choice on the table: the hand card selected, the field card the keys
    aim at, the hand card under the pointer."""

    selected: Optional[str] = None
    target_cursor: Optional[str] = None
    hover: Optional[str] = None


@dataclass(eq=False)
class TableContext:
    session: TableSession
    assets: Any
    stage: Stage
    settings: TableSettings
    policy: TablePolicy
    send: Callable[[Any], bool]           # apply an action if it is legal now; True if applied
    relayout: Callable[..., Any]          # show a pose (None: the one shown) and tween the cards there
    sound: Callable[[str], None]
    command: Callable[..., None]          # "pause", "keys" or ("inspector", seat): over the table
    seat: int = 0                         # the seat at the bottom (a friend match hands it over)
    director: Any = None                  # its ``table``: the fold of the events queued so far
    shown: int = 0                        # events of the session queued for the table
    overlay: Any = None                   # the prompt / results / curtain over the table
    closed: bool = False                  # the table has handed over to another screen
    size: tuple = (0, 0)
    s: float = 1.0                        # the theme's scale for ``size``
    pulse_t: float = 0.0                  # seconds, for the renderer's pulsing highlight
    pointer: gestures.Pointer = field(default_factory=gestures.Pointer)
    tip: HoverTimer = field(default_factory=HoverTimer)
    pick: Selection = field(default_factory=Selection)

    tl = via("stage", "tl")
    fx = via("stage", "fx")
    lay = via("stage", "lay")
    drag = via("stage", "drag", "the card being dragged, or None")
    table = via("director", "table", "the fold of the events queued so far")

    def at_rest(self) -> bool:
        """Nothing moving or queued, every event shown, no overlay of ours open."""
        return (not self.tl.busy and self.overlay is None and not self.closed
                and self.shown >= self.policy.shown_limit(self.session.events))

    def my_turn(self) -> bool:
        return (self.at_rest() and self.session.to_move == self.seat
                and self.session.seats[self.seat].kind == SeatKind.HUMAN)

    def practice(self) -> bool:
        """Practice hints and tooltips: the Hints setting (by default on against a level that
        has them, Easy; never in friend matches), where the policy allows them."""
        if not self.policy.hints:
            return False
        try:
            s = self.session
            other = s.seats[1 - self.seat]
            level = other.level if other.kind == SeatKind.CPU else None
            return hints.hints_enabled(self.settings.raw, level, s.is_hotseat)
        except (AttributeError, IndexError):
            return False

    def name(self, seat: int) -> str:
        """``seat``'s name as shown: the game's own names ("Player 1", "CPU (Easy)") in
        the current language, a typed name as it is (``seat_label``)."""
        try:
            return seat_label(self.session.seats[seat].name)
        except (AttributeError, IndexError):
            return _("Player {n}").format(n=seat + 1)

    def is_you(self, seat: int) -> bool:
        """Whether ``seat`` reads as "You": the player at the bottom, outside friend matches."""
        return (seat == self.seat and not self.session.is_hotseat
                and self.session.seats[seat].kind == SeatKind.HUMAN)
