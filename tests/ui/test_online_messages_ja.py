"""Online error messages are the game's own sentences, never the raw English of the server,
the OS, OpenSSL or zeroconf: a server's refusal is worded by its code, an OS error by its
type and errno, a discovery failure by ``Worker.problem``; the raw text goes to the log.

Two ways of checking: a marking ``_`` (every shown text must be one whole msgid that went
through it, with nothing raw glued on), and Japanese for real, from a catalog this module
installs itself (the game's catalog gets these msgids when they are merged). Networked
tests use a HostedServer on 127.0.0.1, port 0, and bounded waits."""

from __future__ import annotations

import errno
import socket
import ssl
import types

import pytest

from koikoi import i18n
from koikoi.net import discovery as D
from koikoi.net.client import ConnectionLost, ServerError
from koikoi.net.netsession import HostedServer
from koikoi.ui.scenes import online as O
from koikoi.ui.scenes import online_table as OT

from harness import DT, quick, step, wait_real

LIMIT = 20.0

JA = {      # the translations of the msgids the tests read in Japanese
    "There is no room {code} at {address}: check the room code the host's screen shows.":
        "{address}には部屋{code}がありません。相手の画面に出ているルームコードを確認してください。",
    "The match cannot be claimed now: the other player is back, the wait is not over yet, or the match "
    "has ended.": "今は勝ちを申し出られません。相手が戻ったか、待ち時間がまだ終わっていないか、対戦が終わっています。",
    "Local network search unavailable: this computer does not let the game use the local network.":
        "ローカルネットワークの検索は利用できません（このコンピューターではゲームがローカルネットワークを使うことを"
        "許可されていません）。",
    "The match server could not start: the game may not write to its folder {folder}.":
        "対戦サーバーを起動できませんでした。ゲームがフォルダー{folder}に書き込むことを許可されていません。",
}


@pytest.fixture(autouse=True)
def fresh_prefs():
    O.PREFS.update(OT.PREF_DEFAULTS)
    yield


@pytest.fixture
def ja():
    """Japanese, with this module's translations added to the game's catalog."""
    i18n.set_language("ja")
    base = i18n.catalog("ja")
    messages = dict(base.messages)
    messages.update({(None, k): v for k, v in JA.items()})
    i18n._current = i18n.Catalog("ja", messages, base.headers, base.stats, "test")
    yield
    i18n.set_language("en")


@pytest.fixture
def marked(monkeypatch):
    """``_`` in both online modules wraps what it translates in « »: a text shown whole
    through it starts with « and ends with »; the msgids asked for are listed."""
    asked = []

    def mark(text):
        asked.append(text)
        return "«" + text + "»"
    monkeypatch.setattr(OT, "_", mark)
    monkeypatch.setattr(O, "_", mark)
    return asked


def whole(text: str) -> bool:
    return text.startswith("«") and text.endswith("»") and text.count("«") == 1


# ---------------------------------------------------------------- the server's refusals

SERVER_SAYS = {     # code -> what net/server.py sends (English, never to be shown)
    "no_room": "there is no room KOI-0000",
    "room_full": "room KOI-0000 has two players",
    "bad_token": "that token holds no seat in room KOI-0000",
    "too_many_tries": "too many wrong room codes or tokens: wait a minute",
    "server_full": "the server holds all the rooms it can",
    "too_many_rooms": "too many rooms from this address are open: finish or leave one",
    "server_busy": "too many room codes are being tried: wait a minute",
    "cannot_claim": "you may claim the match in 12 s",
    "bad_rules": "unknown preset 'x'",
    "storage": "the server could not save that; nothing changed",
    "internal": "the server failed on that message; nothing changed",
    "busy": "the room is saving the last action: try again",
    "in_room": "this connection is in a room already",
    "not_seated": "only a seated player claims",
    "rate_limited": "too many messages: at most 20 a second",
    "replaced": "this seat was taken back by a new connection",
    "bad_field": "a join message has no field x",
}


@pytest.mark.parametrize("code", sorted(SERVER_SAYS))
def test_each_refusal_code_is_a_whole_sentence_of_its_own(marked, code):
    said = OT._failure_text(ServerError(code, SERVER_SAYS[code]), "127.0.0.1:8765", room="KOI-0000")
    assert whole(said), said
    assert SERVER_SAYS[code] not in said
    assert "The server refused: {reason}." not in marked          # not the generic fallback
    if code in ("no_room", "room_full", "bad_token"):
        assert "KOI-0000" in said                                  # the room, from the game's side


def test_an_unknown_code_falls_back_to_the_generic_sentence_with_the_servers_words(marked):
    said = OT._failure_text(ServerError("new_thing", "something new happened"), "h:1")
    assert marked == ["The server refused: {reason}."]
    assert said == "«The server refused: {reason}.»".format(reason="something new happened")


