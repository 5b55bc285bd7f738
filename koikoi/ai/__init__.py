"""CPU opponents. ``make_player(level, ...)`` returns a player whose
``choose(view, legal)`` picks one of ``legal`` from what ``view`` shows.

Players see only a seat's ``View`` (its hand, the field, both capture piles,
counts), never the other hand or the stock order.

Levels (modules):

* ``random`` (players.py): uniformly random legal moves, the floor.
* ``easy`` (easy.py): greedy on card values, 20% random moves, calls Koi-Koi
  too readily. Microseconds a decision.
* ``medium`` (medium.py): yaku closeness for both sides from the unseen cards
  (knowledge.py), denial, no feeding the field, one-step look-ahead over its
  play and every possible stock card; Koi-Koi by expected value shifted by
  the match score and months left. A few ms a decision.
* ``hard`` (hard.py): determinized Monte-Carlo search in the lean simulator
  (sim.py) with the greedy playout policy (playout.py) and common random
  numbers, successive halving over Medium's top candidates, keeping Medium's
  favourite unless the playouts beat it by more than their noise; maximises
  the chance of winning the match through the table in data/winprob.json
  (tools/fit_winprob.py). 900 playouts at a round's opening by default,
  proportionally more as the hands empty (``hard.even_scale``, up to 3x), cut
  short at 0.5 s; or ``simulations`` (deterministic) or ``think_time`` seconds.

Each level's names (label, blurb, seat name), hints default and class are
declared once, in ``players.CPU_LEVELS``.

Every player keeps its own state (RNG, per-rules tables): one instance per
seat, callable from a worker thread.
"""

from __future__ import annotations

from .players import (CPU_LEVELS, LEVEL_INFO, LEVEL_LABELS, LEVEL_ORDER, LEVELS, OFFERED_LEVELS, Level,
                      Player, hints_on, make_player)

__all__ = ["make_player", "Player", "LEVELS", "Level", "CPU_LEVELS", "LEVEL_INFO", "LEVEL_LABELS",
           "LEVEL_ORDER", "OFFERED_LEVELS", "hints_on"]
