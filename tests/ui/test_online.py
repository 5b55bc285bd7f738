"""Online play in the game: the Host and Join screens, the table on a NetSession, and the
connection's trouble over it. Every server listens on 127.0.0.1 port 0; the other player
is a raw ThreadedClient in this process; every loop is bounded in frames and seconds."""

from __future__ import annotations

import random
import time

import pygame
import pytest

from koikoi.engine import RULESETS, ChooseMatch, KoiKoi, Play, action_of, apply, legal_actions, new_match, public_event, view
from koikoi.engine.table import fold, fold_all, initial
from koikoi.net.client import ThreadedClient
from koikoi.net.netsession import AddressError, HostedServer, parse_address, parse_code, parse_join
from koikoi.ui.scenes import online as O
from koikoi.ui.scenes import online_table as OT
from koikoi.ui.scenes.oyagime import OyagimeScene
from koikoi.ui.scenes.prompt import KoiKoiPromptScene
from koikoi.ui.scenes.results import RoundResultsScene
from koikoi.ui.scenes.round import RoundScene

from harness import DT, button, click, empty_field_point, key, pill, post, quick, step, wait_real

LIMIT = 20.0        # seconds any one wait may take


@pytest.fixture(autouse=True)
def fresh_prefs():
    O.PREFS.update(OT.PREF_DEFAULTS)
    yield


@pytest.fixture
def server(tmp_path):
    """A match server of the test's own on 127.0.0.1 (claims open after half a second)."""
    s = HostedServer(tmp_path / "server", config=quick(claim_after=0.5)).start()
    yield s
    s.stop()


@pytest.fixture
def clients():
    made = []

    def make(url, **kw):
        c = ThreadedClient(url, **kw)
        made.append(c)
        return c
    yield make
    for c in made:
        c.close()


def matches(app):
    out = []
    for s in app.scenes:
        m = getattr(s, "match", None)
        if m is not None and m not in out:
            out.append(m)
    return out


def finish(app):
    """Back to the title: every online match leaves and closes by itself."""
    ms = matches(app)
    app.open("title", mode="reset")
    step(app, 3 * DT)
    for m in ms:
        assert m.stage == "closed"
        assert m.join_closed(15.0)
    assert not app.tickers


def type_into(app, field, text):
    click(app, field)
    field.buffer, field.caret = "", 0
    post(pygame.TEXTINPUT, text=text)
    app.step(DT)
    key(app, pygame.K_RETURN)


# ---------------------------------------------------------------- parsing

def test_join_addresses_and_codes_are_parsed_or_refused():
    assert parse_join("127.0.0.1:8765/KOI-4821") == ("127.0.0.1", 8765, "KOI-4821")
    assert parse_join("ws://example.lan:9000/koi 12345") == ("example.lan", 9000, "KOI-12345")
    assert parse_join("[::1]:8765/4821") == ("::1", 8765, "KOI-4821")
    assert parse_address(" host:1 ") == ("host", 1)
    assert parse_code("koi4821") == "KOI-4821"
    for bad in ("", "127.0.0.1", "127.0.0.1:8765", "127.0.0.1:0/KOI-4821", "127.0.0.1:70000/KOI-4821",
                "127.0.0.1:8765/KOI-12", "127.0.0.1:8765/ABC-1234", "a b:1/KOI-1234", "..:1/KOI-1234"):
        with pytest.raises(AddressError):
            parse_join(bad)
    from koikoi.__main__ import parse_args
    args = parse_args(["--join", "127.0.0.1:8765/KOI-1234", "--name", "Haru"])
    assert args.join == ("127.0.0.1", 8765, "KOI-1234") and args.name == "Haru" and not args.host
    assert parse_args(["--host"]).host
    for bad in (["--join", "nowhere"], ["--host", "--join", "127.0.0.1:1/KOI-1234"], ["--name", ""]):
        with pytest.raises(SystemExit) as e:
            parse_args(bad)
        assert e.value.code == 2


def test_the_view_built_from_the_public_table_is_the_engines_view():
    n = 0
    for seed, name in ((3, "casual"), (4, "nintendo"), (5, "koikoi-japan")):
        st = new_match(RULESETS[name], seed=seed)
        rng = random.Random(seed)
        tabs, k = [initial(0), initial(1)], 0
        for _ in range(400):
            for e in st.events[k:]:
                tabs = [fold(tabs[s], public_event(e, s)) for s in (0, 1)]
            k = len(st.events)
            for s in (0, 1):
                assert tabs[s].view() == view(st, s)
                n += 1
            if st.is_over:
                break
            st = apply(st, rng.choice(legal_actions(st)))
    assert n > 100


# ---------------------------------------------------------------- playing through the screens

def other_moves(client, rng) -> bool:
    """The raw client plays a random legal action if it is to move; True if it did."""
    st = client.state
    if st.legal and st.table is not None and not st.table.is_over:
        client.act(rng.choice(st.legal)).result(10)
        return True
    return False


def local_move(app) -> bool:
    """The player at the App does what its screen asks, through the mouse; True if it did."""
    top = app.top
    if isinstance(top, KoiKoiPromptScene):       # play on where the rules allow: longer rounds
        click(app, top.koikoi_button if KoiKoi() in top.session.legal() else top.stop_button)
        return True
    if isinstance(top, RoundResultsScene):
        click(app, top.ok)
        return True
    if isinstance(top, OyagimeScene):
        if top.decided is not None and top.go.visible:
            click(app, top.go)
            return True
        if top.human_can_pick():
            click(app, top.rects[top._own(top.session.seat)[0]])
            return True
        return False
    if isinstance(top, RoundScene) and top.my_turn():
        table_move(app, top)
        return True
    return False


