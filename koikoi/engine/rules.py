"""Every rule knob in one frozen value, and the six presets of shared/RULES.md.

A preset is just a named ``Rules``; house rules are
``dataclasses.replace(RULESETS["nintendo"], weather=True)``. A match records
its full ``Rules`` in its first event, so a saved match replays under the
rules it was played with.
"""

from __future__ import annotations

import reprlib
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Optional

# The allowed values of the enumerated knobs (the first is not a default,
# see the field defaults below).
CHOICES: dict[str, tuple] = {
    "combo_grading": ("stack", "graded"),
    "viewing": ("on", "off", "with_other_yaku"),
    "lucky_hands": ("off", "on", "misdeal"),
    "lucky_both_players": ("draw", "dealer"),
    "field_four_of_month": ("redeal", "dealer_sweeps", "dealer_wins"),
    "field_four_pairs": ("redeal", "play_on"),
    "koikoi_multiplier": ("opponent_called", "own_calls_and_opponent", "caller", "anyone", "scaling", "none"),
    "prompt_when": ("total_rises", "combo_new_or_grew"),
    "last_turn_auto_stop": ("both_hands_empty", "mover_hand_empty"),
    "exhausted_dealer": ("keeps", "passes", "last_yaku"),
    "oyagime_tie": ("redraw", "kind"),
    "scoring_mode": ("total", "zero_sum"),
}

_POINT_KNOBS = (
    "goko", "shiko", "ame_shiko", "sanko", "inoshikacho", "akatan", "aotan", "akatan_aotan",
    "hanami_zake", "tsukimi_zake", "tane", "tanzaku", "kasu",
    "lucky_points", "lucky_both_hands_points", "oya_ken",
)

# Upper bounds of the number knobs. A saved match is read back through these checks,
# so a log cannot hand the statistics or ledger screens an absurd value.
NAME_MAX = 40                # characters in ``name``
POINTS_MAX = 10_000          # any one point knob
MONTHS_MAX = 120             # ``months`` and every entry of ``months_offered``
TARGET_POINTS_MAX = 100_000  # ``target_points`` and ``starting_points``
KOIKOI_CALLS_MAX = 100       # ``max_koikoi_calls``

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


