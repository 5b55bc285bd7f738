from koikoi.ladder.matchmaking import Waiter, can_pair, pair, window, BASE_WINDOW


def w(key, rating, since=0.0, preset="standard", length=12):
    return Waiter(key, preset, length, rating, since)


def test_window_widens_then_opens():
    assert window(0) == BASE_WINDOW
    assert window(10) > window(5) > window(0)
    assert window(600) == float("inf")


def test_same_choice_only():
    assert pair([w("a", 1500), w("b", 1500, preset="koikoi-3")], now=100) == []
    assert pair([w("a", 1500), w("b", 1500, length=6)], now=100) == []
    assert len(pair([w("a", 1500), w("b", 1500)], now=0)) == 1


def test_nearest_rating_first():
    got = pair([w("a", 1500, since=0), w("far", 1590, since=1), w("near", 1520, since=2)], now=2)
    assert [(x.key, y.key) for x, y in got] == [("a", "near")]


def test_window_widening_with_wait():
    a, b = w("a", 1500, since=0), w("b", 1800, since=0)
    assert not can_pair(a, b, now=5)
    assert pair([a, b], now=5) == []
    assert len(pair([a, b], now=25)) == 1       # 100 + 10*25 = 350 >= 300


def test_longest_waiter_served_first():
    old = w("old", 1500, since=0)
    new = w("new", 1506, since=50)     # nearer to t than old is, but came later
    target = w("t", 1505, since=60)
    got = pair([new, target, old], now=60)
    assert [(a.key, b.key) for a, b in got] == [("old", "t")]


def test_pairs_disjoint_and_self_never():
    ws = [w(f"p{i}", 1500 + 7 * i, since=i) for i in range(9)] + [w("p0", 1500, since=3)]
    got = pair(ws, now=10)
    keys = [k for a, b in got for k in (a.key, b.key)]
    assert len(keys) == len(set(keys)) and len(got) == 4
    assert not can_pair(w("x", 1500), w("x", 1500), now=0)
