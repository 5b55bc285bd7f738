"""When the game fails: log everything, tell the player kindly, exit with 1.

    from koikoi.crash import run_guarded, install_excepthook
    log_path = setup_logging()
    install_excepthook(log_path)                 # exceptions in worker threads get logged
    sys.exit(run_guarded(lambda: app.run(), log_path=log_path))

``run_guarded`` runs the main loop. An unexpected exception is written to the
log with its full traceback, and then a friendly screen is shown in the
game's own window if one is open (else in a new small window): "Something
went wrong", one line saying what, the reassurance that the match was saved,
the log file's path, and three buttons: Copy details (C), Open log folder (O)
and Quit (Q, Esc, Enter or closing the window). With no display (SDL's dummy
or offscreen driver, no $DISPLAY/$WAYLAND_DISPLAY on Linux, KOIKOI_NO_CRASH_SCREEN=1)
the same words go to stderr instead. Nothing here ever raises.

SystemExit passes through as its exit status; Ctrl+C gives 130.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import Callable

log = logging.getLogger("koikoi.crash")

try:   # the last line of defence must not need more than the standard library to load
    from .i18n import N_, _ as _gettext
except BaseException:  # pragma: no cover - a broken install
    def N_(text: str) -> str:
        return text

    def _gettext(text: str) -> str:
        return text

# English (the terminal report prints them as they are); the crash screen and the
# system dialog show them translated (``tr``).
TITLE = N_("Something went wrong")
SAVED_LINE = N_("Your match was saved automatically and will be offered as Continue next time.")
NO_LOG_FILE = N_("(no log file could be written)")
LOG_FILE_IS = N_("Details are in the log file:")


def tr(text: str) -> str:
    """``text`` in the player's language; English if the translation cannot be had."""
    try:
        out = _gettext(text)
        return out if isinstance(out, str) and out else text
    except BaseException:
        return text


def _game_font_path(bold: bool) -> Path | None:
    """The game's own font (it has the Japanese glyphs pygame's default font lacks), or None."""
    try:
        from .paths import assets_dir  # isolated: paths needs platformdirs; the crash report loads on the stdlib alone
        root = assets_dir()
        if root is None:
            return None
        path = root / "fonts" / f"KoiKoiSans-{'Bold' if bold else 'Regular'}.otf"
        return path if path.is_file() else None
    except BaseException:
        return None


def _needs_game_font() -> bool:
    """Whether the crash screen is shown in a language other than English."""
    try:
        from .i18n import SOURCE_LANGUAGE, language  # isolated: a broken i18n leaves the screen in English
        return language() != SOURCE_LANGUAGE
    except BaseException:
        return False

# Colours of the panel.
_BG = (18, 20, 24)
_PANEL = (34, 37, 44)
_BORDER = (120, 60, 60)
_TEXT = (236, 232, 224)
_DIM = (170, 170, 176)
_ACCENT = (232, 120, 110)
_BUTTON = (58, 62, 74)
_BUTTON_HOVER = (84, 90, 108)


# ---------------------------------------------------------------- running
def run_guarded(main_callable: Callable[[], object], *, log_path: Path | str | None) -> int:
    """Run main_callable(); return its exit status, or 1 after a crash (never raises)."""
    try:
        install_excepthook(log_path)
    except BaseException:
        pass
    try:
        result = main_callable()
    except SystemExit as e:
        return _exit_code(e.code)
    except KeyboardInterrupt:
        return 130
    except BaseException as e:  # noqa: BLE001 - this is the last line of defence
        try:
            report_crash(e, log_path=log_path)
        except BaseException:
            pass
        return 1
    return _exit_code(result)


def _exit_code(value: object) -> int:
    if value is None or value is True:
        return 0
    if isinstance(value, bool):
        return 1
    if isinstance(value, int):
        return value
    return 1  # SystemExit("message") and the like


def report_crash(exc: BaseException, *, log_path: Path | str | None,
                 show: bool | None = None) -> None:
    """Log exc with its traceback, then show the crash screen or print to stderr.

    show=None decides from the environment; False forces stderr only.
    """
    path = Path(log_path) if log_path else None
    details = crash_details(exc)
    try:
        log.critical("Unhandled exception: the game stopped.\n%s", details)
        _ensure_in_file(path, details)
    except BaseException:
        pass
    line = one_line(exc)
    shown = False
    if show is None:
        show = display_possible()
    if show:
        try:
            shown = show_crash_screen(line, details, path)
        except BaseException:
            log.debug("crash screen failed", exc_info=True)
            shown = False
        if not shown:
            shown = native_message(line, path)
    _print_stderr(line, path)  # also when shown: a terminal user sees it there too


