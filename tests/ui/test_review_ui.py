"""The match review in the replay viewer: the marks on the turn markers, the review
box's words, the mistake-jump keys, the background job with its progress and Cancel,
and the Review buttons of the round results and the ledger."""

from __future__ import annotations

import dataclasses
import time

import pygame
import pytest

from harness import button, click, key
from koikoi.engine import RULESETS, Play, action_of
from koikoi.engine.events import RoundEnded
from koikoi.review.model import FORCED, GOOD, INACCURACY, MISTAKE, Decision, MatchReview, RoundReview
from koikoi.session import MatchSession, SeatConfig
from koikoi.ui import widgets as W
from koikoi.ui.scenes import review_panel as RP
from koikoi.ui.scenes.ledger import MatchResultsScene
from koikoi.ui.scenes.replay import ReplayScene, round_steps
from koikoi.ui.scenes.results import RoundResultsScene

pytestmark = pytest.mark.app(seed=7)      # the `app` fixture: tests/ui/conftest.py

LOSS = {GOOD: 0.0, INACCURACY: 0.8, MISTAKE: 2.5, FORCED: 0.0}
KINDS = {"play": "play", "choose": "choose", "koikoi": "decide", "stop": "decide"}


def session(seed=5, months=2, until=None):
    from koikoi.ai import make_player
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "random"))
    s = MatchSession(RULESETS["casual"], seed=seed, months=months, seats=seats)
    players = [make_player("random", seed=1), make_player("random", seed=2)]
    done = until or (lambda st: st.is_over)
    while not done(s.state):
        seat = s.state.to_move
        s.apply(players[seat].choose(s.view(seat), s.legal()))
    return s


def my_steps(s, round_no):
    """(step index, step) of seat 0's decisions in round ``round_no``."""
    steps = round_steps(s.state.events, round_no, ("You", "CPU"), you=0)
    return [(i, p) for i, p in enumerate(steps) if p.seat == 0 and p.kind in KINDS], steps


def hand_review(s, plan: dict) -> MatchReview:
    """A review of seat 0 with ``plan[round]``'s verdicts on its first decisions."""
    rounds = []
    for rnd in range(1, len(s.state.ledger) + 1):
        mine, steps = my_steps(s, rnd)
        decisions = []
        for (i, p), verdict in zip(mine, plan.get(rnd, ())):
            chosen = action_of(s.state.events[p.start])
            best = chosen
            if verdict in (INACCURACY, MISTAKE) and p.kind == "play":
                other = next(c for c in steps[i - 1].hands[0] if c != chosen.card)
                best = Play(other)
            decisions.append(Decision(rnd, p.start, 0, KINDS[p.kind], chosen, best, (), LOSS[verdict], verdict,
                                      f"Reason {rnd}.{i}: it keeps the ribbons in reach."))
        rounds.append(RoundReview(rnd, 0, tuple(decisions)))
    n = len(s.state.ledger)
    return MatchReview(s.id, (0,), tuple(rounds), 4, {"rounds_done": n})


def cached(monkeypatch, review):
    """The review as if it were cached with the match."""
    calls = []

    def load(cache_dir, match_id, seats, events, **kw):
        calls.append((cache_dir, match_id, tuple(seats)))
        return review
    monkeypatch.setattr(RP, "load_cached", load)
    return calls


class FakeJob:
    """A background job the test drives: progress, result or error set by hand."""

    made: list = []

    def __init__(self, log_json, seats, *, match_id, cache_dir, budget=None, **words):
        self.args = (log_json, tuple(seats), match_id, cache_dir, budget, words)
        self.progress, self.done, self.result, self.error = 0.0, False, None, None
        self.started = self.cancelled = self.closed = False
        self.polls = 0
        FakeJob.made.append(self)

    def start(self):
        self.started = True

    def poll(self):
        self.polls += 1

    def cancel(self):
        self.cancelled = self.done = True

    def close(self):
        self.closed = True


@pytest.fixture
def jobs(monkeypatch):
    FakeJob.made = []
    monkeypatch.setattr(RP, "make_job", FakeJob)
    monkeypatch.setattr(RP, "load_cached", lambda *a, **k: None)
    return FakeJob.made


def drawn_texts(monkeypatch, app):
    """Draw a frame; every (text, rect) drawn."""
    out = []
    real = W.draw_text

    def spy(surface, text, font, color, pos, anchor="topleft", **kw):
        r = real(surface, text, font, color, pos, anchor, **kw)
        out.append((text, pygame.Rect(r)))
        return r
    monkeypatch.setattr(W, "draw_text", spy)
    app.draw()
    monkeypatch.setattr(W, "draw_text", real)
    return out


