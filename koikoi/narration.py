"""What happened, in words: one sentence per public event, with cards named, never ids.

The table's recap (a friend's last turn), the replay viewer and the log files
all tell a match through this module, so a card or a yaku is named the same
way everywhere, in the player's ``name_style`` ("both", "english", "romaji",
as ``engine.yaku.label``):

    card_name("01-B")                      "Crane (Matsu ni Tsuru)"
    card_name("01-B", "english")           "Crane"
    card_name("01-P1", "english")          "a Pine plain"
    card_name("11-P", "english")           "Lightning"
    card_name("01-RP", "romaji")           "Matsu ni Akatan"
    sentence(Played(0, "01-B", None, ("01-P1",)), ("You", "CPU"), you=0, style="english")
                                           "You played Crane and took a Pine plain."
    turn_summary(events, 1, "english")     ("played Crane and took a Pine plain; turned up Geese",
                                            ["01-B", "01-P1", "08-A"])

Hidden information: a sentence tells only what the event shows its seat
(``public_event``); it never names a card of a dealt hand, the stock or the
face-down oya-gime spread, so the sentence of a raw event is the sentence of
its public form.

Translation: every text a player reads is a whole template with named
placeholders inside ``_()`` (or ``_n()`` where a number decides the plural,
``N_()`` for table entries translated where they are used), so gettext can
extract them (``tools/catalog.py extract``); nothing is glued from fragments of a sentence.

Pure: no pygame, no I/O.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple, Optional, Sequence

from .engine import yaku as Y
from .engine.cards import MONTH_NAMES, Kind, card
from .engine.events import (Chose, Exhausted, FieldSwept, Flipped, KoiKoiCalled, LuckyHand,
                            MatchEnded, MatchStarted, Misdeal, OyagimeDecided, OyagimePicked,
                            OyagimeSpread, Played, RoundDealt, RoundEnded, Stopped, YakuMade,
                            public_event)
from .engine.rules import PRESET_LABELS
from .engine.scoring import counted_label


# The translation functions (koikoi.i18n), re-exported: modules import them from here.
from .i18n import SOURCE_LANGUAGE, N_, _, _n, language  # noqa: E402,F401


def yaku_label(name, style: str = "both", short: bool = False) -> str:
    """A yaku's name on one line for the ``name_style`` setting, in the current language.
    English: ``yaku.label`` ("Sankō · Three Brights", "Three Brights" or "Sankō"). Another
    language: the translated English name under "english" (``short``: without a reading
    in brackets after it, "花見酒（はなみざけ）" -> "花見酒"), the kanji (花見酒) otherwise."""
    if language() == SOURCE_LANGUAGE:
        return Y.label(name, style, short)
    y = Y.info(name)
    if style != "english":
        return y.kanji
    text = _(y.english)
    return (text.split("（")[0] or text) if short else text


STYLES = Y.STYLES


def _style(style) -> str:
    return style if style in STYLES else "both"


# ---------------------------------------------------------------- names

PLANTS_EN = (N_("Pine"), N_("Plum"), N_("Cherry"), N_("Wisteria"), N_("Iris"), N_("Peony"),
             N_("Bush clover"), N_("Pampas"), N_("Chrysanthemum"), N_("Maple"), N_("Willow"),
             N_("Paulownia"))
PLANTS_ROMAJI = ("Matsu", "Ume", "Sakura", "Fuji", "Ayame", "Botan", "Hagi", "Susuki", "Kiku",
                 "Momiji", "Yanagi", "Kiri")

# The English name of every card that is not a plain chaff, and its rōmaji (what the card shows).
_NAMED = {
    "01-B": (N_("Crane"), "Tsuru"),
    "02-A": (N_("Bush warbler"), "Uguisu"),
    "03-B": (N_("Curtain"), "Maku"),
    "04-A": (N_("Cuckoo"), "Hototogisu"),
    "05-A": (N_("Eight-plank bridge"), "Yatsuhashi"),
    "06-A": (N_("Butterflies"), "Chō"),
    "07-A": (N_("Boar"), "Inoshishi"),
    "08-B": (N_("Moon"), "Tsuki"),
    "08-A": (N_("Geese"), "Kari"),
    "09-A": (N_("Sake cup"), "Sakazuki"),
    "10-A": (N_("Deer"), "Shika"),
    "11-B": (N_("Rain man"), "Michikaze"),
    "11-A": (N_("Swallow"), "Tsubame"),
    "11-P": (N_("Lightning"), "Kasu"),      # the Willow's chaff, named by its picture
    "12-B": (N_("Phoenix"), "Hōō"),
}
# Ribbons by their id suffix: English template, rōmaji.
_RIBBONS = {
    "RP": (N_("{plant} poetry ribbon"), "Akatan"),
    "RB": (N_("{plant} blue ribbon"), "Aotan"),
    "R": (N_("{plant} ribbon"), "Tanzaku"),
}


def plant_name(month: int, style: str = "both") -> str:
    """The plant of a month (1..12): "Pine", "Matsu" or "Pine (Matsu)"."""
    english, romaji = _(PLANTS_EN[month - 1]), PLANTS_ROMAJI[month - 1]
    style = _style(style)
    if style == "english":
        return english
    if style == "romaji":
        return romaji
    return _("{english} ({romaji})").format(english=english, romaji=romaji)


def _english(c) -> str:
    plant = _(PLANTS_EN[c.month - 1])
    if c.id in _NAMED:
        return _(_NAMED[c.id][0])
    if c.kind == Kind.RIBBON:
        return _(_RIBBONS[c.id[3:]][0]).format(plant=plant)
    if plant[:1] in "AEIOU":
        return _("an {plant} plain").format(plant=plant)   # the Iris
    return _("a {plant} plain").format(plant=plant)


def _romaji(c) -> str:
    plant = PLANTS_ROMAJI[c.month - 1]
    if c.id == "11-P":
        return f"{plant} no Kasu"
    if c.id in _NAMED:
        return f"{plant} ni {_NAMED[c.id][1]}"
    if c.kind == Kind.RIBBON:
        return f"{plant} ni {_RIBBONS[c.id[3:]][1]}"
    return f"{plant} no Kasu"


def card_name(card_id, style: str = "both") -> str:
    """A card's name in a sentence for the ``name_style`` setting.

    English: the card's own name ("Crane", "Sake cup", "Lightning"), a ribbon by its plant
    ("Pine poetry ribbon", "Peony blue ribbon", "Willow ribbon"), a plain chaff as one of its
    kind ("a Pine plain", "an Iris plain"). Rōmaji: the traditional "plant ni thing" ("Matsu ni Tsuru",
    "Matsu ni Akatan", "Matsu no Kasu"). Both: "Crane (Matsu ni Tsuru)". An unknown style
    reads as "both". Raises KeyError for what is not a card."""
    c = card(card_id)
    style = _style(style)
    if style == "english":
        return _english(c)
    if style == "romaji":
        return _romaji(c)
    return _("{english} ({romaji})").format(english=_english(c), romaji=_romaji(c))


def join(items: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    items = list(items)
    if not items:
        return ""
    text = items[-1]
    if len(items) > 1:
        text = _("{first} and {last}").format(first=items[-2], last=text)
        for item in reversed(items[:-2]):
            text = _("{item}, {rest}").format(item=item, rest=text)
    return text


def cards_text(ids: Iterable, style: str = "both") -> str:
    """"Crane and a Pine plain"."""
    return join([card_name(c, style) for c in ids])


def yaku_text(yaku: Iterable, style: str = "both") -> str:
    """"Tanzaku · Ribbons (1) and Kasu · Chaff (1)" of ((name, points), ...) (or of
    (name, points, cards) rows)."""
    return join([_("{yaku} ({points})").format(yaku=yaku_label(y[0], style), points=y[1]) for y in yaku])


def preset_label(name: str) -> str:
    """A preset's whole label in the current language ("Casual (6 months, stacking yaku)");
    a name that is no preset, as it is."""
    return _(PRESET_LABELS[name]) if name in PRESET_LABELS else str(name)


def preset_parts(name: str) -> tuple[str, str]:
    """(name, detail) of a preset's label in the current language ("Casual", "6 months,
    stacking yaku"): the translated label split at its bracket (ASCII or full-width); a
    label without one is its own name and detail, a name not a preset is itself."""
    label = preset_label(name)
    for opening, closing in ((" (", ")"), ("（", "）"), ("(", ")")):
        i = label.find(opening)
        if i > 0:
            detail = label[i + len(opening):]
            if detail.endswith(closing):
                detail = detail[:-len(closing)]
            return label[:i].rstrip(), detail
    return label, label


def rules_name(name: str) -> str:
    """A preset's short name in the current language ("Casual", "カジュアル"), or the name as written."""
    return preset_parts(name)[0]


