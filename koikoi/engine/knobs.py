"""What a rule knob is: its declaration (``Knob``, with ``House`` for how the house-rules editor
offers it and ``When`` for the knob that makes it matter), the bounds of the number knobs, and
``RulesError`` with the refusals in a player's words. The knobs themselves are the fields of
``Rules`` (engine/ruleset.py)."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import Any, Optional

from .cards import N_  # the engine's one marker for translated literals


# Upper bounds of the number knobs. A saved match is read back through these checks,
# so a log cannot hand the statistics or ledger screens an absurd value.
NAME_MAX = 40                # characters in ``name``
POINTS_MAX = 10_000          # any one point knob
MONTHS_MAX = 120             # ``months`` and every entry of ``months_offered``
TARGET_POINTS_MAX = 100_000  # ``target_points`` and ``starting_points``
KOIKOI_CALLS_MAX = 100       # ``max_koikoi_calls``

# The groups of the "Rules of this match" panel, in reading order.
KNOB_GROUPS = (N_("Yaku values"), N_("Yaku rules"), N_("Multipliers"), N_("Scoring"), N_("Round rules"),
               N_("Match length"))

# The house-rules editor's value for "the length chosen in the New match dialog" (``months``).
AS_CHOSEN = "chosen"

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlong = 40


def _show(value: Any) -> str:
    """A short repr for an error message: never long, never deep, never raising."""
    try:
        return _REPR.repr(value)
    except Exception:  # an int too long to print, a repr that raises
        return f"<{type(value).__name__}>"


def _whole(value: Any, lo: int, hi: int) -> bool:
    """``value`` is an int (not a bool) in lo..hi."""
    return type(value) is int and lo <= value <= hi


def _same(a: Any, b: Any) -> bool:
    """Equal and of one type: 1 is not True, and 1.0 is not 1."""
    return type(a) is type(b) and a == b


# ------------------------------------------------------------------ refusals, in a player's words
# Whole sentences (N_), translated where they are shown: ``RulesError.sentence(_)``.
NEVER_ENDS = N_("With no month limit, set a target score or zero-sum scoring, or the match would never end.")
BAD_CHOICE = N_('Choose one of the settings offered for "{rule}".')
BAD_TOGGLE = N_('Set "{rule}" to On or Off.')
BAD_NUMBER = N_('Set "{rule}" to a whole number from {lo} to {hi}.')
BAD_NUMBER_OR_NONE = N_('Set "{rule}" to {none} or a whole number from {lo} to {hi}.')
BAD_TEXT = N_('"{rule}" must be {lo} to {hi} characters long.')
BAD_LENGTHS = N_('"{rule}": each must be a whole number of months from {lo} to {hi}.')
BAD_VALUE = N_('"{rule}" has a value these rules cannot use.')
NOT_RULES = N_("These rules cannot be read.")
UNKNOWN_KNOBS = N_("These rules use a rule this version of the game does not know.")
CANNOT_PLAY = N_("Some of these rules cannot be used together.")
UNKNOWN_PRESET = N_("These rules are not one of the game's rule sets.")
NOT_OFFERED = N_('The house rules do not offer that setting of "{rule}".')
BAD_LENGTH = N_("Choose one of the match lengths these rules offer.")
LENGTH_BY_HOUSE = N_("These house rules play to a target with no month limit: the match length cannot be chosen as well.")


class RulesError(ValueError):
    """Rules the engine refuses.

    ``str()`` is the technical English, for logs and tests: every knob at fault ("invalid
    rules: months=None needs a target_points or zero_sum scoring, or the match never ends").
    ``message`` is the first problem as a player reads it: an N_-marked whole sentence with
    {named} ``fields``, which tells what to change. A text field is itself an N_-marked
    msgid (a rule's label, the words of a value) and is translated too; a number goes through
    ``number``. The engine does not translate: the UI calls ``sentence(_, format_number)``."""

    def __init__(self, detail: str, message: str = CANNOT_PLAY, **fields: Any):
        super().__init__(detail)
        self.message = message
        self.fields = fields

    def sentence(self, translate: Any = None, number: Any = None) -> str:
        """``message`` with its fields, through ``translate`` (``koikoi.i18n._``; none: English)
        and ``number`` (``koikoi.i18n.format_number``; none: the digits)."""
        tr = translate or (lambda text: text)
        num = number or str
        values = {k: tr(v) if isinstance(v, str) else num(v) if isinstance(v, int) else v
                  for k, v in self.fields.items()}
        try:
            return tr(self.message).format(**values)
        except (KeyError, IndexError, ValueError):      # a field missing: never a crash
            return tr(CANNOT_PLAY)


# ------------------------------------------------------------------ knob metadata


@dataclass(frozen=True)
class When:
    """A condition on another knob: its value is one of ``values`` (any, if empty) and
    none of ``unless``."""

    knob: str
    values: tuple = ()
    unless: tuple = ()
    said: str = ""              # the condition in words, where "<label> is not <value>" reads badly

    def holds(self, rules: "Rules") -> bool:
        v = getattr(rules, self.knob)
        return ((not self.values or any(_same(v, x) for x in self.values))
                and not any(_same(v, x) for x in self.unless))


@dataclass(frozen=True)
class House:
    """How the house-rules editor offers a knob."""

    row: int                       # the editor's order: the left column top down, then the right
    control: str                   # "toggle", "choice" (a row of buttons) or "step" (◀ value ▶)
    values: tuple = (False, True)  # offered, in this order
    keep: Optional[str] = None     # an offered value that changes nothing (``AS_CHOSEN``)

    @property
    def settable(self) -> tuple:
        """The offered values that are the knob's own (not ``keep``)."""
        return tuple(v for v in self.values if self.keep is None or not _same(v, self.keep))


@dataclass(frozen=True)
class Knob:
    """What one knob is called, what it may hold and what it means, for a player."""

    label: str                     # "Koi-Koi multiplier"
    group: str                     # one of KNOB_GROUPS
    explanation: str               # a sentence or two, in the game's words
    kind: str = "number"           # "number", "choice", "toggle", "text" or "lengths"
    choices: tuple = ()            # choice knobs: (value, words[, shorter words]) in order
    bounds: tuple = ()             # whole numbers lo..hi (text: its length; lengths: each entry)
    optional: bool = False         # number knobs: None is allowed too
    words: tuple = ()              # number knobs: (value, words) for values said specially
    unit: str = "{}"               # number knobs: how any other value reads
    depends: tuple = ()            # When(...)s: the knob matters only while one of them holds
    house: Optional[House] = None  # offered as a house rule, and how
    sets: tuple = ()               # an editor row standing for several knobs:
                                   # (value, ((knob, its value), ...)) per choice
    shown: bool = True             # listed in the "Rules of this match" panel

    @property
    def values(self) -> tuple:
        """The allowed values of a choice knob, in order."""
        return tuple(c[0] for c in self.choices)

    def word(self, value: Any) -> Optional[str]:
        """The words for ``value`` (a choice, or a number said specially), or None."""
        for entry in self.words + self.choices:
            if _same(entry[0], value):
                return entry[1]
        return None

    def short(self, value: Any) -> Optional[str]:
        """Shorter words for a choice, where the editor's buttons need them."""
        for entry in self.choices:
            if _same(entry[0], value):
                return entry[2] if len(entry) > 2 else entry[1]
        return None

    def complaint(self) -> tuple[str, dict]:
        """(message, fields) for a refused value of this knob, in a player's words (``RulesError``):
        what the knob may be set to."""
        if self.kind == "choice":
            return BAD_CHOICE, {"rule": self.label}
        if self.kind == "toggle":
            return BAD_TOGGLE, {"rule": self.label}
        lo, hi = self.bounds if len(self.bounds) == 2 else (None, None)
        if self.kind == "number" and lo is not None:
            none = self.word(None) if self.optional else None
            if none is not None:
                return BAD_NUMBER_OR_NONE, {"rule": self.label, "none": none, "lo": lo, "hi": hi}
            return BAD_NUMBER, {"rule": self.label, "lo": lo, "hi": hi}
        if self.kind == "text" and lo is not None:
            return BAD_TEXT, {"rule": self.label, "lo": lo, "hi": hi}
        if self.kind == "lengths" and lo is not None:
            return BAD_LENGTHS, {"rule": self.label, "lo": lo, "hi": hi}
        return BAD_VALUE, {"rule": self.label}

    def problem(self, name: str, value: Any) -> Optional[str]:
        """Why ``value`` cannot be this knob's, or None if it can."""
        if self.kind == "choice":
            if type(value) is not str or value not in self.values:
                return f"{name}={_show(value)} (allowed: {', '.join(self.values)})"
        elif self.kind == "toggle":
            if not isinstance(value, bool):
                return f"{name}={_show(value)} (true or false)"
        elif self.kind == "number":
            if not (_whole(value, *self.bounds) or (self.optional and value is None)):
                lo, hi = self.bounds
                return (f"{name}={_show(value)} (a whole number from {lo} to {hi}"
                        + (", or None)" if self.optional else ")"))
        elif self.kind == "text":
            lo, hi = self.bounds
            if not (type(value) is str and lo <= len(value) <= hi):
                return f"{name}={_show(value)} (a text of {lo} to {hi} characters)"
        elif self.kind == "lengths":
            lo, hi = self.bounds
            if not (type(value) is tuple and len(value) <= hi and all(_whole(m, lo, hi) for m in value)):
                return f"{name}={_show(value)} (a tuple of whole numbers from {lo} to {hi})"
        return None


def _knob(default: Any, label: str, group: str, explanation: str, **more: Any) -> Any:
    return field(default=default, metadata={"knob": Knob(label, group, explanation, **more)})


def _points(default: int, label: str, group: str, explanation: str, **more: Any) -> Any:
    return _knob(default, label, group, explanation, bounds=(0, POINTS_MAX), **more)


def _toggle(default: bool, label: str, group: str, explanation: str, **more: Any) -> Any:
    return _knob(default, label, group, explanation, kind="toggle", **more)


def _choice(default: str, label: str, group: str, explanation: str, choices: tuple, **more: Any) -> Any:
    return _knob(default, label, group, explanation, kind="choice", choices=choices, **more)
