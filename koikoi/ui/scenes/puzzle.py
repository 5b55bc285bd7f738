"""A puzzle: a position from one of the player's reviewed matches, "find the best move".

``PuzzleScene`` is the real round table (``RoundScene``) over a ``MatchSession`` that
starts at the puzzle's position (``koikoi.review.puzzles.Puzzle.state``, the replay of the
match log up to the decision). The table shows what the round table always shows: the fold
of the deciding seat's public events, so the other hand lies face down and the stock is
hidden (``PublicTable`` holds only their counts). A panel above the field says where the
position comes from; the player makes any legal move (none is refused) and the panel turns
into the verdict: right ("Best move! ...") or what the best was, by how much, and why
(about the player's own answer: ``Puzzle.reason_for``); Retry (or R) sets the same position again.
A Koi-Koi or Stop puzzle opens the table's own prompt; its answer is judged the same way.

Nothing moves but the player's answer: the other seat never plays (the driver here never
asks a CPU), the table stops at the end of the round should the answer end it, and
the session has no store and ``record=False``: no autosave, no history, no statistics.
"""

from __future__ import annotations

import logging
from typing import Optional

import pygame

from ...engine import KoiKoi, SeatKind, Stop
from ...engine.events import RoundEnded
from ...session import MatchSession, SeatConfig
from .. import theme
from .. import widgets as W
from ...i18n import _
from ..table.context import TablePolicy
from .review_panel import action_words, points_text
from .lesson import panel_band
from .round import RoundScene
from .saved import MONTH_ABBREVIATIONS

log = logging.getLogger("koikoi.puzzle")



def date_text(played_at: str) -> Optional[str]:
    """ "14 Nov" for "2026-11-14"; None for anything else."""
    try:
        _year, month, day = (int(x) for x in str(played_at).split("-"))
    except ValueError:
        return None
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return _("{day} {month}").format(day=day, month=_(MONTH_ABBREVIATIONS[month - 1]))


def heading(puzzle, n: int, total: int) -> str:
    """ "Puzzle 3 of 12 · from your match of 14 Nov, round 4: find the best move"."""
    date = date_text(puzzle.played_at)
    if date:
        return _("Puzzle {n} of {total} · from your match of {date}, round {round}: find the best move").format(
            n=n, total=total, date=date, round=puzzle.round)
    return _("Puzzle {n} of {total} · from one of your matches, round {round}: find the best move").format(
        n=n, total=total, round=puzzle.round)


def question_text(puzzle) -> str:
    if puzzle.kind == "decide":
        return _("You have a yaku. Call Koi-Koi and play on, or stop and score?")
    if puzzle.kind == "choose":
        return _("The card from the stock matches two field cards: which one do you take?")
    return _("Your turn: which card do you play (and which field card does it take)?")


def match_text(action, style: str = "both") -> str:
    """What the player did in the match, as a whole sentence: "you played" a card, but "you
    called Koi-Koi" or "you stopped" at a prompt (not "you played Call Koi-Koi")."""
    if isinstance(action, KoiKoi):
        return _("In your match you called Koi-Koi.")
    if isinstance(action, Stop):
        return _("In your match you stopped.")
    return _("In your match you played {chosen}.").format(chosen=action_words(action, style))


def verdict_text(puzzle, answer, style: str = "both") -> str:
    """What the answer was worth, with the review's reason: for a right answer or the match's
    own move, the review's words on the match's move; for another wrong move, why the best
    beats that one (``Puzzle.reason_for``), so the text never answers a move not played."""
    best = action_words(puzzle.best, style)
    match = match_text(puzzle.chosen, style)
    # The review's reason already names the better move and what it gains ("This feeds ...
    # Better: play ..., which ... (about 1.7 points more)"): the verdict does not repeat it.
    reason = puzzle.reason
    if answer.right:
        if answer.action != puzzle.best:
            return _("Best move! It is as good as {best}. {match} {reason}").format(
                best=best, match=match, reason=reason)
        return _("Best move! {match} {reason}").format(match=match, reason=reason)
    if answer.gap is None:
        return _("Not the best move. {reason}").format(reason=reason)
    if answer.action == puzzle.chosen:
        return _("Not the best move: the one played in your match. {reason}").format(reason=reason)
    # Another wrong move than the match's: why the best beats this one, not the match's move.
    return _("Not the best move: {points} worse than {best}. {reason}").format(
        points=points_text(answer.gap), best=best,
        reason=puzzle.reason_for(answer.action, style=style))


