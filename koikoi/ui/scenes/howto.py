"""How to play: a scrollable page drawn with the real card art.

The card gallery (the 48 cards, month by month, each kind labelled), how a
turn works (the hand stage, the stock stage, matching none, one, two or
three field cards), the yaku of a rule set with example cards and points
(one tab per preset), and the Koi-Koi decision with the multipliers of
those rules. Reached from the title and from the pause menu.
"""

from __future__ import annotations

from typing import Optional

import pygame

from ...engine import DECK, MONTH_NAMES, PLANTS, PRESET_DESCRIPTIONS, RULESETS, Kind, Rules, settle
from ...engine import yaku as Y
from ...engine.scoring import ino_mode
from ... import narration as N
from .. import theme
from .. import widgets as W
from ..hints import yaku_title
from ...i18n import N_, _, ngettext
from . import MenuScene
from .rule_notes import rule_note_items, rule_notes  # noqa: F401  (re-exported)
from .rules_panel import differing_knobs

# name -> the cards its row pictures (the yaku table's examples); title.py re-exports it.
YAKU_CARDS = {y.name: y.example for y in Y.CAPTURES}

# What graded combos add to a yaku's sentence (and its points a "+").
_GRADED_MORE = {
    "inoshikacho": N_("+1 for each further Animal (Tane then does not count)."),
    "akatan": N_("+1 for each further Ribbon."),
    "aotan": N_("+1 for each further Ribbon."),
    "akatan_aotan": N_("+1 for each further Ribbon."),
}


def _then(first: str, then: Optional[str]) -> str:
    """Two sentences, one after the other (a space between them in English, none in Japanese);
    ``then`` None or "": ``first`` alone."""
    return _("{first} {then}").format(first=first, then=then) if then else first
_COUNTING = ("tane", "tanzaku", "kasu")   # +1 for each card past the threshold, under any rules


def yaku_rows(rules: Rules) -> list[tuple[str, str, str]]:
    """(yaku name, points text, how it is made) for the yaku of ``rules``, from the yaku table."""
    graded = rules.combo_grading == "graded"
    ino = ino_mode(rules)
    on_top = getattr(rules, "akatan_aotan_on_top", False)
    rows = []
    for y in Y.CAPTURES:
        if y.name == "akatan_aotan" and not (graded or on_top):
            continue            # stacked, Akatan and Aotan simply both count
        if y.name in ("hanami_zake", "tsukimi_zake"):
            if rules.viewing == "off":
                continue
            how = _then(_(y.needs), _("Counts only beside another yaku.") if rules.viewing == "with_other_yaku"
                        else None)
            after = getattr(rules, "viewing_after_koikoi", None)
            if after is not None:
                how = _then(how, ngettext("After your own Koi-Koi: {n} point.", "After your own Koi-Koi: {n} points.",
                                          after).format(n=after))
        elif y.name == "inoshikacho":
            how = _then(_(y.needs), {"graded": _(_GRADED_MORE["inoshikacho"]),
                                     "graded_tane_pays": _("+1 for each further Animal (Tane still counts).")
                                     }.get(ino))
        elif y.name == "akatan_aotan" and on_top and not graded:
            how = _then(_(y.needs), _("Paid on top of Akatan and Aotan."))
        else:
            more = _GRADED_MORE.get(y.name) if graded else None
            how = _then(_(y.needs), _(more) if more else None)
        if y.name == "kasu" and rules.sake_cup_is_chaff:
            how = _then(how, _("The Sake cup counts as Chaff too."))
        plus = (y.name in _COUNTING or (y.name == "inoshikacho" and ino != "stack")
                or (graded and y.name in _GRADED_MORE and y.name != "inoshikacho"))
        rows.append((y.name, f"{getattr(rules, y.knob)}{'+' if plus else ''}", how))
    return [r for r in rows if r[1].rstrip("+") != "0"]


KIND_EXAMPLES = (("08-B", N_("Bright  光")), ("10-A", N_("Animal  種")), ("02-RP", N_("Ribbon  短冊")),
                 ("11-P", N_("Chaff  カス")))

