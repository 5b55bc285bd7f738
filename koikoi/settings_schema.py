"""The settings file's schema: every key, its default, and the check that keeps what is
good and resets what is not (``validate_settings``); the names the warnings use.

Settings keys: anim_speed, volume, music_volume, muted, month_numbers,
fullscreen, window_size, card_scale (0.85 / 1.0 / 1.15), name_style ("both",
"english", "romaji"), last_new_match (opponent, rules, months, and "house":
the house-rule changes on top of the preset, validated by ``valid_house_rules``),
hints ("auto": with CPU · Easy only, "on", "off"), pace (the CPU's pace: "relaxed",
"normal", "quick"; ``koikoi.ui.hints.PACES``), friend_names (the two names of a
friend match, each 1 to 40 characters as ``koikoi.session.clean_name`` takes them),
online, lessons, language ("system": the OS language when its catalog is complete,
"en", "ja"; ``koikoi.i18n.resolve`` turns it into the language played in).

``koikoi.storage`` reads and writes the file (and re-exports these names).
"""

from __future__ import annotations

import json
import logging
import math
import re
from pathlib import Path
from typing import Any, Optional

from .ai import OFFERED_LEVELS
from .engine import RULESETS
from .engine.rules import offered_changes
from .files import BadFile, atomic_write_text, read_bytes, stamped_sibling
from .i18n import N_, _
from .session import clean_name

log = logging.getLogger("koikoi.storage")

OPPONENTS = tuple(lvl.name for lvl in OFFERED_LEVELS) + ("friend",)   # the new-match choices
SETTINGS_MAX_BYTES = 1 << 20
MIN_WINDOW = (200, 200)
MAX_WINDOW = (7680, 4320)

DEFAULT_SETTINGS: dict[str, Any] = {
    "anim_speed": 1.0,          # 0 = instant, up to 2.0
    "volume": 0.8,
    "music_volume": 0.5,
    "muted": False,
    "month_numbers": True,      # month numerals printed in the card corners
    "fullscreen": False,
    "window_size": None,        # [w, h] of the last windowed session, or None
    "card_scale": 1.0,          # card size on the table: 0.85 small, 1.0 normal, 1.15 large
    "name_style": "both",       # names of cards and yaku: "both" (English + romaji), "english", "romaji"
    # the new-match defaults: the last choice, with its house rules (knob -> value)
    # ("house" is present only when some house rule differs from the preset)
    "last_new_match": {"opponent": "medium", "rules": "casual", "months": 6},
    "hints": "auto",            # practice hints and card tooltips: "auto" (CPU · Easy only), "on", "off"
    "pace": "normal",           # how long the CPU's turn takes to watch: "relaxed", "normal", "quick"
    "friend_names": ["Player 1", "Player 2"],   # the seats of a friend match, as last typed
    # online play, as last typed: the player's name, the host's address, the room code,
    # whether a hosted match may be joined from the local network, and where a hosted match
    # runs ("here": a server inside the game; "server": the match server at "server")
    "online": {"name": None, "address": "", "code": "", "lan": False, "where": "here", "server": ""},
    # the lessons (Title -> Learn) completed, by lesson id
    "lessons": {"done": []},
    "language": "system",       # "system" (the OS language, if translated), "en" or "ja"
}

CARD_SCALES = (0.85, 1.0, 1.15)
NAME_STYLES = ("both", "english", "romaji")
HINT_MODES = ("auto", "on", "off")
PACE_NAMES = ("relaxed", "normal", "quick")    # the keys of koikoi.ui.hints.PACES
LANGUAGES = ("system", "en", "ja")              # the "language" setting (koikoi.i18n.resolve)


