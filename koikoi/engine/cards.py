"""The 48 hanafuda cards, their fixed ids, and bitmasks for fast yaku checks.

Cards are numbered 0..47 in month order (the order of shared/RULES.md); a set
of cards is an int bitmask with bit ``index`` set. Public code speaks in
``Card`` objects and ids such as ``"09-A"``; the engine's hot paths in masks.
"""

from __future__ import annotations

from enum import IntEnum
from operator import itemgetter
from typing import Iterable, NamedTuple, Union


def N_(text: str) -> str:
    """Marks a name players read, for the translation catalog; the UI translates it where
    it is shown. The engine itself stays free of translation (an identity)."""
    return text


class Kind(IntEnum):
    """Card kinds; the value orders tie-breaks (Bright > Animal > Ribbon > Chaff)."""

    CHAFF = 0
    RIBBON = 1
    ANIMAL = 2
    BRIGHT = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:  # "bright", as the public API names kinds
        return self.name.lower()


PLANTS = (
    N_("Pine"), N_("Plum"), N_("Cherry"), N_("Wisteria"), N_("Iris"), N_("Peony"),
    N_("Bush clover"), N_("Pampas"), N_("Chrysanthemum"), N_("Maple"), N_("Willow"), N_("Paulownia"),
)
MONTH_NAMES = (
    N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"),
    N_("July"), N_("August"), N_("September"), N_("October"), N_("November"), N_("December"),
)
KIND_JAPANESE = {
    Kind.BRIGHT: (N_("Hikari"), "光"),
    Kind.ANIMAL: (N_("Tane"), "種"),
    Kind.RIBBON: (N_("Tanzaku"), "短冊"),
    Kind.CHAFF: (N_("Kasu"), "カス"),
}


class Card(NamedTuple):
    index: int
    id: str
    month: int
    kind: Kind
    name: str

    @property
    def plant(self) -> str:
        return PLANTS[self.month - 1]

    @property
    def mask(self) -> int:
        return 1 << self.index

    def __repr__(self) -> str:
        return f"card({self.id!r})"


# (suffix, kind, name) per month, in the order of RULES.md section 1. The names are English (N_),
# translated where they are shown (``hints.card_lines``).
_TABLE = (
    (("B", Kind.BRIGHT, N_("Crane")), ("RP", Kind.RIBBON, N_("Poetry ribbon")),
     ("P1", Kind.CHAFF, N_("Pine")), ("P2", Kind.CHAFF, N_("Pine"))),
    (("A", Kind.ANIMAL, N_("Bush warbler")), ("RP", Kind.RIBBON, N_("Poetry ribbon")),
     ("P1", Kind.CHAFF, N_("Plum")), ("P2", Kind.CHAFF, N_("Plum"))),
    (("B", Kind.BRIGHT, N_("Curtain")), ("RP", Kind.RIBBON, N_("Poetry ribbon")),
     ("P1", Kind.CHAFF, N_("Cherry")), ("P2", Kind.CHAFF, N_("Cherry"))),
    (("A", Kind.ANIMAL, N_("Cuckoo")), ("R", Kind.RIBBON, N_("Ribbon")),
     ("P1", Kind.CHAFF, N_("Wisteria")), ("P2", Kind.CHAFF, N_("Wisteria"))),
    (("A", Kind.ANIMAL, N_("Eight-plank bridge")), ("R", Kind.RIBBON, N_("Ribbon")),
     ("P1", Kind.CHAFF, N_("Iris")), ("P2", Kind.CHAFF, N_("Iris"))),
    (("A", Kind.ANIMAL, N_("Butterflies")), ("RB", Kind.RIBBON, N_("Blue ribbon")),
     ("P1", Kind.CHAFF, N_("Peony")), ("P2", Kind.CHAFF, N_("Peony"))),
    (("A", Kind.ANIMAL, N_("Boar")), ("R", Kind.RIBBON, N_("Ribbon")),
     ("P1", Kind.CHAFF, N_("Bush clover")), ("P2", Kind.CHAFF, N_("Bush clover"))),
    (("B", Kind.BRIGHT, N_("Moon")), ("A", Kind.ANIMAL, N_("Geese")),
     ("P1", Kind.CHAFF, N_("Pampas")), ("P2", Kind.CHAFF, N_("Pampas"))),
    (("A", Kind.ANIMAL, N_("Sake cup")), ("RB", Kind.RIBBON, N_("Blue ribbon")),
     ("P1", Kind.CHAFF, N_("Chrysanthemum")), ("P2", Kind.CHAFF, N_("Chrysanthemum"))),
    (("A", Kind.ANIMAL, N_("Deer")), ("RB", Kind.RIBBON, N_("Blue ribbon")),
     ("P1", Kind.CHAFF, N_("Maple")), ("P2", Kind.CHAFF, N_("Maple"))),
    (("B", Kind.BRIGHT, N_("Rain man")), ("A", Kind.ANIMAL, N_("Swallow")),
     ("R", Kind.RIBBON, N_("Ribbon")), ("P", Kind.CHAFF, N_("Lightning"))),
    (("B", Kind.BRIGHT, N_("Phoenix")), ("P1", Kind.CHAFF, N_("Paulownia")),
     ("P2", Kind.CHAFF, N_("Paulownia")), ("P3", Kind.CHAFF, N_("Paulownia"))),
)

