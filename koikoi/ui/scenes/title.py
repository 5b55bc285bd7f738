"""The title screen, and the How to play page.

The title shows the logo over a fan of the five Bright cards, with the
player's ways in: New match, Continue (when an unfinished match was saved),
Match history, How to play, Settings, Quit.
"""

from __future__ import annotations

import math
from typing import Optional

import pygame

from ... import __version__
from ...engine import PRESET_LABELS, RULESETS, YAKU_NAMES, Rules
from .. import theme
from .. import widgets as W
from . import MenuScene

FAN = ("03-B", "11-B", "01-B", "12-B", "08-B")      # the five Brights
FAN_ANGLES = (-30.0, -15.0, 0.0, 15.0, 30.0)
# (card, x as a fraction of the width, y as a fraction of the height, angle)
SCATTER = (
    ("09-A", 0.06, 0.86, 24.0), ("02-A", 0.15, 0.95, -12.0),
    ("06-A", 0.94, 0.84, -22.0), ("10-A", 0.85, 0.96, 10.0),
)


def _ease(k: float) -> float:
    k = max(0.0, min(1.0, k))
    return 1 - (1 - k) ** 3


def match_summary(session) -> str:
    """'Month 3 of 6 · You 12 – 7 CPU (Hard)' for a saved session."""
    st = session.state
    a, b = session.seats[0].name, session.seats[1].name
    if st.months:
        when = f"Month {min(st.round, st.months)} of {st.months}"
    else:
        when = f"Round {st.round}"
    return f"{when} · {a} {st.scores[0]} – {st.scores[1]} {b}"