def table_move(app, scene) -> None:
    """The first legal action, played with the mouse on the table as it is laid out after
    each click (a card with two matches spreads them apart)."""
    a = scene.session.legal()[0]
    if isinstance(a, Play):
        click(app, scene.lay.hand[a.card].center)
        assert scene.selected == a.card
        if a.target is not None:
            click(app, scene.lay.field[a.target].center)
        else:
            click(app, empty_field_point(scene))
    else:
        assert isinstance(a, ChooseMatch)
        click(app, scene.lay.field[a.target].center)
    assert scene.session.pending or scene.session.sent[-1] == a, (a, scene.session.sent[-1:])


def play(app, client, rng, *, local_actions: int, limit_s: float = 60.0) -> int:
    """Both sides play until the App's player has acted ``local_actions`` times (or the
    match ends); bounded in frames and seconds."""
    done, t0 = 0, time.monotonic()
    for _ in range(20000):
        if done >= local_actions or time.monotonic() - t0 > limit_s:
            break
        other_moves(client, rng)
        session = app.top.session if hasattr(app.top, "session") else None
        if session is not None and session.is_over:
            break
        top = app.top
        if local_move(app):
            # only moves on the table count: the oya-gime's picks and its Continue may be
            # clicked again while the server's answer is on its way
            if isinstance(top, RoundScene) and not isinstance(top, KoiKoiPromptScene):
                done += 1
        else:
            app.step(DT)
            time.sleep(0.001)
    return done


def server_events(hosted, code):
    return hosted.call(lambda: hosted.server.rooms[code].events)


def settle(app, client, scene, hosted, limit=LIMIT) -> bool:
    """Both sides have every event the server logged, and the table has shown them all
    (at rest, or held under its own prompt or round results)."""
    def ok():
        s = scene.session
        n = len(server_events(hosted, s.room))
        shown = (scene.shown == n and not scene.tl.busy) or scene.overlay is not None
        return not s.pending and len(s.events) == len(client.state.events) == n and shown
    return wait_real(app, ok, limit)


def test_host_a_match_through_the_screens_and_play_it(app, clients):
    t0 = time.monotonic()
    app.open("title")
    step(app, 2 * DT)
    click(app, button(app.top, "Play online"))
    assert isinstance(app.top, O.OnlineScene)
    click(app, button(app.top, "Host a match"))
    host = app.top
    assert isinstance(host, O.HostScene)
    type_into(app, host.name_field, "Aki")
    click(app, button(host, "Host the match"))
    assert wait_real(app, lambda: host.match is not None and host.match.code is not None, LIMIT)
    m = host.match
    code, port = m.code, m.hosted.port
    assert m.hosted.host == "127.0.0.1" and m.hosted.addresses() == [f"127.0.0.1:{port}"]
    assert button(host, "Cancel") and app.top is host          # "Waiting for a player to join ..."
    guest = clients(f"ws://127.0.0.1:{port}")
    guest.connect().result(10)
    guest.join(code, "Haru").result(10)
    assert guest.state.names == ("Aki", "Haru")
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    assert app.top.session.seats[1].name == "Haru" and not app.top.session.is_hotseat
    rng = random.Random(7)
    done = play(app, guest, rng, local_actions=14)
    assert done >= 14
    table = app.top
    assert isinstance(table, O.OnlineRoundScene)
    assert settle(app, guest, table, m.hosted)
    events = server_events(m.hosted, code)
    assert table.shows_the_fold()
    assert table.table == fold_all([public_event(e, 0) for e in events[:table.shown]], 0)
    assert guest.state.table == fold_all([public_event(e, 1) for e in events], 1)
    mine = [action_of(e) for e in events if action_of(e) is not None and getattr(e, "seat", None) == 0]
    assert mine == table.session.sent                  # every click went to the server, in order
    assert not table.session.refused
    finish(app)
    assert time.monotonic() - t0 < 90


def test_join_through_the_screen_drop_and_reconnect(app, server, clients):
    host = clients(server.url)
    host.connect().result(10)
    code = host.create_room({"preset": "casual"}, months=3, name="Aki").result(10)["room"]
    app.open("online")
    click(app, button(app.top, "Join a match"))
    join = app.top
    assert isinstance(join, O.JoinScene)
    type_into(app, join.address_field, f"127.0.0.1:{server.port}")
    type_into(app, join.code_field, code.lower().replace("-", " "))
    type_into(app, join.name_field, "Haru")
    click(app, button(join, "Join"))
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    assert host.state.names == ("Aki", "Haru")
    rng = random.Random(3)
    assert play(app, host, rng, local_actions=4) >= 4
    table = app.top
    assert isinstance(table, O.OnlineRoundScene)
    match = table.match
    # the App's connection dies under it: "Reconnecting…", then the same table again
    server.call(lambda: server.server.rooms[code].seats[1].client.abort())
    assert wait_real(app, lambda: isinstance(app.top, O.LinkScene) and app.top.mode == "reconnecting", LIMIT)
    assert app.top.texts()[0] == "Reconnecting…"
    assert button(app.top, "Leave the match")
    assert wait_real(app, lambda: match.session.link == "connected" and not isinstance(app.top, O.LinkScene),
                    LIMIT)
    assert app.top is table
    assert play(app, host, rng, local_actions=3) >= 1
    assert settle(app, host, table, server)
    events = server_events(server, code)
    assert table.shows_the_fold()
    assert table.table == fold_all([public_event(e, 1) for e in events[:table.shown]], 1)
    assert host.state.table == fold_all([public_event(e, 0) for e in events], 0)
    finish(app)


