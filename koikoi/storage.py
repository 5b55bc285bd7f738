"""Where the game keeps its files, and how it writes them safely.

    from koikoi.storage import Storage
    store = Storage()                       # platformdirs folders, or $KOIKOI_HOME
    settings, warning = store.load_settings()
    session = MatchSession(..., store=store)  # autosaves after every action, files itself once over
    session, warning = store.load_autosave_checked()   # "Continue" on the title screen
    store.list_finished()                   # the history, through its index

Folders: ``user_config_dir("koikoi")`` (settings.json), ``user_data_dir``
(autosave.json, saved/, history/, the history index), ``user_log_dir``
(koikoi.log). Setting the ``KOIKOI_HOME`` environment variable puts all three
under one folder (tests, portable installs).

Every file is JSON, read through the one defensive reader (koikoi.files:
regular files only, bounded size and depth, no NaN) and checked field by
field; written whole and atomically. A file that cannot be used is never
deleted: it is renamed ``<name>.corrupt-YYYYmmdd-HHMMSS`` and a one-line
message is returned for the UI to show once. A settings file that parses but
holds wrong values or keys this version does not know (a newer version's) is
validated key by key: good values are kept, bad ones reset, and the file as
it was is copied to ``settings.json.backup-YYYYmmdd-HHMMSS`` before it is
ever overwritten.

Matches have an id (koikoi.session). The autosave holds the match being
played; ``keep_for_later`` moves it to ``saved/match-<id>.json`` so another
can start, ``resume_saved`` brings one back (keeping the current one), and
``abandon_*`` files an unfinished match in the history marked unfinished.
Filing (``file_match``) is keyed by the id: asked twice, it writes one file.
The autosave is removed only once its match is in the history, and a start
that finds both keeps the history copy. The autosave is never overwritten by
another match: if one tries, the saved match is kept for later first.

A ``read_only`` Storage (the second window of the game) reads but writes,
moves and removes nothing.

Settings keys: anim_speed, volume, music_volume, muted, month_numbers,
fullscreen, window_size, card_scale (0.85 / 1.0 / 1.15), name_style ("both",
"english", "romaji"), last_new_match (opponent, rules, months, and "house":
the house-rule changes on top of the preset, validated by ``valid_house_rules``),
hints ("auto": with CPU · Easy only, "on", "off"), pace (the CPU's pace: "relaxed",
"normal", "quick"; ``koikoi.ui.hints.PACES``), friend_names (the two names of a
friend match, each 1 to 40 characters as ``koikoi.session.clean_name`` takes them),
language ("system": the OS language when its catalog is complete, "en", "ja";
``koikoi.i18n.resolve`` turns it into the language played in).

The messages returned for the UI are in the current language (``koikoi.i18n``).
"""

from __future__ import annotations

import copy
import errno
import json
import logging
import math
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from .ai import OFFERED_LEVELS
from .files import (REASONS, BadFile, atomic_write_text, clean_stale_temps, move_aside, parse_json, read_bytes,
                    read_json, stamped_sibling)
from .kept import KeptMatches, SavedMatch
from .paths import APP_NAME, ENV_HOME, config_dir, data_dir, log_dir  # noqa: F401  (the folders: koikoi.paths)
from .match_index import INDEX_NAME, MATCH_MAX_BYTES, FinishedMatch, MatchIndex, row_of
from .engine.phase import SeatKind
from .i18n import N_, _, format_number

if TYPE_CHECKING:  # pragma: no cover
    from .session import MatchSession

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


# ------------------------------------------------------------------ folders


def path_problem(*folders) -> Optional[str]:
    """A sentence for the player if a folder's path cannot be used at all (longer
    than the system allows, or holding a NUL), else None."""
    for folder in folders:
        try:
            os.lstat(folder / "settings.json")
        except FileNotFoundError:
            continue
        except ValueError:
            return _("The folder for the game's files is not a valid path: {path}.").format(
                path=repr(str(folder)[:80]))
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:
                return _("The folder for the game's files is too long a path ({count} characters; "
                         "set {variable} to a shorter folder): {path}…").format(
                    count=format_number(len(str(folder))), variable=ENV_HOME, path=str(folder)[:60])
    return None


