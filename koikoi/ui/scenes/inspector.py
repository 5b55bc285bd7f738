"""The combo inspector: one side's combos in full, over the paused table.

Opened by clicking YOUR COMBOS / CPU COMBOS on the table. It lists the yaku
that side holds (names, points, their cards), on Easy also the yaku one or
two cards away, then the base total, the multipliers that would apply
(``view.award``) and the award that side would earn by stopping now, clearly
a preview. NEXT / PREVIOUS page through long lists; CLOSE, Esc or P resume.
While it is on top nothing below it updates (``pauses_below``): the CPU, the
animations and every timer of the round wait.
"""

from __future__ import annotations

from typing import Callable, Optional

import pygame

from ...engine.scoring import multipliers
from ...i18n import _, ngettext
from ...narration import multiplier_label
from .. import hints, theme
from .. import widgets as W
from ..scene import Scene
from ..tooltip import HoverTimer, draw_tooltip

CLOSE_KEYS = (pygame.K_ESCAPE, pygame.K_p, pygame.K_BACKSPACE)
NEXT_KEYS = (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_n, pygame.K_DOWN)
PREV_KEYS = (pygame.K_LEFT, pygame.K_PAGEUP, pygame.K_UP)


class Entry:
    """One row of the inspector: a completed yaku or a near miss."""

    __slots__ = ("kind", "name", "points", "cards", "text")

    def __init__(self, kind: str, name: str, points: int, cards: tuple, text: str = ""):
        self.kind = kind          # "yaku" or "near"
        self.name = name
        self.points = points
        self.cards = cards
        self.text = text


