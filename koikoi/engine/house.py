"""The house rules: the editor's rows (``HOUSE_ROWS``, with ``JOINT_ROWS`` for a row that sets
several knobs), what a row shows and stands for, when a knob matters, and a match's rules
built from a preset, house-rule changes and a length (``match_rules``; ``offered_changes``,
the lenient filter saved settings are read through)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple, Optional

from .cards import N_
from .knobs import (BAD_LENGTH, CANNOT_PLAY, LENGTH_BY_HOUSE, NAME_MAX, NOT_OFFERED, NOT_RULES,
                    UNKNOWN_KNOBS, UNKNOWN_PRESET, House, Knob, RulesError, _same, _show)
from .presets import RULESETS
from .ruleset import KNOBS, Rules


# Editor rows that stand for several knobs at once.
JOINT_ROWS: dict[str, Knob] = {
    "sake_cup": Knob(
        N_("Sake cup counts as"), "Yaku rules",
        N_("Whether the Sake cup counts as an animal toward Tane, as chaff toward Kasu, or as both. "
        "It always counts for the viewing yaku."),
        kind="choice", choices=(("animal", N_("Animal")), ("chaff", N_("Chaff")), ("both", N_("Both"))),
        house=House(9, "choice", ("animal", "chaff", "both")),
        sets=(("animal", (("sake_cup_is_chaff", False), ("sake_cup_is_animal", True))),
              ("chaff", (("sake_cup_is_chaff", True), ("sake_cup_is_animal", False))),
              ("both", (("sake_cup_is_chaff", True), ("sake_cup_is_animal", True))))),
}

HOUSE_ROWS: tuple[tuple[str, Knob], ...] = tuple(sorted(
    [(n, k) for n, k in KNOBS.items() if k.house is not None] + list(JOINT_ROWS.items()),
    key=lambda item: item[1].house.row))  # type: ignore[union-attr]
"""The house-rules editor's rows, in order: (row name, Knob). A row is a knob's name, or
a name of JOINT_ROWS."""

ROW_OF: dict[str, str] = {
    **{n: n for n, _ in HOUSE_ROWS},
    **{k: row for row, joint in JOINT_ROWS.items() for _, pairs in joint.sets for k, _ in pairs},
}
"""Knob -> the editor row that sets it."""


def knob_info(name: str) -> Knob:
    """The Knob of a field or of a joint editor row (KeyError for neither)."""
    return KNOBS[name] if name in KNOBS else JOINT_ROWS[name]


def house_value(rules: Rules, row: str) -> Any:
    """What the editor's ``row`` shows for ``rules``."""
    knob = knob_info(row)
    if knob.sets:
        for value, pairs in knob.sets:
            if all(_same(getattr(rules, k), v) for k, v in pairs):
                return value
        return knob.sets[0][0]
    value = getattr(rules, row)
    house = knob.house
    if house is not None and house.keep is not None and not any(_same(value, v) for v in house.settable):
        return house.keep
    return value


def house_knobs(row: str, value: Any) -> dict[str, Any]:
    """Knob -> value that ``value`` of the editor's ``row`` stands for."""
    knob = knob_info(row)
    if knob.sets:
        return dict(dict(knob.sets)[value])
    if knob.house is not None and knob.house.keep is not None and _same(value, knob.house.keep):
        return {}
    return {row: value}


def house_offers() -> dict[str, tuple]:
    """Knob -> the values the house-rules editor can give it."""
    out: dict[str, tuple] = {}
    for row, knob in HOUSE_ROWS:
        for value in knob.house.settable:  # type: ignore[union-attr]
            for k, v in house_knobs(row, value).items():
                if not any(_same(v, o) for o in out.get(k, ())):
                    out[k] = out.get(k, ()) + (v,)
    return out


def matters(rules: Rules, name: str) -> bool:
    """Whether knob ``name`` can change anything under ``rules`` (its ``depends``)."""
    depends = knob_info(name).depends
    return not depends or any(w.holds(rules) for w in depends)


def dependency_text(name: str) -> str:
    """``name``'s dependency in words ("Only when Lucky hands is On."), or ""."""
    def said(other: Knob, v: Any) -> str:
        if isinstance(v, bool):
            return "Yes" if v else "No"     # a toggle's values, as the panel says them
        return other.word(v) or str(v)

    parts = []
    for w in knob_info(name).depends:
        other = knob_info(w.knob)
        if w.said:
            parts.append(w.said)
            continue
        if w.values:
            parts.append(f"{other.label} is {' or '.join(said(other, v) for v in w.values)}")
        if w.unless:
            parts.append(f"{other.label} is not {' or '.join(said(other, v) for v in w.unless)}")
    return f"Only when {', or when '.join(parts)}." if parts else ""


# ------------------------------------------------------------------ a match's rules from a preset


