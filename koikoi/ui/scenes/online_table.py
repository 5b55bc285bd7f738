"""Online play at the table: the match over the network, and what it says when it fails.

``OnlineMatch`` is one match over the network: a ``ThreadedClient`` (and, for the
host, the ``HostedServer`` this game runs on a free port, or none when the room is
created on a match server elsewhere: ``on_server``) and its ``NetSession``.
It is an app ticker (``app.tickers``): every frame, whatever screen is on top, it
polls the session, opens the table when both players are in, and shows the
connection's trouble over the table (``online_scenes.LinkScene``): "Reconnecting…" when
this side's connection dropped, "Waiting for Haru (0:42)" when the other side's did (with
"Claim the match" once the server allows it, and "Keep waiting"), "The server is
gone", and a match won or lost by forfeit. When no screen shows the match any more
(the player went back to the title) it leaves the room and shuts everything down.
The scenes of the table, online, are ``online_scenes``' (re-exported here).

The seat's token is kept in the data folder (``koikoi.net.seats``) from the moment
the seat is granted until the match is over and filed, or the player leaves it: a
game closed or killed in the middle takes its seat back when it is started again
(``resume``), at the exact position. Closing the window keeps the seat (the other
player sees "Waiting for ..."); only Leave the match gives it up.

Once the match has ended the server sends the whole log (``record``); it is checked
(``net.client.check_record``) and filed in the Match history, flagged online, where
its rounds can be replayed (both players file the same log). A record that does not
agree with what was played here is not filed, and the player is told.

Also here, for every online screen: what the player typed last (``PREFS``) and the
sentences for a failed connection or request (by the error's kind, ``online_errors``).
"""

from __future__ import annotations

import logging
import ssl
import threading
from typing import Optional

try:
    from websockets import exceptions as wse
except ImportError:         # pragma: no cover - the client needs websockets
    wse = None

from ...net.client import ConnectionLost, ServerError, ThreadedClient
from ...net.discovery import NOT_INSTALLED
from ...net.netsession import HostedServer, NetSession
from ...net.seats import Seat, SeatStore
from ...session import clean_name
from ...i18n import _
from ..table import seat_label
from .online_errors import os_error_kind
from .online_scenes import (  # noqa: F401  (the table's scenes, re-exported)
    LinkScene, OnlineOyagimeScene, OnlinePauseScene, OnlineResultsScene, OnlineRoundScene, clock,
    table_scene)


log = logging.getLogger("koikoi.online")

RECONNECT_FOR = 90.0            # seconds a dropped connection keeps trying before "lost"
DEFAULT_PORT = 8765

# What the player typed last, for the next visit to these screens (this run only: the
# settings file keeps only the settings it knows). "where": where a hosted match runs,
# "here" (this computer's in-game server) or "server" (the match server at "server").
PREF_DEFAULTS = {"name": None, "address": "", "code": "", "lan": False, "where": "here", "server": ""}
PREFS: dict = dict(PREF_DEFAULTS)
PREF_KEYS = tuple(PREF_DEFAULTS)


def load_prefs(app) -> None:
    """What the player typed last time (the "online" setting), once per run."""
    if PREFS.get("_loaded"):
        return
    saved = getattr(app, "settings", {}).get("online")
    if isinstance(saved, dict):
        PREFS.update({k: saved[k] for k in PREF_KEYS if k in saved})
    if PREFS.get("where") not in ("here", "server"):
        PREFS["where"] = "here"
    if not isinstance(PREFS.get("server"), str):
        PREFS["server"] = ""
    PREFS["_loaded"] = True


def save_prefs(app) -> None:
    """Remember what the player typed for the next run (the settings file checks it)."""
    try:
        app.settings["online"] = {k: PREFS.get(k) for k in PREF_KEYS}
        app.save_settings()
    except Exception:   # remembering is a convenience: never in the way of a match
        log.exception("could not remember the online fields")

def default_name(app) -> str:
    if PREFS.get("name"):
        return PREFS["name"]
    names = app.settings.get("friend_names") or []
    try:
        return seat_label(clean_name(names[0]))      # "Player 1", the default, in the game's language
    except (ValueError, TypeError, IndexError):
        return _("Player")