def test_waiting_for_the_other_player_then_claiming_the_match(app, server, clients):
    host = clients(server.url, auto_reconnect=False)
    host.connect().result(10)
    code = host.create_room({"preset": "casual"}, months=1, name="Aki").result(10)["room"]
    app.open("online_join", ("127.0.0.1", server.port, code), player="Haru", auto=True)
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    match = app.top.match
    server.call(lambda: server.server.rooms[code].seats[0].client.abort())
    assert wait_real(app, lambda: isinstance(app.top, O.LinkScene) and app.top.mode == "waiting", LIMIT)
    link = app.top
    title, _text = link.texts()
    assert title.startswith("Waiting for Aki (0:")
    click(app, button(link, "Keep waiting"))
    assert link.strip and app.top is link               # a strip: the table plays on under it
    # once the server allows it (claim_after 0.5 s) the question comes back with the claim
    assert wait_real(app, lambda: not link.strip and any(
        getattr(w, "label", None) == "Claim the match" for w in link.widgets), LIMIT)
    assert button(link, "Keep waiting")
    click(app, button(link, "Claim the match"))
    assert wait_real(app, lambda: isinstance(app.top, O.LinkScene) and app.top.mode == "forfeit", LIMIT)
    assert app.top.texts()[0] == "You win: Aki forfeits"
    click(app, button(app.top, "See the results"))
    res = app.top
    assert isinstance(res, O.OnlineResultsScene) and res.conceded == 0
    assert all(c.key != "replay" for c in res.table.columns)
    assert match.session.over["reason"] == "forfeit"
    finish(app)


def test_the_server_gone(app, tmp_path, clients, monkeypatch):
    monkeypatch.setattr(OT, "RECONNECT_FOR", 1.0)   # read by OnlineMatch, at the table
    srv = HostedServer(tmp_path / "gone", config=quick()).start()
    host = clients(srv.url, auto_reconnect=False)
    host.connect().result(10)
    code = host.create_room({"preset": "casual"}, months=1, name="Aki").result(10)["room"]
    app.open("online_join", ("127.0.0.1", srv.port, code), player="Haru", auto=True)
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    srv.stop()
    assert wait_real(app, lambda: isinstance(app.top, O.LinkScene) and app.top.mode == "lost", LIMIT)
    assert app.top.texts()[0] == "The server is gone"
    ms = matches(app)
    click(app, button(app.top, "Title screen"))
    assert type(app.top).__name__ == "TitleScene"
    assert all(m.join_closed(15.0) for m in ms) and not app.tickers


def test_the_join_screen_refuses_a_malformed_address_or_code(app):
    app.open("online_join")
    join = app.top
    type_into(app, join.address_field, "not an address")
    type_into(app, join.code_field, "KOI-4821")
    click(app, button(join, "Join"))
    assert join.match is None and "address" in join.error
    type_into(app, join.address_field, "127.0.0.1:8765")
    type_into(app, join.code_field, "KOI-12")
    click(app, button(join, "Join"))
    assert join.match is None and "room code" in join.error
    assert not app.tickers
    step(app, 2 * DT)          # the message is drawn


def test_join_with_nobody_there_says_so(app):
    import socket
    with socket.socket() as s:            # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app.open("online_join", ("127.0.0.1", port, "KOI-1234"), player="Haru", auto=True)
    join = app.top
    assert wait_real(app, lambda: join.match is None and join.error is not None, LIMIT)
    assert "Nobody answers" in join.error
    assert not app.tickers


def test_the_join_screen_remembers_the_last_address_code_and_name(app, monkeypatch):
    """Typed once, offered again in the next run (the "online" setting)."""
    monkeypatch.setattr(OT, "PREFS", {"name": None, "address": "", "code": "", "lan": False})
    monkeypatch.setattr(O, "PREFS", OT.PREFS)
    app.settings["online"] = {"name": "Haru", "address": "10.0.0.7:9000", "code": "KOI-1234", "lan": False}
    scene = O.JoinScene(app)
    assert (scene.address, scene.code_text, scene.typed_name()) == ("10.0.0.7:9000", "KOI-1234", "Haru")
    OT.PREFS.update(address="127.0.0.1:1", code="KOI-9999", name="Aki")
    OT.save_prefs(app)
    saved, _problem = app.storage.load_settings()
    kept = {k: saved["online"][k] for k in ("name", "address", "code", "lan")}
    assert kept == {"name": "Aki", "address": "127.0.0.1:1", "code": "KOI-9999", "lan": False}


def test_the_name_given_on_the_command_line_beats_the_remembered_one(app, monkeypatch):
    """koikoi --host --name Aki: the remembered fields are read first, then --name wins
    (it used to be read over by the remembered name, or "Player 1" when there was none)."""
    from koikoi.__main__ import open_online, parse_args
    monkeypatch.setattr(OT, "PREFS", {"name": None, "address": "", "code": "", "lan": False})
    monkeypatch.setattr(O, "PREFS", OT.PREFS)
    app.settings["online"] = {"name": "Haru", "address": "", "code": "", "lan": False}
    open_online(app, parse_args(["--host", "--name", "Aki"]))
    assert isinstance(app.top, O.HostScene) and app.top.typed_name() == "Aki"