def multiplier_label(label) -> str:
    """The engine's multiplier label (scoring.multipliers) in the current language, as it
    reads on its own ("3 Koi-Koi calls", "7 points or more")."""
    found = counted_label(label)
    if found is not None:
        one, many, n = found
        return _n(one, many, n).format(n=n)
    return _(str(label))


def multiplier_text(label: str, winner: Optional[int], names: Sequence[str],
                    you: Optional[int] = None) -> str:
    """The engine's multiplier label (scoring.multipliers) in words of this table's seats."""
    label = str(label)
    if winner in (0, 1):
        me, other = winner, 1 - winner
        if label == "opponent called Koi-Koi":
            return _("you called Koi-Koi") if other == you else _("{who} called Koi-Koi").format(
                who=names[other])
        if label == "you called Koi-Koi":
            return _("you called Koi-Koi") if me == you else _("{who} called Koi-Koi").format(who=names[me])
        m = re.fullmatch(r"own Koi-Koi ×(\d+)", label)
        if m:
            n = int(m.group(1))
            if me == you:
                return _n("you called Koi-Koi {n} time", "you called Koi-Koi {n} times", n).format(n=n)
            return _n("{who} called Koi-Koi {n} time", "{who} called Koi-Koi {n} times", n).format(
                who=names[me], n=n)
    if label == "7 points or more":
        return _("7 points or more")
    if label == "Koi-Koi was called":
        return _("Koi-Koi was called")
    m = re.fullmatch(r"(\d+) Koi-Koi calls?", label)
    if m:
        n = int(m.group(1))
        return _n("{n} Koi-Koi call", "{n} Koi-Koi calls", n).format(n=n)
    m = re.fullmatch(r"(\d+) brights? in the opening field", label)
    if m:
        n = int(m.group(1))
        return _n("{n} bright in the opening field", "{n} brights in the opening field", n).format(n=n)
    return multiplier_label(label)


