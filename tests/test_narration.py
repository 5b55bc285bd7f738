"""koikoi.narration: every event in words, cards by name in each name style, never an id,
never a hidden card."""

from __future__ import annotations

import logging
import random
import re

import pytest

from koikoi import narration as N
from koikoi.engine import DECK, RULESETS, Kind, apply, legal_actions, new_match, public_event
from koikoi.engine import yaku as Y
from koikoi.engine.events import (EVENT_TYPES, Chose, FieldSwept, Flipped, KoiKoiCalled, LedgerRow, LuckyHand,
                                  MatchEnded, Misdeal, Played, RoundDealt, RoundEnded, Stopped, YakuMade)

CARD_ID = re.compile(r"\d\d-[A-Z]")
STYLES = ("both", "english", "romaji")
NAMES = ("You", "CPU (Hard)")


def random_match(rules: str, seed: int, months=None):
    rng = random.Random(seed)
    st = new_match(RULESETS[rules], seed=seed, months=months)
    while not st.is_over:
        st = apply(st, rng.choice(legal_actions(st)))
    return st


def rare_events():
    """Events random play may not reach under any preset: every misdeal, a sweep, a lucky hand."""
    return [Misdeal(1, "four_of_a_month", ("03-B", "03-RP", "03-P1", "03-P2")),
            Misdeal(2, "four_pairs", ("01-B", "01-P1", "02-A", "02-P1", "05-A", "05-R", "09-A", "09-P2")),
            Misdeal(3, "lucky_hand", ("01-B", "01-RP", "01-P1", "01-P2", "02-A", "03-B", "04-A", "05-A")),
            Misdeal(3, "something_newer", ()),
            FieldSwept(1, ("08-B", "08-A", "08-P1", "08-P2"), ("01-B", "02-A", "03-B", "04-A")),
            LuckyHand(0, ("teshi",), 6, ("01-B", "01-RP", "01-P1", "01-P2", "02-A", "03-B", "04-A", "05-A")),
            LuckyHand(1, ("teshi", "kuttsuki"), 12, ("01-B", "01-RP", "01-P1", "01-P2", "02-A", "02-P1", "03-B",
                                                     "03-P1"))]


@pytest.fixture(scope="module")
def matches():
    out = []
    for rules in RULESETS:
        for seed in range(4):
            out.append(random_match(rules, seed * 31 + len(rules), months=3))
    return out


def test_every_event_of_random_matches_gets_a_sentence_without_ids(matches):
    seen = set()
    for st in matches:
        events = list(st.events) + rare_events()
        for e in events:
            seen.add(type(e))
            for seat in (0, 1):
                public = public_event(e, seat)
                for style in STYLES:
                    for you in (seat, None):
                        text = N.sentence(public, NAMES, seat=seat, style=style, you=you)
                        assert text and text.strip(), (e, seat, style)
                        assert not CARD_ID.search(text), text
                        assert "{" not in text and "}" not in text, text
                        assert text[0].isupper() or text[0].isdigit(), text
                        # the raw event reads the same: nothing hidden is ever read
                        assert N.sentence(e, NAMES, seat=seat, style=style, you=you) == text
                        assert N.sentence(e, NAMES, style=style, you=you) == text
    assert seen == set(EVENT_TYPES.values())


def test_a_deal_names_no_card_of_a_hidden_hand(matches):
    dealt = [e for st in matches for e in st.events if isinstance(e, RoundDealt)]
    assert dealt
    for e in dealt:
        for seat in (0, 1):
            for style in STYLES:
                text = N.sentence(public_event(e, seat), NAMES, seat=seat, style=style, you=seat)
                for c in e.hands[1 - seat] + e.stock:
                    assert N.card_name(c, style) not in text