# ------------------------------------------------------------------ settings


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _valid_new_match(v) -> Optional[dict]:
    from .engine import RULESETS
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
    """The house-rule changes ``house`` (knob -> value) that the preset accepts: only
    knobs and values the house-rules editor offers (``koikoi.engine.rules.HOUSE_ROWS``,
    declared with each knob), and only combinations the Rules accept. Anything else is
    dropped, one knob at a time, so one bad knob does not lose the others."""
    from dataclasses import replace
    from .engine import RULESETS
    from .engine.rules import JOINT_ROWS, house_knobs, house_offers, house_value
    if not isinstance(house, dict) or preset_name not in RULESETS:
        return {}
    preset = RULESETS[preset_name]
    offers = house_offers()

    def offered(k, v) -> bool:
        return any(type(v) is type(o) and v == o for o in offers.get(k, ()))
    todo = [(k, v) for k, v in house.items()
            if isinstance(k, str) and offered(k, v)
            and not (getattr(preset, k) == v and type(getattr(preset, k)) is type(v))]
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


def valid_online(value: Any) -> Optional[dict]:
    """The online-play fields, each checked (a name as a seat name, an address and a code of
    printable text, bounded; "lan" a bool); a bad field falls back to its default. None if
    ``value`` is not a dict."""
    from .session import clean_name
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
    from .session import clean_name
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


# ------------------------------------------------------------------ matches


def level_available(level: Optional[str]) -> bool:
    """True if the CPU ``level`` is built into this copy of the game."""
    from .ai import make_player
    try:
        make_player(level or "easy", seed=0)
        return True
    except ValueError:
        return False
    except Exception:  # a level that fails to build is as good as missing
        log.exception("the %r CPU failed to start", level)
        return False


def session_from_data(data: Any, **kwargs) -> "MatchSession":
    """A MatchSession from a save's parsed JSON, checked field by field and
    replayed; a CPU level missing from this build plays as the 'random' level
    (the seat keeps its name). Raises ValueError (only)."""
    from .session import MatchSession
    if isinstance(data, dict) and isinstance(data.get("seats"), list):
        data = dict(data)
        seats = []
        for s in data["seats"]:
            if (isinstance(s, dict) and s.get("kind") == SeatKind.CPU and isinstance(s.get("level"), (str, type(None)))
                    and not level_available(s.get("level"))):
                log.warning("CPU level %r is not in this build; that seat plays at 'random'", s.get("level"))
                s = dict(s, level="random")
            seats.append(s)
        data["seats"] = seats
    try:
        return MatchSession.from_data(data, **kwargs)
    except ValueError:
        raise
    except Exception as exc:  # the session's own checks should catch all; a bug must not crash a start
        log.exception("unexpected failure reading a match")
        raise ValueError(f"the save is malformed ({exc.__class__.__name__})") from None


def _summary(session: "MatchSession") -> dict:
    st = session.state
    names = [s.name for s in session.seats]
    opp = session.seats[1]
    return {
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "players": names,
        "opponent": opp.name if opp.kind == SeatKind.CPU else "Friend",
        "rules": st.rules.name,
        "months": st.months,
        "rounds": len(st.ledger),
        "scores": list(st.scores),
        "winner": st.winner,
    }


def _short(exc: BaseException, n: int = 90) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
    return msg if len(msg) <= n else msg[: n - 1] + "…"


def problem_text(exc: BaseException) -> str:
    """Why a file could not be used, in a few words of the current language, for a message
    on screen (``BadFile.reason``; any other error: the match in it is damaged). The
    English of ``str(exc)`` is for the log only."""
    if isinstance(exc, BadFile):
        return exc.reason
    return _(REASONS["damaged_match"])


def _match_problem(data: Any) -> str:
    """The BadFile kind of parsed JSON that is not a usable match."""
    from .session import FORMAT
    if not isinstance(data, dict) or type(data.get("format")) is not int:
        return "not_a_match"
    if data["format"] > FORMAT:
        return "newer_version"
    return "damaged_match" if data["format"] >= 1 else "not_a_match"


_UNKNOWN = object()

# why filing failed, in a few words for the player (``Storage.pending_message``)
_FILING_REASONS = {
    "read_only": N_("the history folder cannot be written"),
    "full": N_("the disk is full"),
    "other": N_("the history folder could not be written; see the log"),
}


