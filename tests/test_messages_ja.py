"""Messages a Japanese player reads instead of the engine's or an exception's English: the
Rules' refusals in House rules and New match, every card's tooltip, the review's errors by
what went wrong, and the opponent's default seat name in the review's reasons.

The Japanese of the new messages is installed here (``ja_catalog``) until the catalog has it."""

from __future__ import annotations

import ast
import itertools
import logging
import re
import sys
import zlib
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from koikoi import i18n
from koikoi.engine import RULESETS, Rules
from koikoi.engine import rules as R
from koikoi.engine.cards import DECK
from koikoi.engine.rules import HOUSE_ROWS, KNOBS, RulesError, house_knobs
from koikoi.ui import hints

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui"))     # harness.py: the headless App

# the new messages' Japanese (as the catalog will have them)
NEW = {
    R.NEVER_ENDS: "対戦の長さが制限なしのときは、目標点を決めるか、得点をゼロサムにしてください。"
                  "このままでは対戦が終わりません。",
    R.BAD_CHOICE: "「{rule}」は、選べる設定の中から選んでください。",
    R.BAD_TOGGLE: "「{rule}」はオンかオフにしてください。",
    R.BAD_NUMBER: "「{rule}」は{lo}から{hi}までの数にしてください。",
    R.BAD_NUMBER_OR_NONE: "「{rule}」は「{none}」にするか、{lo}から{hi}までの数にしてください。",
    R.BAD_TEXT: "「{rule}」は{lo}文字から{hi}文字までにしてください。",
    R.BAD_LENGTHS: "「{rule}」は、どれも{lo}から{hi}までの月数にしてください。",
    R.BAD_VALUE: "「{rule}」の値はこのルールでは使えません。",
    R.NOT_RULES: "このルールは読み込めません。",
    R.UNKNOWN_KNOBS: "このルールには、このバージョンのゲームにない設定が含まれています。",
    "Some of these rules cannot be used together.": "同時には使えないルールがあります。",
    "Poetry ribbon": "赤短",
    "Blue ribbon": "青短",
    "it is damaged, or was written by another version of the game.":
        "記録が正しくないか、別のバージョンのゲームで書かれたものです。",
    "The review could not start its background process.": "振り返りを別のプロセスで開始できませんでした。",
    "The review stopped because of an error in its analysis.": "分析中のエラーのため、振り返りが止まりました。",
    "The review finished, but its result could not be read.": "振り返りは終わりましたが、その結果を読み込めませんでした。",
}

LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture
def ja_catalog(monkeypatch):
    """Japanese, with the new messages in its catalog (undone afterwards)."""
    assert i18n.set_language("ja") == "ja"
    messages = i18n.catalog("ja").messages
    for msgid, text in NEW.items():
        if not isinstance(messages.get((None, msgid)), str):
            monkeypatch.setitem(messages, (None, msgid), text)
    yield
    i18n.set_language("en")


@pytest.fixture
def app(koikoi_home):
    from harness import close_app, make_app
    a = make_app(home=koikoi_home, seed=7)
    yield a
    close_app(a)


# ------------------------------------------------------------------ 1. the Rules' refusals
def test_the_rules_refusal_is_a_sentence_and_keeps_its_technical_text():
    with pytest.raises(RulesError) as err:
        replace(RULESETS["casual"], months=None)
    exc = err.value
    assert isinstance(exc, ValueError)
    assert "months=None" in str(exc) and "never ends" in str(exc)      # the log's words, as before
    assert exc.message == R.NEVER_ENDS and exc.fields == {}
    assert exc.sentence() == ("With no month limit, set a target score or zero-sum scoring, "
                              "or the match would never end.")


def _house_combinations():
    """Every preset with every value the editor offers for the rows that can make a match
    never end (the other rows' values are each checked in tests/ui/test_declared_lists.py)."""
    rows = {row: knob.house.values for row, knob in HOUSE_ROWS if row in ("months", "target_points",
                                                                          "scoring_mode")}
    assert set(rows) == {"months", "target_points", "scoring_mode"}
    names = list(rows)
    for preset in RULESETS:
        for values in itertools.product(*(rows[n] for n in names)):
            changes = {}
            for row, value in zip(names, values):
                changes.update(house_knobs(row, value))
            yield preset, changes


