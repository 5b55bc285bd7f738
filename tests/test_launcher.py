"""Shortcuts: real Linux and macOS installs into a temporary home, the Windows plan."""

from __future__ import annotations

import configparser
import os
import plistlib
import stat
from pathlib import Path

import pytest

from koikoi import launcher
from koikoi.launcher import (PlannedFile, desktop_exec, find_icon, install_shortcut,
                             plan_shortcut, uninstall_shortcut)

REQUIRED_KEYS = ("Type", "Name", "GenericName", "Comment", "Exec", "Icon", "Categories",
                 "Terminal", "StartupWMClass")


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    (h / "Desktop").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.setenv("XDG_DATA_HOME", str(h / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(h / ".config"))
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path / "koikoi-home"))
    monkeypatch.setattr(launcher, "_trust", lambda path: None)   # no gio in unit tests
    return h


def parse_exec(value: str) -> list[str]:
    """Undo desktop_exec: string-value escapes, then the Exec quoting rules."""
    out, i = [], 0
    while i < len(value):          # \\ -> \, \n, \t, \r, \s
        c = value[i]
        if c == "\\" and i + 1 < len(value):
            out.append({"\\": "\\", "n": "\n", "t": "\t", "r": "\r", "s": " "}.get(
                value[i + 1], "\\" + value[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    # Then the Exec rules: arguments split on spaces; inside "..." a backslash
    # escapes one of " ` $ \.
    text, args, cur, quoted, started, i = "".join(out), [], [], False, False, 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\" and i + 1 < len(text) and text[i + 1] in '"`$\\':
                cur.append(text[i + 1])
                i += 1
            elif c == '"':
                quoted = False
            else:
                cur.append(c)
        elif c == '"':
            quoted = started = True
        elif c == " ":
            if started:
                args.append("".join(cur))
            cur, started = [], False
        else:
            cur.append(c)
            started = True
        i += 1
    assert not quoted, "unbalanced quotes in Exec"
    if started:
        args.append("".join(cur))
    return [a.replace("%%", "%") for a in args]


def read_desktop(path: Path) -> configparser.SectionProxy:
    cp = configparser.ConfigParser(interpolation=None, strict=True)
    cp.optionxform = str
    cp.read_string(path.read_text(encoding="utf-8"))
    return cp["Desktop Entry"]


def test_icon_is_found():
    icon = find_icon()
    assert icon is not None and icon.is_file() and icon.name == "icon.png"


def test_linux_install_and_uninstall(home):
    apps = home / ".local" / "share" / "applications"
    apps.mkdir(parents=True)
    unrelated = apps / "other-game.desktop"
    unrelated.write_text("[Desktop Entry]\nType=Application\nName=Other\nExec=other\n")
    unrelated_desk = home / "Desktop" / "notes.txt"
    unrelated_desk.write_text("mine")
    messages: list[str] = []

    written = install_shortcut(platform="linux", home=home, out=messages.append)

    entry_path = apps / "koikoi.desktop"
    desk_copy = home / "Desktop" / "koikoi.desktop"
    icon = home / ".local/share/icons/hicolor/256x256/apps/koikoi.png"
    assert set(written) == {entry_path, desk_copy, icon}
    assert any(str(entry_path) in m and "applications menu" in m for m in messages)
    assert any(str(desk_copy) in m and "desktop" in m for m in messages)

    e = read_desktop(entry_path)
    for key in REQUIRED_KEYS:
        assert e.get(key), key
    assert e["Type"] == "Application"
    assert e["Name"] == "Koi-Koi"
    assert e["GenericName"] == "Hanafuda card game"
    assert e["Categories"] == "Game;CardGame;"
    assert e["Terminal"] == "false"
    argv = parse_exec(e["Exec"])
    assert os.path.isabs(argv[0]) and Path(argv[0]).is_file() and os.access(argv[0], os.X_OK)
    assert Path(e["Icon"]) == icon and icon.is_file()
    from PIL import Image
    with Image.open(icon) as im:
        assert im.size == (256, 256)

    assert desk_copy.read_text() == entry_path.read_text()
    mode = stat.S_IMODE(desk_copy.stat().st_mode)
    assert mode == 0o755 and os.access(desk_copy, os.X_OK)

    removed = uninstall_shortcut(platform="linux", home=home, out=None)
    assert set(removed) == set(written)
    assert not entry_path.exists() and not desk_copy.exists() and not icon.exists()
    assert unrelated.read_text().startswith("[Desktop Entry]")
    assert unrelated_desk.read_text() == "mine"
    assert (home / "Desktop").is_dir()
    # Folders install created are gone when empty; ones that held other files stay.
    assert not (home / ".local/share/icons").exists()
    assert apps.is_dir()
    # A second uninstall has nothing to do.
    assert uninstall_shortcut(platform="linux", home=home, out=None) == []


def test_linux_user_dirs_desktop(home):
    desk = home / "Schreibtisch"
    desk.mkdir()
    cfg = home / ".config"
    cfg.mkdir()
    (cfg / "user-dirs.dirs").write_text('# comment\nXDG_DESKTOP_DIR="$HOME/Schreibtisch"\n')
    written = install_shortcut(platform="linux", home=home, out=None)
    assert desk / "koikoi.desktop" in written
    assert not (home / "Desktop" / "koikoi.desktop").exists()


def test_linux_no_desktop_folder(home):
    (home / "Desktop").rmdir()
    msgs: list[str] = []
    written = install_shortcut(platform="linux", home=home, out=msgs.append)
    assert [p.name for p in written] == ["koikoi.png", "koikoi.desktop"]
    assert any("No Desktop folder" in m for m in msgs)


def test_exec_quoting_round_trip(home, tmp_path):
    weird = tmp_path / 'My Games' / 'koi $HOME "q" `x` back\\slash 100%'
    weird.mkdir(parents=True)
    exe = weird / "run game.sh"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    install_shortcut(platform="linux", home=home, exe=[str(exe), "--flag=a b"], out=None)
    e = read_desktop(home / ".local/share/applications/koikoi.desktop")
    assert parse_exec(e["Exec"]) == [str(exe), "--flag=a b"]
    assert desktop_exec(["/usr/bin/koikoi"]) == "/usr/bin/koikoi"


def test_uninstall_leaves_a_changed_file(home):
    install_shortcut(platform="linux", home=home, out=None)
    entry = home / ".local/share/applications/koikoi.desktop"
    entry.write_text(entry.read_text() + "# edited by the user\n")
    msgs: list[str] = []
    removed = uninstall_shortcut(platform="linux", home=home, out=msgs.append)
    assert entry.exists() and entry not in removed
    assert any("changed" in m for m in msgs)
    assert not (home / "Desktop" / "koikoi.desktop").exists()


def test_reinstall_then_uninstall(home):
    first = install_shortcut(platform="linux", home=home, out=None)
    second = install_shortcut(platform="linux", home=home, out=None)
    assert set(first) == set(second)
    assert set(uninstall_shortcut(platform="linux", home=home, out=None)) == set(first)


def test_explicit_home_ignores_outside_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "elsewhere-config"))
    monkeypatch.delenv("KOIKOI_HOME", raising=False)
    h = tmp_path / "fake"
    plan = plan_shortcut("linux", h, exe="/usr/bin/true")
    for p in plan.paths + [plan.manifest]:
        assert h in p.parents, p


def test_windows_plan(tmp_path, monkeypatch):
    monkeypatch.delenv("KOIKOI_HOME", raising=False)
    h = tmp_path / "User"
    target = r"C:\Program Files\Koi-Koi\koikoi.exe"
    plan = plan_shortcut("win32", h, exe=target)
    data = h / "AppData" / "Local" / "koikoi"
    start = h / "AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Koi-Koi.lnk"
    desk = h / "Desktop" / "Koi-Koi.lnk"
    assert [(f.path, f.kind) for f in plan.files] == [
        (data / "koikoi.ico", "ico"),
        (data / "make_shortcuts.ps1", "text"),
        (start, "lnk"),
        (desk, "lnk"),
    ]
    assert all(h in f.path.parents for f in plan.files)
    s = plan.script
    assert s == plan.files[1].content
    assert "WScript.Shell" in s and s.count(".Save()") == 2
    assert f"$s.TargetPath = '{target}'" in s
    assert f"$s.IconLocation = '{data / 'koikoi.ico'},0'" in s
    assert f"CreateShortcut('{start}')" in s and f"CreateShortcut('{desk}')" in s
    assert r"$s.WorkingDirectory = 'C:\Program Files\Koi-Koi'" in s


def test_windows_script_quotes_and_python_fallback(tmp_path, monkeypatch):
    monkeypatch.delenv("KOIKOI_HOME", raising=False)
    h = tmp_path / "O'Brien"
    plan = plan_shortcut("win32", h, exe=[r"C:\Py\pythonw.exe", "-m", "koikoi"])
    assert "O''Brien" in plan.script
    assert "$s.Arguments = '-m koikoi'" in plan.script


def test_windows_install_off_windows_writes_icon_and_script(home, tmp_path):
    h = tmp_path / "winhome"
    msgs: list[str] = []
    written = install_shortcut(platform="win32", home=h, exe=r"C:\koikoi.exe",
                               out=msgs.append)
    kh = tmp_path / "koikoi-home" / "data"   # KOIKOI_HOME wins for the data folder
    assert set(written) == {kh / "koikoi.ico", kh / "make_shortcuts.ps1"}
    from PIL import Image
    with Image.open(kh / "koikoi.ico") as im:
        assert im.format == "ICO"
    assert (kh / "make_shortcuts.ps1").read_bytes().startswith(b"\xef\xbb\xbf")
    assert any("PowerShell" in m for m in msgs)
    assert set(uninstall_shortcut(platform="win32", home=h, out=None)) == set(written)


def test_macos_app_bundle(home, tmp_path):
    h = tmp_path / "machome"
    written = install_shortcut(platform="darwin", home=h, out=None)
    app = h / "Applications" / "Koi-Koi.app"
    info = plistlib.loads((app / "Contents" / "Info.plist").read_bytes())
    assert info["CFBundleName"] == "Koi-Koi" and info["CFBundlePackageType"] == "APPL"
    script = app / "Contents" / "MacOS" / info["CFBundleExecutable"]
    assert script in written and os.access(script, os.X_OK)
    assert script.read_text().startswith("#!/bin/sh\n")
    assert "koikoi" in script.read_text()
    icon = app / "Contents" / "Resources" / info["CFBundleIconFile"]
    assert icon.is_file() and icon in written
    removed = uninstall_shortcut(platform="darwin", home=h, out=None)
    assert set(removed) == set(written)
    assert not app.exists()
    assert not (h / "Applications").exists()      # created by install, empty again


def test_plan_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv("KOIKOI_HOME", raising=False)
    for plat in ("linux", "win32", "darwin"):
        plan = plan_shortcut(plat, tmp_path / plat, exe="/usr/bin/true")
        assert plan.files and all(isinstance(f, PlannedFile) for f in plan.files)
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


@pytest.mark.skipif(not __import__("shutil").which("desktop-file-validate"),
                    reason="desktop-file-validate (desktop-file-utils) not installed")
def test_desktop_file_validates(home, tmp_path):
    import subprocess
    weird = tmp_path / 'odd dir $x "q" 100%' / "koikoi"
    install_shortcut(platform="linux", home=home, exe=[str(weird), "--x=a b"], out=None)
    entry = home / ".local/share/applications/koikoi.desktop"
    cp = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
    assert cp.returncode == 0 and not cp.stdout.strip(), cp.stdout + cp.stderr