def _filing_reason(exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return _FILING_REASONS["read_only"]
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return _FILING_REASONS["full"]
    return _FILING_REASONS["other"]


# ------------------------------------------------------------------ the store


class Storage(KeptMatches):
    """The game's files. ``root`` (a folder) overrides every location at once. The
    matches kept for later (``saved/``) are ``koikoi.kept``'s half."""

    _UNKNOWN = _UNKNOWN

    def __init__(self, root=None, *, read_only: bool = False):
        if root is not None:
            root = Path(root)
            self.config_dir = root / "config"
            self.data_dir = root / "data"
            self.log_dir = root / "logs"
        else:
            self.config_dir, self.data_dir, self.log_dir = config_dir(), data_dir(), log_dir()
        self.read_only = bool(read_only)
        self.last_warning: Optional[str] = None
        self._autosave_id: Any = _UNKNOWN      # the id in autosave.json, once known ("" = no file)
        self._index: Optional[MatchIndex] = None
        self._kept_reset()
        self.filing_problem: Optional[str] = None   # why the last filing failed (an N_ msgid), or None

    def read_only_view(self) -> "Storage":
        """The same folders, read but never written (a second window)."""
        return self._copy(read_only=True)

    def _copy(self, *, read_only: bool) -> "Storage":
        other = copy.copy(self)
        other.read_only = read_only
        other._autosave_id = _UNKNOWN
        other._index = None
        other._kept_reset()
        return other

    # paths
    @property
    def settings_path(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def autosave_path(self) -> Path:
        return self.data_dir / "autosave.json"

    @property
    def saved_dir(self) -> Path:
        return self.data_dir / "saved"

    @property
    def history_dir(self) -> Path:
        return self.data_dir / "history"

    @property
    def history_index(self) -> MatchIndex:
        if self._index is None:
            self._index = MatchIndex(self.history_dir, self.data_dir / INDEX_NAME, data_root=self.data_dir,
                                     writable=not self.read_only)
        return self._index

    def tidy(self) -> list[Path]:
        """At start, by the writer: remove temporary files that interrupted
        writes left behind (never a player's file; see koikoi.files)."""
        if self.read_only:
            return []
        removed = []
        for folder in (self.config_dir, self.data_dir, self.saved_dir, self.history_dir):
            removed += clean_stale_temps(folder)
        return removed

    def _set_aside(self, path: Path) -> Optional[Path]:
        """Move an unusable file aside (a read-only storage leaves it)."""
        return None if self.read_only else move_aside(path)

    # ---------------------------------------------------------- settings
    def load_settings(self) -> tuple[dict, Optional[str]]:
        """(settings, warning or None). Never raises for a bad file."""
        p = self.settings_path
        defaults, _reset = validate_settings({})
        try:
            data = read_json(p, max_bytes=SETTINGS_MAX_BYTES, root=self.config_dir)
            if data is None:
                return defaults, None
            if not isinstance(data, dict):
                raise BadFile("is not a settings file", "not_settings")
        except BadFile as exc:
            log.warning("settings file %s is unusable: %s", p, exc)
            moved = self._set_aside(p)
            if moved:
                return defaults, _("Your settings file could not be read (kept as {file}); "
                                   "the defaults are in use.").format(file=moved.name)
            return defaults, _("Your settings file could not be read; the defaults are in use.")
        settings, reset = validate_settings(data)
        unknown = unknown_settings(data)
        if reset or unknown:
            # the file as it was is kept beside the new one: nothing the player set is lost,
            # even entries only a newer version of the game understands
            copy_ = None if self.read_only else keep_copy(p)
            if unknown:
                log.warning("settings this version does not know: %s", ", ".join(unknown[:20]))
            if reset:
                log.warning("settings reset to defaults: %s", ", ".join(reset))
                nice = setting_names(reset)
                if copy_:
                    return settings, _("Some settings were invalid and were reset: {names}. "
                                       "The old file was kept as {file}.").format(names=nice, file=copy_.name)
                return settings, _("Some settings were invalid and were reset: {names}.").format(names=nice)
            if copy_:
                return settings, _("Your settings file is from a newer version; unknown entries were set "
                                   "aside. The old file was kept as {file}.").format(file=copy_.name)
            return settings, _("Your settings file is from a newer version; unknown entries were set aside.")
        return settings, None

    def saved_language(self) -> str:
        """The "language" setting as saved ("system" when unset, bad or unreadable), read
        without touching the file: the game picks its language before ``load_settings``
        words its messages."""
        try:
            data = read_json(self.settings_path, max_bytes=SETTINGS_MAX_BYTES, root=self.config_dir)
        except BadFile:
            return DEFAULT_SETTINGS["language"]
        value = data.get("language") if isinstance(data, dict) else None
        return value if isinstance(value, str) and value in LANGUAGES else DEFAULT_SETTINGS["language"]

    def save_settings(self, settings: dict) -> bool:
        if self.read_only:
            log.info("read-only: settings not saved")
            return True
        clean, _reset = validate_settings(settings)
        try:
            atomic_write_text(self.settings_path, json.dumps(clean, indent=2, ensure_ascii=False))
            return True
        except OSError as exc:
            log.error("could not save settings to %s: %s", self.settings_path, exc)
            return False

    def reset_settings(self) -> Optional[Path]:
        """--reset-settings: the old file is kept aside (``settings.json.backup-…``),
        never deleted; the defaults apply from the next start."""
        if self.read_only or not os.path.lexists(self.settings_path):
            return None
        target = stamped_sibling(self.settings_path, "backup")
        os.replace(self.settings_path, target)
        log.info("settings reset; the old file is %s", target)
        return target

    # ---------------------------------------------------------- reading matches
    def _read_match(self, path: Path, **kwargs) -> Optional["MatchSession"]:
        """The match in ``path`` (None if there is no file); BadFile if unusable (a match the
        rules refuse too: its ValueError's English, with a ``kind`` for the player)."""
        data = read_json(path, max_bytes=MATCH_MAX_BYTES, root=self.data_dir)
        if data is None:
            return None
        kwargs.setdefault("store", None if self.read_only else self)
        try:
            return session_from_data(data, **kwargs)
        except BadFile:
            raise
        except ValueError as exc:     # the same English (the log), with a kind for the player
            raise BadFile(str(exc), _match_problem(data)) from None

    def _match_from_bytes(self, raw: bytes) -> tuple:
        """(id, seats, replayed state) of a match file's bytes, without seating a CPU;
        BadFile if unusable (``_read_match``'s kinds)."""
        from .session import load_match
        data = parse_json(raw)
        try:
            return load_match(data)
        except ValueError as exc:
            raise BadFile(str(exc), _match_problem(data)) from None
        except Exception as exc:  # the session's own checks should catch all; a bug must not stop a listing
            log.exception("unexpected failure reading a match")
            raise BadFile(f"the save is malformed ({exc.__class__.__name__})", _match_problem(data)) from None

    @staticmethod
    def _problem_text(exc: BaseException) -> str:
        return problem_text(exc)

    def _peek_id(self, path: Path) -> Optional[str]:
        """The id of the match in ``path``, or None (no file, or unreadable)."""
        from .session import legacy_id, valid_match_id
        try:
            data = read_json(path, max_bytes=MATCH_MAX_BYTES, root=self.data_dir)
        except BadFile:
            return None
        if not isinstance(data, dict):
            return None
        if data.get("format") == 1 and type(data.get("format")) is int and isinstance(data.get("log"), dict):
            return legacy_id(data["log"])
        mid = data.get("id")
        return mid if valid_match_id(mid) else None

    def is_filed(self, match_id: str) -> Optional[Path]:
        """The history file of ``match_id`` if that match is filed (by name, then the index)."""
        try:
            for entry in os.scandir(self.history_dir):
                if entry.name.endswith(f"-{match_id}.json") and entry.name.startswith("match-"):
                    return Path(entry.path)
        except OSError:
            return None
        return self.history_index.path_of(match_id)

    # ---------------------------------------------------------- autosave
    def has_autosave(self) -> bool:
        return os.path.lexists(self.autosave_path)

    def save_autosave(self, session: "MatchSession") -> bool:
        """Write the match being played. Another match's autosave is never
        overwritten: it is kept for later first."""
        if self.read_only:
            return True
        try:
            if self._autosave_id is _UNKNOWN:
                self._autosave_id = self._peek_id(self.autosave_path) if self.has_autosave() else ""
                if self._autosave_id is None:    # there, but unreadable: never write over it
                    self._set_aside(self.autosave_path)
                    self._autosave_id = ""
            other = self._autosave_id

            def keep_the_other() -> None:     # only once the new save is on disk: a failed write moves nothing
                log.warning("the autosave holds another match (%s); keeping it for later", other)
                if not self.keep_for_later():
                    raise OSError("the other saved match could not be kept for later")
            text = session.to_json()
            atomic_write_text(self.autosave_path, text,
                              before_replace=keep_the_other if other not in ("", session.id) else None)
            self._autosave_id = session.id
            self._remember_autosave(session, text)
            return True
        except OSError as exc:
            log.error("could not autosave to %s: %s", self.autosave_path, exc)
            return False

    def load_autosave_checked(self, **kwargs) -> tuple[Optional["MatchSession"], Optional[str]]:
        """(session or None, warning or None). A save that cannot be read or
        replayed is moved aside; a finished one is filed in the history; one
        already in the history (a crash after filing) gives way to that copy."""
        p = self.autosave_path
        try:
            session = self._read_match(p, **kwargs)
        except (BadFile, ValueError) as exc:
            log.warning("autosave %s refused: %s", p, exc)
            moved = self._set_aside(p)
            self._autosave_id = "" if moved else _UNKNOWN
            if moved:
                return None, _("The saved match could not be restored ({reason}). "
                               "It was kept as {file}.").format(reason=problem_text(exc), file=moved.name)
            return None, _("The saved match could not be restored ({reason}).").format(reason=problem_text(exc))
        if session is None:
            self._autosave_id = ""
            return None, None
        self._autosave_id = session.id
        if self.is_filed(session.id) is not None:
            log.info("the autosaved match %s is already in the history; the autosave is removed", session.id)
            self.clear_autosave(session.id)
            return None, None
        if session.state.is_over:     # finished, not yet filed (the history folder refused it)
            if self.file_match(session) is not None:
                self.clear_autosave(session.id)
                return None, None
            return None, self.pending_message()
        return session, None

    def load_autosave(self, **kwargs) -> Optional["MatchSession"]:
        """The saved unfinished match, or None (see ``last_warning`` for why)."""
        session, self.last_warning = self.load_autosave_checked(**kwargs)
        return session

    def clear_autosave(self, match_id: str) -> None:
        """Remove the autosave of the match ``match_id`` (whose copy is filed):
        an autosave of any other match is left alone."""
        if self.read_only:
            return
        current = self._autosave_id
        if current is _UNKNOWN:
            current = self._peek_id(self.autosave_path) if self.has_autosave() else ""
        if current != match_id:
            if current:
                log.info("not removing the autosave of %s (asked for %s)", current, match_id)
            self._autosave_id = current
            return
        try:
            self.autosave_path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.error("could not remove %s: %s", self.autosave_path, exc)
            return
        self._autosave_id = ""

    # ---------------------------------------------------------- history
    def file_match(self, session: "MatchSession", *, conceded: Optional[int] = None,
                   abandoned: bool = False, online: Optional[dict] = None) -> Optional[Path]:
        """File ``session`` in the history (one JSON per match, named by its id).
        Idempotent: a match already filed is not written again. An unfinished
        match is filed only ``conceded`` (by that seat) or ``abandoned``.
        ``online``: a match played over the network, {"room": code, "seat": this
        player's seat} (the summary keeps it; ``match_index.row_of`` checks it)."""
        if self.read_only:
            log.info("read-only: match %s not filed", session.id)
            return None
        filed = self.is_filed(session.id)
        if filed is not None:
            return filed
        if not session.state.is_over and conceded is None and not abandoned:
            raise ValueError("an unfinished match is filed only when conceded or abandoned")
        data = session.to_data()
        data["summary"] = _summary(session)
        if online is not None:
            seat = online.get("seat")
            data["summary"]["online"] = {"room": str(online.get("room", ""))[:16], "seat": seat}
            if seat in (0, 1):
                data["summary"]["opponent"] = session.seats[1 - seat].name
        if not session.state.is_over:
            if conceded is not None:
                data["summary"]["conceded"] = conceded
                data["summary"]["winner"] = 1 - conceded
            else:
                data["summary"]["unfinished"] = True
                data["summary"]["winner"] = None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.history_dir / f"match-{stamp}-{session.id}.json"
        try:
            atomic_write_text(path, json.dumps(data, ensure_ascii=False))
        except OSError as exc:
            log.error("could not save the match to %s: %s", path, exc)
            self.filing_problem = _filing_reason(exc)
            return None
        self.filing_problem = None
        try:    # the row from the match in hand: no need to read back and replay what was just written
            self.history_index.add(row_of(path, session.id, session.seats, session.state, data["summary"]))
        except (ValueError, OSError) as exc:   # the next refresh reads it instead
            log.warning("could not index %s at once: %s", path, exc)
        return path

    def file_pending(self) -> tuple[int, int]:
        """File every finished match still waiting for the history (its filing failed: a
        read-only or full history folder): the autosave's, and any kept for later. Each
        copy is removed only once its match is filed. Returns (filed, still pending);
        ``pending_message()`` says why the rest wait. Called at start (through
        ``load_autosave_checked``) and from the History screen."""
        if self.read_only:
            return 0, 0
        filed = pending = 0
        with self._kept_lock:
            index = self.kept_index
            index.load()
            for path in [self.autosave_path] + [self.saved_dir / name for name in self._kept_names() or ()]:
                if path != self.autosave_path:
                    try:
                        summary = index.lookup(path.name, os.lstat(path))
                    except OSError:
                        continue
                    if summary is not None and not summary.over:
                        continue      # known unfinished: not read again
                try:
                    session = self._read_match(path, store=None)
                except (BadFile, ValueError):
                    continue          # unusable: the title sets it aside with a message
                if session is None or not session.state.is_over:
                    continue
                if self.file_match(session) is None:
                    pending += 1
                    continue
                filed += 1
                if path == self.autosave_path:
                    self.clear_autosave(session.id)
                else:
                    self._remove_saved(path)
            index.save()
        if filed or pending:
            log.info("pending filings: %d filed, %d still pending", filed, pending)
        return filed, pending

    def pending_message(self) -> str:
        """The title's toast while a finished match waits to be filed: that it is kept, and why
        it waits (the last filing's error), in the current language."""
        why = _(self.filing_problem or _FILING_REASONS["other"])
        return _("A finished match is waiting to be saved to the history ({reason}). It is kept safe "
                 "and will be saved from History or at the next start.").format(reason=why)

    def save_finished(self, session: "MatchSession", *, conceded: Optional[int] = None) -> Optional[Path]:
        """File a finished (or conceded) match; see ``file_match``."""
        return self.file_match(session, conceded=conceded)

    def save_conceded(self, session: "MatchSession", seat: int) -> Optional[Path]:
        """File an unfinished match that ``seat`` conceded: its log as played so far,
        the other seat the winner. Its autosave is removed once filed."""
        path = self.file_match(session, conceded=seat)
        if path is not None:
            self.clear_autosave(session.id)
            self._remove_saved(self._kept_path(session.id))
        return path

    def abandon(self, session: "MatchSession") -> Optional[Path]:
        """File an unfinished match as abandoned (shown as unfinished, never
        counted as won or lost); then, and only then, remove its saved copies."""
        path = self.file_match(session, abandoned=not session.state.is_over)
        if path is not None:
            self.clear_autosave(session.id)
            if not self.read_only:
                self._remove_saved(self._kept_path(session.id))
        return path

    def list_finished(self) -> list[FinishedMatch]:
        """Filed matches, newest first, with the index brought up to date first
        (tools and tests; the screens refresh in the background instead)."""
        index = self.history_index
        index.refresh(wait=True)
        return index.entries()

    def load_finished(self, path) -> "MatchSession":
        """The filed match in ``path``, replayed. Raises BadFile (a ValueError) if unusable:
        ``str()`` names the file and says why in English (the log), ``reason`` says why in
        the player's language."""
        try:
            session = self._read_match(Path(path), store=None)
        except (BadFile, ValueError) as exc:
            raise BadFile(f"{Path(path).name} {_short(exc)}",
                          exc.kind if isinstance(exc, BadFile) else "damaged_match") from None
        if session is None:
            raise BadFile(f"{Path(path).name} is no longer there", "missing")
        return session


__all__ = ["Storage", "FinishedMatch", "SavedMatch", "DEFAULT_SETTINGS", "CARD_SCALES", "NAME_STYLES", "LANGUAGES",
           "HINT_MODES", "PACE_NAMES", "valid_friend_names", "valid_online", "valid_house_rules", "unknown_settings", "keep_copy", "atomic_write_text",
           "move_aside", "validate_settings", "level_available", "session_from_data",
           "problem_text", "setting_name", "setting_names", "SETTING_LABELS",
           "config_dir", "data_dir", "log_dir", "path_problem", "ENV_HOME", "MAX_WINDOW", "MIN_WINDOW"]
