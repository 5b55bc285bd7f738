"""Helpers that put the engine into exact positions.

``rigged(monkeypatch, decks)`` makes the engine's shuffles return the given
decks in turn (each a list of 48 card ids, or a partial list completed in deck
order). The deal puts deck[0:8] in the dealer's hand, deck[8:16] in the other
hand, deck[16:24] on the field and deck[24:] in the stock, top first; an
oya-gime spread is deck[0:4].
"""

from __future__ import annotations

import pytest

from koikoi.engine import PickOyagime, apply, new_match
from koikoi.engine import match as M
from koikoi.engine.cards import ID_TO_INDEX, IDS


def full_deck(*parts):
    """Concatenate id lists and complete them with the unused cards in deck order."""
    ids = [c for part in parts for c in part]
    assert len(ids) == len(set(ids)), "a card appears twice"
    rest = [c for c in IDS if c not in set(ids)]
    return [ID_TO_INDEX[c] for c in ids + rest]


def deal(dealer_hand, other_hand, field, stock=()):
    assert len(dealer_hand) == 8 and len(other_hand) == 8 and len(field) == 8
    return full_deck(dealer_hand, other_hand, field, stock)


@pytest.fixture
def rigged(monkeypatch):
    def install(*decks):
        queue = [list(d) for d in decks]

        def shuffled(keys):
            if queue:
                return queue.pop(0)
            return sorted(range(48), key=keys.__getitem__)

        monkeypatch.setattr(M, "_shuffled", shuffled)
        return queue
    return install


# Oya-gime spreads: seat 0 picks from cards 0-1, seat 1 from 2-3.
SEAT0_DEALS = full_deck(["01-P1", "01-P2", "05-P1", "05-P2"])   # January before May
SEAT1_DEALS = full_deck(["05-P1", "05-P2", "01-P1", "01-P2"])


def start(rules, rigged, *round_decks, dealer=0, months=None):
    """A match past oya-gime with the given deals queued; ``dealer`` deals first."""
    rigged(SEAT0_DEALS if dealer == 0 else SEAT1_DEALS, *round_decks)
    s = new_match(rules, seed=7, months=months)
    s = apply(s, PickOyagime(0))
    return apply(s, PickOyagime(2))
