"""Quick match in the game: Play online -> Quick match -> the wait -> the table; the
Leaderboard and Profile screens; Copy my key / Use a key.

The ladder's side is a fake server here (websockets on 127.0.0.1, port 0) that answers
identify and queue, then says ``matched``: the room is on a real match server
(``HostedServer``), where a helper client took seat 1 and dropped, leaving its token to
the player (what a second server process does for a player queued on another one)."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pygame
import pytest

from koikoi.ladder import identity
from koikoi.net.client import ThreadedClient
from koikoi.net.netsession import HostedServer
from koikoi.ui.scenes import online as O
from koikoi.ui.scenes import online_table as OT
from koikoi.ui.scenes.ladder_link import FixedLink
from koikoi.ui.scenes.profile import PlayerKeyScene, ProfileScene
from koikoi.ui.scenes.quickmatch import QuickMatchScene

from harness import DT, button, click, key, pill, post, quick, step, wait_real

LIMIT = 20.0
HELLO = {"type": "hello", "server": "koikoi", "protocol": 1, "limits": {"max_frame": 16384, "rate": 20, "burst": 40}}


@pytest.fixture(autouse=True)
def fresh_prefs():
    O.PREFS.update(OT.PREF_DEFAULTS)
    O.PREFS.pop("_quick", None)
    yield


class FakeLadder:
    """A ladder-speaking server on its own thread: ``then`` is sent after ``queued``."""

    def __init__(self, then=None, refuse=None):
        from websockets.asyncio.server import serve
        self.then, self.refuse, self.seen = then, refuse, []
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def start():
            self.srv = await serve(self._handle, "127.0.0.1", 0)
            self.port = self.srv.sockets[0].getsockname()[1]

        def run():
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(start())
            ready.set()
            self.loop.run_forever()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(10)

    async def _handle(self, ws):
        await ws.send(json.dumps(HELLO))
        async for raw in ws:
            m = json.loads(raw)
            self.seen.append(m)
            rid = m.get("id")
            if self.refuse and m["type"] in self.refuse:
                await ws.send(json.dumps({"type": "error", "re": rid, "code": self.refuse[m["type"]],
                                          "message": "refused"}))
            elif m["type"] == "identify":
                await ws.send(json.dumps({"type": "profile", "re": rid, "you": True, "id": "0123456789abcdef",
                                          "name": m["name"], "rating": 1612, "rd": 80, "matches": 3,
                                          "wins": 2, "draws": 0, "place": 7, "history": [], "against": []}))
            elif m["type"] == "queue":
                await ws.send(json.dumps({"type": "queued", "re": rid, "preset": m["preset"],
                                          "months": m.get("months"), "since": time.time()}))
                if self.then is not None:
                    await asyncio.sleep(0.3)
                    await ws.send(json.dumps(self.then))

    def close(self):
        async def stop():
            self.srv.close()
            await self.srv.wait_closed()
        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def type_into(app, field, text):
    click(app, field)
    field.buffer, field.caret = "", 0
    post(pygame.TEXTINPUT, text=text)
    app.step(DT)
    key(app, pygame.K_RETURN)


def test_quick_match_waits_then_takes_the_seat_made_on_another_process(app, tmp_path):
    server = HostedServer(tmp_path / "server", config=quick(claim_after=30)).start()
    host, ghost = ThreadedClient(server.url), ThreadedClient(server.url, auto_reconnect=False)
    ladder = None
    try:
        host.connect().result(10)
        code = host.create_room({"preset": "koikoi-japan"}, months=8, name="Aki").result(10)["room"]
        ghost.connect().result(10)
        token = ghost.join(code, "Haru").result(10)
        ghost.close()
        ladder = FakeLadder(then={"type": "matched", "url": server.url, "room": code, "token": token})
        app.open("online")
        click(app, button(app.top, "Quick match"))
        qm = app.top
        assert isinstance(qm, QuickMatchScene)
        type_into(app, qm.name_field, "Haru")
        type_into(app, qm.server_field, f"127.0.0.1:{ladder.port}")
        click(app, pill(qm.rules_row, "koikoi-japan"))
        click(app, pill(qm.months_row, 8))
        click(app, button(qm, "Find a match"))
        assert qm.searching
        assert wait_real(app, lambda: qm.match.queued_at is not None or not qm.searching, LIMIT)
        # the wait: the time waited and Cancel, nothing else to press
        assert qm.widgets == [qm.cancel_b]
        assert wait_real(app, lambda: isinstance(app.top, (O.OnlineOyagimeScene, O.OnlineRoundScene)), LIMIT)
        seen = ladder.seen
        assert [m["type"] for m in seen] == ["identify", "queue"]
        assert seen[0]["key"] == identity.read_key(app.storage.data_dir) and seen[0]["name"] == "Haru"
        assert seen[1] == {"type": "queue", "id": 2, "preset": "koikoi-japan", "months": 8}
        match = app.top.match
        assert match.client.url == server.url and match.address == server.url
        assert match.session.events and host.state.names == ("Aki", "Haru")
        app.open("title", mode="reset")
        step(app, 3 * DT)
        assert match.stage == "closed" and match.join_closed(15.0)
    finally:
        host.close()
        ghost.close()
        if ladder is not None:
            ladder.close()
        server.stop()


@pytest.mark.parametrize("refuse, said", [
    ({"identify": "bad_type"}, "does not offer quick match"),
    ({"queue": "key_replaced"}, "was replaced by a new one"),
    ({"identify": "too_many_profiles"}, "Too many new players"),
])
def test_a_refused_quick_match_says_why_and_cancel_goes_back(app, refuse, said):
    ladder = FakeLadder(refuse=refuse)
    try:
        qm = app.open("quickmatch")
        type_into(app, qm.server_field, f"127.0.0.1:{ladder.port}")
        click(app, button(qm, "Find a match"))
        assert wait_real(app, lambda: not qm.searching, LIMIT)
        assert said in qm.error
        assert button(qm, "Find a match")            # the choices are back
    finally:
        ladder.close()


def test_cancel_while_waiting_and_the_wait_clock(app, monkeypatch):
    ladder = FakeLadder()
    try:
        qm = app.open("quickmatch")
        type_into(app, qm.server_field, f"127.0.0.1:{ladder.port}")
        click(app, button(qm, "Find a match"))
        assert wait_real(app, lambda: qm.match is not None and qm.match.queued_at is not None, LIMIT)
        m = qm.match
        m.queued_at -= 75
        assert 75 <= m.waited() < 80
        app.draw()
        click(app, qm.cancel_b)
        assert qm.match is None and not qm.searching and m.stage == "closed"
        assert m.join_closed(10)
    finally:
        ladder.close()


def test_the_quick_match_choice_is_kept_for_the_next_visit(app):
    """Back on Quick match after a match (or Back), the rules and length chosen last are
    chosen again, not the New match dialog's."""
    qm = app.open("quickmatch")
    click(app, pill(qm.rules_row, "nintendo"))
    click(app, pill(qm.months_row, 3))
    assert (qm.rules_name, qm.months) == ("nintendo", 3)
    app.open("title", mode="reset")
    again = app.open("quickmatch")
    assert (again.rules_name, again.months) == ("nintendo", 3)
    assert again.months_row.selected == 3 and again.rules_row.selected == "nintendo"


