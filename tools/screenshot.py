"""Render one scene of the game headlessly to a PNG.

    python tools/screenshot.py --scene title --seed 7 --size 1280x720 --out title.png

Scenes: title oyagime round koikoi results ledger (and newmatch settings
history howto pause stats; unfinished: the question before a new match
replaces a saved one; saved: matches kept for later; title-saved: the title
with a saved match and kept ones; review: the replay viewer with a finished review of the
match marked, on a mistake; review-progress: the review running, its progress bar; replay: the
replay viewer; rules: the rules panel over the table; houserules: House rules over New match;
keys, inspector (the CPU's captures), curtain (a friend match's hand-over), confirm (abandoning a
kept match), unavailable (the table could not be opened); learn, lesson (the coach on the table),
lesson-pause, puzzle (from a reviewed match); online, online-host, online-join (the forms),
online-wait (hosting, waiting for a friend), online-oyagime, online-pause and online-link (a
friend's connection gone) on a match hosted on 127.0.0.1 with a second player in this process).
The match scenes are reached by really playing: both seats
are driven with the engine's legal actions (random / easy CPU moves) through
``session.apply``, so every picture shows a state the rules can produce.
Nothing is written to the player's settings: the tool runs with a throwaway
KOIKOI_HOME unless --home is given.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

SCENES = ("title", "oyagime", "round", "choose", "koikoi", "results", "ledger",
          "newmatch", "settings", "history", "howto", "pause", "unfinished", "saved", "title-saved", "stats",
          "review", "review-progress", "replay", "rules", "houserules", "keys", "inspector", "curtain",
          "confirm", "unavailable", "learn", "lesson", "lesson-pause", "puzzle", "online", "online-host",
          "online-join", "online-wait", "online-oyagime", "online-pause", "online-link")
NET_LIMIT = 20.0          # seconds any wait for the online scenes' server on 127.0.0.1 may take
REVIEW_BUDGET = 120       # playouts per option of the "review" scene's analysis (a few seconds)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = text.lower().split("x")
        return int(w), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not {text!r}") from None


def _session(seed: int, *, rules: str = "casual", months=None, level: str = "easy"):
    from koikoi.engine import RULESETS
    from koikoi.session import MatchSession, SeatConfig
    from koikoi.storage import level_available
    lvl = level if level_available(level) else "random"
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", f"CPU ({level.title()})", lvl))
    return MatchSession(RULESETS[rules], seed=seed, months=months, seats=seats)


def _drivers(seed: int):
    from koikoi.ai import make_player
    return [make_player("random", seed=seed * 7 + 1), make_player("random", seed=seed * 7 + 2)]


def _move(session, players) -> list:
    seat = session.state.to_move
    action = players[seat].choose(session.view(seat), session.legal())
    return session.apply(action)


def play_until(session, players, done, limit: int = 5000) -> bool:
    for _ in range(limit):
        if done(session):
            return True
        if session.state.is_over:
            return False
        _move(session, players)
    return done(session)


def _settle(app, frames: int = 40) -> None:
    for _ in range(frames):
        app.step(1 / 60)


def _step_until(app, cond, frames: int = 600) -> bool:
    """Step frames until ``cond()``, at most ``frames`` of them; the last ``cond()``."""
    for _ in range(frames):
        if cond():
            return True
        app.step(1 / 60)
    return cond()


def _round_scene(app, session):
    from koikoi.ui.scenes.oyagime import open_round
    scene = open_round(app, session, replace=True)
    return scene


def _before_seat0_wins(session, players):
    """Play on until seat 0's next action would win a round with yaku; that action."""
    from koikoi.engine import apply as engine_apply
    from koikoi.engine.events import RoundEnded
    for _ in range(20000):
        st = session.state
        if st.is_over:
            return None
        seat = st.to_move
        action = players[seat].choose(session.view(seat), session.legal())
        nxt = engine_apply(st, action)
        new = nxt.events[len(st.events):]
        if seat == 0 and any(isinstance(e, RoundEnded) and e.row.winner == 0 and e.row.yaku for e in new):
            return action
        session.state = nxt
    return None


