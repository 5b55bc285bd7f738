"""Every screen names every yaku exactly as it did before the one yaku table
(koikoi.engine.yaku) replaced the screens' own helpers.

The ``_old_*`` functions and ``OLD_YAKU_NAMES`` are copies of the helpers as they were
(``git show 9c1d2d7:<file>``); each test puts a screen's old text beside its new text for
every name the engine can produce (tests/engine/test_yaku.py shows these are all in
``BY_NAME``) in every name style, plus one the settings never hold.

Where the old helpers disagreed:
- the (main line, second line) pair of the how-to page (English over "rōmaji  kanji") and
  of hints.yaku_title (rōmaji over English, the kanji put first by the prompt and the
  inspector) are different layouts, not different names: ``title`` is the how-to page's, the
  prompt and inspector build theirs from ``label(short=True)`` and the row's kanji/English,
  so both screens read as before;
- for a name not in the table, round/prompt/hints showed the raw name, stats a title-cased
  one, the how-to page raised KeyError, and results read compound names by their parts. The
  one fallback left is results' (tested at the end).
"""

import random
from dataclasses import replace

import pytest

from koikoi.engine import RULESETS
from koikoi.engine import yaku as Y
from koikoi.ui.scenes.howto import YAKU_CARDS, yaku_rows

OLD_YAKU_NAMES = {
    "goko": ("Five Brights", "Gokō", "五光"),
    "shiko": ("Four Brights", "Shikō", "四光"),
    "ame_shiko": ("Rainy Four Brights", "Ame-Shikō", "雨四光"),
    "sanko": ("Three Brights", "Sankō", "三光"),
    "inoshikacho": ("Boar, Deer, Butterflies", "Inoshikachō", "猪鹿蝶"),
    "akatan": ("Red Poetry Ribbons", "Akatan", "赤短"),
    "aotan": ("Blue Ribbons", "Aotan", "青短"),
    "akatan_aotan": ("Red and Blue Ribbons", "Akatan-Aotan", "赤短・青短"),
    "hanami_zake": ("Flower Viewing", "Hanami-zake", "花見酒"),
    "tsukimi_zake": ("Moon Viewing", "Tsukimi-zake", "月見酒"),
    "tane": ("Animals", "Tane", "タネ"),
    "tanzaku": ("Ribbons", "Tanzaku", "タン"),
    "kasu": ("Chaff", "Kasu", "カス"),
    "teshi": ("Four of a Month", "Teshi", "手四"),
    "kuttsuki": ("Four Pairs", "Kuttsuki", "くっつき"),
    "teshi_kuttsuki": ("Four of a Month and Four Pairs", "Teshi + Kuttsuki", "手四・くっつき"),
    "field_four": ("Four of a Month in the Field", "Ba-shi", "場四"),
    "oya_ken": ("Dealer's Privilege", "Oya-ken", "親権"),
}

OLD_YAKU_CARDS = {
    "goko": ("01-B", "03-B", "08-B", "11-B", "12-B"),
    "shiko": ("01-B", "03-B", "08-B", "12-B"),
    "ame_shiko": ("01-B", "03-B", "08-B", "11-B"),
    "sanko": ("01-B", "03-B", "08-B"),
    "inoshikacho": ("07-A", "10-A", "06-A"),
    "akatan": ("01-RP", "02-RP", "03-RP"),
    "aotan": ("06-RB", "09-RB", "10-RB"),
    "akatan_aotan": ("01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB"),
    "hanami_zake": ("03-B", "09-A"),
    "tsukimi_zake": ("08-B", "09-A"),
    "tane": ("02-A", "04-A", "05-A", "08-A", "11-A"),
    "tanzaku": ("04-R", "05-R", "07-R", "11-R", "01-RP"),
    "kasu": ("01-P1", "02-P1", "03-P1", "04-P1", "05-P1", "06-P1", "07-P1", "08-P1", "09-P1", "10-P1"),
}


# round.py: yaku_label; prompt.py: _label
def _old_round_label(name):
    return OLD_YAKU_NAMES.get(name, (name, name, name))


# results.py: yaku_label, short_yaku (the ledger)
def _old_results_label(name):
    if name in OLD_YAKU_NAMES:
        return OLD_YAKU_NAMES[name]
    parts = [OLD_YAKU_NAMES.get(p, (p.title(), p.title(), "")) for p in name.split("_")]
    return (" + ".join(p[0] for p in parts), " + ".join(p[1] for p in parts), "・".join(p[2] for p in parts))


def _old_short_yaku(name):
    return _old_results_label(name)[1]


