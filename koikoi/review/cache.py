"""A review is kept with its match: ``<cache_dir>/<match_id>.review.json``.

    review = load_cached(cache_dir, match_id, seats, events)      # None: analyse
    save_cached(cache_dir, review)

The file is ``MatchReview.to_data()``, written atomically (``files.atomic_write_text``)
and read through the one defensive reader (``files.read_json``). Its ``meta`` holds a
fingerprint of the log it reviewed (``analysis.log_hash`` of the complete rounds), so a
cache for another log, other seats, another FORMAT or budget is not used (and is written
over by the next review); an unreadable file is set aside (``files.move_aside``), never
deleted. A cache of the first rounds of a
match that has gone on is not complete: ``load_cached`` says None, ``load_partial`` gives
it to ``analyse_match(prior=...)``, which analyses only the new rounds.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Optional

from ..files import BadFile, atomic_write_text, move_aside, read_json
from .analysis import DEFAULT_BUDGET, SEED, _seats, complete_prefix, extends
from .model import FORMAT, MatchReview

log = logging.getLogger("koikoi.review")

SUFFIX = ".review.json"
MAX_BYTES = 8 << 20
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def cache_path(cache_dir, match_id: str) -> Optional[Path]:
    """Where the review of ``match_id`` is kept (None: not an id a file can be named by)."""
    if cache_dir is None or not isinstance(match_id, str) or not _ID.fullmatch(match_id):
        return None
    return Path(cache_dir) / f"{match_id}{SUFFIX}"


def _read(cache_dir, match_id: str, *, set_aside: bool = True) -> Optional[MatchReview]:
    path = cache_path(cache_dir, match_id)
    if path is None:
        return None
    try:
        data = read_json(path, max_bytes=MAX_BYTES, root=cache_dir)
        if data is None:
            return None
        if isinstance(data, dict) and type(data.get("format")) is int and data["format"] != FORMAT:
            return None        # another version's review: analysed again and written over
        review = MatchReview.from_data(data)
    except (BadFile, ValueError) as exc:     # BadFile is a ValueError too
        if set_aside:
            log.warning("the review cache %s cannot be used (%s); setting it aside", path, exc)
            move_aside(path)
        return None
    if review.match_id != match_id:
        return None
    return review


def load_partial(cache_dir, match_id: str, seats, events, *, budget: Optional[int] = None,
                 opponent: Optional[str] = None, style: str = "both") -> Optional[MatchReview]:
    """The cached review if it reviews the first rounds of ``events`` (or all of them)
    with these seats, budget and wording, else None."""
    review = _read(cache_dir, match_id)
    if review is None:
        return None
    try:
        seats = _seats(seats)
    except ValueError:
        return None
    budget = DEFAULT_BUDGET if budget is None else budget
    if not extends(review, events, seats, budget, SEED, opponent, style):
        return None
    return review


def load_as_made(cache_dir, match_id: str, events) -> Optional[MatchReview]:
    """The cached review if it reviews the first rounds of ``events`` with the seats, budget
    and wording it was made with (the puzzles take any review the player made), else None;
    an unusable file is left where it is."""
    review = _read(cache_dir, match_id, set_aside=False)
    if review is None or review.meta.get("seed", SEED) != SEED:
        return None
    try:
        seats = _seats(review.seats)
    except ValueError:
        return None
    if not extends(review, events, seats, review.budget, SEED, review.meta.get("opponent") or None,
                   review.meta.get("style", "both")):
        return None
    return review


def load_cached(cache_dir, match_id: str, seats, events, *, budget: Optional[int] = None,
                opponent: Optional[str] = None, style: str = "both") -> Optional[MatchReview]:
    """The cached review of every complete round of ``events``, or None (no cache, another
    log, seats, FORMAT or budget, an unreadable file, which is set aside, or fewer rounds
    than the log now has)."""
    review = load_partial(cache_dir, match_id, seats, events, budget=budget, opponent=opponent,
                          style=style)
    return review if review is not None and reviews_all(review, events) else None


def reviews_all(review: MatchReview, events) -> bool:
    """Whether ``review`` (of the first rounds of ``events``) reviews every complete round."""
    end, _ = complete_prefix(tuple(events))
    return review.meta.get("events_done") == end


def save_cached(cache_dir, review: MatchReview) -> Optional[Path]:
    """Write ``review`` beside its match's other reviews; the path, or None if it could
    not be written (said in the log: a review is only a cache)."""
    path = cache_path(cache_dir, review.match_id)
    if path is None:
        log.warning("no review cache for match id %r", review.match_id)
        return None
    try:
        atomic_write_text(path, json.dumps(review.to_data(), ensure_ascii=False,
                                           separators=(",", ":")))
    except (OSError, ValueError) as exc:
        log.warning("could not write the review cache %s: %s", path, exc)
        return None
    return path