def build(app, name: str, seed: int):
    """Put the scene ``name`` on the app's stack; returns a warning or None."""
    from koikoi.ui.scenes.title import HowToPlayScene, TitleScene
    warning = None
    if name == "title":
        app.reset(TitleScene(app))
    elif name == "howto":
        app.reset(TitleScene(app))
        app.push(HowToPlayScene(app))
    elif name == "newmatch":
        from koikoi.ui.scenes.newmatch import NewMatchScene
        app.reset(TitleScene(app))
        app.push(NewMatchScene(app))
    elif name == "settings":
        from koikoi.ui.scenes.settings import SettingsScene
        app.reset(TitleScene(app))
        app.push(SettingsScene(app))
    elif name in ("history", "stats"):
        from koikoi.ui.scenes.history import HistoryScene
        from koikoi.ui.scenes.stats import StatsScene
        for i in range(3):  # a few finished matches to list
            s = _session(seed + i, months=3 if i != 1 else 1)
            play_until(s, _drivers(seed + i), lambda x: x.state.is_over)
            app.storage.file_match(s)
        for i, how in ((3, "conceded"), (4, "abandoned")):   # and the other two ways a match is filed
            s = _session(seed + i, months=6)
            play_until(s, _drivers(seed + i), lambda x: len(x.state.ledger) >= 2)
            if how == "conceded":
                app.storage.file_match(s, conceded=0)
            else:
                app.storage.file_match(s, abandoned=True)
        app.reset(TitleScene(app))
        app.push(HistoryScene(app) if name == "history" else StatsScene(app))
        app.storage.history_index.wait(60)
    elif name in ("unfinished", "saved", "title-saved"):
        from koikoi.ui.scenes.newmatch import NewMatchScene
        from koikoi.ui.scenes.saved import SavedMatchesScene, UnfinishedMatchScene
        for i in range(3 if name != "unfinished" else 1):   # matches left unfinished, all but the last kept
            s = _session(seed + i, months=6)
            play_until(s, _drivers(seed + i), lambda x: len(x.state.ledger) >= 1 + i)
            app.storage.save_autosave(s)
            if i < 2 and name != "unfinished":
                app.storage.keep_for_later()
        app.reset(TitleScene(app))
        if name == "unfinished":
            app.push(NewMatchScene(app))
            app.push(UnfinishedMatchScene(app, app.storage.load_autosave(), on_clear=lambda: None))
        elif name == "saved":
            app.push(SavedMatchesScene(app))
    elif name == "oyagime":
        from koikoi.ui.scenes.oyagime import OyagimeScene
        session = _session(seed)
        session.apply(session.legal()[seed % 2])      # you turn up a card...
        app.reset(OyagimeScene(app, session))
        _settle(app, 60)
        session.apply(session.legal()[0])             # ...and the CPU turns up one
    elif name == "round":
        session = _session(seed)
        players = _drivers(seed)
        play_until(session, players, lambda s: s.state.phase_name == "play" and s.state.to_move == 0
                   and 6 <= s.state.stock_pos <= 12 and len(s.view(0).field) >= 6)
        _round_scene(app, session)
    elif name == "choose":      # the stock card matches two field cards: the player picks one
        for attempt in range(8):
            session = _session(seed + 1000 * attempt)
            if play_until(session, _drivers(seed + 1000 * attempt),
                          lambda s: s.state.phase_name == "choose_match" and s.state.to_move == 0):
                break
        _round_scene(app, session)
    elif name == "pause":
        session = _session(seed)
        play_until(session, _drivers(seed), lambda s: s.state.phase_name == "play" and s.state.to_move == 0
                   and s.state.stock_pos >= 4)
        _round_scene(app, session)
        _settle(app)
        app.open_pause_menu()
    elif name == "koikoi":
        for attempt in range(6):   # a seed whose match never asks seat 0: try the next one
            session = _session(seed + 1000 * attempt)
            players = _drivers(seed + 1000 * attempt)
            ok = play_until(session, players, lambda s: s.state.phase_name == "decide" and s.state.to_move == 0)
            if ok:
                break
        if not ok:
            warning = "no Koi-Koi decision came up for this seed; showing the round"
        elif attempt:
            print(f"note: seat 0 had no Koi-Koi decision from seed {seed}; used seed {seed + 1000 * attempt}",
                  file=sys.stderr)
        _round_scene(app, session)
        _settle(app)
        if ok:
            try:
                from koikoi.ui.scenes.prompt import KoiKoiPromptScene
            except ImportError:
                warning = "koikoi.ui.scenes.prompt is not available yet; showing the round only"
            else:
                if not isinstance(app.top, KoiKoiPromptScene):   # the round scene opens it itself
                    app.push(KoiKoiPromptScene(app, session, 0, on_choice=lambda action: None))
    elif name == "results":
        from koikoi.engine.events import RoundEnded
        from koikoi.ui.scenes.results import RoundResultsScene
        final = None
        for attempt in range(6):   # a seed whose match has no such round: try the next one
            session = _session(seed + 1000 * attempt)
            players = _drivers(seed + 1000 * attempt)
            final = _before_seat0_wins(session, players)
            if final is not None:
                break
        if final is None:
            warning = f"seat 0 never won a round with yaku from seed {seed} on; showing the last round's end"
        elif attempt:
            print(f"note: seat 0 never won a round with yaku from seed {seed}; used seed {seed + 1000 * attempt}",
                  file=sys.stderr)
        _round_scene(app, session)
        _settle(app)
        if final is not None:
            session.apply(final)
        _settle(app, 240)
        if not isinstance(app.top, RoundResultsScene):
            ended = [e for e in session.state.events if isinstance(e, RoundEnded)][-1]
            while len(app.scenes) > 1 and not app.top.opaque:
                app.pop()
            app.push(RoundResultsScene(app, session, ended, on_close=app.pop))
    elif name == "ledger":
        from koikoi.ui.scenes.ledger import MatchResultsScene
        session = _session(seed, months=3)
        play_until(session, _drivers(seed), lambda s: s.state.is_over)
        app.reset(MatchResultsScene(app, session))
    elif name in ("review", "review-progress"):
        warning = _review(app, seed, running=name == "review-progress")
    elif name == "replay":
        from koikoi.ui.scenes.ledger import MatchResultsScene
        from koikoi.ui.scenes.replay import ReplayScene
        session = _session(seed, months=3)
        play_until(session, _drivers(seed), lambda s: s.state.is_over)
        app.reset(MatchResultsScene(app, session, from_history=True))
        app.push(ReplayScene(app, session, 1))
    elif name in ("rules", "keys", "inspector", "unavailable"):
        session = _session(seed)
        play_until(session, _drivers(seed), lambda s: s.state.phase_name == "play" and s.state.to_move == 0
                   and s.state.stock_pos >= 10 and any(s.view(0).captured[1]))
        scene = _round_scene(app, session)
        _settle(app)
        if name == "rules":
            app.open("rules_panel", session.rules, session.state.months)
        elif name == "keys":
            app.push_overlay("keys")
        elif name == "inspector":
            scene.open_inspector(1)
        else:
            app.open("unavailable", _tr("The card table could not be opened."),
                     "ImportError: cannot import name 'RoundScene'")
    elif name == "houserules":
        from koikoi.ui.scenes.newmatch import NewMatchScene
        app.reset(TitleScene(app))
        app.push(NewMatchScene(app))
        app.open("house_rules", "casual", {"months": 6})
    elif name == "curtain":
        from koikoi.session import MatchSession, SeatConfig
        from koikoi.engine import RULESETS
        session = MatchSession(RULESETS["casual"], seed=seed,
                               seats=(SeatConfig("human", "Aki"), SeatConfig("human", "Haru")))
        play_until(session, _drivers(seed), lambda s: s.state.phase_name == "play")
        scene = _round_scene(app, session)
        _settle(app)
        scene._push_overlay("curtain", _tr("{name}'s turn").format(name=scene.name(1)),
                            _tr("Pass the device, then click when ready"), on_ready=lambda: None)
    elif name == "confirm":
        build(app, "saved", seed)
        app.top.abandon(0)
    elif name == "learn":
        app.reset(TitleScene(app))
        app.open("learn")
    elif name in ("lesson", "lesson-pause"):
        app.reset(TitleScene(app))
        learn = app.open("learn")
        entry = next(e for e in learn.entries if e.id.startswith("05"))
        learn.start(entry)
        scene = app.top
        enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
        for _ in range(2):                      # past the welcome, to the step that points at cards
            _step_until(app, scene.waiting_for_next)
            scene.handle(enter)
        _step_until(app, lambda: scene.waiting_for_next() or scene.my_turn())
        if name == "lesson-pause":
            scene.pause()
    elif name == "puzzle":
        warning = _puzzle(app, seed)
    elif name.startswith("online"):
        warning = _online(app, name, seed)
    else:
        raise ValueError(f"unknown scene {name!r}")
    return warning


