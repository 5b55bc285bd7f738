"""Every yaku once: its names, the knob that sets its points, the cards that make it.

Scoring (``scoring.py``), the simulator (``ai/sim.py``), the how-to-play page
and every screen that names a yaku read this table, through ``info``, ``label``
and ``title``. These answer for any name at all: a name from a newer version
or a tampered log gets the one fallback (read by its parts when it is a
compound of known names, else title-cased), never an error.

    info("akatan").knob              "akatan"
    label("sanko")                   "Sankō · Three Brights"
    label("sanko", "english")        "Three Brights"
    label("sanko", short=True)       "Sankō"
    title("sanko")                   ("Three Brights", "Sankō  三光")

Pure data and string work: no pygame, no I/O.
"""

from __future__ import annotations

from typing import NamedTuple

from . import cards as C
from .cards import N_, ids_of


STYLES = ("both", "english", "romaji")
"""The ``name_style`` setting: rōmaji and English, English only, rōmaji only."""


class YakuInfo(NamedTuple):
    """One row of the table."""

    name: str            # the key in awards, events and logs ("akatan_aotan")
    english: str
    romaji: str
    kanji: str
    knob: str            # the Rules field that sets its points ("" for a fallback)
    needs: str           # how it is made, in words
    cards: tuple = ()    # the card ids, when exactly one set of cards makes it
    example: tuple = ()  # card ids that make it, in the order the pictures show them


CAPTURES: tuple[YakuInfo, ...] = (
    YakuInfo("goko", N_("Five Brights"), "Gokō", "五光", "goko", N_("All five Brights."),
             ids_of(C.BRIGHTS), ("01-B", "03-B", "08-B", "11-B", "12-B")),
    YakuInfo("shiko", N_("Four Brights"), "Shikō", "四光", "shiko", N_("Four Brights, not the Rain Man."),
             ids_of(C.BRIGHTS & ~C.RAIN_MAN), ("01-B", "03-B", "08-B", "12-B")),
    YakuInfo("ame_shiko", N_("Rainy Four Brights"), "Ame-Shikō", "雨四光", "ame_shiko",
             N_("Four Brights with the Rain Man."), (), ("01-B", "03-B", "08-B", "11-B")),
    YakuInfo("sanko", N_("Three Brights"), "Sankō", "三光", "sanko",
             N_("Three Brights, not the Rain Man. Only the best Bright yaku counts."), (), ("01-B", "03-B", "08-B")),
    YakuInfo("inoshikacho", N_("Boar, Deer, Butterflies"), "Inoshikachō", "猪鹿蝶", "inoshikacho",
             N_("Boar, Deer and Butterflies."), ids_of(C.INOSHIKACHO), ("07-A", "10-A", "06-A")),
    YakuInfo("akatan", N_("Red Poetry Ribbons"), "Akatan", "赤短", "akatan", N_("The three red poetry ribbons."),
             ids_of(C.AKATAN), ("01-RP", "02-RP", "03-RP")),
    YakuInfo("aotan", N_("Blue Ribbons"), "Aotan", "青短", "aotan", N_("The three blue ribbons."),
             ids_of(C.AOTAN), ("06-RB", "09-RB", "10-RB")),
    YakuInfo("akatan_aotan", N_("Red and Blue Ribbons"), "Akatan-Aotan", "赤短・青短", "akatan_aotan",
             N_("All six poetry and blue ribbons, as one yaku."), ids_of(C.AKATAN | C.AOTAN),
             ("01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB")),
    YakuInfo("hanami_zake", N_("Flower Viewing"), "Hanami-zake", "花見酒", "hanami_zake",
             N_("The Cherry curtain and the Sake cup."), ids_of(C.CURTAIN | C.SAKE_CUP), ("03-B", "09-A")),
    YakuInfo("tsukimi_zake", N_("Moon Viewing"), "Tsukimi-zake", "月見酒", "tsukimi_zake",
             N_("The Moon and the Sake cup."), ids_of(C.MOON | C.SAKE_CUP), ("08-B", "09-A")),
    YakuInfo("tane", N_("Animals"), "Tane", "タネ", "tane", N_("Any five Animals; +1 for each further one."),
             (), ("02-A", "04-A", "05-A", "08-A", "11-A")),
    YakuInfo("tanzaku", N_("Ribbons"), "Tanzaku", "タン", "tanzaku", N_("Any five Ribbons; +1 for each further one."),
             (), ("04-R", "05-R", "07-R", "11-R", "01-RP")),
    YakuInfo("kasu", N_("Chaff"), "Kasu", "カス", "kasu", N_("Any ten Chaff; +1 for each further one."),
             (), ("01-P1", "02-P1", "03-P1", "04-P1", "05-P1", "06-P1", "07-P1", "08-P1", "09-P1", "10-P1")),
    YakuInfo("tsuki_fuda", N_("The Month's Cards"), "Tsuki-fuda", "月札", "tsuki_fuda",
             N_("All four cards of the round's month (Pine in round 1, Plum in round 2, ...)."), (),
             ("01-B", "01-RP", "01-P1", "01-P2")),
)

