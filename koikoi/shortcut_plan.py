"""Where the shortcuts go on each platform, and what they say: ``plan_shortcut`` lists the
files (``PlannedFile``: the Linux desktop entry and icon, the Windows .ico and PowerShell
script and its links, the macOS app bundle), ``shortcut_places`` the folders and names
install may write (all uninstall may remove), ``game_command`` the command they start.
Nothing here writes a file: ``koikoi.launcher`` carries the plan out and re-exports these
names.

Linux    $XDG_DATA_HOME/applications/koikoi.desktop (the applications menu), the
         icon in $XDG_DATA_HOME/icons/hicolor/256x256/apps/koikoi.png, and a copy
         of the entry on the desktop (XDG_DESKTOP_DIR from user-dirs.dirs, else
         ~/Desktop if it exists), executable and marked trusted with gio.
Windows  Koi-Koi.lnk in the Start menu's Programs folder and on the Desktop,
         made by a generated PowerShell (WScript.Shell) script, with a .ico
         made from the game's icon.
macOS    ~/Applications/Koi-Koi.app: Info.plist, a launcher shell script in
         Contents/MacOS and the icon (.icns made with Pillow, else .png).

The command started is, in order: ``exe`` if given (a path or an argv list),
the frozen executable when running from a PyInstaller build, the ``koikoi``
script on PATH, else ``<python> -m koikoi`` (pythonw on Windows), started in
the folder holding the koikoi package when that is a source checkout.
"""

from __future__ import annotations

import io
import ntpath
import os
import plistlib
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

from . import __version__, paths

APP_ID = "koikoi"
APP_NAME = "Koi-Koi"
GENERIC_NAME = "Hanafuda card game"
COMMENT = "Play Koi-Koi, the Japanese flower-card game, against the computer or a friend"
WM_CLASS = "koikoi"            # see set_window_class()
MANIFEST_NAME = "shortcuts.json"
MARKER_KEY = "X-KoiKoi-Shortcut"

ExeArg = Union[str, Path, Sequence[str], None]

@dataclass(frozen=True)
class PlannedFile:
    """One file the install writes.

    kind: "text"  content is the file's text (written UTF-8; "utf-8-sig" for .ps1)
          "icon"  a PNG copied from `source`, resized to `size` if it is not
          "ico"   a Windows .ico made from `source`
          "icns"  a macOS .icns made from `source` (falls back to .png beside it)
          "lnk"   a Windows shortcut, written by the plan's script, not by Python
    mode: chmod bits after writing, or None.  trust: run `gio set ... trusted`.
    """
    path: Path
    kind: str
    content: Optional[str] = None
    source: Optional[Path] = None
    size: Optional[int] = None
    mode: Optional[int] = None
    trust: bool = False
    label: str = ""            # what to tell the player, e.g. "applications menu"


@dataclass
class Plan:
    platform: str
    files: list[PlannedFile]
    command: list[str]
    data_dir: Path
    manifest: Path
    script: Optional[str] = None        # Windows: the PowerShell text
    script_path: Optional[Path] = None
    notes: list[str] = field(default_factory=list)

    @property
    def paths(self) -> list[Path]:
        return [f.path for f in self.files]


# ----------------------------------------------------------------- places
def _norm_platform(platform: Optional[str]) -> str:
    p = (platform or sys.platform).lower()
    if p.startswith("win") or p == "cygwin":
        return "win32"
    if p.startswith("darwin") or p in ("mac", "macos", "osx"):
        return "darwin"
    return "linux"


def find_icon() -> Optional[Path]:
    """assets/icons/icon.png in the installed package, else in the source checkout."""
    pkg = Path(__file__).resolve().parent
    for base in (pkg / "assets", pkg.parent / "assets"):
        icon = base / "icons" / "icon.png"
        if icon.is_file():
            return icon
    return None


