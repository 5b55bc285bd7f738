"""Every folder the game uses, decided in one place (no other module of the game imported).

    from koikoi import paths
    paths.config_dir()     # settings.json
    paths.data_dir()       # autosave.json, saved/, history/, the indexes, shortcuts.json
    paths.log_dir()        # koikoi.log
    paths.desktop_dir()    # the player's desktop folder, if there is one

The platform's user folders (``platformdirs``, app name "koikoi", no author
folder), unless ``$KOIKOI_HOME`` is set: then everything lives under that one
folder, as ``config/``, ``data/`` and ``logs/`` (tests, portable installs).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import platformdirs

APP_NAME = "koikoi"
ENV_HOME = "KOIKOI_HOME"


def koikoi_home() -> Optional[Path]:
    """``$KOIKOI_HOME`` as a Path, if set (everything of the game's then lives under it)."""
    home = os.environ.get(ENV_HOME, "").strip()
    return Path(home).expanduser() if home else None


def config_dir() -> Path:
    home = koikoi_home()
    return home / "config" if home else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    home = koikoi_home()
    return home / "data" if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def log_dir() -> Path:
    home = koikoi_home()
    return home / "logs" if home else Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def desktop_dir() -> Optional[Path]:
    """The player's desktop folder (``platformdirs.user_desktop_dir``: XDG_DESKTOP_DIR of
    user-dirs.dirs on Linux, the known folder on Windows, ~/Desktop on macOS) if it is an
    existing folder other than the home folder itself, else None."""
    try:
        desk = Path(platformdirs.user_desktop_dir())
        if desk.is_dir() and desk.resolve() != Path.home().resolve():
            return desk
    except (OSError, RuntimeError, ValueError):
        pass
    return None


__all__ = ["APP_NAME", "ENV_HOME", "koikoi_home", "config_dir", "data_dir", "log_dir", "desktop_dir"]
