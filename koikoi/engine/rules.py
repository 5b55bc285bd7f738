"""Every rule knob in one frozen value, the six presets of shared/RULES.md, and the presets of
two games, KoiKoi Japan and Battle Hanafuda (``RULESETS``, ``PRESET_LABELS``, ``PRESET_DESCRIPTIONS``).

A preset is just a named ``Rules``; house rules are
``dataclasses.replace(RULESETS["nintendo"], weather=True)``. A match records
its full ``Rules`` in its first event, so a saved match replays under the
rules it was played with.

Each knob is declared once, as a field of ``Rules`` whose metadata is a
``Knob``: its label, group, explanation, the values it may hold (choices with
their words, or bounds), which other knob makes it matter (``depends``), and
how the house-rules editor offers it (``house``). ``Rules.__post_init__``
validates against it; the "Rules of this match" panel, the house-rules editor
(koikoi/ui/scenes/rules_panel.py) and the saved house rules
(``koikoi.storage.valid_house_rules``) read it. ``KNOBS`` maps every field to
its ``Knob``; ``HOUSE_ROWS`` lists the editor's rows in order. Everything here
is plain data: strings, numbers and tuples.

A new knob: a field below with its ``Knob``; give it a ``House`` to offer it
as a house rule. The engine (and koikoi/ai/sim.py) still have to play it.
"""

from __future__ import annotations

import reprlib
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, NamedTuple, Optional

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


_VIEWING_COUNTS = When("viewing", unless=("off",), said=N_("viewing yaku count"))
_LUCKY_ON = When("lucky_hands", ("on",))
_CALLS_ALLOWED = When("max_koikoi_calls", unless=(0,), said=N_("Koi-Koi may be called"))