def test_the_name_given_alone_is_the_quick_match_name(app, monkeypatch):
    """koikoi --name Aki, then Play online -> Quick match: the name field says Aki (--name
    used to count only with --host or --join, so Quick match offered "Player 1")."""
    from koikoi.__main__ import open_online, parse_args
    from koikoi.ui.scenes.quickmatch import QuickMatchScene
    monkeypatch.setattr(OT, "PREFS", {"name": None, "address": "", "code": "", "lan": False})
    monkeypatch.setattr(O, "PREFS", OT.PREFS)
    open_online(app, parse_args(["--name", "Aki"]))
    app.open("quickmatch")
    assert isinstance(app.top, QuickMatchScene) and app.top.typed_name() == "Aki"


# ---------------------------------------------------------------- games on the local network
# zeroconf bound to the loopback interface only (KOIKOI_DISCOVERY=loopback: every socket it
# sends from is bound to 127.0.0.1); off unless a test turns it on.

from koikoi.net import discovery as D  # noqa: E402


def discovery_threads():
    import threading
    return [t.name for t in threading.enumerate()
            if t.name.startswith(("koikoi-announce", "koikoi-browse")) or "zeroconf" in t.name.lower()]


def no_discovery_left():
    deadline = time.monotonic() + LIMIT
    while discovery_threads() and time.monotonic() < deadline:
        time.sleep(0.02)
    return not discovery_threads()


@pytest.fixture
def loopback(monkeypatch):
    """Discovery on loopback, under a service type of this test process's own (another test
    run on this machine at the same time shares the loopback multicast group)."""
    import os
    monkeypatch.setenv(D.ENV, "loopback")
    monkeypatch.setattr(D, "SERVICE_TYPE", f"_koikoi-u{os.getpid() % 1000000:06d}._tcp.local.")
    made = []
    yield made.append                       # workers the test made itself, stopped after it
    assert D.close_all(made + D.live_workers(), LIMIT)   # and any a failed test left running
    assert no_discovery_left(), discovery_threads()


def test_the_host_announces_while_it_waits_and_stops_when_the_match_starts(app, clients, loopback):
    app.open("online")
    click(app, button(app.top, "Host a match"))
    host = app.top
    type_into(app, host.name_field, "Aki")
    click(app, button(host, "Host the match"))
    assert wait_real(app, lambda: host.announcer is not None and host.announcer.state == "announcing")
    announcer, m = host.announcer, host.match
    assert host.announce_text() == "Announced on this computer: it shows in the Join list of a game here."
    assert announcer.interfaces == ["127.0.0.1"] and not announcer.lan
    assert all(t.sock.getsockname()[0] == "127.0.0.1" for t in announcer.zeroconf.engine.senders)
    step(app, 2 * DT)                                   # drawn with the line under the address
    browser = D.Browser(mode="loopback").start()
    loopback(browser)
    assert wait_real(app, lambda: len(browser.games()) == 1)
    g = browser.games()[0]
    assert (g.name, g.code, g.rules, g.host, g.port) == ("Aki", m.code, host.rules_name, "127.0.0.1",
                                                         m.hosted.port)
    guest = clients(f"ws://{g.host}:{g.port}")           # joins with what was found
    guest.connect().result(10)
    guest.join(g.code, "Haru").result(10)
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    assert host.announcer is None                        # the match started: no longer announced
    assert announcer.join(LIMIT) and announcer.state == "stopped"
    assert wait_real(app, lambda: browser.games() == ())   # its goodbye reached the browser
    finish(app)


def test_the_host_stops_announcing_when_it_cancels(app, loopback):
    app.open("online_host")
    host = app.top
    host.start()
    assert wait_real(app, lambda: host.announcer is not None and host.announcer.state == "announcing")
    announcer = host.announcer
    click(app, button(host, "Cancel"))
    assert host.announcer is None and announcer.join(LIMIT) and announcer.state == "stopped"
    app.pop()
    assert no_discovery_left()


def test_join_lists_the_games_found_live_and_a_click_joins_one(app, server, clients, loopback):
    owner = clients(server.url)
    owner.connect().result(10)
    code = owner.create_room({"preset": "nintendo"}, months=3, name="Aki").result(10)["room"]
    loopback(D.Announcer(D.RoomAd(code, "Aki", "nintendo", server.port), mode="loopback").start())
    other = D.Announcer(D.RoomAd("KOI-9999", "Fuyu", "casual", 9), mode="loopback").start()
    loopback(other)
    app.open("title")
    click(app, button(app.top, "Play online"))
    click(app, button(app.top, "Join a match"))
    join = app.top
    assert isinstance(join, O.JoinScene) and join.browser.state in ("starting", "searching")
    assert join.search_text()[0] in ("Searching for games on your local network…",)
    assert wait_real(app, lambda: len(join.game_buttons) == 2), join.browser.dropped
    labels = [b.label for b in join.game_buttons]
    assert labels == [f"Aki  ·  {code}", "Fuyu  ·  KOI-9999"]          # sorted by name
    assert join.game_buttons[0].sublabel == f"Nintendo  ·  127.0.0.1:{server.port}"
    assert join.search_text()[0] == "Click a game to join it."
    other.stop()                                                       # a host leaves: its row goes
    assert wait_real(app, lambda: [b.label for b in join.game_buttons] == [f"Aki  ·  {code}"])
    browser = join.browser
    type_into(app, join.name_field, "Haru")
    click(app, button(join, f"Aki  ·  {code}"))
    assert join.address_field.text == f"127.0.0.1:{server.port}" and join.code_field.text == code
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    assert owner.state.names == ("Aki", "Haru")
    assert browser.join(LIMIT) and browser.state == "stopped"         # the screen left: no more search
    finish(app)