def test_card_names_in_every_style():
    for style in (*STYLES, "nonsense"):
        names = [N.card_name(c.id, style) for c in DECK]
        assert all(n and not CARD_ID.search(n) for n in names)
    english = {c.id: N.card_name(c.id, "english") for c in DECK}
    romaji = {c.id: N.card_name(c.id, "romaji") for c in DECK}
    for c in DECK:
        assert N.card_name(c.id, "both") == f"{english[c.id]} ({romaji[c.id]})"
        assert N.card_name(c.id, "nonsense") == N.card_name(c.id)  == N.card_name(c.id, "both")
        assert N.card_name(c, "english") == english[c.id]       # a Card reads as its id
        assert romaji[c.id].startswith(N.PLANTS_ROMAJI[c.month - 1])
        if c.kind == Kind.CHAFF and c.id != "11-P":
            assert english[c.id] in (f"a {c.plant} plain", f"an {c.plant} plain")
            assert romaji[c.id].endswith(" no Kasu")
    # every card but the plain chaff has a name of its own
    special = [english[c.id] for c in DECK if c.kind != Kind.CHAFF or c.id == "11-P"]
    assert len(special) == len(set(special)) == 25
    assert english["01-B"] == "Crane" and romaji["01-B"] == "Matsu ni Tsuru"
    assert english["11-P"] == "Lightning" and romaji["11-P"] == "Yanagi no Kasu"
    assert english["01-P1"] == english["01-P2"] == "a Pine plain"
    assert english["05-P1"] == "an Iris plain"
    assert english["01-RP"] == "Pine poetry ribbon" and romaji["01-RP"] == "Matsu ni Akatan"
    assert english["06-RB"] == "Peony blue ribbon" and romaji["06-RB"] == "Botan ni Aotan"
    assert english["11-R"] == "Willow ribbon" and romaji["11-R"] == "Yanagi ni Tanzaku"
    assert english["09-A"] == "Sake cup" and english["12-B"] == "Phoenix"
    with pytest.raises(KeyError):
        N.card_name("13-B")


def test_sentences_read_as_the_examples():
    s = N.sentence
    assert s(Played(0, "01-B", None, ("01-P1",)), NAMES, you=0, style="english") == \
        "You played Crane and took a Pine plain."
    assert s(Played(1, "01-B", None, ("01-P1",)), ("You", "CPU"), you=0, style="english") == \
        "CPU played Crane and took a Pine plain."
    assert s(Flipped(1, "08-A", ()), ("You", "CPU"), you=0, style="english") == \
        "CPU turned up Geese; it matched nothing."
    assert s(Flipped(1, "08-A", ()), ("You", "CPU"), you=0, style="both") == \
        "CPU turned up Geese (Susuki ni Kari); it matched nothing."
    assert s(Played(0, "03-P1", "03-B", ("03-B", "03-RP", "03-P2")), NAMES, you=0, style="english") == \
        "You played a Cherry plain and took Curtain, Cherry poetry ribbon and a Cherry plain."
    assert s(Flipped(0, "11-P", None), NAMES, you=0, style="english") == \
        "You turned up Lightning; it matches two field cards."
    assert s(Chose(0, "11-P", "11-A"), NAMES, you=0, style="romaji") == \
        "You took Yanagi ni Tsubame with Yanagi no Kasu."
    assert s(KoiKoiCalled(1, 2), ("You", "CPU"), you=0) == "CPU calls Koi-Koi (call 2)."
    assert s(KoiKoiCalled(0, 1), ("You", "CPU"), you=0) == "You call Koi-Koi."
    assert s(KoiKoiCalled(0, 1), ("Ann", "Bo"), you=None) == "Ann calls Koi-Koi."
    assert s(Stopped(1, False), ("You", "CPU"), you=0) == "CPU stops (Shōbu)."
    assert s(YakuMade(0, (("sanko", 6), ("tane", 1)), 7), NAMES, you=0, style="english") == \
        "You have Three Brights (6) and Animals (1): 7 points."
    assert s(YakuMade(1, (("kasu", 1),), 1), ("You", "CPU"), you=0, style="romaji") == "CPU has Kasu (1): 1 point."
    assert s(YakuMade(1, (("kasu", 1),), 1), ("You", "CPU"), you=0) == "CPU has Kasu · Chaff (1): 1 point."
    assert s(FieldSwept(1, ("08-B", "08-A", "08-P1", "08-P2"), ()), ("You", "CPU"), you=0, style="english") == \
        "All four Pampas cards lie in the field: CPU takes them."
    assert s(RoundDealt(2, 1, ((), ()), (), ()), ("You", "CPU"), you=0) == \
        "Round 2 (February) is dealt; CPU deals and plays first."
    assert s(MatchEnded(0, (30, 12)), ("You", "CPU"), you=0) == "You win the match, 30 to 12."
    assert s(MatchEnded(None, (5, 5)), ("You", "CPU"), you=0) == "The match ends in a draw, 5 to 5."
    assert s(object(), NAMES) is None