@dataclass(frozen=True)
class Rules:
    """One complete rule system. Field names are the knobs of RULES.md."""

    name: str = _knob(
        "custom", N_("Rule set"), "Rule set",
        N_("The name of these rules: a preset's, or one given to a house-rules variant."),
        kind="text", bounds=(1, NAME_MAX), shown=False)
    # Match length: ``months`` rounds (None: until a target or a bankruptcy).
    months: Optional[int] = _knob(
        12, N_("Match length"), "Match length",
        N_("How many rounds (months) the match lasts. With no limit it is played to a target, "
        "or with zero-sum stakes until a player has nothing left."),
        bounds=(1, MONTHS_MAX), optional=True, unit=N_("{} months"),
        words=((None, N_("No limit")), (AS_CHOSEN, N_("As chosen")), (1, N_("1 month"))),
        house=House(21, "step", (AS_CHOSEN, None), keep=AS_CHOSEN))
    months_offered: tuple = _knob(
        (1, 3, 6, 12), N_("Lengths offered"), "Match length",
        N_("The match lengths the New match screen offers with these rules."),
        kind="lengths", bounds=(1, MONTHS_MAX))
    target_points: Optional[int] = _knob(
        None, N_("Play to a target"), "Match length",
        N_("The match ends as soon as a player's total reaches this many points, even before the last month."),
        bounds=(1, TARGET_POINTS_MAX), optional=True, words=((None, N_("Off")),), unit=N_("First to {}"),
        house=House(20, "step", (None, 50, 100)))
    # Bright yaku (only the best counts).
    goko: int = _points(10, N_("Gokō (five Brights)"), "Yaku values", N_("Points for all five Brights."))
    shiko: int = _points(8, N_("Shikō (four Brights)"), "Yaku values",
                         N_("Points for four Brights without the Rain Man."))
    ame_shiko: int = _points(7, N_("Ame-Shikō (rainy four)"), "Yaku values",
                             N_("Points for four Brights, one of them the Rain Man."))
    sanko: int = _points(5, N_("Sankō (three Brights)"), "Yaku values",
                         N_("Points for three Brights without the Rain Man (three with him are no yaku)."))
    # Set yaku.
    inoshikacho: int = _points(5, N_("Inoshikachō"), "Yaku values",
                               N_("Points for the Boar, the Deer and the Butterflies."))
    akatan: int = _points(5, N_("Akatan (red ribbons)"), "Yaku values",
                          N_("Points for the three red poetry ribbons of Pine, Plum and Cherry."))
    aotan: int = _points(5, N_("Aotan (blue ribbons)"), "Yaku values",
                         N_("Points for the three blue ribbons of Peony, Chrysanthemum and Maple."))
    akatan_aotan: int = _points(10, N_("Akatan-Aotan"), "Yaku values",
                                N_("Points for both ribbon sets at once: with graded set yaku one yaku "
                                "in their place, +1 for each further ribbon; with Akatan-Aotan on "
                                "top, paid besides them."),
                                depends=(When("combo_grading", ("graded",)),
                                         When("akatan_aotan_on_top", (True,))))
    hanami_zake: int = _points(5, N_("Hanami-zake"), "Yaku values",
                               N_("Points for the Cherry Curtain with the Sake cup: cherry-blossom viewing."),
                               depends=(_VIEWING_COUNTS,))
    tsukimi_zake: int = _points(5, N_("Tsukimi-zake"), "Yaku values",
                                N_("Points for the Moon with the Sake cup: moon viewing."),
                                depends=(_VIEWING_COUNTS,))
    # KoiKoi Japan: the viewing yaku are worth 1 each, and 3 each once their holder has called.
    viewing_after_koikoi: Optional[int] = _knob(
        None, N_("Viewing yaku after Koi-Koi"), "Yaku values",
        N_("What Hanami-zake and Tsukimi-zake are each worth once their holder has called Koi-Koi "
        "this round (0: they no longer count). Unchanged: their usual points."),
        bounds=(0, POINTS_MAX), optional=True, words=((None, N_("Unchanged")),), unit=N_("{} points"),
        depends=(_VIEWING_COUNTS,), house=House(6, "step", (None, 0, 3)))
    # Counting yaku: points at the threshold (5 animals, 5 ribbons, 10 chaff), +1 each extra.
    tane: int = _points(1, N_("Tane (5 animals)"), "Yaku values",
                        N_("Points for five animals, +1 for each further animal."))
    tanzaku: int = _points(1, N_("Tanzaku (5 ribbons)"), "Yaku values",
                           N_("Points for five ribbons, +1 for each further ribbon."))
    kasu: int = _points(1, N_("Kasu (10 chaff)"), "Yaku values",
                        N_("Points for ten chaff cards, +1 for each further chaff card."))
    # The month of a round: round 1 is January (Pine), round 2 February, ... round 12 December,
    # and a match longer than 12 rounds starts again at January (``scoring.round_month``); a
    # shorter match simply ends before December *(chosen: as the narration names the months)*.
    tsuki_fuda: int = _points(
        0, N_("Tsuki-fuda"), "Yaku values",
        N_("Points for all four cards of the round's own month: Pine in round 1, Plum in round 2, and "
        "so on to Paulownia in round 12; a longer match starts again at Pine."),
        words=((0, N_("Off")),), unit=N_("{} points"), house=House(11, "step", (0, 4)))
    combo_grading: str = _choice(
        "stack", N_("Set yaku"), "Yaku rules",
        N_("Stack: every yaku scores on its own, so the ribbons of Akatan still count toward Tanzaku. "
        "Graded: Inoshikachō, Akatan and Aotan gain 1 point for each further card of their kind "
        "and then Tane or Tanzaku does not count; both ribbon sets together are Akatan-Aotan."),
        (("stack", N_("Stack")), ("graded", N_("Graded"))),
        house=House(10, "choice", ("stack", "graded")))
    # Per-set grading (hanafuda-js grades Inoshikachō but still pays Tane). The default follows
    # ``combo_grading``, so every rule set recorded before this knob scores as it did.
    inoshikacho_grading: str = _choice(
        "set_yaku", N_("Inoshikachō grading"), "Yaku rules",
        N_("As Set yaku: as the Set yaku rule says. Stack: Inoshikachō pays its points and its "
        "animals count toward Tane too. Graded: +1 for each further animal, and Tane then does "
        "not count. Graded, Tane pays: +1 for each further animal, and Tane counts as well."),
        (("set_yaku", N_("As Set yaku"), N_("As sets")), ("stack", N_("Stack")), ("graded", N_("Graded")),
         ("graded_tane_pays", N_("Graded, Tane pays"), N_("Graded+Tane"))),
        depends=(When("inoshikacho", unless=(0,)),))
    # KoiKoi Japan: Akatan 5 + Aotan 5, and both sets together another 10 (20 with all six).
    akatan_aotan_on_top: bool = _toggle(
        False, N_("Akatan-Aotan on top"), "Yaku rules",
        N_("With stacking set yaku, holding both ribbon sets also scores Akatan-Aotan on top of "
        "Akatan and Aotan."),
        depends=(When("combo_grading", ("stack",)),))
    viewing: str = _choice(
        "on", N_("Viewing yaku"), "Yaku rules",
        N_("Whether Hanami-zake and Tsukimi-zake score: always, never, or only beside another yaku."),
        (("on", N_("On")), ("off", N_("Off")), ("with_other_yaku", N_("With another yaku"), N_("With another"))),
        house=House(5, "choice", ("on", "off", "with_other_yaku")))
    weather: bool = _toggle(
        False, N_("Weather ruling"), "Yaku rules",
        N_("While a Willow card lies in the field, Hanami-zake does not count; while a Paulownia "
        "card lies there, Tsukimi-zake does not count."),
        depends=(_VIEWING_COUNTS,), house=House(7, "toggle"))
    # Rain-break by one's own pile: ame-nagare (the willow month's Rain Man) and, with it,
    # kiri-nagare (the paulownia month's Phoenix). Only the two Brights break, not the other
    # willow or paulownia cards; either one cancels both viewing yaku.
    rain_break: str = _choice(
        "off", N_("Rain-break by your pile"), "Yaku rules",
        N_("Whether a card in your own capture pile cancels your Hanami-zake and Tsukimi-zake: "
        "none, the Rain Man (ame-nagare), or the Rain Man or the Phoenix (kiri-nagare too)."),
        (("off", N_("Off")), ("rain_man", N_("The Rain Man"), N_("Rain Man")),
         ("rain_man_or_phoenix", N_("The Rain Man or the Phoenix"), N_("Or Phoenix"))),
        depends=(_VIEWING_COUNTS,), house=House(8, "choice", ("off", "rain_man", "rain_man_or_phoenix")))
    sake_cup_is_chaff: bool = _toggle(
        False, N_("Sake cup counts as chaff"), "Yaku rules",
        N_("The Sake cup also counts as a chaff card toward Kasu."))
    sake_cup_is_animal: bool = _toggle(
        True, N_("Sake cup counts as animal"), "Yaku rules",
        N_("The Sake cup counts as an animal toward Tane."))
    # Lucky hands (teshi, kuttsuki), checked once on the dealt hands.
    lucky_hands: str = _choice(
        "off", N_("Lucky hands"), "Round rules",
        N_("A dealt hand holding four cards of one month (Teshi) or four pairs (Kuttsuki). "
        "On: its holder wins the round at once. Misdeal: the cards are dealt again."),
        (("off", N_("Off")), ("on", N_("On")), ("misdeal", N_("Misdeal"))),
        house=House(13, "choice", ("off", "on", "misdeal")))
    lucky_points: int = _points(
        6, N_("Lucky hand points"), "Round rules",
        N_("What a lucky hand wins; also what the dealer wins when four cards of a month "
        "in the opening field end the round."),
        depends=(_LUCKY_ON, When("field_four_of_month", ("dealer_wins",))),
        house=House(14, "step", (6, 12)))
    lucky_both_hands_points: int = _points(   # one player holding teshi and kuttsuki at once
        6, N_("Teshi + Kuttsuki points"), "Round rules",
        N_("What a hand that is Teshi and Kuttsuki at once wins."),
        depends=(_LUCKY_ON,))
    lucky_both_players: str = _choice(   # both players lucky: 0-0 draw, or the dealer's counts
        "draw", N_("Both players lucky"), "Round rules",
        N_("When both dealt hands are lucky: the round is a 0–0 draw, or only the dealer's hand counts."),
        (("draw", N_("0–0 draw")), ("dealer", N_("Dealer's counts"))),
        depends=(_LUCKY_ON,))
    # Misdeals in the field.
    field_four_of_month: str = _choice(
        "redeal", N_("Four of a month in the field"), "Round rules",
        N_("When the opening field holds all four cards of a month: deal again; or the dealer "
        "captures the four and four stock cards take their place; or the dealer wins the round "
        "for the lucky hand points."),
        (("redeal", N_("Redeal")), ("dealer_sweeps", N_("Dealer sweeps"), N_("Sweeps")),
         ("dealer_wins", N_("Dealer wins"))),
        house=House(16, "choice", ("redeal", "dealer_sweeps", "dealer_wins")))
    field_four_pairs: str = _choice(
        "play_on", N_("Four pairs in the field"), "Round rules",
        N_("When the opening field is four pairs of months: deal again, or play on."),
        (("redeal", N_("Redeal")), ("play_on", N_("Play on"))),
        house=House(17, "choice", ("redeal", "play_on")))
    # Battle Hanafuda deals again whenever three (or four) cards of a month lie in the field.
    field_three_of_month: str = _choice(
        "play_on", N_("Three of a month in the field"), "Round rules",
        N_("When the opening field holds three cards of one month: play on (the fourth card takes "
        "all three), or deal again."),
        (("play_on", N_("Play on")), ("redeal", N_("Redeal"))))
    # Settlement.
    seven_plus_double: bool = _toggle(
        True, N_("Double at 7 points or more"), "Multipliers",
        N_("A hand worth 7 points or more scores double."),
        house=House(1, "toggle"))
    koikoi_multiplier: str = _choice(
        "opponent_called", N_("Koi-Koi multiplier"), "Multipliers",
        N_("How Koi-Koi calls raise the winner's score. Opponent's call: double if the other player "
        "called. Own calls: times 1 + your own calls, and double if the other player called. "
        "Caller: double if the winner called. Anyone: double if anybody called. +1 per call: "
        "times 1 + every call made this round. None: calls never multiply."),
        (("opponent_called", N_("Opponent's call ×2")), ("own_calls_and_opponent", N_("Own calls ×n")),
         ("caller", N_("Caller ×2")), ("anyone", N_("Anyone ×2")), ("scaling", N_("+1 per call")),
         ("none", N_("None"))),
        depends=(_CALLS_ALLOWED,),
        house=House(2, "step", ("opponent_called", "own_calls_and_opponent", "caller", "anyone",
                                "scaling", "none")))
    # KoiKoi Japan: +1 point for each own call up to 3 calls, then ×(calls − 2) instead.
    own_call_bonus: int = _points(
        0, N_("Koi-Koi bonus"), "Multipliers",
        N_("Points the winner adds to the hand for each Koi-Koi they called this round (counted "
        "before the multipliers)."),
        words=((0, N_("Off")),), unit=N_("+{} a call"), depends=(_CALLS_ALLOWED,), house=House(3, "step", (0, 1)))
    own_call_bonus_max_calls: Optional[int] = _knob(
        None, N_("Koi-Koi bonus up to"), "Multipliers",
        N_("The most own calls the Koi-Koi bonus counts. With more calls the bonus is dropped and the "
        "hand is multiplied instead: ×2 at one call more, ×3 at two more, and so on."),
        bounds=(1, KOIKOI_CALLS_MAX), optional=True, words=((None, N_("No limit")),), unit=N_("{} calls"),
        depends=(When("own_call_bonus", unless=(0,)),))
    # "The opening field" is the eight cards as dealt: a swept month's Bright still counts and a
    # sweep's replacements do not *(chosen)*. Seed 003 reads the count off the deal ("when a
    # bright turns up among the eight", the eight laid face up), and the sweep is the dealer's
    # capture of four of those cards (RULES.md 2.2): like any capture of a field Bright in play
    # it leaves the count as it was, and the four stock cards it turns come after the deal, like
    # any stock card turned in play. It is also what every log recorded so far replays with.
    # The engine (State.field_brights), View, PublicTable (RoundDealt) and the simulator agree.
    field_brights_multiplier: bool = _toggle(
        False, N_("Field brights multiplier"), "Multipliers",
        N_("The winner's score is multiplied by 1 + the number of Brights in the opening field, "
        "as dealt (before any sweep)."),
        house=House(12, "toggle"))
    max_koikoi_calls: Optional[int] = _knob(   # None: unlimited
        None, N_("Koi-Koi calls allowed"), "Scoring",
        N_("How many times Koi-Koi may be called in a round, by both players together. Once they are "
        "used up, the next yaku ends the round; with none, the first yaku ends it."),
        bounds=(0, KOIKOI_CALLS_MAX), optional=True,
        words=((None, N_("Unlimited")), (0, N_("None (first yaku ends)")), (1, N_("1 call"))), unit=N_("{} calls"),
        house=House(4, "step", (None, 1, 0)))
    prompt_when: str = _choice(
        "total_rises", N_("Koi-Koi offered when"), "Scoring",
        N_("When a player is asked Koi-Koi or Stop: when their yaku total rises, or when any one "
        "yaku is new or worth more."),
        (("total_rises", N_("Total rises")), ("combo_new_or_grew", N_("A yaku is new or grew"))))
    last_turn_auto_stop: str = _choice(
        "both_hands_empty", N_("Last turn stops when"), "Scoring",
        N_("A yaku made on the last turn scores at once, with no Koi-Koi offered: the last turn is "
        "when both hands are empty, or when the player's own hand is."),
        (("both_hands_empty", N_("Both hands empty")), ("mover_hand_empty", N_("Own hand empty"))),
        depends=(_CALLS_ALLOWED,))
    exhausted_dealer: str = _choice(
        "keeps", N_("After a round with no yaku"), "Round rules",
        N_("Who deals after a round in which both hands ran out and nobody stopped: the same dealer, "
        "the other player, or whoever last made or improved a yaku."),
        (("keeps", N_("Dealer keeps"), N_("Keeps")), ("passes", N_("Deal passes"), N_("Passes")),
         ("last_yaku", N_("Last yaku maker"), N_("Last yaku"))),
        house=House(18, "choice", ("keeps", "passes", "last_yaku")))
    oya_ken: int = _points(
        0, N_("Oya-ken (dealer's privilege)"), "Round rules",
        N_("Points the dealer receives when both hands run out and nobody stopped."),
        words=((0, N_("Off")),), house=House(15, "step", (0, 1, 6)))
    oyagime_tie: str = _choice(
        "redraw", N_("Oya-gime tie"), "Round rules",
        N_("When the two cards turned up to choose the first dealer are of one month: draw again, "
        "or the higher kind deals (Bright, Animal, Ribbon, Chaff)."),
        (("redraw", N_("Redraw")), ("kind", N_("Higher kind"))))
    must_play_match: bool = _toggle(
        False, N_("Must play a matching card"), "Round rules",
        N_("A player holding a card that matches the field must play one."),
        house=House(19, "toggle"))
    scoring_mode: str = _choice(
        "total", N_("Scoring"), "Scoring",
        N_("Running total: points add up. Zero-sum stakes: each player starts with the starting "
        "points, the winner's score is taken from the loser, and the match ends early when a "
        "player has none left."),
        (("total", N_("Running total"), N_("Total")), ("zero_sum", N_("Zero-sum stakes"), N_("Zero-sum"))),
        house=House(22, "choice", ("total", "zero_sum")))
    starting_points: int = _knob(   # zero_sum only *(chosen)*
        50, N_("Starting points (zero-sum)"), "Scoring",
        N_("The points each player starts with under zero-sum stakes."),
        bounds=(1, TARGET_POINTS_MAX), depends=(When("scoring_mode", ("zero_sum",)),))

    def __post_init__(self) -> None:
        problems = []
        said: Optional[tuple] = None       # the first problem, in a player's words
        for name, ok, knob in _CHECKED:
            value = getattr(self, name)
            if not ok(value):
                problems.append(knob.problem(name, value) or f"{name}={_show(value)}")
                said = said or knob.complaint()
        if self.months is None and self.target_points is None and self.scoring_mode != "zero_sum":
            problems.append("months=None needs a target_points or zero_sum scoring, or the match never ends")
            said = said or (NEVER_ENDS, {})
        if problems:
            message, words = said or (CANNOT_PLAY, {})
            raise RulesError("invalid rules: " + "; ".join(problems), message, **words)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["months_offered"] = list(self.months_offered)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """Build Rules from a dict, e.g. a saved match. Unknown knobs, and anything that is
        not a dict of valid knobs, raise ValueError."""
        if not isinstance(data, dict):
            raise RulesError(f"invalid rules: {_show(data)} (a dict of rule knobs)", NOT_RULES)
        known = {f.name for f in fields(cls)}
        unknown = sorted(_show(k) if type(k) is not str else k for k in data if k not in known)
        if unknown:
            raise RulesError(f"unknown rule knobs: {', '.join(u[:NAME_MAX] for u in unknown[:10])}"
                             + (", ..." if len(unknown) > 10 else ""), UNKNOWN_KNOBS)
        d = dict(data)
        if type(d.get("months_offered")) is list:
            d["months_offered"] = tuple(d["months_offered"])
        return cls(**d)

    def describe(self) -> list[tuple[str, str]]:
        """(knob, value) pairs for a "Rules of this match" panel."""
        return [(name, str(getattr(self, name))) for name, knob in KNOBS.items() if knob.shown]


