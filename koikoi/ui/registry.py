"""Every scene by name, imported when first opened.

Scenes open each other through ``app.open(name, ...)`` (push, replace or reset
the stack) and ``app.push_overlay(name, ...)`` instead of importing each other's
classes: the scene modules form no import cycles, and a scene that fails to
import (a broken install) fails where it is opened, with a message, not when the
game starts.

    app.open("newmatch")                         # push
    app.open("title", mode="reset")              # close everything, show the title
    app.open("results", session, event, on_close=done, mode="replace")
"""

from __future__ import annotations

import importlib

# name -> (module under koikoi.ui.scenes, class)
SCENES = {
    "title": ("title", "TitleScene"),
    "howto": ("howto", "HowToPlayScene"),
    "newmatch": ("newmatch", "NewMatchScene"),
    "house_rules": ("house_rules", "HouseRulesScene"),
    "rules_panel": ("rules_panel", "RulesPanelScene"),
    "settings": ("settings", "SettingsScene"),
    "pause": ("settings", "PauseMenuScene"),
    "confirm": ("settings", "ConfirmScene"),
    "saved": ("saved", "SavedMatchesScene"),
    "unfinished": ("saved", "UnfinishedMatchScene"),
    "history": ("history", "HistoryScene"),
    "stats": ("stats", "StatsScene"),
    "oyagime": ("oyagime", "OyagimeScene"),
    "unavailable": ("oyagime", "UnavailableScene"),
    "round": ("round", "RoundScene"),
    "curtain": ("curtain", "CurtainScene"),
    "prompt": ("prompt", "KoiKoiPromptScene"),
    "inspector": ("inspector", "InspectorScene"),
    "keys": ("keyhelp", "KeysScene"),
    "results": ("results", "RoundResultsScene"),
    "match_results": ("ledger", "MatchResultsScene"),
    "replay": ("replay", "ReplayScene"),
    "learn": ("learn", "LearnScene"),
    "lesson": ("lesson", "LessonScene"),
    "puzzle": ("puzzle", "PuzzleScene"),
    "online": ("online", "OnlineScene"),
    "online_host": ("online", "HostScene"),
    "online_join": ("online", "JoinScene"),
    "online_pause": ("online_table", "OnlinePauseScene"),
    "quickmatch": ("quickmatch", "QuickMatchScene"),
    "leaderboard": ("leaderboard", "LeaderboardScene"),
    "profile": ("profile", "ProfileScene"),
    "player_key": ("profile", "PlayerKeyScene"),
}

MODES = ("push", "replace", "reset")


def scene_class(name: str) -> type:
    """The class registered as ``name`` (KeyError for an unknown name; ImportError, or
    whatever the module raises, if it cannot be loaded)."""
    module, cls = SCENES[name]
    return getattr(importlib.import_module(f"koikoi.ui.scenes.{module}"), cls)
