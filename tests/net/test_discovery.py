"""Games on the local network (koikoi.net.discovery).

Zeroconf runs bound to the loopback interface only (mode "loopback":
``Zeroconf(interfaces=["127.0.0.1"])``): every socket it sends from is bound to
127.0.0.1, which each test checks, so nothing leaves this machine. The browser's
own logic (floods, hostile answers, a refusing network, no zeroconf at all) is also
driven through a fake zeroconf module with no network at all. Every wait has a
deadline; every thread is stopped and joined."""

from __future__ import annotations

import os
import socket
import threading
import time
from types import SimpleNamespace

import pytest

from koikoi.net import discovery as D
from koikoi.net.discovery import (Announcer, BadRecord, Browser, FoundGame, RoomAd, close_all, discovery_mode,
                                  parse_found)
from koikoi.net.protocol import PROTOCOL_VERSION

LIMIT = 10.0
REAL_TYPE = D.SERVICE_TYPE
# a service type of this test process's own: two test runs at once on this machine share the
# loopback multicast group, and neither sees the other's games
TEST_TYPE = f"_koikoi-t{os.getpid() % 1000000:06d}._tcp.local."
NAME = "koikoi-koi-4821." + TEST_TYPE
GOOD = {b"v": str(PROTOCOL_VERSION).encode(), b"code": b"KOI-4821", b"name": b"Aki", b"rules": b"casual"}


def wait_until(cond, limit=LIMIT):
    end = time.monotonic() + limit
    while not cond() and time.monotonic() < end:
        time.sleep(0.02)
    return cond()


def worker_threads():
    return [t for t in threading.enumerate() if t.name.startswith(("koikoi-announce", "koikoi-browse"))
            or "zeroconf" in t.name.lower()]


@pytest.fixture(autouse=True)
def own_service_type(monkeypatch):
    monkeypatch.setattr(D, "SERVICE_TYPE", TEST_TYPE)


def test_the_service_type():
    from zeroconf import service_type_name
    assert REAL_TYPE == "_koikoi._tcp.local."
    for t in (REAL_TYPE, TEST_TYPE):
        assert service_type_name(t) == t                      # zeroconf takes both


@pytest.fixture
def workers():
    made = []

    def keep(w):
        made.append(w)
        return w
    yield keep
    assert close_all(made + D.live_workers(), 10.0)
    assert wait_until(lambda: not worker_threads(), 5.0), worker_threads()


def loopback_only(w) -> None:
    """Every socket zeroconf sends from is bound to 127.0.0.1 (the listening socket
    is bound to port 5353 of every address, to receive; it has joined the group on
    loopback only)."""
    zc = w.zeroconf
    assert zc is not None and w.interfaces == ["127.0.0.1"]
    senders = [t.sock.getsockname() for t in zc.engine.senders]
    assert senders and all(addr[0] == "127.0.0.1" for addr in senders), senders


# ---------------------------------------------------------------- where it may run

def test_discovery_is_off_under_tests_ci_and_headless_unless_asked():
    assert discovery_mode() == "off"                           # this very run: pytest
    assert discovery_mode({}) == "lan"                         # a person's game
    assert discovery_mode({"CI": "true"}) == "off"
    assert discovery_mode({"PYTEST_CURRENT_TEST": "x"}) == "off"
    assert discovery_mode({"SDL_VIDEODRIVER": "dummy"}) == "off"
    assert discovery_mode({"SDL_VIDEODRIVER": "offscreen"}) == "off"
    assert discovery_mode({"SDL_VIDEODRIVER": "x11"}) == "lan"
    assert discovery_mode({"CI": "1", D.ENV: "loopback"}) == "loopback"
    assert discovery_mode({D.ENV: "LAN"}) == "lan"
    assert discovery_mode({D.ENV: "0"}) == "off"
    assert discovery_mode({D.ENV: "everywhere please"}) == "off"    # unknown: off, with a warning
    with pytest.raises(ValueError):
        Browser(mode="wifi")


