"""Set deals: ``new_match(decks=..., first_dealer=...)``, the public way to fix a deal.

Each set deck is 48 card ids in deal order (dealer's hand, other hand, field, stock top
first); they serve the match's first deals, a misdeal's redeal included, and the seed
deals the rest. They are recorded in MatchStarted, so a log replays (and is checked)
on its own, and ``public_event`` hides them from both seats.
"""

import json
import random
from dataclasses import replace

import pytest
from engine_helpers import deal, full_deck, seed_with_spread

from koikoi.engine import (RULESETS, PickOyagime, ReplayError, apply, events_from_json, events_to_json,
                           legal_actions, new_match, public_event, replay, view)
from koikoi.engine.cards import IDS
from koikoi.engine.events import (DECKS_MAX, MatchStarted, Misdeal, OyagimeSpread, RoundDealt,
                                  event_from_dict, event_to_dict)
from koikoi.engine.table import fold_all

R = RULESETS
PLAIN = deal(  # no misdeal, no lucky hand under any preset
    ["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"],
    ["01-RP", "02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A"],
    ["09-A", "09-RB", "10-A", "10-RB", "11-A", "11-R", "12-B", "01-P1"])
FOUR_IN_FIELD = deal(
    ["02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B", "09-A"],
    ["02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A", "09-RB"],
    ["01-B", "01-RP", "01-P1", "01-P2", "10-A", "10-RB", "11-A", "12-B"])


def shuffled_deck(seed):
    deck = list(IDS)
    random.Random(seed).shuffle(deck)
    return deck


def deals(state):
    return [e for e in state.events if isinstance(e, RoundDealt)]


def in_deck_order(ids):
    return sorted(ids, key=IDS.index)


def as_dealt(deck):
    """A deck as a RoundDealt event shows it: the hands and the field are sets (listed in
    deck order), the stock keeps its order."""
    return (in_deck_order(deck[0:8]) + in_deck_order(deck[8:16]) + in_deck_order(deck[16:24])
            + list(deck[24:]))


def deck_of(dealt):
    """The deck a RoundDealt event was dealt from, as ``as_dealt`` shows it."""
    return (list(dealt.hands[dealt.dealer]) + list(dealt.hands[1 - dealt.dealer])
            + list(dealt.field) + list(dealt.stock))


def play_out(state, seed=0):
    rng = random.Random(seed)
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


# ---------------------------------------------------------------- the deal asked for

@pytest.mark.parametrize("dealer", [0, 1])
def test_a_set_deck_gives_exactly_the_hands_field_and_stock_asked(dealer):
    s = new_match(R["casual"], seed=3, decks=[PLAIN], first_dealer=dealer)
    assert [e.type for e in s.events] == ["match_started", "round_dealt"]   # no oya-gime
    dealt = deals(s)[0]
    assert dealt.dealer == dealer and dealt.round == 1
    assert dealt.hands[dealer] == tuple(in_deck_order(PLAIN[0:8]))
    assert dealt.hands[1 - dealer] == tuple(in_deck_order(PLAIN[8:16]))
    assert dealt.field == tuple(in_deck_order(PLAIN[16:24])) and dealt.stock == tuple(PLAIN[24:])
    assert deck_of(dealt) == as_dealt(PLAIN)
    assert (s.phase_name, s.dealer, s.to_move, s.round) == ("play", dealer, dealer, 1)
    v = view(s, dealer)
    assert {c.id for c in v.hand} == set(PLAIN[0:8])
    assert {c.id for c in v.field} == set(PLAIN[16:24]) and v.stock_count == 24
    assert {c.id for c in view(s, 1 - dealer).hand} == set(PLAIN[8:16])
    # The stock turns up in the order given.
    after = apply(s, legal_actions(s)[0])
    assert [e for e in after.events if e.type == "flipped"][0].card == PLAIN[24]


@pytest.mark.parametrize("dealer", [0, 1])
def test_with_the_oya_gime_played_the_set_deck_is_the_first_deal_after_it(dealer):
    seed = seed_with_spread(lambda sp: (sp[0][:2] < sp[2][:2]) == (dealer == 0)
                            and sp[0][:2] != sp[2][:2])
    plain = new_match(R["casual"], seed=seed)
    s = new_match(R["casual"], seed=seed, decks=(tuple(PLAIN),))
    # The spread is the seed's, as without set decks.
    assert s.events[1] == plain.events[1] and isinstance(s.events[1], OyagimeSpread)
    assert s.phase_name == "oyagime" and s.dealer is None and deals(s) == []
    s = apply(apply(s, PickOyagime(0)), PickOyagime(2))
    dealt = deals(s)[0]
    assert s.dealer == dealt.dealer == dealer
    assert deck_of(dealt) == as_dealt(PLAIN)
    assert set(dealt.hands[dealer]) == set(PLAIN[:8])
    assert replay(s.events) == s


