"""The server reads its frames with orjson where it can (``frame_object(fast=True)``):
every frame, good or hostile, reads as the same value, or is refused with the same
code, as by the careful reader (``files.parse_json``) the client and the old server use."""

from __future__ import annotations

import json

import pytest

from koikoi.net import protocol
from koikoi.net.protocol import MAX_DEPTH, MAX_FRAME, ProtocolError, check_client, frame_object

FRAMES = [
    '{"type":"ping","id":1}',
    ' \n{"type": "act", "id": 7, "action": {"kind": "play", "card": 12, "capture": 13}, "at": 40}\t',
    '{"type":"create","id":"a1","name":"Hanako 花子","rules":{"preset":"casual","house":{"weather":true}}}',
    '{"type":"join","room":"KOI-4821","name":"\\u82b1"}',
    '{"type":"join","room":"KOI-4821","name":"\\ud800"}',            # an escaped lone surrogate
    '{"type":"join","room":"KOI-4821","name":"\ud800x"}',             # a raw one
    '{"type":"ping","id":123456789012345678901234567890}',             # over 64 bits
    '{"type":"ping","id":18446744073709551616}',                       # 2**64
    '{"type":"ping","id":9223372036854775807}',                        # 2**63 - 1
    '{"type":"ping","id":-9223372036854775809}',
    '{"type":"ping","id":"1234567890123456789012"}',
    '{"type":"ping","id":-1}',
    '{"type":"ping","id":1.5}',
    '{"type":"ping","id":1e400}',
    '{"type":"ping","id":NaN}',
    '{"type":"ping","id":Infinity}',
    '{"type":"ping","id":1,"id":2}',                                   # a key twice: the last
    '\ufeff{"type":"ping"}',                                            # a byte-order mark
    '{"type":"ping"',
    '{"type":"ping"}}',
    '[1,2,3]',
    '"ping"',
    '',
    '{"type":"sync","have":' + '[' * 10 + ']' * 10 + '}',             # too deep
    '{"a":' * MAX_DEPTH + '1' + '}' * MAX_DEPTH,                       # as deep as allowed
    '{"type":"ping","x":"\\u0000\\u001f\\n"}',
    '{"type":"ping","x":"' + '\\"[{' * 50 + '"}',                      # brackets in a string
    '{"type":"ping","x":"\x01"}',                                       # a raw control character
    '{"type":"ping","x":"' + 'é' * (MAX_FRAME // 2 + 1) + '"}',       # short in characters, long in bytes
]


def _read(raw: str, fast: bool):
    try:
        return "ok", frame_object(raw, MAX_FRAME, MAX_DEPTH, fast=fast)
    except ProtocolError as exc:
        return "refused", exc.code


def _checked(raw: str, fast: bool):
    got = _read(raw, fast)
    if got[0] != "ok":
        return got
    try:
        return "ok", check_client(got[1])
    except ProtocolError as exc:
        return "refused", exc.code


@pytest.mark.parametrize("raw", FRAMES)
def test_the_fast_reader_reads_every_frame_as_the_careful_one(raw):
    slow, fast = _read(raw, False), _read(raw, True)
    assert fast == slow
    if slow[0] == "ok":     # the same value down to the types (1 is not 1.0 nor True)
        assert json.dumps(fast[1], sort_keys=True) == json.dumps(slow[1], sort_keys=True)
        assert repr(fast[1]) == repr(slow[1])
    assert _checked(raw, True) == _checked(raw, False)


def test_the_fast_reader_is_orjson_when_it_is_installed(monkeypatch):
    pytest.importorskip("orjson")
    calls = []
    real = protocol._orjson_loads
    monkeypatch.setattr(protocol, "_orjson_loads", lambda raw: calls.append(raw) or real(raw))
    assert frame_object('{"type":"ping"}', fast=True) == {"type": "ping"}
    assert frame_object('{"type":"ping"}') == {"type": "ping"}          # the client's: as ever
    assert calls == ['{"type":"ping"}']