def test_off_opens_nothing(monkeypatch):
    def refuse():
        raise AssertionError("zeroconf imported while discovery is off")
    monkeypatch.setattr(D, "_import_zeroconf", refuse)
    b = Browser().start()                                      # the mode of this run: off
    a = Announcer(RoomAd("KOI-4821", "Aki", "casual", 8765), lan=True).start()
    assert (b.state, a.state) == ("off", "off") and not b.running and not a.running
    assert b.games() == () and not a.lan
    b.stop(), a.stop()
    assert b.join(0.1) and a.join(0.1) and not worker_threads()


# ---------------------------------------------------------------- what is received

def test_a_good_record_is_read():
    g = parse_found(NAME, 8765, [socket.inet_aton("192.168.1.20"), "127.0.0.1"], {**GOOD, b"extra": b"later"},
                    b"x" * 60)
    assert g == FoundGame(key=NAME, name="Aki", code="KOI-4821", rules="casual", host="192.168.1.20",
                          port=8765, version=PROTOCOL_VERSION)
    assert g.compatible and g.address == "192.168.1.20:8765"
    g2 = parse_found(NAME.upper(), 1, ["169.254.3.4"], {**GOOD, b"v": b"99", b"name": "Ha ru 春".encode()})
    assert g2.key == NAME and g2.name == "Ha ru 春" and g2.version == 99 and not g2.compatible
    assert parse_found(NAME, 65535, ["127.0.0.2"], GOOD, loopback_only=True).host == "127.0.0.2"


@pytest.mark.parametrize("change, why", [
    (dict(name=b"\xff\xfeAki"), "not UTF-8"),
    (dict(name=b"A" * 200), "bytes long"),
    (dict(name=b"x" * 41), "1 to 40"),
    (dict(name=b"   "), "1 to 40"),
    (dict(name=b"Ak\x00i"), "control characters"),
    (dict(name=b"Ak\x1b[2Ji"), "control characters"),
    (dict(name=None), "no value"),
    (dict(name=7), "not bytes"),
    (dict(code=b"KOI-12"), "room code"),
    (dict(code=b"koi-4821"), "as the game writes it"),
    (dict(code=b"4821"), "as the game writes it"),
    (dict(code=b"KOI-4821; DROP"), "room code"),
    (dict(rules=b"poker"), "rules preset"),
    (dict(v=b"one"), "protocol version"),
    (dict(v=b"\xd9\xa1"), "protocol version"),                # an Arabic-Indic digit: not ASCII
    (dict(v=b"12345"), "protocol version"),
])
def test_hostile_txt_entries_are_dropped(change, why):
    props = dict(GOOD)
    for k, v in change.items():
        props[k.encode()] = v
    with pytest.raises(BadRecord, match=why):
        parse_found(NAME, 8765, ["192.168.1.20"], props)


@pytest.mark.parametrize("name, port, addresses, props, text, why", [
    (NAME, 0, ["10.0.0.2"], GOOD, b"", "port"),
    (NAME, 70000, ["10.0.0.2"], GOOD, b"", "port"),
    (NAME, True, ["10.0.0.2"], GOOD, b"", "port"),
    (NAME, "8765", ["10.0.0.2"], GOOD, b"", "port"),
    (NAME, None, ["10.0.0.2"], GOOD, b"", "port"),
    (NAME, 8765, [], GOOD, b"", "no IPv4 address"),
    (NAME, 8765, ["224.0.0.251"], GOOD, b"", "cannot be joined"),
    (NAME, 8765, ["0.0.0.0"], GOOD, b"", "cannot be joined"),
    (NAME, 8765, ["255.255.255.255"], GOOD, b"", "cannot be joined"),
    (NAME, 8765, ["8.8.8.8"], GOOD, b"", "not on a local network"),
    (NAME, 8765, [b"\x01\x02"], GOOD, b"", "not IPv4"),
    (NAME, 8765, [b"\x00" * 15 + b"\x01"], GOOD, b"", "not IPv4"),        # IPv6 ::1
    (NAME, 8765, ["fe80::1"], GOOD, b"", "not IPv4"),
    (NAME, 8765, ["192.168.1.300"], GOOD, b"", "not IPv4"),
    (NAME, 8765, [None, 5], GOOD, b"", "not IPv4"),
    (NAME, 8765, ["10.0.0.2"], GOOD, b"x" * 2000, "too long"),
    (NAME, 8765, ["10.0.0.2"], GOOD, "text", "too long"),
    (NAME, 8765, ["10.0.0.2"], {f"k{i}".encode(): b"1" for i in range(40)}, b"", "too many"),
    (NAME, 8765, ["10.0.0.2"], [(b"v", b"1")], b"", "too many"),
    (NAME, 8765, ["10.0.0.2"], {b"v": b"1"}, b"", "lacks code, name, rules"),
    (NAME, 8765, ["10.0.0.2"], {**GOOD, b"\xff": b"1"}, b"", "TXT key is not UTF-8"),
    ("printer._ipp._tcp.local.", 8765, ["10.0.0.2"], GOOD, b"", "not a koikoi game"),
    ("x" * 300 + "." + TEST_TYPE, 8765, ["10.0.0.2"], GOOD, b"", "too long"),
    (None, 8765, ["10.0.0.2"], GOOD, b"", "missing"),
])
def test_hostile_services_are_dropped(name, port, addresses, props, text, why):
    with pytest.raises(BadRecord, match=why):
        parse_found(name, port, addresses, props, text)


