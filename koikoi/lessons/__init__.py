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
Pure Python: no pygame, no writes.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

from ..engine import (RULESETS, ChooseMatch, IllegalAction, KoiKoi, Play, Rules, State, Stop,
                      legal_actions, new_match)
from ..engine import apply as engine_apply
from ..engine import card as card_of
from ..engine.cards import IDS, ids_of
from ..engine.scoring import round_month, yaku_points
from .. import i18n

log = logging.getLogger(__name__)

DATA = Path(__file__).resolve().parent / "data"
FORMAT = 1
MAX_BYTES = 256 * 1024
MAX_STEPS = 80
MAX_TEXT = 600
ID_RE = re.compile(r"[0-9a-z][0-9a-z-]{0,39}")
SEATS = {"you": 0, "cpu": 1}
YOU, CPU = 0, 1
PHASES = ("play", "choose", "decide", "over")
_TOP_KEYS = {"format", "id", "title", "summary", "rules", "house", "dealer", "deal", "deck", "seed",
             "steps", "intro"}
_STEP_KEYS = {"say", "expect", "cpu", "highlight", "wrong", "check"}
_CHECK_KEYS = {"captured", "not_captured", "yaku", "phase", "to_move", "field", "award", "hand"}


class LessonError(ValueError):
    """A lesson file that cannot be used, with the reason in words."""


@dataclass(frozen=True)
class Step:
    say: str = ""
    seat: Optional[int] = None          # who acts at this step: YOU, CPU, or None (read and go on)
    action: Any = None                  # the engine action (Play, ChooseMatch, KoiKoi, Stop)
    highlight: Optional[tuple] = None   # card ids to ring (None: the move's own cards, ``highlights``)
    wrong: str = ""                     # the answer to any other move
    check: dict = field(default_factory=dict)

    @property
    def decision(self) -> Optional[str]:
        """"koikoi" or "stop" for a Koi-Koi question's answer, else None."""
        if isinstance(self.action, KoiKoi):
            return "koikoi"
        if isinstance(self.action, Stop):
            return "stop"
        return None


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    summary: str
    rules: Rules
    deck: tuple
    dealer: int
    seed: int
    steps: tuple
    intro: str = ""
    path: Optional[Path] = None
    lang: str = "en"                    # the language of its texts (English where none)

    def start(self) -> State:
        """The lesson's match at its first step: one month, this deal, no oya-gime."""
        return new_match(self.rules, seed=self.seed, months=1, decks=[list(self.deck)],
                         first_dealer=self.dealer)


@dataclass(frozen=True)
class Entry:
    """One lesson file as the Learn screen lists it: the lesson, or why it is unavailable."""

    id: str
    path: Path
    lesson: Optional[Lesson]
    problem: Optional[str] = None

    @property
    def title(self) -> str:
        return self.lesson.title if self.lesson is not None else self.id


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


# ---------------------------------------------------------------- playing a script
def yaku_of(state: State, seat: int) -> tuple:
    """The names of the yaku ``seat``'s capture pile holds now, sorted."""
    return tuple(sorted(name for name, _ in yaku_points(
        state.captured[seat], state.rules, state.field, state.calls[seat], round_month(state.round))))


def phase_of(state: State) -> str:
    """"play", "choose" (a stock card matched two), "decide" (Koi-Koi or Stop) or "over"."""
    if state.is_over:
        return "over"
    name = str(state.phase_name)
    return "choose" if name == "choose_match" else name


