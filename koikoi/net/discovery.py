"""Games on the local network: announce a hosted room, browse for announced rooms.

    ad = RoomAd(code="KOI-4821", name="Aki", rules="casual", port=8765, addresses=("192.168.1.20",))
    a = Announcer(ad, lan=True).start()          # Host: while waiting for the guest
    a.stop(); a.join(5.0)

    b = Browser().start()                         # Join: while the screen is open
    b.games()                                     # a snapshot: tuple of FoundGame, any thread
    b.stop(); b.join(5.0)

Both run zeroconf (multicast DNS, service type ``_koikoi._tcp.local.``) on a thread
of their own: ``start`` and ``stop`` return at once, so the screen never waits for
the network. Each has a bounded lifetime (``lifetime`` seconds, then it stops by
itself) and ``join(timeout)`` waits for its thread a bounded time.

Where it may run (``discovery_mode``; the environment variable KOIKOI_DISCOVERY):

* ``off``: nothing is opened, nothing is sent (``state`` is "off"). This is the
  default under pytest, under CI (``CI`` set) and with a headless SDL video driver
  (dummy/offscreen: the ``koikoi --frames N`` smoke), so no test and no CI run
  touches the network unless it turns discovery on itself.
* ``loopback``: zeroconf bound to 127.0.0.1 alone (``interfaces=["127.0.0.1"]``):
  its sockets are bound to the loopback address, so nothing it sends leaves this
  machine (what the tests use).
* ``lan``: the default in a game a person plays. The browser searches every
  network of this machine; the announcer announces on every network only when the
  host lets the local network join (``lan=True``), on loopback otherwise (a server
  that listens on 127.0.0.1 is announced to this computer only).

When zeroconf is not installed or the network refuses (an ``OSError`` opening the
sockets), ``state`` becomes "unavailable", ``problem`` says why as a code the UI puts
in words (``PROBLEMS``) and ``reason`` as the raw text (for the log); joining by
address and code works as before.

Everything received is checked by ``parse_found`` (``FoundGame``): the service name,
the port, the addresses and each TXT entry (known keys only, sizes, UTF-8, the room
code, the player's name, the rules preset, the protocol version); what is bad is
dropped and logged, and at most ``MAX_GAMES`` games are kept.

Nothing here imports pygame; zeroconf is imported only when a thread starts.
"""

from __future__ import annotations

import collections
import errno
import ipaddress
import logging
import os
import socket
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from ..engine import RULESETS
from ..session import clean_name
from .protocol import PROTOCOL_VERSION

log = logging.getLogger("koikoi.net.discovery")

SERVICE_TYPE = "_koikoi._tcp.local."
ENV = "KOIKOI_DISCOVERY"
MODES = ("off", "loopback", "lan")
LOOPBACK = "127.0.0.1"
NOT_INSTALLED = "zeroconf is not installed"      # the ``reason`` when the import fails

# Why discovery is unavailable, as a code the UI says in words (``problem``; ``reason``
# keeps the raw text, for the log): never OS or zeroconf English on the screen.
PROBLEMS = ("not_installed", "denied", "in_use", "no_network", "failed")

MAX_GAMES = 32              # games kept by a browser (more are dropped until some go)
MAX_PENDING = 128           # names waiting to be looked up
MAX_TXT = 1024              # bytes of a TXT record
MAX_KEYS = 16               # entries in a TXT record
MAX_VALUE = 160             # bytes of one TXT value (a 40-character name is at most 160 in UTF-8)
MAX_NAME = 255              # characters of a service name
LOOKUP_MS = 1500            # one service's lookup
RECHECK_EVERY = 5.0         # seconds between checks that the games found are still announced
ANNOUNCE_LIFETIME = 3 * 3600.0
BROWSE_LIFETIME = 3600.0


# ------------------------------------------------------------------ where discovery may run

def discovery_mode(environ: Optional[dict] = None) -> str:
    """"off", "loopback" or "lan" (module docstring): KOIKOI_DISCOVERY if it is one of
    those; otherwise "off" under pytest, CI or a headless video driver, else "lan"."""
    env = os.environ if environ is None else environ
    want = str(env.get(ENV, "")).strip().lower()
    if want in MODES:
        return want
    if want in ("0", "no", "false"):
        return "off"
    if want:
        log.warning("%s=%r is not one of %s: discovery is off", ENV, want, "/".join(MODES))
        return "off"
    if env.get("PYTEST_CURRENT_TEST") or env.get("CI"):
        return "off"
    if str(env.get("SDL_VIDEODRIVER", "")).lower() in ("dummy", "offscreen"):
        return "off"
    return "lan"