def resize(app, size):
    pygame.display.set_mode(size, pygame.RESIZABLE)
    app.on_window_resized()
    app.step(1 / 60)


# ---------------------------------------------------------------- the words
def test_summary_and_verdict_words():
    def rr(*verdicts):
        return RoundReview(1, 0, tuple(Decision(1, k, 0, "play", Play("x"), Play("y"), (), LOSS[v] * 1.0, v)
                                       for k, v in enumerate(verdicts)))
    assert RP.summary_text(rr(GOOD, FORCED)) == "No mistakes"
    assert RP.summary_text(rr(MISTAKE, MISTAKE, INACCURACY, GOOD)) == "2 mistakes, 1 inaccuracy, about 5.8 points lost"
    assert RP.summary_text(rr(INACCURACY, INACCURACY)) == "2 inaccuracies, about 1.6 points lost"
    assert RP.summary_text(rr(MISTAKE)) == "1 mistake, about 2.5 points lost"
    assert RP.progress_text(0.0, 12) == "Analysing round 1 of 12…"
    assert RP.progress_text(0.2, 12) == "Analysing round 3 of 12…"
    assert RP.progress_text(1.0, 12) == "Analysing round 12 of 12…"
    assert RP.progress_text(0.0, 3, done_before=2) == "Analysing round 3 of 3…"   # only the new round
    assert RP.progress_text(0.5, 6, done_before=2) == "Analysing round 5 of 6…"
    d = Decision(1, 5, 0, "play", Play("01-B"), Play("02-A", "02-P1"), (), 1.84, MISTAKE)
    assert RP.verdict_line(d) == "Mistake: about 1.8 points given away"
    assert RP.best_text(d, "english") == "Best: Play Bush warbler and take a Plum plain"
    assert RP.points_text(1.04) == "about 1.0 point"


# ---------------------------------------------------------------- the marks
def test_marks_sit_on_the_markers_of_the_reviewed_decisions(app, monkeypatch):
    s = session()
    review = hand_review(s, {1: [MISTAKE, GOOD, INACCURACY, FORCED]})
    calls = cached(monkeypatch, review)
    sc = ReplayScene(app, s, 1, review=True)
    app.push(sc)
    app.step(1 / 60)
    assert calls == [(app.storage.history_dir, s.id, (0,))]        # the cache of the match's folder
    assert sc.reviewed and not sc.review.running
    mine, steps = my_steps(s, 1)
    expected = dict(zip([i for i, _p in mine], [MISTAKE, GOOD, INACCURACY, FORCED]))
    assert sc.marks() == expected
    assert all(steps[i].seat == 0 for i in sc.marks())             # never on the CPU's turns
    app.draw()
    for i, verdict in expected.items():
        if verdict == FORCED:
            assert i not in sc.mark_rects                         # no mark for no real choice
            continue
        r = sc.mark_rects[i]
        assert r.bottom <= sc._marker_rects()[i].top             # above its own marker
        assert abs(r.centerx - sc._marker_rects()[i].centerx) <= 2
        if verdict != GOOD:
            assert tuple(app.screen.get_at((r.x + 2, r.centery)))[:3] == RP.VERDICT_COLORS[verdict]
    assert len(sc.mark_rects) == 3


def test_the_review_box_says_verdict_best_reason_and_summary(app, monkeypatch):
    s = session()
    review = hand_review(s, {1: [GOOD, MISTAKE, INACCURACY], 2: [MISTAKE]})
    cached(monkeypatch, review)
    sc = ReplayScene(app, s, 1, review=True)
    app.push(sc)
    app.step(1 / 60)
    mine, steps = my_steps(s, 1)
    mistake_step = mine[1][0]
    d = review.decision_at(steps[mistake_step].start)
    for size in ((1280, 720), (1920, 1080)):
        resize(app, size)
        sc.go(mistake_step)
        texts = drawn_texts(monkeypatch, app)
        box = sc.review_rect
        inside = [(t, r) for t, r in texts if box.contains(r)]
        words = " ".join(t for t, _r in inside)
        assert "Your play this round: 1 mistake, 1 inaccuracy, about 3.3 points lost" in words
        assert "?  Mistake: about 2.5 points given away" in words
        best = RP.action_words(d.best, sc.style)
        assert "Best: " in words and best.split()[1] in words
        assert f"Reason 1.{mistake_step}" in words
        # every word of the panels stays in its box, the boxes and buttons in the window
        window = pygame.Rect((0, 0), size)
        assert window.contains(box) and not box.colliderect(sc.desc_rect)
        for t, r in texts:
            if r.colliderect(box):
                assert box.contains(r), t
            if r.colliderect(sc.desc_rect):
                assert sc.desc_rect.contains(r), t
        rects = [b.rect for b in sc.widgets]
        assert all(window.contains(r) for r in rects)
        assert not any(a.colliderect(b) for k, a in enumerate(rects) for b in rects[k + 1:])
        # a step of the CPU says it is not reviewed; the summary stays
        cpu = next(i for i, p in enumerate(steps) if p.seat == 1)
        sc.go(cpu)
        words = " ".join(t for t, r in drawn_texts(monkeypatch, app) if box.contains(r))
        assert "CPU (Easy)'s choices are not reviewed." in words and "1 mistake" in words