def test_every_refusal_the_house_rules_editor_can_make_is_said_in_japanese(ja_catalog):
    from koikoi.ui.scenes.rules_panel import build_rules, rules_problem
    refused = 0
    for preset, changes in _house_combinations():
        try:
            build_rules(preset, changes)
        except ValueError as exc:
            refused += 1
            text = rules_problem(exc)
            assert text == NEW[R.NEVER_ENDS], (preset, changes, text)
            assert not LATIN.search(text)
    assert refused            # no month limit, no target and running totals: never ends


def test_a_refused_knob_names_the_rule_and_what_it_may_be(ja_catalog):
    from koikoi.ui.scenes.rules_panel import build_rules, rules_problem
    bad = {"lucky_points": -3, "weather": "yes", "combo_grading": "weird", "name": "",
           "months_offered": (0,), "target_points": 0}
    for knob, value in bad.items():
        with pytest.raises(RulesError) as err:
            build_rules("casual", {knob: value})
        text = rules_problem(err.value)
        label = i18n._(KNOBS[knob].label)
        assert f"「{label}」" in text, (knob, text)
        assert knob not in text and "=" not in text and not LATIN.search(text), (knob, text)
    # the English reads as a sentence too
    i18n.set_language("en")
    with pytest.raises(RulesError) as err:
        build_rules("casual", {"target_points": 0})
    assert rules_problem(err.value) == 'Set "Play to a target" to Off or a whole number from 1 to 100,000.'
    assert err.value.sentence() == 'Set "Play to a target" to Off or a whole number from 1 to 100000.'


def test_unknown_knobs_and_unreadable_rules_are_sentences(ja_catalog):
    from koikoi.ui.scenes.rules_panel import build_rules, rules_problem
    with pytest.raises(RulesError) as err:
        build_rules("casual", {"bogus": 1})
    assert rules_problem(err.value) == NEW[R.UNKNOWN_KNOBS]
    with pytest.raises(RulesError, match="unknown rule knobs: bogus") as err:
        Rules.from_dict({"bogus": 1})
    assert rules_problem(err.value) == NEW[R.UNKNOWN_KNOBS]
    with pytest.raises(RulesError) as err:
        Rules.from_dict([1, 2])
    assert rules_problem(err.value) == NEW[R.NOT_RULES]
    assert rules_problem(ValueError("something technical")) == "同時には使えないルールがあります。"


def _help_texts(scene, monkeypatch):
    shown = []
    monkeypatch.setattr(scene, "draw_help", lambda surface, text, *a, **kw: shown.append(text))
    return shown


def test_the_house_rules_editor_shows_what_to_change_in_japanese(app, ja_catalog, monkeypatch):
    from koikoi.ui.scenes.house_rules import HouseRulesScene
    h = HouseRulesScene(app, "casual", {})
    app.push(h)
    h.set_value("months", None)
    assert h.error and "months=None" in h.error           # the technical reason, kept for the log
    shown = _help_texts(h, monkeypatch)
    h.draw(app.screen)
    frame = i18n._("These rules cannot be played: {reason}")
    assert shown == [frame.format(reason=NEW[R.NEVER_ENDS])]
    assert "months" not in shown[0] and "target_points" not in shown[0]


def test_the_new_match_toast_shows_what_to_change_in_japanese(app, ja_catalog):
    from koikoi.ui.scenes.newmatch import NewMatchScene
    d = NewMatchScene(app)
    app.push(d)
    d.set_rules("casual")
    d.house = {"months": None}
    app.toasts.clear()
    d.start_match()
    assert app.top is d and d.error
    texts = [t.text for t in app.toasts]
    frame = i18n._("These house rules cannot be played: {error}")
    assert texts == [frame.format(error=NEW[R.NEVER_ENDS])]
    assert not LATIN.search(texts[0])


