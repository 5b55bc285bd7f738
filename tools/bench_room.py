"""The room service's own cost an action, without a socket: what the server does for an
``act`` frame between reading its text and handing its answers to the transport.

    python tools/bench_room.py [--matches 40] [--months 12] [--durable] [--profile [N]]

Plays ``--matches`` random legal matches through ``koikoi.net.service.RoomService`` on a
fresh ``RoomStore`` in a temporary folder, two fake connections a room, each client
frame given as text and read as the server reads it (``protocol.frame_object`` and
``check_client``), every write made at once through the synchronous store (one commit a
write, as an idle server's writer does). Each frame the service sends is taken as it
would go to a socket (a str, or a dict encoded). Prints the CPU time of this process a
match's action (create, join, the records and the closes spread over the actions, as
``tools/load_server.py`` does) and the instructions are steady under valgrind:
``valgrind --tool=callgrind python tools/bench_room.py --matches 10`` minus ``--matches 2``.

The socket, the WebSocket framing and the writer thread's group commits are not in it:
``tools/load_server.py`` measures the whole server; this measures the part of it that is
the room's logic, steadily enough to compare two trees on a busy machine
(``--compare OLD_TREE`` runs the same matches there in turns).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Conn:
    """A connection as the service sees it; the frames it is sent are encoded and counted."""

    def __init__(self, peer: str, encode):
        self.peer = self.key = self.label = peer
        self.room = self.seat = self.role = self.name = None
        self.entering = self.closing = False
        self.ladder = None
        self._encode = encode
        self.last = None
        self.frames = self.bytes = 0

    def send(self, message) -> None:
        text = message if type(message) is str else self._encode(message)
        self.frames += 1
        self.bytes += len(text)
        self.last = text

    def error(self, re, code, message) -> None:
        raise AssertionError(f"refused: {code} {message}")

    def charge(self, tokens) -> None:
        pass

    def close(self, code=1000, reason="") -> None:
        self.closing = True


def play(matches: int, months: int, durable: bool, seed: int) -> tuple:
    """CPU seconds and actions of ``matches`` matches (this process)."""
    from koikoi.engine import legal_actions
    from koikoi.net.protocol import action_to_json, check_client, encode, frame_object
    from koikoi.net.rooms import RoomStore
    from koikoi.net.server import ServerConfig
    from koikoi.net.service import RoomService

    rng = random.Random(seed)
    seeds = iter(range(seed * 100_000, seed * 100_000 + matches))
    actions = 0
    with tempfile.TemporaryDirectory(prefix="koikoi-bench-room-") as tmp:
        config = ServerConfig(durable=durable)
        store = RoomStore(Path(tmp), durable=durable)
        service = RoomService(config, store, seeds=lambda: next(seeds))
        ids = 0

        def frame(conn, text: str) -> None:
            service.run(conn, check_client(frame_object(text, fast=True)), time.time())

        if config.gc_threshold:         # the collector as the server runs it
            gc.set_threshold(*config.gc_threshold)
        cpu0 = time.process_time()
        for m in range(matches):
            a, b = Conn(f"203.0.113.{m % 250 + 1}", encode), Conn(f"198.51.100.{m % 250 + 1}", encode)
            ids += 1
            frame(a, '{"type":"create","id":%d,"name":"Aki","rules":{"preset":"casual"},"months":%d}'
                  % (ids, months))
            code = a.room.code
            ids += 1
            frame(b, '{"type":"join","id":%d,"room":"%s","name":"Haru"}' % (ids, code))
            room = a.room
            while room.status == "playing":
                state = room.state
                conn = (a, b)[a.seat != state.to_move]
                action = rng.choice(legal_actions(state))
                ids += 1
                frame(conn, encode({"type": "act", "id": ids, "action": action_to_json(action),
                                    "at": len(room.events)}))
                actions += 1
            for conn in (a, b):     # played out: each seat was sent its record last
                if not (conn.last or "").startswith('{"type":"record"'):
                    raise SystemExit(f"match {m}: seat {conn.seat} was not sent its record")
            service.closed(a, time.time())
            service.closed(b, time.time())
            service.sweep(time.time())
        cpu = time.process_time() - cpu0
        store.close()
    return cpu, actions


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--months", type=int, default=12)
    ap.add_argument("--durable", action="store_true",
                    help="synchronous=FULL, an fsync a commit (off: the CPU of the logic alone)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1, help="runs (each tree in turns with --compare)")
    ap.add_argument("--compare", type=Path, default=None, metavar="OLD_TREE",
                    help="another checkout: the same matches there, in turns")
    ap.add_argument("--profile", type=int, nargs="?", const=30, default=None, metavar="N")
    args = ap.parse_args(argv)
    if args.compare is None:
        sys.path.insert(0, str(ROOT))
        for _ in range(args.runs):
            if args.profile is not None:
                import cProfile
                import pstats
                prof = cProfile.Profile()
                cpu, n = prof.runcall(play, args.matches, args.months, args.durable, args.seed)
                pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)
            else:
                cpu, n = play(args.matches, args.months, args.durable, args.seed)
            print(f"{ROOT.name}: {args.matches} matches of {args.months} month{'s' * (args.months != 1)}, {n} actions: "
                  f"{cpu * 1000 / n:.3f} ms CPU an action ({cpu:.2f} s)", flush=True)
        return 0
    here = [sys.executable, str(Path(__file__).resolve()), "--matches", str(args.matches),
            "--months", str(args.months), "--seed", str(args.seed)] + (["--durable"] if args.durable else [])
    there = [sys.executable, str(args.compare.resolve() / "tools" / "bench_room.py")] + here[2:]
    for _ in range(args.runs):
        for cmd, tree in ((there, args.compare), (here, ROOT)):
            env = dict(os.environ, PYTHONPATH=str(tree))
            subprocess.run(cmd, env=env, check=True, cwd=str(tree))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
