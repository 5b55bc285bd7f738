"""The round table's screens in translation: English unchanged, "You" by seat, a language
switch followed by what used to be translated at import time."""

from __future__ import annotations

import pytest

from koikoi import i18n
from koikoi.coach import Odds, coach_line
from koikoi.engine import KIND_JAPANESE, Kind
from koikoi.engine import yaku as Y
from koikoi.engine.events import LedgerRow
from koikoi.ui.scenes import keyhelp
from koikoi.ui.scenes.ledger import calls_brief, ledger_cells
from koikoi.ui.scenes.results import headline, round_title
from koikoi.ui.table.hud import yaku_label

JA_PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"

msgid "Keys"
msgstr "キー操作"

msgid "This list"
msgstr "この一覧"

msgid "March"
msgstr "3月"

msgid "Round {n}  ·  {month}"
msgstr "第{n}局  ·  {month}"

msgid "You win the round"
msgstr "あなたがこの局の勝ち"

msgid "{name} wins the round"
msgstr "{name}がこの局の勝ち"

msgid "Three Brights"
msgstr "三光（さんこう）"

msgid "Hikari"
msgstr "光"

msgid "{name} stopped (shōbu) after {n} Koi-Koi call."
msgid_plural "{name} stopped (shōbu) after {n} Koi-Koi calls."
msgstr[0] "{name}はこいこい{n}回の後に勝負しました。"
'''


def row(**kw):
    base = dict(round=3, dealer=0, winner=0, reason="stop", yaku=(("sanko", 5, ("01-B", "03-B", "08-B")),),
                base=5, multipliers=(), award=5, scores=(5, 0), calls=(0, 2))
    base.update(kw)
    return LedgerRow(**base)


@pytest.fixture
def japanese(tmp_path, monkeypatch):
    d = tmp_path / "ja" / "LC_MESSAGES"
    d.mkdir(parents=True)
    (d / "koikoi.po").write_text(JA_PO, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n._catalogs.clear()
    before = i18n.language()
    i18n.set_language("ja")
    yield
    i18n.set_language(before)
    i18n._catalogs.clear()


def test_english_is_unchanged():
    names = ("You", "Ann")
    assert headline(row(), names, False) == ("You win the round", "You stopped (shōbu).")
    assert headline(row(winner=1, calls=(0, 2)), names, False)[1] == "Ann stopped (shōbu) after 2 Koi-Koi calls."
    assert headline(row(reason="lucky_hand", winner=1), names, False) == (
        "Lucky hand!", "Ann was dealt a lucky hand and wins at once.")
    assert round_title(row(), 6) == "Round 3 of 6  ·  March"
    cells = ledger_cells(row(calls=(1, 2)), names)
    assert cells["round"] == "3 · Mar" and cells["calls"] == "Koi-Koi called by You and Ann (2×)"
    assert calls_brief(row(calls=(1, 2)), names) == "Koi-Koi: You, Ann 2×"
    assert coach_line(Odds(0.40, 0.30, 0.5, 0.1), 5) == (
        "Coach: the CPU completes a yaku before your hand runs out in about 30% (40% by the round's end) "
        "of deals like this. Stop pays 5 now.")
    for name in Y.BY_NAME:
        for style in Y.STYLES:
            for short in (False, True):
                assert yaku_label(name, style, short) == Y.label(name, style, short)


def test_you_is_the_seat_not_the_name():
    names = ("Alex", "CPU")
    assert headline(row(), names, False, you=0)[0] == "You win the round"
    assert headline(row(), names, False, you=None)[0] == "Alex wins the round"
    assert headline(row(winner=1), names, False, you=0)[0] == "CPU wins the round"


def test_a_language_switch_is_followed(japanese):
    assert keyhelp.KeysScene.title.fget(None) == "キー操作"
    assert [i18n._(text) for _k, text in keyhelp.KEYS][8] == "この一覧"
    assert keyhelp.KEYS[8][1] == "This list"            # the table keeps its English
    assert round_title(row(), None) == "第3局  ·  3月"
    assert headline(row(), ("Alex", "CPU"), False, you=0)[0] == "あなたがこの局の勝ち"
    assert headline(row(winner=1), ("Alex", "CPU"), False, you=0) == (
        "CPUがこの局の勝ち", "CPUはこいこい2回の後に勝負しました。")
    assert yaku_label("sanko", "english") == "三光（さんこう）"
    assert Y.label("sanko", "english") == "Three Brights"   # the engine stays English
    assert i18n._(KIND_JAPANESE[Kind.BRIGHT][0]) == "光"         # marked in the engine, shown translated
    assert KIND_JAPANESE[Kind.BRIGHT][0] == "Hikari"


def test_headings_in_capitals_keep_a_typed_name_as_written_outside_english(japanese):
    """'HARUの役' on the online table: a heading's capitals are English typography; in
    Japanese the Latin in a heading is a name (or a code) and is drawn as typed."""
    import pygame
    from koikoi.ui import widgets as W
    assert W.caps("Haru COMBOS") == "Haru COMBOS" and W.caps("CPU（やさしい）") == "CPU（やさしい）"
    i18n.set_language("en")
    assert W.caps("Haru COMBOS") == "HARU COMBOS"
    i18n.set_language("ja")
    # a ledger column titled with a player's name ("Round") is the name, not the msgid's 局
    pygame.font.init()
    drawn = []
    table = W.Table([W.Column("s0", "Round", literal=True), W.Column("r", "March")], [1],
                    cells=lambda i: {"s0": "5", "r": "0"})
    table.place((0, 0, 400, 200), s=1.0)
    real = W.table.draw_text

    def spy(surface, text, *a, **kw):
        drawn.append(text)
        return real(surface, text, *a, **kw)
    W.table.draw_text, saved = spy, real
    try:
        table.draw(pygame.Surface((400, 200)))
    finally:
        W.table.draw_text = saved
    assert "Round" in drawn and "3月" in drawn, drawn