KNOBS: dict[str, Knob] = {f.name: f.metadata["knob"] for f in fields(Rules)}
"""Every field of Rules -> its Knob, in field order."""


def _quick_check(knob: Knob) -> Any:
    """A fast yes/no for the common case (Rules are built often); ``Knob.problem`` says why not."""
    if knob.kind == "choice":
        allowed = frozenset(knob.values)
        return lambda v: type(v) is str and v in allowed
    if knob.kind == "toggle":
        return lambda v: v is True or v is False
    if knob.kind == "number":
        lo, hi = knob.bounds
        if knob.optional:
            return lambda v: v is None or (type(v) is int and lo <= v <= hi)
        return lambda v: type(v) is int and lo <= v <= hi
    return lambda v: knob.problem("", v) is None


_CHECKED = tuple((name, _quick_check(knob), knob) for name, knob in KNOBS.items())

# The allowed values of the enumerated knobs (the first is not a default, see the fields).
CHOICES: dict[str, tuple] = {name: k.values for name, k in KNOBS.items() if k.kind == "choice"}

# Editor rows that stand for several knobs at once.
JOINT_ROWS: dict[str, Knob] = {
    "sake_cup": Knob(
        N_("Sake cup counts as"), "Yaku rules",
        N_("Whether the Sake cup counts as an animal toward Tane, as chaff toward Kasu, or as both. "
        "It always counts for the viewing yaku."),
        kind="choice", choices=(("animal", N_("Animal")), ("chaff", N_("Chaff")), ("both", N_("Both"))),
        house=House(9, "choice", ("animal", "chaff", "both")),
        sets=(("animal", (("sake_cup_is_chaff", False), ("sake_cup_is_animal", True))),
              ("chaff", (("sake_cup_is_chaff", True), ("sake_cup_is_animal", False))),
              ("both", (("sake_cup_is_chaff", True), ("sake_cup_is_animal", True))))),
}