# ------------------------------------------------------------------ 2. the cards' names
def test_every_card_name_is_marked_for_translation():
    tree = ast.parse((ROOT / "koikoi" / "engine" / "cards.py").read_text(encoding="utf-8"))
    table = next(n.value for n in tree.body if isinstance(n, ast.Assign)
                 and any(getattr(t, "id", None) == "_TABLE" for t in n.targets))
    entries = [e for month in table.elts for e in month.elts]
    assert len(entries) == 48
    for entry in entries:
        name = entry.elts[2]
        assert (isinstance(name, ast.Call) and getattr(name.func, "id", None) == "N_"
                and isinstance(name.args[0], ast.Constant)), ast.unparse(entry)


@pytest.mark.parametrize("style", ["both", "english", "romaji"])
def test_every_cards_tooltip_names_it_in_japanese(ja_catalog, style):
    for c in DECK:
        month, kind, name = hints.card_lines(c.id, style)
        assert not LATIN.search(month), (c.id, month)
        assert not LATIN.search(name), (c.id, name)            # "Poetry ribbon" was shown
        assert not LATIN.search(kind.split("（")[0]), (c.id, kind)   # the rōmaji reading may follow
    assert hints.card_lines("01-RP")[2] == "赤短" and hints.card_lines("06-RB")[2] == "青短"


def test_english_card_tooltips_read_as_before():
    assert i18n.language() == "en"
    assert hints.card_lines("01-RP") == ("January · Pine", "Ribbon / Tanzaku (短冊)", "Poetry ribbon")
    assert hints.card_lines("09-RB")[2] == "Blue ribbon"


# ------------------------------------------------------------------ 3. the review's errors
RAW = "An attempt has been made to start a new process before the current process has finished"


def _job():
    from koikoi.engine import events_to_json
    from koikoi.review import ReviewJob
    s = _played_session()
    return ReviewJob(events_to_json(s.state.events), (0,), match_id="abc", cache_dir=None)


def _played_session(seats=None):
    from koikoi.ai import make_player
    from koikoi.session import MatchSession, SeatConfig
    seats = seats or (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "random"))
    s = MatchSession(RULESETS["casual"], seed=5, months=1, seats=seats)
    players = [make_player("random", seed=1), make_player("random", seed=2)]
    while not s.state.is_over:
        s.apply(players[s.state.to_move].choose(s.view(s.state.to_move), s.legal()))
    return s


def test_a_review_process_that_cannot_start_is_a_sentence(ja_catalog, monkeypatch, caplog):
    import multiprocessing.process as P

    def refuse(self):
        raise RuntimeError(RAW)
    monkeypatch.setattr(P.BaseProcess, "start", refuse)
    job = _job()
    with caplog.at_level(logging.WARNING, "koikoi.review"):
        job.start()
    assert job.done and job.result is None
    assert job.error == NEW["The review could not start its background process."]
    assert RAW in caplog.text                             # the raw text is logged


def test_the_review_results_and_the_processs_errors_are_sentences(ja_catalog, caplog):
    from koikoi.review import job as J
    job = _job()
    job._proc = SimpleNamespace(join=lambda t: None, is_alive=lambda: False, close=lambda: None)
    with caplog.at_level(logging.WARNING, "koikoi.review"):
        assert job._handle(("result", zlib.compress(b"{not json")))
    assert job.error == NEW["The review finished, but its result could not be read."]
    assert "Expecting" in caplog.text or "JSON" in caplog.text or "property" in caplog.text
    job = _job()
    with caplog.at_level(logging.WARNING, "koikoi.review"):
        assert job._handle(("error", "分析中のエラー", "KeyError: 'raw detail'"))
    assert job.error == "分析中のエラー" and "raw detail" in caplog.text

    # the process's own last word: a sentence, the exception beside it for the log
    import multiprocessing
    parent, child = multiprocessing.Pipe(duplex=False)
    try:
        J._child(child, "{not json", (0,), "abc", None, None, None, "both", None, "ja")
        got = []
        try:
            while parent.poll(1.0):
                got.append(parent.recv())
        except EOFError:
            pass
        kind, message, detail = got[-1]
        assert kind == "error" and "JSON" not in message and "Expecting" not in message
        assert message == i18n._("The match log cannot be reviewed: {why}").format(
            why=NEW["it is damaged, or was written by another version of the game."])
        assert detail
    finally:
        parent.close()


