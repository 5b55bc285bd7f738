"""Helpers that put the engine into exact positions, through its public API.

``start(rules, *decks)`` starts a match whose first deals are ``decks`` (set with
``new_match(decks=..., first_dealer=...)``; each a list of 48 card ids, see
``deal``): the deal puts deck[0:8] in the dealer's hand, deck[8:16] in the other
hand, deck[16:24] on the field and deck[24:] in the stock, top first.
``seed_with_spread`` finds a seed whose first oya-gime spread is of a given shape.
"""

from __future__ import annotations

from hypothesis import strategies as st

from koikoi.engine import RULESETS, new_match
from koikoi.engine.cards import IDS
from koikoi.engine.events import OyagimeSpread


def full_deck(*parts):
    """Concatenate id lists and complete them with the unused cards in deck order."""
    ids = [c for part in parts for c in part]
    assert len(ids) == len(set(ids)), "a card appears twice"
    used = set(ids)
    return ids + [c for c in IDS if c not in used]


def deal(dealer_hand, other_hand, field, stock=()):
    assert len(dealer_hand) == 8 and len(other_hand) == 8 and len(field) == 8
    return full_deck(dealer_hand, other_hand, field, stock)


def start(rules, *round_decks, dealer=0, months=None, seed=7):
    """A match past oya-gime, ``dealer`` dealing the first round, with the given deals
    set for its first deals (then the seed deals)."""
    return new_match(rules, seed=seed, months=months, decks=list(round_decks), first_dealer=dealer)


def spread_of(seed):
    """The first oya-gime spread the seed draws (seat 0 picks from cards 0-1, seat 1 from
    2-3); it does not depend on the rules."""
    first = new_match(RULESETS["casual"], seed=seed).events[1]
    assert isinstance(first, OyagimeSpread)
    return first.cards


def seed_with_spread(wanted, tries=5000):
    """The first seed from 0 whose first oya-gime spread (four card ids) pleases ``wanted``."""
    for seed in range(tries):
        if wanted(spread_of(seed)):
            return seed
    raise AssertionError(f"no seed below {tries} draws such a spread")


# Hypothesis strategies for the house rules added with the KoiKoi Japan and Battle Hanafuda
# presets (#16), shared by the property tests' knob mixes.
HOUSE_KNOBS_OF_16 = {
    "inoshikacho_grading": st.sampled_from(["set_yaku", "stack", "graded", "graded_tane_pays"]),
    "akatan_aotan_on_top": st.booleans(),
    "rain_break": st.sampled_from(["off", "rain_man", "rain_man_or_phoenix"]),
    "tsuki_fuda": st.sampled_from([0, 4]),
    "viewing_after_koikoi": st.sampled_from([None, 0, 3]),
    "own_call_bonus": st.sampled_from([0, 1]),
    "own_call_bonus_max_calls": st.sampled_from([None, 1, 3]),
    "field_three_of_month": st.sampled_from(["play_on", "redeal"]),
}