HOUSE_ROWS: tuple[tuple[str, Knob], ...] = tuple(sorted(
    [(n, k) for n, k in KNOBS.items() if k.house is not None] + list(JOINT_ROWS.items()),
    key=lambda item: item[1].house.row))  # type: ignore[union-attr]
"""The house-rules editor's rows, in order: (row name, Knob). A row is a knob's name, or
a name of JOINT_ROWS."""

ROW_OF: dict[str, str] = {
    **{n: n for n, _ in HOUSE_ROWS},
    **{k: row for row, joint in JOINT_ROWS.items() for _, pairs in joint.sets for k, _ in pairs},
}
"""Knob -> the editor row that sets it."""


def knob_info(name: str) -> Knob:
    """The Knob of a field or of a joint editor row (KeyError for neither)."""
    return KNOBS[name] if name in KNOBS else JOINT_ROWS[name]


def house_value(rules: Rules, row: str) -> Any:
    """What the editor's ``row`` shows for ``rules``."""
    knob = knob_info(row)
    if knob.sets:
        for value, pairs in knob.sets:
            if all(_same(getattr(rules, k), v) for k, v in pairs):
                return value
        return knob.sets[0][0]
    value = getattr(rules, row)
    house = knob.house
    if house is not None and house.keep is not None and not any(_same(value, v) for v in house.settable):
        return house.keep
    return value