def offered_changes(preset_name: Any, house: Any) -> dict:
    """The house-rule changes ``house`` (knob -> value) that the preset accepts: only knobs and
    values the house-rules editor offers (``HOUSE_ROWS``), and only combinations the Rules
    accept, each changing something. Anything else is dropped, one knob at a time, so one bad
    knob does not lose the others (saved settings are read through this). ``{}`` for a
    ``house`` that is not a dict or a preset that does not exist."""
    if not isinstance(house, dict) or type(preset_name) is not str or preset_name not in RULESETS:
        return {}
    preset = RULESETS[preset_name]
    offers = house_offers()

    def offered(k, v) -> bool:
        return any(_same(v, o) for o in offers.get(k, ()))
    todo = [(k, v) for k, v in house.items()
            if isinstance(k, str) and offered(k, v) and not _same(getattr(preset, k), v)]
    out: dict = {}
    progress = True
    while todo and progress:      # a knob may only be valid beside another (months=None with a target)
        progress = False
        for item in list(todo):
            trial = dict(out)
            trial[item[0]] = item[1]
            try:
                replace(preset, **trial)
            except (ValueError, TypeError):
                continue
            out[item[0]] = item[1]
            todo.remove(item)
            progress = True
    if todo:
        try:                      # the rest only together
            replace(preset, **{**out, **dict(todo)})
            out.update(todo)
        except (ValueError, TypeError):
            pass
    # a row that sets several knobs (the sake cup) offers some combinations only
    rules = replace(preset, **out)
    for row in JOINT_ROWS:
        knobs = house_knobs(row, house_value(rules, row))
        if any(getattr(rules, k) != v for k, v in knobs.items()):
            for k in knobs:
                out.pop(k, None)
    return out


class MatchRules(NamedTuple):
    """What ``match_rules`` builds: the Rules, the match length (None: no month limit) and the
    house-rule changes that change something (as a match file and a room record them)."""

    rules: Rules
    months: Optional[int]
    house: dict


def _refusal(preset: Rules, preset_name: str, house: dict, kept: dict, refused: list) -> RulesError:
    """Why ``match_rules`` refuses the knobs ``refused`` of ``house``: the first one's reason in
    a player's words, every one of them in the technical English."""
    offers = house_offers()
    said: Optional[tuple] = None
    parts = []
    for k in refused:
        v = house[k]
        knob = KNOBS.get(k) if type(k) is str else None
        problem = knob.problem(k, v) if knob is not None else None
        if knob is None:
            reason = (UNKNOWN_KNOBS, {})
        elif problem is not None:
            reason = knob.complaint()
        elif any(_same(v, o) for o in offers.get(k, ())):
            # offered, but refused beside the others: the Rules say why (a match that never ends)
            try:
                replace(preset, **{**kept, **{r: house[r] for r in refused if r in KNOBS}})
            except RulesError as exc:
                reason = (exc.message, exc.fields)
                problem = f"{k} ({str(exc).removeprefix('invalid rules: ')})"
            else:               # a combination of one editor row's knobs it does not offer
                reason = (NOT_OFFERED, {"rule": knob_info(ROW_OF.get(k, k)).label})
        else:
            reason = (NOT_OFFERED, {"rule": knob_info(ROW_OF.get(k, k)).label})
        said = said or reason
        parts.append(problem or (_show(k) if type(k) is not str else k[:NAME_MAX]))
    message, words = said or (CANNOT_PLAY, {})
    return RulesError(f"house rules not offered with {preset_name}: {'; '.join(parts[:5])}", message, **words)


def match_rules(preset_name: Any, house: Any = None, months: Any = "preset") -> MatchRules:
    """The Rules of a match of preset ``preset_name`` with the house-rule changes ``house``
    (knob -> value, as the house-rules editor offers them: ``offered_changes``) and the length
    ``months``: one of the Rules' ``months_offered``, or None where the house rules take the
    month limit away (played to a target); left out, the preset's own.

    The one place the New match dialog, the house-rules editor, saved settings and the match
    server build rules from a player's choice. Raises RulesError (``sentence`` says in a player's
    words what to change, ``str`` every problem in technical English) for an unknown preset, a
    ``house`` that is not a dict, an unknown knob, a value the knob cannot hold or the editor
    does not offer, a combination the Rules refuse, or a length not offered."""
    if type(preset_name) is not str or preset_name not in RULESETS:
        raise RulesError(f"unknown rules preset {_show(preset_name)} (one of {', '.join(RULESETS)})",
                         UNKNOWN_PRESET)
    if house is None:
        house = {}
    if type(house) is not dict:
        raise RulesError(f"house rules must be a dict of rule knobs, not {_show(house)}", NOT_RULES)
    preset = RULESETS[preset_name]
    kept = offered_changes(preset_name, house)
    missing = object()
    refused = sorted((k for k, v in house.items()
                      if k not in kept and not (type(k) is str and _same(getattr(preset, k, missing), v))),
                     key=repr)
    if refused:
        raise _refusal(preset, preset_name, house, kept, refused)
    rules = replace(preset, **kept)       # offered_changes kept only what the Rules accept
    if "months" in kept and kept["months"] is None:
        if months not in ("preset", None):
            raise RulesError("these house rules play to a target: months must be null", LENGTH_BY_HOUSE)
        return MatchRules(rules, None, kept)
    if type(months) is str and months == "preset":
        months = rules.months
    if type(months) is not int or months not in rules.months_offered:
        raise RulesError(f"months must be one of {', '.join(map(str, rules.months_offered))}, "
                         f"not {_show(months)}", BAD_LENGTH)
    return MatchRules(rules, months, kept)