def one_line(exc: BaseException, limit: int = 160) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def crash_details(exc: BaseException) -> str:
    """The text that Copy details puts on the clipboard: versions and traceback."""
    lines = []
    try:
        from .logsetup import environment_summary  # isolated: the details go without it if it is broken
        lines += [f"{k}: {v}" for k, v in environment_summary()]
    except BaseException:
        pass
    try:
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    except BaseException:
        tb = repr(exc)
    return "\n".join(lines + ["", tb.rstrip()])


def _print_stderr(line: str, path: Path | None) -> None:
    try:
        if sys.stderr is None:
            return
        where = str(path) if path else "(no log file)"
        print(f"\nKoi-Koi: {TITLE}.\n  {line}\n  {SAVED_LINE}\n"
              f"  Details are in the log file: {where}\n", file=sys.stderr, flush=True)
    except BaseException:
        pass


def _ensure_in_file(path: Path | None, text: str) -> None:
    """If no logging handler writes to `path`, append the report there directly."""
    if path is None:
        return
    target = os.path.abspath(str(path))
    for h in logging.getLogger().handlers:
        if os.path.abspath(getattr(h, "baseFilename", "") or "/nonexistent") == target:
            return
    try:
        from .logsetup import SafeRotatingFileHandler  # isolated: a broken logsetup must not stop the report
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = SafeRotatingFileHandler._open_regular(str(path))   # never through a link, pipe or device
        if fd is None:
            return
        with open(fd, "a", encoding="utf-8") as f:
            f.write("\n---- Koi-Koi crash report ----\n" + text + "\n")
    except BaseException:
        pass


# ---------------------------------------------------------------- threads
_hook_state: dict = {"installed": False, "log_path": None, "previous": None}


def install_excepthook(log_path: Path | str | None) -> None:
    """Log uncaught exceptions of worker threads (threading.excepthook) and of the
    main thread outside run_guarded (sys.excepthook). Safe to call again."""
    _hook_state["log_path"] = Path(log_path) if log_path else None
    if _hook_state["installed"]:
        return
    _hook_state["previous"] = threading.excepthook

    def thread_hook(args: "threading.ExceptHookArgs") -> None:
        try:
            if args.exc_type is SystemExit:
                return
            name = args.thread.name if args.thread is not None else "?"
            text = "".join(traceback.format_exception(args.exc_type, args.exc_value,
                                                      args.exc_traceback))
            log.error("Unhandled exception in thread %s:\n%s", name, text.rstrip())
            _ensure_in_file(_hook_state["log_path"], f"thread {name}:\n{text}")
        except BaseException:
            pass

    def main_hook(exc_type, exc, tb) -> None:
        try:
            text = "".join(traceback.format_exception(exc_type, exc, tb))
            log.critical("Unhandled exception:\n%s", text.rstrip())
            _ensure_in_file(_hook_state["log_path"], text)
        except BaseException:
            pass
        try:
            sys.__excepthook__(exc_type, exc, tb)
        except BaseException:
            pass

    threading.excepthook = thread_hook
    sys.excepthook = main_hook
    _hook_state["installed"] = True


def uninstall_excepthook() -> None:
    """Undo install_excepthook (for tests)."""
    if _hook_state["installed"]:
        threading.excepthook = _hook_state["previous"] or threading.__excepthook__
        sys.excepthook = sys.__excepthook__
        _hook_state["installed"] = False


# ---------------------------------------------------------------- display
def display_possible() -> bool:
    """Whether a window can be shown to a person (not a dummy/offscreen driver)."""
    try:
        if os.environ.get("KOIKOI_NO_CRASH_SCREEN", "").strip() not in ("", "0"):
            return False
        driver = os.environ.get("SDL_VIDEODRIVER", "").strip().lower()
        if driver in ("dummy", "offscreen", "evdev"):
            return False
        if "pygame" in sys.modules:
            import pygame  # isolated: loaded already (the line above); the crash module loads without it
            if pygame.display.get_init():
                try:
                    if pygame.display.get_driver() in ("dummy", "offscreen"):
                        return False
                except BaseException:
                    pass
                return True
        if sys.platform.startswith("linux") or "bsd" in sys.platform:
            return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        return True
    except BaseException:
        return False