def test_a_reason_too_long_for_the_box_shows_whole_on_hover(app, monkeypatch):
    """A reason longer than the review box holds ends in "…", and the pointer on it shows
    every word of it (issue 30's one text rule), at both sizes."""
    s = session()
    review = hand_review(s, {1: [MISTAKE]})
    long = ("Better: play a Chrysanthemum plain, which takes the Sake cup: one card from "
            "Hanami-zake and Tsukimi-zake, and it keeps the Moon safe from the CPU, who needs "
            "one card for Tsukimi-zake and two for Sankō (about 3.5 points more). ") * 3
    r1 = review.rounds[0]
    r1 = dataclasses.replace(r1, decisions=(dataclasses.replace(r1.decisions[0], reason=long),)
                             + r1.decisions[1:])
    review = dataclasses.replace(review, rounds=(r1,) + review.rounds[1:])
    cached(monkeypatch, review)
    sc = ReplayScene(app, s, 1, review=True)
    app.push(sc)
    app.step(1 / 60)
    mine, steps = my_steps(s, 1)
    for size in ((1280, 720), (1920, 1080)):
        resize(app, size)
        sc.go(mine[0][0])
        texts = drawn_texts(monkeypatch, app)
        inside = [(t, r) for t, r in texts if sc.review_rect.contains(r)]
        assert any(t.endswith("…") for t, _r in inside)
        cut = [(r, whole) for r, whole in W.cuts_shown() if whole == long]
        assert cut and sc.review_rect.contains(cut[0][0])


# ---------------------------------------------------------------- jumping to the mistakes
def test_mistake_keys_jump_to_the_errors_and_on_into_the_next_round(app, monkeypatch):
    s = session()
    review = hand_review(s, {1: [GOOD, MISTAKE, GOOD, INACCURACY], 2: [GOOD, GOOD, MISTAKE]})
    cached(monkeypatch, review)
    sc = ReplayScene(app, s, 1, review=True)
    app.push(sc)
    app.step(1 / 60)
    one = [i for i, _p in my_steps(s, 1)[0]]
    two = [i for i, _p in my_steps(s, 2)[0]]
    key(app, pygame.K_n)
    assert (sc.round_no, sc.index) == (1, one[1])
    key(app, pygame.K_n)
    assert (sc.round_no, sc.index) == (1, one[3])               # the inaccuracy too
    key(app, pygame.K_n)
    assert (sc.round_no, sc.index) == (2, two[2])               # on into round 2
    assert sc.marks()[two[2]] == MISTAKE and sc.reviewed
    key(app, pygame.K_n)
    assert (sc.round_no, sc.index) == (2, two[2])               # none after it: stays, says so
    assert app.toasts and "No more mistakes" in app.toasts[-1].text
    key(app, pygame.K_n, mod=pygame.KMOD_SHIFT)
    assert (sc.round_no, sc.index) == (1, one[3])
    key(app, pygame.K_n, mod=pygame.KMOD_LSHIFT)
    assert (sc.round_no, sc.index) == (1, one[1])
    click(app, sc.review_b)                                      # the button: the next one
    assert sc.review_b.label == "Next mistake" and (sc.round_no, sc.index) == (1, one[3])


