"""The round table: where a match is played. This module wires the parts in
``ui/table/`` together (see its package docstring for which part does what):
they share one ``TableContext`` it builds (the session, the stage, the fold
shown, the settings, ``send``), and a lesson or a puzzle changes the table
through the ``TablePolicy`` it is given, not by overriding the parts' hooks.

The table shows ``self.table``, the ``PublicTable`` folded from the public
events of the seat at the bottom (``engine.table.fold``). Each new event is
folded as it arrives and the director turns (old table, event, new table)
into tweens on the animation timeline; at rest, what is drawn is exactly the
fold of every event, so a match resumed from its log looks the same as
before it was saved. Gestures and keys become intents, then actions, and are
applied only if legal (``table.driver.send``).
"""

from __future__ import annotations

import logging
from typing import Optional

import pygame

from ...engine import Phase
from ...engine import card as card_of
from ...engine.events import FieldSwept, LuckyHand, Misdeal, RoundDealt, RoundEnded
from ...engine.table import PublicTable, fold_all
from ...narration import turn_summary
from ...session import TableSession
from .. import anim, board, theme
from .. import widgets as W
from ..scene import Scene
from ...i18n import _
from ..table.context import TableContext, TablePolicy, TableSettings
from ..table.controls import Controls
from ..table.director import Director
from ..table.driver import TurnDriver, last_turn_start, send
from ..table.hud import Hud
from ..table.render import Renderer
from ..table.stage import CardSprite, Pose, Stage
from ..tooltip import draw_tooltip

log = logging.getLogger("koikoi.round")


# What can happen before anyone plays: the deal, a misdeal, a lucky hand, a sweep, and
# the end of a round a lucky hand won.
_AT_THE_DEAL = (RoundDealt, Misdeal, LuckyHand, FieldSwept, RoundEnded)


def _cleared(t: PublicTable) -> PublicTable:
    """``t`` with no card on the felt and a full stock: the table just before a deal."""
    return t._replace(hand=(), opponent_hand_count=0, field_slots=(), captured=((), ()),
                      stock_count=48, pending=None, choices=())