def test_lists_and_tuples_give_the_same_match():
    a = new_match(R["casual"], seed=1, decks=[PLAIN, FOUR_IN_FIELD], first_dealer=0)
    b = new_match(R["casual"], seed=1, decks=(tuple(PLAIN), tuple(FOUR_IN_FIELD)), first_dealer=0)
    assert a == b and a.events[0].decks == (tuple(PLAIN), tuple(FOUR_IN_FIELD))


def test_a_misdeals_redeal_takes_the_next_set_deck():
    s = new_match(R["casual"], seed=2, decks=[FOUR_IN_FIELD, PLAIN], first_dealer=1)
    assert [e.reason for e in s.events if isinstance(e, Misdeal)] == ["four_of_a_month"]
    assert [deck_of(d) for d in deals(s)] == [as_dealt(FOUR_IN_FIELD), as_dealt(PLAIN)]
    assert s.dealer == 1 and s.round == 1


def test_a_round_ended_at_the_deal_uses_a_deck_and_may_end_the_match_in_new_match():
    rules = replace(R["casual"], field_four_of_month="dealer_wins")
    s = new_match(rules, seed=2, months=1, decks=[FOUR_IN_FIELD], first_dealer=0)
    assert s.is_over and s.ledger[0].reason == "field_four" and s.winner == 0
    assert replay(s.events) == s
    s = new_match(rules, seed=2, months=2, decks=[FOUR_IN_FIELD, PLAIN], first_dealer=0)
    assert [deck_of(d) for d in deals(s)] == [as_dealt(FOUR_IN_FIELD), as_dealt(PLAIN)] and s.round == 2


def test_after_the_set_decks_the_seed_deals_as_it_would_have():
    """A set deck stands for one draw of the seed: the deals after the set ones are the
    seed's own deals for those draws (the same as a match without set decks)."""
    rules = replace(R["casual"], months=4)
    plain = play_out(new_match(rules, seed=21, first_dealer=0), seed=1)
    s = play_out(new_match(rules, seed=21, decks=[PLAIN, shuffled_deck(5)], first_dealer=0), seed=1)
    assert len(deals(s)) >= 4 and len(deals(plain)) >= 4
    assert deck_of(deals(s)[0]) == as_dealt(PLAIN)
    assert deck_of(deals(s)[1]) == as_dealt(shuffled_deck(5))
    for k in range(2, min(len(deals(s)), len(deals(plain)))):
        assert deck_of(deals(s)[k]) == deck_of(deals(plain)[k]), k
    # ... and not a repeat of the seed's first deals.
    assert deck_of(deals(s)[2]) != deck_of(deals(plain)[0])


def test_the_first_dealer_alone_skips_the_oya_gime_and_the_seed_deals():
    s = new_match(R["nintendo"], seed=8, first_dealer=1)
    assert s.events[0].first_dealer == 1 and s.events[0].decks == ()
    assert s.dealer == 1 and not any(isinstance(e, OyagimeSpread) for e in s.events)
    assert deals(s)[0].dealer == 1
    assert replay(s.events) == s


# ---------------------------------------------------------------- the log

