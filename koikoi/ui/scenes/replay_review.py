"""The review's part of the replay viewer (``replay.ReplayScene`` mixes it in): the match's
review (``review_panel.ReviewState``) started, cancelled and taken in, the reviewed decisions of
the round and the marks over its turn markers, the jumps from mistake to mistake, and the
review's box beside the step's words. What a round's decisions and marks are is the replay
model's (koikoi/replay.py ``round_decisions``, ``verdicts``, ``error_steps``)."""

from __future__ import annotations

from typing import Optional

import pygame

from ...i18n import _
from ...replay import error_steps, round_decisions, verdicts
from .. import theme
from .. import widgets as W
from . import review_panel as RP


class ReplayReview:
    """The review state and drawing of a ``ReplayScene``: ``review`` (a ReviewState or None),
    ``decisions`` (event index -> reviewed decision of this round) and the scene's steps,
    round, layout rects and drawing helpers."""

    @property
    def reviewed(self) -> bool:
        """The review of this round is done and shown."""
        return self.review is not None and self.review.covers(self.round_no)

    @property
    def review_active(self) -> bool:
        """The review box shows: a review runs, failed, or this round is reviewed."""
        r = self.review
        return r is not None and (r.running or r.error is not None or r.covers(self.round_no))

    def decision(self, i: Optional[int] = None):
        """The reviewed decision made at step ``i`` (default: the current step), or None."""
        step = self.steps[self.index if i is None else i]
        return self.decisions.get(step.start)

    def start_review(self) -> None:
        """The Review button, R: start the analysis (or take it from the cache)."""
        r = self.review
        if r is None:
            self.app.toast(_("This match cannot be reviewed on this computer."), 5.0, "info")
            return
        if r.running or self.reviewed:
            return
        RP.keep(self.app, r)
        r.start()
        self._refresh_review()

    def cancel_review(self) -> None:
        if self.review is not None and self.review.running:
            self.review.cancel()
            self.app.toast(_("The review was cancelled."), 3.0, "info")
            self._refresh_review()

    def _review_button(self) -> None:
        r = self.review
        if r is None:
            return
        if r.running:
            self.cancel_review()
        elif self.reviewed:
            self.jump_error(1)
        else:
            self.start_review()

    def _sync_review_button(self) -> None:
        b = getattr(self, "review_b", None)
        r = self.review
        if b is None or r is None:
            return
        if r.running:
            b.label, b.enabled = _("Cancel"), True
        elif self.reviewed:
            b.label, b.enabled = _("Next mistake"), self._has_errors()
        else:
            b.label, b.enabled = _("Review"), True

    def _has_errors(self) -> bool:
        res = self.review.result if self.review is not None else None
        if res is None:
            return False
        seats = set(self.review.seats)
        return any(d.is_error for rr in res.rounds if rr.seat in seats for d in rr.decisions)

    def marks(self) -> dict:
        """Step index -> the verdict of the reviewed decision made there (what the turn
        markers show)."""
        return verdicts(self.steps, self.decisions)

    def _error_steps(self) -> list[int]:
        return error_steps(self.steps, self.decisions)

    def jump_error(self, direction: int) -> None:
        """N / Shift+N: the next (1) or previous (-1) mistake or inaccuracy, on into the
        next or previous reviewed round that has one."""
        if not self.reviewed:
            return
        here = self._error_steps()
        ahead = [i for i in here if i > self.index] if direction > 0 else [i for i in reversed(here) if i < self.index]
        if ahead:
            self.go(ahead[0])
            return
        r = self.review
        seats = set(r.seats)
        rounds = sorted({rr.round for rr in r.result.rounds if rr.seat in seats and r.covers(rr.round)
                         and any(d.is_error for d in rr.decisions)})
        others = [n for n in rounds if n > self.round_no] if direction > 0 else \
            [n for n in reversed(rounds) if n < self.round_no]
        for n in others:
            try:
                self.set_round(n)
            except ValueError:
                continue
            found = self._error_steps()
            if found:
                self.go(found[0] if direction > 0 else found[-1])
                return
        if not self._has_errors():
            self.app.toast(_("No mistakes or inaccuracies in this match."), 2.5, "info")
        else:
            self.app.toast(_("No more mistakes after this one.") if direction > 0 else
                           _("No mistakes before this one."), 2.5, "info")

    def _refresh_review(self, layout: bool = True) -> None:
        """Take in a change of the review (started, finished, failed, cancelled)."""
        r = self.review
        if r is None:
            return
        key = (id(r.result) if r.result is not None else None, r.running, r.error, self.round_no, r.rounds_done)
        if key == self._review_key:
            return
        old_error = self._review_key[2] if self._review_key else None
        self._review_key = key
        self.decisions = round_decisions(r.result, r.seats, self.round_no) if r.covers(self.round_no) else {}
        if r.error is not None and r.error != old_error and layout:
            self.app.toast(r.error, 6.0, "warning")
        if layout and self.review_active != self._laid_active:
            self.layout()
        self._sync_review_button()

    def _draw_review_box(self, surface) -> None:
        """The review's box beside the step's words: the progress, the failure, or the
        round's summary and the current decision's verdict, best choice and reason."""
        box = self.review_rect
        W.draw_panel(surface, box, fill=theme.PANEL_STRONG, border=theme.GOLD_DARK, s=self.s)
        r = self.review
        x = box.x + self.px(22)
        width = box.w - self.px(44)
        bottom = box.bottom - self.px(10)
        y = box.y + self.px(12)
        tiny, tiny_b = self.font("tiny"), self.font("tiny", True)
        small_b = self.font("small", True)

        def line(text, font, color, y):
            W.draw_text(surface, W.ellipsize(text, font, width), font, color, (x, y), shadow=False)
            return y + font.get_linesize()

        def para(text, font, color, y, most: int = 3):
            rows = W.wrap_text(text, font, width) or [""]
            fit = max(0, min(most, (bottom - y) // font.get_linesize()))
            cut = len(rows) > fit and fit
            if cut:
                rest = " ".join(rows[fit - 1:])
                rows = rows[:fit - 1] + [W.ellipsize(rest, font, width)]
            top = y
            for row in rows[:fit]:
                y = line(row, font, color, y)
            if cut:                  # the pointer on the cut paragraph shows all of it
                W.note_cut(pygame.Rect(x, top, width, y - top), text)
            return y

        if r.running:
            y = line(r.progress_text(), small_b, theme.CREAM, y) + self.px(6)
            bar = pygame.Rect(x, y, width, self.px(16))
            surface.blit(W.rounded_surface(bar.size, bar.h // 2, (255, 255, 255, 36)), bar.topleft)
            done = bar.copy()
            done.w = int(bar.w * r.progress)
            if done.w >= bar.h // 2:
                pygame.draw.rect(surface, theme.GOLD, done, border_radius=bar.h // 2)
            pygame.draw.rect(surface, theme.GOLD_DARK, bar, width=max(1, self.px(2)), border_radius=bar.h // 2)
            y = bar.bottom + self.px(8)
            pct = _("{percent}% done  ·  you can keep stepping meanwhile").format(percent=int(r.progress * 100))
            para(pct, tiny, theme.CREAM_DIM, y, 2)
            return
        if not self.reviewed:
            y = line(_("The review could not be made"), small_b, theme.BAD, y)
            para((r.error or "") + " " + _("Press R to try again."), tiny, theme.CREAM_DIM, y)
            return
        res = r.result
        seats = [s for s in r.seats if s in (0, 1)]
        if len(seats) == 1:
            summary = _("Your play this round: {summary}").format(summary=RP.summary_text(res.round(self.round_no, seats[0]))) \
                if self.you == seats[0] else _("{name} this round: {summary}").format(
                    name=self.names[seats[0]], summary=RP.summary_text(res.round(self.round_no, seats[0])))
        else:
            summary = "  ·  ".join(_("{name}: {summary}").format(name=self.names[s],
                                                                summary=RP.summary_text(res.round(self.round_no, s)))
                                   for s in seats)
        y = line(summary, tiny_b, theme.GOLD_LIGHT, y) + self.px(4)
        d = self.decision()
        step = self.position
        if d is None:
            if step.seat is not None and step.seat not in seats:
                text = _("{name}'s choices are not reviewed.").format(name=self.names[step.seat])
            elif step.seat is not None and step.kind in ("play", "choose", "koikoi", "stop"):
                text = _("There was nothing to choose here.")
            elif self._error_steps():
                text = _("The marked turns are worth a look: N jumps to the next one.")
            else:
                text = _("No turn of this round needs a second look.")
            para(text, tiny, theme.CREAM_DIM, y)
            return
        color = RP.VERDICT_COLORS.get(d.verdict, theme.CREAM)
        mark = RP.VERDICT_MARKS.get(d.verdict)
        head = RP.verdict_line(d)
        if mark:
            head = _("{mark}  {verdict}").format(mark=mark, verdict=head)
        y = line(head, small_b, color, y)
        if d.is_error or d.chosen != d.best:            # a good or forced one: its reason says it
            y = para(RP.best_text(d, self.style), tiny_b, theme.CREAM, y, 2)
        if d.reason:
            para(d.reason, tiny, theme.CREAM_DIM, y)

    def _draw_mark(self, surface, d, dot: pygame.Rect, current: bool, i: int) -> int:
        """A decision's mark above its turn marker: a pill with ? (a mistake) or ?! (an
        inaccuracy), a tick (a good move), nothing (no choice worth the name). Returns
        the mark's top."""
        color = RP.VERDICT_COLORS.get(d.verdict, theme.CREAM)
        h = max(self.px(10), self.badge_h - self.px(4))
        bottom = dot.y - self.px(6 if current else 3)
        mark = RP.VERDICT_MARKS.get(d.verdict)
        if mark:
            font = self.app.assets.font(max(9, int(h * 0.95)), True)
            pill = pygame.Rect(0, 0, max(h, W.text_width(mark, font) + self.px(10)), h)
            pill.midbottom = (dot.centerx, bottom)
            pygame.draw.rect(surface, color, pill, border_radius=h // 2)
            if current:
                pygame.draw.rect(surface, theme.CREAM, pill, width=max(1, self.px(2)), border_radius=h // 2)
            W.draw_text(surface, mark, font, theme.INK, pill.center, "center", shadow=False)
            self.mark_rects[i] = pill
            return pill.top
        if d.verdict == "good":
            k = h * 0.7
            cx, cy = dot.centerx, bottom - h / 2
            pts = [(cx - k * 0.5, cy), (cx - k * 0.12, cy + k * 0.38), (cx + k * 0.55, cy - k * 0.42)]
            pygame.draw.lines(surface, color, False, pts, max(2, self.px(3)))
            self.mark_rects[i] = pygame.Rect(int(cx - k * 0.5), int(cy - k * 0.5), int(k * 1.05) + 1, int(k) + 1)
            return int(cy - k * 0.5)
        return dot.y
