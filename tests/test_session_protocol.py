"""Every session the table is given implements ``koikoi.session.TableSession``: each member
the protocol declares exists on the class, a property where the protocol has one, and a
method that takes every argument the protocol's does (extra ones only with defaults)."""

from __future__ import annotations

import inspect

import pytest

from koikoi.engine import RULESETS, new_match
from koikoi.net.netsession import NetSession
from koikoi.session import MatchSession, TableSession
from koikoi.ui.scenes.ledger import _as_session
from koikoi.ui.scenes.puzzle import PuzzleSession

IMPLEMENTATIONS = [MatchSession, NetSession, PuzzleSession]
_MISSING = object()


def protocol_members() -> dict:
    """name -> the protocol's own attribute (a property or a function)."""
    return {name: value for name, value in vars(TableSession).items()
            if isinstance(value, property) or (inspect.isfunction(value) and not name.startswith("_"))}


def problems(cls) -> list:
    """What ``cls`` lacks or gets wrong of the protocol, in words (empty: it implements it)."""
    out = []
    for name, want in protocol_members().items():
        got = inspect.getattr_static(cls, name, _MISSING)
        if got is _MISSING:
            if isinstance(want, property) and name in _instance_attributes(cls):
                continue            # set in __init__ (a plain attribute reads as a property does)
            out.append(f"{cls.__name__} has no {name}")
            continue
        if isinstance(want, property):
            if inspect.isfunction(got):
                out.append(f"{cls.__name__}.{name} is a method, the protocol reads it as a value")
            continue
        if not inspect.isfunction(got):
            out.append(f"{cls.__name__}.{name} is not a method")
            continue
        out.extend(f"{cls.__name__}.{name}: {p}" for p in _signature_problems(want, got))
    return out


def _instance_attributes(cls) -> set:
    """Names ``cls.__init__`` (or a base's) assigns as ``self.<name> = ...``."""
    names = set()
    for klass in cls.__mro__:
        init = vars(klass).get("__init__")
        if init is None or not inspect.isfunction(init):
            continue
        for line in inspect.getsource(init).splitlines():
            line = line.strip()
            if line.startswith("self.") and "=" in line:
                names.add(line[5:].split("=")[0].split(".")[0].split("[")[0].strip(" :"))
    return names


def _signature_problems(want, got) -> list:
    w, g = inspect.signature(want), inspect.signature(got)
    wp = [p for p in w.parameters.values() if p.name != "self"]
    gp = [p for p in g.parameters.values() if p.name != "self"]
    out = []
    positional = [p for p in gp if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for i, p in enumerate(wp):
        if i >= len(positional) or positional[i].name != p.name:
            out.append(f"takes no argument {p.name!r} in place {i + 1}")
        elif p.default is not p.empty and positional[i].default is p.empty:
            out.append(f"argument {p.name!r} needs a default")
    for p in gp[len(wp):]:
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            out.append(f"argument {p.name!r} is not in the protocol and has no default")
    return out


@pytest.mark.parametrize("cls", IMPLEMENTATIONS, ids=lambda c: c.__name__)
def test_each_session_implements_the_table_protocol(cls):
    assert problems(cls) == []


def test_the_check_finds_a_missing_member_and_a_wrong_signature():
    class Short(MatchSession):
        legal = ()                               # not a method any more

        def public_events(self, seat):           # no ``since``
            return []

        def view(self, seat, hidden):            # an argument the table never passes
            return None
    found = problems(Short)
    assert any("legal is not a method" in p for p in found)
    assert any("public_events" in p and "since" in p for p in found)
    assert any("view" in p and "hidden" in p for p in found)

    class NoPhase:
        pass
    assert any("no phase" in p for p in problems(NoPhase))


def test_a_finished_state_becomes_a_session_that_writes_nothing():
    state = new_match(RULESETS["casual"], seed=3)
    session = _as_session(state)
    assert isinstance(session, TableSession) and session.state is state
    assert session.is_hotseat and session.store is None and not session.record
    assert _as_session(session) is session


def test_the_network_session_is_no_imitation_of_a_state():
    """Scenes read a match through the protocol (and the results through ledger, winner and
    scores), never through ``session.state``: a NetSession has no ``state`` to fake."""
    assert not hasattr(NetSession, "state") and not hasattr(NetSession, "phase_name")
    for name in ("ledger", "winner", "scores"):
        assert hasattr(MatchSession, name) and hasattr(NetSession, name), name