def test_discovery_is_off_in_tests_unless_one_turns_it_on(app, monkeypatch):
    monkeypatch.delenv(D.ENV, raising=False)

    def refuse():
        raise AssertionError("zeroconf imported while discovery is off")
    monkeypatch.setattr(D, "_import_zeroconf", refuse)
    app.open("online_join")
    join = app.top
    step(app, 3 * DT)
    assert join.browser.state == "off" and not join.browser.running and join.game_buttons == []
    assert join.search_text()[0] == "Local network search is off: type the address and the code."
    click(app, button(join, "Back"))
    app.open("online_host")
    host = app.top
    host.start()
    assert wait_real(app, lambda: host.match is not None and host.match.code is not None)
    step(app, 2 * DT)
    assert host.announcer.state == "off"
    assert host.announce_text() == "Not announced on the local network (discovery is turned off)."
    click(app, button(host, "Cancel"))
    assert not discovery_threads()


def test_without_zeroconf_joining_by_address_still_works(app, server, clients, loopback, monkeypatch):
    def missing():
        raise ImportError("No module named 'zeroconf'")
    monkeypatch.setattr(D, "_import_zeroconf", missing)
    app.open("online_host")
    host = app.top
    host.start()
    assert wait_real(app, lambda: host.announcer is not None and host.announcer.state == "unavailable")
    assert host.announce_text() == "Local network search unavailable: zeroconf is not installed."
    step(app, 2 * DT)
    assert host.match.stage == "open"                   # the room waits all the same
    click(app, button(host, "Cancel"))
    app.pop()
    owner = clients(server.url)
    owner.connect().result(10)
    code = owner.create_room({"preset": "casual"}, months=1, name="Aki").result(10)["room"]
    app.open("online_join")
    join = app.top
    assert wait_real(app, lambda: join.browser.state == "unavailable")
    text, _color = join.search_text()
    assert text == ("Local network search unavailable: zeroconf is not installed. "
                    "Type the address and the code instead.")
    step(app, 2 * DT)
    type_into(app, join.address_field, f"127.0.0.1:{server.port}")
    type_into(app, join.code_field, code)
    click(app, button(join, "Join"))
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    finish(app)


def fill(browser, games):
    """Games as if found (a browser that never ran: no network at all)."""
    with browser._lock:
        browser._found = {g.key: g for g in games}
        browser.version += 1


def fake_games(n, version=None):
    names = ["Aki", "Haru Tanaka-Yamamoto no Ōkami", "Fuyu", "Natsu", "Sora", "Umi", "Kaze", "Yuki"]
    return [D.FoundGame(key=f"g{i}.{D.SERVICE_TYPE}", name=names[i % len(names)], code=f"KOI-{100000 + i}",
                        rules=list(RULESETS)[i % len(RULESETS)], host=f"192.168.1.{20 + i}", port=8765 + i,
                        version=version or D.PROTOCOL_VERSION) for i in range(n)]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_join_list_is_tidy_at_both_sizes(size, koikoi_home):
    from harness import close_app, make_app
    app = make_app(size=size, home=koikoi_home)
    try:
        app.open("online_join")
        join = app.top
        fill(join.browser, fake_games(8))
        step(app, 2 * DT)
        shown = join.game_buttons
        assert 3 <= len(shown) == join.lan_rows < 8 and join.more_games == 8 - len(shown)
        assert join.search_text()[0] == f"{8 - len(shown)} more games were found than fit here."
        fields = [join.address_field.rect, join.code_field.rect, join.name_field.rect]
        for i, b in enumerate(shown):
            assert join.panel.contains(b.rect) and join.lan_rect.contains(b.rect)
            assert not any(b.rect.colliderect(f) for f in fields)
            assert all(not b.rect.colliderect(o.rect) for o in shown[i + 1:])
        assert all(join.panel.contains(f) and f.right < join.lan_rect.x for f in fields)
        assert join.panel.bottom < join.join_b.rect.top and join.panel.right <= size[0]
        assert shown[-1].rect.bottom < join.lan_rect.bottom - join.font("small").get_linesize()
        # live: a game gone, one of another version (shown, not joinable)
        fill(join.browser, fake_games(1) + fake_games(2, version=D.PROTOCOL_VERSION + 1)[1:])
        step(app, 2 * DT)
        assert [b.enabled for b in join.game_buttons] == [True, False]
        assert join.game_buttons[1].sublabel == "Another version of the game: it cannot join this one"
        join.join_found(fake_games(2, version=D.PROTOCOL_VERSION + 1)[1])
        assert join.match is None and "another version" in join.error
        step(app, 2 * DT)
        click(app, button(join, "Back"))
        assert join.browser._stop.is_set()
    finally:
        close_app(app)


# ---------------------------------------------------------------- a closed or killed program comes back

def kept_seats(app):
    from koikoi.net.seats import SeatStore
    return SeatStore(app.storage.data_dir)