# ------------------------------------------------------------------ what a failure is called
# The raw text of an exception (OS errors, OpenSSL, the server's English) goes to the log;
# the screen says a translated sentence chosen by the exception's type, errno or code.
_NOT_UNDERSTOOD = frozenset({"bad_field", "bad_message", "bad_type", "bad_id", "bad_frame", "bad_json",
                             "too_deep", "too_big", "binary", "bad_action"})


def server_error_text(code: str, *, room: Optional[str] = None, address: str = "") -> Optional[str]:
    """The sentence for a server's refusal ``code`` (``net.client.ServerError.code``, the
    codes of ``net.server``); None for a code this game does not know."""
    if code == "no_room":
        if room:
            return _("There is no room {code} at {address}: check the room code the host's screen "
                     "shows.").format(code=room, address=address)
        return _("There is no such room at {address}: check the room code the host's screen "
                 "shows.").format(address=address)
    if code == "room_full":
        if room:
            return _("The room {code} cannot be joined: it has two players already, or its match is "
                     "over.").format(code=room)
        return _("That room cannot be joined: it has two players already, or its match is over.")
    if code == "bad_token":
        if room:
            return _("The server no longer keeps your seat in {code}: the match is over there, or "
                     "the server was reset.").format(code=room)
        return _("The server no longer keeps your seat: the match is over there, or the server "
                 "was reset.")
    if code == "too_many_tries":
        return _("Too many wrong room codes were tried from this computer: wait a minute, then try "
                 "again.")
    if code == "too_many_rooms":
        return _("Too many rooms made from this computer's address are still waiting or playing: "
                 "finish or leave one, then try again.")
    if code == "server_busy":
        return _("The match server is taking no room codes for a moment: try again in a minute.")
    if code == "server_full":
        return _("The match server at {address} is full: try again later, or use another "
                 "server.").format(address=address)
    if code == "cannot_claim":
        return _("The match cannot be claimed now: the other player is back, the wait is not over "
                 "yet, or the match has ended.")
    if code == "bad_room":
        return _("That room code cannot be right: it looks like KOI-4821.")
    if code == "bad_name":
        return _("The server does not accept that name: try another one.")
    if code == "bad_rules":
        return _("The server does not accept these rules: it may run another version of the game.")
    if code in _NOT_UNDERSTOOD:
        return _("The server did not understand this game's request: it may run another version "
                 "of the game.")
    if code in ("storage", "internal"):
        return _("The server could not do that, and nothing changed: try again in a moment.")
    if code == "busy":
        return _("The server is still saving the last move: try again in a moment.")
    if code == "rate_limited":
        return _("Too many messages went to the server too fast: wait a moment, then try again.")
    if code in ("not_seated", "not_in_room"):
        return _("Only a player seated in the match can do that.")
    if code == "in_room":
        return _("This connection is in a room already: go back, then try again.")
    if code == "no_spectators":
        return _("That room takes no spectators.")
    if code == "replaced":
        return _("Your seat was taken back by another connection: is the game open in another "
                 "window?")
    return None


