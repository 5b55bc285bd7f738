"""Long sessions: many CPU-vs-CPU matches in one process, through the real App.

    python tools/soak.py                    # 50 matches, 1 month each (quick)
    python tools/soak.py --full             # 50 matches at each preset's full length
    python tools/soak.py --matches 5 --size 960x540

Each match starts from the title screen like a player's would (the title is
shown, then the oya-gime scene, the round table, the results overlays and the
ledger, which files the match in the history), with anim_speed 0 and both
seats played by CPUs (level random or easy). Only the acknowledgements a
match waits for are given (Deal the cards, Continue), as clicks. For every
match it prints the frames, the median and p99 frame time (update + draw +
flip), the highest resident memory seen after any of its frames ("peak MB",
read outside the timed part) and the resident memory afterwards, back at the
title (VmRSS from /proc/self/status, else the peak from resource.getrusage),
then the growth: first to last, and the slope over the second half (MB per
match) -- a leak shows as a steady slope -- and the process's peak (VmHWM).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
if __name__ == "__main__" and not os.environ.get("KOIKOI_HOME"):
    os.environ["KOIKOI_HOME"] = tempfile.mkdtemp(prefix="koikoi-soak-")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402


def rss_mb() -> float:
    """Resident memory now (MB); the peak if /proc is not there."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    import resource
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024.0 * 1024.0) if sys.platform == "darwin" else peak / 1024.0


@dataclass
class MatchStats:
    index: int
    rules: str
    months: int | None
    level: str
    rounds: int
    frames: int
    median_ms: float
    p99_ms: float
    seconds: float
    rss_mb: float
    peak_mb: float = 0.0