def kill(app, match):
    """The program killed (or its window closed) in the middle: the connection and a hosted
    server go, no leave is sent, nothing is forgotten; then a fresh start at the title."""
    match.close(leave=False)
    assert match.join_closed(15.0)
    app.open("title", mode="reset")
    step(app, 2 * DT)
    assert not app.tickers


def table_of(app):
    """The online round table on the stack (the top one), whatever overlay is over it."""
    return next((sc for sc in reversed(app.scenes) if isinstance(sc, O.OnlineRoundScene)), None)


def test_a_restarted_guest_takes_its_seat_back_through_join(app, server, clients):
    host = clients(server.url)
    host.connect().result(10)
    code = host.create_room({"preset": "casual"}, months=3, name="Aki").result(10)["room"]
    where = ("127.0.0.1", server.port, code)
    app.open("online_join", where, player="Haru", auto=True)
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    match = app.top.match
    (kept,) = kept_seats(app).entries()         # saved as soon as the seat was granted
    assert (kept.room, kept.seat, kept.token, kept.hosted) == (code, 1, match.client.state.token, False)
    assert kept.address == f"127.0.0.1:{server.port}" and kept.opponent == "Aki"
    rng = random.Random(21)
    assert play(app, host, rng, local_actions=5) >= 5
    table = app.top
    assert isinstance(table, O.OnlineRoundScene)
    assert settle(app, host, table, server)
    before = match.client.state
    kill(app, match)
    assert wait_real(app, lambda: (host.state.presence[1] or {}).get("state") == "dropped", LIMIT)
    assert kept_seats(app).find(f"127.0.0.1:{server.port}", code) is not None
    # the program started again: koikoi --join HOST:PORT/CODE takes the stored seat back
    app.open("online_join", where, player="Haru", auto=True)
    join = app.top
    assert join.match is not None and join.match.resuming is not None
    # the table again (under its round results, if the kill came as the round ended)
    assert wait_real(app, lambda: table_of(app) is not None, LIMIT)
    again = table_of(app)
    m2 = again.match
    assert m2 is not match and m2.client is not match.client
    assert wait_real(app, lambda: m2.client.state.total == before.total, LIMIT)
    assert m2.client.state.table == before.table and m2.client.state.events == before.events
    assert m2.client.state.legal == before.legal
    assert again.session.table == before.table     # the exact position on the table
    assert wait_real(app, lambda: (host.state.presence[1] or {}).get("state") == "connected", LIMIT)
    assert play(app, host, rng, local_actions=3) >= 1
    assert settle(app, host, again, server)
    events = server_events(server, code)
    assert again.table == fold_all([public_event(e, 1) for e in events[:again.shown]], 1)
    finish(app)                                  # the player left: the seat is given up
    assert kept_seats(app).entries() == []


def test_a_stale_seat_says_so_and_the_normal_join_is_offered(app, server, clients):
    from koikoi.net.seats import Seat
    host = clients(server.url)
    host.connect().result(10)
    code = host.create_room({"preset": "casual"}, months=1, name="Aki").result(10)["room"]
    kept_seats(app).save(Seat(room=code, address=f"127.0.0.1:{server.port}", seat=1,
                              token="x" * 32, name="Haru", opponent="Aki"))
    app.open("online_join", ("127.0.0.1", server.port, code), player="Haru", auto=True)
    join = app.top
    assert wait_real(app, lambda: join.match is None and join.error is not None, LIMIT)
    assert "no longer keeps your seat in " + code in join.error and "Press Join" in join.error
    assert kept_seats(app).entries() == []
    step(app, 2 * DT)                            # the message is drawn
    click(app, button(join, "Join"))             # the normal join: the free seat
    assert join.match is not None and join.match.resuming is None
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    assert host.state.names == ("Aki", "Haru")
    finish(app)


def test_a_restarted_host_resumes_its_match_on_the_same_port(app, clients):
    t0 = time.monotonic()
    app.open("online_host")
    host = app.top
    type_into(app, host.name_field, "Aki")
    assert host.resume_b is None and button(host, "Host the match")
    # three months: a one-month match can end (a lucky hand, an early Stop) before the kill,
    # and the deal is the server's own, different every run
    if 3 in RULESETS[host.rules_name].months_offered:
        host.set_months(3)
    click(app, button(host, "Host the match"))
    assert wait_real(app, lambda: host.match is not None and host.match.code is not None, LIMIT)
    m = host.match
    code, port = m.code, m.hosted.port
    (kept,) = kept_seats(app).hosted()
    assert (kept.room, kept.port, kept.seat, kept.token) == (code, port, 0, m.client.state.token)
    guest = clients(f"ws://127.0.0.1:{port}", reconnect_for=40)
    guest.connect().result(10)
    guest.join(code, "Haru").result(10)
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    rng = random.Random(8)
    assert play(app, guest, rng, local_actions=4) >= 4
    assert not m.session.is_over
    table = app.top
    assert settle(app, guest, table, m.hosted)
    before = m.client.state
    kill(app, m)                                 # the host's game and its server go
    assert wait_real(app, lambda: not guest.connected, LIMIT)
    # started again: Host a match offers the unfinished one first
    app.open("online_host")
    host2 = app.top
    resume = button(host2, f"Resume your match {code} with Haru")
    assert resume.style == "primary" and button(host2, "Host a new match").style == "secondary"
    click(app, resume)
    assert wait_real(app, lambda: table_of(app) is not None or isinstance(app.top, (
            O.OnlineOyagimeScene, O.OnlineResultsScene)), LIMIT), (
        type(app.top).__name__, host2.error, host2.port_taken,
        host2.match and (host2.match.stage, host2.match.error, host2.match.client.connected,
                          host2.match.session.status))
    m2 = (table_of(app) or app.top).match
    assert m2.hosted.port == port                # the guest reconnects to the same address
    assert wait_real(app, lambda: m2.client.state.total >= before.total, LIMIT)
    assert m2.client.state.events[:before.total] == before.events
    assert wait_real(app, lambda: guest.connected and guest.state.total == m2.client.state.total, 40.0)
    # both play on to the end of the match
    play(app, guest, rng, local_actions=10000, limit_s=120.0)
    s = app.top.session
    assert s.is_over
    events = m2.hosted.call(lambda: m2.hosted.server.rooms[code].events)
    assert wait_real(app, lambda: guest.state.over is not None and len(guest.state.events) == len(events), LIMIT)
    assert tuple(s.ledger) == tuple(guest.state.table.ledger) and s.ledger
    assert fold_all([public_event(e, 0) for e in events], 0).ledger == tuple(s.ledger)
    # over and filed: the seat is given up
    assert wait_real(app, lambda: s.filed is not None and kept_seats(app).entries() == [], LIMIT)
    finish(app)
    assert time.monotonic() - t0 < 120


