"""The public API, the deck, the presets table of RULES.md section 5, and bad input."""

import json
from dataclasses import replace

import pytest

import koikoi.engine as engine
from koikoi.engine import (DECK, RULESETS, IllegalAction, Kind, KoiKoi, Play, ReplayError, Rules,
                           apply, card, events_from_json, events_to_json, legal_actions, new_match,
                           replay)

R = RULESETS


def test_public_names():
    for name in ("DECK", "card", "Rules", "RULESETS", "settle", "new_match", "legal_actions", "apply",
                 "replay", "view", "IllegalAction", "events_to_json", "events_from_json"):
        assert hasattr(engine, name), name


def test_the_deck():
    assert len(DECK) == 48 and len({c.id for c in DECK}) == 48
    assert [c.month for c in DECK] == sorted(c.month for c in DECK)
    counts = {k: sum(1 for c in DECK if c.kind is k) for k in Kind}
    assert counts == {Kind.BRIGHT: 5, Kind.ANIMAL: 9, Kind.RIBBON: 10, Kind.CHAFF: 24}
    assert all(sum(1 for c in DECK if c.month == m) == 4 for m in range(1, 13))
    c = card("09-A")
    assert (c.id, c.month, str(c.kind), c.name, c.plant) == ("09-A", 9, "animal", "Sake cup", "Chrysanthemum")
    assert card("11-P").name == "Lightning" and card("12-P3").kind is Kind.CHAFF
    with pytest.raises(KeyError, match="no hanafuda card"):
        card("13-A")
    assert Kind.BRIGHT > Kind.ANIMAL > Kind.RIBBON > Kind.CHAFF


