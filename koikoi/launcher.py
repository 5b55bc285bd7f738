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
user data dir, as koikoi.storage.data_dir()). ``uninstall`` deletes only files listed there whose content is
still what was written (a file changed since is left and reported), and then
the folders it created if they are empty.

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
import ntpath
import os
import plistlib
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence, Union

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
    """Where the manifest (and the Windows .ico and script) live."""
    kh = os.environ.get("KOIKOI_HOME", "").strip()
    if kh:
        return Path(kh).expanduser() / "data"          # as koikoi.storage.data_dir()
    plat = _norm_platform(platform)
    if home is None and plat == _norm_platform(None):
        import platformdirs
        return Path(platformdirs.user_data_dir(APP_ID, appauthor=False))
    h = Path(home) if home is not None else Path.home()
    if plat == "win32":
        local = _env_dir("LOCALAPPDATA", h, home is not None) if home is None else None
        return (local or h / "AppData" / "Local") / APP_ID
    if plat == "darwin":
        return h / "Library" / "Application Support" / APP_ID
    share = _env_dir("XDG_DATA_HOME", h, home is not None) or h / ".local" / "share"
    return share / APP_ID


def linux_desktop_dir(home: Path, explicit_home: bool = False) -> Optional[Path]:
    """XDG_DESKTOP_DIR from user-dirs.dirs if it names an existing folder other than
    home itself, else ~/Desktop if it exists, else None."""
    config = _env_dir("XDG_CONFIG_HOME", home, explicit_home) or home / ".config"
    dirs_file = config / "user-dirs.dirs"
    try:
        for raw in dirs_file.read_text(encoding="utf-8").splitlines():
            m = re.match(r'\s*XDG_DESKTOP_DIR\s*=\s*"?([^"]*)"?\s*$', raw)
            if not m:
                continue
            value = m.group(1).replace("$HOME", str(home))
            value = value.replace("${HOME}", str(home))
            p = Path(value)
            if not p.is_absolute():
                p = home / p
            if p.is_dir() and p.resolve() != home.resolve():
                return p
            break
    except OSError:
        pass
    d = home / "Desktop"
    return d if d.is_dir() else None


def _windows_dirs(home: Optional[Path]) -> tuple[Path, Path]:
    """(Start menu Programs folder, Desktop folder)."""
    if home is None and sys.platform.startswith("win"):
        appdata = os.environ.get("APPDATA")
        start = (Path(appdata) if appdata else Path.home() / "AppData" / "Roaming") \
            / "Microsoft" / "Windows" / "Start Menu" / "Programs"
        desktop = _windows_known_desktop() or Path.home() / "Desktop"
        return start, desktop
    h = Path(home) if home is not None else Path.home()
    return (h / "AppData" / "Roaming" / "Microsoft" / "Windows" / "Start Menu" / "Programs",
            h / "Desktop")


def _windows_known_desktop() -> Optional[Path]:
    """The real Desktop folder (it may be redirected, e.g. to OneDrive)."""
    try:
        import ctypes
        from ctypes import wintypes
        buf = ctypes.create_unicode_buffer(wintypes.MAX_PATH)
        # CSIDL_DESKTOPDIRECTORY = 0x10
        if ctypes.windll.shell32.SHGetFolderPathW(None, 0x10, None, 0, buf) == 0:  # type: ignore
            return Path(buf.value)
    except Exception:
        pass
    return None


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


def _plan_linux(home: Path, explicit: bool, argv: list[str], workdir: Optional[Path],
                icon_src: Optional[Path], plan: Plan) -> None:
    share = _env_dir("XDG_DATA_HOME", home, explicit) or home / ".local" / "share"
    icon_path = None
    if icon_src is not None:
        icon_path = share / "icons" / "hicolor" / "256x256" / "apps" / f"{APP_ID}.png"
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


def _plan_mac(home: Path, argv: list[str], workdir: Optional[Path],
              icon_src: Optional[Path], plan: Plan) -> None:
    app = home / "Applications" / f"{APP_NAME}.app"
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


# ----------------------------------------------------------------- doing
def _sha256(path: Path) -> Optional[str]:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


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


def _make_dirs(path: Path, created: list[str]) -> None:
    missing = []
    p = path
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    path.mkdir(parents=True, exist_ok=True)
    for m in reversed(missing):
        created.append(str(m))


def _load_manifest(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            data.setdefault("files", [])
            data.setdefault("dirs", [])
            return data
    except (OSError, ValueError):
        pass
    return {"files": [], "dirs": []}


def _save_manifest(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(tmp, path)


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
    manifest = _load_manifest(plan.manifest)
    known = {e["path"]: e for e in manifest["files"] if isinstance(e, dict) and "path" in e}
    dirs: list[str] = list(manifest.get("dirs", []))
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
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
            if f.mode is not None:
                os.chmod(path, f.mode)
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

    manifest.update(version=1, platform=plan.platform, command=plan.command,
                    installed=time.strftime("%Y-%m-%dT%H:%M:%S"),
                    files=list(known.values()), dirs=dirs)
    try:
        if written:
            _save_manifest(plan.manifest, manifest)
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
    """Remove the files install_shortcut recorded (and only those); return them."""
    plat = _norm_platform(platform)
    mpath = data_dir(plat, home) / MANIFEST_NAME
    manifest = _load_manifest(mpath)
    removed: list[Path] = []
    kept: list[dict] = []
    for entry in manifest["files"]:
        try:
            p = Path(entry["path"])
        except (KeyError, TypeError):
            continue
        if not p.exists() and not p.is_symlink():
            continue
        want = entry.get("sha256")
        if want and _sha256(p) != want:
            _say(out, f"Left {p}: it was changed after Koi-Koi created it.")
            kept.append(entry)
            continue
        try:
            p.unlink()
            removed.append(p)
        except OSError as e:
            _say(out, f"Could not remove {p}: {e}")
            kept.append(entry)
    if removed:
        for p in removed:
            _say(out, f"Removed {p}")
    elif not manifest["files"]:
        _say(out, f"No Koi-Koi shortcuts were installed (nothing recorded in {mpath}).")
    try:
        if kept:
            manifest.update(files=kept)
            _save_manifest(mpath, manifest)
        elif mpath.exists():
            mpath.unlink()
    except OSError:
        pass
    if not kept:
        # Folders install created, deepest first, and only when empty now.
        for d in sorted(set(manifest.get("dirs", [])), key=lambda s: len(Path(s).parts),
                        reverse=True):
            try:
                os.rmdir(d)
            except OSError:
                pass
    return removed
