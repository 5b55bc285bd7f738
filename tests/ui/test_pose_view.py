"""A pose read as one View (``Pose.view``, what the hud's hints read): a card resting on
the field card it takes counts as on the field, a card turned up at the flip spot as seen,
and everything else is the table's own ``PublicTable.view``."""

from __future__ import annotations

import random

from koikoi.engine import RULESETS, apply, legal_actions, new_match, public_event
from koikoi.engine.cards import ID_TO_INDEX
from koikoi.engine.table import fold_all
from koikoi.ui.table.stage import Pose


def _table_in_play(seed: int):
    rng = random.Random(seed)
    st = new_match(RULESETS["casual"], seed=seed)
    while st.phase_name != "play" or not st.events:
        st = apply(st, rng.choice(legal_actions(st)))
    played = st
    for _ in range(6):           # a few turns in, at the start of a turn (the play phase)
        st = apply(st, rng.choice(legal_actions(st)))
        if st.phase_name == "play":
            played = st
    st, seat = played, 0
    return fold_all([public_event(e, seat) for e in st.events], seat)


def bit(card: str) -> int:
    return 1 << ID_TO_INDEX[card]


def test_a_plain_pose_is_its_tables_view():
    t = _table_in_play(4)
    assert Pose(t).view() == t.view()


def test_a_card_on_its_way_is_seen_not_still_to_come():
    t = _table_in_play(9)
    card = t.hand[0]
    resting = t._replace(hand=t.hand[1:])            # it left the hand, resting on a field card
    v = Pose(resting, onto=((card, t.field[0]),)).view()
    assert v.field_mask & bit(card) and not v.unseen_mask & bit(card)
    assert v.captured_masks == resting.view().captured_masks and v.calls == t.calls
    assert v.month == t.view().month
    unseen = next(c for c in ("01-B", "02-A", "03-B", "12-B") if t.view().unseen_mask & bit(c))
    w = Pose(t, flip=unseen).view()                  # turned up at the flip spot
    assert not w.unseen_mask & bit(unseen) and not w.field_mask & bit(unseen)
    assert w.field_mask == t.view().field_mask
