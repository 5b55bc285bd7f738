"""Shortcuts: real Linux and macOS installs into a temporary home, the Windows plan."""

from __future__ import annotations

import configparser
import hashlib
import json
import os
import plistlib
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from koikoi import launcher
from koikoi.launcher import (PlannedFile, desktop_exec, find_icon, install_shortcut,
                             plan_shortcut, uninstall_shortcut)

ROOT = Path(__file__).resolve().parents[1]
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


# ---------------------------------------------------------------- a tampered record (issue #13)
def _manifest(home) -> Path:
    return launcher.data_dir("linux", home) / launcher.MANIFEST_NAME


def _write_manifest(home, data=None, *, text=None) -> Path:
    m = _manifest(home)
    m.parent.mkdir(parents=True, exist_ok=True)
    m.write_text(json.dumps(data) if text is None else text, encoding="utf-8")
    return m


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _aside(m: Path) -> list[Path]:
    return sorted(m.parent.glob(m.name + ".corrupt-*"))


def _installed(home) -> list[Path]:
    written = install_shortcut(platform="linux", home=home, out=None)
    assert written and all(p.is_file() for p in written)
    return written


def test_uninstall_keeps_a_listed_file_without_sha256(home, tmp_path):
    """An entry with no hash pointing anywhere is reported, never deleted."""
    important = home / "important.txt"
    important.write_text("tax return")
    elsewhere = tmp_path / "etc" / "something"
    elsewhere.parent.mkdir()
    elsewhere.write_text("system file")
    # ... even at the very place install writes to.
    apps = home / ".local/share/applications"
    apps.mkdir(parents=True)
    entry = apps / "koikoi.desktop"
    entry.write_text("[Desktop Entry]\nName=someone else's\n")
    _write_manifest(home, {"files": [{"path": str(important)}, {"path": str(elsewhere)},
                                     {"path": str(entry), "sha256": None}], "dirs": []})
    msgs: list[str] = []
    assert uninstall_shortcut(platform="linux", home=home, out=msgs.append) == []
    assert important.read_text() == "tax return"
    assert elsewhere.read_text() == "system file"
    assert entry.is_file()
    for p in (important, elsewhere, entry):
        assert f"left alone: {p} (not a file Koi-Koi created)" in msgs, msgs


def test_uninstall_keeps_a_hashed_file_outside_the_shortcut_places(home, tmp_path):
    """A correct sha256 is not enough: the file must be one install writes, where it writes it."""
    written = _installed(home)
    outside = tmp_path / "elsewhere" / "koikoi.desktop"
    outside.parent.mkdir()
    outside.write_text("not a shortcut")
    notes = home / "Desktop" / "notes.txt"             # a shortcut folder, not our name
    notes.write_text("mine")
    real = tmp_path / "real.desktop"                    # a link at our place: never followed
    real.write_text("linked")
    icon = home / ".local/share/icons/hicolor/256x256/apps/koikoi.png"
    icon.unlink()
    icon.symlink_to(real)
    empty = tmp_path / "empty-folder"                   # a recorded folder outside
    empty.mkdir()
    m = _manifest(home)
    data = json.loads(m.read_text())
    data["files"] += [{"path": str(p), "sha256": _sha(p)} for p in (outside, notes)]
    for e in data["files"]:
        if e["path"] == str(icon):
            e["sha256"] = _sha(real)
    data["dirs"] += [str(outside.parent), str(empty)]
    m.write_text(json.dumps(data))
    msgs: list[str] = []
    removed = uninstall_shortcut(platform="linux", home=home, out=msgs.append)
    assert set(removed) == set(written) - {icon}
    assert outside.read_text() == "not a shortcut" and notes.read_text() == "mine"
    assert icon.is_symlink() and real.read_text() == "linked"
    assert empty.is_dir()                               # a recorded folder outside: kept
    for p in (outside, notes, icon):
        assert f"left alone: {p} (not a file Koi-Koi created)" in msgs, msgs
    assert f"left alone: {empty} (not a folder Koi-Koi created)" in msgs
    assert not m.exists()                               # nothing of ours is left


