"""What the menus over a table share (Escape on the table): Resume, the rules of this match,
How to play, Settings, then the ways to leave that match, and Quit the game, one button
under another in a panel (``MenuScene.layout_button_column``). Modal.

    class PauseMenuScene(TablePauseMenu):          # settings.py: a local match
        def match_rules(self): ...                 # (rules, months) of the match, or None
        def leave_buttons(self): return [(_("Concede the match"), self.concede, "danger", ())]

``OnlinePauseScene`` (online_scenes.py) is the other one.
"""

from __future__ import annotations

from typing import Optional

import pygame

from ...i18n import _
from . import MenuScene, opens


class TablePauseMenu(MenuScene):
    """The menu over a table; a subclass names the match's rules and its ways to leave (this
    one alone knows no match: the rules button opens nothing, How to play the general page)."""

    opaque = False
    intro_time = 0.2

    def match_rules(self) -> Optional[tuple]:
        """(rules, months) of the match below, or None when there is none (or no rules yet)."""
        return None

    def leave_buttons(self) -> list:
        """The (label, on_click, style, hotkeys) buttons between Settings and Quit."""
        return []

    def shown(self, labels: list) -> list:
        """The buttons this menu shows of ``labels`` (all of them unless a subclass says)."""
        return labels

    def layout(self) -> None:
        bw, bh, gap = self.px(420), self.px(74), self.px(18)
        labels = [(_("Resume"), self.back, "primary", (pygame.K_ESCAPE,)),
                  (_("Rules of this match"), self.rules_panel, "secondary", (pygame.K_r,)),
                  (_("How to play"), self.how_to, "secondary", (pygame.K_F1,)),
                  (_("Settings"), self.settings, "secondary", ()),
                  *self.leave_buttons(),
                  (_("Quit the game"), self.quit_game, "danger", ())]
        self.layout_button_column(self.shown(labels), bw, bh, gap)

    def rules_panel(self) -> None:
        found = self.match_rules()
        if found is not None:
            self.app.open("rules_panel", *found)

    def how_to(self) -> None:
        found = self.match_rules()
        if found is None:
            self.app.open("howto", None)
        else:   # the page explains this match's rules, house rules included
            self.app.open("howto", found[0].name, rules=found[0])

    settings = opens("settings")

    def quit_game(self) -> None:
        self.app.quit()

    def handle(self, event) -> bool:
        super().handle(event)
        return True   # modal

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_menu_panel(surface, _("Paused"))


__all__ = ["TablePauseMenu"]