def test_a_loopback_browser_takes_only_loopback_addresses():
    with pytest.raises(BadRecord, match="not on this computer"):
        parse_found(NAME, 8765, ["192.168.1.20"], GOOD, loopback_only=True)


# ---------------------------------------------------------------- the browser's logic, no network

class FakeZeroconf:
    """A zeroconf module with no network: ``records`` maps a service name to what its
    lookup answers (None: no answer; an exception: raised)."""

    class IPVersion:
        V4Only = "v4"

    class InterfaceChoice:
        All = "all"

    def __init__(self, records, *, refuse=None):
        self.records = records
        self.refuse = refuse
        self.opened = []
        self.handlers = []
        self.closed = 0
        self.cancelled = 0
        self.registered, self.unregistered = [], []
        fake = self

        class Zeroconf:
            def __init__(self, interfaces, ip_version):
                if fake.refuse is not None:
                    raise fake.refuse
                fake.opened.append((interfaces, ip_version))

            def close(self):
                fake.closed += 1

            def register_service(self, info, allow_name_change=False):
                fake.registered.append(info)

            def unregister_service(self, info):
                fake.unregistered.append(info)

        class ServiceBrowser:
            def __init__(self, zc, type_, handlers):
                fake.handlers.extend(handlers)

            def cancel(self):
                fake.cancelled += 1

        class ServiceInfo:
            def __init__(self, type_, name, **kw):
                self.name, self.kw = name, kw

            def _fill(self):
                r = fake.records.get(self.name.lower())
                if isinstance(r, Exception):
                    raise r
                if r is None:
                    return False
                self.port, self.addresses, self.properties, self.text = r
                return True

            def request(self, zc, timeout_ms):
                return self._fill()

            def load_from_cache(self, zc):
                return self._fill()

        self.Zeroconf, self.ServiceBrowser, self.ServiceInfo = Zeroconf, ServiceBrowser, ServiceInfo

    def announce(self, name, removed=False):
        for h in self.handlers:
            h(zeroconf=None, service_type=D.SERVICE_TYPE, name=name,
              state_change=SimpleNamespace(name="Removed" if removed else "Added"))


def good(i=0, **kw):
    props = {**GOOD, b"code": f"KOI-{4000 + i}".encode(), b"name": f"Player {i}".encode()}
    props.update({k.encode(): v for k, v in kw.items()})
    return (8000 + i, ["127.0.0.1"], props, b"")


def svc(i):
    return f"koikoi-koi-{4000 + i}.{D.SERVICE_TYPE}"