class PuzzleSession(MatchSession):
    """Both seats are people, so no CPU is ever made or asked; but only the deciding seat
    plays here: the table is not a friend match (no curtain, no hand-over) and reads the
    other seat as the opponent."""

    def __init__(self, puzzle):
        self.puzzle_seat = puzzle.seat
        seats = [SeatConfig(SeatKind.HUMAN, _("Opponent"))] * 2
        seats[puzzle.seat] = SeatConfig(SeatKind.HUMAN, _("You"))
        st = puzzle.state
        super().__init__(st.rules, seed=st.seed, months=st.months, seats=tuple(seats), state=st,
                         store=None, record=False)

    @property
    def human_seats(self) -> tuple:
        return (self.puzzle_seat,)

    @property
    def is_hotseat(self) -> bool:
        return False


class PuzzlePolicy(TablePolicy):
    """The round table as a puzzle plays it: no practice glow (the move is the player's to
    find), no turn log (the puzzle's panel covers that strip); at rest only the player's
    Koi-Koi question opens (both seats are people: no CPU is ever asked), and only before
    the answer; once answered, the best move's cards still on the table are ringed, and the
    table shows the answer's events only up to the end of its round."""

    shows_turn_log = False
    hints = False
    pulses = True

    def __init__(self, puzzle: "PuzzleScene"):
        self.puzzle = puzzle

    def holds_turn(self) -> bool:
        return self.puzzle.answer is not None

    def highlighted(self) -> tuple:
        scene = self.puzzle
        if scene.answer is None or scene.answer.right or scene.tl.busy or scene.overlay is not None:
            return ()
        best = scene.puzzle.best
        return tuple(c for c in (getattr(best, "card", None), getattr(best, "target", None)) if c)

    def shown_limit(self, events) -> int:
        """All the events, but after the answer only up to the end of its round (the next
        round's deal is not the puzzle's)."""
        start = self.puzzle._answer_from
        if start is None:
            return len(events)
        for i in range(start, len(events)):
            if isinstance(events[i], RoundEnded):
                return i + 1
        return len(events)

    def prompt_options(self) -> dict:
        """The Koi-Koi question, every answer accepted; it is judged like a move."""
        scene = self.puzzle
        return dict(practice=False, note=heading(scene.puzzle, scene.at + 1, len(scene.puzzles)))


