#!/usr/bin/env python3
"""Subset Noto Sans CJK JP into the game's own UI fonts (build time only).

    python tools/make_font.py

Reads Debian's Noto Sans CJK collections (package fonts-noto-cjk; install it
with `apt-get install -y fonts-noto-cjk` if they are missing) and writes

    assets/fonts/KoiKoiSans-Regular.otf
    assets/fonts/KoiKoiSans-Bold.otf
    assets/fonts/OFL.txt       the SIL Open Font License the font is under
    assets/fonts/README.txt    where the font came from, how to rebuild it

The subsets hold Latin-1, common punctuation and symbols, digits, all
hiragana and katakana, full-width ASCII, and the kanji the game's Japanese
labels use (KANJI below; add to it and rerun when the UI needs a new one).
The fonts are renamed "KoiKoi Sans" as the OFL asks of modified versions.
Output is byte-identical on reruns (timestamps are not recalculated).

Needs fontTools (`pip install fonttools`); the game itself does not.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "assets" / "fonts"
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
SOURCES = {
    "Regular": NOTO_DIR / "NotoSansCJK-Regular.ttc",
    "Bold": NOTO_DIR / "NotoSansCJK-Bold.ttc",
}
FAMILY = "KoiKoi Sans"
PS_FAMILY = "KoiKoiSans"
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")

# Kanji shown by the game: card and yaku names, months, scoring and menus.
KANJI = (
    # The brief's list: brights, animals, ribbons, chaff, yaku, months, plants
    "光種短冊札勝負五四三雨猪鹿蝶赤青花見月酒杯手親子松梅桜藤菖蒲牡丹萩芒菊"
    "紅葉柳桐鶴鶯幕時鳥橋雁盃寿燕鳳凰点文一二六七八九十場山取役合計倍"
    # card subjects: 藤に不如帰, 柳に小野道風, 雷, 鬼札, 八橋
    "不如帰小野道風雷鬼"
    # traditional month names (睦月 如月 弥生 卯月 皐月 水無月 文月 葉月 長月
    # 神無月 霜月 師走) and seasons
    "睦弥生卯皐水無長神霜師走春夏秋冬"
    # scoring and rules: 七点以上で倍, 流局, 役無し, 得点, 失点, 累計, 差, 枚, 組
    "以上流局得失累差枚組残数回番戦第目先後今全部計率連敗引分者"
    # menus and settings
    "設定音量効果新規開始終了続行戻次相自難易度普通簡単中強弱初級対人友達"
    "画面表示言語日本英閉記録統最高平均確認本当断再考待選択決入力保存読込"
    "消去元大下左右前年名秒遊方説明規則履歴題曲背景色札絵柄速遅早"
    "出来私君勝利敗北"
    # the Japanese catalog (koikoi/locale/ja): what `python tools/catalog.py glyphs` asks for
    "両何作使個停備切加動参同問善好学完少従思悪打押振捨探損操替未末析案検機止渡準物用疑直"
    "移端約結総置能覧解討詰返送配順並付伏余価値印地外実良試象途進間際類"
    "与主乗互交他代件任会伝伸体例信候側公別制助化可号各否含員囲堂増変多天字届屋席常式形影必応成所払投抜拒持指掛接支暗更書有棄楽様標権正段満灰照版特狙申異立答算範索細聞致補複要許証詳誤誰起超足近退重金降限隅階離響頭頼"
)

# Ranges of code points to keep (inclusive).
RANGES = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 supplement
    (0x0100, 0x017F),  # Latin Extended-A: the macrons of romaji (Gokō, shōbu, Inoshikachō)
    (0x2010, 0x2027),  # dashes, quotes, bullet, ellipsis
    (0x2030, 0x203B),  # per mille, primes, guillemets, reference mark
    (0x20AC, 0x20AC),  # euro
    (0x2122, 0x2122),  # trade mark
    (0x2190, 0x2193),  # arrows
    (0x2212, 0x2212),  # minus
    (0x25A0, 0x25CF),  # squares, triangles, circles (shapes used as markers)
    (0x2605, 0x2606),  # stars
    (0x266A, 0x266B),  # notes
    (0x3000, 0x303F),  # CJK symbols and punctuation (、。「」『』【】〜)
    (0x3041, 0x309F),  # hiragana
    (0x30A0, 0x30FF),  # katakana (incl. ・ ー ヶ)
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xFF01, 0xFF5E),  # full-width ASCII
    (0xFF5F, 0xFF65),  # full-width brackets, half-width punctuation
]

# OpenType layout features to keep (fontTools' defaults plus CJK ones).
EXTRA_FEATURES = ["palt", "halt", "vert", "vrt2", "vkrn", "vpal", "pwid", "fwid"]


def codepoints() -> list[int]:
    cps: set[int] = set()
    for lo, hi in RANGES:
        cps.update(range(lo, hi + 1))
    cps.update(ord(c) for c in KANJI)
    return sorted(cps)


def rename(font, style: str) -> None:
    """Give the subset its own name (OFL: modified versions are renamed)."""
    name = font["name"]
    full = f"{FAMILY} {style}" if style != "Regular" else f"{FAMILY} Regular"
    ps = f"{PS_FAMILY}-{style}"
    version = name.getDebugName(5) or "Version 1.000"
    keep = {0, 5, 7, 8, 9, 11, 12, 13, 14}
    name.names = [r for r in name.names if r.nameID in keep]
    values = {
        1: FAMILY,
        2: style,
        3: f"{ps};subset of Noto Sans CJK JP",
        4: full,
        6: ps,
        10: "A subset of Noto Sans CJK JP made for the Koi-Koi game (tools/make_font.py).",
        16: FAMILY,
        17: style,
    }
    for nid, text in values.items():
        name.setName(text, nid, 3, 1, 0x409)
        name.setName(text, nid, 1, 0, 0)
    name.setName(version, 5, 1, 0, 0)
    cff = font["CFF "].cff
    top = cff.topDictIndex[0]
    cff.fontNames = [ps]
    top.FullName = full
    top.FamilyName = FAMILY
    if hasattr(top, "FDArray"):
        for fd in top.FDArray:
            if hasattr(fd, "FontName"):
                fd.FontName = f"{ps}-{fd.FontName.split('-')[-1]}"


def build_one(style: str, src: Path, out: Path) -> int:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(src), fontNumber=0, recalcTimestamp=False, recalcBBoxes=True,
                  lazy=False)
    if "JP" not in (font["name"].getDebugName(4) or ""):
        raise SystemExit(f"{src}: font 0 is not Noto Sans CJK JP")
    options = subset.Options()
    options.layout_features = list(subset.Options().layout_features) + EXTRA_FEATURES
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False
    options.glyph_names = False
    options.hinting = True
    subsetter = subset.Subsetter(options=options)
    cmap = font.getBestCmap()
    wanted = [cp for cp in codepoints() if cp in cmap]
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    rename(font, style)
    out.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(out))
    return len(wanted)


OFL_HEADER = """\
KoiKoi Sans (assets/fonts/KoiKoiSans-*.otf) is a subset of Noto Sans CJK JP.

Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'.
Noto is a trademark of Google Inc.

