"""The command-line options of online play, one parser for both commands: ``koikoi
serve`` (the address and port it listens on) and the game's ``koikoi --host / --join /
--server / --name`` (the match server and room it goes to). Each address, port, room
code and name is checked once, here, the same way everywhere; nothing here imports
the server or pygame, so the game's command line stays light.

    p = Parser(prog="koikoi serve")          # a bad option: one line on stderr, exit 2
    add_listen(p, default_port=8765)           # --host ADDRESS, --port N
    add_online(p)                              # --host, --join HOST:PORT/CODE, --server, --name
"""

from __future__ import annotations

import argparse
import ipaddress
import re

from ..session import clean_name

_HOSTNAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?")


class Parser(argparse.ArgumentParser):
    """argparse, but a bad option is one line on stderr ("PROG: what (see --help)") and
    exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def port(text: str) -> int:
    """A port to listen on: 0 to 65535 (0: any free one)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, not {text[:40]!r}") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535 (0: any free one), not {v}")
    return v


def listen_host(text: str) -> str:
    """An address to listen on: an IPv4 or IPv6 address, or a host name."""
    t = text.strip()
    if t.startswith("[") and t.endswith("]"):
        t = t[1:-1]
    try:
        return str(ipaddress.ip_address(t))
    except ValueError:
        pass
    if _HOSTNAME.fullmatch(t) and not t.replace(".", "").isdigit():
        return t
    raise argparse.ArgumentTypeError(f"expected an address such as 127.0.0.1, 0.0.0.0 or ::, not {text[:80]!r}")


def server_address(text: str) -> str:
    """--server: a match server's address (host:port, ws://host:port or wss://host:port)."""
    from .netsession import AddressError, parse_address   # start-up time: measured 33-36 ms CPU
    try:
        return parse_address(text).text
    except AddressError as exc:
        raise argparse.ArgumentTypeError(
            f"{exc} (or ws://HOST:PORT, wss://HOST:PORT), not {text[:80]!r}") from None


def join_address(text: str):
    """--join: HOST:PORT/CODE (a ``netsession.JoinAddress``)."""
    from .netsession import AddressError, parse_join   # start-up time: measured 33-36 ms CPU
    try:
        return parse_join(text)
    except AddressError as exc:
        raise argparse.ArgumentTypeError(f"{exc}, not {text[:80]!r}") from None


def player_name(text: str) -> str:
    try:
        return clean_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_listen(p: argparse.ArgumentParser, default_port: int) -> None:
    """``koikoi serve``'s --host and --port."""
    p.add_argument("--host", type=listen_host, default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; "
                        "0.0.0.0 for every interface)")
    p.add_argument("--port", type=port, default=default_port,
                   help=f"port (default {default_port}; 0 picks a free one and prints it)")


def add_online(p: argparse.ArgumentParser) -> None:
    """The game's --host / --join (one or the other), --server and --name."""
    online = p.add_mutually_exclusive_group()
    online.add_argument("--host", action="store_true", help="open the Host a match screen (play online)")
    online.add_argument("--join", type=join_address, metavar="HOST:PORT/CODE",
                        help="join an online match at once, e.g. 192.168.1.20:8765/KOI-4821")
    p.add_argument("--server", type=server_address, metavar="HOST:PORT",
                   help="with --host: create the room on this match server (koikoi serve) instead of "
                        "in the game; wss://HOST:PORT connects over TLS")
    p.add_argument("--name", type=player_name, metavar="NAME", help="your name in an online match")


def check_online(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """What the options of ``add_online`` need of each other."""
    if args.server is not None and not args.host:
        p.error("--server goes with --host (koikoi --host --server HOST:PORT)")


__all__ = ["Parser", "add_listen", "add_online", "check_online", "join_address", "listen_host",
           "player_name", "port", "server_address"]