def house_knobs(row: str, value: Any) -> dict[str, Any]:
    """Knob -> value that ``value`` of the editor's ``row`` stands for."""
    knob = knob_info(row)
    if knob.sets:
        return dict(dict(knob.sets)[value])
    if knob.house is not None and knob.house.keep is not None and _same(value, knob.house.keep):
        return {}
    return {row: value}


def house_offers() -> dict[str, tuple]:
    """Knob -> the values the house-rules editor can give it."""
    out: dict[str, tuple] = {}
    for row, knob in HOUSE_ROWS:
        for value in knob.house.settable:  # type: ignore[union-attr]
            for k, v in house_knobs(row, value).items():
                if not any(_same(v, o) for o in out.get(k, ())):
                    out[k] = out.get(k, ()) + (v,)
    return out


def matters(rules: Rules, name: str) -> bool:
    """Whether knob ``name`` can change anything under ``rules`` (its ``depends``)."""
    depends = knob_info(name).depends
    return not depends or any(w.holds(rules) for w in depends)


def dependency_text(name: str) -> str:
    """``name``'s dependency in words ("Only when Lucky hands is On."), or ""."""
    def said(other: Knob, v: Any) -> str:
        if isinstance(v, bool):
            return "Yes" if v else "No"     # a toggle's values, as the panel says them
        return other.word(v) or str(v)

    parts = []
    for w in knob_info(name).depends:
        other = knob_info(w.knob)
        if w.said:
            parts.append(w.said)
            continue
        if w.values:
            parts.append(f"{other.label} is {' or '.join(said(other, v) for v in w.values)}")
        if w.unless:
            parts.append(f"{other.label} is not {' or '.join(said(other, v) for v in w.unless)}")
    return f"Only when {', or when '.join(parts)}." if parts else ""


