"""The Koi-Koi rules engine: pure, immutable, event-sourced. No pygame, no I/O.

    from koikoi.engine import DECK, card, Rules, RULESETS, settle, new_match, \
        legal_actions, apply, replay, view, IllegalAction, events_to_json, events_from_json
"""

from .actions import Action, ChooseMatch, KoiKoi, PickOyagime, Play, Stop, describe
from .cards import DECK, KIND_JAPANESE, MONTH_NAMES, PLANTS, Card, Kind, card
from .events import LedgerRow, events_from_data, events_from_json, events_to_json, public_event
from .match import (IllegalAction, ReplayError, State, action_of, apply, legal_actions, new_match,
                    replay)
from .phase import Phase, SeatKind
from .rules import PRESET_DESCRIPTIONS, PRESET_LABELS, RULESETS, Rules
from .scoring import YAKU_NAMES, Award, settle, yaku_points
from .table import PublicTable, fold, fold_all
from .view import View, view

__all__ = [
    "DECK", "card", "Card", "Kind", "PLANTS", "MONTH_NAMES", "KIND_JAPANESE",
    "Rules", "RULESETS", "PRESET_LABELS", "PRESET_DESCRIPTIONS", "settle", "Award", "YAKU_NAMES", "yaku_points",
    "new_match", "legal_actions", "apply", "replay", "view", "View", "State",
    "IllegalAction", "ReplayError", "events_to_json", "events_from_json", "events_from_data", "public_event",
    "LedgerRow", "action_of", "Phase", "SeatKind", "PublicTable", "fold", "fold_all",
    "Action", "PickOyagime", "Play", "ChooseMatch", "KoiKoi", "Stop", "describe",
]
