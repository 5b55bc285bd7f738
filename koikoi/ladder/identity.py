"""The player's identity without a password: a random key kept in the data folder
(0600), and a display name checked before the server keeps it.

The server never stores the key itself, only key_hash(key); the public player id
shown on profiles and used by the operator is player_id(key_hash).
"""
from __future__ import annotations

import hashlib
import os
import re
import secrets
import time
import unicodedata
from pathlib import Path
from typing import Optional

from .. import paths
from ..i18n import N_

KEY_FILE = "player_key"
KEY_PREFIX = "kk1_"
# "kk1_" and 43 characters of URL-safe base64: 256 random bits
KEY_PATTERN = re.compile(r"kk1_[A-Za-z0-9_-]{43}")
NAME_MAX = 20            # characters, after NFC normalisation
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def valid_key(key: object) -> bool:
    return isinstance(key, str) and KEY_PATTERN.fullmatch(key) is not None


def key_hash(key: str) -> str:
    """What the server keeps instead of the key (a stolen database grants no key)."""
    if not valid_key(key):
        raise ValueError("not a player key")
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def player_id(hashed: str) -> str:
    """The public id of a profile: the first 16 hex digits of its key's hash."""
    return hashed[:16]


def key_path(folder: Optional[Path] = None) -> Path:
    return Path(folder if folder is not None else paths.data_dir()) / KEY_FILE


def _write_new(path: Path, key: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
        f.flush()
        os.fsync(f.fileno())


def _set_aside(path: Path) -> Path:
    aside = path.with_name(f"{path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
    n = 1
    while aside.exists():
        aside = path.with_name(f"{path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
        n += 1
    os.replace(path, aside)
    return aside


def read_key(folder: Optional[Path] = None) -> Optional[str]:
    """The stored key, or None when there is none or it cannot be read as one."""
    try:
        text = key_path(folder).read_text(encoding="ascii", errors="strict")[:200].strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if valid_key(text) else None


def load_or_create_key(folder: Optional[Path] = None) -> str:
    """The player's key, made on first use. A file that is not a key is set aside
    (renamed, never deleted) and a new key written in its place."""
    path = key_path(folder)
    key = read_key(folder)
    if key is not None:
        _tighten(path)
        return key
    if path.exists() or path.is_symlink():
        _set_aside(path)
    key = new_key()
    try:
        _write_new(path, key)
    except FileExistsError:          # another window of the game made one just now
        other = read_key(folder)
        if other is not None:
            return other
        raise
    return key


def use_key(key: str, folder: Optional[Path] = None) -> Optional[Path]:
    """"Use a key": the key copied from another computer replaces this one. The old
    one is kept beside it (returned), so a mistyped paste loses nothing."""
    key = key.strip()
    if not valid_key(key):
        raise ValueError(N_("That is not a player key."))
    path = key_path(folder)
    if read_key(folder) == key:
        return None
    aside = _set_aside(path) if (path.exists() or path.is_symlink()) else None
    _write_new(path, key)
    return aside


def _tighten(path: Path) -> None:
    try:
        if os.name == "posix" and path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
    except OSError:
        pass


def check_name(name: object) -> tuple[Optional[str], Optional[str]]:
    """(the name to keep, None) or (None, the refusal in English, for _() on display).

    Refused: not text, empty, longer than NAME_MAX characters, or holding control,
    format (zero-width, bidirectional), private-use, unassigned or line/paragraph
    separator characters, which render as boxes or hide what the name says."""
    if not isinstance(name, str):
        return None, N_("The name must be text.")
    if len(name) > NAME_MAX * 4:
        return None, N_("The name is too long.")
    text = unicodedata.normalize("NFC", name).strip()
    if not text:
        return None, N_("The name is empty.")
    if len(text) > NAME_MAX:
        return None, N_("The name is too long.")
    if any(unicodedata.category(ch) in _REFUSED_CATEGORIES for ch in text):
        return None, N_("The name holds control or invisible characters.")
    text = " ".join(text.split())     # tabs were refused above; runs of spaces become one
    return text, None