# ---------------------------------------------------------------- sentences

class _Who(NamedTuple):
    you: bool
    name: str


def _who(seat, names, you) -> _Who:
    if seat == you and seat is not None:
        return _Who(True, "")
    try:
        return _Who(False, str(names[seat]))
    except (IndexError, TypeError):
        return _Who(False, _("Player {n}").format(n=(seat or 0) + 1))


def _say(who: _Who, you_template: str, other_template: str, **fields) -> str:
    """The sentence of ``who``: the template for "you" or for a named seat."""
    if who.you:
        return you_template.format(**fields)
    return other_template.format(who=who.name, **fields)


def _month(round_no: int) -> str:
    return _(MONTH_NAMES[(round_no - 1) % 12])


_MISDEAL = {
    "four_of_a_month": N_("Misdeal: all four {plant} cards lie in the field; the cards are dealt again."),
    "four_pairs": N_("Misdeal: the field holds four pairs; the cards are dealt again."),
    "three_of_a_month": N_("Misdeal: three {plant} cards lie in the field; the cards are dealt again."),
    "lucky_hand": N_("Misdeal: a lucky hand was dealt; the cards are dealt again."),
}


def _played(e: Played, who: _Who, style: str) -> str:
    card_ = card_name(e.card, style)
    if e.taken:
        return _say(who, _("You played {card} and took {taken}."), _("{who} played {card} and took {taken}."),
                    card=card_, taken=cards_text(e.taken, style))
    return _say(who, _("You played {card}; it matched nothing."), _("{who} played {card}; it matched nothing."),
                card=card_)


def _flipped(e: Flipped, who: _Who, style: str) -> str:
    card_ = card_name(e.card, style)
    if e.taken is None:
        return _say(who, _("You turned up {card}; it matches two field cards."),
                    _("{who} turned up {card}; it matches two field cards."), card=card_)
    if e.taken:
        return _say(who, _("You turned up {card} and took {taken}."),
                    _("{who} turned up {card} and took {taken}."), card=card_, taken=cards_text(e.taken, style))
    return _say(who, _("You turned up {card}; it matched nothing."),
                _("{who} turned up {card}; it matched nothing."), card=card_)