DECK: tuple[Card, ...] = tuple(
    Card(m * 4 + j, f"{m + 1:02d}-{suffix}", m + 1, kind, name)
    for m, month in enumerate(_TABLE)
    for j, (suffix, kind, name) in enumerate(month)
)
_BY_ID = {c.id: c for c in DECK}
ID_TO_INDEX = {c.id: c.index for c in DECK}
IDS: tuple[str, ...] = tuple(c.id for c in DECK)

CardLike = Union[str, Card, int]


def card(ref: CardLike) -> Card:
    """Look a card up by id ("09-A"), index (0..47) or Card."""
    if isinstance(ref, Card):
        return ref
    if isinstance(ref, str):
        try:
            return _BY_ID[ref]
        except KeyError:
            raise KeyError(f"no hanafuda card has the id {ref!r}") from None
    if isinstance(ref, int) and 0 <= ref < 48:
        return DECK[ref]
    raise KeyError(f"not a card: {ref!r}")


def index_of(ref: CardLike) -> int:
    if isinstance(ref, str):
        try:
            return ID_TO_INDEX[ref]
        except KeyError:
            raise KeyError(f"no hanafuda card has the id {ref!r}") from None
    return card(ref).index


def to_mask(cards: Iterable[CardLike]) -> int:
    m = 0
    for c in cards:
        m |= 1 << index_of(c)
    return m


def from_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in deck order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def indices(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# _SIX_IDS[k][bits]: the ids of cards 6k..6k+5 named by 6 bits of a mask;
# _TWELVE_IDS[k][bits]: the ids of cards 12k..12k+11 named by 12 bits (built from the sixes).
_SIX_IDS = tuple(
    tuple(tuple(IDS[6 * k + j] for j in range(6) if bits >> j & 1) for bits in range(64))
    for k in range(8)
)
_TWELVE_IDS = tuple(
    tuple(_SIX_IDS[2 * k][bits & 63] + _SIX_IDS[2 * k + 1][bits >> 6] for bits in range(4096))
    for k in range(4)
)
_T0, _T1, _T2, _T3 = _TWELVE_IDS


def ids_of(mask: int) -> tuple[str, ...]:
    """Card ids of a mask, in deck order, by table lookups."""
    # Four lookups whatever the mask (an operation on a 48-bit int costs more than a lookup;
    # adding an empty tuple is free).
    return (_T0[mask & 4095] + _T1[mask >> 12 & 4095] + _T2[mask >> 24 & 4095]
            + _T3[mask >> 36 & 4095])


# Masks used by scoring and matching.
ALL = (1 << 48) - 1
MONTH_MASK = tuple(0xF << (4 * m) for m in range(12))     # by month index 0..11
CARD_MONTH_MASK = tuple(MONTH_MASK[c.month - 1] for c in DECK)  # by card index
MONTH_LOWS = sum(1 << (4 * m) for m in range(12))     # the lowest card bit of every month


def months_of(mask: int) -> int:
    """The whole months (all four cards each) of the cards in ``mask``."""
    return ((mask | mask >> 1 | mask >> 2 | mask >> 3) & MONTH_LOWS) * 15

KIND_MASK = {k: to_mask(c.id for c in DECK if c.kind is k) for k in Kind}
BRIGHTS = KIND_MASK[Kind.BRIGHT]
ANIMALS = KIND_MASK[Kind.ANIMAL]
RIBBONS = KIND_MASK[Kind.RIBBON]
CHAFF = KIND_MASK[Kind.CHAFF]
RAIN_MAN = to_mask(["11-B"])
SAKE_CUP = to_mask(["09-A"])
CURTAIN = to_mask(["03-B"])
MOON = to_mask(["08-B"])
INOSHIKACHO = to_mask(["07-A", "10-A", "06-A"])
AKATAN = to_mask(["01-RP", "02-RP", "03-RP"])
AOTAN = to_mask(["06-RB", "09-RB", "10-RB"])
WILLOW = MONTH_MASK[10]
PAULOWNIA = MONTH_MASK[11]


# ---------------------------------------------------------------- the reducers' lookup tables
# (engine/rounds.py, turns.py, fast.py, legal.py index these on every action; the simulator,
# koikoi/ai/sim.py, and Hard's deals read ``_BIT`` too.)
# Lists, not tuples: ``map(a_list.__getitem__, ...)`` is the faster lookup.
_BIT = [1 << i for i in range(48)]
_ID = list(IDS)
_INDEX = ID_TO_INDEX.get
_SHIFT = tuple(4 * (c // 4) for c in range(48))   # card index -> the shift of its month's nibble
# The ids of any cards of one month, by mask: what a capture takes (one lookup, no arithmetic).
_TAKEN = {bits << (4 * mo): ids_of(bits << (4 * mo)) for mo in range(12) for bits in range(16)}


def _mask(idx) -> int:
    return sum(map(_BIT.__getitem__, idx))


def _stock_ids(stock: tuple) -> tuple:
    """The ids of the 24 cards of a freshly dealt stock, in order."""
    return itemgetter(*stock)(_ID)