def _import_zeroconf():
    import zeroconf   # optional dependency: LAN discovery is off without it (21-29 ms to import)
    return zeroconf


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ImportError):
        return NOT_INSTALLED
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return str(text)[:120]


_DENIED = {errno.EACCES, errno.EPERM, 10013}                       # 10013: WSAEACCES
_IN_USE = {errno.EADDRINUSE, 10048}                                # WSAEADDRINUSE
_NO_NETWORK = {errno.ENETUNREACH, errno.ENETDOWN, errno.EHOSTUNREACH, errno.EADDRNOTAVAIL,
               getattr(errno, "ENODEV", -1), getattr(errno, "ENONET", -1), 10049, 10050, 10051, 10065}


def _problem(exc: BaseException) -> str:
    """The code (``PROBLEMS``) of why discovery cannot run, from the exception's type and errno."""
    if isinstance(exc, ImportError):
        return "not_installed"
    if isinstance(exc, OSError):
        code = exc.errno if exc.errno is not None else getattr(exc, "winerror", None)
        if isinstance(exc, PermissionError) or code in _DENIED:
            return "denied"
        if code in _IN_USE:
            return "in_use"
        if code in _NO_NETWORK:
            return "no_network"
    return "failed"


# ------------------------------------------------------------------ what is announced and found

@dataclass(frozen=True)
class RoomAd:
    """A hosted room as announced: its code, the host player's name, the rules preset,
    the server's port and the IPv4 addresses it listens on."""

    code: str
    name: str
    rules: str
    port: int
    addresses: tuple = (LOOPBACK,)
    version: int = PROTOCOL_VERSION

    def properties(self) -> dict:
        return {"v": str(self.version), "code": self.code, "name": self.name, "rules": self.rules}

    def instance(self) -> str:
        """The service instance name (unique per room; zeroconf renames it on a clash)."""
        return f"koikoi-{self.code.lower()}.{SERVICE_TYPE}"


@dataclass(frozen=True)
class FoundGame:
    """A room announced on the network, checked (``parse_found``)."""

    key: str            # the service name, lower case (one entry per announced room)
    name: str           # the host player's name
    code: str
    rules: str
    host: str           # an IPv4 address
    port: int
    version: int

    @property
    def compatible(self) -> bool:
        return self.version == PROTOCOL_VERSION

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


class BadRecord(ValueError):
    """What was received cannot be right (the message says why)."""


def _text(raw: Any, what: str) -> str:
    if not isinstance(raw, (bytes, bytearray)):
        raise BadRecord(f"{what} is not bytes")
    if len(raw) > MAX_VALUE:
        raise BadRecord(f"{what} is {len(raw)} bytes long")
    try:
        text = bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise BadRecord(f"{what} is not UTF-8") from None
    if any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 or 0xd800 <= ord(c) < 0xe000 for c in text):
        raise BadRecord(f"{what} holds control characters")
    return text


def _address(raw: Any, *, loopback_only: bool) -> str:
    """An IPv4 address a game may be joined at: loopback, private or link-local (a
    multicast DNS answer comes from the local network), never multicast or unspecified."""
    if isinstance(raw, (bytes, bytearray)) and len(raw) == 4:
        ip = ipaddress.IPv4Address(bytes(raw))
    elif isinstance(raw, str) and len(raw) <= 15:
        try:
            ip = ipaddress.IPv4Address(raw)
        except ValueError:
            raise BadRecord("an address is not IPv4") from None
    else:
        raise BadRecord("an address is not IPv4")
    if ip.is_multicast or ip.is_unspecified or ip == ipaddress.IPv4Address("255.255.255.255"):
        raise BadRecord(f"address {ip} cannot be joined")
    if loopback_only and not ip.is_loopback:
        raise BadRecord(f"address {ip} is not on this computer")
    if not (ip.is_loopback or ip.is_private or ip.is_link_local):
        raise BadRecord(f"address {ip} is not on a local network")
    return str(ip)


