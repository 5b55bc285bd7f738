"""``Rules``: every rule knob in one frozen value, each field declared once with its ``Knob``
(engine/knobs.py) and checked by ``Rules.__post_init__``; ``KNOBS`` maps every field to its
Knob, ``CHOICES`` the enumerated knobs to their values."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Optional

from .cards import N_
from .knobs import (AS_CHOSEN, CANNOT_PLAY, MONTHS_MAX, NAME_MAX, NEVER_ENDS, NOT_RULES, POINTS_MAX,
                    TARGET_POINTS_MAX, KOIKOI_CALLS_MAX, UNKNOWN_KNOBS, House, Knob, RulesError, When,
                    _choice, _knob, _points, _show, _toggle)


_VIEWING_COUNTS = When("viewing", unless=("off",), said=N_("viewing yaku count"))
_LUCKY_ON = When("lucky_hands", ("on",))
_CALLS_ALLOWED = When("max_koikoi_calls", unless=(0,), said=N_("Koi-Koi may be called"))


@dataclass(frozen=True)
class Rules:
    """One complete rule system. Field names are the knobs of RULES.md."""

    name: str = _knob(
        "custom", N_("Rule set"), "Rule set",
        N_("The name of these rules: a preset's, or one given to a house-rules variant."),
        kind="text", bounds=(1, NAME_MAX), shown=False)
    # Match length: ``months`` rounds (None: until a target or a bankruptcy).
    months: Optional[int] = _knob(
        12, N_("Match length"), "Match length",
        N_("How many rounds (months) the match lasts. With no limit it is played to a target, "
        "or with zero-sum stakes until a player has nothing left."),
        bounds=(1, MONTHS_MAX), optional=True, unit=N_("{} months"),
        words=((None, N_("No limit")), (AS_CHOSEN, N_("As chosen")), (1, N_("1 month"))),
        house=House(21, "step", (AS_CHOSEN, None), keep=AS_CHOSEN))
    months_offered: tuple = _knob(
        (1, 3, 6, 12), N_("Lengths offered"), "Match length",
        N_("The match lengths the New match screen offers with these rules."),
        kind="lengths", bounds=(1, MONTHS_MAX))
    target_points: Optional[int] = _knob(
        None, N_("Play to a target"), "Match length",
        N_("The match ends as soon as a player's total reaches this many points, even before the last month."),
        bounds=(1, TARGET_POINTS_MAX), optional=True, words=((None, N_("Off")),), unit=N_("First to {}"),
        house=House(20, "step", (None, 50, 100)))
    # Bright yaku (only the best counts).
    goko: int = _points(10, N_("Gokō (five Brights)"), "Yaku values", N_("Points for all five Brights."))
    shiko: int = _points(8, N_("Shikō (four Brights)"), "Yaku values",
                         N_("Points for four Brights without the Rain Man."))
    ame_shiko: int = _points(7, N_("Ame-Shikō (rainy four)"), "Yaku values",
                             N_("Points for four Brights, one of them the Rain Man."))
    sanko: int = _points(5, N_("Sankō (three Brights)"), "Yaku values",
                         N_("Points for three Brights without the Rain Man (three with him are no yaku)."))
    # Set yaku.
    inoshikacho: int = _points(5, N_("Inoshikachō"), "Yaku values",
                               N_("Points for the Boar, the Deer and the Butterflies."))
    akatan: int = _points(5, N_("Akatan (red ribbons)"), "Yaku values",
                          N_("Points for the three red poetry ribbons of Pine, Plum and Cherry."))
    aotan: int = _points(5, N_("Aotan (blue ribbons)"), "Yaku values",
                         N_("Points for the three blue ribbons of Peony, Chrysanthemum and Maple."))
    akatan_aotan: int = _points(10, N_("Akatan-Aotan"), "Yaku values",
                                N_("Points for both ribbon sets at once: with graded set yaku one yaku "
                                "in their place, +1 for each further ribbon; with Akatan-Aotan on "
                                "top, paid besides them."),
                                depends=(When("combo_grading", ("graded",)),
                                         When("akatan_aotan_on_top", (True,))))
    hanami_zake: int = _points(5, N_("Hanami-zake"), "Yaku values",
                               N_("Points for the Cherry Curtain with the Sake cup: cherry-blossom viewing."),
                               depends=(_VIEWING_COUNTS,))
    tsukimi_zake: int = _points(5, N_("Tsukimi-zake"), "Yaku values",
                                N_("Points for the Moon with the Sake cup: moon viewing."),
                                depends=(_VIEWING_COUNTS,))
    # KoiKoi Japan: the viewing yaku are worth 1 each, and 3 each once their holder has called.
    viewing_after_koikoi: Optional[int] = _knob(
        None, N_("Viewing yaku after Koi-Koi"), "Yaku values",
        N_("What Hanami-zake and Tsukimi-zake are each worth once their holder has called Koi-Koi "
        "this round (0: they no longer count). Unchanged: their usual points."),
        bounds=(0, POINTS_MAX), optional=True, words=((None, N_("Unchanged")),), unit=N_("{} points"),
        depends=(_VIEWING_COUNTS,), house=House(6, "step", (None, 0, 3)))
    # Counting yaku: points at the threshold (5 animals, 5 ribbons, 10 chaff), +1 each extra.
    tane: int = _points(1, N_("Tane (5 animals)"), "Yaku values",
                        N_("Points for five animals, +1 for each further animal."))
    tanzaku: int = _points(1, N_("Tanzaku (5 ribbons)"), "Yaku values",
                           N_("Points for five ribbons, +1 for each further ribbon."))
    kasu: int = _points(1, N_("Kasu (10 chaff)"), "Yaku values",
                        N_("Points for ten chaff cards, +1 for each further chaff card."))
    # The month of a round: round 1 is January (Pine), round 2 February, ... round 12 December,
    # and a match longer than 12 rounds starts again at January (``scoring.round_month``); a
    # shorter match simply ends before December *(chosen: as the narration names the months)*.
    tsuki_fuda: int = _points(
        0, N_("Tsuki-fuda"), "Yaku values",
        N_("Points for all four cards of the round's own month: Pine in round 1, Plum in round 2, and "
        "so on to Paulownia in round 12; a longer match starts again at Pine."),
        words=((0, N_("Off")),), unit=N_("{} points"), house=House(11, "step", (0, 4)))
    combo_grading: str = _choice(
        "stack", N_("Set yaku"), "Yaku rules",
        N_("Stack: every yaku scores on its own, so the ribbons of Akatan still count toward Tanzaku. "
        "Graded: Inoshikachō, Akatan and Aotan gain 1 point for each further card of their kind "
        "and then Tane or Tanzaku does not count; both ribbon sets together are Akatan-Aotan."),
        (("stack", N_("Stack")), ("graded", N_("Graded"))),
        house=House(10, "choice", ("stack", "graded")))
    # Per-set grading (hanafuda-js grades Inoshikachō but still pays Tane). The default follows
    # ``combo_grading``, so every rule set recorded before this knob scores as it did.
    inoshikacho_grading: str = _choice(
        "set_yaku", N_("Inoshikachō grading"), "Yaku rules",
        N_("As Set yaku: as the Set yaku rule says. Stack: Inoshikachō pays its points and its "
        "animals count toward Tane too. Graded: +1 for each further animal, and Tane then does "
        "not count. Graded, Tane pays: +1 for each further animal, and Tane counts as well."),
        (("set_yaku", N_("As Set yaku"), N_("As sets")), ("stack", N_("Stack")), ("graded", N_("Graded")),
         ("graded_tane_pays", N_("Graded, Tane pays"), N_("Graded+Tane"))),
        depends=(When("inoshikacho", unless=(0,)),))
    # KoiKoi Japan: Akatan 5 + Aotan 5, and both sets together another 10 (20 with all six).
    akatan_aotan_on_top: bool = _toggle(
        False, N_("Akatan-Aotan on top"), "Yaku rules",
        N_("With stacking set yaku, holding both ribbon sets also scores Akatan-Aotan on top of "
        "Akatan and Aotan."),
        depends=(When("combo_grading", ("stack",)),))
    viewing: str = _choice(
        "on", N_("Viewing yaku"), "Yaku rules",
        N_("Whether Hanami-zake and Tsukimi-zake score: always, never, or only beside another yaku."),
        (("on", N_("On")), ("off", N_("Off")), ("with_other_yaku", N_("With another yaku"), N_("With another"))),
        house=House(5, "choice", ("on", "off", "with_other_yaku")))
    weather: bool = _toggle(
        False, N_("Weather ruling"), "Yaku rules",
        N_("While a Willow card lies in the field, Hanami-zake does not count; while a Paulownia "
        "card lies there, Tsukimi-zake does not count."),
        depends=(_VIEWING_COUNTS,), house=House(7, "toggle"))
    # Rain-break by one's own pile: ame-nagare (the willow month's Rain Man) and, with it,
    # kiri-nagare (the paulownia month's Phoenix). Only the two Brights break, not the other
    # willow or paulownia cards; either one cancels both viewing yaku.
    rain_break: str = _choice(
        "off", N_("Rain-break by your pile"), "Yaku rules",
        N_("Whether a card in your own capture pile cancels your Hanami-zake and Tsukimi-zake: "
        "none, the Rain Man (ame-nagare), or the Rain Man or the Phoenix (kiri-nagare too)."),
        (("off", N_("Off")), ("rain_man", N_("The Rain Man"), N_("Rain Man")),
         ("rain_man_or_phoenix", N_("The Rain Man or the Phoenix"), N_("Or Phoenix"))),
        depends=(_VIEWING_COUNTS,), house=House(8, "choice", ("off", "rain_man", "rain_man_or_phoenix")))
    sake_cup_is_chaff: bool = _toggle(
        False, N_("Sake cup counts as chaff"), "Yaku rules",
        N_("The Sake cup also counts as a chaff card toward Kasu."))
    sake_cup_is_animal: bool = _toggle(
        True, N_("Sake cup counts as animal"), "Yaku rules",
        N_("The Sake cup counts as an animal toward Tane."))
    # Lucky hands (teshi, kuttsuki), checked once on the dealt hands.
    lucky_hands: str = _choice(
        "off", N_("Lucky hands"), "Round rules",
        N_("A dealt hand holding four cards of one month (Teshi) or four pairs (Kuttsuki). "
        "On: its holder wins the round at once. Misdeal: the cards are dealt again."),
        (("off", N_("Off")), ("on", N_("On")), ("misdeal", N_("Misdeal"))),
        house=House(13, "choice", ("off", "on", "misdeal")))
    lucky_points: int = _points(
        6, N_("Lucky hand points"), "Round rules",
        N_("What a lucky hand wins; also what the dealer wins when four cards of a month "
        "in the opening field end the round."),
        depends=(_LUCKY_ON, When("field_four_of_month", ("dealer_wins",))),
        house=House(14, "step", (6, 12)))
    lucky_both_hands_points: int = _points(   # one player holding teshi and kuttsuki at once
        6, N_("Teshi + Kuttsuki points"), "Round rules",
        N_("What a hand that is Teshi and Kuttsuki at once wins."),
        depends=(_LUCKY_ON,))
    lucky_both_players: str = _choice(   # both players lucky: 0-0 draw, or the dealer's counts
        "draw", N_("Both players lucky"), "Round rules",
        N_("When both dealt hands are lucky: the round is a 0–0 draw, or only the dealer's hand counts."),
        (("draw", N_("0–0 draw")), ("dealer", N_("Dealer's counts"))),
        depends=(_LUCKY_ON,))
    # Misdeals in the field.
    field_four_of_month: str = _choice(
        "redeal", N_("Four of a month in the field"), "Round rules",
        N_("When the opening field holds all four cards of a month: deal again; or the dealer "
        "captures the four and four stock cards take their place; or the dealer wins the round "
        "for the lucky hand points."),
        (("redeal", N_("Redeal")), ("dealer_sweeps", N_("Dealer sweeps"), N_("Sweeps")),
         ("dealer_wins", N_("Dealer wins"))),
        house=House(16, "choice", ("redeal", "dealer_sweeps", "dealer_wins")))
    field_four_pairs: str = _choice(
        "play_on", N_("Four pairs in the field"), "Round rules",
        N_("When the opening field is four pairs of months: deal again, or play on."),
        (("redeal", N_("Redeal")), ("play_on", N_("Play on"))),
        house=House(17, "choice", ("redeal", "play_on")))
    # Battle Hanafuda deals again whenever three (or four) cards of a month lie in the field.
    field_three_of_month: str = _choice(
        "play_on", N_("Three of a month in the field"), "Round rules",
        N_("When the opening field holds three cards of one month: play on (the fourth card takes "
        "all three), or deal again."),
        (("play_on", N_("Play on")), ("redeal", N_("Redeal"))))
    # Settlement.
    seven_plus_double: bool = _toggle(
        True, N_("Double at 7 points or more"), "Multipliers",
        N_("A hand worth 7 points or more scores double."),
        house=House(1, "toggle"))
    koikoi_multiplier: str = _choice(
        "opponent_called", N_("Koi-Koi multiplier"), "Multipliers",
        N_("How Koi-Koi calls raise the winner's score. Opponent's call: double if the other player "
        "called. Own calls: times 1 + your own calls, and double if the other player called. "
        "Caller: double if the winner called. Anyone: double if anybody called. +1 per call: "
        "times 1 + every call made this round. None: calls never multiply."),
        (("opponent_called", N_("Opponent's call ×2")), ("own_calls_and_opponent", N_("Own calls ×n")),
         ("caller", N_("Caller ×2")), ("anyone", N_("Anyone ×2")), ("scaling", N_("+1 per call")),
         ("none", N_("None"))),
        depends=(_CALLS_ALLOWED,),
        house=House(2, "step", ("opponent_called", "own_calls_and_opponent", "caller", "anyone",
                                "scaling", "none")))
    # KoiKoi Japan: +1 point for each own call up to 3 calls, then ×(calls − 2) instead.
    own_call_bonus: int = _points(
        0, N_("Koi-Koi bonus"), "Multipliers",
        N_("Points the winner adds to the hand for each Koi-Koi they called this round (counted "
        "before the multipliers)."),
        words=((0, N_("Off")),), unit=N_("+{} a call"), depends=(_CALLS_ALLOWED,), house=House(3, "step", (0, 1)))
    own_call_bonus_max_calls: Optional[int] = _knob(
        None, N_("Koi-Koi bonus up to"), "Multipliers",
        N_("The most own calls the Koi-Koi bonus counts. With more calls the bonus is dropped and the "
        "hand is multiplied instead: ×2 at one call more, ×3 at two more, and so on."),
        bounds=(1, KOIKOI_CALLS_MAX), optional=True, words=((None, N_("No limit")),), unit=N_("{} calls"),
        depends=(When("own_call_bonus", unless=(0,)),))
    # "The opening field" is the eight cards as dealt: a swept month's Bright still counts and a
    # sweep's replacements do not *(chosen)*. Seed 003 reads the count off the deal ("when a
    # bright turns up among the eight", the eight laid face up), and the sweep is the dealer's
    # capture of four of those cards (RULES.md 2.2): like any capture of a field Bright in play
    # it leaves the count as it was, and the four stock cards it turns come after the deal, like
    # any stock card turned in play. It is also what every log recorded so far replays with.
    # The engine (State.field_brights), View, PublicTable (RoundDealt) and the simulator agree.
    field_brights_multiplier: bool = _toggle(
        False, N_("Field brights multiplier"), "Multipliers",
        N_("The winner's score is multiplied by 1 + the number of Brights in the opening field, "
        "as dealt (before any sweep)."),
        house=House(12, "toggle"))
    max_koikoi_calls: Optional[int] = _knob(   # None: unlimited
        None, N_("Koi-Koi calls allowed"), "Scoring",
        N_("How many times Koi-Koi may be called in a round, by both players together. Once they are "
        "used up, the next yaku ends the round; with none, the first yaku ends it."),
        bounds=(0, KOIKOI_CALLS_MAX), optional=True,
        words=((None, N_("Unlimited")), (0, N_("None (first yaku ends)")), (1, N_("1 call"))), unit=N_("{} calls"),
        house=House(4, "step", (None, 1, 0)))
    prompt_when: str = _choice(
        "total_rises", N_("Koi-Koi offered when"), "Scoring",
        N_("When a player is asked Koi-Koi or Stop: when their yaku total rises, or when any one "
        "yaku is new or worth more."),
        (("total_rises", N_("Total rises")), ("combo_new_or_grew", N_("A yaku is new or grew"))))
    last_turn_auto_stop: str = _choice(
        "both_hands_empty", N_("Last turn stops when"), "Scoring",
        N_("A yaku made on the last turn scores at once, with no Koi-Koi offered: the last turn is "
        "when both hands are empty, or when the player's own hand is."),
        (("both_hands_empty", N_("Both hands empty")), ("mover_hand_empty", N_("Own hand empty"))),
        depends=(_CALLS_ALLOWED,))
    exhausted_dealer: str = _choice(
        "keeps", N_("After a round with no yaku"), "Round rules",
        N_("Who deals after a round in which both hands ran out and nobody stopped: the same dealer, "
        "the other player, or whoever last made or improved a yaku."),
        (("keeps", N_("Dealer keeps"), N_("Keeps")), ("passes", N_("Deal passes"), N_("Passes")),
         ("last_yaku", N_("Last yaku maker"), N_("Last yaku"))),
        house=House(18, "choice", ("keeps", "passes", "last_yaku")))
    oya_ken: int = _points(
        0, N_("Oya-ken (dealer's privilege)"), "Round rules",
        N_("Points the dealer receives when both hands run out and nobody stopped."),
        words=((0, N_("Off")),), house=House(15, "step", (0, 1, 6)))
    oyagime_tie: str = _choice(
        "redraw", N_("Oya-gime tie"), "Round rules",
        N_("When the two cards turned up to choose the first dealer are of one month: draw again, "
        "or the higher kind deals (Bright, Animal, Ribbon, Chaff)."),
        (("redraw", N_("Redraw")), ("kind", N_("Higher kind"))))
    must_play_match: bool = _toggle(
        False, N_("Must play a matching card"), "Round rules",
        N_("A player holding a card that matches the field must play one."),
        house=House(19, "toggle"))
    scoring_mode: str = _choice(
        "total", N_("Scoring"), "Scoring",
        N_("Running total: points add up. Zero-sum stakes: each player starts with the starting "
        "points, the winner's score is taken from the loser, and the match ends early when a "
        "player has none left."),
        (("total", N_("Running total"), N_("Total")), ("zero_sum", N_("Zero-sum stakes"), N_("Zero-sum"))),
        house=House(22, "choice", ("total", "zero_sum")))
    starting_points: int = _knob(   # zero_sum only *(chosen)*
        50, N_("Starting points (zero-sum)"), "Scoring",
        N_("The points each player starts with under zero-sum stakes."),
        bounds=(1, TARGET_POINTS_MAX), depends=(When("scoring_mode", ("zero_sum",)),))

    def __post_init__(self) -> None:
        problems = []
        said: Optional[tuple] = None       # the first problem, in a player's words
        for name, ok, knob in _CHECKED:
            value = getattr(self, name)
            if not ok(value):
                problems.append(knob.problem(name, value) or f"{name}={_show(value)}")
                said = said or knob.complaint()
        if self.months is None and self.target_points is None and self.scoring_mode != "zero_sum":
            problems.append("months=None needs a target_points or zero_sum scoring, or the match never ends")
            said = said or (NEVER_ENDS, {})
        if problems:
            message, words = said or (CANNOT_PLAY, {})
            raise RulesError("invalid rules: " + "; ".join(problems), message, **words)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["months_offered"] = list(self.months_offered)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """Build Rules from a dict, e.g. a saved match. Unknown knobs, and anything that is
        not a dict of valid knobs, raise ValueError."""
        if not isinstance(data, dict):
            raise RulesError(f"invalid rules: {_show(data)} (a dict of rule knobs)", NOT_RULES)
        known = {f.name for f in fields(cls)}
        unknown = sorted(_show(k) if type(k) is not str else k for k in data if k not in known)
        if unknown:
            raise RulesError(f"unknown rule knobs: {', '.join(u[:NAME_MAX] for u in unknown[:10])}"
                             + (", ..." if len(unknown) > 10 else ""), UNKNOWN_KNOBS)
        d = dict(data)
        if type(d.get("months_offered")) is list:
            d["months_offered"] = tuple(d["months_offered"])
        return cls(**d)

    def describe(self) -> list[tuple[str, str]]:
        """(knob, value) pairs for a "Rules of this match" panel."""
        return [(name, str(getattr(self, name))) for name, knob in KNOBS.items() if knob.shown]


KNOBS: dict[str, Knob] = {f.name: f.metadata["knob"] for f in fields(Rules)}
"""Every field of Rules -> its Knob, in field order."""


def _quick_check(knob: Knob) -> Any:
    """A fast yes/no for the common case (Rules are built often); ``Knob.problem`` says why not."""
    if knob.kind == "choice":
        allowed = frozenset(knob.values)
        return lambda v: type(v) is str and v in allowed
    if knob.kind == "toggle":
        return lambda v: v is True or v is False
    if knob.kind == "number":
        lo, hi = knob.bounds
        if knob.optional:
            return lambda v: v is None or (type(v) is int and lo <= v <= hi)
        return lambda v: type(v) is int and lo <= v <= hi
    return lambda v: knob.problem("", v) is None


_CHECKED = tuple((name, _quick_check(knob), knob) for name, knob in KNOBS.items())

# The allowed values of the enumerated knobs (the first is not a default, see the fields).
CHOICES: dict[str, tuple] = {name: k.values for name, k in KNOBS.items() if k.kind == "choice"}
