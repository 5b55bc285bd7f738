"""What the store tells the player, in a few words of the current language: why a folder's
path cannot be used (``path_problem``), why a file cannot be used (``problem_text``), why a
finished match still waits to be filed (``filing_reason``). The English of an exception's
``str()`` is for the log only. (``koikoi.storage`` re-exports these names.)"""

from __future__ import annotations

import errno
import os
from typing import Any, Optional

from .files import REASONS, BadFile
from .i18n import N_, _, format_number
from .paths import ENV_HOME
from .session import FORMAT


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



def short(exc: BaseException, n: int = 90) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
    return msg if len(msg) <= n else msg[: n - 1] + "…"


def problem_text(exc: BaseException) -> str:
    """Why a file could not be used, in a few words of the current language, for a message
    on screen (``BadFile.reason``; any other error: the match in it is damaged). The
    English of ``str(exc)`` is for the log only."""
    if isinstance(exc, BadFile):
        return exc.reason
    return _(REASONS["damaged_match"])


def match_problem(data: Any) -> str:
    """The BadFile kind of parsed JSON that is not a usable match."""
    if not isinstance(data, dict) or type(data.get("format")) is not int:
        return "not_a_match"
    if data["format"] > FORMAT:
        return "newer_version"
    return "damaged_match" if data["format"] >= 1 else "not_a_match"


# why filing failed, in a few words for the player (``Storage.pending_message``)
FILING_REASONS = {
    "read_only": N_("the history folder cannot be written"),
    "full": N_("the disk is full"),
    "other": N_("the history folder could not be written; see the log"),
}


def filing_reason(exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return FILING_REASONS["read_only"]
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return FILING_REASONS["full"]
    return FILING_REASONS["other"]


__all__ = ["path_problem", "problem_text", "short", "match_problem", "FILING_REASONS", "filing_reason"]
