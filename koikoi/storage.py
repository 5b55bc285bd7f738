"""Where the game keeps its files, and how it writes them safely.

    from koikoi.storage import Storage
    store = Storage()                       # platformdirs folders, or $KOIKOI_HOME
    settings, warning = store.load_settings()
    store.save_autosave(session)            # after every action
    session = store.load_autosave()         # "Continue" on the title screen
    store.save_finished(session)            # into the history folder

Folders: ``user_config_dir("koikoi")`` (settings.json), ``user_data_dir``
(autosave.json, history/), ``user_log_dir`` (koikoi.log). Setting the
``KOIKOI_HOME`` environment variable puts all three under one folder (tests,
portable installs). Every file is JSON, written whole to a temporary file in
the same folder, flushed and fsync'ed, then renamed over the old one, so a
crash never leaves half a file. A file that cannot be read is never deleted:
it is renamed ``<name>.corrupt-YYYYmmdd-HHMMSS`` and a one-line message is
returned for the UI to show once. A settings file that parses but holds wrong
values or keys this version does not know (a newer version's) is validated key
by key: good values are kept, bad ones reset, and the file as it was is copied
to ``settings.json.backup-YYYYmmdd-HHMMSS`` before it is ever overwritten.

Settings keys: anim_speed, volume, music_volume, muted, month_numbers,
fullscreen, window_size, card_scale (0.85 / 1.0 / 1.15), name_style ("both",
"english", "romaji"), last_new_match (opponent, rules, months, and "house":
the house-rule changes on top of the preset, validated by ``valid_house_rules``).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import platformdirs

if TYPE_CHECKING:  # pragma: no cover
    from .ui.session import MatchSession

log = logging.getLogger("koikoi.storage")

APP_NAME = "koikoi"
ENV_HOME = "KOIKOI_HOME"

OPPONENTS = ("easy", "medium", "hard", "friend")

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
}

CARD_SCALES = (0.85, 1.0, 1.15)
NAME_STYLES = ("both", "english", "romaji")


# ------------------------------------------------------------------ folders


def _home() -> Optional[Path]:
    home = os.environ.get(ENV_HOME)
    return Path(home).expanduser() if home else None


def config_dir() -> Path:
    home = _home()
    return home / "config" if home else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    home = _home()
    return home / "data" if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def log_dir() -> Path:
    home = _home()
    return home / "logs" if home else Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


# ------------------------------------------------------------------ files


def atomic_write_text(path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (temp file, fsync, os.replace).

    On any failure the old file is untouched and the temp file removed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if hasattr(os, "O_DIRECTORY"):  # make the rename itself durable (POSIX)
        try:
            dfd = os.open(str(path.parent), os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:
            pass


def _stamped_sibling(path: Path, tag: str) -> Path:
    """``<name>.<tag>-YYYYmmdd-HHMMSS`` beside ``path``, with -2, -3... if that exists."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{tag}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{tag}-{stamp}-{n}")
    return target


def move_aside(path) -> Optional[Path]:
    """Rename an unreadable file to ``<name>.corrupt-YYYYmmdd-HHMMSS``; returns the
    new path (None if it could not be moved)."""
    path = Path(path)
    target = _stamped_sibling(path, "corrupt")
    try:
        os.replace(path, target)
        log.warning("moved unreadable %s aside to %s", path, target)
        return target
    except OSError as exc:
        log.error("could not move unreadable %s aside: %s", path, exc)
        return None


# ------------------------------------------------------------------ settings


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def _valid_new_match(v) -> Optional[dict]:
    from .engine import RULESETS
    if not isinstance(v, dict):
        return None
    opponent, rules, months = v.get("opponent"), v.get("rules"), v.get("months")
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


# Knobs a player may change on top of a preset (RULES.md section 5, house rules);
# name and months_offered are the preset's own, months is chosen in the dialog.
HOUSE_EXCLUDED = ("name", "months_offered")   # and "months" may only become None (no limit)


def valid_house_rules(preset_name: str, house: Any) -> dict:
    """The house-rule changes ``house`` (knob -> value) that the preset accepts:
    unknown knobs, wrong types and combinations the Rules refuse are dropped
    (one at a time, so one bad knob does not lose the others)."""
    from dataclasses import fields, replace
    from .engine import RULESETS
    if not isinstance(house, dict) or preset_name not in RULESETS:
        return {}
    preset = RULESETS[preset_name]
    known = {f.name for f in fields(preset)} - set(HOUSE_EXCLUDED)
    out: dict = {}
    todo = [(k, v) for k, v in house.items()
            if k in known and not isinstance(v, (list, dict)) and not (k == "months" and v is not None)
            and not (getattr(preset, k) == v and type(getattr(preset, k)) is type(v))]
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
    return out


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
        elif key == "name_style":
            if value in NAME_STYLES:
                out[key] = value
            else:
                reset.append(key)
        elif key in ("muted", "month_numbers", "fullscreen"):
            if isinstance(value, bool):
                out[key] = value
            else:
                reset.append(key)
        elif key == "window_size":
            if value is None:
                out[key] = None
            elif (isinstance(value, list) and len(value) == 2
                  and all(isinstance(n, int) and not isinstance(n, bool) and 200 <= n <= 16384 for n in value)):
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