# ------------------------------------------------------------------ a match's rules from a preset


def offered_changes(preset_name: Any, house: Any) -> dict:
    """The house-rule changes ``house`` (knob -> value) that the preset accepts: only knobs and
    values the house-rules editor offers (``HOUSE_ROWS``), and only combinations the Rules
    accept, each changing something. Anything else is dropped, one knob at a time, so one bad
    knob does not lose the others (saved settings are read through this). ``{}`` for a
    ``house`` that is not a dict or a preset that does not exist."""
    if not isinstance(house, dict) or type(preset_name) is not str or preset_name not in RULESETS:
        return {}
    preset = RULESETS[preset_name]
    offers = house_offers()

    def offered(k, v) -> bool:
        return any(_same(v, o) for o in offers.get(k, ()))
    todo = [(k, v) for k, v in house.items()
            if isinstance(k, str) and offered(k, v) and not _same(getattr(preset, k), v)]
    out: dict = {}
    progress = True
    while todo and progress:      # a knob may only be valid beside another (months=None with a target)
        progress = False
        for item in list(todo):
            trial = dict(out)
            trial[item[0]] = item[1]
            try:
                replace(preset, **trial)
            except (ValueError, TypeError):
                continue
            out[item[0]] = item[1]
            todo.remove(item)
            progress = True
    if todo:
        try:                      # the rest only together
            replace(preset, **{**out, **dict(todo)})
            out.update(todo)
        except (ValueError, TypeError):
            pass
    # a row that sets several knobs (the sake cup) offers some combinations only
    rules = replace(preset, **out)
    for row in JOINT_ROWS:
        knobs = house_knobs(row, house_value(rules, row))
        if any(getattr(rules, k) != v for k, v in knobs.items()):
            for k in knobs:
                out.pop(k, None)
    return out


class MatchRules(NamedTuple):
    """What ``match_rules`` builds: the Rules, the match length (None: no month limit) and the
    house-rule changes that change something (as a match file and a room record them)."""

    rules: Rules
    months: Optional[int]
    house: dict