@pytest.mark.parametrize("data, says", [
    ({"files": 5, "dirs": []}, '"files" is a number, not a list'),
    ({"files": {}, "dirs": []}, '"files" is an object, not a list'),
    ({"files": "x"}, '"files" is text, not a list'),
    ({"files": [], "dirs": "x"}, '"dirs" is text, not a list'),
    ({"files": [], "dirs": {"a": 1}}, '"dirs" is an object, not a list'),
    ([1, 2], "it is a list, not an object"),
    ("files", "it is text, not an object"),
    (None, "it is null, not an object"),
])
def test_uninstall_with_a_wrongly_shaped_record_removes_nothing(home, tmp_path, monkeypatch,
                                                                data, says):
    written = _installed(home)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x").mkdir()                            # "dirs": "x" once meant rmdir("x")
    m = _write_manifest(home, data)
    with pytest.raises(launcher.ShortcutRecordError) as err:
        uninstall_shortcut(platform="linux", home=home, out=None)
    msg = str(err.value)
    assert isinstance(err.value, OSError) and "\n" not in msg
    assert says in msg and "nothing was removed" in msg and "moved aside" in msg
    assert all(p.is_file() for p in written)
    assert (tmp_path / "x").is_dir()
    assert not m.exists() and len(_aside(m)) == 1       # set aside, not deleted
    assert json.loads(_aside(m)[0].read_text()) == data


def test_uninstall_ignores_malformed_entries(home, tmp_path, monkeypatch):
    written = _installed(home)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x").mkdir()
    m = _manifest(home)
    data = json.loads(m.read_text())
    data["files"] = [5, "x", None, {"path": 5}, {"path": ["a"]}, {"sha256": _sha(victim)},
                     {"path": "victim.txt", "sha256": _sha(victim)},
                     {"path": str(victim), "sha256": [_sha(victim)]},
                     {"path": str(victim), "sha256": "abc"},
                     {"path": {"p": 1}, "sha256": 7}] + data["files"]
    data["dirs"] = [5, None, "x", ["y"]] + data["dirs"]
    m.write_text(json.dumps(data))
    msgs: list[str] = []
    removed = uninstall_shortcut(platform="linux", home=home, out=msgs.append)
    assert set(removed) == set(written)                 # the good entries still work
    assert victim.read_text() == "keep me" and (tmp_path / "x").is_dir()
    ignored = [msg for msg in msgs if msg.startswith("Ignored")]
    assert len(ignored) == 14, msgs
    assert all("malformed" in msg for msg in ignored)
    assert any('"files" entry 4 (its path is a number, not text)' in msg for msg in ignored)
    assert any("its sha256 is a list" in msg for msg in ignored)
    assert any('"dirs" entry 3 (it is not an absolute path)' in msg for msg in ignored)
    assert not m.exists()


