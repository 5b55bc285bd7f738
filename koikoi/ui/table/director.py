"""The event director: each public event becomes tweens between two folded tables.

The scene shows ``director.table``, the ``PublicTable`` folded from the public
events it has shown. ``queue(event)`` folds the next event (``new =
fold(old, event)``) and puts its steps on the animation timeline: every step
sets a ``Pose`` between the two tables (a card resting on the one it takes,
a stock card at the flip spot) and the stage tweens the sprites there. When
the timeline is empty the pose is exactly ``Pose(new)``: what the table shows
at rest is the fold itself, so there is nothing to keep in step with the
engine and nothing to correct.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ...engine import cards as C
from ...engine import yaku as Y
from ...engine.events import (Chose, Exhausted, FieldSwept, Flipped, KoiKoiCalled, LuckyHand,
                              MatchEnded, Misdeal, OyagimeDecided, OyagimePicked, OyagimeSpread,
                              Played, RoundDealt, RoundEnded, Stopped, YakuMade)
from ...engine.table import PublicTable, fold, initial
from .. import anim, theme
from ...i18n import _
from .stage import CAPTURE_TIME, FLIP_TIME, PLAY_TIME, CardSprite, Pose, center, targets

if TYPE_CHECKING:  # pragma: no cover
    from .context import TableContext

DEAL_STEP = 0.085
# The great yaku get a longer moment, with their cards.
GREAT = ("goko", "shiko", "ame_shiko", "inoshikacho", "akatan_aotan")
_GREAT_CARDS = {"goko": C.BRIGHTS, "shiko": C.BRIGHTS, "ame_shiko": C.BRIGHTS,
                "inoshikacho": C.INOSHIKACHO, "akatan_aotan": C.AKATAN | C.AOTAN}
_TURN = (Played, Flipped, Chose, KoiKoiCalled)


def _without(cards: tuple, gone) -> tuple:
    gone = set(gone)
    return tuple(c for c in cards if c not in gone)


def _field_without(t: PublicTable, gone) -> tuple:
    gone = set(gone)
    return tuple(tuple(c for c in slot if c not in gone) for slot in t.field_slots)


def _out_of_hand(t: PublicTable, seat: int, card: str) -> PublicTable:
    """``t`` with ``card`` gone from ``seat``'s hand (a back, for the other seat)."""
    if seat == t.seat:
        return t._replace(hand=_without(t.hand, (card,)))
    return t._replace(opponent_hand_count=max(0, t.opponent_hand_count - 1))


