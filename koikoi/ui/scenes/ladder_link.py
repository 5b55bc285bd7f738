"""A match server's ladder as the Leaderboard and Profile screens read it: ``LadderLink``
connects, identifies with the player key of the data folder (``koikoi.ladder.identity``:
made on first use, 0600) and asks for ``board`` and ``profile`` answers, polled once a
frame (nothing blocks a frame). ``ladder_error_text`` says a ladder refusal in the
player's words; the screens share ``ladder_address`` (the match server typed last)."""

from __future__ import annotations

import logging
import threading
from typing import Optional

from ...net.client import ServerError, ThreadedClient
from ...i18n import N_, _
from .online_table import PREFS, _failure_text, load_prefs

log = logging.getLogger("koikoi.ladder_ui")

# the refusals of a server without a ladder (an older server, or one run without it)
NO_LADDER = ("bad_type", "unknown_type")


# the sentence for each of the ladder's refusals (by its code), translated when shown
_KEY_REFUSED = N_("The server does not accept this computer's player key: use a key copied from your other "
                  "computer, or ask the server's operator.")
LADDER_REFUSALS = {
    "bad_name": N_("The server does not accept that name: at most 20 characters, without control or invisible "
                   "characters."),
    "bad_key": _KEY_REFUSED,
    "other_key": _KEY_REFUSED,
    "key_replaced": N_("This player key was replaced by a new one: use the new key (Profile, Use a key)."),
    "too_many_profiles": N_("Too many new players came from this computer's address in the last hour: try again "
                            "later."),
    "ladder_unavailable": N_("The match server's ladder is not answering just now: try again in a moment."),
    "rate_limited": N_("Too many requests went to the server too fast: wait a moment, then try again."),
    "no_player": N_("The server knows no player with that id."),
    "not_queued": N_("You were no longer waiting: a match may have been found just now."),
}


def ladder_error_text(exc: BaseException, address: str) -> str:
    """The sentence for a failed ladder request (the raw text goes to the log only)."""
    code = getattr(exc, "code", None) if isinstance(exc, ServerError) else None
    if code in NO_LADDER:
        return _("The match server at {address} does not offer quick match: it runs an older version, or "
                 "without the ladder.").format(address=address)
    text = LADDER_REFUSALS.get(code)
    if text is not None:
        return _(text)
    return _failure_text(exc, address, server=True)


def ladder_address(app) -> str:
    """The match server typed last (Host a match's "A match server", or Quick match)."""
    load_prefs(app)
    return (PREFS.get("server") or "").strip()


def answer_rows(answer: dict, key: str) -> list:
    """The rows (dicts) an answer lists under ``key``; none for anything else there."""
    rows = answer.get(key)
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


def player_folder(app):
    """Where the player key is kept: the game's data folder (None: the default one)."""
    return getattr(getattr(app, "storage", None), "data_dir", None)