def test_no_address_no_connection(app):
    qm = app.open("quickmatch")
    click(app, button(qm, "Find a match"))
    assert qm.match is None and "address of the match server" in qm.error
    type_into(app, qm.server_field, "not an address at all")
    click(app, button(qm, "Leaderboard"))
    assert app.top is qm and "cannot be right" in qm.error


ME = {"id": "3fa94c0d21b7e865", "name": "Haru", "matches": 3, "wins": 2, "draws": 0, "rating": 1612, "rd": 80,
      "place": 2, "you": True,
      "history": [{"rating": 1560, "won": True, "draw": False}, {"rating": 1530, "won": False, "draw": False},
                  {"rating": 1612, "won": True, "draw": False}],
      "against": [{"id": "a1b2c3d4e5f60718", "name": "Aki", "wins": 2, "losses": 1, "draws": 0}]}
AKI = {"id": "a1b2c3d4e5f60718", "name": "Aki", "matches": 5, "wins": 4, "draws": 0, "rating": 1700, "rd": 70,
       "place": 1, "history": [], "against": []}
BOARD = {"rows": [dict(AKI, place=1), dict(ME, place=2)], "you": 2, "total": 2}


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_leaderboard_and_profiles_from_the_ladder(size, lang, koikoi_home):
    from harness import close_app, make_app
    app = make_app(size, home=koikoi_home)
    try:
        if lang != "en":
            from koikoi import i18n
            i18n.set_language(lang)
        link = FixedLink(ME, BOARD, {"a1b2c3d4e5f60718": AKI})
        board = app.open("leaderboard", address="play.example.org:8765", link=link)
        step(app, 2 * DT)
        assert [r["name"] for r in board.rows] == ["Aki", "Haru"]
        mine = board.cells(board.rows[1])
        assert mine["name"].bold and board.cells(board.rows[0])["name"].bold is None
        text, _color = board.status()
        assert "2" in text
        app.draw()
        board.open_row(0)
        prof = app.top
        assert isinstance(prof, ProfileScene) and prof.link is link
        step(app, 2 * DT)
        assert prof.view["name"] == "Aki" and not prof.mine
        assert [w.label for w in prof.widgets] == [prof.back_b.label]     # no key buttons on another's profile
        app.draw()
        app.pop()
        board.my_profile()
        step(app, 2 * DT)
        mine = app.top
        assert mine.mine and len(mine.widgets) == 3
        app.draw()
    finally:
        if lang != "en":
            from koikoi import i18n
            i18n.set_language("en")
        close_app(app)


