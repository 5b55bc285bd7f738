"""Start the game: ``python -m koikoi`` (or the ``koikoi`` command).

    python -m koikoi --size 1920x1080
    python -m koikoi --fullscreen
    python -m koikoi --frames 30        # run 30 frames and exit 0 (a smoke test)
    python -m koikoi --install-shortcut # a menu / desktop icon (no window opens)
    python -m koikoi --uninstall-shortcut
    python -m koikoi serve --port 8765  # a match server for online play (koikoi.net.cli)
    python -m koikoi --host             # the Host a match screen (a server inside the game)
    python -m koikoi --host --server play.example.org:8765   # ... creating the room on that match server
    python -m koikoi --join 192.168.1.20:8765/KOI-4821 [--name Haru]   # join that room at once
    python -m koikoi --lang ja          # play in Japanese this time (the Language setting is kept)

Logging goes to the rotating log file (koikoi.logsetup), the game runs under
the crash guard (koikoi.crash), and a second copy started while one is open
plays without saving (koikoi.instance_lock).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Optional, Sequence

from . import __version__


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(n) for n in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x720, not {text!r}") from None
    if not (320 <= w <= 16384 and 240 <= h <= 16384):
        raise argparse.ArgumentTypeError(f"window size {w}x{h} is out of range (320x240 to 16384x16384)")
    return w, h


def _nonneg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, not {n}")
    if n >= 2 ** 63:      # a match log keeps its seed; the log reader accepts seeds of this size
        raise argparse.ArgumentTypeError(f"expected a number below 2**63, not {text[:30]}")
    return n


def _lang(text: str) -> str:
    from . import i18n  # start-up time: measured 46 ms, which --version, --help and serve do without
    code = i18n.normalize(text)
    have = i18n.available()
    if code not in have:
        raise argparse.ArgumentTypeError(f"unknown language {text[:20]!r} (have: {', '.join(have)})")
    return code


LANGUAGE_NAMES = {"ja": "Japanese", "en": "English"}    # for the message below (said in English)


def apply_language(code: Optional[str]) -> str:
    """--lang: switch to ``code`` if its catalog is complete; otherwise say so and stay English.

    A given --lang wins over the Language setting for this run only (it is never saved):
    ``main`` hands the language returned here to the App (``App(lang=...)``). Without
    --lang (``code`` None) nothing changes and the App applies the setting."""
    from . import i18n  # start-up time: measured 46 ms, which --version, --help and serve do without
    if not code:
        return i18n.language()
    if code == i18n.SOURCE_LANGUAGE:
        used = i18n.set_language(i18n.SOURCE_LANGUAGE)
    elif i18n.catalog(code).problem:
        print(f"koikoi: the {LANGUAGE_NAMES.get(code, code)} catalog cannot be read "
              f"({i18n.catalog(code).problem}); playing in English", file=sys.stderr)
        used = i18n.set_language(i18n.SOURCE_LANGUAGE)
    elif not i18n.is_complete(code):
        st = i18n.completion(code) or {"percent": 0.0}
        print(f"koikoi: the {LANGUAGE_NAMES.get(code, code)} translation is not complete yet "
              f"({int(st['percent'])}% translated); playing in English", file=sys.stderr)
        used = i18n.set_language(i18n.SOURCE_LANGUAGE)
    else:
        used = i18n.set_language(code)
    return used


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    from .net.options import Parser, add_online, check_online  # start-up time: measured 128 ms, not for serve
    p = Parser(prog="koikoi", description="Koi-Koi, the hanafuda card game.",
                epilog="koikoi serve [--host H] [--port P] [--data DIR] runs a match server for "
                       "online play instead (see koikoi serve --help).")
    p.add_argument("--size", type=_size, metavar="WxH", help="window size, e.g. 1280x720")
    p.add_argument("--fullscreen", action="store_true", help="start in fullscreen (F11 toggles)")
    p.add_argument("--seed", type=_nonneg, metavar="N", help="deal every new match from this seed")
    p.add_argument("--frames", type=_nonneg, metavar="N", help="run N frames, then exit (a smoke test)")
    p.add_argument("--check", action="store_true",
                   help="check that the game's data files (art, lessons, tables) are installed, then exit")
    p.add_argument("--reset-settings", action="store_true", help="forget saved settings before starting")
    sc = p.add_mutually_exclusive_group()
    sc.add_argument("--install-shortcut", action="store_true",
                    help="add Koi-Koi to the applications menu and the desktop, then exit")
    sc.add_argument("--uninstall-shortcut", action="store_true",
                    help="remove the shortcuts --install-shortcut made, then exit")
    add_online(p)           # --host / --join, --server, --name: koikoi.net.options, as koikoi serve's
    p.add_argument("--lang", type=_lang, metavar="ja|en",
                   help="the language of the game this time, over the Language setting "
                        "(English while a translation is incomplete)")
    p.add_argument("--version", action="version", version=f"koikoi {__version__}")
    args = p.parse_args(argv)
    check_online(p, args)
    return args


def _shortcut(install: bool) -> int:
    """--install-shortcut / --uninstall-shortcut: no window, no pygame."""
    from . import launcher  # start-up time: measured 82 ms, which serve and --check do without
    try:
        if install:
            launcher.install_shortcut()
        else:
            launcher.uninstall_shortcut()
    except OSError as exc:
        verb = "install" if install else "remove"
        print(f"koikoi: could not {verb} the shortcut: {exc}", file=sys.stderr)
        return 1
    return 0


def open_online(app, args: argparse.Namespace) -> None:
    """--host / --join: the online screens over the title (Escape goes back to it).
    --name alone is the name every online screen starts with this run (Quick match too)."""
    if args.host or args.join or args.name:
        from .ui.scenes.online import PREFS, load_prefs  # start-up time: measured 246 ms, only --host, --join, --name
        load_prefs(app)                # the remembered fields first: --name overrides them
        if args.name:
            PREFS["name"] = args.name
    if args.host:
        app.open("online_host", server=args.server)
    elif args.join:
        app.open("online_join", args.join, player=args.name, auto=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    rest = list(sys.argv[1:] if argv is None else argv)
    if rest[:1] == ["serve"]:          # the match server: no window, no pygame
        from .net.cli import main as serve  # start-up time: measured 220 ms, only serve
        return serve(rest[1:])
    args = parse_args(argv)
    if args.install_shortcut or args.uninstall_shortcut:
        return _shortcut(bool(args.install_shortcut))
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.check:                     # no window, no writes
        from .selfcheck import run  # start-up time: measured 26 ms, only --check
        return run()
    lang = apply_language(args.lang) if args.lang else None     # None: the Language setting
    from .crash import install_excepthook, run_guarded  # start-up time: measured 58 ms, not for serve or --check
    from .instance_lock import InstanceLock  # start-up time: measured 36 ms, as crash above
    from .logsetup import setup_logging  # start-up time: measured 58 ms, as crash above
    from .storage import Storage, path_problem  # start-up time: measured 133 ms, as crash above
    storage = Storage()
    problem = path_problem(storage.config_dir, storage.data_dir, storage.log_dir)
    if problem:
        print(f"koikoi: {problem}", file=sys.stderr)
        return 2
    log_path = setup_logging(storage.log_dir)
    install_excepthook(log_path)
    log = logging.getLogger("koikoi")

    # One writer at a time: a second window plays but never saves.
    lock = InstanceLock(storage.data_dir)
    read_only = not lock.acquire()
    if read_only:
        log.warning("another Koi-Koi (PID %s) is running: this window will not save",
                    lock.holder_pid)
    if args.reset_settings:
        if read_only:
            print("koikoi: Koi-Koi is open in another window; the settings were not reset",
                  file=sys.stderr)
        else:
            try:
                kept = storage.reset_settings()      # kept aside, never deleted
                if kept is not None:
                    print(f"koikoi: settings reset; the old ones are kept in {kept}", file=sys.stderr)
            except OSError as exc:
                print(f"koikoi: cannot reset the settings in {storage.settings_path}: {exc}", file=sys.stderr)

    def play() -> int:
        from .launcher import set_window_class  # start-up time: measured 82 ms, only the window and the shortcuts
        set_window_class()          # the window groups under the menu shortcut
        import pygame  # start-up time: measured 62 ms, only the window
        from .ui.app import App  # start-up time: measured 107 ms after pygame, only the window
        from .ui.scenes.title import TitleScene  # start-up time: measured 155 ms, only the window
        try:
            app = App(args.size, fullscreen=args.fullscreen, storage=storage, seed=args.seed,
                      read_only=read_only, lang=lang)
        except pygame.error as exc:
            print(f"koikoi: cannot open a window: {exc}", file=sys.stderr)
            return 1
        log.info("window %dx%d%s%s", *app.size, " (fullscreen)" if app.fullscreen else "",
                 " (read-only)" if read_only else "")
        app.push(TitleScene(app))
        open_online(app, args)
        try:
            return app.run(max_frames=args.frames)
        finally:
            pygame.quit()

    try:
        return run_guarded(play, log_path=log_path)
    finally:
        lock.release()


if __name__ == "__main__":
    sys.exit(main())
