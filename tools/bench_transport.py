"""The transport's floor: what a WebSocket server costs an action before any room logic.

    python tools/bench_transport.py [--clients 200] [--seconds 10] [--gap 0.5] [--runs 2]

An action on the match server is one frame in and two out (the ``events`` frame to
each seat). This runs a server that does only that, with no rules, no store and no
JSON, as a subprocess on 127.0.0.1 pinned to one CPU, and ``--clients`` WebSocket
clients in this process on the others, each sending a frame about every ``--gap``
seconds (the rate of ``tools/load_server.py --pairs 500 --think 1.0`` is about
250-400 a second); it prints the server's CPU (user + kernel, from getrusage) a frame
in. Kinds, in turns (``--kinds``):

- ``koikoi``: websockets as ``koikoi.net`` uses it: ``recv()`` in a task a
  connection, each frame sent at once (``protocol.send_text`` and ``send_data``);
- ``callback``: as ``koikoi``, but each whole text frame handled as websockets reads
  it (``process_event``), not by a task waiting in ``recv()``;
- ``websockets``: websockets' ordinary ``async for`` and ``await send``;
- ``picows``: the picows library (Cython framing and callbacks), if installed; not a
  dependency of the game, only a yardstick for what a faster transport would save.

The difference between the match server's CPU an action (``tools/load_server.py``)
and ``koikoi`` here is what the rooms, their store and their encoding cost.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import subprocess
import sys
import time

OUT = b"x" * 600         # about an ``events`` frame of a play
IN = '{"type":"act","id":1,"action":{"kind":"play","card":12},"at":40}'


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def _serve(kind: str, seconds: float, ready) -> None:
    count = 0

    async def measure():
        nonlocal count
        ready()
        await asyncio.sleep(2.0)            # the clients connect
        c0, n0 = _cpu(), count
        await asyncio.sleep(seconds)
        c1, n1 = _cpu(), count
        print(f"{kind}: {n1 - n0} frames in, {(c1 - c0) * 1e6 / max(1, n1 - n0):.0f} us of server "
              f"CPU a frame in (and two out)", flush=True)

    if kind == "picows":
        from picows import WSListener, WSMsgType, ws_create_server

        class Listener(WSListener):
            def on_ws_frame(self, transport, frame):
                nonlocal count
                if frame.msg_type == WSMsgType.TEXT:
                    frame.get_payload_as_utf8_text()
                    count += 1
                    transport.send(WSMsgType.TEXT, OUT)
                    transport.send(WSMsgType.TEXT, OUT)
                elif frame.msg_type == WSMsgType.CLOSE:
                    transport.send_close(frame.get_close_code())
                    transport.disconnect()
        server = await ws_create_server(lambda request: Listener(), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        print(f"port {port}", flush=True)
        await measure()
        return

    from websockets.asyncio.server import ServerConnection, serve
    from websockets.frames import Opcode
    from websockets.protocol import State
    OPEN = State.OPEN

    class Direct(ServerConnection):
        """``callback``: a whole text frame handled in ``process_event``, as it is read."""
        direct = False

        def process_event(self, event) -> None:
            nonlocal count
            if self.direct and event.opcode is Opcode.TEXT and event.fin and self.protocol.state is OPEN:
                bytes(event.data).decode()
                count += 1
                for _ in range(2):
                    self.protocol.send_text(OUT)
                self.send_data()
                return
            super().process_event(event)

    async def handler(ws):
        if kind == "callback":
            ws.direct = True
            await ws.wait_closed()
            return
        nonlocal count
        try:
            async for _msg in ws:
                count += 1
                if kind == "koikoi":
                    for _ in range(2):
                        ws.protocol.send_text(OUT)
                        ws.send_data()
                else:
                    await ws.send(OUT, text=True)
                    await ws.send(OUT, text=True)
        except Exception:       # the clients leave when the run ends
            pass

    extra = {"create_connection": Direct} if kind == "callback" else {}
    async with serve(handler, "127.0.0.1", 0, compression=None, logger=None, **extra) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"port {port}", flush=True)
        await measure()


async def _clients(port: int, n: int, seconds: float, gap: float) -> None:
    from websockets.asyncio.client import connect

    async def one():
        try:
            async with connect(f"ws://127.0.0.1:{port}", compression=None) as ws:
                loop = asyncio.get_running_loop()
                end = loop.time() + seconds
                while loop.time() < end:
                    await asyncio.sleep(random.random() * 2 * gap)
                    await ws.send(IN)
                    await ws.recv()
                    await ws.recv()
        except Exception:       # the server stopped first
            pass
    await asyncio.gather(*(one() for _ in range(n)))


def _loop_run(coro) -> None:
    try:
        import uvloop
    except ImportError:
        asyncio.run(coro)
    else:
        uvloop.run(coro)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--gap", type=float, default=0.5, help="seconds between a client's frames, on average")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--kinds", default="koikoi,callback,websockets,picows")
    ap.add_argument("--serve", default=None, help=argparse.SUPPRESS)     # the server subprocess
    args = ap.parse_args(argv)
    if args.serve:
        _loop_run(_serve(args.serve, args.seconds, lambda: None))
        return 0
    kinds = [k for k in args.kinds.split(",") if k]
    if "picows" in kinds:
        try:
            import picows  # noqa: F401  (only measured where it is installed)
        except ImportError:
            print("picows is not installed: not measured", flush=True)
            kinds.remove("picows")
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    for _ in range(args.runs):
        for kind in kinds:
            proc = subprocess.Popen([sys.executable, __file__, "--serve", kind, "--seconds", str(args.seconds)],
                                    stdout=subprocess.PIPE, text=True)
            try:
                if len(cpus) >= 2:
                    os.sched_setaffinity(proc.pid, {cpus[0]})
                    os.sched_setaffinity(0, set(cpus[1:]))
                line = proc.stdout.readline()
                if not line.startswith("port "):
                    raise SystemExit(f"the {kind} server did not start")
                _loop_run(_clients(int(line.split()[1]), args.clients, args.seconds + 3, args.gap))
                print(proc.stdout.readline().rstrip(), flush=True)
            finally:
                proc.kill()
                proc.wait(10)
            time.sleep(0.2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