def _oyagime_decided(e: OyagimeDecided, who: _Who, style: str) -> str:
    if e.dealer is None:
        return _("Both cards are of the same month: draw again.")
    if e.reason == "earlier_month":
        return _say(who, _("You deal first: your card's month comes earlier."),
                    _("{who} deals first: their card's month comes earlier."))
    if e.reason == "higher_kind":
        return _say(who, _("You deal first: your card is of the higher kind."),
                    _("{who} deals first: their card is of the higher kind."))
    return _say(who, _("You deal first."), _("{who} deals first."))


def why_ended(end, names: Sequence[str], *, style: str = "both", you: Optional[int] = None) -> str:
    """Why a round ended, in one sentence, from its ``engine.endings.Ending``: which rule and,
    for a stop the rules made, which card. Every reason of ``endings.REASONS`` has its sentence
    here, and the round's result, the ledger's details and the review all read it from here."""
    style = _style(style)
    r = end.reason
    who = _who(end.seat, names, you)
    name = who.name
    card_ = card_name(end.card, style) if end.card else ""
    if r == "stop":
        if end.calls:
            return (_n("You stopped (shōbu) after {n} Koi-Koi call.",
                       "You stopped (shōbu) after {n} Koi-Koi calls.", end.calls) if who.you else
                    _n("{name} stopped (shōbu) after {n} Koi-Koi call.",
                       "{name} stopped (shōbu) after {n} Koi-Koi calls.", end.calls)).format(name=name, n=end.calls)
        return _("You stopped (shōbu).") if who.you else _("{name} stopped (shōbu).").format(name=name)
    if r == "last_turn":
        if card_:
            return _say(who, _("You made a yaku taking {card} on your last turn: with your hand empty it scores "
                               "at once, and no Koi-Koi is offered."),
                        _("{who} made a yaku taking {card} on their last turn: with their hand empty it scores "
                          "at once, and no Koi-Koi is offered."), card=card_)
        return _say(who, _("You made a yaku on your last turn: with your hand empty it scores at once, and no "
                           "Koi-Koi is offered."),
                    _("{who} made a yaku on their last turn: with their hand empty it scores at once, and no "
                      "Koi-Koi is offered."))
    if r == "last_turn_both":
        if card_:
            return _say(who, _("You made a yaku taking {card} on the round's last turn: with both hands empty it "
                               "scores at once, and no Koi-Koi is offered."),
                        _("{who} made a yaku taking {card} on the round's last turn: with both hands empty it "
                          "scores at once, and no Koi-Koi is offered."), card=card_)
        return _("A yaku made with the last cards of the round scores at once.")
    if r == "call_limit":
        limit = end.limit or 0
        if card_:
            return _say(who, _n("These rules allow {limit} Koi-Koi call a round: your yaku taking {card} after it "
                                "ends the round at once.",
                                "These rules allow {limit} Koi-Koi calls a round: your yaku taking {card} after "
                                "them ends the round at once.", limit),
                        _n("These rules allow {limit} Koi-Koi call a round: {who}'s yaku taking {card} after it "
                           "ends the round at once.",
                           "These rules allow {limit} Koi-Koi calls a round: {who}'s yaku taking {card} after "
                           "them ends the round at once.", limit), limit=limit, card=card_)
        return _n("These rules allow {limit} Koi-Koi call a round: a yaku made after it ends the round at once.",
                  "These rules allow {limit} Koi-Koi calls a round: a yaku made after them ends the round at once.",
                  limit).format(limit=limit)
    if r == "first_yaku":
        return _("These rules allow no Koi-Koi: the first yaku ends the round at once.")
    if r == "lucky_hand":
        return (_("You were dealt a lucky hand and win at once.") if who.you else
                _("{name} was dealt a lucky hand and wins at once.").format(name=name))
    if r == "lucky_draw":
        return _("Both players were dealt a lucky hand: nobody scores.")
    if r == "field_four":
        return _("All four cards of a month were dealt to the field: the dealer wins.")
    if r == "dealer_privilege":
        return _("The hands are played out; the dealer's privilege pays the dealer.")
    return _("Both hands are played out and nobody stopped: no points this round.")