# ------------------------------------------------------------------ settings


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _valid_new_match(v) -> Optional[dict]:
    if not isinstance(v, dict):
        return None
    opponent, rules, months = v.get("opponent"), v.get("rules"), v.get("months")
    if not (isinstance(opponent, str) and isinstance(rules, str)):   # a list or dict is unhashable
        return None
    if opponent not in OPPONENTS or rules not in RULESETS:
        return None
    preset = RULESETS[rules]
    if not (isinstance(months, int) and not isinstance(months, bool) and months in preset.months_offered):
        months = preset.months if preset.months in preset.months_offered else preset.months_offered[-1]
    out = {"opponent": opponent, "rules": rules, "months": months}
    house = valid_house_rules(rules, v.get("house"))
    if house:
        out["house"] = house
    return out


def valid_house_rules(preset_name: str, house: Any) -> dict:
    """The house-rule changes ``house`` (knob -> value) that the preset accepts, each bad knob
    dropped on its own so one does not lose the others: ``engine.rules.offered_changes``, the
    filter the match's rules are built with (``engine.rules.match_rules``)."""
    return offered_changes(preset_name, house)


def valid_online(value: Any) -> Optional[dict]:
    """The online-play fields, each checked (a name as a seat name, an address and a code of
    printable text, bounded; "lan" a bool); a bad field falls back to its default. None if
    ``value`` is not a dict."""
    if not isinstance(value, dict):
        return None
    out = dict(DEFAULT_SETTINGS["online"])
    name = value.get("name")
    if name is not None:
        try:
            out["name"] = clean_name(name)
        except ValueError:
            pass
    for key, limit in (("address", 100), ("code", 16)):
        text = value.get(key)
        if isinstance(text, str) and len(text) <= limit and text.isprintable():
            out[key] = text
    if isinstance(value.get("lan"), bool):
        out["lan"] = value["lan"]
    if value.get("where") in ("here", "server"):
        out["where"] = value["where"]
    text = value.get("server")
    if isinstance(text, str) and len(text) <= 100 and text.isprintable():
        out["server"] = text
    return out


