"""The ladder database's shape: its numbered migrations, applied in order from an empty
database by ``koikoi.ladder.store.Store.migrate`` (the same SQL on SQLite and PostgreSQL;
"{id}" is the dialect's auto-numbered key).

    LATEST                     # the version a migrated database is at
"""
from __future__ import annotations

# Numbered migrations, applied in order from an empty database; never edit one
# that has shipped, add the next. "{id}" is the dialect's auto-numbered key.
MIGRATIONS: list[tuple[int, list[str]]] = [
    (1, [
        """CREATE TABLE profiles (
            key_hash TEXT PRIMARY KEY,
            player_id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            matches INTEGER NOT NULL DEFAULT 0,
            wins INTEGER NOT NULL DEFAULT 0,
            rating DOUBLE PRECISION NOT NULL,
            rd DOUBLE PRECISION NOT NULL,
            vol DOUBLE PRECISION NOT NULL,
            replaced_by TEXT)""",
        """CREATE TABLE rated_matches (
            seq {id},
            match_id TEXT NOT NULL UNIQUE,
            finished DOUBLE PRECISION NOT NULL,
            preset TEXT NOT NULL,
            length INTEGER NOT NULL,
            claimed INTEGER NOT NULL,
            winner TEXT NOT NULL REFERENCES profiles(key_hash),
            loser TEXT NOT NULL REFERENCES profiles(key_hash),
            winner_before DOUBLE PRECISION NOT NULL,
            winner_after DOUBLE PRECISION NOT NULL,
            loser_before DOUBLE PRECISION NOT NULL,
            loser_after DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX rated_matches_winner ON rated_matches (winner, seq)",
        "CREATE INDEX rated_matches_loser ON rated_matches (loser, seq)",
        "CREATE INDEX profiles_rating ON profiles (rating DESC, player_id)",
    ]),
    (2, [
        """CREATE TABLE queue (
            key_hash TEXT PRIMARY KEY REFERENCES profiles(key_hash),
            preset TEXT NOT NULL,
            length INTEGER NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            since DOUBLE PRECISION NOT NULL,
            process TEXT NOT NULL)""",
        """CREATE TABLE rooms (
            code TEXT PRIMARY KEY,
            process TEXT NOT NULL,
            address TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE matched (
            key_hash TEXT PRIMARY KEY,
            code TEXT NOT NULL,
            opponent TEXT NOT NULL,
            made DOUBLE PRECISION NOT NULL)""",
    ]),
    (3, [
        # a drawn match (equal scores) is rated as half a win each
        "ALTER TABLE profiles ADD COLUMN draws INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE rated_matches ADD COLUMN draw INTEGER NOT NULL DEFAULT 0",
        # a waiting player's process refreshes `seen`; rows of a process that stopped
        # refreshing (killed) are not paired
        "ALTER TABLE queue ADD COLUMN seen DOUBLE PRECISION NOT NULL DEFAULT 0",
        # a room made on one process for a player waiting on another: where, and the seat's token
        "ALTER TABLE matched ADD COLUMN token TEXT",
        "ALTER TABLE matched ADD COLUMN process TEXT",
        "ALTER TABLE matched ADD COLUMN address TEXT",
        # what a rated room is rated as, kept across a restart of its process
        "ALTER TABLE rooms ADD COLUMN preset TEXT",
        "ALTER TABLE rooms ADD COLUMN length INTEGER",
    ]),
]
LATEST = MIGRATIONS[-1][0]


__all__ = ["MIGRATIONS", "LATEST"]
