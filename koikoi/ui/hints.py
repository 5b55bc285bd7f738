"""Practice hints, pure and testable: which cards glow, what a card is called,
how close a capture pile is to each yaku. No pygame; reads only a ``View``
(or ids and masks), never the hidden cards.

    capturing_cards(view)            hand cards that would capture now
    month_mates(view, "03-B")        field cards of that card's month
    card_lines("02-A", "both")       the tooltip's three lines
    near_misses(view, seat)          yaku one or two cards away, with what is still out
    hints_enabled(settings, level, hotseat)   whether hints show (the "hints" setting)
    pace_factor(settings)            the multiplier on the CPU's pauses (the "pace" setting)
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple, Optional

from ..ai import hints_on
from ..engine import KIND_JAPANESE, MONTH_NAMES
from ..engine import card as card_of
from ..engine import yaku as Y
from ..engine.cards import ALL, CARD_MONTH_MASK, DECK, Kind, from_mask, to_mask
from ..engine.scoring import yaku_points
from ..i18n import SOURCE_LANGUAGE, N_, _, language, ngettext
from ..narration import yaku_label

NAME_STYLES = Y.STYLES
# English (N_): translated where shown (``kind_text``; a near miss's ``noun`` by whoever draws it)
KIND_ENGLISH = {Kind.BRIGHT: N_("Bright"), Kind.ANIMAL: N_("Animal"), Kind.RIBBON: N_("Ribbon"),
                Kind.CHAFF: N_("Plain")}
KIND_NOUN = {Kind.BRIGHT: (N_("bright"), N_("brights")), Kind.ANIMAL: (N_("animal"), N_("animals")),
             Kind.RIBBON: (N_("ribbon"), N_("ribbons")), Kind.CHAFF: (N_("plain"), N_("plains"))}
CARD_NOUN = (N_("card"), N_("cards"))


def _miss_sentence(noun: str, away: int) -> str:
    """A near miss's whole sentence (translated, with ``{yaku}`` and the counts to fill in)
    for its English ``noun``: no noun is spliced into a sentence."""
    one = next((o for o, m in (*KIND_NOUN.values(), CARD_NOUN) if noun in (o, m)), CARD_NOUN[0])
    if one == "bright":
        return ngettext("{yaku}: {away} bright away ({unseen} of {total} left unseen)",
                        "{yaku}: {away} brights away ({unseen} of {total} left unseen)", away)
    if one == "animal":
        return ngettext("{yaku}: {away} animal away ({unseen} of {total} left unseen)",
                        "{yaku}: {away} animals away ({unseen} of {total} left unseen)", away)
    if one == "ribbon":
        return ngettext("{yaku}: {away} ribbon away ({unseen} of {total} left unseen)",
                        "{yaku}: {away} ribbons away ({unseen} of {total} left unseen)", away)
    if one == "plain":
        return ngettext("{yaku}: {away} plain away ({unseen} of {total} left unseen)",
                        "{yaku}: {away} plains away ({unseen} of {total} left unseen)", away)
    return ngettext("{yaku}: {away} card away ({unseen} of {total} left unseen)",
                    "{yaku}: {away} cards away ({unseen} of {total} left unseen)", away)


# ------------------------------------------------------------------ yaku names, in the language
def yaku_heading(name, style: str = "both") -> str:
    """The kanji and the short label ("三光  Sankō"), or the kanji alone when the label is it."""
    kanji, label = Y.info(name).kanji, yaku_label(name, style, short=True)
    return kanji if kanji in label else f"{kanji}  {label}"     # ("三光（さんこう）": the label is it)


def yaku_heading_lines(name, style: str = "both") -> tuple:
    """(the heading, the line under it) of a yaku's row (the Koi-Koi prompt, the combo
    inspector): ``yaku_heading`` over the English name when both are shown, nothing under
    it when that repeats the heading (a language with one name: "タン" over "タン")."""
    main = yaku_heading(name, style)
    second = _(Y.info(name).english) if style == "both" else ""
    return main, ("" if second in main or main in second else second)


def yaku_title(name, style: str = "both") -> tuple:
    """(main line, second line) of a yaku's name (``yaku.title`` in English); in another
    language the kanji over the rōmaji, or the translated English over the kanji."""
    if language() == SOURCE_LANGUAGE:
        return Y.title(name, style)
    y = Y.info(name)
    if style == "english":
        english = _(y.english)
        return english, ("" if y.kanji in english else y.kanji)   # 三光（さんこう） needs no 三光 under it
    return y.kanji, y.romaji


def _id(c) -> str:
    return c if isinstance(c, str) else c.id


def style_of(settings) -> str:
    """The ``name_style`` setting, defaulting to "both" for anything unknown."""
    try:
        value = settings.get("name_style", "both")
    except AttributeError:
        return "both"
    return value if value in NAME_STYLES else "both"


# ------------------------------------------------------------------ glow
def capturing_cards(view) -> frozenset:
    """Ids of the hand cards that have a field card of their month (they would capture)."""
    field = view.field_mask
    return frozenset(c.id for c in view.hand if field & CARD_MONTH_MASK[c.index])


def month_mates(view, card_id: Optional[str]) -> frozenset:
    """Ids of the field cards of ``card_id``'s month (what it could take)."""
    if card_id is None:
        return frozenset()
    try:
        c = card_of(card_id)
    except KeyError:
        return frozenset()
    return frozenset(x.id for x in from_mask(view.field_mask & CARD_MONTH_MASK[c.index]) if x.id != c.id)


