"""Every image, sound and font the UI uses, loaded from one place.

    from koikoi.ui.assets import Assets
    assets = Assets()                      # finds the assets folder itself
    face = assets.card("01-RP", 180)       # scaled once per size, then cached
    screen.blit(assets.table(screen.get_size()), (0, 0))
    assets.play("snap")

The assets folder is looked for, in order, in
  1. the `root` given to Assets(), or the KOIKOI_ASSETS environment variable;
  2. the installed package `koikoi.assets` (koikoi/assets next to this package);
  3. the top-level `assets/` folder of a source checkout (next to `koikoi/`).

Nothing here raises for a missing or unreadable file: it logs one warning
(logger 'koikoi.assets') naming the file and the command that regenerates it,
and returns a clearly drawn stand-in (a cream card with its id written on it,
a dark card back, a plain green table, the default pygame font, no sound).

Sizes: card faces are 216 x 348 at their native size; `card_size(height)`
gives the width for a height. `glow(h)` and `select(h)` are bigger than the
card they decorate (GLOW_MARGIN and SELECT_MARGIN native pixels each side,
scaled with the card): blit them centred on the card's centre.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from pathlib import Path
from typing import Callable

import pygame

from .. import paths

log = logging.getLogger("koikoi.assets")

CARD_W, CARD_H = 216, 348          # native card face size (pixels)
CARD_RADIUS = 10                   # corner radius at the native size
GLOW_MARGIN = 24                   # glow.png extends this far beyond the card
SELECT_MARGIN = 6                  # select.png extends this far beyond the card

SOUND_NAMES = ("snap", "capture", "flip", "shuffle", "deal", "koikoi", "stop", "yaku",
               "click", "win", "lose")

# Which tool regenerates which sub-folder of assets/.
_REGEN = {
    "cards": "python tools/make_cards.py",
    "table": "python tools/make_table.py",
    "icons": "python tools/make_table.py",
    "sounds": "python tools/make_sounds.py",
    "fonts": "python tools/make_font.py",
}

FONT_LIMIT = 64                    # fonts kept open (least recently used closed first)

_CREAM = (246, 238, 220)
_INK = (28, 22, 20)
_FRAME = (60, 40, 30)
_FELT = (22, 84, 58)


def card_size(height: int) -> tuple[int, int]:
    """(width, height) of a card drawn `height` pixels tall (216:348 ratio)."""
    height = max(1, int(round(height)))
    return max(1, int(round(height * CARD_W / CARD_H))), height


def _has_display() -> bool:
    return pygame.display.get_init() and pygame.display.get_surface() is not None


def _prepare(surf: pygame.Surface, alpha: bool = True) -> pygame.Surface:
    """convert()/convert_alpha() for fast blits when a display mode is set."""
    if _has_display():
        try:
            return surf.convert_alpha() if alpha else surf.convert()
        except pygame.error:
            pass
    return surf


def _pixels(value) -> int:
    return value.get_width() * value.get_height() if isinstance(value, pygame.Surface) else 0


# The scaled images may hold this many pixels, or twice the window's if that is more
# (4 bytes each): every scene at 1920x1080 uses 2.7M pixels of scaled cards, at
# 3840x2160 10.7M, so the cards of the sizes on screen stay and those of the sizes
# a resize left behind go. The count limit alone let 800 large faces pile up.
SCALED_MIN_PIXELS = 4_000_000
SCALED_WINDOWS = 2.0


def _scaled_budget() -> int:
    surf = pygame.display.get_surface() if pygame.display.get_init() else None
    if surf is None:
        return SCALED_MIN_PIXELS
    w, h = surf.get_size()
    return max(SCALED_MIN_PIXELS, int(SCALED_WINDOWS * w * h))


class _LRU(OrderedDict):
    """A small bounded cache (window resizes must not grow memory forever):
    at most ``limit`` entries and, with ``max_pixels`` (a number, or a function
    giving one), at most that many pixels of surfaces; the least recently used
    go first, though the newest entry always stays."""

    def __init__(self, limit: int, max_pixels: int | Callable[[], int] | None = None):
        super().__init__()
        self.limit = limit
        self.max_pixels = max_pixels
        self.pixels = 0

    def budget(self) -> int | None:
        return self.max_pixels() if callable(self.max_pixels) else self.max_pixels

    def get_or(self, key, make: Callable):
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = make()
        self[key] = value
        self.pixels += _pixels(value)
        budget = self.budget() if self.max_pixels is not None else None
        while len(self) > 1 and (len(self) > self.limit or (budget is not None and self.pixels > budget)):
            _, old = self.popitem(last=False)
            self.pixels -= _pixels(old)
        return value

    def clear(self) -> None:
        super().clear()
        self.pixels = 0


class Assets:
    """Loads, scales and caches the game's images, fonts and sounds."""

    def __init__(self, root: Path | None = None):
        self.root: Path | None = Path(root) if root is not None else paths.assets_dir()
        if self.root is None:
            log.warning("assets folder not found (looked for koikoi/assets and the "
                        "repository's assets/); using drawn stand-ins. Regenerate with "
                        "python tools/make_cards.py, make_table.py, make_sounds.py, make_font.py")
        self.volume: float = 1.0
        self.muted: bool = False
        self._images: dict[str, pygame.Surface | None] = {}     # raw loads, by relative path
        self._scaled = _LRU(800, _scaled_budget)                # (kind, key..., size) -> Surface
        # The felt of the current window size only: 8 MB at 1920x1080, and every
        # scene draws at one size (after a resize the old one is never asked for).
        self._tables = _LRU(1)
        # (size, bold) -> Font, ~260 KB each (the face and its glyphs); a session at
        # one window size uses 20-50, every resize asks for new sizes.
        self._fonts = _LRU(FONT_LIMIT)
        self._sounds: dict[str, pygame.mixer.Sound | None] = {}
        self._mixer_ok: bool | None = None
        self.music_playing: bool = False
        self._warned: set[str] = set()

    # ------------------------------------------------------------ helpers

    def path(self, rel: str) -> Path:
        """Absolute path of an asset given relative to the assets folder."""
        return (self.root or Path("assets")) / rel

    def clear(self) -> None:
        """Forget every cached image, font and sound (e.g. after the display mode
        changes, so the next loads are converted for the new screen format)."""
        self._images.clear()
        self._scaled.clear()
        self._tables.clear()
        self._fonts.clear()
        self._sounds.clear()
        self._mixer_ok = None

    def _warn_once(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            log.warning(message)

    def _regen(self, rel: str) -> str:
        return _REGEN.get(rel.split("/", 1)[0], "the tools/ generators")

    def _load(self, rel: str, *, quiet: bool = False, keep: bool = True) -> pygame.Surface | None:
        """Load an image once (unscaled); None (after one warning) if missing/bad.
        ``keep=False``: read it afresh each time and do not hold on to it (an image
        used only to build something that is cached itself)."""
        if rel in self._images:
            return self._images[rel]
        p = self.path(rel)
        surf = None
        if p.is_file():
            try:
                surf = pygame.image.load(str(p))
                if surf.get_bitsize() < 24:  # smoothscale needs 24/32-bit surfaces
                    full = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
                    full.blit(surf, (0, 0))
                    surf = full
            except (pygame.error, OSError, ValueError) as e:
                self._warn_once(rel, f"cannot read image {p}: {e}; regenerate it with "
                                     f"{self._regen(rel)}")
        elif not quiet:
            self._warn_once(rel, f"missing image {p}; regenerate it with {self._regen(rel)}")
        if keep:
            self._images[rel] = surf
        return surf

    def _scaled_image(self, rel: str, size: tuple[int, int],
                      fallback: Callable[[tuple[int, int]], pygame.Surface]) -> pygame.Surface:
        def make():
            base = self._load(rel)
            if base is None:
                return _prepare(fallback(size))
            if base.get_size() == size:
                return _prepare(base.copy())
            return _prepare(pygame.transform.smoothscale(base, size))
        return self._scaled.get_or(("img", rel, size), make)

    # ------------------------------------------------------------ cards

    def card(self, card_id: str, height: int, *, month_number: bool = True) -> pygame.Surface:
        """The face of `card_id` (e.g. '01-RP') scaled to `height` pixels (cached)."""
        size = card_size(height)
        key = ("card", card_id, size, month_number)

        def make():
            base = None
            if not month_number:
                base = self._load(f"cards/nonum/{card_id}.png", quiet=True)
                if base is None:
                    self._warn_once(f"nonum/{card_id}",
                                    f"missing image {self.path(f'cards/nonum/{card_id}.png')}; "
                                    f"using the numbered face. Regenerate with "
                                    f"{_REGEN['cards']}")
            if base is None:
                base = self._load(f"cards/{card_id}.png")
            if base is None:
                return _prepare(self._fallback_card(size, card_id))
            return _prepare(pygame.transform.smoothscale(base, size))
        return self._scaled.get_or(key, make)

    def back(self, height: int) -> pygame.Surface:
        """The card back scaled to `height` pixels (cached)."""
        return self._scaled_image("cards/back.png", card_size(height), self._fallback_back)

    def _overlay_size(self, height: int, margin: int) -> tuple[int, int]:
        scale = max(1, int(round(height))) / CARD_H
        return (max(1, int(round((CARD_W + 2 * margin) * scale))),
                max(1, int(round((CARD_H + 2 * margin) * scale))))

    def glow(self, height: int) -> pygame.Surface:
        """The golden hint halo for a card `height` tall; blit it centred on the card."""
        size = self._overlay_size(height, GLOW_MARGIN)
        return self._scaled_image("table/glow.png", size,
                                  lambda s: self._fallback_outline(s, GLOW_MARGIN, (250, 200, 80), True))

    def select(self, height: int) -> pygame.Surface:
        """The selection outline for a card `height` tall; blit it centred on the card."""
        size = self._overlay_size(height, SELECT_MARGIN)
        return self._scaled_image("table/select.png", size,
                                  lambda s: self._fallback_outline(s, SELECT_MARGIN, (250, 200, 60), False))

    # ------------------------------------------------------------ table, logo, icon

    def table(self, size: tuple[int, int]) -> pygame.Surface:
        """The felt tiled over a window of `size`, with the edge vignette (cached)."""
        size = (max(1, int(size[0])), max(1, int(size[1])))

        def make():
            surf = pygame.Surface(size)
            felt = self._load("table/felt.png")
            if felt is None:
                surf.fill(_FELT)
            else:
                fw, fh = felt.get_size()
                for y in range(0, size[1], fh):
                    for x in range(0, size[0], fw):
                        surf.blit(felt, (x, y))
            # 1920x1080 RGBA (8 MB) read for each new window size (~30 ms), not kept
            vig = self._load("table/vignette.png", keep=False)
            if vig is not None:
                surf.blit(pygame.transform.smoothscale(vig, size), (0, 0))
            return _prepare(surf, alpha=False)
        return self._tables.get_or(size, make)

    def logo(self, width: int) -> pygame.Surface:
        """The title logo (こいこい / KOI-KOI) scaled to `width`, keeping its ratio."""
        base = self._load("table/logo.png")
        width = max(1, int(round(width)))
        if base is None:
            return self._scaled.get_or(("logo-fallback", width), lambda: _prepare(self._fallback_logo(width)))
        bw, bh = base.get_size()
        size = (width, max(1, int(round(bh * width / bw))))
        return self._scaled_image("table/logo.png", size, lambda s: self._fallback_logo(width))

    def icon(self, size: int | None = None) -> pygame.Surface:
        """The app icon (256 px, or `size` px), e.g. for pygame.display.set_icon."""
        rel = "icons/icon-64.png" if size is not None and size <= 64 else "icons/icon.png"
        base = self._load(rel, quiet=rel.endswith("64.png"))
        if base is None:
            base = self._load("icons/icon.png")
        if base is None:
            s = size or 256
            return self._scaled.get_or(("icon-fallback", s), lambda: self._fallback_icon(s))
        if size is None or base.get_size() == (size, size):
            return base
        return self._scaled.get_or(("icon", size),
                                   lambda: pygame.transform.smoothscale(base, (size, size)))

    # ------------------------------------------------------------ fonts

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        """KoiKoi Sans (kana, kanji and Latin) at `size` px (cached per size/weight)."""
        size = max(1, int(round(size)))
        key = (size, bool(bold))
        return self._fonts.get_or(key, lambda: self._open_font(size, bool(bold)))

    def _open_font(self, size: int, bold: bool) -> pygame.font.Font:
        if not pygame.font.get_init():
            pygame.font.init()
        rel = f"fonts/KoiKoiSans-{'Bold' if bold else 'Regular'}.otf"
        p = self.path(rel)
        font = None
        if p.is_file():
            try:
                font = pygame.font.Font(str(p), size)
            except (pygame.error, OSError) as e:
                self._warn_once(rel, f"cannot read font {p}: {e}; regenerate it with "
                                     f"{_REGEN['fonts']}")
        else:
            self._warn_once(rel, f"missing font {p}; Japanese text will not show. "
                                 f"Regenerate it with {_REGEN['fonts']}")
        if font is None:
            font = pygame.font.Font(None, size)   # pygame's bundled default font
            if bold:
                font.set_bold(True)
        return font

    # ------------------------------------------------------------ sounds

    def _mixer_ready(self) -> bool:
        if self._mixer_ok is None:
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init()
                self._mixer_ok = bool(pygame.mixer.get_init())
            except (pygame.error, NotImplementedError) as e:
                self._mixer_ok = False
                log.info("sound is off: the audio mixer is unavailable (%s)", e)
        return self._mixer_ok

    def sound(self, name: str) -> "pygame.mixer.Sound | None":
        """The sound effect `name` (e.g. 'snap'), or None without a mixer or file."""
        if name in self._sounds:
            return self._sounds[name]
        snd = None
        if self._mixer_ready():
            for ext in ("wav", "ogg"):
                p = self.path(f"sounds/{name}.{ext}")
                if p.is_file():
                    try:
                        snd = pygame.mixer.Sound(str(p))
                    except (pygame.error, OSError) as e:
                        self._warn_once(f"sounds/{name}", f"cannot read sound {p}: {e}; "
                                        f"regenerate it with {_REGEN['sounds']}")
                    break
            else:
                self._warn_once(f"sounds/{name}",
                                f"missing sound {self.path(f'sounds/{name}.wav')}; "
                                f"regenerate it with {_REGEN['sounds']}")
        self._sounds[name] = snd
        return snd

    def set_music(self, volume: float) -> bool:
        """Loop the background music (sounds/music.wav) at ``volume``; 0 stops it.

        Returns whether music is playing. Without a mixer or the file it stays
        silent (the file's absence is logged once with the command that makes it).
        """
        if not self._mixer_ready():
            return False
        try:
            if volume <= 0:
                if self.music_playing:
                    pygame.mixer.music.fadeout(400)
                    self.music_playing = False
                return False
            if not self.music_playing:
                p = self.path("sounds/music.wav")
                if not p.is_file():
                    self._warn_once("sounds/music", f"missing music {p}; regenerate it with "
                                    f"{_REGEN['sounds']}")
                    return False
                pygame.mixer.music.load(str(p))
                pygame.mixer.music.play(-1, fade_ms=1500)
                self.music_playing = True
            pygame.mixer.music.set_volume(max(0.0, min(1.0, volume)))
        except pygame.error as e:
            self._warn_once("sounds/music", f"cannot play music: {e}")
            self.music_playing = False
        return self.music_playing

    def play(self, name: str, volume: float = 1.0) -> "pygame.mixer.Channel | None":
        """Play a sound effect at `volume` x self.volume; a no-op when muted or silent."""
        if self.muted or self.volume <= 0 or volume <= 0:
            return None
        snd = self.sound(name)
        if snd is None:
            return None
        try:
            snd.set_volume(max(0.0, min(1.0, self.volume * volume)))
            return snd.play()
        except pygame.error as e:
            self._warn_once(f"play/{name}", f"cannot play sound {name!r}: {e}")
            return None

    # ------------------------------------------------------------ stand-ins

    def _fallback_card(self, size: tuple[int, int], card_id: str) -> pygame.Surface:
        w, h = size
        surf = pygame.Surface(size, pygame.SRCALPHA)
        r = max(2, int(CARD_RADIUS * h / CARD_H))
        border = max(1, h // 90)
        pygame.draw.rect(surf, _FRAME, surf.get_rect(), border_radius=r)
        pygame.draw.rect(surf, _CREAM, surf.get_rect().inflate(-2 * border, -2 * border),
                         border_radius=max(1, r - border))
        font = self.font(max(8, h // 9), bold=True)
        text = font.render(card_id, True, _INK)
        if text.get_width() > w - 4:
            text = pygame.transform.smoothscale(
                text, (w - 4, max(1, text.get_height() * (w - 4) // text.get_width())))
        surf.blit(text, text.get_rect(center=(w // 2, h // 2)))
        return surf

    def _fallback_back(self, size: tuple[int, int]) -> pygame.Surface:
        w, h = size
        surf = pygame.Surface(size, pygame.SRCALPHA)
        r = max(2, int(CARD_RADIUS * h / CARD_H))
        pygame.draw.rect(surf, (22, 18, 18), surf.get_rect(), border_radius=r)
        inset = max(2, w // 12)
        pygame.draw.rect(surf, (110, 26, 30), surf.get_rect().inflate(-2 * inset, -2 * inset),
                         border_radius=max(1, r // 2))
        return surf

    def _fallback_outline(self, size: tuple[int, int], margin: int, color, soft: bool) -> pygame.Surface:
        w, h = size
        surf = pygame.Surface(size, pygame.SRCALPHA)
        scale = h / (CARD_H + 2 * margin)
        m = int(round(margin * scale))
        r = max(2, int(CARD_RADIUS * scale))
        card = pygame.Rect(m, m, w - 2 * m, h - 2 * m)
        if soft:
            steps = max(1, m)
            for i in range(steps, 0, -1):
                a = int(200 * (1 - i / (steps + 1)) ** 2)
                pygame.draw.rect(surf, (*color, a), card.inflate(2 * i, 2 * i),
                                 width=2, border_radius=r + i)
        else:
            pygame.draw.rect(surf, (*color, 255), card.inflate(2 * m, 2 * m),
                             width=max(2, int(round(5 * scale))), border_radius=r + m)
        return surf

    def _fallback_logo(self, width: int) -> pygame.Surface:
        font = self.font(max(8, width // 5), bold=True)
        text = font.render("こいこい KOI-KOI", True, (250, 232, 180))
        h = max(1, text.get_height() * width // max(1, text.get_width()))
        return pygame.transform.smoothscale(text, (width, h))

    def _fallback_icon(self, size: int) -> pygame.Surface:
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(surf, _FELT, surf.get_rect(), border_radius=size // 5)
        cw, ch = card_size(int(size * 0.8))
        card = pygame.Rect(0, 0, cw, ch)
        card.center = surf.get_rect().center
        pygame.draw.rect(surf, (196, 36, 40), card, border_radius=max(2, size // 20))
        return surf


_default: Assets | None = None


def get_assets() -> Assets:
    """A shared Assets instance (created on first use)."""
    global _default
    if _default is None:
        _default = Assets()
    return _default