BASICS = [
    (N_("The cards"), N_("Hanafuda has 48 cards: four for each month, each month a flower. Cards are "
                         "Brights (光), Animals (種), Ribbons (短冊) or Chaff (カス). The small number in a "
                         "corner shows the month.")),
    (N_("Your turn"), N_("Play a card from your hand. If a field card shows the same month you capture both; "
                         "if two match, choose which to take; with no match your card joins the field. Then the "
                         "top card of the stock is turned and matched the same way.")),
    (N_("Yaku"), N_("Captured cards form yaku: scoring sets such as three Brights or five Ribbons. "
                    "The table below lists them for the rules you pick.")),
    (N_("Koi-Koi or stop"), N_("When you make or improve a yaku you choose: Stop (shōbu) and score your yaku "
                               "now, or call Koi-Koi and play on for more, risking that your opponent stops "
                               "first and takes the round.")),
    (N_("Controls"), N_("Click a hand card, then a field card to capture it, or drag the card onto the field. "
                        "Esc opens the menu during a round; F11 switches fullscreen.")),
]




KIND_LABELS = {Kind.BRIGHT: N_("Bright"), Kind.ANIMAL: N_("Animal"), Kind.RIBBON: N_("Ribbon"),
               Kind.CHAFF: N_("Chaff")}
KIND_COLORS = {Kind.BRIGHT: theme.GOLD_LIGHT, Kind.ANIMAL: (170, 214, 150), Kind.RIBBON: (236, 140, 130),
               Kind.CHAFF: theme.CREAM_DIM}

# (hand card, field cards of its month, caption) for "matching 0 / 1 / 2 / 3"
MATCH_EXAMPLES = (
    ("04-P1", ("07-R", "10-P2"), N_("No match"), N_("The card joins the field.")),
    ("03-B", ("03-P1",), N_("One match"), N_("Take both cards.")),
    ("08-A", ("08-B", "08-P1"), N_("Two match"), N_("Choose which one to take.")),
    ("12-B", ("12-P1", "12-P2", "12-P3"), N_("Three match"), N_("Take all four.")),
)

TURN_TEXT = (
    (N_("1  ·  The hand stage"), N_("Play one card from your hand onto the field. If a field card shows the "
                                    "same month (flower), you capture both into your pile.")),
    (N_("2  ·  The stock stage"), N_("Then the top card of the stock is turned over and matched in the same way: "
                                     "it captures a field card of its month, or stays on the field.")),
    (N_("3  ·  Yaku"), N_("After both stages, if your captured cards make a new yaku or improve one, you decide: "
                          "stop or Koi-Koi. A round with no yaku ends when both hands are empty.")),
)

CONTROLS = N_("Click a hand card, then a field card to capture it, or drag the card onto the field. "
              "Esc opens the menu during a round (the rules of the match, settings, concede); "
              "F11 switches fullscreen.")


def _award_text(award) -> str:
    pts = ngettext("{n} point", "{n} points", award.total).format(n=award.total)
    if not award.multipliers:
        return pts
    # the engine's multiplier labels (koikoi.engine.scoring.multipliers), translated where they are marked
    parts = " ".join(_("×{factor} ({reason})").format(factor=f, reason=N.multiplier_label(label))
                     for label, f in award.multipliers)
    return _("{base} {multipliers} = {total}").format(base=award.base, multipliers=parts, total=pts)


def worked_examples(rules: Rules) -> list[str]:
    """Awards computed by the engine's own ``settle`` for a few stops under ``rules``."""
    three = ("01-B", "03-B", "08-B")
    out = [_("You stop with Sankō ({points}), no Koi-Koi called: {award}.").format(
        points=rules.sanko, award=_award_text(settle(three, rules)))]
    out.append(_("The same after your opponent called Koi-Koi once: {award}.").format(
        award=_award_text(settle(three, rules, opponent_calls=1))))
    out.append(_("After calling Koi-Koi yourself once, you stop with Sankō and Akatan: {award}.").format(
        award=_award_text(settle(three + ('01-RP', '02-RP', '03-RP'), rules, own_calls=1))))
    return out


