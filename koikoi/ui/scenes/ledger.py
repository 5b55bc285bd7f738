"""The end of a match: the winner, then the ledger of every round.

``MatchResultsScene(app, session_or_state, *, from_history=False)``. Given a
live session of a finished match it makes sure the match is filed in the
history and the autosave cleared (``app.finish_match``). Click a row (or
select it with the arrow keys and press Enter) to see that round's score in
detail, or on its "Replay" to step through it (``replay.ReplayScene``); "Rules"
shows the rules the match was played with (``rules_panel.RulesPanelScene``);
"Review match" (V) opens the first round's replay with the match's review
started (``review_panel``: a review already made, or running, is the same one).
A match from the history that was conceded, or abandoned unfinished, says so.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Optional, Union

import pygame

from ...engine import RULESETS, State
from ...engine.events import RoundEnded
from ...i18n import N_, _, ngettext
from .. import theme
from .. import widgets as W
from ..hints import yaku_label
from ...narration import join, preset_label, rules_name
from ..table import seat_label
from . import MenuScene, TableScreen
from . import review_panel as RP
from .saved import MONTH_ABBREVIATIONS
from ...replay import problem_text
from .results import RoundResultsScene, you_seat
from .rules_panel import house_rules_changed
from ...engine.phase import SeatKind
from ...session import MatchSession, SeatConfig, TableSession


class Petals:
    """Cherry petals drifting down over a won match: a few seconds, then gone."""

    LIFE = 6.0

    def __init__(self, size, s: float, seed: int = 0, count: int = 70):
        rng = random.Random(seed)
        self.size = size
        self.t = 0.0
        self.sprites = []
        for variant, color in enumerate(((244, 160, 184), (250, 196, 210), (236, 196, 110))):
            r = max(4, int(12 * s * (1.0 if variant < 2 else 0.75)))
            k = 4   # drawn large, scaled down: soft edges
            big = pygame.Surface((r * 2 * k, int(r * 1.5) * k), pygame.SRCALPHA)
            bw, bh = big.get_size()
            pygame.draw.ellipse(big, (*color, 240), (0, 0, bw, bh))
            # the notch at the tip of a cherry petal
            pygame.draw.polygon(big, (0, 0, 0, 0), [(bw, bh // 2 - bh // 6), (bw - bw // 6, bh // 2),
                                                    (bw, bh // 2 + bh // 6)])
            pygame.draw.ellipse(big, (*theme.darken(color, 0.12), 255), (0, bh // 3, bw // 4, bh // 3))
            base = pygame.transform.smoothscale(big, (bw // k, bh // k))
            self.sprites.append([pygame.transform.rotozoom(base, a, 1.0) for a in range(0, 360, 30)])
        w, h = size
        self.petals = [[rng.uniform(0, w), rng.uniform(-h, 0), rng.uniform(-20, 20) * s,
                        rng.uniform(60, 130) * s, rng.uniform(0, 6.28), rng.uniform(-3, 3),
                        rng.uniform(0, 12), rng.randrange(3)] for _ in range(count)]

    @property
    def alive(self) -> bool:
        return self.t < self.LIFE

    def update(self, dt: float) -> None:
        self.t += dt
        for p in self.petals:
            p[4] += dt * 1.7
            p[0] += (p[2] + math.sin(p[4]) * 30) * dt
            p[1] += p[3] * dt
            p[6] = (p[6] + p[5] * dt) % 12

    def draw(self, surface: pygame.Surface) -> None:
        fade = max(0.0, min(1.0, (self.LIFE - self.t) / 1.5))
        if fade <= 0:
            return
        for x, y, _vx, _vy, _ph, _sp, ang, var in self.petals:
            if -20 < y < self.size[1] + 20:
                img = self.sprites[var][int(ang) % 12]
                if fade < 1:
                    img = img.copy()
                    img.set_alpha(int(255 * fade))
                surface.blit(img, (int(x), int(y)))


def _as_session(obj: Union[TableSession, State]) -> TableSession:
    """``obj`` if it is a session; a finished match's ``State`` (read from a file) as the
    session of two players, "Player 1" and "Player 2", that nothing will write anywhere."""
    if isinstance(obj, TableSession):
        return obj
    seats = (SeatConfig(SeatKind.HUMAN, _("Player {n}").format(n=1)),
             SeatConfig(SeatKind.HUMAN, _("Player {n}").format(n=2)))
    return MatchSession(obj.rules, seed=obj.seed, months=obj.months, seats=seats, state=obj,
                        record=False, narrate=False)


COLUMNS = (
    W.Column("round", N_("Round"), 0.10),
    W.Column("dealer", N_("Dealer"), 0.13),
    W.Column("winner", N_("Winner"), 0.14),
    W.Column("yaku", N_("Yaku"), 0.22),
    W.Column("base", N_("Base"), 0.06, "right"),
    W.Column("mult", N_("Mult."), 0.08, "right"),
    W.Column("award", N_("Award"), 0.07, "right", bold=True),
    W.Column("s0", "", 0.09, "right", bold=True, title_color=theme.SEAT_COLORS[0]),   # titled with the
    W.Column("s1", "", 0.09, "right", bold=True, title_color=theme.SEAT_COLORS[1]),   # seats' names
    W.Column("replay", "", 0.10, "right"),
)
CALLS_COLOR = theme.mix(theme.LACQUER_LIGHT, theme.CREAM, 0.3)
FLEX = "yaku"             # the column that gives way when others need room for their text
FLEX_MIN = 200            # design px the yaku keep while other columns have slack to give
FLEX_FLOOR = 110          # and at the least
REPLAY_W = 140            # the "Replay" pill (130) and a gap


def _take(out: list, floors: list, idxs, amount: int) -> int:
    """Take up to ``amount`` px from the columns ``idxs``, each down to no less than its
    floor, in proportion to what each has above it; returns what was taken."""
    spare = {i: out[i] - floors[i] for i in idxs if out[i] > floors[i]}
    room = sum(spare.values())
    if amount <= 0 or room <= 0:
        return 0
    amount = min(amount, room)
    got = 0
    for i, sp in spare.items():
        cut = min(sp, amount * sp // room)
        out[i] -= cut
        got += cut
    for i in spare:                         # the rounding's last pixels
        if got >= amount:
            break
        if out[i] > floors[i]:
            out[i] -= 1
            got += 1
    return got


def fit_widths(widths: list, needs: list, flex: int, flex_min: int, flex_floor: int) -> list:
    """Column widths (px, the same total) that give every column but ``flex`` at least its
    ``need``, then ``flex`` as much of its own need as the others can spare.

    Starts from ``widths`` (the columns' shares) and widens each column whose text needs
    more; that room comes first from the ``flex`` column down to ``flex_min``, then from
    the other columns' slack (what they have beyond their need), then from ``flex`` down
    to ``flex_floor``, and last from the widened columns alike (a window too narrow for
    the names: they are ellipsized). Then ``flex``, if its text needs more, takes what
    slack the others have left."""
    out = list(widths)
    others = [i for i in range(len(out)) if i != flex]
    for i in others:
        out[i] = max(out[i], needs[i])
    short = sum(out) - sum(widths)
    floors = list(needs)
    floors[flex] = min(out[flex], flex_min)
    short -= _take(out, floors, [flex], short)
    short -= _take(out, floors, others, short)
    floors[flex] = min(out[flex], flex_floor)
    short -= _take(out, floors, [flex], short)
    if short > 0:
        short -= _take(out, [min(w, o) for w, o in zip(widths, out)], others, short)
    if needs[flex] > out[flex]:
        out[flex] += _take(out, floors, others, needs[flex] - out[flex])
    return out


def ledger_cells(row, names: tuple) -> dict:
    """The text of each column for one LedgerRow."""
    if row.reason == "lucky_draw":
        winner = _("Draw")
    elif row.winner is None:
        winner = _("No game")
    else:
        winner = names[row.winner]
    yaku = _(", ").join(_yaku_names(row)) or "—"
    mult = " ".join(f"×{f}" for _l, f in row.multipliers) or "—"
    calls = [_("{name} ({n}×)").format(name=names[s], n=c) if c > 1 else names[s]
             for s, c in enumerate(row.calls) if c]
    return {
        "round": _("{n} · {month}").format(n=row.round, month=_(MONTH_ABBREVIATIONS[(row.round - 1) % 12])),
        "dealer": names[row.dealer] if row.dealer is not None else "—",
        "winner": winner,
        "yaku": yaku,
        "base": str(row.base) if row.winner is not None else "—",
        "mult": mult if row.winner is not None else "—",
        "award": f"+{row.award}" if row.award else "0",
        "s0": str(row.scores[0]),
        "s1": str(row.scores[1]),
        "calls": _calls_line(calls),
    }


def _yaku_names(row) -> list:
    """The yaku of a row by name (a lucky hand's one name)."""
    if row.reason in ("lucky_hand", "field_four") and row.yaku:
        return [yaku_label(row.yaku[0][0], "romaji")]
    return [yaku_label(n, "romaji") for n, _p, _i in row.yaku]


def _calls_line(calls: list) -> str:
    """ "Koi-Koi called by You and CPU" ("" when nobody called)."""
    if not calls:
        return ""
    if len(calls) == 1:
        return _("Koi-Koi called by {name}").format(name=calls[0])
    return _("Koi-Koi called by {first} and {second}").format(first=calls[0], second=join(calls[1:]))


def calls_brief(row, names: tuple, font=None, width: Optional[int] = None) -> str:
    """The Koi-Koi calls of a row in few words: "Koi-Koi: Alexandra-Marie 2×, You".

    Given a ``font`` and a ``width`` it does not fit, the names are shortened alike (with
    "…") so that who called, and how often, still shows."""
    calls = [(names[s], f" {c}×" if c > 1 else "") for s, c in enumerate(row.calls) if c]
    if not calls:
        return ""
    sep = _(", ")
    text = _("Koi-Koi: {names}").format(names=sep.join(n + k for n, k in calls))
    if font is None or width is None or W.text_width(text, font) <= width:
        return text
    fixed = W.text_width(_("Koi-Koi: {names}").format(names=sep.join(k for _n, k in calls))
                         + sep * (len(calls) - 1), font)
    each = max(W.text_width("W…", font), (width - fixed) // len(calls))
    return _("Koi-Koi: {names}").format(names=sep.join(W.ellipsize(n, font, each) + k for n, k in calls))


def ledger_row_cells(row, names: tuple) -> dict:
    """The cells of one ledger row, coloured: the winner in their seat's colour,
    the award and the winner's score in gold, the Koi-Koi calls under the yaku."""
    cells = ledger_cells(row, names)
    dim = theme.CREAM_DIM
    return {
        **cells,
        "winner": W.Cell(cells["winner"], theme.SEAT_COLORS[row.winner] if row.winner is not None else dim),
        "yaku": W.Cell(cells["yaku"], sub=cells["calls"], sub_color=CALLS_COLOR,
                       items=tuple(_yaku_names(row)), sep=_(", ")),     # cut short: "+2 more"
        "mult": W.Cell(cells["mult"], theme.LACQUER_LIGHT if row.multipliers else dim),
        "award": W.Cell(cells["award"], theme.GOLD_LIGHT if row.award else dim),
        "s0": W.Cell(cells["s0"], theme.GOLD_LIGHT if row.winner == 0 else theme.CREAM),
        "s1": W.Cell(cells["s1"], theme.GOLD_LIGHT if row.winner == 1 else theme.CREAM),
    }


def rules_line(st) -> str:
    """ "Casual (6 months, stacking yaku)  ·  6 rounds": the preset's label, which names its
    length, only when the match kept that length ("Casual  ·  3 rounds" for a shorter one),
    then how many house rules the match changed ("  ·  2 house rules changed")."""
    preset = RULESETS.get(st.rules.name)
    label = (preset_label(st.rules.name) if preset is not None and st.months == preset.months
             else rules_name(st.rules.name))
    n = len(st.ledger)
    line = ngettext("{rules}  ·  {n} round", "{rules}  ·  {n} rounds", n).format(rules=label, n=n)
    changed = house_rules_changed(st.rules)
    if changed:
        line = _("{line}  ·  {changes}").format(line=line, changes=ngettext(
            "{n} house rule changed", "{n} house rules changed", changed).format(n=changed))
    return line


def rating_text(rated: Optional[dict]) -> Optional[str]:
    """ "Rating 1500 → 1523 (+23)": how a quick match moved the player's rating, as the
    server told it (``NetSession.rated``), or None before it has (and for any other match)."""
    if not rated:
        return None
    before, after = round(rated["before"]), round(rated["after"])
    return _("Rating {before} → {after} ({change})").format(before=before, after=after,
                                                           change=f"{after - before:+d}")


class MatchResultsScene(TableScreen, MenuScene):
    intro_time = 0.6

    def __init__(self, app, session_or_state: Union[TableSession, State], *, from_history: bool = False,
                 conceded: Optional[int] = None):
        self.conceded = conceded
        self.session = _as_session(session_or_state)
        self.from_history = from_history
        self.names = tuple(seat_label(s.name) for s in self.session.seats)
        columns = []
        for c in COLUMNS:
            if c.key in ("s0", "s1"):
                c = replace(c, title=self.names[int(c.key[1])], literal=True)
            elif c.key == "replay":
                c = replace(c, draw=self._draw_replay, on_click=self.replay_row)
            columns.append(c)
        self.columns = columns             # by share; each layout fits them to the window
        self.table = W.Table(columns, self.session.ledger, cells=self._cells,
                             on_activate=self.open_row, assets=app.assets, keys=self.table_keys_free,
                             empty=N_("No rounds were played."))
        super().__init__(app)
        if not from_history and hasattr(session_or_state, "to_json"):
            app.finish_match(session_or_state)
        self.petals: Optional[Petals] = None
        if not from_history:
            w = self.session.winner
            good = w is not None and (self.session.is_hotseat or self.session.seats[w].kind == SeatKind.HUMAN)
            app.play("win" if good else "lose" if w is not None else "stop", 0.9)
            if good and app.anim_speed > 0:
                self.petals = Petals(self.size, self.s, seed=getattr(self.session, "seed", 0))   # online: no seed is sent

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        pad = self.px(40)
        # the header: label, winner, score line, rules line
        self.y_label = self.px(30)
        big = self.app.assets.font(theme.font_px("display", self.s), True)
        self.y_big = self.y_label + self.px(40) + big.get_linesize() // 2 + self.px(6)
        self.y_score = self.y_big + big.get_linesize() // 2 + self.px(8)
        self.y_rules = self.y_score + self.font("h2", True).get_linesize() + self.px(6)
        top = self.y_rules + self.font("small").get_linesize() + self.px(26)
        bh = self.px(76)
        row_h = self.px(64)
        head_h = self.px(22 + 50)
        need = head_h + max(1, len(self.session.ledger)) * row_h + self.px(24)
        avail = h - top - bh - self.px(80)
        self.panel = pygame.Rect(0, top, min(w - 2 * pad, self.px(1560)), max(self.px(160), min(need, avail)))
        self.panel.centerx = w // 2
        # centre the whole block (header, table, buttons) in the window
        shift = max(0, (h - (self.panel.bottom + self.px(56) + bh + self.px(30))) // 2)
        self.y_label += shift
        self.y_big += shift
        self.y_score += shift
        self.y_rules += shift
        self.panel.y += shift
        self.table.columns = self._fitted_columns(self.panel.w - 2 * self.px(36))
        self.place_table(self.panel, row_h)
        self.table.empty_center = self.panel.center
        bw = self.px(320)
        gap = self.px(24)
        by = min(h - bh - self.px(36), self.panel.bottom + self.px(56))
        if self.from_history:
            first = self.button((0, by, bw, bh), _("Back"), self.back, style="primary",
                                hotkeys=(pygame.K_BACKSPACE,))
        else:
            first = self.button((0, by, bw, bh), _("New match"), self.new_match, style="primary",
                                hotkeys=(pygame.K_n,))
        second = self.button((0, by, bw, bh), _("Title screen"), self.to_title, style="secondary",
                             hotkeys=(pygame.K_t,))
        rules_b = self.button((0, by, bw, bh), _("Rules of this match"), self.show_rules, style="ghost",
                              hotkeys=(pygame.K_r,))
        row = [first, second, rules_b]
        if self.can_review:
            row.append(self.button((0, by, bw, bh), _("Review match"), self.review_match, style="secondary",
                                   hotkeys=(pygame.K_v,)))
        self.place_row(row, gap)
        self.focus.vertical_keys = False   # Up/Down walk the rows

    def _cells(self, row) -> dict:
        """A row's cells; the Koi-Koi calls said briefly when the yaku column is too narrow."""
        cells = ledger_row_cells(row, self.names)
        y = cells["yaku"]
        if y.sub:
            try:
                room = self.table.cell_rect(0, FLEX).w - self.px(self.table.cell_pad + 4)
            except KeyError:
                return cells
            small = self.font("tiny")
            if W.text_width(y.sub, small) > room:
                cells["yaku"] = replace(y, sub=calls_brief(row, self.names, small, room))
        return cells

    def _text_needs(self) -> dict:
        """Per column key, the px its widest text in this match needs: its title as the
        table draws it (capitals, ``tiny`` bold, ``cell_pad`` from the edge) and every
        row's cell (``small``, bold where the table draws it bold, ``cell_pad`` + 4)."""
        head = self.font("tiny", True)
        body, bold, small = self.font("small"), self.font("small", True), self.font("tiny")
        t = self.table
        gap = self.px(14)          # air between one column's text and the next one's
        needs = {}
        cells = [ledger_row_cells(row, self.names) for row in self.session.ledger]
        for c in self.columns:
            if c.draw is not None:
                needs[c.key] = self.px(REPLAY_W)
                continue
            title = c.title if c.literal else _(c.title)      # as the table draws it
            n = (W.text_width(W.caps(title), head) + self.px(t.cell_pad) + gap) if c.title else 0
            for row in cells:
                cell = row.get(c.key)
                if cell is None:
                    continue
                if not isinstance(cell, W.Cell):
                    cell = W.Cell(str(cell))
                f = bold if (cell.bold if cell.bold is not None else c.bold) else body
                n = max(n, W.text_width(cell.text, f) + self.px(t.cell_pad + 4) + gap)
                if cell.sub:
                    n = max(n, W.text_width(cell.sub, small) + self.px(t.cell_pad + 4) + gap)
            needs[c.key] = n
        return needs

    def _fitted_columns(self, width: int) -> list:
        """The table's columns for ``width`` px: each as wide as its share, widened where a
        seat's name or another text of this match needs it (``fit_widths``); the yaku give
        way. Fixed widths, so the table lays them out exactly."""
        cols = list(self.columns)
        total = sum(c.share for c in cols) or 1
        widths = [int(width * c.share / total) for c in cols]
        needs_by_key = self._text_needs()
        needs = [needs_by_key.get(c.key, 0) for c in cols]
        flex = next(i for i, c in enumerate(cols) if c.key == FLEX)
        fitted = fit_widths(widths, needs, flex, self.px(FLEX_MIN), self.px(FLEX_FLOOR))
        fitted[flex] += width - sum(fitted)      # the yaku take what is left over
        # the table scales ``fixed`` (1080p px) by s: give it widths that come back exact
        return [replace(c, fixed=(fw + 0.25) / self.s) if i != flex else replace(c, share=1.0)
                for i, (c, fw) in enumerate(zip(cols, fitted))]

    # ---------------------------------------------------------- actions
    def new_match(self) -> None:
        self.app.open("title", mode="reset")
        self.app.open("newmatch")

    def to_title(self) -> None:
        self.app.open("title", mode="reset")

    def back(self) -> None:
        if self.from_history:
            self.app.pop()
        else:
            self.to_title()

    def show_rules(self) -> None:
        self.app.open("rules_panel", self.session.rules, self.session.months)

    def replay_row(self, i: int) -> None:
        try:
            self.app.open("replay", self.session, self.session.ledger[i].round)
        except ValueError as exc:
            self.app.toast(_("That round cannot be replayed: {problem}").format(problem=problem_text(exc)),
                           5.0, "warning")

    @property
    def can_review(self) -> bool:
        """A match whose rounds can be replayed (not an online one) and that has one."""
        return (bool(self.session.ledger) and any(c.key == "replay" for c in self.columns)
                and RP.reviewable(self.session))

    def review_match(self) -> None:
        """The replay of the first round, with the review of the match started."""
        try:
            self.app.open("replay", self.session, self.session.ledger[0].round, review=True)
        except ValueError as exc:
            self.app.toast(_("The match cannot be reviewed: {problem}").format(problem=problem_text(exc)),
                           5.0, "warning")

    def open_row(self, i: int) -> None:
        row = self.session.ledger[i]
        overlay = RoundResultsScene(self.app, self.session, RoundEnded(row, ((), ())), on_close=self.app.pop,
                                    look_back=True)
        overlay.revealed = float(overlay._lines())  # a look back: no reveal
        self.app.push(overlay)

    # ---------------------------------------------------------- input
    def handle(self, event) -> bool:
        if super().handle(event):
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_p and self.key_row is not None:
            self.replay_row(self.key_row)
            return True
        return self.table.handle(event)

    def update(self, dt: float) -> None:
        super().update(dt)
        RP.poll_all(self.app)            # a review started in the replay goes on meanwhile
        if self.petals is not None:
            self.petals.update(dt)
            if not self.petals.alive:
                self.petals = None

    @property
    def animating(self) -> bool:
        return super().animating or self.petals is not None

    def exit(self) -> None:
        super().exit()
        RP.release(self.app, self.session)         # the match's last screen: its review stops

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.petals is not None:
            self.petals.draw(surface)

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        w, h = self.size
        st = self.session
        k = self.intro
        cx = w // 2
        sub = _("MATCH RESULTS") if not self.from_history else _("FROM THE MATCH HISTORY")
        W.draw_text(surface, sub, self.font("small", True), theme.GOLD, (cx, self.y_label), "midtop")
        if self.conceded is not None:
            name = self.names[self.conceded]
            big = (_("You conceded the match") if self._is_you(self.conceded) else
                   _("{name} conceded the match").format(name=name))
        elif not st.is_over:
            big = _("Left unfinished")
        elif st.winner is None:
            big = _("A draw")
        else:
            name = self.names[st.winner]
            big = (_("You win the match!") if self._is_you(st.winner) else
                   _("{name} wins the match").format(name=name))
        font = W.fit_font(self.app.assets, big, w - self.px(80),
                          int(theme.font_px("display", self.s) * (0.9 + 0.1 * k)), bold=True)
        W.draw_text(surface, big, font, theme.GOLD_LIGHT, (cx, self.y_big), "center")
        # the score line: name  34 – 21  name
        sf = self.font("h2", True)
        nf = self.font("h3")
        score = f"{st.scores[0]}  –  {st.scores[1]}"
        sr = W.draw_text(surface, score, sf, theme.CREAM, (cx, self.y_score), "midtop")
        W.draw_text(surface, self.names[0], nf, theme.SEAT_COLORS[0], (sr.left - self.px(28), sr.centery), "midright")
        W.draw_text(surface, self.names[1], nf, theme.SEAT_COLORS[1], (sr.right + self.px(28), sr.centery), "midleft")
        line = rules_line(st)
        rating = rating_text(getattr(st, "rated", None))    # only an online session has one
        if rating is not None:
            line = _("{line}  ·  {changes}").format(line=line, changes=rating)
        W.draw_text(surface, line, self.font("small"), theme.CREAM_DIM, (cx, self.y_rules), "midtop")
        self._draw_table(surface)

    def _is_you(self, seat: int) -> bool:
        """Whether ``seat`` reads as "You": the human seat outside friend matches (a stand-in
        session, as from the history, by its name, in English or translated)."""
        you = you_seat(self.session)
        if you is not None:
            return you == seat
        if getattr(self.session, "is_hotseat", True) is False:
            return False
        name = self.names[seat]
        return name.lower() == "you" or name == _("You")

    def _draw_table(self, surface: pygame.Surface) -> None:
        W.draw_panel(surface, self.panel, s=self.s)
        self.table.draw(surface)
        if self.session.ledger:
            hint = _("Click a round for its details, or Replay to step through it")
            W.draw_text(surface, hint, self.font("tiny"), theme.CREAM_DIM,
                        (self.panel.right - self.px(10), self.panel.bottom + self.px(8)), "topright")

    def _draw_replay(self, surface: pygame.Surface, cell: pygame.Rect, i: int, hot: bool) -> None:
        """The "Replay" pill of a row, lit under the mouse."""
        pill = pygame.Rect(0, 0, min(cell.w, self.px(130)), int(cell.h * 0.62))
        pill.midright = (cell.right, cell.centery)
        surface.blit(W.rounded_surface(pill.size, pill.h // 2, theme.LACQUER if hot else (255, 255, 255, 16),
                                       border=theme.GOLD if hot else theme.GOLD_DARK, border_width=1),
                     pill.topleft)
        W.draw_text(surface, _("▶ Replay"), self.font("tiny"), theme.CREAM if hot else theme.GOLD,
                    pill.center, "center", shadow=False)