def parse_found(name: Any, port: Any, addresses: Iterable, properties: Any, text: Any = b"", *,
                loopback_only: bool = False) -> FoundGame:
    """A ``FoundGame`` from what a service's records say, or ``BadRecord``.

    ``name``: the service name; ``port``: the SRV port; ``addresses``: its A records
    (4 bytes or text); ``properties``: the TXT entries (bytes keys, bytes values);
    ``text``: the raw TXT record (for its size)."""
    from .netsession import AddressError, parse_code   # start-up time: measured 23-33 ms CPU
    if not isinstance(name, str) or not name or len(name) > MAX_NAME:
        raise BadRecord("the service name is missing or too long")
    if not name.lower().endswith("." + SERVICE_TYPE):
        raise BadRecord("the service is not a koikoi game")
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise BadRecord(f"port {port!r} cannot be right")
    if text is not None and (not isinstance(text, (bytes, bytearray)) or len(text) > MAX_TXT):
        raise BadRecord("the TXT record is too long")
    if not isinstance(properties, dict) or len(properties) > MAX_KEYS:
        raise BadRecord("the TXT record has too many entries")
    fields: dict = {}
    for k, v in properties.items():
        key = _text(k, "a TXT key")
        if key not in ("v", "code", "name", "rules"):
            continue                                  # an entry of a later version: ignored
        if v is None:
            raise BadRecord(f"TXT entry {key!r} has no value")
        fields[key] = _text(v, f"TXT entry {key!r}")
    missing = [k for k in ("v", "code", "name", "rules") if k not in fields]
    if missing:
        raise BadRecord(f"the TXT record lacks {', '.join(missing)}")
    if not fields["v"].isascii() or not fields["v"].isdigit() or len(fields["v"]) > 4:
        raise BadRecord(f"protocol version {fields['v']!r} cannot be right")
    try:
        code = parse_code(fields["code"])
    except AddressError:
        raise BadRecord(f"room code {fields['code']!r} cannot be right") from None
    if code != fields["code"]:
        raise BadRecord(f"room code {fields['code']!r} is not written as the game writes it")
    try:
        player = clean_name(fields["name"])
    except ValueError as exc:
        raise BadRecord(f"player name: {exc}") from None
    if fields["rules"] not in RULESETS:
        raise BadRecord(f"rules preset {fields['rules']!r} is not one this game knows")
    found: list[str] = []
    bad: Optional[BadRecord] = None
    for raw in list(addresses)[:16]:
        try:
            found.append(_address(raw, loopback_only=loopback_only))
        except BadRecord as exc:
            bad = exc
    if not found:
        raise bad or BadRecord("the service has no IPv4 address")
    best = sorted(dict.fromkeys(found), key=lambda a: (ipaddress.IPv4Address(a).is_loopback, a))[0]
    return FoundGame(key=name.lower(), name=player, code=code, rules=fields["rules"], host=best, port=port,
                     version=int(fields["v"]))


# ------------------------------------------------------------------ the threads

_LIVE: "weakref.WeakSet[_Worker]" = weakref.WeakSet()        # every worker started in this process


def live_workers() -> list:
    """The workers of this process whose thread still runs."""
    return [w for w in list(_LIVE) if w.running]


