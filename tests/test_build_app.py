"""tools/build_app.py: the PyInstaller command line (fast) and a real build (slow).

The real build runs only with KOIKOI_SLOW=1 (it installs PyInstaller if missing,
takes about a minute and writes build/ and dist/):

    KOIKOI_SLOW=1 python -m pytest -q tests/test_build_app.py
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_tool():
    spec = importlib.util.spec_from_file_location("build_app", ROOT / "tools" / "build_app.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_pyinstaller_command_line(tmp_path):
    tool = load_tool()
    args = tool.pyinstaller_args(tmp_path / "entry.py", tmp_path, onefile=False)
    assert args[args.index("--name") + 1] == "koikoi"
    assert "--onedir" in args and "--onefile" not in args
    add = args[args.index("--add-data") + 1]
    src, dest = add.rsplit(os.pathsep, 1)
    assert Path(src) == ROOT / "assets" and dest == "koikoi/assets"
    hidden = {args[i + 1] for i, a in enumerate(args) if a == "--hidden-import"}
    assert {"pygame", "platformdirs", "PIL"} <= hidden
    collected = {args[i + 1] for i, a in enumerate(args) if a == "--collect-submodules"}
    assert "koikoi" in collected
    excluded = {args[i + 1] for i, a in enumerate(args) if a == "--exclude-module"}
    assert not excluded & {"pygame", "platformdirs", "PIL", "koikoi"}
    assert "babel" in excluded          # it compiles the catalogs; the bundle reads the .mo
    one = tool.pyinstaller_args(tmp_path / "entry.py", tmp_path, onefile=True)
    assert "--onefile" in one
    assert Path(one[one.index("--distpath") + 1]) == ROOT / "dist" / "koikoi"
    assert tool.exe_path(False).parent == ROOT / "dist" / "koikoi"


def test_entry_scripts_compile():
    tool = load_tool()
    assert "from koikoi.__main__ import main" in tool.MAIN_ENTRY
    compile(tool.MAIN_ENTRY, "entry", "exec")
    compile(tool.SMOKE_ENTRY, "smoke", "exec")


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("KOIKOI_SLOW") != "1", reason="set KOIKOI_SLOW=1 to build")
def test_build_and_run_binary():
    cp = subprocess.run([sys.executable, str(ROOT / "tools" / "build_app.py"), "--frames", "60"],
                        cwd=ROOT, capture_output=True, text=True, timeout=1800)
    out = cp.stdout + cp.stderr
    assert cp.returncode == 0, out[-4000:]
    assert "smoke run OK" in out, out[-4000:]
    assert "data check OK" in out and "lessons: ok" in out and "translations: ok" in out, out[-4000:]
    assert "(compiled koikoi.mo)" in out, out[-4000:]       # the bundle reads the compiled catalog
    exe = ROOT / "dist" / "koikoi" / ("koikoi.exe" if sys.platform.startswith("win") else "koikoi")
    assert exe.is_file() and os.access(exe, os.X_OK)
    bundled = ROOT / "dist" / "koikoi" / "_internal" / "koikoi" / "assets" / "icons" / "icon.png"
    assert bundled.is_file()
    mo = ROOT / "dist" / "koikoi" / "_internal" / "koikoi" / "locale" / "ja" / "LC_MESSAGES" / "koikoi.mo"
    assert mo.is_file()