def test_a_join_to_a_room_that_is_not_there_says_so_in_japanese(app, tmp_path, ja):
    """The audit's case: "サーバーに拒否されました：there is no room KOI-0000。"."""
    srv = HostedServer(tmp_path / "srv", config=quick()).start()          # 127.0.0.1, port 0
    try:
        app.open("online_join", ("127.0.0.1", srv.port, "KOI-0000"), player="Haru", auto=True)
        join = app.top
        assert wait_real(app, lambda: join.match is None and join.error is not None)
        assert join.error == (f"127.0.0.1:{srv.port}には部屋KOI-0000がありません。"
                              "相手の画面に出ているルームコードを確認してください。")
        assert "there is no room" not in join.error
        step(app, 2 * DT)                                          # drawn in Japanese
    finally:
        app.open("title", mode="reset")
        step(app, 3 * DT)
        srv.stop()


def test_a_refused_claim_is_worded_by_its_code(marked, ja, monkeypatch):
    said = OT._claim_failure_text(ServerError("cannot_claim", "you may claim the match in 12 s"))
    assert whole(said) and "12 s" not in said
    monkeypatch.undo()                                             # the real _ , in Japanese
    said = OT._claim_failure_text(ServerError("cannot_claim", "the other player is connected"))
    assert said == JA["The match cannot be claimed now: the other player is back, the wait is not over "
                      "yet, or the match has ended."]
    assert "connected" not in said


def test_other_claim_failures_are_sentences_too(marked):
    for exc in (ServerError("busy", "the room is saving the last action: try again"),
                ConnectionLost("connection lost"), TimeoutError(), RuntimeError("boom")):
        marked.clear()
        said = OT._claim_failure_text(exc)
        raw = getattr(exc, "message", None) or str(exc)
        assert said.startswith("«") and said.endswith("»") and (not raw or raw not in said)
        assert "The match could not be claimed: {reason}" not in marked


# ---------------------------------------------------------------- the OS and the network

def _many(n: int) -> OSError:
    return OSError(f"Multiple exceptions: [Errno {n}] Connect call failed ('::1', 1, 0, 0), "
                   f"[Errno {n}] Connect call failed ('127.0.0.1', 1)")