class InspectorScene(Scene):
    opaque = False
    pauses_below = True
    pausable = False

    def __init__(self, app, session, viewer: int, side: int, *, practice: bool = False,
                 title: Optional[str] = None, on_close: Optional[Callable[[], None]] = None,
                 you: bool = False):
        super().__init__(app)
        self.session = session
        self.viewer = viewer
        self.side = side
        self.practice = practice
        self.you = you
        self.title = title or (_("YOUR COMBOS") if you else _("COMBOS"))
        self.on_close = on_close
        self.closed = False
        self.page = 0
        self.pages: list[list[Entry]] = [[]]
        self.t = 0.0
        self.tip = HoverTimer()
        self.mouse = (-10000, -10000)
        self.card_rects: list = []       # (Rect, card id) on the current page, window pixels
        self.style = hints.style_of(getattr(app, "settings", {}))
        v = session.view(viewer)
        self.award = v.award(side)
        # with no combo yet the award has no multipliers: say which would apply once it scores
        self.pending_mults = ()
        if not self.award.base:
            try:
                self.pending_mults = tuple(m for m in multipliers(1, v.rules, v.calls[side], v.calls[1 - side],
                                                                  v.field_brights) if m[1] > 1)
            except Exception:
                self.pending_mults = ()
        self.entries = [Entry("yaku", n, p, tuple(ids)) for n, p, ids in self.award.yaku]
        if not self.entries:
            self.entries = [Entry("none", "", 0, ())]
        self.near: list = []
        if practice:
            try:
                self.near = hints.near_misses(v, side)
            except Exception:   # a hint must never stop the game
                self.near = []
            self.entries += [Entry("near", m.name, m.points, m.candidates,
                                   _("{away} {noun} away ({unseen} of {total} left unseen)").format(
                                       away=m.away, noun=_(m.noun), unseen=m.unseen, total=len(m.candidates)))
                             for m in self.near]
        self.size = None
        self._img: Optional[pygame.Surface] = None
        self._img_key = None
        self.resize(app.size)

    # ------------------------------------------------------------------ layout
    def px(self, n: float) -> int:
        return theme.px(n, self.s)

    def font(self, role: str, bold: bool = False):
        return self.app.assets.font(theme.font_px(role, self.s), bold)

    def resize(self, size) -> None:
        self.size = tuple(size)
        w, h = self.size
        self.s = theme.scale(size)
        pw = min(w - self.px(48), max(self.px(1180), int(w * 0.6)))
        ph = min(h - self.px(40), self.px(980))
        self.panel = pygame.Rect(0, 0, pw, ph)
        self.panel.center = (w // 2, h // 2)
        self.pad = self.px(40)
        self.row_h = max(self.px(150), int(h * 0.135))
        self.near_h = max(self.px(104), int(h * 0.094))
        self.none_h = self.font("body").get_linesize() * 2
        title_h = self.font("h1", True).get_linesize() + self.px(28)
        foot_h = self.font("body").get_linesize() * 3 + self.px(30)
        self.bh = self.px(66)
        self.body = pygame.Rect(self.panel.x + self.pad, self.panel.y + self.pad + title_h,
                                pw - 2 * self.pad, ph - 2 * self.pad - title_h - foot_h - self.bh - self.px(24))
        self.foot_y = self.body.bottom + self.px(8)
        self._paginate()
        bw = self.px(220)
        by = self.panel.bottom - self.pad - self.bh
        a = self.app.assets
        self.prev_b = W.Button(pygame.Rect(self.panel.x + self.pad, by, bw, self.bh), _("PREVIOUS"), self.prev,
                               style="secondary", assets=a, sound="click")
        self.next_b = W.Button(pygame.Rect(self.panel.x + self.pad + bw + self.px(18), by, bw, self.bh), _("NEXT"),
                               self.next, style="secondary", assets=a, sound="click")
        self.close_b = W.Button(pygame.Rect(self.panel.right - self.pad - bw, by, bw, self.bh), _("CLOSE"),
                                self.close, style="primary", assets=a, sound="click")
        self._sync_buttons()
        self._img = None

    def _paginate(self) -> None:
        pages, cur, used = [], [], 0
        room = max(1, self.body.h)
        for e in self.entries:
            hgt = self.row_h if e.kind == "yaku" else self.near_h if e.kind == "near" else self.none_h
            if cur and used + hgt > room:
                pages.append(cur)
                cur, used = [], 0
            cur.append(e)
            used += hgt
        pages.append(cur)
        self.pages = pages
        self.page = max(0, min(self.page, len(pages) - 1))

    def _sync_buttons(self) -> None:
        many = len(self.pages) > 1
        self.prev_b.visible = self.next_b.visible = many
        self.prev_b.enabled = self.page > 0
        self.next_b.enabled = self.page < len(self.pages) - 1

    # ------------------------------------------------------------------ acting
    def next(self) -> None:
        if self.page < len(self.pages) - 1:
            self.page += 1
            self._after_page()

    def prev(self) -> None:
        if self.page > 0:
            self.page -= 1
            self._after_page()

    def _after_page(self) -> None:
        self._sync_buttons()
        self.tip.hide()
        self._img = None

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.tip.hide()
        if self.on_close is not None:
            self.on_close()
        elif self in getattr(self.app, "scenes", ()):
            self.app.remove(self)

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = tuple(event.pos)
        for b in (self.close_b, self.next_b, self.prev_b):
            if b.handle(event):
                return True
        if event.type == pygame.KEYDOWN:
            if event.key in CLOSE_KEYS or event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.close()
            elif event.key in NEXT_KEYS:
                self.next()
            elif event.key in PREV_KEYS:
                self.prev()
            return True
        if event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 1) == 3:
            self.close()
            return True
        return True    # modal: nothing reaches the table

    def update(self, dt: float) -> None:
        self.t += dt
        self.animating = self.t < 0.3 or self.tip.key is not None
        hit = None
        if self.practice:
            for r, cid in reversed(self.card_rects):
                if r.collidepoint(self.mouse):
                    hit = cid
                    break
        self.tip.update(dt, hit, hit, self.mouse, self.practice and hit is not None)

    # ------------------------------------------------------------------ drawing
    def _preview(self) -> str:
        return _("Preview: if you stopped now") if self.you else _("Preview: if they stopped now")

    def _render(self) -> pygame.Surface:
        """The panel for the current page (cached until the page or size changes)."""
        p = self.panel
        pad = self.pad
        img = pygame.Surface(p.size, pygame.SRCALPHA)
        img.blit(W.rounded_surface(p.size, self.px(22), (22, 26, 24, 248), bottom=(10, 14, 12, 248),
                                   border=theme.GOLD, border_width=max(2, self.px(3)), highlight=24), (0, 0))
        title_f = self.font("h1", True)
        sub_f = self.font("small")
        body_f = self.font("body")
        pts_f = self.font("h2", True)
        y = pad
        # the title, left; the page and the practice note, right: the title gives way when long
        notes = []
        if len(self.pages) > 1:
            notes.append(_("Page {n} of {total}").format(n=self.page + 1, total=len(self.pages)))
        if self.near and self.practice:
            notes.append(_("Easy practice: combos within two cards are listed too"))
        inner = p.w - 2 * pad
        notes_w = max((W.text_width(n, sub_f) for n in notes), default=0)
        title_room = max(int(inner * 0.4), inner - notes_w - self.px(32))
        tf = W.fit_font(self.app.assets, self.title, title_room, theme.font_px("h1", self.s), bold=True,
                        minimum=theme.font_px("h3", self.s))
        r = W.draw_text(img, W.ellipsize(self.title, tf, title_room), tf, theme.GOLD_LIGHT,
                        (pad, y + (title_f.get_height() - tf.get_height()) // 2))
        note_room = inner - r.w - self.px(32)
        lines = [line for n in notes for line in W.wrap_text(n, sub_f, note_room)][:3]
        ny = r.centery - (sub_f.get_linesize() * (len(lines) - 1)) // 2
        for line in lines:
            W.draw_text(img, W.ellipsize(line, sub_f, note_room), sub_f, theme.CREAM_DIM, (p.w - pad, ny),
                        "midright")
            ny += sub_f.get_linesize()
        y = self.body.y - p.y - self.px(14)
        W.draw_divider(img, pad, p.w - pad, y, theme.GOLD_DARK)
        self.card_rects = []
        month_numbers = bool(getattr(self.app, "settings", {}).get("month_numbers", True))
        y = self.body.y - p.y
        entries = self.pages[self.page] if self.pages else []
        shown_near_header = False
        for e in entries:
            if e.kind == "none":
                msg = _("No completed combos yet.")
                if self.practice and not self.near:
                    msg = _("No combos yet, and none within two cards.")
                W.draw_text(img, "—", pts_f, theme.CREAM_DIM, (pad, y + (self.none_h - pts_f.get_height()) // 2))
                W.draw_text(img, msg, body_f, theme.CREAM_DIM, (pad + self.px(60), y + self.none_h // 2), "midleft")
                y += self.none_h
                continue
            if e.kind == "yaku":
                h = self.row_h
                card_h = int(h * 0.78)
                # the kanji and the short name; the English under them when both are shown
                main, second = hints.yaku_heading_lines(e.name, self.style)
                room = int(p.w * 0.36) - self.px(20)        # the cards start at 0.36 of the panel
                nf = W.fit_font(self.app.assets, main, room, theme.font_px("h3", self.s), bold=True,
                                minimum=theme.font_px("small", self.s))
                nr = W.draw_text(img, W.ellipsize(main, nf, room), nf, theme.CREAM, (pad, y + self.px(12)))
                if second:
                    W.draw_text(img, W.ellipsize(second, sub_f, room), sub_f, theme.CREAM_DIM,
                                (pad, nr.bottom + self.px(4)))
                W.draw_text(img, f"{e.points}", pts_f, theme.GOLD_LIGHT, (p.w - pad, y + h // 2), "midright")
                W.draw_text(img, _("pts"), sub_f, theme.CREAM_DIM, (p.w - pad, y + h // 2 + pts_f.get_height() // 2),
                            "topright")
                self._cards(img, e.cards, card_h, y + (h - card_h) // 2, month_numbers,
                            left=pad + int(p.w * 0.36), right=p.w - pad - self.px(110))
                y += h
            else:
                h = self.near_h
                if not shown_near_header:
                    shown_near_header = True
                    W.draw_divider(img, pad, p.w - pad, y + self.px(2), (*theme.GOLD_DARK, 120))
                card_h = int(h * 0.72)
                tag_f = self.font("tiny", True)
                tag = pygame.Rect(pad, y + self.px(12), tag_f.size(_("NEAR"))[0] + self.px(16), tag_f.get_height() + 4)
                img.blit(W.rounded_surface(tag.size, tag.h // 2, (*theme.LACQUER_DARK, 230),
                                           border=theme.LACQUER_LIGHT, border_width=1), tag.topleft)
                W.draw_text(img, _("NEAR"), tag_f, theme.CREAM, tag.center, "center", shadow=False)
                tx = tag.right + self.px(16)
                head = hints.yaku_heading(e.name, self.style)
                worth = _("worth {points}").format(points=e.points)
                room = int(p.w * 0.6) - tx - W.text_width(worth, sub_f) - self.px(14)   # the cards: from 0.62
                hf = W.fit_font(self.app.assets, head, room, theme.font_px("body", self.s), bold=True,
                                minimum=theme.font_px("small", self.s))
                hr = W.draw_text(img, W.ellipsize(head, hf, room), hf, theme.CREAM, (tx, y + self.px(8)))
                W.draw_text(img, worth, sub_f, theme.GOLD, (hr.right + self.px(14), hr.bottom), "bottomleft")
                text = W.ellipsize(e.text, body_f, int(p.w * 0.6) - tx)
                W.draw_text(img, text, body_f, theme.CREAM_DIM, (tx, hr.bottom + self.px(2)))
                self._cards(img, e.cards[:8], card_h, y + (h - card_h) // 2, month_numbers,
                            left=pad + int(p.w * 0.62), right=p.w - pad, dim=True)
                y += h
        # the footer: base, multipliers, the preview
        aw = self.award
        y = self.foot_y - p.y
        W.draw_divider(img, pad, p.w - pad, y, theme.GOLD_DARK)
        y += self.px(12)
        lh = body_f.get_linesize()
        preview = self._preview()
        col = pad + max(W.text_width(t, body_f) for t in (
            _("Base total"), _("Multipliers"), preview)) + self.px(36)
        W.draw_text(img, _("Base total"), body_f, theme.CREAM_DIM, (pad, y))
        W.draw_text(img, f"{aw.base}", body_f, theme.CREAM, (col, y))
        y += lh
        if aw.multipliers:
            mult = _(",  ").join(_("×{factor} {why}").format(factor=f, why=multiplier_label(label)) for label, f in aw.multipliers)
        elif aw.base:
            mult = _("none")
        elif self.pending_mults:
            mult = _("{multipliers}  (once a combo is made)").format(multipliers=_(",  ").join(
                _("×{factor} {why}").format(factor=f, why=multiplier_label(label)) for label, f in self.pending_mults))
        else:
            mult = _("none (no combo to multiply)")
        W.draw_text(img, _("Multipliers"), body_f, theme.CREAM_DIM, (pad, y))
        mf = body_f if W.text_width(mult, body_f) <= p.w - pad - col else sub_f   # many: a size smaller
        W.draw_text(img, W.ellipsize(mult, mf, p.w - pad - col), mf, theme.CREAM,
                    (col, y + (body_f.get_height() - mf.get_height()) // 2))
        y += lh
        W.draw_text(img, preview, body_f, theme.GOLD_LIGHT, (pad, y))
        tot = ngettext("{n} point", "{n} points", aw.total).format(n=aw.total)
        tr = W.draw_text(img, tot, self.font("body", True), theme.GOLD_LIGHT, (col, y))
        W.draw_text(img, _("(not points won yet)"), sub_f, theme.CREAM_DIM,
                    (tr.right + self.px(16), tr.bottom), "bottomleft")
        return img

    def _cards(self, img, ids, card_h: int, y: int, month_numbers: bool, *, left: int, right: int,
               dim: bool = False) -> None:
        a = self.app.assets
        if not ids:
            return
        imgs = [a.card(c, card_h, month_number=month_numbers) for c in ids]
        cw = imgs[0].get_width()
        avail = max(cw, right - left)
        step = cw + self.px(8)
        if len(imgs) > 1 and cw + step * (len(imgs) - 1) > avail:
            step = max(4, (avail - cw) // (len(imgs) - 1))
        x = left
        for cid, c in zip(ids, imgs):
            img.blit(c, (x, y))
            self.card_rects.append((pygame.Rect(self.panel.x + x, self.panel.y + y, step if step < cw else cw,
                                                card_h), cid))
            x += step
        # the last card shows whole: widen its hit box
        if self.card_rects:
            r, cid = self.card_rects[-1]
            self.card_rects[-1] = (pygame.Rect(r.x, r.y, cw, r.h), cid)

    def draw(self, surface: pygame.Surface) -> None:
        if surface.get_size() != self.size:
            self.resize(surface.get_size())
        key = (self.page, self.size)
        if self._img is None or self._img_key != key:
            self._img = self._render()
            self._img_key = key
        fade = 1.0 if self.app.anim_speed <= 0 else min(1.0, self.t / 0.15)
        W.draw_scrim(surface, (0, 0, 0, int(150 * fade)))
        surface.blit(self._img, self.panel.topleft)
        for b in (self.prev_b, self.next_b, self.close_b):
            b.draw(surface)
        left = self.next_b.rect.right if self.next_b.visible else self.panel.x + self.pad
        hint = _("Esc or P resumes play")
        W.draw_text(surface, hint, self.font("small"), theme.CREAM_DIM,
                    ((left + self.close_b.rect.left) // 2, self.close_b.rect.centery), "center")
        if self.practice and getattr(self.app, "top", self) is self:
            draw_tooltip(surface, self.app.assets, self.tip, self.style)
