"""Plain stand-ins for the results screens: ``RoundSummaryScene`` (the round's winner, yaku
and scores over the table) and ``MatchSummaryScene`` (the final score alone on the stack,
Escape goes to the title), for when the real ones (results.py, ledger.py) are not there.

    app.reset(MatchSummaryScene(app, session))
"""

from __future__ import annotations

from typing import Callable

import pygame

from ...engine import yaku as Y
from .. import hints, theme
from .. import widgets as W
from ..scene import Scene
from ...i18n import _
from ..table import seat_label


class RoundSummaryScene(Scene):
    """A plain round summary, used only if the results screen is missing."""

    opaque = False

    def __init__(self, app, session, ended_event, on_close: Callable[[], None]):
        super().__init__(app)
        self.session = session
        self.event = ended_event
        self.on_close = on_close
        self.closed = False

    def _close(self) -> None:
        if not self.closed:
            self.closed = True
            self.on_close()

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEBUTTONUP or (event.type == pygame.KEYDOWN and event.key in (
                pygame.K_RETURN, pygame.K_SPACE, pygame.K_ESCAPE, pygame.K_KP_ENTER)):
            self._close()
            return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN)

    def draw(self, surface) -> None:
        w, h = surface.get_size()
        s = theme.scale((w, h))
        W.draw_scrim(surface)
        row = self.event.row
        r = pygame.Rect(0, 0, min(w - 20, theme.px(900, s)), theme.px(420, s))
        r.center = (w // 2, h // 2)
        W.draw_panel(surface, r, s=s)
        a = self.app.assets
        big = a.font(theme.font_px("h1", s), True)
        body = a.font(theme.font_px("body", s))
        if row.winner is None:
            title = _("No game")
        else:
            title = _("{name} wins {points}").format(name=seat_label(self.session.seats[row.winner].name), points=row.award)
        y = r.y + theme.px(30, s)
        W.draw_text(surface, title, big, theme.GOLD_LIGHT, (r.centerx, y), "midtop")
        y += big.get_height() + theme.px(16, s)
        for name, pts, _ids in row.yaku:
            y_name = Y.info(name)
            # the kanji and the rōmaji (in another language than English, the kanji alone)
            romaji = hints.yaku_label(name, "romaji")
            head = y_name.kanji if romaji == y_name.kanji else f"{y_name.kanji} {romaji}"
            W.draw_text(surface, f"{head}  {pts}", body, theme.CREAM, (r.centerx, y),
                        "midtop")
            y += body.get_height()
        scores = _("Scores {a} : {b}   —   click to continue").format(a=row.scores[0], b=row.scores[1])
        W.draw_text(surface, scores, body,
                    theme.CREAM_DIM, (r.centerx, r.bottom - theme.px(24, s)), "midbottom")


class MatchSummaryScene(Scene):
    """A plain final score, used only if the ledger screen is missing."""

    def __init__(self, app, session):
        super().__init__(app)
        self.session = session

    def handle(self, event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            # This scene replaced the table and is alone on the stack: go to the title,
            # never pop the last scene.
            self.app.open("title", mode="replace")
            return True
        return False

    def draw(self, surface) -> None:
        w, h = surface.get_size()
        s = theme.scale((w, h))
        surface.blit(self.app.assets.table((w, h)), (0, 0))
        st = self.session.state
        big = self.app.assets.font(theme.font_px("display", s), True)
        if st.winner is None:
            title = _("A draw")
        else:
            title = _("{name} wins").format(name=seat_label(self.session.seats[st.winner].name))
        W.draw_text(surface, title, big, theme.GOLD_LIGHT, (w // 2, h // 2), "center")
        body = self.app.assets.font(theme.font_px("h2", s))
        W.draw_text(surface, f"{st.scores[0]} : {st.scores[1]}", body, theme.CREAM,
                    (w // 2, h // 2 + big.get_height()), "midtop")


__all__ = ["RoundSummaryScene", "MatchSummaryScene"]
