"""Addresses of match servers elsewhere: ws:// and wss:// kept through parsing, the URL
built from them, the seats stored under them; and a real wss:// connection through a
TLS-terminating proxy on 127.0.0.1 (a self-signed certificate made for the test with the
openssl command: trusted through SSL_CERT_FILE, refused without it). Nothing leaves
this machine."""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
import threading

import pytest

from koikoi.net.client import Connection, ThreadedClient
from koikoi.net.netsession import (AddressError, HostedServer, address_text, parse_address, parse_join,
                                   url_of)
from koikoi.net.seats import Seat, SeatStore, normal_address

from net_helpers import config, run


# ---------------------------------------------------------------- parsing keeps the scheme

def test_parse_address_keeps_ws_and_wss():
    plain, ws, wss = parse_address("play.example.org:8765"), parse_address("ws://play.example.org:8765"), \
        parse_address(" WSS://Play.Example.org:443/ ")
    assert plain == ws == ("play.example.org", 8765) and not plain.secure and not ws.secure
    assert wss == ("Play.Example.org", 443) and wss.secure
    host, port = wss                                   # still unpacks as (host, port)
    assert (host, port) == ("Play.Example.org", 443)
    assert plain.url == "ws://play.example.org:8765" and wss.url == "wss://Play.Example.org:443"
    assert wss.text == "wss://Play.Example.org:443" and ws.text == "play.example.org:8765"
    v6 = parse_address("wss://[::1]:9000")
    assert v6 == ("::1", 9000) and v6.secure and v6.url == "wss://[::1]:9000" and v6.text == "wss://[::1]:9000"
    for bad in ("http://host:1", "wss://host", "wss:/host:1", "wss://host:0", "wss://:1", "ws://a b:1"):
        with pytest.raises(AddressError):
            parse_address(bad)


def test_parse_join_keeps_the_scheme_and_url_of_builds_wss():
    j = parse_join("wss://play.example.org:443/koi 4821")
    assert j == ("play.example.org", 443, "KOI-4821") and j.secure
    assert j.address.url == "wss://play.example.org:443"
    p = parse_join("ws://127.0.0.1:8765/KOI-4821")
    assert p == ("127.0.0.1", 8765, "KOI-4821") and not p.secure
    for bad in ("wss://host:1", "wss://host:1//KOI-4821", "wss:/KOI-4821"):
        with pytest.raises(AddressError):
            parse_join(bad)
    assert url_of("h", 1) == "ws://h:1" and url_of("h", 1, secure=True) == "wss://h:1"
    assert url_of("::1", 2, True) == "wss://[::1]:2"
    assert address_text("h", 1) == "h:1" and address_text("h", 1, secure=True) == "wss://h:1"


def test_command_line_join_and_server_keep_wss():
    from koikoi.__main__ import parse_args
    args = parse_args(["--join", "wss://play.example.org:443/KOI-1234"])
    assert args.join == ("play.example.org", 443, "KOI-1234") and args.join.secure
    assert parse_args(["--host", "--server", "wss://Play.example.org:443"]).server == "wss://Play.example.org:443"
    assert parse_args(["--host", "--server", "ws://10.0.0.2:8765"]).server == "10.0.0.2:8765"
    assert parse_args(["--host"]).server is None


def test_seats_on_a_wss_server_are_kept_under_that_address(tmp_path):
    assert normal_address("WSS://Play.Example.org:443") == "wss://play.example.org:443"
    assert normal_address("ws://Play.Example.org:443") == "play.example.org:443"
    store = SeatStore(tmp_path)
    remote = Seat(room="KOI-4821", address="wss://play.example.org:443", seat=0, token="t" * 20, name="Aki",
                  rules="casual")
    assert store.save(remote)
    assert store.hosted() == []                        # a room created elsewhere is not the game's own
    found = store.find("wss://PLAY.example.org:443", "KOI-4821")
    assert found is not None and found.seat == 0 and found.address == "wss://play.example.org:443"
    moved = store.find("wss://play.example.org:8443", "KOI-4821")      # the same host on another port
    assert moved is not None and moved.token == remote.token
    assert store.find("other.example.org:443", "KOI-4821") is None


# ---------------------------------------------------------------- a real wss:// connection on 127.0.0.1

def _certificate(folder):
    """A self-signed certificate for 127.0.0.1 (openssl), or skip."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=30)
    return cert, key


class TLSProxy:
    """What a TLS-terminating proxy does in front of ``koikoi serve``: TLS on 127.0.0.1,
    the bytes passed on to the plain server (on a thread and loop of its own)."""

    def __init__(self, cert, key, target_port: int):
        self.ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.ctx.load_cert_chain(cert, key)
        self.target = target_port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server = None
        self.port = 0

    async def _pipe(self, reader, writer):
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
        except (OSError, ssl.SSLError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _client(self, reader, writer):
        try:
            r2, w2 = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, w2), self._pipe(r2, writer))

    def start(self) -> "TLSProxy":
        self.thread.start()

        async def go():
            self.server = await asyncio.start_server(self._client, "127.0.0.1", 0, ssl=self.ctx)
            return self.server.sockets[0].getsockname()[1]
        self.port = asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)
        return self

    def stop(self) -> None:
        async def go():
            self.server.close()
            for t in [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
                t.cancel()
        asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def tls(tmp_path):
    """(HostedServer, TLSProxy, cert path): a plain match server behind TLS on 127.0.0.1."""
    cert, key = _certificate(tmp_path)
    hosted = HostedServer(tmp_path / "server", config=config()).start()
    proxy = TLSProxy(cert, key, hosted.port).start()
    yield hosted, proxy, cert
    proxy.stop()
    hosted.stop()


def test_a_wss_address_connects_with_tls_and_checks_the_certificate(tls, monkeypatch):
    hosted, proxy, cert = tls
    url = parse_address(f"wss://127.0.0.1:{proxy.port}").url
    assert url.startswith("wss://")

    # the default checks refuse a certificate nobody vouched for
    from koikoi.ui.scenes.online_table import _failure_text

    async def untrusted():
        with pytest.raises(ssl.SSLCertVerificationError) as e:
            await Connection.open(url, timeout=5.0)
        return e.value
    exc = run(untrusted(), 30)
    said = _failure_text(exc, f"wss://127.0.0.1:{proxy.port}", server=True)
    assert "certificate" in said and "does not trust" in said

    # trusted (SSL_CERT_FILE, read by the default checks): a room is created over TLS and joined
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    host, guest = ThreadedClient(url), ThreadedClient(parse_address(f"ws://127.0.0.1:{hosted.port}").url)
    try:
        host.connect().result(15)
        code = host.create_room({"preset": "casual"}, months=1, name="Aki").result(10)["room"]
        guest.connect().result(10)
        guest.join(code, "Haru").result(10)
        assert guest.state.names == ("Aki", "Haru")
        assert hosted.call(lambda: hosted.server.rooms[code].status) == "playing"
    finally:
        host.close()
        guest.close()
