"""The round table, by responsibility (``scenes/round.py`` wires them together):

    stage.py      card sprites, poses and the tweens between them
    director.py   each public event -> steps between two folded tables
    controls.py   gestures and keys -> intents -> legal engine actions
    driver.py     whose turn it is: CPU pacing, the friend-match curtain, the prompt
    hud.py        the panels, the yaku lines, the status line and the banners
    render.py     drawing the sprites, and the caches that keep a frame cheap

The table shows ``koikoi.engine.table.PublicTable`` values folded from the
public events of one seat: the same fold the replay viewer and a network
client use.
"""


# The translation function (koikoi.i18n), re-exported: the UI imports it from here.
from ...i18n import N_, _, _n, ngettext, pgettext  # noqa: F401