class RoundScene(Scene):
    opaque = True
    pausable = True      # an Escape the table does not use opens the pause menu

    def __init__(self, app, session: TableSession, policy: Optional[TablePolicy] = None):
        super().__init__(app)
        self.session = session
        self.assets = app.assets
        self.policy = policy if policy is not None else TablePolicy()   # a lesson's, a puzzle's
        self.settings = TableSettings(app)
        self.tl = anim.Timeline(self._speed())      # the game's animations, in order
        self.fx = anim.Timeline(self._speed())      # cosmetic touches that never block input
        self.banners = anim.Timeline()              # the banner's fade (never instant)
        hs = session.human_seats
        if session.is_hotseat:
            to_move = session.to_move
            me = to_move if to_move is not None else 0
        else:
            me = hs[0] if hs else 0
        self.stage = Stage(self.tl, self.fx)
        # what the parts share (the scene keeps its seat, shown, overlay... current there)
        self.ctx = TableContext(session, app.assets, self.stage, self.settings, self.policy,
                                send=self.send, relayout=self.relayout, sound=self.sound,
                                command=self.command, seat=me)
        self.hud = Hud(self.ctx)
        self.controls = Controls(self.ctx, self.hud.combo_rects)
        self.driver = TurnDriver(self.ctx)
        self.renderer = Renderer(self.ctx, self.hud)
        self.banner = None
        self.applied: list = []         # actions this scene sent (tests read it)
        self.banner_log: list = []      # titles of the banners shown, in order
        self.inspector = None            # the open combo inspector, if any
        self.last_turn_text: Optional[str] = None   # friend matches: what the other player just did
        self._spread: Optional[int] = None
        self._lifts_moving = False
        self._pending_curtain: Optional[int] = None
        self.buttons: list = []          # Menu and Keys, placed with the layout
        self.size = tuple(app.size)
        self._metrics(self.size)
        self._start()
        self.animating = True

    # ------------------------------------------------------------------ the parts' state, by name
    table = property(lambda self: self.director.table,
                     doc="The fold of every public event queued so far (equal to the view at rest).")
    lay = property(lambda self: self.stage.lay)
    sprites = property(lambda self: self.stage.sprites)
    combo_rects = property(lambda self: self.hud.combo_rects)
    stock_extra = property(lambda self: self.director.stock_extra)

    def _forward(part, name, doc=None):
        return property(lambda self: getattr(getattr(self, part), name),
                        lambda self, value: setattr(getattr(self, part), name, value), doc=doc)
    selected = _forward("controls", "selected")
    target_cursor = _forward("controls", "target_cursor")
    drag = _forward("controls", "drag")
    hover = _forward("controls", "hover")
    me = _forward("ctx", "seat", "The seat at the bottom (a friend match hands the table over).")
    shown = _forward("ctx", "shown", "How many of the session's events are queued for the table.")
    overlay = _forward("ctx", "overlay", "The prompt / results / curtain we pushed, if any.")
    closed = _forward("ctx", "closed")
    director = _forward("ctx", "director")
    size = _forward("ctx", "size")
    s = _forward("ctx", "s")
    pulse_t = _forward("ctx", "pulse_t")
    tip = _forward("ctx", "tip", "Easy practice: the card tooltip.")
    del _forward

    # ------------------------------------------------------------------ settings, names (the context's)
    def _speed(self) -> float:
        return self.settings.speed()

    def _card_scale(self) -> float:
        return self.settings.card_scale()

    def practice(self) -> bool:
        return self.ctx.practice()

    def name_style(self) -> str:
        return self.settings.name_style()

    def month_numbers(self) -> bool:
        return self.settings.month_numbers()

    def name(self, seat: int) -> str:
        return self.ctx.name(seat)

    def is_you(self, seat: int) -> bool:
        return self.ctx.is_you(seat)

    # ------------------------------------------------------------------ setup
    def _public(self, start: int = 0) -> list:
        return self.session.public_events(self.me, start)

    def _start(self) -> None:
        """Pick up the match where it is: animate the latest deal, or show the table as is."""
        events = self.session.events
        # Nothing has been played since the deals at the end of the log (a redeal after a
        # misdeal, a round a lucky hand ended at once): show them all from the first.
        last_deal = None
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            if isinstance(e, RoundDealt):
                last_deal = i
            elif not isinstance(e, _AT_THE_DEAL) or (isinstance(e, RoundEnded) and last_deal is None):
                break
        public = self._public()
        if last_deal is not None:
            self.director = Director.folded(self.ctx, public[:last_deal], self.me)
            self.shown = last_deal
            self.stage.pose = Pose(_cleared(self.table))
        else:
            self.director = Director.folded(self.ctx, public, self.me)
            self.shown = len(events)
            self.stage.pose = Pose(self.table)
        self.relayout(self.stage.pose, instant=True)
        if (self.session.is_hotseat and last_deal is None
                and self.table.phase not in (Phase.OYAGIME, Phase.OVER)):
            self._pending_curtain = self.session.to_move   # pushed on the first update

    def enter(self) -> None:
        """Uncovered (a pause menu or an overlay closed): no stale tooltip; a new card size applies."""
        self.tip.hide()
        self.driver.held.clear()
        if self.lay is not None and getattr(self, "_scale_used", 1.0) != self._card_scale():
            self._metrics(self.size)
            self.relayout(None, instant=True)

    def exit(self) -> None:
        """Off the stack (the next round, the title): the window-sized layers go now,
        16 MB at 1920x1080. The scene itself is freed only when the garbage collector
        gets to its reference cycles; were it shown again, ``draw`` would make them anew."""
        self.renderer.clear()
        self.hud.clear()

    def resize(self, size) -> None:
        self.size = tuple(size)
        self._metrics(self.size)
        self.relayout(None, instant=True)

    def _metrics(self, size) -> None:
        self.s = theme.scale(size)
        self.hud.fonts(board.metrics(size)[0])
        self.renderer.clear()

    # ------------------------------------------------------------------ poses -> sprites
    def relayout(self, pose: Optional[Pose], **kw) -> board.Layout:
        """Show ``pose`` (None: the one shown now, laid out again) and tween the cards there."""
        self._spread = self._spread_month()
        self._scale_used = self._card_scale()
        lay = self.stage.layout(self.size, pose or self.stage.pose, self._spread, self._scale_used)
        self.stage.show(lay, **kw)
        self.buttons = self.hud.place_buttons(lay, self.buttons)
        if self.drag is None:
            self.controls.hover = lay.hand_at(self.controls.pointer.pos)
        return lay

    def open_keys(self) -> None:
        """The keyboard help (F1 or ?), over the table."""
        self.tip.hide()
        if self.drag is not None:
            self.controls.cancel()
        self.controls.reset_pointer()
        self.app.push_overlay("keys")

    def _spread_month(self) -> Optional[int]:
        """The month whose two field cards the player is choosing between (laid apart)."""
        if self.tl.busy or self.session.to_move != self.me:
            return None
        t = self.table
        if t.phase == Phase.CHOOSE and t.pending is not None:
            return card_of(t.pending).month
        cid = self.drag or self.selected
        if t.phase == Phase.PLAY and cid is not None:
            month = card_of(cid).month
            if sum(1 for c in t.field if card_of(c).month == month) == 2:
                return month
        return None

    def sprite_rect(self, sp: CardSprite) -> pygame.Rect:
        return self.renderer.sprite_rect(sp)

    def sound(self, name: str) -> None:
        try:
            self.assets.play(name)
        except Exception:  # never let a sound break the table
            log.debug("sound %s failed", name, exc_info=True)

    def banner_now(self, title: str, sub: str, life: float, **kw) -> None:
        """Show a banner for ``life`` seconds on its own timeline (it fades while the cards
        go on moving; at the Instant speed it still shows, twice as fast)."""
        banner = self.banner = self.hud.make_banner(title, sub, life, **kw)
        self.banner_log.append(title)
        self.banners.clear()

        def gone():
            if self.banner is banner:
                self.banner = None
        self.banners.tween(banner, 0.0, life, life, anim.linear, gone, attr="t")

    def banner_yield(self) -> None:
        """Cards are about to move: a banner still up fades out now, so it never covers
        the play (a Koi-Koi call's banner while the other side takes its turn)."""
        b = self.banner
        if b is not None and b.life - b.t > 0.3:
            b.life = b.t + 0.3
            self.banners.clear()

            def gone():
                if self.banner is b:
                    self.banner = None
            self.banners.tween(b, b.t, b.life, b.life - b.t, anim.linear, gone, attr="t")

    def clear_selection(self) -> None:
        self.selected = self.target_cursor = None
        self.hud.clear()

    # ------------------------------------------------------------------ events -> the director
    def _pump(self) -> bool:
        """Queue animations for events not shown yet; True if there were any."""
        n = self.policy.shown_limit(self.session.events)
        if self.shown >= n:
            return False
        start, self.shown = self.shown, n
        for k, e in enumerate(self._public(start)[:n - start]):
            self.director.queue(e, start + k)
        return True

    def show_results(self, e: RoundEnded) -> None:
        self.banner = None

        def closed():
            if self.overlay is not scene:
                return   # closed twice
            self._pop_overlay(scene)
            self.tl.release()
        self._results_close = closed
        scene = self._push_overlay("results", self.session, e, on_close=closed)

    def match_over(self) -> None:
        self.closed = True
        self.app.open("match_results", self.session, mode="replace")

    # ------------------------------------------------------------------ overlays
    def _push_overlay(self, name: str, *args, **kwargs):
        """Open the overlay registered as ``name``; the table waits under it."""
        self.controls.reset_pointer()
        self.overlay = self.app.push_overlay(name, *args, **kwargs)
        return self.overlay

    def _pop_overlay(self, scene) -> None:
        """Remove ``scene`` if it is still stacked (the overlay may have closed itself)."""
        if self.overlay is scene:
            self.overlay = None
        stack = getattr(self.app, "scenes", None)
        if stack is not None and scene in stack:
            remove = getattr(self.app, "remove", None)
            if remove is not None:
                remove(scene)
            elif stack[-1] is scene:
                self.app.pop()

    def curtain(self, seat: Optional[int], *, redo_from: Optional[int] = None,
                show_turn_of: Optional[int] = None) -> None:
        """Friend matches: hide the table until ``seat``'s player takes the device. Then the
        table is ``seat``'s: folded again from its own public events, and either the events
        from ``redo_from`` on are shown again for it (a deal), or the other player's last
        turn is replayed (``show_turn_of``)."""
        if seat is None:
            return
        self.tl.hold()

        def ready():
            self._pop_overlay(scene)
            self.tl.release()
            if redo_from is not None:
                self._switch_seat(seat, redo_from, cleared=True)
                return
            start = last_turn_start(self.session.events, show_turn_of) \
                if show_turn_of is not None and show_turn_of != seat else None
            self._switch_seat(seat, start if start is not None else len(self.session.events))
            if start is not None:
                self._announce_last_turn(show_turn_of, start)
        scene = self._push_overlay("curtain", _("{name}'s turn").format(name=self.name(seat)),
                                   _("Pass the device, then click when ready"), on_ready=ready)

    def _switch_seat(self, seat: int, at: int, cleared: bool = False) -> None:
        """The table becomes ``seat``'s as it stood after ``at`` events; the events after
        ``at`` are queued again, from that seat's side."""
        self.me = seat
        self.controls.clear()
        self.tl.steps.clear()
        public = self._public()
        self.director = Director.folded(self.ctx, public[:at], seat)
        self.stage.sprites.clear()
        self.stage.pose = Pose(_cleared(self.table) if cleared else self.table)
        self.hud.clear()
        self.relayout(self.stage.pose, instant=True)
        self.shown = at
        self._pump()

    def _announce_last_turn(self, seat: int, start: int) -> None:
        """The banner over the replay of ``seat``'s last turn: "Player 1 played X and took Y"."""
        text, cards = turn_summary(self.session.events[start:], seat, self.name_style())
        self.last_turn_text = _("{name} {turn}").format(name=self.name(seat), turn=text)
        sub = W.ellipsize(text[:1].upper() + text[1:], self.hud.f_banner_sub, max(40, self.size[0] - 80))
        self.banner_now(_("{name}'s last turn").format(name=self.name(seat)), sub, 2.2, cards=cards[:6])
        self.tl.steps.appendleft(lambda: 1.3)      # a moment to read the banner before the cards move

    def prompt(self) -> None:
        self.banner = None          # the yaku's banner never shows through the prompt
        self.banners.clear()

        def choice(action):
            self._pop_overlay(scene)
            self.send(action)
        scene = self._push_overlay("prompt", self.session, self.me, choice, **self.policy.prompt_options())

    def command(self, name: str, *args, **kw) -> None:
        """What a part asks of the scene (``ctx.command``): something over the table (a menu,
        the keys, the inspector, the curtain, the prompt, the results, a banner), or the end."""
        {"pause": self.pause, "keys": self.open_keys, "inspector": self.open_inspector,
         "curtain": lambda seat: self.curtain(seat, show_turn_of=self.me),
         "deal_curtain": lambda seat, index: self.curtain(seat, redo_from=index),
         "prompt": self.prompt, "results": self.show_results, "match_over": self.match_over,
         "banner": self.banner_now, "banner_yield": self.banner_yield,
         "clear_selection": self.clear_selection}[name](*args, **kw)

    def highlighted(self) -> tuple:
        """Card ids ringed with a pulse (the policy's: a lesson's "click this")."""
        return self.policy.highlighted()

    # ------------------------------------------------------------------ acting
    def send(self, action) -> bool:
        """Apply ``action`` if it is legal now; True if it was applied."""
        if not send(self.session, action):
            return False
        self.applied.append(action)
        self.director.clear_marks()    # the other side's last turn stays marked until now
        self.selected = self.target_cursor = None
        self.driver.cpu.reset()
        self._pump()
        return True

    def at_rest(self) -> bool:
        """Nothing moving or queued, every event shown, no overlay of ours open."""
        return self.ctx.at_rest()

    def shows_the_fold(self) -> bool:
        """The table is the fold of the public events shown, and at rest it is drawn as is
        (the check the tests and the fuzzer make; nothing ever needs correcting)."""
        ok = self.table == fold_all(self._public()[:self.shown], self.me)
        if self.at_rest():
            ok = ok and self.stage.pose.table == self.table and not self.stage.pose.onto
        return ok

    def my_turn(self) -> bool:
        return self.ctx.my_turn()

    def view(self):
        return self.session.view(self.me)

    def cpu_thinking(self) -> bool:
        return self.driver.thinking()

    # ------------------------------------------------------------------ update
    def update(self, dt: float) -> None:
        if self._pending_curtain is not None and self.overlay is None:
            seat, self._pending_curtain = self._pending_curtain, None
            self.curtain(seat)
            return
        self.tl.speed = self.fx.speed = self._speed() * self.driver.tempo()
        self.tl.update(dt)
        self.fx.update(dt)
        self.banners.speed = max(0.5, self.tl.speed) if self.tl.speed > 0 else 2.0
        self.banners.update(dt)
        if not self.tl.busy and self.overlay is None and not self.closed:
            if not self._pump():
                if self.table.phase == Phase.OYAGIME:
                    self._to_oyagime()
                    return
                self.driver.rest(dt)
        if self.lay is not None and self._spread_month() != self._spread:
            self.relayout(None, duration=0.2, timeline=self.fx)   # never blocks a click
        self._update_lifts(dt)
        self._update_tooltip(dt)
        drag = self.drag
        for sp in self.sprites.values():
            if sp.busy or sp.key == drag:
                sp.still = 0.0
            else:
                sp.still += dt
        self.animating = bool(self.tl.busy or self.fx.busy or self.banner or drag or self.cpu_thinking()
                              or self._lifts_moving)
        if self.policy.pulses:       # a lesson's highlight pulses: the table keeps drawing
            self.pulse_t += dt
            self.animating = True

    def _to_oyagime(self) -> None:
        """The draw for dealer has one screen of its own."""
        self.closed = True
        self.app.open("oyagime", self.session, mode="replace")

    # ------------------------------------------------------------------ practice
    def face_card_at(self, pos) -> Optional[CardSprite]:
        """The face-up card drawn topmost under ``pos``; None over a face-down card or nothing.
        Face-down sprites are never described: one on top hides whatever lies below it."""
        if self.lay is None:
            return None
        for sp in reversed(self.stage.draw_order()):
            if self.sprite_rect(sp).move(0, -int(sp.lift)).collidepoint(pos):
                if sp.face and sp.cid is not None and sp.sx > 0.5:
                    return sp
                return None
        return None

    def _update_tooltip(self, dt: float) -> None:
        enabled = (self.practice() and self.drag is None and self.overlay is None
                   and getattr(self.app, "top", self) is self)
        pos = self.controls.pointer.pos
        sp = self.face_card_at(pos) if enabled else None
        if sp is None:
            self.tip.update(dt, None, None, pos, False)
        else:
            self.tip.update(dt, sp.key, sp.cid, pos, True)

    def hint_glow(self) -> frozenset:
        """Easy practice: the hand cards that would capture now (cached per state)."""
        return self.renderer.hint_glow()

    def _update_lifts(self, dt: float) -> None:
        """Ease hand cards up under the pointer and when selected; everything else down."""
        lay = self.lay
        if lay is None:
            return
        k = min(1.0, dt * 18.0)
        moving = False
        target_lift = lay.card_h * 0.12
        in_hand, drag, selected, hover = lay.hand, self.drag, self.selected, self.hover
        for key, sp in self.sprites.items():
            want = 0.0
            if key in in_hand and key != drag:
                want = target_lift if key == selected else target_lift * 0.45 if key == hover else 0.0
            if sp.lift == want:
                continue
            if abs(sp.lift - want) > 0.3 and key != drag:
                sp.lift += (want - sp.lift) * k
                moving = True
            else:
                sp.lift = want
        self._lifts_moving = moving

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> bool:
        self.driver.track_held(event)
        if self.drag is None:
            for b in self.buttons:
                if b.handle(event):
                    return True
        if event.type == pygame.TEXTINPUT and event.text == "?":
            self.open_keys()
            return True
        if event.type == pygame.KEYDOWN:
            try:
                return self.controls.key(event)
            except (ValueError, KeyError, IndexError, AttributeError, TypeError):
                # mashing keys mid-animation must never take the table down
                log.exception("key %r ignored", getattr(event, "key", None))
                return True
        if event.type == getattr(pygame, "WINDOWLEAVE", -1):
            self.controls.pointer.pos = (-10000, -10000)
            self.hover = None
            self.tip.hide()
            return False
        if event.type == pygame.MOUSEMOTION:
            self.controls.hover_at(event.pos)
        if event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            return False
        used = False
        for g in self.controls.pointer.feed(event):
            used = self.controls.gesture(g) or used
        return used or event.type != pygame.MOUSEMOTION

    def pause(self) -> None:
        """P, or Esc with nothing selected: the app's pause menu over the table."""
        self.tip.hide()
        if self.drag is not None:
            self.controls.cancel()
        self.controls.reset_pointer()
        opener = getattr(self.app, "open_pause_menu", None)
        if opener is not None:
            opener()

    def open_inspector(self, seat: int) -> None:
        """The combo inspector for ``seat`` (an overlay; the table waits under it)."""
        self.tip.hide()
        if self.drag is not None:
            self.controls.cancel()
        self.controls.reset_pointer()

        def closed():
            if self.inspector is scene:
                self.inspector = None
            self._pop_overlay(scene)
        scene = self.app.push_overlay("inspector", self.session, self.me, seat, practice=self.practice(),
                                      title=self.hud.combo_title(seat), on_close=closed,
                                      you=self.is_you(seat))
        self.inspector = scene

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        if self.lay is None or surface.get_size() != self.size:
            self.resize(surface.get_size())
        lay = self.lay
        self.renderer.draw(surface, lay)
        for b in self.buttons:
            b.draw(surface)
        self.hud.draw_guidance(surface, lay)
        if self.banner is not None:
            img = self.banner.image
            img.set_alpha(self.banner.alpha)
            surface.blit(img, img.get_rect(center=lay.field_area.center))
        if getattr(self.app, "top", self) is self:
            self.hud.draw_combo_hover(surface)
        if getattr(self.app, "top", self) is self and self.practice():
            draw_tooltip(surface, self.assets, self.tip, self.name_style())