def check(state: State, spec: dict, what: str = "check") -> None:
    """Raise LessonError if ``state`` is not as ``spec`` (a parsed ``check``) says."""
    for seat, cards in spec.get("captured", {}).items():
        have = set(ids_of(state.captured[seat]))
        missing = [c for c in cards if c not in have]
        if missing:
            raise LessonError(f"{what}: {'you' if seat == YOU else 'the CPU'} have not captured "
                              f"{', '.join(missing)}")
    for seat, cards in spec.get("not_captured", {}).items():
        have = set(ids_of(state.captured[seat]))
        there = [c for c in cards if c in have]
        if there:
            raise LessonError(f"{what}: {', '.join(there)} should not be captured yet")
    for seat, cards in spec.get("hand", {}).items():
        have = set(ids_of(state.hands[seat]))
        missing = [c for c in cards if c not in have]
        if missing:
            raise LessonError(f"{what}: {', '.join(missing)} not in the hand")
    for seat, names in spec.get("yaku", {}).items():
        got = yaku_of(state, seat)
        if got != names:
            raise LessonError(f"{what}: the yaku held are {list(got)}, not {list(names)}")
    if "field" in spec:
        have = set(ids_of(state.field))
        missing = [c for c in spec["field"] if c not in have]
        if missing:
            raise LessonError(f"{what}: {', '.join(missing)} not in the field")
    if "phase" in spec and phase_of(state) != spec["phase"]:
        raise LessonError(f"{what}: the phase is {phase_of(state)}, not {spec['phase']}")
    if "to_move" in spec and state.to_move != spec["to_move"]:
        raise LessonError(f"{what}: the wrong seat is to move")
    if "award" in spec:
        if not state.ledger:
            raise LessonError(f"{what}: no round has been scored yet")
        row = state.ledger[-1]
        aw = spec["award"]
        if "winner" in aw and row.winner != aw["winner"]:
            raise LessonError(f"{what}: the round's winner is seat {row.winner}, not {aw['winner']}")
        if "base" in aw and row.base != aw["base"]:
            raise LessonError(f"{what}: the base points are {row.base}, not {aw['base']}")
        if "total" in aw and row.award != aw["total"]:
            raise LessonError(f"{what}: the award is {row.award}, not {aw['total']}")
        if "yaku" in aw and tuple(sorted(y[0] for y in row.yaku)) != aw["yaku"]:
            raise LessonError(f"{what}: the yaku scored are {[y[0] for y in row.yaku]}")


def highlights(step: Step, state: State) -> tuple:
    """The cards to ring at ``step`` on ``state``: the step's own list, else, for the
    player's play, the card and the field cards it takes (its target, or every field card
    of its month), and for a stock choice the card to take."""
    if step.highlight is not None:
        return step.highlight
    a = step.action
    if step.seat != YOU:
        return ()
    if isinstance(a, Play):
        if a.target is not None:
            return (a.card, a.target)
        month = card_of(a.card).month
        return (a.card,) + tuple(c for c in ids_of(state.field) if card_of(c).month == month)
    if isinstance(a, ChooseMatch):
        return (a.target,)
    return ()


def step_ready(step: Step, state: State) -> Optional[str]:
    """Why ``step`` cannot be taken on ``state`` (None: it can): its seat is not the one to
    move, or its move is not legal there."""
    if step.seat is None:
        return None
    if state.to_move != step.seat:
        who = "the player" if step.seat == YOU else "the CPU"
        return f"it is {who}'s move, but {'nobody' if state.to_move is None else 'the other seat'} is to move"
    legal = legal_actions(state) or ()
    if step.action not in legal:
        return f"{step.action!r} is not a legal move there"
    return None


def advance(step: Step, state: State, n: int) -> State:
    """``state`` after step ``n`` (1-based): its move applied, its check made."""
    problem = step_ready(step, state)
    if problem is not None:
        raise LessonError(f"step {n}: {problem}")
    if step.seat is not None:
        try:
            state = engine_apply(state, step.action)
        except IllegalAction as exc:
            raise LessonError(f"step {n}: {exc}") from None
    if step.check:
        check(state, step.check, f"step {n}")
    return state


def replay(lesson: Lesson) -> list:
    """Play the lesson's whole script through the engine; the state after each step
    (``[start, after step 1, ...]``). Raises LessonError naming the first step that fails."""
    try:
        state = lesson.start()
    except (TypeError, ValueError) as exc:
        raise LessonError(f"the engine refused the deal: {exc}") from None
    if phase_of(state) not in ("play",):
        raise LessonError("the deal does not start with a play (a misdeal or a lucky hand?)")
    states = [state]
    for n, step in enumerate(lesson.steps, 1):
        # what is highlighted must be face up on the table for the player to see
        shown = set(ids_of(state.hands[YOU] | state.field | state.captured[0] | state.captured[1]))
        if state.pending >= 0:
            shown.add(IDS[state.pending])
        for c in highlights(step, state):
            if c not in shown:
                raise LessonError(f"step {n}: highlighted card {c} is not face up on the table")
        state = advance(step, state, n)
        states.append(state)
    return states


__all__ = ["Lesson", "Step", "Entry", "LessonError", "parse", "load", "load_all", "overlay",
           "translation_path", "replay", "advance",
           "check", "step_ready", "highlights", "yaku_of", "phase_of", "DATA", "YOU", "CPU"]
