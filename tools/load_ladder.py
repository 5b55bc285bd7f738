"""Load the quick-match ladder: the pairing of LadderService (koikoi.ladder.service)
with N players always waiting, on one service (SQLite or PostgreSQL) and on two
services sharing one PostgreSQL (as two server processes would; here two connections
in this process, ticked one after the other).

    python tools/load_ladder.py                       # SQLite, then PostgreSQL (one, two)
    python tools/load_ladder.py --players 500 --ticks 30 --db postgresql://...

No sockets: the players are fake connections. Each tick is one second of the
server's clock (simulated: the service's clock advances 1 s a tick, so the window
widening and the waits are in those seconds); the time a tick takes is measured on
the wall and in this process's CPU. A player paired at a tick plays (the match is
rated at once, its cost counted apart) and queues again at the next tick, so N are
waiting at every tick. Ratings are spread (normal, 1500 ± 250), choices are one of
``--choices`` (preset, length) pairs. A player waiting on the second service and
paired by the first is counted as paired when its own service sends it ``matched``.

Printed: pairs a tick (= matches made per second at the server's one tick a second),
the wall and CPU milliseconds a tick and a rating update take, the most pairs a
second the ladder could make ticking back to back, and the queue-to-pair time
(median, 90th percentile, max) in seconds. With no --db and no PostgreSQL to start
(the pgserver package), the PostgreSQL runs are skipped with a message.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from koikoi.ladder import identity, service as ladder_service  # noqa: E402

CHOICES = [("casual", 6), ("classic", 12), ("nintendo", 12), ("koikoi-japan", 8), ("kk-add-10", 12),
           ("casual", 3)]


class Conn:
    __slots__ = ("peer", "ladder", "sent", "svc", "queued_at")

    def __init__(self, peer: str, svc):
        self.peer, self.ladder, self.sent, self.svc, self.queued_at = peer, None, [], svc, None

    def send(self, m):
        self.sent.append(m)

    def error(self, re, code, message):
        raise RuntimeError(f"refused: {code}: {message}")


class Clock:
    def __init__(self):
        self.t = 1_000_000.0

    def __call__(self):
        return self.t


def request(svc, conn, msg, now):
    svc.handle(conn, svc.parse(msg), None, now)


def run(label: str, services: list, players: int, ticks: int, choices: int, seed: int, clock: Clock) -> dict:
    rng = random.Random(seed)
    conns = []
    for i in range(players):
        svc = services[i % len(services)]
        c = Conn(f"10.{i // 250}.{i % 250}.1", svc)
        request(svc, c, {"type": "identify", "key": identity.new_key(), "name": f"P{i}"}, 0.0)
        conns.append(c)
    st = services[0].store
    with st._tx():                                  # spread the ratings
        for c in conns:
            st._run("UPDATE profiles SET rating = ? WHERE key_hash = ?",
                    (rng.gauss(1500, 250), c.ladder.key_hash))
    picks = CHOICES[:max(1, choices)]

    def queue(c):
        preset, months = rng.choice(picks)
        request(c.svc, c, {"type": "queue", "preset": preset, "months": months}, clock.t)
        c.queued_at = clock.t

    for c in conns:
        queue(c)
    waits, pairs_per_tick, tick_wall, tick_cpu, rate_wall, rate_cpu = [], [], [], [], [], []
    code = 0
    for _ in range(ticks):
        again = []
        made = 0
        rated = []
        before = [len(c.sent) for c in conns]
        w0, c0 = time.perf_counter(), time.process_time()
        for svc in services:
            for p in svc.tick(clock.t):
                code += 1
                room = f"KOI-{code:06d}"
                svc.placed(p, room, (f"tok{code:08d}a" * 2, f"tok{code:08d}b" * 2))
                rated.append((svc, room, p))
                made += 1
                for c in p.conns:
                    if c is not None:
                        waits.append(clock.t - c.queued_at)
                        again.append(c)
        w1, c1 = time.perf_counter(), time.process_time()
        for c, n in zip(conns, before):             # matched: paired by the other service
            if any(m["type"] == "matched" for m in c.sent[n:]):
                waits.append(clock.t - c.queued_at)
                again.append(c)
        tick_wall.append(w1 - w0)
        tick_cpu.append(c1 - c0)
        for svc, room, p in rated:
            w0, c0 = time.perf_counter(), time.process_time()
            svc.finished(room, "m", rng.choice((0, 1)), False, p.hashes)
            rate_wall.append(time.perf_counter() - w0)
            rate_cpu.append(time.process_time() - c0)
        pairs_per_tick.append(made)
        clock.t += 1.0
        for c in again:
            queue(c)
    for c in conns:
        c.sent.clear()
    waits.sort()
    total_wall = sum(tick_wall)
    out = {
        "label": label, "pairs_per_tick": statistics.mean(pairs_per_tick),
        "tick_ms": 1000 * statistics.median(tick_wall), "tick_cpu_ms": 1000 * statistics.median(tick_cpu),
        "rate_ms": 1000 * statistics.median(rate_wall) if rate_wall else 0.0,
        "rate_cpu_ms": 1000 * statistics.median(rate_cpu) if rate_cpu else 0.0,
        "max_pairs_per_s": sum(pairs_per_tick) / total_wall if total_wall else 0.0,
        "wait_median": waits[len(waits) // 2] if waits else None,
        "wait_p90": waits[int(len(waits) * 0.9)] if waits else None,
        "wait_max": waits[-1] if waits else None, "paired": len(waits),
    }
    return out


def show(r: dict) -> None:
    print(f"{r['label']}: {r['pairs_per_tick']:.1f} matches made a second (one tick a second); a tick "
          f"{r['tick_ms']:.1f} ms wall, {r['tick_cpu_ms']:.1f} ms CPU here; a rating update "
          f"{r['rate_ms']:.2f} ms wall, {r['rate_cpu_ms']:.2f} ms CPU; ticking back to back "
          f"{r['max_pairs_per_s']:.0f} pairs/s")
    if r["paired"]:
        print(f"    queue-to-pair: median {r['wait_median']:.0f} s, 90% {r['wait_p90']:.0f} s, "
              f"max {r['wait_max']:.0f} s ({r['paired']} pairings)")


def start_postgres(folder: Path):
    try:
        import pgserver
    except ImportError:
        return None, None
    srv = pgserver.get_server(folder / "pg", cleanup_mode="stop")
    return srv.get_uri(), srv


def fresh_database(url: str) -> str:
    import uuid
    import psycopg
    name = "load_" + uuid.uuid4().hex[:10]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _, query = url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=500, help="players always waiting (default 500)")
    ap.add_argument("--ticks", type=int, default=30, help="seconds of the server's clock (default 30)")
    ap.add_argument("--choices", type=int, default=len(CHOICES), help="how many (preset, length) choices")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=None, help="a PostgreSQL server's postgresql://... (default: start one "
                                               "with pgserver, if installed)")
    ap.add_argument("--skip-sqlite", action="store_true")
    ap.add_argument("--no-postgres", action="store_true", help="the SQLite run only")
    args = ap.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="koikoi-load-ladder-"))
    if not args.skip_sqlite:
        clock = Clock()
        svc = ladder_service.open_service(str(folder / "ladder.sqlite3"), folder, clock=clock)
        try:
            show(run("SQLite, one service", [svc], args.players, args.ticks, args.choices, args.seed, clock))
        finally:
            svc.close()
    if args.no_postgres:
        return 0
    url, srv = (args.db, None) if args.db else start_postgres(folder)
    if url is None:
        print("PostgreSQL runs skipped: no --db given and the pgserver package is not installed")
        return 0
    try:
        for n in (1, 2):
            clock = Clock()
            db = fresh_database(url)
            services = [ladder_service.open_service(db, folder, public_url=f"ws://127.0.0.1:{9000 + i}",
                                                    clock=clock) for i in range(n)]
            try:
                show(run(f"PostgreSQL, {n} service{'s' if n > 1 else ''}", services, args.players, args.ticks,
                         args.choices, args.seed, clock))
            finally:
                for s in services:
                    s.close()
    finally:
        if srv is not None:
            srv.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