class Director:
    """Turns each public event into steps on the timeline. It reads the table through the
    context and asks the scene, through ``ctx.command``, for what only the scene shows:
    the banners, the curtain, the round's results, the end of the match."""

    def __init__(self, ctx: "TableContext", table: PublicTable):
        self.ctx = ctx
        self.table = table           # the fold of every event queued so far
        self.stock_extra = 0         # cards still drawn on the stock during a deal
        # This round's turns as shown: [seat, [(event, the table before it), ...]]. The turn
        # log and the marks on the other seat's last turn are read from them, so they are a
        # function of the events too (a reloaded match shows the same).
        self.turns: list = []
        self._yaku_before: dict = {}         # seat -> the yaku of its last YakuMade this round

    @classmethod
    def folded(cls, ctx: "TableContext", events, seat: int) -> "Director":
        """A director whose table is the fold of ``events`` (``seat``'s public events), with
        the turns of the round they end in."""
        d = cls(ctx, initial(seat))
        for e in events:
            if type(e) is RoundDealt:
                d.turns, d._yaku_before = [], {}
            elif type(e) in _TURN:
                d._add_turn(e, d.table)
            elif type(e) is YakuMade:
                d._yaku_before[e.seat] = e.yaku
            d.table = fold(d.table, e)
        return d

    def _add_turn(self, e, before: PublicTable) -> None:
        if self.turns and not self.turns[-1][1]:
            self.turns.pop()                 # the place clear_marks kept
        if type(e) is Played or not self.turns or self.turns[-1][0] != e.seat:
            self.turns.append([e.seat, []])
            del self.turns[:-8]
        self.turns[-1][1].append((e, before))

    @property
    def log(self) -> list:
        """The latest turns, oldest first: (seat, [its events])."""
        return [(seat, [e for e, _b in steps]) for seat, steps in self.turns[-4:]]

    @property
    def marks(self) -> dict:
        """The other seat's last turn, marked until this seat moves: card -> None (a ring
        only) or (the table before its move, where it came from: "hand", "flip" or the field
        card it took first) for the card whose move gets an arrow."""
        if not self.turns or self.ctx.session.is_hotseat:
            return {}
        seat, steps = self.turns[-1]
        if seat == self.table.seat:
            return {}
        out: dict = {}
        for e, before in steps:
            kind = type(e)
            if kind is Played:
                out[e.card] = (before, (e.target or e.taken[0]) if e.taken else "hand")
                out.update(dict.fromkeys(e.taken))
            elif kind is Flipped and e.taken is not None:
                out[e.card] = (before, e.taken[0] if e.taken else "flip")
                out.update(dict.fromkeys(e.taken))
            elif kind is Chose:
                out[e.card] = (before, e.target)
                out[e.target] = None
        return out

    def clear_marks(self) -> None:
        """This seat moves: the other's last turn is no longer marked."""
        if self.turns and self.turns[-1][0] != self.table.seat:
            self.turns.append([self.table.seat, []])

    @property
    def tl(self) -> anim.Timeline:
        return self.ctx.tl

    @property
    def stage(self):
        return self.ctx.stage

    def _show(self, pose: Pose, **kw) -> None:
        self.ctx.relayout(pose, **kw)

    def _then(self, fn) -> None:
        self.tl.then(fn)

    def _first(self, fn) -> None:
        """Run ``fn`` as the very next step (before the steps already queued)."""
        self.tl.steps.appendleft(fn)

    def _land(self, sp: CardSprite) -> None:
        self.ctx.sound("snap")
        self.stage.pop(sp)

    # ------------------------------------------------------------------ events -> steps
    def queue(self, e, index: int) -> None:
        """Fold ``e`` (public event ``index`` of the scene's seat) and queue how it is shown."""
        old, new = self.table, fold(self.table, e)
        self.table = new
        kind = type(e)
        if kind in _TURN:
            self._then(lambda: self._note(e, old))
        if kind is RoundDealt:
            self._then(lambda: self._deal(e, index, new))
        elif kind is Played:
            self._then(lambda: self._play(old, e, new))
        elif kind is Flipped:
            self._then(lambda: self._flip(old, e, new))
        elif kind is Chose:
            self._then(lambda: self._chose(old, e, new))
        elif kind is FieldSwept:
            self._then(lambda: self._swept(old, e, new))
        elif kind is RoundEnded:
            self._then(lambda: self._round_ended(e, new))
        elif kind is MatchEnded:
            self._then(lambda: self._match_ended(new))
        elif kind in (OyagimeSpread, OyagimePicked, OyagimeDecided):
            self._then(lambda: self._quiet(new))     # drawn by the oya-gime scene
        else:
            self._then(lambda: self._announce_event(e, new))

    def _note(self, e, before: PublicTable) -> float:
        """A turn's event is about to be shown: into this round's turns (the log, the marks)."""
        self._add_turn(e, before)
        self.ctx.command("banner_yield")
        return 0.0

    def _quiet(self, new: PublicTable) -> float:
        self._show(Pose(new), duration=PLAY_TIME)
        return 0.0

    # -- dealing
    def _gather(self) -> float:
        """Every card on the table goes back to the stock (face down)."""
        stage, lay = self.stage, self.stage.lay
        end = center(lay.stock)
        for k, sp in enumerate(list(stage.sprites.values())):
            stage.move(sp, end, 0.3, delay=k * 0.006, easing=anim.in_out_sine, fly=True)
            if sp.face:
                stage.flip(sp, False, duration=0.2)
        self.ctx.sound("shuffle")

        def clear():
            stage.sprites.clear()
            return 0.0
        self._first(clear)
        return 0.42

    def _deal(self, e: RoundDealt, index: int, new: PublicTable) -> float:
        ctx, stage = self.ctx, self.stage
        if ctx.session.is_hotseat and e.dealer != ctx.seat and ctx.overlay is None:
            # friend matches: the dealer's hand is dealt to the dealer's eyes only; the
            # curtain hands the table over and the deal is queued again for that seat
            ctx.command("deal_curtain", e.dealer, index)
            return 0.0
        if stage.sprites:
            self._first(lambda: self._deal(e, index, new))
            return self._gather()
        ctx.command("clear_selection")
        self.turns, self._yaku_before = [], {}
        self.stock_extra = 16 + len(e.field)
        self._show(Pose(new), duration=0.0)
        lay = stage.lay
        for sp in stage.sprites.values():   # everything waits on the stock, hidden
            stage.stop(sp)
            sp.pos = center(lay.stock)
            sp.visible = False
            sp.face = False
        ctx.sound("shuffle")
        # Packets of two: the other seat, the field, the dealer; four times.
        me, other = new.seat, 1 - e.dealer
        hand_keys = {me: list(lay.hand_order),
                     1 - me: [f"opp{i}" for i in range(len(lay.opponent_hand))]}
        field_keys = list(e.field)
        order = []
        for r in range(4):
            for keys in (hand_keys[other], field_keys, hand_keys[e.dealer]):
                if keys[2 * r:2 * r + 2]:
                    order.append(keys[2 * r:2 * r + 2])
        extra = hand_keys[other][8:] + field_keys[8:] + hand_keys[e.dealer][8:]
        if extra:
            order.append(extra)
        want = targets(lay, stage.pose)

        def packet(keys):
            for key in keys:
                sp = stage.sprites.get(key)
                if sp is None or key not in want:
                    continue
                sp.visible = True
                cx, cy, h, _layer, _z, face, _cid = want[key]
                stage.move(sp, (cx, cy, h), 0.34, easing=anim.out_cubic, fly=True)
                if face:
                    stage.flip(sp, True, delay=0.12, duration=0.22)
            self.stock_extra = max(0, self.stock_extra - len(keys))
            ctx.sound("deal")
            return DEAL_STEP * 1.6
        for keys in reversed(order):
            self._first(lambda keys=keys: packet(keys))
        return 0.15

    # -- a turn
    def _card_from_hand(self, t: PublicTable, seat: int, card: str) -> Optional[CardSprite]:
        """The sprite of ``card`` leaving ``seat``'s hand: for the other seat, its last back
        turns into the card (face down until it flips on the way)."""
        pick = self.ctx.pick          # a hand card on its way to the field: no longer picked
        if pick.selected == card:
            pick.selected = None
        pick.target_cursor = None
        if self.stage.drag == card:
            self.stage.drag = None
        sprites = self.stage.sprites
        if seat == t.seat:
            return sprites.get(card)
        back = sprites.pop(f"opp{t.opponent_hand_count - 1}", None)
        if back is None:
            return None
        sp = CardSprite(card, card, back.pos, False)
        sprites[card] = sp
        return sp

    def _play(self, old: PublicTable, e: Played, new: PublicTable) -> float:
        sp = self._card_from_hand(old, e.seat, e.card)
        flips = {e.card} if sp is not None and not sp.face else set()
        land = {e.card: self._land}
        if not e.taken:
            self._show(Pose(new), fly={e.card}, flips=flips, on_land=land, duration=PLAY_TIME)
            return PLAY_TIME + 0.04
        under = e.target or e.taken[0]
        self._show(Pose(_out_of_hand(old, e.seat, e.card), onto=((e.card, under),)), fly={e.card},
                   flips=flips, on_land=land, duration=PLAY_TIME)
        self._first(lambda: self._capture(new, (e.card, *e.taken)))
        return PLAY_TIME + 0.16

    def _capture(self, new: PublicTable, moving: tuple) -> float:
        delays = {k: i * 0.04 for i, k in enumerate(moving)}
        first = {moving[0]: lambda sp: self.ctx.sound("capture")}
        self._show(Pose(new), fly=set(moving), delays=delays, duration=CAPTURE_TIME, on_land=first,
                   easing=anim.in_out_cubic)
        return CAPTURE_TIME + 0.04 * len(moving) + 0.04

    def _flip(self, old: PublicTable, e: Flipped, new: PublicTable) -> float:
        stage = self.stage
        at_spot = old._replace(stock_count=max(0, old.stock_count - 1))
        self._show(Pose(at_spot, flip=e.card), duration=0.0)
        sp = stage.sprites[e.card]
        lay = stage.lay
        sp.pos = center(lay.stock)
        sp.face = False
        sp.flying = True
        stage.move(sp, center(lay.flip), 0.22, easing=anim.out_cubic, fly=True)
        stage.flip(sp, True, delay=0.2, duration=FLIP_TIME, on_start=lambda: self.ctx.sound("flip"))
        if e.taken is None:            # two matches: it waits at the flip spot (new.pending)
            self._first(lambda: self._quiet(new))
        elif not e.taken:              # no match: it joins the field
            def join():
                self._show(Pose(new), fly={e.card}, on_land={e.card: self._land}, duration=PLAY_TIME)
                return PLAY_TIME + 0.04
            self._first(join)
        else:                          # onto the card it takes, then both to the pile
            def onto():
                self._show(Pose(at_spot, onto=((e.card, e.taken[0]),)), fly={e.card},
                           on_land={e.card: self._land}, duration=PLAY_TIME)
                self._first(lambda: self._capture(new, (e.card, *e.taken)))
                return PLAY_TIME + 0.16
            self._first(onto)
        return 0.22 + FLIP_TIME + (0.12 if e.taken else 0.05)

    def _chose(self, old: PublicTable, e: Chose, new: PublicTable) -> float:
        waiting = old._replace(pending=None, choices=())
        self._show(Pose(waiting, onto=((e.card, e.target),)), fly={e.card},
                   on_land={e.card: self._land}, duration=PLAY_TIME)
        self._first(lambda: self._capture(new, (e.card, e.target)))
        return PLAY_TIME + 0.16

    def _swept(self, old: PublicTable, e: FieldSwept, new: PublicTable) -> float:
        ctx = self.ctx
        taken = old._replace(field_slots=_field_without(old, e.cards), captured=new.captured)
        self._show(Pose(taken), fly=set(e.cards), duration=CAPTURE_TIME)
        ctx.sound("capture")

        def replace():
            self._show(Pose(new), fly=set(e.replacements), flips=set(e.replacements),
                       duration=PLAY_TIME)
            ctx.sound("flip")
            return PLAY_TIME + 0.1
        self._first(replace)
        ctx.command("banner", _("Field sweep"),
                    _("{name} takes the four of a month").format(name=ctx.name(e.seat)),
                    1.4, cards=e.cards)
        return CAPTURE_TIME + 0.2

    # -- announcements
    def _announce_event(self, e, new: PublicTable) -> float:
        self._show(Pose(new), duration=PLAY_TIME)
        ctx = self.ctx
        kind = type(e)
        if kind is YakuMade:
            return self._yaku(e, new)
        if kind is KoiKoiCalled:
            title = _("You call Koi-Koi!") if ctx.is_you(e.seat) else \
                _("{name} calls Koi-Koi!").format(name=ctx.name(e.seat))
            sub = _("こいこい — the round goes on") if e.calls == 1 else \
                _("こいこい — the round goes on (call {n})").format(n=e.calls)
            return self._announce(title, sub, "koikoi", 1.1, color=theme.LACQUER_LIGHT)
        if kind is Stopped:
            you = ctx.is_you(e.seat)
            name = ctx.name(e.seat)
            if e.auto:
                title = _("You win the round") if you else \
                    _("{name} wins the round").format(name=name)
                sub = _("勝負 Shōbu: the rules end the round here")
            else:
                title = _("You stop!") if you else _("{name} stops!").format(name=name)
                sub = _("勝負 Shōbu: the round ends and scores")
            return self._announce(title, sub, "stop", 1.0)
        if kind is Exhausted:
            return self._announce(_("No game"), _("流局  Both hands are empty"), "stop", 1.0)
        if kind is Misdeal:
            why = {"four_of_a_month": _("Four cards of one month on the field: redeal"),
                   "four_pairs": _("Four pairs on the field: redeal"),
                   "three_of_a_month": _("Three cards of one month on the field: redeal"),
                   "lucky_hand": _("A lucky hand was dealt: redeal")}.get(
                       e.reason, _("Misdeal: redeal"))
            return self._announce(_("Misdeal"), why, "shuffle", 1.2, cards=e.cards)
        if kind is LuckyHand:
            names = " + ".join(f"{y.kanji} {y.romaji}" for y in map(Y.info, e.hands))
            sub = _("{name}: a lucky hand, {points} points").format(name=ctx.name(e.seat),
                                                                      points=e.points)
            return self._announce(names, sub, "yaku", 1.8, cards=e.cards)
        return 0.0

    def _yaku(self, e: YakuMade, new: PublicTable) -> float:
        ctx = self.ctx
        lines = [f"{Y.info(n).kanji}  {Y.info(n).romaji}  {p}" for n, p in e.yaku]
        who = _("You") if ctx.is_you(e.seat) else ctx.name(e.seat)
        title = "  ·  ".join(lines) if len(lines) <= 2 else \
            _("{n} yaku · {points} points").format(n=len(lines), points=e.total)
        sub = (_("{who}: {points} point") if e.total == 1 else
               _("{who}: {points} points")).format(who=who, points=e.total)
        ctx.sound("yaku")
        # A great yaku formed now (not one held before): a longer moment, with its cards.
        before = {n for n, _p in self._yaku_before.get(e.seat, ())}
        great = [n for n, _p in e.yaku if n in GREAT and n not in before]
        self._yaku_before[e.seat] = e.yaku
        if great:
            mask = _GREAT_CARDS[great[0]]
            cards = [c for c in new.captured[e.seat] if mask >> C.ID_TO_INDEX[c] & 1]
            info = Y.info(great[0])
            ctx.command("banner", f"{info.kanji}  {info.romaji}", sub, 3.0, big=True, cards=cards,
                        color=theme.LACQUER_LIGHT if e.seat != new.seat else None)
            ctx.sound("koikoi")
            return 1.4
        ctx.command("banner", title, sub, 2.0, big=True)
        return 0.7

    def _announce(self, title: str, sub: str, sound: Optional[str], wait: float, *, cards=(),
                  color=None) -> float:
        if sound:
            self.ctx.sound(sound)
        self.ctx.command("banner", title, sub, wait + 0.8, cards=cards, color=color)
        return wait

    # -- the end of a round, of the match
    def _round_ended(self, e: RoundEnded, new: PublicTable) -> float:
        self._show(Pose(new), duration=PLAY_TIME)

        def show():
            self.tl.hold()
            self.ctx.command("results", e)
            return 0.0
        self._first(show)
        return 0.5

    def _match_ended(self, new: PublicTable) -> float:
        self.ctx.command("match_over")
        return 0.0