def test_round_results_in_words():
    def row(**kw):
        base = dict(round=1, dealer=0, winner=0, reason="stop", yaku=(("sanko", 6, ()), ("tane", 1, ())), base=7,
                    multipliers=(), award=7, scores=(7, 0), calls=(0, 0))
        base.update(kw)
        return RoundEnded(LedgerRow(**base), ((), ()))
    s = N.sentence
    assert s(row(), ("You", "CPU"), you=0, style="english") == \
        "You win the round with Three Brights (6) and Animals (1): 7 points."
    assert s(row(winner=1, multipliers=(("7 points or more", 2), ("opponent called Koi-Koi", 2)), award=28),
             ("You", "CPU"), you=0, style="english") == \
        ("CPU wins the round with Three Brights (6) and Animals (1): "
         "7 ×2 (7 points or more) and ×2 (you called Koi-Koi) = 28 points.")
    assert "Ann called Koi-Koi 2 times" in s(row(multipliers=(("own Koi-Koi ×2", 3),), award=21), ("Ann", "Bo"))
    assert s(row(winner=None, reason="exhausted", yaku=(), base=0, award=0), NAMES) == "No yaku this round: no game."
    assert s(row(winner=None, reason="lucky_draw", yaku=(), base=0, award=0), NAMES) == \
        "Both players hold lucky hands: a draw."
    assert s(row(winner=1, reason="exhausted", yaku=(("oya_ken", 1, ()),), base=1, award=1), ("You", "CPU"),
             you=0, style="english") == "CPU wins the round with Dealer's Privilege (1): 1 point."


def test_turn_summary_matches_the_examples():
    events = [Played(1, "01-B", None, ("01-P1",)), Flipped(1, "08-A", ())]
    assert N.turn_summary(events, 1, "english") == ("played Crane and took a Pine plain; turned up Geese",
                                                    ["01-B", "01-P1", "08-A"])
    events = [Played(0, "03-RP", None, ()), Flipped(0, "03-B", ("03-P1",)), YakuMade(0, (("kasu", 1),), 1),
              KoiKoiCalled(0, 1)]
    assert N.turn_summary(events, 0, "english") == (
        "played Cherry poetry ribbon; turned up Curtain, taking a Cherry plain; called Koi-Koi",
        ["03-RP", "03-B", "03-P1"])
    events = [Played(0, "11-R", None, ()), Flipped(0, "11-P", None), Chose(0, "11-P", "11-A")]
    assert N.turn_summary(events, 0, "romaji") == (
        "played Yanagi ni Tanzaku; turned up Yanagi no Kasu; took Yanagi ni Tsubame with it",
        ["11-R", "11-P", "11-A"])
    # only the seat's own turn counts
    assert N.turn_summary([Played(1, "01-B", None, ())], 0, "english") == ("", [])
    text, cards = N.turn_summary([Played(0, "01-B", None, ("01-P1",))], 0, "both")
    assert text == "played Crane (Matsu ni Tsuru) and took a Pine plain (Matsu no Kasu)"


def test_card_and_yaku_names_follow_the_style_setting():
    for name in Y.CAPTURE_ORDER:
        for style in STYLES:
            text = N.sentence(YakuMade(0, ((name, 5),), 5), NAMES, you=0, style=style)
            assert Y.label(name, style) in text


def test_templates_are_marked_for_translation():
    """No user-visible sentence is glued from f-string fragments: the only f-strings build the
    rōmaji card names (names, not sentences)."""
    import inspect
    src = inspect.getsource(N)
    fstrings = re.findall(r'\bf"[^"]*"', src)
    assert all(" ni " in f or " no " in f for f in fstrings), fstrings


def test_the_session_logs_each_action_in_words_from_the_human_seat(caplog):
    from koikoi.ai import make_player
    from koikoi.session import MatchSession, SeatConfig
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "random"))
    s = MatchSession(RULESETS["casual"], seed=5, months=1, seats=seats)
    players = [make_player("random", seed=1), make_player("random", seed=2)]
    caplog.set_level(logging.INFO, logger="koikoi.session")
    actions = 0
    while not s.state.is_over:
        seat = s.state.to_move
        s.apply(players[seat].choose(s.view(seat), s.legal()))
        actions += 1
    lines = [r.getMessage() for r in caplog.records if r.name == "koikoi.session" and r.levelno == logging.INFO]
    assert len(lines) == actions
    assert not any(CARD_ID.search(line) for line in lines)
    text = "\n".join(lines)
    assert "You played " in text and "CPU (Easy) played " in text and "is dealt" in text
    # the deal's sentence names no card of the CPU's hand
    dealt = next(e for e in s.state.events if isinstance(e, RoundDealt))
    deal_line = next(line for line in lines if "is dealt" in line)
    told = deal_line[deal_line.index("Round "):]
    assert not any(N.card_name(c) in told for c in dealt.hands[1])
