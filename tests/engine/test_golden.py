"""The golden match records still play out line for line (tools/make_golden.py)."""

import difflib
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("make_golden", ROOT / "tools" / "make_golden.py")
make_golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_golden)


@pytest.mark.parametrize("preset", sorted(make_golden.SEEDS))
def test_golden_record(preset):
    expected = (ROOT / "tests" / "golden" / f"{preset}.txt").read_text(encoding="utf-8")
    got = make_golden.record(preset)
    if got != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                                 "golden", "now", n=2))[:60])
        pytest.fail(f"{preset} no longer plays out as recorded "
                    f"(run tools/make_golden.py if the change is intended):\n{diff}")