This Font Software is licensed under the SIL Open Font License, Version 1.1.
This license is copied below, and is also available with a FAQ at:
https://openfontlicense.org

"""


def license_text() -> str:
    """The OFL 1.1 text, taken from Debian's copyright file for fonts-noto-cjk."""
    lines = DEBIAN_COPYRIGHT.read_text(encoding="utf-8").splitlines()
    start = lines.index("License: SIL-1.1", lines.index("License: SIL-1.1") + 1)
    body = []
    for line in lines[start + 1:]:
        if line.startswith("License:"):
            break
        if line.startswith(" "):
            line = line[1:]
            body.append("" if line == "." else line)
    while body and not body[-1].strip():
        body.pop()
    return OFL_HEADER + "\n".join(body) + "\n"


README = """\
KoiKoi Sans
===========

KoiKoiSans-Regular.otf and KoiKoiSans-Bold.otf are subsets of Noto Sans CJK
JP Regular and Bold (Google / Adobe, version {version}), taken from Debian's
fonts-noto-cjk package (/usr/share/fonts/opentype/noto/NotoSansCJK-*.ttc;
upstream https://github.com/notofonts/noto-cjk). They are renamed
"KoiKoi Sans" as the SIL Open Font License asks of modified fonts, and are
under that license: see OFL.txt.

They hold Latin-1, common punctuation and symbols, digits, full-width ASCII,
all hiragana and katakana, and the {nkanji} kanji the game's Japanese labels
use, so the game never needs a system font.

To regenerate (build time only; the game needs neither tool):

    apt-get install -y fonts-noto-cjk     # if the .ttc files are missing
    pip install fonttools
    python tools/make_font.py

To support a new kanji, add it to KANJI in tools/make_font.py and rerun.
"""


def main() -> int:
    try:
        import fontTools  # noqa: F401
    except ImportError:
        print("fontTools is needed at build time: pip install fonttools", file=sys.stderr)
        return 1
    for style, src in SOURCES.items():
        if not src.exists():
            print(f"missing {src}: apt-get install -y fonts-noto-cjk", file=sys.stderr)
            return 1
    version = "?"
    for style, src in SOURCES.items():
        out = OUT_DIR / f"{PS_FAMILY}-{style}.otf"
        n = build_one(style, src, out)
        print(f"{out.relative_to(ROOT)}: {n} characters, {out.stat().st_size / 1024:.0f} KB")
    from fontTools.ttLib import TTFont
    version = TTFont(str(OUT_DIR / f"{PS_FAMILY}-Regular.otf"))["name"].getDebugName(5)
    version = (version or "?").split(";")[0].replace("Version ", "")
    (OUT_DIR / "OFL.txt").write_text(license_text(), encoding="utf-8")
    nkanji = len(set(KANJI))
    (OUT_DIR / "README.txt").write_text(README.format(version=version, nkanji=nkanji),
                                        encoding="utf-8")
    print(f"assets/fonts/OFL.txt, assets/fonts/README.txt ({nkanji} kanji)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