class PuzzleScene(RoundScene):
    pausable = False          # Esc leaves the puzzle: there is no match to save

    def __init__(self, app, puzzles, at: int = 0):
        self.puzzles = list(puzzles)
        if not self.puzzles:
            raise ValueError("no puzzles to show")
        self.at = max(0, min(int(at), len(self.puzzles) - 1))
        self.puzzle = self.puzzles[self.at]
        self.answer = None             # the Answer once the player has moved
        self._answer_from: Optional[int] = None   # the log's length when the answer was made
        self._panel_key = None
        self._panel_img: Optional[pygame.Surface] = None
        self.panel_box: Optional[pygame.Rect] = None
        self.panel_buttons: list = []
        super().__init__(app, PuzzleSession(self.puzzle), policy=PuzzlePolicy(self))
        log.info("puzzle %d of %d: match %s, round %d, event %d", self.at + 1, len(self.puzzles),
                 self.puzzle.match_id, self.puzzle.round, self.puzzle.index)

    # ------------------------------------------------------------------ the answer
    def send(self, action) -> bool:
        if self.answer is not None or self._answer_from is not None \
                or self.session.to_move != self.me:
            return False          # the puzzle is answered: the table is only to look at now
        answer = self.puzzle.judge(action)
        self._answer_from = len(self.session.events)
        if not super().send(action):
            self._answer_from = None
            return False
        self.answer = answer
        self._panel_key = None
        return True

    def show_results(self, e) -> None:
        """The answer ended the round: the table stays on its last cards (no results screen,
        no next deal); the panel says the verdict."""
        self.banner = None
        self.tl.release()        # the director held the table for the results screen

    def match_over(self) -> None:
        pass                     # never shown: the table stops at the end of the round

    # ------------------------------------------------------------------ leaving
    def pause(self) -> None:
        self.leave()

    def leave(self) -> None:
        self.closed = True
        self.app.remove(self)

    def retry(self) -> None:
        """The same position again, from before the answer (Retry, or the R key)."""
        self.closed = True
        self.app.open("puzzle", self.puzzles, at=self.at, mode="replace")

    def has_next(self) -> bool:
        return self.at + 1 < len(self.puzzles)

    def next_puzzle(self) -> None:
        if not self.has_next():
            self.leave()
            return
        self.closed = True
        self.app.open("puzzle", self.puzzles, at=self.at + 1, mode="replace")

    # ------------------------------------------------------------------ frames
    def handle(self, event: pygame.event.Event) -> bool:
        if self.overlay is None and self.panel_box is not None:
            for b in self.panel_buttons:
                if b.handle(event):
                    return True
        if event.type == pygame.KEYDOWN and self.answer is not None and self.at_rest() \
                and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_n):
            self.next_puzzle()
            return True
        if event.type == pygame.KEYDOWN and self.answer is not None and self.at_rest() \
                and event.key == pygame.K_r:
            self.retry()
            return True
        if super().handle(event):
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.leave()
            return True
        return False

    def panel_state(self) -> tuple:
        """(heading, text, colour of the frame) of the panel now."""
        style = self.name_style()
        head = heading(self.puzzle, self.at + 1, len(self.puzzles))
        if self.answer is None:
            return head, question_text(self.puzzle), theme.GOLD
        text = verdict_text(self.puzzle, self.answer, style)
        return head, text, theme.GOOD if self.answer.right else theme.BAD

    def panel_text(self) -> str:
        return self.panel_state()[1]

    def _panel_layout(self, lay) -> pygame.Rect:
        """The panel across the top of the field area, buttons at its right."""
        s = self.s
        pad = theme.px(10, s)
        x0, w, top, room = panel_band(lay, pad)
        room = max(theme.px(60, s), room)
        head, text, frame = self.panel_state()
        head_f = self.assets.font(theme.font_px("tiny", s), True)
        bw = theme.px(190, s)
        text_w = w - 3 * pad - bw
        f = self.assets.font(theme.font_px("body", s))
        lines = W.wrap_text(text, f, text_w)
        if head_f.get_linesize() + f.get_linesize() * len(lines) + 2 * pad > room:
            f = self.assets.font(theme.font_px("small", s))
            lines = W.wrap_text(text, f, text_w)
        if head_f.get_linesize() + f.get_linesize() * len(lines) + 2 * pad > room:
            f = self.assets.font(theme.font_px("tiny", s))
            lines = W.wrap_text(text, f, text_w)
        most = max(1, (room - head_f.get_linesize() - 2 * pad) // max(1, f.get_linesize()))
        if len(lines) > most:
            lines = lines[:most]
            lines[-1] = W.ellipsize(lines[-1] + " …", f, text_w)
        answered = self.answer is not None
        n = 3 if answered else 1          # Next puzzle, Retry, Back; or Back alone
        bh = min(theme.px(48, s), max(theme.px(26, s), (room - (n + 1) * pad) // max(2, n)))
        h = head_f.get_linesize() + f.get_linesize() * len(lines) + 2 * pad
        h = max(h, n * bh + (n + 1) * pad, theme.px(60, s))
        box = pygame.Rect(x0, top, w, min(h, room))
        key = (box.size, head, text, self.size, answered, f.get_linesize())
        if key != self._panel_key:
            img = W.rounded_surface(box.size, theme.px(14, s), (20, 16, 12, 252), border=frame,
                                    border_width=max(2, theme.px(3, s))).copy()
            W.draw_text(img, W.ellipsize(head, head_f, text_w), head_f,
                        theme.GOLD_LIGHT if frame == theme.GOLD else frame, (2 * pad, pad))
            y = pad + head_f.get_linesize()
            for ln in lines:
                W.draw_text(img, ln, f, theme.CREAM, (2 * pad, y))
                y += f.get_linesize()
            self._panel_img, self._panel_key = img, key
            bx = box.right - pad - bw
            if answered:
                nxt = W.Button(pygame.Rect(bx, 0, bw, bh), _("Next puzzle") if self.has_next() else _("Done"),
                               self.next_puzzle, style="primary", assets=self.assets, hotkeys=())
                again = W.Button(pygame.Rect(bx, 0, bw, bh), _("Retry"), self.retry,
                                 style="secondary", assets=self.assets, hotkeys=())
                back = W.Button(pygame.Rect(bx, 0, bw, bh), _("Back"), self.leave, style="secondary",
                                assets=self.assets, hotkeys=())
                self.panel_buttons = [nxt, again, back]
            else:
                self.panel_buttons = [W.Button(pygame.Rect(bx, 0, bw, bh), _("Back"), self.leave,
                                               style="secondary", assets=self.assets, hotkeys=())]
        n = len(self.panel_buttons)
        gap = pad
        y = box.centery - (n * bh + (n - 1) * gap) // 2
        for b in self.panel_buttons:
            b.rect.y = y
            y += bh + gap
        self.panel_box = box
        return box

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        lay = self.lay
        if lay is None or self.overlay is not None:
            return
        box = self._panel_layout(lay)
        pygame.draw.rect(surface, (20, 16, 12), box.inflate(-2, -2), border_radius=theme.px(14, self.s))
        surface.blit(self._panel_img, box.topleft)
        for b in self.panel_buttons:
            b.draw(surface)