def _env_dir(var: str, home: Path, explicit_home: bool) -> Optional[Path]:
    """An absolute path from $var; with an explicit home, only if it lies inside it."""
    value = os.environ.get(var, "").strip()
    if not value or not os.path.isabs(value):
        return None
    p = Path(value)
    if explicit_home:
        try:
            p.resolve().relative_to(home.resolve())
        except ValueError:
            return None
    return p


def data_dir(platform: Optional[str] = None, home: Optional[Path] = None) -> Path:
    """Where the manifest (and the Windows .ico and script) live: the game's data folder
    (``koikoi.paths``), or that rule applied to another platform or home."""
    kh = paths.koikoi_home()
    plat = _norm_platform(platform)
    if kh is not None or (home is None and plat == _norm_platform(None)):
        return paths.data_dir()
    h = Path(home) if home is not None else Path.home()
    if plat == "win32":
        local = _env_dir("LOCALAPPDATA", h, home is not None) if home is None else None
        return (local or h / "AppData" / "Local") / APP_ID
    if plat == "darwin":
        return h / "Library" / "Application Support" / APP_ID
    share = _env_dir("XDG_DATA_HOME", h, home is not None) or h / ".local" / "share"
    return share / APP_ID


def linux_desktop_dir(home: Path, explicit_home: bool = False) -> Optional[Path]:
    """The desktop folder (``koikoi.paths.desktop_dir``: platformdirs reads XDG_DESKTOP_DIR
    from user-dirs.dirs) when ``home`` is the user's home and the configuration it reads
    lies inside it; for another home (``--home``, tests) its Desktop folder if there is one."""
    if _real(home) == _real(Path.home()):
        unset = not os.environ.get("XDG_CONFIG_HOME", "").strip()
        if unset or _env_dir("XDG_CONFIG_HOME", home, explicit_home) is not None:
            return paths.desktop_dir()
    d = home / "Desktop"
    return d if d.is_dir() else None


def _windows_dirs(home: Optional[Path]) -> tuple[Path, Path]:
    """(Start menu Programs folder, Desktop folder)."""
    if home is None and sys.platform.startswith("win"):
        appdata = os.environ.get("APPDATA")
        start = (Path(appdata) if appdata else Path.home() / "AppData" / "Roaming") \
            / "Microsoft" / "Windows" / "Start Menu" / "Programs"
        desktop = paths.desktop_dir() or Path.home() / "Desktop"    # a redirected one too (OneDrive)
        return start, desktop
    h = Path(home) if home is not None else Path.home()
    return (h / "AppData" / "Roaming" / "Microsoft" / "Windows" / "Start Menu" / "Programs",
            h / "Desktop")


# ----------------------------------------------------------------- command
def _source_checkout_dir() -> Optional[Path]:
    """The folder to start `python -m koikoi` in when koikoi is not installed."""
    parent = Path(__file__).resolve().parent.parent
    if any(part in ("site-packages", "dist-packages") for part in parent.parts):
        return None
    return parent


def game_command(platform: Optional[str] = None, exe: ExeArg = None) -> tuple[list[str], Optional[Path]]:
    """(argv that starts the game, working folder or None)."""
    plat = _norm_platform(platform)
    if exe is not None:
        if isinstance(exe, (str, Path)):
            return [str(Path(exe).absolute()) if os.path.exists(str(exe)) else str(exe)], None
        return [str(a) for a in exe], None
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).resolve())], None
    found = shutil.which(APP_ID)
    if found:
        return [str(Path(found).absolute())], None
    py = Path(sys.executable).absolute()
    if plat == "win32":
        pyw = py.with_name("pythonw.exe")
        if pyw.exists():
            py = pyw
    return [str(py), "-m", APP_ID], _source_checkout_dir()


def set_window_class() -> None:
    """Make SDL name the window class `koikoi`, matching StartupWMClass so the
    desktop groups the window under the launcher. Call before pygame.display.init()."""
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", WM_CLASS)
    os.environ.setdefault("SDL_VIDEO_WAYLAND_WMCLASS", WM_CLASS)
    os.environ.setdefault("SDL_APP_ID", WM_CLASS)