# hints.py: yaku_title, yaku_kanji, yaku_short (round panels, near misses, prompt, inspector)
def _old_hints_title(name, style="both"):
    english, romaji, _ = OLD_YAKU_NAMES.get(name, (name, name, name))
    if style == "english":
        return english, ""
    if style == "romaji":
        return romaji, ""
    return romaji, english


def _old_hints_kanji(name):
    return OLD_YAKU_NAMES.get(name, (name, name, name))[2]


def _old_hints_short(name, style="both"):
    english, romaji, _ = OLD_YAKU_NAMES.get(name, (name, name, name))
    return english if style == "english" else romaji


# howto.py: yaku_title
def _old_howto_title(name, style="both"):
    en, romaji, kanji = OLD_YAKU_NAMES[name]
    if style == "english":
        return en, kanji
    if style == "romaji":
        return romaji, kanji
    return en, f"{romaji}  {kanji}"


# stats.py: yaku_text
def _old_stats_text(name, style="both"):
    en, romaji, _ = OLD_YAKU_NAMES.get(name, (name.title(), name.title(), ""))
    return {"english": en, "romaji": romaji}.get(style, f"{romaji} · {en}")


# replay.py: _yaku_name (the style was a module global set by the scene)
def _old_replay_name(name, style):
    en, romaji, _ = _old_results_label(name)
    return en if style == "english" else romaji


# howto.py: yaku_rows
def _old_yaku_rows(rules):
    graded = rules.combo_grading == "graded"
    rows = [
        ("goko", str(rules.goko), "All five Brights."),
        ("shiko", str(rules.shiko), "Four Brights, not the Rain Man."),
        ("ame_shiko", str(rules.ame_shiko), "Four Brights with the Rain Man."),
        ("sanko", str(rules.sanko), "Three Brights, not the Rain Man. Only the best Bright yaku counts."),
        ("inoshikacho", str(rules.inoshikacho) + ("+" if graded else ""),
         "Boar, Deer and Butterflies." + (" +1 for each further Animal (Tane then does not count)." if graded else "")),
        ("akatan", str(rules.akatan) + ("+" if graded else ""),
         "The three red poetry ribbons." + (" +1 for each further Ribbon." if graded else "")),
        ("aotan", str(rules.aotan) + ("+" if graded else ""),
         "The three blue ribbons." + (" +1 for each further Ribbon." if graded else "")),
    ]
    if graded:
        rows.append(("akatan_aotan", f"{rules.akatan_aotan}+",
                     "All six poetry and blue ribbons, as one yaku. +1 for each further Ribbon."))
    if rules.viewing != "off":
        extra = " Counts only beside another yaku." if rules.viewing == "with_other_yaku" else ""
        rows.append(("hanami_zake", str(rules.hanami_zake), "The Cherry curtain and the Sake cup." + extra))
        rows.append(("tsukimi_zake", str(rules.tsukimi_zake), "The Moon and the Sake cup." + extra))
    rows += [
        ("tane", f"{rules.tane}+", "Any five Animals; +1 for each further one."),
        ("tanzaku", f"{rules.tanzaku}+", "Any five Ribbons; +1 for each further one."),
        ("kasu", f"{rules.kasu}+", "Any ten Chaff; +1 for each further one."
         + (" The Sake cup counts as Chaff too." if rules.sake_cup_is_chaff else "")),
    ]
    return [r for r in rows if r[1].rstrip("+") != "0"]


NAMES = sorted(OLD_YAKU_NAMES)      # the names the old helpers knew: read exactly as before
# Yaku added since, with the house rules that make them (#16): named once in the table too.
NEW_NAMES = {
    "tsuki_fuda": ("The Month's Cards", "Tsuki-fuda", "月札"),
    "koikoi_bonus": ("Koi-Koi Bonus", "Koi-Koi", "こいこい"),
}
STYLES = (*Y.STYLES, "nonsense")   # stats, replay and how-to read the setting unchecked


def test_the_names_are_the_old_ones():
    assert set(Y.BY_NAME) == set(OLD_YAKU_NAMES) | set(NEW_NAMES)
    for name, names in {**OLD_YAKU_NAMES, **NEW_NAMES}.items():
        y = Y.info(name)
        assert (y.english, y.romaji, y.kanji) == names


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", sorted(NEW_NAMES))
def test_the_new_yaku_read_in_every_style(name, style):
    en, romaji, kanji = NEW_NAMES[name]
    assert Y.label(name, style, short=True) == (en if style == "english" else romaji)
    assert Y.label(name, style) in (en, romaji, f"{romaji} · {en}")
    assert Y.title(name) == (en, f"{romaji}  {kanji}")