def test_cli_uninstall_with_a_bad_record_is_one_line_and_status_1(home, tmp_path):
    written = _installed(home)
    m = _write_manifest(home, {"files": 5})
    env = dict(os.environ, PYTHONPATH=str(ROOT))        # HOME, XDG_*, KOIKOI_HOME: the fixture's
    r = subprocess.run([sys.executable, "-m", "koikoi", "--uninstall-shortcut"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    err = r.stderr.strip().splitlines()
    assert len(err) == 1, r.stderr                      # no traceback, no extra log line
    assert err[0].startswith("koikoi: could not remove the shortcut: the shortcut record ")
    assert '"files" is a number, not a list' in err[0] and "nothing was removed" in err[0]
    assert all(p.is_file() for p in written) and not m.exists() and len(_aside(m)) == 1


_HOSTILE = r"""
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))   # /dev/zero must not eat the machine
from pathlib import Path
from koikoi import launcher
t = time.monotonic()
try:
    launcher.uninstall_shortcut(platform="linux", home=Path(sys.argv[1]), out=print)
except OSError as exc:
    print("ERROR:", exc)
print("SECONDS:", time.monotonic() - t)
"""


def _make_fifo(m: Path) -> None:
    os.mkfifo(m)


def _make_zero_link(m: Path) -> None:
    m.symlink_to("/dev/zero")


def _make_deep(m: Path) -> None:
    m.write_text('{"files": ' + "[" * 200_000 + "]" * 200_000 + "}")


def _make_huge(m: Path) -> None:
    with open(m, "wb") as f:
        f.write(b'{"files": [], "pad": "')
        f.truncate(50 << 20)                            # 50 MB (sparse)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
@pytest.mark.parametrize("make", [_make_fifo, _make_zero_link, _make_deep, _make_huge],
                         ids=["fifo", "link-to-dev-zero", "200000-deep", "50MB"])
def test_hostile_record_is_moved_aside_promptly(home, make):
    written = _installed(home)
    m = _manifest(home)
    m.unlink()
    make(m)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t = time.monotonic()
    try:            # in a child with a timeout: the old reader blocked on a FIFO forever
        r = subprocess.run([sys.executable, "-c", _HOSTILE, str(home)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("uninstall hung on the hostile record")
    assert time.monotonic() - t < 20
    assert r.returncode == 0, r.stderr
    assert "ERROR: the shortcut record" in r.stdout and "nothing was removed" in r.stdout
    assert float(r.stdout.split("SECONDS:")[1]) < 5
    assert not os.path.lexists(m) and len(_aside(m)) == 1
    assert all(p.is_file() for p in written)
    if make is _make_zero_link:
        assert _aside(m)[0].is_symlink()                # the link was renamed, not followed


def test_install_sets_a_bad_record_aside(home):
    m = _write_manifest(home, text='{"files": 5')
    msgs: list[str] = []
    written = install_shortcut(platform="linux", home=home, out=msgs.append)
    assert written and _aside(m) and _aside(m)[0].read_text() == '{"files": 5'
    assert any("moved aside" in msg for msg in msgs)
    assert set(uninstall_shortcut(platform="linux", home=home, out=None)) == set(written)


def test_uninstall_removes_the_data_folder_install_created_and_keeps_one_that_was_there(home):
    ddir = launcher.data_dir("linux", home)
    assert not ddir.exists()
    _installed(home)
    assert (ddir / launcher.MANIFEST_NAME).is_file()
    uninstall_shortcut(platform="linux", home=home, out=None)
    assert not ddir.exists()
    assert ddir.parent.is_dir()                         # KOIKOI_HOME: not the launcher's

    ddir.mkdir()                                        # there before the install: kept
    _installed(home)
    uninstall_shortcut(platform="linux", home=home, out=None)
    assert ddir.is_dir() and not any(ddir.iterdir())


def test_data_folder_kept_while_it_holds_something_else(home):
    ddir = launcher.data_dir("linux", home)
    _installed(home)
    (ddir / "autosave.json").write_text("{}")
    uninstall_shortcut(platform="linux", home=home, out=None)
    assert (ddir / "autosave.json").read_text() == "{}"
    assert not (ddir / launcher.MANIFEST_NAME).exists()


def test_windows_uninstall_removes_its_data_folder_files(home, tmp_path):
    h = tmp_path / "winhome"
    written = install_shortcut(platform="win32", home=h, exe=r"C:\koikoi.exe", out=None)
    ddir = launcher.data_dir("win32", h)
    assert ddir in {p.parent for p in written}
    assert set(uninstall_shortcut(platform="win32", home=h, out=None)) == set(written)
    assert not ddir.exists()


def test_shortcut_places_cover_the_plan(home, tmp_path):
    for plat, h in (("linux", home), ("win32", tmp_path / "w"), ("darwin", tmp_path / "m")):
        plan = plan_shortcut(plat, h, exe="/usr/bin/true")
        places = launcher.shortcut_places(plat, h)
        for f in plan.files:
            assert any(f.path.parent == d and f.path.name in names for d, names in places), f