@pytest.mark.parametrize("preset", sorted(R))
def test_a_match_with_set_decks_replays_from_its_log_and_from_json(preset):
    decks = [shuffled_deck(k) for k in range(3)]
    for first_dealer in (None, 0, 1):
        s = play_out(new_match(R[preset], seed=9, months=3, decks=decks, first_dealer=first_dealer),
                     seed=4)
        assert s.events[0].decks == tuple(map(tuple, decks))
        assert s.events[0].first_dealer == first_dealer
        assert replay(s.events) == s
        text = events_to_json(s.events)
        loaded = events_from_json(text)
        assert loaded == s.events and replay(loaded) == s
        # and up to any turn in the middle
        cut = next(i for i in range(len(s.events) // 2, len(s.events))
                   if s.events[i].type in ("played", "chose", "koikoi"))
        assert replay(s.events[:cut]).events == s.events[:cut]


def test_a_tampered_log_with_set_decks_is_refused():
    s = play_out(new_match(R["casual"], seed=9, months=2, decks=[PLAIN, shuffled_deck(1)],
                           first_dealer=0))
    first = s.events[0]
    other = list(PLAIN)
    other[0], other[30] = other[30], other[0]           # another deck: the deal no longer follows
    for forged in (first._replace(decks=(tuple(other), first.decks[1])),
                   first._replace(decks=()),          # the seed's deal instead
                   first._replace(decks=first.decks[:1]),
                   first._replace(first_dealer=1),
                   first._replace(first_dealer=None)):
        with pytest.raises(ReplayError):
            replay((forged,) + s.events[1:])
    j = next(k for k, e in enumerate(s.events) if isinstance(e, RoundDealt))
    bad = list(s.events)
    bad[j] = bad[j]._replace(stock=tuple(reversed(bad[j].stock)))
    with pytest.raises(ReplayError):
        replay(bad)
    # A deck that is not a deck cannot start a match.
    with pytest.raises(ReplayError, match="cannot start a match"):
        replay((first._replace(decks=(tuple(PLAIN[:47]),)),) + s.events[1:])


def test_an_ordinary_log_is_written_as_before_and_set_fields_are_written_when_set():
    s = new_match(R["casual"], seed=4)
    assert event_to_dict(s.events[0]) == {
        "rules": R["casual"].to_dict(), "seed": 4, "months": R["casual"].months,
        "type": "match_started"}
    s = new_match(R["casual"], seed=4, decks=[PLAIN], first_dealer=1)
    d = event_to_dict(s.events[0])
    assert d["decks"] == [PLAIN] and d["first_dealer"] == 1
    s = new_match(R["casual"], seed=4, first_dealer=0)
    assert "decks" not in event_to_dict(s.events[0])
    assert event_to_dict(s.events[0])["first_dealer"] == 0


def test_an_old_match_started_without_the_new_fields_still_reads_and_replays():
    s = play_out(new_match(R["kk-add-10"], seed=6, months=2))
    old = json.loads(events_to_json(s.events))
    assert set(old["events"][0]) == {"rules", "seed", "months", "type"}   # as old versions wrote
    text = json.dumps(old)
    loaded = events_from_json(text)
    assert loaded[0] == MatchStarted(R["kk-add-10"], 6, 2)
    assert loaded[0].decks == () and loaded[0].first_dealer is None
    assert replay(loaded) == s
    assert event_from_dict({"type": "match_started", "rules": R["casual"].to_dict(), "seed": 1,
                            "months": None}) == MatchStarted(R["casual"], 1, None)


@pytest.mark.parametrize("change, message", [
    ({"decks": [PLAIN[:47]]}, "MatchStarted.decks"),
    ({"decks": [PLAIN[:47] + ["01-B"]]}, "MatchStarted.decks"),
    ({"decks": [PLAIN[:47] + ["13-A"]]}, "MatchStarted.decks"),
    ({"decks": [PLAIN[:47] + [7]]}, "MatchStarted.decks"),
    ({"decks": PLAIN}, "MatchStarted.decks"),
    ({"decks": "01-B"}, "MatchStarted.decks"),
    ({"decks": [PLAIN] * (DECKS_MAX + 1)}, "MatchStarted.decks"),
    ({"decks": None}, "MatchStarted.decks"),
    ({"first_dealer": 2}, "MatchStarted.first_dealer"),
    ({"first_dealer": True}, "MatchStarted.first_dealer"),
    ({"first_dealer": "0"}, "MatchStarted.first_dealer"),
    ({"deck": [PLAIN]}, "unexpected 'deck'"),
])
def test_the_codec_refuses_bad_set_decks(change, message):
    good = event_to_dict(new_match(R["casual"], seed=1, decks=[PLAIN], first_dealer=0).events[0])
    assert event_from_dict(good) == new_match(R["casual"], seed=1, decks=[PLAIN],
                                              first_dealer=0).events[0]
    with pytest.raises(ValueError, match=message):
        event_from_dict({**good, **change})
    text = '{"format":1,"events":[%s]}' % json.dumps({**good, **change})
    with pytest.raises(ValueError, match=message):
        events_from_json(text)


def test_the_codec_still_wants_every_field_that_is_not_optional():
    good = event_to_dict(new_match(R["casual"], seed=1).events[0])
    del good["seed"]
    with pytest.raises(ValueError, match="missing seed"):
        event_from_dict(good)
    dealt = event_to_dict(new_match(R["casual"], seed=1, first_dealer=0).events[1])
    del dealt["stock"]
    with pytest.raises(ValueError, match="missing stock"):
        event_from_dict(dealt)


# ---------------------------------------------------------------- validation

@pytest.mark.parametrize("decks, message", [
    ("01-B", "decks must be a list of decks"),
    (None, "decks must be a list of decks"),
    (iter([PLAIN]), "decks must be a list of decks"),
    ({0: PLAIN}, "decks must be a list of decks"),
    (PLAIN, r"deck 0 must be a list of the 48 card ids, not str \(decks is a list of decks"),
    ([set(PLAIN)], "deck 0 must be a list of the 48 card ids, not set"),
    ([PLAIN, PLAIN[:47]], "deck 1 has 47 cards"),
    ([PLAIN + ["01-B"]], "deck 0 has 49 cards"),
    ([[]], "deck 0 has 0 cards"),
    ([PLAIN[:47] + ["13-A"]], "deck 0, card 47: '13-A' is not a card id"),
    ([PLAIN[:47] + [0]], "deck 0, card 47: 0 is not a card id"),
    ([PLAIN[:47] + ["09-a"]], "deck 0, card 47: '09-a' is not a card id"),
    ([PLAIN[:47] + ["01-B"]], r"deck 0 holds 01-B more than once \(and so lacks "),
    ([PLAIN] * (DECKS_MAX + 1), f"at most {DECKS_MAX} decks"),
])
def test_bad_decks_are_refused_with_a_clear_message(decks, message):
    with pytest.raises(ValueError, match=message):
        new_match(R["casual"], seed=1, decks=decks)


def test_a_missing_card_is_named():
    bad = PLAIN[:47] + [PLAIN[0]]
    with pytest.raises(ValueError, match=f"holds {PLAIN[0]} more than once .and so lacks {PLAIN[47]}"):
        new_match(R["casual"], seed=1, decks=[bad])


@pytest.mark.parametrize("first_dealer", [2, -1, True, False, "0", 0.0])
def test_a_bad_first_dealer_is_refused(first_dealer):
    with pytest.raises(ValueError, match="first_dealer must be a seat"):
        new_match(R["casual"], seed=1, first_dealer=first_dealer)


def test_as_many_decks_as_allowed_are_accepted():
    s = new_match(R["casual"], seed=1, decks=[shuffled_deck(k) for k in range(DECKS_MAX)],
                  first_dealer=0)
    assert len(s.events[0].decks) == DECKS_MAX and len(s.decks) == DECKS_MAX - 1


# ---------------------------------------------------------------- what a seat sees

@pytest.mark.parametrize("seat", [0, 1])
def test_public_event_hides_the_set_decks_from_both_seats(seat):
    decks = [PLAIN, shuffled_deck(3)]
    s = play_out(new_match(R["casual"], seed=9, months=2, decks=decks, first_dealer=0))
    public = public_event(s.events[0], seat)
    assert public.decks == ((None,) * 48, (None,) * 48)
    assert (public.rules, public.seed, public.months, public.first_dealer) == \
        (R["casual"], 9, 2, 0)
    # Of the whole public log, the other seat's dealt hands and the stock show nowhere.
    log = [public_event(e, seat) for e in s.events]
    assert all(c is None for d in log[0].decks for c in d)
    for e in log:
        if isinstance(e, RoundDealt):
            assert set(e.hands[1 - seat]) == {None} and set(e.stock) == {None}
    # A public log does not replay (its decks are not decks).
    with pytest.raises(ReplayError):
        replay(log)
    # The table folds it as any other match: this seat's hand as dealt.
    t = fold_all(log[:2], seat)
    assert t.hand == s.events[1].hands[seat] and t.dealer == 0 and t.phase == "play"
    # An event that sets no decks passes unchanged (and so does the seed).
    plain = new_match(R["casual"], seed=9).events[0]
    assert public_event(plain, seat) is plain


def test_the_state_holds_the_decks_still_to_deal():
    s = new_match(R["casual"], seed=1, decks=[PLAIN, FOUR_IN_FIELD, full_deck()], first_dealer=0)
    assert len(s.decks) == 2 and s.draws == 1
    s = play_out(s)
    assert len(deals(s)) >= 3 and s.decks == () and s.draws == len(deals(s))


def test_the_fast_deal_order_is_the_sort_by_whole_keys_also_when_keys_nearly_tie():
    # rounds._deck_of sorts each card by its key's top 16 bits and must fall back to the whole
    # keys whenever two share them: the deals (and every saved match) depend on this order.
    from koikoi.engine.rounds import _KEYS, _deck_of, _shake, _shuffled
    for seed in range(400):
        for draw in range(4):
            digest = _shake(b"%d/%d" % (seed, draw)).digest(384)
            assert list(_deck_of(digest)) == _shuffled(_KEYS(digest)), (seed, draw)
    rng = random.Random(28)
    for t in range(600):
        raw = bytearray(rng.randbytes(384))
        i, j = rng.sample(range(48), 2)
        if t % 3 == 0:
            raw[8 * j:8 * j + 8] = raw[8 * i:8 * i + 8]           # the same whole key
        elif t % 3 == 1:
            raw[8 * j + 6:8 * j + 8] = raw[8 * i + 6:8 * i + 8]   # the same top 16 bits
        else:
            raw[8 * j + 7] = raw[8 * i + 7]                       # the same top byte only
        digest = bytes(raw)
        assert list(_deck_of(digest)) == _shuffled(_KEYS(digest)), t
