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