# RULES.md section 5, column by column.
PRESETS = {
    "casual": dict(months=6, months_offered=(1, 3, 6, 12), goko=10, shiko=8, ame_shiko=7, sanko=5,
                   inoshikacho=5, akatan=5, aotan=5, combo_grading="stack", viewing="on",
                   sake_cup_is_chaff=False, lucky_hands="off", field_four_pairs="play_on",
                   seven_plus_double=True, koikoi_multiplier="opponent_called", max_koikoi_calls=None,
                   prompt_when="total_rises", last_turn_auto_stop="both_hands_empty",
                   exhausted_dealer="passes", oya_ken=0, oyagime_tie="redraw", must_play_match=False),
    "classic": dict(months=12, months_offered=(1, 3, 6, 12), goko=15, shiko=8, ame_shiko=7, sanko=6,
                    inoshikacho=5, akatan=6, aotan=6, combo_grading="stack", viewing="on",
                    sake_cup_is_chaff=False, lucky_hands="off", field_four_pairs="play_on",
                    seven_plus_double=False, koikoi_multiplier="opponent_called", max_koikoi_calls=None,
                    prompt_when="total_rises", last_turn_auto_stop="both_hands_empty",
                    exhausted_dealer="keeps", oya_ken=0, oyagime_tie="redraw", must_play_match=False),
    "nintendo": dict(months=12, months_offered=(3, 6, 12), goko=10, shiko=8, ame_shiko=7, sanko=5,
                     inoshikacho=5, akatan=5, aotan=5, akatan_aotan=10, combo_grading="graded",
                     viewing="on", sake_cup_is_chaff=True, lucky_hands="on", lucky_points=6,
                     lucky_both_players="dealer", field_four_pairs="play_on", seven_plus_double=True,
                     koikoi_multiplier="opponent_called", max_koikoi_calls=1, prompt_when="total_rises",
                     last_turn_auto_stop="both_hands_empty", exhausted_dealer="passes", oya_ken=0,
                     oyagime_tie="redraw", must_play_match=False),
    "kk-add-10": dict(months=12, months_offered=tuple(range(1, 13)), akatan_aotan=10,
                      combo_grading="graded", viewing="on", sake_cup_is_chaff=True, lucky_hands="on",
                      lucky_both_players="draw", field_four_pairs="redeal", seven_plus_double=True,
                      koikoi_multiplier="own_calls_and_opponent", max_koikoi_calls=None,
                      prompt_when="combo_new_or_grew", last_turn_auto_stop="mover_hand_empty",
                      exhausted_dealer="keeps", oyagime_tie="kind"),
    "tournament": dict(months=12, viewing="off", combo_grading="graded", lucky_hands="on",
                       lucky_both_players="draw", field_four_pairs="redeal",
                       koikoi_multiplier="opponent_called", max_koikoi_calls=1,
                       prompt_when="total_rises", last_turn_auto_stop="mover_hand_empty",
                       exhausted_dealer="keeps", oyagime_tie="kind"),
    "yakuza": dict(months=12, viewing="off", combo_grading="graded", lucky_hands="on",
                   lucky_both_players="dealer", field_four_pairs="redeal",
                   koikoi_multiplier="own_calls_and_opponent", max_koikoi_calls=None,
                   prompt_when="total_rises", last_turn_auto_stop="mover_hand_empty",
                   exhausted_dealer="keeps", oyagime_tie="kind"),
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_match_the_rules_table(preset):
    r = R[preset]
    assert r.name == preset
    for knob, value in PRESETS[preset].items():
        assert getattr(r, knob) == value, f"{preset}.{knob}"


def test_rules_are_frozen_validated_and_round_trip_as_dicts():
    with pytest.raises(Exception):
        R["casual"].goko = 3
    with pytest.raises(ValueError, match="koikoi_multiplier='double'"):
        replace(R["casual"], koikoi_multiplier="double")
    with pytest.raises(ValueError, match="goko=-1"):
        replace(R["casual"], goko=-1)
    with pytest.raises(ValueError, match="never ends"):
        replace(R["casual"], months=None)
    for r in R.values():
        assert Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    with pytest.raises(ValueError, match="unknown rule knobs: bogus"):
        Rules.from_dict({**R["casual"].to_dict(), "bogus": 1})


def test_new_match_rejects_bad_arguments():
    with pytest.raises(TypeError):
        new_match("casual", seed=1)
    with pytest.raises(TypeError):
        new_match(R["casual"], seed="1")
    with pytest.raises(ValueError):
        new_match(R["casual"], seed=1, months=0)
    assert new_match(R["casual"], seed=1).months == 6
    assert new_match(R["casual"], seed=1, months=12).months == 12


@pytest.mark.parametrize("junk", [None, "play", 3, Play("99-Z"), Play(5), KoiKoi, object()])
def test_illegal_actions_raise_clearly_and_change_nothing(junk):
    s = new_match(R["casual"], seed=1)
    before = tuple(s)
    with pytest.raises(IllegalAction):
        apply(s, junk)
    assert tuple(s) == before


def test_legal_actions_do_not_change_the_state():
    s = new_match(R["nintendo"], seed=8)
    before = tuple(s)
    legal = legal_actions(s)
    assert legal and all(a in legal for a in legal) and tuple(s) == before


def _finished(seed=4, months=2):
    import random
    rng = random.Random(seed)
    s = new_match(R["nintendo"], seed=seed, months=months)
    while not s.is_over:
        s = apply(s, rng.choice(legal_actions(s)))
    return s


def test_the_event_log_grows_by_each_actions_events_read_in_any_order():
    # State.events is the whole log: each action's State extends the one before, and every
    # State's log replays to it, whichever order they are read in.
    import random
    rng = random.Random(11)
    states = [new_match(R["nintendo"], seed=11, months=3)]
    while not states[-1].is_over:
        states.append(apply(states[-1], rng.choice(legal_actions(states[-1]))))
    logs = [s.events for s in states]
    assert all(type(e) is tuple and len(e) for e in logs)
    for before, after in zip(logs, logs[1:]):
        assert len(after) > len(before) and after[:len(before)] == before
    for i in rng.sample(range(len(states)), 20) + [0, len(states) - 1, 0]:
        assert states[i].events == logs[i] and replay(logs[i]) == states[i]
    assert sum(e.type == "round_ended" for e in logs[-1]) == 3
    assert hash(replay(logs[-1])) == hash(states[-1])
    # A long match: comparing two States walks their chains, which stay short.
    s = new_match(R["nintendo"], seed=12, months=120)    # MONTHS_MAX
    while not s.is_over:
        s = apply(s, rng.choice(legal_actions(s)))
    again = replay(s.events)
    assert again == s and hash(again) == hash(s) and again.events == s.events


def test_replay_refuses_a_tampered_log():
    s = _finished()
    events = list(s.events)
    i = next(k for k, e in enumerate(events) if e.type == "played")
    events[i] = events[i]._replace(card="12-B" if events[i].card != "12-B" else "01-B")
    with pytest.raises(ReplayError, match=f"event {i}"):
        replay(events)
    # a changed deal
    j = next(k for k, e in enumerate(events) if e.type == "round_dealt")
    bad = list(s.events)
    bad[j] = bad[j]._replace(stock=tuple(reversed(bad[j].stock)))
    with pytest.raises(ReplayError):
        replay(bad)
    # a forged score
    k = next(k for k, e in enumerate(s.events) if e.type == "round_ended")
    bad = list(s.events)
    bad[k] = bad[k]._replace(row=bad[k].row._replace(award=999))
    with pytest.raises(ReplayError):
        replay(bad)
    with pytest.raises(ReplayError):
        replay([])
    with pytest.raises(ReplayError):
        replay(s.events[:-1])  # truncated in the middle of what the rules do


def test_replay_of_any_prefix_that_ends_at_a_decision():
    s = _finished()
    cut = [k for k, e in enumerate(s.events) if e.type == "played"][5]
    # the prefix up to just before a player's action is a valid log of an unfinished match
    part = replay(s.events[:cut])
    assert not part.is_over and part.events == s.events[:cut]


@pytest.mark.parametrize("text", ["", "{", "[]", '{"format":1}', '{"format":99,"events":[]}',
                                  '{"format":1,"events":[{"type":"nope"}]}',
                                  '{"format":1,"events":[{"type":"koikoi","seat":0}]}'])
def test_events_from_json_rejects_malformed_logs(text):
    with pytest.raises(ValueError):
        events_from_json(text)


def test_json_round_trip_is_exact_and_readable():
    s = _finished()
    text = events_to_json(s.events)
    assert events_from_json(text) == s.events
    assert '"type":"round_dealt"' in text and "\n" in text
