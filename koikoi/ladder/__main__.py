"""Operator commands: python -m koikoi.ladder [--db URL] COMMAND ...

  move-rating OLD_ID NEW_ID   after a stolen-key report: the new key's profile takes
                              the old one's rating and record; the old key is refused
  show ID                     one profile as the server keeps it
  migrate                     bring the database to this program's schema
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional

from . import store as ladder_store


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koikoi.ladder",
                                     description="Quick-match ladder: operator commands.")
    parser.add_argument("--db", default=None,
                        help="postgresql://... or an SQLite file (default: ladder.sqlite3 in --data)")
    parser.add_argument("--data", default=None,
                        help="the server's data folder, for the embedded database (default: the game's)")
    sub = parser.add_subparsers(dest="command", required=True)
    move = sub.add_parser("move-rating", help="move a profile's rating to a new key's profile")
    move.add_argument("old_id")
    move.add_argument("new_id")
    show = sub.add_parser("show", help="print one profile")
    show.add_argument("player_id")
    sub.add_parser("migrate", help="apply the numbered migrations")
    args = parser.parse_args(argv)
    try:
        st = ladder_store.open_store(args.db, args.data)
    except Exception as exc:                   # a wrong address, a refused connection
        print(f"cannot open the ladder database: {exc}", file=sys.stderr)
        return 2
    with st:
        try:
            if args.command == "migrate":
                print(f"schema version {st.version()}")
            elif args.command == "show":
                p = st.profile_by_id(args.player_id)
                if p is None:
                    print(f"no profile with id {args.player_id}", file=sys.stderr)
                    return 1
                state = f", replaced by {p.replaced_by}" if p.replaced_by else ""
                print(f"{p.player_id} {p.name!r}: rating {p.rating.rating:.0f} (RD {p.rating.rd:.0f}), "
                      f"{p.wins} won of {p.matches}{state}")
            else:
                p = st.move_rating(args.old_id, args.new_id)
                print(f"moved: {p.player_id} {p.name!r} now has rating {p.rating.rating:.0f}, "
                      f"{p.wins} won of {p.matches}; {args.old_id} is refused from now on")
        except ladder_store.LadderError as exc:
            print(f"refused: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