# ---------------------------------------------------------------- the job
def test_review_runs_in_the_background_with_progress_and_cancel(app, monkeypatch, jobs):
    s = session()
    sc = ReplayScene(app, s, 1)
    app.push(sc)
    app.step(1 / 60)
    assert not sc.review_active and sc.review_b.label == "Review"
    assert RP.review_for(app, s) is not sc.review            # only a review asked for is kept
    key(app, pygame.K_r)
    assert len(jobs) == 1 and jobs[0].started and sc.review.running
    assert RP.review_for(app, s) is sc.review
    log_json, seats, match_id, cache_dir, _budget, words = jobs[0].args
    assert seats == (0,) and match_id == s.id and cache_dir == app.storage.history_dir
    assert words == {"opponent": "the CPU", "style": sc.style}
    assert sc.review_b.label == "Cancel" and sc.animating
    jobs[0].progress = 0.6
    app.step(1 / 60)
    assert jobs[0].polls >= 1
    texts = [t for t, r in drawn_texts(monkeypatch, app) if sc.review_rect.contains(r)]
    assert "Analysing round 2 of 2…" in texts and any("60% done" in t for t in texts)
    key(app, pygame.K_RIGHT)                                     # the viewer works meanwhile
    assert sc.index == 1
    key(app, pygame.K_r)
    assert len(jobs) == 1                                        # R does not start a second
    key(app, pygame.K_ESCAPE)                                    # Esc cancels, not closes
    assert jobs[0].cancelled and jobs[0].closed
    assert app.top is sc and not sc.review.running and not sc.review_active
    assert sc.review_b.label == "Review"
    # again, and it fails: a message, and the viewer goes on
    click(app, sc.review_b)
    assert len(jobs) == 2 and sc.review.running
    jobs[1].done, jobs[1].error = True, "the process ended"
    app.step(1 / 60)
    assert not sc.review.running and "the process ended" in sc.review.error
    assert any("the process ended" in t.text for t in app.toasts)
    words = " ".join(t for t, r in drawn_texts(monkeypatch, app) if sc.review_rect.contains(r))
    assert "The review could not be made" in words and "Press R to try again." in words
    key(app, pygame.K_RIGHT)
    assert sc.index == 2
    # and once more, to the end: the marks come
    key(app, pygame.K_r)
    jobs[2].done, jobs[2].result = True, hand_review(s, {1: [MISTAKE]})
    app.step(1 / 60)
    assert sc.reviewed and list(sc.marks().values()) == [MISTAKE] and sc.review.error is None
    key(app, pygame.K_ESCAPE)
    assert app.top is not sc


# ---------------------------------------------------------------- the entry points
def test_the_round_results_review_button_opens_that_round_reviewing(app, monkeypatch, jobs):
    s = session(months=3, until=lambda st: len(st.ledger) == 2)
    assert not s.state.is_over
    ended = [e for e in s.state.events if isinstance(e, RoundEnded)][-1]
    closed = []
    res = RoundResultsScene(app, s, ended, on_close=lambda: closed.append(1) or app.pop())
    app.push(res)
    res.revealed = float(res._lines())
    app.step(1 / 60)
    assert res.ok in res.widgets and res.ok.style == "primary"       # Continue stays the default
    review_b = button(res, "Review")
    assert res.panel.contains(review_b.rect) and not review_b.rect.colliderect(res.ok.rect)
    click(app, review_b)
    sc = app.top
    assert isinstance(sc, ReplayScene) and sc.round_no == 2 and sc.review.running and len(jobs) == 1
    click(app, sc.close_b)                        # closed while it runs: back to the results
    assert app.top is res and sc.review.running and not closed
    key(app, pygame.K_RETURN)                     # Enter: the next round, as ever
    assert closed == [1]


def test_the_ledger_review_match_opens_round_one_and_the_review_survives(app, monkeypatch, jobs):
    s = session()
    led = MatchResultsScene(app, s, from_history=True)
    app.push(led)
    app.step(1 / 60)
    click(app, button(led, "Review match"))
    sc = app.top
    assert isinstance(sc, ReplayScene) and sc.round_no == 1 and sc.review.running
    state = sc.review
    click(app, sc.close_b)
    assert app.top is led and state.running
    polls = jobs[0].polls
    app.step(1 / 60)
    assert jobs[0].polls > polls                  # the ledger keeps it going
    jobs[0].done, jobs[0].result = True, hand_review(s, {1: [MISTAKE], 2: [INACCURACY]})
    app.step(1 / 60)
    assert state.result is not None and not state.running
    led.replay_row(1)                             # round 2's replay: the same review, at once
    sc2 = app.top
    assert isinstance(sc2, ReplayScene) and sc2.review is state and sc2.reviewed
    assert list(sc2.marks().values()) == [INACCURACY] and len(jobs) == 1