# ----------------------------------------------------------------- Linux
_EXEC_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def desktop_exec_arg(arg: str) -> str:
    """Quote one argument for Exec= (Desktop Entry spec), before string escaping."""
    arg = arg.replace("%", "%%")
    if arg == "" or any(c in _EXEC_RESERVED for c in arg):
        arg = '"' + re.sub(r'(["`$\\])', r"\\\1", arg) + '"'
    return arg


def desktop_exec(argv: Sequence[str]) -> str:
    """The Exec= value for argv: quoted per argument, then escaped as a string value."""
    s = " ".join(desktop_exec_arg(a) for a in argv)
    return (s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
            .replace("\r", "\\r"))


def _desktop_string(value: str) -> str:
    return (value.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
            .replace("\r", "\\r"))


def desktop_entry(argv: Sequence[str], icon: Optional[Path], workdir: Optional[Path]) -> str:
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.0",
        f"Name={APP_NAME}",
        "Name[ja]=\u82b1\u672d \u3053\u3044\u3053\u3044",
        f"GenericName={GENERIC_NAME}",
        f"Comment={COMMENT}",
        "Keywords=hanafuda;koikoi;cards;flower;japanese;",
        f"Exec={desktop_exec(argv)}",
    ]
    if workdir is not None:
        lines.append(f"Path={_desktop_string(str(workdir))}")
    if icon is not None:
        lines.append(f"Icon={_desktop_string(str(icon))}")
    lines += [
        "Terminal=false",
        "Categories=Game;CardGame;",
        f"StartupWMClass={WM_CLASS}",
        "StartupNotify=true",
        f"{MARKER_KEY}=true",
    ]
    return "\n".join(lines) + "\n"


_LINUX_ICON_DIR = Path("icons", "hicolor", "256x256", "apps")


def _linux_share(home: Path, explicit: bool) -> Path:
    return _env_dir("XDG_DATA_HOME", home, explicit) or home / ".local" / "share"


def _plan_linux(home: Path, explicit: bool, argv: list[str], workdir: Optional[Path],
                icon_src: Optional[Path], plan: Plan) -> None:
    share = _linux_share(home, explicit)
    icon_path = None
    if icon_src is not None:
        icon_path = share / _LINUX_ICON_DIR / f"{APP_ID}.png"
        plan.files.append(PlannedFile(icon_path, "icon", source=icon_src, size=256,
                                      mode=0o644, label="icon"))
    else:
        plan.notes.append("The game's icon was not found; the shortcut uses a generic one.")
    text = desktop_entry(argv, icon_path, workdir)
    plan.files.append(PlannedFile(share / "applications" / f"{APP_ID}.desktop", "text",
                                  content=text, mode=0o644, label="applications menu"))
    desktop = linux_desktop_dir(home, explicit)
    if desktop is not None:
        plan.files.append(PlannedFile(desktop / f"{APP_ID}.desktop", "text", content=text,
                                      mode=0o755, trust=True, label="desktop"))
    else:
        plan.notes.append("No Desktop folder found; only the applications menu entry is added.")