def test_a_failed_ladder_connection_is_said_on_the_screens(app):
    board = app.open("leaderboard", address="")
    step(app, DT)
    assert board.link is None and "Quick match screen" in board.status()[0]
    app.draw()


def test_use_a_key_checks_and_keeps_the_old_one(app):
    folder = app.storage.data_dir
    old = identity.load_or_create_key(folder)
    scene = app.open("player_key", "use")
    assert isinstance(scene, PlayerKeyScene)
    scene.field.set_text("kk1_not-a-key")
    click(app, button(scene, "Use this key"))
    assert "not a player key" in scene.problem and identity.read_key(folder) == old
    new = identity.new_key()
    scene.field.set_text("  " + new + "\n")
    click(app, button(scene, "Use this key"))
    assert scene.problem is None and identity.read_key(folder) == new
    kept = [p for p in folder.iterdir() if p.name.startswith("player_key.unreadable-")]
    assert len(kept) == 1 and kept[0].read_text().strip() == old
    assert "kept in the data folder" in scene.status
    app.draw()
    click(app, button(scene, "Close"))
    assert app.top is not scene


def test_copy_my_key_warns_then_copies_or_shows_it(app, monkeypatch):
    import koikoi.crash as crash
    copied = []
    monkeypatch.setattr(crash, "copy_text", lambda text: copied.append(text) or True)
    scene = app.open("player_key", "copy")
    assert copied == [] and scene.shown_key is None      # nothing leaves before the confirmation
    app.draw()
    click(app, button(scene, "Copy to the clipboard"))
    key_now = identity.read_key(app.storage.data_dir)
    assert copied == [key_now] and "on the clipboard" in scene.status and scene.shown_key is None
    app.pop()
    monkeypatch.setattr(crash, "copy_text", lambda text: False)
    scene = app.open("player_key", "copy")
    click(app, button(scene, "Copy to the clipboard"))
    assert scene.shown_key == key_now and "cannot be reached" in scene.status
    app.draw()


def test_new_match_after_a_quick_match_goes_back_to_quick_match(app):
    """The results' New match after a quick match opens Quick match again (over Play online,
    so Back still leads there); after a friend's room it opens Play online."""
    from koikoi.ui.scenes.quickmatch import QuickOnlineMatch
    for match_class, top in ((QuickOnlineMatch, QuickMatchScene), (OT.OnlineMatch, O.OnlineScene)):
        results = OT.OnlineResultsScene.__new__(OT.OnlineResultsScene)
        results.app, results.match = app, match_class.__new__(match_class)
        results.new_match()
        assert isinstance(app.top, top)
        if top is QuickMatchScene:
            assert isinstance(app.scenes[-2], O.OnlineScene)