def _refusal(preset: Rules, preset_name: str, house: dict, kept: dict, refused: list) -> RulesError:
    """Why ``match_rules`` refuses the knobs ``refused`` of ``house``: the first one's reason in
    a player's words, every one of them in the technical English."""
    offers = house_offers()
    said: Optional[tuple] = None
    parts = []
    for k in refused:
        v = house[k]
        knob = KNOBS.get(k) if type(k) is str else None
        problem = knob.problem(k, v) if knob is not None else None
        if knob is None:
            reason = (UNKNOWN_KNOBS, {})
        elif problem is not None:
            reason = knob.complaint()
        elif any(_same(v, o) for o in offers.get(k, ())):
            # offered, but refused beside the others: the Rules say why (a match that never ends)
            try:
                replace(preset, **{**kept, **{r: house[r] for r in refused if r in KNOBS}})
            except RulesError as exc:
                reason = (exc.message, exc.fields)
                problem = f"{k} ({str(exc).removeprefix('invalid rules: ')})"
            else:               # a combination of one editor row's knobs it does not offer
                reason = (NOT_OFFERED, {"rule": knob_info(ROW_OF.get(k, k)).label})
        else:
            reason = (NOT_OFFERED, {"rule": knob_info(ROW_OF.get(k, k)).label})
        said = said or reason
        parts.append(problem or (_show(k) if type(k) is not str else k[:NAME_MAX]))
    message, words = said or (CANNOT_PLAY, {})
    return RulesError(f"house rules not offered with {preset_name}: {'; '.join(parts[:5])}", message, **words)


def match_rules(preset_name: Any, house: Any = None, months: Any = "preset") -> MatchRules:
    """The Rules of a match of preset ``preset_name`` with the house-rule changes ``house``
    (knob -> value, as the house-rules editor offers them: ``offered_changes``) and the length
    ``months``: one of the Rules' ``months_offered``, or None where the house rules take the
    month limit away (played to a target); left out, the preset's own.

    The one place the New match dialog, the house-rules editor, saved settings and the match
    server build rules from a player's choice. Raises RulesError (``sentence`` says in a player's
    words what to change, ``str`` every problem in technical English) for an unknown preset, a
    ``house`` that is not a dict, an unknown knob, a value the knob cannot hold or the editor
    does not offer, a combination the Rules refuse, or a length not offered."""
    if type(preset_name) is not str or preset_name not in RULESETS:
        raise RulesError(f"unknown rules preset {_show(preset_name)} (one of {', '.join(RULESETS)})",
                         UNKNOWN_PRESET)
    if house is None:
        house = {}
    if type(house) is not dict:
        raise RulesError(f"house rules must be a dict of rule knobs, not {_show(house)}", NOT_RULES)
    preset = RULESETS[preset_name]
    kept = offered_changes(preset_name, house)
    missing = object()
    refused = sorted((k for k, v in house.items()
                      if k not in kept and not (type(k) is str and _same(getattr(preset, k, missing), v))),
                     key=repr)
    if refused:
        raise _refusal(preset, preset_name, house, kept, refused)
    rules = replace(preset, **kept)       # offered_changes kept only what the Rules accept
    if "months" in kept and kept["months"] is None:
        if months not in ("preset", None):
            raise RulesError("these house rules play to a target: months must be null", LENGTH_BY_HOUSE)
        return MatchRules(rules, None, kept)
    if type(months) is str and months == "preset":
        months = rules.months
    if type(months) is not int or months not in rules.months_offered:
        raise RulesError(f"months must be one of {', '.join(map(str, rules.months_offered))}, "
                         f"not {_show(months)}", BAD_LENGTH)
    return MatchRules(rules, months, kept)


_CASUAL = Rules(
    name="casual", months=6, months_offered=(1, 3, 6, 12),
    combo_grading="stack", sake_cup_is_chaff=False, lucky_hands="off",
    field_four_pairs="play_on", seven_plus_double=True,
    koikoi_multiplier="opponent_called", exhausted_dealer="passes", oyagime_tie="redraw",
)

_CLASSIC = Rules(
    name="classic", months=12, months_offered=(1, 3, 6, 12),
    goko=15, shiko=8, ame_shiko=7, sanko=6, inoshikacho=5, akatan=6, aotan=6, akatan_aotan=12,
    combo_grading="stack", sake_cup_is_chaff=False, lucky_hands="off",
    field_four_pairs="play_on", seven_plus_double=False,
    koikoi_multiplier="opponent_called", exhausted_dealer="keeps", oyagime_tie="redraw",
)

_NINTENDO = Rules(
    name="nintendo", months=12, months_offered=(3, 6, 12),
    combo_grading="graded", sake_cup_is_chaff=True, lucky_hands="on", lucky_both_players="dealer",
    field_four_pairs="play_on", seven_plus_double=True, koikoi_multiplier="opponent_called",
    max_koikoi_calls=1, exhausted_dealer="passes", oyagime_tie="redraw",
)

_KK_ADD_10 = Rules(
    name="kk-add-10", months=12, months_offered=tuple(range(1, 13)),
    combo_grading="graded", sake_cup_is_chaff=True, lucky_hands="on", lucky_both_players="draw",
    field_four_pairs="redeal", seven_plus_double=True, koikoi_multiplier="own_calls_and_opponent",
    prompt_when="combo_new_or_grew", last_turn_auto_stop="mover_hand_empty",
    exhausted_dealer="keeps", oyagime_tie="kind",
)

_TOURNAMENT = replace(
    _KK_ADD_10, name="tournament", viewing="off", koikoi_multiplier="opponent_called",
    max_koikoi_calls=1, prompt_when="total_rises",
)