def round_result(row, names: Sequence[str], *, style: str = "both", you: Optional[int] = None) -> str:
    """The result of a round (a LedgerRow): who won it with what, or why nobody did."""
    if row.reason == "lucky_draw":
        return _("Both players hold lucky hands: a draw.")
    if row.winner is None:
        return (_("No yaku this round: no game.") if not row.award
                else _("The round ends."))
    who = _who(row.winner, names, you)
    award = row.award
    if not row.yaku:
        return _say(who, _n("You win the round: {award} point.", "You win the round: {award} points.", award),
                    _n("{who} wins the round: {award} point.", "{who} wins the round: {award} points.", award),
                    award=award)
    what = yaku_text(row.yaku, style)
    if not row.multipliers:
        return _say(who, _n("You win the round with {yaku}: {award} point.",
                            "You win the round with {yaku}: {award} points.", award),
                    _n("{who} wins the round with {yaku}: {award} point.",
                       "{who} wins the round with {yaku}: {award} points.", award),
                    yaku=what, award=award)
    times = join([_("×{factor} ({why})").format(factor=f, why=multiplier_text(label, row.winner, names, you))
                  for label, f in row.multipliers])
    return _say(who, _n("You win the round with {yaku}: {base} {multipliers} = {award} point.",
                        "You win the round with {yaku}: {base} {multipliers} = {award} points.", award),
                _n("{who} wins the round with {yaku}: {base} {multipliers} = {award} point.",
                   "{who} wins the round with {yaku}: {base} {multipliers} = {award} points.", award),
                yaku=what, base=row.base, multipliers=times, award=award)


def sentence(event: NamedTuple, names: Sequence[str] = ("Player 1", "Player 2"), *, seat: Optional[int] = None,
             style: str = "both", you: Optional[int] = None) -> Optional[str]:
    """One event in one sentence, or None for an object that is not a match event.

    ``names``: the seats' names; ``you``: the seat that reads as "You" (None: every seat by
    its name, as in a friend match); ``seat``: whose public event it is (the event is read
    through ``public_event(event, seat)``; the sentence never names a hidden card either
    way); ``style``: the ``name_style`` setting for cards and yaku."""
    e = public_event(event, seat) if seat in (0, 1) else event
    style = _style(style)
    who = _who(getattr(e, "seat", None), names, you)
    if isinstance(e, Played):
        return _played(e, who, style)
    if isinstance(e, Flipped):
        return _flipped(e, who, style)
    if isinstance(e, Chose):
        return _say(who, _("You took {target} with {card}."), _("{who} took {target} with {card}."),
                    target=card_name(e.target, style), card=card_name(e.card, style))
    if isinstance(e, YakuMade):
        n = e.total
        return _say(who, _n("You have {yaku}: {n} point.", "You have {yaku}: {n} points.", n),
                    _n("{who} has {yaku}: {n} point.", "{who} has {yaku}: {n} points.", n),
                    yaku=yaku_text(e.yaku, style), n=n)
    if isinstance(e, KoiKoiCalled):
        if e.calls <= 1:
            return _say(who, _("You call Koi-Koi."), _("{who} calls Koi-Koi."))
        return _say(who, _("You call Koi-Koi (call {calls})."), _("{who} calls Koi-Koi (call {calls})."),
                    calls=e.calls)
    if isinstance(e, Stopped):
        if e.auto:
            return _say(who, _("The rules end the round here: you score."),
                        _("The rules end the round here: {who} scores."))
        return _say(who, _("You stop (Shōbu)."), _("{who} stops (Shōbu)."))
    if isinstance(e, Exhausted):
        return _("Both hands are played out.")
    if isinstance(e, RoundEnded):
        return round_result(e.row, names, style=style, you=you)
    if isinstance(e, RoundDealt):
        dealer = _who(e.dealer, names, you)
        return _say(dealer, _("Round {round} ({month}) is dealt; you deal and play first."),
                    _("Round {round} ({month}) is dealt; {who} deals and plays first."),
                    round=e.round, month=_month(e.round))
    if isinstance(e, Misdeal):
        template = _MISDEAL.get(e.reason)
        if template is None:
            return _("Misdeal: the cards are dealt again.")
        month = card(e.cards[0]).month if e.cards else 1
        return _(template).format(plant=plant_name(month, style))
    if isinstance(e, FieldSwept):
        month = card(e.cards[0]).month if e.cards else 1
        return _say(who, _("All four {plant} cards lie in the field: you take them."),
                    _("All four {plant} cards lie in the field: {who} takes them."),
                    plant=plant_name(month, style))
    if isinstance(e, LuckyHand):
        hands = join([yaku_label(h, style) for h in e.hands])
        return _say(who, _n("You hold a lucky hand, {hands}: {n} point.",
                            "You hold a lucky hand, {hands}: {n} points.", e.points),
                    _n("{who} holds a lucky hand, {hands}: {n} point.",
                       "{who} holds a lucky hand, {hands}: {n} points.", e.points),
                    hands=hands, n=e.points)
    if isinstance(e, OyagimeSpread):
        n = len(e.cards)
        return _n("{n} card is laid face down to choose the dealer.",
                  "{n} cards are laid face down to choose the dealer.", n).format(n=n)
    if isinstance(e, OyagimePicked):
        return _say(who, _("You draw {card} to choose the dealer."), _("{who} draws {card} to choose the dealer."),
                    card=card_name(e.card, style))
    if isinstance(e, OyagimeDecided):
        return _oyagime_decided(e, _who(e.dealer, names, you), style)
    if isinstance(e, MatchStarted):
        rules = rules_name(e.rules.name)
        if e.months:
            return _n("A match of {n} round begins under the {rules} rules.",
                      "A match of {n} rounds begins under the {rules} rules.", e.months).format(n=e.months, rules=rules)
        if e.rules.target_points:
            return _("A match to {n} points begins under the {rules} rules.").format(
                n=e.rules.target_points, rules=rules)
        return _("A match begins under the {rules} rules.").format(rules=rules)
    if isinstance(e, MatchEnded):
        a, b = e.scores
        if e.winner is None:
            return _("The match ends in a draw, {a} to {b}.").format(a=a, b=b)
        return _say(_who(e.winner, names, you), _("You win the match, {a} to {b}."),
                    _("{who} wins the match, {a} to {b}."), a=a, b=b)
    return None


