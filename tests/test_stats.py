"""Statistics folded from finished match logs."""

import random

from koikoi.engine import RULESETS, KoiKoi, apply, legal_actions, new_match
from koikoi.stats import Record, compute, fold_match
from koikoi.session import SeatConfig

HUMAN_VS_EASY = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "easy"))
FRIENDS = (SeatConfig("human", "Player 1"), SeatConfig("human", "Player 2"))


def finished(seed, preset="nintendo", months=3, koikoi_bias=0.0):
    rng = random.Random(seed)
    s = new_match(RULESETS[preset], seed=seed, months=months)
    while not s.is_over:
        legal = legal_actions(s)
        if KoiKoi() in legal and rng.random() < koikoi_bias:
            s = apply(s, KoiKoi())
        else:
            s = apply(s, rng.choice(legal))
    return s


def test_one_match_adds_up_to_its_ledger():
    s = finished(3, koikoi_bias=0.7)
    rec = fold_match(HUMAN_VS_EASY, s)
    assert rec.matches == 1 and rec.rounds == len(s.ledger) == 3
    assert rec.points_for == s.scores[0] and rec.points_against == s.scores[1]
    assert rec.wins == (s.winner == 0) and rec.draws == (s.winner is None)
    assert rec.rounds_won == sum(1 for r in s.ledger if r.winner == 0)
    assert sum(rec.yaku.values()) == sum(len(r.yaku) for r in s.ledger if r.winner == 0)
    calls = sum(1 for e in s.events if e.type == "koikoi" and e.seat == 0)
    assert rec.koikoi_calls == calls and 0 <= rec.koikoi_paid <= calls


def test_stats_group_by_opponent_and_rules_and_skip_unfinished():
    matches = [(HUMAN_VS_EASY, finished(i)) for i in range(4)]
    matches += [(FRIENDS, finished(10, preset="casual"))]
    unfinished = new_match(RULESETS["casual"], seed=1)
    matches.append((HUMAN_VS_EASY, unfinished))
    stats = compute(matches)
    assert stats.overall.matches == 5
    assert set(stats.by) == {("easy", "nintendo"), ("friend", "casual")}
    assert stats.by[("easy", "nintendo")].matches == 4
    assert stats.by_opponent()["easy"].rounds == 12
    o = stats.overall
    assert o.wins + o.draws + o.losses == 5
    assert o.points_per_round == (o.points_for - o.points_against) / o.rounds


def test_empty_record_rates_are_none():
    r = Record()
    assert r.win_rate is None and r.points_per_round is None and r.koikoi_success is None


def test_statistics_from_index_rows_add_up_like_the_matches_one_by_one():
    """from_entries sums thousands of rows at once; it must agree with compute() on the logs,
    and count nothing but a Record (a conceded row has none; anything else is ignored)."""
    from types import SimpleNamespace
    from koikoi.stats import from_entries, opponent_label, tracked_seat
    matches = [(HUMAN_VS_EASY if i % 3 else FRIENDS, finished(i, "casual" if i % 2 else "nintendo", 1 + i % 3,
                                                            koikoi_bias=0.5)) for i in range(12)]
    rows = [SimpleNamespace(record=fold_match(seats, state), stats_opponent=opponent_label(seats, tracked_seat(seats)),
                            rules=state.rules.name) for seats, state in matches]
    rows.append(SimpleNamespace(record=None, stats_opponent="easy", rules="casual"))
    rows.append(SimpleNamespace(record='{"matches": 1}', stats_opponent="easy", rules="casual"))
    got, want = from_entries(rows), compute(matches)
    assert got.overall == want.overall and got.by == want.by
    assert got.overall.matches == 12
