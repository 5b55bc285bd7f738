"""Put a Koi-Koi icon where the player looks for programs, and take it away again.

    from koikoi.launcher import install_shortcut, uninstall_shortcut
    written = install_shortcut()        # prints where each shortcut went
    removed = uninstall_shortcut()      # removes exactly what install wrote

Linux    $XDG_DATA_HOME/applications/koikoi.desktop (the applications menu), the
         icon in $XDG_DATA_HOME/icons/hicolor/256x256/apps/koikoi.png, and a copy
         of the entry on the desktop (XDG_DESKTOP_DIR from user-dirs.dirs, else
         ~/Desktop if it exists), executable and marked trusted with gio.
Windows  Koi-Koi.lnk in the Start menu's Programs folder and on the Desktop,
         made by a generated PowerShell (WScript.Shell) script, with a .ico
         made from the game's icon.
macOS    ~/Applications/Koi-Koi.app: Info.plist, a launcher shell script in
         Contents/MacOS and the icon (.icns made with Pillow, else .png).

Everything goes through a plan: ``plan_shortcut(platform, home, exe)`` lists
the files (``PlannedFile``) and, on Windows, the script text; ``install``
carries the plan out and records what it wrote, with checksums, in
``shortcuts.json`` in the data folder ($KOIKOI_HOME/data, else the platformdirs
user data dir, as koikoi.storage.data_dir()), with the folders it created
(the data folder included). The record is read with koikoi.files.read_json
and written with atomic_write_text.

``uninstall`` trusts that record only as far as it can check it. It deletes a
listed file only when (1) it lies in one of the places install writes to
(``shortcut_places``: the folder, compared by real path, and the file name;
a symbolic link is never followed), (2) a sha256 was recorded for it and
(3) the file still has that hash. Anything else listed is left alone and
reported; malformed entries are reported and ignored. Recorded folders are
removed only when empty and in (or above, inside the home folder) those
places. A record that cannot be read or is the wrong shape is moved aside
(``<name>.corrupt-<stamp>``) and nothing is removed: ``ShortcutRecordError``,
an OSError, says so in one line. When nothing is left behind the record is
deleted, then the folders install created, the data folder included, if empty.

``home`` (a fake home folder, for tests) puts every path under it, data folder
included unless KOIKOI_HOME is set; XDG_* variables are then honoured only
when they point inside that home.

The command started is, in order: ``exe`` if given (a path or an argv list),
the frozen executable when running from a PyInstaller build, the ``koikoi``
script on PATH, else ``<python> -m koikoi`` (pythonw on Windows), started in
the folder holding the koikoi package when that is a source checkout.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import ntpath
import os
import plistlib
import re
import shlex
import shutil
import stat
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from . import paths
from .files import BadFile, atomic_write_bytes, atomic_write_text, move_aside, read_json

APP_ID = "koikoi"
APP_NAME = "Koi-Koi"
GENERIC_NAME = "Hanafuda card game"
COMMENT = "Play Koi-Koi, the Japanese flower-card game, against the computer or a friend"
WM_CLASS = "koikoi"            # see set_window_class()
MANIFEST_NAME = "shortcuts.json"
MARKER_KEY = "X-KoiKoi-Shortcut"

ExeArg = Union[str, Path, Sequence[str], None]

MANIFEST_MAX_BYTES = 1 << 20        # a real record is a few kB
_HASH_MAX_BYTES = 64 << 20          # no shortcut or icon install writes is this large


class ShortcutRecordError(OSError):
    """The shortcut record (manifest) cannot be trusted: unreadable or the wrong shape.

    It has been moved aside (``moved``; None if even that failed) and nothing was
    removed; ``str()`` is one line saying so, for ``koikoi: could not remove ...``.
    """

    def __init__(self, path: Path, reason: str, moved: Optional[Path]):
        self.path, self.reason, self.moved = path, reason, moved
        super().__init__(f"the shortcut record {_show(path)} {reason}; {self.aside}, "
                         "and nothing was removed")

    @property
    def aside(self) -> str:
        return (f"it was moved aside to {_show(self.moved)}" if self.moved is not None
                else "it could not be moved aside")


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
    import koikoi
    pkg = Path(koikoi.__file__).resolve().parent
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
    import koikoi
    parent = Path(koikoi.__file__).resolve().parent.parent
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
    try:
        from . import __version__ as version
    except Exception:
        version = "0"
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
def _sha256(path: Path) -> Optional[str]:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _ours(path: Path, known: dict) -> bool:
    """True if ``path`` is the file an earlier install recorded, unchanged since (its hash)."""
    entry = known.get(str(path))
    return (entry is not None and not os.path.islink(path) and os.path.isfile(path)
            and entry.get("sha256") == _sha256(path))


def _icon_bytes(f: PlannedFile) -> tuple[bytes, Path]:
    """The bytes of an icon file and the path to write them at (icns may become png)."""
    from PIL import Image
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


def _make_dirs(path: Path, created: list[dict]) -> None:
    """Make ``path`` and the folders above it that are missing; each one made is added to
    ``created`` with its device and inode, the proof uninstall asks for before removing it."""
    missing = []
    p = path
    while not os.path.lexists(p):
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    path.mkdir(parents=True, exist_ok=True)
    for m in reversed(missing):
        try:
            st = os.lstat(m)
        except OSError:
            continue
        created.append({"path": str(m), "dev": st.st_dev, "ino": st.st_ino})


# ----------------------------------------------------------------- the record
_HEX64 = re.compile(r"[0-9a-fA-F]{64}\Z")


class _BadShape(ValueError):
    """The record as a whole is not what install writes."""


def _show(path: Any) -> str:
    """A path for a message: as it is, or repr() if it holds control characters
    (a tampered record must not be able to forge lines or escape sequences)."""
    text = str(path)
    return text if text.isprintable() else repr(text)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _path_problem(value: Any) -> Optional[str]:
    """Why ``value`` is not a path install could have recorded, or None."""
    if not isinstance(value, str):
        return f"is {_json_type(value)}, not text"
    if not value or "\x00" in value:
        return "is empty or holds a NUL"
    if not os.path.isabs(value):
        return "is not an absolute path"
    return None


def _parse_manifest(data: Any) -> tuple[list[dict], list[dict], list[str]]:
    """Check a record field by field: (file entries, folders, problems).

    Raises _BadShape when the record as a whole is not what install writes (not
    an object; "files" or "dirs" not a list): none of it can be trusted then.
    A malformed entry is left out and described in ``problems``. An entry is
    returned as {"path": str, "sha256": lower-case hex or None, "label": str}, a
    folder as {"path": str, "dev": int, "ino": int} (None, None for a bare path an
    older version recorded: nothing proves it made that folder).
    """
    if not isinstance(data, dict):
        raise _BadShape(f"is not usable (it is {_json_type(data)}, not an object)")
    files = data.get("files", [])
    dirs = data.get("dirs", [])
    for key, value in (("files", files), ("dirs", dirs)):
        if not isinstance(value, list):
            raise _BadShape(f'is not usable ("{key}" is {_json_type(value)}, not a list)')
    entries: list[dict] = []
    folders: list[dict] = []
    problems: list[str] = []
    for i, e in enumerate(files, 1):
        where = f'"files" entry {i}'
        if not isinstance(e, dict):
            problems.append(f"{where} (it is {_json_type(e)}, not an object)")
            continue
        if "path" not in e:
            problems.append(f"{where} (it has no path)")
            continue
        why = _path_problem(e["path"])
        if why is not None:
            problems.append(f"{where} (its path {why})")
            continue
        sha = e.get("sha256")
        if sha is not None and not (isinstance(sha, str) and _HEX64.match(sha)):
            problems.append(f"{where}, {_show(e['path'])} (its sha256 is {_json_type(sha)}, "
                            "not a sha256 hash)")
            continue
        label = e.get("label")
        entries.append({"path": e["path"], "sha256": sha.lower() if sha else None,
                        "label": label if isinstance(label, str) else ""})
    for i, d in enumerate(dirs, 1):
        if isinstance(d, dict):
            why = _path_problem(d["path"]) if "path" in d else None
            if "path" not in d:
                problems.append(f'"dirs" entry {i} (it has no path)')
            elif why is not None:
                problems.append(f'"dirs" entry {i} (its path {why})')
            elif not all(type(d.get(k)) is int and d[k] >= 0 for k in ("dev", "ino")):
                problems.append(f'"dirs" entry {i}, {_show(d["path"])} (it has no device and inode numbers)')
            else:
                folders.append({"path": d["path"], "dev": d["dev"], "ino": d["ino"]})
            continue
        why = _path_problem(d)
        if why is not None:
            problems.append(f'"dirs" entry {i} (it {why})')
            continue
        folders.append({"path": d, "dev": None, "ino": None})    # a record of an older version: no proof
    return entries, folders, problems


def _dirs_record(folders: Iterable[dict]) -> list:
    """The record's "dirs": each folder once, with its proof; a bare path an older version
    recorded stays a bare path (no proof is made up for it)."""
    out = {}
    for f in folders:
        out[f["path"]] = f["path"] if f["ino"] is None else f
    return list(out.values())


def _read_record(mpath: Path, root: Path) -> Optional[tuple[dict, list[dict], list[dict], list[str]]]:
    """(record, file entries, folders, problems), or None when there is no record.

    Read with koikoi.files.read_json (a regular file only, size- and depth-limited,
    links only inside ``root``). A record that cannot be read or has the wrong
    shape is moved aside and ShortcutRecordError raised.
    """
    try:
        data = read_json(mpath, max_bytes=MANIFEST_MAX_BYTES, root=root)
        if data is None:
            if not os.path.lexists(mpath):
                return None
            # else the file holds JSON null: refused below as not an object
        entries, folders, problems = _parse_manifest(data)
    except (BadFile, _BadShape) as exc:
        raise ShortcutRecordError(mpath, str(exc), _set_aside(mpath)) from None
    return data, entries, folders, problems


def _set_aside(path: Path) -> Optional[Path]:
    """koikoi.files.move_aside, keeping its log warning from reaching stderr through
    logging's last-resort handler when nothing has set logging up (the shortcut
    commands): the caller says it in its own one line. In the game it is logged."""
    log = logging.getLogger("koikoi.files")
    quiet = None if log.hasHandlers() else logging.NullHandler()
    if quiet is not None:
        log.addHandler(quiet)
    try:
        return move_aside(path)
    finally:
        if quiet is not None:
            log.removeHandler(quiet)


def _save_manifest(path: Path, data: dict) -> None:
    atomic_write_text(path, json.dumps(data, indent=2) + "\n")


def _real(path: Union[str, Path]) -> str:
    """The real path, for comparisons only."""
    return os.path.normcase(os.path.realpath(path))


def _within(child: str, parent: str) -> bool:
    """child (a real path) is parent or inside it."""
    try:
        return os.path.commonpath([child, parent]) == parent
    except ValueError:              # different drives
        return False


def _in_places(path: str, places: list[tuple[str, frozenset[str]]]) -> bool:
    """``path`` names a file install writes: its folder (by real path) is one of the
    places and its name is one install uses there. The file itself is not resolved."""
    folder = _real(os.path.dirname(path))
    name = os.path.normcase(os.path.basename(path))
    return any(folder == f and name in names for f, names in places)


def _regular_file_hash(path: str) -> Optional[tuple[str, tuple[int, int]]]:
    """(sha256, (device, inode)) of the regular file at ``path``; None for a link,
    a FIFO, a device, a folder, a file too large to be ours, or one unreadable.
    Never follows a link and never waits on a FIFO."""
    flags = (os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _HASH_MAX_BYTES:
            return None
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode) or (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino):
            return None
        digest, total = hashlib.sha256(), 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > _HASH_MAX_BYTES:
                return None
            digest.update(chunk)
        return digest.hexdigest(), (fst.st_dev, fst.st_ino)
    except OSError:
        return None
    finally:
        os.close(fd)


def _remove_folders(folders: Iterable[dict], places: list[tuple[str, frozenset[str]]],
                    home: Path, out: Optional[Callable[[str], None]]) -> None:
    """Remove the recorded folders that are empty and that install made, deepest first:
    each must be the very folder it made (its device and inode as recorded when it was
    created: an edited record cannot name the player's own empty Desktop) and one of the
    places or a folder above one inside the home folder (install creates e.g.
    ~/.local/share/icons/hicolor/...). A link is never removed or followed. A folder
    above a place but outside home (e.g. $KOIKOI_HOME) is kept quietly; any other
    recorded folder is kept and reported."""
    home_real = _real(home)
    roots = [f for f, _ in places]
    by_path = {f["path"]: f for f in folders}
    for d in sorted(by_path, key=lambda s: len(Path(s).parts), reverse=True):
        made = by_path[d]
        try:
            st = os.lstat(d)
        except (OSError, ValueError):
            continue                # already gone
        real = _real(d)
        if not stat.S_ISDIR(st.st_mode) or not any(_within(r, real) for r in roots):
            _say(out, f"left alone: {_show(d)} (not a folder Koi-Koi created)")
            continue
        if not any(real == r for r in roots) and (real == home_real
                                                  or not _within(real, home_real)):
            continue
        if made["ino"] is None:
            _say(out, f"left alone: {_show(d)} (the record does not prove Koi-Koi created it)")
            continue
        if (st.st_dev, st.st_ino) != (made["dev"], made["ino"]):
            _say(out, f"left alone: {_show(d)} (not the folder Koi-Koi created)")
            continue
        try:
            os.rmdir(d)
        except OSError:
            pass                    # not empty: something else lives there now


def _trust(path: Path) -> None:
    gio = shutil.which("gio")
    if not gio:
        return
    try:
        subprocess.run([gio, "set", str(path), "metadata::trusted", "true"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=5)
    except Exception:
        pass


def _run_powershell(script_path: Path) -> tuple[bool, str]:
    ps = shutil.which("powershell") or shutil.which("pwsh")
    if not ps:
        return False, "PowerShell was not found"
    try:
        cp = subprocess.run([ps, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
                             "-File", str(script_path)], capture_output=True, text=True,
                            timeout=60, creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
    except Exception as e:
        return False, str(e)
    return cp.returncode == 0, (cp.stderr or cp.stdout or "").strip()


def _say(out: Optional[Callable[[str], None]], msg: str) -> None:
    if out is not None:
        try:
            out(msg)
        except Exception:
            pass


_WHERE = {
    "applications menu": "Added Koi-Koi to your applications menu: {}",
    "desktop": "Put a Koi-Koi icon on your desktop: {}",
    "Start menu": "Added Koi-Koi to the Start menu: {}",
    "Applications": "Added Koi-Koi to your Applications folder: {}",
}


def install_shortcut(*, platform: Optional[str] = None, home: Optional[Path] = None,
                     exe: ExeArg = None,
                     out: Optional[Callable[[str], None]] = print) -> list[Path]:
    """Write the shortcuts for this (or the given) platform; return the files written.

    Messages saying where each shortcut went are passed to `out` (print by default;
    None for silence). Raises OSError only if nothing at all could be written.
    """
    plan = plan_shortcut(platform, home, exe)
    entries: list[dict] = []
    dirs: list[dict] = []
    try:
        record = _read_record(plan.manifest, plan.data_dir)
    except ShortcutRecordError as exc:
        record = None
        plan.notes.append(f"The old shortcut record {_show(exc.path)} {exc.reason}; "
                          f"{exc.aside}, and a new one was started.")
    if record is not None:
        _, entries, dirs, problems = record
        if problems:
            plan.notes.append(f"Dropped {len(problems)} malformed entr"
                              f"{'y' if len(problems) == 1 else 'ies'} from the old shortcut "
                              f"record {_show(plan.manifest)}.")
    known = {e["path"]: e for e in entries}
    written: list[Path] = []
    errors: list[str] = []
    native = plan.platform == _norm_platform(None)

    for f in plan.files:
        if f.kind == "lnk":
            continue
        try:
            _make_dirs(f.path.parent, dirs)
            path = f.path
            if f.kind == "text":
                enc = "utf-8-sig" if path.suffix == ".ps1" else "utf-8"
                data = f.content.encode(enc) if f.content is not None else b""
            else:
                data, path = _icon_bytes(f)
            if os.path.lexists(path) and not _ours(path, known):
                # a file of the player's own (or another program's) by that name: never replaced
                plan.notes.append(f"Left {_show(path)} as it is: it was not made by Koi-Koi's "
                                  "--install-shortcut (remove or rename it, then install again).")
                continue
            atomic_write_bytes(path, data)    # a fresh O_EXCL|O_NOFOLLOW temp file, renamed
            # the temp file is private (0600); a shortcut is readable as a plain write made it
            os.chmod(path, f.mode if f.mode is not None else 0o644)
            if f.trust and native:
                _trust(path)
            written.append(path)
            known[str(path)] = {"path": str(path), "sha256": _sha256(path), "label": f.label}
        except Exception as e:
            errors.append(f"{f.path}: {e}")

    if plan.platform == "win32":
        links = [f for f in plan.files if f.kind == "lnk"]
        if native and plan.script_path is not None and plan.script_path in written:
            for f in links:
                _make_dirs(f.path.parent, dirs)
            ok, msg = _run_powershell(plan.script_path)
            if not ok:
                errors.append(f"the shortcut script failed: {msg}")
        elif not native:
            plan.notes.append(f"Not on Windows: run {plan.script_path} there with PowerShell "
                              "to create the shortcuts.")
        for f in links:
            if f.path.exists():
                written.append(f.path)
                known[str(f.path)] = {"path": str(f.path), "sha256": _sha256(f.path),
                                      "label": f.label}

    if plan.platform == "linux" and native:
        apps = next((f.path.parent for f in plan.files if f.label == "applications menu"), None)
        tool = shutil.which("update-desktop-database")
        if apps is not None and tool:
            try:
                subprocess.run([tool, "-q", str(apps)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=10)
            except Exception:
                pass
    if plan.platform == "darwin" and native:
        try:   # a touched bundle makes Finder/LaunchServices pick up the icon
            os.utime(next(f.path for f in plan.files if f.label == "Applications").parents[1])
        except Exception:
            pass

    try:
        if written:
            # Recorded when install creates it, so uninstall removes it again if empty.
            _make_dirs(plan.data_dir, dirs)
            _save_manifest(plan.manifest, {
                "version": 1, "platform": plan.platform, "command": plan.command,
                "installed": time.strftime("%Y-%m-%dT%H:%M:%S"),
                "files": list(known.values()), "dirs": _dirs_record(dirs)})
    except Exception as e:
        errors.append(f"could not record the shortcuts in {plan.manifest}: {e}")

    for f in plan.files:
        fmt = _WHERE.get(f.label)
        if fmt is None:
            continue
        target = f.path
        if f.label == "Applications":
            target = f.path.parents[1]       # the .app bundle
        if f.path in written:
            _say(out, fmt.format(target))
    for note in plan.notes:
        _say(out, note)
    for err in errors:
        _say(out, f"Problem: {err}")
    if not written and errors:
        raise OSError("Could not add the Koi-Koi shortcut: " + "; ".join(errors))
    return written


def uninstall_shortcut(*, platform: Optional[str] = None, home: Optional[Path] = None,
                       out: Optional[Callable[[str], None]] = print) -> list[Path]:
    """Remove the shortcut files install_shortcut recorded and that are still its own;
    return them.

    A recorded file is removed only if it is in one of ``shortcut_places`` (by the
    real path of its folder, and its name; a link is never followed), a sha256 was
    recorded for it and the file still has it. Anything else recorded is left and
    reported to ``out``, as are malformed entries (ignored). When nothing is left the
    record is deleted, then the recorded folders (the data folder included) that are
    empty and in those places.

    Raises ShortcutRecordError (an OSError; the record is moved aside, nothing is
    removed) when the record cannot be read or is the wrong shape, and OSError when
    a file that should go could not be removed.
    """
    plat = _norm_platform(platform)
    ddir = data_dir(plat, home)
    mpath = ddir / MANIFEST_NAME
    record = _read_record(mpath, ddir)
    if record is None:
        _say(out, f"No Koi-Koi shortcuts were installed (nothing recorded in {_show(mpath)}).")
        return []
    data, entries, folders, problems = record
    for problem in problems:
        _say(out, f"Ignored {problem} in {_show(mpath)}: it is malformed.")
    if not entries and not problems:
        _say(out, f"No Koi-Koi shortcuts were installed (nothing recorded in {_show(mpath)}).")

    places = [(_real(folder), frozenset(os.path.normcase(n) for n in names))
              for folder, names in shortcut_places(plat, home)]
    removed: list[Path] = []
    kept: list[dict] = []           # changed since: stays recorded for a later uninstall
    failed: list[str] = []
    for entry in entries:
        p = entry["path"]
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            continue                # already gone
        except (OSError, ValueError) as exc:
            _say(out, f"left alone: {_show(p)} (cannot be checked: {exc})")
            kept.append(entry)
            continue
        if not (entry["sha256"] and stat.S_ISREG(st.st_mode) and _in_places(p, places)):
            _say(out, f"left alone: {_show(p)} (not a file Koi-Koi created)")
            continue                # never ours: not kept in the record either
        got = _regular_file_hash(p)
        if got is None or got[0] != entry["sha256"]:
            _say(out, f"left alone: {_show(p)} (changed since it was installed)")
            kept.append(entry)
            continue
        try:
            now = os.lstat(p)       # still the very file just hashed?
            if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != got[1]:
                _say(out, f"left alone: {_show(p)} (changed since it was installed)")
                kept.append(entry)
                continue
            os.unlink(p)
        except FileNotFoundError:
            continue
        except OSError as exc:
            failed.append(f"{_show(p)}: {exc.strerror or exc}")
            kept.append(entry)
            continue
        removed.append(Path(p))
        _say(out, f"Removed {_show(p)}")

    if kept:
        keep = {k: data[k] for k in ("version", "platform", "command", "installed") if k in data}
        keep.update(files=kept, dirs=_dirs_record(folders))
        try:
            _save_manifest(mpath, keep)
        except OSError as exc:
            failed.append(f"the record of what is left, {_show(mpath)}: {exc.strerror or exc}")
    else:
        try:
            os.unlink(mpath)
        except FileNotFoundError:
            pass
        except OSError as exc:
            failed.append(f"{_show(mpath)}: {exc.strerror or exc}")
        h = Path(home) if home is not None else Path.home()
        _remove_folders(folders, places, h, out)
    if failed:
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        raise OSError(f"could not remove {failed[0]}{more}")
    return removed
