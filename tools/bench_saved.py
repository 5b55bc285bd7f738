"""How long the title screen takes with many matches kept for later (``saved/``).

    python tools/bench_saved.py                          # 200 and 2,000 kept matches
    python tools/bench_saved.py --kept 2000 --compare 9057774

It fills a KOIKOI_HOME per count (``--home``, default folders under the system
temp dir, reused between runs) with unfinished matches played part-way by
random legal moves (every preset, 12 months), kept for later the way the game
keeps them, then prints, in CPU seconds of the game's process (and wall-clock):

* the title's first frame with no kept-match index (the first start of a
  version that keeps one, or after the index was lost), and how long the
  background reading of the kept matches then takes until the Saved matches
  list has every row;
* the title's first frame at a start with the index in place;
* a return to the title (the title entered again in the same process).

``--compare REV`` times the code of another commit (exported with
``git archive`` into a temporary folder) on the same files, in the same run,
runs alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_history import _env, export_tree, random_match  # noqa: E402  (the same folder's tool)


def generate(home: Path, n: int, seed: int = 1) -> int:
    """Keep ``n`` unfinished matches in home/data/saved (the ones already there are kept)."""
    folder = home / "data" / "saved"
    folder.mkdir(parents=True, exist_ok=True)
    have = len(list(folder.glob("match-*.json")))
    rng = random.Random(seed + have)
    for i in range(have, n):
        s = random_match(rng, i, months=12, moves=lambda r: r.randrange(20, 600))
        path = folder / f"match-{s.id}.json"
        path.write_text(s.to_json(), encoding="utf-8")
        os.utime(path, (1.7e9 + i * 60, 1.7e9 + i * 60))
    return n - have


MEASURE = r"""
import json, os, sys, time
from koikoi.storage import Storage
from koikoi.ui.app import App
from koikoi.ui.scenes.title import TitleScene

def timed(fn):
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c0, time.perf_counter() - w0

app = App((1280, 720), storage=Storage())
app.settings["anim_speed"] = 0.0
out = {}

def first():
    app.push(TitleScene(app))
    app.step(1 / 60)
out["first"] = timed(first)
out["kept"] = app.top.kept
st = app.storage
if hasattr(st, "wait_kept"):          # the background reading, until every row has its summary
    def rest():
        st.wait_kept(3600)
        kept, _p = st.list_saved()
        assert all(m.summary is not None for m in kept), "rows still unread"
    out["background"] = timed(rest)

def again():
    app.push(TitleScene(app))
    app.step(1 / 60)
out["return"] = timed(again)
print("RESULT" + json.dumps(out))
"""


def measure(home: Path, code: Path, *, cold: bool) -> dict:
    if cold:
        index = home / "data" / "saved-index.json"
        if index.exists():
            index.unlink()          # the benchmark's own cache, in the benchmark's own folder
    r = subprocess.run([sys.executable, "-c", MEASURE], env=_env(home, code), cwd=code, capture_output=True,
                       text=True, timeout=3600)
    if r.returncode != 0:
        raise SystemExit(f"measuring failed:\n{r.stderr[-3000:]}")
    return json.loads([x for x in r.stdout.splitlines() if x.startswith("RESULT")][-1][len("RESULT"):])


def _s(pair) -> str:
    return f"{pair[0]:7.2f} s CPU ({pair[1]:6.2f} s wall)"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kept", type=int, nargs="+", default=[200, 2000])
    p.add_argument("--home", default=str(Path(tempfile.gettempdir()) / "koikoi-bench-saved"))
    p.add_argument("--compare", metavar="REV", help="also time the code of this commit")
    p.add_argument("--repeat", type=int, default=1, help="runs of each code, alternating")
    args = p.parse_args(argv)
    old = export_tree(args.compare) if args.compare else None
    try:
        for n in args.kept:
            home = Path(f"{args.home}-{n}")
            folder = home / "data" / "saved"
            have = len(list(folder.glob("match-*.json"))) if folder.is_dir() else 0
            if have > n:
                raise SystemExit(f"{folder} holds {have} kept matches, more than {n}: use another --home")
            if have < n:
                print(f"keeping {n - have:,} matches in {folder} ...", flush=True)
                generate(home, n)
            print(f"{n:,} kept matches ({sum(f.stat().st_size for f in folder.glob('match-*.json')) / 1e6:.0f} MB)")
            runs: dict = {"this code": []}
            if old is not None:
                runs[args.compare[:10]] = []
            for _ in range(args.repeat):
                for label in runs:
                    code = ROOT if label == "this code" else old
                    cold = measure(home, code, cold=True)
                    warm = measure(home, code, cold=False)
                    runs[label].append((cold, warm))
            for label, results in runs.items():
                cold, warm = results[-1] if len(results) == 1 else (
                    min(results, key=lambda r: r[0]["first"][0]))
                line = (f"  {label:<10} title, first frame, no index: {_s(cold['first'])}; "
                        f"with the index: {_s(warm['first'])}; return to the title: {_s(warm['return'])}")
                if "background" in cold:
                    line += f"; background reading (no index): {_s(cold['background'])}"
                print(line + f"  [{warm['kept']:,} listed]", flush=True)
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
