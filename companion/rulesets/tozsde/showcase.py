"""Tőzsde's demo players and screenshots (companion/showcase.py, ui/screenshots.py).

Its scenes also carry the app's screens that need a game of some kind
behind them (start, settings, the PIN, the history).

>>> [s.name for s in SCENES if s.group == "table"]
['table-tozsde', 'table-die-bluetooth', 'table-tozsde-six', 'table-tozsde-six-late', 'table-tozsde-order', 'table-tozsde-rolloff', 'table-tozsde-time-up', 'table-tozsde-casino', 'table-tozsde-trade', 'table-tozsde-debt', 'pin', 'owners-tozsde', 'holdings-tozsde']
"""

from __future__ import annotations

from typing import Any

from companion.showcase import Play, Played, Scene

PLAYERS = ("Anna", "Béla", "Cecília", "Dénes")
"""The players of a demo game (ui/demo.py)."""

SETUP = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"],
         "colours": ["red", "blue", "green", "yellow"], "order_by": "rolloff", "draw_by": "app"}
SIX = {**SETUP, "players": ["Anna", "Béla", "Csaba", "Dóra", "Endre", "Fruzsina"],
       "colours": ["red", "blue", "green", "yellow", "purple", "orange"]}

BEFORE_START = Play(SETUP, seed=3, actions=40)
TABLE = Play(SETUP, seed=7, actions=60)
HISTORY = Played("tozsde", seed=2, players=4, stop_at=60, correction_at=56)


def _after_a_roll(table: Any) -> bool:
    return bool(table.length >= 90 and table.actions(-1)[0]["type"] == "roll")


def _a_bet_offered(table: Any) -> bool:  # §7.3: the casino
    return any(c.type == "bet" for c in table.legal_actions())


def _a_grid_of_trades(table: Any) -> bool:  # §4: many companies to buy and sell, each button its count and price
    types = [c.type for c in table.legal_actions()]
    return bool(table.length >= 30 and types.count("buy") >= 3 and "sell" in types)


def _in_debt(table: Any) -> bool:
    return table.view().game.get("debt") is not None


def _undo_needs_pin(table: Any) -> bool:  # C4: undo past the player's turn asks for the banker's PIN
    return bool(table.length > 30 and table.undo_pin() is not None)


SCENES = (
    Scene("start", "start", BEFORE_START, ("screen:start",)),
    Scene("settings", "settings", BEFORE_START, ("screen:start", "settings")),
    Scene("settings-die", "settings", BEFORE_START, ("screen:start", "settings", "die-ports")),
    Scene("settings-die-path", "settings", BEFORE_START, ("screen:start", "settings", "die-path")),
    # Settings → Die → Bluetooth dice: the dice in range by name and colour, one paired
    Scene("settings-die-bluetooth", "settings", BEFORE_START, ("screen:start", "settings", "die-pair")),
    Scene("phones", "settings", TABLE, ("screen:table", "phones")),
    # the dialog before the web process listens, and when it ends before it listens
    Scene("phones-starting", "settings", TABLE, ("screen:table", "phones-starting")),
    Scene("phones-failed", "settings", TABLE, ("screen:table", "phones-failed")),
    Scene("table-phones", "settings", TABLE, ("screen:table", "phones-on")),
    # two phones ask to join: the oldest ask on the table screen, with Allow and Refuse
    Scene("table-phones-ask", "settings", TABLE, ("screen:table", "phones-on", "phones-ask")),
    Scene("new-tozsde", "new", None, ("new",)),
    Scene("names", "names", None, ("new", "edit-name:1")),
    Scene("table-tozsde", "table", TABLE, ("screen:table",)),
    # two Bluetooth dice paired: one rolled, the other asleep (the die line says so)
    Scene("table-die-bluetooth", "table", TABLE, ("screen:table", "die-line")),
    # the most players Tőzsde takes: their rows in two columns
    Scene("table-tozsde-six", "table", Play(SIX, seed=3, until=_after_a_roll), ("screen:table",)),
    # late in a six players' game: fortunes of five digits, many companies held (the shares shortened)
    Scene("table-tozsde-six-late", "table", Play(SIX, seed=3, actions=300), ("screen:table",)),
    Scene("table-tozsde-order", "table", Play({**SETUP, "order_by": "hand"}, dealt=True),
          ("screen:table", "dialog:choice:set_order")),
    # the roll-off before anything is said: the sentence says how the order of play is found (§5)
    Scene("table-tozsde-rolloff", "table", Play(SETUP, dealt=True), ("screen:table",)),
    # T11 with the clock: "Time is up" stands apart and asks first
    Scene("table-tozsde-time-up", "table", Play({**SETUP, "options": {"timed_clock": True}}, seed=5, actions=40),
          ("screen:table", "dialog:choice:time_up")),
    # two numbers called: the dialog says what that pays
    Scene("table-tozsde-casino", "table", Play(SETUP, seed=11, until=_a_bet_offered),
          ("screen:table", "dialog:wager", "toggle:3", "toggle:5")),
    Scene("table-tozsde-trade", "table", Play(SETUP, seed=7, until=_a_grid_of_trades), ("screen:table",)),
    Scene("table-tozsde-debt", "table", Play(SETUP, seed=13, until=_in_debt), ("screen:table",)),
    Scene("pin", "table", Play(SETUP, seed=7, until=_undo_needs_pin), ("screen:table", "pin:2468")),
    Scene("board-tozsde", "board", TABLE, ("screen:table", "board")),
    # a tap on company 3 (held by Anna and Csaba), on Béla's row (four companies)
    Scene("owners-tozsde", "table", TABLE, ("screen:table", "owners:3")),
    Scene("holdings-tozsde", "table", TABLE, ("screen:table", "holdings:1")),
    Scene("history", "history", HISTORY, ("screen:history",)),
    Scene("correction", "history", HISTORY, ("screen:history", "correction")),
    # a tap on an entry: how many actions go back, then the history taken back to it
    Scene("history-take-back", "history", HISTORY, ("screen:history", "take-back:50")),
    Scene("history-taken-back", "history", HISTORY, ("screen:history", "taken-back:50", "screen:history")),
    Scene("end-tozsde", "end", Played("tozsde", seed=1, players=3, correction_at=25), ("screen:end", "end:fortunes")),
    Scene("rules-tozsde", "rules", None, ("rules",)),
)
"""Tőzsde's screenshots."""