# ----------------------------------------------------------------- Windows
def _ps_quote(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def powershell_script(links: Iterable[Path], argv: Sequence[str], workdir: Optional[Path],
                      icon: Optional[Path]) -> str:
    target, args = argv[0], subprocess.list2cmdline(list(argv[1:]))
    wd = str(workdir) if workdir is not None else ntpath.dirname(target)
    out = [
        "# Generated by koikoi.launcher: creates the Koi-Koi shortcuts.",
        "$ErrorActionPreference = 'Stop'",
        "$shell = New-Object -ComObject WScript.Shell",
    ]
    for link in links:
        out += [
            f"New-Item -ItemType Directory -Force -Path {_ps_quote(str(link.parent))} | Out-Null",
            f"$s = $shell.CreateShortcut({_ps_quote(str(link))})",
            f"$s.TargetPath = {_ps_quote(target)}",
            f"$s.Arguments = {_ps_quote(args)}",
            f"$s.WorkingDirectory = {_ps_quote(wd)}",
            f"$s.Description = {_ps_quote(COMMENT)}",
        ]
        if icon is not None:
            out.append(f"$s.IconLocation = {_ps_quote(str(icon) + ',0')}")
        out.append("$s.Save()")
    return "\r\n".join(out) + "\r\n"


def _plan_windows(home: Optional[Path], argv: list[str], workdir: Optional[Path],
                  icon_src: Optional[Path], plan: Plan) -> None:
    start, desktop = _windows_dirs(home)
    ico = None
    if icon_src is not None:
        ico = plan.data_dir / f"{APP_ID}.ico"
        plan.files.append(PlannedFile(ico, "ico", source=icon_src, label="icon"))
    links = [start / f"{APP_NAME}.lnk", desktop / f"{APP_NAME}.lnk"]
    script = powershell_script(links, argv, workdir, ico)
    plan.script = script
    plan.script_path = plan.data_dir / "make_shortcuts.ps1"
    plan.files.append(PlannedFile(plan.script_path, "text", content=script, label="script"))
    plan.files.append(PlannedFile(links[0], "lnk", label="Start menu"))
    plan.files.append(PlannedFile(links[1], "lnk", label="desktop"))


# ----------------------------------------------------------------- macOS
def mac_launcher_script(argv: Sequence[str], workdir: Optional[Path]) -> str:
    lines = ["#!/bin/sh", "# Generated by koikoi.launcher: starts Koi-Koi."]
    if workdir is not None:
        lines.append(f"cd {shlex.quote(str(workdir))} || exit 1")
    lines.append("exec " + " ".join(shlex.quote(a) for a in argv) + ' "$@"')
    return "\n".join(lines) + "\n"


def info_plist(icon_file: Optional[str]) -> str:
    version = __version__
    d = {
        "CFBundleName": APP_NAME,
        "CFBundleDisplayName": APP_NAME,
        "CFBundleIdentifier": "io.github.koikoi.game",
        "CFBundleExecutable": APP_ID,
        "CFBundlePackageType": "APPL",
        "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundleShortVersionString": str(version),
        "CFBundleVersion": str(version),
        "LSApplicationCategoryType": "public.app-category.card-games",
        "NSHighResolutionCapable": True,
    }
    if icon_file:
        d["CFBundleIconFile"] = icon_file
    return plistlib.dumps(d).decode("utf-8")


def _mac_app(home: Path) -> Path:
    return home / "Applications" / f"{APP_NAME}.app"


def _plan_mac(home: Path, argv: list[str], workdir: Optional[Path],
              icon_src: Optional[Path], plan: Plan) -> None:
    app = _mac_app(home)
    contents = app / "Contents"
    icon_file = None
    if icon_src is not None:
        icon_file = f"{APP_ID}.icns"
        plan.files.append(PlannedFile(contents / "Resources" / icon_file, "icns",
                                      source=icon_src, label="icon"))
    plan.files.append(PlannedFile(contents / "Info.plist", "text",
                                  content=info_plist(icon_file), label="Applications"))
    plan.files.append(PlannedFile(contents / "MacOS" / APP_ID, "text",
                                  content=mac_launcher_script(argv, workdir), mode=0o755,
                                  label="launcher"))


# ----------------------------------------------------------------- plan
def plan_shortcut(platform: Optional[str] = None, home: Optional[Path] = None,
                  exe: ExeArg = None) -> Plan:
    """Everything install_shortcut would write, without writing anything."""
    plat = _norm_platform(platform)
    explicit = home is not None
    h = Path(home) if home is not None else Path.home()
    argv, workdir = game_command(plat, exe)
    ddir = data_dir(plat, home)
    plan = Plan(platform=plat, files=[], command=argv, data_dir=ddir,
                manifest=ddir / MANIFEST_NAME)
    icon = find_icon()
    if plat == "linux":
        _plan_linux(h, explicit, argv, workdir, icon, plan)
    elif plat == "win32":
        _plan_windows(home, argv, workdir, icon, plan)
    else:
        _plan_mac(h, argv, workdir, icon, plan)
    return plan


def shortcut_places(platform: Optional[str] = None,
                    home: Optional[Path] = None) -> list[tuple[Path, frozenset[str]]]:
    """The folders install writes into, each with the names of the files it writes
    there (an empty set: a folder it may create but writes no shortcut in).

    The same folders as plan_shortcut (whether or not the icon is found), plus
    ~/Desktop on Linux (the desktop may have been moved since the install) and
    the data folder. Uninstall removes nothing anywhere else.
    """
    plat = _norm_platform(platform)
    explicit = home is not None
    h = Path(home) if home is not None else Path.home()
    ddir = data_dir(plat, home)
    places: list[tuple[Path, frozenset[str]]] = []
    if plat == "linux":
        share = _linux_share(h, explicit)
        entry = frozenset({f"{APP_ID}.desktop"})
        places.append((share / "applications", entry))
        places.append((share / _LINUX_ICON_DIR, frozenset({f"{APP_ID}.png"})))
        for desk in (linux_desktop_dir(h, explicit), h / "Desktop"):
            if desk is not None:
                places.append((desk, entry))
        places.append((ddir, frozenset()))
    elif plat == "win32":
        start, desk = _windows_dirs(home)
        link = frozenset({f"{APP_NAME}.lnk"})
        places += [(start, link), (desk, link),
                   (ddir, frozenset({f"{APP_ID}.ico", "make_shortcuts.ps1"}))]
    else:
        contents = _mac_app(h) / "Contents"
        places += [(contents, frozenset({"Info.plist"})),
                   (contents / "MacOS", frozenset({APP_ID})),
                   (contents / "Resources", frozenset({f"{APP_ID}.icns", f"{APP_ID}.png"})),
                   (ddir, frozenset())]
    return places


# ----------------------------------------------------------------- doing


def _real(path: Union[str, Path]) -> str:
    """The real path, for comparisons only."""
    return os.path.normcase(os.path.realpath(path))


def icon_bytes(f: PlannedFile) -> tuple[bytes, Path]:
    """The bytes of an icon file and the path to write them at (icns may become png)."""
    from PIL import Image  # start-up time: measured 32 ms; every start loads this module, only an install draws icons
    img = Image.open(f.source).convert("RGBA")
    buf = io.BytesIO()
    path = f.path
    if f.kind == "icon":
        if f.size and img.size != (f.size, f.size):
            img = img.resize((f.size, f.size), Image.LANCZOS)
        img.save(buf, format="PNG")
    elif f.kind == "ico":
        img.save(buf, format="ICO", sizes=[(16, 16), (24, 24), (32, 32), (48, 48),
                                           (64, 64), (128, 128), (256, 256)])
    elif f.kind == "icns":
        try:
            img.resize((512, 512), Image.LANCZOS).save(buf, format="ICNS")
        except Exception:
            buf = io.BytesIO()
            img.save(buf, format="PNG")
            path = f.path.with_suffix(".png")
    return buf.getvalue(), path


__all__ = ["icon_bytes", "APP_ID", "APP_NAME", "GENERIC_NAME", "COMMENT", "WM_CLASS", "MANIFEST_NAME", "MARKER_KEY", "ExeArg", "PlannedFile", "Plan", "find_icon", "data_dir", "linux_desktop_dir", "game_command", "set_window_class", "desktop_exec_arg", "desktop_exec", "desktop_entry", "powershell_script", "mac_launcher_script", "info_plist", "plan_shortcut", "shortcut_places"]