@dataclass(frozen=True)
class Rules:
    """One complete rule system. Field names are the knobs of RULES.md."""

    name: str = "custom"
    # Match length: ``months`` rounds (None: until a target or a bankruptcy).
    months: Optional[int] = 12
    months_offered: tuple = (1, 3, 6, 12)
    target_points: Optional[int] = None
    # Bright yaku (only the best counts).
    goko: int = 10
    shiko: int = 8
    ame_shiko: int = 7
    sanko: int = 5
    # Set yaku.
    inoshikacho: int = 5
    akatan: int = 5
    aotan: int = 5
    akatan_aotan: int = 10
    hanami_zake: int = 5
    tsukimi_zake: int = 5
    # Counting yaku: points at the threshold (5 animals, 5 ribbons, 10 chaff), +1 each extra.
    tane: int = 1
    tanzaku: int = 1
    kasu: int = 1
    combo_grading: str = "stack"
    viewing: str = "on"
    weather: bool = False
    sake_cup_is_chaff: bool = False
    sake_cup_is_animal: bool = True
    # Lucky hands (teshi, kuttsuki), checked once on the dealt hands.
    lucky_hands: str = "off"
    lucky_points: int = 6
    lucky_both_hands_points: int = 6   # one player holding teshi and kuttsuki at once
    lucky_both_players: str = "draw"   # both players lucky: 0-0 draw, or the dealer's counts
    # Misdeals in the field.
    field_four_of_month: str = "redeal"
    field_four_pairs: str = "play_on"
    # Settlement.
    seven_plus_double: bool = True
    koikoi_multiplier: str = "opponent_called"
    field_brights_multiplier: bool = False
    max_koikoi_calls: Optional[int] = None   # None: unlimited
    prompt_when: str = "total_rises"
    last_turn_auto_stop: str = "both_hands_empty"
    exhausted_dealer: str = "keeps"
    oya_ken: int = 0
    oyagime_tie: str = "redraw"
    must_play_match: bool = False
    scoring_mode: str = "total"
    starting_points: int = 50   # zero_sum only *(chosen)*

    def __post_init__(self) -> None:
        problems = []
        if not (type(self.name) is str and 1 <= len(self.name) <= NAME_MAX):
            problems.append(f"name={_show(self.name)} (a text of 1 to {NAME_MAX} characters)")
        for knob, allowed in CHOICES.items():
            value = getattr(self, knob)
            if type(value) is not str or value not in allowed:
                problems.append(f"{knob}={_show(value)} (allowed: {', '.join(allowed)})")
        for knob in _POINT_KNOBS:
            value = getattr(self, knob)
            if not _whole(value, 0, POINTS_MAX):
                problems.append(f"{knob}={_show(value)} (a whole number from 0 to {POINTS_MAX})")
        for knob in ("weather", "sake_cup_is_chaff", "sake_cup_is_animal", "seven_plus_double",
                     "field_brights_multiplier", "must_play_match"):
            if not isinstance(getattr(self, knob), bool):
                problems.append(f"{knob}={_show(getattr(self, knob))} (true or false)")
        if self.months is not None and not _whole(self.months, 1, MONTHS_MAX):
            problems.append(f"months={_show(self.months)} (a whole number from 1 to {MONTHS_MAX}, or None)")
        if self.target_points is not None and not _whole(self.target_points, 1, TARGET_POINTS_MAX):
            problems.append(f"target_points={_show(self.target_points)} "
                            f"(a whole number from 1 to {TARGET_POINTS_MAX}, or None)")
        if self.months is None and self.target_points is None and self.scoring_mode != "zero_sum":
            problems.append("months=None needs a target_points or zero_sum scoring, or the match never ends")
        if self.max_koikoi_calls is not None and not _whole(self.max_koikoi_calls, 0, KOIKOI_CALLS_MAX):
            problems.append(f"max_koikoi_calls={_show(self.max_koikoi_calls)} "
                            f"(a whole number from 0 to {KOIKOI_CALLS_MAX}, or None)")
        if not _whole(self.starting_points, 1, TARGET_POINTS_MAX):
            problems.append(f"starting_points={_show(self.starting_points)} "
                            f"(a whole number from 1 to {TARGET_POINTS_MAX})")
        offered = self.months_offered
        if not (type(offered) is tuple and len(offered) <= MONTHS_MAX
                and all(_whole(m, 1, MONTHS_MAX) for m in offered)):
            problems.append(f"months_offered={_show(offered)} "
                            f"(a tuple of whole numbers from 1 to {MONTHS_MAX})")
        if problems:
            raise ValueError("invalid rules: " + "; ".join(problems))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["months_offered"] = list(self.months_offered)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """Build Rules from a dict, e.g. a saved match. Unknown knobs, and anything that is
        not a dict of valid knobs, raise ValueError."""
        if not isinstance(data, dict):
            raise ValueError(f"invalid rules: {_show(data)} (a dict of rule knobs)")
        known = {f.name for f in fields(cls)}
        unknown = sorted(_show(k) if type(k) is not str else k for k in data if k not in known)
        if unknown:
            raise ValueError(f"unknown rule knobs: {', '.join(u[:NAME_MAX] for u in unknown[:10])}"
                             + (", ..." if len(unknown) > 10 else ""))
        d = dict(data)
        if type(d.get("months_offered")) is list:
            d["months_offered"] = tuple(d["months_offered"])
        return cls(**d)

    def describe(self) -> list[tuple[str, str]]:
        """(knob, value) pairs for a "Rules of this match" panel."""
        return [(f.name, str(getattr(self, f.name))) for f in fields(self) if f.name != "name"]


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

RULESETS: dict[str, Rules] = {
    r.name: r for r in (_CASUAL, _CLASSIC, _NINTENDO, _KK_ADD_10, _TOURNAMENT, _YAKUZA)
}
"""Preset name -> Rules, in the order of RULES.md section 5."""

PRESET_LABELS = {
    "casual": "Casual (6 months, stacking yaku)",
    "classic": "Classic (Gokō 15, no 7+ doubling)",
    "nintendo": "Nintendo (graded yaku, one Koi-Koi)",
    "kk-add-10": "KK-ADD-10 (your calls multiply)",
    "tournament": "Tournament (no viewing yaku, one Koi-Koi)",
    "yakuza": "Yakuza (no viewing yaku)",
}