def _failure_text(exc: BaseException, address: str, *, server: bool = False,
                  room: Optional[str] = None) -> str:
    """What the screen says of a failed connection or request (``server``: the player
    is creating a room on a match server, not joining a host's game; ``room``: the code
    of the room being joined). The raw text of ``exc`` is for the log, never shown."""
    if isinstance(exc, ServerError):
        said = server_error_text(exc.code, room=room, address=address)
        if said is not None:
            return said
        return _("The server refused: {reason}.").format(reason=exc.message.rstrip(".")[:120])
    if isinstance(exc, ssl.SSLCertVerificationError):
        why = getattr(exc, "verify_code", None)
        if why == 10:           # X509_V_ERR_CERT_HAS_EXPIRED
            return _("The server at {address} has a certificate that has expired, so this computer does "
                     "not trust it.").format(address=address)
        if why == 9:            # X509_V_ERR_CERT_NOT_YET_VALID
            return _("The server at {address} has a certificate that is not valid yet (is this computer's "
                     "clock right?), so this computer does not trust it.").format(address=address)
        if why == 62:           # X509_V_ERR_HOSTNAME_MISMATCH
            return _("The server at {address} has a certificate made out for another name, so this "
                     "computer does not trust it.").format(address=address)
        if why in (18, 19, 20, 21):     # self-signed, or signed by an authority nobody vouched for
            return _("The server at {address} has a certificate this computer does not trust: it is "
                     "self-signed, or from an authority this computer does not know.").format(address=address)
        return _("The server at {address} has a certificate this computer does not trust.").format(
            address=address)
    kind = os_error_kind(exc)
    if isinstance(exc, ssl.SSLError) or (kind == "reset" and address.lower().startswith("wss://")):
        # (a plain ws:// server cuts a TLS hello off: a reset)
        return _("The secure (wss://) connection to {address} failed. Does the server speak "
                 "wss://?").format(address=address)
    if wse is not None and isinstance(exc, wse.InvalidURI):
        if server:
            return _("That server address cannot be right: it looks like play.example.org:8765 "
                     "(or ws://… or wss://… in front).")
        return _("That address cannot be right: it looks like 192.168.1.20:8765.")
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if type(exc).__name__ == "InvalidStatus" and status == 503:
        return server_error_text("server_full", address=address)
    if (wse is not None and isinstance(exc, wse.WebSocketException)) or type(exc).__name__ in (
            "InvalidHandshake", "InvalidStatus", "InvalidMessage"):
        return _("Something answers at {address}, but not a Koi-Koi match server: check the address "
                 "and the port.").format(address=address)
    if isinstance(exc, ConnectionLost):
        return _("The connection to {address} closed before the server answered: try again.").format(
            address=address)
    if type(exc) is ConnectionError and "protocol" in str(exc):    # Connection.open: another version
        return _("The server at {address} runs another version of the game: it cannot play with this "
                 "one.").format(address=address)
    if kind == "refused":
        if server:
            return _("Nobody answers at {address}: check the address, and that the match server is "
                     "running.").format(address=address)
        return _("Nobody answers at {address}: check the address, and that the host's game is open.").format(
            address=address)
    if kind == "timeout":
        if server:
            return _("The connection to {address} timed out: check the address, and that the match "
                     "server is running.").format(address=address)
        return _("The connection to {address} timed out: check the address, and that the host's game "
                 "lets the local network join.").format(address=address)
    if kind == "unknown_host":
        return _("The address {address} cannot be found: check how it is spelled, and that this "
                 "computer is online.").format(address=address)
    if kind == "unreachable":
        return _("This computer cannot reach {address}: check its network connection.").format(
            address=address)
    if kind == "denied":
        return _("This computer does not let the game connect to {address}: a firewall or security "
                 "setting may block it.").format(address=address)
    if kind == "reset":
        return _("The connection to {address} was cut off: check the address, then try again.").format(
            address=address)
    if isinstance(exc, OSError):
        return _("The connection to {address} failed: check the address, and this computer's network "
                 "connection.").format(address=address)
    return _("The connection to {address} failed (see the log).").format(address=address)


def _claim_failure_text(exc: BaseException) -> str:
    """What the toast says when the claim of a match was refused or failed."""
    if isinstance(exc, ServerError):
        said = server_error_text(exc.code)
        if exc.code == "cannot_claim":
            return said
        if said is not None:
            return _("The match could not be claimed. {reason}").format(reason=said)
        return _("The match could not be claimed: {reason}").format(reason=exc.message[:120])
    if isinstance(exc, (ConnectionError, TimeoutError)) or os_error_kind(exc) is not None:
        return _("The match could not be claimed: the connection to the server dropped. Try again "
                 "once it is back.")
    return _("The match could not be claimed (see the log).")

# ------------------------------------------------------------------ the screens before the table

