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


def _brute_force(waiting, now):
    """The policy written the slow obvious way: every candidate looked at."""
    pairs, taken = [], set()
    for a in sorted(waiting, key=lambda x: (x.since, x.key)):
        if a.key in taken:
            continue
        cands = [b for b in waiting if b.key not in taken and can_pair(a, b, now)]
        if cands:
            b = min(cands, key=lambda b: abs(a.rating - b.rating))
            taken.update((a.key, b.key))
            pairs.append((a.key, b.key))
    return pairs


def test_fast_scan_equals_looking_at_everyone():
    import random
    rng = random.Random(27)
    for trial in range(300):
        n = rng.randint(0, 40)
        ws = [Waiter(f"k{i}", rng.choice(["standard", "koikoi-3"]), rng.choice([6, 12]),
                     rng.gauss(1500, 250), rng.uniform(0, 80)) for i in range(n)]
        now = rng.uniform(0, 90)
        assert sorted((a.key, b.key) for a, b in pair(ws, now)) == sorted(_brute_force(ws, now)), trial
