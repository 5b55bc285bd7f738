"""The shared palette and geometry of the hanafuda card faces.

Both painter modules (months 1-6 and months 7-12) draw with these colours so
the deck reads as one set: flat, saturated traditional colours with dark
outlines. Painters must not change this file; add local shades next to the
painter if a card really needs one.
"""

# Final card size in assets/cards (pixels) and the supersampling factor the
# painters draw at. The real card is about 54 x 87 mm.
CARD_W, CARD_H = 216, 348
SS = 4
CANVAS_W, CANVAS_H = CARD_W * SS, CARD_H * SS  # what a painter receives

# Paper and outline
PAPER = (246, 238, 220, 255)        # warm off-white card stock
INK = (28, 22, 20, 255)             # outlines, black areas
FRAME = (60, 40, 30, 255)           # thin border drawn by the framework

# Skies and grounds
SKY_RED = (196, 36, 40, 255)        # the big red sky areas
SKY_RED_DARK = (150, 24, 30, 255)
SKY_NIGHT = (30, 26, 40, 255)
HILL_BLACK = (24, 22, 24, 255)      # the pampas hill

# Plants
PINE_GREEN = (40, 110, 60, 255)
LEAF_GREEN = (60, 140, 70, 255)
LEAF_DARK = (24, 80, 44, 255)
BRANCH_BROWN = (96, 58, 34, 255)
PLUM_RED = (210, 40, 60, 255)
PLUM_WHITE = (250, 246, 240, 255)
CHERRY_PINK = (246, 180, 200, 255)
CHERRY_WHITE = (252, 236, 240, 255)
WISTERIA_PURPLE = (126, 70, 160, 255)
IRIS_PURPLE = (90, 60, 170, 255)
PEONY_RED = (214, 40, 70, 255)
PEONY_PINK = (236, 120, 150, 255)
CLOVER_RED = (196, 48, 70, 255)
PAMPAS_WHITE = (244, 240, 226, 255)
CHRYS_YELLOW = (240, 196, 40, 255)
MAPLE_RED = (210, 50, 30, 255)
MAPLE_ORANGE = (236, 120, 30, 255)
WILLOW_GREEN = (90, 150, 70, 255)
PAULOWNIA_PURPLE = (150, 100, 170, 255)
PAULOWNIA_LEAF = (40, 70, 50, 255)

# Ribbons
RIBBON_RED = (204, 30, 40, 255)
RIBBON_BLUE = (40, 70, 170, 255)
RIBBON_TEXT = (20, 16, 16, 255)

# Special subjects
SUN_RED = (220, 40, 40, 255)
MOON_PALE = (250, 244, 210, 255)
GOLD = (230, 180, 50, 255)
WHITE = (255, 255, 255, 255)
YELLOW = (246, 210, 50, 255)
BLUE = (50, 90, 190, 255)
BROWN = (120, 74, 40, 255)

# The Japanese text on the three poetry ribbons (drawn vertically).
POETRY_TEXT = {"01-RP": "あかよろし", "02-RP": "あかよろし", "03-RP": "みよしの"}

# A CJK font available at build time (Debian's fonts-noto-cjk).
CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
