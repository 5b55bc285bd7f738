"""The match review: every decision of a seat valued by the CPU's Hard evaluator.

    from koikoi.review import analyse_match, ReviewJob, load_cached, save_cached
    review = analyse_match(state.events, (0,))          # in this process
    job = ReviewJob(events_to_json(state.events), (0,), match_id=mid, cache_dir=folder)

Modules: ``model`` (the values the screens read, and their JSON codec),
``analysis`` (the log walker and the core, ``analyse_decision(view, legal,
chosen)``), ``reasons`` (the sentences), ``cache`` (a review kept with its
match), ``job`` (the analysis in a background process). No pygame.
"""

from .analysis import (DEFAULT_BUDGET, INACCURACY_POINTS, MISTAKE_POINTS, NOISE_Z, Cancelled,
                       Position, analyse_decision, analyse_match, positions, verdict_of)
from .cache import cache_path, load_cached, load_partial, save_cached
from .job import ReviewJob
from .model import (FORCED, FORMAT, GOOD, INACCURACY, MISTAKE, VERDICTS, Decision, MatchReview,
                    Option, RoundReview)
from .reasons import explain, move_text

__all__ = ["analyse_match", "analyse_decision", "positions", "Position", "Cancelled", "ReviewJob",
           "load_cached", "load_partial", "save_cached", "cache_path", "MatchReview", "RoundReview",
           "Decision", "Option", "GOOD", "INACCURACY", "MISTAKE", "FORCED", "VERDICTS", "FORMAT",
           "DEFAULT_BUDGET", "INACCURACY_POINTS", "MISTAKE_POINTS", "NOISE_Z", "verdict_of",
           "explain", "move_text"]
