"""Whose turn it is, and what the table does about it once every event is shown.

``send(session, action)`` is the one legality check between the screen and
the engine: the table, the Koi-Koi prompt and the oya-gime draw all apply
actions through it. ``CpuPacer`` gives a CPU seat its move after a short
pause, so a CPU's play can be read (the round table and the oya-gime draw
share it). ``TurnDriver`` runs the table at rest: the CPU's move, the friend
match's curtain when the device changes hands (and, after it, a replay of the
other player's last turn), and the Koi-Koi prompt.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Optional

import pygame

from ...engine import Phase, SeatKind
from ...engine.events import Chose, Flipped, KoiKoiCalled, Played, YakuMade

if TYPE_CHECKING:  # pragma: no cover
    from .context import TableContext

log = logging.getLogger("koikoi.table")

CPU_PAUSE = 0.55        # a short pause before each CPU action, so it reads
CPU_DECIDE_PAUSE = 1.0  # and a longer one before it calls Koi-Koi or stops


def send(session, action) -> bool:
    """Apply ``action`` if it is legal now; True if it was applied."""
    if action is None:
        return False
    try:
        legal = session.legal()
    except Exception:   # a session that cannot list its moves takes none
        log.exception("could not list the legal actions")
        return False
    if action not in legal:
        log.info("refused %r: not legal now", action)
        return False
    session.apply(action)
    return True


class CpuPacer:
    """Asks the session's CPU for its move and hands it over after ``pause`` seconds of
    animation time. A CPU that fails plays its first legal move: the table never freezes."""

    def __init__(self):
        self.action = None
        self.waited = 0.0

    def reset(self) -> None:
        self.action, self.waited = None, 0.0

    def tick(self, session, dt: float, pause: float):
        """The CPU's action once it is ready and ``pause`` has passed, else None."""
        if self.action is None:
            session.start_cpu()
            try:
                self.action = session.poll_cpu()
            except RuntimeError:
                log.exception("the CPU player failed; playing its first legal action")
                legal = session.legal()
                self.action = legal[0] if legal else None
        self.waited += dt
        if self.action is not None and self.waited >= pause:
            action = self.action
            self.reset()
            return action
        return None


_TURN_EVENTS = (Played, Flipped, Chose, YakuMade, KoiKoiCalled)


def last_turn_start(events, seat: int) -> Optional[int]:
    """Index of the Played event that began ``seat``'s latest turn, if nothing but that
    turn has happened since (no deal, no round end)."""
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if not isinstance(e, _TURN_EVENTS) or getattr(e, "seat", seat) != seat:
            return None
        if isinstance(e, Played):
            return i
    return None


class TurnDriver:
    """The table at rest: whoever is to move, moves. What only the scene can open (the
    curtain, the prompt) it asks for through ``ctx.command``."""

    def __init__(self, ctx: "TableContext"):
        self.ctx = ctx
        self.cpu = CpuPacer()
        self.held: set = set()          # "space" / "mouse" held down: hurry the CPU

    # -- the CPU's tempo
    def hurrying(self) -> bool:
        """Space or the mouse button held while the CPU plays: its turn goes faster."""
        ctx = self.ctx
        if ctx.session.is_hotseat or ctx.my_turn() or ctx.overlay is not None:
            return False
        return bool(self.held)

    def track_held(self, event) -> None:
        """Which of Space and the left button are down, from the events the table got."""
        t = event.type
        if t in (pygame.KEYDOWN, pygame.KEYUP) and event.key == pygame.K_SPACE:
            (self.held.add if t == pygame.KEYDOWN else self.held.discard)("space")
        elif t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and event.button == 1:
            (self.held.add if t == pygame.MOUSEBUTTONDOWN else self.held.discard)("mouse")
        elif t == getattr(pygame, "WINDOWFOCUSLOST", -1):
            self.held.clear()

    def pace(self) -> float:
        """The CPU pace setting as a factor on its pauses (relaxed > 1 > quick)."""
        return self.ctx.settings.pace()

    def tempo(self) -> float:
        """How much faster than the animation setting the table runs now: the CPU's turns
        follow the pace setting, and run three times as fast while the player hurries them."""
        ctx = self.ctx
        seat = ctx.table.to_move
        if seat is None or ctx.session.seats[seat].kind != SeatKind.CPU:
            return 1.0
        return (3.0 if self.hurrying() else 1.0) / self.pace()

    def thinking(self) -> bool:
        return self.ctx.at_rest() and self.ctx.session.is_cpu_turn()

    def rest(self, dt: float) -> None:
        """The table is at rest (every event shown): whoever is to move, moves (unless the
        policy holds the table: a lesson's step to read, a puzzle answered)."""
        ctx = self.ctx
        session = ctx.session
        t = ctx.table
        if ctx.policy.holds_turn() or t.phase == Phase.OVER or session.to_move is None:
            return
        seat = session.to_move
        if session.is_cpu_turn():
            speed = ctx.tl.speed       # the animation setting times the pace (and any hurry)
            pause = CPU_DECIDE_PAUSE if t.phase == Phase.DECIDE else CPU_PAUSE
            action = self.cpu.tick(session, dt * (speed if speed > 0 else 100.0), pause)
            if action is not None and not ctx.send(action):
                log.warning("the CPU chose an illegal action %r", action)
            return
        if session.is_hotseat and seat != ctx.seat:
            ctx.command("curtain", seat)
            return
        if seat == ctx.seat and t.phase == Phase.DECIDE:
            ctx.command("prompt")