# ------------------------------------------------------------------ names
def kind_text(kind: Kind, style: str = "both") -> str:
    """"Bright / Hikari (光)", or one of the halves for the other name styles."""
    romaji, japanese = KIND_JAPANESE[kind]
    english = _(KIND_ENGLISH[kind])
    if style == "english":
        return _("{english} ({japanese})").format(english=english, japanese=japanese)
    if style == "romaji":
        return _("{romaji} ({japanese})").format(romaji=romaji, japanese=japanese)
    return _("{english} / {romaji} ({japanese})").format(english=english, romaji=romaji, japanese=japanese)


def card_lines(card_id: str, style: str = "both") -> tuple[str, str, str]:
    """The tooltip of a face-up card: month · plant, kind, the card's own name."""
    c = card_of(card_id)
    return (_("{month} · {plant}").format(month=_(MONTH_NAMES[c.month - 1]), plant=_(c.plant)),
            kind_text(c.kind, style), _(c.name))


# ------------------------------------------------------------------ near misses
class NearMiss(NamedTuple):
    name: str             # yaku key
    away: int             # 1 or 2 cards
    noun: str             # "bright", "animals", "card"...
    candidates: tuple     # ids of the cards that would help, still out of both piles
    unseen: int           # how many of those the viewer cannot see
    points: int           # what the yaku would be worth

    def text(self, style: str = "both") -> str:
        main = yaku_label(self.name, style, short=True)
        n = len(self.candidates)
        return _miss_sentence(self.noun, self.away).format(
            yaku=main, away=self.away, unseen=self.unseen, total=n)


def _noun(cards, away: int) -> str:
    kinds = {card_of(c).kind for c in cards}
    if len(kinds) == 1:
        one, many = KIND_NOUN[kinds.pop()]
        return one if away == 1 else many
    return CARD_NOUN[0] if away == 1 else CARD_NOUN[1]