def unknown_settings(data: Any) -> list[str]:
    """Keys of a settings file this version does not know (e.g. from a newer one)."""
    return sorted(k for k in data if k not in DEFAULT_SETTINGS) if isinstance(data, dict) else []


def keep_copy(path) -> Optional[Path]:
    """Copy ``path`` to ``<name>.backup-YYYYmmdd-HHMMSS`` (the original stays);
    returns the copy's path, or None if it could not be written."""
    path = Path(path)
    target = _stamped_sibling(path, "backup")
    try:
        atomic_write_text(target, path.read_text(encoding="utf-8"))
        log.warning("kept a copy of %s as %s", path, target)
        return target
    except (OSError, UnicodeDecodeError) as exc:
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


def session_from_json(text: str, **kwargs) -> "MatchSession":
    """A MatchSession from its JSON; a CPU level missing from this build plays
    as the 'random' level (the seat keeps its name). Raises ValueError on a
    malformed file or a log the rules do not reproduce."""
    from .ui.session import MatchSession, SeatConfig
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
        raise ValueError("not a koikoi match save")
    seats = []
    for s in data["seats"]:
        if not isinstance(s, dict):
            raise ValueError("a seat in the save is malformed")
        try:
            seat = SeatConfig(**s)
        except TypeError:
            raise ValueError("a seat in the save is malformed") from None
        if seat.kind == "cpu" and not level_available(seat.level):
            log.warning("CPU level %r is not in this build; that seat plays at 'random'", seat.level)
            seat = SeatConfig(seat.kind, seat.name, "random")
        seats.append(seat.__dict__.copy())
    data["seats"] = seats
    try:
        return MatchSession.from_json(json.dumps(data), **kwargs)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise ValueError(str(exc) or exc.__class__.__name__) from None


@dataclass(frozen=True)
class FinishedMatch:
    """One line of the match history (read from the file's summary only)."""

    path: Path
    finished_at: str            # ISO date-time, local time
    players: tuple              # (seat 0's name, seat 1's name)
    opponent: str               # "CPU (Hard)", "Friend", ...
    rules: str                  # preset name
    months: Optional[int]
    rounds: int
    scores: tuple
    winner: Optional[int]       # seat, None for a draw
    conceded: Optional[int] = None   # the seat that conceded an unfinished match, else None


def _summary(session: "MatchSession") -> dict:
    st = session.state
    names = [s.name for s in session.seats]
    opp = session.seats[1]
    return {
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "players": names,
        "opponent": opp.name if opp.kind == "cpu" else "Friend",
        "rules": st.rules.name,
        "months": st.months,
        "rounds": len(st.ledger),
        "scores": list(st.scores),
        "winner": st.winner,
    }


# ------------------------------------------------------------------ the store


