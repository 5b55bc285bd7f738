import pytest

from koikoi.ladder.ratings import Rating, after_match, update


def test_glickman_example_as_in_the_library_tests():
    # The worked example of Glickman's Glicko-2 paper, the glicko2 library's own test:
    # 1500/200 beats 1400/30, loses to 1550/100 and 1700/300 -> 1464.05, 151.52, 0.05999
    r = update(Rating(1500, 200, 0.06),
               [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert round(r.rating, 2) == 1464.05
    assert round(r.rd, 2) == 151.52
    assert round(r.vol, 5) == 0.05999


def test_match_moves_both_from_the_old_pair():
    w, lo = after_match(Rating(), Rating())
    assert w.rating > 1500 > lo.rating
    assert w.rating - 1500 == pytest.approx(1500 - lo.rating)
    assert w.rd < 350 and lo.rd < 350


def test_upset_moves_more_than_expected_win():
    upset, _ = after_match(Rating(1400, 80), Rating(1700, 80))
    expected, _ = after_match(Rating(1700, 80), Rating(1400, 80))
    assert upset.rating - 1400 > expected.rating - 1700 > 0


def test_no_games_widens_deviation():
    assert update(Rating(1600, 50, 0.06), []).rd > 50
