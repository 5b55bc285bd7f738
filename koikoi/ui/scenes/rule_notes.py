"""The rules of a match in plain sentences: the "Scoring in these rules" notes of the New
match screen and the how-to page (every house-rule value gets its note). The sentences are
made in the current language each time they are asked for."""

from __future__ import annotations

from ...engine import Rules
from ...engine.scoring import ino_mode
from ...i18n import _, ngettext


def rule_note_items(rules: Rules) -> list[tuple[tuple[str, ...], str, bool]]:
    """(the knobs a note is about, the sentence, shown always) for how ``rules`` score and
    play. A note not shown always says what a knob's plain value means ("Four pairs in the
    opening field: play goes on."): worth saying only where house rules changed that knob
    (``rule_notes(rules, changed=...)``)."""
    items: list[tuple[tuple[str, ...], str, bool]] = []

    def note(knobs, text, always=True):
        items.append((tuple(knobs) if isinstance(knobs, (tuple, list)) else (knobs,), text, always))

    if rules.months:
        offered = ", ".join(str(m) for m in rules.months_offered)
        note("months", _("A match lasts {n} months (rounds) unless you pick another length ({offered}). "
                         "The higher total at the end wins.").format(n=rules.months, offered=offered))
    else:
        note("months", _("No month limit: the match goes on until the target or until a player has no points left.")
             if rules.scoring_mode == "zero_sum" else _("No month limit: the match goes on until the target."))
    if rules.target_points:
        note("target_points", _("The first player to reach {n} points wins.").format(n=rules.target_points))
    else:
        note("target_points", _("No target: the match is played to its full length."), False)
    if rules.seven_plus_double:
        note("seven_plus_double", _("A hand worth 7 points or more is doubled."))
    else:
        note("seven_plus_double", _("A hand worth 7 points or more is not doubled."), False)
    km = {
        "opponent_called": _("If your opponent called Koi-Koi before you stop, your points are doubled."),
        "own_calls_and_opponent": _("Each of your own Koi-Koi calls multiplies your points (×2 after one call, "
                                    "×3 after two…), and they double again if your opponent called."),
        "caller": _("Your points are doubled if you called Koi-Koi before stopping."),
        "anyone": _("Points are doubled if anybody called Koi-Koi this round."),
        "scaling": _("Every Koi-Koi call this round adds ×1 to the multiplier."),
        "none": _("Koi-Koi calls do not multiply the points."),
    }
    if rules.max_koikoi_calls != 0:
        note("koikoi_multiplier", km[rules.koikoi_multiplier])
    calls = rules.max_koikoi_calls
    if calls == 1:
        note("max_koikoi_calls", _("After a Koi-Koi, the next yaku made by either player ends the round at once."))
    elif calls == 0:
        note("max_koikoi_calls", _("There is no Koi-Koi: the first yaku ends the round."))
    elif calls is None:
        note("max_koikoi_calls", _("Koi-Koi may be called any number of times in a round."), False)
    else:
        note("max_koikoi_calls", _("Koi-Koi may be called {n} times in a round, by both players together; "
                                   "then the next yaku ends it.").format(n=calls))
    if rules.viewing == "off":
        note("viewing", _("Flower and Moon Viewing (Hanami-zake, Tsukimi-zake) do not score."))
    elif rules.viewing == "with_other_yaku":
        note("viewing", _("Flower and Moon Viewing (Hanami-zake, Tsukimi-zake) score only beside another yaku."))
    else:
        note("viewing", _("Flower and Moon Viewing (Hanami-zake, Tsukimi-zake) score like any yaku."), False)
    if rules.viewing != "off":
        if rules.weather:
            note("weather", _("Weather ruling: a Willow card in the field cancels Hanami-zake, a Paulownia "
                              "card cancels Tsukimi-zake, until it is cleared."))    # as House rules names them
        else:
            note("weather", _("No weather ruling: Willow and Paulownia cards in the field cancel no yaku."), False)
    # knobs some rule sets have: read with getattr, so the notes work for every version of Rules
    after = getattr(rules, "viewing_after_koikoi", None)
    if rules.viewing != "off" and after is not None:
        note("viewing_after_koikoi",
             _("Once their holder has called Koi-Koi, Flower and Moon Viewing no longer count.")
             if after == 0 else
             ngettext("Once their holder has called Koi-Koi, Flower and Moon Viewing are worth {n} point each.",
                      "Once their holder has called Koi-Koi, Flower and Moon Viewing are worth {n} points each.",
                      after).format(n=after))
    rain = getattr(rules, "rain_break", "off")
    if rules.viewing != "off" and rain in ("rain_man", "rain_man_or_phoenix"):
        note("rain_break", _("Rain-break: the Rain Man or the Phoenix in your own pile cancels your Flower and "
                             "Moon Viewing.") if rain == "rain_man_or_phoenix" else
             _("Rain-break: the Rain Man in your own pile cancels your Flower and Moon Viewing."))
    elif rules.viewing != "off":
        note("rain_break", _("No rain-break: the cards in your own pile cancel none of your yaku."), False)
    tsuki = getattr(rules, "tsuki_fuda", 0)
    if tsuki:
        note("tsuki_fuda", ngettext("Tsuki-fuda: all four cards of the round's own month (Pine in round 1, Plum "
                                    "in round 2, …) score {n} point.",
                                    "Tsuki-fuda: all four cards of the round's own month (Pine in round 1, Plum "
                                    "in round 2, …) score {n} points.", tsuki).format(n=tsuki))
    else:
        note("tsuki_fuda", _("No Tsuki-fuda: the round's own month scores nothing special."), False)
    bonus = getattr(rules, "own_call_bonus", 0)
    if bonus and rules.max_koikoi_calls != 0:
        most = getattr(rules, "own_call_bonus_max_calls", None)
        if most:
            text = ngettext("Koi-Koi bonus: the winner adds {n} point for each Koi-Koi they called this round, "
                            "up to {most} calls; with more, the hand is multiplied instead.",
                            "Koi-Koi bonus: the winner adds {n} points for each Koi-Koi they called this round, "
                            "up to {most} calls; with more, the hand is multiplied instead.",
                            bonus).format(n=bonus, most=most)
        else:
            text = ngettext("Koi-Koi bonus: the winner adds {n} point for each Koi-Koi they called this round.",
                            "Koi-Koi bonus: the winner adds {n} points for each Koi-Koi they called this round.",
                            bonus).format(n=bonus)
        note(("own_call_bonus", "own_call_bonus_max_calls"), text)
    elif rules.max_koikoi_calls != 0:
        note("own_call_bonus", _("No Koi-Koi bonus: your calls add no points of their own."), False)
    if getattr(rules, "akatan_aotan_on_top", False) and rules.combo_grading == "stack":
        note("akatan_aotan_on_top", ngettext("Both ribbon sets also score Akatan-Aotan ({n} point) on top of "
                                             "Akatan and Aotan.",
                                             "Both ribbon sets also score Akatan-Aotan ({n} points) on top of "
                                             "Akatan and Aotan.", rules.akatan_aotan).format(n=rules.akatan_aotan))
    if getattr(rules, "field_three_of_month", "play_on") == "redeal":
        note("field_three_of_month", _("Three cards of a month in the opening field: the cards are dealt again."))
    if rules.combo_grading == "graded":
        note("combo_grading", _("Graded set yaku: Inoshikachō, Akatan and Aotan gain 1 point for each further card "
                                "of their kind, and then Tane or Tanzaku does not count."))
    else:
        note("combo_grading", _("Set yaku stack: every yaku scores on its own, so Akatan's ribbons still count "
                                "toward Tanzaku."), False)
    sake = ("sake_cup_is_chaff", "sake_cup_is_animal")
    if rules.sake_cup_is_chaff and rules.sake_cup_is_animal:
        note(sake, _("The Sake cup counts as an animal toward Tane and as chaff toward Kasu."), False)
    elif rules.sake_cup_is_chaff:
        note(sake, _("The Sake cup counts as chaff toward Kasu, not as an animal."), False)
    elif rules.sake_cup_is_animal:
        note(sake, _("The Sake cup counts as an animal toward Tane."), False)
    else:
        note(sake, _("The Sake cup counts only for the viewing yaku."), False)
    if rules.lucky_hands == "on":
        note(("lucky_hands", "lucky_points"),
             ngettext("Lucky hands: four cards of one month (Teshi) or four pairs (Kuttsuki) in the dealt "
                      "hand win {n} point at once.",
                      "Lucky hands: four cards of one month (Teshi) or four pairs (Kuttsuki) in the dealt "
                      "hand win {n} points at once.", rules.lucky_points).format(n=rules.lucky_points))
    elif rules.lucky_hands == "misdeal":
        note("lucky_hands", _("A dealt hand of four cards of one month or four pairs is a misdeal: "
                              "the cards are dealt again."))
    else:
        note("lucky_hands", _("No lucky hands: four of a month or four pairs in a dealt hand win nothing."), False)
    if rules.field_four_of_month == "dealer_wins":
        note(("field_four_of_month", "lucky_points"),
             ngettext("All four cards of a month in the opening field: the dealer wins the round for {n} point.",
                      "All four cards of a month in the opening field: the dealer wins the round for {n} points.",
                      rules.lucky_points).format(n=rules.lucky_points))
    elif rules.field_four_of_month == "dealer_sweeps":
        note("field_four_of_month", _("All four cards of a month in the opening field: the dealer captures them "
                                      "and four stock cards take their place."))
    else:
        note("field_four_of_month", _("All four cards of a month in the opening field: the cards are dealt again."),
             False)
    if rules.field_four_pairs == "redeal":
        note("field_four_pairs", _("Four pairs of months in the opening field: the cards are dealt again."), False)
    else:
        note("field_four_pairs", _("Four pairs of months in the opening field: play goes on."), False)
    if getattr(rules, "field_three_of_month", "play_on") == "redeal":
        note("field_three_of_month", _("Three cards of one month in the opening field: the cards are dealt "
                                       "again."), False)
    if getattr(rules, "inoshikacho_grading", "set_yaku") != "set_yaku":
        note("inoshikacho_grading", {"stack": _("Inoshikachō pays its points; more Animals count only for Tane."),
                                     "graded": _("Inoshikachō: +1 for each further Animal (then not Tane)."),
                                     "graded_tane_pays": _("Inoshikachō: +1 for each further Animal, and "
                                                           "Tane still pays.")}.get(ino_mode(rules), ""), False)
    if getattr(rules, "akatan_aotan_on_top", False):
        note("akatan_aotan_on_top", ngettext("All six ribbons: Red and Blue Ribbons pay {n} point on top of "
                                             "Akatan and Aotan.",
                                             "All six ribbons: Red and Blue Ribbons pay {n} points on top of "
                                             "Akatan and Aotan.", rules.akatan_aotan).format(n=rules.akatan_aotan))
    cap = getattr(rules, "own_call_bonus_max_calls", None)
    if getattr(rules, "own_call_bonus", 0) and cap is not None:
        note("own_call_bonus_max_calls", _("Past {cap} own calls the bonus gives way to a multiplier: "
                                           "times (calls − {less}).").format(cap=cap, less=cap - 1))
    if rules.field_brights_multiplier:
        note("field_brights_multiplier", _("Each Bright in the opening field multiplies the points."))
    else:
        note("field_brights_multiplier", _("Brights in the opening field do not multiply the points."), False)
    if rules.oya_ken:
        note("oya_ken", ngettext("Oya-ken: when nobody scores, the dealer wins {n} point.",
                                 "Oya-ken: when nobody scores, the dealer wins {n} points.",
                                 rules.oya_ken).format(n=rules.oya_ken))
    else:
        note("oya_ken", _("No Oya-ken: when nobody scores, nobody gets points."), False)
    if rules.must_play_match:
        note("must_play_match", _("You must play a card that matches the field whenever you hold one."))
    else:
        note("must_play_match", _("You may play any card, even one that matches nothing while another does."),
             False)
    if rules.scoring_mode == "zero_sum":
        note(("scoring_mode", "starting_points"),
             _("Zero-sum stakes: both start with {n} points and pay each other; "
               "the match ends when one runs out.").format(n=rules.starting_points))
    else:
        note("scoring_mode", _("Running total: each round's points are added up."), False)
    note("exhausted_dealer", {"keeps": _("If nobody scores, the dealer deals again."),
                              "passes": _("If nobody scores, the deal passes to the other player."),
                              "last_yaku": _("If nobody scores, whoever last made a yaku deals next.")
                              }[rules.exhausted_dealer])
    return items


def rule_notes(rules: Rules, changed=()) -> list[str]:
    """Plain sentences describing how ``rules`` score a round; with ``changed`` (knobs
    changed by house rules), also the notes on those knobs' plain values."""
    changed = set(changed)
    return [text for knobs, text, always in rule_note_items(rules) if always or changed.intersection(knobs)]