def test_resuming_on_a_taken_port_offers_a_new_one(app):
    import socket
    from koikoi.net.seats import Seat
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        kept_seats(app).save(Seat(room="KOI-4321", address=f"127.0.0.1:{port}", seat=0, token="t" * 32,
                                  name="Aki", hosted=True, port=port, rules="casual", opponent="Haru"))
        app.open("online_host")
        host = app.top
        click(app, button(host, "Resume your match KOI-4321 with Haru"))
        assert host.match is None and f"Port {port} is taken" in host.error
        assert not button(host, "Resume your match KOI-4321 with Haru").enabled
        step(app, 2 * DT)
        click(app, button(host, "Resume on a new port"))
        assert host.match is not None and host.match.hosted.port != port
        # this server's folder does not hold the room: said so, and the seat is dropped
        assert wait_real(app, lambda: host.match is None and host.error is not None, LIMIT)
    assert "KOI-4321 is no longer kept" in host.error
    assert host.resume_seat is None and host.resume_b is None and kept_seats(app).entries() == []
    assert button(host, "Host the match")
    assert not app.tickers


# ---------------------------------------------------------------- hosting on a match server elsewhere

def free_port() -> int:
    import socket
    with socket.socket() as s:            # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_host_a_match_on_a_match_server_then_resume_it_through_join(app, server, clients):
    """Host a match -> A match server: the room is created on that server (no server in
    this game), shown with the server's address; a second client joins with the code and
    they play; killed and started again, Join with that address and the code takes the
    host's seat back (it is kept as a joined seat, never offered by the Host screen)."""
    t0 = time.monotonic()
    app.open("online")
    click(app, button(app.top, "Host a match"))
    host = app.top
    assert isinstance(host, O.HostScene) and host.where == "here" and not host.server_field.visible
    type_into(app, host.name_field, "Aki")
    click(app, pill(host.where_row, "server"))
    assert host.where == "server" and host.server_field.visible and host.server_field in host.widgets
    assert host.lan_toggle not in host.widgets
    address = f"ws://127.0.0.1:{server.port}"
    type_into(app, host.server_field, address)           # Enter in the field: Host the match
    if host.match is None:
        click(app, button(host, "Host the match"))
    assert host.match is not None and host.match.hosted is None and host.match.on_server
    assert wait_real(app, lambda: host.match is not None and host.match.code is not None, LIMIT)
    m = host.match
    code = m.code
    assert m.address == f"127.0.0.1:{server.port}"       # the address to share: the server's
    assert server.call(lambda: server.server.rooms[code].seats[0].name) == "Aki"
    step(app, 2 * DT)                                    # the waiting screen is drawn
    assert host.announcer is None and button(host, "Cancel")
    assert O.PREFS["where"] == "server" and O.PREFS["server"] == address
    (kept,) = kept_seats(app).entries()
    assert (kept.room, kept.seat, kept.hosted, kept.address) == (code, 0, False, f"127.0.0.1:{server.port}")
    assert kept_seats(app).hosted() == []
    guest = clients(server.url)
    guest.connect().result(10)
    guest.join(code, "Haru").result(10)
    assert guest.state.names == ("Aki", "Haru")
    assert wait_real(app, lambda: isinstance(app.top, O.OnlineOyagimeScene), LIMIT)
    rng = random.Random(11)
    assert play(app, guest, rng, local_actions=4) >= 4
    table = app.top
    assert isinstance(table, O.OnlineRoundScene)
    assert settle(app, guest, table, server)
    events = server_events(server, code)
    assert table.table == fold_all([public_event(e, 0) for e in events[:table.shown]], 0)
    before = table.match.client.state
    kill(app, table.match)
    # the Host screen offers no resume for it (its server is not this game's) ...
    app.open("online_host")
    assert app.top.resume_b is None and button(app.top, "Host the match")
    app.open("title", mode="reset")
    # ... Join with the server's address and the code does (koikoi --join ADDRESS/CODE)
    app.open("online_join", parse_join(f"127.0.0.1:{server.port}/{code}"), player="Aki", auto=True)
    join = app.top
    assert join.match is not None and join.match.resuming is not None and join.match.resuming.seat == 0
    assert wait_real(app, lambda: table_of(app) is not None, LIMIT)    # (under its round results, maybe)
    again = table_of(app)
    assert wait_real(app, lambda: again.match.client.state.total == before.total, LIMIT)
    assert again.session.seat == 0 and again.session.table == before.table
    assert play(app, guest, rng, local_actions=2) >= 1
    assert settle(app, guest, again, server)
    finish(app)
    assert kept_seats(app).entries() == []
    assert time.monotonic() - t0 < 60