def test_a_fake_network_floods_and_lies_and_the_browser_keeps_what_is_good(workers):
    records = {svc(i): good(i) for i in range(50)}
    records[svc(60)] = (8060, ["8.8.8.8"], GOOD, b"")                       # a public address
    records[svc(61)] = good(61, name=b"\xc3\x28")                           # not UTF-8
    records[svc(62)] = None                                                 # never answers
    records[svc(63)] = UnicodeDecodeError("utf-8", b"", 0, 1, "zeroconf could not read it")

    class Unreadable:
        def __iter__(self):
            raise ValueError("a record zeroconf half read")
    records[svc(64)] = (8064, Unreadable(), GOOD, b"")
    fake = FakeZeroconf(records)
    b = workers(Browser(mode="loopback", zeroconf_module=fake, recheck_every=0.2).start())
    assert wait_until(lambda: b.state == "searching")
    assert fake.opened == [(["127.0.0.1"], "v4")]
    for i in (60, 61, 62, 63, 64):
        fake.announce(svc(i))
    assert wait_until(lambda: len(b.dropped) >= 5)
    assert b.games() == ()
    assert any("not on this computer" in d for d in b.dropped) and any("not UTF-8" in d for d in b.dropped)
    assert any("no answer" in d for d in b.dropped) and any("lookup failed" in d for d in b.dropped)
    assert any("unreadable" in d for d in b.dropped)
    for i in range(50):
        fake.announce(svc(i))
    for i in range(2000):                          # a flood of names: the queue stays bounded
        fake.announce(f"flood-{i}.{D.SERVICE_TYPE}")
    assert len(b._pending) <= D.MAX_PENDING
    assert wait_until(lambda: len(b.games()) == D.MAX_GAMES)
    assert wait_until(lambda: not b._pending)
    games = b.games()
    assert len(games) == D.MAX_GAMES and all(g.host == "127.0.0.1" for g in games)
    assert [g.name for g in games] == sorted((g.name for g in games), key=str.lower)
    # a game removed, and one whose records expired (a host gone without a goodbye)
    first, second = games[0], games[1]
    fake.announce(first.key, removed=True)
    records[second.key] = None
    assert wait_until(lambda: all(g.key not in (first.key, second.key) for g in b.games()))
    v = b.version
    records[svc(5)] = good(5, name=b"Renamed")                             # an update
    fake.announce(svc(5))
    assert wait_until(lambda: any(g.name == "Renamed" for g in b.games()))
    assert b.version > v
    b.stop()
    assert b.join(LIMIT) and b.state == "stopped"
    assert fake.cancelled == 1 and fake.closed == 1 and b.zeroconf is None


def test_no_zeroconf_or_a_refusing_network_says_so(monkeypatch, workers):
    def missing():
        raise ImportError("No module named 'zeroconf'")
    monkeypatch.setattr(D, "_import_zeroconf", missing)
    b = workers(Browser(mode="lan").start())
    a = workers(Announcer(RoomAd("KOI-4821", "Aki", "casual", 8765), mode="lan", lan=True).start())
    assert b.join(LIMIT) and a.join(LIMIT)
    assert (b.state, b.reason) == ("unavailable", "zeroconf is not installed")
    assert (a.state, a.reason) == ("unavailable", "zeroconf is not installed")
    fake = FakeZeroconf({}, refuse=PermissionError(1, "Operation not permitted"))
    b2 = workers(Browser(mode="lan", zeroconf_module=fake).start())
    assert b2.join(LIMIT) and (b2.state, b2.reason) == ("unavailable", "Operation not permitted")
    fake = FakeZeroconf({})
    b3 = workers(Browser(mode="lan", zeroconf_module=fake).start())
    assert wait_until(lambda: b3.state == "searching")
    assert fake.opened == [("all", "v4")]          # a person's game searches every network


def test_what_an_announcer_announces_and_where(workers):
    ad = RoomAd("KOI-4821", "Ōkami", "nintendo", 8765, ("192.168.1.20", "10.0.0.5"))
    fake = FakeZeroconf({})
    a = workers(Announcer(ad, mode="lan", lan=True, zeroconf_module=fake, lifetime=0.3).start())
    assert a.join(LIMIT) and a.state == "stopped"              # its lifetime ended it
    assert fake.opened == [("all", "v4")] and fake.closed == 1
    info, = fake.registered
    assert fake.unregistered == [info]                          # the goodbye
    assert info.name == "koikoi-koi-4821." + TEST_TYPE and info.kw["port"] == 8765
    assert info.kw["properties"] == {"v": str(PROTOCOL_VERSION), "code": "KOI-4821", "name": "Ōkami",
                                     "rules": "nintendo"}
    assert info.kw["addresses"] == [socket.inet_aton("192.168.1.20"), socket.inet_aton("10.0.0.5")]
    # what it sends is what a browser takes
    g = parse_found(info.name, info.kw["port"], info.kw["addresses"],
                    {k.encode(): v.encode() for k, v in info.kw["properties"].items()})
    assert (g.name, g.code, g.rules, g.host) == ("Ōkami", "KOI-4821", "nintendo", "10.0.0.5")
    # a host that lets only this computer join is announced on loopback, at 127.0.0.1
    fake = FakeZeroconf({})
    a = workers(Announcer(ad, mode="lan", lan=False, zeroconf_module=fake).start())
    assert wait_until(lambda: a.state == "announcing")
    assert fake.opened == [(["127.0.0.1"], "v4")]
    assert fake.registered[0].kw["addresses"] == [socket.inet_aton("127.0.0.1")]
    a.stop()
    assert a.join(LIMIT) and a.state == "stopped" and len(fake.unregistered) == 1