def hwm_mb() -> float | None:
    """The process's peak resident memory (VmHWM, MB); None without /proc."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def _click(app, rect) -> None:
    pos = rect.center
    if getattr(app, "_buffer", None) is not None:    # a window below the layout minimum
        ww, wh = app.window.get_size()
        bw, bh = app._buffer.get_size()
        pos = (pos[0] * ww // bw, pos[1] * wh // bh)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def _button(scene, *labels):
    for w in getattr(scene, "widgets", []):
        if getattr(w, "label", None) in labels and getattr(w, "visible", True):
            return w
    return None


def play_one(app, index: int, rng: random.Random, *, full: bool, levels, max_frames: int) -> MatchStats:
    from koikoi.engine import RULESETS
    from koikoi.ui.scenes.oyagime import OyagimeScene
    from koikoi.ui.scenes.title import TitleScene
    from koikoi.session import MatchSession, SeatConfig
    rules = rng.choice(sorted(RULESETS))
    preset = RULESETS[rules]
    months = preset.months if full else (min(preset.months_offered) if preset.months_offered else None)
    level = rng.choice(levels)
    seats = (SeatConfig("cpu", f"CPU East ({level})", level), SeatConfig("cpu", f"CPU West ({level})", level))
    # from the title, as a player starts a match
    if not isinstance(app.top, TitleScene):
        app.reset(TitleScene(app))
    app.step(1 / 60)
    session = MatchSession(preset, seed=rng.randrange(1, 2 ** 31), months=months, seats=seats)
    app.autosave(session)          # watched from here on: saved after every action, filed once
    app.reset(OyagimeScene(app, session))
    times = []
    peak = rss_mb()
    t0 = time.perf_counter()
    for i in range(max_frames):
        top = app.top
        name = type(top).__name__
        if session.state.is_over and name in ("MatchResultsScene", "MatchSummaryScene"):
            break
        if i % 2 == 0:
            if name == "OyagimeScene" and top.go.visible:
                _click(app, top.go.rect)
            elif name == "RoundResultsScene":
                _click(app, top.ok.rect)
            elif name in ("RoundSummaryScene", "CurtainScene"):
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                                     unicode="\r", scancode=0))
        f0 = time.perf_counter()
        app.step(1 / 60)
        times.append((time.perf_counter() - f0) * 1000.0)
        peak = max(peak, rss_mb())
    else:
        raise RuntimeError(f"match {index} did not end in {max_frames} frames "
                           f"(top {type(app.top).__name__}, phase {session.state.phase_name})")
    seconds = time.perf_counter() - t0
    for _ in range(3):                      # the ledger, then back to the title
        app.step(1 / 60)
        peak = max(peak, rss_mb())
    back = _button(app.top, "Title screen", "Back to title", "Title")
    if back is not None:
        _click(app, back.rect)
        app.step(1 / 60)
    times.sort()
    gc.collect()
    return MatchStats(index, rules, months, level, len(session.state.ledger), len(times),
                      statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))],
                      seconds, rss_mb(), peak)


def soak(matches: int = 50, *, seed: int = 1, full: bool = False, size=(1280, 720),
         levels=("random", "easy"), max_frames: int = 200000, out=print) -> list[MatchStats]:
    from koikoi.storage import Storage, level_available
    from koikoi.ui.app import App
    from koikoi.ui.scenes.title import TitleScene
    levels = tuple(lvl for lvl in levels if level_available(lvl)) or ("random",)
    rng = random.Random(seed)
    app = App(size, storage=Storage(), seed=None)
    app.assets.muted = True
    app.settings["anim_speed"] = 0.0
    app.push(TitleScene(app))
    app.step(1 / 60)
    base = rss_mb()
    out(f"soak: {matches} CPU-vs-CPU matches ({'full length' if full else 'short'}), levels "
        f"{', '.join(levels)}, {size[0]}x{size[1]}, anim_speed 0; RSS at start {base:.1f} MB")
    out(f"{'#':>3} {'rules':<11} {'months':>6} {'level':<7} {'rounds':>6} {'frames':>7} "
        f"{'median ms':>9} {'p99 ms':>7} {'secs':>6} {'peak MB':>7} {'RSS MB':>7}")
    stats = []
    for i in range(1, matches + 1):
        st = play_one(app, i, rng, full=full, levels=levels, max_frames=max_frames)
        stats.append(st)
        out(f"{st.index:>3} {st.rules:<11} {str(st.months):>6} {st.level:<7} {st.rounds:>6} {st.frames:>7} "
            f"{st.median_ms:>9.2f} {st.p99_ms:>7.2f} {st.seconds:>6.1f} {st.peak_mb:>7.1f} {st.rss_mb:>7.1f}")
    out(growth_text(stats, base))
    pygame.display.quit()
    return stats


def slope(values) -> float:
    """Least-squares slope per step."""
    n = len(values)
    if n < 2:
        return 0.0
    mx = (n - 1) / 2
    my = sum(values) / n
    num = sum((i - mx) * (v - my) for i, v in enumerate(values))
    den = sum((i - mx) ** 2 for i in range(n))
    return num / den


def growth_text(stats, base: float) -> str:
    rss = [s.rss_mb for s in stats]
    half = rss[len(rss) // 2:]
    med = [s.median_ms for s in stats]
    hwm = hwm_mb()
    return (f"RSS: start {base:.1f} MB, after match 1 {rss[0]:.1f} MB, last {rss[-1]:.1f} MB, "
            f"max {max(rss):.1f} MB; growth after the first match {rss[-1] - rss[0]:+.1f} MB, "
            f"second-half slope {slope(half):+.3f} MB/match\n"
            f"RSS during matches: peak {max(s.peak_mb for s in stats):.1f} MB (match "
            f"{max(stats, key=lambda s: s.peak_mb).index}); process peak (VmHWM) "
            + (f"{hwm:.1f} MB\n" if hwm is not None else "unknown\n") +
            f"frame time: median of medians {statistics.median(med):.2f} ms, first {med[0]:.2f} ms, "
            f"last {med[-1]:.2f} ms, worst p99 {max(s.p99_ms for s in stats):.2f} ms")


def _size(text: str):
    w, h = text.lower().split("x")
    return int(w), int(h)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--full", action="store_true", help="full-length matches (the real soak)")
    ap.add_argument("--size", type=_size, default=(1280, 720))
    ap.add_argument("--levels", default="random,easy", help="comma-separated CPU levels")
    args = ap.parse_args(argv)
    soak(args.matches, seed=args.seed, full=args.full, size=args.size,
         levels=tuple(x.strip() for x in args.levels.split(",") if x.strip()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
