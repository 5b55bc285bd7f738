"""Issue #15: the Koi-Koi prompt has no default choice; the coach's advice is a tag;
the ledger shows every seat name whole; the round's results and the combo inspector
keep long yaku lists and long names inside their panels.

- ``recommend`` turns the coach's numbers into "stop" / "koikoi" (a pure function);
- the prompt's two buttons look alike, the focus starts on neither, Enter alone chooses
  nothing, S and K still choose (and Tab / arrows + Enter);
- the "Coach suggests" tag appears only with practice hints on, on the button the coach
  recommends, for clear-cut positions of real matches (hand empty: Stop; no risk and a
  sure improvement: Koi-Koi);
- the ledger's header and cells show "CPU (Medium)" (and every level's name, and friends'
  names of 16 characters) whole at 1280x720 and 1920x1080: checked against the columns;
- the results of a round with seven yaku and three multipliers draw inside the panel, no
  text over another, nothing under the Continue button.
"""

from __future__ import annotations

import pygame
import pytest

from koikoi import coach
from koikoi.engine import RULESETS, KoiKoi, Stop
from koikoi.engine.events import LedgerRow, RoundEnded
from koikoi.session import MatchSession, SeatConfig
from koikoi.ui import widgets as W
from koikoi.ui.scenes import prompt as P
from koikoi.ui.scenes.inspector import InspectorScene
from koikoi.ui.scenes.ledger import MatchResultsScene, fit_widths
from koikoi.ui.scenes.results import RoundResultsScene

from harness import DT, close_app, key, make_app, session_where, step

EASY = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "easy"))
MEDIUM = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Medium)", "medium"))
SIZES = ((1280, 720), (1920, 1080))


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def sized_app(request, koikoi_home):
    a = make_app(request.param, home=koikoi_home, seed=1)
    yield a
    close_app(a)


