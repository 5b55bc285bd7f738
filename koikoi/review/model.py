"""What a review says about a match: the values the analysis hands to the screens.

    MatchReview(match_id, seats, rounds=(RoundReview, ...))
    RoundReview(round, seat, decisions=(Decision, ...))
    Decision(round, index, seat, kind, chosen, best, options, loss, verdict, reason)

A ``Decision`` is one choice a seat made that had an alternative: which card to
play (and which of two field cards to take), which field card the stock card
takes, Koi-Koi or Stop. ``index`` is the position of the event that records it
in the match log (``Played``, ``Chose``, ``KoiKoiCalled`` or a ``Stopped`` that
was not automatic): the position the seat decided in is ``replay(events[:index])``,
and the replay viewer's step for it starts at that index.

Values are from the deciding seat's side and use only what it could see then
(its ``view``): ``points`` is the expected point difference of the round
(its award minus the opponent's), ``win`` the chance of winning the match
after the round, from Hard's table. ``loss`` is how many points the chosen
option gave away against the best one (0 for the best, never negative);
``verdict`` one of VERDICTS.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..engine.actions import Action, ChooseMatch, KoiKoi, Play, Stop
from ..engine.cards import ID_TO_INDEX

GOOD, INACCURACY, MISTAKE, FORCED = "good", "inaccuracy", "mistake", "forced"
VERDICTS = (GOOD, INACCURACY, MISTAKE, FORCED)
# The version of to_data's layout and of the values in it; a cache of another version is
# analysed again. 3: the values read the opponent's passes (hard.estimate, as Hard does),
# so a review kept from before agrees with the coach once it is analysed again.
FORMAT = 3
# The verdicts' bounds, in round points (why these: koikoi.review.analysis's docstring).
# Here so the analysis, which gives the verdicts, and the reasons, which say when two moves
# are within the noise, read the same numbers.
INACCURACY_POINTS = 0.5
MISTAKE_POINTS = 1.5
NOISE_Z = 2.0       # paired standard errors of a gap that the deals cannot tell from none


@dataclass(frozen=True)
class Option:
    action: Action
    points: float                 # expected round point difference for the deciding seat
    win: Optional[float] = None   # match-win chance after the round (None: not estimated)
    spread: float = 0.0           # standard error of ``points`` against the best option
    won: Optional[float] = None   # chance the deciding seat wins the round (None: not estimated)
    lost: Optional[float] = None  # chance the opponent wins it


@dataclass(frozen=True)
class Decision:
    round: int
    index: int                    # the deciding event's index in the match log
    seat: int
    kind: str                     # "play", "choose" or "decide"
    chosen: Action
    best: Action
    options: tuple = ()           # Option, best first
    loss: float = 0.0             # points given away against ``best`` (>= 0)
    verdict: str = GOOD
    reason: str = ""              # a short sentence in words (cards by name)

    @property
    def is_error(self) -> bool:
        return self.verdict in (INACCURACY, MISTAKE)


@dataclass(frozen=True)
class RoundReview:
    round: int
    seat: int
    decisions: tuple = ()

    @property
    def mistakes(self) -> int:
        return sum(d.verdict == MISTAKE for d in self.decisions)

    @property
    def inaccuracies(self) -> int:
        return sum(d.verdict == INACCURACY for d in self.decisions)

    @property
    def points_lost(self) -> float:
        return sum(d.loss for d in self.decisions if d.is_error)


@dataclass(frozen=True)
class MatchReview:
    match_id: str
    seats: tuple                  # the seats reviewed (one, or both in a friend match)
    rounds: tuple = ()            # RoundReview, by round then seat
    budget: int = 0               # playouts per option the analysis used
    meta: dict = field(default_factory=dict)

    def round(self, round_no: int, seat: int) -> Optional[RoundReview]:
        for r in self.rounds:
            if r.round == round_no and r.seat == seat:
                return r
        return None

    def decision_at(self, index: int) -> Optional[Decision]:
        for r in self.rounds:
            for d in r.decisions:
                if d.index == index:
                    return d
        return None

    def to_data(self) -> dict[str, Any]:
        """The review as JSON values (``from_data`` reads it back equal)."""
        return {"format": FORMAT, "match_id": self.match_id, "seats": list(self.seats),
                "budget": self.budget, "meta": dict(self.meta),
                "rounds": [{"round": r.round, "seat": r.seat,
                            "decisions": [_decision_data(d) for d in r.decisions]}
                           for r in self.rounds]}

    @classmethod
    def from_data(cls, data: Any) -> "MatchReview":
        """A review from ``to_data``'s layout; ValueError on anything else (another FORMAT,
        a missing or extra field, a value of the wrong type or out of range)."""
        d = _fields(data, "review", ("format", "match_id", "seats", "budget", "meta", "rounds"))
        if type(d["format"]) is not int or d["format"] != FORMAT:
            raise ValueError(f"the review has format {_show(d['format'])}; this version reads {FORMAT}")
        match_id = _str(d["match_id"], "match_id", 64)
        seats = d["seats"]
        if (type(seats) is not list or not 1 <= len(seats) <= 2
                or any(_seat(s) is None for s in seats) or len(set(seats)) != len(seats)):
            raise ValueError(f"review seats must be a list of 0 and/or 1, not {_show(seats)}")
        budget = _int(d["budget"], "budget", 0, 10 ** 6)
        meta = _meta(d["meta"])
        rounds = d["rounds"]
        if type(rounds) is not list or len(rounds) > _ROUNDS_MAX:
            raise ValueError(f"review rounds must be a list of at most {_ROUNDS_MAX}")
        out = []
        for i, r in enumerate(rounds):
            rd = _fields(r, f"round {i}", ("round", "seat", "decisions"))
            decisions = rd["decisions"]
            if type(decisions) is not list or len(decisions) > _DECISIONS_MAX:
                raise ValueError(f"round {i}: decisions must be a list of at most {_DECISIONS_MAX}")
            out.append(RoundReview(_int(rd["round"], "round", 1, 10 ** 6),
                                   _seat_of(rd["seat"]),
                                   tuple(_decision(x, f"round {i}, decision {j}")
                                         for j, x in enumerate(decisions))))
        return cls(match_id, tuple(seats), tuple(out), budget, meta)


# ---------------------------------------------------------------- the JSON codec

_ROUNDS_MAX = 2 * 1000
_DECISIONS_MAX = 200
_OPTIONS_MAX = 64
REASON_MAX = 2000        # characters of a reason (the analysis clips to it)
_REASON_MAX = REASON_MAX
_META_MAX = 32
_KINDS = ("play", "choose", "decide")


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _fields(data: Any, what: str, names: tuple) -> dict:
    if not isinstance(data, dict) or set(data) != set(names):
        raise ValueError(f"malformed {what}: expected an object with the fields {', '.join(names)}")
    return data


def _str(v: Any, what: str, limit: int) -> str:
    if type(v) is not str or len(v) > limit:
        raise ValueError(f"{what} must be a text of at most {limit} characters, not {_show(v)}")
    return v


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise ValueError(f"{what} must be a whole number from {lo} to {hi}, not {_show(v)}")
    return v


def _num(v: Any, what: str, lo: float = -1e6, hi: float = 1e6) -> float:
    if type(v) not in (int, float) or v != v or not lo <= v <= hi:
        raise ValueError(f"{what} must be a number from {lo:g} to {hi:g}, not {_show(v)}")
    return float(v)


def _chance(v: Any, what: str) -> Optional[float]:
    return None if v is None else _num(v, what, 0.0, 1.0)


def _seat(v: Any) -> Optional[int]:
    return v if type(v) is int and v in (0, 1) else None


def _seat_of(v: Any) -> int:
    s = _seat(v)
    if s is None:
        raise ValueError(f"a seat is 0 or 1, not {_show(v)}")
    return s


def _meta(v: Any) -> dict:
    if not isinstance(v, dict) or len(v) > _META_MAX:
        raise ValueError(f"review meta must be an object of at most {_META_MAX} entries")
    for k, x in v.items():
        _str(k, "a meta key", 40)
        if x is not None and type(x) not in (str, int, float, bool):
            raise ValueError(f"meta {k!r} must be a text, a number, true/false or null")
        if type(x) is str:
            _str(x, f"meta {k!r}", 200)
        if type(x) is float and (x != x or abs(x) > 1e12):
            raise ValueError(f"meta {k!r} is not a finite number")
    return dict(v)


def action_data(a: Action) -> dict:
    """An action as a small dict: {"type": "play", "card": "08-B", "target": null}, ..."""
    if isinstance(a, Play):
        return {"type": "play", "card": a.card, "target": a.target}
    if isinstance(a, ChooseMatch):
        return {"type": "choose", "target": a.target}
    if isinstance(a, KoiKoi):
        return {"type": "koikoi"}
    if isinstance(a, Stop):
        return {"type": "stop"}
    raise ValueError(f"not a reviewed action: {_show(a)}")


def _card(v: Any) -> str:
    if type(v) is not str or v not in ID_TO_INDEX:
        raise ValueError(f"not a card id: {_show(v)}")
    return v


def action_from_data(v: Any) -> Action:
    if not isinstance(v, dict):
        raise ValueError(f"an action is an object, not {_show(v)}")
    t = v.get("type")
    if t == "play":
        d = _fields(v, "play action", ("type", "card", "target"))
        return Play(_card(d["card"]), None if d["target"] is None else _card(d["target"]))
    if t == "choose":
        d = _fields(v, "choose action", ("type", "target"))
        return ChooseMatch(_card(d["target"]))
    if t == "koikoi":
        _fields(v, "koikoi action", ("type",))
        return KoiKoi()
    if t == "stop":
        _fields(v, "stop action", ("type",))
        return Stop()
    raise ValueError(f"unknown action type {_show(t)}")


def _decision_data(d: Decision) -> dict:
    return {"round": d.round, "index": d.index, "seat": d.seat, "kind": d.kind,
            "chosen": action_data(d.chosen), "best": action_data(d.best),
            "options": [{"action": action_data(o.action), "points": o.points, "win": o.win,
                         "spread": o.spread, "won": o.won, "lost": o.lost} for o in d.options],
            "loss": d.loss, "verdict": d.verdict, "reason": d.reason}


def _decision(v: Any, what: str) -> Decision:
    d = _fields(v, what, ("round", "index", "seat", "kind", "chosen", "best", "options", "loss",
                          "verdict", "reason"))
    try:
        kind = d["kind"]
        if kind not in _KINDS:
            raise ValueError(f"kind must be one of {', '.join(_KINDS)}, not {_show(kind)}")
        verdict = d["verdict"]
        if type(verdict) is not str or verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, not {_show(verdict)}")
        options = d["options"]
        if type(options) is not list or not 1 <= len(options) <= _OPTIONS_MAX:
            raise ValueError(f"options must be a list of 1 to {_OPTIONS_MAX}")
        opts = []
        for o in options:
            od = _fields(o, "option", ("action", "points", "win", "spread", "won", "lost"))
            opts.append(Option(action_from_data(od["action"]), _num(od["points"], "points"),
                               _chance(od["win"], "win"), _num(od["spread"], "spread", 0.0),
                               _chance(od["won"], "won"), _chance(od["lost"], "lost")))
        return Decision(_int(d["round"], "round", 1, 10 ** 6), _int(d["index"], "index", 0, 10 ** 7),
                        _seat_of(d["seat"]), kind, action_from_data(d["chosen"]),
                        action_from_data(d["best"]), tuple(opts), _num(d["loss"], "loss", 0.0),
                        verdict, _str(d["reason"], "reason", _REASON_MAX))
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None