def _review(app, seed: int, *, running: bool):
    """The replay viewer of a finished 3-month match with its review: analysed here (and
    cached with the match, so the viewer loads it as it would a review made before) and
    shown on the round with the most mistakes, at its first mistake; or running in its background
    process, caught once its progress bar has moved."""
    import time
    from koikoi.review import analyse_match, save_cached
    from koikoi.ui.scenes import review_panel as RP
    from koikoi.ui.scenes.ledger import MatchResultsScene
    from koikoi.ui.scenes.replay import ReplayScene
    session = _session(seed, months=3)
    play_until(session, _drivers(seed), lambda s: s.state.is_over)
    app.reset(MatchResultsScene(app, session, from_history=True))
    if running:
        scene = ReplayScene(app, session, 1)           # the analysis' own budget: long enough to catch
        app.push(scene)
        scene.start_review()
        state = scene.review
        t0 = time.monotonic()
        while state.running and state.progress < 0.12 and time.monotonic() - t0 < 60:
            app.step(1 / 60)
            time.sleep(0.02)
        if not state.running:
            return f"the review was not running any more: {state.error or 'finished already'}"
        return None
    seats = RP.review_seats(session)
    review = analyse_match(session.state.events, seats, match_id=session.id, budget=REVIEW_BUDGET,
                           opponent=RP.opponent_words(session, seats), style=RP.style_of(app.settings))
    save_cached(app.storage.history_dir, review)
    best = max(review.rounds, key=lambda r: (r.mistakes, r.inaccuracies, r.points_lost))
    scene = ReplayScene(app, session, best.round)
    app.push(scene)
    scene.review.budget = REVIEW_BUDGET               # the cache's: the viewer loads it
    scene.start_review()
    if not scene.reviewed:
        return f"the review did not load: {scene.review.error}"
    for _ in range(40):                               # on to its first mistake (past the inaccuracies)
        scene.jump_error(1)
        d = scene.decision()
        if d is None or d.verdict == "mistake" or scene.round_no != best.round:
            break
    return None


