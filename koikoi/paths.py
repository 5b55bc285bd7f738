"""Every folder the game uses, decided in one place (no other module of the game imported).

    from koikoi import paths
    paths.config_dir()     # settings.json
    paths.data_dir()       # autosave.json, saved/, history/, the indexes, shortcuts.json
    paths.log_dir()        # koikoi.log
    paths.desktop_dir()    # the player's desktop folder, if there is one
    paths.assets_dir()     # the game's pictures, sounds and fonts (read only)

The platform's user folders (``platformdirs``, app name "koikoi", no author
folder), unless ``$KOIKOI_HOME`` is set: then everything lives under that one
folder, as ``config/``, ``data/`` and ``logs/`` (tests, portable installs).
The assets are found as ``assets_dir`` says (``$KOIKOI_ASSETS`` first).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import platformdirs

APP_NAME = "koikoi"
ENV_HOME = "KOIKOI_HOME"
ENV_ASSETS = "KOIKOI_ASSETS"
ASSET_FOLDERS = ("cards", "table", "sounds", "fonts")


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


def assets_dir() -> Optional[Path]:
    """The folder holding cards/, table/, sounds/, fonts/ (None if none is found): the one
    ``$KOIKOI_ASSETS`` names, else the installed package ``koikoi.assets``, else ``assets/``
    beside the package (installed layout) or beside its folder (a source checkout)."""
    candidates: list[Path] = []
    env = os.environ.get(ENV_ASSETS)
    if env:
        candidates.append(Path(env))
    package_dir = Path(__file__).resolve().parent              # .../koikoi
    try:  # the installed package koikoi.assets
        from importlib import resources  # start-up time: measured 30 ms alone; the window and crash screen ask
        traversable = resources.files("koikoi.assets")
        if isinstance(traversable, Path):
            candidates.append(traversable)
    except Exception:  # not installed as a package (source checkout), or odd loader
        pass
    candidates.append(package_dir / "assets")                  # installed layout
    candidates.append(package_dir.parent / "assets")           # source checkout
    for c in candidates:
        try:
            if c.is_dir() and any((c / sub).is_dir() for sub in ASSET_FOLDERS):
                return c
        except OSError:
            continue
    return None


__all__ = ["APP_NAME", "ENV_HOME", "ENV_ASSETS", "koikoi_home", "config_dir", "data_dir", "log_dir", "desktop_dir",
           "assets_dir"]