def test_an_online_ledger_has_no_review_button(app):
    class Online(MatchResultsScene):
        def layout(self):
            self.columns = [c for c in self.columns if c.key != "replay"]
            super().layout()
    led = Online(app, session(), from_history=True)
    assert not led.can_review
    assert all(getattr(w, "label", "") != "Review match" for w in led.widgets)


# ---------------------------------------------------------------- the real analysis
def test_a_real_review_in_the_background_then_from_the_cache(app, monkeypatch):
    from koikoi.review import analyse_match, cache_path
    monkeypatch.setattr(RP.ReviewState, "budget", 2)
    s = session(seed=11, months=1)
    sc = ReplayScene(app, s, 1, review=True)
    app.push(sc)
    t0 = time.monotonic()
    while not sc.reviewed and time.monotonic() - t0 < 60:
        app.step(1 / 60)
        time.sleep(0.01)
    assert sc.reviewed, sc.review.error
    want = analyse_match(s.state.events, (0,), match_id=s.id, budget=2, opponent="the CPU", style=sc.style)
    assert sc.marks() == {i: want.decision_at(p.start).verdict for i, p in enumerate(sc.steps)
                          if want.decision_at(p.start) is not None}
    assert sc.marks()
    assert cache_path(app.storage.history_dir, s.id).is_file()
    again = RP.ReviewState(app, s)
    assert again.start() and again.job is None and again.covers(1)   # from the cache, no process


def test_a_friend_match_marks_both_seats(app, monkeypatch):
    from koikoi.ai import make_player
    seats = (SeatConfig("human", "Aki"), SeatConfig("human", "Ben"))
    s = MatchSession(RULESETS["casual"], seed=5, months=1, seats=seats)
    players = [make_player("random", seed=1), make_player("random", seed=2)]
    while not s.state.is_over:
        s.apply(players[s.state.to_move].choose(s.view(s.state.to_move), s.legal()))
    steps = round_steps(s.state.events, 1, ("Aki", "Ben"), you=None)
    first = {seat: next(p for p in steps if p.seat == seat and p.kind == "play") for seat in (0, 1)}
    rounds = tuple(RoundReview(1, seat, (Decision(1, first[seat].start, seat, "play",
                                                  action_of(s.state.events[first[seat].start]),
                                                  action_of(s.state.events[first[seat].start]), (), 0.0,
                                                  GOOD if seat else MISTAKE),)) for seat in (0, 1))
    calls = cached(monkeypatch, MatchReview(s.id, (0, 1), rounds, 4, {"rounds_done": 1}))
    sc = ReplayScene(app, s, 1, review=True)
    app.push(sc)
    app.step(1 / 60)
    assert calls[0][2] == (0, 1) and sc.reviewed
    assert sorted(sc.marks().values()) == [GOOD, MISTAKE]
    assert {sc.steps[i].seat for i in sc.marks()} == {0, 1}
    for size in ((960, 540), (1280, 720), (1920, 1080)):
        resize(app, size)
        words = " ".join(t for t, r in drawn_texts(monkeypatch, app) if sc.review_rect.contains(r))
        assert "Aki: 1 mistake" in words and "Ben: No mistakes" in words
        rects = [b.rect for b in sc.widgets]
        assert not any(a.colliderect(b) for k, a in enumerate(rects) for b in rects[k + 1:])


def test_leaving_the_matchs_last_screen_cancels_its_running_review(app, jobs):
    s = session()
    led = MatchResultsScene(app, s, from_history=True)
    app.push(led)
    app.step(1 / 60)
    click(app, button(led, "Review match"))
    click(app, app.top.close_b)
    assert app.top is led and not jobs[0].cancelled      # the ledger still shows the match
    key(app, pygame.K_BACKSPACE)                          # Back: no screen of the match is left
    assert app.top is not led
    assert jobs[0].cancelled and jobs[0].closed
    assert not RP.review_for(app, s).running


@pytest.mark.parametrize("scene", ["review", "review-progress"])
def test_the_screenshot_tool_renders_the_review(tmp_path, scene, capsys):
    from harness import load_tool
    tool = load_tool("screenshot")
    out = tmp_path / f"{scene}.png"
    assert tool.main(["--scene", scene, "--seed", "7", "--size", "960x540", "--out", str(out),
                      "--frames", "5", "--home", str(tmp_path / "home")]) == 0
    assert pygame.image.load(str(out)).get_size() == (960, 540)
    assert "warning" not in capsys.readouterr().err       # the review showed (done / running)
    assert RP.ReviewState.budget is None                  # the tool set no default for others