class _Worker:
    """A thread with a state, a reason, a stop flag and a bounded lifetime."""

    name = "koikoi-discovery"

    def __init__(self, *, mode: Optional[str] = None, lifetime: float = 3600.0, zeroconf_module=None):
        self.mode = discovery_mode() if mode is None else mode
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {self.mode!r}")
        self.lifetime = float(lifetime)
        self._zc_module = zeroconf_module
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: Optional[threading.Thread] = None
        self.state = "off" if self.mode == "off" else "idle"
        self.reason: Optional[str] = None      # why it is unavailable (raw text, for the log)
        self.problem: Optional[str] = None     # the same as a code of PROBLEMS (the UI words it)
        self.interfaces: Any = None             # what zeroconf was opened on (tests read it)
        self.zeroconf: Any = None               # the Zeroconf instance while the thread runs

    def start(self):
        """Start the thread (a no-op when discovery is off or it ran already); returns self."""
        if self.mode == "off" or self._thread is not None:
            return self
        self.state = "starting"
        self._thread = threading.Thread(target=self._main, name=self.name, daemon=True)
        _LIVE.add(self)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Ask the thread to stop (returns at once; ``join`` waits for it)."""
        self._stop.set()

    def join(self, timeout: float = 5.0) -> bool:
        """Wait up to ``timeout`` seconds for the thread; True once it has ended."""
        t = self._thread
        if t is None:
            return True
        t.join(timeout)
        return not t.is_alive()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _open(self, interfaces):
        zc = self._zc_module or _import_zeroconf()
        self.interfaces = interfaces
        return zc, zc.Zeroconf(interfaces=interfaces, ip_version=zc.IPVersion.V4Only)

    def _interfaces(self, zc, everywhere: bool):
        return zc.InterfaceChoice.All if everywhere and self.mode == "lan" else [LOOPBACK]

    def _main(self) -> None:
        zc_mod = instance = None
        try:
            zc_mod = self._zc_module or _import_zeroconf()
            zc_mod, instance = self._open(self._interfaces(zc_mod, self._everywhere()))
        except Exception as exc:                      # ImportError, OSError, zeroconf's own
            self._unavailable(exc)
            return
        self.zeroconf = instance
        try:
            self._run(zc_mod, instance)
            if self.state != "unavailable":
                self.state = "stopped"
        except Exception as exc:
            self._unavailable(exc)
        finally:
            try:
                instance.close()
            except Exception:
                log.debug("closing zeroconf failed", exc_info=True)
            self.zeroconf = None

    def _everywhere(self) -> bool:
        return True

    def _unavailable(self, exc: BaseException) -> None:
        self.reason = _reason(exc)
        self.problem = _problem(exc)
        self.state = "unavailable"
        log.info("local network discovery unavailable: %s", self.reason,
                 exc_info=not isinstance(exc, (ImportError, OSError)))

    def _run(self, zc_mod, instance) -> None:
        raise NotImplementedError


class Announcer(_Worker):
    """Announces one ``RoomAd`` until ``stop`` (or ``lifetime`` seconds); states: off,
    starting, announcing, stopped, unavailable. ``lan``: the host lets the local network
    join (announced on every network); otherwise on loopback only."""

    name = "koikoi-announce"

    def __init__(self, ad: RoomAd, *, lan: bool = False, mode: Optional[str] = None,
                 lifetime: float = ANNOUNCE_LIFETIME, zeroconf_module=None):
        super().__init__(mode=mode, lifetime=lifetime, zeroconf_module=zeroconf_module)
        self.ad = ad
        self.lan = bool(lan) and self.mode == "lan"
        self.registered_name: Optional[str] = None

    def _everywhere(self) -> bool:
        return self.lan

    def _run(self, zc_mod, instance) -> None:
        addresses = [a for a in self.ad.addresses if self.lan or a.startswith("127.")] or [LOOPBACK]
        info = zc_mod.ServiceInfo(
            SERVICE_TYPE, self.ad.instance(), port=int(self.ad.port), properties=self.ad.properties(),
            server=f"koikoi-{self.ad.code.lower()}.local.",
            addresses=[socket.inet_aton(a) for a in addresses])
        if self._stop.is_set():
            return
        instance.register_service(info, allow_name_change=True)      # probes: about 1.5 s
        self.registered_name = info.name
        self.state = "announcing"
        log.info("announcing %s (%s) at %s port %s", self.ad.code, info.name, addresses, self.ad.port)
        self._stop.wait(self.lifetime)
        try:
            instance.unregister_service(info)                         # the goodbye
        except Exception:
            log.debug("unregistering %s failed", info.name, exc_info=True)


class Browser(_Worker):
    """Searches for announced games until ``stop`` (or ``lifetime`` seconds); states: off,
    starting, searching, stopped, unavailable. ``games()`` is a snapshot of what was found
    (checked, sorted by name), safe from any thread; ``version`` grows at every change."""

    name = "koikoi-browse"

    def __init__(self, *, mode: Optional[str] = None, lifetime: float = BROWSE_LIFETIME, zeroconf_module=None,
                 recheck_every: float = RECHECK_EVERY):
        super().__init__(mode=mode, lifetime=lifetime, zeroconf_module=zeroconf_module)
        self.recheck_every = float(recheck_every)
        self._found: dict[str, FoundGame] = {}
        self._pending: collections.OrderedDict = collections.OrderedDict()    # name -> "add"/"remove"
        self._wake = threading.Event()
        self.version = 0
        self.dropped: list[str] = []          # why records were dropped (the last 50; tests read it)

    # ---------------------------------------------------------- any thread
    def games(self) -> tuple:
        with self._lock:
            return tuple(sorted(self._found.values(), key=lambda g: (g.name.lower(), g.code, g.key)))

    def stop(self) -> None:
        super().stop()
        self._wake.set()

    # ---------------------------------------------------------- zeroconf's thread
    def _on_change(self, zeroconf=None, service_type=None, name=None, state_change=None, **_kw) -> None:
        if not isinstance(name, str) or len(name) > MAX_NAME:
            return
        what = "remove" if getattr(state_change, "name", "") == "Removed" else "add"
        with self._lock:
            if name not in self._pending and len(self._pending) >= MAX_PENDING:
                return                                 # a flood: the rest waits for the next query
            self._pending[name] = what
        self._wake.set()

    # ---------------------------------------------------------- this thread
    def _run(self, zc_mod, instance) -> None:
        browser = zc_mod.ServiceBrowser(instance, SERVICE_TYPE, handlers=[self._on_change])
        self.state = "searching"
        end = time.monotonic() + self.lifetime
        next_check = time.monotonic() + self.recheck_every
        try:
            while not self._stop.is_set() and time.monotonic() < end:
                self._wake.wait(min(0.5, max(0.0, end - time.monotonic())))
                self._wake.clear()
                while not self._stop.is_set():
                    with self._lock:
                        if not self._pending:
                            break
                        name, what = self._pending.popitem(last=False)
                    if what == "remove":
                        self._forget(name.lower())
                    else:
                        self._look_up(zc_mod, instance, name)
                if time.monotonic() >= next_check:
                    next_check = time.monotonic() + self.recheck_every
                    self._recheck(zc_mod, instance)
        finally:
            browser.cancel()

    def _look_up(self, zc_mod, instance, name: str, *, from_cache: bool = False) -> None:
        try:
            info = zc_mod.ServiceInfo(SERVICE_TYPE, name)
            ok = info.load_from_cache(instance) if from_cache else info.request(instance, LOOKUP_MS)
        except Exception as exc:                      # a name zeroconf itself refuses
            self._drop(name, f"lookup failed: {_reason(exc)}")
            return
        if not ok:
            self._drop(name, "no answer" if not from_cache else "no longer announced")
            return
        try:
            game = parse_found(info.name, info.port, info.addresses, info.properties, info.text,
                               loopback_only=self.mode == "loopback")
        except BadRecord as exc:
            self._drop(name, str(exc))
            return
        except Exception as exc:                      # records zeroconf itself could not read
            self._drop(name, f"unreadable: {_reason(exc)}")
            return
        with self._lock:
            if game.key not in self._found and len(self._found) >= MAX_GAMES:
                return
            if self._found.get(game.key) != game:
                self._found[game.key] = game
                self.version += 1

    def _recheck(self, zc_mod, instance) -> None:
        """Drop the games whose records have expired (a host gone without a goodbye)."""
        with self._lock:
            keys = list(self._found)
        for key in keys:
            if self._stop.is_set():
                return
            self._look_up(zc_mod, instance, key, from_cache=True)

    def _forget(self, key: str) -> None:
        with self._lock:
            if self._found.pop(key, None) is not None:
                self.version += 1

    def _drop(self, name: str, why: str) -> None:
        log.info("dropped %r from the local network: %s", name[:80], why)
        self._forget(name.lower())
        with self._lock:
            self.dropped = (self.dropped + [f"{name[:80]}: {why}"])[-50:]


def close_all(workers: Iterable[Optional[_Worker]], timeout: float = 5.0) -> bool:
    """Stop each worker and wait for them all (``timeout`` seconds in all); True if all ended."""
    ws = [w for w in workers if w is not None]
    for w in ws:
        w.stop()
    end = time.monotonic() + timeout
    return all(w.join(max(0.0, end - time.monotonic())) for w in ws)


__all__ = ["SERVICE_TYPE", "ENV", "MODES", "NOT_INSTALLED", "PROBLEMS", "RoomAd", "FoundGame", "BadRecord", "parse_found", "Announcer",
           "Browser", "discovery_mode", "close_all", "live_workers"]