def _tr(text: str) -> str:
    from koikoi.i18n import _
    return _(text)


def _puzzle(app, seed: int):
    """The puzzle screen on the first puzzle made from a reviewed two-month match (Easy at
    seat 0 against Medium, filed with its review as the ledger's Review would)."""
    from koikoi.ai import make_player
    from koikoi.engine import RULESETS, apply, legal_actions, new_match, view
    from koikoi.review import analyse_match, save_cached
    from koikoi.session import MatchSession, SeatConfig
    from koikoi.ui.scenes import review_panel as RP
    from koikoi.ui.scenes.title import TitleScene
    for attempt in range(6):
        s_seed = seed + 5 + attempt
        st = new_match(RULESETS["nintendo"], seed=s_seed, months=2)
        players = [make_player("easy", seed=s_seed), make_player("medium", seed=s_seed + 100)]
        while not st.is_over:
            st = apply(st, players[st.to_move].choose(view(st, st.to_move), legal_actions(st)))
        session = MatchSession(st.rules, seed=s_seed, state=st,
                               seats=(SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Medium)", "medium")))
        app.storage.file_match(session)
        review = analyse_match(st.events, (0,), match_id=session.id, budget=REVIEW_BUDGET,
                               opponent=RP.opponent_words(session, (0,)), style=RP.style_of(app.settings))
        save_cached(app.storage.history_dir, review)
        app.reset(TitleScene(app))
        learn = app.open("learn")
        if learn.puzzles:
            learn.open_puzzles()
            return None
    return "no puzzle came from six reviewed matches; showing Learn"


def _online(app, name: str, seed: int):
    """The online screens. The forms open as from the title; the rest host a match through
    the Host screen (its server on 127.0.0.1, port 0) with a second player joining from this
    process, every wait bounded by NET_LIMIT seconds."""
    import time
    from koikoi.ui.scenes.title import TitleScene
    app.reset(TitleScene(app))
    if name in ("online", "online-host", "online-join"):
        app.open({"online": "online", "online-host": "online_host", "online-join": "online_join"}[name])
        return None
    from koikoi.net.client import ThreadedClient
    from koikoi.ui.scenes import online as O
    from koikoi.ui.scenes import online_table as OT
    # the Host screen's choices as a new player has them (this process may have made others)
    O.PREFS.update(OT.PREF_DEFAULTS)

    def wait(cond) -> bool:
        deadline = time.monotonic() + NET_LIMIT
        while not cond() and time.monotonic() < deadline:
            app.step(1 / 60)
            time.sleep(0.005)
        return cond()
    host = app.open("online_host")
    host.name_field.text = "Aki"
    host.start()
    if not wait(lambda: host.match is not None and host.match.code is not None):
        return f"the hosted match did not open: {host.error}"
    if name == "online-wait":
        return None
    guest = ThreadedClient(host.match.hosted.url, auto_reconnect=False)
    app.extra_clients = getattr(app, "extra_clients", []) + [guest]
    guest.connect().result(NET_LIMIT)
    guest.join(host.match.code, "Haru").result(NET_LIMIT)
    if not wait(lambda: isinstance(app.top, O.OnlineOyagimeScene)):
        return "the table did not open for the host"
    if name == "online-pause":
        app.push_overlay("online_pause", app.top.match)
    elif name == "online-link":
        guest.close(2.0)
        if not wait(lambda: isinstance(app.top, O.LinkScene)):
            return "the host did not notice the friend's connection going"
    return None


def _stop_reviews(app) -> None:
    """End what a picture caught running: a review's background process, an online match
    (its connections and the server on 127.0.0.1), the second player's client."""
    from koikoi.ui.scenes.replay import ReplayScene
    matches = []
    for scene in app.scenes:
        if isinstance(scene, ReplayScene) and scene.review is not None:
            scene.review.cancel()
        m = getattr(scene, "match", None)
        if m is not None and hasattr(m, "join_closed") and m not in matches:
            matches.append(m)
    for m in matches:
        m.close()
    for m in matches:
        m.join_closed(15.0)
    for c in getattr(app, "extra_clients", []):
        c.close(2.0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", required=True, choices=SCENES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=_size, default=(1280, 720))
    parser.add_argument("--out", required=True)
    parser.add_argument("--frames", type=int, default=90, help="frames to step before the capture")
    parser.add_argument("--home", help="use this KOIKOI_HOME (default: a temporary folder)")
    parser.add_argument("--lang", default="en", help="the language to render in (en, ja)")
    args = parser.parse_args(argv)
    home = args.home or tempfile.mkdtemp(prefix="koikoi-shot-")
    os.environ["KOIKOI_HOME"] = home
    from koikoi.storage import Storage
    from koikoi.ui.app import App
    app = App(args.size, storage=Storage(Path(home)), seed=args.seed, lang=args.lang)
    app.settings["anim_speed"] = 0.0      # settle every animation at once
    warning = build(app, args.scene, args.seed)
    _settle(app, args.frames)
    app.draw()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(app.screen, str(out))
    _stop_reviews(app)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"wrote {out} ({args.size[0]}x{args.size[1]}, scene {args.scene}, seed {args.seed})")
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
