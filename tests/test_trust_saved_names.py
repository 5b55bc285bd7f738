"""A kept match whose file name disagrees with the id inside it (issue 26, item 10): the id
inside wins, the file is renamed to it when that name is free, and it resumes."""

from __future__ import annotations

from koikoi.engine import RULESETS
from koikoi.session import MatchSession, SeatConfig
from koikoi.storage import Storage

VS_CPU = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Random)", "random"))


def kept_under(store: Storage, name: str, seed: int = 21) -> MatchSession:
    s = MatchSession(RULESETS["casual"], seed=seed, months=3, seats=VS_CPU)
    s.apply(s.legal()[0])
    store.saved_dir.mkdir(parents=True, exist_ok=True)
    (store.saved_dir / name).write_text(s.to_json())
    return s


def test_a_kept_match_under_another_name_is_renamed_to_its_id_and_resumes():
    store = Storage()
    s = kept_under(store, "match-0123456789abcdef.json")
    kept, problems = store.list_saved()
    assert [m.match_id for m in kept] == [s.id] and problems == []
    assert sorted(p.name for p in store.saved_dir.iterdir()) == [f"match-{s.id}.json"]
    resumed = store.resume_saved(s.id)
    assert resumed is not None and resumed.id == s.id and resumed.state.events == s.state.events
    assert Storage().load_autosave().id == s.id and list(store.saved_dir.iterdir()) == []


def test_a_misnamed_kept_match_whose_right_name_is_taken_still_resumes_and_nothing_is_lost():
    store = Storage()
    s = kept_under(store, "match-copy.json")
    (store.saved_dir / f"match-{s.id}.json").write_text(s.to_json())   # the same match twice
    kept, _ = Storage().read_only_view().list_saved()
    assert {m.match_id for m in kept} == {s.id}
    kept, _ = store.list_saved()
    assert all(m.match_id == s.id for m in kept)
    assert store.resume_saved(s.id).id == s.id
    assert Storage().load_autosave().id == s.id
    assert [p.name for p in store.saved_dir.iterdir()] == ["match-copy.json"]   # kept, never deleted
    # a second, read-only listing never renames
    other = kept_under(Storage(), "match-x.json", seed=22)
    ro = Storage().read_only_view()
    assert other.id in {m.match_id for m in ro.list_saved()[0]}
    assert (store.saved_dir / "match-x.json").exists()
    assert ro.resume_saved(other.id).id == other.id
