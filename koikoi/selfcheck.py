"""``koikoi --check``: are the data files an installed copy needs all there and readable?

The standalone build's smoke run and the install check call it. It opens no window and
writes nothing: it loads each data file the game ships (the art and sound folders, the
CPU's match-win table, every lesson, replayed through the engine) and runs a short review
in its background process and prints one line per
item, "ok" or what is wrong. Exit status 0 if everything is there, 1 if not.

Each check imports what it checks inside itself, so that a module or library missing from a
broken install fails that one item (its line says why) and the others are still reported.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable, Optional


def _assets() -> str:
    from .paths import ASSET_FOLDERS, assets_dir  # isolated: each check imports what it checks
    root = assets_dir()
    if root is None:
        raise RuntimeError("no assets folder (cards/, table/, sounds/, fonts/) was found")
    missing = [sub for sub in ASSET_FOLDERS if not (root / sub).is_dir()]
    if missing:
        raise RuntimeError(f"{root} lacks {', '.join(missing)}")
    fonts = sorted(p.name for p in (root / "fonts").iterdir() if p.suffix in (".ttf", ".otf"))
    if not fonts:
        raise RuntimeError(f"no font in {root / 'fonts'}")
    cards = sum(1 for p in (root / "cards").rglob("*.png"))
    return f"{root} ({cards} card images, fonts {', '.join(fonts)})"


def _winprob() -> str:
    """Hard's two data files: the match-win table and the playouts' Koi-Koi model."""
    from .ai import playout, winprob         # isolated: each check imports what it checks
    counts = []
    for path in (winprob._DATA, playout.CALLS_DATA):
        with open(path, encoding="utf-8") as fh:
            presets = json.load(fh).get("presets", {})
        if not presets:
            raise RuntimeError(f"{path} holds no preset")
        counts.append(len(presets))
    return f"{counts[0]} rule sets, Koi-Koi model for {counts[1]}"


def _lessons() -> str:
    from . import lessons                    # isolated: each check imports what it checks
    entries = lessons.load_all()
    if not entries:
        raise RuntimeError(f"no lesson file in {lessons.DATA}")
    broken = [f"{e.id}: {e.problem}" for e in entries if e.lesson is None]
    if broken:
        raise RuntimeError("; ".join(broken))
    return f"{len(entries)} lessons, each played through to its end"


def _review() -> str:
    """A one-round match analysed in the review's background process (the frozen build
    must start that process from its own executable)."""
    from .ai.players import make_player      # isolated: each check imports what it checks
    from .engine import RULESETS, apply, events_to_json, legal_actions, new_match, view  # isolated: as above
    from .review import ReviewJob            # isolated: each check imports what it checks
    state = new_match(RULESETS["nintendo"], seed=5, months=1, first_dealer=0)
    players = [make_player("easy", seed=1), make_player("easy", seed=2)]
    while not state.is_over:
        seat = state.to_move
        state = apply(state, players[seat].choose(view(state, seat), legal_actions(state)))
    job = ReviewJob(events_to_json(state.events), (0,), match_id="check", cache_dir=None, budget=8)
    t0 = time.monotonic()
    job.start()
    try:
        while not job.done and time.monotonic() - t0 < 60:
            job.poll()
            time.sleep(0.02)
    finally:
        if not job.done:
            job.cancel()
        job.close()
    if job.result is None:
        raise RuntimeError(job.error or "no answer from the review process in 60 s")
    n = sum(len(r.decisions) for r in job.result.rounds)
    return f"a round analysed in a background process ({n} decisions, {time.monotonic() - t0:.1f} s)"


def _online() -> str:
    """The online play's libraries are importable (no socket is opened)."""
    import websockets                        # isolated: each check imports what it checks
    import zeroconf                          # isolated: each check imports what it checks
    from .net import cli, discovery, server  # noqa: F401  isolated: each check imports what it checks
    from .ladder import ratings, store       # noqa: F401  isolated: as above (glicko2: ratings)
    loop = cli._loop_factory()    # uvloop where installed: the bundle must carry it
    kind = "asyncio" if loop is None else loop.__module__.split(".")[0]
    from .net import protocol                # isolated: as above
    frames = "orjson" if protocol._orjson_dumps is not None else "json"
    return (f"websockets {websockets.__version__}, zeroconf {zeroconf.__version__}, serve loop {kind}, "
            f"frames by {frames}")


def _translations() -> str:
    """Every shipped catalog is there and readable, and says from which file (an installed
    copy reads the compiled koikoi.mo; a source checkout compiles its .po in memory)."""
    from . import i18n                       # isolated: each check imports what it checks
    langs = [code for code in i18n.available() if code != i18n.SOURCE_LANGUAGE]
    if not langs:
        raise RuntimeError(f"no catalog in {i18n.LOCALE_DIR}")
    parts = []
    for code in langs:
        cat = i18n.catalog(code)
        if cat.problem or not cat.stats:
            raise RuntimeError(f"the {code} catalog cannot be read: {cat.problem or 'no counts'}")
        st = cat.stats
        how = "compiled" if cat.source.endswith(".mo") else "compiled in memory from"
        parts.append(f"{code} {st['translated']} of {st['total']} ({how} {Path(cat.source).name})")
    return ", ".join(parts)


def _phrases() -> str:
    """Japanese lines break by phrase: BudouX and its model data are installed."""
    from .ui.widgets import phrases          # isolated: each check imports what it checks
    if phrases._parser() is None:
        raise RuntimeError("BudouX's Japanese parser could not be loaded")
    n = len(phrases.pieces("こいこいしますか、それとも勝負しますか。"))
    return f"BudouX's Japanese model ({n} phrases in a test sentence)"


CHECKS: tuple[tuple[str, Callable[[], str]], ...] = (
    ("art and sounds", _assets),
    ("Hard's match-win table", _winprob),
    ("lessons", _lessons),
    ("review", _review),
    ("online play", _online),
    ("translations", _translations),
    ("Japanese line breaks", _phrases),
)


def run(say: Optional[Callable[[str], None]] = None) -> int:
    say = say or print
    failed = 0
    for name, check in CHECKS:
        try:
            say(f"{name}: ok, {check()}")
        except Exception as exc:      # report every item, whatever breaks
            failed += 1
            say(f"{name}: MISSING OR BROKEN: {exc}")
    say("all data files present" if not failed else f"{failed} item(s) missing or broken")
    return 1 if failed else 0