class HowToPlayScene(MenuScene):
    """A scrollable page; the tabs pick the rule set whose yaku and scoring are shown."""

    def __init__(self, app, rules_name: Optional[str] = None, rules: Optional[Rules] = None):
        last = app.settings.get("last_new_match", {})
        self.rules_name = rules_name or (rules.name if rules is not None else None) or last.get("rules", "casual")
        if self.rules_name not in RULESETS:
            self.rules_name = "casual"
        # the rules of the match being played (house rules and all): its preset's tab shows them
        self.match_rules = rules if rules is not None and rules.name == self.rules_name else None
        self.scroller = W.Scroller(line=48)
        self._content = None          # the page's drawing operations, built on demand
        self._ops: list = []
        self.cards_drawn: set = set()     # card ids on the page (the gallery has all 48)
        super().__init__(app)

    def layout(self) -> None:
        w, h = self.size
        pad = self.px(40)
        self.panel = pygame.Rect(0, 0, min(w - 2 * pad, self.px(1560)), 0)
        self.panel.centerx = w // 2
        self.panel.y = self.px(138)
        self.panel.h = h - self.panel.y - self.px(124)
        names = list(RULESETS)
        wide = self.px(1160) if len(names) <= 6 else self.px(1460)     # more presets: more room
        self.choice = W.ChoiceRow((0, 0, min(self.panel.w - self.px(60), wide), self.px(54)),
                                  [(n, N.rules_name(n)) for n in names], self.rules_name,
                                  self.set_rules, assets=self.app.assets,
                                  font_size=theme.font_px("small", self.s))
        self.choice.rect.midtop = (w // 2, self.panel.y + self.px(22))
        bw, bh = self.px(300), self.px(70)
        self.back_button = self.button((0, 0, bw, bh), _("Back"), self.back, style="secondary",
                                       hotkeys=(pygame.K_BACKSPACE,))
        self.back_button.rect.midbottom = (w // 2, h - self.px(30))
        self.widgets = [self.choice, self.back_button]
        self.focus.set(self.widgets)
        inner = self.panel.inflate(-2 * self.px(44), 0)
        inner.y = self.choice.rect.bottom + self.px(22)
        inner.h = self.panel.bottom - inner.y - self.px(18)
        self.scroller.viewport = inner
        self._content = None

    def shown_rules(self) -> Rules:
        """The rules the page explains: the chosen tab's preset, or the match's own rules
        (house rules included) on the tab of their preset."""
        if self.match_rules is not None and self.match_rules.name == self.rules_name:
            return self.match_rules
        return RULESETS[self.rules_name]

    def set_rules(self, name: str) -> None:
        self.rules_name = name
        off = self.scroller.target
        self._content = None
        self._content = self._build()
        self.scroller.scroll_to(off, instant=True)   # stay where the reader is

    # ---------------------------------------------------------- the page
    def _build(self) -> list:
        """The page as drawing operations laid out at the viewport's width."""
        width = self.scroller.viewport.w
        rules = self.shown_rules()
        style = self.app.settings.get("name_style", "both")
        h2, body, small, bold = self.font("h3", True), self.font("body"), self.font("small"), self.font("body", True)
        tiny, tiny_b = self.font("tiny"), self.font("tiny", True)
        gap = self.px(22)
        ops: list = []
        y = 0
        self.cards_drawn = set()

        def para(text, font, color, indent=0, w=None):
            nonlocal y
            for line in W.wrap_text(text, font, (w or width) - indent):
                ops.append(("text", line, font, color, (indent, y)))
                y += font.get_linesize()

        def heading(text):
            nonlocal y
            ops.append(("text", text, h2, theme.GOLD_LIGHT, (0, y)))
            y += h2.get_linesize() + self.px(6)

        def card(cid, hgt, pos):
            ops.append(("card", cid, hgt, pos))
            self.cards_drawn.add(cid)

        # ---- the cards
        heading(_("The cards"))
        para(_("Hanafuda has 48 cards: four for each month, each month a flower. Each card is a Bright (光), "
               "an Animal (種), a Ribbon (短冊) or Chaff (カス); the yaku are made of these kinds. "
               "The small number in a corner is the month."), body, theme.CREAM)
        y += self.px(16)
        cols = 2 if width > self.px(1100) else 1
        col_gap = self.px(50)
        col_w = (width - col_gap * (cols - 1)) // cols
        # the month's number, name and plant before its cards: as wide as the widest of them
        name_x = self.px(58)
        label_w = max(self.px(230), name_x + self.px(16) + max(
            max(W.text_width(_(MONTH_NAMES[m]), bold), W.text_width(_(PLANTS[m]), small)) for m in range(12)))
        self.gallery_label_w = label_w
        ch = self.px(150)
        cw = int(ch * 216 / 348)
        step = min(cw + self.px(22), (col_w - label_w - cw) // 3)
        if step < cw + self.px(8):            # a narrow page: smaller cards
            ch = int((col_w - label_w) / 4.6 * 348 / 216)
            cw = int(ch * 216 / 348)
            step = cw + self.px(8)
        row_h = ch + tiny.get_linesize() + self.px(22)
        per_col = (12 + cols - 1) // cols
        top = y
        for m in range(12):
            c, r = divmod(m, per_col)
            x0 = c * (col_w + col_gap)
            ry = top + r * row_h
            if r % 2 == 0:
                ops.append(("row", pygame.Rect(x0 - self.px(12), ry - self.px(6), col_w + self.px(24), row_h)))
            ops.append(("text", f"{m + 1}", self.font("h2", True), theme.GOLD, (x0, ry + self.px(8))))
            ops.append(("text", _(MONTH_NAMES[m]), bold, theme.CREAM, (x0 + name_x, ry + self.px(12))))
            ops.append(("text", _(PLANTS[m]), small, theme.CREAM_DIM,
                        (x0 + name_x, ry + self.px(12) + bold.get_linesize())))
            for j in range(4):
                cd = DECK[4 * m + j]
                cx = x0 + label_w + j * step
                card(cd.id, ch, (cx, ry))
                ops.append(("ctext", _(KIND_LABELS[cd.kind]), tiny_b, KIND_COLORS[cd.kind],
                            (cx + cw // 2, ry + ch + self.px(4))))
        y = top + per_col * row_h + gap
        ops.append(("divider", y))
        y += gap

        # ---- a turn
        heading(_("How a turn works"))
        for title, text in TURN_TEXT:
            ops.append(("text", _(title), bold, theme.GOLD, (0, y)))
            y += bold.get_linesize()
            para(_(text), body, theme.CREAM, indent=self.px(30))
            y += self.px(10)
        y += self.px(8)
        ops.append(("text", _("MATCHING A CARD"), self.font("small", True), theme.GOLD, (0, y)))
        y += small.get_linesize() + self.px(10)
        n = len(MATCH_EXAMPLES)
        mgap = self.px(20)
        box_w = (width - mgap * (n - 1)) // n
        mh = min(self.px(130), int((box_w - self.px(40)) / 3.2 * 348 / 216))
        mw = int(mh * 216 / 348)
        box_h = self.px(16) + mh + self.px(22) + bold.get_linesize() + small.get_linesize() * 2 + self.px(12)
        for i, (hand, field, title, text) in enumerate(MATCH_EXAMPLES):
            bx = i * (box_w + mgap)
            ops.append(("box", pygame.Rect(bx, y, box_w, box_h)))
            cy = y + self.px(16)
            # the played card, an arrow, the field cards of its month (overlapping)
            fstep = min(mw + self.px(6), int(mw * 0.62)) if len(field) > 2 else mw + self.px(6)
            span = mw + self.px(34) + mw + fstep * (len(field) - 1)
            x = bx + (box_w - span) // 2
            card(hand, mh, (x, cy - self.px(8)))
            ops.append(("ctext", "→", bold, theme.GOLD_LIGHT, (x + mw + self.px(17), cy + mh // 2 - bold.get_linesize() // 2)))
            fx = x + mw + self.px(34)
            for j, cid in enumerate(field):
                card(cid, mh, (fx + j * fstep, cy))
            ty = cy + mh + self.px(18)
            ops.append(("ctext", _(title), bold, theme.GOLD_LIGHT if i else theme.CREAM_DIM, (bx + box_w // 2, ty)))
            ty += bold.get_linesize()
            for line in W.wrap_text(_(text), small, box_w - self.px(20))[:2]:
                ops.append(("ctext", line, small, theme.CREAM, (bx + box_w // 2, ty)))
                ty += small.get_linesize()
        y += box_h + self.px(14)
        para(_("The stock card follows the same rules; when it matches two field cards you choose which to take."),
             small, theme.CREAM_DIM)
        y += gap
        ops.append(("divider", y))
        y += gap

        # ---- yaku
        house = rules != RULESETS[self.rules_name]
        label = N.preset_label(self.rules_name)
        heading(_("Yaku in {preset}").format(preset=label) if not house
                else _("Yaku in this match ({preset} with house rules)").format(preset=N.rules_name(self.rules_name)))
        described = PRESET_DESCRIPTIONS.get(self.rules_name)
        if described:
            para(_(described), body, theme.CREAM)
            y += self.px(4)
        para(_("Captured cards form yaku. Points are shown at the right; “+” means one more point for each "
               "further card of the kind."), small, theme.CREAM_DIM)
        y += self.px(10)
        card_h = self.px(124)
        col_cards = int(width * 0.31)
        col_name = col_cards + self.px(24)
        col_pts = width - self.px(10)
        for i, (name, pts, how) in enumerate(yaku_rows(rules)):
            main, sub = yaku_title(name, style)
            desc_w = col_pts - col_name - self.px(90)
            desc_lines = W.wrap_text(how, small, desc_w)[:2]
            text_h = self.px(24) + bold.get_linesize() + small.get_linesize() * (1 + len(desc_lines))
            rh = max(card_h + self.px(16), self.px(120), text_h)
            if i % 2 == 0:
                ops.append(("row", pygame.Rect(-self.px(12), y, width + self.px(24), rh)))
            ids = Y.info(name).example
            k = len(ids)
            cwy = int(card_h * 216 / 348)
            stp = min(cwy + self.px(6), (col_cards - cwy) / max(1, k - 1)) if k > 1 else 0
            for j, cid in enumerate(ids):
                card(cid, card_h, (int(j * stp), y + (rh - card_h) // 2))
            ty = y + (rh - text_h) // 2 + self.px(12)
            ops.append(("text", main, bold, theme.CREAM, (col_name, ty)))
            ops.append(("text", sub, small, theme.GOLD, (col_name, ty + bold.get_linesize())))
            dy = ty + bold.get_linesize() + small.get_linesize()
            for line in desc_lines:
                ops.append(("text", line, small, theme.CREAM_DIM, (col_name, dy)))
                dy += small.get_linesize()
            ops.append(("points", pts, (col_pts, y + rh // 2)))
            y += rh
        y += gap
        ops.append(("divider", y))
        y += gap

        # ---- koi-koi
        heading(_("Koi-Koi or stop"))
        text_w = int(width * 0.58)
        para(_("When you make a yaku or improve one, you choose:"), body, theme.CREAM, w=text_w)
        y0 = y + self.px(10)
        for label, color, text in (
                (_("Stop  (Shōbu)"), theme.LACQUER_LIGHT, _("End the round now and score what your yaku are worth.")),
                (_("Koi-Koi"), theme.GOLD, _("Play on for more. If your opponent then makes a yaku and stops first, "
                                             "they take the round, often with their points multiplied."))):
            ops.append(("pill", label, color, pygame.Rect(self.px(10), y0, self.px(230), self.px(52))))
            yy = y0 + self.px(4)
            for line in W.wrap_text(text, small, text_w - self.px(270)):
                ops.append(("text", line, small, theme.CREAM, (self.px(270), yy)))
                yy += small.get_linesize()
            y0 = max(y0 + self.px(52), yy) + self.px(16)
        # an example hand beside it: three Brights made
        ex_h = self.px(150)
        ex_w = int(ex_h * 216 / 348)
        ex_x = text_w + self.px(40)
        for j, cid in enumerate(("01-B", "03-B", "08-B")):
            card(cid, ex_h, (ex_x + j * (ex_w + self.px(10)), y))
        ops.append(("ctext", _("Sankō made: {n} points. Stop, or Koi-Koi?").format(n=rules.sanko), small,
                    theme.GOLD_LIGHT,
                    (ex_x + (3 * ex_w + 2 * self.px(10)) // 2, y + ex_h + self.px(8))))
        y = max(y0, y + ex_h + self.px(8) + small.get_linesize()) + self.px(12)
        ops.append(("text", _("WORKED EXAMPLES"), self.font("small", True), theme.GOLD, (0, y)))
        y += small.get_linesize() + self.px(6)
        for text in worked_examples(rules):
            ops.append(("bullet", (self.px(8), y + body.get_linesize() // 2)))
            para(text, body, theme.GOLD_LIGHT, indent=self.px(30))
            y += self.px(4)
        y += self.px(14)
        ops.append(("text", _("SCORING AND MULTIPLIERS IN THESE RULES"), self.font("small", True), theme.GOLD,
                    (0, y)))
        y += small.get_linesize() + self.px(8)
        for note in rule_notes(rules, changed=differing_knobs(rules)):
            ops.append(("bullet", (self.px(8), y + body.get_linesize() // 2)))
            para(note, body, theme.CREAM, indent=self.px(30))
            y += self.px(6)
        y += gap
        ops.append(("divider", y))
        y += gap
        heading(_("Controls"))
        para(_(CONTROLS), body, theme.CREAM)
        y += gap

        self.scroller.content_height = y
        # the page is kept as a list of drawing operations, each with its vertical extent,
        # and only those in view are drawn each frame: no page-sized surface in memory
        spans = []
        for op in ops:
            spans.append(self._span(op))
        self._ops = list(zip(spans, ops))
        return self._ops

    def _span(self, op) -> tuple[int, int]:
        kind = op[0]
        if kind in ("text", "ctext"):
            return op[4][1], op[4][1] + op[2].get_linesize()
        if kind == "divider":
            return op[1] - 2, op[1] + 4
        if kind in ("row", "box"):
            return op[1].top, op[1].bottom
        if kind == "pill":
            return op[3].top, op[3].bottom
        if kind == "card":
            return op[3][1] - op[2] // 8, op[3][1] + op[2] + op[2] // 6   # with the shadow
        if kind == "points":
            h = self.font("h2", True).get_linesize()
            return op[2][1] - h, op[2][1] + h
        if kind == "bullet":
            return op[1][1] - 8, op[1][1] + 8
        return 0, 0

    def _draw_ops(self, surface: pygame.Surface, origin: tuple[int, int], top: int, bottom: int) -> None:
        """Draw the operations whose extent meets [top, bottom) with the page's (0, 0) at ``origin``."""
        a = self.app.assets
        numbers = bool(self.app.settings.get("month_numbers", True))
        width = self.scroller.viewport.w
        pts_font = self.font("h2", True)
        ox, oy = origin

        def at(p):
            return (p[0] + ox, p[1] + oy)
        for (y0, y1), op in self._ops:
            if y1 < top or y0 > bottom:
                continue
            kind = op[0]
            if kind == "text":
                W.draw_text(surface, op[1], op[2], op[3], at(op[4]))
            elif kind == "divider":
                W.draw_divider(surface, ox, ox + width, op[1] + oy, theme.GOLD_DARK, max(1, self.px(2)))
            elif kind == "row":
                r = op[1].move(ox, oy)
                surface.blit(W.rounded_surface(r.size, self.px(10), theme.PANEL_ROW), r.topleft)
            elif kind == "box":
                r = op[1].move(ox, oy)
                surface.blit(W.rounded_surface(r.size, self.px(12), (255, 255, 255, 12), border=theme.GOLD_DARK,
                                               border_width=1), r.topleft)
            elif kind == "card":
                W.draw_card(surface, a.card(op[1], op[2], month_number=numbers), at(op[3]), shadow=True)
            elif kind == "ctext":
                W.draw_text(surface, op[1], op[2], op[3], at(op[4]), "midtop")
            elif kind == "points":
                W.draw_text(surface, op[1], pts_font, theme.GOLD_LIGHT, at(op[2]), "midright")
            elif kind == "bullet":
                pygame.draw.circle(surface, theme.GOLD, at(op[1]), max(2, self.px(5)))
            elif kind == "pill":
                _, label, color, r = op
                r = r.move(ox, oy)
                surface.blit(W.rounded_surface(r.size, r.h // 3, theme.darken(color, 0.25),
                                               bottom=theme.darken(color, 0.55), border=theme.GOLD,
                                               border_width=1), r.topleft)
                W.draw_text(surface, label, self.font("body", True), theme.CREAM, r.center, "center")

    # ---------------------------------------------------------- scene
    def handle(self, event) -> bool:
        if super().handle(event):
            return True
        return self.scroller.handle(event)

    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, _("How to play"), self.px(24))
        W.draw_panel(surface, self.panel, s=self.s)
        if self._content is None:
            self._content = self._build()
        vp = self.scroller.viewport
        margin = self.px(20)   # row backgrounds reach a little outside the text column
        off = int(self.scroller.offset)
        prev = surface.get_clip()
        surface.set_clip(vp.inflate(2 * margin, 0).clip(prev) if prev else vp.inflate(2 * margin, 0))
        self._draw_ops(surface, (vp.x, vp.y - off), off, off + vp.h)
        surface.set_clip(prev)
        self.scroller.draw_bar(surface)
        if self.scroller.scrollable and self.scroller.offset < self.scroller.max_offset - 2:
            W.draw_text(surface, _("Scroll for more ▾"), self.font("tiny"), theme.CREAM_DIM,
                        (self.panel.right - self.px(24), self.panel.bottom + self.px(10)), "topright")


__all__ = ["HowToPlayScene", "yaku_rows", "rule_notes", "YAKU_CARDS", "KIND_EXAMPLES", "BASICS",
           "MATCH_EXAMPLES"]