class Storage:
    """The game's files. ``root`` (a folder) overrides every location at once."""

    def __init__(self, root=None):
        if root is not None:
            root = Path(root)
            self.config_dir = root / "config"
            self.data_dir = root / "data"
            self.log_dir = root / "logs"
        else:
            self.config_dir, self.data_dir, self.log_dir = config_dir(), data_dir(), log_dir()
        self.last_warning: Optional[str] = None

    # paths
    @property
    def settings_path(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def autosave_path(self) -> Path:
        return self.data_dir / "autosave.json"

    @property
    def history_dir(self) -> Path:
        return self.data_dir / "history"

    # ---------------------------------------------------------- settings
    def load_settings(self) -> tuple[dict, Optional[str]]:
        """(settings, warning or None). Never raises for a bad file."""
        p = self.settings_path
        defaults, _ = validate_settings({})
        if not p.exists():
            return defaults, None
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            log.warning("settings file %s is unreadable: %s", p, exc)
            moved = move_aside(p)
            where = f" (kept as {moved.name})" if moved else ""
            return defaults, f"Your settings file could not be read{where}; the defaults are in use."
        settings, reset = validate_settings(data)
        unknown = unknown_settings(data)
        if reset or unknown:
            # the file as it was is kept beside the new one: nothing the player set is lost,
            # even entries only a newer version of the game understands
            copy = keep_copy(p)
            kept = f" The old file was kept as {copy.name}." if copy else ""
            if unknown:
                log.warning("settings this version does not know: %s", ", ".join(unknown))
            if reset:
                log.warning("settings reset to defaults: %s", ", ".join(reset))
                nice = ", ".join(k.replace("_", " ") for k in reset)
                return settings, f"Some settings were invalid and were reset: {nice}.{kept}"
            return settings, f"Your settings file is from a newer version; unknown entries were set aside.{kept}"
        return settings, None

    def save_settings(self, settings: dict) -> bool:
        clean, _ = validate_settings(settings)
        try:
            atomic_write_text(self.settings_path, json.dumps(clean, indent=2, ensure_ascii=False))
            return True
        except OSError as exc:
            log.error("could not save settings to %s: %s", self.settings_path, exc)
            return False

    # ---------------------------------------------------------- autosave
    def save_autosave(self, session: "MatchSession") -> bool:
        try:
            atomic_write_text(self.autosave_path, session.to_json())
            return True
        except OSError as exc:
            log.error("could not autosave to %s: %s", self.autosave_path, exc)
            return False

    def has_autosave(self) -> bool:
        return self.autosave_path.is_file()

    def load_autosave_checked(self, **kwargs) -> tuple[Optional["MatchSession"], Optional[str]]:
        """(session or None, warning or None). A save that fails to parse or
        replay is moved aside; a finished match is filed in the history."""
        p = self.autosave_path
        if not p.is_file():
            return None, None
        try:
            session = session_from_json(p.read_text(encoding="utf-8"), **kwargs)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            log.warning("autosave %s refused: %s", p, exc)
            moved = move_aside(p)
            where = f" It was kept as {moved.name}." if moved else ""
            return None, f"The saved match could not be restored ({_short(exc)}).{where}"
        if session.state.is_over:
            self.save_finished(session)
            self.clear_autosave()
            return None, None
        return session, None

    def load_autosave(self, **kwargs) -> Optional["MatchSession"]:
        """The saved unfinished match, or None (see ``last_warning`` for why)."""
        session, self.last_warning = self.load_autosave_checked(**kwargs)
        return session

    def clear_autosave(self) -> None:
        try:
            self.autosave_path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.error("could not remove %s: %s", self.autosave_path, exc)

    # ---------------------------------------------------------- history
    def save_conceded(self, session: "MatchSession", seat: int) -> Optional[Path]:
        """File an unfinished match that ``seat`` conceded: its log as played so far,
        the other seat the winner. The autosave is removed."""
        path = self.save_finished(session, conceded=seat)
        if path is not None:
            self.clear_autosave()
        return path

    def save_finished(self, session: "MatchSession", *, conceded: Optional[int] = None) -> Optional[Path]:
        """File a finished match in the history folder (one JSON per match)."""
        data = json.loads(session.to_json())
        data["summary"] = _summary(session)
        if conceded is not None:
            data["summary"]["conceded"] = conceded
            data["summary"]["winner"] = 1 - conceded
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.history_dir / f"match-{stamp}.json"
        n = 1
        while path.exists():
            n += 1
            path = self.history_dir / f"match-{stamp}-{n}.json"
        try:
            atomic_write_text(path, json.dumps(data, ensure_ascii=False))
            return path
        except OSError as exc:
            log.error("could not save the finished match to %s: %s", path, exc)
            return None

    def list_finished(self) -> list[FinishedMatch]:
        """Finished matches, newest first. Unreadable files are skipped (logged)."""
        out: list[FinishedMatch] = []
        if not self.history_dir.is_dir():
            return out
        for p in self.history_dir.glob("match-*.json"):
            try:
                data = json.loads(p.read_text(encoding="utf-8"))
                s = data["summary"]
                players = tuple(str(x) for x in s["players"])
                scores = tuple(int(x) for x in s["scores"])
                winner = s.get("winner")
                conceded = s.get("conceded")
                if (len(players) != 2 or len(scores) != 2 or winner not in (None, 0, 1)
                        or conceded not in (None, 0, 1)):
                    raise ValueError("malformed summary")
                out.append(FinishedMatch(p, str(s["finished_at"]), players, str(s["opponent"]),
                                         str(s["rules"]), s.get("months"), int(s["rounds"]),
                                         scores, winner, conceded))
            except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
                log.warning("skipping unreadable history file %s: %s", p, exc)
        out.sort(key=lambda m: (m.finished_at, m.path.name), reverse=True)
        return out

    def load_finished(self, path) -> "MatchSession":
        """The finished match in ``path``, replayed. Raises ValueError if unreadable."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read {path}: {exc}") from None
        return session_from_json(text)


def _short(exc: BaseException, n: int = 90) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
    return msg if len(msg) <= n else msg[: n - 1] + "…"


__all__ = ["Storage", "FinishedMatch", "DEFAULT_SETTINGS", "CARD_SCALES", "NAME_STYLES", "HOUSE_EXCLUDED",
           "valid_house_rules", "unknown_settings", "keep_copy", "atomic_write_text", "move_aside",
           "validate_settings", "level_available", "session_from_json", "config_dir", "data_dir",
           "log_dir", "ENV_HOME"]
