"""The review's JSON codec and its cache: round trips, hostile data, unreadable files."""

from __future__ import annotations

import json
import os

import pytest

from koikoi.ai import make_player
from koikoi.engine import RULESETS, ChooseMatch, KoiKoi, Play, Stop, apply, legal_actions, new_match, view
from koikoi.review import (FORMAT, GOOD, MISTAKE, Decision, MatchReview, Option, RoundReview,
                           analyse_match, cache_path, load_cached, load_partial, save_cached)
from koikoi.review.model import action_data, action_from_data


def _match(months=2, seed=3):
    s = new_match(RULESETS["nintendo"], seed=seed, months=months)
    players = [make_player("medium", seed=1), make_player("easy", seed=2)]
    while not s.is_over:
        s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    return s


def _review():
    d = Decision(1, 12, 0, "play", Play("08-P1"), Play("08-P1"),
                 (Option(Play("08-P1"), 7.5, 0.61, 0.0), Option(Play("11-P", None), 3.9, None, 0.7)),
                 0.0, GOOD, "Good: it takes Moon, your third bright: Sankō.")
    e = Decision(1, 20, 0, "decide", KoiKoi(), Stop(),
                 (Option(Stop(), 5.0, 0.7, 0.0), Option(KoiKoi(), -12.0, 0.2, 0.9)), 17.0, MISTAKE, "x")
    f = Decision(2, 40, 1, "choose", ChooseMatch("03-P1"), ChooseMatch("03-B"),
                 (Option(ChooseMatch("03-B"), 1.0), Option(ChooseMatch("03-P1"), 0.5, None, 0.1)), 0.5,
                 GOOD, "")
    return MatchReview("0123456789abcdef", (0, 1), (RoundReview(1, 0, (d, e)), RoundReview(2, 1, (f,))),
                       400, {"log_hash": "ab", "events_done": 10, "seconds": 1.5, "style": "both"})


@pytest.fixture
def folder(tmp_path):
    """A folder of its own for the reviews (tmp_path holds the test's game home too)."""
    f = tmp_path / "reviews"
    f.mkdir()
    return f


def test_round_trip_through_json():
    r = _review()
    data = json.loads(json.dumps(r.to_data()))
    assert data["format"] == FORMAT
    assert MatchReview.from_data(data) == r
    for a in (Play("01-B"), Play("01-P1", "01-B"), ChooseMatch("12-P3"), KoiKoi(), Stop()):
        assert action_from_data(json.loads(json.dumps(action_data(a)))) == a


def test_an_analysed_review_reads_back_equal():
    s = _match(months=1)
    r = analyse_match(s.events, (0, 1), match_id="m", budget=8)
    assert MatchReview.from_data(json.loads(json.dumps(r.to_data()))) == r


def _mutations(data):
    """Copies of ``data`` with one thing wrong each."""
    def at(path, value):
        d = json.loads(json.dumps(data))
        x = d
        for k in path[:-1]:
            x = x[k]
        if value is KeyError:
            del x[path[-1]]
        else:
            x[path[-1]] = value
        return d
    dec = ("rounds", 0, "decisions", 0)
    yield at(("format",), FORMAT + 1)
    yield at(("format",), True)
    yield at(("seats",), [0, 0])
    yield at(("seats",), [True])
    yield at(("seats",), "01")
    yield at(("budget",), -1)
    yield at(("budget",), 1.5)
    yield at(("meta",), {"x": [1]})
    yield at(("meta",), [])
    yield at(("rounds",), {})
    yield at(("rounds", 0, "seat"), 2)
    yield at(("rounds", 0, "round"), 0)
    yield at(("rounds", 0, "extra"), 1)
    yield at(dec + ("verdict",), "brilliant")
    yield at(dec + ("kind",), "oyagime")
    yield at(dec + ("loss",), -1)
    yield at(dec + ("loss",), "1")
    yield at(dec + ("reason",), "x" * 10_000)
    yield at(dec + ("reason",), None)
    yield at(dec + ("options",), [])
    yield at(dec + ("chosen",), {"type": "play", "card": "13-Z", "target": None})
    yield at(dec + ("chosen",), {"type": "play", "card": "01-B"})
    yield at(dec + ("chosen",), {"type": "dance"})
    yield at(dec + ("chosen",), ["play", "01-B"])
    yield at(dec + ("best",), {"type": "stop", "really": True})
    yield at(dec + ("options", 0, "win"), 1.5)
    yield at(dec + ("options", 0, "points"), None)
    yield at(dec + ("index",), KeyError)
    yield at(("match_id",), 7)


