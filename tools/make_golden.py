"""Write the golden match records in tests/golden/ (OpenSpiel-style playthroughs).

    python tools/make_golden.py          # rewrite every record
    python tools/make_golden.py --check  # exit 1 if any record differs

One file per preset: a short match from a fixed seed with seeded random
choices; for every step the phase, the seat to move, the legal actions, the
action taken, the events it caused, each seat's yaku and the scores. A rules
change that alters any of it shows up as a line diff in tests/engine/test_golden.py.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from koikoi.engine import RULESETS, apply, describe, legal_actions, new_match, view  # noqa: E402
from koikoi.engine.events import event_to_dict  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
SEEDS = {"casual": 101, "classic": 202, "nintendo": 303, "kk-add-10": 404, "tournament": 505, "yakuza": 606,
         "koikoi-japan": 707, "battle-hanafuda": 808}


def record(preset: str) -> str:
    rules = RULESETS[preset]
    seed = SEEDS[preset]
    rng = random.Random(seed)
    s = new_match(rules, seed=seed, months=2)
    lines = [f"# golden record: preset {preset}, seed {seed}, 2 months, seeded random choices",
             "# regenerate with: python tools/make_golden.py"]
    lines += [f"event {json.dumps(event_to_dict(e), ensure_ascii=False, sort_keys=True)}" for e in s.events]
    step = 0
    while not s.is_over:
        legal = legal_actions(s)
        action = legal[rng.randrange(len(legal))]
        lines.append(f"step {step} phase={s.phase_name} to_move={s.to_move} "
                     f"legal=[{'; '.join(describe(a) for a in legal)}]")
        lines.append(f"  action {describe(action)}")
        before = len(s.events)
        s = apply(s, action)
        for e in s.events[before:]:
            lines.append(f"  event {json.dumps(event_to_dict(e), ensure_ascii=False, sort_keys=True)}")
        if not s.is_over and s.phase_name != "oyagime":
            v = view(s, 0)
            lines.append(f"  yaku 0={list(v.yaku(0))} 1={list(v.yaku(1))} scores={list(s.scores)}")
        step += 1
    lines.append(f"end winner={s.winner} scores={list(s.scores)}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="write or check tests/golden/*.txt")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    differ = []
    for preset in SEEDS:
        path = GOLDEN / f"{preset}.txt"
        text = record(preset)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                differ.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    if differ:
        print("differs:", ", ".join(differ))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