NETWORK = [      # (exception, a piece of the English sentence meant for it)
    (ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"), "Nobody answers"),
    (_many(errno.ECONNREFUSED), "Nobody answers"),
    (TimeoutError(), "timed out"),
    (OSError(errno.ETIMEDOUT, "Connection timed out"), "timed out"),
    (socket.gaierror(socket.EAI_NONAME, "Name or service not known"), "cannot be found"),
    (OSError(errno.ENETUNREACH, "Network is unreachable"), "cannot reach"),
    (OSError(errno.EHOSTUNREACH, "No route to host"), "cannot reach"),
    (PermissionError(errno.EACCES, "Permission denied"), "firewall"),
    (ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"), "cut off"),
    (OSError(errno.EIO, "Input/output error"), "network connection"),
    (ConnectionLost("malformed server message"), "closed before the server answered"),
    (ConnectionError("the server speaks protocol 9, this client 1"), "another version"),
    (RuntimeError("weird"), "see the log"),
]


@pytest.mark.parametrize("exc, meant", NETWORK, ids=[type(e).__name__ + str(i) for i, (e, _m) in enumerate(NETWORK)])
def test_network_errors_are_worded_by_type_and_errno(marked, exc, meant):
    said = OT._failure_text(exc, "192.168.1.20:8765")
    assert whole(said), said
    assert meant in said
    raw = getattr(exc, "strerror", None) or str(exc)
    assert not raw or raw not in said                              # the OS's English is not shown
    assert "The connection failed: {reason}." not in marked


def _cert_error(code: int, message: str) -> ssl.SSLCertVerificationError:
    e = ssl.SSLCertVerificationError(1, f"[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: {message}")
    e.verify_code, e.verify_message = code, message
    return e


@pytest.mark.parametrize("code, message, meant", [
    (18, "self-signed certificate", "self-signed"),
    (20, "unable to get local issuer certificate", "authority"),
    (10, "certificate has expired", "expired"),
    (62, "Hostname mismatch, certificate is not valid for '127.0.0.1'.", "another name"),
    (99, "something else", "does not trust."),
])
def test_certificate_failures_are_worded_by_verify_code(marked, code, message, meant):
    said = OT._failure_text(_cert_error(code, message), "wss://play.example.org:443", server=True)
    assert whole(said) and meant in said and "certificate" in said and "does not trust" in said
    assert message not in said and "CERTIFICATE_VERIFY_FAILED" not in said


def test_a_tls_failure_or_a_plain_server_on_wss_asks_whether_it_speaks_wss(marked):
    for exc in (ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)"),
                ConnectionResetError(errno.ECONNRESET, "Connection reset by peer")):
        said = OT._failure_text(exc, "wss://127.0.0.1:8765")
        assert whole(said) and "Does the server speak wss://?" in said
        assert "WRONG_VERSION" not in said and "reset by peer" not in said


def test_websocket_handshake_failures_say_it_is_not_a_match_server(marked):
    from websockets.exceptions import InvalidMessage, InvalidURI
    said = OT._failure_text(InvalidMessage("did not receive a valid HTTP response"), "127.0.0.1:80")
    assert whole(said) and "not a Koi-Koi match server" in said and "HTTP response" not in said
    said = OT._failure_text(InvalidURI("ws://x:y", "isn't a valid URI"), "x:y")
    assert whole(said) and "cannot be right" in said and "valid URI" not in said


def test_nobody_listening_is_still_nobody_answers(app):
    """A real refused connection on 127.0.0.1 (the English the other tests assert)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app.open("online_join", ("127.0.0.1", port, "KOI-1234"), player="Haru", auto=True)
    join = app.top
    assert wait_real(app, lambda: join.match is None and join.error is not None)
    assert join.error.startswith("Nobody answers at ") and "Errno" not in join.error
    assert not app.tickers


# ---------------------------------------------------------------- the match server in the game

@pytest.mark.parametrize("exc, port, meant", [
    (OSError(errno.EADDRINUSE, "Address already in use"), 8765, "port 8765 is taken"),
    (PermissionError(errno.EACCES, "Permission denied"), 80, "use port 80"),
    (PermissionError(errno.EACCES, "Permission denied"), 0, "take connections"),
    (PermissionError(errno.EACCES, "Permission denied", "/data/server"), 0, "folder /data/server"),
    (OSError(errno.ENOSPC, "No space left on device"), 0, "disk is full"),
    (TimeoutError(), 0, "in time"),
    (OSError(errno.EIO, "Input/output error"), 0, "see the log"),
])
def test_the_server_that_cannot_start_says_why_by_errno(marked, exc, port, meant):
    said = O.server_start_text(exc, port)
    assert whole(said) and meant in said, said
    assert (exc.strerror or "Errno") not in said


def test_hosting_when_the_server_cannot_start_says_so_in_japanese(app, ja, monkeypatch):
    class Refusing:
        def __init__(self, *a, **kw):
            pass

        def start(self):
            raise PermissionError(errno.EACCES, "Permission denied", "/data/server")
    monkeypatch.setattr(O, "HostedServer", Refusing)
    app.open("online_host")
    host = app.top
    host.start()
    assert host.match is None
    assert host.error == "対戦サーバーを起動できませんでした。ゲームがフォルダー/data/serverに書き込むことを許可されていません。"
    assert "Permission denied" not in host.error
    step(app, 2 * DT)


# ---------------------------------------------------------------- the local network search

@pytest.mark.parametrize("exc, problem", [
    (ImportError("No module named 'zeroconf'"), "not_installed"),
    (PermissionError(errno.EPERM, "Operation not permitted"), "denied"),
    (OSError(errno.EACCES, "Permission denied"), "denied"),
    (OSError(errno.EADDRINUSE, "Address already in use"), "in_use"),
    (OSError(errno.ENETUNREACH, "Network is unreachable"), "no_network"),
    (OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address"), "no_network"),
    (OSError(errno.EIO, "Input/output error"), "failed"),
    (RuntimeError("zeroconf's own trouble"), "failed"),
])
def test_discovery_names_its_problem_with_a_code(exc, problem):
    assert D._problem(exc) == problem and problem in D.PROBLEMS


def test_every_discovery_problem_is_a_sentence_without_the_raw_reason(marked):
    seen = set()
    for problem in (*D.PROBLEMS, None):
        w = types.SimpleNamespace(problem=problem, reason="Operation not permitted")
        said = O.unavailable_text(w)
        assert whole(said) and "Operation not permitted" not in said
        assert said.startswith("«Local network search unavailable: ")
        seen.add(said)
    assert len(seen) == len(D.PROBLEMS)          # one sentence each; None is the generic one
    w = types.SimpleNamespace(reason=D.NOT_INSTALLED)                 # a worker of before
    assert O.unavailable_text(w) == "«Local network search unavailable: zeroconf is not installed.»"


def test_a_refusing_network_is_said_in_japanese(ja):
    zc = types.SimpleNamespace(IPVersion=types.SimpleNamespace(V4Only="v4"),
                               InterfaceChoice=types.SimpleNamespace(All="all"))

    def refuse(interfaces, ip_version):
        raise PermissionError(errno.EPERM, "Operation not permitted")
    zc.Zeroconf = refuse
    b = D.Browser(mode="lan", zeroconf_module=zc).start()
    try:
        assert b.join(LIMIT) and b.state == "unavailable"
    finally:
        D.close_all([b], LIMIT)
    assert (b.problem, b.reason) == ("denied", "Operation not permitted")      # the raw text: the log's
    said = O.unavailable_text(b)
    assert said == JA["Local network search unavailable: this computer does not let the game use the "
                      "local network."]
    assert "Operation not permitted" not in said