def test_hosting_on_a_match_server_refuses_a_bad_address_and_says_who_does_not_answer(app):
    app.open("online_host")
    host = app.top
    host.set_where("server")
    assert host.server_field.editing               # an empty address field is typed in at once
    host.server_field.commit()
    click(app, button(host, "Host the match"))
    assert host.match is None and "Type the address of the match server" in host.error
    type_into(app, host.server_field, "not an address")
    if host.match is None and host.error and "Type" in host.error:
        click(app, button(host, "Host the match"))
    assert host.match is None and "server address cannot be right" in host.error
    assert host.server_field.text == "not an address" and host.where == "server"
    assert not app.tickers
    step(app, 2 * DT)                              # the message is drawn
    nobody = f"127.0.0.1:{free_port()}"
    type_into(app, host.server_field, nobody)
    if host.match is None and not (host.error or "").startswith("Nobody answers"):
        click(app, button(host, "Host the match"))
    # a refused connection on 127.0.0.1 may come back before this line: wait for its message
    assert wait_real(app, lambda: host.match is None and (host.error or "").startswith("Nobody answers"), LIMIT)
    assert "Nobody answers at " + nobody in host.error and "match server is running" in host.error
    assert host.server_field.text == nobody and host.where == "server"        # the form as typed
    assert button(host, "Host the match") and not app.tickers and kept_seats(app).entries() == []
    step(app, 2 * DT)


def test_hosting_on_a_full_match_server_says_so(app, tmp_path, clients):
    full = HostedServer(tmp_path / "full", config=quick(max_rooms=1)).start()
    try:
        other = clients(full.url)
        other.connect().result(10)
        other.create_room({"preset": "casual"}, months=1, name="Someone").result(10)
        app.open("online_host", server=f"127.0.0.1:{full.port}")
        host = app.top
        assert host.where == "server" and host.server_field.text == f"127.0.0.1:{full.port}"
        click(app, button(host, "Host the match"))
        assert wait_real(app, lambda: host.match is None and host.error is not None, LIMIT)
        assert "is full" in host.error and f"127.0.0.1:{full.port}" in host.error
        assert not app.tickers
    finally:
        full.stop()


def test_host_with_server_on_the_command_line(app):
    from koikoi.__main__ import open_online, parse_args
    args = parse_args(["--host", "--server", "wss://play.example.org:443", "--name", "Aki"])
    assert args.host and args.server == "wss://play.example.org:443"
    open_online(app, args)
    host = app.top
    assert isinstance(host, O.HostScene) and host.where == "server" and host.where_row.selected == "server"
    assert host.server_field.text == "wss://play.example.org:443" and host.typed_name() == "Aki"
    assert host.server_field in host.widgets and host.lan_toggle not in host.widgets
    step(app, 2 * DT)
    for bad in (["--server", "127.0.0.1:8765"], ["--host", "--server", "nowhere"],
                ["--host", "--server", "http://h:1"], ["--join", "h:1/KOI-1234", "--server", "h:1"]):
        with pytest.raises(SystemExit) as e:
            parse_args(bad)
        assert e.value.code == 2
    # the choice comes back on the next visit to the screen (this run)
    app.open("title", mode="reset")
    app.open("online_host")
    assert app.top.where == "server" and app.top.server_field.text == "wss://play.example.org:443"
    app.top.set_where("here")
    assert app.top.lan_toggle in app.top.widgets and app.top.server_field not in app.top.widgets


def test_a_wss_address_on_the_join_screen_connects_with_tls(app, caplog):
    """wss:// is kept from --join to the URL: the client speaks TLS there (a plain port
    nobody listens on: refused, and said so)."""
    port = free_port()
    app.open("online_join", parse_join(f"wss://127.0.0.1:{port}/KOI-1234"), player="Haru", auto=True)
    join = app.top
    assert join.address == f"wss://127.0.0.1:{port}"
    assert join.match is not None and join.match.url == f"wss://127.0.0.1:{port}"
    assert wait_real(app, lambda: join.match is None and join.error is not None, LIMIT)
    assert "Nobody answers" in join.error and not app.tickers
    type_into(app, join.address_field, f"ws://127.0.0.1:{port}")
    type_into(app, join.code_field, "KOI-1234")
    caplog.clear()
    if join.match is None:
        click(app, button(join, "Join"))
    # the plain address is tried in plain ws:// (refused at once on a loaded machine: the
    # attempt may have ended before this line, so its log line is the proof)
    assert join.match is None or join.match.url == f"ws://127.0.0.1:{port}"
    assert wait_real(app, lambda: join.match is None and join.error is not None, LIMIT)
    assert "Nobody answers" in join.error
    tried = [r.getMessage() for r in caplog.records if "online match (connecting" in r.getMessage()]
    assert tried and all(f"ws://127.0.0.1:{port}" in m and "wss://" not in m for m in tried)
