"""One folder rule (issue 29, point 6): storage, logging and the shortcut installer ask
koikoi.paths, so they cannot drift apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from koikoi import launcher, logsetup, paths, storage


@pytest.mark.parametrize("koikoi_home_set", [True, False])
def test_every_module_names_the_same_folders(tmp_path, monkeypatch, koikoi_home_set):
    if koikoi_home_set:
        monkeypatch.setenv("KOIKOI_HOME", str(tmp_path / "kh"))
    else:
        monkeypatch.delenv("KOIKOI_HOME", raising=False)
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    data = paths.data_dir()
    assert storage.data_dir() == logsetup.data_dir() == launcher.data_dir() == data
    assert storage.log_dir() == logsetup.default_log_dir() == paths.log_dir()
    assert storage.Storage().data_dir == data and storage.Storage().config_dir == paths.config_dir()
    if koikoi_home_set:
        assert data == tmp_path / "kh" / "data" and paths.log_dir() == tmp_path / "kh" / "logs"
    else:
        assert tmp_path / "xdg-data" in data.parents


def test_the_desktop_folder_is_the_one_user_dirs_names(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "Schreibtisch").mkdir(parents=True)
    (home / ".config").mkdir()
    (home / ".config" / "user-dirs.dirs").write_text('XDG_DESKTOP_DIR="$HOME/Schreibtisch"\n')
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert paths.desktop_dir() == home / "Schreibtisch"
    assert launcher.linux_desktop_dir(Path(home)) == home / "Schreibtisch"
    (home / ".config" / "user-dirs.dirs").unlink()
    assert paths.desktop_dir() is None                  # ~/Desktop is not there either


def test_the_ladder_and_its_key_use_the_same_data_folder(tmp_path, monkeypatch):
    from koikoi.ladder import identity, store as ladder_store
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path / "kh"))
    assert ladder_store.default_path().parent == paths.data_dir() == identity.key_path().parent


def test_the_crash_screen_finds_its_font_without_loading_the_ui(tmp_path):
    """crash.py asks koikoi.paths for the assets folder: nothing of koikoi.ui is imported for
    the font a translated crash screen needs."""
    import subprocess
    import sys
    code = ("import sys, koikoi.crash as c\n"
            "p = c._game_font_path(True)\n"
            "print(p is not None and p.name, sorted(m for m in sys.modules if m.startswith('koikoi.ui')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[1]).stdout.split(None, 1)
    assert out == ["KoiKoiSans-Bold.otf", "[]\n"]


def test_the_assets_folder_can_be_named(tmp_path, monkeypatch):
    (tmp_path / "fonts").mkdir()
    monkeypatch.setenv("KOIKOI_ASSETS", str(tmp_path))
    assert paths.assets_dir() == tmp_path
    monkeypatch.setenv("KOIKOI_ASSETS", str(tmp_path / "nothing-here"))
    assert paths.assets_dir() is not None and paths.assets_dir() != tmp_path / "nothing-here"
