"""The interactive lessons (Title -> Learn): each a set deal and a script.

A lesson is a JSON file in ``data/`` (one per lesson, played in file-name order)::

    {"format": 1, "id": "01-matching", "title": "...", "summary": "one line shown at the end",
     "rules": "casual", "house": {"knob": value},            # house: optional Rules overrides
     "dealer": "you",                                           # who deals (and so plays first)
     "deal": {"you": [8 ids], "cpu": [8 ids], "field": [8 ids], "stock": [ids, top first]},
     "steps": [
        {"say": "text"},                                        # read, then click Next
        {"say": "text", "expect": {"play": "03-B", "target": "03-P1"},
         "highlight": ["03-B", "03-P1"], "wrong": "text shown when another move is tried"},
        {"expect": {"choose": "08-P1"}},  {"expect": {"koikoi": true}},  {"expect": {"stop": true}},
        {"cpu": {"play": "09-A"}},                              # the CPU's move, scripted exactly
        {"say": "...", "check": {"yaku": {"you": ["sanko"]}, "award": {"winner": "you", "total": 5}}}
     ]}

``deal`` lists the dealt cards; the stock's unnamed cards follow the named ones in deck
order, so the whole 48-card deck is fixed (``deck()``). ``"deck": [48 ids]`` may be given
instead (deck[0:8] the dealer's hand, [8:16] the other's, [16:24] the field, [24:] the
stock, top first). The deal goes to the engine through its public API
(``new_match(decks=[deck], first_dealer=...)``), never by patching its state.

Every step's action is a real engine action: ``replay`` plays the whole script through
the engine and checks, step by step, that the seat named is the one to move, that the
action is legal, and that each ``check`` (cards captured, yaku held, the phase, the
round's award) holds. ``load`` runs it, so a lesson that loads is one that plays to its
end; a file that is malformed or does not play is reported with the reason
(``LessonError``), and ``load_all`` lists it as unavailable rather than failing.

Texts are the lesson's own words, in English. A translation lives next to it in
``data/<lang>/<same file name>`` and holds only the texts::

    {"format": 1, "id": "01-matching", "title": "...", "intro": "...", "summary": "...",
     "steps": {"2": {"say": "...", "wrong": "..."}}}          # step numbers count from 1

``load``/``load_all`` lay it over the English lesson for the language asked for (default:
``koikoi.i18n.language()`` at the call, so a screen that loads again follows a language
switch). Whatever it leaves out stays English; a translation file that is malformed, names
another id, a step the lesson lacks, or a text the English step does not have, is ignored
whole with a log line, and the English lesson is used.
Pure Python: no pygame, no writes. Here: reading a lesson file (``parse``, ``load``,
``load_all``, the translations); what a read lesson is: ``lessons.model``; playing its
script: ``lessons.script`` (both named here too).
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

from ..engine import RULESETS, ChooseMatch, KoiKoi, Play, Rules, Stop
from ..engine.cards import IDS
from .. import i18n
from .model import (CPU, DATA, FORMAT, ID_RE, MAX_BYTES, MAX_STEPS, MAX_TEXT, PHASES, SEATS, YOU, Entry, Lesson,
                    LessonError, Step)
from .script import advance, check, highlights, phase_of, replay, step_ready, yaku_of

log = logging.getLogger(__name__)

_TOP_KEYS = {"format", "id", "title", "summary", "rules", "house", "dealer", "deal", "deck", "seed",
             "steps", "intro"}
_STEP_KEYS = {"say", "expect", "cpu", "highlight", "wrong", "check"}
_CHECK_KEYS = {"captured", "not_captured", "yaku", "phase", "to_move", "field", "award", "hand"}


# ---------------------------------------------------------------- parsing
def _text(value: Any, what: str, *, optional: bool = False) -> str:
    if value is None and optional:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise LessonError(f"{what} must be some text")
    if len(value) > MAX_TEXT:
        raise LessonError(f"{what} is longer than {MAX_TEXT} characters")
    if any(ord(c) < 32 and c != "\n" for c in value):
        raise LessonError(f"{what} holds a control character")
    return value.strip()


def _card(value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in IDS:
        raise LessonError(f"{what}: {value!r:.30} is not a card id (such as \"09-A\")")
    return value


def _cards(value: Any, what: str, n: Optional[int] = None) -> list:
    if not isinstance(value, list):
        raise LessonError(f"{what} must be a list of card ids")
    if n is not None and len(value) != n:
        raise LessonError(f"{what} must hold {n} cards, not {len(value)}")
    return [_card(v, what) for v in value]


def _seat(value: Any, what: str) -> int:
    if value not in SEATS:
        raise LessonError(f"{what} must be \"you\" or \"cpu\", not {value!r:.30}")
    return SEATS[value]


def _rules(data: dict) -> Rules:
    name = data.get("rules", "casual")
    if not isinstance(name, str) or name not in RULESETS:
        raise LessonError(f"rules must be one of {', '.join(RULESETS)}, not {name!r:.30}")
    rules = RULESETS[name]
    house = data.get("house", {})
    if not isinstance(house, dict):
        raise LessonError("house must be an object of rule knobs")
    if house:
        known = set(Rules.__dataclass_fields__) - {"name"}
        bad = sorted(k for k in house if k not in known)
        if bad:
            raise LessonError(f"house names unknown rules: {', '.join(map(str, bad))[:80]}")
        try:
            rules = replace(rules, **house)
        except (TypeError, ValueError) as exc:
            raise LessonError(f"house rules are not valid: {exc}") from None
    return rules


def _deck(data: dict, dealer: int) -> tuple:
    if "deck" in data:
        deck = _cards(data["deck"], "deck", 48)
    else:
        deal = data.get("deal")
        if not isinstance(deal, dict) or not set(deal) <= {"you", "cpu", "field", "stock"}:
            raise LessonError("a lesson needs a deal: {\"you\", \"cpu\", \"field\", \"stock\"} (or a deck)")
        you = _cards(deal.get("you"), "deal.you", 8)
        cpu = _cards(deal.get("cpu"), "deal.cpu", 8)
        fld = _cards(deal.get("field"), "deal.field", 8)
        stock = _cards(deal.get("stock", []), "deal.stock")
        hands = (you, cpu) if dealer == YOU else (cpu, you)
        named = hands[0] + hands[1] + fld + stock
        rest = [c for c in IDS if c not in named]
        deck = named + rest
    if len(set(deck)) != 48 or len(deck) != 48:
        twice = sorted({c for c in deck if deck.count(c) > 1})
        raise LessonError(f"the deal names a card twice: {', '.join(twice)[:80]}" if twice
                          else "the deal does not hold the 48 cards")
    return tuple(deck)


def _action(spec: Any, what: str):
    if not isinstance(spec, dict) or len(spec) not in (1, 2):
        raise LessonError(f"{what} must be one move: play (and target), choose, koikoi or stop")
    if "play" in spec:
        if not set(spec) <= {"play", "target"}:
            raise LessonError(f"{what}: a play takes only \"play\" and \"target\"")
        target = spec.get("target")
        return Play(_card(spec["play"], what), _card(target, what) if target is not None else None)
    if set(spec) == {"choose"}:
        return ChooseMatch(_card(spec["choose"], what))
    if spec in ({"koikoi": True}, {"stop": True}):
        return KoiKoi() if "koikoi" in spec else Stop()
    raise LessonError(f"{what} must be one move: play (and target), choose, koikoi or stop")


def _check(spec: Any, what: str) -> dict:
    if not isinstance(spec, dict) or not set(spec) <= _CHECK_KEYS:
        raise LessonError(f"{what} may hold only {', '.join(sorted(_CHECK_KEYS))}")
    out: dict = {}
    for key in ("captured", "not_captured", "yaku", "hand"):
        if key in spec:
            per = spec[key]
            if not isinstance(per, dict) or not set(per) <= set(SEATS):
                raise LessonError(f"{what}.{key} must be {{\"you\": [...], \"cpu\": [...]}}")
            if key == "yaku":
                for v in per.values():
                    if not isinstance(v, list) or not all(isinstance(n, str) for n in v):
                        raise LessonError(f"{what}.yaku lists yaku names")
                out[key] = {SEATS[s]: tuple(sorted(v)) for s, v in per.items()}
            else:
                out[key] = {SEATS[s]: tuple(_cards(v, f"{what}.{key}")) for s, v in per.items()}
    if "field" in spec:
        out["field"] = tuple(_cards(spec["field"], f"{what}.field"))
    if "phase" in spec:
        if spec["phase"] not in PHASES:
            raise LessonError(f"{what}.phase must be one of {', '.join(PHASES)}")
        out["phase"] = spec["phase"]
    if "to_move" in spec:
        out["to_move"] = _seat(spec["to_move"], f"{what}.to_move")
    if "award" in spec:
        aw = spec["award"]
        if not isinstance(aw, dict) or not set(aw) <= {"winner", "base", "total", "yaku"}:
            raise LessonError(f"{what}.award holds winner, base, total and yaku")
        clean: dict = {}
        if "winner" in aw:
            clean["winner"] = _seat(aw["winner"], f"{what}.award.winner")
        for k in ("base", "total"):
            if k in aw:
                if type(aw[k]) is not int:
                    raise LessonError(f"{what}.award.{k} must be a whole number")
                clean[k] = aw[k]
        if "yaku" in aw:
            if not isinstance(aw["yaku"], list) or not all(isinstance(n, str) for n in aw["yaku"]):
                raise LessonError(f"{what}.award.yaku lists yaku names")
            clean["yaku"] = tuple(sorted(aw["yaku"]))
        out["award"] = clean
    return out


def _step(spec: Any, n: int) -> Step:
    what = f"step {n}"
    if not isinstance(spec, dict) or not spec:
        raise LessonError(f"{what} must be an object")
    extra = sorted(k for k in spec if k not in _STEP_KEYS)
    if extra:
        raise LessonError(f"{what} has unknown keys: {', '.join(map(str, extra))[:80]}")
    if "expect" in spec and "cpu" in spec:
        raise LessonError(f"{what} is either the player's move (expect) or the CPU's (cpu), not both")
    say = _text(spec.get("say"), f"{what}.say", optional=True)
    seat = action = None
    if "expect" in spec:
        seat, action = YOU, _action(spec["expect"], f"{what}.expect")
    elif "cpu" in spec:
        seat, action = CPU, _action(spec["cpu"], f"{what}.cpu")
    elif not say:
        raise LessonError(f"{what} neither says anything nor makes a move")
    highlight = tuple(_cards(spec["highlight"], f"{what}.highlight")) if "highlight" in spec else None
    wrong = _text(spec.get("wrong"), f"{what}.wrong", optional=True)
    if seat == CPU and (wrong or highlight):
        raise LessonError(f"{what}: the CPU's move takes no highlight or wrong text")
    check = _check(spec["check"], f"{what}.check") if "check" in spec else {}
    return Step(say, seat, action, highlight, wrong, check)


def parse(data: Any, *, path: Optional[Path] = None, verify: bool = True) -> Lesson:
    """A lesson from its parsed JSON, checked field by field and (``verify``) played through
    the engine. Raises LessonError (only) with the reason."""
    if not isinstance(data, dict):
        raise LessonError("a lesson file holds one JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise LessonError(f"unknown lesson format {data.get('format')!r:.20}")
    extra = sorted(k for k in data if k not in _TOP_KEYS)
    if extra:
        raise LessonError(f"unknown keys: {', '.join(map(str, extra))[:80]}")
    lid = data.get("id")
    if not isinstance(lid, str) or not ID_RE.fullmatch(lid):
        raise LessonError("the lesson needs an id of lower-case letters, digits and dashes")
    title = _text(data.get("title"), "title")
    summary = _text(data.get("summary"), "summary")
    intro = _text(data.get("intro"), "intro", optional=True)
    rules = _rules(data)
    dealer = _seat(data.get("dealer", "you"), "dealer")
    seed = data.get("seed", 1)
    if type(seed) is not int or not 0 <= seed < 2 ** 31:
        raise LessonError("seed must be a whole number")
    deck = _deck(data, dealer)
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not steps_data:
        raise LessonError("a lesson needs a list of steps")
    if len(steps_data) > MAX_STEPS:
        raise LessonError(f"a lesson has at most {MAX_STEPS} steps")
    steps = tuple(_step(s, i + 1) for i, s in enumerate(steps_data))
    lesson = Lesson(lid, title, summary, rules, deck, dealer, seed, steps, intro, path)
    if verify:
        replay(lesson)
    return lesson


def _read_json(path: Path) -> Any:
    try:
        raw = path.read_bytes()[:MAX_BYTES + 1]
    except OSError as exc:
        raise LessonError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise LessonError(f"{path.name} is larger than {MAX_BYTES // 1024} KB")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise LessonError(f"{path.name} is not valid JSON: {exc}") from None
    except RecursionError:
        raise LessonError(f"{path.name} is nested too deeply") from None


_TEXT_TOP = ("title", "intro", "summary")
_TEXT_STEP = ("say", "wrong")


def overlay(data: Any, texts: Any) -> dict:
    """The lesson ``data`` (its parsed English JSON) with the texts of a translation file
    (parsed JSON) laid over it; raises LessonError if the translation does not fit."""
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
        raise LessonError("the lesson itself is malformed")
    if not isinstance(texts, dict):
        raise LessonError("a translation file holds one JSON object")
    if texts.get("format", FORMAT) != FORMAT:
        raise LessonError(f"unknown translation format {texts.get('format')!r:.20}")
    extra = sorted(k for k in texts if k not in {"format", "id", "steps", *_TEXT_TOP})
    if extra:
        raise LessonError(f"a translation holds only texts; unknown keys: {', '.join(map(str, extra))[:80]}")
    if texts.get("id") != data.get("id"):
        raise LessonError(f"the translation's id {texts.get('id')!r:.45} is not the lesson's "
                          f"{data.get('id')!r:.45}")
    out = dict(data)
    for key in _TEXT_TOP:
        if key in texts:
            if not data.get(key):
                raise LessonError(f"the lesson has no {key} to translate")
            out[key] = _text(texts[key], key)
    steps = texts.get("steps", {})
    if not isinstance(steps, dict):
        raise LessonError("steps must be an object: {\"<step number>\": {\"say\": ..., \"wrong\": ...}}")
    new_steps = list(data["steps"])
    for key, spec in steps.items():
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= len(new_steps)):
            raise LessonError(f"step {key!r:.20} is not a step of the lesson (1 to {len(new_steps)})")
        n = int(key)
        what = f"step {n}"
        english = new_steps[n - 1]
        if not isinstance(spec, dict) or not spec or not set(spec) <= set(_TEXT_STEP):
            raise LessonError(f"{what} must hold say and/or wrong texts only")
        if not isinstance(english, dict):
            raise LessonError(f"{what} of the lesson is malformed")
        merged = dict(english)
        for k, value in spec.items():
            if not english.get(k):
                raise LessonError(f"{what} has no {k} text to translate")
            merged[k] = _text(value, f"{what}.{k}")
        new_steps[n - 1] = merged
    out["steps"] = new_steps
    return out


def translation_path(path, lang: str) -> Path:
    """Where the ``lang`` texts for the lesson file at ``path`` live."""
    path = Path(path)
    return path.parent / lang / path.name


def _translated(data: Any, path: Path, lang: str) -> Optional[dict]:
    """``data`` with its ``lang`` texts laid over, or None (no file, or one not used: logged)."""
    tpath = translation_path(path, lang)
    try:
        if not tpath.is_file():
            return None
    except OSError:
        return None
    try:
        return overlay(data, _read_json(tpath))
    except LessonError as exc:
        log.warning("lesson texts %s not used (English instead): %s", tpath, exc)
    except Exception as exc:   # a bad translation never breaks the English lesson
        log.warning("lesson texts %s not used (English instead): %s: %s", tpath, type(exc).__name__, exc)
    return None


def _language(lang: Optional[str]) -> str:
    if lang is None:
        lang = i18n.language()
    return i18n.normalize(lang) or i18n.SOURCE_LANGUAGE


def load(path, lang: Optional[str] = None) -> Lesson:
    """The lesson in the file at ``path`` (LessonError if it cannot be read or played), with
    its texts in ``lang`` where a translation has them (default: the game's language)."""
    path = Path(path)
    data = _read_json(path)
    lang = _language(lang)
    if lang != i18n.SOURCE_LANGUAGE:
        merged = _translated(data, path, lang)
        if merged is not None:
            try:
                return replace(parse(merged, path=path), lang=lang)
            except RecursionError:
                raise LessonError(f"{path.name} is nested too deeply") from None
            except LessonError as exc:
                # the English lesson decides: if it is broken too, its own reason is raised below
                log.warning("lesson texts %s not used (English instead): %s",
                            translation_path(path, lang), exc)
    try:
        return parse(data, path=path)
    except RecursionError:
        raise LessonError(f"{path.name} is nested too deeply") from None


def load_all(folder=None, lang: Optional[str] = None) -> list:
    """Every lesson file in ``folder`` (default: the built-in ones), in file-name order, as
    ``Entry``s: a lesson that cannot be used carries its reason instead (never raises).
    Texts are in ``lang`` where translated (default: the game's language now)."""
    folder = Path(folder) if folder is not None else DATA
    lang = _language(lang)
    out = []
    try:
        paths = sorted(p for p in folder.glob("*.json") if p.is_file())
    except OSError:
        return out
    for p in paths:
        try:
            lesson = load(p, lang)
            out.append(Entry(lesson.id, p, lesson))
        except LessonError as exc:
            out.append(Entry(p.stem, p, None, str(exc)))
        except Exception as exc:   # a broken lesson is listed as unavailable, never a crash
            out.append(Entry(p.stem, p, None, f"{type(exc).__name__}: {exc}"[:200]))
    seen: set = set()
    for i, e in enumerate(out):
        if e.lesson is not None and e.id in seen:
            out[i] = Entry(e.id, e.path, None, f"another lesson already has the id {e.id}")
        seen.add(e.id)
    return out


__all__ = ["Lesson", "Step", "Entry", "LessonError", "parse", "load", "load_all", "overlay",
           "translation_path", "replay", "advance",
           "check", "step_ready", "highlights", "yaku_of", "phase_of", "DATA", "YOU", "CPU"]
