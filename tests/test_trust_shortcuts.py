"""--install-shortcut never overwrites or writes through a file of the player's
(issue 26, item 3)."""

from __future__ import annotations

import os

import pytest

from koikoi.launcher import install_shortcut, uninstall_shortcut


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    h.mkdir()
    (h / "Desktop").mkdir()
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("XDG_DESKTOP_DIR", raising=False)
    return h


def test_a_launcher_of_the_players_own_is_left_in_place_reported_and_kept_by_uninstall(home):
    apps = home / ".local" / "share" / "applications"
    apps.mkdir(parents=True)
    mine = apps / "koikoi.desktop"
    mine.write_text("[Desktop Entry]\nType=Application\nName=My own Koi-Koi\nExec=my-koikoi\n")
    messages: list[str] = []
    written = install_shortcut(platform="linux", home=home, out=messages.append)
    assert mine not in written and "My own Koi-Koi" in mine.read_text()
    assert any(str(mine) in m and "Left" in m for m in messages)
    uninstall_shortcut(platform="linux", home=home, out=None)
    assert "My own Koi-Koi" in mine.read_text()


def test_a_planted_temp_link_is_never_written_through(home):
    apps = home / ".local" / "share" / "applications"
    apps.mkdir(parents=True)
    victim = home / "precious.txt"
    victim.write_text("mine")
    os.symlink(victim, apps / "koikoi.desktop.tmp")
    os.symlink(victim, home / "Desktop" / "koikoi.desktop.tmp")
    written = install_shortcut(platform="linux", home=home, out=None)
    assert apps / "koikoi.desktop" in written
    assert victim.read_text() == "mine"
    assert os.path.islink(apps / "koikoi.desktop.tmp")
    assert not any(p.name.endswith(".tmp") and not p.is_symlink() for p in apps.iterdir())


def test_reinstalling_replaces_only_the_files_install_made(home):
    first = install_shortcut(platform="linux", home=home, out=None)
    again = install_shortcut(platform="linux", home=home, out=None)
    assert set(again) == set(first)


def _record(home):
    from koikoi import launcher
    return launcher.data_dir("linux", home) / launcher.MANIFEST_NAME


@pytest.mark.parametrize("forged", ["bare path", "another folder's numbers"])
def test_an_edited_record_cannot_make_uninstall_remove_the_players_own_empty_desktop(home, forged):
    import json
    desktop = home / "Desktop"                      # the player's, there before the install
    install_shortcut(platform="linux", home=home, out=None)
    record = _record(home)
    data = json.loads(record.read_text())
    assert all(str(desktop) != (d["path"] if isinstance(d, dict) else d) for d in data["dirs"])
    if forged == "bare path":
        data["dirs"].append(str(desktop))
    else:                                           # numbers copied from a folder install did make
        made = next(d for d in data["dirs"] if d["path"].endswith("applications"))
        data["dirs"].append({"path": str(desktop), "dev": made["dev"], "ino": made["ino"]})
    record.write_text(json.dumps(data))
    messages: list[str] = []
    uninstall_shortcut(platform="linux", home=home, out=messages.append)
    assert desktop.is_dir() and not any(desktop.iterdir())      # empty, and still there
    assert any(str(desktop) in m and m.startswith("left alone") for m in messages), messages
    assert not (home / ".local" / "share" / "applications").exists()    # the one it made: gone


def test_a_folder_install_made_then_replaced_by_the_players_own_is_kept(home):
    apps = home / ".local" / "share" / "applications"
    install_shortcut(platform="linux", home=home, out=None)
    for p in apps.iterdir():
        p.unlink()
    apps.rmdir()
    keep_busy = home / "placeholder"                # the same inode is not handed out again at once
    keep_busy.mkdir()
    apps.mkdir()                                    # the player's own now
    messages: list[str] = []
    uninstall_shortcut(platform="linux", home=home, out=messages.append)
    assert apps.is_dir()
    assert f"left alone: {apps} (not the folder Koi-Koi created)" in messages, messages
