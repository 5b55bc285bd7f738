"""Start the game: ``python -m koikoi`` (or the ``koikoi`` command).

    python -m koikoi --size 1920x1080
    python -m koikoi --fullscreen
    python -m koikoi --frames 30        # run 30 frames and exit 0 (a smoke test)
"""

from __future__ import annotations

import argparse
import logging
import logging.handlers
import os
import sys
from typing import Optional, Sequence

from . import __version__


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad flag is one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"koikoi: {message} (see --help)\n")


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
    return n


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = _Parser(prog="koikoi", description="Koi-Koi, the hanafuda card game.")
    p.add_argument("--size", type=_size, metavar="WxH", help="window size, e.g. 1280x720")
    p.add_argument("--fullscreen", action="store_true", help="start in fullscreen (F11 toggles)")
    p.add_argument("--seed", type=_nonneg, metavar="N", help="deal every new match from this seed")
    p.add_argument("--frames", type=_nonneg, metavar="N", help="run N frames, then exit (a smoke test)")
    p.add_argument("--reset-settings", action="store_true", help="forget saved settings before starting")
    p.add_argument("--version", action="version", version=f"koikoi {__version__}")
    return p.parse_args(argv)


def _setup_logging(log_dir):
    """The shared log set-up (koikoi.logsetup); a plain rotating file if it is missing."""
    try:
        from .logsetup import setup_logging
        return setup_logging(log_dir)
    except ImportError:
        pass
    root = logging.getLogger()
    if not root.handlers:
        root.setLevel(logging.INFO)
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
            fh = logging.handlers.RotatingFileHandler(log_dir / "koikoi.log", maxBytes=512_000,
                                                      backupCount=2, encoding="utf-8")
            fh.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
            root.addHandler(fh)
        except OSError:
            pass
    return log_dir / "koikoi.log"


def _guarded(fn, log_path) -> int:
    """Run the game under the crash guard (koikoi.crash) when it is available."""
    try:
        from .crash import run_guarded
    except ImportError:
        return int(fn() or 0)
    return run_guarded(fn, log_path=log_path)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from .storage import Storage
    storage = Storage()
    log_path = _setup_logging(storage.log_dir)
    log = logging.getLogger("koikoi")
    if args.reset_settings:
        try:
            storage.settings_path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            print(f"koikoi: cannot remove {storage.settings_path}: {exc}", file=sys.stderr)

    def play() -> int:
        import pygame
        from .ui.app import App
        from .ui.scenes.title import TitleScene
        try:
            app = App(args.size, fullscreen=args.fullscreen, storage=storage, seed=args.seed)
        except pygame.error as exc:
            print(f"koikoi: cannot open a window: {exc}", file=sys.stderr)
            return 1
        log.info("window %dx%d%s", *app.size, " (fullscreen)" if app.fullscreen else "")
        app.push(TitleScene(app))
        try:
            return app.run(max_frames=args.frames)
        finally:
            pygame.quit()

    return _guarded(play, log_path)


if __name__ == "__main__":
    sys.exit(main())
