"""The game's own names in the player's language: multiplier labels (templates the engine
marks), yaku names by the name style, seat names the game gave, near-miss sentences, and the
replay's "round not complete" problem. English reads exactly as before."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from koikoi import i18n
from koikoi import narration as N
from koikoi.ai import CPU_LEVELS
from koikoi.engine import RULESETS
from koikoi.engine import yaku as Y
from koikoi.engine.scoring import COUNTED_LABELS, counted_label, multipliers
from koikoi.ui import hints
from koikoi.ui.scenes.replay import RoundIncomplete, problem_text, round_bounds
from koikoi.ui.table import seat_label


@pytest.fixture
def japanese():
    i18n.set_language("ja")
    yield
    i18n.set_language("en")


def _all_labels():
    modes = ("opponent_called", "own_calls_and_opponent", "caller", "anyone", "scaling")
    seen = set()
    for r in RULESETS.values():
        for mode in modes:
            try:
                rr = replace(r, koikoi_multiplier=mode, field_brights_multiplier=True)
            except ValueError:      # a combination the rules refuse
                continue
            for own, opp, fb in itertools.product(range(5), range(3), range(3)):
                seen.update(label for label, _f in multipliers(8, rr, own, opp, fb))
    return seen


def test_multiplier_labels_read_as_before():
    # the English text the old f-strings made
    assert counted_label("3 Koi-Koi calls") == ("{n} Koi-Koi call", "{n} Koi-Koi calls", 3)
    assert counted_label("1 Koi-Koi call") == ("{n} Koi-Koi call", "{n} Koi-Koi calls", 1)
    assert counted_label("own Koi-Koi ×2") == ("own Koi-Koi ×{n}", "own Koi-Koi ×{n}", 2)
    assert counted_label("4 own Koi-Koi calls")[2] == 4
    assert counted_label("2 brights in the opening field")[2] == 2
    assert counted_label("1 bright in the opening field")[2] == 1
    # a label no template makes is not a counted one
    for other in ("1 Koi-Koi calls", "7 points or more", "Koi-Koi calls", "-1 Koi-Koi calls", "", None, 3):
        assert counted_label(other) is None


def test_every_label_the_engine_makes_is_marked():
    labels = _all_labels()
    assert labels, "no multiplier came up"
    for label in labels:
        found = counted_label(label)
        if found is not None:
            one, many, n = found
            assert (one if n == 1 else many).format(n=n) == label
            assert (one, many) in COUNTED_LABELS
        assert N.multiplier_label(label) == label      # English: itself


def test_multiplier_labels_translate(japanese):
    assert N.multiplier_label("7 points or more") == "7点以上"
    assert N.multiplier_label("3 Koi-Koi calls") == "こいこい3回"
    assert N.multiplier_label("2 brights in the opening field") == "最初の場に光札2枚"


def test_yaku_labels_english_unchanged():
    for y in Y.TABLE:
        for style in Y.STYLES:
            for short in (False, True):
                assert hints.yaku_label(y.name, style, short) == Y.label(y.name, style, short)
            assert hints.yaku_title(y.name, style) == Y.title(y.name, style)
        assert hints.yaku_heading(y.name, "both") == f"{y.kanji}  {y.romaji}"


def test_yaku_labels_in_japanese_follow_the_style(japanese):
    y = Y.info("hanami_zake")
    assert hints.yaku_label("hanami_zake", "both") == "花見酒"
    assert hints.yaku_label("hanami_zake", "romaji", short=True) == "花見酒"
    assert hints.yaku_label("hanami_zake", "english") == i18n._(y.english) != y.romaji
    assert hints.yaku_heading("hanami_zake", "both") == "花見酒"          # not the kanji twice
    assert hints.yaku_title("hanami_zake", "both") == ("花見酒", y.romaji)
    assert N.yaku_label("kasu", "both") == Y.info("kasu").kanji


def test_seat_names_the_game_gave_are_translated(japanese):
    assert seat_label("You") == "あなた"
    for lvl in CPU_LEVELS:
        assert seat_label(lvl.seat_name) == i18n._(lvl.seat_name)
    assert seat_label("Aki") == "Aki"              # a typed name as it is
    assert seat_label("you") == "you"
    # a friend match's default seat names (the setting's defaults, stored in English)
    assert (seat_label("Player 1"), seat_label("Player 2")) == ("プレイヤー1", "プレイヤー2")


def test_seat_names_in_english():
    assert [seat_label(lvl.seat_name) for lvl in CPU_LEVELS] == [lvl.seat_name for lvl in CPU_LEVELS]
    assert seat_label("You") == "You"
    assert seat_label("Player 1") == "Player 1"


def test_near_miss_sentences_read_as_before():
    for nouns in (*hints.KIND_NOUN.values(), hints.CARD_NOUN):
        for away, noun in ((1, nouns[0]), (2, nouns[1])):
            miss = hints.NearMiss("sanko", away, noun, ("01-B", "03-B"), 1, 5)
            assert miss.text("romaji") == f"Sankō: {away} {noun} away (1 of 2 left unseen)"


def test_a_round_missing_from_the_log():
    with pytest.raises(ValueError, match="round 3 is not complete in this log") as info:
        round_bounds((), 3)
    assert isinstance(info.value, RoundIncomplete)
    assert problem_text(info.value) == "round 3 is not complete in this log"
    assert problem_text(ValueError("something else")) == "something else"


@pytest.mark.parametrize("style", ["both", "english", "romaji"])
def test_a_yaku_name_is_not_said_twice_in_japanese(japanese, style):
    """Japanese has one name for a yaku: the headings and two-line titles never repeat it
    ('三光  三光（さんこう）', 'タン' over 'タン' under the English name style)."""
    for name in Y.BY_NAME:
        kanji = Y.info(name).kanji
        heading = hints.yaku_heading(name, style)
        assert heading.count(kanji) == 1, (name, style, heading)
        main, second = hints.yaku_title(name, style)
        assert main and (not second or (second not in main and main not in second)), (name, style, main, second)


def test_english_yaku_headings_and_titles_read_as_before():
    assert hints.yaku_heading("sanko", "english") == "三光  Three Brights"
    assert hints.yaku_title("sanko", "english") == ("Three Brights", "三光")
    assert hints.yaku_title("tanzaku", "both") == ("Ribbons", "Tanzaku  タン")


def test_a_short_yaku_label_in_japanese_leaves_the_reading_out(japanese):
    """The HUD's side panel cut '花見酒（はなみざ…' under the English name style."""
    assert N.yaku_label("hanami_zake", "english", short=True) == "花見酒"
    assert N.yaku_label("hanami_zake", "english") == "花見酒（はなみざけ）"
    assert N.yaku_label("akatan_aotan", "english", short=True) == "赤短・青短"
    assert all("（" not in N.yaku_label(n, "english", short=True) for n in Y.BY_NAME)


def test_a_yaku_rows_two_lines_never_repeat_the_name(japanese):
    """The prompt's and the inspector's rows: the English name under the heading when both
    are shown, nothing when that is the heading again."""
    for name in Y.BY_NAME:
        main, second = hints.yaku_heading_lines(name, "both")
        assert main and (not second or (second not in main and main not in second)), (name, main, second)
    i18n.set_language("en")
    assert hints.yaku_heading_lines("tanzaku", "both") == ("タン  Tanzaku", "Ribbons")
    assert hints.yaku_heading_lines("sanko", "romaji") == ("三光  Sankō", "")
