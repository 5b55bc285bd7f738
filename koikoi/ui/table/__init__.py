"""The round table, by responsibility (``scenes/round.py`` wires them together):

    context.py    what the parts share instead of the scene (TableContext), and what a
                  lesson or a puzzle changes of the table (TablePolicy)
    stage.py      card sprites, poses and the tweens between them
    director.py   each public event -> steps between two folded tables
    controls.py   gestures and keys -> intents -> legal engine actions
    driver.py     whose turn it is: CPU pacing, the friend-match curtain, the prompt
    hud.py        the panels, the yaku lines, the status line and the banners
    render.py     drawing the sprites, and the caches that keep a frame cheap

The table shows ``koikoi.engine.table.PublicTable`` values folded from the
public events of one seat: the same fold the replay viewer and a network
client use. The parts read the session (a ``koikoi.session.TableSession``) and
that fold through one ``TableContext``, never through the scene.
"""


from ...ai import CPU_LEVELS
from ...i18n import N_, _


HUMAN_DEFAULT_NAME = "You"
"""The name the New match dialog gives the player's seat (stored in the match, in English)."""

FRIEND_DEFAULT_NAMES = (N_("Player 1"), N_("Player 2"))
"""The names a friend match's seats get until someone types others (the "friend_names"
setting's defaults, stored in English): shown in the current language, like "You"."""


# the names the game gives seats (stored in English): shown in the current language
_GAME_NAMES = frozenset((HUMAN_DEFAULT_NAME, N_("CPU"), *FRIEND_DEFAULT_NAMES, *(lvl.seat_name for lvl in CPU_LEVELS)))


def seat_label(name) -> str:
    """A seat's name as shown: the game's own names ("You", "CPU (Hard)") in the current
    language, a name a player typed as it is."""
    name = str(name)
    return _(name) if name in _GAME_NAMES else name