# Rounds won at the deal, the dealer's payment and the Koi-Koi bonus: not scored from captures,
# named in awards like yaku.
OTHERS: tuple[YakuInfo, ...] = (
    YakuInfo("teshi", N_("Four of a Month"), "Teshi", "手四", "lucky_points",
             N_("A dealt hand holding all four cards of one month."), (),
             ("01-B", "01-RP", "01-P1", "01-P2", "02-A", "03-B", "04-A", "05-A")),
    YakuInfo("kuttsuki", N_("Four Pairs"), "Kuttsuki", "くっつき", "lucky_points",
             N_("A dealt hand of four pairs: every month held twice (or four times)."), (),
             ("01-B", "01-P1", "02-A", "02-P1", "03-B", "03-P1", "04-A", "04-P1")),
    YakuInfo("teshi_kuttsuki", N_("Four of a Month and Four Pairs"), "Teshi + Kuttsuki", "手四・くっつき",
             "lucky_both_hands_points", N_("A dealt hand that is both Teshi and Kuttsuki."), (),
             ("01-B", "01-RP", "01-P1", "01-P2", "02-A", "02-P1", "03-B", "03-P1")),
    YakuInfo("field_four", N_("Four of a Month in the Field"), "Ba-shi", "場四", "lucky_points",
             N_("All four cards of one month in the opening field (when the dealer wins by it)."), (),
             ("01-B", "01-RP", "01-P1", "01-P2")),
    YakuInfo("oya_ken", N_("Dealer's Privilege"), "Oya-ken", "親権", "oya_ken",
             N_("Nobody scored: the dealer is paid.")),
    YakuInfo("koikoi_bonus", N_("Koi-Koi Bonus"), "Koi-Koi", "こいこい", "own_call_bonus",
             N_("Points added for each of the winner's own Koi-Koi calls this round.")),
)

TABLE: tuple[YakuInfo, ...] = CAPTURES + OTHERS
"""Every name the engine can put in an award: the yaku scored from a capture pile
(``CAPTURES``, in the order an award lists them), then the others."""

BY_NAME: dict[str, YakuInfo] = {y.name: y for y in TABLE}

CAPTURE_ORDER: tuple[str, ...] = tuple(y.name for y in CAPTURES)


def points(rules) -> dict[str, int]:
    """name -> what its knob is set to under ``rules`` (for the counting and graded
    yaku: the value at the threshold; scoring adds the further cards)."""
    return {y.name: getattr(rules, y.knob) for y in TABLE}


def _unknown(name) -> YakuInfo:
    """The one fallback: a name not in the table. A compound of known names ("teshi_goko",
    as lucky hands are joined) reads as its parts; anything else is title-cased."""
    text = name if isinstance(name, str) else str(name)
    parts = [BY_NAME.get(p) or YakuInfo(p, p.title(), p.title(), "", "", "") for p in text.split("_") if p]
    if not parts:
        return YakuInfo(text, "?", "?", "", "", "")
    return YakuInfo(text, " + ".join(p.english for p in parts), " + ".join(p.romaji for p in parts),
                    "・".join(p.kanji for p in parts if p.kanji), "", "")


def info(name) -> YakuInfo:
    """The table's row for ``name``, or the fallback row for a name it does not know."""
    hit = BY_NAME.get(name) if isinstance(name, str) else None
    return hit if hit is not None else _unknown(name)


def label(name, style: str = "both", short: bool = False) -> str:
    """A yaku's name on one line for the ``name_style`` setting: "Sankō · Three Brights",
    "Three Brights" or "Sankō". ``short`` (narrow panels) gives the rōmaji alone under "both".
    An unknown style reads as "both"."""
    y = info(name)
    if style == "english":
        return y.english
    if style == "romaji" or short:
        return y.romaji
    return f"{y.romaji} · {y.english}"


def title(name, style: str = "both") -> tuple[str, str]:
    """(main line, second line) of a yaku's name, as the how-to page and the round's results
    set it: ("Three Brights", "Sankō  三光"), or under "english" / "romaji" that name over the kanji."""
    y = info(name)
    if style == "english":
        return y.english, y.kanji
    if style == "romaji":
        return y.romaji, y.kanji
    return y.english, f"{y.romaji}  {y.kanji}"


__all__ = ["YakuInfo", "TABLE", "CAPTURES", "OTHERS", "BY_NAME", "CAPTURE_ORDER", "STYLES", "info", "label", "title",
           "points"]