def test_a_browser_stops_by_itself_after_its_lifetime(workers):
    fake = FakeZeroconf({})
    b = workers(Browser(mode="loopback", zeroconf_module=fake, lifetime=0.3).start())
    assert b.join(LIMIT) and b.state == "stopped" and fake.closed == 1


# ---------------------------------------------------------------- zeroconf on loopback

def test_announce_browse_and_goodbye_on_loopback(workers):
    t0 = time.monotonic()
    b = workers(Browser(mode="loopback").start())
    a = workers(Announcer(RoomAd("KOI-4821", "Aki", "koikoi-japan", 8765, ("127.0.0.1", "192.168.1.20")),
                          mode="loopback", lan=True).start())
    assert not a.lan                                         # loopback mode never announces further
    assert wait_until(lambda: a.state == "announcing" and len(b.games()) == 1), (a.state, b.games(), b.dropped)
    loopback_only(a)
    loopback_only(b)
    g = b.games()[0]
    assert (g.name, g.code, g.rules, g.host, g.port, g.compatible) == (
        "Aki", "KOI-4821", "koikoi-japan", "127.0.0.1", 8765, True)
    a.stop()                                                 # the goodbye: gone at once
    assert a.join(LIMIT) and a.state == "stopped"
    assert wait_until(lambda: b.games() == ()), b.games()
    b.stop()
    assert b.join(LIMIT) and b.state == "stopped"
    assert time.monotonic() - t0 < 15


def test_hostile_announcements_on_loopback_are_dropped(workers):
    from zeroconf import IPVersion, ServiceInfo, Zeroconf
    b = workers(Browser(mode="loopback").start())
    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        assert all(t.sock.getsockname()[0] == "127.0.0.1" for t in zc.engine.senders)
        bad = [
            ("bad-utf8", 8765, ["127.0.0.1"], {**GOOD, b"name": b"\xff\xfe"}),
            ("bad-code", 8765, ["127.0.0.1"], {**GOOD, b"code": b"<script>"}),
            ("far-away", 8765, ["192.0.2.7"], GOOD),             # data only: nothing is sent there
            ("no-rules", 8765, ["127.0.0.1"], {k: v for k, v in GOOD.items() if k != b"rules"}),
            ("zero-port", 0, ["127.0.0.1"], GOOD),
        ]
        infos = [ServiceInfo(D.SERVICE_TYPE, f"{n}.{D.SERVICE_TYPE}", port=port, properties=props,
                             server=f"{n}.local.", addresses=[socket.inet_aton(x) for x in addr])
                 for n, port, addr, props in bad]
        infos.append(ServiceInfo(D.SERVICE_TYPE, f"fine.{D.SERVICE_TYPE}", port=9000,
                                 properties={**GOOD, b"code": b"KOI-1111"}, server="fine.local.",
                                 addresses=[socket.inet_aton("127.0.0.1")]))
        for info in infos:
            zc.register_service(info, ttl=60, cooperating_responders=True)
        assert wait_until(lambda: len(b.games()) == 1 and len(b.dropped) >= len(bad)), (b.games(), b.dropped)
        assert b.games()[0].code == "KOI-1111"
        for n, *_rest in bad:
            assert any(d.startswith(n) for d in b.dropped), (n, b.dropped)
    finally:
        zc.unregister_all_services()
        zc.close()