_YAKUZA = replace(
    _KK_ADD_10, name="yakuza", viewing="off", lucky_both_players="dealer",
    prompt_when="total_rises",
)

# KoiKoi Japan (the Steam game), as the open KoiKoi-AI project plays it: other sets stack,
# Akatan-Aotan pays on top, the viewing yaku are 1 (3 after one's own call), the sake cup is an
# animal and chaff, no doublings but +1 a call up to 3 calls and ×(calls − 2) beyond, the dealer
# gets 1 point when a round runs out, 8 rounds, zero-sum from 30 points each, and no Koi-Koi on
# the mover's last card. A dealt Teshi is redealt there (and Kuttsuki with it here: lucky hands
# "misdeal" redeals both) *(chosen)*; its stakes are not capped at the loser's points, ours are.
_KOIKOI_JAPAN = Rules(
    name="koikoi-japan", months=8, months_offered=(1, 3, 6, 8, 12),
    goko=10, shiko=8, ame_shiko=7, sanko=5, inoshikacho=5, akatan=5, aotan=5, akatan_aotan=10,
    hanami_zake=1, tsukimi_zake=1, viewing_after_koikoi=3, tane=1, tanzaku=1, kasu=1,
    combo_grading="stack", akatan_aotan_on_top=True, sake_cup_is_chaff=True, sake_cup_is_animal=True,
    lucky_hands="misdeal", field_four_of_month="redeal", field_four_pairs="play_on",
    seven_plus_double=False, koikoi_multiplier="none", own_call_bonus=1, own_call_bonus_max_calls=3,
    max_koikoi_calls=None, prompt_when="total_rises", last_turn_auto_stop="mover_hand_empty",
    exhausted_dealer="keeps", oya_ken=1, oyagime_tie="redraw",
    scoring_mode="zero_sum", starting_points=30,
)

# Battle Hanafuda (the open Battle Hanafuda AI, suzukiplan/open-hanafuda-ai): Nintendo's rules,
# but a dealt Teshi or Kuttsuki is redealt rather than paid, and so is a field holding four pairs
# or three (or four) cards of one month (its deal check rejects a field month of three or more),
# and no Koi-Koi is offered on the mover's last card. It offers 2, 4, 6 and 12 rounds.
_BATTLE_HANAFUDA = replace(
    _NINTENDO, name="battle-hanafuda", months_offered=(2, 4, 6, 12), lucky_hands="misdeal",
    field_four_pairs="redeal", field_three_of_month="redeal", last_turn_auto_stop="mover_hand_empty",
)

RULESETS: dict[str, Rules] = {
    r.name: r for r in (_CASUAL, _CLASSIC, _NINTENDO, _KK_ADD_10, _TOURNAMENT, _YAKUZA,
                        _KOIKOI_JAPAN, _BATTLE_HANAFUDA)
}
"""Preset name -> Rules, in the order of RULES.md section 5 (then the two games' presets)."""

PRESET_LABELS = {
    "casual": N_("Casual (6 months, stacking yaku)"),
    "classic": N_("Classic (Gokō 15, no 7+ doubling)"),
    "nintendo": N_("Nintendo (graded yaku, one Koi-Koi)"),
    "kk-add-10": N_("KK-ADD-10 (your calls multiply)"),
    "tournament": N_("Tournament (no viewing yaku, one Koi-Koi)"),
    "yakuza": N_("Yakuza (no viewing yaku)"),
    "koikoi-japan": N_("KoiKoi Japan (zero-sum, +1 a call)"),
    "battle-hanafuda": N_("Battle Hanafuda (redeals, one Koi-Koi)"),
}

PRESET_DESCRIPTIONS = {
    "casual": N_("Six months, every yaku stacks, and an opponent's Koi-Koi doubles your score."),
    "classic": N_("Twelve months, Gokō worth 15 and Sankō 6, and no doubling at 7 points."),
    "nintendo": N_("Nintendo's rules: graded set yaku, lucky hands, and one Koi-Koi a round."),
    "kk-add-10": N_("Graded set yaku, and every one of your own Koi-Koi calls multiplies your score."),
    "tournament": N_("Graded set yaku, no viewing yaku, and one Koi-Koi a round."),
    "yakuza": N_("Graded set yaku, no viewing yaku, and your own Koi-Koi calls multiply your score."),
    "koikoi-japan": N_("KoiKoi Japan's rules: eight months of zero-sum stakes from 30 points each; sets "
                    "stack, Akatan-Aotan pays 10 on top, viewing yaku pay 1 (3 after your own "
                    "Koi-Koi), and each call adds 1 point (up to 3 calls, then multiplies)."),
    "battle-hanafuda": N_("Battle Hanafuda's rules: Nintendo's, but lucky hands, four pairs or three of "
                       "a month in the field are dealt again, and no Koi-Koi on your last card."),
}
"""Preset name -> one or two sentences for the rules panel and the how-to-play page."""