def sentences(events: Iterable, names: Sequence[str] = ("Player 1", "Player 2"), *, seat: Optional[int] = None,
              style: str = "both", you: Optional[int] = None) -> list:
    """The sentence of every event (the ones with none left out)."""
    out = []
    for e in events:
        text = sentence(e, names, seat=seat, style=style, you=you)
        if text:
            out.append(text)
    return out


# ---------------------------------------------------------------- a turn in one line

_TURN = (Played, Flipped, Chose, KoiKoiCalled)


# A hand card played, a stock card turned up: with what it took, and alone.
_TURN_PARTS = {Played: (N_("played {card} and took {taken}"), N_("played {card}")),
               Flipped: (N_("turned up {card}, taking {taken}"), N_("turned up {card}"))}


def turn_summary(events: Iterable, seat: int, style: str = "both") -> tuple:
    """(text, cards) of ``seat``'s turn: "played Crane and took a Pine plain; turned up
    Geese, taking a Pampas plain" (no subject: the caller puts the name in front) and the
    cards it moved, in order. Only ``seat``'s plays, stock turns, choices and calls count."""
    parts, cards = [], []
    for e in events:
        if not isinstance(e, _TURN) or e.seat != seat:
            continue
        if isinstance(e, (Played, Flipped)):
            took, alone = _TURN_PARTS[type(e)]
            cards.append(e.card)
            cards.extend(e.taken or ())
            parts.append((_(took) if e.taken else _(alone)).format(
                card=card_name(e.card, style), taken=cards_text(e.taken or (), style)))
        elif isinstance(e, Chose):
            parts.append(_("took {card} with it").format(card=card_name(e.target, style)))
            cards.append(e.target)
        else:
            parts.append(_("called Koi-Koi"))
    return _("; ").join(parts), cards


__all__ = ["card_name", "plant_name", "cards_text", "yaku_text", "yaku_label", "multiplier_label", "join", "rules_name", "multiplier_text",
           "round_result", "sentence", "sentences", "turn_summary", "STYLES"]