@pytest.mark.parametrize("name", NAMES)
def test_style_free_screens_read_as_before(name):
    y = Y.info(name)
    k, r = _old_round_label(name)[2], _old_round_label(name)[1]
    # round: the lucky-hand banner, the yaku banner, the line beside each capture pile;
    # prompt: the results card
    assert f"{y.kanji} {y.romaji}" == f"{k} {r}"
    assert f"{y.kanji}  {y.romaji}  5" == f"{k}  {r}  5"
    assert f"{y.kanji} 5" == f"{k} 5"
    # results: English over "rōmaji  kanji"; ledger: the rōmaji
    en, romaji, kanji = _old_results_label(name)
    assert Y.title(name) == (en, f"{romaji}  {kanji}")
    assert Y.label(name, "romaji") == _old_short_yaku(name)


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", NAMES)
def test_styled_screens_read_as_before(name, style):
    y = Y.info(name)
    # round's combo panels, near-miss text, replay: one short name
    assert Y.label(name, style, short=True) == _old_hints_short(name, style) == _old_replay_name(name, style)
    # prompt and inspector: "kanji  name", the English under it when both are shown
    # (their style went through hints.style_of, so never "nonsense")
    if style in Y.STYLES:
        main, second = _old_hints_title(name, style)
        assert f"{y.kanji}  {Y.label(name, style, short=True)}" == f"{_old_hints_kanji(name)}  {main}"
        assert (y.english if style == "both" else "") == second
    # stats: one full name
    assert Y.label(name, style) == _old_stats_text(name, style)
    # the how-to page
    if name in OLD_YAKU_CARDS:
        assert Y.title(name, style) == _old_howto_title(name, style)


def test_the_how_to_page_and_stats_show_the_same_cards_and_rows():
    new = {"tsuki_fuda": ("01-B", "01-RP", "01-P1", "01-P2")}     # a yaku since (#16)
    assert YAKU_CARDS == {**OLD_YAKU_CARDS, **new}
    assert {y.name: y.example for y in Y.CAPTURES} == {**OLD_YAKU_CARDS, **new}
    assert set(Y.CAPTURE_ORDER) == set(OLD_YAKU_CARDS) | set(new)   # stats lists only these
    rng = random.Random(4)
    # the rules the old rows knew: the presets of then, the knobs of since at their defaults
    variants = [RULESETS[n] for n in ("casual", "classic", "nintendo", "kk-add-10", "tournament", "yakuza")]
    for _ in range(200):
        base = rng.choice(variants[:6])
        variants.append(replace(
            base, combo_grading=rng.choice(["stack", "graded"]), viewing=rng.choice(["on", "off", "with_other_yaku"]),
            sake_cup_is_chaff=rng.random() < 0.5,
            **{n: rng.choice([0, 1, 5, 12]) for n in rng.sample(sorted(OLD_YAKU_CARDS), 4)}))
    for rules in variants:
        assert yaku_rows(rules) == _old_yaku_rows(rules), rules


def test_the_one_fallback_is_the_results_screens():
    # The old helpers disagreed on a name they did not know ...
    assert _old_round_label("mystery") == ("mystery", "mystery", "mystery")
    assert _old_stats_text("mystery_box") == "Mystery_Box · Mystery_Box"
    with pytest.raises(KeyError):
        _old_howto_title("mystery")
    # ... the one left reads a compound by its parts and title-cases the rest, like results did.
    for name in ("teshi_goko", "kuttsuki_sanko", "mystery", "mystery_box"):
        en, romaji, kanji = _old_results_label(name)
        assert (Y.info(name).english, Y.info(name).romaji) == (en, romaji)
        assert Y.info(name).kanji == "・".join(k for k in kanji.split("・") if k)


def test_the_how_to_rows_follow_the_new_house_rules():
    japan = {name: (points, how) for name, points, how in yaku_rows(RULESETS["koikoi-japan"])}
    assert japan["akatan_aotan"][0] == "10" and "on top of Akatan and Aotan" in japan["akatan_aotan"][1]
    assert "After your own Koi-Koi: 3 points." in japan["hanami_zake"][1]
    graded = replace(RULESETS["casual"], inoshikacho_grading="graded_tane_pays")
    rows = {name: (points, how) for name, points, how in yaku_rows(graded)}
    assert rows["inoshikacho"][0].endswith("+") and "Tane still counts" in rows["inoshikacho"][1]
    month = {name: points for name, points, _how in yaku_rows(replace(RULESETS["casual"], tsuki_fuda=4))}
    assert month["tsuki_fuda"] == "4" and "tsuki_fuda" not in dict(
        (n, p) for n, p, _h in yaku_rows(RULESETS["casual"]))
