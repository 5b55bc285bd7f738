"""Processes of the network abuse tests, run as ``python tests/net/net_procs.py KIND ...``:
a server (``serve``) under an open-files limit of its own, and a syncing attacker
(``syncers``), so that neither shares the test's CPU time or files. Loopback only;
every loop is bounded in count and time.

    serve DATA_DIR [--nofile N] [--config JSON]
        prints "port N" once listening, then serves until stdin closes
    syncers URL CODE[,CODE...] --per-room N --rate R --seconds S
        N spectators of each room, each sending ``sync`` (the whole log) R times a second
        for S seconds, reading everything sent back; prints "sent N"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def serve(args) -> int:
    if args.nofile:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, args.nofile))
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from koikoi.net.server import MatchServer, ServerConfig
    config = ServerConfig(**json.loads(args.config))

    async def main():
        server = MatchServer(args.data, host="127.0.0.1", port=0, config=config)
        await server.start()
        print(f"port {server.port}", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)      # until the test closes stdin
        await server.stop()
    asyncio.run(main())
    return 0


def syncers(args) -> int:
    from websockets.asyncio.client import connect

    async def one(code: str, counter: list, deadline: float) -> None:
        ws = await connect(args.url, compression=None, proxy=None, max_size=8 * 1024 * 1024,
                           open_timeout=10)
        try:
            await ws.send(json.dumps({"type": "watch", "room": code}))

            async def drain():
                async for _ in ws:
                    pass
            reader = asyncio.get_running_loop().create_task(drain())
            frame = json.dumps({"type": "sync"})
            gap = 1.0 / args.rate
            while time.monotonic() < deadline and not reader.done():
                await ws.send(frame)
                counter[0] += 1
                await asyncio.sleep(gap)
            reader.cancel()
        finally:
            await ws.close()

    async def main():
        deadline = time.monotonic() + args.seconds
        counter = [0]
        tasks = [one(code, counter, deadline) for code in args.codes.split(",")
                 for _ in range(args.per_room)]
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), args.seconds + 30)
        print(f"sent {counter[0]}", flush=True)
    asyncio.run(main())
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="kind", required=True)
    s = sub.add_parser("serve")
    s.add_argument("data")
    s.add_argument("--nofile", type=int, default=0)
    s.add_argument("--config", default="{}")
    y = sub.add_parser("syncers")
    y.add_argument("url")
    y.add_argument("codes")
    y.add_argument("--per-room", type=int, default=8)
    y.add_argument("--rate", type=float, default=20.0)
    y.add_argument("--seconds", type=float, default=10.0)
    args = p.parse_args(argv)
    return serve(args) if args.kind == "serve" else syncers(args)


if __name__ == "__main__":
    sys.exit(main())
