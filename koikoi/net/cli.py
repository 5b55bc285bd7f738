"""``koikoi serve``: the match server's command line (``koikoi.net.server`` is the server).

    koikoi serve [--host 127.0.0.1] [--port 8765] [--data DIR] [limits...]   (see --help)
    python -m koikoi.net.cli ...                                               the same

Each limit of a server on a public address is an option here (docs/online.md lists
them with what the operator sees in the log); at start the soft open-files limit is
raised to the hard one and the log says so.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import Optional

from . import options
from .rooms import StoreError
from .server import DEFAULT_PORT, MatchServer, ServerConfig, raise_open_files

log = logging.getLogger("koikoi.net.server")


def _bounded(text: str, convert, lo, hi, expected: str, outside: str):
    """``text`` as a number (``convert``) within ``lo``..``hi``, for argparse: ``expected``
    says what was wanted, ``outside`` (formatted with ``v`` and ``text``) what was wrong."""
    try:
        v = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, not {text!r}") from None
    if not lo <= v <= hi:
        raise argparse.ArgumentTypeError(outside.format(v=v, text=text))
    return v


def _seconds(text: str) -> float:
    return _bounded(text, float, 0, 10 ** 7, "seconds", "expected 0 to 10000000 seconds, not {text}")


def _rate(text: str) -> float:
    return _bounded(text, float, 0.001, 10 ** 6, "a number", "expected a number from 0.001 to 1000000, not {text}")


def _digits(text: str) -> int:
    return _bounded(text, int, 4, 8, "a whole number", "a room code has 4 to 8 digits, not {v}")


def _window_ms(text: str) -> float:
    return _bounded(text, float, 0, 100, "milliseconds", "expected 0 to 100 milliseconds, not {text}")


def _positive(text: str) -> int:
    return _bounded(text, int, 1, float("inf"), "a whole number", "expected a number >= 1, not {v}")


def _ws_url(text: str) -> str:
    if not (text.startswith(("ws://", "wss://")) and len(text) > 6 and len(text) <= 300
            and text.isprintable() and " " not in text):
        raise argparse.ArgumentTypeError(f"expected ws://HOST:PORT or wss://HOST:PORT, not {text[:80]!r}")
    return text


def _open_ladder(args: argparse.Namespace, server: MatchServer):
    """The quick-match ladder (an optional feature: koikoi.ladder.service is imported only
    here, when a server starts), or None if this build has none and no --db asked for one.
    ImportError if --db was given and it cannot be loaded."""
    try:
        from ..ladder.service import open_service     # optional dependency: the ladder (glicko2), only for a server with one
    except ImportError as exc:
        if args.db is not None:
            raise
        log.warning("quick match is off: the ladder cannot be loaded (%s)", exc)
        return None
    return open_service(args.db, server.data_dir, public_url=args.public_url or server.url)


def parse_args(argv=None) -> argparse.Namespace:
    p = options.Parser(prog="koikoi serve",
                description="Run a Koi-Koi match server: rooms for two players over the network "
                            "(WebSocket). The engine runs here; each player's program is sent only "
                            "what that seat may see.")
    options.add_listen(p, DEFAULT_PORT)       # --host, --port: checked as koikoi --join's are
    p.add_argument("--data", metavar="DIR", type=Path, default=None,
                   help="folder for the rooms database (default: server/ in the game's data folder; "
                        "KOIKOI_HOME moves it)")
    p.add_argument("--claim-after", type=_seconds, default=ServerConfig.claim_after, metavar="SECONDS",
                   help="how long a player may be gone before the other may claim the match "
                        f"(default {ServerConfig.claim_after:g})")
    p.add_argument("--max-rooms", type=_positive, default=ServerConfig.max_rooms, metavar="N",
                   help=f"open or playing rooms at most (default {ServerConfig.max_rooms})")
    p.add_argument("--rooms-per-address", type=_positive, default=ServerConfig.rooms_per_address,
                   metavar="N", help="open or playing rooms made from one address (IPv6: one /64) "
                                     f"at most (default {ServerConfig.rooms_per_address})")
    p.add_argument("--abandoned-after", type=_seconds, default=ServerConfig.abandoned_after,
                   metavar="SECONDS", help="a room nobody joined expires this long after its host "
                                           f"left, also across a restart (default "
                                           f"{ServerConfig.abandoned_after:g})")
    p.add_argument("--room-lifetime", type=_seconds, default=ServerConfig.room_ttl, metavar="SECONDS",
                   help="an open or playing room nobody visits this long expires "
                        f"(default {ServerConfig.room_ttl:g}, a week)")
    p.add_argument("--max-connections", type=_positive, default=ServerConfig.max_connections,
                   metavar="N", help="connections at most, counted from the TCP accept "
                                     f"(default {ServerConfig.max_connections}; kept "
                                     f"{ServerConfig.fd_reserve} below the open-files limit, "
                                     "whose soft value is raised to the hard one at start)")
    p.add_argument("--max-per-ip", type=_positive, default=ServerConfig.max_per_ip, metavar="N",
                   help="connections from one address (IPv6: one /64) at most "
                        f"(default {ServerConfig.max_per_ip})")
    p.add_argument("--rate", type=_rate, default=ServerConfig.rate, metavar="PER_SECOND",
                   help="frames a connection may send a second, pings and pongs included "
                        f"(default {ServerConfig.rate:g}, bursts of {ServerConfig.burst})")
    p.add_argument("--guess-rate", type=_rate, default=ServerConfig.guesses_rate * 60, metavar="PER_MINUTE",
                   help="wrong room codes or tokens a minute from one address before it must wait "
                        f"(default {ServerConfig.guesses_rate * 60:g}, bursts of {ServerConfig.guesses_burst})")
    p.add_argument("--guess-total", type=_rate, default=ServerConfig.guesses_total_rate * 60,
                   metavar="PER_MINUTE", help="wrong room codes or tokens a minute from every address "
                                              f"together (default {ServerConfig.guesses_total_rate * 60:g})")
    p.add_argument("--code-digits", type=_digits, default=ServerConfig.code_digits, metavar="N",
                   help="digits of a room code, 4 to 8 (default "
                        f"{ServerConfig.code_digits}; more make codes harder to guess)")
    p.add_argument("--commit-window", type=_window_ms, default=ServerConfig.commit_window * 1000, metavar="MS",
                   help="under load, commit the rooms' writes at most this often, one fsync for all "
                        f"(default {ServerConfig.commit_window * 1000:g}; 0: every write at once; more: "
                        "less CPU an action, answers that much later)")
    p.add_argument("--sync", choices=("full", "normal"), default="full" if ServerConfig.durable else "normal",
                   help="full (the default): every answered action is on disk before it is answered, "
                        "through a crash of the machine; normal: no fsync a commit (less CPU an action; "
                        "answered actions survive a crash of the server, but the latest of them may be "
                        "lost if the machine itself goes down)")
    p.add_argument("--db", metavar="URL", default=None,
                   help="the quick-match ladder's database: players, ratings and the queue "
                        "(default: SQLite in the data folder; postgresql://... shares them "
                        "between several server processes)")
    p.add_argument("--public-url", metavar="URL", type=_ws_url, default=None,
                   help="this server's address as players elsewhere reach it, for quick-match "
                        "pairs made on another process (default: ws://HOST:PORT it listens on)")
    p.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                   help="what to log on stderr (default INFO: rooms, refusals)")
    return p.parse_args(argv)


async def _serve(args: argparse.Namespace, *, stop: Optional[asyncio.Event] = None,
                 started: Optional[asyncio.Future] = None) -> int:
    """Run until SIGINT / SIGTERM (or ``stop`` is set); ``started`` gets the server once it
    listens (tests)."""
    raised = raise_open_files()
    if raised is not None:
        log.info("open-files limit raised from %d to %d", *raised)
    config = ServerConfig(claim_after=args.claim_after, max_rooms=args.max_rooms,
                          rooms_per_address=args.rooms_per_address, abandoned_after=args.abandoned_after,
                          room_ttl=args.room_lifetime, max_connections=args.max_connections,
                          max_per_ip=args.max_per_ip, rate=args.rate,
                          guesses_rate=args.guess_rate / 60, guesses_total_rate=args.guess_total / 60,
                          code_digits=args.code_digits, commit_window=args.commit_window / 1000,
                          durable=args.sync == "full", gc_freeze=True)
    server = MatchServer(args.data, host=args.host, port=args.port, config=config)
    try:
        await server.start()
    except (OSError, StoreError) as exc:
        print(f"koikoi serve: cannot start: {exc}", file=sys.stderr)
        return 1
    try:
        ladder = _open_ladder(args, server)
    except Exception as exc:        # ImportError, the ladder's store refusing the URL, ...
        # (not the --db URL itself: it may hold a password)
        print(f"koikoi serve: cannot open the quick-match ladder: {exc}", file=sys.stderr)
        await server.stop()
        return 1
    if ladder is not None:
        server.attach_ladder(ladder)
    print(f"koikoi server listening on {server.url} (rooms in {server.store.path})", flush=True)
    if not config.durable:
        log.info("--sync normal: commits are not fsync'd; a crash of the machine may lose the last "
                 "answered actions (a crash of the server loses none)")
    if started is not None:
        started.set_result(server)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):   # Windows: Ctrl+C raises instead
            pass
    try:
        await stop.wait()
    finally:
        await server.stop()
        if ladder is not None:
            try:
                ladder.close()
            except Exception:
                log.exception("closing the quick-match ladder failed")
        print("koikoi server stopped", flush=True)
    return 0


def main(argv=None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=getattr(logging, args.log_level), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("koikoi.net.websockets").setLevel(max(logging.WARNING, logging.getLogger().level))
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            return runner.run(_serve(args))
    except KeyboardInterrupt:
        return 0


def _loop_factory():
    """uvloop's event loop where it is installed (not on Windows): ``tools/load_server.py``
    measured about a sixth less server CPU per action with it; else asyncio's own."""
    try:
        import uvloop       # optional dependency: not on Windows; asyncio's own loop otherwise
    except ImportError:
        return None
    return uvloop.new_event_loop


if __name__ == "__main__":
    sys.exit(main())
