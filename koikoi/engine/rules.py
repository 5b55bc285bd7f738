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

One module per job; this one gathers their names where callers have always imported them:

    engine/knobs.py    Knob, House, When, RulesError and its sentences, the number bounds
    engine/ruleset.py  Rules, KNOBS, CHOICES
    engine/presets.py  RULESETS, PRESET_LABELS, PRESET_DESCRIPTIONS
    engine/house.py    the editor's rows, matters, match_rules and offered_changes
"""

from __future__ import annotations

from .house import (HOUSE_ROWS, JOINT_ROWS, ROW_OF, MatchRules, dependency_text, house_knobs, house_offers,
                    house_value, knob_info, match_rules, matters, offered_changes)
from .knobs import (AS_CHOSEN, BAD_CHOICE, BAD_LENGTH, BAD_LENGTHS, BAD_NUMBER, BAD_NUMBER_OR_NONE, BAD_TEXT,
                    BAD_TOGGLE, BAD_VALUE, CANNOT_PLAY, KNOB_GROUPS, KOIKOI_CALLS_MAX, LENGTH_BY_HOUSE,
                    MONTHS_MAX, NAME_MAX, NEVER_ENDS, NOT_OFFERED, NOT_RULES, POINTS_MAX, TARGET_POINTS_MAX,
                    UNKNOWN_KNOBS, UNKNOWN_PRESET, House, Knob, RulesError, When)
from .presets import PRESET_DESCRIPTIONS, PRESET_LABELS, RULESETS
from .ruleset import CHOICES, KNOBS, Rules

__all__ = [
    "Rules", "KNOBS", "CHOICES", "RULESETS", "PRESET_LABELS", "PRESET_DESCRIPTIONS",
    "Knob", "House", "When", "RulesError", "KNOB_GROUPS", "AS_CHOSEN",
    "NAME_MAX", "POINTS_MAX", "MONTHS_MAX", "TARGET_POINTS_MAX", "KOIKOI_CALLS_MAX",
    "NEVER_ENDS", "BAD_CHOICE", "BAD_TOGGLE", "BAD_NUMBER", "BAD_NUMBER_OR_NONE", "BAD_TEXT", "BAD_LENGTHS",
    "BAD_VALUE", "NOT_RULES", "UNKNOWN_KNOBS", "CANNOT_PLAY", "UNKNOWN_PRESET", "NOT_OFFERED", "BAD_LENGTH",
    "LENGTH_BY_HOUSE",
    "HOUSE_ROWS", "JOINT_ROWS", "ROW_OF", "knob_info", "house_value", "house_knobs", "house_offers",
    "matters", "dependency_text", "offered_changes", "match_rules", "MatchRules",
]