def valid_friend_names(value: Any) -> Optional[list]:
    """The two names of a friend match, cleaned (``koikoi.session.clean_name``): a name
    that is not a valid seat name falls back to its default ("Player 1" / "Player 2").
    None if ``value`` is not a list of two."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    out = []
    for name, default in zip(value, DEFAULT_SETTINGS["friend_names"]):
        try:
            out.append(clean_name(name))
        except ValueError:
            out.append(default)
    return out


LESSON_ID = re.compile(r"[0-9a-z][0-9a-z-]{0,39}")
LESSONS_MAX = 200


def valid_lessons(value: Any) -> Optional[dict]:
    """The lesson progress, checked: {"done": [lesson ids]}, each id once, in the order
    completed. What can be kept is kept (bad or repeated ids dropped); None if nothing can."""
    if not isinstance(value, dict) or not isinstance(value.get("done"), list):
        return None
    done: list = []
    for lid in value["done"][:LESSONS_MAX]:
        if isinstance(lid, str) and LESSON_ID.fullmatch(lid) and lid not in done:
            done.append(lid)
    return {"done": done}


def validate_settings(data: Any) -> tuple[dict, list[str]]:
    """(clean settings, names of values that were reset). Unknown keys are dropped
    (``Storage.load_settings`` keeps a copy of a file that had any)."""
    out = json.loads(json.dumps(DEFAULT_SETTINGS))
    reset: list[str] = []
    if not isinstance(data, dict):
        return out, ["all"]
    ranges = {"anim_speed": (0.0, 2.0), "volume": (0.0, 1.0), "music_volume": (0.0, 1.0)}
    for key, value in data.items():
        if key not in DEFAULT_SETTINGS:
            continue
        if key in ranges:
            lo, hi = ranges[key]
            if _is_number(value) and lo <= value <= hi:
                out[key] = float(value)
            else:
                reset.append(key)
        elif key == "card_scale":
            if _is_number(value) and any(abs(value - c) < 1e-6 for c in CARD_SCALES):
                out[key] = min(CARD_SCALES, key=lambda c: abs(value - c))
            else:
                reset.append(key)
        elif key in ("name_style", "hints", "pace", "language"):
            allowed = {"name_style": NAME_STYLES, "hints": HINT_MODES, "pace": PACE_NAMES,
                       "language": LANGUAGES}[key]
            if isinstance(value, str) and value in allowed:
                out[key] = value
            else:
                reset.append(key)
        elif key in ("online", "friend_names", "lessons"):
            # checked field by field: what could be kept is kept, and any change is reported
            fixed = {"online": valid_online, "friend_names": valid_friend_names,
                     "lessons": valid_lessons}[key](value)
            if fixed is None or fixed != value:
                reset.append(key)
            if fixed is not None:
                out[key] = fixed
        elif key in ("muted", "month_numbers", "fullscreen"):
            if isinstance(value, bool):
                out[key] = value
            else:
                reset.append(key)
        elif key == "window_size":
            if value is None:
                out[key] = None
            elif (isinstance(value, list) and len(value) == 2
                  and all(isinstance(n, int) and not isinstance(n, bool) for n in value)
                  and MIN_WINDOW[0] <= value[0] <= MAX_WINDOW[0] and MIN_WINDOW[1] <= value[1] <= MAX_WINDOW[1]):
                out[key] = list(value)
            else:
                reset.append(key)
        elif key == "last_new_match":
            clean = _valid_new_match(value)
            if clean is None:
                reset.append(key)
            else:
                out[key] = clean
    return out, reset


# setting key -> its name for the player: the Settings screen's label where it has a row
# (the same msgids as koikoi/ui/scenes/settings.py, so they share one translation)
SETTING_LABELS = {
    "anim_speed": N_("Animation speed"),
    "pace": N_("CPU pace"),
    "volume": N_("Sound effects"),
    "music_volume": N_("Music"),
    "muted": N_("Mute"),
    "fullscreen": N_("Fullscreen"),
    "card_scale": N_("Card size"),
    "name_style": N_("Names"),
    "month_numbers": N_("Month numbers"),
    "hints": N_("Hints"),
    "language": N_("Language"),
    "window_size": N_("Window size"),
    "last_new_match": N_("New match choices"),
    "friend_names": N_("Friend match names"),
    "online": N_("Online play"),
    "lessons": N_("Lesson progress"),
}


def setting_name(key: str) -> str:
    """How a warning names the setting ``key``: its label on the Settings screen, in the
    current language ("Animation speed", "アニメーション速度"); a key without one in the
    file's own words."""
    label = SETTING_LABELS.get(key)
    return _(label) if label is not None else key.replace("_", " ")


def setting_names(keys) -> str:
    """``setting_name`` of each key, joined the language's way ("Animation speed, CPU pace")."""
    return _(", ").join(setting_name(k) for k in keys)


def unknown_settings(data: Any) -> list[str]:
    """Keys of a settings file this version does not know (e.g. from a newer one)."""
    return sorted(k for k in data if k not in DEFAULT_SETTINGS) if isinstance(data, dict) else []


def keep_copy(path) -> Optional[Path]:
    """Copy ``path`` to ``<name>.backup-YYYYmmdd-HHMMSS`` (the original stays);
    returns the copy's path, or None if it could not be written."""
    path = Path(path)
    target = stamped_sibling(path, "backup")
    try:
        raw = read_bytes(path, max_bytes=SETTINGS_MAX_BYTES, root=path.parent)
        if raw is None:
            return None
        atomic_write_text(target, raw.decode("utf-8"))
        log.warning("kept a copy of %s as %s", path, target)
        return target
    except (OSError, UnicodeDecodeError, BadFile) as exc:
        log.error("could not keep a copy of %s: %s", path, exc)
        return None


__all__ = ["DEFAULT_SETTINGS", "CARD_SCALES", "NAME_STYLES", "LANGUAGES", "HINT_MODES", "PACE_NAMES", "OPPONENTS",
           "SETTINGS_MAX_BYTES", "MIN_WINDOW", "MAX_WINDOW", "LESSON_ID", "LESSONS_MAX", "valid_house_rules",
           "valid_online", "valid_friend_names", "valid_lessons", "validate_settings", "SETTING_LABELS",
           "setting_name", "setting_names", "unknown_settings", "keep_copy"]