class TitleScene(MenuScene):
    intro_time = 0.9

    def __init__(self, app):
        self.saved = None                 # the autosaved unfinished match, if any
        self._checked_save = False
        self.lift = [0.0] * len(FAN)      # how far each fan card is raised under the mouse
        self.hover_card: Optional[int] = None
        super().__init__(app)

    # ---------------------------------------------------------- saves
    def _check_save(self) -> None:
        session, warning = self.app.storage.load_autosave_checked(on_change=self.app.autosave)
        self.saved = session
        self._checked_save = True
        if warning:
            self.app.toast(warning, 7.0, "warning")

    def enter(self) -> None:
        self._check_save()
        self.layout()
        super().enter()

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        cx = w // 2
        # the fan behind the logo
        self.card_h = min(self.px(300), int(h * 0.3))
        self.fan_pivot = (cx, int(h * 0.08) + int(self.card_h * 1.62))
        self.fan_radius = int(self.card_h * 1.05)
        self.logo_w = min(int(w * 0.62), self.px(780))
        self.logo_center = (cx, int(self.fan_pivot[1] - self.card_h * 0.08))
        # buttons
        bh, gap = self.px(86), self.px(22)
        bw = min(self.px(400), (w - 3 * gap) // 2)
        row1 = self.logo_center[1] + self.px(185)
        self.widgets = []
        new = self.button((0, 0, bw, bh), "New match", self.new_match, style="primary",
                          sublabel="Play the CPU or a friend", hotkeys=(pygame.K_n,))
        if self.saved is not None:
            cont = self.button((0, 0, bw, bh), "Continue", self.continue_match, style="primary",
                               sublabel=match_summary(self.saved), hotkeys=(pygame.K_c,))
            cont.rect.topright = (cx - gap // 2, row1)
            new.rect.topleft = (cx + gap // 2, row1)
            new.style = "secondary"
            self.widgets += [cont, new]
        else:
            new.rect.midtop = (cx, row1)
            self.widgets.append(new)
        sh, sgap = self.px(64), self.px(16)
        labels = (("Match history", self.history, pygame.K_h), ("How to play", self.how_to, pygame.K_F1),
                  ("Settings", self.settings, pygame.K_s), ("Quit", self.app.quit, None))
        sw = min(self.px(236), (w - 5 * sgap) // 4)
        total = 4 * sw + 3 * sgap
        x = cx - total // 2
        row2 = row1 + bh + self.px(30)
        for label, fn, key in labels:
            b = self.button((x, row2, sw, sh), label, fn, style="danger" if label == "Quit" else "secondary",
                            hotkeys=(key,) if key else ())
            self.widgets.append(b)
            x += sw + sgap
        self.focus.set(self.widgets)
        self._button_top = row1

    # ---------------------------------------------------------- actions
    def new_match(self) -> None:
        from .newmatch import NewMatchScene
        self.app.push(NewMatchScene(self.app))

    def continue_match(self) -> None:
        session = self.saved
        if session is None:
            return
        session.on_change = self.app.autosave
        if session.state.phase_name == "oyagime":
            from .oyagime import OyagimeScene
            self.app.replace(OyagimeScene(self.app, session))
        else:
            from .oyagime import open_round
            open_round(self.app, session, replace=True)

    def history(self) -> None:
        from .history import HistoryScene
        self.app.push(HistoryScene(self.app))

    def how_to(self) -> None:
        self.app.push(HowToPlayScene(self.app))

    def settings(self) -> None:
        from .settings import SettingsScene
        self.app.push(SettingsScene(self.app))

    def back(self) -> None:
        self.app.quit()

    def handle(self, event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return True   # Escape on the title does not quit by accident; use Quit
        if event.type == pygame.MOUSEMOTION:
            self.hover_card = self._fan_card_at(event.pos)
        return super().handle(event)

    def _fan_geometry(self, i: int, kk: float = 1.0) -> tuple[float, float, float]:
        """(centre x, centre y, angle) of fan card ``i`` opened by ``kk``."""
        angle = FAN_ANGLES[i] * kk
        rad = math.radians(angle)
        r = self.fan_radius + self.lift[i] * self.px(26)
        px_, py = self.fan_pivot
        return px_ + r * math.sin(rad), py - r * math.cos(rad), angle

    def _fan_card_at(self, pos) -> Optional[int]:
        cw, ch = self.card_h * 216 / 348, self.card_h
        for i in range(len(FAN) - 1, -1, -1):     # the top-most card first
            cx, cy, angle = self._fan_geometry(i)
            rad = math.radians(angle)
            dx, dy = pos[0] - cx, pos[1] - cy
            x = dx * math.cos(rad) + dy * math.sin(rad)
            y = -dx * math.sin(rad) + dy * math.cos(rad)
            if abs(x) <= cw / 2 and abs(y) <= ch / 2:
                return i
        return None

    def update(self, dt: float) -> None:
        super().update(dt)
        k = min(1.0, dt * 12) if self.app.anim_speed > 0 else 1.0
        for i in range(len(self.lift)):
            goal = 1.0 if i == self.hover_card else 0.0
            self.lift[i] += (goal - self.lift[i]) * k
            if abs(goal - self.lift[i]) < 0.01:
                self.lift[i] = goal

    @property
    def animating(self) -> bool:
        if super().animating:
            return True
        return any(v != (1.0 if i == self.hover_card else 0.0) for i, v in enumerate(self.lift))

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        a = self.app.assets
        w, h = self.size
        k = self.intro
        # scattered cards at the lower corners, sliding in from outside
        sc_h = int(self.card_h * 0.78)
        for i, (cid, fx, fy, ang) in enumerate(SCATTER):
            kk = _ease((self.t - 0.05 * i) / 0.8) if self.app.anim_speed > 0 else 1.0
            x = fx * w + (1 - kk) * (-1 if fx < 0.5 else 1) * w * 0.25
            y = fy * h + (1 - kk) * h * 0.2
            W.draw_card(surface, a.card(cid, sc_h, month_number=False), (x, y), anchor="center",
                        angle=ang)
        # the fan of Brights opening
        img_h = self.card_h
        for i, cid in enumerate(FAN):
            kk = _ease((self.t - 0.06 * abs(i - 2)) / 0.75) if self.app.anim_speed > 0 else 1.0
            cx, cy, angle = self._fan_geometry(i, kk)
            cy += (1 - kk) * self.px(60)
            W.draw_card(surface, a.card(cid, img_h, month_number=False), (cx, cy), anchor="center",
                        angle=-angle, cache=kk >= 1)
        # a dark halo so the gold logo reads over the cards
        lw = self.logo_w
        logo = a.logo(lw)
        halo = W.soft_shadow((int(lw * 0.9), int(logo.get_height() * 0.7)), logo.get_height() // 3,
                             spread=self.px(70), alpha=190)
        surface.blit(halo, halo.get_rect(center=(self.logo_center[0], self.logo_center[1] + self.px(6))))
        lr = logo.get_rect(center=(self.logo_center[0], self.logo_center[1] + int((1 - k) * self.px(20))))
        if k < 1:
            logo = logo.copy()
            logo.set_alpha(int(255 * k))
        surface.blit(logo, lr)
        # footer
        W.draw_text(surface, f"v{__version__}   ·   F11 fullscreen", self.font("tiny"), theme.CREAM_DIM,
                    (w // 2, h - self.px(22)), "midbottom")

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_background(surface)
        self.draw_content(surface)
        k = self.intro
        if k >= 1:
            for wdg in self.widgets:
                wdg.draw(surface)
            return
        # buttons rise and fade in after the logo
        layer = pygame.Surface(self.size, pygame.SRCALPHA)
        for wdg in self.widgets:
            wdg.draw(layer)
        kk = _ease((self.t - 0.3) / 0.6)
        layer.set_alpha(int(255 * kk))
        surface.blit(layer, (0, int((1 - kk) * self.px(24))))


# ====================================================================== how to play


YAKU_CARDS = {
    "goko": ("01-B", "03-B", "08-B", "11-B", "12-B"),
    "shiko": ("01-B", "03-B", "08-B", "12-B"),
    "ame_shiko": ("01-B", "03-B", "08-B", "11-B"),
    "sanko": ("01-B", "03-B", "08-B"),
    "inoshikacho": ("07-A", "10-A", "06-A"),
    "akatan": ("01-RP", "02-RP", "03-RP"),
    "aotan": ("06-RB", "09-RB", "10-RB"),
    "akatan_aotan": ("01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB"),
    "hanami_zake": ("03-B", "09-A"),
    "tsukimi_zake": ("08-B", "09-A"),
    "tane": ("02-A", "04-A", "05-A", "08-A", "11-A"),
    "tanzaku": ("04-R", "05-R", "07-R", "11-R", "01-RP"),
    "kasu": ("01-P1", "02-P1", "03-P1", "04-P1", "05-P1", "06-P1", "07-P1", "08-P1", "09-P1", "10-P1"),
}


def yaku_rows(rules: Rules) -> list[tuple[str, str, str]]:
    """(yaku name, points text, how it is made) for the yaku of ``rules``."""
    graded = rules.combo_grading == "graded"
    rows = [
        ("goko", str(rules.goko), "All five Brights."),
        ("shiko", str(rules.shiko), "Four Brights, not the Rain Man."),
        ("ame_shiko", str(rules.ame_shiko), "Four Brights with the Rain Man."),
        ("sanko", str(rules.sanko), "Three Brights, not the Rain Man. Only the best Bright yaku counts."),
        ("inoshikacho", str(rules.inoshikacho) + ("+" if graded else ""),
         "Boar, Deer and Butterflies." + (" +1 for each further Animal (Tane then does not count)." if graded else "")),
        ("akatan", str(rules.akatan) + ("+" if graded else ""),
         "The three red poetry ribbons." + (" +1 for each further Ribbon." if graded else "")),
        ("aotan", str(rules.aotan) + ("+" if graded else ""),
         "The three blue ribbons." + (" +1 for each further Ribbon." if graded else "")),
    ]
    if graded:
        rows.append(("akatan_aotan", f"{rules.akatan_aotan}+",
                     "All six poetry and blue ribbons, as one yaku. +1 for each further Ribbon."))
    if rules.viewing != "off":
        extra = " Counts only beside another yaku." if rules.viewing == "with_other_yaku" else ""
        rows.append(("hanami_zake", str(rules.hanami_zake), "The Cherry curtain and the Sake cup." + extra))
        rows.append(("tsukimi_zake", str(rules.tsukimi_zake), "The Moon and the Sake cup." + extra))
    rows += [
        ("tane", f"{rules.tane}+", "Any five Animals; +1 for each further one."),
        ("tanzaku", f"{rules.tanzaku}+", "Any five Ribbons; +1 for each further one."),
        ("kasu", f"{rules.kasu}+", "Any ten Chaff; +1 for each further one."
         + (" The Sake cup counts as Chaff too." if rules.sake_cup_is_chaff else "")),
    ]
    return [r for r in rows if r[1].rstrip("+") != "0"]


def rule_notes(rules: Rules) -> list[str]:
    """Plain sentences describing how ``rules`` score a round."""
    notes = []
    if rules.months:
        offered = ", ".join(str(m) for m in rules.months_offered)
        notes.append(f"A match lasts {rules.months} months (rounds) unless you pick another length "
                     f"({offered}). The higher total at the end wins.")
    if rules.target_points:
        notes.append(f"The first player to reach {rules.target_points} points wins.")
    if rules.seven_plus_double:
        notes.append("A hand worth 7 points or more is doubled.")
    km = {
        "opponent_called": "If your opponent called Koi-Koi before you stop, your points are doubled.",
        "own_calls_and_opponent": "Each of your own Koi-Koi calls multiplies your points (×2 after one call, "
                                  "×3 after two…), and they double again if your opponent called.",
        "caller": "Your points are doubled if you called Koi-Koi before stopping.",
        "anyone": "Points are doubled if anybody called Koi-Koi this round.",
        "scaling": "Every Koi-Koi call this round adds ×1 to the multiplier.",
        "none": "Koi-Koi calls do not multiply the points.",
    }
    notes.append(km[rules.koikoi_multiplier])
    if rules.max_koikoi_calls == 1:
        notes.append("After a Koi-Koi, the next yaku made by either player ends the round at once.")
    elif rules.max_koikoi_calls == 0:
        notes.append("There is no Koi-Koi: the first yaku ends the round.")
    if rules.lucky_hands == "on":
        notes.append(f"Lucky hands: four cards of one month (Teshi) or four pairs (Kuttsuki) in the dealt "
                     f"hand win {rules.lucky_points} points at once.")
    if rules.field_brights_multiplier:
        notes.append("Each Bright in the opening field multiplies the points.")
    notes.append({"keeps": "If nobody scores, the dealer deals again.",
                  "passes": "If nobody scores, the deal passes to the other player.",
                  "last_yaku": "If nobody scores, whoever last made a yaku deals next."}[rules.exhausted_dealer])
    return notes


KIND_EXAMPLES = (("08-B", "Bright  光"), ("10-A", "Animal  種"), ("02-RP", "Ribbon  短冊"), ("11-P", "Chaff  カス"))

BASICS = [
    ("The cards", "Hanafuda has 48 cards: four for each month, each month a flower. Cards are "
                  "Brights (光), Animals (種), Ribbons (短冊) or Chaff (カス). The small number in a "
                  "corner shows the month."),
    ("Your turn", "Play a card from your hand. If a field card shows the same month you capture both; "
                  "if two match, choose which to take; with no match your card joins the field. Then the "
                  "top card of the stock is turned and matched the same way."),
    ("Yaku", "Captured cards form yaku: scoring sets such as three Brights or five Ribbons. "
             "The table below lists them for the rules you pick."),
    ("Koi-Koi or stop", "When you make or improve a yaku you choose: Stop (shōbu) and score your yaku "
                        "now, or call Koi-Koi and play on for more, risking that your opponent stops "
                        "first and takes the round."),
    ("Controls", "Click a hand card, then a field card to capture it, or drag the card onto the field. "
                 "Esc opens the menu during a round; F11 switches fullscreen."),
]


class HowToPlayScene(MenuScene):
    """A scrollable rules page with the yaku table of the chosen rule set."""

    def __init__(self, app, rules_name: Optional[str] = None):
        last = app.settings.get("last_new_match", {})
        self.rules_name = rules_name or last.get("rules", "casual")
        if self.rules_name not in RULESETS:
            self.rules_name = "casual"
        self.scroller = W.Scroller(line=40)
        self._content: Optional[pygame.Surface] = None
        super().__init__(app)

    def layout(self) -> None:
        w, h = self.size
        pad = self.px(40)
        self.panel = pygame.Rect(0, 0, min(w - 2 * pad, self.px(1500)), 0)
        self.panel.centerx = w // 2
        self.panel.y = self.px(150)
        self.panel.h = h - self.panel.y - self.px(130)
        names = list(RULESETS)
        self.choice = W.ChoiceRow((0, 0, min(self.panel.w, self.px(1100)), self.px(54)),
                                  [(n, PRESET_LABELS[n].split(" (")[0]) for n in names], self.rules_name,
                                  self.set_rules, assets=self.app.assets,
                                  font_size=theme.font_px("small", self.s))
        self.choice.rect.midtop = (w // 2, self.panel.y + self.px(22))
        bw, bh = self.px(300), self.px(70)
        self.back_button = self.button((0, 0, bw, bh), "Back", self.back, style="secondary")
        self.back_button.rect.midbottom = (w // 2, h - self.px(34))
        self.widgets = [self.choice, self.back_button]
        self.focus.set(self.widgets)
        inner = self.panel.inflate(-2 * self.px(44), 0)
        inner.y = self.choice.rect.bottom + self.px(24)
        inner.h = self.panel.bottom - inner.y - self.px(20)
        self.scroller.viewport = inner
        self._content = None

    def set_rules(self, name: str) -> None:
        self.rules_name = name
        self._content = None
        self.scroller.scroll_to(0, instant=True)

    # the page is drawn once to a tall surface, then scrolled by blitting a part
    def _build(self) -> pygame.Surface:
        a = self.app.assets
        width = self.scroller.viewport.w
        rules = RULESETS[self.rules_name]
        h2, body, small, bold = self.font("h3", True), self.font("body"), self.font("small"), self.font("body", True)
        gap = self.px(18)
        ops: list = []
        y = 0

        def para(text, font, color, indent=0):
            nonlocal y
            for line in W.wrap_text(text, font, width - indent):
                ops.append(("text", line, font, color, (indent, y)))
                y += font.get_linesize()

        for title, text in BASICS:
            ops.append(("text", title, h2, theme.GOLD_LIGHT, (0, y)))
            y += h2.get_linesize() + self.px(4)
            para(text, body, theme.CREAM)
            y += gap
            if title == "The cards":   # one card of each kind, captioned
                kh = self.px(150)
                kw = int(kh * 216 / 348)
                slot = max(kw + self.px(40), self.px(200))
                for j, (cid, label) in enumerate(KIND_EXAMPLES):
                    x0 = j * slot
                    ops.append(("card", cid, kh, (x0 + (slot - kw) // 2, y)))
                    ops.append(("ctext", label, small, theme.GOLD, (x0 + slot // 2, y + kh + self.px(8))))
                y += kh + self.px(8) + small.get_linesize() + gap
        ops.append(("divider", y))
        y += gap
        ops.append(("text", f"Yaku in {PRESET_LABELS[self.rules_name]}", h2, theme.GOLD_LIGHT, (0, y)))
        y += h2.get_linesize() + self.px(10)
        card_h = self.px(96)
        col_cards = int(width * 0.30)
        col_name = col_cards + self.px(24)
        col_pts = width - self.px(10)
        for i, (name, pts, how) in enumerate(yaku_rows(rules)):
            en, romaji, kanji = YAKU_NAMES[name]
            desc_w = col_pts - col_name - self.px(90)
            desc_lines = W.wrap_text(how, small, desc_w)[:2]
            text_h = self.px(24) + bold.get_linesize() + small.get_linesize() * (1 + len(desc_lines))
            row_h = max(card_h + self.px(16), self.px(120), text_h)
            if i % 2 == 0:
                ops.append(("row", pygame.Rect(-self.px(12), y, width + self.px(24), row_h)))
            ids = YAKU_CARDS[name]
            n = len(ids)
            cw = int(card_h * 216 / 348)
            step = min(cw + self.px(6), (col_cards - cw) / max(1, n - 1)) if n > 1 else 0
            for j, cid in enumerate(ids):
                ops.append(("card", cid, card_h, (int(j * step), y + (row_h - card_h) // 2)))
            ty = y + (row_h - text_h) // 2 + self.px(12)
            ops.append(("text", f"{en}", bold, theme.CREAM, (col_name, ty)))
            ops.append(("text", f"{romaji}  {kanji}", small, theme.GOLD, (col_name, ty + bold.get_linesize())))
            dy = ty + bold.get_linesize() + small.get_linesize()
            for line in desc_lines:
                ops.append(("text", line, small, theme.CREAM_DIM, (col_name, dy)))
                dy += small.get_linesize()
            ops.append(("points", pts, (col_pts, y + row_h // 2)))
            y += row_h
        y += gap
        ops.append(("text", "Scoring in these rules", h2, theme.GOLD_LIGHT, (0, y)))
        y += h2.get_linesize() + self.px(6)
        for note in rule_notes(rules):
            ops.append(("bullet", (self.px(8), y + body.get_linesize() // 2)))
            para(note, body, theme.CREAM, indent=self.px(30))
            y += self.px(6)
        y += gap
        margin = self.px(20)
        full = pygame.Surface((width + 2 * margin, max(1, y)), pygame.SRCALPHA)
        surf = full.subsurface(pygame.Rect(margin, 0, width, max(1, y)))
        pts_font = self.font("h2", True)
        for op in ops:
            kind = op[0]
            if kind == "text":
                W.draw_text(surf, op[1], op[2], op[3], op[4])
            elif kind == "divider":
                W.draw_divider(surf, 0, width, op[1], theme.GOLD_DARK, max(1, self.px(2)))
            elif kind == "row":
                r = op[1].move(margin, 0)
                full.blit(W.rounded_surface(r.size, self.px(10), theme.PANEL_ROW), r.topleft)
            elif kind == "card":
                W.draw_card(surf, a.card(op[1], op[2], month_number=self.app.settings.get("month_numbers", True)),
                            op[3], shadow=True)
            elif kind == "ctext":
                W.draw_text(surf, op[1], op[2], op[3], op[4], "midtop")
            elif kind == "points":
                W.draw_text(surf, op[1], pts_font, theme.GOLD_LIGHT, op[2], "midright")
            elif kind == "bullet":
                pygame.draw.circle(surf, theme.GOLD, op[1], max(2, self.px(5)))
        self.scroller.content_height = y
        return full.convert_alpha() if pygame.display.get_surface() else full

    def handle(self, event) -> bool:
        if super().handle(event):
            return True
        return self.scroller.handle(event)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.scroller.update(dt if self.app.anim_speed > 0 else 0)

    @property
    def animating(self) -> bool:
        return super().animating or self.scroller.animating

    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, "How to play", self.px(30))
        W.draw_panel(surface, self.panel, s=self.s)
        if self._content is None:
            self._content = self._build()
        vp = self.scroller.viewport
        margin = self.px(20)   # row backgrounds reach a little outside the text column
        off = int(self.scroller.offset)
        surface.blit(self._content, (vp.x - margin, vp.y),
                     area=pygame.Rect(0, off, vp.w + 2 * margin, vp.h))
        self.scroller.draw_bar(surface)
        if self.scroller.scrollable and self.scroller.offset < self.scroller.max_offset - 2:
            W.draw_text(surface, "Scroll for more ▾", self.font("tiny"), theme.CREAM_DIM,
                        (self.panel.right - self.px(24), self.panel.bottom + self.px(10)), "topright")