def overlap(r1, r2) -> bool:
    """Two drawn texts overlap: their boxes less the font's leading (a line box is taller
    than its glyphs, and lines set one under the other touch by a pixel or two)."""
    return r1.inflate(-2, -(r1.h // 4)).colliderect(r2.inflate(-2, -(r2.h // 4)))


class Spy:
    """Every ``W.draw_text`` call: (surface, text, font, rect drawn)."""

    def __init__(self, monkeypatch):
        self.calls = []
        real = W.draw_text

        def spy(surface, text, font, color, pos, anchor="topleft", shadow=True):
            r = real(surface, text, font, color, pos, anchor, shadow)
            self.calls.append((surface, text, font, r))
            return r
        monkeypatch.setattr(W, "draw_text", spy)

    def texts(self):
        return [t for _, t, _, _ in self.calls]


def decide(cond=lambda s: True, seats=EASY, rules="casual", seeds=range(1, 400)):
    """A real match at seat 0's Koi-Koi decision where ``cond(session)`` holds."""
    return session_where(lambda s: s.state.phase_name == "decide" and s.state.to_move == 0 and cond(s),
                         rules=rules, seats=seats, seeds=seeds, max_steps=80)


def open_prompt(app, s, **kw):
    chosen = []
    scene = P.KoiKoiPromptScene(app, s, 0, on_choice=chosen.append, **kw)
    app.push(scene)
    if scene._coach_thread is not None:
        scene._coach_thread.join(20)
    step(app, 0.5)
    return scene, chosen


# ---------------------------------------------------------------- the advice, pure
def odds(theirs=0.0, mine=0.0, hand_empty=False, samples=200):
    return coach.Odds(theirs, theirs, mine, max(0.0, 1 - theirs - mine), hand_empty, False, samples)


def test_recommend_weighs_what_playing_on_stakes():
    assert P.recommend(odds(hand_empty=True, theirs=0.0), 1, 2) == P.STOP          # nothing left to improve
    assert P.recommend(odds(theirs=0.0, mine=1.0), 5, 6) == P.KOIKOI               # no risk, sure gain
    assert P.recommend(odds(theirs=0.8, mine=0.2), 5, 6) == P.STOP
    assert P.recommend(odds(theirs=0.1, mine=0.9), 1, 2) == P.KOIKOI               # 1.8 > 1.1
    assert P.recommend(odds(theirs=0.3, mine=0.6), 6, 7) == P.STOP                 # 4.2 < 7.8
    assert P.recommend(odds(theirs=0.3, mine=0.6), 6, 14) == P.KOIKOI              # the 7+ double: 8.4 > 7.8
    # no numbers, no advice
    assert P.recommend(None, 5, 6) is None
    assert P.recommend(0.4, 5, 6) is None
    assert P.recommend(odds(samples=0), 5, 6) is None


def test_pays_if_improved_is_one_more_point_and_one_more_call():
    s = decide()
    v = s.view(0)
    aw = v.award(0)
    later = P.pays_if_improved(v, 0)
    assert later >= aw.total + 1
    from koikoi.engine.scoring import multipliers
    base = aw.base + 1
    want = base
    for _, f in multipliers(base, v.rules, v.calls[0] + 1, v.calls[1], v.field_brights):
        want *= f
    assert later == want


# ---------------------------------------------------------------- no default choice
def test_neither_button_is_the_default(app):
    s = decide(seats=MEDIUM)             # no hints against Medium: no coach
    scene, chosen = open_prompt(app, s)
    assert not scene.practice and scene.recommendation is None
    stop, koi = scene.stop_button, scene.koikoi_button
    assert stop.style == koi.style != "primary"
    assert not stop.focused and not koi.focused
    key(app, pygame.K_RETURN)            # Enter alone chooses nothing
    key(app, pygame.K_SPACE)
    assert chosen == [] and not scene.chosen
    # the keyboard puts the focus on one, then Enter takes it
    key(app, pygame.K_TAB)
    assert stop.focused and not koi.focused
    key(app, pygame.K_RIGHT)
    assert koi.focused and not stop.focused
    key(app, pygame.K_LEFT)
    assert stop.focused
    key(app, pygame.K_RETURN)
    assert chosen == [Stop()]


@pytest.mark.parametrize("k,action", [(pygame.K_s, Stop()), (pygame.K_k, KoiKoi())])
def test_s_and_k_still_choose(app, k, action):
    scene, chosen = open_prompt(app, decide(seats=MEDIUM))
    key(app, k)
    assert chosen == [action]


def test_no_suggestion_without_hints(app, monkeypatch):
    for seats in (MEDIUM, (SeatConfig("human", "Ann"), SeatConfig("human", "Ben"))):
        scene, _ = open_prompt(app, decide(seats=seats))
        spy = Spy(monkeypatch)
        app.draw()
        assert scene.recommendation is None and scene.suggestion_rect() is None
        assert P.SUGGESTS.upper() not in spy.texts()
        app.pop()


def _suggested(app, monkeypatch, scene):
    """The button under the drawn "Coach suggests" tag."""
    spy = Spy(monkeypatch)
    app.draw()
    tags = [r for _, t, _, r in spy.calls if t == P.SUGGESTS.upper()]
    assert len(tags) == 1
    tag = tags[0]
    hit = [b for b in scene.buttons if b.rect.left <= tag.centerx <= b.rect.right]
    assert len(hit) == 1
    assert abs(tag.bottom - hit[0].rect.top) < tag.h          # standing on its top edge
    assert not tag.colliderect(scene.coach_rect.move(scene.panel.topleft))
    return hit[0]


def test_coach_suggests_stop_when_the_hand_is_empty(app, monkeypatch):
    # the seat's last card made the yaku: playing on cannot add to it, only lose it
    s = decide(lambda s: not s.view(0).hand)
    scene, _ = open_prompt(app, s)
    assert scene.practice and scene.coach_risk.hand_empty
    assert scene.recommendation == P.STOP
    assert _suggested(app, monkeypatch, scene) is scene.stop_button
    # still a suggestion, not a default: both buttons alike, no focus
    assert scene.stop_button.style == scene.koikoi_button.style
    assert not scene.stop_button.focused


def test_coach_suggests_koikoi_with_no_risk_and_a_sure_improvement(app, monkeypatch):
    def clear_cut(s):
        v = s.view(0)
        if not v.hand:
            return False
        o = coach.risk(v, samples=200, seed=len(s.state.events))     # the prompt's own seed
        return o.theirs == 0 and o.mine >= 0.99
    s = decide(clear_cut, seeds=range(100, 200))
    scene, _ = open_prompt(app, s)
    assert scene.recommendation == P.KOIKOI
    assert _suggested(app, monkeypatch, scene) is scene.koikoi_button


# ---------------------------------------------------------------- the prompt fits
def _crowded(s):
    """The position with many yaku (a state the layout must survive: eight of them)."""
    from koikoi.engine.cards import DECK
    idx = {c.id: i for i, c in enumerate(DECK)}
    ids = ["01-B", "03-B", "08-B", "11-B", "12-B", "06-A", "07-A", "10-A", "09-A", "01-RP", "02-RP", "03-RP",
           "06-RB", "09-RB", "10-RB", "04-R", "05-R"] + [f"0{m}-P{k}" for m in range(1, 6) for k in (1, 2)]
    mask = sum(1 << idx[c] for c in ids)
    st = s.state
    s.state = st._replace(captured=(mask, st.captured[1] & ~mask), calls=(1, 1))
    return s


@pytest.mark.parametrize("crowded", [False, True], ids=["one-yaku", "eight-yaku"])
def test_nothing_in_the_prompt_is_cut_off(sized_app, monkeypatch, crowded):
    app = sized_app
    s = decide()
    if crowded:
        s = _crowded(s)
    spy = Spy(monkeypatch)
    scene, _ = open_prompt(app, s)
    app.draw()
    panel = scene.panel
    screen = pygame.Rect((0, 0), app.size)
    assert screen.contains(panel)
    img = scene.panel_img
    for surface, text, font, r in spy.calls:
        assert "…" not in text or text.startswith("+ "), text        # only the "+ N more" line may shorten
        if surface is img:
            assert img.get_rect().contains(r), (text, r)
        elif surface is app.screen and r.w:
            assert panel.contains(r), (text, r)
    for b in scene.buttons:
        assert panel.contains(b.rect)
        assert b.rect.top >= panel.y + scene.coach_rect.bottom
    if crowded:
        assert any(t.startswith("+ 4 more: ") for t in spy.texts())
    # the coach's line whole, in its box
    coach_img = scene._coach_image()
    said = [t for surface, t, _, r in spy.calls if surface is coach_img]
    assert said and " ".join(said).split() == scene.coach_text().split()
    # and its longest forms too
    for o in (coach.Odds(0.655, 0.0, 0.0, 0.345, True, True, 200), coach.Odds(0.45, 0.12, 0.5, 0.05, False, True, 200)):
        scene.coach_risk, scene.coach_pays = o, 1234
        n = len(spy.calls)
        img = scene._coach_image()
        said = [t for surface, t, _, r in spy.calls[n:] if surface is img]
        assert len(said) <= 2 and " ".join(said).split() == scene.coach_text().split()
    # the cards of a row stay right of its name
    assert scene.card_rects and all(panel.contains(r) for r, _ in scene.card_rects)


# ---------------------------------------------------------------- the ledger
def finished(seats, seed=11, months=6):
    s = MatchSession(RULESETS["casual"], seed=seed, seats=seats, months=months)
    import random
    rng = random.Random(seed)
    while not s.state.is_over:
        legal = s.legal()
        s.apply(legal[rng.randrange(len(legal))])
    return s


NAMES = [("You", "CPU (Medium)"), ("You", "CPU (Hard)"), ("You", "CPU (Easy)"), ("You", "CPU (Random)"),
         ("Maximilian Smith", "Alexandra-Marie"), ("Bartholomew Wood", "Maximilian Smith")]


@pytest.mark.parametrize("names", NAMES, ids=lambda n: n[1])
def test_ledger_shows_every_seat_name_whole(sized_app, monkeypatch, names):
    app = sized_app
    if names[0] == "You":
        seats = (SeatConfig("human", names[0]), SeatConfig("cpu", names[1], "random"))
    else:
        seats = (SeatConfig("human", names[0]), SeatConfig("human", names[1]))
    s = finished(seats)
    scene = MatchResultsScene(app, s)
    app.reset(scene)
    step(app, 0.1)
    spy = Spy(monkeypatch)
    scene.table.draw(app.screen)
    t = scene.table
    cols = {key: (x, cw, align) for key, _title, x, cw, align in t.cols}
    head = t._font("tiny", True)
    pad = t._px(t.cell_pad)
    drawn = spy.texts()
    # the seats' names over their score columns, whole and inside them
    for seat, key_ in ((0, "s0"), (1, "s1")):
        title = names[seat].upper()
        assert title in drawn, (title, drawn[:12])
        x, cw, _ = cols[key_]
        assert W.text_width(title, head) <= cw - pad
        r = next(r for _, text, _, r in spy.calls if text == title)
        assert x <= r.left and r.right <= x + cw
    # and in the dealer / winner cells
    room_pad = t._px(t.cell_pad + 4)
    body = t._font("small")
    for key_ in ("dealer", "winner"):
        x, cw, _ = cols[key_]
        for name in names:
            assert W.text_width(name, body) <= cw - room_pad, (key_, name)
    assert names[0] in drawn and names[1] in drawn
    assert not [text for text in drawn if text.endswith("…") and text[:3] in (names[0][:3], names[1][:3])]
    # the columns still fill the table, none off its right edge
    vp = t.viewport
    assert sum(cw for _, cw, _ in cols.values()) <= vp.w
    assert all(vp.x <= x and x + cw <= vp.right + 1 for x, cw, _ in cols.values())


def test_the_ledger_columns_follow_the_window(app):
    s = finished(MEDIUM)
    scene = MatchResultsScene(app, s)
    app.reset(scene)
    for size in ((1920, 1080), (1280, 720), (1920, 1080)):
        pygame.display.set_mode(size, pygame.RESIZABLE)
        app.on_window_resized()
        app.step(DT)
        t = scene.table
        x, cw, _ = next((x, cw, a) for k, _, x, cw, a in t.cols if k == "s1")
        assert W.text_width("CPU (MEDIUM)", t._font("tiny", True)) <= cw - t._px(t.cell_pad)


def test_fit_widths_widens_names_and_lets_the_yaku_give_way():
    # columns: a name (needs 150), the yaku (flex, wants 300), a number (needs 40)
    out = fit_widths([100, 300, 100], [150, 300, 40], 1, 200, 110)
    assert out[0] == 150 and sum(out) == 500 and out[2] >= 40
    # room is short: the yaku go down towards their floor, the name stays whole
    out = fit_widths([100, 250, 100], [240, 300, 90], 1, 200, 110)
    assert out == [240, 120, 90]
    # a window too narrow for the name: it gives back what it took beyond its share
    out = fit_widths([100, 150, 100], [240, 300, 90], 1, 200, 110)
    assert out == [150, 110, 90]
    # nothing needed: the shares stand
    assert fit_widths([100, 300, 100], [50, 100, 40], 1, 200, 110) == [100, 300, 100]


# ---------------------------------------------------------------- the round's results
def many_yaku_row():
    yaku = (("goko", 10, ("01-B", "03-B", "08-B", "11-B", "12-B")),
            ("inoshikacho", 5, ("06-A", "07-A", "10-A")),
            ("akatan_aotan", 10, ("01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB")),
            ("hanami_zake", 5, ("03-B", "09-A")),
            ("tane", 2, ("06-A", "07-A", "10-A", "09-A", "08-A", "02-A")),
            ("tanzaku", 3, ("01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB", "04-R", "05-R")),
            ("kasu", 1, ("01-P1", "01-P2", "02-P1", "02-P2", "03-P1", "03-P2", "04-P1", "04-P2", "05-P1",
                         "05-P2")))
    base = sum(p for _, p, _ in yaku)
    mults = (("7 points or more", 2), ("opponent called Koi-Koi", 2), ("3 brights in the opening field", 4))
    return LedgerRow(4, 1, 0, "stop", yaku, base, mults, base * 16, (base * 16 + 12, 30), (2, 3))


def four_yaku_row():
    yaku = (("sanko", 5, ("01-B", "03-B", "08-B")), ("inoshikacho", 5, ("06-A", "07-A", "10-A")),
            ("akatan", 5, ("01-RP", "02-RP", "03-RP")), ("tane", 1, ("06-A", "07-A", "10-A", "09-A", "08-A")))
    mults = (("7 points or more", 2), ("opponent called Koi-Koi", 2), ("3 brights in the opening field", 4))
    return LedgerRow(2, 0, 1, "stop", yaku, 16, mults, 256, (3, 259), (1, 1))


@pytest.mark.parametrize("row", [many_yaku_row(), four_yaku_row()], ids=["seven-yaku", "four-yaku"])
def test_results_with_many_yaku_draw_inside_their_panel(sized_app, monkeypatch, row):
    app = sized_app
    seats = (SeatConfig("human", "Maximilian Smith"), SeatConfig("human", "Alexandra-Marie"))
    s = MatchSession(RULESETS["casual"], seed=3, seats=seats, months=6)
    scene = RoundResultsScene(app, s, RoundEnded(row, ((), ())), on_close=lambda: None)
    scene.revealed = float(scene._lines())
    app.push(scene)
    step(app, 0.5)
    spy = Spy(monkeypatch)
    surface = pygame.Surface(app.size, pygame.SRCALPHA)
    scene.draw_content(surface)
    p = scene.panel
    assert pygame.Rect((0, 0), app.size).contains(p)
    on_panel = []
    for surf, text, _font, r in spy.calls:
        assert "…" not in text, text                   # every name and label whole
        if surf is surface:
            assert p.contains(r), (text, r, p)
            assert not r.colliderect(scene.ok.rect), (text, r)
            on_panel.append((text, r))
        else:                                          # a yaku row's own layer: inside it
            assert surf.get_rect().contains(r), (text, r, surf.get_size())
    for i, (t1, r1) in enumerate(on_panel):
        for t2, r2 in on_panel[i + 1:]:
            assert not overlap(r1, r2), (t1, r1, t2, r2)
    # every yaku row, the calculation and the totals above the Continue button
    names = [t for t, _ in on_panel]
    assert "Award" in names and "MATCH TOTALS" in names
    assert all(n in spy.texts() for n in ("Maximilian Smith", "Alexandra-Marie"))
    assert len([c for c in spy.calls if c[0] is not surface]) >= len(row.yaku) * 2   # name and points each


def test_a_plain_round_keeps_the_stacked_layout(app):
    s = MatchSession(RULESETS["casual"], seed=3, seats=EASY, months=6)
    row = LedgerRow(1, 0, 0, "stop", (("sanko", 5, ("01-B", "03-B", "08-B")),), 5, (), 5, (5, 0), (0, 0))
    scene = RoundResultsScene(app, s, RoundEnded(row, ((), ())), on_close=lambda: None)
    assert not scene.side and scene.yaku_h >= scene.two_line_h


# ---------------------------------------------------------------- the combo inspector
@pytest.mark.parametrize("title", ["CPU (EASY) COMBOS", "MAXIMILIAN SMITH COMBOS"])
def test_the_inspector_title_and_its_notes_do_not_collide(sized_app, monkeypatch, title):
    app = sized_app
    s = _crowded(decide())
    spy = Spy(monkeypatch)
    scene = InspectorScene(app, s, 0, 0, practice=True, title=title)
    app.push(scene)
    step(app, 0.3)
    app.draw()
    img = scene._img
    drawn = [(t, r) for surf, t, _, r in spy.calls if surf is img]
    assert any(t == title for t, _ in drawn)
    for i, (t1, r1) in enumerate(drawn):
        assert img.get_rect().contains(r1), (t1, r1)
        for t2, r2 in drawn[i + 1:]:
            assert not overlap(r1, r2), (t1, r1, t2, r2)


def test_the_ledger_names_the_presets_length_only_when_the_match_kept_it():
    from types import SimpleNamespace
    from koikoi.engine import RULESETS
    from koikoi.ui.scenes.ledger import rules_line
    casual = RULESETS["casual"]
    kept = SimpleNamespace(rules=casual, months=casual.months, ledger=(1,) * 6)
    short = SimpleNamespace(rules=casual, months=3, ledger=(1, 2, 3))
    assert rules_line(kept) == "Casual (6 months, stacking yaku)  ·  6 rounds"
    assert rules_line(short) == "Casual  ·  3 rounds"
    assert rules_line(SimpleNamespace(rules=casual, months=1, ledger=(1,))) == "Casual  ·  1 round"


@pytest.mark.parametrize("seeds", [range(1, 60), range(200, 260), range(400, 460)])
def test_the_prompts_pick_is_the_reviews_verdict_on_the_same_view(app, seeds):
    """The coach's suggestion at the prompt and the review's verdict on that decision come
    from one evaluation (issue 28): the review's analyse_decision of the seat's View, at the
    review's budget and seed, picks the button the prompt marks."""
    from koikoi.review.analysis import SEED, analyse_decision
    s = decide(lambda s: bool(s.view(0).hand), seeds=seeds)
    scene, _ = open_prompt(app, s)
    verdict = analyse_decision(s.view(0), (KoiKoi(), Stop()), Stop(), seed=SEED)
    assert scene.coach_pick is not None
    assert scene.recommendation == (P.STOP if verdict.best == Stop() else P.KOIKOI)


def test_a_quick_matchs_rating_change_shows_once_the_server_tells_it(sized_app, monkeypatch):
    app = sized_app
    s = finished((SeatConfig("human", "You"), SeatConfig("human", "Haru")))
    scene = MatchResultsScene(app, s)
    app.reset(scene)
    step(app, 1.0)
    spy = Spy(monkeypatch)
    scene.draw_content(app.screen)
    assert not [t for t in spy.texts() if "Rating" in t]          # a local match: no rating
    s.rated = {"before": 1500.0, "after": 1476.6, "rd": 290.0, "matches": 2}   # as NetSession.rated reads it
    spy.calls.clear()
    scene.draw_content(app.screen)
    (line,) = [(t, r) for _, t, _, r in spy.calls if "Rating" in t]
    assert line[0].endswith("  ·  Rating 1500 → 1477 (-23)"), line[0]
    assert app.screen.get_rect().contains(line[1])
    assert not line[1].colliderect(scene.panel)                     # above the table
