"""Phase and SeatKind are str enums: members and the names in files are interchangeable."""

import json

from koikoi.engine import RULESETS, Phase, SeatKind, new_match, view
from koikoi.engine.match import PHASE_NAMES


def test_members_equal_hash_print_and_serialise_as_their_names():
    for member in (*Phase, *SeatKind):
        text = member.value
        assert member == text and hash(member) == hash(text)
        assert str(member) == f"{member}" == text
        assert json.dumps(member) == json.dumps(text)
        assert {text: 1}[member] == 1 and {member: 2}[text] == 2
        assert type(member)(text) is member


def test_the_engine_reports_members():
    s = new_match(RULESETS["classic"], seed=3)
    assert s.phase_name is Phase.OYAGIME and view(s, 0).phase is Phase.OYAGIME
    assert PHASE_NAMES == tuple(Phase)


def test_a_save_with_kinds_as_text_reads_as_members():
    from koikoi.session import SeatConfig
    seat = SeatConfig.from_data({"kind": "cpu", "name": "CPU", "level": "hard"})
    assert seat.kind is SeatKind.CPU
    assert json.loads(json.dumps({"kind": seat.kind}))["kind"] == "cpu"
