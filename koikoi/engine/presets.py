"""The six presets of shared/RULES.md and the presets of two games, KoiKoi Japan and Battle
Hanafuda: ``RULESETS`` (name -> Rules), ``PRESET_LABELS`` and ``PRESET_DESCRIPTIONS``."""

from __future__ import annotations

from dataclasses import replace

from .cards import N_
from .ruleset import Rules


_CASUAL = Rules(
    name="casual", months=6, months_offered=(1, 3, 6, 12),
    combo_grading="stack", sake_cup_is_chaff=False, lucky_hands="off",
    field_four_pairs="play_on", seven_plus_double=True,
    koikoi_multiplier="opponent_called", exhausted_dealer="passes", oyagime_tie="redraw",
)

_CLASSIC = Rules(
    name="classic", months=12, months_offered=(1, 3, 6, 12),
    goko=15, shiko=8, ame_shiko=7, sanko=6, inoshikacho=5, akatan=6, aotan=6, akatan_aotan=12,
    combo_grading="stack", sake_cup_is_chaff=False, lucky_hands="off",
    field_four_pairs="play_on", seven_plus_double=False,
    koikoi_multiplier="opponent_called", exhausted_dealer="keeps", oyagime_tie="redraw",
)

_NINTENDO = Rules(
    name="nintendo", months=12, months_offered=(3, 6, 12),
    combo_grading="graded", sake_cup_is_chaff=True, lucky_hands="on", lucky_both_players="dealer",
    field_four_pairs="play_on", seven_plus_double=True, koikoi_multiplier="opponent_called",
    max_koikoi_calls=1, exhausted_dealer="passes", oyagime_tie="redraw",
)

_KK_ADD_10 = Rules(
    name="kk-add-10", months=12, months_offered=tuple(range(1, 13)),
    combo_grading="graded", sake_cup_is_chaff=True, lucky_hands="on", lucky_both_players="draw",
    field_four_pairs="redeal", seven_plus_double=True, koikoi_multiplier="own_calls_and_opponent",
    prompt_when="combo_new_or_grew", last_turn_auto_stop="mover_hand_empty",
    exhausted_dealer="keeps", oyagime_tie="kind",
)

_TOURNAMENT = replace(
    _KK_ADD_10, name="tournament", viewing="off", koikoi_multiplier="opponent_called",
    max_koikoi_calls=1, prompt_when="total_rises",
)

_YAKUZA = replace(
    _KK_ADD_10, name="yakuza", viewing="off", lucky_both_players="dealer",
    prompt_when="total_rises",
)

# KoiKoi Japan (the Steam game), as the open KoiKoi-AI project plays it: other sets stack,
# Akatan-Aotan pays on top, the viewing yaku are 1 (3 after one's own call), the sake cup is an
# animal and chaff, no doublings but +1 a call up to 3 calls and ×(calls − 2) beyond, the dealer
# gets 1 point when a round runs out, 8 rounds, zero-sum from 30 points each, and no Koi-Koi on
# the mover's last card. A dealt Teshi is redealt there (and Kuttsuki with it here: lucky hands
# "misdeal" redeals both) *(chosen)*; its stakes are not capped at the loser's points, ours are.
_KOIKOI_JAPAN = Rules(
    name="koikoi-japan", months=8, months_offered=(1, 3, 6, 8, 12),
    goko=10, shiko=8, ame_shiko=7, sanko=5, inoshikacho=5, akatan=5, aotan=5, akatan_aotan=10,
    hanami_zake=1, tsukimi_zake=1, viewing_after_koikoi=3, tane=1, tanzaku=1, kasu=1,
    combo_grading="stack", akatan_aotan_on_top=True, sake_cup_is_chaff=True, sake_cup_is_animal=True,
    lucky_hands="misdeal", field_four_of_month="redeal", field_four_pairs="play_on",
    seven_plus_double=False, koikoi_multiplier="none", own_call_bonus=1, own_call_bonus_max_calls=3,
    max_koikoi_calls=None, prompt_when="total_rises", last_turn_auto_stop="mover_hand_empty",
    exhausted_dealer="keeps", oya_ken=1, oyagime_tie="redraw",
    scoring_mode="zero_sum", starting_points=30,
)

# Battle Hanafuda (the open Battle Hanafuda AI, suzukiplan/open-hanafuda-ai): Nintendo's rules,
# but a dealt Teshi or Kuttsuki is redealt rather than paid, and so is a field holding four pairs
# or three (or four) cards of one month (its deal check rejects a field month of three or more),
# and no Koi-Koi is offered on the mover's last card. It offers 2, 4, 6 and 12 rounds.
_BATTLE_HANAFUDA = replace(
    _NINTENDO, name="battle-hanafuda", months_offered=(2, 4, 6, 12), lucky_hands="misdeal",
    field_four_pairs="redeal", field_three_of_month="redeal", last_turn_auto_stop="mover_hand_empty",
)

RULESETS: dict[str, Rules] = {
    r.name: r for r in (_CASUAL, _CLASSIC, _NINTENDO, _KK_ADD_10, _TOURNAMENT, _YAKUZA,
                        _KOIKOI_JAPAN, _BATTLE_HANAFUDA)
}
"""Preset name -> Rules, in the order of RULES.md section 5 (then the two games' presets)."""

PRESET_LABELS = {
    "casual": N_("Casual (6 months, stacking yaku)"),
    "classic": N_("Classic (Gokō 15, no 7+ doubling)"),
    "nintendo": N_("Nintendo (graded yaku, one Koi-Koi)"),
    "kk-add-10": N_("KK-ADD-10 (your calls multiply)"),
    "tournament": N_("Tournament (no viewing yaku, one Koi-Koi)"),
    "yakuza": N_("Yakuza (no viewing yaku)"),
    "koikoi-japan": N_("KoiKoi Japan (zero-sum, +1 a call)"),
    "battle-hanafuda": N_("Battle Hanafuda (redeals, one Koi-Koi)"),
}

PRESET_DESCRIPTIONS = {
    "casual": N_("Six months, every yaku stacks, and an opponent's Koi-Koi doubles your score."),
    "classic": N_("Twelve months, Gokō worth 15 and Sankō 6, and no doubling at 7 points."),
    "nintendo": N_("Nintendo's rules: graded set yaku, lucky hands, and one Koi-Koi a round."),
    "kk-add-10": N_("Graded set yaku, and every one of your own Koi-Koi calls multiplies your score."),
    "tournament": N_("Graded set yaku, no viewing yaku, and one Koi-Koi a round."),
    "yakuza": N_("Graded set yaku, no viewing yaku, and your own Koi-Koi calls multiply your score."),
    "koikoi-japan": N_("KoiKoi Japan's rules: eight months of zero-sum stakes from 30 points each; sets "
                    "stack, Akatan-Aotan pays 10 on top, viewing yaku pay 1 (3 after your own "
                    "Koi-Koi), and each call adds 1 point (up to 3 calls, then multiplies)."),
    "battle-hanafuda": N_("Battle Hanafuda's rules: Nintendo's, but lucky hands, four pairs or three of "
                       "a month in the field are dealt again, and no Koi-Koi on your last card."),
}
"""Preset name -> one or two sentences for the rules panel and the how-to-play page."""
