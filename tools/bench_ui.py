"""Frame time of the round table, headless, with animations running.

    python tools/bench_ui.py [--frames 600] [--size 1920x1080]

Sets up a mid-round table at 1920x1080 (both capture piles filled), then
loops captures: a field card and its match fly to a pile and back, while a
banner shows and the stock flips, so every frame draws moving cards. Prints
the median and 99th-percentile time of update + draw per frame.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from koikoi.engine import RULESETS, KoiKoi  # noqa: E402
from koikoi.storage import Storage  # noqa: E402
from koikoi.ui import anim  # noqa: E402
from koikoi.ui.app import App  # noqa: E402
from koikoi.ui.scenes.round import RoundScene  # noqa: E402
from koikoi.ui.table.stage import CAPTURE_TIME  # noqa: E402
from koikoi.session import MatchSession, SeatConfig  # noqa: E402


def mid_round_session(seed: int = 4) -> MatchSession:
    s = MatchSession(RULESETS["classic"], seed=seed,
                     seats=(SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random")))
    rng = random.Random(seed)
    while True:
        st = s.state
        if st.phase_name == "play" and st.to_move == 0 and all(len(c) >= 6 for c in s.view(0).captured):
            return s
        if st.is_over:
            return mid_round_session(seed + 1)
        legal = s.legal()
        s.apply(KoiKoi() if st.phase_name == "decide" else legal[rng.randrange(len(legal))])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--save", help="write the last frame to this PNG")
    args = ap.parse_args(argv)
    w, h = (int(x) for x in args.size.lower().split("x"))

    app = App((w, h), storage=Storage(tempfile.mkdtemp(prefix="koikoi-bench-")))
    app.assets.muted = True
    app.settings["anim_speed"] = 1.0
    session = mid_round_session()
    scene = RoundScene(app, session)
    app.push(scene)
    for _ in range(240):  # settle the opening
        app.step(1 / 60)
        if scene.my_turn():
            break
    session.start_cpu = lambda: None   # the table stays as it is: only our loop moves cards

    # a capture tween loop: two field cards fly to the pile and back, over and over
    lay = scene.lay
    movers = [scene.sprites[c] for c in lay.field_order[:2]]
    pile = lay.capture_zone[0].center

    def loop(k=[0]):
        k[0] += 1
        for i, sp in enumerate(movers):
            home = (lay.field[sp.key].centerx, lay.field[sp.key].centery, lay.card_h)
            there = (pile[0] + i * 20, pile[1], lay.small_h)
            a, b = (home, there) if k[0] % 2 else (there, home)
            scene.stage.move(sp, b, CAPTURE_TIME, fly=True, easing=anim.in_out_cubic)
            if k[0] % 4 == 0:
                scene.stage.flip(sp, not sp.face)
        scene.tl.then(loop_wait)
        return CAPTURE_TIME + 0.05

    def loop_wait():
        scene.tl.then(loop)
        return 0.0

    scene.tl.then(loop)
    scene.banner_now("三光 Sankō 5", "You: 5 points", 1e9, big=True)

    times = []
    for i in range(args.frames):
        t0 = time.perf_counter()
        for event in pygame.event.get():
            app.dispatch(event)
        app.update(1 / 60)
        app.draw()
        times.append((time.perf_counter() - t0) * 1000.0)
        if i % 97 == 0:   # hover and selection change now and then
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=lay.hand[lay.hand_order[0]].center,
                                                 rel=(0, 0), buttons=(0, 0, 0)))
    if args.save:
        pygame.image.save(app.screen, args.save)
    times.sort()
    med = statistics.median(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"round table {w}x{h}: {len(times)} frames, median {med:.2f} ms, p99 {p99:.2f} ms, "
          f"max {times[-1]:.2f} ms (update + draw, no flip)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