def test_from_data_refuses_anything_malformed():
    data = _review().to_data()
    for bad in [None, 0, "review", [], [data], {}, {"format": FORMAT}, *_mutations(data)]:
        with pytest.raises(ValueError):
            MatchReview.from_data(bad)
    huge = json.loads(json.dumps(data))
    huge["rounds"] = huge["rounds"] * 3000
    with pytest.raises(ValueError):
        MatchReview.from_data(huge)


def test_the_cache_is_used_for_the_same_log_only(folder):
    s = _match()
    r = analyse_match(s.events, (0,), match_id="abc", budget=8)
    path = save_cached(folder, r)
    assert path == cache_path(folder, "abc") and path.name == "abc.review.json"
    assert load_cached(folder, "abc", (0,), s.events, budget=8) == r
    assert load_cached(folder, "abc", (0,), s.events) is None              # another budget
    assert load_cached(folder, "abc", (0, 1), s.events, budget=8) is None  # other seats
    assert load_cached(folder, "other", (0,), s.events, budget=8) is None  # no such file
    other = _match(seed=9)
    assert load_cached(folder, "abc", (0,), other.events, budget=8) is None  # another log
    assert load_cached(folder, "../abc", (0,), s.events, budget=8) is None
    assert sorted(p.name for p in folder.iterdir()) == ["abc.review.json"]   # nothing set aside


def test_a_cache_of_the_first_rounds_is_partial(folder):
    s = _match()
    first_end = next(i for i, e in enumerate(s.events) if e.type == "round_ended")
    early = analyse_match(s.events[:first_end + 3], (0,), match_id="abc", budget=8)
    save_cached(folder, early)
    assert load_cached(folder, "abc", (0,), s.events, budget=8) is None
    assert load_partial(folder, "abc", (0,), s.events, budget=8) == early


@pytest.mark.parametrize("content", [b"not json", b"{\"format\": %d}" % FORMAT, b"[" * 5000, b"\xff\xfe",
                                     b"{\"format\": %d, \"rounds\": 5}" % FORMAT, b"\x00" * 100])
def test_an_unreadable_cache_is_set_aside_never_deleted(folder, content):
    s = _match(months=1)
    path = cache_path(folder, "abc")
    path.write_bytes(content)
    assert load_cached(folder, "abc", (0,), s.events, budget=8) is None
    assert not path.exists()
    aside = [p for p in folder.iterdir() if p.name.startswith("abc.review.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == content


def test_another_formats_cache_is_not_used_and_left_to_be_written_over(folder):
    s = _match(months=1)
    path = cache_path(folder, "abc")
    path.write_text(json.dumps({"format": FORMAT + 1, "anything": "new"}))
    assert load_cached(folder, "abc", (0,), s.events, budget=8) is None
    assert path.exists() and len(list(folder.iterdir())) == 1
    r = analyse_match(s.events, (0,), match_id="abc", budget=8)
    save_cached(folder, r)
    assert load_cached(folder, "abc", (0,), s.events, budget=8) == r


def test_a_cache_that_is_a_folder_or_a_link_outside_is_set_aside(folder):
    s = _match(months=1)
    path = cache_path(folder, "abc")
    path.mkdir()
    assert load_cached(folder, "abc", (0,), s.events, budget=8) is None
    assert not path.exists()
    outside = folder.parent / (folder.name + "-outside.json")
    outside.write_text("{}")
    os.symlink(outside, path)
    assert load_cached(folder, "abc", (0,), s.events, budget=8) is None
    assert outside.read_text() == "{}" and not os.path.lexists(path)


def test_an_unwritable_cache_folder_is_not_an_error(folder):
    blocker = folder / "file"
    blocker.write_text("x")
    assert save_cached(blocker, _review()) is None
