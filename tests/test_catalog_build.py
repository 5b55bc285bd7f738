"""The .mo the game reads is compiled by Babel when the package is built (pyproject.toml's
build_py is tools/catalog.py's BuildPy): a wheel holds koikoi.mo beside koikoi.po, and it
is current. The wheel build runs only with KOIKOI_SLOW=1 (pip fetches the build tools)."""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from koikoi import i18n
from test_i18n import catalog_tool as tool   # tools/catalog.py, loaded once

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_names_the_build_step_and_babel():
    tomllib = pytest.importorskip("tomllib")
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert conf["tool"]["setuptools"]["cmdclass"]["build_py"] == "tools.catalog.BuildPy"
    assert any(r.startswith("babel") for r in conf["build-system"]["requires"])
    assert any(r.startswith("babel") for r in conf["project"]["optional-dependencies"]["test"])
    assert not any(r.startswith("babel") for r in conf["project"]["dependencies"])
    from setuptools.command.build_py import build_py
    assert issubclass(tool.BuildPy, build_py)


def test_the_build_step_compiles_every_catalog_into_the_build(tmp_path):
    done = tool.compile_all(tool.LOCALE, tmp_path)
    assert set(done) == {"ja"} and not any(tmp_path.rglob("*.tmp"))
    with open(i18n.mo_path("ja", tmp_path), "rb") as f:
        std = gettext.GNUTranslations(f)
    assert std.gettext("Settings") == "設定"
    cat = i18n.load_catalog("ja", tmp_path)     # no .po there: the .mo and its counts alone
    assert cat.source.endswith("koikoi.mo") and cat.stats == i18n.catalog("ja").stats
    assert done["ja"] == len(cat.messages) == cat.stats["translated"]


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("KOIKOI_SLOW") != "1", reason="set KOIKOI_SLOW=1 to build")
def test_a_wheel_built_from_a_copy_holds_the_current_mo(tmp_path):
    copy = tmp_path / "src"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode == 0:
        files = listed.stdout.decode().split("\0")
    else:                                  # an exported tree (git archive): no git to ask
        skip = {".git", "build", "dist", "__pycache__", ".pytest_cache"}
        files = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(ROOT).parts) and p.suffix != ".mo"
                 and not p.name.endswith(".egg-info") and ".egg-info" not in str(p)]
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    assert not list(copy.rglob("*.mo"))
    cp = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                         str(tmp_path / "dist"), str(copy)], capture_output=True, text=True,
                        timeout=900)
    assert cp.returncode == 0, cp.stdout[-3000:] + cp.stderr[-3000:]
    wheel = next((tmp_path / "dist").glob("koikoi-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        mo = z.read("koikoi/locale/ja/LC_MESSAGES/koikoi.mo")
        po = z.read("koikoi/locale/ja/LC_MESSAGES/koikoi.po")
    cat, digest = i18n.from_mo("ja", mo)
    import hashlib
    assert digest == hashlib.sha256(po).hexdigest()
    assert cat.gettext("Settings") == "設定" and cat.stats == i18n.catalog("ja").stats
