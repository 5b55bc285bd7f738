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

The settings file's keys, defaults and checks are ``koikoi.settings_schema``'s (re-exported
here); the folders are ``koikoi.paths``'s; the matches kept for later ``koikoi.kept``'s.

The messages returned for the UI are in the current language (``koikoi.i18n``).
"""

from __future__ import annotations

import copy
import json
import logging
import os
import time
from pathlib import Path
from typing import Any, Optional

from .files import (BadFile, atomic_write_text, clean_stale_temps, move_aside, parse_json, read_json,
                    stamped_sibling)
from .kept import KeptMatches, SavedMatch
from .paths import APP_NAME, ENV_HOME, config_dir, data_dir, log_dir  # noqa: F401  (the folders: koikoi.paths)
from .settings_schema import (CARD_SCALES, DEFAULT_SETTINGS, HINT_MODES, LANGUAGES, LESSON_ID,  # noqa: F401
                              LESSONS_MAX, MAX_WINDOW, MIN_WINDOW, NAME_STYLES, OPPONENTS, PACE_NAMES,
                              SETTING_LABELS, SETTINGS_MAX_BYTES, keep_copy, setting_name, setting_names,
                              unknown_settings, valid_friend_names, valid_house_rules, valid_lessons,
                              valid_online, validate_settings)
from .storage_messages import (FILING_REASONS, filing_reason, match_problem, path_problem,  # noqa: F401
                               problem_text, short)
from .match_index import INDEX_NAME, MATCH_MAX_BYTES, FinishedMatch, MatchIndex, row_of
from .engine.phase import SeatKind
from .ai import make_player
from . import session as sessions     # sessions.load_match: looked up at the call (tests count the replays)
from .session import MatchSession, legacy_id, valid_match_id
from .i18n import _

log = logging.getLogger("koikoi.storage")



# ------------------------------------------------------------------ matches


def level_available(level: Optional[str]) -> bool:
    """True if the CPU ``level`` is built into this copy of the game."""
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


_UNKNOWN = object()

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
            raise BadFile(str(exc), match_problem(data)) from None

    def _match_from_bytes(self, raw: bytes) -> tuple:
        """(id, seats, replayed state) of a match file's bytes, without seating a CPU;
        BadFile if unusable (``_read_match``'s kinds)."""
        data = parse_json(raw)
        try:
            return sessions.load_match(data)
        except ValueError as exc:
            raise BadFile(str(exc), match_problem(data)) from None
        except Exception as exc:  # the session's own checks should catch all; a bug must not stop a listing
            log.exception("unexpected failure reading a match")
            raise BadFile(f"the save is malformed ({exc.__class__.__name__})", match_problem(data)) from None

    @staticmethod
    def _problem_text(exc: BaseException) -> str:
        return problem_text(exc)

    def _peek_id(self, path: Path) -> Optional[str]:
        """The id of the match in ``path``, or None (no file, or unreadable)."""
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
            self.filing_problem = filing_reason(exc)
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
        why = _(self.filing_problem or FILING_REASONS["other"])
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
            raise BadFile(f"{Path(path).name} {short(exc)}",
                          exc.kind if isinstance(exc, BadFile) else "damaged_match") from None
        if session is None:
            raise BadFile(f"{Path(path).name} is no longer there", "missing")
        return session


__all__ = ["Storage", "FinishedMatch", "SavedMatch", "DEFAULT_SETTINGS", "CARD_SCALES", "NAME_STYLES", "LANGUAGES",
           "HINT_MODES", "PACE_NAMES", "valid_friend_names", "valid_online", "valid_house_rules", "unknown_settings", "keep_copy", "atomic_write_text",
           "move_aside", "validate_settings", "level_available", "session_from_data",
           "problem_text", "setting_name", "setting_names", "SETTING_LABELS",
           "config_dir", "data_dir", "log_dir", "path_problem", "ENV_HOME", "MAX_WINDOW", "MIN_WINDOW"]