def unavailable_text(worker) -> str:
    """Why the local network cannot be searched or announced on, as the screens say it
    (``worker.problem``, a code of ``net.discovery.PROBLEMS``; its raw ``reason`` is logged)."""
    problem = getattr(worker, "problem", None)
    if problem is None and worker.reason == NOT_INSTALLED:
        problem = "not_installed"
    if problem == "not_installed":
        return _("Local network search unavailable: zeroconf is not installed.")
    if problem == "denied":
        return _("Local network search unavailable: this computer does not let the game use the local "
                 "network.")
    if problem == "in_use":
        return _("Local network search unavailable: another program holds the network port it needs.")
    if problem == "no_network":
        return _("Local network search unavailable: this computer is not on a network.")
    return _("Local network search unavailable: it could not start on this computer's network (see the "
             "log).")


def seat_store(app):
    """The seats file of ``app``'s data folder (None without a storage). A second window
    of the game (read-only storage) keeps its own seats there too: they are this
    player's, and the file is read again before each whole, atomic write."""
    storage = getattr(app, "storage", None)
    folder = getattr(storage, "data_dir", None)
    if folder is None:
        return None
    return SeatStore(folder)


# ------------------------------------------------------------------ one match over the network

class OnlineMatch:
    """A client (and, hosting, a server) for one online match; see the module docstring.

    ``stage``: connecting, entering (creating or joining the room), open (the host
    waits for a player), playing (the table is shown), failed (``error`` says why),
    closed."""

    AGAIN = ()         # the scenes "New match" on the results opens after Play online

    def __init__(self, app, url: str, *, hosted: Optional[HostedServer] = None, address: str = ""):
        self.app = app
        self.url = url
        self.hosted = hosted
        self.address = address or url
        self.seats = seat_store(app)       # where the seat's token is kept (None: nowhere)
        self.resuming = None               # the stored Seat being taken back (resume)
        self.stale = False                 # the server no longer knows the seat being resumed
        self.rules_label = ""
        self.room_code: Optional[str] = None   # the room being joined or taken back (for messages)
        self.on_server = False             # host() on a match server elsewhere (no HostedServer)
        self._saved = None                 # the Seat saved for this match, once granted
        self._forgotten = False            # the seat was dropped (over or left): never saved again
        self.client = ThreadedClient(url, reconnect_for=RECONNECT_FOR)
        self.session = NetSession(self.client, you=_("You"))
        self.stage = "connecting"
        self.error: Optional[str] = None
        self._future = self.client.connect()
        self._then = None
        self.link_scene: Optional["LinkScene"] = None
        self.keep_waiting = False          # the player chose Keep waiting for this absence
        self._claim_seen = False           # the claim question was asked for this absence
        self._claim_future = None
        self.closer = None
        self._record_refused = False       # the refused record was reported
        self.messages: list = []           # every message polled (tests read it)
        app.tickers.append(self.tick)

    # ---------------------------------------------------------- starting
    def host(self, rules: dict, months, name: str, spectators: bool = False, *, label: str = "") -> "OnlineMatch":
        self.rules_label = label or str(rules.get("preset", ""))
        self.on_server = self.hosted is None      # a room on a match server elsewhere
        self._then = lambda: self.client.create_room(rules, months=months, name=name, spectators=spectators)
        return self

    def join(self, code: str, name: str) -> "OnlineMatch":
        self.room_code = code
        self._then = lambda: self.client.join(code, name)
        return self

    def resume(self, seat) -> "OnlineMatch":
        """Take back the stored ``seat`` (a ``net.seats.Seat``) with its token: the server
        sends every event again, and the table opens at the exact position."""
        self.resuming = seat
        self.room_code = seat.room
        self.rules_label = seat.rules
        self._then = lambda: self.client.reconnect(seat.room, seat.token)
        return self

    # ---------------------------------------------------------- the seat kept on disk
    def seat_address(self) -> str:
        """The address the seat is stored under: the hosted server's own, else the typed one."""
        if self.hosted is not None:
            return f"127.0.0.1:{self.hosted.port}"
        return self.address

    def remember(self) -> None:
        """Save (or refresh) this match's seat and token in the seats file."""
        st = self.client.state
        if self.seats is None or st.role != "player" or st.seat not in (0, 1) or not st.token or not st.room:
            return
        if self._forgotten or (self.hosted is not None and getattr(self.app, "read_only", False)):
            return      # over or left; or hosted from a read-only window (its server's folder is temporary)
        old = self.resuming
        seat = Seat(room=st.room, address=self.seat_address(), seat=st.seat, token=st.token,
                    name=st.names[st.seat] or (old.name if old else "?"), hosted=self.hosted is not None,
                    port=self.hosted.port if self.hosted is not None else 0,
                    lan=bool(self.hosted is not None and self.hosted.lan), rules=self.rules_label,
                    opponent=st.names[1 - st.seat] or (old.opponent if old else ""))
        if self._saved is not None and self._saved.key != seat.key:
            self.seats.remove(self._saved.room, self._saved.address, self._saved.seat)
        elif self._saved is None and old is not None and old.key != seat.key:
            self.seats.remove(old.room, old.address, old.seat)      # resumed on another port
        if self._saved == seat:
            return
        if not self.seats.save(seat):
            log.warning("the seat of %s could not be kept: %s", st.room, self.seats.problem)
        self._saved = seat

    def forget(self) -> None:
        """Drop this match's seat from the seats file (over and filed, or left)."""
        if self._forgotten:
            return
        self._forgotten = True
        for gone in {s.key: s for s in (self._saved, self.resuming) if s is not None}.values():
            if self.seats is not None:
                self.seats.remove(gone.room, gone.address, gone.seat)
        self._saved = None

    @property
    def code(self) -> Optional[str]:
        return self.session.room

    def fail(self, text: str) -> None:
        self.stage, self.error = "failed", text
        log.info("online match failed: %s", text)

    # ---------------------------------------------------------- every frame
    def tick(self, dt: float) -> None:
        if self.stage == "closed":
            return
        self.messages += self.session.poll()
        self._file()
        f = self._future
        if f is not None and f.done():
            self._future = None
            exc = f.exception()
            if exc is not None and self.stage == "entering" and self.resuming is not None \
                    and getattr(exc, "code", None) in ("bad_token", "no_room"):
                self.stale = True
                self.forget()
                self.fail(server_error_text("bad_token", room=self.resuming.room))
            elif exc is not None:
                log.warning("online match (%s, %s): %s: %s", self.stage, self.address, type(exc).__name__,
                            str(exc)[:300])
                self.fail(_failure_text(exc, self.address, server=self.on_server, room=self.room_code))
            elif self.stage == "connecting" and self._then is not None:
                self.stage = "entering"
                self._future = self._then()
            elif self.stage == "entering":
                self.stage = "open"
                self.remember()
        if self.session.over is not None and (self.session.filing_tried or self.session.record_problem):
            self.forget()
        if self.stage == "open" and self.session.status == "playing" and self.session.events:
            self.open_table()
        elif self.stage in ("connecting", "entering", "open") and self.session.link == "lost":
            self.fail(_("The connection to the server was lost."))
        if not self._shown():          # the player left its screens (or they were never shown)
            self.close()
            return
        if self.stage == "playing":
            self._update_link_scene()
        if self._claim_future is not None and self._claim_future.done():
            exc = self._claim_future.exception()
            self._claim_future = None
            if exc is not None:
                log.warning("the claim of %s failed: %s: %s", self.code, type(exc).__name__, str(exc)[:300])
                self.app.toast(_claim_failure_text(exc), 5.0, "warning")

    def _shown(self) -> bool:
        """Whether a screen on the stack still shows this match."""
        for s in self.app.scenes:
            if getattr(s, "match", None) is self or getattr(s, "session", None) is self.session:
                return True
        return False

    def open_table(self) -> None:
        self.stage = "playing"
        self.remember()                 # the other player's name is known now
        self.app.reset(table_scene(self.app, self))

    # ---------------------------------------------------------- trouble on the line
    def trouble(self) -> Optional[str]:
        """What the link scene shows now: forfeit, lost, reconnecting, waiting or None."""
        s = self.session
        over = s.over
        if over is not None and over.get("reason") == "forfeit":
            return "forfeit"
        if s.table.is_over or over is not None:
            return None
        if s.link == "lost":
            return "lost"
        if s.link == "reconnecting":
            return "reconnecting"
        if s.waiting_for() is not None:
            return "waiting"
        return None

    def _update_link_scene(self) -> None:
        mode = self.trouble()
        if mode != "waiting":
            self.keep_waiting = False
            self._claim_seen = False
        else:
            w = self.session.waiting_for()
            claimable = w is not None and w[2] is not None and w[2] <= 0
            if claimable and not self._claim_seen:
                self._claim_seen = True
                self.keep_waiting = False     # the question is asked once the claim is open
        scene = self.link_scene
        on_stack = scene is not None and scene in self.app.scenes
        if mode is None:
            if on_stack:
                self.app.remove(scene)
            self.link_scene = None
            return
        if not on_stack:
            scene = self.link_scene = LinkScene(self.app, self)
            self.app.push(scene)
        elif scene is not self.app.top and mode != "waiting":
            # something opened over it (a pause menu): the trouble goes on top again
            self.app.remove(scene)
            self.app.push(scene)
        scene.set_mode(mode)

    def claim(self) -> None:
        if self._claim_future is None:
            self._claim_future = self.session.claim()

    # ---------------------------------------------------------- the end
    def _file(self) -> None:
        """File the ended match in the history once the server's record of it has come
        (both players file the same log); say so once if the record was refused."""
        s = self.session
        if s.record is not None and not s.filing_tried:
            storage = getattr(self.app, "storage", None)
            path = s.file(storage)
            if path is None and getattr(storage, "read_only", False):
                log.info("read-only window: online match %s not filed", s.record.match_id)
            elif path is None:
                self.app.toast(_("The online match could not be saved to the history (see the log)."),
                               6.0, "warning")
            else:
                log.info("online match %s filed as %s", s.record.match_id, path)
        elif s.record_problem is not None and not self._record_refused:
            self._record_refused = True
            self.app.toast(_("The server's record of this match does not agree with what was played "
                             "here, so it was not saved to the history."), 8.0, "warning")

    def close(self, *, leave: bool = True, forget: Optional[bool] = None) -> None:
        """Leave the room (``leave``), close the connection and stop a hosted server (on a
        thread of its own: the frame never waits). ``wait`` for it with ``join``. The
        stored seat is dropped when the match is over or ``forget`` (default: ``leave``);
        kept, the game started again takes the seat back."""
        if self.stage == "closed":
            return
        try:                # a record that came with the last messages is filed before leaving
            self.messages += self.session.poll()
            self._file()
        except Exception:
            log.exception("could not file the online match")
        try:
            if self.session.over is not None or (leave if forget is None else forget):
                self.forget()
        except Exception:
            log.exception("could not drop the stored seat")
        self.stage = "closed"
        if self.tick in self.app.tickers:
            self.app.tickers.remove(self.tick)
        if self.link_scene is not None and self.link_scene in self.app.scenes:
            self.app.remove(self.link_scene)
        self.link_scene = None
        client, hosted = self.client, self.hosted
        playing = self.session.status in ("open", "playing") and self.session.over is None

        def work():
            try:
                if leave and playing and client.connected:
                    client.leave().result(2.0)
            except Exception:
                pass
            client.close(2.0)
            if hosted is not None:
                hosted.stop(10.0)
        self.closer = threading.Thread(target=work, name="koikoi-online-close", daemon=True)
        self.closer.start()

    def quit_keeping_seat(self) -> None:
        """The game is quitting: close without leaving the room (the seat is kept, so the game
        started again takes it back), waiting a little for the goodbye to go out."""
        self.close(leave=False)
        self.join_closed(3.0)

    def join_closed(self, timeout: float = 15.0) -> bool:
        if self.closer is not None:
            self.closer.join(timeout)
            return not self.closer.is_alive()
        return True