class LadderLink:
    """One connection to a match server's ladder for the reading screens.

    ``stage``: connecting, identifying, ready, failed (``error`` says why). ``me`` is
    this player's profile (identify's answer). ``ask(kind, *args)`` sends ``board`` or
    ``profile`` once ready; ``answers[kind]`` holds the latest answer, ``problems[kind]``
    the sentence for a refused one. ``tick()`` once a frame; ``close()`` when done."""

    def __init__(self, app, url: str, address: str, name: str):
        self.address = address
        self.client = ThreadedClient(url, auto_reconnect=False)
        self.stage = "connecting"
        self.error: Optional[str] = None
        self.me: Optional[dict] = None
        self.answers: dict = {}
        self.problems: dict = {}
        self._name = name
        self._folder = player_folder(app)
        self._future = self.client.connect()
        self._asked: dict = {}               # kind -> (future, args)
        self._later: dict = {}               # kind -> args, asked before ready

    @property
    def busy(self) -> bool:
        return self.stage in ("connecting", "identifying") or bool(self._asked)

    def ask(self, kind: str, *args) -> None:
        if self.stage == "ready":
            self._asked[kind] = getattr(self.client, kind)(*args)
        elif self.stage != "failed":
            self._later[kind] = args

    def tick(self) -> None:
        f = self._future
        if f is not None and f.done():
            self._future = None
            exc = f.exception()
            if exc is not None:
                log.warning("ladder link (%s, %s): %s: %s", self.stage, self.address, type(exc).__name__,
                            str(exc)[:300])
                self.stage, self.error = "failed", ladder_error_text(exc, self.address)
            elif self.stage == "connecting":
                self.stage = "identifying"
                try:
                    self._future = self.client.identify(self._name, folder=self._folder)
                except OSError as exc:          # the data folder cannot hold the key
                    log.warning("the player key could not be read or made: %s", exc)
                    self.stage = "failed"
                    self.error = _("The player key could not be kept in the game's data folder (see the log).")
            else:
                self.me = f.result()
                self.stage = "ready"
                for kind, args in self._later.items():
                    self.ask(kind, *args)
                self._later = {}
        for kind, fut in list(self._asked.items()):
            if not fut.done():
                continue
            del self._asked[kind]
            exc = fut.exception()
            if exc is None:
                self.answers[kind] = fut.result()
                self.problems.pop(kind, None)
                if kind == "profile" and self.answers[kind].get("you"):
                    self.me = self.answers[kind]
            else:
                log.info("ladder %s refused: %s", kind, exc)
                self.problems[kind] = ladder_error_text(exc, self.address)

    def close(self) -> None:
        threading.Thread(target=self.client.close, args=(2.0,), name="koikoi-ladder-close", daemon=True).start()


class LinkScreen:
    """What the Leaderboard and Profile screens share (mixed in before MenuScene): the
    link (``self.link``, theirs to close when ``own_link``) and ``self.table`` get the
    events after the buttons, the screen animates while an answer is awaited."""

    link = None
    own_link = False
    _shown = None                  # the answer the screen shows now

    def current_answer(self) -> Optional[dict]:
        """The link's answer this screen shows (None while there is none)."""
        raise NotImplementedError

    def show_answer(self, answer: dict) -> None:
        """Take a new answer in (its rows into ``self.table``)."""
        raise NotImplementedError

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.link is None:
            return
        self.link.tick()
        got = self.current_answer()
        if got is not None and got is not self._shown:
            self._shown = got
            self.show_answer(got)

    def handle(self, event) -> bool:
        return super().handle(event) or self.table.handle(event)

    @property
    def animating(self) -> bool:
        return super().animating or (self.link is not None and self.link.busy)

    def _close_link(self) -> None:
        if self.own_link and self.link is not None:
            self.link.close()

    def exit(self) -> None:
        self._close_link()
        super().exit()

    def on_quit(self) -> None:
        self._close_link()


class FixedLink:
    """A ``LadderLink`` that answers from given data (screenshots, tests)."""

    def __init__(self, me: dict, board: Optional[dict] = None, profiles: Optional[dict] = None,
                 address: str = "play.example.org:8765"):
        self.address = address
        self.stage = "ready"
        self.error = None
        self.me = me
        self.busy = False
        self.answers: dict = {}
        self.problems: dict = {}
        self._board = board or {"rows": [], "you": None, "total": 0}
        self._profiles = profiles or {}
        self.asked: list = []

    def ask(self, kind: str, *args) -> None:
        self.asked.append((kind, args))
        if kind == "board":
            self.answers["board"] = dict(self._board, type="board")
        elif kind == "profile":
            who = args[0] if args else None
            if who is None or who == self.me.get("id"):
                self.answers["profile"] = dict(self.me, you=True)
            elif who in self._profiles:
                self.answers["profile"] = dict(self._profiles[who], you=False)
            else:
                self.problems["profile"] = _("The server knows no player with that id.")

    def tick(self) -> None:
        pass

    def close(self) -> None:
        pass