def test_a_bad_log_and_a_stopped_process_are_sentences(ja_catalog, caplog):
    from koikoi.review import ReviewJob
    job = ReviewJob("{not json", (0,), match_id="abc", cache_dir=None)
    with caplog.at_level(logging.WARNING, "koikoi.review"):
        job.start()
    assert job.error == i18n._("The match log cannot be reviewed: {why}").format(
        why=NEW["it is damaged, or was written by another version of the game."])
    assert not LATIN.search(job.error)

    class Broken:
        def poll(self):
            raise EOFError("pipe closed: raw")

        def close(self):
            pass
    job = _job()
    job._proc = SimpleNamespace(join=lambda t: None, is_alive=lambda: False, close=lambda: None)
    job._conn = Broken()
    with caplog.at_level(logging.WARNING, "koikoi.review"):
        job.poll()
    assert job.error == i18n._("The review stopped before it was finished.") != \
        "The review stopped before it was finished."
    assert "pipe closed: raw" in caplog.text


def test_the_review_panel_says_why_by_the_kind_of_error(ja_catalog, monkeypatch):
    from koikoi.ui.scenes import review_panel as RP
    s = _played_session()
    fake_app = SimpleNamespace(read_only=True, settings={}, storage=None)
    monkeypatch.setattr(RP, "load_cached", lambda *a, **kw: None)

    def refuse(*a, **kw):
        raise RuntimeError(RAW)
    monkeypatch.setattr(RP, "make_job", refuse)
    st = RP.ReviewState(fake_app, s)
    assert not st.start()
    assert st.error == NEW["The review could not start its background process."]

    class Exploding:
        progress, done, result, error = 0.0, False, None, None

        def start(self):
            pass

        def poll(self):
            raise RuntimeError(RAW)

        def close(self):
            pass
    monkeypatch.setattr(RP, "make_job", lambda *a, **kw: Exploding())
    st = RP.ReviewState(fake_app, s)
    assert st.start()
    st.poll()
    assert st.error == i18n._("The review stopped before it was finished.") and RAW not in st.error


# ------------------------------------------------------------------ 4. the opponent's name
def test_the_reviews_opponent_is_named_in_the_players_language(ja_catalog):
    from koikoi.session import SeatConfig
    from koikoi.ui.scenes.review_panel import opponent_words
    friend = SimpleNamespace(seats=(SeatConfig("human", "Player 1"), SeatConfig("human", "Player 2")))
    assert opponent_words(friend, (0,)) == i18n._("Player 2") != "Player 2"
    assert opponent_words(friend, (1,)) == i18n._("Player 1")
    typed = SimpleNamespace(seats=(SeatConfig("human", "Player 1"), SeatConfig("human", "Hanako")))
    assert opponent_words(typed, (0,)) == "Hanako"             # a typed name as it is
    assert opponent_words(friend, (0, 1)) is None


def test_a_review_is_cached_with_its_language_and_opponent():
    """The opponent's words are now in the game's language: the cache (``extends``) already
    tells a review made in another language, or with other words, and makes it again."""
    from koikoi.review.analysis import SEED, extends, log_hash
    from koikoi.review.model import MatchReview
    events = _played_session().state.events

    def review(lang, opponent):
        return MatchReview("abc", (0,), (), 4, {"events_done": 0, "log_hash": log_hash(events, 0),
                                                "seed": SEED, "opponent": opponent, "lang": lang})
    i18n.set_language("ja")
    try:
        assert extends(review("ja", "プレイヤー2"), events, (0,), 4, SEED, "プレイヤー2")
        assert not extends(review("en", "Player 2"), events, (0,), 4, SEED, "Player 2")
        assert not extends(review("ja", "Player 2"), events, (0,), 4, SEED, "プレイヤー2")
    finally:
        i18n.set_language("en")