def near_misses(view, seat: int, max_away: int = 2) -> list[NearMiss]:
    """Yaku that ``seat``'s pile lacks but could make with one or two more cards.

    Only cards still out of both capture piles count (in a hand, on the field,
    in the stock). ``unseen`` counts those hidden from ``view.seat``. Nearest first.
    """
    rules = view.rules
    pile = view.captured_masks[seat]
    other = view.captured_masks[1 - seat]
    field = view.field_mask
    available = ALL & ~pile & ~other
    unseen_mask = view.unseen_mask
    # the seat's calls and the round's month: what tsuki-fuda and the viewing yaku after a
    # call read (a View has ``calls`` and ``month``; older callers' objects may not)
    calls = getattr(view, "calls", (0, 0))[seat]
    month = getattr(view, "month", 0)
    held = {n: p for n, p in yaku_points(pile, rules, field, calls, month)}
    cards = [c.index for c in DECK if available >> c.index & 1]
    found: dict[str, list] = {}      # name -> [away, set of helping indices, points]
    for i in cards:
        for n, p in yaku_points(pile | 1 << i, rules, field, calls, month):
            if n not in held:
                got = found.setdefault(n, [1, set(), p])
                got[1].add(i)
                got[2] = max(got[2], p)
    if max_away >= 2:
        # only cards that matter to some yaku: brights, animals, ribbons, chaff (all of them);
        # prune pairs by kind so that the common case stays fast
        for i, j in combinations(cards, 2):
            for n, p in yaku_points(pile | 1 << i | 1 << j, rules, field, calls, month):
                if n in held:
                    continue
                got = found.get(n)
                if got is not None and got[0] == 1:
                    continue
                if got is None:
                    got = found[n] = [2, set(), p]
                got[1].update((i, j))
                got[2] = min(got[2], p)
    out = []
    for n, (away, idx, p) in found.items():
        ids = tuple(DECK[i].id for i in sorted(idx))
        unseen = sum(1 for i in idx if unseen_mask >> i & 1)
        out.append(NearMiss(n, away, _noun(ids, away), ids, unseen, p))
    order = {n: k for k, n in enumerate(Y.CAPTURE_ORDER)}
    out.sort(key=lambda m: (m.away, order.get(m.name, 99)))
    return _drop_shadowed(out)


def _drop_shadowed(misses: list) -> list:
    """Leave out a bigger bright yaku when a smaller one is just as near (Shikō beside Sankō)."""
    brights = ("sanko", "ame_shiko", "shiko", "goko")
    out, seen_bright = [], None
    for m in misses:
        if m.name in brights:
            if seen_bright is not None and seen_bright <= m.away:
                if m.away > 1:
                    continue
            seen_bright = m.away if seen_bright is None else min(seen_bright, m.away)
        out.append(m)
    return out


def pile_mask(ids) -> int:
    return to_mask(_id(c) for c in ids)


# ------------------------------------------------------------------ settings
# How long the CPU's turn takes to watch: a multiplier on the table's CPU pauses
# (the "pace" setting; koikoi.storage.PACE_NAMES lists the same names).
PACES = {"relaxed": 1.6, "normal": 1.0, "quick": 0.55}


def _choice_setting(settings, key: str, allowed, default: str) -> str:
    """``settings[key]`` if it is one of ``allowed``, else ``default`` (never raising)."""
    try:
        value = settings.get(key, default)
    except AttributeError:
        return default
    return value if isinstance(value, str) and value in allowed else default


def hints_enabled(settings, level: Optional[str], hotseat: bool) -> bool:
    """Whether practice hints and card tooltips show, by the "hints" setting:
    "auto" (the default) as ever, with a CPU level that has them (``koikoi.ai.hints_on``:
    Easy) and never between two people at one screen; "on" for any CPU, but never in a
    friend match (each would see the other's hints); "off" never."""
    mode = _choice_setting(settings, "hints", ("auto", "on", "off"), "auto")
    if mode == "off" or hotseat:
        return False
    if mode == "on":
        return True
    return hints_on(level)


def pace_factor(settings) -> float:
    """The multiplier on the CPU's pauses for the "pace" setting (1.0 if unknown)."""
    return PACES[_choice_setting(settings, "pace", PACES, "normal")]