def native_message(line: str, path: Path | None) -> bool:
    """The same message in the system's own dialog, for when pygame cannot show it
    (a windowed build has no terminal to print to). Best effort, never raises."""
    text = (f"{line}\n\n{tr(SAVED_LINE)}\n\n{tr(LOG_FILE_IS)}\n"
            f"{path if path else tr(NO_LOG_FILE)}")
    title = tr(TITLE)
    try:
        if sys.platform.startswith("win"):
            import ctypes  # platform: Windows's MessageBoxW
            ctypes.windll.user32.MessageBoxW(None, text, "Koi-Koi - " + title,  # type: ignore
                                             0x10)
            return True
        if sys.platform == "darwin":
            script = ("on run argv\n display alert (item 1 of argv) message (item 2 of argv)"
                      " as critical\nend run")
            subprocess.run(["osascript", "-e", script, title, text], timeout=600,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return True
        for tool, args in (("zenity", ["--error", "--title", "Koi-Koi", "--no-markup",
                                       "--text", f"{title}\n\n{text}"]),
                           ("kdialog", ["--title", "Koi-Koi", "--error", f"{title}\n\n{text}"])):
            exe = shutil.which(tool)
            if exe:
                subprocess.run([exe, *args], timeout=600, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                return True
    except BaseException:
        pass
    return False


def open_folder(folder: Path) -> bool:
    """Open a folder in the file manager; best effort."""
    try:
        if sys.platform.startswith("win"):
            os.startfile(str(folder))  # type: ignore[attr-defined]
        elif sys.platform == "darwin":
            subprocess.Popen(["open", str(folder)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        else:
            subprocess.Popen(["xdg-open", str(folder)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        return True
    except BaseException:
        return False


def copy_text(text: str) -> bool:
    """Put text on the clipboard with pygame.scrap; best effort."""
    try:
        import pygame  # isolated: the crash module loads without pygame (a broken install)
        scrap = pygame.scrap
        if hasattr(scrap, "put_text"):
            scrap.put_text(text)
            return True
        if not scrap.get_init():
            scrap.init()
        scrap.put(pygame.SCRAP_TEXT, text.encode("utf-8"))
        return True
    except BaseException:
        return False


def _wrap(font, text: str, width: int) -> list[str]:
    words, lines, cur = text.split(" "), [], ""
    for w in words:
        trial = (cur + " " + w).strip()
        if font.size(trial)[0] <= width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    # A single overlong word (a path): cut it into pieces that fit.
    out = []
    for ln in lines:
        while font.size(ln)[0] > width and len(ln) > 1:
            n = len(ln)
            while n > 1 and font.size(ln[:n])[0] > width:
                n -= 1
            out.append(ln[:n])
            ln = ln[n:]
        out.append(ln)
    return out


def show_crash_screen(line: str, details: str, log_path: Path | None,
                      *, max_frames: int | None = None) -> bool:
    """Draw the crash panel and wait for Quit. Returns False if nothing could be shown.

    max_frames stops the loop after that many frames (for tests).
    """
    import pygame  # isolated: the crash module loads without pygame (a broken install): report_crash catches this

    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()
    try:
        if pygame.mixer.get_init():
            pygame.mixer.stop()
    except BaseException:
        pass
    screen = pygame.display.get_surface()
    if screen is None:
        screen = pygame.display.set_mode((760, 400))
    pygame.display.set_caption("Koi-Koi - " + tr(TITLE))
    try:
        pygame.mouse.set_visible(True)
        pygame.event.set_grab(False)
    except BaseException:
        pass

    fonts = {}
    own_font = _needs_game_font()     # English keeps pygame's default font, as it always had

    def font(size: int, bold: bool = False):
        key = (size, bold)
        if key not in fonts:
            f = None
            path = _game_font_path(bold) if own_font else None
            if path is not None:
                try:
                    f = pygame.font.Font(str(path), max(8, size * 3 // 4))   # a larger em than the default
                except BaseException:
                    f = None
            if f is None:
                f = pygame.font.Font(None, size)
                f.set_bold(bold)
            fonts[key] = f
        return fonts[key]

    status = ""
    folder = log_path.parent if log_path else None
    actions = [("copy", tr(N_("Copy details")), pygame.K_c),
               ("open", tr(N_("Open log folder")), pygame.K_o),
               ("quit", tr(N_("Quit")), pygame.K_q)]
    clock = pygame.time.Clock()
    frames = 0

    def act(name: str) -> bool:
        nonlocal status
        if name == "copy":
            status = tr(N_("Details copied to the clipboard.")) if copy_text(details) \
                else tr(N_("Could not reach the clipboard; the details are in the log file."))
        elif name == "open":
            if folder is not None and open_folder(folder):
                status = tr(N_("Opening the log folder\u2026"))
            else:
                status = tr(N_("Could not open the log folder."))
        elif name == "quit":
            return True
        return False

    while True:
        screen = pygame.display.get_surface() or screen
        sw, sh = screen.get_size()
        k = max(1.0, min(sw / 1280, sh / 720, 2.0))     # a big window: the panel grows with it

        def z(n: int) -> int:
            return int(round(n * k))
        pw = max(min(z(720), sw - 24), 200)
        pad = max(12, min(z(28), pw // 24))
        inner = pw - 2 * pad
        where = str(log_path) if log_path else tr(NO_LOG_FILE)
        # (font, text, colour, space after) rows, measured before the panel is sized.
        rows = [(font(z(40), True), tr(TITLE), _ACCENT, z(12))]
        rows += [(font(z(24)), t, _TEXT, 2) for t in _wrap(font(z(24)), line, inner)[:2]]
        rows[-1] = rows[-1][:3] + (z(12),)
        rows += [(font(z(24)), t, _TEXT, 2) for t in _wrap(font(z(24)), tr(SAVED_LINE), inner)]
        rows[-1] = rows[-1][:3] + (z(12),)
        rows.append((font(z(20)), tr(LOG_FILE_IS), _DIM, 2))
        rows += [(font(z(20)), t, _DIM, 2) for t in _wrap(font(z(20)), where, inner)[:3]]
        bh = z(40)
        text_h = sum(f.get_linesize() + gap for f, _, _, gap in rows)
        needed = pad + text_h + z(12) + font(z(20)).get_linesize() + 8 + bh + pad
        panel = pygame.Rect(0, 0, pw, max(min(needed, sh - 24), 160))
        panel.center = (sw // 2, sh // 2)

        # Buttons along the bottom of the panel.
        bgap = z(12)
        bw = (inner - 2 * bgap) // 3
        buttons = []
        for i, (name, label, key) in enumerate(actions):
            r = pygame.Rect(panel.x + pad + i * (bw + bgap), panel.bottom - pad - bh, bw, bh)
            buttons.append((r, name, label, key))

        for ev in pygame.event.get():
            if ev.type == pygame.QUIT:
                return True
            if ev.type == pygame.KEYDOWN:
                if ev.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                    return True
                for _, name, _, key in buttons:
                    if ev.key == key and act(name):
                        return True
            if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
                for r, name, _, _ in buttons:
                    if r.collidepoint(ev.pos) and act(name):
                        return True

        screen.fill(_BG)
        pygame.draw.rect(screen, _PANEL, panel, border_radius=12)
        pygame.draw.rect(screen, _BORDER, panel, width=2, border_radius=12)
        y = panel.y + pad
        for f, text, colour, gap in rows:
            screen.blit(f.render(text, True, colour), (panel.x + pad, y))
            y += f.get_linesize() + gap
        if status:
            s = font(z(20)).render(status, True, _TEXT)
            screen.blit(s, (panel.x + pad, buttons[0][0].y - s.get_height() - 8))
        mouse = pygame.mouse.get_pos()
        for r, name, label, key in buttons:
            hover = r.collidepoint(mouse)
            pygame.draw.rect(screen, _BUTTON_HOVER if hover else _BUTTON, r, border_radius=8)
            text = f"{label} ({pygame.key.name(key).upper()})"
            s = font(z(22)).render(text, True, _TEXT)
            if s.get_width() > r.w - 8:
                s = font(z(22)).render(label, True, _TEXT)
            screen.blit(s, s.get_rect(center=r.center))
        pygame.display.flip()
        clock.tick(30)
        frames += 1
        if max_frames is not None and frames >= max_frames:
            return True
